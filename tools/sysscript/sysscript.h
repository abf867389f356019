/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysscript.h - run one text script of system calls against a backend (uvfs or the
 * host kernel) and print every result in a form that compares across the two.
 *
 * This is the oracle's engine: the differential tests, the shell's `sys` command and
 * the random tester all speak this language.  A script is one call per line:
 *
 *     mkdirat AT_FDCWD d 0755
 *     openat AT_FDCWD "d/{a*48}" O_CREAT|O_WRONLY 0644
 *     renameat2 AT_FDCWD d/x AT_FDCWD d/y RENAME_EXCHANGE
 *
 * Arguments are numbers (decimal, 0octal, 0xhex), symbolic constants joined by '|'
 * (O_*, AT_*, RENAME_*, S_IF*, F_*, SEEK_*, ...), or strings, bare or in double
 * quotes with escapes (\n, \t, \0, \xHH; a backslash before anything else is that
 * character); "{c*N}" inside a string stands for N copies of c.  '#' outside quotes
 * starts a comment.  Each line prints as itself followed by " = result":
 *     = 0
 *     = -1 ENOENT (No such file or directory)
 * with extra detail for calls that return data (stat fields, link bodies, listings).
 * "fdpath N", "cwdpath", "rootpath" read /proc/self/fd/N, /proc/self/cwd and
 * /proc/self/root; a script using them runs on a host with /proc mounted (and, to
 * keep the trees alike, uvfs gets an empty /proc directory first); such a script
 * must leave descriptor 1023 alone (the host keeps /proc open there, so that
 * chroot cannot hide it).
 * "times PATH" prints, for atime, mtime and ctime, whether each changed since the
 * previous "times" of the same path (times themselves never compare across systems).
 * Tasks: "fork" makes a child of the script's task (= its pid: the host backend runs
 * in a pid namespace of its own, so both sides number 2, 3, ...); the child holds
 * what it inherited — descriptors, cwd, root — and does nothing but "exec PATH"
 * (resolved from its own cwd; the program must be one "writeprog FD" wrote, which
 * stops itself and stays, holding the file as its /proc/PID/exe) and "exit"; both
 * apply to the newest living child, and every child exits when the run is done.
 * "writeprog FD" writes that program: a 150-byte x86-64 ELF executable (on the host
 * a real exec runs it; uvfs runs nothing — uvfs_task_exec is what execve does to the
 * namespace — and the bytes make both sides agree on what the kernel accepts).
 * Credentials: "su UID GID [GROUP...]" drops the script's task to those ids for
 * good (setgroups, setresgid, setresuid, all three ids each: a child forked before
 * cannot be "exit"ed afterwards, as the host would refuse the signal); "id" prints the
 * ids, groups and effective capabilities.  "asuser UID GID [GROUP...]" is the same but
 * keeps 0 as the saved ids (setresgid(g, g, 0), setresuid(u, u, 0): the effective
 * capabilities go, the permitted stay), so that "asroot" (setresuid(0, 0, 0),
 * setresgid(0, 0, 0), no groups) can come back: the differential tester's users.
 * "mount2 SOURCE TARGET TYPE FLAGS DATA" is mount(2) (the word NULL for a NULL
 * string), "umount2 TARGET FLAGS" umount2(2); "statfs PATH" and "fstatfs FD" print
 * every field but f_fsid (random for a tmpfs); "mountinfo [PID]" and "mounts [PID]"
 * print /proc/self (or PID)/mountinfo and mounts, a line each, with mount ids numbered
 * in order of appearance in the listing (m1, ...) and devices in the script (dev1...); "unshare FLAGS" and
 * "pivot_root NEW OLD" are the calls; "hostmount TARGET FLAGS DATA" mounts a new host
 * directory (struct sys_backend's hostmount).
 * "umask MASK" sets the file mode creation mask and prints the old one (in octal).
 * "inotify_init1 FLAGS", "inotify_add_watch FD PATH MASK" and "inotify_rm_watch FD WD"
 * are the calls (IN_* symbols); "inotify_read FD [SIZE]" reads with a SIZE-byte
 * buffer (4096) and prints each event as {wd mask cookie "name"}, a cookie as the
 * order it was first seen in (c1, ...: the kernel's counter is global), 0 as 0;
 * "fionread FD" prints ioctl(FIONREAD)'s count; "dnotify_signals" the signals
 * fcntl(F_NOTIFY) sent since the last one (SIGIO once however many, as a standard
 * signal pends; an F_SETSIG signal each time, with its si_fd).
 * OPENED, as a number, is what the last successful openat returned, and "{opened}"
 * the same inside a word ("/proc/self/fd/{opened}"); "{child}" in a line is the pid
 * of the newest "fork" (0 before the first).
 * Inode numbers print as identities (#1 is the first inode seen, ...), so that two
 * systems with different numbering agree.
 */
#ifndef UVFS_SYSSCRIPT_H
#define UVFS_SYSSCRIPT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <time.h>

/* Children a script may have alive at once (each backend keeps as many). */
#define SYSSCRIPT_MAX_CHILDREN 16

struct sys_backend {
	const char *name;
	void *ctx;
	int (*openat)(void *ctx, int dfd, const char *path, int flags, mode_t mode);
	int (*close)(void *ctx, int fd);
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t n);
	ssize_t (*write)(void *ctx, int fd, const void *buf, size_t n);
	ssize_t (*pread)(void *ctx, int fd, void *buf, size_t n, off_t off);
	ssize_t (*pwrite)(void *ctx, int fd, const void *buf, size_t n, off_t off);
	off_t (*lseek)(void *ctx, int fd, off_t off, int whence);
	int (*ftruncate)(void *ctx, int fd, off_t len);
	int (*truncate)(void *ctx, const char *path, off_t len);
	int (*fsync)(void *ctx, int fd);
	int (*renameat2)(void *ctx, int od, const char *op, int nd, const char *np, unsigned fl);
	int (*unlinkat)(void *ctx, int dfd, const char *path, int flags);
	int (*mkdirat)(void *ctx, int dfd, const char *path, mode_t mode);
	int (*mknodat)(void *ctx, int dfd, const char *path, mode_t mode, dev_t dev);
	int (*symlinkat)(void *ctx, const char *target, int dfd, const char *path);
	ssize_t (*readlinkat)(void *ctx, int dfd, const char *path, char *buf, size_t n);
	int (*linkat)(void *ctx, int od, const char *op, int nd, const char *np, int flags);
	int (*fstatat)(void *ctx, int dfd, const char *path, struct stat *st, int flags);
	int (*fstat)(void *ctx, int fd, struct stat *st);
	int (*statx)(void *ctx, int dfd, const char *path, int flags, unsigned int mask,
		     struct statx *sx);
	ssize_t (*getdents64)(void *ctx, int fd, void *buf, size_t n);
	int (*getcwd)(void *ctx, char *buf, size_t n);
	int (*chdir)(void *ctx, const char *path);
	int (*fchdir)(void *ctx, int fd);
	int (*fchmodat)(void *ctx, int dfd, const char *path, mode_t mode, int flags);
	int (*fchownat)(void *ctx, int dfd, const char *path, uid_t u, gid_t g, int flags);
	int (*faccessat2)(void *ctx, int dfd, const char *path, int mode, int flags);
	int (*utimensat)(void *ctx, int dfd, const char *path, const struct timespec t[2],
			 int flags);
	int (*dup)(void *ctx, int fd);
	int (*dup3)(void *ctx, int fd, int newfd, int flags);
	int (*fcntl)(void *ctx, int fd, int cmd, long arg);
	int (*chroot)(void *ctx, const char *path);
	/* readlink of /proc/self/fd/N, /proc/self/cwd ("cwd", fd ignored), "root" */
	ssize_t (*readlink_proc)(void *ctx, const char *which, int fd, char *buf, size_t n);
	/* options: "" or tmpfs's "nr_inodes=N,size=BYTES" */
	int (*mount)(void *ctx, const char *type, const char *target, const char *options);
	/* mount(2) and umount2(2) as they are */
	int (*mount2)(void *ctx, const char *source, const char *target, const char *type,
		      unsigned long flags, const char *data);
	int (*umount2)(void *ctx, const char *target, int flags);
	/* "hostmount TARGET FLAGS DATA": a fresh, empty directory of the host's tmpfs
	 * mounted on TARGET -- uvfs's host filesystem over a new directory in /dev/shm
	 * (mode 1777, as a new tmpfs's root), the kernel's own tmpfs mounted there
	 * (what a bind mount of such a directory would show); DATA is hostfs's (always,
	 * never, timeout=N; NULL for none), which the kernel side has no use for */
	int (*hostmount)(void *ctx, const char *target, unsigned long flags, const char *data);
	int (*statfs)(void *ctx, const char *path, struct statfs *buf);
	int (*unshare)(void *ctx, int flags);
	/* extended attributes, the *xattrat calls (Linux 6.13): a value of size bytes,
	 * or with value NULL a removal (flags ignored); get and list copy into buf */
	int (*setxattrat)(void *ctx, int dfd, const char *path, int at_flags, const char *name,
			  const void *value, size_t size, int flags);
	ssize_t (*getxattrat)(void *ctx, int dfd, const char *path, int at_flags,
			      const char *name, void *buf, size_t size);
	ssize_t (*listxattrat)(void *ctx, int dfd, const char *path, int at_flags, char *buf,
			       size_t size);
	int (*pivot_root)(void *ctx, const char *new_root, const char *put_old);
	int (*fstatfs)(void *ctx, int fd, struct statfs *buf);
	/* tasks: a child of the script's task (its pid), exec in it, its end */
	int (*fork)(void *ctx);
	int (*exec)(void *ctx, int pid, const char *path);
	int (*exit)(void *ctx, int pid);
	/* credentials of the script's task: setgroups(n, groups), setresgid(g, g, g),
	 * setresuid(u, u, u) — a real drop, as setpriv --reuid --regid --groups makes
	 * it; and "id": the ids, groups and effective capabilities as text into buf */
	int (*su)(void *ctx, uid_t uid, gid_t gid, int ngroups, const gid_t *groups,
		  bool keep_saved_root);
	int (*id)(void *ctx, char *buf, size_t n);
	/* umask(2): the old mask */
	mode_t (*umask)(void *ctx, mode_t mask);
	/* inotify(7)'s calls, and ioctl(FIONREAD) */
	int (*inotify_init1)(void *ctx, int flags);
	int (*inotify_add_watch)(void *ctx, int fd, const char *path, unsigned int mask);
	int (*inotify_rm_watch)(void *ctx, int fd, int wd);
	int (*fionread)(void *ctx, int fd, int *n);
	/* the signals dnotify sent the script's task since the last call, as text into
	 * buf ("SIGIO", "40 fd=3" for an F_SETSIG signal): their number */
	int (*dnotify_signals)(void *ctx, char *buf, size_t n);
};

/* The text of "id" (both backends format it here): real/effective/saved/fs uid and
 * gid, the groups, the effective capability set.  Returns its length. */
int sysscript_id_text(char *buf, size_t n, const uid_t u[4], const gid_t g[4], int ngroups,
		      const gid_t *groups, unsigned long long cap_effective);

/* The program "writeprog" writes (sysscript.c). */
extern const unsigned char sysscript_prog[150];

/* State of one script run: the inode identity map. */
struct sysscript {
	struct sys_backend *b;
	FILE *out;
	dev_t devs[64];
	ino_t inos[4096];
	int ndev[4096];
	int nino;
	int failures;      /* calls that returned an error */
	size_t max_buffer; /* 0, or the largest buffer a call may ask for (else: syntax) */
	long mnt_ids[64];  /* "mountinfo": the mount ids seen, in order (m1, m2, ...) */
	int nmnt;
	long grp_ids[64];  /* "mountinfo": the peer group ids seen, in order (g1, g2, ...) */
	int ngrp;
	/* "times PATH": the last atime/mtime/ctime seen for each path */
	struct times_seen {
		char *path;
		struct timespec t[3];
	} seen[64];
	int nseen;
	bool stop_on_error;
	bool sort_dents;   /* print getdents64 names sorted: listings compare as sets */
	long opened;       /* OPENED: what the last successful openat returned */
	unsigned int cookies[64]; /* "inotify_read": the cookies seen (c1, c2, ...) */
	int ncookies;
	struct {           /* children made by "fork", oldest first */
		int pid;
		bool execd;    /* runs writeprog's program: no second exec */
		int su_count;  /* the script's "su"s before its fork */
	} children[SYSSCRIPT_MAX_CHILDREN];
	int su_count;      /* successful "su"s so far */
	int nchildren;
	int last_child;    /* {child}: the pid the newest "fork" gave */
};

void sysscript_init(struct sysscript *s, struct sys_backend *b, FILE *out);
/* Free what a run kept (it does not close the output). */
void sysscript_done(struct sysscript *s);
/* The identity (#1, #2, ...) of an inode, numbered in the order first seen. */
int sysscript_ino_id(struct sysscript *s, dev_t dev, ino_t ino);
/* "self/fd/N", "self/cwd", "self/root": the /proc path a readlink_proc reads,
 * relative to the /proc descriptor both backends keep at 1023. */
void sysscript_proc_path(const char *which, int fd, char *buf, size_t n);

/* Run one line; returns the call's result (>= 0 or -errno), or -EINVAL after
 * printing "syntax: ..." for a line it cannot parse.  Blank lines return 0. */
long sysscript_line(struct sysscript *s, const char *line);
/* Run every line of text. */
void sysscript_run(struct sysscript *s, const char *text);
/* Print the whole tree below path (sorted, with type, mode, nlink, size, identity,
 * link bodies and file contents), skipping the names in skip (NULL-terminated). */
void sysscript_dump_tree(struct sysscript *s, const char *path, const char *const *skip);

/* The whole of a file ("-": standard input), malloc'd and NUL-terminated, or NULL. */
char *sysscript_read_file(const char *path);

/* "{c*N}" expansion and escapes: a malloc'd string, or NULL. */
char *sysscript_expand(const char *text);

/* Backends. */
struct uvfs_config;
struct sys_backend *sys_backend_uvfs(const struct uvfs_config *cfg);
void sys_backend_uvfs_free(struct sys_backend *b);
/* The uvfs instance and task behind a uvfs backend; calls go to the task set last. */
struct uvfs_task *sys_backend_uvfs_task(struct sys_backend *b);
struct uvfs *sys_backend_uvfs_fs(struct sys_backend *b);
void sys_backend_uvfs_set_task(struct sys_backend *b, struct uvfs_task *task);

/*
 * Run script on the host kernel: in a child process with a private mount namespace
 * whose root is a fresh tmpfs (pivot_root; /proc mounted when with_proc), umask 022,
 * RLIMIT_NOFILE 1024, descriptors 0-2 closed so numbering starts at 0 as in uvfs.
 * The output (the same format as sysscript_run, then the tree dump when dump) is
 * returned malloc'd.  NULL with errno: EPERM when not root.
 */
char *sysscript_host_run(const char *script, bool with_proc, bool dump);
/* The same sandbox (as its pid 1, in a new pid namespace) for any fn writing to out;
 * returns what fn wrote.  how: HOST_PROC mounts /proc, HOST_PROC_FD also keeps it open
 * at descriptor 1023 (for fdpath & co. after a chroot). */
#define HOST_PROC 0x1u
#define HOST_PROC_FD 0x2u
char *sysscript_host_call(unsigned int how, void (*fn)(struct sys_backend *b, FILE *out, void *arg),
			  void *arg);
/* The same without a sandbox, in an existing directory dir of whatever filesystem
 * (no root needed); /proc, the host's, open at 1023. */
char *sysscript_target_call(const char *dir, void (*fn)(struct sys_backend *b, FILE *out, void *arg),
			    void *arg);
/* A uvfs backend whose task has /proc open at 1023, like the host side. */
struct sys_backend *sys_backend_uvfs_proc(const char *abi);
/* Make the backend's root a host mount (uvfs's host filesystem, mount data data) of a
 * new directory under the host directory parent, mode 1777 like a new tmpfs's root,
 * with procfs on its /proc: the old root is pivoted away and detached, so the
 * script's tree lives on the host.  The directory goes with the backend.  0 or -errno. */
int sys_backend_uvfs_host_root(struct sys_backend *b, const char *parent, const char *data);

/* The same on uvfs, with the personality abi (NULL: linux). */
char *sysscript_uvfs_run(const char *script, const char *abi, bool dump);
/* Does the script read /proc (fdpath, cwdpath, rootpath)? */
bool sysscript_wants_proc(const char *script);

/* "kernel RELEASE" for a report's first line; for a release other than the one the
 * semantics are pinned to (6.18), it says so. */
const char *sysscript_kernel_line(void);

#endif /* UVFS_SYSSCRIPT_H */
