#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_inotify.sh UVFS_RUN - inotify answered by uvfs under uvfs-run (issue 32), each
# program compared with the same commands natively on a tmpfs: inotify.py (poll,
# select and epoll readiness, FIONREAD, whole events, one cookie per move, a blocking
# read woken by another process, IN_Q_OVERFLOW at the limit), on memfs and on a
# --bind; tail -F following a log rotated by rename with a 1000 s poll interval, so
# that only inotify can tell it; inotifywait -m -r on a tree under change; dnotify.py
# (fcntl F_NOTIFY's signals); inotify_fdinfo.py (the watches in /proc/self/fdinfo).  Needs
# root and inotify-tools; prints TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/native.sh"
for t in python3 tail inotifywait; do
	if ! command -v $t > /dev/null; then
		echo "1..0 # SKIP $t is not installed (make deps installs inotify-tools)"
		exit 77
	fi
done
trap 'rm -rf "${bdir:-}" "${ndir:-}" "${sdir:-}"' EXIT
bdir=$(mktemp -d /var/tmp/uvfs-run-inotify.XXXXXX)
ndir=$(mktemp -d /var/tmp/uvfs-run-inotify-native.XXXXXX)
# the scripts, where both sides see them: a checkout under /tmp is hidden by the
# fresh tmpfs on /tmp, natively and under uvfs-run alike
sdir=$(mktemp -d /var/tmp/uvfs-run-inotify-scripts.XXXXXX)
cp "$here/inotify.py" "$here/inotify_fdinfo.py" "$here/dnotify.py" "$here/tail-follow.sh" "$here/inotifywait.sh" "$sdir/"
here=$sdir
onbind() {  # onbind COMMAND...: natively with $ndir bound on /mnt, as uvfs-run's --bind
	native bash -c 'mount --bind "$1" /mnt && mount -o remount,bind,rw /mnt && shift && "$@"' \
		x "$ndir" "$@"
}

want=$(native python3 "$here/inotify.py" /tmp 2>&1)
same "inotify.py ran natively" "watch 1 anon_inode:inotify 0o600" "$(head -1 <<< "$want")"
same "inotify.py on memfs" "$want" "$("$UR" -- python3 "$here/inotify.py" /tmp 2>&1)"
same "inotify.py on a --bind" "$(onbind python3 "$here/inotify.py" /mnt 2>&1)" \
	"$("$UR" --bind "$bdir" /mnt -- python3 "$here/inotify.py" /mnt 2>&1)"
want=$(native python3 "$here/inotify_fdinfo.py" /tmp 2>&1)
same "inotify_fdinfo.py ran natively: a line a watch" "f inotify wd:1 ino:=st_ino sdev:=st_dev mask:80000002 ignored_mask:0 =name_to_handle_at" \
	"$(tail -1 <<< "$want")"
same "/proc/self/fdinfo of an inotify descriptor: its watches, as the kernel's" "$want" \
	"$("$UR" -- python3 "$here/inotify_fdinfo.py" /tmp 2>&1)"
want=$(native python3 "$here/dnotify.py" /tmp 2>&1)
same "dnotify.py ran natively" "siginfo: the F_SETSIG signal True" "$(tail -1 <<< "$want")"
same "dnotify.py on memfs" "$want" "$("$UR" -- python3 "$here/dnotify.py" /tmp 2>&1)"
want=$(native sh "$here/tail-follow.sh" /tmp 2>&1)
same "tail -F natively follows the rotated log" "one two three four" "$(echo $want)"
same "tail -F under uvfs-run, memfs" "$want" "$("$UR" -- sh "$here/tail-follow.sh" /tmp 2>&1)"
same "tail -F under uvfs-run, --bind" "$want" \
	"$("$UR" --bind "$bdir" /mnt -- sh "$here/tail-follow.sh" /mnt 2>&1)"
want=$(native sh "$here/inotifywait.sh" /tmp 2>&1)
same "inotifywait -m -r natively: 27 events" "27" "$(wc -l <<< "$want")"
same "inotifywait -m -r under uvfs-run, memfs" "$want" \
	"$("$UR" -- sh "$here/inotifywait.sh" /tmp 2>&1)"
same "inotifywait -m -r under uvfs-run, --bind" "$want" \
	"$("$UR" --bind "$bdir" /mnt -- sh "$here/inotifywait.sh" /mnt 2>&1)"
echo "1..$n"
[ "$failed" = 0 ]
