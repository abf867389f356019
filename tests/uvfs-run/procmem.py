# SPDX-License-Identifier: LGPL-2.1-or-later
# procmem.py - /proc/PID/mem: a process's memory read and written through it, its
# own and a child's, at a position and with pread/pwrite; an unmapped address (EIO);
# another user's refused (EACCES); after the child's exit (0 bytes).  test_uvfs_run.sh
# compares the lines with the kernel's.
import ctypes, os, stat, sys
buf = ctypes.create_string_buffer(b"hello, memory", 32)
addr = ctypes.addressof(buf)
print("mode", stat.filemode(os.stat("/proc/self/mem").st_mode))
fd = os.open("/proc/self/mem", os.O_RDWR)
print("pread", os.pread(fd, 13, addr))
print("its link", os.readlink("/proc/self/fd/%d" % fd).replace(str(os.getpid()), "PID"))
print("pwrite", os.pwrite(fd, b"HELLO", addr), buf.value)
os.lseek(fd, addr + 7, os.SEEK_SET)
print("read at lseek", os.read(fd, 6))
try:
    os.pread(fd, 8, 4096)
except OSError as e:
    print("unmapped", e.strerror)
r, w = os.pipe()    # the child says it has written
r2, w2 = os.pipe()  # the parent says it has read
sys.stdout.flush()
pid = os.fork()
if pid == 0:
    buf.value = b"the child's"
    os.write(w, b"x")
    os.read(r2, 1)  # the parent reads its memory meanwhile
    os._exit(0)
os.read(r, 1)
cfd = os.open("/proc/%d/mem" % pid, os.O_RDONLY)
print("child's", os.pread(cfd, 11, addr))
os.write(w2, b"y")
os.waitpid(pid, 0)
print("after its exit", os.pread(cfd, 11, addr))
sys.stdout.flush()
pid = os.fork()
if pid == 0:
    os.setresuid(65534, 65534, 65534)
    try:
        os.open("/proc/%d/mem" % os.getppid(), os.O_RDONLY)
        print("another user's: opened")
    except OSError as e:
        print("another user's", e.strerror)
    sys.stdout.flush()
    os._exit(0)
os.waitpid(pid, 0)
