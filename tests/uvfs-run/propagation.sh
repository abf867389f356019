# SPDX-License-Identifier: LGPL-2.1-or-later
#
# propagation.sh DIR - shared subtrees from the shell, as util-linux spells them:
# mount --make-shared, --make-slave, --make-private, --make-unbindable and their
# --make-r* forms, binds of shared mounts, mounts and unmounts seen in peers and
# slaves, findmnt's PROPAGATION column, mountinfo's optional fields (peer groups
# numbered g1, g2 ... in order of appearance), and unshare -m with each
# --propagation.  Prints what each step leaves; the kernel's output is the
# specification.
cd "$1" || exit 1
d=$(pwd)
show() {
	echo "== $1"
	findmnt -rn -o TARGET,PROPAGATION | awk -v d="$d/" 'index($1, d) == 1'
	awk -v d="$d/" 'index($5, d) == 1 {
		o = ""
		for (i = 7; $i != "-"; i++) {
			split($i, kv, ":")
			if (kv[2] != "") {
				if (!(kv[2] in g)) g[kv[2]] = ++n
				o = o " " kv[1] ":g" g[kv[2]]
			} else o = o " " $i
		}
		print $5 o
	}' /proc/self/mountinfo
}
mkdir a b c d
mount -t tmpfs ta a
mkdir a/x a/y a/z a/u
mount --make-shared a
mount --bind a b
mount -t tmpfs tx b/x
touch a/x/seen
show "a shared, b its peer, tx mounted in b"
mount --bind a c
mount --make-slave c
mount -t tmpfs ty a/y
mount -t tmpfs tc c/z
show "c a slave: ty reaches it, tc stays in c"
umount b/x
umount a/y && echo "a/y unmounted"
show "unmounts in peers and slaves"
mount --make-unbindable c
mount --bind c d; echo "bind of an unbindable mount: $?"
mount --make-private c
mount --make-rshared c
show "c private then rshared"
unshare -m --propagation unchanged sh -c 'mount -t tmpfs tu a/u'
show "unshare -m --propagation unchanged: a/u mounted in the child's peer"
umount a/u b/u
unshare -m --propagation private sh -c 'mount -t tmpfs tu a/u'
show "unshare -m (private): nothing comes back"
# the child's namespace made (it says so on ready) before the parent mounts
mkfifo ready go
unshare -m --propagation slave sh -c 'echo > ready; read x < go; ls a/u; findmnt -rn -o TARGET,PROPAGATION "$0/a"' "$d" &
read x < ready
mount -t tmpfs tv a/u
touch a/u/from-parent
echo > go
wait
umount -l a
show "lazy unmount of a"
