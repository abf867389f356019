// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * columns.c - outputs of one command under several personalities, side by side
 * (uvfsh --abi all, uvfs-run --abi all).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "columns.h"

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
 * The outputs side by side: one column per distinct output,
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

void columns_print(const char *const *names, const char *const *outs, int n)
{
	struct abi_group g[COLUMNS_MAX];
	int ng = 0, rows = 0, term = 0, total = 0;
	struct winsize ws;

	if (n > COLUMNS_MAX)
		n = COLUMNS_MAX;
	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < ng && strcmp(g[k].out, outs[i]); k++)
			;
		if (k < ng) {
			size_t l = strlen(g[k].head);

			snprintf(g[k].head + l, sizeof(g[k].head) - l, ", %s", names[i]);
			continue;
		}
		g[ng].out = outs[i];
		g[ng].text = strdup(outs[i]);
		g[ng].lines = calloc(4096, sizeof(char *));
		g[ng].n = lines_of(g[ng].text, g[ng].lines, 4096);
		snprintf(g[ng].head, sizeof(g[ng].head), "%s", names[i]);
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
	char heads[COLUMNS_MAX][COLUMNS_MAX][128];
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
		for (int j = h + 1; j < COLUMNS_MAX; j++)
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
}

