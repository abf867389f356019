#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# inotifywait.sh DIR: inotifywait -m -r on a tree under change; prints its events
set -e
cd "$1"
rm -rf iw && mkdir -p iw/t/a && cd iw
: > out; : > err  # before the background shell makes them: the greps below read them
inotifywait -m -r --format '%w|%e|%f' t > out 2>err &
pid=$!
i=0
until grep -q "Watches established" err 2>/dev/null || [ $i -ge 400 ]; do i=$((i+1)); sleep 0.05; done
wait_for() {  # until out has a line matching $1
	i=0
	while ! grep -q "$1" out; do
		i=$((i + 1)); [ $i -lt 400 ] || { echo "timeout waiting for $1"; break; }
		sleep 0.05
	done
}
mkdir t/b
wait_for '^t/|CREATE,ISDIR|b$'
echo x > t/b/f
wait_for '^t/b/|CLOSE_WRITE,CLOSE|f$'
mv t/b/f t/a/g
wait_for '^t/a/|MOVED_TO|g$'
mv t/a t/c
wait_for '^t/|MOVED_TO,ISDIR|c$'
touch t/c/h
wait_for '^t/c/|CLOSE_WRITE,CLOSE|h$'
rm -r t/b
wait_for '^t/|DELETE,ISDIR|b$'  # the last event: killed before it, inotifywait would not print it
kill $pid
wait $pid 2>/dev/null || true
cat out
