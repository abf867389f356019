// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * read_write.c - read, write, pread, pwrite, lseek, fsync (fs/read_write.c, fs/sync.c).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run
 * (so f_pos needs no f_pos_lock, and a write is atomic against every other call).
 */
#include <unistd.h>

#include "inode.h"
#include "task.h"

/* MAX_RW_COUNT: one call moves at most INT_MAX rounded down to a page. */
#define MAX_RW_COUNT ((size_t)INT32_MAX & ~(size_t)(UVFS_PAGE_SIZE - 1))

/* fdget() of a file usable for I/O: O_PATH descriptors are EBADF here. */
static struct file *fdget_io(struct uvfs_task *task, int fd)
{
	struct file *f = fdget(task, fd);

	return f && !(f->f_mode & FMODE_PATH) ? f : NULL;
}

static bool can_pread(const struct file *f)
{
	return !S_ISFIFO(f->f_inode->i_mode);
}

static ssize_t vfs_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	if (!(f->f_mode & FMODE_READ))
		return -EBADF;
	if (S_ISDIR(f->f_inode->i_mode))
		return -EISDIR; /* generic_read_dir() */
	if (!f->f_op || !f->f_op->read)
		return -EINVAL;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	return f->f_op->read(f, buf, count, pos);
}

static ssize_t vfs_write(struct file *f, const void *buf, size_t count, off_t *pos)
{
	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!f->f_op || !f->f_op->write)
		return -EINVAL;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	/* O_APPEND: every write goes to the end, pwrite too (documented in pwrite(2)
	 * as a Linux bug, and kept by Linux). */
	if ((f->f_flags & O_APPEND) && S_ISREG(f->f_inode->i_mode))
		*pos = f->f_inode->i_size;
	return f->f_op->write(f, buf, count, pos);
}

ssize_t uvfs_read(struct uvfs_task *task, int fd, void *buf, size_t count)
{
	struct file *f;
	ssize_t ret;

	task_enter(task);
	f = fdget_io(task, fd);
	ret = f ? vfs_read(f, buf, count, &f->f_pos) : -EBADF;
	task_leave(task);
	return ret;
}

ssize_t uvfs_write(struct uvfs_task *task, int fd, const void *buf, size_t count)
{
	struct file *f;
	ssize_t ret;

	task_enter(task);
	f = fdget_io(task, fd);
	ret = f ? vfs_write(f, buf, count, &f->f_pos) : -EBADF;
	task_leave(task);
	return ret;
}

ssize_t uvfs_pread(struct uvfs_task *task, int fd, void *buf, size_t count, off_t offset)
{
	struct file *f;
	ssize_t ret;

	if (offset < 0)
		return -EINVAL;
	task_enter(task);
	f = fdget_io(task, fd);
	if (!f)
		ret = -EBADF;
	else if (!can_pread(f))
		ret = -ESPIPE;
	else
		ret = vfs_read(f, buf, count, &offset);
	task_leave(task);
	return ret;
}

ssize_t uvfs_pwrite(struct uvfs_task *task, int fd, const void *buf, size_t count,
		    off_t offset)
{
	struct file *f;
	ssize_t ret;

	if (offset < 0)
		return -EINVAL;
	task_enter(task);
	f = fdget_io(task, fd);
	if (!f)
		ret = -EBADF;
	else if (!can_pread(f))
		ret = -ESPIPE;
	else
		ret = vfs_write(f, buf, count, &offset);
	task_leave(task);
	return ret;
}

/* generic_file_llseek_size() for files, offset_dir_llseek() for tmpfs directories. */
static off_t vfs_llseek(struct file *f, off_t offset, int whence)
{
	struct inode *inode = f->f_inode;

	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode)) {
		switch (whence) {
		case SEEK_CUR:
			offset += f->f_pos;
			/* fallthrough */
		case SEEK_SET:
			if (offset >= 0)
				break;
			/* fallthrough */
		default:
			return -EINVAL;
		}
		f->f_pos = offset;
		return offset;
	}
	switch (whence) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		if (offset == 0)
			return f->f_pos;
		if (__builtin_add_overflow(offset, f->f_pos, &offset))
			return -EINVAL;
		break;
	case SEEK_END:
		if (__builtin_add_overflow(offset, inode->i_size, &offset))
			return -EINVAL;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		if (!f->f_op || !f->f_op->seek_data) {
			/* generic: the whole file is data, the hole is at EOF */
			if (offset < 0 || offset >= inode->i_size)
				return -ENXIO;
			if (whence == SEEK_HOLE)
				offset = inode->i_size;
			break;
		}
		offset = f->f_op->seek_data(f, offset, whence);
		if (offset < 0)
			return offset;
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	f->f_pos = offset;
	return offset;
}

off_t uvfs_lseek(struct uvfs_task *task, int fd, off_t offset, int whence)
{
	struct file *f;
	off_t ret;

	task_enter(task);
	f = fdget_io(task, fd);
	if (!f)
		ret = -EBADF;
	else if (whence < 0 || whence > SEEK_HOLE)
		ret = -EINVAL;
	else
		ret = vfs_llseek(f, offset, whence);
	task_leave(task);
	return ret;
}

int uvfs_fsync(struct uvfs_task *task, int fd)
{
	struct file *f;
	int ret = 0;

	task_enter(task);
	f = fdget_io(task, fd);
	if (!f)
		ret = -EBADF;
	else if (S_ISFIFO(f->f_inode->i_mode))
		ret = -EINVAL; /* pipefifo_fops has no ->fsync */
	task_leave(task);
	return ret;
}
