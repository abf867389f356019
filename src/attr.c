// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * attr.c - truncate, ftruncate, fchmodat, fchownat, utimensat (fs/open.c, fs/attr.c,
 * fs/utimes.c, and shmem_setattr for when times change).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include <signal.h>

#include "anon_inodes.h"
#include "attr.h"
#include "fsnotify.h"
#include "cred.h"
#include "permission.h"
#include "leases.h"
#include "namei.h"
#include "task.h"

/* setattr_should_drop_sgid(): set-group-ID means execution, or the caller is
 * neither in the group nor CAP_FSETID */
static unsigned int should_drop_sgid(const struct cred *cred, const struct inode *inode)
{
	if (!(inode->i_mode & S_ISGID))
		return 0;
	if ((inode->i_mode & S_IXGRP) || !in_group_or_capable(cred, inode->i_gid))
		return ATTR_KILL_SGID;
	return 0;
}

/* setattr_should_drop_suidgid(): what a write or truncate kills, unless CAP_FSETID */
static unsigned int should_remove_suid(const struct cred *cred, const struct inode *inode)
{
	unsigned int kill = (inode->i_mode & S_ISUID) ? ATTR_KILL_SUID : 0;

	kill |= should_drop_sgid(cred, inode);
	return kill && !cred_capable(cred, CAP_FSETID) && S_ISREG(inode->i_mode) ? kill : 0;
}

/* dentry_needs_remove_privs(): the set-ids as above, and a file capability, which
 * goes even for CAP_FSETID (security_inode_need_killpriv()) */
static unsigned int dentry_needs_remove_privs(const struct cred *cred, struct inode *inode)
{
	unsigned int kill = should_remove_suid(cred, inode);

	if (S_ISREG(inode->i_mode) && inode_need_killpriv(inode))
		kill |= ATTR_KILL_PRIV;
	return kill;
}

/* chown_ok(), chgrp_ok(): the owner keeps the owner and gives the file to a group
 * of theirs; CAP_CHOWN does anything */
static bool chown_ok(const struct cred *cred, const struct inode *inode, uid_t uid)
{
	return (cred->fsuid == inode->i_uid && uid == inode->i_uid) ||
	       cred_capable(cred, CAP_CHOWN);
}

static bool chgrp_ok(const struct cred *cred, const struct inode *inode, gid_t gid)
{
	return (cred->fsuid == inode->i_uid && (gid == inode->i_gid || in_group_p(cred, gid))) ||
	       cred_capable(cred, CAP_CHOWN);
}

/*
 * notify_change(), with the checks of may_setattr() and setattr_prepare() in their
 * order, and setattr_copy(): 0, or -errno with nothing changed.  An immutable inode
 * takes no new mode, owner or set times, nor "now" times (EPERM); "now" times need
 * the owner or write permission (EACCES); a killed set-user/group-ID bit becomes a
 * mode change, which (unless forced) only the owner may make; chown and chgrp as
 * chown_ok()/chgrp_ok() (EPERM); a mode change by one outside the file's (new) group
 * without CAP_FSETID loses set-group-ID.  The times are the caller's to set.
 */
static int notify_change(const struct cred *cred, struct dentry *d, struct iattr *attr)
{
	struct inode *inode = d->d_inode;
	unsigned int valid = attr->ia_valid;
	int err;

	/* security_inode_need_killpriv(): only a file with security.capability */
	if ((valid & ATTR_KILL_PRIV) && !inode_need_killpriv(inode))
		valid &= ~ATTR_KILL_PRIV;
	/* may_setattr() */
	if ((valid & (ATTR_MODE | ATTR_UID | ATTR_GID | ATTR_TIMES_SET)) &&
	    (IS_IMMUTABLE(inode) || IS_APPEND(inode)))
		return -EPERM;
	if (valid & ATTR_TOUCH) {
		if (IS_IMMUTABLE(inode))
			return -EPERM;
		if (!inode_owner_or_capable(cred, inode) &&
		    (err = inode_permission(cred, inode, MAY_WRITE)))
			return err;
	}
	/* the privilege kills become a mode change */
	if ((valid & ATTR_KILL_SUID) && (inode->i_mode & S_ISUID)) {
		valid |= ATTR_MODE;
		attr->ia_mode = inode->i_mode & ~S_ISUID;
	}
	if ((valid & ATTR_KILL_SGID) && (inode->i_mode & S_ISGID)) {
		if (!(valid & ATTR_MODE)) {
			valid |= ATTR_MODE;
			attr->ia_mode = inode->i_mode;
		}
		attr->ia_mode &= ~S_ISGID;
	}
	if (!(valid & ~(ATTR_KILL_SUID | ATTR_KILL_SGID | ATTR_FORCE)))
		return 0;
	/* anon_inode_setattr() (Linux 6.15): the filesystem's ->setattr refuses every
	 * change before setattr_prepare()'s checks, an owner's or not (an inotify
	 * descriptor's fchmod: EOPNOTSUPP, 6.18 checked) */
	if (is_anon_inode(inode))
		return -EOPNOTSUPP;
	/* setattr_prepare() */
	if (!(valid & ATTR_FORCE)) {
		if ((valid & ATTR_UID) && !chown_ok(cred, inode, attr->ia_uid))
			return -EPERM;
		if ((valid & ATTR_GID) && !chgrp_ok(cred, inode, attr->ia_gid))
			return -EPERM;
		if (valid & ATTR_MODE) {
			if (!inode_owner_or_capable(cred, inode))
				return -EPERM;
			if (!in_group_or_capable(cred, (valid & ATTR_GID) ? attr->ia_gid : inode->i_gid))
				attr->ia_mode &= ~S_ISGID;
		}
		if ((valid & ATTR_TIMES_SET) && !inode_owner_or_capable(cred, inode))
			return -EPERM;
	}
	/* the filesystem's say (procfs refuses modes) */
	if (inode->i_op->setattr && (err = inode->i_op->setattr(inode, valid)))
		return err;
	/* setattr_prepare()'s kill_priv: security_inode_killpriv() once the change is
	 * allowed (cap_inode_killpriv() removes security.capability) */
	if ((valid & ATTR_KILL_PRIV) && (err = inode_killpriv(inode)))
		return err;
	/* setattr_copy()'s mode: set-group-ID goes unless the caller is in the file's
	 * group (the new one) -- decided here so that a filesystem that commits the
	 * change elsewhere (hostfs) writes what the inode will hold */
	if (valid & ATTR_MODE) {
		attr->ia_mode &= 07777;
		if (!in_group_or_capable(cred, (valid & ATTR_GID) ? attr->ia_gid : inode->i_gid))
			attr->ia_mode &= ~S_ISGID;
	}
	attr->ia_valid = valid;
	if (inode->i_op->setattr_commit && (err = inode->i_op->setattr_commit(inode, attr)))
		return err;
	/* setattr_copy() */
	if (valid & ATTR_UID)
		inode->i_uid = attr->ia_uid;
	if (valid & ATTR_GID)
		inode->i_gid = attr->ia_gid;
	if (valid & ATTR_MODE)
		inode->i_mode = (inode->i_mode & S_IFMT) | attr->ia_mode;
	fsnotify_change(d, valid);
	return 0;
}

/* setattr_copy()'s ctime: now -- but a filesystem that commits the change elsewhere
 * (hostfs) has the ctime its host stamped, read back by the commit: a chown of a host
 * file that changes no id sends the host no inotify event that would refresh it */
static void setattr_ctime(struct inode *inode)
{
	if (!inode->i_op->setattr_commit)
		inode_set_ctime_current(inode);
}

int inode_newsize_ok(const struct cred *cred, const struct inode *inode, off_t size)
{
	unsigned long long limit = task_rlimit_fsize(cred);

	if (size <= inode->i_size)
		return 0;
	if (limit != UVFS_RLIM_INFINITY && (unsigned long long)size > limit) {
		task_send_sig(cred, SIGXFSZ);
		return -EFBIG;
	}
	return size > UVFS_MAX_FILESIZE ? -EFBIG : 0;
}

int write_check_limits(const struct cred *cred, off_t pos, size_t *count)
{
	unsigned long long limit = task_rlimit_fsize(cred);

	if (limit == UVFS_RLIM_INFINITY)
		return 0;
	if ((unsigned long long)pos >= limit) {
		task_send_sig(cred, SIGXFSZ);
		return -EFBIG;
	}
	if (*count > limit - (unsigned long long)pos)
		*count = (size_t)(limit - (unsigned long long)pos);
	return 0;
}

int do_truncate(const struct cred *cred, struct dentry *d, off_t size)
{
	struct inode *inode = d->d_inode;
	unsigned int kill = dentry_needs_remove_privs(cred, inode);
	struct iattr attr = { .ia_valid = ATTR_SIZE | ATTR_MTIME | ATTR_CTIME };
	int err;

	/* notify_change() -> setattr_prepare(): the size's constraints first */
	err = inode_newsize_ok(cred, inode, size);
	if (err)
		return err;
	/* "Remove suid, sgid, and file capabilities on truncate too" */
	if (kill)
		attr.ia_valid |= kill | ATTR_FORCE;
	err = notify_change(cred, d, &attr);
	/* a filesystem without a size to set takes the call and keeps its size, as
	 * procfs's proc_setattr() does (setattr_copy() copies no size); a host file is
	 * truncated even to its own size, so that the host removes what a truncate
	 * removes there (set-user-ID, security.capability: its do_truncate()) */
	if (!err && (size != inode->i_size || inode->i_op->setattr_commit) && inode->i_op->setsize)
		err = inode->i_op->setsize(inode, size);
	if (!err)
		inode_set_mctime_current(inode);  /* setattr: mtime = ctime = inode_set_ctime_current */
	return err;
}

int file_remove_privs(const struct cred *cred, struct dentry *d)
{
	struct inode *inode = d->d_inode;
	unsigned int kill;
	struct iattr attr;

	if (!S_ISREG(inode->i_mode) || !(kill = dentry_needs_remove_privs(cred, inode)))
		return 0;
	attr.ia_valid = kill | ATTR_FORCE;
	return notify_change(cred, d, &attr);
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
	else if (IS_APPEND(f->f_inode))
		err = -EPERM;  /* do_ftruncate() */
	else
		err = do_truncate(&task->cred, f->f_path.dentry, length);
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
	/* vfs_truncate(): the type, a read-only mount, write permission, an append-only
	 * file's EPERM, then a file some task runs is ETXTBSY, before EFBIG */
	if (S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (!S_ISREG(inode->i_mode))
		err = -EINVAL;
	else if (!(err = mnt_want_write(path.mnt)) &&
		 !(err = inode_permission(&task->cred, inode, MAY_WRITE)) &&
		 !(err = IS_APPEND(inode) ? -EPERM : 0) &&
		 !(err = get_write_access(inode))) {
		/* then break_lease(inode, O_WRONLY), before the truncation */
		err = break_lease(inode, O_WRONLY);
		if (!err)
			err = do_truncate(&task->cred, path.dentry, length);
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

int chmod_common(const struct cred *cred, const struct path *path, mode_t mode)
{
	struct inode *inode = path->dentry->d_inode;
	struct iattr attr = { .ia_valid = ATTR_MODE | ATTR_CTIME,
			      .ia_mode = (uint16_t)(mode & 07777) };
	int err = notify_change(cred, path->dentry, &attr);

	if (!err)
		setattr_ctime(inode);
	/* the walk's may_lookup() reads the directory's new mode from its flags */
	if (!err && S_ISDIR(inode->i_mode))
		d_update_search_check(path->dentry);
	return err;
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
	/* chmod_common(): a read-only mount first; a symlink's mode cannot change
	 * (fchmodat2 with AT_SYMLINK_NOFOLLOW: notify_change()'s EOPNOTSUPP) */
	err = mnt_want_write(path.mnt);
	if (err) {
		;
	} else if (S_ISLNK(inode->i_mode)) {
		err = -EOPNOTSUPP;
	} else {
		err = chmod_common(&task->cred, &path, mode);
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
	err = mnt_want_write(path.mnt);  /* do_fchownat(), before chown_common() */
	if (!err) {
		/* chown_common(): a non-directory loses set-user-ID, and set-group-ID as
		 * setattr_should_drop_sgid() says, even when root changes nothing */
		struct iattr attr = { .ia_valid = ATTR_CTIME, .ia_uid = owner, .ia_gid = group };

		if (owner != (uid_t)-1)
			attr.ia_valid |= ATTR_UID;
		if (group != (gid_t)-1)
			attr.ia_valid |= ATTR_GID;
		if (!S_ISDIR(inode->i_mode))
			attr.ia_valid |= ATTR_KILL_SUID | ATTR_KILL_PRIV |
					 should_drop_sgid(&task->cred, inode);
		err = notify_change(&task->cred, path.dentry, &attr);
		if (!err)
			setattr_ctime(inode);
	}
	path_put(&path);
out:
	task_leave(task);
	return err;
}

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec <= 999999999);
}

/* vfs_utimes(): what the call asks notify_change() to change.  Both "now" is a touch
 * (the owner, or write permission); anything else is a setting of times (the owner) */
static unsigned int utimes_valid(const struct timespec times[2])
{
	unsigned int valid = ATTR_CTIME | ATTR_MTIME | ATTR_ATIME;

	if (!times || (times[0].tv_nsec == UTIME_NOW && times[1].tv_nsec == UTIME_NOW))
		return valid | ATTR_TOUCH;
	for (int i = 0; i < 2; i++) {
		unsigned int t = i ? ATTR_MTIME : ATTR_ATIME, set = i ? ATTR_MTIME_SET : ATTR_ATIME_SET;

		if (times[i].tv_nsec == UTIME_OMIT)
			valid &= ~t;
		else if (times[i].tv_nsec != UTIME_NOW)
			valid |= set;
	}
	return valid | ATTR_TIMES_SET;
}

/* utimes_common(), setattr_copy_mgtime(): "now" is the new ctime */
static int set_times(const struct cred *cred, struct dentry *d, const struct timespec times[2])
{
	struct inode *inode = d->d_inode;
	struct iattr attr = { .ia_valid = utimes_valid(times),
			      .ia_times = { { .tv_nsec = UTIME_NOW }, { .tv_nsec = UTIME_NOW } } };
	struct timespec now;
	int err;

	if (times) {
		attr.ia_times[0] = times[0];
		attr.ia_times[1] = times[1];
	}

	if (times && times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
		return 0;
	err = notify_change(cred, d, &attr);
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
		else if (!(err = mnt_want_write(f->f_path.mnt)))
			err = set_times(&task->cred, f->f_path.dentry, times);
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
	/* vfs_utimes(): the nsec check, then a read-only mount */
	if (times && (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec)))
		err = -EINVAL;
	else if (!(err = mnt_want_write(path.mnt)))
		err = set_times(&task->cred, path.dentry, times);
	path_put(&path);
out:
	task_leave(task);
	return err;
}
