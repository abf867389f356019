/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * d_path.h - the names of paths (fs/d_path.c).  Called with ns_lock held, but for
 * d_path_rcu().
 */
#ifndef UVFS_D_PATH_H
#define UVFS_D_PATH_H

#include "mount.h"

/* What prepend_path() reached: the reader's root, another namespace root
 * ("unreachable"), or a dentry that left its mount ("escaped"). */
enum { PATH_REACHED_ROOT = 0, PATH_UNREACHABLE = 1, PATH_ESCAPED = 3 };

/* prepend_buffer: text is built backwards from buf + len; len < 0 means it no
 * longer fits, while still counting how much more it would need. */
struct prepend_buffer {
	char *buf;
	int len;
};

void prepend(struct prepend_buffer *b, const char *s, size_t n);
/* prepend_path(): "/a/b" of path seen from root into b; returns PATH_*. */
int prepend_path(const struct path *path, const struct path *root, struct prepend_buffer *b);

/*
 * d_path - the string /proc shows for path, as seen from root (the reader's root):
 * " (deleted)" appended for an unlinked dentry, paths outside root printed from the
 * namespace root.  Returns a pointer into buf (NUL-terminated) or ERR_PTR(-ENAMETOOLONG).
 */
/* d_path_sync - the path's filesystem brings its dentries up to date (->sync_paths):
 * before d_path(), which calls it, or a path made by hand (getcwd).  ns_lock, no walk
 * under way. */
void d_path_sync(const struct path *path);
char *d_path(const struct path *path, const struct path *root, char *buf, int buflen);
/* d_path_rcu - d_path inside an RCU read section without ns_lock: the caller checks
 * ns_seq before it trusts the result. */
char *d_path_rcu(const struct path *path, const struct path *root, char *buf, int buflen);

/* do_proc_readlink(): d_path into a PATH_MAX page, copied to buf without NUL and
 * truncated to bufsiz; returns the length or -ENAMETOOLONG/-ENOMEM. */
ssize_t readlink_path(const struct path *path, const struct path *root, char *buf,
		      size_t bufsiz);

/* dentry_path(): d's path inside its filesystem ("/" for its root), "//deleted"
 * after a removed one -- mountinfo's and statmount's root of a mount.  A pointer
 * into buf, or ERR_PTR(-ENAMETOOLONG). */
char *dentry_path(const struct dentry *d, char *buf, int buflen);

#endif /* UVFS_D_PATH_H */
