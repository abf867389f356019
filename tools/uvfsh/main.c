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

/* Split text into lines (modifies it). */
static int lines_of(char *text, char **lines, int max)
{
	int n = 0;

	for (char *p = text; *p && n < max;) {
		char *nl = strchr(p, '\n');

		lines[n++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	return n;
}

/*
 * --abi all: the script under every personality, one column per distinct output,
 * headed by the eras that print it (so a script whose output no era changes prints one
 * column), '*' before each line on which the columns differ; a line that is the same
 * in every column is printed once, across them.  On a terminal the
 * columns share its width, and a line too long for its column is shown from a little
 * before the first difference; otherwise (a file, a pipe) nothing is cut.
 */
struct abi_group {
	const char *out;           /* the shared output (the first era's, kept whole) */
	char *text;                /* a copy, cut into lines */
	char **lines;
	int n;
	char head[128];            /* "linux, linux-4.17, linux-3.18" */
	int width;
};

static void print_cell(const char *s, size_t from, int width, bool last)
{
	size_t len = strlen(s), start = from < len ? from : len;
	int room = width - (start ? 1 : 0);

	if (start)
		printf("…");
	if ((int)(len - start) > room)
		printf("%.*s…", room - 1, s + start);
	else if (last)
		printf("%s", s + start);
	else
		printf("%-*s", room, s + start);
}

static int side_by_side(struct run *r)
{
	struct abi_group g[NABIS];
	char *outs[NABIS];
	int ng = 0, rows = 0, status = 0, term = 0, total = 0;
	struct winsize ws;

	r->stable = true;
	for (size_t i = 0; i < NABIS; i++) {
		int k;

		r->abi = all_abis[i];
		outs[i] = capture_uvfs(r);
		if (!outs[i]) {
			while (ng > 0) {
				ng--;
				free(g[ng].lines);
				free(g[ng].text);
			}
			while (i > 0)
				free(outs[--i]);
			return 2;
		}
		status |= r->status;
		for (k = 0; k < ng && strcmp(g[k].out, outs[i]); k++)
			;
		if (k < ng) {
			size_t l = strlen(g[k].head);

			snprintf(g[k].head + l, sizeof(g[k].head) - l, ", %s", all_abis[i]);
			continue;
		}
		g[ng].out = outs[i];
		g[ng].text = strdup(outs[i]);
		g[ng].lines = calloc(4096, sizeof(char *));
		g[ng].n = lines_of(g[ng].text, g[ng].lines, 4096);
		snprintf(g[ng].head, sizeof(g[ng].head), "%s", all_abis[i]);
		if (g[ng].n > rows)
			rows = g[ng].n;
		ng++;
	}
	/* which rows differ between the columns (the others are printed across) */
	bool *rowdiff = calloc((size_t)rows + 1, sizeof(bool));

	for (int row = 0; row < rows; row++)
		for (int k = 1; k < ng; k++)
			if (strcmp(row < g[0].n ? g[0].lines[row] : "", row < g[k].n ? g[k].lines[row] : ""))
				rowdiff[row] = true;
	for (int k = 0; k < ng; k++) {
		g[k].width = (int)strlen(g[k].head);
		for (int row = 0; row < g[k].n; row++) {
			if (!rowdiff[row])
				continue;
			/* the ellipsis is one column wide but three bytes: count characters */
			int w = 0;

			for (const unsigned char *p = (const unsigned char *)g[k].lines[row]; *p; p++)
				w += (*p & 0xc0) != 0x80;
			if (w > g[k].width)
				g[k].width = w;
		}
		total += g[k].width + 2;
	}
	if (isatty(1) && !ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		term = ws.ws_col;
	if (term && total + 2 > term) {
		/* share the terminal: each column as much as it needs, up to an equal share */
		int share = (term - 2) / ng - 2;

		for (int k = 0; k < ng; k++)
			if (g[k].width > share)
				g[k].width = share < 12 ? 12 : share;
	}
	/* the heads, wrapped between era names where a column is narrower */
	char heads[NABIS][NABIS][128];
	int nheads = 0;

	for (int k = 0; k < ng; k++) {
		int h = 0;
		char *save = NULL, *tok, copy[128];

		snprintf(copy, sizeof(copy), "%s", g[k].head);
		heads[k][0][0] = 0;
		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			size_t l = strlen(heads[k][h]);

			if (l && (int)(l + 2 + strlen(tok)) > g[k].width) {
				strcat(heads[k][h], ",");
				heads[k][++h][0] = 0;
				l = 0;
			}
			snprintf(heads[k][h] + l, sizeof(heads[k][h]) - l, "%s%s", l ? ", " : "", tok);
		}
		for (int j = h + 1; j < (int)NABIS; j++)
			heads[k][j][0] = 0;
		if (h + 1 > nheads)
			nheads = h + 1;
	}
	for (int h = 0; h < nheads; h++) {
		printf("  ");
		for (int k = 0; k < ng; k++) {
			print_cell(heads[k][h], 0, g[k].width, k == ng - 1);
			if (k < ng - 1)
				printf("  ");
		}
		printf("\n");
	}
	for (int row = 0; row < rows; row++) {
		const char *a = row < g[0].n ? g[0].lines[row] : "";
		size_t from = SIZE_MAX;
		bool differ = false;

		for (int k = 1; k < ng; k++) {
			const char *b = row < g[k].n ? g[k].lines[row] : "";
			size_t i = 0;

			while (a[i] && a[i] == b[i])
				i++;
			if (a[i] != b[i]) {
				differ = true;
				if (i < from)
					from = i;
			}
		}
		printf("%c ", differ ? '*' : ' ');
		if (!differ && ng > 1) {
			/* the same in every column: once, across them */
			print_cell(a, 0, term ? term - 2 : INT32_MAX, true);
			printf("\n");
			continue;
		}
		for (int k = 0; k < ng; k++) {
			const char *s = row < g[k].n ? g[k].lines[row] : "";
			size_t f = 0;

			/* a cut line starts a third of its column before the first difference */
			if (differ && (int)strlen(s) > g[k].width && from > (size_t)g[k].width / 3)
				f = from - (size_t)g[k].width / 3;
			print_cell(s, f, g[k].width, k == ng - 1);
			if (k < ng - 1)
				printf("  ");
		}
		printf("\n");
	}
	free(rowdiff);
	for (int k = 0; k < ng; k++) {
		free(g[k].lines);
		free(g[k].text);
	}
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
