// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.c - the tracer: every thread of the program is a ptrace tracee (forks,
 * vforks, clones and execs followed by the kernel's PTRACE_O_TRACE* options, the
 * whole tree killed if uvfs-run dies: PTRACE_O_EXITKILL), and its threads map to uvfs
 * tasks: a new process (fork, vfork, clone without CLONE_THREAD) is a
 * uvfs_task_clone() of its parent's task with the pid the program's pid namespace
 * gave it, sharing what CLONE_FS and CLONE_FILES say; a new thread shares its
 * process's task.
 *
 * The loop waits for any tracee and handles one stop at a time:
 *   - PTRACE_EVENT_SECCOMP: a trapped call (syscalls.c);
 *   - a syscall-exit stop (asked for with PTRACE_SYSCALL by a rewritten call);
 *   - the entry and exit of a seccomp call the tracer makes a process do in place of
 *     resuming it, when uvfs's descriptor lands on a number its filters do not
 *     watch yet (watch(); filter.c says why);
 *   - PTRACE_EVENT_FORK/VFORK/CLONE: a new tracee; PTRACE_EVENT_EXEC: uvfs follows the
 *     exec the kernel has just done;
 *   - a signal: delivered as it came, but the SIGSTOP every new tracee starts with.
 * A new tracee's first stop may come before its parent's event: it waits, unknown,
 * until the event says whose it is.
 *
 * Threads: the loop's thread alone uses ptrace and takes the stops (waitpid); the
 * notifications are received and answered by worker threads (worker_main(): one per
 * processor the supervisor may run on, at most RUN_WORKERS_MAX -- an answer is work
 * on a processor, uvfs's walk and a handful of system calls, and a worker waits for
 * nothing but the next notification, so more would only take turns), so that the
 * opens and stats of independent processes overlap.  What needs ptrace a worker hands
 * to the loop (handoff(): a newly watched number's PTRACE_INTERRUPT, and the helper a
 * waiting open needs, whose list is the loop's).  A call that may wait runs on a
 * helper thread (waits.c), which uses its struct proc and the process's uvfs task.
 *
 * Locking (nesting: an act lock, then procs_lock or ho_lock; none is held across a
 * wait for a tracee):
 *
 *   what                                  protected by
 *   ------------------------------------  ------------------------------------------
 *   procs[], proc.next                    procs_lock (written by the loop only, which
 *                                         reads them without it)
 *   proc.busy, proc.dead, uproc.threads   procs_lock: whoever drops the last use of a
 *                                         dead proc frees it (proc_put)
 *   the rest of a proc and its uproc      the process's act lock (struct run_act,
 *                                         run.h): a worker from the notification to
 *                                         its response, the loop at a stop; a helper
 *                                         owns its call's fields until it is reaped
 *   uproc.watched                         also atomic: helpers read it
 *   proc.ho_*, the handoff queue          ho_lock until the loop takes it
 *   which worker receives, which park     park_lock (worker_main), alone
 *   run_stats                             atomic adds (run_stat_add)
 *   zombies[], nzombies                   zombies_lock (taken under procs_lock by
 *                                         uproc_put; uvfs's lock is taken under it)
 *
 * The act lock is what keeps the descriptor table of a process one: a worker makes
 * uvfs's descriptor at its lowest free number, installs the stand-in (ADDFD) and moves
 * uvfs's to the number the kernel gave, and the loop mirrors dups and closes at stops
 * of the same process; under one lock, neither sees the other's half-done.  The act
 * lock is recursive: the loop may hold a parent's and a child's that is the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

struct uvfs *run_fs;
pid_t run_tracer_pid;
struct run_stats run_stats;
int run_workers;
int run_null_fd = -1, run_dev_fd = -1, run_notify_fd = -1, run_standin_dir = -1;
unsigned long run_nofile = 1024;  /* set by main.c, raise_nofile() */

#define PROC_HASH 4096
static struct proc *procs[PROC_HASH];
static pthread_mutex_t procs_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- act locks ---- */

static struct run_act *act_new(void)
{
	struct run_act *a = malloc(sizeof(*a));
	pthread_mutexattr_t attr;

	if (!a)
		return NULL;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&a->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	a->refs = 1;
	return a;
}

static struct run_act *act_hold(struct run_act *a)
{
	__atomic_fetch_add(&a->refs, 1, __ATOMIC_RELAXED);
	return a;
}

static void act_put(struct run_act *a)
{
	if (__atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* The loop's lookup: it alone changes the table */
static struct proc *proc_find(pid_t tid)
{
	for (struct proc *p = procs[tid % PROC_HASH]; p; p = p->next)
		if (p->tid == tid)
			return p;
	return NULL;
}

struct uproc *run_uproc_of(pid_t tid)
{
	struct proc *p = proc_find(tid);

	return p && !p->dead ? p->up : NULL;
}

/* A worker's lookup: the proc, kept until proc_put(), or NULL */
static struct proc *proc_get(pid_t tid)
{
	struct proc *p;

	pthread_mutex_lock(&procs_lock);
	p = proc_find(tid);
	if (p)
		p->busy++;
	pthread_mutex_unlock(&procs_lock);
	return p;
}

static struct proc *proc_add(pid_t tid, struct uproc *up)
{
	struct proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->tid = tid;
	p->up = up;
	p->inst_hfd = p->inst_ufd = p->watch_group = p->exec_hfd = p->exec_fd = -1;
	p->restart_nr = -1;
	pthread_mutex_lock(&procs_lock);
	p->next = procs[tid % PROC_HASH];
	procs[tid % PROC_HASH] = p;
	up->threads++;
	pthread_mutex_unlock(&procs_lock);
	return p;
}

/*
 * Zombies: a process that exited stays in uvfs's /proc until its parent reaps it, as
 * the kernel's does (uvfs_task_zombie(): fd/ empty, cwd, root and exe ENOENT, stat and
 * status the kernel's, "Z").  The reap is the parent's wait, which the supervisor does
 * not see: it asks the kernel instead -- a pidfd of the zombie answers signal 0 until
 * the reap, ESRCH after -- before every call it answers, while there are zombies
 * (run_zombies_sweep), so that a parent's /proc read after its wait finds the process
 * gone.  A process reaped before the supervisor saw its exit (its pidfd cannot be
 * opened) goes at once.
 */
struct zombie {
	struct uvfs_task *task;
	int pidfd;
	pid_t nspid, tgid;
	char comm[16], kcomm[16];  /* its names, for its stat and status (procsrc.c) */
};
static pthread_mutex_t zombies_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zombie *zombies;
static size_t nzombies, zombies_cap;
static unsigned int zombies_any;  /* atomic: nzombies != 0, read without the lock */

/* procs_lock held */
static void zombie_add(const struct uproc *up)
{
	struct uvfs_task *task = up->task;
	int pidfd = up->tgid > 0 ? (int)syscall(SYS_pidfd_open, up->tgid, 0) : -1;
	struct zombie *z;

	if (pidfd < 0) {
		uvfs_task_exit(task);  /* reaped already (or no pidfd: as before zombies) */
		return;
	}
	pthread_mutex_lock(&zombies_lock);
	if (nzombies == zombies_cap) {
		size_t cap = zombies_cap ? 2 * zombies_cap : 16;
		struct zombie *more = realloc(zombies, cap * sizeof(*more));

		if (!more) {
			pthread_mutex_unlock(&zombies_lock);
			close(pidfd);
			uvfs_task_exit(task);
			return;
		}
		zombies = more;
		zombies_cap = cap;
	}
	uvfs_task_zombie(task);
	z = &zombies[nzombies++];
	*z = (struct zombie){ .task = task, .pidfd = pidfd, .nspid = up->nspid, .tgid = up->tgid };
	memcpy(z->comm, up->comm, sizeof(z->comm));
	memcpy(z->kcomm, up->kcomm, sizeof(z->kcomm));
	__atomic_store_n(&zombies_any, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&zombies_lock);
}

void run_zombies_sweep(void)
{
	if (!__atomic_load_n(&zombies_any, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&zombies_lock);
	for (size_t i = 0; i < nzombies;) {
		if (syscall(SYS_pidfd_send_signal, zombies[i].pidfd, 0, NULL, 0) == 0 ||
		    errno != ESRCH) {
			i++;
			continue;
		}
		uvfs_task_exit(zombies[i].task);  /* release_task() */
		close(zombies[i].pidfd);
		zombies[i] = zombies[--nzombies];
	}
	__atomic_store_n(&zombies_any, nzombies != 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&zombies_lock);
}

/* procs_lock held */
static void uproc_put(struct uproc *up)
{
	if (--up->threads > 0)
		return;
	zombie_add(up);
	act_put(up->act);
	free(up);
}

/* procs_lock held */
static void proc_free(struct proc *p)
{
	uproc_put(p->up);
	free(p->exec_path);
	free(p);
}

static void proc_put(struct proc *p)
{
	pthread_mutex_lock(&procs_lock);
	if (!--p->busy && p->dead)
		proc_free(p);
	pthread_mutex_unlock(&procs_lock);
}

void run_proc_hold(struct proc *p)
{
	pthread_mutex_lock(&procs_lock);
	p->busy++;
	pthread_mutex_unlock(&procs_lock);
}

void run_proc_put(struct proc *p)
{
	proc_put(p);
}

/* A thread gone: out of the table at once (its id may come back as another's), freed
 * when no helper or worker uses it any more (proc_put).  Its act lock held. */
static void proc_del(struct proc *p)
{
	struct proc **pp = &procs[p->tid % PROC_HASH];
	bool busy;

	if (p->exec_hfd >= 0)
		close(p->exec_hfd);
	p->exec_hfd = -1;
	run_exec_files_put(p);
	run_exec_follow_drop(p);
	pthread_mutex_lock(&procs_lock);
	while (*pp != p)
		pp = &(*pp)->next;
	*pp = p->next;
	busy = p->busy;
	if (busy)
		p->dead = true;
	else
		proc_free(p);
	pthread_mutex_unlock(&procs_lock);
	if (busy)
		run_waits_raise(p, false);  /* its helpers end now (p is kept for them) */
}

/*
 * The notification the calling thread answers (a worker's, or a helper's): what was
 * read of the caller's memory is trusted only when the notification is still alive
 * after the read (SECCOMP_IOCTL_NOTIF_ID_VALID), and nothing is written there
 * unless it is alive just before.  A caller killed meanwhile -- by an exec of another
 * of its threads, which then takes the leader's id and a new memory -- has withdrawn
 * its notification before its memory goes (de_thread() waits for it to exit), so a
 * read that saw the new memory is caught by the check after it; a worker may wait
 * for the process's act lock between receiving and reading, which once let a path
 * of the new program's be made a directory.  A write is checked before only when no
 * read was (getcwd).  A check that fails makes the read or write -EFAULT and marks
 * the call gone (notify_finish() answers nothing).  What remains: an exec that ends
 * the caller between the last check and a write (uvfs's answer is made in between)
 * lets the write land in the new program, the window the single supervisor had too.
 */
enum notif_state { NS_NONE, NS_UNCHECKED, NS_ALIVE, NS_GONE };
static _Thread_local enum notif_state cur_state;
static _Thread_local __u64 cur_id;

void run_notif_begin(__u64 id)
{
	cur_state = NS_UNCHECKED;
	cur_id = id;
}

void run_notif_end(void)
{
	cur_state = NS_NONE;
}

static int notif_alive(void)
{
	if (cur_state == NS_NONE)
		return 0;
	if (cur_state == NS_GONE || seccomp_notify_id_valid(run_notify_fd, cur_id)) {
		cur_state = NS_GONE;
		return -EFAULT;
	}
	cur_state = NS_ALIVE;
	return 0;
}

/* A helper answering a traced call reads and writes the caller's memory through a
 * /proc/TID/mem the loop opened while the caller was in its stop (waits.c): that
 * memory stays the caller's, and after an exec by another thread -- which may come
 * while the call waits, and gives the caller's id to the new program -- reads and
 * writes fail instead of reaching the new program (they did: a fifo's data the dead
 * leader waited for landed in the new program's buffer) */
static _Thread_local int cur_mem_fd = -1;

void run_mem_pin(int fd)
{
	cur_mem_fd = fd;
}

static ssize_t mem_pread(pid_t tid, unsigned long addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	if (cur_mem_fd >= 0)
		return pread(cur_mem_fd, buf, len, (off_t)addr);
	return process_vm_readv(tid, &local, 1, &remote, 1, 0);
}

/* Is [addr, addr + len) of tid's memory mapped writable?  A write through /proc/TID/mem
 * goes through the protections a tracer may override (FOLL_FORCE), and a read() into a
 * read-only page must be EFAULT as the kernel's copy_to_user() makes it */
static bool mem_writable(pid_t tid, unsigned long addr, size_t len)
{
	unsigned long end = addr + len, lo, hi;
	char path[64], line[512], perms[8];
	bool ok = false;
	FILE *f;

	if (end < addr)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/maps", tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	/* the mappings come in order: each must go on where the last ended */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || hi <= addr)
			continue;
		if (lo > addr || perms[1] != 'w')
			break;
		addr = hi;
		if (addr >= end) {
			ok = true;
			break;
		}
	}
	fclose(f);
	return ok;
}

int mem_read(pid_t tid, unsigned long addr, void *buf, size_t len)
{
	if (!len)
		return 0;
	if (mem_pread(tid, addr, buf, len) != (ssize_t)len)
		return -EFAULT;
	return notif_alive();
}

int mem_write(pid_t tid, unsigned long addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len }, remote = { (void *)addr, len };

	if (!len)
		return 0;
	/* checked once: after the call's reads, or now for a call that read nothing */
	if (cur_state != NS_ALIVE && notif_alive())
		return -EFAULT;
	if (cur_mem_fd >= 0)
		return mem_writable(tid, addr, len) &&
		       pwrite(cur_mem_fd, buf, len, (off_t)addr) == (ssize_t)len ? 0 : -EFAULT;
	return process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

int mem_read_str(pid_t tid, unsigned long addr, char *buf, size_t max)
{
	size_t got = 0;

	if (!addr)
		return -EFAULT;
	/* a page at a time: the string may end just before unmapped memory */
	while (got < max) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		ssize_t n;

		if (chunk > max - got)
			chunk = max - got;
		n = mem_pread(tid, addr + got, buf + got, chunk);
		if (n <= 0)
			return -EFAULT;
		if (memchr(buf + got, 0, (size_t)n))
			return notif_alive();
		got += (size_t)n;
	}
	/* too long, which a caller may still use (mount's data): checked too */
	return notif_alive() ?: -ENAMETOOLONG;
}

/* The pid a tracee has in the program's pid namespace: NSpid's second field (the
 * first is the pid in uvfs-run's own namespace, whose /proc this is; a process in a
 * namespace the program made has more fields, and its pid there is the kernel's
 * business: uvfs's pids are the program's namespace's). */
static pid_t ns_pid(pid_t tid, pid_t *tgid)
{
	char path[64], line[256], buf[4096];
	pid_t ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	/* one read at every new tracee: a buffer of our own (stdio's, sized by the 1 KiB
	 * st_blksize of an fstat, took three reads and the fstat), and no read past
	 * NSpid, which follows Tgid */
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	while (ns < 0 && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5))
			*tgid = (pid_t)atoi(line + 5);
		if (!strncmp(line, "NSpid:", 6)) {
			char *second = strchr(line + 7, '\t');

			ns = (pid_t)atoi(second ? second + 1 : line + 6);
		}
	}
	fclose(f);
	return ns;
}

_Thread_local pid_t run_cur_tid;

int run_cur_nstid(void)
{
	pid_t tgid;

	return run_cur_tid > 0 ? ns_pid(run_cur_tid, &tgid) : -1;
}

int run_uproc_names(pid_t nspid, bool exe, struct run_names *nm)
{
	int ret = -ESRCH;

	memset(nm, 0, sizeof(*nm));
	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret; i++) {
		for (struct proc *p = procs[i]; p; p = p->next) {
			struct uproc *up = p->up;
			ssize_t n;

			if (p->dead || up->nspid != nspid)
				continue;
			memcpy(nm->comm, up->comm, sizeof(nm->comm));
			memcpy(nm->kcomm, up->kcomm, sizeof(nm->kcomm));
			nm->exe_dev = up->exe_dev;
			nm->exe_ino = up->exe_ino;
			nm->tgid = up->tgid;
			/* uvfs under procs_lock: the task lives while it is held */
			n = exe ? uvfs_readlink_exe(up->task, nm->exe, sizeof(nm->exe) - 1) : 0;
			nm->exe[n > 0 ? n : 0] = 0;
			if (n > 0) {
				struct stat st;

				/* the executable's own identity in uvfs (its
				 * /proc/self/exe followed: the process is the reader) */
				if (!uvfs_fstatat(up->task, AT_FDCWD, "/proc/self/exe", &st, 0)) {
					nm->uexe_dev = st.st_dev;
					nm->uexe_ino = st.st_ino;
				}
			}
			ret = 0;
			break;
		}
	}
	if (ret) {
		/* a zombie: its names (a stat or status read by its parent), no exe */
		pthread_mutex_lock(&zombies_lock);
		for (size_t i = 0; i < nzombies && ret; i++)
			if (zombies[i].nspid == nspid) {
				memcpy(nm->comm, zombies[i].comm, sizeof(nm->comm));
				memcpy(nm->kcomm, zombies[i].kcomm, sizeof(nm->kcomm));
				nm->tgid = zombies[i].tgid;
				ret = 0;
			}
		pthread_mutex_unlock(&zombies_lock);
	}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

ssize_t run_uproc_memfd_name(pid_t nspid, dev_t kdev, ino_t kino, char *buf, size_t size,
			     struct stat *st)
{
	ssize_t ret = -ESRCH;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret == -ESRCH; i++)
		for (struct proc *p = procs[i]; p; p = p->next)
			if (!p->dead && p->up->nspid == nspid) {
				ret = uvfs_memfd_name(p->up->task, kdev, kino, buf, size, st);
				break;
			}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

size_t run_uproc_tids(const struct uproc *up, pid_t *tids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH; i++)
		for (struct proc *p = procs[i]; p; p = p->next)
			if (!p->dead && p->up == up && n < max)
				tids[n++] = p->tid;
	pthread_mutex_unlock(&procs_lock);
	return n;
}

int run_uproc_stat(pid_t nspid, const char *path, struct stat *st)
{
	int ret = -ESRCH;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret == -ESRCH; i++)
		for (struct proc *p = procs[i]; p; p = p->next)
			if (!p->dead && p->up->nspid == nspid) {
				ret = uvfs_fstatat(p->up->task, AT_FDCWD, path, st, 0);
				break;
			}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

void run_uproc_set_key(struct uproc *up, const char *key)
{
	pthread_mutex_lock(&procs_lock);
	snprintf(up->key, sizeof(up->key), "%s", key);
	pthread_mutex_unlock(&procs_lock);
}

int run_key_of(pid_t nspid, char *buf, size_t size)
{
	int ret = -ESRCH;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret; i++) {
		for (struct proc *p = procs[i]; p; p = p->next) {
			if (p->dead || p->up->nspid != nspid)
				continue;
			snprintf(buf, size, "%s", p->up->key);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

pid_t run_host_tgid(pid_t nspid)
{
	pid_t ret = -ESRCH;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret < 0; i++)
		for (struct proc *p = procs[i]; p; p = p->next)
			if (!p->dead && p->up->nspid == nspid) {
				ret = p->up->tgid;
				break;
			}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

/* The kernel's command name of a thread, and what Linux would have named it: kept
 * for procsrc.c, under procs_lock */
static void exec_names(struct proc *p)
{
	char path[64], kcomm[16] = "";
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/comm", p->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, kcomm, sizeof(kcomm) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n > 0 && kcomm[n - 1] == '\n')
		n--;
	kcomm[n > 0 ? n : 0] = 0;
	pthread_mutex_lock(&procs_lock);
	memcpy(p->up->comm, p->exec_comm, sizeof(p->up->comm));
	memcpy(p->up->kcomm, kcomm, sizeof(kcomm));
	p->up->exe_dev = p->exec_dev;
	p->up->exe_ino = p->exec_ino;
	pthread_mutex_unlock(&procs_lock);
	if (run_log_fd >= 0) {
		char exe[4096];
		ssize_t l = uvfs_readlink_exe(p->up->task, exe, sizeof(exe) - 1);

		exe[l > 0 ? l : 0] = 0;
		run_log_exec(p, exe);
	}
}

/* The clone flags of the call the parent is stopped in (fork and vfork: none) */
static unsigned long clone_flags(struct proc *parent)
{
	struct user_regs_struct r;
	uint64_t flags = 0;

	if (ptrace(PTRACE_GETREGS, parent->tid, 0, &r))
		return 0;
	if (r.orig_rax == SYS_clone)
		return r.rdi;
	if (r.orig_rax == SYS_clone3 && !mem_read(parent->tid, r.rdi, &flags, sizeof(flags)))
		return flags;  /* struct clone_args starts with the flags */
	return 0;
}

/*
 * A new tracee, reported by its parent's event: a thread (CLONE_THREAD: its
 * process's task), or a process whose uvfs task shares with its parent's what the
 * clone shares (CLONE_FS, CLONE_FILES: uvfs_task_clone).  Two processes sharing a
 * table both watch every descriptor number from then on (filter.c).
 */
static int new_tracee(struct proc *parent, pid_t tid)
{
	unsigned long flags = clone_flags(parent);
	pid_t tgid = 0, nspid = ns_pid(tid, &tgid);
	struct uproc *up;

	if (proc_find(tid))
		return 0;
	if (nspid < 0)
		return -ESRCH;
	if (tgid != tid) {
		/* a thread: the process's task; numbered for --explain */
		struct proc *np = proc_add(tid, parent->up);

		if (!np)
			return -ENOMEM;
		np->thread_no = __atomic_add_fetch(&parent->up->threads_made, 1, __ATOMIC_RELAXED);
		return 0;
	}
	up = calloc(1, sizeof(*up));
	if (!up)
		return -ENOMEM;
	up->nspid = nspid;
	up->tgid = tid;
	up->watched = parent->up->watched;  /* the kernel copied the filters */
	run_key_set(up, parent->up->key, "fork");
	/* a fork keeps the command name and the executable (procsrc.c) */
	pthread_mutex_lock(&procs_lock);
	memcpy(up->comm, parent->up->comm, sizeof(up->comm));
	memcpy(up->kcomm, parent->up->kcomm, sizeof(up->kcomm));
	up->exe_dev = parent->up->exe_dev;
	up->exe_ino = parent->up->exe_ino;
	pthread_mutex_unlock(&procs_lock);
	/* one table, one act lock (run.h) */
	up->act = flags & CLONE_FILES ? act_hold(parent->up->act) : act_new();
	if (!up->act) {
		free(up);
		return -ENOMEM;
	}
	/* a zombie of uvfs's holding nspid was reaped: the kernel gives pids again
	 * only once they are free */
	run_zombies_sweep();
	up->task = uvfs_task_clone(parent->up->task, nspid, flags & (CLONE_FS | CLONE_FILES));
	if (!up->task) {
		int err = -errno;

		act_put(up->act);
		free(up);
		return err;
	}
	if (flags & CLONE_NEWNS) {
		/* the kernel made the child a mount namespace of its own: so does uvfs
		 * (EPERM where the kernel's check passed in a user namespace uvfs does
		 * not model: the child goes on in its parent's, and says so) */
		int err = uvfs_unshare(up->task, CLONE_NEWNS);

		if (err)
			fprintf(stderr, "uvfs-run: pid %d: a mount namespace of its own: uvfs did "
				"not follow: %s\n", nspid, strerror(-err));
		else
			run_sync_mnt_ns_id(up->task, tid);
	}
	if (!proc_add(tid, up)) {
		uvfs_task_exit(up->task);
		act_put(up->act);
		free(up);
		return -ENOMEM;
	}
	/* the child has the credentials of the thread that forked it, which the
	 * parent's task holds only while its threads all agree */
	if (parent->up->cred_tid && parent->up->cred_tid != parent->tid)
		run_sync_creds(proc_find(tid));
	if ((flags & CLONE_FILES) && !(up->watched & (1u << RUN_GROUP_ALL))) {
		proc_find(tid)->watch_all = true;
		parent->watch_all = true;
	}
	return 0;
}

static void resume(pid_t tid, int how, int sig)
{
	/* ESRCH: killed meanwhile (SIGKILL, its process's exit_group); its exit comes */
	(void)ptrace(how, tid, 0, (void *)(long)sig);
}

/* How a stopped tracee goes on: while a watching filter is being installed
 * (watch_start) or an exec made (exec_stop), with its syscall stops (a signal
 * handler may run first) */
static int cont_of(const struct proc *p)
{
	return p->inj != INJ_NONE || p->exec_step != EX_NONE ? PTRACE_SYSCALL : PTRACE_CONT;
}

/*
 * A call uvfs answered never reached the kernel's vfs_read() or vfs_write(), which
 * count it in the thread's task_io_accounting: counted here as they would -- a read
 * or write call (syscr, syscw) unless it failed before the file's operation (EBADF,
 * EINVAL, EFAULT), the bytes it moved (rchar, wchar); sendfile and copy_file_range
 * both, as do_sendfile() and vfs_copy_file_range() count them.
 */
static void io_add(struct proc *p, enum run_io k, unsigned long n)
{
	__atomic_fetch_add(&p->io[k], n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&p->up->io[k], n, __ATOMIC_RELAXED);
}

static void io_account(struct proc *p, const struct user_regs_struct *regs)
{
	long ret = (long)regs->rax;
	bool rd = false, wr = false;

	switch ((long)regs->orig_rax) {
	case SYS_read: case SYS_readv: case SYS_pread64: case SYS_preadv: case SYS_preadv2:
		rd = true;
		break;
	case SYS_write: case SYS_writev: case SYS_pwrite64: case SYS_pwritev: case SYS_pwritev2:
		wr = true;
		break;
	case SYS_sendfile: case SYS_copy_file_range:
		rd = wr = true;
		break;
	default:
		return;
	}
	if (ret == -EBADF || ret == -EINVAL || ret == -EFAULT)
		return;
	if (rd) {
		io_add(p, RUN_IO_SYSCR, 1);
		io_add(p, RUN_IO_RCHAR, ret > 0 ? (unsigned long)ret : 0);
	}
	if (wr) {
		io_add(p, RUN_IO_SYSCW, 1);
		io_add(p, RUN_IO_WCHAR, ret > 0 ? (unsigned long)ret : 0);
	}
}

int run_io_counts(pid_t nspid, pid_t nstid, unsigned long io[4])
{
	int ret = -ESRCH;

	pthread_mutex_lock(&procs_lock);
	for (size_t i = 0; i < PROC_HASH && ret; i++) {
		for (struct proc *p = procs[i]; p; p = p->next) {
			pid_t tgid;

			if (p->dead || p->up->nspid != nspid ||
			    (nstid && ns_pid(p->tid, &tgid) != nstid))
				continue;
			for (int k = 0; k < 4; k++)
				io[k] = __atomic_load_n(nstid ? &p->io[k] : &p->up->io[k],
							__ATOMIC_RELAXED);
			ret = 0;
			break;
		}
	}
	pthread_mutex_unlock(&procs_lock);
	return ret;
}

/* A traced call's answer applied: its registers, and on the process goes */
static void seccomp_apply(struct proc *p, struct user_regs_struct *regs, enum action a)
{
	int cont = cont_of(p);

	if (a == ACT_SKIP)
		io_account(p, regs);

	run_stat_add(traps, 1);
	run_stat_add(answered, a != ACT_NATIVE);
	run_stat_nr(0, regs->orig_rax);
	switch (a) {
	case ACT_NATIVE:
		resume(p->tid, cont, 0);
		break;
	case ACT_SKIP:
		regs->orig_rax = (unsigned long long)-1;  /* skipped: rax is the result */
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, regs);
		resume(p->tid, cont, 0);
		break;
	case ACT_REWRITTEN:
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, regs);
		resume(p->tid, PTRACE_SYSCALL, 0);
		break;
	case ACT_EXIT_STOP:
		resume(p->tid, PTRACE_SYSCALL, 0);
		break;
	case ACT_WAIT:      /* only a notified call is an open or truncate (filter.c */
	case ACT_INSTALL:   /* delivers every one so): neither comes here */
		if (a == ACT_INSTALL) {
			close(p->inst_hfd);
			p->inst_hfd = -1;
			run_installed(p, -ENOSYS);
		}
		regs->orig_rax = (unsigned long long)-1;
		regs->rax = (unsigned long long)-ENOSYS;
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, regs);
		resume(p->tid, cont, 0);
		break;
	}
}

static void on_seccomp(struct proc *p)
{
	struct user_regs_struct regs;

	p->restart_nr = -1;  /* a new call: an earlier one's restart is past */
	if (ptrace(PTRACE_GETREGS, p->tid, 0, &regs))
		return resume(p->tid, cont_of(p), 0);
	/* a read or write of a uvfs fifo: answered by a helper, the process stopped
	 * meanwhile (on_wait_done resumes it) */
	if (run_may_wait_traced(p, &regs)) {
		int err = run_wait_start(p, NULL, &regs);

		if (!err || err == -ESRCH)
			return;  /* ESRCH: killed meanwhile: its end is reported */
	}
	seccomp_apply(p, &regs, run_syscall(p, &regs));
}

/*
 * Watching a descriptor number: at the exit stop of the call that gave uvfs's
 * descriptor a number no filter of the process watches, the process is sent back to
 * its syscall instruction with seccomp(SECCOMP_SET_MODE_FILTER, TSYNC, prog) in its
 * registers; at that call's entry the program is written below its stack pointer
 * (below the red zone: nothing of the process lives there, and nothing of it runs
 * between the entry and the kernel's copy of the program); at its exit the registers
 * the first call returned with are put back.  Meanwhile every signal is blocked
 * (PTRACE_SETSIGMASK; its mask is put back at the exit): a handler run before the
 * seccomp call -- a signal pending as the first call returned -- could use the new
 * number before the filter covers it, and read the stand-in instead of uvfs's file
 * (tests/uvfs-run/signal_watch.c: 34 of 50 processes did, with a timer every
 * 300 µs).  Failing to install the filter, the process could read uvfs's descriptor
 * through the stand-in, so it is killed, with a message.
 */
static void watch_fail(struct proc *p, int group, long err)
{
	/* ESRCH: no longer in its stop, which only SIGKILL ends -- an exec by another
	 * thread, say, whose new program now has this id and must not be killed */
	if (err == -ESRCH)
		return;
	fprintf(stderr, "uvfs-run: pid %d: cannot watch descriptor group %d: %s\n", p->up->nspid,
		group, strerror(err > 0 ? EAGAIN : (int)-err));
	kill(p->tid, SIGKILL);
}

static bool watch_start(struct proc *p, struct user_regs_struct *regs, int group)
{
	struct user_regs_struct r = *regs;
	uint64_t all = ~(uint64_t)0;  /* SIGKILL and SIGSTOP stay unblockable */

	p->inj_saved = *regs;
	p->inj_group = group;
	p->watch_all = false;
	r.rip -= 2;  /* the syscall instruction (0f 05) */
	r.rax = SYS_seccomp;
	r.rdi = SECCOMP_SET_MODE_FILTER;
	r.rsi = SECCOMP_FILTER_FLAG_TSYNC;
	r.rdx = 0;   /* the program's address: at the entry */
	if (ptrace(PTRACE_GETSIGMASK, p->tid, sizeof(p->inj_mask), &p->inj_mask) ||
	    ptrace(PTRACE_SETSIGMASK, p->tid, sizeof(all), &all) ||
	    ptrace(PTRACE_SETREGS, p->tid, 0, &r)) {
		watch_fail(p, group, -errno);
		return false;
	}
	p->inj = INJ_ENTRY;
	resume(p->tid, PTRACE_SYSCALL, 0);
	return true;
}

/* The next group of p->watch_more no filter watches yet: started (true), or none */
static bool watch_next(struct proc *p, struct user_regs_struct *regs)
{
	unsigned int want = p->watch_more & ~__atomic_load_n(&p->up->watched, __ATOMIC_RELAXED);

	p->watch_more = 0;
	if (!want)
		return false;
	p->watch_more = want & (want - 1);  /* the rest, after this one */
	return watch_start(p, regs, __builtin_ctz(want));
}

/* The entry or exit stop of the seccomp call, or of a signal handler's call */
static void watch_step(struct proc *p)
{
	struct __ptrace_syscall_info info;
	struct user_regs_struct r;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, p->tid, sizeof(info), &info) <= 0 ||
	    ptrace(PTRACE_GETREGS, p->tid, 0, &r))
		return resume(p->tid, PTRACE_SYSCALL, 0);
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY && p->inj == INJ_ENTRY &&
	    info.entry.nr == SYS_seccomp && info.instruction_pointer == p->inj_saved.rip) {
		struct sock_filter prog[RUN_WATCH_MAX];
		struct sock_fprog fp = { .len = (unsigned short)run_watch_filter(p->inj_group, prog) };
		unsigned long at = (r.rsp - 128 - sizeof(prog) - sizeof(fp)) & ~15ul;

		fp.filter = (struct sock_filter *)(at + sizeof(fp));
		if (mem_write(p->tid, at + sizeof(fp), prog, fp.len * sizeof(prog[0])) ||
		    mem_write(p->tid, at, &fp, sizeof(fp))) {
			r.rdx = 0;   /* EFAULT */
		} else {
			r.rdx = at;
		}
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, &r);
		p->inj = INJ_EXIT;
		return resume(p->tid, PTRACE_SYSCALL, 0);
	}
	if (info.op == PTRACE_SYSCALL_INFO_EXIT && p->inj == INJ_EXIT) {
		if (info.exit.rval)
			watch_fail(p, p->inj_group, info.exit.rval);
		else if (p->inj_group == RUN_GROUP_ALL)
			__atomic_or_fetch(&p->up->watched, RUN_WATCH_ALL, __ATOMIC_RELAXED);
		else  /* a helper reads it (run_installed) */
			__atomic_or_fetch(&p->up->watched, 1u << p->inj_group, __ATOMIC_RELAXED);
		run_stat_add(watches, !info.exit.rval);
		p->inj = INJ_NONE;
		(void)ptrace(PTRACE_SETSIGMASK, p->tid, sizeof(p->inj_mask), &p->inj_mask);
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, &p->inj_saved);
		if (!info.exit.rval && watch_next(p, &p->inj_saved))
			return;  /* another group of a receive's descriptors */
		return resume(p->tid, PTRACE_CONT, 0);
	}
	/* a signal handler's call before ours: its exit, if the tracer asked for it */
	if (info.op == PTRACE_SYSCALL_INFO_EXIT && p->pending != PEND_NONE) {
		run_syscall_exit(p, &r);
		p->pending = PEND_NONE;
	}
	resume(p->tid, PTRACE_SYSCALL, 0);
}

/* the kernel's restart codes, which a call interrupted by a signal returns to the
 * tracer (include/linux/errno.h) */
#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTART_RESTARTBLOCK 516

/*
 * An exec through a descriptor the supervisor installs (syscalls.c, do_exec, which
 * made the execve a notified open of RUN_EXEC_MARKER, answered by installing the file
 * close-on-exec): the kernel runs the file uvfs checked, not one a name in the
 * program's memory -- which another thread may change meanwhile -- leads it to.  At
 * the open's exit the process is sent back to its syscall instruction with
 * execveat(fd, "", argv, envp, AT_EMPTY_PATH); a success
 * ends at PTRACE_EVENT_EXEC (on_exec), the descriptor closed by the exec; a failure
 * (ENOEXEC, which shells answer by running the file themselves; ETXTBSY, E2BIG) comes
 * to its exit, where close(fd) is made the same way, and at close's exit the
 * program's execve returns the failure with its registers as they were.  The calls
 * of a signal handler that runs between the steps are handled as always.
 */
static void exec_done(struct proc *p, long ret)
{
	struct user_regs_struct r = p->exec_regs;

	p->exec_step = EX_NONE;
	p->exec_intr = false;
	if (p->exec_hfd >= 0)
		close(p->exec_hfd);
	p->exec_hfd = p->exec_fd = -1;
	run_exec_files_put(p);
	run_exec_follow_drop(p);  /* no exec for uvfs to follow */
	r.rax = (unsigned long long)ret;
	(void)ptrace(PTRACE_SETREGS, p->tid, 0, &r);
	resume(p->tid, PTRACE_CONT, 0);
}

/* the process back at its syscall instruction to make call nr(a0) in place.  The
 * execveat is trapped (filter.c), so its seccomp stop comes without an entry stop
 * before it (PTRACE_CONT; run_syscall asks for its exit); a close may not be */
static void exec_again(struct proc *p, struct user_regs_struct *r, long nr,
		       unsigned long long a0, enum exec_step next)
{
	r->rip = p->exec_regs.rip - 2;  /* the syscall instruction (0f 05) */
	r->rax = (unsigned long long)nr;
	r->rdi = a0;
	r->rsi = p->exec_empty;
	r->rdx = p->exec_argv;
	r->r10 = p->exec_envp;
	r->r8 = AT_EMPTY_PATH;
	p->exec_step = next;
	(void)ptrace(PTRACE_SETREGS, p->tid, 0, r);
	resume(p->tid, next == EX_RUN ? PTRACE_CONT : PTRACE_SYSCALL, 0);
}

static const long exec_nr[] = {
	[EX_INSTALL] = SYS_openat, [EX_RUN] = SYS_execveat, [EX_CLOSE] = SYS_close,
};

static void exec_stop(struct proc *p)
{
	struct __ptrace_syscall_info info;
	struct user_regs_struct r;
	long ret;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, p->tid, sizeof(info), &info) <= 0 ||
	    ptrace(PTRACE_GETREGS, p->tid, 0, &r))
		return resume(p->tid, PTRACE_SYSCALL, 0);
	if (info.op != PTRACE_SYSCALL_INFO_EXIT || info.instruction_pointer != p->exec_regs.rip ||
	    (long)r.orig_rax != exec_nr[p->exec_step]) {
		/* an entry, or a signal handler's call: its exit, if the tracer asked */
		if (info.op == PTRACE_SYSCALL_INFO_EXIT && p->pending != PEND_NONE) {
			run_syscall_exit(p, &r);
			p->pending = PEND_NONE;
		}
		return resume(p->tid, PTRACE_SYSCALL, 0);
	}
	ret = (long)info.exit.rval;
	switch (p->exec_step) {
	case EX_INSTALL:
		if (ret == -ERESTARTSYS && p->exec_intr) {
			/* a signal ended the wait of the exec's lease break (syscalls.c):
			 * the program's execve returns -ERESTARTSYS, registers and all, and
			 * the signal's delivery makes EINTR of it or makes it again, as
			 * do_open_execat()'s failed break_lease() would */
			p->exec_intr = false;
			return exec_done(p, ret);
		}
		if (ret <= -ERESTARTSYS && ret >= -ERESTART_RESTARTBLOCK)
			return resume(p->tid, PTRACE_SYSCALL, 0);  /* made again after a signal */
		if (ret < 0)
			return exec_done(p, ret);  /* EMFILE */
		p->exec_fd = (int)ret;
		return exec_again(p, &r, SYS_execveat, (unsigned long long)ret, EX_RUN);
	case EX_RUN:
		p->exec_err = ret;
		return exec_again(p, &r, SYS_close, (unsigned long long)p->exec_fd, EX_CLOSE);
	case EX_CLOSE:
	case EX_NONE:
		break;
	}
	exec_done(p, p->exec_err);
}

static void on_syscall_exit(struct proc *p)
{
	struct user_regs_struct regs;

	if (p->inj != INJ_NONE)
		return watch_step(p);
	if (p->exec_step != EX_NONE)
		return exec_stop(p);
	p->new_ufd = -1;
	if (!ptrace(PTRACE_GETREGS, p->tid, 0, &regs))
		run_syscall_exit(p, &regs);
	p->pending = PEND_NONE;
	if (p->watch_all && watch_start(p, &regs, RUN_GROUP_ALL))
		return;
	if (p->new_ufd >= 0)
		p->watch_more |= run_fd_watch(p, p->new_ufd);
	if (watch_next(p, &regs))
		return;
	resume(p->tid, PTRACE_CONT, 0);
}

/* A new process's first stop: on it goes, or first installs RUN_GROUP_ALL */
static void start_tracee(struct proc *c)
{
	struct user_regs_struct regs;

	c->attached = true;
	if (c->watch_all && !ptrace(PTRACE_GETREGS, c->tid, 0, &regs) &&
	    watch_start(c, &regs, RUN_GROUP_ALL))
		return;
	resume(c->tid, PTRACE_CONT, 0);
}

/* ... from its parent's event: the loop holds the parent's act lock, which may be
 * the child's too (a thread, CLONE_FILES; the lock is recursive) */
static void start_tracee_locked(struct proc *c)
{
	struct run_act *act = c->up->act;

	pthread_mutex_lock(&act->lock);
	start_tracee(c);
	pthread_mutex_unlock(&act->lock);
}

static void on_exec(struct proc *p)
{
	struct uproc *up = p->up;
	unsigned long old_tid = 0;

	/* an exec by a thread other than the leader takes the leader's id: the
	 * event's message is the old one (the thread of ours that ran execve) */
	(void)ptrace(PTRACE_GETEVENTMSG, p->tid, 0, &old_tid);
	if (old_tid && (pid_t)old_tid != p->tid) {
		/* the leader's proc retires -- dead, so that what a helper or a handoff
		 * still does for the killed leader reaches nothing (a fifo's data it waited
		 * for landed in the new program, an install crossed a worker's) -- and the
		 * id gets a proc of its own, with the exec the thread ran */
		struct proc *o = proc_find((pid_t)old_tid), *x = o && o != p ? o : p;
		struct proc *n = proc_add(p->tid, up);

		if (!n) {
			fprintf(stderr, "uvfs-run: pid %d: exec: %s: killed\n", up->nspid,
				strerror(ENOMEM));
			kill(p->tid, SIGKILL);
			return resume(p->tid, PTRACE_CONT, 0);
		}
		n->attached = true;
		n->exec_path = x->exec_path;
		n->exec_file = x->exec_file;
		n->exec_dev = x->exec_dev;
		n->exec_ino = x->exec_ino;
		memcpy(n->exec_comm, x->exec_comm, sizeof(n->exec_comm));
		x->exec_path = NULL;
		x->exec_file = NULL;
		run_waits_raise(p, true);  /* what it waited for ends first */
		proc_del(p);
		if (x != p)
			proc_del(x);
		p = n;
	} else if (p->inj != INJ_NONE) {
		/* an exec ends a pending one (the mask outlives it) */
		(void)ptrace(PTRACE_SETSIGMASK, p->tid, sizeof(p->inj_mask), &p->inj_mask);
	}
	p->inj = INJ_NONE;
	p->watch_group = -1;  /* a stop asked for the caller of a notification: not this */
	p->exec_step = EX_NONE;  /* the installed descriptor went with the exec */
	p->exec_fd = -1;
	if (p->exec_hfd >= 0)
		close(p->exec_hfd);
	p->exec_hfd = -1;
	run_exec_files_put(p);
	if (p->exec_file) {
		const char *name = p->exec_path ? p->exec_path : "?";
		char exe[64];
		struct stat st;
		int err;

		/* the file uvfs checked, or the empty name execveat was given became
		 * another before the kernel read it (syscalls.c, do_exec): the process
		 * goes before it runs an instruction of that */
		snprintf(exe, sizeof(exe), "/proc/%d/exe", p->tid);
		if (stat(exe, &st) || st.st_dev != p->exec_dev || st.st_ino != p->exec_ino) {
			fprintf(stderr, "uvfs-run: pid %d: the kernel ran another file than %s: "
				"killed\n", up->nspid, name);
			kill(p->tid, SIGKILL);
			run_exec_follow_drop(p);
			return resume(p->tid, PTRACE_CONT, 0);
		}
		/* the very file the kernel ran, not its name walked again: a rename over
		 * the name since the exec (the seed's upgrade: the new binary renamed over
		 * the one just started) must leave /proc/PID/exe on the old file,
		 * "(deleted)", as the kernel's exe_file is */
		err = uvfs_task_exec_file(up->task, p->exec_file);

		if (!err)
			exec_names(p);
		if (err)
			fprintf(stderr, "uvfs-run: exec of %s: uvfs did not follow: %s\n",
				name, strerror(-err));
		run_exec_follow_drop(p);
	}
	resume(p->tid, PTRACE_CONT, 0);
}

/*
 * A signal-delivery stop.  A signal that comes before the supervisor has received a
 * notified call withdraws it: the call ends with ERESTARTSYS (seccomp's
 * interrupted wait), which becomes EINTR for a handler without SA_RESTART -- an
 * answer Linux never gives for a stat, an open of a file, a mkdir.  Nothing of it was
 * done yet (SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV: once received, only a fatal
 * signal interrupts), so it is made ERESTARTNOINTR: after the handler the call is
 * made again, as if the signal had come just before it.
 */

static void restart_notified(pid_t tid)
{
	struct user_regs_struct r;

	if (ptrace(PTRACE_GETREGS, tid, 0, &r) || (long)r.rax != -ERESTARTSYS ||
	    !run_notified((long)r.orig_rax))
		return;
	r.rax = (unsigned long long)-ERESTARTNOINTR;
	(void)ptrace(PTRACE_SETREGS, tid, 0, &r);
}

/*
 * A call that waited and was interrupted for a signal (waits.c) was answered
 * -ERESTARTSYS on purpose, and the kernel's signal delivery makes it EINTR or a
 * restart as for its own waits: a notified one is left as it is; a traced one was
 * skipped (orig_rax -1, which would make the kernel take it for no system call at
 * all), so its number is put back for handle_signal() to see and restart.
 */
static void on_signal_stop(struct proc *p)
{
	struct user_regs_struct r;

	if (p->restart_nr >= 0) {
		if (!ptrace(PTRACE_GETREGS, p->tid, 0, &r) && (long)r.rax == -ERESTARTSYS &&
		    (long)r.orig_rax == -1) {
			r.orig_rax = (unsigned long long)p->restart_nr;
			(void)ptrace(PTRACE_SETREGS, p->tid, 0, &r);
		}
		p->restart_nr = -1;
	} else if (p->restart_sys) {
		p->restart_sys = false;
	} else {
		restart_notified(p->tid);
	}
}

/* The stop PTRACE_INTERRUPT brought after a notified open answered with a number no
 * watching filter covers: the process has run nothing of its own since the call
 * returned, so the filter goes in as at a syscall-exit stop (rip just after the
 * syscall instruction) */
static void watch_after_notify(struct proc *p)
{
	struct user_regs_struct regs;
	int g = p->watch_group;

	p->watch_group = -1;
	/* just after the notified call, or not at all: a stop elsewhere (the process
	 * ran another program meanwhile) would send it back two bytes into whatever is
	 * before its instruction pointer.  g first, then the rest run_installed() left
	 * (an O_PATH descriptor's odd group) */
	p->watch_more |= 1u << g;
	if (ptrace(PTRACE_GETREGS, p->tid, 0, &regs) || regs.rip != p->watch_rip ||
	    (long)regs.orig_rax != p->watch_nr || !watch_next(p, &regs))
		resume(p->tid, cont_of(p), 0);
}

/*
 * A notified call (the opens): decoded and answered as a trapped one is, on the
 * registers its arguments fill in, by a worker thread holding the process's act lock.
 * The notification is checked to be alive after its memory was read
 * (SECCOMP_IOCTL_NOTIF_ID_VALID) and before anything is answered.  A new descriptor
 * is installed by ADDFD at the lowest free number, uvfs's moved to that number, and
 * only then is the call answered -- not with SECCOMP_ADDFD_FLAG_SEND, which would let
 * the process run before uvfs's table holds the number.  When the number is in a
 * group no watching filter of the process covers, the process is also asked to stop
 * (PTRACE_INTERRUPT, by the loop: handoff()) before it runs any instruction of its
 * own, and the filter is installed at that stop (watch_start()).
 */

/* ACT_INSTALL of a notified call: the descriptor installed by ADDFD, uvfs's moved to
 * its number; regs->rax the number or -errno.  Returns the group of numbers a
 * watching filter must be installed for, or -1. */
static int install_notified(struct proc *p, __u64 id, struct user_regs_struct *regs)
{
	struct seccomp_notif_addfd add = {
		.id = id, .srcfd = (unsigned int)p->inst_hfd, .newfd_flags = p->inst_flags,
	};
	long n = ioctl(run_notify_fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add);

	if (n < 0)
		n = -errno;  /* EMFILE (RLIMIT_NOFILE), or ENOENT: the caller is gone */
	close(p->inst_hfd);
	p->inst_hfd = -1;
	regs->rax = (unsigned long long)n;
	return run_installed(p, n);
}

/* A notified call's answer: the stop a newly watched number needs first (the loop
 * only), then the response */
static void notify_respond(struct proc *p, struct seccomp_notif_resp *resp, __u64 id,
			   const struct user_regs_struct *regs, enum action a, int group)
{
	memset(resp, 0, sizeof(*resp));
	resp->id = id;
	switch (a) {
	case ACT_SKIP:
	case ACT_INSTALL: {
		long v = (long)regs->rax;

		if (v < 0 && v >= -4095)
			resp->error = (int)v;
		else
			resp->val = v;
		/* a wait a signal interrupted (waits.c): its signal stop leaves it */
		p->restart_sys = v == -ERESTARTSYS;
		break;
	}
	case ACT_NATIVE:
		/* a name relative to a host directory (syscalls.c, do_open) */
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		break;
	default:
		fprintf(stderr, "uvfs-run: pid %d: call %lld cannot be answered by notification\n",
			p->up->nspid, (long long)regs->orig_rax);
		resp->error = -ENOSYS;
		break;
	}
	/* the stop is asked for only while the caller is alive: a handoff may come to the
	 * loop after an exec by another thread ended the caller and gave its id (the
	 * leader's) to a new program.  And it is checked to be the one asked for
	 * (watch_after_notify) */
	if (group >= 0 && seccomp_notify_id_valid(run_notify_fd, id))
		group = -1;
	if (group >= 0 && !ptrace(PTRACE_INTERRUPT, p->tid, 0, 0)) {
		p->watch_group = group;
		p->watch_rip = regs->rip;
		p->watch_nr = (long)regs->orig_rax;
	} else if (group >= 0 && errno != ESRCH) {  /* ESRCH: killed meanwhile */
		fprintf(stderr, "uvfs-run: pid %d: cannot stop it to watch descriptor %lld: %s\n",
			p->up->nspid, (long long)regs->rax, strerror(errno));
	}
	(void)seccomp_notify_respond(run_notify_fd, resp);  /* ENOENT: the caller is gone */
}

/* ---- the handoff queue: what a worker leaves to the loop ---- */

static pthread_mutex_t ho_lock = PTHREAD_MUTEX_INITIALIZER;
static struct proc *ho_head, **ho_tail = &ho_head;
static int ho_fd = -1;   /* an eventfd: the queue has something */

/* p's act lock released; the worker's use of p goes with it to the loop */
static void handoff(struct proc *p)
{
	uint64_t one = 1;

	pthread_mutex_lock(&ho_lock);
	p->ho_next = NULL;
	*ho_tail = p;
	ho_tail = &p->ho_next;
	pthread_mutex_unlock(&ho_lock);
	if (write(ho_fd, &one, sizeof(one)) != sizeof(one))
		abort();  /* an eventfd's counter cannot overflow here */
}

/* The end of a notified call whose answer is in regs (a): checked alive, the
 * descriptor installed, and answered -- by the worker, or, when a watching filter
 * must go in first, handed to the loop.  Returns true when it was handed off. */
static bool notify_finish(struct proc *p, struct seccomp_notif_resp *resp,
			  const struct seccomp_notif *req, struct user_regs_struct *regs,
			  enum action a, bool loop)
{
	int group = -1;

	run_stat_add(answered, a != ACT_NATIVE);
	/* alive after its memory was read (a call that read none: now); a caller gone
	 * after that check fails ADDFD and the response, harmlessly */
	if (cur_state == NS_GONE ||
	    (cur_state != NS_ALIVE && seccomp_notify_id_valid(run_notify_fd, req->id))) {
		/* the caller is gone (killed) */
		if (a == ACT_INSTALL) {
			close(p->inst_hfd);
			p->inst_hfd = -1;
			run_installed(p, -ESRCH);
		}
		return false;
	}
	if (a == ACT_INSTALL)
		group = install_notified(p, req->id, regs);
	if (group >= 0 && !loop) {
		p->ho_wait = false;
		p->ho_req = *req;
		p->ho_regs = *regs;
		p->ho_a = a;
		p->ho_group = group;
		return true;
	}
	notify_respond(p, resp, req->id, regs, a, group);
	return false;
}

/* A worker's notification: answered, or handed to the loop */
static void on_notify(struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	struct user_regs_struct regs = { 0 };
	struct run_act *act;
	struct proc *p = proc_get((pid_t)req->pid);
	bool handed;
	enum action a;

	run_stat_add(traps, 1);
	run_stat_add(notified, 1);
	run_stat_nr(1, req->data.nr);
	if (run_stat_add(busy, 1))
		run_stat_add(overlapped, 1);
	if (!p || !run_notified(req->data.nr)) {
		/* not a call of ours (the filter's other users are our tracees) */
		memset(resp, 0, sizeof(*resp));
		resp->id = req->id;
		resp->error = -ENOSYS;
		(void)seccomp_notify_respond(run_notify_fd, resp);
		if (p)
			proc_put(p);
		run_stat_add(busy, -1ul);
		return;
	}
	act = p->up->act;  /* p->up changes only while the thread is in a stop */
	pthread_mutex_lock(&act->lock);
	p->restart_sys = false;  /* a new call: an earlier one's restart is past */
	regs.orig_rax = (unsigned long long)req->data.nr;
	regs.rdi = req->data.args[0];
	regs.rsi = req->data.args[1];
	regs.rdx = req->data.args[2];
	regs.r10 = req->data.args[3];
	regs.r8 = req->data.args[4];
	regs.r9 = req->data.args[5];
	regs.rip = req->data.instruction_pointer;
	regs.rax = (unsigned long long)-ENOSYS;
	p->ho_regs = regs;
	run_notif_begin(req->id);
	a = run_syscall(p, &regs);
	if (a == ACT_WAIT) {
		/* an open of a uvfs fifo, or an open or truncate a lease is in the
		 * way of: the loop starts a helper for it */
		p->ho_wait = true;
		p->ho_req = *req;
		handed = true;
	} else {
		handed = notify_finish(p, resp, req, &regs, a, false);
	}
	run_notif_end();
	pthread_mutex_unlock(&act->lock);
	if (handed)
		handoff(p);
	else
		proc_put(p);
	run_stat_add(busy, -1ul);
}

/* A handed-off notification, at the loop: its helper started (or, when none can be
 * had -- ENOMEM, EAGAIN -- the call made here, which may hold things up), or its
 * answer given after the stop that watches the new number was asked for */
static void on_handoff(struct proc *p, struct seccomp_notif_resp *resp)
{
	struct run_act *act = act_hold(p->up->act);

	pthread_mutex_lock(&act->lock);
	if (p->dead) {
		/* gone meanwhile: nothing to answer */
	} else if (p->ho_wait && run_wait_start(p, &p->ho_req, &p->ho_regs)) {
		struct user_regs_struct regs = p->ho_regs;
		enum action a;

		run_on_helper = true;
		run_notif_begin(p->ho_req.id);
		a = run_syscall(p, &regs);
		run_on_helper = false;
		notify_finish(p, resp, &p->ho_req, &regs, a, true);
		run_notif_end();
	} else if (!p->ho_wait) {
		notify_respond(p, resp, p->ho_req.id, &p->ho_regs, p->ho_a, p->ho_group);
	}
	pthread_mutex_unlock(&act->lock);
	act_put(act);
	proc_put(p);
}

static void handoffs_run(struct seccomp_notif_resp *resp)
{
	struct proc *p;
	uint64_t n;

	(void)!read(ho_fd, &n, sizeof(n));
	pthread_mutex_lock(&ho_lock);
	p = ho_head;
	ho_head = NULL;
	ho_tail = &ho_head;
	pthread_mutex_unlock(&ho_lock);
	while (p) {
		struct proc *next = p->ho_next;

		on_handoff(p, resp);
		p = next;
	}
}

/* ---- workers ---- */

/* ends a worker's wait for a notification: a real-time signal glibc leaves to the
 * program (its own are below SIGRTMIN), never one main.c relays -- SIGUSR2 was, and
 * a worker's no-op handler took 13 in 20 of those sent to uvfs-run (the review's
 * reproducer: tests/uvfs-run/pgrp.py now sends USR1 and USR2) */
#define RUN_WAKE_SIG (SIGRTMIN + 1)

static pthread_t workers[RUN_WORKERS_MAX];
static int nworkers;
static bool workers_stop;  /* atomic */

static void wake_handler(int sig)
{
	(void)sig;  /* only to end the worker's ioctl with EINTR */
}

/*
 * One worker receives while the others are idle.  The kernel hands a notification to
 * the receiver that has waited longest (a semaphore), so two workers blocked in
 * NOTIF_RECV take turns, and a program's every call crossed to the other processor:
 * 28-29 us an fstatat with two workers against 18-20 with one, same run.  So the
 * others park, and a worker that has received a call looks whether more are pending
 * (poll, no wait) and unparks one to take them -- two processes' calls are then
 * answered side by side, one process's by the worker that just answered it.
 *
 *   receivers, parked, wanted    park_lock: workers in (or going to) NOTIF_RECV; parked
 *                                ones; unparks asked for and not yet taken
 */
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cond = PTHREAD_COND_INITIALIZER;
static int receivers, parked, wanted;

static bool notif_pending(void)
{
	struct pollfd pf = { .fd = run_notify_fd, .events = POLLIN };

	return poll(&pf, 1, 0) > 0 && (pf.revents & POLLIN);
}

static void *worker_main(void *arg)
{
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	sigset_t wake;

	(void)arg;
	sigemptyset(&wake);
	sigaddset(&wake, RUN_WAKE_SIG);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	if (seccomp_notify_alloc(&req, &resp)) {
		fprintf(stderr, "uvfs-run: a worker: %s\n", strerror(ENOMEM));
		return NULL;
	}
	pthread_mutex_lock(&park_lock);
	for (;;) {
		bool more;
		int err;

		while (!__atomic_load_n(&workers_stop, __ATOMIC_ACQUIRE) && receivers && !wanted) {
			parked++;
			pthread_cond_wait(&park_cond, &park_lock);
			parked--;
		}
		if (__atomic_load_n(&workers_stop, __ATOMIC_ACQUIRE))
			break;
		if (wanted)
			wanted--;
		receivers++;
		pthread_mutex_unlock(&park_lock);
		memset(req, 0, sizeof(*req));
		/* EINTR: woken to stop; ENOENT: withdrawn, the caller interrupted
		 * before we looked */
		err = ioctl(run_notify_fd, SECCOMP_IOCTL_NOTIF_RECV, req);
		more = !err && notif_pending();
		pthread_mutex_lock(&park_lock);
		receivers--;
		if (err)
			continue;
		if (more && parked > wanted) {
			wanted++;
			pthread_cond_signal(&park_cond);
		}
		pthread_mutex_unlock(&park_lock);
		on_notify(req, resp);
		pthread_mutex_lock(&park_lock);
	}
	pthread_mutex_unlock(&park_lock);
	seccomp_notify_free(req, resp);
	return NULL;
}

/* The workers, blocking RUN_WAKE_SIG everywhere else; 0 or -errno */
static int workers_start(void)
{
	struct sigaction sa = { .sa_handler = wake_handler };  /* no SA_RESTART */
	sigset_t wake;
	cpu_set_t cpus;
	int n = RUN_WORKERS_MAX, err = 0;

	if (run_workers)
		n = run_workers;
	else if (!sched_getaffinity(0, sizeof(cpus), &cpus) && CPU_COUNT(&cpus) < n)
		n = CPU_COUNT(&cpus) > 0 ? CPU_COUNT(&cpus) : 1;
	sigemptyset(&wake);
	sigaddset(&wake, RUN_WAKE_SIG);
	pthread_sigmask(SIG_BLOCK, &wake, NULL);
	sigaction(RUN_WAKE_SIG, &sa, NULL);
	__atomic_store_n(&workers_stop, false, __ATOMIC_RELAXED);
	while (nworkers < n && !(err = pthread_create(&workers[nworkers], NULL, worker_main, NULL)))
		nworkers++;
	run_stats.workers = (unsigned long)nworkers;
	return nworkers ? 0 : -err;
}

static void workers_end(void)
{
	pthread_mutex_lock(&park_lock);
	__atomic_store_n(&workers_stop, true, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&park_cond);  /* the parked ones */
	pthread_mutex_unlock(&park_lock);
	for (int i = 0; i < nworkers; i++) {
		struct timespec ts;

		/* again until it is gone: the signal may come just before its ioctl */
		do {
			pthread_kill(workers[i], RUN_WAKE_SIG);
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 10 * 1000 * 1000;
			if (ts.tv_nsec >= 1000000000) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000;
			}
		} while (pthread_timedjoin_np(workers[i], NULL, &ts) == ETIMEDOUT);
	}
	nworkers = 0;
}

/* A helper is done (waits.c): its answer applied as the loop's own would be */
static void on_wait_done(struct run_wait *w, struct seccomp_notif_resp *resp)
{
	struct proc *p = w->p;
	struct run_act *act = act_hold(p->up->act);
	int group = -1;

	pthread_mutex_lock(&act->lock);
	if (w->notified && w->a == ACT_INSTALL && p->dead) {
		close(p->inst_hfd);
		p->inst_hfd = -1;
		run_installed(p, -ESRCH);
	} else if (w->notified && w->a == ACT_INSTALL) {
		/* installed here, not by the helper: under the act lock as every install
		 * is, and the helper's descriptor (above run_fd_floor) meets none */
		group = install_notified(p, w->req.id, &w->regs);
	}
	if (!p->dead) {
		if (w->notified) {
			run_stat_add(traps, 1);
			run_stat_add(answered, w->a != ACT_NATIVE);
			notify_respond(p, resp, w->req.id, &w->regs, w->a, group);
		} else {
			long nr = (long)w->regs.orig_rax;

			seccomp_apply(p, &w->regs, w->a);
			if (w->a == ACT_SKIP && (long)w->regs.rax == -ERESTARTSYS)
				p->restart_nr = nr;
		}
	}
	pthread_mutex_unlock(&act->lock);
	act_put(act);
	proc_put(p);
	run_wait_free(w);
}

/* One stop or end of a tracee, as waitpid() reported it */
struct trace_state {
	pid_t child;
	int *status;
	bool done;
	pid_t *early;
	int nearly, early_max;
};

static void on_stop(struct trace_state *ts, struct proc *p, pid_t tid, int ws);

/* One stop or end of a tracee: handled holding its process's act lock */
static void on_wait(struct trace_state *ts, pid_t tid, int ws)
{
	struct proc *p = proc_find(tid);
	struct run_act *act = p ? act_hold(p->up->act) : NULL;

	if (act)
		pthread_mutex_lock(&act->lock);
	if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
		if (tid == ts->child && !ts->done) {
			*ts->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
			ts->done = true;
		}
		if (p)
			proc_del(p);
	} else if (WIFSTOPPED(ws)) {
		on_stop(ts, p, tid, ws);
	}
	if (act) {
		pthread_mutex_unlock(&act->lock);
		act_put(act);
	}
}

static void on_stop(struct trace_state *ts, struct proc *p, pid_t tid, int ws)
{
	if (!p) {
		/* a new tracee before its parent's event: keep it stopped */
		if (ts->nearly == ts->early_max) {
			pid_t *e = realloc(ts->early, (size_t)(ts->early_max = ts->early_max * 2 + 16) *
						      sizeof(*e));

			if (!e) {
				kill(tid, SIGKILL);  /* cannot wait for its parent's event */
				return;
			}
			ts->early = e;
		}
		ts->early[ts->nearly++] = tid;
		return;
	}
	if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
		on_seccomp(p);
	} else if (WSTOPSIG(ws) == (SIGTRAP | 0x80)) {
		on_syscall_exit(p);
	} else if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_FORK << 8)) ||
		   ws >> 8 == (SIGTRAP | (PTRACE_EVENT_VFORK << 8)) ||
		   ws >> 8 == (SIGTRAP | (PTRACE_EVENT_CLONE << 8))) {
		unsigned long msg = 0;

		if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg)) {
			int err = new_tracee(p, (pid_t)msg);

			if (err) {
				/* without a task it would wait for ever: it goes */
				fprintf(stderr, "uvfs-run: process %lu: %s\n", msg, strerror(-err));
				kill((pid_t)msg, SIGKILL);
			}
			for (int i = 0; i < ts->nearly; i++) {
				if (ts->early[i] != (pid_t)msg)
					continue;
				ts->early[i] = ts->early[--ts->nearly];
				if (proc_find((pid_t)msg))
					start_tracee_locked(proc_find((pid_t)msg));
				else
					resume((pid_t)msg, PTRACE_CONT, 0);
				break;
			}
		}
		/* a parent that now shares its table: its clone's exit stop */
		resume(tid, p->watch_all ? PTRACE_SYSCALL : cont_of(p), 0);
	} else if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
		on_exec(p);
	} else if (ws >> 16 == PTRACE_EVENT_STOP) {
		/* a new tracee's first stop (PTRACE_SEIZE's children start with
		 * it, SIGTRAP), or a group-stop (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU),
		 * which PTRACE_LISTEN keeps until a SIGCONT: job control works */
		int sig = WSTOPSIG(ws);

		if (p->attached && sig != SIGTRAP)
			resume(tid, PTRACE_LISTEN, 0);
		else if (!p->attached)
			start_tracee(p);
		else if (p->watch_group >= 0)
			watch_after_notify(p);  /* the stop PTRACE_INTERRUPT brought */
		else
			resume(tid, cont_of(p), 0);
	} else {
		on_signal_stop(p);
		resume(tid, cont_of(p), WSTOPSIG(ws));
	}
}

/*
 * The program's RLIMIT_FSIZE is uvfs's to apply to its calls (syscalls.c,
 * run_syscall()); uvfs-run's own writes for it -- to a memfd, a host file -- must not
 * meet the limit uvfs-run inherited from the same caller, nor its SIGXFSZ kill
 * uvfs-run: the limit raised as far as the kernel lets it (the program, forked
 * already, keeps its own), and SIGXFSZ ignored, so that past what remains a write is
 * only EFBIG.
 */
static void fsize_unlimit(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };

	if (setrlimit(RLIMIT_FSIZE, &rl) && !getrlimit(RLIMIT_FSIZE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	signal(SIGXFSZ, SIG_IGN);
}

/* A signal sent to uvfs-run, for the program's process group (main.c,
 * run_relayed), and for the program as well when it has made itself another (a
 * shell with job control): as natively, where it would have been the target */
static void relay(pid_t child, int sig)
{
	pid_t g = getpgid(child);

	(void)kill(-run_relay_pgrp, sig);
	if (g > 0 && g != run_relay_pgrp)
		(void)kill(child, sig);
}

/*
 * The loop.  Stops and ends of tracees come by waitpid(), which SIGCHLD announces
 * (blocked in every thread of uvfs-run, read through a signalfd); the workers'
 * handoffs, the helpers that are done and the ticks that look for signals while one
 * waits by descriptors of their own.  All are waited for in one poll(); a run of
 * tracee events yields to the handoffs every 16 events, so that a busy process's stops
 * do not hold up another's open.  It ends when no tracee and no helper is left; then
 * the workers.
 */
int run_trace(pid_t child, struct uvfs_task *first, int *status)
{
	struct uproc *up = calloc(1, sizeof(*up));
	struct trace_state ts = { .child = child, .status = status };
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	struct pollfd pf[4];
	sigset_t chld;
	int ws, sfd, burst = 0, err;
	bool stops = true;  /* a SIGCHLD may have come: waitpid has something */
	bool tracees = true;

	if (!up || !(up->act = act_new()) || !proc_add(child, up))
		return -ENOMEM;
	if (seccomp_notify_alloc(&req, &resp))
		return -ENOMEM;
	err = run_waits_init();
	if (err)
		return err;
	ho_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (ho_fd < 0)
		return -errno;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	if (run_own_pgrp)
		run_relayed(&chld);
	sfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return -errno;
	up->task = first;
	up->nspid = uvfs_task_pid(first);
	up->tgid = child;
	run_key_set(up, "", "fork");
	run_log_started();
	proc_find(child)->attached = true;
	*status = 0;
	fsize_unlimit();
	err = workers_start();
	if (err)
		return err;
	pf[0] = (struct pollfd){ .fd = ho_fd, .events = POLLIN };
	pf[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	pf[2] = (struct pollfd){ .fd = run_waits_done_fd(), .events = POLLIN };
	pf[3] = (struct pollfd){ .fd = run_waits_tick_fd(), .events = POLLIN };
	for (;;) {
		/* waitpid only after a SIGCHLD: a run of notifications costs none */
		pid_t tid = tracees && stops && burst < 16 ? waitpid(-1, &ws, __WALL | WNOHANG) : 0;
		/* a read takes every pending signal that fits, and SIGCHLD and the relayed
		 * ones are standard signals, one of each pending at most: one read drains */
		struct signalfd_siginfo si[RUN_RELAYED_MAX + 1];
		struct run_wait *w;
		ssize_t n;

		if (tid > 0) {
			on_wait(&ts, tid, ws);
			burst++;
			continue;
		}
		if (tid < 0 && errno != EINTR)
			tracees = false;  /* nobody left (ECHILD) */
		if (!tracees && !run_waits_count())
			break;
		if (!tid && burst < 16)
			stops = false;  /* every stop so far collected */
		if (poll(pf, 4, burst ? 0 : -1) < 0 && errno != EINTR)
			break;
		burst = 0;
		if (pf[1].revents & POLLIN) {
			/* drained before the next waitpid: a stop after it raises another */
			n = read(sfd, si, sizeof(si));
			for (ssize_t i = 0; i < n / (ssize_t)sizeof(si[0]); i++)
				if (si[i].ssi_signo != SIGCHLD)
					relay(child, (int)si[i].ssi_signo);
			stops = true;
		}
		if (pf[2].revents & POLLIN)
			while ((w = run_wait_reap()))
				on_wait_done(w, resp);
		if (pf[3].revents & POLLIN) {
			run_waits_tick();
			run_flights_gc();  /* a receiver may wait for a peer's EOF */
		}
		if (pf[0].revents & POLLIN)
			handoffs_run(resp);
	}
	workers_end();
	handoffs_run(resp);  /* what they left: for processes that are gone */
	close(ho_fd);
	close(sfd);
	seccomp_notify_free(req, resp);
	free(ts.early);
	return 0;
}
