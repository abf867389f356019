/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lock.h - the instance's mutex and the wait queues of blocked calls (fifos, lease
 * breaks), on futexes.
 *
 * Every public call takes ns_lock once and gives it back: with glibc's mutex that was
 * about 57 instructions a call (the type dispatch, the owner and elision checks, the
 * calls through the PLT), as much as half a component of the walk.  This is the
 * kernel's mutex fast path instead (one cmpxchg to lock, one atomic decrement to
 * unlock: Drepper's "Futexes are tricky", mutex 3), with the futex system call only
 * when there is contention.  The wait queue replaces pthread_cond_t: a sequence count
 * that a waker bumps, so a waiter that reads it under the mutex and sleeps on it
 * cannot miss a wake-up.
 *
 * Locking: struct uvfs_mutex is itself the lock; struct uvfs_waitq's seq is atomic,
 * its waiters is protected by the mutex the waiters hold.
 */
#ifndef UVFS_LOCK_H
#define UVFS_LOCK_H

#include <stdatomic.h>

struct uvfs_mutex {
	atomic_int state;  /* 0 unlocked, 1 locked, 2 locked and maybe waited for */
};

struct uvfs_waitq {
	atomic_uint seq;       /* bumped by every wake-up */
	unsigned int waiters;  /* the mutex: sleepers, so that a wake-up without any
				* makes no system call */
};

#define UVFS_MUTEX_INIT { 0 }

void uvfs_mutex_lock_slow(struct uvfs_mutex *m, int c);
void uvfs_mutex_unlock_slow(struct uvfs_mutex *m);

static inline void uvfs_mutex_lock(struct uvfs_mutex *m)
{
	int c = 0;

	if (__builtin_expect(atomic_compare_exchange_strong_explicit(
			&m->state, &c, 1, memory_order_acquire, memory_order_relaxed), 1))
		return;
	uvfs_mutex_lock_slow(m, c);
}

static inline void uvfs_mutex_unlock(struct uvfs_mutex *m)
{
	if (__builtin_expect(atomic_fetch_sub_explicit(&m->state, 1, memory_order_release) == 1, 1))
		return;
	uvfs_mutex_unlock_slow(m);
}

/* Sleep until waitq_wake_all(), m (held) given up meanwhile and held again after. */
void waitq_wait(struct uvfs_waitq *q, struct uvfs_mutex *m);
/* The same, sleeping at most until deadline (CLOCK_MONOTONIC, nanoseconds): the caller
 * tells a timeout from a wake-up by the clock, as a wake-up may come at the deadline */
void waitq_wait_until(struct uvfs_waitq *q, struct uvfs_mutex *m, long long deadline);
/* Wake every sleeper; the caller holds the mutex they sleep with. */
void waitq_wake_all(struct uvfs_waitq *q);

#endif /* UVFS_LOCK_H */
