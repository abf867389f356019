/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * diffcheck.h - run a sysscript on the host kernel and on uvfs and assert that the
 * two outputs are identical; the kernel's output is the expected value.
 */
#ifndef UVFS_TESTS_DIFFCHECK_H
#define UVFS_TESTS_DIFFCHECK_H

#include <stdbool.h>

/* 0: equal.  1: different (a unified diff is printed).  -1: the host side could
 * not run (not root, no namespaces): the caller skips, it does not pass. */
int diffcheck(const char *name, const char *script, bool dump);

#endif
