# The seed article's session (LWN, "How implementation details become ABI", 2014):
# which name does a file that was renamed over keep in /proc/self/fd?
cd /tmp
touch foo bar
exec 42<bar
ls -l /proc/self/fd/42
mv foo bar
ls -l /proc/self/fd/42
readlink /proc/self/fd/42
# the same with names too long to live inside the dentry
touch foo-a-name-of-forty-eight-bytes-xxxxxxxxxxxxxx bar-a-name-of-forty-eight-bytes-xxxxxxxxxxxxxx
exec 43<bar-a-name-of-forty-eight-bytes-xxxxxxxxxxxxxx
mv foo-a-name-of-forty-eight-bytes-xxxxxxxxxxxxxx bar-a-name-of-forty-eight-bytes-xxxxxxxxxxxxxx
readlink /proc/self/fd/43
