#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_unixsock.sh UVFS_RUN - unix sockets with paths under uvfs-run, against the
# kernel (issue 32): unixsock.py's binds, connects and sendtos with their errors on
# memfs and on a --bind; a program outside uvfs-run and one inside connecting to each
# other through a --bind; nothing made in the directory uvfs-run was started in; and
# real programs -- tmux new/ls/kill-server, ssh-agent -a with ssh-add -l, Python's
# socketserver, socat both ways across a --bind -- each compared with the same
# commands natively on a tmpfs.  Needs root, tmux, ssh-agent and socat; prints TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/native.sh"
for t in python3 tmux ssh-agent ssh-add socat; do
	if ! command -v $t > /dev/null; then
		echo "1..0 # SKIP $t is not installed (make deps installs tmux, openssh-client, socat)"
		exit 77
	fi
done
trap 'rm -rf "${udir:-}"' EXIT

# Unix sockets with paths (issue 32): bind, connect, sendto by every kind of name, the
# errors of the walk and the socket's, on memfs and on a --bind; nothing made in the
# directory uvfs-run was started in (the kernel once bound there)
udir=$(mktemp -d /var/tmp/uvfs-run-sock.XXXXXX)
cp "$here/unixsock.py" "$udir/"
mkdir "$udir/start" "$udir/native" "$udir/run"
start=$udir/start
same "unix sockets with paths on memfs" "$(native python3 "$udir/unixsock.py" /tmp 2>&1)" \
	"$(cd "$start" && "$UR" -- python3 "$udir/unixsock.py" /tmp 2>&1)"
want=$(native bash -c 'mount --bind "$1" /mnt && mount -o remount,bind,rw /mnt &&
	python3 "$2" /mnt' x "$udir/native" "$udir/unixsock.py" 2>&1)
same "unix sockets with paths on a --bind" "$want" \
	"$(cd "$start" && "$UR" --bind "$udir/run" /mnt -- python3 "$udir/unixsock.py" /mnt 2>&1)"
same "... the host directory holds the same sockets and files" \
	"$(cd "$udir/native" && find . -printf '%p %y %m\n' | sort)" \
	"$(cd "$udir/run" && find . -printf '%p %y %m\n' | sort)"
# datagrams to a path with control data (descriptors, credentials given or not) and
# what a receiver with SO_PASSCRED reads: the sender's credentials, not the
# supervisor's; the control data's errors before the name's
cp "$here/dgram_control.py" "$udir/"  # where both sides see it (not a /tmp checkout)
want=$(native python3 "$udir/dgram_control.py" /tmp 2>&1)
same "datagrams with control data: ran natively" "given sent 5" "$(head -1 <<< "$want")"
same "datagrams with control data on memfs" "$want" \
	"$(cd "$start" && "$UR" -- python3 "$udir/dgram_control.py" /tmp 2>&1)"
mkdir "$udir/dnative" "$udir/drun"
want=$(native bash -c 'mount --bind "$1" /mnt && mount -o remount,bind,rw /mnt &&
	python3 "$2" /mnt' x "$udir/dnative" "$udir/dgram_control.py" 2>&1)
same "datagrams with control data on a --bind" "$want" \
	"$(cd "$start" && "$UR" --bind "$udir/drun" /mnt -- python3 "$udir/dgram_control.py" /mnt 2>&1)"
# a server inside on a --bind and a client outside, then the other way round
rm -rf "${udir:?}/run"/*
cross='import os, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind("/mnt/in.tmp"); s.listen(1); os.rename("/mnt/in.tmp", "/mnt/in.sock")
a, _ = s.accept(); print("inside got", a.recv(100).decode())
while not os.path.exists("/mnt/out.sock"): time.sleep(0.01)
c = socket.socket(socket.AF_UNIX); c.connect("/mnt/out.sock"); c.send(b"from inside"); c.close()'
outside='import os, socket, sys, time
o = socket.socket(socket.AF_UNIX)
while not os.path.exists(sys.argv[1] + "/in.sock"): time.sleep(0.01)
c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1] + "/in.sock"); c.send(b"from outside"); c.close()
o.bind(sys.argv[1] + "/out.tmp"); o.listen(1); os.rename(sys.argv[1] + "/out.tmp", sys.argv[1] + "/out.sock")
a, _ = o.accept(); print("outside got", a.recv(100).decode())'
got=$( (cd "$start" && timeout 60 "$UR" --bind "$udir/run" /mnt -- python3 -c "$cross" 2>&1) &
	timeout 60 python3 -c "$outside" "$udir/run" 2>&1; wait)
same "a server in uvfs-run reached from outside through a --bind, and the other way" \
	"inside got from outside
outside got from inside" "$(LC_ALL=C sort <<<"$got")"


# Real programs, each against the same commands natively (the native side in a pid
# namespace of its own: ssh-agent -k and tmux kill-server find only their own)
tmux='tmux new -d "sleep 100"; echo "new $?"; tmux ls | sed "s/(created .*)/(created)/"
tmux kill-server; echo "kill-server $?"; stat -c "%n %F %a" /tmp/tmux-0 /tmp/tmux-0/default'
want=$(native unshare -pf bash -c "$tmux" 2>&1)
same "tmux natively" "new 0
0: 1 windows (created)
kill-server 0
/tmp/tmux-0 directory 700
/tmp/tmux-0/default socket 660" "$want"
same "tmux new -d, ls, kill-server" "$want" "$(cd "$start" && "$UR" -- bash -c "$tmux" 2>&1)"
agent='eval "$(ssh-agent -a /tmp/agent.sock)" > /dev/null; echo "agent $?"
SSH_AUTH_SOCK=/tmp/agent.sock ssh-add -l; echo "ssh-add -l $?"
stat -c "%n %F %a" /tmp/agent.sock; ssh-agent -k > /dev/null; echo "ssh-agent -k $?"
# (the agent removes its socket when the SIGTERM -k sent arrives: after -k returned)
for i in $(seq 1000); do [ -e /tmp/agent.sock ] || break; sleep 0.01; done; ls /tmp'
want=$(native unshare -pf bash -c "$agent" 2>&1)
same "ssh-agent natively" "agent 0
The agent has no identities.
ssh-add -l 1
/tmp/agent.sock socket 600
ssh-agent -k 0" "$want"
same "ssh-agent -a /tmp/agent.sock, ssh-add -l, ssh-agent -k" "$want
status 0" "$(cd "$start" && "$UR" -- bash -c "$agent" 2>&1; echo "status $?")"
server='import os, socketserver, socket, threading
class H(socketserver.StreamRequestHandler):
    def handle(self):
        self.wfile.write(b"echo " + self.rfile.readline())
srv = socketserver.ThreadingUnixStreamServer("/tmp/ss.sock", H)
print("server at", srv.server_address)
t = threading.Thread(target=srv.serve_forever); t.start()
for i in range(3):
    c = socket.socket(socket.AF_UNIX); c.connect("/tmp/ss.sock")
    c.sendall(b"hello %d\n" % i); print(c.recv(100).decode().strip(), c.getpeername()); c.close()
srv.shutdown(); srv.server_close(); t.join(); print(os.listdir("/tmp"))'
want=$(native python3 -c "$server" 2>&1)
same "Python's socketserver on a unix socket natively" "server at /tmp/ss.sock
echo hello 0 /tmp/ss.sock
echo hello 1 /tmp/ss.sock
echo hello 2 /tmp/ss.sock
['ss.sock']" "$want"
same "Python's socketserver on a unix socket in /tmp" "$want" \
	"$(cd "$start" && "$UR" -- python3 -c "$server" 2>&1)"
# socat: a listener inside uvfs-run on a --bind, a client outside; then the other way.
# -t 30: after one direction's end socat waits only half a second (its default) for
# the other, and each side here reaches its input's end at once -- a listener slower
# than that to fork sh and echo lost its line on a busy machine (a review: 5 of 20
# runs beside eight busy loops; with -t 30, 0 of 20).  Each still ends when the
# other side closes.
rm -rf "${udir:?}/run"/*
got=$( (cd "$start" && timeout 60 "$UR" --bind "$udir/run" /mnt -- \
		socat -t 30 UNIX-LISTEN:/mnt/in.tmp,unlink-close=0 SYSTEM:'echo inside answers; cat >&2' 2>&1) &
	echo "from outside" | timeout 60 socat -t 30 - UNIX-CONNECT:"$udir/run/in.tmp",retry=1200,interval=0.05
	wait)
same "socat: a listener in uvfs-run on a --bind, a client outside" "from outside
inside answers" "$(LC_ALL=C sort <<<"$got")"
rm -rf "${udir:?}/run"/*
got=$( (timeout 60 socat -t 30 UNIX-LISTEN:"$udir/run/out.tmp" SYSTEM:'echo outside answers; cat >&2' 2>&1) &
	echo "from inside" | (cd "$start" && timeout 60 "$UR" --bind "$udir/run" /mnt -- \
		socat -t 30 - UNIX-CONNECT:/mnt/out.tmp,retry=1200,interval=0.05 2>&1); wait)
same "socat: a client in uvfs-run, a listener outside" "from inside
outside answers" "$(LC_ALL=C sort <<<"$got")"
same "nothing made in the directory uvfs-run was started in" "" "$(ls -A "$start")"

echo "1..$n"
[ "$failed" = 0 ]
