/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * task.h - tasks (processes): credentials, umask, root, cwd and descriptors.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_TASK_H
#define UVFS_TASK_H

#include "cred.h"
#include "file.h"

/*
 * What clone(CLONE_FS) shares (the kernel's struct fs_struct): the root, the working
 * directory and the umask.  Fields under ns_lock; root and pwd are read lockless by
 * the walk (walk_start), checked by ns_seq; freed after a grace period.
 */
struct fs_struct {
	unsigned int users;           /* the tasks sharing it */
	mode_t umask;
	struct path root;             /* holds references */
	struct path pwd;              /* holds references */
};

struct uvfs_task {
	struct uvfs *fs;              /* immutable */
	int pid;                      /* immutable */
	/* ns_lock: procfs's note of the task's number in the nested pid namespace
	 * nsnr_ns (uvfs_proc_source.ns_pid; nsnr_ns 0: none noted) -- it never
	 * changes while the task lives, and a listing asks for every task's */
	uint64_t nsnr_ns;
	int nsnr;
	struct cred cred;             /* ids, groups, capabilities (cred.h) */
	/* the mm's dumpable flag (SUID_DUMP_*): a change of effective or filesystem
	 * ids, or new capabilities, sets it to fs.suid_dumpable (commit_creds()) */
	int dumpable;
	/* which cred object the kernel's task would have: a new one at every change of
	 * credentials and at fork (prepare_creds()); a file remembers its opener's
	 * (f_cred_id), for linkat(AT_EMPTY_PATH)'s "f_cred == current_cred()" */
	unsigned long cred_id;
	struct mnt_namespace *mnt_ns; /* holds a reference (nsproxy->mnt_ns) */
	/* CLONE_FS and CLONE_FILES share these; a reference each.  The pointers change
	 * under ns_lock (unshare, exec's unshare_files) with a release store, and are
	 * read lockless (walk_start, fdget_rcu) */
	struct fs_struct *fs_struct;
	struct fdtable *files;
	struct path exe;              /* the executable (mm->exe_file); NULL dentry if none */
	/* RLIMIT_FSIZE's soft limit in bytes (UVFS_RLIM_INFINITY: none); set by
	 * uvfs_task_setrlimit() with a relaxed atomic store, read so under ns_lock;
	 * a fork copies it */
	unsigned long long rlim_fsize;
	/* the signals uvfs sent the task (bit sig - 1), the kernel's send_sig(); taken
	 * by uvfs_task_take_signals(); atomic */
	unsigned long long sigpending;
	struct cds_list_head t_list;  /* in uvfs.tasks */
};

/* Release everything a task holds (exit, uvfs_free); ns_lock held. */
void task_release(struct uvfs_task *t);

/* unshare(CLONE_FS), unshare(CLONE_FILES): a private copy of a shared fs_struct or
 * descriptor table (nothing to do for one of one user).  0 or -ENOMEM, which leaves
 * the task as it was.  ns_lock held. */
int unshare_fs_struct(struct uvfs_task *t);
int unshare_files(struct uvfs_task *t);

/* The links a task has in /proc/PID and through uvfs_readlink_*(). */
enum which_link { LINK_FD, LINK_EXE, LINK_CWD, LINK_ROOT };

/* The live task of pid, or NULL: O(1), under ns_lock or in an RCU read section
 * (tasks are freed after a grace period). */
struct uvfs_task *find_task(struct uvfs *fs, int pid);

/* task_link_path - what the link stands for (proc_fd_link, proc_exe_link,
 * proc_cwd_link, proc_root_link), not referenced; NULL for a closed descriptor or no
 * executable.  rcu: inside an RCU read section without ns_lock (fdget_rcu). */
const struct path *task_link_path(struct uvfs_task *t, enum which_link which, int fd, bool rcu);

/* The task whose cred this is: every cred the VFS is asked about is a task's own
 * (faccessat2 overrides it in place), as the kernel's checks ask current_cred(). */
static inline const struct uvfs_task *cred_task(const struct cred *c)
{
	return container_of(c, struct uvfs_task, cred);
}

/* send_sig(sig, current, 0) to the task whose call cred is: pending for the embedder
 * to deliver (uvfs_task_take_signals()) */
static inline void task_send_sig(const struct cred *cred, int sig)
{
	/* the task is not const: only its credentials are the call's to read */
	struct uvfs_task *t = (struct uvfs_task *)cred_task(cred);

	__atomic_fetch_or(&t->sigpending, 1ull << (sig - 1), __ATOMIC_RELAXED);
}

/* rlimit(RLIMIT_FSIZE) of the task whose call cred is */
static inline unsigned long long task_rlimit_fsize(const struct cred *cred)
{
	return __atomic_load_n(&cred_task(cred)->rlim_fsize, __ATOMIC_RELAXED);
}

/* The mm's dumpable states (include/linux/sched/coredump.h) */
#define SUID_DUMP_DISABLE 0
#define SUID_DUMP_USER    1
#define SUID_DUMP_ROOT    2

/*
 * ptrace_may_access(t, PTRACE_MODE_READ_FSCREDS), as /proc/PID/fd/N, cwd, root and exe
 * ask it: the reader is t; or its filesystem ids equal all of t's real, effective and
 * saved ids, or it has CAP_SYS_PTRACE, and then t must be dumpable or the reader have
 * CAP_SYS_PTRACE.  Lockless too (t freed after a grace period).
 */
lockless_read static inline bool ptrace_may_read(const struct uvfs_task *reader,
						 const struct uvfs_task *t)
{
	const struct cred *c = &reader->cred, *tc = &t->cred;

	bool cap = cred_capable(c, CAP_SYS_PTRACE);

	if (reader == t)
		return true;
	if (!(c->fsuid == tc->uid && c->fsuid == tc->euid && c->fsuid == tc->suid &&
	      c->fsgid == tc->gid && c->fsgid == tc->egid && c->fsgid == tc->sgid) && !cap)
		return false;
	/* a task that changed its ids is not dumpable: only CAP_SYS_PTRACE reads it */
	return READ_ONCE(t->dumpable) == SUID_DUMP_USER || cap;
}

/* Every system call runs between these: ns_lock held, fs->current the caller. */
static inline struct uvfs *task_enter(struct uvfs_task *task)
{
	struct uvfs *fs = task->fs;

	uvfs_lock(fs);
	/* a zombie (uvfs_task_zombie) makes no calls: nothing left to walk from */
	assert(task->fs_struct);
	fs->current = task;
	return fs;
}

static inline void task_leave(struct uvfs_task *task)
{
	if (__builtin_expect(task->fs->shrink_pending, 0))
		shrink_caches(task->fs);
	task->fs->current = NULL;
	uvfs_unlock(task->fs);
}

#endif /* UVFS_TASK_H */
