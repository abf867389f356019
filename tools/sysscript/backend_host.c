// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * backend_host.c - the sysscript backend that asks the running kernel: real system
 * calls, in a private mount namespace whose root is a fresh tmpfs.
 */

#include <linux/capability.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sysscript.h"

#define R(x) ({ long _r = (long)(x); _r < 0 ? -errno : _r; })

static int h_openat(void *c, int d, const char *p, int f, mode_t m) { return (int)R(syscall(SYS_openat, d, p, f, m)); }
static int h_close(void *c, int fd) { return (int)R(close(fd)); }
static ssize_t h_read(void *c, int fd, void *b, size_t n) { return R(read(fd, b, n)); }
static ssize_t h_write(void *c, int fd, const void *b, size_t n) { return R(write(fd, b, n)); }
static ssize_t h_pread(void *c, int fd, void *b, size_t n, off_t o) { return R(pread(fd, b, n, o)); }
static ssize_t h_pwrite(void *c, int fd, const void *b, size_t n, off_t o) { return R(pwrite(fd, b, n, o)); }
static off_t h_lseek(void *c, int fd, off_t o, int w) { return R(lseek(fd, o, w)); }
static int h_ftruncate(void *c, int fd, off_t l) { return (int)R(ftruncate(fd, l)); }
static int h_truncate(void *c, const char *p, off_t l) { return (int)R(truncate(p, l)); }
static int h_fsync(void *c, int fd) { return (int)R(fsync(fd)); }
static int h_renameat2(void *c, int od, const char *op, int nd, const char *np, unsigned f)
{ return (int)R(syscall(SYS_renameat2, od, op, nd, np, f)); }
static int h_unlinkat(void *c, int d, const char *p, int f) { return (int)R(unlinkat(d, p, f)); }
static int h_mkdirat(void *c, int d, const char *p, mode_t m) { return (int)R(mkdirat(d, p, m)); }
static int h_mknodat(void *c, int d, const char *p, mode_t m, dev_t dv) { return (int)R(syscall(SYS_mknodat, d, p, m, dv)); }
static int h_symlinkat(void *c, const char *t, int d, const char *p) { return (int)R(symlinkat(t, d, p)); }
static ssize_t h_readlinkat(void *c, int d, const char *p, char *b, size_t n) { return R(syscall(SYS_readlinkat, d, p, b, n)); }
static int h_linkat(void *c, int od, const char *op, int nd, const char *np, int f)
{ return (int)R(syscall(SYS_linkat, od, op, nd, np, f)); }
static int h_fstatat(void *c, int d, const char *p, struct stat *st, int f) { return (int)R(syscall(SYS_newfstatat, d, p, st, f)); }
static int h_fstat(void *c, int fd, struct stat *st) { return (int)R(fstat(fd, st)); }
static int h_inotify_init1(void *c, int flags)
{ return (int)R(inotify_init1(flags)); }
static int h_inotify_add_watch(void *c, int fd, const char *p, unsigned int mask)
{ return (int)R(inotify_add_watch(fd, p, mask)); }
static int h_inotify_rm_watch(void *c, int fd, int wd)
{ return (int)R(inotify_rm_watch(fd, wd)); }
static int h_fionread(void *c, int fd, int *n)
{ return (int)R(ioctl(fd, FIONREAD, n)); }
/* dnotify's signals, blocked since the run began (run_child): each one pending */
static int h_dnotify_signals(void *c, char *buf, size_t n)
{
	struct timespec zero = { 0 };
	size_t used = 0;
	siginfo_t si;
	sigset_t set;
	int count = 0, sig;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(&set, sig);
	buf[0] = 0;
	while ((sig = sigtimedwait(&set, &si, &zero)) > 0) {
		int k = sig == SIGIO ? snprintf(buf + used, n - used, "%sSIGIO", used ? " " : "")
				     : snprintf(buf + used, n - used, "%s%d fd=%d", used ? " " : "",
						sig, si.si_fd);

		if (k > 0 && (size_t)k < n - used)
			used += (size_t)k;
		count++;
	}
	return (int)used;
}
static int h_statx(void *c, int d, const char *p, int f, unsigned int m, struct statx *sx)
{ return (int)R(syscall(SYS_statx, d, p, f, m, sx)); }
static ssize_t h_getdents64(void *c, int fd, void *b, size_t n) { return R(syscall(SYS_getdents64, fd, b, n)); }
static int h_getcwd(void *c, char *b, size_t n) { return (int)R(syscall(SYS_getcwd, b, n)); }
static int h_chdir(void *c, const char *p) { return (int)R(chdir(p)); }
static int h_fchdir(void *c, int fd) { return (int)R(fchdir(fd)); }
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
static int h_fchmodat(void *c, int d, const char *p, mode_t m, int f) { return (int)R(syscall(SYS_fchmodat2, d, p, m, f)); }
static int h_faccessat2(void *c, int d, const char *p, int m, int f) { return (int)R(syscall(SYS_faccessat2, d, p, m, f)); }
static int h_fchownat(void *c, int d, const char *p, uid_t u, gid_t g, int f) { return (int)R(syscall(SYS_fchownat, d, p, u, g, f)); }
static int h_utimensat(void *c, int d, const char *p, const struct timespec t[2], int f)
{ return (int)R(syscall(SYS_utimensat, d, p, t, f)); }
/* Linux 6.13's *xattrat calls (Debian 12's headers have no names); struct xattr_args */
struct xattr_args_ { uint64_t value; uint32_t size, flags; };
static int h_setxattrat(void *c, int d, const char *p, int at, const char *n, const void *v,
			size_t sz, int f)
{
	struct xattr_args_ args = { (uint64_t)(uintptr_t)v, (uint32_t)sz, (uint32_t)f };

	return v ? (int)R(syscall(463, d, p, at, n, &args, sizeof(args)))
		 : (int)R(syscall(466, d, p, at, n));
}
static ssize_t h_getxattrat(void *c, int d, const char *p, int at, const char *n, void *b,
			    size_t sz)
{
	struct xattr_args_ args = { (uint64_t)(uintptr_t)b, (uint32_t)sz, 0 };

	return R(syscall(464, d, p, at, n, &args, sizeof(args)));
}
static ssize_t h_listxattrat(void *c, int d, const char *p, int at, char *b, size_t sz)
{ return R(syscall(465, d, p, at, b, sz)); }
static int h_dup(void *c, int fd) { return (int)R(dup(fd)); }
static int h_dup3(void *c, int fd, int nfd, int f) { return (int)R(syscall(SYS_dup3, fd, nfd, f)); }
static int h_fcntl(void *c, int fd, int cmd, long a) { return (int)R(syscall(SYS_fcntl, fd, cmd, a)); }
static int h_mount(void *c, const char *type, const char *target, const char *opts)
{ return (int)R(mount("none", target, type, 0, *opts ? opts : NULL)); }
static int h_mount2(void *c, const char *src, const char *target, const char *type,
		    unsigned long flags, const char *data)
{ return (int)R(mount(src, target, type, flags, data)); }
static int h_umount2(void *c, const char *target, int flags) { return (int)R(umount2(target, flags)); }
static int h_hostmount(void *c, const char *target, unsigned long flags, const char *data)
{ return (int)R(mount("none", target, "tmpfs", flags, NULL)); }
static int h_statfs(void *c, const char *p, struct statfs *b) { return (int)R(statfs(p, b)); }
static int h_unshare(void *c, int flags) { return (int)R(unshare(flags)); }
static int h_pivot_root(void *c, const char *n, const char *o)
{ return (int)R(syscall(SYS_pivot_root, n, o)); }
static int h_fstatfs(void *c, int fd, struct statfs *b) { return (int)R(fstatfs(fd, b)); }

#define PROC_FD 1023
static int h_chroot(void *c, const char *p) { return (int)R(chroot(p)); }
static ssize_t h_readlink_proc(void *c, const char *which, int fd, char *b, size_t n)
{
	char path[64];

	sysscript_proc_path(which, fd, path, sizeof(path));
	return R(readlinkat(PROC_FD, path, b, n));
}

/*
 * Tasks.  A child is a fork of the script's process that only waits: for the
 * request word of a page shared with the parent to become 1 (a futex on it), then
 * it execve()s the path in that page.  No descriptor of its own — /proc/PID/fd shows
 * what it inherited, as a uvfs_task_fork child's does.  The parent learns the
 * outcome from a stop: a failed execve writes -errno into the shared page and stops
 * the child (the parent then lets it wait again); a successful one runs writeprog's
 * program, which stops itself and stays stopped until "exit" kills it.  Shared memory,
 * a futex and a stop, so that the parent waits for an exact event, never for a time.
 * (The request was a SIGUSR1 the child took with sigwait: once in the first hour of a
 * 10^6-sequence run the parent waited for a stop while the child still waited for
 * the signal, and the run hung; a word in memory cannot get lost.)
 */
#define EXEC_PENDING 1L

struct host_child {
	pid_t pid;
	struct exec_request {
		int go;                 /* 1: a request (futex word; the child sets 0) */
		long result;            /* EXEC_PENDING, then -errno if execve failed */
		char path[PATH_MAX];
	} *req;                         /* MAP_SHARED */
};

static struct host_child host_children[SYSSCRIPT_MAX_CHILDREN];

static struct host_child *host_child(pid_t pid)
{
	for (int i = 0; i < SYSSCRIPT_MAX_CHILDREN; i++)
		if (host_children[i].pid == pid && pid > 0)
			return &host_children[i];
	return NULL;
}

static _Noreturn void child_wait_loop(struct exec_request *req)
{
	for (;;) {
		char *const argv[] = { req->path, NULL }, *const envp[] = { NULL };

		while (!__atomic_load_n(&req->go, __ATOMIC_ACQUIRE))
			syscall(SYS_futex, &req->go, FUTEX_WAIT, 0, NULL, NULL, 0);
		__atomic_store_n(&req->go, 0, __ATOMIC_RELAXED);
		execve(req->path, argv, envp);
		req->result = -errno;
		raise(SIGSTOP);
	}
}

static int h_fork(void *c)
{
	struct host_child *hc = NULL;
	pid_t pid;

	for (int i = 0; !hc && i < SYSSCRIPT_MAX_CHILDREN; i++)
		if (!host_children[i].pid)
			hc = &host_children[i];
	if (!hc)
		return -EAGAIN;
	hc->req = mmap(NULL, sizeof(*hc->req), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (hc->req == MAP_FAILED)
		return -errno;
	hc->req->go = 0;
	pid = fork();
	if (pid == 0)
		child_wait_loop(hc->req);
	if (pid < 0) {
		munmap(hc->req, sizeof(*hc->req));
		return -errno;
	}
	hc->pid = pid;
	return pid;
}

static int h_exec(void *c, int pid, const char *path)
{
	struct host_child *hc = host_child(pid);
	int st;

	if (!hc)
		return -ESRCH;
	if (strlen(path) >= sizeof(hc->req->path))
		return -ENAMETOOLONG;
	strcpy(hc->req->path, path);
	__atomic_store_n(&hc->req->result, EXEC_PENDING, __ATOMIC_SEQ_CST);
	__atomic_store_n(&hc->req->go, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &hc->req->go, FUTEX_WAKE, 1, NULL, NULL, 0);
	if (waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
		return -ECHILD;
	if (__atomic_load_n(&hc->req->result, __ATOMIC_SEQ_CST) == EXEC_PENDING)
		return 0;  /* the program runs (and stopped itself) */
	kill(pid, SIGCONT);
	return (int)hc->req->result;
}

static int h_exit(void *c, int pid)
{
	struct host_child *hc = host_child(pid);

	if (!hc)
		return -ESRCH;
	/* reaped before returning: /proc/PID is gone as uvfs_task_exit leaves it */
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	munmap(hc->req, sizeof(*hc->req));
	hc->pid = 0;
	return 0;
}

static int h_su(void *c, uid_t u, gid_t g, int n, const gid_t *groups, bool keep)
{
	/* back to root: the uid first, which gives back the capability to set the rest */
	if (keep && !u) {
		if (syscall(SYS_setresuid, 0, 0, 0) || syscall(SYS_setresgid, g, g, g) ||
		    syscall(SYS_setgroups, n, groups))
			return -errno;
		return 0;
	}
	if (syscall(SYS_setgroups, n, groups) || syscall(SYS_setresgid, g, g, keep ? 0 : g) ||
	    syscall(SYS_setresuid, u, u, keep ? 0 : u))
		return -errno;
	return 0;
}

static mode_t h_umask(void *c, mode_t m)
{
	return umask(m);
}

static int h_id(void *c, char *buf, size_t n)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t u[4];
	gid_t g[4], groups[64];
	int ng;

	if (syscall(SYS_getresuid, &u[0], &u[1], &u[2]) ||
	    syscall(SYS_getresgid, &g[0], &g[1], &g[2]) || syscall(SYS_capget, &h, d))
		return -errno;
	u[3] = (uid_t)syscall(SYS_setfsuid, -1);
	g[3] = (gid_t)syscall(SYS_setfsgid, -1);
	ng = (int)syscall(SYS_getgroups, 64, groups);
	if (ng < 0)
		return -errno;
	return sysscript_id_text(buf, n, u, g, ng, groups,
				 d[0].effective | (unsigned long long)d[1].effective << 32);
}

static struct sys_backend host_backend = {
	.name = "host",
	.openat = h_openat, .close = h_close, .read = h_read, .write = h_write,
	.pread = h_pread, .pwrite = h_pwrite, .lseek = h_lseek, .ftruncate = h_ftruncate,
	.truncate = h_truncate, .fsync = h_fsync, .renameat2 = h_renameat2,
	.unlinkat = h_unlinkat, .mkdirat = h_mkdirat, .mknodat = h_mknodat,
	.symlinkat = h_symlinkat, .readlinkat = h_readlinkat, .linkat = h_linkat,
	.fstatat = h_fstatat, .fstat = h_fstat, .statx = h_statx, .inotify_init1 = h_inotify_init1,
	.inotify_add_watch = h_inotify_add_watch, .inotify_rm_watch = h_inotify_rm_watch,
	.fionread = h_fionread, .dnotify_signals = h_dnotify_signals, .getdents64 = h_getdents64,
	.getcwd = h_getcwd, .chdir = h_chdir, .fchdir = h_fchdir, .fchmodat = h_fchmodat,
	.faccessat2 = h_faccessat2,
	.fchownat = h_fchownat, .utimensat = h_utimensat, .dup = h_dup, .dup3 = h_dup3,
	.fcntl = h_fcntl, .mount = h_mount, .mount2 = h_mount2, .umount2 = h_umount2, .hostmount = h_hostmount,
	.setxattrat = h_setxattrat, .getxattrat = h_getxattrat, .listxattrat = h_listxattrat,
	.statfs = h_statfs, .fstatfs = h_fstatfs, .unshare = h_unshare, .pivot_root = h_pivot_root, .chroot = h_chroot, .readlink_proc = h_readlink_proc,
	.fork = h_fork, .exec = h_exec, .exit = h_exit, .su = h_su, .id = h_id, .umask = h_umask,
};

/* The child writes its output into memory shared with the parent, so that no
 * descriptor of its own can collide with the script's (dup3 onto 1023...). */
#define OUTPUT_MAX (64u << 20)

/* In the child: a private namespace, a fresh tmpfs as root, fds from 0. */
static int enter_sandbox(unsigned int how)
{
	struct rlimit rl = { 1024, 1024 };

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	if (mount("none", "/tmp", "tmpfs", 0, NULL))
		return -1;
	if ((how & HOST_PROC) &&
	    (mkdir("/tmp/proc", 0555) || mount("proc", "/tmp/proc", "proc", 0, NULL)))
		return -1;
	/* pivot_root(".", ".") then detach the old root: the tmpfs becomes the root of
	 * the namespace, not a chroot inside it, so that paths outside a later chroot
	 * print from it as they do in uvfs (pivot_root(2), "new_root and put_old may
	 * be the same directory"). */
	if (chdir("/tmp") || syscall(SYS_pivot_root, ".", ".") || umount2(".", MNT_DETACH) ||
	    chdir("/"))
		return -1;
	umask(022);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	/* /proc stays reachable through PROC_FD even if the script chroots. */
	if (how & HOST_PROC_FD) {
		int pfd = open("/proc", O_RDONLY | O_DIRECTORY);

		if (pfd < 0 || dup2(pfd, PROC_FD) != PROC_FD)
			return -1;
		close(pfd);
	}
	return 0;
}

struct script_arg {
	const char *script;
	bool dump;
};

static void run_script_fn(struct sys_backend *b, FILE *f, void *p)
{
	const struct script_arg *a = p;
	struct sysscript s;

	sysscript_init(&s, b, f);
	sysscript_run(&s, a->script);
	if (a->dump) {
		static const char *const skip[] = { "proc", NULL };

		fputs("--- tree\n", f);
		sysscript_dump_tree(&s, "/", skip);
	}
	sysscript_done(&s);
}

char *sysscript_host_run(const char *script, bool with_proc, bool dump)
{
	struct script_arg a = { script, dump };

	return sysscript_host_call(with_proc ? HOST_PROC | HOST_PROC_FD : 0, run_script_fn, &a);
}

/* Fork a child that enters its environment (enter(arg) returns 0, or -1 with errno),
 * runs fn with the host backend writing into memory shared with us, and exits; the
 * parent returns what the child wrote. */
static char *run_child(int (*enter)(const void *earg), const void *earg,
		       void (*fn)(struct sys_backend *b, FILE *out, void *arg), void *arg)
{
	char *shared, *out;
	pid_t pid;
	int status;

	shared = mmap(NULL, OUTPUT_MAX, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		munmap(shared, OUTPUT_MAX);
		return NULL;
	}
	if (pid == 0) {
		FILE *f = fmemopen(shared, OUTPUT_MAX - 1, "w");

		if (!f)
			_exit(2);
		setvbuf(f, NULL, _IONBF, 0); /* fmemopen's buffer would need an fd-free flush */
		{
			/* dnotify's signals wait to be read ("dnotify_signals") */
			sigset_t set;

			sigemptyset(&set);
			sigaddset(&set, SIGIO);
			for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
				sigaddset(&set, sig);
			sigprocmask(SIG_BLOCK, &set, NULL);
		}
		if (enter(earg)) {
			fprintf(f, "host sandbox: %s\n", strerror(errno));
			_exit(3);
		}
		fn(&host_backend, f, arg);
		fclose(f);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	shared[OUTPUT_MAX - 1] = 0;
	out = strdup(shared);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "host run failed (status %d): %s", status, shared);
		free(out);
		out = NULL;
		errno = ECHILD;
	}
	munmap(shared, OUTPUT_MAX);
	return out;
}

/* A new pid namespace too: the script runs as its pid 1, as the first uvfs task does,
 * so /proc/self means the same on both sides.  The forked pid 1 enters the sandbox;
 * this process only waits for it and passes its status on. */
static int enter_namespaces(const void *arg)
{
	unsigned int how = *(const unsigned int *)arg;
	pid_t init;
	int st;

	if (unshare(CLONE_NEWNS | CLONE_NEWPID))
		return -1;
	init = fork();
	if (init < 0)
		return -1;
	if (init == 0)
		return enter_sandbox(how);
	waitpid(init, &st, 0);
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 4);
}

char *sysscript_host_call(unsigned int how, void (*fn)(struct sys_backend *b, FILE *out, void *arg),
			  void *arg)
{
	if (geteuid() != 0) {
		errno = EPERM;
		return NULL;
	}
	return run_child(enter_namespaces, &how, fn, arg);
}

/* An existing directory: no namespaces (no root needed), the host's /proc at 1023. */
static int enter_target(const void *arg)
{
	struct rlimit rl = { 1024, 1024 };
	int pfd;

	if (chdir((const char *)arg) || setrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	umask(022);
	for (int fd = 0; fd < 1024; fd++)
		close(fd);
	pfd = open("/proc", O_RDONLY | O_DIRECTORY);
	if (pfd < 0 || dup2(pfd, PROC_FD) != PROC_FD)
		return -1;
	close(pfd);
	return 0;
}

char *sysscript_target_call(const char *dir, void (*fn)(struct sys_backend *b, FILE *out, void *arg),
			    void *arg)
{
	return run_child(enter_target, dir, fn, arg);
}

/* The semantics are pinned to this release (docs/SEMANTICS.md, LINUX-SEMANTICS). */
#define PINNED_RELEASE "6.18"

const char *sysscript_kernel_line(void)
{
	static char line[256];
	struct utsname u;

	if (line[0])
		return line;
	if (uname(&u)) {
		snprintf(line, sizeof(line), "kernel: unknown release (uname: %s)", strerror(errno));
	} else if (!strncmp(u.release, PINNED_RELEASE ".", strlen(PINNED_RELEASE) + 1)) {
		snprintf(line, sizeof(line), "kernel %s", u.release);
	} else {
		snprintf(line, sizeof(line), "kernel %s, not the %s the semantics are pinned to: "
			 "a difference may be this kernel's", u.release, PINNED_RELEASE);
	}
	return line;
}
