// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_mount_max.c - fs.mount-max: a namespace holds at most that many mounts
 * (ENOSPC), counted as the kernel's count_mounts() counts them -- a new mount, a bind
 * with its whole tree (all or nothing), not a move, a remount or a namespace copy.
 *
 * The kernel's own limit is 100,000, and reaching it costs the host minutes (its
 * mounts take quadratic time: 5,000 binds 0.28 s, 10,000 1.25 s on this machine), so
 * the test lowers the sysctl to LIMIT for the run and puts it back: the host side
 * counts against the lowered value, and uvfs reads it when the instance is made.
 * Meson runs this test alone (is_parallel: false): no other test's namespace meets
 * the lowered limit.  A signal puts the value back too.
 *
 * Both sides start with three mounts: the rootfs (hidden), the tmpfs root and /proc
 * (the script reads mountinfo; backend_host.c's sandbox detaches the host's mounts).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "diffcheck.h"

#define SYSCTL "/proc/sys/fs/mount-max"
#define LIMIT 40

static char saved[32];
static size_t saved_len;

static int write_sysctl(const char *v, size_t len)
{
	int fd = open(SYSCTL, O_WRONLY);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, v, len);
	close(fd);
	return w == (ssize_t)len ? 0 : -1;
}

static void restore_on_signal(int sig)
{
	(void)write_sysctl(saved, saved_len);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* 0 with the sysctl at LIMIT, -1 when it cannot be changed (not root) */
static int lower_limit(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGSEGV, SIGABRT, SIGBUS };
	char v[16];
	int fd = open(SYSCTL, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = read(fd, saved, sizeof(saved) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	saved_len = (size_t)r;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], restore_on_signal);
	snprintf(v, sizeof(v), "%d\n", LIMIT);
	return write_sysctl(v, strlen(v));
}

static void restore_limit(void)
{
	if (write_sysctl(saved, saved_len))
		fprintf(stderr, "test_mount_max: could not put %s back to %.*s", SYSCTL,
			(int)saved_len, saved);
}

/* The script: appended to a growing buffer */
struct buf {
	char *s;
	size_t len;
};

static void add(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	b->s = realloc(b->s, b->len + (size_t)n + 2);
	if (!b->s)
		abort();
	memcpy(b->s + b->len, line, (size_t)n);
	b->len += (size_t)n;
	b->s[b->len++] = '\n';
	b->s[b->len] = 0;
	free(line);
}

static void run(const char *name, const char *script)
{
	int r;

	if (lower_limit()) {
		fprintf(stderr, "%s: cannot set %s (root needed)\n", name, SYSCTL);
		skip();
	}
	r = diffcheck(name, script, true);
	restore_limit();
	if (r < 0)
		skip();
	assert_int_equal(r, 0);
}

/* Binds of distinct directories until the namespace is full: the one past LIMIT is
 * ENOSPC, and so is a new filesystem; after an unmount one fits again; a remount and
 * a move at the limit are no new mounts. */
static void test_binds_to_the_limit(void **state)
{
	struct buf b = { 0 };

	(void)state;
	add(&b, "mkdirat AT_FDCWD t 0755");
	add(&b, "mount2 none t tmpfs 0 NULL");
	for (int i = 0; i < LIMIT; i++) {
		add(&b, "mkdirat AT_FDCWD t/d%d 0755", i);
		add(&b, "mount2 t/d%d t/d%d NULL MS_BIND NULL", i, i);
	}
	add(&b, "mountinfo");
	add(&b, "mkdirat AT_FDCWD t/x 0755");
	add(&b, "mount2 none t/x tmpfs 0 NULL");
	add(&b, "mount2 t/x t/x NULL MS_BIND|MS_REC NULL");
	add(&b, "umount2 t/d1 0");
	add(&b, "mount2 none t/x tmpfs 0 NULL");
	add(&b, "mount2 none t/d1 tmpfs 0 NULL");
	add(&b, "mount2 NULL t/x NULL MS_REMOUNT|MS_RDONLY NULL");
	add(&b, "mount2 NULL t/x NULL MS_REMOUNT|MS_BIND|MS_RDONLY NULL");
	add(&b, "mkdirat AT_FDCWD t/y 0755");
	add(&b, "mount2 t/x t/y NULL MS_MOVE NULL");
	add(&b, "mount2 none t/d1 tmpfs 0 NULL");
	add(&b, "mountinfo");
	run("binds to the limit", b.s);
	free(b.s);
}

/* A recursive bind is counted whole: a tree that does not fit is refused with
 * nothing attached, a smaller one fits. */
static void test_recursive_bind_counted_whole(void **state)
{
	struct buf b = { 0 };
	int i;

	(void)state;
	add(&b, "mkdirat AT_FDCWD t 0755");
	add(&b, "mount2 none t tmpfs 0 NULL");
	add(&b, "mkdirat AT_FDCWD t/a 0755");
	add(&b, "mount2 none t/a tmpfs 0 NULL");
	for (i = 0; i < 10; i++) {
		add(&b, "mkdirat AT_FDCWD t/a/s%d 0755", i);
		add(&b, "mount2 none t/a/s%d tmpfs 0 NULL", i);
	}
	/* 3 + 2 + 10 = 15 mounts; t/a's tree is 11 */
	add(&b, "mkdirat AT_FDCWD t/b 0755");
	add(&b, "mount2 t/a t/b NULL MS_BIND|MS_REC NULL");      /* 26 */
	add(&b, "mkdirat AT_FDCWD t/c 0755");
	add(&b, "mount2 t/a t/c NULL MS_BIND|MS_REC NULL");      /* 37 */
	add(&b, "mkdirat AT_FDCWD t/e 0755");
	add(&b, "mount2 t/a t/e NULL MS_BIND|MS_REC NULL");      /* 48 > 40: ENOSPC */
	add(&b, "fstatat AT_FDCWD t/e/s0 AT_SYMLINK_NOFOLLOW");
	add(&b, "mount2 t/a/s0 t/e NULL MS_BIND|MS_REC NULL");   /* 38 */
	add(&b, "mount2 t/a t/e NULL MS_BIND NULL");              /* 39 */
	add(&b, "mount2 t/a t/e NULL MS_BIND NULL");              /* 40 */
	add(&b, "mount2 t/a t/e NULL MS_BIND NULL");              /* ENOSPC */
	add(&b, "mountinfo");
	add(&b, "umount2 t/c MNT_DETACH");                        /* 29 */
	add(&b, "mount2 t/a t/c NULL MS_BIND|MS_REC NULL");      /* 40 */
	add(&b, "mountinfo");
	run("recursive bind counted whole", b.s);
	free(b.s);
}

/* A namespace copy is not refused at the limit (copy_mnt_ns() counts, it does not
 * check), and the copy is as full as its original. */
static void test_namespace_copy(void **state)
{
	struct buf b = { 0 };

	(void)state;
	add(&b, "mkdirat AT_FDCWD t 0755");
	add(&b, "mount2 none t tmpfs 0 NULL");
	for (int i = 0; i < LIMIT - 5; i++) {
		add(&b, "mkdirat AT_FDCWD t/d%d 0755", i);
		add(&b, "mount2 none t/d%d tmpfs 0 NULL", i);
	}
	add(&b, "mkdirat AT_FDCWD t/z 0755");
	add(&b, "mount2 none t/z tmpfs 0 NULL");
	add(&b, "unshare CLONE_NEWNS");
	add(&b, "mount2 none t/z tmpfs 0 NULL");
	add(&b, "umount2 t/d0 0");
	add(&b, "mount2 none t/z tmpfs 0 NULL");
	add(&b, "mount2 none t/z tmpfs 0 NULL");
	add(&b, "mountinfo");
	run("namespace copy", b.s);
	free(b.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binds_to_the_limit),
		cmocka_unit_test(test_recursive_bind_counted_whole),
		cmocka_unit_test(test_namespace_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
