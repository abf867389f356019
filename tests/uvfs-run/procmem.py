# SPDX-License-Identifier: LGPL-2.1-or-later
# procmem.py - /proc/PID/mem: a process's memory read and written through it, its
# own and a child's, at a position and with pread/pwrite; an unmapped address (EIO);
# another user's refused (EACCES); after the child's exit (0 bytes); and its uid_map,
# gid_map and setgroups opened before its exit, read after it.  test_uvfs_run.sh
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
maps = [os.open("/proc/%d/%s" % (pid, n), os.O_RDONLY) for n in ("uid_map", "gid_map", "setgroups")]
print("child's", os.pread(cfd, 11, addr))
os.write(w2, b"y")
os.waitpid(pid, 0)
print("after its exit", os.pread(cfd, 11, addr))
# uid_map, gid_map, setgroups opened before: the user namespace is the open file's
# (proc_id_map_open()), read after the exit as before (gVisor's SubprocessExited)
print("after its exit, opened before:", [os.read(m, 64).split() for m in maps])
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
