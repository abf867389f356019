# Messages as coreutils prints them, and exit statuses; set -e is off.
mkdir d
mkdir d
mkdir -p d/e/f
# an empty path is one empty component (fuzz_shell read past its end once)
mkdir -p ''
rmdir d
mv missing d
mv d d/e
rm d
rm -f missing
rm missing
cat d
cat missing
ls missing
ln -s d link
ln -s d link
ln d hard
touch d/e/f/file
ls -l d/e/f
readlink d
readlink -f link/e/../e/f
realpath link/e/f/file
realpath link/missing/x
cd missing
cd d/e/f/file
truncate -s 10 d/e/f/file
stat -c '%s %F %a' d/e/f/file
chmod 600 d/e/f/file
stat -c '%a %A' d/e/f/file
chown 7:8 d/e/f/file
stat -c '%u %g %U' d/e/f/file
rm -r d
ls
# rm -r never removes "." or "..", and visits each entry once (it listed a directory
# twice, and went through what it could not remove again: 2^depth, found by
# fuzz_shell)
mkdir -p /tmp/rr/b/.c/d
touch /tmp/rr/.x /tmp/rr/b/y
rm -r /tmp/rr/..
rm -r /tmp/rr/.
rm -r /tmp/rr
ls -a /tmp/rr
