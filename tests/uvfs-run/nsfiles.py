# SPDX-License-Identifier: LGPL-2.1-or-later
# nsfiles.py - /proc/self/ns/TYPE followed: access, open (the namespace's own file,
# the inode stat shows, its type by NS_GET_NSTYPE), and setns(2) through it -- the
# UTS namespace joined; the mount namespace's line is where uvfs-run refuses (EPERM,
# a deliberate difference).  test_uvfs_run.sh compares the lines with the kernel's.
import ctypes, errno, fcntl, os
libc = ctypes.CDLL(None, use_errno=True)
for t in ("mnt", "pid", "net", "uts", "ipc", "user", "cgroup", "time"):
    p = "/proc/self/ns/" + t
    fd = os.open(p, os.O_RDONLY)
    print(t, "access", os.access(p, os.R_OK), "opened: the inode stat shows",
          os.fstat(fd).st_ino == os.stat(p).st_ino, "NS_GET_NSTYPE", hex(fcntl.ioctl(fd, 0xb703)))
    if t in ("uts", "mnt"):
        r = libc.setns(fd, 0)
        print(t, "setns", r if r == 0 else errno.errorcode[ctypes.get_errno()])
    os.close(fd)
try:
    os.open("/proc/self/ns/nosuch", os.O_RDONLY)
except OSError as e:
    print("no such namespace", e.strerror)
# statmount's mnt_ns_id is the namespace's NS_GET_MNTNS_ID, in a new one too (LTP's
# statmount09); and listmount of it by that id
import struct, sys
libc.syscall.restype = ctypes.c_long
def ns_ids():
    buf = ctypes.create_string_buffer(256)
    libc.statx(-100, b"/", 0, 0x4000, buf)  # STATX_MNT_ID_UNIQUE
    req = struct.pack("IIQQQ", 24, 0, struct.unpack_from("Q", buf.raw, 0x90)[0], 0x40, 0)
    sm = ctypes.create_string_buffer(512)
    r = libc.syscall(ctypes.c_long(457), ctypes.create_string_buffer(req, 32), sm,
                     ctypes.c_long(512), ctypes.c_long(0))
    fd = os.open("/proc/self/ns/mnt", os.O_RDONLY)
    kid = struct.unpack("Q", fcntl.ioctl(fd, 0x8008b705, b"\0" * 8))[0]
    os.close(fd)
    lreq = struct.pack("IIQQQ", 32, 0, 0xffffffffffffffff, 0, kid)
    ids = (ctypes.c_uint64 * 8)()
    n = libc.syscall(ctypes.c_long(458), ctypes.create_string_buffer(lreq, 32), ids,
                     ctypes.c_long(8), ctypes.c_long(0))
    return r, struct.unpack_from("Q", sm.raw, 112)[0] == kid, n > 0, kid
r, same, listed, parent = ns_ids()
print("statmount", r, "mnt_ns_id is NS_GET_MNTNS_ID's", same, "listmount by it", listed)
sys.stdout.flush()
pid = os.fork()
if pid == 0:
    libc.unshare(0x20000)  # CLONE_NEWNS
    r, same, listed, kid = ns_ids()
    print("after unshare: statmount", r, "the same", same, "listmount by it", listed,
          "a new id", kid != parent)
    sys.stdout.flush()
    os._exit(0)
os.waitpid(pid, 0)
