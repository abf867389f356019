/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * file.h - open file descriptions and per-task descriptor tables.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_FILE_H
#define UVFS_FILE_H

#include <fcntl.h>

#include "mount.h"

struct inode;
struct file_operations;
struct uvfs_task;

#define FMODE_READ  0x1u
#define FMODE_WRITE 0x2u
#define FMODE_PATH  0x4u  /* O_PATH: no I/O at all */
#define FMODE_CREATED 0x8u /* this open created the file (F_CREATED_QUERY, 6.12) */
/* the O_PATH file of a detached tree's top (fsmount, open_tree(OPEN_TREE_CLONE)):
 * its last fput unmounts the tree if it is still detached (dissolve_on_fput) */
#define FMODE_NEED_UNMOUNT 0x10u

struct file {
	long f_count;                       /* descriptors referring to it */
	struct path f_path;                 /* immutable; holds references */
	struct inode *f_inode;              /* immutable; holds a reference */
	unsigned int f_flags;               /* O_* as given, less O_CREAT/O_EXCL/... */
	unsigned int f_mode;                /* FMODE_*; immutable once installed */
	off_t f_pos;
	const struct file_operations *f_op; /* immutable */
	unsigned long f_cred_id;            /* the opener's cred_id (task.h); immutable */
	int f_sig;                          /* F_SETSIG's signal (0: SIGIO), f_owner.signum */
	void *private_data;                 /* the filesystem's: set by ->open, freed by
					     * ->release (hostfs: the host descriptor) */
	struct standin *f_standin;          /* ns_lock: the embedder's stand-in it was
					     * handed (simple_standin), or NULL */
};

/* alloc_empty_file - the memory of a file, allocated before an open changes anything
 * (path_openat allocates it first, so that creating a file cannot be followed by an
 * ENOMEM).  file_init makes it an open file description on path (references taken);
 * an uninitialised one goes back with free(). */
struct file *alloc_empty_file(struct uvfs *fs);
/* file_free - give back a file alloc_empty_file() made (fput does it at the end). */
void file_free(struct file *f);
void file_init(struct file *f, const struct path *path, unsigned int flags, unsigned int mode);
/* Undo file_init: references dropped, the fields left as they were (fput frees the
 * file after a grace period; a failed open clears it for another file_init). */
void file_deinit(struct file *f);
static inline struct file *get_file(struct file *f)
{
	f->f_count++;
	return f;
}
void fput(struct file *f);
/* file_accessed(): a read through f touches atime, unless f is O_NOATIME (open's
 * or F_SETFL's: only the owner or CAP_FOWNER may ask for it, may_open() and setfl()) */
static inline void file_accessed(const struct file *f)
{
	if (!(f->f_flags & O_NOATIME))
		touch_atime(&f->f_path);
}

struct fdtable {
	struct file **fd;          /* fd[n] or NULL; published before size, freed by RCU */
	unsigned char *cloexec;    /* one byte a descriptor: bit 0 FD_CLOEXEC; of a free
				    * slot, FD_SLOT_RESERVED: an open that waits holds it */
	unsigned int size;         /* allocated slots; stored after fd (fdget_rcu) */
	unsigned int count;        /* open descriptors (st_size of /proc/PID/fd); ns_lock,
				    * read lockless by stat, checked by ns_seq */
	unsigned int max;          /* RLIMIT_NOFILE; immutable */
	unsigned int users;        /* the tasks sharing it (clone's CLONE_FILES: the
				    * kernel's files_struct.count) */
};

/* A new empty table of one user, or NULL (ENOMEM). */
struct fdtable *fdtable_alloc(unsigned int max);
/* dup_fd(): a table of one user with the same open files (fork, exec and
 * unshare(CLONE_FILES) of a shared table), or NULL (ENOMEM). */
struct fdtable *fdtable_dup(struct uvfs *fs, const struct fdtable *src);
/* put_files_struct(): one user less; the last closes every descriptor, and the
 * table is freed after a grace period (fdget_rcu may be reading it). */
void fdtable_put(struct uvfs *fs, struct fdtable *t);

/* The file at fd, no reference taken (the caller holds ns_lock), or NULL. */
struct file *fdget(struct uvfs_task *task, int fd);
/* The same inside an RCU read section without ns_lock: the table and the file stay
 * readable (freed after a grace period); what it says is checked by ns_seq. */
struct file *fdget_rcu(struct uvfs_task *task, int fd);
/* Reserve the lowest free descriptor >= start: -EMFILE beyond the limit. The slot
 * stays free until fd_install; -ENOMEM leaves the table as it was. */
int fd_alloc(struct uvfs *fs, struct fdtable *t, unsigned int start);
/* fd (free) taken by an open that may wait with ns_lock given up (a fifo's), so that
 * fd_alloc passes it over and dup3 onto it is EBUSY, as for the kernel's reserved
 * descriptor; fd_install or fd_unreserve ends it. */
#define FD_SLOT_RESERVED 2
void fd_reserve(struct fdtable *t, unsigned int fd);
void fd_unreserve(struct fdtable *t, unsigned int fd);
/* Put f (whose reference the caller passes on) at fd, closing what was there. */
void fd_install(struct fdtable *t, unsigned int fd, struct file *f, bool cloexec);

struct path;
/* open_path - open(2)'s flags on path itself (open_by_handle_at's file_open_root()
 * of ""), into a new descriptor of task: the descriptor, or -errno.  Under ns_lock
 * (src/open.c). */
int open_path(struct uvfs_task *task, const struct path *path, int flags);
/* Close fd: -EBADF if not open. */
int fd_close(struct fdtable *t, int fd);

#endif /* UVFS_FILE_H */
