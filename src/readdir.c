// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * readdir.c - getdents64 (fs/readdir.c: iterate_dir).
 *
 * Locking: the call takes ns_lock through task_enter() for its whole run.
 */
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
	else
		ret = f->f_op->iterate(f, buf, count > INT32_MAX ? INT32_MAX : count);
	task_leave(task);
	return ret;
}
