/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inode.h - inodes, superblocks and the operation tables a filesystem provides.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_INODE_H
#define UVFS_INODE_H

#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "internal.h"

struct dentry;
struct file;
struct inode;
struct qstr;
struct super_block;
struct path;

#define UVFS_PAGE_SIZE 4096
#define UVFS_PAGE_SHIFT 12
/* MAX_LFS_FILESIZE on 64-bit Linux. */
#define UVFS_MAX_FILESIZE ((off_t)INT64_MAX)
/* tmpfs counts this many bytes of directory size per entry (BOGO_DIRENT_SIZE). */
#define BOGO_DIRENT_SIZE 20

/* i_state */
#define I_LINKABLE 0x1u /* O_TMPFILE without O_EXCL: linkat may give it a name */

/* Directory operations.  Called with ns_lock held; return 0 or -errno.  The
 * dentries passed in are referenced by the caller. */
struct inode_operations {
	/* Called on a dcache miss with a new unhashed negative dentry: attach the inode
	 * if the name exists (d_add) — or leave it negative and hashed. */
	int (*lookup)(struct inode *dir, struct dentry *dentry);
	/* Optional: the filesystem's dcache holds every name it has (tmpfs-like), so a
	 * walk that only needs to know the name is missing asks this instead of ->lookup
	 * and allocates nothing.  Returns the errno ->lookup's negative result would mean
	 * (-ENOENT, or -ENAMETOOLONG). */
	int (*lookup_noent)(struct inode *dir, const struct qstr *name);
	int (*create)(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev,
		      uid_t uid, gid_t gid);       /* regular files and special files */
	int (*mkdir)(struct inode *dir, struct dentry *dentry, mode_t mode,
		     uid_t uid, gid_t gid);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target,
		       uid_t uid, gid_t gid);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*rename)(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
		      struct dentry *new, unsigned int flags);
	/* O_TMPFILE: a new inode with no name, attached to the (unhashed) dentry. */
	int (*tmpfile)(struct inode *dir, struct dentry *dentry, mode_t mode,
		       uid_t uid, gid_t gid);
	/* Optional: is a cached dentry of this inode still what its name means?  false
	 * drops it and the name is looked up again (the kernel's d_revalidate; procfs's
	 * entries follow tasks and descriptors that come and go). */
	bool (*revalidate)(struct dentry *dentry);
	/* Symlink body (NUL-terminated), valid until the next call under ns_lock. */
	const char *(*get_link)(struct inode *inode);
	/* A magic link (/proc/PID/fd/N, cwd, root, exe): the object itself, referenced
	 * into *out, instead of a body to resolve (the kernel's proc_get_link). */
	int (*get_magic)(struct dentry *dentry, struct path *out);
	/* Change the size of a regular file (truncate/ftruncate). */
	int (*setsize)(struct inode *inode, off_t size);
};

/* Open-file operations. */
struct file_operations {
	ssize_t (*read)(struct file *f, void *buf, size_t count, off_t *pos);
	ssize_t (*write)(struct file *f, const void *buf, size_t count, off_t *pos);
	/* Fill buf with linux_dirent64 records from f->f_pos on. */
	ssize_t (*iterate)(struct file *f, void *buf, size_t count);
	/* Called by open (fifos wait for a peer); -errno fails the open. */
	int (*open)(struct inode *inode, struct file *f);
	/* The last descriptor of f is gone. */
	void (*release)(struct inode *inode, struct file *f);
	/* SEEK_DATA / SEEK_HOLE; the rest is generic. */
	off_t (*seek_data)(struct file *f, off_t offset, int whence);
};

struct super_operations {
	/* Bytes of the filesystem's inode, a struct with struct inode first (the
	 * kernel's alloc_inode: shmem_inode_info around vfs_inode); 0: a bare inode. */
	size_t inode_size;
	/* The last reference to an inode with no links is gone: free its data (not
	 * what a lockless stat may still read: that goes in free_inode). */
	void (*evict_inode)(struct inode *inode);
	/* After the grace period that follows eviction (the kernel's ->free_inode):
	 * free what a lockless walk may have been reading.  Optional. */
	void (*free_inode)(struct inode *inode);
	/* Unmount: free the filesystem's private state. */
	void (*put_super)(struct super_block *sb);
	/* st_blocks for stat. */
	blkcnt_t (*blocks)(const struct inode *inode);
	/* Free the inode at its last iput even with links (procfs: made on demand). */
	bool (*drop_inode)(const struct inode *inode);
};

struct inode {
	uint64_t i_ino;                  /* immutable */
	mode_t i_mode;                   /* type bits immutable */
	uid_t i_uid;
	gid_t i_gid;
	unsigned int i_nlink;
	unsigned int i_state;
	off_t i_size;
	dev_t i_rdev;                    /* immutable */
	struct timespec i_atime, i_mtime, i_ctime;
	long i_count;                    /* references: dentries, open files, tasks */
	struct super_block *i_sb;        /* immutable */
	const struct inode_operations *i_op;  /* immutable */
	const struct file_operations *i_fop;  /* immutable */
	struct pipe *i_pipe;             /* a fifo's buffer, while it is open */
	struct cds_list_head i_sb_list;  /* in i_sb->s_inodes */
};

#define SB_ALWAYS_DELETE 0x1u  /* negative and unused dentries are not kept */
#define SB_RCU_WALK      0x2u  /* namei_rcu.c may walk it: every name is in the dcache
				* (->lookup_noent) and reading inodes has no side effects */

struct super_block {
	struct uvfs *s_fs;                       /* immutable */
	dev_t s_dev;                             /* immutable */
	const char *s_type;                      /* immutable: "tmpfs", "proc" */
	unsigned int s_flags;                    /* immutable */
	struct dentry *s_root;                   /* immutable after mount */
	const struct super_operations *s_op;     /* immutable */
	void *s_fs_info;                         /* the filesystem's */
	struct kmem_cache *s_inode_cache;        /* ns_lock: made at the first new_inode */
	uint64_t s_next_ino;
	struct cds_list_head s_inodes;           /* every live inode */
	long s_count;                            /* mounts using it */
};

/* new_inode - a new inode of sb with one reference, ino from s_next_ino, times now.
 * NULL on ENOMEM. */
struct inode *new_inode(struct super_block *sb, mode_t mode);
static inline struct inode *igrab(struct inode *inode)
{
	inode->i_count++;
	return inode;
}
/* iput - drop a reference; the last one frees an inode that has no links left. */
void iput(struct inode *inode);

static inline void inc_nlink(struct inode *inode) { inode->i_nlink++; }
static inline void drop_nlink(struct inode *inode)
{
	assert(inode->i_nlink > 0);
	inode->i_nlink--;
}

/* The credentials of the task making the current call (the kernel's current_fsuid()). */
uid_t current_uid(const struct inode *any);
gid_t current_gid(const struct inode *any);

/* A read happened: atime per relatime. */
void inode_touch_atime(struct inode *inode);

/* i_ctime = i_mtime = now (a directory's entries changed). */
void inode_touch_dir(struct inode *dir);

/* Fill st from the inode (generic_fillattr). */
void inode_fillattr(const struct inode *inode, struct stat *st);

/* Filesystems, by type name.  fill_super builds s_root and s_fs_info. */
struct super_block *sb_new(struct uvfs *fs, const char *type);
void sb_put(struct super_block *sb);
/* Free every inode the superblock still has (unmount). */
void sb_evict_all(struct super_block *sb);
int memfs_fill_super(struct super_block *sb, uint64_t max_inodes, uint64_t max_bytes);
int procfs_fill_super(struct super_block *sb);
/* sizeof memfs's inode (memory accounting, introspect.c). */
size_t memfs_inode_size(void);

/* The file type as d_type in linux_dirent64 (DT_REG, ...). */
unsigned char inode_dtype(mode_t mode);

#endif /* UVFS_INODE_H */
