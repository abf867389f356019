#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# proctools.sh - procps, psmisc, lsof and start-stop-daemon reading /proc about a
# program's processes: a copy of sleep named food on /tmp and a sleep, listed,
# found, signalled (killall signals through a /proc/PID descriptor: a pidfd), their
# stat, status, comm, maps and exe read, food's file removed and read again, then
# stopped by pidfile and by name.  test_proctools.sh runs it as pid 3 of a pid
# namespace natively (/tmp a tmpfs, proc mounted) and under uvfs-run (/tmp memfs);
# the outputs must be equal.  Left out, as they differ by nature: the pids of the
# processes made after the first two, which the waits' sleeps number by timing (a
# reader's own pid is shown as P where it is shown to equal itself); the processes
# below pid 4 (the runners': natively a python that reaps and a shell, under
# uvfs-run its init and a shell), and the state of awk, sort and top, which run while ps
# reads them.  ps's columns are compared without their padding: ps sizes them by
# kernel.pid_max, which uvfs-run's /proc/sys gives as the host has it (the
# supervisor's pid namespace) and the native namespace has its own.
cd /tmp || exit 1
export LC_ALL=C TZ=UTC
# until: the program's own name in its comm and the program asleep (a sleep just
# started is still running its loader: R), or give up after 10 s
named() {
	i=0
	while { [ "$(cat "/proc/$1/comm" 2>/dev/null)" != "$2" ] ||
		[ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != S ]; } && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
cp /usr/bin/sleep /tmp/food
/tmp/food 1000 5< /etc/hostname 6< /tmp 7> /dev/null &
food=$!
sleep 1000 &
sl=$!
named $food food
named $sl sleep
echo "food $food sleep $sl"
ps -e -o pid=,ppid=,stat=,comm=,args= > /tmp/ps
awk '$1 > 3 && $4 != "awk" { if ($4 == "ps") $1 = "P"; $1 = $1; print }' /tmp/ps
pgrep -a food; echo "pgrep $?"
pgrep -l sleep; echo "pgrep $?"
pidof food; echo "pidof $?"
pidof /tmp/food; echo "pidof $?"
pkill -0 food; echo "pkill $?"
killall -0 food; echo "killall $?"
killall -0 sleep; echo "killall $?"
killall -0 nosuch 2>&1; echo "killall $?"
grep -E '^(Name|Umask|State|Tgid|Pid|PPid|TracerPid|Uid|Gid|Groups|NStgid|NSpid|Threads):' \
	/proc/self/status | sed 's/^\(Tgid\|Pid\|NStgid\|NSpid\):\t[0-9]*$/\1: P/'
grep -E '^(Name|State|Tgid|Pid|PPid|NSpid|Threads):' /proc/$food/status
cut -d: -f1 /proc/self/status | tr '\n' ' '; echo
# a shell run from memfs, and the subshell it forks (no exec: its name is kept)
cp /usr/bin/dash /tmp/mysh
/tmp/mysh -c 'read c < /proc/self/comm; echo "shell $c"; ( read c < /proc/self/comm; echo "subshell $c" )'
cat /proc/self/comm /proc/$food/comm
cut -d' ' -f1-5 /proc/self/stat | sed 's/^[0-9]* /P /'
cut -d' ' -f1-5 /proc/$food/stat
readlink /proc/thread-self | sed 's|^\([0-9]*\)/task/\1$|P/task/P|'
ls /proc/$food/task
ls /proc/$food/ns
for ns in net mnt pid user; do
	[ "$(readlink /proc/self/ns/$ns)" = "$(readlink /proc/$food/ns/$ns)" ] && echo "$ns shared"
done
readlink /proc/self/ns/uts | sed 's/:\[[0-9]*\]$/:[N]/'
# a namespace's number as ps -o mntns and stat -L read it: the link's
[ "$(ps -o mntns= -p $food | tr -d ' ')" = "$(readlink /proc/$food/ns/mnt | tr -dc 0-9)" ] &&
	echo "ps mntns is the link's"
[ "$(stat -L -c %i /proc/self/ns/net)" = "$(readlink /proc/self/ns/net | tr -dc 0-9)" ] &&
	echo "stat -L of ns/net is the link's"
(cd /proc/$food/ns && stat -L -c '%F' pid)
# /proc/sys: the kernel's (sysctl reads it), /proc/mounts self's, /proc's own files
cat /proc/sys/kernel/ostype /proc/sys/fs/protected_symlinks
sysctl -n kernel.ostype 2>/dev/null || echo "no sysctl"
ls /proc/sys | head -4
readlink /proc/mounts
grep -c . /proc/filesystems | sed 's/^[0-9]*$/some/'
head -c 5 /proc/version; echo
awk '$6 != "" { print $2, $6, $7 }' /proc/$food/maps | grep food | sort -u
grep -c '^Rss:' /proc/$food/smaps_rollup
readlink /proc/$food/exe
top -bn1 | awk 'NR > 7 && ($12 == "food" || $12 == "sleep") { print $1, $2, $8, $12 }' | sort -n
lsof -p $food -a -d cwd,rtd,txt -Fftn 2>&1 | grep -v '^p'
# its descriptors and mappings, and the reader's own descriptors: uvfs's (a file, a directory) beside the
# kernel's (the pipe to the runner, /dev/null), listed, read, stat'ed, followed
ls -l /proc/$food/fd | awk 'NR > 1 { print $1, $2, $9, $10, $11 }' | sed 's/:\[[0-9]*\]$/:[N]/'
ls -l /proc/self/fd | awk 'NR > 1 { print $1, $9, $10, $11 }' | sed 's/:\[[0-9]*\]$/:[N]/; s|/proc/[0-9]*/fd$|/proc/P/fd|'
ls /proc/$food/fdinfo | tr '\n' ' '; echo
grep -E '^(pos|flags):' /proc/$food/fdinfo/1 /proc/$food/fdinfo/5
stat -c '%A %s %N' /proc/$food/fd/0 /proc/$food/fd/1 /proc/$food/fd/6 | sed 's/:\[[0-9]*\]/:[N]/'
stat -L -c '%F' /proc/$food/fd/0 /proc/$food/fd/1 /proc/$food/fd/5
lsof -p $food -Ffatn 2>&1 | grep -v "^p"
# names relative to /proc/self/fd (gVisor's fstatat(proc_self_fd, "0")): followed and not
python3 - 3< /dev/null 4> /dev/null <<'EOF'
import os
d = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
for n in ("3", "4"):
    print(n, oct(os.stat(n, dir_fd=d).st_mode & 0o170000),
          oct(os.stat(n, dir_fd=d, follow_symlinks=False).st_mode), os.readlink(n, dir_fd=d))
os.chdir("/proc/self/fd")
print(oct(os.stat("3").st_mode & 0o170000), os.access("3", os.R_OK), os.access("4", os.R_OK))
print(sorted(int(x) for x in os.listdir(".")) == sorted(int(x) for x in os.listdir("/proc/self/fd")))
fd = os.open("3", os.O_RDONLY)
print(oct(os.fstat(fd).st_mode & 0o170000))
EOF
# a file of /tmp mapped while open: maps names it (renamed, removed) as the kernel does
python3 - <<'EOF'
import mmap, os
def names():
    return sorted(set(l.split(None, 5)[5].rstrip("\n") for l in open("/proc/self/maps")
                      if len(l.split(None, 5)) == 6 and "/tmp/" in l))
with open("/tmp/m1", "wb") as f:
    f.write(b"x" * 8192)
f = open("/tmp/m1", "r+b")
m = mmap.mmap(f.fileno(), 8192)
print(names())
os.rename("/tmp/m1", "/tmp/m2")
print(names())
os.unlink("/tmp/m2")
print(names())
st = os.stat("/proc/self/fd/%d" % f.fileno())
dev, ino = [l.split()[3:5] for l in open("/proc/self/maps") if "/tmp/m2" in l][0]
print(int(dev.split(":")[0], 16) == os.major(st.st_dev), int(dev.split(":")[1], 16) == os.minor(st.st_dev), int(ino) == st.st_ino)
# mapped, then its descriptor closed (as ld.so leaves a library), then renamed
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
with open("/tmp/m3", "wb") as f:
    f.write(b"y" * 8192)
fd = os.open("/tmp/m3", os.O_RDONLY)
addr = libc.mmap(None, 8192, mmap.PROT_READ, mmap.MAP_PRIVATE, fd, 0)
os.close(fd)
print(addr not in (None, ctypes.c_void_p(-1).value), [n for n in names() if "m3" in n or "m4" in n])
os.rename("/tmp/m3", "/tmp/m4")
print([n for n in names() if "m3" in n or "m4" in n])
EOF
rm /tmp/food
awk '$6 != "" { print $2, $6, $7 }' /proc/$food/maps | grep food | sort -u
readlink /proc/$food/exe
cp /usr/bin/sleep /tmp/food
start-stop-daemon --start --background --make-pidfile --pidfile /tmp/s.pid --exec /tmp/food -- 999
echo "start $?"
named "$(cat /tmp/s.pid)" food
start-stop-daemon --status --pidfile /tmp/s.pid; echo "status $?"
start-stop-daemon --stop --pidfile /tmp/s.pid --retry 5; echo "stop $?"
start-stop-daemon --status --pidfile /tmp/s.pid; echo "status $?"
start-stop-daemon --stop --name food --retry 5; echo "stop by name $?"
pidof food; echo "pidof $?"
# (the shell's "Terminated" for the job goes where its stderr is when it notices:
# not compared)
{ pkill -x sleep; echo "pkill $?"; wait $sl; echo "sleep $?"; } 2>/dev/null
wait 2>/dev/null
