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
# A pid namespace with a proc of its own (unshare --mount-proc): that proc shows the
# namespace -- its processes by their numbers there, /proc/self and thread-self,
# status's and stat's pids as there -- and so does one nested in it.  No pipeline
# while /proc is read (whether its second process is there yet is timing); ps's
# columns squeezed: it pads them for kernel.pid_max, which uvfs-run reads as the
# host's (docs/SEMANTICS.md §9).
unshare -pf --mount-proc sh -c '
echo "mount-proc: pid $$, /proc/self -> $(readlink /proc/self), thread-self -> $(readlink /proc/thread-self)"
ps -o pid,ppid,comm > ps.out; sed "s/  */ /g" ps.out
ls /proc > ls.out; echo "processes: $(grep -c "^[0-9]" ls.out), /proc/1/comm $(cat /proc/1/comm)"
grep -E "^(Tgid|Pid|PPid|NSpid|NSpgid|NSsid)" /proc/self/status > st.out; tr "\t\n" "  " < st.out; echo
cut -d" " -f1,4-6 /proc/self/stat > stat.out; pidof sh > pidof.out
echo "stat: $(cat stat.out), task: $(ls /proc/$$/task), pidof sh: $(cat pidof.out)"
unshare -pf --mount-proc sh -c "echo \"nested: pid \$\$\"; ps -o pid,ppid,comm > ps.out; sed \"s/  */ /g\" ps.out
grep -E \"^(PPid|NSpid)\" /proc/self/status > st.out; tr \"\\t\\n\" \"  \" < st.out; echo"
python3 -c "
import os, threading
def look():
    tid = threading.get_native_id()
    print(\"a thread by its number there:\", [l.split()[1] for l in open(\"/proc/%d/status\" % tid) if l.startswith((\"Tgid:\", \"Pid:\"))], os.path.exists(\"/proc/%d/task/%d\" % (os.getpid(), tid)))
t = threading.Thread(target=look); t.start(); t.join()"
ls /proc > ls.out; echo "after: $(grep -c "^[0-9]" ls.out) processes"
rm -f ps.out ls.out st.out stat.out pidof.out
'
