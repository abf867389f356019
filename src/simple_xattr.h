/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simple_xattr.h - extended attributes kept in memory for a filesystem that has no
 * store of its own (fs/xattr.c's simple_xattr_*, which tmpfs keeps per inode).
 *
 * Where the kernel's shmem_inode_info has a pointer to each inode's attributes, uvfs
 * keeps them in a table per superblock keyed by the inode, so that the many files
 * that have none pay nothing for the feature (struct memfs_inode stays 112 bytes);
 * an inode that has some carries I_XATTRS in i_state, so asking a file without any
 * (every write asks whether security.capability must go) costs one bit test.
 *
 * Locking: ns_lock, held by every caller; nothing here is read without it.
 */
#ifndef UVFS_SIMPLE_XATTR_H
#define UVFS_SIMPLE_XATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "inode.h"

struct simple_xattrs;

/* A superblock's attributes: inode -> its sorted list.  Zeroed is empty. */
struct simple_xattr_table {
	struct simple_xattrs **buckets;  /* chains; NULL until the first attribute */
	size_t nbuckets;                 /* a power of two, or 0 */
	size_t count;                    /* inodes with attributes */
};

/* simple_xattr_space(): what one attribute costs against tmpfs's inode space, the
 * same on every architecture ("40" for struct simple_xattr, as the kernel says) */
static inline size_t simple_xattr_space(const char *name, size_t size)
{
	return 40 + size + strlen(name);
}

/* simple_xattr_get(): the value of name: its length, copied into buf when size is
 * not 0; -ENODATA (none), -ERANGE (buf too small). */
ssize_t simple_xattr_get(const struct simple_xattr_table *t, const struct inode *inode,
			 const char *name, void *buf, size_t size);

/* simple_xattr_set(): value (size bytes) becomes name's, or with value NULL name goes;
 * XATTR_CREATE: -EEXIST if it exists, XATTR_REPLACE (and removal): -ENODATA if not.
 * *old_space is what the replaced or removed attribute cost (simple_xattr_space), 0
 * if none.  0, or -errno (-ENOMEM too) with nothing changed. */
int simple_xattr_set(struct simple_xattr_table *t, struct inode *inode, const char *name,
		     const void *value, size_t size, int flags, size_t *old_space);

/* simple_xattr_list(): the names, each NUL-terminated, in the order 6.18's tmpfs
 * lists them (descending byte order: its rbtree walked from rb_first() with the
 * comparison reversed); trusted.* only when trusted (CAP_SYS_ADMIN).  Their length,
 * copied into buf when size is not 0; -ERANGE. */
ssize_t simple_xattr_list(const struct simple_xattr_table *t, const struct inode *inode,
			  bool trusted, char *buf, size_t size);

/* simple_xattrs_free(): the inode is going; its attributes go.  What they cost
 * (simple_xattr_space summed). */
size_t simple_xattrs_free(struct simple_xattr_table *t, struct inode *inode);

/* The table itself, empty (every inode's attributes freed first). */
void simple_xattr_table_destroy(struct simple_xattr_table *t);

#endif /* UVFS_SIMPLE_XATTR_H */
