#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# upgrade-stop.sh NAME - the seed's upgrade with nothing but the tools reading /proc:
# a daemon (sleep, copied to /tmp/NAME) started by start-stop-daemon, its new version
# renamed over it as rpm does, then start-stop-daemon --stop --exec.  For
# test_explain.sh: under uvfs-run --explain the first call that differs is the stop's
# readlink of /proc/PID/exe.  Prints the stop's status.
name=$1
cp /usr/sbin/start-stop-daemon /tmp/ssd || exit 1
cp /usr/bin/sleep "/tmp/$name" || exit 1
/tmp/ssd --start --background --make-pidfile --pidfile /tmp/d.pid --exec "/tmp/$name" -- 1000
# until the daemon runs its binary: its command name is the binary's, and so is its
# exe -- under uvfs-run the kernel's comm changes at the kernel's exec, uvfs's exe
# when the supervisor has followed it (PTRACE_EVENT_EXEC): waiting on comm alone, the
# stop below once read the exe as ENOENT and said "stop: 1" (1 run of ~100 of
# test_explain beside two busy loops: issue 31's rare failure): at most 15 s
for _ in $(seq 750); do
	[ -s /tmp/d.pid ] && [ "$(cat "/proc/$(cat /tmp/d.pid)/comm" 2>/dev/null)" = "${name:0:15}" ] &&
		[ "$(readlink "/proc/$(cat /tmp/d.pid)/exe" 2>/dev/null)" = "/tmp/$name" ] && break
	sleep 0.02
done
# ... and until start-stop-daemon's first child, which exits once it has forked the
# daemon, is reaped: the stop reads every /proc/PID/exe, and a zombie's is ENOENT
# (a difference between two runs of one era, by timing)
for _ in $(seq 750); do
	grep -qs '^State:.Z' /proc/[0-9]*/status || break
	sleep 0.02
done
cp /usr/bin/sleep "/tmp/$name;5e2a9b1c" && mv "/tmp/$name;5e2a9b1c" "/tmp/$name"
# no --retry: with it the stop polls the signalled daemon's exe until it is gone, and
# how many of those reads find it still running is the scheduler's -- two runs of one
# era differed there (CI, the clang build: linux-4.17's run read ENOENT where
# linux's read the name once more)
/tmp/ssd --stop --exec "/tmp/$name" >/dev/null
echo "stop: $?"
kill "$(cat /tmp/d.pid)" 2>/dev/null
exit 0
