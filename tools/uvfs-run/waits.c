// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * waits.c - calls that wait, answered on threads of their own, and signals that
 * interrupt them.
 *
 * A fifo's open waits for its other end, a read of an empty fifo for data, a write
 * to a full one for room; an open or truncate that breaks a lease waits for its
 * holder.  uvfs waits in the calling thread (pipe.c, leases.c), and the
 * supervisor's loop (trace.c) must not: it answers every other process.  So a call
 * that may wait -- an open of a uvfs fifo without O_NONBLOCK, a read or write of one,
 * an open or truncate a lease is in the way of -- is handed to a helper thread of its
 * own, which makes the uvfs call and reports back; the loop applies the answer (the
 * registers and the resumption of a traced call, the install, PTRACE_INTERRUPT and
 * the response of a notified one: ptrace is the loop's thread's alone).  Which calls
 * may wait: an open or truncate made with uvfs_set_nowait() on returns
 * -UVFS_EWOULDWAIT, having done nothing, where it would wait (syscalls.c: ACT_WAIT);
 * a read or write is judged before the call by what uvfs says of the descriptor
 * (run_may_wait_traced: a wrong guess only moves a call that does not wait onto a
 * helper).  A lease's holder is told of the break the helper's call made at the
 * loop's next tick (run_waits_tick: uvfs_dnotify_take), within 10 ms.
 *
 * A signal: the kernel ends such a wait with -ERESTARTSYS, and its signal delivery
 * turns that into EINTR or a restart of the call (SA_RESTART; always a restart when
 * no handler runs).  A notified call waits killably once received
 * (SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV) and a traced one in its stop, so nothing
 * tells the supervisor of a signal: every 10 ms while a helper waits, the loop reads
 * /proc/TID/status of its thread, and a signal pending for it -- its own (SigPnd),
 * or the process's (ShdPnd) when the kernel would pick this thread to take it (the
 * leader, or a thread when the leader blocks the signal: complete_signal()) -- raises
 * the helper's uvfs_intr; uvfs's call returns -ERESTARTSYS, which the loop answers,
 * and the kernel's signal delivery does the rest (trace.c, on_signal_stop).  A caller
 * that is gone (killed, its notification no longer valid) raises it too, so that
 * nothing is left waiting on its behalf: fifo_open's err_rd undoes the reader.
 *
 * Threads: the loop's thread makes and reaps helpers and alone changes the list; a
 * worker about to answer a lease call looks through it (run_waits_settle), under
 * helpers_lock; a helper writes its result, then sets done (release) and writes the
 * eventfd.  A struct proc a helper uses is kept (proc->busy) until the loop has reaped
 * it.
 *
 * Locking:
 *
 *   what                     protected by
 *   -----------------------  ---------------------------------------------------
 *   helpers (the list)       helpers_lock, taken by the loop's thread to change it
 *                            and by a worker to read it; nhelpers the loop's only
 *   helper.done, .raised     atomic: done set by the helper after its result, raised
 *                            by whoever raises its uvfs_intr first
 *   helper's result fields   written by the helper before done, read after
 *   everything else in it    immutable while the helper runs
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "run.h"

static struct run_wait *helpers;
static pthread_mutex_t helpers_lock = PTHREAD_MUTEX_INITIALIZER;
static int nhelpers;
static int done_fd = -1, tick_fd = -1;

int run_waits_init(void)
{
	done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	tick_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	return done_fd < 0 || tick_fd < 0 ? -errno : 0;
}

int run_waits_done_fd(void)
{
	return done_fd;
}

int run_waits_tick_fd(void)
{
	return tick_fd;
}

int run_waits_count(void)
{
	return nhelpers;
}

/*
 * The lowest number a helper's new uvfs descriptor may take.  Its open may wait, and
 * meanwhile the loop installs other descriptors of the same process at the numbers
 * the kernel gives (ADDFD, then run_installed() moves uvfs's there): the helper's
 * must be on one the kernel does not give -- at or above the process's
 * RLIMIT_NOFILE (alloc_fd() stops below it, dup2() above it is EBADF) -- but no
 * higher than 4096, for uvfs's table grows to hold it (a process that opens a fifo
 * has a table of 8192 in uvfs: the end of its /proc/PID/fd listing says so; a process
 * with 4096 descriptors open and a limit above could meet a helper's).  The loop's own
 * opens take the lowest free number: it installs them itself, one at a time.
 */
void run_fd_floor(const struct proc *p)
{
	struct rlimit rl;
	unsigned int floor = 4096;

	if (!prlimit(p->up->tgid, RLIMIT_NOFILE, NULL, &rl) && rl.rlim_cur < floor)
		floor = (unsigned int)rl.rlim_cur;
	uvfs_set_fd_floor(floor);
}

/* ---- which calls may wait ---- */

bool run_may_wait_traced(const struct proc *p, const struct user_regs_struct *r)
{
	int fd = (int)r->rdi, fl;
	struct stat st;

	switch (r->orig_rax) {
	case SYS_read:
	case SYS_write:
	case SYS_readv:
	case SYS_writev:
		break;
	default:
		return false;
	}
	fl = uvfs_fcntl(p->up->task, fd, F_GETFL, 0);
	if (fl < 0 || (fl & O_NONBLOCK) || uvfs_fstat(p->up->task, fd, &st))
		return false;
	/* a fifo; or an inotify descriptor (an anonymous inode: no type bits), whose
	 * read waits for an event */
	return S_ISFIFO(st.st_mode) ||
	       (!(st.st_mode & S_IFMT) && (r->orig_rax == SYS_read || r->orig_rax == SYS_readv));
}

/* ---- helpers ---- */

static void *helper_main(void *arg)
{
	struct run_wait *w = arg;
	uint64_t one = 1;

	run_on_helper = true;
	uvfs_intr_attach(w->in);
	run_fd_floor(w->p);
	if (w->notified)
		run_notif_begin(w->req.id);
	run_mem_pin(w->mem_fd);
	w->a = run_syscall(w->p, &w->regs);  /* an ACT_INSTALL: the loop installs it */
	run_mem_pin(-1);
	run_notif_end();
	uvfs_intr_attach(NULL);
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	if (write(done_fd, &one, sizeof(one)) != sizeof(one))
		abort();  /* an eventfd's counter cannot overflow here */
	return NULL;
}

static void tick_arm(bool on)
{
	struct itimerspec its = { 0 };

	if (on)
		its.it_interval.tv_nsec = its.it_value.tv_nsec = 10 * 1000 * 1000;
	(void)timerfd_settime(tick_fd, 0, &its, NULL);
}

/* A traced call's memory, for its helper: /proc/TID/mem, opened while the caller is
 * in its stop -- checked after the open to be the same stop (its registers), not a
 * new program's that took the id in an exec by another thread.  -ESRCH: the caller
 * is gone, and nothing is to be answered */
static int mem_pin(struct run_wait *w)
{
	struct user_regs_struct r;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/mem", w->p->tid);
	w->mem_fd = open(path, O_RDWR | O_CLOEXEC);
	if (w->mem_fd < 0)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
	if (ptrace(PTRACE_GETREGS, w->p->tid, 0, &r) || r.rip != w->regs.rip ||
	    r.orig_rax != w->regs.orig_rax) {
		close(w->mem_fd);
		w->mem_fd = -1;
		return -ESRCH;
	}
	return 0;
}

int run_wait_start(struct proc *p, const struct seccomp_notif *req,
		   const struct user_regs_struct *regs)
{
	struct run_wait *w = calloc(1, sizeof(*w));
	pthread_attr_t attr;
	int err;

	if (!w)
		return -ENOMEM;
	w->in = uvfs_intr_new();
	if (!w->in) {
		free(w);
		return -ENOMEM;
	}
	w->p = p;
	w->regs = *regs;
	w->mem_fd = -1;
	if (req) {
		w->notified = true;
		w->req = *req;
	} else if ((err = mem_pin(w))) {
		uvfs_intr_free(w->in);
		free(w);
		return err;
	}
	/* a small stack: a helper makes one uvfs call (syscalls.c's largest frame is
	 * two paths of PATH_MAX) */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	err = pthread_create(&w->thread, &attr, helper_main, w);
	pthread_attr_destroy(&attr);
	if (err) {
		if (w->mem_fd >= 0)
			close(w->mem_fd);
		uvfs_intr_free(w->in);
		free(w);
		return -err;
	}
	run_proc_hold(p);
	pthread_mutex_lock(&helpers_lock);
	w->next = helpers;
	helpers = w;
	pthread_mutex_unlock(&helpers_lock);
	if (!nhelpers++)
		tick_arm(true);
	return 0;
}

struct run_wait *run_wait_reap(void)
{
	uint64_t n;

	(void)!read(done_fd, &n, sizeof(n));
	for (struct run_wait **pw = &helpers; *pw; pw = &(*pw)->next) {
		struct run_wait *w = *pw;

		if (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE))
			continue;
		pthread_mutex_lock(&helpers_lock);
		*pw = w->next;
		pthread_mutex_unlock(&helpers_lock);
		pthread_join(w->thread, NULL);
		if (!--nhelpers)
			tick_arm(false);
		return w;  /* more may be done: the loop calls again until NULL */
	}
	return NULL;
}

void run_wait_free(struct run_wait *w)
{
	if (w->mem_fd >= 0)
		close(w->mem_fd);
	uvfs_intr_free(w->in);
	free(w);
}

/* ---- signals ---- */

static bool read_status(pid_t tid, uint64_t *pnd, uint64_t *shd, uint64_t *blk, char *state)
{
	char path[64], line[256];
	bool got = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	*pnd = *shd = *blk = 0;
	*state = '?';
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "SigPnd:", 7))
			*pnd = strtoull(line + 7, NULL, 16);
		else if (!strncmp(line, "ShdPnd:", 7))
			*shd = strtoull(line + 7, NULL, 16);
		else if (!strncmp(line, "SigBlk:", 7))
			*blk = strtoull(line + 7, NULL, 16), got = true;
		else if (!strncmp(line, "State:", 6))
			*state = line[7];
	}
	fclose(f);
	return got;
}

/* Would the kernel wake tid for a signal now (signal_wake_up() from
 * complete_signal())?  Its own pending signals it does not block, or the process's
 * when it is the leader or the leader blocks them or is gone. */
static bool signal_for(pid_t tid, pid_t tgid)
{
	uint64_t pnd, shd, blk, lpnd, lshd, lblk;
	char state, lstate;

	if (!read_status(tid, &pnd, &shd, &blk, &state))
		return false;
	if (pnd & ~blk)
		return true;
	if (!(shd & ~blk))
		return false;
	if (tid == tgid || !read_status(tgid, &lpnd, &lshd, &lblk, &lstate) || lstate == 'Z')
		return true;
	return (shd & ~blk & ~lblk) == 0;
}

/* A thread gone (proc_del): its helpers' waits end now, not at the next tick, so that
 * a fifo end it was opening counts no more.  With wait, until they are done: the
 * loop resumes a new program that took the thread's id (an exec by another thread)
 * only then, as the kernel runs it only after the killed thread is gone. */
void run_waits_raise(const struct proc *p, bool wait)
{
	for (struct run_wait *w = helpers; w; w = w->next) {
		if (w->p != p)
			continue;
		if (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) &&
		    !__atomic_exchange_n(&w->raised, true, __ATOMIC_ACQ_REL))
			uvfs_intr_raise(run_fs, w->in);
		/* a raised wait ends at once: uvfs_intr wakes it (bounded all the same) */
		for (int i = 0; wait && i < 1000 && !__atomic_load_n(&w->done, __ATOMIC_ACQUIRE); i++)
			usleep(1000);
	}
}

void run_waits_tick(void)
{
	uint64_t n;

	(void)!read(tick_fd, &n, sizeof(n));
	/* a helper waiting for a lease's holder broke the lease in its call: the
	 * holder is told here, within a tick */
	run_dnotify_send();
	for (struct run_wait *w = helpers; w; w = w->next) {
		bool gone;

		if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&w->raised, __ATOMIC_ACQUIRE))
			continue;
		gone = w->p->dead ||
		       (w->notified && seccomp_notify_id_valid(run_notify_fd, w->req.id));
		if ((gone || signal_for(w->p->tid, w->p->up->tgid)) &&
		    !__atomic_exchange_n(&w->raised, true, __ATOMIC_ACQ_REL))
			uvfs_intr_raise(run_fs, w->in);
	}
}

/*
 * Before a lease is taken or looked at (F_SETLEASE, F_GETLEASE): the waits of callers
 * already gone end first.  The tick ends them within 10 ms, but a holder that has
 * reaped an opener it killed must find that open gone, as the kernel's is by then
 * (its count of readers or writers would refuse a write lease: EAGAIN).  Bounded: a
 * raised wait ends at once.
 */
void run_waits_settle(void)
{
	pthread_mutex_lock(&helpers_lock);
	for (struct run_wait *w = helpers; w; w = w->next) {
		if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) || !w->notified ||
		    !seccomp_notify_id_valid(run_notify_fd, w->req.id))
			continue;
		if (!__atomic_exchange_n(&w->raised, true, __ATOMIC_ACQ_REL))
			uvfs_intr_raise(run_fs, w->in);
		for (int i = 0; i < 1000 && !__atomic_load_n(&w->done, __ATOMIC_ACQUIRE); i++)
			usleep(100);
	}
	pthread_mutex_unlock(&helpers_lock);
}
