/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run.h - uvfs-run: unmodified programs whose file-system calls uvfs answers.
 *
 * How a call travels (docs/ARCHITECTURE.md, "uvfs-run"): the program runs under a
 * seccomp filter (filter.c) that lets every system call through to the kernel except
 * the file-system calls uvfs answers.  Those are delivered to the supervisor (trace.c)
 * one of two ways:
 *   - every call with a path by seccomp user notification (SECCOMP_RET_USER_NOTIF):
 *     the supervisor reads the arguments and the path, asks uvfs, writes the results
 *     back, and installs an open's new descriptor in the process's table itself
 *     (SECCOMP_IOCTL_NOTIF_ADDFD at the lowest free number, uvfs's moved there, then
 *     the answer: no other thread can take the number in between, and nothing the
 *     program can write is read again by the kernel);
 *   - exec, the credential calls, unshare, close_range and the calls on watched
 *     descriptor numbers by ptrace (SECCOMP_RET_TRACE -> PTRACE_EVENT_SECCOMP): the tracer
 *     reads the arguments, asks uvfs as the process's uvfs task (syscalls.c), writes
 *     the results back and resumes the process with the system call skipped and
 *     uvfs's return value in its place.
 * Both reach the same decoding (run_syscall(), on the registers a notification's
 * arguments fill in).
 *
 * One descriptor space: the kernel's table of each process stays the authority on
 * numbers (lowest free, dup2, close-on-exec across exec).  Every uvfs descriptor N
 * has a stand-in at N in the kernel's table -- the real host file, reopened by the
 * supervisor through uvfs_host_fd(), for a file on a host mount (so that mmap and exec
 * see the real file), a null device of uvfs-run's own otherwise (RUN_STAND_IN) --
 * installed by ADDFD at the lowest free number, and uvfs's descriptor moved to that
 * number before the call is answered.  Host descriptors (the terminal, pipes,
 * sockets) have no uvfs side and every call on them runs on the kernel.
 *
 * Threads: the notified calls are received and answered by a few worker threads
 * (trace.c, as many as the machine has processors, at most RUN_WORKERS_MAX), so that
 * independent processes' opens and stats overlap; the loop's thread alone uses
 * ptrace and takes the stops.  Whoever acts for a thread -- a worker answering its
 * notification, the loop at one of its stops -- holds its process's act lock
 * (struct run_act), so the calls of one process are answered one at a time, as a
 * single supervisor answered them.  A call that may wait -- a uvfs fifo's open, read
 * or write -- is made on a helper thread of its own, which a signal for the caller
 * interrupts (waits.c).  x86-64 only (the register layout and system call numbers).
 */
#ifndef UVFS_RUN_H
#define UVFS_RUN_H

#include <linux/seccomp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include <uvfs/uvfs.h>

/* Linux 6.6; Debian 12's headers are 6.1's */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* What the tracer waits for at a process's next syscall-exit stop. */
enum pending {
	PEND_NONE,
	PEND_DUP,       /* dup/dup2/dup3/F_DUPFD: mirror the new number in uvfs */
	PEND_CLOSE_RANGE,
	PEND_CREDS,     /* a set*id call: the same call on uvfs when the kernel agreed */
	PEND_SEND,      /* sendmsg/sendmmsg of uvfs descriptors: their flights kept
			 * or dropped (passing.c) */
	PEND_RECV,      /* recvmsg/recvmmsg with room for descriptors: uvfs's files at
			 * the numbers received (p_arg: the messages; p_flags: its flags) */
	PEND_GETFD,     /* pidfd_getfd: the target's file at the number it returned */
	PEND_SOCK,      /* socket/socketpair(AF_UNIX): watch its sends and receives */
	PEND_POS,       /* sendfile/splice from a uvfs file's stand-in at uvfs's position
			 * (p_fd; p_arg: where the offset was written, p_fd2: its
			 * argument, 1 or 2) */
	PEND_UNSHARE,   /* unshare: uvfs's part (CLONE_NEWNS, CLONE_FS, CLONE_FILES) when
			 * the kernel agreed */
};

enum action {
	ACT_NATIVE,       /* run it on the kernel, untouched */
	ACT_SKIP,         /* skipped: regs->rax is the result */
	ACT_REWRITTEN,    /* regs rewritten into another call; stop at its exit */
	ACT_EXIT_STOP,    /* run it on the kernel, stop at its exit (p->pending) */
	ACT_INSTALL,      /* a notified open: install p->inst_hfd at the lowest free
			   * number and answer with it (then run_installed()) */
	ACT_WAIT,         /* an open that would wait (a uvfs fifo's: uvfs_set_nowait):
			   * make the call again on a helper thread (waits.c); nothing
			   * was done */
};

/* The lock held by whoever acts for a thread of a process (trace.c): a worker from
 * receiving its notification to the response, the loop at its stops and while it
 * applies a helper's answer.  Everything of struct proc and struct uproc that is not
 * said otherwise is under it.  Processes that share a descriptor table (a clone with
 * CLONE_FILES) share one: a new uvfs descriptor is made at uvfs's lowest free number
 * and moved to the number the kernel gave it, and no other change to the table may
 * come in between.  Refcounted: the uprocs that use it, and the loop while it holds
 * it for a thread that may exit. */
struct run_act {
	pthread_mutex_t lock;
	int refs;                    /* atomic */
};

/* A process of the program: its threads share one (struct proc is per thread,
 * struct uproc per thread group: the uvfs task, which models a process whose
 * threads share files, cwd and root, as pthreads do). */
struct uproc {
	struct uvfs_task *task;
	struct run_act *act;         /* never changes */
	int threads;                 /* procs using it (trace.c's procs_lock) */
	pid_t nspid;                 /* the pid the program sees (uvfs's pid) */
	pid_t tgid;                  /* the host's process id (prlimit, /proc) */
	/* procs_lock: what its last exec named it (procsrc.c): the command name Linux
	 * gives, the one the kernel gave (the stand-in's), the kernel's file */
	char comm[16], kcomm[16];
	dev_t exe_dev;
	ino_t exe_ino;
	/* its place in the tree of processes, for --explain (explain.c):
	 * "/bash[1a2b]#1/cut[3c4d]#2" the second cut with those arguments that the
	 * first bash ran, ".../fork#1" a child that has not exec'd (key: written under
	 * the act lock and procs_lock, read under either); its parent's when it was
	 * made (pkey: the act lock) */
	char key[160], pkey[160];
	unsigned int threads_made;   /* threads it has made, for their numbers (atomic) */
	unsigned int watched;        /* the groups (run_fd_group, RUN_GROUP_ODD + group,
				      * RUN_GROUP_SOCK) the process's filters trap
				      * descriptor calls on: a fork's child has its
				      * parent's, exec keeps them */
	/* act lock: while its threads' credentials differ (a raw set*id made by one
	 * thread: credentials are per thread in the kernel), the thread whose the task
	 * holds; 0 while they are all the same (syscalls.c, sync_creds) */
	pid_t cred_tid;
	/* atomic: /proc/PID/io's counts of the calls uvfs answered for its threads, those
	 * gone too (the kernel's signal->ioac with the live threads') */
	unsigned long io[4];
};
/* the counts of /proc/PID/io a skipped call misses (task_io_accounting) */
enum run_io { RUN_IO_RCHAR, RUN_IO_WCHAR, RUN_IO_SYSCR, RUN_IO_SYSCW };
/* ... what uvfs answered for the process nspid (nstid 0) or its thread nstid, into
 * io[4]: 0, or -ESRCH */
int run_io_counts(pid_t nspid, pid_t nstid, unsigned long io[4]);

/* A watching filter being installed in a process (trace.c, watch()): the seccomp
 * call made in its place, and what the process is to see when it is done. */
enum inject {
	INJ_NONE,
	INJ_ENTRY,                   /* waiting for the seccomp call's entry */
	INJ_EXIT,                    /* ... and its exit */
};

/* An exec run through a descriptor the supervisor installs (trace.c, exec_stop()):
 * the execve, at its seccomp stop, becomes a notified open of RUN_EXEC_MARKER, whose
 * answer installs the file (ADDFD, close-on-exec); at that call's exit the process
 * is sent back to its syscall instruction with execveat(fd, "", argv, envp,
 * AT_EMPTY_PATH); if that fails, with close(fd), and then the failure is returned. */
enum exec_step {
	EX_NONE,
	EX_INSTALL,                  /* the notified open that installs exec_hfd */
	EX_RUN,                      /* execveat of the installed descriptor */
	EX_CLOSE,                    /* close of it after execveat failed */
};
/* the directory descriptor of the open an execve becomes: no descriptor's number */
#define RUN_EXEC_MARKER (-0x75766673)
/* the files one exec opens: a chain of scripts 5 long (binfmt_script's depth) and the
 * last interpreter */
#define RUN_EXEC_FILES 6

struct proc {
	pid_t tid;                   /* the host's thread id (ptrace, process_vm_*) */
	struct uproc *up;            /* changes only under the loop's exec handling */
	struct proc *next;           /* hash chain (procs_lock) */
	bool attached;               /* its first stop was seen */
	enum pending pending;
	int p_fd, p_fd2;             /* PEND_OPEN: uvfs's descriptor; PEND_DUP: source, uvfs or -1 */
	unsigned int p_flags;        /* O_CLOEXEC for the new descriptor */
	long p_arg;
	int new_ufd;                 /* run_syscall_exit: a number uvfs's descriptor
				      * now has, or -1 */
	unsigned int watch_more;     /* groups of numbers uvfs's descriptors now have
				      * (a receive of several): installed one by one
				      * before the process goes on */
	/* ACT_INSTALL: the supervisor's descriptor to install in the process's table
	 * (closed by the supervisor afterwards), with these descriptor flags (O_CLOEXEC);
	 * inst_ufd: uvfs's descriptor to move to the number it gets, or -1 (a host
	 * descriptor: a device, a host descriptor's /proc name) */
	int inst_hfd, inst_ufd;
	unsigned int inst_flags;
	int watch_group;             /* a watching filter to install at the stop that
				      * PTRACE_INTERRUPT brings, or -1 */
	/* ... where that stop must be: just after the notified call, which was this */
	unsigned long long watch_rip;
	long watch_nr;
	enum inject inj;
	int inj_group;
	bool watch_all;              /* install RUN_GROUP_ALL at the next stop that may:
				      * it shares its table with another process */
	struct user_regs_struct inj_saved;  /* the registers the call returned with */
	uint64_t inj_mask;           /* ... and its signal mask (every signal is blocked
				      * while the filter goes in) */
	/* calls that waited (waits.c): helpers using this proc (it is freed when the
	 * last is reaped: dead says it has exited meanwhile); a traced call answered
	 * -ERESTARTSYS (its number, for the signal-delivery stop to restore), or -1;
	 * a notified call answered -ERESTARTSYS (the stop leaves it as it is) */
	unsigned int thread_no;      /* 0 for the process's first thread, N for the Nth it
				      * made since: its calls' key for --explain */
	int busy;                    /* procs_lock: helpers, a worker, a handoff */
	bool dead;                   /* procs_lock; written by the loop only */
	/* atomic: /proc/TID/io's counts of the calls uvfs answered, which the kernel
	 * never ran (enum run_io) */
	unsigned long io[4];
	long restart_nr;
	bool restart_sys;
	/* an exec in progress (enum exec_step): the supervisor's O_PATH descriptor of the
	 * file until installed, then its number in the process; what execveat returned;
	 * the registers of the execve as the program made it, and the argv and envp the
	 * execveat takes (a script's argv is made anew: syscalls.c, do_exec) */
	enum exec_step exec_step;
	int exec_hfd, exec_fd;
	/* uvfs's files the exec opens -- a script's, each interpreter's -- held until
	 * the exec's opens of them have broken their write leases (RUN_EXEC_MARKER's
	 * answer: uvfs_break_lease); exec_intr: that answer was a signal's -ERESTARTSYS */
	struct uvfs_file *exec_files[RUN_EXEC_FILES];
	int exec_nfiles;
	bool exec_intr;
	/* the path uvfs follows once the kernel has run this thread's execve, and the
	 * host file the kernel must have run (on_exec): per thread, for two threads of a
	 * process may exec at once, and the kernel runs one of them */
	char *exec_path;
	/* ... and the file itself, which uvfs follows (uvfs_task_exec_file): the name may
	 * be another file's by then -- the upgrade's rename over a binary just run */
	struct uvfs_file *exec_file;
	char exec_comm[16];          /* the command name Linux gives at that exec */
	dev_t exec_dev;
	ino_t exec_ino;
	long exec_err;
	struct user_regs_struct exec_regs;
	unsigned long long exec_argv, exec_envp, exec_empty;
	/* a notification a worker hands to the loop (trace.c, handoff()): a thread has
	 * one call at a time, so one such per proc; under the handoff queue's lock until
	 * the loop takes it */
	struct proc *ho_next;
	bool ho_wait;                /* an open that waits: the loop starts its helper;
				      * else the answer, for the loop to respond after
				      * PTRACE_INTERRUPT (a newly watched number) */
	struct seccomp_notif ho_req;
	struct user_regs_struct ho_regs;
	enum action ho_a;
	int ho_group;
};

/* the files held for an exec's lease breaks let go (syscalls.c) */
void run_exec_files_put(struct proc *p);
void run_exec_follow_drop(struct proc *p);

/* A call that may wait, made on a helper thread (waits.c).  Fields are the loop's
 * until the helper starts, the helper's until done, the loop's again after. */
struct run_wait {
	struct run_wait *next;       /* the loop's list */
	pthread_t thread;
	struct proc *p;
	int mem_fd;                  /* a traced call: /proc/TID/mem, opened while the
				      * caller was in its stop -- its memory, which an
				      * exec by another thread does not replace (-1) */
	struct uvfs_intr *in;        /* raised for a signal, or when the caller is gone */
	bool notified;               /* req is a notification; else a traced call */
	bool raised;
	struct seccomp_notif req;
	struct user_regs_struct regs;   /* the call; after it, its result */
	enum action a;
	bool done;                   /* atomic: the result is there */
};

/* uvfs's descriptor limit (the kernel's default nr_open): above any number a helper's
 * open makes its descriptor at (run_fd_floor); the kernel's limits are the ones that
 * count (ADDFD's EMFILE) */
#define RUN_FD_MAX (1u << 20)

/* The stand-in of a uvfs descriptor with no host file (memfs, /proc): a null device
 * on a tmpfs of the program's kernel-side mount namespace (main.c, init_main), which
 * the supervisor holds open as run_null_fd (O_PATH) and reopens for each stand-in */
#define RUN_STAND_IN_DIR "/tmp"
#define RUN_STAND_IN RUN_STAND_IN_DIR "/.uvfs-run-null"
/* where the init mounts a proc of the program's pid namespace (procsrc.c) */
#define RUN_PROC RUN_STAND_IN_DIR "/.uvfs-run-proc"

/* trace.c */
extern struct uvfs *run_fs;
extern pid_t run_tracer_pid;
extern int run_null_fd;
/* the tmpfs the null device lies on (O_PATH): memfs directories' stand-ins are made
 * there (syscalls.c, standin_dir) */
extern int run_standin_dir;
/* The program's kernel-side /dev, read-only (main.c, init_main), O_PATH; -1 where it
 * could not be made so: a device on uvfs's read-only root is opened through it */
extern int run_dev_fd;
extern int run_notify_fd;   /* the filter's listener (filter.c) */
/* the supervisor's own RLIMIT_NOFILE, as main.c set it (raise_nofile); immutable */
extern unsigned long run_nofile;
/* Without a controlling terminal the program leads a process group of its own, so
 * that getpgrp() inside the pid namespace is a group it can name (F_SETOWN of -pgrp,
 * killpg): run_own_pgrp set by main() before any thread, then immutable.  The
 * signals a caller sends uvfs-run -- run_relayed() adds them to a set, blocked in
 * every thread of a process that runs the program (main.c, run_once; none of them
 * is the workers' RUN_WAKE_SIG) -- the loop passes on to that group, the program's host pid
 * (run_relay_pgrp: set by run_once() before the loop, which alone reads it) */
extern bool run_own_pgrp;
extern pid_t run_relay_pgrp;
#define RUN_RELAYED_MAX 6   /* how many signals run_relayed() adds, at most */
void run_relayed(sigset_t *set);
/* what the tracer saw (--stats): seccomp stops, of them the ones uvfs answered
 * (skipped or rewritten), and watching filters installed; the notified calls, the
 * workers, and how many calls a worker began while another was answering one;
 * counted by the loop and the workers alike (run_stat_add), read when all are done */
#define RUN_STATS_NR 512  /* system call numbers counted one by one (x86-64's < 512) */
struct run_stats {
	unsigned long traps, answered, watches;
	unsigned long notified, workers, overlapped, busy;
	/* --stats: each call's traps, [0] by a ptrace stop (SECCOMP_RET_TRACE: the
	 * watched calls, exec), [1] by a notification */
	unsigned long by_nr[2][RUN_STATS_NR];
};
extern struct run_stats run_stats;
#define run_stat_add(field, n) __atomic_fetch_add(&run_stats.field, (n), __ATOMIC_RELAXED)
#define run_stat_nr(how, nr)                                                             \
	do {                                                                             \
		unsigned long nr_ = (unsigned long)(nr);                                 \
		if (nr_ < RUN_STATS_NR)                                                  \
			__atomic_fetch_add(&run_stats.by_nr[how][nr_], 1, __ATOMIC_RELAXED); \
	} while (0)
/* the worker threads that receive notifications: one per processor, at most this */
#define RUN_WORKERS_MAX 8
extern int run_workers;   /* --workers; 0: the default */
int run_trace(pid_t child, struct uvfs_task *first, int *status);
/* a struct proc kept while a helper uses it (waits.c) */
void run_proc_hold(struct proc *p);
void run_proc_put(struct proc *p);

/* filter.c: install the filter in the calling process (the child, before exec):
 * the listener's descriptor (close-on-exec), or -errno */
int run_install_filter(void);
/* the same filter's BPF program, its numbers decided by libseccomp's
 * SCMP_FLTATR_CTL_OPTIMIZE level (1 or 2; the installed one's is 2), into buf, room
 * for max instructions: the program's length (less than max), or -errno (-E2BIG for
 * max or more).  For tests/uvfs-run/filter_tree.py (filter_export) and
 * bench/filter_cost */
struct sock_filter;
int run_first_filter_program(int optimize, struct sock_filter *buf, size_t max);
/* the group of descriptor numbers a watching filter traps (filter.c): 0 to 3 alone,
 * then [2^(g-2), 2^(g-1)) up to [2048, 4096), then RUN_GROUP_TOP and above;
 * RUN_GROUP_ALL: every number (a table shared with another process) */
#define RUN_GROUP_TOP 4096
#define RUN_GROUP_ALL 15
/* not a group of numbers: the filter that stops sendmsg, sendmmsg, recvmsg and
 * recvmmsg, installed when the process makes a unix socket (filter.c) */
#define RUN_GROUP_SOCK 16
/* RUN_GROUP_ODD + g: the numbers of group g once an O_PATH descriptor or a fifo of
 * uvfs's has had one of them: the calls their stand-in answers otherwise than Linux
 * does the file (mmap, fadvise64, readahead, sync_file_range, flock: filter.c) */
#define RUN_GROUP_ODD 17
/* what RUN_GROUP_ALL's filter traps: every group's calls and every odd group's */
#define RUN_WATCH_ALL (~(1u << RUN_GROUP_SOCK))
int run_fd_group(int fd);
/* the groups a filter must watch for uvfs's descriptor fd (syscalls.c): its number's
 * group, and that group's odd one for an O_PATH descriptor or a fifo */
struct proc;
unsigned int run_fd_watch(struct proc *p, int fd);
/* group g's watching filter into out: its length */
#define RUN_WATCH_MAX 64
struct sock_filter;
int run_watch_filter(int g, struct sock_filter *out);

/* syscalls.c: a seccomp stop: the call's number and registers.  Returns true when
 * the call was answered (regs changed: skipped with a result, or rewritten) */
enum action run_syscall(struct proc *p, struct user_regs_struct *regs);
/* the syscall-exit stop of an ACT_REWRITTEN or ACT_EXIT_STOP call */
void run_syscall_exit(struct proc *p, struct user_regs_struct *regs);
/* after ACT_INSTALL's ADDFD: the number the descriptor got, or -errno; uvfs's
 * descriptor moves there (or goes).  Returns the group of descriptor numbers a
 * watching filter must be installed for before the program goes on, or -1. */
int run_installed(struct proc *p, long ret);
/* true on a helper thread (waits.c): an open that may wait is made, not ACT_WAIT */
extern _Thread_local bool run_on_helper;
/* Is this call one the filter delivers by notification (the opens)? */
bool run_notified(long nr);

/* passing.c: descriptors that travel (SCM_RIGHTS, pidfd_getfd); many: the
 * mmsg forms */
enum action run_send(struct proc *p, struct user_regs_struct *r, bool many);
void run_send_exit(struct proc *p, long ret, bool many);
enum action run_recv(struct proc *p, struct user_regs_struct *r, bool many);
void run_recv_exit(struct proc *p, const struct user_regs_struct *r, long ret, bool many);
void run_getfd_exit(struct proc *p, const struct user_regs_struct *r, long ret);
/* flights whose socket is gone dropped (the loop's tick); all of them (the end) */
void run_flights_gc(void);
void run_flights_end(void);
/* the open file description at fd of process pid, as the supervisor's own
 * descriptor (pidfd_getfd), or -errno */
int run_take_fd(pid_t pid, int fd);
/* trace.c: the processes that exited and were reaped since: gone from uvfs's /proc */
void run_zombies_sweep(void);
/* send the signals uvfs owes (dnotify's, lease breaks': uvfs_dnotify_take) */
void run_dnotify_send(void);
struct msghdr;
/* passing.c: the control data of a message the supervisor sends for p (a datagram
 * to a path, unixsock.c), as __scm_send() takes p's: SCM_RIGHTS descriptors become
 * the supervisor's copies of p's (in fds[], *nfds of them, for the caller to close
 * after the send; a uvfs descriptor a flight, which run_send_exit() keeps or drops
 * by the send's result), SCM_CREDENTIALS is checked against p's credentials
 * (scm_check_creds()) and its pid made the host's, and p's own credentials are
 * added when it gave none -- what the kernel attaches to a send of p's, which a
 * receiver with SO_PASSCRED reads.  Into out (cap bytes): the length, or -errno
 * (EINVAL, EBADF, EPERM, ESRCH as the kernel's). */
long run_send_control(struct proc *p, const struct msghdr *mh, char *out, size_t cap,
		      int *fds, int *nfds);
/* trace.c: the process whose thread tid is (the loop's), or NULL */
struct uproc *run_uproc_of(pid_t tid);
/* The names of the process the program calls nspid (procsrc.c): the command names
 * and the executable's kernel file and, with exe, uvfs's path of it.  0 or -ESRCH.
 * Takes procs_lock, and under it uvfs's. */
struct run_names {
	char comm[16], kcomm[16];
	char exe[4096];
	dev_t exe_dev;
	ino_t exe_ino;
	dev_t uexe_dev;              /* uvfs's stat of it (0: unknown) */
	ino_t uexe_ino;
	pid_t tgid;                  /* the host's */
};
int run_uproc_names(pid_t nspid, bool exe, struct run_names *nm);
/* the live threads' host ids of up's process, at most max stored: how many */
size_t run_uproc_tids(const struct uproc *up, pid_t *tids, size_t max);
/* uvfs's task takes the credentials the kernel shows for p's thread (syscalls.c) */
void run_sync_creds(struct proc *p);
/* --bind and --ro-bind (main.c): the host directory's device and where the program
 * sees it, for maps (procsrc.c); set before the program runs, then read only */
struct run_bind {
	dev_t dev;                   /* the host directory's device */
	const char *dst;
};
#define RUN_BINDS_MAX 64          /* main.c's mount options at most */
extern struct run_bind run_binds[RUN_BINDS_MAX];
extern int run_nbinds;
/* uvfs's stat (following) of path by process nspid: 0 or -errno */
int run_uproc_stat(pid_t nspid, const char *path, struct stat *st);
/* the kernel's id of host task tid's mount namespace, given to t's (syscalls.c) */
void run_sync_mnt_ns_id(struct uvfs_task *t, pid_t tid);
/* uvfs_memfd_name() as process nspid sees it */
ssize_t run_uproc_memfd_name(pid_t nspid, dev_t kdev, ino_t kino, char *buf, size_t size,
			     struct stat *st);
/* the program's id of the thread whose call the calling thread answers, or -1 */
extern _Thread_local pid_t run_cur_tid;  /* the host's id of that thread */
int run_cur_nstid(void);

/* explain.c: --explain's record of a run (run_log_fd >= 0) and its report */
extern int run_log_fd, run_tree_fd;
void run_log_begin(void);
void run_log_path(const char *path);
void run_log_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void run_log_data(struct proc *p, int fd, const void *data, size_t len);
void run_log_call(struct proc *p, long nr, unsigned long long a0, long ret, enum action a);
void run_log_exec(struct proc *p, const char *exe);
void run_log_started(void);
void run_key_set(struct uproc *up, const char *parent_key, const char *what);
/* trace.c: the key of the process the program calls nspid (procs_lock) */
int run_key_of(pid_t nspid, char *buf, size_t size);
/* trace.c: the host's process id of the process the program calls nspid, or -ESRCH */
pid_t run_host_tgid(pid_t nspid);
void run_uproc_set_key(struct uproc *up, const char *key);
void run_tree_dump(struct uvfs_task *t, const char *path);
extern const char *run_explain_log;  /* --explain-log DIR */
int run_explain(int (*once)(const void *o, const char *abi), const void *o, bool json,
		const char *command, long line);

/* procsrc.c */
extern int run_proc_fd;      /* the kernel's proc of the program's pid namespace */
void run_proc_source(struct uvfs_task *t, const char *where);
void run_proc_source_end(void);

/* waits.c */
int run_waits_init(void);
int run_waits_done_fd(void);     /* readable: a helper is done (run_wait_reap) */
int run_waits_tick_fd(void);     /* readable: time to look for signals (run_waits_tick) */
int run_waits_count(void);
void run_fd_floor(const struct proc *p);
bool run_may_wait_traced(const struct proc *p, const struct user_regs_struct *regs);
/* the call on a helper thread; req NULL for a traced call.  0 or -errno (then the
 * caller answers it itself) */
int run_wait_start(struct proc *p, const struct seccomp_notif *req,
		   const struct user_regs_struct *regs);
struct run_wait *run_wait_reap(void);   /* a helper that is done, or NULL */
void run_wait_free(struct run_wait *w);
void run_waits_tick(void);
/* the waits of callers already gone ended, before a lease call (waits.c) */
void run_waits_settle(void);
void run_waits_raise(const struct proc *p, bool wait);

/* unixsock.c: bind, connect and sendto (with an address) of a notified call: the
 * answer, or *native (not a unix socket: the kernel answers the call as made) */
long run_sock_call(struct proc *p, const struct user_regs_struct *r, bool *native);
/* ... and a sendmsg's, stopped for the tracer (passing.c): a datagram to a path,
 * its control data too; else *native */
long run_sock_sendmsg(struct proc *p, int fd, const struct msghdr *mh, int flags, bool *native);
/* ... and a sendmmsg's with a path among its names (unixsock.c), its messages at
 * mm_addr in the program */
struct mmsghdr;
long run_sock_sendmmsg(struct proc *p, int fd, const struct mmsghdr *mm, unsigned int vlen,
		       unsigned long long mm_addr, int flags, bool *native);

/* memory of the traced process; on a thread answering a notification (between
 * run_notif_begin and run_notif_end), -EFAULT once it is no longer alive (trace.c) */
void run_notif_begin(__u64 id);
void run_notif_end(void);
/* on a helper answering a traced call: the memory is read and written through fd (a
 * /proc/TID/mem), or -1 */
void run_mem_pin(int fd);
int mem_read(pid_t tid, unsigned long addr, void *buf, size_t len);
int mem_write(pid_t tid, unsigned long addr, const void *buf, size_t len);
/* a NUL-terminated string of at most max bytes: 0, -EFAULT, -ENAMETOOLONG */
int mem_read_str(pid_t tid, unsigned long addr, char *buf, size_t max);

#endif
