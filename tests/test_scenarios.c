// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_scenarios.c - what readlink /proc/self/fd/42 (and /proc/PID/exe, cwd) prints
 * after the seed article's session and the package upgrade of the seed patch, under
 * every personality.
 *
 * Expected strings: for "linux" the running kernel's — test_linux_column_is_the_kernels
 * runs every case on a tmpfs with /proc and requires the string the rule gives (and
 * tests/diff/dpath.sys compares whole sessions); for the historical personalities they follow
 * from the rules of ../shared/LINUX-SEMANTICS.md section 3, computed by rule() below
 * (not by src/abi.c), each row naming the commit that makes it.
 *
 * Run with --markdown to print the table that docs/SEMANTICS.md carries; the test
 * test_docs_table_is_current fails when the docs and the output disagree.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysscript.h"
#include "testutil.h"
#include "uvfs/uvfs.h"

#ifndef SOURCE_DIR
#error SOURCE_DIR must name the source tree
#endif

struct era {
	const char *abi;
	const char *commit;    /* the commit that makes this era's rows */
	unsigned inline_max;   /* DNAME_INLINE_LEN - 1 */
	enum { COPY_SHARE, COPY_INLINE_ELSE_SWAP, SWAP } names;
	bool victim_keeps_dir;
	bool exchange;
};

static const struct era eras[] = {
	{ "linux", "da549bdd15c2 (DNAME_INLINE_LEN 40)", 39, COPY_SHARE, true, true },
	{ "linux-4.17", "076515fc9267", 31, COPY_SHARE, true, true },
	{ "linux-3.18", "8d85b4845a66", 31, COPY_SHARE, false, true },
	{ "linux-3.17", "d2fa4a8476b9", 31, COPY_INLINE_ELSE_SWAP, false, true },
	{ "linux-3.15", "da1ce0670c14", 31, SWAP, false, true },
	{ "linux-3.14", "switch_names() before da1ce0670c14", 31, COPY_INLINE_ELSE_SWAP, false, false },
};
#define NERAS (sizeof(eras) / sizeof(eras[0]))

/* The victim's path after "mv src_dir/mover dst_dir/victim": the era's rule. */
static void rule(const struct era *e, const char *src_dir, const char *mover,
		 const char *dst_dir, const char *victim, char *out, size_t n)
{
	bool both_inline = strlen(mover) <= e->inline_max && strlen(victim) <= e->inline_max;
	bool copy = e->names == COPY_SHARE || (e->names == COPY_INLINE_ELSE_SWAP && both_inline);

	if ((size_t)snprintf(out, n, "%s/%s (deleted)", e->victim_keeps_dir ? dst_dir : src_dir,
			     copy ? victim : mover) >= n)
		fail_msg("the expected path does not fit in %zu bytes", n);
}

static struct uvfs_task *boot(const struct era *e, struct uvfs **fsp)
{
	struct uvfs_config cfg = { .abi = e->abi };
	struct uvfs *fs = uvfs_new(&cfg);
	struct uvfs_task *t;

	assert_non_null(fs);
	t = uvfs_task_new(fs);
	assert_non_null(t);
	*fsp = fs;
	return t;
}

/* cd /tmp-ish; touch foo bar; exec 42<bar; mv foo bar; readlink /proc/self/fd/42 */
static void article(const struct era *e, const char *src_dir, const char *foo,
		    const char *dst_dir, const char *bar, char *got, size_t n)
{
	struct uvfs *fs;
	struct uvfs_task *t = boot(e, &fs);
	char a[300], b[300];
	int fd;

	uvfs_mkdirat(t, AT_FDCWD, src_dir, 01777);
	uvfs_mkdirat(t, AT_FDCWD, dst_dir, 01777);
	snprintf(a, sizeof(a), "%s/%s", src_dir, foo);
	snprintf(b, sizeof(b), "%s/%s", dst_dir, bar);
	assert_int_equal(uvfs_mknodat(t, AT_FDCWD, a, S_IFREG | 0644, 0), 0);
	assert_int_equal(uvfs_mknodat(t, AT_FDCWD, b, S_IFREG | 0644, 0), 0);
	fd = uvfs_openat(t, AT_FDCWD, b, O_RDONLY, 0);
	assert_int_equal(uvfs_dup3(t, fd, 42, 0), 42);
	uvfs_close(t, fd);
	readlink_str(t, "/proc/self/fd/42", got, n);
	assert_string_equal(got, b); /* before the mv: its own path */
	assert_int_equal(uvfs_renameat2(t, AT_FDCWD, a, AT_FDCWD, b, 0), 0);
	readlink_str(t, "/proc/self/fd/42", got, n);
	uvfs_free(fs);
}

static char *name_of(char c, size_t len)
{
	static char bufs[8][300];
	static int i;
	char *b = bufs[i++ % 8];

	memset(b, c, len);
	b[len] = 0;
	return b;
}

struct article_case {
	const char *label;
	size_t foo_len, bar_len; /* 0: the literal foo / bar */
	bool cross;
};

static const struct article_case article_cases[] = {
	{ "foo → bar (3/3 bytes)", 0, 0, false },
	{ "48 → 48 bytes", 48, 48, false },
	{ "foo → 48-byte bar", 0, 48, false },
	{ "48-byte foo → bar", 48, 0, false },
	{ "31 → 31 bytes", 31, 31, false },
	{ "32 → 32 bytes", 32, 32, false },
	{ "31 → 32 bytes", 31, 32, false },
	{ "39 → 39 bytes", 39, 39, false },
	{ "40 → 40 bytes", 40, 40, false },
	{ "39 → 40 bytes", 39, 40, false },
	{ "40 → 39 bytes", 40, 39, false },
	{ "/d1/foo → /d2/bar", 0, 0, true },
	{ "/d1/48 → /d2/48", 48, 48, true },
};
#define NCASES (sizeof(article_cases) / sizeof(article_cases[0]))

static void case_result(const struct era *e, const struct article_case *c, char *got,
			char *want, size_t n)
{
	const char *src = c->cross ? "/d1" : "/tmp", *dst = c->cross ? "/d2" : "/tmp";
	const char *foo = c->foo_len ? name_of('f', c->foo_len) : "foo";
	const char *bar = c->bar_len ? name_of('b', c->bar_len) : "bar";

	article(e, src, foo, dst, bar, got, n);
	rule(e, src, foo, dst, bar, want, n);
}

/* The linux column is the running kernel's: every case, as a script on a tmpfs in a
 * private mount and pid namespace with /proc, must print the string rule() gives. */
static void test_linux_column_is_the_kernels(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	for (size_t c = 0; c < NCASES; c++) {
		const struct article_case *ac = &article_cases[c];
		const char *src = ac->cross ? "/d1" : "/tmp", *dst = ac->cross ? "/d2" : "/tmp";
		const char *foo = ac->foo_len ? name_of('f', ac->foo_len) : "foo";
		const char *bar = ac->bar_len ? name_of('b', ac->bar_len) : "bar";
		char want[600], *script, *out, line[700];

		rule(&eras[0], src, foo, dst, bar, want, sizeof(want));
		if (asprintf(&script,
			     "mkdirat AT_FDCWD %s 01777\nmkdirat AT_FDCWD %s 01777\n"
			     "mknodat AT_FDCWD \"%s/%s\" S_IFREG|0644 0\n"
			     "mknodat AT_FDCWD \"%s/%s\" S_IFREG|0644 0\n"
			     "openat AT_FDCWD \"%s/%s\" O_RDONLY\n"
			     "renameat2 AT_FDCWD \"%s/%s\" AT_FDCWD \"%s/%s\" 0\nfdpath 0\n",
			     src, dst, src, foo, dst, bar, dst, bar, src, foo, dst, bar) < 0)
			fail();
		out = sysscript_host_run(script, true, false);
		assert_non_null(out);
		snprintf(line, sizeof(line), "fdpath 0 = %zu \"%s\"\n", strlen(want), want);
		if (!strstr(out, line))
			fail_msg("%s: the kernel printed\n%s\nnot %s", ac->label, out, line);
		free(out);
		free(script);
	}
}

static void test_article_every_era(void **state)
{
	(void)state;
	for (size_t i = 0; i < NERAS; i++)
		for (size_t c = 0; c < NCASES; c++) {
			char got[600], want[600];

			case_result(&eras[i], &article_cases[c], got, want, sizeof(got));
			if (strcmp(got, want))
				fail_msg("%s (%s), %s: got \"%s\", the rule says \"%s\"", eras[i].abi,
					 eras[i].commit, article_cases[c].label, got, want);
		}
}

/*
 * The seed patch's story: a daemon runs /usr/sbin/food; the package manager writes
 * the new binary as /usr/sbin/food;5e2a9b1c and renames it over; start-stop-daemon
 * then asks whether the process still runs /usr/sbin/food by reading
 * /proc/PID/exe and dropping a trailing " (deleted)".
 */
static void upgrade(const struct era *e, char *exe, size_t n, bool *found)
{
	struct uvfs *fs;
	struct uvfs_task *init = boot(e, &fs), *daemon;
	char link[64];
	int fd;
	size_t len;
	static const char deleted[] = " (deleted)";

	uvfs_mkdirat(init, AT_FDCWD, "/usr", 0755);
	uvfs_mkdirat(init, AT_FDCWD, "/usr/sbin", 0755);
	fd = uvfs_openat(init, AT_FDCWD, "/usr/sbin/food", O_CREAT | O_WRONLY, 0755);
	uvfs_write(init, fd, "#!old", 5);  /* a format exec takes */
	uvfs_close(init, fd);
	daemon = uvfs_task_fork(init);
	assert_int_equal(uvfs_task_exec(daemon, "/usr/sbin/food"), 0);
	fd = uvfs_openat(init, AT_FDCWD, "/usr/sbin/food;5e2a9b1c", O_CREAT | O_WRONLY, 0755);
	uvfs_write(init, fd, "new", 3);
	uvfs_close(init, fd);
	assert_int_equal(uvfs_renameat2(init, AT_FDCWD, "/usr/sbin/food;5e2a9b1c", AT_FDCWD,
					"/usr/sbin/food", 0), 0);
	snprintf(link, sizeof(link), "/proc/%d/exe", uvfs_task_pid(daemon));
	readlink_str(init, link, exe, n);
	len = strlen(exe);
	if (len > sizeof(deleted) - 1 && !strcmp(exe + len - (sizeof(deleted) - 1), deleted))
		len -= sizeof(deleted) - 1;
	*found = len == strlen("/usr/sbin/food") && !strncmp(exe, "/usr/sbin/food", len);
	uvfs_free(fs);
}

static void test_upgrade_every_era(void **state)
{
	(void)state;
	for (size_t i = 0; i < NERAS; i++) {
		char exe[300], want[300];
		bool found;

		upgrade(&eras[i], exe, sizeof(exe), &found);
		rule(&eras[i], "/usr/sbin", "food;5e2a9b1c", "/usr/sbin", "food", want, sizeof(want));
		if (strcmp(exe, want))
			fail_msg("%s: exe \"%s\", the rule says \"%s\"", eras[i].abi, exe, want);
		/* Only 3.15-3.16 lose the daemon: the bug d2fa4a8476b9 fixed. */
		assert_int_equal(found, strcmp(eras[i].abi, "linux-3.15") != 0);
	}
}

/* RENAME_EXCHANGE of two open files: each descriptor follows its file, in every era
 * that has exchange; 3.14 has none. */
static void test_exchange_every_era(void **state)
{
	(void)state;
	for (size_t i = 0; i < NERAS; i++) {
		struct uvfs *fs;
		struct uvfs_task *t = boot(&eras[i], &fs);
		char a[300], b[300];
		int r;

		uvfs_mkdirat(t, AT_FDCWD, "/d1", 0755);
		uvfs_mkdirat(t, AT_FDCWD, "/d2", 0755);
		assert_int_equal(uvfs_openat(t, AT_FDCWD, "/d1/a", O_CREAT | O_RDWR, 0644), 0);
		assert_int_equal(uvfs_openat(t, AT_FDCWD, "/d2/b", O_CREAT | O_RDWR, 0644), 1);
		r = uvfs_renameat2(t, AT_FDCWD, "/d1/a", AT_FDCWD, "/d2/b", RENAME_EXCHANGE);
		readlink_str(t, "/proc/self/fd/0", a, sizeof(a));
		readlink_str(t, "/proc/self/fd/1", b, sizeof(b));
		if (eras[i].exchange) {
			assert_int_equal(r, 0);
			assert_string_equal(a, "/d2/b");
			assert_string_equal(b, "/d1/a");
		} else {
			assert_int_equal(r, -EINVAL);
			assert_string_equal(a, "/d1/a");
			assert_string_equal(b, "/d2/b");
		}
		uvfs_free(fs);
	}
}

/* Unlink of an open file, rmdir of a cwd, a cwd renamed away, a file moved out of a
 * chroot: no era differs in these (they involve no name switch); the kernel's
 * strings are in tests/diff/dpath.sys. */
static void test_no_switch_every_era(void **state)
{
	(void)state;
	for (size_t i = 0; i < NERAS; i++) {
		struct uvfs *fs;
		struct uvfs_task *t = boot(&eras[i], &fs);
		char s[300];

		uvfs_mkdirat(t, AT_FDCWD, "/tmp", 01777);
		assert_int_equal(uvfs_openat(t, AT_FDCWD, "/tmp/x", O_CREAT | O_RDWR, 0644), 0);
		assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, "/tmp/x", 0), 0);
		readlink_str(t, "/proc/self/fd/0", s, sizeof(s));
		assert_string_equal(s, "/tmp/x (deleted)");

		uvfs_mkdirat(t, AT_FDCWD, "/gone", 0755);
		uvfs_chdir(t, "/gone");
		assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, "/gone", AT_REMOVEDIR), 0);
		readlink_str(t, "/proc/self/cwd", s, sizeof(s));
		assert_string_equal(s, "/gone (deleted)");
		assert_int_equal(uvfs_getcwd(t, s, sizeof(s)), -ENOENT);

		uvfs_mkdirat(t, AT_FDCWD, "/w", 0755);
		uvfs_chdir(t, "/w");
		assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/w", AT_FDCWD, "/tmp/w2", 0), 0);
		readlink_str(t, "/proc/self/cwd", s, sizeof(s));
		assert_string_equal(s, "/tmp/w2");

		uvfs_mkdirat(t, AT_FDCWD, "/jail", 0755);
		assert_int_equal(uvfs_openat(t, AT_FDCWD, "/jail/f", O_CREAT | O_RDWR, 0644), 1);
		assert_int_equal(uvfs_chroot(t, "/jail"), 0);
		assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/f", AT_FDCWD, "/f2", 0), 0);
		uvfs_chdir(t, "/");
		/* no /proc inside the jail: the library's own readlink of the fd */
		s[uvfs_readlink_fd(t, 1, s, sizeof(s) - 1)] = 0;
		assert_string_equal(s, "/f2");
		/* out of the chroot (renamed by a task outside it): printed from the real root */
		{
			struct uvfs_task *out = uvfs_task_new(fs);

			assert_int_equal(uvfs_renameat2(out, AT_FDCWD, "/jail/f2", AT_FDCWD, "/tmp/f3", 0), 0);
		}
		s[uvfs_readlink_fd(t, 1, s, sizeof(s) - 1)] = 0;
		assert_string_equal(s, "/tmp/f3");
		s[uvfs_readlink_fd(t, 0, s, sizeof(s) - 1)] = 0;
		assert_string_equal(s, "/tmp/x (deleted)");
		assert_int_equal(uvfs_readlink_fd(t, 7, s, sizeof(s)), -EBADF);
		assert_int_equal(uvfs_readlink_exe(t, s, sizeof(s)), -ENOENT);
		uvfs_free(fs);
	}
}

/* The table of docs/SEMANTICS.md. */
static char *markdown(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "| after `mv foo bar` | ");
	for (size_t i = 0; i < NERAS; i++)
		fprintf(f, "`%s` | ", eras[i].abi);
	fprintf(f, "\n|---|");
	for (size_t i = 0; i < NERAS; i++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (size_t c = 0; c < NCASES; c++) {
		fprintf(f, "| %s | ", article_cases[c].label);
		for (size_t i = 0; i < NERAS; i++) {
			char got[600], want[600], *p, *shown;

			case_result(&eras[i], &article_cases[c], got, want, sizeof(got));
			/* long names shortened for the table: first byte and length */
			shown = got;
			p = strrchr(got, '/');
			if (p && strlen(p + 1) > 16 + 10) {
				size_t nlen = strlen(p + 1) - 10;

				snprintf(want, sizeof(want), "%.*s/%c×%zu (deleted)", (int)(p - got), got,
					 p[1], nlen);
				shown = want;
			}
			fprintf(f, "%s | ", shown);
		}
		fputc('\n', f);
	}
	{
		fprintf(f, "| upgrade: `/proc/PID/exe` | ");
		for (size_t i = 0; i < NERAS; i++) {
			char exe[300];
			bool found;

			upgrade(&eras[i], exe, sizeof(exe), &found);
			fprintf(f, "%s%s | ", exe, found ? "" : " ✗");
		}
		fputc('\n', f);
	}
	fclose(f);
	return text;
}

static void test_docs_table_is_current(void **state)
{
	char *doc = sysscript_read_file(SOURCE_DIR "/docs/SEMANTICS.md");
	char *table = markdown();
	const char *begin, *end;

	(void)state;
	assert_non_null(doc);
	begin = strstr(doc, "<!-- scenarios:begin -->\n");
	end = strstr(doc, "<!-- scenarios:end -->");
	assert_non_null(begin);
	assert_non_null(end);
	begin += strlen("<!-- scenarios:begin -->\n");
	if ((size_t)(end - begin) != strlen(table) || strncmp(begin, table, strlen(table)))
		fail_msg("docs/SEMANTICS.md's scenario table is stale: run "
			 "build/tests/test_scenarios --markdown and paste it between the markers");
	free(doc);
	free(table);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_column_is_the_kernels),
		cmocka_unit_test(test_article_every_era),
		cmocka_unit_test(test_upgrade_every_era),
		cmocka_unit_test(test_exchange_every_era),
		cmocka_unit_test(test_no_switch_every_era),
		cmocka_unit_test(test_docs_table_is_current),
	};

	if (argc > 1 && !strcmp(argv[1], "--markdown")) {
		char *t = markdown();

		fputs(t, stdout);
		free(t);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
