// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz_uvfsrun.c - uvfs-run's request decoding (tools/uvfs-run/syscalls.c) on
 * hostile registers and memory.  A traced process is played by the input: each step
 * is a system call number (one the seccomp filter traps, or any) and six argument
 * registers (small descriptors, AT_FDCWD, pointers into the process's memory and
 * just past it, NULL, huge values); the memory is a 64 KiB image whose first bytes
 * the input fills (paths, structs, iovecs).  run_syscall() decodes and answers
 * exactly as it does for a real process; where it leaves the call to the kernel or
 * rewrites it, the harness plays the kernel on a model of the process's descriptor
 * table, and then run_syscall_exit() sees that result.
 *
 * Checked after every step:
 * - a skipped call's result is a value or -errno in [-4095, -1];
 * - a call left to the kernel has its registers untouched;
 * - a notified open that installs a descriptor gives the supervisor's descriptor of
 *   it, and is played as ADDFD (the lowest free number), then run_installed();
 * - a rewritten call is execve of a NUL-terminated path in the process's memory;
 * - one descriptor space: every descriptor uvfs has is a stand-in in the model of
 *   the kernel's table, and every stand-in there is a descriptor of uvfs's;
 * and after the instance is freed, nothing of it is left (fuzz_common.h).
 *
 * The harness's rules (not uvfs-run's): it refuses mount -t host (the input would
 * choose a host directory to write in) and plays every execve as failing (an exec
 * that runs is trace.c's, not decoding).  As root it first moves to a private mount
 * namespace with a tmpfs of its own on /dev/shm, where its host mount's directory is.
 * The process whose /proc/TID the decoding reads (its host descriptors' kinds and
 * names, opened by the supervisor itself) is a child that only waits, with the null
 * device on 0, 1 and 2: the input opens those with any flags, never the harness's own
 * descriptors.
 */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct uvfs *run_fs;
pid_t run_tracer_pid;
/* no other process (pidfd_getfd is refused) */
struct uproc *run_uproc_of(pid_t tid)
{
	(void)tid;
	return NULL;
}
int run_null_fd = -1, run_dev_fd = -1, run_notify_fd = -1, run_standin_dir = -1;
unsigned long run_nofile = 1024;
/* procsrc.c and trace.c: no kernel proc of a pid namespace here */
int run_proc_fd = -1;
_Thread_local pid_t run_cur_tid;
/* trace.c's, for explain.c (--explain is off here: run_log_fd -1) */
int run_key_of(pid_t nspid, char *buf, size_t size)
{
	(void)nspid, (void)buf, (void)size;
	return -ESRCH;
}

/* trace.c's, for a datagram's credentials (passing.c): the harness's one process */
pid_t run_host_tgid(pid_t nspid)
{
	(void)nspid;
	return -ESRCH;
}

void run_uproc_set_key(struct uproc *up, const char *key)
{
	(void)up, (void)key;
}

/* trace.c's, for /proc/thread-self/ns (syscalls.c): the harness's one thread */
int run_cur_nstid(void)
{
	return -1;
}

/* trace.c's, for credentials per thread (syscalls.c): the harness's process has no
 * other thread */
size_t run_uproc_tids(const struct uproc *up, pid_t *tids, size_t max)
{
	(void)up, (void)tids, (void)max;
	return 0;
}
/* trace.c's, before each answered call: the harness's process has no children to
 * become zombies */
void run_zombies_sweep(void)
{
}
/* waits.c's, before F_SETLEASE: the harness starts no helper, so none waits */
void run_waits_settle(void)
{
}

static pid_t played;  /* the process /proc/TID shows (LLVMFuzzerInitialize) */

/* ---------------------------------------------------------------------------------
 * The traced process's memory: [MEM_BASE, MEM_BASE + MEM_SIZE); the stack pointer at
 * its top, so that a rewritten call's scratch string lands inside it.
 */
#define MEM_BASE 0x7f0000000000ul
#define MEM_SIZE (64u << 10)
static unsigned char mem[MEM_SIZE];

static bool in_mem(unsigned long addr, size_t len)
{
	return addr >= MEM_BASE && len <= MEM_SIZE && addr - MEM_BASE <= MEM_SIZE - len;
}

int mem_read(pid_t tid, unsigned long addr, void *buf, size_t len)
{
	(void)tid;
	if (!len)
		return 0;
	if (!in_mem(addr, len))
		return -EFAULT;
	memcpy(buf, mem + (addr - MEM_BASE), len);
	return 0;
}

int mem_write(pid_t tid, unsigned long addr, const void *buf, size_t len)
{
	(void)tid;
	if (!len)
		return 0;
	if (!in_mem(addr, len))
		return -EFAULT;
	memcpy(mem + (addr - MEM_BASE), buf, len);
	return 0;
}

int mem_read_str(pid_t tid, unsigned long addr, char *buf, size_t max)
{
	(void)tid;
	for (size_t i = 0; i < max; i++) {
		if (!in_mem(addr + i, 1))
			return -EFAULT;
		buf[i] = (char)mem[addr + i - MEM_BASE];
		if (!buf[i])
			return 0;
	}
	return -ENAMETOOLONG;
}

/* ---------------------------------------------------------------------------------
 * The model of the kernel's descriptor table: free, a host descriptor (the terminal,
 * a pipe, a host file the kernel opened), or a stand-in of a uvfs descriptor.
 */
#define NFD 1024  /* RLIMIT_NOFILE: uvfs's default per task is the same */
enum kfd { K_FREE, K_HOST, K_STANDIN };
static enum kfd ktab[NFD];

static long k_lowest(long from, enum kfd kind)
{
	for (long n = from < 0 ? 0 : from; n < NFD; n++)
		if (ktab[n] == K_FREE) {
			ktab[n] = kind;
			return n;
		}
	return -EMFILE;
}

static bool k_valid(unsigned long long fd)
{
	return fd < NFD && ktab[fd] != K_FREE;
}

static bool u_has(struct uvfs_task *t, int fd)
{
	return uvfs_fcntl(t, fd, F_GETFD, 0) >= 0;
}

/* ---------------------------------------------------------------------------------
 * The input
 */

/* An argument register: what programs pass, and what they should not. */
static unsigned long long arg(struct input *in)
{
	static const unsigned long long special[] = {
		0, 1, (unsigned long long)(long)AT_FDCWD, (unsigned long long)-1l, 0x7fffffff,
		0x80000000ull, 0xffffffffull, 0x100000003ull, 1ull << 63, ~0ull >> 1,
		AT_EMPTY_PATH, AT_SYMLINK_NOFOLLOW, AT_REMOVEDIR, O_CREAT | O_RDWR,
		O_CREAT | O_EXCL | O_WRONLY, O_DIRECTORY, O_PATH, O_TMPFILE | O_RDWR, 0644,
		01777, 4096, 65536, MEM_BASE + MEM_SIZE, MEM_BASE + MEM_SIZE - 1,
		MEM_BASE - 1,
	};
	unsigned k = (unsigned)take(in, 1);

	if (k < 64)
		return k % 16;                                       /* a descriptor */
	if (k < 160)
		return MEM_BASE + take(in, 2) % MEM_SIZE;            /* a pointer */
	if (k < 240)
		return special[k % (sizeof(special) / sizeof(special[0]))];
	return take(in, 8);
}

/* The trapped calls (filter.c's list), and now and then any number. */
static const long calls[] = {
	SYS_open, SYS_openat, SYS_openat2, SYS_creat, SYS_stat, SYS_lstat, SYS_fstat,
	SYS_newfstatat, SYS_statx, SYS_access, SYS_faccessat, SYS_faccessat2, SYS_readlink,
	SYS_readlinkat, SYS_getcwd, SYS_chdir, SYS_fchdir, SYS_chroot, SYS_mkdir,
	SYS_mkdirat, SYS_mknod, SYS_mknodat, SYS_rmdir, SYS_unlink, SYS_unlinkat,
	SYS_rename, SYS_renameat, SYS_renameat2, SYS_link, SYS_linkat, SYS_symlink,
	SYS_symlinkat, SYS_chmod, SYS_fchmod, SYS_fchmodat, SYS_chown, SYS_fchown,
	SYS_lchown, SYS_fchownat, SYS_truncate, SYS_ftruncate, SYS_utime, SYS_utimes,
	SYS_futimesat, SYS_utimensat, SYS_statfs, SYS_fstatfs, SYS_umask, SYS_execve,
	SYS_execveat, SYS_mount, SYS_umount2, SYS_pivot_root, SYS_getxattr, SYS_lgetxattr,
	SYS_fgetxattr, SYS_listxattr, SYS_llistxattr, SYS_flistxattr, SYS_setxattr,
	SYS_lsetxattr, SYS_fsetxattr, SYS_removexattr, SYS_lremovexattr,
	SYS_fremovexattr, SYS_setuid, SYS_setgid, SYS_setreuid, SYS_setregid,
	SYS_setresuid, SYS_setresgid, SYS_setfsuid, SYS_setfsgid, SYS_setgroups,
	SYS_capset, SYS_getdents, SYS_getdents64, SYS_lseek, SYS_read, SYS_write,
	SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev, SYS_preadv, SYS_pwritev,
	SYS_preadv2, SYS_pwritev2, SYS_close, SYS_close_range, SYS_dup, SYS_dup2,
	SYS_dup3, SYS_fcntl, SYS_fsync, SYS_fdatasync, SYS_copy_file_range, SYS_sendfile,
	SYS_splice, SYS_tee, 452 /* fchmodat2 */,
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

/* ---------------------------------------------------------------------------------
 * The kernel's part, on the model
 */

/* A call left to the kernel: what it does to the descriptor table. */
static void kernel_native(const struct user_regs_struct *r)
{
	long nr = (long)r->orig_rax;

	if (nr == SYS_close && k_valid(r->rdi & 0xffffffffu))
		ktab[r->rdi & 0xffffffffu] = K_FREE;
	else if (nr == SYS_fcntl && k_valid(r->rdi & 0xffffffffu) &&
		 ((int)r->rsi == F_DUPFD || (int)r->rsi == F_DUPFD_CLOEXEC) &&
		 (unsigned long)r->rdx < NFD)
		k_lowest((long)r->rdx, ktab[r->rdi & 0xffffffffu]);
	/* opens relative to a host descriptor, and the rest: a failure (no change) */
}

/* A call the tracer stops at the exit of: dup*, F_DUPFD, close_range, credentials.
 * The kernel's result, as its own checks give it. */
static long kernel_exit_stop(const struct user_regs_struct *r)
{
	long nr = (long)r->orig_rax;
	unsigned int a = (unsigned int)r->rdi, b = (unsigned int)r->rsi;

	switch (nr) {
	case SYS_dup:
		return k_valid(a) ? k_lowest(0, ktab[a]) : -EBADF;
	case SYS_dup2:
	case SYS_dup3:
		if (nr == SYS_dup3 && ((r->rdx & ~(unsigned long long)O_CLOEXEC) || a == b))
			return -EINVAL;
		if (!k_valid(a))
			return -EBADF;
		if (b >= NFD)
			return -EBADF;
		ktab[b] = ktab[a];
		return b;
	case SYS_fcntl:
		/* F_DUPFD's lowest number: an unsigned long against RLIMIT_NOFILE */
		return (unsigned long)r->rdx < NFD ? k_lowest((long)r->rdx, ktab[a]) : -EINVAL;
	case SYS_close_range:
		if ((unsigned int)r->rdx & ~6u)
			return -EINVAL;
		if (a > b)
			return -EINVAL;
		if (!((unsigned int)r->rdx & 4))
			for (unsigned long n = a; n <= b && n < NFD; n++)
				ktab[n] = K_FREE;
		return 0;
	}
	return 0;  /* the credential calls: the kernel agreed */
}

/* A rewritten call: execve of the real file. */
static long kernel_rewritten(const struct proc *p, const struct user_regs_struct *r)
{
	char path[PATH_MAX];

	/* sendfile and splice from a uvfs file: an offset pointer below the stack,
	 * holding uvfs's position (the kernel copies nothing here) */
	if (r->orig_rax == SYS_sendfile || r->orig_rax == SYS_splice) {
		loff_t pos;

		FUZZ_CHECK(mem_read(p->tid, r->orig_rax == SYS_sendfile ? r->rdx : r->rsi, &pos,
				    sizeof(pos)) == 0 && pos >= 0);
		return 0;
	}
	/* else only exec is rewritten: the supervisor installs what opens open,
	 * and makes the calls on a host descriptor's /proc name itself */
	FUZZ_CHECK(r->orig_rax == SYS_execve);
	FUZZ_CHECK(mem_read_str(p->tid, r->rdi, path, sizeof(path)) == 0 && path[0] == '/');
	return -ENOENT;
}

/* One descriptor space: uvfs's descriptors are exactly the stand-ins. */
static void check_fds(struct uvfs_task *t)
{
	for (int n = 0; n < NFD; n++)
		FUZZ_CHECK(u_has(t, n) == (ktab[n] == K_STANDIN));
	FUZZ_CHECK(!u_has(t, NFD));
}

/* ---------------------------------------------------------------------------------
 * The instance: as uvfs-run builds it (memfs on /tmp, uvfs's /proc), with a host
 * directory of the harness's on /h in place of the host's root.
 */
static const char *host_dir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/fuzz-uvfsrun-XXXXXX");
		FUZZ_CHECK(mkdtemp(dir) && chmod(dir, 01777) == 0);
	}
	return dir;
}

static int rm_entry(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (ftw->level == 0)
		return 0;
	return type == FTW_DP ? rmdir(p) : unlink(p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		FUZZ_CHECK(mount("none", "/dev/shm", "tmpfs", 0, "size=256m") == 0);
	/* the tracer's /proc/PID/fd/N names a stand-in: a pid other than the
	 * process's, whose /proc/TID/fd/N names its own host descriptors */
	run_tracer_pid = 1;
	run_null_fd = open("/dev/null", O_PATH | O_CLOEXEC);
	FUZZ_CHECK(run_null_fd >= 0);
	played = fork();
	FUZZ_CHECK(played >= 0);
	if (played == 0) {
		int null = open("/dev/null", O_RDWR);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setsid();
		for (int fd = 0; fd < 3; fd++)
			dup2(null, fd);
		syscall(SYS_close_range, 3, ~0u, 0);
		for (;;)
			pause();  /* killed with the harness (PR_SET_PDEATHSIG) */
	}
	return 0;
}

static struct uvfs_task *build(struct uvfs *fs, unsigned how)
{
	static const char *const policy[] = { NULL, "never", "timeout=1", "always" };
	struct uvfs_task *t = uvfs_task_new(fs);
	char f[128];
	int fd;

	FUZZ_CHECK(t);
	snprintf(f, sizeof(f), "%s/f", host_dir());
	fd = open(f, O_CREAT | O_WRONLY | O_TRUNC, 0755);
	FUZZ_CHECK(fd >= 0 && write(fd, "#!/bin/sh\n", 10) == 10 && close(fd) == 0);
	snprintf(f, sizeof(f), "%s/d", host_dir());
	FUZZ_CHECK(mkdir(f, 0755) == 0);
	FUZZ_CHECK(uvfs_mkdirat(t, AT_FDCWD, "/h", 0755) == 0);
	FUZZ_CHECK(uvfs_mount2(t, host_dir(), "/h", "host", how & 4 ? MS_RDONLY : 0,
			       policy[how % 4]) == 0);
	FUZZ_CHECK(uvfs_mkdirat(t, AT_FDCWD, "/tmp", 01777) == 0);
	FUZZ_CHECK(uvfs_mount2(t, "tmpfs", "/tmp", "tmpfs", 0, "mode=1777") == 0);
	fd = uvfs_openat(t, AT_FDCWD, "/tmp/f", O_CREAT | O_RDWR, 0644);
	FUZZ_CHECK(fd >= 0 && uvfs_write(t, fd, "0123456789", 10) == 10 && uvfs_close(t, fd) == 0);
	FUZZ_CHECK(uvfs_symlinkat(t, "f", AT_FDCWD, "/tmp/l") == 0);
	FUZZ_CHECK(uvfs_chdir(t, how & 8 ? "/h" : "/tmp") == 0);
	return t;
}

/* The harness's rules: no host mount the input chooses, no fifo (opening one
 * without a peer waits for it, forever in a single-threaded harness, as a read of an
 * empty inotify queue does: no inotify descriptor either), no descriptor
 * passing (passing.c takes the harness's own descriptors with pidfd_getfd and holds
 * uvfs files beyond the instance's life). */
static bool refused(const struct user_regs_struct *r)
{
	long nr = (long)r->orig_rax;
	char type[8];

	if (nr == SYS_sendmsg || nr == SYS_sendmmsg || nr == SYS_recvmsg || nr == SYS_recvmmsg ||
	    nr == SYS_pidfd_getfd || nr == SYS_inotify_init || nr == SYS_inotify_init1)
		return true;

	if (nr == SYS_mknod || nr == SYS_mknodat)
		return ((mode_t)(nr == SYS_mknod ? r->rsi : r->rdx) & S_IFMT) == S_IFIFO;
	return nr == SYS_mount &&
	       mem_read_str(0, r->rdx, type, sizeof(type)) == 0 && !strcmp(type, "host");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct uvfs_config cfg = { .flags = UVFS_MEMFD };  /* as uvfs-run makes it */
	struct uproc up = { 0 };
	struct proc p = { 0 };
	size_t image;

	run_fs = uvfs_new(&cfg);
	FUZZ_CHECK(run_fs);
	up.task = build(run_fs, (unsigned)take(&in, 1));
	up.threads = 1;
	up.nspid = uvfs_task_pid(up.task);
	p.tid = played;
	p.up = &up;
	p.inst_hfd = p.inst_ufd = p.watch_group = -1;
	p.attached = true;
	memset(ktab, 0, sizeof(ktab));
	ktab[0] = ktab[1] = ktab[2] = K_HOST;  /* the terminal */

	memset(mem, 0, sizeof(mem));
	image = (size_t)take(&in, 2) % 4096;
	if (image > in.n)
		image = in.n;
	memcpy(mem, in.p, image);
	in.p += image;
	in.n -= image;

	for (int steps = 0; in.n && steps < 64; steps++) {
		struct user_regs_struct r = { 0 }, was;
		unsigned k = (unsigned)take(&in, 1);
		enum action act;
		long ret;

		r.orig_rax = (unsigned long long)(k < 250 ? calls[k % NCALLS] : (long)take(&in, 2));
		r.rdi = arg(&in);
		r.rsi = arg(&in);
		r.rdx = arg(&in);
		r.r10 = arg(&in);
		r.r8 = arg(&in);
		r.r9 = arg(&in);
		r.rsp = MEM_BASE + MEM_SIZE;
		r.rax = (unsigned long long)-ENOSYS;
		if (refused(&r))
			continue;
		was = r;
		act = run_syscall(&p, &r);
		switch (act) {
		case ACT_WAIT:
			/* an open of a fifo that would wait: nothing done (waits.c makes it
			 * on a helper thread; here, with no peer, it would never end) */
			FUZZ_CHECK(run_notified((long)was.orig_rax) && !memcmp(&r, &was, sizeof(r)) &&
				   p.pending == PEND_NONE);
			break;
		case ACT_NATIVE:
			FUZZ_CHECK(!memcmp(&r, &was, sizeof(r)) && p.pending == PEND_NONE);
			kernel_native(&r);
			break;
		case ACT_SKIP:
			ret = (long)r.rax;
			FUZZ_CHECK(ret >= -4095 && p.pending == PEND_NONE);
			break;
		case ACT_EXIT_STOP:
			FUZZ_CHECK(!memcmp(&r, &was, sizeof(r)) && p.pending != PEND_NONE);
			r.rax = (unsigned long long)kernel_exit_stop(&r);
			run_syscall_exit(&p, &r);
			break;
		case ACT_REWRITTEN:
			r.rax = (unsigned long long)kernel_rewritten(&p, &r);
			run_syscall_exit(&p, &r);
			break;
		case ACT_INSTALL:
			/* SECCOMP_IOCTL_NOTIF_ADDFD: the lowest free number */
			FUZZ_CHECK(run_notified((long)was.orig_rax) && p.inst_hfd >= 0 &&
				   p.pending == PEND_NONE);
			ret = k_lowest(0, p.inst_ufd >= 0 ? K_STANDIN : K_HOST);
			close(p.inst_hfd);
			p.inst_hfd = -1;
			run_installed(&p, ret);
			FUZZ_CHECK(p.inst_ufd == -1);
			break;
		}
		p.pending = PEND_NONE;
		check_fds(up.task);
		fuzz_check_stats(run_fs);
	}
	free(p.exec_path);
	uvfs_task_exit(up.task);
	uvfs_free(run_fs);
	run_fs = NULL;
	fuzz_check_nothing_left();
	nftw(host_dir(), rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
