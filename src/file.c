// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * file.c - open file descriptions (fs/file_table.c) and descriptor tables (fs/file.c).
 *
 * Locking: struct file and struct fdtable fields are protected by uvfs.ns_lock.
 * A file holds references on its path and inode; a descriptor holds one on its file.
 */
#include "fsnotify.h"
#include "dcache.h"
#include "file.h"
#include "inode.h"
#include "leases.h"
#include "rcu_defer.h"
#include "slab.h"
#include "standin.h"
#include "task.h"

struct file *alloc_empty_file(struct uvfs *fs)
{
	return kmem_cache_zalloc(fs->file_cache);
}

/* A file that was never installed goes back to its cache at once. */
void file_free(struct file *f)
{
	kmem_cache_free(f);
}

static void file_free_deferred(struct uvfs *fs, void *obj)
{
	kmem_cache_free(obj);
}


void file_init(struct file *f, const struct path *path, unsigned int flags, unsigned int mode)
{
	struct inode *inode = path->dentry->d_inode;

	f->f_count = 1;
	/* f_cred: the cred of the task opening it (the caller: fs->current) */
	f->f_cred_id = inode->i_sb->s_fs->current ? inode->i_sb->s_fs->current->cred_id : 0;
	f->f_path = *path;
	path_get(&f->f_path);
	f->f_inode = igrab(inode);
	f->f_flags = flags;
	f->f_mode = mode;
	f->f_op = inode->i_op->fop;
	/* do_dentry_open()'s i_readcount_inc(): what a write lease must be alone in */
	if ((mode & (FMODE_READ | FMODE_WRITE)) == FMODE_READ && S_ISREG(inode->i_mode))
		inode->i_readcount++;
	STAT_ADD(inode->i_sb->s_fs->stats.files, 1);
	inode->i_sb->s_fs->live_files++;
}

void file_deinit(struct file *f)
{
	struct inode *inode = f->f_inode;

	struct path path = f->f_path;

	if ((f->f_mode & (FMODE_READ | FMODE_WRITE)) == FMODE_READ && S_ISREG(inode->i_mode))
		inode->i_readcount--;  /* __fput()'s put_file_access() */
	STAT_ADD(inode->i_sb->s_fs->stats.files, -1);
	inode->i_sb->s_fs->live_files--;
	/* the fields stay as they are: after fput() a lockless readlink may still load
	 * them (fdget_rcu), until the grace period that frees the file.  The inode
	 * first: the path's mount may be a lazily unmounted one whose last reference
	 * this is, and it takes its superblock, every inode included, with it. */
	iput(inode);
	path_put(&path);
}

void fput(struct file *f)
{
	struct inode *inode = f->f_inode;
	struct uvfs *fs = inode->i_sb->s_fs;

	assert(f->f_count > 0);
	if (--f->f_count > 0)
		return;

	fsnotify_close(f);  /* __fput() */
	dnotify_release(f);  /* no request may outlive its file */
	locks_remove_lease(f);  /* __fput()'s locks_remove_file() */
	/* an O_PATH file has no ->open, so nothing to release -- unless the filesystem
	 * gave it something since (memfs: the memfd of its data, for an exec) */
	if ((!(f->f_mode & FMODE_PATH) || f->private_data) && f->f_op && f->f_op->release)
		f->f_op->release(inode, f);
	standin_release(f);
	if ((f->f_mode & FMODE_WRITE) && S_ISREG(inode->i_mode)) {
		put_write_access(inode);  /* __fput(): put_file_access() */
		f->f_path.mnt->mnt_writers--;
	}
	if (f->f_mode & FMODE_NEED_UNMOUNT)
		dissolve_on_fput(fs, f->f_path.mnt);  /* __fput() */
	/* file_deinit drops our inode reference, then the dentry: an unlinked file's
	 * dentry dies there and its inode reference, the last, frees the data. */
	file_deinit(f);
	/* a lockless readlink of /proc/PID/fd/N may be reading it (fdget_rcu) */
	defer_free(fs, f, file_free_deferred);
}

struct fdtable *fdtable_alloc(unsigned int max)
{
	struct fdtable *t = uvfs_zalloc(sizeof(*t));

	if (t) {
		t->max = max;
		t->users = 1;
	}
	return t;
}

/*
 * A larger table.  Lockless readers (fdget_rcu) load size, then fd: the new array
 * is published before the new size, so one that sees the new size sees the new
 * array, and the old array is freed only after a grace period (the kernel's
 * expand_fdtable() with its RCU-freed struct fdtable).
 */
static int fdtable_grow(struct uvfs *fs, struct fdtable *t, unsigned int need)
{
	/* the kernel's sizes (they show as the end position of a /proc/PID/fd listing):
	 * NR_OPEN_DEFAULT (64) first, then alloc_fdtable()'s 128 * a power of two */
	unsigned int n = 64;
	struct file **fd, **old = t->fd;
	unsigned char *ce;

	if (need >= 64)
		for (n = 128; n <= need; n *= 2)
			;
	fd = uvfs_malloc(n * sizeof(*fd));
	if (!fd)
		return -ENOMEM;
	ce = uvfs_realloc(t->cloexec, n);  /* read under ns_lock only */
	if (!ce) {
		free(fd);
		return -ENOMEM;
	}
	t->cloexec = ce;
	if (t->size)
		memcpy(fd, old, t->size * sizeof(*fd));
	memset(fd + t->size, 0, (n - t->size) * sizeof(*fd));
	memset(t->cloexec + t->size, 0, n - t->size);
	__atomic_store_n(&t->fd, fd, __ATOMIC_RELEASE);
	__atomic_store_n(&t->size, n, __ATOMIC_RELEASE);
	if (old)
		defer_kfree(fs, old);
	return 0;
}

static void fdtable_release(struct uvfs *fs, struct fdtable *t)
{
	for (unsigned int i = 0; i < t->size; i++)
		if (t->fd[i]) {
			dnotify_flush(t->fd[i], t);  /* close_files(): filp_close() */
			fput(t->fd[i]);
		}
	if (t->fd)
		defer_kfree(fs, t->fd);
	free(t->cloexec);
	defer_kfree(fs, t);
}

struct fdtable *fdtable_dup(struct uvfs *fs, const struct fdtable *src)
{
	struct fdtable *dst = fdtable_alloc(src->max);
	unsigned int last = 0;

	if (!dst || !src->size)
		return dst;
	/* dup_fd()'s sane_fdtable_size(): as large as the last descriptor open (or
	 * taken by an open that waits) needs, not as large as the table grew -- a
	 * child of a process that once had descriptor 200 and closed it has 64 slots
	 * (the kernel's answer: the end of a /proc/PID/fd listing, test_uvfs_run.sh) */
	for (unsigned int i = src->size; i-- > 0;)
		if (src->fd[i] || (src->cloexec[i] & FD_SLOT_RESERVED)) {
			last = i;
			break;
		}
	if (fdtable_grow(fs, dst, last)) {
		fdtable_release(fs, dst);
		return NULL;
	}
	for (unsigned int i = 0; i <= last; i++) {
		if (src->fd[i])
			WRITE_ONCE(dst->fd[i], get_file(src->fd[i]));  /* fdget_rcu() */
		dst->cloexec[i] = src->cloexec[i] & 1;  /* not another thread's reservation */
	}
	dst->count = src->count;
	return dst;
}

void fdtable_put(struct uvfs *fs, struct fdtable *t)
{
	if (--t->users == 0)
		fdtable_release(fs, t);
}

struct file *fdget(struct uvfs_task *task, int fd)
{
	struct fdtable *t = task->files;


	if (fd < 0 || (unsigned int)fd >= t->size)
		return NULL;
	return t->fd[fd];
}

lockless_read
struct file *fdget_rcu(struct uvfs_task *task, int fd)
{
	/* exec and unshare(CLONE_FILES) replace a shared table: the old one is freed
	 * after a grace period */
	struct fdtable *t = __atomic_load_n(&task->files, __ATOMIC_ACQUIRE);
	unsigned int n = __atomic_load_n(&t->size, __ATOMIC_ACQUIRE);
	struct file **arr = __atomic_load_n(&t->fd, __ATOMIC_ACQUIRE);

	if (fd < 0 || (unsigned int)fd >= n)
		return NULL;
	return __atomic_load_n(&arr[fd], __ATOMIC_ACQUIRE);
}

int fd_alloc(struct uvfs *fs, struct fdtable *t, unsigned int start)
{
	unsigned int i;

	for (i = start; i < t->size && i < t->max; i++)
		if (!t->fd[i] && !(t->cloexec[i] & FD_SLOT_RESERVED))
			return (int)i;
	if (i >= t->max)  /* the table may be larger than the limit (fdtable_grow) */
		return -EMFILE;
	if (fdtable_grow(fs, t, i))
		return -ENOMEM;
	return (int)i;
}

void fd_reserve(struct fdtable *t, unsigned int fd)
{
	assert(fd < t->size && !t->fd[fd]);
	t->cloexec[fd] = FD_SLOT_RESERVED;
}

void fd_unreserve(struct fdtable *t, unsigned int fd)
{
	t->cloexec[fd] = 0;
}

void fd_install(struct fdtable *t, unsigned int fd, struct file *f, bool cloexec)
{
	struct file *old;

	assert(fd < t->size);
	old = t->fd[fd];
	__atomic_store_n(&t->fd[fd], f, __ATOMIC_RELEASE);  /* fdget_rcu() */
	t->cloexec[fd] = cloexec;
	if (old) {
		dnotify_flush(old, t);  /* do_dup2(): filp_close() */
		fput(old);
	} else
		__atomic_store_n(&t->count, t->count + 1, __ATOMIC_RELAXED);
}

int fd_close(struct fdtable *t, int fd)
{
	struct file *f;

	if (fd < 0 || (unsigned int)fd >= t->size || !t->fd[fd])
		return -EBADF;
	f = t->fd[fd];
	WRITE_ONCE(t->fd[fd], NULL);  /* fdget_rcu() */
	t->cloexec[fd] = 0;
	__atomic_store_n(&t->count, t->count - 1, __ATOMIC_RELAXED);
	dnotify_flush(f, t);  /* filp_flush() */
	fput(f);
	return 0;
}
