// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter_export OPT FILE - uvfs-run's first filter (tools/uvfs-run/filter.c), its call
 * numbers decided at libseccomp's SCMP_FLTATR_CTL_OPTIMIZE level OPT, written to FILE
 * as the BPF program the kernel would be given: for tests/uvfs-run/filter_tree.py,
 * which runs both forms over every call and compares their answers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>

#include "run.h"

int main(int argc, char **argv)
{
	struct sock_filter prog[BPF_MAXINSNS + 1];
	int fd, n;
	size_t size;

	if (argc != 3) {
		fprintf(stderr, "usage: filter_export OPT FILE\n");
		return 2;
	}
	n = run_first_filter_program(atoi(argv[1]), prog, BPF_MAXINSNS + 1);
	if (n < 0) {
		fprintf(stderr, "filter_export: %s\n", strerror(-n));
		return 1;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "filter_export: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	size = (size_t)n * sizeof(*prog);
	if (write(fd, prog, size) != (ssize_t)size || close(fd)) {
		fprintf(stderr, "filter_export: %s: %s\n", argv[2], strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}
