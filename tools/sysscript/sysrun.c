// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysrun - run a sysscript on uvfs, on the host kernel, or on both and diff.
 *   sysrun [--abi NAME] [--dump] [--host | --compare] FILE|-
 * Exit: 0 same (or a single run), 1 the outputs differ, 2 usage or setup failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysscript.h"

int main(int argc, char **argv)
{
	const char *abi = NULL;
	bool dump = false, host = false, compare = false;
	char *script, *a = NULL, *b = NULL;
	int i, ret = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--abi") && i + 1 < argc)
			abi = argv[++i];
		else if (!strcmp(argv[i], "--dump"))
			dump = true;
		else if (!strcmp(argv[i], "--host"))
			host = true;
		else if (!strcmp(argv[i], "--compare"))
			compare = true;
		else {
			fprintf(stderr, "usage: sysrun [--abi NAME] [--dump] [--host|--compare] FILE\n");
			return 2;
		}
	}
	if (i != argc - 1 || !(script = sysscript_read_file(argv[i]))) {
		fprintf(stderr, "sysrun: cannot read script\n");
		return 2;
	}
	if (!host) {
		a = sysscript_uvfs_run(script, abi, dump);
		if (!a) {
			fprintf(stderr, "sysrun: uvfs failed to start\n");
			return 2;
		}
	}
	if (host || compare) {
		b = sysscript_host_run(script, sysscript_wants_proc(script), dump);
		if (!b) {
			fprintf(stderr, "sysrun: host run failed: %s\n", strerror(errno));
			return 2;
		}
	}
	if (compare) {
		char fa[] = "/tmp/sysrun-uvfs-XXXXXX", fb[] = "/tmp/sysrun-host-XXXXXX", cmd[256];
		int da = mkstemp(fa), db = mkstemp(fb);

		if (write(da, a, strlen(a)) < 0 || write(db, b, strlen(b)) < 0)
			return 2;
		close(da);
		close(db);
		if (strcmp(a, b))
			fprintf(stderr, "sysrun: the outputs differ (%s)\n", sysscript_kernel_line());
		snprintf(cmd, sizeof(cmd), "diff -u --label host --label uvfs %s %s", fb, fa);
		ret = system(cmd) ? 1 : 0;
		unlink(fa);
		unlink(fb);
	} else {
		fputs(host ? b : a, stdout);
	}
	free(a);
	free(b);
	free(script);
	return ret;
}
