# SPDX-License-Identifier: LGPL-2.1-or-later
# devchmod.py - fchmod, fchown and futimens of /dev/null opened through a read-only
# root, each to what it already is: EROFS from the kernel, the host's node untouched
# (test_uvfs_run.sh compares with the kernel's read-only /dev, and the node's ctime).
import os
fd = os.open("/dev/null", os.O_RDONLY)
st = os.fstat(fd)
for name, f in (("fchmod", lambda: os.fchmod(fd, st.st_mode & 0o7777)),
                ("fchown", lambda: os.fchown(fd, st.st_uid, st.st_gid)),
                ("futimens", lambda: os.utime(fd, ns=(st.st_atime_ns, st.st_mtime_ns)))):
    try:
        f(); print(name, "ok")
    except OSError as e:
        print(name, e.strerror)
