// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * d_path.c - building path strings from dentries: prepend_path, d_path,
 * readlink_path (fs/d_path.c, post-5.13 prepend_buffer form).  The calls that
 * print them, getcwd and the readlink_* ones, are in open.c and stat.c.
 *
 * Locking: ns_lock held by the callers; names cannot change under us, so the
 * kernel's rename_lock/mount_lock retry loop has nothing to retry.
 */
#include "d_path.h"
#include "dcache.h"
#include "namei.h"
#include "task.h"

void prepend(struct prepend_buffer *b, const char *s, size_t n)
{
	b->len -= (int)n;
	if (b->len >= 0)
		memcpy(b->buf + b->len, s, n);
}

static void prepend_name(struct prepend_buffer *b, const struct qstr *name)
{
	prepend(b, (const char *)name->name, name->len);
	prepend(b, "/", 1);
}

int prepend_path(const struct path *path, const struct path *root, struct prepend_buffer *b)
{
	const struct dentry *dentry = path->dentry;
	const struct mount *mnt = path->mnt;
	int len0 = b->len;
	int ret = PATH_REACHED_ROOT;

	while (dentry != root->dentry || mnt != root->mnt) {
		if (dentry == mnt->mnt_root) {
			if (mnt->mnt_parent != mnt) {
				dentry = mnt->mnt_mountpoint;
				mnt = mnt->mnt_parent;
				continue;
			}
			ret = PATH_UNREACHABLE; /* the namespace root, not the reader's */
			break;
		}
		if (IS_ROOT(dentry)) {
			/* Escaped its mount (a bind mount's subtree lost it): "/". */
			b->len = len0;
			ret = PATH_ESCAPED;
			break;
		}
		prepend_name(b, &dentry->d_name);
		dentry = dentry->d_parent;
	}
	if (b->len == len0)
		prepend(b, "/", 1);
	return ret;
}

void d_path_sync(const struct path *path)
{
	struct super_block *sb = path->mnt->mnt_sb;

	if (sb->s_op->sync_paths)
		sb->s_op->sync_paths(sb);
}

char *d_path(const struct path *path, const struct path *root, char *buf, int buflen)
{
	struct prepend_buffer b = { buf, buflen };
	const struct super_operations *sop = path->mnt->mnt_sb->s_op;

	/* d_path(): "anon_inode:inotify" and the like */
	if (sop->d_dname && path->dentry != path->mnt->mnt_root)
		return sop->d_dname(path->dentry, buf, buflen);
	d_path_sync(path);
	prepend(&b, "", 1);
	if (d_unlinked(path->dentry))
		prepend(&b, " (deleted)", 10);
	prepend_path(path, root, &b); /* its result is ignored, as in d_path() */
	if (b.len < 0)
		return ERR_PTR(-ENAMETOOLONG);
	return buf + b.len;
}

/*
 * The same without ns_lock, for walk.c's readlink: a name is read the way the
 * kernel's prepend_name() reads it under RCU -- the pointer (acquire) before the
 * length, and the bytes up to a NUL at most, since a rename may be swapping both
 * (inline names and external ones are NUL-terminated) -- and the climb is bounded,
 * since a rename may make a loop meanwhile.  Whatever comes out counts only if the
 * caller's ns_seq check passes.
 */
lockless_read
static void prepend_name_rcu(struct prepend_buffer *b, const struct qstr *name)
{
	const unsigned char *s = __atomic_load_n(&name->name, __ATOMIC_ACQUIRE);
	uint32_t n = __atomic_load_n(&name->len, __ATOMIC_RELAXED);

	if (n > 255)
		n = 255;
	b->len -= (int)n + 1;
	if (b->len < 0)
		return;
	b->buf[b->len] = '/';
	for (uint32_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (!c)
			break;
		b->buf[b->len + 1 + (int)i] = (char)c;
	}
}

lockless_read
static int prepend_path_rcu(const struct path *path, const struct path *root,
			    struct prepend_buffer *b)
{
	const struct dentry *dentry = path->dentry;
	const struct mount *mnt = path->mnt;
	int len0 = b->len, steps = 0;
	int ret = PATH_REACHED_ROOT;

	while (dentry != root->dentry || mnt != root->mnt) {
		const struct dentry *parent;

		if (++steps > UVFS_PATH_MAX) {
			b->len = -1;  /* a loop: only a concurrent rename makes one */
			break;
		}
		if (dentry == __atomic_load_n(&mnt->mnt_root, __ATOMIC_RELAXED)) {
			const struct mount *up = __atomic_load_n(&mnt->mnt_parent, __ATOMIC_RELAXED);

			if (up != mnt) {
				dentry = __atomic_load_n(&mnt->mnt_mountpoint, __ATOMIC_RELAXED);
				mnt = up;
				continue;
			}
			ret = PATH_UNREACHABLE;
			break;
		}
		parent = __atomic_load_n(&dentry->d_parent, __ATOMIC_RELAXED);
		if (parent == dentry) {
			b->len = len0;
			ret = PATH_ESCAPED;
			break;
		}
		prepend_name_rcu(b, &dentry->d_name);
		dentry = parent;
	}
	if (b->len == len0)
		prepend(b, "/", 1);
	return ret;
}

lockless_read
char *d_path_rcu(const struct path *path, const struct path *root, char *buf, int buflen)
{
	struct prepend_buffer b = { buf, buflen };
	const struct dentry *d = path->dentry;
	unsigned int flags = __atomic_load_n(&d->d_flags, __ATOMIC_RELAXED);

	const struct super_operations *sop = READ_ONCE(READ_ONCE(path->mnt->mnt_sb)->s_op);

	/* a filesystem that brings its dentries up to date first, or names them its
	 * own way: under the lock */
	if (sop->sync_paths || sop->d_dname)
		return ERR_PTR(-ECHILD);
	prepend(&b, "", 1);
	/* d_unlinked() */
	if (!(flags & DCACHE_HASHED) && __atomic_load_n(&d->d_parent, __ATOMIC_RELAXED) != d)
		prepend(&b, " (deleted)", 10);
	prepend_path_rcu(path, root, &b);
	if (b.len < 0)
		return ERR_PTR(-ENAMETOOLONG);
	return buf + b.len;
}

ssize_t readlink_path(const struct path *path, const struct path *root, char *buf,
		      size_t bufsiz)
{
	char page[UVFS_PATH_MAX]; /* the kernel's PATH_MAX page, here on the stack */
	char *p = d_path(path, root, page, sizeof(page));
	ssize_t len;

	if (IS_ERR(p))
		return PTR_ERR(p);
	len = (ssize_t)strlen(p);
	if ((size_t)len > bufsiz)
		len = (ssize_t)bufsiz;
	if (!buf)
		return -EFAULT;  /* do_proc_readlink(): copy_to_user() */
	memcpy(buf, p, (size_t)len);
	return len;
}

char *dentry_path(const struct dentry *d, char *buf, int buflen)
{
	struct prepend_buffer b = { buf, buflen };
	bool unlinked = d_unlinked(d);

	prepend(&b, "", 1);
	if (unlinked)
		prepend(&b, "//deleted", 9);
	for (; !IS_ROOT(d); d = d->d_parent) {
		prepend(&b, (const char *)d->d_name.name, d->d_name.len);
		prepend(&b, "/", 1);
	}
	/* the filesystem's root: "/" */
	if (b.len >= 0 && b.len == buflen - 1 - (unlinked ? 9 : 0))
		prepend(&b, "/", 1);
	return b.len >= 0 ? buf + b.len : ERR_PTR(-ENAMETOOLONG);
}
