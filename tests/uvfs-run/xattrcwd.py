# SPDX-License-Identifier: LGPL-2.1-or-later
# xattrcwd.py - fsetxattr and fgetxattr of AT_FDCWD act on the cwd (Linux 6.18), flistxattr
# and fremovexattr of it are EBADF: under uvfs-run, uvfs's cwd, never the host's
import ctypes, os, errno
libc = ctypes.CDLL(None, use_errno=True); libc.syscall.restype = ctypes.c_long
def sc(*a):
    r = libc.syscall(*a); return r if r >= 0 else -ctypes.get_errno()
def en(r): return r if r >= 0 else errno.errorcode[-r]
buf = ctypes.create_string_buffer(256)
os.mkdir("xd"); os.chdir("xd")
print("fsetxattr AT_FDCWD", en(sc(190, -100, b"user.t", b"v", 1, 0)))
print("fgetxattr AT_FDCWD", en(sc(193, -100, b"user.t", buf, 256)), buf.value)
print("flistxattr AT_FDCWD", en(sc(196, -100, buf, 256)))
print("fremovexattr AT_FDCWD", en(sc(199, -100, b"user.t")))
print("getxattr .", os.getxattr(".", "user.t"))
print("fsetxattr AT_FDCWD bad flags", en(sc(190, -100, b"user.t", b"v", 1, 8)))
