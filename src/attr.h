/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * attr.h - changing inode attributes (fs/attr.c, fs/open.c's do_truncate).
 * Called with ns_lock held.
 */
#ifndef UVFS_ATTR_H
#define UVFS_ATTR_H

#include "inode.h"

/* do_truncate(): set a regular file's size; mtime and ctime change even when the
 * size does not (truncate, ftruncate and O_TRUNC alike, as 6.18 shows). */
int do_truncate(struct inode *inode, off_t size);

#endif /* UVFS_ATTR_H */
