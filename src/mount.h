/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.h - mounts and paths.  A path is a (mount, dentry) pair, as in the kernel:
 * the same dentry seen through two mounts is two different places.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_MOUNT_H
#define UVFS_MOUNT_H

#include "dcache.h"
#include "internal.h"

struct super_block;

struct mount {
	struct mount *mnt_parent;        /* self for the namespace root */
	struct dentry *mnt_mountpoint;   /* in mnt_parent; holds a reference */
	struct dentry *mnt_root;         /* holds a reference; immutable */
	struct super_block *mnt_sb;      /* holds a reference; immutable */
	int mnt_id;                      /* immutable */
	long mnt_count;                  /* references from paths */
	struct cds_list_head mnt_list;   /* in uvfs.mounts */
};

struct path {
	struct mount *mnt;
	struct dentry *dentry;
};

/* path_get / path_put - a reference on both halves (inline: every walk takes one) */
static inline void path_get(const struct path *path)
{
	path->mnt->mnt_count++;
	dget(path->dentry);
}

static inline void path_put(struct path *path)
{
	if (!path->dentry)
		return;
	dput(path->dentry);
	path->mnt->mnt_count--;
	path->dentry = NULL;
	path->mnt = NULL;
}
static inline bool path_equal(const struct path *a, const struct path *b)
{
	return a->mnt == b->mnt && a->dentry == b->dentry;
}

/* The mount whose mountpoint is (parent, dentry), or NULL (lookup_mnt). */
struct mount *lookup_mnt(struct uvfs *fs, const struct mount *parent,
			 const struct dentry *dentry);
/* Mount sb on mountpoint (NULL parent: the namespace root). */
struct mount *mnt_attach(struct uvfs *fs, struct super_block *sb, struct mount *parent,
			 struct dentry *mountpoint);
/* Tear down every mount of the instance (uvfs_free). */
void mnt_release_all(struct uvfs *fs);

#endif /* UVFS_MOUNT_H */
