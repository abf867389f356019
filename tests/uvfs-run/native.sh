# SPDX-License-Identifier: LGPL-2.1-or-later
# native.sh - sourced by uvfs-run's test scripts: root or skip, and native COMMAND...,
# the command natively: a private mount namespace, the root read-only and a fresh
# tmpfs on /tmp, as uvfs-run's namespace has them

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root"
	exit 77
fi

native() {
	unshare -m --propagation private bash -c \
		'mount -o remount,bind,ro / && mount -t tmpfs none /tmp && cd /tmp && "$@"' \
		native "$@"
}
