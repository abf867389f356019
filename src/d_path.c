// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * d_path.c - building path strings from dentries: prepend_path, d_path, getcwd
 * (fs/d_path.c, post-5.13 prepend_buffer form).
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

char *d_path(const struct path *path, const struct path *root, char *buf, int buflen)
{
	struct prepend_buffer b = { buf, buflen };

	prepend(&b, "", 1);
	if (d_unlinked(path->dentry))
		prepend(&b, " (deleted)", 10);
	prepend_path(path, root, &b); /* its result is ignored, as in d_path() */
	if (b.len < 0)
		return ERR_PTR(-ENAMETOOLONG);
	return buf + b.len;
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
	if (d_unlinked(task->pwd.dentry)) {
		err = -ENOENT;
		goto out;
	}
	prepend(&b, "", 1);
	if (prepend_path(&task->pwd, &task->root, &b) > 0)
		prepend(&b, "(unreachable)", 13);
	len = UVFS_PATH_MAX - b.len;
	if (b.len < 0)
		err = -ENAMETOOLONG;
	else if ((size_t)len > size)
		err = -ERANGE;
	else {
		memcpy(buf, page + b.len, (size_t)len);
		err = len;
	}
out:
	task_leave(task);
	free(page);
	return err;
}
