// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * link.c - the namespace calls that add or remove one name: mkdirat, mknodat,
 * symlinkat, linkat, unlinkat (fs/namei.c: do_mkdirat, do_mknodat, do_symlinkat,
 * do_linkat, do_rmdir, do_unlinkat; may_delete is namei.c's).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include "fsnotify.h"
#include "inode.h"
#include "namei.h"
#include "task.h"

/* vfs_mkdir(): d, negative, in dir becomes a directory of mode less the umask */
int vfs_mkdir(struct uvfs_task *task, struct inode *dir, struct dentry *d, mode_t mode)
{
	int err = may_create(&task->cred, dir);

	if (!err)
		err = dir->i_op->mkdir ? dir->i_op->mkdir(dir, d, (mode & 01777) & ~task->fs_struct->umask,
							 task->cred.fsuid, task->cred.fsgid)
				       : -EPERM;
	if (!err)
		fsnotify_create(dir, d);  /* fsnotify_mkdir() */
	return err;
}

int uvfs_mkdirat(struct uvfs_task *task, int dirfd, const char *name, mode_t mode)
{
	struct nameidata nd;
	struct dentry *d;
	int err;

	task_enter(task);
	d = filename_create(&nd, task, dirfd, name, true);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	err = vfs_mkdir(task, nd.path.dentry->d_inode, d, mode);
	dput(d);
	nd_done(&nd);
out:
	task_leave(task);
	return err;
}

/* may_mknod() */
static int may_mknod(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
	case 0: /* zero mode translates to S_IFREG */
		return 0;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
}

int uvfs_mknodat(struct uvfs_task *task, int dirfd, const char *name, mode_t mode, dev_t dev)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = may_mknod(mode);

	if (err)
		return err;
	if (!(mode & S_IFMT))
		mode |= S_IFREG;
	task_enter(task);
	d = filename_create(&nd, task, dirfd, name, false);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	/* Only devices keep their number. */
	if (!S_ISCHR(mode) && !S_ISBLK(mode))
		dev = 0;
	/* vfs_mknod(): may_create(); a device needs CAP_MKNOD unless it is a whiteout
	 * (char 0:0, unprivileged since 5.8); no ->mknod is EPERM */
	err = may_create(&task->cred, dir);
	if (!err && (S_ISCHR(mode) || S_ISBLK(mode)) && !(S_ISCHR(mode) && dev == 0) &&
	    !cred_capable(&task->cred, CAP_MKNOD))
		err = -EPERM;
	if (!err)
		err = !dir->i_op->create ? -EPERM :
		      dir->i_op->create(dir, d, (mode & S_IFMT) |
					(mode_strip_sgid(&task->cred, dir, mode & 07777) & ~task->fs_struct->umask),
					dev, task->cred.fsuid, task->cred.fsgid);
	if (!err)
		fsnotify_create(dir, d);
	dput(d);
	nd_done(&nd);
out:
	task_leave(task);
	return err;
}

int uvfs_symlinkat(struct uvfs_task *task, const char *target, int newdirfd,
		   const char *linkpath)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = getname_check(target, false);

	if (err < 0)
		return err;
	task_enter(task);
	d = filename_create(&nd, task, newdirfd, linkpath, false);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	/* vfs_symlink() */
	err = may_create(&task->cred, dir);
	if (!err)
		err = !dir->i_op->symlink ? -EPERM :
		      dir->i_op->symlink(dir, d, target, task->cred.fsuid, task->cred.fsgid);
	if (!err)
		fsnotify_create(dir, d);
	dput(d);
	nd_done(&nd);
out:
	task_leave(task);
	return err;
}

/*
 * may_linkat(): with fs.protected_hardlinks (the host's value), only the file's owner
 * (or CAP_FOWNER) may link a file that is not a safe source: a regular file, not
 * setuid, not setgid-and-group-executable, that the caller may read and write
 * (safe_hardlink_source()).  EPERM.
 */
static int may_linkat(struct uvfs_task *task, struct inode *inode)
{
	const struct cred *cred = &task->cred;
	uint16_t mode = inode->i_mode;

	if (!task->fs->protected_hardlinks || inode_owner_or_capable(cred, inode))
		return 0;
	if (S_ISREG(mode) && !(mode & S_ISUID) &&
	    (mode & (S_ISGID | S_IXGRP)) != (S_ISGID | S_IXGRP) &&
	    !inode_permission(cred, inode, MAY_READ | MAY_WRITE))
		return 0;
	return -EPERM;
}

int uvfs_linkat(struct uvfs_task *task, int olddirfd, const char *oldpath, int newdirfd,
		const char *newpath, int flags)
{
	struct nameidata nd;
	struct path old;
	struct dentry *d;
	struct inode *dir, *inode;
	unsigned int how = 0;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_FOLLOW)
		how |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		how |= LOOKUP_EMPTY;
	task_enter(task);
	/* path_init()'s LOOKUP_LINKAT_EMPTY (6.10+): a walk that starts at olddirfd's file
	 * needs that file opened with the caller's very cred (no change of ids since,
	 * not inherited through a fork), or CAP_DAC_READ_SEARCH — ENOENT, after EBADF */
	if ((flags & AT_EMPTY_PATH) && olddirfd != AT_FDCWD && oldpath && oldpath[0] != '/' &&
	    getname_check(oldpath, true) >= 0) {
		struct file *f = fdget(task, olddirfd);

		if (f && f->f_cred_id != task->cred_id &&
		    !cred_capable(&task->cred, CAP_DAC_READ_SEARCH)) {
			err = -ENOENT;
			goto out;
		}
	}
	err = filename_lookup(task, olddirfd, oldpath, how, &old);
	if (err)
		goto out;
	d = filename_create(&nd, task, newdirfd, newpath, false);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto put_old;
	}
	dir = nd.path.dentry->d_inode;
	inode = old.dentry->d_inode;
	if (old.mnt != nd.path.mnt || inode->i_sb != dir->i_sb)
		err = -EXDEV;
	else if ((err = may_linkat(task, inode)) || (err = may_create(&task->cred, dir)))
		;
	else if (IS_APPEND(inode) || IS_IMMUTABLE(inode))
		err = -EPERM;
	else if (S_ISDIR(inode->i_mode) || !dir->i_op->link)
		err = -EPERM;
	else if (inode->i_nlink == 0 && !(inode->i_state & I_LINKABLE))
		err = -ENOENT; /* no resurrection of an unlinked file */
	else
		err = dir->i_op->link(old.dentry, dir, d);
	if (!err) {
		inode->i_state &= ~I_LINKABLE;
		fsnotify_link(dir, inode, d);
	}
	dput(d);
	nd_done(&nd);
put_old:
	path_put(&old);
out:
	task_leave(task);
	return err;
}

/* is_local_mountpoint(): a mount point of the caller's namespace is EBUSY; one of
 * another namespace only is not (3.18), and its mounts go with the name */
static bool is_mountpoint(const struct uvfs_task *task, const struct dentry *d)
{
	return is_local_mountpoint(task->fs, task->mnt_ns, d);
}

static int do_rmdir(struct uvfs_task *task, int dfd, const char *name)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = path_parentat(&nd, task, dfd, name, 0);

	if (err)
		return err;
	switch (nd.last_type) {
	case LAST_DOTDOT:
		err = -ENOTEMPTY;
		goto out;
	case LAST_DOT:
		err = -EINVAL;
		goto out;
	case LAST_ROOT:
		err = -EBUSY;
		goto out;
	case LAST_NORM:
		break;
	}
	err = mnt_want_write(nd.path.mnt);  /* before the lookup: EROFS over ENOENT */
	if (err)
		goto out;
	d = nd_lookup_last(&nd);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	err = may_delete(&task->cred, nd.path.dentry, d, true);
	if (!err && !dir->i_op->rmdir)
		err = -EPERM;
	if (!err && is_mountpoint(task, d))
		err = -EBUSY;
	if (!err)
		err = dir->i_op->rmdir(dir, d);
	if (!err) {
		d_mark_dead_dir(d);  /* vfs_rmdir(): S_DEAD */
		detach_mounts(task->fs, d);
		fsnotify_d_delete(dir, d, d->d_inode);  /* d_delete_notify() */
	}
	dput(d);
out:
	nd_done(&nd);
	return err;
}

static int do_unlinkat(struct uvfs_task *task, int dfd, const char *name)
{
	struct nameidata nd;
	struct dentry *d;
	struct inode *dir;
	int err = path_parentat(&nd, task, dfd, name, 0);

	if (err)
		return err;
	if (nd.last_type != LAST_NORM) {
		err = -EISDIR;
		goto out;
	}
	err = mnt_want_write(nd.path.mnt);  /* before the lookup: EROFS over ENOENT */
	if (err)
		goto out;
	d = nd_lookup_last(&nd);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	if (d_is_negative(d))
		err = -ENOENT;
	else if (nd.last_slash)
		err = S_ISDIR(d->d_inode->i_mode) ? -EISDIR : -ENOTDIR;
	else
		err = may_delete(&task->cred, nd.path.dentry, d, false);
	if (!err && !dir->i_op->unlink)
		err = -EPERM;
	if (!err && is_mountpoint(task, d))
		err = -EBUSY;
	if (!err)
		err = dir->i_op->unlink(dir, d);
	if (!err) {
		detach_mounts(task->fs, d);
		/* vfs_unlink(): fsnotify_link_count(), then d_delete_notify() */
		fsnotify_link_count(d->d_inode);
		fsnotify_d_delete(dir, d, d->d_inode);
	}
	dput(d);
out:
	nd_done(&nd);
	return err;
}

int uvfs_unlinkat(struct uvfs_task *task, int dirfd, const char *path, int flags)
{
	int err;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	task_enter(task);
	err = (flags & AT_REMOVEDIR) ? do_rmdir(task, dirfd, path)
				     : do_unlinkat(task, dirfd, path);
	task_leave(task);
	return err;
}
