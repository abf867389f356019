#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# test_explain.sh UVFS_RUN - uvfs-run --explain on the seed's two cases and on
# programs that depend on no era: the article's session explains linux-3.15 by the
# readlink of /proc/self/fd/42 (the kernel's own answer, checked here natively, is
# linux's); the upgrade explains it by start-stop-daemon's readlink of /proc/PID/exe
# -- the daemon named by its place among the processes, not its pid -- (and, with a
# name too long to be stored inline, 3.14 and 3.17 too); tar c | tar x
# of a tree, a program printing the time, mktemp names and random numbers, and six
# threads writing files, report every era equal; a program that cannot be run is status 2.  TAP.
set -u
UR=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
# matches NAME REGEX TEXT
matches() {
	if grep -Eq -- "$2" <<<"$3"; then ok "$1"; else
		not_ok "$1" "no line matching: $2" "in:" "$(printf '%s\n' "$3" | sed 's/^/  /')"
	fi
}
if [ "$(id -u)" != 0 ] || ! command -v start-stop-daemon >/dev/null || ! command -v jq >/dev/null; then
	echo "1..0 # SKIP needs root, start-stop-daemon and jq"
	exit 77
fi
work=$(mktemp -d /var/tmp/uvfs-explain.XXXXXX)
counter=
trap '[ -z "$counter" ] || kill $counter 2>/dev/null; rm -rf "$work"' EXIT
cp "$here/upgrade-stop.sh" "$work/"
# ERA VERDICT: the verdict lines of the eras other than linux
verdicts() { grep -E '^linux-[0-9.]+ ' <<<"$1" | awk '{ print $1, $2 }'; }

seed='cd /tmp; touch foo bar; exec 42<bar; readlink /proc/self/fd/42; mv foo bar; readlink /proc/self/fd/42'
# (the native runs in a pid namespace of their own: a stop by --exec elsewhere on the
# machine must not find another test's /tmp/food, nor this one another's)
same "the seed session natively" "/tmp/bar
/tmp/bar (deleted)" "$(unshare -m -pf --mount-proc bash -c 'mount -t tmpfs none /tmp && bash -c "$1"' x "$seed")"
got=$(cd / && "$UR" --explain -- bash -c "$seed"); st=$?
same "the seed session: exit status 1, only linux-3.15 differs" "1
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 differs:
linux-3.14 same" "$st
$(verdicts "$got")"
same "... explained by the readlink of /proc/self/fd/42, the kernel's answer linux's" \
"  first call: pid 2 (readlink, /usr/bin/readlink: readlink /proc/self/fd/42): readlink(\"/proc/self/fd/42\") = 18 \"/tmp/foo (deleted)\"
    linux:    18 \"/tmp/bar (deleted)\"
  first line of output, 2: /tmp/foo (deleted)
    linux:    /tmp/bar (deleted)" "$(sed -n '/^linux-3.15/,/^linux-3.14/p' <<<"$got" | sed '1d;$d')"
got=$(cd / && "$UR" --explain --json -- bash -c "$seed"); st=$?
same "--json: one object per era, the same verdicts and call" "1
{\"era\": \"linux-4.17\", \"status\": 0, \"same\": true},
{\"era\": \"linux-3.18\", \"status\": 0, \"same\": true},
{\"era\": \"linux-3.17\", \"status\": 0, \"same\": true},
{\"era\": \"linux-3.15\", \"status\": 0, \"same\": false, \"call\": {\"pid\": 2, \"process\": \"/readlink[c397]#1\", \"comm\": \"readlink\", \"exe\": \"/usr/bin/readlink\", \"argv\": \"readlink /proc/self/fd/42\", \"chain\": \"readlink\", \"call\": \"readlink(\\\"/proc/self/fd/42\\\")\", \"result\": \"18 \\\"/tmp/foo (deleted)\\\"\", \"linux\": {\"call\": \"readlink(\\\"/proc/self/fd/42\\\")\", \"result\": \"18 \\\"/tmp/bar (deleted)\\\"\"}}, \"line\": {\"stream\": \"stdout\", \"number\": 2, \"text\": \"/tmp/foo (deleted)\", \"linux\": \"/tmp/bar (deleted)\"}},
{\"era\": \"linux-3.14\", \"status\": 0, \"same\": true}" "$st
$(grep era <<<"$got" | sed 's/^ *//')"

# the upgrade: natively the stop finds the old daemon (linux's answer)
same "the upgrade natively" "stop: 0" \
	"$(unshare -m -pf --mount-proc bash -c 'mount -t tmpfs none /tmp && bash "$1" food' x \
		"$work/upgrade-stop.sh")"
mkdir "$work/log-upgrade"
got=$(cd / && "$UR" --explain --explain-log "$work/log-upgrade" -- bash "$work/upgrade-stop.sh" food); st=$?
want="1
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 differs:
linux-3.14 same"
same "the upgrade: exit status 1, only linux-3.15 differs" "$want" "$st
$(verdicts "$got")"
if [ "$want" != "$st
$(verdicts "$got")" ]; then
	# (seen once in 300 runs on a loaded machine: 3.14 differed; the whole report
	# and every run's record kept, to say why)
	kept=$(mktemp -d /var/tmp/uvfs-explain-kept.XXXXXX)
	cp -a "$work/log-upgrade/." "$kept/"
	{ echo "the report:"; printf '%s\n' "$got" | head -60
	  echo "the runs' records (--explain-log) kept in $kept"; } | sed 's/^/#   /'
fi
same "--explain-log: each run's record, output, errors and tree (7 runs, 4 files)" "28
stop: 0
stop: 1" "$(ls "$work/log-upgrade" | wc -l)
$(cat "$work/log-upgrade/0-linux.out")
$(cat "$work/log-upgrade/5-linux-3.15.out")"
same "--explain-log of no directory: said, exit status 2" "uvfs-run: --explain-log $work/upgrade-stop.sh: not a directory
2" "$("$UR" --explain --explain-log "$work/upgrade-stop.sh" -- true 2>&1; echo $?)"
matches "... explained by start-stop-daemon's readlink of /proc/PID/exe" \
	'^  first call: pid [0-9]+ \(ssd, /tmp/ssd: /tmp/ssd --stop --exec /tmp/food\): readlink\("/proc/\{food#[0-9a-f]{4}\}/exe"\) = 28 "/tmp/food;5e2a9b1c \(deleted\)"$' "$got"
matches "... linux's answer the old name" '^    linux:    19 "/tmp/food \(deleted\)"$' "$got"
matches "... and the stop's status in the output" '^  first line of output, 1: stop: 1$' "$got"
long=food-with-a-name-longer-than-the-inline-limit
got=$(cd / && "$UR" --explain -- bash "$work/upgrade-stop.sh" $long); st=$?
same "the upgrade with a long name: 3.17, 3.15 and 3.14 differ" "1
linux-4.17 same
linux-3.18 same
linux-3.17 differs:
linux-3.15 differs:
linux-3.14 differs:" "$st
$(verdicts "$got")"
matches "... 3.17 explained by the same readlink" \
	"^  first call: pid [0-9]+ \\(ssd, /tmp/ssd: /tmp/ssd --stop --exec /tmp/$long\\): readlink\\(\"/proc/\\{food-with-a-nam#[0-9a-f]{4}\\}/exe\"\\) = 69 \"/tmp/$long;5e2a9b1c \\(deleted\\)\"\$" \
	"$(sed -n '/^linux-3.17/,/^linux-3.15/p' <<<"$got")"

# a test suite: make check, whose second test depends on the era -- the report names
# it by the programs it runs through
mkdir -p "$work/proj/tests"
printf 'check: test-names test-fds\ntest-names:\n\tsh tests/names.sh\ntest-fds:\n\tbash tests/fds.sh\n' \
	> "$work/proj/Makefile"
echo 'mkdir -p /tmp/w && touch /tmp/w/a && ls /tmp/w && echo "names ok"' > "$work/proj/tests/names.sh"
echo 'cd /tmp; touch foo bar; exec 42<bar; mv foo bar
case "$(readlink /proc/self/fd/42)" in "/tmp/bar (deleted)") echo "fds ok";; *) echo "fds FAIL"; exit 1;; esac' \
	> "$work/proj/tests/fds.sh"
# (make's own options and level from a make that runs the test suite stay out: a
# sub-make prints "Entering directory")
got=$(cd / && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$UR" --explain -- \
	make -s --no-print-directory -C "$work/proj" check); st=$?
same "make check: linux-3.15 fails the second test, explained in it" "1
linux-3.15  differs: exit status 2, linux 0;
    run by:   make > bash > readlink
    linux:    18 \"/tmp/bar (deleted)\"
  first line of output, 3: fds FAIL
    linux:    fds ok" "$st
$(sed -n '/^linux-3.15/,/^linux-3.14/p' <<<"$got" | sed '/first call/d;$d')"
matches "... the first call the readlink of the test" \
	'^  first call: pid [0-9]+ \(readlink, /usr/bin/readlink: readlink /proc/self/fd/42\): readlink\("/proc/self/fd/42"\) = 18 "/tmp/foo \(deleted\)"$' "$got"

# a --bind directory: a copy of its own for each run, compared at the end, the host's
# untouched
mkdir "$work/bind" && echo base > "$work/bind/f"
got=$(cd / && "$UR" --explain --bind "$work/bind" /mnt -- bash -c 'cd /mnt; touch foo bar; exec 42<bar
	mv foo bar; ln -s "$(readlink /proc/self/fd/42)" link'); st=$?
same "a --bind: linux-3.15's link differs, and the host's directory is as it was" "1
  first entry of the files left: - /mnt/link	120777	18	1	/mnt/bar (deleted); this era: /mnt/link	120777	18	1	/mnt/foo (deleted)
f" "$st
$(grep 'first entry' <<<"$got")
$(ls "$work/bind")"
# programs that depend on no era
tree='mkdir -p /tmp/a/b/c /tmp/y && echo one > /tmp/a/f && ln -s f /tmp/a/l && ln /tmp/a/f /tmp/a/b/h &&
	mkfifo /tmp/a/p && printf "%s" two > /tmp/a/b/c/g && tar c -C /tmp a | tar x -C /tmp/y && ls -lR /tmp/y | wc -l'
got=$(cd / && "$UR" --explain -- sh -c "$tree"); st=$?
same "tar c | tar x of a tree: every era equal, exit status 0" "0
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 same
linux-3.14 same" "$st
$(verdicts "$got")"
varies='date; date +%s.%N; mktemp; mktemp -d; echo $$ $RANDOM; touch /tmp/r$(od -An -N4 -tu4 /dev/urandom | tr -d " ")'
got=$(cd / && "$UR" --explain -- bash -c "$varies"); st=$?
same "the time, mktemp names, random numbers and names: no false difference" "0
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 same
linux-3.14 same" "$st
$(verdicts "$got")"
# threads: each thread's calls a sequence of their own, not one the scheduler interleaves
# (six threads writing files of their own sizes: their write(N)s were compared across
# threads, every era 'differed')
threads='import os, tempfile, threading
d = tempfile.mkdtemp()
def w(i):
    for k in range(20):
        with open(os.path.join(d, "%d-%d" % (i, k)), "w") as f: f.write("x" * i)
        os.stat(d)
ts = [threading.Thread(target=w, args=(i,)) for i in range(6)]
[t.start() for t in ts]; [t.join() for t in ts]; print(len(os.listdir(d)))'
got=$(cd / && "$UR" --explain -- python3 -c "$threads"); st=$?
same "six threads writing files: no false difference" "0
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 same
linux-3.14 same" "$st
$(verdicts "$got")"
# a loop that goes round a different number of times in each era (none in the two
# linux runs, once in the next, twice in the one after...: a counter outside, over
# TCP): the calls of the extra rounds -- a stat of a file still empty, the PATH
# search of the first sleep -- are left out, not paired with the reference's later
# stat of the file grown (a window of the nearest same call did that: every era
# "differed" at newfstatat("/tmp/a"); CI's upgrade above, at bash's read of its script)
python3 -c 'import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); sys.stdout.close(); n = 0
while True:
    c, _ = s.accept(); c.sendall(b"%d\n" % max(n - 1, 0)); c.close(); n += 1' > "$work/port" &
counter=$!
for _ in $(seq 250); do [ -s "$work/port" ] && break; sleep 0.02; done
rounds='n=$(cat </dev/tcp/127.0.0.1/'"$(cat "$work/port")"'); touch /tmp/a
for i in $(seq $n); do [ -s /tmp/a ]; sleep 0; done
echo x > /tmp/a; [ -s /tmp/a ]; ls /tmp > /dev/null
cd /tmp; touch foo bar; exec 42<bar; mv foo bar; readlink /proc/self/fd/42'
got=$(cd / && "$UR" --explain -- bash -c "$rounds"); st=$?
kill $counter; counter=
same "a loop of 0, 0, 1, 2... rounds: only linux-3.15 differs, at the readlink" "1
linux-4.17 same
linux-3.18 same
linux-3.17 same
linux-3.15 differs:
linux-3.14 same
  first call: pid 2 (readlink, /usr/bin/readlink: readlink /proc/self/fd/42): readlink(\"/proc/self/fd/42\") = 18 \"/tmp/foo (deleted)\"" "$st
$(verdicts "$got")
$(grep 'first call' <<<"$got")"
# a campaign: --commands FILE --shard K/N, the shards' lines merged with jq (README)
printf '%s\n' "bash -c '$seed'" '# not a command' 'ls /usr > /dev/null' "sh -c 'mktemp; date'" \
	> "$work/cmds"
for k in 1 2; do
	(cd / && "$UR" --explain --commands "$work/cmds" --shard $k/2 > "$work/shard-$k.jsonl" 2>&1)
	echo "shard $k: $?"
done > "$work/status"
same "--shard 1/2 and 2/2: the status of each (1: some command depends on an era)" "shard 1: 1
shard 2: 0" "$(cat "$work/status")"
same "... every command once, in the shard its line number says; merged with jq" \
"1	linux-3.15	readlink: readlink(\"/proc/self/fd/42\") = 18 \"/tmp/foo (deleted)\"
3	all equal	
4	all equal	" "$(jq -rs 'sort_by(.line)[] | [.line, (if .result == 2 then "could not run"
	elif .result == 1 then ([.eras[] | select(.same | not) | .era] | join(" ")) else "all equal" end),
	([.eras[]? | select(.same | not) | .call | select(.) | "\(.comm): \(.call) = \(.result)"] | first // "")]
	| @tsv' "$work"/shard-*.jsonl)"
got=$(cd / && "$UR" --explain -- /nonexistent/program 2>&1); st=$?
same "a program that cannot be run: exit status 2, said" "2
uvfs-run: --explain: the program did not run under linux:" "$st
$(grep -F -- '--explain' <<<"$got")"
echo "1..$n"
[ "$failed" = 0 ]
