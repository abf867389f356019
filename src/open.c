// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * open.c - openat, close, and the calls of the cwd and the root: chdir, fchdir,
 * chroot, getcwd (fs/open.c, fs/d_path.c's getcwd, and fs/namei.c's path_openat,
 * open_last_lookups, lookup_open, do_open, may_open).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include "fsnotify.h"
#include "attr.h"
#include "d_path.h"
#include "inode.h"
#include "leases.h"
#include "namei.h"
#include "task.h"

/* The kernel's own values: glibc's O_LARGEFILE is 0 on 64-bit, and its
 * KERNEL_O_TMPFILE includes O_DIRECTORY. */
#define KERNEL_O_LARGEFILE 0100000
#define KERNEL_O_TMPFILE 020000000
#define KERNEL___O_SYNC 04000000

/* VALID_OPEN_FLAGS (include/linux/fcntl.h): open(2) ignores every other bit. */
#define VALID_OPEN_FLAGS (O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | \
			  O_NONBLOCK | KERNEL___O_SYNC | O_DSYNC | O_ASYNC | O_DIRECT | \
			  KERNEL_O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | \
			  O_CLOEXEC | O_PATH | KERNEL_O_TMPFILE)


/* The open flags a file keeps (do_dentry_open drops these). */
#define OPEN_DROPPED_FLAGS (O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC)

struct open_flags {
	int open_flag;          /* as given, with build_open_flags()'s changes */
	mode_t mode;            /* for a created file: S_IFREG | perms */
	int acc_mode;           /* MAY_READ / MAY_WRITE */
	unsigned int fmode;     /* FMODE_READ / FMODE_WRITE / FMODE_PATH */
	unsigned int lookup;    /* LOOKUP_* */
};

/* build_open_flags() for open(2)/openat(2): unknown flags are ignored, O_PATH
 * silently drops all but O_DIRECTORY|O_NOFOLLOW. */
static int build_open_flags(int flags, mode_t mode, struct open_flags *op)
{
	static const int acc[4] = { MAY_READ, MAY_WRITE, MAY_READ | MAY_WRITE,
				    MAY_READ | MAY_WRITE };

	/* build_open_how(): unknown bits are dropped (open(2) cannot refuse them, for
	 * old binaries' sake); "O_PATH beats everything else" — its mask comes first,
	 * so O_PATH|O_CREAT|O_DIRECTORY is a plain O_PATH lookup, not EINVAL. */
	flags &= VALID_OPEN_FLAGS;
	if (flags & O_PATH)
		flags &= O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC;
	/* force_o_largefile(): 64-bit Linux opens everything large. */
	flags |= KERNEL_O_LARGEFILE;
	flags &= ~O_CLOEXEC;
	/* build_open_flags(): "O_SYNC is implemented as __O_SYNC|O_DSYNC"; a caller that
	 * gives __O_SYNC alone gets both. */
	if (flags & KERNEL___O_SYNC)
		flags |= O_DSYNC;
	memset(op, 0, sizeof(*op));
	if (flags & (O_CREAT | KERNEL_O_TMPFILE))
		op->mode = (mode & 07777) | S_IFREG;
	/* "Block bugs where O_DIRECTORY | O_CREAT created regular files" (6.4). */
	if ((flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT))
		return -EINVAL;
	op->acc_mode = acc[flags & O_ACCMODE];
	if (flags & KERNEL_O_TMPFILE) {
		if (!(flags & O_DIRECTORY))
			return -EINVAL;
		if (!(op->acc_mode & MAY_WRITE))
			return -EINVAL;
	}
	if (flags & O_PATH) {
		flags &= O_DIRECTORY | O_NOFOLLOW | O_PATH;
		op->acc_mode = 0;
		op->fmode = FMODE_PATH;
	} else {
		/* OPEN_FMODE(): O_ACCMODE 3 gives neither read nor write. */
		unsigned int f = (unsigned int)(flags + 1) & O_ACCMODE;

		op->fmode = (f & 1 ? FMODE_READ : 0) | (f & 2 ? FMODE_WRITE : 0);
	}
	if (flags & O_TRUNC)
		op->acc_mode |= MAY_WRITE;
	if (flags & O_DIRECTORY)
		op->lookup |= LOOKUP_DIRECTORY;
	/* O_CREAT|O_EXCL never follows a final symlink; unlike older kernels, 6.18
	 * does not show the implied O_NOFOLLOW in F_GETFL (tests/diff/open.sys). */
	if (!(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL))
		op->lookup |= LOOKUP_FOLLOW;
	op->open_flag = flags;
	return 0;
}

/* may_open(): the type's refusals, then inode_permission(MAY_OPEN | acc_mode) — an
 * exited task's /proc/PID, reached through a magic link, is ESRCH there — then an
 * append-only file's EPERM, then O_NOATIME, which only the owner (or CAP_FOWNER)
 * may ask for. */
static int may_open(const struct cred *cred, const struct path *path, int acc_mode, int flag)
{
	struct inode *inode = path->dentry->d_inode;
	int err;

	switch (inode->i_mode & S_IFMT) {
	case S_IFLNK:
		return -ELOOP;
	case S_IFDIR:
		if (acc_mode & MAY_WRITE)
			return -EISDIR;
		if (acc_mode & MAY_EXEC)
			return -EACCES;
		break;
	case S_IFBLK:
	case S_IFCHR:
		if (!may_open_dev(path))
			return -EACCES;  /* a nodev mount */
		/* fallthrough */
	case S_IFIFO:
	case S_IFSOCK:
		if (acc_mode & MAY_EXEC)
			return -EACCES;
		break;
	case S_IFREG:
		if ((acc_mode & MAY_EXEC) && path_noexec(path))
			return -EACCES;  /* a noexec mount */
		break;
	default:
		break;
	}
	err = inode_permission(cred, inode, MAY_OPEN | acc_mode);
	if (err)
		return err;
	/* an append-only file is opened for writing with O_APPEND, never O_TRUNC */
	if (IS_APPEND(inode) && ((((flag & O_ACCMODE) != O_RDONLY) && !(flag & O_APPEND)) ||
				 (flag & O_TRUNC)))
		return -EPERM;
	if ((flag & O_NOATIME) && !inode_owner_or_capable(cred, inode))
		return -EPERM;
	return 0;
}

/*
 * vfs_open(): a new file on path, through the file operations' open.  Character
 * and block devices have no drivers in uvfs and sockets cannot be opened: ENXIO,
 * which is what Linux says for a device number nobody registered (chrdev_open) and
 * for a socket inode (sock_no_open).  A deliberate difference for real devices such
 * as 1:3 (/dev/null), pinned by tests/test_syscalls.c.
 */
static int vfs_open(struct file *f, const struct path *path, const struct open_flags *op)
{
	struct inode *inode = path->dentry->d_inode;
	bool writer = (op->fmode & FMODE_WRITE) && S_ISREG(inode->i_mode);
	int err;

	if (!(op->fmode & FMODE_PATH) &&
	    (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) || S_ISSOCK(inode->i_mode)))
		return -ENXIO;
	/* do_dentry_open(): a writer of a regular file takes write access first, which
	 * a running executable denies (ETXTBSY) */
	if (writer) {
		err = get_write_access(inode);
		if (err)
			return err;
		/* file_get_write_access(): then the mount's (EROFS), held while open */
		err = mnt_want_write(path->mnt);
		if (err) {
			put_write_access(inode);
			return err;
		}
		path->mnt->mnt_writers++;
	}
	file_init(f, path, (unsigned int)op->open_flag & ~OPEN_DROPPED_FLAGS, op->fmode);
	/* do_dentry_open(): with the access counted, a lease in the way is broken
	 * before ->open (and the wait for its holder may give ns_lock up: the file
	 * holds the path meanwhile) */
	if (!(op->fmode & FMODE_PATH)) {
		err = break_lease(inode, f->f_flags);
		if (err)
			goto put_access;
	}
	if (!(op->fmode & FMODE_PATH) && f->f_op && f->f_op->open) {
		err = f->f_op->open(inode, f);
		if (err)
			goto put_access;  /* not opened: no release */
	}
	/* after ->open: O_DIRECT needs FMODE_CAN_ODIRECT (a tmpfs regular file) */
	if ((f->f_flags & O_DIRECT) && !(op->fmode & FMODE_PATH) &&
	    !(f->f_op && (f->f_op->fop_flags & FOP_ODIRECT))) {
		err = -EINVAL;
		goto release;
	}
	/* vfs_open(): "__fput() will call fsnotify_close(), so we need fsnotify_open()
	 * here for symmetry" -- before open(2)'s truncation */
	fsnotify_file(f, FS_OPEN);
	return 0;

release:
	if (f->f_op && f->f_op->release)
		f->f_op->release(inode, f);
put_access:
	if (writer) {
		put_write_access(inode);
		path->mnt->mnt_writers--;
	}
	file_deinit(f);
	memset(f, 0, sizeof(*f));  /* as alloc_empty_file() gave it: never published */
	return err;
}

/* lookup_open() for a final component: returns the dentry (referenced, maybe still
 * negative if O_CREAT is absent), creating the file with O_CREAT. */
static struct dentry *lookup_open(struct nameidata *nd, const struct open_flags *op,
				  bool *created)
{
	struct uvfs_task *task = nd->task;
	struct dentry *dir = nd->path.dentry;
	struct inode *dir_inode = dir->d_inode;
	struct dentry *d;
	int err;

	int create_error = 0;

	if (dir->d_flags & DCACHE_DIR_DEAD)
		return ERR_PTR(-ENOENT);
	/* may_o_create(): asked before the lookup, told only if the name is free — an
	 * existing file in a directory the caller may not write is opened, or EEXIST;
	 * on a read-only mount it is not even asked: EROFS */
	if (op->open_flag & O_CREAT)
		create_error = mnt_want_write(nd->path.mnt) ?:
			       inode_permission(&task->cred, dir_inode, MAY_WRITE | MAY_EXEC);
	d = nd_lookup_last(nd);
	if (IS_ERR(d) || d->d_inode || !(op->open_flag & O_CREAT))
		return d;
	if (create_error) {
		dput(d);
		return ERR_PTR(create_error);
	}
	if (!dir_inode->i_op->create) {
		dput(d);
		return ERR_PTR(-EACCES); /* lookup_open(): no ->create */
	}
	err = dir_inode->i_op->create(dir_inode, d,
				      mode_strip_sgid(&task->cred, dir_inode, op->mode) & ~task->fs_struct->umask, 0,
				      task->cred.fsuid, task->cred.fsgid);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	*created = true;
	fsnotify_create(dir_inode, d);  /* open_last_lookups() */
	return d;
}

/* open_last_lookups(): 0 with nd->path the object to open, 1 for a trailing symlink
 * to follow, or -errno. */
static int open_last_lookups(struct nameidata *nd, const struct open_flags *op,
			     bool *created)
{
	struct dentry *d;

	/* the parent walk leaves the final component's directory in nd->dir_mode and
	 * nd->dir_uid for may_create_in_sticky() */
	nd->dir_mode = nd->path.dentry->d_inode->i_mode;
	nd->dir_uid = nd->path.dentry->d_inode->i_uid;
	if (nd->last_type != LAST_NORM)
		return handle_dots(nd); /* ".", "..", "/" */
	if (!(op->open_flag & O_CREAT)) {
		if (nd->last_slash)
			nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	} else if (nd->last_slash) {
		return -EISDIR;
	}
	d = lookup_open(nd, op, created);
	/* step_into(WALK_TRAILING): a file just created is no symlink */
	return step_into(nd, d, !*created && (nd->flags & LOOKUP_FOLLOW) ?
				WALK_FOLLOW | WALK_TRAILING : 0);
}

/*
 * may_create_in_sticky(): O_CREAT that finds an existing file in a sticky directory
 * owned by neither the directory's owner nor the caller.  Regular files and fifos
 * are refused only as fs.protected_regular / protected_fifos say (the host's values,
 * read by uvfs_new), everything else (devices, sockets) always in a world-writable
 * one: EACCES, root included.
 */
static int may_create_in_sticky(const struct nameidata *nd, const struct inode *inode)
{
	const struct uvfs *fs = nd->task->fs;
	int protect = S_ISREG(inode->i_mode) ? fs->protected_regular :
		      S_ISFIFO(inode->i_mode) ? fs->protected_fifos : 2;

	if (!(nd->dir_mode & S_ISVTX) || !protect)
		return 0;
	if (inode->i_uid == nd->dir_uid || inode->i_uid == nd->task->cred.fsuid)
		return 0;
	if (nd->dir_mode & S_IWOTH)
		return -EACCES;
	/* group-writable: only at level 2 of the sysctls */
	if ((nd->dir_mode & S_IWGRP) && protect >= 2 &&
	    (S_ISREG(inode->i_mode) || S_ISFIFO(inode->i_mode)))
		return -EACCES;
	return 0;
}

/* do_open(): the checks after the lookup, then the open itself. */
static int do_open(struct nameidata *nd, const struct open_flags *op, bool created,
		   struct file *f)
{
	struct inode *inode = nd->path.dentry->d_inode;
	int acc_mode = op->acc_mode;
	bool truncate = false;
	int err;

	if (op->open_flag & O_CREAT) {
		if ((op->open_flag & O_EXCL) && !created)
			return -EEXIST;
		if (S_ISDIR(inode->i_mode))
			return -EISDIR;
		err = may_create_in_sticky(nd, inode);
		if (err)
			return err;
	}
	if ((nd->flags & LOOKUP_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (created) {
		acc_mode = 0;
	} else if (S_ISREG(inode->i_mode) && (op->open_flag & O_TRUNC)) {
		/* do_open(): the mount's write access first, before may_open() */
		err = mnt_want_write(nd->path.mnt);
		if (err)
			return err;
		truncate = true;
	}
	err = may_open(&nd->task->cred, &nd->path, acc_mode, op->open_flag);
	/* handle_truncate() takes write access for the truncation, so a running
	 * program is ETXTBSY even opened O_RDONLY.  Taken here before vfs_open(),
	 * whose only failure on a regular file is that same ETXTBSY, so that nothing
	 * opened has to be undone. */
	if (!err && truncate)
		err = get_write_access(inode);
	if (err)
		return err;
	err = vfs_open(f, &nd->path, op);
	if (!err && created)
		f->f_mode |= FMODE_CREATED;  /* lookup_open() sets it on the file */
	/* times change even at size 0; shrinking frees memory and cannot fail */
	if (!err && truncate)
		err = do_truncate(&nd->task->cred, nd->path.dentry, 0);
	if (truncate)
		put_write_access(inode);
	return err;
}

/* do_tmpfile() / vfs_tmpfile(), in the directory dir (the caller's reference) */
static int tmpfile_at(struct uvfs_task *task, const struct path *dir,
		      const struct open_flags *op, struct file *f)
{
	static const struct qstr slash = QSTR_INIT("/", 1);
	struct inode *dir_inode = dir->dentry->d_inode;
	struct dentry *d;
	int err;

	err = mnt_want_write(dir->mnt);  /* do_tmpfile(): before vfs_tmpfile()'s checks */
	if (err)
		return err;
	/* No IS_DEADDIR check: Linux 6.18 creates an O_TMPFILE in a removed
	 * directory (tests/diff/remove.sys asks the kernel).  vfs_tmpfile()'s
	 * inode_permission(MAY_WRITE | MAY_EXEC) comes before the filesystem's answer:
	 * EPERM in an immutable directory, EACCES in one the caller may not write. */
	err = inode_permission(&task->cred, dir_inode, MAY_WRITE | MAY_EXEC);
	if (err)
		return err;
	if (!dir_inode->i_op->tmpfile)
		return -EOPNOTSUPP;
	d = d_alloc(dir->dentry, &slash);
	if (!d)
		return -ENOMEM;
	err = dir_inode->i_op->tmpfile(dir_inode, d,
				       mode_strip_sgid(&task->cred, dir_inode, op->mode & 07777) &
				       ~task->fs_struct->umask,
				       task->cred.fsuid, task->cred.fsgid);
	if (!err) {
		struct path p = { .mnt = dir->mnt, .dentry = d };

		err = vfs_open(f, &p, op);
		if (!err && !(op->open_flag & O_EXCL))
			d->d_inode->i_state |= I_LINKABLE;
	}
	dput(d);
	return err;
}

static int do_tmpfile(struct uvfs_task *task, int dfd, const char *name,
		      const struct open_flags *op, struct file *f)
{
	struct path dir;
	int err;

	err = filename_lookup(task, dfd, name, op->lookup | LOOKUP_DIRECTORY, &dir);
	if (err)
		return err;
	err = tmpfile_at(task, &dir, op, f);
	path_put(&dir);
	return err;
}

static int path_openat(struct uvfs_task *task, int dfd, const char *name,
		       const struct open_flags *op, struct file *f)
{
	struct nameidata nd;
	struct path path;
	bool created = false;
	int err;

	if (op->open_flag & KERNEL_O_TMPFILE)
		return do_tmpfile(task, dfd, name, op, f);
	if (op->open_flag & O_PATH) {
		err = filename_lookup(task, dfd, name, op->lookup, &path);
		if (err)
			return err;
		err = vfs_open(f, &path, op);
		path_put(&path);
		return err;
	}
	err = path_parentat(&nd, task, dfd, name, op->lookup);
	if (err)
		return err;
	/* The trailing-symlink loop of path_openat(). */
	while ((err = open_last_lookups(&nd, op, &created)) > 0) {
		err = nd_follow_link(&nd);
		if (err)
			break;
	}
	if (!err)
		err = do_open(&nd, op, created, f);
	nd_done(&nd);
	return err;
}

/* do_sys_openat2(): the descriptor, the file, the walk */
static int do_sys_open(struct uvfs_task *task, int dirfd, const char *path,
		       const struct open_flags *op, bool cloexec)
{
	struct file *f;
	int fd, err;

	task_enter(task);
	/* get_unused_fd_flags() comes before the walk: EMFILE wins over ENOENT; then
	 * alloc_empty_file(), before anything is created. */
	fd = fd_alloc(task->fs, task->files, uvfs_fd_floor);
	if (fd < 0)
		goto out;
	f = alloc_empty_file(task->fs);
	if (!f) {
		fd = -ENOMEM;
		goto out;
	}
	/* the number is taken while a fifo's open waits with ns_lock given up: another
	 * open of the table meanwhile gets another (alloc_fd()'s __set_open_fd) */
	fd_reserve(task->files, (unsigned int)fd);
	err = path_openat(task, dirfd, path, op, f);
	if (err) {
		fd_unreserve(task->files, (unsigned int)fd);  /* put_unused_fd() */
		file_free(f);
		fd = err;
		goto out;
	}
	fd_install(task->files, (unsigned int)fd, f, cloexec);
out:
	task_leave(task);
	return fd;
}

/*
 * file_open_root(path, "", flags, 0) for open_by_handle_at (do_handle_open()): the
 * descriptor, then the open of path itself as path_openat() opens a walk that ended
 * there -- ELOOP for a symlink unless O_PATH (do_file_open_root()), O_TMPFILE in it
 * if it is a directory, O_CREAT as for a name that exists.  Under ns_lock.
 */
int open_path(struct uvfs_task *task, const struct path *path, int flags)
{
	struct inode *inode = path->dentry->d_inode;
	struct open_flags op;
	struct nameidata nd;
	struct file *f;
	int fd, err;

	assert(ns_locked(task->fs));
	err = build_open_flags(flags, 0, &op);
	if (err)
		return err;
	fd = fd_alloc(task->fs, task->files, uvfs_fd_floor);
	if (fd < 0)
		return fd;
	f = alloc_empty_file(task->fs);
	if (!f)
		return -ENOMEM;
	/* a fifo's open may wait with ns_lock given up: the number stays taken */
	fd_reserve(task->files, (unsigned int)fd);
	if (S_ISLNK(inode->i_mode) && !(op.open_flag & O_PATH)) {
		err = -ELOOP;
	} else if ((op.lookup & LOOKUP_DIRECTORY) && !S_ISDIR(inode->i_mode)) {
		err = -ENOTDIR;
	} else if (op.open_flag & KERNEL_O_TMPFILE) {
		err = tmpfile_at(task, path, &op, f);
	} else if (op.open_flag & O_PATH) {
		err = vfs_open(f, path, &op);
	} else {
		nd_init_at(&nd, task, path, op.lookup);
		nd.dir_mode = 0;  /* no directory the name was made in: no sticky check */
		err = do_open(&nd, &op, false, f);
		nd_done(&nd);
	}
	if (err) {
		fd_unreserve(task->files, (unsigned int)fd);
		file_free(f);
		return err;
	}
	fd_install(task->files, (unsigned int)fd, f, flags & O_CLOEXEC);
	return fd;
}

int uvfs_openat(struct uvfs_task *task, int dirfd, const char *path, int flags,
		mode_t mode)
{
	struct open_flags op;
	int err;

	err = build_open_flags(flags, mode, &op);
	if (err)
		return err;
	return do_sys_open(task, dirfd, path, &op, flags & O_CLOEXEC);
}

/* openat2(2): copy_struct_from_user() and build_open_flags()'s checks of every
 * argument, then the open with the resolve flags as lookup flags */
#define OPEN_HOW_SIZE_VER0 24
#define O_PATH_FLAGS (O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC)
#define VALID_RESOLVE_FLAGS 0x3fu

int uvfs_openat2(struct uvfs_task *task, int dirfd, const char *path,
		 const struct uvfs_open_how *how, size_t size)
{
	static const struct { uint64_t resolve; unsigned int lookup; } resolve[] = {
		{ UVFS_RESOLVE_NO_XDEV, LOOKUP_NO_XDEV },
		{ UVFS_RESOLVE_NO_MAGICLINKS, LOOKUP_NO_MAGICLINKS },
		{ UVFS_RESOLVE_NO_SYMLINKS, LOOKUP_NO_SYMLINKS },
		{ UVFS_RESOLVE_BENEATH, LOOKUP_BENEATH },
		{ UVFS_RESOLVE_IN_ROOT, LOOKUP_IN_ROOT },
	};
	struct open_flags op;
	uint64_t flags;
	int err;

	_Static_assert(sizeof(struct uvfs_open_how) == OPEN_HOW_SIZE_VER0,
		       "struct open_how, version 0");
	if (size < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	if (size > 4096)
		return -E2BIG;
	if (!how)
		return -EFAULT;
	/* copy_struct_from_user(): a newer struct's fields must be zero */
	for (size_t i = sizeof(*how); i < size; i++)
		if (((const unsigned char *)how)[i])
			return -E2BIG;
	flags = how->flags & ~(uint64_t)O_CLOEXEC;
	if (flags & ~(uint64_t)VALID_OPEN_FLAGS)
		return -EINVAL;
	if (how->resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	if ((how->resolve & UVFS_RESOLVE_BENEATH) && (how->resolve & UVFS_RESOLVE_IN_ROOT))
		return -EINVAL;
	if (flags & (O_CREAT | KERNEL_O_TMPFILE) ? how->mode & ~(uint64_t)07777 : how->mode)
		return -EINVAL;
	if ((flags & O_PATH) && (flags & ~(uint64_t)O_PATH_FLAGS))
		return -EINVAL;
	/* the rest of build_open_flags(): O_CREAT|O_DIRECTORY, O_TMPFILE's mode */
	err = build_open_flags((int)how->flags, (mode_t)how->mode, &op);
	if (err)
		return err;
	if ((how->resolve & UVFS_RESOLVE_CACHED) && (flags & (O_TRUNC | O_CREAT | KERNEL_O_TMPFILE)))
		return -EAGAIN;
	for (size_t i = 0; i < sizeof(resolve) / sizeof(resolve[0]); i++)
		if (how->resolve & resolve[i].resolve)
			op.lookup |= resolve[i].lookup;
	return do_sys_open(task, dirfd, path, &op, how->flags & O_CLOEXEC);
}

int uvfs_close(struct uvfs_task *task, int fd)
{
	int err;

	task_enter(task);
	err = fd_close(task->files, fd);
	task_leave(task);
	return err;
}

static void set_pwd(struct uvfs_task *task, struct path *path)
{
	struct path old = task->fs_struct->pwd;

	task->fs_struct->pwd = *path;
	path_put(&old);
}

/* The walk of chdir and chroot: a directory, then path_permission(MAY_EXEC |
 * MAY_CHDIR) — an exited task's /proc/PID is ESRCH there.  *path referenced on
 * success. */
static int lookup_new_dir(struct uvfs_task *task, const char *name, struct path *path)
{
	int err = filename_lookup(task, AT_FDCWD, name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, path);

	if (!err && (err = inode_permission(&task->cred, path->dentry->d_inode,
					    MAY_EXEC | MAY_CHDIR)))
		path_put(path);
	return err;
}

int uvfs_chdir(struct uvfs_task *task, const char *name)
{
	struct path path;
	int err;

	task_enter(task);
	err = lookup_new_dir(task, name, &path);
	if (!err)
		set_pwd(task, &path);
	task_leave(task);
	return err;
}

int uvfs_fchdir(struct uvfs_task *task, int fd)
{
	struct file *f;
	int err = 0;

	task_enter(task);
	f = fdget(task, fd);
	if (!f) {
		err = -EBADF;
	} else if (!S_ISDIR(f->f_inode->i_mode)) {
		err = -ENOTDIR;
	} else if (!(err = inode_permission(&task->cred, f->f_inode, MAY_EXEC | MAY_CHDIR))) {
		/* file_permission(MAY_EXEC | MAY_CHDIR) passed */
		struct path p = f->f_path;

		path_get(&p);
		set_pwd(task, &p);
	}
	task_leave(task);
	return err;
}

/* access_override_creds(): the real ids as filesystem ids; a real uid other than 0
 * has no capabilities, 0 has its permitted set */
static void access_override_creds(struct cred *c)
{
	c->fsuid = c->uid;
	c->fsgid = c->gid;
	c->cap_effective = c->uid ? 0 : c->cap_permitted;
}

int uvfs_faccessat2(struct uvfs_task *task, int dirfd, const char *name, int mode, int flags)
{
	unsigned int lf = LOOKUP_FOLLOW;
	struct cred saved;
	struct path path;
	struct inode *inode;
	int err;

	/* do_faccessat() */
	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lf &= ~LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lf |= LOOKUP_EMPTY;
	task_enter(task);
	saved = task->cred;
	if (!(flags & AT_EACCESS))
		access_override_creds(&task->cred);  /* the walk too */
	err = filename_lookup(task, dirfd, name, lf, &path);
	if (err)
		goto out;
	inode = path.dentry->d_inode;
	/* MAY_ACCESS is the kernel's marker for security modules: nothing here */
	_Static_assert(R_OK == MAY_READ && W_OK == MAY_WRITE && X_OK == MAY_EXEC, "access bits");
	/* a regular file through a noexec mount may not be executed, whatever its mode:
	 * EACCES before the mode is asked (do_faccessat's path_noexec();
	 * tests/diff/mount-noexec.sys) */
	if ((mode & X_OK) && S_ISREG(inode->i_mode) && path_noexec(&path))
		err = -EACCES;
	else
		err = inode_permission(&task->cred, inode, mode & (R_OK | W_OK | X_OK));
	/* "SuS v2 requires we report a read only fs too", for what may be written */
	if (!err && (mode & W_OK) && !S_ISCHR(inode->i_mode) && !S_ISBLK(inode->i_mode) &&
	    !S_ISFIFO(inode->i_mode) && !S_ISSOCK(inode->i_mode) && mnt_is_readonly(path.mnt))
		err = -EROFS;
	path_put(&path);
out:
	task->cred = saved;
	task_leave(task);
	return err;
}

int uvfs_chroot(struct uvfs_task *task, const char *name)
{
	struct path path;
	int err;

	task_enter(task);
	err = lookup_new_dir(task, name, &path);  /* before the capability check */
	if (!err && !cred_capable(&task->cred, CAP_SYS_CHROOT)) {
		path_put(&path);
		err = -EPERM;
	}
	if (!err) {
		struct path old = task->fs_struct->root;

		task->fs_struct->root = path;
		path_put(&old);
	}
	task_leave(task);
	return err;
}

int uvfs_getcwd(struct uvfs_task *task, char *buf, size_t size)
{
	char *page;
	struct prepend_buffer b;
	int err, len;

	page = uvfs_malloc(UVFS_PATH_MAX);
	if (!page)
		return -ENOMEM;
	b.buf = page;
	b.len = UVFS_PATH_MAX;
	task_enter(task);
	d_path_sync(&task->fs_struct->pwd);
	if (d_unlinked(task->fs_struct->pwd.dentry)) {
		err = -ENOENT;
		goto out;
	}
	prepend(&b, "", 1);
	if (prepend_path(&task->fs_struct->pwd, &task->fs_struct->root, &b) > 0)
		prepend(&b, "(unreachable)", 13);
	len = UVFS_PATH_MAX - b.len;
	if (b.len < 0)
		err = -ENAMETOOLONG;
	else if ((size_t)len > size)
		err = -ERANGE;
	else if (!buf)
		err = -EFAULT;  /* copy_to_user() */
	else {
		memcpy(buf, page + b.len, (size_t)len);
		err = len;
	}
out:
	task_leave(task);
	free(page);
	return err;
}
