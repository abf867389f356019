// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * task.c - tasks: creation, fork, exit, credentials (kernel/fork.c, fs/fs_struct.c).
 *
 * Locking: task fields, fs_structs, descriptor tables and uvfs.tasks are protected
 * by uvfs.ns_lock.  A task holds a reference on its fs_struct (root and cwd paths)
 * and on its descriptor table (open files), each shared by CLONE_FS or CLONE_FILES;
 * the lockless walk reads both through the task, so they are freed after a grace
 * period.
 */
#include <sched.h>
#include <sys/resource.h>
#include <urcu/rculist.h>

#include "dcache.h"
#include "file.h"
#include "inode.h"
#include "rcu_defer.h"
#include "task.h"

uid_t current_uid(const struct inode *any)
{
	const struct uvfs_task *t = any->i_sb->s_fs->current;

	return t ? t->cred.fsuid : 0;
}

gid_t current_gid(const struct inode *any)
{
	const struct uvfs_task *t = any->i_sb->s_fs->current;

	return t ? t->cred.fsgid : 0;
}

static int alloc_pid(struct uvfs *fs)
{
	/* Pids count up from 1 and are not reused while the instance lives, which is
	 * what a fresh pid namespace shows for the first 4 million forks. */
	return fs->next_pid++;
}

/* Room in the pid table for pid, before anything else of the task is made. */
static int pid_table_reserve(struct uvfs *fs, int pid)
{
	unsigned int n = fs->pid_table_size ? fs->pid_table_size : 64;
	struct uvfs_task **table, **old = fs->pid_table;

	if ((unsigned int)pid < fs->pid_table_size)
		return 0;
	while (n <= (unsigned int)pid)
		n *= 2;
	table = uvfs_zalloc(n * sizeof(*table));
	if (!table)
		return -ENOMEM;
	if (old)
		memcpy(table, old, fs->pid_table_size * sizeof(*table));
	__atomic_store_n(&fs->pid_table, table, __ATOMIC_RELEASE);
	__atomic_store_n(&fs->pid_table_size, n, __ATOMIC_RELEASE);
	if (old)
		defer_kfree(fs, old);
	return 0;
}

struct uvfs_task *find_task(struct uvfs *fs, int pid)
{
	unsigned int n = __atomic_load_n(&fs->pid_table_size, __ATOMIC_ACQUIRE);
	struct uvfs_task **table = __atomic_load_n(&fs->pid_table, __ATOMIC_ACQUIRE);

	if (pid <= 0 || (unsigned int)pid >= n)
		return NULL;
	return __atomic_load_n(&table[pid], __ATOMIC_ACQUIRE);
}

/* A task of pid (0: the next), not yet listed; NULL with errno */
static struct uvfs_task *task_alloc(struct uvfs *fs, int pid)
{
	struct uvfs_task *t;

	if (pid && find_task(fs, pid)) {
		errno = EEXIST;
		return NULL;
	}
	if (pid_table_reserve(fs, pid ? pid : fs->next_pid)) {
		errno = ENOMEM;
		return NULL;
	}
	t = uvfs_zalloc(sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	t->fs = fs;
	if (pid) {
		t->pid = pid;
		if (pid >= fs->next_pid)
			fs->next_pid = pid + 1;
	} else {
		t->pid = alloc_pid(fs);
	}
	CDS_INIT_LIST_HEAD(&t->t_list);
	atomic_fetch_add(&uvfs_live.tasks, 1);
	return t;
}

/* fs/fs_struct.c: an fs_struct of one user */
static struct fs_struct *copy_fs_struct(const struct fs_struct *old)
{
	struct fs_struct *f = uvfs_zalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->users = 1;
	f->umask = old->umask;
	f->root = old->root;
	f->pwd = old->pwd;
	path_get(&f->root);
	path_get(&f->pwd);
	return f;
}

static void fs_struct_put(struct uvfs *fs, struct fs_struct *f)
{
	if (--f->users)
		return;
	path_put(&f->pwd);
	path_put(&f->root);
	defer_kfree(fs, f);  /* walk_start may be reading it */
}

/* A task of pid (0: the next) that takes fsx and files (one reference each, NULL
 * when their allocation failed); NULL with errno, the references dropped */
static struct uvfs_task *task_alloc_with(struct uvfs *fs, int pid, struct fs_struct *fsx,
					 struct fdtable *files)
{
	struct uvfs_task *t = fsx && files ? task_alloc(fs, pid) : NULL;
	int err = fsx && files ? errno : ENOMEM;

	if (t) {
		t->fs_struct = fsx;
		t->files = files;
		return t;
	}
	if (fsx)
		fs_struct_put(fs, fsx);
	if (files)
		fdtable_put(fs, files);
	errno = err;
	return NULL;
}

struct uvfs_task *uvfs_task_new(struct uvfs *fs)
{
	struct fs_struct init_fs = { .umask = 022 };
	struct fs_struct *fsx;
	struct fdtable *files;
	struct uvfs_task *t;

	if (!fs) {
		errno = EINVAL;
		return NULL;
	}
	uvfs_lock(fs);
	/* the first namespace, at its root as it is now */
	init_fs.root.mnt = init_fs.pwd.mnt = ns_root_mount(fs, fs->init_ns);
	init_fs.root.dentry = init_fs.pwd.dentry = init_fs.root.mnt->mnt_root;
	fsx = copy_fs_struct(&init_fs);
	files = fdtable_alloc(fs->max_files);
	t = task_alloc_with(fs, 0, fsx, files);
	if (t) {
		cred_init_root(&t->cred);
		t->cred_id = ++fs->next_cred_id;
		t->dumpable = SUID_DUMP_USER;
		t->rlim_fsize = UVFS_RLIM_INFINITY;
		t->mnt_ns = fs->init_ns;
		get_mnt_ns(t->mnt_ns);
		cds_list_add_tail_rcu(&t->t_list, &fs->tasks);
		__atomic_store_n(&fs->pid_table[t->pid], t, __ATOMIC_RELEASE);
	}
	uvfs_unlock(fs);
	return t;
}

/* PID_MAX_LIMIT (include/linux/threads.h, 64-bit) */
#define UVFS_PID_MAX 4194304

/*
 * copy_process() for the namespace: pid 0 is the next free.  copy_fs() and
 * copy_files(): CLONE_FS and CLONE_FILES share the parent's, else a copy -- made
 * before anything changes, so that ENOMEM leaves everything as it was.
 */
static struct uvfs_task *task_fork(struct uvfs_task *parent, int pid, unsigned long flags)
{
	struct fs_struct *fsx;
	struct fdtable *files;
	struct uvfs *fs;
	struct uvfs_task *t;

	if (!parent || pid < 0 || pid > UVFS_PID_MAX || (flags & ~(unsigned long)(CLONE_FS | CLONE_FILES))) {
		errno = EINVAL;
		return NULL;
	}
	fs = parent->fs;
	uvfs_lock(fs);
	if (!parent->fs_struct) {
		uvfs_unlock(fs);
		errno = EINVAL;  /* a zombie forks nothing */
		return NULL;
	}
	if (flags & CLONE_FS) {
		fsx = parent->fs_struct;
		fsx->users++;
	} else {
		fsx = copy_fs_struct(parent->fs_struct);
	}
	if (flags & CLONE_FILES) {
		files = parent->files;
		files->users++;
	} else {
		files = fdtable_dup(fs, parent->files);
	}
	t = task_alloc_with(fs, pid, fsx, files);
	if (t) {
		cred_copy(&t->cred, &parent->cred);
		t->dumpable = parent->dumpable;  /* the mm is copied */
		/* copy_signal(): the limits are the parent's */
		t->rlim_fsize = __atomic_load_n(&parent->rlim_fsize, __ATOMIC_RELAXED);
		t->cred_id = ++fs->next_cred_id;  /* copy_creds(): a new cred */
		t->mnt_ns = parent->mnt_ns;
		get_mnt_ns(t->mnt_ns);
		if (parent->exe.dentry) {
			t->exe = parent->exe;
			path_get(&t->exe);
			/* dup_mm_exe_file(): the child's mm denies writers too (the
			 * parent's already does, so nobody writes it) */
			deny_write_access(t->exe.dentry->d_inode);
		}
		cds_list_add_tail_rcu(&t->t_list, &fs->tasks);
		__atomic_store_n(&fs->pid_table[t->pid], t, __ATOMIC_RELEASE);
	}
	uvfs_unlock(fs);
	return t;
}

struct uvfs_task *uvfs_task_fork(struct uvfs_task *parent)
{
	return task_fork(parent, 0, 0);
}

struct uvfs_task *uvfs_task_fork_as(struct uvfs_task *parent, int pid)
{
	if (pid < 1) {
		errno = EINVAL;
		return NULL;
	}
	return task_fork(parent, pid, 0);
}

struct uvfs_task *uvfs_task_clone(struct uvfs_task *parent, int pid, unsigned long flags)
{
	return task_fork(parent, pid, flags);
}

int unshare_fs_struct(struct uvfs_task *t)
{
	struct fs_struct *old = t->fs_struct, *f;

	assert(ns_locked(t->fs));
	if (old->users == 1)
		return 0;
	f = copy_fs_struct(old);
	if (!f)
		return -ENOMEM;
	__atomic_store_n(&t->fs_struct, f, __ATOMIC_RELEASE);  /* walk_start */
	fs_struct_put(t->fs, old);
	return 0;
}

int unshare_files(struct uvfs_task *t)
{
	struct fdtable *old = t->files, *f;

	assert(ns_locked(t->fs));
	if (old->users == 1)
		return 0;
	f = fdtable_dup(t->fs, old);
	if (!f)
		return -ENOMEM;
	__atomic_store_n(&t->files, f, __ATOMIC_RELEASE);  /* fdget_rcu */
	fdtable_put(t->fs, old);
	return 0;
}

const struct path *task_link_path(struct uvfs_task *t, enum which_link which, int fd, bool rcu)
{
	struct file *f;

	switch (which) {
	case LINK_FD:
		f = rcu ? fdget_rcu(t, fd) : fdget(t, fd);
		return f ? &f->f_path : NULL;
	case LINK_EXE:
		return t->exe.dentry ? &t->exe : NULL;
	case LINK_CWD:
	case LINK_ROOT: {
		/* a zombie's is gone (NULL: get_fs_root() of a task without ->fs) */
		struct fs_struct *fsx = __atomic_load_n(&t->fs_struct, __ATOMIC_ACQUIRE);

		if (!fsx)
			return NULL;
		return which == LINK_CWD ? &fsx->pwd : &fsx->root;
	}
	}
	return NULL;
}

static void task_free(struct uvfs *fs, void *obj)
{
	atomic_fetch_sub(&uvfs_live.tasks, 1);
	free(obj);
}

/*
 * do_exit()'s part: exit_files(), exit_fs(), the executable (exit_mm()), then
 * exit_task_namespaces() -- what a zombie no longer has.  A zombie keeps an empty
 * descriptor table (allocated first: on ENOMEM the task keeps its own, to go at
 * release_task), so that /proc/PID/fd lists nothing; its fs_struct and namespace
 * pointers are NULL, which every reader of another task's handles (/proc/PID/cwd,
 * root, mounts: ENOENT, EINVAL).  ns_lock held.
 */
static void task_do_exit(struct uvfs_task *t)
{
	struct uvfs *fs = t->fs;
	struct fdtable *empty = fdtable_alloc(t->files->max), *files = t->files;
	struct fs_struct *fsx = t->fs_struct;
	struct path exe = t->exe;

	if (!empty)
		return;
	/* lockless readers (fdget_rcu, walk_start) may hold the old ones: they go
	 * after a grace period */
	__atomic_store_n(&t->files, empty, __ATOMIC_RELEASE);
	fdtable_put(fs, files);
	if (exe.dentry) {
		__atomic_store_n(&t->exe.dentry, NULL, __ATOMIC_RELAXED);
		t->exe.mnt = NULL;
		allow_write_access(exe.dentry->d_inode);
		path_put(&exe);
	}
	__atomic_store_n(&t->fs_struct, NULL, __ATOMIC_RELEASE);
	fs_struct_put(fs, fsx);
	put_mnt_ns(fs, t->mnt_ns);
	t->mnt_ns = NULL;
}

void task_release(struct uvfs_task *t)
{
	struct uvfs *fs = t->fs;

	/* a zombie's empty table, or the task's own (do_exit and release_task at once) */
	fdtable_put(fs, t->files);
	if (t->exe.dentry)
		allow_write_access(t->exe.dentry->d_inode);
	path_put(&t->exe);
	/* release_task(): proc_flush_pid() — before the task leaves the list, so that
	 * /proc/PID is not found while it is still being torn down */
	fs_types_task_gone(fs, t->pid);
	if (t->fs_struct)
		fs_struct_put(fs, t->fs_struct);
	if (t->mnt_ns)
		put_mnt_ns(fs, t->mnt_ns);  /* exit_task_namespaces(): after the fs_struct */
	cred_release(fs, &t->cred);
	/* a lockless walk through /proc/PID may be reading it (find_task_rcu) */
	cds_list_del_rcu(&t->t_list);
	__atomic_store_n(&fs->pid_table[t->pid], NULL, __ATOMIC_RELEASE);
	defer_free(fs, t, task_free);
}

void uvfs_task_zombie(struct uvfs_task *task)
{
	struct uvfs *fs;

	if (!task)
		return;
	fs = task->fs;
	uvfs_lock(fs);
	if (task->fs_struct)
		task_do_exit(task);
	uvfs_unlock(fs);
}

void uvfs_task_exit(struct uvfs_task *task)
{
	struct uvfs *fs;

	if (!task)
		return;
	fs = task->fs;
	uvfs_lock(fs);
	task_release(task);
	uvfs_unlock(fs);
}

int uvfs_task_pid(const struct uvfs_task *task)
{
	return task ? task->pid : -EINVAL;
}

int uvfs_task_setrlimit(struct uvfs_task *task, int resource, unsigned long long limit)
{
	if (!task || resource != RLIMIT_FSIZE)
		return -EINVAL;
	__atomic_store_n(&task->rlim_fsize, limit, __ATOMIC_RELAXED);
	return 0;
}

unsigned long long uvfs_task_take_signals(struct uvfs_task *task)
{
	return task ? __atomic_exchange_n(&task->sigpending, 0, __ATOMIC_RELAXED) : 0;
}

