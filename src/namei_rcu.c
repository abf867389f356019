// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * namei_rcu.c - the lockless walk: resolve a path without ns_lock and without taking
 * a single reference, the way the kernel's RCU-walk does (fs/namei.c, LOOKUP_RCU),
 * and fall back to the locked walk (namei.c) whenever that cannot be trusted.
 *
 * Locking and lifetimes:
 *
 *   what the walk reads               why it is still there
 *   --------------------------------  -------------------------------------------
 *   dentries, external names           freed by call_rcu (dcache.c)
 *   inodes, memfs_inode, link bodies   freed by call_rcu (inode.c, ->i_free)
 *   the hash table                     the old one freed by call_rcu when it grows
 *   mounts                             freed only by uvfs_free (lookup_mnt)
 *   the task's root and cwd            the caller's own task
 *
 * Nothing here is protected by a lock: a writer may change any field while we read
 * it.  What makes the result right is uvfs.ns_seq, which every holder of ns_lock
 * makes odd on entry and even on exit (internal.h): the walk samples it (even) before
 * it starts and checks it is unchanged after it has copied out what it returns, so
 * whatever it read, torn or not, belonged to one state that no writer was changing
 * — the result is what the locked walk would have given at that instant.  Any doubt
 * (a changed ns_seq, a filesystem that makes dentries on demand, a magic link) is
 * -ECHILD: the caller takes the locked walk.  With only one thread in the instance
 * the fast path always succeeds.
 *
 * Only filesystems that set SB_RCU_WALK are walked here: their dcache holds every
 * name (a miss is the answer, ->lookup_noent) and reading their inodes has no side
 * effects.
 */
#include "dcache.h"
#include "inode.h"
#include "namei.h"
#include "task.h"


#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

struct rcu_nd {
	struct uvfs *fs;
	struct mount *mnt;           /* where the walk stands */
	struct dentry *dentry;
	struct mount *root_mnt;      /* the task's root */
	struct dentry *root_dentry;
	unsigned int flags;          /* LOOKUP_FOLLOW / LOOKUP_DIRECTORY, as in namei.c */
	int links;                   /* symlinks followed (MAXSYMLINKS) */
};

static bool rcu_ok(const struct dentry *d)
{
	return READ_ONCE(d->d_sb->s_flags) & SB_RCU_WALK;
}

/* __d_lookup_rcu() */
static struct dentry *d_lookup_rcu(struct uvfs *fs, const struct dentry *parent,
				   const unsigned char *name, uint32_t len, uint32_t hash)
{
	struct dcache_buckets *t = rcu_dereference(fs->dtable.tbl);
	struct cds_hlist_node *pos;

	for (pos = rcu_dereference(t->b[hash & t->mask].next); pos;
	     pos = rcu_dereference(pos->next)) {
		struct dentry *d = container_of(pos, struct dentry, d_hash);

		if (READ_ONCE(d->d_parent) != parent || READ_ONCE(d->d_name.hash) != hash ||
		    READ_ONCE(d->d_name.len) != len)
			continue;
		if (memcmp(READ_ONCE(d->d_name.name), name, len))
			continue;
		if ((READ_ONCE(d->d_flags) & (DCACHE_HASHED | DCACHE_DEAD)) != DCACHE_HASHED)
			continue;
		return d;
	}
	return NULL;
}

/* follow_mounts() without references */
static void follow_mounts_rcu(struct rcu_nd *nd)
{
	while (READ_ONCE(nd->dentry->d_flags) & DCACHE_MOUNTED) {
		struct mount *found = lookup_mnt(nd->fs, nd->mnt, nd->dentry);

		if (!found)
			return;
		nd->mnt = found;
		nd->dentry = READ_ONCE(found->mnt_root);
	}
}

static void follow_dotdot_rcu(struct rcu_nd *nd)
{
	for (;;) {
		struct mount *m = nd->mnt;

		if (nd->dentry == nd->root_dentry && m == nd->root_mnt)
			return;
		if (nd->dentry != READ_ONCE(m->mnt_root))
			break;
		if (READ_ONCE(m->mnt_parent) == m)
			return;
		nd->dentry = READ_ONCE(m->mnt_mountpoint);
		nd->mnt = READ_ONCE(m->mnt_parent);
	}
	nd->dentry = READ_ONCE(nd->dentry->d_parent);
	follow_mounts_rcu(nd);
}

static bool is_dir(const struct dentry *d)
{
	const struct inode *inode = READ_ONCE(d->d_inode);

	return inode && S_ISDIR(READ_ONCE(inode->i_mode));
}

/*
 * Resolve s from where nd stands.  final: s's last component is the walk's last
 * (nd->flags decide following and directory-ness); otherwise it is a symlink body met
 * in the middle, resolved completely.  0, -errno, or -ECHILD.
 */
static int rcu_resolve(struct rcu_nd *nd, const char *s, bool final)
{
	if (*s == '/') {
		nd->mnt = nd->root_mnt;
		nd->dentry = nd->root_dentry;
	}
	while (*s == '/')
		s++;
	while (*s) {
		const unsigned char *comp = (const unsigned char *)s;
		size_t len = strcspn(s, "/");
		bool slash, last;
		struct dentry *dir = nd->dentry, *d;
		struct mount *dir_mnt = nd->mnt;
		struct inode *dinode, *inode;

		s += len;
		slash = *s == '/';
		while (*s == '/')
			s++;
		last = !*s;
		if (len == 1 && comp[0] == '.')
			goto next;
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			follow_dotdot_rcu(nd);
			if (!rcu_ok(nd->dentry))
				return -ECHILD;
			goto next;
		}
		if (last && final && slash)
			nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
		dinode = READ_ONCE(dir->d_inode);
		if (!dinode)
			return -ECHILD;
		d = d_lookup_rcu(nd->fs, dir, comp, (uint32_t)len, d_name_hash(dir, comp, len));
		if (!d) {
			const struct inode_operations *iop = READ_ONCE(dinode->i_op);
			struct qstr q = { .len = (uint32_t)len, .name = comp };

			/* lookup_walk()'s answer for a complete dcache */
			if (!iop->lookup_noent)
				return -ECHILD;
			if (READ_ONCE(dir->d_flags) & DCACHE_DIR_DEAD)
				return -ENOENT;
			return iop->lookup_noent(dinode, &q);
		}
		inode = READ_ONCE(d->d_inode);
		if (!inode)
			return -ENOENT;
		nd->dentry = d;
		follow_mounts_rcu(nd);
		if (!rcu_ok(nd->dentry))
			return -ECHILD;
		inode = READ_ONCE(nd->dentry->d_inode);
		if (!inode)
			return -ECHILD;
		if (S_ISLNK(READ_ONCE(inode->i_mode)) && (!last || !final || (nd->flags & LOOKUP_FOLLOW))) {
			const struct inode_operations *iop = READ_ONCE(inode->i_op);
			const char *body;
			int err;

			if (iop->get_magic || !iop->get_link)
				return -ECHILD;
			if (nd->links >= MAXSYMLINKS)
				return -ELOOP;
			nd->links++;
			body = iop->get_link(inode);
			if (!body)
				return -ECHILD;
			if (!*body)
				return -ENOENT;
			/* a body is relative to the link's directory */
			nd->dentry = dir;
			nd->mnt = dir_mnt;
			err = rcu_resolve(nd, body, last && final);
			if (err)
				return err;
		}
next:
		if (!last && !is_dir(nd->dentry))
			return -ENOTDIR;
	}
	if (final && (nd->flags & LOOKUP_DIRECTORY) && !is_dir(nd->dentry))
		return -ENOTDIR;
	return 0;
}

int stat_rcu(struct uvfs_task *task, const char *name, bool follow, struct stat *st)
{
	struct uvfs *fs = task->fs;
	struct rcu_nd nd = { .fs = fs, .flags = follow ? LOOKUP_FOLLOW : 0 };
	unsigned long seq;
	int err = getname_check(name, false);

	if (err < 0)
		return err;
	urcu_bp_read_lock();
	seq = atomic_load_explicit(&fs->ns_seq, memory_order_acquire);
	if (seq & 1) {
		err = -ECHILD;
		goto out;
	}
	nd.root_mnt = READ_ONCE(task->root.mnt);
	nd.root_dentry = READ_ONCE(task->root.dentry);
	nd.mnt = name[0] == '/' ? nd.root_mnt : READ_ONCE(task->pwd.mnt);
	nd.dentry = name[0] == '/' ? nd.root_dentry : READ_ONCE(task->pwd.dentry);
	if (!nd.root_dentry || !nd.dentry || !rcu_ok(nd.dentry) || !rcu_ok(nd.root_dentry)) {
		err = -ECHILD;
		goto out;
	}
	err = rcu_resolve(&nd, name, true);
	if (!err) {
		const struct inode *inode = READ_ONCE(nd.dentry->d_inode);

		if (inode)
			inode_fillattr(inode, st);
		else
			err = -ECHILD;
	}
	/* read_seqretry(): everything above was read before this load */
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&fs->ns_seq, memory_order_relaxed) != seq)
		err = -ECHILD;
out:
	urcu_bp_read_unlock();
	return err;
}
