#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tsan.sh UVFS_RUN APPEND_THREADS EXEC_THREAD - uvfs-run's supervisor under ThreadSanitizer
# (`make tsan` runs it with a -fsanitize=thread build of uvfs-run and the library).
#
# The workloads are the ones that keep several of the supervisor's threads busy at
# once: independent processes calling in parallel (the notification workers), the
# threads of one process (its act lock), fifos (the helpers), a process tree that
# forks and shares descriptors, and execs by threads (the loop).  Each one's output is compared with the
# same command run natively (a private mount namespace, a fresh tmpfs on /tmp), and a
# ThreadSanitizer report anywhere on uvfs-run's standard error fails it.  Needs root;
# prints TAP.
set -u
UR=$(realpath "$1")
bin=$(mktemp -d /var/tmp/uvfs-run-tsan.XXXXXX)
trap 'rm -rf "$bin"' EXIT
cp "$2" "$3" "$bin/"
APPEND_THREADS=$bin/$(basename "$2")
EXEC_THREAD=$bin/$(basename "$3")
n=0
failed=0
# root, or skip; native COMMAND...
. "$(cd "$(dirname "$0")" && pwd)/native.sh"

# check NAME COMMAND...: the command's standard output and exit status under uvfs-run
# and natively, and uvfs-run's standard error free of ThreadSanitizer's reports
check() {
	local name=$1 want got err
	shift
	want=$(native "$@" 2>/dev/null; echo "status $?")
	got=$("$UR" --workers 4 -- "$@" 2>"$bin/err"; echo "status $?")
	err=$(grep -A 30 'ThreadSanitizer' "$bin/err")
	n=$((n + 1))
	if [ "$want" == "$got" ] && [ -z "$err" ]; then
		echo "ok $n - $name"
		return
	fi
	failed=$((failed + 1))
	echo "not ok $n - $name"
	printf '%s\n' "expected:" "$want" "got:" "$got" "$err" | head -80 | sed 's/^/# /'
}

# Four processes at a time, each statting, reading and renaming files of one
# directory: the workers answer them side by side
parallel='mkdir /tmp/d && cd /tmp/d && for i in $(seq 200); do echo $i > f$i; done &&
	ls | xargs -P4 -n 10 sh -c "for f; do stat -c %s \$f >/dev/null; cat \$f; mv \$f \$f.x; done" x |
	sort -n | md5sum; ls | wc -l; ls | grep -vc "\.x$"'
check "four processes at once on one directory" bash -c "$parallel"

# 32 threads of one process opening, appending and closing
check "32 threads of one process appending" "$APPEND_THREADS" /tmp

# fifos between processes: the helpers, the loop's handoffs
fifos='cd /tmp && for i in 1 2 3 4 5 6 7 8; do mkfifo p$i; done &&
	for i in 1 2 3 4 5 6 7 8; do cat p$i > o$i & done &&
	for i in 1 2 3 4 5 6 7 8; do echo $i > p$i & done; wait; cat o1 o2 o3 o4 o5 o6 o7 o8'
check "eight fifos, eight readers and eight writers" bash -c "$fifos"

# A tree that forks and shares descriptors, and a subshell's pipes
tree='cd /tmp && exec 3>log && for i in $(seq 20); do ( echo $i >&3; ls /proc/self/fd >/dev/null ) & done;
	wait; exec 3>&-; sort -n log | md5sum; find /tmp -maxdepth 1 | sort | wc -l'
check "twenty subshells writing to one shared descriptor" bash -c "$tree"

# Execs by threads other than the leader while the others make calls: the loop's
# exec handling against the workers' answers
check "execs by a thread while the others make calls" "$EXEC_THREAD" stale 30
check "execs by a thread as the leader opens" "$EXEC_THREAD" watch 30
# /proc's source (procsrc.c): processes reading their own and each other's stat,
# status and maps at once, the workers calling the source without uvfs's lock
procs='{ for i in 1 2 3 4; do (for j in 1 2 3 4 5; do grep -c "^Name:" /proc/self/status
	cut -d" " -f2 /proc/$$/stat; grep -c . /proc/$$/maps > /dev/null; done) & done; wait; } |
	sort | uniq -c'
check "four processes reading /proc at once" bash -c "$procs"

# Unix sockets: four servers bound at once (each bind's thread made under uvfs's
# lock by a worker) and their clients connecting (unixsock.c)
socks='import os, socket, threading
def one(i):
    s = socket.socket(socket.AF_UNIX); s.bind("/tmp/s%d" % i); s.listen(4)
    for k in range(5):
        c = socket.socket(socket.AF_UNIX); c.connect("/tmp/s%d" % i); a, _ = s.accept()
        c.send(b"x"); a.recv(1); c.close(); a.close()
for i in range(4):
    if os.fork() == 0:
        one(i); os._exit(0)
for i in range(4): os.wait()
print(sorted(os.listdir("/tmp")))'
check "four processes binding and connecting unix sockets" python3 -c "$socks"

echo "1..$n"
[ $failed = 0 ]
