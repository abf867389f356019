// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * permission.c - generic_permission() and inode_permission() (fs/namei.c), decided as
 * Linux 6.18 decides them on an ACL-less tmpfs.  See permission.h for the locking.
 */
#include "permission.h"

/* acl_permission_check(): the owner class if the fsuid owns the inode, else the group
 * class if the group bits differ from the other bits in what is asked and the cred is
 * in the inode's group, else the other class. */
lockless_read
static int acl_permission_check(const struct cred *cred, const struct inode *inode,
				int mask)
{
	unsigned int mode = READ_ONCE(inode->i_mode);

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (cred->fsuid == READ_ONCE(inode->i_uid)) {
		mode >>= 6;
	} else if ((mask & (mode ^ (mode >> 3))) && in_group_p(cred, READ_ONCE(inode->i_gid))) {
		mode >>= 3;
	}
	return (mask & ~mode) ? -EACCES : 0;
}

lockless_read
int generic_permission(const struct cred *cred, const struct inode *inode, int mask)
{
	int err = acl_permission_check(cred, inode, mask);

	if (err != -EACCES)
		return err;
	if (S_ISDIR(READ_ONCE(inode->i_mode))) {
		/* DACs are overridable for directories: reading and searching by
		 * CAP_DAC_READ_SEARCH, everything by CAP_DAC_OVERRIDE */
		if (!(mask & MAY_WRITE) && cred_capable(cred, CAP_DAC_READ_SEARCH))
			return 0;
		return cred_capable(cred, CAP_DAC_OVERRIDE) ? 0 : -EACCES;
	}
	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (mask == MAY_READ && cred_capable(cred, CAP_DAC_READ_SEARCH))
		return 0;
	/* executing a file needs an x bit somewhere, even for root */
	if ((!(mask & MAY_EXEC) || (READ_ONCE(inode->i_mode) & 0111)) &&
	    cred_capable(cred, CAP_DAC_OVERRIDE))
		return 0;
	return -EACCES;
}

lockless_read
int __inode_permission(const struct cred *cred, struct inode *inode, int mask)
{
	const struct inode_operations *iop = READ_ONCE(inode->i_op);

	/* sb_permission(): nothing on a read-only superblock is written but devices,
	 * fifos and sockets (their writes go elsewhere) */
	if ((mask & MAY_WRITE) && inode->i_sb->s_readonly &&
	    (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) || S_ISLNK(inode->i_mode)))
		return -EROFS;
	if ((mask & MAY_WRITE) && IS_IMMUTABLE(inode))
		return -EPERM;  /* nobody writes an immutable file */
	if (iop->permission)
		return iop->permission(cred, inode, mask);
	return generic_permission(cred, inode, mask);
}
