#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_gvisor.sh UVFS_RUN - gVisor's syscall tests for the calls uvfs answers (issue
# 33: rename, link, unlink, mkdir, symlink, open, open_create, stat, chmod, chown,
# truncate, getdents, chdir, fchdir, chroot, dup, fcntl, lseek, utimes, statfs,
# mknod, access, proc), built by gvisor-build.sh from the copy of
# github.com/google/gvisor in GVISOR_SRC (into GVISOR_BUILD, /var/tmp/uvfs-gvisor by
# default), each binary run natively (a private mount namespace, the root read-only,
# a fresh tmpfs on /tmp) and under uvfs-run (memfs /tmp): every test case that
# passes natively must pass under uvfs-run.  Without GVISOR_SRC the test is
# skipped, saying so.  GVISOR_TESTS="name ..." runs those binaries alone.  Needs
# root.  TAP: a line per test case that passes natively.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
if [ -z "${GVISOR_SRC:-}" ] || [ ! -d "$GVISOR_SRC/test/syscalls/linux" ]; then
	echo "1..0 # SKIP no gVisor: set GVISOR_SRC to a copy of github.com/google/gvisor"
	exit 77
fi
. "$here/native.sh"
out=${GVISOR_BUILD:-/var/tmp/uvfs-gvisor}
export GVISOR_TESTS=${GVISOR_TESTS:-"rename link unlink mkdir symlink open open_create stat
chmod chown truncate getdents chdir fchdir chroot dup fcntl lseek utimes statfs mknod access proc"}
if ! built=$(bash "$here/gvisor-build.sh" "$GVISOR_SRC" "$out" 2>&1); then
	not_ok "gVisor's tests built from $GVISOR_SRC" "$(sed 's/^/  /' <<< "$built")"
	echo "1..$n"
	exit 1
fi
work=$(mktemp -d /var/tmp/uvfs-gvisor-run.XXXXXX)
# proc_test writes the host's kernel.keys.maxkeys (ProcSysKernelKeysMax): what the
# host had is put back after each run, natively and under uvfs-run alike
maxkeys=/proc/sys/kernel/keys/maxkeys
keys=$(cat "$maxkeys" 2>/dev/null)
restore() { [ -z "$keys" ] || echo "$keys" > "$maxkeys"; }
trap 'restore; rm -rf "$work"' EXIT
# gtest's verdicts: "[       OK ] Suite.Name (3 ms)", "[  SKIPPED ] ..."
verdict() { sed -nE "s/^\[ *$2 *\] ([A-Za-z0-9_./]+) \([0-9]+ ms\)$/\1/p" "$1" | sort -u; }
for t in $GVISOR_TESTS; do
	bin=$out/${t}_test
	native env TEST_TMPDIR=/tmp timeout 900 "$bin" --gtest_color=no > "$work/$t.native" 2>&1
	restore
	(cd /tmp && TEST_TMPDIR=/tmp timeout 900 "$UR" -- "$bin" --gtest_color=no) > "$work/$t.uvfs" 2>&1
	restore
	passed=$(verdict "$work/$t.uvfs" OK)
	for c in $(verdict "$work/$t.native" OK); do
		if grep -qxF "$c" <<< "$passed"; then
			ok "$t: $c"
		else
			# the case's own lines: from its RUN to its verdict
			not_ok "$t: $c, which passes natively" \
				"$(sed -n "/^\[ RUN      \] $c\$/,/^\[ *[A-Z]* *\] $c /p" "$work/$t.uvfs" |
				   head -30 | sed 's/^/  /')"
		fi
	done
done
echo "1..$n"
[ "$failed" = 0 ]
