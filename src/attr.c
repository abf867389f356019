// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * attr.c - truncate, ftruncate, fchmodat, fchownat, utimensat (fs/open.c, fs/attr.c,
 * fs/utimes.c, and shmem_setattr for when times change).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include "attr.h"
#include "namei.h"
#include "task.h"

/*
 * notify_change()'s refusals and then the filesystem's ->setattr: 0, or -errno with
 * nothing changed.  An immutable inode takes no new mode, owner or set times
 * (EPERM), nor "now" times (setattr_prepare's ATTR_TOUCH).
 */
static int may_setattr(struct inode *inode, unsigned int ia_valid)
{
	if ((ia_valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_TIMES_SET | ATTR_TOUCH)) &&
	    IS_IMMUTABLE(inode))
		return -EPERM;
	return inode->i_op->setattr ? inode->i_op->setattr(inode, ia_valid) : 0;
}

int do_truncate(struct inode *inode, off_t size)
{
	int err;

	if (size > UVFS_MAX_FILESIZE)
		return -EFBIG;
	err = may_setattr(inode, ATTR_SIZE | ATTR_MTIME | ATTR_CTIME);
	/* a filesystem without a size to set takes the call and keeps its size, as
	 * procfs's proc_setattr() does (setattr_copy() copies no size) */
	if (!err && size != inode->i_size && inode->i_op->setsize)
		err = inode->i_op->setsize(inode, size);
	if (!err)
		inode_set_mctime_current(inode);  /* setattr: mtime = ctime = inode_set_ctime_current */
	return err;
}

int uvfs_ftruncate(struct uvfs_task *task, int fd, off_t length)
{
	struct file *f;
	int err;

	if (length < 0)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	if (!f || (f->f_mode & FMODE_PATH))
		err = -EBADF;
	else if (!S_ISREG(f->f_inode->i_mode) || !(f->f_mode & FMODE_WRITE))
		err = -EINVAL;
	else
		err = do_truncate(f->f_inode, length);
	task_leave(task);
	return err;
}

int uvfs_truncate(struct uvfs_task *task, const char *name, off_t length)
{
	struct path path;
	struct inode *inode;
	int err;

	if (length < 0)
		return -EINVAL;
	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, name, LOOKUP_FOLLOW, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	if (S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (!S_ISREG(inode->i_mode))
		err = -EINVAL;
	else if (!(err = get_write_access(inode))) {
		/* vfs_truncate(): a file some task runs is ETXTBSY, before EFBIG */
		err = do_truncate(inode, length);
		put_write_access(inode);
	}
	path_put(&path);
out:
	task_leave(task);
	return err;
}

/* The object of an *at() call that may name dirfd itself with AT_EMPTY_PATH. */
static int attr_lookup(struct uvfs_task *task, int dfd, const char *name, int flags,
		       struct path *path)
{
	unsigned int lf = (flags & AT_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;

	if (flags & AT_EMPTY_PATH)
		lf |= LOOKUP_EMPTY;
	return filename_lookup(task, dfd, name, lf, path);
}

int uvfs_fchmodat(struct uvfs_task *task, int dirfd, const char *name, mode_t mode,
		  int flags)
{
	struct path path;
	struct inode *inode;
	int err;

	/* fchmodat2() (6.6); plain fchmodat is flags == 0. */
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	task_enter(task);
	err = attr_lookup(task, dirfd, name, flags, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	/* A symlink's mode cannot change (fchmodat2 with AT_SYMLINK_NOFOLLOW). */
	err = S_ISLNK(inode->i_mode) ? -EOPNOTSUPP : may_setattr(inode, ATTR_MODE | ATTR_CTIME);
	if (!err) {
		inode->i_mode = (inode->i_mode & S_IFMT) | (mode & 07777);
		inode_set_ctime_current(inode);
	}
	path_put(&path);
out:
	task_leave(task);
	return err;
}

int uvfs_fchownat(struct uvfs_task *task, int dirfd, const char *name, uid_t owner,
		  gid_t group, int flags)
{
	struct path path;
	struct inode *inode;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	task_enter(task);
	err = attr_lookup(task, dirfd, name, flags, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	err = may_setattr(inode, ATTR_CTIME | (owner != (uid_t)-1 ? ATTR_UID : 0) |
				 (group != (gid_t)-1 ? ATTR_GID : 0));
	if (err)
		goto put;
	if (owner != (uid_t)-1)
		inode->i_uid = owner;
	if (group != (gid_t)-1)
		inode->i_gid = group;
	/* chown_common(): a non-directory loses set-user-ID, and set-group-ID when it
	 * is group-executable (otherwise S_ISGID marks mandatory locking), even when
	 * root changes nothing. */
	if (!S_ISDIR(inode->i_mode)) {
		inode->i_mode &= ~(mode_t)S_ISUID;
		if ((inode->i_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			inode->i_mode &= ~(mode_t)S_ISGID;
	}
	inode_set_ctime_current(inode);
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec <= 999999999);
}

/* vfs_utimes(): what the call asks notify_change() to change */
static unsigned int utimes_valid(const struct timespec times[2])
{
	unsigned int valid = ATTR_CTIME | ATTR_MTIME | ATTR_ATIME;

	if (!times || (times[0].tv_nsec == UTIME_NOW && times[1].tv_nsec == UTIME_NOW))
		return valid | ATTR_TOUCH;
	for (int i = 0; i < 2; i++) {
		unsigned int t = i ? ATTR_MTIME : ATTR_ATIME, set = i ? ATTR_MTIME_SET : ATTR_ATIME_SET;

		if (times[i].tv_nsec == UTIME_OMIT)
			valid &= ~t;
		else if (times[i].tv_nsec == UTIME_NOW)
			valid |= ATTR_TOUCH;
		else
			valid |= set;
	}
	return valid;
}

/* utimes_common(), setattr_copy_mgtime(): "now" is the new ctime */
static int set_times(struct inode *inode, const struct timespec times[2])
{
	struct timespec now;
	int err;

	if (times && times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
		return 0;
	err = may_setattr(inode, utimes_valid(times));
	if (err)
		return err;
	now = inode_set_ctime_current(inode);
	if (!times || times[0].tv_nsec == UTIME_NOW)
		inode_set_time(inode, I_ATIME, now);
	else if (times[0].tv_nsec != UTIME_OMIT)
		inode_set_time(inode, I_ATIME, times[0]);
	if (!times || times[1].tv_nsec == UTIME_NOW)
		inode_set_time(inode, I_MTIME, now);
	else if (times[1].tv_nsec != UTIME_OMIT)
		inode_set_time(inode, I_MTIME, times[1]);
	return 0;
}

int uvfs_utimensat(struct uvfs_task *task, int dirfd, const char *name,
		   const struct timespec times[2], int flags)
{
	struct path path;
	int err = 0;

	/* sys_utimensat(): "Nothing to do, we must not even check the path." — before
	 * the nsec, flags and path checks (found by the difftest, seed 9). */
	if (times && times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
		return 0;
	task_enter(task);
	if (!name && dirfd != AT_FDCWD) {
		/* do_utimes_fd(): no flags allowed. */
		struct file *f = fdget(task, dirfd);

		if (flags)
			err = -EINVAL;
		else if (!f || (f->f_mode & FMODE_PATH))
			err = -EBADF;  /* fdget() does not give O_PATH files */
		else if (times && (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec)))
			err = -EINVAL;
		else
			err = set_times(f->f_inode, times);
		goto out;
	}
	/* do_utimes_path(): flags, then the walk, then vfs_utimes()'s nsec check. */
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH)) {
		err = -EINVAL;
		goto out;
	}
	err = attr_lookup(task, dirfd, name, flags, &path);
	if (err)
		goto out;
	if (times && (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec)))
		err = -EINVAL;
	else
		err = set_times(path.dentry->d_inode, times);
	path_put(&path);
out:
	task_leave(task);
	return err;
}
