/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * anon_inodes.h - files with no name (fs/anon_inodes.c): inotify's and the new mount
 * API's filesystem contexts, each opened on the inode of its kind in anon_inodefs, a
 * filesystem mounted nowhere; readlink of such a descriptor says "anon_inode:NAME".
 *
 * Locking: ns_lock (uvfs.anon_inodes, the inodes and dentries).
 */
#ifndef UVFS_ANON_INODES_H
#define UVFS_ANON_INODES_H

#include "mount.h"

/* The path a file of kind name ("inotify", "[fscontext]") is opened on, its inode's
 * operations iops (made at the first call of each kind: iops is that kind's for
 * good): 0 with *path filled (no reference taken: the instance holds them), or
 * -ENOMEM. */
int anon_inode_path(struct uvfs *fs, const char *name, const struct inode_operations *iops,
		    struct path *path);
/* Is inode one of anon_inodefs's?  (anon_inode_setattr(), Linux 6.15: a chmod,
 * chown or utimes of one is EOPNOTSUPP) */
bool is_anon_inode(const struct inode *inode);
/* uvfs_free: the filesystem and its inodes go */
void anon_inodes_exit(struct uvfs *fs);

#endif /* UVFS_ANON_INODES_H */
