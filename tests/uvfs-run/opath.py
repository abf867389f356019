#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# opath.py DIR - opens whose descriptor the kernel cannot hold as the file itself:
# O_PATH of a regular file, a directory and a symlink (read EBADF, openat relative to
# it, fchdir), and a fifo, opened and read and written.  test_uvfs_run.sh compares the
# lines with the kernel's on memfs and on a --bind (there the stand-in was an O_PATH
# descriptor, which seccomp's ADDFD refuses: every such open was EBADF).
import os, sys, stat
d = sys.argv[1]
os.mkfifo(d + "/fifo"); os.symlink("nowhere", d + "/sl"); open(d + "/r", "w").write("data")
os.mkdir(d + "/d")
def show(what, f):
    try:
        fd = f()
        st = os.fstat(fd)
        print(what, "opened", stat.filemode(st.st_mode), os.readlink("/proc/self/fd/%d" % fd).replace(d, "DIR"))
        return fd
    except OSError as e:
        print(what, e.strerror)
show("fifo O_RDWR", lambda: os.open(d + "/fifo", os.O_RDWR))
show("symlink O_PATH|O_NOFOLLOW", lambda: os.open(d + "/sl", os.O_PATH | os.O_NOFOLLOW))
r = show("regular O_PATH", lambda: os.open(d + "/r", os.O_PATH))
try: os.read(r, 1)
except OSError as e: print("read of O_PATH", e.strerror)
dfd = show("directory O_PATH", lambda: os.open(d + "/d", os.O_PATH))
show("openat relative to it", lambda: os.open("../r", os.O_RDONLY, dir_fd=dfd))
os.fchdir(dfd); print("fchdir", os.getcwd().replace(d, "DIR"))
fr = os.open(d + "/fifo", os.O_RDONLY | os.O_NONBLOCK); fw = os.open(d + "/fifo", os.O_WRONLY | os.O_NONBLOCK)
print("fifo write", os.write(fw, b"abc"), "read", os.read(fr, 10))
# the calls the kernel answers on a stand-in (not trapped but on watched numbers):
# mmap, fadvise, readahead, sync_file_range -- of an O_PATH descriptor EBADF, of a
# fifo (the null device stands in) with the fifo's access mode and answers
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
open(d + "/m", "wb").write(b"x" * 8192)
def mm(fd, prot=1, flags=2):
    a = libc.mmap(None, 4096, prot, flags, fd, 0)
    return "ok" if a not in (None, 2**64 - 1) else errno.errorcode[ctypes.get_errno()]
def call(name, *a):
    ret = getattr(libc, name)(*a)
    return ret if ret != -1 else errno.errorcode[ctypes.get_errno()]
mp = os.open(d + "/m", os.O_PATH)
for what, fd in (("O_PATH", mp), ("its dup", os.dup(mp)), ("O_RDONLY", os.open(d + "/m", os.O_RDONLY)),
                 ("O_WRONLY", os.open(d + "/m", os.O_WRONLY)), ("fifo O_RDWR", os.open(d + "/fifo", os.O_RDWR)),
                 ("fifo O_RDONLY", fr)):
    print(what, "mmap", mm(fd), "shared rw", mm(fd, 3, 1),
          "fadvise", os.strerror(libc.posix_fadvise(fd, 0, 0, 4)),
          "readahead", call("readahead", fd, ctypes.c_long(0), ctypes.c_size_t(4096)),
          "sync_file_range", call("sync_file_range", fd, ctypes.c_long(0), ctypes.c_long(0), 1))
print("anonymous mmap", mm(-1, 3, 0x22))
# ... and flock; and on numbers of other groups: a dup2 to 100 and to 5000 (the top
# group), a descriptor received over a unix socket, an O_PATH descriptor held across
# an exec -- each trapped on its own number's group (filter.c, RUN_GROUP_ODD)
import fcntl, socket, subprocess
def fl(fd):
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB); return "ok"
    except OSError as e: return errno.errorcode[e.errno]
os.dup2(mp, 100); os.dup2(mp, 5000)
a, b = socket.socketpair(socket.AF_UNIX)
socket.send_fds(a, [b"x"], [mp]); got = socket.recv_fds(b, 1, 1)[1][0]
for what, fd in (("O_PATH", mp), ("dup2 to 100", 100), ("dup2 to 5000", 5000), ("received", got)):
    print(what, "flock", fl(fd), "mmap", mm(fd), "fadvise", os.strerror(libc.posix_fadvise(fd, 0, 0, 4)))
print("the O_RDONLY one: flock", fl(os.open(d + "/m", os.O_RDONLY)))
# epoll_ctl, syncfs and cachestat of an O_PATH descriptor: EBADF (EFAULT first for a
# bad event), trapped where one has been (the odd groups) -- the kernel's elsewhere
import select
class EV(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("events", ctypes.c_uint32), ("data", ctypes.c_uint64)]
class CR(ctypes.Structure):
    _fields_ = [("off", ctypes.c_uint64), ("len", ctypes.c_uint64)]
def sysc(nr, *a):
    ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(x) for x in a])
    return ret if ret != -1 else errno.errorcode[ctypes.get_errno()]
ep, ev, cr, cs = select.epoll(), EV(1, 0), CR(0, 0), (ctypes.c_uint64 * 8)()
for what, fd in (("O_PATH", mp), ("dup2 to 100", 100), ("O_RDONLY", os.open(d + "/m", os.O_RDONLY))):
    print(what, "epoll_ctl ADD", sysc(233, ep.fileno(), 1, fd, ctypes.addressof(ev)),
          "with a bad event", sysc(233, ep.fileno(), 1, fd, 8), "DEL", sysc(233, ep.fileno(), 2, fd, 0),
          "syncfs", sysc(306, fd), "cachestat", sysc(451, fd, ctypes.addressof(cr), ctypes.addressof(cs), 0))
os.set_inheritable(100, True)
print(subprocess.run([sys.executable, "-c", "import ctypes, errno; l = ctypes.CDLL(None, use_errno=True); "
                      "l.mmap.restype = ctypes.c_void_p; "
                      "l.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]; "
                      "a = l.mmap(None, 4096, 1, 2, 100, 0); "
                      "print('after exec: mmap', 'ok' if a not in (None, 2**64 - 1) else errno.errorcode[ctypes.get_errno()])"],
                     pass_fds=[100], capture_output=True, text=True).stdout.strip())
# /proc/self/fd/N of a descriptor only the kernel holds, reopened: the program's
# O_DIRECTORY kept (ENOTDIR before the eventfd's ENXIO; gVisor's B236035339)
e = os.eventfd(0)
pr, pw = os.pipe()
for what, fd in (("eventfd", e), ("pipe", pr), ("memfs fifo", fr)):
    for name, fl in (("O_DIRECTORY", os.O_RDONLY | os.O_DIRECTORY), ("O_RDONLY", os.O_RDONLY)):
        try:
            n = os.open("/proc/self/fd/%d" % fd, fl)
            print("/proc/self/fd of a", what, name, "opened", os.readlink("/proc/self/fd/%d" % n).split(":")[0].replace(d, "DIR"))
        except OSError as x:
            print("/proc/self/fd of a", what, name, x.strerror)
