# SPDX-License-Identifier: LGPL-2.1-or-later
# xattrat.py DIR - Linux 6.13's setxattrat, getxattrat, listxattrat, removexattrat and
# 6.17's file_getattr, file_setattr on a file of DIR: their checks of flags and sizes,
# path errors, a file with no extended attributes and none set.  test_uvfs_run.sh runs
# it under uvfs-run and natively; the outputs must be equal.
import ctypes, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
d = sys.argv[1]
if not os.path.exists(d + "/xf"):
    open(d + "/xf", "w").close()
    os.symlink("xf", d + "/xl")
fd = os.open(d + "/xf", os.O_RDONLY)
def call(name, *a):
    r = libc.syscall(*[ctypes.c_long(x) if isinstance(x, int) else x for x in a])
    e = ctypes.get_errno()
    print(name, r if r >= 0 else os.strerror(e))
AT = -100
p = (d + "/xf").encode(); l = (d + "/xl").encode()
val = ctypes.create_string_buffer(b"v")
args = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(val), 1, 0))
args_bad = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(val), 1, 4))
buf = ctypes.create_string_buffer(64)
gargs = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(buf), 64, 0))
call("setxattrat bad flags", 463, AT, p, 0, b"user.a", args_bad, 16)
call("setxattrat short args", 463, AT, p, 0, b"user.a", args, 8)
call("setxattrat bad at_flags", 463, AT, p, 0x10, b"user.a", args, 16)
call("getxattrat user.a", 464, AT, p, 0, b"user.a", gargs, 16)
call("getxattrat missing", 464, AT, (d + "/nope").encode(), 0, b"user.a", gargs, 16)
call("listxattrat", 465, AT, p, 0, buf, 64)  # none: uvfs keeps none, and none was set
call("listxattrat nofollow", 465, AT, l, 0x100, buf, 64)
call("removexattrat user.a", 466, AT, p, 0, b"user.a")
call("getxattrat fd empty", 464, fd, b"", 0x1000, b"user.a", gargs, 16)
fa = ctypes.create_string_buffer(32)
call("file_getattr", 468, AT, p, fa, 24, 0)
print(" ", fa.raw[:24].hex())
call("file_getattr short", 468, AT, p, fa, 16, 0)
call("file_setattr zeros", 469, AT, p, ctypes.create_string_buffer(24), 24, 0)
call("file_setattr bad at", 469, AT, p, fa, 24, 0x10)
