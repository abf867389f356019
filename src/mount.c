// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mount.c - mount(2): the target's walk, the type from the registry (get_fs_type),
 * a new superblock (mount_fs), attached on the target (fs/namespace.c's do_mount,
 * do_new_mount).
 *
 * Locking: the call takes ns_lock through task_enter() for its whole run.
 */
#include "mount.h"
#include "namei.h"
#include "task.h"

int uvfs_mount(struct uvfs_task *task, const char *fstype, const char *target,
	       unsigned long flags, uint64_t max_inodes, uint64_t max_bytes)
{
	struct uvfs *fs = task->fs;
	const struct fs_mount_opts opts = { max_inodes, max_bytes };
	const struct file_system_type *type;
	struct super_block *sb;
	struct path mp;
	int err;

	if (flags)
		return -EINVAL;
	task_enter(task);
	/* do_mount(): the target's walk first, then do_new_mount()'s type (EINVAL for
	 * none, ENODEV for one nobody registered), then the place (graft_tree: ENOTDIR;
	 * lock_mount: ENOENT for a removed directory) */
	err = filename_lookup(task, AT_FDCWD, target, LOOKUP_FOLLOW, &mp);
	if (err)
		goto out;
	/* path_mount(): may_mount() after the walk */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN)) {
		err = -EPERM;
		goto put;
	}
	if (!fstype) {
		err = -EINVAL;
		goto put;
	}
	type = get_fs_type(fs, fstype);
	if (!type) {
		err = -ENODEV;
		goto put;
	}
	if (!S_ISDIR(mp.dentry->d_inode->i_mode)) {
		err = -ENOTDIR;
		goto put;
	}
	if (d_unlinked(mp.dentry)) {
		err = -ENOENT;
		goto put;
	}
	sb = mount_fs(fs, type, &opts);
	if (IS_ERR(sb)) {
		err = (int)PTR_ERR(sb);
		goto put;
	}
	if (!mnt_attach(fs, sb, mp.mnt, mp.dentry)) {
		err = -ENOMEM;
		sb_put(sb);
	}
put:
	path_put(&mp);
out:
	task_leave(task);
	return err;
}
