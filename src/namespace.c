// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namespace.c - mounts (fs/namespace.c): the tree of (superblock, mountpoint) pairs,
 * attaching, detaching (umount_tree) and freeing them.
 *
 * Locking: every mount field and uvfs.mounts are protected by uvfs.ns_lock.  The
 * lockless walk reads uvfs.mounts (an RCU list), mnt_parent, mnt_mountpoint,
 * mnt_root and mnt_flags: a mount leaves the list with cds_list_del_rcu and its memory
 * is freed after a grace period (defer_free), and every change bumps ns_seq.
 * A mount holds references on its root dentry, its superblock, its mountpoint dentry
 * and its parent mount; paths hold references on their mount (mnt_count) and dentry.
 * An unmounted mount (MNT_UMOUNT) is its own parent and lives until its last mntput.
 */
#include "dcache.h"
#include "ida.h"
#include "inode.h"
#include "mount.h"
#include "rcu_defer.h"

#include <urcu/rculist.h>

/* lockless_read: the walk calls it without ns_lock (walk.c's handle_mounts()), and
 * liburcu's list links are published by a plain store after a fence that
 * ThreadSanitizer does not model, as the hash chains are (internal.h) */
lockless_read
struct mount *lookup_mnt(struct uvfs *fs, const struct mount *parent,
			 const struct dentry *dentry)
{
	struct mount *m, *found = NULL;

	/* The last one mounted wins: mounts stack, the newest on top.  Safe without
	 * ns_lock inside an RCU read section too (walk.c): the list is changed with
	 * the _rcu primitives and mounts are freed after a grace period. */
	cds_list_for_each_entry_rcu(m, &fs->mounts, mnt_list) {
		tsan_acquire(m);  /* mnt_list_publish()'s release: rcu_dereference() */
		if (READ_ONCE(m->mnt_parent) == parent && READ_ONCE(m->mnt_mountpoint) == dentry &&
		    m != parent)
			found = m;
	}
	return found;
}

struct mount *mnt_alloc(struct uvfs *fs, struct super_block *sb, struct dentry *root,
			const char *devname, int flags)
{
	struct mount *m = uvfs_zalloc(sizeof(*m));
	int id;

	if (!m)
		return NULL;
	m->mnt_devname = uvfs_malloc(strlen(devname) + 1);
	id = m->mnt_devname ? ida_alloc_min(&fs->mnt_ids, 1) : -ENOMEM;
	if (id < 0) {
		free(m->mnt_devname);
		free(m);
		return NULL;
	}
	strcpy(m->mnt_devname, devname);
	m->mnt_sb = sb;
	sb->s_count++;
	m->mnt_root = dget(root ? root : sb->s_root);
	m->mnt_flags = flags;
	m->mnt_id = id;
	m->mnt_id_unique = ++fs->last_mnt_id_unique;
	m->mnt_parent = m;
	m->mnt_mountpoint = dget(m->mnt_root);
	CDS_INIT_LIST_HEAD(&m->mnt_list);
	return m;
}

/* cds_list_add_tail_rcu(), with the mount's own links written before the release
 * that ThreadSanitizer is told of (it does not model rcu_dereference() as the
 * acquire it is): walk.c walks this list without ns_lock (lookup_mnt()) */
static void mnt_list_publish(struct uvfs *fs, struct mount *m)
{
	struct cds_list_head *head = &fs->mounts;

	m->mnt_list.next = head;
	m->mnt_list.prev = head->prev;
	tsan_release(m);
	/* rcu_assign_pointer() as a C11 release store, which ThreadSanitizer sees: its
	 * plain store raced with lookup_mnt()'s load in clang's TSan (CI, 3845977's
	 * successor: test_rcu_walk_under_mounts) */
	__atomic_store_n(&head->prev->next, &m->mnt_list, __ATOMIC_RELEASE);
	head->prev = &m->mnt_list;
}

void mnt_attach_to(struct uvfs *fs, struct mount *m, struct mount *parent,
		   struct dentry *mountpoint)
{
	if (parent) {
		struct dentry *old = m->mnt_mountpoint;

		/* a lockless lookup_mnt() may still stand on a mount being moved */
		WRITE_ONCE(m->mnt_mountpoint, dget(mountpoint));
		WRITE_ONCE(m->mnt_parent, parent);
		dput(old);
		m->mnt_ns = parent->mnt_ns;
		parent->mnt_count++;
		d_flags_set(mountpoint, DCACHE_MOUNTED);
	}
	mnt_list_publish(fs, m);
}

struct mount *mnt_attach(struct uvfs *fs, struct super_block *sb, struct mount *parent,
			 struct dentry *mountpoint, const char *devname)
{
	struct mount *m = mnt_alloc(fs, sb, NULL, devname, MNT_RELATIME);

	if (!m)
		return NULL;
	sb->s_count--;  /* the caller's reference on sb becomes the mount's */
	mnt_attach_to(fs, m, parent, mountpoint);
	return m;
}

static void mnt_free_deferred(struct uvfs *fs, void *obj)
{
	struct mount *m = obj;

	free(m->mnt_devname);
	free(m);
}

/* The mount is off the list and its own parent: drop what it holds. */
static void mnt_free(struct mount *m)
{
	struct super_block *sb = m->mnt_sb;
	struct uvfs *fs = sb->s_fs;  /* sb may be gone after sb_put(): a full batch of
				      * deferred frees runs at once (test_rcu_walk_under_mounts) */

	ida_free(&fs->mnt_ids, m->mnt_id);
	dput(m->mnt_mountpoint);
	dput(m->mnt_root);
	sb_put(sb);
	/* a lockless walk may still stand on it */
	defer_free(fs, m, mnt_free_deferred);
}

void mnt_discard(struct mount *m)
{
	mnt_free(m);
}

void mnt_free_unmounted(struct mount *m)
{
	assert(m->mnt_flags & MNT_UMOUNT);
	mnt_free(m);
}

void mnt_disconnect(struct uvfs *fs, struct mount *m)
{
	struct mount *parent = m->mnt_parent, *o;
	struct dentry *mp = m->mnt_mountpoint;
	bool still_mounted = false;

	/* its next link stays as it was: a lockless lookup_mnt() standing on it goes on
	 * from there (reinitialised, it pointed to itself and that walk never ended) */
	cds_list_del_rcu(&m->mnt_list);
	if (parent == m)
		return;
	/* DCACHE_MOUNTED stays while another mount (of another parent: a bind of the
	 * same filesystem) sits on the same dentry */
	cds_list_for_each_entry(o, &fs->mounts, mnt_list)
		if (o->mnt_mountpoint == mp && o->mnt_parent != o)
			still_mounted = true;
	if (!still_mounted)
		d_flags_clear(mp, DCACHE_MOUNTED);
	__atomic_store_n(&m->mnt_mountpoint, dget(m->mnt_root), __ATOMIC_RELAXED);
	__atomic_store_n(&m->mnt_parent, m, __ATOMIC_RELAXED);
	dput(mp);
	mntput(parent);
}

/* umount_mnt(): off its mountpoint and out of the namespace for good. */
static void mnt_detach(struct uvfs *fs, struct mount *m)
{
	mnt_disconnect(fs, m);
	WRITE_ONCE(m->mnt_flags, m->mnt_flags | MNT_UMOUNT);
	m->mnt_ns = NULL;
}

/* Is m below top (or top itself), following parents? */
static bool mnt_under(const struct mount *m, const struct mount *top)
{
	for (;;) {
		if (m == top)
			return true;
		if (m->mnt_parent == m)
			return false;
		m = m->mnt_parent;
	}
}

/* A mount below top with no mount of its own below it (top when it is alone). */
static struct mount *mnt_leaf_under(struct uvfs *fs, struct mount *top)
{
	struct mount *c, *o;

	cds_list_for_each_entry(c, &fs->mounts, mnt_list) {
		bool leaf = true;

		if (!mnt_under(c, top))
			continue;
		cds_list_for_each_entry(o, &fs->mounts, mnt_list)
			if (o->mnt_parent == c && o != c)
				leaf = false;
		if (leaf)
			return c;
	}
	return top;
}

/*
 * umount_tree(): m and every mount attached below it leave the namespace, children
 * first; each is disconnected from its parent (what the kernel's disconnect_mount()
 * decides by default) and freed when nothing holds it any more: at once after a busy
 * check that passed, later for a lazy unmount whose files are still open.
 */
struct mount_depth {
	struct mount *m;
	unsigned long depth;
};

static int deeper_first(const void *a, const void *b)
{
	const struct mount_depth *x = a, *y = b;

	return x->depth < y->depth ? 1 : x->depth > y->depth ? -1 : 0;
}

/* Detach and free m, a mount with none below it left. */
static void umount_one(struct uvfs *fs, struct mount *m)
{
	mnt_detach(fs, m);
	if (m->mnt_count == 0)
		mnt_free(m);
}

void umount_tree(struct uvfs *fs, struct mount *m)
{
	struct mount_depth *v = NULL;
	size_t n = 0, max = 0;
	struct mount *c;

	assert(ns_locked(fs));
	/* Every mount below m with its depth under it, deepest first: one pass over the
	 * mounts, where looking for a leaf again after each detach was a pass over all
	 * of them per mount below every mount (fuzz_ops: a tree of recursive binds took
	 * more than 20 s at uvfs_free).  Nothing detached here is freed before its turn:
	 * only a detached mount (MNT_UMOUNT) goes at its last mntput. */
	cds_list_for_each_entry(c, &fs->mounts, mnt_list) {
		unsigned long depth = 0;
		const struct mount *p = c;

		while (p != m && p->mnt_parent != p) {
			p = p->mnt_parent;
			depth++;
		}
		if (p != m)
			continue;
		if (n == max) {
			/* not uvfs_malloc: an unmount cannot fail; without memory, the
			 * leaf-by-leaf way below */
			struct mount_depth *w = realloc(v, (max = max ? 2 * max : 64) * sizeof(*v));

			if (!w)
				goto slow;
			v = w;
		}
		v[n++] = (struct mount_depth){ c, depth };
	}
	qsort(v, n, sizeof(*v), deeper_first);
	for (size_t i = 0; i < n; i++)
		umount_one(fs, v[i].m);
	free(v);
	return;
slow:
	free(v);
	for (;;) {
		struct mount *leaf = mnt_leaf_under(fs, m);

		umount_one(fs, leaf);
		if (leaf == m)
			return;
	}
}

/* Every mount (uvfs_free: no task, no file is left, so the instance's hold on its
 * first namespace is the last hold on any). */
void mnt_release_all(struct uvfs *fs)
{
	if (fs->init_ns) {
		put_mnt_ns(fs, fs->init_ns);
		fs->init_ns = NULL;
	}
	assert(cds_list_empty(&fs->mounts));
}

struct mnt_namespace *alloc_mnt_ns(struct mount *root)
{
	struct mnt_namespace *ns = uvfs_zalloc(sizeof(*ns));

	if (!ns)
		return NULL;
	ns->root = root;
	ns->count = 1;
	root->mnt_ns = ns;
	return ns;
}

void put_mnt_ns(struct uvfs *fs, struct mnt_namespace *ns)
{
	assert(ns->count > 0);
	if (--ns->count)
		return;
	umount_tree(fs, ns->root);
	free(ns);
}

struct mount *ns_root_mount(struct uvfs *fs, const struct mnt_namespace *ns)
{
	struct mount *top = lookup_mnt(fs, ns->root, ns->root->mnt_root);

	/* a lazy unmount of the root leaves the rootfs alone: its own root then */
	return top ? top : ns->root;
}

/* clone_mnt(): the same superblock, root the given dentry, the source's flags and
 * name, a new id; not attached */
static struct mount *clone_mnt(struct uvfs *fs, const struct mount *old, struct dentry *root)
{
	return mnt_alloc(fs, old->mnt_sb, root, old->mnt_devname,
			 old->mnt_flags & (MNT_USER_SETTABLE_MASK | MNT_UNBINDABLE));
}

int copy_tree(struct uvfs *fs, struct mount *mnt, struct dentry *dentry, unsigned int how,
	      struct mnt_copies *c)
{
	struct mount *m;
	int max = 1;

	memset(c, 0, sizeof(*c));
	if (how & CL_RECURSE)
		cds_list_for_each_entry(m, &fs->mounts, mnt_list)
			max++;
	c->src = uvfs_malloc((size_t)max * sizeof(*c->src));
	c->dst = uvfs_malloc((size_t)max * sizeof(*c->dst));
	c->up = uvfs_malloc((size_t)max * sizeof(*c->up));
	if (!c->src || !c->dst || !c->up)
		goto enomem;
	c->src[0] = mnt;
	c->up[0] = -1;
	c->dst[0] = clone_mnt(fs, mnt, dentry);
	if (!c->dst[0])
		goto enomem;
	c->n = 1;
	/* breadth first: the children of each copied mount in mount order, which
	 * keeps mounts stacked on one place in their order */
	for (int i = 0; (how & CL_RECURSE) && i < c->n; i++) {
		cds_list_for_each_entry(m, &fs->mounts, mnt_list) {
			if (m->mnt_parent != c->src[i] || m == c->src[i])
				continue;
			if (i == 0 && !is_subdir(m->mnt_mountpoint, dentry))
				continue;
			if ((m->mnt_flags & MNT_UNBINDABLE) && !(how & CL_COPY_UNBINDABLE))
				continue;
			c->dst[c->n] = clone_mnt(fs, m, m->mnt_root);
			if (!c->dst[c->n])
				goto enomem;
			c->src[c->n] = m;
			c->up[c->n++] = i;
		}
	}
	return 0;
enomem:
	drop_copies(c);
	return -ENOMEM;
}

void attach_copies(struct uvfs *fs, struct mnt_copies *c, struct mount *parent,
		   struct dentry *mountpoint)
{
	mnt_attach_to(fs, c->dst[0], parent, mountpoint);
	for (int i = 1; i < c->n; i++)
		mnt_attach_to(fs, c->dst[i], c->dst[c->up[i]], c->src[i]->mnt_mountpoint);
	c->n = 0;  /* the namespace's now */
	drop_copies(c);
}

void drop_copies(struct mnt_copies *c)
{
	while (c->n > 0)
		mnt_discard(c->dst[--c->n]);
	free(c->src);
	free(c->dst);
	free(c->up);
	memset(c, 0, sizeof(*c));
}

struct mnt_namespace *copy_mnt_ns(struct uvfs *fs, struct mnt_namespace *ns, struct path *root,
				  struct path *pwd)
{
	struct mnt_namespace *new_ns;
	struct mnt_copies c;

	/* copy_tree(CL_COPY_ALL): every mount, the unbindable ones too */
	if (copy_tree(fs, ns->root, ns->root->mnt_root, CL_RECURSE | CL_COPY_UNBINDABLE, &c))
		return NULL;
	new_ns = alloc_mnt_ns(c.dst[0]);
	if (!new_ns) {
		drop_copies(&c);
		return NULL;
	}
	/* the caller's root and cwd move to the copies of their mounts */
	for (int i = 0; i < c.n; i++) {
		struct path *p[2] = { root, pwd };

		for (int k = 0; k < 2; k++) {
			if (p[k]->mnt != c.src[i])
				continue;
			mntput(p[k]->mnt);
			p[k]->mnt = c.dst[i];
			c.dst[i]->mnt_count++;
		}
	}
	attach_copies(fs, &c, NULL, NULL);
	return new_ns;
}

/* Is dentry d at or below top (both of one superblock)? */
bool is_subdir(const struct dentry *d, const struct dentry *top)
{
	for (;;) {
		if (d == top)
			return true;
		if (IS_ROOT(d))
			return false;
		d = d->d_parent;
	}
}

bool __is_local_mountpoint(struct uvfs *fs, const struct mnt_namespace *ns,
			   const struct dentry *d)
{
	struct mount *m;

	cds_list_for_each_entry(m, &fs->mounts, mnt_list)
		if (m->mnt_mountpoint == d && m->mnt_parent != m && m->mnt_ns == ns)
			return true;
	return false;
}

void __detach_mounts(struct uvfs *fs, struct dentry *d)
{
	while (d_mountpoint(d)) {
		struct mount *m, *found = NULL;

		cds_list_for_each_entry(m, &fs->mounts, mnt_list)
			if (m->mnt_mountpoint == d && m->mnt_parent != m)
				found = m;
		if (!found)
			break;
		umount_tree(fs, found);
	}
}
