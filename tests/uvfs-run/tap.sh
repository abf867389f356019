# SPDX-License-Identifier: LGPL-2.1-or-later
# tap.sh - sourced by uvfs-run's test scripts: TAP lines and the count of failures.
#   ok NAME; not_ok NAME [LINE...] (the lines as comments); same NAME EXPECTED ACTUAL
# The script ends with: echo "1..$n"; [ "$failed" = 0 ]
n=0
failed=0
# Python's output unbuffered, as the environment the tests were written and soaked in
# had it: block-buffered into a pipe, a forked child's lines are lost at its os._exit()
# and a comparison of them would pass with nothing compared (a review's finding:
# realfiles.sh's lockf and sqlite children, handles.py, the fdtable test)
export PYTHONUNBUFFERED=1

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
}
# same NAME EXPECTED ACTUAL
same() {
	if [ "$2" == "$3" ]; then ok "$1"; else
		not_ok "$1" "expected:" "$(printf '%s\n' "$2" | sed 's/^/  /')" \
			"got:" "$(printf '%s\n' "$3" | sed 's/^/  /')"
	fi
}
