// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * super.c - superblocks: one per mounted filesystem instance.
 *
 * Locking: superblock fields are immutable after fill_super but s_next_ino,
 * s_nr_inodes and s_count, which uvfs.ns_lock protects, and SB_DYING in s_flags, set
 * when the last mount goes (uvfs_free: no other call, so no lockless walk, runs).
 */
#include <sys/sysmacros.h>

#include "dcache.h"
#include "inode.h"
#include "rcu_defer.h"


struct super_block *sb_new(struct uvfs *fs, const char *type)
{
	struct super_block *sb = uvfs_zalloc(sizeof(*sb));

	if (!sb)
		return NULL;
	sb->s_fs = fs;
	sb->s_type = type;
	/* Anonymous block devices are major 0, like tmpfs's (get_anon_bdev). */
	sb->s_dev = makedev(0, fs->next_dev++);
	sb->s_next_ino = 1;
	sb->s_count = 1;
	return sb;
}

static void sb_free(struct uvfs *fs, void *obj)
{
	free(obj);
}

void sb_put(struct super_block *sb)
{
	if (--sb->s_count > 0)
		return;
	/* Every task and file is gone: the dentries hold the last inode references,
	 * and with SB_DYING each inode goes with its last dentry. */
	sb->s_flags |= SB_DYING;
	if (sb->s_root) {
		d_release_tree(sb->s_root);
		sb->s_root = NULL;
	}
	assert(sb->s_nr_inodes == 0);
	if (sb->s_op && sb->s_op->put_super)
		sb->s_op->put_super(sb);
	/* After its inodes' deferred frees, which still read s_op (rcu_defer.c runs
	 * them in order). */
	defer_free(sb->s_fs, sb, sb_free);
}
