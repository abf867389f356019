#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_lease_timeout.sh UVFS_RUN - lease_timeout.py natively and under uvfs-run (on
# memfs), with fs.lease-break-time at 1 s: a lease its holder keeps is taken away,
# and the file's owner and F_SETSIG's signal with it (uvfs-run clears the stand-in's:
# uvfs_lease_lost_take()).  The break time is the kernel's, one for the whole host:
# meson runs this test alone (is_parallel: false), and it puts the value back.  TAP.
set -u
ur=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
knob=/proc/sys/fs/lease-break-time
if [ "$(id -u)" != 0 ] || ! [ -w "$knob" ] || ! unshare -m true 2>/dev/null; then
	echo "1..0 # SKIP needs root, a writable $knob and mount namespaces"
	exit 0
fi
. "$here/native.sh"
work=$(mktemp -d /var/tmp/uvfs-lease-timeout.XXXXXX)
cp "$here/lease_timeout.py" "$work/"
old=$(cat "$knob")
trap 'echo "$old" > "$knob"; rm -rf "$work"' EXIT
echo 1 > "$knob"
. "$here/tap.sh"
want=$(native python3 "$work/lease_timeout.py" /tmp 2>&1)
got=$(cd /tmp && timeout -s KILL 60 "$ur" -- python3 "$work/lease_timeout.py" /tmp 2>&1)
same "natively: the writer's open took the lease away, the reader's gave it down" \
	"w after: lease F_UNLCK owner: 0 signal 0
r after: lease F_RDLCK owner: me signal 10
m after: lease F_UNLCK owner: 0 signal 0" "$(grep "after:" <<<"$want")"
same "under uvfs-run: as the kernel's" "$want" "$got"
echo "$old" > "$knob"
same "the break time put back" "$old" "$(cat "$knob")"
echo "1..$n"
[ "$failed" = 0 ]
