// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fdpass.c DIR - a file's descriptor passed to another process is the same open file
 * there: SCM_RIGHTS by sendmsg/recvmsg and sendmmsg/recvmmsg (MSG_PEEK,
 * MSG_CMSG_CLOEXEC, several descriptors in one message, a pipe among them), and
 * pidfd_getfd.  The receiver reads at the sender's offset, writes if the sender could
 * (EBADF if not), maps it shared, and /proc/self/fd names the file -- after the sender
 * has closed its own descriptor, and for an unlinked file "(deleted)"; and what the
 * kernel refuses or drops (a malformed control message, a message never received --
 * the exit status stays the program's, a fifo's reader sees EOF).  One line per
 * result, DIR written as "DIR"; test_uvfs_run.sh compares the lines with the kernel's
 * (natively on a tmpfs) on uvfs-run's memfs and on a --bind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;
static int sock[2];

static void die(const char *what)
{
	printf("%s: %s\n", what, strerrorname_np(errno));
	exit(1);
}

static void send_fds(int s, const int *fds, int n)
{
	union { char buf[CMSG_SPACE(8 * sizeof(int))]; struct cmsghdr align; } u;
	struct iovec io = { .iov_base = "x", .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = u.buf,
			     .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	if (sendmsg(s, &mh, 0) != 1)
		die("sendmsg");
}

/* the descriptors of one message: how many */
static int recv_fds(int s, int *fds, int flags)
{
	union { char buf[CMSG_SPACE(8 * sizeof(int))]; struct cmsghdr align; } u;
	char x;
	struct iovec io = { .iov_base = &x, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c;
	int n;

	if (recvmsg(s, &mh, flags) != 1)
		die("recvmsg");
	c = CMSG_FIRSTHDR(&mh);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return 0;
	n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
	memcpy(fds, CMSG_DATA(c), n * sizeof(int));
	return n;
}

/* what fd is: its name (DIR for the directory), its offset, access mode, FD_CLOEXEC */
static void show(const char *who, int fd)
{
	char link[64], buf[512];
	ssize_t n;
	size_t dl = strlen(dir);
	int fl = fcntl(fd, F_GETFL);

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	if (!strncmp(buf, dir, dl))
		memmove(buf + 3, buf + dl, strlen(buf + dl) + 1), memcpy(buf, "DIR", 3);
	if (!strncmp(buf, "pipe:", 5))
		strcpy(buf, "pipe");
	printf("%s: %s pos %ld mode %s cloexec %d\n", who, buf, (long)lseek(fd, 0, SEEK_CUR),
	       (fl & O_ACCMODE) == O_RDONLY ? "r" : (fl & O_ACCMODE) == O_WRONLY ? "w" : "rw",
	       fcntl(fd, F_GETFD) & FD_CLOEXEC);
}

static void sync_read(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		die("sync");
}

static void contents(const char *name)
{
	char path[4096], buf[256];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("%s holds \"%s\"\n", name, n < 0 ? strerrorname_np(errno) : buf);
	if (fd >= 0)
		close(fd);
}

static int make(const char *name, int flags, const char *data, off_t pos)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, flags | O_CREAT, 0644);
	if (fd < 0)
		die(name);
	if (data && pwrite(fd, data, strlen(data), 0) < 0)
		die("pwrite");
	lseek(fd, pos, SEEK_SET);
	return fd;
}

/* the sender closes before the receiver takes it; read, write, map there */
static void passed_after_close(void)
{
	int fd = make("f", O_RDWR, "hello world", 6), got[8], ready[2];
	char buf[16] = "";
	pid_t pid;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		char *m;

		sync_read(ready[0]);
		if (recv_fds(sock[1], got, 0) != 1)
			_exit(1);
		show("child got f", got[0]);
		ssize_t n = read(got[0], buf, 5);

		printf("read %zd \"%.5s\"\n", n, buf);
		printf("write %zd\n", write(got[0], "!", 1));
		m = mmap(NULL, 12, PROT_READ | PROT_WRITE, MAP_SHARED, got[0], 0);
		if (m == MAP_FAILED)
			die("mmap");
		m[0] = 'H';
		munmap(m, 12);
		_exit(0);
	}
	send_fds(sock[0], &fd, 1);
	close(fd);
	if (write(ready[1], "g", 1) != 1)
		die("sync");
	waitpid(pid, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	contents("f");
}

/* read-only: the receiver cannot write; MSG_PEEK, then the message itself, close-on-exec */
static void peek_and_cloexec(void)
{
	int fd = make("f", O_RDONLY, NULL, 1), got[8], got2[8];
	char c = 0;
	ssize_t n;

	send_fds(sock[0], &fd, 1);
	close(fd);
	if (recv_fds(sock[1], got, MSG_PEEK) != 1 || recv_fds(sock[1], got2, MSG_CMSG_CLOEXEC) != 1)
		return;
	show("peeked", got[0]);
	show("taken", got2[0]);
	n = read(got[0], &c, 1);
	printf("read %zd '%c'\n", n, c);
	show("taken after a read of the peeked", got2[0]);
	n = write(got2[0], "x", 1);
	printf("write %zd %s\n", n, n < 0 ? strerrorname_np(errno) : "");
	close(got[0]);
	close(got2[0]);
}

/* several in one message, a directory, a pipe and an unlinked file among them */
static void several(void)
{
	int p[2], fds[4], got[8], n;
	char path[4096];

	if (pipe(p))
		die("pipe");
	fds[0] = make("u", O_WRONLY | O_APPEND, "gone", 0);
	snprintf(path, sizeof(path), "%s/u", dir);
	unlink(path);
	fds[1] = p[0];
	fds[2] = open(dir, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/d", dir);
	mkdir(path, 0755);
	fds[3] = open(path, O_PATH);
	send_fds(sock[0], fds, 4);
	for (int i = 0; i < 4; i++)
		close(fds[i]);
	n = recv_fds(sock[1], got, 0);
	printf("received %d\n", n);
	for (int i = 0; i < n; i++)
		show("one of several", got[i]);
	printf("write to the unlinked %zd\n", write(got[0], "+", 1));
	printf("fstat of the O_PATH one: %s\n", ({ struct stat st; fstat(got[3], &st) ? "failed" :
						  S_ISDIR(st.st_mode) ? "a directory" : "other"; }));
	for (int i = 0; i < n; i++)
		close(got[i]);
	close(p[1]);
}

/* sendmmsg and recvmmsg: two messages, one descriptor each */
static void mmsg(void)
{
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } su[2], ru[2];
	struct iovec sio[2], rio[2];
	struct mmsghdr sm[2], rm[2];
	char x[2];
	int fds[2] = { make("m1", O_RDWR, "one", 1), make("m2", O_RDWR, "two", 2) };

	memset(sm, 0, sizeof(sm));
	memset(rm, 0, sizeof(rm));
	for (int i = 0; i < 2; i++) {
		struct cmsghdr *c;

		sio[i] = (struct iovec){ .iov_base = "y", .iov_len = 1 };
		sm[i].msg_hdr = (struct msghdr){ .msg_iov = &sio[i], .msg_iovlen = 1,
			.msg_control = su[i].buf, .msg_controllen = sizeof(su[i].buf) };
		c = CMSG_FIRSTHDR(&sm[i].msg_hdr);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fds[i], sizeof(int));
		rio[i] = (struct iovec){ .iov_base = &x[i], .iov_len = 1 };
		rm[i].msg_hdr = (struct msghdr){ .msg_iov = &rio[i], .msg_iovlen = 1,
			.msg_control = ru[i].buf, .msg_controllen = sizeof(ru[i].buf) };
	}
	/* a datagram socket keeps the two messages apart */
	int d[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, d))
		die("socketpair");
	printf("sendmmsg %d\n", sendmmsg(d[0], sm, 2, 0));
	close(fds[0]);
	close(fds[1]);
	printf("recvmmsg %d\n", recvmmsg(d[1], rm, 2, 0, NULL));
	for (int i = 0; i < 2; i++) {
		int fd;

		memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&rm[i].msg_hdr)), sizeof(int));
		show("by recvmmsg", fd);
		close(fd);
	}
	close(d[0]);
	close(d[1]);
}

/* pidfd_getfd: the child's open file, at its offset, close-on-exec */
static void getfd(void)
{
	int ready[2], go[2], pidfd, fd;
	char buf[8] = "";
	long n;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		int f = make("g", O_RDWR, "abcdef", 2);

		if (dup2(f, 9) < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		sync_read(go[0]);
		show("the child's own after the parent wrote", 9);
		_exit(0);
	}
	sync_read(ready[0]);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	fd = (int)syscall(SYS_pidfd_getfd, pidfd, 9, 0);
	if (fd < 0)
		die("pidfd_getfd");
	show("pidfd_getfd", fd);
	n = read(fd, buf, 2);
	printf("read %ld \"%s\"\n", n, buf);
	printf("write %zd\n", write(fd, "XY", 2));
	n = syscall(SYS_pidfd_getfd, pidfd, 12, 0);
	printf("pidfd_getfd of a closed number %ld %s\n", n, n < 0 ? strerrorname_np(errno) : "");
	if (write(go[1], "g", 1) != 1)
		die("sync");
	waitpid(pid, NULL, 0);
	close(fd);
	close(pidfd);
	contents("g");
}

/* MSG_CTRUNC: three files in one message, room for two; the kernel closes the
 * third, and the lock its description held goes with it */
static void ctrunc(void)
{
	union { char buf[CMSG_SPACE(2 * sizeof(int))]; struct cmsghdr align; } u;
	char x, path[4096];
	struct iovec io = { .iov_base = &x, .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	int fds[3] = { make("c0", O_RDWR, NULL, 0), make("c1", O_RDWR, NULL, 0),
		       make("c2", O_RDWR, NULL, 0) }, sv[2], again;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || flock(fds[2], LOCK_EX))
		die("socketpair");
	send_fds(sv[0], fds, 3);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	n = recvmsg(sv[1], &mh, 0);
	printf("recvmsg with room for two of three: %zd, MSG_CTRUNC %d\n", n,
	       !!(mh.msg_flags & MSG_CTRUNC));
	snprintf(path, sizeof(path), "%s/c2", dir);
	again = open(path, O_RDWR);
	printf("flock of the third from a new open: %s\n",
	       flock(again, LOCK_EX | LOCK_NB) ? strerrorname_np(errno) : "taken");
	close(again);
	close(sv[0]);
	close(sv[1]);
}

/* what the kernel refuses or drops: a control message that claims more than it
 * has (EINVAL, and the supervisor reads no further than the buffer); a file sent and
 * never received, the socket closed -- the kernel closes it with the socket, so a
 * fifo's reader sees EOF once its write end goes that way */
static void unreceived(void)
{
	union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
	struct iovec io = { .iov_base = "x", .iov_len = 1 };
	struct msghdr mh = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = u.buf,
			     .msg_controllen = sizeof(u.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	int sv[2], r, w, f;
	char path[4096], ch;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		die("socketpair");
	f = make("f", O_RDONLY, NULL, 0);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = 64 << 20;
	memcpy(CMSG_DATA(c), &f, sizeof(int));
	n = sendmsg(sv[0], &mh, 0);
	printf("a control message longer than its buffer: %zd %s\n", n,
	       n < 0 ? strerrorname_np(errno) : "");
	send_fds(sv[0], &f, 1);  /* never received: the program's exit is still its own */
	close(f);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	unlink(path);
	if (mkfifo(path, 0600))
		die("mkfifo");
	r = open(path, O_RDONLY | O_NONBLOCK);
	w = open(path, O_WRONLY);
	fcntl(r, F_SETFL, 0);
	send_fds(sv[0], &w, 1);
	close(w);
	close(sv[0]);
	close(sv[1]);
	alarm(5);
	n = read(r, &ch, 1);
	alarm(0);
	printf("read of a fifo whose write end went unreceived: %zd %s\n", n,
	       n < 0 ? strerrorname_np(errno) : "EOF");
	close(r);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sock))
		die("socketpair");
	passed_after_close();
	peek_and_cloexec();
	several();
	mmsg();
	getfd();
	ctrunc();
	unreceived();
	return 0;
}
