#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# realprogs.sh DIR - real programs doing their ordinary work in DIR, each
# exercising what it depends on in the file system: make -j2 and gcc building a
# program of ten files and a shared library, rebuilding what a changed source or
# header needs (mtimes and make's comparison of them, two compilers at once) and
# running it (the library found through $ORIGIN); cp -a of a tree of every kind of
# file (symlinks, a hard link, a fifo, a sparse file, set-id and sticky modes, owners,
# nanosecond mtimes: lchown, utimensat of symlinks, SEEK_DATA/SEEK_HOLE), and again
# onto the copy; tar c, t and x of it and a round trip; python3 -m zipfile (-c, -l,
# -t, -e); a perl script of open, rename, readdir, file tests, sysopen O_EXCL, link,
# symlink, rmdir, flock between two processes, truncate.  Each prints what it made:
# listings of names with their modes, links, sizes, mtimes, types and owners,
# checksums, the programs' own output and status.  test_uvfs_run.sh runs it under
# uvfs-run (DIR on memfs, and on a --bind) and natively (tmpfs, and a bind of the same
# host file system); the outputs must be equal.  What legitimately differs is left
# out: inode numbers (renumbered in the order they first appear: hard links share
# one), the order of readdir (listings are sorted), the order in which make -j2 runs
# its jobs (sorted) and the time of the run (every time shown was set, and make's
# decisions are made on set times).
cd "$1" || exit 1
export HOME=$PWD LC_ALL=C TZ=UTC

# list NAME...: each name under NAME, sorted, with its inode (as the order of first
# appearance: hard links share one), mode, links, size, mtime to the nanosecond, type
# and owner
list() {
	find "$@" -print0 | sort -z | xargs -0 stat -c '%i %n %a %h %s %.9Y %F %u:%g' |
		awk '{ if (!($1 in ino)) ino[$1] = ++k; $1 = "i" ino[$1]; print }'
}
# settimes NAME...: a distinct mtime (and atime) for each name under NAME, symlinks
# themselves included, with nanoseconds
settimes() {
	local i=0 f
	find "$@" -print0 | sort -z | while IFS= read -r -d '' f; do
		i=$((i + 1))
		touch -h -d "@$((1600000000 + i * 86461)).$((100000007 * i % 1000000000))" "$f"
	done
}

# -- make -j2 and gcc: ten sources, a header, a shared library of three of them with
# the program finding it through its rpath ($ORIGIN); a full build, nothing to do,
# one source changed, the header changed
mkdir build && cd build || exit 1
cat > calc.h <<'EOF'
#define SCALE 3
int lib_add(int a, int b);
int lib_mul(int a, int b);
int lib_pow(int a, int n);
EOF
for i in 1 2 3 4 5 6; do
	printf '#include "calc.h"\nint step%d(int x) { return lib_add(lib_mul(x, SCALE), %d); }\n' $i $i > s$i.c
done
printf '#include "calc.h"\nint lib_add(int a, int b) { return a + b; }\n' > add.c
printf '#include "calc.h"\nint lib_mul(int a, int b) { return a * b; }\n' > mul.c
printf '#include "calc.h"\nint lib_pow(int a, int n) { int r = 1; while (n--) r = lib_mul(r, a); return r; }\n' > pow.c
cat > main.c <<'EOF'
#include <stdio.h>
#include "calc.h"
int step1(int), step2(int), step3(int), step4(int), step5(int), step6(int);
int main(void)
{
	int x = step6(step5(step4(step3(step2(step1(1))))));

	printf("steps %d, pow %d, scale %d\n", x, lib_pow(2, 10), SCALE);
	return 0;
}
EOF
cat > Makefile <<'EOF'
CC = gcc
CFLAGS = -O1
PROG_OBJS = main.o s1.o s2.o s3.o s4.o s5.o s6.o
LIB_OBJS = add.o mul.o pow.o

prog: $(PROG_OBJS) libcalc.so
	$(CC) -o $@ $(PROG_OBJS) -L. -lcalc -Wl,-rpath,'$$ORIGIN'
libcalc.so: $(LIB_OBJS)
	$(CC) -shared -o $@ $(LIB_OBJS)
$(LIB_OBJS): CFLAGS += -fPIC
%.o: %.c calc.h
	$(CC) $(CFLAGS) -c -o $@ $<
clean:
	rm -f prog libcalc.so *.o
EOF
touch -d @1500000000 *.c calc.h Makefile
# make's lines, sorted: -j2 runs two at a time, in either order
mk() { make -j2 "$@" 2>&1 | sort; echo "make ${PIPESTATUS[0]}"; }
# what make built gets a time after every source's, a changed source one after
# that: make's decisions do not depend on how fine the file system's clock is
age=1500000000
aged() { age=$((age + 1000)); touch -d @$age *.o libcalc.so prog; }
changed() { touch -d @$((age + 500)) "$@"; }
mk && aged
./prog && (cd / && "$OLDPWD/prog") && echo "prog $?"
md5sum *.o libcalc.so prog
make -q; echo "make -q, built: $?"
mk
changed s3.c
make -q; echo "make -q, s3.c changed: $?"
mk && aged
sed -i 's/SCALE 3/SCALE 2/' calc.h
changed calc.h
mk && aged
./prog
md5sum *.o libcalc.so prog
# a library changed under a program that links it: the program runs the new one
printf '#include "calc.h"\nint lib_add(int a, int b) { return a + b + 1000; }\n' > add.c
mk
./prog
make -s clean && ls -A
cd ..

# -- cp -a: a tree of every kind of file, copied with everything preserved
mkdir -p t/sub/deep t/empty t/sticky t/sgid
printf 'hello\n' > t/file
printf 'shared\n' > t/sub/h1
ln t/sub/h1 t/h2
ln -s file t/sym
ln -s ../sub/deep t/sub/dsym
ln -s nowhere t/dangling
mkfifo t/sub/fifo
head -c 100000 /dev/zero | tr '\0' 'z' > t/sub/deep/big
truncate -s 1M t/sparse && printf data | dd of=t/sparse bs=1 seek=600000 conv=notrunc status=none
printf 'secret\n' > t/ro && chmod 400 t/ro
printf '#!/bin/sh\n' > t/suid && chmod 4755 t/suid
chmod 1777 t/sticky
chmod 2750 t/sgid
chmod 700 t/empty
chmod 640 t/file
chown 4321:8765 t/sub/h1 t/sgid
chown -h 1:2 t/sym
settimes t
list t
cp -a t c
echo "cp -a $?"
list c
diff <(list t | cut -d' ' -f2-) <(list c | sed 's|^\([^ ]*\) c|\1 t|' | cut -d' ' -f2-) && echo "cp -a: the same but for inodes"
stat -c '%n %s %b' t/sparse c/sparse
cmp t/sparse c/sparse && cmp t/sub/deep/big c/sub/deep/big && echo "cp -a: the data equal"
# and once more onto the copy: everything replaced where it stands
echo changed > c/file
cp -a t/. c/ && cat c/file && list c | md5sum

# -- tar: c of the tree in name order (pax, for the nanoseconds; no atime or ctime, so
# the archive's bytes are the tree's), t, x with everything, a round trip
tar --sort=name --format=posix --pax-option=delete=atime,delete=ctime -cf t.tar t
echo "tar c $?"
tar tvf t.tar
md5sum t.tar
mkdir x && tar -xpf t.tar -C x
echo "tar x $?"
diff <(list t | cut -d' ' -f2-) <(list x/t | sed 's|^\([^ ]*\) x/t|\1 t|' | cut -d' ' -f2-)
echo "tar listings $?"
diff -r --no-dereference t x/t
echo "diff -r $?"
# and from a pipe, into a directory tar makes
tar -cf - -C t sub | (mkdir y && cd y && tar -xpf -) && list y/sub
# sparse: archived as holes (-S) and extracted as holes
tar --sort=name -cSf s.tar t/sparse && tar tvf s.tar && mkdir xs && tar -xSf s.tar -C xs &&
	cmp t/sparse xs/t/sparse && stat -c '%n %s %b' xs/t/sparse && echo "sparse round trip"

# -- python3 -m zipfile: create (the fifo is left out), list, test, extract
python3 -m zipfile -c z.zip t t/file
echo "zipfile -c $?"
md5sum z.zip
python3 -m zipfile -l z.zip
python3 -m zipfile -t z.zip
mkdir z && python3 -m zipfile -e z.zip z
echo "zipfile -e $?"
find z -print0 | sort -z | xargs -0 stat -c '%n %a %s %F'
diff -r t/sub z/t/sub; echo "diff -r $?"
cmp t/file z/file && cmp t/sparse z/t/sparse && cmp t/sub/deep/big z/t/sub/dsym/big &&
	echo "extracted equal"

# -- perl: open, write, rename, readdir, file tests, sysopen O_EXCL, flock
mkdir pl && cd pl || exit 1
perl -e '
use strict;
use warnings;
use Fcntl qw(:DEFAULT :flock :mode);
$| = 1;
open(my $f, ">", "a.txt") or die "open: $!";
print $f "line $_\n" for 1 .. 100;
close($f) or die;
printf "-e %d, -s %d, -f %d, -d %d\n", (-e "a.txt" ? 1 : 0), -s "a.txt", (-f _ ? 1 : 0), (-d _ ? 1 : 0);
rename("a.txt", "b.txt") or die "rename: $!";
printf "after rename: a %s, b %s\n", (-e "a.txt" ? "exists" : "gone"), (-e "b.txt" ? "exists" : "gone");
open($f, ">>", "b.txt") or die;
print $f "appended\n";
close($f);
open($f, "<", "b.txt") or die;
my @lines = <$f>;
close($f);
printf "read back %d lines, last %s", scalar(@lines), $lines[-1];
utime($^T - 2.5 * 86400, $^T - 2.5 * 86400, "b.txt") or die "utime: $!";
printf "-M %.4f, -A %.4f\n", -M "b.txt", -A "b.txt";
printf "-M of a missing file: %s\n", (-M "c.txt") // "undef";
sysopen(my $x, "c.txt", O_WRONLY | O_CREAT | O_EXCL, 0640) or die "sysopen: $!";
print $x "excl\n";
close($x);
printf "sysopen O_EXCL again: %s\n", sysopen(my $y, "c.txt", O_WRONLY | O_CREAT | O_EXCL) ? "opened" : $!;
printf "c.txt mode %04o, -M near 0: %d\n", S_IMODE((stat("c.txt"))[2]), abs(-M "c.txt") < 0.001 ? 1 : 0;
mkdir("d") or die;
symlink("b.txt", "d/l") or die;
link("b.txt", "d/h") or die;
printf "nlink %d, readlink %s, -l %d, -e through %d\n", (stat("b.txt"))[3], readlink("d/l"), (-l "d/l" ? 1 : 0), (-e "d/l" ? 1 : 0);
opendir(my $d, ".") or die;
my @names = sort grep { !/^\.\.?$/ } readdir($d);
closedir($d);
print "readdir: @names\n";
print "glob: ", join(" ", sort glob("*.txt d/*")), "\n";
printf "rmdir of a full directory: %s\n", rmdir("d") ? "removed" : $!;
unlink("d/l", "d/h") == 2 or die;
rmdir("d") or die;
printf "rmdir of the emptied directory: %s\n", -e "d" ? "still there" : "gone";
open(my $lk, ">", "lock") or die;
flock($lk, LOCK_EX) or die "flock: $!";
pipe(my $r, my $w) or die;
my $pid = fork() // die;
if ($pid == 0) {
	close($r);
	open(my $c, "<", "lock") or die;
	printf "child: LOCK_SH|LOCK_NB: %s\n", flock($c, LOCK_SH | LOCK_NB) ? "locked" : $!;
	syswrite($w, "x");
	flock($c, LOCK_SH) or die;
	print "child: LOCK_SH granted\n";
	exit(0);
}
close($w);
sysread($r, my $buf, 1);
select(undef, undef, undef, 0.2);
print "parent: unlocking\n";
flock($lk, LOCK_UN);
waitpid($pid, 0);
printf "child exit %d\n", $? >> 8;
truncate("b.txt", 10) or die;
printf "truncated: -s %d, -z %d\n", -s "b.txt", (-z "b.txt" ? 1 : 0);
open($f, "+<", "b.txt") or die;
seek($f, 100, 0);
print $f "X";
close($f);
printf "written past the end: -s %d\n", -s "b.txt";
' 2>&1
cd ..
