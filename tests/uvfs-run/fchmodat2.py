# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fchmodat2.py - fchmodat2(2) (Linux 6.6; glibc 2.36 has no wrapper): its flags, a
# symlink not followed, an O_PATH descriptor with AT_EMPTY_PATH (test_uvfs_run.sh
# runs it under uvfs-run and natively; outputs must be equal).
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH = -100, 0x100, 0x1000


def fchmodat2(dirfd, path, mode, flags):
    r = libc.syscall(452, dirfd, path.encode(), mode, flags)
    return 0 if r == 0 else os.strerror(ctypes.get_errno())


os.chdir('/tmp')
open('f', 'w').close()
os.symlink('f', 'l')
os.mkdir('d')
for path, mode, flags in (('f', 0o600, 0), ('l', 0o640, 0), ('l', 0o644, AT_SYMLINK_NOFOLLOW),
                          ('f', 0o644, AT_SYMLINK_NOFOLLOW), ('f', 0o644, 0x2),
                          ('d', 0o1700, 0), ('', 0o600, 0), ('missing', 0o600, 0)):
    print(path, oct(mode), flags, fchmodat2(AT_FDCWD, path, mode, flags),
          oct(os.stat('f').st_mode), oct(os.stat('d').st_mode))
fd = os.open('d', os.O_PATH)
print('O_PATH', fchmodat2(fd, '', 0o705, AT_EMPTY_PATH), oct(os.stat('d').st_mode))
print('O_PATH no flag', fchmodat2(fd, '', 0o700, 0))
