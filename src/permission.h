/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * permission.h - who may do what to an inode (fs/namei.c's generic_permission and
 * inode_permission, fs/attr.c's and fs/inode.c's owner checks), decided from a task's
 * cred as Linux 6.18 decides it on tmpfs: mode bits by owner, group and other class,
 * the capability overrides, no ACLs (an ACL-less tmpfs), no LSM.
 *
 * Locking: called under ns_lock, or from the lockless walk with MAY_NOT_BLOCK, where
 * it only reads (the inode's mode and ids, the walker's own cred) and the walk's
 * ns_seq check decides whether what it read counts.
 */
#ifndef UVFS_PERMISSION_H
#define UVFS_PERMISSION_H

#include "cred.h"
#include "inode.h"

/* generic_permission(): mask of MAY_READ/MAY_WRITE/MAY_EXEC against the mode class the
 * cred falls in, then CAP_DAC_READ_SEARCH and CAP_DAC_OVERRIDE.  0 or -EACCES. */
int generic_permission(const struct cred *cred, const struct inode *inode, int mask);

/* inode_permission(): MAY_WRITE of an immutable inode is EPERM; then the inode's
 * ->permission, or generic_permission().  0 or -errno. */
int __inode_permission(const struct cred *cred, struct inode *inode, int mask);

/* The commonest answer inline (every create, unlink and rename asks it at least
 * twice): the caller owns an inode without ->permission or immutability whose owner
 * bits allow the mask — what generic_permission() would say first. */
static inline int inode_permission(const struct cred *cred, struct inode *inode, int mask)
{
	if (likely(cred->fsuid == inode->i_uid) && likely(!inode->i_flags) &&
	    likely(!inode->i_op->permission) &&
	    likely(!(mask & MAY_WRITE) || !inode->i_sb->s_readonly) &&
	    !((mask & (MAY_READ | MAY_WRITE | MAY_EXEC)) & ~(inode->i_mode >> 6)))
		return 0;
	return __inode_permission(cred, inode, mask);
}

/* inode_owner_or_capable(): the fsuid owns it, or CAP_FOWNER. */
static inline bool inode_owner_or_capable(const struct cred *cred, const struct inode *inode)
{
	return cred->fsuid == inode->i_uid || cred_capable(cred, CAP_FOWNER);
}

/* in_group_or_capable(): may keep set-group-ID for gid */
static inline bool in_group_or_capable(const struct cred *cred, gid_t gid)
{
	return in_group_p(cred, gid) || cred_capable(cred, CAP_FSETID);
}

/* mode_strip_sgid(): a non-directory created set-group-ID and group-executable in a
 * set-group-ID directory (so it takes the directory's group) by one outside that group
 * without CAP_FSETID loses the bit (vfs_prepare_mode()) */
static inline mode_t mode_strip_sgid(const struct cred *cred, const struct inode *dir,
				     mode_t mode)
{
	if ((mode & (S_ISGID | S_IXGRP)) != (S_ISGID | S_IXGRP) || S_ISDIR(mode) ||
	    !(dir->i_mode & S_ISGID) || in_group_or_capable(cred, dir->i_gid))
		return mode;
	return mode & ~(mode_t)S_ISGID;
}

/* The mode says every class may search (all three x bits): generic_permission()
 * would say 0 to anyone, so the walk need not ask (the kernel's IOP_FASTPERM idea). */
static inline bool everyone_may_search(uint16_t mode)
{
	return (mode & 0111) == 0111;
}

#endif /* UVFS_PERMISSION_H */
