#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_ltpfound.sh UVFS_RUN LTPFOUND - what the Linux Test Project found wrong in
# uvfs-run's decoding (issue 33): tests/uvfs-run/ltpfound.c under uvfs-run on its
# memfs /tmp, compared line by line with the same program on the running kernel in a
# private mount namespace with a fresh tmpfs on /tmp.  Needs root; prints TAP.
set -u
UR=$(realpath "$1")
# the program, copied out of the build directory (which may be under /tmp)
bin=$(mktemp -d /var/tmp/uvfs-run-ltp.XXXXXX)
trap 'rm -rf "$bin"' EXIT
cp "$2" "$bin/"
LTPFOUND=$bin/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/native.sh"

n=0
failed=0
same() {
	n=$((n + 1))
	if [ "$2" == "$3" ]; then echo "ok $n - $1"; else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/# /'
	fi
}

want=$(native "$LTPFOUND" /tmp 2>&1; echo "status $?")
got=$(cd /tmp && "$UR" -- "$LTPFOUND" /tmp 2>&1; echo "status $?")
same "issue 33's calls on memfs" "$want" "$got"
echo "1..$n"
[ "$failed" = 0 ]
