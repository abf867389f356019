# SPDX-License-Identifier: LGPL-2.1-or-later
# openat2.py - openat2(2)'s checks of struct open_how and a plain open through it
# (test_uvfs_run.sh runs it under uvfs-run and natively; outputs must be equal).
import ctypes, os, struct
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
