# SPDX-License-Identifier: LGPL-2.1-or-later
#
# clone.py - clone(2) with CLONE_FILES and with CLONE_FS, without CLONE_THREAD (a raw
# clone: the child is a copy of the process, as after fork, sharing what the flags
# say).  Prints what each side sees of the other's descriptors and working
# directory; the kernel's answers are the specification.
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
SYS_clone = 56
CLONE_FS, CLONE_FILES, SIGCHLD = 0x200, 0x400, 17


def clone(flags):
    pid = libc.syscall(SYS_clone, ctypes.c_ulong(flags | SIGCHLD), None, None, None, None)
    if pid < 0:
        raise OSError(ctypes.get_errno(), 'clone')
    return pid


def wait(pid):
    _, st = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(st)


os.chdir('/tmp')
os.mkdir('d')
with open('f', 'w') as f:
    f.write('shared')

for flags, name in ((CLONE_FILES, 'CLONE_FILES'), (0, 'none'), (CLONE_FS, 'CLONE_FS')):
    r, w = os.pipe()      # child to parent
    r2, w2 = os.pipe()    # parent to child
    pid = clone(flags)
    if pid == 0:
        # the child: a descriptor on a number the parent never used, then its cwd
        fd = os.open('/tmp/f', os.O_RDONLY)
        os.dup2(fd, 40)
        os.close(fd)
        os.chdir('/tmp/d')
        os.write(w, b'x')
        # wait for the parent's descriptor 20, then read it
        os.read(r2, 1)
        try:
            got = os.pread(20, 6, 0).decode()
        except OSError as e:
            got = 'errno %d' % e.errno
        print('%s child: fd 20 %s' % (name, got), flush=True)
        os._exit(0)
    os.read(r, 1)
    try:
        got = os.pread(40, 6, 0).decode()
    except OSError as e:
        got = 'errno %d' % e.errno
    print('%s parent: fd 40 %s, cwd %s' % (name, got, os.getcwd()), flush=True)
    fd = os.open('/tmp/f', os.O_RDONLY)
    os.dup2(fd, 20)
    os.close(fd)
    os.write(w2, b'y')
    print('%s child exit %d' % (name, wait(pid)), flush=True)
    for n in (40, 20):
        try:
            os.close(n)
        except OSError:
            pass
    os.chdir('/tmp')
    for n in (r, w, r2, w2):
        os.close(n)
