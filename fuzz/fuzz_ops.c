// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fuzz_ops.c - bytes to API calls with arbitrary arguments: every kind of call of
 * uvfs.h (files, names, descriptors, tasks, credentials, mounts and unmounts), paths
 * made of a few names, "/", ".", "..", /proc entries and raw bytes (NUL
 * included: the path ends there), every flag bit, valid, closed and huge
 * descriptors, tiny, huge and NULL buffers, several tasks (fork, exec, exit).  After
 * each call: the result is >= 0 or an errno (-4095..-1), the counters are sane;
 * after uvfs_free, nothing is left.  Fifos are never made (see fuzz_common.h).
 *
 * Built again as fuzz_hostfs (-DFUZZ_HOSTFS): the task works in /h, a host mount
 * (uvfs's host filesystem) of a fresh directory in /dev/shm, with the coherence policy
 * the first byte picks; the directory is emptied after every input.  As root it first
 * moves to a private mount namespace with a tmpfs of its own on /dev/shm, so that what
 * it does there -- and what a confinement bug would do -- stays inside.
 */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <sys/mman.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const names[] = {
	"a", "b", "d", "d/a", "d/e", "d/e/f", "/", ".", "..", "d/..", "", "/proc/self/fd/3",
	"/proc/self/fd", "/proc/1/cwd", "/proc/self/fdinfo/0", "/proc/2", "/proc/self/exe",
	"l", "d/l", "x/", "{a*255}", "{b*256}", "/../a", "//d///a//",
};

/* A path: one of names, or up to 40 raw bytes (the NUL ends it). */
static const char *path(struct input *in, char *buf)
{
	unsigned k = (unsigned)take(in, 1);

	if (k < 200) {
		const char *n = names[k % (sizeof(names) / sizeof(names[0]))];
		char *e = sysscript_expand(n);

		snprintf(buf, 300, "%s", e ? e : n);
		free(e);
		return buf;
	}
	k = (unsigned)take(in, 1) % 40;
	for (unsigned i = 0; i < k; i++)
		buf[i] = (char)take(in, 1);
	buf[k] = 0;
	return buf;
}

static int fd(struct input *in)
{
	static const int special[] = { AT_FDCWD, -1, INT_MAX, INT_MIN, 1023, 1024, 65536 };
	unsigned k = (unsigned)take(in, 1);

	return k < 240 ? (int)(k % 12) : special[k % 7];
}

static size_t count(struct input *in)
{
	static const size_t special[] = { 0, 1, 24, 64, 4096, 65536, (size_t)INT_MAX + 1,
					  SIZE_MAX };
	unsigned k = (unsigned)take(in, 1);

	return k < 128 ? k : special[k % 8];
}

#define BUF_SIZE (1u << 20)

#ifdef FUZZ_HOSTFS
#include <ftw.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* before libFuzzer starts its threads: unshare(CLONE_NEWNS) wants an fs_struct of
 * our own */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	if (geteuid() == 0 && unshare(CLONE_NEWNS) == 0 &&
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		FUZZ_CHECK(mount("none", "/dev/shm", "tmpfs", 0, "size=256m") == 0);
	return 0;
}

static int rm_entry(const char *p, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (ftw->level == 0)
		return 0;  /* the directory itself stays */
	/* a directory the input made unwritable or unsearchable: root removes it anyway */
	return type == FTW_DP ? rmdir(p) : unlink(p);
}

/* The host directory, made once; its contents removed after every input. */
static const char *host_dir(void)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/dev/shm/fuzz-hostfs-XXXXXX");
		FUZZ_CHECK(mkdtemp(dir) && chmod(dir, 01777) == 0);
	}
	return dir;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *big;
	struct input in = { data, size };
	struct uvfs_config cfg = { .max_inodes = 0 };
	struct uvfs *fs;
	struct uvfs_task *tasks[8] = { 0 };
	int ntasks = 1;

	if (!big) {
		big = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FUZZ_CHECK(big != MAP_FAILED);
	}
	{
		unsigned int first = (unsigned int)take(&in, 1);

		cfg.max_bytes = first & 1 ? 1u << 16 : 0;
		/* file data in memfds once uvfs_memfd asks (op 52): both stores */
		cfg.flags = first & 2 ? UVFS_MEMFD : 0;
	}
	fs = uvfs_new(&cfg);
	FUZZ_CHECK(fs);
	tasks[0] = uvfs_task_new(fs);
	FUZZ_CHECK(tasks[0]);
#ifdef FUZZ_HOSTFS
	{
		static const char *const policy[] = { NULL, "never", "timeout=1", "always" };

		FUZZ_CHECK(uvfs_mkdirat(tasks[0], AT_FDCWD, "/h", 0755) == 0);
		FUZZ_CHECK(uvfs_mount2(tasks[0], host_dir(), "/h", "host", 0,
				       policy[take(&in, 1) % 4]) == 0);
		FUZZ_CHECK(uvfs_chdir(tasks[0], "/h") == 0);
	}
#endif
	/* an open or truncate a lease is in the way of would wait for its holder (this
	 * very thread): under nowait it says -UVFS_EWOULDWAIT, having done nothing */
	uvfs_set_nowait(1);
	for (int steps = 0; in.n && steps < 200; steps++) {
		unsigned op = (unsigned)take(&in, 1);
		struct uvfs_task *t = tasks[take(&in, 1) % (unsigned)ntasks];
		char p1[300], p2[300];
		size_t c = count(&in);
		/* a count the buffer holds, or a NULL buffer (EFAULT is promised) */
		char *buf = take(&in, 1) == 0xff ? NULL : big;
		long r = 0;
		struct stat st;
		struct timespec ts[2] = { { (long)take(&in, 4), (long)take(&in, 4) },
					  { (long)take(&in, 1) - 2, UTIME_OMIT } };

		/* a huge count only with the NULL buffer: nothing may be copied then */
		if (buf && c > BUF_SIZE)
			c = BUF_SIZE;
		switch (op % 57) {
		case 0: r = uvfs_openat(t, fd(&in), path(&in, p1), (int)take(&in, 4), (mode_t)take(&in, 2)); break;
		case 1: r = uvfs_close(t, fd(&in)); break;
		case 2: r = uvfs_read(t, fd(&in), buf, c); break;
		case 3: r = uvfs_pread(t, fd(&in), buf, c, (off_t)take(&in, 8)); break;
		case 4: r = uvfs_write(t, fd(&in), buf, c); break;
		case 5: r = uvfs_pwrite(t, fd(&in), buf, c, (off_t)take(&in, 8)); break;
		case 6: r = uvfs_lseek(t, fd(&in), (off_t)take(&in, 8), (int)take(&in, 1) % 6); break;
		case 7: r = uvfs_ftruncate(t, fd(&in), (off_t)(take(&in, 3))); break;
		case 8: r = uvfs_truncate(t, path(&in, p1), (off_t)take(&in, 8)); break;
		case 9: r = uvfs_fsync(t, fd(&in)); break;
		case 10: r = uvfs_renameat2(t, fd(&in), path(&in, p1), fd(&in), path(&in, p2), (unsigned)take(&in, 1)); break;
		case 11: r = uvfs_unlinkat(t, fd(&in), path(&in, p1), (int)take(&in, 2)); break;
		case 12: r = uvfs_mkdirat(t, fd(&in), path(&in, p1), (mode_t)take(&in, 2)); break;
		case 13: {
			mode_t m = (mode_t)take(&in, 2);

			if ((m & S_IFMT) == S_IFIFO)
				m &= ~S_IFMT;
			r = uvfs_mknodat(t, fd(&in), path(&in, p1), m, (dev_t)take(&in, 2));
			break;
		}
		case 14: r = uvfs_symlinkat(t, path(&in, p2), fd(&in), path(&in, p1)); break;
		case 15: r = uvfs_readlinkat(t, fd(&in), path(&in, p1), buf, c); break;
		case 16: r = uvfs_linkat(t, fd(&in), path(&in, p1), fd(&in), path(&in, p2), (int)take(&in, 2)); break;
		case 17: r = uvfs_fstatat(t, fd(&in), take(&in, 1) == 0xff ? NULL : path(&in, p1),
					  take(&in, 1) == 0xff ? NULL : &st, (int)take(&in, 2)); break;
		case 18: r = uvfs_fstat(t, fd(&in), take(&in, 1) == 0xff ? NULL : &st); break;
		case 19: r = uvfs_getdents64(t, fd(&in), buf, c); break;
		case 20: r = uvfs_getcwd(t, buf, c); break;
		case 21: r = uvfs_chdir(t, path(&in, p1)); break;
		case 22: r = uvfs_fchdir(t, fd(&in)); break;
		case 23: r = uvfs_fchmodat(t, fd(&in), path(&in, p1), (mode_t)take(&in, 2), (int)take(&in, 2)); break;
		case 24: r = uvfs_fchownat(t, fd(&in), path(&in, p1), (uid_t)take(&in, 1) - 1, (gid_t)take(&in, 1) - 1, (int)take(&in, 2)); break;
		case 25: r = uvfs_utimensat(t, fd(&in), take(&in, 1) & 1 ? NULL : path(&in, p1),
					    take(&in, 1) & 1 ? NULL : ts, (int)take(&in, 2)); break;
		case 26: r = uvfs_dup(t, fd(&in)); break;
		case 27: r = uvfs_dup3(t, fd(&in), fd(&in), (int)take(&in, 4)); break;
		case 28: {
			static const int cmds[] = { F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL,
						    F_SETFL, 12345, F_SETLEASE, F_GETLEASE };
			int cmd = cmds[take(&in, 1) % 9];

			/* a lease's type is 0..2: mostly those, for the breaks to come */
			r = uvfs_fcntl(t, fd(&in), cmd, cmd == F_SETLEASE ? (long)(take(&in, 1) % 4)
									   : (long)take(&in, 8));
			break;
		}
		case 29: r = uvfs_chroot(t, path(&in, p1)); break;
		case 30: r = uvfs_task_exec(t, path(&in, p1)); break;
		case 31: r = uvfs_readlink_fd(t, fd(&in), buf, c); break;
		case 32: r = uvfs_readlink_cwd(t, buf, c); break;
		case 33: r = uvfs_readlink_exe(t, buf, c); break;
		case 34: r = uvfs_mount(t, take(&in, 1) & 1 ? "tmpfs" : "proc", path(&in, p1), 0,
					take(&in, 1), take(&in, 2)); break;
		case 35:
			if (ntasks < 8 && (tasks[ntasks] = uvfs_task_fork(t)))
				ntasks++;
			break;
		case 36:
			if (ntasks > 1) {
				uvfs_task_exit(tasks[--ntasks]);
				tasks[ntasks] = NULL;
			}
			break;
		case 37: r = uvfs_task_setcreds(t, (uid_t)take(&in, 1), (gid_t)take(&in, 1)); break;
		case 38: uvfs_umask(t, (mode_t)take(&in, 2)); break;
		case 39: {
			static const char *const types[] = { "tmpfs", "proc", "memfs", "nosuch", NULL };
			static const char *const data[] = { NULL, "", "size=1m", "ro,nr_inodes=3",
							    "mode=0700,uid=5", "size=1%,huge=never",
							    "x=y", "size=-1" };
			unsigned k = (unsigned)take(&in, 1);

			/* every bit of the flags; the source a path (binds, moves) or none;
			 * with 0x40 the target's missing directories made (stubs on /h) */
			r = (k & 0x40 ? uvfs_mount2_mkdirs : uvfs_mount2)(
				t, k & 0x80 ? path(&in, p2) : NULL, path(&in, p1), types[k % 5],
				(unsigned long)take(&in, 4), data[(k >> 3) & 7]);
			break;
		}
		case 40: r = uvfs_umount2(t, path(&in, p1), (int)take(&in, 1)); break;
		case 41: r = uvfs_faccessat2(t, fd(&in), path(&in, p1), (int)take(&in, 1),
					     (int)take(&in, 2)); break;
		case 42: r = uvfs_setresuid(t, (uid_t)take(&in, 1) - 1, (uid_t)take(&in, 1) - 1,
					    (uid_t)take(&in, 1) - 1); break;
		case 43: r = uvfs_setresgid(t, (gid_t)take(&in, 1) - 1, (gid_t)take(&in, 1) - 1,
					    (gid_t)take(&in, 1) - 1); break;
		case 44: {
			gid_t g[3] = { (gid_t)take(&in, 1), (gid_t)take(&in, 1) - 1, 100 };

			r = uvfs_setgroups(t, take(&in, 1) % 4, take(&in, 1) == 0xff ? NULL : g);
			break;
		}
		case 45: {
			struct uvfs_caps caps = { take(&in, 8), take(&in, 8), take(&in, 8) };

			r = uvfs_capset(t, &caps);
			break;
		}
		case 46: r = uvfs_setfsuid(t, (uid_t)take(&in, 1) - 1); break;
		case 47: {
			/* a struct open_how of 24 bytes and what follows it: a larger
			 * struct's tail, zero or not */
			static const size_t sizes[] = { 24, 32, 8, 4096, 4097, 25 };
			uint64_t how[512 + 1] = { take(&in, 4) | (take(&in, 1) == 0xff ? 1ull << 40 : 0),
						  take(&in, 2), take(&in, 1) % 64 };

			how[3] = take(&in, 1) == 0xff;
			r = uvfs_openat2(t, fd(&in), path(&in, p1), take(&in, 1) == 0xff ? NULL :
					 (const struct uvfs_open_how *)how, sizes[take(&in, 1) % 6]);
			break;
		}
		case 48: {
			static const unsigned long flags[] = { 0, CLONE_FS, CLONE_FILES,
							       CLONE_FS | CLONE_FILES, CLONE_VM };

			if (ntasks < 8 && (tasks[ntasks] = uvfs_task_clone(t, 0, flags[take(&in, 1) % 5])))
				ntasks++;
			break;
		}
		case 49: {
			static const int flags[] = { CLONE_FS, CLONE_FILES, CLONE_NEWNS,
						     CLONE_FS | CLONE_FILES, CLONE_NEWPID };

			r = uvfs_unshare(t, flags[take(&in, 1) % 5]);
			break;
		}
		/* any offset, a length of up to 16 MiB: memfs has no size limit here, and a
		 * length of gigabytes would be allocated (libFuzzer's 2 GB limit) */
		case 51: r = uvfs_fallocate(t, fd(&in), (int)take(&in, 1) % 4, (off_t)take(&in, 8),
					    (off_t)take(&in, 3)); break;
		case 52: r = uvfs_memfd(t, fd(&in)); break;
		case 53: case 54: case 55: case 56: {
			/* extended attributes: the names of every namespace, a bare prefix,
			 * an unknown one, the capability (whose value the buffer rarely
			 * makes valid), an ACL; values up to past XATTR_SIZE_MAX */
			static const char *const names[] = {
				"user.a", "user.b", "trusted.t", "security.s", "security.capability",
				"system.posix_acl_access", "system.posix_acl_default", "user.", "x.y", "",
			};
			const char *name = names[take(&in, 1) % 10];
			const char *p = take(&in, 1) & 1 ? "" : path(&in, p1);
			int at = (int)take(&in, 2);

			if (op % 57 == 53)
				r = uvfs_setxattrat(t, fd(&in), p, at, name, buf, c, (int)take(&in, 1) % 4);
			else if (op % 57 == 54)
				r = uvfs_getxattrat(t, fd(&in), p, at, name, buf, c);
			else if (op % 57 == 55)
				r = uvfs_listxattrat(t, fd(&in), p, at, buf, c);
			else
				r = uvfs_removexattrat(t, fd(&in), p, at, name);
			break;
		}
		default: r = uvfs_readlink_root(t, buf, c); break;
		}
		FUZZ_CHECK(r >= -4095);
		fuzz_check_stats(fs);
	}
	uvfs_free(fs);
	fuzz_check_nothing_left();
#ifdef FUZZ_HOSTFS
	nftw(host_dir(), rm_entry, 16, FTW_DEPTH | FTW_PHYS);
#endif
	return 0;
}
