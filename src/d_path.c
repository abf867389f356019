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
	memcpy(buf, p, (size_t)len);
	return len;
}

enum which_link { LINK_FD, LINK_EXE, LINK_CWD, LINK_ROOT };

static ssize_t readlink_task(struct uvfs_task *task, enum which_link which, int fd,
			     char *buf, size_t bufsiz)
{
	const struct path *path = NULL;
	ssize_t ret;

	if ((ssize_t)bufsiz <= 0)
		return -EINVAL;
	task_enter(task);
	switch (which) {
	case LINK_FD: {
		struct file *f = fdget(task, fd);

		path = f ? &f->f_path : NULL;
		ret = -EBADF;
		break;
	}
	case LINK_EXE:
		path = task->exe.dentry ? &task->exe : NULL;
		ret = -ENOENT;
		break;
	case LINK_CWD:
		path = &task->pwd;
		break;
	case LINK_ROOT:
		path = &task->root;
		break;
	}
	/* The reader's root: the task reads its own links here. */
	if (path)
		ret = readlink_path(path, &task->root, buf, bufsiz);
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
