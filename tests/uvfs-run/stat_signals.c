// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stat_signals.c [DIR] - stat and open of a file in DIR (default /tmp), 20,000 times
 * each, while SIGALRM, whose handler has no SA_RESTART, comes every 200 µs.  Linux
 * never answers EINTR for these (they do not wait); prints "EINTR 0, other 0" and
 * whether the handler ran.  Under seccomp user notification a signal that comes before
 * the supervisor took the call withdraws it with ERESTARTSYS: uvfs-run must make the
 * call again, not let it end as EINTR.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t hits;

static void on_alarm(int sig)
{
	(void)sig;
	hits++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };  /* no SA_RESTART */
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	char path[256];
	unsigned long eintr = 0, other = 0;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/stat_signals", argc > 1 ? argv[1] : "/tmp");
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	if (fd < 0 || close(fd))
		return 2;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < 20000; i++) {
		if (stat(path, &st))
			errno == EINTR ? eintr++ : other++;
		fd = open(path, O_RDONLY);
		if (fd < 0)
			errno == EINTR ? eintr++ : other++;
		else
			close(fd);
	}
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("EINTR %lu, other %lu, handler ran: %s\n", eintr, other, hits ? "yes" : "no");
	return 0;
}
