// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * difftest.c - run generated sequences on both sides, compare, shrink, report.
 *
 * Sequences run in batches: one host sandbox (or --target directory) and one uvfs
 * instance per batch, each sequence in a fresh directory of its own, sN, which it
 * enters through a descriptor (1022) so that "chdir back" prints the same on both
 * sides.  Every step prints through the sysscript engine — result and errno; stat's
 * type, mode, nlink, size, blocks, uid, gid and inode identity; directory listings
 * sorted (compared as sets); data; /proc/self/fd strings — and after the sequence
 * the whole tree of sN.  A sequence whose text differs is a divergence: it is shrunk
 * by delta debugging (drop chunks of steps, then shorten names) while it still
 * diverges, and the minimal script is written to a file named after what differs.
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "difftest.h"
#include "sysscript.h"
#include "uvfs/uvfs.h"

#define START_FD 1021   /* the directory the batch started in */
#define SEQ_FD 1022     /* the sequence's own directory */

struct batch {
	char **scripts;     /* full scripts, prologue included */
	long first, n;      /* sequence numbers first .. first+n-1 */
};

/* "chdir BACK" is the sequence's directory: through its descriptor. */
static char *full_script(const char *body, long idx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "mkdirat AT_FDCWD s%ld 0755\nopenat AT_FDCWD s%ld O_RDONLY|O_DIRECTORY\n"
		   "dup3 0 %d 0\nclose 0\nfchdir %d\n", idx, idx, SEQ_FD, SEQ_FD);
	for (const char *p = body; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);

		if (l == 10 && !strncmp(p, "chdir BACK", 10))
			fprintf(f, "fchdir %d\n", SEQ_FD);
		else
			fprintf(f, "%.*s\n", (int)l, p);
		p += l + (nl ? 1 : 0);
	}
	/* a sequence that became a user ("asuser", gen.c) ends as root again */
	fprintf(f, "asroot\n");
	for (int i = 0; i < 40; i++)
		fprintf(f, "close %d\n", i);
	fprintf(f, "fchdir %d\nclose %d\n", START_FD, SEQ_FD);
	fclose(f);
	return text;
}

static void batch_fn(struct sys_backend *b, FILE *out, void *arg)
{
	struct batch *bt = arg;
	int fd = b->openat(b->ctx, AT_FDCWD, ".", O_RDONLY | O_DIRECTORY, 0);

	b->dup3(b->ctx, fd, START_FD, 0);
	b->close(b->ctx, fd);
	for (long i = 0; i < bt->n; i++) {
		struct sysscript s;
		char dir[32];

		fprintf(out, "\001seq %ld\n", bt->first + i);
		sysscript_init(&s, b, out);
		s.sort_dents = true;
		sysscript_run(&s, bt->scripts[i]);
		snprintf(dir, sizeof(dir), "s%ld", bt->first + i);
		sysscript_dump_tree(&s, dir, NULL);
		sysscript_done(&s);
	}
}

/* Replace every "old" by "new" (target mode: the directory's own path). */
static char *replace_all(char *text, const char *old, const char *new)
{
	size_t lo = strlen(old), ln = strlen(new), len = 0;
	char *out = NULL;
	FILE *f;

	if (!lo)
		return text;
	f = open_memstream(&out, &len);
	for (char *p = text, *q; ; p = q + lo) {
		q = strstr(p, old);
		if (!q) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(q - p), f);
		fwrite(new, 1, ln, f);
	}
	fclose(f);
	free(text);
	return out;
}

/* After the strings of getcwd and fdpath lines were rewritten, their "= N" must
 * say the new length again (getcwd counts the NUL). */
static char *fix_lengths(char *text)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n'), *eq;
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[8192];

		snprintf(line, sizeof(line), "%.*s", (int)(l < sizeof(line) - 1 ? l : sizeof(line) - 1), p);
		eq = strstr(line, " = ");
		if (eq && (!strncmp(line, "getcwd ", 7) || !strncmp(line, "fdpath ", 7)) &&
		    eq[3] != '-' && strchr(eq, '"')) {
			char *q = strchr(eq, '"');
			char *end = strrchr(q, '"');
			long n = end > q ? (long)(end - q - 1) + (line[0] == 'g') : 0;

			*eq = 0;
			fprintf(f, "%s = %ld %s\n", line, n, strchr(eq + 3, '"'));
		} else {
			fprintf(f, "%s\n", line);
		}
		p += l + (nl ? 1 : 0);
	}
	fclose(f);
	free(text);
	return out;
}

/* On a --target the inode numbers are that filesystem's: O_TMPFILE names
 * "#<ino> (deleted)" then compare as "#N (deleted)" on both sides, and a readlink's
 * result, the length of the name, loses the digits taken out but one (the lines of
 * getcwd and fdpath are counted again by fix_lengths()). */
static char *hide_tmpfile_ino(char *text)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n'), *eq, *end;
		long hidden = 0;

		if (nl)
			*nl = 0;
		for (char *p = strstr(line, "/#"); p; p = strstr(p + 2, "/#")) {
			char *q = p + 2;

			while (*q >= '0' && *q <= '9')
				q++;
			if (q > p + 2 && !strncmp(q, " (deleted)", 10)) {
				hidden += q - (p + 2) - 1;
				p[2] = 'N';
				memmove(p + 3, q, strlen(q) + 1);
			}
		}
		eq = strstr(line, " = ");
		if (hidden && !strncmp(line, "readlink", 8) && eq && eq[3] >= '0' && eq[3] <= '9') {
			long n = strtol(eq + 3, &end, 10);

			*eq = 0;
			fprintf(f, "%s = %ld%s\n", line, n - hidden, end);
		} else {
			fprintf(f, "%s\n", line);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	fclose(f);
	free(text);
	return out;
}

static char *run_kernel(const struct difftest_config *cfg, struct batch *bt)
{
	char *out;

	static long runs;
	char dir[4200];

	if (!cfg->target) {
		out = sysscript_host_call(HOST_PROC | HOST_PROC_FD, batch_fn, bt);
		/* uvfs over a host directory: its O_TMPFILE names have the host's numbers */
		return out && cfg->uvfs_host ? fix_lengths(hide_tmpfile_ino(out)) : out;
	}
	/* every run in a fresh directory, as every uvfs run has a fresh instance: what
	 * a sequence leaves outside its own directory must not reach the next */
	snprintf(dir, sizeof(dir), "%s/r%ld", cfg->target, runs++);
	if (mkdir(dir, 0755))
		return NULL;
	out = sysscript_target_call(dir, batch_fn, bt);
	if (out) {
		char real[4096], prefix[4200];

		/* /proc/self/fd and getcwd show the directory's own path: take it off,
		 * and fix the lengths those lines report */
		if (realpath(dir, real)) {
			snprintf(prefix, sizeof(prefix), "\"%s/", strcmp(real, "/") ? real : "");
			out = replace_all(out, prefix, "\"/");
		}
		out = fix_lengths(hide_tmpfile_ino(out));
	}
	return out;
}

/*
 * The uvfs side runs in a child process, so that a crash of uvfs is a finding and not
 * the end of the tester: its output up to the crash, then a line that says which
 * signal, which no kernel output has.
 */
static char *run_uvfs(const struct difftest_config *cfg, struct batch *bt)
{
	char *out = NULL, buf[65536];
	size_t len = 0;
	int pipefd[2], status;
	ssize_t n;
	FILE *f;
	pid_t pid;

	if (pipe(pipefd))
		return NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return NULL;
	}
	if (pid == 0) {
		struct sys_backend *b = sys_backend_uvfs_proc(NULL);
		FILE *w = fdopen(pipefd[1], "w");

		close(pipefd[0]);
		if (!b || !w)
			_exit(2);
		if (cfg->uvfs_host) {
			int err = sys_backend_uvfs_host_root(b, cfg->uvfs_host, cfg->uvfs_host_opts);

			if (err) {
				fprintf(stderr, "difftest: --uvfs-host %s: %s\n", cfg->uvfs_host,
					strerror(-err));
				_exit(2);
			}
		}
		batch_fn(b, w, bt);
		fclose(w);
		sys_backend_uvfs_free(b);
		_exit(0);
	}
	close(pipefd[1]);
	f = open_memstream(&out, &len);
	while ((n = read(pipefd[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, f);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		fprintf(f, "\n(uvfs crashed: signal %d, %s)\n", WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fclose(f);
		free(out);
		return NULL;
	}
	fclose(f);
	return cfg->target || cfg->uvfs_host ? fix_lengths(hide_tmpfile_ino(out)) : out;
}

/* The output of sequence seq within a batch's output, or NULL. */
static char *section(const char *out, long seq)
{
	char mark[40];
	const char *p, *end;

	snprintf(mark, sizeof(mark), "\001seq %ld\n", seq);
	p = strstr(out, mark);
	if (!p)
		return NULL;
	p += strlen(mark);
	end = strstr(p, "\001seq ");
	return strndup(p, end ? (size_t)(end - p) : strlen(p));
}

/*
 * Is the first difference between the kernel's output and uvfs's an ELOOP on the
 * kernel's side?  Linux's limit of 40 symlinks a walk is not deterministic for 21-40
 * links: a lockless walk that falls back to ref-walk counts the links it had followed
 * again, and whether it falls back depends on mount and rename activity anywhere on
 * the machine.  Such a step is run once more before it counts as a divergence.
 */
static bool kernel_eloop_first(const char *k, const char *u)
{
	const char *line = k;

	while (*k && *k == *u) {
		if (*k == '\n')
			line = k + 1;
		k++;
		u++;
	}
	if (!*k && !*u)
		return false;
	k = strchr(line, '\n');
	return memmem(line, k ? (size_t)(k - line) : strlen(line), "ELOOP", 5) != NULL;
}

/* Does body (one sequence) diverge?  Fills the two outputs when asked.  Each trial
 * gets a directory of its own (a --target directory is not cleaned in between), but
 * always runs as sequence 0, so that the outputs compare. */
static int diverges(const struct difftest_config *cfg, const char *body, char **kout,
		    char **uout)
{
	static long trial;
	char *ks = NULL, *us = NULL;
	int d = -1;

	/* a second attempt only for the kernel's ELOOP for 21-40 links (kernel_eloop_first) */
	for (int attempt = 0; attempt < 2; attempt++) {
		struct batch bt = { .first = 1000000000L + trial++, .n = 1 };
		char *script = full_script(body, bt.first), *k, *u;

		free(ks);
		free(us);
		bt.scripts = &script;
		k = run_kernel(cfg, &bt);
		u = run_uvfs(cfg, &bt);
		ks = k ? section(k, bt.first) : NULL;
		us = u ? section(u, bt.first) : NULL;
		d = ks && us ? strcmp(ks, us) != 0 : -1;
		free(script);
		free(k);
		free(u);
		if (d != 1 || !kernel_eloop_first(ks, us))
			break;
	}
	if (kout && d >= 0) {
		*kout = ks;
		*uout = us;
	} else {
		free(ks);
		free(us);
	}
	return d;
}

static int split_lines(char *text, char ***lines)
{
	int n = 0, cap = 64;

	*lines = malloc((size_t)cap * sizeof(char *));
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		if (n == cap)
			*lines = realloc(*lines, (size_t)(cap *= 2) * sizeof(char *));
		(*lines)[n++] = p;
		if (!nl)
			break;
		*nl = 0;
		p = nl + 1;
	}
	return n;
}

/* The lines but those from skip_from on, skip_len of them — except a "writeprog"
 * while an "exec" stays: the program keeps a shrunk script's exec running the same
 * program on both sides (without it the file would be empty: ENOEXEC for both, a
 * different script). */
static char *join_lines(char **lines, int n, int skip_from, int skip_len)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool execs = false;

	for (int i = 0; i < n; i++)
		if ((i < skip_from || i >= skip_from + skip_len) && !strncmp(lines[i], "exec ", 5))
			execs = true;
	for (int i = 0; i < n; i++)
		if (i < skip_from || i >= skip_from + skip_len ||
		    (execs && !strncmp(lines[i], "writeprog ", 10)))
			fprintf(f, "%s\n", lines[i]);
	fclose(f);
	return text;
}

static void result_word(const char *line, char *out, size_t n);

/* What kind of divergence the outputs show: the first differing step's name and
 * both its results ("tree" when only the final tree differs). */
static void divergence_kind(const char *k, const char *u, char *out, size_t n)
{
	char **kl, **ul, op[32] = "tree", kr[32] = "", ur[32] = "";
	char *kc = strdup(k), *uc = strdup(u);
	int nk = split_lines(kc, &kl), nu = split_lines(uc, &ul);

	for (int i = 0; i < (nk > nu ? nk : nu); i++) {
		const char *a = i < nk ? kl[i] : "", *b = i < nu ? ul[i] : "";

		if (strcmp(a, b)) {
			if (strstr(a, " = ")) {
				sscanf(a, "%31s", op);
				result_word(a, kr, sizeof(kr));
				result_word(b, ur, sizeof(ur));
				/* a count or a descriptor's number moves with every line
				 * dropped: only an errno is the divergence's own */
				if (kr[0] == '-' || (kr[0] >= '0' && kr[0] <= '9'))
					snprintf(kr, sizeof(kr), "N");
				if (ur[0] == '-' || (ur[0] >= '0' && ur[0] <= '9'))
					snprintf(ur, sizeof(ur), "N");
			}
			break;
		}
	}
	snprintf(out, n, "%s %s %s", op, kr, ur);
	free(kl);
	free(ul);
	free(kc);
	free(uc);
}

/* The candidate diverges as the original did (same step, same two results): a
 * shrink that drops an "exit" would otherwise wander off to a difference by design
 * (a listing of a live /proc/PID). */
static bool diverges_alike(const struct difftest_config *cfg, const char *cand, const char *kind)
{
	char *k = NULL, *u = NULL, mine[128];
	bool same = false;

	if (diverges(cfg, cand, &k, &u) == 1) {
		divergence_kind(k, u, mine, sizeof(mine));
		same = !strcmp(mine, kind);
	}
	free(k);
	free(u);
	return same;
}

/* Delta debugging over the steps, then shorter names; at most `budget` trials. */
static char *shrink(const struct difftest_config *cfg, const char *body)
{
	char *cur = strdup(body), *k = NULL, *u = NULL, kind[128] = "";
	int budget = 400, granularity = 2;

	if (diverges(cfg, body, &k, &u) == 1)
		divergence_kind(k, u, kind, sizeof(kind));
	free(k);
	free(u);

	for (;;) {
		char *copy = strdup(cur), **lines;
		int n = split_lines(copy, &lines), chunk;
		bool reduced = false;

		if (n < 2 || budget <= 0) {
			free(lines);
			free(copy);
			break;
		}
		chunk = (n + granularity - 1) / granularity;
		for (int start = 0; start < n && budget > 0; start += chunk) {
			char *cand = join_lines(lines, n, start, chunk);

			budget--;
			if (diverges_alike(cfg, cand, kind)) {
				free(cur);
				cur = cand;
				reduced = true;
				granularity = granularity > 2 ? granularity - 1 : 2;
				break;
			}
			free(cand);
		}
		free(lines);
		free(copy);
		if (!reduced) {
			if (granularity >= n)
				break;
			granularity = granularity * 2 < n ? granularity * 2 : n;
		}
	}
	/* names: {c*N} -> c where the divergence survives it */
	for (char *p = strstr(cur, "{"); p && budget > 0; p = strstr(p + 1, "{")) {
		char tok[16], *end = strchr(p, '}');
		size_t tl;

		if (!end || end - p > 10 || p[2] != '*')
			continue;
		tl = (size_t)(end - p) + 1;
		memcpy(tok, p, tl);
		tok[tl] = 0;
		{
			char rep[2] = { tok[1], 0 };
			char *cand = replace_all(strdup(cur), tok, rep);

			budget--;
			if (diverges_alike(cfg, cand, kind)) {
				free(cur);
				cur = cand;
				p = cur;
			} else {
				free(cand);
			}
		}
	}
	return cur;
}

/* "ENOENT" or "0" or "ok" from a result line. */
static void result_word(const char *line, char *out, size_t n)
{
	const char *eq = strstr(line, " = ");

	if (!eq) {
		snprintf(out, n, "tree");
		return;
	}
	if (!strncmp(eq, " = -1 ", 6)) {
		sscanf(eq + 6, "%31s", out);
		return;
	}
	snprintf(out, n, "%ld", strtol(eq + 3, NULL, 10));
}

static void report(const struct difftest_config *cfg, uint64_t seed, const char *minimal,
		   FILE *log)
{
	char *k = NULL, *u = NULL, **kl, **ul, opname[32] = "tree", kr[32] = "", ur[32] = "";
	char path[512];
	int nk, nu, first = -1;
	FILE *f;

	if (diverges(cfg, minimal, &k, &u) != 1) {
		fprintf(log, "difftest: seed %llu: the divergence did not reproduce\n",
			(unsigned long long)seed);
		free(k);
		free(u);
		return;
	}
	nk = split_lines(k, &kl);
	nu = split_lines(u, &ul);
	for (int i = 0; i < (nk > nu ? nk : nu); i++) {
		const char *a = i < nk ? kl[i] : "", *b = i < nu ? ul[i] : "";

		if (strcmp(a, b)) {
			first = i;
			sscanf(a, "%31s", opname);
			result_word(a, kr, sizeof(kr));
			result_word(b, ur, sizeof(ur));
			break;
		}
	}
	if (first >= 0 && !strstr(kl[first < nk ? first : 0], " = ")) {
		/* the final tree differs, no step did */
		snprintf(opname, sizeof(opname), "tree");
		snprintf(kr, sizeof(kr), "differs");
		ur[0] = 0;
	}
	mkdir(cfg->out_dir, 0755);
	for (int i = 1; ; i++) {
		char n[16] = "";

		if (i > 1)
			snprintf(n, sizeof(n), "-%d", i);
		if (ur[0])
			snprintf(path, sizeof(path), "%s/%s-%s-vs-%s%s.sys", cfg->out_dir, opname, kr, ur, n);
		else
			snprintf(path, sizeof(path), "%s/%s-%s%s.sys", cfg->out_dir, opname, kr, n);
		if (access(path, F_OK))
			break;
	}
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "# difftest seed %llu, shrunk: the kernel and uvfs differ at '%s'\n"
			"# (%s)\n%s", (unsigned long long)seed, opname, sysscript_kernel_line(),
			minimal);
		fclose(f);
	}
	fprintf(log, "\ndifftest: divergence in sequence seed %llu, minimal script %s (%s)\n",
		(unsigned long long)seed, path, cfg->target ? "the target directory" :
		sysscript_kernel_line());
	fprintf(log, "  %-60s | %s\n", "kernel", "uvfs");
	{
		/* 5 prologue lines, the body, 42 epilogue lines, then the tree: show the
		 * body and the tree, and anything else only where it differs */
		int body = 0;

		for (const char *p = minimal; *p; p++)
			body += *p == '\n';
		for (int i = 0; i < (nk > nu ? nk : nu); i++) {
			const char *a = i < nk ? kl[i] : "", *b = i < nu ? ul[i] : "";
			bool differ = strcmp(a, b) != 0;
			bool frame = i < 5 || (i >= 5 + body && i < 5 + body + 42);

			if (differ || !frame)
				fprintf(log, "%c %-60.60s | %.60s\n", differ ? '*' : ' ', a, b);
		}
	}
	free(kl);
	free(ul);
	free(k);
	free(u);
}

/* ---------------------------------------------------------------------------------
 * Coverage: flags the generator produced and errnos the kernel answered, per call.
 */

struct cov_entry {
	char op[16];
	char seen[1024];    /* " ENOENT EEXIST ok O_CREAT ..." */
};

static struct cov_entry cov[40];
static int ncov;

static struct cov_entry *cov_of(const char *op)
{
	for (int i = 0; i < ncov; i++)
		if (!strcmp(cov[i].op, op))
			return &cov[i];
	if (ncov == 40)
		return NULL;
	snprintf(cov[ncov].op, sizeof(cov[ncov].op), "%s", op);
	cov[ncov].seen[0] = 0;
	return &cov[ncov++];
}

static void cov_add(const char *op, const char *what)
{
	struct cov_entry *e = cov_of(op);
	char key[64];

	if (!e)
		return;
	snprintf(key, sizeof(key), " %s ", what);
	if (!strstr(e->seen, key) && strlen(e->seen) + strlen(key) < sizeof(e->seen))
		snprintf(e->seen + strlen(e->seen), sizeof(e->seen) - strlen(e->seen), "%s", key + (e->seen[0] ? 1 : 0));
}

static void cov_scan_output(const char *out)
{
	for (const char *p = out; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], op[32], res[32];

		snprintf(line, sizeof(line), "%.*s", (int)(l < 511 ? l : 511), p);
		if (line[0] != '\001' && sscanf(line, "%31s", op) == 1 && strstr(line, " = ")) {
			result_word(line, res, sizeof(res));
			cov_add(op, isdigit((unsigned char)res[0]) || res[0] == '-' ? "ok" : res);
		}
		p += l + (nl ? 1 : 0);
	}
}

static void cov_scan_flags(const char *script)
{
	static const char *const tokens[] = {
		"O_CREAT", "O_EXCL", "O_TRUNC", "O_APPEND", "O_DIRECTORY", "O_NOFOLLOW", "O_PATH",
		"O_CLOEXEC", "O_NONBLOCK", "O_TMPFILE", "O_ACCMODE", "O_WRONLY", "O_RDWR",
		"RENAME_NOREPLACE", "RENAME_EXCHANGE", "RENAME_WHITEOUT", "AT_REMOVEDIR",
		"AT_SYMLINK_FOLLOW", "AT_SYMLINK_NOFOLLOW", "AT_EMPTY_PATH", "S_IFREG", "S_IFSOCK",
		"S_IFCHR", "S_IFDIR", "F_GETFL", "F_GETFD", "F_SETFD", "F_DUPFD", "F_SETFL",
		"F_DUPFD_CLOEXEC", "UTIME_OMIT", "UTIME_NOW",
	};

	for (const char *p = script; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[600], op[32];

		snprintf(line, sizeof(line), "%.*s", (int)(l < 599 ? l : 599), p);
		if (sscanf(line, "%31s", op) == 1)
			for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++) {
				const char *t = strstr(line, tokens[i]);
				size_t tl = strlen(tokens[i]);

				/* whole tokens only: O_DUPFD is not F_DUPFD_CLOEXEC */
				while (t && ((t[tl] >= 'A' && t[tl] <= 'Z') || t[tl] == '_'))
					t = strstr(t + 1, tokens[i]);
				if (t)
					cov_add(op, tokens[i]);
			}
		p += l + (nl ? 1 : 0);
	}
}

/* The errnos the semantics reference lists per call, and why one may be missing. */
static const struct {
	const char *op;
	const char *errnos;
	const char *why;
} expected[] = {
	{ "openat", "ENOENT EEXIST EISDIR ENOTDIR ELOOP EINVAL ENAMETOOLONG ENXIO EACCES ETXTBSY "
		    "ESRCH",
	  "EBADF: dirfd is always AT_FDCWD; EMFILE: at most 40 descriptors; ENOSPC: no limits" },
	{ "renameat2", "EINVAL EBUSY EEXIST ENOENT ENOTDIR EISDIR ENOTEMPTY ENAMETOOLONG EXDEV "
		       "EPERM", "" },
	{ "unlinkat", "EINVAL EISDIR ENOENT ENOTDIR EBUSY ENOTEMPTY ENAMETOOLONG", "" },
	{ "mkdirat", "EEXIST ENOENT ENOTDIR ENAMETOOLONG EROFS", "" },
	{ "mknodat", "EINVAL EPERM EEXIST ENOENT ENOTDIR", "" },
	{ "symlinkat", "EEXIST ENOENT ENOTDIR ENAMETOOLONG", "" },
	{ "readlinkat", "EINVAL ENOENT ENOTDIR", "" },
	{ "linkat", "EINVAL EEXIST ENOENT EPERM ENOTDIR EBADF EXDEV", "" },
	{ "fstatat", "EINVAL ENOENT ENOTDIR ELOOP ENAMETOOLONG ESRCH", "" },
	{ "getdents64", "EBADF ENOTDIR EINVAL ENOENT", "" },
	{ "read", "EBADF EISDIR EINVAL", "" },
	{ "write", "EBADF EINVAL EFBIG", "" },
	{ "pread", "EBADF EISDIR EINVAL", "" },
	{ "ftruncate", "EBADF EINVAL", "" },
	{ "lseek", "EBADF EINVAL ENXIO", "" },
	{ "dup3", "EINVAL EBADF", "" },
	{ "fcntl", "EBADF EINVAL", "" },
	{ "fchdir", "EBADF ENOTDIR ESRCH", "" },
	{ "getcwd", "ERANGE ENOENT", "" },
	{ "fchmodat", "ENOENT EOPNOTSUPP EPERM", "" },
	{ "fchownat", "ENOENT EPERM", "" },
	{ "utimensat", "EINVAL ENOENT EPERM EBADF", "" },
	{ "close", "EBADF", "" },
	{ "fdpath", "ENOENT", "" },
	{ "fsync", "EBADF EINVAL", "" },
	{ "truncate", "ENOENT EISDIR EINVAL ENOTDIR ETXTBSY", "" },
	{ "mount", "ENODEV ENOENT ENOTDIR ELOOP", "" },
	{ "mount2", "EINVAL ENOENT ENOTDIR EBUSY", "" },
	{ "umount2", "EINVAL EBUSY ENOENT", "" },
	{ "exec", "ETXTBSY EACCES ENOENT ENOTDIR ELOOP", "" },
	{ "writeprog", "EBADF", "" },
};

static void cov_report(FILE *log)
{
	fprintf(log, "\ncoverage (flags generated, results the kernel gave):\n");
	for (int i = 0; i < ncov; i++)
		fprintf(log, "  %-11s %s\n", cov[i].op, cov[i].seen);
	fprintf(log, "errnos the semantics reference lists that no sequence reached:\n");
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		struct cov_entry *e = cov_of(expected[i].op);
		char list[256], missing[256] = "";
		char *save = NULL;

		snprintf(list, sizeof(list), "%s", expected[i].errnos);
		for (char *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char key[40];

			snprintf(key, sizeof(key), " %s ", t);
			if (!e || (!strstr(e->seen, key) && strncmp(e->seen, key + 1, strlen(key) - 1)))
				snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), " %s", t);
		}
		if (missing[0] || expected[i].why[0])
			fprintf(log, "  %-11s%s%s%s\n", expected[i].op, missing[0] ? missing : " (none)",
				expected[i].why[0] ? "; not generated: " : "", expected[i].why);
	}
}

/* ---------------------------------------------------------------------------------
 * The run
 */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int difftest_run(const struct difftest_config *cfg_in, struct difftest_result *res, FILE *log)
{
	bool before_steps = false;  /* an empty script already diverged: stop */
	struct difftest_config cfg = *cfg_in;
	double t0 = now_s();
	long done = 0;
	char work[4096] = "";

	/* On a --target, a fresh directory of our own, removed afterwards. */
	if (cfg.target) {
		snprintf(work, sizeof(work), "%s/uvfs-difftest.XXXXXX", cfg.target);
		if (!mkdtemp(work)) {
			fprintf(log, "difftest: %s: %s\n", cfg.target, strerror(errno));
			return -1;
		}
		cfg.target = work;
	}
	if (!cfg.steps)
		cfg.steps = 30;
	if (!cfg.batch)
		cfg.batch = 250;
	if (!cfg.out_dir)
		cfg.out_dir = "difftest-failures";
	if (!cfg.max_reports)
		cfg.max_reports = 5;
	memset(res, 0, sizeof(*res));
	while (done < cfg.sequences && res->divergences < cfg.max_reports) {
		long n = cfg.sequences - done < cfg.batch ? cfg.sequences - done : cfg.batch;
		char **bodies = calloc((size_t)n, sizeof(char *));
		char **scripts = calloc((size_t)n, sizeof(char *));
		struct batch bt = { scripts, done, n };
		char *k, *u;

		for (long i = 0; i < n; i++) {
			bodies[i] = difftest_generate(cfg.seed + (uint64_t)(done + i), cfg.steps, cfg.target != NULL);
			scripts[i] = full_script(bodies[i], done + i);
			if (cfg.coverage)
				cov_scan_flags(bodies[i]);
		}
		k = run_kernel(&cfg, &bt);
		u = run_uvfs(&cfg, &bt);
		if (!k || !u) {
			fprintf(log, "difftest: %s side failed to run\n", k ? "uvfs" : "kernel");
			free(k);
			free(u);
			return -1;
		}
		if (cfg.coverage)
			cov_scan_output(k);
		for (long i = 0; i < n && res->divergences < cfg.max_reports; i++) {
			char *ks = section(k, done + i), *us = section(u, done + i);

			/* a kernel ELOOP first: the same sequence once more, alone */
			if (ks && us && strcmp(ks, us) && kernel_eloop_first(ks, us) &&
			    diverges(&cfg, bodies[i], NULL, NULL) == 0) {
				free(ks);
				free(us);
				continue;
			}
			if ((!ks || !us || strcmp(ks, us)) && diverges(&cfg, "", NULL, NULL) == 1) {
				/* not a step: the prologue or the final tree of an empty script
				 * already differs (a --target that is not tmpfs-like, a kernel
				 * that is not 6.18): no script to shrink, and nothing after it
				 * would mean more */
				fprintf(log, "difftest: the target differs before any step: an empty "
					     "script already diverges (%s)\n",
					cfg.target ? cfg.target : sysscript_kernel_line());
				res->divergences++;
				before_steps = true;
				free(ks);
				free(us);
				break;
			}
			if (!ks || !us || strcmp(ks, us)) {
				char *minimal = cfg.shrink ? shrink(&cfg, bodies[i]) : strdup(bodies[i]);

				res->divergences++;
				report(&cfg, cfg.seed + (uint64_t)(done + i), minimal, log);
				free(minimal);
			}
			free(ks);
			free(us);
		}
		for (long i = 0; i < n; i++) {
			free(bodies[i]);
			free(scripts[i]);
		}
		free(bodies);
		free(scripts);
		free(k);
		free(u);
		done += n;
		res->steps += n * cfg.steps;
		if (before_steps)
			break;
		if (cfg.progress) {
			double dt = now_s() - t0;

			fprintf(log, "\r%ld/%ld sequences, %.0f steps/s, %ld divergences ", done,
				cfg.sequences, dt > 0 ? (double)res->steps / dt : 0.0, res->divergences);
			fflush(log);
		}
	}
	res->sequences = done;
	res->seconds = now_s() - t0;
	if (work[0])
		nftw(work, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (cfg.progress)
		fputc('\n', log);
	if (cfg.coverage)
		cov_report(log);
	return 0;
}

int difftest_diverges(const struct difftest_config *cfg, const char *body)
{
	return diverges(cfg, body, NULL, NULL);
}

char *difftest_shrink(const struct difftest_config *cfg, const char *body)
{
	return shrink(cfg, body);
}
