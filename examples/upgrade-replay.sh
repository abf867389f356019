#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# upgrade-replay.sh UVFS_RUN - the upgrade the seed patch is about, replayed with the
# real start-stop-daemon under every era uvfs-run knows, and once on the running
# kernel: a daemon started from DIR/NAME, its binary replaced as rpm replaces it (the
# new one renamed over the old), then start-stop-daemon --stop --exec DIR/NAME.  Under
# linux-3.15 the unlinked old binary took the name of the rename's source,
# /proc/PID/exe says "NAME;5e2a9b1c (deleted)", and the old daemon is not found; with
# a name too long to be stored inline 3.14 and 3.17 lose it too.  DIR is /usr/sbin (a
# fresh tmpfs) and /tmp (uvfs-run's memfs /tmp; natively a fresh tmpfs).  One line
# per run: the era, the file, what the stop did, whether pidof DIR/NAME found the old
# daemon, what /proc/PID/exe said after the upgrade.  Needs root (the native run mounts), gcc and start-stop-daemon.
set -u
ur=$(realpath "$1")  # (the runs start in /)
here=$(cd "$(dirname "$0")" && pwd)
long=food-with-a-name-longer-than-the-inline-limit
tmp=$(mktemp -d /var/tmp/uvfs-upgrade.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf '#include <unistd.h>\nint main(void) { for (;;) pause(); }\n' > "$tmp/food.c"
gcc -o "$tmp/food" "$tmp/food.c" || exit 1
cp "$here/upgrade.sh" "$tmp/"

# ERA DIR NAME OUTPUT: the line
line() {
	local stop exe pidof

	case $(sed -n 's/^start-stop-daemon --stop --exec: //p' <<<"$4") in
	0) stop="stopped" ;;
	1) stop="not found" ;;
	*) stop="failed: $4" ;;
	esac
	exe=$(sed -n 's/^after the upgrade: //p' <<<"$4")
	pidof=$(sed -n 's/^pidof: //p' <<<"$4")
	printf '%-11s %-18s %-10s pidof %-5s exe -> %s\n' "$1" \
		"$2/${3:0:4}$([ "$3" = food ] || echo '-...')" "$stop" "$pidof" "${exe/$long/food-...}"
}

for dir in /usr/sbin /tmp; do
	for name in food "$long"; do
		# (a pid namespace of its own: start-stop-daemon --stop --exec looks at
		# every process it can see, and another test's /usr/sbin/food is not this)
		out=$(unshare -m -pf --mount-proc bash -c 'mount -t tmpfs none /tmp && bash "$@"' x \
			"$tmp/upgrade.sh" "$dir" "$name" "$tmp/food" 2>&1)
		line kernel "$dir" "$name" "$out"
		for era in linux linux-4.17 linux-3.18 linux-3.17 linux-3.15 linux-3.14; do
			out=$(cd / && "$ur" --abi "$era" -- bash "$tmp/upgrade.sh" "$dir" "$name" \
				"$tmp/food" 2>&1)
			line "$era" "$dir" "$name" "$out"
		done
	done
done
