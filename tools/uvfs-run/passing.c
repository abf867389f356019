// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * passing.c - descriptors that travel: a uvfs descriptor sent with SCM_RIGHTS
 * (sendmsg, sendmmsg; received by recvmsg, recvmmsg) or taken with pidfd_getfd(2) is
 * the same open file in the receiver, as the kernel's receive_fd() makes it: uvfs's
 * file is installed at the number the kernel gave the stand-in, so the receiver reads
 * and writes it through uvfs, at the sender's offset, with the sender's access mode,
 * and /proc/PID/fd names the uvfs dentry.
 *
 * The kernel moves the stand-in; uvfs-run must learn which uvfs file each received
 * descriptor is.  A sendmsg is stopped at its entry (filter.c: every sendmsg and
 * recvmsg is traced; one with no control data goes on at once): each SCM_RIGHTS
 * descriptor that is uvfs's becomes a *flight* -- uvfs's file, held (uvfs_fget), and
 * the supervisor's own copy of the stand-in (pidfd_getfd), the kernel's very file.
 * The flight keeps uvfs's file open while the message waits in the socket, as the
 * kernel's in-flight reference keeps the file open: a sender that closes its
 * descriptor after the send (the usual way) does not close the file under the
 * receiver -- a memfs file's memfd stays the file's, not sealed and given back.  At
 * a recvmsg's exit each received descriptor is compared with the flights'
 * (kcmp(KCMP_FILE): the same struct file) and the matching flight's file installed
 * at its number (uvfs_fd_install); a received MSG_PEEK copy leaves the flight for
 * the receive that takes the message.  A pidfd_getfd's result is compared with the
 * target's descriptor the same way at the call's exit.
 *
 * A flight ends when a receive takes it, or when the socket its message waits in is
 * gone (the peer of the sending socket, asked of the kernel with sock_diag, looked at
 * before each send and receive and at the loop's tick while calls wait), or when
 * uvfs-run ends; MSG_CTRUNC drops the rest of a message one of whose descriptors
 * arrived.  What is not followed: descriptors the kernel drops otherwise (a receive
 * with room for none, a read() or recv() of the message, a datagram to a socket not
 * connected) keep their
 * flight -- uvfs's file open, and the stand-in with its locks -- until the socket
 * goes; and another thread changing the control data between the supervisor's read
 * and the kernel's leaves the received stand-in unfollowed, as io_uring's sends and
 * receives are.
 *
 * Locking: the flights are the loop's alone (every call here is a ptrace stop, which
 * only the loop handles); the process's act lock is held at the stop, and the target
 * of a pidfd_getfd is only read, through uvfs_fget, which takes ns_lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/inet_diag.h>
#include <linux/kcmp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "run.h"

/* at most this many flights at once (each is a descriptor of the supervisor's); a
 * send beyond it is not followed, with a message */
#define FLIGHTS_MAX 4096
/* control data read per message: net.core.optmem_max's default, the most the kernel
 * takes (sock_kmalloc) */
#define CONTROL_MAX 131072
/* the messages of one sendmmsg/recvmmsg looked at (the kernel's UIO_MAXIOV) */
#define MMSG_MAX 1024

struct flight {
	struct flight *next;
	struct uvfs_file *file;  /* held */
	int hfd;                 /* the supervisor's copy of the stand-in */
	pid_t tid;               /* the sender's thread, while its call runs ... */
	unsigned int msg;        /* ... and the message of it (sendmmsg) */
	bool sent;               /* its call returned and sent it */
	ino_t peer;              /* the socket the message waits in, or 0: unknown */
	unsigned long message;   /* which message of all those sent */
};

static unsigned long messages;   /* messages with uvfs descriptors sent so far */

/* in the order sent: a receive takes the oldest flight of its file */
static struct flight *flights, **flights_tail = &flights;
static unsigned int nflights;
/* control data, one message at a time: the loop's */
static char control[CONTROL_MAX];

static void flight_unlink(struct flight **fp)
{
	struct flight *f = *fp;

	*fp = f->next;
	if (flights_tail == &f->next)
		flights_tail = fp;
	uvfs_fput(f->file);
	close(f->hfd);
	free(f);
	nflights--;
}

/* ---------------------------------------------------------------------------------
 * The socket a message waits in: the sending socket's peer (a socketpair, a
 * connected socket), from sock_diag; gone means the message and its descriptors are
 * gone (unix_release_sock() purges the queue)
 */
static int diag_fd = -1;

/* peer's inode of the unix socket ino: > 0; 0: none or unknown; -ENOENT: no such
 * socket */
static long unix_peer(ino_t ino)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} q = {
		.nlh = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST },
		.req = { .sdiag_family = AF_UNIX, .udiag_states = ~0u, .udiag_ino = (__u32)ino,
			 .udiag_show = UDIAG_SHOW_PEER,
			 .udiag_cookie = { INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE } },
	};
	union {
		char buf[1024];
		struct nlmsghdr align;
	} a;
	struct nlmsghdr *h = &a.align;
	ssize_t n;

	if (diag_fd < 0)
		diag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (diag_fd < 0 || send(diag_fd, &q, sizeof(q), 0) != sizeof(q))
		return 0;
	n = recv(diag_fd, a.buf, sizeof(a.buf), 0);
	if (n < (ssize_t)sizeof(*h) || !NLMSG_OK(h, (size_t)n))
		return 0;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);

		return e->error == -ENOENT ? -ENOENT : 0;
	}
	if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
		return 0;
	{
		struct unix_diag_msg *m = NLMSG_DATA(h);
		struct rtattr *rta = (struct rtattr *)(m + 1);
		int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));

		for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
			if (rta->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(rta) >= (int)sizeof(__u32))
				return *(__u32 *)RTA_DATA(rta);
	}
	return 0;
}

/* the flights whose socket is gone, dropped */
void run_flights_gc(void)
{
	for (struct flight **fp = &flights; *fp;) {
		if ((*fp)->peer && unix_peer((*fp)->peer) == -ENOENT)
			flight_unlink(fp);
		else
			fp = &(*fp)->next;
	}
}

/* uvfs-run's end: every flight given back (uvfs_free wants every file closed) */
void run_flights_end(void)
{
	while (flights)
		flight_unlink(&flights);
	if (diag_fd >= 0)
		close(diag_fd);
	diag_fd = -1;
}

/* Control data of a message in the process's memory: its length, or 0 when there
 * is none or it cannot be read */
static size_t read_control(pid_t tid, const struct msghdr *mh, char *buf)
{
	size_t len = mh->msg_controllen < CONTROL_MAX ? mh->msg_controllen : CONTROL_MAX;

	if (!mh->msg_control || len < sizeof(struct cmsghdr))
		return 0;
	if (mem_read(tid, (unsigned long)mh->msg_control, buf, len))
		return 0;
	return len;
}

/* Each descriptor of the SCM_RIGHTS messages in buf, with fn(ctx, fd) */
static void each_right(char *buf, size_t len, void (*fn)(void *, int), void *ctx)
{
	struct msghdr mh = { .msg_control = buf, .msg_controllen = len };

	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t room = len - (size_t)((char *)c - buf), n;

		/* the kernel's CMSG_OK(): a header that claims more than there is ends
		 * the parse (a send of it is EINVAL; a receive's buffer another thread
		 * scribbles on is the program's) */
		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > room)
			break;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			fn(ctx, fd);
		}
	}
}

/* The open file description at descriptor fd of process pid, as a descriptor of the
 * supervisor's (close-on-exec), or -errno */
int run_take_fd(pid_t pid, int fd)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), ret;

	if (pidfd < 0)
		return -errno;
	ret = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (ret < 0)
		ret = -errno;
	close(pidfd);
	return ret;
}

/* ---------------------------------------------------------------------------------
 * Sending
 */
struct send_ctx {
	struct proc *p;
	unsigned int msg;
	bool any;
	ino_t peer;
};

static void send_one(void *arg, int fd)
{
	struct send_ctx *s = arg;
	struct uvfs_file *file;
	struct flight *f;
	static bool told;

	file = uvfs_fget(s->p->up->task, fd);
	if (!file)
		return;  /* the host's, or not open: the kernel's business */
	if (nflights >= FLIGHTS_MAX) {
		if (!told)
			fprintf(stderr, "uvfs-run: more than %d descriptors in flight: a "
				"receiver gets the kernel's stand-in, not uvfs's file\n",
				FLIGHTS_MAX);
		told = true;
		goto out;
	}
	f = malloc(sizeof(*f));
	if (!f)
		goto out;
	f->hfd = run_take_fd(s->p->up->tgid, fd);
	if (f->hfd < 0) {
		if (!told)
			fprintf(stderr, "uvfs-run: a descriptor sent with SCM_RIGHTS: %s: a "
				"receiver gets the kernel's stand-in, not uvfs's file\n",
				strerror(-f->hfd));
		told = true;
		free(f);
		goto out;
	}
	f->file = file;
	f->tid = s->p->tid;
	f->msg = s->msg;
	f->sent = false;
	f->peer = s->peer;
	f->message = messages + s->msg;
	f->next = NULL;
	*flights_tail = f;
	flights_tail = &f->next;
	nflights++;
	s->any = true;
	return;
out:
	uvfs_fput(file);
}

/* p's credentials as a cmsg at c: a ucred of the host's tgid and the given ids */
static void put_creds(struct cmsghdr *c, pid_t pid, uid_t uid, gid_t gid)
{
	struct ucred u = { .pid = pid, .uid = uid, .gid = gid };

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(u));
	memcpy(CMSG_DATA(c), &u, sizeof(u));
}

/* scm_check_creds(): the sender's own pid, or CAP_SYS_ADMIN; one of its real,
 * effective or saved uids, or CAP_SETUID; the same of gids with CAP_SETGID */
static int check_creds(struct proc *p, const struct ucred *u)
{
	struct uvfs_task *t = p->up->task;
	struct uvfs_caps caps = { 0 };
	uid_t ru = 0, eu = 0, su = 0;
	gid_t rg = 0, eg = 0, sg = 0;

	uvfs_getresuid(t, &ru, &eu, &su);
	uvfs_getresgid(t, &rg, &eg, &sg);
	uvfs_capget(t, &caps);
	if ((u->pid == p->up->nspid || (caps.effective & (1ull << CAP_SYS_ADMIN))) &&
	    (u->uid == ru || u->uid == eu || u->uid == su ||
	     (caps.effective & (1ull << CAP_SETUID))) &&
	    (u->gid == rg || u->gid == eg || u->gid == sg ||
	     (caps.effective & (1ull << CAP_SETGID))))
		return 0;
	return -EPERM;
}

long run_send_control(struct proc *p, const struct msghdr *mh, char *out, size_t cap,
		      int *fds, int *nfds)
{
	struct msghdr in = { .msg_control = control, .msg_controllen = 0 };
	struct send_ctx s = { .p = p };
	size_t len = 0, olen = 0;
	bool creds = false;
	uid_t ru = 0, eu, su;
	gid_t rg = 0, eg, sg;
	int total = 0;

	*nfds = 0;
	if (mh->msg_controllen > INT32_MAX)
		return -ENOBUFS;  /* ____sys_sendmsg() */
	if (mh->msg_controllen) {
		len = mh->msg_controllen < CONTROL_MAX ? mh->msg_controllen : CONTROL_MAX;
		if (mh->msg_controllen > CONTROL_MAX)
			return -ENOBUFS;  /* sock_kmalloc() beyond net.core.optmem_max */
		if (mh->msg_controllen < sizeof(struct cmsghdr))
			return -EINVAL;
		if (mem_read(p->tid, (unsigned long)mh->msg_control, control, len))
			return -EFAULT;
		in.msg_controllen = len;
	}
	for (struct cmsghdr *c = len ? CMSG_FIRSTHDR(&in) : NULL; c; c = CMSG_NXTHDR(&in, c)) {
		size_t room = len - (size_t)((char *)c - control), n;
		struct cmsghdr *o = (struct cmsghdr *)(out + olen);

		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > room)
			return -EINVAL;  /* CMSG_OK() */
		if (olen + CMSG_SPACE(c->cmsg_len) > cap)
			return -ENOBUFS;
		if (c->cmsg_level != SOL_SOCKET) {
			memcpy(o, c, c->cmsg_len);  /* not the kernel's to read: kept */
			olen += CMSG_ALIGN(c->cmsg_len);
			continue;
		}
		if (c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred u;
			pid_t host;

			if (c->cmsg_len != CMSG_LEN(sizeof(u)))
				return -EINVAL;
			memcpy(&u, CMSG_DATA(c), sizeof(u));
			if (check_creds(p, &u))
				return -EPERM;
			host = u.pid == p->up->nspid ? p->up->tgid : run_host_tgid(u.pid);
			if (host < 0)
				return -ESRCH;  /* find_get_pid() */
			put_creds(o, host, u.uid, u.gid);
			olen += CMSG_SPACE(sizeof(u));
			creds = true;
			continue;
		}
		if (c->cmsg_type != SCM_RIGHTS)
			return -EINVAL;
		/* scm_fp_copy(): SCM_MAX_FD (253) in all, each open (EBADF) */
		n = c->cmsg_len < CMSG_LEN(0) ? 0 : (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (!n)
			continue;
		if (total + (int)n > 253)
			return -EINVAL;
		o->cmsg_level = SOL_SOCKET;
		o->cmsg_type = SCM_RIGHTS;
		o->cmsg_len = CMSG_LEN(n * sizeof(int));
		for (size_t i = 0; i < n; i++) {
			int fd, h;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			h = run_take_fd(p->up->tgid, fd);
			if (h < 0)
				return h == -ENOENT ? -EBADF : h;  /* the caller closes fds[] */
			fds[(*nfds)++] = h;
			memcpy(CMSG_DATA(o) + i * sizeof(int), &h, sizeof(h));
			send_one(&s, fd);  /* a uvfs descriptor: a flight */
		}
		total += (int)n;
		olen += CMSG_SPACE(n * sizeof(int));
	}
	if (!creds) {
		/* scm_send()'s default: the sender's tgid and real ids */
		if (olen + CMSG_SPACE(sizeof(struct ucred)) > cap)
			return -ENOBUFS;
		uvfs_getresuid(p->up->task, &ru, &eu, &su);
		uvfs_getresgid(p->up->task, &rg, &eg, &sg);
		put_creds((struct cmsghdr *)(out + olen), p->up->tgid, ru, rg);
		olen += CMSG_SPACE(sizeof(struct ucred));
	}
	return (long)olen;
}

/* The messages of a sendmmsg or recvmmsg (one for sendmsg, recvmsg) into mm:
 * how many could be read */
static unsigned int read_headers(struct proc *p, unsigned long at, bool many,
				 unsigned long long vlen, struct mmsghdr *mm)
{
	unsigned int n = !many ? 1 : vlen < MMSG_MAX ? (unsigned int)vlen : MMSG_MAX;

	if (!many)
		return mem_read(p->tid, at, &mm[0].msg_hdr, sizeof(mm[0].msg_hdr)) ? 0 : 1;
	while (n && mem_read(p->tid, at, mm, n * sizeof(*mm)))
		n /= 2;  /* the first ones the kernel can read, roughly: EFAULT past them */
	return n;
}

static struct mmsghdr headers[MMSG_MAX];   /* the loop's */

enum action run_send(struct proc *p, struct user_regs_struct *r, bool many)
{
	struct send_ctx s = { .p = p };
	unsigned int vlen;
	char link[64];
	struct stat st;

	if (flights)
		run_flights_gc();
	vlen = read_headers(p, r->rsi, many, r->rdx, headers);
	if (!many && vlen == 1 && headers[0].msg_hdr.msg_name) {
		/* a datagram to a unix socket's path: uvfs's name (unixsock.c) */
		bool native;
		long ret = run_sock_sendmsg(p, (int)r->rdi, &headers[0].msg_hdr,
					    (int)(unsigned int)r->rdx, &native);

		if (!native) {
			r->rax = (unsigned long long)ret;
			return ACT_SKIP;
		}
	}
	if (many && vlen) {
		/* sendmmsg to paths: the supervisor's sends too */
		bool native;
		long ret = run_sock_sendmmsg(p, (int)r->rdi, headers, vlen, r->rsi,
					     (int)(unsigned int)r->r10, &native);

		if (!native) {
			r->rax = (unsigned long long)ret;
			return ACT_SKIP;
		}
	}
	for (s.msg = 0; s.msg < vlen; s.msg++) {
		size_t len = read_control(p->tid, &headers[s.msg].msg_hdr, control);

		if (!len)
			continue;
		if (!s.peer) {
			long peer;

			snprintf(link, sizeof(link), "/proc/%d/fd/%d", p->tid, (int)r->rdi);
			peer = stat(link, &st) ? 0 : unix_peer(st.st_ino);
			s.peer = peer > 0 ? (ino_t)peer : 0;
		}
		each_right(control, len, send_one, &s);
	}
	messages += vlen;
	if (!s.any)
		return ACT_NATIVE;
	p->pending = PEND_SEND;
	return ACT_EXIT_STOP;
}

/* The messages the call sent (sendmsg: all or none; sendmmsg: the first ret) keep
 * their flights; the others' go */
void run_send_exit(struct proc *p, long ret, bool many)
{
	long sent = many ? ret : ret >= 0;

	for (struct flight **fp = &flights, *f; (f = *fp);) {
		if (f->sent || f->tid != p->tid) {
			fp = &f->next;
			continue;
		}
		if ((long)f->msg < sent) {
			f->sent = true;
			fp = &f->next;
		} else {
			flight_unlink(fp);
		}
	}
}

/* ---------------------------------------------------------------------------------
 * Receiving
 */
static bool same_file(pid_t tid1, int fd1, pid_t tid2, int fd2)
{
	return syscall(SYS_kcmp, tid1, tid2, KCMP_FILE, fd1, fd2) == 0;
}

/* uvfs's table at fd follows the kernel's: file there, or nothing */
static void install(struct proc *p, int fd, struct uvfs_file *file, int flags)
{
	int err;

	if (!file) {
		uvfs_close(p->up->task, fd);  /* a host descriptor: not uvfs's */
		return;
	}
	err = uvfs_fd_install(p->up->task, fd, file, flags);
	if (err < 0) {
		fprintf(stderr, "uvfs-run: descriptor %d: %s\n", fd, strerror(-err));
		return;
	}
	p->watch_more |= run_fd_watch(p, fd);
}

struct recv_ctx {
	struct proc *p;
	int flags;   /* MSG_PEEK, MSG_CMSG_CLOEXEC */
	unsigned long message;   /* the message of the last flight taken, + 1; or 0 */
};

static void recv_one(void *arg, int fd)
{
	struct recv_ctx *c = arg;
	pid_t me = getpid();

	for (struct flight **fp = &flights, *f; (f = *fp); fp = &f->next) {
		if (!same_file(me, f->hfd, c->p->tid, fd))
			continue;
		install(c->p, fd, f->file, c->flags & MSG_CMSG_CLOEXEC ? O_CLOEXEC : 0);
		c->message = f->message + 1;
		if (!(c->flags & MSG_PEEK))
			flight_unlink(fp);
		return;
	}
	install(c->p, fd, NULL, 0);
}

enum action run_recv(struct proc *p, struct user_regs_struct *r, bool many)
{
	unsigned int vlen = read_headers(p, r->rsi, many, r->rdx, headers);

	/* a receive with no room for control data gets no descriptor: on it goes */
	for (unsigned int i = 0; i < vlen; i++) {
		const struct msghdr *mh = &headers[i].msg_hdr;

		if (mh->msg_control && mh->msg_controllen >= sizeof(struct cmsghdr)) {
			p->pending = PEND_RECV;
			p->p_arg = (long)vlen;
			p->p_flags = (unsigned int)(many ? r->r10 : r->rdx);
			return ACT_EXIT_STOP;
		}
	}
	return ACT_NATIVE;
}

void run_recv_exit(struct proc *p, const struct user_regs_struct *r, long ret, bool many)
{
	struct recv_ctx c = { .p = p, .flags = (int)p->p_flags };
	long got = many ? ret : ret >= 0;
	unsigned int n;

	if (got <= 0)
		return;
	/* the kernel has set msg_controllen to what it wrote */
	n = read_headers(p, r->rsi, many, (unsigned long long)(got < p->p_arg ? got : p->p_arg),
			 headers);
	for (unsigned int i = 0; i < n; i++) {
		size_t len = read_control(p->tid, &headers[i].msg_hdr, control);

		c.message = 0;
		if (len)
			each_right(control, len, recv_one, &c);
		/* MSG_CTRUNC: the descriptors that did not fit were closed by the
		 * kernel (scm_detach_fds(), then __scm_destroy()): the rest of the
		 * message's flights with them.  A buffer too small for even one leaves
		 * nothing to tell the message by: its flights wait for the socket */
		if ((headers[i].msg_hdr.msg_flags & MSG_CTRUNC) && c.message && !(c.flags & MSG_PEEK)) {
			for (struct flight **fp = &flights; *fp;) {
				if ((*fp)->message == c.message - 1)
					flight_unlink(fp);
				else
					fp = &(*fp)->next;
			}
		}
	}
	if (flights)
		run_flights_gc();
}

/* ---------------------------------------------------------------------------------
 * pidfd_getfd(pidfd, targetfd, 0): the target's file at targetfd, close-on-exec
 */
static pid_t pidfd_pid(pid_t tid, int pidfd)
{
	char path[64], line[128];
	pid_t pid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", tid, pidfd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid;
}

void run_getfd_exit(struct proc *p, const struct user_regs_struct *r, long ret)
{
	int pidfd = (int)r->rdi, target = (int)r->rsi;
	struct uvfs_file *file = NULL;
	struct uproc *up;
	pid_t pid;

	if (ret < 0)
		return;
	/* the supervisor's /proc: the host's pid, which the loop knows the process by */
	pid = pidfd_pid(p->tid, pidfd);
	up = pid > 0 ? run_uproc_of(pid) : NULL;
	if (up && same_file(p->tid, (int)ret, pid, target))
		file = uvfs_fget(up->task, target);
	install(p, (int)ret, file, O_CLOEXEC);
	uvfs_fput(file);
}
