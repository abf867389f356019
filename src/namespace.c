// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namespace.c - mounts (fs/namespace.c): the tree of (superblock, mountpoint) pairs,
 * attaching, detaching (umount_tree) and freeing them.
 *
 * Locking: every mount field, uvfs.mounts, uvfs.mount_hashtable and the children
 * lists are protected by uvfs.ns_lock.  The lockless walk reads the hash chains
 * (lookup_mnt()), mnt_parent, mnt_mountpoint, mnt_attach_seq, mnt_root and
 * mnt_flags: a mount leaves its chain with cds_hlist_del_rcu, a grown table and a
 * mount's memory are freed after a grace period (defer_free), and every change bumps
 * ns_seq.  Nothing reads uvfs.mounts or a children list without the lock.
 * A mount holds references on its root dentry, its superblock, its mountpoint dentry
 * and its parent mount; paths hold references on their mount (mnt_count) and dentry.
 * An unmounted mount (MNT_UMOUNT) is its own parent and lives until its last mntput.
 */
#include "dcache.h"
#include "ida.h"
#include "inode.h"
#include "mount.h"
#include "rcu_defer.h"

#include <sys/mount.h>
#include <urcu/rculist.h>

/* The chain of (parent, mountpoint): the kernel's m_hash() mixes the two pointers */
static inline size_t m_hash(const struct mount *parent, const struct dentry *d)
{
	uint64_t k = (uint64_t)(uintptr_t)parent / 64 + (uint64_t)(uintptr_t)d / 128;

	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 32);
}

/* lockless_read: the walk calls it without ns_lock (walk.c's handle_mounts()), and
 * liburcu's chain links are published by a plain store after a fence that
 * ThreadSanitizer does not model, as the dentry hash chains are (internal.h) */
lockless_read
struct mount *lookup_mnt(struct uvfs *fs, const struct mount *parent,
			 const struct dentry *dentry)
{
	const struct dcache_buckets *t = rcu_dereference(fs->mount_hashtable.tbl);
	struct cds_hlist_node *pos;
	struct mount *found = NULL;
	uint64_t top = 0;

	/* __lookup_mnt() on one chain.  Mounts stack: of those on one place, the last
	 * attached is on top.  Safe without ns_lock inside an RCU read section too
	 * (walk.c): chains change with the _rcu primitives, a grown table and the
	 * mounts are freed after a grace period, and a walk that followed a mount
	 * moving to another chain fails its ns_seq check. */
	for (pos = rcu_dereference(t->b[m_hash(parent, dentry) & t->mask].next); pos;
	     pos = rcu_dereference(pos->next)) {
		struct mount *m = container_of(pos, struct mount, mnt_hash);

		tsan_acquire(m);  /* mnt_hash_publish()'s release: rcu_dereference() */
		if (READ_ONCE(m->mnt_parent) == parent && READ_ONCE(m->mnt_mountpoint) == dentry &&
		    m != parent && READ_ONCE(m->mnt_attach_seq) >= top) {
			found = m;
			top = READ_ONCE(m->mnt_attach_seq);
		}
	}
	return found;
}

static size_t mnt_hash_node_index(const struct cds_hlist_node *pos)
{
	const struct mount *m = container_of(pos, struct mount, mnt_hash);

	return m_hash(m->mnt_parent, m->mnt_mountpoint);
}

/* Double the mount hash when the load passes one (d_hash_grow()'s way: a failed
 * allocation leaves the chains longer; a walk on a moving node fails ns_seq). */
static void mnt_hash_grow(struct uvfs *fs)
{
	buckets_grow(&fs->mount_hashtable.tbl, mnt_hash_node_index);
}

int count_mounts(struct uvfs *fs, const struct mnt_namespace *ns, unsigned int n)
{
	/* the kernel's count_mounts(): the namespace's mounts and those to come
	 * (a recursive bind's whole tree) within fs.mount-max */
	if (ns->nr_mounts >= fs->mount_max || n > fs->mount_max - ns->nr_mounts)
		return -ENOSPC;
	return 0;
}

struct mount *next_mnt(struct mount *p, struct mount *root)
{
	struct cds_list_head *next = p->mnt_mounts.next;

	if (next == &p->mnt_mounts) {
		for (;;) {
			if (p == root)
				return NULL;
			next = p->mnt_child.next;
			if (next != &p->mnt_parent->mnt_mounts)
				break;
			p = p->mnt_parent;
		}
	}
	return cds_list_entry(next, struct mount, mnt_child);
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
	/* alloc_mnt_id(): 64-bit, never reused, counted from MNT_UNIQUE_ID_OFFSET (2^31,
	 * Linux 6.15+) so that no unique id is ever a reused id (statx's
	 * STATX_MNT_ID_UNIQUE on 6.18: 2148135691) */
	m->mnt_id_unique = MNT_UNIQUE_ID_OFFSET + ++fs->last_mnt_id_unique;
	m->mnt_parent = m;
	m->mnt_mountpoint = dget(m->mnt_root);
	CDS_INIT_LIST_HEAD(&m->mnt_list);
	CDS_INIT_LIST_HEAD(&m->mnt_mounts);
	CDS_INIT_LIST_HEAD(&m->mnt_child);
	CDS_INIT_LIST_HEAD(&m->mnt_share);
	CDS_INIT_LIST_HEAD(&m->mnt_slave_list);
	CDS_INIT_LIST_HEAD(&m->mnt_slave);
	return m;
}

/* cds_hlist_add_head_rcu(), with the mount's own fields and links written before the
 * release that ThreadSanitizer is told of (it does not model rcu_dereference() as the
 * acquire it is, and a new mount's memory is fresh from calloc): lookup_mnt() reads
 * the chain without ns_lock */
static void mnt_hash_publish(struct uvfs *fs, struct mount *m)
{
	struct dcache_buckets *t = fs->mount_hashtable.tbl;
	struct cds_hlist_head *head = &t->b[m_hash(m->mnt_parent, m->mnt_mountpoint) & t->mask];

	m->mnt_hash.next = head->next;
	m->mnt_hash.prev = (struct cds_hlist_node *)head;
	if (head->next)
		head->next->prev = &m->mnt_hash;
	tsan_release(m);
	__atomic_store_n(&head->next, &m->mnt_hash, __ATOMIC_RELEASE);
}

void mnt_attach_to(struct uvfs *fs, struct mount *m, struct mount *parent,
		   struct dentry *mountpoint)
{
	assert(ns_locked(fs));
	if (parent) {
		struct dentry *old = m->mnt_mountpoint;

		/* a lockless lookup_mnt() may still stand on a mount being moved */
		WRITE_ONCE(m->mnt_mountpoint, dget(mountpoint));
		WRITE_ONCE(m->mnt_parent, parent);
		WRITE_ONCE(m->mnt_attach_seq, ++fs->mnt_attach_seq);
		dput(old);
		if (m->mnt_ns != parent->mnt_ns) {
			if (m->mnt_ns)
				m->mnt_ns->nr_mounts--;
			m->mnt_ns = parent->mnt_ns;
			if (m->mnt_ns)
				m->mnt_ns->nr_mounts++;
		}
		parent->mnt_count++;
		cds_list_add_tail(&m->mnt_child, &parent->mnt_mounts);
		mountpoint->d_mounts++;
		d_flags_set(mountpoint, DCACHE_MOUNTED);
		mnt_hash_publish(fs, m);
		if (++fs->mount_hashtable.count > fs->mount_hashtable.tbl->mask + 1)
			mnt_hash_grow(fs);
	}
	cds_list_add_tail(&m->mnt_list, &fs->mounts);
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
	/* a copy made for a bind or a propagation may already be in a peer group or
	 * a master's slaves */
	change_mnt_propagation(m->mnt_sb->s_fs, m, MS_PRIVATE);
	mnt_free(m);
}

void mnt_free_unmounted(struct mount *m)
{
	assert(m->mnt_flags & MNT_UMOUNT);
	mnt_free(m);
}

void mnt_disconnect(struct uvfs *fs, struct mount *m)
{
	struct mount *parent = m->mnt_parent;
	struct dentry *mp = m->mnt_mountpoint;

	assert(ns_locked(fs));
	cds_list_del(&m->mnt_list);
	if (parent == m)
		return;
	/* its next link stays as it was: a lockless lookup_mnt() standing on it goes on
	 * from there (reinitialised, it pointed to itself and that walk never ended) */
	cds_hlist_del_rcu(&m->mnt_hash);
	fs->mount_hashtable.count--;
	cds_list_del_init(&m->mnt_child);
	/* DCACHE_MOUNTED stays while another mount (of another parent: a bind of the
	 * same filesystem, another namespace's copy) sits on the same dentry */
	if (--mp->d_mounts == 0)
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
	/* umount_tree(): what is unmounted leaves its peer group and its master, its
	 * slaves going to another peer (change_mnt_propagation(p, MS_PRIVATE)) */
	change_mnt_propagation(fs, m, MS_PRIVATE);
	WRITE_ONCE(m->mnt_flags, m->mnt_flags | MNT_UMOUNT);
	if (m->mnt_ns)
		m->mnt_ns->nr_mounts--;
	m->mnt_ns = NULL;
}

/*
 * umount_tree(): m and every mount attached below it leave the namespace, children
 * first; each is disconnected from its parent (what the kernel's disconnect_mount()
 * decides by default) and freed when nothing holds it any more: at once after a busy
 * check that passed, later for a lazy unmount whose files are still open.
 */
void umount_tree(struct uvfs *fs, struct mount *m)
{
	struct mount *c = m;

	assert(ns_locked(fs));
	/* Depth first through the children lists, each mount after those below it:
	 * O(mounts below m), where a pass over all the instance's mounts per mount
	 * below every mount made fuzz_ops's tree of recursive binds take more than 20 s
	 * at uvfs_free.  Nothing detached here is freed before its turn: only a
	 * detached mount (MNT_UMOUNT) goes at its last mntput, and a parent is not
	 * detached until its children are. */
	for (;;) {
		struct mount *parent;

		while (!cds_list_empty(&c->mnt_mounts))
			c = cds_list_first_entry(&c->mnt_mounts, struct mount, mnt_child);
		parent = c->mnt_parent;
		mnt_detach(fs, c);
		if (c->mnt_count == 0)
			mnt_free(c);
		if (c == m)
			return;
		c = parent;
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
	/* the kernel's ns ids count from one for the whole machine; here per instance */
	ns->ns_id = ++root->mnt_sb->s_fs->last_mnt_ns_id;
	ns->count = 1;
	ns->nr_mounts = 1;
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
 * name, a new id; not attached.  By default in old's peer group if old is shared and
 * a slave of old's master if old is one; CL_SLAVE makes it a slave of old instead,
 * CL_PRIVATE neither, and CL_MAKE_SHARED puts it in a new peer group if it is in
 * none (fs/namespace.c's clone_mnt()). */
struct mount *clone_mnt(struct uvfs *fs, struct mount *old, struct dentry *root,
			unsigned int flags)
{
	/* not MNT_UNBINDABLE: only a new namespace's copy (CL_COPY_UNBINDABLE) is ever
	 * made of an unbindable mount, and on Linux 6.18 that copy is private (the
	 * type has lived apart from the mount's flags since 6.16; tests/diff/
	 * mount-propagation-more.sys asks the kernel) */
	struct mount *m = mnt_alloc(fs, old->mnt_sb, root, old->mnt_devname,
				    old->mnt_flags & MNT_USER_SETTABLE_MASK);

	if (!m)
		return NULL;
	if ((flags & CL_MAKE_SHARED) && (flags & (CL_SLAVE | CL_PRIVATE) || !IS_MNT_SHARED(old))) {
		int id = ida_alloc_min(&fs->mnt_group_ids, 1);

		if (id < 0) {
			mnt_free(m);
			return NULL;
		}
		m->mnt_group_id = id;
	}
	if (flags & CL_SLAVE) {
		m->mnt_master = old;
		cds_list_add(&m->mnt_slave, &old->mnt_slave_list);
	} else if (!(flags & CL_PRIVATE)) {
		if (IS_MNT_SHARED(old)) {
			m->mnt_group_id = old->mnt_group_id;
			cds_list_add(&m->mnt_share, &old->mnt_share);
		}
		if (IS_MNT_SLAVE(old)) {
			m->mnt_master = old->mnt_master;
			cds_list_add(&m->mnt_slave, &old->mnt_slave);
		}
	}
	return m;
}

/* skip_mnt_tree(): the last mount of the tree below p, where next_mnt() goes on */
static struct mount *skip_mnt_tree(struct mount *p)
{
	while (!cds_list_empty(&p->mnt_mounts))
		p = cds_list_entry(p->mnt_mounts.prev, struct mount, mnt_child);
	return p;
}

int copy_tree(struct uvfs *fs, struct mount *mnt, struct dentry *dentry, unsigned int how,
	      struct mnt_copies *c)
{
	struct mount *m, *child;
	int max = 1;

	memset(c, 0, sizeof(*c));
	if (how & CL_RECURSE)
		for (m = next_mnt(mnt, mnt); m; m = next_mnt(m, mnt))
			max++;
	c->src = uvfs_malloc((size_t)max * sizeof(*c->src));
	c->dst = uvfs_malloc((size_t)max * sizeof(*c->dst));
	c->up = uvfs_malloc((size_t)max * sizeof(*c->up));
	if (!c->src || !c->dst || !c->up)
		goto enomem;
	c->src[0] = mnt;
	c->up[0] = -1;
	c->dst[0] = clone_mnt(fs, mnt, dentry, how);
	if (!c->dst[0])
		goto enomem;
	c->n = 1;
	if (!(how & CL_RECURSE))
		return 0;
	/* depth first, parents before children, each mount's children in the order
	 * they were attached (the kernel's copy_tree(): the new namespace's mountinfo
	 * lists the copies in that order); a copied mount's index, kept in mnt_mark a
	 * moment, is its children's up */
	mnt->mnt_mark = 1;
	cds_list_for_each_entry(child, &mnt->mnt_mounts, mnt_child) {
		if (!is_subdir(child->mnt_mountpoint, dentry))
			continue;
		for (m = child; m; m = next_mnt(m, child)) {
			if ((m->mnt_flags & MNT_UNBINDABLE) && !(how & CL_COPY_UNBINDABLE)) {
				m = skip_mnt_tree(m);  /* nor anything below it */
				continue;
			}
			c->dst[c->n] = clone_mnt(fs, m, m->mnt_root, how);
			if (!c->dst[c->n])
				goto enomem;
			c->src[c->n] = m;
			c->up[c->n++] = m->mnt_parent->mnt_mark - 1;
			m->mnt_mark = c->n;
		}
	}
	for (int i = 0; i < c->n; i++)
		c->src[i]->mnt_mark = 0;
	return 0;
enomem:
	for (int i = 0; i < c->n; i++)
		c->src[i]->mnt_mark = 0;
	drop_copies(c);
	return -ENOMEM;
}

int tree_copies(struct mount *mnt, struct mnt_copies *c)
{
	struct mount *m;
	int n = 0;

	memset(c, 0, sizeof(*c));
	for (m = mnt; m; m = next_mnt(m, mnt))
		n++;
	c->src = uvfs_malloc((size_t)n * sizeof(*c->src));
	c->up = uvfs_malloc((size_t)n * sizeof(*c->up));
	if (!c->src || !c->up) {
		free(c->src);
		free(c->up);
		memset(c, 0, sizeof(*c));
		return -ENOMEM;
	}
	c->dst = c->src;
	/* parents come first: each mount's index, kept in mnt_mark a moment, is known
	 * when its children come */
	for (m = mnt; m; m = next_mnt(m, mnt)) {
		c->up[c->n] = m == mnt ? -1 : m->mnt_parent->mnt_mark - 1;
		c->src[c->n++] = m;
		m->mnt_mark = c->n;
	}
	for (int i = 0; i < c->n; i++)
		c->src[i]->mnt_mark = 0;
	return 0;
}

bool is_path_reachable(const struct mount *mnt, const struct dentry *dentry,
		       const struct path *root)
{
	while (mnt != root->mnt && mnt->mnt_parent != mnt) {
		dentry = mnt->mnt_mountpoint;
		mnt = mnt->mnt_parent;
	}
	return mnt == root->mnt && is_subdir(dentry, root->dentry);
}

void attach_set(struct uvfs *fs, struct mnt_copies *c, struct mount *parent,
		struct dentry *mountpoint, struct dentry *const *mps)
{
	mnt_attach_to(fs, c->dst[0], parent, mountpoint);
	for (int i = 1; i < c->n; i++)
		mnt_attach_to(fs, c->dst[i], c->dst[c->up[i]],
			      mps ? mps[i] : c->src[i]->mnt_mountpoint);
	c->n = 0;  /* the namespace's now */
}

void attach_copies(struct uvfs *fs, struct mnt_copies *c, struct mount *parent,
		   struct dentry *mountpoint)
{
	attach_set(fs, c, parent, mountpoint, NULL);
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

	/* copy_tree(CL_COPY_ALL): every mount, the unbindable ones too, each copy a
	 * peer of its original if that is shared, a slave of its master if it is one
	 * (uvfs has one user namespace: never CL_SHARED_TO_SLAVE) */
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

int mnt_detached_tree(struct uvfs *fs, struct mnt_copies *c, uint64_t origin)
{
	struct mnt_namespace *ns = alloc_mnt_ns(c->dst[0]);

	if (!ns)
		return -ENOMEM;
	ns->anon = true;
	ns->origin = origin;
	ns->count = 0;  /* no task is in it */
	attach_set(fs, c, NULL, NULL, NULL);
	return 0;
}

void dissolve_on_fput(struct uvfs *fs, struct mount *m)
{
	struct mnt_namespace *ns = m->mnt_ns;

	if (!anon_ns_root(m))
		return;  /* attached since (move_mount), or unmounted */
	umount_tree(fs, m);
	assert(ns->nr_mounts == 0);
	free(ns);
}

void mnt_adopt_tree(struct uvfs *fs, struct mount *root, struct mnt_namespace *anon)
{
	struct mnt_namespace *ns = root->mnt_ns;

	assert(ns_locked(fs));
	for (struct mount *c = next_mnt(root, root); c; c = next_mnt(c, root)) {
		if (c->mnt_ns == anon) {
			anon->nr_mounts--;
			ns->nr_mounts++;
			c->mnt_ns = ns;
		}
	}
	assert(anon->nr_mounts == 0);
	free(anon);
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
