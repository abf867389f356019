// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * af_unix.c - the file-system half of unix sockets with a path: bind's socket file
 * and connect's lookup (net/unix/af_unix.c: unix_bind_bsd, unix_find_bsd).  The
 * socket is the kernel's; uvfs keeps the name, its inode and permissions, and the
 * filesystem keeps an O_PATH descriptor of the kernel's socket file, through which
 * the embedder connects (memfs: MI(inode)->sock_fd; hostfs: the host file itself).
 *
 * Locking: both entry points take ns_lock through task_enter() for their whole run;
 * the embedder's bind callback runs under it.
 */
#include "inode.h"
#include "mount.h"
#include "namei.h"
#include "task.h"

int uvfs_unix_bind(struct uvfs_task *task, int dirfd, const char *name, uvfs_unix_bind_fn bind,
		   void *arg)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	mode_t mode;
	int err;

	task_enter(task);
	d = filename_create(&nd, task, dirfd, name, false);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	/* unix_bind_bsd(): a new socket inode's mode is S_IRWXUGO (sock_alloc()), less
	 * the umask; vfs_mknod()'s may_create() */
	mode = S_IFSOCK | (0777 & ~task->fs_struct->umask);
	err = may_create(&task->cred, dir);
	if (!err) {
		if (dir->i_op->mksock)
			err = dir->i_op->mksock(dir, d, mode, task->cred.fsuid, task->cred.fsgid,
						bind, arg);
		else
			err = !dir->i_op->create ? -EPERM :
			      dir->i_op->create(dir, d, mode, 0, task->cred.fsuid, task->cred.fsgid);
	}
	dput(d);
	nd_done(&nd);
out:
	task_leave(task);
	/* unix_bind_bsd(): "if (err == -EEXIST) err = -EADDRINUSE;" */
	return err == -EEXIST ? -EADDRINUSE : err;
}

int uvfs_unix_find(struct uvfs_task *task, int dirfd, const char *name)
{
	struct inode *inode;
	struct path path;
	int err;

	task_enter(task);
	err = filename_lookup(task, dirfd, name, LOOKUP_FOLLOW, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	/* unix_find_bsd(): path_permission(MAY_WRITE), then a socket file with a
	 * socket bound to it, else ECONNREFUSED; the lookup touches atime */
	err = inode_permission(&task->cred, inode, MAY_WRITE);
	if (!err)
		err = !S_ISSOCK(inode->i_mode) || !inode->i_op->sock_fd ? -ECONNREFUSED :
		      inode->i_op->sock_fd(inode);
	if (err >= 0)
		touch_atime(&path);
	path_put(&path);
out:
	task_leave(task);
	return err;
}
