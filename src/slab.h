/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * slab.h - object caches: dentries and inodes come from 64 KiB slabs of equal-sized
 * objects, as in the kernel (mm/slub.c's kmem_cache), instead of one malloc chunk
 * each.
 *
 * Why: malloc rounds every chunk up and keeps a header per chunk (a 176-byte object
 * took 192 bytes), and a free in one thread of memory another thread allocated goes
 * the slow way through the arena.  A slab carries one header for hundreds of objects
 * (docs/PERFORMANCE.md: 240 bytes an empty file), and a freed object is handed out
 * again first (it is cache-warm).
 *
 * Locking: a cache and its slabs are protected by uvfs.ns_lock; objects are
 * allocated and freed by holders of it only (deferred frees run under it too:
 * rcu_defer.c), and by uvfs_free() once no other call can be running.
 */
#ifndef UVFS_SLAB_H
#define UVFS_SLAB_H

#include "internal.h"

#define SLAB_SIZE ((size_t)64 * 1024)
/* Empty slabs a cache keeps (1 MiB): deferred frees come back in batches, so a
 * create/delete loop empties and refills a few slabs all the time. */
#define SLAB_KEEP_EMPTY 16

struct kmem_cache {
	size_t size;                    /* immutable: object size, a multiple of 8 */
	unsigned int per_slab;          /* immutable: objects in one slab */
	struct cds_list_head partial;   /* ns_lock: slabs with a free object */
	struct cds_list_head full;      /* ns_lock: slabs without */
	struct cds_list_head empty;     /* ns_lock: slabs kept when their last object went */
	unsigned int nr_empty;          /* ns_lock: at most SLAB_KEEP_EMPTY */
	long objects;                   /* ns_lock: objects handed out */
	struct kmem_cache *next;        /* ns_lock: uvfs.caches */
};

/* kmem_cache_get - the instance's cache for objects of this size (made on first use;
 * objects of equal size share one, as the kernel merges caches).  NULL on ENOMEM. */
struct kmem_cache *kmem_cache_get(struct uvfs *fs, size_t size);

/* kmem_cache_zalloc - a zeroed object, or NULL (ENOMEM, or the fault injector:
 * uvfs_should_fail()). */
void *kmem_cache_zalloc(struct kmem_cache *c);

/* kmem_cache_free - give an object back to the cache it came from (found from its
 * address).  Only once no lockless reader can still see it: rcu_defer.c. */
void kmem_cache_free(void *obj);

/* kmem_caches_destroy - free every slab of every cache of the instance (uvfs_free,
 * after every object is back). */
void kmem_caches_destroy(struct uvfs *fs);

#endif /* UVFS_SLAB_H */
