# SPDX-License-Identifier: LGPL-2.1-or-later
#
# newmount.py - the new mount API (Linux 5.2+): fsopen, fsconfig, fsmount,
# move_mount, open_tree, mount_setattr, and statmount, listmount (6.8+), each flag
# and each error in the kernel's order, run in the current directory (a fresh
# tmpfs); mount ids and peer groups as what they name, not their numbers.  Prints
# every answer; the kernel's output is the specification.
import ctypes, errno, os, struct

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
NR = dict(open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432,
          fspick=433, mount_setattr=442, open_tree_attr=467)
AT_FDCWD = -100
AT_EMPTY_PATH, AT_RECURSIVE, AT_SYMLINK_NOFOLLOW = 0x1000, 0x8000, 0x100
OPEN_TREE_CLONE = 1
FSCONFIG = dict(SET_FLAG=0, SET_STRING=1, SET_BINARY=2, SET_PATH=3, SET_PATH_EMPTY=4,
                SET_FD=5, CMD_CREATE=6, CMD_RECONFIGURE=7, CMD_CREATE_EXCL=8)
F_EMPTY = 0x4
RDONLY, NOSUID, NODEV, NOEXEC, NOATIME, STRICTATIME, NODIRATIME = 1, 2, 4, 8, 0x10, 0x20, 0x80
MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE = 1 << 20, 1 << 19, 1 << 18, 1 << 17
fds = {}


def arg(v):
    if v is None:
        return ctypes.c_void_p(0)
    if isinstance(v, str):
        return ctypes.c_char_p(v.encode())
    if isinstance(v, bytes):
        return ctypes.c_char_p(v)
    if isinstance(v, ctypes.Array):
        return v
    return ctypes.c_long(v)


def call(name, *args):
    r = libc.syscall(ctypes.c_long(NR[name]), *[arg(a) for a in args])
    return r if r >= 0 else -ctypes.get_errno()


def show(label, r, fd=False):
    if r < 0:
        print(label, errno.errorcode[-r])
    elif fd:
        # a descriptor: the lowest free number, as the kernel gives it
        print(label, "fd", r, os.readlink("/proc/self/fd/%d" % r),
              "O_PATH" if os.O_PATH & int(open("/proc/self/fdinfo/%d" % r).read().split()[3], 8)
              else "", "cloexec" if not os.get_inheritable(r) else "")
    else:
        print(label, r)
    return r


def mountinfo():
    here = os.getcwd()
    groups = {}
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        if not (f[4] + "/").startswith(here + "/") or f[4] == here:
            continue
        i = f.index("-")
        opt = []
        for o in f[6:i]:
            k, _, v = o.partition(":")
            opt.append("%s:g%d" % (k, groups.setdefault(v, len(groups) + 1)) if v else o)
        print("  ", f[4][len(here):], f[3], f[5], *opt, "-", *f[i + 1:])


def mattr(set_=0, clr=0, prop=0, size=32, extra=b""):
    b = struct.pack("QQQQ", set_, clr, prop, 0) + extra
    return ctypes.create_string_buffer(b, len(b)), size


for d in ("dst", "dst2", "dst3", "dst4", "t"):
    os.mkdir(d)
open("plain", "w").close()
plain = os.open("plain", os.O_RDONLY)

print("== fsopen")
show("fsopen nope", call("fsopen", "nope", 0))
show("fsopen flags 2", call("fsopen", "tmpfs", 2))
fc = show("fsopen tmpfs", call("fsopen", "tmpfs", 0), fd=True)
fc2 = show("fsopen tmpfs cloexec", call("fsopen", "tmpfs", 1), fd=True)

print("== fsconfig")
C = FSCONFIG
show("bad cmd", call("fsconfig", fc, 99, None, None, 0))
show("fd -1", call("fsconfig", -1, C["SET_FLAG"], "ro", None, 0))
show("fd 1000", call("fsconfig", 1000, C["SET_FLAG"], "ro", None, 0))
show("a plain file", call("fsconfig", plain, C["SET_FLAG"], "ro", None, 0))
show("flag, no key", call("fsconfig", fc, C["SET_FLAG"], None, None, 0))
show("flag with value", call("fsconfig", fc, C["SET_FLAG"], "ro", "x", 0))
show("flag with aux", call("fsconfig", fc, C["SET_FLAG"], "ro", None, 1))
show("string, no value", call("fsconfig", fc, C["SET_STRING"], "size", None, 0))
show("string with aux", call("fsconfig", fc, C["SET_STRING"], "size", "1m", 1))
show("binary aux 0", call("fsconfig", fc, C["SET_BINARY"], "size", "1m", 0))
show("path aux -5", call("fsconfig", fc, C["SET_PATH"], "size", "x", -5))
show("fd with value", call("fsconfig", fc, C["SET_FD"], "size", "x", 0))
show("create with key", call("fsconfig", fc, C["CMD_CREATE"], "size", None, 0))
show("unknown string", call("fsconfig", fc, C["SET_STRING"], "nope", "1", 0))
show("unknown flag", call("fsconfig", fc, C["SET_FLAG"], "nope", None, 0))
show("size as a flag", call("fsconfig", fc, C["SET_FLAG"], "size", None, 0))
show("bad size", call("fsconfig", fc, C["SET_STRING"], "size", "lots", 0))
show("binary size", call("fsconfig", fc, C["SET_BINARY"], "size", "1m", 2))
show("path size", call("fsconfig", fc, C["SET_PATH"], "size", "/", AT_FDCWD))
show("fd size", call("fsconfig", fc, C["SET_FD"], "size", None, plain))
show("size 1m", call("fsconfig", fc, C["SET_STRING"], "size", "1m", 0))
show("mode 0700", call("fsconfig", fc, C["SET_STRING"], "mode", "0700", 0))
show("source", call("fsconfig", fc, C["SET_STRING"], "source", "newsrc", 0))
show("source again", call("fsconfig", fc, C["SET_STRING"], "source", "other", 0))
show("nodev as a flag (a mount flag)", call("fsconfig", fc, C["SET_FLAG"], "nodev", None, 0))
show("sync flag", call("fsconfig", fc, C["SET_FLAG"], "sync", None, 0))
show("fsmount before create", call("fsmount", fc, 0, 0))
show("reconfigure before create", call("fsconfig", fc, C["CMD_RECONFIGURE"], None, None, 0))
show("create", call("fsconfig", fc, C["CMD_CREATE"], None, None, 0))
show("create again", call("fsconfig", fc, C["CMD_CREATE"], None, None, 0))
show("size after create", call("fsconfig", fc, C["SET_STRING"], "size", "2m", 0))
show("create_excl tmpfs", call("fsconfig", fc2, C["CMD_CREATE_EXCL"], None, None, 0))

print("== fsmount")
show("flags 2", call("fsmount", fc, 2, 0))
show("attr 0x400", call("fsmount", fc, 0, 0x400))
show("noatime|strictatime", call("fsmount", fc, 0, NOATIME | STRICTATIME))
show("fd 1000", call("fsmount", 1000, 0, 0))
show("a plain file", call("fsmount", plain, 0, 0))
mfd = show("fsmount nodev,noatime", call("fsmount", fc, 1, NODEV | NOATIME), fd=True)
show("fsmount again", call("fsmount", fc, 0, 0))
print("detached root mode", oct(os.stat(mfd).st_mode))
os.close(os.open("made-in-detached", os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=mfd))
mountinfo()

print("== move_mount")
show("bad flags", call("move_mount", mfd, "", AT_FDCWD, "dst", 0x1000))
show("empty path, no flag", call("move_mount", mfd, "", AT_FDCWD, "dst", 0))
show("missing target", call("move_mount", mfd, "", AT_FDCWD, "missing", F_EMPTY))
show("onto a file", call("move_mount", mfd, "", AT_FDCWD, "plain", F_EMPTY))
show("fd 1000", call("move_mount", 1000, "", AT_FDCWD, "dst", F_EMPTY))
show("beneath|set_group", call("move_mount", mfd, "", AT_FDCWD, "dst", F_EMPTY | 0x300))
show("move_mount to dst", call("move_mount", mfd, "", AT_FDCWD, "dst", F_EMPTY))
print("dst has", sorted(os.listdir("dst")))
mountinfo()
show("again, to dst2 (a move)", call("move_mount", mfd, "", AT_FDCWD, "dst2", F_EMPTY))
show("not a mount's root", call("move_mount", AT_FDCWD, "t", AT_FDCWD, "dst", 0))
mountinfo()
os.close(mfd)

print("== open_tree")
show("bad flags", call("open_tree", AT_FDCWD, "dst2", 4))
show("recursive without clone", call("open_tree", AT_FDCWD, "dst2", AT_RECURSIVE))
show("missing", call("open_tree", AT_FDCWD, "missing", 0))
p = show("no clone", call("open_tree", AT_FDCWD, "dst2", 0), fd=True)
os.close(p)
t1 = show("clone", call("open_tree", AT_FDCWD, "dst2", OPEN_TREE_CLONE | os.O_CLOEXEC), fd=True)
print("clone has", sorted(os.listdir("/proc/self/fd/%d" % t1)))
os.mkdir("dst2/sub")
t2 = show("clone of a subdirectory", call("open_tree", AT_FDCWD, "dst2/sub", OPEN_TREE_CLONE), fd=True)
t3 = show("clone, dropped", call("open_tree", AT_FDCWD, "dst2", OPEN_TREE_CLONE), fd=True)
os.close(t3)
show("move clone to dst3", call("move_mount", t1, "", AT_FDCWD, "dst3", F_EMPTY))
show("move subdir clone to dst4", call("move_mount", t2, "", AT_FDCWD, "dst4", F_EMPTY))
os.close(t1)
os.close(t2)
mountinfo()

print("== mount_setattr")
a, n = mattr(RDONLY)
show("flags 1", call("mount_setattr", AT_FDCWD, "dst3", 1, a, n))
show("size 8", call("mount_setattr", AT_FDCWD, "dst3", 0, a, 8))
show("size 5000", call("mount_setattr", AT_FDCWD, "dst3", 0, a, 5000))
a2, _ = mattr(RDONLY, extra=b"\1" + bytes(7))
show("size 40, not zero", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 40))
a2, _ = mattr(extra=bytes(8))
show("nothing to do, not a mount", call("mount_setattr", AT_FDCWD, "t", 0, a2, 40))
a2, _ = mattr(0x400)
show("unknown attr", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 32))
a2, _ = mattr(RDONLY, RDONLY)
show("set and clear", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 32))
a2, _ = mattr(0, 0, 1)
show("propagation 1", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 32))
a2, _ = mattr(0, 0, MS_SHARED | MS_SLAVE)
show("two types", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 32))
a2, _ = mattr(NOATIME)
show("noatime, atime not cleared", call("mount_setattr", AT_FDCWD, "dst3", 0, a2, 32))
show("not a mount's root", call("mount_setattr", AT_FDCWD, "t", 0, a, 32))
show("missing", call("mount_setattr", AT_FDCWD, "missing", 0, a, 32))
show("rdonly", call("mount_setattr", AT_FDCWD, "dst3", 0, a, 32))
a2, _ = mattr(NOATIME, 0x70, MS_SHARED)
show("noatime, shared", call("mount_setattr", AT_FDCWD, "dst4", 0, a2, 32))
os.mkdir("dst2/sub2")
os.close(os.open("dst2/w", os.O_CREAT | os.O_WRONLY, 0o644))
w = os.open("dst2/w", os.O_WRONLY)
a2, _ = mattr(RDONLY)
show("rdonly with a writer", call("mount_setattr", AT_FDCWD, "dst2", 0, a2, 32))
os.close(w)
a2, _ = mattr(NOEXEC | NOSUID, RDONLY, MS_UNBINDABLE)
show("recursive", call("mount_setattr", AT_FDCWD, "dst3", AT_RECURSIVE, a2, 32))
show("clone of unbindable", call("open_tree", AT_FDCWD, "dst3", OPEN_TREE_CLONE))
mountinfo()

print("== reconfiguration after fsmount")
show("create after fsmount", call("fsconfig", fc, C["CMD_CREATE"], None, None, 0))
show("size 2m", call("fsconfig", fc, C["SET_STRING"], "size", "2m", 0))
show("lazytime", call("fsconfig", fc, C["SET_FLAG"], "lazytime", None, 0))
show("source", call("fsconfig", fc, C["SET_STRING"], "source", "again", 0))
show("reconfigure", call("fsconfig", fc, C["CMD_RECONFIGURE"], None, None, 0))
show("reconfigure again", call("fsconfig", fc, C["CMD_RECONFIGURE"], None, None, 0))
os.close(fc)
os.close(fc2)
mountinfo()

print("== mount(2)'s superblock flags")
libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_char_p]
os.mkdir("q")
show("mount sync,dirsync,mand,lazytime", libc.mount(b"q", b"q", b"tmpfs", 0, b"sync,dirsync,mand,lazytime"))
mountinfo()
show("remount nolazytime", libc.mount(None, b"q", None, 1 << 5, b"nolazytime"))  # MS_REMOUNT
mountinfo()

print("== a clone of a shared mount, and MOVE_MOUNT_SET_GROUP")
os.mkdir("dst5")
os.mkdir("dst6")
t = show("clone of dst4", call("open_tree", AT_FDCWD, "dst4", OPEN_TREE_CLONE), fd=True)
show("attached", call("move_mount", t, "", AT_FDCWD, "dst5", F_EMPTY))
os.close(t)
t = show("clone of dst2", call("open_tree", AT_FDCWD, "dst2", OPEN_TREE_CLONE), fd=True)
show("attached", call("move_mount", t, "", AT_FDCWD, "dst6", F_EMPTY))
os.close(t)
show("set group: from private", call("move_mount", AT_FDCWD, "dst2", AT_FDCWD, "dst6", 0x100))
show("set group: root not under", call("move_mount", AT_FDCWD, "dst4", AT_FDCWD, "dst6", 0x100))
show("set group: not a root", call("move_mount", AT_FDCWD, "dst4", AT_FDCWD, "dst2/sub", 0x100))
a2, _ = mattr(0, 0, MS_SHARED)
show("dst6 shared", call("mount_setattr", AT_FDCWD, "dst6", 0, a2, 32))
show("set group: to shared", call("move_mount", AT_FDCWD, "dst6", AT_FDCWD, "dst6", 0x100))
show("set group", call("move_mount", AT_FDCWD, "dst6", AT_FDCWD, "dst2", 0x100))
mountinfo()

print("== which generic flags a reconfiguration replaces")
for i, (create, reconf) in enumerate([(["sync"], []), (["sync"], ["lazytime"]), ([], ["sync"]),
                                      (["dirsync", "lazytime"], ["sync"]), (["sync"], ["ro"])]):
    c = call("fsopen", "tmpfs", 0)
    for f in create:
        call("fsconfig", c, C["SET_FLAG"], f, None, 0)
    call("fsconfig", c, C["CMD_CREATE"], None, None, 0)
    m = call("fsmount", c, 0, 0)
    os.mkdir("r%d" % i)
    call("move_mount", m, "", AT_FDCWD, "r%d" % i, F_EMPTY)
    for f in reconf:
        show("  " + f, call("fsconfig", c, C["SET_FLAG"], f, None, 0))
    show("%s then %s: reconfigure" % (create, reconf),
         call("fsconfig", c, C["CMD_RECONFIGURE"], None, None, 0))
    show("  and again", call("fsconfig", c, C["CMD_RECONFIGURE"], None, None, 0))
    os.close(m)
    os.close(c)
mountinfo()

print("== fspick")
show("flags 16", call("fspick", AT_FDCWD, "dst2", 16))
show("missing", call("fspick", AT_FDCWD, "missing", 0))
show("not a mount's root", call("fspick", AT_FDCWD, "t", 0))
pk = show("fspick dst2", call("fspick", AT_FDCWD, "dst2", 1), fd=True)
show("create", call("fsconfig", pk, C["CMD_CREATE"], None, None, 0))
show("fsmount", call("fsmount", pk, 0, 0))
show("size 3m", call("fsconfig", pk, C["SET_STRING"], "size", "3m", 0))
show("ro", call("fsconfig", pk, C["SET_FLAG"], "ro", None, 0))
show("reconfigure", call("fsconfig", pk, C["CMD_RECONFIGURE"], None, None, 0))
os.close(pk)
pk = call("fspick", AT_FDCWD, "dst2", 0)
show("rw", call("fsconfig", pk, C["SET_FLAG"], "rw", None, 0))
show("reconfigure", call("fsconfig", pk, C["CMD_RECONFIGURE"], None, None, 0))
os.close(pk)
mountinfo()

print("== open_tree_attr")
a2, _ = mattr(RDONLY | NOEXEC, 0, MS_SHARED)
show("NULL attr, size 32", call("open_tree_attr", AT_FDCWD, "dst2", OPEN_TREE_CLONE, None, 32))
show("NULL attr, size 0", call("open_tree_attr", AT_FDCWD, "dst2", OPEN_TREE_CLONE, None, 0), fd=True)
show("size 8", call("open_tree_attr", AT_FDCWD, "dst2", OPEN_TREE_CLONE, a2, 8))
show("bad flags", call("open_tree_attr", AT_FDCWD, "dst2", 4, a2, 32))
a3, _ = mattr(0x400)
show("unknown attr", call("open_tree_attr", AT_FDCWD, "dst2", OPEN_TREE_CLONE, a3, 32))
os.mkdir("dst7")
t = show("clone ro,noexec,shared", call("open_tree_attr", AT_FDCWD, "dst2", OPEN_TREE_CLONE, a2, 32), fd=True)
show("attached", call("move_mount", t, "", AT_FDCWD, "dst7", F_EMPTY))
os.close(t)
a3, _ = mattr(NOSUID)
t = show("no clone, nosuid", call("open_tree_attr", AT_FDCWD, "dst6", 0, a3, 32), fd=True)
os.close(t)
mountinfo()

print("== statmount, listmount")
SM_FMT = "IIQIIQIIQQIIQQQQQIIQIIIIIIQIIII"
SM_NAMES = ("size mnt_opts mask sb_dev_major sb_dev_minor sb_magic sb_flags fs_type mnt_id "
            "mnt_parent_id mnt_id_old mnt_parent_id_old mnt_attr mnt_propagation mnt_peer_group "
            "mnt_master propagate_from mnt_root mnt_point mnt_ns_id fs_subtype sb_source opt_num "
            "opt_array opt_sec_num opt_sec_array supported_mask uidmap_num uidmap gidmap_num "
            "gidmap").split()
LSMT_ROOT = 0xffffffffffffffff


def uid(path):
    buf = ctypes.create_string_buffer(256)
    libc.statx(AT_FDCWD, path.encode(), 0, 0x4000, buf)  # STATX_MNT_ID_UNIQUE
    return struct.unpack_from("Q", buf.raw, 0x90)[0]


def req(mnt_id, param, size=24, spare=0, ns=0, extra=b""):
    b = struct.pack("IIQQQ", size, spare, mnt_id, param, ns) + extra
    return ctypes.create_string_buffer(b, len(b))


def statmount(mnt_id, mask, bufsize=4096, flags=0, **kw):
    buf = ctypes.create_string_buffer(max(bufsize, 1))
    r = call_nr(457, req(mnt_id, mask, **kw), buf, bufsize, flags)
    return r, buf.raw


def listmount(mnt_id, last=0, n=64, flags=0, **kw):
    ids = (ctypes.c_uint64 * max(n, 1))()
    r = call_nr(458, req(mnt_id, last, **kw), ids, n, flags)
    return r if r < 0 else list(ids[:r])


def call_nr(nr, *args):
    r = libc.syscall(ctypes.c_long(nr), *[a if isinstance(a, (ctypes.Array, ctypes._Pointer))
                                          else ctypes.c_long(a) for a in args])
    return r if r >= 0 else -ctypes.get_errno()


groups = {}


def describe(mnt_id, mask=0x7fff):
    r, raw = statmount(mnt_id, mask)
    if r < 0:
        return errno.errorcode[-r]
    d = dict(zip(SM_NAMES, struct.unpack_from(SM_FMT, raw)))

    def s(k):
        return raw[512 + d[k]:raw.index(b"\0", 512 + d[k])].decode() if d["mask"] else ""

    def arr(k, n):
        out, off = [], 512 + d[k]
        for _ in range(n):
            e = raw.index(b"\0", off)
            out.append(raw[off:e].decode())
            off = e + 1
        return out
    m = d["mask"]
    g = lambda v: "g%d" % groups.setdefault(v, len(groups) + 1) if v else "0"
    return ("mask=%#x size=%d magic=%#x sb_flags=%#x type=%s root=%s point=%s opts=%s array=%s "
            "source=%s attr=%#x prop=%#x peer=%s master=%s from=%s parent_is_mine=%s old_ids=%s "
            "ns=%s supported=%#x" % (
                m, d["size"], d["sb_magic"], d["sb_flags"], s("fs_type") if m & 0x20 else "-",
                s("mnt_root") if m & 8 else "-", s("mnt_point") if m & 0x10 else "-",
                s("mnt_opts") if m & 0x80 else "-",
                arr("opt_array", d["opt_num"]) if m & 0x400 else "-",
                s("sb_source") if m & 0x200 else "-", d["mnt_attr"], d["mnt_propagation"],
                g(d["mnt_peer_group"]), g(d["mnt_master"]), g(d["propagate_from"]),
                d["mnt_parent_id"] == uid(os.path.dirname(s("mnt_point") or "/") or "/")
                if m & 0x12 == 0x12 else "-",
                d["mnt_id_old"] > 0 and d["mnt_parent_id_old"] > 0,
                "set" if d["mnt_ns_id"] else "0", d["supported_mask"]))


here = os.getcwd()
for d in ("dst2", "dst3", "dst4", "dst6", "q", "r3"):
    print(d, describe(uid(d)))
print("only basics:", describe(uid("dst2"), 0x3))
print("nothing asked:", describe(uid("dst2"), 0))
a = uid("dst2")
show("flags 1", statmount(a, 1, flags=1)[0])
show("size 16", statmount(a, 1, size=16)[0])
show("size 5000", statmount(a, 1, size=5000)[0])
show("size 40, not zero", statmount(a, 1, size=40, extra=bytes(7) + b"\1")[0])
show("size 40, zero", statmount(a, 1, size=40, extra=bytes(8))[0])
show("spare", statmount(a, 1, spare=1)[0])
show("id 5", statmount(5, 1)[0])
show("no such id", statmount(0xffffffff00000000, 1)[0])
show("another namespace", statmount(a, 1, size=32, ns=0xffffffffffff)[0])
show("bufsize 512 with strings", statmount(a, 0x20, 512)[0])
show("bufsize 520 with strings", statmount(a, 0x28, 520)[0])
show("bufsize 100, no strings", statmount(a, 1, 100)[0])
r, raw = statmount(a, 1, 100)
print("  size", struct.unpack_from("I", raw)[0], "rest untouched", raw[100:] == bytes(len(raw) - 100))
mine = [describe(i, 0x10).split("point=")[1].split()[0] for i in listmount(LSMT_ROOT)]
print("listmount of the root: mine", [p[len(here):] for p in mine if p.startswith(here + "/")],
      "the root's own", uid("/") in listmount(LSMT_ROOT))
ids = listmount(uid(here))
print("below cwd", len(ids), ids == sorted(ids), uid(here) in ids)
print("reverse", listmount(uid(here), flags=1) == ids[::-1])
print("after the third", listmount(uid(here), ids[2]) == ids[3:])
print("before the third, reversed", listmount(uid(here), ids[2], flags=1) == ids[:2][::-1])
print("two at most", listmount(uid(here), n=2) == ids[:2])
show("listmount flags 2", listmount(uid(here), flags=2))
show("listmount n 0", len(listmount(uid(here), n=0)))
show("listmount size 8", listmount(uid(here), size=8))
show("listmount id 5", listmount(5))
show("listmount no such id", listmount(0xffffffff00000000))
show("listmount of a leaf", len(listmount(uid("dst3"))))
every = len(listmount(LSMT_ROOT, n=4096))
for last in (5, 1 << 31, (1 << 31) + 1, LSMT_ROOT):
    r, rr = listmount(LSMT_ROOT, last, n=4096), listmount(LSMT_ROOT, last, n=4096, flags=1)
    what = lambda x: x if isinstance(x, int) else "all" if len(x) == every else "%d ids" % len(x)
    print("listmount after %#x:" % last, what(r), "reversed:", what(rr))

print("== out of the caller's sight")
root_id, here_id = uid("/"), uid(here)
sys_stdout_flush = __import__("sys").stdout.flush
sys_stdout_flush()
pid = os.fork()
if pid == 0:
    os.chroot(here)
    for who in ("root", "nobody"):
        if who == "nobody":
            os.setegid(65534)
            os.seteuid(65534)
        r = listmount(root_id)
        name = lambda r: errno.errorcode[-r] if r < 0 else r
        print(who, "chrooted: listmount of /", name(r) if isinstance(r, int) else "a list",
              "statmount of /", name(statmount(root_id, 1)[0]),
              "of the new root", name(statmount(here_id, 1)[0]))
    sys_stdout_flush()
    os._exit(0)
os.waitpid(pid, 0)

print("== beneath (MOVE_MOUNT_BENEATH, 6.5)")
BENEATH, T_EMPTY, MS_BIND = 0x200, 0x40, 4096
os.mkdir("bn")
os.chdir("bn")


def mnt(src, at):
    os.makedirs(at, exist_ok=True)
    return libc.mount(src.encode(), at.encode(), b"tmpfs", 0, None)


def umnt(at):
    return 0 if libc.umount2(at.encode(), 0) == 0 else -ctypes.get_errno()


def ex(p):
    return "yes" if os.path.exists(p) else "no"


def mtree():
    """the mounts below here, each with its parent: which is on which"""
    here, rows, ids = os.getcwd(), [], {}
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        if (f[4] + "/").startswith(here + "/") and f[4] != here:
            rows.append(f)
            ids[f[0]] = "m%d" % len(ids)
    for f in rows:
        print("  ", ids[f[0]], "on", ids.get(f[1], "-"), f[4][len(here):], f[f.index("-") + 2])


def beneath(frm, to):
    return call("move_mount", AT_FDCWD, frm, AT_FDCWD, to, BENEATH)


def beneath_fd(fd, to):
    return call("move_mount", fd, "", AT_FDCWD, to, F_EMPTY | BENEATH)


# LTP's move_mount03: a clone of A under B; B's unmount shows A there
mnt("A", "A"), mnt("B", "B")
open("A/A", "w").close()
open("B/B", "w").close()
fd = call("open_tree", AT_FDCWD, "A", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("clone of A beneath B", beneath_fd(fd, "B"))
os.close(fd)
print("B/B", ex("B/B"), "A/A", ex("A/A"), "B/A", ex("B/A"))
mtree()
show("umount B", umnt("B"))
print("B/A", ex("B/A"), "B/B", ex("B/B"))
umnt("B"), umnt("A")
mnt("C", "C"), os.mkdir("C/sub"), mnt("S", "S"), os.mkdir("P")
show("not a mount's root", beneath("S", "C/sub"))
show("no mount there", beneath("S", "P"))
show("attached S beneath C", beneath("S", "C"))
mtree()
show("umount C", umnt("C"))
print("C/sub", ex("C/sub"))
umnt("C")
mnt("S", "S")
fd = call("open_tree", AT_FDCWD, "S", os.O_CLOEXEC)
mnt("S2", "S"), mnt("T", "C")
show("a source with a mount on it", call("move_mount", fd, "", AT_FDCWD, "C", F_EMPTY | BENEATH))
os.close(fd)
umnt("S")
mnt("I", "C/in")
show("the source on the target", beneath("C/in", "C"))
umnt("C/in")
show("the target itself", beneath("C", "C"))
show("the namespace's root", beneath("S", "/"))
sys_stdout_flush()
pid = os.fork()
if pid == 0:
    fd = call("open_tree", AT_FDCWD, "S", OPEN_TREE_CLONE | os.O_CLOEXEC)
    rfd = os.open("/", os.O_PATH)
    os.chroot("C")
    os.chdir("/")
    show("chrooted: beneath the root", beneath_fd(fd, "/"))
    show("chrooted: beneath a mount on the namespace's root",
         call("move_mount", fd, "", rfd, "", F_EMPTY | T_EMPTY | BENEATH))
    mnt("Y", "/y")
    show("chrooted: beneath a mount below the root", beneath_fd(fd, "/y"))
    sys_stdout_flush()
    os._exit(0)
os.waitpid(pid, 0)
mtree()
# propagation: P shared with a peer Q; B on P/x and its copy on Q/x; a clone of P
# beneath P/x goes under B, and its copy under B's copy on Q/x
mnt("P", "P")
libc.mount(None, b"P", None, MS_SHARED, None)
os.mkdir("Q")
libc.mount(b"P", b"Q", None, MS_BIND, None)
mnt("B", "P/x")
open("P/x/B", "w").close()
fd = call("open_tree", AT_FDCWD, "P", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("shared: a clone of P beneath P/x", beneath_fd(fd, "P/x"))
os.close(fd)
mtree()
print("P/x/B", ex("P/x/B"), "Q/x/B", ex("Q/x/B"))
show("umount Q/x", umnt("Q/x"))
print("Q/x/B", ex("Q/x/B"), "Q/x/x", ex("Q/x/x"), "P/x/B", ex("P/x/B"))
mtree()
# P bound on P/x, over a peer of P: a copy would go on top of the target
libc.mount(b"P", b"P/x", None, MS_BIND, None)
fd = call("open_tree", AT_FDCWD, "S", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("beneath a mount its parent propagates to", beneath_fd(fd, "P/x"))
os.close(fd)
# (a review's differential attack, 2026-12-07: each of these differed)
# beneath what is mounted on the very path given: a descriptor of a directory mounted
# on since is not a mount's root
os.mkdir("R")
mnt("R", "R")
os.mkdir("R/x")
dfd = os.open("R/x", os.O_PATH)
mnt("X1", "R/x")
fd = call("open_tree", AT_FDCWD, "S", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("beneath a descriptor of a directory mounted on since",
     call("move_mount", fd, "", dfd, "", F_EMPTY | T_EMPTY | BENEATH))
os.close(dfd)
# beneath a bind whose own root was removed: its place in its parent is what counts
os.makedirs("R/d")
os.mkdir("R/y")
libc.mount(b"R/d", b"R/y", None, MS_BIND, None)
os.rmdir("R/d")
show("beneath a mount whose own root was removed", beneath_fd(fd, "R/y"))
os.close(fd)
# a source whose root was removed is no mount point (get_mountpoint()): ENOENT for a
# beneath, a move, a bind, a clone's attach
mnt("U", "U")
os.mkdir("U/d")
os.mkdir("V")
libc.mount(b"U/d", b"V", None, MS_BIND, None)
os.rmdir("U/d")
os.mkdir("E")
show("a source whose root was removed, beneath X1", beneath("V", "R/x"))
show("... moved onto E", call("move_mount", AT_FDCWD, "V", AT_FDCWD, "E", 0))
show("... bound onto E", 0 if libc.mount(b"V", b"E", None, MS_BIND, None) == 0 else -ctypes.get_errno())
fd = call("open_tree", AT_FDCWD, "V", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("... its clone attached on E", call("move_mount", fd, "", AT_FDCWD, "E", F_EMPTY))
os.close(fd)
# a target unmounted lazily meanwhile: ENOENT
dfd = call("open_tree", AT_FDCWD, "R/x", os.O_CLOEXEC)
umnt_l = libc.umount2(b"R/x", 2)
fd = call("open_tree", AT_FDCWD, "S", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("beneath a mount unmounted lazily since", call("move_mount", fd, "", dfd, "", F_EMPTY | T_EMPTY | BENEATH))
os.close(fd)
os.close(dfd)
mtree()

print("== detached trees as targets (6.15)")
os.chdir("..")
os.mkdir("dt")
os.chdir("dt")


def detached(tag):
    """a fresh tmpfs in a detached tree, with a file named tag in its root"""
    c = call("fsopen", "tmpfs", 0)
    call("fsconfig", c, C["CMD_CREATE"], None, None, 0)
    m = call("fsmount", c, 0, 0)
    os.close(c)
    open("/proc/self/fd/%d/%s" % (m, tag), "w").close()
    return m


def ls(fd, sub=""):
    return sorted(os.listdir("/proc/self/fd/%d/%s" % (fd, sub)))


a, b = detached("A"), detached("B")
os.mkdir("/proc/self/fd/%d/sub" % a)
show("B onto A/sub, both detached", call("move_mount", b, "", a, "sub", F_EMPTY))
print("  A/sub:", ls(a, "sub"))
show("B again: now in A's tree, no tree's root", call("move_mount", b, "", a, "sub", F_EMPTY))
show("A onto its own sub", call("move_mount", a, "", a, "sub", F_EMPTY))
mnt("M", "M")
os.mkdir("/proc/self/fd/%d/sub2" % a)
show("an attached mount moved onto A/sub2", call("move_mount", AT_FDCWD, "M", a, "sub2", 0))
e = detached("E")
show("A (with B) on E's root", call("move_mount", a, "", e, "", F_EMPTY | T_EMPTY))
print("  E's root:", ls(e))
os.close(a)
os.close(b)  # in E's tree now: their closes unmount nothing
os.mkdir("T")
show("E's tree attached on T", call("move_mount", e, "", AT_FDCWD, "T", F_EMPTY))
os.close(e)
print("  T:", sorted(os.listdir("T")), "T/sub:", sorted(os.listdir("T/sub")))
mtree()
# a clone of a shared mount is its peer: a mount onto the clone is seen in the
# original; one onto the original is not seen in the detached clone
mnt("S", "S")
libc.mount(None, b"S", None, MS_SHARED, None)
os.mkdir("S/p")
os.mkdir("S/q")
cl = call("open_tree", AT_FDCWD, "S", OPEN_TREE_CLONE | os.O_CLOEXEC)
x = detached("X")
show("X onto the clone's p", call("move_mount", x, "", cl, "p", F_EMPTY))
print("  S/p:", sorted(os.listdir("S/p")), "clone p:", ls(cl, "p"))
y = detached("Y")
show("Y onto S/q", call("move_mount", y, "", AT_FDCWD, "S/q", F_EMPTY))
print("  S/q:", sorted(os.listdir("S/q")), "clone q:", ls(cl, "q"))
for f in (x, y, cl):
    os.close(f)
mtree()
# which detached trees may be used (check_anonymous_mnt()): fsmount's from any
# namespace; a clone only from the namespace its original was in (a clone of a
# clone keeps the first's); any mount of such a tree may be cloned, its root or not
f = detached("F")
cf = call("open_tree", f, "", OPEN_TREE_CLONE | AT_EMPTY_PATH | os.O_CLOEXEC)
show("a clone of an fsmount tree", 0 if cf >= 0 else cf)
os.mkdir("W")
mnt("W2", "W/w2")
cw = call("open_tree", AT_FDCWD, "W", OPEN_TREE_CLONE | AT_RECURSIVE | os.O_CLOEXEC)
show("a recursive clone of W", 0 if cw >= 0 else cw)
sub = call("open_tree", cw, "w2", OPEN_TREE_CLONE | os.O_CLOEXEC)
show("a clone of a mount below the clone's root", 0 if sub >= 0 else sub)
show("unshare(CLONE_NEWNS)", 0 if libc.unshare(0x20000) == 0 else -ctypes.get_errno())
show("an fsmount tree onto the clone of fsmount's, from the new namespace",
     call("move_mount", detached("G"), "", cf, "", F_EMPTY | T_EMPTY))
show("... onto the old namespace's clone of W", call("move_mount", detached("H"), "", cw, "", F_EMPTY | T_EMPTY))
r = call("open_tree", cw, "", OPEN_TREE_CLONE | AT_EMPTY_PATH | os.O_CLOEXEC)
show("a clone of the old namespace's clone", 0 if r >= 0 else r)
r = call("open_tree", f, "", OPEN_TREE_CLONE | AT_EMPTY_PATH | os.O_CLOEXEC)
show("a clone of the fsmount tree", 0 if r >= 0 else r)
