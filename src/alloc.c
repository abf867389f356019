// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * alloc.c - the bottom of the library: every allocation goes through here, so that
 * tests can fail any one of them (uvfs_fail_countdown, internal.h), and the
 * process-wide counts of live objects that leak checks read.
 *
 * Locking: none.  uvfs_fail_countdown is per thread; uvfs_live is atomic.
 */
#include "internal.h"

struct uvfs_live uvfs_live;
_Thread_local long uvfs_fail_countdown = -1;

void *uvfs_malloc(size_t size)
{
	return uvfs_should_fail() ? NULL : malloc(size);
}

void *uvfs_zalloc(size_t size)
{
	return uvfs_should_fail() ? NULL : calloc(1, size);
}

void *uvfs_realloc(void *p, size_t size)
{
	return uvfs_should_fail() ? NULL : realloc(p, size);
}
