# SPDX-License-Identifier: LGPL-2.1-or-later
"""proclocks.py DIR - /proc/locks and lslocks(8) of a process's locks on files in DIR:
flock of a regular file, a directory and a fifo, a POSIX byte range of another file,
an OFD lock, a read lease and a write lease, two leases an O_NONBLOCK open
began to break (BREAKING, with the type each is becoming), and two whose break an open
waits for (listed under them: "-> LEASE  BREAKER"; uvfs keeps leases: their
lines are uvfs-run's, the others the kernel's renamed).  test_uvfs_run.sh runs it natively and under uvfs-run (on memfs
and on a --bind) and compares: each lock's line names its file by the device and
inode stat(2) gives, and lslocks finds each file's path."""
import fcntl
import os
import signal
import struct
import subprocess
import sys

os.chdir(sys.argv[1])
for n in ("f", "g", "o", "l", "w", "b", "c"):
    open(n, "w").close()
os.makedirs("d", exist_ok=True)
if not os.path.exists("p"):
    os.mkfifo("p")
f = open("f", "r+")
fcntl.flock(f, fcntl.LOCK_EX)
g = open("g", "r+")
fcntl.lockf(g, fcntl.LOCK_EX, 10, 5)
d = os.open("d", os.O_RDONLY)
fcntl.flock(d, fcntl.LOCK_SH)
p = os.open("p", os.O_RDWR)
fcntl.flock(p, fcntl.LOCK_EX)
o = os.open("o", os.O_RDWR)
F_OFD_SETLK = 37
fcntl.fcntl(o, F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 3, 0))

lr = os.open("l", os.O_RDONLY)
fcntl.fcntl(lr, fcntl.F_SETLEASE, fcntl.F_RDLCK)
lw = os.open("w", os.O_RDONLY)
fcntl.fcntl(lw, fcntl.F_SETLEASE, fcntl.F_WRLCK)

# breaks begun: a reader's open of a write lease's file, a writer's of a read lease's
signal.signal(signal.SIGIO, lambda *a: None)
for name, lease, opener in (("b", fcntl.F_WRLCK, os.O_RDONLY), ("c", fcntl.F_RDLCK, os.O_WRONLY)):
    fd = os.open(name, os.O_RDONLY)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, lease)
    globals()["keep_" + name] = fd
    pid = os.fork()
    if pid == 0:
        try:
            os.open(name, opener | os.O_NONBLOCK)
        except OSError:
            os._exit(0)
        os._exit(1)
    os.waitpid(pid, 0)

# opens blocked on a break: a writer's of a read lease's file, a reader's of a write
# lease's -- each listed under its lease ("N: -> LEASE  BREAKER   WRITE PID <none>:0")
# until the lease is given up
import time
breakers = {}
for name, lease, opener in (("x", fcntl.F_RDLCK, os.O_WRONLY), ("y", fcntl.F_WRLCK, os.O_RDONLY)):
    open(name, "w").close()
    fd = os.open(name, os.O_RDONLY)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, lease)
    globals()["keep_" + name] = fd
    pid = os.fork()
    if pid == 0:
        signal.alarm(20)
        os.open(name, opener)
        os._exit(0)
    breakers[name] = (fd, pid)

me = str(os.getpid())
def read_locks():
    mine, under = [], {}
    for line in open("/proc/locks"):
        w = line.split()
        if w[1] == "->":
            if w[2] == "LEASE":
                under.setdefault(w[0], []).append(w)
            continue
        if w[4] == me or (w[1] == "OFDLCK" and w[4] == "-1"):
            mine.append(w)
    return mine, under
# until both breakers wait (the result does not depend on when: it is what they show
# once waiting; 10 s at most)
for _ in range(1000):
    mine, under = read_locks()
    if sum(len(v) for k, v in under.items() if any(w[0] == k and w[1] == "LEASE" for w in mine)) >= 2:
        break
    time.sleep(0.01)
for name in ("x", "y"):
    st = os.stat(name)
    ident = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    pid = str(breakers[name][1])
    for w in mine:
        if w[5] == ident:
            print("%s: /proc/locks: %s; blocked on it: %s" % (name, " ".join(w[1:4] + w[6:]), "; ".join(
                " ".join(b[1:5] + ["its child" if b[5] == pid else "pid " + b[5]] + b[6:])
                for b in under.get(w[0], [])) or "none"))
for name in ("x", "y"):
    fd, pid = breakers[name]
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    print("%s: the blocked open, once the lease is given up: exit %d" % (name, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])))

mine = read_locks()[0]
for name in ("f", "g", "d", "p", "o", "l", "w", "b", "c"):
    st = os.stat(name)
    ident = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    # a set: the kernel's /proc/locks is no snapshot -- the read after the one that
    # got every line starts again by position in a list other processes' locks
    # change, and may show a lock twice (seen natively and under uvfs-run)
    kinds = sorted(set(" ".join(w[1:4] + w[6:]) for w in mine if w[5] == ident))
    print("%s: /proc/locks: %s" % (name, "; ".join(kinds) or "none"))
sys.stdout.flush()
out = subprocess.run(["lslocks", "-u", "-o", "TYPE,MODE,M,START,END,PATH", "-p", me],
                     capture_output=True, text=True).stdout
for line in sorted(set(out.splitlines()[1:])):
    print("lslocks:", " ".join(line.split()))
