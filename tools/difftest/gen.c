// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * gen.c - the sequence generator.  A small namespace so that operations collide:
 * three directories (d, e, d/f), names of 1 byte, at both inline boundaries (31, 32,
 * 39, 40 bytes), long (64, 255) and too long (256); symlinks to names, dangling
 * ("nowhere") and looping ("loop"); "/" now and then;
 * descriptors 0-7 used across operations whether or not their open succeeded.
 *
 * Every path is relative to the sequence's own directory and never starts with "..",
 * and chdir only goes to d, e, d/f or back to the sequence's directory, so that no
 * sequence reaches another's files — except through what every sequence of a batch
 * shares on purpose (not with --target, whose host is the real one): /proc as a target
 * of every operation (the batch's task is pid 1 on both sides), a tmpfs mounted on
 * the sequence's directories, its cwd or the root, and "/.."-paths that step onto
 * whatever is mounted on the root.  Besides: O_PATH descriptors in every descriptor
 * call, flag bits Linux does not know and contradictory ones, offsets and counts near
 * the limits, zero-length I/O; tasks (task_op) that fork, exec a program while
 * descriptors write it, exec a file in no format or an O_PATH descriptor through
 * /proc/PID/fd/N, and exit while the sequence holds descriptors and its cwd in
 * their /proc/PID; mounts onto /proc/PID/fdinfo/N and fd/N; a fifo opened only in
 * ways that cannot wait.  Never generated
 * (each would hang or diverge by design, see docs/SEMANTICS.md): a fifo among the
 * names every operation picks (a blocking open or read waits forever on both sides),
 * devices other than 0:0 (uvfs has no drivers), /proc/PID/exe (the host's first
 * task runs a real program, uvfs's none), a listing of a live /proc/PID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "difftest.h"

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned pick(struct rng *r, unsigned n)
{
	return (unsigned)(next(r) % n);
}

static bool chance(struct rng *r, unsigned percent)
{
	return pick(r, 100) < percent;
}

/* Names: letter + length; the long ones written with the {c*N} repetition form. */
static const struct {
	char c;
	int len;
} names[] = {
	{ 'a', 1 }, { 'b', 1 }, { 'c', 1 }, { 'p', 31 }, { 'q', 32 }, { 'r', 39 }, { 's', 40 },
	{ 't', 64 }, { 'u', 255 }, { 'v', 256 }, { 'l', 0 }, { 'n', 0 },
};

static void name(struct rng *r, char *buf, size_t n)
{
	unsigned i = pick(r, sizeof(names) / sizeof(names[0]));

	if (names[i].len == 0)
		snprintf(buf, n, "%s", names[i].c == 'l' ? "loop" : "nowhere");
	else if (names[i].len == 1)
		snprintf(buf, n, "%c", names[i].c);
	else
		snprintf(buf, n, "{%c*%d}", names[i].c, names[i].len);
}

static const char *const dirs[] = { "", "d/", "e/", "d/f/" };

/* A path in the namespace: [dir/]name, sometimes a dir itself, ".", "d/..", "", or
 * with a trailing slash. */
static bool gen_no_root;

/* /proc as a target: the links, their directories, fdinfo files, a missing name.
 * Not "/proc/self/exe" (the kernel's side is a process with an executable, uvfs's task
 * has none), and "/proc" itself only for operations whose output shows no stat of it
 * (its nlink counts every process on the machine: proc_root_getattr).  An open never
 * names "/proc", "/proc/PID" (whose listings hold the hundreds of entries uvfs does
 * not model) nor an fdinfo file (whose mnt_id the machine's other mounts decide). */
static bool gen_stat, gen_open;

static void proc_path(struct rng *r, char *buf, size_t n)
{
	static const char *const fixed[] = {
		"/proc/self/fd", "/proc/self/fdinfo", "/proc/1/cwd", "/proc/self/root",
		"/proc/x", "/proc/1/fd/", "/proc/self", "/proc/1", "/proc",
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]) - (gen_open ? 3 : gen_stat ? 1 : 0);
	unsigned k = pick(r, 3);

	if (k == 2 && gen_open)
		k = 1;
	if (k == 0)
		snprintf(buf, n, "%s", fixed[pick(r, (unsigned)nfixed)]);
	else
		snprintf(buf, n, "/proc/%s/%s/%u", pick(r, 3) ? pick(r, 2) ? "self" : "1" : "{child}",
			 k == 1 ? "fd" : "fdinfo", pick(r, 5));
	/* the newest child of the sequence (sysscript's {child}; 0 before any fork) */
	if (chance(r, 15) && !gen_open) {
		static const char *const child[] = { "/proc/{child}", "/proc/{child}/fd",
						     "/proc/{child}/cwd", "/proc/{child}/fd/1022" };

		snprintf(buf, n, "%s", child[pick(r, 4)]);
	}
}

static void path(struct rng *r, char *buf, size_t n)
{
	char nm[32];
	unsigned k = pick(r, 100);

	if (!gen_no_root && k < 4) {
		proc_path(r, buf, n);
		return;
	}
	if (!gen_no_root && k == 4) {
		/* ".." at the root lands on what is mounted there */
		snprintf(buf, n, "%s", pick(r, 2) ? "/.." : "/../a");
		return;
	}
	k = pick(r, 100);

	if (k < 7) {
		/* "/" only fails or touches the root's attributes, which no dump shows */
		static const char *const special[] = { ".", "d", "e", "d/f", "d/..", "", "/" };

		snprintf(buf, n, "%s", special[pick(r, gen_no_root ? 6 : 7)]);
		return;
	}
	name(r, nm, sizeof(nm));
	snprintf(buf, n, "%s%s%s", dirs[pick(r, 4)], nm, chance(r, 7) ? "/" : "");
}

static void quoted(char *buf, size_t n, const char *s)
{
	snprintf(buf, n, "\"%s\"", s);
}

static int fd(struct rng *r)
{
	return chance(r, 3) ? (int)pick(r, 40) : (int)pick(r, 8);
}

/* The mode of a create: mostly the usual one; else set-user-ID, set-group-ID and
 * sticky bits alone and together, none at all, every bit (the umask, the setgid
 * directory and mode_strip_sgid decide what stays). */
static unsigned create_mode(struct rng *r, unsigned usual)
{
	static const unsigned odd[] = { 0755, 01777, 02755, 04755, 06777, 02644, 07777, 0, 0700,
					03775, 02710, 0777 };

	return chance(r, 75) ? usual : odd[pick(r, 12)];
}

static const char *const open_extra[] = {
	"O_CREAT", "O_EXCL", "O_TRUNC", "O_APPEND", "O_DIRECTORY", "O_NOFOLLOW", "O_PATH",
	"O_CLOEXEC", "O_NONBLOCK",
	/* rarer: flags tmpfs ignores or refuses, __O_SYNC alone, a bit Linux lacks */
	"O_DIRECT", "O_ASYNC", "O_NOATIME", "O_DSYNC", "0x100000", "0x40000000",
};

static void open_flags(struct rng *r, char *buf, size_t n)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	size_t len;

	len = (size_t)snprintf(buf, n, "%s", acc[chance(r, 2) ? 3 : pick(r, 3)]);
	if (chance(r, 6)) {
		snprintf(buf + len, n - len, "|O_TMPFILE");
		return;
	}
	for (size_t i = 0; i < sizeof(open_extra) / sizeof(open_extra[0]); i++)
		if (chance(r, i == 0 ? 45 : i < 9 ? 12 : 3))
			len += (size_t)snprintf(buf + len, n - len, "|%s", open_extra[i]);
}

/*
 * Tasks and the /proc entries that outlive them, each a few lines that belong
 * together (OPENED is what the composite's own openat returned):
 *  - a child exits while the sequence holds its /proc/PID open and maybe its cwd
 *    there: " (deleted)", ENOENT for listings and getcwd, ESRCH for lookups;
 *  - a program written into a file of the namespace is run by a child, while a
 *    descriptor may still write it (ETXTBSY), and stays running for the rest of the
 *    sequence: opening it for writing, truncating it are ETXTBSY;
 *  - a /proc listing that reached its end, then a fork: nothing new until rewound
 *    (the child goes with the descriptor: through its /proc/PID/fd a stat of /proc
 *    itself would be reachable);
 *  - an fdinfo descriptor's lseek, pwrite and fsync (closed at once: its text shows
 *    mount ids, which differ);
 *  - a fifo (a name no other operation picks) opened with O_ACCMODE (EINVAL) and
 *    without waiting;
 *  - an exec of a file that is in no format (empty, a text, "#" alone: ENOEXEC, and
 *    the file may be written again at once), made and written just before with an
 *    execute bit, or a name of the namespace;
 *  - an exec through /proc/PID/fd/N of an O_PATH descriptor -- of a symlink made for
 *    it ("xl", a name no other operation picks: ELOOP), or of any path (EACCES for a
 *    directory, the file's own answer);
 * each exec by a fresh child that then exits.  Never generated: a file that starts
 * as a format but that the kernel refuses all the same (ELF's magic alone, "#!" and a
 * missing interpreter), where uvfs, which checks the magic only, says 0 by design.
 */
/* The sequence has become a user ("asuser"): a program it writes may not be written
 * (EACCES), and its exec is then an exec of an empty file: ENOEXEC on both sides. */
static bool gen_as_user;
/* The sequence mounted something on e (difftest_generate): mount operations too. */
static bool gen_mounted, gen_mounted_own_sb;

static void task_op(struct rng *r, FILE *f)
{
	char nm[32], a[64];
	unsigned k = pick(r, 7);

	switch (k) {
	case 0:
		fprintf(f, "fork\nopenat AT_FDCWD /proc/{child} O_RDONLY|O_DIRECTORY\n");
		if (chance(r, 40))
			fprintf(f, "chdir /proc/{child}\n");
		fprintf(f, "exit\n");
		if (chance(r, 60))
			fprintf(f, "getdents64 OPENED 4096\nfstatat OPENED fd 0\nfdpath OPENED\n"
				   "getcwd 512\nfstatat AT_FDCWD %s 0\n", pick(r, 2) ? "." : "..");
		fprintf(f, "chdir BACK\n");
		break;
	case 1:
		name(r, nm, sizeof(nm));
		snprintf(a, sizeof(a), "%s%s", dirs[pick(r, 4)], nm);
		fprintf(f, "openat AT_FDCWD \"%s\" O_CREAT|O_WRONLY|O_TRUNC 0755\nwriteprog OPENED\n", a);
		if (chance(r, 60))
			fprintf(f, "close OPENED\n");
		fprintf(f, "fork\nexec \"%s\"\n", a);
		if (chance(r, 50))
			fprintf(f, "openat AT_FDCWD \"%s\" O_RDWR\n", a);
		break;
	case 2:
		fprintf(f, "openat AT_FDCWD /proc O_RDONLY|O_DIRECTORY\nlseek OPENED 258 SEEK_SET\n"
			   "getdents64 OPENED 4096\nfork\ngetdents64 OPENED 4096\n"
			   "lseek OPENED %s\ngetdents64 OPENED 4096\nclose OPENED\nexit\n",
			pick(r, 2) ? "258 SEEK_SET" : "0 SEEK_CUR");
		break;
	case 3:
		fprintf(f, "openat AT_FDCWD /proc/self/fdinfo/%u O_RDONLY\nlseek OPENED 0 %s\n"
			   "pwrite OPENED x 0\nfsync OPENED\nclose OPENED\n", pick(r, 3),
			pick(r, 2) ? "SEEK_END" : "SEEK_DATA");
		break;
	case 4:
		fprintf(f, "mknodat AT_FDCWD fifo S_IFIFO|0644 0\nopenat AT_FDCWD fifo O_ACCMODE%s\n"
			   "openat AT_FDCWD fifo O_RDWR|O_NONBLOCK\nclose OPENED\n",
			pick(r, 2) ? "" : "|O_NONBLOCK");
		break;
	case 5: {
		/* a file in no format; never "\177ELF" or "#!" (see above) */
		static const char *const data[] = { "", "hello", "x", "#", "{z*300}", "\\x7fEL" };
		static const unsigned modes[] = { 0755, 0755, 0700, 0711, 0644, 04755 };

		name(r, nm, sizeof(nm));
		snprintf(a, sizeof(a), "%s%s", dirs[pick(r, 4)], nm);
		if (chance(r, 80)) {
			fprintf(f, "openat AT_FDCWD \"%s\" O_CREAT|O_WRONLY|O_TRUNC 0%o\n", a,
				modes[pick(r, 6)]);
			fprintf(f, "write OPENED \"%s\"\n", data[pick(r, 6)]);
			if (chance(r, 80))
				fprintf(f, "close OPENED\n");
		}
		fprintf(f, "fork\nexec \"%s\"\n", a);
		if (chance(r, 60))
			fprintf(f, "openat AT_FDCWD \"%s\" O_RDWR\nwrite OPENED \"y\"\n", a);
		fprintf(f, "exit\n");
		break;
	}
	default: {
		static const char *const via[] = { "self", "self", "{child}", "1" };

		if (chance(r, 60)) {
			fprintf(f, "symlinkat %s AT_FDCWD xl\nopenat AT_FDCWD xl O_PATH|O_NOFOLLOW\n",
				pick(r, 2) ? "a" : "nowhere");
		} else {
			gen_open = true;
			path(r, a, sizeof(a));
			gen_open = false;
			fprintf(f, "openat AT_FDCWD \"%s\" O_PATH%s\n", a,
				pick(r, 2) ? "|O_NOFOLLOW" : "");
		}
		fprintf(f, "fork\nexec /proc/%s/fd/{opened}\nexit\n", via[pick(r, 4)]);
		break;
	}
	}
}

static void emit_op(struct rng *r, FILE *f)
{
	char a[256], b[300], fl[200];
	unsigned k = pick(r, 1000);

#define P(x) path(r, x, sizeof(x))
	if (!gen_no_root && k < 15) {
		task_op(r, f);
	} else if (k < 150) {
		gen_open = true;
		P(a);
		gen_open = false;
		open_flags(r, fl, sizeof(fl));
		quoted(b, sizeof(b), a);
		fprintf(f, "openat AT_FDCWD %s %s 0%o\n", b, fl, create_mode(r, 0644));
	} else if (k < 200) {
		fprintf(f, "close %d\n", fd(r));
	} else if (k < 240) {
		static const char *const data[] = { "x", "hello", "{z*5000}", "" };

		fprintf(f, "write %d \"%s\"\n", fd(r), data[chance(r, 15) ? 3 : pick(r, 3)]);
	} else if (k < 260) {
		fprintf(f, "read %d %s\n", fd(r), chance(r, 8) ? "0" : pick(r, 3) ? "16" : "6000");
	} else if (k < 275) {
		/* offsets near 2^63 - 1: rw_verify_area's EINVAL */
		static const char *const off[] = { "9223372036854775806", "9223372036854775807",
						   "9223372036854775800", "-1" };

		if (chance(r, 10))
			fprintf(f, "pwrite %d \"%s\" %s\n", fd(r), pick(r, 2) ? "pq" : "",
				off[pick(r, 4)]);
		else
			fprintf(f, "pwrite %d \"p\" %u\n", fd(r), pick(r, 3) ? pick(r, 20) : 100000);
	} else if (k < 290) {
		if (chance(r, 10))
			fprintf(f, "pread %d %u 9223372036854775%u\n", fd(r), pick(r, 3) * 4,
				800 + pick(r, 8));
		else
			fprintf(f, "pread %d %u %u\n", fd(r), chance(r, 8) ? 0 : 8, pick(r, 12));
	} else if (k < 305) {
		fprintf(f, "ftruncate %d %s\n", fd(r), chance(r, 10) ? "-1" : chance(r, 5) ?
			"9223372036854775807" : pick(r, 2) ? "0" : "4000");
	} else if (k < 315) {
		static const char *const big[] = { "9223372036854775807", "-9223372036854775807",
						   "2147483648" };

		if (chance(r, 15))
			fprintf(f, "lseek %d %s %d\n", fd(r), big[pick(r, 3)], (int)pick(r, 5));
		else if (chance(r, 20))
			fprintf(f, "lseek %d 0 SEEK_CUR\n", fd(r));  /* where did it leave us? */
		else
			fprintf(f, "lseek %d %d %d\n", fd(r), (int)pick(r, 20) - 2, (int)pick(r, 5));
	} else if (k < 410) {
		static const char *const rf[] = { "0", "0", "RENAME_NOREPLACE", "RENAME_EXCHANGE",
						  "RENAME_WHITEOUT", "RENAME_NOREPLACE|RENAME_WHITEOUT",
						  "RENAME_EXCHANGE|RENAME_NOREPLACE", "8" };
		char qa[310], qb[310];

		P(a);
		P(b);
		quoted(qa, sizeof(qa), a);
		quoted(qb, sizeof(qb), b);
		fprintf(f, "renameat2 AT_FDCWD %s AT_FDCWD %s %s\n", qa, qb, rf[pick(r, 8)]);
	} else if (k < 470) {
		static const char *const uf[] = { "0", "0", "AT_REMOVEDIR", "0x1" };

		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "unlinkat AT_FDCWD %s %s\n", b, uf[pick(r, 4)]);
	} else if (k < 560) {
		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "mkdirat AT_FDCWD %s 0%o\n", b, create_mode(r, 0755));
	} else if (k < 590) {
		static const char *const types[] = { "S_IFREG", "0", "S_IFSOCK", "S_IFCHR",
						     "S_IFDIR", "0170000" };
		unsigned t = pick(r, 6);

		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "mknodat AT_FDCWD %s %s|0%o 0\n", b, types[t],
			t == 3 && pick(r, 2) ? 0 : create_mode(r, t == 2 ? 0600 : 0644));
	} else if (k < 650) {
		char t[256], qt[300];

		switch (pick(r, 5)) {
		case 0: snprintf(t, sizeof(t), "nowhere"); break;
		case 1: snprintf(t, sizeof(t), "loop"); break;
		case 2: snprintf(t, sizeof(t), "../e"); break;
		default:
			gen_open = true;  /* a link is opened through, as a name is */
			P(t);
			gen_open = false;
			if (!t[0])
				snprintf(t, sizeof(t), "a");
			break;
		}
		quoted(qt, sizeof(qt), t);
		if (chance(r, 15))
			snprintf(a, sizeof(a), "loop");
		else
			P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "symlinkat %s AT_FDCWD %s\n", qt, b);
	} else if (k < 670) {
		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "readlinkat AT_FDCWD %s %u\n", b, pick(r, 4) ? 300 : 3);
	} else if (k < 710) {
		static const char *const lf[] = { "0", "AT_SYMLINK_FOLLOW", "AT_EMPTY_PATH", "0x4" };
		char qa[310], qb[310];
		unsigned which = pick(r, 4);

		P(b);
		quoted(qb, sizeof(qb), b);
		if (which == 2) {
			fprintf(f, "linkat %d \"\" AT_FDCWD %s AT_EMPTY_PATH\n", fd(r), qb);
		} else {
			P(a);
			quoted(qa, sizeof(qa), a);
			fprintf(f, "linkat AT_FDCWD %s AT_FDCWD %s %s\n", qa, qb, lf[which]);
		}
	} else if (k < 800) {
		static const char *const sf[] = { "0", "AT_SYMLINK_NOFOLLOW", "AT_EMPTY_PATH", "0x2" };

		if (chance(r, 15)) {
			fprintf(f, "fstat %d\n", fd(r));
		} else if (chance(r, 10)) {
			/* the empty path on a descriptor, with bits fstatat does not know */
			fprintf(f, "fstatat %d \"\" AT_EMPTY_PATH%s\n", fd(r),
				pick(r, 2) ? "|0x80000000" : "|AT_SYMLINK_NOFOLLOW");
		} else {
			gen_stat = true;
			P(a);
			gen_stat = false;
			quoted(b, sizeof(b), a);
			fprintf(f, "fstatat AT_FDCWD %s %s\n", b, sf[pick(r, 4)]);
		}
	} else if (k < 830) {
		static const char *const sizes[] = { "4096", "4096", "4096", "40", "10", "0",
						     "2147483648", "4294967396" };

		fprintf(f, "getdents64 %d %s\n", fd(r), sizes[chance(r, 10) ? 5 + pick(r, 3) :
							      pick(r, 5)]);
	} else if (k < 850) {
		static const char *const cd[] = { "d", "e", "d/f", "BACK" };
		const char *c = cd[pick(r, 4)];

		if (!strcmp(c, "BACK"))
			fprintf(f, "chdir BACK\n");
		else
			fprintf(f, "chdir %s\n", c);
	} else if (k < 855) {
		fprintf(f, "fchdir %d\n", fd(r));
	} else if (k < 860) {
		/* the creation mask, which every create after it applies (and forks copy) */
		static const unsigned masks[] = { 022, 0, 077, 027, 07777, 002, 010, 0777, 02 };

		fprintf(f, "umask 0%o\n", masks[pick(r, 9)]);
	} else if (k < 870) {
		fprintf(f, "getcwd %u\n", pick(r, 4) ? 512 : 4);
	} else if (k < 890) {
		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "fchmodat AT_FDCWD %s 0%o %s\n", b, pick(r, 07777),
			chance(r, 20) ? "AT_SYMLINK_NOFOLLOW" : "0");
	} else if (k < 905) {
		P(a);
		quoted(b, sizeof(b), a);
		fprintf(f, "fchownat AT_FDCWD %s %d %d %s\n", b, chance(r, 50) ? -1 : (int)pick(r, 3),
			chance(r, 50) ? -1 : (int)pick(r, 3), chance(r, 30) ? "AT_SYMLINK_NOFOLLOW" : "0");
	} else if (k < 915) {
		static const char *const tm[] = { "NULL", "1:UTIME_OMIT,2:UTIME_OMIT",
						  "1:UTIME_NOW,2:5", "1:-1,2:0" };

		if (chance(r, 20)) {
			/* the futimens form, O_PATH descriptors included */
			fprintf(f, "utimensat %d NULL %s 0\n", fd(r), tm[pick(r, 4)]);
		} else {
			P(a);
			quoted(b, sizeof(b), a);
			fprintf(f, "utimensat AT_FDCWD %s %s %s\n", b, tm[pick(r, 4)],
				chance(r, 20) ? "AT_SYMLINK_NOFOLLOW" : "0");
		}
	} else if (k < 930) {
		fprintf(f, "dup %d\n", fd(r));
	} else if (k < 945) {
		fprintf(f, "dup3 %d %d %s\n", fd(r), fd(r), chance(r, 30) ? "O_CLOEXEC" : "0");
	} else if (k < 965) {
		static const char *const cmd[] = { "F_GETFL", "F_GETFD", "F_SETFD 1", "F_DUPFD 3",
						   "F_SETFL O_APPEND", "F_DUPFD_CLOEXEC 0",
						   "F_SETFL O_ASYNC", "F_SETFL O_DIRECT",
						   "F_SETFL O_NONBLOCK|O_ASYNC", "F_DUPFD 4294967301",
						   "F_DUPFD -1" };

		fprintf(f, "fcntl %d %s\n", fd(r), cmd[chance(r, 25) ? 6 + pick(r, 5) : pick(r, 6)]);
	} else if (k < 968 && chance(r, 15)) {
		/* zero-length I/O on the file that has data, where the offset shows: an
		 * O_APPEND descriptor that has not written yet */
		fprintf(f, "openat AT_FDCWD a O_RDWR|O_APPEND%s\nwrite %d \"\"\nread %d 16\n",
			chance(r, 30) ? "|O_NONBLOCK" : "", fd(r), fd(r));
	} else if (k < 968 && chance(r, 30)) {
		/* O_CREAT finding someone else's file in a sticky world-writable directory
		 * (may_create_in_sticky); a socket, a device 0:0 or a regular file */
		static const char *const t[] = { "S_IFSOCK|0600", "S_IFCHR|0600", "S_IFREG|0644" };

		fprintf(f, "mkdirat AT_FDCWD d/t 0755\nfchmodat AT_FDCWD d/t 01777 0\n"
			   "mknodat AT_FDCWD d/t/o %s 0\nfchownat AT_FDCWD d/t/o %u %u 0\n"
			   "openat AT_FDCWD d/t/o O_CREAT|O_RDWR%s 0644\n", t[pick(r, 3)],
			pick(r, 3), pick(r, 3), chance(r, 30) ? "|O_EXCL" : "");
	} else if (k < 975) {
		/* a directory removed while it is the cwd and open: getcwd and getdents
		 * then say ENOENT; 1022 is the sequence's own directory */
		fprintf(f, "mkdirat AT_FDCWD d/g 0755\nchdir d/g\nopenat AT_FDCWD . O_RDONLY|O_DIRECTORY\n"
			   "unlinkat 1022 d/g AT_REMOVEDIR\ngetcwd 512\ngetdents64 %d 4096\n"
			   "fchdir %d\nchdir BACK\n", fd(r), fd(r));
	} else if (k < 978 && gen_mounted && !gen_as_user) {
		/* the second mount's life: read-only and back, alone or with its superblock,
		 * busy or lazy unmounts, a bind of a file, a move */
		static const char *const ops[] = {
			"mount2 NULL e NULL MS_REMOUNT|MS_BIND|MS_RDONLY NULL",
			"mount2 NULL e NULL MS_REMOUNT|MS_BIND NULL",
			"mount2 NULL e NULL MS_REMOUNT|MS_RDONLY NULL",
			"mount2 NULL e NULL MS_REMOUNT NULL",
			"umount2 e 0", "umount2 e MNT_DETACH", "umount2 d/f 0",
			"mount2 a e/a NULL MS_BIND NULL", "mount2 e d/f NULL MS_MOVE NULL",
			"mount2 d/f e NULL MS_BIND NULL",
		};

		unsigned which = pick(r, 10);

		if ((which == 2 || which == 3) && !gen_mounted_own_sb)
			which -= 2;  /* the mount's flags alone (see difftest_generate) */
		fprintf(f, "%s\n", ops[which]);
	} else if (k < 982 && !gen_no_root) {
		/* a second tmpfs on the sequence's directories, its cwd, or the root; a
		 * type nobody registered on places that exist or not */
		static const char *const where[] = { "d", "e", "d/f", ".", "/", "nowhere", "a",
						     "loop", "a/x" };

		if (chance(r, 20)) {
			/* onto /proc: fdinfo/N, which procfs marks dont_mount() (ENOENT) --
			 * a new tmpfs, a type nobody registered, a bind of a file or of a
			 * directory -- or fd/N, which the mount follows to the descriptor's
			 * file: a type nobody registered, a bind of a file (never a
			 * directory: one of /proc's, open there, would be covered for every
			 * later sequence of the batch) */
			static const char *const src[] = { "none", "none", "a", "d" };
			static const char *const type[] = { "tmpfs", "nosuchfs", "NULL", "NULL" };
			static const char *const flags[] = { "0", "0", "MS_BIND", "MS_BIND" };
			bool fdinfo = pick(r, 3);
			unsigned how = fdinfo ? pick(r, 4) : 1 + pick(r, 2);

			fprintf(f, "mount2 %s /proc/%s/%s/%u %s %s NULL\n", src[how],
				pick(r, 3) ? "self" : "1", fdinfo ? "fdinfo" : "fd", pick(r, 5),
				type[how], flags[how]);
		} else if (chance(r, 85))
			fprintf(f, "mount tmpfs %s\n", where[chance(r, 10) ? 4 : pick(r, 4)]);
		else
			fprintf(f, "mount nosuchfs %s\n", where[pick(r, 9)]);
	} else if (k < 990) {
		/* fsync and truncate of every kind of file, /proc's too */
		if (pick(r, 2)) {
			fprintf(f, "fsync %d\n", fd(r));
		} else {
			if (!gen_no_root && chance(r, 30))
				proc_path(r, a, sizeof(a));
			else
				P(a);
			quoted(b, sizeof(b), a);
			fprintf(f, "truncate %s %u\n", b, pick(r, 3) * 10);
		}
	} else {
		fprintf(f, "fdpath %d\n", fd(r));
	}
#undef P
}

char *difftest_generate(uint64_t seed, int steps, bool no_root)
{
	struct rng r = { seed * 0x2545f4914f6cdd1dull + 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	gen_no_root = no_root;
	gen_mounted = false;
	/* a few names to start from, so that early operations collide */
	fprintf(f, "mkdirat AT_FDCWD d 0755\nmkdirat AT_FDCWD e 0755\nmkdirat AT_FDCWD d/f 0755\n");
	fprintf(f, "openat AT_FDCWD a O_CREAT|O_RDWR 0644\nwrite 0 \"data\"\n");
	/* a second mount on e (a quarter of the sequences): a tmpfs of its own, a bind of
	 * d (one filesystem, two mounts: EXDEV between d and e all the same), or of d/f
	 * with what is mounted below it; names then cross mounts (EXDEV), stand on
	 * mount points (EBUSY), and a remount makes them read-only (EROFS) */
	if (!gen_no_root && chance(&r, 25)) {
		static const char *const second[] = { "none e tmpfs 0 NULL", "d e NULL MS_BIND NULL",
						      "d/f e NULL MS_BIND|MS_REC NULL",
						      "none e tmpfs MS_NOEXEC|MS_NOSYMFOLLOW mode=755" };

		unsigned k = pick(&r, 4);

		fprintf(f, "mount2 %s\n", second[k]);
		gen_mounted = true;
		/* a bind shares the batch's filesystem: remounting its superblock
		 * read-only would leave every later sequence of the batch read-only */
		gen_mounted_own_sb = k == 0 || k == 3;
	}
	/* users (a third of the sequences): the tree made shared — d a sticky
	 * world-writable directory like /tmp, e a user's own, d/f a group's, a another
	 * user's group-writable file — and from a random step on, one of four users
	 * (owner of e, member of group 100 by primary or supplementary group, other);
	 * difftest's trailer comes back with "asroot" */
	if (!gen_no_root && chance(&r, 33)) {
		static const char *const who[] = { "1000 100 200", "1001 100", "1002 200 100",
						   "1003 300" };
		int at = (int)pick(&r, (unsigned)steps + 1);

		fprintf(f, "fchmodat AT_FDCWD d 01777 0\nfchownat AT_FDCWD e 1000 100 0\n"
			   "fchownat AT_FDCWD d/f 0 100 0\nfchmodat AT_FDCWD d/f 02770 0\n"
			   "fchownat AT_FDCWD a 1001 100 0\nfchmodat AT_FDCWD a 0664 0\n");
		for (int i = 0; i < steps; i++) {
			if (i == at) {
				fprintf(f, "asuser %s\n", who[pick(&r, 4)]);
				gen_as_user = true;
			}
			emit_op(&r, f);
		}
		gen_as_user = false;
	} else {
		for (int i = 0; i < steps; i++)
			emit_op(&r, f);
	}
	/* every descriptor still open is shown, then closed */
	for (int i = 0; i < 8; i++)
		fprintf(f, "fdpath %d\n", i);
	fclose(f);
	return text;
}
