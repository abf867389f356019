# SPDX-License-Identifier: LGPL-2.1-or-later
# procio.py DIR - /proc/PID/io and /proc/PID/task/TID/io count the read and write
# calls a thread makes on files of DIR, and the bytes: what a thread that writes 100
# files and reads them back adds, what a thread that does nothing has, what the
# process's file adds up (gVisor's Proc.PidTidIOAccounting).  test_uvfs_run.sh runs it
# under uvfs-run (DIR on memfs) and natively (a tmpfs); the outputs must be equal.
import os, sys, threading

d = sys.argv[1]


def io(path):
    fd = os.open(path, os.O_RDONLY)
    text = os.read(fd, 4096).decode()
    os.close(fd)
    return {k: int(v) for k, v in (line.split(": ") for line in text.splitlines())}


def delta(a, b, keys=("rchar", "wchar", "syscr", "syscw")):
    return " ".join("%s %d" % (k, b[k] - a[k]) for k in keys)


out = {}


def writer():
    me = "/proc/self/task/%d/io" % threading.get_native_id()
    a = io(me)
    for i in range(100):
        fd = os.open("%s/f%d" % (d, i), os.O_CREAT | os.O_WRONLY, 0o644)
        os.write(fd, b"abc")
        os.close(fd)
    for i in range(100):
        fd = os.open("%s/f%d" % (d, i), os.O_RDONLY)
        os.read(fd, 10)   # 3 bytes, then
        os.read(fd, 10)   # 0 at the end: a call all the same
        os.close(fd)
    fd = os.open("%s/f0" % d, os.O_RDONLY)
    try:
        os.write(fd, b"x")  # EBADF: not counted
    except OSError:
        pass
    os.close(fd)
    b = io(me)
    out["writer"] = delta(a, b)


def idle():
    me = "/proc/self/task/%d/io" % threading.get_native_id()
    a = io(me)
    b = io(me)
    out["idle"] = delta(a, b) + "; syscw %d" % b["syscw"]


p0 = io("/proc/self/io")
for f in (writer, idle):
    t = threading.Thread(target=f)
    t.start()
    t.join()
p1 = io("/proc/self/io")
print("writer thread:", out["writer"])
print("idle thread:", out["idle"])
# (not rchar: the process's own file, read in between, is as long as its numbers,
# which count the interpreter's start)
print("process, both threads gone:", delta(p0, p1, ("wchar", "syscr", "syscw")))
