// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namespace.c - mounts (fs/namespace.c): the tree of (superblock, mountpoint) pairs.
 *
 * Locking: every mount field and uvfs.mounts are protected by uvfs.ns_lock.
 * A mount holds references on its root dentry, its mountpoint dentry and its parent
 * mount; paths hold references on their mount (mnt_count) and dentry.
 */
#include "dcache.h"
#include "inode.h"
#include "mount.h"

#include <urcu/rculist.h>

struct mount *lookup_mnt(struct uvfs *fs, const struct mount *parent,
			 const struct dentry *dentry)
{
	struct mount *m, *found = NULL;

	/* The last one mounted wins: mounts stack, the newest on top.  Safe without
	 * ns_lock inside an RCU read section too (namei_rcu.c): the list is added to
	 * with cds_list_add_tail_rcu and mounts are freed only by uvfs_free. */
	cds_list_for_each_entry_rcu(m, &fs->mounts, mnt_list)
		if (m->mnt_parent == parent && m->mnt_mountpoint == dentry && m != parent)
			found = m;
	return found;
}

struct mount *mnt_attach(struct uvfs *fs, struct super_block *sb, struct mount *parent,
			 struct dentry *mountpoint)
{
	struct mount *m = uvfs_zalloc(sizeof(*m));

	if (!m)
		return NULL;
	m->mnt_sb = sb;
	m->mnt_root = dget(sb->s_root);
	m->mnt_id = fs->next_mnt_id++;
	if (parent) {
		m->mnt_parent = parent;
		parent->mnt_count++;
		m->mnt_mountpoint = dget(mountpoint);
		mountpoint->d_flags |= DCACHE_MOUNTED;
	} else {
		m->mnt_parent = m;
		m->mnt_mountpoint = dget(sb->s_root);
	}
	/* namei_rcu.c walks this list without ns_lock */
	cds_list_add_tail_rcu(&m->mnt_list, &fs->mounts);
	return m;
}

/* Newest first, so that children go before their parents. */
void mnt_release_all(struct uvfs *fs)
{
	while (!cds_list_empty(&fs->mounts)) {
		struct mount *m = cds_list_entry(fs->mounts.prev, struct mount, mnt_list);

		cds_list_del(&m->mnt_list);
		if (m->mnt_parent != m) {
			m->mnt_mountpoint->d_flags &= ~DCACHE_MOUNTED;
			dput(m->mnt_mountpoint);
			m->mnt_parent->mnt_count--;
		} else {
			dput(m->mnt_mountpoint);
		}
		dput(m->mnt_root);
		sb_put(m->mnt_sb);
		free(m);
	}
}

#include "namei.h"
#include "task.h"

int uvfs_mount(struct uvfs_task *task, const char *fstype, const char *target,
	       unsigned long flags, uint64_t max_inodes, uint64_t max_bytes)
{
	struct uvfs *fs = task->fs;
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
	if (!fstype) {
		err = -EINVAL;
		goto put;
	}
	if (strcmp(fstype, "memfs") && strcmp(fstype, "tmpfs") && strcmp(fstype, "proc")) {
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
	err = -ENOMEM;
	if (!strcmp(fstype, "proc")) {
		sb = sb_new(fs, "proc");
		if (!sb)
			goto put;
		err = procfs_fill_super(sb);
	} else {
		sb = sb_new(fs, "tmpfs");
		if (!sb)
			goto put;
		err = memfs_fill_super(sb, max_inodes, max_bytes);
	}
	if (!err && !mnt_attach(fs, sb, mp.mnt, mp.dentry))
		err = -ENOMEM;
	if (err)
		sb_put(sb);
put:
	path_put(&mp);
out:
	task_leave(task);
	return err;
}
