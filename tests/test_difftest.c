// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_difftest.c - the differential tester in make check: fixed seeds and one
 * random seed (printed, so that a failure can be repeated) must find no divergence;
 * the generator must be deterministic; the shrinker must cut a known divergence (the
 * deliberate one: uvfs has no device drivers, the kernel opens 1:3 as /dev/null)
 * down to the two lines that make it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "difftest.h"

static void run(uint64_t seed, long n)
{
	struct difftest_config cfg = { .seed = seed, .sequences = n, .shrink = true,
				       .out_dir = "difftest-failures" };
	struct difftest_result res;

	if (geteuid() != 0)
		skip();
	print_message("difftest: seeds %llu..%llu\n", (unsigned long long)seed,
		      (unsigned long long)(seed + (uint64_t)n - 1));
	assert_int_equal(difftest_run(&cfg, &res, stderr), 0);
	assert_int_equal(res.sequences, n);
	assert_int_equal(res.divergences, 0);
}

static void test_fixed_seeds(void **state)
{
	(void)state;
	run(1, 3000);
	run(1000000, 1000);
}

static void test_random_seed(void **state)
{
	uint64_t seed = (uint64_t)time(NULL) * 1000003u + (uint64_t)getpid();

	(void)state;
	run(seed % 100000000000ull, 1000);
}

static void test_generator_is_deterministic(void **state)
{
	char *a = difftest_generate(42, 30, false), *b = difftest_generate(42, 30, false);
	char *c = difftest_generate(43, 30, false);

	(void)state;
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	free(a);
	free(b);
	free(c);
}

static void test_shrinker(void **state)
{
	struct difftest_config cfg = { .shrink = true };
	/* noise without users (one would stay a user: no mknod of a device) */
	char *noise = difftest_generate(7, 25, true), *body, *min;
	size_t lines = 0, before = 0;

	(void)state;
	if (geteuid() != 0)
		skip();
	if (asprintf(&body, "%smknodat AT_FDCWD null S_IFCHR|0666 0x103\n%s"
			    "openat AT_FDCWD null O_RDWR\n", noise, noise) < 0)
		fail();
	assert_int_equal(difftest_diverges(&cfg, body), 1);
	for (const char *p = body; *p; p++)
		before += *p == '\n';
	min = difftest_shrink(&cfg, body);
	for (const char *p = min; *p; p++)
		lines += *p == '\n';
	print_message("shrunk %zu lines to %zu:\n%s", before, lines, min);
	assert_non_null(strstr(min, "mknodat AT_FDCWD null S_IFCHR|0666 0x103"));
	assert_non_null(strstr(min, "openat AT_FDCWD null O_RDWR"));
	assert_true(lines <= 3);
	assert_int_equal(difftest_diverges(&cfg, min), 1);
	free(min);
	free(body);
	free(noise);
}

/* A shrink keeps to the divergence it started from.  Here the device is made through
 * the child's /proc/PID (so fork, open and mknodat are all needed), and with the
 * "exit" dropped the listing of the live /proc/PID would differ by design (hundreds
 * of entries uvfs does not model), earlier in the script: not the difference being
 * shrunk, so the shrinker may not settle on it. */
static void test_shrinker_keeps_its_divergence(void **state)
{
	struct difftest_config cfg = { .shrink = true };
	const char *body = "fork\nopenat AT_FDCWD /proc/{child} O_RDONLY|O_DIRECTORY\n"
			   "mknodat 0 cwd/null S_IFCHR|0666 0x103\nexit\ngetdents64 0 4096\n"
			   "openat AT_FDCWD null O_RDWR\n";
	char *min;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(difftest_diverges(&cfg, body), 1);
	min = difftest_shrink(&cfg, body);
	print_message("shrunk to:\n%s", min);
	assert_null(strstr(min, "getdents64"));
	assert_non_null(strstr(min, "openat AT_FDCWD null O_RDWR"));
	free(min);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generator_is_deterministic),
		cmocka_unit_test(test_shrinker),
		cmocka_unit_test(test_shrinker_keeps_its_divergence),
		cmocka_unit_test(test_fixed_seeds),
		cmocka_unit_test(test_random_seed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
