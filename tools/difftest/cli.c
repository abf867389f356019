// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cli.c - the command line of uvfs-difftest and `uvfsh --difftest`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "difftest.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uvfs-difftest [N] [--sequences N] [--seed S | --random] [--steps K]\n"
		"                     [--batch B] [--target DIR] [--out DIR] [--coverage]\n"
		"                     [--no-shrink] [--max-reports N]\n"
		"                     [--uvfs-host DIR [--uvfs-host-opts OPTS]]\n"
		"Runs N seeded random operation sequences (seeds S .. S+N-1) on uvfs and on the\n"
		"host kernel (a tmpfs in a private namespace, or the directory DIR on any\n"
		"filesystem), compares every step, shrinks each divergence to a minimal script\n"
		"in DIR (default ./difftest-failures).  Exit 0 when nothing diverged.\n"
		"--uvfs-host puts uvfs's side on a host mount of a new directory in DIR (use a\n"
		"tmpfs such as /dev/shm to compare with the kernel's tmpfs), OPTS its options.\n");
}

/* A whole number in [min, max], all of s: else a message naming the option. */
static bool number(const char *opt, const char *s, unsigned long long min,
		   unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	if (s[0] == '-' || !*s || (*out = strtoull(s, &end, 0), errno) || *end ||
	    *out < min || *out > max) {
		fprintf(stderr, "uvfs-difftest: %s: '%s' is not a number from %llu to %llu\n",
			opt, s, min, max);
		return false;
	}
	return true;
}

int difftest_main(int argc, char **argv)
{
	struct difftest_config cfg = { .seed = 1, .sequences = 100, .shrink = true,
				       .progress = isatty(2) };
	struct difftest_result res;
	bool random_seed = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long long n;

		if (!strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if ((!strcmp(a, "--sequences") || !strcmp(a, "--difftest")) && v) {
			if (!number(a, v, 1, 1000000000000ull, &n))
				return 2;
			cfg.sequences = (long)n;
			i++;
		} else if (!strcmp(a, "--seed") && v) {
			if (!number(a, v, 0, UINT64_MAX, &n))
				return 2;
			cfg.seed = n;
			i++;
		} else if (!strcmp(a, "--random")) {
			random_seed = true;
		} else if (!strcmp(a, "--steps") && v) {
			if (!number(a, v, 1, 100000, &n))
				return 2;
			cfg.steps = (int)n;
			i++;
		} else if (!strcmp(a, "--batch") && v) {
			if (!number(a, v, 1, 100000, &n))
				return 2;
			cfg.batch = (int)n;
			i++;
		} else if (!strcmp(a, "--target") && v) {
			cfg.target = v;
			i++;
		} else if (!strcmp(a, "--uvfs-host") && v) {
			cfg.uvfs_host = v;
			i++;
		} else if (!strcmp(a, "--uvfs-host-opts") && v) {
			cfg.uvfs_host_opts = v;
			i++;
		} else if (!strcmp(a, "--out") && v) {
			cfg.out_dir = v;
			i++;
		} else if (!strcmp(a, "--max-reports") && v) {
			if (!number(a, v, 1, 1000000, &n))
				return 2;
			cfg.max_reports = (int)n;
			i++;
		} else if (!strcmp(a, "--coverage")) {
			cfg.coverage = true;
		} else if (!strcmp(a, "--no-shrink")) {
			cfg.shrink = false;
		} else if (!strcmp(a, "--quiet")) {
			cfg.progress = false;
		} else if (a[0] != '-') {
			if (!number("N", a, 1, 1000000000000ull, &n))
				return 2;
			cfg.sequences = (long)n;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (random_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		cfg.seed = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
	}
	/* the seed first, so that a run cut short can still be repeated */
	fprintf(stderr, "difftest: seed %llu, %ld sequences%s%s\n", (unsigned long long)cfg.seed,
		cfg.sequences, cfg.target ? ", kernel side in " : "", cfg.target ? cfg.target : "");
	if (difftest_run(&cfg, &res, stderr) < 0)
		return 2;
	printf("difftest: %ld sequences (%ld steps), seeds %llu..%llu, %ld divergences, %.1f s%s\n",
	       res.sequences, res.steps, (unsigned long long)cfg.seed,
	       (unsigned long long)(cfg.seed + (uint64_t)res.sequences - 1), res.divergences,
	       res.seconds, cfg.target && res.divergences ? " (findings about the target)" : "");
	return res.divergences ? 1 : 0;
}

