// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * signal_watch.c FILE TRIES - a signal handler that reads a descriptor its thread has
 * just opened: the open lands on a number no watching filter of the process covers
 * yet (40: every lower number holds a pipe of the host's), and a timer every 10 µs
 * keeps a SIGALRM pending as the open returns, so the handler may run before
 * uvfs-run has installed the filter for that number.  The handler reads the file's
 * first byte with pread(): it must be FILE's, as natively -- through a stand-in a
 * read of a memfs file gives 0 bytes.  TRIES processes each make the open once.
 * Prints "reads N, wrong M".
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define FD 40

static volatile sig_atomic_t reads, wrong;
static char first;

static void on_alarm(int sig)
{
	char c;

	(void)sig;
	if (fcntl(FD, F_GETFD) < 0)
		return;  /* not open yet */
	reads++;
	if (pread(FD, &c, 1, 0) != 1 || c != first)
		wrong++;
}

static int try_once(const char *file)
{
	struct itimerval it = { { 0, 300 }, { 0, 300 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	fd = open(file, O_RDONLY);
	for (int i = 0; i < 20000 && reads < 3; i++)  /* 2 s at most */
		usleep(100);
	setitimer(ITIMER_REAL, &off, NULL);
	if (fd != FD)
		return 3;
	return (reads ? 0 : 2) | (wrong ? 1 : 0);
}

int main(int argc, char **argv)
{
	unsigned long tries, ok = 0, bad = 0, none = 0;
	int p[2], fd;

	if (argc != 3)
		return 2;
	tries = strtoul(argv[2], NULL, 10);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || read(fd, &first, 1) != 1)
		return 2;
	close(fd);
	/* every number below FD a host pipe's: the open lands on FD */
	do {
		if (pipe(p))
			return 2;
	} while (p[1] < FD - 1);
	if (p[1] >= FD)
		close(p[1]);
	for (unsigned long i = 0; i < tries; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return 2;
		if (!pid)
			_exit(try_once(argv[1]));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) > 2)
			return 2;
		if (WEXITSTATUS(status) & 1)
			bad++;
		else if (WEXITSTATUS(status) & 2)
			none++;
		else
			ok++;
	}
	printf("processes %lu, read the file %lu, read something else %lu, handler did not read %lu\n",
	       tries, ok, bad, none);
	return 0;
}
