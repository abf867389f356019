// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * race_fchmod.c FILE ROUNDS - an attack on the kernel's answers to calls on a
 * descriptor: two threads call fchmod(N, 0777) without pause while the main thread,
 * ROUNDS times, closes N, opens FILE (which lands on N, the lowest free number) and
 * closes it, then puts a pipe back on N with dup2.  Most of those fchmods meet the
 * pipe, and the kernel answers them; one that meets FILE's descriptor is uvfs's to
 * refuse, but a supervisor that decided "not a uvfs descriptor" a moment before lets
 * the kernel make it on the host file behind the descriptor.  FILE on a read-only
 * mount (uvfs-run's --ro-bind, the host's root) must keep its mode whatever wins:
 * prints "mode OOO" at the end, and how many fchmods succeeded (on the pipe).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <fcntl.h>

#define N 7

static atomic_bool stop;
static atomic_long changed;

static void *chmodder(void *arg)
{
	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		if (syscall(SYS_fchmod, N, 0777) == 0)
			atomic_fetch_add_explicit(&changed, 1, memory_order_relaxed);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	struct stat st;
	long rounds;
	int p[2];

	if (argc != 3) {
		fprintf(stderr, "usage: race_fchmod FILE ROUNDS\n");
		return 2;
	}
	rounds = atol(argv[2]);
	/* every number below N taken, so that the open lands on N */
	if (pipe(p))
		return 2;
	for (int fd = p[1]; fd < N;)
		if ((fd = dup(p[0])) < 0)
			return 2;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, chmodder, NULL))
			return 2;
	for (long i = 0; i < rounds; i++) {
		int fd;

		close(N);
		fd = open(argv[1], O_RDONLY);
		if (fd != N) {
			fprintf(stderr, "race_fchmod: the open gave %d, not %d\n", fd, N);
			return 2;
		}
		close(fd);
		dup2(p[0], N);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (stat(argv[1], &st))
		return 2;
	printf("mode %o\n", st.st_mode & 07777);
	fprintf(stderr, "race_fchmod: %ld fchmods succeeded (on the pipe)\n",
		atomic_load(&changed));
	return 0;
}
