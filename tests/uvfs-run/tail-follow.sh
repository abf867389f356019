#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tail-follow.sh DIR: tail -F follows a log rotated by rename, with a poll interval of
# 1000 s, so that only inotify can tell it (prints what tail printed)
set -e
cd "$1"
rm -rf tf && mkdir tf && cd tf
echo one > log
: > out  # before tail: wait_for's grep must find it (the background shell makes it late)
tail -F -s 1000 log > out 2>/dev/null &
pid=$!
wait_for() {  # wait_for TEXT: until out has that line (20 s at most)
	i=0
	while ! grep -qx "$1" out; do
		i=$((i + 1)); [ $i -lt 400 ] || { echo "timeout waiting for $1"; break; }
		sleep 0.05
	done
}
wait_for one
echo two >> log
wait_for two
mv log log.1
echo three > log
wait_for three
echo four >> log
wait_for four
kill $pid
wait $pid 2>/dev/null || true
cat out
