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
# until the lease is given up; of two writers, the second under the first (" -> ",
# the kernel's locks_insert_block() goes down to a waiter it conflicts with); of two
# readers, both under the lease.  Each opener starts once the one before it waits.
import time
me = str(os.getpid())
def read_locks():
    mine, under = [], {}
    for line in open("/proc/locks"):
        w = line.split()
        if w[1] == "->":
            if w[2] == "LEASE":
                under.setdefault(w[0], []).append(line)
            continue
        if w[4] == me or (w[1] == "OFDLCK" and w[4] == "-1"):
            mine.append(w)
    return mine, under
def ident_of(name):
    st = os.stat(name)
    return "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
def waiting(name):
    mine, under = read_locks()
    return [l for w in mine if w[5] == ident_of(name) for l in under.get(w[0], [])]
breakers = {}
for name, lease, openers in (("x", fcntl.F_RDLCK, [os.O_WRONLY]), ("y", fcntl.F_WRLCK, [os.O_RDONLY]),
                             ("z", fcntl.F_RDLCK, [os.O_WRONLY, os.O_WRONLY]),
                             ("u", fcntl.F_WRLCK, [os.O_RDONLY, os.O_RDONLY])):
    open(name, "w").close()
    fd = os.open(name, os.O_RDONLY)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, lease)
    pids = []
    for opener in openers:
        pid = os.fork()
        if pid == 0:
            # (a hang's end: under fs.lease-break-time's 45 s, after which the
            # kernel would end the wait itself; 20 s was a busy machine's reach)
            signal.alarm(40)
            os.open(name, opener)
            os._exit(0)
        pids.append(pid)
        # until it waits (what it shows once waiting does not depend on when; 30 s at
        # most, and said: a wait that never came is a difference, not a silent one)
        for _ in range(3000):
            if len(waiting(name)) >= len(pids):
                break
            time.sleep(0.01)
        else:
            print("%s: opener %d not seen waiting in 30 s" % (name, len(pids)))
    breakers[name] = (fd, pids)
# Each file's lines from a read that shows all its waiters: a reader breaking a write
# lease waits a jiffy at a time in the kernel (__break_lease(): a downgrade has no
# fl_break_time), out of the list between two waits, and back at its end -- so the
# order of two readers is the kernel's whim: sorted
for name in ("x", "y", "z", "u"):
    pids = [str(p) for p in breakers[name][1]]
    for _ in range(3000):
        mine, under = read_locks()
        lines = [l for w in mine if w[5] == ident_of(name) for l in under.get(w[0], [])]
        if len(lines) == len(pids):
            break
        time.sleep(0.01)
    else:
        print("%s: %d waiters not seen in 30 s" % (name, len(pids)))
    for w in mine:
        if w[5] == ident_of(name):
            print("%s: /proc/locks: %s" % (name, " ".join(w[1:4] + w[6:])))
            shown = []
            for l in under.get(w[0], []):
                f = l.split(":", 1)[1].rstrip("\n").split(" ")
                f = ["child %d" % pids.index(x) if x in pids else x for x in f]
                shown.append("%s: blocked on it:%s" % (name, " ".join(f)))
            print("\n".join(sorted(shown) if name == "u" else shown))
for name in ("x", "y", "z", "u"):
    fd, pids = breakers[name]
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    print("%s: the blocked opens, once the lease is given up: %s" % (name, " ".join(
        "exit %d" % os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids)))

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
