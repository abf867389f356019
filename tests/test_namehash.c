// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_namehash.c - the one-pass name hash (src/namehash.h) and the lockless walk's
 * reads past the end of a component.
 *
 * hash_name() finds the end of a component and hashes it in the same pass, reading
 * the path sixteen (or eight) bytes at a time; the dcache stores hashes made by
 * hash_known() from a name of known length.  The two must agree for every length and
 * either terminator, or a lookup misses a name that is there.  And the wide reads may
 * never fault: a path whose NUL is the last byte before an unmapped page must walk
 * like any other.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "namehash.h"
#include "uvfs/uvfs.h"

static void fill_name(unsigned char *p, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)('a' + (seed * 7 + i * 13) % 26);
}

/* Every length 0..200, ended by NUL or '/', at every alignment of a word. */
static void test_hash_name_matches_known(void **state)
{
	unsigned char buf[512];

	(void)state;
	for (unsigned int len = 0; len <= 200; len++)
		for (unsigned int align = 0; align < 16; align++)
			for (int term = 0; term < 2; term++) {
				unsigned char *p = buf + align;
				uint64_t hl;

				memset(buf, 'Z', sizeof(buf));
				fill_name(p, len, len + align);
				p[len] = term ? '/' : 0;
				if (term)
					p[len + 1] = 'q';
				hl = hash_name(p);
				assert_int_equal(HASH_LEN_LEN(hl), len);
				assert_int_equal((uint32_t)hl, hash_known(p, len));
				assert_true(hash_name_words(p) == hl);
			}
}

/* Different names of one length hash differently: a changed byte anywhere moves the
 * hash (the rotation must bring every byte into the bucket bits). */
static void test_hash_spreads_every_byte(void **state)
{
	unsigned char a[64], b[64];

	(void)state;
	for (unsigned int len = 1; len <= 40; len++)
		for (unsigned int i = 0; i < len; i++) {
			fill_name(a, len, 3);
			memcpy(b, a, len);
			b[i] ^= 1;
			assert_int_not_equal(hash_known(a, len) & 0xfffff, hash_known(b, len) & 0xfffff);
		}
}

/* Both scans read a path ending right before an unmapped page without touching it. */
static void test_hash_at_page_end(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	for (unsigned int len = 0; len <= 40; len++) {
		unsigned char *p = m + page - (len + 1);

		fill_name(p, len, len);
		p[len] = 0;
		assert_true(hash_name(p) == HASH_LEN(hash_known(p, len), len));
		assert_true(hash_name_words(p) == HASH_LEN(hash_known(p, len), len));
	}
	munmap(m, (size_t)page * 2);
}

/* A path ending right before an unmapped page: the walk reads no byte of it. */
static void test_walk_at_page_end(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, (size_t)page, PROT_NONE), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/d", 0755), 0);
	for (unsigned int len = 1; len <= 60; len++) {
		char name[80], path[96];
		struct stat want, got;
		char *p;

		fill_name((unsigned char *)name, len, len);
		name[len] = 0;
		snprintf(path, sizeof(path), "/d/%s", name);
		assert_int_equal(uvfs_mknodat(t, AT_FDCWD, path, S_IFREG | 0600, 0), 0);
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, path, &want, 0), 0);
		/* the same path with its NUL as the page's last byte */
		p = (char *)m + page - (strlen(path) + 1);
		memcpy(p, path, strlen(path) + 1);
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, p, &got, 0), 0);
		assert_int_equal(got.st_ino, want.st_ino);
		/* and one that names nothing, and one through a non-directory */
		p = (char *)m + page - (strlen(path) + 2);
		memcpy(p, path, strlen(path));
		p[strlen(path)] = 'x';
		p[strlen(path) + 1] = 0;
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, p, &got, 0), -ENOENT);
		p = (char *)m + page - (strlen(path) + 3);
		memcpy(p, path, strlen(path));
		memcpy(p + strlen(path), "/y", 3);
		assert_int_equal(uvfs_fstatat(t, AT_FDCWD, p, &got, 0), -ENOTDIR);
	}
	uvfs_task_exit(t);
	uvfs_free(fs);
	munmap(m, (size_t)page * 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_name_matches_known),
		cmocka_unit_test(test_hash_spreads_every_byte),
		cmocka_unit_test(test_hash_at_page_end),
		cmocka_unit_test(test_walk_at_page_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
