# SPDX-License-Identifier: LGPL-2.1-or-later
"""zombie.py - /proc/PID of a child that exited and is not yet reaped (waitid with
WNOWAIT): there, state Z, exe and cwd ENOENT, fd/ empty, mounts EINVAL, an empty
cmdline, ns/net ENOENT, listed in /proc, ps's <defunct>; auxv opened while it ran
still read (the open took its memory), opened now ESRCH; gone once reaped.  test_uvfs_run.sh runs
it natively and under uvfs-run and compares."""
import os, errno, sys
def res(f):
    try: return f()
    except OSError as e: return errno.errorcode[e.errno]
r, w = os.pipe()
c = os.fork()
if c == 0:
    os.chdir("/tmp"); fd = os.open("/tmp", os.O_RDONLY)
    os.read(r, 1); os._exit(3)
auxv = os.open("/proc/%d/auxv" % c, os.O_RDONLY)
os.write(w, b"x")
os.waitid(os.P_PID, c, os.WEXITED | os.WNOWAIT)
p = "/proc/%d" % c
print("exists:", os.path.isdir(p))
print("state:", open(p + "/stat").read().split(") ")[1].split()[0])
print("status State:", [l.split()[1] for l in open(p + "/status") if l.startswith("State:")])
print("exe:", res(lambda: os.readlink(p + "/exe")))
print("cwd:", res(lambda: os.readlink(p + "/cwd")))
print("fd:", res(lambda: os.listdir(p + "/fd")))
print("mounts:", res(lambda: open(p + "/mounts").read()))
print("cmdline:", repr(res(lambda: open(p + "/cmdline").read())))
print("in /proc:", str(c) in os.listdir("/proc"))
print("ns/net:", res(lambda: os.readlink(p + "/ns/net")))
print("auxv opened while it ran:", res(lambda: len(os.read(auxv, 4096)) > 0))
print("auxv opened now:", res(lambda: os.open(p + "/auxv", os.O_RDONLY) and "opened"))
sys.stdout.flush()
import subprocess
subprocess.run(["ps", "-o", "stat=,comm=,args=", "-p", str(c)])
sys.stdout.flush()
os.waitpid(c, 0)
print("reaped, exists:", os.path.isdir(p), "in /proc:", str(c) in os.listdir("/proc"))
