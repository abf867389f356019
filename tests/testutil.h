/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * testutil.h - checks shared by the unit tests (include after <cmocka.h>).
 */
#ifndef UVFS_TESTS_TESTUTIL_H
#define UVFS_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "introspect.h"
#include "uvfs/uvfs.h"

/* readlinkat as a string: the target, or the errno's name ("ENOENT"). */
static inline void readlink_str(struct uvfs_task *t, const char *link, char *out, size_t n)
{
	ssize_t r = uvfs_readlinkat(t, AT_FDCWD, link, out, n - 1);

	if (r < 0)
		snprintf(out, n, "%s", strerrorname_np((int)-r));
	else
		out[r] = 0;
}

/* The record at *off of a getdents64 buffer of n bytes (struct linux_dirent64: d_ino,
 * d_off, d_reclen at 16, d_type at 18, d_name at 19): its name and type, *off moved
 * past it; false at the end. */
static inline bool dirent_next(const char *buf, long n, long *off, const char **name,
			       unsigned char *type)
{
	unsigned short reclen;

	if (*off >= n)
		return false;
	memcpy(&reclen, buf + *off + 16, sizeof(reclen));
	*type = (unsigned char)buf[*off + 18];
	*name = buf + *off + 19;
	*off += reclen;
	return true;
}

/* After every uvfs_free: nothing any instance allocated is left (the counters are
 * process-wide and wait for pending RCU frees). */
static inline void assert_no_live_objects(void)
{
	struct uvfs_live_counts c;

	uvfs_live_counts(&c);
	assert_int_equal(c.dentries, 0);
	assert_int_equal(c.names, 0);
	assert_int_equal(c.inodes, 0);
	assert_int_equal(c.files, 0);
	assert_int_equal(c.tasks, 0);
	assert_int_equal(c.instances, 0);
}

/* The last case of a suite: after every uvfs_free of its tests, nothing is left. */
static inline void test_no_leaks(void **state)
{
	(void)state;
	assert_no_live_objects();
}

#endif
