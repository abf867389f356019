// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * leases.c - file leases, as Linux 6.18's fs/locks.c keeps them for fcntl(2):
 * generic_add_lease(), generic_delete_lease(), lease_modify(), time_out_leases(),
 * __break_lease() and fcntl_getlease().
 *
 * A lease belongs to an open file (the kernel's lease_init(): flc_owner is the file),
 * so two descriptions of one process are two holders, and a dup or fork shares one.
 * It is told of a break by the signal F_SETLEASE arranged: the calling process
 * becomes the file's owner (__f_setown()), and the descriptor it named is si_fd
 * (lease_setup()'s fasync entry); uvfs queues that signal with dnotify's
 * (send_sigio(), uvfs_dnotify_take()), and the embedder sends it.
 *
 * Leases are rare and few, so the instance keeps one list, not a context per inode;
 * an inode with any has I_LEASES, which is all an open of any other file pays.
 * Breakers wait on one queue (uvfs.lease_wait), woken at every change of a lease,
 * and each looks again at its own file's (the kernel wakes those blocked on the
 * lease that changed: the same answers, a few more wake-ups).
 *
 * Locking:
 *
 *   what                          protected by
 *   ----------------------------  -------------------------------------------------
 *   uvfs.leases, each lease       ns_lock
 *   uvfs.lease_breakers, each     ns_lock (each on its waiter's stack, listed while
 *                                 it waits)
 *   uvfs.leases_lost              ns_lock; leases_lost_any is also read without it
 *                                 (atomic), set under it
 *   uvfs.lease_wait               its waiters give ns_lock up (uvfs_cond_wait_until)
 *   uvfs.lease_break_time         ns_lock (uvfs_set_lease_break_time)
 *   inode.i_state's I_LEASES      ns_lock
 */
#include <fcntl.h>
#include <time.h>

#include "fsnotify.h"
#include "leases.h"
#include "permission.h"
#include "task.h"

/* the kernel's FL_UNLOCK_PENDING and FL_DOWNGRADE_PENDING: a break under way, to
 * F_UNLCK (an open for writing) or to F_RDLCK (an open for reading of a write lease) */
#define FL_UNLOCK_PENDING    0x1u
#define FL_DOWNGRADE_PENDING 0x2u

struct file_lease {
	struct file_lease *next;      /* uvfs.leases */
	struct file *filp;            /* holder and owner; not referenced: the lease
				       * goes at its last fput (locks_remove_lease) */
	int type;                     /* F_RDLCK or F_WRLCK */
	unsigned int flags;           /* FL_*_PENDING */
	/* CLOCK_MONOTONIC ns at which a pending break ends by itself (0: never; the
	 * kernel's fl_break_time and fl_downgrade_time) */
	long long break_time, downgrade_time;
	int pid;                      /* the process told of a break (__f_setown) */
	int lock_pid;                 /* the process that made it (lease_init()'s
				       * flc_pid): what /proc/locks shows */
	int fd;                       /* its descriptor, the signal's si_fd (fa_fd) */
};

/*
 * An open waiting for the leases of its file to be broken: /proc/locks lists it under
 * the lease it is blocked on (the kernel's __break_lease() puts its own lease,
 * with no file, on the first lease of the inode's list: "-> LEASE  BREAKER").
 */
struct lease_breaker {
	struct lease_breaker *next;   /* uvfs.lease_breakers, oldest first */
	struct inode *inode;
	int pid;                      /* the waiting process (lease_init()'s flc_pid) */
	int type;                     /* F_WRLCK for an open for writing, else F_RDLCK */
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* past_time(): 0 is "never" */
static bool past_time(long long then, long long now)
{
	return then && now >= then;
}

/* lease_breaking() and target_leasetype(): what the lease is becoming */
static int target_type(const struct file_lease *fl)
{
	if (fl->flags & FL_UNLOCK_PENDING)
		return F_UNLCK;
	if (fl->flags & FL_DOWNGRADE_PENDING)
		return F_RDLCK;
	return fl->type;
}

static void update_inode_bit(struct uvfs *fs, struct inode *inode)
{
	for (struct file_lease *fl = fs->leases; fl; fl = fl->next)
		if (fl->filp->f_inode == inode) {
			inode->i_state |= I_LEASES;
			return;
		}
	inode->i_state &= (uint8_t)~I_LEASES;
}

/*
 * lease_modify(): the lease becomes arg; F_UNLCK removes it, and with it the file's
 * owner and F_SETSIG's signal (f_delown(), signum = 0).  Whoever waits looks again.
 */
static void lease_modify(struct uvfs *fs, struct file_lease **prev, int arg)
{
	struct file_lease *fl = *prev;
	struct file *filp = fl->filp;

	fl->type = arg;
	/* lease_clear_pending(): F_UNLCK ends both breaks, F_RDLCK a downgrade; an
	 * upgrade to F_WRLCK leaves a pending downgrade pending (F_GETLEASE: F_RDLCK) */
	if (arg == F_UNLCK)
		fl->flags &= ~FL_UNLOCK_PENDING;
	if (arg == F_UNLCK || arg == F_RDLCK)
		fl->flags &= ~FL_DOWNGRADE_PENDING;
	waitq_wake_all(&fs->lease_wait);
	if (arg != F_UNLCK)
		return;
	filp->f_sig = 0;
	*prev = fl->next;
	free(fl);
	update_inode_bit(fs, filp->f_inode);
}

/*
 * A lease the break time took away, for uvfs_lease_lost_take(): lease_modify()'s
 * f_delown() and signum = 0 are the kernel's on the struct file, which an embedder's
 * stand-in holds (uvfs-run sets F_SETOWN and F_SETSIG there), so it is told to clear
 * them -- by a process and number that hold the file now (lease_file_at()), never a
 * number that holds another file since.  Lost, as a signal the kernel cannot queue,
 * when out of memory or when no number holds the file.
 */
struct lease_lost {
	struct lease_lost *next;
	int pid, fd;              /* where the file is (lease_file_at()) */
};

/* A number of task t's that holds file f: fd if it still does, else the lowest that
 * does; -1 when none */
static int number_of(const struct uvfs_task *t, const struct file *f, int fd)
{
	const struct fdtable *files = t ? t->files : NULL;

	if (!files)
		return -1;
	if (fd >= 0 && (unsigned int)fd < files->size && files->fd[fd] == f)
		return fd;
	for (unsigned int n = 0; n < files->size; n++)
		if (files->fd[n] == f)
			return (int)n;
	return -1;
}

/* at most this many wait for uvfs_lease_lost_take(): an embedder that never asks
 * keeps the newest */
#define LEASES_LOST_MAX 1024

/* Where the lease's file is now: the number F_SETLEASE named, another of the holder's
 * (a dup2 and a close since), or any other process's (a descriptor passed) -- a
 * runner's stand-in is one kernel file for all of them, whose owner and F_SETSIG the
 * kernel's lease code reads and clears.  false when nobody holds it at a number. */
static bool lease_file_at(struct uvfs *fs, const struct file_lease *fl, int *pid, int *fd)
{
	struct uvfs_task *t = find_task(fs, fl->pid);

	if ((*fd = number_of(t, fl->filp, fl->fd)) >= 0) {
		*pid = t->pid;
		return true;
	}
	cds_list_for_each_entry(t, &fs->tasks, t_list)
		if ((*fd = number_of(t, fl->filp, -1)) >= 0) {
			*pid = t->pid;
			return true;
		}
	*pid = *fd = -1;
	return false;
}

static void lease_lost_queue(struct uvfs *fs, const struct file_lease *fl)
{
	struct lease_lost *l, **tail;
	unsigned int n = 0;
	int pid, fd;

	if (!lease_file_at(fs, fl, &pid, &fd) || !(l = uvfs_malloc(sizeof(*l))))
		return;
	*l = (struct lease_lost){ .pid = pid, .fd = fd };
	for (tail = &fs->leases_lost; *tail; tail = &(*tail)->next)
		n++;
	*tail = l;
	if (n >= LEASES_LOST_MAX) {
		l = fs->leases_lost;
		fs->leases_lost = l->next;
		free(l);
	}
	/* uvfs_lease_lost_take() looks without the lock first */
	__atomic_store_n(&fs->leases_lost_any, true, __ATOMIC_RELEASE);
}

void leases_exit(struct uvfs *fs)
{
	while (fs->leases_lost) {
		struct lease_lost *l = fs->leases_lost;

		fs->leases_lost = l->next;
		free(l);
	}
}

int uvfs_lease_lost_take(struct uvfs *fs, int *pid, int *fd)
{
	struct lease_lost *l;
	int ret = 0;

	if (!fs || !pid || !fd)
		return -EINVAL;
	if (!__atomic_load_n(&fs->leases_lost_any, __ATOMIC_ACQUIRE))
		return 0;  /* the usual answer, after every call: no lock */
	uvfs_lock(fs);
	l = fs->leases_lost;
	if (l) {
		fs->leases_lost = l->next;
		*pid = l->pid;
		*fd = l->fd;
		free(l);
		ret = 1;
	}
	if (!fs->leases_lost)
		__atomic_store_n(&fs->leases_lost_any, false, __ATOMIC_RELAXED);
	uvfs_unlock(fs);
	return ret;
}

/* time_out_leases(): pending breaks whose time came are done */
static void time_out_leases(struct uvfs *fs, struct inode *inode)
{
	long long now = now_ns();
	struct file_lease **prev = &fs->leases, *fl;

	while ((fl = *prev)) {
		if (fl->filp->f_inode == inode) {
			if (past_time(fl->downgrade_time, now))
				lease_modify(fs, prev, F_RDLCK);
			if (past_time(fl->break_time, now)) {
				lease_lost_queue(fs, fl);
				lease_modify(fs, prev, F_UNLCK);
				continue;  /* *prev is the next one now */
			}
		}
		prev = &fl->next;
	}
}

/* leases_conflict() of a lease and an opener wanting to write or not */
static bool lease_conflicts(const struct file_lease *fl, bool want_write)
{
	return want_write || fl->type == F_WRLCK;
}

static bool any_leases_conflict(struct uvfs *fs, struct inode *inode, bool want_write)
{
	for (struct file_lease *fl = fs->leases; fl; fl = fl->next)
		if (fl->filp->f_inode == inode && lease_conflicts(fl, want_write))
			return true;
	return false;
}

/*
 * check_conflicting_open(): a read lease needs a file nobody writes; a write lease
 * one that only its own file has open (readers and writers counted apart: a
 * running executable's negative write count refuses it too).
 */
static int check_conflicting_open(const struct file *filp, int arg)
{
	const struct inode *inode = filp->f_inode;
	int self_wcount = 0, self_rcount = 0;

	if (arg == F_RDLCK)
		return inode->i_writecount > 0 ? -EAGAIN : 0;
	if (filp->f_mode & FMODE_WRITE)
		self_wcount = 1;
	else if (filp->f_mode & FMODE_READ)
		self_rcount = 1;
	if (inode->i_writecount != self_wcount || inode->i_readcount != self_rcount)
		return -EAGAIN;
	return 0;
}

/* generic_add_lease() */
static int add_lease(struct uvfs_task *t, int fd, struct file *filp, int arg)
{
	struct uvfs *fs = t->fs;
	struct inode *inode = filp->f_inode;
	struct file_lease *fl, *my_fl = NULL, *new_fl;
	int err;

	/* allocated first, as the kernel's lease_alloc() before anything: ENOMEM
	 * changes nothing */
	new_fl = uvfs_zalloc(sizeof(*new_fl));
	if (!new_fl)
		return -ENOMEM;
	time_out_leases(fs, inode);
	err = check_conflicting_open(filp, arg);
	if (err)
		goto out;
	/* "At this point, we know that if there is an exclusive lease on this file,
	 * then we hold it on this filp": another's lease refuses a write lease, and
	 * one being broken for a writer refuses any new one */
	for (fl = fs->leases; fl; fl = fl->next) {
		if (fl->filp->f_inode != inode)
			continue;
		if (fl->filp == filp) {
			my_fl = fl;
			continue;
		}
		if (arg == F_WRLCK || (fl->flags & FL_UNLOCK_PENDING)) {
			err = -EAGAIN;
			goto out;
		}
	}
	if (my_fl) {
		/* lease_modify(): a change of one's own lease, pending break or not */
		for (struct file_lease **prev = &fs->leases; *prev; prev = &(*prev)->next)
			if (*prev == my_fl) {
				lease_modify(fs, prev, arg);
				break;
			}
		fl = my_fl;
	} else {
		fl = new_fl;
		new_fl = NULL;
		fl->filp = filp;
		fl->type = arg;
		fl->lock_pid = uvfs_task_pid(t);
		fl->next = fs->leases;
		fs->leases = fl;
		inode->i_state |= I_LEASES;
	}
	/* lease_setup(): the caller is told of breaks, about this descriptor */
	fl->pid = uvfs_task_pid(t);
	fl->fd = fd;
out:
	free(new_fl);
	return err;
}

/* generic_delete_lease(): F_UNLCK of the file's own lease; none is EAGAIN */
static int delete_lease(struct uvfs *fs, struct file *filp)
{
	for (struct file_lease **prev = &fs->leases; *prev; prev = &(*prev)->next)
		if ((*prev)->filp == filp) {
			lease_modify(fs, prev, F_UNLCK);
			return 0;
		}
	return -EAGAIN;
}

/*
 * fcntl_setlease(): the type first (lease_alloc()'s assign_type(), before the owner
 * check, for any type but F_UNLCK), then vfs_setlease(): the owner or CAP_LEASE
 * (EACCES), a regular file (EINVAL).  fs.leases-enable is taken as 1, its default.
 */
int fcntl_setlease(struct uvfs_task *t, int fd, struct file *f, int arg)
{
	struct inode *inode = f->f_inode;

	if (arg != F_UNLCK && arg != F_RDLCK && arg != F_WRLCK)
		return -EINVAL;
	if (t->cred.fsuid != inode->i_uid && !cred_capable(&t->cred, CAP_LEASE))
		return -EACCES;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (arg == F_UNLCK)
		return delete_lease(t->fs, f);
	return add_lease(t, fd, f, arg);
}

/* fcntl_getlease(): the file's own lease, as a pending break will leave it */
int fcntl_getlease(struct file *f)
{
	struct inode *inode = f->f_inode;
	struct uvfs *fs = inode->i_sb->s_fs;

	if (!(inode->i_state & I_LEASES))
		return F_UNLCK;
	time_out_leases(fs, inode);
	for (struct file_lease *fl = fs->leases; fl; fl = fl->next)
		if (fl->filp == f)
			return target_type(fl);
	return F_UNLCK;
}

/* The soonest time at which a pending break of a lease conflicting with the breaker
 * ends by itself, or -1 for none (lease-break-time 0: the kernel then polls every
 * jiffy until the holder acts; here a wake-up does it) */
static long long next_timeout(struct uvfs *fs, struct inode *inode, bool want_write)
{
	long long next = -1;

	for (struct file_lease *fl = fs->leases; fl; fl = fl->next) {
		long long when;

		if (fl->filp->f_inode != inode || !lease_conflicts(fl, want_write))
			continue;
		when = (fl->flags & FL_UNLOCK_PENDING) ? fl->break_time : fl->downgrade_time;
		if (when && (next < 0 || when < next))
			next = when;
	}
	return next;
}

int __break_lease(struct inode *inode, unsigned int mode)
{
	struct uvfs *fs = inode->i_sb->s_fs;
	bool want_write = (mode & O_ACCMODE) != O_RDONLY;
	struct lease_breaker me, **tail;
	long long break_time = 0;
	int err;

	assert(ns_locked(fs));
	time_out_leases(fs, inode);
	if (!any_leases_conflict(fs, inode, want_write))
		return 0;
	/* a supervisor's thread that must not wait: nothing marked, nobody told, so
	 * that the call made again where it may wait breaks the lease once */
	if (uvfs_nowait && !(mode & O_NONBLOCK))
		return -UVFS_EWOULDWAIT;
	if (fs->lease_break_time > 0)
		break_time = now_ns() + fs->lease_break_time * 1000000000LL;
	for (struct file_lease *fl = fs->leases; fl; fl = fl->next) {
		if (fl->filp->f_inode != inode || !lease_conflicts(fl, want_write))
			continue;
		if (want_write) {
			if (fl->flags & FL_UNLOCK_PENDING)
				continue;
			fl->flags |= FL_UNLOCK_PENDING;
			fl->break_time = break_time;
		} else {
			if (fl->flags & (FL_UNLOCK_PENDING | FL_DOWNGRADE_PENDING))
				continue;
			fl->flags |= FL_DOWNGRADE_PENDING;
			fl->downgrade_time = break_time;
		}
		/* lease_break_callback(): kill_fasync(SIGIO, POLL_MSG) -- F_SETSIG's
		 * signal of the file, with the si_fd F_SETLEASE named */
		{
			int at_pid, at_fd;

			(void)lease_file_at(fs, fl, &at_pid, &at_fd);
			(void)send_sigio(fs, fl->pid, fl->fd, at_pid, at_fd);
		}
	}
	if (mode & O_NONBLOCK)
		return -EWOULDBLOCK;
	me = (struct lease_breaker){
		.inode = inode, .pid = fs->current ? fs->current->pid : 0,
		.type = want_write ? F_WRLCK : F_RDLCK,
	};
	for (tail = &fs->lease_breakers; *tail; tail = &(*tail)->next)
		;
	*tail = &me;
	do {
		long long deadline = next_timeout(fs, inode, want_write);

		err = deadline < 0 ? uvfs_cond_wait(fs, &fs->lease_wait)
				   : uvfs_cond_wait_until(fs, &fs->lease_wait, deadline);
		if (err)
			break;  /* -ERESTARTSYS: the break goes on without us */
		time_out_leases(fs, inode);
	} while (any_leases_conflict(fs, inode, want_write));
	for (tail = &fs->lease_breakers; *tail != &me; tail = &(*tail)->next)
		;
	*tail = me.next;
	return err;
}

void __locks_remove_lease(struct file *f)
{
	struct uvfs *fs = f->f_inode->i_sb->s_fs;

	for (struct file_lease **prev = &fs->leases; *prev; prev = &(*prev)->next)
		if ((*prev)->filp == f) {
			lease_modify(fs, prev, F_UNLCK);
			return;
		}
}

int uvfs_break_lease(struct uvfs_task *task, struct uvfs_file *file, int flags)
{
	struct file *f = (struct file *)file;
	struct inode *inode;
	int err, acc = flags & O_ACCMODE;

	if (!task || !f || (flags & ~(O_ACCMODE | O_NONBLOCK)) || acc == O_ACCMODE)
		return -EINVAL;
	task_enter(task);
	inode = f->f_inode;
	/* counted as the open it stands for is while it breaks (do_dentry_open(): the
	 * access first), so that the holder cannot take a write lease back meanwhile */
	if (acc == O_RDONLY) {
		inode->i_readcount++;
		err = 0;
	} else {
		err = get_write_access(inode);
	}
	if (!err) {
		err = break_lease(inode, (unsigned int)flags);
		if (acc == O_RDONLY)
			inode->i_readcount--;
		else
			put_write_access(inode);
	}
	task_leave(task);
	return err;
}

/* Is fl the first lease of its inode's list -- the oldest, as the kernel appends to
 * the inode's flc_lease while uvfs.leases has the newest first? */
static bool first_of_inode(const struct file_lease *fl)
{
	for (const struct file_lease *o = fl->next; o; o = o->next)
		if (o->filp->f_inode == fl->filp->f_inode)
			return false;
	return true;
}

/* leases_conflict() of two waiting opens: not when both only read */
static bool breakers_conflict(const struct lease_breaker *a, const struct lease_breaker *b)
{
	return a->type == F_WRLCK || b->type == F_WRLCK;
}

/* b's parent in the kernel's tree of the waiters blocked on the first lease of its
 * file (NULL: the lease): locks_insert_block() goes down to the first earlier waiter
 * of each level that conflicts with it, and adds it there last.  The earlier waiters
 * are those before b in uvfs.lease_breakers (arrival order). */
static const struct lease_breaker *breaker_parent(const struct uvfs *fs,
						 const struct lease_breaker *b)
{
	const struct lease_breaker *parent = NULL;

again:
	for (const struct lease_breaker *o = fs->lease_breakers; o != b; o = o->next)
		if (o->inode == b->inode && breaker_parent(fs, o) == parent &&
		    breakers_conflict(o, b)) {
			parent = o;
			goto again;
		}
	return parent;
}

/* The waiters under parent, each followed by its own (locks_show()'s walk: the first
 * child, then the next sibling), at depth level */
static int list_breakers_under(const struct uvfs *fs, const struct inode *inode,
			       const struct lease_breaker *parent, int level,
			       struct uvfs_lease_info *v, int n, int count)
{
	for (const struct lease_breaker *b = fs->lease_breakers; b; b = b->next) {
		if (b->inode != inode || breaker_parent(fs, b) != parent)
			continue;
		if (count < n)
			v[count] = (struct uvfs_lease_info){
				.pid = b->pid, .type = b->type, .waiter = level,
			};
		count = list_breakers_under(fs, inode, b, level + 1, v, n, count + 1);
	}
	return count;
}

/* the opens blocked on the first lease of inode, as /proc/locks lists them */
static int list_breakers(const struct uvfs *fs, const struct inode *inode,
			 struct uvfs_lease_info *v, int n, int count)
{
	return list_breakers_under(fs, inode, NULL, 1, v, n, count);
}

int uvfs_leases(struct uvfs *fs, struct uvfs_lease_info *v, int n)
{
	int count = 0;

	if (!fs || n < 0 || (n && !v))
		return -EINVAL;
	uvfs_lock(fs);
	for (struct file_lease *fl = fs->leases; fl; fl = fl->next) {
		struct stat st;

		if (count < n) {
			/* lock_get_status(): "BREAKING" and target_leasetype() while a
			 * break is under way; the file by the device and inode stat(2)
			 * gives */
			inode_fillattr_mask(fl->filp->f_inode, &st, false);
			v[count] = (struct uvfs_lease_info){
				.pid = fl->lock_pid,
				.type = target_type(fl),
				.breaking = fl->flags != 0,
				.dev = st.st_dev,
				.ino = st.st_ino,
			};
		}
		count++;
		if (first_of_inode(fl))
			count = list_breakers(fs, fl->filp->f_inode, v, n, count);
	}
	uvfs_unlock(fs);
	return count;
}

int uvfs_set_lease_break_time(struct uvfs *fs, int seconds)
{
	if (!fs)
		return -EINVAL;
	uvfs_lock(fs);
	fs->lease_break_time = seconds;
	uvfs_unlock(fs);
	return 0;
}
