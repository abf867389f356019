# The seed patch's story: a running daemon's binary is replaced by rename.
mkdir -p /usr/sbin
echo old > /usr/sbin/food
chmod 755 /usr/sbin/food
exec 42</usr/sbin/food
echo new > "/usr/sbin/food;5e2a9b1c"
mv "/usr/sbin/food;5e2a9b1c" /usr/sbin/food
readlink /proc/self/fd/42
cat /proc/self/fd/42
cat /usr/sbin/food
ls -l /usr/sbin
stat -c '%n %s %h %A' /proc/self/fd/42
