# SPDX-License-Identifier: LGPL-2.1-or-later
# inotify_fdinfo.py DIR - /proc/self/fdinfo of an inotify descriptor: a line a watch
# (LTP's inotify12 reads its mask), compared by test_inotify.sh natively on a tmpfs
# and under uvfs-run.  What differs between two tmpfs instances is checked here, not
# printed: the inode number and device against stat (the device as the kernel keeps
# it, major << 20 | minor), the handle against name_to_handle_at's (its generation is
# random).
import ctypes, os, re, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
os.chdir(sys.argv[1])

def handle(path):
    buf = ctypes.create_string_buffer(8 + 128)
    struct.pack_into("Ii", buf, 0, 128, 0)
    mid = ctypes.c_int(0)
    if libc.syscall(303, -100, path.encode(), buf, ctypes.byref(mid), 0x200) < 0:  # AT_HANDLE_FID
        return "n2h " + os.strerror(ctypes.get_errno())
    hb, ht = struct.unpack_from("Ii", buf, 0)
    return "fhandle-bytes:%x fhandle-type:%x f_handle:%s" % (hb, ht, buf.raw[8:8 + hb].hex())

def show(fd, paths):
    print("--")
    for line in open("/proc/self/fdinfo/%d" % fd):
        if not line.startswith("inotify "):
            if line.split(":")[0] not in ("pos", "flags", "mnt_id", "ino"):
                print("extra", line, end="")
            continue
        f = dict(kv.split(":", 1) for kv in line.split(" ")[1:4])
        path = paths[int(f["wd"], 16)]
        st = os.stat(path, follow_symlinks=False)
        dev = os.major(st.st_dev) << 20 | os.minor(st.st_dev)
        out = line.rstrip("\n")
        out = out.replace(" ino:%x " % st.st_ino, " ino:=st_ino ", 1)
        out = out.replace(" sdev:%x " % dev, " sdev:=st_dev ", 1)
        out = out.replace(handle(path), "=name_to_handle_at", 1)
        print(path, out)

fd = libc.inotify_init1(os.O_NONBLOCK)
os.mkdir("d"); os.mkdir("d/e")
for n in ("f", "g", "d/h"):
    open(n, "w").close()
os.symlink("f", "l")
paths = {}
def watch(path, mask):
    wd = libc.inotify_add_watch(fd, path.encode(), mask)
    if wd < 0:
        print("add", path, hex(mask), os.strerror(ctypes.get_errno()))
    else:
        paths[wd] = path
show(fd, paths)  # no watch: the four lines alone
watch("f", 0x80000002)                  # IN_MODIFY | IN_ONESHOT
watch(".", 0x04000002 | 0x01000000)     # | IN_EXCL_UNLINK, IN_ONLYDIR (not kept)
watch("d", 0x2)
watch("d", 0x20000004)                  # IN_MASK_ADD: IN_ATTRIB added
watch("g", 0xfff)                       # IN_ALL_EVENTS
watch("l", 0x02000000 | 0x100)          # IN_DONT_FOLLOW: the symlink itself
watch("d/e", 0x10000000 | 0x8)          # IN_MASK_CREATE
watch("d/h", 0x20)
show(fd, paths)
watch("d", 0x8)                         # replaced
libc.inotify_rm_watch(fd, [w for w, p in paths.items() if p == "g"][0])
os.unlink("d/h")                        # its watch goes (IN_IGNORED)
os.read(fd, 4096)
show(fd, paths)
