#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# fuzz/cpu-hour.sh TARGET [CPU_SECONDS] - run one libFuzzer target of build-fuzz/ (make
# fuzz builds them) until it has used CPU_SECONDS of CPU (3660 by default: the hour
# docs/TESTING.md asks for), then stop it with SIGINT, which libFuzzer takes as "stop
# cleanly and print the final stats".  Wall time is no measure on a shared machine: the
# CPU is counted from /proc/PID/stat, and /usr/bin/time -v wraps the run for the record.
# The log is build-fuzz/TARGET.cpu-hour.log, findings go to build-fuzz/findings-hour/.
# Run the three at once in the background (nice 10) and work beside them.
set -u
t=$1
limit=${2:-3660}
cd "$(dirname "$0")/.."
case $t in
fuzz_ops) seeds="" ;;
fuzz_sysscript) seeds="tests/diff tests/regress" ;;
fuzz_shell) seeds="tests/scripts examples" ;;
fuzz_hostfs) seeds="" ;;
fuzz_uvfsrun) seeds="" ;;
*) echo "cpu-hour.sh: no target '$t' (fuzz_ops, fuzz_sysscript, fuzz_shell, fuzz_hostfs, fuzz_uvfsrun)" >&2; exit 2 ;;
esac

mkdir -p build-fuzz/findings-hour build-fuzz/corpus-"$t"
log=build-fuzz/$t.cpu-hour.log
echo "commit $(git rev-parse --short HEAD), started $(date -u)" > "$log"
# shellcheck disable=SC2086
nice -n 10 /usr/bin/time -v ./build-fuzz/fuzz/"$t" -max_len=4096 -timeout=20 \
	-print_final_stats=1 -artifact_prefix=build-fuzz/findings-hour/"$t"- \
	build-fuzz/corpus-"$t" $seeds >> "$log" 2>&1 &
timer=$!
sleep 2
pid=$(pgrep -P "$timer" | head -1)
while kill -0 "$pid" 2>/dev/null; do
	cpu=$(awk '{ print int(($14 + $15) / 100) }' /proc/"$pid"/stat 2>/dev/null)
	if [ -n "$cpu" ] && [ "$cpu" -ge "$limit" ]; then
		kill -INT "$pid"
		echo "stopped at $cpu s of CPU, $(date -u)" >> "$log"
		break
	fi
	sleep 10
done
wait "$timer"
