// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter_cost MODE [GROUPS] - what uvfs-run's seccomp filters cost a call that none of
 * them traps but that the kernel's cache of allowed calls cannot skip: a close of a
 * number no watching filter watches (a daemon makes 20,000 of them at its start).
 *
 * MODE is the first filter: "none", or uvfs-run's own (tools/uvfs-run/filter.c, linked
 * in) as libseccomp's "chain" of one comparison a call number or the binary "tree"
 * uvfs-run installs; loaded without a listener (the closes never reach an action that
 * needs one).  Then GROUPS (default 4) watching filters, run_watch_filter()'s, for the
 * numbers 0, 1, 2, 3 -- a process whose standard descriptors and loader's number have
 * held uvfs files.  Then close(fd) for every fd in [8, 20004), none of them open, timed
 * in the thread's CPU time (the wall clock of these shared VMs drifts more than the
 * difference measured), 60 times; prints the least and the median ns a close.
 *
 * Run the modes alternately several times: bench/filter_cost none 0; ... none 4;
 * ... chain 4; ... tree 4.  No root needed (no_new_privs).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#define LOOPS 60
#define FIRST_FD 8  /* above the watched 0-3 and the results' descriptor (5) */
#define LAST_FD 20004

static long long thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int load(struct sock_filter *f, size_t n)
{
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };

	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) ? -errno : 0;
}

/* uvfs-run's first filter at libseccomp's optimize level */
static int load_first(int level)
{
	static struct sock_filter buf[BPF_MAXINSNS + 1];
	int n = run_first_filter_program(level, buf, BPF_MAXINSNS + 1);

	return n < 0 ? n : load(buf, (size_t)n);
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int groups = argc > 2 ? atoi(argv[2]) : 4, err = 0;
	long long t[LOOPS];
	/* the results through a number no watching filter watches: 1 and 2 are (their
	 * writes would be ENOSYS, SECCOMP_RET_TRACE without a tracer) */
	int out = fcntl(1, F_DUPFD_CLOEXEC, 5);  /* below FIRST_FD: not closed */

	if (argc < 2 || argc > 3 || groups < 0 || groups > 4 ||
	    (strcmp(mode, "none") && strcmp(mode, "chain") && strcmp(mode, "tree"))) {
		fprintf(stderr, "usage: filter_cost none|chain|tree [GROUPS 0-4]\n");
		return 2;
	}
	if (out < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		err = -errno;
	if (!err && strcmp(mode, "none"))
		err = load_first(strcmp(mode, "tree") ? 1 : 2);
	for (int g = 0; !err && g < groups; g++) {
		struct sock_filter w[RUN_WATCH_MAX];

		err = load(w, (size_t)run_watch_filter(g, w));
	}
	if (err) {
		dprintf(out < 0 ? 2 : out, "filter_cost: seccomp: %s\n", strerror(-err));
		return 1;
	}
	for (int i = 0; i < LOOPS; i++) {
		long long t0 = thread_ns();

		for (int fd = FIRST_FD; fd < LAST_FD; fd++)
			close(fd);
		t[i] = thread_ns() - t0;
	}
	qsort(t, LOOPS, sizeof(t[0]), cmp);
	dprintf(out, "%s %d: %.1f / %.1f ns a close (least / median of %d loops)\n", mode, groups,
	       (double)t[0] / (LAST_FD - FIRST_FD), (double)t[LOOPS / 2] / (LAST_FD - FIRST_FD),
	       LOOPS);
	return 0;
}
