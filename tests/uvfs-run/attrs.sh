#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# attrs.sh DIR - file attributes on tmpfs (chattr, lsattr; LTP's statx08, unlink09):
# immutable, append-only, nodump and noatime set on files and directories, then what
# each refuses -- writes, opens, removals, renames, links, mode, owner, times,
# truncation, fallocate, F_SETFL -- what statx reports, and who may set them.  Run in
# DIR (a tmpfs natively, memfs under uvfs-run); test_uvfs_run.sh compares the output.
cd "$1" || exit 1
touch i d A && echo data > a && mkdir di da && touch da/old && chown 65534 d
chattr +i i && chattr +a a && chattr +d d && chattr +A A && chattr +i di && chattr +a da
echo "set: $?"
lsattr i a d A 2>&1 | sed 's/ .*\// /'
lsattr -d di da
r() { "$@" 2>&1; echo "$* -> $?"; }
# immutable
r sh -c 'echo x >> i'
r rm -f i
r mv i i2
r ln i il
r chmod 600 i
r chown 1 i
r touch -d @0 i
r touch i
r truncate -s 0 i
r touch di/new
r rmdir di
# append-only
r sh -c 'echo more >> a'
cat a
r sh -c 'echo over > a'
r truncate -s 0 a
r rm -f a
r mv a a2
r ln a al
r chmod 600 a
r chown 1 a
r touch -d @0 a
r touch a
r touch da/new
r rm -f da/new
r rm -f da/old
r mv da/new da/n2
r mkdir da/sub
# noatime: a read leaves the access time as it was
touch -a -d @1000 A && cat A && stat -c 'noatime: atime %X' A
# the calls, and statx's attributes
python3 - <<'EOF' 2>&1
import ctypes, errno, fcntl, os, struct
libc = ctypes.CDLL(None, use_errno=True)
def res(f):
    try:
        v = f()
        return "ok" if v is None else v
    except OSError as e:
        return errno.errorcode[e.errno]
print("open a O_WRONLY", res(lambda: os.open("a", os.O_WRONLY)))
print("open a O_RDWR|O_APPEND|O_TRUNC", res(lambda: os.open("a", os.O_RDWR | os.O_APPEND | os.O_TRUNC)))
fd = os.open("a", os.O_WRONLY | os.O_APPEND)
print("F_SETFL without O_APPEND", res(lambda: fcntl.fcntl(fd, fcntl.F_SETFL, 0)))
print("F_SETFL O_APPEND|O_NONBLOCK", res(lambda: fcntl.fcntl(fd, fcntl.F_SETFL, os.O_APPEND | os.O_NONBLOCK)))
print("pwrite at 0 (appends)", res(lambda: os.pwrite(fd, b"P", 0)), open("a").read().encode())
def fa(mode, length):
    return "ok" if libc.fallocate(fd, mode, ctypes.c_long(0), ctypes.c_long(length)) == 0 else errno.errorcode[ctypes.get_errno()]
print("fallocate KEEP_SIZE", fa(1, 4096))
print("fallocate", fa(0, 8192))
print("ftruncate", res(lambda: os.ftruncate(fd, 0)))
print("open i O_RDONLY", "ok" if isinstance(res(lambda: os.open("i", os.O_RDONLY)), int) else "refused")
print("open i O_WRONLY|O_APPEND", res(lambda: os.open("i", os.O_WRONLY | os.O_APPEND)))
pre = os.open("pre", os.O_CREAT | os.O_RDWR, 0o644)
fcntl.ioctl(pre, 0x40086602, struct.pack("i", 0x10))  # FS_IOC_SETFLAGS: +i
print("opened before +i: write", res(lambda: os.write(pre, b"x")), "ftruncate",
      res(lambda: os.ftruncate(pre, 0)), "fchmod", res(lambda: os.fchmod(pre, 0o600)))
print("FS_IOC_GETFLAGS", hex(struct.unpack("i", fcntl.ioctl(pre, 0x80086601, b"\0" * 4))[0]))
fcntl.ioctl(pre, 0x40086602, struct.pack("i", 0))
os.unlink("pre")
buf = ctypes.create_string_buffer(256)
for n in ("i", "a", "d", "A", "di", "da"):
    libc.syscall(332, -100, n.encode(), 0, 0x7ff, buf)  # statx
    attrs, = struct.unpack_from("Q", buf, 8)
    mask, = struct.unpack_from("Q", buf, 56)
    print("statx", n, "attributes", hex(attrs), "mask", hex(mask))
EOF
# who may set them: the owner without CAP_LINUX_IMMUTABLE only nodump and noatime
r setpriv --reuid=65534 --regid=65534 --clear-groups chattr +d d
r setpriv --reuid=65534 --regid=65534 --clear-groups chattr +i d
r setpriv --reuid=65534 --regid=65534 --clear-groups chattr +d A
lsattr d | sed 's/ .*\// /'
r chattr +C d
r chattr +x d
r chattr +i d
lsattr d
r chattr -i -d d
chattr -i i di && chattr -a a da && lsattr i a di da 2>&1
r rm -rf i a di da
