// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain.c - --explain: which call made a program depend on an era.
 *
 * The program runs under linux twice -- the reference, and again to learn what
 * varies by itself from one run to the next (times, random names, pids) -- then
 * under every other era.  Each run records (run_log_*) every call uvfs answered, in
 * the order each process made them: the process (by its place in the tree of forks,
 * "1.2" the second child of the first process, so that pids that come out otherwise
 * do not matter), the call with its paths (or its descriptor), and what uvfs answered
 * -- the return value, and the bytes it gave where they are about names: readlink's
 * and getcwd's text, a stat's type, mode, size and links, a hash of what a read of a
 * file gave; never a time, an inode or a device number, and a read of /proc only by
 * its happening (its text is the kernel's figures).  It records too the program's
 * exit status, its standard output and error, and the tree of its memory
 * filesystems at the end (/tmp, /dev/shm, --tmpfs: names, types, modes, sizes,
 * hashes of the contents, link targets).
 *
 * An era agrees with linux when all of it is the same, except where the two linux
 * runs differ among themselves.  For one that does not, the report gives the first
 * call (in the order the run made them) whose answer differs at the same place in
 * the same process, the calls before it in that process having been the same, and
 * the first line of output, and the first entry of the tree, that differ.
 *
 * Locking: the log is one descriptor written with one write(2) per record (O_APPEND
 * on a memfd: records never interleave); a record's fields are the answering
 * thread's own (thread-local) or its process's, under the process's act lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

int run_log_fd = -1, run_tree_fd = -1;
const char *run_explain_log;  /* --explain-log DIR, or NULL */
static unsigned long log_seq;  /* atomic */

/* ---- recording ---- */

static _Thread_local struct {
	char paths[2][256];
	int npaths;
	char out[320];
	uint64_t hash;
	bool hashed, vague;
} cur;

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *s = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return h;
}

void run_log_begin(void)
{
	cur.npaths = 0;
	cur.out[0] = 0;
	cur.hashed = cur.vague = false;
	cur.hash = FNV_OFFSET;
}

/*
 * A path as recorded: /proc/PID/... names a process by its pid, which comes out
 * otherwise from one run to the next (a fork that a loop made once more); it is
 * recorded as /proc/{COMM#HASH}/..., the process's key (its command name and a hash
 * of its place in the tree of processes), which does not.
 */
void run_log_path(const char *path)
{
	char key[160], *slot;
	const char *end;
	long pid;

	if (run_log_fd < 0 || cur.npaths == 2)
		return;
	slot = cur.paths[cur.npaths++];
	if (!strncmp(path, "/proc/", 6) && path[6] >= '1' && path[6] <= '9') {
		pid = strtol(path + 6, (char **)&end, 10);
		if ((*end == '/' || !*end) && !run_key_of((pid_t)pid, key, sizeof(key))) {
			const char *name = strrchr(key, '/');
			size_t nlen = name ? strcspn(name + 1, "[#") : 0;

			snprintf(slot, sizeof(cur.paths[0]), "/proc/{%.*s#%04x}%s", (int)nlen,
				 name ? name + 1 : "?",
				 (unsigned int)(fnv(FNV_OFFSET, key, strlen(key)) & 0xffff), end);
			return;
		}
	}
	snprintf(slot, sizeof(cur.paths[0]), "%s", path);
}

void run_log_out(const char *fmt, ...)
{
	va_list ap;

	if (run_log_fd < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(cur.out, sizeof(cur.out), fmt, ap);
	va_end(ap);
}

void run_log_data(struct proc *p, int fd, const void *data, size_t len)
{
	struct statfs sfs;

	if (run_log_fd < 0)
		return;
	/* /proc's text is the kernel's figures: that it was read is what counts */
	if (!cur.hashed && !uvfs_fstatfs(p->up->task, fd, &sfs) && sfs.f_type == 0x9fa0)
		cur.vague = true;
	cur.hashed = true;
	cur.hash = fnv(cur.hash, data, len);
}

/* A field of a record: tabs and newlines escaped */
static void put_field(char **o, char *end, const char *s)
{
	for (; *s && *o + 2 < end; s++) {
		if (*s == '\t' || *s == '\n' || *s == '\\') {
			*(*o)++ = '\\';
			*(*o)++ = *s == '\t' ? 't' : *s == '\n' ? 'n' : '\\';
		} else {
			*(*o)++ = *s;
		}
	}
}

static void log_write(const char *rec, size_t len)
{
	if (write(run_log_fd, rec, len) < 0) {
		/* the report will lack it; nothing to tell the program */
	}
}

/* The calls whose first argument is a descriptor uvfs answers: shown by number */
static bool fd_call(long nr)
{
	switch (nr) {
	case SYS_read: case SYS_write: case SYS_pread64: case SYS_pwrite64: case SYS_readv:
	case SYS_writev: case SYS_lseek: case SYS_fstat: case SYS_close: case SYS_getdents64:
	case SYS_fchdir: case SYS_fchmod: case SYS_fchown: case SYS_ftruncate: case SYS_fsync:
	case SYS_fdatasync: case SYS_fallocate: case SYS_fgetxattr: case SYS_fsetxattr:
		return true;
	default:
		return false;
	}
}

void run_log_call(struct proc *p, long nr, unsigned long long a0, long ret, enum action a)
{
	char rec[1400], *o = rec, *end = rec + sizeof(rec) - 2, *name;
	unsigned long seq;

	if (run_log_fd < 0 || (a != ACT_SKIP && a != ACT_INSTALL))
		return;
	/* a position or a size in /proc's text is the kernel's figures too */
	if (fd_call(nr) && nr != SYS_close && ret >= 0) {
		struct statfs sfs;

		if (!uvfs_fstatfs(p->up->task, (int)a0, &sfs) && sfs.f_type == 0x9fa0)
			cur.vague = true;
	}
	seq = __atomic_add_fetch(&log_seq, 1, __ATOMIC_RELAXED);
	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)nr);
	/* a thread's calls are a sequence of their own ("KEY%N", the process's Nth thread):
	 * interleaved with the others' by the scheduler, no two runs would align */
	o += snprintf(o, (size_t)(end - o), "C\t%lu\t%s", seq, p->up->key);
	if (p->thread_no)
		o += snprintf(o, (size_t)(end - o), "%%%u", p->thread_no);
	o += snprintf(o, (size_t)(end - o), "\t%d\t", p->up->nspid);
	put_field(&o, end, p->up->comm);
	o += snprintf(o, (size_t)(end - o), "\t%s(", name ? name : "?");
	free(name);
	for (int i = 0; i < cur.npaths; i++) {
		if (i)
			*o++ = ',', *o++ = ' ';
		*o++ = '"';
		put_field(&o, end - 4, cur.paths[i]);
		*o++ = '"';
	}
	if (!cur.npaths && fd_call(nr))
		o += snprintf(o, (size_t)(end - o), "%d", (int)a0);
	*o++ = ')';
	*o++ = '\t';
	if (a == ACT_INSTALL)
		o += snprintf(o, (size_t)(end - o), "a descriptor");
	else if (ret < 0 && ret > -4096)
		o += snprintf(o, (size_t)(end - o), "-1 %s", strerrorname_np((int)-ret) ?: "?");
	else if (cur.vague)
		o += snprintf(o, (size_t)(end - o), "(/proc's text)");
	else
		o += snprintf(o, (size_t)(end - o), "%ld", ret);
	if (!cur.vague && cur.hashed && ret > 0)
		o += snprintf(o, (size_t)(end - o), " #%016" PRIx64, cur.hash);
	if (cur.out[0] && ret >= 0 && o + 4 < end) {
		*o++ = ' ';
		put_field(&o, end, cur.out);
	}
	*o++ = '\n';
	log_write(rec, (size_t)(o - rec));
}

/*
 * An exec: the process's key from now on -- its parent's, its command name and a
 * hash of its arguments (two tars of one pipeline, exec'd in either order, are
 * told apart by what they were asked to do) -- and, for the report, the program and
 * its arguments (the kernel's /proc/TID/cmdline: the program's own memory).
 */
void run_log_exec(struct proc *p, const char *exe)
{
	char rec[2400], *o = rec, *end = rec + sizeof(rec) - 2, argv[1024], what[40];
	char path[64];
	ssize_t n = 0;
	int fd;

	if (run_log_fd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", p->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, argv, sizeof(argv) - 1);
		close(fd);
	}
	n = n > 0 ? n : 0;
	snprintf(what, sizeof(what), "%s[%04x]", p->up->comm,
		 (unsigned int)(fnv(FNV_OFFSET, argv, (size_t)n) & 0xffff));
	run_key_set(p->up, p->up->pkey, what);
	while (n > 0 && !argv[n - 1])
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (!argv[i])
			argv[i] = ' ';
	argv[n] = 0;
	o += snprintf(o, (size_t)(end - o), "X\t%lu\t%s\t%d\t",
		      __atomic_add_fetch(&log_seq, 1, __ATOMIC_RELAXED), p->up->key, p->up->nspid);
	put_field(&o, end, exe);
	*o++ = '\t';
	put_field(&o, end, argv);
	*o++ = '\n';
	log_write(rec, (size_t)(o - rec));
}

/* The tree under path of task t: one line an entry */
static void tree_walk(struct uvfs_task *t, const char *path, int depth)
{
	char buf[8192], child[4096], line[4400], target[4096];
	struct stat st;
	long n;
	int fd;

	if (depth > 64 || (fd = uvfs_openat(t, AT_FDCWD, path, O_RDONLY | O_DIRECTORY, 0)) < 0)
		return;
	while ((n = uvfs_getdents64(t, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			const char *name = buf + off + 19;
			unsigned short reclen;
			uint64_t h = FNV_OFFSET;
			int len;

			memcpy(&reclen, buf + off + 16, 2);
			off += reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			/* (a path past PATH_MAX cannot be walked: left out) */
			if (snprintf(child, sizeof(child), "%s/%s", path, name) >= (int)sizeof(child))
				continue;
			if (uvfs_fstatat(t, AT_FDCWD, child, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			target[0] = 0;
			if (S_ISLNK(st.st_mode)) {
				ssize_t l = uvfs_readlinkat(t, AT_FDCWD, child, target, sizeof(target) - 1);

				target[l > 0 ? l : 0] = 0;
			} else if (S_ISREG(st.st_mode)) {
				int f = uvfs_openat(t, AT_FDCWD, child, O_RDONLY | O_NOFOLLOW, 0);
				char data[8192];
				ssize_t r;

				while (f >= 0 && (r = uvfs_read(t, f, data, sizeof(data))) > 0)
					h = fnv(h, data, (size_t)r);
				if (f >= 0)
					uvfs_close(t, f);
				snprintf(target, sizeof(target), "#%016" PRIx64, h);
			}
			len = snprintf(line, sizeof(line), "T\t%s\t%o\t%lld\t%lu\t%s\n", child,
				       (unsigned int)st.st_mode, (long long)st.st_size,
				       (unsigned long)st.st_nlink, target);
			if (len > 0 && write(run_tree_fd, line, (size_t)len) < 0)
				return;
			if (S_ISDIR(st.st_mode))
				tree_walk(t, child, depth + 1);
		}
	}
	uvfs_close(t, fd);
}

void run_tree_dump(struct uvfs_task *t, const char *path)
{
	if (run_tree_fd >= 0)
		tree_walk(t, path, 0);
}

/* ---- comparing ---- */

struct call {
	unsigned long seq;
	char *key, *comm, *sig, *res;
	uint64_t hsig, hres;          /* hashes of sig and res: most comparisons fail */
	int pid;
	unsigned int occ;             /* the how-manieth call of this sig in its process */
};

struct run {
	const char *abi;
	int status;                   /* the program's, or -1: it did not run */
	char *out, *err, *log, *tree; /* whole, NUL-terminated */
	char *xlog;                   /* the exec records (a copy: parse() cuts log) */
	struct call *calls;
	size_t ncalls;
	char **tlines;
	size_t ntlines;
};

static char *slurp(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *s = malloc(len > 0 ? (size_t)len + 1 : 1);

	if (!s)
		return NULL;
	if (len > 0 && pread(fd, s, (size_t)len, 0) != len)
		len = 0;
	s[len > 0 ? len : 0] = 0;
	return s;
}

static int by_key_seq(const void *a, const void *b)
{
	const struct call *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_sig_seq(const void *a, const void *b)
{
	const struct call *x = *(struct call *const *)a, *y = *(struct call *const *)b;
	int c = strcmp(x->sig, y->sig);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Each call's occurrence of its signature in its process (calls sorted by key) */
static void count_occurrences(struct call *calls, size_t n)
{
	struct call **v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return;
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo; hi < n && !strcmp(calls[hi].key, calls[lo].key); hi++)
			v[hi - lo] = &calls[hi];
		qsort(v, hi - lo, sizeof(*v), by_sig_seq);
		for (size_t i = 0; i < hi - lo; i++)
			v[i]->occ = i && !strcmp(v[i]->sig, v[i - 1]->sig) ? v[i - 1]->occ + 1 : 1;
	}
	free(v);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Split a run's log and tree into their records (in place) */
static void parse(struct run *r)
{
	size_t cap = 0;

	for (char *l = r->log, *nl; l && *l; l = nl) {
		char *f[8];
		int n = 0;

		nl = strchr(l, '\n');
		if (nl)
			*nl++ = 0;
		else
			nl = l + strlen(l);
		if (l[0] != 'C')
			continue;
		for (char *s = l; n < 8 && s; n++) {
			f[n] = s;
			s = strchr(s, '\t');
			if (s)
				*s++ = 0;
		}
		if (n < 7)
			continue;
		if (r->ncalls == cap) {
			struct call *c = realloc(r->calls, (cap = cap ? cap * 2 : 256) * sizeof(*c));

			if (!c)
				break;
			r->calls = c;
		}
		r->calls[r->ncalls++] = (struct call){ strtoul(f[1], NULL, 10), f[2], f[4], f[5],
						       f[6], fnv(FNV_OFFSET, f[5], strlen(f[5])),
						       fnv(FNV_OFFSET, f[6], strlen(f[6])), atoi(f[3]),
						       0 };
	}
	if (r->ncalls)
		qsort(r->calls, r->ncalls, sizeof(*r->calls), by_key_seq);
	count_occurrences(r->calls, r->ncalls);
	cap = 0;
	for (char *l = r->tree, *nl; l && *l; l = nl) {
		nl = strchr(l, '\n');
		if (nl)
			*nl++ = 0;
		else
			nl = l + strlen(l);
		if (r->ntlines == cap) {
			char **t = realloc(r->tlines, (cap = cap ? cap * 2 : 64) * sizeof(*t));

			if (!t)
				break;
			r->tlines = t;
		}
		r->tlines[r->ntlines++] = l + 2;
	}
	if (r->ntlines)  /* (qsort of no array is undefined: UBSan says so) */
		qsort(r->tlines, r->ntlines, sizeof(char *), by_str);
}

/* The calls of process key in r: the first, and how many */
static struct call *calls_of(const struct run *r, const char *key, size_t *n)
{
	size_t lo = 0, hi = r->ncalls;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(r->calls[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = 0;
	while (lo + *n < r->ncalls && !strcmp(r->calls[lo + *n].key, key))
		(*n)++;
	return r->calls + lo;
}

/*
 * Aligning two processes' calls.  Where one made calls the other did not -- a loop
 * that polled once more, and the PATH search of the command it ran the first time
 * round, a retry -- those calls are left out and the rest paired, so that extra
 * calls do not make every later one look different.  The pairing is a longest
 * common subsequence (Myers' O(ND) difference algorithm, as diff(1) finds it), in
 * two steps: first of the whole records (call and answer), which anchors the
 * stretches the two runs agree on; then, between two anchors, of the calls alone,
 * which pairs the same call where the answers differ.  The first step matters for a
 * loop polling a file until it appears: paired by the call alone, the era's one
 * successful stat would meet the reference's first failing one.  (A window of the
 * nearest place where both make the same call again, which this replaces, paired
 * the era's PATH search for grep with the reference's for the sleep of a loop that
 * went round once more, and from there every later call.)
 */
#define MAX_EDITS 2048  /* more calls than this one made and the other did not: the
			 * two are paired only where they begin and end alike */

static bool same_call(const struct call *a, const struct call *b, bool whole)
{
	return a->hsig == b->hsig && (!whole || a->hres == b->hres) && !strcmp(a->sig, b->sig) &&
	       (!whole || !strcmp(a->res, b->res));
}

/*
 * The longest common subsequence of x and y (the same call, or with whole the same
 * call and answer): its pairs, in order, into px and py (room for min(nx, ny) each);
 * their number.  Past MAX_EDITS differences, only the common beginning and end.
 */
static size_t lcs(const struct call *x, size_t nx, const struct call *y, size_t ny, bool whole,
		  size_t *px, size_t *py)
{
	size_t pre = 0, suf = 0, n, m, np = 0, cap;
	long *v = NULL, d, k, end = -1;
	int *trace = NULL;  /* (a process's calls are counted in an int: 2^31 is far) */
	size_t tcap = 0;

	while (pre < nx && pre < ny && same_call(&x[pre], &y[pre], whole))
		px[np] = py[np] = pre, np++, pre++;
	while (suf < nx - pre && suf < ny - pre &&
	       same_call(&x[nx - 1 - suf], &y[ny - 1 - suf], whole))
		suf++;
	n = nx - pre - suf;
	m = ny - pre - suf;
	x += pre;
	y += pre;
	cap = n + m < MAX_EDITS ? n + m : MAX_EDITS;
	if (n && m) {
		/* v[k] (k from -cap-1 to cap+1): the furthest x reached on diagonal k;
		 * trace: v[-d..d] after each d, at trace[d * d] */
		v = calloc(2 * cap + 3, sizeof(*v));
	}
	for (d = 0; v && (size_t)d <= cap && end < 0; d++) {
		long *V = v + cap + 1;

		if ((size_t)((d + 1) * (d + 1)) > tcap) {
			size_t want = tcap ? tcap * 4 : 1024;
			int *t = realloc(trace, want * sizeof(*t));

			if (!t)
				break;
			trace = t;
			tcap = want;
		}

		for (k = -d; k <= d; k += 2) {
			long i = k == -d || (k != d && V[k - 1] < V[k + 1]) ? V[k + 1] : V[k - 1] + 1;
			long j = i - k;

			while ((size_t)i < n && (size_t)j < m && same_call(&x[i], &y[j], whole))
				i++, j++;
			V[k] = i;
			if ((size_t)i >= n && (size_t)j >= m)
				end = d;
		}
		for (k = -d; k <= d; k++)
			trace[d * d + d + k] = (int)V[k];
	}
	if (end >= 0) {
		/* back from (n, m): each step's snake (its diagonal run) is pairs */
		long i = (long)n, j = (long)m;
		size_t first = np;

		for (d = end; d >= 0; d--) {
			long pi = 0, pj = 0, mi = 0, mj = 0;

			k = i - j;
			if (d > 0) {
				const int *P = trace + (d - 1) * (d - 1) + (d - 1);
				long pk = k == -d || (k != d && P[k - 1] < P[k + 1]) ? k + 1 : k - 1;

				pi = P[pk];
				pj = pi - pk;
				mi = pk == k + 1 ? pi : pi + 1;
				mj = pk == k + 1 ? pj + 1 : pj;
			}
			while (i > mi && j > mj) {
				i--, j--;
				px[np] = pre + (size_t)i, py[np] = pre + (size_t)j, np++;
			}
			i = pi, j = pj;
		}
		for (size_t a = first, b = np; a + 1 < b; a++, b--) {
			size_t t = px[a];

			px[a] = px[b - 1], px[b - 1] = t;
			t = py[a], py[a] = py[b - 1], py[b - 1] = t;
		}
	}
	free(v);
	free(trace);
	for (size_t s = suf; s > 0; s--)
		px[np] = nx - s, py[np] = ny - s, np++;
	return np;
}

/* fn on each pair of x and y the alignment makes, in order; fn returns true to stop */
static void align(const struct call *x, size_t nx, const struct call *y, size_t ny,
		  bool (*fn)(const struct call *a, const struct call *b, void *arg), void *arg)
{
	size_t room = (nx < ny ? nx : ny) + 1;
	size_t *ax = malloc(room * sizeof(*ax)), *ay = malloc(room * sizeof(*ay));
	size_t *gx = malloc(room * sizeof(*gx)), *gy = malloc(room * sizeof(*gy));
	size_t na, xi = 0, yi = 0;

	if (!ax || !ay || !gx || !gy)
		goto out;
	na = lcs(x, nx, y, ny, true, ax, ay);
	/* anchor na is the end of both */
	ax[na] = nx;
	ay[na] = ny;
	for (size_t a = 0; a <= na; a++) {
		size_t ng = lcs(x + xi, ax[a] - xi, y + yi, ay[a] - yi, false, gx, gy);

		for (size_t g = 0; g < ng; g++)
			if (fn(&x[xi + gx[g]], &y[yi + gy[g]], arg))
				goto out;
		if (a < na && fn(&x[ax[a]], &y[ay[a]], arg))
			goto out;
		xi = ax[a] + 1;
		yi = ay[a] + 1;
	}
out:
	free(ax);
	free(ay);
	free(gx);
	free(gy);
}

/* Every process of x aligned with the same process of y */
static void align_runs(const struct run *x, const struct run *y,
		       bool (*fn)(const struct call *a, const struct call *b, void *arg), void *arg)
{
	for (size_t i = 0; i < x->ncalls;) {
		size_t nx, ny;
		const struct call *xc = calls_of(x, x->calls[i].key, &nx);
		const struct call *yc = calls_of(y, x->calls[i].key, &ny);

		align(xc, nx, yc, ny, fn, arg);
		i += nx;
	}
}

/* The calls whose answers differ between the two linux runs -- a process's Nth call
 * of a signature (a stop's second look at /proc/PID/exe may find the process gone
 * or not, by timing; its first look is no less telling): they vary by themselves */
struct noise {
	const struct call **calls;
	size_t n, cap;
};

static bool note_noise(const struct call *a, const struct call *b, void *arg)
{
	struct noise *ns = arg;

	if (!strcmp(a->res, b->res))
		return false;
	if (ns->n == ns->cap) {
		const struct call **s = realloc(ns->calls, (ns->cap = ns->cap ? ns->cap * 2 : 16) *
						sizeof(*s));

		if (!s)
			return true;
		ns->calls = s;
	}
	ns->calls[ns->n++] = a;
	return false;
}

static bool is_noise(const struct noise *ns, const struct call *c)
{
	for (size_t i = 0; i < ns->n; i++)
		if (ns->calls[i]->occ == c->occ && !strcmp(ns->calls[i]->sig, c->sig) &&
		    !strcmp(ns->calls[i]->key, c->key))
			return true;
	return false;
}

struct first {
	const struct noise *ns;
	const struct call *got, *want;
};

static bool note_first(const struct call *e, const struct call *r, void *arg)
{
	struct first *f = arg;

	if (!strcmp(e->res, r->res) || is_noise(f->ns, e))
		return false;
	if (!f->got || e->seq < f->got->seq) {
		f->got = e;
		f->want = r;
	}
	return true;
}

/*
 * The first call of e (in the order e's run made them) whose answer differs from
 * ref's for the same call at the same place of the same process, where the two
 * linux runs agree on it: that call and ref's, or NULL.
 */
static const struct call *first_call(const struct run *e, const struct run *ref,
				     const struct run *again, const struct call **want)
{
	struct noise ns = { 0 };
	struct first f = { .ns = &ns };

	align_runs(ref, again, note_noise, &ns);
	align_runs(e, ref, note_first, &f);
	free(ns.calls);
	*want = f.want;
	return f.got;
}

/* Line n (from 1) of text, into buf; false past the end */
static bool line_at(const char *text, size_t n, char *buf, size_t size)
{
	for (size_t i = 1; i < n && text; i++) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text || !*text)
		return false;
	snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
	return true;
}

/*
 * Two lines equal but for their numbers: a run of two digits or more matches any
 * other.  What a
 * program prints about its files is names, which an era changes; the numbers it
 * prints -- the time, a size, a pid, a count -- may change between two runs of the
 * same era by chance (the two linux runs fell in one second, the next era in the
 * next), which comparing with a second linux run does not always catch.
 */
static bool same_but_numbers(const char *a, const char *b)
{
	while (*a && *b) {
		/* numbers of two digits or more: a single digit (an exit status, a
		 * count of files) must be the same */
		bool da = *a >= '0' && *a <= '9' && a[1] >= '0' && a[1] <= '9';
		bool db = *b >= '0' && *b <= '9' && b[1] >= '0' && b[1] <= '9';

		if (da && db) {
			while (*a >= '0' && *a <= '9')
				a++;
			while (*b >= '0' && *b <= '9')
				b++;
			continue;
		}
		if (*a++ != *b++)
			return false;
	}
	return !*a && !*b;
}

/* The first line of e's text that differs from ref's where ref and again agree: its
 * number, or 0 */
static size_t first_line(const char *e, const char *ref, const char *again, char *eb,
			 char *rb, size_t size)
{
	char ab[4096];

	for (size_t n = 1;; n++) {
		bool he = line_at(e, n, eb, size), hr = line_at(ref, n, rb, size);
		bool ha = line_at(again, n, ab, sizeof(ab));

		if (!he && !hr)
			return 0;
		if (he && hr && same_but_numbers(eb, rb))
			continue;
		if (ha == hr && (!hr || !strcmp(ab, rb)) && !(he && !hr && ha)) {
			if (!he)
				eb[0] = 0;
			if (!hr)
				rb[0] = 0;
			return n;
		}
	}
}

/* The path of a tree line ("path\ttype..."), its length */
static size_t path_len(const char *l)
{
	return strcspn(l, "\t");
}

/* Whether tree r has an entry at the path of line l (bsearch on the sorted lines,
 * which sort by path first) */
static const char *entry_at(const struct run *r, const char *l)
{
	size_t lo = 0, hi = r->ntlines, n = path_len(l);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strncmp(r->tlines[mid], l, n);

		if (!c && r->tlines[mid][n] != '\t')
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->ntlines && !strncmp(r->tlines[lo], l, n) && r->tlines[lo][n] == '\t'
	       ? r->tlines[lo] : NULL;
}

/*
 * The first entry of the trees left (sorted by path) that differs, where the two
 * linux runs agree: '-' and ref's line for one e lacks or has otherwise, '+' and
 * e's for one e has and ref has not -- counted only when the two linux runs left
 * the same paths (a mktemp name comes out otherwise every run).
 */
static bool first_entry(const struct run *e, const struct run *ref, const struct run *again,
			char *buf, size_t size)
{
	bool names_vary = ref->ntlines != again->ntlines;

	for (size_t i = 0; i < ref->ntlines; i++) {
		const char *l = ref->tlines[i], *a = entry_at(again, l), *x = entry_at(e, l);

		if (!a) {
			names_vary = true;
			continue;
		}
		if (strcmp(a, l))
			continue;  /* this entry's contents vary by themselves */
		if (!x || strcmp(x, l)) {
			snprintf(buf, size, "- %s%s%s", l, x ? "; this era: " : "", x ? x : "");
			return true;
		}
	}
	for (size_t i = 0; i < e->ntlines && !names_vary; i++) {
		if (!entry_at(ref, e->tlines[i])) {
			snprintf(buf, size, "+ %s", e->tlines[i]);
			return true;
		}
	}
	return false;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A record's field as it was before escaping, for the report: \t and \n shown so */
static const char *shown(const char *s)
{
	return s ? s : "(none)";
}

/* The program process key ran at seq, and its arguments: the last exec record
 * before it in r's log ("X\tseq\tkey\tpid\texe\targv") */
static void exe_of(const struct run *r, const char *key, unsigned long seq, char *exe,
		   char *argv, size_t size)
{
	unsigned long best = 0;
	size_t klen = strcspn(key, "%");  /* a thread's: its process's */

	snprintf(exe, size, "?");
	argv[0] = 0;
	for (const char *l = r->xlog; l && *l;) {
		const char *nl = strchr(l, '\n'), *f[6];
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		int nf = 0;

		for (const char *c = l; nf < 6 && c && c < l + len; nf++) {
			f[nf] = c;
			c = memchr(c, '\t', (size_t)(l + len - c));
			if (c)
				c++;
		}
		if (nf == 6 && l[0] == 'X' && !strncmp(f[2], key, klen) && f[2][klen] == '\t') {
			unsigned long s = strtoul(f[1], NULL, 10);

			if (s < seq && s > best) {
				best = s;
				snprintf(exe, size, "%.*s", (int)(f[5] - f[4] - 1), f[4]);
				snprintf(argv, size, "%.*s", (int)(l + len - f[5]), f[5]);
			}
		}
		l += len + (nl ? 1 : 0);
	}
}

/* The programs a process key runs through, "make > bash > readlink": which test of
 * a suite it belongs to */
static void chain_of(const char *key, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = 0;
	for (const char *s = key; (s = strchr(s, '/')); ) {
		size_t n = strcspn(++s, "[#/");

		if (n == 4 && !strncmp(s, "fork", 4))
			continue;
		if (o && o + 3 < size)
			o += (size_t)snprintf(buf + o, size - o, " > ");
		if (o + n + 1 < size)
			o += (size_t)snprintf(buf + o, size - o, "%.*s", (int)n, s);
	}
}

/* One era's verdict: printed, or as JSON; true when it agrees */
static bool verdict(FILE *f, const struct run *e, const struct run *ref, const struct run *again,
		    bool json, bool first_json)
{
	char eb[4096], rb[4096], tb[4400];
	const struct call *want = NULL;
	const struct call *c = first_call(e, ref, again, &want);
	size_t lo = first_line(e->out, ref->out, again->out, eb, rb, sizeof(eb));
	char eb2[4096], rb2[4096];
	size_t le = lo ? 0 : first_line(e->err, ref->err, again->err, eb2, rb2, sizeof(eb2));
	bool tree = first_entry(e, ref, again, tb, sizeof(tb));
	bool status = e->status != ref->status && ref->status == again->status;
	bool same = !c && !lo && !le && !tree && !status;
	char exe[1024] = "?", argv[1024] = "", chain[512] = "";

	if (c) {
		exe_of(e, c->key, c->seq, exe, argv, sizeof(exe));
		chain_of(c->key, chain, sizeof(chain));
	}
	if (json) {
		fprintf(f, "%s\n  {\"era\": ", first_json ? "" : ",");
		json_str(f, e->abi);
		fprintf(f, ", \"status\": %d, \"same\": %s", e->status, same ? "true" : "false");
		if (c) {
			fprintf(f, ", \"call\": {\"pid\": %d, \"process\": ", c->pid);
			json_str(f, c->key);
			fprintf(f, ", \"comm\": ");
			json_str(f, c->comm);
			fprintf(f, ", \"exe\": ");
			json_str(f, exe);
			fprintf(f, ", \"argv\": ");
			json_str(f, argv);
			fprintf(f, ", \"chain\": ");
			json_str(f, chain);
			fprintf(f, ", \"call\": ");
			json_str(f, c->sig);
			fprintf(f, ", \"result\": ");
			json_str(f, c->res);
			fprintf(f, ", \"linux\": ");
			if (want) {
				fprintf(f, "{\"call\": ");
				json_str(f, want->sig);
				fprintf(f, ", \"result\": ");
				json_str(f, want->res);
				fputc('}', f);
			} else {
				fprintf(f, "null");
			}
			fputc('}', f);
		}
		if (lo || le) {
			fprintf(f, ", \"line\": {\"stream\": \"%s\", \"number\": %zu, \"text\": ",
				lo ? "stdout" : "stderr", lo ? lo : le);
			json_str(f, lo ? eb : eb2);
			fprintf(f, ", \"linux\": ");
			json_str(f, lo ? rb : rb2);
			fputc('}', f);
		}
		if (tree) {
			fprintf(f, ", \"tree\": ");
			json_str(f, tb);
		}
		fputc('}', f);
		return same;
	}
	if (same) {
		fprintf(f, "%-11s same as linux\n", e->abi);
		return true;
	}
	fprintf(f, "%-11s differs:", e->abi);
	if (status)
		fprintf(f, " exit status %d, linux %d;", e->status, ref->status);
	fputc('\n', f);
	if (c) {
		fprintf(f, "  first call: pid %d (%s, %s: %s): %s = %s\n", c->pid, c->comm, exe,
			argv, c->sig, c->res);
		if (strchr(chain, '>'))
			fprintf(f, "    run by:   %s\n", chain);
		if (want && strcmp(want->sig, c->sig))
			fprintf(f, "    linux:    %s = %s\n", want->sig, want->res);
		else
			fprintf(f, "    linux:    %s\n", want ? want->res : "(no such call)");
	}
	if (lo || le) {
		fprintf(f, "  first line of %s, %zu: %s\n", lo ? "output" : "errors", lo ? lo : le,
			shown(lo ? eb : eb2));
		fprintf(f, "    linux:    %s\n", shown(lo ? rb : rb2));
	}
	if (tree)
		fprintf(f, "  first entry of the files left: %s\n", tb);
	return false;
}

static const char *const eras[] = { "linux", "linux", "linux-4.17", "linux-3.18", "linux-3.17",
				    "linux-3.15", "linux-3.14" };
#define NRUNS (sizeof(eras) / sizeof(eras[0]))

static void runs_free(struct run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].out);
		free(runs[i].err);
		free(runs[i].log);
		free(runs[i].tree);
		free(runs[i].xlog);
		free(runs[i].calls);
		free(runs[i].tlines);
	}
}

/* --explain-log: what run i recorded, as files of dir named after it (a campaign's
 * command's with its line number first): .calls (the call records, one a line:
 * "C", sequence, process, pid, command, call, answer; "X" an exec), .tree, .out,
 * .err.  A failure to write is said once and the report goes on. */
static void keep_run(const char *dir, long line, size_t i, const struct run *r)
{
	static const char *const ext[] = { "calls", "tree", "out", "err" };
	const char *text[] = { r->xlog, r->tree, r->out, r->err };
	static bool said;
	char path[4096];

	for (size_t k = 0; k < 4; k++) {
		FILE *f;

		if (line)
			snprintf(path, sizeof(path), "%s/%ld-%zu-%s.%s", dir, line, i, r->abi, ext[k]);
		else
			snprintf(path, sizeof(path), "%s/%zu-%s.%s", dir, i, r->abi, ext[k]);
		f = fopen(path, "w");
		if (!f || fputs(text[k] ? text[k] : "", f) < 0 || fclose(f)) {
			if (!said)
				fprintf(stderr, "uvfs-run: --explain-log: %s: %s\n", path, strerror(errno));
			said = true;
			if (f)
				fclose(f);
			return;
		}
	}
}

/*
 * The report on one program.  command (a campaign's, --commands): one line of JSON
 * for it, {"command", "line", "result", "eras": [...]}, whatever json says.
 */
int run_explain(int (*once)(const void *o, const char *abi), const void *o, bool json,
		const char *command, long line)
{
	struct run runs[NRUNS];
	char *report = NULL;
	size_t report_len = 0;
	FILE *f;
	int ret = 0;

	memset(runs, 0, sizeof(runs));
	for (size_t i = 0; i < NRUNS; i++) {
		int fds[4] = { -1, -1, -1, -1 }, ws;
		pid_t pid;

		for (int k = 0; k < 4; k++) {
			fds[k] = memfd_create("uvfs-run-explain", MFD_CLOEXEC);
			if (fds[k] < 0) {
				perror("uvfs-run: --explain");
				ret = 2;
			}
		}
		fflush(NULL);
		pid = ret ? -1 : fork();
		if (pid == 0) {
			dup2(fds[0], 1);
			dup2(fds[1], 2);
			run_log_fd = fds[2];
			run_tree_fd = fds[3];
			(void)fcntl(run_log_fd, F_SETFL, O_APPEND);
			_exit(once(o, eras[i]));
		}
		if (pid < 0 && !ret)
			perror("uvfs-run: fork");
		if (pid > 0)
			waitpid(pid, &ws, 0);
		runs[i].abi = eras[i];
		if (pid > 0) {
			runs[i].out = slurp(fds[0]);
			runs[i].err = slurp(fds[1]);
			runs[i].log = slurp(fds[2]);
			runs[i].tree = slurp(fds[3]);
			runs[i].xlog = runs[i].log ? strdup(runs[i].log) : NULL;
			if (run_explain_log)
				keep_run(run_explain_log, line, i, &runs[i]);
		}
		for (int k = 0; k < 4; k++)
			if (fds[k] >= 0)
				close(fds[k]);
		if (pid < 0) {
			ret = 2;
			break;
		}
		/* a run that never reached the program: no record of its start, or of
		 * the exec of the program (uvfs-run's own execvp failed: 127) */
		runs[i].status = !runs[i].log || !strstr(runs[i].log, "S\tstarted\n") ||
				 !strstr(runs[i].log, "\nX\t") ? -1 :
				 WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		if (runs[i].status < 0) {
			fprintf(stderr, "uvfs-run: --explain: the program did not run under %s:\n%s",
				eras[i], runs[i].err ? runs[i].err : "");
			ret = 2;
			break;
		}
		parse(&runs[i]);
	}
	f = open_memstream(&report, &report_len);
	if (!f) {
		runs_free(runs, NRUNS);
		return 2;
	}
	if (ret == 2) {
		/* nothing to compare */
	} else if (json || command) {
		fprintf(f, "[");
	} else {
		fprintf(f, "%-11s the reference: exit status %d, %zu calls answered by uvfs\n",
			"linux", runs[0].status, runs[0].ncalls);
	}
	for (size_t i = 2; i < NRUNS && ret != 2; i++)
		if (!verdict(f, &runs[i], &runs[0], &runs[1], json || command, i == 2))
			ret = 1;
	if (ret != 2 && (json || command))
		fprintf(f, "\n]\n");
	fclose(f);
	if (command) {
		/* one line: the eras' objects joined */
		printf("{\"command\": ");
		json_str(stdout, command);
		printf(", \"line\": %ld, \"result\": %d, \"eras\": ", line, ret);
		for (char *c = report; c && *c; c++)
			if (*c != '\n')
				putchar(*c);
		printf("%s}\n", ret == 2 ? "null" : "");
	} else if (report) {
		fputs(report, stdout);
	}
	fflush(stdout);
	free(report);
	runs_free(runs, NRUNS);
	return ret;
}

/*
 * A process's key: its parent's, then what it is -- the program it runs, or "fork"
 * before it execs -- and the how-manieth of its parent's children that was (a
 * count per parent key and name, so that the order of unrelated siblings does not
 * matter, and one loop running a command more often in one run shifts only that
 * command's numbers).
 */
static pthread_mutex_t keys_lock = PTHREAD_MUTEX_INITIALIZER;
static struct key_count {
	struct key_count *next;
	unsigned int n;
	char name[];
} *key_counts;

void run_key_set(struct uproc *up, const char *parent_key, const char *what)
{
	char prefix[400];
	struct key_count *k;
	unsigned int n = 1;

	if (run_log_fd < 0)
		return;
	snprintf(prefix, sizeof(prefix), "%s/%s", parent_key, what[0] ? what : "?");
	pthread_mutex_lock(&keys_lock);
	for (k = key_counts; k && strcmp(k->name, prefix); k = k->next)
		;
	if (!k && (k = calloc(1, sizeof(*k) + strlen(prefix) + 1))) {
		strcpy(k->name, prefix);
		k->next = key_counts;
		key_counts = k;
	}
	if (k)
		n = ++k->n;
	pthread_mutex_unlock(&keys_lock);
	if (up->pkey != parent_key)
		snprintf(up->pkey, sizeof(up->pkey), "%s", parent_key);
	snprintf(prefix + strlen(prefix), sizeof(prefix) - strlen(prefix), "#%u", n);
	run_uproc_set_key(up, prefix);
}

/* The program has started: a run without this line could not run it */
void run_log_started(void)
{
	if (run_log_fd >= 0)
		log_write("S\tstarted\n", 10);
}
