#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# upgrade.sh DIR NAME BINARY - the upgrade that broke ALT Linux, on the real tools: a
# daemon, BINARY copied to DIR/NAME, started by start-stop-daemon; its new version
# written to DIR/NAME;5e2a9b1c and renamed over DIR/NAME, as rpm does; then
# start-stop-daemon --stop --exec DIR/NAME, which finds the old process by reading
# /proc/PID/exe -- the name the kernel gives the unlinked, replaced file -- and
# stat'ing it.  Prints that name, what pidof DIR/NAME finds and the stop's status.
# DIR /usr/sbin is first made a fresh tmpfs (the tools copied out of it to /tmp).
# Run as root, by
# upgrade-replay.sh under uvfs-run per era, and natively in a mount namespace of its
# own (it mounts).
set -u
dir=$1 name=$2 bin=$3
ssd=/tmp/start-stop-daemon pidof=/tmp/pidof
cp /usr/sbin/start-stop-daemon "$ssd" || exit 1
# sysvinit-utils' pidof (killall5 by another name), from /usr/sbin too
cp "$(readlink -f "$(command -v pidof)")" "$pidof" || exit 1
if [ "$dir" = /usr/sbin ]; then
	mount -t tmpfs -o mode=755 none /usr/sbin || exit 1
fi
cp "$bin" "$dir/$name" || exit 1
"$ssd" --start --background --make-pidfile --pidfile /tmp/food.pid --exec "$dir/$name" ||
	exit 1
# until the daemon runs its binary (--background returns after the fork); at most
# 15 s
pid=
for _ in $(seq 750); do
	pid=$(cat /tmp/food.pid 2>/dev/null)
	[ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe")" = "$dir/$name" ] && break
	sleep 0.02
done
echo "running: $(readlink "/proc/$pid/exe")"
cp "$bin" "$dir/$name;5e2a9b1c" && mv "$dir/$name;5e2a9b1c" "$dir/$name"
echo "after the upgrade: $(readlink "/proc/$pid/exe")"
# pidof finds a process by the file its /proc/PID/exe names, or by that name, or by
# its command line's first word
echo "pidof: $("$pidof" "$dir/$name" >/dev/null && echo found || echo none)"
"$ssd" --stop --exec "$dir/$name" --retry 5 >/dev/null 2>&1
echo "start-stop-daemon --stop --exec: $?"
# what the stop did not find is stopped here, so that nothing outlives the run (a
# process that has exited has no exe, even before it is reaped)
if readlink "/proc/$pid/exe" >/dev/null 2>&1; then
	echo "the old daemon is still running"
	kill "$pid"
fi
exit 0
