// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * lock.c - the slow paths of the futex mutex and the wait queues (see lock.h).
 *
 * Locking:
 *
 *   what                       protected by
 *   -------------------------  -----------------------------------------------
 *   uvfs_mutex.state           itself (atomic)
 *   uvfs_waitq.seq             atomic
 *   uvfs_waitq.waiters         the mutex its sleepers give up (ns_lock)
 */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lock.h"

static void futex_wait(atomic_int *addr, int val)
{
	syscall(SYS_futex, addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time, so that a wake-up for
 * nothing (another waiter's) does not restart a relative timeout */
static void futex_wait_until(atomic_int *addr, int val, long long deadline)
{
	struct timespec ts = { .tv_sec = deadline / 1000000000, .tv_nsec = deadline % 1000000000 };

	syscall(SYS_futex, addr, FUTEX_WAIT_BITSET_PRIVATE, val, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
}

static void futex_wake(atomic_int *addr, int n)
{
	syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/* Contended: mark the lock waited for (2) and sleep until it is given up. */
void uvfs_mutex_lock_slow(struct uvfs_mutex *m, int c)
{
	if (c != 2)
		c = atomic_exchange_explicit(&m->state, 2, memory_order_acquire);
	while (c != 0) {
		futex_wait(&m->state, 2);
		c = atomic_exchange_explicit(&m->state, 2, memory_order_acquire);
	}
}

/* The lock was 2 (maybe waited for): give it up and wake one sleeper. */
void uvfs_mutex_unlock_slow(struct uvfs_mutex *m)
{
	atomic_store_explicit(&m->state, 0, memory_order_release);
	futex_wake(&m->state, 1);
}

void waitq_wait(struct uvfs_waitq *q, struct uvfs_mutex *m)
{
	unsigned int seq = atomic_load_explicit(&q->seq, memory_order_relaxed);

	q->waiters++;
	uvfs_mutex_unlock(m);
	/* a wake-up between the unlock and the sleep changed seq: no sleep */
	futex_wait((atomic_int *)&q->seq, (int)seq);
	uvfs_mutex_lock(m);
	q->waiters--;
}

void waitq_wait_until(struct uvfs_waitq *q, struct uvfs_mutex *m, long long deadline)
{
	unsigned int seq = atomic_load_explicit(&q->seq, memory_order_relaxed);

	q->waiters++;
	uvfs_mutex_unlock(m);
	futex_wait_until((atomic_int *)&q->seq, (int)seq, deadline);
	uvfs_mutex_lock(m);
	q->waiters--;
}

void waitq_wake_all(struct uvfs_waitq *q)
{
	atomic_fetch_add_explicit(&q->seq, 1, memory_order_release);
	if (q->waiters)
		futex_wake((atomic_int *)&q->seq, INT_MAX);
}
