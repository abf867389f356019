// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * inode.c - generic inode life cycle and attributes.
 *
 * Locking: every inode field is protected by uvfs.ns_lock (see inode.h).
 * An inode is freed when its last reference goes and it has no links left (iput);
 * the filesystem's evict_inode frees its data then.  An unlinked file that is still
 * open therefore keeps its data until the last close, as on Linux.
 */
#include "inode.h"
#include "pipe.h"
#include "rcu_defer.h"
#include "slab.h"

#include <sys/sysmacros.h>

/* ---------------------------------------------------------------------------------
 * Multigrain timestamps (inode.h).  The kernel keeps its floor on the monotonic clock
 * so that a step of the wall clock cannot reorder stamps; this one is wall-clock
 * nanoseconds, process-wide (the kernel's is system-wide).  Deliberate difference
 * (docs/SEMANTICS.md), visible only across a clock step or between processes;
 * test_core's test_multigrain checks the ordering it keeps.
 *
 * The two clocks are read through time_source so that tests/test_times.c can put
 * ticks wherever it likes and compare every interleaving with the kernel's rules.
 */
static void host_coarse(struct timespec *ts) { clock_gettime(CLOCK_REALTIME_COARSE, ts); }
static void host_fine(struct timespec *ts) { clock_gettime(CLOCK_REALTIME, ts); }

static const struct time_source host_time = { .coarse = host_coarse, .fine = host_fine };
static const struct time_source *time_source = &host_time;
static _Atomic int64_t mg_floor;

void set_time_source(const struct time_source *src)
{
	time_source = src ? src : &host_time;
	atomic_store(&mg_floor, 0);
}

static int64_t ts_ns(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct timespec ns_ts(int64_t ns)
{
	return (struct timespec){ .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
}

static bool ts_le(struct timespec a, struct timespec b)
{
	return a.tv_sec < b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec <= b.tv_nsec);
}

static bool ts_eq(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* ktime_get_coarse_real_ts64_mg().  The coarse clock is read once a call (the
 * ns_lock holder keeps it, uvfs_lock() forgets it): a rename stamps four inodes, and
 * any instant within one call is the call's. */
struct timespec coarse_time(struct uvfs *fs)
{
	int64_t floor = atomic_load_explicit(&mg_floor, memory_order_relaxed);
	struct timespec c;

	if (fs->coarse_now_valid) {
		c = fs->coarse_now;
	} else {
		time_source->coarse(&c);
		fs->coarse_now = c;
		fs->coarse_now_valid = true;
	}
	return ts_ns(c) < floor ? ns_ts(floor) : c;
}

/* current_time() of 6.13+: the coarse time, unless the times were queried and its
 * nanoseconds are those of ctime ("no apparent change"): then the fine clock, which
 * is not made the floor.  relatime's decision and the atime it stores come from here,
 * so a read soon after a queried write gets a fine atime, later than mtime, and the
 * next read leaves it alone (tests/diff/times.sys; tests/test_times.c). */
struct timespec current_time(struct inode *inode)
{
	struct timespec now = coarse_time(inode->i_sb->s_fs);
	uint32_t cns = __atomic_load_n(&inode->i_nsec[I_CTIME], __ATOMIC_ACQUIRE);

	if ((cns & I_CTIME_QUERIED) && (uint32_t)now.tv_nsec == (cns & ~I_CTIME_QUERIED))
		time_source->fine(&now);
	return now;
}

/* ktime_get_real_ts64_mg(): a fine-grained time, which becomes the floor; if another
 * thread moved the floor meanwhile, its newer value is the answer */
static struct timespec fine_time(void)
{
	struct timespec now;
	int64_t n, old = atomic_load_explicit(&mg_floor, memory_order_relaxed);

	time_source->fine(&now);
	n = ts_ns(now);
	if (n <= old)
		return ns_ts(old);
	if (atomic_compare_exchange_strong(&mg_floor, &old, n))
		return now;
	return ns_ts(old);
}

/* inode_set_ctime_current() */
struct timespec inode_set_ctime_at(struct inode *inode, struct timespec *now)
{
	uint32_t cns = __atomic_load_n(&inode->i_nsec[I_CTIME], __ATOMIC_ACQUIRE);

	if (cns & I_CTIME_QUERIED) {
		struct timespec ctime = { .tv_sec = inode->i_sec[I_CTIME],
					  .tv_nsec = cns & ~I_CTIME_QUERIED };

		if (ts_le(*now, ctime))
			*now = fine_time();
	}
	inode_set_time(inode, I_CTIME, *now);
	return *now;
}

struct timespec inode_set_ctime_current(struct inode *inode)
{
	struct timespec now = coarse_time(inode->i_sb->s_fs);

	return inode_set_ctime_at(inode, &now);
}

void inode_set_mctime_at(struct inode *inode, struct timespec *now)
{
	inode_set_time(inode, I_MTIME, inode_set_ctime_at(inode, now));
}

struct inode *new_inode(struct super_block *sb, mode_t mode)
{
	struct inode *inode;

	if (!sb->s_inode_cache) {
		size_t size = sb->s_op->inode_size;

		sb->s_inode_cache = kmem_cache_get(sb->s_fs, size ? size : sizeof(*inode));
		if (!sb->s_inode_cache)
			return NULL;
	}
	inode = kmem_cache_zalloc(sb->s_inode_cache);
	if (!inode)
		return NULL;
	/* shmem_reserve_inode() with inode32: "Emulate get_next_ino uint wraparound" */
	if (sb->s_next_ino > UINT32_MAX)
		sb->s_next_ino = 1;
	inode->i_ino = (uint32_t)sb->s_next_ino++;
	inode->i_mode = (uint16_t)mode;
	inode->i_count = 1;
	inode->i_nlink = 1;
	inode->i_sb = sb;
	/* simple_inode_init_ts() */
	{
		struct timespec ts = inode_set_ctime_current(inode);

		inode_set_time(inode, I_ATIME, ts);
		inode_set_time(inode, I_MTIME, ts);
	}
	sb->s_nr_inodes++;
	STAT_ADD(sb->s_fs->stats.inodes, 1);
	sb->s_fs->live_inodes++;
	return inode;
}

/* After the grace period; the superblock is still there: its own free is deferred
 * behind its inodes' (sb_put). */
static void inode_free(struct uvfs *fs, void *obj)
{
	struct inode *inode = obj;

	if (inode->i_sb->s_op->free_inode)
		inode->i_sb->s_op->free_inode(inode);
	fs->live_inodes--;
	kmem_cache_free(inode);
}

static void destroy_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	if (inode->i_nlink == 0)
		sb->s_remove_count--;  /* __destroy_inode() */
	if (sb->s_op->evict_inode)
		sb->s_op->evict_inode(inode);
	if (S_ISFIFO(inode->i_mode)) {
		pipe_free(inode->i_pipe);
		inode->i_pipe = NULL;
	}
	sb->s_nr_inodes--;
	STAT_ADD(sb->s_fs->stats.inodes, -1);
	/* after a grace period: walk.c may be reading it */
	defer_free(sb->s_fs, inode, inode_free);
}

void iput(struct inode *inode)
{
	assert(ns_locked(inode->i_sb->s_fs));
	assert(inode->i_count > 0);
	if (--inode->i_count > 0)
		return;
	/* tmpfs (generic_delete_inode): an inode without links goes at last iput.
	 * One with links is kept alive by its dentry, so never gets here but at
	 * unmount, when the dentries' references are the last (SB_DYING). */
	if (inode->i_nlink == 0 || (inode->i_sb->s_flags & SB_DYING) ||
	    (inode->i_sb->s_op->drop_inode && inode->i_sb->s_op->drop_inode(inode)))
		destroy_inode(inode);
}

/* relatime (the default mount option), relatime_need_update(): update atime only if
 * it is not newer than mtime or ctime, or is a day old. */
static bool relatime_need_update(const struct inode *inode, struct timespec now)
{
	struct timespec a = inode_get_time(inode, I_ATIME);

	return ts_le(a, inode_get_time(inode, I_MTIME)) ||
	       ts_le(a, inode_get_time(inode, I_CTIME)) ||
	       now.tv_sec - a.tv_sec >= 24 * 60 * 60;
}

/* The day is checked on the coarse clock (a few ns against a fine read's tens on this
 * kind of VM), with a second to spare, so that most reads of a file read no fine
 * clock at all, and a lockless reader that gets false knows touch_atime would not
 * write. */
lockless_read
bool inode_atime_maybe_due(const struct inode *inode, enum atime_rule rule)
{
	struct timespec a = inode_get_time(inode, I_ATIME), now;

	if (rule != ATIME_RELATIME)
		return rule == ATIME_STRICT;
	if (ts_le(a, inode_get_time(inode, I_MTIME)) || ts_le(a, inode_get_time(inode, I_CTIME)))
		return true;
	time_source->coarse(&now);
	return now.tv_sec - a.tv_sec >= 24 * 60 * 60 - 1;
}

/* touch_atime(): atime_needs_update() decides on one current_time(), then
 * inode_update_timestamps() stores another (each may be a fine reading, see
 * current_time()). */
void inode_touch_atime(struct inode *inode, enum atime_rule rule)
{
	struct timespec now;

	if (!inode_atime_maybe_due(inode, rule))
		return;
	now = current_time(inode);
	if ((rule == ATIME_RELATIME && !relatime_need_update(inode, now)) ||
	    ts_eq(inode_get_time(inode, I_ATIME), now))
		return;
	now = current_time(inode);
	if (!ts_eq(inode_get_time(inode, I_ATIME), now))
		inode_set_time(inode, I_ATIME, now);
}

/* file_update_time(): inode_needs_update_time() compares mtime and ctime with
 * current_time(); only when one differs are they stamped (inode_set_ctime_current). */
void file_update_time(struct inode *inode)
{
	struct timespec now = current_time(inode);

	if (ts_eq(inode_get_time(inode, I_MTIME), now) && ts_eq(inode_get_time(inode, I_CTIME), now))
		return;
	inode_set_mctime_current(inode);
}

void inode_set_mctime(struct inode *inode, struct timespec ts)
{
	inode_set_time(inode, I_MTIME, ts);
	inode_set_time(inode, I_CTIME, ts);
}

void inode_set_mctime_current(struct inode *inode)
{
	inode_set_time(inode, I_MTIME, inode_set_ctime_current(inode));
}

lockless_read
void inode_fillattr(const struct inode *inode, struct stat *st)
{
	inode_fillattr_mask(inode, st, true);
}

lockless_read
void inode_fillattr_mask(const struct inode *inode, struct stat *st, bool query_times)
{
	/* fill_mg_cmtime(): the times are seen, the next stamp must show a change */
	uint32_t *cns = (uint32_t *)&inode->i_nsec[I_CTIME];

	if (query_times && !(__atomic_load_n(cns, __ATOMIC_RELAXED) & I_CTIME_QUERIED))
		__atomic_fetch_or(cns, I_CTIME_QUERIED, __ATOMIC_RELAXED);
	/* one store of the whole struct: the padding and glibc's reserved words are
	 * zeroed with the fields, not by a memset first */
	*st = (struct stat){
		.st_dev = inode->i_sb->s_dev,
		.st_ino = inode->i_ino,
		.st_mode = inode->i_mode,
		.st_nlink = inode->i_nlink,
		.st_uid = inode->i_uid,
		.st_gid = inode->i_gid,
		.st_rdev = S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) ? inode->i_rdev : 0,
		.st_size = inode->i_size,
		.st_blksize = UVFS_PAGE_SIZE,
		.st_blocks = inode->i_sb->s_op->blocks ? inode->i_sb->s_op->blocks(inode) : 0,
		.st_atim = inode_get_time(inode, I_ATIME),
		.st_mtim = query_times ? inode_get_time(inode, I_MTIME) : (struct timespec){ 0 },
		.st_ctim = query_times ? inode_get_time(inode, I_CTIME) : (struct timespec){ 0 },
	};
	if (inode->i_op->getattr)
		inode->i_op->getattr(inode, st);
}

unsigned char inode_dtype(mode_t mode)
{
	return (unsigned char)((mode & S_IFMT) >> 12); /* DT_* == S_IF* >> 12 */
}

/* linux_dirent64, as getdents64 fills it */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static size_t dirent_reclen(size_t namelen)
{
	return (offsetof(struct linux_dirent64, d_name) + namelen + 1 + 7) & ~(size_t)7;
}

bool dir_emit(void *buf, size_t count, size_t *used, const char *name, size_t len,
	      uint64_t ino, int64_t next, unsigned char type)
{
	size_t rl = dirent_reclen(len);
	struct linux_dirent64 *de = (void *)((char *)buf + *used);

	if (*used + rl > count)
		return false;
	de->d_ino = ino;
	de->d_off = next;
	de->d_reclen = (unsigned short)rl;
	de->d_type = type;
	memcpy(de->d_name, name, len);
	memset(de->d_name + len, 0, rl - offsetof(struct linux_dirent64, d_name) - len);
	*used += rl;
	return true;
}
