// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * backend_uvfs.c - the sysscript backend that calls libuvfs.
 */

#include <ftw.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <signal.h>
#include <sys/ioctl.h>

#include "sysscript.h"
#include "uvfs/uvfs.h"

struct uvfs_ctx {
	struct uvfs *fs;
	struct uvfs_task *task;
	struct uvfs_task *children[SYSSCRIPT_MAX_CHILDREN];  /* "fork"'s, by pid */
	char *hostdirs[8];   /* "hostmount"'s directories in /dev/shm, removed at the end */
};

#define T(c) (((struct uvfs_ctx *)(c))->task)

static int u_openat(void *c, int d, const char *p, int f, mode_t m) { return uvfs_openat(T(c), d, p, f, m); }
static int u_close(void *c, int fd) { return uvfs_close(T(c), fd); }
static ssize_t u_read(void *c, int fd, void *b, size_t n) { return uvfs_read(T(c), fd, b, n); }
static ssize_t u_write(void *c, int fd, const void *b, size_t n) { return uvfs_write(T(c), fd, b, n); }
static ssize_t u_pread(void *c, int fd, void *b, size_t n, off_t o) { return uvfs_pread(T(c), fd, b, n, o); }
static ssize_t u_pwrite(void *c, int fd, const void *b, size_t n, off_t o) { return uvfs_pwrite(T(c), fd, b, n, o); }
static off_t u_lseek(void *c, int fd, off_t o, int w) { return uvfs_lseek(T(c), fd, o, w); }
static int u_ftruncate(void *c, int fd, off_t l) { return uvfs_ftruncate(T(c), fd, l); }
static int u_truncate(void *c, const char *p, off_t l) { return uvfs_truncate(T(c), p, l); }
static int u_fsync(void *c, int fd) { return uvfs_fsync(T(c), fd); }
static int u_renameat2(void *c, int od, const char *op, int nd, const char *np, unsigned f)
{ return uvfs_renameat2(T(c), od, op, nd, np, f); }
static int u_unlinkat(void *c, int d, const char *p, int f) { return uvfs_unlinkat(T(c), d, p, f); }
static int u_mkdirat(void *c, int d, const char *p, mode_t m) { return uvfs_mkdirat(T(c), d, p, m); }
static int u_mknodat(void *c, int d, const char *p, mode_t m, dev_t dv) { return uvfs_mknodat(T(c), d, p, m, dv); }
static int u_symlinkat(void *c, const char *t, int d, const char *p) { return uvfs_symlinkat(T(c), t, d, p); }
static ssize_t u_readlinkat(void *c, int d, const char *p, char *b, size_t n) { return uvfs_readlinkat(T(c), d, p, b, n); }
static int u_linkat(void *c, int od, const char *op, int nd, const char *np, int f)
{ return uvfs_linkat(T(c), od, op, nd, np, f); }
static int u_fstatat(void *c, int d, const char *p, struct stat *st, int f) { return uvfs_fstatat(T(c), d, p, st, f); }
static int u_fstat(void *c, int fd, struct stat *st) { return uvfs_fstat(T(c), fd, st); }
static int u_inotify_init1(void *c, int flags)
{ return uvfs_inotify_init1(T(c), flags); }
static int u_inotify_add_watch(void *c, int fd, const char *p, unsigned int mask)
{ return uvfs_inotify_add_watch(T(c), fd, p, mask); }
static int u_inotify_rm_watch(void *c, int fd, int wd)
{ return uvfs_inotify_rm_watch(T(c), fd, wd); }
static int u_fionread(void *c, int fd, int *n)
{ return uvfs_ioctl(T(c), fd, FIONREAD, n); }
/* the signals uvfs owes (uvfs_dnotify_take), as the host's pend and are taken:
 * SIGIO once, however many; the lowest signal first (the kernel's next_signal()),
 * in the order sent among equals */
static int u_dnotify_signals(void *c, char *buf, size_t n)
{
	struct uvfs_task *t = T(c);
	struct { int sig, fd; } due[256];
	int pid, fd, nd = 0;
	size_t used = 0;

	buf[0] = 0;
	while (uvfs_dnotify_take(((struct uvfs_ctx *)c)->fs, &pid, &fd) == 1) {
		int sig = uvfs_fcntl(t, fd, F_GETSIG, 0);
		bool dup = false;

		sig = sig > 0 ? sig : SIGIO;
		for (int i = 0; i < nd && sig < SIGRTMIN; i++)
			dup |= due[i].sig == sig;
		if (!dup && nd < 256)
			due[nd++] = (typeof(due[0])){ sig, fd };
	}
	for (int i = 1; i < nd; i++)  /* insertion sort: stable */
		for (int k = i; k > 0 && due[k - 1].sig > due[k].sig; k--) {
			typeof(due[0]) x = due[k];

			due[k] = due[k - 1];
			due[k - 1] = x;
		}
	for (int i = 0; i < nd; i++) {
		int k = due[i].sig == SIGIO
				? snprintf(buf + used, n - used, "%sSIGIO", used ? " " : "")
				: snprintf(buf + used, n - used, "%s%d fd=%d", used ? " " : "",
					   due[i].sig, due[i].fd);

		if (k > 0 && (size_t)k < n - used)
			used += (size_t)k;
	}
	return (int)used;
}

static int u_statx(void *c, int d, const char *p, int f, unsigned int m, struct statx *sx)
{ return uvfs_statx(T(c), d, p, f, m, sx); }
static ssize_t u_getdents64(void *c, int fd, void *b, size_t n) { return uvfs_getdents64(T(c), fd, b, n); }
static int u_getcwd(void *c, char *b, size_t n) { return uvfs_getcwd(T(c), b, n); }
static int u_chdir(void *c, const char *p) { return uvfs_chdir(T(c), p); }
static int u_fchdir(void *c, int fd) { return uvfs_fchdir(T(c), fd); }
static int u_fchmodat(void *c, int d, const char *p, mode_t m, int f) { return uvfs_fchmodat(T(c), d, p, m, f); }
static int u_setxattrat(void *c, int d, const char *p, int at, const char *n, const void *v,
			size_t sz, int f)
{
	return v ? uvfs_setxattrat(T(c), d, p, at, n, v, sz, f) : uvfs_removexattrat(T(c), d, p, at, n);
}
static ssize_t u_getxattrat(void *c, int d, const char *p, int at, const char *n, void *b,
			    size_t sz)
{ return uvfs_getxattrat(T(c), d, p, at, n, b, sz); }
static ssize_t u_listxattrat(void *c, int d, const char *p, int at, char *b, size_t sz)
{ return uvfs_listxattrat(T(c), d, p, at, b, sz); }
static int u_faccessat2(void *c, int d, const char *p, int m, int f) { return uvfs_faccessat2(T(c), d, p, m, f); }
static int u_fchownat(void *c, int d, const char *p, uid_t u, gid_t g, int f) { return uvfs_fchownat(T(c), d, p, u, g, f); }
static int u_utimensat(void *c, int d, const char *p, const struct timespec t[2], int f)
{ return uvfs_utimensat(T(c), d, p, t, f); }
static int u_dup(void *c, int fd) { return uvfs_dup(T(c), fd); }
static int u_dup3(void *c, int fd, int nfd, int f) { return uvfs_dup3(T(c), fd, nfd, f); }
static int u_fcntl(void *c, int fd, int cmd, long a) { return uvfs_fcntl(T(c), fd, cmd, a); }
static int u_mount(void *c, const char *type, const char *target, const char *opts)
{
	unsigned long long inodes = 0, bytes = 0;
	char *copy = strdup(opts), *save = NULL;

	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strncmp(o, "nr_inodes=", 10))
			inodes = strtoull(o + 10, NULL, 0);
		else if (!strncmp(o, "size=", 5))
			bytes = strtoull(o + 5, NULL, 0);
	}
	free(copy);
	return uvfs_mount(T(c), type, target, 0, inodes, bytes);
}

static int u_mount2(void *c, const char *src, const char *target, const char *type,
		    unsigned long flags, const char *data)
{ return uvfs_mount2(T(c), src, target, type, flags, data); }
static int u_umount2(void *c, const char *target, int flags) { return uvfs_umount2(T(c), target, flags); }

static const char *new_hostdir(struct uvfs_ctx *u, const char *parent);

/* a new directory of the host's tmpfs, mode 1777 like a new tmpfs's root */
static int u_hostmount(void *c, const char *target, unsigned long flags, const char *data)
{
	const char *dir = new_hostdir(c, "/dev/shm");

	if (!dir)
		return -errno;
	return uvfs_mount2(T(c), dir, target, "host", flags, data);
}

static int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static int u_statfs(void *c, const char *p, struct statfs *b) { return uvfs_statfs(T(c), p, b); }
static int u_unshare(void *c, int flags) { return uvfs_unshare(T(c), flags); }
static int u_pivot_root(void *c, const char *n, const char *o) { return uvfs_pivot_root(T(c), n, o); }
static int u_fstatfs(void *c, int fd, struct statfs *b) { return uvfs_fstatfs(T(c), fd, b); }

static int u_chroot(void *c, const char *p) { return uvfs_chroot(T(c), p); }

/* Through uvfs's own procfs, held open at 1023 as the host backend does. */
#define PROC_FD 1023
static ssize_t u_readlink_proc(void *c, const char *which, int fd, char *b, size_t n)
{
	char path[64];

	sysscript_proc_path(which, fd, path, sizeof(path));
	return uvfs_readlinkat(T(c), PROC_FD, path, b, n);
}

static int u_fork(void *c)
{
	struct uvfs_ctx *x = c;
	struct uvfs_task *t;

	for (int i = 0; i < SYSSCRIPT_MAX_CHILDREN; i++) {
		if (x->children[i])
			continue;
		t = uvfs_task_fork(x->task);
		if (!t)
			return -errno;
		x->children[i] = t;
		return uvfs_task_pid(t);
	}
	return -EAGAIN;
}

static struct uvfs_task **child(void *c, int pid)
{
	struct uvfs_ctx *x = c;

	for (int i = 0; i < SYSSCRIPT_MAX_CHILDREN; i++)
		if (x->children[i] && uvfs_task_pid(x->children[i]) == pid)
			return &x->children[i];
	return NULL;
}

static int u_exec(void *c, int pid, const char *path)
{
	struct uvfs_task **t = child(c, pid);

	return t ? uvfs_task_exec(*t, path) : -ESRCH;
}

static int u_exit(void *c, int pid)
{
	struct uvfs_task **t = child(c, pid);

	if (!t)
		return -ESRCH;
	uvfs_task_exit(*t);
	*t = NULL;
	return 0;
}

static int u_su(void *c, uid_t u, gid_t g, int n, const gid_t *groups, bool keep)
{
	int err;

	if (keep && !u) {  /* as the host backend: the uid first */
		err = uvfs_setresuid(T(c), 0, 0, 0);
		if (!err)
			err = uvfs_setresgid(T(c), g, g, g);
		if (!err)
			err = uvfs_setgroups(T(c), (size_t)n, groups);
		return err;
	}
	err = uvfs_setgroups(T(c), (size_t)n, groups);
	if (!err)
		err = uvfs_setresgid(T(c), g, g, keep ? 0 : g);
	if (!err)
		err = uvfs_setresuid(T(c), u, u, keep ? 0 : u);
	return err;
}

static mode_t u_umask(void *c, mode_t m)
{
	return uvfs_umask(T(c), m);
}

static int u_id(void *c, char *buf, size_t n)
{
	struct uvfs_caps caps;
	uid_t u[4];
	gid_t g[4], groups[64];
	int ng;

	uvfs_getresuid(T(c), &u[0], &u[1], &u[2]);
	uvfs_getresgid(T(c), &g[0], &g[1], &g[2]);
	u[3] = (uid_t)uvfs_setfsuid(T(c), (uid_t)-1);
	g[3] = (gid_t)uvfs_setfsgid(T(c), (gid_t)-1);
	ng = uvfs_getgroups(T(c), 64, groups);
	uvfs_capget(T(c), &caps);
	if (ng < 0)
		return ng;
	return sysscript_id_text(buf, n, u, g, ng, groups, caps.effective);
}

/* The script's task starts with the capability sets of the process that runs the
 * script, so that a comparison with the host starts from the same sets (a container
 * may have dropped some from its bounding set). */
static void inherit_host_caps(struct uvfs_task *t)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct uvfs_caps caps;

	if (syscall(SYS_capget, &h, d))
		return;
	caps.effective = d[0].effective | (uint64_t)d[1].effective << 32;
	caps.permitted = d[0].permitted | (uint64_t)d[1].permitted << 32;
	caps.inheritable = d[0].inheritable | (uint64_t)d[1].inheritable << 32;
	uvfs_capset(t, &caps);
}

static const struct sys_backend uvfs_backend = {
	.name = "uvfs",
	.openat = u_openat, .close = u_close, .read = u_read, .write = u_write,
	.pread = u_pread, .pwrite = u_pwrite, .lseek = u_lseek, .ftruncate = u_ftruncate,
	.truncate = u_truncate, .fsync = u_fsync, .renameat2 = u_renameat2,
	.unlinkat = u_unlinkat, .mkdirat = u_mkdirat, .mknodat = u_mknodat,
	.symlinkat = u_symlinkat, .readlinkat = u_readlinkat, .linkat = u_linkat,
	.fstatat = u_fstatat, .fstat = u_fstat, .statx = u_statx, .inotify_init1 = u_inotify_init1,
	.inotify_add_watch = u_inotify_add_watch, .inotify_rm_watch = u_inotify_rm_watch,
	.fionread = u_fionread, .dnotify_signals = u_dnotify_signals, .getdents64 = u_getdents64,
	.getcwd = u_getcwd, .chdir = u_chdir, .fchdir = u_fchdir, .fchmodat = u_fchmodat,
	.faccessat2 = u_faccessat2,
	.fchownat = u_fchownat, .utimensat = u_utimensat, .dup = u_dup, .dup3 = u_dup3,
	.fcntl = u_fcntl, .mount = u_mount, .mount2 = u_mount2, .umount2 = u_umount2, .hostmount = u_hostmount,
	.setxattrat = u_setxattrat, .getxattrat = u_getxattrat, .listxattrat = u_listxattrat,
	.statfs = u_statfs, .fstatfs = u_fstatfs, .unshare = u_unshare, .pivot_root = u_pivot_root, .chroot = u_chroot, .readlink_proc = u_readlink_proc,
	.fork = u_fork, .exec = u_exec, .exit = u_exit, .su = u_su, .id = u_id, .umask = u_umask,
};

struct sys_backend *sys_backend_uvfs(const struct uvfs_config *cfg)
{
	struct sys_backend *b = malloc(sizeof(*b));
	struct uvfs_ctx *c = calloc(1, sizeof(*c));

	if (!b || !c)
		goto fail;
	*b = uvfs_backend;
	b->ctx = c;
	c->fs = uvfs_new(cfg);
	if (!c->fs)
		goto fail;
	c->task = uvfs_task_new(c->fs);
	if (!c->task) {
		uvfs_free(c->fs);
		goto fail;
	}
	inherit_host_caps(c->task);
	return b;
fail:
	free(b);
	free(c);
	return NULL;
}

struct uvfs_task *sys_backend_uvfs_task(struct sys_backend *b)
{
	return T(b->ctx);
}

struct uvfs *sys_backend_uvfs_fs(struct sys_backend *b)
{
	return ((struct uvfs_ctx *)b->ctx)->fs;
}

void sys_backend_uvfs_set_task(struct sys_backend *b, struct uvfs_task *task)
{
	((struct uvfs_ctx *)b->ctx)->task = task;
}

void sys_backend_uvfs_free(struct sys_backend *b)
{
	struct uvfs_ctx *c;

	if (!b)
		return;
	c = b->ctx;
	for (int i = 0; i < SYSSCRIPT_MAX_CHILDREN; i++)
		if (c->children[i])
			uvfs_task_exit(c->children[i]);
	uvfs_free(c->fs);
	for (int i = 0; i < (int)(sizeof(c->hostdirs) / sizeof(c->hostdirs[0])) && c->hostdirs[i]; i++) {
		nftw(c->hostdirs[i], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		free(c->hostdirs[i]);
	}
	free(c);
	free(b);
}

struct sys_backend *sys_backend_uvfs_proc(const char *abi)
{
	struct uvfs_config cfg = { .abi = abi };
	struct sys_backend *b = sys_backend_uvfs(&cfg);
	struct uvfs_task *t;
	int fd;

	if (!b)
		return NULL;
	t = sys_backend_uvfs_task(b);
	fd = uvfs_openat(t, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0 || uvfs_dup3(t, fd, PROC_FD, 0) != PROC_FD || uvfs_close(t, fd)) {
		sys_backend_uvfs_free(b);
		return NULL;
	}
	return b;
}

/* a free slot of hostdirs for a new directory under parent, made mode 1777 */
static const char *new_hostdir(struct uvfs_ctx *u, const char *parent)
{
	char dir[4096];
	int i;

	for (i = 0; i < (int)(sizeof(u->hostdirs) / sizeof(u->hostdirs[0])) && u->hostdirs[i]; i++)
		;
	if (i == (int)(sizeof(u->hostdirs) / sizeof(u->hostdirs[0]))) {
		errno = EMFILE;
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%s/uvfs-hostmount-XXXXXX", parent);
	if (!mkdtemp(dir))
		return NULL;
	u->hostdirs[i] = strdup(dir);
	if (!u->hostdirs[i] || chmod(dir, 01777))
		return NULL;
	return u->hostdirs[i];
}

int sys_backend_uvfs_host_root(struct sys_backend *b, const char *parent, const char *data)
{
	struct uvfs_task *t = T(b->ctx);
	const char *dir = new_hostdir(b->ctx, parent);
	int err, fd;

	if (!dir)
		return -errno;
	if ((err = uvfs_mkdirat(t, AT_FDCWD, "/uvfs-host-root", 0755)) ||
	    (err = uvfs_mount2(t, dir, "/uvfs-host-root", "host", 0, data)) ||
	    (err = uvfs_mkdirat(t, AT_FDCWD, "/uvfs-host-root/proc", 0555)) ||
	    (err = uvfs_mount2(t, "proc", "/uvfs-host-root/proc", "proc", 0, NULL)) ||
	    (err = uvfs_mkdirat(t, AT_FDCWD, "/uvfs-host-root/.old", 0700)) ||
	    (err = uvfs_pivot_root(t, "/uvfs-host-root", "/uvfs-host-root/.old")) ||
	    (err = uvfs_chdir(t, "/")) ||
	    (err = uvfs_umount2(t, "/.old", MNT_DETACH)) ||
	    (err = uvfs_unlinkat(t, AT_FDCWD, "/.old", AT_REMOVEDIR)))
		return err;
	fd = uvfs_openat(t, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	err = uvfs_dup3(t, fd, PROC_FD, 0);
	uvfs_close(t, fd);
	return err < 0 ? err : 0;
}

char *sysscript_uvfs_run(const char *script, const char *abi, bool dump)
{
	bool proc = sysscript_wants_proc(script);
	/* Mirror the host: /proc only for scripts that read it. */
	struct uvfs_config cfg = { .abi = abi, .flags = proc ? 0 : UVFS_NO_PROC };
	struct sys_backend *b = sys_backend_uvfs(&cfg);
	struct sysscript s;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!b)
		return NULL;
	if (proc) {
		struct uvfs_task *t = sys_backend_uvfs_task(b);
		int fd = uvfs_openat(t, AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY, 0);

		if (fd < 0 || uvfs_dup3(t, fd, PROC_FD, 0) != PROC_FD || uvfs_close(t, fd)) {
			sys_backend_uvfs_free(b);
			return NULL;
		}
	}
	f = open_memstream(&out, &len);
	sysscript_init(&s, b, f);
	sysscript_run(&s, script);
	if (dump) {
		static const char *const skip[] = { "proc", NULL };

		fputs("--- tree\n", f);
		sysscript_dump_tree(&s, "/", skip);
	}
	sysscript_done(&s);
	fclose(f);
	sys_backend_uvfs_free(b);
	return out;
}
