// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uvfsh - a shell for uvfs.  See docs/uvfsh.1.
 *
 *   uvfsh [OPTIONS] [FILE]        run FILE (or stdin when not a terminal), else interactive
 *   uvfsh [OPTIONS] -c 'CMDS'     run the commands given
 *   --abi NAME | --abi all        personality; "all" runs under every one, side by side
 *   --host                        run on the host kernel (private namespace, tmpfs, /proc)
 *   --compare                     run on both and print a unified diff (exit 1 if they differ)
 *   --stable                      times as <time>, inode numbers as #N
 */
#include <editline/readline.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "columns.h"
#include "difftest.h"
#include "shell.h"
#include "sysscript.h"
#include "uvfs/uvfs.h"

static const char *const all_abis[] = { "linux", "linux-4.17", "linux-3.18", "linux-3.17",
					"linux-3.15", "linux-3.14" };
#define NABIS (sizeof(all_abis) / sizeof(all_abis[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uvfsh [--abi NAME|all] [--host | --compare] [--stable] [FILE | -c CMDS]\n"
		"  A shell over uvfs, the Linux VFS as a library; with --host, over the running\n"
		"  kernel in a private mount namespace on a fresh tmpfs.\n"
		"  --abi NAME    personality: linux (default), linux-4.17, linux-3.18, linux-3.17,\n"
		"                linux-3.15, linux-3.14; 'all' runs every one and shows them side\n"
		"                by side, marking the lines that differ with '*'\n"
		"  --host        run the script on the host kernel (needs root)\n"
		"  --compare     run on uvfs and on the host kernel, print a unified diff;\n"
		"                exit status 1 when they differ\n"
		"  --stable      print times as <time> and inode numbers as #N (implied by\n"
		"                --compare and --abi all)\n"
		"  -c CMDS       run CMDS instead of a file\n"
		"  --difftest N [--seed S] ...  the differential tester (uvfs-difftest --help)\n"
		"  --help, --version\n"
		"See uvfsh(1).\n");
}

struct run {
	const char *script;
	const char *abi;
	bool stable;
	int status;
};

/* Run the script on b (captured when out == err is a memstream). */
static int run_on(struct sys_backend *b, struct uvfs *fs, struct run *r, FILE *out, FILE *err)
{
	struct shell sh;
	int status;

	shell_init(&sh, b, fs, out, err);
	sh.stable = r->stable;
	status = shell_boot(&sh) ? 2 : shell_script(&sh, r->script);
	shell_done(&sh);
	return status;
}

static struct sys_backend *new_uvfs(const char *abi)
{
	struct uvfs_config cfg = { .abi = abi };
	struct sys_backend *b = sys_backend_uvfs(&cfg);

	if (!b)
		fprintf(stderr, "uvfsh: %s\n", uvfs_last_error()[0] ? uvfs_last_error()
								  : strerror(errno));
	return b;
}

static char *capture_uvfs(struct run *r)
{
	struct sys_backend *b = new_uvfs(r->abi);
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!b)
		return NULL;
	f = open_memstream(&out, &len);
	r->status = run_on(b, sys_backend_uvfs_fs(b), r, f, f);
	fclose(f);
	sys_backend_uvfs_free(b);
	return out;
}

static void host_fn(struct sys_backend *b, FILE *out, void *arg)
{
	struct run *r = arg;
	int status = run_on(b, NULL, r, out, out);

	/* the exit status travels back in a trailer that capture_host strips */
	fprintf(out, "\n\001uvfsh-status %d\n", status);
}

static char *capture_host(struct run *r)
{
	char *out = sysscript_host_call(HOST_PROC, host_fn, r);
	char *t;

	if (!out) {
		if (errno == EPERM)
			fprintf(stderr, "uvfsh: --host needs root (a private mount namespace and a "
					"tmpfs of its own)\n");
		else
			fprintf(stderr, "uvfsh: the host kernel run failed: %s\n", strerror(errno));
		return NULL;
	}
	t = strstr(out, "\n\001uvfsh-status ");
	if (t) {
		r->status = atoi(t + 15);
		t[1] = 0;
		if (t == out || t[-1] == '\n')
			t[0] = 0;
	}
	return out;
}

static int compare(struct run *r)
{
	struct run h = *r;
	char *a, *b, fa[] = "/tmp/uvfsh-host-XXXXXX", fb[] = "/tmp/uvfsh-uvfs-XXXXXX", cmd[256];
	int da, db, ret;

	r->stable = h.stable = true;
	b = capture_host(&h);
	if (!b)
		return 2;
	a = capture_uvfs(r);
	if (!a) {
		free(b);
		return 2;
	}
	if (!strcmp(a, b)) {
		fputs(a, stdout);
		free(a);
		free(b);
		return 0;
	}
	da = mkstemp(fa);
	db = mkstemp(fb);
	if (da < 0 || db < 0 || write(da, b, strlen(b)) < 0 || write(db, a, strlen(a)) < 0)
		return 2;
	close(da);
	close(db);
	fflush(stdout);
	fprintf(stderr, "uvfsh: the outputs differ (%s)\n", sysscript_kernel_line());
	snprintf(cmd, sizeof(cmd), "diff -u --label host --label uvfs %s %s", fa, fb);
	ret = system(cmd) == 0 ? 0 : 1;
	unlink(fa);
	unlink(fb);
	free(a);
	free(b);
	return ret;
}

/* --abi all: the script under every personality, side by side (columns.h) */
static int side_by_side(struct run *r)
{
	char *outs[NABIS];
	int status = 0;

	r->stable = true;
	for (size_t i = 0; i < NABIS; i++) {
		r->abi = all_abis[i];
		outs[i] = capture_uvfs(r);
		if (!outs[i]) {
			while (i > 0)
				free(outs[--i]);
			return 2;
		}
		status |= r->status;
	}
	columns_print(all_abis, (const char *const *)outs, (int)NABIS);
	for (size_t i = 0; i < NABIS; i++)
		free(outs[i]);
	return status;
}

static int interactive(const char *abi, bool stable)
{
	struct sys_backend *b = new_uvfs(abi);
	struct shell sh;
	char prompt[4200];
	int status;

	if (!b)
		return 2;
	shell_init(&sh, b, sys_backend_uvfs_fs(b), stdout, stderr);
	sh.stable = stable;
	if (shell_boot(&sh)) {
		shell_done(&sh);
		sys_backend_uvfs_free(b);
		return 2;
	}
	using_history();
	printf("uvfsh %s on uvfs (%s). Type exit or ^D to leave.\n", UVFS_VERSION_STRING,
	       abi ? abi : "linux");
	while (!sh.exit_requested) {
		char *line;

		shell_prompt(&sh, prompt, sizeof(prompt));
		line = readline(prompt);
		if (!line)
			break;
		if (*line)
			add_history(line);
		shell_line(&sh, line);
		fflush(stdout);
		free(line);
	}
	status = sh.exit_requested ? sh.exit_status : sh.status;
	shell_done(&sh);
	sys_backend_uvfs_free(b);
	return status;
}

int main(int argc, char **argv)
{
	const char *abi = NULL, *cmds = NULL, *file = NULL;
	bool host = false, cmp = false, stable = false;
	struct run r = { 0 };
	char *text;
	int i;

	if (argc > 1 && !strcmp(argv[1], "--difftest"))
		return difftest_main(argc, argv);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--version")) {
			printf("uvfsh %s\n", UVFS_VERSION_STRING);
			return 0;
		} else if (!strcmp(argv[i], "--abi") && i + 1 < argc) {
			abi = argv[++i];
		} else if (!strncmp(argv[i], "--abi=", 6)) {
			abi = argv[i] + 6;
		} else if (!strcmp(argv[i], "--host")) {
			host = true;
		} else if (!strcmp(argv[i], "--compare")) {
			cmp = true;
		} else if (!strcmp(argv[i], "--stable")) {
			stable = true;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			cmds = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "uvfsh: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "uvfsh: one script at a time ('%s')\n", argv[i]);
			return 2;
		}
	}
	if (cmds) {
		text = strdup(cmds);
	} else if (file) {
		text = sysscript_read_file(file);
		if (!text) {
			fprintf(stderr, "uvfsh: %s: %s\n", file, strerror(errno));
			return 2;
		}
	} else if (!isatty(0)) {
		text = sysscript_read_file("-");
	} else {
		if (host || cmp || (abi && !strcmp(abi, "all"))) {
			fprintf(stderr, "uvfsh: --host, --compare and --abi all need a script "
					"(FILE, -c or standard input)\n");
			return 2;
		}
		return interactive(abi, stable);
	}
	r.script = text;
	r.abi = abi && strcmp(abi, "all") ? abi : NULL;
	r.stable = stable;
	if (abi && !strcmp(abi, "all")) {
		if (host || cmp) {
			fprintf(stderr, "uvfsh: --abi all runs uvfs only\n");
			i = 2;
		} else {
			i = side_by_side(&r);
		}
	} else if (cmp) {
		if (abi && strcmp(abi, "linux")) {
			fprintf(stderr, "uvfsh: --compare is against today's kernel: use --abi linux\n");
			i = 2;
		} else {
			i = compare(&r);
		}
	} else {
		char *out = host ? capture_host(&r) : NULL;

		if (host) {
			i = out ? r.status : 2;
			if (out)
				fputs(out, stdout);
			free(out);
		} else {
			struct sys_backend *b = new_uvfs(r.abi);

			i = b ? run_on(b, sys_backend_uvfs_fs(b), &r, stdout, stderr) : 2;
			if (b)
				sys_backend_uvfs_free(b);
		}
	}
	free(text);
	return i;
}
