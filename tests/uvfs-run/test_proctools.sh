#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_proctools.sh UVFS_RUN - proctools.sh (ps, top, pgrep, pidof, pkill, killall,
# lsof, start-stop-daemon and /proc/PID/{stat,status,comm,maps,smaps_rollup,exe,task}
# read by cat and awk) under uvfs-run against the kernel: natively it runs as pid 3 of
# a new pid namespace with its own proc and a tmpfs on /tmp; under uvfs-run, as pid 3
# too (uvfs-run's init is 1).  Needs root, procps, psmisc, lsof; prints TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 77
fi
for t in ps top pgrep pidof pkill killall lsof start-stop-daemon; do
	if ! command -v $t > /dev/null; then
		echo "1..0 # SKIP $t is not installed (make deps installs procps, psmisc, lsof)"
		exit 77
	fi
done
script=$(mktemp /var/tmp/uvfs-proctools.XXXXXX)
trap 'rm -f "$script"' EXIT
cp "$here/proctools.sh" "$script"
# Both sides without a terminal (setsid: from one, uvfs-run would leave the program in
# the terminal's group, and ps would show its foreground '+').
# Natively as under uvfs-run: pid 1 reaps every orphan (start-stop-daemon's daemon
# is one; --stop waits until it is gone) until pid 2 ends, a shell leading a process
# group of its own (uvfs-run's program does, started without a terminal: stat's
# pgrp is 2 on both sides), whose child, pid 3, runs the script (the python of
# /usr/bin: a shim of pyenv found first in PATH runs processes of its own)
lead='import os, sys
pid = os.fork()
if pid == 0:
    os.setpgid(0, 0)
    os.execvp("sh", ["sh", "-c", "sh \"$1\"; exit $?", "x", sys.argv[1]])
while True:
    p, st = os.wait()
    if p == pid:
        sys.exit(os.waitstatus_to_exitcode(st))'
want=$(setsid -w unshare -m --propagation private sh -c 'mount -t tmpfs none /tmp &&
	unshare -pf --mount-proc /usr/bin/python3 -c "$1" "$2"' x "$lead" "$script" 2>&1)
# natively, every tool found what it looked for (not two runs failing alike)
same "the tools natively" "pgrep 0
pgrep 0
pidof 0
pidof 0
pkill 0
killall 0
killall 0
killall 1
start 0
status 0
stop 0
status 1
stop by name 0
pidof 1
pkill 0
sleep 143" "$(printf '%s\n' "$want" | grep -E '^(pgrep|pidof|pkill|killall|start|status|stop|stop by name|sleep) [0-9]+$')"
got=$(cd / && setsid -w "$UR" -- sh -c 'sh "$1"; exit $?' x "$script" 2>&1)
printf "%s\n" "$got" > "${PROCTOOLS_OUT:-/dev/null}"
same "ps, top, pgrep, pidof, pkill, killall, lsof, start-stop-daemon and /proc/PID under uvfs-run" \
	"$want" "$got"

# maps of a --bind's file, mapped with its descriptor closed: named where the program
# sees it (renamed, removed), numbered as stat numbers it
bdir=$(mktemp -d /var/tmp/uvfs-proctools-bind.XXXXXX)
trap 'rm -f "$script"; rm -rf "$bdir"' EXIT
mkdir "$bdir/n" "$bdir/u"
mapsb='import mmap, os
def names():
    return [l.split(None, 5)[5].rstrip("\n") for l in open("/proc/self/maps") if "/mnt/" in l]
with open("/mnt/m1", "wb") as f:
    f.write(b"x" * 8192)
fd = os.open("/mnt/m1", os.O_RDWR)
m = mmap.mmap(fd, 8192)
os.close(fd)
print(names())
st = os.stat("/mnt/m1")
dev, ino = [l.split()[3:5] for l in open("/proc/self/maps") if "/mnt/m1" in l][0]
print(int(dev.split(":")[0], 16) == os.major(st.st_dev), int(dev.split(":")[1], 16) == os.minor(st.st_dev), int(ino) == st.st_ino)
os.rename("/mnt/m1", "/mnt/m2")
print(names())
os.unlink("/mnt/m2")
print(names())'
want=$(unshare -m --propagation private sh -c 'mount --bind "$1" /mnt && python3 -c "$2"' x \
	"$bdir/n" "$mapsb" 2>&1)
got=$(cd / && "$UR" --bind "$bdir/u" /mnt -- python3 -c "$mapsb" 2>&1)
same "maps of a --bind's file, mapped, renamed and removed, as the kernel's" "$want" "$got"
echo "1..$n"
[ "$failed" = 0 ]
