// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_times.c - multigrain timestamps and relatime, in every interleaving of clock
 * ticks.
 *
 * Whether a call changes a time depends, on Linux 6.13+, on where the coarse clock's
 * ticks fall between the calls: a read soon after a queried write is stamped with a
 * fine-grained atime and leaves the next read nothing to do; after a tick it is
 * stamped with the coarse time.  A test against the running kernel sees one
 * interleaving per run, chosen by the machine (tests/diff/times.sys is written so
 * that every interleaving prints the same).  Here a fake clock puts the ticks where
 * the test says, and every sequence of calls is run under every placement of ticks,
 * once through uvfs and once through a transcription of the kernel's decision
 * procedure, and the two must agree on which of atime, mtime and ctime each call
 * changed and on how the three then compare.
 *
 * The model below is written from the kernel, not from uvfs: fs/inode.c
 * (current_time, inode_set_ctime_current, atime_needs_update, relatime_need_update,
 * inode_needs_update_time, inode_update_timestamps), fs/attr.c (setattr_copy_mgtime),
 * fs/stat.c (fill_mg_cmtime) and kernel/time/timekeeping.c
 * (ktime_get_coarse_real_ts64_mg, ktime_get_real_ts64_mg), as of 6.18.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "file.h"
#include "inode.h"
#include "testutil.h"

/* ---------------------------------------------------------------------------------
 * The fake clock: tick k starts at BASE + k * TICK; every fine reading is a little
 * later than the last (the real time goes on), always before the next tick.
 */
#define BASE (INT64_C(1700000000) * 1000000000)
#define TICK INT64_C(4000000)          /* 4 ms: HZ=250 */

static int64_t clk_tick, clk_fine;   /* ticks so far; fine readings within this tick */

static struct timespec to_ts(int64_t ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

static int64_t coarse_ns(void) { return BASE + clk_tick * TICK; }
static int64_t fine_ns(void) { return coarse_ns() + 1000 * ++clk_fine; }
static void fake_coarse(struct timespec *ts) { *ts = to_ts(coarse_ns()); }
static void fake_fine(struct timespec *ts) { *ts = to_ts(fine_ns()); }
static const struct time_source fake_clock = { fake_coarse, fake_fine };

static void clock_reset(void)
{
	clk_tick = 0;
	clk_fine = 0;
}

static void clock_tick(void)
{
	clk_tick++;
	clk_fine = 0;
}

/* ---------------------------------------------------------------------------------
 * The kernel's rules, on a model inode (times in ns).
 */
struct kmodel {
	int64_t floor;                       /* timekeeping.c: mg_floor */
	int64_t atime, mtime, ctime;
	bool queried;                        /* I_CTIME_QUERIED */
};

/* ktime_get_coarse_real_ts64_mg() */
static int64_t k_coarse_mg(struct kmodel *k)
{
	return coarse_ns() > k->floor ? coarse_ns() : k->floor;
}

/* ktime_get_real_ts64_mg(): single-threaded, the cmpxchg always succeeds */
static int64_t k_fine_mg(struct kmodel *k)
{
	k->floor = fine_ns();
	return k->floor;
}

/* current_time(): compares the nanoseconds only */
static int64_t k_current_time(struct kmodel *k)
{
	int64_t now = k_coarse_mg(k);

	if (k->queried && now % 1000000000 == k->ctime % 1000000000)
		now = fine_ns();
	return now;
}

/* inode_set_ctime_current() */
static int64_t k_set_ctime_current(struct kmodel *k)
{
	int64_t now = k_coarse_mg(k);

	if (k->queried && now <= k->ctime)
		now = k_fine_mg(k);
	k->ctime = now;
	k->queried = false;
	return now;
}

/* A fifo's read and write stamp as a file's do (pipe.c calls the same functions as
 * memfs.c); tests/diff/times.sys compares a fifo with the kernel. */
enum op { OP_STAT, OP_WRITE, OP_READ, OP_CHMOD, OP_UTIMES, NR_OPS };
static const char *const op_name[NR_OPS] = { "stat", "write", "read", "chmod", "utimes" };

static void k_op(struct kmodel *k, enum op op)
{
	int64_t now;

	switch (op) {
	case OP_STAT:             /* fill_mg_cmtime() */
		k->queried = true;
		break;
	case OP_WRITE:            /* file_modified() -> file_update_time() */
		now = k_current_time(k);          /* inode_needs_update_time() */
		if (k->mtime == now && k->ctime == now)
			break;
		now = k_set_ctime_current(k);     /* inode_update_timestamps() */
		k->mtime = now;
		break;
	case OP_READ:             /* file_accessed() -> touch_atime() */
		now = k_current_time(k);          /* atime_needs_update() */
		if (!(k->mtime >= k->atime || k->ctime >= k->atime ||
		      (now - k->atime) / 1000000000 >= 24 * 60 * 60))
			break;
		if (k->atime == now)
			break;
		now = k_current_time(k);          /* inode_update_timestamps(S_ATIME) */
		if (k->atime != now)
			k->atime = now;
		break;
	case OP_CHMOD:            /* notify_change(ATTR_MODE|ATTR_CTIME) */
		k_set_ctime_current(k);
		break;
	case OP_UTIMES:           /* utimensat(NULL): ATTR_CTIME|ATTR_MTIME|ATTR_ATIME */
		now = k_set_ctime_current(k);     /* setattr_copy_mgtime() */
		k->atime = now;
		k->mtime = now;
		break;
	default:
		fail();
	}
}

/* ---------------------------------------------------------------------------------
 * The same calls through uvfs.
 */
struct utarget {
	struct uvfs_task *t;
	struct inode *file;
	int fd;
};

static void u_op(struct utarget *u, enum op op)
{
	struct stat st;
	char c = 'x';

	switch (op) {
	case OP_STAT:
		assert_int_equal(uvfs_fstat(u->t, u->fd, &st), 0);
		break;
	case OP_WRITE:
		assert_int_equal(uvfs_pwrite(u->t, u->fd, &c, 1, 0), 1);
		break;
	case OP_READ:
		assert_int_equal(uvfs_pread(u->t, u->fd, &c, 1, 0), 1);
		break;
	case OP_CHMOD:
		assert_int_equal(uvfs_fchmodat(u->t, AT_FDCWD, "/f", 0644, 0), 0);
		break;
	case OP_UTIMES:
		assert_int_equal(uvfs_utimensat(u->t, AT_FDCWD, "/f", NULL, 0), 0);
		break;
	default:
		fail();
	}
}

/* What a test against the kernel can see: which times a call changed, and how the
 * three compare afterwards (relatime's next decision depends on it). */
static unsigned int signature(int64_t a0, int64_t m0, int64_t c0, int64_t a, int64_t m, int64_t c)
{
	return (a != a0) | (m != m0) << 1 | (c != c0) << 2 | (a <= m) << 3 | (a <= c) << 4 |
	       (m <= c) << 5;
}

static int64_t ts_of(const struct inode *inode, enum inode_time t)
{
	struct timespec ts = inode_get_time(inode, t);

	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void set_all(struct inode *inode, int64_t ns)
{
	inode_set_time(inode, I_ATIME, to_ts(ns));
	inode_set_time(inode, I_MTIME, to_ts(ns));
	inode_set_time(inode, I_CTIME, to_ts(ns));   /* and not queried */
}

#define SEQ_LEN 6

static void describe(char *out, size_t n, const enum op *seq, unsigned int ticks)
{
	size_t len = 0;

	for (int i = 0; i < SEQ_LEN; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%s ", ticks >> i & 1 ? "tick " : "",
					op_name[seq[i]]);
}

static void test_every_interleaving(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct utarget u = { .t = uvfs_task_new(fs) };
	enum op seq[SEQ_LEN];
	long runs = 0, nseq = 1;

	(void)state;
	set_time_source(&fake_clock);
	u.fd = uvfs_openat(u.t, AT_FDCWD, "/f", O_CREAT | O_RDWR, 0644);
	assert_true(u.fd >= 0);
	assert_int_equal(uvfs_pwrite(u.t, u.fd, "abc", 3, 0), 3);
	u.file = fdget(u.t, u.fd)->f_inode;

	/* every sequence of SEQ_LEN calls, a tick before any subset of them */
	for (int i = 0; i < SEQ_LEN; i++)
		nseq *= NR_OPS;
	for (long code = 0; code < nseq; code++) {
		long c = code;

		for (int i = 0; i < SEQ_LEN; i++, c /= NR_OPS)
			seq[i] = (enum op)(c % NR_OPS);
		for (unsigned int ticks = 0; ticks < 1u << SEQ_LEN; ticks++) {
			struct kmodel k = { .atime = BASE, .mtime = BASE, .ctime = BASE };

			set_time_source(&fake_clock);   /* the floor back to 0 */
			clock_reset();
			set_all(u.file, BASE);
			for (int i = 0; i < SEQ_LEN; i++) {
				int64_t a0 = ts_of(u.file, I_ATIME), m0 = ts_of(u.file, I_MTIME);
				int64_t c0 = ts_of(u.file, I_CTIME);
				unsigned int us, ks;

				if (ticks >> i & 1)
					clock_tick();
				u_op(&u, seq[i]);
				us = signature(a0, m0, c0, ts_of(u.file, I_ATIME),
					       ts_of(u.file, I_MTIME), ts_of(u.file, I_CTIME));
				a0 = k.atime, m0 = k.mtime, c0 = k.ctime;
				/* the model reads the same clock after uvfs: its fine
				 * readings are later, in the same tick, which changes no
				 * comparison within one side */
				k_op(&k, seq[i]);
				ks = signature(a0, m0, c0, k.atime, k.mtime, k.ctime);
				if (us != ks) {
					char what[256];

					describe(what, sizeof(what), seq, ticks);
					fail_msg("%s: call %d (%s): uvfs %#x, kernel %#x", what, i,
						 op_name[seq[i]], us, ks);
				}
			}
			runs++;
		}
	}
	assert_int_equal(runs, nseq << SEQ_LEN);
	set_time_source(NULL);
	uvfs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_interleaving),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
