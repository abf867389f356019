# SPDX-License-Identifier: LGPL-2.1-or-later
#
# namespaces.sh DIR - namespaces of the program's own making, in DIR: unshare -m
# (unshare(2) of CLONE_NEWNS) and clone(2) with CLONE_NEWNS each give a mount
# namespace whose mounts the parent does not see; unshare -pf a pid namespace whose
# children run.  Prints what each side sees; the kernel's output is the specification.
cd "$1" || exit 1
mkdir m
before=$(wc -l < /proc/self/mountinfo)
unshare -m sh -c 'mount -t tmpfs x m && touch m/inside && ls m && echo "inside: mounts +$(( $(wc -l < /proc/self/mountinfo) - '"$before"' ))"'
echo "unshare -m: parent sees [$(ls m)], mounts +$(( $(wc -l < /proc/self/mountinfo) - before ))"
python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, SIGCHLD = 0x20000, 17
pid = libc.syscall(56, ctypes.c_ulong(CLONE_NEWNS | SIGCHLD), None, None, None, None)
if pid == 0:
    rc = libc.mount(b"x", b"m", b"tmpfs", 0, None)
    open("m/cloned", "w").close()
    print("clone child: mount", rc, os.listdir("m"), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("clone(CLONE_NEWNS): parent sees", os.listdir("m"))
'
unshare -pf sh -c 'echo "unshare -pf: pid $$"; sh -c "echo \"its child: pid \$\$\""'
