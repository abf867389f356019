// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * shell.c - the uvfsh interpreter.  Every command is written against struct
 * sys_backend, so it behaves the same on uvfs and on the host kernel; the few that
 * only make sense on uvfs (fork, task, exec-program, dcache, stats) say so elsewhere.
 * Messages follow coreutils and bash ("mv: cannot move 'a' to 'b': No such file or
 * directory"), so that a script's output reads like a terminal's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "introspect.h"
#include "shell.h"
#include "uvfs/uvfs.h"

#define MAX_WORDS 64

#define B(sh) ((sh)->b)
#define C(sh) ((sh)->b->ctx)

/* ---------------------------------------------------------------------------------
 * Output
 */

static void out_write(struct shell *sh, const char *s, size_t n)
{
	if (sh->redirect_fd >= 0) {
		B(sh)->write(C(sh), sh->redirect_fd, s, n);
		return;
	}
	fwrite(s, 1, n, sh->out);
}

__attribute__((format(printf, 2, 3)))
static void say(struct shell *sh, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	out_write(sh, buf, (size_t)n);
}

__attribute__((format(printf, 2, 3)))
static int fail(struct shell *sh, const char *fmt, ...)
{
	va_list ap;

	fflush(sh->out);
	va_start(ap, fmt);
	vfprintf(sh->err, fmt, ap);
	va_end(ap);
	fputc('\n', sh->err);
	fflush(sh->err);
	return 1;
}

static const char *err_str(long r)
{
	return strerror((int)-r);
}

/* ---------------------------------------------------------------------------------
 * Words and redirections
 */

struct redir {
	int fd;          /* the descriptor redirected */
	int flags;       /* open flags, or -1 for close (N<&-) */
	char *target;
};

struct cmdline {
	char *w[MAX_WORDS];
	int n;
	struct redir r[8];
	int nr;
};

static void cmd_free(struct cmdline *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->w[i]);
	for (int i = 0; i < c->nr; i++)
		free(c->r[i].target);
	memset(c, 0, sizeof(*c));
}

/* A redirection operator at p ("42<", ">", ">>", "<>", "<&-"): its length, or 0. */
static size_t redir_op(const char *p, struct redir *r)
{
	const char *q = p;
	int fd = -1;

	if (isdigit((unsigned char)*q)) {
		long long v = 0;

		while (isdigit((unsigned char)*q)) {
			v = v * 10 + (*q++ - '0');
			/* as bash: digits beyond an int are a word, not a descriptor */
			if (v > INT32_MAX)
				return 0;
		}
		fd = (int)v;
	}
	if (q[0] == '<' && q[1] == '&' && q[2] == '-') {
		r->fd = fd < 0 ? 0 : fd;
		r->flags = -1;
		return (size_t)(q - p) + 3;
	}
	if (q[0] == '>' && q[1] == '&' && q[2] == '-') {
		r->fd = fd < 0 ? 1 : fd;
		r->flags = -1;
		return (size_t)(q - p) + 3;
	}
	if (q[0] == '<' && q[1] == '>') {
		r->fd = fd < 0 ? 0 : fd;
		r->flags = O_RDWR | O_CREAT;
		return (size_t)(q - p) + 2;
	}
	if (q[0] == '>' && q[1] == '>') {
		r->fd = fd < 0 ? 1 : fd;
		r->flags = O_WRONLY | O_CREAT | O_APPEND;
		return (size_t)(q - p) + 2;
	}
	if (q[0] == '>') {
		r->fd = fd < 0 ? 1 : fd;
		r->flags = O_WRONLY | O_CREAT | O_TRUNC;
		return (size_t)(q - p) + 1;
	}
	if (q[0] == '<') {
		r->fd = fd < 0 ? 0 : fd;
		r->flags = O_RDONLY;
		return (size_t)(q - p) + 1;
	}
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Digits that make a redirection's descriptor (empty: the default one): as bash, a
 * number beyond an int is a word of its own. */
static bool fd_prefix(const char *s, size_t n)
{
	long long v = 0;

	if (!all_digits(s, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		v = v * 10 + (s[i] - '0');
		if (v > INT32_MAX)
			return false;
	}
	return true;
}

/* Read one word (quotes, backslashes) from *pp into buf; false at end or ';'. */
static bool next_word(const char **pp, char *buf, size_t n, bool *quoted)
{
	const char *p = *pp;
	size_t len = 0;

	*quoted = false;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == ';' || *p == '#' || *p == '\n') {
		*pp = p;
		return false;
	}
	while (*p && *p != ' ' && *p != '\t' && *p != ';' && *p != '\n') {
		if (*p == '\'') {
			*quoted = true;
			for (p++; *p && *p != '\''; p++)
				if (len + 1 < n)
					buf[len++] = *p;
			if (*p)
				p++;
		} else if (*p == '"') {
			*quoted = true;
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\' || p[1] == '$'))
					p++;
				if (len + 1 < n)
					buf[len++] = *p;
			}
			if (*p)
				p++;
		} else if (*p == '\\' && p[1]) {
			if (len + 1 < n)
				buf[len++] = p[1];
			p += 2;
		} else {
			if ((*p == '<' || *p == '>') && len && !fd_prefix(buf, len) &&
			    buf[len - 1] != '<' && buf[len - 1] != '>')
				break; /* "x>file": the operator starts a new word; "42<bar" is one */
			if (len + 1 < n)
				buf[len++] = *p;
			p++;
			if ((buf[len - 1] == '<' || buf[len - 1] == '>') &&
			    fd_prefix(buf, len - 1) && *p != '<' && *p != '>' && *p != '&')
				break; /* "42<" then the target, which may follow with or without space */
		}
	}
	buf[len] = 0;
	*pp = p;
	return true;
}

/* Parse one command of a line; returns where the next one starts, or NULL at the end. */
static const char *parse(const char *p, struct cmdline *c, struct shell *sh)
{
	char buf[8192];
	bool quoted;

	memset(c, 0, sizeof(*c));
	while (next_word(&p, buf, sizeof(buf), &quoted)) {
		struct redir r;
		size_t op = quoted ? 0 : redir_op(buf, &r);

		if (op && c->nr < 8) {
			if (r.flags != -1) {
				if (buf[op]) {
					r.target = strdup(buf + op);
				} else if (next_word(&p, buf, sizeof(buf), &quoted)) {
					r.target = strdup(buf);
				} else {
					fail(sh, "uvfsh: syntax error near unexpected token `newline'");
					r.target = NULL;
					r.flags = -2;
				}
			} else {
				r.target = NULL;
			}
			c->r[c->nr++] = r;
			continue;
		}
		if (c->n < MAX_WORDS)
			c->w[c->n++] = strdup(buf);
	}
	if (*p == '#') {
		while (*p && *p != '\n')
			p++;
	}
	if (*p == ';' || *p == '\n')
		return p + 1;
	return NULL;
}

/* ---------------------------------------------------------------------------------
 * Helpers over the backend
 */

static int b_lstat(struct shell *sh, const char *path, struct stat *st)
{
	return B(sh)->fstatat(C(sh), AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

static int b_stat(struct shell *sh, const char *path, struct stat *st)
{
	return B(sh)->fstatat(C(sh), AT_FDCWD, path, st, 0);
}

static const char *base_name(const char *p)
{
	const char *s = p + strlen(p);

	while (s > p && s[-1] == '/')
		s--;
	while (s > p && s[-1] != '/')
		s--;
	return s;
}

/* What ls -l learns of an entry: as coreutils' gobble_file() does, while the
 * directory is still open (so "ls -l /proc/self/fd" shows the listing's own
 * descriptor, as coreutils 9 does). */
struct ls_entry {
	struct stat st;
	long err;                  /* lstat's, 0 if it succeeded */
	char *link;                /* a symlink's body, or NULL */
	unsigned char d_type;
};

/* The entries of a directory, sorted (C locale), "." and ".." kept if all; with
 * ents, each entry is also lstat'ed (and its link read) before the close. */
static int list_dir_ents(struct shell *sh, const char *path, bool all, char ***names,
			 struct ls_entry **ents);
static int list_dir(struct shell *sh, const char *path, bool all, char ***names)
{
	return list_dir_ents(sh, path, all, names, NULL);
}

static char *join(const char *dir, const char *name);
static int b_lstat(struct shell *sh, const char *path, struct stat *st);

static void ls_gather(struct shell *sh, const char *path, const char *name,
		      unsigned char d_type, struct ls_entry *e)
{
	char *c = join(path, name);

	e->d_type = d_type;
	e->link = NULL;
	e->err = b_lstat(sh, c, &e->st);
	if (!e->err && S_ISLNK(e->st.st_mode)) {
		char body[4097];
		long r = B(sh)->readlinkat(C(sh), AT_FDCWD, c, body, sizeof(body) - 1);

		if (r >= 0) {
			body[r] = 0;
			e->link = strdup(body);
		}
	}
	free(c);
}

static int list_dir_ents(struct shell *sh, const char *path, bool all, char ***names,
			 struct ls_entry **ents)
{
	char buf[32768];
	int fd = B(sh)->openat(C(sh), AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);
	long got;
	int n = 0, cap = 0;

	*names = NULL;
	if (ents)
		*ents = NULL;
	if (fd < 0)
		return fd;
	while ((got = B(sh)->getdents64(C(sh), fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			unsigned short reclen;
			const char *name = buf + off + 19;
			unsigned char d_type = (unsigned char)buf[off + 18];

			memcpy(&reclen, buf + off + 16, 2);
			off += reclen;
			if (!all && name[0] == '.')
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 32;
				*names = realloc(*names, (size_t)cap * sizeof(char *));
				if (ents)
					*ents = realloc(*ents, (size_t)cap * sizeof(**ents));
			}
			if (ents)
				ls_gather(sh, path, name, d_type, &(*ents)[n]);
			(*names)[n++] = strdup(name);
		}
	}
	B(sh)->close(C(sh), fd);
	if (got < 0) {
		for (int i = 0; i < n; i++) {
			free((*names)[i]);
			if (ents)
				free((*ents)[i].link);
		}
		free(*names);
		*names = NULL;
		if (ents) {
			free(*ents);
			*ents = NULL;
		}
		return (int)got;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp((*names)[j - 1], (*names)[j]) > 0; j--) {
			char *t = (*names)[j];

			(*names)[j] = (*names)[j - 1];
			(*names)[j - 1] = t;
			if (ents) {
				struct ls_entry e = (*ents)[j];

				(*ents)[j] = (*ents)[j - 1];
				(*ents)[j - 1] = e;
			}
		}
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static char *join(const char *dir, const char *name)
{
	size_t l = strlen(dir);
	char *p = malloc(l + strlen(name) + 2);

	sprintf(p, "%s%s%s", dir, l && dir[l - 1] == '/' ? "" : "/", name);
	return p;
}

static void mode_string(mode_t m, char *s)
{
	static const char types[] = "?pc?d?b?-?l?s???";

	s[0] = types[(m >> 12) & 15];
	if ((m & S_IFMT) == S_IFREG)
		s[0] = '-';
	for (int i = 0; i < 9; i++)
		s[1 + i] = (m & (0400 >> i)) ? "rwxrwxrwx"[i] : '-';
	if (m & S_ISUID)
		s[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = (m & S_IXOTH) ? 't' : 'T';
	s[10] = 0;
}

static void user_name(unsigned id, char *buf, size_t n)
{
	if (id == 0)
		snprintf(buf, n, "root");
	else
		snprintf(buf, n, "%u", id);
}

static void time_string(struct shell *sh, const struct timespec *ts, char *buf, size_t n)
{
	struct tm tm;
	time_t now = time(NULL);

	if (sh->stable) {
		snprintf(buf, n, "<time>");
		return;
	}
	localtime_r(&ts->tv_sec, &tm);
	if (ts->tv_sec > now - 182 * 24 * 3600 && ts->tv_sec < now + 3600)
		strftime(buf, n, "%b %e %H:%M", &tm);
	else
		strftime(buf, n, "%b %e  %Y", &tm);
}

/* ls -i / stat %i: the number, or in stable mode an identity. */
static void ino_string(struct shell *sh, const struct stat *st, char *buf, size_t n)
{
	if (!sh->stable) {
		snprintf(buf, n, "%lu", (unsigned long)st->st_ino);
		return;
	}
	snprintf(buf, n, "#%d", sysscript_ino_id(&sh->sys, st->st_dev, st->st_ino));
}

/* ---------------------------------------------------------------------------------
 * Commands
 */

static int cmd_cd(struct shell *sh, int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/";
	long r = B(sh)->chdir(C(sh), dir);

	if (r < 0)
		return fail(sh, "uvfsh: cd: %s: %s", dir, err_str(r));
	return 0;
}

static int cmd_pwd(struct shell *sh, int argc, char **argv)
{
	char buf[4097];
	long r = B(sh)->getcwd(C(sh), buf, sizeof(buf));

	(void)argc;
	(void)argv;
	if (r < 0)
		return fail(sh, "pwd: error retrieving current directory: getcwd: %s", err_str(r));
	say(sh, "%s\n", buf);
	return 0;
}

static int cmd_touch(struct shell *sh, int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		long fd = B(sh)->openat(C(sh), AT_FDCWD, argv[i],
					O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK, 0666);
		long r;

		if (fd >= 0)
			B(sh)->close(C(sh), (int)fd);
		else if (fd != -EISDIR) {
			status = fail(sh, "touch: cannot touch '%s': %s", argv[i], err_str(fd));
			continue;
		}
		r = B(sh)->utimensat(C(sh), AT_FDCWD, argv[i], NULL, 0);
		if (r < 0)
			status = fail(sh, "touch: setting times of '%s': %s", argv[i], err_str(r));
	}
	return status;
}

static int mkdir_p(struct shell *sh, const char *path)
{
	char *copy = strdup(path);
	long r = 0;

	if (!copy)
		return -ENOMEM;
	/* the first component starts after a leading '/'; an empty path is one empty
	 * component (mkdir -p '' says ENOENT, as coreutils does; found by fuzz_shell) */
	for (char *p = copy + (copy[0] == '/'); ; p++) {
		if (*p == '/' || !*p) {
			char c = *p;
			struct stat st;

			*p = 0;
			r = B(sh)->mkdirat(C(sh), AT_FDCWD, copy, 0777);
			if (r == -EEXIST && b_stat(sh, copy, &st) == 0 && S_ISDIR(st.st_mode))
				r = 0;
			*p = c;
			if (r < 0 || !c)
				break;
		}
	}
	free(copy);
	return (int)r;
}

static int cmd_mkdir(struct shell *sh, int argc, char **argv)
{
	bool p = false;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		long r;

		if (!strcmp(argv[i], "-p")) {
			p = true;
			continue;
		}
		r = p ? mkdir_p(sh, argv[i]) : B(sh)->mkdirat(C(sh), AT_FDCWD, argv[i], 0777);
		if (r < 0)
			status = fail(sh, "mkdir: cannot create directory '%s': %s", argv[i], err_str(r));
	}
	return status;
}

static int cmd_rmdir(struct shell *sh, int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		long r = B(sh)->unlinkat(C(sh), AT_FDCWD, argv[i], AT_REMOVEDIR);

		if (r < 0)
			status = fail(sh, "rmdir: failed to remove '%s': %s", argv[i], err_str(r));
	}
	return status;
}

static int rm_path(struct shell *sh, const char *path, bool recursive, bool force)
{
	struct stat st;
	const char *last = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	long r;

	/* GNU rm: "." and ".." are never removed */
	if (recursive && (!strcmp(last, ".") || !strcmp(last, "..")))
		return fail(sh, "rm: refusing to remove '.' or '..' directory: skipping '%s'", path);
	r = b_lstat(sh, path, &st);

	if (r < 0) {
		if (force && r == -ENOENT)
			return 0;
		return fail(sh, "rm: cannot remove '%s': %s", path, err_str(r));
	}
	if (S_ISDIR(st.st_mode)) {
		char **names;
		int n, status = 0;

		if (!recursive)
			return fail(sh, "rm: cannot remove '%s': Is a directory", path);
		/* every entry once, dot-files too (two listings, one without them, visited
		 * what could not be removed twice: 2^depth for a tree of someone else's,
		 * which fuzz_shell found) */
		n = list_dir(sh, path, true, &names);
		for (int i = 0; i < n; i++) {
			char *c;

			if (!strcmp(names[i], ".") || !strcmp(names[i], ".."))
				continue;
			c = join(path, names[i]);
			status |= rm_path(sh, c, true, force);
			free(c);
		}
		free_names(names, n > 0 ? n : 0);
		r = B(sh)->unlinkat(C(sh), AT_FDCWD, path, AT_REMOVEDIR);
		if (r < 0)
			return fail(sh, "rm: cannot remove '%s': %s", path, err_str(r));
		return status;
	}
	r = B(sh)->unlinkat(C(sh), AT_FDCWD, path, 0);
	if (r < 0)
		return fail(sh, "rm: cannot remove '%s': %s", path, err_str(r));
	return 0;
}

static int cmd_rm(struct shell *sh, int argc, char **argv)
{
	bool r = false, f = false;
	int status = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++)
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o == 'r' || *o == 'R')
				r = true;
			else if (*o == 'f')
				f = true;
			else
				return fail(sh, "rm: invalid option -- '%c'", *o);
		}
	if (i == argc && !f)
		return fail(sh, "rm: missing operand");
	for (; i < argc; i++)
		status |= rm_path(sh, argv[i], r, f);
	return status;
}

static int cmd_mv(struct shell *sh, int argc, char **argv)
{
	bool T = false, exchange = false, noclobber = false;
	const char *src = NULL, *dst = NULL;
	char *target = NULL;
	unsigned flags = 0;
	struct stat st;
	long r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-T"))
			T = true;
		else if (!strcmp(argv[i], "--exchange"))
			exchange = true;
		else if (!strcmp(argv[i], "--no-clobber") || !strcmp(argv[i], "-n"))
			noclobber = true;
		else if (!src)
			src = argv[i];
		else if (!dst)
			dst = argv[i];
		else
			return fail(sh, "mv: extra operand '%s'", argv[i]);
	}
	if (!dst)
		return fail(sh, "mv: missing destination file operand after '%s'", src ? src : "");
	/* Into an existing directory, unless -T (or exchanging). */
	if (!T && !exchange && b_stat(sh, dst, &st) == 0 && S_ISDIR(st.st_mode))
		target = join(dst, base_name(src));
	else
		target = strdup(dst);
	if (exchange)
		flags = RENAME_EXCHANGE;
	else if (noclobber)
		flags = RENAME_NOREPLACE;
	r = B(sh)->renameat2(C(sh), AT_FDCWD, src, AT_FDCWD, target, flags);
	if (r == -EEXIST && noclobber)
		r = 0; /* -n: silently keep the destination */
	if (r < 0)
		fail(sh, "mv: cannot move '%s' to '%s': %s", src, target, err_str(r));
	free(target);
	return r < 0;
}

static int cmd_ln(struct shell *sh, int argc, char **argv)
{
	bool s = false;
	const char *a = NULL, *b = NULL;
	long r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s"))
			s = true;
		else if (!a)
			a = argv[i];
		else
			b = argv[i];
	}
	if (!a)
		return fail(sh, "ln: missing file operand");
	if (!b)
		b = base_name(a);
	if (s) {
		r = B(sh)->symlinkat(C(sh), a, AT_FDCWD, b);
		if (r < 0)
			return fail(sh, "ln: failed to create symbolic link '%s': %s", b, err_str(r));
	} else {
		r = B(sh)->linkat(C(sh), AT_FDCWD, a, AT_FDCWD, b, 0);
		if (r < 0)
			return fail(sh, "ln: failed to create hard link '%s' => '%s': %s", b, a,
				    err_str(r));
	}
	return 0;
}

struct ls_opts {
	bool l, a, i, d;
};

static void ls_long(struct shell *sh, const char *path, const char *shown,
		    const struct stat *st, const char *link, const struct ls_opts *o, int wlink,
		    int wsize)
{
	char mode[12], user[32], group[32], tm[32], ino[32];

	if (o->i) {
		ino_string(sh, st, ino, sizeof(ino));
		say(sh, "%s ", ino);
	}
	if (!o->l) {
		say(sh, "%s\n", shown);
		return;
	}
	mode_string(st->st_mode, mode);
	user_name(st->st_uid, user, sizeof(user));
	user_name(st->st_gid, group, sizeof(group));
	time_string(sh, &st->st_mtim, tm, sizeof(tm));
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		say(sh, "%s %*lu %s %s %u, %u %s %s", mode, wlink, (unsigned long)st->st_nlink, user,
		    group, major(st->st_rdev), minor(st->st_rdev), tm, shown);
	else
		say(sh, "%s %*lu %s %s %*lld %s %s", mode, wlink, (unsigned long)st->st_nlink, user,
		    group, wsize, (long long)st->st_size, tm, shown);
	if (link) {
		say(sh, " -> %s", link);
	} else if (S_ISLNK(st->st_mode) && path) {
		char body[4097];
		long r = B(sh)->readlinkat(C(sh), AT_FDCWD, path, body, sizeof(body) - 1);

		if (r >= 0) {
			body[r] = 0;
			say(sh, " -> %s", body);
		}
	}
	say(sh, "\n");
}

/* An entry that vanished between getdents and lstat: coreutils prints its type from
 * d_type and '?' for everything it could not learn. */
static void ls_unknown(struct shell *sh, const char *shown, unsigned char d_type,
		       const struct ls_opts *o, int wlink, int wsize)
{
	static const char types[16] = { [DT_FIFO] = 'p', [DT_CHR] = 'c', [DT_DIR] = 'd',
					[DT_BLK] = 'b', [DT_REG] = '-', [DT_LNK] = 'l',
					[DT_SOCK] = 's' };
	char t = d_type < 16 && types[d_type] ? types[d_type] : '?';

	if (o->i)
		say(sh, "? ");
	if (!o->l) {
		say(sh, "%s\n", shown);
		return;
	}
	say(sh, "%c????????? %*s ? ? %*s %12s %s\n", t, wlink, "?", wsize, "?", "?", shown);
}

static int digits(unsigned long long v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static int ls_dir(struct shell *sh, const char *path, const struct ls_opts *o)
{
	char **names;
	struct ls_entry *ents;
	int n = list_dir_ents(sh, path, o->a, &names, &ents), wlink = 1, wsize = 1;
	long long blocks = 0;
	int status = 0;

	if (n < 0)
		return fail(sh, "ls: cannot open directory '%s': %s", path, err_str(n));
	for (int i = 0; i < n; i++) {
		const struct stat *st = &ents[i].st;

		if (ents[i].err) {
			char *c = join(path, names[i]);

			/* coreutils reports it as it meets it, before the listing */
			status = fail(sh, "ls: cannot access '%s': %s", c, err_str(ents[i].err));
			free(c);
			continue;
		}
		blocks += (st->st_blocks + 1) / 2;
		if (digits(st->st_nlink) > wlink)
			wlink = digits(st->st_nlink);
		if (digits((unsigned long long)st->st_size) > wsize)
			wsize = digits((unsigned long long)st->st_size);
	}
	if (o->l)
		say(sh, "total %lld\n", blocks);
	for (int i = 0; i < n; i++) {
		if (ents[i].err)
			ls_unknown(sh, names[i], ents[i].d_type, o, wlink, wsize);
		else
			ls_long(sh, NULL, names[i], &ents[i].st, ents[i].link, o, wlink, wsize);
		free(ents[i].link);
	}
	free(ents);
	free_names(names, n);
	return status;
}

static int cmd_ls(struct shell *sh, int argc, char **argv)
{
	struct ls_opts o = { 0 };
	const char *paths[MAX_WORDS];
	int np = 0, status = 0;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			for (const char *p = argv[i] + 1; *p; p++) {
				if (*p == 'l')
					o.l = true;
				else if (*p == 'a')
					o.a = true;
				else if (*p == 'i')
					o.i = true;
				else if (*p == 'd')
					o.d = true;
				else
					return fail(sh, "ls: invalid option -- '%c'", *p);
			}
		} else {
			paths[np++] = argv[i];
		}
	}
	if (!np)
		paths[np++] = ".";
	/* files first, then directories (with headers when there are several) */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < np; i++) {
			struct stat st;
			long r = b_lstat(sh, paths[i], &st);
			bool dir;

			if (r < 0) {
				if (pass == 0)
					status = fail(sh, "ls: cannot access '%s': %s", paths[i], err_str(r));
				continue;
			}
			/* ls follows a symlink named on the command line unless -l or -d */
			if (S_ISLNK(st.st_mode) && !o.l && !o.d) {
				struct stat t;

				if (b_stat(sh, paths[i], &t) == 0)
					st = t;
			}
			dir = S_ISDIR(st.st_mode) && !o.d;
			if (pass == 0 && !dir)
				ls_long(sh, paths[i], paths[i], &st, NULL, &o, digits(st.st_nlink),
					digits((unsigned long long)st.st_size));
			if (pass == 1 && dir) {
				if (np > 1)
					say(sh, "%s:\n", paths[i]);
				status |= ls_dir(sh, paths[i], &o);
			}
		}
	return status;
}

static int cmd_cat(struct shell *sh, int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		char buf[65536];
		long fd = B(sh)->openat(C(sh), AT_FDCWD, argv[i], O_RDONLY, 0), n;

		if (fd < 0) {
			status = fail(sh, "cat: %s: %s", argv[i], err_str(fd));
			continue;
		}
		while ((n = B(sh)->read(C(sh), (int)fd, buf, sizeof(buf))) > 0)
			out_write(sh, buf, (size_t)n);
		if (n < 0)
			status = fail(sh, "cat: %s: %s", argv[i], err_str(n));
		B(sh)->close(C(sh), (int)fd);
	}
	return status;
}

static int cmd_echo(struct shell *sh, int argc, char **argv)
{
	int i = 1;
	bool nl = true;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		nl = false;
		i = 2;
	}
	for (; i < argc; i++)
		say(sh, "%s%s", argv[i], i + 1 < argc ? " " : "");
	if (nl)
		say(sh, "\n");
	return 0;
}

/* realpath(3) over the backend: every component resolved, symlinks followed. */
static long canonicalize(struct shell *sh, const char *path, bool must_exist_last, char *out,
			 size_t n)
{
	char rest[8192], res[8192] = "";
	int links = 0;

	if (path[0] != '/') {
		long r = B(sh)->getcwd(C(sh), res, sizeof(res));

		if (r < 0)
			return r;
		if (!strcmp(res, "/"))
			res[0] = 0;
	}
	snprintf(rest, sizeof(rest), "%s", path);
	for (char *p = rest; *p;) {
		char comp[4096], try[8192], body[4097];
		size_t len;
		struct stat st;
		long r;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		len = strcspn(p, "/");
		snprintf(comp, sizeof(comp), "%.*s", (int)len, p);
		p += len;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			char *s = strrchr(res, '/');

			if (s)
				*s = 0;
			continue;
		}
		if ((size_t)snprintf(try, sizeof(try), "%s/%s", res, comp) >= sizeof(try))
			return -ENAMETOOLONG;
		r = b_lstat(sh, try, &st);
		if (r < 0) {
			bool last = !*p || !p[strspn(p, "/")];

			if (r == -ENOENT && last && !must_exist_last) {
				snprintf(res, sizeof(res), "%s", try);
				continue;
			}
			return r;
		}
		if (S_ISLNK(st.st_mode)) {
			char next[8192];

			if (++links > 40)
				return -ELOOP;
			r = B(sh)->readlinkat(C(sh), AT_FDCWD, try, body, sizeof(body) - 1);
			if (r < 0)
				return r;
			body[r] = 0;
			if ((size_t)snprintf(next, sizeof(next), "%s%s", body, p) >= sizeof(next))
				return -ENAMETOOLONG;
			snprintf(rest, sizeof(rest), "%s", next);
			p = rest;
			if (body[0] == '/')
				res[0] = 0;
			continue;
		}
		if (*p && !S_ISDIR(st.st_mode))
			return -ENOTDIR;
		snprintf(res, sizeof(res), "%s", try);
	}
	snprintf(out, n, "%s", res[0] ? res : "/");
	return 0;
}

static int cmd_readlink(struct shell *sh, int argc, char **argv)
{
	bool f = false;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		char buf[8192];
		long r;

		if (!strcmp(argv[i], "-f")) {
			f = true;
			continue;
		}
		if (f) {
			r = canonicalize(sh, argv[i], false, buf, sizeof(buf));
			if (r < 0)
				status = 1;
			else
				say(sh, "%s\n", buf);
			continue;
		}
		r = B(sh)->readlinkat(C(sh), AT_FDCWD, argv[i], buf, sizeof(buf) - 1);
		/* readlink(1) without -v says nothing on failure */
		if (r < 0) {
			status = 1;
			continue;
		}
		buf[r] = 0;
		say(sh, "%s\n", buf);
	}
	return status;
}

static int cmd_realpath(struct shell *sh, int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		char buf[8192];
		long r = canonicalize(sh, argv[i], true, buf, sizeof(buf));

		if (r < 0)
			status = fail(sh, "realpath: %s: %s", argv[i], err_str(r));
		else
			say(sh, "%s\n", buf);
	}
	return status;
}

static const char *file_type(const struct stat *st)
{
	switch (st->st_mode & S_IFMT) {
	case S_IFREG: return st->st_size ? "regular file" : "regular empty file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symbolic link";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	case S_IFCHR: return "character special file";
	case S_IFBLK: return "block special file";
	}
	return "weird file";
}

static void stat_format(struct shell *sh, const char *path, const struct stat *st,
			const char *fmt)
{
	for (const char *p = fmt; *p; p++) {
		char buf[4200], mode[12];

		if (*p == '\\' && p[1] == 'n') {
			say(sh, "\n");
			p++;
			continue;
		}
		if (*p != '%' || !p[1]) {
			say(sh, "%c", *p);
			continue;
		}
		switch (*++p) {
		case 'n': say(sh, "%s", path); break;
		case 'N':
			if (S_ISLNK(st->st_mode)) {
				long r = B(sh)->readlinkat(C(sh), AT_FDCWD, path, buf, sizeof(buf) - 1);

				buf[r < 0 ? 0 : r] = 0;
				say(sh, "'%s' -> '%s'", path, buf);
			} else {
				say(sh, "'%s'", path);
			}
			break;
		case 's': say(sh, "%lld", (long long)st->st_size); break;
		case 'b': say(sh, "%lld", (long long)st->st_blocks); break;
		case 'B': say(sh, "512"); break;
		case 'o': say(sh, "%ld", (long)st->st_blksize); break;
		case 'f': say(sh, "%x", (unsigned)st->st_mode); break;
		case 'F': say(sh, "%s", file_type(st)); break;
		case 'a': say(sh, "%o", (unsigned)(st->st_mode & 07777)); break;
		case 'A': mode_string(st->st_mode, mode); say(sh, "%s", mode); break;
		case 'h': say(sh, "%lu", (unsigned long)st->st_nlink); break;
		case 'i': ino_string(sh, st, buf, sizeof(buf)); say(sh, "%s", buf); break;
		case 'u': say(sh, "%u", st->st_uid); break;
		case 'g': say(sh, "%u", st->st_gid); break;
		case 'U': user_name(st->st_uid, buf, sizeof(buf)); say(sh, "%s", buf); break;
		case 'G': user_name(st->st_gid, buf, sizeof(buf)); say(sh, "%s", buf); break;
		case 't': say(sh, "%x", major(st->st_rdev)); break;
		case 'T': say(sh, "%x", minor(st->st_rdev)); break;
		case 'x': case 'y': case 'z': {
			const struct timespec *ts = *p == 'x' ? &st->st_atim
						  : *p == 'y' ? &st->st_mtim : &st->st_ctim;

			if (sh->stable) {
				say(sh, "<time>");
			} else {
				struct tm tm;

				localtime_r(&ts->tv_sec, &tm);
				strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
				say(sh, "%s.%09ld", buf, ts->tv_nsec);
			}
			break;
		}
		case '%': say(sh, "%%"); break;
		default: say(sh, "?%c", *p); break;
		}
	}
}

static int cmd_stat(struct shell *sh, int argc, char **argv)
{
	const char *fmt = NULL;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		long r;

		if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			fmt = argv[++i];
			continue;
		}
		r = b_lstat(sh, argv[i], &st);
		if (r < 0) {
			status = fail(sh, "stat: cannot statx '%s': %s", argv[i], err_str(r));
			continue;
		}
		if (fmt) {
			stat_format(sh, argv[i], &st, fmt);
			say(sh, "\n");
		} else {
			stat_format(sh, argv[i], &st,
				    "  File: %N\\n  Size: %s\tBlocks: %b\tIO Block: %o\t%F\\n"
				    "Inode: %i\tLinks: %h\\n"
				    "Access: (0%a/%A)  Uid: (%u/%U)   Gid: (%g/%G)\\n"
				    "Access: %x\\nModify: %y\\nChange: %z\\n");
		}
	}
	return status;
}

static int cmd_chmod(struct shell *sh, int argc, char **argv)
{
	char *end;
	unsigned long mode;
	int status = 0;

	if (argc < 3)
		return fail(sh, "chmod: missing operand");
	mode = strtoul(argv[1], &end, 8);
	if (*end)
		return fail(sh, "chmod: invalid mode: '%s' (uvfsh takes octal modes)", argv[1]);
	for (int i = 2; i < argc; i++) {
		long r = B(sh)->fchmodat(C(sh), AT_FDCWD, argv[i], (mode_t)mode, 0);

		if (r < 0)
			status = fail(sh, "chmod: cannot access '%s': %s", argv[i], err_str(r));
	}
	return status;
}

static int cmd_chown(struct shell *sh, int argc, char **argv)
{
	uid_t u = (uid_t)-1;
	gid_t g = (gid_t)-1;
	char *colon;
	int status = 0;

	if (argc < 3)
		return fail(sh, "chown: missing operand");
	colon = strchr(argv[1], ':');
	if (colon) {
		*colon = 0;
		if (colon[1])
			g = !strcmp(colon + 1, "root") ? 0 : (gid_t)strtoul(colon + 1, NULL, 10);
	}
	if (argv[1][0])
		u = !strcmp(argv[1], "root") ? 0 : (uid_t)strtoul(argv[1], NULL, 10);
	for (int i = 2; i < argc; i++) {
		long r = B(sh)->fchownat(C(sh), AT_FDCWD, argv[i], u, g, 0);

		if (r < 0)
			status = fail(sh, "chown: cannot access '%s': %s", argv[i], err_str(r));
	}
	return status;
}

static int cmd_truncate(struct shell *sh, int argc, char **argv)
{
	long long size = -1;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		long fd, r;

		if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			size = strtoll(argv[++i], NULL, 0);
			continue;
		}
		if (size < 0)
			return fail(sh, "truncate: you must specify '-s'");
		fd = B(sh)->openat(C(sh), AT_FDCWD, argv[i], O_WRONLY | O_CREAT | O_NONBLOCK, 0666);
		if (fd < 0) {
			status = fail(sh, "truncate: cannot open '%s' for writing: %s", argv[i],
				      err_str(fd));
			continue;
		}
		r = B(sh)->ftruncate(C(sh), (int)fd, size);
		if (r < 0)
			status = fail(sh, "truncate: failed to truncate '%s' at %lld bytes: %s",
				      argv[i], size, err_str(r));
		B(sh)->close(C(sh), (int)fd);
	}
	return status;
}

static int cmd_chroot(struct shell *sh, int argc, char **argv)
{
	long r;

	if (argc != 2)
		return fail(sh, "chroot: usage: chroot DIR");
	r = B(sh)->chroot(C(sh), argv[1]);
	if (r < 0)
		return fail(sh, "chroot: cannot change root directory to '%s': %s", argv[1],
			    err_str(r));
	return 0;
}

/* mount alone: util-linux's listing, "SOURCE on TARGET type TYPE (OPTIONS)", from
 * /proc/self/mounts (whose fourth field is the options util-linux shows) */
static int mount_list(struct shell *sh)
{
	char buf[65536], *line, *save = NULL;
	long fd = B(sh)->openat(C(sh), AT_FDCWD, "/proc/self/mounts", O_RDONLY, 0), n, len = 0;

	if (fd < 0)
		return fail(sh, "mount: /proc/self/mounts: %s", err_str(fd));
	while (len < (long)sizeof(buf) - 1 &&
	       (n = B(sh)->read(C(sh), (int)fd, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	B(sh)->close(C(sh), (int)fd);
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char src[4096], target[4096], type[256], opts[4096];

		if (sscanf(line, "%4095s %4095s %255s %4095s", src, target, type, opts) == 4)
			say(sh, "%s on %s type %s (%s)\n", src, target, type, opts);
	}
	return 0;
}

/* The mount options util-linux turns into flags (mount(8), FILESYSTEM-INDEPENDENT
 * MOUNT OPTIONS); the rest go to the filesystem as data. */
static const struct mount_opt {
	const char *name;
	unsigned long set, clear;
} mount_opts[] = {
	{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY }, { "nosuid", MS_NOSUID, 0 },
	{ "suid", 0, MS_NOSUID }, { "nodev", MS_NODEV, 0 }, { "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 }, { "exec", 0, MS_NOEXEC }, { "sync", MS_SYNCHRONOUS, 0 },
	{ "async", 0, MS_SYNCHRONOUS }, { "dirsync", MS_DIRSYNC, 0 },
	{ "noatime", MS_NOATIME, 0 }, { "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 }, { "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, 0 }, { "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, 0 }, { "nosymfollow", MS_NOSYMFOLLOW, 0 },
	{ "remount", MS_REMOUNT, 0 }, { "bind", MS_BIND, 0 }, { "rbind", MS_BIND | MS_REC, 0 },
	{ "private", MS_PRIVATE, 0 }, { "rprivate", MS_PRIVATE | MS_REC, 0 },
	{ "unbindable", MS_UNBINDABLE, 0 }, { "runbindable", MS_UNBINDABLE | MS_REC, 0 },
	{ "shared", MS_SHARED, 0 }, { "slave", MS_SLAVE, 0 }, { "defaults", 0, 0 },
};

/* -o a,b,c: flags into *flags, the rest appended to data */
static void mount_parse_opts(const char *opts, unsigned long *flags, char *data, size_t n)
{
	char copy[4096], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", opts);
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(mount_opts) / sizeof(mount_opts[0]); i++)
			if (!strcmp(o, mount_opts[i].name))
				break;
		if (i < sizeof(mount_opts) / sizeof(mount_opts[0])) {
			*flags = (*flags & ~mount_opts[i].clear) | mount_opts[i].set;
		} else {
			size_t len = strlen(data);

			snprintf(data + len, n - len, "%s%s", len ? "," : "", o);
		}
	}
}

/*
 * mount [-t TYPE] [-o OPTS] SOURCE TARGET, mount --bind|--rbind|--move A B,
 * mount -o remount[,...] TARGET, mount --make-private|--make-rprivate|
 * --make-unbindable TARGET, and mount alone (the list).  A read-only bind is the
 * bind and then a remount of it, as util-linux does it.
 */
static int cmd_mount(struct shell *sh, int argc, char **argv)
{
	unsigned long flags = 0;
	const char *type = NULL, *args[2];
	char data[4096] = "";
	int nargs = 0;
	long r;

	if (argc == 1)
		return mount_list(sh);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-t") && i + 1 < argc)
			type = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			mount_parse_opts(argv[++i], &flags, data, sizeof(data));
		else if (!strcmp(argv[i], "--bind") || !strcmp(argv[i], "-B"))
			flags |= MS_BIND;
		else if (!strcmp(argv[i], "--rbind") || !strcmp(argv[i], "-R"))
			flags |= MS_BIND | MS_REC;
		else if (!strcmp(argv[i], "--move") || !strcmp(argv[i], "-M"))
			flags |= MS_MOVE;
		else if (!strcmp(argv[i], "--make-private"))
			flags |= MS_PRIVATE;
		else if (!strcmp(argv[i], "--make-rprivate"))
			flags |= MS_PRIVATE | MS_REC;
		else if (!strcmp(argv[i], "--make-unbindable"))
			flags |= MS_UNBINDABLE;
		else if (argv[i][0] == '-' || nargs == 2)
			return fail(sh, "mount: usage: mount [-t TYPE] [-o OPTIONS] SOURCE TARGET | "
				    "--bind|--rbind|--move A B | -o remount TARGET");
		else
			args[nargs++] = argv[i];
	}
	/* one argument: the target of a remount or a propagation change */
	if (nargs == 1 && (flags & (MS_REMOUNT | MS_PRIVATE | MS_UNBINDABLE | MS_SHARED | MS_SLAVE))) {
		args[1] = args[0];
		args[0] = "none";
	} else if (nargs != 2) {
		return fail(sh, "mount: usage: mount [-t TYPE] [-o OPTIONS] SOURCE TARGET");
	}
	r = B(sh)->mount2(C(sh), args[0], args[1], type, flags & ~(flags & MS_BIND &&
		!(flags & MS_REMOUNT) ? MS_RDONLY : 0), data[0] ? data : NULL);
	if (r >= 0 && (flags & MS_BIND) && !(flags & MS_REMOUNT) && (flags & MS_RDONLY))
		r = B(sh)->mount2(C(sh), "none", args[1], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
				  (flags & (MS_NOSUID | MS_NODEV | MS_NOEXEC)), NULL);
	if (r < 0)
		return fail(sh, "mount: %s: %s", args[1], err_str(r));
	return 0;
}

/* umount [-l] [-f] TARGET... */
static int cmd_umount(struct shell *sh, int argc, char **argv)
{
	int flags = 0, status = 0, i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *p = argv[i] + 1; *p; p++) {
			if (*p == 'l')
				flags |= MNT_DETACH;
			else if (*p == 'f')
				flags |= MNT_FORCE;
			else
				return fail(sh, "umount: usage: umount [-lf] TARGET...");
		}
	}
	if (i == argc)
		return fail(sh, "umount: usage: umount [-lf] TARGET...");
	for (; i < argc; i++) {
		long r = B(sh)->umount2(C(sh), argv[i], flags);

		if (r < 0)
			status = fail(sh, "umount: %s: %s", argv[i], err_str(r));
	}
	return status;
}

/* unshare -m: the current task's own copy of its mount namespace */
static int cmd_unshare(struct shell *sh, int argc, char **argv)
{
	long r;

	if (argc != 2 || strcmp(argv[1], "-m"))
		return fail(sh, "unshare: usage: unshare -m");
	r = B(sh)->unshare(C(sh), CLONE_NEWNS);
	if (r < 0)
		return fail(sh, "unshare: %s", err_str(r));
	return 0;
}

static int cmd_pivot_root(struct shell *sh, int argc, char **argv)
{
	long r;

	if (argc != 3)
		return fail(sh, "pivot_root: usage: pivot_root NEW_ROOT PUT_OLD");
	r = B(sh)->pivot_root(C(sh), argv[1], argv[2]);
	if (r < 0)
		return fail(sh, "pivot_root: failed to change root from '%s' to '%s': %s", argv[2],
			    argv[1], err_str(r));
	return 0;
}

/* A user or group id: "root", or decimal digits up to 4294967294 ((uid_t)-1 means
 * "unchanged" to the calls, so it is no id). */
static bool parse_id(const char *s, uint32_t *out)
{
	unsigned long long v = 0;

	if (!strcmp(s, "root")) {
		*out = 0;
		return true;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (unsigned)(*s - '0');
		if (v >= 0xffffffffull)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

/* su USER[:GROUP] - the task becomes that user for good (setgroups to none,
 * setresgid, setresuid: a real drop, as setpriv --reuid --regid --clear-groups) */
static int cmd_su(struct shell *sh, int argc, char **argv)
{
	char *colon;
	uint32_t u, g;
	long r;

	if (argc != 2)
		return fail(sh, "su: usage: su USER[:GROUP] (numeric ids, or root)");
	colon = strchr(argv[1], ':');
	if (colon)
		*colon = 0;
	if (!parse_id(argv[1], &u))
		return fail(sh, "su: invalid user: '%s'", argv[1]);
	if (!colon)
		g = u;
	else if (!parse_id(colon + 1, &g))
		return fail(sh, "su: invalid group: '%s'", colon + 1);
	r = B(sh)->su(C(sh), u, g, 0, NULL, false);
	if (r < 0)
		return fail(sh, "su: cannot become %u:%u: %s", u, g, err_str(r));
	return 0;
}

/* id - the task's ids, groups and effective capabilities */
static int cmd_id(struct shell *sh, int argc, char **argv)
{
	char buf[512];
	long r;

	(void)argv;
	if (argc != 1)
		return fail(sh, "id: usage: id");
	r = B(sh)->id(C(sh), buf, sizeof(buf));
	if (r < 0)
		return fail(sh, "id: %s", err_str(r));
	say(sh, "%s\n", buf);
	return 0;
}

static int need_uvfs(struct shell *sh, const char *cmd)
{
	if (!sh->fs)
		return fail(sh, "uvfsh: %s: only on uvfs, not on the host kernel", cmd);
	return 0;
}

static struct uvfs_task *cur_task(struct shell *sh)
{
	return sh->tasks[sh->current];
}

static int cmd_exec_program(struct shell *sh, int argc, char **argv)
{
	long r;

	if (need_uvfs(sh, argv[0]))
		return 1;
	if (argc != 2)
		return fail(sh, "exec-program: usage: exec-program PATH");
	r = uvfs_task_exec(cur_task(sh), argv[1]);
	if (r < 0)
		return fail(sh, "uvfsh: %s: %s", argv[1], err_str(r));
	return 0;
}

static int cmd_fork(struct shell *sh, int argc, char **argv)
{
	struct uvfs_task *t;

	(void)argc;
	if (need_uvfs(sh, argv[0]))
		return 1;
	if (sh->ntasks == SHELL_MAX_TASKS)
		return fail(sh, "fork: too many tasks");
	t = uvfs_task_fork(cur_task(sh));
	if (!t)
		return fail(sh, "fork: %s", strerror(errno));
	sh->tasks[sh->ntasks++] = t;
	say(sh, "%d\n", uvfs_task_pid(t));
	return 0;
}

static int cmd_task(struct shell *sh, int argc, char **argv)
{
	int pid;

	if (need_uvfs(sh, argv[0]))
		return 1;
	if (argc != 2)
		return fail(sh, "task: usage: task PID");
	pid = atoi(argv[1]);
	for (int i = 0; i < sh->ntasks; i++)
		if (uvfs_task_pid(sh->tasks[i]) == pid) {
			sh->current = i;
			sys_backend_uvfs_set_task(sh->b, sh->tasks[i]);
			return 0;
		}
	return fail(sh, "task: %d: no such task", pid);
}

static int cmd_tasks(struct shell *sh, int argc, char **argv)
{
	(void)argc;
	if (need_uvfs(sh, argv[0]))
		return 1;
	for (int i = 0; i < sh->ntasks; i++) {
		char cwd[4097];
		long r = uvfs_getcwd(sh->tasks[i], cwd, sizeof(cwd));

		say(sh, "%c %d %s\n", i == sh->current ? '*' : ' ', uvfs_task_pid(sh->tasks[i]),
		    r < 0 ? "(cwd deleted)" : cwd);
	}
	return 0;
}

struct dcache_print {
	bool stable;    /* the shell's --stable: no inode numbers */
	bool dot;
	FILE *mem;      /* the text, written out after the walk */
};

static int dcache_visit(const struct uvfs_dentry_info *d, int depth, void *arg)
{
	struct dcache_print *p = arg;

	if (p->dot) {
		fprintf(p->mem, "  d%llu [label=\"%s\\n%s%s\"%s];\n", (unsigned long long)d->id,
		    d->name, d->external ? "external" : "inline",
		    d->negative ? " negative" : "", d->hashed ? "" : " style=dashed");
		if (depth > 0)
			fprintf(p->mem, "  d%llu -> d%llu;\n", (unsigned long long)d->parent_id,
			    (unsigned long long)d->id);
		if (d->external)
			fprintf(p->mem, "  n%llu [shape=box label=\"name %llu (refs %u)\"];\n"
				"  d%llu -> n%llu [style=dotted];\n",
			    (unsigned long long)d->name_id, (unsigned long long)d->name_id,
			    d->name_refs, (unsigned long long)d->id, (unsigned long long)d->name_id);
		return 0;
	}
	fprintf(p->mem, "%*s%s  [", depth * 2, "", d->name);
	if (d->external)
		fprintf(p->mem, "external name#%llu refs=%u", (unsigned long long)d->name_id, d->name_refs);
	else
		fprintf(p->mem, "inline");
	fprintf(p->mem, "%s%s refcount=%ld", d->hashed ? "" : " unhashed", d->negative ? " negative" : "",
	    d->refcount);
	if (!d->negative) {
		if (p->stable)
			fprintf(p->mem, "]\n");
		else
			fprintf(p->mem, " ino=%llu]\n", (unsigned long long)d->ino);
	} else {
		fprintf(p->mem, "]\n");
	}
	return 0;
}

static int cmd_dcache(struct shell *sh, int argc, char **argv)
{
	struct dcache_print p = { sh->stable, false, NULL };
	char *text = NULL;
	size_t len = 0;
	const char *path = "/";
	long r;

	if (need_uvfs(sh, argv[0]))
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dot"))
			p.dot = true;
		else
			path = argv[i];
	}
	/* the visitor runs under the instance's lock: it collects, and the text is
	 * written (maybe to a uvfs file: "dcache > /f") after the walk */
	p.mem = open_memstream(&text, &len);
	if (!p.mem)
		return fail(sh, "dcache: %s", strerror(errno));
	if (p.dot)
		fprintf(p.mem, "digraph dcache {\n  node [fontname=monospace];\n");
	r = uvfs_dcache_walk(cur_task(sh), path, dcache_visit, &p);
	if (p.dot)
		fprintf(p.mem, "}\n");
	fclose(p.mem);
	out_write(sh, text, len);
	free(text);
	if (r < 0)
		return fail(sh, "dcache: %s: %s", path, err_str(r));
	return 0;
}

static int cmd_stats(struct shell *sh, int argc, char **argv)
{
	struct uvfs_cache_stats s;

	(void)argc;
	if (need_uvfs(sh, argv[0]))
		return 1;
	uvfs_get_stats(sh->fs, &s);
	say(sh, "lookups %lu\nhits %lu\nnegative_hits %lu\nmisses %lu\nrenames %lu\n"
		"dentries %ld\nexternal_names %ld\nexternal_name_bytes %ld\ninodes %ld\n"
		"data_bytes %ld\nopen_files %ld\nrevalidations %lu\nstale %lu\nevictions %lu\n",
	    s.lookups, s.hits, s.negative_hits, s.misses, s.renames, s.dentries, s.names,
	    s.name_bytes, s.inodes, s.data_bytes, s.files, s.revalidations, s.stale,
	    s.evictions);
	return 0;
}

/* "sys NAME ARGS...": one raw call, printed strace-style by the sysscript engine. */
static int cmd_sys(struct shell *sh, int argc, char **argv, const char *raw)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	FILE *saved = sh->sys.out;
	long r;

	(void)argc;
	(void)argv;
	sh->sys.out = f;
	sh->sys.b = sh->b;
	r = sysscript_line(&sh->sys, raw);
	sh->sys.out = saved;
	fclose(f);
	out_write(sh, out, len);
	free(out);
	return r < 0;
}

static int cmd_set(struct shell *sh, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-e"))
			sh->errexit = true;
		else if (!strcmp(argv[i], "+e"))
			sh->errexit = false;
		else
			return fail(sh, "uvfsh: set: %s: invalid option", argv[i]);
	}
	return 0;
}

/* Open a redirection's target at its descriptor number (exec N<file and friends). */
static long redirect_open(struct shell *sh, const struct redir *r)
{
	long fd;

	if (r->flags == -1) {
		B(sh)->close(C(sh), r->fd);
		return r->fd;
	}
	fd = B(sh)->openat(C(sh), AT_FDCWD, r->target, r->flags, 0666);
	if (fd < 0)
		return fd;
	if (fd != r->fd) {
		long d = B(sh)->dup3(C(sh), (int)fd, r->fd, 0);

		B(sh)->close(C(sh), (int)fd);
		if (d < 0)
			return d;
	}
	return r->fd;
}

static int cmd_help(struct shell *sh, int argc, char **argv);

static const struct command {
	const char *name;
	int (*fn)(struct shell *, int, char **);
	const char *usage;
	const char *what;
} commands[] = {
	{ "cd", cmd_cd, "cd [DIR]", "change the working directory (default /)" },
	{ "pwd", cmd_pwd, "pwd", "print the working directory (getcwd)" },
	{ "ls", cmd_ls, "ls [-laid] [PATH...]", "list directories (as coreutils ls)" },
	{ "cat", cmd_cat, "cat FILE...", "print files" },
	{ "echo", cmd_echo, "echo [-n] WORD... [> FILE]", "print words, or write them to FILE" },
	{ "touch", cmd_touch, "touch FILE...", "create files, or update their times" },
	{ "mkdir", cmd_mkdir, "mkdir [-p] DIR...", "create directories" },
	{ "rmdir", cmd_rmdir, "rmdir DIR...", "remove empty directories" },
	{ "rm", cmd_rm, "rm [-rf] PATH...", "remove files (and trees with -r)" },
	{ "mv", cmd_mv, "mv [-T|-n|--exchange] SRC... DST", "rename (renameat2; NOREPLACE, EXCHANGE)" },
	{ "ln", cmd_ln, "ln [-s] TARGET NAME", "make a hard link, or a symlink with -s" },
	{ "readlink", cmd_readlink, "readlink [-f] PATH...", "print a symlink's target (or /proc link)" },
	{ "realpath", cmd_realpath, "realpath PATH...", "print the canonical path" },
	{ "stat", cmd_stat, "stat [-c FORMAT] PATH...", "print a file's status" },
	{ "chmod", cmd_chmod, "chmod MODE PATH...", "change the mode (octal)" },
	{ "chown", cmd_chown, "chown UID[:GID] PATH...", "change the owner" },
	{ "truncate", cmd_truncate, "truncate -s SIZE FILE...", "set a file's size" },
	{ "chroot", cmd_chroot, "chroot DIR", "change the task's root directory" },
	{ "mount", cmd_mount, "mount [-t T] [-o OPTS] SRC DIR", "mount (--bind, --rbind, --move, -o remount; alone: list)" },
	{ "umount", cmd_umount, "umount [-lf] DIR...", "unmount (-l: lazily)" },
	{ "unshare", cmd_unshare, "unshare -m", "the task's own copy of its mount namespace" },
	{ "pivot_root", cmd_pivot_root, "pivot_root NEW OLD", "NEW becomes the root, the old one goes on OLD" },
	{ "su", cmd_su, "su USER[:GROUP]", "become that user and group for good (numeric, or root)" },
	{ "id", cmd_id, "id", "the task's uids, gids, groups and effective capabilities" },
	{ "exec-program", cmd_exec_program, "exec-program PATH", "the task executes PATH (/proc/self/exe)" },
	{ "fork", cmd_fork, "fork", "a child task that shares the open files; it becomes current" },
	{ "task", cmd_task, "task N", "make task N (a pid) the current one" },
	{ "tasks", cmd_tasks, "tasks", "list the tasks" },
	{ "dcache", cmd_dcache, "dcache [--dot] [PATH]", "the dentry tree: inline/external names, refs" },
	{ "stats", cmd_stats, "stats", "dentry cache counters" },
	{ "set", cmd_set, "set -e | set +e", "stop at the first failing command, or not" },
	{ "help", cmd_help, "help", "this list" },
};

/* The commands the table does not hold: the shell's own words. */
static const char *const builtin_help[][2] = {
	{ "exec N<FILE | N>FILE | N>&-", "open FILE on descriptor N, or close N" },
	{ "sys CALL ARGS...", "a raw system call (uvfsh(1), SYSTEM CALLS)" },
	{ "true  false  exit [N]", "status 0, status 1, leave" },
};

static int cmd_help(struct shell *sh, int argc, char **argv)
{
	int w = 0;

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if ((int)strlen(commands[i].usage) > w)
			w = (int)strlen(commands[i].usage);
	say(sh, "Commands (';' separates commands, '#' starts a comment):\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		say(sh, "  %-*s  %s\n", w, commands[i].usage, commands[i].what);
	for (size_t i = 0; i < sizeof(builtin_help) / sizeof(builtin_help[0]); i++)
		say(sh, "  %-*s  %s\n", w, builtin_help[i][0], builtin_help[i][1]);
	return 0;
}

static int run_command(struct shell *sh, struct cmdline *c, const char *raw)
{
	const size_t ncommands = sizeof(commands) / sizeof(commands[0]);
	int status = 0;

	for (int i = 0; i < c->nr; i++)
		if (c->r[i].flags == -2)
			return 2;
	/* exec with nothing but redirections: they stay (bash's "exec 42<bar") */
	if (c->n >= 1 && !strcmp(c->w[0], "exec") && c->n == 1) {
		for (int i = 0; i < c->nr; i++) {
			long r = redirect_open(sh, &c->r[i]);

			if (r < 0)
				return fail(sh, "uvfsh: %s: %s", c->r[i].target ? c->r[i].target : "",
					    err_str(r));
		}
		return 0;
	}
	if (!c->n)
		return 0;
	/* exec with a command: uvfsh runs no programs (exec-program pins one) */
	if (!strcmp(c->w[0], "exec"))
		return fail(sh, "uvfsh: exec: %s: not found (uvfsh runs no programs; see "
				"exec-program)", c->w[1]) ? 127 : 127;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->w[i], "|") || !strcmp(c->w[i], "&&") || !strcmp(c->w[i], "||"))
			return fail(sh, "uvfsh: '%s' is not supported: one command at a time, "
					"separated by ';'", c->w[i]);
	if (!strcmp(c->w[0], "exit")) {
		sh->exit_requested = true;
		sh->exit_status = c->n > 1 ? atoi(c->w[1]) : sh->status;
		return sh->exit_status;
	}
	if (!strcmp(c->w[0], "true"))
		return 0;
	if (!strcmp(c->w[0], "false"))
		return 1;
	/* a command's own "> file": its standard output goes there for this command */
	for (int i = 0; i < c->nr; i++) {
		const struct redir *r = &c->r[i];

		if (r->fd != 1 || r->flags == -1)
			return fail(sh, "uvfsh: only 'exec' takes redirections of other "
					"descriptors (use: exec %d<file)", r->fd);
		{
			long fd = B(sh)->openat(C(sh), AT_FDCWD, r->target, r->flags, 0666);

			if (fd < 0)
				return fail(sh, "uvfsh: %s: %s", r->target, err_str(fd));
			if (sh->redirect_fd >= 0)
				B(sh)->close(C(sh), sh->redirect_fd);
			sh->redirect_fd = (int)fd;
		}
	}
	if (!strcmp(c->w[0], "sys")) {
		const char *p = strstr(raw, "sys");

		status = cmd_sys(sh, c->n, c->w, p ? p + 3 : "");
	} else {
		size_t i;

		for (i = 0; i < ncommands; i++)
			if (!strcmp(commands[i].name, c->w[0]))
				break;
		if (i == ncommands)
			status = fail(sh, "uvfsh: %s: command not found (help lists the commands)",
				      c->w[0]) ? 127 : 0;
		else
			status = commands[i].fn(sh, c->n, c->w);
	}
	if (sh->redirect_fd >= 0) {
		B(sh)->close(C(sh), sh->redirect_fd);
		sh->redirect_fd = -1;
	}
	return status;
}

int shell_line(struct shell *sh, const char *line)
{
	const char *p = line;

	while (p && *p && !sh->exit_requested) {
		struct cmdline c;
		const char *start = p, *next = parse(p, &c, sh);
		char *raw;

		raw = strndup(start, next ? (size_t)(next - start - 1) : strlen(start));
		sh->status = run_command(sh, &c, raw);
		free(raw);
		cmd_free(&c);
		if (sh->status && sh->errexit) {
			sh->exit_requested = true;
			sh->exit_status = sh->status;
		}
		p = next;
	}
	return sh->status;
}

int shell_script(struct shell *sh, const char *text)
{
	const char *p = text;

	while (*p && !sh->exit_requested) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);

		shell_line(sh, line);
		free(line);
		p += len + (nl ? 1 : 0);
	}
	return sh->exit_requested ? sh->exit_status : sh->status;
}

void shell_prompt(struct shell *sh, char *buf, size_t n)
{
	char cwd[4097];

	if (B(sh)->getcwd(C(sh), cwd, sizeof(cwd)) < 0)
		snprintf(cwd, sizeof(cwd), "(deleted)");
	snprintf(buf, n, "uvfsh:%s# ", cwd);
}

void shell_init(struct shell *sh, struct sys_backend *b, struct uvfs *fs, FILE *out, FILE *err)
{
	memset(sh, 0, sizeof(*sh));
	sh->b = b;
	sh->fs = fs;
	sh->out = out;
	sh->err = err;
	sh->redirect_fd = -1;
	sysscript_init(&sh->sys, b, out);
	if (fs) {
		sh->tasks[0] = sys_backend_uvfs_task(b);
		sh->ntasks = 1;
	}
}

/*
 * A fresh shell starts in a tree shaped like a minimal Linux system's (the top
 * directories of the FHS that a rootfs has before anything is installed), so that
 * the article's session typed as printed ("cd /tmp" first) works; --host builds the
 * same in its private tmpfs.  /proc is the library's (uvfs_new) or the sandbox's.
 */
static const struct { const char *path; mode_t mode; } boot_dirs[] = {
	{ "/dev", 0755 }, { "/etc", 0755 }, { "/home", 0755 }, { "/root", 0700 },
	{ "/tmp", 01777 }, { "/usr", 0755 }, { "/var", 0755 }, { "/var/tmp", 01777 },
};

int shell_boot(struct shell *sh)
{
	for (size_t i = 0; i < sizeof(boot_dirs) / sizeof(boot_dirs[0]); i++) {
		long r = B(sh)->mkdirat(C(sh), AT_FDCWD, boot_dirs[i].path, boot_dirs[i].mode);

		/* the umask takes bits off: chmod as a system's installer would */
		if (r == 0)
			r = B(sh)->fchmodat(C(sh), AT_FDCWD, boot_dirs[i].path, boot_dirs[i].mode, 0);
		if (r < 0)
			return fail(sh, "uvfsh: cannot create %s: %s", boot_dirs[i].path, err_str(r)) ? (int)r : 0;
	}
	return 0;
}

void shell_done(struct shell *sh)
{
	sysscript_done(&sh->sys);
}
