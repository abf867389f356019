// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sysscript.c - the script interpreter: parsing, calling a backend, printing results.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysscript.h"
#include "uvfs/uvfs.h"

#define MAX_ARGS 8

struct sym {
	const char *name;
	long value;
};

static const struct sym syms[] = {
#define S(x) { #x, (long)(x) }
	S(AT_FDCWD), S(AT_SYMLINK_NOFOLLOW), S(AT_SYMLINK_FOLLOW), S(AT_REMOVEDIR),
	S(AT_EMPTY_PATH), S(AT_NO_AUTOMOUNT), S(AT_EACCESS), S(R_OK), S(W_OK), S(X_OK), S(F_OK),
	S(O_RDONLY), S(O_WRONLY), S(O_RDWR), S(O_CREAT), S(O_EXCL), S(O_TRUNC), S(O_APPEND),
	S(O_DIRECTORY), S(O_NOFOLLOW), S(O_PATH), S(O_TMPFILE), S(O_CLOEXEC), S(O_NONBLOCK),
	S(O_NOCTTY), S(O_NOATIME), { "O_LARGEFILE", 0100000 }, S(O_SYNC), S(O_DSYNC), S(O_ACCMODE),
	S(O_DIRECT), S(O_ASYNC),
	S(RENAME_NOREPLACE), S(RENAME_EXCHANGE), S(RENAME_WHITEOUT),
	S(S_IFREG), S(S_IFDIR), S(S_IFLNK), S(S_IFIFO), S(S_IFSOCK), S(S_IFCHR), S(S_IFBLK),
	S(S_ISUID), S(S_ISGID), S(S_ISVTX),
	S(F_DUPFD), S(F_DUPFD_CLOEXEC), S(F_GETFD), S(F_SETFD), S(F_GETFL), S(F_SETFL),
	{ "F_CREATED_QUERY", 1028 },  /* Linux 6.12; Debian 12's headers have no name */
	S(FD_CLOEXEC), S(SEEK_SET), S(SEEK_CUR), S(SEEK_END), S(SEEK_DATA), S(SEEK_HOLE),
	S(UTIME_NOW), S(UTIME_OMIT),
	S(MS_RDONLY), S(MS_NOSUID), S(MS_NODEV), S(MS_NOEXEC), S(MS_SYNCHRONOUS), S(MS_REMOUNT),
	S(MS_MANDLOCK), S(MS_DIRSYNC), S(MS_NOSYMFOLLOW), S(MS_NOATIME), S(MS_NODIRATIME),
	S(MS_BIND), S(MS_MOVE), S(MS_REC), S(MS_SILENT), S(MS_POSIXACL), S(MS_UNBINDABLE),
	S(MS_PRIVATE), S(MS_SLAVE), S(MS_SHARED), S(MS_RELATIME), S(MS_STRICTATIME),
	S(MS_LAZYTIME), S(MS_NOUSER),
	S(MNT_FORCE), S(MNT_DETACH), S(MNT_EXPIRE), S(UMOUNT_NOFOLLOW),
	S(CLONE_NEWNS), S(CLONE_FS), S(CLONE_FILES), S(CLONE_NEWUTS), S(CLONE_NEWPID),
	S(STATX_TYPE), S(STATX_MODE), S(STATX_MTIME), S(STATX_CTIME), S(STATX_ATIME),
	S(STATX_BTIME), S(STATX_BASIC_STATS), S(STATX_MNT_ID), S(STATX_DIOALIGN),
	S(STATX__RESERVED), { "STATX_MNT_ID_UNIQUE", 0x4000 }, S(AT_STATX_SYNC_AS_STAT),
	S(AT_STATX_FORCE_SYNC), S(AT_STATX_DONT_SYNC), S(AT_STATX_SYNC_TYPE),
	S(IN_ACCESS), S(IN_MODIFY), S(IN_ATTRIB), S(IN_CLOSE_WRITE), S(IN_CLOSE_NOWRITE),
	S(IN_CLOSE), S(IN_OPEN), S(IN_MOVED_FROM), S(IN_MOVED_TO), S(IN_MOVE), S(IN_CREATE),
	S(IN_DELETE), S(IN_DELETE_SELF), S(IN_MOVE_SELF), S(IN_ALL_EVENTS), S(IN_UNMOUNT),
	S(IN_Q_OVERFLOW), S(IN_IGNORED), S(IN_ONLYDIR), S(IN_DONT_FOLLOW), S(IN_EXCL_UNLINK),
	S(IN_MASK_CREATE), S(IN_MASK_ADD), S(IN_ISDIR), S(IN_ONESHOT), S(IN_NONBLOCK),
	S(IN_CLOEXEC), S(F_NOTIFY), S(F_SETSIG), S(F_GETSIG), S(DN_ACCESS), S(DN_MODIFY),
	S(DN_CREATE), S(DN_DELETE), S(DN_RENAME), S(DN_ATTRIB), { "DN_MULTISHOT", 0x80000000L },
	{ "XATTR_CREATE", 1 }, { "XATTR_REPLACE", 2 },
#undef S
	{ "NULL", 0 },
};

/* Flags printed by name for F_GETFL results. */
static const struct sym oflags[] = {
	{ "O_WRONLY", O_WRONLY }, { "O_RDWR", O_RDWR }, { "O_APPEND", O_APPEND },
	{ "O_NONBLOCK", O_NONBLOCK }, { "O_SYNC", O_SYNC }, { "O_DSYNC", O_DSYNC }, { "O_ASYNC", O_ASYNC },
	{ "O_DIRECT", O_DIRECT }, { "O_LARGEFILE", 0100000 },
	{ "O_DIRECTORY", O_DIRECTORY }, { "O_NOFOLLOW", O_NOFOLLOW },
	{ "O_NOATIME", O_NOATIME }, { "O_CLOEXEC", O_CLOEXEC },
	{ "O_PATH", O_PATH }, { "__O_TMPFILE", 020000000 },
};

char *sysscript_read_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	if (f != stdin)
		fclose(f);
	return buf;
}

char *sysscript_expand(const char *text)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (const char *p = text; *p; p++) {
		char c = *p;
		size_t reps = 1;

		if (c == '{' && p[1] && p[2] == '*') {
			char *end;
			unsigned long n = strtoul(p + 3, &end, 10);

			if (*end == '}') {
				c = p[1];
				reps = n;
				p = end;
			}
		} else if (c == '\\' && p[1]) {
			p++;
			switch (*p) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case '0': c = '\0'; break;
			case 'x':
				/* \xHH: any byte (an ELF magic's \x7f) */
				if (isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
					char hex[3] = { p[1], p[2], 0 };

					c = (char)strtoul(hex, NULL, 16);
					p += 2;
					break;
				}
				c = *p;
				break;
			default: c = *p; break;
			}
		}
		if (len + reps + 1 > cap) {
			char *n2;

			cap = (len + reps + 1) * 2;
			n2 = realloc(out, cap);
			if (!n2) {
				free(out);
				return NULL;
			}
			out = n2;
		}
		memset(out + len, c, reps);
		len += reps;
	}
	out[len] = 0;
	return out;
}

/* Split a line into at most MAX_ARGS + 1 words (the name first), unquoting. */
static int split(const char *line, char **words, int max)
{
	int n = 0;
	const char *p = line;

	while (*p) {
		char buf[8192];
		size_t len = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			break;
		if (n == max)
			goto bad;
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] && len + 2 < sizeof(buf)) {
					buf[len++] = *p++;
				}
				if (len + 1 < sizeof(buf))
					buf[len++] = *p;
			}
			if (*p != '"')
				goto bad;
			p++;
		} else {
			while (*p && !isspace((unsigned char)*p) && len + 1 < sizeof(buf))
				buf[len++] = *p++;
		}
		buf[len] = 0;
		words[n] = sysscript_expand(buf);
		if (!words[n])
			goto bad;
		n++;
	}
	return n;
bad:
	/* a syntax error: the words made so far go too */
	while (n > 0)
		free(words[--n]);
	return -1;
}

static bool parse_num(const char *w, long *v)
{
	long total = 0;
	char *copy = strdup(w), *save = NULL;
	bool ok = true;

	for (char *t = strtok_r(copy, "|", &save); t; t = strtok_r(NULL, "|", &save)) {
		char *end;
		long x = strtol(t, &end, 0);
		size_t i;

		if (*t && !*end) {
			total |= x;
			continue;
		}
		for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
			if (!strcmp(syms[i].name, t))
				break;
		if (i == sizeof(syms) / sizeof(syms[0])) {
			ok = false;
			break;
		}
		total |= syms[i].value;
	}
	free(copy);
	*v = total;
	return ok;
}

static void print_errno(FILE *out, long r)
{
	int e = (int)-r;
	const char *name = strerrorname_np(e);

	fprintf(out, "= -1 %s (%s)", name ? name : "E?", strerrordesc_np(e));
}

int sysscript_id_text(char *buf, size_t n, const uid_t u[4], const gid_t g[4], int ngroups,
		      const gid_t *groups, unsigned long long cap_effective)
{
	int len = snprintf(buf, n, "uid=%u,%u,%u fsuid=%u gid=%u,%u,%u fsgid=%u groups=", u[0],
			   u[1], u[2], u[3], g[0], g[1], g[2], g[3]);

	for (int i = 0; i < ngroups && len < (int)n; i++)
		len += snprintf(buf + len, n - (size_t)len, "%s%u", i ? "," : "", groups[i]);
	if (len < (int)n)
		len += snprintf(buf + len, n - (size_t)len, " capeff=%llx", cap_effective);
	return len < (int)n ? len : (int)n - 1;
}

/*
 * Devices.  Both stat's inode identities (#N) and mountinfo's dev1, dev2, ... name a
 * device by the order the script first saw its number in.  A number alone does not
 * say which superblock it is: Linux gives a dead tmpfs's anonymous number to whoever
 * asks next (get_anon_bdev(), the lowest free), on a busy host another process's
 * tmpfs, so whether the script's next tmpfs gets the old number or a fresh one
 * depends on the rest of the host, where uvfs always reuses it.  What both sides
 * agree on is when a superblock is born: at a mount that makes one, the number the
 * new superblock has can belong to no live superblock, so the script's earlier
 * device of that number is retired (sb_born()) and the number names a new device
 * from then on.  Nothing depends on whether either side reused a number.
 * (mount-namespaces.sys differed 5 times in ~140 runs beside another meson test.)
 */
#define DEV_RETIRED ((dev_t)-1)  /* a slot of a device that is gone: matches no number */

static int dev_slot(struct sysscript *s, dev_t dev)
{
	int d;

	for (d = 0; d < 64 && s->devs[d] && s->devs[d] != dev; d++)
		;
	if (d == 64)
		return -1;
	s->devs[d] = dev;
	return d;
}

/* A mount made a superblock and put it on target: which number it got */
static void sb_born(struct sysscript *s, const char *target)
{
	struct stat st;

	if (s->b->fstatat(s->b->ctx, AT_FDCWD, target, &st, 0) < 0)
		return;
	for (int d = 0; d < 64 && s->devs[d]; d++)
		if (s->devs[d] == st.st_dev)
			s->devs[d] = DEV_RETIRED;
}

int sysscript_ino_id(struct sysscript *s, dev_t dev, ino_t ino)
{
	int d = dev_slot(s, dev);

	if (d < 0)
		d = 64;
	for (int i = 0; i < s->nino; i++)
		if (s->inos[i] == ino && s->ndev[i] == d)
			return i + 1;
	if (s->nino < 4096) {
		s->inos[s->nino] = ino;
		s->ndev[s->nino] = d;
		return ++s->nino;
	}
	return 0;
}

static const char *type_name(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return "reg";
	case S_IFDIR: return "dir";
	case S_IFLNK: return "lnk";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "sock";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	}
	return "?";
}

static void print_stat(struct sysscript *s, const struct stat *st)
{
	fprintf(s->out, " {%s %04o nlink=%lu size=%lld blocks=%lld uid=%u gid=%u ino=#%d",
		type_name(st->st_mode), (unsigned)(st->st_mode & 07777),
		(unsigned long)st->st_nlink, (long long)st->st_size, (long long)st->st_blocks,
		st->st_uid, st->st_gid, sysscript_ino_id(s, st->st_dev, st->st_ino));
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		fprintf(s->out, " rdev=%u:%u", major(st->st_rdev), minor(st->st_rdev));
	fputc('}', s->out);
}

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x4000u
#endif

/*
 * statx's answer: the result mask, attributes and their mask, the mount (as
 * mountinfo's m1, m2 ... numbering, or u1, u2 ... for a unique id, which must be
 * 2^31 or more), the stat fields (the device's numbering), whether each time is set,
 * and the alignment fields (0 or not).  STATX_BTIME is left out of the mask and
 * btime is not shown: memfs keeps no birth time (a deliberate difference, tested in
 * tests/test_core.c).
 */
static int mount_id(struct sysscript *s, long id);

static void print_statx(struct sysscript *s, const struct statx *sx)
{
	bool uniq = sx->stx_mask & STATX_MNT_ID_UNIQUE;
	/* a unique id's key in mount_id()'s table: negative, apart from the reused ids;
	 * one below 2^31 is shown as 0 */
	long key = !uniq ? (long)sx->stx_mnt_id :
		   sx->stx_mnt_id >= (1ull << 31) ? -1 - (long)(sx->stx_mnt_id - (1ull << 31)) : 0;

	fprintf(s->out, " {mask=%#x attributes=%#llx attributes_mask=%#llx mnt=%s%d %s %04o "
		"nlink=%u size=%llu blocks=%llu uid=%u gid=%u ino=#%d",
		sx->stx_mask & ~STATX_BTIME, (unsigned long long)sx->stx_attributes,
		(unsigned long long)sx->stx_attributes_mask, uniq ? "u" : "m",
		key ? mount_id(s, key) : 0, type_name(sx->stx_mode),
		(unsigned)(sx->stx_mode & 07777), sx->stx_nlink,
		(unsigned long long)sx->stx_size, (unsigned long long)sx->stx_blocks, sx->stx_uid,
		sx->stx_gid, sysscript_ino_id(s, makedev(sx->stx_dev_major, sx->stx_dev_minor),
					      sx->stx_ino));
	fprintf(s->out, " atime=%s mtime=%s ctime=%s dio=%u/%u}",
		sx->stx_atime.tv_sec || sx->stx_atime.tv_nsec ? "set" : "0",
		sx->stx_mtime.tv_sec || sx->stx_mtime.tv_nsec ? "set" : "0",
		sx->stx_ctime.tv_sec || sx->stx_ctime.tv_nsec ? "set" : "0",
		sx->stx_dio_mem_align, sx->stx_dio_offset_align);
}

/* Bytes printed as they are; beyond, their count and an FNV-1a hash, so that two
 * backends still compare every byte but a read of a gigabyte of a sparse file does
 * not print a gigabyte (fuzz_sysscript timed out on one, 107 MB of output). */
#define PRINT_BYTES_MAX 65536

/* The bytes, quoted and escaped, formatted a chunk at a time. */
static void print_bytes(FILE *out, const char *buf, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t shown = n < PRINT_BYTES_MAX ? n : PRINT_BYTES_MAX;
	char chunk[4096];
	size_t o = 0;

	fputs(" \"", out);
	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (o > sizeof(chunk) - 4) {
			fwrite(chunk, 1, o, out);
			o = 0;
		}
		if (c == '"' || c == '\\') {
			chunk[o++] = '\\';
			chunk[o++] = (char)c;
		} else if (isprint(c)) {
			chunk[o++] = (char)c;
		} else {
			chunk[o++] = '\\';
			chunk[o++] = 'x';
			chunk[o++] = hex[c >> 4];
			chunk[o++] = hex[c & 15];
		}
	}
	fwrite(chunk, 1, o, out);
	fputc('"', out);
	if (n > shown) {
		uint64_t h = 0xcbf29ce484222325ull;

		for (size_t i = shown; i < n; i++)
			h = (h ^ (unsigned char)buf[i]) * 0x100000001b3ull;
		fprintf(out, " ...+%zu bytes, fnv1a %016llx", n - shown, (unsigned long long)h);
	}
}

/* The result of F_GETFL, symbolically. */
static void print_oflags(FILE *out, long v)
{
	bool first = true;

	fputs(" (", out);
	if (!(v & O_ACCMODE)) {
		fputs("O_RDONLY", out);
		first = false;
	}
	for (size_t i = 0; i < sizeof(oflags) / sizeof(oflags[0]); i++) {
		long f = oflags[i].value;

		if ((v & f) == f && f) {
			fprintf(out, "%s%s", first ? "" : "|", oflags[i].name);
			first = false;
			v &= ~f;
		}
	}
	if (v & ~(long)O_ACCMODE)
		fprintf(out, "|0x%lx", v & ~(long)O_ACCMODE);
	fputc(')', out);
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* inotify events: {wd MASK cookie "name"} each, the mask by name */
static void print_inotify(struct sysscript *s, const char *buf, long n)
{
	static const struct { unsigned int bit; const char *name; } bits[] = {
		{ IN_ACCESS, "IN_ACCESS" }, { IN_MODIFY, "IN_MODIFY" }, { IN_ATTRIB, "IN_ATTRIB" },
		{ IN_CLOSE_WRITE, "IN_CLOSE_WRITE" }, { IN_CLOSE_NOWRITE, "IN_CLOSE_NOWRITE" },
		{ IN_OPEN, "IN_OPEN" }, { IN_MOVED_FROM, "IN_MOVED_FROM" },
		{ IN_MOVED_TO, "IN_MOVED_TO" }, { IN_CREATE, "IN_CREATE" }, { IN_DELETE, "IN_DELETE" },
		{ IN_DELETE_SELF, "IN_DELETE_SELF" }, { IN_MOVE_SELF, "IN_MOVE_SELF" },
		{ IN_UNMOUNT, "IN_UNMOUNT" }, { IN_Q_OVERFLOW, "IN_Q_OVERFLOW" },
		{ IN_IGNORED, "IN_IGNORED" }, { IN_ISDIR, "IN_ISDIR" },
	};
	long off = 0;

	while (off + (long)sizeof(struct inotify_event) <= n) {
		struct inotify_event e;
		unsigned int rest;
		int ci = 0;

		memcpy(&e, buf + off, sizeof(e));
		fprintf(s->out, " {%d ", e.wd);
		rest = e.mask;
		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			if (rest & bits[i].bit) {
				rest &= ~bits[i].bit;
				fprintf(s->out, "%s%s", bits[i].name, rest ? "|" : "");
			}
		if (rest)
			fprintf(s->out, "%#x", rest);
		if (e.cookie) {
			while (ci < s->ncookies && s->cookies[ci] != e.cookie)
				ci++;
			if (ci == s->ncookies && ci < 64)
				s->cookies[s->ncookies++] = e.cookie;
			fprintf(s->out, " c%d", ci + 1);
		} else {
			fprintf(s->out, " 0");
		}
		if (e.len) {
			fprintf(s->out, " \"%.*s\" len=%u", (int)strnlen(buf + off + sizeof(e), e.len),
				buf + off + sizeof(e), e.len);
		}
		fputc('}', s->out);
		off += (long)sizeof(e) + e.len;
	}
	if (off != n)
		fprintf(s->out, " (%ld bytes left over)", n - off);
}

static void print_dents(struct sysscript *s, const char *buf, long n)
{
	const char *names[4096];
	int k = 0;

	for (long off = 0; off < n && k < 4096;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);

		names[k++] = d->d_name;
		off += d->d_reclen;
	}
	if (s->sort_dents)
		qsort(names, (size_t)k, sizeof(names[0]), cmp_cstr);
	fputs(" [", s->out);
	for (int i = 0; i < k; i++)
		fprintf(s->out, "%s%s", i ? " " : "", names[i]);
	fputc(']', s->out);
}

static void print_times(struct sysscript *s, const char *path, const struct stat *st)
{
	const struct timespec now[3] = { st->st_atim, st->st_mtim, st->st_ctim };
	static const char *const names[3] = { "atime", "mtime", "ctime" };
	struct times_seen *t = NULL;

	for (int i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i].path, path))
			t = &s->seen[i];
	if (!t && s->nseen < 64) {
		t = &s->seen[s->nseen++];
		t->path = strdup(path);
		fputs(" first", s->out);
		memcpy(t->t, now, sizeof(now));
		return;
	}
	for (int i = 0; t && i < 3; i++) {
		bool same = t->t[i].tv_sec == now[i].tv_sec && t->t[i].tv_nsec == now[i].tv_nsec;

		fprintf(s->out, " %s=%s", names[i], same ? "same" : "changed");
		t->t[i] = now[i];
	}
}

void sysscript_init(struct sysscript *s, struct sys_backend *b, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->b = b;
	s->out = out;
	s->opened = -1;
}

/*
 * writeprog's program, x86-64 (hand-assembled; one PT_LOAD segment at 0x400000, the
 * code at 0x400078):
 *     mov $39,%eax; syscall            getpid()
 *     mov %eax,%edi; mov $19,%esi      SIGSTOP
 *     mov $62,%eax; syscall            kill(getpid(), SIGSTOP): "I run" to the parent
 *  1: mov $34,%eax; syscall; jmp 1b    pause() until killed
 */
const unsigned char sysscript_prog[150] = {
	/* ELF header: 64-bit, little-endian, ET_EXEC, EM_X86_64, entry 0x400078,
	 * program headers at 64, 56 bytes each, one */
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	2, 0, 0x3e, 0, 1, 0, 0, 0,
	0x78, 0, 0x40, 0, 0, 0, 0, 0,
	64, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 64, 0, 56, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	/* PT_LOAD, R+X, the whole file at 0x400000, 150 bytes, aligned 4096 */
	1, 0, 0, 0, 5, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0x40, 0, 0, 0, 0, 0,
	0, 0, 0x40, 0, 0, 0, 0, 0,
	150, 0, 0, 0, 0, 0, 0, 0,
	150, 0, 0, 0, 0, 0, 0, 0,
	0, 0x10, 0, 0, 0, 0, 0, 0,
	/* code */
	0xb8, 39, 0, 0, 0, 0x0f, 0x05,
	0x89, 0xc7, 0xbe, 19, 0, 0, 0,
	0xb8, 62, 0, 0, 0, 0x0f, 0x05,
	0xb8, 34, 0, 0, 0, 0x0f, 0x05, 0xeb, 0xf7,
};

/* The newest living child, or -1. */
static int newest_child(const struct sysscript *s)
{
	return s->nchildren ? s->nchildren - 1 : -1;
}

/*
 * The buffer of a call whose size the script gives (read, pread, getdents64, getcwd,
 * readlinkat): a large one is mapped, not malloc'ed, so that a size near 2^32 (to see
 * the kernel's answer to it) costs nothing until written — malloc would fill it
 * under MALLOC_PERTURB_, which meson sets.
 */
#define BIG_BUFFER ((size_t)1 << 20)
static char *arg_buffer(long size, size_t *mapped)
{
	size_t n = (size_t)size + 1;
	void *p;

	*mapped = 0;
	/* a negative or enormous size goes to the call as it is (size_t), but no call
	 * writes more than 2^32 bytes (getdents64's count is an unsigned int, read stops
	 * at MAX_RW_COUNT, getcwd and readlink at PATH_MAX) */
	if (size < 0 || n > ((size_t)1 << 32) + 1)
		n = ((size_t)1 << 32) + 1;
	if (n <= BIG_BUFFER)
		return malloc(n);
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	*mapped = n;
	return p;
}

void sysscript_proc_path(const char *which, int fd, char *buf, size_t n)
{
	if (!strcmp(which, "fd"))
		snprintf(buf, n, "self/fd/%d", fd);
	else
		snprintf(buf, n, "self/%s", which);
}

bool sysscript_wants_proc(const char *script)
{
	if (strstr(script, "fdpath") || strstr(script, "cwdpath") || strstr(script, "rootpath"))
		return true;
	/* the commands, not a comment that says "mounts" */
	for (const char *p = script; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "mountinfo", 9) || (!strncmp(p, "mounts", 6) &&
						     (!p[6] || isspace((unsigned char)p[6]))))
			return true;
	}
	return false;
}

/* The whole of /proc/self/NAME through the backend's /proc (at 1023): its length,
 * or -errno. */
static long read_proc_file(struct sysscript *s, const char *name, char **text)
{
	struct sys_backend *b = s->b;
	char path[64];
	size_t len = 0, cap = 4096;
	long fd, n;

	snprintf(path, sizeof(path), "self/%s", name);
	fd = b->openat(b->ctx, 1023, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	*text = malloc(cap + 1);
	while (*text && (n = b->read(b->ctx, (int)fd, *text + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			char *bigger = realloc(*text, cap * 2 + 1);

			if (!bigger) {
				free(*text);
				*text = NULL;
				break;
			}
			*text = bigger;
			cap *= 2;
		}
	}
	b->close(b->ctx, (int)fd);
	if (!*text)
		return -ENOMEM;
	(*text)[len] = 0;
	return (long)len;
}

/* A mount id as the listing's own number: m1 for the first seen in it, ...  Per
 * listing, not per script: Linux gives an unmounted mount's id back only when its
 * last reference goes after a grace period (free_vfsmnt()), so whether the next mount
 * reuses it is a matter of timing (mount-namespaces.sys differed 5 times in 180 runs
 * when the numbering spanned listings). */
/* id's place (from 1) among those in tab[0..*n), added if new; 0 when the table
 * of cap is full */
static int seen_index(long *tab, int *n, int cap, long id)
{
	for (int i = 0; i < *n; i++)
		if (tab[i] == id)
			return i + 1;
	if (*n == cap)
		return 0;
	tab[*n] = id;
	return ++*n;
}

static int mount_id(struct sysscript *s, long id)
{
	return seen_index(s->mnt_ids, &s->nmnt, (int)(sizeof(s->mnt_ids) / sizeof(s->mnt_ids[0])), id);
}

/* A device number as its identity among those the script saw (stat's #N
 * numbering's table) */
static int dev_id(struct sysscript *s, unsigned int maj, unsigned int min)
{
	return dev_slot(s, makedev(maj, min)) + 1;
}

/* A peer group id as its place among those of one listing (g1, g2, ...) */
static int group_id(struct sysscript *s, long id)
{
	return seen_index(s->grp_ids, &s->ngrp, (int)(sizeof(s->grp_ids) / sizeof(s->grp_ids[0])), id);
}

/* The rest of a mountinfo line, its optional fields' peer group numbers as the
 * listing's own: " shared:N", " master:N" and " propagate_from:N" before " - " */
static void print_optional_fields(struct sysscript *s, const char *p, size_t n)
{
	static const char *const tags[] = { " shared:", " master:", " propagate_from:" };
	const char *end = p + n, *sep = memmem(p, n, " - ", 3);

	while (p < end) {
		size_t k = 0, tl = 0;

		for (; sep && p < sep && k < 3; k++) {
			tl = strlen(tags[k]);
			if ((size_t)(sep - p) > tl && !memcmp(p, tags[k], tl))
				break;
		}
		if (sep && p < sep && k < 3) {
			char *num_end;
			long id = strtol(p + tl, &num_end, 10);

			fprintf(s->out, "%.*sg%d", (int)tl, p, group_id(s, id));
			p = num_end;
			continue;
		}
		fputc(*p++, s->out);
	}
}

/* /proc/self/mountinfo or mounts, one line each under the call, the numbers that
 * differ between systems made the script's own: mount ids m1, m2, ... in order of
 * appearance, devices dev1, dev2, ..., peer groups g1, g2, ... */
static void print_mounts(struct sysscript *s, const char *text, bool info)
{
	int lines = 0;

	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	fprintf(s->out, " (%d lines)", lines);
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		long id, parent;
		unsigned int maj, min;
		int used = 0;

		fputs("\n  ", s->out);
		if (line == text)
			s->nmnt = s->ngrp = 0;  /* a new listing */
		if (info && sscanf(line, "%ld %ld %u:%u %n", &id, &parent, &maj, &min, &used) == 4 &&
		    used > 0 && (size_t)used <= n) {
			int m = mount_id(s, id), p = mount_id(s, parent);

			fprintf(s->out, "m%d m%d dev%d ", m, p, dev_id(s, maj, min));
			print_optional_fields(s, line + used, n - (size_t)used);
		} else {
			fwrite(line, 1, n, s->out);
		}
		line += n + (end ? 1 : 0);
	}
}

void sysscript_done(struct sysscript *s)
{
	while (s->nchildren > 0)
		s->b->exit(s->b->ctx, s->children[--s->nchildren].pid);
	for (int i = 0; i < s->nseen; i++)
		free(s->seen[i].path);
	s->nseen = 0;
}

/* Parse "sec:nsec,sec:nsec" or NULL. */
static const struct timespec *parse_times(const char *w, struct timespec t[2])
{
	char *copy, *a, *m;
	long v;

	if (!strcmp(w, "NULL"))
		return NULL;
	copy = strdup(w);
	a = strtok(copy, ",");
	m = strtok(NULL, ",");
	for (int i = 0; i < 2; i++) {
		char *part = i ? m : a, *colon = part ? strchr(part, ':') : NULL;

		t[i].tv_sec = 0;
		t[i].tv_nsec = 0;
		if (!part)
			continue;
		if (colon) {
			*colon = 0;
			t[i].tv_sec = strtol(part, NULL, 0);
			part = colon + 1;
		}
		if (parse_num(part, &v))
			t[i].tv_nsec = v;
	}
	free(copy);
	return t;
}

/* line with every token ("{child}", "{opened}") replaced by value (malloc'ed), or NULL
 * when it has none. */
static char *subst_token(const char *line, const char *token, long value)
{
	char *out = NULL, num[24];
	size_t len = 0, tlen = strlen(token);
	FILE *f;

	if (!strstr(line, token))
		return NULL;
	snprintf(num, sizeof(num), "%ld", value);
	f = open_memstream(&out, &len);
	for (const char *p = line, *q; ; p = q + tlen) {
		q = strstr(p, token);
		if (!q) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(q - p), f);
		fputs(num, f);
	}
	fclose(f);
	return out;
}

/* "{child}" is the newest child's pid, "{opened}" OPENED's number inside a word */
static char *subst_child(const struct sysscript *s, const char *line)
{
	char *child = subst_token(line, "{child}", s->last_child);
	char *opened = subst_token(child ? child : line, "{opened}", s->opened);

	if (!opened)
		return child;
	free(child);
	return opened;
}

long sysscript_line(struct sysscript *s, const char *line)
{
	struct sys_backend *b = s->b;
	void *c = b->ctx;
	char *w[MAX_ARGS + 1] = { 0 };
	long a[MAX_ARGS] = { 0 };
	char *subst = subst_child(s, line);
	int n = split(subst ? subst : line, w, MAX_ARGS + 1);
	long r = 0;
	char *buf = NULL;
	size_t mapped = 0;
	struct stat st;
	struct statfs sfs;
	struct statx sx;
	struct timespec ts[2];
	int kind = 0; /* 1 stat, 2 bytes, 3 dents, 4 getfl */
	const char *cmd;

	if (n <= 0) {
		if (n < 0)
			fprintf(s->out, "syntax: %s\n", line);
		free(subst);
		return n < 0 ? -EINVAL : 0;
	}
	cmd = w[0];
	for (int i = 1; i < n; i++) {
		if (!strcmp(w[i], "OPENED"))
			a[i - 1] = s->opened;
		else
			parse_num(w[i], &a[i - 1]);
	}
#define NEED(k) do { if (n != (k) + 1) goto syntax; } while (0)
#define STR(i) (w[(i) + 1])
	/* a call's buffer; larger than the script's max_buffer is refused (the fuzz
	 * targets: reading gigabytes of a sparse file tests memset, not uvfs) */
#define BUF(size) do { \
	if (s->max_buffer && (unsigned long)(size) > s->max_buffer) \
		goto syntax; \
	buf = arg_buffer(size, &mapped); \
} while (0)
	if (!strcmp(cmd, "openat")) {
		if (n == 4)
			a[3] = 0;
		else
			NEED(4);
		r = b->openat(c, (int)a[0], STR(1), (int)a[2], (mode_t)a[3]);
		if (r >= 0)
			s->opened = r;
	} else if (!strcmp(cmd, "close")) {
		NEED(1);
		r = b->close(c, (int)a[0]);
	} else if (!strcmp(cmd, "read") || !strcmp(cmd, "pread")) {
		bool p = cmd[0] == 'p';

		NEED(p ? 3 : 2);
		BUF(a[1]);
		r = p ? b->pread(c, (int)a[0], buf, (size_t)a[1], a[2])
		      : b->read(c, (int)a[0], buf, (size_t)a[1]);
		kind = 2;
	} else if (!strcmp(cmd, "write") || !strcmp(cmd, "pwrite")) {
		bool p = cmd[0] == 'p';

		NEED(p ? 3 : 2);
		r = p ? b->pwrite(c, (int)a[0], STR(1), strlen(STR(1)), a[2])
		      : b->write(c, (int)a[0], STR(1), strlen(STR(1)));
	} else if (!strcmp(cmd, "lseek")) {
		NEED(3);
		r = b->lseek(c, (int)a[0], a[1], (int)a[2]);
	} else if (!strcmp(cmd, "ftruncate")) {
		NEED(2);
		r = b->ftruncate(c, (int)a[0], a[1]);
	} else if (!strcmp(cmd, "truncate")) {
		NEED(2);
		r = b->truncate(c, STR(0), a[1]);
	} else if (!strcmp(cmd, "fsync")) {
		NEED(1);
		r = b->fsync(c, (int)a[0]);
	} else if (!strcmp(cmd, "renameat2")) {
		NEED(5);
		r = b->renameat2(c, (int)a[0], STR(1), (int)a[2], STR(3), (unsigned)a[4]);
	} else if (!strcmp(cmd, "unlinkat")) {
		NEED(3);
		r = b->unlinkat(c, (int)a[0], STR(1), (int)a[2]);
	} else if (!strcmp(cmd, "mkdirat")) {
		NEED(3);
		r = b->mkdirat(c, (int)a[0], STR(1), (mode_t)a[2]);
	} else if (!strcmp(cmd, "mknodat")) {
		NEED(4);
		r = b->mknodat(c, (int)a[0], STR(1), (mode_t)a[2], (dev_t)a[3]);
	} else if (!strcmp(cmd, "symlinkat")) {
		NEED(3);
		r = b->symlinkat(c, STR(0), (int)a[1], STR(2));
	} else if (!strcmp(cmd, "setxattrat")) {
		/* setxattrat DFD PATH AT_FLAGS NAME VALUE FLAGS: VALUE "" is empty */
		NEED(6);
		r = b->setxattrat(c, (int)a[0], STR(1), (int)a[2], STR(3), STR(4), strlen(STR(4)),
				  (int)a[5]);
	} else if (!strcmp(cmd, "removexattrat")) {
		NEED(4);
		r = b->setxattrat(c, (int)a[0], STR(1), (int)a[2], STR(3), NULL, 0, 0);
	} else if (!strcmp(cmd, "getxattrat")) {
		/* getxattrat DFD PATH AT_FLAGS NAME SIZE */
		NEED(5);
		BUF(a[4]);
		r = b->getxattrat(c, (int)a[0], STR(1), (int)a[2], STR(3), a[4] ? buf : NULL,
				  (size_t)a[4]);
		kind = a[4] ? 2 : 0;
	} else if (!strcmp(cmd, "listxattrat")) {
		/* listxattrat DFD PATH AT_FLAGS SIZE: the names, NUL-separated */
		NEED(4);
		BUF(a[3]);
		r = b->listxattrat(c, (int)a[0], STR(1), (int)a[2], a[3] ? buf : NULL, (size_t)a[3]);
		kind = a[3] ? 2 : 0;
	} else if (!strcmp(cmd, "readlinkat")) {
		NEED(3);
		BUF(a[2]);
		r = b->readlinkat(c, (int)a[0], STR(1), buf, (size_t)a[2]);
		kind = 2;
	} else if (!strcmp(cmd, "linkat")) {
		NEED(5);
		r = b->linkat(c, (int)a[0], STR(1), (int)a[2], STR(3), (int)a[4]);
	} else if (!strcmp(cmd, "fstatat")) {
		NEED(3);
		r = b->fstatat(c, (int)a[0], STR(1), &st, (int)a[2]);
		kind = 1;
	} else if (!strcmp(cmd, "statx")) {
		/* statx DIRFD PATH FLAGS MASK; NULL for no path */
		NEED(4);
		memset(&sx, 0xa5, sizeof(sx));  /* what the call leaves is not zero */
		r = b->statx(c, (int)a[0], strcmp(STR(1), "NULL") ? STR(1) : NULL, (int)a[2],
			     (unsigned int)a[3], &sx);
		kind = 11;
	} else if (!strcmp(cmd, "inotify_init1")) {
		NEED(1);
		r = b->inotify_init1(c, (int)a[0]);
	} else if (!strcmp(cmd, "inotify_add_watch")) {
		NEED(3);
		r = b->inotify_add_watch(c, (int)a[0], STR(1), (unsigned int)a[2]);
	} else if (!strcmp(cmd, "inotify_rm_watch")) {
		NEED(2);
		r = b->inotify_rm_watch(c, (int)a[0], (int)a[1]);
	} else if (!strcmp(cmd, "inotify_read")) {
		size_t size = n > 2 ? (size_t)a[1] : 4096;

		if (n != 2 && n != 3)
			goto syntax;
		BUF(size);
		r = b->read(c, (int)a[0], buf, size);
		kind = 12;
	} else if (!strcmp(cmd, "dnotify_signals")) {
		NEED(0);
		BUF(4096);
		r = b->dnotify_signals(c, buf, 4096);
		kind = 2;
	} else if (!strcmp(cmd, "fionread")) {
		int queued = -1;

		NEED(1);
		r = b->fionread(c, (int)a[0], &queued);
		if (r >= 0)
			r = queued;
	} else if (!strcmp(cmd, "fstat")) {
		NEED(1);
		r = b->fstat(c, (int)a[0], &st);
		kind = 1;
	} else if (!strcmp(cmd, "getdents64")) {
		NEED(2);
		BUF(a[1]);
		r = b->getdents64(c, (int)a[0], buf, (size_t)a[1]);
		kind = 3;
	} else if (!strcmp(cmd, "getcwd")) {
		NEED(1);
		BUF(a[0]);
		r = b->getcwd(c, buf, (size_t)a[0]);
		kind = 5;
	} else if (!strcmp(cmd, "chdir")) {
		NEED(1);
		r = b->chdir(c, STR(0));
	} else if (!strcmp(cmd, "fchdir")) {
		NEED(1);
		r = b->fchdir(c, (int)a[0]);
	} else if (!strcmp(cmd, "fchmodat")) {
		NEED(4);
		r = b->fchmodat(c, (int)a[0], STR(1), (mode_t)a[2], (int)a[3]);
	} else if (!strcmp(cmd, "faccessat2")) {
		NEED(4);
		r = b->faccessat2(c, (int)a[0], STR(1), (int)a[2], (int)a[3]);
	} else if (!strcmp(cmd, "fchownat")) {
		NEED(5);
		r = b->fchownat(c, (int)a[0], STR(1), (uid_t)a[2], (gid_t)a[3], (int)a[4]);
	} else if (!strcmp(cmd, "utimensat")) {
		NEED(4);
		r = b->utimensat(c, (int)a[0], strcmp(STR(1), "NULL") ? STR(1) : NULL,
				 parse_times(STR(2), ts), (int)a[3]);
	} else if (!strcmp(cmd, "dup")) {
		NEED(1);
		r = b->dup(c, (int)a[0]);
	} else if (!strcmp(cmd, "dup3")) {
		NEED(3);
		r = b->dup3(c, (int)a[0], (int)a[1], (int)a[2]);
	} else if (!strcmp(cmd, "fcntl")) {
		if (n == 3)
			a[2] = 0;
		else
			NEED(3);
		r = b->fcntl(c, (int)a[0], (int)a[1], a[2]);
		if (a[1] == F_GETFL)
			kind = 4;
	} else if (!strcmp(cmd, "chroot")) {
		NEED(1);
		r = b->chroot(c, STR(0));
	} else if (!strcmp(cmd, "fdpath") || !strcmp(cmd, "cwdpath") || !strcmp(cmd, "rootpath")) {
		bool fd = cmd[0] == 'f';

		NEED(fd ? 1 : 0);
		buf = malloc(4096);
		r = b->readlink_proc(c, fd ? "fd" : cmd[0] == 'c' ? "cwd" : "root", (int)a[0],
				     buf, 4096);
		kind = 2;
	} else if (!strcmp(cmd, "times")) {
		NEED(1);
		r = b->fstatat(c, AT_FDCWD, STR(0), &st, AT_SYMLINK_NOFOLLOW);
		kind = 6;
	} else if (!strcmp(cmd, "mount")) {
		if (n != 3)
			NEED(3);
		r = b->mount(c, STR(0), STR(1), n == 4 ? STR(2) : "");
		if (r >= 0)
			sb_born(s, STR(1));
	} else if (!strcmp(cmd, "mount2")) {
		/* mount2 SOURCE TARGET TYPE FLAGS DATA: NULL for no string */
		NEED(5);
		r = b->mount2(c, strcmp(STR(0), "NULL") ? STR(0) : NULL, STR(1),
			      strcmp(STR(2), "NULL") ? STR(2) : NULL, (unsigned long)a[3],
			      strcmp(STR(4), "NULL") ? STR(4) : NULL);
		/* a new superblock, not a remount, bind, move or change of propagation */
		if (r >= 0 && strcmp(STR(2), "NULL") &&
		    !(a[3] & (MS_REMOUNT | MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE |
			      MS_SLAVE | MS_UNBINDABLE)))
			sb_born(s, STR(1));
	} else if (!strcmp(cmd, "hostmount")) {
		NEED(3);
		r = b->hostmount(c, STR(0), (unsigned long)a[1], strcmp(STR(2), "NULL") ? STR(2) : NULL);
		if (r >= 0)
			sb_born(s, STR(0));
	} else if (!strcmp(cmd, "mountinfo") || !strcmp(cmd, "mounts")) {
		char name[64];

		if (n > 2)
			goto syntax;
		/* self, or a pid: /proc/PID/... (read_proc_file's "self/" prefix undone) */
		snprintf(name, sizeof(name), "%s%s%s", n == 2 ? "../" : "", n == 2 ? STR(0) : "",
			 n == 2 ? "/" : "");
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s", cmd);
		r = read_proc_file(s, name, &buf);
		if (r > 0)
			r = 0;  /* its length differs with the ids' digits: the lines count */
		kind = cmd[5] == 'i' ? 9 : 10;
	} else if (!strcmp(cmd, "unshare")) {
		NEED(1);
		r = b->unshare(c, (int)a[0]);
	} else if (!strcmp(cmd, "pivot_root")) {
		NEED(2);
		r = b->pivot_root(c, STR(0), STR(1));
	} else if (!strcmp(cmd, "statfs") || !strcmp(cmd, "fstatfs")) {
		NEED(1);
		r = cmd[0] == 's' ? b->statfs(c, STR(0), &sfs) : b->fstatfs(c, (int)a[0], &sfs);
		kind = 8;
	} else if (!strcmp(cmd, "umount2")) {
		NEED(2);
		r = b->umount2(c, STR(0), (int)a[1]);
	} else if (!strcmp(cmd, "writeprog")) {
		NEED(1);
		r = b->write(c, (int)a[0], sysscript_prog, sizeof(sysscript_prog));
	} else if (!strcmp(cmd, "su") || !strcmp(cmd, "asuser")) {
		gid_t groups[16];
		bool keep = cmd[0] == 'a';

		/* su UID GID [GROUP...]: n counts the command too */
		if (n < 3 || n - 3 > 16)
			goto syntax;
		for (int i = 2; i < n - 1; i++)
			groups[i - 2] = (gid_t)a[i];
		r = b->su(c, (uid_t)a[0], (gid_t)a[1], n - 3, groups, keep);
		if (!r && !keep)
			s->su_count++;
	} else if (!strcmp(cmd, "asroot")) {
		NEED(0);
		r = b->su(c, 0, 0, 0, NULL, true);
	} else if (!strcmp(cmd, "umask")) {
		NEED(1);
		r = (long)b->umask(c, (mode_t)a[0]);
		kind = 7;
	} else if (!strcmp(cmd, "id")) {
		NEED(0);
		buf = malloc(4096);
		r = b->id(c, buf, 4096);
		kind = 2;
	} else if (!strcmp(cmd, "fork")) {
		NEED(0);
		if (s->nchildren == (int)(sizeof(s->children) / sizeof(s->children[0])))
			goto syntax;
		r = b->fork(c);
		if (r > 0) {
			s->last_child = (int)r;
			s->children[s->nchildren].pid = (int)r;
			s->children[s->nchildren].su_count = s->su_count;
			s->children[s->nchildren++].execd = false;
		}
	} else if (!strcmp(cmd, "exec")) {
		int k = newest_child(s);

		NEED(1);
		/* writeprog's program serves no second request */
		if (k < 0 || s->children[k].execd)
			goto syntax;
		r = b->exec(c, s->children[k].pid, STR(0));
		if (!r)
			s->children[k].execd = true;
	} else if (!strcmp(cmd, "exit")) {
		NEED(0);
		/* a child forked before an "su" stays the old user's: the host could not
		 * signal it */
		if (!s->nchildren || s->children[s->nchildren - 1].su_count != s->su_count)
			goto syntax;
		r = b->exit(c, s->children[--s->nchildren].pid);
	} else {
		goto syntax;
	}
	/* Echo the line without its comment, then the result. */
	{
		const char *end = line;
		bool quoted = false;

		/* the comment is a '#' outside quotes (split()'s rule) */
		for (; *end && (quoted || *end != '#'); end++) {
			if (*end == '"')
				quoted = !quoted;
			else if (quoted && *end == '\\' && end[1])
				end++;
		}
		while (end > line && isspace((unsigned char)end[-1]))
			end--;
		while (isspace((unsigned char)*line))
			line++;
		fprintf(s->out, "%.*s ", (int)(end - line), line);
	}
	if (r < 0) {
		print_errno(s->out, r);
		s->failures++;
	} else {
		fprintf(s->out, "= %ld", r);
		if (kind == 1)
			print_stat(s, &st);
		else if (kind == 2)
			print_bytes(s->out, buf, (size_t)r);
		else if (kind == 3)
			print_dents(s, buf, r);
		else if (kind == 4)
			print_oflags(s->out, r);
		else if (kind == 5)
			print_bytes(s->out, buf, r > 0 ? (size_t)r - 1 : 0);
		else if (kind == 6)
			print_times(s, w[1], &st);
		else if (kind == 9 || kind == 10)
			print_mounts(s, buf, kind == 9);
		else if (kind == 8 && r >= 0)
			fprintf(s->out, " {type=%#lx bsize=%ld blocks=%llu bfree=%llu bavail=%llu "
				"files=%llu ffree=%llu namelen=%ld frsize=%ld flags=%#lx}",
				(unsigned long)sfs.f_type, (long)sfs.f_bsize,
				(unsigned long long)sfs.f_blocks, (unsigned long long)sfs.f_bfree,
				(unsigned long long)sfs.f_bavail, (unsigned long long)sfs.f_files,
				(unsigned long long)sfs.f_ffree, (long)sfs.f_namelen,
				(long)sfs.f_frsize, (unsigned long)sfs.f_flags);
		else if (kind == 7)
			fprintf(s->out, " (0%03lo)", (unsigned long)r);
		else if (kind == 11)
			print_statx(s, &sx);
		else if (kind == 12)
			print_inotify(s, buf, r);
	}
	fputc('\n', s->out);
	goto out;
syntax:
	fprintf(s->out, "syntax: %s\n", line);
	r = -EINVAL;
out:
	if (mapped)
		munmap(buf, mapped);
	else
		free(buf);
	for (int i = 0; i < n; i++)
		free(w[i]);
	free(subst);
	return r;
#undef NEED
#undef BUF
#undef STR
}

void sysscript_run(struct sysscript *s, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);
		long r = sysscript_line(s, line);

		free(line);
		if (r < 0 && s->stop_on_error)
			break;
		p += len + (nl ? 1 : 0);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dump_dir(struct sysscript *s, const char *path, const char *const *skip)
{
	struct sys_backend *b = s->b;
	char buf[65536];
	char *names[4096];
	int n = 0;
	int fd = b->openat(b->ctx, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0);
	long got;

	if (fd < 0) {
		fprintf(s->out, "%s: cannot open: %s\n", path, strerrorname_np(-fd));
		return;
	}
	while ((got = b->getdents64(b->ctx, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			const struct linux_dirent64 *d = (const void *)(buf + off);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (n < 4096)
				names[n++] = strdup(d->d_name);
		}
	}
	b->close(b->ctx, fd);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	for (int i = 0; i < n; i++) {
		char child[8192];
		struct stat st;
		bool skipped = false;

		for (const char *const *k = skip; k && *k; k++)
			if (!strcmp(path, "/") && !strcmp(*k, names[i]))
				skipped = true;
		snprintf(child, sizeof(child), "%s%s%s", path,
			 path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
		if (skipped || b->fstatat(b->ctx, AT_FDCWD, child, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			free(names[i]);
			continue;
		}
		fprintf(s->out, "%s", child);
		print_stat(s, &st);
		if (S_ISLNK(st.st_mode)) {
			char body[4096];
			long r = b->readlinkat(b->ctx, AT_FDCWD, child, body, sizeof(body));

			if (r >= 0) {
				fputs(" ->", s->out);
				print_bytes(s->out, body, (size_t)r);
			}
		} else if (S_ISREG(st.st_mode) && st.st_size <= 256) {
			int f = b->openat(b->ctx, AT_FDCWD, child, O_RDONLY, 0);

			if (f >= 0) {
				char data[257];
				long r = b->read(b->ctx, f, data, sizeof(data));

				if (r >= 0)
					print_bytes(s->out, data, (size_t)r);
				b->close(b->ctx, f);
			}
		}
		fputc('\n', s->out);
		if (S_ISDIR(st.st_mode))
			dump_dir(s, child, skip);
		free(names[i]);
	}
}

void sysscript_dump_tree(struct sysscript *s, const char *path, const char *const *skip)
{
	struct stat st;

	if (s->b->fstatat(s->b->ctx, AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		fprintf(s->out, "%s", path);
		print_stat(s, &st);
		fputc('\n', s->out);
	}
	dump_dir(s, path, skip);
}
