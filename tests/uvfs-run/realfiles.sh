#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# realfiles.sh DIR - what real programs ask of a file beyond reading and writing it:
# programs and a shared library built with gcc and run from DIR, /proc/PID/exe of
# one through a rename and an unlink, ETXTBSY both ways, shared mappings between two
# processes and against read()/write(), SIGBUS past a truncation, flock and POSIX
# locks between processes, sqlite3 (the CLI, Python's module, the default journal and
# WAL, a reader while a writer writes) and git.  test_uvfs_run.sh runs it under
# uvfs-run (DIR on memfs, and on a --bind) and natively (tmpfs); the outputs must be
# equal.
cd "$1" || exit 1
export HOME=$PWD LC_ALL=C GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a \
	GIT_COMMITTER_EMAIL=a@b GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' GIT_CONFIG_NOSYSTEM=1

# -- exec: a program and the library it links, a static binary, built here
printf '#include <stdio.h>\nint f(void);\nint main(void) { printf("f %%d\\n", f()); return 0; }\n' > main.c
printf 'int f(void) { return 42; }\n' > lib.c
gcc -shared -fPIC -o libf.so lib.c && gcc -o prog main.c -L. -lf && LD_LIBRARY_PATH=$PWD ./prog
echo "prog $?"
printf '#include <stdio.h>\nint main(void) { puts("static"); return 0; }\n' > st.c
gcc -static -o st st.c && ./st
echo "static $?"
# /proc/self/exe while the running file is renamed and unlinked
cat > exe.c <<'EOF'
#include <stdio.h>
#include <unistd.h>
static void show(void)
{
	char b[256];
	ssize_t n = readlink("/proc/self/exe", b, sizeof(b) - 1);

	b[n < 0 ? 0 : n] = 0;
	printf("exe %s\n", b);
}
int main(void)
{
	show();
	rename("e1", "e2");
	show();
	unlink("e2");
	show();
	return 0;
}
EOF
gcc -o e1 exe.c && ./e1 | sed "s|$PWD|DIR|"
# /proc/self/exe of a program whose name was renamed over just after its exec (the
# seed's upgrade, at its most hurried): the exec has run the old file, which the
# rename leaves "(deleted)".  A vfork's parent goes on once the child's exec has
# let go of its memory, so the rename lands while the exec is still finishing --
# under uvfs-run, before the supervisor has followed it (it once followed the name,
# and the new file, in most of these 20 rounds)
cat > vexe.c <<'EOF'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char b[256];
	int p[2];

	if (argc > 1) {  /* the child, after the exec: once the rename is done */
		ssize_t n = read(0, b, 1);

		n = readlink("/proc/self/exe", b, sizeof(b) - 1);
		b[n < 0 ? 0 : n] = 0;
		printf("exe %s\n", b);
		return 0;
	}
	for (int i = 0; i < 20; i++) {
		pid_t pid;

		if (link("va", "v1") || link("vb", "v2") || pipe(p))
			return perror("setup"), 1;
		fflush(stdout);
		pid = vfork();
		if (!pid) {
			dup2(p[0], 0);
			execl("./v1", "v1", "child", (char *)NULL);
			_exit(127);
		}
		if (rename("v2", "v1"))
			perror("rename");
		if (write(p[1], "x", 1) != 1)
			perror("write");
		waitpid(pid, NULL, 0);
		close(p[0]);
		close(p[1]);
		unlink("v1");
	}
	return 0;
}
EOF
gcc -o va vexe.c && cp va vb && ./va | sed "s|$PWD|DIR|" | sort | uniq -c
# ETXTBSY: writing to a running program, running a file open for writing
cat > busy.c <<'EOF'
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	int fd = open(argv[0], O_WRONLY);

	printf("open of the running binary for writing: %s\n", fd < 0 ? strerrorname_np(errno) : "opened");
	return 0;
}
EOF
gcc -o busy busy.c && ./busy
exec 7>>busy
./busy 2>&1 | sed 's/^.*: //'
exec 7>&-

# -- mmap: two processes sharing a file, read() and write() against a mapping
python3 - <<'EOF'
import mmap, os, signal
fd = os.open("m", os.O_RDWR | os.O_CREAT, 0o644)
os.ftruncate(fd, 8192)
m = mmap.mmap(fd, 8192)
pid = os.fork()
if pid == 0:
    c = mmap.mmap(os.open("m", os.O_RDWR), 8192)
    c[0:5] = b"child"
    os._exit(0)
os.waitpid(pid, 0)
print("parent's mapping", m[0:5], "read()", os.pread(fd, 5, 0))
os.pwrite(fd, b"write", 100)
print("write() in the mapping", m[100:105])
m[200:203] = b"map"
print("read() of a store", os.pread(fd, 3, 200), "size", os.fstat(fd).st_size)
ro = os.open("m", os.O_RDONLY)
try:
    mmap.mmap(ro, 8192, mmap.MAP_SHARED, mmap.PROT_WRITE)
except OSError as e:
    print("shared writable mapping of a read-only descriptor:", e.strerror)
pid = os.fork()
if pid == 0:
    os.ftruncate(fd, 4096)
    m[5000]  # beyond the end now: SIGBUS
    os._exit(0)
_, st = os.waitpid(pid, 0)
print("past a truncation:", signal.Signals(os.WTERMSIG(st)).name if os.WIFSIGNALED(st) else st)
EOF

# -- seals: a tmpfs file is born sealed against them (a memfs file's stand-in is a
# memfd, which must not be sealable)
python3 - <<'EOF'
import fcntl, os
fd = os.open("sealt", os.O_RDWR | os.O_CREAT)
ro = os.open("sealt", os.O_RDONLY)
try:
    print("F_GET_SEALS", fcntl.fcntl(fd, 1034))
except OSError as e:
    print("F_GET_SEALS", e.strerror)  # not tmpfs (a --bind)
for f, seals in ((fd, 8), (fd, 0x1000), (ro, 0x1000)):
    try:
        fcntl.fcntl(f, 1033, seals)
        print("F_ADD_SEALS: sealed")
    except OSError as e:
        print("F_ADD_SEALS", seals, e.strerror)
os.write(fd, b"still writable")
print(os.pread(ro, 5, 0))
EOF

# -- ioctl: the generic ones, and a file with no attributes set
python3 - <<'EOF'
import array, fcntl, os, termios
fd = os.open("io", os.O_RDWR | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"x" * 1000)
# FIOQSIZE is the inode's allocated bytes without ext4's delayed allocation: 0 until
# writeback, 4096 after, at a time the host's load decides -- fsync makes it 4096 on
# both sides of the comparison (seen 0 vs 4096 on a --bind at load average 10)
os.fsync(fd)
os.lseek(fd, 100, 0)
def q(name, cmd, typ="i", arg=0):
    b = array.array(typ, [arg])
    try:
        fcntl.ioctl(fd, cmd, b)
        print(name, b[0])
    except OSError as e:
        print(name, e.strerror)
q("FIONREAD", termios.FIONREAD)
q("FIGETBSZ", 2)
q("FIOQSIZE", 0x5460, "q")
q("FS_IOC_GETFLAGS", 0x80086601)
q("FS_IOC_SETFLAGS 0", 0x40086602)
try:
    termios.tcgetattr(fd)
except termios.error as e:
    print("tcgetattr", e.args[1])
x = bytearray(28)
fcntl.ioctl(fd, 0x801c581f, x)
print("FS_IOC_FSGETXATTR", x.hex())
fcntl.ioctl(fd, termios.FIONBIO, array.array("i", [1]))
print("FIONBIO: O_NONBLOCK", bool(fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK))
fcntl.ioctl(fd, termios.FIOCLEX)
print("FIOCLEX: FD_CLOEXEC", fcntl.fcntl(fd, fcntl.F_GETFD))
EOF

# -- locks
flock a.lock sh -c 'flock b.lock echo "flock: two files, two locks"'
flock a.lock sh -c 'flock -n a.lock true; echo "flock -n on a held lock: $?"'
python3 - <<'EOF'
import fcntl, os, struct, time
fd = os.open("l", os.O_RDWR | os.O_CREAT, 0o644)
fcntl.lockf(fd, fcntl.LOCK_EX)
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    c = os.open("l", os.O_RDWR)
    try:
        fcntl.lockf(c, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print("child: locked")
    except OSError as e:
        print("child: F_SETLK", e.strerror)
    got = fcntl.fcntl(c, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
    typ, _, _, _, holder = struct.unpack("hhqqi", got)
    print("child: F_GETLK names the holder", holder == os.getppid(), typ == fcntl.F_WRLCK)
    os.write(w, b"x")
    fcntl.lockf(c, fcntl.LOCK_EX)  # F_SETLKW: waits for the parent
    print("child: F_SETLKW granted")
    os._exit(0)
os.read(r, 1)
time.sleep(0.2)
print("parent: unlocking")
fcntl.lockf(fd, fcntl.LOCK_UN)
os.waitpid(pid, 0)
EOF

# -- fallocate: allocation, a punched hole, KEEP_SIZE beyond the end, a mode tmpfs lacks
fallocate -l 1M fa && stat -c 'fallocate: %s %b' fa
fallocate -p -o 4096 -l 8192 fa && stat -c 'punched: %s %b' fa
fallocate -n -o 2M -l 4096 fa && stat -c 'beyond the end: %s %b' fa
fallocate -z -l 10 fa 2>&1 | sed 's/^.*: //'
python3 -c 'import os; fd = os.open("pf", os.O_RDWR | os.O_CREAT); os.posix_fallocate(fd, 0, 10000); s = os.fstat(fd); print("posix_fallocate", s.st_size, s.st_blocks)'

# -- sqlite: the CLI, then Python's module with the default journal and with WAL
sqlite3 cli.db 'create table t(x); insert into t values (1), (2); select sum(x) from t;'
python3 - <<'EOF'
import os, sqlite3
for mode in ("delete", "wal"):
    db = sqlite3.connect(mode + ".db")
    db.execute("pragma journal_mode=" + mode)
    db.execute("create table t(i integer, s text)")
    with db:
        db.executemany("insert into t values (?, ?)", ((i, str(i) * 3) for i in range(10000)))
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.read(r, 1)
        rd = sqlite3.connect(mode + ".db")
        print(mode, "reader while the writer writes:", rd.execute("select count(*) from t").fetchone())
        os._exit(0)
    db.execute("begin")
    db.execute("insert into t values (-1, 'x')")
    os.write(w, b"x")
    os.waitpid(pid, 0)
    db.commit()
    print(mode, db.execute("select count(*), sum(i) from t").fetchone(),
          db.execute("pragma integrity_check").fetchone())
EOF

# -- POSIX shared memory: /dev/shm, shm_open and MAP_SHARED between two processes
stat -c '/dev/shm: %a %F' /dev/shm
python3 - <<'EOF'
import multiprocessing as mp, os
from multiprocessing import shared_memory
def child(name):
    s = shared_memory.SharedMemory(name=name)
    s.buf[0:5] = b"child"
    s.close()
shm = shared_memory.SharedMemory(create=True, size=8192, name="uvfs-run-test-%d" % os.getpid())
p = mp.get_context("fork").Process(target=child, args=(shm.name,))
p.start()
p.join()
print("shared_memory between two processes:", bytes(shm.buf[0:5]), os.path.exists("/dev/shm/" + shm.name))
shm.close()
shm.unlink()
print("unlinked:", os.path.exists("/dev/shm/" + shm.name))
EOF

# -- git
git init -q repo && cd repo || exit 1
printf 'a\n' > a && printf 'b\n' > b && mkdir d && printf 'c\n' > d/c
git add . && git commit -qm one
git mv a a2 && git rm -q b && printf 'e\n' > e && git add e && git commit -qm two
git status --short
git log --format='%H %s'
cd .. && git clone -q repo clone && cd clone && git log --format='%s' && ls -A && cd ../repo
git gc -q && git fsck --no-progress && git count-objects -v | grep -E '^(count|in-pack)'
