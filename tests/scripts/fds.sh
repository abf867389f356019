# exec redirections: N<file, N>file, N>>file, N<>file, N<&-; the fd table in /proc.
echo one > f
exec 3<f
exec 4>g
exec 5>>f
exec 6<>h
ls /proc/self/fd
readlink /proc/self/fd/3 /proc/self/fd/4 /proc/self/fd/5 /proc/self/fd/6
ls -l /proc/self/fd/3 /proc/self/fd/4 /proc/self/fd/6
stat -c "%F %A %s" /proc/self/fdinfo/5
exec 3<&-
exec 4>&-
ls /proc/self/fd
rm f
readlink /proc/self/fd/5
cat /proc/self/fd/5
exec 7<missing
sys fcntl 5 F_GETFL
sys renameat2 AT_FDCWD g AT_FDCWD h RENAME_EXCHANGE
sys renameat2 AT_FDCWD g AT_FDCWD missing RENAME_EXCHANGE
readlink /proc/self/fd/6
