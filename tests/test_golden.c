// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_golden.c - the shell's golden scripts: every tests/scripts/NAME.sh must print
 * exactly NAME.out under `uvfsh --stable` (standard error merged, as on a terminal),
 * and must print the same on the running kernel (`uvfsh --compare` exits 0), so every
 * golden file is Linux's own output; NAME.abi-all.out, where present, is the side-by-
 * side view under every personality.  The interactive mode is tested through a
 * pseudo-terminal: keystrokes in, screen out.
 */
#include <dirent.h>
#include <errno.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysscript.h"

#ifndef UVFSH
#error UVFSH must name the uvfsh binary
#endif
#ifndef TESTS_DIR
#error TESTS_DIR must name the tests source directory
#endif

static char *run(const char *args, int *status)
{
	char cmd[1024], *out = NULL;
	size_t len = 0;
	FILE *p, *m = open_memstream(&out, &len);
	int c;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", UVFSH, args);
	p = popen(cmd, "r");
	while ((c = fgetc(p)) != EOF)
		fputc(c, m);
	*status = pclose(p);
	fclose(m);
	return out;
}

static void expect_file(const char *args, const char *golden)
{
	char *want = sysscript_read_file(golden), *got;
	int status;

	assert_non_null(want);
	got = run(args, &status);
	if (strcmp(got, want))
		fail_msg("uvfsh %s differs from %s:\n--- got\n%s--- want\n%s", args, golden, got, want);
	free(got);
	free(want);
}

/* NAME.sh -> NAME<suffix> */
static void golden_name(const char *script, const char *suffix, char *out, size_t n)
{
	size_t len = strlen(script);

	snprintf(out, n, "%s", script);
	if (len >= 3 && len - 3 < n)
		snprintf(out + len - 3, n - (len - 3), "%s", suffix);
}

static void test_golden(void **state)
{
	const char *script = *state;
	char args[600], golden[600];

	snprintf(args, sizeof(args), "--stable %s", script);
	golden_name(script, ".out", golden, sizeof(golden));
	expect_file(args, golden);
	golden_name(script, ".abi-all.out", golden, sizeof(golden));
	if (access(golden, R_OK) == 0) {
		snprintf(args, sizeof(args), "--abi all %s", script);
		expect_file(args, golden);
	}
}

static void test_against_kernel(void **state)
{
	const char *script = *state;
	char args[600], *out;
	int status;

	if (geteuid() != 0)
		skip();
	snprintf(args, sizeof(args), "--compare %s", script);
	out = run(args, &status);
	if (status != 0)
		fail_msg("uvfsh --compare %s: the kernel says otherwise:\n%s", script, out);
	free(out);
}

/* Read from the pty until want shows up, the end, or 60 s (uvfsh under ASan on a
 * busy machine: 5 s, the limit before, was nearer than it looked, and a reader that
 * gave up left uvfsh blocked on a full pty); returns where want is, or NULL.  With
 * want NULL, to the end: buf when the end came, NULL when the time ran out. */
static char *read_until(int fd, const char *want, char *buf, size_t n, size_t *len)
{
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 60;
	for (;;) {
		fd_set r;
		struct timeval tv = { 0, 100000 };
		ssize_t got;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		FD_ZERO(&r);
		FD_SET(fd, &r);
		if (select(fd + 1, &r, NULL, NULL, &tv) <= 0)
			continue;
		got = read(fd, buf + *len, n - *len - 1);
		if (got <= 0)
			return want ? NULL : buf;  /* the end (EIO: the pty's other side closed) */
		*len += (size_t)got;
		buf[*len] = 0;
		if (want && strstr(buf, want))
			return strstr(buf, want);
	}
	return NULL;
}

/* "dcache > FILE": the walk's visitor wrote to a uvfs file while the walk held the
 * instance's lock and waited for itself (fuzz_shell's finding).  uvfs only: the
 * kernel has no dcache command, so no golden script can hold it. */
static void test_dcache_redirect(void **state)
{
	char script[] = "/tmp/uvfs-golden-XXXXXX", args[600], *out;
	int fd = mkstemp(script), status;
	static const char text[] = "mkdir /tmp/q\ndcache /tmp > /tmp/f\ncat /tmp/f\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	snprintf(args, sizeof(args), "--stable %s", script);
	out = run(args, &status);
	unlink(script);
	assert_int_equal(status, 0);
	assert_string_equal(out, "tmp  [inline refcount=4]\n  q  [inline refcount=1]\n"
			    "  f  [inline refcount=2]\n");
	free(out);
}

static void test_interactive(void **state)
{
	char buf[65536];
	size_t len = 0;
	int master, status;
	pid_t pid;

	(void)state;
	pid = forkpty(&master, NULL, NULL, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("TERM", "dumb", 1);
		execl(UVFSH, UVFSH, (char *)NULL);
		_exit(127);
	}
	/* the banner and the first prompt, with the cwd in it */
	assert_non_null(read_until(master, "uvfsh:/# ", buf, sizeof(buf), &len));
	/* a fresh shell has /tmp: the article's session as printed */
	assert_int_equal(write(master, "cd /tmp\r", 8), 8);
	assert_non_null(read_until(master, "uvfsh:/tmp# ", buf, sizeof(buf), &len));
	len = 0;
	assert_int_equal(write(master, "touch foo bar; exec 42<bar; mv foo bar\r", 39), 39);
	assert_non_null(read_until(master, "uvfsh:/tmp# ", buf, sizeof(buf), &len));
	len = 0;
	assert_int_equal(write(master, "readlink /proc/self/fd/42\r", 26), 26);
	assert_non_null(read_until(master, "/tmp/bar (deleted)", buf, sizeof(buf), &len));
	/* history: ^P brings the last line back */
	len = 0;
	assert_int_equal(write(master, "\x10\r", 2), 2);
	assert_non_null(read_until(master, "/tmp/bar (deleted)", buf, sizeof(buf), &len));
	assert_int_equal(write(master, "exit 3\r", 7), 7);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	close(master);
}

/* --abi all on an 80-column terminal: the columns fit it, the eras that print the
 * same are one column, and each column shows where the outputs differ. */
static void test_abi_all_terminal(void **state)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	char buf[65536], *line, *save = NULL;
	size_t len = 0;
	int master, status, lines = 0;
	pid_t pid;

	(void)state;
	pid = forkpty(&master, NULL, NULL, &ws);
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(UVFSH, UVFSH, "--abi", "all", TESTS_DIR "/scripts/article.sh", (char *)NULL);
		_exit(127);
	}
	assert_non_null(read_until(master, NULL, buf, sizeof(buf), &len));  /* to the end */
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(master);
	assert_non_null(strstr(buf, "linux, linux-4.17,"));
	assert_non_null(strstr(buf, "linux-3.17, linux-3.14"));
	/* the renamed-over descriptor: the victim's name, the mover's under 3.15, each
	 * column cut to show it */
	assert_non_null(strstr(buf, "…-> /tmp/bar (deleted)"));
	assert_non_null(strstr(buf, "…-> /tmp/foo (deleted)"));
	for (line = strtok_r(buf, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
		int cols = 0;

		for (const unsigned char *p = (const unsigned char *)line; *p; p++)
			cols += (*p & 0xc0) != 0x80;
		if (cols > 80)
			fail_msg("a line of %d columns on an 80-column terminal: %s", cols, line);
		lines++;
	}
	assert_int_equal(lines, 6);  /* two lines of heads, a common line, three that differ */
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	DIR *dir = opendir(TESTS_DIR "/scripts");
	struct CMUnitTest *tests = calloc(256, sizeof(*tests));
	char *paths[128];
	struct dirent *de;
	size_t n = 0, t = 0;
	int failed;

	if (!dir)
		return 1;
	while ((de = readdir(dir)) && n < 128) {
		size_t l = strlen(de->d_name);

		if (l > 3 && !strcmp(de->d_name + l - 3, ".sh") &&
		    asprintf(&paths[n], "%s/scripts/%s", TESTS_DIR, de->d_name) > 0)
			n++;
	}
	closedir(dir);
	qsort(paths, n, sizeof(*paths), cmp);
	for (size_t i = 0; i < n; i++) {
		tests[t].name = strrchr(paths[i], '/') + 1;
		tests[t].test_func = test_golden;
		tests[t++].initial_state = paths[i];
		tests[t].name = "  ...on the kernel";
		tests[t].test_func = test_against_kernel;
		tests[t++].initial_state = paths[i];
	}
	tests[t].name = "dcache > file";
	tests[t++].test_func = test_dcache_redirect;
	tests[t].name = "interactive";
	tests[t++].test_func = test_interactive;
	tests[t].name = "abi-all on a terminal";
	tests[t++].test_func = test_abi_all_terminal;
	failed = _cmocka_run_group_tests("golden", tests, t, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(tests);
	return failed;
}
