/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * difftest.h - seeded random operation sequences run on uvfs and on the host kernel,
 * compared step by step; every divergence shrunk to a minimal uvfsh/sysscript script.
 */
#ifndef UVFS_DIFFTEST_H
#define UVFS_DIFFTEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct difftest_config {
	uint64_t seed;           /* sequence i uses seed + i */
	long sequences;
	int steps;               /* operations per sequence (default 30) */
	int batch;               /* sequences per sandbox / uvfs instance (default 250) */
	const char *target;      /* run the kernel side in this directory instead of a tmpfs */
	/* run the uvfs side with its root a host mount of a new directory in this one
	 * (uvfs's host filesystem), with these mount options (NULL: always) */
	const char *uvfs_host;
	const char *uvfs_host_opts;
	const char *out_dir;     /* where minimal scripts go (default difftest-failures) */
	bool coverage;           /* print the coverage report at the end */
	bool progress;           /* progress line (default: when stderr is a terminal) */
	bool shrink;             /* shrink divergences (default true) */
	int max_reports;         /* stop after this many divergences (default 5) */
};

struct difftest_result {
	long sequences, steps, divergences;
	double seconds;
};

/* The script of sequence `seed` (malloc'd), steps operations long; no_root leaves
 * out "/" (a --target run is not the root of its namespace). */
char *difftest_generate(uint64_t seed, int steps, bool no_root);

int difftest_run(const struct difftest_config *cfg, struct difftest_result *res, FILE *log);

/* One sequence body on both sides: 1 diverges, 0 agrees, -1 could not run. */
int difftest_diverges(const struct difftest_config *cfg, const char *body);
/* The smallest body found that still diverges (malloc'd). */
char *difftest_shrink(const struct difftest_config *cfg, const char *body);

/* Command line: uvfs-difftest and uvfsh --difftest. */
int difftest_main(int argc, char **argv);

#endif
