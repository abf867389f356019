// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_proc.c - exec, /proc listings and fdinfo: the parts the differential scripts
 * cannot ask the kernel about (a host exec needs a real program; pids and mount ids
 * differ between the two sides) — or asks it here (ETXTBSY).  Formats and errnos are
 * the kernel's: fdinfo as
 * fs/proc/fd.c prints it (checked by hand on 6.18: "pos:\t3\nflags:\t02100002\n
 * mnt_id:\t26\nino:\t..."), exec's EACCES for non-regular or non-executable files.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "uvfs/uvfs.h"

static void test_exec(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);
	char s[256];
	struct stat st;
	int fd;

	(void)state;
	uvfs_mkdirat(t, AT_FDCWD, "/bin", 0755);
	fd = uvfs_openat(t, AT_FDCWD, "/bin/prog", O_CREAT | O_WRONLY, 0755);
	assert_int_equal(uvfs_write(t, fd, "\177ELF", 4), 4);  /* the magic is all uvfs asks */
	assert_int_equal(uvfs_close(t, fd), 0);
	uvfs_mknodat(t, AT_FDCWD, "/bin/data", S_IFREG | 0644, 0);
	uvfs_mknodat(t, AT_FDCWD, "/bin/fifo", S_IFIFO | 0755, 0);
	uvfs_symlinkat(t, "prog", AT_FDCWD, "/bin/alias");
	uvfs_symlinkat(t, "loop", AT_FDCWD, "/bin/loop");
	assert_int_equal(uvfs_task_exec(t, "/bin/missing"), -ENOENT);
	assert_int_equal(uvfs_task_exec(t, "/bin/prog/x"), -ENOTDIR);
	assert_int_equal(uvfs_task_exec(t, "/bin/loop"), -ELOOP);
	assert_int_equal(uvfs_task_exec(t, "/bin"), -EACCES);
	assert_int_equal(uvfs_task_exec(t, "/bin/fifo"), -EACCES);
	assert_int_equal(uvfs_task_exec(t, "/bin/data"), -EACCES); /* no x bit, even root */
	/* no format: ENOEXEC after ETXTBSY, the file free to write afterwards; the
	 * kernel's answers are tests/regress/exec-no-format-enoexec.sys's */
	{
		static const struct {
			const char *name, *data;
			size_t len;
		} noexec[] = {
			{ "/bin/empty", "", 0 }, { "/bin/text", "hello", 5 },
			{ "/bin/short", "\177EL", 3 }, { "/bin/hash", "#", 1 },
			{ "/bin/nul", "\0\0\0\0", 4 }, { "/bin/bang", "!#", 2 },
		};

		for (size_t i = 0; i < sizeof(noexec) / sizeof(noexec[0]); i++) {
			fd = uvfs_openat(t, AT_FDCWD, noexec[i].name, O_CREAT | O_WRONLY, 0755);
			assert_int_equal(uvfs_write(t, fd, noexec[i].data, noexec[i].len),
					 (ssize_t)noexec[i].len);
			assert_int_equal(uvfs_task_exec(t, noexec[i].name), -ETXTBSY);
			assert_int_equal(uvfs_close(t, fd), 0);
			assert_int_equal(uvfs_task_exec(t, noexec[i].name), -ENOEXEC);
			fd = uvfs_openat(t, AT_FDCWD, noexec[i].name, O_WRONLY | O_TRUNC, 0);
			assert_true(fd >= 0);
			assert_int_equal(uvfs_close(t, fd), 0);
		}
		/* "#!" starts a script, whatever follows (the interpreter is the runner's) */
		fd = uvfs_openat(t, AT_FDCWD, "/bin/script", O_CREAT | O_WRONLY, 0755);
		assert_int_equal(uvfs_write(t, fd, "#!", 2), 2);
		assert_int_equal(uvfs_close(t, fd), 0);
	}
	assert_int_equal(uvfs_readlink_exe(t, s, sizeof(s)), -ENOENT);
	readlink_str(t, "/proc/self/exe", s, sizeof(s));
	assert_string_equal(s, "ENOENT");

	/* descriptors: O_CLOEXEC ones close, the others stay */
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/bin/data", O_RDONLY, 0), 0);
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/bin/data", O_RDONLY | O_CLOEXEC, 0), 1);
	assert_int_equal(uvfs_fcntl(t, 0, F_DUPFD_CLOEXEC, 5), 5);
	/* a failed exec closes nothing */
	assert_int_equal(uvfs_task_exec(t, "/bin/text"), -ENOEXEC);
	assert_int_equal(uvfs_fcntl(t, 1, F_GETFD, 0), FD_CLOEXEC);
	{
		struct uvfs_task *c = uvfs_task_fork(t);

		assert_int_equal(uvfs_task_exec(c, "/bin/script"), 0);
		assert_int_equal(uvfs_fcntl(c, 1, F_GETFD, 0), -EBADF);
		uvfs_task_exit(c);
	}
	assert_int_equal(uvfs_task_exec(t, "/bin/alias"), 0);
	assert_int_equal(uvfs_fcntl(t, 0, F_GETFD, 0), 0);
	assert_int_equal(uvfs_fcntl(t, 1, F_GETFD, 0), -EBADF);
	assert_int_equal(uvfs_fcntl(t, 5, F_GETFD, 0), -EBADF);
	/* the executable is the symlink's target, pinned: it follows renames */
	readlink_str(t, "/proc/self/exe", s, sizeof(s));
	assert_string_equal(s, "/bin/prog");
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/self/exe", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode, S_IFLNK | 0777);
	assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/bin/prog", AT_FDCWD, "/bin/moved", 0), 0);
	readlink_str(t, "/proc/self/exe", s, sizeof(s));
	assert_string_equal(s, "/bin/moved");
	assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, "/bin/moved", 0), 0);
	readlink_str(t, "/proc/self/exe", s, sizeof(s));
	assert_string_equal(s, "/bin/moved (deleted)");
	/* following the magic link reaches the deleted program */
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/self/exe", &st, 0), 0);
	assert_int_equal(st.st_nlink, 0);
	assert_int_equal(st.st_mode, S_IFREG | 0755);
	/* fork keeps the executable */
	{
		struct uvfs_task *c = uvfs_task_fork(t);

		assert_int_equal(uvfs_readlink_exe(c, s, sizeof(s)), 20);
		uvfs_task_exit(c);
	}
	uvfs_free(fs);
}

/* uvfs_task_exec_file: execveat(fd, "", AT_EMPTY_PATH) -- the open file runs, not
 * what its name is by now (a rename over it, as rpm's upgrade does, leaves the exe
 * "(deleted)"), with the checks of a walk's end: a symlink ELOOP (the kernel's
 * do_open_execat() of an O_PATH descriptor of one), no x bit EACCES, a writer ETXTBSY */
static void test_exec_file(void **state)
{
	struct uvfs *fs = uvfs_new(NULL), *other = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *o = uvfs_task_new(other);
	struct uvfs_file *f;
	char s[256];
	int fd, w;

	(void)state;
	uvfs_mkdirat(t, AT_FDCWD, "/bin", 0755);
	for (int i = 0; i < 2; i++) {
		fd = uvfs_openat(t, AT_FDCWD, i ? "/bin/new" : "/bin/prog", O_CREAT | O_WRONLY, 0755);
		assert_int_equal(uvfs_write(t, fd, "\177ELF", 4), 4);
		assert_int_equal(uvfs_close(t, fd), 0);
	}
	uvfs_mknodat(t, AT_FDCWD, "/bin/data", S_IFREG | 0644, 0);
	uvfs_symlinkat(t, "prog", AT_FDCWD, "/bin/alias");
	assert_int_equal(uvfs_task_exec_file(NULL, NULL), -EINVAL);
	assert_int_equal(uvfs_task_exec_file(t, NULL), -EINVAL);
	/* errors: nothing changes */
	fd = uvfs_openat(t, AT_FDCWD, "/bin/alias", O_PATH | O_NOFOLLOW, 0);
	f = uvfs_fget(t, fd);
	assert_int_equal(uvfs_task_exec_file(t, f), -ELOOP);
	uvfs_fput(f);
	uvfs_close(t, fd);
	fd = uvfs_openat(t, AT_FDCWD, "/bin/data", O_PATH, 0);
	f = uvfs_fget(t, fd);
	assert_int_equal(uvfs_task_exec_file(t, f), -EACCES);
	assert_int_equal(uvfs_task_exec_file(o, f), -EXDEV);
	uvfs_fput(f);
	uvfs_close(t, fd);
	fd = uvfs_openat(t, AT_FDCWD, "/bin/prog", O_PATH, 0);
	f = uvfs_fget(t, fd);
	w = uvfs_openat(t, AT_FDCWD, "/bin/prog", O_WRONLY, 0);
	assert_int_equal(uvfs_task_exec_file(t, f), -ETXTBSY);
	assert_int_equal(uvfs_close(t, w), 0);
	assert_int_equal(uvfs_readlink_exe(t, s, sizeof(s)), -ENOENT);
	/* the file runs after its name went to another: the exe is the old one's */
	assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/bin/new", AT_FDCWD, "/bin/prog", 0), 0);
	assert_int_equal(uvfs_task_exec_file(t, f), 0);
	assert_int_equal(uvfs_fcntl(t, fd, F_GETFD, 0), 0);  /* not close-on-exec: kept */
	uvfs_fput(f);
	readlink_str(t, "/proc/self/exe", s, sizeof(s));
	assert_string_equal(s, "/bin/prog (deleted)");
	/* the running file refuses writers through the descriptor's path as any exec's */
	w = uvfs_openat(t, AT_FDCWD, "/proc/self/exe", O_WRONLY, 0);
	assert_int_equal(w, -ETXTBSY);
	uvfs_task_exit(o);
	uvfs_free(other);
	uvfs_free(fs);
}

/* The kernel's answers, asked in this run: execve of a copy of /bin/true that a
 * descriptor has open for writing, and an open for writing of a running one.  Each
 * is 0 or -errno. */
static void kernel_txtbsy(int *exec_while_open, int *open_while_running)
{
	char dir[] = "/tmp/uvfs-txtbsy.XXXXXX", prog[64], cmd[160];
	int fd, status, pipefd[2];
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cp /bin/sleep %s", prog);
	assert_int_equal(system(cmd), 0);
	fd = open(prog, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	pid = fork();
	if (pid == 0) {
		execl(prog, prog, "0", (char *)NULL);
		_exit(errno);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	*exec_while_open = WIFEXITED(status) && WEXITSTATUS(status) ? -WEXITSTATUS(status) : 0;
	close(fd);
	/* a running one: the child execs, then tells us through a pipe closed on exec */
	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	if (pid == 0) {
		close(pipefd[0]);
		/* killed below: a sleep of a few seconds ended under a stall of the
		 * parent, and the open for writing then succeeded */
		execl(prog, prog, "infinity", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	{
		char c;

		assert_int_equal(read(pipefd[0], &c, 1), 0);  /* EOF: it has exec'ed */
	}
	close(pipefd[0]);
	fd = open(prog, O_WRONLY);
	*open_while_running = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	unlink(prog);
	rmdir(dir);
}

static void test_exec_txtbsy(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *child;
	int k_exec, k_open, fd;

	(void)state;
	kernel_txtbsy(&k_exec, &k_open);
	assert_int_equal(k_exec, -ETXTBSY);   /* what this kernel says, and uvfs must */
	assert_int_equal(k_open, -ETXTBSY);
	fd = uvfs_openat(t, AT_FDCWD, "/prog", O_CREAT | O_WRONLY, 0755);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_write(t, fd, "\177ELF", 4), 4);
	assert_int_equal(uvfs_task_exec(t, "/prog"), k_exec);
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(uvfs_task_exec(t, "/prog"), 0);
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/prog", O_WRONLY, 0), k_open);
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/prog", O_RDWR | O_TRUNC, 0), k_open);
	/* reading is fine; a fork's child runs it too */
	fd = uvfs_openat(t, AT_FDCWD, "/prog", O_RDONLY, 0);
	assert_true(fd >= 0);
	child = uvfs_task_fork(t);
	assert_non_null(child);
	assert_int_equal(uvfs_close(t, fd), 0);
	fd = uvfs_openat(t, AT_FDCWD, "/other", O_CREAT | O_WRONLY, 0755);
	assert_int_equal(uvfs_write(t, fd, "#!", 2), 2);
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(uvfs_task_exec(t, "/other"), 0);    /* the parent runs another */
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/prog", O_WRONLY, 0), k_open); /* child */
	uvfs_task_exit(child);
	fd = uvfs_openat(t, AT_FDCWD, "/prog", O_WRONLY, 0);
	assert_true(fd >= 0);                                 /* nobody runs it now */
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/other", O_WRONLY, 0), k_open);
	uvfs_free(fs);
}

/* What a task sees of a /proc/PID it holds (a descriptor and its cwd) after PID has
 * exited, as a list of answers; "%PID%" stands for the pid. */
struct exited_answers {
	char link[64];             /* readlink /proc/self/fd/N */
	long getdents, getcwd;     /* 0 or -errno */
	long stat_child, readlink_exe, stat_missing, stat_self;
};

/* link with the pid's directory (path) written as "/proc/%PID%" */
static void norm_link(char *out, size_t n, const char *link, const char *path)
{
	size_t l = strlen(path);

	if (!strncmp(link, path, l) && (size_t)snprintf(out, n, "/proc/%%PID%%%s", link + l) < n)
		return;
	if ((size_t)snprintf(out, n, "%s", link) >= n)
		fail_msg("link too long: %s", link);
}

static void kernel_exited(struct exited_answers *a)
{
	char path[64], buf[256], d[4096];
	int p[2], fd, home;
	struct stat st;
	pid_t c;
	ssize_t n;

	assert_int_equal(pipe(p), 0);
	c = fork();
	if (c == 0) {
		char x;

		_exit(read(p[0], &x, 1) == 1 ? 0 : 1);
	}
	snprintf(path, sizeof(path), "/proc/%d", c);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	home = open(".", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0 && home >= 0);
	assert_int_equal(chdir(path), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(waitpid(c, NULL, 0), c);
	{
		char self[64];

		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		n = readlink(self, buf, sizeof(buf) - 1);
	}
	assert_true(n > 0);
	buf[n] = 0;
	norm_link(a->link, sizeof(a->link), buf, path);  /* the pid as a placeholder */
	a->getdents = syscall(SYS_getdents64, fd, d, sizeof(d)) < 0 ? -errno : 0;
	a->getcwd = getcwd(buf, sizeof(buf)) ? 0 : -errno;
	a->stat_child = fstatat(fd, "fd", &st, 0) ? -errno : 0;
	a->readlink_exe = readlinkat(fd, "exe", buf, sizeof(buf)) < 0 ? -errno : 0;
	a->stat_missing = fstatat(fd, "nonexistent", &st, 0) ? -errno : 0;
	a->stat_self = fstatat(fd, "", &st, AT_EMPTY_PATH) ? -errno : 0;
	assert_int_equal(fchdir(home), 0);
	close(home);
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void test_exited_task(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *child = uvfs_task_fork(t);
	struct exited_answers k, u;
	char path[64], buf[256], d[4096];
	struct stat st;
	int fd;
	ssize_t n;

	(void)state;
	kernel_exited(&k);
	snprintf(path, sizeof(path), "/proc/%d", uvfs_task_pid(child));
	fd = uvfs_openat(t, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_chdir(t, path), 0);
	uvfs_task_exit(child);
	n = uvfs_readlink_fd(t, fd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	norm_link(u.link, sizeof(u.link), buf, path);
	u.getdents = uvfs_getdents64(t, fd, d, sizeof(d)) < 0 ? uvfs_getdents64(t, fd, d, sizeof(d)) : 0;
	u.getcwd = uvfs_getcwd(t, buf, sizeof(buf)) < 0 ? uvfs_getcwd(t, buf, sizeof(buf)) : 0;
	u.stat_child = uvfs_fstatat(t, fd, "fd", &st, 0);
	u.readlink_exe = uvfs_readlinkat(t, fd, "exe", buf, sizeof(buf)) < 0 ?
			 uvfs_readlinkat(t, fd, "exe", buf, sizeof(buf)) : 0;
	u.stat_missing = uvfs_fstatat(t, fd, "nonexistent", &st, 0);
	u.stat_self = uvfs_fstatat(t, fd, "", &st, AT_EMPTY_PATH);
	assert_string_equal(u.link, k.link);              /* "/proc/%PID% (deleted)" */
	assert_int_equal(u.getdents, k.getdents);          /* ENOENT */
	assert_int_equal(u.getcwd, k.getcwd);              /* ENOENT */
	assert_int_equal(u.stat_child, k.stat_child);      /* ESRCH */
	assert_int_equal(u.readlink_exe, k.readlink_exe);  /* ESRCH */
	assert_int_equal(u.stat_missing, k.stat_missing);  /* ESRCH */
	assert_int_equal(u.stat_self, k.stat_self);        /* 0 */
	uvfs_free(fs);
}

/* What a zombie's /proc/PID gives (do_exit() done, release_task() not yet) */
struct zombie_answers {
	long exe, cwd, root;      /* readlink: 0 or -errno */
	long fd_entries;          /* getdents of fd/ past . and ..: a count or -errno */
	long mounts, stat_self;   /* open of mounts; fstat of the directory */
};

static long count_entries(char *d, long n)
{
	long count = 0;

	for (long off = 0; off < n;) {
		struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; } *e = (void *)(d + off);

		if (strcmp(e->name, ".") && strcmp(e->name, ".."))
			count++;
		off += e->reclen;
	}
	return count;
}

static void kernel_zombie(struct zombie_answers *a)
{
	char path[64], buf[256], d[4096];
	int p[2], dir, fd;
	siginfo_t si;
	struct stat st;
	long n;
	pid_t c;

	assert_int_equal(pipe(p), 0);
	c = fork();
	if (c == 0) {
		char x;

		if (chdir("/tmp") || open("/proc/self/stat", O_RDONLY) < 0)
			_exit(2);
		_exit(read(p[0], &x, 1) == 1 ? 0 : 1);
	}
	snprintf(path, sizeof(path), "/proc/%d", c);
	dir = open(path, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	/* a zombie until reaped: waited for without reaping */
	assert_int_equal(waitid(P_PID, (id_t)c, &si, WEXITED | WNOWAIT), 0);
	a->exe = readlinkat(dir, "exe", buf, sizeof(buf)) < 0 ? -errno : 0;
	a->cwd = readlinkat(dir, "cwd", buf, sizeof(buf)) < 0 ? -errno : 0;
	a->root = readlinkat(dir, "root", buf, sizeof(buf)) < 0 ? -errno : 0;
	fd = openat(dir, "fd", O_RDONLY | O_DIRECTORY);
	n = fd < 0 ? -errno : syscall(SYS_getdents64, fd, d, sizeof(d));
	a->fd_entries = n < 0 ? (fd < 0 ? n : -errno) : count_entries(d, n);
	if (fd >= 0)
		close(fd);
	fd = openat(dir, "mounts", O_RDONLY);
	a->mounts = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	a->stat_self = fstat(dir, &st) ? -errno : 0;
	assert_int_equal(waitpid(c, NULL, 0), c);
	close(dir);
	close(p[0]);
	close(p[1]);
}

/*
 * uvfs_task_zombie(): an exited process its parent has not reaped keeps /proc/PID,
 * without descriptors, cwd, root, executable or namespace -- the answers the kernel
 * gives for one of its own zombies, asked in the same test; its files are closed
 * (a write lease is possible again), and uvfs_task_exit() then takes /proc/PID.
 */
static void test_zombie_task(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *child;
	struct zombie_answers k, u;
	char path[64], buf[256], d[4096];
	struct stat st;
	int dir, fd, lfd;
	long n;

	(void)state;
	kernel_zombie(&k);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/tmp", 01777), 0);
	lfd = uvfs_openat(t, AT_FDCWD, "/tmp/f", O_CREAT | O_RDONLY, 0644);
	child = uvfs_task_fork(t);
	assert_int_equal(uvfs_chdir(child, "/tmp"), 0);
	assert_true(uvfs_openat(child, AT_FDCWD, "/tmp/f", O_WRONLY, 0) >= 0);
	assert_int_equal(uvfs_fcntl(t, lfd, F_SETLEASE, F_WRLCK), -EAGAIN);
	snprintf(path, sizeof(path), "/proc/%d", uvfs_task_pid(child));
	dir = uvfs_openat(t, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);
	assert_true(dir >= 0);
	uvfs_task_zombie(child);
	u.exe = uvfs_readlinkat(t, dir, "exe", buf, sizeof(buf)) < 0 ?
		uvfs_readlinkat(t, dir, "exe", buf, sizeof(buf)) : 0;
	u.cwd = uvfs_readlinkat(t, dir, "cwd", buf, sizeof(buf)) < 0 ?
		uvfs_readlinkat(t, dir, "cwd", buf, sizeof(buf)) : 0;
	u.root = uvfs_readlinkat(t, dir, "root", buf, sizeof(buf)) < 0 ?
		 uvfs_readlinkat(t, dir, "root", buf, sizeof(buf)) : 0;
	fd = uvfs_openat(t, dir, "fd", O_RDONLY | O_DIRECTORY, 0);
	n = fd < 0 ? fd : uvfs_getdents64(t, fd, d, sizeof(d));
	u.fd_entries = n < 0 ? n : count_entries(d, n);
	if (fd >= 0)
		uvfs_close(t, fd);
	fd = uvfs_openat(t, dir, "mounts", O_RDONLY, 0);
	u.mounts = fd < 0 ? fd : 0;
	if (fd >= 0)
		uvfs_close(t, fd);
	u.stat_self = uvfs_fstat(t, dir, &st);
	assert_int_equal(u.exe, k.exe);                /* ENOENT */
	assert_int_equal(u.cwd, k.cwd);                /* ENOENT */
	assert_int_equal(u.root, k.root);              /* ENOENT */
	assert_int_equal(u.fd_entries, k.fd_entries);  /* 0 */
	assert_int_equal(u.mounts, k.mounts);          /* EINVAL */
	assert_int_equal(u.stat_self, k.stat_self);    /* 0 */
	/* its descriptors are closed: the write lease its writer refused is possible */
	assert_int_equal(uvfs_fcntl(t, lfd, F_SETLEASE, F_WRLCK), 0);
	assert_null(uvfs_task_fork(child));
	assert_int_equal(errno, EINVAL);
	/* reaped: /proc/PID is gone */
	uvfs_task_exit(child);
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, path, &st, 0), -ENOENT);
	uvfs_free(fs);
}

/* A listing of /proc that reached its end stays there: a pid that appears afterwards
 * is not returned before a rewind (proc_pid_readdir's end position, 4194562, which
 * tests/regress/proc-readdir-positions.sys checks against the kernel). */
static void test_proc_listing_end_is_sticky(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *child;
	char buf[4096];
	int fd = uvfs_openat(t, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY, 0);
	ssize_t n;

	(void)state;
	assert_true(fd >= 0);
	assert_true(uvfs_getdents64(t, fd, buf, sizeof(buf)) > 0);
	assert_int_equal(uvfs_getdents64(t, fd, buf, sizeof(buf)), 0);
	assert_int_equal(uvfs_lseek(t, fd, 0, SEEK_CUR), 4194562);
	child = uvfs_task_fork(t);
	assert_non_null(child);
	assert_int_equal(uvfs_getdents64(t, fd, buf, sizeof(buf)), 0);
	assert_int_equal(uvfs_lseek(t, fd, 0, SEEK_SET), 0);
	n = uvfs_getdents64(t, fd, buf, sizeof(buf));
	assert_true(n > 0);
	/* ".", "..", "self", "1", "2": the last record is the child's */
	{
		ssize_t off = 0, last = 0;

		while (off < n) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			last = off;
			off += reclen;
		}
		assert_string_equal(buf + last + 19, "2");
	}
	uvfs_free(fs);
}

/* the names of a directory's entries, each followed by a space, and the d_off of
 * the entry named at (or -1) */
static void list_dir(struct uvfs_task *t, const char *path, char *names, size_t size,
		     const char *at, long *at_off)
{
	char buf[8192];
	long n, off;
	const char *name;
	int fd = uvfs_openat(t, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);

	assert_true(fd >= 0);
	names[0] = 0;
	*at_off = -1;
	while ((n = uvfs_getdents64(t, fd, buf, sizeof(buf))) > 0)
		for (off = 0; off < n;) {
			int64_t d_off;

			memcpy(&d_off, buf + off + 8, 8);
			name = buf + off + 19;
			if (at && !strcmp(name, at))
				*at_off = (long)d_off;
			assert_true(strlen(names) + strlen(name) + 2 <= size);
			strcat(names, name);
			strcat(names, " ");
			off += *(unsigned short *)(buf + off + 16);
		}
	assert_int_equal(n, 0);
	uvfs_close(t, fd);
}

static ssize_t read_file(struct uvfs_task *t, const char *path, char *buf, size_t size)
{
	int fd = uvfs_openat(t, AT_FDCWD, path, O_RDONLY, 0);
	ssize_t n, got = 0;

	if (fd < 0)
		return fd;
	while ((n = uvfs_read(t, fd, buf + got, size - 1 - (size_t)got)) > 0)
		got += n;
	uvfs_close(t, fd);
	if (n < 0)
		return n;
	buf[got] = 0;
	return got;
}

static void test_proc_listing(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t1 = uvfs_task_new(fs), *t2 = uvfs_task_fork(t1);
	char buf[4096], names[512];
	char s[64];
	long n;
	int fd;

	(void)state;
	readlink_str(t1, "/proc/self", s, sizeof(s));
	assert_string_equal(s, "1");
	readlink_str(t2, "/proc/self", s, sizeof(s));
	assert_string_equal(s, "2");
	readlink_str(t2, "/proc/self/root", s, sizeof(s));
	assert_string_equal(s, "/");
	list_dir(t1, "/proc", names, sizeof(names), NULL, &n);
	assert_string_equal(names, ". .. sys mounts self thread-self 1 2 ");
	fd = uvfs_openat(t1, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY, 0);
	assert_true(fd >= 0);
	uvfs_task_exit(t2);
	assert_int_equal(uvfs_lseek(t1, fd, 0, SEEK_SET), 0);
	n = uvfs_getdents64(t1, fd, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(uvfs_openat(t1, AT_FDCWD, "/proc/2/fd", O_RDONLY, 0), -ENOENT);
	uvfs_close(t1, fd);
	uvfs_free(fs);
}

static void test_fdinfo(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);
	char want[128], got[128];
	struct stat st;
	int fd, info;
	ssize_t n;

	(void)state;
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_CREAT | O_RDWR | O_CLOEXEC, 0644);
	assert_int_equal(fd, 0);
	assert_int_equal(uvfs_write(t, fd, "abc", 3), 3);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	info = uvfs_openat(t, AT_FDCWD, "/proc/self/fdinfo/0", O_RDONLY, 0);
	assert_true(info > 0);
	n = uvfs_read(t, info, got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = 0;
	/* the root memfs is mount 2 (1 is the rootfs below it, as mountinfo shows) */
	snprintf(want, sizeof(want), "pos:\t3\nflags:\t02100002\nmnt_id:\t2\nino:\t%lu\n",
		 (unsigned long)st.st_ino);
	assert_string_equal(got, want);
	assert_int_equal(uvfs_read(t, info, got, sizeof(got)), 0);
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/self/fdinfo/0", &st, 0), 0);
	assert_int_equal(st.st_mode, S_IFREG | 0444);
	uvfs_free(fs);
}


/*
 * The embedder's source (uvfs_set_proc_source): which files it adds and where.  The
 * names, their order and the d_off of each are 6.18's (getdents64 of /proc/self and
 * /proc/self/task/TID on the kernel: "stat" is the 18th entry of tgid_base_stuff,
 * d_off 20; "fd" of a thread's directory d_off 3), filtered to the entries uvfs has.
 */
struct fake_source {
	struct uvfs_task *t;
	char wrote[64];
	int gen;
	int close_fd;  /* closed by the next read of cpuinfo, as another thread would */
};

static ssize_t fake_read(void *arg, int pid, int tid, const char *name, char *buf, size_t size)
{
	struct fake_source *src = arg;
	char text[8192], cwd[256];
	int n;

	if (!strcmp(name, "cmdline")) {
		/* longer than uvfs's first buffer: asked again with room */
		n = 6000;
		memset(text, 'x', (size_t)n);
	} else if (!strcmp(name, "maps")) {
		/* the source may call uvfs: it runs without the instance's lock */
		ssize_t l = uvfs_readlink_cwd(src->t, cwd, sizeof(cwd) - 1);

		if (l < 0)
			return l;
		cwd[l] = 0;
		n = snprintf(text, sizeof(text), "00400000-00401000 r-xp 00000000 00:00 0 %s\n", cwd);
	} else if (!strcmp(name, "environ")) {
		return -EIO;
	} else if (!strcmp(name, "cpuinfo") && src->close_fd >= 0) {
		/* the descriptor closed while its read is in the source */
		assert_int_equal(uvfs_close(src->t, src->close_fd), 0);
		src->close_fd = -1;
		n = snprintf(text, sizeof(text), "closed meanwhile\n");
	} else if (!strcmp(name, "uptime")) {
		/* a text that changes, in length too, at every call */
		src->gen++;
		n = snprintf(text, sizeof(text), "uptime %d %s\n", src->gen,
			     src->gen % 2 ? "odd" : "even, longer");
	} else {
		n = snprintf(text, sizeof(text), "%s %d %d\n", name, pid, tid);
	}
	if ((size_t)n <= size)
		memcpy(buf, text, (size_t)n);
	return n;
}

static ssize_t fake_write(void *arg, int pid, int tid, const char *name, const void *buf,
			  size_t len)
{
	struct fake_source *src = arg;

	snprintf(src->wrote, sizeof(src->wrote), "%s %d %d %.*s", name, pid, tid, (int)len,
		 (const char *)buf);
	return (ssize_t)len;
}

static int fake_tids(void *arg, int pid, int *tids, size_t max)
{
	static const int one[] = { 1, 7, 9 };

	(void)arg;
	if (pid != 1) {
		if (max)
			tids[0] = pid;
		return 1;
	}
	for (size_t i = 0; i < 3 && i < max; i++)
		tids[i] = one[i];
	return 3;
}

/* 7 and 9 are threads of 1; every other number is its own process or none */
static int fake_tgid(void *arg, int tid)
{
	(void)arg;
	return tid == 7 || tid == 9 ? 1 : tid == 1 || tid == 2 ? tid : -ESRCH;
}

static int fake_current_tid(void *arg, int pid)
{
	(void)arg;
	return pid == 1 ? 7 : -1;
}

static void test_proc_source(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *t2 = uvfs_task_fork(t);
	struct fake_source src = { .t = t, .close_fd = -1 };
	const struct uvfs_proc_source ops = {
		.read = fake_read, .write = fake_write, .tids = fake_tids,
		.current_tid = fake_current_tid, .tgid = fake_tgid,
	};
	const struct uvfs_proc_source no_read = { .write = fake_write };
	char names[2048], buf[8192];
	long d_off;
	int fd;

	(void)state;
	/* without a source: /proc/mounts, thread-self, sys, task; nothing of the source's */
	readlink_str(t, "/proc/mounts", buf, sizeof(buf));
	assert_string_equal(buf, "self/mounts");
	readlink_str(t, "/proc/thread-self", buf, sizeof(buf));
	assert_string_equal(buf, "1/task/1");
	assert_true(read_file(t, "/proc/mounts", buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, " /proc proc "));
	list_dir(t, "/proc/1/task", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 1 ");
	list_dir(t, "/proc/thread-self", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. fd fdinfo cwd root exe mounts mountinfo ");
	list_dir(t, "/proc/sys", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. ");
	assert_int_equal(read_file(t, "/proc/1/stat", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(read_file(t, "/proc/loadavg", buf, sizeof(buf)), -ENOENT);

	assert_int_equal(uvfs_set_proc_source(NULL, &ops, &src), -EINVAL);
	assert_int_equal(uvfs_set_proc_source(fs, &no_read, &src), -EINVAL);
	assert_int_equal(uvfs_set_proc_source(fs, &ops, &src), 0);
	list_dir(t, "/proc/1", names, sizeof(names), "stat", &d_off);
	assert_string_equal(names, ". .. task fd fdinfo ns environ auxv status personality limits "
			    "sched comm syscall cmdline stat statm maps mem cwd root exe mounts "
			    "mountinfo smaps smaps_rollup wchan stack schedstat cpuset cgroup "
			    "oom_score oom_adj oom_score_adj loginuid sessionid coredump_filter io "
			    "uid_map gid_map setgroups timerslack_ns ");
	assert_int_equal(d_off, 20);
	/* the last entry uvfs has: the next index, as the kernel's entry after it makes
	 * it natively (d_off 53 for timerslack_ns, 46 for a thread's setgroups) */
	list_dir(t, "/proc/1", names, sizeof(names), "timerslack_ns", &d_off);
	assert_int_equal(d_off, 53);
	list_dir(t, "/proc/1/task/7", names, sizeof(names), "setgroups", &d_off);
	assert_int_equal(d_off, 46);
	list_dir(t, "/proc/1/task/7", names, sizeof(names), "fd", &d_off);
	assert_string_equal(names, ". .. fd fdinfo ns environ auxv status personality limits "
			    "sched comm syscall cmdline stat statm maps children mem cwd root exe "
			    "mounts mountinfo smaps smaps_rollup wchan stack schedstat cpuset "
			    "cgroup oom_score oom_adj oom_score_adj loginuid sessionid io uid_map "
			    "gid_map setgroups ");
	assert_int_equal(d_off, 3);
	/* a thread's setgroups is tid_base_stuff's 44th (projid_map 43rd): position 45,
	 * where a seek finds it; from 46 (arch_status on the kernel) nothing uvfs has */
	fd = uvfs_openat(t, AT_FDCWD, "/proc/1/task/7", O_RDONLY | O_DIRECTORY, 0);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_lseek(t, fd, 45, SEEK_SET), 45);
	assert_true(uvfs_getdents64(t, fd, buf, sizeof(buf)) > 0);
	assert_string_equal(buf + 19, "setgroups");
	assert_int_equal(uvfs_lseek(t, fd, 46, SEEK_SET), 46);
	assert_int_equal(uvfs_getdents64(t, fd, buf, sizeof(buf)), 0);
	uvfs_close(t, fd);
	list_dir(t, "/proc", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. sys stat locks swaps mounts uptime vmstat cmdline "
			    "cpuinfo devices loadavg meminfo version config.gz diskstats partitions "
			    "filesystems self thread-self 1 2 ");
	list_dir(t, "/proc/1/task", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 1 7 9 ");
	/* ns: 6.18's order (ls -f /proc/self/ns), the source's text; nothing behind */
	list_dir(t, "/proc/1/ns", names, sizeof(names), "mnt", &d_off);
	assert_string_equal(names, ". .. net uts ipc pid pid_for_children user mnt cgroup time "
			    "time_for_children ");
	assert_int_equal(d_off, 9);
	readlink_str(t, "/proc/1/task/7/ns/mnt", buf, sizeof(buf));
	assert_string_equal(buf, "ns/mnt 1 7\n");
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/proc/1/ns/net", O_RDONLY, 0), -ENOENT);

	assert_int_equal(read_file(t, "/proc/1/stat", buf, sizeof(buf)), 9);
	assert_string_equal(buf, "stat 1 0\n");
	/* /proc/TID of a thread that does not lead: found, not listed, its files the
	 * thread's; its task directory the process's; a task directory's links 2 and
	 * one a thread (proc_task_getattr()) */
	{
		struct stat st;

		assert_int_equal(read_file(t, "/proc/7/status", buf, sizeof(buf)), 11);
		assert_string_equal(buf, "status 1 7\n");
		list_dir(t, "/proc/9/task", names, sizeof(names), NULL, &d_off);
		assert_string_equal(names, ". .. 1 7 9 ");
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/8", &st, 0), -ENOENT);
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/task", &st, 0), 0);
		assert_int_equal(st.st_nlink, 5);
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/2/task", &st, 0), 0);
		assert_int_equal(st.st_nlink, 3);
		fd = uvfs_openat(t, AT_FDCWD, "/proc/7", O_RDONLY | O_DIRECTORY, 0);
		assert_true(fd >= 0);
		assert_int_equal(uvfs_proc_pid(t, fd), -EXDEV);  /* not a process's */
		uvfs_close(t, fd);
	}
	assert_int_equal(read_file(t, "/proc/self/task/9/status", buf, sizeof(buf)), 11);
	assert_string_equal(buf, "status 1 9\n");
	assert_int_equal(read_file(t, "/proc/loadavg", buf, sizeof(buf)), 12);
	assert_string_equal(buf, "loadavg 0 0\n");
	assert_int_equal(read_file(t, "/proc/2/cmdline", buf, sizeof(buf)), 6000);
	assert_int_equal(read_file(t, "/proc/1/maps", buf, sizeof(buf)), 42);
	assert_string_equal(buf, "00400000-00401000 r-xp 00000000 00:00 0 /\n");
	assert_int_equal(read_file(t, "/proc/1/environ", buf, sizeof(buf)), -EIO);
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/proc/1/task/8", O_RDONLY, 0), -ENOENT);
	readlink_str(t, "/proc/thread-self", buf, sizeof(buf));
	assert_string_equal(buf, "1/task/7");
	readlink_str(t2, "/proc/thread-self", buf, sizeof(buf));
	assert_string_equal(buf, "2/task/2");
	assert_int_equal(read_file(t, "/proc/thread-self/comm", buf, sizeof(buf)), 9);
	assert_string_equal(buf, "comm 1 7\n");

	/* one text per open file, as seq_read() keeps its buffer: read in pieces, it is
	 * the text the first read made; a read at 0 makes it anew */
	fd = uvfs_openat(t, AT_FDCWD, "/proc/uptime", O_RDONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_read(t, fd, buf, 3), 3);
	assert_int_equal(uvfs_read(t, fd, buf + 3, sizeof(buf) - 4), 10);
	buf[13] = 0;
	assert_string_equal(buf, "uptime 1 odd\n");
	assert_int_equal(uvfs_read(t, fd, buf, sizeof(buf)), 0);
	assert_int_equal(uvfs_lseek(t, fd, 0, SEEK_SET), 0);
	assert_int_equal(uvfs_read(t, fd, buf, sizeof(buf) - 1), 22);
	buf[22] = 0;
	assert_string_equal(buf, "uptime 2 even, longer\n");
	assert_int_equal(uvfs_pread(t, fd, buf, 6, 15), 6);
	assert_memory_equal(buf, "longer", 6);
	uvfs_close(t, fd);

	/* its descriptor closed while the source makes the text: the read gives the text,
	 * as the kernel's read holds the file to its end, and the file goes after it with
	 * the text (not kept with a file already released: ASan's leak check) */
	fd = uvfs_openat(t, AT_FDCWD, "/proc/cpuinfo", O_RDONLY, 0);
	assert_true(fd >= 0);
	src.close_fd = fd;
	assert_int_equal(uvfs_read(t, fd, buf, sizeof(buf)), 17);
	assert_memory_equal(buf, "closed meanwhile\n", 17);
	assert_int_equal(uvfs_read(t, fd, buf, sizeof(buf)), -EBADF);

	/* writes: to the writable ones, the source's; the others have no ->write */
	fd = uvfs_openat(t, AT_FDCWD, "/proc/1/comm", O_WRONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_write(t, fd, "food\n", 5), 5);
	uvfs_close(t, fd);
	assert_string_equal(src.wrote, "comm 1 0 food\n");
	fd = uvfs_openat(t, AT_FDCWD, "/proc/1/stat", O_WRONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_write(t, fd, "x", 1), -EINVAL);
	uvfs_close(t, fd);

	/* mem: which file, for a runner to give the kernel's (uvfs_proc_file) */
	{
		char name[8];
		int tid = -1, dirfd;

		fd = uvfs_openat(t, AT_FDCWD, "/proc/1/mem", O_RDWR, 0);
		assert_true(fd >= 0);
		assert_int_equal(uvfs_proc_file(t, fd, &tid, name, sizeof(name)), 1);
		assert_string_equal(name, "mem");
		assert_int_equal(tid, 0);
		assert_int_equal(uvfs_proc_file(t, fd, NULL, name, 3), -ERANGE);
		assert_int_equal(uvfs_proc_file(NULL, fd, NULL, name, sizeof(name)), -EINVAL);
		assert_int_equal(uvfs_proc_file(t, 999, NULL, name, sizeof(name)), -EBADF);
		uvfs_close(t, fd);
		fd = uvfs_openat(t, AT_FDCWD, "/proc/1/task/9/mem", O_RDONLY, 0);
		assert_int_equal(uvfs_proc_file(t, fd, &tid, name, sizeof(name)), 1);
		assert_int_equal(tid, 9);
		uvfs_close(t, fd);
		dirfd = uvfs_openat(t, AT_FDCWD, "/proc/1", O_RDONLY | O_DIRECTORY, 0);
		assert_int_equal(uvfs_proc_file(t, dirfd, NULL, name, sizeof(name)), -EXDEV);
		uvfs_close(t, dirfd);
		fd = uvfs_openat(t, AT_FDCWD, "/proc/loadavg", O_RDONLY, 0);
		assert_int_equal(uvfs_proc_file(t, fd, NULL, name, sizeof(name)), -EXDEV);
		uvfs_close(t, fd);
	}

	/* another user's process: maps and environ need ptrace_may_access(), stat not */
	assert_int_equal(uvfs_setresuid(t2, 1000, 1000, 1000), 0);
	assert_int_equal(uvfs_openat(t2, AT_FDCWD, "/proc/1/mem", O_RDONLY, 0), -EACCES);
	assert_int_equal(uvfs_openat(t2, AT_FDCWD, "/proc/1/maps", O_RDONLY, 0), -EACCES);
	assert_int_equal(uvfs_openat(t2, AT_FDCWD, "/proc/1/environ", O_RDONLY, 0), -EACCES);
	assert_int_equal(read_file(t2, "/proc/1/stat", buf, sizeof(buf)), 9);
	/* ... and the ns links, read or followed (proc_ns_get_link(), proc_ns_readlink()) */
	assert_int_equal(uvfs_readlinkat(t2, AT_FDCWD, "/proc/1/ns/net", buf, sizeof(buf)),
			 -EACCES);
	assert_int_equal(uvfs_readlinkat(t2, AT_FDCWD, "/proc/1/task/7/ns/mnt", buf,
					 sizeof(buf)), -EACCES);
	assert_int_equal(uvfs_openat(t2, AT_FDCWD, "/proc/1/ns/net", O_RDONLY, 0), -EACCES);
	assert_int_equal(uvfs_readlinkat(t, AT_FDCWD, "/proc/2/ns/net", buf, sizeof(buf)), 11);

	/* a file open when its process goes: ESRCH (get_proc_task() in the show) */
	fd = uvfs_openat(t, AT_FDCWD, "/proc/2/stat", O_RDONLY, 0);
	assert_true(fd >= 0);
	uvfs_task_exit(t2);
	assert_int_equal(uvfs_read(t, fd, buf, sizeof(buf)), -ESRCH);
	uvfs_close(t, fd);

	/* the source taken away: its entries go with it */
	assert_int_equal(uvfs_set_proc_source(fs, NULL, NULL), 0);
	assert_int_equal(read_file(t, "/proc/uptime", buf, sizeof(buf)), -ENOENT);
	list_dir(t, "/proc/1/task", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 1 ");
	uvfs_free(fs);
}

/*
 * The embedder's descriptors (uvfs_set_proc_fd_source) beside uvfs's, as the kernel
 * lists a whole table: ascending in one listing, a number uvfs has a file at shown
 * as uvfs's, the link's text and mode the embedder's, fdinfo its text; following
 * such a link ENOENT (uvfs has no file behind it), another user's EACCES.
 */
struct fake_fds {
	int n;                 /* how many of 0, 1, 2, 9, 70 the process has */
	mode_t mode9;          /* the link mode of 9 */
	int calls;
};

static int fake_fd_list(void *arg, int pid, struct uvfs_proc_fd *fds, size_t max)
{
	static const int nums[] = { 0, 1, 2, 9, 70 };
	struct fake_fds *f = arg;

	f->calls++;
	if (pid != 1)
		return -ESRCH;
	for (int i = 0; i < f->n && (size_t)i < max; i++) {
		fds[i].fd = nums[i];
		fds[i].mode = nums[i] == 9 ? f->mode9 : nums[i] ? 0300 : 0500;
	}
	return f->n;
}

static ssize_t fake_fd_readlink(void *arg, int pid, int fd, char *buf, size_t size)
{
	char text[32];
	int n = snprintf(text, sizeof(text), fd == 9 ? "socket:[%d]" : "/dev/pts/%d", fd + pid);

	(void)arg;
	if ((size_t)n <= size)
		memcpy(buf, text, (size_t)n);
	return n;
}

static ssize_t fake_fdinfo(void *arg, int pid, int fd, char *buf, size_t size)
{
	char text[700];
	int n;

	(void)arg;
	/* longer than uvfs's first buffer for fd 70: asked again with room */
	n = snprintf(text, sizeof(text), "pos:\t0\nflags:\t02\nfd:\t%d %d\n%s", fd, pid,
		     fd == 70 ? "x" : "");
	if (fd == 70) {
		memset(text + n, 'y', 600);
		n += 600;
	}
	if ((size_t)n <= size)
		memcpy(buf, text, (size_t)n);
	return n;
}

static void test_proc_fd_source(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs), *t2 = uvfs_task_fork(t);
	struct fake_fds f = { .n = 5, .mode9 = 0700 };
	const struct uvfs_proc_fd_source ops = {
		.fds = fake_fd_list, .readlink = fake_fd_readlink, .fdinfo = fake_fdinfo,
	};
	const struct uvfs_proc_fd_source no_link = { .fds = fake_fd_list };
	char names[2048], buf[8192];
	struct stat st;
	long d_off;
	int fd, fd2;

	(void)state;
	assert_int_equal(uvfs_set_proc_fd_source(NULL, &ops, &f), -EINVAL);
	assert_int_equal(uvfs_set_proc_fd_source(fs, &no_link, &f), -EINVAL);
	assert_int_equal(uvfs_set_proc_fd_source(fs, &ops, &f), 0);
	/* uvfs's first two descriptors take 0 and 1: the embedder's there are hidden */
	fd = uvfs_openat(t, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY, 0);
	assert_int_equal(fd, 0);
	fd2 = uvfs_openat(t, AT_FDCWD, "/proc/1/fd", O_RDONLY | O_DIRECTORY, 0);
	assert_int_equal(fd2, 1);
	assert_int_equal(uvfs_dup3(t, fd, 5, 0), 5);
	f.calls = 0;
	/* (2: uvfs's, list_dir's own descriptor of the directory) */
	list_dir(t, "/proc/1/fd", names, sizeof(names), "70", &d_off);
	assert_string_equal(names, ". .. 0 1 2 5 9 70 ");
	/* one question to the embedder per getdents64 call (the one that lists, the one
	 * that finds the end), not one per entry */
	assert_int_equal(f.calls, 2);
	assert_int_equal(d_off, 73);
	list_dir(t, "/proc/1/fdinfo", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 0 1 2 5 9 70 ");
	/* a process the embedder knows nothing of: uvfs's alone */
	list_dir(t2, "/proc/2/fd", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 0 ");

	readlink_str(t, "/proc/1/fd/2", buf, sizeof(buf));
	assert_string_equal(buf, "/dev/pts/3");
	readlink_str(t, "/proc/self/fd/9", buf, sizeof(buf));
	assert_string_equal(buf, "socket:[10]");
	readlink_str(t, "/proc/1/fd/0", buf, sizeof(buf));
	assert_string_equal(buf, "/");
	/* readlink truncates silently, as for any link */
	assert_int_equal(uvfs_readlinkat(t, AT_FDCWD, "/proc/1/fd/9", buf, 4), 4);
	assert_memory_equal(buf, "sock", 4);
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/9", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode, S_IFLNK | 0700);
	assert_int_equal(st.st_size, 64);
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/2", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode, S_IFLNK | 0300);
	/* nothing uvfs has behind it */
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/2", &st, 0), -ENOENT);
	assert_int_equal(uvfs_openat(t, AT_FDCWD, "/proc/1/fd/9", O_RDONLY, 0), -ENOENT);
	assert_int_equal(uvfs_chdir(t, "/proc/1/fd/70"), -ENOENT);
	/* no such descriptor */
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/8", &st, AT_SYMLINK_NOFOLLOW),
			 -ENOENT);
	assert_int_equal(read_file(t, "/proc/1/fdinfo/9", buf, sizeof(buf)), 25);
	assert_string_equal(buf, "pos:\t0\nflags:\t02\nfd:\t9 1\n");
	assert_int_equal(read_file(t, "/proc/1/fdinfo/70", buf, sizeof(buf)), 627);

	/* the embedder's mode changes: the cached entry follows it (tid_fd_revalidate) */
	f.mode9 = 0500;
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/9", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(st.st_mode, S_IFLNK | 0500);
	/* ... and it closes 9 and 70: gone from the listing and from lookups */
	f.n = 3;
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/9", &st, AT_SYMLINK_NOFOLLOW),
			 -ENOENT);
	list_dir(t, "/proc/1/fd", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 0 1 2 5 ");
	/* uvfs opens a file at 2: uvfs's from then on */
	assert_int_equal(uvfs_dup3(t, fd, 2, 0), 2);
	readlink_str(t, "/proc/1/fd/2", buf, sizeof(buf));
	assert_string_equal(buf, "/");
	assert_int_equal(uvfs_fstatat(t, AT_FDCWD, "/proc/1/fd/2", &st, 0), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(uvfs_close(t, 2), 0);
	readlink_str(t, "/proc/1/fd/2", buf, sizeof(buf));
	assert_string_equal(buf, "/dev/pts/3");

	/* another user: EACCES, read or followed (proc_fd_access_allowed()) */
	assert_int_equal(uvfs_setresuid(t2, 1000, 1000, 1000), 0);
	assert_int_equal(uvfs_readlinkat(t2, AT_FDCWD, "/proc/1/fd/1", buf, sizeof(buf)),
			 -EACCES);
	assert_int_equal(uvfs_readlinkat(t2, AT_FDCWD, "/proc/1/fd/2", buf, sizeof(buf)),
			 -EACCES);

	/* taken away: uvfs's alone again */
	assert_int_equal(uvfs_set_proc_fd_source(fs, NULL, NULL), 0);
	list_dir(t, "/proc/1/fd", names, sizeof(names), NULL, &d_off);
	assert_string_equal(names, ". .. 0 1 2 5 ");
	assert_int_equal(uvfs_readlinkat(t, AT_FDCWD, "/proc/1/fd/9", buf, sizeof(buf)), -ENOENT);
	uvfs_free(fs);
}

/*
 * Nested pid namespaces (uvfs_proc_source.pidns, ns_pid, read_ns): a proc mounted by
 * a process of namespace 7 -- tasks 3 and 4 there, numbered 1 and 2 -- shows only
 * them, by those numbers, in order; /proc/self is the reader's number there, ENOENT
 * for a reader outside; /proc/N's files are read through read_ns, for uvfs's pid;
 * the instance's own /proc is as it was.
 */
static uint64_t ns_of(void *arg, int pid)
{
	(void)arg;
	return pid >= 3 ? 7 : 0;
}

static int nr_in(void *arg, uint64_t ns, int id)
{
	(void)arg;
	return ns == 7 && id >= 3 && id <= 4 ? (id == 3 ? 2 : 1) : 0;
}

static ssize_t read_in(void *arg, uint64_t ns, int pid, int tid, const char *name, char *buf,
		       size_t size)
{
	int n = snprintf(buf, size, "ns %llu %s %d %d\n", (unsigned long long)ns, name, pid, tid);

	(void)arg;
	return n;
}

static void test_proc_pidns(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t1 = uvfs_task_new(fs), *t2 = uvfs_task_fork(t1), *t3 = uvfs_task_fork(t2),
			 *t4 = uvfs_task_fork(t3);
	struct fake_source src = { .t = t1, .close_fd = -1 };
	const struct uvfs_proc_source ops = {
		.read = fake_read, .tids = fake_tids, .pidns = ns_of, .ns_pid = nr_in,
		.read_ns = read_in,
	};
	char names[512], buf[256];
	long d_off;

	(void)state;
	assert_int_equal(uvfs_set_proc_source(fs, &ops, &src), 0);
	assert_int_equal(uvfs_mkdirat(t1, AT_FDCWD, "/p", 0755), 0);
	assert_int_equal(uvfs_mkdirat(t1, AT_FDCWD, "/q", 0755), 0);
	assert_int_equal(uvfs_mount2(t3, "proc", "/p", "proc", 0, NULL), 0);
	assert_int_equal(uvfs_mount2(t1, "proc", "/q", "proc", 0, NULL), 0);
	/* 4 is 1 there, 3 is 2: listed by those numbers, ascending */
	list_dir(t1, "/p", names, sizeof(names), NULL, &d_off);
	assert_non_null(strstr(names, " self thread-self 1 2 "));
	assert_null(strstr(names, " 3 "));
	list_dir(t1, "/q", names, sizeof(names), NULL, &d_off);
	assert_non_null(strstr(names, " self thread-self 1 2 3 4 "));
	readlink_str(t3, "/p/self", buf, sizeof(buf));
	assert_string_equal(buf, "2");
	readlink_str(t4, "/p/thread-self", buf, sizeof(buf));
	assert_string_equal(buf, "1/task/1");
	assert_int_equal(uvfs_readlinkat(t1, AT_FDCWD, "/p/self", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(uvfs_openat(t1, AT_FDCWD, "/p/self/stat", O_RDONLY, 0), -ENOENT);
	readlink_str(t3, "/q/self", buf, sizeof(buf));
	assert_string_equal(buf, "3");
	/* /p/1 is task 4: read_ns, with uvfs's pid; /q's the plain read */
	assert_true(read_file(t1, "/p/1/stat", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "ns 7 stat 4 0\n");
	assert_true(read_file(t1, "/p/2/task/2/status", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "ns 7 status 3 3\n");
	assert_int_equal(read_file(t1, "/p/3/stat", buf, sizeof(buf)), -ENOENT);
	assert_true(read_file(t1, "/q/4/stat", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "stat 4 0\n");
	readlink_str(t4, "/p/1/cwd", buf, sizeof(buf));
	assert_string_equal(buf, "/");
	uvfs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_exec_file),
		cmocka_unit_test(test_exec_txtbsy),
		cmocka_unit_test(test_exited_task),
		cmocka_unit_test(test_zombie_task),
		cmocka_unit_test(test_proc_listing_end_is_sticky),
		cmocka_unit_test(test_proc_listing),
		cmocka_unit_test(test_fdinfo),
		cmocka_unit_test(test_proc_source),
		cmocka_unit_test(test_proc_fd_source),
		cmocka_unit_test(test_proc_pidns),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
