# SPDX-License-Identifier: LGPL-2.1-or-later
"""dgram_control.py DIR - datagrams to a unix socket's path with control data, and the
credentials a receiver with SO_PASSCRED reads: what the receiver gets, and the errors
of the control data before the name's (unix_dgram_sendmsg: scm_send() first)."""
import os
import socket
import struct
import sys

d = sys.argv[1]
ME = os.getpid()


def show_creds(anc):
    out = []
    for level, typ, data in anc:
        if typ == socket.SCM_CREDENTIALS:
            pid, uid, gid = struct.unpack("iII", data)
            out.append("creds(%s,%d,%d)" % ("me" if pid == ME else "child" if pid == child else pid, uid, gid))
        elif typ == socket.SCM_RIGHTS:
            for (fd,) in struct.iter_unpack("i", data):
                link = os.readlink("/proc/self/fd/%d" % fd).replace(d, "D")
                out.append("fd->" + ("pipe" if link.startswith("pipe:") else link))
                out.append(repr(os.pread(fd, 100, 0)) if os.path.isfile("/proc/self/fd/%d" % fd) else "")
                os.close(fd)
    return " ".join(out)


rx = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
rx.bind(d + "/rx")
rx.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
tx = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
child = 0


def recv(label):
    msg, anc, flags, addr = rx.recvmsg(100, 4096)
    print(label, msg, show_creds(anc), flags)


def send(label, cmsgs, to=None):
    try:
        n = tx.sendmsg([label.encode()], cmsgs, 0, to or d + "/rx")
        print(label, "sent", n)
        return True
    except OSError as e:
        print(label, os.strerror(e.errno))
        return False


# the sender's own credentials, given or not, by sendmsg and sendto
cred = struct.pack("iII", ME, os.getuid(), os.getgid())
send("given", [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, cred)]) and recv("given")
send("none", []) and recv("none")
tx.sendto(b"sendto", d + "/rx")
recv("sendto")
# descriptors: a file of the directory, a pipe
with open(d + "/data", "w") as f:
    f.write("file bytes")
fd = os.open(d + "/data", os.O_RDONLY)
r, w = os.pipe()
if send("rights", [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("ii", fd, r))]):
    os.close(fd)  # the message holds the file
    recv("rights")
# another process's message: its credentials
child = os.fork()
if child == 0:
    tx.sendto(b"child", d + "/rx")
    os._exit(0)
os.waitpid(child, 0)
recv("child")
# errors: of the control data first, then of the name
send("badfd", [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", 999))], d + "/missing")
send("nopid", [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, struct.pack("iII", 999999, 0, 0))])
send("badtype", [(socket.SOL_SOCKET, 77, b"xxxx")])
send("missing", [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, cred)], d + "/missing")
os.mkdir(d + "/dir")
send("notsock", [(socket.SOL_SOCKET, socket.SCM_CREDENTIALS, cred)], d + "/dir")

# sendmmsg: each message to its own name, a path or none; it stops at the first that
# fails, and says how many went
import ctypes

libc = ctypes.CDLL(None, use_errno=True)


class IOVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


class MsgHdr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_void_p), ("namelen", ctypes.c_uint32), ("iov", ctypes.POINTER(IOVec)),
                ("iovlen", ctypes.c_size_t), ("control", ctypes.c_void_p), ("controllen", ctypes.c_size_t),
                ("flags", ctypes.c_int)]


class MMsgHdr(ctypes.Structure):
    _fields_ = [("hdr", MsgHdr), ("len", ctypes.c_uint)]


def sockaddr(path):
    raw = struct.pack("H", socket.AF_UNIX) + path.encode() + b"\0"
    return ctypes.create_string_buffer(raw, len(raw))


keep = []


def mmsg(targets):
    vec = (MMsgHdr * len(targets))()
    for i, (text, path) in enumerate(targets):
        data = ctypes.create_string_buffer(text.encode(), len(text))
        iov = IOVec(ctypes.cast(data, ctypes.c_void_p), len(text))
        keep.extend([data, iov])
        vec[i].hdr.iov = ctypes.pointer(iov)
        vec[i].hdr.iovlen = 1
        if path:
            sa = sockaddr(path)
            keep.append(sa)
            vec[i].hdr.name = ctypes.cast(sa, ctypes.c_void_p)
            vec[i].hdr.namelen = len(sa.raw)
    n = libc.sendmmsg(tx.fileno(), vec, len(targets), 0)
    print("sendmmsg", n if n >= 0 else os.strerror(ctypes.get_errno()), [vec[i].len for i in range(len(targets))])


mmsg([("m1", d + "/rx"), ("m2", d + "/rx"), ("m3", d + "/missing"), ("m4", d + "/rx")])
recv("m1")
recv("m2")
mmsg([("m5", d + "/missing"), ("m6", d + "/rx")])
tx.connect(d + "/rx")
mmsg([("m7", None), ("m8", d + "/rx")])
recv("m7")
recv("m8")
