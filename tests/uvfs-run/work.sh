# SPDX-License-Identifier: LGPL-2.1-or-later
# work.sh DIR - ordinary shell work in DIR (test_uvfs_run.sh runs it under uvfs-run
# and natively; the outputs must be equal).  Paths are printed relative to DIR.
set -e
cd "$1"
mkdir -p a/b/c d
echo hello > a/b/c/f1
printf 'x\ny\nz\n' > a/f2
ln -s b/c/f1 a/link
cat <<HERE > a/here
line one
line two
HERE
(cd a && ls -1) | sort
find . -type f | sort
find . -name 'f*' -print0 | xargs -0 -n1 basename | sort
cp -a a e
mv e/f2 e/f3
readlink -f a/link | sed "s|$1|ROOT|"
stat -c '%n %s %F %a' a/b/c/f1 a/link e/f3
du -s --apparent-size a | cut -f1
tar cf t.tar a
mkdir x && tar xf t.tar -C x && find x | sort
sleep 0.1 & wait
echo sub $( (echo inner) )
rm -r a x
ls
wc -l < e/f3
cat e/here | tr a-z A-Z
