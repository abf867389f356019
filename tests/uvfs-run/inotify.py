# SPDX-License-Identifier: LGPL-2.1-or-later
"""inotify.py DIR - inotify as a program uses it, printing what it sees: a watch, the
descriptor in /proc, poll/select/epoll readiness before and after events, FIONREAD,
whole events read with one cookie per move, EAGAIN when empty, a blocking read woken
by another process's change, and IN_Q_OVERFLOW at the queue's limit."""
import array
import ctypes
import fcntl
import os
import select
import struct
import sys
import termios

libc = ctypes.CDLL(None, use_errno=True)
d = sys.argv[1] + "/ino"
os.makedirs(d + "/w")
cookies = []


def events(fd, size=65536):
    buf = os.read(fd, size)
    off, out = 0, []
    while off < len(buf):
        wd, mask, cookie, ln = struct.unpack_from("iIII", buf, off)
        name = buf[off + 16:off + 16 + ln].rstrip(b"\0").decode()
        if cookie and cookie not in cookies:
            cookies.append(cookie)
        out.append("%d:%#x:%s:%s" % (wd, mask, "c%d" % (cookies.index(cookie) + 1) if cookie else "0", name))
        off += 16 + ln
    return " ".join(out)


fd = libc.inotify_init1(os.O_NONBLOCK)
wd = libc.inotify_add_watch(fd, (d + "/w").encode(), 0xfff)
print("watch", wd, os.readlink("/proc/self/fd/%d" % fd), oct(os.fstat(fd).st_mode))
p = select.poll()
p.register(fd, select.POLLIN)
ep = select.epoll()
ep.register(fd, select.EPOLLIN)
print("empty: poll", p.poll(0), "epoll", ep.poll(0), "select", select.select([fd], [], [], 0)[0])
with open(d + "/w/f", "w") as f:
    f.write("x")
print("queued: poll", p.poll(0), "epoll", [e for _, e in ep.poll(0)], "select",
      len(select.select([fd], [], [], 0)[0]))
a = array.array("i", [0])
fcntl.ioctl(fd, termios.FIONREAD, a)
print("FIONREAD", a[0])
print(events(fd))
print("read: poll", p.poll(0), "epoll", ep.poll(0))
try:
    os.read(fd, 4096)
except BlockingIOError:
    print("EAGAIN")
os.rename(d + "/w/f", d + "/w/g")
os.mkdir(d + "/w/sub")
os.rename(d + "/w/g", d + "/w/sub/h")
print(events(fd))
os.unlink(d + "/w/sub/h")
os.rmdir(d + "/w/sub")
os.rmdir(d + "/w")
print(events(fd))
os.close(fd)

# a blocking read, woken when a child process creates a file
os.mkdir(d + "/b")
fd = libc.inotify_init1(0)
libc.inotify_add_watch(fd, (d + "/b").encode(), 0x100)  # IN_CREATE
pid = os.fork()
if pid == 0:
    select.select([], [], [], 0.2)
    open(d + "/b/new", "w").close()
    os._exit(0)
print("blocking read:", events(fd))
os.waitpid(pid, 0)

# the queue's limit: 16384 events, then one IN_Q_OVERFLOW (wd -1)
with open("/proc/sys/fs/inotify/max_queued_events") as f:
    limit = int(f.read())
libc.inotify_add_watch(fd, (d + "/b/new").encode(), 0x30)  # IN_OPEN | IN_CLOSE_NOWRITE
for _ in range(limit // 2 + 10):
    os.close(os.open(d + "/b/new", os.O_RDONLY))
n, last = 0, ""
while True:
    r, _, _ = select.select([fd], [], [], 0)
    if not r:
        break
    got = events(fd).split(" ")
    n += len(got)
    last = got[-1]
print("events", n, "of a limit of", limit, "then", last)
