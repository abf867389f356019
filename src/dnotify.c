// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dnotify.c - fcntl(F_NOTIFY): a signal to the process when a directory's entries
 * change (fs/notify/dnotify/dnotify.c).  One fsnotify group for the instance; a mark
 * on each directory some descriptor asked about, holding that directory's requests
 * (struct dnotify_struct: the file, the descriptor table that asked, its descriptor
 * and the events), the mark's mask their union.
 *
 * A request's event queues a signal for the process that asked (send_sigio() of
 * POLL_MSG to the file's owner, which F_NOTIFY makes the caller); the embedder
 * delivers it (uvfs_dnotify_take) -- uvfs has no signals of its own, and the
 * signal's number is the file's F_SETSIG, which the embedder keeps.  A request
 * without DN_MULTISHOT ends with its first signal; a close of any descriptor of the
 * file by the table that asked ends it (filp_flush()'s dnotify_flush()).
 *
 * Locking: ns_lock, as all of fsnotify.
 */
#include <fcntl.h>

#include "fsnotify.h"
#include "task.h"

struct dnotify_struct {
	struct dnotify_struct *next;
	struct file *filp;             /* not referenced: dnotify_release() at its end */
	const struct fdtable *owner;   /* the table that asked (fl_owner_t id) */
	int fd;
	int pid;                       /* the file's owner: the caller of F_NOTIFY */
	uint32_t mask;                 /* FS_* events, and DN_MULTISHOT */
};

#define DN_MULTISHOT_ 0x80000000u

/* convert_arg(): DN_* to the events that mean it */
static uint32_t convert_arg(unsigned long arg)
{
	uint32_t mask = 0;

	if (arg & DN_MULTISHOT)
		mask |= DN_MULTISHOT_;
	if (arg & DN_DELETE)
		mask |= FS_DELETE | FS_MOVED_FROM;
	if (arg & DN_MODIFY)
		mask |= FS_MODIFY;
	if (arg & DN_ACCESS)
		mask |= FS_ACCESS;
	if (arg & DN_ATTRIB)
		mask |= FS_ATTRIB;
	if (arg & DN_RENAME)
		mask |= FS_RENAME;
	if (arg & DN_CREATE)
		mask |= FS_CREATE | FS_MOVED_TO;
	return mask;
}

/* dnotify_recalc_inode_mask(): the mark hears what its requests ask; none left, the
 * mark goes */
static void recalc(struct fsnotify_mark *m)
{
	uint32_t mask = 0;

	for (struct dnotify_struct *dn = m->private; dn; dn = dn->next)
		mask |= dn->mask & ~DN_MULTISHOT_;
	m->mask = mask;
	if (!m->private)
		fsnotify_destroy_mark(m);
}

/* dnotify_handle_event(): each request the event is about owes its signal */
static void dnotify_event(struct fsnotify_mark *m, uint32_t mask)
{
	struct dnotify_struct **prev = (struct dnotify_struct **)&m->private, *dn;
	bool changed = false;

	while ((dn = *prev)) {
		if (!(dn->mask & mask & ~DN_MULTISHOT_)) {
			prev = &dn->next;
			continue;
		}
		(void)send_sigio(m->group->fs, dn->pid, dn->fd, dn->pid, dn->fd);
		if (dn->mask & DN_MULTISHOT_) {
			prev = &dn->next;
		} else {
			*prev = dn->next;
			free(dn);
			changed = true;
		}
	}
	if (changed)
		recalc(m);
}

static struct fsnotify_group *dnotify_group(struct uvfs *fs)
{
	struct fsnotify_state *s = fsnotify_state(fs);

	if (!s)
		return NULL;
	if (!s->dnotify) {
		s->dnotify = fsnotify_alloc_group(fs, 0);
		if (!s->dnotify)
			return NULL;
		s->dnotify->handle_event = dnotify_event;
	}
	return s->dnotify;
}

/* Remove the requests of f (made by the table owner, or any: NULL) */
static void remove_requests(struct file *f, const struct fdtable *owner)
{
	struct fsnotify_state *s = f->f_inode->i_sb->s_fs->fsn;
	struct fsnotify_mark *m;
	struct dnotify_struct **prev, *dn;
	bool changed = false;

	if (!s || !s->dnotify || !S_ISDIR(f->f_inode->i_mode))
		return;
	m = fsnotify_find_mark(s->dnotify, f->f_inode);
	if (!m)
		return;
	for (prev = (struct dnotify_struct **)&m->private; (dn = *prev);) {
		if (dn->filp == f && (!owner || dn->owner == owner)) {
			*prev = dn->next;
			free(dn);
			changed = true;
		} else {
			prev = &dn->next;
		}
	}
	if (changed)
		recalc(m);
}

void __dnotify_flush(struct file *f, const struct fdtable *files)
{
	remove_requests(f, files);
}

void __dnotify_release(struct file *f)
{
	remove_requests(f, NULL);
}

int fcntl_dirnotify(struct uvfs_task *t, int fd, struct file *f, unsigned long arg)
{
	struct fsnotify_group *g;
	struct fsnotify_mark *m;
	struct dnotify_struct *dn, *new_dn;
	uint32_t mask;

	arg &= 0xffffffffu;  /* the kernel's "unsigned int arg" */
	/* a zero mask removes the request, of any descriptor */
	if (!(arg & ~(unsigned long)DN_MULTISHOT)) {
		__dnotify_flush(f, t->files);
		return 0;
	}
	if (!S_ISDIR(f->f_inode->i_mode))
		return -ENOTDIR;
	g = dnotify_group(t->fs);
	if (!g)
		return -ENOMEM;
	mask = convert_arg(arg);
	m = fsnotify_find_mark(g, f->f_inode);
	/* attach_dn(): this file's request from this table takes the new events too */
	for (dn = m ? m->private : NULL; dn; dn = dn->next)
		if (dn->owner == t->files && dn->filp == f) {
			dn->fd = fd;
			dn->pid = uvfs_task_pid(t);
			dn->mask |= mask;
			recalc(m);
			return 0;
		}
	new_dn = uvfs_zalloc(sizeof(*new_dn));
	if (!new_dn)
		return -ENOMEM;
	if (!m) {
		m = fsnotify_add_mark(g, f->f_inode, 0, 0);
		if (!m) {
			free(new_dn);
			return -ENOMEM;
		}
	}
	new_dn->filp = f;
	new_dn->owner = t->files;
	new_dn->fd = fd;
	new_dn->pid = uvfs_task_pid(t);  /* __f_setown(filp, task_pid(current)) */
	new_dn->mask = mask;
	new_dn->next = m->private;
	m->private = new_dn;
	recalc(m);
	return 0;
}

bool send_sigio(struct uvfs *fs, int pid, int fd, int at_pid, int at_fd)
{
	struct fsnotify_state *s = fsnotify_state(fs);
	struct dnotify_signal *sig;

	if (!s)
		return false;
	sig = uvfs_malloc(sizeof(*sig));
	if (!sig)
		return false;
	sig->next = NULL;
	sig->pid = pid;
	sig->fd = fd;
	sig->at_pid = at_pid;
	sig->at_fd = at_fd;
	if (!s->signals_tail)
		s->signals_tail = &s->signals;
	/* stored atomically: uvfs_dnotify_take() looks without the lock */
	__atomic_store_n(s->signals_tail, sig, __ATOMIC_RELEASE);
	s->signals_tail = &sig->next;
	return true;
}

int uvfs_dnotify_take(struct uvfs *fs, int *pid, int *fd)
{
	int at_pid, at_fd;

	return uvfs_dnotify_take_at(fs, pid, fd, &at_pid, &at_fd);
}

int uvfs_dnotify_take_at(struct uvfs *fs, int *pid, int *fd, int *at_pid, int *at_fd)
{
	struct fsnotify_state *s;
	struct dnotify_signal *sig;
	int ret = 0;

	/* nothing due (the usual answer, after every call uvfs-run makes): no lock */
	s = __atomic_load_n(&fs->fsn, __ATOMIC_ACQUIRE);
	if (!s || !__atomic_load_n(&s->signals, __ATOMIC_RELAXED))
		return 0;
	uvfs_lock(fs);
	sig = s->signals;
	if (sig) {
		__atomic_store_n(&s->signals, sig->next, __ATOMIC_RELAXED);
		if (!s->signals)
			s->signals_tail = &s->signals;
		*pid = sig->pid;
		*fd = sig->fd;
		*at_pid = sig->at_pid;
		*at_fd = sig->at_fd;
		free(sig);
		ret = 1;
	}
	uvfs_unlock(fs);
	return ret;
}
