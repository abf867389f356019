// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * locks.c DIR - the kernel's file locks between the processes of one program, on files
 * in DIR (test_uvfs_run.sh runs it natively on a tmpfs, and under uvfs-run on memfs and
 * on a --bind, and compares the outputs).
 *
 * One line per result, values and errno names, nothing of timing: POSIX locks
 * (F_GETLK naming the holder relative to the caller, F_SETLKW woken by an unlock, by
 * the holder's exit and by its death, EINTR, EDEADLK, a close of another descriptor
 * of the file, fork, exec, lockf), OFD locks (two open file descriptions of one
 * process, one inherited across fork, l_pid -1, against a POSIX lock of another
 * process, F_OFD_SETLKW), flock (per open file description, beside fcntl locks, on
 * directories, fifos and procfs files: each its own), locks through an O_PATH
 * descriptor, and
 * leases (F_SETLEASE, F_GETLEASE, the conflicting opens that refuse them, a break by
 * another process's open delivering SIGIO or F_SETSIG's signal to the holder, a
 * downgrade, an exec of the leased program, the holder's exit, a truncate, a signal
 * during a waiting open with and without SA_RESTART, a caller not the owner), and exec of a
 * file the process has locked.  Lines start with "lease:", "dir:", "fifo:", "proc:",
 * "opath:" and "exec:" where uvfs-run is or was known to differ (docs/SEMANTICS.md §9;
 * "dir:" agrees since memfs directories have stand-ins of their own, "fifo:" and
 * "proc:" since fifos and procfs files have too, "opath:" since flock is stopped on
 * watched numbers, "lease:" since uvfs
 * keeps leases, but for the si_code of F_SETSIG's signal),
 * for the test to tell them apart.
 *
 * Where one process must wait in a call while another acts, the other sleeps 200 ms
 * first; the results do not depend on it (a waiter that arrives late gets the same
 * answer), and each check of an order ("after the unlock") reads what the other
 * wrote before it acted.  alarm() bounds every wait: a process that would wait for
 * ever prints TIMEOUT and exits.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static const char *test = "start";

/* a line to stdout at once (no stdio buffer a fork could copy) */
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(1, buf, (size_t)n) != n)
		_exit(3);
}

/* 0, or the errno's name */
static const char *res(int r)
{
	const char *name;

	if (r >= 0)
		return "0";
	name = strerrorname_np(errno);
	return name ? name : "E?";
}

static void on_timeout(int sig)
{
	(void)sig;
	say("TIMEOUT in %s", test);
	_exit(2);
}

static void on_nothing(int sig) { (void)sig; }

/* SIGALRM ends the process in `seconds`, whatever it waits in */
static void deadline(unsigned int seconds)
{
	struct sigaction sa = { .sa_handler = on_timeout };

	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static char *path(const char *name)
{
	static char buf[8][4096];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, 4096, "%s/%s", dir, name);
	return p;
}

static int open_or_die(const char *name, int flags)
{
	int fd = open(path(name), flags | O_CLOEXEC, 0644);

	if (fd < 0) {
		say("open %s: %s", name, strerrorname_np(errno));
		exit(1);
	}
	return fd;
}

static pid_t fork_or_die(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		say("fork: %s", strerrorname_np(errno));
		exit(1);
	}
	return pid;
}

/* the child's exit status, or a word for how it ended */
static const char *reap(pid_t pid)
{
	static char buf[32];
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return "not reaped";
	if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else
		snprintf(buf, sizeof(buf), "%s", sigabbrev_np(WTERMSIG(status)) ?: "signal");
	return buf;
}

static void put(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		_exit(4);
}

static char get(int fd)
{
	char c = 0;

	if (read(fd, &c, 1) != 1)
		return 0;
	return c;
}

/* what a pipe holds now, without waiting: the byte, or '-' */
static char peek(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	char c;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	c = read(fd, &c, 1) == 1 ? c : '-';
	fcntl(fd, F_SETFL, fl);
	return c;
}

static int lk(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };

	return fcntl(fd, cmd, &fl);
}

static const char *type_name(int type)
{
	switch (type) {
	case F_RDLCK: return "F_RDLCK";
	case F_WRLCK: return "F_WRLCK";
	case F_UNLCK: return "F_UNLCK";
	default: return "?";
	}
}

/* F_GETLK/F_OFD_GETLK for a lock of `type` over start..len: what conflicts, its
 * holder named relative to the caller (`child`, `parent`: the pids it knows) */
static void getlk(const char *what, int fd, int cmd, short type, off_t start, off_t len,
		  pid_t child, pid_t parent)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	const char *who;
	char other[32];

	if (fcntl(fd, cmd, &fl) < 0) {
		say("%s: %s", what, res(-1));
		return;
	}
	if (fl.l_type == F_UNLCK) {
		say("%s: F_UNLCK", what);
		return;
	}
	if (fl.l_pid == -1)
		who = "-1 (an OFD lock)";
	else if (fl.l_pid == getpid())
		who = "me";
	else if (child > 0 && fl.l_pid == child)
		who = "my child";
	else if (parent > 0 && fl.l_pid == parent)
		who = "my parent";
	else {
		snprintf(other, sizeof(other), "another (%s)", fl.l_pid > 0 ? "positive" : "not positive");
		who = other;
	}
	say("%s: %s start %lld len %lld, holder is %s", what, type_name(fl.l_type),
	    (long long)fl.l_start, (long long)fl.l_len, who);
}

/* A child that takes a lock with `cmd` on a new open of `name`, says so on `ready`, and
 * then does what `then` says: 'u' waits for a byte on `go`, writes 'u' to `ready` and
 * unlocks; 'x' waits for a byte and exits holding it; 'k' waits for ever (to be
 * killed); 'e' execs sleep with the descriptor open */
static pid_t holder(const char *name, int cmd, short type, off_t start, off_t len, int ready,
		    int go, char then)
{
	pid_t pid = fork_or_die();
	int fd;

	if (pid)
		return pid;
	test = "holder";
	deadline(20);
	fd = open(path(name), O_RDWR);
	if (fd < 0 || lk(fd, cmd, type, start, len) < 0) {
		say("holder: %s", res(-1));
		_exit(1);
	}
	if (then == 'e') {
		char *argv[] = { "sleep", "20", NULL };

		put(ready, 'l');
		execvp("sleep", argv);
		_exit(1);
	}
	put(ready, 'l');
	if (then == 'k') {
		for (;;)
			pause();
	}
	get(go);
	if (then == 'u') {
		put(ready, 'u');
		lk(fd, cmd, F_UNLCK, start, len);
		get(go);
	}
	_exit(0);
}

static void posix_locks(void)
{
	int rd[2], go[2], fd, fd2, fd3;
	pid_t pid, killer;
	char c;

	test = "posix";
	if (pipe(rd) || pipe(go))
		exit(1);
	fd = open_or_die("p", O_RDWR | O_CREAT | O_TRUNC);
	if (write(fd, "0123456789", 10) != 10)
		exit(1);

	/* F_GETLK: the holder named; a process's own lock is no conflict */
	pid = holder("p", F_SETLK, F_WRLCK, 0, 10, rd[1], go[0], 'x');
	get(rd[0]);
	say("F_SETLK F_WRLCK over a child's write lock: %s", res(lk(fd, F_SETLK, F_WRLCK, 5, 10)));
	say("F_SETLK F_RDLCK beyond it: %s", res(lk(fd, F_SETLK, F_RDLCK, 10, 5)));
	getlk("F_GETLK F_WRLCK 5..14", fd, F_GETLK, F_WRLCK, 5, 10, pid, 0);
	getlk("F_GETLK F_RDLCK 10..14 (my own read lock)", fd, F_GETLK, F_RDLCK, 10, 5, pid, 0);
	getlk("F_GETLK F_RDLCK 20..", fd, F_GETLK, F_RDLCK, 20, 0, pid, 0);
	put(go[1], 'g');
	say("the holder: %s", reap(pid));
	getlk("F_GETLK after the holder's exit", fd, F_GETLK, F_WRLCK, 0, 0, 0, 0);

	/* the child's view of its parent's lock; a lock is not inherited across fork */
	say("F_SETLK F_WRLCK 0..9: %s", res(lk(fd, F_SETLK, F_WRLCK, 0, 10)));
	pid = fork_or_die();
	if (!pid) {
		deadline(20);
		getlk("child: F_GETLK on the inherited descriptor", fd, F_GETLK, F_WRLCK, 0, 0, 0,
		      getppid());
		say("child: F_SETLK F_RDLCK on it: %s", res(lk(fd, F_SETLK, F_RDLCK, 0, 1)));
		say("child: F_SETLK F_RDLCK 10..: %s", res(lk(fd, F_SETLK, F_RDLCK, 10, 0)));
		fd2 = open_or_die("p", O_RDWR);
		say("child: lockf F_TEST: %s", res(lockf(fd2, F_TEST, 5)));
		say("child: lockf F_TLOCK: %s", res(lockf(fd2, F_TLOCK, 5)));
		say("child: lockf F_TLOCK past the parent's locks: %s",
		    res(lseek(fd2, 20, SEEK_SET) < 0 ? -1 : lockf(fd2, F_TLOCK, 5)));
		say("child: lockf F_TEST of its own: %s", res(lockf(fd2, F_TEST, 5)));
		_exit(0);
	}
	say("child: %s", reap(pid));

	/* the access mode the lock needs */
	fd2 = open_or_die("p", O_RDONLY);
	fd3 = open_or_die("p", O_WRONLY);
	say("F_SETLK F_WRLCK on a read-only descriptor: %s", res(lk(fd2, F_SETLK, F_WRLCK, 30, 1)));
	say("F_SETLK F_RDLCK on a write-only descriptor: %s", res(lk(fd3, F_SETLK, F_RDLCK, 30, 1)));
	say("F_SETLK of l_type 7: %s", res(lk(fd2, F_SETLK, 7, 30, 1)));
	say("F_SETLK with l_start -1: %s", res(lk(fd2, F_SETLK, F_RDLCK, -1, 1)));
	/* POSIX's rule: a close of any descriptor of the file drops the process's locks */
	close(fd3);
	pid = fork_or_die();
	if (!pid) {
		getlk("child: F_GETLK after the parent closed another descriptor of the file", fd2,
		      F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		_exit(0);
	}
	say("child: %s", reap(pid));
	say("F_SETLK F_WRLCK 0..9 again: %s", res(lk(fd, F_SETLK, F_WRLCK, 0, 10)));
	fd3 = dup(fd);
	close(fd3);
	pid = fork_or_die();
	if (!pid) {
		getlk("child: F_GETLK after the parent closed a dup", fd2, F_GETLK, F_WRLCK, 0, 0, 0,
		      getppid());
		_exit(0);
	}
	say("child: %s", reap(pid));
	close(fd2);

	/* F_SETLKW: woken by the holder's unlock, its exit, its death */
	pid = holder("p", F_SETLK, F_WRLCK, 0, 0, rd[1], go[0], 'u');
	get(rd[0]);
	put(go[1], 'g');  /* it unlocks while (or before) we wait */
	deadline(20);
	say("F_SETLKW on a lock its holder drops: %s", res(lk(fd, F_SETLKW, F_WRLCK, 0, 0)));
	c = peek(rd[0]);
	say("... granted after the unlock: %s", c == 'u' ? "yes" : "no");
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	put(go[1], 'g');
	say("the holder: %s", reap(pid));

	pid = holder("p", F_SETLK, F_WRLCK, 0, 0, rd[1], go[0], 'x');
	get(rd[0]);
	killer = fork_or_die();
	if (!killer) {
		pause_ms(200);
		put(go[1], 'g');  /* the holder exits without unlocking */
		_exit(0);
	}
	say("F_SETLKW on a lock whose holder exits: %s", res(lk(fd, F_SETLKW, F_WRLCK, 0, 0)));
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	say("the holder: %s", reap(pid));
	reap(killer);

	pid = holder("p", F_SETLK, F_RDLCK, 0, 0, rd[1], go[0], 'k');
	get(rd[0]);
	killer = fork_or_die();
	if (!killer) {
		pause_ms(200);
		kill(pid, SIGKILL);
		_exit(0);
	}
	say("F_SETLKW on a lock whose holder is killed: %s", res(lk(fd, F_SETLKW, F_WRLCK, 0, 0)));
	lk(fd, F_SETLK, F_UNLCK, 0, 0);
	say("the holder: %s", reap(pid));
	reap(killer);

	/* a signal without SA_RESTART ends the wait */
	pid = holder("p", F_SETLK, F_WRLCK, 0, 0, rd[1], go[0], 'x');
	get(rd[0]);
	{
		struct sigaction sa = { .sa_handler = on_nothing };

		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		say("F_SETLKW interrupted by SIGALRM: %s", res(lk(fd, F_SETLKW, F_WRLCK, 0, 0)));
		alarm(0);
		deadline(20);
	}
	put(go[1], 'g');
	say("the holder: %s", reap(pid));

	/* a lock survives exec -- unless the exec closes a descriptor of the file (the
	 * parent's, close-on-exec, inherited): the child's end of a close-on-exec pipe
	 * closes at its exec */
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "pe" : "p";
		int ex[2], f;

		if (pipe2(ex, O_CLOEXEC))
			exit(1);
		if (i)
			close(open_or_die(name, O_RDWR | O_CREAT));
		pid = holder(name, F_SETLK, F_WRLCK, 3, 4, ex[1], go[0], 'e');
		close(ex[1]);
		get(ex[0]);
		say("the holder's exec: %s", get(ex[0]) == 0 ? "done" : "not done");
		close(ex[0]);
		f = i ? open_or_die(name, O_RDWR) : fd;
		getlk(i ? "F_GETLK of a lock taken before the holder's exec" :
		      "F_GETLK of a lock taken before an exec that closed another descriptor of the file",
		      f, F_GETLK, F_WRLCK, 0, 0, pid, 0);
		if (i)
			close(f);
		kill(pid, SIGKILL);
		say("the holder: %s", reap(pid));
	}

	/* two processes each waiting for the other: one EDEADLK, the other then granted */
	say("F_SETLK F_WRLCK 0..9: %s", res(lk(fd, F_SETLK, F_WRLCK, 0, 10)));
	pid = fork_or_die();
	if (!pid) {
		int f = open_or_die("p", O_RDWR), r;

		deadline(20);
		lk(f, F_SETLK, F_WRLCK, 20, 10);
		put(rd[1], 'l');
		get(go[0]);
		r = lk(f, F_SETLKW, F_WRLCK, 0, 10);
		put(rd[1], r < 0 && errno == EDEADLK ? 'd' : r == 0 ? '0' : '?');
		lk(f, F_SETLK, F_UNLCK, 0, 0);
		_exit(0);
	}
	get(rd[0]);
	put(go[1], 'g');
	{
		int r = lk(fd, F_SETLKW, F_WRLCK, 20, 10);
		char mine = r < 0 && errno == EDEADLK ? 'd' : r == 0 ? '0' : '?', theirs;

		if (mine == 'd')
			lk(fd, F_SETLK, F_UNLCK, 0, 0);  /* lets the child have 0..9 */
		theirs = get(rd[0]);
		if (mine == '0')
			lk(fd, F_SETLK, F_UNLCK, 0, 0);
		say("a deadlock of two processes: %s", (mine == 'd' && theirs == '0') ||
		    (mine == '0' && theirs == 'd') ? "one EDEADLK, the other granted" : "something else");
	}
	say("child: %s", reap(pid));
	close(fd);
	close(rd[0]);
	close(rd[1]);
	close(go[0]);
	close(go[1]);
}

static void ofd_locks(void)
{
	int rd[2], go[2], fd1, fd2, fd3;
	pid_t pid;
	char c;

	test = "ofd";
	if (pipe(rd) || pipe(go))
		exit(1);
	fd1 = open_or_die("o", O_RDWR | O_CREAT | O_TRUNC);
	fd2 = open_or_die("o", O_RDWR);
	say("F_OFD_SETLK F_WRLCK on one description: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 0, 0)));
	say("F_OFD_SETLK F_WRLCK on another, same process: %s", res(lk(fd2, F_OFD_SETLK, F_WRLCK, 0, 10)));
	say("F_OFD_SETLK F_RDLCK on the first again: %s", res(lk(fd1, F_OFD_SETLK, F_RDLCK, 0, 0)));
	say("F_OFD_SETLK F_RDLCK on the other: %s", res(lk(fd2, F_OFD_SETLK, F_RDLCK, 0, 10)));
	say("F_OFD_SETLK F_WRLCK on the first: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 0, 0)));
	lk(fd2, F_OFD_SETLK, F_UNLCK, 0, 0);
	say("... after the other unlocked: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 0, 0)));
	getlk("F_OFD_GETLK on the other", fd2, F_OFD_GETLK, F_RDLCK, 5, 5, 0, 0);
	getlk("F_OFD_GETLK on the holder's", fd1, F_OFD_GETLK, F_WRLCK, 0, 0, 0, 0);
	getlk("F_GETLK on the other", fd2, F_GETLK, F_WRLCK, 0, 0, 0, 0);
	say("F_SETLK F_RDLCK on the other: %s", res(lk(fd2, F_SETLK, F_RDLCK, 0, 1)));
	{
		struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_pid = 1 };

		say("F_OFD_SETLK with l_pid 1: %s", res(fcntl(fd2, F_OFD_SETLK, &fl)));
		fl.l_pid = 0;
		fl.l_type = F_WRLCK;
		say("F_OFD_GETLK with l_pid 0: %s", res(fcntl(fd2, F_OFD_GETLK, &fl)));
	}
	/* an OFD lock is the description's, not the process's: a close of another
	 * descriptor of the file leaves it */
	fd3 = open_or_die("o", O_RDONLY);
	close(fd3);
	getlk("F_OFD_GETLK after a close of a third descriptor", fd2, F_OFD_GETLK, F_WRLCK, 0, 0, 0, 0);

	/* across fork: the child's fd1 is the same description, fd2 is the other */
	pid = fork_or_die();
	if (!pid) {
		deadline(20);
		say("child: F_OFD_SETLK F_RDLCK on the inherited holder's description: %s",
		    res(lk(fd1, F_OFD_SETLK, F_RDLCK, 0, 0)));
		say("child: F_OFD_SETLK F_WRLCK on the other: %s", res(lk(fd2, F_OFD_SETLK, F_WRLCK, 0, 0)));
		say("child: F_OFD_SETLK F_RDLCK on the other: %s", res(lk(fd2, F_OFD_SETLK, F_RDLCK, 0, 0)));
		getlk("child: F_GETLK on the other", fd2, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		say("child: F_OFD_SETLK F_WRLCK on the holder's: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 0, 0)));
		_exit(0);
	}
	say("child: %s", reap(pid));
	getlk("F_OFD_GETLK after the child's change of the shared description's lock", fd2,
	      F_OFD_GETLK, F_WRLCK, 0, 0, 0, 0);
	/* the child's lock was the description's, which the parent still has */

	/* F_OFD_SETLKW, woken when the last descriptor of the holder's description closes */
	pid = fork_or_die();
	if (!pid) {
		deadline(20);
		close(fd2);
		put(rd[1], 'r');
		get(go[0]);
		put(rd[1], 'c');
		close(fd1);  /* the child's is the last */
		_exit(0);
	}
	get(rd[0]);
	close(fd1);
	put(go[1], 'g');
	deadline(20);
	say("F_OFD_SETLKW on a description whose last descriptor closes: %s",
	    res(lk(fd2, F_OFD_SETLKW, F_WRLCK, 0, 0)));
	c = peek(rd[0]);
	say("... granted after the close: %s", c == 'c' ? "yes" : "no");
	say("child: %s", reap(pid));
	close(fd2);

	/* against POSIX locks of another process */
	fd1 = open_or_die("o", O_RDWR);
	pid = holder("o", F_SETLK, F_WRLCK, 0, 10, rd[1], go[0], 'u');
	get(rd[0]);
	say("F_OFD_SETLK over another process's POSIX lock: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 5, 10)));
	getlk("F_OFD_GETLK of it", fd1, F_OFD_GETLK, F_RDLCK, 5, 10, pid, 0);
	put(go[1], 'g');
	say("F_OFD_SETLKW on it, its holder unlocking: %s", res(lk(fd1, F_OFD_SETLKW, F_WRLCK, 5, 10)));
	c = peek(rd[0]);
	say("... granted after the unlock: %s", c == 'u' ? "yes" : "no");
	put(go[1], 'g');
	say("the holder: %s", reap(pid));
	pid = fork_or_die();
	if (!pid) {
		int f = open_or_die("o", O_RDWR);

		getlk("child: F_GETLK of the parent's OFD lock", f, F_GETLK, F_RDLCK, 0, 0, 0, getppid());
		say("child: F_SETLK under it: %s", res(lk(f, F_SETLK, F_RDLCK, 7, 1)));
		say("child: F_SETLK beside it: %s", res(lk(f, F_SETLK, F_WRLCK, 20, 1)));
		_exit(0);
	}
	say("child: %s", reap(pid));
	/* a POSIX lock of this process conflicts with its own OFD lock: "me" */
	fd2 = open_or_die("o", O_RDWR);
	say("F_SETLK F_WRLCK 30..39: %s", res(lk(fd2, F_SETLK, F_WRLCK, 30, 10)));
	getlk("F_OFD_GETLK of my own POSIX lock", fd1, F_OFD_GETLK, F_WRLCK, 35, 1, 0, 0);
	getlk("F_GETLK of my own OFD lock", fd2, F_GETLK, F_WRLCK, 5, 1, 0, 0);
	close(fd1);
	close(fd2);
	close(rd[0]);
	close(rd[1]);
	close(go[0]);
	close(go[1]);
}

static void flocks(void)
{
	int fd1, fd2, d1, d2;
	pid_t pid;

	test = "flock";
	fd1 = open_or_die("k", O_RDWR | O_CREAT | O_TRUNC);
	fd2 = open_or_die("k", O_RDONLY);
	say("flock LOCK_EX: %s", res(flock(fd1, LOCK_EX)));
	say("flock LOCK_SH|LOCK_NB on another description: %s", res(flock(fd2, LOCK_SH | LOCK_NB)));
	say("F_OFD_SETLK F_WRLCK beside it: %s", res(lk(fd1, F_OFD_SETLK, F_WRLCK, 0, 0)));
	lk(fd1, F_OFD_SETLK, F_UNLCK, 0, 0);
	say("F_SETLK F_RDLCK beside it: %s", res(lk(fd2, F_SETLK, F_RDLCK, 0, 0)));
	pid = fork_or_die();
	if (!pid) {
		say("child: flock LOCK_EX|LOCK_NB on the inherited description: %s",
		    res(flock(fd1, LOCK_EX | LOCK_NB)));
		say("child: flock LOCK_UN of it: %s", res(flock(fd1, LOCK_UN)));
		_exit(0);
	}
	say("child: %s", reap(pid));
	say("flock LOCK_SH|LOCK_NB on the other after the child's unlock: %s",
	    res(flock(fd2, LOCK_SH | LOCK_NB)));
	close(fd1);
	close(fd2);

	/* directories: each its own lock */
	mkdir(path("d1"), 0755);
	mkdir(path("d2"), 0755);
	d1 = open_or_die("d1", O_RDONLY | O_DIRECTORY);
	d2 = open_or_die("d2", O_RDONLY | O_DIRECTORY);
	say("dir: flock LOCK_EX of a directory: %s", res(flock(d1, LOCK_EX | LOCK_NB)));
	say("dir: flock LOCK_EX|LOCK_NB of another directory: %s", res(flock(d2, LOCK_EX | LOCK_NB)));
	say("dir: F_SETLK F_RDLCK of a directory: %s", res(lk(d1, F_SETLK, F_RDLCK, 0, 0)));
	pid = fork_or_die();
	if (!pid) {
		int e1 = open_or_die("d1", O_RDONLY | O_DIRECTORY);
		int e2 = open_or_die("d2", O_RDONLY | O_DIRECTORY);

		say("dir: child: flock LOCK_SH|LOCK_NB of the first: %s", res(flock(e1, LOCK_SH | LOCK_NB)));
		flock(d2, LOCK_UN);
		say("dir: child: flock LOCK_SH|LOCK_NB of the second, unlocked: %s", res(flock(e2, LOCK_SH | LOCK_NB)));
		getlk("dir: child: F_GETLK of the first", e1, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		getlk("dir: child: F_GETLK of the second", e2, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		_exit(0);
	}
	say("dir: child: %s", reap(pid));
	close(d1);
	close(d2);

	/* fifos: each its own lock too (opened for reading and writing: no waiting) */
	mkfifo(path("p1"), 0644);
	mkfifo(path("p2"), 0644);
	d1 = open_or_die("p1", O_RDWR);
	d2 = open_or_die("p2", O_RDWR);
	say("fifo: flock LOCK_EX of a fifo: %s", res(flock(d1, LOCK_EX | LOCK_NB)));
	say("fifo: flock LOCK_EX|LOCK_NB of another fifo: %s", res(flock(d2, LOCK_EX | LOCK_NB)));
	say("fifo: F_SETLK F_WRLCK of a fifo: %s", res(lk(d1, F_SETLK, F_WRLCK, 0, 0)));
	pid = fork_or_die();
	if (!pid) {
		int e1 = open_or_die("p1", O_RDWR);
		int e2 = open_or_die("p2", O_RDWR);

		say("fifo: child: flock LOCK_SH|LOCK_NB of the first: %s", res(flock(e1, LOCK_SH | LOCK_NB)));
		flock(d2, LOCK_UN);
		say("fifo: child: flock LOCK_SH|LOCK_NB of the second, unlocked: %s", res(flock(e2, LOCK_SH | LOCK_NB)));
		getlk("fifo: child: F_GETLK of the first", e1, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		getlk("fifo: child: F_GETLK of the second", e2, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
		say("fifo: child: F_SETLK F_RDLCK of the second: %s", res(lk(e2, F_SETLK, F_RDLCK, 0, 0)));
		_exit(0);
	}
	say("fifo: child: %s", reap(pid));
	close(d1);
	close(d2);

	/* procfs files: each inode its own lock, as Linux keeps it -- /proc/PID/stat opened
	 * twice is one file, /proc/PID/status another (their stand-ins were one null
	 * device) */
	{
		char st[64], su[64];

		snprintf(st, sizeof(st), "/proc/%d/stat", (int)getpid());
		snprintf(su, sizeof(su), "/proc/%d/status", (int)getpid());
		d1 = open(st, O_RDONLY | O_CLOEXEC);
		d2 = open(su, O_RDONLY | O_CLOEXEC);
		fd1 = open(st, O_RDONLY | O_CLOEXEC);
		say("proc: flock LOCK_EX of /proc/PID/stat: %s", res(flock(d1, LOCK_EX | LOCK_NB)));
		say("proc: flock LOCK_EX|LOCK_NB of /proc/PID/status: %s", res(flock(d2, LOCK_EX | LOCK_NB)));
		say("proc: flock LOCK_SH|LOCK_NB of /proc/PID/stat opened again: %s",
		    res(flock(fd1, LOCK_SH | LOCK_NB)));
		say("proc: F_SETLK F_RDLCK of /proc/PID/stat: %s", res(lk(d1, F_SETLK, F_RDLCK, 0, 0)));
		pid = fork_or_die();
		if (!pid) {
			int e1 = open(st, O_RDONLY | O_CLOEXEC), e2 = open(su, O_RDONLY | O_CLOEXEC);

			say("proc: child: flock LOCK_SH|LOCK_NB of the parent's stat: %s",
			    res(flock(e1, LOCK_SH | LOCK_NB)));
			flock(d2, LOCK_UN);
			say("proc: child: flock LOCK_SH|LOCK_NB of its status, unlocked: %s",
			    res(flock(e2, LOCK_SH | LOCK_NB)));
			getlk("proc: child: F_GETLK of the parent's stat", e1, F_GETLK, F_WRLCK, 0, 0, 0,
			      getppid());
			getlk("proc: child: F_GETLK of its status", e2, F_GETLK, F_WRLCK, 0, 0, 0, getppid());
			_exit(0);
		}
		say("proc: child: %s", reap(pid));
		close(d1);
		close(d2);
		close(fd1);
		/* its directories too: /proc, /proc/PID/fd, /proc/PID/fdinfo each their own */
		snprintf(st, sizeof(st), "/proc/%d/fd", (int)getpid());
		snprintf(su, sizeof(su), "/proc/%d/fdinfo", (int)getpid());
		d1 = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		d2 = open(st, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		fd1 = open(su, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		say("proc: flock LOCK_EX of /proc: %s", res(flock(d1, LOCK_EX | LOCK_NB)));
		say("proc: flock LOCK_EX|LOCK_NB of /proc/PID/fd: %s", res(flock(d2, LOCK_EX | LOCK_NB)));
		say("proc: flock LOCK_EX|LOCK_NB of /proc/PID/fdinfo: %s", res(flock(fd1, LOCK_EX | LOCK_NB)));
		close(d1);
		close(d2);
		close(fd1);
	}

	/* an O_PATH descriptor takes no lock */
	fd1 = open(path("k"), O_PATH | O_CLOEXEC);
	say("opath: open O_PATH: %s", res(fd1));
	say("opath: flock of an O_PATH descriptor: %s", res(flock(fd1, LOCK_SH | LOCK_NB)));
	say("opath: F_SETLK of an O_PATH descriptor: %s", res(lk(fd1, F_SETLK, F_RDLCK, 0, 0)));
	say("opath: F_OFD_GETLK of an O_PATH descriptor: %s", res(lk(fd1, F_OFD_GETLK, F_RDLCK, 0, 0)));
	say("opath: F_GETLEASE of an O_PATH descriptor: %s", res(fcntl(fd1, F_GETLEASE)));
	if (fd1 >= 0)
		close(fd1);
}

/* Leases */
static volatile sig_atomic_t got_sig, got_code, got_fd;

static void on_lease_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_fd = si->si_fd;
}

static const char *lease_name(int r)
{
	if (r < 0)
		return res(r);
	return type_name(r);
}

static void catch_lease_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_lease_signal, .sa_flags = SA_SIGINFO | SA_RESTART };

	sigaction(SIGIO, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

/* wait up to 5 s for a lease signal: its name, or "none" */
static const char *wait_signal(void)
{
	for (int i = 0; i < 500 && !got_sig; i++)
		pause_ms(10);
	return got_sig ? sigabbrev_np(got_sig) : "none";
}

/* another process opens `name` with `flags`; says 'o' on `done` once its open returned,
 * writes its result there too ('0' or 'W' for EWOULDBLOCK, '?') */
static pid_t opener(const char *name, int flags, int done, long delay_ms)
{
	pid_t pid = fork_or_die();
	int fd;

	if (pid)
		return pid;
	test = "opener";
	deadline(20);
	pause_ms(delay_ms);
	fd = open(path(name), flags | O_CLOEXEC);
	put(done, fd >= 0 ? '0' : errno == EWOULDBLOCK ? 'W' : '?');
	_exit(0);
}

static void leases(void)
{
	int fd, fd2, done[2], rel[2], r;
	pid_t pid;
	char c;

	test = "lease";
	if (pipe(done) || pipe(rel))
		exit(1);
	catch_lease_signals();
	close(open_or_die("l", O_RDWR | O_CREAT | O_TRUNC));

	fd = open_or_die("l", O_RDONLY);
	say("lease: F_GETLEASE, none: %s", lease_name(fcntl(fd, F_GETLEASE)));
	say("lease: F_SETLEASE F_UNLCK, none: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
	say("lease: F_SETLEASE F_RDLCK on O_RDONLY: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
	say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
	fd2 = open_or_die("l", O_RDONLY);
	say("lease: F_GETLEASE of another description: %s", lease_name(fcntl(fd2, F_GETLEASE)));
	say("lease: F_SETLEASE F_RDLCK on it too: %s", res(fcntl(fd2, F_SETLEASE, F_RDLCK)));
	say("lease: F_SETLEASE F_UNLCK of it: %s", res(fcntl(fd2, F_SETLEASE, F_UNLCK)));
	say("lease: F_SETLEASE F_WRLCK with another reader: %s", res(fcntl(fd, F_SETLEASE, F_WRLCK)));
	close(fd2);
	say("lease: F_SETLEASE F_WRLCK, the only open: %s", res(fcntl(fd, F_SETLEASE, F_WRLCK)));
	say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
	say("lease: F_SETLEASE F_RDLCK (a downgrade): %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
	say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
	say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
	say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
	say("lease: F_SETLEASE 7: %s", res(fcntl(fd, F_SETLEASE, 7)));
	close(fd);
	fd = open_or_die("l", O_RDWR);
	say("lease: F_SETLEASE F_RDLCK on O_RDWR: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
	say("lease: F_SETLEASE F_WRLCK on O_RDWR, the only open: %s", res(fcntl(fd, F_SETLEASE, F_WRLCK)));
	say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
	fcntl(fd, F_SETLEASE, F_UNLCK);
	close(fd);
	fd = open_or_die("l", O_WRONLY);
	say("lease: F_SETLEASE F_WRLCK on O_WRONLY, the only open: %s", res(fcntl(fd, F_SETLEASE, F_WRLCK)));
	fcntl(fd, F_SETLEASE, F_UNLCK);
	fd2 = open_or_die("l", O_RDONLY);
	say("lease: F_SETLEASE F_RDLCK while another description writes: %s", res(fcntl(fd2, F_SETLEASE, F_RDLCK)));
	close(fd);
	say("lease: ... once it closed: %s", res(fcntl(fd2, F_SETLEASE, F_RDLCK)));
	fcntl(fd2, F_SETLEASE, F_UNLCK);
	close(fd2);
	fd = open_or_die("d1", O_RDONLY | O_DIRECTORY);
	say("lease: F_SETLEASE F_RDLCK of a directory: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
	close(fd);

	/* a read lease broken by another process's open for writing: SIGIO to the holder,
	 * the open waits for the holder's F_UNLCK */
	fd = open_or_die("l", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_RDLCK);
	say("lease: a read lease for the break: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = opener("l", O_WRONLY, done[1], 0);
		/* SIGIO's si_code is not printed: the kernel's send_sigio() sends
		 * SEND_SIG_PRIV (SI_KERNEL), yet the holder reads SI_USER most times
		 * (1 in ~50 read SI_KERNEL on 6.18 here): not something to compare */
		say("lease: the holder's signal: %s", wait_signal());
		say("lease: F_GETLEASE while it breaks: %s", lease_name(fcntl(fd, F_GETLEASE)));
		say("lease: the opener's open returned before the release: %s", peek(done[0]) == '-' ? "no" : "yes");
		say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
		say("lease: the opener's open: %c", get(done[0]));
		say("lease: opener: %s", reap(pid));
	}
	close(fd);

	/* O_NONBLOCK: EWOULDBLOCK at once, the break started; F_SETSIG's signal, si_fd */
	fd = open_or_die("l", O_RDONLY);
	fcntl(fd, F_SETSIG, SIGUSR1);
	r = fcntl(fd, F_SETLEASE, F_RDLCK);
	say("lease: a read lease, F_SETSIG SIGUSR1: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = opener("l", O_WRONLY | O_NONBLOCK, done[1], 0);
		say("lease: an O_NONBLOCK open for writing: %c", get(done[0]));
		say("lease: opener: %s", reap(pid));
		say("lease: the holder's signal: %s, si_code POLL_MSG: %s, si_fd the leased descriptor: %s",
		    wait_signal(), got_code == POLL_MSG ? "yes" : "no", got_fd == fd ? "yes" : "no");
		say("lease: F_GETLEASE while it breaks: %s", lease_name(fcntl(fd, F_GETLEASE)));
		say("lease: F_SETLEASE F_RDLCK while it breaks: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
	}
	close(fd);

	/* a write lease broken by an open for reading: downgraded to a read lease */
	fd = open_or_die("l", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_WRLCK);
	say("lease: a write lease for the break: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = opener("l", O_RDONLY, done[1], 0);
		say("lease: the holder's signal: %s", wait_signal());
		say("lease: F_GETLEASE while it breaks: %s", lease_name(fcntl(fd, F_GETLEASE)));
		say("lease: the opener's open returned before the downgrade: %s", peek(done[0]) == '-' ? "no" : "yes");
		say("lease: F_SETLEASE F_RDLCK: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		say("lease: the opener's open: %c", get(done[0]));
		say("lease: opener: %s", reap(pid));
		say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);

	/* an exec of the file: its open for reading (do_open_execat()) breaks a write lease
	 * down to a read lease, and the program runs once the holder gave it down */
	{
		int in = open("/bin/true", O_RDONLY | O_CLOEXEC), out;
		char buf[65536];
		ssize_t n;

		out = open_or_die("x", O_CREAT | O_WRONLY | O_TRUNC);
		while (in >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				break;
		fchmod(out, 0755);
		close(out);
		if (in >= 0)
			close(in);
	}
	fd = open_or_die("x", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_WRLCK);
	say("lease: a write lease on a program, for its exec: %s", res(r));
	if (r == 0) {
		int status;

		got_sig = 0;
		pid = fork_or_die();
		if (!pid) {
			execl(path("x"), "x", (char *)NULL);
			_exit(127);
		}
		say("lease: the holder's signal: %s", wait_signal());
		say("lease: F_GETLEASE while it breaks: %s", lease_name(fcntl(fd, F_GETLEASE)));
		pause_ms(100);
		say("lease: the program ran before the downgrade: %s",
		    waitpid(pid, &status, WNOHANG) == 0 ? "no" : "yes");
		say("lease: F_SETLEASE F_RDLCK: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		say("lease: the program: %s", reap(pid));
		say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);

	/* a script's exec: binfmt_script's first open is the script's own, so its write
	 * lease is broken too (the interpreter's would be next) */
	{
		char line[300];
		int sfd = open_or_die("xs", O_CREAT | O_WRONLY | O_TRUNC);

		snprintf(line, sizeof(line), "#!%s\n", path("x"));
		if (write(sfd, line, strlen(line)) < 0)
			say("lease: write of the script: %s", strerrorname_np(errno));
		fchmod(sfd, 0755);
		close(sfd);
	}
	fd = open_or_die("xs", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_WRLCK);
	say("lease: a write lease on a script, for its exec: %s", res(r));
	if (r == 0) {
		int status;

		got_sig = 0;
		pid = fork_or_die();
		if (!pid) {
			execl(path("xs"), "xs", (char *)NULL);
			_exit(127);
		}
		say("lease: the holder's signal: %s", wait_signal());
		pause_ms(100);
		say("lease: the script ran before the downgrade: %s",
		    waitpid(pid, &status, WNOHANG) == 0 ? "no" : "yes");
		say("lease: F_SETLEASE F_RDLCK: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		say("lease: the script: %s", reap(pid));
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);

	/* a signal without SA_RESTART while the exec waits: execve says EINTR */
	fd = open_or_die("x", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_WRLCK);
	say("lease: a write lease on a program, an exec to interrupt: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = fork_or_die();
		if (!pid) {
			struct sigaction sa = { .sa_handler = on_nothing };

			sigaction(SIGUSR2, &sa, NULL);
			execl(path("x"), "x", (char *)NULL);
			_exit(errno == EINTR ? 4 : 5);
		}
		say("lease: the holder's signal: %s", wait_signal());
		kill(pid, SIGUSR2);
		say("lease: the interrupted exec: %s", reap(pid));
		say("lease: F_GETLEASE after it: %s", lease_name(fcntl(fd, F_GETLEASE)));
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);

	/* a write lease taken again while its downgrade is pending stays pending
	 * (lease_clear_pending() clears a downgrade for F_RDLCK and F_UNLCK only): the
	 * reader that broke it killed, F_GETLEASE says F_RDLCK before and after */
	fd = open_or_die("l", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_WRLCK);
	say("lease: a write lease, a reader to kill during the break: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = opener("l", O_RDONLY, done[1], 0);
		say("lease: the holder's signal: %s", wait_signal());
		kill(pid, SIGKILL);
		say("lease: opener: %s", reap(pid));
		say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
		say("lease: F_SETLEASE F_WRLCK again: %s", res(fcntl(fd, F_SETLEASE, F_WRLCK)));
		say("lease: F_GETLEASE: %s", lease_name(fcntl(fd, F_GETLEASE)));
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);

	/* the holder exits at the break: the open goes on */
	pid = fork_or_die();
	if (!pid) {
		test = "lease holder";
		deadline(20);
		got_sig = 0;
		fd = open_or_die("l", O_RDONLY);
		r = fcntl(fd, F_SETLEASE, F_RDLCK);
		put(rel[1], r == 0 ? 'l' : 'n');
		if (r)
			_exit(0);
		wait_signal();
		_exit(got_sig == SIGIO ? 0 : 1);
	}
	c = get(rel[0]);
	say("lease: a child's read lease: %s", c == 'l' ? "granted" : "refused");
	if (c == 'l') {
		deadline(20);
		fd = open(path("l"), O_WRONLY | O_CLOEXEC);
		say("lease: my open for writing, the holder exiting at its signal: %s", res(fd));
		if (fd >= 0)
			close(fd);
	}
	say("lease: holder: %s", reap(pid));

	/* a truncate breaks a read lease too */
	fd = open_or_die("l", O_RDONLY);
	r = fcntl(fd, F_SETLEASE, F_RDLCK);
	say("lease: a read lease for a truncate: %s", res(r));
	if (r == 0) {
		got_sig = 0;
		pid = fork_or_die();
		if (!pid) {
			deadline(20);
			put(done[1], truncate(path("l"), 0) == 0 ? '0' : '?');
			_exit(0);
		}
		say("lease: the holder's signal: %s", wait_signal());
		say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
		say("lease: the truncate: %c", get(done[0]));
		say("lease: truncater: %s", reap(pid));
	}
	close(fd);

	/* a signal while the open waits for the holder: EINTR, or with SA_RESTART the open
	 * made again (no second SIGIO: the break goes on), done once the lease is given
	 * up.  The signal is sent once the holder's SIGIO says the open is waiting. */
	for (int restart = 0; restart < 2; restart++) {
		fd = open_or_die("l", O_RDONLY);
		r = fcntl(fd, F_SETLEASE, F_RDLCK);
		say("lease: a read lease, an open for writing to interrupt%s: %s",
		    restart ? " (SA_RESTART)" : "", res(r));
		if (r) {
			close(fd);
			continue;
		}
		got_sig = 0;
		pid = fork_or_die();
		if (!pid) {
			struct sigaction sa = { .sa_handler = on_nothing,
						.sa_flags = restart ? SA_RESTART : 0 };
			int o;

			deadline(20);
			sigaction(SIGUSR2, &sa, NULL);
			o = open(path("l"), O_WRONLY | O_CLOEXEC);
			put(done[1], o >= 0 ? '0' : errno == EINTR ? 'I' : '?');
			_exit(0);
		}
		say("lease: the holder's signal: %s", wait_signal());
		say("lease: F_GETLEASE while it breaks: %s", lease_name(fcntl(fd, F_GETLEASE)));
		kill(pid, SIGUSR2);
		if (restart) {
			pause_ms(200);
			say("lease: the restarted open returned before the release: %s",
			    peek(done[0]) == '-' ? "no" : "yes");
			say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
			say("lease: the open: %c", get(done[0]));
		} else {
			say("lease: the interrupted open: %c", get(done[0]));
			say("lease: F_GETLEASE after it: %s", lease_name(fcntl(fd, F_GETLEASE)));
			say("lease: F_SETLEASE F_UNLCK: %s", res(fcntl(fd, F_SETLEASE, F_UNLCK)));
		}
		say("lease: opener: %s", reap(pid));
		close(fd);
	}

	/* not the owner: EACCES without CAP_LEASE */
	pid = fork_or_die();
	if (!pid) {
		fd = open_or_die("l", O_RDONLY);
		fchmod(fd, 0644);
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) {
			say("lease: setresuid: %s", res(-1));
			_exit(1);
		}
		say("lease: uid 1000, F_SETLEASE F_RDLCK of root's file: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		_exit(0);
	}
	say("lease: child: %s", reap(pid));
	if (chown(path("l"), 1000, 1000))
		say("lease: chown: %s", res(-1));
	pid = fork_or_die();
	if (!pid) {
		fd = open_or_die("l", O_RDONLY);
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000)) {
			say("lease: setresuid: %s", res(-1));
			_exit(1);
		}
		say("lease: uid 1000, F_SETLEASE F_RDLCK of its own file: %s", res(fcntl(fd, F_SETLEASE, F_RDLCK)));
		_exit(0);
	}
	say("lease: child: %s", reap(pid));
	close(done[0]);
	close(done[1]);
	close(rel[0]);
	close(rel[1]);
}

/* A process's POSIX lock on a file it execs survives the exec (the kernel's exec opens
 * the file with no descriptor), and one on a file whose exec fails stays too: `self`,
 * this program (argv[0], a path), re-run as "locks --held FD" to say so on FD */
static void exec_locks(const char *self)
{
	char *junk = path("junk"), num[16];
	int ready[2], fd;
	pid_t pid;

	test = "exec";
	if (pipe(ready))
		exit(1);
	pid = fork_or_die();
	if (!pid) {
		deadline(20);
		fd = open(self, O_RDONLY);
		say("exec: child: F_SETLK F_RDLCK of the program: %s", res(lk(fd, F_SETLK, F_RDLCK, 0, 0)));
		snprintf(num, sizeof(num), "%d", ready[1]);
		execl(self, self, "--held", num, (char *)NULL);
		_exit(1);
	}
	close(ready[1]);
	say("exec: the child ran the program again: %s", get(ready[0]) == 'e' ? "yes" : "no");
	fd = open(self, O_RDONLY | O_CLOEXEC);
	getlk("exec: F_GETLK of the program after the child's exec of it", fd, F_GETLK, F_WRLCK, 0, 0,
	      pid, 0);
	close(fd);
	kill(pid, SIGKILL);
	say("exec: child: %s", reap(pid));
	close(ready[0]);

	fd = open_or_die("junk", O_WRONLY | O_CREAT | O_TRUNC);
	if (write(fd, "\x01\x02junk", 6) != 6 || fchmod(fd, 0755))
		exit(1);
	close(fd);
	fd = open_or_die("junk", O_RDONLY);
	say("exec: F_SETLK F_RDLCK of a file: %s", res(lk(fd, F_SETLK, F_RDLCK, 0, 0)));
	execl(junk, junk, (char *)NULL);
	say("exec: its exec: %s", res(-1));
	pid = fork_or_die();
	if (!pid) {
		getlk("exec: child: F_GETLK of it after the failed exec", fd, F_GETLK, F_WRLCK, 0, 0, 0,
		      getppid());
		_exit(0);
	}
	say("exec: child: %s", reap(pid));
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--held")) {
		put(atoi(argv[2]), 'e');
		deadline(20);
		for (;;)
			pause();
	}
	if (argc != 2) {
		fprintf(stderr, "usage: locks DIR\n");
		return 2;
	}
	dir = argv[1];
	setpgid(0, 0);
	deadline(60);
	posix_locks();
	ofd_locks();
	flocks();
	leases();
	exec_locks(argv[0]);
	say("done");
	return 0;
}
