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
	 * ns_lock inside an RCU read section too (walk.c): the list is added to
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
		d_flags_set(mountpoint, DCACHE_MOUNTED);
	} else {
		m->mnt_parent = m;
		m->mnt_mountpoint = dget(sb->s_root);
	}
	/* walk.c walks this list without ns_lock */
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
			d_flags_clear(m->mnt_mountpoint, DCACHE_MOUNTED);
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
