// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * mount.c - mount(2) and umount2(2) (fs/namespace.c's path_mount, do_new_mount,
 * do_loopback, do_remount, do_reconfigure_mnt, do_move_mount_old, do_change_type,
 * path_umount), each check in the kernel's order.
 *
 * Propagation (shared, slave, private, unbindable mounts and what a mount or an
 * unmount does in peers and slaves) is pnode.c's; every attach here goes through
 * its attach_recursive_mnt(), every unmount through umount_propagated().
 *
 * Locking: each call takes ns_lock through task_enter() for its whole run.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/mount.h>

#include "file.h"
#include "fsnotify.h"
#include "mount.h"
#include "namei.h"
#include "task.h"

#ifndef MOVE_MOUNT_BENEATH
#define MOVE_MOUNT_BENEATH 0x200  /* Linux 6.5 */
#endif
/* MOVE_MOUNT__MASK of 6.18 (glibc 2.36 has one without SET_GROUP and BENEATH) */
#define MOVE_MOUNT_VALID 0x377
/* mount_setattr()'s attributes (MOUNT_SETATTR_VALID_FLAGS) and types */
#define MOUNT_SETATTR_VALID_FLAGS (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | \
				   MOUNT_ATTR_NOEXEC | MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME | \
				   MOUNT_ATTR_IDMAP | MOUNT_ATTR_NOSYMFOLLOW)

#define MS_PROPAGATION (MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)
/* the sb flags a remount may change (MS_RMT_MASK) */
#define UVFS_MS_RMT_MASK (MS_RDONLY | MS_SYNCHRONOUS | MS_MANDLOCK | MS_I_VERSION | \
			  MS_LAZYTIME)
/* copy_mount_options(): one page, its last byte forced to NUL */
#define MOUNT_DATA_MAX 4095


/* d_set_mounted(): a removed directory, or one in a removed tree, is no mount point --
 * a target's (lock_mount()), or a source's root (attach_recursive_mnt()'s
 * get_mountpoint(), for a tuck): ENOENT, for a bind, a move, an attach of a detached
 * tree and MOVE_MOUNT_BENEATH alike */
static bool root_unlinked(const struct dentry *d)
{
	if (d_unlinked(d))
		return true;
	for (d = d->d_parent; !IS_ROOT(d); d = d->d_parent)
		if (d_unhashed(d))
			return true;
	return false;
}

/* lock_mount(): nothing is mounted in an unmounted (lazily detached) mount, nor on
 * what the filesystem marked so (cant_mount(): procfs's fd/N and fdinfo/N), nor on a
 * removed directory: ENOENT */
static bool cant_mount(const struct path *path)
{
	return (path->mnt->mnt_flags & MNT_UMOUNT) || d_cant_mount(path->dentry) ||
	       root_unlinked(path->dentry);
}

/* graft_tree()'s check: a directory on a directory, anything else on anything else */
static int graft_check(const struct dentry *mp, const struct dentry *root)
{
	return S_ISDIR(mp->d_inode->i_mode) != S_ISDIR(root->d_inode->i_mode) ? -ENOTDIR : 0;
}

/* check_mnt(): the mount is in the caller's namespace (so not unmounted) */
static bool check_mnt(const struct uvfs_task *task, const struct mount *m)
{
	return m->mnt_ns == task->mnt_ns;
}

int parse_fs_param(const struct file_system_type *type, const char *key, const char *value,
		   bool *have_source, struct fs_mount_opts *opts, unsigned long *sb_flags,
		   unsigned long *sb_mask)
{
	/* vfs_parse_sb_flag(): common_set_sb_flag and common_clear_sb_flag */
	static const struct { const char *key; unsigned long set, clear; } sb_flag[] = {
		{ "ro", MS_RDONLY, 0 }, { "rw", 0, MS_RDONLY },
		{ "sync", MS_SYNCHRONOUS, 0 }, { "async", 0, MS_SYNCHRONOUS },
		{ "dirsync", MS_DIRSYNC, 0 }, { "lazytime", MS_LAZYTIME, 0 },
		{ "nolazytime", 0, MS_LAZYTIME }, { "mand", MS_MANDLOCK, 0 },
		{ "nomand", 0, MS_MANDLOCK }, { "posixacl", MS_POSIXACL, 0 }, { "silent", 0, 0 },
	};
	int err;

	for (size_t i = 0; i < sizeof(sb_flag) / sizeof(sb_flag[0]); i++)
		if (!strcmp(key, sb_flag[i].key)) {
			*sb_flags = (*sb_flags & ~sb_flag[i].clear) | sb_flag[i].set;
			if (sb_mask)
				*sb_mask |= sb_flag[i].set | sb_flag[i].clear;
			return 0;
		}
	err = type->parse_param ? type->parse_param(opts, key, value) : -ENOPARAM;
	if (err == -ENOPARAM && !strcmp(key, "source")) {
		/* vfs_parse_fs_param_source(): one source only */
		if (*have_source || !value)
			return -EINVAL;
		*have_source = true;
		return 1;
	}
	return err == -ENOPARAM ? -EINVAL : err;
}

/*
 * parse_monolithic_mount_data(): "a,b=c,,d" one option at a time (parse_fs_param()).
 */
static int parse_mount_data(const struct file_system_type *type, const char *data,
			    bool have_source, struct fs_mount_opts *opts, unsigned long *sb_flags)
{
	char buf[MOUNT_DATA_MAX + 1], *save = NULL;

	if (!data)
		return 0;
	snprintf(buf, sizeof(buf), "%s", data);
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		char *value = strchr(o, '=');
		int err;

		if (value)
			*value++ = 0;
		err = parse_fs_param(type, o, value, &have_source, opts, sb_flags, NULL);
		if (err < 0)
			return err;
	}
	return 0;
}

/* do_new_mount(): a new superblock of the type, mounted on path. */
static int do_new_mount(struct uvfs_task *task, const struct path *path, const char *fstype,
			unsigned long sb_flags, int mnt_flags, const char *source,
			const char *data)
{
	struct uvfs *fs = task->fs;
	struct fs_mount_opts opts = { 0 };
	const struct file_system_type *type;
	struct super_block *sb;
	struct mount *m;
	int err;

	if (!fstype)
		return -EINVAL;
	type = get_fs_type(fs, fstype);
	if (!type)
		return -ENODEV;
	/* shmem_init_fs_context(): the root belongs to the mounter; Linux's limits */
	opts.root_uid = task->cred.fsuid;
	opts.root_gid = task->cred.fsgid;
	opts.seen = FS_OPT_LINUX_DEFAULTS;
	opts.source = source;
	err = parse_mount_data(type, data, source != NULL, &opts, &sb_flags);
	if (err)
		return err;
	/* do_new_mount_fc(): lock_mount() (ENOENT), then graft_tree() (ENOTDIR) */
	if (cant_mount(path))
		return -ENOENT;
	if (!check_mnt(task, path->mnt))
		return -EINVAL;  /* do_add_mount(): another namespace's mount */
	if (!S_ISDIR(path->dentry->d_inode->i_mode))
		return -ENOTDIR;
	sb = mount_fs(fs, type, &opts);
	if (IS_ERR(sb))
		return (int)PTR_ERR(sb);
	err = sb_set_readonly(sb, sb_flags & MS_RDONLY);  /* not yet seen by anyone */
	if (err) {
		sb_put(sb);
		return err;
	}
	sb->s_ms_flags = sb_flags & SB_SHOWN_FLAGS;
	m = mnt_alloc(fs, sb, NULL, source ? source : "none", mnt_flags);
	sb_put(sb);  /* the mount's reference is the one left */
	if (!m)
		return -ENOMEM;
	/* graft_tree()'s attach_recursive_mnt(): count_mounts() last */
	{
		struct mount *one[1] = { m };
		int up[1] = { -1 };
		struct mnt_copies c = { one, one, up, 1 };

		err = attach_recursive_mnt(fs, &c, path->mnt, path->dentry, false, NULL);
	}
	if (err)
		mnt_discard(m);
	return err;
}

/* The source of a bind or a move: EINVAL for none, its walk's errors; 0 with
 * *old_path held, or -errno. */
static int lookup_source(struct uvfs_task *task, const char *old_name, struct path *old_path)
{
	if (!old_name || !*old_name)
		return -EINVAL;
	return filename_lookup(task, AT_FDCWD, old_name, LOOKUP_FOLLOW, old_path);
}

/*
 * do_loopback(): a bind of old_name on path — one mount (clone_mnt()), or with
 * MS_REC the source's mounts below it too, but not unbindable ones (copy_tree()).
 * Every copy is made before any is attached, so a failure (ENOMEM) changes nothing.
 */
static int do_loopback(struct uvfs_task *task, const struct path *path, const char *old_name,
		       bool recurse)
{
	struct path old_path;
	struct mnt_copies c;
	struct mount *old;
	int err = lookup_source(task, old_name, &old_path);

	if (err)
		return err;
	old = old_path.mnt;
	err = -ENOENT;  /* lock_mount() */
	if (cant_mount(path))
		goto out;
	err = -EINVAL;
	if (!check_mnt(task, path->mnt) || (old->mnt_flags & MNT_UNBINDABLE) || !check_mnt(task, old))
		goto out;
	err = copy_tree(task->fs, old, old_path.dentry, recurse ? CL_RECURSE : 0, &c);
	if (err)
		goto out;
	err = graft_check(path->dentry, old_path.dentry);  /* graft_tree() */
	if (!err && root_unlinked(old_path.dentry))
		err = -ENOENT;
	if (!err)
		err = attach_recursive_mnt(task->fs, &c, path->mnt, path->dentry, false, NULL);
	drop_copies(&c);  /* the arrays; the copies too if not attached */
out:
	path_put(&old_path);
	return err;
}

/* change_mount_ro_state() and set_mount_attributes(): the user-settable flags
 * replaced; read-only is refused while files are open for writing through it. */
static int set_mnt_flags(struct mount *m, int mnt_flags)
{
	if ((mnt_flags & MNT_READONLY) && !(m->mnt_flags & MNT_READONLY) && m->mnt_writers)
		return -EBUSY;  /* mnt_make_readonly() */
	/* WRITE_ONCE: a lockless walk reads them (nosymfollow, atime) */
	WRITE_ONCE(m->mnt_flags, (m->mnt_flags & ~MNT_USER_SETTABLE_MASK) | mnt_flags);
	return 0;
}

/* sb_prepare_remount_readonly(): busy while a file without a name is in use (an
 * unlinked open file, an O_TMPFILE, a removed cwd) or a file is open for writing
 * through any mount of sb. */
bool sb_prepare_remount_readonly_busy(struct uvfs *fs, const struct super_block *sb)
{
	struct mount *m;

	if (sb->s_remove_count)
		return true;
	cds_list_for_each_entry(m, &fs->mounts, mnt_list)
		if (m->mnt_sb == sb && m->mnt_writers)
			return true;
	return false;
}

/* do_remount(): the superblock's options and read-only state, then the mount's
 * flags.  The path must be a mount's root. */
static int do_remount(struct uvfs_task *task, const struct path *path, unsigned long sb_flags,
		      int mnt_flags, const char *data)
{
	struct mount *m = path->mnt;
	struct super_block *sb = m->mnt_sb;
	struct fs_mount_opts opts = { 0 };
	bool ro;
	int err;

	if (!check_mnt(task, m) || path->dentry != m->mnt_root)
		return -EINVAL;
	err = parse_mount_data(sb->s_type, data, true, &opts, &sb_flags);
	if (err)
		return err;
	ro = sb_flags & MS_RDONLY;  /* the flag, or "ro"/"rw" in the data */
	/* reconfigure_super(): a superblock going read-only may have no writer */
	if (ro && !sb->s_readonly && sb_prepare_remount_readonly_busy(task->fs, sb))
		return -EBUSY;
	if (sb->s_type->reconfigure) {
		err = sb->s_type->reconfigure(sb, &opts);
		if (err)
			return err;
	}
	err = sb_set_readonly(sb, ro);
	if (err)
		return err;
	/* the flags of MS_RMT_MASK replaced (MS_DIRSYNC is not among them) */
	sb->s_ms_flags = (sb->s_ms_flags & ~(unsigned long)UVFS_MS_RMT_MASK) |
			 (sb_flags & UVFS_MS_RMT_MASK & SB_SHOWN_FLAGS);
	/* set_mount_attributes(): the mount's flags follow, read-only included */
	/* WRITE_ONCE: a lockless walk reads them (nosymfollow, atime) */
	WRITE_ONCE(m->mnt_flags, (m->mnt_flags & ~MNT_USER_SETTABLE_MASK) | mnt_flags);
	return 0;
}

/* do_reconfigure_mnt(): MS_REMOUNT|MS_BIND changes the mount's flags alone. */
static int do_reconfigure_mnt(struct uvfs_task *task, const struct path *path, int mnt_flags)
{
	struct mount *m = path->mnt;

	if (!check_mnt(task, m) || path->dentry != m->mnt_root)
		return -EINVAL;
	return set_mnt_flags(m, mnt_flags);
}

/* do_change_type(): one propagation type (with MS_REC for the whole tree below). */
static int do_change_type(struct uvfs_task *task, const struct path *path,
			  unsigned long ms_flags)
{
	unsigned long type = ms_flags & MS_PROPAGATION;
	struct mount *m = path->mnt, *c;

	if (path->dentry != m->mnt_root || !check_mnt(task, m))
		return -EINVAL;
	/* flags_to_propagation_type(): nothing else, and exactly one type */
	if ((ms_flags & ~(MS_PROPAGATION | MS_REC | MS_SILENT)) || (type & (type - 1)))
		return -EINVAL;
	if (type == MS_SHARED) {
		int err = invent_group_ids(task->fs, m, ms_flags & MS_REC);

		if (err)
			return err;
	}
	for (c = m; c; c = (ms_flags & MS_REC) ? next_mnt(c, m) : NULL)
		change_mnt_propagation(task->fs, c, type);
	return 0;
}

/*
 * may_use_mount(): a mount of the caller's namespace, or of a detached tree the
 * caller's namespace made (check_anonymous_mnt(): fsmount's, or a clone of a mount of
 * that namespace; Linux 6.15, "fs: allow mount propagation to ... detached trees").
 */
static bool may_use_mount(const struct uvfs_task *task, const struct mount *m)
{
	return check_mnt(task, m) ||
	       (is_anon_ns(m->mnt_ns) && (!m->mnt_ns->origin || m->mnt_ns->origin == task->mnt_ns->ns_id));
}

/* mount_is_ancestor(): is there a (possibly empty) chain of parents from p2 up to p1? */
static bool mount_is_ancestor(const struct mount *p1, const struct mount *p2)
{
	while (p2 != p1 && p2->mnt_parent != p2)
		p2 = p2->mnt_parent;
	return p2 == p1;
}

/*
 * can_move_mount_beneath() (Linux 6.5, commit 6ac392815628, "fs: allow to mount
 * beneath top mount"): from may go under to, the topmost mount at the target -- not
 * under a namespace's root, the caller's root or a mount on the namespace's root, not
 * a source with something mounted on it, not under a mount of the source's own tree,
 * and not where the parent's propagation would put a copy on top of to or of from.
 * Each refusal is EINVAL (6.18 checked: tests/uvfs-run/newmount.py, "beneath").
 */
static int can_move_mount_beneath(struct uvfs_task *task, const struct mount *from,
				  const struct mount *to)
{
	const struct mount *parent = to->mnt_parent;

	if (parent == to)
		return -EINVAL;  /* do_lock_mount(): !mnt_has_parent() */
	/* "Avoid creating shadow mounts during mount propagation" */
	if (lookup_mnt(task->fs, from, from->mnt_root))
		return -EINVAL;
	/* "Mounting beneath the rootfs only makes sense when the semantics of
	 * pivot_root(".", ".") are used." */
	if (to == task->fs_struct->root.mnt || parent == task->mnt_ns->root)
		return -EINVAL;
	if (mount_is_ancestor(to, from))
		return -EINVAL;
	if (propagation_would_overmount(parent, to, to->mnt_mountpoint))
		return -EINVAL;
	if (check_mnt(task, from) && propagation_would_overmount(parent, from, to->mnt_mountpoint))
		return -EINVAL;
	return 0;
}

/* do_move_mount_old(): the mount whose root old_name is, with everything on it,
 * moved onto path -- or, beneath, onto the place of path's mount (the topmost there),
 * which then goes on the moved mount's root. */
static int do_move_mount(struct uvfs_task *task, const struct path *path,
			 const struct path *old_path, bool beneath)
{
	struct uvfs *fs = task->fs;
	struct mount *old = old_path->mnt, *p, *dest = path->mnt, *top = NULL;
	struct dentry *mp = path->dentry;
	struct mnt_namespace *anon = NULL;
	struct mnt_copies c = { 0 };
	int err;

	/* do_move_mount(): the source a mount's root and of the target's type, then
	 * lock_mount() (ENOENT), then the namespaces */
	if (old_path->dentry != old->mnt_root)
		return -EINVAL;
	if (S_ISDIR(path->dentry->d_inode->i_mode) != S_ISDIR(old_path->dentry->d_inode->i_mode))
		return -EINVAL;
	/* do_lock_mount(): beneath a mount with a parent, where the mountpoint that is
	 * locked is that mount's place in its parent (its own root may be unlinked) */
	if (beneath && (path->mnt->mnt_flags & MNT_UMOUNT))
		return -ENOENT;  /* unmounted (lazily) meanwhile: nothing goes there */
	if (beneath && (path->dentry != path->mnt->mnt_root || path->mnt->mnt_parent == path->mnt))
		return -EINVAL;
	if (cant_mount(beneath ? &(struct path){ .mnt = path->mnt->mnt_parent,
						 .dentry = path->mnt->mnt_mountpoint } : path))
		return -ENOENT;
	if (anon_ns_root(old)) {
		/* a detached tree (fsmount, open_tree(OPEN_TREE_CLONE)) joins the
		 * target's namespace whole -- since 6.15 the target may be another
		 * detached tree, though not its own (may_use_mount()) */
		if (old->mnt_ns == path->mnt->mnt_ns || !may_use_mount(task, path->mnt))
			return -EINVAL;
		anon = old->mnt_ns;
	} else if (!check_mnt(task, old) || old->mnt_parent == old || !check_mnt(task, path->mnt)) {
		/* a mount of the namespace moves within it only */
		return -EINVAL;
	} else if (IS_MNT_SHARED(old->mnt_parent)) {
		/* a mount in a shared parent stays (its peers would disagree) */
		return -EINVAL;
	}
	if (beneath) {
		err = can_move_mount_beneath(task, old, path->mnt);
		if (err)
			return err;
		top = path->mnt;
		dest = top->mnt_parent;
		mp = top->mnt_mountpoint;
	}
	/* no tree with an unbindable mount goes into a shared one */
	if (IS_MNT_SHARED(dest))
		for (p = old; p; p = next_mnt(p, old))
			if (p->mnt_flags & MNT_UNBINDABLE)
				return -EINVAL;
	/* not under itself */
	if (mount_is_ancestor(old, dest))
		return -ELOOP;
	if (root_unlinked(old->mnt_root))
		return -ENOENT;
	/* the tree as it is, for the copies of a propagation */
	err = tree_copies(old, &c);
	if (!err)
		err = attach_recursive_mnt(fs, &c, dest, mp, true, top);
	free(c.src);
	free(c.up);
	if (!err && anon)
		mnt_adopt_tree(fs, old, anon);
	return err;
}

/* MS_MOVE: the source by name */
static int do_move_mount_old(struct uvfs_task *task, const struct path *path,
			     const char *old_name)
{
	struct path old_path;
	int err = lookup_source(task, old_name, &old_path);

	if (err)
		return err;
	err = do_move_mount(task, path, &old_path, false);
	path_put(&old_path);
	return err;
}

/*
 * path_mount(): after the target's walk — MS_NOUSER, CAP_SYS_ADMIN, the per-mount
 * flags out of ms_flags, then one of remount (of the mount's flags alone with
 * MS_BIND), bind, propagation change, move, or a new mount.
 */
static int path_mount(struct uvfs_task *task, const char *source, const struct path *path,
		      const char *fstype, unsigned long flags, const char *data)
{
	unsigned long sb_flags;
	int mnt_flags = 0;

	/* the magic number of old mount(8)s */
	if ((flags & 0xffff0000ul) == 0xC0ED0000ul)
		flags &= ~0xffff0000ul;
	if (flags & MS_NOUSER)
		return -EINVAL;
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		return -EPERM;   /* may_mount() */
	if (!(flags & MS_NOATIME))
		mnt_flags |= MNT_RELATIME;
	if (flags & MS_NOSUID)
		mnt_flags |= MNT_NOSUID;
	if (flags & MS_NODEV)
		mnt_flags |= MNT_NODEV;
	if (flags & MS_NOEXEC)
		mnt_flags |= MNT_NOEXEC;
	if (flags & MS_NOATIME)
		mnt_flags |= MNT_NOATIME;
	if (flags & MS_NODIRATIME)
		mnt_flags |= MNT_NODIRATIME;
	if (flags & MS_STRICTATIME)
		mnt_flags &= ~(MNT_RELATIME | MNT_NOATIME);
	if (flags & MS_RDONLY)
		mnt_flags |= MNT_READONLY;
	if (flags & MS_NOSYMFOLLOW)
		mnt_flags |= MNT_NOSYMFOLLOW;
	/* a remount keeps the mount's atime behaviour unless it names one */
	if ((flags & MS_REMOUNT) &&
	    !(flags & (MS_NOATIME | MS_NODIRATIME | MS_RELATIME | MS_STRICTATIME))) {
		mnt_flags &= ~MNT_ATIME_MASK;
		mnt_flags |= path->mnt->mnt_flags & MNT_ATIME_MASK;
	}
	sb_flags = flags & (MS_RDONLY | MS_SYNCHRONOUS | MS_MANDLOCK | MS_DIRSYNC | MS_SILENT |
			    MS_POSIXACL | MS_LAZYTIME | MS_I_VERSION);
	if ((flags & (MS_REMOUNT | MS_BIND)) == (MS_REMOUNT | MS_BIND))
		return do_reconfigure_mnt(task, path, mnt_flags);
	if (flags & MS_REMOUNT)
		return do_remount(task, path, sb_flags, mnt_flags, data);
	if (flags & MS_BIND)
		return do_loopback(task, path, source, flags & MS_REC);
	if (flags & MS_PROPAGATION)
		return do_change_type(task, path, flags);
	if (flags & MS_MOVE)
		return do_move_mount_old(task, path, source);
	return do_new_mount(task, path, fstype, sb_flags, mnt_flags, source, data);
}

/* mount(2)'s arguments before anything else: a task, copy_mount_string()'s copies of
 * the strings (EFAULT for no target, EINVAL for a type or source past a page) */
static int mount_args_check(const struct uvfs_task *task, const char *source,
			    const char *target, const char *fstype)
{
	if (!task)
		return -EINVAL;
	if (!target)
		return -EFAULT;
	if ((fstype && strnlen(fstype, UVFS_PATH_MAX) == UVFS_PATH_MAX) ||
	    (source && strnlen(source, UVFS_PATH_MAX) == UVFS_PATH_MAX))
		return -EINVAL;
	return 0;
}

int uvfs_mount2(struct uvfs_task *task, const char *source, const char *target,
		const char *fstype, unsigned long flags, const char *data)
{
	struct path mp;
	int err;

	err = mount_args_check(task, source, target, fstype);
	if (err)
		return err;
	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, target, LOOKUP_FOLLOW, &mp);
	if (!err) {
		err = path_mount(task, source, &mp, fstype, flags, data);
		path_put(&mp);
	}
	task_leave(task);
	return err;
}

/*
 * One component of a mount's target, made if missing (uvfs_mount2_mkdirs): an
 * ordinary mkdir where the filesystem keeps its directories itself (memfs), and a
 * stub (->mkstub) where a mkdir would have to make one on the host -- nothing is
 * made on the host, and nothing is written, so a read-only mount takes it too.
 * *made: the dentry made (referenced), or NULL where the component was there.
 */
static int mkdir_component(struct uvfs_task *task, const char *prefix, struct dentry **made,
			   bool *stub)
{
	struct nameidata nd;
	struct inode *dir;
	struct dentry *d;
	int err = path_parentat(&nd, task, AT_FDCWD, prefix, 0);

	*made = NULL;
	if (err)
		return err;
	if (nd.last_type != LAST_NORM)
		goto out;  /* ".", "..", "/": there */
	d = nd_lookup_last(&nd);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto out;
	}
	if (d->d_inode) {
		/* there: a symlink is followed and a non-directory refused (ENOTDIR)
		 * by the walk of the next component or of the whole target */
		dput(d);
		goto out;
	}
	dir = nd.path.dentry->d_inode;
	if (nd.path.dentry->d_flags & DCACHE_DIR_DEAD)
		err = -ENOENT;
	else if ((*stub = dir->i_op->mkstub) &&
		 !(err = dir->i_op->mkstub(dir, d, S_IFDIR | 0755, task->cred.fsuid,
					   task->cred.fsgid)))
		fsnotify_create(dir, d);  /* as any mkdir: an rmdir's IN_DELETE will follow */
	else if (!*stub && !(err = mnt_want_write(nd.path.mnt)))
		err = vfs_mkdir(task, dir, d, 0755);
	if (err)
		dput(d);
	else
		*made = d;
out:
	nd_done(&nd);
	return err;
}

/*
 * uvfs_mount2_mkdirs(): uvfs_mount2() onto a target whose missing directories are
 * made first, all under one hold of ns_lock -- a uvfs extension, not a call of
 * Linux's, for an embedder that builds a namespace (uvfs-run's --bind and --tmpfs
 * destinations: bubblewrap makes them with mkdir on the host, which leaves empty
 * directories behind in the bound host directories).
 */
int uvfs_mount2_mkdirs(struct uvfs_task *task, const char *source, const char *target,
		       const char *fstype, unsigned long flags, const char *data)
{
	char buf[UVFS_PATH_MAX];
	struct dentry **made;
	size_t len, n = 0, max = 1;
	bool *stub;
	struct path mp;
	int err;

	err = mount_args_check(task, source, target, fstype);
	if (err)
		return err;
	len = strnlen(target, sizeof(buf));
	if (len == sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, target, len + 1);
	/* what is made, held until the mount is done: a component at most per '/' */
	for (size_t i = 0; i < len; i++)
		max += buf[i] == '/';
	made = uvfs_malloc(max * (sizeof(*made) + sizeof(*stub)));
	if (!made)
		return -ENOMEM;
	stub = (bool *)(made + max);
	task_enter(task);
	/* may_mount() before anything is made */
	err = cred_capable(&task->cred, CAP_SYS_ADMIN) ? 0 : -EPERM;
	for (char *s = buf; !err && *s; s++) {
		/* each prefix that ends a component: "/a", "/a/b", ... */
		if (s[1] != '/' && s[1])
			continue;
		if (*s == '/')
			continue;
		{
			char c = s[1];

			s[1] = 0;
			stub[n] = false;
			err = mkdir_component(task, buf, &made[n], &stub[n]);
			s[1] = c;
			if (made[n])
				n++;
		}
	}
	if (!err && !(err = filename_lookup(task, AT_FDCWD, target, LOOKUP_FOLLOW, &mp))) {
		err = path_mount(task, source, &mp, fstype, flags, data);
		path_put(&mp);
	}
	/* a failure takes the stubs it made away again, the last first; directories made
	 * on memfs stay, as mkdir -p's would */
	while (n--) {
		if (err && stub[n])
			d_drop(made[n]);
		dput(made[n]);
	}
	task_leave(task);
	free(made);
	return err;
}

/* The old form: a new filesystem, its limits as numbers. */
int uvfs_mount(struct uvfs_task *task, const char *fstype, const char *target,
	       unsigned long flags, uint64_t max_inodes, uint64_t max_bytes)
{
	char data[64];

	if (flags)
		return -EINVAL;
	if (fstype && (!strcmp(fstype, "tmpfs") || !strcmp(fstype, "memfs")))
		snprintf(data, sizeof(data), "nr_inodes=%llu,size=%llu",
			 (unsigned long long)max_inodes, (unsigned long long)max_bytes);
	else
		data[0] = 0;
	return uvfs_mount2(task, "none", target, fstype, 0, data[0] ? data : NULL);
}

/*
 * path_umount(): the target must be a mount's root (EINVAL), then do_umount(): the
 * task's own root is not unmounted but made read-only (do_umount_root()); a lazy
 * unmount takes the whole tree out at once; otherwise anything using the mount —
 * a mount below it, an open file, a task's cwd or root, the caller's own walk aside
 * — is EBUSY (propagate_mount_busy()).
 */
int uvfs_umount2(struct uvfs_task *task, const char *target, int flags)
{
	struct uvfs *fs;
	struct path path;
	struct mount *m;
	int err;

	if (!task)
		return -EINVAL;
	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	if (!target)
		return -EFAULT;
	fs = task->fs;
	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, target,
			      flags & UMOUNT_NOFOLLOW ? 0 : LOOKUP_FOLLOW, &path);
	if (err)
		goto out;
	/* ksys_umount()'s LOOKUP_MOUNTPOINT: the walk ends on the topmost mount stacked
	 * where it stopped (path_lookupat()'s handle_lookup_down()), even for a last
	 * component that crosses none -- ".", "/", a magic link: runc's
	 * pivot_root(".", ".") then umount2(".", MNT_DETACH) detaches the old root,
	 * stacked on the new one, not the new (tests/regress/umount-dot-after-pivot.sys) */
	follow_mounts(fs, &path);
	m = path.mnt;
	/* can_umount() */
	err = -EPERM;
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto put;
	err = -EINVAL;
	if (path.dentry != m->mnt_root || !check_mnt(task, m))
		goto put;
	if (flags & MNT_EXPIRE) {
		/* do_umount(): MNT_EXPIRE alone, and only marks an unused mount the
		 * first time (EAGAIN): nothing here expires mounts */
		if (m == task->fs_struct->root.mnt || (flags & (MNT_FORCE | MNT_DETACH)))
			goto put;
		err = m->mnt_count > 1 ? -EBUSY : -EAGAIN;
		goto put;
	}
	if (m == task->fs_struct->root.mnt && !(flags & MNT_DETACH)) {
		/* do_umount_root(): "unmounting" one's root remounts it read-only */
		if (!m->mnt_sb->s_readonly && sb_prepare_remount_readonly_busy(fs, m->mnt_sb)) {
			err = -EBUSY;
			goto put;
		}
		err = sb_set_readonly(m->mnt_sb, true);
		goto put;
	}
	if (m->mnt_parent == m) {
		err = -EINVAL;  /* the namespace's root: nothing to detach it from */
		goto put;
	}
	/* the caller's walk holds one reference */
	if (!(flags & MNT_DETACH) && (err = propagate_mount_busy(fs, m, 1))) {
		if (err > 0)
			err = -EBUSY;
		goto put;
	}
	err = umount_propagated(fs, m);
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

/*
 * unshare(2) for what uvfs models: CLONE_NEWNS (a copy of the task's mount namespace,
 * its root and cwd moved to the copies: copy_mnt_ns()), with CLONE_FS and CLONE_FILES
 * accepted and nothing to do (every uvfs task has its own root, cwd and descriptor
 * table already).  The other namespaces are not modelled: EINVAL, a deliberate
 * difference.
 */
int uvfs_unshare(struct uvfs_task *task, int flags)
{
	struct mnt_namespace *ns = NULL;
	int err = 0;

	if (!task)
		return -EINVAL;
	if (flags & ~(CLONE_NEWNS | CLONE_FS | CLONE_FILES))
		return -EINVAL;
	/* check_unshare_flags(): a new mount namespace wants an fs_struct of its own */
	if (flags & CLONE_NEWNS)
		flags |= CLONE_FS;
	task_enter(task);
	if ((flags & CLONE_NEWNS) && !cred_capable(&task->cred, CAP_SYS_ADMIN)) {
		err = -EPERM;  /* unshare_nsproxy_namespaces() */
		goto out;
	}
	/* ksys_unshare(): unshare_fs(), unshare_fd(), then the namespace; the copies
	 * are made before anything changes (ENOMEM leaves the task as it was) */
	if ((flags & CLONE_FS) && (err = unshare_fs_struct(task)))
		goto out;
	if ((flags & CLONE_FILES) && (err = unshare_files(task)))
		goto out;
	if (flags & CLONE_NEWNS) {
		ns = copy_mnt_ns(task->fs, task->mnt_ns, &task->fs_struct->root,
				 &task->fs_struct->pwd);
		if (!ns) {
			err = -ENOMEM;
			goto out;
		}
		put_mnt_ns(task->fs, task->mnt_ns);
		task->mnt_ns = ns;
	}
out:
	task_leave(task);
	return err;
}

/* chroot_fs_refs(): every task whose root or cwd was old has new instead */
static void chroot_fs_refs(struct uvfs *fs, const struct path *old, const struct path *new)
{
	struct uvfs_task *t;

	cds_list_for_each_entry(t, &fs->tasks, t_list) {
		struct path *p[2];

		if (!t->fs_struct)
			continue;  /* a zombie's went at its exit */
		p[0] = &t->fs_struct->root;
		p[1] = &t->fs_struct->pwd;
		for (int i = 0; i < 2; i++) {
			if (!path_equal(p[i], old))
				continue;
			path_get(new);
			path_put(p[i]);
			*p[i] = *new;
		}
	}
}

/*
 * pivot_root(2): the mount at new_root becomes the namespace's root (on the rootfs,
 * where the old root was), the old root goes on put_old, and every task whose root
 * or cwd was the old root moves to the new one.  Checks in the kernel's order.
 */
int uvfs_pivot_root(struct uvfs_task *task, const char *new_root, const char *put_old)
{
	struct uvfs *fs;
	struct path new, old, root;
	struct mount *new_mnt, *root_mnt, *old_mnt, *root_parent;
	struct dentry *root_mp;
	int err;

	if (!task)
		return -EINVAL;
	fs = task->fs;
	task_enter(task);
	err = -EPERM;
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = filename_lookup(task, AT_FDCWD, new_root, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &new);
	if (err)
		goto out;
	err = filename_lookup(task, AT_FDCWD, put_old, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &old);
	if (err)
		goto put_new;
	root = task->fs_struct->root;
	path_get(&root);
	new_mnt = new.mnt;
	root_mnt = root.mnt;
	old_mnt = old.mnt;
	err = -ENOENT;  /* lock_mount(&old) */
	if (cant_mount(&old))
		goto put_all;
	err = -EINVAL;
	/* no mount moves out of or into a shared mount */
	if (IS_MNT_SHARED(old_mnt) || IS_MNT_SHARED(new_mnt->mnt_parent) ||
	    IS_MNT_SHARED(root_mnt->mnt_parent))
		goto put_all;
	if (!check_mnt(task, root_mnt) || !check_mnt(task, new_mnt))
		goto put_all;
	err = -ENOENT;
	if (d_unlinked(new.dentry))
		goto put_all;
	err = -EBUSY;
	if (new_mnt == root_mnt || old_mnt == root_mnt)
		goto put_all;  /* loop, on the same filesystem */
	err = -EINVAL;
	if (root.dentry != root_mnt->mnt_root || root_mnt->mnt_parent == root_mnt)
		goto put_all;  /* the root is not a mount, or not attached */
	if (new.dentry != new_mnt->mnt_root || new_mnt->mnt_parent == new_mnt)
		goto put_all;  /* new_root is not a mount, or not attached */
	if (!is_path_reachable(old_mnt, old.dentry, &new))
		goto put_all;  /* put_old is not at or below new_root */
	if (!is_path_reachable(new_mnt, new.dentry, &root))
		goto put_all;  /* new_root is not below the root */
	/* the new root off its mount point, the old root off the rootfs (keeping where
	 * it was), the old root on put_old, the new root where the old one was */
	root_parent = root_mnt->mnt_parent;
	root_mp = dget(root_mnt->mnt_mountpoint);
	root_parent->mnt_count++;
	mnt_disconnect(fs, new_mnt);
	mnt_disconnect(fs, root_mnt);
	mnt_attach_to(fs, root_mnt, old_mnt, old.dentry);
	mnt_attach_to(fs, new_mnt, root_parent, root_mp);
	mntput(root_parent);
	dput(root_mp);
	chroot_fs_refs(fs, &root, &new);
	err = 0;
put_all:
	path_put(&root);
	path_put(&old);
put_new:
	path_put(&new);
out:
	task_leave(task);
	return err;
}

/* ---------------------------------------------------------------------------------
 * The new mount API's calls on mounts (fs/namespace.c): move_mount, open_tree,
 * mount_setattr.  fsopen, fsconfig and fsmount are fsopen.c's.
 */

/* A path given as (dirfd, name) with AT_EMPTY_PATH's meaning: the walk's */
static int lookup_at(struct uvfs_task *task, int dfd, const char *name, unsigned int lookup,
		     struct path *path)
{
	if (!name)
		return -EFAULT;
	return filename_lookup(task, dfd, name, lookup, path);
}

int uvfs_move_mount(struct uvfs_task *task, int from_dfd, const char *from_path, int to_dfd,
		    const char *to_path, unsigned int flags)
{
	struct path from, to;
	int err;

	if (!task)
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount() */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = -EINVAL;
	if ((flags & ~MOVE_MOUNT_VALID) ||
	    (flags & (MOVE_MOUNT_BENEATH | MOVE_MOUNT_SET_GROUP)) ==
	    (MOVE_MOUNT_BENEATH | MOVE_MOUNT_SET_GROUP))
		goto out;
	err = lookup_at(task, from_dfd, from_path,
			((flags & MOVE_MOUNT_F_SYMLINKS) ? LOOKUP_FOLLOW : 0) |
			((flags & MOVE_MOUNT_F_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &from);
	if (err)
		goto out;
	err = lookup_at(task, to_dfd, to_path,
			((flags & MOVE_MOUNT_T_SYMLINKS) ? LOOKUP_FOLLOW : 0) |
			((flags & MOVE_MOUNT_T_EMPTY_PATH) ? LOOKUP_EMPTY : 0), &to);
	if (err)
		goto put_from;
	if (flags & MOVE_MOUNT_SET_GROUP) {
		err = -EINVAL;
		if (check_mnt(task, from.mnt) && check_mnt(task, to.mnt) &&
		    from.dentry == from.mnt->mnt_root && to.dentry == to.mnt->mnt_root)
			err = do_set_group(from.mnt, to.mnt);
	} else {
		/* do_lock_mount(): beneath what is mounted on the very path given (a
		 * descriptor of a directory mounted on since is not); then the target's
		 * topmost mount */
		if ((flags & MOVE_MOUNT_BENEATH) && to.dentry != to.mnt->mnt_root)
			err = -EINVAL;
		else
			follow_mounts(task->fs, &to), err = 0;
		if (!err)
			err = do_move_mount(task, &to, &from, flags & MOVE_MOUNT_BENEATH);
	}
	path_put(&to);
put_from:
	path_put(&from);
out:
	task_leave(task);
	return err;
}

/* open_tree()'s and mount_setattr()'s AT_* flags as the walk's */
static unsigned int at_lookup_flags(unsigned int flags)
{
	return (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
	       (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
}

/* mount_setattr()'s request, checked (struct mount_kattr) */
struct mount_kattr {
	int set, clr;          /* MNT_* */
	unsigned long prop;    /* 0 or one MS_ type */
	bool recurse;
};

/*
 * wants_mount_setattr(): the struct mount_attr of usize bytes copied as
 * copy_struct_from_user() copies it and checked as build_mount_kattr() checks it:
 * 1 with *k filled, 0 for nothing to do, or -errno (E2BIG a page or more or unknown
 * bytes not zero, EINVAL under 32, EFAULT none, EINVAL two types, unknown
 * attributes, a partial or lone atime, MOUNT_ATTR_IDMAP)
 */
static int wants_mount_setattr(const struct uvfs_mount_attr *uattr, size_t usize,
			       struct mount_kattr *k)
{
	struct uvfs_mount_attr attr;
	int atime;

	if (usize > UVFS_PAGE_SIZE)
		return -E2BIG;
	if (usize < sizeof(attr))
		return -EINVAL;  /* MOUNT_ATTR_SIZE_VER0 */
	if (!uattr)
		return -EFAULT;
	memcpy(&attr, uattr, sizeof(attr));
	for (size_t i = sizeof(attr); i < usize; i++)
		if (((const unsigned char *)uattr)[i])
			return -E2BIG;
	if (!attr.attr_set && !attr.attr_clr && !attr.propagation)
		return 0;  /* nothing to do: no walk, no check */
	k->prop = attr.propagation;
	if ((k->prop & ~(uint64_t)(MS_SHARED | MS_SLAVE | MS_PRIVATE | MS_UNBINDABLE)) ||
	    (k->prop & (k->prop - 1)))
		return -EINVAL;
	if ((attr.attr_set | attr.attr_clr) & ~(uint64_t)MOUNT_SETATTR_VALID_FLAGS)
		return -EINVAL;
	mount_attr_to_mnt_flags(attr.attr_set & ~(uint64_t)MOUNT_ATTR__ATIME, &k->set);
	mount_attr_to_mnt_flags(attr.attr_clr & ~(uint64_t)MOUNT_ATTR__ATIME, &k->clr);
	k->set &= ~MNT_RELATIME;
	k->clr &= ~MNT_RELATIME;
	/* the atime values are a number, not bits: changed only with all of
	 * MOUNT_ATTR__ATIME in attr_clr */
	if (attr.attr_clr & MOUNT_ATTR__ATIME) {
		if ((attr.attr_clr & MOUNT_ATTR__ATIME) != MOUNT_ATTR__ATIME ||
		    mount_attr_to_mnt_flags(attr.attr_set & MOUNT_ATTR__ATIME, &atime))
			return -EINVAL;
		k->clr |= MNT_RELATIME | MNT_NOATIME;
		k->set |= atime;
	} else if (attr.attr_set & MOUNT_ATTR__ATIME) {
		return -EINVAL;
	}
	/* Deliberate difference: no user namespaces, so no idmapped mounts: EINVAL
	 * (what Linux answers for a user namespace it may not map through) */
	if ((attr.attr_set | attr.attr_clr) & MOUNT_ATTR_IDMAP)
		return -EINVAL;
	return 1;
}

/*
 * do_mount_setattr(): on a mount's root, of the caller's namespace or a detached
 * tree's top; read-only refused while a mount of the tree has a writer
 * (mount_setattr_prepare()); the group ids given before anything changes
 */
static int do_mount_setattr(struct uvfs_task *task, const struct path *path,
			    const struct mount_kattr *k)
{
	struct mount *m = path->mnt, *c;
	int err;

	if (path->dentry != m->mnt_root || (!anon_ns_root(m) && !check_mnt(task, m)))
		return -EINVAL;
	for (c = m; c; c = k->recurse ? next_mnt(c, m) : NULL)
		if ((k->set & MNT_READONLY) && !(c->mnt_flags & MNT_READONLY) && c->mnt_writers)
			return -EBUSY;
	if (k->prop == MS_SHARED && (err = invent_group_ids(task->fs, m, k->recurse)))
		return err;
	for (c = m; c; c = k->recurse ? next_mnt(c, m) : NULL) {
		/* mount_setattr_commit(); WRITE_ONCE: a lockless walk reads them */
		WRITE_ONCE(c->mnt_flags, (c->mnt_flags & ~k->clr) | k->set);
		if (k->prop)
			change_mnt_propagation(task->fs, c, k->prop);
	}
	return 0;
}

int uvfs_mount_setattr(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags,
		       const struct uvfs_mount_attr *uattr, size_t usize)
{
	struct mount_kattr k = { .recurse = flags & AT_RECURSIVE };
	struct path path;
	int err;

	if (!task)
		return -EINVAL;
	if (flags & ~(AT_EMPTY_PATH | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT))
		return -EINVAL;
	if (usize > UVFS_PAGE_SIZE)
		return -E2BIG;
	if (usize < sizeof(*uattr))
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount() */
	if (!cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = wants_mount_setattr(uattr, usize, &k);
	if (err <= 0)
		goto out;
	err = lookup_at(task, dfd, filename, at_lookup_flags(flags), &path);
	if (err)
		goto out;
	err = do_mount_setattr(task, &path, &k);
	path_put(&path);
out:
	task_leave(task);
	return err;
}

/*
 * vfs_open_tree() and open_tree_attr()'s attributes, then the descriptor (EMFILE
 * last, as 6.15+ allocates it): an O_PATH file of the path, or of a detached copy
 * of it (OPEN_TREE_CLONE) whose last close unmounts it if it is still detached.
 */
static int open_tree_common(struct uvfs_task *task, int dfd, const char *filename,
			    unsigned int flags, const struct uvfs_mount_attr *uattr, size_t usize)
{
	bool detached = flags & OPEN_TREE_CLONE;
	struct mount_kattr k = { .recurse = flags & AT_RECURSIVE };
	struct mnt_copies c;
	struct path path, top;
	struct mount *old;
	int err;

	if (flags & ~(AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW |
		      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC))
		return -EINVAL;
	if ((flags & (AT_RECURSIVE | OPEN_TREE_CLONE)) == AT_RECURSIVE)
		return -EINVAL;
	task_enter(task);
	err = -EPERM;  /* may_mount(), for a copy */
	if (detached && !cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	err = lookup_at(task, dfd, filename, at_lookup_flags(flags), &path);
	if (err)
		goto out;
	top = path;
	if (detached) {
		/* open_detached_copy(): __do_loopback()'s checks, then a copy (with the
		 * mounts below, less the unbindable ones, for AT_RECURSIVE) in a
		 * detached tree of its own */
		old = path.mnt;
		err = -EINVAL;
		if ((old->mnt_flags & MNT_UNBINDABLE) || !may_use_mount(task, old))
			goto put;  /* may_copy_tree(): any mount of an acceptable detached tree */
		err = copy_tree(task->fs, old, path.dentry, (flags & AT_RECURSIVE) ? CL_RECURSE : 0,
				&c);
		if (err)
			goto put;
		top.mnt = c.dst[0];
		top.dentry = top.mnt->mnt_root;
		/* open_detached_copy(): a copy of a detached tree's keeps its origin */
		err = mnt_detached_tree(task->fs, &c, is_anon_ns(old->mnt_ns) ? old->mnt_ns->origin :
									      task->mnt_ns->ns_id);
		drop_copies(&c);  /* the arrays; the copies too on ENOMEM */
		if (err)
			goto put;
	}
	/* open_tree_attr(): the attributes, on the copy or the path, before the
	 * descriptor */
	err = uattr ? wants_mount_setattr(uattr, usize, &k) : 0;
	if (err > 0)
		err = do_mount_setattr(task, &top, &k);
	if (!err)
		err = open_path(task, &top, O_PATH | (flags & OPEN_TREE_CLOEXEC));
	if (detached) {
		if (err < 0)
			dissolve_on_fput(task->fs, top.mnt);
		else
			fdget(task, err)->f_mode |= FMODE_NEED_UNMOUNT;
	}
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

int uvfs_open_tree(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags)
{
	if (!task)
		return -EINVAL;
	return open_tree_common(task, dfd, filename, flags, NULL, 0);
}

int uvfs_open_tree_attr(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags,
			const struct uvfs_mount_attr *attr, size_t size)
{
	if (!task)
		return -EINVAL;
	if (!attr && size)
		return -EINVAL;
	return open_tree_common(task, dfd, filename, flags, attr, size);
}
