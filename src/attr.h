/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * attr.h - changing inode attributes (fs/attr.c, fs/open.c's do_truncate).
 * Called with ns_lock held.
 */
#ifndef UVFS_ATTR_H
#define UVFS_ATTR_H

#include "inode.h"

/* do_truncate(): set a regular file's size.  set_times is ATTR_MTIME|ATTR_CTIME
 * (ftruncate, O_TRUNC): times change even when the size does not. */
int do_truncate(struct inode *inode, off_t size, bool set_times);

#endif /* UVFS_ATTR_H */
