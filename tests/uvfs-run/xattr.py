# SPDX-License-Identifier: LGPL-2.1-or-later
# xattr.py DIR [limits] - extended attributes on files of DIR (an empty directory): the
# namespaces and who may use them, XATTR_CREATE/REPLACE, sizes and ERANGE, the order
# of a list, symlinks, fifos, directories (sticky), links, renames, descriptors
# (O_PATH with the *at calls), security.capability's checks and conversions and what
# removes it (write, truncate, chown), ctime, IN_ATTRIB, immutable and append-only
# files, procfs.  With "limits": a tmpfs mounted on DIR/m with nr_inodes=8 -- the
# inode space extended attributes share with files (ENOSPC, statfs's f_ffree).
# test_uvfs_run.sh runs it as root under uvfs-run and natively, on memfs and tmpfs and
# through --bind; the outputs must be equal.
import ctypes, errno, fcntl, os, struct, sys, time

libc = ctypes.CDLL(None, use_errno=True)
d = sys.argv[1]
limits = len(sys.argv) > 2 and sys.argv[2] == "limits"


def t(label, f, *a, **k):
    try:
        r = f(*a, **k)
        if isinstance(r, list) and label.startswith("list"):
            r = [n for n in r if not n.startswith("security.selinux")]
        print(label, "->", r)
    except OSError as e:
        print(label, "->", errno.errorcode[e.errno])


def raw(label, r):
    e = ctypes.get_errno()
    print(label, "->", r if r >= 0 else errno.errorcode[e])


def sys_(*a):
    return libc.syscall(*[ctypes.c_long(x) if isinstance(x, int) else x for x in a])


def as_user(fn, uid=1000):
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            fn()
        finally:
            sys.stdout.flush()
            os._exit(0)
    os.waitpid(pid, 0)


def cap(rev, eff, root=None):
    v = struct.pack("<IIIII", rev | eff, 1 << 13, 0, 0, 0)
    return v if root is None else v + struct.pack("<I", root)


sys.stdout.reconfigure(line_buffering=True)

if limits:
    m = d + "/m"
    os.mkdir(m)
    r = libc.mount(b"t", m.encode(), b"tmpfs", 0, b"nr_inodes=8")
    raw("mount nr_inodes=8", r)
    f = m + "/f"
    open(f, "w").close()
    print("f_ffree", os.statvfs(m).f_ffree)
    t("set 900", os.setxattr, f, "user.a", b"x" * 900)
    print("f_ffree", os.statvfs(m).f_ffree)
    t("set 3000", os.setxattr, f, "user.b", b"x" * 3000)
    print("f_ffree", os.statvfs(m).f_ffree)
    t("set 3000 more", os.setxattr, f, "user.c", b"x" * 3000)
    t("replace with 6000", os.setxattr, f, "user.b", b"y" * 6000)
    print("f_ffree", os.statvfs(m).f_ffree)
    t("set 2000", os.setxattr, f, "user.d", b"x" * 2000)
    t("create existing (space taken then given back)", os.setxattr, f, "user.a", b"x", os.XATTR_CREATE)
    print("f_ffree", os.statvfs(m).f_ffree)
    for i in range(6):
        try:
            open("%s/g%d" % (m, i), "w").close()
        except OSError as e:
            print("create g%d ->" % i, errno.errorcode[e.errno])
            break
    print("f_ffree", os.statvfs(m).f_ffree)
    t("remove user.b", os.removexattr, f, "user.b")
    print("f_ffree", os.statvfs(m).f_ffree)
    t("trusted counts too", os.setxattr, f, "trusted.big", b"z" * 4000)
    print("f_ffree", os.statvfs(m).f_ffree)
    os.unlink(f)
    print("f_ffree after unlink", os.statvfs(m).f_ffree)
    t("remount nr_inodes=2", lambda: raw("", libc.mount(b"t", m.encode(), b"tmpfs", 0x20, b"nr_inodes=2")))
    libc.umount2(m.encode(), 0)
    sys.exit(0)

f = d + "/f"
open(f, "w").close()
# namespaces and names
for n in ["user.b", "user.a", "user.c", "trusted.z", "security.y", "user.aa", "user.\u00e9", "trusted.a"]:
    t("set " + n, os.setxattr, f, n, n.encode())
t("list: the order", os.listxattr, f)
for n in ["user.", "trusted.", "security.", "system.x", "foo.x", "user", "x"]:
    t("set " + n, os.setxattr, f, n, b"v")
    t("get " + n, os.getxattr, f, n)
    t("remove " + n, os.removexattr, f, n)
t("get user.none", os.getxattr, f, "user.none")
t("get user.b", os.getxattr, f, "user.b")
t("set empty", os.setxattr, f, "user.e", b"")
t("get empty", os.getxattr, f, "user.e")
raw("set NULL, 0", libc.setxattr(f.encode(), b"user.n", None, 0, 0))
t("get user.n", os.getxattr, f, "user.n")
t("create existing", os.setxattr, f, "user.a", b"x", os.XATTR_CREATE)
t("create new", os.setxattr, f, "user.new", b"x", os.XATTR_CREATE)
t("replace missing", os.setxattr, f, "user.q", b"x", os.XATTR_REPLACE)
t("replace existing", os.setxattr, f, "user.new", b"yy", os.XATTR_REPLACE)
t("get user.new", os.getxattr, f, "user.new")
raw("both flags", libc.setxattr(f.encode(), b"user.new", b"z", 1, 3))
raw("flags 4", libc.setxattr(f.encode(), b"user.new", b"z", 1, 4))
t("remove missing", os.removexattr, f, "user.q")
t("remove user.new", os.removexattr, f, "user.new")
t("name 255", os.setxattr, f, "user." + "n" * 250, b"1")
t("name 256", os.setxattr, f, "user." + "n" * 251, b"1")
t("get name 256", os.getxattr, f, "user." + "n" * 251)
t("remove name 255", os.removexattr, f, "user." + "n" * 250)
t("empty name", os.setxattr, f, "", b"1")
t("value 65537", os.setxattr, f, "user.big", b"x" * 65537)
t("value 65536", os.setxattr, f, "user.big", b"x" * 65536)
t("get big", lambda: len(os.getxattr(f, "user.big")))
t("remove big", os.removexattr, f, "user.big")
buf = ctypes.create_string_buffer(200)
os.setxattr(f, "user.long", b"abcdef")
raw("get into 3 bytes", libc.getxattr(f.encode(), b"user.long", buf, 3))
raw("get into 6 bytes", libc.getxattr(f.encode(), b"user.long", buf, 6))
print("  ", buf.raw[:6])
raw("get size 0", libc.getxattr(f.encode(), b"user.long", None, 0))
raw("list into 3 bytes", libc.listxattr(f.encode(), buf, 3))
raw("list size 0", libc.listxattr(f.encode(), None, 0))
raw("get to a bad address", libc.getxattr(f.encode(), b"user.long", ctypes.c_void_p(8), 6))
raw("set from a bad address", libc.setxattr(f.encode(), b"user.long", ctypes.c_void_p(8), 6, 0))
t("get user.long", os.getxattr, f, "user.long")
# ACLs: none kept; a minimal access ACL is the mode
t("get acl", os.getxattr, f, "system.posix_acl_access")
t("get default acl", os.getxattr, f, "system.posix_acl_default")
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, 0xffffffff)
                                      for tag, perm in ((1, 6), (4, 4), (0x20, 0)))
t("set minimal acl", os.setxattr, f, "system.posix_acl_access", acl)
print("mode", oct(os.stat(f).st_mode))
t("set default acl on a file", os.setxattr, f, "system.posix_acl_default", acl)
t("set acl of 3 bytes", os.setxattr, f, "system.posix_acl_access", b"abc")
t("set acl version 3", os.setxattr, f, "system.posix_acl_access", struct.pack("<I", 3) + acl[4:])
s = os.stat(f).st_ctime_ns
time.sleep(0.01)
t("remove acl (none)", os.removexattr, f, "system.posix_acl_access")
print("ctime changed", os.stat(f).st_ctime_ns != s)
t("remove default acl of a file", os.removexattr, f, "system.posix_acl_default")
os.chmod(f, 0o644)

# times: set and remove change the ctime alone, get and list nothing
s = os.stat(f)
time.sleep(0.01)
os.setxattr(f, "user.t", b"1")
s2 = os.stat(f)
print("set: ctime", s2.st_ctime_ns != s.st_ctime_ns, "mtime", s2.st_mtime_ns != s.st_mtime_ns)
time.sleep(0.01)
os.getxattr(f, "user.t")
os.listxattr(f)
print("get, list: ctime", os.stat(f).st_ctime_ns != s2.st_ctime_ns)
time.sleep(0.01)
t("set fails", os.setxattr, f, "user.t", b"1", os.XATTR_CREATE)
print("failed set: ctime", os.stat(f).st_ctime_ns != s2.st_ctime_ns)
os.removexattr(f, "user.t")
print("remove: ctime", os.stat(f).st_ctime_ns != s2.st_ctime_ns)

# inotify: IN_ATTRIB
ifd = libc.inotify_init1(os.O_NONBLOCK)
libc.inotify_add_watch(ifd, f.encode(), 0x4)  # IN_ATTRIB
os.setxattr(f, "user.i", b"1")
os.removexattr(f, "user.i")
t("remove (fails)", os.removexattr, f, "user.i")
ev = os.read(ifd, 4096)
print("IN_ATTRIB events", len(ev) // 16, [hex(struct.unpack_from("<iIII", ev, i)[1]) for i in range(0, len(ev), 16)])
os.close(ifd)

# symlinks, fifos, directories, links, renames
os.symlink("f", d + "/l")
t("lset user on a symlink", os.setxattr, d + "/l", "user.a", b"x", follow_symlinks=False)
t("lget user of a symlink", os.getxattr, d + "/l", "user.a", follow_symlinks=False)
t("lset trusted on a symlink", os.setxattr, d + "/l", "trusted.l", b"x", follow_symlinks=False)
t("llist a symlink", os.listxattr, d + "/l", follow_symlinks=False)
t("get through a symlink", os.getxattr, d + "/l", "user.b")
t("remove acl of a symlink", os.removexattr, d + "/l", "system.posix_acl_access", follow_symlinks=False)
os.mkfifo(d + "/p")
t("set user on a fifo", os.setxattr, d + "/p", "user.a", b"x")
t("get user of a fifo", os.getxattr, d + "/p", "user.a")
t("set trusted on a fifo", os.setxattr, d + "/p", "trusted.a", b"x")
t("list a fifo", os.listxattr, d + "/p")
os.mkdir(d + "/dir")
t("set user on a directory", os.setxattr, d + "/dir", "user.d", b"x")
t("list a directory", os.listxattr, d + "/dir")
os.link(f, d + "/hard")
t("set through a link", os.setxattr, d + "/hard", "user.h", b"h")
t("get through the other name", os.getxattr, f, "user.h")
os.rename(d + "/hard", d + "/moved")
t("after a rename", os.getxattr, d + "/moved", "user.h")
fd = os.open(d + "/moved", os.O_RDWR)
os.unlink(d + "/moved")
t("fset on a descriptor", os.setxattr, fd, "user.fd", b"1")
t("flist", os.listxattr, fd)
os.close(fd)
op = os.open(f, os.O_PATH)
t("fget on O_PATH", os.getxattr, op, "user.b")
gbuf = ctypes.create_string_buffer(64)
gargs = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(gbuf), 64, 0))
raw("getxattrat O_PATH, empty path", sys_(464, op, b"", 0x1000, b"user.b", gargs, 16))
dfd = os.open(d, os.O_RDONLY)
raw("getxattrat relative", sys_(464, dfd, b"f", 0, b"user.b", gargs, 16))
print("  ", gbuf.value)
val = ctypes.create_string_buffer(b"at")
sargs = ctypes.create_string_buffer(struct.pack("QII", ctypes.addressof(val), 2, 1))
raw("setxattrat XATTR_CREATE", sys_(463, dfd, b"f", 0, b"user.at", sargs, 16))
raw("setxattrat again", sys_(463, dfd, b"f", 0, b"user.at", sargs, 16))
raw("setxattrat O_PATH, empty path", sys_(463, op, b"", 0x1000, b"user.at", sargs, 16))
raw("listxattrat relative", sys_(465, dfd, b"f", 0, gbuf, 64))
raw("listxattrat of a symlink", sys_(465, dfd, b"l", 0x100, gbuf, 64))
print("  ", gbuf.raw[:gbuf.raw.index(b"\0\0")])
raw("removexattrat O_PATH, empty path", sys_(466, op, b"", 0x1000, b"user.at"))
raw("removexattrat", sys_(466, dfd, b"f", 0, b"user.at"))
raw("removexattrat again", sys_(466, dfd, b"f", 0, b"user.at"))
fd = os.open(f, os.O_RDONLY)
raw("getxattrat descriptor, empty path", sys_(464, fd, b"", 0x1000, b"user.b", gargs, 16))
raw("getxattrat descriptor, NULL path", sys_(464, fd, None, 0x1000, b"user.b", gargs, 16))
raw("getxattrat descriptor, empty path, no AT_EMPTY_PATH", sys_(464, fd, b"", 0, b"user.b", gargs, 16))
os.close(fd)
os.close(dfd)
os.close(op)

# security.capability
c2 = cap(0x02000000, 1)
t("cap v2", os.setxattr, f, "security.capability", c2)
t("get cap", os.getxattr, f, "security.capability")
t("cap v3, root 0", os.setxattr, f, "security.capability", cap(0x03000000, 1, 0))
t("get cap", os.getxattr, f, "security.capability")
t("cap v3, root 1000", os.setxattr, f, "security.capability", cap(0x03000000, 1, 1000))
t("get cap", os.getxattr, f, "security.capability")
t("cap v3, root -1", os.setxattr, f, "security.capability", cap(0x03000000, 1, 0xffffffff))
t("cap v2 without effective", os.setxattr, f, "security.capability", cap(0x02000000, 0))
t("get cap", os.getxattr, f, "security.capability")
t("cap of 3 bytes", os.setxattr, f, "security.capability", b"abc")
raw("cap of no bytes", libc.setxattr(f.encode(), b"security.capability", None, 0, 0))
t("cap v1", os.setxattr, f, "security.capability", cap(0x01000000, 1))
t("cap v2 of 24 bytes", os.setxattr, f, "security.capability", cap(0x02000000, 1, 0))
t("cap v2 other flags", os.setxattr, f, "security.capability", cap(0x02000000, 6))
raw("get cap into 19 bytes", libc.getxattr(f.encode(), b"security.capability", buf, 19))
raw("get cap size 0", libc.getxattr(f.encode(), b"security.capability", None, 0))
t("list", os.listxattr, f)
os.chmod(f, 0o755)
t("after chmod", os.getxattr, f, "security.capability")
os.chown(f, 1, -1)
t("after chown", os.getxattr, f, "security.capability")
os.setxattr(f, "security.capability", c2)
os.chown(f, -1, -1)
t("after chown -1 -1", os.getxattr, f, "security.capability")
os.setxattr(f, "security.capability", c2)
with open(f, "a") as fo:
    fo.write("x")
t("after a write", os.getxattr, f, "security.capability")
os.setxattr(f, "security.capability", c2)
os.truncate(f, 0)
t("after truncate", os.getxattr, f, "security.capability")
os.setxattr(f, "security.capability", c2)
os.close(os.open(f, os.O_WRONLY | os.O_TRUNC))
t("after O_TRUNC", os.getxattr, f, "security.capability")
os.setxattr(f, "security.capability", c2)
fd = os.open(f, os.O_RDONLY)
os.read(fd, 1)
os.close(fd)
t("after a read", os.getxattr, f, "security.capability")
t("remove cap", os.removexattr, f, "security.capability")
t("cap on a directory", os.setxattr, d + "/dir", "security.capability", c2)
os.chown(d + "/dir", 1, -1)
t("directory after chown", os.getxattr, d + "/dir", "security.capability")
os.chown(d + "/dir", 0, -1)

# immutable and append-only (FS_IOC_SETFLAGS)
def setflags(path, v):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, 0x40086602, struct.pack("i", v))
    finally:
        os.close(fd)


for flag, what in ((0x10, "immutable"), (0x20, "append-only")):
    setflags(f, flag)
    t(what + ": set", os.setxattr, f, "user.z", b"1")
    t(what + ": get", os.getxattr, f, "user.b")
    t(what + ": remove", os.removexattr, f, "user.b")
    t(what + ": remove acl", os.removexattr, f, "system.posix_acl_access")
    setflags(f, 0)

# another user
os.chmod(f, 0o666)
os.mkdir(d + "/sticky", 0o1777)
os.chmod(d + "/sticky", 0o1777)
os.setxattr(d + "/sticky", "user.r", b"1")
os.setxattr(f, "security.s", b"1")
os.setxattr(f, "security.capability", c2)


def user_checks():
    t("user: list", os.listxattr, f)
    t("user: get trusted", os.getxattr, f, "trusted.z")
    t("user: set trusted", os.setxattr, f, "trusted.z", b"2")
    t("user: remove trusted", os.removexattr, f, "trusted.z")
    t("user: get security", os.getxattr, f, "security.s")
    t("user: set security", os.setxattr, f, "security.s", b"2")
    t("user: remove security", os.removexattr, f, "security.s")
    t("user: get cap", os.getxattr, f, "security.capability")
    t("user: set cap", os.setxattr, f, "security.capability", c2)
    t("user: set bad cap", os.setxattr, f, "security.capability", b"abc")
    t("user: remove cap", os.removexattr, f, "security.capability")
    t("user: set user (0666)", os.setxattr, f, "user.u", b"2")
    t("user: set foo.x (0666)", os.setxattr, f, "foo.x", b"2")
    t("user: set user on a sticky directory", os.setxattr, d + "/sticky", "user.u", b"2")
    t("user: get user of a sticky directory", os.getxattr, d + "/sticky", "user.r")
    t("user: remove acl, not the owner", os.removexattr, f, "system.posix_acl_access")
    t("user: set acl, not the owner", os.setxattr, f, "system.posix_acl_access", acl)
    with open(f, "a") as fo:
        fo.write("u")


as_user(user_checks)
t("cap after the user's write", os.getxattr, f, "security.capability")
os.chmod(f, 0o600)


def user_checks_0600():
    t("user 0600: get user", os.getxattr, f, "user.b")
    t("user 0600: set foo.x", os.setxattr, f, "foo.x", b"2")
    t("user 0600: list", os.listxattr, f)
    t("user 0600: get security", os.getxattr, f, "security.s")
    t("user 0600: get acl", os.getxattr, f, "system.posix_acl_access")


as_user(user_checks_0600)
os.chmod(f, 0o4755)
os.chown(f, 1000, 1000)
os.setxattr(f, "security.capability", c2)


def owner_write():
    with open(f, "a") as fo:
        fo.write("o")


as_user(owner_write)
print("set-user-ID owner's write: mode", oct(os.stat(f).st_mode))
t("and the cap", os.getxattr, f, "security.capability")

# many names: a list longer than XATTR_LIST_MAX
g = d + "/g"
open(g, "w").close()
for i in range(300):
    try:
        os.setxattr(g, "user.%03d" % i + "x" * 240, b"")
    except OSError as e:  # ext4 has a block for them
        print("name", i, "->", errno.errorcode[e.errno])
        break
raw("list size 0", libc.listxattr(g.encode(), None, 0))
big = ctypes.create_string_buffer(70000)
raw("list into 65536", libc.listxattr(g.encode(), big, 65536))
raw("list into 70000", libc.listxattr(g.encode(), big, 70000))
raw("list into 100", libc.listxattr(g.encode(), big, 100))

# procfs keeps none
t("proc get", os.getxattr, "/proc/self/status", "user.a")
t("proc get user.", os.getxattr, "/proc/self/status", "user.")
t("proc list", os.listxattr, "/proc/self/status")
t("proc set", os.setxattr, "/proc/self/status", "user.a", b"x")
t("proc get acl", os.getxattr, "/proc/self/status", "system.posix_acl_access")
t("proc remove acl", os.removexattr, "/proc/self/status", "system.posix_acl_access")
t("proc get cap", os.getxattr, "/proc/self/status", "security.capability")
t("missing file", os.getxattr, d + "/nope", "user.a")
t("missing file, list", os.listxattr, d + "/nope")
t("through a file", os.getxattr, f + "/x", "user.a")
