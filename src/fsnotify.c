// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fsnotify.c - who hears of a change, in what order, under which name
 * (fs/notify/fsnotify.c: fsnotify(), __fsnotify_parent(); fs/notify/mark.c;
 * fs/notify/notification.c: fsnotify_insert_event(); include/linux/fsnotify.h: the
 * hooks; fs/notify/inotify/inotify_fsnotify.c: inotify's merge and its masks).
 *
 * Locking: ns_lock, like everything else; the hooks are called by its holder, where
 * Linux calls them, so that the order of the events is the kernel's:
 *  - a child's event goes first to its directory's marks with its present name
 *    (__fsnotify_parent()), then to its own marks with none (fsnotify_handle_event());
 *  - an event equal to the last one queued, not yet read, is merged into it
 *    (inotify_merge()); a full queue takes one IN_Q_OVERFLOW and drops the rest;
 *  - FS_IN_ONESHOT destroys the mark after its event; a destroyed mark queues
 *    IN_IGNORED (inotify_freeing_mark()).
 */
#include <assert.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fsnotify.h"
#include "mount.h"

/* ---------------------------------------------------------------------------------
 * The marks, found by inode
 */

static size_t mark_bucket(const struct fsnotify_state *s, const struct inode *inode)
{
	uint64_t h = (uint64_t)(uintptr_t)inode * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (s->buckets - 1);
}

/* Room for one more mark: the table doubles as the count reaches its size */
static int marks_reserve(struct fsnotify_state *s)
{
	struct fsnotify_mark **nh;
	size_t nb, old = s->buckets;

	if (s->nr_marks < s->buckets)
		return 0;
	nb = old ? old * 2 : 64;
	nh = uvfs_zalloc(nb * sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	s->buckets = nb;
	for (size_t i = 0; i < old; i++) {
		struct fsnotify_mark *m = s->hash[i], *next;

		for (; m; m = next) {
			size_t b = mark_bucket(s, m->inode);

			next = m->h_next;
			m->h_next = nh[b];
			nh[b] = m;
		}
	}
	free(s->hash);
	s->hash = nh;
	return 0;
}

struct fsnotify_state *fsnotify_state(struct uvfs *fs)
{
	/* stored atomically: uvfs_dnotify_take() looks without the lock */
	if (!fs->fsn)
		__atomic_store_n(&fs->fsn, uvfs_zalloc(sizeof(*fs->fsn)), __ATOMIC_RELEASE);
	return fs->fsn;
}

struct fsnotify_mark *fsnotify_find_mark(struct fsnotify_group *g, struct inode *inode)
{
	struct fsnotify_state *s = g->fs->fsn;

	if (!fsnotify_watched(inode))
		return NULL;
	for (struct fsnotify_mark *m = s->hash[mark_bucket(s, inode)]; m; m = m->h_next)
		if (m->inode == inode && m->group == g)
			return m;
	return NULL;
}

struct fsnotify_mark *fsnotify_add_mark(struct fsnotify_group *g, struct inode *inode,
					uint32_t mask, int wd)
{
	struct fsnotify_state *s = g->fs->fsn;
	struct fsnotify_mark *m = uvfs_zalloc(sizeof(*m));
	size_t b;

	if (!m || marks_reserve(s)) {
		free(m);
		return NULL;
	}
	m->inode = igrab(inode);
	m->group = g;
	m->mask = mask;
	m->wd = wd;
	b = mark_bucket(s, inode);
	m->h_next = s->hash[b];
	s->hash[b] = m;
	s->nr_marks++;
	m->g_next = g->marks;
	g->marks = m;
	inode->i_state |= I_FSNOTIFY;
	return m;
}

/* Any mark on inode, of any group */
static struct fsnotify_mark *find_any(struct inode *inode)
{
	struct fsnotify_state *s = inode->i_sb->s_fs->fsn;

	if (!fsnotify_watched(inode))
		return NULL;
	for (struct fsnotify_mark *m = s->hash[mark_bucket(s, inode)]; m; m = m->h_next)
		if (m->inode == inode)
			return m;
	return NULL;
}

/* Off the hash and the group's list, its reference dropped */
static void mark_free(struct fsnotify_mark *m)
{
	struct fsnotify_state *s = m->group->fs->fsn;
	struct inode *inode = m->inode;
	struct fsnotify_mark **p;
	bool more = false;

	for (p = &s->hash[mark_bucket(s, inode)]; *p;) {
		if (*p == m) {
			*p = m->h_next;
			continue;
		}
		more |= (*p)->inode == inode;
		p = &(*p)->h_next;
	}
	for (p = &m->group->marks; *p; p = &(*p)->g_next)
		if (*p == m) {
			*p = m->g_next;
			break;
		}
	s->nr_marks--;
	if (!more)
		inode->i_state &= ~I_FSNOTIFY;
	/* dnotify's requests are gone first: each needs an open descriptor of the
	 * directory, whose release (dnotify_release(), in fput) takes it off before
	 * the dentry, hence the inode's last name or its superblock, can go */
	assert(!m->private);
	free(m);
	iput(inode);
}

/* ---------------------------------------------------------------------------------
 * The queue
 */

/* inotify's round_event_name_len(): the name and its NUL, padded to a whole
 * struct inotify_event (16 bytes) */
static uint32_t event_name_len(const struct qstr *name)
{
	return name ? (name->len + 1 + 15) & ~15u : 0;
}

/* inotify_merge()'s event_compare(): the same event as the last one queued */
static bool event_merges(const struct fsnotify_event *old, int wd, uint32_t mask,
			 uint32_t name_len, const struct qstr *name)
{
	if (old->mask & FS_IN_IGNORED)
		return false;
	return old->mask == mask && old->wd == wd && old->name_len == name_len &&
	       (!name_len || (strlen(old->name) == name->len &&
			      !memcmp(old->name, name->name, name->len)));
}

/* The group's eventfd says whether the queue has an event: 1 written as the first
 * comes, read back as the last goes (the counter is never above 1) */
static void pollfd_set(const struct fsnotify_group *g, bool ready)
{
	uint64_t v = 1;

	if (g->pollfd < 0)
		return;
	if (ready) {
		if (write(g->pollfd, &v, sizeof(v)) != sizeof(v))
			return;  /* EAGAIN: already at its maximum, readable */
	} else if (read(g->pollfd, &v, sizeof(v)) != sizeof(v)) {
		return;  /* EAGAIN: already 0 */
	}
}

static void queue_append(struct fsnotify_group *g, struct fsnotify_event *e)
{
	e->next = NULL;
	if (g->last) {
		g->last->next = e;
	} else {
		g->head = e;
		pollfd_set(g, true);
	}
	g->last = e;
	g->q_len++;
	waitq_wake_all(&g->wait);
}

struct fsnotify_event *fsnotify_remove_first(struct fsnotify_group *g)
{
	struct fsnotify_event *e = g->head;

	if (!e)
		return NULL;
	g->head = e->next;
	if (!g->head) {
		g->last = NULL;
		pollfd_set(g, false);
	}
	g->q_len--;
	if (e->mask & FS_Q_OVERFLOW)
		g->overflow_queued = false;
	return e;
}

int fsnotify_group_pollfd(struct fsnotify_group *g)
{
	int fd = eventfd(g->head ? 1 : 0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (fd < 0)
		return -errno;
	g->pollfd = fd;
	return fd;
}

/* fsnotify_insert_event() with inotify_merge(): over the limit (or out of memory:
 * fsnotify_queue_overflow()) one IN_Q_OVERFLOW, of wd -1, stands for what is lost */
static void queue_event(struct fsnotify_group *g, int wd, uint32_t mask, uint32_t cookie,
			const struct qstr *name)
{
	uint32_t name_len = event_name_len(name);
	struct fsnotify_event *e;

	/* inotify_handle_inode_event(): no IN_ISDIR with the self events, as inotify
	 * never gave one; inotify_mask_to_arg(): only the bits a reader knows */
	if (mask & (FS_MOVE_SELF | FS_DELETE_SELF))
		mask &= ~FS_ISDIR;
	mask &= 0xfffu | FS_ISDIR | FS_UNMOUNT | FS_IN_IGNORED | FS_Q_OVERFLOW;
	if (g->q_len >= g->max_events)
		goto overflow;
	if (g->last && event_merges(g->last, wd, mask, name_len, name))
		return;
	e = uvfs_malloc(sizeof(*e) + name_len);
	if (!e)
		goto overflow;
	e->wd = wd;
	e->mask = mask;
	e->cookie = cookie;
	e->name_len = name_len;
	if (name_len) {
		memset(e->name, 0, name_len);
		memcpy(e->name, name->name, name->len);
	}
	queue_append(g, e);
	return;
overflow:
	if (g->overflow_queued)
		return;
	/* preallocated by the kernel (group->overflow_event): if even this small
	 * allocation fails the event is lost, as nothing else could be queued */
	e = uvfs_zalloc(sizeof(*e));
	if (!e)
		return;
	e->wd = -1;
	e->mask = FS_Q_OVERFLOW;
	g->overflow_queued = true;
	queue_append(g, e);
}

struct fsnotify_group *fsnotify_alloc_group(struct uvfs *fs, unsigned int max_events)
{
	struct fsnotify_group *g = uvfs_zalloc(sizeof(*g));

	if (!g)
		return NULL;
	g->fs = fs;
	g->max_events = max_events;
	g->pollfd = -1;
	return g;
}

void fsnotify_destroy_mark(struct fsnotify_mark *m)
{
	if (!m->group->handle_event)
		queue_event(m->group, m->wd, FS_IN_IGNORED, 0, NULL);
	mark_free(m);
}

void fsnotify_destroy_group(struct fsnotify_group *g)
{
	while (g->marks)
		mark_free(g->marks);
	while (g->head) {
		struct fsnotify_event *e = g->head;

		g->head = e->next;
		free(e);
	}
	if (g->pollfd >= 0)
		close(g->pollfd);
	free(g);
}

/* ---------------------------------------------------------------------------------
 * Delivery
 */

/* send_to_group() for every mark on inode: the events a mark asked for, and
 * IN_UNMOUNT, which every mark hears (inotify_arg_to_mask()); an unlinked file's
 * events are not heard by a mark with FS_EXCL_UNLINK (fsnotify_handle_inode_event()) */
static void send_to_marks(struct inode *inode, uint32_t mask, const struct qstr *name,
			  uint32_t cookie, bool unlinked)
{
	struct fsnotify_state *s = inode->i_sb->s_fs->fsn;
	struct fsnotify_mark *m, *next;

	for (m = s->hash[mark_bucket(s, inode)]; m; m = next) {
		next = m->h_next;
		if (m->inode != inode)
			continue;
		if (!(mask & m->mask & (0xfffu | FS_RENAME)) && !(mask & FS_UNMOUNT))
			continue;
		if (unlinked && (m->mask & FS_EXCL_UNLINK))
			continue;
		if (m->group->handle_event) {
			m->group->handle_event(m, mask);  /* may free m, not the rest */
			continue;
		}
		queue_event(m->group, m->wd, mask, cookie, name);
		if (m->mask & FS_IN_ONESHOT)
			fsnotify_destroy_mark(m);  /* the rest of the chain is untouched */
	}
}

static uint32_t isdir(const struct inode *inode)
{
	return S_ISDIR(inode->i_mode) ? FS_ISDIR : 0;
}

/* fsnotify_inode(): the inode's own marks */
static void notify_inode(struct inode *inode, uint32_t mask)
{
	if (fsnotify_watched(inode))
		send_to_marks(inode, mask | isdir(inode), NULL, 0, false);
}

/* fsnotify_parent() then the inode: d's parent hears it with d's present name.
 * unlinked: the event is about an open file (a path), and d has been removed */
static void notify_dentry(struct dentry *d, uint32_t mask, bool unlinked)
{
	struct inode *inode = d->d_inode;
	struct inode *dir = IS_ROOT(d) ? NULL : d->d_parent->d_inode;

	mask |= isdir(inode);
	if (fsnotify_watched(dir) && (mask & FS_EVENTS_POSS_ON_CHILD))
		send_to_marks(dir, mask, &d->d_name, 0, unlinked);
	if (fsnotify_watched(inode))
		send_to_marks(inode, mask, NULL, 0, unlinked);
}

void __fsnotify_create(struct inode *dir, struct dentry *d)
{
	if (fsnotify_watched(dir))
		send_to_marks(dir, FS_CREATE | isdir(d->d_inode), &d->d_name, 0, false);
}

void __fsnotify_link_count(struct inode *inode)
{
	notify_inode(inode, FS_ATTRIB);
}

void __fsnotify_link(struct inode *dir, struct inode *inode, struct dentry *d)
{
	__fsnotify_link_count(inode);
	if (fsnotify_watched(dir))
		send_to_marks(dir, FS_CREATE, &d->d_name, 0, false);
}

void __fsnotify_inoderemove(struct inode *inode)
{
	struct fsnotify_mark *m;

	if (!fsnotify_watched(inode))
		return;
	notify_inode(inode, FS_DELETE_SELF);
	/* __fsnotify_inode_delete(): every mark left (FS_IN_ONESHOT may have taken one) */
	while ((m = find_any(inode)))
		fsnotify_destroy_mark(m);
}

void __fsnotify_d_delete(struct inode *dir, struct dentry *d, struct inode *inode)
{
	/* d_delete(): the unlinker alone holds d, so d goes negative and the inode's
	 * last name with it now; held by others (an open file, a cwd), the inode stays
	 * and its IN_DELETE_SELF comes with their last dput (dentry_kill()) */
	if (d->d_count == 1 && inode->i_nlink == 0)
		__fsnotify_inoderemove(inode);
	if (fsnotify_watched(dir))
		send_to_marks(dir, FS_DELETE | isdir(inode), &d->d_name, 0, false);
}

void __fsnotify_move(struct inode *old_dir, struct inode *new_dir, const struct qstr *old_name,
		   struct inode *target, struct dentry *moved)
{
	struct inode *source = moved->d_inode;
	uint32_t dirbit = isdir(source), cookie;

	if (!fsnotify_watched(old_dir) && !fsnotify_watched(new_dir) &&
	    !fsnotify_watched(source) && !fsnotify_watched(target))
		return;
	/* fsnotify_get_cookie(): one number for both halves of the move */
	cookie = ++fsnotify_state(source->i_sb->s_fs)->cookie;
	/* FS_RENAME, "information about both old and new parent+name", first: only
	 * dnotify takes it, for a move within one directory (fsnotify_handle_event()) */
	if (old_dir == new_dir && fsnotify_watched(old_dir))
		send_to_marks(old_dir, FS_RENAME | dirbit, old_name, 0, false);
	if (fsnotify_watched(old_dir))
		send_to_marks(old_dir, FS_MOVED_FROM | dirbit, old_name, cookie, false);
	if (fsnotify_watched(new_dir))
		send_to_marks(new_dir, FS_MOVED_TO | dirbit, &moved->d_name, cookie, false);
	if (target)
		__fsnotify_link_count(target);
	notify_inode(source, FS_MOVE_SELF);
}

void __fsnotify_change(struct dentry *d, unsigned int ia_valid)
{
	uint32_t mask = 0;

	if (ia_valid & (ATTR_UID | ATTR_GID | ATTR_MODE))
		mask |= FS_ATTRIB;
	if (ia_valid & ATTR_SIZE)
		mask |= FS_MODIFY;
	/* both times: a utimes(); one of them alone is an access or a modification */
	if ((ia_valid & (ATTR_ATIME | ATTR_MTIME)) == (ATTR_ATIME | ATTR_MTIME))
		mask |= FS_ATTRIB;
	else if (ia_valid & ATTR_ATIME)
		mask |= FS_ACCESS;
	else if (ia_valid & ATTR_MTIME)
		mask |= FS_MODIFY;
	if (mask)
		notify_dentry(d, mask, false);
}

void __fsnotify_xattr(struct dentry *d)
{
	notify_dentry(d, FS_ATTRIB, false);
}

void __fsnotify_file(struct file *f, uint32_t mask)
{
	struct dentry *d = f->f_path.dentry;

	/* FMODE_NONOTIFY: O_PATH files, and the anonymous ones (an inotify
	 * descriptor's own reads) */
	if (f->f_mode & FMODE_PATH)
		return;
	if (!fsnotify_watched(d->d_inode) && (IS_ROOT(d) || !fsnotify_watched(d->d_parent->d_inode)))
		return;
	notify_dentry(d, mask, d_unlinked(d));
}

void fsnotify_sb_delete(struct super_block *sb)
{
	struct fsnotify_state *s = sb->s_fs->fsn;

	if (!s)
		return;
	/* fsnotify_unmount_inodes(): each watched inode, newest first (the order of
	 * sb->s_inodes, to which inode_sb_list_add() adds at the head: by inode number
	 * for uvfs's filesystems), hears IN_UNMOUNT, then its marks go (IN_IGNORED) */
	while (s->nr_marks) {
		struct inode *inode = NULL;
		struct fsnotify_mark *m;

		for (size_t b = 0; b < s->buckets; b++)
			for (m = s->hash[b]; m; m = m->h_next)
				if (m->inode->i_sb == sb && (!inode || m->inode->i_ino > inode->i_ino))
					inode = m->inode;
		if (!inode)
			return;
		igrab(inode);
		notify_inode(inode, FS_UNMOUNT);
		while ((m = find_any(inode)))
			fsnotify_destroy_mark(m);
		iput(inode);
	}
}
