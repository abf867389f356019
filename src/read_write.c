// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * read_write.c - read, write, pread, pwrite, lseek, fsync, fallocate (fs/read_write.c,
 * fs/sync.c, fs/open.c's vfs_fallocate).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run
 * (so f_pos needs no f_pos_lock, and a write is atomic against every other call).
 */
#include <unistd.h>

#include "attr.h"
#include "fsnotify.h"
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

/* FMODE_PREAD / FMODE_PWRITE: streams (fifos) have neither, seq_files no
 * FMODE_PWRITE (seq_open(); pread works, tests/regress/proc-seq-and-dir-positions.sys). */
static bool can_pread(const struct file *f)
{
	return !S_ISFIFO(f->f_inode->i_mode) && !(f->f_op && (f->f_op->fop_flags & FOP_PSEUDO));
}

static bool can_pwrite(const struct file *f)
{
	return can_pread(f) && !(f->f_op && (f->f_op->fop_flags & FOP_SEQ));
}

/* access_ok(): the buffer lies below the top of the user half of the address space
 * (x86-64 with 4-level page tables: TASK_SIZE_MAX), else EFAULT before anything —
 * a count of (size_t)-1 is EFAULT, not EINVAL.  A NULL buffer passes here and faults
 * at the copy, as on Linux. */
#define USER_TOP ((uintptr_t)0x7ffffffff000)
static bool access_ok(const void *buf, size_t count)
{
	return count <= USER_TOP && (uintptr_t)buf <= USER_TOP - count;
}

/* rw_verify_area(): a count beyond SSIZE_MAX, or a position + count beyond
 * LLONG_MAX, is EINVAL before anything moves (streams have no position to check). */
static int rw_verify_area(const struct file *f, const off_t *pos, size_t count)
{
	off_t end;

	if ((ssize_t)count < 0)
		return -EINVAL;
	if (pos && !S_ISFIFO(f->f_inode->i_mode) &&
	    (*pos < 0 || __builtin_add_overflow(*pos, (off_t)count, &end)))
		return -EINVAL;
	return 0;
}

static ssize_t vfs_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	ssize_t ret;
	int err;

	if (!(f->f_mode & FMODE_READ))
		return -EBADF;
	/* FMODE_CAN_READ: a directory has one, generic_read_dir(), which says EISDIR
	 * only after rw_verify_area() (difftest seed 1718) */
	if (!S_ISDIR(f->f_inode->i_mode) && (!f->f_op || !f->f_op->read))
		return -EINVAL;
	if (!access_ok(buf, count))
		return -EFAULT;
	err = rw_verify_area(f, pos, count);
	if (err)
		return err;
	if (S_ISDIR(f->f_inode->i_mode))
		return -EISDIR;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	ret = f->f_op->read(f, buf, count, pos);
	if (ret > 0)
		fsnotify_file(f, FS_ACCESS);  /* vfs_read(): fsnotify_access() */
	return ret;
}

static ssize_t vfs_write(const struct cred *cred, struct file *f, const void *buf, size_t count,
			 off_t *pos)
{
	off_t p = *pos;
	ssize_t ret;
	int err;

	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!f->f_op || !f->f_op->write)
		return -EINVAL;
	if (!access_ok(buf, count))
		return -EFAULT;
	err = rw_verify_area(f, pos, count);
	if (err)
		return err;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	/* O_APPEND: every write goes to the end, pwrite too (documented in pwrite(2)
	 * as a Linux bug, and kept by Linux) — but generic_write_checks() returns for a
	 * count of 0 before it moves the position, so an empty write moves nothing. */
	if ((f->f_flags & O_APPEND) && S_ISREG(f->f_inode->i_mode) && count)
		p = f->f_inode->i_size;
	/* generic_write_checks() of a regular file (memfs's and hostfs's write_iter
	 * make them): RLIMIT_FSIZE before the largest file size, which ->write checks */
	if (count && S_ISREG(f->f_inode->i_mode)) {
		err = write_check_limits(cred, p, &count);
		if (err)
			return err;
	}
	/* shmem_file_write_iter(): after generic_write_checks() let the write through,
	 * file_remove_privs() */
	if (count && p < UVFS_MAX_FILESIZE) {
		err = file_remove_privs(cred, f->f_path.dentry);
		if (err)
			return err;
	}
	/* new_sync_write(): the position moves only when bytes were written, so an
	 * O_APPEND write that fails (EFBIG at 2^63 - 1) leaves it where it was
	 * (tests/regress/append-efbig-keeps-offset.sys, difftest seed 20830490) */
	ret = f->f_op->write(f, buf, count, &p);
	if (ret > 0) {
		*pos = p;
		fsnotify_file(f, FS_MODIFY);  /* vfs_write(): fsnotify_modify() */
	}
	return ret;
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
	ret = f ? vfs_write(&task->cred, f, buf, count, &f->f_pos) : -EBADF;
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
		ret = -ESPIPE;  /* ksys_pread64(): before vfs_read's EBADF for the mode */
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
	else if (!can_pwrite(f))
		ret = -ESPIPE;
	else
		ret = vfs_write(&task->cred, f, buf, count, &offset);
	task_leave(task);
	return ret;
}

/* offset_dir_llseek(): a tmpfs directory's position is an entry's index. */
static off_t offset_dir_llseek(struct file *f, off_t offset, int whence)
{
	switch (whence) {
	case SEEK_CUR:
		if (__builtin_add_overflow(offset, f->f_pos, &offset))
			return -EINVAL;
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

/* seq_lseek(): only SEEK_SET and SEEK_CUR, to a position not below 0. */
static off_t seq_lseek(struct file *f, off_t offset, int whence)
{
	if (whence == SEEK_CUR && __builtin_add_overflow(offset, f->f_pos, &offset))
		return -EINVAL;
	if ((whence != SEEK_SET && whence != SEEK_CUR) || offset < 0)
		return -EINVAL;
	f->f_pos = offset;
	return offset;
}

/* generic_file_llseek_size() for files and procfs's directories (whose size is 0:
 * SEEK_END is the offset itself, SEEK_DATA ENXIO), offset_dir_llseek() for tmpfs
 * directories, seq_lseek() for seq_files. */
static off_t vfs_llseek(struct file *f, off_t offset, int whence)
{
	struct inode *inode = f->f_inode;
	unsigned int fop_flags = f->f_op ? f->f_op->fop_flags : 0;

	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (f->f_op && f->f_op->llseek)
		return f->f_op->llseek(f, offset, whence);
	if (fop_flags & FOP_OFFSET_DIR)
		return offset_dir_llseek(f, offset, whence);
	if (fop_flags & FOP_SEQ)
		return seq_lseek(f, offset, whence);
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
	/* vfs_setpos(): below 0 or beyond the superblock's s_maxbytes */
	if (offset < 0 || ((fop_flags & FOP_NON_LFS) && offset > INT32_MAX))
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
	else if (f->f_op && f->f_op->fsync)
		ret = f->f_op->fsync(f, false);
	else if (!f->f_op || !(f->f_op->fop_flags & FOP_FSYNC))
		ret = -EINVAL; /* vfs_fsync_range(): no ->fsync (fifos, procfs) */
	task_leave(task);
	return ret;
}

/* <linux/falloc.h>: the modes Linux 6.18 knows (FALLOC_FL_MODE_MASK) */
#define FALLOC_KEEP_SIZE     0x01
#define FALLOC_PUNCH_HOLE    0x02
#define FALLOC_COLLAPSE      0x08
#define FALLOC_ZERO_RANGE    0x10
#define FALLOC_INSERT        0x20
#define FALLOC_UNSHARE       0x40
#define FALLOC_WRITE_ZEROES  0x80
#define FALLOC_MODE_MASK     (FALLOC_PUNCH_HOLE | FALLOC_COLLAPSE | FALLOC_ZERO_RANGE | \
			      FALLOC_INSERT | FALLOC_UNSHARE | FALLOC_WRITE_ZEROES)

/* vfs_fallocate(): its checks in its order, then the filesystem's, which stamps mtime
 * and ctime itself (shmem_fallocate's file_modified(), the host's own); set-user-ID
 * cleared as a write clears it, when it succeeded (an ENOSPC changes nothing) */
static int vfs_fallocate(const struct cred *cred, struct file *f, int mode, off_t offset,
			 off_t len)
{
	struct inode *inode = f->f_inode;
	off_t end;
	int err;

	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~(FALLOC_MODE_MASK | FALLOC_KEEP_SIZE))
		return -EOPNOTSUPP;
	switch (mode & FALLOC_MODE_MASK) {
	case 0:
	case FALLOC_UNSHARE:
	case FALLOC_ZERO_RANGE:
		break;
	case FALLOC_PUNCH_HOLE:
		if (!(mode & FALLOC_KEEP_SIZE))
			return -EOPNOTSUPP;
		break;
	case FALLOC_COLLAPSE:
	case FALLOC_INSERT:
	case FALLOC_WRITE_ZEROES:
		if (mode & FALLOC_KEEP_SIZE)
			return -EOPNOTSUPP;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (!(f->f_mode & FMODE_WRITE))
		return -EBADF;
	/* "We can only allow pure fallocate on append only files" */
	if ((mode & ~FALLOC_KEEP_SIZE) && IS_APPEND(inode))
		return -EPERM;
	if (IS_IMMUTABLE(inode))
		return -EPERM;
	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -ENODEV;  /* a block device would be its driver's: uvfs has none */
	if (__builtin_add_overflow(offset, len, &end))
		return -EFBIG;
	if (!f->f_op || !f->f_op->fallocate)
		return -EOPNOTSUPP;
	/* shmem_fallocate(): what allocates checks the new end with inode_newsize_ok()
	 * ("We need to check rlimit even when FALLOC_FL_KEEP_SIZE"), after its own
	 * EOPNOTSUPP for other modes; a punched hole does not */
	if (!(mode & ~FALLOC_KEEP_SIZE)) {
		err = inode_newsize_ok(cred, inode, end);
		if (err)
			return err;
	}
	err = f->f_op->fallocate(f, mode, offset, len);
	if (!err)
		err = file_remove_privs(cred, f->f_path.dentry);
	if (!err)
		fsnotify_file(f, FS_MODIFY);  /* vfs_fallocate(): fsnotify_modify() */
	return err;
}

int uvfs_fallocate(struct uvfs_task *task, int fd, int mode, off_t offset, off_t len)
{
	struct file *f;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	f = fdget_io(task, fd);
	ret = f ? vfs_fallocate(&task->cred, f, mode, offset, len) : -EBADF;
	task_leave(task);
	return ret;
}
