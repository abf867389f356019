// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_diff_scripts.c - every tests/diff/NAME.sys and tests/regress/NAME.sys runs on
 * the host kernel (tmpfs, private mount namespace, chroot) and on uvfs; the outputs,
 * including the final tree, must be identical.  One cmocka test per script.
 */
#include <dirent.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <uvfs/uvfs.h>

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

/*
 * The device numbering does not depend on whether a freed anonymous device number
 * was reused (docs/TESTING.md, "What the kernel does not promise"): the same script
 * on uvfs twice, once as it is and once with another namespace's tmpfs taking the
 * number the first tmpfs freed before the script mounts its second -- what another
 * process of the host does to the kernel side on a busy machine.  Both runs must
 * print the same: the second tmpfs is a new device (dev4, ino #2) either way.
 */
static const char *const reuse_script[] = {
	"mkdirat AT_FDCWD a 0755",
	"mkdirat AT_FDCWD b 0755",
	"mount2 none a tmpfs 0 NULL",
	"fstatat AT_FDCWD a 0",
	"mountinfo",
	"umount2 a 0",
	/* here the other namespace mounts, in the second run */
	"mount2 none b tmpfs 0 NULL",
	"fstatat AT_FDCWD b 0",
	"mountinfo",
};

static char *run_reuse(bool steal)
{
	struct sys_backend *b = sys_backend_uvfs_proc(NULL);
	struct uvfs_task *other;
	struct sysscript s;
	char *out = NULL;
	size_t len = 0;
	dev_t first = 0;
	FILE *f;

	assert_non_null(b);
	other = uvfs_task_fork(sys_backend_uvfs_task(b));
	assert_non_null(other);
	assert_int_equal(uvfs_unshare(other, CLONE_NEWNS), 0);
	assert_int_equal(uvfs_mkdirat(other, AT_FDCWD, "/thief", 0755), 0);
	f = open_memstream(&out, &len);
	sysscript_init(&s, b, f);
	for (size_t i = 0; i < sizeof(reuse_script) / sizeof(reuse_script[0]); i++) {
		struct stat st;

		if (steal && !strncmp(reuse_script[i], "mount2 none b", 13)) {
			assert_int_equal(uvfs_mount2(other, "none", "/thief", "tmpfs", 0, NULL), 0);
			assert_int_equal(uvfs_fstatat(other, AT_FDCWD, "/thief", &st, 0), 0);
			assert_int_equal(st.st_dev, first);  /* the first tmpfs's, freed */
		}
		sysscript_line(&s, reuse_script[i]);
		if (!strncmp(reuse_script[i], "mount2 none a", 13)) {
			assert_int_equal(uvfs_fstatat(sys_backend_uvfs_task(b), AT_FDCWD, "a", &st, 0), 0);
			first = st.st_dev;
		}
	}
	sysscript_done(&s);
	fclose(f);
	uvfs_task_exit(other);
	sys_backend_uvfs_free(b);
	return out;
}

static void test_device_numbers_reused_or_not(void **state)
{
	char *plain = run_reuse(false), *stolen = run_reuse(true);

	(void)state;
	/* the kernel's output on a quiet machine, where it reuses the number too */
	assert_non_null(strstr(plain, "mount2 none b tmpfs 0 NULL = 0\nfstatat AT_FDCWD b 0 = 0 "
				      "{dir 1777 nlink=2 size=40 blocks=0 uid=0 gid=0 ino=#2}"));
	assert_non_null(strstr(plain, "m4 m1 dev4 / /b rw,relatime - tmpfs none rw"));
	assert_string_equal(plain, stolen);
	free(plain);
	free(stolen);
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
	tests = calloc(n + 1, sizeof(*tests));
	for (size_t i = 0; i < n; i++) {
		tests[i].name = strrchr(paths[i], '/') + 1;
		tests[i].test_func = run_script;
		tests[i].initial_state = paths[i];
	}
	tests[n].name = "device numbers, reused or not";
	tests[n].test_func = test_device_numbers_reused_or_not;
	if (!n) {
		fprintf(stderr, "no scripts found under %s\n", TESTS_DIR);
		return 1;
	}
	{
		int failed = _cmocka_run_group_tests("diff_scripts", tests, n + 1, NULL, NULL);

		for (size_t i = 0; i < n; i++)
			free(paths[i]);
		free(paths);
		free(tests);
		return failed;
	}
}
