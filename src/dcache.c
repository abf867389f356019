// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dcache.c - dentries: allocation, names, the hash table, reference counts, d_move.
 *
 * Locking:
 *
 *   what                                   protected by
 *   -------------------------------------  ---------------------------------------
 *   every dentry field                     uvfs.ns_lock (written); the lockless
 *                                          walk reads them, validated by ns_seq
 *   the hash table (uvfs.dtable)           uvfs.ns_lock
 *   external_name.count                    atomic (snapshots may take it lockless)
 *   external_name bytes                    immutable; freed after a grace period
 *
 * Lifetime: a dentry holds a reference on its parent and on its inode.  A hashed
 * dentry whose count falls to zero is kept (cached) unless its superblock says
 * SB_ALWAYS_DELETE (tmpfs: always_delete_dentry); an unhashed one is killed.  Both
 * dentries and external names are freed after a grace period (rcu_defer.c), so RCU
 * readers that found them before they were dropped may finish looking at them.
 *
 * Names (the reason uvfs exists): see struct external_name in dcache.h and
 * docs/SEMANTICS.md.  copy_name() and swap_names() below are the only places that
 * change d_name; __d_move() asks abi.c which of the two a personality uses.
 */
#include <stdio.h>

#include "fsnotify.h"
#include "abi.h"
#include "dcache.h"
#include "permission.h"
#include "inode.h"
#include "namehash.h"
#include "rcu_defer.h"
#include "slab.h"

/* ---------------------------------------------------------------------------------
 * Hashing
 */

/* namehash.h: one function for both walks and for the names dcache.c stores.  The
 * parent salts the bucket, not the hash (d_hash_index). */
uint32_t d_name_hash(const unsigned char *name, size_t len)
{
	return hash_known(name, (uint32_t)len);
}

static struct cds_hlist_head *d_hash_bucket(struct uvfs *fs, const struct dentry *parent,
					    uint32_t hash)
{
	struct dcache_buckets *t = fs->dtable.tbl;

	return &t->b[d_hash_index(parent, hash) & t->mask];
}

struct dcache_buckets *buckets_alloc(size_t n, bool may_fail)
{
	struct dcache_buckets *t = may_fail ? uvfs_zalloc(sizeof(*t) + n * sizeof(t->b[0]))
					    : calloc(1, sizeof(*t) + n * sizeof(t->b[0]));

	if (t)
		t->mask = n - 1;
	return t;
}

int dcache_init(struct uvfs *fs)
{
	fs->dtable.tbl = buckets_alloc(1024, true);
	/* the mount hash (namespace.c): most instances have a handful of mounts */
	fs->mount_hashtable.tbl = buckets_alloc(16, true);
	fs->dtable.count = 0;
	fs->mount_hashtable.count = 0;
	if (!fs->dtable.tbl || !fs->mount_hashtable.tbl) {
		dcache_exit(fs);
		return -ENOMEM;
	}
	return 0;
}

void dcache_exit(struct uvfs *fs)
{
	assert(fs->dtable.count == 0 && fs->mount_hashtable.count == 0);
	free(fs->dtable.tbl);
	free(fs->mount_hashtable.tbl);
	fs->dtable.tbl = NULL;
	fs->mount_hashtable.tbl = NULL;
}

static void buckets_free_rcu(struct rcu_head *head)
{
	tsan_acquire(head);                 /* handed over by call_rcu */
	tsan_acquire(&rcu_readers_done);    /* after a grace period */
	free(container_of(head, struct dcache_buckets, rcu));
}

void buckets_replace(struct dcache_buckets **slot, struct dcache_buckets *nt)
{
	struct dcache_buckets *old = *slot;

	/* rcu_assign_pointer(), in the form ThreadSanitizer models (a release store) */
	__atomic_store_n(slot, nt, __ATOMIC_RELEASE);
	tsan_release(&old->rcu);
	urcu_bp_call_rcu(&old->rcu, buckets_free_rcu);
}

void buckets_grow(struct dcache_buckets **slot, size_t (*index)(const struct cds_hlist_node *))
{
	struct dcache_buckets *old = *slot, *nt;
	size_t n = (old->mask + 1) * 2;

	nt = buckets_alloc(n, false);
	if (!nt)
		return;
	for (size_t i = 0; i <= old->mask; i++) {
		struct cds_hlist_node *pos = old->b[i].next, *next;

		for (; pos; pos = next) {
			next = pos->next;
			/* the publishing form: a walk may be on this node (tsan.supp) */
			cds_hlist_add_head_rcu(pos, &nt->b[index(pos) & (n - 1)]);
		}
	}
	buckets_replace(slot, nt);
}

static size_t d_hash_node_index(const struct cds_hlist_node *pos)
{
	const struct dentry *d = container_of(pos, struct dentry, d_hash);

	return d_hash_index(d->d_parent, d->d_name.hash);
}

/*
 * Double the table when the load passes one.  A failed allocation only leaves the
 * chains longer, so it is not an error.  The chains move node by node while a
 * lockless walk may be following them: it can miss a dentry or see one twice, which
 * is harmless because every writer bumps ns_seq and such a walk is thrown away; what
 * it may never do is touch freed memory, hence the old table's grace period.
 */
static void d_hash_grow(struct uvfs *fs)
{
	buckets_grow(&fs->dtable.tbl, d_hash_node_index);
}

void d_rehash(struct dentry *d)
{
	struct uvfs *fs = d_sb(d)->s_fs;

	assert(ns_locked(fs));
	assert(d_unhashed(d));
	cds_hlist_add_head_rcu(&d->d_hash, d_hash_bucket(fs, d->d_parent, d->d_name.hash));
	d_flags_set(d, DCACHE_HASHED);
	if (++fs->dtable.count > fs->dtable.tbl->mask + 1)
		d_hash_grow(fs);
}

void d_drop(struct dentry *d)
{
	struct uvfs *fs;

	/* first: d_release_tree() kills a dropped negative dentry made its own parent,
	 * whose superblock d_sb() could no longer find */
	if (d_unhashed(d))
		return;
	fs = d_sb(d)->s_fs;
	assert(ns_locked(fs));
	cds_hlist_del_rcu(&d->d_hash);
	d_flags_clear(d, DCACHE_HASHED);
	fs->dtable.count--;
}

/* Short names byte by byte: a call to memcmp costs more than the comparison. */
static inline bool name_equal(const unsigned char *a, const unsigned char *b, uint32_t len)
{
	if (len > 16)
		return !memcmp(a, b, len);
	for (uint32_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

struct dentry *d_lookup(struct dentry *parent, const struct qstr *name)
{
	struct uvfs *fs = d_sb(parent)->s_fs;
	struct cds_hlist_node *pos;

	assert(ns_locked(fs));
	STAT_ADD(fs->stats.lookups, 1);
	for (pos = d_hash_bucket(fs, parent, name->hash)->next; pos; pos = pos->next) {
		struct dentry *d = container_of(pos, struct dentry, d_hash);

		if (d->d_name.hash_len != name->hash_len || d->d_parent != parent ||
		    !name_equal(d->d_name.name, name->name, name->len))
			continue;
		if (d->d_inode)
			STAT_ADD(fs->stats.hits, 1);
		else
			STAT_ADD(fs->stats.negative_hits, 1);
		return dget(d);
	}
	STAT_ADD(fs->stats.misses, 1);
	return NULL;
}

/* ---------------------------------------------------------------------------------
 * Names
 */

static void free_external_name(struct uvfs *fs, void *obj)
{
	struct external_name *n = obj;

	atomic_fetch_sub(&n->fs->stats.names, 1);
	atomic_fetch_sub(&n->fs->stats.name_bytes, (long)(sizeof(*n) + n->len + 1));
	atomic_fetch_sub(&uvfs_live.names, 1);
	/* Poison: a reader that outlived its grace period sees garbage, not a name. */
	memset(n->name, 0x6b, n->len);
	free(n);
}

static void free_external_name_rcu(struct rcu_head *head)
{
	struct external_name *n = container_of(head, struct external_name, head);
	struct uvfs *fs = n->fs;

	tsan_acquire(head);                 /* handed over by call_rcu */
	tsan_acquire(&rcu_readers_done);    /* after a grace period */
	free_external_name(fs, n);
	/* the last touch of the instance: uvfs_free may go on from here */
	atomic_fetch_sub_explicit(&fs->rcu_callbacks, 1, memory_order_release);
}

/* The last reference may go without ns_lock (a name snapshot's release): such a
 * name waits for its grace period alone, the others in the instance's batches. */
static void put_external_name(struct external_name *n)
{
	if (atomic_fetch_sub_explicit(&n->count, 1, memory_order_acq_rel) != 1)
		return;
	if (ns_locked(n->fs))
		defer_free(n->fs, n, free_external_name);
	else {
		atomic_fetch_add_explicit(&n->fs->rcu_callbacks, 1, memory_order_relaxed);
		tsan_release(&n->head);
		urcu_bp_call_rcu(&n->head, free_external_name_rcu);
	}
}

static struct external_name *alloc_external_name(struct uvfs *fs, const struct qstr *name)
{
	struct external_name *n = uvfs_malloc(sizeof(*n) + name->len + 1);

	if (!n)
		return NULL;
	atomic_init(&n->count, 1);
	n->len = name->len;
	n->fs = fs;
	n->id = ++fs->next_name_id;
	memcpy(n->name, name->name, name->len);
	n->name[name->len] = 0;
	atomic_fetch_add(&fs->stats.names, 1);
	atomic_fetch_add(&fs->stats.name_bytes, (long)(sizeof(*n) + name->len + 1));
	atomic_fetch_add(&uvfs_live.names, 1);
	return n;
}

/* Is a name of this length stored inline under the instance's personality? */
static inline bool name_fits_inline(const struct uvfs *fs, size_t len)
{
	return len < fs->abi->inline_len;
}

/*
 * copy_name - dentry takes target's name; target keeps its own (copy_name() since
 * 8d85b4845a66).  An inline name is copied; an external one is shared by taking a
 * reference: no allocation, so d_move cannot fail.
 */
static void copy_name(struct dentry *dentry, struct dentry *target)
{
	struct external_name *old = dname_external(dentry) ? external_name(dentry) : NULL;

	if (dname_external(target)) {
		atomic_fetch_add_explicit(&external_name(target)->count, 1, memory_order_relaxed);
		d_set_name_ptr(dentry, target->d_name.name);
	} else {
		memcpy(dentry->d_iname, target->d_iname, UVFS_DNAME_INLINE_LEN);
		d_set_name_ptr(dentry, dentry->d_iname);
	}
	WRITE_ONCE(dentry->d_name.hash_len, target->d_name.hash_len);
	if (old)
		put_external_name(old);
}

/*
 * swap_names - the two dentries trade names (swap_names() for RENAME_EXCHANGE; the
 * plain-rename behaviour of switch_names() in 3.15-3.16, and for external names up
 * to 3.17).  Ownership moves with the pointers: no reference count changes.
 */
static void swap_names(struct dentry *dentry, struct dentry *target)
{
	bool dext = dname_external(dentry), text = dname_external(target);
	struct qstr tmp;

	if (dext && text) {
		const unsigned char *p = dentry->d_name.name;

		d_set_name_ptr(dentry, target->d_name.name);
		d_set_name_ptr(target, p);
	} else if (text) {
		/* dentry inline, target external */
		d_set_name_ptr(dentry, target->d_name.name);
		memcpy(target->d_iname, dentry->d_iname, UVFS_DNAME_INLINE_LEN);
		d_set_name_ptr(target, target->d_iname);
	} else if (dext) {
		d_set_name_ptr(target, dentry->d_name.name);
		memcpy(dentry->d_iname, target->d_iname, UVFS_DNAME_INLINE_LEN);
		d_set_name_ptr(dentry, dentry->d_iname);
	} else {
		/* fixed-size copies: a few vector moves, no loop */
		unsigned char t[UVFS_DNAME_INLINE_LEN];

		memcpy(t, dentry->d_iname, sizeof(t));
		memcpy(dentry->d_iname, target->d_iname, sizeof(t));
		memcpy(target->d_iname, t, sizeof(t));
	}
	tmp = dentry->d_name;
	WRITE_ONCE(dentry->d_name.hash_len, target->d_name.hash_len);
	WRITE_ONCE(target->d_name.hash_len, tmp.hash_len);
}

void take_dentry_name_snapshot(struct name_snapshot *snap, const struct dentry *d)
{
	snap->name = d->d_name;
	if (dname_external(d)) {
		atomic_fetch_add(&external_name(d)->count, 1);
	} else {
		memcpy(snap->inline_name, d->d_iname, UVFS_DNAME_INLINE_LEN);
		snap->name.name = snap->inline_name;
	}
}

void release_dentry_name_snapshot(struct name_snapshot *snap)
{
	if (snap->name.name != snap->inline_name)
		put_external_name(container_of(snap->name.name, struct external_name, name));
}

/* ---------------------------------------------------------------------------------
 * Allocation and freeing
 */


/* Link d at the head of parent's children: tmpfs lists newest first (6.14+).
 * d_offset, the readdir position, is the filesystem's to assign. */
static void d_link_child(struct dentry *d, struct dentry *parent)
{
	cds_hlist_add_head(&d->d_sib, &parent->d_children);
}

/* A new dentry's name: inline, or external when the personality says it is too long
 * (the only allocation; false on ENOMEM, nothing changed). */
static bool d_init_name(struct uvfs *fs, struct dentry *d, const struct qstr *name)
{
	if (name_fits_inline(fs, name->len)) {
		memcpy(d->d_iname, name->name, name->len);
		d->d_iname[name->len] = 0;
		d->d_name.name = d->d_iname;
	} else {
		struct external_name *n = alloc_external_name(fs, name);

		if (!n)
			return false;
		d->d_name.name = n->name;
	}
	d->d_name.len = name->len;
	d->d_name.hash = name->hash;
	return true;
}

static struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name)
{
	struct uvfs *fs = sb->s_fs;
	struct dentry *d = kmem_cache_zalloc(fs->dentry_cache);

	if (!d)
		return NULL;
	if (!d_init_name(fs, d, name)) {
		kmem_cache_free(d);
		return NULL;
	}
	d->d_count = 1;
	d->d_parent = d;
	STAT_ADD(fs->stats.dentries, 1);
	fs->live_dentries++;
	return d;
}

static unsigned int d_type_flags(const struct inode *inode)
{
	unsigned int f = inode->i_op && inode->i_op->revalidate ? DCACHE_OP_REVALIDATE : 0;

	if ((inode->i_op && inode->i_op->permission) ||
	    (S_ISDIR(inode->i_mode) && !everyone_may_search(inode->i_mode)))
		f |= DCACHE_OP_PERMISSION;

	if (S_ISDIR(inode->i_mode))
		return f | DCACHE_DIRECTORY_TYPE;
	return f | (S_ISLNK(inode->i_mode) ? DCACHE_SYMLINK_TYPE : 0);
}

void d_update_search_check(struct dentry *d)
{
	unsigned int f = d_type_flags(d->d_inode) & DCACHE_OP_PERMISSION;

	assert(ns_locked(d_sb(d)->s_fs));
	if (f)
		d_flags_set(d, DCACHE_OP_PERMISSION);
	else
		d_flags_clear(d, DCACHE_OP_PERMISSION);
}

struct dentry *d_alloc(struct dentry *parent, const struct qstr *name)
{
	struct dentry *d = __d_alloc(d_sb(parent), name);

	if (!d)
		return NULL;
	d->d_parent = dget(parent);
	d_link_child(d, parent);
	return d;
}

/*
 * d_init_target / d_release_target - the negative dentry a plain rename moves onto
 * when nothing has the new name yet, in the caller's memory.
 *
 * The kernel allocates one (lookup_one_qstr_excl(): d_alloc() and shmem's
 * simple_lookup(), which hashes it negative), hands it to d_move(), which leaves it
 * unhashed, and frees it at the rename's dput() (always_delete_dentry).  Nobody else
 * ever holds it, and here nobody can even find it: the whole rename runs under
 * ns_lock and a lockless walk that misses the name gets the answer the negative
 * dentry would have given (->lookup_noent: ENOENT).  So uvfs builds it on the stack,
 * never hashes it, and skips the slab, the hash table and the grace period: it only
 * has to be a child of parent for __d_move(), with the name -- inline or external,
 * by the personality's rule -- the mover will take or trade.  What is observable is
 * unchanged: the mover's name and parent, the external names' references and ids.
 * false on ENOMEM (the external name), nothing changed.
 */
bool d_init_target(struct dentry *d, struct dentry *parent, const struct qstr *name)
{
	*d = (struct dentry){ .d_count = 1 };
	if (!d_init_name(d_sb(parent)->s_fs, d, name))
		return false;
	d->d_parent = dget(parent);
	d_link_child(d, parent);
	return true;
}

/* dentry_kill() of it: the parent it ended under (before 4.17 the mover's old one)
 * loses its child and reference, the name its reference. */
void d_release_target(struct dentry *d)
{
	struct dentry *parent = d->d_parent;

	assert(d_unhashed(d) && d_is_negative(d) && d->d_count == 1 && !d->d_children.next);
	cds_hlist_del(&d->d_sib);
	if (dname_external(d))
		put_external_name(external_name(d));
	dput(parent);
}

struct dentry *d_alloc_root(struct super_block *sb, struct inode *root_inode)
{
	static const struct qstr slash = QSTR_INIT("/", 1);
	struct dentry *d = __d_alloc(sb, &slash);

	if (d) {
		d->d_inode = root_inode;
		d_flags_set(d, d_type_flags(root_inode));
	}
	return d;
}

static void d_free(struct uvfs *fs, void *obj)
{
	struct dentry *d = obj;

	fs->live_dentries--;
	/* Poison, for a reader that outlived its grace period; the slab's free chain
	 * takes the first word anyway. */
	memset(d->d_iname, 0x6b, sizeof(d->d_iname));
	kmem_cache_free(d);
}

/* __dentry_kill: unhash, unlink from the parent, drop the inode and the name, free
 * after a grace period.  Returns the parent whose reference the caller must drop. */
static struct dentry *dentry_kill(struct uvfs *fs, struct dentry *d)
{
	struct dentry *parent = IS_ROOT(d) ? NULL : d->d_parent;
	struct inode *inode = d->d_inode;
	const struct inode *any = inode ? inode : parent ? parent->d_inode : NULL;

	assert(!d->d_children.next);
	if (any && any->i_sb->s_op->d_release)
		any->i_sb->s_op->d_release(d);
	d_flags_set(d, DCACHE_DEAD);
	d_drop(d);
	if (parent)
		cds_hlist_del(&d->d_sib);
	WRITE_ONCE(d->d_inode, NULL);
	d_flags_clear(d, DCACHE_ENTRY_TYPE | DCACHE_OP_MASK);
	if (inode) {
		/* dentry_unlink_inode(): the inode's last name went with this dentry */
		if (!inode->i_nlink)
			fsnotify_inoderemove(inode);
		iput(inode);
	}
	if (dname_external(d))
		put_external_name(external_name(d));
	STAT_ADD(fs->stats.dentries, -1);
	defer_free(fs, d, d_free);
	return parent;
}

void d_release_tree(struct dentry *root)
{
	struct uvfs *fs = d_sb(root)->s_fs;
	struct dentry *d = root;

	/* Post-order walk without recursion: descend to a leaf, free it, climb. */
	for (;;) {
		struct dentry *parent;

		while (d->d_children.next)
			d = cds_hlist_entry(d->d_children.next, struct dentry, d_sib);
		parent = d == root ? NULL : d->d_parent;
		if (parent)
			cds_hlist_del(&d->d_sib);
		d->d_count = 1;
		d_flags_clear(d, DCACHE_PINNED);
		d_drop(d);
		WRITE_ONCE(d->d_parent, d); /* dentry_kill must not touch the parent */
		dentry_kill(fs, d);
		if (!parent)
			return;
		d = parent;
	}
}

/* dput() of the last reference: retain_dentry() or kill, and so on up the parents
 * whose last reference the killed dentry held. */
void dput_last(struct dentry *d)
{
	for (;;) {
		assert(ns_locked(d_sb(d)->s_fs) && d->d_count == 0);
		/* retain_dentry(): keep hashed dentries cached unless the fs says no. */
		unsigned int sf = d_sb(d)->s_flags;

		if (!d_unhashed(d) && !(sf & SB_ALWAYS_DELETE) &&
		    !((sf & SB_NO_NEGATIVE) && d_is_negative(d)))
			return;
		d = dentry_kill(d_sb(d)->s_fs, d);
		if (!d || --d->d_count > 0)
			return;
	}
}

/* ---------------------------------------------------------------------------------
 * Instantiation and removal
 */

void d_instantiate(struct dentry *d, struct inode *inode)
{
	assert(d_is_negative(d));
	WRITE_ONCE(d->d_inode, inode);
	d_flags_set(d, d_type_flags(inode));
}

void d_add(struct dentry *d, struct inode *inode)
{
	if (inode)
		d_instantiate(d, inode);
	d_rehash(d);
}

void d_delete(struct dentry *d)
{
	/* Linux turns the dentry negative when the unlinker holds the only reference
	 * and unhashes it otherwise; tmpfs never keeps negative dentries, so either way
	 * nobody can see the name again.  We always unhash and keep the inode for the
	 * holders, which is what they observe in both cases. */
	d_drop(d);
}

void d_set_tmpfile_name(struct dentry *d, uint64_t ino)
{
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "#%llu", (unsigned long long)ino);

	/* d_mark_tmpfile(): the name fits inline in every era ("#" + 20 digits). */
	assert(!dname_external(d) && len < 32);
	memcpy(d->d_iname, buf, (size_t)len + 1);
	WRITE_ONCE(d->d_name.len, (uint32_t)len);
	d_flags_set(d, DCACHE_TMPFILE);
}

bool d_is_subdir(const struct dentry *d, const struct dentry *ancestor)
{
	for (;;) {
		if (d == ancestor)
			return true;
		if (IS_ROOT(d))
			return false;
		d = d->d_parent;
	}
}

/* ---------------------------------------------------------------------------------
 * d_move / d_exchange
 */

/* Move d from its parent's children to new_parent's, at the head (tmpfs 6.14+
 * readdir lists the children newest first, and a renamed entry counts as new). */
static void d_relink(struct dentry *d, struct dentry *new_parent)
{
	cds_hlist_del(&d->d_sib);
	WRITE_ONCE(d->d_parent, new_parent);
	d_link_child(d, new_parent);
}

/*
 * __d_move - the name/parent switch of a rename, after the filesystem did its part.
 * Reference counts on the parents: each parent holds one reference per child in
 * d_children.  A swap of parents keeps every count; the 4.17+ copy moves one
 * reference from old_parent to new_parent (dropped after the move, like the kernel's
 * dput(old_parent) at the end of __d_move()).
 */
static void __d_move(struct dentry *dentry, struct dentry *target, bool exchange)
{
	struct uvfs *fs = d_sb(dentry)->s_fs;
	const struct uvfs_abi *abi = fs->abi;
	struct dentry *old_parent = dentry->d_parent;
	struct dentry *new_parent = target->d_parent;
	struct dentry *put_parent = NULL;

	assert(ns_locked(fs));
	assert(dentry->d_inode && dentry != target);
	assert(!IS_ROOT(dentry) && !IS_ROOT(target));

	d_drop(dentry);
	d_drop(target);

	if (exchange) {
		swap_names(dentry, target);
		d_relink(target, old_parent);
		d_rehash(target);
	} else {
		if (abi_rename_copies_name(abi, !dname_external(dentry), !dname_external(target)))
			copy_name(dentry, target);
		else
			swap_names(dentry, target);
		if (abi->victim_keeps_parent) {
			/* 076515fc9267: the victim keeps its parent and place. */
			dget(new_parent);
			put_parent = old_parent;
		} else {
			/* Before 4.17 the parents were swapped: the victim now hangs under the
			 * mover's old directory and prints as such. */
			d_relink(target, old_parent);
		}
		/* target stays unhashed: d_unlinked(), "(deleted)" */
	}
	d_relink(dentry, new_parent);
	d_rehash(dentry);

	STAT_ADD(fs->stats.renames, 1);
	if (put_parent)
		dput(put_parent);
}

void d_move(struct dentry *dentry, struct dentry *target)
{
	__d_move(dentry, target, false);
}

void d_exchange(struct dentry *d1, struct dentry *d2)
{
	assert(d1->d_inode && d2->d_inode);
	__d_move(d1, d2, true);
}
