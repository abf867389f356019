// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * inprocess_proto.c [N] - the prototype behind docs/PERFORMANCE.md's "Answering in
 * the program's own process": how much an fstatat costs when uvfs answers it inside
 * the calling process, trapped by seccomp (SECCOMP_RET_TRAP: SIGSYS) and answered by
 * a signal handler that calls a uvfs instance of the same process, against the
 * kernel's fstatat and uvfs's own call.  N calls of each (default 200,000) on a
 * depth-4 path, interleaved in 5 rounds; prints ns per call, min and median.
 *
 * A prototype, not a design: one process, one thread, an instance that is the
 * process's own.  What a real one needs (an instance shared by the process tree, its
 * allocator, locks and grace periods across processes, and a handler that may run
 * where the program holds malloc's lock) is in docs/PERFORMANCE.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <uvfs/uvfs.h>

#define PATH "/tmp/uvfs-proto/a/b/c/d"
#define ROUNDS 5

static struct uvfs_task *task;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* The trapped call's registers: the arguments in, the result out (x86-64) */
static void on_sigsys(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	greg_t *g = uc->uc_mcontext.gregs;
	long ret;

	(void)sig;
	if (si->si_syscall != SYS_newfstatat) {
		g[REG_RAX] = -ENOSYS;
		return;
	}
	ret = uvfs_fstatat(task, (int)g[REG_RDI], (const char *)g[REG_RSI],
			   (struct stat *)g[REG_RDX], (int)g[REG_R10]);
	g[REG_RAX] = ret;
}

static int trap_fstatat(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_newfstatat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };

	if (sigaction(SIGSYS, &sa, NULL) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	double t[3][ROUNDS];
	static const char *const what[3] = { "kernel fstatat", "uvfs_fstatat, called",
					     "fstatat trapped (SIGSYS), uvfs in the handler" };
	struct uvfs *fs = uvfs_new(NULL);
	struct stat st;

	task = fs ? uvfs_task_new(fs) : NULL;
	if (!task || uvfs_mkdirat(task, AT_FDCWD, "/tmp", 0777) ||
	    uvfs_mkdirat(task, AT_FDCWD, "/tmp/uvfs-proto", 0777) ||
	    uvfs_mkdirat(task, AT_FDCWD, "/tmp/uvfs-proto/a", 0777) ||
	    uvfs_mkdirat(task, AT_FDCWD, "/tmp/uvfs-proto/a/b", 0777) ||
	    uvfs_mkdirat(task, AT_FDCWD, "/tmp/uvfs-proto/a/b/c", 0777) ||
	    uvfs_mkdirat(task, AT_FDCWD, PATH, 0777)) {
		fprintf(stderr, "inprocess_proto: uvfs: %s\n", uvfs_last_error());
		return 2;
	}
	if (system("mkdir -p " PATH)) {
		fprintf(stderr, "inprocess_proto: mkdir -p %s failed\n", PATH);
		return 2;
	}
	/* rounds of the kernel and of uvfs called, then (the filter cannot be taken
	 * back) of the trapped call: each measured in every round */
	for (int r = 0; r < ROUNDS; r++) {
		double a = now();

		for (long i = 0; i < n; i++)
			syscall(SYS_newfstatat, AT_FDCWD, PATH, &st, 0);
		t[0][r] = (now() - a) / (double)n;
		a = now();
		for (long i = 0; i < n; i++)
			uvfs_fstatat(task, AT_FDCWD, PATH, &st, 0);
		t[1][r] = (now() - a) / (double)n;
	}
	if (trap_fstatat()) {
		perror("inprocess_proto: seccomp");
		return 2;
	}
	for (int r = 0; r < ROUNDS; r++) {
		double a = now();

		for (long i = 0; i < n; i++)
			if (syscall(SYS_newfstatat, AT_FDCWD, PATH, &st, 0) != 0) {
				fprintf(stderr, "inprocess_proto: the trapped call failed\n");
				return 2;
			}
		t[2][r] = (now() - a) / (double)n;
	}
	printf("%-48s %10s %10s %8s\n", "fstatat of a depth-4 path", "min ns", "median ns",
	       "/kernel");
	for (int k = 0; k < 3; k++)
		qsort(t[k], ROUNDS, sizeof(double), cmp);
	for (int k = 0; k < 3; k++)
		printf("%-48s %10.0f %10.0f %7.2fx\n", what[k], t[k][0], t[k][ROUNDS / 2],
		       t[k][ROUNDS / 2] / t[0][ROUNDS / 2]);
	return 0;
}
