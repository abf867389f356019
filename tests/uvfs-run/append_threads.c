// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * append_threads.c [DIR] - 32 threads, each opening its own file in DIR (default the
 * working directory) with O_APPEND, writing its tag and closing it, 100 times; then
 * every file read back.  Prints the records written, those found in another
 * thread's file and the calls that failed: natively "records 3200, misplaced 0,
 * errors 0".  A supervisor that gives a new descriptor its number after the call
 * has returned lets another thread's open take it meanwhile (uvfs-run's ptrace loop
 * did: 20-220 writes failed with EBADF per run and records landed in other files).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define THREADS 32
#define TIMES 100

static atomic_ulong errors;

static void *worker(void *arg)
{
	long i = (long)arg;
	char name[16], tag[8];

	snprintf(name, sizeof(name), "f%02ld", i);
	snprintf(tag, sizeof(tag), "%02ld\n", i);
	for (int k = 0; k < TIMES; k++) {
		int fd = open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

		if (fd < 0) {
			errors++;
			continue;
		}
		if (write(fd, tag, 3) != 3)
			errors++;
		if (close(fd))
			errors++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long records = 0, misplaced = 0;
	pthread_t t[THREADS];

	if (argc > 1 && chdir(argv[1]))
		return 2;
	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 2;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++) {
		char name[16], buf[4 * THREADS * TIMES];
		int fd;
		ssize_t n;

		snprintf(name, sizeof(name), "f%02d", i);
		fd = open(name, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (fd >= 0)
			close(fd);
		for (ssize_t o = 0; o + 3 <= n; o += 3) {
			records++;
			misplaced += (buf[o] - '0') * 10 + (buf[o + 1] - '0') != i;
		}
	}
	printf("records %lu, misplaced %lu, errors %lu\n", records, misplaced, (unsigned long)errors);
	return 0;
}
