#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_ltpfound.sh UVFS_RUN LTPFOUND THREAD_CREDS - what the Linux Test Project and
# gVisor's syscall tests found wrong in uvfs-run (issue 33): tests/uvfs-run/ltpfound.c
# and thread_creds.c under uvfs-run on its memfs /tmp, compared line by line with the
# same programs on the running kernel in a private mount namespace with a fresh tmpfs
# on /tmp.  Needs root; prints TAP.
set -u
UR=$(realpath "$1")
# the program, copied out of the build directory (which may be under /tmp)
bin=$(mktemp -d /var/tmp/uvfs-run-ltp.XXXXXX)
trap 'rm -rf "$bin"' EXIT
cp "$2" "$3" "$bin/"
LTPFOUND=$bin/$(basename "$2")
THREAD_CREDS=$bin/$(basename "$3")
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

# credentials per thread: one thread's raw setresuid leaves the other root
want=$(native "$THREAD_CREDS" /tmp 2>&1; echo "status $?")
got=$(cd /tmp && "$UR" -- "$THREAD_CREDS" /tmp 2>&1; echo "status $?")
same "credentials per thread (a raw setresuid in one thread)" "$want" "$got"

# LTP truncate03's shape through real programs: bash's ulimit -f (KiB; soft and hard)
# and the programs SIGXFSZ kills (status 153; bash's report without its pid); and
# uvfs-run itself started under the limit, whose own writes for the program (a
# memfd's) must not meet it
pids() { sed 's/\(line [0-9]*\): *[0-9]* /\1: PID /'; }
fsz='ulimit -c 0; ulimit -f 1; truncate -s 10M /tmp/f; echo "status $?"
truncate -s 1K /tmp/f; echo "status $?"; head -c 2000 /dev/zero > /tmp/g; echo "status $?"
stat -c %s /tmp/f /tmp/g'
want=$(native bash -c "$fsz" 2>&1 | pids)
got=$(cd /tmp && "$UR" -- bash -c "$fsz" 2>&1 | pids)
same "ulimit -f 1: truncate and a write killed by SIGXFSZ" "$want" "$got"
fsz2='truncate -s 10M /tmp/f; echo "status $?"; truncate -s 1K /tmp/f; echo "status $?"
stat -c %s /tmp/f'
want=$(native bash -c "ulimit -c 0; ulimit -f 1; bash -c '$fsz2'" 2>&1 | pids)
got=$(cd /tmp && bash -c 'ulimit -c 0; ulimit -f 1; "$1" -- bash -c "$2"' x "$UR" "$fsz2" 2>&1 | pids)
same "uvfs-run started under ulimit -f 1" "$want" "$got"
# LTP truncate03 itself: the limit set, then seteuid(nobody) -- uvfs-run's thread,
# with the program's credentials, may not prlimit() the program any more and reads
# its /proc/PID/limits instead; SIGXFSZ blocked, so EFBIG is all there is
fsz3='import os, resource, signal
os.mkdir("w"); os.chmod("w", 0o777)
resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 20, 16 << 20))
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGXFSZ])
os.seteuid(65534)
open("w/f", "w").close()
for size in (32 << 20, 1 << 20):
    try:
        os.truncate("w/f", size)
        print(size, "done", os.stat("w/f").st_size)
    except OSError as e:
        print(size, e.strerror)'
want=$(native python3 -c "$fsz3" 2>&1)
got=$(cd /tmp && "$UR" -- python3 -c "$fsz3" 2>&1)
same "RLIMIT_FSIZE of a program that changed its effective uid" "$want" "$got"
echo "1..$n"
[ "$failed" = 0 ]
