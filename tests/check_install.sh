#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# An embedder's view of an installed uvfs: under ROOT (a DESTDIR) with PREFIX, the
# header, the shared library, uvfs.pc, the tools and the man pages are there, and
# examples/demo.c builds with nothing but `pkg-config --cflags --libs uvfs` and runs.
#   usage: check_install.sh ROOT PREFIX
set -eu
root=$1 prefix=$2
src=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "check_install: $*" >&2; exit 1; }

pc=$(find "$root$prefix" -name uvfs.pc | head -n 1)
[ -n "$pc" ] || fail "no uvfs.pc under $root$prefix"
for f in include/uvfs/uvfs.h bin/uvfsh bin/uvfs-difftest share/man/man1/uvfsh.1 \
	 share/man/man1/uvfs-difftest.1 bin/uvfs-run share/man/man1/uvfs-run.1; do
	[ -e "$root$prefix/$f" ] || fail "not installed: $prefix/$f"
done
ls "$(dirname "$(dirname "$pc")")"/libuvfs.so.0 >/dev/null || fail "no libuvfs.so.0 beside uvfs.pc"
[ -z "$(find "$root$prefix/include" -name '*.h' ! -name uvfs.h)" ] || fail "internal headers installed"

# pkg-config sees the DESTDIR through its sysroot variable, as a cross build would.
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
${CC:-cc} -o "$tmp/demo" "$src/examples/demo.c" $(pkg-config --cflags --libs uvfs)
LD_LIBRARY_PATH="$(dirname "$(dirname "$pc")")" "$tmp/demo" > "$tmp/out"
grep -q '^linux-3.15   /tmp/foo (deleted)' "$tmp/out" || { cat "$tmp/out"; fail "unexpected demo output"; }
grep -q '^linux        /tmp/bar (deleted)' "$tmp/out" || { cat "$tmp/out"; fail "unexpected demo output"; }
# loaded at run time too (initial-exec TLS needs glibc's static TLS surplus)
# shellcheck disable=SC2046
${CC:-cc} -o "$tmp/dlopen_check" "$src/tests/dlopen_check.c" $(pkg-config --cflags uvfs) -ldl
"$tmp/dlopen_check" "$(dirname "$(dirname "$pc")")/libuvfs.so.0"
echo "check_install: demo built with pkg-config against $prefix in $root and ran"
