#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_upgrade.sh UVFS_RUN - examples/upgrade-replay.sh, the seed's upgrade replayed
# with the real start-stop-daemon and pidof, must tell the seed's history: the old
# daemon found (by both) and stopped under every era but linux-3.15, whose /proc/PID/exe names the renamed
# file's old name; with a name too long to be stored inline, lost under 3.14, 3.15
# and 3.17 and found from 3.18 on -- on a memfs /usr/sbin and on memfs /tmp.  The
# kernel's row, run natively in the same test, must equal the linux row.  TAP.
set -u
ur=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ] || ! command -v start-stop-daemon >/dev/null || ! command -v gcc >/dev/null; then
	echo "1..0 # SKIP needs root, start-stop-daemon and gcc"
	exit 0
fi
echo "1..3"
got=$("$here/../../examples/upgrade-replay.sh" "$ur" 2>&1)
n=0
check() {
	n=$((n + 1))
	if [ "$2" == "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		diff <(echo "$2") <(echo "$3") | sed 's/^/# /'
	fi
}
# the rows of one file, era by era: "era stop exe"
rows() { grep -F " $1 " <<<"$got" | awk '{ $2 = ""; print }' | sed 's/  */ /g'; }
for f in /usr/sbin/food /tmp/food; do
	s=$(rows "$f")
	l=$(rows "$f-...")
	want_s=$(for e in kernel linux linux-4.17 linux-3.18 linux-3.17 linux-3.15 linux-3.14; do
		if [ $e = linux-3.15 ]; then
			echo "$e not found pidof none exe -> $f;5e2a9b1c (deleted)"
		else
			echo "$e stopped pidof found exe -> $f (deleted)"
		fi
	done)
	want_l=$(for e in kernel linux linux-4.17 linux-3.18 linux-3.17 linux-3.15 linux-3.14; do
		case $e in
		linux-3.17 | linux-3.15 | linux-3.14)
			echo "$e not found pidof none exe -> $f-...;5e2a9b1c (deleted)" ;;
		*) echo "$e stopped pidof found exe -> $f-... (deleted)" ;;
		esac
	done)
	check "$f: the old daemon stopped but under linux-3.15; with a long name, from 3.18 on" \
		"$want_s
$want_l" "$s
$l"
done
# the kernel's row is linux's, line for line
k=$(grep '^kernel ' <<<"$got" | cut -c12-)
u=$(grep '^linux ' <<<"$got" | cut -c12-)
check "the running kernel agrees with the linux personality" "$k" "$u"
