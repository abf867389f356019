/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * uvfs.h - the public contract of libuvfs.
 *
 * uvfs is the Linux VFS (dentry cache, path walk, inodes, open files, tasks and an
 * in-memory filesystem) as a userspace library.  Every call below is shaped like the
 * system call it is named after, takes the calling task first, uses the host's own
 * types and constants (<fcntl.h>, <sys/stat.h>, RENAME_*, AT_*), and returns >= 0 on
 * success or -errno on failure, never setting errno.
 *
 * Each call's comment lists its errors in the order Linux checks them: when several
 * apply, the first one listed is the one returned.  "path walk errors" means the errors
 * of resolving a pathname (docs/SEMANTICS.md, "Path walk"): ENAMETOOLONG (whole path
 * >= PATH_MAX), ENOENT (empty path without AT_EMPTY_PATH, or a missing component),
 * EBADF (bad dirfd), ENOTDIR (a non-directory used as a directory), ELOOP (more than
 * 40 symbolic links), ENAMETOOLONG (a component longer than NAME_MAX, when looked up).
 *
 * Thread safety: every call may be made from any thread at any time.  A task may be
 * used by several threads at once, like the threads of one process.
 *
 * Names, structure and errno follow Linux 6.18 on tmpfs; the personality (see
 * struct uvfs_config) changes only what the dentry layer does with names on rename.
 */
#ifndef UVFS_UVFS_H
#define UVFS_UVFS_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The library is built with hidden visibility and a version script (src/libuvfs.map):
 * what this header declares is exported, under the symbol version UVFS_0.1, and
 * nothing else is (docs/ARCHITECTURE.md, "ABI").
 */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

/*
 * Buffers and pointers.  A NULL buffer (or struct stat) where a call would copy bytes
 * to or from the caller is EFAULT, at the point where Linux's copy would fault: after
 * the descriptor, path and size checks, and only if something is to be copied (a read
 * at end of file, or of an empty listing, is 0).  A NULL path is EFAULT (getname),
 * except fstatat's NULL with AT_EMPTY_PATH on a descriptor, which is fstat (6.11+).
 * The task calls take a NULL task as EINVAL (NULL, or -EINVAL, or (mode_t)-1 for
 * uvfs_umask); every other call needs a task made by uvfs_task_new or uvfs_task_fork
 * and not yet exited.
 */

/*
 * Permissions (docs/SEMANTICS.md, "Permissions").  Every call is decided with the
 * calling task's credentials (see uvfs_setresuid below) as Linux 6.18 decides it on an
 * ACL-less tmpfs: mode bits by owner, group and other class, CAP_DAC_OVERRIDE,
 * CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_FSETID, CAP_CHOWN, CAP_MKNOD, CAP_SYS_CHROOT,
 * CAP_SYS_PTRACE.  "Path walk errors" below include EACCES: no search permission on a
 * directory of the path, which comes before an ENOENT of a later component.  Beyond
 * the walk, each call adds these, in this order among its other errors:
 *   openat    EISDIR/ELOOP of the type first; then EACCES: no read or write permission
 *             for the access mode (O_TRUNC asks write); EPERM: O_NOATIME on a file
 *             the task does not own without CAP_FOWNER.  O_CREAT of a free name in a
 *             directory without write and search permission is EACCES; of an existing
 *             name, the file is opened (or EEXIST with O_EXCL).
 *   mkdirat, mknodat, symlinkat, linkat, O_TMPFILE - after EEXIST: EACCES, no write
 *             and search permission on the parent; mknodat then EPERM for a device
 *             (not a whiteout, 0:0) without CAP_MKNOD; linkat first EPERM for a file
 *             fs.protected_hardlinks guards (not owned, and not a regular file the task
 *             may read and write, or set-user-ID, or set-group-ID and group-executable)
 *             unless CAP_FOWNER; AT_EMPTY_PATH (and any path relative to olddirfd
 *             with it) from a descriptor opened with other credentials — ids changed
 *             since, or inherited through a fork — is ENOENT (after EBADF) without
 *             CAP_DAC_READ_SEARCH.
 *   unlinkat, renameat2 - after ENOENT of the victim: EACCES, no write and search
 *             permission on its directory; EPERM, a sticky directory whose owner and
 *             the file's owner are both not the task, without CAP_FOWNER; then the type
 *             errors.  renameat2 asks the same of the target's directory (write and
 *             search for a free name), then EACCES for a directory moving to another
 *             parent (its ".." changes) without write permission on it.
 *   fchmodat  EPERM: not the owner, without CAP_FOWNER.  Set-group-ID is dropped for
 *             a task outside the file's group without CAP_FSETID.
 *   fchownat  EPERM: a new owner other than the old one, or a new group the owner is
 *             not in, without CAP_CHOWN.  A non-directory loses set-user-ID, and
 *             set-group-ID when group-executable (or the task is outside the group
 *             without CAP_FSETID).
 *   utimensat EACCES: both times "now" (or NULL) by one who is not the owner, without
 *             CAP_FOWNER or write permission; EPERM: any other times by one not the
 *             owner without CAP_FOWNER.
 *   truncate  EACCES: no write permission (after EISDIR/EINVAL of the type).  A write
 *             or truncation by a task without CAP_FSETID drops set-user-ID, and
 *             set-group-ID where it is group-executable.
 *   chdir, fchdir, chroot - EACCES: no search permission on the new directory;
 *             chroot then EPERM without CAP_SYS_CHROOT.
 *   uvfs_task_exec - EACCES: not a regular file, or no execute permission (root needs
 *             an x bit somewhere); no read permission is needed (ENOEXEC's check
 *             reads the file all the same).  Afterwards the saved and filesystem ids are the
 *             effective ones, and the capabilities as execve(2) leaves them for a
 *             program without file capabilities.
 *   uvfs_mount - EPERM without CAP_SYS_ADMIN, after the target's walk.
 *   /proc/PID/fd/N, cwd, root, exe of another task - EACCES unless the task's
 *             filesystem ids equal all of that task's ids and it is dumpable (it has
 *             not changed its ids since its last exec), or CAP_SYS_PTRACE; /proc/PID/fd
 *             is 0500, owned by the task's effective ids (root's when not dumpable).
 */

#define UVFS_VERSION_MAJOR 0
#define UVFS_VERSION_MINOR 1
#define UVFS_VERSION_STRING "0.1.0"

/*
 * Size of the name buffer inside every dentry.  Names of up to
 * UVFS_DNAME_INLINE_LEN - 1 bytes are stored inline; longer ones in a separately
 * allocated, reference-counted external name.  40 is DNAME_INLINE_LEN of 64-bit Linux
 * since 6.8; older personalities use a threshold of 32 inside the same buffer.
 */
#define UVFS_DNAME_INLINE_LEN 40

/* The host may not define these (glibc < 2.28 hides them behind _GNU_SOURCE). */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef O_PATH
#define O_PATH 010000000
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

struct uvfs;      /* one instance: a mount namespace with its filesystems and tasks */
struct uvfs_task; /* a process: credentials, umask, root, cwd, descriptor table */

#define UVFS_NO_PROC 0x1u
#define UVFS_MEMFD 0x2u

struct uvfs_config {
	/*
	 * Personality: "linux" (default, 6.8 and later), "linux-4.17", "linux-3.18",
	 * "linux-3.17", "linux-3.15" or "linux-3.14".  NULL means "linux".
	 */
	const char *abi;
	/* Limits of the root filesystem, like tmpfs's nr_inodes= and size=.
	 * 0 means unlimited.  Exceeding them gives ENOSPC. */
	uint64_t max_inodes;
	uint64_t max_bytes;
	/* RLIMIT_NOFILE of every task; 0 means 1024 (the usual soft limit). */
	unsigned int max_files;
	/* UVFS_NO_PROC: do not create /proc nor mount procfs on it.
	 * UVFS_MEMFD: a regular memfs file's data moves into a host memory file
	 * (memfd_create) while uvfs_memfd() has handed it out, so that the kernel can
	 * map, execute and lock the very bytes uvfs reads and writes (uvfs-run);
	 * docs/SEMANTICS.md, "File data in host memory files". */
	unsigned int flags;
	/* Host mounts (mount -t host): the most dentries each one keeps cached when
	 * nothing uses them, evicting the least recently used beyond it; every cached
	 * host inode holds a host descriptor, so the bound is also kept below the
	 * process's RLIMIT_NOFILE (raised to its hard limit at the first host mount).
	 * 0 means 65536. */
	uint64_t max_host_dentries;
	/* Reserved for later members; must be zero. */
	uint64_t reserved[5];
};

/*
 * uvfs_new - create an instance: an in-memory root filesystem (mode 01777 like a
 * fresh tmpfs, ino 1) mounted at "/", holding one directory, /proc (0555, ino 2),
 * with procfs mounted on it unless cfg->flags has UVFS_NO_PROC, in which case the
 * root is empty.  cfg == NULL means all defaults.
 * Returns NULL with errno set: EINVAL (unknown personality, non-zero reserved field,
 * unknown flags, max_inodes below what the root and /proc take; uvfs_last_error()
 * says which), ENOMEM.
 */
struct uvfs *uvfs_new(const struct uvfs_config *cfg);

/* uvfs_free - end every task, close every file, free every dentry, name and inode.
 * Waits for RCU callbacks, so that nothing allocated by the instance survives it.
 * Every file held with uvfs_fget() must have been given back (uvfs_fput) first. */
void uvfs_free(struct uvfs *fs);

/* The message of the last uvfs_new failure in this thread, or "" if none. */
const char *uvfs_last_error(void);

/* The personality the instance runs ("linux", "linux-3.15", ...). */
const char *uvfs_abi_name(const struct uvfs *fs);

/* ---------------------------------------------------------------------------------
 * Tasks
 */

/* uvfs_task_new - a new process: the first gets pid 1, later ones the next free
 * number; uid/gid 0, umask 022, root and cwd "/", no descriptors.  NULL with errno
 * EINVAL (fs NULL) or ENOMEM. */
struct uvfs_task *uvfs_task_new(struct uvfs *fs);

/* uvfs_task_fork - a child sharing nothing but copying: creds, umask, root, cwd and
 * the descriptor table (the same open file descriptions, as fork(2)).  NULL: EINVAL
 * (parent NULL), ENOMEM, or EMFILE-like exhaustion of pids (never in practice). */
struct uvfs_task *uvfs_task_fork(struct uvfs_task *parent);

/* uvfs_task_fork_as - uvfs_task_fork, the child's pid chosen by the caller: a runner
 * whose processes have pids of their own gives uvfs the same (uvfs-run: the pids of
 * its pid namespace).  NULL with errno EINVAL (parent NULL, pid < 1 or above
 * 4194304, the kernel's PID_MAX_LIMIT), EEXIST (a live task has pid), ENOMEM.  A
 * later uvfs_task_fork counts on from the highest pid given. */
struct uvfs_task *uvfs_task_fork_as(struct uvfs_task *parent, int pid);

/* uvfs_task_clone - clone(2) as the namespace sees it: a child with pid (0: the next
 * free, as uvfs_task_fork; else as uvfs_task_fork_as) that shares with parent what
 * flags (<sched.h>) say -- CLONE_FS: root, working directory and umask; CLONE_FILES: the
 * descriptor table (a descriptor one opens, closes or dups is the other's too, until
 * an exec or unshare(CLONE_FILES) gives it a copy) -- and copies the rest, as
 * uvfs_task_fork does.  NULL with errno EINVAL (parent NULL, pid out of range, any
 * other flag), EEXIST (a live task has pid), ENOMEM. */
struct uvfs_task *uvfs_task_clone(struct uvfs_task *parent, int pid, unsigned long flags);

/* uvfs_task_exit - close every descriptor (of a table no other task shares), drop
 * root and cwd, free the task. */
void uvfs_task_exit(struct uvfs_task *task);
/* uvfs_task_zombie - the process exited and its parent has not reaped it (the
 * kernel's do_exit() before release_task()): its descriptors are closed, its root,
 * cwd, executable and mount namespace dropped, and /proc/PID stays -- fd/ empty,
 * cwd, root and exe ENOENT, mounts and mountinfo EINVAL, the embedder's files
 * (uvfs_set_proc_source: stat, status...) as it says -- until uvfs_task_exit() reaps
 * it.  The task may then be given to no call but uvfs_task_exit and uvfs_task_pid
 * (uvfs_task_fork: EINVAL).  Out of memory for its empty descriptor table it keeps
 * the old one until the reap. */
void uvfs_task_zombie(struct uvfs_task *task);

/* The task's pid; -EINVAL for NULL. */
int uvfs_task_pid(const struct uvfs_task *task);

/*
 * uvfs_task_setrlimit - the task's soft limit of resource (setrlimit(2)'s rlim_cur;
 * the hard limit is the embedder's to keep): RLIMIT_FSIZE (<sys/resource.h>) only,
 * the largest size in bytes a write, truncate or fallocate may give a regular file;
 * UVFS_RLIM_INFINITY (the default) for none.  Past it those calls are EFBIG, and
 * send the task SIGXFSZ (uvfs_task_take_signals); a write that starts below it is
 * cut short at it (generic_write_check_limits(), inode_newsize_ok()).  A fork copies
 * it.  May be called while other threads make calls for the task (a relaxed atomic
 * store; calls already running may see the old limit).  0, or -EINVAL (task NULL, any
 * other resource).  RLIMIT_NOFILE is uvfs_config.max_files, for every task.
 */
#define UVFS_RLIM_INFINITY (~0ull)
int uvfs_task_setrlimit(struct uvfs_task *task, int resource, unsigned long long limit);

/*
 * uvfs_task_take_signals - the signals uvfs sent the task since the last call, as
 * the kernel's send_sig() to the calling thread, cleared: bit (sig - 1) for each, so
 * far only SIGXFSZ (1ull << (SIGXFSZ - 1)) from a call past RLIMIT_FSIZE.  The
 * embedder delivers them (uvfs-run: tgkill() to the thread that made the call,
 * before it runs on).  0 for NULL.
 */
unsigned long long uvfs_task_take_signals(struct uvfs_task *task);

/*
 * Interrupting a call that waits (the kernel's signal_pending() and signal_wake_up()).
 * Calls wait in four places: a fifo's open (for its other end), a read or write of a
 * fifo (for data, for room), and an open or uvfs_truncate that breaks a lease (for
 * its holder, lease-break-time at most: uvfs_fcntl).  A thread that has attached a struct uvfs_intr
 * (uvfs_intr_attach) has each such wait end when another thread raises it
 * (uvfs_intr_raise): the call returns -UVFS_ERESTARTSYS, as the kernel's returns
 * -ERESTARTSYS for a signal -- the embedder decides, as the kernel's signal delivery
 * does, whether that becomes EINTR or a restart of the call.  What the interrupted
 * call had done is undone as Linux undoes it: a fifo's open leaves no reader or
 * writer behind (fifo_open's err_rd, err_wr); a write that moved some bytes returns
 * their count.  A raise stays until uvfs_intr_clear(): every wait of the thread ends
 * at once meanwhile.  Without an attached uvfs_intr a wait ends only when its peer
 * comes.
 *
 * uvfs_intr_new: NULL with errno ENOMEM.  uvfs_intr_attach(NULL) detaches.
 * uvfs_intr_free: the caller makes sure no thread has it attached.
 */
#define UVFS_ERESTARTSYS 512
struct uvfs_intr;
struct uvfs_intr *uvfs_intr_new(void);
void uvfs_intr_free(struct uvfs_intr *in);
void uvfs_intr_attach(struct uvfs_intr *in);
void uvfs_intr_raise(struct uvfs *fs, struct uvfs_intr *in);
void uvfs_intr_clear(struct uvfs_intr *in);

/*
 * uvfs_set_fd_floor - the lowest number a new descriptor made by the calling thread's
 * calls may take: an open, uvfs_dup and F_DUPFD take the lowest free number at or
 * above it (F_DUPFD: at or above the larger of its argument and the floor); 0, the
 * default, is Linux's rule.  uvfs_dup3 and F_DUPFD's EINVAL are not affected.  For a
 * supervisor whose processes have descriptor tables of their own, which moves each
 * new uvfs descriptor to the number the kernel gave (uvfs-run): with the floor at or
 * above the process's RLIMIT_NOFILE, a descriptor between its open and its move can
 * never be on a number the kernel hands out meanwhile.  Returns the previous floor.
 */
unsigned int uvfs_set_fd_floor(unsigned int floor);

/*
 * uvfs_set_nowait - while on, an open by the calling thread that would wait (a fifo
 * opened for reading with no writer, or for writing with no reader, without
 * O_NONBLOCK; a file whose lease the open must break, without O_NONBLOCK), or a
 * uvfs_truncate a lease is in the way of, returns -UVFS_EWOULDWAIT having done
 * nothing: no reader or writer counted, no peer woken, no lease broken, no
 * descriptor taken.  For a supervisor that makes such a call again on a thread that
 * may wait (uvfs-run).  on: nonzero; returns the previous setting (0 or 1).
 */
#define UVFS_EWOULDWAIT 4000
int uvfs_set_nowait(int on);

/*
 * Credentials, as Linux keeps them for a process: real, effective, saved and filesystem
 * uids and gids, supplementary groups, and the effective, permitted and inheritable
 * capability sets (bit n is Linux's capability n, <linux/capability.h>; the bounding
 * set is full and not changeable, ambient capabilities and securebits are not
 * modelled).  A new task is root with every capability (0x1ffffffffff, CAP_LAST_CAP
 * 40) and no groups; a fork copies them.  Each call is the system call of its name,
 * with Linux's rules for who may set what (kernel/sys.c, security/commoncap.c): a
 * refused call changes nothing.  New files take the filesystem ids.  Every call:
 * -EINVAL for a NULL task.
 *
 * uvfs_setresuid / uvfs_setresgid - (uid_t)-1 keeps an id.  0 when nothing would
 *   change; EPERM: an id that is none of the current real, effective and saved ones,
 *   without CAP_SETUID (CAP_SETGID).  The filesystem id follows the effective one.
 * uvfs_setreuid / uvfs_setregid - EPERM as setreuid(2): a real id other than the real
 *   or effective one, an effective id other than the three, without the capability.
 *   The saved id becomes the effective one when the real one is set, or the effective
 *   one is set to other than the real one.
 * uvfs_setuid / uvfs_setgid - EINVAL for (uid_t)-1; with the capability all four ids,
 *   else the effective and filesystem ones, to the real or saved id (else EPERM).
 * uvfs_setfsuid / uvfs_setfsgid - return the old filesystem id (as an int, as the
 *   system call) and change it only to one of the real, effective, saved and current
 *   filesystem ids, or with the capability; (uid_t)-1 only asks.
 *   A uid change moves the capability sets as Linux does (cap_emulate_setxuid): having
 *   had uid 0 as real, effective or saved id and having it as none clears the permitted
 *   and effective sets; the effective uid leaving 0 clears the effective set, coming to
 *   0 sets it to the permitted one; the filesystem uid leaving 0 drops CAP_CHOWN,
 *   CAP_MKNOD, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER, CAP_FSETID,
 *   CAP_MAC_OVERRIDE and CAP_LINUX_IMMUTABLE from the effective set, coming back
 *   raises them from the permitted one.
 * uvfs_getresuid / uvfs_getresgid - EFAULT for a NULL pointer.
 * uvfs_setgroups - EINVAL (more than 65536, or a (gid_t)-1 in the list), EFAULT (list
 *   NULL with size > 0), ENOMEM, EPERM (no CAP_SETGID).  Kept sorted, as Linux keeps
 *   them, so uvfs_getgroups returns them in ascending order.
 * uvfs_getgroups - the number of groups; with size > 0 also copies them: EINVAL if
 *   size is negative or smaller than the number, EFAULT for list NULL.
 * uvfs_capget - EFAULT for caps NULL.
 * uvfs_capset - bits beyond CAP_LAST_CAP are ignored.  EFAULT for caps NULL; EPERM
 *   (in this order): an inheritable bit in neither the old inheritable nor the
 *   permitted set without CAP_SETPCAP; a permitted bit not in the old permitted set;
 *   an effective bit not in the new permitted set.
 * uvfs_task_setcreds - the embedder's override, never refused: all four uids and gids
 *   at once, and the capability sets a setresuid from root would leave (full for uid
 *   0, empty otherwise); the groups stay.  0.
 * uvfs_umask - the old mask; (mode_t)-1 for a NULL task.
 */
struct uvfs_caps {
	uint64_t effective, permitted, inheritable;
};
int uvfs_setresuid(struct uvfs_task *task, uid_t ruid, uid_t euid, uid_t suid);
int uvfs_setresgid(struct uvfs_task *task, gid_t rgid, gid_t egid, gid_t sgid);
int uvfs_setreuid(struct uvfs_task *task, uid_t ruid, uid_t euid);
int uvfs_setregid(struct uvfs_task *task, gid_t rgid, gid_t egid);
int uvfs_setuid(struct uvfs_task *task, uid_t uid);
int uvfs_setgid(struct uvfs_task *task, gid_t gid);
int uvfs_setfsuid(struct uvfs_task *task, uid_t fsuid);
int uvfs_setfsgid(struct uvfs_task *task, gid_t fsgid);
int uvfs_getresuid(struct uvfs_task *task, uid_t *ruid, uid_t *euid, uid_t *suid);
int uvfs_getresgid(struct uvfs_task *task, gid_t *rgid, gid_t *egid, gid_t *sgid);
int uvfs_setgroups(struct uvfs_task *task, size_t size, const gid_t *list);
int uvfs_getgroups(struct uvfs_task *task, int size, gid_t *list);
int uvfs_capget(struct uvfs_task *task, struct uvfs_caps *caps);
int uvfs_capset(struct uvfs_task *task, const struct uvfs_caps *caps);
int uvfs_task_setcreds(struct uvfs_task *task, uid_t uid, gid_t gid);

/*
 * uvfs_task_setcred - the embedder's override of every credential at once, never
 * refused: a runner copying what the kernel gave a real process (uvfs-run, after each
 * set*id and capset its program makes).  The four uids and gids, the effective,
 * permitted and inheritable capability sets (the bounding set stays), and the
 * supplementary groups (any order).  -EINVAL (task or c NULL, more than 65536
 * groups), -EFAULT (groups NULL with ngroups), -ENOMEM; on error nothing changed.
 */
struct uvfs_cred {
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
	struct uvfs_caps caps;
	size_t ngroups;
	const gid_t *groups;
};
int uvfs_task_setcred(struct uvfs_task *task, const struct uvfs_cred *c);
mode_t uvfs_umask(struct uvfs_task *task, mode_t mask);

/* ---------------------------------------------------------------------------------
 * Files
 */

/*
 * uvfs_openat - open or create a file.  Flags: O_RDONLY, O_WRONLY, O_RDWR, O_CREAT,
 * O_EXCL, O_TRUNC, O_APPEND, O_DIRECTORY, O_NOFOLLOW, O_PATH, O_TMPFILE, O_CLOEXEC,
 * O_NONBLOCK, O_ASYNC (kept for F_GETFL), O_DIRECT (tmpfs regular files only);
 * O_NOCTTY, O_NOATIME, O_LARGEFILE, O_SYNC, O_DSYNC are accepted and ignored (O_SYNC's
 * __O_SYNC bit alone implies O_DSYNC, as on Linux); bits Linux does not know are
 * dropped.  Returns the lowest free descriptor.
 * Errors, in order:
 *   EINVAL   O_TMPFILE without O_WRONLY or O_RDWR; O_TMPFILE with O_CREAT;
 *            O_CREAT|O_DIRECTORY (Linux 6.4+)
 *   path walk errors of the directories on the way
 *   EISDIR   O_CREAT and a trailing slash, the last component existing or not
 *   ENOENT   the last component is missing and no O_CREAT
 *   ENOSPC   creating beyond the inode limit
 *   EEXIST   O_CREAT|O_EXCL and the name exists (a dangling symlink too: never followed)
 *   ELOOP    too many symlinks; O_NOFOLLOW on a symlink (not with O_PATH)
 *   EISDIR   O_CREAT on an existing directory
 *   ENOTDIR  O_DIRECTORY (or a trailing slash) on a non-directory, O_TMPFILE on a
 *            non-directory
 *   EISDIR   a directory opened for writing, or with O_TRUNC
 *   ENXIO    a character or block device (uvfs has no drivers); a socket
 *   ETXTBSY  a regular file opened for writing while a task executes it
 *   ENXIO    a fifo opened O_WRONLY|O_NONBLOCK with no reader; EINVAL a fifo opened
 *            with O_ACCMODE (3)
 *   EINVAL   O_DIRECT on anything but a regular file of a memfs (directories, fifos,
 *            /proc), after the open
 *   EMFILE   no free descriptor below the task's limit
 *   ENOMEM
 */
int uvfs_openat(struct uvfs_task *task, int dirfd, const char *path, int flags,
		mode_t mode);

/*
 * uvfs_openat2 - openat2(2): how is a struct open_how of size bytes (the kernel's
 * layout: flags, mode, resolve, each 64 bits; a larger struct's extra bytes must be
 * zero).  Unlike uvfs_openat every argument is checked, and the walk can be
 * restricted: UVFS_RESOLVE_NO_XDEV (crossing a mount, either way, or jumping through a
 * magic link or an absolute symlink to another: EXDEV), UVFS_RESOLVE_NO_MAGICLINKS
 * (following a /proc magic link: ELOOP), UVFS_RESOLVE_NO_SYMLINKS (following any
 * symlink: ELOOP), UVFS_RESOLVE_BENEATH (an absolute path or symlink, ".." above
 * dirfd, a magic link: EXDEV), UVFS_RESOLVE_IN_ROOT (dirfd is the root: "/" and ".."
 * stop there; a magic link EXDEV), UVFS_RESOLVE_CACHED (answered by a full lookup:
 * uvfs never blocks on one).  The values are <linux/openat2.h>'s.
 * Errors, in order (then uvfs_openat's):
 *   EINVAL   size below 24 (OPEN_HOW_SIZE_VER0)
 *   E2BIG    size above 4096 (a page), or a nonzero byte past the struct uvfs knows
 *   EINVAL   unknown flags; unknown resolve bits; BENEATH with IN_ROOT; a mode with
 *            bits outside 07777, or any mode without O_CREAT or O_TMPFILE;
 *            O_CREAT|O_DIRECTORY; O_TMPFILE without write access; O_PATH with flags
 *            other than O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC
 *   EAGAIN   RESOLVE_CACHED with O_CREAT, O_TRUNC or O_TMPFILE
 *   EFAULT   how NULL
 */
struct uvfs_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define UVFS_RESOLVE_NO_XDEV       0x01
#define UVFS_RESOLVE_NO_MAGICLINKS 0x02
#define UVFS_RESOLVE_NO_SYMLINKS   0x04
#define UVFS_RESOLVE_BENEATH       0x08
#define UVFS_RESOLVE_IN_ROOT       0x10
#define UVFS_RESOLVE_CACHED        0x20
int uvfs_openat2(struct uvfs_task *task, int dirfd, const char *path,
		 const struct uvfs_open_how *how, size_t size);

/* uvfs_close - EBADF if fd is not open. */
int uvfs_close(struct uvfs_task *task, int fd);

/*
 * uvfs_read, uvfs_pread - EINVAL (pread: negative offset), EBADF (not open, O_PATH),
 * ESPIPE (pread on a fifo), EBADF (not open for reading), EISDIR (a directory),
 * EINVAL (no read: a directory's or a link's; the position + count beyond 2^63 - 1,
 * or count beyond SSIZE_MAX), EAGAIN
 * (an empty fifo with O_NONBLOCK or no writer: uvfs never blocks).  Returns the bytes
 * read, 0 at end of file.
 */
ssize_t uvfs_read(struct uvfs_task *task, int fd, void *buf, size_t count);
ssize_t uvfs_pread(struct uvfs_task *task, int fd, void *buf, size_t count, off_t offset);

/*
 * uvfs_write, uvfs_pwrite - EINVAL (pwrite: negative offset), EBADF (not open,
 * O_PATH), ESPIPE (pwrite on a fifo or a /proc fdinfo file), EBADF (not open for
 * writing), EINVAL (the position + count beyond 2^63 - 1, or count beyond SSIZE_MAX),
 * EFBIG (past the maximum file size), ENOSPC (byte limit: a short count if something
 * was written first).  O_APPEND writes at end of file; pwrite on an O_APPEND file also
 * appends (Linux's documented bug, kept); a write of 0 bytes moves nothing.
 */
ssize_t uvfs_write(struct uvfs_task *task, int fd, const void *buf, size_t count);
ssize_t uvfs_pwrite(struct uvfs_task *task, int fd, const void *buf, size_t count,
		    off_t offset);

/* uvfs_lseek - SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE.
 * EBADF, ESPIPE (fifo), EINVAL (bad whence or negative result; a memfs directory or
 * a /proc fdinfo file takes SEEK_SET and SEEK_CUR only), ENXIO (SEEK_DATA or
 * SEEK_HOLE at or past end of file; a /proc directory's size is 0). */
off_t uvfs_lseek(struct uvfs_task *task, int fd, off_t offset, int whence);

/* uvfs_ftruncate - EBADF (not open, O_PATH), EINVAL (negative length, not open for
 * writing, not a regular file), EFBIG, ENOSPC is never returned (sparse). */
int uvfs_ftruncate(struct uvfs_task *task, int fd, off_t length);

/* uvfs_fallocate - fallocate(2): EBADF (not open, O_PATH), EINVAL (negative offset,
 * length not above 0), EOPNOTSUPP (a mode Linux does not know, FALLOC_FL_PUNCH_HOLE
 * without FALLOC_FL_KEEP_SIZE, a mode tmpfs does not have: it has the allocation, with
 * or without FALLOC_FL_KEEP_SIZE, and FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE),
 * EBADF (not open for writing), EPERM (immutable), ESPIPE (a fifo), EISDIR, ENODEV
 * (not a regular file), EFBIG (offset + length overflows), ENOSPC (memfs's size limit:
 * nothing allocated).  On a host mount the host's answer.  Success sets mtime and
 * ctime and clears set-user-ID as a write does. */
int uvfs_fallocate(struct uvfs_task *task, int fd, int mode, off_t offset, off_t len);

/* uvfs_truncate - EINVAL (negative length), path walk errors (symlinks followed),
 * EISDIR (a directory), EINVAL (not a regular file), EFBIG. */
int uvfs_truncate(struct uvfs_task *task, const char *path, off_t length);

/* uvfs_fsync - EBADF; EINVAL where the file has no fsync (fifos, /proc); 0 otherwise
 * (memory is the medium). */
int uvfs_fsync(struct uvfs_task *task, int fd);

/* ---------------------------------------------------------------------------------
 * Namespace operations
 */

/*
 * uvfs_renameat2 - rename, exchange, or rename leaving a whiteout.
 * flags: 0, RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT (NOREPLACE|WHITEOUT is
 * allowed).  Errors, in order (docs/SEMANTICS.md, "rename"):
 *   EINVAL   unknown flags; EXCHANGE with NOREPLACE or WHITEOUT; EXCHANGE under the
 *            linux-3.14 personality (no cross-rename before 3.15)
 *   path walk errors of both parents (old first)
 *   EXDEV    the two names are on different mounts
 *   EBUSY    old ends in ".", ".." or is "/"
 *   EEXIST   new ends in ".", ".." or is "/" and NOREPLACE; else EBUSY
 *   ENOENT   old is missing
 *   EEXIST   NOREPLACE and new exists
 *   ENOENT   EXCHANGE and new is missing
 *   ENOTDIR  EXCHANGE, new is not a directory but was written with a trailing slash
 *   ENOTDIR  old is not a directory and old (or, unless EXCHANGE, new) has a trailing slash
 *   EINVAL   old is an ancestor of new
 *   ENOTEMPTY new is an ancestor of old (EINVAL with EXCHANGE)
 *   ENOENT   a parent directory was removed
 *   (old and new are the same inode: success, nothing changes)
 *   ENOTDIR  old is a directory and new is not (not with EXCHANGE: types may differ)
 *   EISDIR   old is not a directory and new is (likewise)
 *   EBUSY    old or new is a mountpoint
 *   ENOTEMPTY new is a non-empty directory (plain rename)
 *   ENOSPC   WHITEOUT beyond the inode limit;  ENOMEM
 */
int uvfs_renameat2(struct uvfs_task *task, int olddirfd, const char *oldpath,
		   int newdirfd, const char *newpath, unsigned int flags);

/*
 * uvfs_unlinkat - flags 0 (unlink) or AT_REMOVEDIR (rmdir).
 *   EINVAL   other flags
 *   path walk errors of the parent
 *   unlink:  EISDIR  last component ".", ".." or "/";  ENOENT missing;  EISDIR (trailing
 *            slash on a directory) / ENOTDIR (trailing slash on anything else);
 *            EISDIR a directory;  EBUSY a mountpoint
 *   rmdir:   ENOTEMPTY "..";  EINVAL ".";  EBUSY "/";  ENOENT missing;  ENOTDIR not a
 *            directory;  EBUSY a mountpoint or a filesystem root;  ENOTEMPTY not empty
 */
int uvfs_unlinkat(struct uvfs_task *task, int dirfd, const char *path, int flags);

/*
 * uvfs_mkdirat, uvfs_mknodat, uvfs_symlinkat - create a name.  Shared errors, in order:
 *   path walk errors of the parent
 *   EEXIST   the last component is ".", ".." or "/"
 *   ENAMETOOLONG the last component is longer than NAME_MAX
 *   EEXIST   the name exists (a dangling symlink included: never followed)
 *   ENOENT   (mknodat, symlinkat) a trailing slash on a new name: "you asked for a
 *            directory"
 *   ENOENT   the parent directory was removed
 *   ENOSPC   the inode limit (symlinkat: also the byte limit for bodies of 128
 *            bytes or more);  ENOMEM
 * uvfs_mknodat: EINVAL for a mode that is not S_IFREG (or 0), S_IFIFO, S_IFCHR, S_IFBLK,
 * S_IFSOCK or a directory (EPERM for S_IFDIR), checked before the walk.  A device
 * number is kept only for S_IFCHR and S_IFBLK.
 * uvfs_symlinkat: ENOENT for an empty target, ENAMETOOLONG for a target of PATH_MAX
 * bytes or more, both before the walk.
 */
int uvfs_mkdirat(struct uvfs_task *task, int dirfd, const char *path, mode_t mode);
int uvfs_mknodat(struct uvfs_task *task, int dirfd, const char *path, mode_t mode,
		 dev_t dev);
int uvfs_symlinkat(struct uvfs_task *task, const char *target, int newdirfd,
		   const char *linkpath);

/*
 * Unix sockets with a path (net/unix/af_unix.c: unix_bind_bsd, unix_find_bsd).  uvfs
 * keeps the socket file; the socket itself is the kernel's, and the embedder binds
 * it where uvfs says.
 *
 * uvfs_unix_bind - bind(2)'s socket file: path made as uvfs_mknodat() makes it, with
 * mode S_IFSOCK | (0777 & ~umask) and the caller's owner, EADDRINUSE where the name
 * exists (unix_bind's answer for EEXIST); the other errors of uvfs_mknodat(), in its
 * order.  After every check passed, and before the name exists, uvfs calls
 * bind(arg, host_dirfd, name): on a host mount host_dirfd is the host directory the
 * name goes in (the embedder binds its socket there as name, so that programs
 * outside see it); in memfs it is -1 and the embedder binds its socket wherever it
 * likes.  bind returns an O_PATH descriptor of the socket file it made, which uvfs
 * then owns (closed when the inode goes), or -errno, which uvfs_unix_bind returns
 * with nothing created.  bind runs under uvfs's namespace lock: it may not call uvfs.
 * A NULL bind makes the file alone (an inode no one listens on, as mknod(S_IFSOCK)).
 */
typedef int (*uvfs_unix_bind_fn)(void *arg, int host_dirfd, const char *name);
int uvfs_unix_bind(struct uvfs_task *task, int dirfd, const char *path,
		   uvfs_unix_bind_fn bind, void *arg);

/*
 * uvfs_unix_find - connect(2)'s and sendto(2)'s lookup of path: the walk (symlinks
 * followed), write permission on the socket file (EACCES), ECONNREFUSED for a file
 * that is not a socket or that has no kernel socket behind it (made by mknod, or
 * bound outside uvfs_unix_bind); the access time as a read touches it.  Returns an
 * O_PATH descriptor of the kernel's socket file, the caller's to close: the embedder
 * connects through /proc/self/fd/N of it.
 */
int uvfs_unix_find(struct uvfs_task *task, int dirfd, const char *path);

/*
 * uvfs_readlinkat - copies the link body, no NUL, truncated to bufsiz.
 *   EINVAL   bufsiz <= 0
 *   path walk errors (the last component not followed; AT_EMPTY_PATH is implied for
 *            an empty path with a dirfd, as Linux does since 2.6.39)
 *   EINVAL   not a symlink
 */
ssize_t uvfs_readlinkat(struct uvfs_task *task, int dirfd, const char *path, char *buf,
			size_t bufsiz);

/*
 * uvfs_linkat - flags AT_SYMLINK_FOLLOW, AT_EMPTY_PATH.
 *   EINVAL   other flags
 *   path walk errors of the old name (followed only with AT_SYMLINK_FOLLOW or a
 *            trailing slash; empty with AT_EMPTY_PATH means olddirfd itself)
 *   the errors of creating new, as uvfs_mknodat: EEXIST for ".", "..", "/" or an
 *            existing name, ENOENT for a trailing slash or a removed directory
 *   EXDEV    different mounts
 *   EPERM    old is a directory
 *   ENOENT   old has no links left and is not an O_TMPFILE file opened without O_EXCL
 *   EMLINK   too many links (never on tmpfs)
 */
int uvfs_linkat(struct uvfs_task *task, int olddirfd, const char *oldpath, int newdirfd,
		const char *newpath, int flags);

/*
 * uvfs_fstatat - flags AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_NO_AUTOMOUNT (ignored).
 * AT_EMPTY_PATH with an empty or NULL path and a descriptor (>= 0) is uvfs_fstat,
 * whatever the other flags (Linux 6.11+); otherwise, in order:
 *   EINVAL   other flags
 *   path walk errors (empty path with AT_EMPTY_PATH: dirfd itself, AT_FDCWD the cwd)
 * st_dev is the filesystem's, st_ino the inode number (the root of a filesystem is 1),
 * st_blksize 4096, st_blocks 512-byte units of pages actually allocated.
 */
int uvfs_fstatat(struct uvfs_task *task, int dirfd, const char *path, struct stat *st,
		 int flags);

/*
 * uvfs_statx - statx(2): the stat fields, the mount's id (STATX_MNT_ID, or with
 * STATX_MNT_ID_UNIQUE asked for the never-reused 64-bit one mountinfo's order
 * follows), STATX_ATTR_MOUNT_ROOT for a mount's root, and what the filesystem adds:
 * memfs as tmpfs (attributes mask immutable, append and nodump; mtime and ctime left
 * out of the result, and the times not marked seen, when neither is asked for --
 * multigrain timestamps), a host directory the host's btime and attributes.  memfs
 * has no birth time: STATX_BTIME is never in its result (tmpfs has one; a deliberate
 * difference, docs/SEMANTICS.md).  Flags as uvfs_fstatat's, and AT_STATX_SYNC_AS_STAT,
 * AT_STATX_FORCE_SYNC, AT_STATX_DONT_SYNC (nothing to sync).  Errors, in order:
 * EINVAL (STATX__RESERVED in mask; both sync flags; an unknown flag), the walk's,
 * EBADF (AT_EMPTY_PATH on a descriptor not open), EFAULT (buf NULL).
 */
struct statx;  /* <sys/stat.h> with _GNU_SOURCE, or <linux/stat.h> */
int uvfs_statx(struct uvfs_task *task, int dirfd, const char *path, int flags,
	       unsigned int mask, struct statx *buf);

/*
 * uvfs_name_to_handle_at - name_to_handle_at(2): a handle of the file path names
 * (struct file_handle from <fcntl.h>; handle_bytes says its room), and the id of
 * its mount in *mount_id -- an int, or with AT_HANDLE_MNT_ID_UNIQUE a uint64_t, the
 * unique id.  memfs makes tmpfs's handles (type 1, 12 bytes: the inode's generation
 * and number), which survive a rename and go stale with the inode; procfs and host
 * directories make none (EOPNOTSUPP) but a fid, AT_HANDLE_FID (type 0x81: number and
 * generation, not to be opened).  Flags: AT_SYMLINK_FOLLOW, AT_EMPTY_PATH,
 * AT_HANDLE_FID, AT_HANDLE_MNT_ID_UNIQUE (0x1), AT_HANDLE_CONNECTABLE (0x2: nothing
 * in uvfs makes one, EOPNOTSUPP as on tmpfs).  Errors, in order: EINVAL (an unknown
 * flag; CONNECTABLE with FID or EMPTY_PATH), the walk's, EOPNOTSUPP, EFAULT (handle
 * NULL), EINVAL (handle_bytes above MAX_HANDLE_SZ), EFAULT (mount_id NULL),
 * EOVERFLOW (handle_bytes too small: set to what is needed, handle_type 255, the
 * mount id written).
 */
struct file_handle;  /* <fcntl.h> with _GNU_SOURCE */
int uvfs_name_to_handle_at(struct uvfs_task *task, int dirfd, const char *path,
			   struct file_handle *handle, void *mount_id, int flags);

/*
 * uvfs_open_by_handle_at - open_by_handle_at(2): a new descriptor of the file handle
 * names on the mount of mount_fd (a descriptor, or AT_FDCWD: the cwd's), opened with
 * open(2)'s flags as if the file had been walked to (O_PATH; O_TMPFILE in a
 * directory; a symlink ELOOP without O_PATH).  The path it shows is the inode's
 * name now, " (deleted)" once removed.  Needs CAP_DAC_READ_SEARCH.  Errors, in order:
 * EBADF (mount_fd), EPERM, EFAULT (handle NULL), EINVAL (handle_bytes 0 or above
 * MAX_HANDLE_SZ, a negative type or unknown type flags), ESTALE (a mount whose
 * filesystem makes no handles, a short handle, an inode that is gone), then the
 * open's (EMFILE, ENOTDIR, EISDIR, EEXIST, EACCES...).
 */
int uvfs_open_by_handle_at(struct uvfs_task *task, int mount_fd, struct file_handle *handle,
			   int flags);
/*
 * inotify(7), answered by uvfs for its own changes (fsnotify's shape: a group per
 * descriptor, marks on inodes, a queue of events).  The events are the kernel's, in
 * its order, with the name a child has in the watched directory at the time:
 * IN_CREATE, IN_DELETE, IN_MOVED_FROM/IN_MOVED_TO with one cookie, IN_MODIFY,
 * IN_ATTRIB, IN_OPEN, IN_ACCESS, IN_CLOSE_WRITE/NOWRITE, IN_DELETE_SELF,
 * IN_MOVE_SELF, IN_UNMOUNT, IN_IGNORED, IN_Q_OVERFLOW; equal events in a row merge
 * while unread.  Changes a host process makes to a host directory (hostfs) are not
 * seen.  The descriptor reads with read(2)'s uvfs_read (whole events; EINVAL when
 * the buffer cannot take the first; EAGAIN with IN_NONBLOCK, else it waits), and
 * shows "anon_inode:inotify" in /proc/PID/fd.
 *
 * uvfs_inotify_init1 - EINVAL (flags but IN_CLOEXEC, IN_NONBLOCK), EMFILE, ENOMEM.
 * uvfs_inotify_add_watch - the watch descriptor (the same for a second call on the
 *   same inode: the mask replaced, or or-ed with IN_MASK_ADD); EINVAL (IN_MASK_ADD
 *   with IN_MASK_CREATE, no known bit, fd not an inotify descriptor), EBADF, the
 *   walk's errors (IN_DONT_FOLLOW, IN_ONLYDIR: ENOTDIR), EACCES (no read
 *   permission), EEXIST (IN_MASK_CREATE on a watched inode).
 * uvfs_inotify_rm_watch - EBADF, EINVAL (not inotify, no such watch); queues
 *   IN_IGNORED.
 */
int uvfs_inotify_init1(struct uvfs_task *task, int flags);
int uvfs_inotify_add_watch(struct uvfs_task *task, int fd, const char *path, uint32_t mask);
int uvfs_inotify_rm_watch(struct uvfs_task *task, int fd, int wd);
/* uvfs_dnotify_take - a signal fcntl(F_NOTIFY) owes (dnotify: a directory's entry
 * changed), or a lease's break (F_SETLEASE: uvfs_fcntl), oldest first: 1 with the
 * pid of the process that asked and the descriptor it named, 0 when none is due.
 * uvfs has no signals: the embedder sends SIGIO, or the signal F_SETSIG gave the
 * file (with si_fd), as the kernel's send_sigio() would.  A break is owed while the
 * opener waits (in another thread): an embedder whose callers wait asks meanwhile
 * too.  Cheap when no F_NOTIFY or lease was ever made. */
int uvfs_dnotify_take(struct uvfs *fs, int *pid, int *fd);
/* uvfs_dnotify_take_at - the same, and where the file the signal is about is now: a
 * process (*at_pid) and its number (*at_fd) that hold it -- fd itself while it does;
 * another after a lease holder's dup2 and close -- or -1 and -1 when nobody holds it
 * at a number.  The kernel signals with the file's F_SETSIG whatever number holds
 * it; fd is only its si_fd (the number F_SETLEASE or F_NOTIFY named). */
int uvfs_dnotify_take_at(struct uvfs *fs, int *pid, int *fd, int *at_pid, int *at_fd);
/* uvfs_ioctl - do_vfs_ioctl()'s calls uvfs answers, arg the caller's copy of what the
 * program's argument points at (NULL where that faults: EFAULT):
 *   FIONREAD (an int): an inotify descriptor's queued bytes, a regular file's bytes
 *     after the position;
 *   FS_IOC_GETFLAGS, FS_IOC_SETFLAGS (an int of FS_*_FL), FS_IOC_FSGETXATTR,
 *     FS_IOC_FSSETXATTR (a struct fsxattr): a memfs file's or directory's attributes
 *     (immutable, append-only, nodump, noatime, as tmpfs keeps them), set by the
 *     owner, +i and +a with CAP_LINUX_IMMUTABLE (EPERM), EROFS, EOPNOTSUPP for what
 *     memfs does not keep, ENOTTY on a filesystem that keeps none;
 * ENOTTY for anything else, EBADF (an O_PATH descriptor too), EINVAL (task NULL). */
int uvfs_ioctl(struct uvfs_task *task, int fd, unsigned long cmd, void *arg);
/* uvfs_fileattr_get, uvfs_fileattr_set - file_getattr(2)/file_setattr(2) of the file
 * a descriptor (O_PATH too) names, in struct fsxattr's layout (28 bytes): the
 * attributes FS_IOC_FSGETXATTR/FSSETXATTR give and take, the same checks; a
 * filesystem that keeps none EOPNOTSUPP; EBADF, EINVAL (task or fsxattr NULL). */
int uvfs_fileattr_get(struct uvfs_task *task, int fd, void *fsxattr);
int uvfs_fileattr_set(struct uvfs_task *task, int fd, const void *fsxattr);
/*
 * uvfs_setxattrat, uvfs_getxattrat, uvfs_listxattrat, uvfs_removexattrat - extended
 * attributes: setxattrat(2) and its family (Linux 6.13), which stand for the older
 * calls too -- setxattr is at_flags 0, lsetxattr AT_SYMLINK_NOFOLLOW, fsetxattr
 * AT_EMPTY_PATH with path "" or NULL (a descriptor opened O_PATH is EBADF then, as
 * the kernel takes it with fdget(); AT_FDCWD is the working directory).  memfs
 * keeps user.* (regular files and directories), trusted.* (CAP_SYS_ADMIN) and
 * security.* as tmpfs does, security.capability checked and converted as the
 * kernel's capability module does and removed by a write, truncate or chown; a host
 * mount's are the host file's; procfs keeps none (EOPNOTSUPP).  The checks in the
 * kernel's order: at_flags and flags (EINVAL), the name (ERANGE: empty or longer than
 * 255 bytes), the value (E2BIG past 65536 bytes), the walk's errors, EROFS,
 * xattr_permission() (EPERM, EACCES), the name's namespace (EOPNOTSUPP; a bare
 * prefix EINVAL), then XATTR_CREATE (EEXIST), XATTR_REPLACE and removal (ENODATA),
 * ENOSPC (tmpfs's inode space, nr_inodes), ENOMEM with nothing changed.
 * uvfs_getxattrat and uvfs_listxattrat return the length, copying into the buffer
 * when size is not 0 (ERANGE when it is short, E2BIG when even 65536 bytes are);
 * the list is NUL-separated names, trusted.* for CAP_SYS_ADMIN only.  POSIX ACLs are
 * not kept (a deliberate difference): system.posix_acl_access that says no more
 * than the mode is a chmod, as the kernel stores it; any other ACL EOPNOTSUPP; one
 * reads ENODATA and removing one succeeds.
 */
int uvfs_setxattrat(struct uvfs_task *task, int dirfd, const char *path, int at_flags,
		    const char *name, const void *value, size_t size, int flags);
ssize_t uvfs_getxattrat(struct uvfs_task *task, int dirfd, const char *path, int at_flags,
			const char *name, void *value, size_t size);
ssize_t uvfs_listxattrat(struct uvfs_task *task, int dirfd, const char *path, int at_flags,
			 char *list, size_t size);
int uvfs_removexattrat(struct uvfs_task *task, int dirfd, const char *path, int at_flags,
		       const char *name);
/* uvfs_inotify_pollfd - a host descriptor (an eventfd) readable while the inotify
 * descriptor fd has events queued, for poll/select/epoll; uvfs keeps it so and closes
 * it with the inotify file's last reference (the caller must not close it; a dup of
 * it is the caller's).  EBADF, EINVAL (not inotify), or the eventfd's errno. */
int uvfs_inotify_pollfd(struct uvfs_task *task, int fd);

/* uvfs_fstat - EBADF (not open; O_PATH descriptors work, as on Linux), EFAULT (st
 * NULL). */
int uvfs_fstat(struct uvfs_task *task, int fd, struct stat *st);

/*
 * uvfs_getdents64 - fill buf with struct linux_dirent64 records (d_ino u64, d_off s64,
 * d_reclen u16, d_type u8, d_name NUL-terminated, reclen 8-aligned).  ".", ".." first,
 * then entries newest first (tmpfs 6.14+ order: the directory's list of children).
 *   EBADF (not open, O_PATH), ENOTDIR (not a directory), ENOENT (the directory was
 *   removed; a /proc/PID directory whose task has exited), EINVAL (buf too small for
 *   the next entry; count is taken as the system call takes it, an unsigned int kept in
 *   an int, so 2^31 and more is EINVAL when an entry is due).  Returns bytes filled, 0 at
 *   end.
 */
ssize_t uvfs_getdents64(struct uvfs_task *task, int fd, void *buf, size_t count);

/*
 * uvfs_getcwd - the raw syscall: returns the length including the NUL.
 *   ENOENT   the cwd was removed (a /proc/PID whose task exited too);
 *   ENAMETOOLONG path > PATH_MAX;  ERANGE  size too small;  EFAULT  buf NULL.
 * A cwd outside the task's root is printed as "(unreachable)/path", as Linux does.
 */
int uvfs_getcwd(struct uvfs_task *task, char *buf, size_t size);
/* uvfs_chdir - follows symlinks.  Errors, in order: EFAULT (path NULL), ENAMETOOLONG
 * (PATH_MAX or more), ENOENT (empty path), then the path walk's (ENOENT, ENOTDIR,
 * ELOOP, ENAMETOOLONG of a component, ESRCH in an exited task's /proc/PID), ENOTDIR
 * (not a directory). */
int uvfs_chdir(struct uvfs_task *task, const char *path);
/* uvfs_fchdir - EBADF, ENOTDIR, EACCES (no search permission).  O_PATH descriptors
 * are accepted, as on Linux. */
int uvfs_fchdir(struct uvfs_task *task, int fd);

/*
 * uvfs_faccessat2 - may the task read, write or execute path (mode: F_OK, or R_OK,
 * W_OK, X_OK or'ed)?  Asked, walk included, with the real uid and gid (and, for a
 * real uid other than 0, no capabilities; for 0, the permitted set), unless flags has
 * AT_EACCESS; also AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH.  Root's X_OK on a regular
 * file needs an x bit somewhere.  Errors in order: EINVAL (mode or flags), the path
 * walk's (EACCES among them), EACCES.
 */
int uvfs_faccessat2(struct uvfs_task *task, int dirfd, const char *path, int mode, int flags);

/* Attributes.  fchmodat: flags 0 (AT_SYMLINK_NOFOLLOW → EOPNOTSUPP on a symlink,
 * as fchmodat2 does); fchownat: AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH; -1 keeps an id. */
int uvfs_fchmodat(struct uvfs_task *task, int dirfd, const char *path, mode_t mode,
		  int flags);
int uvfs_fchownat(struct uvfs_task *task, int dirfd, const char *path, uid_t owner,
		  gid_t group, int flags);
/* utimensat - times NULL: both now; tv_nsec UTIME_NOW / UTIME_OMIT; flags
 * AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH.  EINVAL: bad flags or tv_nsec out of range.
 * path == NULL operates on dirfd (the futimens form; EBADF for an O_PATH descriptor).
 * EPERM (chmod, chown to an owner, utimensat) on /proc entries as Linux refuses them:
 * a mode below /proc, anything on /proc/PID. */
int uvfs_utimensat(struct uvfs_task *task, int dirfd, const char *path,
		   const struct timespec times[2], int flags);

/* ---------------------------------------------------------------------------------
 * Descriptors
 */

/* uvfs_dup - EBADF, EMFILE. */
int uvfs_dup(struct uvfs_task *task, int oldfd);
/* uvfs_dup3 - flags 0 or O_CLOEXEC.  EINVAL (other flags, or oldfd == newfd), EBADF
 * (oldfd not open, newfd negative or >= the limit).  An open newfd is closed first. */
int uvfs_dup3(struct uvfs_task *task, int oldfd, int newfd, int flags);
/* uvfs_fcntl - F_DUPFD, F_DUPFD_CLOEXEC (arg taken as an int: EINVAL for a negative
 * one or one >= the limit, EMFILE), F_GETFD, F_SETFD (FD_CLOEXEC), F_GETFL (access
 * mode | O_APPEND, O_NONBLOCK, O_PATH, O_DIRECTORY...; O_LARGEFILE as on 64-bit Linux),
 * F_SETFL (O_APPEND, O_NONBLOCK, O_DIRECT, O_NOATIME; O_ASYNC on fifos only; EINVAL
 * for O_DIRECT where the file cannot take it; EPERM for O_NOATIME from neither the
 * owner nor CAP_FOWNER), F_CREATED_QUERY (1028, Linux 6.12: 1 when the open that made
 * the descriptor's file description created the file, else 0; dup'd descriptors share
 * it), F_NOTIFY, F_SETSIG, F_GETSIG, and leases:
 *   F_SETLEASE (arg F_RDLCK, F_WRLCK, F_UNLCK, as an int; fs/locks.c's rules): a lease
 *   belongs to the file description; a read lease needs a file nobody has open for
 *   writing, a write lease a file only this description has open (EAGAIN, also for a
 *   write lease while another description holds one, or any lease while another's
 *   is being broken for a writer); F_UNLCK of none is EAGAIN; EINVAL for another
 *   type (first) and for a file that is not regular; EACCES for a caller neither
 *   the file's owner nor with CAP_LEASE.  Taking one makes the caller the process
 *   told of its break, about this descriptor (uvfs_dnotify_take); giving it up
 *   (F_UNLCK) clears F_SETSIG's signal, as the kernel's lease_modify() does.
 *   F_GETLEASE: F_RDLCK, F_WRLCK or F_UNLCK -- what a pending break will leave.
 *   A lease is broken by an open of the file (uvfs_openat and the like: one for
 *   reading breaks a write lease to a read lease, one for writing any lease) and
 *   by uvfs_truncate: the holder is told, and the call waits (ns_lock given up) until
 *   no lease is in its way -- its holder gave it up or down, closed its file, or
 *   lease-break-time passed (uvfs_set_lease_break_time) -- or returns EWOULDBLOCK at
 *   once for an O_NONBLOCK open, or -UVFS_ERESTARTSYS when the thread's uvfs_intr
 *   is raised; under uvfs_set_nowait(), -UVFS_EWOULDWAIT with nothing done.
 * EBADF; EBADF for all but F_DUPFD*, F_GETFD, F_SETFD, F_GETFL, F_CREATED_QUERY on
 * O_PATH; EINVAL for unknown commands. */
int uvfs_fcntl(struct uvfs_task *task, int fd, int cmd, long arg);
/* uvfs_lease_lost_take - a lease the break time took away (its holder did not give it
 * up within lease-break-time), oldest first: 1 with a process and a descriptor of it
 * that hold the lease's file -- the holder's number F_SETLEASE named while it does,
 * else another (a dup2 and a close since; a descriptor passed to another process) --
 * 0 when none is due, -EINVAL (an argument NULL).  The kernel's lease_modify() then
 * clears the file's owner (F_SETOWN) and F_SETSIG's signal -- uvfs clears its
 * F_SETSIG; an embedder that keeps them on a kernel object of its own (uvfs-run: the
 * stand-in) clears them there.  None when no number holds the file; the newest 1024
 * kept for an embedder that never asks.  Cheap when none is due. */
int uvfs_lease_lost_take(struct uvfs *fs, int *pid, int *fd);
/* uvfs_set_lease_break_time - how long an open or truncate waits for a lease's
 * holder before the lease is taken away (given up, or given down to a read lease for
 * a reader): fs.lease-break-time, in seconds; 0 or less: for ever.  An instance
 * starts with the host's /proc/sys/fs/lease-break-time (45 where unreadable).
 * 0, or -EINVAL for fs NULL. */
int uvfs_set_lease_break_time(struct uvfs *fs, int seconds);

/* uvfs_leases - the instance's leases, for /proc/locks' LEASE lines (the kernel's
 * lock_get_status(): "N: LEASE  ACTIVE    READ PID MAJ:MIN:INO 0 EOF", BREAKING while a
 * break is under way), each followed by the opens waiting on it for the break
 * (waiter: "N: -> LEASE  BREAKER   WRITE PID <none>:0 0 EOF", under the first lease
 * of the file, as the kernel blocks them): up to n of them into v, newest lease
 * first, its waiters as locks_show() walks them; the number there are (more than n: call
 * again with more room), or -EINVAL (fs NULL, n negative, v NULL with n > 0).  uvfs's
 * /proc/locks is the embedder's (uvfs_set_proc_source): uvfs-run adds these lines to
 * the kernel's, which has none of uvfs's leases. */
struct uvfs_lease_info {
	int pid;          /* the process that took it (its process id in uvfs); a
			   * waiter's: the process whose open waits */
	int type;         /* F_RDLCK or F_WRLCK; while breaking, what it is to become:
			   * F_UNLCK, or F_RDLCK (a write lease given down to a reader);
			   * a waiter's: F_WRLCK for an open for writing, else F_RDLCK */
	int breaking;     /* 1 while a break is under way */
	dev_t dev;        /* the file, as uvfs's stat(2) gives it (a waiter: 0) */
	ino_t ino;
	int waiter;       /* added in 0.1 after ino: not 0 for an open waiting on
			   * the lease before it, not a lease: its depth in the kernel's
			   * tree of them -- 1 blocked on the lease, 2 on the waiter
			   * before it at depth 1 that it conflicts with (either
			   * writes), and so on ("-> ", then " -> "...) */
};
int uvfs_leases(struct uvfs *fs, struct uvfs_lease_info *v, int n);

/*
 * An open file description held by the embedder, to give another task the same open
 * file -- a descriptor passed with SCM_RIGHTS or taken with pidfd_getfd(2) is the
 * sender's file, its offset and access mode and all (the kernel's receive_fd()).
 *
 * uvfs_fget - the file open on fd, with a reference of the caller's own: it stays
 *   open (its data, its ->release not yet run) until uvfs_fput(), whatever the task
 *   closes meanwhile.  NULL when task is NULL or fd is not open.
 * uvfs_fd_install - the file at exactly newfd of task (an open newfd is closed first,
 *   as dup3 does), with O_CLOEXEC in flags or 0; the caller keeps its reference.
 *   Returns newfd, or -EINVAL (task or file NULL, other flags), -EXDEV (a file of
 *   another instance), -EBADF (newfd negative or >= the limit), -EBUSY (an open still
 *   running has the number), -ENOMEM; nothing changed then.
 * uvfs_fput - the reference given back; the last one closes the file as the last
 *   close(2) of it would.  NULL is ignored.
 */
struct uvfs_file;
struct uvfs_file *uvfs_fget(struct uvfs_task *task, int fd);
int uvfs_fd_install(struct uvfs_task *task, int newfd, struct uvfs_file *file, int flags);
void uvfs_fput(struct uvfs_file *file);

/*
 * uvfs_break_lease - the lease break an open with flags (O_RDONLY, O_WRONLY or O_RDWR,
 * and O_NONBLOCK) of file's inode makes, for an open that is not uvfs's to make: an
 * exec's (do_open_execat() opens the file for reading: a write lease goes down to a
 * read lease, and the exec waits for the holder, as Linux's does) -- uvfs_task_exec()
 * makes none, being the exec's point of no return.  The caller counts as such an
 * opener while it waits.  0; -EINVAL (task or file NULL, other flags); -ETXTBSY (a
 * writer of a running executable); else as an open's break (uvfs_fcntl, F_SETLEASE):
 * -EWOULDBLOCK with O_NONBLOCK, -UVFS_ERESTARTSYS, -UVFS_EWOULDWAIT under
 * uvfs_set_nowait().
 */
int uvfs_break_lease(struct uvfs_task *task, struct uvfs_file *file, int flags);

/*
 * uvfs_chroot - the task's root becomes path (a directory); the cwd stays where it is,
 * as chroot(2) leaves it.  Path walk errors (symlinks followed), ENOTDIR, EACCES (no
 * search permission on it), then EPERM (no CAP_SYS_CHROOT).
 */
int uvfs_chroot(struct uvfs_task *task, const char *path);

/*
 * uvfs_host_fd - an O_PATH host descriptor of the file open on fd, when it lives on a
 * host mount.  It belongs to uvfs and stays valid until fd is closed (do not close
 * it); a runner reopens it through /proc/PID/fd so that the kernel maps or executes
 * the real file (uvfs-run).  -EINVAL (task NULL), -EBADF, -EXDEV: not on a host
 * mount.
 */
int uvfs_host_fd(struct uvfs_task *task, int fd);

/*
 * uvfs_memfd - the host memory file (memfd) that holds the data of the regular memfs
 * file open on fd, in an instance made with UVFS_MEMFD.  The first call for a file
 * moves its data there; from then on uvfs reads and writes that memfd, and whatever
 * the kernel does to it (a shared mapping's stores, a lock) is the file's.  It belongs
 * to uvfs and stays valid until fd's open file description is closed (do not close it;
 * a runner reopens it through /proc/self/fd/N with the access mode it wants).  When
 * the last description that asked for it is closed, the data goes back to uvfs's
 * memory unless the kernel still has it mapped shared and writable.  An O_PATH file
 * (an exec's) keeps it as any other does.  The data stays
 * counted against the filesystem's size limit either way.
 * -EINVAL (task NULL), -EBADF (not open), -EXDEV (not a regular file of
 * memfs, or no UVFS_MEMFD), -EMFILE, -ENFILE, -ENOMEM (the memfd could not be made
 * or filled: nothing changed).
 */
int uvfs_memfd(struct uvfs_task *task, int fd);

/*
 * uvfs_memfd_name - what /proc/PID/maps names a mapping of a memfd uvfs_memfd()
 * handed out, given the device and inode the kernel's maps shows for it: the path of
 * the file it was handed for, as task sees it from its root (d_path: " (deleted)"
 * once that name is unlinked, in the instance's era), into buf as readlink does (no
 * NUL, truncated to bufsiz); and, st not NULL, that file's stat (its device and
 * inode as uvfs numbers them).  The oldest open file's name while one is open; after
 * the last is closed (a mapping outlives its descriptor: a library dlopen has
 * closed), that file's name for as long as the name lasts -- renamed with it,
 * forgotten when it is removed (the kernel would say "NAME (deleted)") -- for the
 * newest 1024 closed memfds of each filesystem.  The length, or -EINVAL (task NULL,
 * bufsiz 0), -ENOENT (no such memfd known, its name gone), -ENAMETOOLONG.
 */
ssize_t uvfs_memfd_name(struct uvfs_task *task, uint64_t kdev, uint64_t kino, char *buf,
			size_t bufsiz, struct stat *st);

/*
 * uvfs_standin - the embedder's kernel object that stands for the file open on fd in
 * its program (a runner installs one at each uvfs descriptor's number) when the file
 * has no kernel object of its own -- a memfs directory, a memfs regular file (one the
 * runner gives no memfd: uvfs_memfd), a fifo (memfs's or a host mount's), a procfs
 * file or directory -- one per inode, as Linux keeps its locks (/proc/self/stat
 * opened twice is one, /proc/self/status another): the first call while none is kept
 * calls make(arg), under uvfs's lock (it must not call uvfs), and keeps the
 * descriptor it returns for the inode; every open file of it handed the object holds
 * it, and the last of them to close closes it.  So the kernel's flock and POSIX locks
 * on reopens of it are per file, as on Linux, while one nobody has open costs the
 * embedder no descriptor (uvfs-run makes an empty directory of the kernel's for a
 * directory and removes it once open: flock works on it, mmap is ENODEV as for a
 * directory; for the others a null-device node of its own, removed once open: poll
 * and mmap answer as the null device answers).  Valid until fd's open file is closed
 * (do not close it).  The descriptor, or -EINVAL (task or make NULL), -EBADF, -EXDEV
 * (none of those kinds, or an O_PATH file), -ENOMEM, or make's -errno (nothing kept).
 */
int uvfs_standin(struct uvfs_task *task, int fd, int (*make)(void *arg), void *arg);

/*
 * uvfs_task_exec - what execve(2) does to the namespace; no program runs.  Resolves
 * path (symlinks followed), checks that the file is in a format the kernel could
 * run, pins it as the task's executable (/proc/PID/exe), and closes the O_CLOEXEC
 * descriptors.  While the task runs it (until it execs another or exits; a fork's
 * child too), opening it for writing is ETXTBSY.  The format: the file's first bytes,
 * read without asking read permission (the atime is touched, as the kernel's read
 * touches it), must be ELF's magic "\177ELF" or a script's "#!" -- what binfmt_elf
 * and binfmt_script take in search_binary_handler(); uvfs checks nothing past them
 * (an ELF header's class, machine and type, a script's interpreter: whoever runs the
 * program checks those, as uvfs-run leaves them to the kernel) and knows no
 * binfmt_misc entries.  Errors, in order: path walk errors, ELOOP (the walk ended
 * on a symlink, as it does through /proc/PID/fd/N of an O_PATH descriptor of one),
 * EACCES (not a regular file, or no execute bit for anyone), ETXTBSY (a descriptor
 * has it open for writing), an error reading the file (ENOMEM; a host mount's read
 * error), ENOEXEC (neither magic, or a file shorter than it, an empty one
 * included); then nothing changes -- the file may be written again at once.
 */
int uvfs_task_exec(struct uvfs_task *task, const char *path);

/*
 * uvfs_task_exec_file - uvfs_task_exec of the open file itself, as
 * execveat(fd, "", ..., AT_EMPTY_PATH) runs it: no name is walked, so a file renamed
 * over or unlinked since it was opened is still the one that runs (and /proc/PID/exe
 * says so: "(deleted)").  The same checks and errors but the walk's; -EINVAL (task
 * or file NULL), -EXDEV (a file of another instance).  file stays the caller's.
 */
int uvfs_task_exec_file(struct uvfs_task *task, struct uvfs_file *file);

/*
 * uvfs_readlink_fd - what readlink("/proc/self/fd/N") of the task reads: the path of
 * the open file as the task sees it from its root (d_path), with " (deleted)" for a
 * name that was unlinked or renamed over.  Like readlink, no NUL and silent
 * truncation to bufsiz.  EBADF; ENAMETOOLONG beyond PATH_MAX.
 * uvfs_readlink_exe / _cwd / _root: the same for /proc/self/exe (ENOENT without an
 * executable), /proc/self/cwd and /proc/self/root.
 */
ssize_t uvfs_readlink_fd(struct uvfs_task *task, int fd, char *buf, size_t bufsiz);
ssize_t uvfs_readlink_exe(struct uvfs_task *task, char *buf, size_t bufsiz);
ssize_t uvfs_readlink_cwd(struct uvfs_task *task, char *buf, size_t bufsiz);
ssize_t uvfs_readlink_root(struct uvfs_task *task, char *buf, size_t bufsiz);

/*
 * /proc's files about a process's state and the system's (stat, status, cmdline,
 * maps, /proc/loadavg ...): uvfs keeps names, descriptors and mounts, not a scheduler
 * or memory, so these come from the embedder, which knows what runs.  Once a source
 * is set, every procfs of the instance has, besides what uvfs makes itself:
 *   /proc/PID/{task,ns,environ,auxv,status,personality,limits,sched,comm,syscall,
 *     cmdline,stat,statm,maps,smaps,smaps_rollup,wchan,stack,schedstat,cpuset,cgroup,
 *     oom_score,oom_adj,oom_score_adj,loginuid,sessionid,coredump_filter,io,uid_map,
 *     gid_map,setgroups,timerslack_ns}
 *   /proc/PID/task/TID/ with the same (less task, coredump_filter, timerslack_ns;
 *     with children), and fd, fdinfo, cwd, root, exe, mounts, mountinfo as PID's
 *   /proc/{cmdline,cpuinfo,devices,diskstats,filesystems,loadavg,locks,meminfo,
 *     partitions,stat,swaps,uptime,version,vmstat}
 * in the kernel's modes and directory positions (6.18's tgid_base_stuff and
 * tid_base_stuff; /proc's own entries in the order the kernel keeps them, by length
 * and then name).  /proc/mounts (-> self/mounts), /proc/thread-self (-> PID/task/TID)
 * and the empty directory /proc/sys are there with or without a source (an embedder
 * mounts what it wants on /proc/sys: uvfs-run the kernel's, with a host mount).
 *
 *   read(arg, pid, tid, name, buf, size) - the whole text of /proc/PID/NAME (tid 0),
 *     /proc/PID/task/TID/NAME, or /proc/NAME (pid 0), as the kernel would print it
 *     for the process uvfs calls pid.  Returns its length, which may exceed size
 *     (uvfs then calls again with room for it), or -errno: the read(2) fails with it.
 *     Called at every read(2) of such a file, from the reading thread, without
 *     uvfs's lock: it may call uvfs (uvfs-run puts uvfs's names into maps with
 *     uvfs_readlink_exe).  The links of /proc/PID/ns are read with NAME "ns/net"
 *     and the like, for what readlink(2) gives ("net:[4026531840]"), with uvfs's lock
 *     held (a link's body is made under it): not calling uvfs then.  There is no
 *     namespace file behind them in uvfs: following one is ENOENT (EACCES for a
 *     reader that may not trace the process).  The text a read at position 0 got
 *     is kept with the open file, as seq_read() keeps its buffer: the reads after
 *     it take the rest of that text, not of a newer one.
 *   write(arg, pid, tid, name, buf, len) - a write(2) to one of the writable ones
 *     (comm, oom_score_adj ...); returns what write(2) returns.  NULL: EINVAL.
 *   tids(arg, pid, tids, max) - the thread ids of process pid, ascending, at most max
 *     stored; returns how many there are (more than max: called again), or -errno
 *     (-ESRCH: gone).  NULL: the process is its only thread.  Called with uvfs's lock
 *     held: it must not call uvfs.
 *   current_tid(arg, pid) - the calling thread's tid, for /proc/thread-self; NULL or
 *     a negative return: pid (the main thread).  Called with uvfs's lock held.
 * uvfs_set_proc_source - sets (NULL: removes) the source; the structure is copied.
 *   Entries already looked up stay until their files are closed.  A read or write
 *   already in the source (without uvfs's lock) when it is removed or replaced
 *   finishes with the old functions and arg: uvfs does not wait for it, so arg
 *   must outlive the embedder's readers.  0, or -EINVAL (fs NULL, or a source
 *   without read).
 */
struct uvfs_proc_source {
	ssize_t (*read)(void *arg, int pid, int tid, const char *name, char *buf, size_t size);
	ssize_t (*write)(void *arg, int pid, int tid, const char *name, const void *buf,
			 size_t len);
	int (*tids)(void *arg, int pid, int *tids, size_t max);
	int (*current_tid)(void *arg, int pid);
	/* Optional (added in 0.1 after tids): the process thread tid belongs to, or
	 * -ESRCH.  /proc/TID of a thread that does not lead its process is looked up,
	 * not listed, as Linux's proc_pid_lookup() finds any task: a directory like
	 * /proc/PID's whose files are the thread's (read(pid, tid, ...)).  Called with
	 * uvfs's lock held, like tids. */
	int (*tgid)(void *arg, int tid);
	/* Optional (added in 0.1 after tgid): nested pid namespaces, as Linux's procfs
	 * has them.  pidns(arg, pid): the pid namespace process pid is in
	 * (task_active_pid_ns()), as a number of the embedder's, 0 for the instance's
	 * own -- the namespace uvfs's pids are numbers of.  A procfs mounted by a
	 * process whose pidns is not 0 shows that namespace (proc_fill_super() takes
	 * the mounter's): only the processes in it, named and listed by their numbers
	 * there (ns_pid), a thread by its number there under task/, /proc/self and
	 * /proc/thread-self of a reader outside it ENOENT, and its files' texts from
	 * read_ns.  ns_pid(arg, ns, id): the number process or thread id (uvfs's) has in
	 * ns, 0 when it is not in it.  Both are called with uvfs's lock held: they must
	 * not call uvfs.  read_ns(arg, ns, pid, tid, name, buf, size): as read, for a
	 * reader of a procfs of ns (pid and tid uvfs's; the numbers in the text ns's:
	 * stat's ppid, status's PPid and NSpid...); NULL: read's text. */
	uint64_t (*pidns)(void *arg, int pid);
	int (*ns_pid)(void *arg, uint64_t ns, int id);
	ssize_t (*read_ns)(void *arg, uint64_t ns, int pid, int tid, const char *name, char *buf,
			   size_t size);
};
int uvfs_set_proc_source(struct uvfs *fs, const struct uvfs_proc_source *source, void *arg);

/*
 * The descriptors a process has that are not uvfs's -- the terminal and pipes it was
 * started with, its sockets, anything the embedder opened for it -- listed beside
 * uvfs's own in /proc/PID/fd and /proc/PID/fdinfo (and a thread's), as the kernel
 * lists every descriptor of the table (ls -l /proc/self/fd, lsof).  A number uvfs
 * has a file at is uvfs's: the embedder's entry at that number is not shown.
 *   fds(arg, pid, fds, max) - process pid's descriptors, ascending, at most max
 *     stored, each with the permission bits of its /proc link (what the kernel's
 *     proc_fd_link mode shows of its open mode: 0500 read, 0300 write, 0700 both;
 *     lstat of the kernel's /proc/PID/fd/N); returns how many there are (more than
 *     max: called again with room), or -errno (none listed).
 *   readlink(arg, pid, fd, buf, size) - what readlink(2) of /proc/PID/fd/FD gives
 *     ("pipe:[8812]", "/dev/pts/0", "socket:[31]"): its length, which may exceed
 *     size (uvfs then calls again with room), or -errno.
 *   fdinfo(arg, pid, fd, buf, size) - the text of /proc/PID/fdinfo/FD, the same way.
 * All three are called with uvfs's lock held: they must not call uvfs.  uvfs has no
 * file behind such a link: lstat and readlink answer, but a walk that follows it
 * (open, stat, chdir) is ENOENT -- the embedder, which holds the descriptor, answers
 * those itself (uvfs-run opens the kernel's /proc/TID/fd/N for the program).  A
 * reader ptrace_may_access() refuses gets EACCES, as for uvfs's own.  The size of
 * /proc/PID/fd (stat's st_size, the number of open descriptors on Linux) counts
 * uvfs's only.
 * uvfs_set_proc_fd_source - sets (NULL: removes) it; the structure is copied.  0, or
 *   -EINVAL (fs NULL, or a source without fds or readlink).
 */
struct uvfs_proc_fd {
	int fd;
	mode_t mode;  /* the link's permission bits (0500, 0300, 0700) */
};
struct uvfs_proc_fd_source {
	int (*fds)(void *arg, int pid, struct uvfs_proc_fd *fds, size_t max);
	ssize_t (*readlink)(void *arg, int pid, int fd, char *buf, size_t size);
	ssize_t (*fdinfo)(void *arg, int pid, int fd, char *buf, size_t size);
};
int uvfs_set_proc_fd_source(struct uvfs *fs, const struct uvfs_proc_fd_source *source,
			    void *arg);

/*
 * uvfs_proc_pid - the process a /proc/PID directory open on fd is about: on Linux
 * such a descriptor is also a pidfd (pidfd_send_signal(2); psmisc's killall signals
 * through it), which a runner gives the program by installing the kernel's own
 * (uvfs-run).  The pid, or -EINVAL (task NULL), -EBADF, -EXDEV (not a /proc/PID
 * directory: its task's directory /proc/PID/task/TID is not one either, as Linux's
 * tgid_pidfd_to_pid() takes only the former), -ESRCH (the process is gone).
 */
int uvfs_proc_pid(struct uvfs_task *task, int fd);

/*
 * uvfs_proc_file - which file of a process's /proc directory fd is open on (one the
 * source answers), for a runner that gives the program the kernel's own where uvfs
 * has nothing of what it is about: /proc/PID/mem, the process's memory (uvfs-run
 * installs the kernel's /proc/PID/mem, opened with the program's credentials, after
 * uvfs's checks).  Its name in the directory ("mem") into name, *tid (if tid is not
 * NULL) the thread of one below /proc/PID/task/TID, else 0.  The pid, or -EINVAL
 * (task NULL), -EBADF, -EXDEV (not such a file), -ERANGE (size too small for the
 * name and its NUL), -ESRCH (the process is gone).
 */
int uvfs_proc_file(struct uvfs_task *task, int fd, int *tid, char *name, size_t size);

/* ---------------------------------------------------------------------------------
 * Mounts
 */

/*
 * uvfs_mount2 - mount(2): source, target, type, MS_* flags (<sys/mount.h>), data.
 *   A new filesystem: type "tmpfs" (or "memfs") with data options size= (bytes, with
 *   k/m/g/t/p/e, or N% of the machine's memory), nr_blocks=, nr_inodes=, mode= (octal,
 *   the root's), uid=, gid= (the root's owner; the caller's fsuid/fsgid otherwise),
 *   huge=, mpol=default|local, inode32, inode64, noswap, and the generic ro, rw, sync,
 *   async, dirsync, lazytime, nolazytime, mand, nomand, silent, posixacl; "proc" takes
 *   none; "host" (a host directory, source its path) takes always, never,
 *   timeout=SECONDS, recursive (the host's mounts below it too, each with a device
 *   number of its own) and host=PATH (the host directory, the source then only the
 *   name mountinfo shows; never shown), none of which a remount may change (EINVAL)
 *   -- docs/SEMANTICS.md §5b.  Flags as Linux: MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_NOATIME,
 *   MS_NODIRATIME, MS_RELATIME, MS_STRICTATIME, MS_NOSYMFOLLOW; MS_BIND (source a
 *   path: a directory on a directory or a file on a file; MS_REC with the mounts
 *   below it); MS_REMOUNT (the superblock's options and read-only state and the
 *   mount's flags; with MS_BIND the mount's flags alone); MS_MOVE (source a mount's
 *   root); MS_SHARED, MS_SLAVE, MS_PRIVATE and MS_UNBINDABLE (MS_REC for the tree),
 *   with Linux's shared subtrees: a mount, bind or move into a shared mount is copied
 *   to its peers and slaves, an unmount in one takes the copies nothing else is
 *   mounted on, /proc/PID/mountinfo shows shared:N, master:N, propagate_from:N
 *   (docs/SEMANTICS.md §5a).  Mounts start private.  0 or -errno.
 * Errors, in order: EINVAL NULL task; EFAULT NULL target; EINVAL a type or source
 * of PATH_MAX bytes or more; the target's path walk errors; EINVAL MS_NOUSER; EPERM
 * without CAP_SYS_ADMIN; then per kind —
 *   new:     EINVAL no type; ENODEV an unknown type; EINVAL a bad or unknown option;
 *            ENOENT the target was removed; ENOTDIR the target is no directory;
 *   bind:    EINVAL no source; its walk's errors; ENOENT target removed; EINVAL the
 *            source unbindable; ENOTDIR a directory on a non-directory or the reverse;
 *   remount: EINVAL not a mount's root; EINVAL a bad option; EBUSY read-only while
 *            files are open for writing; EINVAL limits below use (tmpfs);
 *   move:    EINVAL no source; its walk's errors; ENOENT target removed; EINVAL the
 *            source no mount's root or the namespace root, or a type mismatch, or
 *            its parent shared, or a tree with an unbindable mount into a shared
 *            one; ELOOP onto itself or below itself;
 *   propagation: EINVAL not a mount's root, other flags, or two types;
 * and ENOSPC past fs.mount-max in any namespace a copy would go to, and ENOMEM,
 * after either of which nothing has changed.
 */
int uvfs_mount2(struct uvfs_task *task, const char *source, const char *target,
		const char *fstype, unsigned long flags, const char *data);

/*
 * uvfs_mount2_mkdirs - uvfs_mount2() onto a target whose missing directories are
 * made first, like mkdir -p (mode 0755, less the umask on memfs; the task's fsuid and fsgid),
 * all under one hold of the namespace lock.  A uvfs extension: Linux has no such
 * call.  On memfs the directories are ordinary ones that stay.  On a host mount
 * nothing is made on the host, even through a read-only mount: a missing directory
 * is made in uvfs's namespace alone, a "stub" -- an empty directory the host does
 * not have, listed by getdents in the stub it is in (not in the host directory it
 * is in), in which nothing can be made (EPERM, EACCES for an open's O_CREAT, as
 * Linux for a filesystem without those calls; a rename of, into or over one: EPERM),
 * which keeps the host directory it is in from being removed or replaced (ENOTEMPTY),
 * and which stays until an rmdir (EBUSY while mounted on; EROFS through a read-only
 * mount, as any rmdir) or until the host mount goes.  Errors: EPERM without
 * CAP_SYS_ADMIN (nothing made); ENOMEM; the walks' (ENOTDIR where a component is
 * not a directory, ENOENT where it is a dangling symlink...); a mkdir's; then
 * uvfs_mount2()'s, after which the stubs made for it are gone again (the
 * directories made on memfs stay, as mkdir -p's would).
 */
int uvfs_mount2_mkdirs(struct uvfs_task *task, const char *source, const char *target,
		       const char *fstype, unsigned long flags, const char *data);

/*
 * uvfs_umount2 - umount2(2): flags MNT_FORCE (as for tmpfs: nothing more),
 *   MNT_DETACH (lazy: out of the namespace at once, freed when its last open file,
 *   cwd or root goes; those keep working and print paths from the detached mount's
 *   root), MNT_EXPIRE, UMOUNT_NOFOLLOW.  Unmounting the caller's own root does what
 *   Linux does: remounts it read-only.  0 or -errno.
 * Errors, in order: EINVAL NULL task or unknown flags; EFAULT NULL target; the path
 *   walk errors; EPERM without CAP_SYS_ADMIN; EINVAL not a mount's root; EINVAL
 *   MNT_EXPIRE with MNT_FORCE or MNT_DETACH or on the root, EBUSY in use, EAGAIN
 *   otherwise (an unused mount is only marked the first time); EINVAL the namespace
 *   root; EBUSY in use (a mount below it, an open file, a task's cwd or root), or a
 *   copy of it in a peer or slave that the unmount would take is; ENOMEM (only
 *   where the parent is shared), nothing changed.
 */
int uvfs_umount2(struct uvfs_task *task, const char *target, int flags);

/*
 * uvfs_unshare - unshare(2) of CLONE_NEWNS: the task gets a private copy of its mount
 *   namespace (every mount copied, with new ids; its root and cwd move to the copies;
 *   its open files stay where they are).  Each copy of a shared mount is a peer of
 *   its original: mounts and unmounts under it are seen in both namespaces, under
 *   private mounts in one only (unshare -m --propagation private makes the copy's
 *   tree private first, as util-linux does); a mount point of another
 *   namespace only does not make rmdir, unlink or rename EBUSY, and goes with the
 *   name (Linux 3.18+).  Also CLONE_FS and CLONE_FILES: a private copy of an
 *   fs_struct or descriptor table shared by uvfs_task_clone (CLONE_NEWNS implies
 *   CLONE_FS, as in the kernel); any other flag is EINVAL (not modelled).
 *   Errors: EINVAL NULL task or other flags; EPERM without CAP_SYS_ADMIN; ENOMEM.
 *
 * uvfs_pivot_root - pivot_root(2): the mount at new_root becomes the root of the
 *   task's namespace, the old root is mounted on put_old, and every task whose root
 *   or cwd was the old root moves to the new one.
 *   Errors, in order: EPERM without CAP_SYS_ADMIN; new_root's walk (ENOTDIR...);
 *   put_old's walk; ENOENT put_old removed; EINVAL the root or new_root of another
 *   namespace; ENOENT new_root removed; EBUSY new_root or put_old on the root's own
 *   mount; EINVAL the root not a mount's root, new_root not a mount's root, put_old
 *   not at or below new_root, new_root not below the root.
 */
int uvfs_unshare(struct uvfs_task *task, int flags);

/*
 * uvfs_set_mnt_ns_id - the identity of the task's mount namespace, as statmount's
 *   mnt_ns_id and listmount's and statmount's requests name it: by default a number
 *   counted per instance from 1; an embedder that mirrors each of uvfs's namespaces
 *   with one of the kernel's gives the kernel's (ioctl NS_GET_MNTNS_ID of its nsfs
 *   file: uvfs-run), so that a program's two views of it agree.  Errors: EINVAL
 *   (task NULL, id 0).
 */
int uvfs_set_mnt_ns_id(struct uvfs_task *task, uint64_t id);

/*
 * The new mount API (Linux 5.2+; the kernel's flags and errors, each check in its
 * order; docs/SEMANTICS.md §5a).  Every call is EINVAL for a NULL task and EPERM
 * without CAP_SYS_ADMIN (open_tree only with OPEN_TREE_CLONE).
 *
 * uvfs_fsopen - a filesystem context of type fs_name ("tmpfs", "proc", ...): a new
 *   descriptor (readlink: "anon_inode:[fscontext]"; a read is ENODATA: no message
 *   log is kept).  flags FSOPEN_CLOEXEC.  Errors: EPERM; EINVAL other flags; EFAULT
 *   NULL name; ENODEV unknown type; EMFILE; ENOMEM.
 */
int uvfs_fsopen(struct uvfs_task *task, const char *fs_name, unsigned int flags);
/*
 * uvfs_fsconfig - one parameter of the context fd, or a command: FSCONFIG_SET_FLAG
 *   (key, no value, aux 0), FSCONFIG_SET_STRING (key and value, aux 0), _SET_BINARY,
 *   _SET_PATH, _SET_PATH_EMPTY, _SET_FD (no parameter of uvfs's filesystems takes
 *   those: EINVAL, but for the generic flags), FSCONFIG_CMD_CREATE and
 *   _CMD_CREATE_EXCL (the superblock), FSCONFIG_CMD_RECONFIGURE (after fsmount:
 *   the parameters given since, as a remount's).  Errors, in order: EINVAL fd < 0;
 *   EINVAL arguments the command does not take; EOPNOTSUPP an unknown command;
 *   EBADF; EINVAL not a context; EINVAL a key or string of 256 bytes or more;
 *   ENOENT an empty path; EBADF aux of _SET_FD; EBUSY the wrong phase (a parameter
 *   after the creation, a second creation, a reconfiguration before fsmount);
 *   EINVAL an unknown or bad parameter, a second source; the filesystem's errors
 *   of the creation (after which the context can do nothing more: EBUSY).
 */
int uvfs_fsconfig(struct uvfs_task *task, int fd, unsigned int cmd, const char *key,
		  const void *value, int aux);
/*
 * uvfs_fsmount - the created superblock of context fs_fd mounted in a detached tree:
 *   an O_PATH descriptor of its root (FSMOUNT_CLOEXEC), through which it may be used
 *   (openat) and attached (uvfs_move_mount); closed while still detached, the tree is
 *   unmounted.  attr_flags MOUNT_ATTR_RDONLY, _NOSUID, _NODEV, _NOEXEC, one of
 *   _RELATIME (0), _NOATIME, _STRICTATIME, _NODIRATIME, _NOSYMFOLLOW.  Errors: EPERM;
 *   EINVAL other flags or attributes, two atime values; EBADF; EINVAL not a context,
 *   or no superblock created; EBUSY mounted already; EMFILE; ENOMEM.
 */
int uvfs_fsmount(struct uvfs_task *task, int fs_fd, unsigned int flags, unsigned int attr_flags);
/*
 * uvfs_move_mount - the mount at (from_dfd, from_path) -- a mount's root, or a
 *   detached tree's top, which then joins the namespace whole -- moved onto
 *   (to_dfd, to_path), propagated as MS_MOVE's; with MOVE_MOUNT_SET_GROUP, the
 *   private mount at "to" joins the peer group and master of the one at "from"
 *   instead.  Flags MOVE_MOUNT_F_SYMLINKS, _F_AUTOMOUNTS, _F_EMPTY_PATH,
 *   _T_SYMLINKS, _T_AUTOMOUNTS, _T_EMPTY_PATH, _SET_GROUP; MOVE_MOUNT_BENEATH is
 *   EINVAL (a deliberate difference: not modelled).  Errors: EPERM; EINVAL flags;
 *   the walks' errors (ENOENT an empty path without _EMPTY_PATH); then MS_MOVE's.
 */
int uvfs_move_mount(struct uvfs_task *task, int from_dfd, const char *from_path, int to_dfd,
		    const char *to_path, unsigned int flags);
/*
 * uvfs_open_tree - an O_PATH descriptor of (dfd, filename); with OPEN_TREE_CLONE, of
 *   a copy of the mount seen from there (AT_RECURSIVE: with the mounts below it but
 *   the unbindable ones) in a detached tree, as uvfs_fsmount's.  Flags AT_EMPTY_PATH,
 *   AT_NO_AUTOMOUNT, AT_RECURSIVE (with OPEN_TREE_CLONE only), AT_SYMLINK_NOFOLLOW,
 *   OPEN_TREE_CLONE, OPEN_TREE_CLOEXEC.  Errors: EINVAL flags; EPERM; EMFILE; the
 *   walk's; EINVAL an unbindable mount or another namespace's; ENOMEM.
 */
int uvfs_open_tree(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags);
/*
 * uvfs_fspick - a context (as uvfs_fsopen's) to reconfigure the superblock of the
 *   mount whose root (dfd, path) is: uvfs_fsconfig's parameters, then
 *   FSCONFIG_CMD_RECONFIGURE.  Flags FSPICK_CLOEXEC, _SYMLINK_NOFOLLOW,
 *   _NO_AUTOMOUNT, _EMPTY_PATH.  Errors: EPERM; EINVAL flags; EFAULT; the walk's;
 *   EINVAL not a mount's root; ENOMEM; EMFILE.
 */
int uvfs_fspick(struct uvfs_task *task, int dfd, const char *path, unsigned int flags);
/* mount_setattr()'s argument (struct mount_attr, MOUNT_ATTR_SIZE_VER0 bytes) */
struct uvfs_mount_attr {
	uint64_t attr_set, attr_clr;   /* MOUNT_ATTR_* to set and to clear */
	uint64_t propagation;          /* 0, MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE */
	uint64_t userns_fd;            /* MOUNT_ATTR_IDMAP's: not modelled (EINVAL) */
};
/*
 * uvfs_mount_setattr - attributes and propagation of the mount at (dfd, filename),
 *   a mount's root (AT_RECURSIVE: and every mount below).  attr is size bytes (32
 *   or more, the rest zero): attr_clr's bits cleared, then attr_set's set; an atime
 *   value only with all of MOUNT_ATTR__ATIME in attr_clr.  Errors, in order: EINVAL
 *   flags; E2BIG size over a page; EINVAL size under 32; EPERM; EFAULT NULL attr;
 *   E2BIG unknown bytes not zero; (0 for nothing to do, with no walk); EINVAL two
 *   types, unknown attributes, a partial or lone atime, MOUNT_ATTR_IDMAP; the walk's;
 *   EINVAL not a mount's root, or of another namespace; EBUSY read-only with a
 *   writer; ENOMEM (a shared group's id), nothing changed.
 */
int uvfs_mount_setattr(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags,
		       const struct uvfs_mount_attr *attr, size_t size);
/*
 * uvfs_open_tree_attr - open_tree_attr(2) (6.15): uvfs_open_tree, then, before the
 *   descriptor is made, uvfs_mount_setattr's attributes on what it opened (the copy
 *   for OPEN_TREE_CLONE; AT_RECURSIVE for the whole tree).  Errors: EINVAL NULL attr
 *   with a size; uvfs_open_tree's but EMFILE; uvfs_mount_setattr's of the attributes
 *   (after which a copy is gone again); EMFILE.
 */
int uvfs_open_tree_attr(struct uvfs_task *task, int dfd, const char *filename, unsigned int flags,
			const struct uvfs_mount_attr *attr, size_t size);

/* statmount()'s and listmount()'s request (struct mnt_id_req, MNT_ID_REQ_SIZE_VER1):
 * size bytes of it are read (24 or more; the rest of a longer one zero) */
struct uvfs_mnt_id_req {
	uint32_t size;
	uint32_t spare;                /* must be 0 */
	uint64_t mnt_id;               /* a unique mount id (statx's STATX_MNT_ID_UNIQUE) */
	uint64_t param;                /* statmount: STATMOUNT_* wanted; listmount: last id */
	uint64_t mnt_ns_id;            /* 0 or the caller's namespace's (statmount's) */
};
/*
 * uvfs_statmount - struct statmount (Linux 6.18's, 512 bytes) of the mount whose
 *   unique id req->mnt_id is, into buf of bufsize bytes: the fields req->param asks
 *   for (STATMOUNT_SB_BASIC, _MNT_BASIC, _PROPAGATE_FROM, _MNT_ROOT, _MNT_POINT,
 *   _FS_TYPE, _MNT_NS_ID, _MNT_OPTS, _SB_SOURCE, _OPT_ARRAY, _SUPPORTED_MASK; the
 *   security options, subtype and id maps are never emitted), the strings after the
 *   struct.  0 or -errno.  Errors, in order: EINVAL flags; EFAULT NULL req; EINVAL
 *   size under 24; E2BIG over a page, or unknown bytes not zero; EINVAL spare not
 *   zero, an id that is no unique id; ENOENT another namespace; EOVERFLOW strings
 *   asked for with bufsize 512; ENOENT no such mount in the namespace; EPERM one the
 *   caller's root does not reach, without CAP_SYS_ADMIN; EOVERFLOW the strings do
 *   not fit; EFAULT NULL buf; ENOMEM.
 */
int uvfs_statmount(struct uvfs_task *task, const struct uvfs_mnt_id_req *req, void *buf,
		   size_t bufsize, unsigned int flags);
/*
 * uvfs_listmount - the unique ids of the mounts below req->mnt_id (LSMT_ROOT, ~0: every
 *   mount the caller's root reaches, the root's own too), in order, after the id
 *   req->param (0: from the first); flags LISTMOUNT_REVERSE (descending, before it).
 *   At most nr_mnt_ids; returns how many.  Errors: EINVAL flags; EFAULT, EINVAL,
 *   E2BIG the request as statmount's; (0 for nr_mnt_ids 0); ENOENT another namespace
 *   or no such mount; EPERM a mount the caller's root does not reach, without
 *   CAP_SYS_ADMIN; EFAULT NULL mnt_ids; ENOMEM.
 */
ssize_t uvfs_listmount(struct uvfs_task *task, const struct uvfs_mnt_id_req *req,
		       uint64_t *mnt_ids, size_t nr_mnt_ids, unsigned int flags);
int uvfs_pivot_root(struct uvfs_task *task, const char *new_root, const char *put_old);

/*
 * uvfs_statfs / uvfs_fstatfs - statfs(2), fstatfs(2) (fstatfs takes O_PATH descriptors
 *   too): f_type (TMPFS_MAGIC, PROC_SUPER_MAGIC), f_bsize and f_frsize 4096, f_blocks,
 *   f_bfree, f_bavail, f_files, f_ffree as a tmpfs counts them (zero where there is
 *   no limit: uvfs_new's root by default; a mount(2) of tmpfs has Linux's default
 *   limits, half of the machine's memory and as many inodes as half its pages),
 *   f_namelen 255, f_flags ST_VALID and the mount's ST_* flags.  f_fsid is zero.
 * Errors, in order: the walk's (EBADF for a bad fd); EFAULT buf NULL.
 */
int uvfs_statfs(struct uvfs_task *task, const char *path, struct statfs *buf);
int uvfs_fstatfs(struct uvfs_task *task, int fd, struct statfs *buf);

/*
 * uvfs_mount - the first form: a new, empty in-memory filesystem ("memfs", or
 * "tmpfs" as an alias), or a procfs ("proc"), on a directory.  flags must be 0.
 * max_inodes/max_bytes as in uvfs_config (ignored for proc).  The same as
 * uvfs_mount2(task, "none", target, fstype, 0, "nr_inodes=N,size=N").
 * Errors, in order: EINVAL flags; then those of uvfs_mount2.
 */
int uvfs_mount(struct uvfs_task *task, const char *fstype, const char *target,
	       unsigned long flags, uint64_t max_inodes, uint64_t max_bytes);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* UVFS_UVFS_H */
