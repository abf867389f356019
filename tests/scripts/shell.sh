# A fresh shell: the directories of a minimal system, help, and ls -l of
# /proc/self/fd listing its own descriptor (coreutils keeps the directory open
# while it stats the entries).
stat -c '%n %a %A' /tmp /var/tmp /root /dev /etc /home /usr /var
help
ls -l /proc/self/fd
exec 5</tmp
ls -l /proc/self/fd
nosuchcommand
# descriptor numbers beyond an int are words, as in bash (they opened fd 0 and
# replaced stdout when an int overflowed)
echo hi > /tmp/x
exec 4294967296</tmp/x
exec 4294967297>/tmp/y
exec 2147483647</tmp/x
ls /tmp
echo still here
