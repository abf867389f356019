# Mounts from the shell, as util-linux spells them: a tmpfs with options, a bind, a
# read-only bind (bind then remount), the listing, EXDEV across binds, EBUSY, a lazy
# unmount under the cwd, a private namespace, pivot_root.  --compare runs the same
# on the kernel.
mkdir /tmp/a /tmp/b /tmp/c
mount -t tmpfs -o size=1m,mode=700 none /tmp/a
echo hi > /tmp/a/f
mount --bind /tmp/a /tmp/b
mount -o remount,ro,bind /tmp/b
echo no > /tmp/b/g
cat /tmp/b/f
mount --bind -o ro /tmp/a /tmp/c
touch /tmp/c/x
mount
mv /tmp/a/f /tmp/b/f2
umount /tmp/a
cd /tmp/a
umount /tmp/a
umount -l /tmp/a
pwd
cd /
umount /tmp/b /tmp/c
unshare -m
mount -t tmpfs none /tmp/a
mount -o remount,size=2m /tmp/a
mkdir /tmp/a/new /tmp/a/new/old
mount -t tmpfs none /tmp/a/new
mkdir /tmp/a/new/old
pivot_root /tmp/a/new /tmp/a/new/old
ls /
mount
