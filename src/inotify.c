// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * inotify.c - inotify_init1, inotify_add_watch, inotify_rm_watch and the descriptor
 * they make (fs/notify/inotify/inotify_user.c), on an anonymous inode
 * (fs/anon_inodes.c: one inode of mode 0600 and no type for every such file,
 * "anon_inode:inotify" to readlink).
 *
 * Locking: ns_lock (task_enter) for every call; a blocked read waits on its group's
 * queue with ns_lock given up (uvfs_cond_wait), as a fifo's does.  The group is the
 * file's (private_data) and goes with its last reference (->release).
 *
 * Differences from Linux, deliberate: fs.inotify.max_user_instances and
 * max_user_watches are not enforced (a uvfs instance holds no count per user);
 * max_queued_events is the host's value when the descriptor is made.
 */
#include <stdarg.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

#include "anon_inodes.h"
#include "d_path.h"
#include "fsnotify.h"
#include "mount.h"
#include "namei.h"
#include "permission.h"
#include "task.h"

_Static_assert(FS_ACCESS == IN_ACCESS && FS_MOVE_SELF == IN_MOVE_SELF &&
	       FS_UNMOUNT == IN_UNMOUNT && FS_Q_OVERFLOW == IN_Q_OVERFLOW &&
	       FS_IN_IGNORED == IN_IGNORED && FS_ISDIR == IN_ISDIR &&
	       FS_EXCL_UNLINK == IN_EXCL_UNLINK && FS_IN_ONESHOT == IN_ONESHOT,
	       "fsnotify's events are inotify's bits");
_Static_assert(sizeof(struct inotify_event) == 16, "an event's header");

/* The bits inotify_add_watch knows (ALL_INOTIFY_BITS) */
#define ALL_INOTIFY_BITS (IN_ALL_EVENTS | IN_UNMOUNT | IN_Q_OVERFLOW | IN_IGNORED | \
			  IN_ONLYDIR | IN_DONT_FOLLOW | IN_EXCL_UNLINK | IN_MASK_CREATE | \
			  IN_MASK_ADD | IN_ISDIR | IN_ONESHOT)
/* What a mark keeps of them (INOTIFY_USER_MASK) */
#define INOTIFY_USER_MASK (IN_ALL_EVENTS | IN_ONESHOT | IN_EXCL_UNLINK)

static unsigned int host_max_queued_events(void)
{
	FILE *f = fopen("/proc/sys/fs/inotify/max_queued_events", "re");
	unsigned int n = 0;

	if (f) {
		if (fscanf(f, "%u", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n ? n : 16384;
}

static struct fsnotify_group *file_group(const struct file *f);

#define FILEID_INVALID_ 0xff  /* exportfs_encode_fid(): no room */

/* ---------------------------------------------------------------------------------
 * The descriptor
 */

/* inotify_read(): whole events while they fit; EINVAL when not even the first does
 * (unless some were copied); a wait while the queue is empty, unless O_NONBLOCK */
static ssize_t inotify_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	struct fsnotify_group *g = file_group(f);
	char *p = buf, *start = buf;

	(void)pos;
	for (;;) {
		struct fsnotify_event *e = g->head;
		size_t size;

		if (e) {
			struct inotify_event h;

			size = fsnotify_event_size(e);
			if (size > count)
				return p != start ? p - start : -EINVAL;
			h.wd = e->wd;
			h.mask = e->mask;
			h.cookie = e->cookie;
			h.len = e->name_len;
			memcpy(p, &h, sizeof(h));
			memcpy(p + sizeof(h), e->name, e->name_len);
			p += size;
			count -= size;
			free(fsnotify_remove_first(g));
			continue;
		}
		if (p != start)
			return p - start;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (uvfs_nowait)
			return -UVFS_EWOULDWAIT;
		if (uvfs_cond_wait(g->fs, &g->wait))
			return -ERESTARTSYS;
	}
}

static void inotify_release(struct inode *inode, struct file *f)
{
	(void)inode;
	fsnotify_destroy_group(f->private_data);
	f->private_data = NULL;
}

/* noop_llseek(): the position stays where it is, and the call succeeds */
static off_t inotify_llseek(struct file *f, off_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return f->f_pos;
}

/* seq_printf() for show_fdinfo: at buf + *len while it fits, counted regardless */
static void __attribute__((format(printf, 4, 5)))
fdinfo_printf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = *len < size ? vsnprintf(buf + *len, size - *len, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/*
 * inotify_show_fdinfo() (fs/notify/fdinfo.c): a line a mark, the newest first as the
 * group's list holds them -- its wd and the inode's number in hex, the superblock's
 * device as the kernel keeps one (MKDEV: the major above 20 bits of minor), the mask
 * as the user gave it (inotify_mark_user_mask()), no ignored mask (inotify has
 * none), and the inode's fid (show_mark_fhandle(): exportfs_encode_fid() gives one
 * of every inode), its bytes as memory holds them
 */
static size_t inotify_show_fdinfo(struct file *f, char *buf, size_t size)
{
	struct fsnotify_group *g = f->private_data;
	size_t len = 0;

	for (struct fsnotify_mark *m = g->marks; m; m = m->g_next) {
		struct inode *inode = m->inode;
		dev_t dev = inode->i_sb->s_dev;
		uint32_t fh[FID_DWORDS];
		unsigned int dwords = FID_DWORDS;
		int type = exportfs_encode_fid(inode, fh, &dwords);

		fdinfo_printf(buf, size, &len, "inotify wd:%x ino:%lx sdev:%x mask:%x ignored_mask:0 ",
			      (unsigned int)m->wd, (unsigned long)inode->i_ino,
			      (unsigned int)(major(dev) << 20 | minor(dev)),
			      m->mask & INOTIFY_USER_MASK);
		if (type != FILEID_INVALID_) {
			fdinfo_printf(buf, size, &len, "fhandle-bytes:%x fhandle-type:%x f_handle:",
				      dwords * 4, (unsigned int)type);
			for (unsigned int i = 0; i < dwords * 4; i++)
				fdinfo_printf(buf, size, &len, "%02x", ((const unsigned char *)fh)[i]);
		}
		fdinfo_printf(buf, size, &len, "\n");
	}
	return len;
}

static const struct file_operations inotify_fops = {
	.read = inotify_read,
	.show_fdinfo = inotify_show_fdinfo,
	.release = inotify_release,
	.llseek = inotify_llseek,
	.fop_flags = FOP_PSEUDO,
};

static struct fsnotify_group *file_group(const struct file *f)
{
	return f->f_op == &inotify_fops ? f->private_data : NULL;
}

/* The group of the inotify descriptor fd (ns_lock held), or NULL with *err: EBADF
 * for no descriptor, EINVAL for one that is not inotify's (fd_file(f)->f_op !=
 * &inotify_fops) */
static struct fsnotify_group *fdget_group(struct uvfs_task *task, int fd, int *err)
{
	struct file *f = fdget(task, fd);
	struct fsnotify_group *g = f ? file_group(f) : NULL;

	*err = !f ? -EBADF : !g ? -EINVAL : 0;
	return g;
}

/* the inode every inotify file is opened on: its operations */
static const struct inode_operations inotify_anon_iops = {
	.fop = &inotify_fops,
};

void fsnotify_exit(struct uvfs *fs)
{
	struct fsnotify_state *s = fs->fsn;

	if (!s)
		return;
	assert(!s->nr_marks);
	if (s->dnotify)
		fsnotify_destroy_group(s->dnotify);
	while (s->signals) {
		struct dnotify_signal *sig = s->signals;

		s->signals = sig->next;
		free(sig);
	}
	free(s->hash);
	free(s);
	__atomic_store_n(&fs->fsn, NULL, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------------------
 * The calls
 */

int uvfs_inotify_init1(struct uvfs_task *task, int flags)
{
	struct fsnotify_group *g = NULL;
	struct path path;
	struct file *f;
	int fd, err;

	if (flags & ~(IN_CLOEXEC | IN_NONBLOCK))
		return -EINVAL;
	task_enter(task);
	err = anon_inode_path(task->fs, "inotify", &inotify_anon_iops, &path);
	if (err)
		goto out;
	/* get_unused_fd_flags() first: EMFILE before anything is made */
	fd = fd_alloc(task->fs, task->files, uvfs_fd_floor);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	f = alloc_empty_file(task->fs);
	g = f ? fsnotify_alloc_group(task->fs, host_max_queued_events()) : NULL;
	if (!g) {
		if (f)
			file_free(f);
		err = -ENOMEM;
		goto out;
	}
	file_init(f, &path, O_RDONLY | (flags & O_NONBLOCK), FMODE_READ);
	f->private_data = g;
	fd_install(task->files, (unsigned int)fd, f, flags & IN_CLOEXEC);
	err = fd;
out:
	task_leave(task);
	return err;
}

/* inotify_update_existing_watch() / inotify_new_watch() */
static int update_watch(struct fsnotify_group *g, struct inode *inode, uint32_t arg)
{
	struct fsnotify_mark *m = fsnotify_find_mark(g, inode);
	uint32_t mask = arg & INOTIFY_USER_MASK;

	if (m) {
		if (arg & IN_MASK_CREATE)
			return -EEXIST;
		m->mask = (arg & IN_MASK_ADD) ? m->mask | mask : mask;
		return m->wd;
	}
	/* idr_alloc_cyclic(..., 1, 0): the numbers after the last one given, from 1
	 * again at INT_MAX, skipping those in use */
	for (int tries = 0;; tries++) {
		int wd = g->last_wd == INT32_MAX ? 1 : g->last_wd + 1;
		bool used = false;

		g->last_wd = wd;
		for (struct fsnotify_mark *o = g->marks; o && !used; o = o->g_next)
			used = o->wd == wd;
		if (used) {
			if (tries == INT32_MAX)
				return -ENOSPC;
			continue;
		}
		if (!fsnotify_add_mark(g, inode, mask, wd))
			return -ENOMEM;
		return wd;
	}
}

int uvfs_inotify_add_watch(struct uvfs_task *task, int fd, const char *path, uint32_t mask)
{
	struct fsnotify_group *g;
	unsigned int how = 0;
	struct path p;
	int err;

	if ((mask & IN_MASK_ADD) && (mask & IN_MASK_CREATE))
		return -EINVAL;
	if (!(mask & ALL_INOTIFY_BITS))
		return -EINVAL;
	task_enter(task);
	g = fdget_group(task, fd, &err);
	if (!g)
		goto out;
	if (!(mask & IN_DONT_FOLLOW))
		how |= LOOKUP_FOLLOW;
	if (mask & IN_ONLYDIR)
		how |= LOOKUP_DIRECTORY;
	/* inotify_find_inode(): the walk, then read permission on what it found */
	err = filename_lookup(task, AT_FDCWD, path, how, &p);
	if (err)
		goto out;
	err = inode_permission(&task->cred, p.dentry->d_inode, MAY_READ);
	if (!err && !fsnotify_state(task->fs))
		err = -ENOMEM;
	if (!err)
		err = update_watch(g, p.dentry->d_inode, mask);
	path_put(&p);
out:
	task_leave(task);
	return err;
}

int uvfs_inotify_rm_watch(struct uvfs_task *task, int fd, int wd)
{
	struct fsnotify_group *g;
	struct fsnotify_mark *m = NULL;
	int err;

	task_enter(task);
	g = fdget_group(task, fd, &err);
	if (g) {
		for (m = g->marks; m && m->wd != wd; m = m->g_next)
			;
		if (!m)
			err = -EINVAL;
		else
			fsnotify_destroy_mark(m);
	}
	task_leave(task);
	return err;
}

/* FIONREAD: the bytes a read would give if its buffer took everything queued */
static int inotify_fionread(const struct fsnotify_group *g)
{
	size_t n = 0;

	for (const struct fsnotify_event *e = g->head; e; e = e->next)
		n += fsnotify_event_size(e);
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

/* FIONREAD of an inotify descriptor (ns_lock held): 0 with *n, or -ENOTTY for a file
 * that is not one (src/ioctl.c) */
int inotify_fionread_file(struct file *f, int *n)
{
	struct fsnotify_group *g = file_group(f);

	if (!g)
		return -ENOTTY;
	*n = inotify_fionread(g);
	return 0;
}

int uvfs_inotify_pollfd(struct uvfs_task *task, int fd)
{
	struct fsnotify_group *g;
	int err;

	task_enter(task);
	g = fdget_group(task, fd, &err);
	if (!g)
		;
	else if (g->pollfd >= 0)
		err = g->pollfd;
	else
		err = fsnotify_group_pollfd(g);
	task_leave(task);
	return err;
}
