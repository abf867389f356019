// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ltpfound.c DIR - what the Linux Test Project found wrong in uvfs-run's decoding of
 * calls (issue 33), with files of DIR: F_CREATED_QUERY; O_NOATIME reads; getdents
 * counts of 0 and past INT_MAX, and into a buffer that ends in PROT_NONE; readv/writev vectors of a negative length and more
 * than UIO_MAXIOV of them; the calls an O_PATH descriptor is EBADF for and those it
 * may make; the f*xattr calls' argument checks before the descriptor's; linkat,
 * renameat and symlinkat with a bad second descriptor; a followed symlink's atime;
 * RLIMIT_FSIZE (EFBIG and SIGXFSZ).
 * One line per result; test_ltpfound.sh compares them with the kernel's (a tmpfs)
 * on uvfs-run's memfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef F_CREATED_QUERY
#define F_CREATED_QUERY 1028
#endif

#define R(what, e) do { \
	long r_ = (long)(e); \
	printf("%-44s %ld %s\n", what, r_, r_ < 0 ? strerrorname_np(errno) : ""); \
} while (0)

static char path[4096];

static const char *at(const char *dir, const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* whether PATH's atime changed since the last look (each file is looked at before
 * the call that must change it: multigrain timestamps) */
static struct timespec last_atime;

static void atime(const char *what, const char *p)
{
	struct stat st;

	if (lstat(p, &st)) {
		printf("%-44s lstat %s\n", what, strerrorname_np(errno));
		return;
	}
	printf("%-44s %s\n", what,
	       st.st_atim.tv_sec == last_atime.tv_sec && st.st_atim.tv_nsec == last_atime.tv_nsec
	       ? "atime same" : "atime changed");
	last_atime = st.st_atim;
}

static void created_query(const char *dir)
{
	int fd = open(at(dir, "cq"), O_CREAT | O_RDWR, 0644);

	R("F_CREATED_QUERY, created", fcntl(fd, F_CREATED_QUERY));
	R("F_CREATED_QUERY, its dup", fcntl(dup(fd), F_CREATED_QUERY));
	R("F_CREATED_QUERY, O_CREAT of it again", fcntl(open(path, O_CREAT | O_RDWR, 0644), F_CREATED_QUERY));
	R("F_CREATED_QUERY, O_PATH", fcntl(open(path, O_PATH), F_CREATED_QUERY));
	R("F_CREATED_QUERY, O_EXCL", fcntl(open(at(dir, "cq2"), O_CREAT | O_EXCL | O_WRONLY, 0600), F_CREATED_QUERY));
	R("F_CREATED_QUERY, O_TMPFILE", fcntl(open(dir, O_TMPFILE | O_RDWR, 0600), F_CREATED_QUERY));
}

static void noatime(const char *dir)
{
	char buf[8];
	int fd = open(at(dir, "na"), O_CREAT | O_RDWR, 0644), na;

	R("write", write(fd, "hello", 5));
	atime("file made", path);
	na = open(path, O_RDONLY | O_NOATIME);
	R("O_NOATIME open, F_GETFL", fcntl(na, F_GETFL));
	R("read through O_NOATIME", read(na, buf, 3));
	atime("after it", path);
	R("read through the other", pread(fd, buf, 3, 0));
	atime("after it", path);
	R("pwrite", pwrite(fd, "x", 1, 0));
	atime("after it", path);
	R("F_SETFL O_NOATIME", fcntl(fd, F_SETFL, O_NOATIME));
	R("pread", pread(fd, buf, 3, 0));
	atime("after it", path);
}

static void getdents_counts(const char *dir)
{
	char buf[4096];
	int d, op;

	mkdir(at(dir, "gd"), 0755);
	close(open(at(dir, "gd/a"), O_CREAT | O_WRONLY, 0644));
	d = open(at(dir, "gd"), O_RDONLY | O_DIRECTORY);
	op = open(path, O_PATH);
	R("getdents64 count 0, entries due", syscall(SYS_getdents64, d, buf, 0));
	R("getdents count 0, entries due", syscall(SYS_getdents, d, buf, 0));
	R("getdents64 count 2^31", syscall(SYS_getdents64, d, buf, 0x80000000u));
	R("getdents count 2^31", syscall(SYS_getdents, d, buf, 0x80000000u));
	R("getdents64 count 2^32-1", syscall(SYS_getdents64, d, buf, 0xffffffffu));
	R("getdents64 count 10", syscall(SYS_getdents64, d, buf, 10));
	R("getdents64 count 0, NULL buffer", syscall(SYS_getdents64, d, NULL, 0));
	R("getdents64 count 2^32+100 (100)", syscall(SYS_getdents64, d, buf, 0x100000064ul));
	R("getdents64 4096 at the end", syscall(SYS_getdents64, d, buf, sizeof(buf)));
	R("getdents64 count 0 at the end", syscall(SYS_getdents64, d, buf, 0));
	R("getdents count 0 at the end", syscall(SYS_getdents, d, buf, 0));
	R("getdents64 count 2^31 at the end", syscall(SYS_getdents64, d, buf, 0x80000000u));
	R("getdents64 O_PATH count 0", syscall(SYS_getdents64, op, buf, 0));
	R("getdents64 O_PATH", syscall(SYS_getdents64, op, buf, sizeof(buf)));
}

/* getdents into a buffer whose end is memory the process has not (gVisor's
 * PartialBuffer): the entries that fit, each call, then the rest the next; every
 * entry once */
static void getdents_partial(const char *dir, long nr, const char *what)
{
	char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *buf = map + 4096 - 256, line[80];
	long n, entries = 0;
	int d;

	mprotect(map + 4096, 4096, PROT_NONE);
	mkdir(at(dir, "gp"), 0755);
	for (int i = 0; i < 30; i++) {
		snprintf(line, sizeof(line), "gp/entry-%02d", i);
		close(open(at(dir, line), O_CREAT | O_WRONLY, 0644));
	}
	d = open(at(dir, "gp"), O_RDONLY | O_DIRECTORY);
	do {
		n = syscall(nr, d, buf, 4096);
		for (long off = 0; off < n; entries++)
			off += *(unsigned short *)(buf + off + 16);
		snprintf(line, sizeof(line), "%s, 256 bytes before PROT_NONE", what);
		R(line, n);
	} while (n > 0);
	snprintf(line, sizeof(line), "%s: entries listed", what);
	R(line, entries);
	close(d);
	for (int i = 0; i < 30; i++) {
		snprintf(line, sizeof(line), "gp/entry-%02d", i);
		unlink(at(dir, line));
	}
	rmdir(at(dir, "gp"));
	munmap(map, 8192);
}

static void vectors(const char *dir)
{
	static struct iovec iv[1100];
	char buf[16];
	int fd = open(at(dir, "v"), O_CREAT | O_RDWR, 0644);
	int ro = open(path, O_RDONLY), op = open(path, O_PATH);
	int dd = open(dir, O_RDONLY | O_DIRECTORY);

	R("write", write(fd, "hello", 5));
	for (int i = 0; i < 1100; i++)
		iv[i] = (struct iovec){ buf, 1 };
	iv[0].iov_len = (size_t)-1;
	R("readv, a length of -1", preadv(fd, iv, 1, 0));
	R("readv, a length of -1", readv(fd, iv, 1));
	R("writev, a length of -1", writev(fd, iv, 1));
	R("pwritev, a length of -1", pwritev(fd, iv, 1, 0));
	iv[0].iov_len = 1;
	iv[1].iov_len = (size_t)1 << 63;
	R("readv, the second length 2^63", readv(fd, iv, 2));
	R("writev, the second length 2^63", writev(fd, iv, 2));
	iv[1].iov_len = 1;
	R("lseek", lseek(fd, 0, SEEK_SET));
	R("readv, 1024 vectors", readv(fd, iv, 1024));
	R("readv, 1025 vectors", readv(fd, iv, 1025));
	R("readv, 0 vectors", readv(fd, iv, 0));
	R("readv, -1 vectors", syscall(SYS_readv, fd, iv, -1));
	R("readv, 1025 vectors at NULL", syscall(SYS_readv, fd, NULL, 1025));
	R("readv, 1 vector at NULL", syscall(SYS_readv, fd, NULL, 1));
	R("writev, 1025 vectors", writev(fd, iv, 1025));
	R("preadv, 1025 vectors", preadv(fd, iv, 1025, 0));
	R("readv of O_PATH, 1025 vectors", readv(op, iv, 1025));
	R("readv of O_PATH, 0 vectors", readv(op, iv, 0));
	R("writev of O_RDONLY, 1025 vectors", writev(ro, iv, 1025));
	R("writev of O_RDONLY, 0 vectors", writev(ro, iv, 0));
	R("writev of O_RDONLY, NULL", syscall(SYS_writev, ro, NULL, 1));
	R("readv of a directory, 1025 vectors", readv(dd, iv, 1025));
	R("readv of a directory, 0 vectors", readv(dd, iv, 0));
	R("readv of a directory", readv(dd, iv, 1));
}

static void opath(const char *dir)
{
	char buf[64];
	struct stat st;
	struct statfs sfs;
	struct iovec iv = { buf, 1 };
	int op, dp, n;

	close(open(at(dir, "op"), O_CREAT | O_WRONLY, 0644));
	op = open(path, O_PATH);
	dp = open(dir, O_PATH | O_DIRECTORY);
	R("O_PATH: fchmod", fchmod(op, 0600));
	R("O_PATH: fchown", fchown(op, 0, 0));
	R("O_PATH: fgetxattr", fgetxattr(op, "user.x", buf, sizeof(buf)));
	R("O_PATH: fsetxattr", fsetxattr(op, "user.x", "a", 1, 0));
	R("O_PATH: flistxattr", flistxattr(op, buf, sizeof(buf)));
	R("O_PATH: fremovexattr", fremovexattr(op, "user.x"));
	R("O_PATH: F_SETOWN", fcntl(op, F_SETOWN, 0));
	R("O_PATH: F_GETOWN", fcntl(op, F_GETOWN));
	R("O_PATH: F_SETFL", fcntl(op, F_SETFL, O_NONBLOCK));
	R("O_PATH: F_GETFL", fcntl(op, F_GETFL));
	R("O_PATH: F_GETFD", fcntl(op, F_GETFD));
	R("O_PATH: fsync", fsync(op));
	R("O_PATH: fdatasync", fdatasync(op));
	R("O_PATH: ftruncate", ftruncate(op, 0));
	R("O_PATH: fallocate", fallocate(op, 0, 0, 10));
	R("O_PATH: read", read(op, buf, 1));
	R("O_PATH: write", write(op, buf, 1));
	R("O_PATH: pread", pread(op, buf, 1, 0));
	R("O_PATH: pwritev", pwritev(op, &iv, 1, 0));
	R("O_PATH: lseek", lseek(op, 0, SEEK_SET));
	R("O_PATH: ioctl FIONREAD", ioctl(op, FIONREAD, &n));
	R("O_PATH: ioctl FIOCLEX", ioctl(op, FIOCLEX));
	R("O_PATH: F_GETFD after it", fcntl(op, F_GETFD));
	R("O_PATH: flock", flock(op, LOCK_SH));
	R("O_PATH: futimens", futimens(op, NULL));
	R("O_PATH: fstat", fstat(op, &st));
	R("O_PATH: fstatfs", fstatfs(op, &sfs));
	R("O_PATH: fchownat AT_EMPTY_PATH", fchownat(op, "", 0, 0, AT_EMPTY_PATH));
	R("O_PATH: fchmodat2 AT_EMPTY_PATH", syscall(452, op, "", 0640, AT_EMPTY_PATH));
	R("O_PATH: fchdir of a file", fchdir(op));
	R("O_PATH: fchdir of a directory", fchdir(dp));
	R("O_PATH: getdents64 of a directory", syscall(SYS_getdents64, dp, buf, sizeof(buf)));
}

/* fgetxattr, fsetxattr, fremovexattr: the arguments' checks come before the
 * descriptor's */
static void xattr_args(const char *dir)
{
	char name[300], v[8];
	int fds[2];

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	fds[0] = open(at(dir, "xa"), O_CREAT | O_RDWR, 0644);
	fds[1] = open(path, O_PATH);
	for (int i = 0; i < 2; i++) {
		printf("%s\n", i ? "O_PATH" : "O_RDWR");
		R("fgetxattr, empty name", fgetxattr(fds[i], "", v, sizeof(v)));
		R("fgetxattr, 299-byte name", fgetxattr(fds[i], name, v, sizeof(v)));
		R("fgetxattr, NULL name", syscall(SYS_fgetxattr, fds[i], NULL, v, sizeof(v)));
		R("fgetxattr, user.x", fgetxattr(fds[i], "user.x", v, sizeof(v)));
		R("fsetxattr, empty name", fsetxattr(fds[i], "", v, 1, 0));
		R("fsetxattr, flags 99", fsetxattr(fds[i], "user.x", v, 1, 99));
		R("fsetxattr, 1 MiB", syscall(SYS_fsetxattr, fds[i], "user.x", v, 1 << 20, 0));
		R("fsetxattr, NULL value", syscall(SYS_fsetxattr, fds[i], "user.x", NULL, 1, 0));
		R("fremovexattr, empty name", fremovexattr(fds[i], ""));
		R("fremovexattr, 299-byte name", fremovexattr(fds[i], name));
		R("fremovexattr, user.x", fremovexattr(fds[i], "user.x"));
		R("flistxattr", flistxattr(fds[i], NULL, 0));
	}
}

static void bad_dirfd(const char *dir)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY), p[2];

	if (pipe(p))
		return;
	close(open(at(dir, "lk"), O_CREAT | O_WRONLY, 0644));
	if (chdir(dir))
		return;
	R("linkat(dir, f, -1, g)", linkat(d, "lk", -1, "lk2", 0));
	R("linkat(dir, missing, -1, g)", linkat(d, "nx", -1, "lk2", 0));
	R("linkat(dir, f, 99, g)", linkat(d, "lk", 99, "lk2", 0));
	R("linkat(dir, f, pipe, g)", linkat(d, "lk", p[0], "lk2", 0));
	R("linkat(dir, missing, pipe, g)", linkat(d, "nx", p[0], "lk2", 0));
	R("linkat(AT_FDCWD, f, -1, g)", linkat(AT_FDCWD, "lk", -1, "lk2", 0));
	R("linkat(-1, f, dir, g)", linkat(-1, "lk", d, "lk2", 0));
	R("linkat(pipe, f, dir, g)", linkat(p[0], "lk", d, "lk2", 0));
	R("linkat(dir, f, -1, absolute)", linkat(d, "lk", -1, at(dir, "lk3"), 0));
	R("linkat(dir, f, -1, \"\")", linkat(d, "lk", -1, "", 0));
	R("renameat(dir, f, -1, g)", renameat(d, "lk", -1, "lk2"));
	R("renameat(dir, missing, -1, g)", renameat(d, "nx", -1, "lk2"));
	R("renameat(dir, missing, pipe, g)", renameat(d, "nx", p[0], "lk2"));
	R("renameat(-1, f, dir, g)", renameat(-1, "lk", d, "lk2"));
	R("renameat(AT_FDCWD, f, 99, g)", renameat(AT_FDCWD, "lk", 99, "lk2"));
	R("symlinkat(x, -1, g)", symlinkat("x", -1, "lk2"));
	R("symlinkat(x, pipe, g)", symlinkat("x", p[0], "lk2"));
	R("lstat of lk3", access(at(dir, "lk3"), F_OK));
	R("lstat of lk2", access(at(dir, "lk2"), F_OK));
}

/* following a symlink touches its atime (pick_link(): touch_atime), relatime's
 * rules: once, until the link changes */
static void symlink_atime(const char *dir)
{
	struct stat st;
	char lp[4096];

	close(open(at(dir, "target"), O_CREAT | O_WRONLY, 0644));
	snprintf(lp, sizeof(lp), "%s/link", dir);
	R("symlink", symlink("target", lp));
	atime("made", lp);
	R("lstat", lstat(lp, &st));
	atime("after lstat", lp);
	R("stat through it", stat(lp, &st));
	atime("after it", lp);
	R("open through it", close(open(lp, O_RDONLY)));
	atime("after it (relatime: not again)", lp);
	R("O_NOFOLLOW|O_PATH open", close(open(lp, O_PATH | O_NOFOLLOW)));
	atime("after it", lp);
}

/* RLIMIT_FSIZE: EFBIG and SIGXFSZ (send_sig() to the caller, blocked here and
 * looked at after each call) at or past the limit; a write that starts below it cut
 * short there, without the signal (generic_write_check_limits()); truncate, ftruncate
 * and fallocate past it (inode_newsize_ok(), which lets a file shrink); a copy to a
 * position past it with nothing to copy (generic_copy_file_checks()); pipes and
 * devices not limited */
static void fsize_signal(void)
{
	sigset_t set, xfsz;
	int sig;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	sigpending(&set);
	printf("%-44s %s\n", "", sigismember(&set, SIGXFSZ) ? "SIGXFSZ" : "no signal");
	if (sigismember(&set, SIGXFSZ))
		sigwait(&xfsz, &sig);
}
#define F(what, e) do { R(what, e); fsize_signal(); } while (0)

static void fsize(const char *dir)
{
	static char big[2 << 20];
	struct rlimit rl, old;
	struct iovec iv[2] = { { big, 1 }, { big, 1 } };
	sigset_t xfsz;
	loff_t o;
	int w, a, src, p[2], null;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	sigprocmask(SIG_BLOCK, &xfsz, NULL);
	src = open(at(dir, "fsrc"), O_CREAT | O_RDWR, 0644);
	R("write", write(src, "hello", 5));
	w = open(at(dir, "fsize"), O_CREAT | O_RDWR, 0644);
	a = open(path, O_WRONLY | O_APPEND);
	null = open("/dev/null", O_WRONLY);
	if (pipe(p))
		return;
	getrlimit(RLIMIT_FSIZE, &old);
	rl = (struct rlimit){ 1024, old.rlim_max };
	R("setrlimit(RLIMIT_FSIZE, 1024)", setrlimit(RLIMIT_FSIZE, &rl));
	F("ftruncate to 1024", ftruncate(w, 1024));
	F("ftruncate to 1025", ftruncate(w, 1025));
	F("truncate to 2000", truncate(path, 2000));
	F("ftruncate to 10", ftruncate(w, 10));
	F("pwrite 10 at 1020", pwrite(w, big, 10, 1020));
	F("pwrite 10 at 1024", pwrite(w, big, 10, 1024));
	F("pwrite 0 at 1024", pwrite(w, big, 0, 1024));
	F("pwrite 0 at 5000", pwrite(w, big, 0, 5000));
	F("lseek to 1030", lseek(w, 1030, SEEK_SET));
	F("write 1", write(w, big, 1));
	F("the position", lseek(w, 0, SEEK_CUR));
	F("O_APPEND write", write(a, big, 10));
	F("pwritev 2 at 1023", pwritev(w, iv, 2, 1023));
	F("pwritev 2 at 1024", pwritev(w, iv, 2, 1024));
	F("fallocate 0, 2000", fallocate(w, 0, 0, 2000));
	F("fallocate KEEP_SIZE 0, 2000", fallocate(w, FALLOC_FL_KEEP_SIZE, 0, 2000));
	F("fallocate 1000, 24", fallocate(w, 0, 1000, 24));
	F("fallocate 1000, 25", fallocate(w, 0, 1000, 25));
	F("fallocate PUNCH_HOLE 0, 2000",
	  fallocate(w, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 2000));
	F("copy_file_range of nothing to 1030", copy_file_range(src, NULL, w, NULL, 5, 0));
	o = 1022;
	F("copy_file_range 5 to 1022", copy_file_range(src, &(loff_t){ 0 }, w, &o, 5, 0));
	F("copy_file_range 5 to 1024", copy_file_range(src, &(loff_t){ 0 }, w, &(loff_t){ 1024 }, 5, 0));
	F("write to a pipe", write(p[1], big, 2000));
	F("pwrite to /dev/null at 5000", pwrite(null, big, 10, 5000));
	F("ftruncate to 100", ftruncate(w, 100));
	F("O_TRUNC open", close(open(path, O_WRONLY | O_TRUNC)));
	rl.rlim_cur = 1 << 20;
	R("setrlimit(RLIMIT_FSIZE, 1 MiB)", setrlimit(RLIMIT_FSIZE, &rl));
	F("pwrite 2 MiB at 0", pwrite(w, big, sizeof(big), 0));
	F("pwrite 2 MiB at 1 MiB - 1", pwrite(w, big, sizeof(big), (1 << 20) - 1));
	rl.rlim_cur = 0;
	R("setrlimit(RLIMIT_FSIZE, 0)", setrlimit(RLIMIT_FSIZE, &rl));
	F("write 0", write(w, big, 0));
	F("pwrite 1 at 0", pwrite(w, big, 1, 0));
	F("ftruncate to 0", ftruncate(w, 0));
	F("a new file", close(open(at(dir, "fsize2"), O_CREAT | O_WRONLY | O_TRUNC, 0644)));
	F("ftruncate to 1", ftruncate(w, 1));
	R("setrlimit back", setrlimit(RLIMIT_FSIZE, &old));
	sigprocmask(SIG_UNBLOCK, &xfsz, NULL);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	setvbuf(stdout, NULL, _IONBF, 0);
	created_query(dir);
	noatime(dir);
	getdents_counts(dir);
	getdents_partial(dir, SYS_getdents64, "getdents64");
	getdents_partial(dir, SYS_getdents, "getdents");
	vectors(dir);
	opath(dir);
	xattr_args(dir);
	symlink_atime(dir);
	bad_dirfd(dir);
	fsize(dir);
	return 0;
}
