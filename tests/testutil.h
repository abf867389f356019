/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * testutil.h - checks shared by the unit tests (include after <cmocka.h>).
 */
#ifndef UVFS_TESTS_TESTUTIL_H
#define UVFS_TESTS_TESTUTIL_H

#include "introspect.h"

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

#endif
