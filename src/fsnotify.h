/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fsnotify.h - filesystem change notification (fs/notify/fsnotify.c,
 * include/linux/fsnotify.h): groups that listen, marks that say what a group wants
 * of an inode, and the hooks the VFS calls where Linux calls them.  inotify
 * (src/inotify.c) is the one kind of group uvfs has.
 *
 * Every field is protected by uvfs.ns_lock.  An inode with marks has I_FSNOTIFY in
 * i_state, so that a hook costs one bit test when nobody watches.
 */
#ifndef UVFS_FSNOTIFY_H
#define UVFS_FSNOTIFY_H

#include <stdint.h>

#include "dcache.h"
#include "file.h"
#include "inode.h"
#include "lock.h"

/* The events, with inotify's bits (include/linux/fsnotify_backend.h: FS_* == IN_*) */
#define FS_ACCESS        0x00000001u
#define FS_MODIFY        0x00000002u
#define FS_ATTRIB        0x00000004u
#define FS_CLOSE_WRITE   0x00000008u
#define FS_CLOSE_NOWRITE 0x00000010u
#define FS_OPEN          0x00000020u
#define FS_MOVED_FROM    0x00000040u
#define FS_MOVED_TO      0x00000080u
#define FS_CREATE        0x00000100u
#define FS_DELETE        0x00000200u
#define FS_DELETE_SELF   0x00000400u
#define FS_MOVE_SELF     0x00000800u
#define FS_UNMOUNT       0x00002000u
#define FS_Q_OVERFLOW    0x00004000u
#define FS_IN_IGNORED    0x00008000u
#define FS_EXCL_UNLINK   0x04000000u  /* a mark's flag: IN_EXCL_UNLINK */
#define FS_RENAME        0x10000000u  /* a name moved within its directory: dnotify's */
#define FS_ISDIR         0x40000000u
#define FS_IN_ONESHOT    0x80000000u  /* a mark's flag: IN_ONESHOT */
/* the events a directory's mark hears about its children, with the child's name */
#define FS_EVENTS_POSS_ON_CHILD (FS_ACCESS | FS_MODIFY | FS_ATTRIB | FS_CLOSE_WRITE | \
				 FS_CLOSE_NOWRITE | FS_OPEN)

struct fsnotify_event {
	struct fsnotify_event *next;
	int wd;
	uint32_t mask;
	uint32_t cookie;
	uint32_t name_len;   /* the name's bytes with NUL padding to 16 (0: none) */
	char name[];
};

struct fsnotify_mark;

struct fsnotify_group {
	struct uvfs *fs;                 /* immutable */
	/* immutable: NULL, an inotify group (events queued); else what a mark's event
	 * does (dnotify's signals: src/dnotify.c) */
	void (*handle_event)(struct fsnotify_mark *m, uint32_t mask);
	struct fsnotify_event *head;     /* the queue, oldest first */
	struct fsnotify_event *last;
	unsigned int q_len;              /* events queued, the overflow event too */
	unsigned int max_events;         /* fs.inotify.max_queued_events; immutable */
	bool overflow_queued;            /* the overflow event is in the queue */
	struct fsnotify_mark *marks;     /* this group's marks (mark.g_next) */
	int last_wd;                     /* inotify's idr_alloc_cyclic() point */
	struct uvfs_waitq wait;          /* a blocked read waits here (lock.h) */
	int pollfd;                      /* -1, or an eventfd readable while the queue
					  * is not empty (uvfs_inotify_pollfd) */
};

struct fsnotify_mark {
	struct inode *inode;             /* holds a reference; immutable */
	struct fsnotify_group *group;    /* immutable */
	struct fsnotify_mark *h_next;    /* chain of the instance's mark hash */
	struct fsnotify_mark *g_next;    /* the group's list */
	uint32_t mask;                   /* IN_* events and IN_ONESHOT, IN_EXCL_UNLINK */
	int wd;                          /* immutable */
	void *private;                   /* the group's (dnotify: its dnotify_structs) */
};

/* The instance's marks (made at the first inotify_init1; uvfs.fsn). */
struct fsnotify_state {
	struct fsnotify_mark **hash;     /* by inode */
	size_t buckets;                  /* a power of two */
	size_t nr_marks;
	uint32_t cookie;                 /* fsnotify_get_cookie()'s counter */
	struct fsnotify_group *dnotify;  /* dnotify's one group, made at the first F_NOTIFY */
	/* the signals due, oldest first: dnotify's and lease breaks' (send_sigio()) */
	struct dnotify_signal *signals;
	struct dnotify_signal **signals_tail;  /* NULL until the first signal */
};

/* A signal owed to a process (the kernel's send_sigio()), by dnotify or a lease break:
 * its pid, the descriptor F_NOTIFY or F_SETLEASE named; the runner sends it
 * (uvfs_dnotify_take) */
struct dnotify_signal {
	struct dnotify_signal *next;
	int pid;
	int fd;
	int at_pid, at_fd;  /* a process and number that hold the file now, or -1 */
};

/* Queue SIGIO (or F_SETSIG's signal) for process pid about descriptor fd, whose file
 * at_pid holds at at_fd now (the file's F_SETSIG is the signal; fd, its si_fd, may
 * be closed since): false when out of memory (lost, as a signal the kernel cannot
 * queue).  ns_lock. */
bool send_sigio(struct uvfs *fs, int pid, int fd, int at_pid, int at_fd);

#define I_FSNOTIFY 0x2u  /* i_state: the inode has marks */

static inline bool fsnotify_watched(const struct inode *inode)
{
	return inode && (inode->i_state & I_FSNOTIFY);
}

/*
 * The hooks.  Each is an inline test of the inodes it concerns (I_FSNOTIFY) before
 * the call that does the work, so that a change nobody watches costs a few loads.
 */
void __fsnotify_create(struct inode *dir, struct dentry *d);
void __fsnotify_link(struct inode *dir, struct inode *inode, struct dentry *d);
void __fsnotify_link_count(struct inode *inode);
void __fsnotify_d_delete(struct inode *dir, struct dentry *d, struct inode *inode);
void __fsnotify_move(struct inode *old_dir, struct inode *new_dir, const struct qstr *old_name,
		     struct inode *target, struct dentry *moved);
void __fsnotify_change(struct dentry *d, unsigned int ia_valid);
void __fsnotify_xattr(struct dentry *d);
void __fsnotify_file(struct file *f, uint32_t mask);
void __fsnotify_inoderemove(struct inode *inode);

/* d (or its directory, unless d is a root) has marks */
static inline bool fsnotify_dentry_watched(const struct dentry *d)
{
	return fsnotify_watched(d->d_inode) || (!IS_ROOT(d) && fsnotify_watched(d->d_parent->d_inode));
}

/* fsnotify_create(): a new name in dir (mkdir, mknod, symlink, open's O_CREAT) */
static inline void fsnotify_create(struct inode *dir, struct dentry *d)
{
	if (fsnotify_watched(dir))
		__fsnotify_create(dir, d);
}

/* fsnotify_link(): inode got a new name d in dir (IN_ATTRIB, then IN_CREATE) */
static inline void fsnotify_link(struct inode *dir, struct inode *inode, struct dentry *d)
{
	if (fsnotify_watched(dir) || fsnotify_watched(inode))
		__fsnotify_link(dir, inode, d);
}

/* fsnotify_link_count(): inode's link count changed (IN_ATTRIB on it alone) */
static inline void fsnotify_link_count(struct inode *inode)
{
	if (fsnotify_watched(inode))
		__fsnotify_link_count(inode);
}

/* d_delete_notify(): d (with inode) left dir: the inode's own IN_DELETE_SELF when d
 * was its last name and nobody holds d but the caller (d_delete()'s
 * dentry_unlink_inode()), then dir's IN_DELETE */
static inline void fsnotify_d_delete(struct inode *dir, struct dentry *d, struct inode *inode)
{
	if (fsnotify_watched(dir) || fsnotify_watched(inode))
		__fsnotify_d_delete(dir, d, inode);
}

/* Whether a rename of source over target (or NULL) between the two directories is
 * heard: only then does vfs_rename() keep the old name for fsnotify_move() */
static inline bool fsnotify_move_watched(const struct inode *old_dir, const struct inode *new_dir,
					 const struct inode *source, const struct inode *target)
{
	return fsnotify_watched(old_dir) || fsnotify_watched(new_dir) ||
	       fsnotify_watched(source) || fsnotify_watched(target);
}

/* fsnotify_move(): moved (already under its new name in new_dir) was old_name in
 * old_dir; target the inode it replaced, or NULL */
static inline void fsnotify_move(struct inode *old_dir, struct inode *new_dir,
				 const struct qstr *old_name, struct inode *target,
				 struct dentry *moved)
{
	if (fsnotify_move_watched(old_dir, new_dir, moved->d_inode, target))
		__fsnotify_move(old_dir, new_dir, old_name, target, moved);
}

/* fsnotify_change(): notify_change() changed what ia_valid says of d's inode */
static inline void fsnotify_change(struct dentry *d, unsigned int ia_valid)
{
	if (fsnotify_dentry_watched(d))
		__fsnotify_change(d, ia_valid);
}

/* fsnotify_xattr(): an extended attribute of d's inode was set or removed (IN_ATTRIB) */
static inline void fsnotify_xattr(struct dentry *d)
{
	if (fsnotify_dentry_watched(d))
		__fsnotify_xattr(d);
}

/* The events of an open file: FS_OPEN, FS_ACCESS, FS_MODIFY, FS_CLOSE_* */
static inline void fsnotify_file(struct file *f, uint32_t mask)
{
	if (fsnotify_dentry_watched(f->f_path.dentry))
		__fsnotify_file(f, mask);
}

static inline void fsnotify_close(struct file *f)
{
	fsnotify_file(f, (f->f_mode & FMODE_WRITE) ? FS_CLOSE_WRITE : FS_CLOSE_NOWRITE);
}

/* fsnotify_inoderemove(): the inode's last name is gone (IN_DELETE_SELF), and with
 * it every mark (IN_IGNORED each) */
static inline void fsnotify_inoderemove(struct inode *inode)
{
	if (fsnotify_watched(inode))
		__fsnotify_inoderemove(inode);
}

/* fsnotify_sb_delete(): the superblock goes: IN_UNMOUNT, then IN_IGNORED, for every
 * mark on one of its inodes */
void fsnotify_sb_delete(struct super_block *sb);

/* dnotify (src/dnotify.c): fcntl(F_NOTIFY) on f, descriptor fd of t; a descriptor
 * of f closed by table files (filp_flush()); f's last reference gone */
struct fdtable;
int fcntl_dirnotify(struct uvfs_task *t, int fd, struct file *f, unsigned long arg);
void __dnotify_flush(struct file *f, const struct fdtable *files);
void __dnotify_release(struct file *f);
/* (a request is held by a mark on its directory: none, nothing to do) */
static inline void dnotify_flush(struct file *f, const struct fdtable *files)
{
	if (fsnotify_watched(f->f_inode))
		__dnotify_flush(f, files);
}

static inline void dnotify_release(struct file *f)
{
	if (fsnotify_watched(f->f_inode))
		__dnotify_release(f);
}

/* Groups and marks (inotify.c and dnotify.c are the users) */
struct fsnotify_group *fsnotify_alloc_group(struct uvfs *fs, unsigned int max_events);
/* fsnotify_destroy_group(): its marks go without IN_IGNORED, its queue is freed */
void fsnotify_destroy_group(struct fsnotify_group *g);
/* FIONREAD of an inotify descriptor: 0 with *n, or -ENOTTY (inotify.c) */
int inotify_fionread_file(struct file *f, int *n);
struct fsnotify_mark *fsnotify_find_mark(struct fsnotify_group *g, struct inode *inode);
/* A new mark of g on inode (a reference taken): the mark, or NULL (ENOMEM) */
struct fsnotify_mark *fsnotify_add_mark(struct fsnotify_group *g, struct inode *inode,
					uint32_t mask, int wd);
/* fsnotify_destroy_mark(): IN_IGNORED queued, the mark and its reference gone */
void fsnotify_destroy_mark(struct fsnotify_mark *m);
/* The first event, off the queue (the caller frees it) */
struct fsnotify_event *fsnotify_remove_first(struct fsnotify_group *g);
/* g's eventfd, made readable as the queue is: the descriptor, or -errno */
int fsnotify_group_pollfd(struct fsnotify_group *g);
/* The state with the anonymous filesystem, made on first use: NULL on ENOMEM */
struct fsnotify_state *fsnotify_state(struct uvfs *fs);
/* uvfs_free(): what fsnotify_state() made */
void fsnotify_exit(struct uvfs *fs);
/* Bytes event e takes in a read: struct inotify_event's 16 and its padded name */
static inline size_t fsnotify_event_size(const struct fsnotify_event *e)
{
	return 16 + e->name_len;
}

#endif /* UVFS_FSNOTIFY_H */
