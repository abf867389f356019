// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fcntl.c - dup, dup3, fcntl (fs/file.c, fs/fcntl.c).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include "fsnotify.h"
#include "inode.h"
#include "leases.h"
#include "permission.h"
#include "task.h"

#ifndef O_NDELAY
#define O_NDELAY O_NONBLOCK
#endif
/* Linux 6.12's F_CREATED_QUERY (F_LINUX_SPECIFIC_BASE + 4): older headers lack it */
#ifndef F_CREATED_QUERY
#define F_CREATED_QUERY 1028
#endif
/* The flags F_SETFL may change (fs/fcntl.c); O_ASYNC only through ->fasync. */
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_NDELAY | O_DIRECT | O_NOATIME)

/* setfl() */
static int setfl(const struct cred *cred, struct file *f, unsigned int arg)
{
	unsigned int fop_flags = f->f_op ? f->f_op->fop_flags : 0;

	/* "O_APPEND cannot be cleared if the file is marked as append-only" */
	if (((arg ^ f->f_flags) & O_APPEND) && IS_APPEND(f->f_inode))
		return -EPERM;
	/* "O_NOATIME can only be set by the owner or superuser", before O_DIRECT's
	 * EINVAL */
	if ((arg & O_NOATIME) && !(f->f_flags & O_NOATIME) &&
	    !inode_owner_or_capable(cred, f->f_inode))
		return -EPERM;

	/* O_DIRECT needs FMODE_CAN_ODIRECT */
	if ((arg & O_DIRECT) && !(fop_flags & (FOP_ODIRECT | FOP_SETFL_ODIRECT)))
		return -EINVAL;
	/* "->fasync() is responsible for setting the FASYNC bit": a file without one
	 * (directories, tmpfs files) keeps whatever O_ASYNC it had, open's included */
	if (((arg ^ f->f_flags) & O_ASYNC) && (fop_flags & FOP_FASYNC))
		f->f_flags ^= O_ASYNC;
	f->f_flags = (arg & SETFL_MASK) | (f->f_flags & ~(unsigned int)SETFL_MASK);
	return 0;
}

int uvfs_dup(struct uvfs_task *task, int oldfd)
{
	struct file *f;
	int fd;

	task_enter(task);
	f = fdget(task, oldfd);
	if (!f) {
		fd = -EBADF;
	} else {
		fd = fd_alloc(task->fs, task->files, uvfs_fd_floor);
		if (fd >= 0)
			fd_install(task->files, (unsigned int)fd, get_file(f), false);
	}
	task_leave(task);
	return fd;
}

/* f at newfd, over whatever it holds (do_dup2()): newfd, or EBADF out of range,
 * EBUSY when an open still running has reserved it, ENOMEM when the table cannot
 * grow to it -- nothing changed then */
static int install_at(struct uvfs_task *task, int newfd, struct file *f, int flags)
{
	struct fdtable *t = task->files;

	if (newfd < 0 || (unsigned int)newfd >= t->max)
		return -EBADF;
	if ((unsigned int)newfd < t->size && !t->fd[newfd] &&
	    (t->cloexec[newfd] & FD_SLOT_RESERVED))
		return -EBUSY;
	/* make room for newfd: allocate before closing anything */
	if ((unsigned int)newfd >= t->size) {
		int err = fd_alloc(task->fs, t, (unsigned int)newfd);

		if (err < 0)
			return err;
	}
	fd_install(t, (unsigned int)newfd, get_file(f), flags & O_CLOEXEC);
	return newfd;
}

int uvfs_dup3(struct uvfs_task *task, int oldfd, int newfd, int flags)
{
	struct file *f;
	int err;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	task_enter(task);
	/* ksys_dup3(): newfd's range first, then oldfd */
	if (newfd < 0 || (unsigned int)newfd >= task->files->max) {
		err = -EBADF;
		goto out;
	}
	f = fdget(task, oldfd);
	if (!f) {
		err = -EBADF;
		goto out;
	}
	err = install_at(task, newfd, f, flags);
out:
	task_leave(task);
	return err;
}

int uvfs_fcntl(struct uvfs_task *task, int fd, int cmd, long arg)
{
	struct file *f;
	int ret;

	task_enter(task);
	f = fdget(task, fd);
	if (!f) {
		ret = -EBADF;
		goto out;
	}
	/* check_fcntl_cmd(): what an O_PATH descriptor may ask */
	if ((f->f_mode & FMODE_PATH) && cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC &&
	    cmd != F_GETFD && cmd != F_SETFD && cmd != F_GETFL && cmd != F_CREATED_QUERY) {
		ret = -EBADF;
		goto out;
	}
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		/* do_fcntl(): "int argi = (int)arg", then f_dupfd() takes it unsigned */
		if ((unsigned int)(int)arg >= task->files->max) {
			ret = -EINVAL;
			break;
		}
		ret = fd_alloc(task->fs, task->files, (unsigned int)(int)arg > uvfs_fd_floor ?
			       (unsigned int)(int)arg : uvfs_fd_floor);
		if (ret >= 0)
			fd_install(task->files, (unsigned int)ret, get_file(f), cmd == F_DUPFD_CLOEXEC);
		break;
	case F_GETFD:
		ret = task->files->cloexec[fd] ? FD_CLOEXEC : 0;
		break;
	case F_SETFD:
		task->files->cloexec[fd] = (arg & FD_CLOEXEC) != 0;
		ret = 0;
		break;
	case F_GETFL:
		ret = (int)f->f_flags;
		break;
	case F_CREATED_QUERY:
		/* f_created_query(): whether the open that made f created the file */
		ret = (f->f_mode & FMODE_CREATED) != 0;
		break;
	case F_SETFL:
		ret = setfl(&task->cred, f, (unsigned int)arg);
		break;
	case F_NOTIFY:
		ret = fcntl_dirnotify(task, fd, f, (unsigned long)arg);
		break;
	case F_SETSIG:
		/* valid_signal(): 0 (SIGIO again) to _NSIG */
		if ((unsigned long)(int)arg > 64) {
			ret = -EINVAL;
			break;
		}
		f->f_sig = (int)arg;
		ret = 0;
		break;
	case F_GETSIG:
		ret = f->f_sig;
		break;
	case F_SETLEASE:
		/* do_fcntl()'s "argi": the int of the argument */
		ret = fcntl_setlease(task, fd, f, (int)arg);
		break;
	case F_GETLEASE:
		ret = fcntl_getlease(f);
		break;
	default:
		ret = -EINVAL;
		break;
	}
out:
	task_leave(task);
	return ret;
}

/*
 * Open file descriptions held outside any table: what a runner carries from one task
 * to another when the program passes a descriptor (SCM_RIGHTS, pidfd_getfd), the
 * kernel's fget()/fd_install()/fput() -- receive_fd() installs the very file the
 * sender had, offset and access mode included.
 */
struct uvfs_file *uvfs_fget(struct uvfs_task *task, int fd)
{
	struct file *f;

	if (!task)
		return NULL;
	task_enter(task);
	f = fdget(task, fd);
	if (f)
		get_file(f);
	task_leave(task);
	return (struct uvfs_file *)f;
}

int uvfs_fd_install(struct uvfs_task *task, int newfd, struct uvfs_file *file, int flags)
{
	struct file *f = (struct file *)file;
	int err;

	if (!task || !f || (flags & ~O_CLOEXEC))
		return -EINVAL;
	/* the file's instance is fixed for its life: no lock needed to compare */
	if (f->f_inode->i_sb->s_fs != task->fs)
		return -EXDEV;
	task_enter(task);
	err = install_at(task, newfd, f, flags);
	task_leave(task);
	return err;
}

void uvfs_fput(struct uvfs_file *file)
{
	struct file *f = (struct file *)file;
	struct uvfs *fs;

	if (!f)
		return;
	fs = f->f_inode->i_sb->s_fs;
	uvfs_lock(fs);
	fput(f);  /* the last reference: ->release, as a close of the last descriptor */
	if (fs->shrink_pending)
		shrink_caches(fs);
	uvfs_unlock(fs);
}
