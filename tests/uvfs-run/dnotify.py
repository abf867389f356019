# SPDX-License-Identifier: LGPL-2.1-or-later
"""dnotify.py DIR - fcntl(F_NOTIFY) as a program uses it: which changes signal it, SIGIO
by default, F_SETSIG's signal (its si_band is not compared: docs/SEMANTICS.md §9),
one-shot and DN_MULTISHOT requests, a close ending the request."""
import fcntl
import os
import signal
import sys
import time

d = sys.argv[1]
os.makedirs(d + "/w", exist_ok=True)
got = []
def h(sig, frame): got.append(sig)
signal.signal(signal.SIGIO, h)
signal.signal(signal.SIGRTMIN+1, lambda s, f: got.append("rt"))
f = os.open(d + "/w", os.O_RDONLY)
r = os.open(d + "/file", os.O_CREAT|os.O_RDONLY)
def t(what, fd, arg):
    try: print(what, fcntl.fcntl(fd, fcntl.F_NOTIFY, arg))
    except OSError as e: print(what, e.strerror)
t("file 0", r, 0)
t("file create", r, fcntl.DN_CREATE)
t("dir bad", f, 0x100)
t("dir 0", f, 0)
t("dir multishot only", f, fcntl.DN_MULTISHOT)
t("dir create", f, fcntl.DN_CREATE)
open(d + "/w/a", "w").close()
time.sleep(0.05); print("after create", got); got.clear()
open(d + "/w/b", "w").close()
time.sleep(0.05); print("oneshot gone", got); got.clear()
t("dir create|modify|multishot", f, fcntl.DN_CREATE|fcntl.DN_MODIFY|fcntl.DN_MULTISHOT)
open(d + "/w/c", "w").close(); time.sleep(0.05)
with open(d + "/w/c", "w") as x: x.write("x")
time.sleep(0.05); print("multishot", got); got.clear()
t("add delete", f, fcntl.DN_DELETE)
os.unlink(d + "/w/c"); time.sleep(0.05); print("delete", got); got.clear()
open(d + "/w/e", "w").close(); time.sleep(0.05); print("still create?", got); got.clear()
os.rename(d + "/w/a", d + "/w/a2"); time.sleep(0.05); print("rename", got); got.clear()
t("rename", f, fcntl.DN_RENAME|fcntl.DN_MULTISHOT)
os.rename(d + "/w/a2", d + "/w/a3"); time.sleep(0.05); print("rename2", got); got.clear()
t("attrib", f, fcntl.DN_ATTRIB|fcntl.DN_MULTISHOT)
os.chmod(d + "/w", 0o700); time.sleep(0.05); print("chmod dir itself", got); got.clear()
os.chmod(d + "/w/e", 0o600); time.sleep(0.05); print("chmod child", got); got.clear()
fcntl.fcntl(f, 10, signal.SIGRTMIN+1)  # F_SETSIG
os.chmod(d + "/w/e", 0o644); time.sleep(0.05); print("setsig", got); got.clear()
g = os.dup(f); os.close(f)
os.chmod(d + "/w/e", 0o600); time.sleep(0.05); print("after close of the fd", got); got.clear()
# the signal's information: F_SETSIG's signal, blocked and waited for
sig = signal.SIGRTMIN + 2
signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
h = os.open(d + "/w", os.O_RDONLY)
fcntl.fcntl(h, 10, sig)  # F_SETSIG
fcntl.fcntl(h, fcntl.F_NOTIFY, fcntl.DN_CREATE)
open(d + "/w/z", "w").close()
info = signal.sigwaitinfo([sig])
print("siginfo: the F_SETSIG signal", info.si_signo == sig)
