// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * unixsock.c - bind, connect, sendto and sendmsg of unix sockets with a path: the
 * name is uvfs's, the socket the kernel's.
 *
 * Every bind and connect, and a sendto with an address, comes by notification; the
 * supervisor takes the program's socket (pidfd_getfd: the same open file) and looks
 * at its family.  Not AF_UNIX: the kernel answers the call as made (its address is
 * no path).  AF_UNIX: the supervisor makes the call itself on its copy, with an
 * address it read once, so the kernel never reads a path of the program's memory:
 *
 *  - bind to a path: uvfs_unix_bind() walks and checks the name in uvfs, then has
 *    the kernel's socket bound (kbind()) -- in the host directory on a --bind (a real
 *    socket file there, which programs outside uvfs-run connect to), else in a tmpfs
 *    of its own -- under the very string the program gave, as unix_bind() stores it:
 *    getsockname, getpeername, accept and recvfrom report that string as Linux does,
 *    with nothing to translate.  The string is made to lead there by a thread with a
 *    mount namespace, root and cwd of its own: the directories its components name
 *    are made in a fresh tmpfs, the host directory (a detached copy, open_tree())
 *    mounted where the last one leads, and the thread chrooted there.  The socket
 *    file outlives that namespace: uvfs keeps an O_PATH descriptor of it.
 *  - connect or sendto to a path: uvfs_unix_find() walks, checks write permission and
 *    gives that descriptor; the supervisor connects (or sends) through
 *    /proc/self/fd/N of it.
 *  - an abstract name, autobind, AF_UNSPEC, a malformed address: the supervisor makes
 *    the call with the bytes it read; the kernel answers.
 *
 *  - a datagram the supervisor sends (sendto, and sendmsg to a name: passing.c stops
 *    it) carries the program's credentials and its control data made the
 *    supervisor's (run_send_control()), as the program's own send would.
 *
 * Deliberate differences (docs/SEMANTICS.md §9): the connecting process the kernel
 * records for a stream connect (SO_PEERCRED) is the supervisor -- pid 0 in the
 * program's pid namespace, uid and gid 0; a connect or send that waits (a full
 * backlog or receive queue of a blocking socket) waits in a worker; bind of a socket
 * already bound is EINVAL before the name is made (Linux makes and removes it); an
 * absolute name through directories that lead back to "/" on a --bind
 * ("/a/../s") is bound as "/s".
 *
 * Locking: none of its own.  kbind() runs under uvfs's ns_lock (uvfs_unix_bind's
 * callback) and makes no uvfs call; its thread shares nothing but the arguments,
 * joined before they go.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "run.h"

#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif

/* a datagram or seqpacket message larger than this is refused (ENOBUFS): the
 * supervisor copies it (unix sockets' own limit, sk_sndbuf, is 208 KiB by default) */
#define SEND_MAX (16u << 20)

/* where the thread's tmpfs goes, in its own mount namespace only */
#define SKEL "/tmp"
#define SKEL_ROOT SKEL "/r"
#define SKEL_HOST SKEL "/h"

struct kbind {
	int sock;                   /* the supervisor's copy of the program's socket */
	int clone;                  /* a detached copy of the host directory, or -1 */
	const char *path;           /* the name, as the program gave it */
	int ret;                    /* the socket file's O_PATH descriptor, or -errno */
};

/* The next component of *s ('/'-separated, empty ones skipped) before end: its
 * length, *s at it; 0 at end */
static size_t next_comp(const char **s, const char *end)
{
	const char *c = *s;
	size_t n = 0;

	while (c < end && *c == '/')
		c++;
	while (c + n < end && c[n] != '/')
		n++;
	*s = c;
	return n;
}

static bool is_dot(const char *c, size_t n, size_t dots)
{
	return n == dots && !strncmp(c, "..", dots);
}

/*
 * In the thread's own namespace: a tmpfs whose directories the string's components
 * name (relative ones below a cwd deep enough that ".." never reaches the root),
 * the host directory mounted where the last leads, root and cwd set so that the
 * kernel's walk of the string ends there; then the bind.
 */
static void *kbind_thread(void *arg)
{
	struct kbind *k = arg;
	const char *path = k->path, *end = strrchr(path, '/'), *c;
	char dir[PATH_MAX], cwd[PATH_MAX] = "/", fallback[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const char *bound = path;
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	bool abs = path[0] == '/', made = false, host_root = false, above;
	int level = 0, lowest = 0, fd;
	size_t n;

	end = end ? end : path;  /* the last component follows: no trailing slash here */
	k->ret = -EIO;
	if (unshare(CLONE_FS | CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("uvfs-run-sock", SKEL, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") ||
	    mkdir(SKEL_ROOT, 0700))
		goto fail;
	for (c = path; (n = next_comp(&c, end)); c += n) {
		if (is_dot(c, n, 2))
			lowest = --level < lowest ? level : lowest;
		else if (!is_dot(c, n, 1))
			level++;
	}
	strcpy(dir, SKEL_ROOT);
	if (!abs) {
		for (int i = 0; i <= -lowest; i++) {
			strcat(dir, "/c");
			if (mkdir(dir, 0700))
				goto fail;
		}
		strcpy(cwd, dir + strlen(SKEL_ROOT));
	}
	for (c = path; (n = next_comp(&c, end)); c += n) {
		if (is_dot(c, n, 1))
			continue;
		if (is_dot(c, n, 2)) {
			if (strlen(dir) > strlen(SKEL_ROOT))
				*strrchr(dir, '/') = '\0';
			continue;
		}
		if (strlen(dir) + 1 + n >= sizeof(dir))
			goto fail;
		strcat(dir, "/");
		strncat(dir, c, n);
		if (mkdir(dir, 0700) && errno != EEXIST)
			goto fail;
		made = true;
	}
	if (k->clone >= 0 && strlen(dir) == strlen(SKEL_ROOT)) {
		/* "/name": the host directory is the root; "/a/../name" would need a
		 * directory a in it, so the name is bound as "/name" */
		if (made) {
			snprintf(fallback, sizeof(fallback), "/%s", end[0] == '/' ? end + 1 : end);
			bound = fallback;
		}
		if (mkdir(SKEL_HOST, 0700) ||
		    syscall(SYS_move_mount, k->clone, "", AT_FDCWD, SKEL_HOST, MOVE_MOUNT_F_EMPTY_PATH))
			goto fail;
		host_root = true;
	}
	/* The host's directory mounted where the walk ends: before the cwd is set, so
	 * that a cwd there is the mount -- unless the walk ends above the cwd (".."),
	 * where the cwd must stay in the tmpfs, and the walk's ".." crosses into the
	 * mount on its way up */
	above = !abs && strlen(dir) < strlen(SKEL_ROOT) + strlen(cwd);
	if (k->clone >= 0 && !host_root && !above &&
	    syscall(SYS_move_mount, k->clone, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH))
		goto fail;
	if (chroot(host_root ? SKEL_HOST : SKEL_ROOT) || chdir(cwd))
		goto fail;
	if (k->clone >= 0 && above &&
	    syscall(SYS_move_mount, k->clone, "", AT_FDCWD, dir + strlen(SKEL_ROOT),
		    MOVE_MOUNT_F_EMPTY_PATH))
		goto fail;
	/* the file's mode is set by uvfs (hostfs) or never asked (the supervisor
	 * connects as root): none meanwhile */
	umask(0777);
	/* (a 108-byte name has no NUL: the kernel takes strnlen() of sun_path, as the
	 * program's own call would have) */
	memcpy(su.sun_path, bound, strnlen(bound, sizeof(su.sun_path)));
	if (bind(k->sock, (struct sockaddr *)&su, sizeof(su)))
		goto fail;
	fd = open(bound, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	k->ret = fd < 0 ? -errno : fd;
	return NULL;
fail:
	k->ret = -errno;
	return NULL;
}

/* uvfs_unix_bind()'s callback: host_dirfd the host directory on a --bind, else -1 */
static int kbind(void *arg, int host_dirfd, const char *name)
{
	struct kbind *k = arg;
	struct sockaddr_un su;
	socklen_t len = sizeof(su);
	pthread_t th;
	int err;

	(void)name;  /* the last component of k->path */
	/* a socket bound already: EINVAL (unix_bind_bsd, after the name was made) */
	if (getsockname(k->sock, (struct sockaddr *)&su, &len))
		return -errno;
	if (len > offsetof(struct sockaddr_un, sun_path))
		return -EINVAL;
	k->clone = -1;
	if (host_dirfd >= 0) {
		k->clone = (int)syscall(SYS_open_tree, host_dirfd, "",
					OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		if (k->clone < 0)
			return errno == EINVAL ? -EOPNOTSUPP : -errno;  /* another namespace's */
	}
	err = pthread_create(&th, NULL, kbind_thread, k);
	if (!err)
		pthread_join(th, NULL);
	if (k->clone >= 0)
		close(k->clone);
	return err ? -err : k->ret;
}

/* The address to reach the kernel's socket behind descriptor h: /proc/self/fd/h */
static socklen_t via_fd(struct sockaddr_un *su, int h)
{
	memset(su, 0, sizeof(*su));
	su->sun_family = AF_UNIX;
	snprintf(su->sun_path, sizeof(su->sun_path), "/proc/self/fd/%d", h);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(su->sun_path) + 1);
}

/* ... for an address that names a path: uvfs's lookup; -errno, or 0 with *h set */
static int find_path(struct proc *p, const char *name, int *h)
{
	*h = uvfs_unix_find(p->up->task, AT_FDCWD, name);
	return *h < 0 ? *h : 0;
}

/* Room for the control data run_send_control() makes: SCM_MAX_FD descriptors,
 * credentials, and what else a message carries */
union send_control {
	char buf[CMSG_SPACE(253 * sizeof(int)) + 4096];
	struct cmsghdr align;
};

/* The send the supervisor makes for p on its copy s of p's socket: the message, to
 * the address, with control data made of p's (run_send_control(): its descriptors
 * the supervisor's copies, its credentials -- given or not -- p's): the bytes sent,
 * or -errno; SIGPIPE for the caller as the kernel sends it */
static long send_for(struct proc *p, int s, const void *buf, size_t len, int flags,
		     const struct sockaddr *to, socklen_t tolen, void *control, size_t clen)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = { .msg_name = (void *)to, .msg_namelen = tolen, .msg_iov = &iov,
			     .msg_iovlen = 1, .msg_control = control, .msg_controllen = clen };
	long ret = sendmsg(s, &mh, flags | MSG_NOSIGNAL);

	ret = ret < 0 ? -errno : ret;
	if (ret == -EPIPE && !(flags & MSG_NOSIGNAL))
		(void)syscall(SYS_tgkill, p->up->tgid, p->tid, SIGPIPE);
	return ret;
}

/* The path mh's name gives, into name (NUL-terminated): true, or false for a name
 * that is none (no name, an abstract one, another family) or cannot be read */
static bool msg_path(const struct proc *p, const struct msghdr *mh, char *name)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_un *su = (struct sockaddr_un *)&ss;
	size_t plen;

	if (!mh->msg_name || mh->msg_namelen <= offsetof(struct sockaddr_un, sun_path) ||
	    mh->msg_namelen > sizeof(struct sockaddr_un) ||
	    mem_read(p->tid, (unsigned long)mh->msg_name, &ss, mh->msg_namelen) ||
	    su->sun_family != AF_UNIX || !su->sun_path[0])
		return false;
	plen = strnlen(su->sun_path, mh->msg_namelen - offsetof(struct sockaddr_un, sun_path));
	memcpy(name, su->sun_path, plen);
	name[plen] = '\0';
	return true;
}

/* p's socket fd as the supervisor's copy, if it is a unix datagram socket (only one
 * looks a name up: unix_dgram_sendmsg), else -1 */
static int dgram_socket(const struct proc *p, int fd)
{
	int s = run_take_fd(p->up->tgid, fd), dom = 0, type = 0;
	socklen_t ol = sizeof(dom);

	if (s < 0)
		return -1;
	if (getsockopt(s, SOL_SOCKET, SO_DOMAIN, &dom, &ol) || dom != AF_UNIX ||
	    (ol = sizeof(type), getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &ol)) ||
	    type != SOCK_DGRAM) {
		close(s);
		return -1;
	}
	return s;
}

/* One message of p's, sent by the supervisor on its copy s of a datagram socket:
 * gathered, its control data made the supervisor's (run_send_control(): the errors
 * of the control data before the name's, as scm_send() comes first), its name
 * looked up by uvfs if a path (else given as it is, or none); the flights of its
 * descriptors kept or dropped by the result (run_send_exit) */
static long send_msg_for(struct proc *p, int s, const struct msghdr *mh, int flags)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_un via;
	char name[sizeof(via.sun_path) + 1];
	bool path = msg_path(p, mh, name);
	struct iovec *iov = NULL;
	union send_control cm;
	int fds[253], nfds = 0, h = -1;
	size_t total = 0;
	char *buf = NULL;
	long ret, clen = 0;

	if (path)
		run_log_path(name);
	/* the kernel's copy of the vector: UIO_MAXIOV entries (EMSGSIZE), EFAULT */
	ret = mh->msg_iovlen > 1024 ? -EMSGSIZE : 0;
	if (!ret && mh->msg_iovlen) {
		iov = calloc(mh->msg_iovlen, sizeof(*iov));
		ret = !iov ? -ENOMEM : mem_read(p->tid, (unsigned long)mh->msg_iov, iov,
						  mh->msg_iovlen * sizeof(*iov)) ? -EFAULT : 0;
	}
	for (size_t i = 0; !ret && i < mh->msg_iovlen; i++)
		ret = (total += iov[i].iov_len) > SEND_MAX ? -ENOBUFS : 0;
	if (!ret && !(buf = malloc(total ? total : 1)))
		ret = -ENOMEM;
	for (size_t i = 0, at = 0; !ret && i < mh->msg_iovlen; at += iov[i++].iov_len)
		if (iov[i].iov_len && mem_read(p->tid, (unsigned long)iov[i].iov_base, buf + at,
					       iov[i].iov_len))
			ret = -EFAULT;
	if (!ret && !path && mh->msg_name && mh->msg_namelen &&
	    (mh->msg_namelen > sizeof(ss) ||
	     mem_read(p->tid, (unsigned long)mh->msg_name, &ss, mh->msg_namelen)))
		ret = mh->msg_namelen > sizeof(ss) ? -EINVAL : -EFAULT;
	if (!ret && (ret = clen = run_send_control(p, mh, cm.buf, sizeof(cm.buf), fds, &nfds)) > 0)
		ret = 0;
	if (!ret && path && !(ret = find_path(p, name, &h)))
		ret = send_for(p, s, buf, total, flags, (struct sockaddr *)&via, via_fd(&via, h),
			       cm.buf, (size_t)clen);
	else if (!ret && !path)
		ret = send_for(p, s, buf, total, flags, mh->msg_name ? (struct sockaddr *)&ss : NULL,
			       mh->msg_name ? (socklen_t)mh->msg_namelen : 0, cm.buf, (size_t)clen);
	run_send_exit(p, ret, false);
	while (nfds)
		close(fds[--nfds]);
	if (h >= 0)
		close(h);
	free(buf);
	free(iov);
	return ret;
}

/* sendmsg to a name on a datagram socket: the supervisor's send (send_msg_for) */
long run_sock_sendmsg(struct proc *p, int fd, const struct msghdr *mh, int flags, bool *native)
{
	char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	int s;
	long ret;

	*native = true;
	if (!msg_path(p, mh, name) || (s = dgram_socket(p, fd)) < 0)
		return 0;  /* no path, or no socket that looks one up: the kernel's */
	*native = false;
	ret = send_msg_for(p, s, mh, flags);
	close(s);
	return ret;
}

/* sendmmsg with a path among its names, on a datagram socket: each message the
 * supervisor's send, in order, its msg_len written back (at mm_addr), until one
 * fails -- the first one's error, or the count sent (__sys_sendmmsg()) */
long run_sock_sendmmsg(struct proc *p, int fd, const struct mmsghdr *mm, unsigned int vlen,
		       unsigned long long mm_addr, int flags, bool *native)
{
	char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	unsigned int i, sent = 0;
	long ret = 0;
	int s;

	*native = true;
	for (i = 0; i < vlen && !msg_path(p, &mm[i].msg_hdr, name); i++)
		;
	if (i == vlen || (s = dgram_socket(p, fd)) < 0)
		return 0;
	*native = false;
	for (; sent < vlen; sent++) {
		unsigned int len;

		ret = send_msg_for(p, s, &mm[sent].msg_hdr, flags);
		if (ret < 0)
			break;
		len = (unsigned int)ret;
		if (mem_write(p->tid, mm_addr + sent * sizeof(*mm) + offsetof(struct mmsghdr, msg_len),
			      &len, sizeof(len))) {
			ret = -EFAULT;
			break;
		}
	}
	close(s);
	return sent ? (long)sent : ret;
}

long run_sock_call(struct proc *p, const struct user_regs_struct *r, bool *native)
{
	long nr = (long)r->orig_rax;
	unsigned long long addrp = nr == SYS_sendto ? r->r8 : r->rsi;
	int alen = (int)(unsigned int)(nr == SYS_sendto ? r->r9 : r->rdx);
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_un *su = (struct sockaddr_un *)&ss, via;
	int s, dom = 0, type = 0, h = -1;
	socklen_t ol = sizeof(dom);
	char name[sizeof(su->sun_path) + 1];
	size_t plen = 0;
	bool path;
	void *buf = NULL;
	struct stat st;
	long ret;

	*native = false;
	s = run_take_fd(p->up->tgid, (int)(unsigned int)r->rdi);
	if (s < 0)
		return s;
	if (fstat(s, &st) || !S_ISSOCK(st.st_mode)) {
		ret = -ENOTSOCK;
		goto out;
	}
	if (getsockopt(s, SOL_SOCKET, SO_DOMAIN, &dom, &ol) || dom != AF_UNIX) {
		*native = true;  /* an address of another family is no path */
		ret = 0;
		goto out;
	}
	ol = sizeof(type);
	(void)getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &ol);
	/* move_addr_to_kernel() */
	if (alen < 0 || (size_t)alen > sizeof(ss)) {
		ret = -EINVAL;
		goto out;
	}
	if (alen && mem_read(p->tid, addrp, &ss, (size_t)alen)) {
		ret = -EFAULT;
		goto out;
	}
	/* a name in the file system: unix_validate_addr()'s bounds and a path */
	path = (size_t)alen > offsetof(struct sockaddr_un, sun_path) &&
	       (size_t)alen <= sizeof(struct sockaddr_un) && su->sun_family == AF_UNIX &&
	       su->sun_path[0];
	if (path) {
		plen = strnlen(su->sun_path, (size_t)alen - offsetof(struct sockaddr_un, sun_path));
		memcpy(name, su->sun_path, plen);
		name[plen] = '\0';
		run_log_path(name);  /* --explain */
	}
	switch (nr) {
	case SYS_bind:
		if (path) {
			struct kbind k = { .sock = s, .path = name };

			ret = uvfs_unix_bind(p->up->task, AT_FDCWD, name, kbind, &k);
		} else {
			ret = bind(s, (struct sockaddr *)&ss, (socklen_t)alen) ? -errno : 0;
		}
		break;
	case SYS_connect:
		if (path && (ret = find_path(p, name, &h)))
			break;
		ret = path ? connect(s, (struct sockaddr *)&via, via_fd(&via, h)) :
			     connect(s, (struct sockaddr *)&ss, (socklen_t)alen);
		ret = ret ? -errno : 0;
		break;
	default: {  /* sendto with an address */
		size_t len = (size_t)r->rdx;
		int flags = (int)(unsigned int)r->r10;

		if (len > SEND_MAX) {
			ret = -ENOBUFS;
			break;
		}
		buf = malloc(len ? len : 1);
		if (!buf) {
			ret = -ENOMEM;
			break;
		}
		if (len && mem_read(p->tid, r->rsi, buf, len)) {
			ret = -EFAULT;
			break;
		}
		/* only a datagram socket looks the name up (unix_dgram_sendmsg); a stream
		 * answers EISCONN or EOPNOTSUPP, a seqpacket ignores it */
		if (path && type == SOCK_DGRAM && (ret = find_path(p, name, &h)))
			break;
		/* with the caller's credentials, as its own send would carry them */
		{
			static const struct msghdr none;
			union send_control cm;
			int nfds = 0;
			long clen = run_send_control(p, &none, cm.buf, sizeof(cm.buf), NULL, &nfds);

			if (clen < 0) {
				ret = clen;
				break;
			}
			ret = path && type == SOCK_DGRAM ?
			      send_for(p, s, buf, len, flags, (struct sockaddr *)&via,
				       via_fd(&via, h), cm.buf, (size_t)clen) :
			      send_for(p, s, buf, len, flags, (struct sockaddr *)&ss,
				       (socklen_t)alen, cm.buf, (size_t)clen);
		}
		break;
	}
	}
out:
	if (h >= 0)
		close(h);
	free(buf);
	close(s);
	return ret;
}
