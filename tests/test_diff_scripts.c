// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_diff_scripts.c - every tests/diff/NAME.sys and tests/regress/NAME.sys runs on
 * the host kernel (tmpfs, private mount namespace, chroot) and on uvfs; the outputs,
 * including the final tree, must be identical.  One cmocka test per script.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diffcheck.h"
#include "sysscript.h"

#ifndef TESTS_DIR
#error TESTS_DIR must name the tests source directory
#endif

static void run_script(void **state)
{
	const char *path = *state;
	char *script = sysscript_read_file(path);
	int r;

	assert_non_null(script);
	r = diffcheck(path, script, true);
	free(script);
	if (r < 0)
		skip();
	assert_int_equal(r, 0);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	static const char *const dirs[] = { TESTS_DIR "/diff", TESTS_DIR "/regress" };
	struct CMUnitTest *tests = NULL;
	char **paths = NULL;
	size_t n = 0;

	for (size_t d = 0; d < 2; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			size_t len = strlen(de->d_name);
			char *p;

			if (len < 5 || strcmp(de->d_name + len - 4, ".sys"))
				continue;
			if (asprintf(&p, "%s/%s", dirs[d], de->d_name) < 0)
				return 1;
			paths = realloc(paths, (n + 1) * sizeof(*paths));
			paths[n++] = p;
		}
		closedir(dir);
	}
	qsort(paths, n, sizeof(*paths), cmp);
	tests = calloc(n, sizeof(*tests));
	for (size_t i = 0; i < n; i++) {
		tests[i].name = strrchr(paths[i], '/') + 1;
		tests[i].test_func = run_script;
		tests[i].initial_state = paths[i];
	}
	if (!n) {
		fprintf(stderr, "no scripts found under %s\n", TESTS_DIR);
		return 1;
	}
	{
		int failed = _cmocka_run_group_tests("diff_scripts", tests, n, NULL, NULL);

		for (size_t i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		free(tests);
		return failed;
	}
}
