# SPDX-License-Identifier: LGPL-2.1-or-later
# handles.py - name_to_handle_at and open_by_handle_at on tmpfs (run in /tmp): what
# test_uvfs_run.sh compares natively and under uvfs-run (nothing random printed:
# a handle's generation is).
import ctypes, errno, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def n2h(dirfd, path, size, flags=0, mid64=False):
    buf = ctypes.create_string_buffer(8 + 200)
    struct.pack_into("Ii", buf, 0, size, 0)
    mid = ctypes.c_uint64(0xffffffffffffffff)
    r = libc.syscall(303, dirfd, path, buf, ctypes.byref(mid), flags)
    e = ctypes.get_errno()
    hb, ht = struct.unpack_from("Ii", buf, 0)
    m = mid.value if mid64 else ctypes.c_int32(mid.value & 0xffffffff).value
    return (r if r >= 0 else errno.errorcode[e]), hb, ht, buf.raw[:8+hb], m
def oh(mfd, h, flags):
    buf = ctypes.create_string_buffer(h, 8 + 200)
    r = libc.syscall(304, mfd, buf, flags)
    e = ctypes.get_errno()
    if r < 0: return errno.errorcode[e]
    try: p = os.readlink("/proc/self/fd/%d" % r)
    except OSError as x: p = "readlink " + errno.errorcode[x.errno]
    os.close(r)
    return "fd " + p
def mk(hb, ht, body): return struct.pack("Ii", hb, ht) + body
os.chdir("/tmp")
os.mkdir("d"); open("d/f", "w").close(); os.symlink("f", "d/l")
P = lambda *a: print(*a)
P("n2h f 12", n2h(-100, b"d/f", 12)[:3])
P("n2h f 11", n2h(-100, b"d/f", 11)[:3])
P("n2h f 0", n2h(-100, b"d/f", 0)[:3])
P("n2h l", n2h(-100, b"d/l", 128)[:3], "follow", n2h(-100, b"d/l", 128, 0x400)[:3])
P("n2h proc 129", n2h(-100, b"/proc/self", 129)[:3])
P("n2h proc FID", n2h(-100, b"/proc/self/status", 128, 0x200)[:3])
P("n2h tmp FID", n2h(-100, b"d/f", 128, 0x200)[:3])
P("n2h flags 2 (CONNECTABLE)", n2h(-100, b"d/f", 128, 0x2)[:3])
P("n2h CONNECTABLE|FID", n2h(-100, b"d/f", 128, 0x202)[:3])
P("n2h CONNECTABLE|EMPTY", n2h(-100, b"d/f", 128, 0x1002)[:3])
P("n2h flags 4", n2h(-100, b"d/f", 128, 0x4)[:3])
P("n2h flags 0x100", n2h(-100, b"d/f", 128, 0x100)[:3])
P("n2h enoent 129", n2h(-100, b"d/nope", 129)[:3])
P("n2h empty path", n2h(-100, b"", 128)[:3])
fd = os.open("d", os.O_RDONLY)
P("n2h AT_EMPTY_PATH dirfd", n2h(fd, b"", 128, 0x1000)[:3])
P("n2h dir", n2h(-100, b"d", 128)[:3])
mids = n2h(-100, b"d/f", 128); mu = n2h(-100, b"d/f", 128, 1, True)
mi = [l.split()[0] for l in open("/proc/self/mountinfo") if l.split()[4] == "/tmp"]
P("mount id matches mountinfo", str(mids[4]) == mi[-1], "unique > 0", mu[4] > 0 and mu[4] != mids[4])
hf = n2h(-100, b"d/f", 128)[3]; hd = n2h(-100, b"d", 128)[3]; hl = n2h(-100, b"d/l", 128)[3]
P("oh f", oh(-100, hf, os.O_RDONLY), oh(fd, hf, os.O_RDWR))
P("oh d", oh(-100, hd, os.O_RDONLY), oh(-100, hd, os.O_WRONLY), oh(-100, hd, os.O_RDONLY|os.O_DIRECTORY))
P("oh f O_DIRECTORY", oh(-100, hf, os.O_RDONLY|os.O_DIRECTORY))
P("oh l", oh(-100, hl, os.O_RDONLY), oh(-100, hl, os.O_PATH), oh(-100, hl, os.O_PATH|os.O_NOFOLLOW))
P("oh f O_CREAT|O_EXCL", oh(-100, hf, os.O_RDWR|os.O_CREAT|os.O_EXCL))
P("oh f O_TRUNC", oh(-100, hf, os.O_RDWR|os.O_TRUNC))
P("oh f O_TMPFILE-ish", oh(-100, hd, os.O_RDWR|0o20000000|os.O_DIRECTORY))
P("oh bytes 0", oh(-100, mk(0, 1, b""), 0), "129", oh(-100, mk(129, 1, hf[8:]), 0), "type -1", oh(-100, mk(12, -1, hf[8:]), 0))
P("oh bytes 8", oh(-100, mk(8, 1, hf[8:16]), 0), "type 2", oh(-100, mk(12, 2, hf[8:]), 0), "type 0x10001", oh(-100, mk(12, 0x10001, hf[8:]), 0))
P("oh type 0x100", oh(-100, mk(12, 0x100, hf[8:]), 0), "0x200", oh(-100, mk(12, 0x201, hf[8:]), 0))
g = struct.unpack_from("I", hf, 8)[0]
P("oh bad gen", oh(-100, mk(12, 1, struct.pack("I", g ^ 1) + hf[12:]), 0))
P("oh ebadf", oh(99, hf, 0), "oh proc mfd", oh(os.open("/proc", os.O_RDONLY), hf, 0))
P("oh bad flags", oh(-100, hf, 0x80000000))
os.rename("d/f", "d/g")
P("oh after rename", oh(-100, hf, 0))
keep = os.open("d/g", os.O_RDONLY)
os.unlink("d/g")
P("oh after unlink, open", oh(-100, hf, 0))
os.close(keep)
P("oh after last close", oh(-100, hf, 0))
os.rmdir("d") if False else None
os.unlink("d/l"); os.close(fd); os.rmdir("d")
P("oh dir removed", oh(-100, hd, 0))
os.mkdir("e"); he = n2h(-100, b"e", 128)[3]
if os.fork() == 0:
    os.setgid(65534); os.setuid(65534)
    P("unpriv n2h", n2h(-100, b"/tmp/e", 128)[:3], "oh", oh(-100, he, 0))
    os._exit(0)
os.wait()
# hard links, the IS_DIR flag, unknown type flags, a fid of /proc, a removed cwd
os.chdir("/tmp"); os.mkdir("d3"); open("d3/f", "w").close(); os.link("d3/f", "d3/h")
P("dir CONNECTABLE", n2h(-100, b"d3", 128, 2)[:3])
P("proc 11", n2h(-100, b"/proc/self", 11)[:3], "proc FID 11", n2h(-100, b"/proc/self", 11, 0x200)[:3])
P("mount id written on EOVERFLOW", n2h(-100, b"d3/f", 4)[4] != -1)
h = n2h(-100, b"d3/f", 128)[3]
P("hard link open", oh(-100, h, 0))
os.unlink("d3/f"); P("after unlink of the first name", oh(-100, h, 0))
b = bytearray(h); struct.pack_into("i", b, 4, 0x20001); P("IS_DIR on a file", oh(-100, bytes(b), 0))
struct.pack_into("i", b, 4, 0x40001); P("type flag 0x40000", oh(-100, bytes(b), 0))
struct.pack_into("i", b, 4, 0); P("type 0", oh(-100, bytes(b), 0))
P("proc fid open", oh(-100, n2h(-100, b"/proc/self/status", 128, 0x200)[3], 0))
os.chdir("d3"); hd = n2h(-100, b"/tmp/d3", 128)[3]; os.unlink("h"); os.rmdir("/tmp/d3")
P("removed cwd", oh(-100, hd, 0))
