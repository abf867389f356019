// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * diffcheck.c - see diffcheck.h.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diffcheck.h"
#include "sysscript.h"

static void print_diff(const char *name, const char *host, const char *uvfs)
{
	char fa[] = "/tmp/diffcheck-host-XXXXXX", fb[] = "/tmp/diffcheck-uvfs-XXXXXX";
	char cmd[512];
	int da = mkstemp(fa), db = mkstemp(fb);

	if (da < 0 || db < 0 || write(da, host, strlen(host)) < 0 ||
	    write(db, uvfs, strlen(uvfs)) < 0) {
		fprintf(stderr, "%s: outputs differ (and no temporary files for diff)\n", name);
		return;
	}
	close(da);
	close(db);
	fprintf(stderr, "%s: uvfs differs from the kernel (%s):\n", name, sysscript_kernel_line());
	fflush(stderr);
	snprintf(cmd, sizeof(cmd), "diff -u --label kernel --label uvfs %s %s >&2", fa, fb);
	if (system(cmd) < 0)
		fprintf(stderr, "(diff failed)\n");
	unlink(fa);
	unlink(fb);
}

int diffcheck(const char *name, const char *script, bool dump)
{
	char *host = sysscript_host_run(script, sysscript_wants_proc(script), dump);
	char *uvfs;
	int ret;

	if (!host) {
		fprintf(stderr, "%s: host kernel side unavailable: %s\n", name, strerror(errno));
		return -1;
	}
	uvfs = sysscript_uvfs_run(script, NULL, dump);
	if (!uvfs) {
		free(host);
		fprintf(stderr, "%s: uvfs side failed to start\n", name);
		return 1;
	}
	ret = strcmp(host, uvfs) ? 1 : 0;
	if (ret) {
		print_diff(name, host, uvfs);
	} else if (!strncmp(host, "syntax: ", 8) || strstr(host, "\nsyntax: ")) {
		/* a line the interpreter does not know ran on neither side: it compares
		 * equal and tests nothing (mount-readonly.sys's faccessat2 lines did) */
		fprintf(stderr, "%s: a line sysscript cannot run:\n%s", name, host);
		ret = 1;
	}
	else if (getenv("DIFFCHECK_VERBOSE"))
		fputs(host, stderr);
	free(host);
	free(uvfs);
	return ret;
}
