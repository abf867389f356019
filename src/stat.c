// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * stat.c - fstatat, fstat, statx, readlinkat (fs/stat.c), and the readlink_* calls: a
 * task's /proc/self links read without a path (fs/proc/base.c's proc_pid_readlink).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "d_path.h"
#include "inode.h"
#include "namei.h"
#include "task.h"

#ifndef AT_STATX_SYNC_TYPE
#define AT_STATX_SYNC_TYPE 0x6000
#endif

int uvfs_fstatat(struct uvfs_task *task, int dirfd, const char *name, struct stat *st,
		 int flags)
{
	struct path path;
	unsigned int lf = 0;
	int err;

	/* vfs_fstatat() (6.11+): AT_EMPTY_PATH with an empty or NULL name on a real
	 * descriptor is fstat, before any other flag is looked at */
	if ((flags & AT_EMPTY_PATH) && (!name || !name[0]) && dirfd >= 0)
		return uvfs_fstat(task, dirfd, st);
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	/* The lockless walk first (the kernel's LOOKUP_RCU), the locked one if it
	 * cannot be sure.  No st: the walk's errors, then EFAULT (cp_new_stat). */
	if (name && name[0] && !(flags & AT_EMPTY_PATH) && st) {
		err = stat_rcu(task, dirfd, name, !(flags & AT_SYMLINK_NOFOLLOW), st);
		if (err != -ECHILD)
			return err;
	}
	if (!(flags & AT_SYMLINK_NOFOLLOW))
		lf |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lf |= LOOKUP_EMPTY;
	task_enter(task);
	err = filename_lookup(task, dirfd, name, lf, &path);
	if (!err) {
		if (st)
			inode_fillattr(path.dentry->d_inode, st);
		else
			err = -EFAULT;
		path_put(&path);
	}
	task_leave(task);
	return err;
}

/* Linux 6.8's and 6.x's names that Debian 12's <linux/stat.h> (6.1) lacks */
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif
#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX 0x00200000
#endif

/*
 * cp_statx(): the stat fields in statx's shape, for a path (its mount gives the mount
 * id and the mount-root attribute).  vfs_getattr_nosec() starts the result mask at
 * STATX_BASIC_STATS and the attribute mask at what the VFS itself knows (automount,
 * DAX); the filesystem's ->statx adds its own; vfs_statx() the mount's.
 */
static void fill_statx(const struct path *path, unsigned int mask, struct statx *sx)
{
	struct inode *inode = path->dentry->d_inode;
	const struct super_operations *sop = inode->i_sb->s_op;
	bool times = !sop->mgtime || (mask & (STATX_MTIME | STATX_CTIME));
	struct stat st;

	inode_fillattr_mask(inode, &st, times);
	*sx = (struct statx){
		.stx_mask = STATX_BASIC_STATS,
		.stx_blksize = (uint32_t)st.st_blksize,
		.stx_nlink = (uint32_t)st.st_nlink,
		.stx_uid = st.st_uid,
		.stx_gid = st.st_gid,
		.stx_mode = (uint16_t)st.st_mode,
		.stx_ino = st.st_ino,
		.stx_size = (uint64_t)st.st_size,
		.stx_blocks = (uint64_t)st.st_blocks,
		.stx_attributes_mask = STATX_ATTR_AUTOMOUNT | STATX_ATTR_DAX,
		.stx_atime = { st.st_atim.tv_sec, (uint32_t)st.st_atim.tv_nsec, 0 },
		.stx_mtime = { st.st_mtim.tv_sec, (uint32_t)st.st_mtim.tv_nsec, 0 },
		.stx_ctime = { st.st_ctim.tv_sec, (uint32_t)st.st_ctim.tv_nsec, 0 },
		.stx_rdev_major = major(st.st_rdev),
		.stx_rdev_minor = minor(st.st_rdev),
		.stx_dev_major = major(st.st_dev),
		.stx_dev_minor = minor(st.st_dev),
	};
	/* fill_mg_cmtime(): "if neither time was requested, then don't report them" */
	if (!times)
		sx->stx_mask &= ~(STATX_MTIME | STATX_CTIME);
	if (sop->statx)
		sop->statx(inode, mask, sx);
	/* vfs_statx(): the unique id when asked for, else the reused one */
	if (mask & STATX_MNT_ID_UNIQUE) {
		sx->stx_mnt_id = path->mnt->mnt_id_unique;
		sx->stx_mask |= STATX_MNT_ID_UNIQUE;
	} else {
		sx->stx_mnt_id = (uint64_t)path->mnt->mnt_id;
		sx->stx_mask |= STATX_MNT_ID;
	}
	sx->stx_attributes_mask |= STATX_ATTR_MOUNT_ROOT;
	if (path->mnt->mnt_root == path->dentry)
		sx->stx_attributes |= STATX_ATTR_MOUNT_ROOT;
}

/*
 * statx(2): do_statx()'s checks of mask and flags (reserved mask bit, both sync types
 * at once, unknown flags: EINVAL, in that order, before the name's own errors), the
 * walk as fstatat's (AT_EMPTY_PATH with an empty or NULL name on a descriptor: that
 * file, as do_statx_fd(), whatever other flags say), then fill_statx().  The sync
 * types ask nothing of a memory filesystem.
 */
int uvfs_statx(struct uvfs_task *task, int dirfd, const char *name, int flags,
	       unsigned int mask, struct statx *buf)
{
	struct path path;
	unsigned int lf = 0;
	int err;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	/* do_statx_fd() (6.11+), taken for AT_EMPTY_PATH with no name on a descriptor,
	 * looks at no other flag: an unknown one is not EINVAL there */
	if ((flags & AT_EMPTY_PATH) && (!name || !name[0]) && dirfd >= 0) {
		struct file *f;

		task_enter(task);
		f = fdget(task, dirfd);
		err = !f ? -EBADF : !buf ? -EFAULT : 0;
		if (!err)
			fill_statx(&f->f_path, mask, buf);
		task_leave(task);
		return err;
	}
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if (!(flags & AT_SYMLINK_NOFOLLOW))
		lf |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH) {
		lf |= LOOKUP_EMPTY;
		/* getname_maybe_null(): NULL with AT_EMPTY_PATH is "" (AT_FDCWD: the cwd) */
		if (!name)
			name = "";
	}
	task_enter(task);
	err = filename_lookup(task, dirfd, name, lf, &path);
	if (!err) {
		if (buf)
			fill_statx(&path, mask, buf);
		else
			err = -EFAULT;  /* cp_statx(): copy_to_user() */
		path_put(&path);
	}
	task_leave(task);
	return err;
}

int uvfs_fstat(struct uvfs_task *task, int fd, struct stat *st)
{
	struct file *f;
	int err = 0;

	task_enter(task);
	f = fdget(task, fd);
	if (!f)
		err = -EBADF;
	else if (!st)
		err = -EFAULT;  /* cp_new_stat(): copy_to_user() */
	else
		inode_fillattr(f->f_inode, st);
	task_leave(task);
	return err;
}

int uvfs_host_fd(struct uvfs_task *task, int fd)
{
	struct file *f;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	if (!f)
		ret = -EBADF;
	else if (!f->f_inode->i_op->host_fd)
		ret = -EXDEV;
	else
		ret = f->f_inode->i_op->host_fd(f->f_inode);
	task_leave(task);
	return ret;
}

int uvfs_memfd(struct uvfs_task *task, int fd)
{
	struct file *f;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	if (!f)
		ret = -EBADF;
	else if (!f->f_inode->i_op->memfd || !task->fs->memfd_data)
		ret = -EXDEV;
	else
		ret = f->f_inode->i_op->memfd(f);
	task_leave(task);
	return ret;
}

ssize_t uvfs_memfd_name(struct uvfs_task *task, uint64_t kdev, uint64_t kino, char *buf,
			size_t bufsiz, struct stat *st)
{
	struct uvfs *fs;
	struct mount *m;
	ssize_t ret = -ENOENT;

	if (!task || (ssize_t)bufsiz <= 0)
		return -EINVAL;
	fs = task->fs;
	task_enter(task);
	/* every superblock, through its mounts: a memfd belongs to one file */
	cds_list_for_each_entry(m, &fs->mounts, mnt_list) {
		const struct super_operations *sop = m->mnt_sb->s_op;
		struct path p;

		if (!sop->memfd_path || !sop->memfd_path(m->mnt_sb, (dev_t)kdev, (ino_t)kino, &p))
			continue;
		/* a dentry alone (its file closed): the first mount that shows it */
		if (!p.mnt) {
			struct mount *n;

			cds_list_for_each_entry(n, &fs->mounts, mnt_list)
				if (n->mnt_sb == m->mnt_sb && is_subdir(p.dentry, n->mnt_root)) {
					p.mnt = n;
					break;
				}
			if (!p.mnt)
				break;  /* in no mount of the namespace's: no name */
		}
		ret = readlink_path(&p, &task->fs_struct->root, buf, bufsiz);
		if (ret >= 0 && st)
			inode_fillattr(p.dentry->d_inode, st);
		break;
	}
	task_leave(task);
	return ret;
}

int uvfs_standin(struct uvfs_task *task, int fd, int (*make)(void *arg), void *arg)
{
	struct file *f;
	int ret;

	if (!task || !make)
		return -EINVAL;
	task_enter(task);
	f = fdget(task, fd);
	if (!f)
		ret = -EBADF;
	else if (!f->f_inode->i_op->standin || (f->f_mode & FMODE_PATH))
		ret = -EXDEV;
	else
		ret = f->f_inode->i_op->standin(f, make, arg);
	task_leave(task);
	return ret;
}

ssize_t uvfs_readlinkat(struct uvfs_task *task, int dirfd, const char *name, char *buf,
			size_t bufsiz)
{
	struct path path;
	ssize_t ret;

	if ((ssize_t)bufsiz <= 0 || bufsiz > INT32_MAX)
		return -EINVAL;
	if (name && name[0]) {
		ret = readlink_rcu(task, dirfd, name, buf, bufsiz);
		if (ret != -ECHILD)
			return ret;
	}
	task_enter(task);
	/* do_readlinkat() always walks with LOOKUP_EMPTY. */
	ret = filename_lookup(task, dirfd, name, LOOKUP_EMPTY, &path);
	if (ret)
		goto out;
	ret = vfs_readlink(task, path.dentry, buf, bufsiz);
	if (ret == -EINVAL && !name[0])
		ret = -ENOENT;
	else if (ret >= 0)
		touch_atime(&path);
	path_put(&path);
out:
	task_leave(task);
	return ret;
}

static ssize_t readlink_task(struct uvfs_task *task, enum which_link which, int fd,
			     char *buf, size_t bufsiz)
{
	const struct path *path;
	ssize_t ret;

	if ((ssize_t)bufsiz <= 0)
		return -EINVAL;
	task_enter(task);
	path = task_link_path(task, which, fd, false);
	/* The reader's root: the task reads its own links here. */
	if (path)
		ret = readlink_path(path, &task->fs_struct->root, buf, bufsiz);
	else
		ret = which == LINK_FD ? -EBADF : -ENOENT;
	task_leave(task);
	return ret;
}

ssize_t uvfs_readlink_fd(struct uvfs_task *task, int fd, char *buf, size_t bufsiz)
{
	return readlink_task(task, LINK_FD, fd, buf, bufsiz);
}

ssize_t uvfs_readlink_exe(struct uvfs_task *task, char *buf, size_t bufsiz)
{
	return readlink_task(task, LINK_EXE, -1, buf, bufsiz);
}

ssize_t uvfs_readlink_cwd(struct uvfs_task *task, char *buf, size_t bufsiz)
{
	return readlink_task(task, LINK_CWD, -1, buf, bufsiz);
}

ssize_t uvfs_readlink_root(struct uvfs_task *task, char *buf, size_t bufsiz)
{
	return readlink_task(task, LINK_ROOT, -1, buf, bufsiz);
}

/* Linux's values (include/linux/statfs.h) that glibc 2.36 does not name */
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000
#endif
#define ST_VALID 0x0020        /* f_flags is filled in */

/* vfs_statfs(): the filesystem's fields, f_frsize from f_bsize, then the flags the
 * mount and the superblock give (calculate_f_flags()). */
static void vfs_statfs(const struct path *path, struct statfs *buf)
{
	const struct super_block *sb = path->mnt->mnt_sb;
	int f = path->mnt->mnt_flags;

	memset(buf, 0, sizeof(*buf));
	if (sb->s_op->statfs) {
		sb->s_op->statfs(path->dentry, buf);
	} else {
		buf->f_bsize = UVFS_PAGE_SIZE;  /* simple_statfs() */
		buf->f_namelen = 255;
	}
	if (!buf->f_frsize)
		buf->f_frsize = buf->f_bsize;
	buf->f_flags = ST_VALID | (f & MNT_READONLY ? ST_RDONLY : 0) |
		       (f & MNT_NOSUID ? ST_NOSUID : 0) | (f & MNT_NODEV ? ST_NODEV : 0) |
		       (f & MNT_NOEXEC ? ST_NOEXEC : 0) | (f & MNT_NOATIME ? ST_NOATIME : 0) |
		       (f & MNT_NODIRATIME ? ST_NODIRATIME : 0) |
		       (f & MNT_RELATIME ? ST_RELATIME : 0) |
		       (f & MNT_NOSYMFOLLOW ? ST_NOSYMFOLLOW : 0) |
		       (sb->s_readonly ? ST_RDONLY : 0);
}

int uvfs_statfs(struct uvfs_task *task, const char *name, struct statfs *buf)
{
	struct path path;
	int err;

	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, name, LOOKUP_FOLLOW, &path);
	if (!err) {
		if (buf)
			vfs_statfs(&path, buf);
		else
			err = -EFAULT;  /* copy_to_user() after the walk */
		path_put(&path);
	}
	task_leave(task);
	return err;
}

int uvfs_fstatfs(struct uvfs_task *task, int fd, struct statfs *buf)
{
	struct file *f;
	int err = 0;

	task_enter(task);
	f = fdget(task, fd);  /* fdget_raw(): O_PATH descriptors too */
	if (!f)
		err = -EBADF;
	else if (!buf)
		err = -EFAULT;
	else
		vfs_statfs(&f->f_path, buf);
	task_leave(task);
	return err;
}
