// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rename.c - renameat2 (fs/namei.c: do_renameat2, lock_rename, vfs_rename).
 *
 * The checks run in the kernel's order so that the first failing one decides the
 * errno (docs/SEMANTICS.md, "rename"); the filesystem's ->rename then does the
 * inode side and d_move()/d_exchange() the names, through the personality.
 *
 * Locking: the whole call runs under ns_lock (task_enter), which also stands in for
 * s_vfs_rename_mutex and the directories' i_rwsem.
 */
#include "abi.h"
#include "fsnotify.h"
#include "inode.h"
#include "namei.h"
#include "task.h"

/* d_ancestor(p1, p2): the child of p1 that is an ancestor of p2 (or p2 itself),
 * NULL if p1 is not an ancestor of p2. */
static struct dentry *d_ancestor(struct dentry *p1, struct dentry *p2)
{
	for (struct dentry *p = p2; !IS_ROOT(p); p = p->d_parent)
		if (p->d_parent == p1)
			return p;
	return NULL;
}

/* lock_rename(p1, p2) without the locks: the "trap" dentry that must not be the
 * source (EINVAL) or the target (ENOTEMPTY). */
static struct dentry *rename_trap(struct dentry *p1, struct dentry *p2)
{
	struct dentry *p;

	if (p1 == p2)
		return NULL;
	p = d_ancestor(p2, p1);
	if (p)
		return p;
	return d_ancestor(p1, p2);
}

/* vfs_rename() */
static int vfs_rename(const struct cred *cred, struct dentry *old_dir, struct dentry *old,
		      struct dentry *new_dir, struct dentry *new, unsigned int flags)
{
	struct inode *source = old->d_inode, *target = new->d_inode;
	const struct uvfs_task *task = cred_task(cred);
	struct uvfs *fs = task->fs;
	bool is_dir = S_ISDIR(source->i_mode), new_is_dir = false;
	struct name_snapshot old_name;
	bool notify;
	int err;

	if (source == target)
		return 0;
	err = may_delete(cred, old_dir, old, is_dir);
	if (err)
		return err;
	if (!target) {
		/* may_create() */
		if (new_dir->d_flags & DCACHE_DIR_DEAD)
			return -ENOENT;
		err = inode_permission(cred, new_dir->d_inode, MAY_WRITE | MAY_EXEC);
	} else {
		new_is_dir = S_ISDIR(target->i_mode);
		err = may_delete(cred, new_dir, new,
				 (flags & RENAME_EXCHANGE) ? new_is_dir : is_dir);
	}
	if (err)
		return err;
	if (!old_dir->d_inode->i_op->rename)
		return -EPERM;
	/* a directory that changes parent gets a new "..": write permission on it */
	if (new_dir != old_dir) {
		if (is_dir && (err = inode_permission(cred, source, MAY_WRITE)))
			return err;
		if ((flags & RENAME_EXCHANGE) && new_is_dir &&
		    (err = inode_permission(cred, target, MAY_WRITE)))
			return err;
	}
	/* a mount point of the caller's namespace (is_local_mountpoint()); one of
	 * another namespace only is no obstacle (3.18), and goes with the name */
	if (is_local_mountpoint(fs, task->mnt_ns, old) || is_local_mountpoint(fs, task->mnt_ns, new))
		return -EBUSY;
	/* vfs_rename(): the old name, for fsnotify_move() after d_move() -- kept only
	 * when someone will hear of the move (nothing changes that meanwhile: ns_lock) */
	notify = fsnotify_move_watched(old_dir->d_inode, new_dir->d_inode, source, target);
	if (notify)
		take_dentry_name_snapshot(&old_name, old);
	err = old_dir->d_inode->i_op->rename(old_dir->d_inode, old, new_dir->d_inode, new, flags);
	if (err) {
		if (notify)
			release_dentry_name_snapshot(&old_name);
		return err;
	}
	if (!(flags & RENAME_EXCHANGE) && target)
		detach_mounts(fs, new);
	/* vfs_rename(): a directory replaced is S_DEAD */
	if (!(flags & RENAME_EXCHANGE) && target && S_ISDIR(target->i_mode))
		d_mark_dead_dir(new);
	if (flags & RENAME_EXCHANGE)
		d_exchange(old, new);
	else
		d_move(old, new);
	/* fsnotify_move() of the source; of the other file too for an exchange,
	 * which replaces nothing */
	if (notify) {
		__fsnotify_move(old_dir->d_inode, new_dir->d_inode, &old_name.name,
				(flags & RENAME_EXCHANGE) ? NULL : target, old);
		if (flags & RENAME_EXCHANGE)
			__fsnotify_move(new_dir->d_inode, old_dir->d_inode, &old->d_name, NULL, new);
		release_dentry_name_snapshot(&old_name);
	}
	return 0;
}

int uvfs_renameat2(struct uvfs_task *task, int olddirfd, const char *oldpath,
		   int newdirfd, const char *newpath, unsigned int flags)
{
	struct nameidata ond, nnd;
	struct dentry *old, *new, *trap;
	struct dentry free_target;  /* nd_lookup_target(): a free name's negative dentry */
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	/* linux-3.14: no cross-rename yet */
	if ((flags & RENAME_EXCHANGE) && !abi_has_exchange(task->fs->abi))
		return -EINVAL;

	task_enter(task);
	err = path_parentat(&ond, task, olddirfd, oldpath, 0);
	if (err)
		goto out;
	/* within one directory, the second walk would find the first's parent again */
	err = olddirfd == newdirfd ? path_parentat_like(&nnd, &ond, oldpath, newpath) : 1;
	if (err > 0)
		err = path_parentat(&nnd, task, newdirfd, newpath, 0);
	if (err)
		goto put_old_nd;
	if (ond.path.mnt != nnd.path.mnt) {
		err = -EXDEV;
		goto put_nds;
	}
	if (ond.last_type != LAST_NORM) {
		err = -EBUSY;
		goto put_nds;
	}
	if (nnd.last_type != LAST_NORM) {
		err = (flags & RENAME_NOREPLACE) ? -EEXIST : -EBUSY;
		goto put_nds;
	}
	err = mnt_want_write(ond.path.mnt);  /* before the lookups: EROFS over ENOENT */
	if (err)
		goto put_nds;
	trap = rename_trap(nnd.path.dentry, ond.path.dentry);
	old = nd_lookup_last(&ond);
	if (IS_ERR(old)) {
		err = (int)PTR_ERR(old);
		goto put_nds;
	}
	if (d_is_negative(old)) {
		err = -ENOENT;
		goto put_old;
	}
	new = nd_lookup_target(&nnd, &free_target);
	if (IS_ERR(new)) {
		err = (int)PTR_ERR(new);
		goto put_old;
	}
	err = 0;
	if ((flags & RENAME_NOREPLACE) && !d_is_negative(new))
		err = -EEXIST;
	else if ((flags & RENAME_EXCHANGE) && d_is_negative(new))
		err = -ENOENT;
	else if ((flags & RENAME_EXCHANGE) && !S_ISDIR(new->d_inode->i_mode) && nnd.last_slash)
		err = -ENOTDIR;
	else if (!S_ISDIR(old->d_inode->i_mode) &&
		 (ond.last_slash || (!(flags & RENAME_EXCHANGE) && nnd.last_slash)))
		err = -ENOTDIR;
	else if (old == trap)
		err = -EINVAL;
	else if (new == trap)
		err = (flags & RENAME_EXCHANGE) ? -EINVAL : -ENOTEMPTY;
	if (!err)
		err = vfs_rename(&task->cred, ond.path.dentry, old, nnd.path.dentry, new, flags);
	if (new == &free_target)
		d_release_target(new);
	else
		dput(new);
put_old:
	dput(old);
put_nds:
	nd_done(&nnd);
put_old_nd:
	nd_done(&ond);
out:
	task_leave(task);
	return err;
}
