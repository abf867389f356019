#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# soak.sh - run kernel-comparison tests many times in a row on a busy machine.
#
# A test that compares uvfs with the running kernel must not depend on the rest of
# the host: anonymous device numbers, mount ids, inode numbers of other filesystems
# and times at a resolution load can move belong to whoever asks next.  Run every new
# such test through this before committing it (docs/TESTING.md, "Soaking").
#
#   tests/soak.sh [-n COUNT] [-j STREAMS] [-C BUILDDIR] [-l LOAD] [-t SECONDS] [-c CHUNK] [TEST...]
#
#   -n COUNT   runs of each test (default 300)
#   -j STREAMS the runs shared among this many copies of the test running at once
#              (default 1: one after another); a slow test that waits more than it
#              computes gets its count sooner, and each copy is load beside the others
#   -C DIR     a configured meson build directory (default build); it is not
#              rebuilt, so a frozen build (a clone at the commit under test) may
#              be soaked while the tree changes
#   -l LOAD    what runs beside it, for the whole soak:
#                both  (default) the suite once more, `meson test --num-processes 2`
#                      in a loop, and two busy loops
#                meson the suite in a loop only;  busy  the two busy loops only;
#                none  nothing
#              The suite beside it leaves out the tests of suite 'global' (meson
#              runs those alone: test_mount_max lowers fs.mount-max for the host);
#              a 'global' test itself is soaked beside the busy loops only.
#   -t SECONDS stop a test's runs after this long (default: no limit); the count
#              reached is what is reported
#   -c CHUNK   runs a meson invocation makes, and so between two progress lines
#              (default 10; 1 for a test of minutes, uvfs_run, so that a soak cut
#              short still has every run it made on record)
#   TEST       meson test names (default: every test of suite 'kernel')
#
# Prints one line per test, "NAME: R runs, F failed (S s)"; while it runs, every chunk
# of runs adds "DATE NAME STREAM RUNS FAILED" (the stream's totals so far) to
# DIR/soak/progress, so a soak cut short still says how far it got.  Keeps the log of
# every chunk of runs (meson test --repeat CHUNK, which stops at a failure) with a
# failure in DIR/soak/NAME.STREAM.FIRST-LAST.txt.  A skipped run counts as failed.  Exits 1 when a run
# failed.
set -uo pipefail

count=300 streams=1 build=build load=both limit=0 chunk_size=10
while getopts n:j:C:l:t:c: opt; do
	case $opt in
	n) count=$OPTARG ;;
	j) streams=$OPTARG ;;
	C) build=$OPTARG ;;
	l) load=$OPTARG ;;
	t) limit=$OPTARG ;;
	c) chunk_size=$OPTARG ;;
	*) sed -n '11,33p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $load in both|meson|busy|none) ;; *) echo "soak.sh: -l both|meson|busy|none" >&2; exit 2 ;; esac
case $chunk_size in ''|*[!0-9]*|0) echo "soak.sh: -c wants a count of runs, 1 or more" >&2; exit 2 ;; esac
[ -f "$build/build.ninja" ] || { echo "soak.sh: $build is not a meson build directory" >&2; exit 2; }
build=$(cd "$build" && pwd)

# "uvfs:diff+kernel / name" -> name
list() { meson test -C "$build" --no-rebuild --list "$@" 2>/dev/null | sed -n 's|^.* / ||p'; }
tests=("$@")
[ ${#tests[@]} -gt 0 ] || mapfile -t tests < <(list --suite kernel)
[ ${#tests[@]} -gt 0 ] || { echo "soak.sh: no tests in $build's suite 'kernel'" >&2; exit 2; }
mapfile -t global < <(list --suite global)
# every name one of the build's tests (a name meson does not know ran nothing, counted
# as failed chunk after chunk)
mapfile -t known < <(list)
for t in "${tests[@]}"; do
	printf '%s\n' "${known[@]}" | grep -qxF -- "$t" ||
		{ echo "soak.sh: $build has no test '$t' (meson test -C $build --list)" >&2; exit 2; }
done

pids=()
stop_load() {
	for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	pids=()
}
trap 'stop_load; exit 130' INT TERM
start_load() {  # $1: with the suite beside (1) or not (0)
	set -m
	if [ "$1" = 1 ]; then
		( while :; do
			meson test -C "$build" --no-rebuild --num-processes 2 --no-suite global \
				--logbase soak-beside >/dev/null 2>&1
		  done ) &
		pids+=($!)
	fi
	if [ "$load" = both ] || [ "$load" = busy ]; then
		for _ in 1 2; do
			( while :; do :; done ) &
			pids+=($!)
		done
	fi
	set +m
}

# stream TEST J COUNT START: COUNT runs of TEST as stream J; prints "RUNS FAILED"
stream() {
	local t=$1 j=$2 count=$3 start=$4 runs=0 failed=0 chunk ran bad
	# meson's own start costs more than a short test: runs in chunks of --repeat,
	# each run a line of the chunk's JSON log; one at a time (meson would run a
	# chunk's repeats side by side, one per processor: a stream was two copies)
	while [ "$runs" -lt "$count" ]; do
		[ "$limit" -gt 0 ] && [ $((SECONDS - start)) -ge "$limit" ] && break
		chunk=$((count - runs < chunk_size ? count - runs : chunk_size))
		meson test -C "$build" --no-rebuild --num-processes 1 --repeat "$chunk" \
			--logbase "soak-$t-$j" "$t" >/dev/null 2>&1
		read -r ran bad < <(python3 - "$build/meson-logs/soak-$t-$j.json" <<-'EOF'
			import json, sys
			runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
			print(len(runs), sum(r["result"] not in ("OK", "EXPECTEDFAIL") for r in runs))
			EOF
		)
		# meson stops repeating at a failure: the runs made are the log's lines
		ran=${ran:-0} bad=${bad:-0}
		if [ "$ran" = 0 ]; then
			echo "soak.sh: $t: meson ran nothing" >&2
			ran=1 bad=1
		fi
		if [ "$bad" -gt 0 ]; then
			cp "$build/meson-logs/soak-$t-$j.txt" \
				"$build/soak/$t.$j.$((runs + 1))-$((runs + ran)).txt"
		fi
		runs=$((runs + ran)) failed=$((failed + bad))
		echo "$(date -u +%FT%TZ) $t $j $runs $failed" >> "$build/soak/progress"
	done
	echo "$runs $failed"
}

mkdir -p "$build/soak"
failed_any=0
for t in "${tests[@]}"; do
	is_global=0
	for g in "${global[@]}"; do [ "$g" = "$t" ] && is_global=1; done
	beside=0
	[ "$is_global" = 0 ] && { [ "$load" = both ] || [ "$load" = meson ]; } && beside=1
	start_load "$beside"
	start=$SECONDS
	# a 'global' test runs alone (test_mount_max sets the host's fs.mount-max)
	k=$streams spids=()
	[ "$is_global" = 1 ] && k=1
	for ((j = 0; j < k; j++)); do
		n=$(( count / k + (j < count % k ? 1 : 0) ))
		stream "$t" "$j" "$n" "$start" > "$build/soak/.$t.$j" &
		spids+=($!)
	done
	wait "${spids[@]}"
	runs=0 failed=0
	for ((j = 0; j < k; j++)); do
		read -r r f < "$build/soak/.$t.$j"
		runs=$((runs + r)) failed=$((failed + f))
		rm -f "$build/soak/.$t.$j"
	done
	stop_load
	echo "$t: $runs runs, $failed failed ($((SECONDS - start)) s)"
	[ "$failed" = 0 ] || failed_any=1
done
exit $failed_any
