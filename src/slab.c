// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * slab.c - object caches (see slab.h).
 *
 * Locking:
 *
 *   what                                   protected by
 *   -------------------------------------  ---------------------------------------
 *   struct kmem_cache (but size, per_slab)  uvfs.ns_lock
 *   struct slab                             uvfs.ns_lock
 *   uvfs.caches                             uvfs.ns_lock
 *
 * A slab is SLAB_SIZE bytes aligned to SLAB_SIZE, its header first, so an object's
 * slab is its address rounded down: kmem_cache_free needs no size and no cache.
 * Objects are carved from a slab lazily (a new slab costs one allocation and no
 * loop), freed ones are chained through their first word.  A slab whose last object
 * goes is freed, but for SLAB_KEEP_EMPTY kept per cache so that a create/delete loop
 * does not map, fault in and unmap slabs all the time.
 */
#include <stdio.h>
#include <sys/mman.h>

#include "slab.h"

struct slab {
	struct kmem_cache *cache;       /* immutable */
	struct cds_list_head list;      /* in cache->partial or cache->full */
	void *free;                     /* freed objects of this slab */
	unsigned int inuse;             /* objects handed out */
	unsigned int carved;            /* objects ever handed out from the fresh area */
	char objects[] __attribute__((aligned(16)));
};

_Static_assert(sizeof(struct slab) <= 64, "a slab header takes one cache line");

static inline struct slab *slab_of(const void *obj)
{
	return (struct slab *)((uintptr_t)obj & ~(uintptr_t)(SLAB_SIZE - 1));
}

struct kmem_cache *kmem_cache_get(struct uvfs *fs, size_t size)
{
	struct kmem_cache *c;

	size = (size + 7) & ~(size_t)7;
	for (c = fs->caches; c; c = c->next)
		if (c->size == size)
			return c;
	c = uvfs_zalloc(sizeof(*c));
	if (!c)
		return NULL;
	c->size = size;
	c->per_slab = (unsigned int)((SLAB_SIZE - offsetof(struct slab, objects)) / size);
	CDS_INIT_LIST_HEAD(&c->partial);
	CDS_INIT_LIST_HEAD(&c->full);
	CDS_INIT_LIST_HEAD(&c->empty);
	c->next = fs->caches;
	fs->caches = c;
	return c;
}

/*
 * A slab is mapped on its own, aligned by mapping twice its size and unmapping the
 * ends: posix_memalign() gave the alignment too, but left up to a slab's worth of
 * heap around each one, and part of it resident (41 bytes per file at 10^6 files).
 */
static struct slab *slab_map(void)
{
	char *p = mmap(NULL, 2 * SLAB_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + SLAB_SIZE - 1) & ~(uintptr_t)(SLAB_SIZE - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + SLAB_SIZE, (uintptr_t)p + SLAB_SIZE - a);
	return (struct slab *)a;
}

static void slab_unmap(struct slab *s)
{
	munmap(s, SLAB_SIZE);
}

static struct slab *slab_new(struct kmem_cache *c)
{
	struct slab *s;

	if (c->nr_empty) {
		s = cds_list_first_entry(&c->empty, struct slab, list);
		cds_list_del(&s->list);
		c->nr_empty--;
	} else {
		s = slab_map();
		if (!s)
			return NULL;
		s->cache = c;
		s->free = NULL;
		s->inuse = 0;
		s->carved = 0;
	}
	cds_list_add(&s->list, &c->partial);
	return s;
}

void *kmem_cache_zalloc(struct kmem_cache *c)
{
	struct slab *s;
	void *obj;

	if (uvfs_should_fail())
		return NULL;
	if (cds_list_empty(&c->partial)) {
		s = slab_new(c);
		if (!s)
			return NULL;
	} else {
		s = cds_list_first_entry(&c->partial, struct slab, list);
	}
	if (s->free) {
		obj = s->free;
		s->free = *(void **)obj;
	} else {
		obj = s->objects + (size_t)s->carved++ * c->size;
	}
	if (++s->inuse == c->per_slab) {
		cds_list_del(&s->list);
		cds_list_add(&s->list, &c->full);
	}
	c->objects++;
#ifndef UVFS_TSAN
	return memset(obj, 0, c->size);
#else
	/* A reused dentry or inode may be looked at by a lockless walk that found a
	 * pointer to it mid-change and will fail its ns_seq check; some of its loads are
	 * atomics ThreadSanitizer watches.  Zeroed as WRITE_ONCE would zero it: relaxed
	 * stores, a word at a time (sizes are multiples of 8, above). */
	for (size_t i = 0; i < c->size / 8; i++)
		__atomic_store_n((uint64_t *)obj + i, 0, __ATOMIC_RELAXED);
	return obj;
#endif
}

void kmem_cache_free(void *obj)
{
	struct slab *s = slab_of(obj);
	struct kmem_cache *c = s->cache;

	assert(s->inuse > 0);
	*(void **)obj = s->free;
	s->free = obj;
	c->objects--;
	if (s->inuse-- == c->per_slab) {
		cds_list_del(&s->list);
		cds_list_add(&s->list, &c->partial);
	}
	if (s->inuse)
		return;
	cds_list_del(&s->list);
	if (c->nr_empty < SLAB_KEEP_EMPTY) {
		/* keep it, as good as new */
		s->free = NULL;
		s->carved = 0;
		cds_list_add(&s->list, &c->empty);
		c->nr_empty++;
		return;
	}
	slab_unmap(s);
}

void kmem_caches_destroy(struct uvfs *fs)
{
	struct kmem_cache *c, *next;

	for (c = fs->caches; c; c = next) {
		next = c->next;
		assert(c->objects == 0);
		assert(cds_list_empty(&c->partial) && cds_list_empty(&c->full));
		while (!cds_list_empty(&c->empty)) {
			struct slab *s = cds_list_first_entry(&c->empty, struct slab, list);

			cds_list_del(&s->list);
			slab_unmap(s);
		}
		free(c);
	}
	fs->caches = NULL;
}
