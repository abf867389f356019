// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hostfs.c - "host": a directory of the host mounted into uvfs (mount -t host SRC DST).
 *
 * What the files are comes from the host; what may be done with them, the names and
 * everything /proc says come from uvfs.  The kernel's nearest thing is a bind mount of
 * the source: stat shows the host's mode, owner, size, times, link count and inode
 * number (st_dev is uvfs's own numbering of the superblock), getdents64 the host's
 * entries, order and d_off, and every change is made by the host's system call.
 *
 * Confinement.  Every inode holds an O_PATH descriptor of its host object, and the
 * host is only ever asked for one component relative to the descriptor of the
 * directory it is in, with O_NOFOLLOW (lookup: openat(dirfd, name, O_PATH|O_NOFOLLOW)),
 * never for a path it would resolve itself.  ".." never reaches the host (the walk
 * answers it from uvfs's dentries), a host symbolic link is a uvfs symbolic link that
 * uvfs's walk follows inside uvfs's namespace, and a host process that swaps a
 * directory for a symlink changes what the next lookup finds, not where the held
 * descriptors point.  What is done to an object already found (open, chmod, utimes,
 * truncate, link) goes through its own descriptor: /proc/self/fd/N of the host's
 * procfs reopens exactly that object, so the host's procfs must be mounted.
 *
 * The cache.  The dentries looked up stay cached, positive ones and (where they can be
 * checked cheaply) misses, in an LRU of their own (struct lru_slot): unused ones
 * beyond uvfs_config's max_host_dentries are evicted by ->shrink at the end of a call,
 * so memory and host descriptors are bounded whatever a program walks.  Inodes are shared by every dentry of one host object through a hash
 * on (st_dev, st_ino), so hard links are one inode as on the kernel.  A referenced
 * dentry (a cwd, an open file's) is revalidated when a walk finds it in the dcache:
 * the host's answer for (parent, name) must still be the same object (the kernel's
 * d_revalidate, as NFS does it).  The revalidation policy, chosen at mount: "always"
 * (the default), "timeout=SECONDS" (trust what was checked that recently), "never".
 *
 * Permissions are uvfs's: its tasks' credentials against the mode and owner the host
 * reports; the host call is made with the embedding process's own rights, so a
 * non-root embedder gets the host's EACCES/EPERM for what it may not do itself, and
 * files it creates belong to it on the host (docs/SEMANTICS.md, "Host mounts").
 *
 * Stubs.  uvfs_mount2_mkdirs() makes the missing directories of a mount's target
 * here as stubs (->mkstub): directories of uvfs's dcache alone, with no host object
 * (fd -1, not in the inode hash nor the LRU, no revalidation), so that a mount point
 * never has to be made on the host.  A stub lists its own stub children, is refused
 * every change but rmdir, and stays until removed so or until the mount goes
 * (stub_iops below).
 *
 * Locking: every operation runs under uvfs.ns_lock (hostfs has no SB_RCU_WALK: the
 * lockless walk stops at a host mount and takes the lock).  The inode hash and every
 * hostfs_inode field are ns_lock's, or immutable where said.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1          /* include/uapi/linux/mount.h */
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

#include "../dcache.h"
#include "../file.h"
#include "../ida.h"
#include "../inode.h"
#include "../mount.h"
#include "../namei.h"
#include "../permission.h"
#include "../pipe.h"
#include "fs.h"

struct hostfs_inode {
	struct inode vfs_inode;
	int fd;                          /* immutable: O_PATH|O_NOFOLLOW of the object
					  * (O_TMPFILE: the read-write descriptor) */
	dev_t h_dev;                     /* immutable: the object's identity on the host */
	ino_t h_ino;
	blkcnt_t h_blocks;               /* st_blocks and st_blksize at the last check */
	blksize_t h_blksize;
	int64_t checked;                 /* coarse seconds of the last check */
	struct hostfs_inode *hash_next;  /* in hostfs_sb.hash */
	/* "always" with inotify: the inode's watch (-1: none, the host is asked every
	 * time), and counts of the events seen for it -- any event (attr_gen), and
	 * names made, removed or moved in it, a directory (names_gen) -- against
	 * attr_gen at the last check (attr_seen) */
	int wd;
	uint32_t attr_gen, attr_seen, names_gen;
	struct hostfs_inode *wd_next;    /* in hostfs_sb.wds */
	/* a directory's dentry (it has one), for the host's renames and removals in it
	 * (sync_names()); NULL while it has none */
	struct dentry *alias;
};

_Static_assert(offsetof(struct hostfs_inode, vfs_inode) == 0, "new_inode gives the struct");

/* A cached dentry's place in its superblock's LRU (index in d_offset, which a host
 * directory's readdir has no use for: the host keeps the positions). */
struct lru_slot {
	struct dentry *d;                /* NULL: on the free list */
	uint32_t prev, next;             /* slot 0 is the list's head: next the newest */
	uint32_t names_seen;             /* the parent's names_gen when last checked */
};

struct hostfs_sb {
	int root_fd;                     /* immutable: O_PATH of the source directory */
	int proc_fd;                     /* immutable: O_PATH of the host's /proc/self/fd */
	unsigned int reval;              /* immutable: HOST_REVAL_* */
	unsigned int timeout;            /* immutable: seconds, HOST_REVAL_TIMEOUT */
	bool recursive;                  /* immutable: "recursive" (the mounts below too) */
	bool clone;                      /* immutable: root_fd is open_tree()'s copy */
	dev_t root_hdev;                 /* immutable: the source's filesystem on the host */
	/* A recursive mount's other host filesystems (the host's mounts below the
	 * source: /dev/pts below /dev), each shown with an anonymous device number of
	 * its own, as a bind of each is on the kernel: one st_dev for all would make
	 * their inode numbers collide (/dev and /dev/pts are both inode 1, and find
	 * reports a "File system loop").  Added at the first inode of each, freed with
	 * the superblock; ns_lock's, as everything here not immutable. */
	struct { dev_t host, dev; } *subdevs;
	size_t nr_subdevs;
	uint32_t stub_ino;               /* the last stub's inode number (counting down) */
	struct hostfs_inode **hash;      /* (h_dev, h_ino) -> inode; hash_mask + 1 chains */
	size_t hash_mask;
	size_t nr_hashed;
	/* The positive dentries looked up (the root excepted), most recently used
	 * first; unused ones beyond max_cached are evicted from the end */
	struct lru_slot *lru;
	uint32_t lru_size;               /* slots allocated, 0 included */
	uint32_t lru_free;               /* first free slot (chained by next), 0: none */
	uint32_t nr_cached;
	uint64_t max_cached;             /* immutable */
	/* "always": an inotify instance watching every cached inode but symlinks, read
	 * at the first host operation of each call (drained_seq: that call's ns_seq);
	 * -1 when the host gave none (the host is then asked every time) */
	int ifd;
	unsigned long drained_seq;
	/* names removed or moved by the host in watched directories, for sync_names()
	 * to apply to the dcache at a point where no walk is under way */
	struct name_event *events;
	size_t nr_events, max_events;
	bool events_lost;                /* more than max_events, or no memory */
	/* watch descriptor -> inode: wd_mask + 1 chains by wd_next, doubled when they
	 * hold more watches than chains.  inotify numbers a group's watches cyclically
	 * (idr_alloc_cyclic() in inotify_add_to_idr()), so the live ones are a window of
	 * consecutive numbers and wd & wd_mask spreads them evenly.  256 fixed chains
	 * were ~60 long with the cache at its bound, walked at each watch, event and
	 * eviction (uvfs-bench --host-walk: docs/PERFORMANCE.md, "Host mounts") */
	struct hostfs_inode **wds;
	uint32_t wd_mask;
	size_t nr_watched;
};

struct name_event {
	int wd;                          /* the directory's watch */
	uint32_t mask, cookie;           /* IN_DELETE, IN_MOVED_FROM or IN_MOVED_TO */
	char *name;
};


static const struct inode_operations stub_iops;
static int hostfs_mkstub(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			 gid_t gid);
static const struct inode_operations hostfs_dir_iops, hostfs_file_iops, hostfs_link_iops,
	hostfs_special_iops, hostfs_fifo_iops, hostfs_sock_iops;
static const struct super_operations hostfs_sops;

static void lru_touch(struct hostfs_sb *s, const struct dentry *d);

static inline struct hostfs_inode *HI(const struct inode *inode)
{
	return container_of(inode, struct hostfs_inode, vfs_inode);
}
static inline struct hostfs_sb *HSB(const struct super_block *sb) { return sb->s_fs_info; }
/* An open file's host descriptor, opened through the inode's O_PATH one, kept in
 * private_data as fd + 1 -- no allocation, so that an open after a create cannot fail
 * for want of memory and leave the new file behind */
static inline int hfd(const struct file *f) { return (int)(intptr_t)f->private_data - 1; }
static inline const char *dname(const struct dentry *d) { return (const char *)d->d_name.name; }
static inline bool is_stub(const struct inode *inode) { return inode->i_op == &stub_iops; }

/* Does directory d hold a stub?  Then it is not empty, though the host says it is. */
static bool holds_stubs(const struct dentry *d)
{
	for (struct cds_hlist_node *n = d->d_children.next; n; n = n->next) {
		const struct dentry *c = cds_hlist_entry(n, struct dentry, d_sib);

		if (!d_unhashed(c) && c->d_inode && is_stub(c->d_inode))
			return true;
	}
	return false;
}

/* -errno of the host call that just failed */
static inline int host_err(void) { return -errno; }

/* ---------------------------------------------------------------------------------
 * Inodes: the host object's attributes, and the hash that makes one inode of each
 */

static size_t hash_index(const struct hostfs_sb *s, dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9E3779B97F4A7C15ull ^ (uint64_t)dev;

	return (size_t)(h ^ (h >> 29)) & s->hash_mask;
}

static struct hostfs_inode *hash_find(const struct hostfs_sb *s, dev_t dev, ino_t ino)
{
	for (struct hostfs_inode *hi = s->hash[hash_index(s, dev, ino)]; hi; hi = hi->hash_next)
		if (hi->h_ino == ino && hi->h_dev == dev)
			return hi;
	return NULL;
}

/* Double the table when it holds more inodes than chains; a failed allocation keeps
 * the old one (longer chains, nothing lost). */
static void hash_grow(struct hostfs_sb *s)
{
	size_t n = (s->hash_mask + 1) * 2;
	struct hostfs_inode **t = uvfs_zalloc(n * sizeof(*t)), **old = s->hash;
	size_t old_n = s->hash_mask + 1;

	if (!t)
		return;
	s->hash = t;
	s->hash_mask = n - 1;
	for (size_t i = 0; i < old_n; i++) {
		for (struct hostfs_inode *hi = old[i], *next; hi; hi = next) {
			size_t b = hash_index(s, hi->h_dev, hi->h_ino);

			next = hi->hash_next;
			hi->hash_next = t[b];
			t[b] = hi;
		}
	}
	free(old);
}

static void hash_remove(struct hostfs_sb *s, struct hostfs_inode *hi)
{
	struct hostfs_inode **p = &s->hash[hash_index(s, hi->h_dev, hi->h_ino)];

	while (*p && *p != hi)
		p = &(*p)->hash_next;
	if (*p) {
		*p = hi->hash_next;
		s->nr_hashed--;
	}
}

/* set_nlink(), with the superblock's count of inodes that have none */
static void set_nlink(struct inode *inode, unsigned int n)
{
	if (!n)
		clear_nlink(inode);
	else if (!inode->i_nlink)
		inc_nlink(inode), inode->i_nlink = n;
	else
		inode->i_nlink = n;
}

/* The inode takes what the host says of its object (the type never changes: the same
 * (st_dev, st_ino) held open is the same object). */
static void copy_attr(struct inode *inode, const struct stat *st)
{
	struct hostfs_inode *hi = HI(inode);

	inode->i_mode = (uint16_t)((inode->i_mode & S_IFMT) | (st->st_mode & 07777));
	inode->i_uid = st->st_uid;
	inode->i_gid = st->st_gid;
	set_nlink(inode, (unsigned int)st->st_nlink);
	inode->i_size = st->st_size;
	inode_set_time(inode, I_ATIME, st->st_atim);
	inode_set_time(inode, I_MTIME, st->st_mtim);
	inode_set_time(inode, I_CTIME, st->st_ctim);
	hi->h_blocks = st->st_blocks;
	hi->h_blksize = st->st_blksize;
	hi->checked = coarse_time(inode->i_sb->s_fs).tv_sec;
	hi->attr_seen = hi->attr_gen;
}

/*
 * Coherence without a system call per check ("always" with inotify).  A host change
 * queues its event before the changing call returns (fsnotify runs inside it), so
 * reading the queue at the start of a call sees every change made before the call
 * began: a name is still what it was if its directory had no name event since it was
 * checked, an inode's attributes if it had no event at all.  Drained once per call
 * (ns_seq is odd and different in every locked section).
 */
#define WATCH_MASK (IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | \
		    IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_MOVED_FROM | IN_MOVED_TO)
#define NAME_EVENTS (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

static struct hostfs_inode **wd_slot(struct hostfs_sb *s, int wd)
{
	struct hostfs_inode **p = &s->wds[(unsigned int)wd & s->wd_mask];

	while (*p && (*p)->wd != wd)
		p = &(*p)->wd_next;
	return p;
}

/* Double the watch table (as hash_grow() the inode hash); a failed allocation keeps
 * the old one: longer chains, nothing lost. */
static void wd_grow(struct hostfs_sb *s)
{
	const uint32_t old_n = s->wd_mask + 1, n = old_n * 2;
	struct hostfs_inode **t, **old = s->wds;

	if (n < old_n)
		return;
	t = uvfs_zalloc(n * sizeof(*t));
	if (!t)
		return;
	for (uint32_t i = 0; i < old_n; i++) {
		for (struct hostfs_inode *hi = old[i], *next; hi; hi = next) {
			struct hostfs_inode **chain = &t[(unsigned int)hi->wd & (n - 1)];

			next = hi->wd_next;
			hi->wd_next = *chain;
			*chain = hi;
		}
	}
	s->wds = t;
	s->wd_mask = n - 1;
	free(old);
}

static void watch(struct super_block *sb, struct hostfs_inode *hi)
{
	struct hostfs_sb *s = HSB(sb);
	char path[40];

	hi->wd = -1;
	if (s->ifd < 0 || S_ISLNK(hi->vfs_inode.i_mode))
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", hi->fd);
	hi->wd = inotify_add_watch(s->ifd, path, WATCH_MASK);
	if (hi->wd < 0 || *wd_slot(s, hi->wd)) {
		/* out of watches (fs.inotify.max_user_watches): asked every time */
		if (hi->wd >= 0)
			inotify_rm_watch(s->ifd, hi->wd);
		hi->wd = -1;
		return;
	}
	if (s->nr_watched > s->wd_mask)
		wd_grow(s);
	{
		struct hostfs_inode **chain = &s->wds[(unsigned int)hi->wd & s->wd_mask];

		hi->wd_next = *chain;
		*chain = hi;
	}
	s->nr_watched++;
}

static void unwatch(struct hostfs_sb *s, struct hostfs_inode *hi)
{
	struct hostfs_inode **p;

	if (hi->wd < 0)
		return;
	p = wd_slot(s, hi->wd);
	if (*p == hi) {
		*p = hi->wd_next;
		s->nr_watched--;
	}
	inotify_rm_watch(s->ifd, hi->wd);  /* EINVAL if the host removed it: no matter */
	hi->wd = -1;
}

/* The queue overflowed: nothing checked can be trusted. */
static void stale_all(struct hostfs_sb *s)
{
	for (size_t i = 0; i <= s->hash_mask; i++)
		for (struct hostfs_inode *hi = s->hash[i]; hi; hi = hi->hash_next)
			hi->attr_gen++, hi->names_gen++;
}

/* A removal or rename the host made in a watched directory: sync_names() applies it
 * at the end of the call (shrink_pending) or before a path is made (->sync_paths). */
static void keep_name_event(const struct super_block *sb, const struct inotify_event *ev)
{
	struct hostfs_sb *s = HSB(sb);
	struct name_event *e;

	if (s->nr_events == s->max_events) {
		size_t n = s->max_events ? s->max_events * 2 : 16;

		e = n <= 65536 ? realloc(s->events, n * sizeof(*e)) : NULL;
		if (!e) {
			s->events_lost = true;
			return;
		}
		s->events = e;
		s->max_events = n;
	}
	e = &s->events[s->nr_events];
	*e = (struct name_event){ ev->wd, ev->mask, ev->cookie, strdup(ev->name) };
	if (!e->name) {
		s->events_lost = true;
		return;
	}
	s->nr_events++;
	sb->s_fs->shrink_pending = true;
}

static void drain(const struct super_block *sb)
{
	struct hostfs_sb *s = HSB(sb);
	unsigned long seq = atomic_load_explicit(&sb->s_fs->ns_seq, memory_order_relaxed);
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	if (s->ifd < 0 || s->drained_seq == seq)
		return;
	s->drained_seq = seq;
	/* ... until a read that left room for the largest event: the queue was empty
	 * then (inotify's read() returns every whole event that fits), and one queued
	 * after it is as one queued after the walk that asked -- a second read, which
	 * would say EAGAIN, is a system call on every walk that saw an event */
	while ((n = read(s->ifd, buf, sizeof(buf))) > 0) {
		const bool last = (size_t)n <= sizeof(buf) - (sizeof(struct inotify_event) + NAME_MAX + 1);

		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			struct hostfs_inode **slot, *hi;

			p += sizeof(*ev) + ev->len;
			if (ev->mask & IN_Q_OVERFLOW) {
				stale_all(s);
				continue;
			}
			slot = wd_slot(s, ev->wd);
			hi = *slot;
			if (!hi)
				continue;
			if (ev->mask & IN_IGNORED) {
				/* the host removed the watch (the object is gone) */
				*slot = hi->wd_next;
				s->nr_watched--;
				hi->wd = -1;
				continue;
			}
			hi->attr_gen++;
			if (ev->mask & NAME_EVENTS)
				hi->names_gen++;
			if ((ev->mask & (IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) && ev->len)
				keep_name_event(sb, ev);
		}
		if (last)
			break;
	}
}

/* Are the inode's attributes recent enough for the mount's policy? */
static bool attrs_fresh(const struct inode *inode)
{
	const struct hostfs_sb *s = HSB(inode->i_sb);
	const struct hostfs_inode *hi = HI(inode);

	switch (s->reval) {
	case HOST_REVAL_NEVER:
		return true;
	case HOST_REVAL_TIMEOUT:
		return coarse_time(inode->i_sb->s_fs).tv_sec - hi->checked < (int64_t)s->timeout;
	default:
		drain(inode->i_sb);
		return hi->wd >= 0 && hi->attr_seen == hi->attr_gen;
	}
}

/* Ask the host about an inode: 0 or -errno. */
static int force_refresh(struct inode *inode)
{
	struct stat st;

	if (fstat(HI(inode)->fd, &st))
		return host_err();
	copy_attr(inode, &st);
	return 0;
}

/* The same, unless the policy says what the inode holds will do. */
static int refresh(struct inode *inode)
{
	return attrs_fresh(inode) ? 0 : force_refresh(inode);
}

/* Does name in dir still name inode on the host? */
static bool still_named(const struct hostfs_inode *dir, const char *name, const struct inode *inode)
{
	struct stat st;

	return !fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	       st.st_ino == HI(inode)->h_ino && st.st_dev == HI(inode)->h_dev;
}

/* dir's cached child called name, with a reference, or NULL */
static struct dentry *cached_child(struct dentry *dir, const char *name)
{
	struct qstr q = QSTR_INIT(name, strlen(name));

	q.hash = d_name_hash(q.name, q.len);
	return d_lookup(dir, &q);
}

/* The host moved d's object to name in the directory to: move the dentry there too
 * (d_move over what the name held, a hashed negative dentry made for it if nothing). */
static int move_to(struct dentry *d, struct dentry *to, const char *name)
{
	struct dentry *t = cached_child(to, name);

	/* the host's new name is hidden by a stub there: d names nothing uvfs shows */
	if (t && t->d_inode && is_stub(t->d_inode)) {
		dput(t);
		return -EEXIST;
	}
	if (!t) {
		struct qstr q = QSTR_INIT(name, strlen(name));

		q.hash = d_name_hash(q.name, q.len);
		t = d_alloc(to, &q);
		if (!t)
			return -ENOMEM;
		d_add(t, NULL);
	}
	if (t != d)
		d_move(d, t);
	dput(t);
	if (d->d_offset)
		HSB(d_sb(d))->lru[d->d_offset].names_seen = HI(to->d_inode)->names_gen;
	return 0;
}

/*
 * The kernel shares one dcache between a bind mount and its source, so a file a host
 * process removes or renames shows at once as "... (deleted)" or under its new name in
 * /proc/PID/fd, a renamed directory in getcwd.  uvfs's dentries learn it from the
 * removals and renames the inotify queue reported: a cached name that no longer names
 * its object on the host is moved where the host moved it (when uvfs has that
 * directory), or else dropped, and a removed directory is dead.  Not in a walk: it
 * kills unused dentries (from shrink at the end of a call, or ->sync_paths).
 */
static void sync_names(struct super_block *sb)
{
	struct hostfs_sb *s = HSB(sb);

	drain(sb);
	for (size_t i = 0; i < s->nr_events; i++) {
		struct name_event *ev = &s->events[i];
		struct hostfs_inode *dir = *wd_slot(s, ev->wd);
		struct dentry *d;

		if (!(ev->mask & (IN_DELETE | IN_MOVED_FROM)) || !dir || !dir->alias)
			continue;
		d = cached_child(dir->alias, ev->name);
		if (!d)
			continue;
		/* a host name the same as a stub's (made and removed there meanwhile) is
		 * not the stub's: the stub stays */
		if (d->d_inode && !is_stub(d->d_inode) && !still_named(dir, ev->name, d->d_inode)) {
			bool moved = false;

			for (size_t j = i + 1; j < s->nr_events && (ev->mask & IN_MOVED_FROM); j++) {
				struct name_event *to = &s->events[j];
				struct hostfs_inode *tdir;

				if (!(to->mask & IN_MOVED_TO) || to->cookie != ev->cookie)
					continue;
				tdir = *wd_slot(s, to->wd);
				moved = tdir && tdir->alias &&
					still_named(tdir, to->name, d->d_inode) &&
					!move_to(d, tdir->alias, to->name);
				break;
			}
			if (!moved) {
				if ((ev->mask & IN_DELETE) && S_ISDIR(d->d_inode->i_mode))
					d_mark_dead_dir(d);
				d_drop(d);
			}
		}
		dput(d);
	}
	for (size_t i = 0; i < s->nr_events; i++)
		free(s->events[i].name);
	s->nr_events = 0;
	s->events_lost = false;
}

static const struct inode_operations *iops_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return &hostfs_dir_iops;
	case S_IFREG: return &hostfs_file_iops;
	case S_IFLNK: return &hostfs_link_iops;
	case S_IFIFO: return &hostfs_fifo_iops;
	case S_IFSOCK: return &hostfs_sock_iops;
	default: return &hostfs_special_iops;
	}
}

/* The device number a recursive mount shows for host filesystem hdev: the
 * superblock's for the source's own, an anonymous one of its own for each other
 * (hostfs_sb.subdevs) */
static dev_t subdev_of(const struct super_block *sb, dev_t hdev)
{
	const struct hostfs_sb *s = HSB(sb);

	for (size_t i = 0; i < s->nr_subdevs; i++)
		if (s->subdevs[i].host == hdev)
			return s->subdevs[i].dev;
	return sb->s_dev;
}

/* hdev's number, allocated if it has none: 0 or -ENOMEM (nothing changed) */
static int subdev_add(struct super_block *sb, dev_t hdev)
{
	struct hostfs_sb *s = HSB(sb);
	void *more;
	int minor;

	if (subdev_of(sb, hdev) != sb->s_dev)
		return 0;
	more = uvfs_realloc(s->subdevs, (s->nr_subdevs + 1) * sizeof(*s->subdevs));
	if (!more)
		return -ENOMEM;
	s->subdevs = more;
	/* as mount_fs() numbers a superblock (get_anon_bdev()) */
	minor = ida_alloc_min(&sb->s_fs->anon_devs, 30);
	if (minor < 0)
		return -ENOMEM;
	s->subdevs[s->nr_subdevs].host = hdev;
	s->subdevs[s->nr_subdevs++].dev = makedev(0, (unsigned int)minor);
	return 0;
}

/*
 * iget: the inode of the host object fd refers to (st its attributes), with a
 * reference.  fd is the inode's from now on -- or closed, when an inode of that
 * object exists already.  ERR_PTR(-errno) (fd closed) on failure.
 */
static struct inode *hostfs_iget(struct super_block *sb, int fd, const struct stat *st)
{
	struct hostfs_sb *s = HSB(sb);
	struct hostfs_inode *hi = hash_find(s, st->st_dev, st->st_ino);
	struct inode *inode;
	char *body = NULL;

	if (hi) {
		close(fd);
		copy_attr(&hi->vfs_inode, st);
		return igrab(&hi->vfs_inode);
	}
	if (S_ISLNK(st->st_mode)) {
		/* the body, read once: a symlink's never changes */
		ssize_t n;

		body = uvfs_malloc((size_t)UVFS_PAGE_SIZE);
		if (!body)
			goto enomem;
		n = readlinkat(fd, "", body, UVFS_PAGE_SIZE - 1);
		if (n < 0) {
			int err = host_err();

			free(body);
			close(fd);
			return ERR_PTR(err);
		}
		body[n] = 0;
	}
	if (s->recursive && st->st_dev != s->root_hdev && subdev_add(sb, st->st_dev))
		goto enomem;
	inode = new_inode(sb, st->st_mode & S_IFMT);
	if (!inode)
		goto enomem;
	hi = HI(inode);
	hi->fd = fd;
	hi->wd = -1;
	hi->h_dev = st->st_dev;
	hi->h_ino = st->st_ino;
	/* st_ino is shown whole (getattr); i_ino, 32 bits, is what /proc's fdinfo and the
	 * kernel's own 32-bit users would see */
	inode->i_ino = (uint32_t)st->st_ino;
	inode->i_op = iops_of(st->st_mode);
	inode->i_rdev = (uint32_t)st->st_rdev;
	if (body)
		inode->i_link = body;
	copy_attr(inode, st);
	watch(sb, hi);
	if (s->nr_hashed >= s->hash_mask + 1)
		hash_grow(s);
	{
		size_t b = hash_index(s, hi->h_dev, hi->h_ino);

		hi->hash_next = s->hash[b];
		s->hash[b] = hi;
		s->nr_hashed++;
	}
	return inode;
enomem:
	free(body);
	close(fd);
	return ERR_PTR(-ENOMEM);
}

/* Look a name up in the host directory dirfd: its inode, NULL if it does not exist,
 * or ERR_PTR(-errno). */
static struct inode *host_lookup(struct super_block *sb, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return errno == ENOENT ? NULL : ERR_PTR(host_err());
	if (fstat(fd, &st)) {
		int err = host_err();

		close(fd);
		return ERR_PTR(err);
	}
	return hostfs_iget(sb, fd, &st);
}

static void hostfs_evict_inode(struct inode *inode)
{
	struct hostfs_inode *hi = HI(inode);

	if (hi->fd >= 0) {
		/* At the unmount every watch goes at once with the inotify instance
		 * (hostfs_put_super()), not by an inotify_rm_watch() each, which queues
		 * an IN_IGNORED the instance never reads (10,121 calls at uvfs-run's exit
		 * after 10,000 files).  Nothing drains the table of watch descriptors
		 * after SB_DYING (no call runs), and put_super frees it. */
		if (!(inode->i_sb->s_flags & SB_DYING))
			unwatch(HSB(inode->i_sb), hi);
		hash_remove(HSB(inode->i_sb), hi);
		close(hi->fd);
		hi->fd = -1;
	}
}

static void hostfs_free_inode(struct inode *inode)
{
	if (S_ISLNK(inode->i_mode))
		free(inode->i_link);
}

/* An inode is only a copy of the host's: it goes with its last reference. */
static bool hostfs_drop_inode(const struct inode *inode)
{
	(void)inode;
	return true;
}

/* ->getattr: the host's answer now, or what the last check saw, as the policy says;
 * st_dev stays uvfs's. */
static void hostfs_getattr(const struct inode *inode, struct stat *st)
{
	const struct hostfs_inode *hi = HI(inode);
	dev_t dev = HSB(inode->i_sb)->nr_subdevs ? subdev_of(inode->i_sb, hi->h_dev) : st->st_dev;
	struct stat hst;

	if (!attrs_fresh(inode) && !fstat(hi->fd, &hst)) {
		*st = hst;
		st->st_dev = dev;
		return;
	}
	st->st_dev = dev;
	st->st_ino = hi->h_ino;
	st->st_blocks = hi->h_blocks;
	st->st_blksize = hi->h_blksize;
	st->st_rdev = (dev_t)inode->i_rdev;
}

/* ->statx: what a bind mount of the host directory would show beyond stat -- the
 * host filesystem's btime and attributes (ext4's, tmpfs's), and, on a multigrain
 * host filesystem asked for neither, no mtime and ctime.  The mount's own (its id,
 * its root) are uvfs's. */
static void hostfs_statx(struct inode *inode, unsigned int mask, struct statx *sx)
{
	struct statx h;

	if (statx(HI(inode)->fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		  mask & (STATX_BASIC_STATS | STATX_BTIME), &h))
		return;
	if (h.stx_mask & STATX_BTIME) {
		sx->stx_btime = h.stx_btime;
		sx->stx_mask |= STATX_BTIME;
	}
	if (!(h.stx_mask & STATX_MTIME)) {
		sx->stx_mask &= ~STATX_MTIME;
		sx->stx_mtime = (struct statx_timestamp){ 0 };
	}
	if (!(h.stx_mask & STATX_CTIME)) {
		sx->stx_mask &= ~STATX_CTIME;
		sx->stx_ctime = (struct statx_timestamp){ 0 };
	}
	sx->stx_attributes |= h.stx_attributes & ~(uint64_t)STATX_ATTR_MOUNT_ROOT;
	sx->stx_attributes_mask |= h.stx_attributes_mask & ~(uint64_t)STATX_ATTR_MOUNT_ROOT;
}

/* ->permission: uvfs's rules, on the mode and owner the host has now. */
static int hostfs_permission(const struct cred *cred, struct inode *inode, int mask)
{
	int err;

	if (mask & MAY_NOT_BLOCK)
		return -ECHILD;
	err = refresh(inode);
	return err ? err : generic_permission(cred, inode, mask);
}

/* ->revalidate: does (parent, name) on the host still name the object this dentry
 * has?  (A root is its mount's source, held open: always valid.) */
static int hostfs_revalidate(struct dentry *dentry, unsigned int flags)
{
	struct inode *inode = dentry->d_inode;
	struct hostfs_sb *s = HSB(d_sb(dentry));
	struct hostfs_inode *dir;
	struct stat st;
	uint32_t gen;

	if (flags & LOOKUP_RCU)
		return -ECHILD;
	lru_touch(s, dentry);
	if (!inode) {
		/* a cached miss: still missing while the directory had no name event
		 * (or the host never changes); else looked up again */
		dir = HI(dentry->d_parent->d_inode);
		if (s->reval == HOST_REVAL_NEVER)
			return 1;
		drain(d_sb(dentry));
		return dir->wd >= 0 && dentry->d_offset &&
		       s->lru[dentry->d_offset].names_seen == dir->names_gen;
	}
	if (IS_ROOT(dentry))
		return refresh(inode) ? 0 : 1;
	dir = HI(dentry->d_parent->d_inode);
	switch (s->reval) {
	case HOST_REVAL_NEVER:
		return 1;
	case HOST_REVAL_TIMEOUT:
		if (attrs_fresh(inode))
			return 1;
		break;
	default:
		/* no name event in the directory since the name was checked: still the
		 * same object (the attributes as their own events say) */
		drain(inode->i_sb);
		if (dir->wd >= 0 && dentry->d_offset &&
		    s->lru[dentry->d_offset].names_seen == dir->names_gen)
			return refresh(inode) ? 0 : 1;
	}
	gen = dir->names_gen;
	STAT_ADD(inode->i_sb->s_fs->stats.revalidations, 1);
	if (fstatat(dir->fd, dname(dentry), &st, AT_SYMLINK_NOFOLLOW) ||
	    st.st_ino != HI(inode)->h_ino || st.st_dev != HI(inode)->h_dev) {
		STAT_ADD(inode->i_sb->s_fs->stats.stale, 1);
		return 0;
	}
	copy_attr(inode, &st);
	if (dentry->d_offset)
		s->lru[dentry->d_offset].names_seen = gen;
	return 1;
}

/* ---------------------------------------------------------------------------------
 * The LRU of cached dentries, and the shrinker that bounds it
 */

static void lru_unlink(struct hostfs_sb *s, uint32_t i)
{
	s->lru[s->lru[i].prev].next = s->lru[i].next;
	s->lru[s->lru[i].next].prev = s->lru[i].prev;
}

static void lru_link_first(struct hostfs_sb *s, uint32_t i)
{
	s->lru[i].prev = 0;
	s->lru[i].next = s->lru[0].next;
	s->lru[s->lru[0].next].prev = i;
	s->lru[0].next = i;
}

/* A free slot, allocated before the lookup changes anything: 0 on ENOMEM. */
static uint32_t lru_reserve(struct hostfs_sb *s)
{
	if (!s->lru_free) {
		uint32_t n = s->lru_size * 2;
		struct lru_slot *t;

		if (n <= s->lru_size || n > UINT32_MAX / 2)
			return 0;
		t = realloc(s->lru, n * sizeof(*t));
		if (!t)
			return 0;
		s->lru = t;
		for (uint32_t i = s->lru_size; i < n; i++)
			t[i] = (struct lru_slot){ .next = i + 1 < n ? i + 1 : 0 };
		s->lru_free = s->lru_size;
		s->lru_size = n;
	}
	return s->lru_free;
}

/* d, positive and hashed, takes the reserved slot i, as the newest. */
static void lru_add(struct super_block *sb, struct dentry *d, uint32_t i)
{
	struct hostfs_sb *s = HSB(sb);

	if (d->d_offset) {
		/* a cached miss that a create made positive: it keeps its place */
		lru_touch(s, d);
		s->lru[d->d_offset].names_seen = HI(d->d_parent->d_inode)->names_gen;
		return;
	}
	assert(i && i == s->lru_free && !s->lru[i].d);
	s->lru_free = s->lru[i].next;
	s->lru[i].d = d;
	/* checked now, by the lookup or create that made it */
	s->lru[i].names_seen = HI(d->d_parent->d_inode)->names_gen;
	lru_link_first(s, i);
	d->d_offset = i;
	if (++s->nr_cached > s->max_cached)
		sb->s_fs->shrink_pending = true;
}

static void lru_touch(struct hostfs_sb *s, const struct dentry *d)
{
	if (d->d_offset && s->lru[0].next != d->d_offset) {
		lru_unlink(s, d->d_offset);
		lru_link_first(s, d->d_offset);
	}
}

/* ->d_release: the dentry leaves the cache, evicted or not */
static void hostfs_d_release(struct dentry *d)
{
	struct hostfs_sb *s = HSB(d_sb(d));
	uint32_t i = d->d_offset;

	if (d->d_inode && HI(d->d_inode)->alias == d)
		HI(d->d_inode)->alias = NULL;
	if (!i)
		return;
	lru_unlink(s, i);
	s->lru[i] = (struct lru_slot){ .next = s->lru_free };
	s->lru_free = i;
	s->nr_cached--;
	d->d_offset = 0;
}

/* ->shrink: from the least recently used on, kill dentries nobody references (no
 * descriptor, cwd, child or mount) until the bound holds again; one in use goes to the
 * front (the kernel's LRU does the same with a referenced one).  Killing a leaf may
 * leave its parent unused: later in the list, it is looked at in the same pass. */
static void hostfs_shrink(struct super_block *sb)
{
	struct hostfs_sb *s = HSB(sb);
	uint32_t budget;

	if (s->nr_events || s->events_lost)
		sync_names(sb);
	budget = s->nr_cached;
	while (s->nr_cached > s->max_cached && budget--) {
		uint32_t i = s->lru[0].prev;
		struct dentry *d = s->lru[i].d;

		if (d->d_count || d->d_children.next || d_mountpoint(d)) {
			lru_touch(s, d);
			continue;
		}
		/* d_release forgets the slot; the kill drops the inode's reference, which
		 * closes its host descriptor if it was the last */
		dget(d);
		d_drop(d);
		dput(d);
		STAT_ADD(sb->s_fs->stats.evictions, 1);
	}
}

/* ---------------------------------------------------------------------------------
 * Directory operations
 */

static int hostfs_lookup(struct inode *dir, struct dentry *dentry)
{
	uint32_t slot = lru_reserve(HSB(dir->i_sb));
	struct inode *inode;

	if (dentry->d_name.len > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slot)
		return -ENOMEM;
	inode = host_lookup(dir->i_sb, HI(dir)->fd, dname(dentry));
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	d_add(dentry, inode);
	if (inode && S_ISDIR(inode->i_mode))
		HI(inode)->alias = dentry;
	if (inode) {
		lru_add(dir->i_sb, dentry, slot);
	} else if (!(dir->i_sb->s_flags & SB_NO_NEGATIVE)) {
		/* a miss kept, and checked like a name (hostfs_revalidate) */
		d_flags_set(dentry, DCACHE_OP_REVALIDATE);
		lru_add(dir->i_sb, dentry, slot);
	}
	return 0;
}

/* The host's /proc/self/fd/N of the inode's descriptor, for the calls that have no
 * descriptor form: name gets "N". */
static void proc_name(const struct inode *inode, char name[16])
{
	snprintf(name, 16, "%d", HI(inode)->fd);
}

/*
 * A new object fd (O_PATH, not yet an inode) gets uvfs's owner and mode: the host made
 * it with the embedder's owner and umask.  inode_init_owner(): a set-group-ID
 * directory passes its group on, and its set-group-ID bit to a new directory.  A host
 * that refuses the owner (an embedder without CAP_CHOWN) keeps its own, which stat
 * then shows.
 */
static int set_owner_mode(struct inode *dir, int fd, mode_t mode, uid_t uid, gid_t gid)
{
	char name[16];

	if (dir->i_mode & S_ISGID) {
		gid = dir->i_gid;
		if (S_ISDIR(mode))
			mode |= S_ISGID;
	}
	if (fchownat(fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) && errno != EPERM)
		return host_err();
	if (S_ISLNK(mode))
		return 0;
	snprintf(name, sizeof(name), "%d", fd);
	if (fchmodat(HSB(dir->i_sb)->proc_fd, name, mode & 07777, 0))
		return host_err();
	return 0;
}

/*
 * The common end of a create: name (just made by the host in dir) becomes dentry's
 * inode.  Allocation failed or the host took the new object away: it is removed
 * again, so that a failed call leaves the host directory as it was.
 */
static int instantiate_new(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			   gid_t gid, bool is_dir)
{
	int dirfd = HI(dir)->fd, fd, err;
	uint32_t slot = lru_reserve(HSB(dir->i_sb));
	struct inode *inode;
	struct stat st;

	fd = slot ? openat(dirfd, dname(dentry), O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd < 0) {
		err = slot ? host_err() : -ENOMEM;
		unlinkat(dirfd, dname(dentry), is_dir ? AT_REMOVEDIR : 0);
		return err;
	}
	err = set_owner_mode(dir, fd, mode, uid, gid);
	if (!err && fstat(fd, &st))
		err = host_err();
	if (!err && (st.st_mode & S_IFMT) != (mode & S_IFMT))
		err = -ESTALE;  /* swapped by a host process meanwhile: leave it be */
	if (err) {
		close(fd);
		if (err != -ESTALE)
			unlinkat(dirfd, dname(dentry), is_dir ? AT_REMOVEDIR : 0);
		return err;
	}
	inode = hostfs_iget(dir->i_sb, fd, &st);
	if (IS_ERR(inode)) {
		unlinkat(dirfd, dname(dentry), is_dir ? AT_REMOVEDIR : 0);
		return (int)PTR_ERR(inode);
	}
	d_instantiate(dentry, inode);
	if (S_ISDIR(inode->i_mode))
		HI(inode)->alias = dentry;
	lru_add(dir->i_sb, dentry, slot);
	return force_refresh(dir);
}

static int hostfs_create(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev,
			 uid_t uid, gid_t gid)
{
	int dirfd = HI(dir)->fd;

	if (S_ISREG(mode)) {
		int fd = openat(dirfd, dname(dentry), O_CREAT | O_EXCL | O_RDONLY | O_NOFOLLOW |
				O_CLOEXEC, 0);

		if (fd < 0)
			return host_err();
		close(fd);
	} else if (mknodat(dirfd, dname(dentry), (mode & S_IFMT), rdev)) {
		return host_err();
	}
	return instantiate_new(dir, dentry, mode, uid, gid, false);
}

/* uvfs_unix_bind(): the embedder binds its socket in the host directory under the
 * name, so that the host's programs see a socket file there and may connect to it;
 * the file it made becomes the inode (owner and mode set as for any new file) */
static int hostfs_mksock(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			 gid_t gid, int (*bind)(void *arg, int host_dirfd, const char *name),
			 void *arg)
{
	int fd;

	if (!bind)
		return hostfs_create(dir, dentry, mode, 0, uid, gid);
	fd = bind(arg, HI(dir)->fd, dname(dentry));
	if (fd < 0)
		return fd;
	close(fd);
	return instantiate_new(dir, dentry, mode, uid, gid, false);
}

/* the kernel's socket is the host file's: connect through it */
static int hostfs_sock_fd(struct inode *inode)
{
	int fd = fcntl(HI(inode)->fd, F_DUPFD_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

static int hostfs_mkdir(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			gid_t gid)
{
	if (mkdirat(HI(dir)->fd, dname(dentry), 0))
		return host_err();
	return instantiate_new(dir, dentry, S_IFDIR | mode, uid, gid, true);
}

static int hostfs_symlink(struct inode *dir, struct dentry *dentry, const char *target,
			  uid_t uid, gid_t gid)
{
	if (symlinkat(target, HI(dir)->fd, dname(dentry)))
		return host_err();
	return instantiate_new(dir, dentry, S_IFLNK | 0777, uid, gid, false);
}

static int hostfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old->d_inode;
	uint32_t slot = lru_reserve(HSB(dir->i_sb));
	char name[16];

	if (!slot)
		return -ENOMEM;
	/* through the object's own descriptor: AT_EMPTY_PATH wants CAP_DAC_READ_SEARCH,
	 * /proc/self/fd/N with AT_SYMLINK_FOLLOW does not */
	if (linkat(HI(inode)->fd, "", HI(dir)->fd, dname(dentry), AT_EMPTY_PATH)) {
		if (errno != ENOENT && errno != EPERM)
			return host_err();
		proc_name(inode, name);
		if (linkat(HSB(dir->i_sb)->proc_fd, name, HI(dir)->fd, dname(dentry),
			   AT_SYMLINK_FOLLOW))
			return host_err();
	}
	force_refresh(inode);
	force_refresh(dir);
	d_instantiate(dentry, igrab(inode));
	lru_add(dir->i_sb, dentry, slot);
	return 0;
}

/* After a name went: the inode's link count and the directory's times are the
 * host's; the dentry is unhashed (d_delete) for whoever still holds it. */
static void gone(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	force_refresh(inode);
	force_refresh(dir);
	d_delete(dentry);
}

static int hostfs_unlink(struct inode *dir, struct dentry *dentry)
{
	if (unlinkat(HI(dir)->fd, dname(dentry), 0))
		return host_err();
	gone(dir, dentry);
	return 0;
}

static int stub_rmdir(struct inode *dir, struct dentry *dentry);

static int hostfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (is_stub(dentry->d_inode))
		return stub_rmdir(dir, dentry);
	if (holds_stubs(dentry))
		return -ENOTEMPTY;
	if (unlinkat(HI(dir)->fd, dname(dentry), AT_REMOVEDIR))
		return host_err();
	gone(dir, dentry);
	return 0;
}

/* renameat2() as the host's filesystem takes it (its errno where it refuses a flag);
 * the VFS moves the dentries after. */
static int hostfs_rename(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
			 struct dentry *new, unsigned int flags)
{
	struct inode *victim = new->d_inode;

	/* a stub has no host object to rename or replace, nor a host directory to take
	 * a name (EPERM, as in a stub: no ->rename); a directory holding stubs is not
	 * empty */
	if (is_stub(new_dir) || is_stub(old->d_inode) || (victim && is_stub(victim)))
		return -EPERM;
	if (victim && !(flags & RENAME_EXCHANGE) && S_ISDIR(victim->i_mode) && holds_stubs(new))
		return -ENOTEMPTY;
	if (syscall(SYS_renameat2, HI(old_dir)->fd, dname(old), HI(new_dir)->fd, dname(new),
		    flags))
		return host_err();
	if (flags & RENAME_WHITEOUT) {
		/* shmem_whiteout(): the whiteout belongs to the renaming task, as any new
		 * object (inode_init_owner()); the host made it the embedder's */
		int fd = openat(HI(old_dir)->fd, dname(old), O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		if (fd >= 0) {
			if (!fstat(fd, &st) && S_ISCHR(st.st_mode) && st.st_rdev == 0)
				set_owner_mode(old_dir, fd, S_IFCHR, current_uid(old_dir),
					       current_gid(old_dir));
			close(fd);
		}
	}
	force_refresh(old_dir);
	force_refresh(new_dir);
	force_refresh(old->d_inode);
	if (victim)
		force_refresh(victim);
	return 0;
}

static int hostfs_tmpfile(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			  gid_t gid)
{
	int fd = openat(HI(dir)->fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0);
	struct inode *inode;
	struct stat st;
	int err;

	if (fd < 0)
		return host_err();
	err = set_owner_mode(dir, fd, S_IFREG | mode, uid, gid);
	if (!err && fstat(fd, &st))
		err = host_err();
	if (err) {
		close(fd);
		return err;
	}
	inode = hostfs_iget(dir->i_sb, fd, &st);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	/* d_tmpfile(): no links, named "#<ino>", never hashed */
	d_instantiate(dentry, inode);
	d_set_tmpfile_name(dentry, inode->i_ino);
	return 0;
}

static const char *hostfs_get_link(struct inode *inode)
{
	return inode->i_link;
}

/* truncate and ftruncate: through a descriptor for writing, opened for the call */
static int hostfs_setsize(struct inode *inode, off_t size)
{
	char name[16];
	int fd, err = 0;

	proc_name(inode, name);
	fd = openat(HSB(inode->i_sb)->proc_fd, name, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return host_err();
	if (ftruncate(fd, size))
		err = host_err();
	close(fd);
	force_refresh(inode);
	return err;
}

/* chown, chmod, utimensat on the host, after uvfs's checks (notify_change) */
static int hostfs_setattr_commit(struct inode *inode, const struct iattr *attr)
{
	unsigned int valid = attr->ia_valid;
	int fd = HI(inode)->fd, proc_fd = HSB(inode->i_sb)->proc_fd;
	char name[16];
	int err = 0;

	proc_name(inode, name);
	/* chown_common(): a chown goes through notify_change() even when it changes
	 * no id (-1, -1: ATTR_CTIME alone, which no other call sends), and the host's
	 * filesystem stamps the ctime then (tmpfs and ext4 alike, asked on 6.18) */
	if (((valid & (ATTR_UID | ATTR_GID)) ||
	     !(valid & ~(ATTR_CTIME | ATTR_KILL_SUID | ATTR_KILL_SGID | ATTR_FORCE))) &&
	    fchownat(fd, "", valid & ATTR_UID ? attr->ia_uid : (uid_t)-1,
		     valid & ATTR_GID ? attr->ia_gid : (gid_t)-1, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		err = host_err();
	/* a symlink's mode never changes (the VFS refuses before) */
	if (!err && (valid & ATTR_MODE) && !S_ISLNK(inode->i_mode) &&
	    fchmodat(proc_fd, name, attr->ia_mode, 0))
		err = host_err();
	/* /proc/self/fd/N is followed to the object itself, a symlink included */
	if (!err && (valid & (ATTR_TIMES_SET | ATTR_TOUCH)) &&
	    utimensat(proc_fd, name, attr->ia_times, 0))
		err = host_err();
	force_refresh(inode);
	return err;
}

/*
 * The host file's extended attributes, through /proc/self/fd/N (followed to the
 * object itself, a symlink included; the O_PATH descriptor has no f*xattr form): the
 * host kernel's answer with the embedder's rights, after uvfs's checks with the
 * program's (src/xattr.c).  The list leaves out trusted.* for a caller without
 * CAP_SYS_ADMIN, which an embedder that has it would see.
 */
static void xattr_path(const struct inode *inode, char path[32])
{
	snprintf(path, 32, "/proc/self/fd/%d", HI(inode)->fd);
}

static ssize_t hostfs_xattr_get(struct inode *inode, const char *name, void *value, size_t size)
{
	char path[32];
	ssize_t ret;

	xattr_path(inode, path);
	ret = getxattr(path, name, value, size);
	return ret < 0 ? host_err() : ret;
}

static int hostfs_xattr_set(struct inode *inode, const char *name, const void *value,
			    size_t size, int flags)
{
	char path[32];
	int err;

	xattr_path(inode, path);
	err = value ? setxattr(path, name, value, size, flags) : removexattr(path, name);
	err = err ? host_err() : 0;
	force_refresh(inode);  /* the ctime the host stamped */
	return err;
}

static ssize_t hostfs_xattr_list(struct inode *inode, bool trusted, char *list, size_t size)
{
	char path[32], *all;
	ssize_t n, len = 0;

	xattr_path(inode, path);
	n = listxattr(path, NULL, 0);
	if (n <= 0)
		return n < 0 ? host_err() : 0;
	all = malloc((size_t)n);
	if (!all)
		return -ENOMEM;
	n = listxattr(path, all, (size_t)n);
	if (n < 0)
		n = host_err();  /* ERANGE: it grew meanwhile, as the kernel's own race */
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(all + i) + 1) {
		size_t l = strlen(all + i) + 1;

		if (!trusted && !strncmp(all + i, "trusted.", 8))
			continue;
		if (size && (size_t)len + l > size) {
			len = -ERANGE;
			break;
		}
		if (size)
			memcpy(list + len, all + i, l);
		len += (ssize_t)l;
	}
	free(all);
	return n < 0 ? n : len;
}

static const struct file_operations hostfs_dir_fops, hostfs_file_fops;

static int hostfs_host_fd(const struct inode *inode)
{
	return HI(inode)->fd;
}

#define HOSTFS_COMMON_IOPS \
	.getattr = hostfs_getattr, .permission = hostfs_permission, \
	.revalidate = hostfs_revalidate, .setattr_commit = hostfs_setattr_commit, \
	.host_fd = hostfs_host_fd, .xattr_get = hostfs_xattr_get, \
	.xattr_set = hostfs_xattr_set, .xattr_list = hostfs_xattr_list

static const struct inode_operations hostfs_dir_iops = {
	.lookup = hostfs_lookup,
	.create = hostfs_create,
	.mksock = hostfs_mksock,
	.mkdir = hostfs_mkdir,
	.symlink = hostfs_symlink,
	.link = hostfs_link,
	.unlink = hostfs_unlink,
	.rmdir = hostfs_rmdir,
	.rename = hostfs_rename,
	.tmpfile = hostfs_tmpfile,
	.mkstub = hostfs_mkstub,
	.fop = &hostfs_dir_fops,
	HOSTFS_COMMON_IOPS,
};

static const struct inode_operations hostfs_file_iops = {
	.setsize = hostfs_setsize,
	.fop = &hostfs_file_fops,
	HOSTFS_COMMON_IOPS,
};

static const struct inode_operations hostfs_link_iops = {
	.get_link = hostfs_get_link,
	HOSTFS_COMMON_IOPS,
};

/* Devices and sockets open as on memfs (ENXIO); a fifo is a uvfs pipe between uvfs's
 * tasks, not the host's (docs/SEMANTICS.md). */
static const struct inode_operations hostfs_special_iops = { HOSTFS_COMMON_IOPS };
static const struct inode_operations hostfs_sock_iops = {
	.sock_fd = hostfs_sock_fd, HOSTFS_COMMON_IOPS
};
static const struct inode_operations hostfs_fifo_iops = {
	.fop = &pipe_fops, .standin = fifo_standin, HOSTFS_COMMON_IOPS
};

/* ---------------------------------------------------------------------------------
 * Stubs (uvfs_mount2_mkdirs): directories the host does not have
 */

/* ->mkstub, in a host directory or a stub: an empty directory of uvfs's alone.  Its
 * inode number counts down from 2^32 - 1, away from the host's (a tree walker
 * comparing (st_dev, st_ino) would take a stub for the host directory of the same
 * number). */
static int hostfs_mkstub(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			 gid_t gid)
{
	struct hostfs_sb *s = HSB(dir->i_sb);
	struct inode *inode;

	if (dentry->d_name.len > NAME_MAX)
		return -ENAMETOOLONG;
	inode = new_inode(dir->i_sb, S_IFDIR);
	if (!inode)
		return -ENOMEM;
	HI(inode)->fd = -1;
	HI(inode)->wd = -1;
	inode->i_ino = --s->stub_ino;
	HI(inode)->h_ino = inode->i_ino;
	inode->i_op = &stub_iops;
	inode->i_mode = (uint16_t)(S_IFDIR | (mode & 07777));
	inode->i_uid = uid;
	inode->i_gid = gid;
	inc_nlink(inode);  /* "." */
	/* the miss it was is no longer checked against the host (hostfs_lookup), nor
	 * kept in the LRU: it is made positive with nothing to revalidate */
	d_flags_clear(dentry, DCACHE_OP_REVALIDATE);
	hostfs_d_release(dentry);
	d_instantiate(dentry, inode);
	HI(inode)->alias = dentry;
	return 0;
}

/* ->lookup in a stub: what it has is in the dcache (its stubs), so a miss is a miss
 * for good -- kept without revalidation, in the LRU as hostfs_lookup() keeps one */
static int stub_lookup(struct inode *dir, struct dentry *dentry)
{
	uint32_t slot;

	if (dentry->d_name.len > NAME_MAX)
		return -ENAMETOOLONG;
	slot = lru_reserve(HSB(dir->i_sb));
	if (!slot)
		return -ENOMEM;
	d_add(dentry, NULL);
	if (!(dir->i_sb->s_flags & SB_NO_NEGATIVE))
		lru_add(dir->i_sb, dentry, slot);
	return 0;
}

/* ->rmdir of a stub (the VFS refused a mount point, EBUSY): empty unless a stub below
 * it is still held */
static int stub_rmdir(struct inode *dir, struct dentry *dentry)
{
	(void)dir;
	if (holds_stubs(dentry))
		return -ENOTEMPTY;
	clear_nlink(dentry->d_inode);
	d_delete(dentry);
	return 0;
}

/* A stub's position in its directory's listing: its rank in the order stubs were
 * made, from 2 (after "." and ".."), which a removal or a new stub does not change */
static off_t stub_pos(const struct inode *inode)
{
	return 2 + (off_t)(UINT32_MAX - inode->i_ino);
}

/* dcache_readdir()'s listing: ".", "..", then the stubs it holds, oldest first; f_pos
 * the next one's stub_pos(), so a listing resumed after a removal or a new stub
 * neither skips nor repeats one (the kernel keeps a cursor in the list for that) */
static ssize_t stub_iterate(struct file *f, void *buf, size_t count)
{
	struct dentry *dir = f->f_path.dentry;
	size_t used = 0;

	if (f->f_pos == 0) {
		if (!dir_emit(buf, count, &used, ".", 1, HI(dir->d_inode)->h_ino, 1, DT_DIR))
			return -EINVAL;
		f->f_pos = 1;
	}
	if (f->f_pos == 1) {
		if (!dir_emit(buf, count, &used, "..", 2, HI(dir->d_parent->d_inode)->h_ino, 2,
			      DT_DIR))
			return used ? (ssize_t)used : -EINVAL;
		f->f_pos = 2;
	}
	for (;;) {
		const struct dentry *next = NULL;

		for (struct cds_hlist_node *n = dir->d_children.next; n; n = n->next) {
			const struct dentry *c = cds_hlist_entry(n, struct dentry, d_sib);

			if (!d_unhashed(c) && c->d_inode && stub_pos(c->d_inode) >= f->f_pos &&
			    (!next || stub_pos(c->d_inode) < stub_pos(next->d_inode)))
				next = c;
		}
		if (!next)
			break;
		if (!dir_emit(buf, count, &used, (const char *)next->d_name.name, next->d_name.len,
			      next->d_inode->i_ino, stub_pos(next->d_inode) + 1, DT_DIR))
			return used ? (ssize_t)used : -EINVAL;
		f->f_pos = stub_pos(next->d_inode) + 1;
	}
	return (ssize_t)used;
}

static const struct file_operations stub_dir_fops = {
	.iterate = stub_iterate,
	.fop_flags = FOP_FSYNC,
};

/* No ->getattr, ->permission, ->revalidate, ->host_fd: the inode's own fields, uvfs's
 * rules, never stale, no host object.  No ->create, ->mkdir...: nothing is made in a
 * stub (EACCES, EPERM as the VFS gives for a filesystem without them). */
static const struct inode_operations stub_iops = {
	.lookup = stub_lookup,
	.mkstub = hostfs_mkstub,
	.rmdir = stub_rmdir,
	.fop = &stub_dir_fops,
};

/* ---------------------------------------------------------------------------------
 * File operations: a host descriptor per open file, reopened from the inode's
 */

static int hostfs_open(struct inode *inode, struct file *f)
{
	char name[16];
	int flags = O_CLOEXEC | O_NOCTTY, fd;

	/* the access mode and how data is written; O_APPEND, O_TRUNC and the position
	 * are uvfs's */
	if (S_ISDIR(inode->i_mode))
		flags |= O_RDONLY | O_DIRECTORY;
	else
		flags |= (int)(f->f_flags & (O_ACCMODE | O_DIRECT | O_SYNC | O_DSYNC));
	proc_name(inode, name);
	/* Through a read-only mount nothing of the host file changes, its access time
	 * neither (touch_atime() skips a read-only mount): the host's descriptor reads
	 * without touching it, where the embedder may (owner or CAP_FOWNER) */
	if (f->f_path.mnt && mnt_is_readonly(f->f_path.mnt) &&
	    (fd = openat(HSB(inode->i_sb)->proc_fd, name, flags | O_NOATIME)) >= 0)
		goto out;
	fd = openat(HSB(inode->i_sb)->proc_fd, name, flags);
	if (fd < 0)
		return host_err();
out:
	f->private_data = (void *)(intptr_t)(fd + 1);
	return 0;
}

static void hostfs_release(struct inode *inode, struct file *f)
{
	(void)inode;
	if (f->private_data) {
		close(hfd(f));
		f->private_data = NULL;
	}
}

static ssize_t hostfs_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	ssize_t n = pread(hfd(f), buf, count, *pos);

	if (n < 0)
		return host_err();
	*pos += n;
	return n;
}

static ssize_t hostfs_write(struct file *f, const void *buf, size_t count, off_t *pos)
{
	struct inode *inode = f->f_inode;
	ssize_t n;

	int fd = hfd(f), fl = fcntl(fd, F_GETFL);
	bool append = (f->f_flags & O_APPEND) && count;

	/* O_APPEND (set at open or by F_SETFL): the host's own append, at its end of
	 * file and with its errors (EFBIG at 2^63 - 1, where a pwrite there is EINVAL:
	 * uvfs-difftest --uvfs-host, seed 77025983); a descriptor without it must not
	 * append (a host pwrite on an O_APPEND descriptor does) */
	if (fl >= 0 && !!(fl & O_APPEND) != append)
		fcntl(fd, F_SETFL, append ? fl | O_APPEND : fl & ~O_APPEND);
	if (append) {
		n = write(fd, buf, count);
		if (n < 0)
			return host_err();
		*pos = lseek(fd, 0, SEEK_CUR);
	} else {
		n = pwrite(fd, buf, count, *pos);
		if (n < 0)
			return host_err();
		*pos += n;
	}
	/* what was written extends the file (an empty write at any offset does not:
	 * uvfs-difftest --uvfs-host, seed 73018767) */
	if (n > 0 && *pos > inode->i_size)
		inode->i_size = *pos;
	/* size, blocks and times as the host has them now: a watched inode hears of its
	 * write (IN_MODIFY); under never and timeout= it is read back, as after any
	 * change made through uvfs (uvfs-difftest --uvfs-host-opts never, seed 74000001) */
	if (n > 0 && (HSB(inode->i_sb)->reval != HOST_REVAL_ALWAYS || HI(inode)->wd < 0))
		force_refresh(inode);
	return n;
}

/* the host's llseek on the host's descriptor, from uvfs's position */
static off_t hostfs_llseek(struct file *f, off_t offset, int whence)
{
	int fd = hfd(f);
	off_t pos;

	if (lseek(fd, f->f_pos, SEEK_SET) < 0)
		return host_err();
	pos = lseek(fd, offset, whence);
	if (pos < 0)
		return host_err();
	f->f_pos = pos;
	return pos;
}

static int hostfs_fsync(struct file *f, bool datasync)
{
	if ((datasync ? fdatasync(hfd(f)) : fsync(hfd(f))))
		return host_err();
	return 0;
}

/* getdents64 of the host directory from uvfs's position: the records are already in
 * the format uvfs gives (linux_dirent64), d_off is the host's */
static ssize_t hostfs_iterate(struct file *f, void *buf, size_t count)
{
	int fd = hfd(f);
	ssize_t n;

	if (lseek(fd, f->f_pos, SEEK_SET) < 0)
		return host_err();
	n = syscall(SYS_getdents64, fd, buf, count);
	if (n < 0)
		return host_err();
	f->f_pos = lseek(fd, 0, SEEK_CUR);
	return n;
}

static const struct file_operations hostfs_dir_fops = {
	.open = hostfs_open,
	.release = hostfs_release,
	.iterate = hostfs_iterate,
	.llseek = hostfs_llseek,
	.fsync = hostfs_fsync,
};

/* the host's fallocate on the host's descriptor; size, blocks and times read back */
static int hostfs_fallocate(struct file *f, int mode, off_t offset, off_t len)
{
	int err = fallocate(hfd(f), mode, offset, len) ? host_err() : 0;

	if (!err)
		force_refresh(f->f_inode);
	return err;
}

static const struct file_operations hostfs_file_fops = {
	.open = hostfs_open,
	.release = hostfs_release,
	.read = hostfs_read,
	.write = hostfs_write,
	.llseek = hostfs_llseek,
	.fsync = hostfs_fsync,
	.fallocate = hostfs_fallocate,
	.fop_flags = FOP_ODIRECT,
};

/* ---------------------------------------------------------------------------------
 * The superblock
 */

static void hostfs_put_super(struct super_block *sb)
{
	struct hostfs_sb *s = HSB(sb);

	if (!s)
		return;
	if (s->root_fd >= 0)
		close(s->root_fd);
	if (s->proc_fd >= 0)
		close(s->proc_fd);
	if (s->ifd >= 0)
		close(s->ifd);
	for (size_t i = 0; i < s->nr_events; i++)
		free(s->events[i].name);
	free(s->events);
	for (size_t i = 0; i < s->nr_subdevs; i++)
		ida_free(&sb->s_fs->anon_devs, (int)minor(s->subdevs[i].dev));
	free(s->subdevs);
	free(s->hash);
	free(s->wds);
	free(s->lru);
	free(s);
}

/*
 * ->set_readonly: the host's copy of the source (open_tree()'s, a mount of no
 * namespace, with those below it for "recursive") made read-only, or writable again,
 * with the superblock.  uvfs refuses every change on a read-only superblock before
 * the host hears of it, but the kernel answers some calls on a uvfs-run program's
 * own descriptors of host files without asking uvfs -- an fchmod of a number another
 * thread has just given such a file -- and those must find the host's mount
 * read-only too, or a read-only mount's file changes on the host (the review's race:
 * a --ro-bind file made 0777).  Where the source could not be copied (no
 * CAP_SYS_ADMIN: the embedder's own rights are the bound) or mount_setattr() is
 * missing (Linux < 5.12), nothing is done and uvfs's checks alone hold.  Made
 * writable again, a recursive copy is made so whole: a host mount below the source
 * that the host had read-only is writable in the copy from then on (its superblock's
 * own read-only state still holds) -- a remount of uvfs-run's root read-write is
 * root's to make, and its writes reach the host then anyway.
 */
static int hostfs_set_readonly(struct super_block *sb, bool ro)
{
	struct { uint64_t set, clr, propagation, userns_fd; } attr = {
		.set = ro ? 0x1 : 0, .clr = ro ? 0 : 0x1,  /* MOUNT_ATTR_RDONLY */
	};
	const struct hostfs_sb *s = HSB(sb);

	if (!s->clone)
		return 0;
	if (syscall(SYS_mount_setattr, s->root_fd, "", AT_EMPTY_PATH |
		    (s->recursive ? AT_RECURSIVE : 0), &attr, sizeof(attr)) &&
	    errno != ENOSYS)
		return host_err();
	return 0;
}

/* the numbers of the host filesystem the dentry's file is on -- a recursive mount's
 * inode below a host mount point is on that mount's filesystem (/sys: sysfs), not
 * the root's; the flags are the mount's (vfs_statfs) */
static void hostfs_statfs(const struct dentry *d, struct statfs *buf)
{
	const struct inode *inode;
	struct statfs h;

	/* a stub's are those of the host directory it is below */
	while (d->d_inode && is_stub(d->d_inode) && !IS_ROOT(d))
		d = d->d_parent;
	inode = d->d_inode;
	if (fstatfs(inode ? HI(inode)->fd : HSB(d_sb(d))->root_fd, &h))
		return;
	buf->f_type = h.f_type;
	buf->f_bsize = h.f_bsize;
	buf->f_blocks = h.f_blocks;
	buf->f_bfree = h.f_bfree;
	buf->f_bavail = h.f_bavail;
	buf->f_files = h.f_files;
	buf->f_ffree = h.f_ffree;
	buf->f_fsid = h.f_fsid;
	buf->f_namelen = h.f_namelen;
	buf->f_frsize = h.f_frsize;
}

static void hostfs_show_options(FILE *m, const struct super_block *sb)
{
	const struct hostfs_sb *s = HSB(sb);

	if (s->recursive)
		fputs(",recursive", m);
	if (s->reval == HOST_REVAL_NEVER)
		fputs(",never", m);
	else if (s->reval == HOST_REVAL_TIMEOUT)
		fprintf(m, ",timeout=%u", s->timeout);
}

static const struct super_operations hostfs_sops = {
	.inode_size = sizeof(struct hostfs_inode),
	.evict_inode = hostfs_evict_inode,
	.free_inode = hostfs_free_inode,
	.put_super = hostfs_put_super,
	.set_readonly = hostfs_set_readonly,
	.drop_inode = hostfs_drop_inode,
	.d_release = hostfs_d_release,
	.shrink = hostfs_shrink,
	.sync_paths = sync_names,
	.statfs = hostfs_statfs,
	.show_options = hostfs_show_options,
	.statx = hostfs_statx,
};

/*
 * Every cached inode holds a host descriptor: the bound stays below what the process
 * may open.  RLIMIT_NOFILE is raised to make room for the bound and a third more
 * (both limits, which CAP_SYS_RESOURCE allows up to fs.nr_open), or else the soft
 * limit to the hard one (most systems' soft 1024 against a hard limit of 2^20 or so;
 * programs that use select() are not uvfs's concern); a quarter of it is left for
 * everything else.
 */
static uint64_t cache_bound(uint64_t wanted)
{
	rlim_t want = wanted > (uint64_t)RLIM_INFINITY / 2 ? RLIM_INFINITY : (rlim_t)(wanted + wanted / 3 + 1024);
	struct rlimit r;
	uint64_t room;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return wanted;
	if (r.rlim_cur < want) {
		struct rlimit more = { want, r.rlim_max > want ? r.rlim_max : want };

		if (setrlimit(RLIMIT_NOFILE, &more) && r.rlim_cur < r.rlim_max) {
			r.rlim_cur = r.rlim_max;
			setrlimit(RLIMIT_NOFILE, &r);
		}
		getrlimit(RLIMIT_NOFILE, &r);
	}
	room = r.rlim_cur == RLIM_INFINITY ? UINT64_MAX : r.rlim_cur - r.rlim_cur / 4;
	return wanted < room ? wanted : room;
}

static int hostfs_fill_super(struct super_block *sb, const struct fs_mount_opts *opts)
{
	const char *host = opts->seen & FS_OPT_HOST ? opts->host_path : opts->source;
	struct hostfs_sb *s;
	struct inode *root;
	struct stat st;
	int fd;

	/* get_tree_bdev()'s "No source specified" */
	if (!opts->source || !opts->source[0])
		return -EINVAL;
	s = uvfs_zalloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->root_fd = s->proc_fd = s->ifd = -1;
	sb->s_fs_info = s;
	sb->s_op = &hostfs_sops;
	sb->s_flags = 0;
	s->reval = opts->reval;
	s->timeout = opts->reval_timeout;
	s->recursive = opts->seen & FS_OPT_RECURSIVE;
	s->hash_mask = 63;
	s->hash = uvfs_zalloc((s->hash_mask + 1) * sizeof(*s->hash));
	s->wd_mask = 255;
	s->wds = uvfs_zalloc((s->wd_mask + 1) * sizeof(*s->wds));
	s->lru_size = 64;
	s->lru = uvfs_malloc(s->lru_size * sizeof(*s->lru));
	if (!s->hash || !s->wds || !s->lru)
		return -ENOMEM;
	s->lru[0] = (struct lru_slot){ 0 };
	for (uint32_t i = 1; i < s->lru_size; i++)
		s->lru[i] = (struct lru_slot){ .next = i + 1 < s->lru_size ? i + 1 : 0 };
	s->lru_free = 1;
	s->max_cached = cache_bound(sb->s_fs->max_host_dentries);
	/* without the host's procfs nothing found could be opened: say so at mount */
	s->proc_fd = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->proc_fd < 0)
		return host_err();
	/* without inotify (fs.inotify.max_user_instances reached), "always" asks the host
	 * at every check */
	if (s->reval == HOST_REVAL_ALWAYS)
		s->ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	/* misses are kept where they can be checked cheaply (a directory's name events)
	 * or need never be: not under timeout=, nor always without inotify */
	if (s->reval == HOST_REVAL_TIMEOUT || (s->reval == HOST_REVAL_ALWAYS && s->ifd < 0))
		sb->s_flags |= SB_NO_NEGATIVE;
	/* the source is the embedder's path, resolved by the host once, here -- as
	 * mount --bind sees it: a detached copy of the source's mount alone
	 * (open_tree(OPEN_TREE_CLONE)), so that what the host has mounted below it is not
	 * crossed but shows the directory beneath, unless "recursive" asks for them
	 * (--rbind: AT_RECURSIVE).  Without CAP_SYS_ADMIN on the host, the source as the
	 * embedder's namespace shows it, the mounts below included; likewise a source in
	 * another mount namespace, which open_tree() does not copy (EINVAL: uvfs-run's
	 * /proc/sys and /dev, from the program's namespace through /proc/PID/root). */
	s->root_fd = (int)syscall(SYS_open_tree, AT_FDCWD, host, OPEN_TREE_CLONE |
				  OPEN_TREE_CLOEXEC | (opts->seen & FS_OPT_RECURSIVE ? AT_RECURSIVE : 0));
	s->clone = s->root_fd >= 0;
	if (s->root_fd < 0 && (errno == EPERM || errno == ENOSYS || errno == EINVAL))
		s->root_fd = open(host, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->root_fd < 0)
		return host_err();
	fd = fcntl(s->root_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return host_err();
	if (fstat(fd, &st) || !S_ISDIR(st.st_mode)) {
		int err = S_ISDIR(st.st_mode) ? host_err() : -ENOTDIR;  /* open_tree takes files */

		close(fd);
		return err;
	}
	s->root_hdev = st.st_dev;
	root = hostfs_iget(sb, fd, &st);
	if (IS_ERR(root))
		return (int)PTR_ERR(root);
	sb->s_root = d_alloc_root(sb, root);
	if (!sb->s_root) {
		iput(root);
		return -ENOMEM;
	}
	HI(root)->alias = sb->s_root;
	return 0;
}

/* always | never | timeout=SECONDS | recursive | host=PATH */
static int hostfs_parse_param(struct fs_mount_opts *opts, const char *key, const char *value)
{
	if (!strcmp(key, "host")) {
		/* the host's own path, which may differ per run (uvfs-run's
		 * /proc/PID/root/dev): never shown, so mountinfo says only the source */
		if (!value || !*value || strlen(value) >= sizeof(opts->host_path))
			return -EINVAL;
		strcpy(opts->host_path, value);
		opts->seen |= FS_OPT_HOST;
		return 0;
	}
	if (!strcmp(key, "recursive")) {
		if (value)
			return -EINVAL;
		opts->seen |= FS_OPT_RECURSIVE;
		return 0;
	}
	if (!strcmp(key, "always") || !strcmp(key, "never")) {
		if (value)
			return -EINVAL;
		opts->reval = key[0] == 'a' ? HOST_REVAL_ALWAYS : HOST_REVAL_NEVER;
	} else if (!strcmp(key, "timeout")) {
		char *end;
		unsigned long t;

		if (!value || !*value || *value == '-')
			return -EINVAL;
		errno = 0;
		t = strtoul(value, &end, 10);
		if (*end || errno || t > UINT32_MAX)
			return -EINVAL;
		opts->reval = HOST_REVAL_TIMEOUT;
		opts->reval_timeout = (unsigned int)t;
	} else {
		return -ENOPARAM;
	}
	opts->seen |= FS_OPT_REVAL;
	return 0;
}

/*
 * A remount (mount -o remount, fsconfig's FSCONFIG_CMD_RECONFIGURE): what the
 * superblock is a copy of and how it checks the host are fixed when it is made (the
 * detached copy, the inotify instance, the cache's policy), so an option that would
 * change them is EINVAL -- as a filesystem refuses an option it cannot change on a
 * live superblock (shmem_reconfigure()'s "Cannot change global quota limit",
 * huge= or mpol= where they cannot) -- and one that repeats them is taken (libmount
 * passes mountinfo's "recursive" back).  host= is never shown, so never repeated:
 * always EINVAL here.  It was accepted and ignored.
 */
static int hostfs_reconfigure(struct super_block *sb, const struct fs_mount_opts *opts)
{
	const struct hostfs_sb *s = HSB(sb);

	if ((opts->seen & FS_OPT_HOST) || ((opts->seen & FS_OPT_RECURSIVE) && !s->recursive))
		return -EINVAL;
	if ((opts->seen & FS_OPT_REVAL) &&
	    (opts->reval != s->reval ||
	     (s->reval == HOST_REVAL_TIMEOUT && opts->reval_timeout != s->timeout)))
		return -EINVAL;
	return 0;
}

const struct file_system_type hostfs_fs_type = {
	.name = "host", .fill_super = hostfs_fill_super, .parse_param = hostfs_parse_param,
	.reconfigure = hostfs_reconfigure,
};
