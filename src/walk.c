// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * walk.c - the path walk (fs/namei.c's link_path_walk, walk_component, step_into,
 * pick_link, follow_dotdot): one loop and one per-component step, which decide every
 * errno of every walk, in two modes, as the kernel's walk has LOOKUP_RCU:
 *
 *   - lockless (stat_rcu, readlink_rcu): no ns_lock, not a single reference taken.
 *     Whatever it cannot decide by reading alone (a name a filesystem makes on
 *     demand, a stale entry, a magic link, a changed ns_seq) is -ECHILD, and the
 *     caller asks again under ns_lock -- the kernel's fall back to ref-walk;
 *   - locked (path_parentat, filename_lookup, the trailing symlinks of open, all of
 *     namei.c): under ns_lock.  It decides everything: it calls ->lookup, drops stale
 *     entries, jumps through magic links.  It holds no reference on what it passes
 *     through either: a dentry dies only in dput_last(), under ns_lock, so none can go
 *     while the walk runs; the answer is referenced at the end (nd_from_walk, the
 *     kernel's legitimize_path()).  A dentry ->lookup makes is left in the cache
 *     (retain_dentry()), so the walk may put its reference at once.
 *
 * Locking and lifetimes in the lockless mode:
 *
 *   what the walk reads               why it is still there
 *   --------------------------------  -------------------------------------------
 *   dentries, external names           freed after a grace period (rcu_defer.c)
 *   inodes and their fs parts, bodies  the same (inode.c, ->free_inode)
 *   the hash table                     the old one freed by call_rcu when it grows
 *   mounts, the mount hash table       freed after a grace period (namespace.c)
 *   the task's root and cwd            its fs_struct: freed after a grace period
 *                                      (task.c; unshare(CLONE_FS) replaces it)
 *   other tasks (/proc/PID)            freed after a grace period (task.c)
 *   fd arrays, open files              the same (file.c: fdget_rcu)
 *
 * Nothing here is protected by a lock: a writer may change any field while we read
 * it.  What makes the result right is uvfs.ns_seq, which every holder of ns_lock
 * makes odd on entry and even on exit (internal.h): the walk samples it (even) before
 * it starts and checks it is unchanged after it has copied out what it returns, so
 * whatever it read, torn or not, belonged to one state that no writer was changing
 * -- the result is what the locked walk would have given at that instant.  With only
 * one thread in the instance the lockless walk always succeeds.
 *
 * Only filesystems that set SB_RCU_WALK are walked without the lock: memfs, whose
 * dcache holds every name (a miss is the answer, ->lookup_noent), and procfs, whose
 * cached entries revalidate with LOOKUP_RCU (a miss takes the lock, which makes the
 * entry).  Reading their inodes has no side effects.
 *
 * parent_walk_plain() (below) goes in front of the locked parent walk for the
 * commonest shape; it decides nothing (it gives up on anything but plain names of
 * plain directories), so every answer still comes from walk_component().
 */
#include "d_path.h"
#include "dcache.h"
#include "inode.h"
#include "namehash.h"
#include "namei.h"
#include "rcu_defer.h"
#include "task.h"


struct walk {
	struct uvfs *fs;
	const struct uvfs_task *task;  /* the walker (procfs's "self") */
	struct mount *mnt;           /* where the walk stands */
	struct dentry *dentry;
	struct mount *root_mnt;      /* the task's root */
	struct dentry *root_dentry;
	unsigned int flags;          /* LOOKUP_FOLLOW / LOOKUP_DIRECTORY, openat2's LOOKUP_RESOLVE */
	int links;                   /* symlinks followed (MAXSYMLINKS) */
	const unsigned char *end;    /* where the last link_path_walk() to succeed stopped */
	/* Under ns_lock (parent_walk_locked, path_walk_locked, nd_pick_link, ...): every
	 * filesystem may be walked, ->revalidate may act, ->lookup and ->get_magic be
	 * called; nothing is -ECHILD. */
	bool locked;
	/* parent_walk_locked(): stop before the walk's last component, and say what it is */
	bool parent;
	const unsigned char *last;
	uint32_t last_len, last_hash;
	enum last_type last_type;
	bool last_slash;
	/* nd_pick_link(): a trailing symlink's body is not walked but handed back here
	 * (open walks it to its parent, to create there) */
	bool want_body;
	const char *body;
};

static int link_path_walk(struct walk *nd, const char *path, bool final);

/* d_sb(d) allows this walk; d_sb() without trusting d_inode to stay put. */
lockless_read
static bool walk_allowed(const struct walk *nd, const struct dentry *d)
{
	const struct inode *inode = READ_ONCE(d->d_inode);

	if (nd->locked)
		return true;
	if (!inode)
		inode = READ_ONCE(READ_ONCE(d->d_parent)->d_inode);
	return inode && (READ_ONCE(inode->i_sb->s_flags) & SB_RCU_WALK);
}

/*
 * Does d's name equal the len bytes at name (a component of the path, which goes on
 * readably: load_path_word)?  An inline name sits in an array of
 * UVFS_DNAME_INLINE_LEN bytes, so it is compared a word at a time like the kernel's
 * dentry_cmp(); an external one with memcmp.
 */
lockless_read
static inline __attribute__((always_inline)) bool dname_equal(const struct dentry *d, const unsigned char *name, uint32_t len)
{
	const unsigned char *dn = READ_ONCE(d->d_name.name);

	if (__builtin_expect(dn != d->d_iname, 0)) {
#ifndef UVFS_TSAN
		return !memcmp(dn, name, len);
#else
		/* TSan's memcmp interceptor watches the bytes whatever lockless_read
		 * says: the same comparison in a loop it does not */
		for (; len; len--, dn++, name++)
			if (*dn != *name)
				return false;
		return true;
#endif
	}
	if (len >= UVFS_DNAME_INLINE_LEN)
		return false; /* torn: the walk's ns_seq check throws it away */
	for (; len >= 8; len -= 8, dn += 8, name += 8)
		if (*(const unaligned_u64 *)dn != load_path_word(name))
			return false;
	return !((*(const unaligned_u64 *)dn ^ load_path_word(name)) & ((1ull << (8 * len)) - 1));
}

_Static_assert(UVFS_DNAME_INLINE_LEN % 8 == 0, "dname_equal reads inline names in words");

/* __d_lookup_rcu(): hash and length compared at once, then the parent, then bytes. */
lockless_read
static inline __attribute__((always_inline)) struct dentry *d_lookup_rcu(const struct dcache_buckets *t,
					  const struct dentry *parent,
					  const unsigned char *name, uint64_t hash_len)
{
	struct cds_hlist_node *pos;

	for (pos = rcu_dereference(t->b[d_hash_index(parent, (uint32_t)hash_len) & t->mask].next);
	     pos; pos = rcu_dereference(pos->next)) {
		struct dentry *d = container_of(pos, struct dentry, d_hash);

		if (READ_ONCE(d->d_name.hash_len) != hash_len || READ_ONCE(d->d_parent) != parent)
			continue;
		if (!dname_equal(d, name, HASH_LEN_LEN(hash_len)))
			continue;
		/* The caller checks DCACHE_HASHED: one that is not (a dead dentry never
		 * is) can only be on the chain while a writer works on it, so the walk
		 * will fail its ns_seq check anyway. */
		return d;
	}
	return NULL;
}

/* follow_mounts() without references.  A mount may put another filesystem here: it
 * must let itself be walked lockless too. */
lockless_read
static int handle_mounts(struct walk *nd)
{
	while (READ_ONCE(nd->dentry->d_flags) & DCACHE_MOUNTED) {
		struct mount *found = lookup_mnt(nd->fs, nd->mnt, nd->dentry);

		if (!found)
			break;
		if (nd->flags & LOOKUP_NO_XDEV)
			return -EXDEV;  /* traverse_mounts() */
		nd->mnt = found;
		nd->dentry = READ_ONCE(found->mnt_root);
		if (!walk_allowed(nd, nd->dentry))
			return -ECHILD;
	}
	return 0;
}

/* path_connected(): only a bind mount (its root below the filesystem's) can have a
 * directory moved out from under its root, which has no way up through it: 1, 0,
 * or -ECHILD for a lockless walk that climbed too long (a rename mid-walk) */
lockless_read
static int path_connected(const struct walk *nd, const struct mount *m, const struct dentry *d)
{
	const struct dentry *root = READ_ONCE(m->mnt_root);

	if (root == READ_ONCE(m->mnt_sb)->s_root)
		return 1;
	for (int steps = 0; steps < UVFS_PATH_MAX; steps++) {
		const struct dentry *up;

		if (d == root)
			return 1;
		up = READ_ONCE(d->d_parent);
		if (up == d)
			return 0;
		d = up;
	}
	return nd->locked ? 0 : -ECHILD;
}

lockless_read
static int follow_dotdot(struct walk *nd)
{
	int connected;

	for (;;) {
		struct mount *m = nd->mnt;

		/* at the task's or the namespace's root: stay, onto its mounts
		 * (follow_dotdot()'s in_root; RESOLVE_BENEATH may not be there) */
		if ((nd->dentry == nd->root_dentry && m == nd->root_mnt) ||
		    (nd->dentry == READ_ONCE(m->mnt_root) && READ_ONCE(m->mnt_parent) == m))
			return nd->flags & LOOKUP_BENEATH ? -EXDEV : handle_mounts(nd);
		if (nd->dentry != READ_ONCE(m->mnt_root))
			break;
		nd->dentry = READ_ONCE(m->mnt_mountpoint);
		nd->mnt = READ_ONCE(m->mnt_parent);
		if (!walk_allowed(nd, nd->dentry))
			return -ECHILD;
		if (nd->flags & LOOKUP_NO_XDEV)
			return -EXDEV;  /* up through a mount */
	}
	nd->dentry = READ_ONCE(nd->dentry->d_parent);
	/* follow_dotdot(): a parent outside a bind mount's root is ENOENT */
	connected = path_connected(nd, nd->mnt, nd->dentry);
	if (connected <= 0)
		return connected < 0 ? connected : -ENOENT;
	return handle_mounts(nd);
}

lockless_read
static bool is_dir(const struct dentry *d)
{
	return READ_ONCE(d->d_flags) & DCACHE_DIRECTORY_TYPE;
}

/* ->revalidate of a cached dentry the walk is about to use: valid as it is? */
lockless_read
static inline bool d_revalidate(const struct walk *nd, struct dentry *d)
{
	struct inode *inode = READ_ONCE(d->d_inode);

	/* a negative dentry that says it may be stale (hostfs keeps them): its
	 * directory's filesystem answers */
	if (!inode)
		inode = READ_ONCE(READ_ONCE(d->d_parent)->d_inode);
	return inode && inode->i_op->revalidate &&
	       inode->i_op->revalidate(d, nd->locked ? 0 : LOOKUP_RCU) > 0;
}

/*
 * A name the dcache does not have, or had only stale: the filesystem's answer
 * (lookup_fast() missed, lookup_slow()).  Where its dcache is complete
 * (->lookup_noent) that answer needs no dentry, and the lockless walk gives it too;
 * otherwise ->lookup makes the dentry, under ns_lock only.  0 with *found positive,
 * or -errno.
 */
lockless_read
static int lookup_miss(const struct walk *nd, struct dentry *dir, const unsigned char *name,
		       uint64_t hash_len, struct dentry **found)
{
	struct inode *dinode = READ_ONCE(dir->d_inode);
	const struct inode_operations *iop;
	struct qstr q = { .hash = (uint32_t)hash_len, .len = HASH_LEN_LEN(hash_len), .name = name };
	struct dentry *d;

	if (!dinode)
		return -ECHILD;
	iop = READ_ONCE(dinode->i_op);
	if (iop->lookup_noent) {
		if (READ_ONCE(dir->d_flags) & DCACHE_DIR_DEAD)
			return -ENOENT;
		return iop->lookup_noent(dinode, &q);
	}
	if (!nd->locked)
		return -ECHILD;
	d = lookup_slow(dir, &q);
	if (IS_ERR(d))
		return (int)PTR_ERR(d);
	if (d_is_negative(d)) {
		dput(d);
		return -ENOENT;
	}
	/* retain_dentry() keeps it cached: the walk needs no reference (above) */
	assert(!d_unhashed(d) && !(d_sb(d)->s_flags & SB_ALWAYS_DELETE));
	dput(d);
	*found = d;
	return 0;
}

/*
 * A symlink met by the walk (nd stands on it; dir and dir_mnt are its directory):
 * resolve its body from there, completely unless it ends the walk; a magic link is
 * not resolved by name, the walk jumps to what it stands for (nd_jump_link()).
 */
lockless_read
static int pick_link(struct walk *nd, struct dentry *dir, struct mount *dir_mnt, bool final)
{
	struct inode *inode = READ_ONCE(nd->dentry->d_inode);
	const struct inode_operations *iop;
	const char *body;
	char buf[16];  /* a body made on demand lives as long as its resolution */
	int err;

	if (!inode)
		return -ECHILD;
	iop = READ_ONCE(inode->i_op);
	if (!nd->locked && (iop->get_magic || !iop->get_link))
		return -ECHILD;
	if (nd->links >= MAXSYMLINKS)
		return -ELOOP;
	if (final) {
		const struct inode *d = READ_ONCE(dir->d_inode);

		if (!d)
			return -ECHILD;
		err = may_follow_link(nd->task->fs, nd->task->cred.fsuid, READ_ONCE(d->i_uid),
				      READ_ONCE(d->i_mode), READ_ONCE(inode->i_uid));
		if (err)
			return err;
	}
	/* a nosymfollow mount: its links are read, never followed (pick_link());
	 * RESOLVE_NO_SYMLINKS: none is (magic links included) */
	if ((READ_ONCE(nd->mnt->mnt_flags) & MNT_NOSYMFOLLOW) || (nd->flags & LOOKUP_NO_SYMLINKS))
		return -ELOOP;
	nd->links++;
	if (iop->get_magic) {
		struct path target;

		err = iop->get_magic(nd->dentry, nd->task, &target);
		if (err)
			return err;
		/* nd_jump_link(): RESOLVE_NO_MAGICLINKS; RESOLVE_NO_XDEV to another
		 * mount; a scoped walk (not safe for it, says the kernel) */
		err = nd->flags & LOOKUP_NO_MAGICLINKS ? -ELOOP :
		      (nd->flags & LOOKUP_NO_XDEV) && target.mnt != nd->mnt ? -EXDEV :
		      nd->flags & LOOKUP_IS_SCOPED ? -EXDEV : 0;
		if (err) {
			path_put(&target);
			return err;
		}
		nd->mnt = target.mnt;
		nd->dentry = target.dentry;
		/* the task's file, cwd or root holds it, under ns_lock: the walk does not */
		path_put(&target);
		return 0;
	}
	/* pick_link(): touch_atime() of the link, relatime's rules; the lockless walk
	 * writes nothing, and goes on only when there is nothing to write (the
	 * kernel's try_to_unlazy() when atime_needs_update()) */
	if (!nd->locked) {
		if (inode_atime_maybe_due(inode, mnt_atime_rule(nd->mnt, inode)))
			return -ECHILD;
	} else {
		inode_touch_atime(inode, mnt_atime_rule(nd->mnt, inode));
	}
	/* ->get_link only reads unless there is ->get_link_rcu (inode.h) */
	body = !nd->locked && iop->get_link_rcu ? iop->get_link_rcu(inode, nd->task, buf)
						 : iop->get_link(inode);
	if (IS_ERR(body))
		return (int)PTR_ERR(body);
	if (!body)
		return nd->locked ? -ENOENT : -ECHILD;  /* proc_self_get_link(): no pid */
	if (!*body)
		return -ENOENT;
	if (final && nd->want_body) {
		nd->body = body;
		return 1;
	}
	/* a body is relative to the link's directory */
	nd->dentry = dir;
	nd->mnt = dir_mnt;
	return link_path_walk(nd, body, final);
}

/* A parent walk ends at its last component: link_path_walk() leaves it, and what kind
 * it is, to the caller. */
lockless_read
static inline void record_last(struct walk *nd, const unsigned char *comp, uint64_t hash_len,
			       bool slash)
{
	uint32_t len = HASH_LEN_LEN(hash_len);

	nd->last = comp;
	nd->last_len = len;
	nd->last_hash = (uint32_t)hash_len;
	nd->last_slash = slash;
	nd->last_type = component_type(comp, len);
}

/*
 * One component the common loop of link_path_walk() did not take: the last one, ".",
 * "..", a miss, a mount, a symlink.  comp is the component (hash_len its hash and
 * length), slash: a '/' follows it, last: nothing but slashes does; nd stands on its
 * directory.  looked_up: the caller did the lookup already, and d is its answer.
 */
lockless_read
static __attribute__((noinline)) int walk_component(struct walk *nd, const unsigned char *comp,
						    uint64_t hash_len, bool slash, bool last,
						    const struct dcache_buckets *t, bool final,
						    struct dentry *d, bool looked_up)
{
	struct dentry *dir = nd->dentry;
	struct mount *dir_mnt = nd->mnt;
	uint32_t len = HASH_LEN_LEN(hash_len);
	unsigned int dflags;
	int err;

	if (last && final && nd->parent) {
		record_last(nd, comp, hash_len, slash);
		return 0;
	}
	if (component_type(comp, len) != LAST_NORM) {
		if (len == 2) {
			err = follow_dotdot(nd);
			if (err)
				return err;
		}
		goto next;
	}
	if (slash && last && final)
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	if (!looked_up)
		d = d_lookup_rcu(t, dir, comp, hash_len);
	if (d) {
		dflags = READ_ONCE(d->d_flags);
		if (!(dflags & DCACHE_HASHED))
			return -ECHILD;  /* a writer is at work: lockless only */
		/* lookup_fast(): a dentry that says it may be stale is asked (procfs's
		 * pid_revalidate); a stale one is dropped and looked up again, under
		 * ns_lock (d_invalidate()) */
		if ((dflags & DCACHE_OP_REVALIDATE) && !d_revalidate(nd, d)) {
			if (!nd->locked)
				return -ECHILD;
			dget(d);
			d_drop(d);
			dput(d);
			d = NULL;
		}
	}
	if (!d) {
		err = lookup_miss(nd, dir, comp, hash_len, &d);
		if (err)
			return err;
		dflags = READ_ONCE(d->d_flags);
	}
	if (!(dflags & DCACHE_ENTRY_TYPE) && !READ_ONCE(d->d_inode))
		return -ENOENT;
	nd->dentry = d;
	if (dflags & DCACHE_MOUNTED) {
		err = handle_mounts(nd);
		if (err)
			return err;
	}
	if ((READ_ONCE(nd->dentry->d_flags) & DCACHE_SYMLINK_TYPE) &&
	    (!last || !final || (nd->flags & LOOKUP_FOLLOW))) {
		err = pick_link(nd, dir, dir_mnt, last && final);
		if (err)
			return err;
	}
next:
	if (last)
		return 0;
	/* link_path_walk(): a step into a non-directory, then the next component's
	 * may_lookup() */
	if (!is_dir(nd->dentry))
		return -ENOTDIR;
	return may_lookup(&nd->task->cred, nd->dentry, !nd->locked);
}

/*
 * Resolve path from where nd stands.  final: path's last component is the walk's last
 * (nd->flags decide following and directory-ness); otherwise it is a symlink body met
 * in the middle, resolved completely.  0, -errno, or -ECHILD.
 *
 * The loop takes the common component -- followed by '/', not a dot, found, a plain
 * directory: no mount on it, not a symlink -- with one hash, one bucket and one flags
 * word, in as few instructions as it can; anything else goes to walk_component().
 * Every dentry the walk stands on is on a filesystem that allows this walk: checked
 * where it starts and wherever it crosses a mount, since a child is always on its
 * parent's superblock.
 */
lockless_read
static int link_path_walk(struct walk *nd, const char *path, bool final)
{
	const struct dcache_buckets *t = rcu_dereference(nd->fs->dtable.tbl);
	const unsigned char *s = (const unsigned char *)path;
	struct dentry *dentry = nd->dentry;
	int err;

	if (*s == '/') {
		/* nd_jump_root(): RESOLVE_BENEATH may not; RESOLVE_NO_XDEV not from
		 * another mount (a walk that starts absolute is at the root already) */
		if (nd->flags & LOOKUP_BENEATH)
			return -EXDEV;
		if ((nd->flags & LOOKUP_NO_XDEV) && nd->mnt != nd->root_mnt)
			return -EXDEV;
		nd->mnt = nd->root_mnt;
		dentry = nd->root_dentry;
	}
	/* may_lookup() before each component: here for the first, at the end of
	 * walk_component() for the one after a step it took, and in the common step's
	 * unlikely branch for a directory that has ->permission, a mount on it, or a
	 * class that may not search it — nothing for the plain directory */
	{
		const unsigned char *p = s;

		while (*p == '/')
			p++;
		if (*p && (err = may_lookup(&nd->task->cred, dentry, !nd->locked)))
			return err;
	}
	for (;;) {
		const unsigned char *comp;
		struct dentry *d = NULL;
		bool looked_up = false;
		uint64_t hash_len;
		uint32_t len;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		comp = s;
		hash_len = hash_name(s);
		len = HASH_LEN_LEN(hash_len);
		s += len;
		/* followed by '/' and another component (one at the end, or after "//",
		 * is for rcu_component: a parent walk stops before it), or the last of a
		 * symlink body met in the middle, which must be a directory all the same */
		if (__builtin_expect((s[0] == '/' && s[1] != '/' && s[1]) || (!s[0] && !final), 1) &&
		    (comp[0] != '.' || len > 2)) {
			d = d_lookup_rcu(t, dentry, comp, hash_len);
			looked_up = true;
			if (__builtin_expect(d != NULL, 1)) {
				unsigned int f = READ_ONCE(d->d_flags);

				if ((f & (DCACHE_HASHED | DCACHE_DIRECTORY_TYPE |
					  DCACHE_SYMLINK_TYPE)) ==
				    (DCACHE_HASHED | DCACHE_DIRECTORY_TYPE) &&
				    (!(f & DCACHE_OP_REVALIDATE) || d_revalidate(nd, d))) {
					if (__builtin_expect(f & (DCACHE_MOUNTED |
								      DCACHE_OP_PERMISSION), 0)) {
						/* a mount root is a directory, and is
						 * not revalidated (it was not looked up) */
						nd->dentry = d;
						if ((f & DCACHE_MOUNTED) && (err = handle_mounts(nd)))
							return err;  /* -ECHILD, or EXDEV */
						d = nd->dentry;
						/* may_lookup() before the next component in
						 * this path (one after a body's end is the
						 * caller's to ask) */
						if (*s && (err = may_lookup(&nd->task->cred, d, !nd->locked)))
							return err;
					}
					dentry = d;
					s += !!*s;
					continue;
				}
			}
		} else if (!*s && final && nd->parent) {
			record_last(nd, comp, hash_len, false);
			break;
		} else if (!*s && final && (comp[0] != '.' || len > 2)) {
			/* the walk's last component, positive, nothing to follow */
			d = d_lookup_rcu(t, dentry, comp, hash_len);
			looked_up = true;
			if (d) {
				unsigned int f = READ_ONCE(d->d_flags);

				/* a symlink is the answer unless it is to be followed */
				if ((f & (DCACHE_HASHED | DCACHE_MOUNTED)) == DCACHE_HASHED &&
				    (!(f & DCACHE_SYMLINK_TYPE) || !(nd->flags & LOOKUP_FOLLOW)) &&
				    READ_ONCE(d->d_inode) &&
				    (!(f & DCACHE_OP_REVALIDATE) || d_revalidate(nd, d))) {
					dentry = d;
					break;
				}
			}
		}
		{
			const unsigned char *end = s;

			while (*s == '/')
				s++;
			nd->dentry = dentry;
			err = walk_component(nd, comp, hash_len, s != end, !*s, t, final, d,
					    looked_up);
			if (err)
				return err;
			dentry = nd->dentry;
		}
	}
	nd->dentry = dentry;
	nd->end = s;
	if (final && (nd->flags & LOOKUP_DIRECTORY) && !is_dir(dentry))
		return -ENOTDIR;
	return 0;
}

/* A lockless walk's struct walk: only what link_path_walk() reads is set (the rest
 * is for the parent walk and open's links, locked), as the struct is most of two
 * cache lines and the fstatat of a short path pays for every store. */
static inline void walk_init_rcu(struct walk *nd, const struct uvfs_task *task,
				 unsigned int flags)
{
	nd->fs = task->fs;
	nd->task = task;
	nd->flags = flags;
	nd->links = 0;
	nd->locked = false;
	nd->parent = false;
	nd->want_body = false;
	nd->end = NULL;
}

/*
 * Where a lockless walk of name starts (path_init()): the task's root, its cwd, or
 * dirfd's file, read once.  A descriptor that is not open or not on a directory is
 * left to the locked walk, which answers EBADF or ENOTDIR in the kernel's order; the
 * file itself is freed only after a grace period (fdget_rcu), its f_path never
 * changes.
 */
lockless_read
static int walk_start(struct walk *nd, struct uvfs_task *task, int dirfd, const char *name)
{
	/* unshare(CLONE_FS) replaces it; the old one is freed after a grace period */
	const struct fs_struct *fsx = __atomic_load_n(&task->fs_struct, __ATOMIC_ACQUIRE);

	nd->root_mnt = READ_ONCE(fsx->root.mnt);
	nd->root_dentry = READ_ONCE(fsx->root.dentry);
	if (name[0] == '/') {
		nd->mnt = nd->root_mnt;
		nd->dentry = nd->root_dentry;
	} else if (dirfd == AT_FDCWD) {
		nd->mnt = READ_ONCE(fsx->pwd.mnt);
		nd->dentry = READ_ONCE(fsx->pwd.dentry);
	} else {
		const struct file *f = fdget_rcu(task, dirfd);

		if (!f)
			return -ECHILD;
		nd->mnt = f->f_path.mnt;
		nd->dentry = f->f_path.dentry;
		if (!is_dir(nd->dentry))
			return -ECHILD;
	}
	if (!nd->root_dentry || !nd->dentry || !walk_allowed(nd, nd->dentry) ||
	    !walk_allowed(nd, nd->root_dentry))
		return -ECHILD;
	return 0;
}

/*
 * getname() fails a path of PATH_MAX bytes or more before any walk.  A walk that
 * succeeded read the whole path, so its length is known; one that failed may have
 * stopped early, and the length is measured only then.
 */
static int walk_name_check(const struct walk *nd, const char *name, int err)
{
	if (!err && nd->end - (const unsigned char *)name >= UVFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (err && err != -ECHILD && getname_check(name, false) < 0)
		return getname_check(name, false);
	return err;
}

lockless_read
int stat_rcu(struct uvfs_task *task, int dirfd, const char *name, bool follow,
	     struct stat *st)
{
	struct uvfs *fs = task->fs;
	struct walk nd;
	unsigned long seq;
	int err;

	walk_init_rcu(&nd, task, follow ? LOOKUP_FOLLOW : 0);
	urcu_bp_read_lock();
	seq = atomic_load_explicit(&fs->ns_seq, memory_order_acquire);
	err = seq & 1 ? -ECHILD : walk_start(&nd, task, dirfd, name);
	if (!err)
		err = link_path_walk(&nd, name, true);
	if (!err) {
		const struct inode *inode = READ_ONCE(nd.dentry->d_inode);

		if (inode)
			inode_fillattr(inode, st);
		else
			err = -ECHILD;
	}
	if (ns_seq_retry(fs, seq))
		err = -ECHILD;
	rcu_read_end();
	return walk_name_check(&nd, name, err);
}

/*
 * What readlink of the dentry the walk stands on gives, into page (PATH_MAX): a magic
 * link's d_path from the reader's root, a symlink's body; *len its length.  A link
 * whose atime relatime would update now is left to the locked call, which writes.
 */
lockless_read
static int readlink_walked(struct walk *nd, char *page, const char **out, size_t *len)
{
	struct dentry *d = nd->dentry;
	struct inode *inode = READ_ONCE(d->d_inode);
	const struct inode_operations *iop;

	if (!inode)
		return -ECHILD;
	iop = READ_ONCE(inode->i_op);
	if (iop->readlink)
		return -ECHILD;  /* made under ns_lock */
	if (iop->get_magic) {
		struct path target, root = { .mnt = nd->root_mnt, .dentry = nd->root_dentry };
		char *p;
		int err;

		if (!iop->get_magic_rcu)
			return -ECHILD;
		err = iop->get_magic_rcu(d, nd->task, &target);
		if (err)
			return err;
		p = d_path_rcu(&target, &root, page, UVFS_PATH_MAX);
		if (IS_ERR(p))
			return (int)PTR_ERR(p);
		*out = p;
		*len = strlen(p);
	} else {
		char buf[16];
		const char *body;

		/* d_get_link(): not a symlink is EINVAL for vfs_readlink */
		if (!S_ISLNK(READ_ONCE(inode->i_mode)) || !iop->get_link)
			return -EINVAL;
		body = iop->get_link_rcu ? iop->get_link_rcu(inode, nd->task, buf)
					 : iop->get_link(inode);
		if (!body)
			return -ECHILD;
		*len = strnlen(body, UVFS_PATH_MAX - 1);
		memcpy(page, body, *len);
		*out = page;
	}
	if (inode_atime_maybe_due(inode, mnt_atime_rule(nd->mnt, inode)))
		return -ECHILD;
	return 0;
}

lockless_read
ssize_t readlink_rcu(struct uvfs_task *task, int dirfd, const char *name, char *buf,
		     size_t bufsiz)
{
	struct uvfs *fs = task->fs;
	struct walk nd;
	char page[UVFS_PATH_MAX];
	const char *out = NULL;
	size_t len = 0;
	unsigned long seq;
	int err;

	walk_init_rcu(&nd, task, 0);
	urcu_bp_read_lock();
	seq = atomic_load_explicit(&fs->ns_seq, memory_order_acquire);
	err = seq & 1 ? -ECHILD : walk_start(&nd, task, dirfd, name);
	if (!err)
		err = link_path_walk(&nd, name, true);
	if (!err)
		err = readlink_walked(&nd, page, &out, &len);
	if (ns_seq_retry(fs, seq))
		err = -ECHILD;
	rcu_read_end();
	err = walk_name_check(&nd, name, err);
	if (err)
		return err;
	/* do_proc_readlink(): no NUL, truncated to the buffer */
	if (len > bufsiz)
		len = bufsiz;
	if (!buf)
		return -EFAULT;  /* the copy out faults */
	memcpy(buf, out, len);
	return (ssize_t)len;
}

/* The walk under ns_lock starts where nd stands, with nd's links and lookup flags
 * (only what link_path_walk() reads, and the last component's description). */
static void walk_from(struct walk *r, const struct nameidata *nd, unsigned int flags,
			bool parent)
{
	r->fs = nd->task->fs;
	r->task = nd->task;
	r->mnt = nd->path.mnt;
	r->dentry = nd->path.dentry;
	r->root_mnt = nd->root.mnt;
	r->root_dentry = nd->root.dentry;
	r->flags = flags | (nd->flags & LOOKUP_RESOLVE);
	r->links = nd->total_link_count;
	r->locked = true;
	r->parent = parent;
	r->last_type = LAST_ROOT;
	r->last = NULL;
	r->last_len = r->last_hash = 0;
	r->last_slash = false;
	r->want_body = false;
	assert(ns_locked(r->fs));
}

/* legitimize_path(): nd takes the walk's answer, with the reference nd->path holds. */
static void nd_from_walk(struct nameidata *nd, const struct walk *r)
{
	struct path p = { .mnt = r->mnt, .dentry = r->dentry };

	path_get(&p);
	path_put(&nd->path);
	nd->path = p;
	nd->total_link_count = r->links;
}

/*
 * The shape most parent walks have, first: single slashes between plain names (no
 * dots), each but the last a directory in the dcache with nothing on it (no mount,
 * not a symlink, nothing to revalidate), the last one plain with nothing after it.
 * Under ns_lock what this loop finds is the answer; at anything else it gives up,
 * having changed nothing, and the general walk starts over.  It is link_path_walk()'s
 * fast loop without the rcu_nd around it: that setup and copying back cost as much
 * as the walk itself for the one- and two-component paths creat, unlink and rename
 * mostly see (docs/PERFORMANCE.md).
 */
lockless_read  /* under ns_lock, but it reads the path a word past its end */
bool parent_walk_plain(struct nameidata *nd, const char *name, size_t *len)
{
	const struct dcache_buckets *t = nd->task->fs->dtable.tbl;
	const unsigned char *s = (const unsigned char *)name, *comp;
	struct dentry *dentry = nd->path.dentry;
	uint64_t hash_len;
	uint32_t n;

	while (*s == '/')
		s++;  /* path_init() started an absolute walk at the root */
	if (dentry->d_flags & DCACHE_OP_PERMISSION)
		return false;  /* may_lookup() has something to say */
	for (;;) {
		struct dentry *d;

		comp = s;
		hash_len = hash_name(s);
		n = HASH_LEN_LEN(hash_len);
		if (!n || (comp[0] == '.' && n <= 2))
			return false;
		s += n;
		if (!*s)
			break;
		if (s[1] == '/' || !s[1])
			return false;  /* "//" or a trailing slash */
		d = d_lookup_rcu(t, dentry, comp, hash_len);
		if (!d || (d->d_flags & (DCACHE_HASHED | DCACHE_DIRECTORY_TYPE | DCACHE_SYMLINK_TYPE |
					 DCACHE_OP_MASK | DCACHE_MOUNTED)) !=
			      (DCACHE_HASHED | DCACHE_DIRECTORY_TYPE))
			return false;
		dentry = d;
		s++;
	}
	/* legitimize_path(): the walk never left nd->path.mnt */
	nd->path.dentry = dentry;
	path_get(&nd->path);
	*len = (size_t)(s - (const unsigned char *)name);
	nd->last_type = LAST_NORM;
	nd->last_slash = false;
	nd->last.name = comp;
	nd->last.len = n;
	nd->last.hash = (uint32_t)hash_len;
	nd->last_hashed = true;
	return true;
}

/*
 * parent_walk_locked - path_parentat()'s walk to the parent of the last component,
 * by the same loop, under ns_lock: nothing can change meanwhile, so neither ns_seq
 * nor RCU is needed, and no reference is taken until the parent is found (the
 * kernel's RCU-walk ends with legitimize_path() the same way).  On success nd->path
 * is the parent and nd->last* describe the last component.
 */
int parent_walk_locked(struct nameidata *nd, const char *name, size_t *len)
{
	struct walk r;
	int err;

	walk_from(&r, nd, 0, true);
	err = link_path_walk(&r, name, true);
	assert(err != -ECHILD);
	if (err)
		return err;
	*len = (size_t)(r.end - (const unsigned char *)name);
	nd_from_walk(nd, &r);
	nd->last_type = r.last_type;
	nd->last_slash = r.last_slash;
	nd->last.name = r.last;
	nd->last.len = r.last_len;
	nd->last.hash = r.last_hash;
	nd->last_hashed = r.last_type == LAST_NORM;
	return 0;
}

/*
 * path_walk_locked - filename_lookup()'s whole walk the same way: nd->flags
 * (LOOKUP_FOLLOW, LOOKUP_DIRECTORY) say how the last component is taken.  0 with
 * nd->path the result, or -errno.
 */
int path_walk_locked(struct nameidata *nd, const char *name)
{
	struct walk r;
	int err;

	walk_from(&r, nd, nd->flags & (LOOKUP_FOLLOW | LOOKUP_DIRECTORY), false);
	err = link_path_walk(&r, name, true);
	assert(err != -ECHILD);
	if (err)
		return err;
	assert(r.dentry->d_inode);
	nd_from_walk(nd, &r);
	nd->flags |= r.flags;
	return 0;
}

int nd_follow_dotdot(struct nameidata *nd)
{
	struct walk r;
	int err;

	walk_from(&r, nd, 0, false);
	err = follow_dotdot(&r);  /* locked: never -ECHILD; ENOENT out of a bind */
	assert(err != -ECHILD);
	if (err)
		return err;
	nd_from_walk(nd, &r);
	return 0;
}

int nd_pick_link(struct nameidata *nd, const struct path *link)
{
	struct walk r;
	int err;

	walk_from(&r, nd, 0, false);
	r.want_body = true;
	r.mnt = link->mnt;
	r.dentry = link->dentry;
	err = pick_link(&r, nd->path.dentry, nd->path.mnt, true);
	assert(err != -ECHILD);
	nd->total_link_count = r.links;
	if (err > 0)
		return nd_pending_link(nd, r.body);
	if (!err)
		nd_from_walk(nd, &r);  /* a magic link: nd stands on its target */
	return err;
}
