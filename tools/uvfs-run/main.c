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
 *   --abi NAME                          the personality (linux, linux-3.15, ...)
 *
 * The program is pid 1 of a new pid namespace, and uvfs's pids are its pids.  The
 * exit status is the program's (128 + N for a signal N); 2 for uvfs-run's own errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

struct mnt_opt {
	const char *kind, *src, *dst;
};

static void usage(void)
{
	fprintf(stderr, "usage: uvfs-run [--abi NAME] [--chdir DIR] [--bind SRC DST] "
			"[--ro-bind SRC DST] [--tmpfs DST] -- PROGRAM [ARGS...]\n");
	exit(2);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "uvfs-run: %s: %s\n", what, strerror(err));
	exit(2);
}

/* mkdir -p in uvfs, for a mount point (in memfs: the host root is read-only) */
static int uvfs_mkdir_p(struct uvfs_task *t, const char *path)
{
	char buf[PATH_MAX];
	int err = 0;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = buf + 1;; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			struct stat st;

			*s = 0;
			if (uvfs_fstatat(t, AT_FDCWD, buf, &st, 0)) {
				err = uvfs_mkdirat(t, AT_FDCWD, buf, 0755);
				if (err)
					return err;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	return err;
}

/* The namespace on a new instance: the host's root on /.r (read-only), its /tmp a
 * memfs, uvfs's /proc, the options' mounts, then pivot_root into /.r. */
static struct uvfs_task *build_namespace(struct uvfs *fs, const struct mnt_opt *m, int nm)
{
	struct uvfs_task *t = uvfs_task_new(fs);
	char dst[PATH_MAX];
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
	for (int i = 0; i < nm; i++) {
		snprintf(dst, sizeof(dst), "/.r%s", m[i].dst);
		if (m[i].dst[0] != '/') {
			fprintf(stderr, "uvfs-run: %s %s: the destination must be absolute\n",
				m[i].kind, m[i].dst);
			exit(2);
		}
		err = uvfs_mkdir_p(t, dst);
		if (!err && !strcmp(m[i].kind, "--tmpfs"))
			err = uvfs_mount2(t, "tmpfs", dst, "tmpfs", 0, NULL);
		else if (!err)
			err = uvfs_mount2(t, m[i].src, dst, "host",
					  !strcmp(m[i].kind, "--ro-bind") ? MS_RDONLY : 0,
					  !strcmp(m[i].kind, "--ro-bind") ? "ro" : "rw");
		if (err) {
			fprintf(stderr, "uvfs-run: %s %s%s%s: %s\n", m[i].kind,
				m[i].src ? m[i].src : "", m[i].src ? " " : "", m[i].dst,
				strerror(-err));
			exit(2);
		}
	}
	if ((err = uvfs_chdir(t, "/.r")) || (err = uvfs_chroot(t, ".")))
		die("enter the namespace", -err);
	return t;
}

/* In the child (pid 1 of the new pid namespace): be traced, filter, exec. */
static int child_main(void *arg)
{
	char **argv = arg;
	int err;

	if (ptrace(PTRACE_TRACEME, 0, 0, 0)) {
		fprintf(stderr, "uvfs-run: ptrace: %s\n", strerror(errno));
		_exit(2);
	}
	raise(SIGSTOP);  /* the tracer sets its options, then lets us go on */
	err = run_install_filter();
	if (err) {
		fprintf(stderr, "uvfs-run: seccomp: %s\n", strerror(-err));
		_exit(2);
	}
	execvp(argv[0], argv);
	/* the filter is in place: this execvp's calls were uvfs's */
	fprintf(stderr, "uvfs-run: %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	struct uvfs_config cfg = { 0 };
	struct mnt_opt m[64];
	const char *chdir_to = NULL;
	char cwd[PATH_MAX];
	struct uvfs_task *t;
	struct rlimit rl;
	static char stack[1 << 16];
	int i, nm = 0, status, ws;
	pid_t child;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "--abi") && i + 1 < argc) {
			cfg.abi = argv[++i];
		} else if (!strcmp(a, "--chdir") && i + 1 < argc) {
			chdir_to = argv[++i];
		} else if ((!strcmp(a, "--bind") || !strcmp(a, "--ro-bind")) && i + 2 < argc &&
			   nm < 64) {
			m[nm++] = (struct mnt_opt){ a, argv[i + 1], argv[i + 2] };
			i += 2;
		} else if (!strcmp(a, "--tmpfs") && i + 1 < argc && nm < 64) {
			m[nm++] = (struct mnt_opt){ a, NULL, argv[i + 1] };
			i++;
		} else {
			usage();
		}
	}
	if (i >= argc)
		usage();
	if (geteuid() != 0) {
		fprintf(stderr, "uvfs-run: needs root (a pid namespace, ptrace and seccomp)\n");
		return 2;
	}
	/* uvfs's descriptor table as large as the kernel's may grow */
	if (!getrlimit(RLIMIT_NOFILE, &rl))
		cfg.max_files = rl.rlim_max > 65536 ? 65536 : (unsigned int)rl.rlim_max;
	run_fs = uvfs_new(&cfg);
	if (!run_fs) {
		fprintf(stderr, "uvfs-run: %s\n", uvfs_last_error());
		return 2;
	}
	run_tracer_pid = getpid();
	t = build_namespace(run_fs, m, nm);
	if (!chdir_to && getcwd(cwd, sizeof(cwd)) && !uvfs_chdir(t, cwd))
		chdir_to = NULL;
	else if (chdir_to && uvfs_chdir(t, chdir_to))
		die(chdir_to, ENOENT);
	else if (!chdir_to)
		uvfs_chdir(t, "/");

	fflush(NULL);
	child = clone(child_main, stack + sizeof(stack), CLONE_NEWPID | SIGCHLD, argv + i);
	if (child < 0) {
		fprintf(stderr, "uvfs-run: a new pid namespace: %s\n", strerror(errno));
		return 2;
	}
	if (waitpid(child, &ws, __WALL) < 0 || !WIFSTOPPED(ws)) {
		fprintf(stderr, "uvfs-run: the program did not start under ptrace\n");
		return 2;
	}
	if (ptrace(PTRACE_SETOPTIONS, child, 0,
		   PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
		   PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
		   PTRACE_O_EXITKILL)) {
		fprintf(stderr, "uvfs-run: ptrace options: %s\n", strerror(errno));
		kill(child, SIGKILL);
		return 2;
	}
	ptrace(PTRACE_CONT, child, 0, 0);
	if (run_trace(child, t, &status)) {
		kill(child, SIGKILL);
		return 2;
	}
	uvfs_free(run_fs);
	return status;
}
