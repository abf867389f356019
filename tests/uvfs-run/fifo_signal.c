// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fifo_signal.c DIR - a signal during a call that waits on a fifo, with and without
 * SA_RESTART (test_uvfs_run.sh runs it natively and under uvfs-run; the outputs must
 * be equal).
 *
 * For each of a fifo's open for reading (waiting for a writer) and a read of an empty
 * fifo (waiting for data), and each of SA_RESTART or not: a SIGALRM handler runs while
 * the call waits and then lets a child process bring what the call waits for.  Without
 * SA_RESTART the call fails with EINTR, and an interrupted open leaves no reader
 * behind (a writer's O_NONBLOCK open is ENXIO); with it the call is made again and
 * gets what the child brought.  The child sends the SIGALRM once /proc/PPID/syscall
 * shows the parent in the call (openat or read: none other of those comes between the
 * fork and the call); a 100 ms timer armed before the call, as this was first, fired
 * before it when the parent lost its processor that long, and the call then found
 * the child's "x" (a review's finding: rare, but possible on a busy machine).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t ran;
static pid_t child;

static void on_alarm(int sig)
{
	(void)sig;
	ran = 1;
	kill(child, SIGUSR1);
}

/* the child: once the parent is in call nr, SIGALRM to it; at SIGUSR1, a writer's
 * open (blocking: the reader may be gone) and "x" */
static void bring(const char *fifo, long nr)
{
	const struct timespec ms = { 0, 1000000 };
	pid_t parent = getppid();
	char path[64], line[256];
	sigset_t usr1;
	int sig, fd;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)parent);
	for (int i = 0;; i++) {
		FILE *f = fopen(path, "r");
		bool in = f && fgets(line, sizeof(line), f) && strtol(line, NULL, 10) == nr &&
			  line[0] >= '0' && line[0] <= '9';

		if (f)
			fclose(f);
		if (in)
			break;
		if (i == 600000) {  /* 10 minutes: the parent never waited */
			fprintf(stderr, "fifo_signal: %s never showed call %ld\n", path, nr);
			_exit(1);
		}
		nanosleep(&ms, NULL);
	}
	kill(parent, SIGALRM);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigwait(&usr1, &sig);
	fd = open(fifo, O_WRONLY);
	if (fd < 0 || write(fd, "x", 1) != 1)
		_exit(1);
	_exit(0);
}

static void one(const char *dir, int reading, int restart)
{
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = restart ? SA_RESTART : 0 };
	char fifo[4096], buf[2] = "";
	int fd = -1, r, err, status;

	snprintf(fifo, sizeof(fifo), "%s/f%d%d", dir, reading, restart);
	if (mkfifo(fifo, 0600)) {
		perror("mkfifo");
		exit(1);
	}
	ran = 0;
	sigaction(SIGALRM, &sa, NULL);
	if (reading)
		fd = open(fifo, O_RDWR);  /* never waits: it is its own writer */
	child = fork();
	if (!child)
		bring(fifo, reading ? SYS_read : SYS_openat);
	if (reading) {
		r = (int)read(fd, buf, 1);
	} else {
		r = open(fifo, O_RDONLY);
		if (r >= 0) {
			fd = r;
			r = (int)read(fd, buf, 1);
		}
	}
	err = errno;
	printf("%s, %s: %s%s, handler %s", reading ? "read of an empty fifo" : "open for reading",
	       restart ? "SA_RESTART" : "no SA_RESTART", r < 0 ? strerror(err) : "got ",
	       r < 0 ? "" : buf, ran ? "ran" : "did not run");
	if (r < 0 && !reading) {
		/* nobody reads: a writer's O_NONBLOCK open is ENXIO; then a reader lets
		 * the child's open end */
		int w = open(fifo, O_WRONLY | O_NONBLOCK);

		printf(", no reader left: %s", w < 0 ? strerror(errno) : "a reader is left");
		fd = open(fifo, O_RDONLY | O_NONBLOCK);
	}
	printf("\n");
	waitpid(child, &status, 0);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	sigset_t usr1;

	if (argc != 2) {
		fprintf(stderr, "usage: fifo_signal DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);  /* the children sigwait() for it */
	for (int reading = 0; reading < 2; reading++)
		for (int restart = 0; restart < 2; restart++)
			one(argv[1], reading, restart);
	return 0;
}
