// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rcu_defer.c - deferred frees in batches (see rcu_defer.h).
 *
 * Locking:
 *
 *   what                                   protected by
 *   -------------------------------------  ---------------------------------------
 *   uvfs.defer (cur, oldest, newest, spare) uvfs.ns_lock
 *   defer_batch.items, n, next              uvfs.ns_lock
 *   defer_batch.done                        atomic: set by liburcu's callback thread,
 *                                           read (acquire) by the ns_lock holder
 *
 * A batch's life: filled under ns_lock (cur); full, it is handed to call_rcu and
 * queued (oldest .. newest); the callback, after the grace period, only marks it
 * done; the ns_lock holder then runs its items, oldest batch first, and keeps the
 * batch as the spare.  defer_flush() does not wait for callbacks (liburcu's worker
 * may take milliseconds to get to them, and uvfs_free would wait for each): it waits
 * for one grace period, which covers every batch submitted before, runs them all,
 * and leaves each batch whose callback has not run yet for the callback to free.
 */
#include "rcu_defer.h"

char rcu_readers_done;

struct defer_item {
	void *obj;
	defer_fn fn;
};

enum { BATCH_WAITING, BATCH_DONE, BATCH_ORPHANED };

struct defer_batch {
	struct rcu_head rcu;
	atomic_int state;               /* BATCH_*: the callback and the flusher race */
	struct defer_batch *next;
	unsigned int n;
	struct defer_item items[DEFER_BATCH];
};

static void batch_done(struct rcu_head *head)
{
	struct defer_batch *b = container_of(head, struct defer_batch, rcu);

	tsan_acquire(b);                        /* handed over by call_rcu */
	tsan_acquire(&rcu_readers_done);        /* a grace period has passed */

	/* a flushed batch is no longer the instance's: it is ours to free */
	if (atomic_exchange_explicit(&b->state, BATCH_DONE, memory_order_acq_rel) ==
	    BATCH_ORPHANED)
		free(b);
}

static void batch_run(struct uvfs *fs, struct defer_batch *b)
{
	for (unsigned int i = 0; i < b->n; i++)
		b->items[i].fn(fs, b->items[i].obj);
	b->n = 0;
}

/* Run the done batches, oldest first; stop at the first still waiting. */
static void defer_reap(struct uvfs *fs)
{
	struct uvfs_defer *q = &fs->defer;

	while (q->oldest &&
	       atomic_load_explicit(&q->oldest->state, memory_order_acquire) == BATCH_DONE) {
		struct defer_batch *b = q->oldest;

		q->oldest = b->next;
		if (!q->oldest)
			q->newest = NULL;
		q->pending--;
		batch_run(fs, b);
		if (q->spare)
			free(b);
		else
			q->spare = b;
	}
}

static void defer_submit(struct uvfs *fs)
{
	struct uvfs_defer *q = &fs->defer;
	struct defer_batch *b = q->cur;

	q->cur = NULL;
	b->next = NULL;
	atomic_store_explicit(&b->state, BATCH_WAITING, memory_order_relaxed);
	if (q->newest)
		q->newest->next = b;
	else
		q->oldest = b;
	q->newest = b;
	q->pending++;
	tsan_release(b);
	urcu_bp_call_rcu(&b->rcu, batch_done);
}

static void defer_run_all(struct uvfs *fs);

void defer_free(struct uvfs *fs, void *obj, defer_fn fn)
{
	struct uvfs_defer *q = &fs->defer;
	struct defer_batch *b = q->cur;

	assert(ns_locked(fs));
	if (!b) {
		b = q->spare;
		q->spare = NULL;
		/* Not the fault injector's malloc: nothing here may fail an operation. */
		if (!b)
			b = malloc(sizeof(*b));
		if (!b) {
			/* No memory for a batch: wait for every earlier batch, then for the
			 * readers of this object, and free it now, in order. */
			urcu_bp_barrier();
			defer_reap(fs);
			urcu_bp_synchronize_rcu();
			tsan_acquire(&rcu_readers_done);
			fn(fs, obj);
			return;
		}
		b->n = 0;
		q->cur = b;
	}
	b->items[b->n].obj = obj;
	b->items[b->n].fn = fn;
	if (++b->n == DEFER_BATCH) {
		defer_submit(fs);
		defer_reap(fs);
		if (q->pending > DEFER_MAX_PENDING)
			defer_run_all(fs);
	}
}

/* Wait for one grace period, which covers every batch and cur (all filled before
 * it began), and run them all without waiting for their callbacks. */
static void defer_run_all(struct uvfs *fs)
{
	struct uvfs_defer *q = &fs->defer;

	if (!q->cur && !q->oldest)
		return;
	urcu_bp_synchronize_rcu();
	tsan_acquire(&rcu_readers_done);
	while (q->oldest) {
		struct defer_batch *b = q->oldest;

		q->oldest = b->next;
		batch_run(fs, b);
		if (atomic_exchange_explicit(&b->state, BATCH_ORPHANED, memory_order_acq_rel) ==
		    BATCH_DONE)
			free(b);
	}
	q->newest = NULL;
	q->pending = 0;
	if (q->cur) {
		batch_run(fs, q->cur);
		if (q->spare)
			free(q->cur);
		else
			q->spare = q->cur;
		q->cur = NULL;
	}
}

void defer_flush(struct uvfs *fs)
{
	defer_run_all(fs);
	free(fs->defer.spare);
	fs->defer.spare = NULL;
}

static void kfree_cb(struct uvfs *fs, void *obj)
{
	free(obj);
}

void defer_kfree(struct uvfs *fs, void *obj)
{
	defer_free(fs, obj, kfree_cb);
}
