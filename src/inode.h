/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * inode.h - inodes, superblocks and the operation tables a filesystem provides.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_INODE_H
#define UVFS_INODE_H

#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <time.h>

#include "internal.h"

struct dentry;
struct cred;
struct iattr;
struct file;
struct inode;
struct qstr;
struct super_block;
struct path;
struct uvfs_task;

#define UVFS_PAGE_SIZE 4096
#define UVFS_PAGE_SHIFT 12
/* MAX_LFS_FILESIZE on 64-bit Linux. */
#define UVFS_MAX_FILESIZE ((off_t)INT64_MAX)
/* tmpfs counts this many bytes of directory size per entry (BOGO_DIRENT_SIZE). */
#define BOGO_DIRENT_SIZE 20

/* i_state */
#define I_LINKABLE 0x1u /* O_TMPFILE without O_EXCL: linkat may give it a name */
/* (I_FSNOTIFY 0x2u: fsnotify.h) */
#define I_XATTRS   0x4u /* extended attributes in its superblock's table (simple_xattr.h) */
#define I_LEASES   0x8u /* leases in the instance's list (leases.h): opens break them */

/* i_flags: the kernel's S_IMMUTABLE.  Nothing may change the inode or, if it is a
 * directory, its entries: notify_change() refuses mode, owner and set times with
 * EPERM, inode_permission() refuses MAY_WRITE with EPERM.  procfs's /proc/PID
 * directories answer so on 6.18 (tests/regress/proc-changes-eperm.sys); memfs's
 * files and directories take it from chattr +i (FS_IOC_SETFLAGS: src/ioctl.c). */
#define INODE_IMMUTABLE 0x1u
#define IS_IMMUTABLE(inode) (READ_ONCE((inode)->i_flags) & INODE_IMMUTABLE)
/* S_APPEND (chattr +a): written only at the end -- an open for writing without
 * O_APPEND, O_TRUNC, F_SETFL clearing O_APPEND, truncate, fallocate but for
 * FALLOC_FL_KEEP_SIZE, a link, and removal or rename of it (or, for a directory, of
 * its entries) are EPERM; so are mode, owner and set times */
#define INODE_APPEND 0x2u
#define IS_APPEND(inode) (READ_ONCE((inode)->i_flags) & INODE_APPEND)
/* S_NOATIME (chattr +A): reads never touch the access time */
#define INODE_NOATIME 0x4u
#define IS_NOATIME(inode) (READ_ONCE((inode)->i_flags) & INODE_NOATIME)
/* FS_NODUMP_FL (chattr +d): kept for FS_IOC_GETFLAGS and statx, nothing enforced */
#define INODE_NODUMP 0x8u

/* What notify_change() is asked to change (the kernel's ATTR_* bits). */
#define ATTR_MODE  (1u << 0)
#define ATTR_UID   (1u << 1)
#define ATTR_GID   (1u << 2)
#define ATTR_SIZE  (1u << 3)
#define ATTR_ATIME (1u << 4)
#define ATTR_MTIME (1u << 5)
#define ATTR_CTIME (1u << 6)
#define ATTR_ATIME_SET (1u << 7)
#define ATTR_MTIME_SET (1u << 8)
#define ATTR_FORCE (1u << 9)       /* the permission checks are done (privilege kill) */
#define ATTR_KILL_SUID (1u << 11)
#define ATTR_KILL_SGID (1u << 12)
#define ATTR_KILL_PRIV (1u << 14)  /* security.capability goes (security_inode_killpriv) */
#define ATTR_TIMES_SET (1u << 16)  /* times given, not "now" for both: owner only */
#define ATTR_TOUCH (1u << 17)      /* both times "now": owner or write permission */

/* What notify_change() changes (the kernel's struct iattr): the values of the
 * ATTR_* bits in ia_valid.  The times are utimensat's (UTIME_NOW, UTIME_OMIT). */
struct iattr {
	unsigned int ia_valid;
	uint16_t ia_mode;
	uid_t ia_uid;
	gid_t ia_gid;
	struct timespec ia_times[2];   /* ATTR_TIMES_SET or ATTR_TOUCH: atime, mtime */
};

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
	/* Optional: a directory for a mount point that only uvfs's dcache has, where a
	 * ->mkdir would have to make one on the host (uvfs_mount2_mkdirs(), a uvfs
	 * extension): the dentry made positive with nothing asked of the host; it lives
	 * while referenced (a mount on it, a child, a walk), as any dentry of an
	 * SB_ALWAYS_DELETE filesystem. */
	int (*mkstub)(struct inode *dir, struct dentry *dentry, mode_t mode,
		      uid_t uid, gid_t gid);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target,
		       uid_t uid, gid_t gid);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*rename)(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
		      struct dentry *new, unsigned int flags);
	/* Optional: a unix socket's file (uvfs_unix_bind): bind(arg, host directory or
	 * -1, name) makes the kernel's socket first; its O_PATH descriptor is the
	 * inode's.  Without it, ->create(S_IFSOCK) makes the file alone. */
	int (*mksock)(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
		      gid_t gid, int (*bind)(void *arg, int host_dirfd, const char *name),
		      void *arg);
	/* Optional: a new O_PATH descriptor of the kernel's socket behind a socket
	 * inode, or -ECONNREFUSED (none). */
	int (*sock_fd)(struct inode *inode);
	/* O_TMPFILE: a new inode with no name, attached to the (unhashed) dentry. */
	int (*tmpfile)(struct inode *dir, struct dentry *dentry, mode_t mode,
		       uid_t uid, gid_t gid);
	/* Optional: what stat shows beyond the inode's fields (the kernel's ->getattr
	 * after generic_fillattr); called under ns_lock or lockless (RCU), reads only. */
	void (*getattr)(const struct inode *inode, struct stat *st);
	/* Optional: may the attributes ia_valid (ATTR_*) change?  0 or -errno, asked
	 * after the VFS's own checks and before anything changes (the part of the
	 * kernel's ->setattr that refuses: proc_setattr() refuses ATTR_MODE). */
	int (*setattr)(struct inode *inode, unsigned int ia_valid);
	/* Optional: is a cached dentry of this inode still what its name means?  1 yes,
	 * 0 no: it is dropped and the name looked up again (the kernel's d_revalidate;
	 * procfs's entries follow tasks and descriptors that come and go).  A directory's
	 * is also asked for a negative child that carries DCACHE_OP_REVALIDATE (hostfs's
	 * cached misses).  With
	 * LOOKUP_RCU (no ns_lock, walk.c) it may change nothing and answers
	 * -ECHILD when it would have to. */
	int (*revalidate)(struct dentry *dentry, unsigned int flags);
	/* Symlink body (NUL-terminated), valid until the next call under ns_lock, or
	 * ERR_PTR(-errno) (procfs's ns links: EACCES, as proc_ns_get_link()).  One
	 * that writes anything to make the body must have get_link_rcu too. */
	const char *(*get_link)(struct inode *inode);
	/* Optional: the body for a lockless walk by reader, made in buf if need be
	 * (procfs's "self"); NULL: the walk takes the lock. */
	const char *(*get_link_rcu)(struct inode *inode, const struct uvfs_task *reader,
				    char buf[16]);
	/* A magic link (/proc/PID/fd/N, cwd, root, exe): the object itself, referenced
	 * into *out, instead of a body to resolve (the kernel's proc_get_link);
	 * reader: the task following or reading it (procfs's ptrace_may_access()). */
	int (*get_magic)(struct dentry *dentry, const struct uvfs_task *reader, struct path *out);
	/* Optional: the same for a lockless readlink, no reference taken (the object
	 * stays readable for the RCU read section); -ECHILD: take the lock. */
	int (*get_magic_rcu)(struct dentry *dentry, const struct uvfs_task *reader,
			     struct path *out);
	/* Optional: what readlink(2) gives, made by the filesystem, where following
	 * the link is ->get_magic's (the kernel's ->readlink: proc_pid_readlink() is
	 * one; procfs's links to the embedder's descriptors, whose text uvfs does not
	 * make).  Called under ns_lock; like readlink, no NUL, truncated to bufsiz. */
	ssize_t (*readlink)(struct dentry *dentry, const struct uvfs_task *reader, char *buf,
			    size_t bufsiz);
	/* Optional: the extended attributes the filesystem keeps (the kernel's handlers
	 * for user., trusted. and security., and ->listxattr), asked after the VFS's
	 * checks (src/xattr.c) with a full name: xattr_get copies name's value (size 0:
	 * its length only; -ENODATA, -ERANGE); xattr_set stores it, or with value NULL
	 * removes it (XATTR_CREATE: -EEXIST, XATTR_REPLACE and removal: -ENODATA;
	 * -ENOSPC, -ENOMEM: nothing changed), stamping the ctime; xattr_list writes the
	 * names NUL-terminated, trusted.* only if trusted (size 0: their length;
	 * -ERANGE).  Without them a file has none: EOPNOTSUPP, and an empty list (the
	 * kernel's inode without IOP_XATTR: procfs's). */
	ssize_t (*xattr_get)(struct inode *inode, const char *name, void *value, size_t size);
	int (*xattr_set)(struct inode *inode, const char *name, const void *value, size_t size,
			 int flags);
	ssize_t (*xattr_list)(struct inode *inode, bool trusted, char *list, size_t size);
	/* Change the size of a regular file (truncate/ftruncate). */
	int (*setsize)(struct inode *inode, off_t size);
	/* The FS_*_FL flags the filesystem keeps (FS_IOC_GETFLAGS/SETFLAGS, the
	 * kernel's ->fileattr_get/set: shmem's SHMEM_FL_USER_MODIFIABLE), held in
	 * i_flags; 0: none, those ioctls are ENOTTY */
	unsigned int fileattr_flags;
	/* Optional: make the change attr describes in the filesystem's own store, after
	 * every check and before the VFS copies it into the inode (the part of the
	 * kernel's ->setattr that writes: hostfs passes it to the host).  0, or -errno
	 * with nothing changed. */
	int (*setattr_commit)(struct inode *inode, const struct iattr *attr);
	/* Optional: whether cred may do mask (MAY_READ, MAY_WRITE, MAY_EXEC: search for
	 * a directory) to the inode, instead of generic_permission() (permission.c): 0
	 * or -errno (procfs: ESRCH once the task is gone, proc_pid_permission).  With
	 * MAY_NOT_BLOCK it runs in the lockless walk and only reads; -ECHILD: take the
	 * lock.  Dentries of such inodes carry DCACHE_OP_PERMISSION. */
	int (*permission)(const struct cred *cred, struct inode *inode, int mask);
	/* Optional: the host's descriptor of the inode (hostfs: its O_PATH descriptor),
	 * for uvfs_host_fd(); valid while the inode lives. */
	int (*host_fd)(const struct inode *inode);
	/* Optional: the host memory file holding the data of the regular file open as f
	 * (memfs with UVFS_MEMFD), for uvfs_memfd(); kept while f is open. */
	int (*memfd)(struct file *f);
	/* Optional: the embedder's stand-in of the inode open as f, made by make(arg)
	 * when the inode has none, for uvfs_standin(); kept while f is open (memfs's
	 * directories).  Under ns_lock, as make() is called. */
	int (*standin)(struct file *f, int (*make)(void *arg), void *arg);
	/* The file operations of an open inode of this kind (the kernel keeps i_fop in
	 * every inode; in uvfs all inodes with one i_op share them). */
	const struct file_operations *fop;
};

/* ->permission's mask (include/linux/fs.h) */
#define MAY_EXEC      0x01
#define MAY_WRITE     0x02
#define MAY_READ      0x04
#define MAY_OPEN      0x20
#define MAY_CHDIR     0x40
#define MAY_NOT_BLOCK 0x80

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
	/* Optional: every lseek (the kernel's ->llseek), instead of the generic one:
	 * the new position, set in f->f_pos, or -errno (hostfs asks the host). */
	off_t (*llseek)(struct file *f, off_t offset, int whence);
	/* Optional: fsync and fdatasync (the kernel's ->fsync); without it FOP_FSYNC
	 * says whether they succeed doing nothing (noop_fsync) or fail with EINVAL. */
	int (*fsync)(struct file *f, bool datasync);
	/* Optional: fallocate's modes the filesystem has (the kernel's ->fallocate),
	 * after vfs_fallocate()'s checks: 0 or -errno with nothing changed; without it,
	 * EOPNOTSUPP. */
	int (*fallocate)(struct file *f, int mode, off_t offset, off_t len);
	/* Optional: the lines /proc/PID/fdinfo/N shows after the generic four (the
	 * kernel's ->show_fdinfo), written into buf as snprintf() writes (buf NULL and
	 * size 0: only counted): their length.  ns_lock held. */
	size_t (*show_fdinfo)(struct file *f, char *buf, size_t size);
	unsigned int fop_flags;   /* FOP_*, below */
};

/* What the files of a file_operations can do (the kernel's FMODE_CAN_ODIRECT, an
 * ->fsync, the positioning of ->llseek, FMODE_PREAD/PWRITE, ->fasync). */
#define FOP_ODIRECT    0x01u  /* O_DIRECT accepted (shmem_file_open); else EINVAL */
#define FOP_FSYNC      0x02u  /* fsync/fdatasync succeed (noop_fsync); else EINVAL */
#define FOP_OFFSET_DIR 0x04u  /* a tmpfs directory: offset_dir_llseek() */
#define FOP_SEQ        0x08u  /* a seq_file: no pwrite (ESPIPE), seq_lseek() */
#define FOP_FASYNC     0x10u  /* F_SETFL may change O_ASYNC (pipe_fasync) */
/* F_SETFL may set O_DIRECT although open refuses it (a fifo on 6.18: "packet mode",
 * which uvfs does not model — docs/SEMANTICS.md) */
#define FOP_SETFL_ODIRECT 0x20u
/* positions stop at 2^31 - 1 (the superblock's s_maxbytes is MAX_NON_LFS: procfs) */
#define FOP_NON_LFS    0x40u
/* a pseudo file (alloc_file_pseudo(): an inotify descriptor): never through
 * do_dentry_open(), so no FMODE_PREAD / FMODE_PWRITE -- pread and pwrite ESPIPE */
#define FOP_PSEUDO     0x80u

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
	/* statfs of a dentry of the superblock (the kernel's ->statfs(dentry)): the
	 * fields the filesystem knows (f_type, sizes, counts).  Optional: without it,
	 * simple_statfs()'s block size and name length only. */
	void (*statfs)(const struct dentry *d, struct statfs *buf);
	/* Optional: a dentry of this superblock is being freed (the kernel's
	 * ->d_release): forget what the filesystem keeps about it. */
	void (*d_release)(struct dentry *dentry);
	/* Optional: the name of the file whose data lives, or lived, in the host memory
	 * file the kernel knows as (kdev, kino) (memfs's memfds: uvfs_memfd_name): true
	 * with out set -- an open file's path, or a dentry alone (out->mnt NULL: the
	 * caller finds a mount of it).  Under ns_lock; valid until it is released. */
	bool (*memfd_path)(struct super_block *sb, dev_t kdev, ino_t kino, struct path *out);
	/* Optional: evict unused cached entries beyond the filesystem's bound (the
	 * kernel's shrinker); called under ns_lock between calls (shrink_caches()). */
	void (*shrink)(struct super_block *sb);
	/* Optional: bring the dentries up to date before a path is made of them
	 * (d_path, getcwd): hostfs applies the renames and removals a host process
	 * made.  Under ns_lock, with no walk under way (it may kill unused dentries). */
	void (*sync_paths)(struct super_block *sb);
	/* Optional: the superblock is about to become read-only (ro) or writable -- at its
	 * mount or a remount -- before any call sees it so (sb_set_readonly()): hostfs
	 * makes its host side so too.  0, or -errno and nothing changed. */
	int (*set_readonly)(struct super_block *sb, bool ro);
	/* The superblock's options as /proc/PID/mountinfo shows them after "rw" or "ro":
	 * ",size=1024k,mode=700" (->show_options).  Optional. */
	void (*show_options)(FILE *m, const struct super_block *sb);
	/* Optional: statx's fields beyond stat's (the kernel's ->getattr with its
	 * request_mask): the filesystem's attributes and their mask, btime, and for a
	 * multigrain one (tmpfs) leaving mtime and ctime out when not asked.  sx holds
	 * the stat fields and STATX_BASIC_STATS; with query_times false the inode's
	 * times were not read (inode_fillattr_mask()). */
	void (*statx)(struct inode *inode, unsigned int mask, struct statx *sx);
	/* Optional, with statx: whether stat's times mark the inode queried only when
	 * statx asks for mtime or ctime (FS_MGTIME's fill_mg_cmtime()) */
	bool mgtime;
	/* File handles as tmpfs makes them (shmem_export_ops: the generation and the
	 * inode number, found again among the superblock's dentries): src/fhandle.c.
	 * Without: name_to_handle_at is EOPNOTSUPP but for AT_HANDLE_FID, and
	 * open_by_handle_at ESTALE (a filesystem with no s_export_op). */
	bool export_fh;
	/* Optional: the name d_path() gives a dentry of this superblock other than a
	 * mount's root, instead of a path (the kernel's ->d_dname: anon_inodefs's
	 * "anon_inode:inotify"): the string in buf, or ERR_PTR(-ENAMETOOLONG) */
	char *(*d_dname)(const struct dentry *d, char *buf, int buflen);
};

/*
 * 96 bytes, packed the way the kernel packs its own (6.6+: seconds and nanoseconds of
 * the three times apart; i_link, i_pipe and i_writecount in one union): with memfs's
 * 16 and a 128-byte dentry an empty file takes 240 bytes (docs/PERFORMANCE.md).
 */
enum inode_time { I_ATIME, I_MTIME, I_CTIME };

struct inode {
	/* tmpfs's 32-bit inode numbers (inode32, the default: no "inode64" in this
	 * machine's mounts), wrapping to 1 after UINT_MAX as shmem_reserve_inode()'s do */
	uint32_t i_ino;                  /* immutable */
	uint16_t i_mode;                 /* umode_t; type bits immutable */
	uint8_t i_state;                 /* I_LINKABLE, I_FSNOTIFY, I_XATTRS */
	/* INODE_*: set when the inode is made (procfs) or by FS_IOC_SETFLAGS under
	 * ns_lock (memfs); lockless readers use READ_ONCE (IS_IMMUTABLE...) */
	uint8_t i_flags;
	unsigned int i_nlink;
	uid_t i_uid;
	gid_t i_gid;
	int i_count;                     /* references: dentries, open files, tasks */
	union {
		/* immutable; devices (S_ISCHR, S_ISBLK): the kernel's 32-bit dev_t */
		uint32_t i_rdev;
		/* immutable; every other inode: what a file handle names beside the
		 * inode number (memfs: random, as tmpfs's get_random_u32() in
		 * __shmem_get_inode()), so that a handle of a freed inode whose number
		 * came back is ESTALE.  One word for both keeps the inode at 96 bytes. */
		uint32_t i_generation;
	};
	uint32_t i_nsec[3];              /* enum inode_time; see inode_get_time() */
	off_t i_size;
	int64_t i_sec[3];
	struct super_block *i_sb;        /* immutable */
	const struct inode_operations *i_op;  /* immutable */
	union {
		struct pipe *i_pipe;     /* fifos: the buffer, while open */
		char *i_link;            /* symlinks: the body, the filesystem's to free */
		struct {
			/* regular files: open writers (> 0) or executables running it
			 * (< 0), the kernel's i_writecount; ns_lock */
			int i_writecount;
			/* regular files: open files that only read (not O_PATH), the
			 * kernel's i_readcount, which a write lease must be alone in
			 * (check_conflicting_open()); ns_lock */
			int i_readcount;
		};
	};
};

_Static_assert(sizeof(struct inode) == 96, "memory per file: docs/PERFORMANCE.md");

/* The kernel's I_CTIME_QUERIED: a bit of ctime's nanoseconds, set by stat (a lockless
 * one too, hence the atomics) and cleared by the next stamp (inode_set_ctime_current). */
#define I_CTIME_QUERIED (1u << 31)

static inline struct timespec inode_get_time(const struct inode *inode, enum inode_time t)
{
	uint32_t ns = __atomic_load_n(&inode->i_nsec[t], __ATOMIC_RELAXED);

	/* the lockless stat reads both (READ_ONCE): relaxed atomics, plain loads on x86 */
	return (struct timespec){ .tv_sec = __atomic_load_n(&inode->i_sec[t], __ATOMIC_RELAXED),
				  .tv_nsec = ns & ~I_CTIME_QUERIED };
}

static inline void inode_set_time(struct inode *inode, enum inode_time t, struct timespec ts)
{
	__atomic_store_n(&inode->i_sec[t], ts.tv_sec, __ATOMIC_RELAXED);  /* WRITE_ONCE */
	__atomic_store_n(&inode->i_nsec[t], (uint32_t)ts.tv_nsec, __ATOMIC_RELEASE);
}

/*
 * Multigrain timestamps (Linux 6.13+, tmpfs among the filesystems that use them;
 * Documentation/filesystems/multigrain-ts.rst):
 *  - coarse_time(): the coarse clock, never earlier than the floor (the newest
 *    fine-grained stamp handed out), read once a call (ktime_get_coarse_real_ts64_mg);
 *  - current_time(): coarse_time(), or a fine reading when the inode's times were
 *    queried and the coarse time shows no change of ctime's nanoseconds; for atime and
 *    the "anything to stamp?" questions, as the kernel's current_time(inode);
 *  - inode_set_ctime_current(): stamps ctime, with a fine-grained time only when the
 *    times were queried since the last stamp and the coarse time would not show a
 *    change; returns the time, which callers give mtime too;
 *  - inode_fillattr() marks the inode queried.
 * So a file nobody looks at gets tick-granular times, as on the kernel, and reading
 * the fine clock (tens of ns on a VM's kvm-clock) is the exception.
 */
struct timespec coarse_time(struct uvfs *fs);
struct timespec current_time(struct inode *inode);
struct timespec inode_set_ctime_current(struct inode *inode);
/* The same with the caller's reading of current_time(), for a call that stamps
 * several inodes (a rename stamps up to four): *now moves on to the fine-grained
 * time when one is taken, as the next current_time() would (it is the new floor). */
struct timespec inode_set_ctime_at(struct inode *inode, struct timespec *now);
void inode_set_mctime_at(struct inode *inode, struct timespec *now);

#define SB_ALWAYS_DELETE 0x1u  /* negative and unused dentries are not kept */
/* negative dentries are not kept (the kernel's ->d_delete saying so for them): a name
 * the filesystem's own store may gain behind uvfs's back (hostfs) is asked again */
#define SB_NO_NEGATIVE   0x20u
#define SB_DYING         0x4u  /* unmounting: an inode goes at its last iput, links or not */
#define SB_I_NOEXEC      0x8u  /* nothing runs from it, whatever the mount says (procfs) */
#define SB_I_NODEV       0x10u /* no device opens from it, whatever the mount says (procfs) */
#define SB_RCU_WALK      0x2u  /* walk.c may walk it without ns_lock: a miss is
				* answered by ->lookup_noent or taken to the lock, reading
				* inodes has no side effects, ->revalidate takes LOOKUP_RCU */

struct super_block {
	struct uvfs *s_fs;                       /* immutable */
	dev_t s_dev;                             /* immutable */
	const struct file_system_type *s_type;   /* immutable */
	unsigned int s_flags;                    /* immutable */
	struct dentry *s_root;                   /* immutable after mount */
	const struct super_operations *s_op;     /* immutable */
	void *s_fs_info;                         /* the filesystem's */
	struct kmem_cache *s_inode_cache;        /* ns_lock: made at the first new_inode */
	uint64_t s_next_ino;
	long s_nr_inodes;                        /* live inodes (all gone at unmount) */
	long s_count;                            /* mounts using it */
	bool s_readonly;                         /* ns_lock: SB_RDONLY (mount -o ro, remount) */
	/* ns_lock: MS_SYNCHRONOUS, MS_DIRSYNC, MS_MANDLOCK, MS_LAZYTIME as the mount or
	 * remount gave them: listed in mountinfo (show_sb_opts), nothing more (memfs
	 * has nothing to write back) */
	unsigned long s_ms_flags;
	long s_remove_count;                     /* ns_lock: live inodes without a link */
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

/* The link count, and the superblock's count of inodes that have none left but are
 * still in use (the kernel's s_remove_count: a remount read-only is EBUSY while it is
 * not zero).  An inode is made with one link (inode_init_always()). */
static inline void inc_nlink(struct inode *inode)
{
	if (inode->i_nlink == 0)
		inode->i_sb->s_remove_count--;  /* an O_TMPFILE file's first link */
	inode->i_nlink++;
}
static inline void drop_nlink(struct inode *inode)
{
	assert(inode->i_nlink > 0);
	if (--inode->i_nlink == 0)
		inode->i_sb->s_remove_count++;
}
static inline void clear_nlink(struct inode *inode)
{
	if (inode->i_nlink) {
		inode->i_nlink = 0;
		inode->i_sb->s_remove_count++;
	}
}

/* The credentials of the task making the current call (the kernel's current_fsuid()). */
uid_t current_uid(const struct inode *any);
gid_t current_gid(const struct inode *any);


/*
 * Write access to a regular file (include/linux/fs.h): a writer counts up, a running
 * executable counts down, and neither may start while the other is there (ETXTBSY:
 * opening a running program for writing, executing a file open for writing).
 * Caller holds ns_lock; regular files only.
 */
static inline int get_write_access(struct inode *inode)
{
	assert(S_ISREG(inode->i_mode));
	if (inode->i_writecount < 0)
		return -ETXTBSY;
	inode->i_writecount++;
	return 0;
}

static inline void put_write_access(struct inode *inode)
{
	inode->i_writecount--;
}

static inline int deny_write_access(struct inode *inode)
{
	assert(S_ISREG(inode->i_mode));
	if (inode->i_writecount > 0)
		return -ETXTBSY;
	inode->i_writecount--;
	return 0;
}

static inline void allow_write_access(struct inode *inode)
{
	inode->i_writecount++;
}

/* What the mount through which a file was read says of its atime (mount.h's
 * mnt_atime_rule(): relatime, the default; strictatime; never for noatime,
 * nodiratime on a directory, or a read-only mount or superblock). */
enum atime_rule { ATIME_RELATIME, ATIME_STRICT, ATIME_NEVER };
/* A read happened: atime as the rule says (touch_atime). */
void inode_touch_atime(struct inode *inode, enum atime_rule rule);
/* Data was written: mtime and ctime, if current_time() differs (file_update_time). */
void file_update_time(struct inode *inode);
/* Might inode_touch_atime() change atime now?  (Reads only: a lockless reader that
 * gets false has nothing to write.) */
bool inode_atime_maybe_due(const struct inode *inode, enum atime_rule rule);

/* mtime = ctime = ts. */
void inode_set_mctime(struct inode *inode, struct timespec ts);
/* mtime = ctime = inode_set_ctime_current() (a directory's entries changed, a file's
 * data). */
void inode_set_mctime_current(struct inode *inode);

/* The clocks behind every timestamp: the host's CLOCK_REALTIME_COARSE and
 * CLOCK_REALTIME, unless a test installs its own (NULL: the host's again).  Resets the
 * multigrain floor.  Not thread-safe: tests only, with no instance running. */
struct time_source {
	void (*coarse)(struct timespec *ts);
	void (*fine)(struct timespec *ts);
};
void set_time_source(const struct time_source *src);

/* Fill st from the inode (generic_fillattr). */
void inode_fillattr(const struct inode *inode, struct stat *st);
/* The same; query_times false: the times are not read, and the inode is not marked
 * queried (statx of a multigrain filesystem asking for neither mtime nor ctime) */
void inode_fillattr_mask(const struct inode *inode, struct stat *st, bool query_times);

/* What a mount asks of a filesystem (tmpfs's nr_inodes= and size=; 0: unlimited). */
/* What mount(2)'s data asked of a filesystem (tmpfs's shmem_options).  seen says
 * which were given, for a remount, which changes only those. */
struct fs_mount_opts {
	uint64_t max_inodes;   /* 0: unlimited */
	uint64_t max_bytes;    /* 0: unlimited */
	mode_t root_mode;      /* FS_OPT_MODE: the root's permission bits */
	uid_t root_uid;        /* the root's owner: the mounter's fsuid unless uid= */
	gid_t root_gid;
	char huge[12];         /* FS_OPT_HUGE: always, within_size, advise ("never": none) */
	unsigned int seen;     /* FS_OPT_* */
	/* hostfs: when a cached name or attribute is checked against the host */
	unsigned int reval;    /* HOST_REVAL_* (FS_OPT_REVAL) */
	unsigned int reval_timeout;  /* seconds, for HOST_REVAL_TIMEOUT */
	/* mount(2)'s source, for fill_super only (hostfs: the host directory) */
	const char *source;
	/* hostfs's host=: the host directory when it is not the source, which is then
	 * only the name mountinfo shows (FS_OPT_HOST) */
	char host_path[256];
};
enum { HOST_REVAL_ALWAYS, HOST_REVAL_TIMEOUT, HOST_REVAL_NEVER };
#define FS_OPT_SIZE   0x01
#define FS_OPT_INODES 0x02
#define FS_OPT_MODE   0x04
#define FS_OPT_UID    0x08
#define FS_OPT_GID    0x10
#define FS_OPT_NOSWAP 0x20
#define FS_OPT_HUGE   0x40    /* huge= (value in huge) */
#define FS_OPT_MPOL   0x80    /* mpol=local */
#define FS_OPT_INODE64 0x100   /* inode64 (else inode32) */
#define FS_OPT_INUMS  0x400    /* inode32 or inode64 given */
#define FS_OPT_MPOL_SET 0x800  /* mpol= given (FS_OPT_MPOL: local) */
#define FS_OPT_REVAL  0x1000   /* hostfs: always, never or timeout= given */
#define FS_OPT_RECURSIVE 0x2000 /* hostfs: the mounts below the source too (rbind) */
#define FS_OPT_HOST   0x4000   /* hostfs: host= (value in host_path) */
/* set by mount(2) for a new tmpfs: where size= or nr_inodes= are not given, Linux's
 * defaults (half of the machine's memory; as many inodes as half its pages), not
 * uvfs_new's unlimited root */
#define FS_OPT_LINUX_DEFAULTS 0x200
/* the kernel's ENOPARAM (include/linux/errno.h): an option this filesystem does not
 * know, for the caller to refuse (fs_context.c's "Unknown parameter") */
#define ENOPARAM 519

/*
 * A filesystem type (the kernel's struct file_system_type).  The instance's setup
 * registers each one (uvfs.c, the only file that names a filesystem); a mount finds
 * it by name (get_fs_type) and makes a superblock with mount_fs(), the kernel's
 * mount_nodev: a new superblock, then ->fill_super.  The superblock's last put tears
 * it down and calls s_op->put_super, which plays kill_sb's part.  Immutable.
 */
struct file_system_type {
	const char *name;
	/* Fill a new superblock: s_op, s_flags, s_fs_info, s_root.  0 or -errno; the
	 * caller puts the superblock on failure. */
	int (*fill_super)(struct super_block *sb, const struct fs_mount_opts *opts);
	/* Optional: one option of mount(2)'s data ("key" or "key=value": value NULL
	 * without '='): 0, -EINVAL for a bad value, -ENOPARAM for a key it does not
	 * know.  Without it every option is unknown. */
	int (*parse_param)(struct fs_mount_opts *opts, const char *key, const char *value);
	/* Optional: MS_REMOUNT's options for a mounted superblock (opts->seen says
	 * which were given): 0, or -EINVAL leaving it as it was. */
	int (*reconfigure)(struct super_block *sb, const struct fs_mount_opts *opts);
	/* Optional: task pid is gone (release_task); procfs unhashes /proc/PID. */
	void (*task_gone)(struct uvfs *fs, int pid);
};

/* Registration, with the instance while it is made: 0, or -EBUSY when the table
 * (UVFS_MAX_FS_TYPES) is full.  get_fs_type: the type called name, or NULL. */
int register_filesystem(struct uvfs *fs, const struct file_system_type *type);
const struct file_system_type *get_fs_type(const struct uvfs *fs, const char *name);
/* A new superblock of type, filled: the superblock, or ERR_PTR(-errno). */
struct super_block *mount_fs(struct uvfs *fs, const struct file_system_type *type,
			     const struct fs_mount_opts *opts);
void sb_put(struct super_block *sb);
/* sb_set_readonly(): s_readonly = ro, the filesystem told first (->set_readonly): 0,
 * or its -errno with nothing changed.  ns_lock held. */
int sb_set_readonly(struct super_block *sb, bool ro);
/* release_task(): tell every registered type that task pid is gone. */
void fs_types_task_gone(struct uvfs *fs, int pid);
/* fs->shrink_pending: every mounted superblock's ->shrink, and the flag cleared. */
void shrink_caches(struct uvfs *fs);

/* The file type as d_type in linux_dirent64 (DT_REG, ...). */
unsigned char inode_dtype(mode_t mode);
/* dir_emit - one linux_dirent64 record at buf + *used, if it fits in
 * count: true and *used advanced, or false with nothing written (filldir64()). */
bool dir_emit(void *buf, size_t count, size_t *used, const char *name, size_t len,
	      uint64_t ino, int64_t next, unsigned char type);

/* exportfs_encode_fid() (src/fhandle.c): the fid of inode in fh (room for dwords
 * 32-bit words; three suffice), its type, or FILEID_INVALID (0xff) when it does not
 * fit; the words used in *dwords */
#define FID_DWORDS 3
int exportfs_encode_fid(const struct inode *inode, uint32_t *fh, unsigned int *dwords);

#endif /* UVFS_INODE_H */
