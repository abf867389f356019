// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uvfs-bench - uvfs against the kernel it imitates, measured in the same rounds.
 *
 *   uvfs-bench [--quick] [--json] [--rounds R] [--only NAME] [--flat-entries N]
 *   uvfs-bench --check        one iteration of each, results compared, no timing
 *   uvfs-bench --instr NAME   the uvfs side of NAME alone, for callgrind
 *   uvfs-bench --host-walk N  N host files stat-ed once each through a host mount,
 *                             memory every 10^6 (host_walk() says what it shows)
 *
 * Each benchmark has a uvfs side (the library, one task) and a kernel side (the same
 * system calls on a tmpfs this process mounts in a private mount namespace).  Every
 * round times both, alternately, and records the kernel/uvfs ratio; the table shows
 * the median ns/op of each side and the median of the per-round ratios, so that the
 * drift of a shared machine hits both sides of a ratio alike.  Needs root.
 *
 * Benchmarks are not tests: nothing here fails on time.  --check only verifies that
 * both sides give the same results.
 *
 * It uses the public header alone and is linked with the shared library, so every
 * call goes through the PLT into libuvfs.so as an embedder's does (make bench builds
 * it in build-release, meson's release buildtype, the build make install ships).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include <uvfs/uvfs.h>

static struct uvfs *fs;
static struct uvfs_task *T;
static char hostdir[64];
static bool quick, json, check_mode;
static long host_walk_n;
static int rounds = 7;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what, long r)
{
	fprintf(stderr, "uvfs-bench: %s: %s\n", what, strerror(r < 0 ? (int)-r : errno));
	exit(2);
}

#define U(call) do { long _r = (call); if (_r < 0) die(#call, _r); } while (0)
#define H(call) do { if ((call) < 0) die(#call, -errno); } while (0)

/* ---------------------------------------------------------------------------------
 * Trees, on both sides: the same relative paths under / (uvfs) and hostdir (kernel)
 */

/* "cD_L/abc/bcd/..." of depth d with name length len (the last is a file), under a
 * top directory of its own so that no two benchmarks' chains meet. */
static void chain(char *buf, size_t n, int top, int depth, int len)
{
	size_t o = (size_t)snprintf(buf, n, "c%d_%d", top, len);

	for (int i = 0; i < depth && o + (size_t)len + 2 < n; i++) {
		buf[o++] = '/';
		for (int k = 0; k < len; k++)
			buf[o++] = (char)('a' + (i + k) % 26);
	}
	buf[o] = 0;
}

static void make_chain(int depth, int len, char *leaf, size_t n)
{
	char p[8192];

	chain(leaf, n, depth, depth, len);
	snprintf(p, sizeof(p), "c%d_%d", depth, len);
	uvfs_mkdirat(T, AT_FDCWD, p, 0755);
	mkdirat(AT_FDCWD, p, 0755);
	for (int d = 1; d < depth; d++) {
		chain(p, sizeof(p), depth, d, len);
		if (uvfs_mkdirat(T, AT_FDCWD, p, 0755) < 0 && errno != EEXIST) {
			/* EEXIST is fine: chains share prefixes */
		}
		mkdirat(AT_FDCWD, p, 0755);
	}
	uvfs_mknodat(T, AT_FDCWD, leaf, S_IFREG | 0644, 0);
	mknodat(AT_FDCWD, leaf, S_IFREG | 0644, 0);
}

/* ---------------------------------------------------------------------------------
 * The benchmarks: each runs `iters` operations on one side
 */

enum side { UVFS, HOST };

struct bench {
	const char *name;
	const char *goal;          /* "≥ 25x" etc., or "" */
	double goal_ratio;         /* kernel/uvfs at least this, 0: none */
	long iters;
	void (*setup)(struct bench *b);
	void (*run)(struct bench *b, enum side s, long iters);
	const char *prefix;        /* the uvfs side's path is prefix + path (host mounts) */
	char path[8192];           /* per-benchmark data */
	char **paths;
	long npaths;
	/* results */
	double uvfs_ns, host_ns, ratio;
};

static void run_fstat(struct bench *b, enum side s, long n)
{
	struct stat st;

	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_fstatat(T, AT_FDCWD, b->path, &st, 0);
	else
		for (long i = 0; i < n; i++)
			fstatat(AT_FDCWD, b->path, &st, 0);
}

/*
 * Host mounts: uvfs's host filesystem over the kernel side's own directory (hostdir,
 * this process's tmpfs), one mount per coherence policy, so that both sides stat the
 * same host files -- the kernel through its dcache, uvfs through its own cache and the
 * host calls its policy makes.  "cold": a second instance that may keep one host
 * dentry, so that every walk looks every component up on the host again.
 */
static struct uvfs *fs_cold;
static struct uvfs_task *T_cold;

static bool hosts_mounted;  /* in this instance, of this hostdir tmpfs (reset_sides) */

static void mount_hosts(void)
{
	struct uvfs_config cold = { .max_host_dentries = 1 };

	if (hosts_mounted)
		return;
	hosts_mounted = true;
	if (fs_cold)
		uvfs_free(fs_cold);
	U(uvfs_mkdirat(T, AT_FDCWD, "/host-always", 0755));
	U(uvfs_mount2(T, hostdir, "/host-always", "host", 0, "always"));
	U(uvfs_mkdirat(T, AT_FDCWD, "/host-timeout", 0755));
	U(uvfs_mount2(T, hostdir, "/host-timeout", "host", 0, "timeout=3600"));
	U(uvfs_mkdirat(T, AT_FDCWD, "/host-never", 0755));
	U(uvfs_mount2(T, hostdir, "/host-never", "host", 0, "never"));
	fs_cold = uvfs_new(&cold);
	T_cold = fs_cold ? uvfs_task_new(fs_cold) : NULL;
	if (!T_cold)
		die("uvfs_new", -ENOMEM);
	U(uvfs_mkdirat(T_cold, AT_FDCWD, "/host-always", 0755));
	U(uvfs_mount2(T_cold, hostdir, "/host-always", "host", 0, "always"));
}

static void run_fstat_prefixed(struct bench *b, enum side s, long n, struct uvfs_task *t)
{
	char up[sizeof(b->path) + 32];
	struct stat st;

	snprintf(up, sizeof(up), "%s%s", b->prefix, b->path);
	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_fstatat(t, AT_FDCWD, up, &st, 0);
	else
		for (long i = 0; i < n; i++)
			fstatat(AT_FDCWD, b->path, &st, 0);
}

static void run_fstat_host(struct bench *b, enum side s, long n)
{
	run_fstat_prefixed(b, s, n, T);
}

static void run_fstat_host_cold(struct bench *b, enum side s, long n)
{
	run_fstat_prefixed(b, s, n, T_cold);
}

static void setup_host_d4(struct bench *b)
{
	make_chain(4, 3, b->path, sizeof(b->path));
	mount_hosts();
}

/* fstatat(dirfd, path): the depth-4 path of "fstatat depth 4", relative to a
 * descriptor on the directory that is the working directory, so that the two rows
 * differ only in where the walk starts. */
static int udirfd = -1, hdirfd = -1;

static void run_fstat_dirfd(struct bench *b, enum side s, long n)
{
	struct stat st;

	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_fstatat(T, udirfd, b->path, &st, 0);
	else
		for (long i = 0; i < n; i++)
			fstatat(hdirfd, b->path, &st, 0);
}

/* fstatat(AT_FDCWD, "/c4_3/..."): the same path from the root; the kernel side runs
 * chrooted into its tmpfs for the loop, so that both walk the same components (root
 * may leave a chroot through a descriptor on the old root). */
static int real_root = -1;

static void run_fstat_absolute(struct bench *b, enum side s, long n)
{
	if (s == HOST && (chroot(".") || chdir("/")))
		die("chroot", -errno);
	run_fstat(b, s, n);
	if (s == HOST && (fchdir(real_root) || chroot(".") || chdir(hostdir)))
		die("leave the chroot", -errno);
}

static void run_fstat_random(struct bench *b, enum side s, long n)
{
	struct stat st;

	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_fstatat(T, AT_FDCWD, b->paths[i % b->npaths], &st, 0);
	else
		for (long i = 0; i < n; i++)
			fstatat(AT_FDCWD, b->paths[i % b->npaths], &st, 0);
}

#define SETUP_CHAIN(fn, depth, len)                                                    \
	static void fn(struct bench *b) { make_chain(depth, len, b->path, sizeof(b->path)); }
SETUP_CHAIN(setup_d1, 1, 3)
SETUP_CHAIN(setup_d4, 4, 3)
SETUP_CHAIN(setup_d16, 16, 3)
SETUP_CHAIN(setup_l1, 1, 100)
SETUP_CHAIN(setup_l4, 4, 100)

/* fstatat by uid 1000 (group 100) through directories 0750 root:100: every component
 * asks generic_permission() for the group class, on both sides (the kernel side sets
 * its filesystem ids for the loop: the walk asks those, and loses CAP_DAC_*). */
static struct uvfs_task *T_user;

static void setup_user(struct bench *b)
{
	char p[8192];

	make_chain(4, 4, b->path, sizeof(b->path));
	for (int d = 1; d <= 4; d++) {
		if (d == 4) {
			snprintf(p, sizeof(p), "c4_4");
		} else {
			chain(p, sizeof(p), 4, d, 4);
		}
		U(uvfs_fchownat(T, AT_FDCWD, p, 0, 100, 0));
		U(uvfs_fchmodat(T, AT_FDCWD, p, 0750, 0));
		H(fchownat(AT_FDCWD, p, 0, 100, 0));
		H(fchmodat(AT_FDCWD, p, 0750, 0));
	}
	T_user = uvfs_task_fork(T);
	if (!T_user)
		die("fork", -ENOMEM);
	U(uvfs_setresgid(T_user, 100, 100, 100));
	U(uvfs_setresuid(T_user, 1000, 1000, 1000));
}

static void run_fstat_user(struct bench *b, enum side s, long n)
{
	struct stat st;

	if (s == UVFS) {
		for (long i = 0; i < n; i++)
			uvfs_fstatat(T_user, AT_FDCWD, b->path, &st, 0);
		return;
	}
	syscall(SYS_setfsgid, 100);
	syscall(SYS_setfsuid, 1000);
	for (long i = 0; i < n; i++)
		fstatat(AT_FDCWD, b->path, &st, 0);
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
}

static void setup_dirfd(struct bench *b)
{
	make_chain(4, 3, b->path, sizeof(b->path));
	udirfd = uvfs_openat(T, AT_FDCWD, ".", O_RDONLY | O_DIRECTORY, 0);
	hdirfd = openat(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY);
	if (udirfd < 0 || hdirfd < 0)
		die("open the working directory", udirfd < 0 ? udirfd : -errno);
}

static void setup_absolute(struct bench *b)
{
	char rel[sizeof(b->path) - 1];

	make_chain(4, 3, rel, sizeof(rel));
	snprintf(b->path, sizeof(b->path), "/%s", rel);
	if (real_root < 0 && (real_root = open("/", O_PATH | O_DIRECTORY)) < 0)
		die("open /", -errno);
}

static void setup_enoent(struct bench *b)
{
	make_chain(4, 3, b->path, sizeof(b->path));
	strcat(b->path, "x"); /* the last component does not exist */
}

static void run_open_close(struct bench *b, enum side s, long n)
{
	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_close(T, uvfs_openat(T, AT_FDCWD, b->path, O_RDONLY, 0));
	else
		for (long i = 0; i < n; i++)
			close(openat(AT_FDCWD, b->path, O_RDONLY));
}

static void setup_dir(struct bench *b)
{
	uvfs_mkdirat(T, AT_FDCWD, "w", 0755);
	mkdirat(AT_FDCWD, "w", 0755);
	uvfs_mkdirat(T, AT_FDCWD, "w2", 0755);
	mkdirat(AT_FDCWD, "w2", 0755);
	snprintf(b->path, sizeof(b->path), "w/f");
}

static void run_create_unlink(struct bench *b, enum side s, long n)
{
	if (s == UVFS)
		for (long i = 0; i < n; i++) {
			uvfs_close(T, uvfs_openat(T, AT_FDCWD, "w/f", O_CREAT | O_WRONLY, 0644));
			uvfs_unlinkat(T, AT_FDCWD, "w/f", 0);
		}
	else
		for (long i = 0; i < n; i++) {
			close(openat(AT_FDCWD, "w/f", O_CREAT | O_WRONLY, 0644));
			unlinkat(AT_FDCWD, "w/f", 0);
		}
}

static void run_mkdir_rmdir(struct bench *b, enum side s, long n)
{
	if (s == UVFS)
		for (long i = 0; i < n; i++) {
			uvfs_mkdirat(T, AT_FDCWD, "w/d", 0755);
			uvfs_unlinkat(T, AT_FDCWD, "w/d", AT_REMOVEDIR);
		}
	else
		for (long i = 0; i < n; i++) {
			mkdirat(AT_FDCWD, "w/d", 0755);
			unlinkat(AT_FDCWD, "w/d", AT_REMOVEDIR);
		}
}

static void setup_rename(struct bench *b)
{
	setup_dir(b);
	uvfs_mknodat(T, AT_FDCWD, "w/a", S_IFREG | 0644, 0);
	mknodat(AT_FDCWD, "w/a", S_IFREG | 0644, 0);
	uvfs_mknodat(T, AT_FDCWD, "w2/b", S_IFREG | 0644, 0);
	mknodat(AT_FDCWD, "w2/b", S_IFREG | 0644, 0);
}

/* a -> b -> a, in one directory (b->path "w/b") or across (b->path "w2/a") */
static void run_rename(struct bench *b, enum side s, long n)
{
	const char *x = "w/a", *y = b->path;

	if (s == UVFS)
		for (long i = 0; i < n; i += 2) {
			uvfs_renameat2(T, AT_FDCWD, x, AT_FDCWD, y, 0);
			uvfs_renameat2(T, AT_FDCWD, y, AT_FDCWD, x, 0);
		}
	else
		for (long i = 0; i < n; i += 2) {
			syscall(SYS_renameat2, AT_FDCWD, x, AT_FDCWD, y, 0);
			syscall(SYS_renameat2, AT_FDCWD, y, AT_FDCWD, x, 0);
		}
}

static void setup_rename_same(struct bench *b) { setup_rename(b); snprintf(b->path, sizeof(b->path), "w/b"); }
static void setup_rename_cross(struct bench *b) { setup_rename(b); snprintf(b->path, sizeof(b->path), "w2/a"); }
static void setup_exchange_same(struct bench *b)
{
	setup_rename(b);
	uvfs_mknodat(T, AT_FDCWD, "w/b", S_IFREG | 0644, 0);
	mknodat(AT_FDCWD, "w/b", S_IFREG | 0644, 0);
	snprintf(b->path, sizeof(b->path), "w/b");
}
static void setup_exchange_cross(struct bench *b) { setup_rename(b); snprintf(b->path, sizeof(b->path), "w2/b"); }

static void run_exchange(struct bench *b, enum side s, long n)
{
	if (s == UVFS)
		for (long i = 0; i < n; i++)
			uvfs_renameat2(T, AT_FDCWD, "w/a", AT_FDCWD, b->path, RENAME_EXCHANGE);
	else
		for (long i = 0; i < n; i++)
			syscall(SYS_renameat2, AT_FDCWD, "w/a", AT_FDCWD, b->path, RENAME_EXCHANGE);
}

/* the rpm replace: create a temporary name, write, rename over the binary */
static void run_rpm(struct bench *b, enum side s, long n)
{
	static char data[4096];

	if (s == UVFS)
		for (long i = 0; i < n; i++) {
			int fd = uvfs_openat(T, AT_FDCWD, "w/food;5e2a9b1c", O_CREAT | O_WRONLY | O_TRUNC, 0755);

			uvfs_write(T, fd, data, sizeof(data));
			uvfs_close(T, fd);
			uvfs_renameat2(T, AT_FDCWD, "w/food;5e2a9b1c", AT_FDCWD, "w/food", 0);
		}
	else
		for (long i = 0; i < n; i++) {
			int fd = openat(AT_FDCWD, "w/food;5e2a9b1c", O_CREAT | O_WRONLY | O_TRUNC, 0755);

			if (write(fd, data, sizeof(data)) < 0)
				die("write", -errno);
			close(fd);
			renameat(AT_FDCWD, "w/food;5e2a9b1c", AT_FDCWD, "w/food");
		}
}

static int ufd, hfd;

static void setup_readlink(struct bench *b)
{
	setup_dir(b);
	ufd = uvfs_openat(T, AT_FDCWD, "w/f", O_CREAT | O_RDWR, 0644);
	hfd = openat(AT_FDCWD, "w/f", O_CREAT | O_RDWR, 0644);
	if (ufd < 0 || hfd < 0)
		die("open", -errno);
}

static void run_readlink(struct bench *b, enum side s, long n)
{
	char path[64], buf[4096];

	if (s == UVFS) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", ufd);
		for (long i = 0; i < n; i++)
			uvfs_readlinkat(T, AT_FDCWD, path, buf, sizeof(buf));
	} else {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", hfd);
		for (long i = 0; i < n; i++)
			if (readlink(path, buf, sizeof(buf)) < 0)
				die("readlink", -errno);
	}
}

static void setup_getdents(struct bench *b)
{
	uvfs_mkdirat(T, AT_FDCWD, "big", 0755);
	mkdirat(AT_FDCWD, "big", 0755);
	for (int i = 0; i < 1000; i++) {
		char p[32];

		snprintf(p, sizeof(p), "big/entry%04d", i);
		uvfs_mknodat(T, AT_FDCWD, p, S_IFREG | 0644, 0);
		mknodat(AT_FDCWD, p, S_IFREG | 0644, 0);
	}
}

static void run_getdents(struct bench *b, enum side s, long n)
{
	static char buf[65536];

	for (long i = 0; i < n; i++) {
		if (s == UVFS) {
			int fd = uvfs_openat(T, AT_FDCWD, "big", O_RDONLY | O_DIRECTORY, 0);

			while (uvfs_getdents64(T, fd, buf, sizeof(buf)) > 0)
				;
			uvfs_close(T, fd);
		} else {
			int fd = openat(AT_FDCWD, "big", O_RDONLY | O_DIRECTORY);

			while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
		}
	}
}

/* getdents64 with a 64-byte buffer — one or two entries a call — through a directory
 * of 10^5, rewound at its end: what finding the position costs (tmpfs: its maple
 * tree; uvfs: simple_offset.c), the work a list-and-delete loop does per call. */
static int gd_ufd = -1, gd_hfd = -1;

static void setup_getdents_small(struct bench *b)
{
	char p[32];

	uvfs_mkdirat(T, AT_FDCWD, "huge", 0755);
	mkdirat(AT_FDCWD, "huge", 0755);
	for (int i = 0; i < 100000; i++) {
		snprintf(p, sizeof(p), "huge/e%06d", i);
		U(uvfs_mknodat(T, AT_FDCWD, p, S_IFREG | 0644, 0));
		H(mknodat(AT_FDCWD, p, S_IFREG | 0644, 0));
	}
	gd_ufd = uvfs_openat(T, AT_FDCWD, "huge", O_RDONLY | O_DIRECTORY, 0);
	gd_hfd = openat(AT_FDCWD, "huge", O_RDONLY | O_DIRECTORY);
	if (gd_ufd < 0 || gd_hfd < 0)
		die("open huge", gd_ufd < 0 ? gd_ufd : -errno);
}

static void run_getdents_small(struct bench *b, enum side s, long n)
{
	char buf[64];

	for (long i = 0; i < n; i++) {
		if (s == UVFS) {
			if (uvfs_getdents64(T, gd_ufd, buf, sizeof(buf)) == 0)
				uvfs_lseek(T, gd_ufd, 0, SEEK_SET);
		} else if (syscall(SYS_getdents64, gd_hfd, buf, sizeof(buf)) == 0) {
			lseek(gd_hfd, 0, SEEK_SET);
		}
	}
}

/* stat of /proc/PID among 10^4 tasks (uvfs: random ones of its 10^4; the kernel:
 * this process's own, among the machine's processes): a lookup by number in the
 * pid table, then the entry revalidated as pid_revalidate does. */
#define PROC_TASKS 10000
static char proc_upaths[PROC_TASKS][24], proc_hpath[24];

static void setup_proc_tasks(struct bench *b)
{
	unsigned seed = 777;
	int pids[PROC_TASKS];

	for (int i = 0; i < PROC_TASKS; i++) {
		struct uvfs_task *t = uvfs_task_new(fs);

		if (!t)
			die("uvfs_task_new", -ENOMEM);
		pids[i] = uvfs_task_pid(t);
	}
	for (int i = 0; i < PROC_TASKS; i++)
		snprintf(proc_upaths[i], sizeof(proc_upaths[i]), "/proc/%d",
			 pids[rand_r(&seed) % PROC_TASKS]);
	snprintf(proc_hpath, sizeof(proc_hpath), "/proc/%d", (int)getpid());
}

static void run_proc_tasks(struct bench *b, enum side s, long n)
{
	struct stat st;

	if (s == UVFS) {
		for (long i = 0; i < n; i++)
			U(uvfs_fstatat(T, AT_FDCWD, proc_upaths[i % PROC_TASKS], &st, 0));
	} else {
		for (long i = 0; i < n; i++)
			H(fstatat(AT_FDCWD, proc_hpath, &st, 0));
	}
}

/* Under dir, on both sides: f entries named 0 .. f-1, directories with levels more
 * levels below them, files at the bottom (levels 0). */
static void fill_level(const char *dir, int f, int levels)
{
	for (int i = 0; i < f; i++) {
		char p[4500];

		if ((size_t)snprintf(p, sizeof(p), "%s/%d", dir, i) >= sizeof(p))
			abort();  /* fill_level's callers keep paths short */
		if (levels) {
			uvfs_mkdirat(T, AT_FDCWD, p, 0755);
			mkdirat(AT_FDCWD, p, 0755);
			fill_level(p, f, levels - 1);
		} else {
			uvfs_mknodat(T, AT_FDCWD, p, S_IFREG | 0644, 0);
			mknodat(AT_FDCWD, p, S_IFREG | 0644, 0);
		}
	}
}

/* A tree of about `entries` files at `depth`: a chain down to depth - 4, then four
 * levels of fanout f with f^4 ~ entries; random leaves, visited in random order. */
static void setup_tree(struct bench *b, long entries, int depth)
{
	int f = 1;
	char prefix[4096] = "t";
	unsigned seed = 12345;

	while ((long)(f + 1) * (f + 1) * (f + 1) * (f + 1) <= entries)
		f++;
	snprintf(prefix + 1, sizeof(prefix) - 1, "%ld_%d", entries, depth);
	uvfs_mkdirat(T, AT_FDCWD, prefix, 0755);
	mkdirat(AT_FDCWD, prefix, 0755);
	for (int d = 0; d < depth - 4; d++) {
		strcat(prefix, "/c");
		uvfs_mkdirat(T, AT_FDCWD, prefix, 0755);
		mkdirat(AT_FDCWD, prefix, 0755);
	}
	fill_level(prefix, f, 3);
	b->npaths = 65536;
	b->paths = calloc((size_t)b->npaths, sizeof(char *));
	for (long i = 0; i < b->npaths; i++) {
		if (asprintf(&b->paths[i], "%s/%d/%d/%d/%d", prefix, rand_r(&seed) % f,
			     rand_r(&seed) % f, rand_r(&seed) % f, rand_r(&seed) % f) < 0)
			die("asprintf", -ENOMEM);
	}
}

static void setup_t3_4(struct bench *b) { setup_tree(b, 1000, 4); }
static void setup_t3_16(struct bench *b) { setup_tree(b, 1000, 16); }
static void setup_t5_4(struct bench *b) { setup_tree(b, 100000, 4); }
static void setup_t5_16(struct bench *b) { setup_tree(b, 100000, 16); }
static void setup_t6_4(struct bench *b) { setup_tree(b, 1000000, 4); }
static void setup_t6_16(struct bench *b) { setup_tree(b, 1000000, 16); }

/* One directory of flat_entries files (10^7 by default), looked up at random. */
static long flat_entries = 10000000;

static void setup_flat(struct bench *b)
{
	unsigned seed = 54321;
	char p[64];

	uvfs_mkdirat(T, AT_FDCWD, "flat", 0755);
	mkdirat(AT_FDCWD, "flat", 0755);
	for (long i = 0; i < flat_entries; i++) {
		snprintf(p, sizeof(p), "flat/%ld", i);
		U(uvfs_mknodat(T, AT_FDCWD, p, S_IFREG | 0644, 0));
		H(mknodat(AT_FDCWD, p, S_IFREG | 0644, 0));
	}
	b->npaths = 65536;
	b->paths = calloc((size_t)b->npaths, sizeof(char *));
	for (long i = 0; i < b->npaths; i++) {
		long k = (long)(((uint64_t)rand_r(&seed) << 31 | (uint64_t)rand_r(&seed)) %
				(uint64_t)flat_entries);

		if (asprintf(&b->paths[i], "flat/%ld", k) < 0)
			die("asprintf", -ENOMEM);
	}
}

static struct bench benches[] = {
	{ .name = "fstatat depth 1", .goal = "", .goal_ratio = 0, .iters = 200000, .setup = setup_d1, .run = run_fstat },
	{ .name = "fstatat depth 4", .goal = ">= 25x", .goal_ratio = 25, .iters = 200000, .setup = setup_d4, .run = run_fstat },
	{ .name = "fstatat depth 4, dirfd-relative", .goal = ">= 25x", .goal_ratio = 25, .iters = 200000, .setup = setup_dirfd, .run = run_fstat_dirfd },
	{ .name = "fstatat depth 4, absolute path", .goal = ">= 25x", .goal_ratio = 25, .iters = 200000, .setup = setup_absolute, .run = run_fstat_absolute },
	{ .name = "fstatat depth 4, uid 1000, dirs 0750", .goal = "", .goal_ratio = 0, .iters = 200000, .setup = setup_user, .run = run_fstat_user },
	{ .name = "fstatat depth 16", .goal = ">= 10x", .goal_ratio = 10, .iters = 100000, .setup = setup_d16, .run = run_fstat },
	{ .name = "fstatat 1 x 100 bytes", .goal = "", .goal_ratio = 0, .iters = 200000, .setup = setup_l1, .run = run_fstat },
	{ .name = "fstatat 4 x 100 bytes", .goal = ">= 10x", .goal_ratio = 10, .iters = 100000, .setup = setup_l4, .run = run_fstat },
	{ .name = "fstatat ENOENT depth 4", .goal = ">= 30x", .goal_ratio = 30, .iters = 200000, .setup = setup_enoent, .run = run_fstat },
	{ .name = "host mount: fstatat depth 4, always", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_host_d4, .run = run_fstat_host, .prefix = "/host-always/" },
	{ .name = "host mount: fstatat depth 4, timeout=3600", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_host_d4, .run = run_fstat_host, .prefix = "/host-timeout/" },
	{ .name = "host mount: fstatat depth 4, never", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_host_d4, .run = run_fstat_host, .prefix = "/host-never/" },
	{ .name = "host mount: fstatat depth 4, cold (evicted)", .goal = "", .goal_ratio = 0, .iters = 50000, .setup = setup_host_d4, .run = run_fstat_host_cold, .prefix = "/host-always/" },
	{ .name = "openat+close", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_d4, .run = run_open_close },
	{ .name = "create+close+unlink", .goal = ">= 25x", .goal_ratio = 25, .iters = 50000, .setup = setup_dir, .run = run_create_unlink },
	{ .name = "mkdir+rmdir", .goal = "", .goal_ratio = 0, .iters = 50000, .setup = setup_dir, .run = run_mkdir_rmdir },
	{ .name = "rename, one directory", .goal = ">= 20x", .goal_ratio = 20, .iters = 100000, .setup = setup_rename_same, .run = run_rename },
	{ .name = "rename, across directories", .goal = ">= 20x", .goal_ratio = 20, .iters = 100000, .setup = setup_rename_cross, .run = run_rename },
	{ .name = "RENAME_EXCHANGE, one directory", .goal = ">= 20x", .goal_ratio = 20, .iters = 100000, .setup = setup_exchange_same, .run = run_exchange },
	{ .name = "RENAME_EXCHANGE, across", .goal = ">= 20x", .goal_ratio = 20, .iters = 100000, .setup = setup_exchange_cross, .run = run_exchange },
	{ .name = "rpm replace (create, write 4K, rename over)", .goal = "", .goal_ratio = 0, .iters = 20000, .setup = setup_dir, .run = run_rpm },
	{ .name = "readlink /proc/self/fd/N", .goal = ">= 30x", .goal_ratio = 30, .iters = 100000, .setup = setup_readlink, .run = run_readlink },
	{ .name = "getdents64, 1000 entries", .goal = "", .goal_ratio = 0, .iters = 500, .setup = setup_getdents, .run = run_getdents },
	{ .name = "getdents64 (64-byte buffer), 10^5 entries", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_getdents_small, .run = run_getdents_small },
	{ .name = "stat /proc/PID, 10^4 tasks", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_proc_tasks, .run = run_proc_tasks },
	{ .name = "random paths, 10^3 tree, depth 4", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_t3_4, .run = run_fstat_random },
	{ .name = "random paths, 10^3 tree, depth 16", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_t3_16, .run = run_fstat_random },
	{ .name = "random paths, 10^5 tree, depth 4", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_t5_4, .run = run_fstat_random },
	{ .name = "random paths, 10^5 tree, depth 16", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_t5_16, .run = run_fstat_random },
	{ .name = "random paths, 10^6 tree, depth 4", .goal = ">= 3x", .goal_ratio = 3, .iters = 100000, .setup = setup_t6_4, .run = run_fstat_random },
	{ .name = "random paths, 10^6 tree, depth 16", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_t6_16, .run = run_fstat_random },
	{ .name = "lookup, flat 10^7 entries", .goal = "", .goal_ratio = 0, .iters = 100000, .setup = setup_flat, .run = run_fstat_random },
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void measure(struct bench *b)
{
	double u[64], h[64], r[64];
	long n = quick ? b->iters / 20 + 1 : b->iters;

	for (int i = 0; i < rounds; i++) {
		double t0 = now_ns();

		b->run(b, UVFS, n);
		double t1 = now_ns();

		b->run(b, HOST, n);
		double t2 = now_ns();

		u[i] = (t1 - t0) / (double)n;
		h[i] = (t2 - t1) / (double)n;
		r[i] = h[i] / u[i];
	}
	b->uvfs_ns = median(u, rounds);
	b->host_ns = median(h, rounds);
	b->ratio = median(r, rounds);
}

/* ---------------------------------------------------------------------------------
 * Memory: what N empty files (or directories) cost on each side
 */

static long meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	if (f)
		fclose(f);
	return v;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

struct membench {
	const char *what;
	long n;
	double uvfs_rss, host_slab;
};

static void memory(struct membench *m, bool dirs)
{
	long r0, r1, k0, k1;
	char p[64];

	snprintf(p, sizeof(p), dirs ? "md" : "mf");
	uvfs_mkdirat(T, AT_FDCWD, p, 0755);
	mkdirat(AT_FDCWD, p, 0755);
	r0 = rss_kb();
	for (long i = 0; i < m->n; i++) {
		snprintf(p, sizeof(p), "%s/%ld", dirs ? "md" : "mf", i);
		if (dirs)
			uvfs_mkdirat(T, AT_FDCWD, p, 0755);
		else
			uvfs_mknodat(T, AT_FDCWD, p, S_IFREG | 0644, 0);
	}
	r1 = rss_kb();
	m->uvfs_rss = (double)(r1 - r0) * 1024 / (double)m->n;
	sync();
	k0 = meminfo_kb("Slab:");
	for (long i = 0; i < m->n; i++) {
		snprintf(p, sizeof(p), "%s/%ld", dirs ? "md" : "mf", i);
		if (dirs)
			mkdirat(AT_FDCWD, p, 0755);
		else
			mknodat(AT_FDCWD, p, S_IFREG | 0644, 0);
	}
	k1 = meminfo_kb("Slab:");
	m->host_slab = (double)(k1 - k0) * 1024 / (double)m->n;
}

/*
 * Memory of the host mount's cache: n files made on the host (the kernel side's
 * tmpfs), then stat-ed once each through an "always" host mount.  uvfs's RSS per
 * cached entry (dentry, inode, LRU slot, hash), and the host kernel's slab per entry
 * for what uvfs holds there (an O_PATH descriptor, an inotify watch).  With n beyond
 * max_host_dentries (65536) the growth stops at the bound: the 10^6 walk.
 */
static long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void memory_host(struct membench *m, long *cached)
{
	long r0, r1, k0, k1, f0;
	char p[80];
	struct stat st;

	mkdirat(AT_FDCWD, "hm", 0755);
	for (long i = 0; i < m->n; i += 1000) {
		snprintf(p, sizeof(p), "hm/%ld", i / 1000);
		mkdirat(AT_FDCWD, p, 0755);
		for (long j = i; j < i + 1000 && j < m->n; j++) {
			snprintf(p, sizeof(p), "hm/%ld/%ld", i / 1000, j);
			mknodat(AT_FDCWD, p, S_IFREG | 0644, 0);
		}
	}
	mount_hosts();
	sync();
	r0 = rss_kb();
	k0 = meminfo_kb("Slab:");
	f0 = open_fds();
	for (long j = 0; j < m->n; j++) {
		snprintf(p, sizeof(p), "/host-always/hm/%ld/%ld", j / 1000, j);
		U(uvfs_fstatat(T, AT_FDCWD, p, &st, 0));
	}
	r1 = rss_kb();
	k1 = meminfo_kb("Slab:");
	/* every cached inode holds one host descriptor: how many the bound kept
	 * (max_host_dentries, or less when RLIMIT_NOFILE could not be raised) */
	*cached = open_fds() - f0;
	m->uvfs_rss = (double)(r1 - r0) * 1024 / (double)(*cached > 0 ? *cached : 1);
	m->host_slab = (double)(k1 - k0) * 1024 / (double)(*cached > 0 ? *cached : 1);
}

/*
 * --host-walk N: what a walk through 10^7 host names costs in memory.  N files (1,000
 * a directory) are made on the host side's tmpfs, then stat-ed once each through an
 * "always" host mount of the default bound (max_host_dentries 65,536): uvfs's RSS,
 * its host descriptors (one per cached inode) and the time, after every 10^6 -- flat
 * once the bound is reached, as the issue asks.  The host's own memory for the files
 * (about 1 KiB of slab each) is the kernel's, not uvfs's.
 */
static void host_walk(long n)
{
	struct timespec t0, t1;
	struct stat st;
	long r0, f0;
	char p[80];

	mkdirat(AT_FDCWD, "hw", 0755);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < n; i += 1000) {
		snprintf(p, sizeof(p), "hw/%ld", i / 1000);
		if (mkdirat(AT_FDCWD, p, 0755))
			die("mkdir on the host", -errno);
		for (long j = i; j < i + 1000 && j < n; j++) {
			snprintf(p, sizeof(p), "hw/%ld/%ld", i / 1000, j);
			if (mknodat(AT_FDCWD, p, S_IFREG | 0644, 0))
				die("mknod on the host", -errno);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("host: %ld files made in %.1f s\n", n,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	mount_hosts();
	r0 = rss_kb();
	f0 = open_fds();
	printf("%12s %14s %16s %10s\n", "walked", "uvfs RSS +KiB", "host fds cached", "s");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long j = 0; j < n; j++) {
		snprintf(p, sizeof(p), "/host-always/hw/%ld/%ld", j / 1000, j);
		U(uvfs_fstatat(T, AT_FDCWD, p, &st, 0));
		if ((j + 1) % 1000000 == 0 || j + 1 == n) {
			clock_gettime(CLOCK_MONOTONIC, &t1);
			printf("%12ld %14ld %16ld %10.1f\n", j + 1, rss_kb() - r0, open_fds() - f0,
			       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
			fflush(stdout);
		}
	}
}

/* ---------------------------------------------------------------------------------
 */

static void setup_host(void)
{
	snprintf(hostdir, sizeof(hostdir), "/tmp/uvfs-bench.XXXXXX");
	if (!mkdtemp(hostdir))
		die("mkdtemp", -errno);
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", hostdir, "tmpfs", 0, "nr_inodes=0")) {
		fprintf(stderr, "uvfs-bench: needs root (a private mount namespace with a tmpfs): %s\n",
			strerror(errno));
		rmdir(hostdir);
		exit(2);
	}
	if (chdir(hostdir))
		die("chdir", -errno);
}

/*
 * Start both sides afresh (a new instance, a new tmpfs) before a benchmark that builds
 * millions of entries: what earlier ones built would otherwise stay, and the kernel's
 * side of all of them together (about 1 KiB of slab an entry) would not fit in memory.
 */
static void reset_sides(void)
{
	hosts_mounted = false;
	uvfs_free(fs);
	fs = uvfs_new(NULL);
	T = uvfs_task_new(fs);
	if (!fs || !T)
		die("uvfs_new", -ENOMEM);
	if (chdir("/") || umount2(hostdir, MNT_DETACH) ||
	    mount("none", hostdir, "tmpfs", 0, "nr_inodes=0") || chdir(hostdir))
		die("remount the host tmpfs", -errno);
}

/* The objects a benchmark works on look the same on both sides. */
static int check_same(const struct bench *b)
{
	const char *paths[3] = { b->path[0] ? b->path : NULL, b->npaths ? b->paths[0] : NULL,
				 b->npaths ? b->paths[b->npaths - 1] : NULL };

	for (int i = 0; i < 3; i++) {
		struct stat us, hs;
		int ur, hr;

		if (!paths[i])
			continue;
		ur = uvfs_fstatat(T, AT_FDCWD, paths[i], &us, 0);
		/* the kernel side of the absolute row is chrooted into hostdir */
		hr = fstatat(AT_FDCWD, paths[i] + (b->run == run_fstat_absolute), &hs, 0) ? -errno : 0;
		/* and it must exist, but where the benchmark is about ENOENT */
		bool lookup = b->run == run_fstat || b->run == run_fstat_random ||
			      b->run == run_fstat_dirfd || b->run == run_fstat_absolute;

		if (ur != hr || (lookup && ur && !strstr(b->name, "ENOENT")) ||
		    (!ur && (us.st_mode != hs.st_mode || us.st_nlink != hs.st_nlink ||
			     us.st_size != hs.st_size))) {
			fprintf(stderr, "bench check: %s: %s differs (uvfs %d, kernel %d)\n", b->name,
				paths[i], ur, hr);
			return 1;
		}
	}
	if (b->run == run_readlink) {
		char up[64], hp[64], ub[4096] = "", hb[4096] = "";
		ssize_t un, hn;

		snprintf(up, sizeof(up), "/proc/self/fd/%d", ufd);
		snprintf(hp, sizeof(hp), "/proc/self/fd/%d", hfd);
		un = uvfs_readlinkat(T, AT_FDCWD, up, ub, sizeof(ub) - 1);
		hn = readlink(hp, hb, sizeof(hb) - 1);
		/* the kernel's path starts with the bench's tmpfs */
		if (un < 0 || hn < 0 || strcmp(ub, hb + strlen(hostdir))) {
			fprintf(stderr, "bench check: readlink: uvfs '%s', kernel '%s'\n", ub, hb);
			return 1;
		}
	}
	if (b->run == run_getdents) {
		char buf[65536];
		int fd = uvfs_openat(T, AT_FDCWD, "big", O_RDONLY | O_DIRECTORY, 0), hfd2;
		long un = 0, hn = 0, n;

		while ((n = uvfs_getdents64(T, fd, buf, sizeof(buf))) > 0)
			un += n;
		uvfs_close(T, fd);
		hfd2 = openat(AT_FDCWD, "big", O_RDONLY | O_DIRECTORY);
		while ((n = syscall(SYS_getdents64, hfd2, buf, sizeof(buf))) > 0)
			hn += n;
		close(hfd2);
		if (un != hn) {
			fprintf(stderr, "bench check: getdents: uvfs %ld bytes, kernel %ld\n", un, hn);
			return 1;
		}
	}
	return 0;
}

static struct bench *find(const char *name);

/*
 * The marginal cost of a component: (depth 16 - depth 4) / 12 on each side, from the
 * same run's medians (goal: <= 8 ns for uvfs; the kernel's is the comparison).
 */
static void print_marginal(void)
{
	struct bench *d4 = find("fstatat depth 4"), *d16 = find("fstatat depth 16");
	double u, h;

	if (!d4->uvfs_ns || !d16->uvfs_ns)
		return;
	u = (d16->uvfs_ns - d4->uvfs_ns) / 12;
	h = (d16->host_ns - d4->host_ns) / 12;
	if (json)
		printf("  ,{\"name\": \"fstatat, per component\", \"uvfs_ns\": %.1f, "
		       "\"kernel_ns\": %.1f, \"ratio\": %.2f, \"goal_ns\": 8}\n", u, h, h / u);
	else
		printf("%-44s %12.1f %12.1f %8.1fx  <= 8 ns%s\n", "fstatat, per component (4 -> 16)",
		       u, h, h / u, u <= 8 ? " met" : " MISSED");
}

static struct bench *find(const char *name)
{
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
		if (!strcmp(benches[i].name, name))
			return &benches[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *only = NULL, *instr = NULL;
	struct membench mem[2] = { { "per empty file", 100000, 0, 0 },
				   { "per directory", 100000, 0, 0 } };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--check"))
			check_mode = true;
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--instr") && i + 1 < argc)
			instr = argv[++i];
		else if (!strcmp(argv[i], "--flat-entries") && i + 1 < argc)
			flat_entries = atol(argv[++i]);
		else if (!strcmp(argv[i], "--host-walk") && i + 1 < argc) {
			char *end;

			errno = 0;
			host_walk_n = strtol(argv[++i], &end, 10);
			if (errno || *end || host_walk_n < 1 || host_walk_n > 100000000) {
				fprintf(stderr, "uvfs-bench: --host-walk wants 1 to 10^8 files, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "usage: uvfs-bench [--quick] [--json] [--rounds R] [--only NAME] "
					"[--check] [--instr NAME] [--flat-entries N] [--host-walk N]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > 64)
		rounds = 7;
	if (!quick && !check_mode && !instr)
		mem[0].n = mem[1].n = 1000000;
	setup_host();
	fs = uvfs_new(NULL);
	T = uvfs_task_new(fs);
	if (!fs || !T)
		die("uvfs_new", -ENOMEM);
	if (host_walk_n) {
		host_walk(host_walk_n);
		uvfs_free(fs);
		uvfs_free(fs_cold);
		return 0;
	}
	if (instr) {
		struct bench *b = find(instr);

		if (!b) {
			fprintf(stderr, "uvfs-bench: no benchmark '%s'\n", instr);
			return 2;
		}
		b->setup(b);
		b->run(b, UVFS, 1000); /* warm */
		CALLGRIND_START_INSTRUMENTATION;
		CALLGRIND_TOGGLE_COLLECT;
		b->run(b, UVFS, b->iters / 10);
		CALLGRIND_TOGGLE_COLLECT;
		CALLGRIND_STOP_INSTRUMENTATION;
		printf("%s: %ld uvfs operations measured\n", b->name, b->iters / 10);
		return 0;
	}
	if (check_mode)
		rounds = 1;
	/* --check: every benchmark's objects answer the same on both sides */
	if (json)
		printf("{\"date\": %ld, \"rounds\": %d, \"benchmarks\": [\n", (long)time(NULL), rounds);
	else
		printf("%-44s %12s %12s %9s  %s\n", "benchmark", "uvfs ns/op", "kernel ns/op",
		       "kernel/uvfs", "goal");
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		struct bench *b = &benches[i];

		if (only && strcmp(only, b->name))
			continue;
		if ((quick || check_mode) && (strstr(b->name, "10^6") || strstr(b->name, "10^7")))
			continue; /* the big trees take minutes to build */
		if (strstr(b->name, "10^6") || strstr(b->name, "10^7"))
			reset_sides();
		b->setup(b);
		if (check_mode) {
			b->iters = 2;
			quick = false;
			if (check_same(b))
				return 1;
		}
		measure(b);
		if (json)
			printf("  {\"name\": \"%s\", \"uvfs_ns\": %.1f, \"kernel_ns\": %.1f, \"ratio\": %.2f, "
			       "\"goal\": %.0f}%s\n", b->name, b->uvfs_ns, b->host_ns, b->ratio,
			       b->goal_ratio, i + 1 < sizeof(benches) / sizeof(benches[0]) ? "," : "");
		else
			printf("%-44s %12.1f %12.1f %8.1fx  %s%s\n", b->name, b->uvfs_ns, b->host_ns,
			       b->ratio, b->goal, !b->goal_ratio ? "" : b->ratio >= b->goal_ratio ? " met"
												: " MISSED");
		fflush(stdout);
	}
	if (!check_mode)
		print_marginal();
	if ((!only || !strncmp(only, "memory", 6)) && !check_mode) {
		for (int i = 0; i < 2; i++) {
			reset_sides();
			memory(&mem[i], i == 1);
			if (json)
				printf("  ,{\"name\": \"memory %s\", \"n\": %ld, "
				       "\"uvfs_rss_bytes\": %.0f, \"kernel_slab_bytes\": %.0f}\n",
				       mem[i].what, mem[i].n, mem[i].uvfs_rss, mem[i].host_slab);
			else
				printf("memory %-15s (%ld): uvfs RSS %.0f bytes, kernel slab %.0f bytes%s\n",
				       mem[i].what, mem[i].n, mem[i].uvfs_rss, mem[i].host_slab, i == 0 ? (mem[i].uvfs_rss <= 256 ? "  goal <= 256: met"
										: "  goal <= 256: MISSED") : "");
		}
		for (int i = 0; i < 2; i++) {
			/* 50,000 host files walked, and 10^6: the cache stops at its bound */
			struct membench h = { "per cached host entry", i ? 1000000 : 50000, 0, 0 };
			long cached;

			if (quick && i)
				continue;
			reset_sides();
			memory_host(&h, &cached);
			if (json)
				printf("  ,{\"name\": \"memory %s, %ld walked\", \"n\": %ld, "
				       "\"uvfs_rss_bytes\": %.1f, \"kernel_slab_bytes\": %.1f}\n",
				       h.what, h.n, cached, h.uvfs_rss, h.host_slab);
			else
				printf("memory %s (%ld host files walked, %ld cached): uvfs RSS %.1f "
				       "bytes, host kernel slab %.1f bytes (the descriptor and watch "
				       "uvfs holds)\n", h.what, h.n, cached, h.uvfs_rss, h.host_slab);
		}
	}
	if (json)
		printf("]}\n");
	if (check_mode)
		printf("bench check: every benchmark ran on both sides\n");
	uvfs_free(fs);
	if (fs_cold)
		uvfs_free(fs_cold);  /* the host mounts' cold instance (mount_hosts) */
	if (chdir("/") == 0) {
		umount2(hostdir, MNT_DETACH);
		rmdir(hostdir);
	}
	return 0;
}
