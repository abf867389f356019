# SPDX-License-Identifier: LGPL-2.1-or-later
# openat2.py - openat2(2)'s checks of struct open_how and a plain open through it
# (test_uvfs_run.sh runs it under uvfs-run and natively; outputs must be equal).
import ctypes, errno, os, struct
libc = ctypes.CDLL(None, use_errno=True)
def o2(path, flags, mode, resolve, size=24, tail=b""):
    buf = ctypes.create_string_buffer(struct.pack("QQQ", flags, mode, resolve) + tail + b"\0" * 64)
    r = libc.syscall(437, -100, path.encode(), buf, size)
    return r if r >= 0 else os.strerror(ctypes.get_errno())
fd = o2("/etc/hostname", os.O_RDONLY, 0, 0)
print(type(fd) is int, os.read(fd, 4096) == open("/etc/hostname", "rb").read())
print(o2("/etc/hostname", os.O_RDONLY, 0o644, 0))
print(o2("/etc/hostname", os.O_RDONLY, 0, 0, 8))
print(o2("/etc/hostname", os.O_RDONLY, 0, 0, 32, b"\1"))
print(o2("/etc/hostname", os.O_RDONLY, 0, 0x18))
print(o2("/etc/hostname", os.O_RDONLY | (1 << 40), 0, 0))
print(o2("/tmp/new", os.O_RDWR | os.O_CREAT, 0o600, 0x20))
fd = o2("/tmp/new", os.O_RDWR | os.O_CREAT, 0o600, 0); print(type(fd) is int, oct(os.stat("/tmp/new").st_mode))
print(type(o2("/tmp/new", os.O_RDONLY, 0, 0x20)) is int)
print(o2("/nonexistent", os.O_RDONLY, 0, 0))

# The resolve flags: a tree with a symlink of each kind and a mount, every path
# under every flag, from a directory descriptor (the kernel's answers are the test)
NO_XDEV, NO_MAGICLINKS, NO_SYMLINKS, BENEATH, IN_ROOT = 1, 2, 4, 8, 16
os.makedirs("/tmp/r/d/e")
os.makedirs("/tmp/r/m")
open("/tmp/r/a", "w").close()
open("/tmp/x", "w").close()
os.symlink("a", "/tmp/r/ln")
os.symlink("/tmp/r/a", "/tmp/r/abs")
os.symlink("../x", "/tmp/r/up")
os.symlink("d/e", "/tmp/r/de")
os.symlink("/", "/tmp/r/slash")
assert libc.mount(b"none", b"/tmp/r/m", b"tmpfs", 0, None) == 0
open("/tmp/r/m/f", "w").close()
os.symlink("../a", "/tmp/r/m/back")
dfd = os.open("/tmp/r", os.O_PATH)
self_fd = os.open("/tmp/r/a", os.O_RDONLY)
# EAGAIN for RESOLVE_BENEATH and RESOLVE_IN_ROOT means that a ".." met a rename or a
# mount anywhere on the host (the kernel's rename_lock and mount_lock sequences);
# openat2(2): "the caller may choose to retry" -- and must, for an answer that does
# not depend on the rest of the machine (1 run in 7 on a busy one, without)
def o2at(dirfd, path, flags, resolve):
    buf = ctypes.create_string_buffer(struct.pack("QQQ", flags, 0, resolve))
    for _ in range(1000):
        r = libc.syscall(437, dirfd, path.encode(), buf, 24)
        if r >= 0 or ctypes.get_errno() != errno.EAGAIN:
            break
    if r < 0:
        return os.strerror(ctypes.get_errno())
    name = os.readlink("/proc/self/fd/%d" % r)
    os.close(r)
    return name
paths = ["a", "d/../a", "d/e/../../a", "ln", "abs", "up", "de/..", "slash", "../x",
         "..", ".", "/tmp/x", "/tmp/r/a", "m/f", "m/..", "m/back", "m",
         "/proc/self/fd/%d" % self_fd, "/proc/self/cwd"]
for res in (0, NO_XDEV, NO_MAGICLINKS, NO_SYMLINKS, BENEATH, IN_ROOT,
            BENEATH | NO_SYMLINKS, IN_ROOT | NO_XDEV):
    for path in paths:
        print(res, path, o2at(dfd, path, os.O_RDONLY, res))
    print(res, "O_PATH|O_NOFOLLOW ln", o2at(dfd, "ln", os.O_PATH | os.O_NOFOLLOW, res))
    print(res, "AT_FDCWD /proc/self/fd/N", o2at(-100, "/proc/self/fd/%d" % self_fd, os.O_RDONLY, res))
pfd = os.open("/proc/self/fd", os.O_PATH)
for res in (0, NO_XDEV, NO_MAGICLINKS, BENEATH, IN_ROOT):
    print(res, "fd dir: N", o2at(pfd, "%d" % self_fd, os.O_RDONLY, res))
