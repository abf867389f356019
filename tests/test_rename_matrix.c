// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_rename_matrix.c - renameat2 over every (source type x target type x flag x
 * same/cross directory), in the spirit of xfstests' renameat2 tests.  Every row's
 * expected result is the running kernel's: the matrix runs on a tmpfs in a private
 * mount namespace and on uvfs, and result, errno, fstat of both names' descriptors
 * and the whole resulting tree must be identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diffcheck.h"

static const char *const types[] = { "missing", "file", "symlink", "emptydir", "fulldir" };
static const char *const flags[] = { "0", "RENAME_NOREPLACE", "RENAME_EXCHANGE",
				     "RENAME_WHITEOUT" };

static void make(FILE *f, const char *type, const char *path)
{
	if (!strcmp(type, "file"))
		fprintf(f, "openat AT_FDCWD %s O_CREAT|O_WRONLY 0644\nwrite 0 \"%s\"\nclose 0\n",
			path, path);
	else if (!strcmp(type, "symlink"))
		fprintf(f, "symlinkat \"target:%s\" AT_FDCWD %s\n", path, path);
	else if (!strcmp(type, "emptydir"))
		fprintf(f, "mkdirat AT_FDCWD %s 0755\n", path);
	else if (!strcmp(type, "fulldir"))
		fprintf(f, "mkdirat AT_FDCWD %s 0755\nmknodat AT_FDCWD %s/inner S_IFREG|0600 0\n",
			path, path);
}

/* Descriptors that keep both objects reachable after the rename (O_PATH opens
 * anything, symlinks included). */
static void hold(FILE *f, const char *type, const char *path, int fd)
{
	if (strcmp(type, "missing"))
		fprintf(f, "openat AT_FDCWD %s O_PATH|O_NOFOLLOW # -> %d\n", path, fd);
}

static char *build(bool cross)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int row = 0;

	for (size_t s = 0; s < 5; s++)
		for (size_t t = 0; t < 5; t++)
			for (size_t fl = 0; fl < 4; fl++) {
				char d[32], src[64], dst[64];
				int nfd = 0;

				snprintf(d, sizeof(d), "r%03d", row++);
				snprintf(src, sizeof(src), "%s/a/src", d);
				snprintf(dst, sizeof(dst), "%s/%s/dst", d, cross ? "b" : "a");
				fprintf(f, "# row %s: %s -> %s, %s, %s\n", d, types[s], types[t],
					flags[fl], cross ? "across directories" : "same directory");
				fprintf(f, "mkdirat AT_FDCWD %s 0755\nmkdirat AT_FDCWD %s/a 0755\n", d, d);
				if (cross)
					fprintf(f, "mkdirat AT_FDCWD %s/b 0755\n", d);
				make(f, types[s], src);
				make(f, types[t], dst);
				hold(f, types[s], src, nfd);
				nfd += strcmp(types[s], "missing") != 0;
				hold(f, types[t], dst, nfd);
				nfd += strcmp(types[t], "missing") != 0;
				fprintf(f, "renameat2 AT_FDCWD %s AT_FDCWD %s %s\n", src, dst, flags[fl]);
				for (int i = 0; i < nfd; i++)
					fprintf(f, "fstat %d\n", i);
				for (int i = nfd - 1; i >= 0; i--)
					fprintf(f, "close %d\n", i);
				fprintf(f, "fstatat AT_FDCWD %s/a 0\n", d);
				if (cross)
					fprintf(f, "fstatat AT_FDCWD %s/b 0\n", d);
			}
	fclose(f);
	return text;
}

static void run(bool cross)
{
	char *script = build(cross);
	int r = diffcheck(cross ? "rename matrix, across directories" : "rename matrix, same directory",
			  script, true);

	free(script);
	if (r < 0)
		skip();
	assert_int_equal(r, 0);
}

static void test_same_dir(void **state) { (void)state; run(false); }
static void test_cross_dir(void **state) { (void)state; run(true); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_dir),
		cmocka_unit_test(test_cross_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
