// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsopen.c - the new mount API's filesystem contexts (fs/fsopen.c, fs/fs_context.c):
 * fsopen() makes a context for a filesystem type, a descriptor "anon_inode:[fscontext]";
 * fspick() one of a mounted superblock; fsconfig() sets its parameters one at a
 * time and creates or reconfigures the superblock; fsmount() gives the superblock a
 * mount of its own in a detached tree (an O_PATH descriptor of its root;
 * move_mount() attaches it: mount.c).
 *
 * A context goes through the kernel's phases: parameters for a creation, then a
 * created superblock waiting for fsmount (a failed creation ends it: EBUSY from then
 * on), then, after fsmount, a reconfiguration's parameters and FSCONFIG_CMD_RECONFIGURE.
 *
 * Difference from Linux, deliberate: the context keeps no message log, so a read of
 * its descriptor is ENODATA (Linux's answer when no message is queued); the errors
 * are the kernel's.  fspick() gives a context of an existing superblock, in the
 * reconfiguration's phase.
 *
 * Locking: ns_lock for every call (task_enter); the context is its file's
 * private_data, freed with the file's last reference (->release).
 */
#include <stdio.h>
#include <sys/mount.h>

#include "anon_inodes.h"
#include "file.h"
#include "mount.h"
#include "namei.h"
#include "task.h"

#ifndef FSCONFIG_CMD_CREATE_EXCL
#define FSCONFIG_CMD_CREATE_EXCL 8   /* Linux 6.6 */
#endif
/* the attributes fsmount() takes (FSMOUNT_VALID_FLAGS) */
#define FSMOUNT_VALID_FLAGS (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | \
			     MOUNT_ATTR_NOEXEC | MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME | \
			     MOUNT_ATTR_NOSYMFOLLOW)
/* strndup_user(..., 256) of a key or a string value */
#define FSCONFIG_STRING_MAX 256

enum fs_context_phase {
	FS_CONTEXT_CREATE_PARAMS,   /* parameters of a superblock to create */
	FS_CONTEXT_AWAITING_MOUNT,  /* created: fsmount() may take it */
	FS_CONTEXT_AWAITING_RECONF, /* mounted: a parameter starts a reconfiguration */
	FS_CONTEXT_RECONF_PARAMS,   /* parameters of a reconfiguration */
	FS_CONTEXT_FAILED,          /* a creation failed: nothing more */
};

struct fs_context {
	const struct file_system_type *type;  /* immutable */
	enum fs_context_phase phase;
	struct fs_mount_opts opts;   /* the parameters given (a reconfiguration's alone) */
	unsigned long sb_flags;      /* MS_RDONLY... of "ro", "rw"...; 0 again after fsmount
				      * and each reconfiguration (vfs_clean_context()) */
	/* the generic flags ever named in this context: a reconfiguration sets or
	 * clears each of them, as sb_flags says (Linux 6.18 keeps the creation's
	 * too: "dirsync" then is EINVAL to reconfigure, as it is not MS_RMT_MASK's) */
	unsigned long sb_flags_mask;
	bool have_source;
	char *source;                /* "source" (the mount's devname), or NULL */
	struct super_block *sb;      /* the created superblock (a reference), or NULL */
};

static ssize_t fscontext_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	(void)f, (void)buf, (void)count, (void)pos;
	return -ENODATA;  /* fscontext_read() with an empty log */
}

static void fscontext_release(struct inode *inode, struct file *f)
{
	struct fs_context *fc = f->private_data;

	(void)inode;
	if (fc->sb)
		sb_put(fc->sb);
	free(fc->source);
	free(fc);
}

static const struct file_operations fscontext_fops = {
	.read = fscontext_read,
	.release = fscontext_release,
};

static const struct inode_operations fscontext_iops = {
	.fop = &fscontext_fops,
};

/* The context behind fd: -EBADF no descriptor, -EINVAL not a context's */
static struct fs_context *fdget_fscontext(struct uvfs_task *task, int fd, int *err)
{
	struct file *f = fdget(task, fd);

	*err = !f ? -EBADF : f->f_op != &fscontext_fops ? -EINVAL : 0;
	return *err ? NULL : f->private_data;
}

/* shmem_init_fs_context(): the root belongs to whoever made the context; Linux's
 * default limits until a parameter says otherwise */
static void fc_init_opts(struct fs_context *fc, const struct uvfs_task *task)
{
	memset(&fc->opts, 0, sizeof(fc->opts));
	fc->opts.root_uid = task->cred.fsuid;
	fc->opts.root_gid = task->cred.fsgid;
	fc->opts.seen = FS_OPT_LINUX_DEFAULTS;
}

/* fscontext_create_fd(): a new descriptor of a new context for type, in phase, of
 * superblock sb (a reference taken) or none yet: the descriptor, or -ENOMEM or
 * -EMFILE with nothing made */
static int fscontext_create_fd(struct uvfs_task *task, const struct file_system_type *type,
			       enum fs_context_phase phase, struct super_block *sb, bool cloexec)
{
	struct fs_context *fc;
	struct file *f;
	struct path path;
	int fd, err;

	err = anon_inode_path(task->fs, "[fscontext]", &fscontext_iops, &path);
	if (err)
		return err;
	fc = uvfs_zalloc(sizeof(*fc));
	f = fc ? alloc_empty_file(task->fs) : NULL;
	if (!f) {
		free(fc);
		return -ENOMEM;
	}
	/* anon_inode_getfd() last: EMFILE once the context is made */
	fd = fd_alloc(task->fs, task->files, uvfs_fd_floor);
	if (fd < 0) {
		file_free(f);
		free(fc);
		return fd;
	}
	fc->type = type;
	fc->phase = phase;
	fc_init_opts(fc, task);
	if (sb) {
		sb->s_count++;
		fc->sb = sb;
	}
	file_init(f, &path, O_RDWR, FMODE_READ | FMODE_WRITE);
	f->private_data = fc;
	fd_install(task->files, (unsigned int)fd, f, cloexec);
	return fd;
}

int uvfs_fsopen(struct uvfs_task *task, const char *fs_name, unsigned int flags)
{
	const struct file_system_type *type;
	int err;

	if (!task)
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount() */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = -EINVAL;
	if (flags & ~FSOPEN_CLOEXEC)
		goto out;
	err = -EFAULT;
	if (!fs_name)
		goto out;
	err = -ENODEV;
	type = get_fs_type(task->fs, fs_name);
	if (type)
		err = fscontext_create_fd(task, type, FS_CONTEXT_CREATE_PARAMS, NULL,
					  flags & FSOPEN_CLOEXEC);
out:
	task_leave(task);
	return err;
}

/* fspick(): a context to reconfigure the superblock of the mount whose root
 * (dfd, path) is (FSPICK_CLOEXEC, _SYMLINK_NOFOLLOW, _NO_AUTOMOUNT, _EMPTY_PATH) */
int uvfs_fspick(struct uvfs_task *task, int dfd, const char *path, unsigned int flags)
{
	struct path target;
	int err;

	if (!task)
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount() */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = -EINVAL;
	if (flags & ~(FSPICK_CLOEXEC | FSPICK_SYMLINK_NOFOLLOW | FSPICK_NO_AUTOMOUNT |
		      FSPICK_EMPTY_PATH))
		goto out;
	err = -EFAULT;
	if (!path)
		goto out;
	err = filename_lookup(task, dfd, path,
			      ((flags & FSPICK_SYMLINK_NOFOLLOW) ? 0 : LOOKUP_FOLLOW) |
			      ((flags & FSPICK_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &target);
	if (err)
		goto out;
	err = -EINVAL;
	if (target.dentry == target.mnt->mnt_root)
		err = fscontext_create_fd(task, target.mnt->mnt_sb->s_type,
					  FS_CONTEXT_AWAITING_RECONF, target.mnt->mnt_sb,
					  flags & FSPICK_CLOEXEC);
	path_put(&target);
out:
	task_leave(task);
	return err;
}

/* vfs_get_tree(): the superblock of the parameters given */
static int fc_create(struct uvfs_task *task, struct fs_context *fc)
{
	struct super_block *sb;
	int err;

	fc->opts.source = fc->source;
	sb = mount_fs(task->fs, fc->type, &fc->opts);
	fc->opts.source = NULL;
	if (IS_ERR(sb))
		return (int)PTR_ERR(sb);
	err = sb_set_readonly(sb, fc->sb_flags & MS_RDONLY);  /* nobody sees it yet */
	if (err) {
		sb_put(sb);
		return err;
	}
	sb->s_ms_flags = fc->sb_flags & SB_SHOWN_FLAGS;
	fc->sb = sb;
	return 0;
}

/* reconfigure_super(): the parameters given since fsmount, as a remount's; the
 * generic flags of sb_flags_mask replaced */
static int fc_reconfigure(struct uvfs_task *task, struct fs_context *fc)
{
	struct super_block *sb = fc->sb;
	unsigned long mask = fc->sb_flags_mask;
	bool ro = (mask & MS_RDONLY) ? fc->sb_flags & MS_RDONLY : sb->s_readonly;
	int err;

	if (mask & ~(unsigned long)(MS_RDONLY | MS_SYNCHRONOUS | MS_MANDLOCK | MS_I_VERSION |
				    MS_LAZYTIME))
		return -EINVAL;  /* MS_RMT_MASK */

	if (ro && !sb->s_readonly && sb_prepare_remount_readonly_busy(task->fs, sb))
		return -EBUSY;
	if (sb->s_type->reconfigure) {
		err = sb->s_type->reconfigure(sb, &fc->opts);
		if (err)
			return err;
	}
	err = sb_set_readonly(sb, ro);
	if (err)
		return err;
	sb->s_ms_flags = (sb->s_ms_flags & ~mask) | (fc->sb_flags & mask & SB_SHOWN_FLAGS);
	return 0;
}

/* vfs_fsconfig_locked() after the arguments' checks */
static int fsconfig_locked(struct uvfs_task *task, struct fs_context *fc, unsigned int cmd,
			   const char *key, const char *string)
{
	int err;

	/* finish_clean_context(): after fsmount, a reconfiguration begins, of nothing
	 * yet, the superblock's read-only state as it is */
	if (fc->phase == FS_CONTEXT_AWAITING_RECONF) {
		memset(&fc->opts, 0, sizeof(fc->opts));
		fc->sb_flags = 0;
		fc->have_source = false;
		fc->phase = FS_CONTEXT_RECONF_PARAMS;
	}
	switch (cmd) {
	case FSCONFIG_CMD_CREATE:
	case FSCONFIG_CMD_CREATE_EXCL:
		/* a tmpfs, memfs or proc superblock is always a new one: _EXCL too */
		if (fc->phase != FS_CONTEXT_CREATE_PARAMS)
			return -EBUSY;
		err = fc_create(task, fc);
		fc->phase = err ? FS_CONTEXT_FAILED : FS_CONTEXT_AWAITING_MOUNT;
		return err;
	case FSCONFIG_CMD_RECONFIGURE:
		if (fc->phase != FS_CONTEXT_RECONF_PARAMS)
			return -EBUSY;
		err = fc_reconfigure(task, fc);
		memset(&fc->opts, 0, sizeof(fc->opts));
		fc->phase = err ? FS_CONTEXT_FAILED : FS_CONTEXT_AWAITING_RECONF;
		return err;
	default:
		if (fc->phase != FS_CONTEXT_CREATE_PARAMS && fc->phase != FS_CONTEXT_RECONF_PARAMS)
			return -EBUSY;
		break;
	}
	/* vfs_parse_fs_param(): a flag has no value (string NULL); a binary, path or
	 * file value is no parameter of these filesystems but for the generic flags,
	 * which look at the key alone */
	if (cmd != FSCONFIG_SET_FLAG && cmd != FSCONFIG_SET_STRING) {
		bool source = true;  /* "source" must be a string */
		struct fs_mount_opts none = { 0 };
		const struct file_system_type bare = { 0 };

		err = parse_fs_param(&bare, key, NULL, &source, &none, &fc->sb_flags,
				     &fc->sb_flags_mask);
		return err ? -EINVAL : 0;
	}
	err = parse_fs_param(fc->type, key, string, &fc->have_source, &fc->opts, &fc->sb_flags,
			     &fc->sb_flags_mask);
	if (err == 1) {
		/* the source (a reconfiguration's is taken and unused: the mount's
		 * devname stays) */
		if (fc->phase == FS_CONTEXT_RECONF_PARAMS)
			return 0;
		fc->source = strdup(string);
		if (!fc->source) {
			fc->have_source = false;
			return -ENOMEM;
		}
		err = 0;
	}
	return err;
}

int uvfs_fsconfig(struct uvfs_task *task, int fd, unsigned int cmd, const char *key,
		  const void *value, int aux)
{
	struct fs_context *fc;
	int err;

	if (!task)
		return -EINVAL;
	if (fd < 0)
		return -EINVAL;
	/* each command's arguments, before the descriptor */
	switch (cmd) {
	case FSCONFIG_SET_FLAG:
		if (!key || value || aux)
			return -EINVAL;
		break;
	case FSCONFIG_SET_STRING:
		if (!key || !value || aux)
			return -EINVAL;
		break;
	case FSCONFIG_SET_BINARY:
		if (!key || !value || aux <= 0 || aux > 1024 * 1024)
			return -EINVAL;
		break;
	case FSCONFIG_SET_PATH:
	case FSCONFIG_SET_PATH_EMPTY:
		if (!key || !value || (aux != AT_FDCWD && aux < 0))
			return -EINVAL;
		break;
	case FSCONFIG_SET_FD:
		if (!key || value || aux < 0)
			return -EINVAL;
		break;
	case FSCONFIG_CMD_CREATE:
	case FSCONFIG_CMD_CREATE_EXCL:
	case FSCONFIG_CMD_RECONFIGURE:
		if (key || value || aux)
			return -EINVAL;
		break;
	default:
		return -EOPNOTSUPP;
	}
	task_enter(task);
	fc = fdget_fscontext(task, fd, &err);
	if (!fc)
		goto out;
	/* strndup_user(): a key or string of 256 bytes or more */
	err = -EINVAL;
	if (key && strnlen(key, FSCONFIG_STRING_MAX) == FSCONFIG_STRING_MAX)
		goto out;
	if (cmd == FSCONFIG_SET_STRING && strnlen(value, FSCONFIG_STRING_MAX) == FSCONFIG_STRING_MAX)
		goto out;
	/* the value's object before the parameter: getname() of the path, fget() of
	 * the descriptor */
	if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY) {
		err = -ENOENT;
		if (cmd == FSCONFIG_SET_PATH && !*(const char *)value)
			goto out;
	} else if (cmd == FSCONFIG_SET_FD) {
		err = -EBADF;
		if (!fdget(task, aux))
			goto out;
	}
	err = fsconfig_locked(task, fc, cmd, key, cmd == FSCONFIG_SET_STRING ? value : NULL);
out:
	task_leave(task);
	return err;
}

/* attr_flags_to_mnt_flags() and fsmount()'s atime */
int mount_attr_to_mnt_flags(uint64_t attr, int *mnt_flags)
{
	int f = 0;

	if (attr & MOUNT_ATTR_RDONLY)
		f |= MNT_READONLY;
	if (attr & MOUNT_ATTR_NOSUID)
		f |= MNT_NOSUID;
	if (attr & MOUNT_ATTR_NODEV)
		f |= MNT_NODEV;
	if (attr & MOUNT_ATTR_NOEXEC)
		f |= MNT_NOEXEC;
	if (attr & MOUNT_ATTR_NODIRATIME)
		f |= MNT_NODIRATIME;
	if (attr & MOUNT_ATTR_NOSYMFOLLOW)
		f |= MNT_NOSYMFOLLOW;
	*mnt_flags = f;
	switch (attr & MOUNT_ATTR__ATIME) {
	case MOUNT_ATTR_STRICTATIME:
		return 0;
	case MOUNT_ATTR_NOATIME:
		*mnt_flags |= MNT_NOATIME;
		return 0;
	case MOUNT_ATTR_RELATIME:
		*mnt_flags |= MNT_RELATIME;
		return 0;
	default:
		return -EINVAL;
	}
}

int uvfs_fsmount(struct uvfs_task *task, int fs_fd, unsigned int flags, unsigned int attr_flags)
{
	struct fs_context *fc;
	struct mount *m, *one[1];
	int up[1] = { -1 };
	struct mnt_copies c = { one, one, up, 1 };
	struct path path;
	int mnt_flags, err, fd;

	if (!task)
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount() */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = -EINVAL;
	if ((flags & ~FSMOUNT_CLOEXEC) || (attr_flags & ~FSMOUNT_VALID_FLAGS))
		goto out;
	err = mount_attr_to_mnt_flags(attr_flags, &mnt_flags);
	if (err)
		goto out;
	fc = fdget_fscontext(task, fs_fd, &err);
	if (!fc)
		goto out;
	/* a superblock to mount, and not mounted already */
	err = -EINVAL;
	if (!fc->sb)
		goto out;
	err = -EBUSY;
	if (fc->phase != FS_CONTEXT_AWAITING_MOUNT)
		goto out;
	err = -ENOMEM;
	m = mnt_alloc(task->fs, fc->sb, NULL, fc->source ? fc->source : "none", mnt_flags);
	if (!m)
		goto out;
	one[0] = m;
	if (mnt_detached_tree(task->fs, &c, 0)) {
		mnt_discard(m);
		goto out;
	}
	/* an O_PATH descriptor of its root that unmounts it when it goes, if it is
	 * still detached then (FMODE_NEED_UNMOUNT) */
	path.mnt = m;
	path.dentry = m->mnt_root;
	fd = open_path(task, &path, O_PATH | ((flags & FSMOUNT_CLOEXEC) ? O_CLOEXEC : 0));
	if (fd < 0) {
		dissolve_on_fput(task->fs, m);
		err = fd;
		goto out;
	}
	fdget(task, fd)->f_mode |= FMODE_NEED_UNMOUNT;
	fc->phase = FS_CONTEXT_AWAITING_RECONF;  /* vfs_clean_context() */
	err = fd;
out:
	task_leave(task);
	return err;
}
