# SPDX-License-Identifier: LGPL-2.1-or-later
# proctid.py - /proc/TID of a thread that does not lead its process: found but not
# listed, its status the thread's, its task directory the process's; the links of
# /proc/self/task (2 and one a thread).  test_uvfs_run.sh compares the lines with
# the kernel's.
import os, threading
ev = threading.Event(); done = threading.Event(); tid = [0]
def run():
    tid[0] = threading.get_native_id(); ev.set(); done.wait()
t = threading.Thread(target=run); t.start(); ev.wait()
me, th = os.getpid(), tid[0]
def fields(path):
    d = {}
    for line in open(path):
        k, v = line.split(":", 1)
        d[k] = v.strip()
    return d
s = fields("/proc/%d/status" % th)
print("status of /proc/TID: Pid is the thread", s["Pid"] == str(th), "Tgid the process", s["Tgid"] == str(me))
print("/proc/TID listed in /proc", str(th) in os.listdir("/proc"))
print("/proc/TID/task", sorted(int(x) for x in os.listdir("/proc/%d/task" % th)) == sorted([me, th]))
print("/proc/TID/comm", open("/proc/%d/comm" % th).read().strip())
print("stat nlink of /proc/self/task", os.stat("/proc/self/task").st_nlink)
print("readlink /proc/TID/exe", os.readlink("/proc/%d/exe" % th) == os.readlink("/proc/self/exe"))
done.set(); t.join()
