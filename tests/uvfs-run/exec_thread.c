// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec_thread.c - an exec by a thread other than the leader while the process's
 * other threads are in calls the supervisor answers (tests/uvfs-run/test_uvfs_run.sh
 * runs it natively and under uvfs-run).  The exec kills every other thread and gives
 * the leader's id to the thread that ran it, with a new program's memory; an answer
 * the supervisor was still making for a killed thread must then touch nothing.
 *
 *   exec_thread stale MAX   generation after generation (each an exec of this binary
 *        by a thread of the one before, MAX of them), the leader makes and removes a
 *        directory named by the global `target`, four threads stat, and a fifth execs.
 *        `target` starts as "/tmp/STALE" and the leader overwrites it before its first
 *        call, so no call of the program ever names /tmp/STALE: it exists only if a
 *        supervisor read the path of a killed caller from the next generation's memory,
 *        where `target` (built without PIE: at the same address in every generation)
 *        still says /tmp/STALE.  Prints "MAX generations: no /tmp/STALE" or the
 *        generation that found it.
 *   exec_thread watch N   N children; in each, the leader opens a file on a new
 *        descriptor number (one no watching filter of uvfs-run's covers yet: uvfs-run
 *        stops the process to add one) just as another thread execs this binary's
 *        `target` mode, which computes, stats and exits 0.  A stop meant for the
 *        killed caller that reached the new program would send it back into its own
 *        code (SIGSEGV).  Prints "N children, F failed".
 *   exec_thread two N   N children; in each, two threads exec at once, one /bin/true
 *        and one /bin/echo -n: either may win, and the child exits 0.  A supervisor
 *        that kept one exec per process took the loser's file for the winner's and
 *        killed it.  Prints "N children, F failed".
 *   exec_thread fiforead   the leader waits in a read of an empty fifo (opened
 *        read-write) while another thread execs `fiforead-next`, which writes
 *        "hello" into the fifo and reads it back: the killed leader's read is over,
 *        so the data is still there and the new program's buffer (the same global,
 *        without PIE) untouched.  Prints what it read and its buffer.
 *   exec_thread fifoopen N   N children; in each, the leader waits in an open of a
 *        fifo for reading while another thread execs `fifoopen-next`, which opens
 *        the fifo for writing without waiting: the killed leader is no reader, so
 *        ENXIO.  Prints "N children, F failed".
 *   exec_thread fiforo   no exec: a read of a fifo that waits, into a read-only page.
 *        What makes the modes above safe under uvfs-run -- the waiting call's helper
 *        writes through the caller's /proc/TID/mem -- must keep the page's
 *        protection: EFAULT, the page untouched.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char target[64] = "/tmp/STALE";
char fifo_buf[64] = "INIT";
static char self[4096];
static int generation, generations;

static void *stat_loop(void *arg)
{
	struct stat st;

	(void)arg;
	for (;;)
		stat("/tmp/g", &st);
	return NULL;
}

static void *exec_next(void *arg)
{
	char gen[16], max[16];

	(void)arg;
	usleep(1000 + (unsigned int)rand() % 3000);
	snprintf(gen, sizeof(gen), "%d", generation + 1);
	snprintf(max, sizeof(max), "%d", generations);
	execl(self, "exec_thread", "stale", max, gen, (char *)NULL);
	_exit(3);
}

static int stale(void)
{
	struct stat st;
	pthread_t t;

	if (!stat("/tmp/STALE", &st)) {
		printf("generation %d: /tmp/STALE exists\n", generation);
		return 1;
	}
	if (generation == generations) {
		printf("%d generations: no /tmp/STALE\n", generations);
		return 0;
	}
	mkdir("/tmp/g", 0755);
	srand((unsigned int)(getpid() ^ generation));
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t, NULL, stat_loop, NULL))
			return 2;
	if (pthread_create(&t, NULL, exec_next, NULL))
		return 2;
	strcpy(target, "/tmp/g/abcdefgh");
	for (;;) {
		mkdir(target, 0755);
		rmdir(target);
	}
}

static atomic_int started;
static int spin;

static void *exec_target(void *arg)
{
	(void)arg;
	started = 1;
	for (volatile int i = 0; i < spin; i++)
		;
	execl(self, "exec_thread", "target", (char *)NULL);
	_exit(99);
}

/* the new program: user time in which a stray stop may come, calls, more time */
static int target_main(void)
{
	volatile unsigned long x = 0;
	struct stat st;

	for (unsigned long i = 0; i < 2000000; i++)
		x += i;
	for (int i = 0; i < 50; i++)
		stat("/tmp/f", &st);
	for (unsigned long i = 0; i < 2000000; i++)
		x += i;
	return x == 2 * 1999999000000ul ? 0 : 7;
}

static int watch(int n)
{
	int failed = 0, fd = open("/tmp/f", O_CREAT | O_WRONLY, 0644);

	if (fd < 0)
		return 2;
	close(fd);
	for (int i = 0; i < n; i++) {
		pid_t pid;
		int ws;

		spin = (int)((unsigned int)i * 2654435761u % 200000u);
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			pthread_t t;

			/* descriptors 0-2 are the caller's: the open takes 3 */
			if (pthread_create(&t, NULL, exec_target, NULL))
				_exit(2);
			while (!started)
				;
			open("/tmp/f", O_RDONLY);
			for (;;)
				pause();
		}
		if (waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws))
			failed++;
	}
	printf("%d children, %d failed\n", n, failed);
	return failed != 0;
}

/* children forked one after another, each running child(); how many did not exit 0 */
static int children(int n, void (*child)(void))
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		int ws;

		if (pid < 0)
			return -1;
		if (pid == 0) {
			child();
			_exit(2);
		}
		if (waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws))
			failed++;
	}
	printf("%d children, %d failed\n", n, failed);
	return failed;
}

static atomic_int go;

static void *exec_true(void *arg)
{
	(void)arg;
	while (!go)
		;
	execl("/bin/true", "true", (char *)NULL);
	_exit(9);
}

static void *exec_echo(void *arg)
{
	(void)arg;
	while (!go)
		;
	execl("/bin/echo", "echo", "-n", (char *)NULL);
	_exit(9);
}

static void two_child(void)
{
	pthread_t a, b;

	if (pthread_create(&a, NULL, exec_true, NULL) || pthread_create(&b, NULL, exec_echo, NULL))
		_exit(2);
	usleep(1000);
	go = 1;
	for (;;)
		pause();
}

static int fifo_fd;

static void *exec_fifo_next(void *arg)
{
	char fd[16];

	usleep(200000);  /* the leader waits by then */
	snprintf(fd, sizeof(fd), "%d", fifo_fd);
	execl(self, "exec_thread", (const char *)arg, fd, (char *)NULL);
	_exit(3);
}

static int fiforead(void)
{
	pthread_t t;

	unlink("/tmp/ff");
	if (mkfifo("/tmp/ff", 0600) || (fifo_fd = open("/tmp/ff", O_RDWR)) < 0)
		return 2;
	if (pthread_create(&t, NULL, exec_fifo_next, "fiforead-next"))
		return 2;
	(void)!read(fifo_fd, fifo_buf, sizeof(fifo_buf));  /* waits: empty */
	return 4;
}

static int fiforead_next(int fd)
{
	char got[64] = "";
	ssize_t n;

	fcntl(fd, F_SETFL, O_NONBLOCK);
	if (write(fd, "hello", 5) != 5)
		return 2;
	usleep(100000);
	n = read(fd, got, sizeof(got) - 1);
	printf("read back %zd '%s'; buffer '%.8s'\n", n, n > 0 ? got : "", fifo_buf);
	return 0;
}

static void fifoopen_child(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, exec_fifo_next, "fifoopen-next"))
		_exit(2);
	open("/tmp/ff", O_RDONLY);  /* waits: no writer */
	_exit(4);
}

static int fifoopen(int n)
{
	unlink("/tmp/ff");
	if (mkfifo("/tmp/ff", 0600))
		return 2;
	return children(n, fifoopen_child) != 0;
}

static int fifoopen_next(void)
{
	/* the killed leader is no reader */
	return open("/tmp/ff", O_WRONLY | O_NONBLOCK) < 0 && errno == ENXIO ? 0 : 10;
}

static int fiforo(void)
{
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ssize_t n;
	int fd;

	unlink("/tmp/ff");
	if (ro == MAP_FAILED || mkfifo("/tmp/ff", 0600) || (fd = open("/tmp/ff", O_RDWR)) < 0)
		return 2;
	if (!fork()) {
		int w;

		usleep(100000);  /* the read waits by then */
		w = open("/tmp/ff", O_WRONLY);
		_exit(w < 0 || write(w, "abc", 3) != 3);
	}
	n = read(fd, ro, 3);
	printf("read %zd (%s), the page %s\n", n, n < 0 ? strerror(errno) : "no error",
	       ro[0] ? "written" : "untouched");
	wait(NULL);
	return 0;
}

int main(int argc, char **argv)
{
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (len <= 0)
		return 2;
	self[len] = 0;
	if (argc >= 3 && !strcmp(argv[1], "stale")) {
		generations = atoi(argv[2]);
		generation = argc > 3 ? atoi(argv[3]) : 0;
		return stale();
	}
	if (argc == 3 && !strcmp(argv[1], "watch"))
		return watch(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "target"))
		return target_main();
	if (argc == 3 && !strcmp(argv[1], "two"))
		return children(atoi(argv[2]), two_child) != 0;
	if (argc == 2 && !strcmp(argv[1], "fiforead"))
		return fiforead();
	if (argc == 3 && !strcmp(argv[1], "fiforead-next"))
		return fiforead_next(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fifoopen"))
		return fifoopen(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "fifoopen-next"))
		return fifoopen_next();
	if (argc == 2 && !strcmp(argv[1], "fiforo"))
		return fiforo();
	fprintf(stderr, "usage: exec_thread stale MAX | watch N | two N | fiforead | fifoopen N | fiforo\n");
	return 2;
}
