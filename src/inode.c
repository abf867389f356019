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

struct timespec uvfs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts;
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
	inode->i_ino = sb->s_next_ino++;
	inode->i_mode = mode;
	inode->i_count = 1;
	inode->i_sb = sb;
	inode->i_atime = inode->i_mtime = inode->i_ctime = uvfs_now();
	cds_list_add(&inode->i_sb_list, &sb->s_inodes);
	atomic_fetch_add(&sb->s_fs->stats.inodes, 1);
	atomic_fetch_add(&uvfs_live.inodes, 1);
	return inode;
}

/* After the grace period; the superblock is still there: its own free is deferred
 * behind its inodes' (sb_put). */
static void inode_free(struct uvfs *fs, void *obj)
{
	struct inode *inode = obj;

	if (inode->i_sb->s_op->free_inode)
		inode->i_sb->s_op->free_inode(inode);
	atomic_fetch_sub(&uvfs_live.inodes, 1);
	kmem_cache_free(inode);
}

static void destroy_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	if (sb->s_op->evict_inode)
		sb->s_op->evict_inode(inode);
	pipe_free(inode->i_pipe);
	inode->i_pipe = NULL;
	cds_list_del(&inode->i_sb_list);
	atomic_fetch_sub(&sb->s_fs->stats.inodes, 1);
	/* after a grace period: namei_rcu.c may be reading it */
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
	 * unmount, when the superblock frees it. */
	if (inode->i_nlink == 0 ||
	    (inode->i_sb->s_op->drop_inode && inode->i_sb->s_op->drop_inode(inode)))
		destroy_inode(inode);
}

/* Unmount: free every inode left (still linked into the tree). */
void sb_evict_all(struct super_block *sb)
{
	while (!cds_list_empty(&sb->s_inodes))
		destroy_inode(cds_list_first_entry(&sb->s_inodes, struct inode, i_sb_list));
}

/* relatime (the default mount option): update atime only if it is not newer than
 * mtime or ctime, or is a day old (relatime_need_update()). */
void inode_touch_atime(struct inode *inode)
{
	struct timespec now = uvfs_now();
	const struct timespec *a = &inode->i_atime;

#define TS_LE(x, y) ((x)->tv_sec < (y)->tv_sec || \
		     ((x)->tv_sec == (y)->tv_sec && (x)->tv_nsec <= (y)->tv_nsec))
	if (TS_LE(a, &inode->i_mtime) || TS_LE(a, &inode->i_ctime) ||
	    now.tv_sec - a->tv_sec >= 24 * 60 * 60)
		inode->i_atime = now;
#undef TS_LE
}

void inode_touch_dir(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = uvfs_now();
}

void inode_fillattr(const struct inode *inode, struct stat *st)
{
	/* one store of the whole struct: the padding and glibc's reserved words are
	 * zeroed with the fields, not by a memset first */
	*st = (struct stat){
		.st_dev = inode->i_sb->s_dev,
		.st_ino = inode->i_ino,
		.st_mode = inode->i_mode,
		.st_nlink = inode->i_nlink,
		.st_uid = inode->i_uid,
		.st_gid = inode->i_gid,
		.st_rdev = inode->i_rdev,
		.st_size = inode->i_size,
		.st_blksize = UVFS_PAGE_SIZE,
		.st_blocks = inode->i_sb->s_op->blocks ? inode->i_sb->s_op->blocks(inode) : 0,
		.st_atim = inode->i_atime,
		.st_mtim = inode->i_mtime,
		.st_ctim = inode->i_ctime,
	};
}

unsigned char inode_dtype(mode_t mode)
{
	return (unsigned char)((mode & S_IFMT) >> 12); /* DT_* == S_IF* >> 12 */
}
