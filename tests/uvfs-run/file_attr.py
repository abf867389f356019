# SPDX-License-Identifier: LGPL-2.1-or-later
# file_attr.py DIR - file_getattr(2) and file_setattr(2) (Linux 6.17) on tmpfs: the
# attributes chattr sets as their xflags, each settable one set and cleared, what
# tmpfs does not keep (EOPNOTSUPP), unknown flags (EINVAL), the sizes, flags and
# objects the calls refuse.  test_uvfs_run.sh compares the lines with the kernel's.
import ctypes, errno, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
os.chdir(sys.argv[1])
def call(nr, path, xflags=0, size=24, at=0, extsize=0, dfd=-100):
    buf = ctypes.create_string_buffer(struct.pack("QIIII", xflags, extsize, 0, 0, 0) + b"\0" * 4096)
    p = None if path is None else path.encode()
    r = libc.syscall(ctypes.c_long(nr), ctypes.c_long(dfd), p, buf, ctypes.c_long(size),
                     ctypes.c_long(at))
    if r < 0:
        return errno.errorcode[ctypes.get_errno()]
    return hex(struct.unpack_from("Q", buf.raw, 0)[0]) if nr == 468 else r
get = lambda path, **kw: call(468, path, **kw)
put = lambda path, xflags, **kw: call(469, path, xflags, **kw)
open("f", "w").close(); os.mkdir("d"); os.mkfifo("p"); os.symlink("f", "l")
print("get f", get("f"), "d", get("d"), "p", get("p"), "l nofollow", get("l", at=0x100))
for x in (0x8, 0x10, 0x40, 0x80, 0x8 | 0x80, 0x2, 0x20, 0x1, 0x8000, 0x200, 0x4, 1 << 33):
    print("set", hex(x), put("f", x), "get", get("f"), "clear", put("f", 0))
print("set d immutable", put("d", 0x8), get("d"), put("d", 0))
print("extsize 4096 with EXTSIZE", put("f", 0x800, extsize=4096), "without", put("f", 0, extsize=4096),
      "d EXTSIZE", put("d", 0x800), "f EXTSZINHERIT", put("f", 0x1000, extsize=4096))
print("size 23", get("f", size=23), put("f", 0, size=23), "size 4097", get("f", size=4097))
print("size 32 (zeros after)", get("f", size=32), put("f", 0, size=32))
print("an O_PATH descriptor, AT_EMPTY_PATH", get("", at=0x1000, dfd=os.open("f", os.O_PATH)), "bad at", get("f", at=0x2))
print("missing", get("nosuch"), put("nosuch", 0), "fifo", put("p", 0x80))
os.chmod("f", 0o644); pid = os.fork()
if pid == 0:
    os.setresuid(65534, 65534, 65534)
    print("not the owner", put("f", 0x80), "get", get("f"))
    sys.stdout.flush(); os._exit(0)
os.waitpid(pid, 0)
