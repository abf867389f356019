// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * demo.c - the seed article's session, through the library, under every personality:
 *
 *     cd /tmp; touch foo bar; exec 42<bar; mv foo bar
 *
 * and what readlink("/proc/self/fd/42") says afterwards, for short names and for
 * 48-byte ones.  It uses the installed header alone:
 *
 *     cc demo.c $(pkg-config --cflags --libs uvfs)
 */
#include <stdio.h>
#include <string.h>

#include <uvfs/uvfs.h>

static const char *const abis[] = { "linux", "linux-4.17", "linux-3.18", "linux-3.17",
				    "linux-3.15", "linux-3.14" };

static int session(const char *abi, const char *foo, const char *bar, char *out, size_t n)
{
	struct uvfs_config cfg = { .abi = abi };
	struct uvfs *fs = uvfs_new(&cfg);
	struct uvfs_task *t;
	char src[128], dst[128], link[256];
	ssize_t len;
	int fd, err;

	if (!fs)
		return -1;
	t = uvfs_task_new(fs);
	snprintf(src, sizeof(src), "%s", foo);
	snprintf(dst, sizeof(dst), "%s", bar);
	if ((err = uvfs_mkdirat(t, AT_FDCWD, "/tmp", 01777)) < 0 ||
	    (err = uvfs_chdir(t, "/tmp")) < 0 ||
	    (err = uvfs_mknodat(t, AT_FDCWD, src, S_IFREG | 0644, 0)) < 0 ||
	    (err = uvfs_mknodat(t, AT_FDCWD, dst, S_IFREG | 0644, 0)) < 0)
		goto out;
	fd = uvfs_openat(t, AT_FDCWD, dst, O_RDONLY, 0);           /* exec 42<bar */
	if (fd < 0 || (err = uvfs_dup3(t, fd, 42, 0)) < 0 || (err = uvfs_close(t, fd)) < 0)
		goto out;
	err = uvfs_renameat2(t, AT_FDCWD, src, AT_FDCWD, dst, 0); /* mv foo bar */
	if (err < 0)
		goto out;
	len = uvfs_readlinkat(t, AT_FDCWD, "/proc/self/fd/42", link, sizeof(link) - 1);
	if (len < 0) {
		err = (int)len;
		goto out;
	}
	link[len] = 0;
	/* "/tmp/bar (deleted)"; a long name cut to 12 bytes for the table */
	if (strlen(link) > 5 + 12 + 10)
		snprintf(out, n, "%.17s... (deleted)", link);
	else
		snprintf(out, n, "%s", link);
out:
	uvfs_free(fs);
	return err;
}

int main(void)
{
	char long_foo[49], long_bar[49];

	memset(long_foo, 'f', 48);
	memset(long_bar, 'b', 48);
	long_foo[48] = long_bar[48] = 0;
	printf("uvfs %s: the article's session, \"cd /tmp; touch foo bar; exec 42<bar; "
	       "mv foo bar\",\nand the name fd 42 is left with, per kernel era:\n\n",
	       UVFS_VERSION_STRING);
	printf("%-12s %-28s %s\n", "personality", "short names (foo, bar)", "48-byte names");
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		char a[128] = "?", b[128] = "?";

		if (session(abis[i], "foo", "bar", a, sizeof(a)) < 0 ||
		    session(abis[i], long_foo, long_bar, b, sizeof(b)) < 0) {
			fprintf(stderr, "demo: %s failed\n", abis[i]);
			return 1;
		}
		printf("%-12s %-28s %s\n", abis[i], a, b);
	}
	printf("\nlinux-3.15 shows the mover's name \"foo\": the 3.15 regression the seed patch "
	       "(d2fa4a8476b9) fixed in 3.17;\nfrom 3.18 on (8d85b4845a66) long names are "
	       "shared instead of swapped, so the victim always keeps its own.\n");
	return 0;
}
