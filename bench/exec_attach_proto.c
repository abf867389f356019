// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec_attach_proto.c [N] - the prototype behind docs/ARCHITECTURE.md's "An exec
 * without a permanent tracer": can a supervisor take a process through an exec of
 * its own making while it is the process's tracer only for that exec, so that the
 * program may trace its own children (strace, gdb, gVisor's
 * ProcPidMem.DifferentUserAttached) the rest of the time?
 *
 * A child's execve goes by user notification (SECCOMP_RET_USER_NOTIF, the listener
 * with SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV as uvfs-run's).  The supervisor, holding
 * the notification, attaches (PTRACE_SEIZE, PTRACE_O_TRACEEXEC), asks for a stop
 * (PTRACE_INTERRUPT) and answers the notification -ERESTARTNOINTR: the call returns,
 * the child stops before user mode (PTRACE_EVENT_STOP) with its registers as a
 * syscall to be made again -- rax -ERESTARTNOINTR, orig_rax the execve, rip after its
 * syscall instruction -- which is where uvfs-run's tracer today rewrites an execve
 * into its own calls.  Here the kernel's restart is let happen; the execve comes
 * again by notification, is let go on (SECCOMP_USER_NOTIF_FLAG_CONTINUE), and at
 * PTRACE_EVENT_EXEC the supervisor detaches.  Then another process attaches to the
 * child, now running sleep (PTRACE_ATTACH), which a permanent tracer would have made
 * EPERM.
 *
 * Prints, per round, the time from the notification's receipt to the stop, and to
 * the detach; exits 1 if any step is not as said.  N rounds (default 20); root not
 * needed (the parent traces its own child).
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#define ERESTARTNOINTR 513  /* include/linux/errno.h: the kernel's, never a program's */

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int fail(const char *what)
{
	fprintf(stderr, "exec_attach_proto: %s: %s\n", what, strerror(errno));
	return 1;
}

/* the child: its execve by notification, the listener sent up the pipe */
static void child(int wfd)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	char *argv[] = { "sleep", "10", NULL }, *envp[] = { NULL };
	int l;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(10);
	l = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			 SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
			 &prog);
	if (l < 0 || write(wfd, &l, sizeof(l)) != sizeof(l))
		_exit(11);
	execve("/bin/sleep", argv, envp);
	_exit(12);
}

/* another tracer's attach to pid, from a process of its own: 0 or the errno */
static int attach_from_another(pid_t pid)
{
	pid_t g = fork();
	int ws;

	if (g < 0)
		return errno;
	if (g == 0) {
		if (ptrace(PTRACE_ATTACH, pid, 0, 0))
			_exit(errno);
		if (waitpid(pid, &ws, __WALL) != pid || ptrace(PTRACE_DETACH, pid, 0, 0))
			_exit(100);
		_exit(0);
	}
	if (waitpid(g, &ws, 0) != g || !WIFEXITED(ws))
		return -1;
	return WEXITSTATUS(ws);
}

static int round_trip(double *to_stop, double *to_detach)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct user_regs_struct r;
	int p[2], l, lf, pfd, ws, err;
	pid_t c;
	double t0;

	if (pipe(p))
		return fail("pipe");
	c = fork();
	if (c < 0)
		return fail("fork");
	if (c == 0)
		child(p[1]);
	if (read(p[0], &l, sizeof(l)) != sizeof(l))
		return fail("the child's listener");
	close(p[0]);
	close(p[1]);
	pfd = (int)syscall(SYS_pidfd_open, c, 0);
	lf = pfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pfd, l, 0);
	if (lf < 0)
		return fail("pidfd_getfd");
	memset(&req, 0, sizeof(req));
	if (ioctl(lf, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return fail("NOTIF_RECV");
	t0 = now_us();
	if (ptrace(PTRACE_SEIZE, c, 0, PTRACE_O_TRACEEXEC) || ptrace(PTRACE_INTERRUPT, c, 0, 0))
		return fail("PTRACE_SEIZE");
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.error = -ERESTARTNOINTR;
	if (ioctl(lf, SECCOMP_IOCTL_NOTIF_SEND, &resp))
		return fail("NOTIF_SEND");
	if (waitpid(c, &ws, __WALL) != c || ptrace(PTRACE_GETREGS, c, 0, &r))
		return fail("the stop");
	*to_stop = now_us() - t0;
	if (!WIFSTOPPED(ws) || ws >> 16 != PTRACE_EVENT_STOP || (long long)r.rax != -ERESTARTNOINTR ||
	    r.orig_rax != SYS_execve || r.rip != req.data.instruction_pointer) {
		fprintf(stderr, "exec_attach_proto: stop %#x, rax %lld, orig_rax %lld, rip %#llx "
			"(the call's %#llx)\n", ws, (long long)r.rax, (long long)r.orig_rax,
			r.rip, (unsigned long long)req.data.instruction_pointer);
		return 1;
	}
	/* the restart, as the kernel makes it: the execve once more */
	if (ptrace(PTRACE_CONT, c, 0, 0))
		return fail("PTRACE_CONT");
	memset(&req, 0, sizeof(req));
	if (ioctl(lf, SECCOMP_IOCTL_NOTIF_RECV, &req) || req.data.nr != SYS_execve)
		return fail("the execve again");
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	if (ioctl(lf, SECCOMP_IOCTL_NOTIF_SEND, &resp))
		return fail("NOTIF_SEND (continue)");
	if (waitpid(c, &ws, __WALL) != c || ws >> 16 != PTRACE_EVENT_EXEC)
		return fail("PTRACE_EVENT_EXEC");
	/* stopped at the exec: detached, it is another's to trace (sleep gives the
	 * other the time; the signal of a detach at an event stop is ignored) */
	if (ptrace(PTRACE_DETACH, c, 0, 0))
		return fail("PTRACE_DETACH");
	*to_detach = now_us() - t0;
	err = attach_from_another(c);
	if (err) {
		fprintf(stderr, "exec_attach_proto: another tracer's PTRACE_ATTACH: %s\n",
			err > 0 ? strerror(err) : "failed");
		return 1;
	}
	kill(c, SIGKILL);
	if (waitpid(c, &ws, 0) != c || !WIFSIGNALED(ws))
		return fail("the child's end");
	close(lf);
	close(pfd);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	double *stop, *detach;

	if (n < 1 || !(stop = calloc((size_t)n, sizeof(*stop))) ||
	    !(detach = calloc((size_t)n, sizeof(*detach))))
		return 2;
	for (int i = 0; i < n; i++)
		if (round_trip(&stop[i], &detach[i]))
			return 1;
	qsort(stop, (size_t)n, sizeof(*stop), cmp);
	qsort(detach, (size_t)n, sizeof(*detach), cmp);
	printf("%d execs by a tracer attached for them: notification to PTRACE_EVENT_STOP "
	       "%.1f / %.1f us, to the detach after PTRACE_EVENT_EXEC %.1f / %.1f us (min / "
	       "median); each child then attached by another tracer\n",
	       n, stop[0], stop[n / 2], detach[0], detach[n / 2]);
	return 0;
}
