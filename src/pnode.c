// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pnode.c - mount propagation (fs/pnode.c; Documentation/filesystems/sharedsubtree.rst):
 * peer groups, masters and slaves, and what a mount or an unmount in one mount does
 * in the mounts that receive from it.
 *
 * A shared mount has a peer group id (mnt_group_id) and is on its group's ring
 * (mnt_share); what is mounted in one peer is mounted in every peer, and in every
 * slave of the group.  A slave has a master (mnt_master), a mount of the group it
 * receives from, and is on that mount's mnt_slave_list; a slave may be shared too
 * (then it passes on what it receives to its own peers and slaves).  All peers of a
 * group have masters in one group, so "the group a group receives from" is any
 * member's master's.
 *
 * Locking: every field this file reads or writes is under uvfs.ns_lock (each caller
 * holds it for its whole call: mount.c's task_enter()).  mnt_mark is scratch of one
 * call, 0 between calls: MARK_SEEN a group met in a walk of the groups, MARK_UMOUNT
 * a mount an unmount takes, MARK_FRESH a moved mount whose group is new.
 */
#include <sys/mount.h>

#include "ida.h"
#include "mount.h"

#define MARK_SEEN   0x1
#define MARK_UMOUNT 0x2
#define MARK_FRESH  0x4   /* given its group for the propagation under way */

/* A growable array of mounts (a walk's result) */
struct mvec {
	struct mount **v;
	int n, cap;
};

static int mvec_push(struct mvec *a, struct mount *m)
{
	if (a->n == a->cap) {
		int cap = a->cap ? a->cap * 2 : 16;
		struct mount **v = uvfs_realloc(a->v, (size_t)cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = m;
	return 0;
}

static bool same_group(const struct mount *a, const struct mount *b)
{
	return a == b || (a->mnt_group_id && a->mnt_group_id == b->mnt_group_id);
}

/* The slave groups below group g (each whole, its ring from the member met first),
 * depth first: every group of slaves of a member of g, then that group's own slaves
 * -- the groups propagate_mnt()'s next_group() goes through.  mnt_mark keeps a
 * group met twice (slaves of two peers) from being listed twice. */
static int collect_slave_groups(struct mvec *a, struct mount *g)
{
	struct mount *p = g;

	do {
		struct mount *s;

		cds_list_for_each_entry(s, &p->mnt_slave_list, mnt_slave) {
			struct mount *q = s;
			int err;

			if (s->mnt_mark & MARK_SEEN)
				continue;
			do {
				q->mnt_mark |= MARK_SEEN;
				if ((err = mvec_push(a, q)))
					return err;
				q = next_peer(q);
			} while (q != s);
			if ((err = collect_slave_groups(a, s)))
				return err;
		}
		p = next_peer(p);
	} while (p != g);
	return 0;
}

/* Every mount that receives from dest, in the kernel's order: dest's peers after
 * dest around the ring, then the groups of slaves; none if dest is not shared (a
 * private mount has no slaves, a mere slave passes nothing on).  0 or -ENOMEM. */
static int propagation_targets(struct mount *dest, struct mvec *a)
{
	struct mount *p;
	int err = 0;

	a->n = 0;
	if (!IS_MNT_SHARED(dest))
		return 0;
	for (p = next_peer(dest); p != dest && !err; p = next_peer(p))
		err = mvec_push(a, p);
	if (!err)
		err = collect_slave_groups(a, dest);
	for (int i = 0; i < a->n; i++)
		a->v[i]->mnt_mark &= ~MARK_SEEN;
	return err;
}

/* do_make_slave(): m leaves its peer group for a slave of one of its former peers
 * (one with the same root if there is one: it sees the same files), or, alone in its
 * group, stays the slave of its master if it has one; its own slaves go to that new
 * master -- or, when there is none, become private. */
static void do_make_slave(struct uvfs *fs, struct mount *m)
{
	struct mount *master, *s, *tmp;

	if (cds_list_empty(&m->mnt_share)) {
		if (IS_MNT_SHARED(m)) {
			ida_free(&fs->mnt_group_ids, m->mnt_group_id);  /* the last of its group */
			m->mnt_group_id = 0;
		}
		master = m->mnt_master;
		if (!master) {
			cds_list_for_each_entry_safe(s, tmp, &m->mnt_slave_list, mnt_slave) {
				s->mnt_master = NULL;
				cds_list_del_init(&s->mnt_slave);
			}
			return;
		}
	} else {
		master = next_peer(m);
		for (struct mount *p = master; p != m; p = next_peer(p))
			if (p->mnt_root == m->mnt_root) {
				master = p;
				break;
			}
		cds_list_del_init(&m->mnt_share);
		m->mnt_group_id = 0;
	}
	cds_list_for_each_entry(s, &m->mnt_slave_list, mnt_slave)
		s->mnt_master = master;
	cds_list_del(&m->mnt_slave);
	cds_list_add(&m->mnt_slave, &master->mnt_slave_list);
	cds_list_splice(&m->mnt_slave_list, master->mnt_slave_list.prev);
	CDS_INIT_LIST_HEAD(&m->mnt_slave_list);
	m->mnt_master = master;
}

void change_mnt_propagation(struct uvfs *fs, struct mount *m, unsigned long type)
{
	if (type == MS_SHARED) {
		assert(IS_MNT_SHARED(m));  /* invent_group_ids() gave it one */
		WRITE_ONCE(m->mnt_flags, m->mnt_flags & ~MNT_UNBINDABLE);  /* set_mnt_shared() */
		return;
	}
	do_make_slave(fs, m);
	if (type == MS_SLAVE)
		return;
	cds_list_del_init(&m->mnt_slave);
	m->mnt_master = NULL;
	if (type == MS_UNBINDABLE)
		WRITE_ONCE(m->mnt_flags, m->mnt_flags | MNT_UNBINDABLE);
	else
		WRITE_ONCE(m->mnt_flags, m->mnt_flags & ~MNT_UNBINDABLE);
}

/* Take back the group ids give_group_ids() gave (nobody joined those groups yet) */
static void take_group_ids(struct uvfs *fs, struct mount **v, int n, const bool *given)
{
	for (int i = 0; i < n; i++)
		if (given[i]) {
			ida_free(&fs->mnt_group_ids, v[i]->mnt_group_id);
			v[i]->mnt_group_id = 0;
		}
}

/* A group id for each of v[0..n) that has none; -ENOMEM with none given.  given[i]
 * says which got one. */
static int give_group_ids(struct uvfs *fs, struct mount **v, int n, bool *given)
{
	for (int i = 0; i < n; i++) {
		int id;

		given[i] = false;
		if (IS_MNT_SHARED(v[i]))
			continue;
		id = ida_alloc_min(&fs->mnt_group_ids, 1);
		if (id < 0) {
			take_group_ids(fs, v, i, given);
			return -ENOMEM;
		}
		v[i]->mnt_group_id = id;
		given[i] = true;
	}
	return 0;
}

int invent_group_ids(struct uvfs *fs, struct mount *m, bool recurse)
{
	struct mvec a = { 0 };
	bool *given = NULL;
	int err = 0;

	for (struct mount *c = m; c && !err; c = recurse ? next_mnt(c, m) : NULL)
		err = mvec_push(&a, c);
	if (!err) {
		given = uvfs_malloc((size_t)a.n * sizeof(*given));
		err = given ? give_group_ids(fs, a.v, a.n, given) : -ENOMEM;
	}
	free(given);
	free(a.v);
	return err;
}

/* A copy of the set of mounts origin->dst (a tree not yet attached, or being moved)
 * for a propagation: each dst[i] cloned with flags, in the same shape. */
static int clone_copies(struct uvfs *fs, const struct mnt_copies *origin, unsigned int flags,
			struct mnt_copies *c)
{
	int n = origin->n;

	memset(c, 0, sizeof(*c));
	c->src = uvfs_malloc((size_t)n * sizeof(*c->src));
	c->dst = uvfs_malloc((size_t)n * sizeof(*c->dst));
	c->up = uvfs_malloc((size_t)n * sizeof(*c->up));
	if (!c->src || !c->dst || !c->up)
		goto enomem;
	for (int i = 0; i < n; i++) {
		struct mount *old = origin->dst[i];

		c->dst[i] = clone_mnt(fs, old, old->mnt_root, flags);
		if (!c->dst[i])
			goto enomem;
		c->src[i] = origin->src[i];
		c->up[i] = origin->up[i];
		c->n = i + 1;
	}
	return 0;
enomem:
	drop_copies(c);
	return -ENOMEM;
}

/* One propagated copy of the source: the mount it goes in and the copies. */
struct prop_copy {
	struct mount *target;
	struct mnt_copies c;
};

/* The copies made so far for x's group, the latest, or NULL */
static const struct mnt_copies *latest_copy(const struct prop_copy *pc, int n,
					    const struct mount *x)
{
	while (n-- > 0)
		if (same_group(pc[n].target, x))
			return &pc[n].c;
	return NULL;
}

/* IS_MNT_SHARED() as the kernel's flag says it during a propagation: a moved tree's
 * mounts given their groups for it are not shared yet */
static bool shared_now(const struct mount *m)
{
	return IS_MNT_SHARED(m) && !(m->mnt_mark & MARK_FRESH);
}

/*
 * propagate_mnt(): for each mount m that receives from dest and sees mp (the
 * mountpoint is under m's root), a copy of the source tree, made but not attached.
 * The copy in a peer of dest joins the source's peer groups; in a slave group, the
 * first copy is a slave of the copy in the group m receives from (or, if that group
 * saw no copy, the nearest one above that did: propagate_one()'s last_source), and
 * shared in a new group of its own if m is shared, the later copies of that group
 * its peers.  Counted against each namespace's fs.mount-max.
 */
static int propagate_mnt(struct uvfs *fs, struct mount *dest, struct dentry *mp,
			 struct mnt_copies *source, struct prop_copy **out, int *nout)
{
	struct mvec t = { 0 };
	struct prop_copy *pc = NULL;
	int n = 0, err = propagation_targets(dest, &t);

	if (err)
		goto out;
	pc = uvfs_zalloc((size_t)(t.n ? t.n : 1) * sizeof(*pc));
	if (!pc) {
		err = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < t.n; i++) {
		struct mount *m = t.v[i], *a;
		const struct mnt_copies *origin = NULL;
		unsigned int flags;

		/* copies made in this call are not attached yet (IS_MNT_NEW()); a mount
		 * that does not see the mountpoint gets nothing */
		if (!m->mnt_ns || is_anon_ns(m->mnt_ns) || !is_subdir(mp, m->mnt_root))
			continue;
		/* a copy in a group that already has one is made from the latest of
		 * them (its peer, after it in the ring, as the kernel's ring has them in
		 * the order made); the first of a slave group is a slave of the latest
		 * copy in the nearest group above that has one (propagate_one()'s
		 * last_source).  A mount of a tree being moved, shared only once the
		 * propagation is done (MARK_FRESH), makes no group of its own. */
		flags = CL_MAKE_SHARED;
		if (same_group(m, dest) || (shared_now(m) && latest_copy(pc, n, m)))
			origin = latest_copy(pc, n, m) ?: source;
		for (a = m->mnt_master; !origin && a; a = a->mnt_master) {
			origin = latest_copy(pc, n, a) ?: (same_group(a, dest) ? source : NULL);
			flags = CL_SLAVE | (shared_now(m) ? CL_MAKE_SHARED : 0);
		}
		if (!origin)
			origin = source;  /* not reached: m was found below dest */
		err = clone_copies(fs, origin, flags, &pc[n].c);
		if (err)
			goto out;
		pc[n++].target = m;
		/* propagate_one()'s count_mounts(): the namespace's mounts, those
		 * counted for it in this call, and these */
		err = count_mounts(fs, m->mnt_ns, m->mnt_ns->nr_pending + (unsigned int)pc[n - 1].c.n);
		if (err)
			goto out;
		m->mnt_ns->nr_pending += (unsigned int)pc[n - 1].c.n;
	}
out:
	for (int k = 0; k < n; k++)
		pc[k].target->mnt_ns->nr_pending = 0;
	if (err) {
		/* the later copies first: a copy may be the master of a later one */
		while (n > 0)
			drop_copies(&pc[--n].c);
		free(pc);
		pc = NULL;
	}
	free(t.v);
	*out = pc;
	*nout = n;
	return err;
}

/* the mount is put off its place onto (parent, mp), held meanwhile */
static void mnt_reattach(struct uvfs *fs, struct mount *m, struct mount *parent,
			 struct dentry *mp)
{
	m->mnt_count++;
	mnt_disconnect(fs, m);
	mnt_attach_to(fs, m, parent, mp);
	m->mnt_count--;
}

bool propagation_would_overmount(const struct mount *from, const struct mount *to,
				 const struct dentry *mp)
{
	if (!IS_MNT_SHARED(from))
		return false;
	/* IS_MNT_NEW(): not attached in a namespace yet */
	if (!to->mnt_ns || is_anon_ns(to->mnt_ns))
		return false;
	if (to->mnt_root != mp)
		return false;
	for (const struct mount *m = to; m; m = m->mnt_master)
		if (m->mnt_group_id == from->mnt_group_id)
			return true;
	return false;
}

int attach_recursive_mnt(struct uvfs *fs, struct mnt_copies *src, struct mount *dest,
			 struct dentry *mp, bool moving, struct mount *beneath)
{
	struct mount *top = src->dst[0];
	struct mnt_namespace *ns = dest->mnt_ns;
	struct prop_copy *pc = NULL;
	struct dentry **mps = NULL;
	bool *given = NULL;
	/* is there room for the source in the namespace (moved within it: yes; a
	 * detached tree comes from a namespace of its own) */
	bool counted = !moving || src->dst[0]->mnt_ns != ns;
	int n = 0, nsrc, err;

	assert(ns_locked(fs));
	if (counted) {
		err = count_mounts(fs, ns, (unsigned int)src->n);
		if (err)
			return err;
	}
	err = -ENOMEM;
	mps = uvfs_malloc((size_t)src->n * sizeof(*mps));
	if (!mps)
		goto fail;
	if (IS_MNT_SHARED(dest)) {
		/* mounted in a shared mount, the source tree is shared: a group for
		 * each of its mounts in none (invent_group_ids()) */
		given = uvfs_malloc((size_t)src->n * sizeof(*given));
		if (!given)
			goto fail;
		err = give_group_ids(fs, src->dst, src->n, given);
		if (err)
			goto fail;
		/* the source counts in its namespace while the copies are counted */
		ns->nr_pending = counted ? (unsigned int)src->n : 0;
		for (int i = 0; i < src->n; i++)
			if (given[i])
				src->dst[i]->mnt_mark |= MARK_FRESH;
		err = propagate_mnt(fs, dest, mp, src, &pc, &n);
		for (int i = 0; i < src->n; i++)
			src->dst[i]->mnt_mark &= ~MARK_FRESH;
		ns->nr_pending = 0;
		if (err) {
			take_group_ids(fs, src->dst, src->n, given);
			goto fail;
		}
	}
	/* nothing fails from here.  The places of the source's mounts below its top
	 * are taken first: a copy tucked under a mount there may move one of them (a
	 * bind's original), whose copies still go where it was */
	nsrc = src->n;
	for (int i = 1; i < nsrc; i++)
		mps[i] = dget(src->src[i]->mnt_mountpoint);
	if (moving) {
		mnt_disconnect(fs, src->dst[0]);
		mnt_attach_to(fs, src->dst[0], dest, mp);
	} else {
		attach_set(fs, src, dest, mp, mps);
	}
	for (int k = 0; k < n; k++) {
		struct mount *m = pc[k].target;
		/* what m already has mounted there goes on the copy's root: the copy is
		 * tucked under it, not stacked on it (commit 1064f874abc0, "mnt: Tuck
		 * mounts under others instead of creating shadow/side mounts") */
		struct mount *q = lookup_mnt(fs, m, mp), *ctop = pc[k].c.dst[0];

		attach_set(fs, &pc[k].c, m, mp, mps);
		drop_copies(&pc[k].c);  /* the arrays */
		if (q)
			mnt_reattach(fs, q, ctop, ctop->mnt_root);
	}
	/* MOVE_MOUNT_BENEATH: the mount that was on (dest, mp) goes on the source's root
	 * (mnt_set_mountpoint_beneath(): the source took its place, it takes the top) */
	if (beneath)
		mnt_reattach(fs, beneath, top, top->mnt_root);
	for (int i = 1; i < nsrc; i++)
		dput(mps[i]);
	src->n = 0;
	free(mps);
	free(pc);
	free(given);
	return 0;
fail:
	free(mps);
	free(given);
	return err;
}

/* find_topper(): the one mount on m, if it covers m's root */
static struct mount *find_topper(struct mount *m)
{
	struct mount *c;

	if (cds_list_empty(&m->mnt_mounts) || m->mnt_mounts.next->next != &m->mnt_mounts)
		return NULL;
	c = cds_list_first_entry(&m->mnt_mounts, struct mount, mnt_child);
	return c->mnt_mountpoint == m->mnt_root ? c : NULL;
}

int propagate_mount_busy(struct uvfs *fs, struct mount *m, long refs)
{
	struct mount *parent = m->mnt_parent;
	struct mvec t = { 0 };
	int busy = 0;

	if (!cds_list_empty(&m->mnt_mounts) || m->mnt_count > refs)
		return 1;
	if (parent == m)
		return 0;
	if (propagation_targets(parent, &t))
		return -ENOMEM;
	for (int i = 0; i < t.n && !busy; i++) {
		struct mount *c = lookup_mnt(fs, t.v[i], m->mnt_mountpoint), *top;

		if (!c || c == m)
			continue;
		/* a copy with something on it is not unmounted (but one with only a
		 * mount tucked on its root is: that one goes back to its place) */
		top = find_topper(c);
		if (!top && !cds_list_empty(&c->mnt_mounts))
			continue;
		busy = c->mnt_count > (top ? 1 : 0);
	}
	free(t.v);
	return busy;
}

/* Is a mount of the tree below m (m too) attached in a shared mount? */
static bool tree_in_shared(struct mount *m)
{
	for (struct mount *c = m; c; c = next_mnt(c, m))
		if (c->mnt_parent != c && IS_MNT_SHARED(c->mnt_parent))
			return true;
	return false;
}

/* A mount that stays (not MARK_UMOUNT) covering c's root, or NULL */
static struct mount *staying_topper(struct mount *c)
{
	struct mount *ch;

	cds_list_for_each_entry(ch, &c->mnt_mounts, mnt_child)
		if (!(ch->mnt_mark & MARK_UMOUNT) && ch->mnt_mountpoint == c->mnt_root)
			return ch;
	return NULL;
}

/* May c, a copy at the place of a mount going, go too?  Everything mounted on it
 * goes, save one mount on its root; and nothing that stays would be put back on it
 * (a mount staying on the root of a child of it that goes) -- unless that child is
 * on c's own root, when what stays slides below both (trim_ancestors() stops at an
 * overmount) */
static bool umount_candidate(struct mount *c)
{
	struct mount *ch, *top = NULL;

	cds_list_for_each_entry(ch, &c->mnt_mounts, mnt_child) {
		if (ch->mnt_mark & MARK_UMOUNT) {
			if (staying_topper(ch) && ch->mnt_mountpoint != c->mnt_root)
				return false;
			continue;
		}
		if (top || ch->mnt_mountpoint != c->mnt_root)
			return false;
		top = ch;
	}
	return true;
}

int umount_propagated(struct uvfs *fs, struct mount *m)
{
	struct mvec u = { 0 }, t = { 0 }, tops = { 0 }, roots = { 0 };
	bool changed = true;
	int err = 0;

	assert(ns_locked(fs));
	/* nothing goes anywhere from a private parent: no allocation, no ENOMEM, for
	 * every unmount outside shared subtrees (the kernel's unmounts allocate
	 * nothing; these do only where propagation is) */
	if (!tree_in_shared(m)) {
		umount_tree(fs, m);
		return 0;
	}
	for (struct mount *c = m; c && !err; c = next_mnt(c, m)) {
		err = mvec_push(&u, c);
		c->mnt_mark |= MARK_UMOUNT;
	}
	/*
	 * propagate_umount(): for each mount going, the mount at its place in each
	 * mount that receives from its parent goes too if nothing but what goes is
	 * mounted on it -- except one mount covering its root, which stays and is put
	 * back where the copy was -- and nothing that stays is mounted below it (a
	 * covered copy's parent keeps its place: trim_ancestors()).  Until nothing
	 * more can go: marks are only added, so a copy refused in one round may go
	 * in the next, once what is on it goes.
	 */
	while (changed && !err) {
		changed = false;
		for (int i = 0; i < u.n && !err; i++) {
			struct mount *x = u.v[i], *p = x->mnt_parent;

			if (p == x || !IS_MNT_SHARED(p))
				continue;
			if ((err = propagation_targets(p, &t)))
				break;
			for (int k = 0; k < t.n && !err; k++) {
				struct mount *c = lookup_mnt(fs, t.v[k], x->mnt_mountpoint);

				if (!c || (c->mnt_mark & MARK_UMOUNT) || !umount_candidate(c))
					continue;
				c->mnt_mark |= MARK_UMOUNT;
				changed = true;
				err = mvec_push(&u, c);
			}
		}
	}
	/* the tops of what goes, and the mounts that stay on a root going */
	for (int i = 0; i < u.n && !err; i++) {
		struct mount *x = u.v[i], *top = staying_topper(x);

		if (x->mnt_parent == x || !(x->mnt_parent->mnt_mark & MARK_UMOUNT))
			err = mvec_push(&roots, x);
		if (!err && top)
			err = mvec_push(&tops, top);
	}
	if (!err) {
		/* each mount that stays goes on the place of the lowest of the mounts
		 * going beneath it (reparent()): their parent's, or further down if
		 * that parent goes too */
		for (int i = 0; i < tops.n; i++) {
			struct mount *top = tops.v[i], *c = top->mnt_parent, *p;
			struct dentry *mp = c->mnt_mountpoint;

			for (p = c->mnt_parent; (p->mnt_mark & MARK_UMOUNT) && p->mnt_parent != p;
			     p = p->mnt_parent)
				mp = p->mnt_mountpoint;
			mp = dget(mp);
			p->mnt_count++;
			top->mnt_count++;
			mnt_disconnect(fs, top);
			mnt_attach_to(fs, top, p, mp);
			top->mnt_count--;
			mntput(p);
			dput(mp);
		}
	}
	for (int i = 0; i < u.n; i++)
		u.v[i]->mnt_mark = 0;
	if (!err)
		for (int i = 0; i < roots.n; i++)
			umount_tree(fs, roots.v[i]);
	free(u.v);
	free(t.v);
	free(tops.v);
	free(roots.v);
	return err;
}

/* get_peer_under_root(): a peer of m (m too) in namespace ns that root reaches */
static const struct mount *get_peer_under_root(const struct mount *m,
					       const struct mnt_namespace *ns,
					       const struct path *root)
{
	const struct mount *p = m;

	do {
		if (p->mnt_ns == ns && is_path_reachable(p, p->mnt_root, root))
			return p;
		p = next_peer(p);
	} while (p != m);
	return NULL;
}

int get_dominating_id(const struct mount *m, const struct path *root)
{
	for (const struct mount *a = m->mnt_master; a; a = a->mnt_master) {
		const struct mount *d = get_peer_under_root(a, m->mnt_ns, root);

		if (d)
			return d->mnt_group_id;
	}
	return 0;
}

int do_set_group(struct mount *from, struct mount *to)
{
	/* one superblock, to's root under from's, to private, from not */
	if (from->mnt_sb != to->mnt_sb || !is_subdir(to->mnt_root, from->mnt_root))
		return -EINVAL;
	if (IS_MNT_SHARED(to) || IS_MNT_SLAVE(to))
		return -EINVAL;
	if (!IS_MNT_SHARED(from) && !IS_MNT_SLAVE(from))
		return -EINVAL;
	if (IS_MNT_SLAVE(from)) {
		cds_list_add(&to->mnt_slave, &from->mnt_slave);
		to->mnt_master = from->mnt_master;
	}
	if (IS_MNT_SHARED(from)) {
		to->mnt_group_id = from->mnt_group_id;
		cds_list_add(&to->mnt_share, &from->mnt_share);
		WRITE_ONCE(to->mnt_flags, to->mnt_flags & ~MNT_UNBINDABLE);
	}
	return 0;
}
