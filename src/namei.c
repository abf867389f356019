// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namei.c - the path walk's callers (fs/namei.c): nameidata, path_init,
 * path_parentat, filename_lookup, filename_create, open's last component
 * (step_into, the trailing-symlink loop) and the lookups of a last component.
 * The walk itself -- every component's step and every errno it gives -- is walk.c's.
 *
 * Locking: everything runs under uvfs.ns_lock.  nameidata holds a reference on the
 * path it stands on (nd->path), not on the task's root (nd->root): that can change
 * only by a call of this instance, and the walk's caller holds ns_lock for the whole
 * call (the kernel's walk, too, takes no reference on the root while in RCU mode).
 *
 * What must match Linux is the result, errno for errno (docs/SEMANTICS.md, "Path
 * walk"):
 *  - the whole path must be shorter than PATH_MAX (4096 with the NUL);
 *  - NAME_MAX is checked by the filesystem when a component is actually looked up,
 *    so a missing earlier component wins with ENOENT;
 *  - at most 40 symlinks per lookup (nd->total_link_count), then ELOOP;
 *  - ".." at the task's root stays there; at a mount root it climbs to the
 *    mountpoint first; there is no lexical simplification ("missing/.." is ENOENT);
 *  - a trailing slash makes the last component LOOKUP_FOLLOW|LOOKUP_DIRECTORY.
 */
#include "d_path.h"
#include "inode.h"
#include "namei.h"
#include "task.h"

int getname_check(const char *name, bool empty_ok)
{
	size_t len;

	if (!name)
		return -EFAULT;
	len = strnlen(name, UVFS_PATH_MAX);
	if (len >= UVFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (!len && !empty_ok)
		return -ENOENT;
	return (int)len;
}

void follow_mounts(struct uvfs *fs, struct path *path)
{
	while (d_mountpoint(path->dentry)) {
		struct mount *m = lookup_mnt(fs, path->mnt, path->dentry);
		struct path next;

		if (!m)
			break;
		next.mnt = m;
		next.dentry = m->mnt_root;
		path_get(&next);
		path_put(path);
		*path = next;
	}
}

const char *d_get_link(const struct dentry *dentry)
{
	const struct inode *inode = dentry->d_inode;

	if (!inode || !S_ISLNK(inode->i_mode) || !inode->i_op->get_link)
		return NULL;
	return inode->i_op->get_link((struct inode *)inode);
}

/* d_lookup() and ->revalidate: a stale cached entry is dropped, as if never found. */
static struct dentry *lookup_cached(struct dentry *dir, const struct qstr *name)
{
	struct dentry *d = d_lookup(dir, name);
	/* a negative one that says it may be stale asks its directory's filesystem */
	const struct inode *ri = !d ? NULL : d->d_inode ? d->d_inode :
				 (d->d_flags & DCACHE_OP_REVALIDATE) ? dir->d_inode : NULL;

	if (ri && ri->i_op->revalidate && ri->i_op->revalidate(d, 0) <= 0) {
		d_drop(d);
		dput(d);
		return NULL;
	}
	return d;
}

struct dentry *lookup_one(struct dentry *dir, const struct qstr *name)
{
	struct dentry *d = lookup_cached(dir, name);

	return d ? d : lookup_slow(dir, name);
}

struct dentry *lookup_slow(struct dentry *dir, const struct qstr *name)
{
	struct inode *inode = dir->d_inode;
	struct dentry *d;
	int err;

	if (!inode->i_op->lookup)
		return ERR_PTR(-ENOTDIR);
	/* __lookup_slow(), lookup_one_qstr_excl(): "Don't create child dentry for a dead
	 * directory" — ENOENT before the filesystem could say ENAMETOOLONG (difftest). */
	if (dir->d_flags & DCACHE_DIR_DEAD)
		return ERR_PTR(-ENOENT);
	d = d_alloc(dir, name);
	if (!d)
		return ERR_PTR(-ENOMEM);
	err = inode->i_op->lookup(inode, d);
	if (err) {
		dput(d);
		return ERR_PTR(err);
	}
	return d;
}

static void nd_init(struct nameidata *nd, struct uvfs_task *task, unsigned int flags)
{
	/* links[] is only read up to nlinks: not cleared (it is most of the struct) */
	nd->task = task;
	nd->path = (struct path){ 0 };
	nd->root = (struct path){ 0 };
	nd->last = (struct qstr){ .name = NULL };
	nd->last_type = LAST_ROOT;
	nd->flags = flags;
	nd->last_slash = false;
	nd->last_hashed = false;
	nd->total_link_count = 0;
	nd->pending_link = NULL;
	nd->nlinks = 0;
}

void nd_init_at(struct nameidata *nd, struct uvfs_task *task, const struct path *path,
		unsigned int flags)
{
	nd_init(nd, task, flags);
	nd->root = task->fs_struct->root;
	nd->path = *path;
	path_get(&nd->path);
}

void nd_done(struct nameidata *nd)
{
	path_put(&nd->path);
	nd->root = (struct path){ 0 };
	for (int i = 0; i < nd->nlinks; i++)
		free(nd->links[i]);
	nd->nlinks = 0;
}

/* path_init(): where the walk starts.  EBADF, ENOTDIR for the dirfd.  nd->path is
 * borrowed (the task's root or cwd, or the file, holds it, and none of them can let
 * go while ns_lock is held): the walk takes a reference on what it keeps, as the
 * kernel's RCU walk does. */
static int path_init(struct nameidata *nd, int dfd, const char *name)
{
	struct uvfs_task *task = nd->task;

	nd->root = task->fs_struct->root;
	if (*name == '/' && !(nd->flags & LOOKUP_IN_ROOT)) {
		/* nd_jump_root(): an absolute path is above any start */
		if (nd->flags & LOOKUP_BENEATH)
			return -EXDEV;
		nd->path = nd->root;
	} else if (dfd == AT_FDCWD) {
		nd->path = task->fs_struct->pwd;
	} else {
		struct file *f = fdget(task, dfd);

		if (!f)
			return -EBADF;
		if (*name && !S_ISDIR(f->f_inode->i_mode))
			return -ENOTDIR;
		nd->path = f->f_path;
	}
	/* RESOLVE_BENEATH, RESOLVE_IN_ROOT: the start is the walk's root */
	if (nd->flags & LOOKUP_IS_SCOPED)
		nd->root = nd->path;
	return 0;
}

/* Keep a symlink body for the rest of the walk: the inode could go away once the
 * walk steps off the link. */
static const char *nd_hold_link(struct nameidata *nd, const char *body)
{
	size_t len = strlen(body);
	char *copy;

	if (nd->nlinks >= (int)ARRAY_SIZE(nd->links))
		return ERR_PTR(-ELOOP);
	copy = uvfs_malloc(len + 1);
	if (!copy)
		return ERR_PTR(-ENOMEM);
	memcpy(copy, body, len + 1);
	nd->links[nd->nlinks++] = copy;
	return copy;
}

/* q's hash, unless it is the last component and the walk hashed it already. */
static void nd_hash(const struct nameidata *nd, struct qstr *q)
{
	if (q != &nd->last || !nd->last_hashed)
		q->hash = d_name_hash(q->name, q->len);
}

/* Hash q in nd->path and look it up there (dcache, then the filesystem). */
static struct dentry *lookup_in(struct nameidata *nd, struct qstr *q)
{
	nd_hash(nd, q);
	return lookup_one(nd->path.dentry, q);
}

/*
 * The same for a walk that only reads (no create; a rename target's free name is
 * nd_lookup_target's to make): where the filesystem says its dcache is complete
 * (->lookup_noent), a miss is answered without a negative dentry — the errors
 * lookup_one would give, in its order (dead directory, then the filesystem's), none
 * of its allocation and freeing.
 */
static struct dentry *lookup_walk(struct nameidata *nd, struct qstr *q)
{
	struct dentry *dir = nd->path.dentry, *d;
	const struct inode_operations *iop = dir->d_inode->i_op;

	nd_hash(nd, q);
	d = lookup_cached(dir, q);
	if (d || !iop->lookup_noent)
		return d ? d : lookup_slow(dir, q);
	if (dir->d_flags & DCACHE_DIR_DEAD)
		return ERR_PTR(-ENOENT);
	return ERR_PTR(iop->lookup_noent(dir->d_inode, q));
}

struct dentry *nd_lookup_last(struct nameidata *nd)
{
	return lookup_in(nd, &nd->last);
}

struct dentry *nd_lookup_target(struct nameidata *nd, struct dentry *slot)
{
	struct dentry *dir = nd->path.dentry, *d = lookup_walk(nd, &nd->last);

	/* ENOENT from ->lookup_noent, not from a dead directory: the name is free */
	if (d != ERR_PTR(-ENOENT) || !dir->d_inode->i_op->lookup_noent ||
	    (dir->d_flags & DCACHE_DIR_DEAD))
		return d;
	return d_init_target(slot, dir, &nd->last) ? slot : ERR_PTR(-ENOMEM);
}

int step_into(struct nameidata *nd, struct dentry *d, unsigned int walk)
{
	struct path next = { .mnt = nd->path.mnt, .dentry = d };
	bool follow = walk & WALK_FOLLOW;

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (d_is_negative(d)) {
		dput(d);
		return -ENOENT;
	}
	next.mnt->mnt_count++;
	follow_mounts(nd->task->fs, &next);
	if ((nd->flags & LOOKUP_NO_XDEV) && next.mnt != nd->path.mnt) {
		path_put(&next);  /* traverse_mounts(): crossed a mount */
		return -EXDEV;
	}
	if (follow && S_ISLNK(next.dentry->d_inode->i_mode)) {
		/* the walk's own pick_link(): the link count, may_follow_link(), a magic
		 * link's jump, or the body kept for nd_follow_link() */
		int err = nd_pick_link(nd, &next);

		path_put(&next);
		return err;
	}
	path_put(&nd->path);
	nd->path = next;
	return 0;
}

/*
 * getname() comes first in the kernel: a path of PATH_MAX bytes or more fails before
 * anything else.  The walk to the parent reads the whole path when it succeeds, so the
 * length is measured from where it stopped; only a walk that failed, or that the fast
 * walk could not do, measures it with strnlen (the errno order is the kernel's either
 * way: nothing the walk does before is visible).
 */
int path_parentat(struct nameidata *nd, struct uvfs_task *task, int dfd,
		  const char *name, unsigned int flags)
{
	size_t len;
	int err;

	nd_init(nd, task, flags);
	if (!name || !name[0])
		return getname_check(name, false);  /* EFAULT, ENOENT */
	err = path_init(nd, dfd, name);
	if (err)
		goto out;
	if (!parent_walk_plain(nd, name, &len)) {
		path_get(&nd->path);
		err = parent_walk_locked(nd, name, &len);
	}
	if (!err && len >= UVFS_PATH_MAX)
		err = -ENAMETOOLONG;
out:
	if (err < 0 && err != -ENAMETOOLONG && getname_check(name, false) < 0)
		err = -ENAMETOOLONG;
	if (err)
		nd_done(nd);
	return err;
}

int path_parentat_like(struct nameidata *nd, const struct nameidata *like,
		       const char *like_name, const char *name)
{
	size_t n, end, b, a, len;
	const unsigned char *c;

	/* like's last component points into like_name: its parent's text precedes it */
	if (like->last_type == LAST_ROOT || !name)
		return 1;
	a = (size_t)(like->last.name - (const unsigned char *)like_name);
	/* most names that do not share it differ early: say so before measuring name */
	for (size_t i = 0; i < a; i++)
		if (name[i] != like_name[i])
			return 1;
	n = strnlen(name, UVFS_PATH_MAX);
	if (n >= UVFS_PATH_MAX || !n)
		return 1;  /* path_parentat says which error */
	for (end = n; end > 0 && name[end - 1] == '/'; end--)
		;
	for (b = end; b > 0 && name[b - 1] != '/'; b--)
		;
	if (!end || a != b)
		return 1;
	nd_init(nd, like->task, like->flags & ~(LOOKUP_FOLLOW | LOOKUP_DIRECTORY));
	nd->root = like->root;
	nd->path = like->path;
	path_get(&nd->path);
	nd->total_link_count = like->total_link_count;
	/* what parent_walk_locked() leaves for the last component */
	c = (const unsigned char *)name + b;
	len = end - b;
	nd->last.name = c;
	nd->last.len = (uint32_t)len;
	nd->last_slash = end < n;
	nd->last_type = component_type(c, len);
	return 0;
}

int nd_pending_link(struct nameidata *nd, const char *body)
{
	body = nd_hold_link(nd, body);
	if (IS_ERR(body))
		return (int)PTR_ERR(body);
	nd->pending_link = body;
	return 1;
}

int handle_dots(struct nameidata *nd)
{
	assert(nd->last_type != LAST_NORM);
	return nd->last_type == LAST_DOTDOT ? nd_follow_dotdot(nd) : 0;
}

int nd_follow_link(struct nameidata *nd)
{
	const char *body = nd->pending_link;
	size_t len;

	assert(body);
	nd->pending_link = NULL;
	/* pick_link() counted it and asked may_follow_link() (step_into) */
	if (!*body)
		return -ENOENT;
	return parent_walk_locked(nd, body, &len);
}

int filename_lookup(struct uvfs_task *task, int dfd, const char *name,
		    unsigned int flags, struct path *out)
{
	struct nameidata nd;
	int err = getname_check(name, flags & LOOKUP_EMPTY);

	nd_init(&nd, task, flags);
	if (err < 0)
		return err;
	err = path_init(&nd, dfd, name);
	if (!err) {
		path_get(&nd.path);
		err = path_walk_locked(&nd, name);
	}
	if (!err) {
		*out = nd.path;
		nd.path.dentry = NULL;
		nd.path.mnt = NULL;
	}
	nd_done(&nd);
	return err;
}

struct dentry *filename_create(struct nameidata *nd, struct uvfs_task *task, int dfd,
			       const char *name, bool want_dir)
{
	struct dentry *d;
	int err = path_parentat(nd, task, dfd, name, 0);

	if (err)
		return ERR_PTR(err);
	if (nd->last_type != LAST_NORM) {
		err = -EEXIST;
		goto fail;
	}
	d = nd_lookup_last(nd);
	if (IS_ERR(d)) {
		err = (int)PTR_ERR(d);
		goto fail;
	}
	if (!d_is_negative(d)) {
		err = -EEXIST;
		goto fail_dput;
	}
	/* "You had / on the end, you've been asking for (non-existent) directory.
	 * -ENOENT for you." (filename_create) */
	if (nd->last_slash && !want_dir) {
		err = -ENOENT;
		goto fail_dput;
	}
	/* may_create()'s IS_DEADDIR (its permission check is the vfs_ call's:
	 * may_create() in namei.h) */
	if (nd->path.dentry->d_flags & DCACHE_DIR_DEAD) {
		err = -ENOENT;
		goto fail_dput;
	}
	/* mnt_want_write(): asked before the lookup, told after it ("at least try to
	 * report other errors") */
	err = mnt_want_write(nd->path.mnt);
	if (err)
		goto fail_dput;
	return d;
fail_dput:
	dput(d);
fail:
	nd_done(nd);
	return ERR_PTR(err);
}

ssize_t vfs_readlink(struct uvfs_task *reader, struct dentry *dentry, char *buf,
		     size_t bufsiz)
{
	const struct inode_operations *iop = dentry->d_inode->i_op;
	const char *body;
	size_t len;

	if (iop->readlink)
		return iop->readlink(dentry, reader, buf, bufsiz);
	if (iop->get_magic) {
		/* proc_pid_readlink(): d_path of the target from the reader's root */
		struct path target;
		int err = iop->get_magic(dentry, reader, &target);

		if (err)
			return err;
		len = (size_t)readlink_path(&target, &reader->fs_struct->root, buf, bufsiz);
		path_put(&target);
		return (ssize_t)len;
	}
	body = d_get_link(dentry);
	if (IS_ERR(body))
		return PTR_ERR(body);
	if (!body)
		return -EINVAL;
	len = strlen(body);
	if (len > bufsiz)
		len = bufsiz;
	if (!buf)
		return -EFAULT;  /* readlink_copy(): copy_to_user() */
	memcpy(buf, body, len);
	return (ssize_t)len;
}
