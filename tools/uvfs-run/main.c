// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uvfs-run [options] -- PROGRAM [ARGS...] - run PROGRAM with its file-system calls
 * answered by uvfs (run.h says how).  The namespace, in bwrap's style:
 *
 *   /            the host's root, read-only, through a host mount with what the
 *                host mounted below it (/dev: a device opens the host's device)
 *   /tmp         a fresh memfs, mode 1777
 *   /proc        uvfs's procfs
 *   --bind SRC DST, --ro-bind SRC DST   a host directory on DST
 *   --tmpfs DST                         a fresh memfs on DST
 *   --chdir DIR                         the working directory (default: uvfs-run's
 *                                       own, where it exists in the namespace; else /)
 *   --uid N, --gid N                    the program's ids (uvfs's and the kernel's)
 *   --abi NAME                          the personality (linux, linux-3.15, ...);
 *                                       all: once under each, side by side
 *   --stats                             at the end, on standard error: how many
 *                                       calls stopped the program for the tracer
 *   --workers N                         threads that answer notified calls (default:
 *                                       one per processor, at most 8)
 *
 * The program is pid 2 of a new pid namespace (and in a private mount namespace of
 * the kernel's, which its mount calls never reach: they are uvfs's), and uvfs's pids
 * are its pids.  The
 * exit status is the program's (128 + N for a signal N); 2 for uvfs-run's own errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include "columns.h"
#include <seccomp.h>

#include "run.h"

struct mnt_opt {
	const char *kind, *src, *dst;
};

static sigset_t caller_mask;
bool run_own_pgrp;
pid_t run_relay_pgrp;
static struct sigaction caller_chld;  /* SIGCHLD's disposition, for the program */
static struct rlimit caller_nofile;   /* RLIMIT_NOFILE, for the program */

static void usage(FILE *out)
{
	fprintf(out, "usage: uvfs-run [--abi NAME|all] [--explain [--json] [--explain-log DIR]] [--chdir DIR] [--uid N] "
		     "[--gid N] [--bind SRC DST] [--ro-bind SRC DST] [--tmpfs DST] [--stats] "
		     "[--workers N] -- PROGRAM [ARGS...]\n"
		     "       uvfs-run --explain --commands FILE [--shard K/N] [options]\n");
	if (out == stdout)
		fputs("Runs PROGRAM with its file-system calls answered by uvfs (man uvfs-run).\n"
		      "  --abi NAME|all     the kernel era: linux, linux-4.17, linux-3.18, linux-3.17,\n"
		      "                     linux-3.15, linux-3.14; all: each, outputs side by side\n"
		      "  --explain          run under every era and say, for each that differs from\n"
		      "                     linux, the first call uvfs answered otherwise, the first\n"
		      "                     line of output and the first file left that differ;\n"
		      "                     exit 0: all agree, 1: some differ, 2: could not run\n"
		      "  --json             --explain's report as JSON, an object per era\n"
		      "  --explain-log DIR  keep each run's record in DIR (N-ERA.calls, .tree,\n"
		      "                     .out, .err)\n"
		      "  --commands FILE    --explain each command of FILE (one a line, sh -c), a\n"
		      "                     line of JSON each\n"
		      "  --shard K/N        of FILE's lines, those whose number is K modulo N\n"
		      "  --chdir DIR        start in DIR\n"
		      "  --uid N, --gid N   the program's ids\n"
		      "  --bind SRC DST     the host directory SRC on DST (--ro-bind: read-only)\n"
		      "  --tmpfs DST        a fresh in-memory filesystem on DST\n"
		      "  --stats            count what the program's calls cost, at the end\n"
		      "  --workers N        threads answering the program's calls (1-8; default:\n"
		      "                     one per processor)\n"
		      "  --help, --version\n", out);
	exit(out == stdout ? 0 : 2);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "uvfs-run: %s: %s\n", what, strerror(err));
	exit(2);
}

/* mount_flags() of a host directory's statvfs: its nosuid, nodev, noexec */
static unsigned long host_mount_flags(const struct statvfs *vfs)
{
	return (vfs->f_flag & ST_NOSUID ? MS_NOSUID : 0) | (vfs->f_flag & ST_NODEV ? MS_NODEV : 0) |
	       (vfs->f_flag & ST_NOEXEC ? MS_NOEXEC : 0);
}

/*
 * /dev: the host's, a mount of its own as the host's devtmpfs is (with the mounts
 * below it: /dev/pts), writable as far as uvfs is concerned -- a user that is not
 * root is refused a chown of /dev/null with EPERM, as natively, not EROFS from the
 * read-only root (LTP's fchownat03) -- and read-only on the host: its host side is
 * the init's read-only /dev (init_main), so what root would change there (a chown,
 * a mknod, a removal) is the host's EROFS and no node of the host's changes.  A
 * device opened through it is opened there too, and /proc/PID/fd names it /dev/...
 * Where the init's /dev could not be made read-only (Linux < 5.12), the host's /dev
 * stays a directory of the read-only root, as before.
 */
static void mount_dev(struct uvfs_task *t, pid_t init)
{
	char host[64], source[128] = "devtmpfs", data[128];
	struct statvfs vfs, ro;
	struct mntent *me;
	FILE *f;
	int err;

	snprintf(host, sizeof(host), "/proc/%d/root/dev", init);
	if (statvfs("/dev", &vfs) || statvfs(host, &ro) || !(ro.f_flag & ST_RDONLY))
		return;
	/* the source the host's mountinfo gives its /dev (Debian's "udev") */
	f = setmntent("/proc/self/mounts", "re");
	while (f && (me = getmntent(f)))
		if (!strcmp(me->mnt_dir, "/dev"))
			snprintf(source, sizeof(source), "%s", me->mnt_fsname);
	if (f)
		endmntent(f);
	snprintf(data, sizeof(data), "rw,recursive,host=%s", host);
	err = uvfs_mount2(t, source, "/.r/dev", "host", host_mount_flags(&vfs), data);
	if (err && err != -ENOENT)
		die("mount /dev", -err);
}

/* The namespace on a new instance: the host's root on /.r (read-only), its /tmp and
 * /dev/shm a memfs each, uvfs's /proc, the host's /sys and /dev (mount_dev(): from
 * the init's read-only /dev), the options' mounts, then pivot_root into /.r and the
 * old root (uvfs_new's memfs) detached. */
static struct uvfs_task *build_namespace(struct uvfs *fs, const struct mnt_opt *m, int nm,
					 pid_t init)
{
	struct uvfs_task *t = uvfs_task_new(fs);
	char dst[PATH_MAX];
	struct statvfs vfs;
	int err;

	if (!t)
		die("uvfs_task_new", errno);
	if ((err = uvfs_mkdirat(t, AT_FDCWD, "/.r", 0755)) ||
	    (err = uvfs_mount2(t, "/", "/.r", "host", MS_RDONLY, "ro,recursive")))
		die("mount the host's root", -err);
	if ((err = uvfs_mount2(t, "tmpfs", "/.r/tmp", "tmpfs", 0, "mode=1777")))
		die("mount /tmp", -err);
	if ((err = uvfs_mount2(t, "proc", "/.r/proc", "proc", 0, NULL)))
		die("mount /proc", -err);
	/* /sys: the host's, writable as the kernel's sysfs is to root (a write reaches
	 * the kernel, after uvfs's checks, as /proc/sys's do), with the host's nosuid,
	 * nodev, noexec -- not files of the read-only root, which made every change
	 * EROFS (gVisor's RenameTest.Sysfs*) */
	if (!statvfs("/sys", &vfs)) {
		err = uvfs_mount2(t, "/sys", "/.r/sys", "host", host_mount_flags(&vfs), "rw,recursive");
		if (err && err != -ENOENT)
			die("mount /sys", -err);
	}
	mount_dev(t, init);
	/* /dev/shm, as every Linux system has it (shm_open, POSIX semaphores): a fresh
	 * memfs, whose files' memfds the programs map shared; not the host's, which the
	 * read-only root would make EROFS.  A host without /dev/shm gets none. */
	err = uvfs_mount2(t, "tmpfs", "/.r/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
	if (err && err != -ENOENT)
		die("mount /dev/shm", -err);
	for (int i = 0; i < nm; i++) {
		snprintf(dst, sizeof(dst), "/.r%s", m[i].dst);
		if (m[i].dst[0] != '/') {
			fprintf(stderr, "uvfs-run: %s %s: the destination must be absolute\n",
				m[i].kind, m[i].dst);
			exit(2);
		}
		/* a destination's missing directories are made in uvfs, on a host
		 * directory as stubs: nothing is made on the host (uvfs.h) */
		if (!strcmp(m[i].kind, "--tmpfs"))
			err = uvfs_mount2_mkdirs(t, "tmpfs", dst, "tmpfs", 0, NULL);
		else
			err = uvfs_mount2_mkdirs(t, m[i].src, dst, "host",
						 !strcmp(m[i].kind, "--ro-bind") ? MS_RDONLY : 0,
						 !strcmp(m[i].kind, "--ro-bind") ? "ro" : "rw");
		if (err) {
			fprintf(stderr, "uvfs-run: %s %s%s%s: %s\n", m[i].kind,
				m[i].src ? m[i].src : "", m[i].src ? " " : "", m[i].dst,
				strerror(-err));
			exit(2);
		}
		if (m[i].src) {
			/* for maps, which names a bound file from the bind's root (procsrc.c) */
			struct stat st;

			if (!stat(m[i].src, &st)) {
				run_binds[run_nbinds].dev = st.st_dev;
				run_binds[run_nbinds++].dst = m[i].dst;
			}
		}
	}
	/* pivot_root(".", ".") and a lazy unmount of the old root, stacked on top, as
	 * runc enters a container's root: /.r becomes the namespace's root, not only the
	 * task's, so that no path a program can see goes through /.r -- getcwd of a cwd
	 * outside a chroot of the program's says (unreachable)/tmp, as Linux does */
	if ((err = uvfs_chdir(t, "/.r")) || (err = uvfs_pivot_root(t, ".", ".")) ||
	    (err = uvfs_umount2(t, ".", MNT_DETACH)) || (err = uvfs_chdir(t, "/")))
		die("enter the namespace", -err);
	return t;
}

/*
 * The pid namespace's first process is an init of uvfs-run's, not the program: pid 1
 * ignores the signals it has no handler for (a program that kills itself would live
 * on), and something must reap the orphans.  It forks the program (pid 2), reaps
 * everything, and exits when the program has; the kernel then kills whatever is left
 * in the namespace.  The program waits on a pipe until the tracer has seized it.
 */
struct start {
	char **argv;
	long uid, gid;
	int go[2];      /* the tracer says "seized" (it finds the program as the init's child) */
	int sock[2];    /* the program sends the filter's listener to the supervisor */
	sigset_t mask;  /* uvfs-run's caller's signal mask, for the program */
};

/*
 * The listener, from the program's process to the supervisor: its number, which the
 * supervisor takes with pidfd_getfd(2) while the program waits for the word.  Not
 * SCM_RIGHTS: the filter is in place by then, and a sendmsg stops for the tracer
 * (passing.c), which is the supervisor waiting here.  A read and write on numbers
 * where no uvfs descriptor has been run on the kernel untraced.
 */
static int send_fd(int sock, int fd)
{
	char c;

	if (write(sock, &fd, sizeof(fd)) != sizeof(fd) || read(sock, &c, 1) != 1)
		return -EPIPE;
	return 0;
}

static int recv_fd(int sock, pid_t child)
{
	int fd, ret;

	if (read(sock, &fd, sizeof(fd)) != sizeof(fd))
		return -1;
	ret = run_take_fd(child, fd);
	if (ret < 0) {
		fprintf(stderr, "uvfs-run: the filter's listener: %s\n", strerror(-ret));
		return -1;
	}
	if (write(sock, "g", 1) != 1) {
		close(ret);
		ret = -1;
	}
	return ret;
}

static void program(struct start *st)
{
	char c;
	int err;

	close(st->go[1]);
	if (read(st->go[0], &c, 1) != 1)
		_exit(2);  /* the tracer went away */
	close(st->go[0]);
	/* without a terminal, a process group of its own, so that getpgrp() names a
	 * group it is in (2), not the caller's, which has no number in the namespace
	 * (0) -- not the init's: a group 1 cannot be named, killpg(1, sig) being
	 * kill(-1, sig), every process.  With a terminal the caller's group is the
	 * terminal's foreground one, which the program must stay in to read it
	 * (docs/SEMANTICS.md §9).  The session stays the caller's. */
	if (run_own_pgrp && setpgid(0, 0)) {
		fprintf(stderr, "uvfs-run: setpgid: %s\n", strerror(errno));
		_exit(2);
	}
	/* lowering a limit needs no privilege */
	if (setrlimit(RLIMIT_NOFILE, &caller_nofile)) {
		fprintf(stderr, "uvfs-run: RLIMIT_NOFILE: %s\n", strerror(errno));
		_exit(2);
	}
	/* --uid/--gid: the kernel's credentials before the filter (uvfs's were given to
	 * the task by the tracer); set*id calls after it go to both */
	if (st->gid >= 0 && (setgroups(0, NULL) || setresgid((gid_t)st->gid, (gid_t)st->gid,
							     (gid_t)st->gid))) {
		fprintf(stderr, "uvfs-run: --gid %ld: %s\n", st->gid, strerror(errno));
		_exit(2);
	}
	if (st->uid >= 0 && setresuid((uid_t)st->uid, (uid_t)st->uid, (uid_t)st->uid)) {
		fprintf(stderr, "uvfs-run: --uid %ld: %s\n", st->uid, strerror(errno));
		_exit(2);
	}
	err = run_install_filter();
	if (err < 0) {
		fprintf(stderr, "uvfs-run: seccomp: %s\n", strerror(-err));
		_exit(2);
	}
	if ((err = send_fd(st->sock[1], err)) < 0) {
		fprintf(stderr, "uvfs-run: the filter's listener: %s\n", strerror(-err));
		_exit(2);
	}
	/* the listener and the socket are close-on-exec */
	if (caller_chld.sa_handler == SIG_IGN)
		sigaction(SIGCHLD, &caller_chld, NULL);
	sigprocmask(SIG_SETMASK, &st->mask, NULL);
	execvp(st->argv[0], st->argv);
	/* the filter is in place: this execvp's calls were uvfs's */
	fprintf(stderr, "uvfs-run: %s: %s\n", st->argv[0], strerror(errno));
	_exit(127);
}

static _Noreturn void init_main(struct start *st)
{
	pid_t prog;
	int ws;

	/* a mount namespace of the kernel's own, private, so that nothing a program
	 * does on the kernel's side reaches the host's mounts (its mount(2) calls are
	 * uvfs's: they never get here) */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		_exit(2);

	/* its /dev read-only, submounts and all: the host's device nodes the program
	 * opens through uvfs's read-only root are opened here (syscalls.c,
	 * open_device()), so that fchmod, fchown and futimens of one -- calls on a host
	 * descriptor, never trapped -- are EROFS from the kernel, as through the
	 * program's read-only mount, and /proc/PID/fd still names them /dev/...
	 * Opening a device for writing needs no writable mount.  Without
	 * mount_setattr (Linux < 5.12) the host's /dev is used, as before. */
	{
		struct { uint64_t set, clr, propagation, userns_fd; } ro = { .set = 0x1 };

		if (!mount("/dev", "/dev", NULL, MS_BIND | MS_REC, NULL))
			(void)syscall(SYS_mount_setattr, AT_FDCWD, "/dev", AT_RECURSIVE, &ro,
				      sizeof(ro));
	}
	/* the stand-in of memfs and /proc descriptors: a null device of our own, on a
	 * tmpfs of this namespace over the kernel's /tmp (which the program never sees:
	 * its /tmp is uvfs's), so that a call on a stand-in that uvfs-run does not trap
	 * (a chmod of it: fchmodat2 went to the kernel once) changes nothing of the
	 * host's /dev/null */
	if (mount("uvfs-run", RUN_STAND_IN_DIR, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755") ||
	    mknod(RUN_STAND_IN, S_IFCHR | 0666, makedev(1, 3)) || chmod(RUN_STAND_IN, 0666)) {
		fprintf(stderr, "uvfs-run: the stand-in %s: %s\n", RUN_STAND_IN, strerror(errno));
		_exit(2);
	}
	/* a proc of the program's pid namespace, whose text uvfs's /proc shows
	 * (procsrc.c); the supervisor finds it here or goes without */
	if (!mkdir(RUN_PROC, 0555))
		(void)mount("proc", RUN_PROC, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	/* the raw call, as for the init: a sanitizer's fork() would start a thread of its
	 * own in the child (ThreadSanitizer's background thread), whose clone stops
	 * for the tracer before the tracer's loop runs; the init has one thread, so
	 * glibc's fork handlers have nothing to do */
	prog = (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, 0);

	if (prog < 0)
		_exit(2);
	if (prog == 0)
		program(st);
	close(st->go[0]);
	close(st->go[1]);
	close(st->sock[0]);
	close(st->sock[1]);
	for (;;) {
		pid_t w = wait(&ws);

		if (w < 0 && errno != EINTR)
			_exit(0);
		if (w == prog)
			_exit(0);  /* the tracer has the program's status */
	}
}

/* The program's pid on the host: the init's only child */
/* ... looked for until it is there or the init is gone: no deadline, which a loaded
 * machine overran (2 s: "uvfs-run: ptrace: No such process" once in 35 runs of the
 * test suite beside a soak) */
static pid_t find_program(pid_t init)
{
	char path[64];
	long pid = 0;
	int ws;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", init, init);
	while (!pid) {
		f = fopen(path, "re");
		if (f) {
			if (fscanf(f, "%ld", &pid) != 1)
				pid = 0;
			fclose(f);
		}
		if (pid)
			break;
		if (waitpid(init, &ws, WNOHANG) == init)
			return 0;  /* the init failed (it said why) */
		usleep(1000);
	}
	return (pid_t)pid;
}

/* --stats: the calls trapped most, with how (a ptrace stop costs the program more
 * than a notification: two more context switches and the tracer's wait) */
static void print_stats_by_call(void)
{
	for (int shown = 0; shown < 20; shown++) {
		unsigned long best = 0, n0, n1;
		int nr = -1;
		char *name;

		for (int i = 0; i < RUN_STATS_NR; i++) {
			unsigned long n = run_stats.by_nr[0][i] + run_stats.by_nr[1][i];

			if (n > best) {
				best = n;
				nr = i;
			}
		}
		if (nr < 0)
			break;
		n0 = run_stats.by_nr[0][nr];
		n1 = run_stats.by_nr[1][nr];
		name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
		fprintf(stderr, "uvfs-run:   %-20s %8lu stopped %8lu notified\n",
			name ? name : "?", n0, n1);
		free(name);
		run_stats.by_nr[0][nr] = run_stats.by_nr[1][nr] = 0;
	}
}

struct opts {
	const char *abi, *chdir_to;
	long uid, gid;                   /* -1: root's (uvfs-run's own) */
	struct mnt_opt m[64];
	int nm;
	bool stats;                      /* --stats */
	bool explain, json;              /* --explain, --json */
	const char *commands;            /* --commands FILE */
	long shard, shards;              /* --shard K/N */
	char **argv;
};

/* The program once, under one personality: its exit status, or 2 */
static int run_once(const struct opts *o, const char *abi)
{
	/* a memfs file's data in a memfd while the program has it open: the kernel maps,
	 * executes and locks the file itself (syscalls.c, do_open) */
	struct uvfs_config cfg = { .abi = abi, .flags = UVFS_MEMFD };
	char cwd[PATH_MAX];
	struct statvfs vfs;
	struct uvfs_task *t, *prog_task;
	struct start st;
	int status, ws;
	pid_t init, child;

	/* the signals the loop relays to the program (run_relayed), blocked in this
	 * process before uvfs's threads exist: here, not in main(), so that the process
	 * of --abi all or --explain that waits for each era's (a fork that comes here)
	 * still dies of them as before */
	if (run_own_pgrp) {
		sigset_t relayed;

		sigemptyset(&relayed);
		run_relayed(&relayed);
		sigprocmask(SIG_BLOCK, &relayed, NULL);
	}
	/* uvfs's descriptors may have any number the kernel's may, and a helper's are
	 * made above the process's RLIMIT_NOFILE before they move (waits.c,
	 * run_fd_floor): the kernel answers EMFILE (ADDFD) */
	cfg.max_files = RUN_FD_MAX;
	run_fs = uvfs_new(&cfg);
	if (!run_fs) {
		fprintf(stderr, "uvfs-run: %s\n", uvfs_last_error());
		return 2;
	}
	run_tracer_pid = getpid();
	fflush(NULL);
	if (pipe2(st.go, O_CLOEXEC) || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st.sock))
		die("pipe", errno);
	st.mask = caller_mask;
	st.argv = o->argv;
	st.uid = o->uid;
	st.gid = o->gid;
	/* a fork whose child is pid 1 of a new namespace: the raw clone, on the same
	 * stack as fork (glibc's clone() wants a stack of its own, which the sanitizers
	 * cannot follow; unshare(CLONE_NEWPID) would forbid liburcu its threads) */
	init = (pid_t)syscall(SYS_clone, CLONE_NEWPID | CLONE_NEWNS | SIGCHLD, NULL, NULL, NULL, 0);
	if (init < 0) {
		fprintf(stderr, "uvfs-run: a new pid namespace: %s\n", strerror(errno));
		return 2;
	}
	if (init == 0)
		init_main(&st);
	close(st.go[0]);
	close(st.sock[1]);
	/* the init has made its mounts once it has a child: /dev's host side is one
	 * (mount_dev()).  A failure from here to the word "go" exits; the program then
	 * reads the end of the pipe and exits too, and the init after it. */
	child = find_program(init);
	run_relay_pgrp = child;  /* its group, once it has made it (program()) */
	if (child) {
		t = build_namespace(run_fs, o->m, o->nm, init);
		if (o->chdir_to) {
			int err = uvfs_chdir(t, o->chdir_to);

			if (err)
				die(o->chdir_to, -err);
		} else if (!getcwd(cwd, sizeof(cwd)) || uvfs_chdir(t, cwd)) {
			uvfs_chdir(t, "/");  /* not in the namespace: bwrap's choice too */
		}
	}
	if (!child || ptrace(PTRACE_SEIZE, child, 0,
			     PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			     PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
			     PTRACE_O_EXITKILL)) {
		fprintf(stderr, "uvfs-run: ptrace: %s\n", strerror(child ? errno : ESRCH));
		if (child)
			kill(init, SIGKILL);  /* (without a child, the init is reaped) */
		return 2;
	}
	prog_task = uvfs_task_fork_as(t, 2);
	if (!prog_task)
		die("uvfs_task_fork_as", errno);
	run_sync_mnt_ns_id(prog_task, child);
	if (o->gid >= 0 || o->uid >= 0) {
		/* as setgroups(0), setresgid and setresuid leave a process: the same ids
		 * everywhere, no supplementary groups, no capabilities for a non-root uid */
		int err = uvfs_setgroups(prog_task, 0, NULL);

		if (!err && o->gid >= 0)
			err = uvfs_setresgid(prog_task, (gid_t)o->gid, (gid_t)o->gid, (gid_t)o->gid);
		if (!err && o->uid >= 0)
			err = uvfs_setresuid(prog_task, (uid_t)o->uid, (uid_t)o->uid, (uid_t)o->uid);
		if (err)
			die("--uid/--gid", -err);
	}
	if (write(st.go[1], "g", 1) != 1)
		die("start the program", errno);
	close(st.go[1]);
	run_notify_fd = recv_fd(st.sock[0], child);
	close(st.sock[0]);
	if (run_notify_fd < 0) {
		/* the program (or recv_fd) said why.  The program first: traced, its
		 * death is the tracer's to reap, and the init's end waits for it
		 * (zap_pid_ns_processes()) */
		kill(child, SIGKILL);
		waitpid(child, &ws, __WALL);
		kill(init, SIGKILL);
		waitpid(init, &ws, 0);
		return 2;
	}
	/* a response wakes the caller on the answering worker's processor, which is about
	 * to sleep in its next receive (Linux 6.6; EINVAL before: the usual wakeup).  The
	 * bare notification supervisor of bench/uvfs-run-bench was fastest so
	 * (docs/PERFORMANCE.md) */
	(void)ioctl(run_notify_fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		    (unsigned long)SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
	/* the stand-in, where the init made it: in the program's mount namespace */
	snprintf(cwd, sizeof(cwd), "/proc/%d/root" RUN_STAND_IN, init);
	run_null_fd = open(cwd, O_PATH | O_CLOEXEC);
	if (run_null_fd < 0)
		die(RUN_STAND_IN, errno);
	/* ... and its tmpfs, where the stand-ins of memfs directories are made */
	snprintf(cwd, sizeof(cwd), "/proc/%d/root" RUN_STAND_IN_DIR, init);
	run_standin_dir = open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (run_standin_dir < 0)
		die(RUN_STAND_IN_DIR, errno);
	/* the kernel's proc of the program's pid namespace */
	snprintf(cwd, sizeof(cwd), "/proc/%d/root" RUN_PROC, init);
	run_proc_source(t, cwd);
	/* ... and its read-only /dev, if it could make it so */
	snprintf(cwd, sizeof(cwd), "/proc/%d/root/dev", init);
	run_dev_fd = open(cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (run_dev_fd >= 0 && (fstatvfs(run_dev_fd, &vfs) || !(vfs.f_flag & ST_RDONLY))) {
		close(run_dev_fd);
		run_dev_fd = -1;
	}
	if (run_trace(child, prog_task, &status)) {
		kill(init, SIGKILL);
		return 2;
	}
	waitpid(init, &ws, 0);
	/* --explain: the files the program left in its memory filesystems and its
	 * --bind directories (each run's a copy of its own: explain_once) */
	if (run_tree_fd >= 0) {
		run_tree_dump(t, "/tmp");
		run_tree_dump(t, "/dev/shm");
		for (int i = 0; i < o->nm; i++)
			if (strcmp(o->m[i].kind, "--ro-bind"))
				run_tree_dump(t, o->m[i].dst);
	}
	close(run_notify_fd);
	close(run_null_fd);
	if (run_dev_fd >= 0)
		close(run_dev_fd);
	uvfs_task_exit(t);
	run_proc_source_end();
	run_flights_end();  /* descriptors sent and never received */
	uvfs_free(run_fs);
	if (o->stats)
		fprintf(stderr, "uvfs-run: %lu calls trapped, %lu answered by uvfs, %lu passed to the "
			"kernel; %lu watching filters\n", run_stats.traps, run_stats.answered,
			run_stats.traps - run_stats.answered, run_stats.watches);
	if (o->stats)
		fprintf(stderr, "uvfs-run: %lu notified calls by %lu workers, %lu of them while "
			"another worker was answering one\n", run_stats.notified,
			run_stats.workers, run_stats.overlapped);
	if (o->stats)
		print_stats_by_call();
	return status;
}

/* --explain's run of the program under one era (explain.c) */
/*
 * --explain's run of the program under one era (explain.c), in a process of its own:
 * each --bind directory is a fresh copy of the host's (cp -a), so that no run finds
 * what an earlier one left there and the files the run leaves can be compared; the
 * copy goes when the run has been recorded.  --ro-bind directories are the host's.
 */
static int explain_once(const void *arg, const char *abi)
{
	struct opts o = *(const struct opts *)arg;
	char tmp[] = "/var/tmp/uvfs-run-explain.XXXXXX", dst[PATH_MAX + 64];
	int status;
	bool copied = false;

	for (int i = 0; i < o.nm; i++) {
		pid_t pid;
		int ws;

		if (strcmp(o.m[i].kind, "--bind"))
			continue;
		if (!copied && !mkdtemp(tmp))
			die("--explain: a copy of the --bind directories", errno);
		copied = true;
		snprintf(dst, sizeof(dst), "%s/%d", tmp, i);
		pid = fork();
		if (pid == 0) {
			execlp("cp", "cp", "-a", "--reflink=auto", "--", o.m[i].src, dst, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws)) {
			fprintf(stderr, "uvfs-run: --explain: cannot copy %s\n", o.m[i].src);
			return 2;
		}
		o.m[i].src = strdup(dst);
	}
	status = run_once(&o, abi);
	if (copied) {
		pid_t pid = fork();

		if (pid == 0) {
			/* not with run_once()'s relayed signals blocked */
			sigprocmask(SIG_SETMASK, &caller_mask, NULL);
			execlp("rm", "rm", "-rf", "--", tmp, (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	return status;
}

/*
 * --commands FILE [--shard K/N]: each command of FILE (one a line, run by sh -c; empty
 * lines and lines starting with # are not commands, but count) whose line number
 * is K modulo N -- the first of every N for K = 1 -- explained, a line of JSON each.
 * The split depends on the file alone, so N machines given the same file and K = 1..N
 * run every command once.  The status: 2 if some command could not be run, else 1 if
 * some depends on an era, else 0.
 */
static int run_campaign(struct opts *o)
{
	FILE *f = strcmp(o->commands, "-") ? fopen(o->commands, "re") : stdin;
	char *line = NULL, *argv[4] = { "sh", "-c", NULL, NULL };
	size_t cap = 0;
	long n = 0;
	int worst = 0;

	if (!f)
		die(o->commands, errno);
	if (!o->shards)
		o->shard = o->shards = 1;
	o->argv = argv;
	while (getline(&line, &cap, f) >= 0) {
		int r;

		n++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#' || (n - 1) % o->shards != o->shard - 1)
			continue;
		argv[2] = line;
		r = run_explain(explain_once, o, true, line, n);
		if (r > worst)
			worst = r;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return worst;
}

/*
 * --abi all: the program once per personality, each in a process of its own with its
 * standard output captured, then the outputs side by side (columns.h) as uvfsh --abi
 * all prints them.  The status is the linux run's.
 */
static const char *const all_abis[] = { "linux", "linux-4.17", "linux-3.18", "linux-3.17",
					"linux-3.15", "linux-3.14" };
#define NABIS (sizeof(all_abis) / sizeof(all_abis[0]))

static int run_all(const struct opts *o)
{
	char *outs[NABIS] = { 0 };
	int status = 2;

	for (size_t i = 0; i < NABIS; i++) {
		size_t len = 0;
		FILE *mem = open_memstream(&outs[i], &len);
		char buf[4096];
		int pfd[2], ws;
		ssize_t n;
		pid_t pid;

		if (!mem || pipe(pfd))
			die("capture", errno);
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			die("fork", errno);
		if (pid == 0) {
			close(pfd[0]);
			dup2(pfd[1], 1);
			close(pfd[1]);
			_exit(run_once(o, all_abis[i]));
		}
		close(pfd[1]);
		while ((n = read(pfd[0], buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, mem);
		close(pfd[0]);
		fclose(mem);
		waitpid(pid, &ws, 0);
		if (i == 0)
			status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 2;
	}
	columns_print(all_abis, (const char *const *)outs, (int)NABIS);
	for (size_t i = 0; i < NABIS; i++)
		free(outs[i]);
	return status;
}

/*
 * The supervisor holds a descriptor for each memfs file the program has open (its
 * data's memfd, UVFS_MEMFD) besides its own: with the program's RLIMIT_NOFILE it
 * would run out first, and the program would meet EMFILE files short of its limit
 * (LTP's creat05: 62 short of 20,000).  It takes the most the kernel allows --
 * fs.nr_open, as root (CAP_SYS_RESOURCE) -- or else its hard limit; the program gets
 * its caller's limit back (program()).  Where that is the program's own limit too
 * (no CAP_SYS_RESOURCE), the last files the program opens before its limit have the
 * null device as stand-in rather than a memfd (syscalls.c, room_for_memfd).
 */
static void raise_nofile(void)
{
	struct rlimit rl;
	unsigned long nr_open = 0;
	FILE *f;

	if (getrlimit(RLIMIT_NOFILE, &caller_nofile))
		die("RLIMIT_NOFILE", errno);
	f = fopen("/proc/sys/fs/nr_open", "re");
	if (f) {
		if (fscanf(f, "%lu", &nr_open) != 1)
			nr_open = 0;
		fclose(f);
	}
	rl.rlim_cur = rl.rlim_max = nr_open;
	if (nr_open <= caller_nofile.rlim_max || setrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max = caller_nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("RLIMIT_NOFILE", errno);
	run_nofile = rl.rlim_cur;
}

/* What a caller sends to stop or tell a program, which a caller without a terminal
 * sends uvfs-run (timeout(1), a test harness's kill, a service manager's stop) and
 * natively would have reached the program: as sudo relays them to its command --
 * here to the program's process group (program()), and to the program if it has
 * made itself another (trace.c, run_trace()).
 * Not the terminal's job-control signals: with a terminal, the program stays in
 * uvfs-run's group and gets them from the terminal itself. */
void run_relayed(sigset_t *set)
{
	static const int relayed[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2 };

	_Static_assert(sizeof(relayed) / sizeof(relayed[0]) <= RUN_RELAYED_MAX,
		       "the loop reads its signalfd into RUN_RELAYED_MAX + 1 entries (trace.c)");

	for (size_t i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		sigaddset(set, relayed[i]);
}

int main(int argc, char **argv)
{
	struct opts o = { .uid = -1, .gid = -1 };
	sigset_t chld;
	int i, tty;

	/* no controlling terminal (ENXIO), or none we may open: the program gets a
	 * process group of its own (program()) */
	tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (tty >= 0)
		close(tty);
	run_own_pgrp = tty < 0;
	/* the supervisor learns of its tracees' stops through a signalfd (trace.c):
	 * SIGCHLD blocked in every thread, so before uvfs's threads exist (the signals
	 * it relays: run_once()); the program gets its caller's mask back */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &caller_mask);
	/* ... and not ignored: the kernel sends no SIGCHLD for a ptrace stop to a
	 * tracer that ignores it (a caller's SIG_IGN survives exec), and the loop would
	 * wait for ever */
	sigaction(SIGCHLD, &(struct sigaction){ .sa_handler = SIG_DFL }, &caller_chld);
	raise_nofile();

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
		} else if (!strcmp(a, "--version")) {
			printf("uvfs-run %s\n", UVFS_VERSION_STRING);
			return 0;
		} else if (!strcmp(a, "--abi") && i + 1 < argc) {
			o.abi = argv[++i];
		} else if ((!strcmp(a, "--uid") || !strcmp(a, "--gid")) && i + 1 < argc) {
			char *end;
			long v;

			errno = 0;
			v = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || v < 0 || v > 4294967294L) {
				fprintf(stderr, "uvfs-run: %s wants a number from 0 to 4294967294, not '%s'\n",
					a, argv[i]);
				return 2;
			}
			if (a[2] == 'u')
				o.uid = v;
			else
				o.gid = v;
		} else if (!strcmp(a, "--stats")) {
			o.stats = true;
		} else if (!strcmp(a, "--explain")) {
			o.explain = true;
		} else if (!strcmp(a, "--json")) {
			o.json = true;
		} else if (!strcmp(a, "--explain-log") && i + 1 < argc) {
			run_explain_log = argv[++i];
		} else if (!strcmp(a, "--commands") && i + 1 < argc) {
			o.commands = argv[++i];
		} else if (!strcmp(a, "--shard") && i + 1 < argc) {
			char *end;

			errno = 0;
			o.shard = strtol(argv[++i], &end, 10);
			if (*end == '/')
				o.shards = strtol(end + 1, &end, 10);
			if (errno || *end || o.shard < 1 || o.shards < o.shard || o.shards > 1000000) {
				fprintf(stderr, "uvfs-run: --shard wants K/N, 1 <= K <= N, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(a, "--workers") && i + 1 < argc) {
			char *end;
			long v;

			errno = 0;
			v = strtol(argv[++i], &end, 10);
			if (errno || *end || end == argv[i] || v < 1 || v > RUN_WORKERS_MAX) {
				fprintf(stderr, "uvfs-run: --workers wants a number from 1 to %d, not '%s'\n",
					RUN_WORKERS_MAX, argv[i]);
				return 2;
			}
			run_workers = (int)v;
		} else if (!strcmp(a, "--chdir") && i + 1 < argc) {
			o.chdir_to = argv[++i];
		} else if ((!strcmp(a, "--bind") || !strcmp(a, "--ro-bind")) && i + 2 < argc) {
			if (o.nm == 64)
				die(a, E2BIG);
			o.m[o.nm++] = (struct mnt_opt){ a, argv[i + 1], argv[i + 2] };
			i += 2;
		} else if (!strcmp(a, "--tmpfs") && i + 1 < argc) {
			if (o.nm == 64)
				die(a, E2BIG);
			o.m[o.nm++] = (struct mnt_opt){ a, NULL, argv[i + 1] };
			i++;
		} else {
			usage(stderr);
		}
	}
	if (o.commands) {
		/* a campaign: the program is each command of the file */
		if (!o.explain || i < argc)
			usage(stderr);
	} else if (i >= argc) {
		usage(stderr);
	}
	if (o.shard && !o.commands)
		usage(stderr);
	if (geteuid() != 0) {
		fprintf(stderr, "uvfs-run: needs root (a pid namespace, ptrace and seccomp)\n");
		return 2;
	}
	o.argv = argv + i;
	if ((o.json || run_explain_log) && !o.explain)
		usage(stderr);
	if (run_explain_log) {
		struct stat st;

		/* said now, not after the first of seven runs */
		errno = 0;
		if (stat(run_explain_log, &st) || !S_ISDIR(st.st_mode) ||
		    access(run_explain_log, W_OK | X_OK)) {
			fprintf(stderr, "uvfs-run: --explain-log %s: %s\n", run_explain_log,
				errno ? strerror(errno) : "not a directory");
			return 2;
		}
	}
	if (o.explain && o.abi && strcmp(o.abi, "all")) {
		fprintf(stderr, "uvfs-run: --explain runs every era: --abi %s with it is not one\n",
			o.abi);
		return 2;
	}
	if (o.commands)
		return run_campaign(&o);
	if (o.explain)
		return run_explain(explain_once, &o, o.json, NULL, 0);
	if (o.abi && !strcmp(o.abi, "all"))
		return run_all(&o);
	return run_once(&o, o.abi);
}
