// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namei.c - path walk (fs/namei.c): path_init, link_path_walk, walk_component,
 * follow_dotdot, the trailing-symlink loop.
 *
 * Locking: everything runs under uvfs.ns_lock.  The walk holds a reference on the
 * path it stands on (nd->path), not on the task's root (nd->root): that can change
 * only by a call of this instance, and the walk's caller holds ns_lock for the whole
 * call (the kernel's walk, too, takes no reference on the root while in RCU mode).
 * This is the kernel's ref-walk; namei_rcu.c's walk goes in front of it (stat, and
 * the walk to the parent of path_parentat), falling back here when it cannot.
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

static struct dentry *lookup_slow(struct dentry *dir, const struct qstr *name);

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

	if (d && d->d_inode && d->d_inode->i_op->revalidate &&
	    d->d_inode->i_op->revalidate(d, 0) <= 0) {
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

/* The dcache missed: a new dentry for the filesystem's ->lookup (__lookup_slow). */
static struct dentry *lookup_slow(struct dentry *dir, const struct qstr *name)
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

void nd_done(struct nameidata *nd)
{
	path_put(&nd->path);
	nd->root = (struct path){ 0 };
	for (int i = 0; i < nd->nlinks; i++)
		free(nd->links[i]);
	nd->nlinks = 0;
}

static void nd_jump(struct nameidata *nd, const struct path *to)
{
	struct path p = *to;

	path_get(&p);
	path_put(&nd->path);
	nd->path = p;
}

/* path_init(): where the walk starts.  EBADF, ENOTDIR for the dirfd.  nd->path is
 * borrowed (the task's root or cwd, or the file, holds it, and none of them can let
 * go while ns_lock is held): the walk takes a reference on what it keeps, as the
 * kernel's RCU walk does. */
static int path_init(struct nameidata *nd, int dfd, const char *name)
{
	struct uvfs_task *task = nd->task;

	nd->root = task->root;
	if (*name == '/') {
		nd->path = nd->root;
	} else if (dfd == AT_FDCWD) {
		nd->path = task->pwd;
	} else {
		struct file *f = fdget(task, dfd);

		if (!f)
			return -EBADF;
		if (*name && !S_ISDIR(f->f_inode->i_mode))
			return -ENOTDIR;
		nd->path = f->f_path;
	}
	return 0;
}

/* follow_dotdot(), then step_into()'s handle_mounts(): ".." at the task's root or
 * the namespace's stays there, but like every step lands on whatever is mounted on
 * the place (tests/regress/dotdot-at-root-follows-mounts.sys). */
static int follow_dotdot(struct nameidata *nd)
{
	struct uvfs *fs = nd->task->fs;
	struct dentry *parent;

	for (;;) {
		struct mount *m = nd->path.mnt;

		if (path_equal(&nd->path, &nd->root))
			goto in_root;
		if (nd->path.dentry != m->mnt_root)
			break;
		if (m->mnt_parent == m)
			goto in_root; /* the namespace root */
		struct path up = { .mnt = m->mnt_parent, .dentry = m->mnt_mountpoint };

		nd_jump(nd, &up);
	}
	parent = dget(nd->path.dentry->d_parent);
	dput(nd->path.dentry);
	nd->path.dentry = parent;
in_root:
	follow_mounts(fs, &nd->path);
	return 0;
}

static int link_path_walk(struct nameidata *nd, const char *name);

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

static int walk_middle_last(struct nameidata *nd);

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

/*
 * nd_jump_link(): a magic link is not resolved by name; the walk jumps to the object
 * it stands for (deleted or not, inside the root or not).  It counts as a symlink.
 */
static int nd_jump_link(struct nameidata *nd, struct dentry *link)
{
	struct path target;
	int err;

	if (nd->total_link_count >= MAXSYMLINKS)
		return -ELOOP;
	nd->total_link_count++;
	err = link->d_inode->i_op->get_magic(link, &target);
	if (err)
		return err;
	path_put(&nd->path);
	nd->path = target;
	return 0;
}

int step_into(struct nameidata *nd, struct dentry *d, unsigned int walk)
{
	struct path next = { .mnt = nd->path.mnt, .dentry = d };
	bool follow = walk & WALK_FOLLOW;
	const char *body;

	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (d_is_negative(d)) {
		dput(d);
		return -ENOENT;
	}
	next.mnt->mnt_count++;
	follow_mounts(nd->task->fs, &next);
	if (follow && (walk & WALK_TRAILING) && S_ISLNK(next.dentry->d_inode->i_mode) &&
	    nd->total_link_count < MAXSYMLINKS) {
		/* pick_link(): after the link count (ELOOP, in nd_follow_link here),
		 * may_follow_link(), before the body is even read */
		const struct inode *dir = nd->path.dentry->d_inode;
		int err = may_follow_link(nd->task->fs, nd->task->uid, dir->i_uid, dir->i_mode,
					  next.dentry->d_inode->i_uid);

		if (err) {
			path_put(&next);
			return err;
		}
	}
	if (follow && next.dentry->d_inode->i_op->get_magic) {
		int err = nd_jump_link(nd, next.dentry);

		path_put(&next);
		return err;
	}
	body = follow ? d_get_link(next.dentry) : NULL;
	if (body) {
		int ret = nd_pending_link(nd, body);

		path_put(&next);
		return ret;
	}
	path_put(&nd->path);
	nd->path = next;
	return 0;
}

/*
 * walk_component() for a component that is not the last: look it up, cross mounts,
 * and follow a symlink all the way (symlinks in the middle are always followed).
 */
static int walk_component(struct nameidata *nd, const unsigned char *comp, size_t len,
			  enum last_type type)
{
	struct qstr q = { .len = (uint32_t)len, .name = comp };
	int err;

	if (type == LAST_DOT)
		return 0;
	if (type == LAST_DOTDOT)
		return follow_dotdot(nd);
	err = step_into(nd, lookup_walk(nd, &q), WALK_FOLLOW);
	if (err > 0) {
		err = nd_follow_link(nd);
		if (!err)
			err = walk_middle_last(nd);
	}
	return err;
}

/* The last component of a symlink body met in the middle of a path: it must be
 * resolved completely (followed too) before the walk goes on. */
static int walk_middle_last(struct nameidata *nd)
{
	if (nd->last_type == LAST_ROOT)
		return 0;
	return walk_component(nd, nd->last.name, nd->last.len, nd->last_type);
}

/*
 * link_path_walk() - walk every component but the last, which is left in nd->last.
 */
static int link_path_walk(struct nameidata *nd, const char *name)
{
	while (*name == '/')
		name++;
	nd->last_type = LAST_ROOT;
	if (!*name)
		return 0;
	for (;;) {
		const unsigned char *comp = (const unsigned char *)name;
		size_t len = strcspn(name, "/");
		enum last_type type = component_type(comp, len);
		bool slash;
		int err = may_lookup(nd->path.dentry, false);

		if (err)
			return err;
		name += len;
		slash = *name == '/';
		while (*name == '/')
			name++;
		if (!*name) {
			nd->last.name = comp;
			nd->last.len = (uint32_t)len;
			nd->last.hash = 0;
			nd->last_hashed = false;
			nd->last_type = type;
			nd->last_slash = slash;
			return 0;
		}
		err = walk_component(nd, comp, len, type);
		if (err)
			return err;
		if (!S_ISDIR(nd->path.dentry->d_inode->i_mode))
			return -ENOTDIR;
	}
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
	if (parent_walk_plain(nd, name, &len)) {
		err = len < UVFS_PATH_MAX ? 0 : -ENAMETOOLONG;
	} else {
		path_get(&nd->path);
		err = parent_walk_locked(nd, name, &len);
		if (!err && len >= UVFS_PATH_MAX)
			err = -ENAMETOOLONG;
		else if (err == -ECHILD) {
			err = getname_check(name, false);
			if (err >= 0)
				err = link_path_walk(nd, name);
		}
	}
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
	/* what link_path_walk() leaves for the last component */
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

int lookup_last(struct nameidata *nd)
{
	switch (nd->last_type) {
	case LAST_ROOT:
	case LAST_DOT:
		return 0;
	case LAST_DOTDOT:
		return follow_dotdot(nd);
	case LAST_NORM:
		break;
	}
	if (nd->last_slash)
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	return step_into(nd, lookup_walk(nd, &nd->last),
			 nd->flags & LOOKUP_FOLLOW ? WALK_FOLLOW | WALK_TRAILING : 0);
}

int nd_follow_link(struct nameidata *nd)
{
	const char *body = nd->pending_link;
	int err;

	assert(body);
	nd->pending_link = NULL;
	if (nd->total_link_count >= MAXSYMLINKS)
		return -ELOOP;
	nd->total_link_count++;
	if (!*body)
		return -ENOENT;
	if (*body == '/')
		nd_jump(nd, &nd->root);
	err = link_path_walk(nd, body);
	return err;
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
		if (err != -ECHILD)
			goto done;
		err = link_path_walk(&nd, name);
	}
	while (!err && (err = lookup_last(&nd)) > 0)
		err = nd_follow_link(&nd);
	if (!err && (nd.flags & LOOKUP_DIRECTORY) &&
	    !S_ISDIR(nd.path.dentry->d_inode->i_mode))
		err = -ENOTDIR;
done:
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
	/* may_create(): IS_DEADDIR, then inode_permission(MAY_WRITE): EPERM in an
	 * immutable directory */
	if (nd->path.dentry->d_flags & DCACHE_DIR_DEAD) {
		err = -ENOENT;
		goto fail_dput;
	}
	if (IS_IMMUTABLE(nd->path.dentry->d_inode)) {
		err = -EPERM;
		goto fail_dput;
	}
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

	if (iop->get_magic) {
		/* proc_pid_readlink(): d_path of the target from the reader's root */
		struct path target;
		int err = iop->get_magic(dentry, &target);

		if (err)
			return err;
		len = (size_t)readlink_path(&target, &reader->root, buf, bufsiz);
		path_put(&target);
		return (ssize_t)len;
	}
	body = d_get_link(dentry);
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
