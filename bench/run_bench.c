// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * run_bench.c - the workloads of bench/uvfs-run-bench that need C.  Every mode
 * times itself (clock_gettime around its loop, or around a child's fork, exec and
 * wait) and prints one line "@@ LABEL VALUE" on standard error, so that the time of
 * whatever started it -- uvfs-run's namespace and instance, unshare, strace -- is
 * not in the number.  It is a host binary: under uvfs-run it runs from the host's
 * read-only root, and whatever it writes goes to /tmp (uvfs's memfs).
 *
 *   run_bench fstatat PATH N        mkdir -p PATH, then N fstatat(AT_FDCWD, PATH):
 *                                   "@@ fstatat NS_PER_CALL"
 *   run_bench notify PATH N [sync]  the same loop in a child whose newfstatat goes by
 *                                   SECCOMP_RET_USER_NOTIF to this process, a bare
 *                                   supervisor (RECV, process_vm_readv of the path,
 *                                   ID_VALID, fstatat, process_vm_writev, SEND);
 *                                   "sync": the listener set to
 *                                   SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux 6.6)
 *   run_bench ptrace PATH N         the same by SECCOMP_RET_TRACE to a bare tracer
 *                                   (waitpid, GETREGS, process_vm_readv, fstatat,
 *                                   process_vm_writev, SETREGS, PTRACE_CONT) -- the
 *                                   round trip uvfs-run's fstatat takes, without uvfs
 *   run_bench close FIRST LAST [FD] close(fd) for every fd in [FIRST, LAST], as a
 *                                   daemon closes what it inherited:
 *                                   "@@ close NS_PER_CLOSE"; with FD, first a file of
 *                                   /tmp dup2'ed to FD and closed (under uvfs-run: a
 *                                   uvfs descriptor has had FD's number, so its
 *                                   group is watched from then on):
 *                                   "@@ close-after-fd NS_PER_CLOSE"
 *   run_bench piperead FD N         N one-byte reads of a host pipe on descriptor FD
 *                                   (N bytes written first): "@@ piperead-FD
 *                                   NS_PER_READ" -- under uvfs-run, on 3 a stop each
 *                                   (the loader's opens made 3 watched), on 40 none
 *   run_bench time LABEL [-o FILE] -- CMD ARGS...
 *                                   fork, exec CMD (stdout to FILE), wait:
 *                                   "@@ LABEL NS"; fails if CMD does
 *   run_bench until LABEL FIFO -- CMD ARGS...
 *                                   makes the fifo FIFO, then forks, execs CMD and
 *                                   waits for it, as time does; then reads the
 *                                   CLOCK_MONOTONIC stamp a "stamp FIFO" started by
 *                                   CMD writes there: "@@ LABEL NS" from the fork to
 *                                   that stamp (start-stop-daemon --background: the
 *                                   daemon's main(), its exec and loader done)
 *   run_bench stamp FIFO            writes CLOCK_MONOTONIC's time in ns to FIFO, taken
 *                                   first thing (the bench runs a copy of itself as
 *                                   the daemon: start-stop-daemon --exec must find
 *                                   no process of that file running -- this one)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.6; Debian 12's headers are 6.1's */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

#define WARMUP 1000
/* the child's last call: the supervisor answers it and stops */
#define STOP_PATH "/\001stop"

static void die(const char *what)
{
	fprintf(stderr, "run_bench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*end || n < 0) {
		fprintf(stderr, "run_bench: not a count: %s\n", s);
		exit(2);
	}
	return n;
}

/* mkdir -p */
static void make_path(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;

			*p = 0;
			if (mkdir(buf, 0755) && errno != EEXIST)
				die(buf);
			*p = c;
			if (!c)
				break;
		}
	}
}

/* The loop every fstatat mode times: the raw call, as glibc's fstatat makes it */
static double stat_loop(const char *path, long n)
{
	struct stat st;
	uint64_t t0;

	for (long i = 0; i < WARMUP; i++)
		if (syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0))
			return -1;
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0))
			return -1;
	return n ? (double)(now_ns() - t0) / (double)n : 0;
}

static int mode_fstatat(const char *path, long n)
{
	double ns;

	make_path(path);
	ns = stat_loop(path, n);
	if (ns < 0)
		die(path);
	fprintf(stderr, "@@ fstatat %.1f\n", ns);
	return 0;
}

/* A NUL-terminated string of another process, page by page (a path may end just
 * before an unmapped page) */
static int read_path(pid_t pid, unsigned long addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		struct iovec local, remote;
		ssize_t r;

		if (chunk > size - got)
			chunk = size - got;
		local = (struct iovec){ buf + got, chunk };
		remote = (struct iovec){ (void *)(addr + got), chunk };
		r = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (r <= 0)
			return -EFAULT;
		if (memchr(buf + got, 0, (size_t)r))
			return 0;
		got += (size_t)r;
	}
	return -ENAMETOOLONG;
}

static int write_mem(pid_t pid, unsigned long addr, const void *p, size_t len)
{
	struct iovec local = { (void *)p, len }, remote = { (void *)addr, len };

	return process_vm_writev(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

/* The supervisor's answer to one fstatat: 0 or -errno, the stat written back */
static long answer_stat(pid_t pid, int dirfd, unsigned long pathp, unsigned long stp,
			int flags, char *path, size_t size, int *stop)
{
	struct stat st;
	int err;

	if ((err = read_path(pid, pathp, path, size)))
		return err;
	if (!strcmp(path, STOP_PATH)) {
		*stop = 1;
		return 0;
	}
	if (dirfd != AT_FDCWD)
		return -EBADF;  /* the bench's child names no descriptor */
	if (fstatat(AT_FDCWD, path, &st, flags))
		return -errno;
	return write_mem(pid, stp, &st, sizeof(st));
}

static int send_fd(int sock, int fd)
{
	char c = 'l', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&m);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&m);
	if (!cm || cm->cmsg_type != SCM_RIGHTS || cm->cmsg_len != CMSG_LEN(sizeof(int)))
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The child of the notify and ptrace modes: the filter, then the loop; its result
 * goes back on the socket (no stdio after the filter: glibc's fstat is a
 * newfstatat) */
static void child_loop(int sock, const char *path, long n, uint32_t action)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	double ns;
	int fd;

	if (!ctx || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    seccomp_rule_add(ctx, action, SCMP_SYS(newfstatat), 0) || seccomp_load(ctx))
		_exit(3);
	if (action == SCMP_ACT_NOTIFY) {
		fd = seccomp_notify_fd(ctx);
		if (fd < 0 || send_fd(sock, fd))
			_exit(3);
		close(fd);
	}
	ns = stat_loop(path, n);
	syscall(SYS_newfstatat, AT_FDCWD, STOP_PATH, NULL, 0);
	if (write(sock, &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
		_exit(3);
	_exit(ns < 0 ? 4 : 0);
}

static int child_result(int sock, pid_t child, const char *label)
{
	double ns;
	int ws;

	if (read(sock, &ns, sizeof(ns)) != (ssize_t)sizeof(ns) || waitpid(child, &ws, 0) != child ||
	    !WIFEXITED(ws) || WEXITSTATUS(ws)) {
		fprintf(stderr, "run_bench: %s: the child failed\n", label);
		return 1;
	}
	fprintf(stderr, "@@ %s %.1f\n", label, ns);
	return 0;
}

static int mode_notify(const char *path, long n, int sync)
{
	static char pathbuf[PATH_MAX];
	int sv[2], listener, stop = 0;
	pid_t child;

	make_path(path);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		close(sv[0]);
		child_loop(sv[1], path, n, SCMP_ACT_NOTIFY);
	}
	close(sv[1]);
	listener = recv_fd(sv[0]);
	if (listener < 0) {
		fprintf(stderr, "run_bench: notify: no listener (seccomp user notification)\n");
		return 2;
	}
	if (sync && ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			  (unsigned long long)SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP)) {
		/* Linux before 6.6: say so, and let the child finish unsynchronised */
		fprintf(stderr, "@@ notify-sync unavailable (%s)\n", strerror(errno));
		sync = -1;
	}
	while (!stop) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		long ret;

		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req)) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			die("SECCOMP_IOCTL_NOTIF_RECV");
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		ret = answer_stat(req.pid, (int)req.data.args[0], req.data.args[1],
				  req.data.args[2], (int)req.data.args[3], pathbuf,
				  sizeof(pathbuf), &stop);
		/* the path was read from a process that may have been replaced since */
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id))
			continue;
		if (ret < 0)
			resp.error = (int)ret;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) && errno != ENOENT)
			die("SECCOMP_IOCTL_NOTIF_SEND");
	}
	close(listener);
	return child_result(sv[0], child, sync > 0 ? "notify-sync" : "notify");
}

static int mode_ptrace(const char *path, long n)
{
	static char pathbuf[PATH_MAX];
	int sv[2], ws, stop = 0;
	pid_t child;

	make_path(path);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		close(sv[0]);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) || raise(SIGSTOP))
			_exit(3);
		child_loop(sv[1], path, n, SCMP_ACT_TRACE(0));
	}
	close(sv[1]);
	if (waitpid(child, &ws, 0) != child || !WIFSTOPPED(ws) ||
	    ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL) ||
	    ptrace(PTRACE_CONT, child, 0, 0))
		die("ptrace");
	for (;;) {
		struct user_regs_struct r;
		long ret;

		if (waitpid(child, &ws, 0) != child)
			die("waitpid");
		if (WIFEXITED(ws) || WIFSIGNALED(ws))
			break;
		if (ws >> 8 != (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			/* a signal: delivered */
			int sig = WSTOPSIG(ws);

			ptrace(PTRACE_CONT, child, 0, sig == SIGTRAP ? 0 : sig);
			continue;
		}
		if (ptrace(PTRACE_GETREGS, child, 0, &r))
			die("PTRACE_GETREGS");
		ret = answer_stat(child, (int)r.rdi, r.rsi, r.rdx, (int)r.r10, pathbuf,
				  sizeof(pathbuf), &stop);
		r.orig_rax = (unsigned long long)-1;  /* skipped: rax is the result */
		r.rax = (unsigned long long)ret;
		if (ptrace(PTRACE_SETREGS, child, 0, &r) || ptrace(PTRACE_CONT, child, 0, 0))
			die("PTRACE_SETREGS");
		if (stop) {
			ptrace(PTRACE_DETACH, child, 0, 0);
			break;
		}
	}
	return child_result(sv[0], child, "ptrace");
}

static int mode_close(long first, long last, long fd)
{
	uint64_t t0;

	if (fd >= 0) {
		int f = open("/tmp/run_bench.close", O_RDWR | O_CREAT | O_CLOEXEC, 0644);

		if (f < 0 || dup2(f, (int)fd) < 0)
			die("/tmp/run_bench.close");
		close(f);
		close((int)fd);
		unlink("/tmp/run_bench.close");
	}
	t0 = now_ns();
	for (long i = first; i <= last; i++)
		close((int)i);
	fprintf(stderr, "@@ %s %.1f\n", fd >= 0 ? "close-after-fd" : "close",
		last >= first ? (double)(now_ns() - t0) / (double)(last - first + 1) : 0);
	return 0;
}

/*
 * Reads of a host pipe, a byte each, on descriptor number fd: what a kernel
 * descriptor on a number uvfs-run watches costs (a ptrace stop each: bash reads
 * $(...)'s pipe on 3, which every dynamically linked program's loader made
 * watched) against one no uvfs descriptor had.  n bytes written first (at most a
 * pipe's 65,536), so no read waits.
 */
static int mode_piperead(long fd, long n)
{
	static char buf[65536];
	uint64_t t0;
	int p[2];

	if (fd < 3 || fd > 1000 || n < 1 || n > (long)sizeof(buf)) {
		/* (not 0-2: the result goes to 2) */
		fprintf(stderr, "run_bench: piperead FD N: FD 3-1000, N 1-%zu\n", sizeof(buf));
		return 2;
	}
	if (pipe(p) || write(p[1], buf, (size_t)n) != n)
		die("pipe");
	if (p[0] != fd && (dup2(p[0], (int)fd) < 0 || close(p[0])))
		die("dup2");
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		if (read((int)fd, buf, 1) != 1)
			die("read");
	fprintf(stderr, "@@ piperead-%ld %.1f\n", fd, (double)(now_ns() - t0) / (double)n);
	return 0;
}

/* fork, exec argv (a NULL-terminated CMD ARGS...), wait: 0 when it exited 0 */
static int run_wait(const char *label, char **argv, const char *out)
{
	pid_t pid = fork();
	int ws;

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				die(out);
			close(fd);
		}
		execvp(argv[0], argv);
		die(argv[0]);
	}
	if (waitpid(pid, &ws, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
		fprintf(stderr, "run_bench: %s: %s failed (status %#x)\n", label, argv[0], ws);
		return 1;
	}
	return 0;
}

static int mode_time(int argc, char **argv)
{
	const char *label = argv[0], *out = NULL;
	uint64_t t0;
	int i = 1;

	if (i + 1 < argc && !strcmp(argv[i], "-o")) {
		out = argv[i + 1];
		i += 2;
	}
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc) {
		fprintf(stderr, "usage: run_bench time LABEL [-o FILE] -- CMD ARGS...\n");
		return 2;
	}
	t0 = now_ns();
	if (run_wait(label, argv + i + 1, out))
		return 1;
	fprintf(stderr, "@@ %s %llu\n", label, (unsigned long long)(now_ns() - t0));
	return 0;
}

static const char *until_fifo;

/* no stamp in time: a daemon that never started leaves no writer to wait for */
static void until_timeout(int sig)
{
	static const char msg[] = "run_bench: until: no stamp in 20 s\n";

	(void)sig;
	(void)!write(2, msg, sizeof(msg) - 1);
	unlink(until_fifo);
	_exit(1);
}

static int mode_until(int argc, char **argv)
{
	const char *label = argv[0], *fifo = argv[1];
	char buf[32];
	uint64_t t0;
	ssize_t n;
	int fd;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: run_bench until LABEL FIFO -- CMD ARGS...\n");
		return 2;
	}
	(void)unlink(fifo);
	if (mkfifo(fifo, 0600))
		die(fifo);
	until_fifo = fifo;
	t0 = now_ns();
	if (run_wait(label, argv + 3, NULL)) {
		unlink(fifo);
		return 1;
	}
	signal(SIGALRM, until_timeout);
	alarm(20);
	fd = open(fifo, O_RDONLY);
	if (fd < 0)
		die(fifo);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	unlink(fifo);
	if (n <= 0) {
		fprintf(stderr, "run_bench: %s: no stamp in %s\n", label, fifo);
		return 1;
	}
	buf[n] = 0;
	fprintf(stderr, "@@ %s %llu\n", label, strtoull(buf, NULL, 10) - (unsigned long long)t0);
	return 0;
}

static int mode_stamp(uint64_t t, const char *fifo)
{
	int fd = open(fifo, O_WRONLY);

	if (fd < 0)
		die(fifo);
	dprintf(fd, "%llu\n", (unsigned long long)t);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const uint64_t start = now_ns();
	const char *m = argc > 1 ? argv[1] : "";

	if (!strcmp(m, "stamp") && argc == 3)
		return mode_stamp(start, argv[2]);
	if (!strcmp(m, "until") && argc > 5)
		return mode_until(argc - 2, argv + 2);

	if (!strcmp(m, "fstatat") && argc == 4)
		return mode_fstatat(argv[2], count(argv[3]));
	if (!strcmp(m, "notify") && (argc == 4 || (argc == 5 && !strcmp(argv[4], "sync"))))
		return mode_notify(argv[2], count(argv[3]), argc == 5);
	if (!strcmp(m, "ptrace") && argc == 4)
		return mode_ptrace(argv[2], count(argv[3]));
	if (!strcmp(m, "close") && (argc == 4 || argc == 5))
		return mode_close(count(argv[2]), count(argv[3]), argc == 5 ? count(argv[4]) : -1);
	if (!strcmp(m, "piperead") && argc == 4)
		return mode_piperead(count(argv[2]), count(argv[3]));
	if (!strcmp(m, "time") && argc > 2)
		return mode_time(argc - 2, argv + 2);
	fprintf(stderr, "usage: run_bench fstatat PATH N | notify PATH N [sync] | ptrace PATH N |\n"
		"       close FIRST LAST [FD] | piperead FD N | time LABEL [-o FILE] -- CMD ARGS... |\n"
		"       until LABEL FIFO -- CMD ARGS... | stamp FIFO\n");
	return 2;
}
