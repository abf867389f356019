// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_perm_matrix.c - every permission question against the running kernel.
 *
 * A cell is (operation, directory mode, directory owner, file mode, caller).  For each,
 * the same tree is made as root on a tmpfs of the host (in a private mount namespace)
 * and in uvfs:
 *
 *   cN/d        directory, the cell's mode, owner DOWN:100
 *   cN/d/f      file, the cell's mode, 1000:100, 1 byte
 *   cN/d/sub    directory, the cell's file mode (sans type), 1000:100
 *   cN/e        directory 0777, root
 *   cN/e/g      file 0644, root
 *
 * then a child process of the host with the caller's credentials (setgroups,
 * setresgid, setresuid or setfsuid, capset) makes the operation, and a uvfs task given
 * the same credentials through the same calls makes it in uvfs.  Compared: the result
 * (value or errno) and what root sees afterwards of every name of the tree (type and
 * mode, owner, size).  Every expected value is the kernel's, in this run.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- callers ---- */

struct caller {
	const char *name;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[2];
	bool fs_only;        /* setfsuid(uid) only: euid stays 0 (the CAP_FOWNER caller) */
	uint64_t drop;       /* capabilities taken from the effective set */
	uint64_t only;       /* if set: the effective set is exactly this */
};

#define CAP(c) (1ull << (c))

static const struct caller CALLERS[] = {
	{ "owner", 1000, 100, 0, { 0 }, false, 0, 0 },
	{ "group", 1001, 100, 0, { 0 }, false, 0, 0 },
	{ "supplementary group", 1002, 200, 1, { 100 }, false, 0, 0 },
	{ "other", 1003, 300, 0, { 0 }, false, 0, 0 },
	{ "root", 0, 0, 0, { 0 }, false, 0, 0 },
	{ "root without CAP_DAC_OVERRIDE", 0, 0, 0, { 0 }, false, CAP(CAP_DAC_OVERRIDE), 0 },
	{ "root without CAP_DAC_READ_SEARCH", 0, 0, 0, { 0 }, false, CAP(CAP_DAC_READ_SEARCH), 0 },
	{ "fsuid 1003 with CAP_FOWNER only", 1003, 300, 0, { 0 }, true, 0, CAP(CAP_FOWNER) },
};

/* ---- operations ---- */

enum op {
	OPEN_R, OPEN_W, OPEN_R_TRUNC, OPEN_CREAT_NEW, OPEN_CREAT_EXCL_EXISTING,
	OPEN_CREAT_EXISTING, OPEN_NOATIME, OPEN_DIR, OPEN_DIR_W,
	MKDIR, MKNOD_FIFO, MKNOD_CHR, MKNOD_WHITEOUT, SYMLINK, LINK, LINK_OUT,
	UNLINK, RMDIR, RENAME_IN, RENAME_OUT, RENAME_DIR_OUT, RENAME_OVER, EXCHANGE,
	EXCHANGE_DIR, NOREPLACE, WHITEOUT,
	STAT, STAT_SUB, CHDIR, CHDIR_SUB, CHROOT, READDIR,
	CHMOD, CHMOD_SGID, CHOWN_OTHER, CHOWN_NOTHING, CHGRP_100, CHGRP_200, CHGRP_300,
	UTIMES_NOW, UTIMES_SET, UTIMES_NOW_OMIT, TRUNCATE, WRITE,
	ACCESS_R, ACCESS_W, ACCESS_X, ACCESS_F, EACCESS_W, EACCESS_X, ACCESS_DIR_X,
	EXEC, EXEC_DIR, CREAT_SGID, MKNOD_SGID, MKDIR_SGID, CREAT_SUID_STICKY,
	NR_OPS
};

static const char *const OP_NAMES[] = {
	"open O_RDONLY", "open O_WRONLY", "open O_RDONLY|O_TRUNC", "open O_CREAT new",
	"open O_CREAT|O_EXCL existing", "open O_CREAT existing", "open O_NOATIME",
	"open directory", "open directory O_WRONLY",
	"mkdir", "mknod fifo", "mknod 1:3", "mknod whiteout", "symlink", "link", "link out",
	"unlink", "rmdir", "rename in", "rename out", "rename dir out", "rename over",
	"exchange", "exchange dir", "rename noreplace", "rename whiteout",
	"stat", "stat sub/.", "chdir", "chdir sub", "chroot", "readdir",
	"chmod 0600", "chmod 02770", "chown 1003", "chown -1 -1", "chgrp 100", "chgrp 200",
	"chgrp 300", "utimensat now", "utimensat set", "utimensat now omit", "truncate",
	"write", "access R_OK", "access W_OK", "access X_OK", "access F_OK",
	"eaccess W_OK", "eaccess X_OK", "access dir X_OK", "exec", "exec directory",
	"open O_CREAT 02755", "mknod S_IFREG|02755", "mkdir 02755", "open O_CREAT 05777",
};
_Static_assert(ARRAY_SIZE(OP_NAMES) == NR_OPS, "a name for every operation");

static const mode_t DIR_MODES[] = { 0755, 0777, 0700, 0770, 0575, 0333, 01777, 03777 };
static const mode_t FILE_MODES[] = { 0644, 0600, 0000, 0755, 0111, 04755, 02755, 02644 };
static const uid_t DIR_OWNERS[] = { 1000, 0 };

struct cell {
	enum op op;
	mode_t dmode, fmode;
	uid_t downer;
	const struct caller *who;
	char base[32];   /* "cN" */
};

/* ---- the host ---- */

static int host_root = -1;  /* the tmpfs of the test, O_PATH */
static char host_dir[64];   /* its path */

static long R(long r)
{
	return r < 0 ? -errno : r;
}

static void host_caps(uint64_t eff)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		_exit(3);
	d[0].effective = (uint32_t)eff & d[0].permitted;
	d[1].effective = (uint32_t)(eff >> 32) & d[1].permitted;
	if (syscall(SYS_capset, &h, d))
		_exit(4);
}

static uint64_t host_eff(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		_exit(3);
	return d[0].effective | (uint64_t)d[1].effective << 32;
}

static void host_become(const struct caller *c)
{
	if (syscall(SYS_setgroups, c->ngroups, c->groups) ||
	    syscall(SYS_setresgid, c->gid, c->gid, c->gid))
		_exit(5);
	if (c->fs_only)
		syscall(SYS_setfsuid, c->uid);
	else if (syscall(SYS_setresuid, c->uid, c->uid, c->uid))
		_exit(6);
	if (c->only)
		host_caps(c->only);
	else if (c->drop)
		host_caps(host_eff() & ~c->drop);
}

static void host_setup(const struct cell *c)
{
	char p[96];
	int fd;

#define P(s) (snprintf(p, sizeof(p), "%s/%s", c->base, s), p)
	assert_int_equal(mkdirat(host_root, P(""), 0755), 0);
	assert_int_equal(mkdirat(host_root, P("d"), 0700), 0);
	fd = openat(host_root, P("d/f"), O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	assert_int_equal(mkdirat(host_root, P("d/sub"), 0700), 0);
	assert_int_equal(mkdirat(host_root, P("e"), 0777), 0);
	fd = openat(host_root, P("e/g"), O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fchownat(host_root, P("d/f"), 1000, 100, 0), 0);
	assert_int_equal(fchmodat(host_root, P("d/f"), c->fmode, 0), 0);
	assert_int_equal(fchownat(host_root, P("d/sub"), 1000, 100, 0), 0);
	assert_int_equal(fchmodat(host_root, P("d/sub"), c->fmode, 0), 0);
	assert_int_equal(fchmodat(host_root, P("e"), 0777, 0), 0);
	assert_int_equal(fchownat(host_root, P("d"), c->downer, 100, 0), 0);
	assert_int_equal(fchmodat(host_root, P("d"), c->dmode, 0), 0);
#undef P
}

static long host_op(const struct cell *c)
{
	char a[96], b[96], full[160];
	int fd;
	long r;

#define P(buf, s) (snprintf(buf, sizeof(buf), "%s/%s", c->base, s), buf)
	switch (c->op) {
	case OPEN_R: case OPEN_W: case OPEN_R_TRUNC: case OPEN_CREAT_EXCL_EXISTING:
	case OPEN_CREAT_EXISTING: case OPEN_NOATIME: {
		static const int fl[] = { [OPEN_R] = O_RDONLY, [OPEN_W] = O_WRONLY,
			[OPEN_R_TRUNC] = O_RDONLY | O_TRUNC,
			[OPEN_CREAT_EXCL_EXISTING] = O_CREAT | O_EXCL | O_RDONLY,
			[OPEN_CREAT_EXISTING] = O_CREAT | O_RDONLY,
			[OPEN_NOATIME] = O_RDONLY | O_NOATIME };

		fd = openat(host_root, P(a, "d/f"), fl[c->op], 0640);
		return fd < 0 ? -errno : (close(fd), 0);
	}
	case OPEN_CREAT_NEW:
		fd = openat(host_root, P(a, "d/n"), O_CREAT | O_WRONLY, 0640);
		return fd < 0 ? -errno : (close(fd), 0);
	case OPEN_DIR: case OPEN_DIR_W:
		fd = openat(host_root, P(a, "d"), c->op == OPEN_DIR ? O_RDONLY : O_WRONLY);
		return fd < 0 ? -errno : (close(fd), 0);
	case MKDIR: return R(mkdirat(host_root, P(a, "d/n"), 0777));
	case MKNOD_FIFO: return R(mknodat(host_root, P(a, "d/n"), S_IFIFO | 0666, 0));
	case MKNOD_CHR: return R(mknodat(host_root, P(a, "d/n"), S_IFCHR | 0666, makedev(1, 3)));
	case MKNOD_WHITEOUT: return R(mknodat(host_root, P(a, "d/n"), S_IFCHR, 0));
	case SYMLINK: return R(symlinkat("f", host_root, P(a, "d/n")));
	case LINK: return R(linkat(host_root, P(a, "d/f"), host_root, P(b, "d/n"), 0));
	case LINK_OUT: return R(linkat(host_root, P(a, "d/f"), host_root, P(b, "e/n"), 0));
	case UNLINK: return R(unlinkat(host_root, P(a, "d/f"), 0));
	case RMDIR: return R(unlinkat(host_root, P(a, "d/sub"), AT_REMOVEDIR));
	case RENAME_IN: return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "d/n"), 0));
	case RENAME_OUT: return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "e/n"), 0));
	case RENAME_DIR_OUT:
		return R(renameat2(host_root, P(a, "d/sub"), host_root, P(b, "e/n"), 0));
	case RENAME_OVER: return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "e/g"), 0));
	case EXCHANGE:
		return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "e/g"), RENAME_EXCHANGE));
	case EXCHANGE_DIR:
		return R(renameat2(host_root, P(a, "d/sub"), host_root, P(b, "e/g"),
				   RENAME_EXCHANGE));
	case NOREPLACE:
		return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "d/sub"),
				   RENAME_NOREPLACE));
	case WHITEOUT:
		return R(renameat2(host_root, P(a, "d/f"), host_root, P(b, "d/n"), RENAME_WHITEOUT));
	case STAT: {
		struct stat st;

		return R(fstatat(host_root, P(a, "d/f"), &st, AT_SYMLINK_NOFOLLOW));
	}
	case STAT_SUB: {
		struct stat st;

		return R(fstatat(host_root, P(a, "d/sub/."), &st, 0));
	}
	case CHDIR: case CHDIR_SUB: case CHROOT:
		snprintf(full, sizeof(full), "%s/%s/%s", host_dir, c->base,
			 c->op == CHDIR_SUB ? "d/sub" : "d");
		return c->op == CHROOT ? R(chroot(full)) : R(chdir(full));
	case READDIR: {
		char buf[1024];

		fd = openat(host_root, P(a, "d"), O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return -errno;
		r = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		r = r < 0 ? -errno : 0;
		close(fd);
		return r;
	}
	case CHMOD: return R(fchmodat(host_root, P(a, "d/f"), 0600, 0));
	case CHMOD_SGID: return R(fchmodat(host_root, P(a, "d/f"), 02770, 0));
	case CHOWN_OTHER: return R(fchownat(host_root, P(a, "d/f"), 1003, -1, 0));
	case CHOWN_NOTHING: return R(fchownat(host_root, P(a, "d/f"), -1, -1, 0));
	case CHGRP_100: return R(fchownat(host_root, P(a, "d/f"), -1, 100, 0));
	case CHGRP_200: return R(fchownat(host_root, P(a, "d/f"), -1, 200, 0));
	case CHGRP_300: return R(fchownat(host_root, P(a, "d/f"), -1, 300, 0));
	case UTIMES_NOW: return R(utimensat(host_root, P(a, "d/f"), NULL, 0));
	case UTIMES_SET: {
		struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

		return R(utimensat(host_root, P(a, "d/f"), ts, 0));
	}
	case UTIMES_NOW_OMIT: {
		struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };

		return R(utimensat(host_root, P(a, "d/f"), ts, 0));
	}
	case TRUNCATE:
		snprintf(full, sizeof(full), "%s/%s/d/f", host_dir, c->base);
		return R(truncate(full, 0));
	case WRITE:
		fd = openat(host_root, P(a, "d/f"), O_WRONLY | O_APPEND);
		if (fd < 0)
			return -errno;
		r = R(write(fd, "y", 1));
		close(fd);
		return r;
	case ACCESS_R: return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), R_OK, 0));
	case ACCESS_W: return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), W_OK, 0));
	case ACCESS_X: return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), X_OK, 0));
	case ACCESS_F: return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), F_OK, 0));
	case EACCESS_W:
		return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), W_OK, AT_EACCESS));
	case EACCESS_X:
		return R(syscall(SYS_faccessat2, host_root, P(a, "d/f"), X_OK, AT_EACCESS));
	case ACCESS_DIR_X: return R(syscall(SYS_faccessat2, host_root, P(a, "d/sub"), X_OK, 0));
	case CREAT_SGID: case CREAT_SUID_STICKY:
		fd = openat(host_root, P(a, "d/n"), O_CREAT | O_WRONLY,
			    c->op == CREAT_SGID ? 02755 : 05777);
		return fd < 0 ? -errno : (close(fd), 0);
	case MKNOD_SGID: return R(mknodat(host_root, P(a, "d/n"), S_IFREG | 02755, 0));
	case MKDIR_SGID: return R(mkdirat(host_root, P(a, "d/n"), 02755));
	case EXEC: case EXEC_DIR: {
		char *argv[] = { "f", NULL }, *envp[] = { NULL };

		r = R(syscall(SYS_execveat, host_root, P(a, c->op == EXEC ? "d/f" : "d/sub"), argv,
			      envp, 0));
		/* the file is one byte, no program: past every permission check both
		 * say ENOEXEC (uvfs.h) */
		return r;
	}
	default:
		return -ENOSYS;
	}
#undef P
}

/* The result, from a child with the caller's credentials: a clone sharing this
 * process's memory (CLONE_VM | CLONE_VFORK, as posix_spawn makes one: no page tables
 * copied) but not its credentials, descriptors, cwd or root, which it changes. */
struct host_child {
	const struct cell *c;
	long r;
};

static int host_child_main(void *arg)
{
	struct host_child *hc = arg;

	host_become(hc->c->who);
	hc->r = host_op(hc->c);
	_exit(0);
}

static long host_run(const struct cell *c)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	struct host_child hc = { c, -ENOSYS };
	int status;
	pid_t pid;

	pid = clone(host_child_main, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, &hc);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return hc.r;
}

/* ---- uvfs ---- */

static void uvfs_become(struct uvfs_task *t, const struct caller *c)
{
	struct uvfs_caps caps;

	assert_int_equal(uvfs_setgroups(t, (size_t)c->ngroups, c->groups), 0);
	assert_int_equal(uvfs_setresgid(t, c->gid, c->gid, c->gid), 0);
	if (c->fs_only)
		uvfs_setfsuid(t, c->uid);
	else
		assert_int_equal(uvfs_setresuid(t, c->uid, c->uid, c->uid), 0);
	assert_int_equal(uvfs_capget(t, &caps), 0);
	if (c->only)
		caps.effective = c->only & caps.permitted;
	else
		caps.effective &= ~c->drop;
	assert_int_equal(uvfs_capset(t, &caps), 0);
}

static void uvfs_setup(struct uvfs_task *t, const struct cell *c)
{
	char p[96];
	int fd;

#define P(s) (snprintf(p, sizeof(p), "/%s/%s", c->base, s), p)
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, P(""), 0755), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, P("d"), 0700), 0);
	fd = uvfs_openat(t, AT_FDCWD, P("d/f"), O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(uvfs_write(t, fd, "x", 1), 1);
	uvfs_close(t, fd);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, P("d/sub"), 0700), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, P("e"), 0777), 0);
	fd = uvfs_openat(t, AT_FDCWD, P("e/g"), O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	uvfs_close(t, fd);
	assert_int_equal(uvfs_fchownat(t, AT_FDCWD, P("d/f"), 1000, 100, 0), 0);
	assert_int_equal(uvfs_fchmodat(t, AT_FDCWD, P("d/f"), c->fmode, 0), 0);
	assert_int_equal(uvfs_fchownat(t, AT_FDCWD, P("d/sub"), 1000, 100, 0), 0);
	assert_int_equal(uvfs_fchmodat(t, AT_FDCWD, P("d/sub"), c->fmode, 0), 0);
	assert_int_equal(uvfs_fchmodat(t, AT_FDCWD, P("e"), 0777, 0), 0);
	assert_int_equal(uvfs_fchownat(t, AT_FDCWD, P("d"), c->downer, 100, 0), 0);
	assert_int_equal(uvfs_fchmodat(t, AT_FDCWD, P("d"), c->dmode, 0), 0);
#undef P
}

static long uvfs_op(struct uvfs_task *t, const struct cell *c)
{
	char a[96], b[96];
	int fd;
	long r;

#define P(buf, s) (snprintf(buf, sizeof(buf), "/%s/%s", c->base, s), buf)
	switch (c->op) {
	case OPEN_R: case OPEN_W: case OPEN_R_TRUNC: case OPEN_CREAT_EXCL_EXISTING:
	case OPEN_CREAT_EXISTING: case OPEN_NOATIME: {
		static const int fl[] = { [OPEN_R] = O_RDONLY, [OPEN_W] = O_WRONLY,
			[OPEN_R_TRUNC] = O_RDONLY | O_TRUNC,
			[OPEN_CREAT_EXCL_EXISTING] = O_CREAT | O_EXCL | O_RDONLY,
			[OPEN_CREAT_EXISTING] = O_CREAT | O_RDONLY,
			[OPEN_NOATIME] = O_RDONLY | O_NOATIME };

		fd = uvfs_openat(t, AT_FDCWD, P(a, "d/f"), fl[c->op], 0640);
		return fd < 0 ? fd : (uvfs_close(t, fd), 0);
	}
	case OPEN_CREAT_NEW:
		fd = uvfs_openat(t, AT_FDCWD, P(a, "d/n"), O_CREAT | O_WRONLY, 0640);
		return fd < 0 ? fd : (uvfs_close(t, fd), 0);
	case OPEN_DIR: case OPEN_DIR_W:
		fd = uvfs_openat(t, AT_FDCWD, P(a, "d"), c->op == OPEN_DIR ? O_RDONLY : O_WRONLY, 0);
		return fd < 0 ? fd : (uvfs_close(t, fd), 0);
	case MKDIR: return uvfs_mkdirat(t, AT_FDCWD, P(a, "d/n"), 0777);
	case MKNOD_FIFO: return uvfs_mknodat(t, AT_FDCWD, P(a, "d/n"), S_IFIFO | 0666, 0);
	case MKNOD_CHR:
		return uvfs_mknodat(t, AT_FDCWD, P(a, "d/n"), S_IFCHR | 0666, makedev(1, 3));
	case MKNOD_WHITEOUT: return uvfs_mknodat(t, AT_FDCWD, P(a, "d/n"), S_IFCHR, 0);
	case SYMLINK: return uvfs_symlinkat(t, "f", AT_FDCWD, P(a, "d/n"));
	case LINK: return uvfs_linkat(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "d/n"), 0);
	case LINK_OUT: return uvfs_linkat(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "e/n"), 0);
	case UNLINK: return uvfs_unlinkat(t, AT_FDCWD, P(a, "d/f"), 0);
	case RMDIR: return uvfs_unlinkat(t, AT_FDCWD, P(a, "d/sub"), AT_REMOVEDIR);
	case RENAME_IN: return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "d/n"), 0);
	case RENAME_OUT: return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "e/n"), 0);
	case RENAME_DIR_OUT:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/sub"), AT_FDCWD, P(b, "e/n"), 0);
	case RENAME_OVER:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "e/g"), 0);
	case EXCHANGE:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "e/g"),
				      RENAME_EXCHANGE);
	case EXCHANGE_DIR:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/sub"), AT_FDCWD, P(b, "e/g"),
				      RENAME_EXCHANGE);
	case NOREPLACE:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "d/sub"),
				      RENAME_NOREPLACE);
	case WHITEOUT:
		return uvfs_renameat2(t, AT_FDCWD, P(a, "d/f"), AT_FDCWD, P(b, "d/n"),
				      RENAME_WHITEOUT);
	case STAT: {
		struct stat st;

		return uvfs_fstatat(t, AT_FDCWD, P(a, "d/f"), &st, AT_SYMLINK_NOFOLLOW);
	}
	case STAT_SUB: {
		struct stat st;

		return uvfs_fstatat(t, AT_FDCWD, P(a, "d/sub/."), &st, 0);
	}
	case CHDIR: return uvfs_chdir(t, P(a, "d"));
	case CHDIR_SUB: return uvfs_chdir(t, P(a, "d/sub"));
	case CHROOT: return uvfs_chroot(t, P(a, "d"));
	case READDIR: {
		char buf[1024];

		fd = uvfs_openat(t, AT_FDCWD, P(a, "d"), O_RDONLY | O_DIRECTORY, 0);
		if (fd < 0)
			return fd;
		r = uvfs_getdents64(t, fd, buf, sizeof(buf));
		uvfs_close(t, fd);
		return r < 0 ? r : 0;
	}
	case CHMOD: return uvfs_fchmodat(t, AT_FDCWD, P(a, "d/f"), 0600, 0);
	case CHMOD_SGID: return uvfs_fchmodat(t, AT_FDCWD, P(a, "d/f"), 02770, 0);
	case CHOWN_OTHER: return uvfs_fchownat(t, AT_FDCWD, P(a, "d/f"), 1003, -1, 0);
	case CHOWN_NOTHING: return uvfs_fchownat(t, AT_FDCWD, P(a, "d/f"), -1, -1, 0);
	case CHGRP_100: return uvfs_fchownat(t, AT_FDCWD, P(a, "d/f"), -1, 100, 0);
	case CHGRP_200: return uvfs_fchownat(t, AT_FDCWD, P(a, "d/f"), -1, 200, 0);
	case CHGRP_300: return uvfs_fchownat(t, AT_FDCWD, P(a, "d/f"), -1, 300, 0);
	case UTIMES_NOW: return uvfs_utimensat(t, AT_FDCWD, P(a, "d/f"), NULL, 0);
	case UTIMES_SET: {
		struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

		return uvfs_utimensat(t, AT_FDCWD, P(a, "d/f"), ts, 0);
	}
	case UTIMES_NOW_OMIT: {
		struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };

		return uvfs_utimensat(t, AT_FDCWD, P(a, "d/f"), ts, 0);
	}
	case TRUNCATE: return uvfs_truncate(t, P(a, "d/f"), 0);
	case WRITE:
		fd = uvfs_openat(t, AT_FDCWD, P(a, "d/f"), O_WRONLY | O_APPEND, 0);
		if (fd < 0)
			return fd;
		r = uvfs_write(t, fd, "y", 1);
		uvfs_close(t, fd);
		return r;
	case ACCESS_R: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), R_OK, 0);
	case ACCESS_W: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), W_OK, 0);
	case ACCESS_X: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), X_OK, 0);
	case ACCESS_F: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), F_OK, 0);
	case EACCESS_W: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), W_OK, AT_EACCESS);
	case EACCESS_X: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/f"), X_OK, AT_EACCESS);
	case ACCESS_DIR_X: return uvfs_faccessat2(t, AT_FDCWD, P(a, "d/sub"), X_OK, 0);
	case CREAT_SGID: case CREAT_SUID_STICKY:
		fd = uvfs_openat(t, AT_FDCWD, P(a, "d/n"), O_CREAT | O_WRONLY,
				 c->op == CREAT_SGID ? 02755 : 05777);
		return fd < 0 ? fd : (uvfs_close(t, fd), 0);
	case MKNOD_SGID: return uvfs_mknodat(t, AT_FDCWD, P(a, "d/n"), S_IFREG | 02755, 0);
	case MKDIR_SGID: return uvfs_mkdirat(t, AT_FDCWD, P(a, "d/n"), 02755);
	case EXEC: return uvfs_task_exec(t, P(a, "d/f"));
	case EXEC_DIR: return uvfs_task_exec(t, P(a, "d/sub"));
	default:
		return -ENOSYS;
	}
#undef P
}

/* ---- what root sees afterwards ---- */

static const char *const NAMES[] = { "d", "d/f", "d/n", "d/sub", "e/n", "e/g" };

static void describe_stat(char *out, size_t n, int err, const struct stat *st)
{
	if (err)
		snprintf(out, n, " %s", strerrorname_np(-err));
	else
		snprintf(out, n, " %o:%u:%u:%lld", st->st_mode, st->st_uid, st->st_gid,
			 S_ISREG(st->st_mode) ? (long long)st->st_size : 0ll);
}

static void host_after(const struct cell *c, char *out, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(NAMES); i++) {
		char p[96];
		struct stat st;
		int err;

		snprintf(p, sizeof(p), "%s/%s", c->base, NAMES[i]);
		err = fstatat(host_root, p, &st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		describe_stat(out + len, n - len, err, &st);
		len += strlen(out + len);
	}
}

static void uvfs_after(struct uvfs_task *root, const struct cell *c, char *out, size_t n)
{
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(NAMES); i++) {
		char p[96];
		struct stat st;
		int err;

		snprintf(p, sizeof(p), "/%s/%s", c->base, NAMES[i]);
		err = uvfs_fstatat(root, AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW);
		describe_stat(out + len, n - len, err, &st);
		len += strlen(out + len);
	}
}

static const char *result(long r, char *buf, size_t n)
{
	if (r < 0)
		snprintf(buf, n, "%s", strerrorname_np((int)-r));
	else
		snprintf(buf, n, "%ld", r);
	return buf;
}

/* ---- the host's side runs in a small server process forked before uvfs grows:
 * a fork per cell of a process holding tens of thousands of uvfs inodes costs
 * milliseconds in page tables, of this one microseconds ---- */

struct host_answer {
	long r;
	char after[512];
};

static int to_server = -1, from_server = -1;

static void server_loop(int in, int out)
{
	struct cell c;

	while (read(in, &c, sizeof(c)) == sizeof(c)) {
		struct host_answer a;

		host_setup(&c);
		a.r = host_run(&c);
		host_after(&c, a.after, sizeof(a.after));
		if (write(out, &a, sizeof(a)) != sizeof(a))
			_exit(7);
	}
	_exit(0);
}

static pid_t start_server(void)
{
	int req[2], ans[2];
	pid_t pid;

	assert_int_equal(pipe(req), 0);
	assert_int_equal(pipe(ans), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(req[1]);
		close(ans[0]);
		server_loop(req[0], ans[1]);
	}
	close(req[0]);
	close(ans[1]);
	to_server = req[1];
	from_server = ans[0];
	return pid;
}

/* The server answers while this process asks uvfs: cells go to it WINDOW at a time,
 * their answers read back after uvfs's side of all of them.  WINDOW answers fit in a
 * pipe's 64 KiB, so the server never blocks on a reader that is itself writing. */
#define WINDOW 64
_Static_assert(WINDOW * sizeof(struct host_answer) <= 65536, "answers fit in a pipe");
_Static_assert(WINDOW * sizeof(struct cell) <= 65536, "requests fit in a pipe");

static void host_ask(const struct cell *c)
{
	assert_int_equal(write(to_server, c, sizeof(*c)), sizeof(*c));
}

static long host_answer(char *after, size_t n)
{
	struct host_answer a;

	assert_int_equal(read(from_server, &a, sizeof(a)), sizeof(a));
	snprintf(after, n, "%s", a.after);
	return a.r;
}

/* ---- the matrix ---- */

static int setup_host(void)
{
	if (getuid() != 0)
		return -1;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	snprintf(host_dir, sizeof(host_dir), "/tmp/uvfs-perm-%d", getpid());
	if (mkdir(host_dir, 0755) && errno != EEXIST)
		return -1;
	if (mount("none", host_dir, "tmpfs", 0, "mode=0755"))
		return -1;
	host_root = open(host_dir, O_PATH | O_DIRECTORY);
	return host_root < 0 ? -1 : 0;
}

/* A cell asked of both, its uvfs side done, its host answer still in the pipe */
struct pending {
	struct cell c;
	long v;
	char uafter[512];
};

/* Reads the answers of the *n cells in flight, in order; returns how many differ. */
static unsigned long compare(struct pending *win, size_t *n, char *first, size_t nfirst)
{
	unsigned long differ = 0;

	for (size_t i = 0; i < *n; i++) {
		const struct cell *c = &win[i].c;
		char hafter[512], hr[32], ur[32];
		long h = host_answer(hafter, sizeof(hafter));

		if (h == win[i].v && !strcmp(hafter, win[i].uafter))
			continue;
		differ++;
		if (!*first)
			snprintf(first, nfirst, "%s, dir %04o owner %u, file %04o, %s: kernel %s%s, uvfs %s%s",
				 OP_NAMES[c->op], c->dmode, c->downer, c->fmode, c->who->name,
				 result(h, hr, sizeof(hr)), hafter,
				 result(win[i].v, ur, sizeof(ur)), win[i].uafter);
		if (getenv("UVFS_MATRIX_ALL"))
			printf("%s, dir %04o owner %u, file %04o, %s: kernel %s%s, uvfs %s%s\n",
			       OP_NAMES[c->op], c->dmode, c->downer, c->fmode, c->who->name,
			       result(h, hr, sizeof(hr)), hafter,
			       result(win[i].v, ur, sizeof(ur)), win[i].uafter);
	}
	*n = 0;
	return differ;
}

static void test_permission_matrix(void **state)
{
	struct uvfs *fs;
	struct uvfs_task *root;
	unsigned long cells = 0, differ = 0;
	struct utsname u;
	char first[2048] = "";
	static struct pending win[WINDOW];
	size_t nwin = 0;
	pid_t server;
	int status;

	(void)state;
	assert_int_equal(setup_host(), 0);
	server = start_server();
	fs = uvfs_new(NULL);
	root = uvfs_task_new(fs);
	uname(&u);
	for (int op = 0; op < NR_OPS; op++)
	for (size_t di = 0; di < ARRAY_SIZE(DIR_MODES); di++)
	for (size_t oi = 0; oi < ARRAY_SIZE(DIR_OWNERS); oi++)
	for (size_t fi = 0; fi < ARRAY_SIZE(FILE_MODES); fi++)
	for (size_t ci = 0; ci < ARRAY_SIZE(CALLERS); ci++) {
		struct cell c = { (enum op)op, DIR_MODES[di], FILE_MODES[fi], DIR_OWNERS[oi],
				  &CALLERS[ci], "" };
		struct uvfs_task *t;

		snprintf(c.base, sizeof(c.base), "c%lu", cells++);
		host_ask(&c);

		uvfs_setup(root, &c);
		t = uvfs_task_fork(root);
		assert_non_null(t);
		uvfs_become(t, c.who);
		win[nwin].c = c;
		win[nwin].v = uvfs_op(t, &c);
		uvfs_task_exit(t);
		uvfs_after(root, &c, win[nwin].uafter, sizeof(win[nwin].uafter));
		if (++nwin == WINDOW)
			differ += compare(win, &nwin, first, sizeof(first));
	}
	differ += compare(win, &nwin, first, sizeof(first));
	close(to_server);
	assert_int_equal(waitpid(server, &status, 0), server);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("permission matrix: %lu cells, %lu differ (kernel %s)\n", cells, differ,
	       u.release);
	if (differ)
		fail_msg("%lu of %lu cells differ from the kernel; the first: %s", differ, cells,
			 first);
	uvfs_task_exit(root);
	uvfs_free(fs);
}

/*
 * /proc/PID of another user's task: a task with a caller's credentials holds a file
 * open and a cwd; a task with another caller's credentials reads its links and
 * stats its directories.  ptrace_may_access(PTRACE_MODE_READ_FSCREDS) decides the
 * links (EACCES), the modes of /proc/PID/fd (0500, the owner's effective ids) decide
 * the walk, and /proc/PID belongs to the task's effective ids.
 */
static const char *const PROC_NAMES[] = { "fd/30", "cwd", "root", "fd", "" };

static void proc_answers_host(const struct caller *a, const struct caller *b, char *out,
			      size_t n)
{
	int ready[2], done[2];
	pid_t pa;
	size_t len = 0;
	char ch;
	int fd;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(done), 0);
	pa = fork();
	assert_true(pa >= 0);
	if (!pa) {
		char p[160];

		close(ready[0]);
		close(done[1]);
		host_become(a);
		snprintf(p, sizeof(p), "%s/procdir", host_dir);
		fd = open(p, O_RDONLY | O_DIRECTORY);
		if (fd < 0 || dup2(fd, 30) != 30 || chdir(p))
			_exit(8);
		if (write(ready[1], "r", 1) != 1 || read(done[0], &ch, 1) < 0)
			_exit(9);
		_exit(0);
	}
	close(ready[1]);
	close(done[0]);
	assert_int_equal(read(ready[0], &ch, 1), 1);
	for (size_t i = 0; i < ARRAY_SIZE(PROC_NAMES); i++) {
		char link[64];
		char buf[256];
		struct stat st;
		long r, rs;

		snprintf(link, sizeof(link), "/proc/%d/%s", pa, PROC_NAMES[i]);
		{
			int status, p2[2];
			long res[4] = { 0 };
			pid_t pb;

			assert_int_equal(pipe(p2), 0);
			pb = fork();
			if (!pb) {
				host_become(b);
				r = i < 3 ? R(readlink(link, buf, sizeof(buf))) : 0;
				rs = R(stat(link, &st));
				res[0] = r < 0 ? r : 0;
				res[1] = rs;
				res[2] = rs ? -1 : (long)st.st_uid;
				res[3] = rs ? -1 : (long)st.st_gid;
				if (write(p2[1], res, sizeof(res)) != sizeof(res))
					_exit(2);
				_exit(0);
			}
			assert_true(pb > 0);
			assert_int_equal(read(p2[0], res, sizeof(res)), sizeof(res));
			close(p2[0]);
			close(p2[1]);
			assert_int_equal(waitpid(pb, &status, 0), pb);
			len += (size_t)snprintf(out + len, n - len, " %s: %s %s %ld:%ld",
					       PROC_NAMES[i],
					       res[0] ? strerrorname_np((int)-res[0]) : "ok",
					       res[1] ? strerrorname_np((int)-res[1]) : "ok",
					       res[2], res[3]);
		}
	}
	assert_int_equal(write(done[1], "d", 1), 1);
	assert_int_equal(waitpid(pa, NULL, 0), pa);
	close(ready[0]);
	close(done[1]);
}

static void proc_answers_uvfs(struct uvfs *fs, const struct caller *a, const struct caller *b,
			      char *out, size_t n)
{
	struct uvfs_task *root = uvfs_task_new(fs);
	struct uvfs_task *ta = uvfs_task_fork(root), *tb = uvfs_task_fork(root);
	size_t len = 0;
	int fd;

	uvfs_become(ta, a);
	uvfs_become(tb, b);
	fd = uvfs_openat(ta, AT_FDCWD, "/procdir", O_RDONLY | O_DIRECTORY, 0);

	assert_true(fd >= 0);
	assert_int_equal(uvfs_dup3(ta, fd, 30, 0), 30);
	assert_int_equal(uvfs_chdir(ta, "/procdir"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(PROC_NAMES); i++) {
		char link[64], buf[256];
		struct stat st;
		long r, rs;

		snprintf(link, sizeof(link), "/proc/%d/%s", uvfs_task_pid(ta), PROC_NAMES[i]);
		r = i < 3 ? uvfs_readlinkat(tb, AT_FDCWD, link, buf, sizeof(buf)) : 0;
		rs = uvfs_fstatat(tb, AT_FDCWD, link, &st, 0);
		len += (size_t)snprintf(out + len, n - len, " %s: %s %s %ld:%ld", PROC_NAMES[i],
				       r < 0 ? strerrorname_np((int)-r) : "ok",
				       rs ? strerrorname_np((int)-rs) : "ok",
				       rs ? -1 : (long)st.st_uid, rs ? -1 : (long)st.st_gid);
	}
	uvfs_task_exit(ta);
	uvfs_task_exit(tb);
	uvfs_task_exit(root);
}

static void test_proc_of_another_user(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);
	unsigned long cells = 0, differ = 0;
	char first[1200] = "";
	char p[160];

	(void)state;
	assert_true(host_root >= 0);  /* the matrix made it */
	snprintf(p, sizeof(p), "%s/procdir", host_dir);
	assert_int_equal(mkdir(p, 0777), 0);
	assert_int_equal(chmod(p, 0777), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/procdir", 0777), 0);
	assert_int_equal(uvfs_fchmodat(t, AT_FDCWD, "/procdir", 0777, 0), 0);
	for (size_t ai = 0; ai < ARRAY_SIZE(CALLERS); ai++)
	for (size_t bi = 0; bi < ARRAY_SIZE(CALLERS); bi++) {
		char h[400], u[400];

		cells++;
		proc_answers_host(&CALLERS[ai], &CALLERS[bi], h, sizeof(h));
		proc_answers_uvfs(fs, &CALLERS[ai], &CALLERS[bi], u, sizeof(u));
		if (strcmp(h, u)) {
			if (!differ++)
				snprintf(first, sizeof(first), "%s reads %s's: kernel%s, uvfs%s",
					 CALLERS[bi].name, CALLERS[ai].name, h, u);
			if (getenv("UVFS_MATRIX_ALL"))
				printf("%s reads %s's: kernel%s, uvfs%s\n", CALLERS[bi].name,
				       CALLERS[ai].name, h, u);
		}
	}
	printf("/proc of another user: %lu pairs, %lu differ\n", cells, differ);
	if (differ)
		fail_msg("%lu of %lu pairs differ from the kernel; the first: %s", differ, cells,
			 first);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permission_matrix),
		cmocka_unit_test(test_proc_of_another_user),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
