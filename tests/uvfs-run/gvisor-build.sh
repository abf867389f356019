#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# gvisor-build.sh SRC OUT - builds the 23 of gVisor's syscall tests that issue 33
# names (test/syscalls/linux/NAME.cc) from a copy of github.com/google/gvisor in SRC,
# without bazel: g++ against Debian's googletest, Abseil and Google Benchmark
# (libgtest-dev libgmock-dev libabsl-dev libbenchmark-dev libcap-dev), into
# OUT/NAME_test.  gVisor's code is its own (Apache-2.0): nothing of it is kept in
# uvfs; two lines that Debian 12's older Abseil (20220623) does not compile are
# changed with sed in copies under OUT, the sources untouched.  Incremental: an
# object newer than its source is kept.  Prints what it built; exits 1 if a test
# could not be built.
set -u
SRC=$(realpath "$1")
OUT=$(mkdir -p "$2" && realpath "$2")
TESTS=${GVISOR_TESTS:-"rename link unlink mkdir symlink open open_create stat chmod chown
truncate getdents chdir fchdir chroot dup fcntl lseek utimes statfs mknod access proc"}
CXX=${CXX:-g++}
for d in test/util test/syscalls/linux; do
	[ -d "$SRC/$d" ] || { echo "gvisor-build: $SRC/$d: no such directory" >&2; exit 2; }
done
mkdir -p "$OUT/obj/util" "$OUT/obj/tests" "$OUT/fixed/test/util" \
	"$OUT/fixed/test/syscalls/linux" "$OUT/logs"
# -w: gVisor's warnings are not ours to fix
flags="-std=c++17 -O1 -g -w -I$SRC -D_GNU_SOURCE -pthread"
libs="$(pkg-config --libs absl_flags_parse absl_flags absl_strings absl_str_format absl_time \
	absl_synchronization absl_flat_hash_map absl_flat_hash_set gmock gtest benchmark) \
	-lcap -lrt -lpthread"

# absl 20220623: StrSplit does not convert to std::vector<std::string_view>, and
# MutexLock takes a pointer
# (a copy replaced only when it changes, so that a second run rebuilds nothing)
fix() {
	sed "$1" "$SRC/$2" > "$OUT/fixed/$2.new" &&
		{ cmp -s "$OUT/fixed/$2.new" "$OUT/fixed/$2" && rm "$OUT/fixed/$2.new" ||
		  mv "$OUT/fixed/$2.new" "$OUT/fixed/$2"; }
}
fix 's/std::vector<std::string_view> tags = absl::StrSplit/std::vector<std::string> tags = absl::StrSplit/' \
	test/util/mount_util.cc
fix 's/absl::MutexLock ml(mu_);/absl::MutexLock ml(\&mu_);/' test/syscalls/linux/proc.cc

# compile SOURCE OBJECT: the fixed copy if there is one
compile() {
	local src=$1 rel=${1#"$SRC"/}
	[ -f "$OUT/fixed/$rel" ] && src=$OUT/fixed/$rel
	[ "$2" -nt "$src" ] && return 0
	$CXX $flags -c "$src" -o "$2" > "$OUT/logs/$(basename "$2").log" 2>&1 ||
		{ echo "gvisor-build: cannot compile $src (see $OUT/logs)"; return 1; }
}
export -f compile
export SRC OUT CXX flags

# test/util, but its tests, other systems' variants and the runfiles helper;
# test_main (for the tests without a main of their own) and errno_safe_allocator
# (fcntl_test's malloc, as its BUILD rule says) are linked by name
util=()
for f in "$SRC"/test/util/*.cc; do
	case $(basename "$f" .cc) in
	*_test | fuchsia_* | save_util_other | test_util_runfiles | errno_safe_allocator | test_main) ;;
	*) util+=("$f") ;;
	esac
done
failed=0
printf '%s\n' "${util[@]}" "$SRC/test/util/test_main.cc" "$SRC/test/util/errno_safe_allocator.cc" |
	xargs -P2 -I{} bash -c 'compile {} "$OUT/obj/util/$(basename {} .cc).o"' || failed=1
lib=$OUT/obj/libgvutil.a
objs=$(ls "$OUT"/obj/util/*.o | grep -v -e /test_main.o -e /errno_safe_allocator.o)
# remade, and the tests relinked, only when an object changed: binaries another run
# may be executing are left alone
if [ ! -f "$lib" ] || [ -n "$(find $objs -newer "$lib")" ]; then
	rm -f "$lib"
	ar rcs "$lib" $objs
fi
printf '%s\n' $TESTS | xargs -P2 -I{} bash -c 'compile "$SRC/test/syscalls/linux/{}.cc" "$OUT/obj/tests/{}.o"' ||
	failed=1
for t in $TESTS; do
	o=$OUT/obj/tests/$t.o
	[ -f "$o" ] || { failed=1; continue; }
	extra=$OUT/obj/util/test_main.o
	nm "$o" | grep -q ' T main$' && extra=""  # fcntl and proc have their own
	[ "$t" = fcntl ] && extra="$extra $OUT/obj/util/errno_safe_allocator.o"
	if [ "$OUT/${t}_test" -nt "$o" ] && [ "$OUT/${t}_test" -nt "$lib" ]; then
		echo "built $OUT/${t}_test"
	elif $CXX -pthread -o "$OUT/${t}_test" "$o" $extra "$OUT/obj/libgvutil.a" $libs \
		> "$OUT/logs/link_$t.log" 2>&1; then
		echo "built $OUT/${t}_test"
	else
		echo "gvisor-build: cannot link $t (see $OUT/logs/link_$t.log)"
		failed=1
	fi
done
exit $failed
