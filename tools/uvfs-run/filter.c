// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter.c - the seccomp filters: the file-system calls uvfs answers go to the
 * supervisor -- the opens by user notification (SCMP_ACT_NOTIFY: their descriptors
 * are installed by ADDFD), the rest by stopping the process for the tracer
 * (SCMP_ACT_TRACE); everything else -- memory, signals, time, sockets, pipes, and
 * every call a descriptor of the host's makes -- runs on the kernel without the
 * supervisor ever seeing it.  The lists are the specification of what uvfs-run
 * answers (docs/uvfs-run.1 prints them).
 *
 * Two kinds of filter.  The first, installed by the program's first process before
 * its exec, traps every call that names a path (and close_range, the credential
 * calls).  A call that only names a descriptor (read, write, fstat, lseek, close,
 * dup2...) concerns uvfs only when the descriptor is one of uvfs's, and seccomp sees
 * the number, not the table: so those calls are trapped only on the numbers where a
 * process has had a uvfs descriptor.  When uvfs's descriptor lands on a number none
 * of the process's filters watches, the tracer makes the process install one more
 * (trace.c, watch()), for that number's group: 0, 1, 2 and 3 each alone, then the
 * powers of two, [4, 8), [8, 16) ... [2048, 4096), and everything from 4096 -- at
 * most fifteen per process, each a few dozen BPF instructions, inherited by its
 * children and kept across exec as the kernel keeps every filter.  Groups that
 * double: a few filters cover what a process uses, and a daemon closing every number
 * up to 20,000 stops only on those of the groups its uvfs descriptors had (bash keeps
 * its script on 255: [128, 256) alone, where one group of everything from 64 made
 * each of those closes a round trip).  Processes that share one table
 * (clone's CLONE_FILES without CLONE_THREAD) watch every number (RUN_GROUP_ALL):
 * a descriptor one of them opens is the other's at once.  A host pipe or terminal on a number
 * no uvfs descriptor ever had costs nothing; one on a watched number a round trip.
 */
#include <assert.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run.h"

/*
 * Delivered by notification: every call with a path, whose answer is a value uvfs
 * gives (and, for the opens, a descriptor uvfs-run installs).  Stopped for the tracer
 * (ptrace): what must be done by the kernel in the process itself and followed --
 * exec, the credential calls (the kernel answers, then uvfs copies what it shows),
 * unshare -- and close_range, whose result uvfs mirrors at the call's exit.
 */
static const char *const notified[] = {
	/* names and paths */
	"open", "openat", "openat2", "creat", "stat", "lstat", "newfstatat",
	"statx", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getcwd",
	"chdir", "chroot", "mkdir", "mkdirat", "mknod", "mknodat", "rmdir",
	"unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat",
	"symlink", "symlinkat", "chmod", "fchmodat", "chown",
	"lchown", "fchownat", "truncate", "utime", "utimes", "futimesat",
	"utimensat", "statfs", "umask",
	/* mounts: uvfs's namespace, not the host's */
	"mount", "umount2", "pivot_root",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
	/* unix sockets with a path: bind and connect of every socket (unixsock.c: a
	 * socket of another family is answered by the kernel as made) */
	"bind", "connect",
	/* extended attributes: uvfs has none (ENODATA, as tmpfs without any set); a
	 * minimal access ACL is a chmod, as the kernel stores it */
	"getxattr", "lgetxattr", "listxattr", "llistxattr",
	"setxattr", "lsetxattr", "removexattr", "lremovexattr",
	/* file handles: uvfs's (memfs's as tmpfs's), never the kernel's to decode -- a
	 * host handle opened by the kernel would reach a host inode past every check */
	"name_to_handle_at", "open_by_handle_at",
	/* inotify: uvfs's watches on uvfs's inodes (the kernel's would be on the host's,
	 * named in the host's namespace); the descriptor's stand-in is the eventfd
	 * uvfs keeps readable while events are queued, for poll, select and epoll */
	"inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch",
	/* calls on a descriptor that programs seldom make on the kernel's own (pipes,
	 * sockets, terminals, eventfds) and often on files: every one is notified, so
	 * that on a uvfs file it costs a notification, not a ptrace stop on a watched
	 * number (~19 against ~30 us here: tar x makes an fchown and an fchmod a file);
	 * one on a kernel descriptor is continued (SECCOMP_USER_NOTIF_FLAG_CONTINUE:
	 * no argument of theirs is a pointer the kernel would read again, and the
	 * race of a number changing meanwhile is the one a watched number has) */
	"fchmod", "fchown", "fchdir", "fstatfs", "fsync", "fdatasync", "ftruncate", "fallocate",
	"getdents", "getdents64", "fgetxattr", "flistxattr", "fsetxattr", "fremovexattr",
};
static const int notified_nr[] = {
	452,  /* fchmodat2 (Linux 6.6): libseccomp 2.5 has no name for it */
	463, 464, 465, 466,  /* setxattrat, getxattrat, listxattrat, removexattrat (6.13) */
	468, 469,            /* file_getattr, file_setattr (6.17) */
	457, 458,            /* statmount, listmount (6.8): uvfs's mounts */
	467,                 /* open_tree_attr (6.15) */
};

static const char *const trapped[] = {
	"execve", "execveat",
	/* credentials: the kernel answers, then uvfs takes what it shows */
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid",
	"setfsgid", "setgroups", "capset",
	/* descriptors: the ones that may close many */
	"close_range",
	/* a mount namespace, fs_struct or table of its own: the kernel's, then uvfs's */
	"unshare",
	/* another's namespaces: the kernel's, but not a mount namespace (syscalls.c) */
	"setns",
	/* descriptors that travel: uvfs's file at the number taken (passing.c); the
	 * sends and receives of SCM_RIGHTS are watched once a process makes a unix
	 * socket (socket_nr below, RUN_GROUP_SOCK) */
	"pidfd_getfd",
};

/*
 * Refused, as a kernel built without them refuses them (sys_ni_syscall: ENOSYS), so
 * that a program falls back to the calls uvfs answers: io_uring, whose
 * IORING_OP_OPENAT, RENAMEAT, UNLINKAT, STATX... the kernel would make in its own
 * threads with no filter seeing them, on the host's files; fanotify, whose marks
 * would watch the host's inodes, not uvfs's.  Docker's default profile and gVisor
 * refuse io_uring too (EPERM, ENOSYS).  A deliberate difference (docs/SEMANTICS.md
 * §9).
 */
static const char *const refused[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register", "fanotify_init", "fanotify_mark",
};

/*
 * Refused with EPERM, as in a container without CAP_SYS_PACCT or CAP_SYS_ADMIN:
 * process accounting, swap and quotas name host files (or block devices) and act on
 * the host's kernel, whatever uvfs's namespace says.
 */
static const char *const refused_perm[] = {
	"acct", "swapon", "swapoff", "quotactl", "quotactl_fd",
};

/* Stopped for the tracer when their first argument is AF_UNIX: the process then
 * installs the filter of RUN_GROUP_SOCK, which stops its sendmsg, sendmmsg, recvmsg
 * and recvmmsg (passing.c): descriptors travel only over unix sockets, and a
 * process that never makes one -- nor inherits one from a process that made it --
 * sends and receives on its TCP, UDP and netlink sockets at the kernel's speed. */
static const int socket_nr[] = { SYS_socket, SYS_socketpair };
static const int sock_watch_nr[] = { SYS_sendmsg, SYS_sendmmsg, SYS_recvmsg, SYS_recvmmsg };

/* x86-64's numbers are below 512: the notified ones, as a map made at first use */
#define NR_MAX 512

static bool notified_map[NR_MAX];
static pthread_once_t notified_once = PTHREAD_ONCE_INIT;

static void notified_make(void)
{
	notified_map[SYS_sendto] = true;  /* with an address: run_install_filter() */
	for (size_t i = 0; i < sizeof(notified_nr) / sizeof(notified_nr[0]); i++)
		notified_map[notified_nr[i]] = true;
	for (size_t i = 0; i < sizeof(notified) / sizeof(notified[0]); i++) {
		int n = seccomp_syscall_resolve_name(notified[i]);

		if (n >= 0 && n < NR_MAX)
			notified_map[n] = true;
	}
}

/* (the workers ask at once: the map is made once) */
bool run_notified(long nr)
{
	pthread_once(&notified_once, notified_make);
	return nr >= 0 && nr < NR_MAX && notified_map[nr];
}

/* Calls whose first argument is a descriptor, made on the kernel's descriptors as
 * often as on files: trapped on watched numbers only.  (fstat is here; its *at forms
 * with a path are above, with fchmod, fchown... which are notified on every number.) */
static const int by_fd0[] = {
	SYS_read, SYS_write, SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev,
	SYS_preadv, SYS_pwritev, SYS_preadv2, SYS_pwritev2, SYS_lseek, SYS_fstat,
	SYS_close, SYS_fcntl, SYS_dup, SYS_ioctl,
};
/* ... or the second: dup2 and dup3 onto a uvfs number close uvfs's descriptor;
 * sendfile(out, in) and tee(in, out) read one */
static const int by_fd1[] = { SYS_dup2, SYS_dup3, SYS_sendfile, SYS_tee };
/* ... or the third: copy_file_range(in, off, out) and splice(in, off, out) */
static const int by_fd2[] = { SYS_copy_file_range, SYS_splice };
/*
 * Calls the stand-in answers as Linux answers the file, but for two kinds of uvfs
 * descriptor: an O_PATH one (its stand-in is the null device, which maps, advises and
 * locks where Linux's fget()/fdget() says EBADF) and a fifo (fadvise: ESPIPE, where
 * the null device advises).  Trapped only on the numbers such a descriptor has had
 * (RUN_GROUP_ODD): the loader's mmap of every library on the number 3 its open was
 * given stops for nothing -- five stops of ~30 us an exec of /bin/true, 72 in a
 * start-stop-daemon start.  By the first argument, epoll_ctl by its third (the
 * watched descriptor), and mmap of a file by the fifth (not MAP_ANONYMOUS, whose
 * descriptor is -1 by custom and ignored).
 */
static const int odd_fd0[] = {
	SYS_fadvise64, SYS_readahead, SYS_sync_file_range, SYS_flock, SYS_syncfs,
	451,  /* cachestat (6.5): fdget(), EBADF for O_PATH as the rest */
};
static const int odd_fd2[] = { SYS_epoll_ctl };  /* epoll_ctl(epfd, op, fd, event) */
static const int odd_fd4[] = { SYS_mmap };

#define N(a) (sizeof(a) / sizeof((a)[0]))

int run_fd_group(int fd)
{
	if (fd < 4)
		return fd;
	if (fd >= RUN_GROUP_TOP)
		return RUN_GROUP_ALL - 1;
	/* [4, 8) 4, [8, 16) 5 ... [32, 64) 7, [64, 128) 8 ... [2048, 4096) 13 */
	return 33 - __builtin_clz((unsigned int)fd);
}

/* The numbers [lo, hi] of a group (an odd one's: its group of numbers') */
static void group_range(int g, unsigned int *lo, unsigned int *hi)
{
	if (g >= RUN_GROUP_ODD)
		g -= RUN_GROUP_ODD;
	if (g < 4) {
		*lo = *hi = (unsigned int)g;
	} else if (g < RUN_GROUP_ALL - 1) {
		*lo = 1u << (g - 2);
		*hi = (1u << (g - 1)) - 1;
	} else {
		/* the top group: negative numbers too (AT_FDCWD is not a descriptor
		 * these calls take; the kernel answers EBADF) */
		*lo = g == RUN_GROUP_ALL ? 0 : RUN_GROUP_TOP;
		*hi = 0xffffffffu;
	}
}

/* the low half of argument i (x86-64 is little-endian) */
#define ARG_LO(i) ((unsigned int)(offsetof(struct seccomp_data, args) + 8 * (i)))
#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) \
	((struct sock_filter)BPF_JUMP(code, k, (unsigned char)(jt), (unsigned char)(jf)))

/* The calls group g's filter traps, each with the argument that holds the number
 * (0, 1, 2; 3 for mmap's fifth): a group of numbers' by_fd*, an odd group's odd_fd*,
 * RUN_GROUP_ALL's both.  Returns how many. */
static size_t watch_calls(int g, int nr[], int arg[])
{
	static const struct { const int *nr; size_t n; int arg; bool odd; } lists[] = {
		{ by_fd0, N(by_fd0), 0, false }, { by_fd1, N(by_fd1), 1, false },
		{ by_fd2, N(by_fd2), 2, false }, { odd_fd0, N(odd_fd0), 0, true },
		{ odd_fd2, N(odd_fd2), 2, true }, { odd_fd4, N(odd_fd4), 3, true },
	};
	size_t k = 0;

	for (size_t l = 0; l < N(lists); l++) {
		if (g != RUN_GROUP_ALL && lists[l].odd != (g >= RUN_GROUP_ODD))
			continue;
		for (size_t i = 0; i < lists[l].n; i++, k++) {
			nr[k] = lists[l].nr[i];
			arg[k] = lists[l].arg;
		}
	}
	return k;
}

/*
 * The watching filter of group g, into out (RUN_WATCH_MAX instructions at most);
 * returns how many.  The kernel reads a descriptor argument as an unsigned int (the
 * low half of the register), so the low half is what is compared.  BPF jumps only
 * forward:
 *
 *	0	A = nr
 *	1..	A == each call of watch_calls() -> the check of its argument: chk0,
 *		chk1, chk2, or chk4 (mmap's fifth)
 *	allow	ALLOW
 *	chk4	A = arg3; A & MAP_ANONYMOUS -> allow0; A = arg4; lo <= A <= hi -> trace;
 *		else allow0
 *	chk1	A = arg1; lo <= A <= hi -> trace; else chk0
 *	chk2	A = arg2; lo <= A <= hi -> trace; else chk0
 *	chk0	A = arg0; lo <= A <= hi -> trace; else allow0
 *	allow0	ALLOW
 *	trace	TRACE
 */
int run_watch_filter(int g, struct sock_filter *out)
{
	int nr[RUN_WATCH_MAX], arg[RUN_WATCH_MAX];
	const size_t njeq = watch_calls(g, nr, arg);
	const size_t allow = 1 + njeq, chk4 = allow + 1, chk1 = chk4 + 5, chk2 = chk1 + 3,
		     chk0 = chk2 + 3, allow0 = chk0 + 3, trace = allow0 + 1;
	const size_t chk[4] = { chk0, chk1, chk2, chk4 };
	unsigned int lo, hi;
	size_t k = 0;

	_Static_assert(RUN_GROUP_TOP == 1 << (RUN_GROUP_ALL - 3) && RUN_GROUP_ALL < RUN_GROUP_SOCK &&
		       RUN_GROUP_SOCK < RUN_GROUP_ODD && RUN_GROUP_ODD + RUN_GROUP_ALL - 1 < 32,
		       "the groups double up to RUN_GROUP_TOP; uproc.watched has a bit for each, "
		       "and for the odd group of each");
	_Static_assert(N(by_fd0) + N(by_fd1) + N(by_fd2) + N(odd_fd0) + N(odd_fd2) + N(odd_fd4) +
		       17 <= RUN_WATCH_MAX, "RUN_GROUP_ALL's filter fits RUN_WATCH_MAX");
	_Static_assert(RUN_WATCH_MAX < 256, "every jump fits BPF's 8-bit offsets");
	if (g == RUN_GROUP_SOCK) {
		/* A = nr; each of sock_watch_nr -> trace; else allow */
		const size_t n = N(sock_watch_nr);

		_Static_assert(N(sock_watch_nr) + 3 <= RUN_WATCH_MAX, "fits RUN_WATCH_MAX");
		out[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
		for (size_t i = 0; i < n; i++, k++)
			out[k] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)sock_watch_nr[i],
				      n - i, 0);
		out[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		out[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
		return (int)k;
	}
	group_range(g, &lo, &hi);
	out[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (size_t i = 0; i < njeq; i++, k++)
		out[k] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr[i], chk[arg[i]] - k - 1, 0);
	out[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	assert(k == chk4);
	out[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(3));
	out[k] = JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, allow0 - k - 1, 0);
	k++;
	out[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(4));
	out[k] = JUMP(BPF_JMP | BPF_JGE | BPF_K, lo, 0, allow0 - k - 1);
	k++;
	out[k] = JUMP(BPF_JMP | BPF_JGT | BPF_K, hi, allow0 - k - 1, trace - k - 1);
	k++;
	assert(k == chk1);
	for (int a = 1; a <= 3; a++) {
		int i = a % 3;  /* 1, 2, then 0 */
		size_t miss = i ? chk0 : allow0;

		out[k++] = STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(i));
		out[k] = JUMP(BPF_JMP | BPF_JGE | BPF_K, lo, 0, miss - k - 1);
		k++;
		out[k] = JUMP(BPF_JMP | BPF_JGT | BPF_K, hi, miss - k - 1, trace - k - 1);
		k++;
	}
	out[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	out[k++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	assert(k <= RUN_WATCH_MAX);
	return (int)k;
}

/*
 * ctx's program, as libseccomp exports it, into buf (room for max instructions):
 * its length (less than max: a program that fills buf may go on), or -errno
 * (-E2BIG for max or more).  Through a pipe, not a
 * memfd: RLIMIT_FSIZE, which the program's is by now, does not bound a pipe (under
 * `ulimit -f 1` a memfd took the program's first 1024 bytes and the kernel refused
 * the rest as EINVAL); the largest program (BPF_MAXINSNS, 32 KiB) fits a pipe's
 * 64 KiB, so the export never waits.
 */
static int program_of(scmp_filter_ctx ctx, struct sock_filter *buf, size_t max)
{
	size_t got = 0, size = max * sizeof(*buf);
	int p[2], err;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	err = seccomp_export_bpf(ctx, p[1]);
	close(p[1]);
	while (!err && (n = read(p[0], (char *)buf + got, size - got)) != 0) {
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			got += (size_t)n;
		if (got == size)
			err = -E2BIG;
	}
	close(p[0]);
	if (!err && (!got || got % sizeof(*buf)))
		err = -EIO;
	return err ? err : (int)(got / sizeof(*buf));
}

/*
 * libseccomp builds the program; it is loaded here, with the flags libseccomp 2.5
 * has no attribute for: SECCOMP_FILTER_FLAG_NEW_LISTENER (the supervisor's
 * descriptor) and SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19: once the
 * supervisor has received a notification, only a fatal signal interrupts the call --
 * an open uvfs has made must not be abandoned for a signal handler; before, the
 * call ends with ERESTARTSYS, which the tracer makes ERESTARTNOINTR at the
 * signal-delivery stop (trace.c): restarted after the handler, never EINTR, as
 * Linux's stat or open of a file never is).  no_new_privs as seccomp_load() sets it.
 */
static int load_with_listener(scmp_filter_ctx ctx)
{
	struct sock_filter buf[BPF_MAXINSNS + 1];
	struct sock_fprog prog = { 0 };
	int n = program_of(ctx, buf, N(buf)), fd;

	if (n < 0)
		return n;
	prog.len = (unsigned short)n;
	prog.filter = buf;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			  SECCOMP_FILTER_FLAG_NEW_LISTENER |
			  SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV, &prog);
	return fd < 0 ? -errno : fd;
}

/* The first filter's rules in a new context, its numbers decided as libseccomp's
 * SCMP_FLTATR_CTL_OPTIMIZE says (1: a comparison each, in order; 2: a binary tree);
 * NULL with *err, -errno */
static scmp_filter_ctx first_filter(int optimize, int *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	*err = ctx ? 0 : -ENOMEM;
	if (!*err)
		*err = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, (uint32_t)optimize);
	for (size_t i = 0; !*err && i < N(notified) + N(trapped); i++) {
		bool notify = i < N(notified);
		int nr = seccomp_syscall_resolve_name(notify ? notified[i] : trapped[i - N(notified)]);

		if (nr == __NR_SCMP_ERROR)
			continue;  /* not on this architecture (x86-64 has them all) */
		*err = seccomp_rule_add(ctx, notify ? SCMP_ACT_NOTIFY : SCMP_ACT_TRACE(0), nr, 0);
	}
	for (size_t i = 0; !*err && i < N(notified_nr); i++)
		*err = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, notified_nr[i], 0);
	if (!*err) {
		/* sendto with an address, which may name a unix socket's path (unixsock.c);
		 * send and sendto without one go to the kernel unseen */
		const struct scmp_arg_cmp has_addr = {
			.arg = 4, .op = SCMP_CMP_NE, .datum_a = 0, .datum_b = 0,
		};

		*err = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SYS_sendto, 1, has_addr);
	}
	for (size_t i = 0; !*err && i < N(refused) + N(refused_perm); i++) {
		bool perm = i >= N(refused);
		int nr = seccomp_syscall_resolve_name(perm ? refused_perm[i - N(refused)] : refused[i]);

		if (nr != __NR_SCMP_ERROR)
			*err = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(perm ? EPERM : ENOSYS), nr, 0);
	}
	for (size_t i = 0; !*err && i < N(socket_nr); i++) {
		/* (SCMP_A0() leaves datum_b to the compiler: clang's -Wextra says so) */
		const struct scmp_arg_cmp unix_only = {
			.arg = 0, .op = SCMP_CMP_EQ, .datum_a = AF_UNIX, .datum_b = 0,
		};

		*err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), socket_nr[i], 1, unix_only);
	}
	if (*err && ctx) {
		seccomp_release(ctx);
		ctx = NULL;
	}
	return ctx;
}

/*
 * The numbers as a binary tree, not libseccomp's default chain of one comparison
 * each: a call the filter lets through (close, read, write...) is decided in ~15
 * BPF instructions, not ~126.  The kernel's cache of the calls every filter allows
 * whatever their arguments (seccomp_cache_check_allow(), 5.11) skips the filters for
 * most calls, but not for those a watching filter looks at the arguments of -- close
 * among them, 20,000 times in a daemon's start.  Both forms decide every call alike
 * (tests/uvfs-run/filter_tree.py, through run_first_filter_program()).
 */
int run_install_filter(void)
{
	int err;
	scmp_filter_ctx ctx = first_filter(2, &err);

	if (!ctx)
		return err;
	err = load_with_listener(ctx);
	seccomp_release(ctx);
	return err;
}

int run_first_filter_program(int optimize, struct sock_filter *buf, size_t max)
{
	int err;
	scmp_filter_ctx ctx = first_filter(optimize, &err);

	if (!ctx)
		return err;
	err = program_of(ctx, buf, max);
	seccomp_release(ctx);
	return err;
}
