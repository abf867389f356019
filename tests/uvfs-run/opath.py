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
