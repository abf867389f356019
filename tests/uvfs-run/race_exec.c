// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * race_exec.c SECONDS PROGRAM HIDDEN - an attack on a supervisor that gives the
 * kernel a name to read from the program's memory at an exec: for SECONDS, a process
 * is forked again and again, and in it one thread runs PROGRAM by execve() on a stack
 * of its own while another fills the memory below that stack's pointer (below the
 * red zone) with "/////.../HIDDEN" -- a host file the program's namespace does not
 * show.  Wherever a supervisor wrote a name for the kernel there, the kernel may
 * read HIDDEN instead and run it.  uvfs-run must never let the program run anything
 * but PROGRAM: both get the argument "ESCAPED", which HIDDEN (a copy of echo) prints
 * and PROGRAM (true) does not.
 *
 * Every other child is a control: it execs PROGRAM the same way with no sprayer.
 * Whether a raced exec wins is a matter of timing (on a loaded machine every one of
 * 1149 lost in 5 s, each killed by uvfs-run), but a quiet exec must always run, so
 * the controls show the supervisor is not simply refusing every exec.  Prints
 * "raced: execs N, other M; quiet: execs Q, other R": children that exited 0
 * (PROGRAM ran) and those that did not -- killed by uvfs-run because the kernel ran
 * another file, or failed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stack_call.h"

extern char **environ;

static const char *target;            /* the host path the sprayer writes */
static _Atomic unsigned long exec_sp;

/* The stack the exec is made on: the sprayer writes only in it (race_open.c) */
static char call_stack[16384] __attribute__((aligned(64)));

static long raw_execve(const char *path, char *const argv[], char *const envp[])
{
	return stack_call4(call_stack + sizeof(call_stack), SYS_execve, (long)path, (long)argv,
			   (long)envp, 0);
}

static void *sprayer(void *arg)
{
	(void)arg;
	for (;;) {
		unsigned long sp = atomic_load(&exec_sp);
		const char *t = target;
		size_t n = strlen(t);
		/* [sp - 2048, sp - 160): the red zone and a little more stay the caller's */
		char *lo = (char *)(sp - 2048), *end = (char *)(sp - 160);

		memset(lo, '/', (size_t)(end - lo) - n - 1);
		memcpy(end - n - 1, t, n + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long ok[2] = { 0 }, other[2] = { 0 }, n = 0;
	struct timespec a, b;
	double secs;

	if (argc != 4)
		return 2;
	secs = atof(argv[1]);
	target = argv[3] + strspn(argv[3], "/");
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		int status;
		bool raced = n++ % 2 == 0;
		pid_t pid = fork();

		if (pid < 0)
			return 2;
		if (!pid) {
			char *args[] = { argv[2], (char *)"ESCAPED", NULL };
			pthread_t t;

			atomic_store(&exec_sp, (unsigned long)(call_stack + sizeof(call_stack)));
			if (raced && pthread_create(&t, NULL, sprayer, NULL))
				_exit(3);
			raw_execve(argv[2], args, environ);
			_exit(4);
		}
		if (waitpid(pid, &status, 0) != pid)
			return 2;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok[raced]++;
		else
			other[raced]++;
		clock_gettime(CLOCK_MONOTONIC, &b);
		/* at least one of each: the first child is a raced one, and a machine busy
		 * enough could spend the whole time on it (a review's finding) */
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < secs ||
		 n < 2);
	printf("raced: execs %lu, other %lu; quiet: execs %lu, other %lu\n", ok[1], other[1],
	       ok[0], other[0]);
	return 0;
}
