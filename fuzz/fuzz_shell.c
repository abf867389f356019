// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz_shell.c - uvfsh's parser and commands: words, quotes, ';', redirections
 * ("exec 4</f", "> file"), "sys" lines, tasks; on the booted tree a user meets.
 * Seed corpus: tests/scripts (the golden shell scripts).
 */
#include "fuzz_common.h"
#include "shell.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sys_backend *b;
	struct shell sh;
	FILE *out;

	if (!text)
		return -1;
	b = fuzz_backend();
	out = fopen("/dev/null", "w");
	FUZZ_CHECK(out);
	shell_init(&sh, b, sys_backend_uvfs_fs(b), out, out);
	sh.sys.max_buffer = FUZZ_MAX_BUFFER;  /* its "sys" command */
	FUZZ_CHECK(shell_boot(&sh) == 0);
	shell_script(&sh, text);
	fuzz_check_stats(sys_backend_uvfs_fs(b));
	shell_done(&sh);
	fclose(out);
	sys_backend_uvfs_free(b);
	fuzz_check_nothing_left();
	free(text);
	return 0;
}
