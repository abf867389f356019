# SPDX-License-Identifier: LGPL-2.1-or-later
# proccomm.py - /proc/PID/comm written: the process's own, a thread's (its own and a
# peer's, through task/TID and thread-self), 15 bytes kept of 20; another process's
# refused (EINVAL); what stat and status then say.  test_uvfs_run.sh compares the
# lines with the kernel's.
import os, sys, threading
def name(path):
    with open(path) as f: return f.read().strip()
tid = [0]; ev = threading.Event(); done = threading.Event()
def run():
    tid[0] = threading.get_native_id(); ev.set(); done.wait()
t = threading.Thread(target=run); t.start(); ev.wait()
me = os.getpid()
for path, text in (("/proc/self/comm", "renamed"), ("/proc/self/task/%d/comm" % tid[0], "peer"),
                   ("/proc/thread-self/comm", "0123456789abcdefghij")):
    with open(path, "w") as f: f.write(text)
    print(path.replace(str(me), "PID").replace(str(tid[0]), "TID"), name(path))
print("stat", open("/proc/self/stat").read().split()[1], "status", open("/proc/self/status").readline().strip())
sys.stdout.flush()
pid = os.fork()
if pid == 0:
    try:
        with open("/proc/%d/comm" % me, "w") as f: f.write("other")
        print("another process's comm: written")
    except OSError as e:
        print("another process's comm", e.strerror)
    sys.stdout.flush(); os._exit(0)
os.waitpid(pid, 0)
done.set(); t.join()
