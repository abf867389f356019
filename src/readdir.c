// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * readdir.c - getdents64 (fs/readdir.c: iterate_dir).
 *
 * Locking: the call takes ns_lock through task_enter() for its whole run.
 */
#include "fsnotify.h"
#include "inode.h"
#include "task.h"

ssize_t uvfs_getdents64(struct uvfs_task *task, int fd, void *buf, size_t count)
{
	struct file *f;
	ssize_t ret;

	task_enter(task);
	f = fdget(task, fd);
	if (!f || (f->f_mode & FMODE_PATH))
		ret = -EBADF;
	else if (!f->f_op || !f->f_op->iterate)
		ret = -ENOTDIR;
	else if (f->f_path.dentry->d_flags & DCACHE_DIR_DEAD)
		ret = -ENOENT;  /* iterate_dir(): IS_DEADDIR before the filesystem is asked */
	else if (!buf) {
		/* filldir64() checks the room (EINVAL), then copies and faults (EFAULT)
		 * leaving the position alone; at the end nothing is copied (0) */
		char scratch[512];
		off_t pos = f->f_pos;
		unsigned int n = (int)(unsigned int)count < 0 ? 0 : (unsigned int)count;

		ret = f->f_op->iterate(f, scratch, n < sizeof(scratch) ? n : sizeof(scratch));
		f->f_pos = pos;
		if (ret > 0)
			ret = -EFAULT;
	} else {
		/* the system call's count is an unsigned int, kept in an int by filldir64():
		 * 2^31 and more is negative, and the first entry does not fit (EINVAL) */
		ret = f->f_op->iterate(f, buf, (int)(unsigned int)count < 0 ? 0 : (unsigned int)count);
	}
	/* iterate_dir(): fsnotify_access() whenever the directory was listed, the
	 * last empty listing and a filldir64() error too */
	if (f && !(f->f_mode & FMODE_PATH) && f->f_op && f->f_op->iterate &&
	    !(f->f_path.dentry->d_flags & DCACHE_DIR_DEAD))
		fsnotify_file(f, FS_ACCESS);
	task_leave(task);
	return ret;
}
