/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * attr.h - changing inode attributes (fs/attr.c, fs/open.c's do_truncate).
 * Called with ns_lock held.
 */
#ifndef UVFS_ATTR_H
#define UVFS_ATTR_H

#include "inode.h"

struct cred;
struct path;

/* do_truncate(): set a regular file's size; mtime and ctime change even when the
 * size does not (truncate, ftruncate and O_TRUNC alike, as 6.18 shows); set-user-ID
 * and set-group-ID go as file_remove_privs() says. */
int do_truncate(const struct cred *cred, struct dentry *d, off_t size);

/* inode_newsize_ok(): a size the file may grow to -- past the caller's RLIMIT_FSIZE
 * EFBIG and SIGXFSZ for the caller (task_send_sig()), past the largest file size
 * EFBIG; a size not above the file's is always fine.  0 or -EFBIG. */
int inode_newsize_ok(const struct cred *cred, const struct inode *inode, off_t size);

/* generic_write_check_limits()'s RLIMIT_FSIZE half, for a write of *count > 0 bytes
 * at pos of a regular file: at or past the caller's limit EFBIG and SIGXFSZ, else
 * *count cut to end at the limit.  0 or -EFBIG. */
int write_check_limits(const struct cred *cred, off_t pos, size_t *count);

/* file_remove_privs(): a write by cred to a regular file drops its set-user-ID bit,
 * and set-group-ID where it means execution (or the writer is outside the group),
 * unless cred has CAP_FSETID.  0 or -errno. */
int file_remove_privs(const struct cred *cred, struct dentry *d);

/* chmod_common() after its mnt_want_write(): mode (07777 of it) becomes the file's
 * as notify_change() allows, the ctime stamped.  0 or -errno. */
int chmod_common(const struct cred *cred, const struct path *path, mode_t mode);

/* security_inode_need_killpriv(): the inode has security.capability, which a write,
 * a truncate or a chown removes (src/xattr.c) */
bool inode_need_killpriv(struct inode *inode);
/* security_inode_killpriv(): remove it.  0 or -errno. */
int inode_killpriv(struct inode *inode);

#endif /* UVFS_ATTR_H */
