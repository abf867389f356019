// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * intr.c - interrupting a call that waits (the kernel's signal_pending() and
 * signal_wake_up()), and the calling thread's descriptor floor and no-wait setting
 * (uvfs.h).
 *
 * A waiting call (pipe.c) sleeps on a wait queue with ns_lock given up.  The kernel
 * wakes a sleeper for a signal by the task it sleeps as; uvfs has no thread of its own
 * for a call, so the embedder's thread brings a struct uvfs_intr and another thread
 * raises it.  The sleeper names its queue in the uvfs_intr under ns_lock before it
 * sleeps; the raiser sets pending and then, under ns_lock, wakes that queue: either
 * the sleeper saw pending before it slept, or the queue's sequence moved after it read
 * it (lock.c: such a sleep does not begin).
 *
 * Locking:
 *
 *   what                 protected by
 *   -------------------  -------------------------------------------------------
 *   uvfs_intr.pending    atomic (set by any thread, read by the sleeper)
 *   uvfs_intr.wq         the ns_lock of the instance the sleeper waits in
 *   current_intr, floor,  thread-local
 *   nowait
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "internal.h"

struct uvfs_intr {
	atomic_int pending;
	struct uvfs_waitq *wq;      /* the queue its thread sleeps on, or NULL; ns_lock */
};

static _Thread_local struct uvfs_intr *current_intr;
_Thread_local unsigned int uvfs_fd_floor;
_Thread_local bool uvfs_nowait;

struct uvfs_intr *uvfs_intr_new(void)
{
	return calloc(1, sizeof(struct uvfs_intr));
}

void uvfs_intr_free(struct uvfs_intr *in)
{
	free(in);
}

void uvfs_intr_attach(struct uvfs_intr *in)
{
	current_intr = in;
}

void uvfs_intr_raise(struct uvfs *fs, struct uvfs_intr *in)
{
	if (!fs || !in)
		return;
	atomic_store(&in->pending, 1);
	uvfs_mutex_lock(&fs->ns_lock);
	if (in->wq)
		waitq_wake_all(in->wq);
	uvfs_mutex_unlock(&fs->ns_lock);
}

void uvfs_intr_clear(struct uvfs_intr *in)
{
	if (in)
		atomic_store(&in->pending, 0);
}

unsigned int uvfs_set_fd_floor(unsigned int floor)
{
	unsigned int old = uvfs_fd_floor;

	uvfs_fd_floor = floor;
	return old;
}

int uvfs_set_nowait(int on)
{
	bool old = uvfs_nowait;

	uvfs_nowait = on != 0;
	return old;
}

/* uvfs_cond_wait() and uvfs_cond_wait_until(): deadline < 0 sleeps without one */
static int cond_wait(struct uvfs *fs, struct uvfs_waitq *q, long long deadline)
{
	struct uvfs_task *cur = fs->current;
	struct uvfs_intr *in = current_intr;

	assert(ns_locked(fs));
	if (in && atomic_load(&in->pending))
		return -ERESTARTSYS;
	if (in)
		in->wq = q;
	ns_seq_end(fs);
	fs->ns_locked = false;
	if (deadline < 0)
		waitq_wait(q, &fs->ns_lock);
	else
		waitq_wait_until(q, &fs->ns_lock, deadline);
	fs->ns_owner = pthread_self();
	fs->ns_locked = true;
	fs->coarse_now_valid = false;  /* it slept: a new instant */
	ns_seq_begin(fs);
	fs->current = cur;
	if (in) {
		in->wq = NULL;
		if (atomic_load(&in->pending))
			return -ERESTARTSYS;
	}
	return 0;
}

int uvfs_cond_wait(struct uvfs *fs, struct uvfs_waitq *q)
{
	return cond_wait(fs, q, -1);
}

int uvfs_cond_wait_until(struct uvfs *fs, struct uvfs_waitq *q, long long deadline)
{
	return cond_wait(fs, q, deadline < 0 ? 0 : deadline);
}
