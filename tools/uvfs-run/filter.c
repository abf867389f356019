// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter.c - the seccomp filter: the file-system calls uvfs answers stop the process
 * for the tracer (SCMP_ACT_TRACE); everything else -- memory, signals, time, sockets,
 * pipes, and every call a descriptor of the host's makes -- runs on the kernel without
 * the tracer ever seeing it.  The list is the specification of what uvfs-run answers
 * (docs/uvfs-run.1 prints it).
 */
#include <errno.h>
#include <seccomp.h>
#include <stddef.h>

#include "run.h"

static const char *const trapped[] = {
	/* names and paths */
	"open", "openat", "openat2", "creat", "stat", "lstat", "fstat", "newfstatat",
	"statx", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getcwd",
	"chdir", "fchdir", "chroot", "mkdir", "mkdirat", "mknod", "mknodat", "rmdir",
	"unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat",
	"symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown",
	"lchown", "fchownat", "truncate", "ftruncate", "utime", "utimes", "futimesat",
	"utimensat", "statfs", "fstatfs", "umask", "execve", "execveat",
	/* mounts: uvfs's namespace, not the host's */
	"mount", "umount2", "pivot_root",
	/* extended attributes: uvfs has none (ENODATA, as tmpfs without any set); a
	 * minimal access ACL is a chmod, as the kernel stores it */
	"getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr",
	"setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
	"fremovexattr",
	/* credentials: the kernel answers, then uvfs takes what it shows */
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setfsuid",
	"setfsgid", "setgroups", "capset",
	/* descriptors */
	"getdents", "getdents64", "lseek", "read", "write", "pread64", "pwrite64",
	"readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2", "close",
	"close_range", "dup", "dup2", "dup3", "fcntl", "fsync", "fdatasync",
	/* copies inside the kernel: uvfs's files have no page cache to splice from */
	"copy_file_range", "sendfile", "splice", "tee",
};

int run_install_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int err = ctx ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < sizeof(trapped) / sizeof(trapped[0]); i++) {
		int nr = seccomp_syscall_resolve_name(trapped[i]);

		if (nr == __NR_SCMP_ERROR)
			continue;  /* not on this architecture (x86-64 has them all) */
		err = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), nr, 0);
	}
	if (!err)
		err = seccomp_load(ctx);
	seccomp_release(ctx);
	return err;
}
