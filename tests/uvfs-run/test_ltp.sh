#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_ltp.sh UVFS_RUN - LTP's syscall tests for the calls uvfs answers, each run
# natively (a private mount namespace, TMPDIR a fresh tmpfs) and under uvfs-run
# (TMPDIR /tmp, memfs), no helper library: each must end as it ends on the kernel's
# tmpfs -- its exit status and LTP's summary (passed, failed, broken, skipped,
# warnings).  LTP is not part of uvfs (its licence and ownership are its own): give
# an installed copy in LTP_DIR (its testcases/bin holds the tests: `./configure
# --prefix=DIR`, then `make install` of lib and the directories named below); without
# one the test is skipped, saying so.  LTP_ONLY="name ..." runs those tests alone.
# Needs root.  TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
bin=${LTP_DIR:-}/testcases/bin
if [ -z "${LTP_DIR:-}" ] || [ ! -d "$bin" ]; then
	echo "1..0 # SKIP no LTP: set LTP_DIR to an installed copy of github.com/linux-test-project/ltp"
	exit 77
fi
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 77
fi
# The directories of testcases/kernel/syscalls whose calls uvfs answers; a test is
# named after its directory and a number (rename01, umount2_01, fcntl27_64)
dirs="access chdir chmod chown chroot creat dup dup2 dup3 faccessat faccessat2 fchdir
fchmod fchmodat fchmodat2 fchown fchownat fcntl fstat fstatat fstatfs ftruncate getcwd
getdents inotify lchown link linkat lseek lstat mkdir mkdirat mknod mknodat open openat
openat2 readlink readlinkat rename renameat renameat2 rmdir stat statfs statx symlink
symlinkat truncate umask unlink unlinkat utime utimensat utimes open_tree move_mount
fsopen fsconfig fsmount fspick mount_setattr statmount listmount mount umount umount2
setxattr getxattr listxattr removexattr fsetxattr fgetxattr flistxattr fremovexattr
lgetxattr llistxattr lremovexattr"
tests=${LTP_ONLY:-}
if [ -z "$tests" ]; then
	for d in $dirs; do
		for t in "$bin/$d"[0-9_]*; do
			[ -x "$t" ] || continue
			case ${t#"$bin/$d"} in
			[0-9]* | _[0-9]*) tests="$tests ${t##*/}" ;;
			esac
		done
	done
fi
# a test found by two directories' names (fchmodat2_01: fchmodat's and fchmodat2's)
# runs once
tests=$(printf '%s\n' $tests | sort -u)
work=$(mktemp -d /var/tmp/uvfs-ltp.XXXXXX)
trap 'rm -rf "$work"' EXIT
# LTP's end of run: "Summary:" then five counts; or, for an old-style test, its
# result lines' kinds; and the exit status
tally() {
	local s
	s=$(sed -n '/^Summary:/,$p' "$1" | grep -E '^(passed|failed|broken|skipped|warnings) ')
	[ -n "$s" ] || s=$(grep -oE '\b(TPASS|TFAIL|TBROK|TCONF|TWARN)\b' "$1" | sort | uniq -c | tr -s ' ')
	printf '%s\nstatus %s' "$s" "$(cat "$1.rc")"
}
# the kernel's tmpfs is the specification: a test of every filesystem
# (.all_filesystems) runs on tmpfs alone, on both sides
export LTPROOT=$LTP_DIR PATH="$bin:$PATH" LTP_TIMEOUT_MUL=4 LTP_SINGLE_FS_TYPE=tmpfs TMPDIR=/tmp
# natively as uvfs-run's namespace is: the root read-only, a fresh tmpfs on /tmp
. "$here/native.sh"
for t in $tests; do
	native timeout 600 "$bin/$t" > "$work/$t.native" 2>&1
	echo $? > "$work/$t.native.rc"
	(cd /tmp && timeout 600 "$UR" -- "$bin/$t") > "$work/$t.uvfs" 2>&1
	echo $? > "$work/$t.uvfs.rc"
	want=$(tally "$work/$t.native")
	got=$(tally "$work/$t.uvfs")
	blockfs=$(grep -oE 'The [a-z0-9]+ filesystem is not supported|mount\(/dev/loop[0-9]+, [^,]*, [a-z0-9]+, .*ENODEV' \
		"$work/$t.uvfs" | head -1)
	if [ "$want" != "$got" ] && [ -n "$blockfs" ] && grep -q '/dev/loop' "$work/$t.native" &&
	   ! grep -q 'Testing on tmpfs' "$work/$t.native"; then
		# natively on a loop device's ext2 or the like, not on tmpfs: uvfs has
		# no block-device filesystem (not the kernel's tmpfs's result to match)
		n=$((n + 1))
		echo "ok $n - $t # SKIP natively not on tmpfs; under uvfs-run: $blockfs"
	elif [ "$want" == "$got" ]; then
		ok "$t: as on the kernel's tmpfs ($(echo "$want" | tr '\n' ' '))"
	else
		not_ok "$t: as on the kernel's tmpfs" "native:" "$(sed 's/^/  /' "$work/$t.native" | tail -15)" \
			"under uvfs-run:" "$(sed 's/^/  /' "$work/$t.uvfs" | tail -15)"
	fi
done
# Tests that refuse tmpfs by name (LTP's lease tests: "Cannot do fcntl on a file on
# tmpfs filesystem", a limit of tmpfs kernels long gone) run where they agree to: a
# directory of the host's (TMPDIR on this machine's ext4) natively, and the same kind
# of directory through --bind under uvfs-run.  With LTP_ONLY, those of them it names.
bind_tests="fcntl24 fcntl24_64 fcntl25 fcntl25_64 fcntl26 fcntl26_64 fcntl32 fcntl32_64
fcntl33 fcntl33_64"
if [ -n "${LTP_ONLY:-}" ]; then
	bind_tests=$(for t in $bind_tests; do case " $LTP_ONLY " in *" $t "*) echo "$t" ;; esac; done)
fi
for t in $bind_tests; do
	[ -x "$bin/$t" ] || continue
	mkdir "$work/$t.ndir" "$work/$t.rdir"
	(cd /tmp && TMPDIR=$work/$t.ndir timeout 600 "$bin/$t") > "$work/$t.bn" 2>&1
	echo $? > "$work/$t.bn.rc"
	(cd /tmp && TMPDIR=/mnt timeout 600 "$UR" --bind "$work/$t.rdir" /mnt -- "$bin/$t") \
		> "$work/$t.bu" 2>&1
	echo $? > "$work/$t.bu.rc"
	want=$(tally "$work/$t.bn")
	got=$(tally "$work/$t.bu")
	if grep -q TCONF "$work/$t.bn"; then
		not_ok "$t on the host's filesystem: natively it did not run" "$(tail -5 "$work/$t.bn")"
	elif [ "$want" == "$got" ]; then
		ok "$t: on a --bind as on the host's filesystem ($(echo "$want" | tr '\n' ' '))"
	else
		not_ok "$t: on a --bind as on the host's filesystem" "native:" \
			"$(sed 's/^/  /' "$work/$t.bn" | tail -15)" "under uvfs-run:" \
			"$(sed 's/^/  /' "$work/$t.bu" | tail -15)"
	fi
done
echo "1..$n"
[ "$failed" = 0 ]
