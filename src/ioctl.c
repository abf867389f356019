// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ioctl.c - the ioctls uvfs answers (fs/ioctl.c's do_vfs_ioctl(), fs/file_attr.c):
 * FIONREAD, and the file attributes chattr and lsattr use -- FS_IOC_GETFLAGS,
 * FS_IOC_SETFLAGS, FS_IOC_FSGETXATTR, FS_IOC_FSSETXATTR -- on a filesystem that keeps
 * them (memfs: mm/shmem.c's shmem_fileattr_get()/set(), immutable, append-only,
 * nodump and noatime; its casefold needs an encoding uvfs's memfs is never mounted
 * with).  The flags live in the inode's i_flags (INODE_*), which the VFS checks where
 * the kernel checks S_IMMUTABLE and S_APPEND.
 *
 * Locking: ns_lock (task_enter) for every call; i_flags is written under it, read
 * locklessly with READ_ONCE (the permission fast path).
 */
#include <sys/ioctl.h>

#include "fsnotify.h"
#include "mount.h"
#include "permission.h"
#include "task.h"

/* include/uapi/linux/fs.h (not included: its mount.h clashes with glibc's) */
#define FS_IOC_GETFLAGS_ 0x80086601u
#define FS_IOC_SETFLAGS_ 0x40086602u
#define FS_IOC_FSGETXATTR_ 0x801c581fu
#define FS_IOC_FSSETXATTR_ 0x401c5820u
#define FS_SYNC_FL 0x00000008u
#define FS_IMMUTABLE_FL 0x00000010u
#define FS_APPEND_FL 0x00000020u
#define FS_NODUMP_FL 0x00000040u
#define FS_NOATIME_FL 0x00000080u
#define FS_DAX_FL 0x02000000u
#define FS_PROJINHERIT_FL 0x20000000u
#define FS_COMMON_FL (FS_SYNC_FL | FS_IMMUTABLE_FL | FS_APPEND_FL | FS_NODUMP_FL | \
		      FS_NOATIME_FL | FS_DAX_FL | FS_PROJINHERIT_FL)
#define FS_XFLAG_IMMUTABLE 0x00000008u
#define FS_XFLAG_APPEND 0x00000010u
#define FS_XFLAG_SYNC 0x00000020u
#define FS_XFLAG_NOATIME 0x00000040u
#define FS_XFLAG_NODUMP 0x00000080u
#define FS_XFLAG_PROJINHERIT 0x00000200u
#define FS_XFLAG_EXTSIZE 0x00000800u
#define FS_XFLAG_EXTSZINHERIT 0x00001000u
#define FS_XFLAG_DAX 0x00008000u
#define FS_XFLAG_COWEXTSIZE 0x00010000u
#define FS_XFLAG_COMMON (FS_XFLAG_SYNC | FS_XFLAG_IMMUTABLE | FS_XFLAG_APPEND | \
			 FS_XFLAG_NODUMP | FS_XFLAG_NOATIME | FS_XFLAG_DAX | FS_XFLAG_PROJINHERIT)

/* struct fsxattr */
struct fsxattr_ {
	uint32_t fsx_xflags, fsx_extsize, fsx_nextents, fsx_projid, fsx_cowextsize;
	unsigned char fsx_pad[8];
};
_Static_assert(sizeof(struct fsxattr_) == 28, "FS_IOC_FSGETXATTR's size field");

/* struct file_kattr: either form, and the other filled from it */
struct fileattr {
	uint32_t flags;
	struct fsxattr_ fsx;
	bool flags_valid, fsx_valid;
};

/* FS_*_FL and FS_XFLAG_* of the same meaning (fileattr_fill_flags/xflags()) */
static const struct { uint32_t fl, xflag; } fl_xflag[] = {
	{ FS_SYNC_FL, FS_XFLAG_SYNC }, { FS_IMMUTABLE_FL, FS_XFLAG_IMMUTABLE },
	{ FS_APPEND_FL, FS_XFLAG_APPEND }, { FS_NODUMP_FL, FS_XFLAG_NODUMP },
	{ FS_NOATIME_FL, FS_XFLAG_NOATIME }, { FS_DAX_FL, FS_XFLAG_DAX },
	{ FS_PROJINHERIT_FL, FS_XFLAG_PROJINHERIT },
};

static void fill_flags(struct fileattr *fa, uint32_t flags)
{
	memset(fa, 0, sizeof(*fa));
	fa->flags_valid = true;
	fa->flags = flags;
	for (size_t i = 0; i < ARRAY_SIZE(fl_xflag); i++)
		if (flags & fl_xflag[i].fl)
			fa->fsx.fsx_xflags |= fl_xflag[i].xflag;
}

static void fill_xflags(struct fileattr *fa, uint32_t xflags)
{
	memset(fa, 0, sizeof(*fa));
	fa->fsx_valid = true;
	fa->fsx.fsx_xflags = xflags;
	for (size_t i = 0; i < ARRAY_SIZE(fl_xflag); i++)
		if (xflags & fl_xflag[i].xflag)
			fa->flags |= fl_xflag[i].fl;
}

/* copy_fsxattr_from_user(): the xflags and the XFS fields of a struct fsxattr */
static void fill_fsxattr(struct fileattr *fa, const void *arg)
{
	struct fsxattr_ x;

	memcpy(&x, arg, sizeof(x));
	fill_xflags(fa, x.fsx_xflags);
	fa->fsx.fsx_extsize = x.fsx_extsize;
	fa->fsx.fsx_nextents = x.fsx_nextents;
	fa->fsx.fsx_projid = x.fsx_projid;
	fa->fsx.fsx_cowextsize = x.fsx_cowextsize;
}

/* The inode's INODE_* bits and FS_*_FL, both ways */
static const struct { uint8_t bit; uint32_t fl; } inode_fl[] = {
	{ INODE_IMMUTABLE, FS_IMMUTABLE_FL }, { INODE_APPEND, FS_APPEND_FL },
	{ INODE_NODUMP, FS_NODUMP_FL }, { INODE_NOATIME, FS_NOATIME_FL },
};

/* vfs_fileattr_get(): shmem_fileattr_get(), the flags it keeps */
static int fileattr_get(const struct inode *inode, struct fileattr *fa)
{
	uint32_t flags = 0;

	if (!inode->i_op->fileattr_flags)
		return -ENOTTY;  /* -ENOIOCTLCMD, then no ->unlocked_ioctl */
	for (size_t i = 0; i < ARRAY_SIZE(inode_fl); i++)
		if (inode->i_flags & inode_fl[i].bit)
			flags |= inode_fl[i].fl;
	fill_flags(fa, flags);
	return 0;
}

/*
 * vfs_fileattr_set(): the owner (or CAP_FOWNER) only; the other form's fields kept
 * from the old; fileattr_set_prepare()'s CAP_LINUX_IMMUTABLE for a change of
 * immutable or append-only and its EINVALs for an extent-size flag on a file of the
 * wrong type (a size without its flag is not one: 6.18 checked); then the
 * filesystem's: no XFS-only field or flag (fileattr_has_fsx()) and nothing it does
 * not keep (EOPNOTSUPP), the change stamped in ctime.
 */
static int fileattr_set(const struct cred *cred, struct inode *inode, struct fileattr *fa)
{
	struct fileattr old;
	uint8_t bits = 0;
	int err;

	if (!inode->i_op->fileattr_flags)
		return -ENOTTY;
	if (!inode_owner_or_capable(cred, inode))
		return -EPERM;
	err = fileattr_get(inode, &old);
	if (err)
		return err;
	if (fa->flags_valid)
		fa->fsx.fsx_xflags |= old.fsx.fsx_xflags & ~FS_XFLAG_COMMON;
	else
		fa->flags |= old.flags & ~FS_COMMON_FL;
	if (((old.flags ^ fa->flags) & (FS_APPEND_FL | FS_IMMUTABLE_FL)) &&
	    !cred_capable(cred, CAP_LINUX_IMMUTABLE))
		return -EPERM;
	if (((fa->fsx.fsx_xflags & FS_XFLAG_EXTSIZE) && !S_ISREG(inode->i_mode)) ||
	    ((fa->fsx.fsx_xflags & FS_XFLAG_EXTSZINHERIT) && !S_ISDIR(inode->i_mode)) ||
	    ((fa->fsx.fsx_xflags & FS_XFLAG_COWEXTSIZE) && !S_ISREG(inode->i_mode) &&
	     !S_ISDIR(inode->i_mode)))
		return -EINVAL;
	if (fa->fsx_valid && ((fa->fsx.fsx_xflags & ~FS_XFLAG_COMMON) || fa->fsx.fsx_extsize ||
			      fa->fsx.fsx_projid || fa->fsx.fsx_cowextsize))
		return -EOPNOTSUPP;
	if (fa->flags & ~inode->i_op->fileattr_flags)
		return -EOPNOTSUPP;
	for (size_t i = 0; i < ARRAY_SIZE(inode_fl); i++)
		if (fa->flags & inode_fl[i].fl)
			bits |= inode_fl[i].bit;
	WRITE_ONCE(inode->i_flags, (uint8_t)((inode->i_flags & ~(INODE_IMMUTABLE | INODE_APPEND |
								  INODE_NODUMP | INODE_NOATIME)) | bits));
	inode_set_ctime_current(inode);
	return 0;
}

/*
 * do_vfs_ioctl()'s part uvfs answers.  arg is the caller's copy of what the
 * program's argument points at: an int for FIONREAD and the flags, a struct fsxattr
 * (28 bytes) for the other two; NULL where the program's pointer faults.  A
 * setting reads it first (get_user(): EFAULT), then wants the mount writable
 * (mnt_want_write_file(): EROFS); a getting writes it last.
 */
int uvfs_ioctl(struct uvfs_task *task, int fd, unsigned long cmd, void *arg)
{
	struct fileattr fa;
	struct file *f;
	int err = -ENOTTY, n = 0;
	bool out_int = false, out_fsx = false;

	if (!task)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	if (!f || (f->f_mode & FMODE_PATH)) {
		err = -EBADF;
		goto out;
	}
	switch (cmd) {
	case FIONREAD:
		err = inotify_fionread_file(f, &n);
		if (err && S_ISREG(f->f_inode->i_mode)) {
			/* a regular file's bytes after the position */
			off_t left = f->f_inode->i_size - f->f_pos;

			n = left > INT32_MAX ? INT32_MAX : (int)left;
			err = 0;
		}
		out_int = !err;
		break;
	case FS_IOC_GETFLAGS_:
		err = fileattr_get(f->f_inode, &fa);
		if (!err)
			n = (int)fa.flags;
		out_int = !err;
		break;
	case FS_IOC_FSGETXATTR_:
		err = fileattr_get(f->f_inode, &fa);
		out_fsx = !err;
		break;
	case FS_IOC_SETFLAGS_:
	case FS_IOC_FSSETXATTR_:
		if (!arg) {
			err = -EFAULT;
			break;
		}
		if (cmd == FS_IOC_SETFLAGS_) {
			uint32_t flags;

			memcpy(&flags, arg, sizeof(flags));
			fill_flags(&fa, flags);
		} else {
			fill_fsxattr(&fa, arg);
		}
		err = mnt_want_write(f->f_path.mnt);
		if (!err)
			err = fileattr_set(&task->cred, f->f_inode, &fa);
		break;
	}
out:
	task_leave(task);
	if (out_int || out_fsx) {
		if (!arg)
			return -EFAULT;
		if (out_int)
			memcpy(arg, &n, sizeof(n));
		else
			memcpy(arg, &fa.fsx, sizeof(fa.fsx));
	}
	return err;
}

/*
 * file_getattr(2), file_setattr(2) (Linux 6.17) of a descriptor (O_PATH too: the
 * calls walk to the file, they do not open it): vfs_fileattr_get()/set() as the
 * ioctls, in struct fsxattr's layout; a filesystem that keeps none is EOPNOTSUPP
 * (the calls' ENOIOCTLCMD), setting one EROFS on a read-only mount.
 */
int uvfs_fileattr_get(struct uvfs_task *task, int fd, void *fsxattr)
{
	struct fileattr fa;
	struct file *f;
	int err;

	if (!task || !fsxattr)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	err = !f ? -EBADF : fileattr_get(f->f_inode, &fa);
	task_leave(task);
	if (err)
		return err == -ENOTTY ? -EOPNOTSUPP : err;
	memcpy(fsxattr, &fa.fsx, sizeof(fa.fsx));
	return 0;
}

int uvfs_fileattr_set(struct uvfs_task *task, int fd, const void *fsxattr)
{
	struct fileattr fa;
	struct file *f;
	int err;

	if (!task || !fsxattr)
		return -EINVAL;
	fill_fsxattr(&fa, fsxattr);
	task_enter(task);
	f = fdget(task, fd);
	if (!f)
		err = -EBADF;
	else if (!(err = mnt_want_write(f->f_path.mnt)))
		err = fileattr_set(&task->cred, f->f_inode, &fa);
	task_leave(task);
	return err == -ENOTTY ? -EOPNOTSUPP : err;
}
