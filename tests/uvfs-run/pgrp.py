# SPDX-License-Identifier: LGPL-2.1-or-later
"""
pgrp.py [RUNNER...] - a program started without a controlling terminal, as a test
harness, timeout(1) or a service manager starts one: RUNNER (nothing natively,
"uvfs-run --" under it) runs, in a session of its own (no terminal):
  - python, which names its process group: getpgrp() is a group it is in (under
    uvfs-run: its own, as pid 2 of the namespace), which
    F_SETOWN of -pgrp gives F_GETOWN_EX back as F_OWNER_PGRP (gVisor's
    FcntlTest.SetOwnPgrp), killpg reaches, /proc/self/stat names;
  - sh, which traps SIGUSR1, SIGUSR2 and SIGTERM: each sent to what was started
    reaches it (under uvfs-run: relayed to the program's group) and its trap runs
    (uvfs-run's workers once took SIGUSR2 for their own wake-up, and most were lost:
    each is waited for 20 s at most, then said missing).  It waits in a
    loop of builtins: a child it waited for would get the relayed TERM too, where
    natively only sh gets it (sh then says "Terminated": docs/SEMANTICS.md §9).
The outputs must be equal.
"""
import os, select, signal, subprocess, sys
child = r'''
import fcntl, os, socket, struct
g = os.getpgrp()
print("pgrp > 0:", g > 0)
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
fcntl.fcntl(s, fcntl.F_SETOWN, -g)
t, pid = struct.unpack("ii", fcntl.fcntl(s, 16, bytes(8)))
print("F_GETOWN_EX after F_SETOWN of -pgrp: type", t, "pid is pgrp:", pid == g)
os.killpg(g, 0)
print("killpg(pgrp, 0): ok")
print("/proc/self/stat's pgrp is it:", int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[2]) == g)
'''
runner = sys.argv[1:]
# a TERM (meson's timeout) ends the driver through its finally below
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
r = subprocess.run(runner + ["python3", "-c", child], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
print(r.stdout, end="")
print("status", r.returncode)
p = subprocess.Popen(runner + ["sh", "-c", 'trap "echo got USR1" USR1; trap "echo got USR2" USR2; '
                                'trap "echo got TERM; exit 3" TERM; echo ready; while :; do :; done'],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)


def line():
    """The next line of its output, or None after 20 s without one"""
    b = b""
    while not b.endswith(b"\n"):
        if not select.select([p.stdout], [], [], 20)[0]:
            return None
        c = os.read(p.stdout.fileno(), 1)
        if not c:
            break
        b += c
    return b.decode()


try:
    print(line() or "not ready\n", end="")
    for sig in (signal.SIGUSR1, signal.SIGUSR2):
        p.send_signal(sig)
        print(line() or "no answer to %s\n" % sig.name, end="")
    p.terminate()
    print(p.stdout.read().decode(), end="")
    print("status", p.wait())
finally:
    # its session's own group: not killed with the test's (natively the loop would
    # spin on after a driver that died, a broken pipe or meson's timeout)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
