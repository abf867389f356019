// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz_sysscript.c - the sysscript parser and, through it, every call of the API
 * with whatever arguments a script can spell (numbers, flag words, quoted paths with
 * escapes and NUL bytes, {c*N} names, descriptors near INT_MAX, sizes near 2^32,
 * tasks that fork, exec and exit).  Seed corpus: tests/diff, tests/regress.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sys_backend *b;
	struct sysscript s;
	FILE *out;

	if (!text)
		return -1;  /* not added to the corpus */
	b = fuzz_backend();
	out = fopen("/dev/null", "w");
	FUZZ_CHECK(out);
	sysscript_init(&s, b, out);
	s.max_buffer = FUZZ_MAX_BUFFER;
	sysscript_run(&s, text);
	fuzz_check_stats(sys_backend_uvfs_fs(b));
	sysscript_done(&s);
	fclose(out);
	sys_backend_uvfs_free(b);
	fuzz_check_nothing_left();
	free(text);
	return 0;
}
