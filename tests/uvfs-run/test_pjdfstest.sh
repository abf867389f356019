#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_pjdfstest.sh UVFS_RUN - pjdfstest (the POSIX file-system suite: 238 files, 8,798
# checks) natively on a tmpfs, under uvfs-run on memfs and on a --bind: each must say
# "Result: PASS" with as many ok as the kernel's tmpfs in the same run, and leave
# nothing in the directory uvfs-run was started in, nor in the --bind's directory
# beyond what the suite leaves natively.  pjdfstest is not part of uvfs (its licence
# and ownership are its own): give a copy of its source in PJDFSTEST_SRC (a checkout of
# https://github.com/pjd/pjdfstest); without one the test is skipped, saying so.
# Needs root, autoconf, automake, gcc and prove (perl).  About 20 minutes a run on a
# 2-vCPU VM.  TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
if [ -z "${PJDFSTEST_SRC:-}" ] || [ ! -f "${PJDFSTEST_SRC}/pjdfstest.c" ]; then
	echo "1..0 # SKIP no pjdfstest: set PJDFSTEST_SRC to a checkout of github.com/pjd/pjdfstest"
	exit 77
fi
if [ "$(id -u)" != 0 ] || ! command -v prove > /dev/null || ! command -v autoreconf > /dev/null; then
	echo "1..0 # SKIP needs root, prove (perl) and autoreconf (autoconf, automake)"
	exit 77
fi
work=$(mktemp -d /var/tmp/uvfs-pjdfstest.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -a "$PJDFSTEST_SRC"/. "$work/src"
if ! (cd "$work/src" && autoreconf -ifs && ./configure && make pjdfstest) > "$work/build.log" 2>&1; then
	not_ok "pjdfstest builds" "$(tail -5 "$work/build.log")"
	echo "1..$n"
	exit 1
fi
mkdir "$work/start" "$work/bind"
run() {  # MODE: prove's output in $work/MODE.log
	local prove="prove -r $work/src/tests"
	case $1 in
	native) unshare -m sh -c "mount -t tmpfs none /mnt && cd /mnt && $prove" ;;
	memfs) (cd "$work/start" && "$UR" -- sh -c "cd /tmp && $prove") ;;
	bind) (cd "$work/start" && "$UR" --bind "$work/bind" /mnt -- sh -c "cd /mnt && $prove") ;;
	esac > "$work/$1.log" 2>&1
}
# "ok" counts come from prove's "Files=N, Tests=M" and its failures, if any
tally() { grep -E '^(Files=|Result:)' "$work/$1.log" | sed 's/, [0-9]* wallclock.*//'; }
for mode in native memfs bind; do
	run $mode
done
want=$(tally native)
same "pjdfstest natively on a tmpfs" "Files=238, Tests=8798
Result: PASS" "$want"
same "pjdfstest under uvfs-run on memfs: as natively" "$want" "$(tally memfs)"
same "pjdfstest under uvfs-run on a --bind: as natively" "$want" "$(tally bind)"
same "nothing left in the directory uvfs-run was started in" "" "$(ls -A "$work/start")"
same "nothing left in the --bind's directory" "" "$(ls -A "$work/bind")"
echo "1..$n"
[ "$failed" = 0 ]
