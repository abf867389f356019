/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcu_defer.h - frees that must wait for a grace period, in batches.
 *
 * A dentry or inode that a lockless walk (walk.c) may still be reading can be
 * freed only after a grace period.  One call_rcu per object, as uvfs first did,
 * costs a callback, a wake-up of liburcu's worker and, worst, a free() in that
 * worker's thread of memory the writer's thread will want again.  Instead, objects
 * are collected in batches of DEFER_BATCH; one call_rcu per batch marks it done, and
 * the writer itself frees the objects of done batches the next time it defers one
 * (the kernel batches kfree_rcu() the same way: kvfree_rcu_bulk()).  Objects are
 * freed in the order they were deferred.
 *
 * Locking: defer_free() is called with uvfs.ns_lock held, and runs the free
 * functions of done batches under it.  defer_flush() is for uvfs_free(), with no
 * other call running.
 */
#ifndef UVFS_RCU_DEFER_H
#define UVFS_RCU_DEFER_H

#include "internal.h"

#define DEFER_BATCH 128
/* Batches waiting at most: beyond, the writer waits for a grace period itself.
 * liburcu's worker sleeps milliseconds between grace periods, so a fast writer
 * would otherwise have tens of thousands of objects waiting (and the slabs for them
 * mapped and unmapped all the time); this bounds them at about 2,000. */
#define DEFER_MAX_PENDING 16

typedef void (*defer_fn)(struct uvfs *fs, void *obj);

/* ThreadSanitizer's stand-in for a grace period (internal.h, tsan_release): every
 * read section releases it as it ends; whatever runs after a grace period acquires
 * it.  Never read or written otherwise. */
extern char rcu_readers_done;
static inline void rcu_read_end(void)
{
	tsan_release(&rcu_readers_done);
	urcu_bp_read_unlock();
}

/* defer_free - call fn(fs, obj) once every RCU reader that may see obj is gone.
 * Never fails: without memory for a batch, it waits for a grace period itself. */
void defer_free(struct uvfs *fs, void *obj, defer_fn fn);

/* defer_kfree - free(obj) after the grace period (a malloc'ed array a lockless reader
 * may still hold: descriptor arrays, the pid table). */
void defer_kfree(struct uvfs *fs, void *obj);

/* defer_flush - wait for a grace period and run every deferred free (uvfs_free, and
 * defer_free() itself when DEFER_MAX_PENDING batches wait). */
void defer_flush(struct uvfs *fs);

#endif /* UVFS_RCU_DEFER_H */
