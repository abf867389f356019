# SPDX-License-Identifier: LGPL-2.1-or-later
"""lease_timeout.py DIR - a lease whose holder does not give it up: once
fs.lease-break-time has passed, the kernel takes it away (time_out_leases()) and
lease_modify() clears the file's owner and F_SETSIG's signal; the open that broke
it goes on.  A write lease broken by a writer (taken away) and one broken by a
reader (given down to a read lease: the owner stays), and a write lease whose file
moved to another number before its break.  test_lease_timeout.sh runs it
natively and under uvfs-run with the break time at 1 s, and compares."""
import fcntl
import os
import signal
import sys
import time

os.chdir(sys.argv[1])
signal.signal(signal.SIGUSR1, lambda *a: None)
F_GETSIG, F_SETSIG = 11, 10
names = {fcntl.F_RDLCK: "F_RDLCK", fcntl.F_WRLCK: "F_WRLCK", fcntl.F_UNLCK: "F_UNLCK"}
for name, opener, moved in (("w", os.O_WRONLY, False), ("r", os.O_RDONLY, False),
                            ("m", os.O_WRONLY, True)):
    open(name, "w").close()
    fd = os.open(name, os.O_RDONLY)
    fcntl.fcntl(fd, F_SETSIG, signal.SIGUSR1)
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    print(name, "held: lease", names[fcntl.fcntl(fd, fcntl.F_GETLEASE)],
          "owner is me:", fcntl.fcntl(fd, fcntl.F_GETOWN) == os.getpid(),
          "signal", fcntl.fcntl(fd, F_GETSIG))
    if moved:
        # the file moved to another number (the owner is the struct file's)
        os.dup2(fd, 9)
        os.close(fd)
        fd = 9
    pid = os.fork()
    if pid == 0:
        signal.alarm(20)
        start = time.monotonic()
        os.close(os.open(name, opener))
        # the break time is 1 s: it waited about that long, not for ever
        os._exit(0 if 0.5 < time.monotonic() - start < 10 else 1)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    print(name, "the opener (%s) went on after the break time: exit %d" %
          ("O_WRONLY" if opener == os.O_WRONLY else "O_RDONLY", status))
    print(name, "after: lease", names[fcntl.fcntl(fd, fcntl.F_GETLEASE)],
          "owner:", "me" if fcntl.fcntl(fd, fcntl.F_GETOWN) == os.getpid() else
          fcntl.fcntl(fd, fcntl.F_GETOWN), "signal", fcntl.fcntl(fd, F_GETSIG))
    st = os.stat(name)
    ident = "%02x:%02x:%d" % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    print(name, "/proc/locks:", "; ".join(" ".join(l.split()[1:4]) for l in open("/proc/locks")
                                         if ident in l) or "none")
    os.close(fd)
