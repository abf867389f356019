# SPDX-License-Identifier: LGPL-2.1-or-later
# rocalls.py DIR - every call that would change a file, on the file DIR/f and the
# directory DIR/d of a read-only mount: each one's answer, one line each (issue 29,
# item 5).  test_uvfs_run.sh runs it under uvfs-run on a --ro-bind and on the
# read-only host root, and natively on a read-only bind mount of the kernel's; the
# outputs must be equal, and the host files unchanged afterwards (mode, owner, size,
# times, attributes, extended attributes).
import ctypes, errno, fcntl, os, struct, sys

libc = ctypes.CDLL(None, use_errno=True)
d = sys.argv[1]
f, dd = d + "/f", d + "/d"


def t(label, fn, *a, **k):
    try:
        r = fn(*a, **k)
        print(label, "->", 0 if r is None else r)
    except OSError as e:
        print(label, "->", errno.errorcode[e.errno])


def raw(label, r):
    print(label, "->", r if r >= 0 else errno.errorcode[ctypes.get_errno()])


def sys_(*a):
    return libc.syscall(*[ctypes.c_long(x) if isinstance(x, int) else x for x in a])


t("open O_WRONLY", os.open, f, os.O_WRONLY)
t("open O_RDWR", os.open, f, os.O_RDWR)
t("open O_RDONLY|O_TRUNC", os.open, f, os.O_RDONLY | os.O_TRUNC)
t("open O_CREAT new", os.open, d + "/new", os.O_CREAT | os.O_RDONLY, 0o644)
t("open O_TMPFILE", os.open, dd, os.O_TMPFILE | os.O_RDWR, 0o600)
fd = os.open(f, os.O_RDONLY)
op = os.open(f, os.O_PATH)
dfd = os.open(dd, os.O_RDONLY | os.O_DIRECTORY)
t("write", os.write, fd, b"x")
t("pwrite", os.pwrite, fd, b"x", 0)
t("writev", os.writev, fd, [b"x"])
t("ftruncate", os.ftruncate, fd, 0)
t("truncate", os.truncate, f, 0)
raw("fallocate", libc.fallocate(fd, 0, ctypes.c_long(0), ctypes.c_long(4096)))
raw("fallocate KEEP_SIZE", libc.fallocate(fd, 1, ctypes.c_long(0), ctypes.c_long(4096)))
raw("fallocate PUNCH_HOLE", libc.fallocate(fd, 3, ctypes.c_long(0), ctypes.c_long(1)))
t("posix_fallocate", os.posix_fallocate, fd, 0, 4096)
t("posix_fadvise", os.posix_fadvise, fd, 0, 0, os.POSIX_FADV_DONTNEED)
raw("readahead", libc.readahead(fd, ctypes.c_long(0), ctypes.c_size_t(4096)))
src = os.open("/proc/self/cmdline", os.O_RDONLY)
r, w = os.pipe()
os.write(w, b"abc")
t("copy_file_range into", os.copy_file_range, src, fd, 1)
t("sendfile into", os.sendfile, fd, src, None, 1)
t("splice into", os.splice, r, fd, 1)
t("splice out of", os.splice, fd, w, 1)
t("copy_file_range out of", os.copy_file_range, fd, w, 1)
t("sendfile out of", os.sendfile, w, fd, None, 1)
os.close(src)
# attributes by descriptor, name, link and the *at calls
t("fchmod", os.fchmod, fd, 0o600)
t("chmod", os.chmod, f, 0o600)
raw("fchmodat2 AT_EMPTY_PATH O_PATH", sys_(452, op, b"", 0o600, 0x1000))
t("fchown", os.fchown, fd, 1, 1)
t("chown", os.chown, f, 1, 1)
t("lchown", os.lchown, f, -1, -1)
t("fchownat AT_EMPTY_PATH O_PATH", lambda: os.chown(op, 1, -1))
t("futimens", os.utime, fd, (1, 1))
t("utimensat", os.utime, f, (1, 1))
t("utimensat now", os.utime, f, None)
raw("utimes", libc.utimes(f.encode(), None))
t("FS_IOC_SETFLAGS", fcntl.ioctl, fd, 0x40086602, struct.pack("i", 0x40))
t("FS_IOC_FSSETXATTR", fcntl.ioctl, fd, 0x401c5820, bytes(28))
fa = ctypes.create_string_buffer(32)
raw("file_setattr", sys_(469, -100, f.encode(), fa, 24, 0))
t("setxattr", os.setxattr, f, "user.k", b"w")
t("lsetxattr", lambda: os.setxattr(f, "user.k", b"w", follow_symlinks=False))
t("fsetxattr", os.setxattr, fd, "user.k", b"w")
t("removexattr", os.removexattr, f, "user.k")
t("fremovexattr", os.removexattr, fd, "user.k")
t("set acl", os.setxattr, f, "system.posix_acl_access",
  struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tg, p, 0xffffffff) for tg, p in ((1, 6), (4, 4), (0x20, 0))))
t("remove acl", os.removexattr, f, "system.posix_acl_access")
val = ctypes.create_string_buffer(b"w")
args = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(val), 1, 0))
raw("setxattrat", sys_(463, -100, f.encode(), 0, b"user.k", args, 16))
raw("removexattrat", sys_(466, -100, f.encode(), 0, b"user.k"))
# names
t("unlink", os.unlink, f)
t("rename", os.rename, f, d + "/g")
t("rename over", os.rename, d + "/e", f)
t("link", os.link, f, d + "/g")
t("symlink", os.symlink, "f", d + "/g")
t("mkdir", os.mkdir, d + "/g")
t("rmdir", os.rmdir, dd)
t("mknod fifo", os.mkfifo, d + "/g")
t("mkdirat", os.mkdir, "g", dir_fd=dfd)
t("unlinkat", os.unlink, "x", dir_fd=dfd)
# and what does not change the file works
t("read", os.read, fd, 5)
t("fstat size", lambda: os.fstat(fd).st_size)
t("getxattr", os.getxattr, f, "user.k")
t("listxattr", os.listxattr, f)
t("fgetxattr", os.getxattr, fd, "user.k")
t("access W_OK", os.access, f, os.W_OK)
raw("faccessat2 W_OK", sys_(439, -100, f.encode(), 2, 0))
t("access R_OK", os.access, f, os.R_OK)
