/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fs.h - the filesystems uvfs has, as types to register (uvfs.c, the instance's
 * setup, is the only file that includes this).  Adding a filesystem is adding a
 * file here and one register_filesystem() call there.
 */
#ifndef UVFS_FS_H
#define UVFS_FS_H

#include "../inode.h"

extern const struct file_system_type memfs_fs_type;        /* "tmpfs" */
extern const struct file_system_type memfs_alias_fs_type;  /* "memfs" */
extern const struct file_system_type procfs_fs_type;       /* "proc" */
extern const struct file_system_type hostfs_fs_type;       /* "host" */

#endif /* UVFS_FS_H */
