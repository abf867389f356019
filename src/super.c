// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * super.c - filesystem types (register_filesystem, get_fs_type: fs/filesystems.c)
 * and superblocks, one per mounted filesystem instance (mount_fs, sb_put).
 *
 * Locking: the type table (uvfs.fs_types) is written only while uvfs_new makes the
 * instance, and is immutable afterwards.  Superblock fields are immutable after
 * fill_super but s_next_ino, s_nr_inodes and s_count, which uvfs.ns_lock protects,
 * and SB_DYING in s_flags, set when the last mount goes (uvfs_free: no other call,
 * so no lockless walk, runs).
 */
#include <sys/sysmacros.h>

#include "fsnotify.h"
#include "dcache.h"
#include "ida.h"
#include "inode.h"
#include "mount.h"
#include "rcu_defer.h"


int register_filesystem(struct uvfs *fs, const struct file_system_type *type)
{
	if (fs->nr_fs_types == UVFS_MAX_FS_TYPES)
		return -EBUSY;
	fs->fs_types[fs->nr_fs_types++] = type;
	return 0;
}

const struct file_system_type *get_fs_type(const struct uvfs *fs, const char *name)
{
	for (int i = 0; i < fs->nr_fs_types; i++)
		if (!strcmp(fs->fs_types[i]->name, name))
			return fs->fs_types[i];
	return NULL;
}

void fs_types_task_gone(struct uvfs *fs, int pid)
{
	for (int i = 0; i < fs->nr_fs_types; i++)
		if (fs->fs_types[i]->task_gone)
			fs->fs_types[i]->task_gone(fs, pid);
}

struct super_block *mount_fs(struct uvfs *fs, const struct file_system_type *type,
			     const struct fs_mount_opts *opts)
{
	struct super_block *sb = uvfs_zalloc(sizeof(*sb));
	int err, minor;

	if (!sb)
		return ERR_PTR(-ENOMEM);
	/* Anonymous block devices are major 0, like tmpfs's, the lowest free minor
	 * (get_anon_bdev(); uvfs starts at 30, above what a booted host has taken) */
	minor = ida_alloc_min(&fs->anon_devs, 30);
	if (minor < 0) {
		free(sb);
		return ERR_PTR(-ENOMEM);
	}
	sb->s_fs = fs;
	sb->s_type = type;
	sb->s_dev = makedev(0, (unsigned int)minor);
	sb->s_next_ino = 1;
	sb->s_count = 1;
	err = type->fill_super(sb, opts);
	if (err) {
		sb_put(sb);
		return ERR_PTR(err);
	}
	return sb;
}

static void sb_free(struct uvfs *fs, void *obj)
{
	free(obj);
}

int sb_set_readonly(struct super_block *sb, bool ro)
{
	if (sb->s_op && sb->s_op->set_readonly && ro != sb->s_readonly) {
		int err = sb->s_op->set_readonly(sb, ro);

		if (err)
			return err;
	}
	WRITE_ONCE(sb->s_readonly, ro);
	return 0;
}

void sb_put(struct super_block *sb)
{
	if (--sb->s_count > 0)
		return;
	/* Every task and file is gone: the dentries hold the last inode references,
	 * and with SB_DYING each inode goes with its last dentry. */
	sb->s_flags |= SB_DYING;
	fsnotify_sb_delete(sb);  /* generic_shutdown_super() */
	if (sb->s_root) {
		d_release_tree(sb->s_root);
		sb->s_root = NULL;
	}
	assert(sb->s_nr_inodes == 0 && sb->s_remove_count == 0);
	ida_free(&sb->s_fs->anon_devs, (int)minor(sb->s_dev));  /* free_anon_bdev() */
	if (sb->s_op && sb->s_op->put_super)
		sb->s_op->put_super(sb);
	/* After its inodes' deferred frees, which still read s_op (rcu_defer.c runs
	 * them in order). */
	defer_free(sb->s_fs, sb, sb_free);
}

void shrink_caches(struct uvfs *fs)
{
	struct mount *m;

	assert(ns_locked(fs));
	fs->shrink_pending = false;
	cds_list_for_each_entry(m, &fs->mounts, mnt_list)
		if (m->mnt_sb->s_op->shrink)
			m->mnt_sb->s_op->shrink(m->mnt_sb);
}
