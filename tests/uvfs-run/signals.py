# SPDX-License-Identifier: LGPL-2.1-or-later
#
# signals.py N - N children, each taking a SIGALRM every millisecond while it gives
# uvfs descriptors numbers in every group of uvfs-run's watching filters (filter.c):
# the tracer installs each filter by making the process call seccomp at the exit of
# the call that opened the descriptor, and a signal pending then runs its handler
# first (trace.c, watch()).  Each child reads its file through every number; prints
# how many children read something else.  The same on the kernel: "bad 0".
import os
import signal
import sys

bad = 0
with open('/tmp/f', 'w') as f:
    f.write('hello')
for i in range(int(sys.argv[1])):
    pid = os.fork()
    if pid == 0:
        signal.signal(signal.SIGALRM, lambda s, f: None)
        signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
        ok = True
        for n in (3, 5, 9, 20, 40, 70, 300):
            fd = os.open('/tmp/f', os.O_RDONLY)
            if fd != n:
                os.dup2(fd, n)
                os.close(fd)
            ok = ok and os.pread(n, 5, 0) == b'hello'
        os._exit(0 if ok else 1)
    _, st = os.waitpid(pid, 0)
    bad += st != 0
print('bad', bad)
