// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * syscalls.c - the trapped system calls, answered by uvfs as the calling process's
 * task.  Each handler reads the arguments from the registers (x86-64: rdi, rsi, rdx,
 * r10, r8, r9) and the memory they point to, calls uvfs, writes what the kernel would
 * have written, and returns the kernel's result; or it leaves the call to the kernel
 * (a descriptor of the host's), or rewrites it (the stand-in of a new uvfs descriptor,
 * an exec of the real file).
 *
 * What differs from Linux, and why, is in docs/SEMANTICS.md ("uvfs-run").
 */
#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <sys/sysmacros.h>
#include <stdint.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452  /* Linux 6.6; glibc 2.36 has no name for it */
#endif
/* Linux 6.13's *xattrat and 6.17's file_getattr/file_setattr: Debian 12 has no names */
#define SYS_setxattrat_ 463
#define SYS_getxattrat_ 464
#define SYS_listxattrat_ 465
#define SYS_removexattrat_ 466
#define SYS_file_getattr_ 468
#define SYS_file_setattr_ 469
#ifndef XATTR_CREATE
#define XATTR_CREATE 1
#define XATTR_REPLACE 2
#endif

/* fcntl's queries that take an O_PATH descriptor (Linux 6.10, 6.12) */
#define F_DUPFD_QUERY_ 1027
#define F_CREATED_QUERY_ 1028

#define A0(r) ((r)->rdi)
#define A1(r) ((r)->rsi)
#define A2(r) ((r)->rdx)
#define A3(r) ((r)->r10)
#define A4(r) ((r)->r8)
#define A5(r) ((r)->r9)

/* the kernel's getname(): PATH_MAX bytes with the NUL */
#define NAME_MAX_BYTES PATH_MAX
/* bytes copied per uvfs call for reads and writes */
#define CHUNK (1u << 20)

static inline struct uvfs_task *T(const struct proc *p)
{
	return p->up->task;
}

static enum action skip(struct user_regs_struct *r, long ret)
{
	r->rax = (unsigned long long)ret;
	return ACT_SKIP;
}

/* Is fd one of uvfs's (it has a stand-in in the kernel's table at the same number)? */
static bool ufd(const struct proc *p, long fd)
{
	return fd >= 0 && fd <= INT_MAX && uvfs_fcntl(T(p), (int)fd, F_GETFD, 0) >= 0;
}

/* Is fd one of uvfs's O_PATH descriptors?  The calls that take their file with
 * fdget(), not fdget_raw(), refuse those: EBADF (fchmod, fchown, ioctl, the
 * f*xattr calls, read and write and their vectors...) */
static bool opath_fd(struct proc *p, int fd)
{
	int fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);

	return fl >= 0 && (fl & O_PATH);
}

/* An int argument as the kernel reads it: the low 32 bits */
static inline int iarg(unsigned long long v)
{
	return (int)(unsigned int)v;
}

/* The path argument: 0 or -errno (EFAULT, ENAMETOOLONG) */
static int get_path(const struct proc *p, unsigned long long addr, char *buf)
{
	int err = mem_read_str(p->tid, addr, buf, NAME_MAX_BYTES);

	if (!err)
		run_log_path(buf);  /* --explain */
	return err;
}

/* A relative name against a descriptor that is not uvfs's (a pipe, the terminal,
 * one inherited from outside, or none): the kernel decides (EBADF, ENOTDIR). */
static bool dirfd_native(const struct proc *p, int dirfd, const char *path)
{
	return dirfd != AT_FDCWD && path[0] != '/' && !ufd(p, dirfd);
}

/* What a host descriptor of the process is, for a walk starting at it: 0 a
 * directory, -ENOTDIR something else, -EBADF no open descriptor at that number */
static int host_fd_kind(const struct proc *p, int fd)
{
	char link[64];
	struct stat st;

	if (fd < 0)
		return -EBADF;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", p->tid, fd);
	if (stat(link, &st))
		return errno == ENOENT ? -EBADF : -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/*
 * linkat and renameat with one name relative to a descriptor of uvfs's (or the cwd)
 * and the other relative to a number that is not uvfs's: true when both are the
 * kernel's, or when the other is a host directory (the kernel decides).  Else that
 * number has no open file (EBADF) or is no directory (ENOTDIR), which the kernel
 * says where its walks reach that name -- do_linkat(): after the old name's lookup;
 * do_renameat2(): after both parents' (the old first), before the old name's -- so
 * uvfs walks that name from -1, whose EBADF comes at the same point, and *kind is
 * the answer to give for it.  (Both went to the kernel before, which saw the
 * stand-in of uvfs's directory, no directory: ENOTDIR where Linux says EBADF.)
 */
static bool one_dirfd_bad(const struct proc *p, int *ofd, const char *op, int *nfd,
			  const char *np, int *kind)
{
	bool on = dirfd_native(p, *ofd, op), nn = dirfd_native(p, *nfd, np);
	int *bad = on ? ofd : nfd;

	if (on == nn)
		return on;
	*kind = host_fd_kind(p, *bad);
	if (!*kind)
		return true;
	*bad = -1;
	return false;
}

/*
 * /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<own pid>/fd/N and /dev/fd/N,
 * /dev/stdin, /dev/stdout, /dev/stderr for a descriptor N of the host's (a pipe of
 * bash's process substitution, the terminal), and /proc/PID/fd/N of another process
 * of the program's for one of its own (lsof stats them): uvfs lists such a link
 * (procsrc.c's fd source) but has no file behind it; the kernel's /proc does.
 * Returns N with link the kernel's name of it (/proc/TID/fd/N, host pids), or -1.
 */
static int host_fd_name(const struct proc *p, const char *path, char *link, size_t size);

/*
 * A name in /proc as the program wrote it, made absolute: relative to a directory of
 * uvfs's (dirfd, or the cwd) by uvfs's own path of that directory ("0" in an open
 * /proc/self/fd).  true with abs that, when it lies in /proc.
 */
static bool proc_name_abs(const struct proc *p, int dirfd, const char *path, char *abs,
			  size_t size)
{
	ssize_t n;

	if (!path[0])
		return false;
	if (path[0] == '/') {
		n = 0;
	} else {
		n = dirfd == AT_FDCWD ? uvfs_readlink_cwd(T(p), abs, size - 1)
				      : uvfs_readlink_fd(T(p), dirfd, abs, size - 1);
		if (n <= 0 || abs[0] != '/' || (size_t)n + 1 + strlen(path) >= size)
			return false;
		abs[n++] = '/';
	}
	if ((size_t)snprintf(abs + n, size - (size_t)n, "%s", path) >= size - (size_t)n)
		return false;
	return !strncmp(abs, "/proc/", 6);
}

/* The same for a name relative to a directory of uvfs's (gVisor's
 * fstatat(proc_self_fd, "0")) */
static int host_fd_name_at(const struct proc *p, int dirfd, const char *path, char *link,
			   size_t size)
{
	char abs[PATH_MAX];

	if (path[0] == '/')
		return host_fd_name(p, path, link, size);  /* /dev/fd/N too */
	return proc_name_abs(p, dirfd, path, abs, sizeof(abs)) ?
	       host_fd_name(p, abs, link, size) : -1;
}

/*
 * stat (following) of /proc/PID/ns/TYPE, or a thread's: the kernel's namespace file,
 * whose inode is the number readlink shows ("mnt:[4026531832]"; ps -o mntns, lsns
 * read it so) -- uvfs has no nsfs, its link leads nowhere (ENOENT).  Made on the same
 * link in the program's proc (procsrc.c), once uvfs has read the link (its EACCES for
 * a reader that may not trace the process first): 0 with kpath that name, relative
 * to run_proc_fd; 1 when path is no such link; or uvfs's -errno.
 */
static int proc_ns_kpath(struct proc *p, int dirfd, const char *path, char *kpath, size_t size)
{
	char abs[PATH_MAX], body[64];
	const char *s;
	ssize_t n;
	long pid, tid = 0;
	char *end;

	if (run_proc_fd < 0 || !proc_name_abs(p, dirfd, path, abs, sizeof(abs)))
		return 1;
	s = abs + 6;
	if (!strncmp(s, "self/", 5)) {
		pid = p->up->nspid;
		s += 4;
	} else if (!strncmp(s, "thread-self/", 12)) {
		pid = p->up->nspid;
		tid = run_cur_nstid();
		s += 11;
	} else {
		errno = 0;
		pid = strtol(s, &end, 10);
		if (errno || end == s || pid <= 0 || pid > INT_MAX)
			return 1;
		s = end;
		if (!strncmp(s, "/task/", 6)) {
			tid = strtol(s + 6, &end, 10);
			if (end == s + 6 || tid <= 0 || tid > INT_MAX)
				return 1;
			s = end;
		}
	}
	if (strncmp(s, "/ns/", 4) || !s[4] || strchr(s + 4, '/'))
		return 1;
	n = uvfs_readlinkat(T(p), AT_FDCWD, abs, body, sizeof(body));
	if (n < 0)
		return (int)n;
	if (tid > 0)
		snprintf(kpath, size, "%ld/task/%ld/ns/%s", pid, tid, s + 4);
	else
		snprintf(kpath, size, "%ld/ns/%s", pid, s + 4);
	return 0;
}

static int host_fd_name(const struct proc *p, const char *path, char *link, size_t size)
{
	char own[32];
	const char *n = NULL;
	char *end;
	long fd, pid;

	snprintf(own, sizeof(own), "/proc/%d/fd/", p->up->nspid);
	if (!strncmp(path, "/proc/", 6) && path[6] >= '1' && path[6] <= '9' &&
	    strncmp(path, own, strlen(own))) {
		/* another process's: one its fd directory lists as the embedder's, a
		 * link uvfs has no file behind (a link uvfs follows is its own) */
		struct stat st;
		pid_t host;

		errno = 0;
		pid = strtol(path + 6, &end, 10);
		if (errno || pid > INT_MAX || strncmp(end, "/fd/", 4) || end[4] < '0' ||
		    end[4] > '9')
			return -1;
		fd = strtol(end + 4, &end, 10);
		if (errno || *end || fd > INT_MAX ||
		    uvfs_fstatat(T(p), AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISLNK(st.st_mode) || (host = run_host_tgid((pid_t)pid)) <= 0)
			return -1;
		snprintf(link, size, "/proc/%d/fd/%ld", host, fd);
		return (int)fd;
	}
	if (!strncmp(path, "/proc/self/fd/", 14))
		n = path + 14;
	else if (!strncmp(path, "/proc/thread-self/fd/", 21))
		n = path + 21;
	else if (!strncmp(path, own, strlen(own)))
		n = path + strlen(own);
	else if (!strncmp(path, "/dev/fd/", 8))
		n = path + 8;
	else if (!strcmp(path, "/dev/stdin"))
		n = "0";
	else if (!strcmp(path, "/dev/stdout"))
		n = "1";
	else if (!strcmp(path, "/dev/stderr"))
		n = "2";
	if (!n || *n < '0' || *n > '9')
		return -1;
	errno = 0;
	fd = strtol(n, &end, 10);
	if (errno || *end || fd > INT_MAX || ufd(p, fd))
		return -1;
	snprintf(link, size, "/proc/%d/fd/%ld", p->tid, fd);
	return (int)fd;
}

/* Scratch memory in the process for a rewritten call's string: below the red zone */
static unsigned long scratch(const struct user_regs_struct *r, size_t len)
{
	return (r->rsp - 128 - len - 64) & ~15ul;
}

/*
 * A path call on a host descriptor's /proc name (stat, statx, access, readlink, open)
 * is made by the supervisor on the kernel's /proc/TID/fd/N (host_fd_name()), the
 * result written back -- the kernel is never given a path to read from the
 * program's memory.
 */

/* ---------------------------------------------------------------------------------
 * Opening (delivered by notification): uvfs opens, the supervisor opens what stands
 * in for uvfs's file in the kernel's table, and trace.c installs it at the lowest
 * free number of the process's table (ADDFD) and moves uvfs's descriptor there
 * (run_installed()) before the process sees the number.  Nothing is written into the
 * process's memory and nothing it could change afterwards is read again.
 */

/*
 * The kernel's checks at a device's or a host descriptor's open (a device's ->open:
 * CAP_SYSLOG for /dev/kmsg; the inode's permission for /proc/TID/fd/N) are made
 * against the caller's credentials, and the supervisor opens in its place: its thread
 * takes the caller's filesystem ids, groups and effective capabilities for the open
 * (all per-thread in the kernel: the raw calls, not glibc's, which would change every
 * thread), then its own back.
 */
struct sup_creds {
	bool changed;
};

/* the supervisor's own supplementary groups, read once (before any change: every
 * thread puts its own back, as_supervisor) */
static gid_t sup_groups[NGROUPS_MAX];
static int sup_ngroups = -1;
static pthread_once_t sup_once = PTHREAD_ONCE_INIT;

static void sup_groups_read(void)
{
	sup_ngroups = (int)syscall(SYS_getgroups, NGROUPS_MAX, sup_groups);
}

/* The caller's filesystem ids, groups and effective capabilities; or, for access()
 * (real), what do_faccessat()'s access_override_creds() makes of them: the real
 * ids as filesystem ids, and no capabilities for a real uid other than 0, the
 * permitted ones for 0 */
static int as_caller_ids(const struct proc *p, struct sup_creds *sc, bool real)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct uvfs_caps caps;
	gid_t groups[NGROUPS_MAX];
	int fsuid = uvfs_setfsuid(T(p), (uid_t)-1), fsgid = uvfs_setfsgid(T(p), (gid_t)-1);
	int n = uvfs_getgroups(T(p), NGROUPS_MAX, groups);
	uint64_t eff;

	sc->changed = false;
	pthread_once(&sup_once, sup_groups_read);
	if (fsuid < 0 || fsgid < 0 || n < 0 || sup_ngroups < 0 || uvfs_capget(T(p), &caps) ||
	    syscall(SYS_capget, &h, d))
		return -EPERM;
	eff = caps.effective;
	if (real) {
		uid_t ru, eu, su;
		gid_t rg, eg, sg;

		if (uvfs_getresuid(T(p), &ru, &eu, &su) || uvfs_getresgid(T(p), &rg, &eg, &sg))
			return -EPERM;
		fsuid = (int)ru;
		fsgid = (int)rg;
		eff = ru ? 0 : caps.permitted;
	}
	if (fsuid == 0 && fsgid == 0 && eff == ((uint64_t)d[1].effective << 32 | d[0].effective))
		return 0;  /* root with root's capabilities: the supervisor's own */
	sc->changed = true;
	if (syscall(SYS_setgroups, n, groups) || syscall(SYS_setfsgid, fsgid) < 0)
		return -EPERM;
	syscall(SYS_setfsuid, fsuid);
	d[0].effective = (uint32_t)eff & d[0].permitted;
	d[1].effective = (uint32_t)(eff >> 32) & d[1].permitted;
	return syscall(SYS_capset, &h, d) ? -EPERM : 0;
}

static int as_caller(const struct proc *p, struct sup_creds *sc)
{
	return as_caller_ids(p, sc, false);
}

static void as_supervisor(struct sup_creds *sc)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (!sc->changed)
		return;
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
	syscall(SYS_setgroups, sup_ngroups, sup_groups);
	if (!syscall(SYS_capget, &h, d)) {
		d[0].effective = d[0].permitted;
		d[1].effective = d[1].permitted;
		syscall(SYS_capset, &h, d);
	}
}

/* access() and faccessat() of a host descriptor's /proc name: checked by the kernel
 * on /proc/TID/fd/N with the credentials the caller's call would use (as_caller_ids:
 * the real ids, or with AT_EACCESS its own), its supplementary groups among them */
/*
 * The kernel's identity of host task tid's mount namespace, given to uvfs's
 * namespace of t (uvfs_set_mnt_ns_id()): each of uvfs's namespaces has one of the
 * kernel's beside it (made by the init's clone, unshare, clone(CLONE_NEWNS)), so a
 * program's statmount mnt_ns_id and the NS_GET_MNTNS_ID of its /proc/self/ns/mnt
 * agree (LTP's statmount09).  Before Linux 6.10 (no such ioctl) uvfs's own count.
 */
#define NS_GET_MNTNS_ID_ 0x8008b705u  /* _IOR(0xb7, 0x5, __u64) */
void run_sync_mnt_ns_id(struct uvfs_task *t, pid_t tid)
{
	char path[48];
	uint64_t id;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!ioctl(fd, NS_GET_MNTNS_ID_, &id))
		uvfs_set_mnt_ns_id(t, id);
	close(fd);
}

/* proc_ns_kpath() as a path the supervisor opens: 0 with path, 1 when not such a link,
 * or uvfs's -errno */
static int proc_ns_link(struct proc *p, int dirfd, const char *name, char *path, size_t size)
{
	char kpath[96];
	int h = proc_ns_kpath(p, dirfd, name, kpath, sizeof(kpath));

	if (!h)
		snprintf(path, size, "/proc/self/fd/%d/%s", run_proc_fd, kpath);
	return h;
}

static long host_fd_access(const struct proc *p, const char *link, int mode, int flags)
{
	struct sup_creds sc;
	long ret;

	ret = as_caller_ids(p, &sc, !(flags & AT_EACCESS));
	if (!ret) {
		ret = syscall(SYS_faccessat2, AT_FDCWD, link, mode, flags | AT_EACCESS);
		ret = ret < 0 ? -errno : 0;
	}
	as_supervisor(&sc);
	return ret;
}

/* O_TMPFILE's own bit: O_TMPFILE includes O_DIRECTORY, which a reopen for the
 * program must keep (open of /proc/self/fd/N of a pipe with O_DIRECTORY: ENOTDIR) */
#define O_TMPFILE_ONLY (O_TMPFILE & ~O_DIRECTORY)

/* open() of path with the caller's credentials: a descriptor or -errno */
static int open_as_caller(const struct proc *p, const char *path, int flags)
{
	struct sup_creds sc;
	int r = as_caller(p, &sc);

	if (!r) {
		r = open(path, flags);
		r = r < 0 ? -errno : r;
	}
	as_supervisor(&sc);
	return r;
}

/* The supervisor's own open of one of its descriptors, for the program: a new open
 * file description, so that the program's offset, flags and locks are its own.
 * O_NOCTTY: the supervisor never takes a terminal as its own; O_NOFOLLOW is the
 * caller's walk's, which uvfs made (the magic link itself is a symlink). */
static int reopen(int fd, int flags)
{
	char link[64];
	int r;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	r = open(link, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC | O_NOFOLLOW)) |
		 O_NOCTTY | O_CLOEXEC);
	return r < 0 ? -errno : r;
}

/* reopen() of a host file's descriptor for uvfs's descriptor ufd: through a
 * read-only mount with O_NOATIME, where the embedder may (the owner, CAP_FOWNER), so
 * that the kernel's reads through it leave the host's access time as a read-only
 * mount does (touch_atime()) */
static int reopen_noatime(struct proc *p, int hfd, int ufd, int flags)
{
	struct statfs sfs;
	int r;

	if (!uvfs_fstatfs(T(p), ufd, &sfs) && (sfs.f_flags & ST_RDONLY) &&
	    (r = reopen(hfd, flags | O_NOATIME)) >= 0)
		return r;
	return reopen(hfd, flags);
}

/* reopen() for the caller of a host device: with its credentials */
static int reopen_as_caller(const struct proc *p, int fd, int flags)
{
	char link[64];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	return open_as_caller(p, link, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC |
						  O_NOFOLLOW)) | O_NOCTTY | O_CLOEXEC);
}

/*
 * A device node on a read-only uvfs mount (the host's root, a --ro-bind): the host's
 * node lies on the host's writable /dev, and a descriptor opened through that mount
 * would let fchmod, fchown, futimens and the rest -- calls on a host descriptor, never
 * trapped -- change the host's node.  A node of the host's /dev is opened instead
 * through the program's kernel-side /dev, which the init made read-only (main.c): the
 * kernel answers them EROFS itself, and /proc/PID/fd names it /dev/... as before.
 * 0 when that cannot be (no such /dev, a node elsewhere): the caller opens as before.
 */
static int reopen_readonly_dev(const struct proc *p, int hfd, int flags)
{
	char host[PATH_MAX], link[64], path[PATH_MAX + 64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", hfd);
	n = readlink(link, host, sizeof(host) - 1);
	if (run_dev_fd < 0 || n < 6 || (size_t)n >= sizeof(host) - 1)
		return 0;
	host[n] = 0;
	if (strncmp(host, "/dev/", 5))
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", run_dev_fd, host + 5);
	return open_as_caller(p, path, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC |
						  O_NOFOLLOW)) | O_NOCTTY | O_CLOEXEC);
}

/* Whether uvfs's descriptor lies on a noexec mount */
static bool on_noexec(struct proc *p, int fd)
{
	struct statfs sfs;

	return !uvfs_fstatfs(T(p), fd, &sfs) && (sfs.f_flags & ST_NOEXEC);
}

static enum action install(struct proc *p, struct user_regs_struct *r, int hfd, int ufd,
			   int flags)
{
	if (hfd < 0) {
		if (ufd >= 0)
			uvfs_close(T(p), ufd);
		return skip(r, hfd);
	}
	p->inst_hfd = hfd;
	p->inst_ufd = ufd;
	p->inst_flags = (unsigned int)(flags & O_CLOEXEC);
	return ACT_INSTALL;
}

/* /dev/tty: the process's controlling terminal, not the supervisor's -- the device
 * /proc/TID/stat's tty_nr names (ENXIO without one, as tty_open_current_tty()) */
static int open_ctty(const struct proc *p, int flags)
{
	char path[64], buf[1024], *s;
	unsigned int maj, min;
	ssize_t n;
	int fd, tty_nr = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", p->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENXIO;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ENXIO;
	buf[n] = 0;
	s = strrchr(buf, ')');  /* the name may hold anything but the last ')' */
	if (!s || sscanf(s, ") %*c %*d %*d %*d %d", &tty_nr) != 1 || !tty_nr)
		return -ENXIO;
	maj = (unsigned int)((tty_nr >> 8) & 0xfff);
	min = (unsigned int)((tty_nr & 0xff) | ((tty_nr >> 12) & 0xfff00));
	if (maj >= 136 && maj <= 143)
		snprintf(path, sizeof(path), "/dev/pts/%u", (maj - 136) * 256 + min);
	else if (maj == 4 && min < 64)
		snprintf(path, sizeof(path), "/dev/tty%u", min);
	else if (maj == 4)
		snprintf(path, sizeof(path), "/dev/ttyS%u", min - 64);
	else if (maj == 5 && min == 1)
		snprintf(path, sizeof(path), "/dev/console");
	else
		snprintf(path, sizeof(path), "/dev/char/%u:%u", maj, min);
	return open_as_caller(p, path, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC |
						  O_NOFOLLOW)) | O_NOCTTY | O_CLOEXEC);
}

/*
 * A device node of memfs (a program's mknod in /tmp: LTP's open11, a chroot's /dev
 * being built): the device itself, as Linux's tmpfs opens it (init_special_inode()'s
 * chrdev_open), through a node of the same number made for the moment on the
 * stand-ins' tmpfs -- which is not nodev -- and opened there with the caller's
 * credentials (uvfs has made every check on its own node; the kernel still makes its
 * own on the device: the device cgroup, a driver's refusal).  The program's
 * descriptor is the kernel's from then on, as for a host mount's node.  Not as
 * Linux: /proc/PID/fd names it "/tmp/.cN (deleted)" (docs/SEMANTICS.md §9).
 */
static int open_memfs_device(const struct proc *p, const struct stat *st, int flags)
{
	static unsigned long seq;
	char name[32], path[64];
	int fd;

	snprintf(name, sizeof(name), ".c%lu", __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	if (mknodat(run_standin_dir, name, (st->st_mode & S_IFMT) | 0600, st->st_rdev))
		return -errno;
	/* DAC was uvfs's, on its node: the kernel's must not refuse the caller here */
	if (fchmodat(run_standin_dir, name, 0666, 0)) {
		fd = -errno;
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", run_standin_dir, name);
	fd = open_as_caller(p, path, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC |
					       O_NOFOLLOW)) | O_NOCTTY | O_CLOEXEC);
out:
	(void)unlinkat(run_standin_dir, name, 0);
	return fd;
}

/* A device node of a host mount: the host's device, opened by the supervisor (uvfs
 * has made every check of the walk and of may_open(): its own open answers ENXIO
 * only after them); the program's descriptor is the host's from then on. */
static enum action open_device(struct proc *p, struct user_regs_struct *r, int dirfd,
			       const char *path, int flags)
{
	int o = uvfs_openat(T(p), dirfd, path, O_PATH | (flags & O_NOFOLLOW), 0), hfd, dev;
	struct statfs sfs;
	struct stat st;

	if (o < 0)
		return skip(r, -ENXIO);
	hfd = uvfs_host_fd(T(p), o);
	if (hfd == -EXDEV && !uvfs_fstat(T(p), o, &st) && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		dev = open_memfs_device(p, &st, flags);
		uvfs_close(T(p), o);
		return install(p, r, dev, -1, flags);
	}
	if (hfd < 0 || uvfs_fstat(T(p), o, &st) || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		uvfs_close(T(p), o);
		return skip(r, -ENXIO);
	}
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(5, 0))
		dev = open_ctty(p, flags);
	else if (uvfs_fstatfs(T(p), o, &sfs) || !(sfs.f_flags & ST_RDONLY) ||
		 !(dev = reopen_readonly_dev(p, hfd, flags)))
		dev = reopen_as_caller(p, hfd, flags);
	uvfs_close(T(p), o);
	return install(p, r, dev, -1, flags);
}

_Thread_local bool run_on_helper;

static enum action install_opened(struct proc *p, struct user_regs_struct *r, int fd, int flags);

/* A struct file_handle with the most room the kernel allows */
union handle_buf {
	struct file_handle h;
	unsigned char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
};

/* name_to_handle_at: uvfs's handle (memfs's are tmpfs's), and the mount's id, into
 * the program's memory; a name relative to a descriptor that is not uvfs's is the
 * kernel's (a handle is no access: opening one is uvfs's, below).  The header is
 * read first: the checks on it come after the walk's, so a fault is EFAULT then. */
static long do_name_to_handle(struct proc *p, const struct user_regs_struct *r)
{
	char path[NAME_MAX_BYTES] = "";
	union handle_buf hb;
	int flags = iarg(A4(r)), dirfd = iarg(A0(r)), err;
	bool unique = flags & 0x1;  /* AT_HANDLE_MNT_ID_UNIQUE */
	uint64_t mnt;
	bool head;

	err = get_path(p, A1(r), path);
	if (err)
		return err;
	if (dirfd_native(p, dirfd, path)) {
		/* a host object: no handle of it (a deliberate difference, as for a host
		 * directory's files), after the walk's start as the kernel checks it */
		err = host_fd_kind(p, dirfd);
		return err == -EBADF || (err && path[0]) ? err : -EOPNOTSUPP;
	}
	head = !mem_read(p->tid, A2(r), &hb.h, sizeof(hb.h));
	err = uvfs_name_to_handle_at(T(p), dirfd, path, head ? &hb.h : NULL,
				     A3(r) ? (void *)&mnt : NULL, flags);
	if (err && err != -EOVERFLOW)
		return err;
	if (mem_write(p->tid, A3(r), &mnt, unique ? sizeof(uint64_t) : sizeof(int)))
		return -EFAULT;
	if (mem_write(p->tid, A2(r), &hb, sizeof(hb.h) + (err ? 0 : hb.h.handle_bytes)))
		return -EFAULT;
	return err;
}

/* open_by_handle_at: answered by uvfs alone -- a handle is never the kernel's to
 * decode (it would open a host inode past every check); a mount descriptor that is
 * not uvfs's has no handles uvfs can open (ESTALE, as a filesystem without export
 * operations), or is none (EBADF) */
static enum action do_open_by_handle(struct proc *p, struct user_regs_struct *r)
{
	int mfd = iarg(A0(r)), flags = iarg(A2(r)), fd;
	union handle_buf hb;
	bool ok;

	if (mfd != AT_FDCWD && !ufd(p, mfd)) {
		int kind = host_fd_kind(p, mfd);

		return skip(r, kind == -EBADF ? -EBADF : -ESTALE);
	}
	ok = !mem_read(p->tid, A1(r), &hb.h, sizeof(hb.h));
	if (ok && hb.h.handle_bytes && hb.h.handle_bytes <= MAX_HANDLE_SZ)
		ok = !mem_read(p->tid, A1(r) + sizeof(hb.h), hb.h.f_handle, hb.h.handle_bytes);
	uvfs_set_nowait(!run_on_helper);  /* a fifo's or a lease's wait: on a helper */
	fd = uvfs_open_by_handle_at(T(p), mfd, ok ? &hb.h : NULL, flags);
	uvfs_set_nowait(false);
	if (fd == -UVFS_EWOULDWAIT)
		return ACT_WAIT;
	if (fd < 0)
		return skip(r, fd);
	return install_opened(p, r, fd, flags);
}

static enum action do_open(struct proc *p, struct user_regs_struct *r, int dirfd,
			   unsigned long long path_addr, int flags, mode_t mode,
			   const struct uvfs_open_how *how, size_t how_size)
{
	char path[NAME_MAX_BYTES], link[64], link2[128];
	int fd, hfd, err = get_path(p, path_addr, path);

	if (err)
		return skip(r, err);
	/* on the loop, an open that would wait (a uvfs fifo's) does nothing and is made
	 * again on a helper thread (waits.c) */
	uvfs_set_nowait(!run_on_helper);
	fd = how ? uvfs_openat2(T(p), dirfd, path, how, how_size)
		 : uvfs_openat(T(p), dirfd, path, flags, mode);
	uvfs_set_nowait(false);
	if (fd == -UVFS_EWOULDWAIT)
		return ACT_WAIT;
	if (fd == -EBADF && dirfd_native(p, dirfd, path)) {
		/* a name relative to a host descriptor: uvfs has made every check that
		 * comes before the walk (flags, the name); the kernel's answer at the
		 * walk's start is given here, not by letting it read the name again --
		 * another thread could make it absolute meanwhile, a host path outside
		 * every mount of uvfs's.  A host directory (inherited from uvfs-run's
		 * caller) is the host's: the kernel opens in it ("..": SEMANTICS §9). */
		err = host_fd_kind(p, dirfd);
		return err ? skip(r, err) : ACT_NATIVE;
	}
	if (fd == -ENOENT || fd == -ENXIO) {
		if (host_fd_name_at(p, dirfd, path, link, sizeof(link)) >= 0) {
			/* the same file as the host descriptor, as the kernel's
			 * /proc/TID/fd/N reopens it */
			hfd = open_as_caller(p, link, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY |
								 O_CLOEXEC)) | O_NOCTTY | O_CLOEXEC);
			return install(p, r, hfd, -1, flags);
		}
	}
	if (fd == -ENOENT && !(flags & O_NOFOLLOW) && !proc_ns_link(p, dirfd, path, link2, sizeof(link2))) {
		/* /proc/PID/ns/TYPE: the kernel's namespace file, opened as the program
		 * after uvfs's readlink (its EACCES first), the program's descriptor the
		 * kernel's -- setns(2) and the NS_GET_* ioctls are the kernel's on it */
		hfd = open_as_caller(p, link2, (flags & ~(O_CREAT | O_EXCL | O_TMPFILE_ONLY | O_CLOEXEC)) |
						O_NOCTTY | O_CLOEXEC);
		return install(p, r, hfd, -1, flags);
	}
	if (fd == -ENXIO)
		return open_device(p, r, dirfd, path, flags);
	if (fd < 0)
		return skip(r, fd);
	return install_opened(p, r, fd, flags);
}

/*
 * inotify_init1(flags): uvfs's inotify descriptor, whose stand-in is a copy of the
 * eventfd uvfs keeps readable while events are queued -- poll, select and epoll of
 * the program see that; its reads, FIONREAD and close are uvfs's (watched numbers)
 */
static enum action do_inotify_init(struct proc *p, struct user_regs_struct *r, int flags)
{
	int fd = uvfs_inotify_init1(T(p), flags), efd;

	if (fd < 0)
		return skip(r, fd);
	efd = uvfs_inotify_pollfd(T(p), fd);
	return install(p, r, efd < 0 ? efd : fcntl(efd, F_DUPFD_CLOEXEC, 0), fd,
		       (flags & IN_CLOEXEC) ? O_CLOEXEC : 0);
}

/* inotify_add_watch(fd, path, mask) and inotify_rm_watch(fd, wd) on a number that is
 * not uvfs's: no inotify descriptor (inotify's are all uvfs's): EINVAL if the
 * number is open on the host, else EBADF -- after the mask's own EINVALs, which
 * uvfs gives first */
static long inotify_on_host(const struct proc *p, int fd, long err)
{
	return err == -EBADF && host_fd_kind(p, fd) != -EBADF ? -EINVAL : err;
}

/*
 * A memfs directory's stand-in (uvfs_standin's make): an empty directory of the
 * kernel's, made on the stand-ins' tmpfs and removed as soon as it is open, so that
 * the kernel's locks on the reopens of it are the directory's own (on the null
 * device, every memfs directory's locks were one); mmap of it is ENODEV as of any
 * directory.  A fifo's (arg non-NULL; memfs's or a host mount's, whose data uvfs
 * keeps) and a procfs file's: a node of the null device's number made the same way,
 * so that its locks are its own while poll, mmap and the rest answer as the shared
 * null device did.
 * Nothing is left on the tmpfs but while a worker is here.
 */
static int standin_make(void *arg)
{
	static unsigned long seq;
	char name[32];
	int fd, err;

	snprintf(name, sizeof(name), ".d%lu", __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
	if (arg ? mknodat(run_standin_dir, name, S_IFCHR | 0600, makedev(1, 3))
		: mkdirat(run_standin_dir, name, 0500))
		return -errno;
	fd = openat(run_standin_dir, name, (arg ? O_RDWR : O_RDONLY | O_DIRECTORY) | O_CLOEXEC);
	err = errno;
	(void)unlinkat(run_standin_dir, name, arg ? 0 : AT_REMOVEDIR);
	return fd < 0 ? -err : fd;
}

/*
 * Whether the supervisor has room for one more memfd of a memfs file (or stand-in of
 * its own, uvfs_standin()): it holds each while the program has the file open, and
 * its own descriptors besides, under a limit that may be the program's own (main.c,
 * raise_nofile).  Within RESERVE of its limit a file gets the null device as
 * stand-in instead: uvfs answers its reads and writes as ever; mmap, exec, splice
 * and locks are then as for a noexec mount's file, its locks shared with every such
 * file's (docs/SEMANTICS.md §9) -- rather than EMFILE while the program is below its
 * limit.
 * The supervisor's lowest free number tells: memfds fill the table from the bottom.
 * Asked only once a memfd's number came near the limit.
 */
#define MEMFD_RESERVE 256u
static bool memfd_tight;

static void note_memfd(int hfd)
{
	if (hfd >= 0 && (unsigned long)hfd + MEMFD_RESERVE >= run_nofile)
		__atomic_store_n(&memfd_tight, true, __ATOMIC_RELAXED);
}

static bool room_for_memfd(void)
{
	int probe;
	bool room;

	if (!__atomic_load_n(&memfd_tight, __ATOMIC_RELAXED))
		return true;
	probe = fcntl(run_null_fd, F_DUPFD_CLOEXEC, 0);
	room = probe >= 0 && (unsigned long)probe + MEMFD_RESERVE < run_nofile;
	if (probe >= 0)
		close(probe);
	if (room)
		__atomic_store_n(&memfd_tight, false, __ATOMIC_RELAXED);
	return room;
}

/* uvfs's new descriptor fd given to the program: the kernel's object that stands
 * for it (the real file, the memfd of its data, the kernel's /proc/PID, a memfs
 * directory's own, or the null device), installed at the number uvfs gave */
static enum action install_opened(struct proc *p, struct user_regs_struct *r, int fd, int flags)
{
	char link[96], name[16];
	struct stat st;
	int hfd, hflags, pid, tid;

	hfd = uvfs_host_fd(T(p), fd);
	if (hfd >= 0 && !uvfs_fstat(T(p), fd, &st) && !(flags & O_PATH) && S_ISREG(st.st_mode)) {
		/* the real file, opened as uvfs opened it (uvfs has made every check,
		 * EROFS among them): mmap, exec, locks and fallocate through this
		 * descriptor reach it, with no more rights than the program's */
		hflags = flags & (O_ACCMODE | O_APPEND);
		return install(p, r, reopen_noatime(p, hfd, fd, hflags), fd, flags);
	} else if (hfd >= 0 && !(flags & O_PATH) && S_ISDIR(st.st_mode)) {
		return install(p, r, reopen_noatime(p, hfd, fd, O_RDONLY), fd, flags);
	} else if (hfd < 0 && !(flags & O_PATH) && !on_noexec(p, fd) && room_for_memfd() &&
		   (hfd = uvfs_memfd(T(p), fd)) != -EXDEV) {
		/* a memfs file: the memfd that holds its data (UVFS_MEMFD), so that the
		 * kernel maps, executes and locks the bytes uvfs reads and writes.  Not
		 * on a noexec mount: the memfd lives on the kernel's own shm mount, which
		 * is not noexec, and mmap(PROT_EXEC) of it would run what the mount
		 * forbids (deliberate difference: such a file cannot be mapped at all,
		 * ENODEV, docs/SEMANTICS.md §9) */
		if (hfd < 0)
			return install(p, r, hfd, fd, flags);
		note_memfd(hfd);
		hflags = flags & (O_ACCMODE | O_APPEND);
	} else if (run_proc_fd >= 0 && !(flags & O_PATH) &&
		   (pid = uvfs_proc_file(T(p), fd, &tid, name, sizeof(name))) > 0 &&
		   (!strcmp(name, "mem") || !strcmp(name, "uid_map") || !strcmp(name, "gid_map") ||
		    !strcmp(name, "setgroups") ||
		    (!strcmp(name, "comm") && (flags & O_ACCMODE) == O_WRONLY))) {
		/* /proc/PID/mem: the process's memory is the kernel's -- its own file,
		 * of the program's pid namespace, opened with the program's credentials
		 * after uvfs's checks (mm_access(): the kernel asks ptrace_may_access()
		 * again), and the program's descriptor is the kernel's from then on.  So
		 * is a comm opened for writing: the kernel takes a name from a thread of
		 * the same group only (comm_write(): EINVAL from the supervisor), so the
		 * program's own write must reach it; and uid_map, gid_map, setgroups,
		 * whose open file holds the user namespace (proc_id_map_open()): read
		 * after the process is gone, written as the opener (newuidmap) */
		if (tid)
			snprintf(link, sizeof(link), "/proc/self/fd/%d/%d/task/%d/%s", run_proc_fd, pid,
				 tid, name);
		else
			snprintf(link, sizeof(link), "/proc/self/fd/%d/%d/%s", run_proc_fd, pid, name);
		uvfs_close(T(p), fd);
		return install(p, r, open_as_caller(p, link, (flags & O_ACCMODE) | O_NOCTTY | O_CLOEXEC),
			       -1, flags);
	} else if (run_proc_fd >= 0 && !(flags & O_PATH) && (pid = uvfs_proc_pid(T(p), fd)) > 0 &&
		   (snprintf(link, sizeof(link), "%d", pid),
		    (hfd = openat(run_proc_fd, link, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)) {
		/* a /proc/PID directory: the kernel's own, of the program's pid namespace,
		 * which is a pidfd as Linux's is (pidfd_send_signal: psmisc's killall
		 * signals through it); uvfs answers the rest, as for any directory */
		return install(p, r, hfd, fd, flags);
	} else if (!(flags & O_PATH) && !uvfs_fstat(T(p), fd, &st) && room_for_memfd() &&
		   (hfd = uvfs_standin(T(p), fd, standin_make,
				       S_ISDIR(st.st_mode) ? NULL : (void *)1)) != -EXDEV) {
		/* a memfs directory, a fifo, a procfs file or directory, a memfs file
		 * that has no memfd (noexec, or no room): its own (above), so that flock
		 * and POSIX locks are per file as on Linux; with the program's access
		 * mode for a fifo or file (mmap checks it first, as of the null device
		 * below).  Held by the supervisor while the file is open, as a memfd is:
		 * within MEMFD_RESERVE of its limit, the null device instead */
		if (hfd < 0)
			return install(p, r, hfd, fd, flags);
		note_memfd(hfd);
		hflags = S_ISDIR(st.st_mode) ? O_RDONLY | O_DIRECTORY : flags & O_ACCMODE;
	} else {
		/* /proc's directories, a host mount's socket or symlink, and
		 * every O_PATH file: the null device stands in (ADDFD installs no O_PATH
		 * descriptor -- the kernel's fget() -- and a host fifo must not be
		 * opened: uvfs answers its reads and writes).  With the program's
		 * access mode: mmap of it (not trapped but for O_PATH) checks that
		 * first, as the kernel does of the file (do_mmap(): EACCES, then
		 * ENODEV) */
		hfd = run_null_fd;
		hflags = flags & O_PATH ? O_RDONLY : flags & O_ACCMODE;
	}
	return install(p, r, reopen(hfd, hflags), fd, flags);
}

/*
 * The new mount API (issue 33): fsopen, fsconfig, fsmount, move_mount, open_tree and
 * mount_setattr answered by uvfs on its namespace.  A context's descriptor and a
 * detached tree's O_PATH one have the null device as stand-in (nothing of the
 * kernel's is behind them); their numbers are uvfs's.  The strings are read as the
 * kernel copies them: a name or key of a page or 256 bytes at most.
 */
#define FSCONFIG_KEY_MAX 256

static long two_paths(struct proc *p, unsigned long long a, unsigned long long b,
		      char *pa, char *pb);

/* A string argument that may be NULL (fsconfig's key and value): 0 with *out buf or
 * NULL, or -EFAULT; one too long is passed cut at max - 1 bytes and no NUL, which
 * uvfs refuses as the kernel does (EINVAL) */
static int opt_string(const struct proc *p, unsigned long long addr, char *buf, size_t max,
		      const char **out)
{
	int err;

	*out = NULL;
	if (!addr)
		return 0;
	err = mem_read_str(p->tid, addr, buf, max);
	if (err == -ENAMETOOLONG) {
		memset(buf, 'x', max - 1);
		buf[max - 1] = 0;
		err = 0;
	}
	if (!err)
		*out = buf;
	return err;
}

static enum action do_mount_api(struct proc *p, struct user_regs_struct *r, long nr)
{
	char a[NAME_MAX_BYTES], b[NAME_MAX_BYTES];
	struct uvfs_task *t = T(p);
	const char *key, *value;
	long ret;
	int fd;

	switch (nr) {
	case SYS_fsopen:
		if ((ret = mem_read_str(p->tid, A0(r), a, 4096)))
			return skip(r, ret == -ENAMETOOLONG ? -ENODEV : ret);
		fd = uvfs_fsopen(t, a, (unsigned int)A1(r));
		return fd < 0 ? skip(r, fd) : install_opened(p, r, fd,
			O_RDWR | ((A1(r) & FSOPEN_CLOEXEC) ? O_CLOEXEC : 0));
	case SYS_fsconfig: {
		unsigned int cmd = (unsigned int)A1(r);
		int aux;

		if ((ret = opt_string(p, A2(r), a, FSCONFIG_KEY_MAX + 1, &key)))
			return skip(r, ret);
		value = A3(r) ? "" : NULL;  /* a binary value: only whether there is one */
		if ((cmd == FSCONFIG_SET_STRING || cmd == FSCONFIG_SET_PATH ||
		     cmd == FSCONFIG_SET_PATH_EMPTY) &&
		    (ret = opt_string(p, A3(r), b, cmd == FSCONFIG_SET_STRING ?
				      FSCONFIG_KEY_MAX + 1 : NAME_MAX_BYTES, &value)))
			return skip(r, ret);
		aux = iarg(A4(r));
		/* FSCONFIG_SET_FD's descriptor is only checked to be open (no parameter
		 * of uvfs's filesystems takes a file): one of the kernel's alone (the
		 * program's stdin) is open too -- the context's own number stands in */
		if (cmd == FSCONFIG_SET_FD && aux >= 0 && !ufd(p, aux) && host_fd_kind(p, aux) != -EBADF)
			aux = iarg(A0(r));
		return skip(r, uvfs_fsconfig(t, iarg(A0(r)), cmd, key, value, aux));
	}
	case SYS_fsmount:
		fd = uvfs_fsmount(t, iarg(A0(r)), (unsigned int)A1(r), (unsigned int)A2(r));
		return fd < 0 ? skip(r, fd) : install_opened(p, r, fd,
			O_PATH | ((A1(r) & FSMOUNT_CLOEXEC) ? O_CLOEXEC : 0));
	case SYS_fspick:
		if ((ret = get_path(p, A1(r), a)))
			return skip(r, ret);
		fd = uvfs_fspick(t, iarg(A0(r)), a, (unsigned int)A2(r));
		return fd < 0 ? skip(r, fd) : install_opened(p, r, fd,
			O_RDWR | ((A2(r) & FSPICK_CLOEXEC) ? O_CLOEXEC : 0));
	case SYS_open_tree:
	case 467: {  /* open_tree_attr */
		unsigned char attr[4096];
		size_t size = nr == 467 ? (size_t)A4(r) : 0;
		const struct uvfs_mount_attr *ua = NULL;

		if ((ret = get_path(p, A1(r), a)))
			return skip(r, ret);
		if (nr == 467 && A3(r) && size >= sizeof(*ua) && size <= sizeof(attr)) {
			if (mem_read(p->tid, A3(r), attr, size))
				return skip(r, -EFAULT);
			ua = (const struct uvfs_mount_attr *)attr;
		} else if (nr == 467 && A3(r)) {
			/* a size uvfs refuses before it reads: any non-NULL pointer */
			ua = (const struct uvfs_mount_attr *)attr;
		}
		fd = nr == 467 ? uvfs_open_tree_attr(t, iarg(A0(r)), a, (unsigned int)A2(r), ua, size)
			       : uvfs_open_tree(t, iarg(A0(r)), a, (unsigned int)A2(r));
		return fd < 0 ? skip(r, fd) : install_opened(p, r, fd,
			O_PATH | ((A2(r) & OPEN_TREE_CLOEXEC) ? O_CLOEXEC : 0));
	}
	case SYS_move_mount:
		if ((ret = two_paths(p, A1(r), A3(r), a, b)))
			return skip(r, ret);
		return skip(r, uvfs_move_mount(t, iarg(A0(r)), a, iarg(A2(r)), b,
					       (unsigned int)A4(r)));
	case 457:  /* statmount */
	case 458: {  /* listmount */
		union {
			struct uvfs_mnt_id_req req;
			unsigned char bytes[4096];
		} u;
		uint32_t size;
		void *out = NULL;
		size_t n = (size_t)A2(r);

		/* copy_mnt_id_req(): the size first, then that many bytes */
		if (mem_read(p->tid, A0(r), &size, sizeof(size)))
			return skip(r, nr == 457 ? uvfs_statmount(t, NULL, NULL, 0, (unsigned int)A3(r))
					     : uvfs_listmount(t, NULL, NULL, 1, (unsigned int)A3(r)));
		memset(&u, 0, sizeof(u));
		u.req.size = size;
		if (size >= sizeof(u.req.size) && size <= sizeof(u.bytes) &&
		    mem_read(p->tid, A0(r), u.bytes, size))
			return skip(r, -EFAULT);
		if (nr == 457) {
			/* the answer into memory of ours, then the program's */
			if (n > (1u << 20))
				n = 1u << 20;  /* more than any answer needs */
			out = n ? calloc(1, n) : NULL;
			if (n && !out)
				return skip(r, -ENOMEM);
			ret = uvfs_statmount(t, &u.req, out, n, (unsigned int)A3(r));
			if (!ret) {
				uint32_t len;

				memcpy(&len, out, n < sizeof(len) ? 0 : sizeof(len));
				if (n >= sizeof(len) && mem_write(p->tid, A1(r), out, len < n ? len : n))
					ret = -EFAULT;
			}
		} else {
			if (n > (1u << 20))
				n = 1u << 20;
			out = n ? calloc(n, sizeof(uint64_t)) : NULL;
			if (n && !out)
				return skip(r, -ENOMEM);
			ret = uvfs_listmount(t, &u.req, out, n, (unsigned int)A3(r));
			if (ret > 0 && mem_write(p->tid, A1(r), out, (size_t)ret * sizeof(uint64_t)))
				ret = -EFAULT;
		}
		free(out);
		return skip(r, ret);
	}
	case SYS_mount_setattr: {
		unsigned char attr[4096];
		size_t size = (size_t)A4(r);

		/* the size's checks come first: uvfs makes them on what it is given */
		if (size > sizeof(attr) || size < sizeof(struct uvfs_mount_attr))
			return skip(r, uvfs_mount_setattr(t, iarg(A0(r)), "", (unsigned int)A2(r),
							  NULL, size));
		if ((ret = get_path(p, A1(r), a)))
			return skip(r, ret);
		if (mem_read(p->tid, A3(r), attr, size))
			return skip(r, uvfs_mount_setattr(t, iarg(A0(r)), a, (unsigned int)A2(r),
							  NULL, size));
		return skip(r, uvfs_mount_setattr(t, iarg(A0(r)), a, (unsigned int)A2(r),
						  (const struct uvfs_mount_attr *)attr, size));
	}
	}
	/* not reached: the dispatcher sends the calls above alone */
	return skip(r, -ENOSYS);
}

/*
 * openat2(dirfd, path, how, size): the struct copied as copy_struct_from_user() copies
 * it (a page at most: E2BIG beyond, before anything is read), then uvfs_openat2(),
 * which checks every field and restricts the walk as the resolve flags say.
 */
static enum action do_openat2(struct proc *p, struct user_regs_struct *r)
{
	/* uvfs_openat2 reads the bytes after the struct from the same buffer */
	union {
		struct uvfs_open_how how;
		unsigned char bytes[4096];
	} u;
	size_t size = (size_t)A3(r);

	if (size < sizeof(u.how))
		return skip(r, -EINVAL);
	if (size > sizeof(u.bytes))
		return skip(r, -E2BIG);
	if (mem_read(p->tid, A2(r), u.bytes, size))
		return skip(r, -EFAULT);
	return do_open(p, r, iarg(A0(r)), A1(r), (int)u.how.flags, (mode_t)u.how.mode,
		       &u.how, size);
}

/* A transfer done in pieces that met RLIMIT_FSIZE after some bytes had moved: the
 * short count the kernel gives, which cut the count at the limit before it wrote
 * (generic_write_check_limits(), generic_copy_file_checks()), so without the
 * SIGXFSZ uvfs sent for the last piece */
static long cut_short(struct proc *p, long done, long err)
{
	if (err == -EFBIG)
		uvfs_task_take_signals(T(p));
	return done;
}

/* ---------------------------------------------------------------------------------
 * Reading and writing a uvfs descriptor: through a buffer of the tracer's.
 */
static long do_rw(struct proc *p, int fd, unsigned long long buf, size_t count,
		  off_t off, bool positioned, bool write)
{
	size_t done = 0;
	char *tmp = malloc(count < CHUNK ? (count ? count : 1) : CHUNK);

	if (!tmp)
		return -ENOMEM;
	do {
		size_t want = count - done < CHUNK ? count - done : CHUNK;
		off_t at = off + (off_t)done;
		ssize_t n;

		if (write && mem_read(p->tid, buf + done, tmp, want)) {
			n = -EFAULT;
		} else if (write) {
			n = positioned ? uvfs_pwrite(T(p), fd, tmp, want, at)
				       : uvfs_write(T(p), fd, tmp, want);
		} else {
			n = positioned ? uvfs_pread(T(p), fd, tmp, want, at)
				       : uvfs_read(T(p), fd, tmp, want);
			if (n > 0 && mem_write(p->tid, buf + done, tmp, (size_t)n))
				n = -EFAULT;
			if (n > 0)
				run_log_data(p, fd, tmp, (size_t)n);  /* --explain */
		}
		if (n < 0) {
			free(tmp);
			return done ? cut_short(p, (long)done, n) : n;
		}
		done += (size_t)n;
		if ((size_t)n < want)
			break;
	} while (done < count);
	free(tmp);
	return (long)done;
}

/* readv/writev/preadv/pwritev: the vectors in order, stopping at a short one */
static long do_rwv(struct proc *p, int fd, unsigned long long iov_addr, long iovcnt,
		   off_t off, bool positioned, bool write)
{
	struct iovec iov[1024];
	long done = 0;
	int fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);

	/* vfs_readv()/vfs_writev(): the descriptor (fdget_pos(): O_PATH is EBADF) and
	 * its access mode before import_iovec()'s checks of the vectors */
	if (fl < 0)
		return fl;
	if ((fl & O_PATH) || (fl & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	/* import_iovec(): iovcnt is unsigned, at most UIO_MAXIOV; then
	 * copy_iovec_from_user(): a length negative as an ssize_t is EINVAL (the
	 * total is cut at MAX_RW_COUNT, never refused) */
	if (iovcnt < 0 || iovcnt > 1024)
		return -EINVAL;
	if (mem_read(p->tid, iov_addr, iov, (size_t)iovcnt * sizeof(iov[0])))
		return -EFAULT;
	for (long i = 0; i < iovcnt; i++)
		if ((ssize_t)iov[i].iov_len < 0)
			return -EINVAL;
	for (long i = 0; i < iovcnt; i++) {
		long n = do_rw(p, fd, (unsigned long)iov[i].iov_base, iov[i].iov_len, off + done,
			       positioned, write);

		if (n < 0)
			return done ? cut_short(p, done, n) : n;
		done += n;
		if ((size_t)n < iov[i].iov_len)
			break;
	}
	return done;
}

/*
 * copy_file_range between two uvfs descriptors: what the kernel's generic copy does
 * (tmpfs has no ->copy_file_range: splice through the page cache), a read and a write
 * at a time, each offset from its pointer or the file's position.  One uvfs and one
 * host descriptor: EXDEV, as two filesystems are for the kernel; programs then copy
 * with read and write (coreutils does).
 */
/* len bytes or fewer from in (at *pin, or its position) to out (at *pout, or its
 * position), both uvfs's: the count copied, or the first error */
static long copy_uvfs(struct proc *p, int in, unsigned long long pin, int out,
		      unsigned long long pout, size_t len)
{
	size_t done = 0;
	loff_t oin = 0, oout = 0;
	char *buf;

	if ((pin && mem_read(p->tid, pin, &oin, sizeof(oin))) ||
	    (pout && mem_read(p->tid, pout, &oout, sizeof(oout))))
		return -EFAULT;
	if (oin < 0 || oout < 0)
		return -EINVAL;
	buf = malloc(CHUNK);
	if (!buf)
		return -ENOMEM;
	while (done < len) {
		size_t want = len - done < CHUNK ? len - done : CHUNK;
		ssize_t n = pin ? uvfs_pread(T(p), in, buf, want, oin) : uvfs_read(T(p), in, buf, want);
		ssize_t w;

		if (n <= 0) {
			if (n < 0 && !done)
				done = (size_t)n;
			break;
		}
		w = pout ? uvfs_pwrite(T(p), out, buf, (size_t)n, oout) : uvfs_write(T(p), out, buf, (size_t)n);
		if (w < 0) {
			done = done ? (size_t)cut_short(p, (long)done, w) : (size_t)w;
			break;
		}
		if (pin)
			oin += w;
		if (pout)
			oout += w;
		done += (size_t)w;
		if (w < n)
			break;
	}
	free(buf);
	if ((long)done >= 0 && ((pin && mem_write(p->tid, pin, &oin, sizeof(oin))) ||
				(pout && mem_write(p->tid, pout, &oout, sizeof(oout)))))
		return -EFAULT;
	return (long)done;
}

/* A descriptor's type and open flags, uvfs's or the host's (/proc/TID/fd/N and its
 * fdinfo): 0 or -EBADF */
static int fd_kind(struct proc *p, int fd, mode_t *mode, int *flags)
{
	char path[64], line[128];
	struct stat st;
	FILE *f;

	if (ufd(p, fd)) {
		if (uvfs_fstat(T(p), fd, &st))
			return -EBADF;
		*mode = st.st_mode;
		*flags = uvfs_fcntl(T(p), fd, F_GETFL, 0);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", p->tid, fd);
	if (fd < 0 || stat(path, &st))
		return -EBADF;
	*mode = st.st_mode;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", p->tid, fd);
	f = fopen(path, "re");
	if (!f)
		return -EBADF;
	*flags = -1;
	while (fgets(line, sizeof(line), f) && sscanf(line, "flags: %o", (unsigned int *)flags) != 1)
		;
	fclose(f);
	return *flags < 0 ? -EBADF : 0;
}

/*
 * The program's RLIMIT_FSIZE: prlimit(), or, when this thread may not ask it (it
 * runs with the program's credentials, which lose the capabilities when the
 * effective uid is not 0: a program that did seteuid(nobody)), /proc/PID/limits,
 * which anyone may read.  0 or -errno.
 */
static int program_fsize_limit(const struct proc *p, struct rlimit *rl)
{
	char path[40], line[128];
	int fd, err = 0;
	FILE *f;

	if (!prlimit(p->up->tgid, RLIMIT_FSIZE, NULL, rl))
		return 0;
	/* the host's pid: uvfs-run's own /proc */
	snprintf(path, sizeof(path), "/proc/%d/limits", p->up->tgid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return -ESRCH;
	}
	err = -ENOENT;
	while (err && fgets(line, sizeof(line), f)) {
		char soft[32], hard[32];

		if (strncmp(line, "Max file size", 13) ||
		    sscanf(line + 13, "%31s %31s", soft, hard) != 2)
			continue;
		rl->rlim_cur = strcmp(soft, "unlimited") ? strtoull(soft, NULL, 10) : RLIM_INFINITY;
		rl->rlim_max = strcmp(hard, "unlimited") ? strtoull(hard, NULL, 10) : RLIM_INFINITY;
		err = 0;
	}
	fclose(f);
	return err;
}

/* generic_copy_file_checks(): the program's RLIMIT_FSIZE at out's position (*pout,
 * or its file position), before a byte is read -- EFBIG and SIGXFSZ with nothing to
 * copy too; a copy that starts below it is cut short by uvfs's writes.  0 or
 * -errno. */
static long copy_check_limit(struct proc *p, int out, unsigned long long pout)
{
	struct rlimit rl;
	loff_t pos;

	if (program_fsize_limit(p, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (!pout)
		pos = uvfs_lseek(T(p), out, 0, SEEK_CUR);
	else if (mem_read(p->tid, pout, &pos, sizeof(pos)))
		return -EFAULT;
	if (pos < 0 || (unsigned long long)pos < rl.rlim_cur)
		return 0;
	syscall(SYS_tgkill, p->up->tgid, p->tid, SIGXFSZ);
	return -EFBIG;
}

/*
 * copy_file_range with a uvfs descriptor: the kernel's checks in its order (the
 * descriptors, EBADF; the flags, EINVAL; generic_file_rw_checks(): a directory
 * EISDIR, anything not regular EINVAL, in not readable or out not writable or
 * O_APPEND EBADF), then across filesystems EXDEV -- one uvfs and one host descriptor
 * are two filesystems for the kernel, and programs then copy with read and write
 * (coreutils does); two uvfs ones, uvfs's copy
 */
static long do_copy_file_range(struct proc *p, const struct user_regs_struct *r)
{
	int in = iarg(A0(r)), out = iarg(A2(r)), fin, fout;
	mode_t min, mout;

	/* fdget(): an O_PATH descriptor is none */
	if (fd_kind(p, in, &min, &fin) || fd_kind(p, out, &mout, &fout) || (fin & O_PATH) ||
	    (fout & O_PATH))
		return -EBADF;
	if (A5(r))
		return -EINVAL;  /* no flags are defined */
	if (S_ISDIR(min) || S_ISDIR(mout))
		return -EISDIR;
	if (!S_ISREG(min) || !S_ISREG(mout))
		return -EINVAL;
	if ((fin & O_ACCMODE) == O_WRONLY || (fout & O_ACCMODE) == O_RDONLY || (fout & O_APPEND))
		return -EBADF;
	if (!ufd(p, in) || !ufd(p, out))
		return -EXDEV;
	return copy_check_limit(p, out, A3(r)) ?:
	       copy_uvfs(p, in, A1(r), out, A3(r), (size_t)A4(r));
}

/*
 * sendfile between two uvfs files: do_sendfile()'s checks -- in readable, out
 * writable (EBADF), out not O_APPEND (EINVAL, do_splice_direct()) -- then a copy by
 * uvfs, as copy_file_range's, the offset pointer for in alone.
 */
static long sendfile_uvfs(struct proc *p, int out, int in, unsigned long long offp, size_t count)
{
	int fin = uvfs_fcntl(T(p), in, F_GETFL, 0), fout;

	if (fin < 0 || (fin & O_PATH) || (fin & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	fout = uvfs_fcntl(T(p), out, F_GETFL, 0);
	if ((fout & O_PATH) || (fout & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (fout & O_APPEND)
		return -EINVAL;
	return copy_uvfs(p, in, offp, out, 0, count);
}

/*
 * sendfile(out, in, offp, count) and splice(in, offp, out, ...) from a uvfs regular
 * file whose stand-in is its data (a memfd, a host mount's file) to the host's: the
 * kernel's own, from the stand-in -- it blocks on the pipe or socket as it would,
 * holding up nobody -- at uvfs's position.  With an offset pointer the kernel reads
 * there and leaves the position alone, so the call runs as made; without one it is
 * made with a pointer to uvfs's position, written below the stack pointer (below the
 * red zone, as for an exec's arguments), and at its exit uvfs's position becomes
 * where the kernel left it and the register is put back.  A sendfile between two
 * uvfs files is uvfs's copy.  Anything else with a uvfs descriptor -- splice into a
 * uvfs file, sendfile from a host descriptor into one, from a file whose stand-in is
 * the null device (a noexec mount's, /proc) -- is EINVAL, as for a file that cannot splice
 * (docs/SEMANTICS.md §9): programs fall back to read and write.
 */
static enum action do_splice_from(struct proc *p, struct user_regs_struct *r, int in, int out,
				  unsigned long long *offp)
{
	char link[64];
	struct stat st;
	loff_t pos;
	unsigned long at;

	if (!ufd(p, in) && !ufd(p, out))
		return ACT_NATIVE;
	if (offp == &r->rdx && ufd(p, in) && ufd(p, out))
		return skip(r, sendfile_uvfs(p, out, in, *offp, (size_t)A3(r)));
	if (ufd(p, out) || !ufd(p, in)) {
		/* do_splice()'s and do_sendfile()'s EBADF -- in not readable, out not
		 * writable -- before the EINVAL of a file that cannot take the splice */
		int fin, fout;
		mode_t min, mout;

		if (!fd_kind(p, in, &min, &fin) && !fd_kind(p, out, &mout, &fout) &&
		    ((fin & O_PATH) || (fout & O_PATH) || (fin & O_ACCMODE) == O_WRONLY ||
		     (fout & O_ACCMODE) == O_RDONLY))
			return skip(r, -EBADF);
		return skip(r, -EINVAL);
	}
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", p->tid, in);
	if (stat(link, &st) || !S_ISREG(st.st_mode))
		return skip(r, -EINVAL);  /* the null device stands in */
	if (*offp)
		return ACT_NATIVE;
	pos = uvfs_lseek(T(p), in, 0, SEEK_CUR);
	at = (r->rsp - 128 - sizeof(pos)) & ~15ul;
	if (pos < 0 || mem_write(p->tid, at, &pos, sizeof(pos)))
		return skip(r, pos < 0 ? pos : -EFAULT);
	*offp = at;
	p->pending = PEND_POS;
	p->p_fd = in;
	p->p_arg = (long)at;
	p->p_fd2 = offp == &r->rdx ? 2 : 1;
	return ACT_REWRITTEN;
}

/* ... at its exit: uvfs's position where the kernel left the stand-in's offset, the
 * program's NULL back in its register */
static void splice_from_exit(struct proc *p, struct user_regs_struct *r, long ret)
{
	loff_t pos;

	if (ret > 0 && !mem_read(p->tid, (unsigned long)p->p_arg, &pos, sizeof(pos)))
		uvfs_lseek(T(p), p->p_fd, pos, SEEK_SET);
	if (p->p_fd2 == 2)
		r->rdx = 0;
	else
		r->rsi = 0;
	(void)ptrace(PTRACE_SETREGS, p->tid, 0, r);
}

/*
 * getdents64, getdents: as many entries as the process's buffer holds, as the kernel
 * fills it, through a tracer buffer of at most CHUNK bytes at a time (a count of
 * gigabytes is allowed and common: the entries are what bounds the copy).  An entry
 * that does not fit stays for the next call; EINVAL only when not even the first
 * fits.  The old getdents's struct linux_dirent is a dirent64 with d_type moved to
 * the record's last byte (the same length).
 */
static long do_getdents(struct proc *p, int fd, unsigned long long ubuf, size_t count,
			bool old)
{
	size_t done = 0, cap = count < CHUNK ? (count ? count : 1) : CHUNK;
	char *buf = malloc(cap);
	long ret = 0;

	if (!buf)
		return -ENOMEM;
	while (done < count) {
		size_t want = count - done < cap ? count - done : cap;
		off_t pos = uvfs_lseek(T(p), fd, 0, SEEK_CUR);

		ret = uvfs_getdents64(T(p), fd, buf, want);
		if (ret <= 0)
			break;
		for (long off = 0; old && off < ret;) {
			unsigned short reclen;
			unsigned char type;

			memcpy(&reclen, buf + off + 16, 2);
			type = (unsigned char)buf[off + 18];
			memmove(buf + off + 18, buf + off + 19, reclen - 19u);
			buf[off + reclen - 1] = (char)type;
			off += reclen;
		}
		if (mem_write(p->tid, ubuf + done, buf, (size_t)ret)) {
			/* the entries that fit before the memory the process has not (the
			 * kernel's filldir64() puts one at a time), and the position after
			 * the last of them (its d_off: iterate_dir() moves past an entry
			 * once it is put); the rest stay for the next call */
			long off = 0, fit = 0;
			off_t next = pos;

			while (off < ret) {
				unsigned short reclen;

				memcpy(&reclen, buf + off + 16, 2);
				if (mem_write(p->tid, ubuf + done + (size_t)off, buf + off, reclen))
					break;
				memcpy(&next, buf + off + 8, sizeof(next));
				off += reclen;
				fit = off;
			}
			if (next >= 0)
				uvfs_lseek(T(p), fd, next, SEEK_SET);
			done += (size_t)fit;
			ret = -EFAULT;
			break;
		}
		done += (size_t)ret;
		/* room left for the longest entry (19 + 256 bytes, 8-aligned): the
		 * listing ended, and another call would only say so -- one iterate_dir()
		 * a call, as the kernel's, so one IN_ACCESS (inotify) */
		if ((size_t)ret + 280 <= want)
			break;
	}
	free(buf);
	/* an error after some entries: those entries, as the kernel's getdents64
	 * returns what it copied before an entry failed (EINVAL: it did not fit;
	 * EFAULT: the buffer ends in memory the process has not -- the kernel keeps
	 * the part of that chunk that was copied, this the chunks before it) */
	return done ? (long)done : ret;
}

/* ---------------------------------------------------------------------------------
 * Attributes
 */
static int put_stat(const struct proc *p, unsigned long long addr, const struct stat *st)
{
	/* --explain: what a stat says that is not a time, an inode or a device -- nor,
	 * for a directory, its size and links, which count what other processes have
	 * made in it by then */
	if (S_ISDIR(st->st_mode))
		run_log_out("{%o}", (unsigned int)st->st_mode);
	else
		run_log_out("{%o, size %lld, links %lu}", (unsigned int)st->st_mode,
			    (long long)st->st_size, (unsigned long)st->st_nlink);
	/* x86-64's struct stat is the kernel's */
	return mem_write(p->tid, addr, st, sizeof(*st));
}

/*
 * A device node of a host mount, as stat shows it: the host's device and inode
 * numbers, not uvfs's.  The program opens a device node as the host's device (a host
 * descriptor: do_open), whose fstat the kernel answers; ttyname() compares that with
 * a stat of /dev/pts/N by name, and `tty` said "not a tty" when the two differed.  A
 * deliberate difference from uvfs as a library, where a host mount is a superblock of
 * its own (docs/SEMANTICS.md, section 9).
 */
/* The host's stat of the host object uvfs's name is (a host mount's): 0, or -errno
 * (-EXDEV: not a host mount's) */
static int host_stat_at(const struct proc *p, int dirfd, const char *path, int flags,
			struct stat *h)
{
	int o = uvfs_openat(T(p), dirfd, path,
			    O_PATH | ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	int hfd, err;

	if (o < 0)
		return o;
	hfd = uvfs_host_fd(T(p), o);
	err = hfd < 0 ? hfd : fstat(hfd, h) ? -errno : 0;
	uvfs_close(T(p), o);
	return err;
}

static void host_device_ids(struct proc *p, int dirfd, const char *path, int flags,
			    struct stat *st)
{
	struct stat h;

	if (!(S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) || !path[0])
		return;
	if (!host_stat_at(p, dirfd, path, flags, &h) && h.st_rdev == st->st_rdev) {
		st->st_dev = h.st_dev;
		st->st_ino = h.st_ino;
	}
}

/*
 * The name in uvfs's namespace of what a kernel descriptor fd holds (k: its stat),
 * into path: the kernel's name of it (/proc/TID/fd/N, from the program's kernel root,
 * the host's), when uvfs's object by that name is the very same host object -- else
 * false (a host object uvfs's namespace does not show there, or none of a host
 * mount's).
 */
static bool uvfs_name_of(const struct proc *p, int fd, char path[PATH_MAX], struct stat *k)
{
	char link[64];
	struct stat u;
	ssize_t n;

	if (fd < 0)
		return false;
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", p->tid, fd);
	if (stat(link, k))
		return false;
	n = readlink(link, path, PATH_MAX - 1);
	if (n < 1 || n >= PATH_MAX - 1 || path[0] != '/')
		return false;
	path[n] = 0;
	return !host_stat_at(p, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &u) &&
	       u.st_dev == k->st_dev && u.st_ino == k->st_ino &&
	       (u.st_mode & S_IFMT) == (k->st_mode & S_IFMT) && u.st_rdev == k->st_rdev;
}

/*
 * A kernel descriptor of a device node of uvfs's /dev (open_device(): opened through
 * the init's read-only /dev): its name there, in path, when fd is one -- else false.
 * Natively the node is on the host's writable devtmpfs, where fchmod, fchown and
 * fsetxattr of it meet the owner's check (EPERM for nobody); through the read-only
 * mount the kernel would say EROFS first.  The caller makes the call on uvfs's node
 * instead, whose mount is writable to uvfs: uvfs's checks, then the host's EROFS for
 * what passes them -- the order of a writable /dev, the host's node untouched.  A
 * terminal the caller passed in (the host's writable devpts) is not one.
 */
static bool dev_node_of(const struct proc *p, int fd, char path[PATH_MAX])
{
	char link[64];
	struct statfs sfs;
	struct stat k, k2;
	int o;
	bool ro;

	if (fd < 0)
		return false;
	/* the mount's flags and the node's identity from one open of the link (the
	 * number may be another file by a second look), checked against the file
	 * uvfs_name_of() finds there */
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", p->tid, fd);
	o = open(link, O_PATH | O_CLOEXEC);
	if (o < 0)
		return false;
	ro = !fstatfs(o, &sfs) && (sfs.f_flags & ST_RDONLY) && !fstat(o, &k2);
	close(o);
	return ro && uvfs_name_of(p, fd, path, &k) && k.st_dev == k2.st_dev &&
	       k.st_ino == k2.st_ino && (S_ISCHR(k.st_mode) || S_ISBLK(k.st_mode)) &&
	       !strncmp(path, "/dev/", 5);
}

/* getxattr, lgetxattr, listxattr, llistxattr of a host descriptor's /proc name: the
 * kernel's answer for /proc/TID/fd/N (EOPNOTSUPP from procfs) */
static long host_fd_xattr(struct proc *p, long nr, const char *link,
			  const struct user_regs_struct *r)
{
	bool list = nr == SYS_listxattr || nr == SYS_llistxattr;
	bool nofollow = nr == SYS_lgetxattr || nr == SYS_llistxattr;
	size_t size = (size_t)(list ? A2(r) : A3(r));
	char name[256];
	char *buf = NULL;
	long ret;

	if (size > 65536)
		size = 65536;  /* XATTR_SIZE_MAX: the kernel's own bound */
	if (!list && (ret = mem_read_str(p->tid, A1(r), name, sizeof(name))))
		return ret == -ENAMETOOLONG ? -ERANGE : ret;
	if (size && !(buf = malloc(size)))
		return -ENOMEM;
	if (list)
		ret = nofollow ? llistxattr(link, buf, size) : listxattr(link, buf, size);
	else
		ret = nofollow ? lgetxattr(link, name, buf, size) : getxattr(link, name, buf, size);
	ret = ret < 0 ? -errno : ret;
	if (ret > 0 && size && mem_write(p->tid, list ? A1(r) : A2(r), buf, (size_t)ret))
		ret = -EFAULT;
	free(buf);
	return ret;
}

/* statx: uvfs_statx's answer (its checks, in the kernel's order, come before the
 * path is read: EINVAL for a bad mask or flags with any path, as do_statx()); a
 * device node's host identity as stat gives it (host_device_ids) */
static long do_statx(struct proc *p, int dirfd, unsigned long long path_addr, int flags,
		     unsigned int mask, unsigned long long buf)
{
	char path[NAME_MAX_BYTES] = "";
	struct statx sx;
	struct stat st;
	int err;

	if ((mask & STATX__RESERVED) || (flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE ||
	    (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT | AT_STATX_SYNC_TYPE)))
		return -EINVAL;
	if (path_addr || !(flags & AT_EMPTY_PATH)) {
		err = get_path(p, path_addr, path);
		if (err)
			return err;
	}
	err = uvfs_statx(T(p), dirfd, path, flags, mask, &sx);
	if (err)
		return err;
	st.st_mode = sx.stx_mode;
	st.st_rdev = makedev(sx.stx_rdev_major, sx.stx_rdev_minor);
	st.st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	st.st_ino = sx.stx_ino;
	host_device_ids(p, dirfd, path, flags, &st);
	sx.stx_dev_major = major(st.st_dev);
	sx.stx_dev_minor = minor(st.st_dev);
	sx.stx_ino = st.st_ino;
	return mem_write(p->tid, buf, &sx, sizeof(sx));
}

static long do_utimes(struct proc *p, int dirfd, unsigned long long path_addr,
		      unsigned long long times_addr, int flags, int kind)
{
	char path[NAME_MAX_BYTES];
	struct timespec ts[2];
	const char *name = NULL;
	int err;

	if (path_addr) {
		err = get_path(p, path_addr, path);
		if (err)
			return err;
		name = path;
	}
	if (times_addr) {
		if (kind == 0) {             /* utimensat: struct timespec[2] */
			if (mem_read(p->tid, times_addr, ts, sizeof(ts)))
				return -EFAULT;
		} else if (kind == 1) {      /* utimes, futimesat: struct timeval[2] */
			struct timeval tv[2];

			if (mem_read(p->tid, times_addr, tv, sizeof(tv)))
				return -EFAULT;
			for (int i = 0; i < 2; i++) {
				if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
					return -EINVAL;
				ts[i] = (struct timespec){ tv[i].tv_sec, tv[i].tv_usec * 1000 };
			}
		} else {                     /* utime: struct utimbuf */
			long ub[2];

			if (mem_read(p->tid, times_addr, ub, sizeof(ub)))
				return -EFAULT;
			ts[0] = (struct timespec){ ub[0], 0 };
			ts[1] = (struct timespec){ ub[1], 0 };
		}
	}
	return uvfs_utimensat(T(p), dirfd, name, times_addr ? ts : NULL, flags);
}

/* ---------------------------------------------------------------------------------
 * Extended attributes: uvfs's (uvfs_setxattrat and its family, src/xattr.c: memfs
 * keeps them as tmpfs, a host mount's are the host file's), the program's buffers
 * copied in and out here.
 */

/*
 * fgetxattr, fsetxattr, fremovexattr: the checks of their arguments, which come before
 * the descriptor's (6.13's path_setxattrat(), path_getxattrat(), path_removexattrat()
 * take the file after them): setxattr_copy()'s flags (EINVAL), import_xattr_name()'s
 * name (EFAULT; empty or 256 bytes and more: ERANGE), then the value (more than
 * XATTR_SIZE_MAX: E2BIG; EFAULT).  0 or -errno.
 */
static long fxattr_args(struct proc *p, const struct user_regs_struct *r, bool set)
{
	char name[256], byte;
	long err;

	if (set && (A4(r) & ~(unsigned long long)(XATTR_CREATE | XATTR_REPLACE)))
		return -EINVAL;
	err = mem_read_str(p->tid, A1(r), name, sizeof(name));
	if (err)
		return err == -ENAMETOOLONG ? -ERANGE : err;
	if (!name[0])
		return -ERANGE;
	if (set && A3(r) > 65536)
		return -E2BIG;
	if (set && A3(r) && (mem_read(p->tid, A2(r), &byte, 1) ||
			     mem_read(p->tid, A2(r) + A3(r) - 1, &byte, 1)))
		return -EFAULT;
	return 0;
}

/* import_xattr_name(): the program's name, ERANGE when it does not fit 255 bytes */
static long xattr_name(struct proc *p, unsigned long long addr, char name[256])
{
	long err = mem_read_str(p->tid, addr, name, 256);

	return err == -ENAMETOOLONG ? -ERANGE : err;
}

static long do_setxattr(struct proc *p, int dirfd, const char *path, int at_flags,
			unsigned long long name_addr, unsigned long long value, size_t size,
			int flags)
{
	char name[256];
	void *buf = NULL;
	long err;

	if (flags & ~(XATTR_CREATE | XATTR_REPLACE))
		return -EINVAL;
	if ((err = xattr_name(p, name_addr, name)))
		return err;
	if (!name[0])
		return -ERANGE;
	if (size > 65536)
		return -E2BIG;  /* XATTR_SIZE_MAX */
	if (size && !(buf = malloc(size)))
		return -ENOMEM;
	if (size && mem_read(p->tid, value, buf, size))
		err = -EFAULT;
	else
		err = uvfs_setxattrat(T(p), dirfd, path, at_flags, name, buf, size, flags);
	free(buf);
	return err;
}

static long do_removexattr(struct proc *p, int dirfd, const char *path, int at_flags,
			   unsigned long long name_addr)
{
	char name[256];
	long err = xattr_name(p, name_addr, name);

	return err ? err : uvfs_removexattrat(T(p), dirfd, path, at_flags, name);
}

/* getxattr and listxattr (name_addr 0): uvfs's answer, copied to the program's buffer
 * of size bytes (the kernel reads no more than XATTR_SIZE_MAX / XATTR_LIST_MAX) */
static long do_getxattr(struct proc *p, int dirfd, const char *path, int at_flags,
			unsigned long long name_addr, unsigned long long buf_addr, size_t size)
{
	char name[256], *buf = NULL;
	long ret;

	if (name_addr && (ret = xattr_name(p, name_addr, name)))
		return ret;
	if (size > 65536)
		size = 65536;
	if (size && !(buf = malloc(size)))
		return -ENOMEM;
	ret = name_addr ? uvfs_getxattrat(T(p), dirfd, path, at_flags, name, buf, size)
			: uvfs_listxattrat(T(p), dirfd, path, at_flags, buf, size);
	if (ret > 0 && size && mem_write(p->tid, buf_addr, buf, (size_t)ret))
		ret = -EFAULT;
	free(buf);
	return ret;
}

/*
 * A struct the caller gives with its size (copy_struct_from_user): E2BIG beyond a page
 * or when the bytes past the kernel's struct are not zero, EINVAL below its first
 * version's size, EFAULT.
 */
static long struct_from_user(struct proc *p, unsigned long long addr, size_t usize, void *out,
			     size_t ksize, size_t min)
{
	unsigned char rest[4096];

	if (usize > sizeof(rest))
		return -E2BIG;
	if (usize < min)
		return -EINVAL;
	memset(out, 0, ksize);
	if (mem_read(p->tid, addr, rest, usize))
		return -EFAULT;
	memcpy(out, rest, usize < ksize ? usize : ksize);
	for (size_t i = ksize; i < usize; i++)
		if (rest[i])
			return -E2BIG;
	return 0;
}

/*
 * setxattrat, getxattrat, listxattrat, removexattrat (dfd, path, at_flags, ...): the
 * path forms' answers, after path_setxattrat()'s checks of the flags and of struct
 * xattr_args.
 */
struct xattr_args_ {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

static enum action do_xattrat(struct proc *p, struct user_regs_struct *r, long nr, int dirfd)
{
	char path[NAME_MAX_BYTES];
	unsigned int at = (unsigned int)A2(r);
	struct xattr_args_ args = { 0 };
	long err;

	if (at & ~(unsigned int)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return skip(r, -EINVAL);
	if (nr == SYS_setxattrat_ || nr == SYS_getxattrat_) {
		err = struct_from_user(p, A4(r), (size_t)A5(r), &args, sizeof(args), 16);
		if (err)
			return skip(r, err);
		if (args.flags & ~(uint32_t)(nr == SYS_setxattrat_ ? XATTR_CREATE | XATTR_REPLACE : 0))
			return skip(r, -EINVAL);
	}
	/* getname_maybe_null(): NULL with AT_EMPTY_PATH is an empty path */
	if (!A1(r) && (at & AT_EMPTY_PATH))
		path[0] = 0;
	else if ((err = get_path(p, A1(r), path)))
		return skip(r, err);
	if (dirfd_native(p, dirfd, path) || (!path[0] && (at & AT_EMPTY_PATH) && !ufd(p, dirfd)))
		return ACT_NATIVE;  /* a host descriptor's: the kernel's */
	switch (nr) {
	case SYS_setxattrat_:
		return skip(r, do_setxattr(p, dirfd, path, (int)at, A3(r), args.value, args.size,
					   (int)args.flags));
	case SYS_removexattrat_:
		return skip(r, do_removexattr(p, dirfd, path, (int)at, A3(r)));
	case SYS_getxattrat_:
		return skip(r, do_getxattr(p, dirfd, path, (int)at, A3(r), args.value, args.size));
	default:
		return skip(r, do_getxattr(p, dirfd, path, (int)at, 0, A3(r), (size_t)A4(r)));
	}
}

/*
 * file_getattr, file_setattr (dfd, path, struct file_attr *, size, at_flags): a memfs
 * file's attributes are uvfs's (uvfs_fileattr_get/set: immutable, append-only,
 * nodump, noatime, as FS_IOC_FSGETXATTR says); a host file's are the host's to read,
 * and through a read-only mount EROFS to set.  Deliberate difference: setting one of
 * a host file is EOPNOTSUPP (uvfs changes no host file's attributes for the
 * program).  Unknown xflags are EINVAL (file_attr_to_fileattr(): FS_XFLAGS_MASK).
 */
#define FS_XFLAGS_MASK_ 0x8001fffbull  /* every FS_XFLAG_* but the unused 0x4 */
struct file_attr_ {
	uint64_t fa_xflags;
	uint32_t fa_extsize, fa_nextents, fa_projid, fa_cowextsize;
};

static enum action do_file_attr(struct proc *p, struct user_regs_struct *r, long nr, int dirfd)
{
	char path[NAME_MAX_BYTES];
	unsigned int at = (unsigned int)iarg(A4(r));
	struct file_attr_ fa = { 0 };
	size_t usize = (size_t)A3(r);
	struct statfs sfs;
	long err;
	int o, h;

	_Static_assert(sizeof(struct file_attr_) == 24, "FILE_ATTR_SIZE_VER0 is 24");
	if (at & ~(unsigned int)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return skip(r, -EINVAL);
	if (usize > 4096)
		return skip(r, -E2BIG);
	if (usize < sizeof(fa))
		return skip(r, -EINVAL);
	if ((err = get_path(p, A1(r), path)))
		return skip(r, err);
	if (dirfd_native(p, dirfd, path) || (!path[0] && (at & AT_EMPTY_PATH) && !ufd(p, dirfd)))
		return ACT_NATIVE;
	if (!path[0] && (at & AT_EMPTY_PATH) && opath_fd(p, dirfd))
		return skip(r, -EBADF);  /* fdget(): not an O_PATH descriptor */
	if (!path[0] && (at & AT_EMPTY_PATH))
		o = uvfs_dup(T(p), dirfd);
	else
		o = uvfs_openat(T(p), dirfd, path,
				O_PATH | ((at & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	if (o < 0)
		return skip(r, o);
	h = uvfs_host_fd(T(p), o);
	if (nr == SYS_file_getattr_) {
		unsigned char out[4096] = { 0 };
		uint32_t x[7];  /* struct fsxattr */
		char link[64];

		if (h >= 0) {
			/* by its /proc name: the empty name takes no O_PATH descriptor */
			snprintf(link, sizeof(link), "/proc/self/fd/%d", h);
			err = syscall(SYS_file_getattr_, AT_FDCWD, link, &fa, sizeof(fa), 0) ? -errno : 0;
		} else if (!(err = uvfs_fileattr_get(T(p), o, x))) {
			fa.fa_xflags = x[0];
			fa.fa_extsize = x[1];
			fa.fa_nextents = x[2];
			fa.fa_projid = x[3];
			fa.fa_cowextsize = x[4];
		}
		/* copy_struct_to_user(): the struct, then zeros to the caller's size */
		memcpy(out, &fa, sizeof(fa));
		if (!err)
			err = mem_write(p->tid, A2(r), out, usize);
	} else {
		err = struct_from_user(p, A2(r), usize, &fa, sizeof(fa), sizeof(fa));
		if (!err && (fa.fa_xflags & ~FS_XFLAGS_MASK_))
			err = -EINVAL;
		if (!err && h >= 0) {
			if (!uvfs_fstatfs(T(p), o, &sfs) && (sfs.f_flags & ST_RDONLY))
				err = -EROFS;
			else if (fa.fa_xflags || fa.fa_extsize || fa.fa_cowextsize || fa.fa_projid)
				err = -EOPNOTSUPP;
		} else if (!err) {
			uint32_t x[7] = { (uint32_t)fa.fa_xflags, fa.fa_extsize, fa.fa_nextents,
					  fa.fa_projid, fa.fa_cowextsize, 0, 0 };

			/* FS_XFLAG_PREALLOC and HASATTR are the filesystem's to say */
			x[0] &= ~(0x2u | 0x80000000u);
			err = uvfs_fileattr_set(T(p), o, x);
		}
	}
	uvfs_close(T(p), o);
	return skip(r, err);
}

/* ---------------------------------------------------------------------------------
 * Two-path calls
 */
static long two_paths(struct proc *p, unsigned long long a, unsigned long long b,
		      char *pa, char *pb)
{
	int err = get_path(p, a, pa);

	return err ? err : get_path(p, b, pb);
}

/* ---------------------------------------------------------------------------------
 * Exec: uvfs decides whether the file may run (its walk, its permissions); the kernel
 * runs the real file, named by the host path of uvfs's host mount; uvfs follows at
 * PTRACE_EVENT_EXEC (trace.c: uvfs_task_exec, /proc/PID/exe, close-on-exec).
 *
 * A "#!" script is run as binfmt_script runs it, here: the interpreter found in uvfs,
 * and the kernel asked to execute the interpreter with the arguments the kernel would
 * give it -- the interpreter's name, its one optional argument, the script's name as
 * the caller gave it (or /dev/fd/N/NAME for execveat), then the caller's arguments
 * but the first.  So $0 is what the caller wrote, /proc/PID/exe is the interpreter,
 * and a script on memfs runs (the interpreter opens it through uvfs).  A chain of
 * scripts, each the next one's interpreter, may be five long (exec_binprm() gives
 * up at a depth above 5: tests/uvfs-run/scripts.sh measured it), then ELOOP.
 */
#define BINPRM_BUF_SIZE 256
#define MAX_SCRIPTS 5

/* The file's first bytes: through the host file for a host mount's, the memfd of
 * its data for memfs's (no open of uvfs's: the kernel reads the file the exec has
 * open, kernel_read(), and a second open would break a lease the exec's own open
 * breaks later, at its turn), else through uvfs as the process (whose read
 * permission the kernel would not ask: a script only it may not read fails here
 * instead of in its interpreter). */
static ssize_t exec_head(struct proc *p, int fd, char *buf, size_t size)
{
	int hfd = uvfs_host_fd(T(p), fd), rfd;
	char link[64];
	ssize_t n;

	memset(buf, 0, size);
	if (hfd == -EXDEV)
		hfd = uvfs_memfd(T(p), fd);
	if (hfd >= 0) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", hfd);
		rfd = open(link, O_RDONLY | O_CLOEXEC);
		if (rfd < 0)
			return -errno;
		n = pread(rfd, buf, size, 0);
		n = n < 0 ? -errno : n;
		close(rfd);
		return n;
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	rfd = uvfs_openat(T(p), AT_FDCWD, link, O_RDONLY | O_CLOEXEC, 0);
	if (rfd < 0)
		return rfd;
	n = uvfs_pread(T(p), rfd, buf, size, 0);
	uvfs_close(T(p), rfd);
	return n;
}

static bool spacetab(char c)
{
	return c == ' ' || c == '\t';
}

/* load_script()'s parse of buf (BINPRM_BUF_SIZE bytes, zero past the file's end):
 * 0 with *name and *arg (NULL if none) pointing into buf, -ENOEXEC */
static int parse_shebang(char *buf, char **name, char **arg)
{
	char *end = buf + BINPRM_BUF_SIZE - 1, *i_end, *cp;

	i_end = memchr(buf, '\n', BINPRM_BUF_SIZE - 1);
	if (!i_end) {
		/* no newline in the buffer: the interpreter's name must end inside it */
		for (cp = buf + 2; cp < end && spacetab(*cp); cp++)
			;
		if (cp == end)
			return -ENOEXEC;
		while (cp < end && *cp && !spacetab(*cp))
			cp++;
		if (cp == end)
			return -ENOEXEC;
		i_end = end;
	}
	while (i_end > buf + 2 && spacetab(i_end[-1]))
		i_end--;
	*i_end = 0;
	for (cp = buf + 2; spacetab(*cp); cp++)
		;
	if (!*cp)
		return -ENOEXEC;
	*name = cp;
	while (*cp && !spacetab(*cp))
		cp++;
	while (spacetab(*cp))
		*cp++ = 0;
	*arg = *cp ? cp : NULL;
	return 0;
}

void run_exec_files_put(struct proc *p)
{
	while (p->exec_nfiles)
		uvfs_fput(p->exec_files[--p->exec_nfiles]);
}

/* No exec for uvfs to follow (any more): the name and the file dropped */
void run_exec_follow_drop(struct proc *p)
{
	free(p->exec_path);
	p->exec_path = NULL;
	uvfs_fput(p->exec_file);
	p->exec_file = NULL;
}

/* A file the process may execute: open (O_PATH), regular (may_open(): a symlink --
 * an O_PATH descriptor's through /proc/PID/fd/N or AT_EMPTY_PATH, or the last
 * component under AT_SYMLINK_NOFOLLOW -- ELOOP, anything else EACCES), execute
 * permission */
static int exec_open(struct proc *p, int dirfd, const char *path, int flags)
{
	struct stat st;
	int fd, err;

	if (!path[0] && (flags & AT_EMPTY_PATH))
		fd = uvfs_dup(T(p), dirfd);  /* fexecve */
	else
		fd = uvfs_openat(T(p), dirfd, path,
				 O_PATH | ((flags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0), 0);
	if (fd < 0)
		return fd;
	err = uvfs_fstat(T(p), fd, &st);
	if (!err && !S_ISREG(st.st_mode))
		err = S_ISLNK(st.st_mode) ? -ELOOP : -EACCES;
	if (!err)
		err = uvfs_faccessat2(T(p), fd, "", X_OK, AT_EMPTY_PATH | AT_EACCESS);
	if (err) {
		uvfs_close(T(p), fd);
		return err;
	}
	return fd;
}

/* The interpreters' arguments in front of the script's name and the caller's
 * arguments but its first, written below the stack with the strings: the new argv's
 * address, or 0 (the process's memory could not take it) */
static unsigned long put_script_argv(struct proc *p, const struct user_regs_struct *r,
				     unsigned long long argv, char *const *front, int nfront,
				     unsigned long below)
{
	size_t argc = 0, strings = 0, vecs, total;
	unsigned long long *old = NULL, *vec;
	unsigned long at, s;
	char *blk;
	int ok = 0;

	/* the caller's argv: pointers up to NULL (a NULL argv is an empty one) */
	while (argv) {
		unsigned long long ptr;
		unsigned long long *o;

		if (mem_read(p->tid, argv + 8 * argc, &ptr, 8))
			goto out;
		if (!ptr)
			break;
		if (argc >= (1u << 20))
			goto out;
		o = realloc(old, (argc + 1) * sizeof(*o));
		if (!o)
			goto out;
		old = o;
		old[argc++] = ptr;
	}
	for (int i = 0; i < nfront; i++)
		strings += strlen(front[i]) + 1;
	/* front strings, then (8-aligned) the vector: front, the caller's argv[1..],
	 * NULL */
	strings = (strings + 7) & ~(size_t)7;
	vecs = ((size_t)nfront + (argc ? argc - 1 : 0) + 1) * 8;
	total = strings + vecs;
	at = (below - 64 - total) & ~15ul;
	blk = calloc(1, total);
	if (!blk)
		goto out;
	vec = (unsigned long long *)(void *)(blk + strings);
	s = at;
	{
		char *w = blk;

		for (int i = 0; i < nfront; i++) {
			size_t len = strlen(front[i]) + 1;

			memcpy(w, front[i], len);
			vec[i] = s;
			s += len;
			w += len;
		}
	}
	for (size_t i = 1; i < argc; i++)
		vec[nfront + i - 1] = old[i];
	vec[nfront + (argc ? argc - 1 : 0)] = 0;
	ok = !mem_write(p->tid, at, blk, total);
	free(blk);
out:
	free(old);
	(void)r;
	return ok ? at + (unsigned long)strings : 0;
}

/*
 * The command name Linux gives the process (begin_new_exec(): __set_task_comm of
 * kbasename(bprm->filename), a script's own name and not its interpreter's; for an
 * execveat of a descriptor with an empty name, the file's own name since 6.14), at
 * most TASK_COMM_LEN - 1 bytes: the kernel names it after the stand-in it runs
 * (procsrc.c puts this in its place).
 */
static void exec_comm(struct proc *p, int dirfd, const char *path, const char *fname)
{
	char link[PATH_MAX];
	const char *base = strrchr(fname, '/') ? strrchr(fname, '/') + 1 : fname;
	ssize_t n;

	if (!path[0]) {
		n = uvfs_readlink_fd(T(p), dirfd, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
		/* the dentry's name, whether or not it is still linked */
		if (n > 10 && !strcmp(link + n - 10, " (deleted)"))
			link[n - 10] = 0;
		base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	n = (ssize_t)strnlen(base, sizeof(p->exec_comm) - 1);
	memcpy(p->exec_comm, base, (size_t)n);
	p->exec_comm[n] = 0;
}

static enum action do_exec(struct proc *p, struct user_regs_struct *r, int dirfd,
			   unsigned long long path_addr, unsigned long long argv,
			   unsigned long long envp, int flags)
{
	char path[NAME_MAX_BYTES], link[64], fname[NAME_MAX_BYTES + 32];
	char heads[MAX_SCRIPTS + 1][BINPRM_BUF_SIZE];
	char *front[2 * MAX_SCRIPTS + 1];
	const char *interp = NULL;
	struct uvfs_file *xfiles[RUN_EXEC_FILES];
	int nfront = 0, nx = 0, fd, hfd, xfd, err = get_path(p, path_addr, path);
	unsigned long empty;
	struct stat xst;

	if (err)
		return skip(r, err);
	if (flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return skip(r, -EINVAL);
	if (dirfd_native(p, dirfd, path))
		return ACT_NATIVE;
	fd = exec_open(p, dirfd, path, flags);
	if (fd < 0)
		return skip(r, fd);
	/* bprm->filename: the name as given, a descriptor's as /dev/fd/N[/NAME] */
	if (dirfd == AT_FDCWD || path[0] == '/')
		snprintf(fname, sizeof(fname), "%s", path);
	else
		snprintf(fname, sizeof(fname), "/dev/fd/%d%s%s", dirfd, path[0] ? "/" : "", path);
	exec_comm(p, dirfd, path, fname);
	/* binfmt_script, as deep as the kernel goes: the last interpreter is run */
	for (int depth = 0;; depth++) {
		char *name, *arg;
		char *h = heads[depth];
		ssize_t n = exec_head(p, fd, h, BINPRM_BUF_SIZE);
		int ifd;

		if (n < 2 || h[0] != '#' || h[1] != '!')
			break;
		err = depth == MAX_SCRIPTS ? -ELOOP : parse_shebang(h, &name, &arg);
		ifd = err ? err : exec_open(p, AT_FDCWD, name, 0);
		/* the script's file, whose lease the exec's open breaks first */
		if (ifd >= 0 && !(xfiles[nx] = uvfs_fget(T(p), fd))) {
			uvfs_close(T(p), ifd);
			ifd = -EBADF;
		}
		if (ifd >= 0)
			nx++;
		uvfs_close(T(p), fd);
		if (ifd < 0) {
			while (nx)
				uvfs_fput(xfiles[--nx]);
			return skip(r, ifd);
		}
		fd = ifd;
		/* this level's arguments go in front of the last level's */
		memmove(front + 1 + !!arg, front, (size_t)nfront * sizeof(front[0]));
		front[0] = name;
		if (arg)
			front[1] = arg;
		nfront += 1 + !!arg;
		interp = name;
	}
	hfd = uvfs_host_fd(T(p), fd);
	if (hfd == -EXDEV)
		hfd = uvfs_memfd(T(p), fd);  /* a file of memfs: the memfd of its data */
	if (hfd == -EXDEV)
		hfd = -ENOEXEC;
	if (hfd < 0) {
		uvfs_close(T(p), fd);
		while (nx)
			uvfs_fput(xfiles[--nx]);
		return skip(r, hfd);
	}
	/* the very file uvfs checked, opened here to be installed in the process: the
	 * kernel is not given a name to look up again.  Execute permission is the
	 * kernel's to check at the execveat, with the process's credentials; the
	 * descriptor is for reading (ADDFD takes no O_PATH one), which the supervisor
	 * may where the process may not -- a file it may execute but not read is
	 * readable by its other threads through that number until the exec
	 * (docs/SEMANTICS.md, uvfs-run) */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", hfd);
	xfd = open(link, O_RDONLY | O_CLOEXEC);
	err = xfd < 0 ? -errno : fstat(xfd, &xst) ? -errno : 0;
	/* uvfs's file, for the exec's open to break a lease with (the marker's answer),
	 * and for uvfs to follow once the kernel has run it (on_exec) */
	run_exec_follow_drop(p);
	if (!err && !(xfiles[nx] = uvfs_fget(T(p), fd)))
		err = -EBADF;
	if (!err)
		nx++;
	if (!err && !(p->exec_file = uvfs_fget(T(p), fd)))
		err = -EBADF;
	uvfs_close(T(p), fd);
	if (err) {
		if (xfd >= 0)
			close(xfd);
		while (nx)
			uvfs_fput(xfiles[--nx]);
		run_exec_follow_drop(p);
		return skip(r, err);
	}
	/* execveat's empty name, one byte below the stack: another thread could make it
	 * a name before the kernel reads it, so the kernel's choice is checked at
	 * PTRACE_EVENT_EXEC (trace.c, on_exec) against this file, before the program
	 * runs an instruction of it */
	empty = scratch(r, 1);
	if (mem_write(p->tid, empty, "", 1)) {
		close(xfd);
		while (nx)
			uvfs_fput(xfiles[--nx]);
		run_exec_follow_drop(p);
		return skip(r, -EFAULT);
	}
	p->exec_dev = xst.st_dev;
	p->exec_ino = xst.st_ino;
	/* the name of what uvfs follows when the kernel's exec has run (trace.c, on_exec,
	 * which follows exec_file itself), for its messages and the exec log: the
	 * interpreter, or the name as given, a descriptor's relative one through uvfs's
	 * /proc/self/fd (execveat, fexecve) */
	if ((interp ? asprintf(&p->exec_path, "%s", interp)
	     : dirfd == AT_FDCWD || path[0] == '/'
	     ? asprintf(&p->exec_path, "%s", path)
	     : asprintf(&p->exec_path, "/proc/self/fd/%d%s%s", dirfd, path[0] ? "/" : "", path)) < 0)
		p->exec_path = NULL;
	if (interp) {
		/* the interpreter's arguments: what the program runs is decided by the
		 * descriptor, not by anything written here */
		front[nfront++] = fname;
		argv = put_script_argv(p, r, argv, front, nfront, empty);
		if (!argv) {
			close(xfd);
			while (nx)
				uvfs_fput(xfiles[--nx]);
			run_exec_follow_drop(p);
			return skip(r, -E2BIG);  /* no room below the stack for the arguments */
		}
	}
	p->exec_regs = *r;
	p->exec_argv = argv;
	p->exec_envp = envp;
	p->exec_empty = empty;
	p->exec_hfd = xfd;
	run_exec_files_put(p);
	memcpy(p->exec_files, xfiles, sizeof(xfiles));
	p->exec_nfiles = nx;
	p->exec_step = EX_INSTALL;
	/* on to the notified open that installs it (run_syscall, trace.c's exec_stop) */
	r->orig_rax = SYS_openat;
	r->rdi = (unsigned long long)(long long)RUN_EXEC_MARKER;
	r->rsi = r->rdx = r->r10 = 0;
	return ACT_REWRITTEN;
}

/*
 * F_ADD_SEALS, F_GET_SEALS of a memfs file: its stand-in is the memfd uvfs keeps the
 * data in, which the program must not seal (uvfs's writes would fail), so the answer
 * is a tmpfs file's, which is born sealed against seals (shmem's F_SEAL_SEAL;
 * memfd_add_seals(): EPERM without write access, EINVAL for unknown seals, then EPERM).
 * Every other stand-in is the kernel's to answer (a host file, the null device: EINVAL).
 */
#define TMPFS_MAGIC_ 0x01021994
#define UVFS_PAGE_SIZE_ 4096
#define ALL_SEALS_ 0x3f  /* F_SEAL_SEAL ... F_SEAL_EXEC */

/* A regular file of memfs (its stand-in, the memfd of its data), with its stat */
static bool memfs_file(struct proc *p, int fd, struct stat *st)
{
	struct statfs sfs;

	return uvfs_host_fd(T(p), fd) == -EXDEV && !uvfs_fstat(T(p), fd, st) &&
	       S_ISREG(st->st_mode) && !uvfs_fstatfs(T(p), fd, &sfs) && sfs.f_type == TMPFS_MAGIC_;
}

static enum action tmpfs_seals(struct proc *p, struct user_regs_struct *r, int fd, int cmd,
			       unsigned int seals)
{
	struct stat st;
	int fl;

	if (!memfs_file(p, fd, &st))
		return ACT_NATIVE;
	fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);
	if (fl < 0)
		return skip(r, fl);
	if (fl & O_PATH)
		return skip(r, -EBADF);  /* fcntl of an O_PATH file: the few it takes */
	if (cmd == F_GET_SEALS)
		return skip(r, F_SEAL_SEAL);
	if ((fl & O_ACCMODE) == O_RDONLY)
		return skip(r, -EPERM);
	return skip(r, seals & ~(unsigned int)ALL_SEALS_ ? -EINVAL : -EPERM);
}

/*
 * fcntl's locks on a uvfs descriptor are the kernel's, taken on the stand-in (the
 * file's data: a memfs file's memfd, a host file), which the kernel answers as the
 * file's -- but for two things it cannot know:
 *
 * - l_whence SEEK_CUR counts from the open file description's position, which is
 *   uvfs's (read, write and lseek are answered by uvfs; the stand-in's stays where
 *   it was opened, at 0: lockf() after an lseek locked the file's first bytes).
 *   Before the kernel reads the struct flock, the stand-in's position is set to
 *   uvfs's (pidfd_getfd: the same open file description).  A struct flock the
 *   kernel cannot read is its EFAULT, unchanged.
 * - an O_PATH descriptor takes no lock (check_fcntl_cmd(): EBADF); its stand-in is
 *   the null device, which would take one.
 */
static void stand_in_seek(const struct proc *p, int fd, off_t pos)
{
	int sfd = run_take_fd(p->up->tgid, fd);

	if (sfd >= 0) {
		lseek(sfd, pos, SEEK_SET);
		close(sfd);
	}
}

static enum action fcntl_lock(struct proc *p, struct user_regs_struct *r, int fd)
{
	int fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);
	short whence;
	off_t pos;

	if (fl < 0)
		return skip(r, fl);
	if (fl & O_PATH)
		return skip(r, -EBADF);
	if (!mem_read(p->tid, A2(r) + offsetof(struct flock, l_whence), &whence, sizeof(whence)) &&
	    whence == SEEK_CUR && (pos = uvfs_lseek(T(p), fd, 0, SEEK_CUR)) >= 0)
		stand_in_seek(p, fd, pos);
	return ACT_NATIVE;
}

/*
 * F_SETLEASE on a uvfs descriptor: uvfs's lease (src/leases.c), which the program's
 * opens and truncates break -- uvfs answers them all, where the stand-in would see
 * only uvfs-run's own opens.  The kernel's F_SETLEASE also makes the caller the
 * file's owner (__f_setown()), and its F_UNLCK clears the owner and F_SETSIG's signal
 * (lease_modify()): the stand-in holds those, so they are set there.
 * fs.lease-break-time is the host's (/proc/sys is the kernel's under uvfs-run), read
 * again at each F_SETLEASE so that a program that changes it first is heard.
 */
static enum action fcntl_setlease(struct proc *p, struct user_regs_struct *r, int fd, int arg)
{
	FILE *sysctl = fopen("/proc/sys/fs/lease-break-time", "re");
	int ret, s, secs;

	run_waits_settle();  /* a killed opener's open counts no more */
	if (sysctl) {
		if (fscanf(sysctl, "%d", &secs) == 1)
			(void)uvfs_set_lease_break_time(run_fs, secs);
		fclose(sysctl);
	}
	ret = uvfs_fcntl(T(p), fd, F_SETLEASE, arg);
	if (ret == 0 && (s = run_take_fd(p->up->tgid, fd)) >= 0) {
		if (arg == F_UNLCK) {
			(void)fcntl(s, F_SETOWN, 0);
			(void)fcntl(s, F_SETSIG, 0);
		} else {
			(void)fcntl(s, F_SETOWN, p->up->tgid);  /* the supervisor's pid space */
		}
		close(s);
	}
	return skip(r, ret);
}

/*
 * ioctl on a uvfs descriptor.  The generic ones (do_vfs_ioctl) are uvfs's where they
 * touch the open file: FIOCLEX/FIONCLEX the number's flag (the kernel's, and uvfs's
 * mirror), FIONBIO O_NONBLOCK, FIONREAD of a regular file the bytes after uvfs's
 * position.  A memfs file's or directory's attributes (FS_IOC_GETFLAGS, SETFLAGS,
 * FSGETXATTR, FSSETXATTR: chattr, lsattr) are uvfs's (uvfs_ioctl()) -- its stand-in,
 * the memfd of its data or a directory of the kernel's, must not take them (an
 * immutable memfd would refuse uvfs's writes); the rest on a memfs file is answered
 * as tmpfs answers -- FIGETBSZ 4096, FIOQSIZE the bytes allocated -- and ENOTTY
 * (shmem has no ->unlocked_ioctl).  A host file's: the kernel's on the host file, but
 * what would change it through a read-only uvfs mount is EROFS
 * (mnt_want_write_file()).
 */
#define NS_GET_NSTYPE_ 0xb703  /* _IO(0xb7, 0x3) */
#define FIGETBSZ_ 2
#define FIOQSIZE_ 0x5460
#define FS_IOC_GETFLAGS_ 0x80086601u
#define FS_IOC_SETFLAGS_ 0x40086602u
#define FS_IOC_FSGETXATTR_ 0x801c581fu
#define FS_IOC_FSSETXATTR_ 0x401c5820u

static enum action do_ioctl(struct proc *p, struct user_regs_struct *r, int fd, unsigned int cmd,
			    unsigned long arg)
{
	struct statfs sfs;
	struct stat st;
	int v, fl;

	switch (cmd) {
	case FIOCLEX:
	case FIONCLEX:
		uvfs_fcntl(T(p), fd, F_SETFD, cmd == FIOCLEX ? FD_CLOEXEC : 0);
		return ACT_NATIVE;  /* the stand-in's flag: the kernel's exec closes it */
	case FIONBIO:
		if (mem_read(p->tid, arg, &v, sizeof(v)))
			return skip(r, -EFAULT);
		fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);
		if (fl < 0)
			return skip(r, fl);
		return skip(r, uvfs_fcntl(T(p), fd, F_SETFL, v ? fl | O_NONBLOCK : fl & ~O_NONBLOCK));
	}
	if (cmd == FIONREAD && !uvfs_fstat(T(p), fd, &st) && !(st.st_mode & S_IFMT)) {
		/* an inotify descriptor: the bytes of its queued events */
		int err = uvfs_ioctl(T(p), fd, FIONREAD, &v);

		return skip(r, err ? err : mem_write(p->tid, arg, &v, sizeof(v)));
	}
	if (cmd == FIONREAD && !uvfs_fstat(T(p), fd, &st) && S_ISREG(st.st_mode)) {
		/* the bytes after uvfs's position (the stand-in's is not it), any file */
		off_t pos = uvfs_lseek(T(p), fd, 0, SEEK_CUR);

		v = (int)(st.st_size - pos);  /* put_user of an int, as the kernel's */
		return skip(r, pos < 0 ? (int)pos : mem_write(p->tid, arg, &v, sizeof(v)));
	}
	if ((cmd == FS_IOC_GETFLAGS_ || cmd == FS_IOC_SETFLAGS_ || cmd == FS_IOC_FSGETXATTR_ ||
	     cmd == FS_IOC_FSSETXATTR_) && uvfs_host_fd(T(p), fd) == -EXDEV &&
	    !uvfs_fstatfs(T(p), fd, &sfs) && sfs.f_type == TMPFS_MAGIC_) {
		/* a memfs file's or directory's attributes: uvfs's (chattr, lsattr) */
		char buf[28];  /* an int, or struct fsxattr */
		size_t size = cmd == FS_IOC_FSGETXATTR_ || cmd == FS_IOC_FSSETXATTR_ ? 28 : 4;
		bool set = cmd == FS_IOC_SETFLAGS_ || cmd == FS_IOC_FSSETXATTR_;
		int err;

		err = uvfs_ioctl(T(p), fd, cmd, set && mem_read(p->tid, arg, buf, size) ? NULL : buf);
		if (!err && !set)
			err = mem_write(p->tid, arg, buf, size);
		return skip(r, err);
	}
	if (!memfs_file(p, fd, &st)) {
		if ((cmd == FS_IOC_SETFLAGS_ || cmd == FS_IOC_FSSETXATTR_) &&
		    uvfs_host_fd(T(p), fd) >= 0 && !uvfs_fstatfs(T(p), fd, &sfs) &&
		    (sfs.f_flags & ST_RDONLY))
			return skip(r, -EROFS);
		return ACT_NATIVE;
	}
	switch (cmd) {
	case FIGETBSZ_:
		v = UVFS_PAGE_SIZE_;
		return skip(r, mem_write(p->tid, arg, &v, sizeof(v)));
	case FIOQSIZE_: {
		long long bytes = (long long)st.st_blocks * 512;

		return skip(r, mem_write(p->tid, arg, &bytes, sizeof(bytes)));
	}
	default:
		return skip(r, -ENOTTY);
	}
}

/* ---------------------------------------------------------------------------------
 * The dispatcher
 */
static enum action syscall_answer(struct proc *p, struct user_regs_struct *r);

/* Every call the filter delivers: answered, and with --explain recorded (explain.c) */
/*
 * The signals dnotify and lease breaks owe (uvfs_dnotify_take), sent before the call
 * that caused them is answered, so that they are pending when it returns, as the kernel's
 * send_sigio() makes them: SIGIO, or the signal F_SETSIG gave the descriptor's
 * stand-in, with si_fd and si_band -- queued by the supervisor, so with si_code
 * SI_QUEUE where the kernel's is POLL_MSG (a process may not queue a positive code to
 * another: docs/SEMANTICS.md §9).
 */
void run_dnotify_send(void)
{
	int pid, fd, at_pid, at_fd;

	/* a lease lease-break-time took away: the kernel's lease_modify() clears the
	 * file's owner and F_SETSIG's signal, which the stand-in holds (fcntl_setlease) */
	while (uvfs_lease_lost_take(run_fs, &pid, &fd) == 1) {
		pid_t host = run_host_tgid(pid);
		int s = host < 0 ? -1 : run_take_fd(host, fd);

		if (s >= 0) {
			(void)fcntl(s, F_SETOWN, 0);
			(void)fcntl(s, F_SETSIG, 0);
			close(s);
		}
	}

	while (uvfs_dnotify_take_at(run_fs, &pid, &fd, &at_pid, &at_fd) == 1) {
		pid_t host = run_host_tgid(pid), at_host = at_pid > 0 ? run_host_tgid(at_pid) : -1;
		int s = -1, sig = 0;
		siginfo_t si;

		if (host < 0)
			continue;  /* gone: nobody to tell */
		/* F_SETSIG's signal is the file's: its stand-in where it is now (the
		 * number the lease named may hold another file since) */
		if (at_host >= 0 && at_fd >= 0)
			s = run_take_fd(at_host, at_fd);
		if (s >= 0) {
			sig = fcntl(s, F_GETSIG);
			close(s);
		}
		if (sig <= 0) {
			(void)kill(host, SIGIO);
			continue;
		}
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_QUEUE;
		si.si_band = POLLIN | POLLRDNORM | POLLMSG;  /* band_table[POLL_MSG - POLL_IN] */
		si.si_fd = fd;
		(void)syscall(SYS_rt_sigqueueinfo, host, sig, &si);
	}
}

enum action run_syscall(struct proc *p, struct user_regs_struct *r)
{
	long nr = (long)r->orig_rax;
	unsigned long long a0 = r->rdi;
	enum action a;

	run_zombies_sweep();  /* a process reaped since the last call is gone now */
	if (run_log_fd < 0) {
		a = syscall_answer(p, r);
		run_dnotify_send();
		return a;
	}
	run_log_begin();
	a = syscall_answer(p, r);
	run_dnotify_send();
	run_log_call(p, nr, a0, (long)r->rax, a);
	return a;
}

static enum action dispatch(struct proc *p, struct user_regs_struct *r)
{
	char pa[NAME_MAX_BYTES], pb[NAME_MAX_BYTES];
	long nr = (long)r->orig_rax;
	struct uvfs_task *t = T(p);
	struct stat st;
	long ret;
	int fd = iarg(A0(r));

	p->pending = PEND_NONE;
	run_cur_tid = p->tid;  /* /proc/thread-self (procsrc.c) */
	/* the threads' credentials differ: this one's for its call */
	if (p->up->cred_tid && p->up->cred_tid != p->tid)
		run_sync_creds(p);
	/* the steps of an exec (do_exec; trace.c, exec_stop): the calls the supervisor
	 * made the process make, at the instruction of its execve */
	if (p->exec_step == EX_INSTALL && nr == SYS_openat && r->rip == p->exec_regs.rip &&
	    iarg(A0(r)) == RUN_EXEC_MARKER) {
		/* do_open_execat(): the exec opens the file for reading, which breaks a
		 * write lease on it down to a read lease and waits for the holder, as any
		 * open does -- each file's in turn, the script's before its interpreter's
		 * (binfmt_script's open_exec()) -- on a helper (ACT_WAIT), where it may
		 * wait.  A signal meanwhile: -ERESTARTSYS, and at this open's exit the
		 * program's execve is given it back (trace.c, exec_stop), for the
		 * signal's delivery to make EINTR of it or make it again */
		for (int i = 0; i < p->exec_nfiles; i++) {
			uvfs_set_nowait(!run_on_helper);
			ret = uvfs_break_lease(T(p), p->exec_files[i], O_RDONLY);
			uvfs_set_nowait(false);
			if (ret == -UVFS_EWOULDWAIT)
				return ACT_WAIT;
			if (ret) {
				p->exec_intr = ret == -UVFS_ERESTARTSYS;
				return skip(r, ret);
			}
		}
		run_exec_files_put(p);
		p->inst_hfd = p->exec_hfd;
		p->exec_hfd = -1;
		p->inst_ufd = -1;
		p->inst_flags = O_CLOEXEC;
		return ACT_INSTALL;
	}
	if (p->exec_step == EX_RUN && nr == SYS_execveat && r->rip == p->exec_regs.rip &&
	    iarg(A0(r)) == p->exec_fd && A1(r) == p->exec_empty && A4(r) == AT_EMPTY_PATH)
		return ACT_EXIT_STOP;  /* its exit comes only if it failed */
	switch (nr) {
	/* opening */
	case SYS_open:
		return do_open(p, r, AT_FDCWD, A0(r), iarg(A1(r)), (mode_t)A2(r), NULL, 0);
	case SYS_creat:
		return do_open(p, r, AT_FDCWD, A0(r), O_CREAT | O_WRONLY | O_TRUNC, (mode_t)A1(r),
			       NULL, 0);
	case SYS_openat:
		return do_open(p, r, iarg(A0(r)), A1(r), iarg(A2(r)), (mode_t)A3(r), NULL, 0);
	case SYS_openat2:
		return do_openat2(p, r);
	case SYS_name_to_handle_at:
		return skip(r, do_name_to_handle(p, r));
	case SYS_open_by_handle_at:
		return do_open_by_handle(p, r);
	case SYS_inotify_init:
		return do_inotify_init(p, r, 0);
	case SYS_inotify_init1:
		return do_inotify_init(p, r, iarg(A0(r)));
	case SYS_inotify_add_watch:
		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		return skip(r, inotify_on_host(p, fd, uvfs_inotify_add_watch(t, fd, pa,
									      (uint32_t)A2(r))));
	case SYS_inotify_rm_watch:
		return skip(r, inotify_on_host(p, fd, uvfs_inotify_rm_watch(t, fd, iarg(A1(r)))));
	case SYS_close:
		if (ufd(p, fd))
			uvfs_close(t, fd);
		return ACT_NATIVE;  /* the stand-in, or the host's descriptor */
	case SYS_close_range:
		p->pending = PEND_CLOSE_RANGE;
		return ACT_EXIT_STOP;
	case SYS_dup:
	case SYS_dup2:
	case SYS_dup3:
		p->pending = PEND_DUP;
		p->p_fd = ufd(p, fd) ? fd : -1;
		p->p_fd2 = nr == SYS_dup ? -1 : iarg(A1(r));
		p->p_flags = nr == SYS_dup3 && (A2(r) & O_CLOEXEC) ? O_CLOEXEC : 0;
		return ACT_EXIT_STOP;
	case SYS_fcntl: {
		int cmd = iarg(A1(r));

		if (!ufd(p, fd))
			return ACT_NATIVE;
		switch (cmd) {
		case F_DUPFD:
		case F_DUPFD_CLOEXEC:
			p->pending = PEND_DUP;
			p->p_fd = fd;
			p->p_fd2 = -1;
			p->p_flags = cmd == F_DUPFD_CLOEXEC ? O_CLOEXEC : 0;
			return ACT_EXIT_STOP;
		case F_SETFD:
			uvfs_fcntl(t, fd, cmd, (long)A2(r));
			return ACT_NATIVE;  /* the stand-in's flag: the kernel's exec closes it */
		case F_GETFL:
		case F_SETFL:
			return skip(r, uvfs_fcntl(t, fd, cmd, (long)A2(r)));
		case F_ADD_SEALS:
		case F_GET_SEALS:
			return tmpfs_seals(p, r, fd, cmd, (unsigned int)A2(r));
		case F_GETLK:
		case F_SETLK:
		case F_SETLKW:
		case F_OFD_GETLK:
		case F_OFD_SETLK:
		case F_OFD_SETLKW:
			return fcntl_lock(p, r, fd);
		case F_SETLEASE:
			return fcntl_setlease(p, r, fd, iarg(A2(r)));
		case F_GETLEASE:
			return skip(r, uvfs_fcntl(t, fd, cmd, 0));
		case F_CREATED_QUERY_:
			/* uvfs's open created the file, not the stand-in's */
			return skip(r, uvfs_fcntl(t, fd, cmd, (long)A2(r)));
		case F_NOTIFY:
			/* dnotify: uvfs's requests on uvfs's directory; the signals are sent
			 * after each call (run_dnotify_send), F_SETSIG's the stand-in's */
			return skip(r, uvfs_fcntl(t, fd, cmd, (long)A2(r)));
		case F_GETFD:
		case F_DUPFD_QUERY_:
			return ACT_NATIVE;  /* the stand-in answers, O_PATH or not */
		default: {
			int fl = uvfs_fcntl(t, fd, F_GETFL, 0);

			/* F_SETOWN, F_GETSIG...: the stand-in answers; an O_PATH
			 * descriptor, whose stand-in is the null device, takes none
			 * (check_fcntl_cmd()) */
			return fl >= 0 && (fl & O_PATH) ? skip(r, -EBADF) : ACT_NATIVE;
		}
		}
	}
	/* descriptors' data */
	case SYS_read:
		return ufd(p, fd) ? skip(r, do_rw(p, fd, A1(r), A2(r), 0, false, false)) : ACT_NATIVE;
	case SYS_write:
		return ufd(p, fd) ? skip(r, do_rw(p, fd, A1(r), A2(r), 0, false, true)) : ACT_NATIVE;
	case SYS_pread64:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		if ((long)A3(r) < 0)
			return skip(r, -EINVAL);
		return skip(r, do_rw(p, fd, A1(r), A2(r), (off_t)A3(r), true, false));
	case SYS_pwrite64:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		if ((long)A3(r) < 0)
			return skip(r, -EINVAL);
		return skip(r, do_rw(p, fd, A1(r), A2(r), (off_t)A3(r), true, true));
	case SYS_readv:
	case SYS_writev:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		return skip(r, do_rwv(p, fd, A1(r), (long)A2(r), 0, false, nr == SYS_writev));
	case SYS_preadv:
	case SYS_pwritev:
	case SYS_preadv2:
	case SYS_pwritev2: {
		bool w = nr == SYS_pwritev || nr == SYS_pwritev2;
		long off = (long)A3(r);

		if (!ufd(p, fd))
			return ACT_NATIVE;
		if ((nr == SYS_preadv2 || nr == SYS_pwritev2) && off == -1)
			return skip(r, do_rwv(p, fd, A1(r), (long)A2(r), 0, false, w));
		if (off < 0)
			return skip(r, -EINVAL);
		return skip(r, do_rwv(p, fd, A1(r), (long)A2(r), off, true, w));
	}
	case SYS_lseek:
		return ufd(p, fd) ? skip(r, uvfs_lseek(t, fd, (off_t)A1(r), iarg(A2(r)))) : ACT_NATIVE;
	case SYS_getdents64:
	case SYS_getdents:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		/* the count is an unsigned int the kernel keeps in an int (struct
		 * getdents_callback64): 0, and anything past INT_MAX, fits no entry --
		 * filldir64()'s EINVAL when one is due, 0 at the end; uvfs's answer
		 * to a count of 0 is that */
		if (iarg(A2(r)) <= 0)
			return skip(r, uvfs_getdents64(t, fd, NULL, 0));
		return skip(r, do_getdents(p, fd, A1(r), (size_t)iarg(A2(r)), nr == SYS_getdents));
	case SYS_copy_file_range:
		if (!ufd(p, fd) && !ufd(p, iarg(A2(r))))
			return ACT_NATIVE;
		return skip(r, do_copy_file_range(p, r));
	case SYS_sendfile:
		return do_splice_from(p, r, iarg(A1(r)), fd, &r->rdx);
	case SYS_splice:
		return do_splice_from(p, r, fd, iarg(A2(r)), &r->rsi);
	case SYS_tee:
		/* pipes only: a uvfs fifo is uvfs's, EINVAL (docs/SEMANTICS.md §9) */
		if (!ufd(p, fd) && !ufd(p, iarg(A1(r))))
			return ACT_NATIVE;
		return skip(r, -EINVAL);
	case SYS_fsync:
	case SYS_fdatasync:
		return ufd(p, fd) ? skip(r, uvfs_fsync(t, fd)) : ACT_NATIVE;
	case SYS_ftruncate:
		return ufd(p, fd) ? skip(r, uvfs_ftruncate(t, fd, (off_t)A1(r))) : ACT_NATIVE;
	case SYS_fallocate:
		/* uvfs's: its size and its limit (the stand-in, a memfd or the host file,
		 * would grow behind them) */
		return ufd(p, fd) ? skip(r, uvfs_fallocate(t, fd, iarg(A1(r)), (off_t)A2(r),
							   (off_t)A3(r)))
				  : ACT_NATIVE;
	case SYS_fchmod:
		if (ufd(p, fd) && opath_fd(p, fd))
			return skip(r, -EBADF);  /* fchmod(): fdget() */
		if (!ufd(p, fd) && dev_node_of(p, fd, pa))
			return skip(r, uvfs_fchmodat(t, AT_FDCWD, pa, (mode_t)A1(r), 0));
		return ufd(p, fd) ? skip(r, uvfs_fchmodat(t, fd, "", (mode_t)A1(r), AT_EMPTY_PATH))
				  : ACT_NATIVE;
	case SYS_fchown:
		if (ufd(p, fd) && opath_fd(p, fd))
			return skip(r, -EBADF);  /* ksys_fchown(): fdget() */
		if (!ufd(p, fd) && dev_node_of(p, fd, pa))
			return skip(r, uvfs_fchownat(t, AT_FDCWD, pa, (uid_t)A1(r), (gid_t)A2(r),
						     AT_SYMLINK_NOFOLLOW));
		return ufd(p, fd) ? skip(r, uvfs_fchownat(t, fd, "", (uid_t)A1(r), (gid_t)A2(r),
							  AT_EMPTY_PATH))
				  : ACT_NATIVE;
	case SYS_fchdir:
		/* a host directory the program was given (bash -c '...' 3</etc): uvfs's cwd
		 * goes where uvfs's namespace shows it, the kernel's follows.  One the
		 * namespace does not show moves the kernel's alone (docs/SEMANTICS.md §9) */
		if (!ufd(p, fd) && uvfs_name_of(p, fd, pa, &st) && S_ISDIR(st.st_mode) &&
		    (ret = uvfs_chdir(t, pa)))
			return skip(r, ret);
		return ufd(p, fd) ? skip(r, uvfs_fchdir(t, fd)) : ACT_NATIVE;
	case SYS_fstat:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		ret = uvfs_fstat(t, fd, &st);
		return skip(r, ret ? ret : put_stat(p, A1(r), &st));
	case SYS_ioctl:
		if (ufd(p, fd) && opath_fd(p, fd))
			return skip(r, -EBADF);  /* ioctl(): fdget(), FIOCLEX too */
		return ufd(p, fd) ? do_ioctl(p, r, fd, (unsigned int)A1(r), A2(r)) : ACT_NATIVE;
	case SYS_fstatfs: {
		struct statfs sf;

		if (!ufd(p, fd))
			return ACT_NATIVE;
		ret = uvfs_fstatfs(t, fd, &sf);
		return skip(r, ret ? ret : mem_write(p->tid, A1(r), &sf, sizeof(sf)));
	}
	case SYS_fgetxattr:
	case SYS_flistxattr:
		/* fgetxattr and fsetxattr of AT_FDCWD are the cwd's (6.18 answers them
		 * so; flistxattr and fremovexattr EBADF): uvfs's, never the kernel's
		 * cwd, which is uvfs-run's on the host */
		if (fd == AT_FDCWD && nr == SYS_fgetxattr)
			return skip(r, (ret = fxattr_args(p, r, false)) ? ret :
				    do_getxattr(p, AT_FDCWD, "", AT_EMPTY_PATH, A1(r), A2(r), (size_t)A3(r)));
		if (!ufd(p, fd))
			return ACT_NATIVE;
		if (nr == SYS_fgetxattr && (ret = fxattr_args(p, r, false)))
			return skip(r, ret);
		if (opath_fd(p, fd))
			return skip(r, -EBADF);
		if (nr == SYS_flistxattr)
			return skip(r, do_getxattr(p, fd, "", AT_EMPTY_PATH, 0, A1(r), (size_t)A2(r)));
		return skip(r, do_getxattr(p, fd, "", AT_EMPTY_PATH, A1(r), A2(r), (size_t)A3(r)));

	/* names */
	case SYS_stat:
	case SYS_lstat:
	case SYS_newfstatat: {
		int dirfd = nr == SYS_newfstatat ? fd : AT_FDCWD;
		unsigned long long pathp = nr == SYS_newfstatat ? A1(r) : A0(r);
		unsigned long long stp = nr == SYS_newfstatat ? A2(r) : A1(r);
		int flags = nr == SYS_newfstatat ? iarg(A3(r)) : nr == SYS_lstat ? AT_SYMLINK_NOFOLLOW : 0;
		int h;

		if (nr == SYS_newfstatat && !pathp && (flags & AT_EMPTY_PATH))
			pa[0] = 0;  /* 6.11+: NULL with AT_EMPTY_PATH is fstat */
		else if ((ret = get_path(p, pathp, pa)))
			return skip(r, ret);
		if (dirfd_native(p, dirfd, pa) || (!pa[0] && (flags & AT_EMPTY_PATH) && !ufd(p, dirfd)))
			return ACT_NATIVE;
		ret = uvfs_fstatat(t, dirfd, pa, &st, flags);
		if (ret == -ENOENT && host_fd_name_at(p, dirfd, pa, pb, sizeof(pb)) >= 0) {
			ret = fstatat(AT_FDCWD, pb, &st, flags & AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		} else if (ret == -ENOENT && !(flags & AT_SYMLINK_NOFOLLOW) &&
			   (h = proc_ns_kpath(p, dirfd, pa, pb, sizeof(pb))) <= 0) {
			ret = h ? h : fstatat(run_proc_fd, pb, &st, 0) ? -errno : 0;
		} else if (!ret) {
			host_device_ids(p, dirfd, pa, flags, &st);
		}
		return skip(r, ret ? ret : put_stat(p, stp, &st));
	}
	case SYS_statx: {
		char tmp[8];

		if (!A1(r) || (!mem_read_str(p->tid, A1(r), tmp, 1) && !tmp[0])) {
			if ((A2(r) & AT_EMPTY_PATH) && !ufd(p, fd))
				return ACT_NATIVE;
		}
		if (A1(r) && !get_path(p, A1(r), pa) && dirfd_native(p, fd, pa))
			return ACT_NATIVE;
		if (A1(r) && !get_path(p, A1(r), pa) && uvfs_fstatat(t, fd, pa, &st, 0) == -ENOENT) {
			struct statx sx;
			int h = 1, kdir = AT_FDCWD;

			/* a host descriptor's link, or a namespace's: the kernel's answer */
			if (host_fd_name_at(p, fd, pa, pb, sizeof(pb)) >= 0)
				h = 0;
			else if (!(A2(r) & AT_SYMLINK_NOFOLLOW) &&
				 !(h = proc_ns_kpath(p, fd, pa, pb, sizeof(pb))))
				kdir = run_proc_fd;
			if (h < 0)
				return skip(r, h);
			if (h == 0) {
				ret = statx(kdir, pb, iarg(A2(r)), (unsigned int)A3(r), &sx) ? -errno : 0;
				if (!ret && mem_write(p->tid, A4(r), &sx, sizeof(sx)))
					ret = -EFAULT;
				return skip(r, ret);
			}
		}
		return skip(r, do_statx(p, fd, A1(r), iarg(A2(r)), (unsigned int)A3(r), A4(r)));
	}
	case SYS_statfs: {
		struct statfs sf;

		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		ret = uvfs_statfs(t, pa, &sf);
		return skip(r, ret ? ret : mem_write(p->tid, A1(r), &sf, sizeof(sf)));
	}
	case SYS_access:
	case SYS_faccessat:
	case SYS_faccessat2: {
		int dirfd = nr == SYS_access ? AT_FDCWD : fd;
		unsigned long long pathp = nr == SYS_access ? A0(r) : A1(r);
		int mode = iarg(nr == SYS_access ? A1(r) : A2(r));
		int flags = nr == SYS_faccessat2 ? iarg(A3(r)) : 0;

		if ((ret = get_path(p, pathp, pa)))
			return skip(r, ret);
		if (dirfd_native(p, dirfd, pa))
			return ACT_NATIVE;
		ret = uvfs_faccessat2(t, dirfd, pa, mode, flags);
		if (ret == -ENOENT && host_fd_name_at(p, dirfd, pa, pb, sizeof(pb)) >= 0) {
			ret = host_fd_access(p, pb, mode, flags);
		} else if (ret == -ENOENT && !(flags & AT_SYMLINK_NOFOLLOW)) {
			/* a namespace's file: the kernel's (gVisor's AccessOnNsNodeSucceeds) */
			int h = proc_ns_link(p, dirfd, pa, pb, sizeof(pb));

			if (h <= 0)
				ret = h ? h : host_fd_access(p, pb, mode, flags);
		}
		return skip(r, ret);
	}
	case SYS_readlink:
	case SYS_readlinkat: {
		int dirfd = nr == SYS_readlink ? AT_FDCWD : fd;
		unsigned long long pathp = nr == SYS_readlink ? A0(r) : A1(r);
		unsigned long long bufp = nr == SYS_readlink ? A1(r) : A2(r);
		long size = (long)iarg(nr == SYS_readlink ? A2(r) : A3(r));
		char *buf;

		if ((ret = get_path(p, pathp, pa)))
			return skip(r, ret);
		if (dirfd_native(p, dirfd, pa))
			return ACT_NATIVE;
		if (size <= 0)
			return skip(r, -EINVAL);
		/* no link's body is longer than PATH_MAX - 1 (a symlink's, d_path()'s
		 * page): a larger buffer gets the same bytes */
		if (size > PATH_MAX)
			size = PATH_MAX;
		buf = malloc((size_t)size);
		if (!buf)
			return skip(r, -ENOMEM);
		ret = uvfs_readlinkat(t, dirfd, pa, buf, (size_t)size);
		if (ret == -ENOENT && host_fd_name_at(p, dirfd, pa, pb, sizeof(pb)) >= 0) {
			ret = readlink(pb, buf, (size_t)size);
			ret = ret < 0 ? -errno : ret;
		}
		if (ret > 0 && mem_write(p->tid, bufp, buf, (size_t)ret))
			ret = -EFAULT;
		if (ret > 0)
			run_log_out("\"%.*s\"", (int)ret, buf);
		free(buf);
		return skip(r, ret);
	}
	case SYS_getcwd: {
		/* the kernel builds the name in a PATH_MAX page and copies it when it
		 * fits: a larger buffer changes nothing */
		size_t size = A1(r) < PATH_MAX ? (size_t)A1(r) : PATH_MAX;
		char *buf = malloc(size ? size : 1);

		if (!buf)
			return skip(r, -ENOMEM);
		ret = uvfs_getcwd(t, buf, size);
		if (ret > 0 && mem_write(p->tid, A0(r), buf, (size_t)ret))
			ret = -EFAULT;
		if (ret > 0)
			run_log_out("\"%s\"", buf);
		free(buf);
		return skip(r, ret);
	}
	case SYS_bind:
	case SYS_connect:
	case SYS_sendto: {
		bool native;

		ret = run_sock_call(p, r, &native);
		return native ? ACT_NATIVE : skip(r, ret);
	}
	case SYS_chdir:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_chdir(t, pa));
	case SYS_chroot:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_chroot(t, pa));
	case SYS_umask:
		return skip(r, (long)uvfs_umask(t, (mode_t)A0(r) & 0777));
	case SYS_mkdir:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_mkdirat(t, AT_FDCWD, pa, (mode_t)A1(r)));
	case SYS_mkdirat:
		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		if (dirfd_native(p, fd, pa))
			return ACT_NATIVE;
		return skip(r, uvfs_mkdirat(t, fd, pa, (mode_t)A2(r)));
	case SYS_mknod:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_mknodat(t, AT_FDCWD, pa, (mode_t)A1(r), (dev_t)A2(r)));
	case SYS_mknodat:
		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		if (dirfd_native(p, fd, pa))
			return ACT_NATIVE;
		return skip(r, uvfs_mknodat(t, fd, pa, (mode_t)A2(r), (dev_t)A3(r)));
	case SYS_rmdir:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_unlinkat(t, AT_FDCWD, pa, AT_REMOVEDIR));
	case SYS_unlink:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_unlinkat(t, AT_FDCWD, pa, 0));
	case SYS_unlinkat:
		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		if (dirfd_native(p, fd, pa))
			return ACT_NATIVE;
		return skip(r, uvfs_unlinkat(t, fd, pa, iarg(A2(r))));
	case SYS_rename:
		if ((ret = two_paths(p, A0(r), A1(r), pa, pb)))
			return skip(r, ret);
		return skip(r, uvfs_renameat2(t, AT_FDCWD, pa, AT_FDCWD, pb, 0));
	case SYS_renameat:
	case SYS_renameat2: {
		int ofd = fd, nfd = iarg(A2(r)), kind = 0;

		if ((ret = two_paths(p, A1(r), A3(r), pa, pb)))
			return skip(r, ret);
		if (one_dirfd_bad(p, &ofd, pa, &nfd, pb, &kind))
			return ACT_NATIVE;
		ret = uvfs_renameat2(t, ofd, pa, nfd, pb, nr == SYS_renameat2 ? (unsigned int)A4(r) : 0);
		return skip(r, ret == -EBADF && kind ? kind : ret);
	}
	case SYS_link:
		if ((ret = two_paths(p, A0(r), A1(r), pa, pb)))
			return skip(r, ret);
		return skip(r, uvfs_linkat(t, AT_FDCWD, pa, AT_FDCWD, pb, 0));
	case SYS_linkat: {
		int ofd = fd, nfd = iarg(A2(r)), kind = 0;

		if ((ret = two_paths(p, A1(r), A3(r), pa, pb)))
			return skip(r, ret);
		if (one_dirfd_bad(p, &ofd, pa, &nfd, pb, &kind))
			return ACT_NATIVE;
		ret = uvfs_linkat(t, ofd, pa, nfd, pb, iarg(A4(r)));
		return skip(r, ret == -EBADF && kind ? kind : ret);
	}
	case SYS_symlink:
		if ((ret = two_paths(p, A0(r), A1(r), pa, pb)))
			return skip(r, ret);
		return skip(r, uvfs_symlinkat(t, pa, AT_FDCWD, pb));
	case SYS_symlinkat:
		if ((ret = two_paths(p, A0(r), A2(r), pa, pb)))
			return skip(r, ret);
		if (dirfd_native(p, iarg(A1(r)), pb))
			return ACT_NATIVE;
		return skip(r, uvfs_symlinkat(t, pa, iarg(A1(r)), pb));
	case SYS_chmod:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_fchmodat(t, AT_FDCWD, pa, (mode_t)A1(r), 0));
	case SYS_fchmodat:
	case SYS_fchmodat2: {
		int flags = nr == SYS_fchmodat2 ? iarg(A3(r)) : 0;

		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		if (dirfd_native(p, fd, pa) || (!pa[0] && (flags & AT_EMPTY_PATH) && !ufd(p, fd)))
			return ACT_NATIVE;
		return skip(r, uvfs_fchmodat(t, fd, pa, (mode_t)A2(r), flags));
	}
	case SYS_chown:
	case SYS_lchown:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_fchownat(t, AT_FDCWD, pa, (uid_t)A1(r), (gid_t)A2(r),
					     nr == SYS_lchown ? AT_SYMLINK_NOFOLLOW : 0));
	case SYS_fchownat:
		if ((ret = get_path(p, A1(r), pa)))
			return skip(r, ret);
		if (dirfd_native(p, fd, pa))
			return ACT_NATIVE;
		return skip(r, uvfs_fchownat(t, fd, pa, (uid_t)A2(r), (gid_t)A3(r), iarg(A4(r))));
	case SYS_truncate:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		/* one that would wait for a lease's holder is made again on a helper */
		uvfs_set_nowait(!run_on_helper);
		ret = uvfs_truncate(t, pa, (off_t)A1(r));
		uvfs_set_nowait(false);
		return ret == -UVFS_EWOULDWAIT ? ACT_WAIT : skip(r, ret);
	case SYS_utime:
		return skip(r, do_utimes(p, AT_FDCWD, A0(r), A1(r), 0, 2));
	case SYS_utimes:
		return skip(r, do_utimes(p, AT_FDCWD, A0(r), A1(r), 0, 1));
	case SYS_futimesat:
		return skip(r, do_utimes(p, fd, A1(r), A2(r), 0, 1));
	case SYS_utimensat:
		if (!A1(r) && !ufd(p, fd))
			return ACT_NATIVE;
		return skip(r, do_utimes(p, fd, A1(r), A2(r), iarg(A3(r)), 0));
	case SYS_getxattr:
	case SYS_lgetxattr:
	case SYS_listxattr:
	case SYS_llistxattr:
	{
		bool list = nr == SYS_listxattr || nr == SYS_llistxattr;
		int at = nr == SYS_lgetxattr || nr == SYS_llistxattr ? AT_SYMLINK_NOFOLLOW : 0;

		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		ret = list ? do_getxattr(p, AT_FDCWD, pa, at, 0, A1(r), (size_t)A2(r))
			   : do_getxattr(p, AT_FDCWD, pa, at, A1(r), A2(r), (size_t)A3(r));
		if (ret == -ENOENT && host_fd_name_at(p, AT_FDCWD, pa, pb, sizeof(pb)) >= 0)
			return skip(r, host_fd_xattr(p, nr, pb, r));
		return skip(r, ret);
	}
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr: {
		bool l = nr == SYS_lsetxattr || nr == SYS_lremovexattr;

		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		if (nr == SYS_setxattr || nr == SYS_lsetxattr)
			return skip(r, do_setxattr(p, AT_FDCWD, pa, l ? AT_SYMLINK_NOFOLLOW : 0, A1(r),
						   A2(r), (size_t)A3(r), (int)A4(r)));
		return skip(r, do_removexattr(p, AT_FDCWD, pa, l ? AT_SYMLINK_NOFOLLOW : 0, A1(r)));
	}
	case SYS_setxattrat_:
	case SYS_getxattrat_:
	case SYS_listxattrat_:
	case SYS_removexattrat_:
		return do_xattrat(p, r, nr, fd);
	case SYS_file_getattr_:
	case SYS_file_setattr_:
		return do_file_attr(p, r, nr, fd);
	case SYS_fsetxattr:
		if (fd == AT_FDCWD)  /* the cwd's, as fgetxattr's above */
			return skip(r, (ret = fxattr_args(p, r, true)) ? ret :
				    do_setxattr(p, AT_FDCWD, "", AT_EMPTY_PATH, A1(r), A2(r),
						(size_t)A3(r), (int)A4(r)));
		if (!ufd(p, fd) && dev_node_of(p, fd, pa))  /* uvfs's node: dev_node_of() */
			return skip(r, (ret = fxattr_args(p, r, true)) ? ret :
				    do_setxattr(p, AT_FDCWD, pa, AT_SYMLINK_NOFOLLOW, A1(r), A2(r),
						(size_t)A3(r), (int)A4(r)));
		if (!ufd(p, fd))
			return ACT_NATIVE;
		if ((ret = fxattr_args(p, r, true)))
			return skip(r, ret);
		if (opath_fd(p, fd))
			return skip(r, -EBADF);
		return skip(r, do_setxattr(p, fd, "", AT_EMPTY_PATH, A1(r), A2(r), (size_t)A3(r),
					   (int)A4(r)));
	case SYS_fremovexattr:
		if (!ufd(p, fd))
			return ACT_NATIVE;
		if ((ret = fxattr_args(p, r, false)))
			return skip(r, ret);
		if (opath_fd(p, fd))
			return skip(r, -EBADF);
		return skip(r, do_removexattr(p, fd, "", AT_EMPTY_PATH, A1(r)));
	case SYS_setuid:
	case SYS_setgid:
	case SYS_setreuid:
	case SYS_setregid:
	case SYS_setresuid:
	case SYS_setresgid:
	case SYS_setfsuid:
	case SYS_setfsgid:
	case SYS_setgroups:
	case SYS_capset:
		p->pending = PEND_CREDS;
		p->p_arg = nr;
		return ACT_EXIT_STOP;
	case SYS_setns: {
		/* Another process's namespaces are the kernel's to join -- but not its
		 * mount namespace: uvfs's would stay the caller's, every path then
		 * answered in a namespace the process has left.  Refused (EPERM, as
		 * without CAP_SYS_ADMIN; a deliberate difference, docs/SEMANTICS.md §9):
		 * an nsfs descriptor of a mount namespace (NS_GET_NSTYPE on the
		 * supervisor's copy), or CLONE_NEWNS asked of a pidfd. */
		int k = ufd(p, fd) ? -1 : run_take_fd(p->up->tgid, fd);
		long type = k >= 0 ? ioctl(k, NS_GET_NSTYPE_) : -1;

		if (k >= 0)
			close(k);
		if (type == CLONE_NEWNS || (type < 0 && (A1(r) & CLONE_NEWNS)))
			return skip(r, -EPERM);
		return ACT_NATIVE;
	}
	case SYS_unshare:
		/* the kernel's checks first (EINVAL, EPERM): uvfs follows at the exit */
		if (!(A0(r) & (CLONE_NEWNS | CLONE_FS | CLONE_FILES)))
			return ACT_NATIVE;
		p->pending = PEND_UNSHARE;
		p->p_arg = (long)(A0(r) & (CLONE_NEWNS | CLONE_FS | CLONE_FILES));
		return ACT_EXIT_STOP;
	case SYS_mount: {
		char fstype[256], *data = NULL;
		const char *src = NULL, *type = NULL;

		/* copy_mount_string(): each string that is given (NULL is allowed), the
		 * data a page at most (copy_mount_options()) */
		if (A0(r) && (ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		src = A0(r) ? pa : NULL;
		if ((ret = get_path(p, A1(r), pb)))
			return skip(r, ret);
		if (A2(r)) {
			ret = mem_read_str(p->tid, A2(r), fstype, sizeof(fstype));
			if (ret)
				return skip(r, ret == -ENAMETOOLONG ? -ENODEV : ret);
			type = fstype;
		}
		if (A4(r)) {
			data = calloc(1, 4097);
			if (!data)
				return skip(r, -ENOMEM);
			if (mem_read_str(p->tid, A4(r), data, 4096) == -EFAULT) {
				free(data);
				return skip(r, -EFAULT);
			}
		}
		ret = uvfs_mount2(t, src, pb, type, (unsigned long)A3(r), data);
		free(data);
		return skip(r, ret);
	}
	case SYS_fsopen:
	case SYS_fsconfig:
	case SYS_fsmount:
	case SYS_fspick:
	case 467:  /* open_tree_attr */
	case SYS_open_tree:
	case SYS_move_mount:
	case SYS_mount_setattr:
	case 457:  /* statmount */
	case 458:  /* listmount */
		return do_mount_api(p, r, nr);
	case SYS_umount2:
		if ((ret = get_path(p, A0(r), pa)))
			return skip(r, ret);
		return skip(r, uvfs_umount2(t, pa, iarg(A1(r))));
	case SYS_pivot_root:
		if ((ret = two_paths(p, A0(r), A1(r), pa, pb)))
			return skip(r, ret);
		return skip(r, uvfs_pivot_root(t, pa, pb));
	/* descriptors that travel (passing.c) */
	case SYS_sendmsg:
	case SYS_sendmmsg:
		return run_send(p, r, nr == SYS_sendmmsg);
	case SYS_recvmsg:
	case SYS_recvmmsg:
		return run_recv(p, r, nr == SYS_recvmmsg);
	case SYS_pidfd_getfd:
		p->pending = PEND_GETFD;
		return ACT_EXIT_STOP;
	case SYS_mmap: {
		/* of a uvfs file (not MAP_ANONYMOUS: filter.c): the stand-in's, but an
		 * O_PATH descriptor maps nothing (EBADF: ksys_mmap_pgoff()'s fget()); its
		 * stand-in, the null device, would say ENODEV */
		int mfd = iarg(A4(r)), fl = ufd(p, mfd) ? uvfs_fcntl(t, mfd, F_GETFL, 0) : 0;

		return fl >= 0 && (fl & O_PATH) ? skip(r, -EBADF) : ACT_NATIVE;
	}
	case SYS_fadvise64:
	case SYS_readahead:
	case SYS_sync_file_range: {
		/* the stand-in's (the kernel's, on the file's data), but not of an O_PATH
		 * descriptor (fdget(): EBADF), and fadvise of a fifo, whose stand-in is the
		 * null device, is generic_fadvise()'s ESPIPE (readahead's EINVAL and
		 * sync_file_range's ESPIPE the device gives too) */
		int fl = ufd(p, fd) ? uvfs_fcntl(t, fd, F_GETFL, 0) : 0;

		if (fl >= 0 && (fl & O_PATH))
			return skip(r, -EBADF);
		if (nr == SYS_fadvise64 && ufd(p, fd) && !uvfs_fstat(t, fd, &st) && S_ISFIFO(st.st_mode))
			return skip(r, -ESPIPE);
		return ACT_NATIVE;
	}
	case SYS_syncfs:
	case 451: /* cachestat */
		/* the stand-in's (its filesystem, its pages), but not of an O_PATH
		 * descriptor: fdget(), EBADF */
		return ufd(p, fd) && opath_fd(p, fd) ? skip(r, -EBADF) : ACT_NATIVE;
	case SYS_epoll_ctl: {
		/* the kernel's epoll of the stand-in, but an O_PATH descriptor cannot be
		 * watched (do_epoll_ctl(): fdget() of it, EBADF) -- after the event is
		 * copied in for every op but EPOLL_CTL_DEL (EFAULT first) */
		int tfd = iarg(A2(r));
		char ev[12];  /* struct epoll_event, packed on x86-64 */

		if (!ufd(p, tfd) || !opath_fd(p, tfd))
			return ACT_NATIVE;
		if (iarg(A1(r)) != 2 /* EPOLL_CTL_DEL */ && mem_read(p->tid, A3(r), ev, sizeof(ev)))
			return skip(r, -EFAULT);
		return skip(r, -EBADF);
	}
	case SYS_flock: {
		/* the stand-in's lock, but an O_PATH descriptor takes none (EBADF: flock()
		 * fdget()s without FMODE_PATH); its stand-in, the null device, would */
		int fl = ufd(p, fd) ? uvfs_fcntl(t, fd, F_GETFL, 0) : 0;

		return fl >= 0 && (fl & O_PATH) ? skip(r, -EBADF) : ACT_NATIVE;
	}
	case SYS_socket:
	case SYS_socketpair:
		/* an AF_UNIX one (filter.c): its sends and receives watched from then */
		if (__atomic_load_n(&p->up->watched, __ATOMIC_RELAXED) & (1u << RUN_GROUP_SOCK))
			return ACT_NATIVE;
		p->pending = PEND_SOCK;
		return ACT_EXIT_STOP;
	case SYS_execve:
		return do_exec(p, r, AT_FDCWD, A0(r), A1(r), A2(r), 0);
	case SYS_execveat:
		return do_exec(p, r, fd, A1(r), A2(r), A3(r), iarg(A4(r)));
	}
	return ACT_NATIVE;
}

/* The credentials the kernel shows for thread tid (/proc/TID/status): 0 or -errno */
struct thread_creds {
	struct uvfs_cred c;
	gid_t groups[1024];
};

static int read_creds(pid_t tid, struct thread_creds *tc)
{
	struct uvfs_cred *c = &tc->c;
	char path[64], line[8192];
	FILE *f;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "Uid: %u %u %u %u", &c->uid, &c->euid, &c->suid, &c->fsuid) == 4 ||
		    sscanf(line, "Gid: %u %u %u %u", &c->gid, &c->egid, &c->sgid, &c->fsgid) == 4)
			continue;
		if (!strncmp(line, "Groups:", 7)) {
			char *s = line + 7, *end;

			while (c->ngroups < sizeof(tc->groups) / sizeof(tc->groups[0])) {
				unsigned long g = strtoul(s, &end, 10);

				if (end == s)
					break;
				tc->groups[c->ngroups++] = (gid_t)g;
				s = end;
			}
		} else if (sscanf(line, "CapInh: %llx", &v) == 1) {
			c->caps.inheritable = v;
		} else if (sscanf(line, "CapPrm: %llx", &v) == 1) {
			c->caps.permitted = v;
		} else if (sscanf(line, "CapEff: %llx", &v) == 1) {
			c->caps.effective = v;
		}
	}
	fclose(f);
	c->groups = tc->groups;
	return 0;
}

static bool creds_equal(const struct thread_creds *a, const struct thread_creds *b)
{
	const struct uvfs_cred *x = &a->c, *y = &b->c;

	return x->uid == y->uid && x->euid == y->euid && x->suid == y->suid &&
	       x->fsuid == y->fsuid && x->gid == y->gid && x->egid == y->egid &&
	       x->sgid == y->sgid && x->fsgid == y->fsgid &&
	       x->caps.effective == y->caps.effective && x->caps.permitted == y->caps.permitted &&
	       x->caps.inheritable == y->caps.inheritable && x->ngroups == y->ngroups &&
	       !memcmp(a->groups, b->groups, x->ngroups * sizeof(gid_t));
}

/*
 * A credential call the kernel has answered (set*id, setgroups, capset): uvfs's task
 * takes the credentials the kernel now shows for the thread (/proc/TID/status), so
 * that the two never disagree -- the kernel has what uvfs has no call for (keep-caps,
 * securebits, ambient sets: setpriv uses them).  The kernel keeps credentials per
 * thread, uvfs per task (a process): glibc's set*id makes every thread call the
 * kernel, so they agree again once the last has; a raw call in one thread leaves the
 * threads different.  Then the task holds one thread's (uproc.cred_tid), and a call
 * of another thread first takes that thread's (dispatch), as the kernel checks each
 * thread's call with its own.  Under the process's act lock.
 */
void run_sync_creds(struct proc *p)
{
	struct thread_creds *mine = malloc(sizeof(*mine)), *other = malloc(sizeof(*other));
	pid_t tids[256];
	size_t n;
	int err;

	if (!mine || !other || read_creds(p->tid, mine))
		goto out;
	err = uvfs_task_setcred(T(p), &mine->c);
	if (err) {
		fprintf(stderr, "uvfs-run: pid %d: credentials: %s\n", p->up->nspid, strerror(-err));
		goto out;
	}
	/* do the other threads have the same?  (an exited one reads as none) */
	p->up->cred_tid = 0;
	n = run_uproc_tids(p->up, tids, sizeof(tids) / sizeof(tids[0]));
	for (size_t i = 0; i < n; i++) {
		if (tids[i] == p->tid || read_creds(tids[i], other))
			continue;
		if (!creds_equal(mine, other)) {
			p->up->cred_tid = p->tid;
			break;
		}
	}
out:
	free(mine);
	free(other);
}

int run_installed(struct proc *p, long ret)
{
	int ufd = p->inst_ufd, err;
	unsigned int want;

	p->inst_ufd = -1;
	if (ufd < 0 || ret < 0) {
		if (ufd >= 0)
			uvfs_close(T(p), ufd);
		return -1;
	}
	if (ret != ufd) {
		/* the number the kernel gave is free in uvfs's table too: one descriptor
		 * space (a uvfs descriptor's number always holds its stand-in) */
		err = uvfs_dup3(T(p), ufd, (int)ret, (int)p->inst_flags);
		uvfs_close(T(p), ufd);
		if (err < 0) {
			fprintf(stderr, "uvfs-run: descriptor %ld: %s\n", ret, strerror(-err));
			return -1;
		}
	}
	/* read on a helper thread too (waits.c) while the loop adds to it; the first
	 * group not watched yet goes in at the stop the caller is asked for, the rest
	 * after it (watch_next()) */
	want = run_fd_watch(p, (int)ret) & ~__atomic_load_n(&p->up->watched, __ATOMIC_RELAXED);
	if (!want)
		return -1;
	p->watch_more |= want & (want - 1);
	return __builtin_ctz(want);
}

unsigned int run_fd_watch(struct proc *p, int fd)
{
	int g = run_fd_group(fd), fl = uvfs_fcntl(T(p), fd, F_GETFL, 0);
	struct stat st;

	if (fl >= 0 && ((fl & O_PATH) || (!uvfs_fstat(T(p), fd, &st) && S_ISFIFO(st.st_mode))))
		return 1u << g | 1u << (RUN_GROUP_ODD + g);
	return 1u << g;
}

/* The calls that may make a uvfs file larger */
static bool grows_files(long nr)
{
	switch (nr) {
	case SYS_write: case SYS_pwrite64: case SYS_writev: case SYS_pwritev:
	case SYS_pwritev2: case SYS_ftruncate: case SYS_truncate: case SYS_fallocate:
	case SYS_copy_file_range: case SYS_sendfile: case SYS_splice:
		return true;
	default:
		return false;
	}
}

/*
 * RLIMIT_FSIZE is the program's, which it sets on the kernel (setrlimit and prlimit
 * are not trapped): read with prlimit before each call that may grow a uvfs file and
 * given to uvfs.  The SIGXFSZ uvfs sends with the call's EFBIG (the kernel's
 * send_sig(SIGXFSZ, current, 0): to the calling thread) is sent here, to that
 * thread, before it runs on: the kernel delivers it on the call's return.  (Its
 * si_code is SI_TKILL and si_pid uvfs-run's, 0 in the program's pid namespace, where
 * the kernel's is SI_USER from the thread itself.)
 */
static enum action syscall_answer(struct proc *p, struct user_regs_struct *r)
{
	struct rlimit rl;
	enum action a;

	if (grows_files((long)r->orig_rax) && !program_fsize_limit(p, &rl))
		uvfs_task_setrlimit(T(p), RLIMIT_FSIZE, rl.rlim_cur);
	a = dispatch(p, r);
	if (uvfs_task_take_signals(T(p)) & (1ull << (SIGXFSZ - 1)))
		syscall(SYS_tgkill, p->up->tgid, p->tid, SIGXFSZ);
	return a;
}

void run_syscall_exit(struct proc *p, struct user_regs_struct *r)
{
	struct uvfs_task *t = T(p);
	long ret = (long)r->rax;

	p->new_ufd = -1;
	switch (p->pending) {
	case PEND_DUP:
		if (ret < 0)
			break;
		if (p->p_fd >= 0) {
			if (ret != p->p_fd)
				uvfs_dup3(t, p->p_fd, (int)ret, (int)p->p_flags);
			if (ufd(p, ret))
				p->new_ufd = (int)ret;
		} else if (ufd(p, ret)) {
			/* a host descriptor dup2'ed over a uvfs one */
			uvfs_close(t, (int)ret);
		}
		break;
	case PEND_CLOSE_RANGE:
		if (ret == 0) {
			unsigned int first = (unsigned int)r->rdi, last = (unsigned int)r->rsi;
			unsigned int flags = (unsigned int)r->rdx;

			for (unsigned int fd = first; fd <= last && fd < 65536; fd++) {
				if (!ufd(p, fd))
					continue;
				if (flags & 4 /* CLOSE_RANGE_CLOEXEC */)
					uvfs_fcntl(t, (int)fd, F_SETFD, FD_CLOEXEC);
				else
					uvfs_close(t, (int)fd);
			}
		}
		break;
	case PEND_CREDS:
		run_sync_creds(p);
		break;
	case PEND_SEND:
		run_send_exit(p, ret, (long)r->orig_rax == SYS_sendmmsg);
		break;
	case PEND_RECV:
		run_recv_exit(p, r, ret, (long)r->orig_rax == SYS_recvmmsg);
		break;
	case PEND_GETFD:
		run_getfd_exit(p, r, ret);
		break;
	case PEND_POS:
		splice_from_exit(p, r, ret);
		break;
	case PEND_SOCK:
		if (ret >= 0)
			p->watch_more |= 1u << RUN_GROUP_SOCK;
		break;
	case PEND_UNSHARE:
		if (ret == 0) {
			int err = uvfs_unshare(t, (int)p->p_arg);

			if (err)
				fprintf(stderr, "uvfs-run: pid %d: unshare: uvfs did not follow: %s\n",
					p->up->nspid, strerror(-err));
			else if (p->p_arg & CLONE_NEWNS)
				run_sync_mnt_ns_id(t, p->tid);
		}
		break;
	case PEND_NONE:
		break;
	}
}
