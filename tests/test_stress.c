// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_stress.c - eight threads, each its own task, collide on the same names: creates,
 * renames, exchanges, unlinks, mkdir/rmdir, dup3s, forks and exits, lockless stats and
 * readlinks of /proc/PID/fd/N, theirs and each other's.  Every call's result must be
 * one Linux can give for that call on that shape of tree (the errno sets below), every
 * /proc link must read as a path this tree can have, and afterwards the tree must be
 * consistent (link counts, sizes, names) and uvfs_free must leave nothing.
 *
 * It is the test ThreadSanitizer runs in CI (make tsan): the interleavings are the
 * scheduler's, the assertions hold for every one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "testutil.h"

#define THREADS 8
#define DIRS 4
#define NAMES 6
#define SLOTS 4          /* descriptors a thread keeps open at once */
#define DUP_BASE 100     /* dup3 targets: DUP_BASE .. DUP_BASE + SLOTS - 1 */
#define LONG_PAD "-a-name-long-enough-to-be-stored-outside-the-dentry"

static int rounds = 40000;
static pthread_barrier_t start;

struct worker {
	struct uvfs_task *t;
	int pid;
	unsigned int seed;
	int fds[SLOTS];
	struct worker *all;
	char failure[256];   /* the first unexpected result, "" if none */
	long done[10];       /* rounds of each kind whose call succeeded */
};

/* Record the first result that Linux could not give; the thread goes on, so that the
 * others still race with it, and the main thread fails the test with the text. */
static void note_failure(struct worker *w, const char *fmt, ...)
{
	va_list ap;

	if (w->failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(w->failure, sizeof(w->failure), fmt, ap);
	va_end(ap);
}

static bool allowed(int ret, const int *errs)
{
	if (ret >= 0)
		return true;
	for (; *errs; errs++)
		if (ret == -*errs)
			return true;
	return false;
}

#define EXPECT(w, ret, what, ...)                                                     \
	do {                                                                          \
		static const int errs_[] = { __VA_ARGS__, 0 };                        \
		int r_ = (int)(ret);                                                  \
		if (!allowed(r_, errs_))                                              \
			note_failure(w, "%s: %s", what, r_ < 0 ? strerrorname_np(-r_) : "0"); \
	} while (0)

/* "/dK/nM" or "/dK/nM<pad>", maybe " (deleted)": what a descriptor of this tree can
 * print (d_path), whatever renames happened meanwhile. */
static bool tree_path(const char *s)
{
	const char *p = s;

	if (p[0] != '/' || p[1] != 'd' || p[2] < '0' || p[2] >= '0' + DIRS || p[3] != '/' ||
	    p[4] != 'n' || p[5] < '0' || p[5] >= '0' + NAMES)
		return false;
	p += 6;
	if (!strncmp(p, LONG_PAD, strlen(LONG_PAD)))
		p += strlen(LONG_PAD);
	return !*p || !strcmp(p, " (deleted)");
}

static void name_of(unsigned int r, char *out, size_t n)
{
	snprintf(out, n, "/d%u/n%u%s", r % DIRS, (r / DIRS) % NAMES,
		 (r >> 8) & 1 ? LONG_PAD : "");
}

/* readlink of /proc/PID/fd/N: a tree path (0), or ENOENT (nothing open there). */
static int check_fd_link(struct worker *w, int pid, int fd)
{
	char link[64], buf[256];
	ssize_t n;

	if (pid)
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	else
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = uvfs_readlinkat(w->t, AT_FDCWD, link, buf, sizeof(buf) - 1);
	if (n == -ENOENT)
		return -ENOENT;
	if (n < 0) {
		note_failure(w, "readlink %s: %s", link, strerrorname_np((int)-n));
		return (int)n;
	}
	buf[n] = 0;
	if (!tree_path(buf))
		note_failure(w, "readlink %s: \"%s\"", link, buf);
	return 0;
}

static void one_round(struct worker *w)
{
	unsigned int r = (unsigned int)rand_r(&w->seed);
	unsigned int slot = (r >> 20) % SLOTS;
	char a[128], b[128];
	struct stat st;
	int ret, err;

	name_of(r, a, sizeof(a));
	name_of(r >> 10, b, sizeof(b));
	unsigned int kind = (r >> 24) % 10;

	ret = 0;
	switch (kind) {
	case 0: /* create, keep it open (the slot's old one closed) */
		if (w->fds[slot] >= 0)
			EXPECT(w, uvfs_close(w->t, w->fds[slot]), "close", 0);
		ret = w->fds[slot] = uvfs_openat(w->t, AT_FDCWD, a, O_CREAT | O_RDWR, 0644);
		/* a directory of that name: EISDIR */
		EXPECT(w, w->fds[slot], "open O_CREAT", EISDIR);
		if (w->fds[slot] >= 0)
			EXPECT(w, uvfs_write(w->t, w->fds[slot], "data", 4), "write", 0);
		break;
	case 1: /* file over dir EISDIR, dir over file ENOTDIR, dir over full dir n/a */
		ret = uvfs_renameat2(w->t, AT_FDCWD, a, AT_FDCWD, b, 0);
		EXPECT(w, ret, "rename", ENOENT, EISDIR, ENOTDIR);
		break;
	case 2:
		ret = uvfs_renameat2(w->t, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
		EXPECT(w, ret, "exchange", ENOENT);
		break;
	case 3:
		ret = uvfs_unlinkat(w->t, AT_FDCWD, a, 0);
		EXPECT(w, ret, "unlink", ENOENT, EISDIR);
		break;
	case 4:
		ret = uvfs_mkdirat(w->t, AT_FDCWD, a, 0755);
		EXPECT(w, ret, "mkdir", EEXIST);
		break;
	case 5:
		ret = uvfs_unlinkat(w->t, AT_FDCWD, a, AT_REMOVEDIR);
		EXPECT(w, ret, "rmdir", ENOENT, ENOTDIR);
		break;
	case 6: /* EBADF: the slot is closed */
		ret = uvfs_dup3(w->t, w->fds[slot] >= 0 ? w->fds[slot] : 99, DUP_BASE + (int)slot, 0);
		EXPECT(w, ret, "dup3", EBADF);
		break;
	case 7: { /* somebody's descriptor, through /proc/self or its pid */
		struct worker *o = &w->all[(r >> 4) % THREADS];
		int fd = (r >> 8) & 1 ? DUP_BASE + (int)slot : 3 + (int)slot;

		ret = check_fd_link(w, o == w ? 0 : o->pid, fd);
		break;
	}
	case 8: { /* a child with copies of the descriptors, read, then gone */
		struct uvfs_task *c = uvfs_task_fork(w->t);
		char path[64];
		int cpid;

		if (!c) {
			note_failure(w, "fork: NULL");
			break;
		}
		cpid = uvfs_task_pid(c);
		ret = check_fd_link(w, cpid, DUP_BASE + (int)slot);
		uvfs_task_exit(c);
		snprintf(path, sizeof(path), "/proc/%d", cpid);
		if ((err = uvfs_fstatat(w->t, AT_FDCWD, path, &st, 0)) != -ENOENT)
			note_failure(w, "stat %s of an exited task: %s", path,
				     err ? strerrorname_np(-err) : "0");
		break;
	}
	default:
		ret = uvfs_fstatat(w->t, AT_FDCWD, a, &st, 0);
		EXPECT(w, ret, "stat", ENOENT);
		if (!ret && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
			note_failure(w, "stat %s: mode %o", a, st.st_mode);
		break;
	}
	if (ret >= 0)
		w->done[kind]++;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);  /* all at once: they are to collide */
	for (int i = 0; i < rounds; i++)
		one_round(w);
	return NULL;
}

/* A directory of the tree: its entries are n0..n5, maybe padded, each at most once,
 * each a file or an empty directory; tmpfs's nlink and size agree with them. */
static void check_dir(struct uvfs_task *t, const char *path)
{
	char buf[8192], seen[2][NAMES] = { { 0 } };
	int fd = uvfs_openat(t, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);
	long n, entries = 0, subdirs = 0;
	struct stat st;

	assert_true(fd >= 0);
	while ((n = uvfs_getdents64(t, fd, buf, sizeof(buf))) > 0) {
		const char *name;
		unsigned char type;

		for (long off = 0; dirent_next(buf, n, &off, &name, &type);) {
			char full[160];
			int padded;

			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			snprintf(full, sizeof(full), "%s/%s", path, name);
			assert_true(tree_path(full));
			padded = name[2] != 0;
			assert_int_equal(seen[padded][name[1] - '0']++, 0);
			entries++;
			assert_int_equal(uvfs_fstatat(t, AT_FDCWD, full, &st, AT_SYMLINK_NOFOLLOW), 0);
			if (type == 4) {
				assert_true(S_ISDIR(st.st_mode));
				assert_int_equal(st.st_nlink, 2);
				assert_int_equal(st.st_size, 40);
				subdirs++;
			} else {
				assert_int_equal(type, 8);
				assert_true(S_ISREG(st.st_mode));
				assert_true(st.st_size == 0 || st.st_size == 4);
			}
		}
	}
	assert_int_equal(n, 0);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_nlink, 2 + subdirs);
	assert_int_equal(st.st_size, 20 * (entries + 2));
	assert_int_equal(uvfs_close(t, fd), 0);
}

static void test_eight_threads_collide(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);
	struct worker w[THREADS];
	pthread_t th[THREADS];
	char path[32];

	(void)state;
	for (int i = 0; i < DIRS; i++) {
		snprintf(path, sizeof(path), "/d%d", i);
		assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, path, 0755), 0);
	}
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .t = uvfs_task_fork(t), .seed = 7000u + (unsigned)i,
					.all = w };
		assert_non_null(w[i].t);
		w[i].pid = uvfs_task_pid(w[i].t);
		for (int s = 0; s < SLOTS; s++)
			w[i].fds[s] = -1;
	}
	assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < THREADS; i++) {
		if (w[i].failure[0])
			fail_msg("thread %d: %s", i, w[i].failure);
	}
	/* the run did what it says: every kind of call succeeded some of the time */
	for (int k = 0; k < 10; k++) {
		long sum = 0;

		for (int i = 0; i < THREADS; i++)
			sum += w[i].done[k];
		if (!sum)
			fail_msg("no call of kind %d succeeded in %d rounds", k, rounds);
	}
	for (int i = 0; i < DIRS; i++) {
		snprintf(path, sizeof(path), "/d%d", i);
		check_dir(t, path);
	}
	/* every descriptor still open reads as a tree path; then the tasks go */
	for (int i = 0; i < THREADS; i++) {
		for (int s = 0; s < SLOTS; s++) {
			check_fd_link(&w[i], w[i].pid, 3 + s);
			check_fd_link(&w[i], w[i].pid, DUP_BASE + s);
		}
		if (w[i].failure[0])
			fail_msg("thread %d after the run: %s", i, w[i].failure);
		uvfs_task_exit(w[i].t);
	}
	uvfs_free(fs);
	assert_no_live_objects();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eight_threads_collide),
		cmocka_unit_test(test_no_leaks),
	};
	const char *env = getenv("UVFS_STRESS_ROUNDS");

	if (env)
		rounds = atoi(env);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
