# A fresh shell: the directories of a minimal system, help, and ls -l of
# /proc/self/fd listing its own descriptor (coreutils keeps the directory open
# while it stats the entries).
stat -c '%n %a %A' /tmp /var/tmp /root /dev /etc /home /usr /var
help
ls -l /proc/self/fd
exec 5</tmp
ls -l /proc/self/fd
nosuchcommand
