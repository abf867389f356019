/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mount.h - mounts and paths.  A path is a (mount, dentry) pair, as in the kernel:
 * the same dentry seen through two mounts is two different places.
 *
 * Every field is protected by uvfs.ns_lock unless it says otherwise.
 */
#ifndef UVFS_MOUNT_H
#define UVFS_MOUNT_H

#include "dcache.h"
#include "inode.h"
#include "internal.h"

struct super_block;

/* mnt_flags (the kernel's MNT_* values: include/linux/mount.h) */
#define MNT_NOSUID        0x01
#define MNT_NODEV         0x02
#define MNT_NOEXEC        0x04
#define MNT_NOATIME       0x08
#define MNT_NODIRATIME    0x10
#define MNT_RELATIME      0x20
#define MNT_READONLY      0x40
#define MNT_NOSYMFOLLOW   0x80
#define MNT_ATIME_MASK    (MNT_NOATIME | MNT_NODIRATIME | MNT_RELATIME)
/* what mount(2) may set; MNT_UMOUNT is the kernel's mark of an unmounted mount */
#define MNT_USER_SETTABLE_MASK (MNT_NOSUID | MNT_NODEV | MNT_NOEXEC | MNT_ATIME_MASK | \
				MNT_READONLY | MNT_NOSYMFOLLOW)
#define MNT_UMOUNT        0x8000000
/* MNT_UNBINDABLE is a propagation type in the kernel, a mount flag here */
#define MNT_UNBINDABLE    0x100

struct mnt_namespace;
struct mnt_copies;

#define MNT_UNIQUE_ID_OFFSET (1ull << 31)  /* fs/namespace.c's */

struct mount {
	struct mount *mnt_parent;        /* self for a namespace's rootfs and an unmounted one */
	struct mnt_namespace *mnt_ns;    /* the namespace it is mounted in; NULL once unmounted */
	struct dentry *mnt_mountpoint;   /* in mnt_parent (the root for self); a reference */
	struct dentry *mnt_root;         /* holds a reference; immutable */
	struct super_block *mnt_sb;      /* holds a reference; immutable */
	int mnt_id;                      /* immutable; the lowest free (reused) */
	uint64_t mnt_id_unique;          /* immutable; never reused: the order mountinfo lists */
	int mnt_flags;                   /* MNT_*; read lockless by the walk */
	long mnt_count;                  /* references: paths, child mounts */
	long mnt_writers;                /* files open for writing (mnt_get_write_access) */
	char *mnt_devname;               /* mount(2)'s source ("none" for NULL); immutable */
	struct cds_list_head mnt_list;   /* in uvfs.mounts while mounted */
	/* in uvfs.mount_hashtable on (mnt_parent, mnt_mountpoint) while attached to a
	 * parent: lookup_mnt(), lockless too */
	struct cds_hlist_node mnt_hash;
	/* ns_lock, read lockless by lookup_mnt(): when it was attached; of the mounts on
	 * one place, the last attached is on top (the order of uvfs.mounts before the
	 * hash, which a chain does not keep when the table grows) */
	uint64_t mnt_attach_seq;
	struct cds_list_head mnt_mounts; /* its children, in the order attached */
	struct cds_list_head mnt_child;  /* in mnt_parent->mnt_mounts while attached */
	/* Propagation (pnode.c; Documentation/filesystems/sharedsubtree.rst).  A shared
	 * mount is one with a peer group id; its peers are the ring mnt_share links (a
	 * ring of one: no other peer).  A slave has a master, a mount of the peer group
	 * it receives from, and is on that master's mnt_slave_list.  Neither: private
	 * (or unbindable, MNT_UNBINDABLE). */
	int mnt_group_id;                /* its peer group's id (shared), or 0 */
	struct cds_list_head mnt_share;  /* the ring of its peer group */
	struct mount *mnt_master;        /* the mount it is a slave of, or NULL */
	struct cds_list_head mnt_slave_list; /* its slaves (their mnt_slave) */
	struct cds_list_head mnt_slave;  /* in mnt_master->mnt_slave_list */
	int mnt_mark;                    /* a propagation walk's scratch: 0 between calls */
};

/*
 * A mount namespace (struct mnt_namespace): a tree of mounts whose top is a rootfs
 * that no path reaches (the namespace's root filesystem is mounted on its root, as
 * Linux's is on its initramfs rootfs: what mountinfo shows as the root's parent and
 * pivot_root needs).  Every mount of every namespace is on uvfs.mounts; each says
 * which namespace it is in.
 */
struct mnt_namespace {
	struct mount *root;              /* the rootfs */
	uint64_t ns_id;                  /* ns_lock: never reused (statmount's mnt_ns_id);
					  * the embedder's (uvfs_set_mnt_ns_id) */
	long count;                      /* its tasks, and the instance's hold on the first */
	unsigned int nr_mounts;          /* mounts in it, the rootfs too (fs.mount-max) */
	/* mounts a propagation will add, counted while it makes them; 0 between calls */
	unsigned int nr_pending;
	/* a detached tree's (fsmount, open_tree(OPEN_TREE_CLONE)): root is that tree's
	 * top, no task is in it, nothing propagates into it; freed when the tree is
	 * attached (move_mount) or its last file goes (dissolve_on_fput()) */
	bool anon;
	/* immutable: a detached clone's, the ns_id of the namespace it was cloned in (the
	 * kernel's seq_origin); 0 for fsmount's -- whose namespaces may mount on it */
	uint64_t origin;
};

struct path {
	struct mount *mnt;
	struct dentry *dentry;
};

void mnt_free_unmounted(struct mount *mnt);
/* mntput - the last reference of an unmounted (lazily detached) mount frees it */
static inline void mntput(struct mount *mnt)
{
	if (--mnt->mnt_count == 0 && unlikely(mnt->mnt_flags & MNT_UMOUNT))
		mnt_free_unmounted(mnt);
}

/* path_get / path_put - a reference on both halves (inline: every walk takes one) */
static inline void path_get(const struct path *path)
{
	path->mnt->mnt_count++;
	dget(path->dentry);
}

static inline void path_put(struct path *path)
{
	if (!path->dentry)
		return;
	dput(path->dentry);
	mntput(path->mnt);
	path->dentry = NULL;
	path->mnt = NULL;
}
static inline bool path_equal(const struct path *a, const struct path *b)
{
	return a->mnt == b->mnt && a->dentry == b->dentry;
}

/* The mount whose mountpoint is (parent, dentry), or NULL (lookup_mnt). */
struct mount *lookup_mnt(struct uvfs *fs, const struct mount *parent,
			 const struct dentry *dentry);
/* A new mount of sb (a reference of its own on sb), its root sb's root (NULL root) or
 * root; attached on mountpoint in parent, or the namespace root (NULL parent).  NULL
 * on ENOMEM, nothing changed. */
struct mount *mnt_alloc(struct uvfs *fs, struct super_block *sb, struct dentry *root,
			const char *devname, int flags);
void mnt_attach_to(struct uvfs *fs, struct mount *m, struct mount *parent,
		   struct dentry *mountpoint);
struct mount *mnt_attach(struct uvfs *fs, struct super_block *sb, struct mount *parent,
			 struct dentry *mountpoint, const char *devname);
/* count_mounts(): may n more mounts join ns?  0 or -ENOSPC (fs.mount-max) */
int count_mounts(struct uvfs *fs, const struct mnt_namespace *ns, unsigned int n);
/* next_mnt(): the mount after p in a walk of the tree below root, parents first; NULL
 * after the last */
struct mount *next_mnt(struct mount *p, struct mount *root);
/* Off its mountpoint and out of uvfs.mounts, its own parent (MS_MOVE's first half,
 * umount's whole). */
void mnt_disconnect(struct uvfs *fs, struct mount *m);
/* A mount never attached (an error path of mount(2)): freed now. */
void mnt_discard(struct mount *mnt);
/* umount_tree(): detach m and every mount below it from the namespace; each is freed
 * now or by its last mntput(). */
void umount_tree(struct uvfs *fs, struct mount *m);
/* mnt_detached_tree(): the copies c attached to each other as a detached tree, a
 * namespace of their own (is_anon_ns()) whose root is c->dst[0], made in namespace
 * origin (0: by fsmount): 0 (c->n 0: the tree's now) or -ENOMEM with nothing changed */
int mnt_detached_tree(struct uvfs *fs, struct mnt_copies *c, uint64_t origin);
static inline bool is_anon_ns(const struct mnt_namespace *ns)
{
	return ns && ns->anon;
}
/* anon_ns_root(): m is a detached tree's top */
static inline bool anon_ns_root(const struct mount *m)
{
	return is_anon_ns(m->mnt_ns) && m->mnt_ns->root == m;
}
/* dissolve_on_fput(): the last file of a detached tree's top is gone: the tree,
 * if it is still detached, is unmounted (lazily: what is open in it stays) */
void dissolve_on_fput(struct uvfs *fs, struct mount *m);
/* mnt_adopt_tree(): the detached tree below root, just attached, joins root's new
 * namespace; its anonymous one is freed */
void mnt_adopt_tree(struct uvfs *fs, struct mount *root, struct mnt_namespace *anon);
/* Tear down every mount of the instance (uvfs_free). */
void mnt_release_all(struct uvfs *fs);
/* A namespace whose rootfs is root (attached, not yet counted): NULL on ENOMEM. */
struct mnt_namespace *alloc_mnt_ns(struct mount *root);
/* get_mnt_ns / put_mnt_ns: the last put unmounts the whole tree (lazily: what is
 * still open stays until it is closed). */
static inline void get_mnt_ns(struct mnt_namespace *ns)
{
	ns->count++;
}
void put_mnt_ns(struct uvfs *fs, struct mnt_namespace *ns);
/* copy_mnt_ns(): a copy of ns, every mount of it copied (unbindable ones too), and
 * root and pwd moved to the copies of their mounts.  NULL on ENOMEM, nothing
 * changed. */
struct mnt_namespace *copy_mnt_ns(struct uvfs *fs, struct mnt_namespace *ns, struct path *root,
				  struct path *pwd);
/* copy_tree(): copies of mnt seen from dentry (clone_mnt()) and, with CL_RECURSE,
 * of the mounts below that dentry, parents first (not the unbindable ones unless
 * CL_COPY_UNBINDABLE); made, not attached: 0 or -ENOMEM with nothing made.  Then
 * attach_copies() puts them on mountpoint in parent (NULL: the copy is its own
 * parent, a namespace's rootfs), or drop_copies() discards them. */
#define CL_RECURSE         0x1
#define CL_COPY_UNBINDABLE 0x2
/* how each copy takes part in propagation (clone_mnt()'s flags): a slave of its
 * original, private, or in a peer group (its original's, or a new one) */
#define CL_SLAVE           0x4
#define CL_PRIVATE         0x8
#define CL_MAKE_SHARED     0x10
struct mnt_copies {
	/* dst[i] copies src[i] (for a propagated copy, dst[i] copies another set's dst[i]:
	 * src[i] is kept for its mountpoint, the place of dst[i] in dst[up[i]]) */
	struct mount **src, **dst;
	int *up;                     /* the index of dst[i]'s parent copy (-1 for the first) */
	int n;
};
int copy_tree(struct uvfs *fs, struct mount *mnt, struct dentry *dentry, unsigned int how,
	      struct mnt_copies *c);
void attach_copies(struct uvfs *fs, struct mnt_copies *c, struct mount *parent,
		   struct dentry *mountpoint);
void drop_copies(struct mnt_copies *c);
/* attach_set(): attach_copies() without freeing the arrays (n becomes 0); the
 * places below the top mps[i] (NULL: where src[i] is now) */
void attach_set(struct uvfs *fs, struct mnt_copies *c, struct mount *parent,
		struct dentry *mountpoint, struct dentry *const *mps);
/* tree_copies(): the attached tree below mnt as a set of copies of itself (src and
 * dst the same array), for a move's propagation: 0 or -ENOMEM; free src and up */
int tree_copies(struct mount *mnt, struct mnt_copies *c);
/* is_path_reachable(): (mnt, dentry) is root or below it, through the mounts */
bool is_path_reachable(const struct mount *mnt, const struct dentry *dentry,
		       const struct path *root);
/* clone_mnt(): a copy of old seen from root, not attached, in old's propagation
 * as flags say (CL_SLAVE, CL_PRIVATE, CL_MAKE_SHARED); NULL on ENOMEM */
struct mount *clone_mnt(struct uvfs *fs, struct mount *old, struct dentry *root,
			unsigned int flags);

/* pnode.c: propagation */
static inline bool IS_MNT_SHARED(const struct mount *m)
{
	return m->mnt_group_id != 0;
}
static inline bool IS_MNT_SLAVE(const struct mount *m)
{
	return m->mnt_master != NULL;
}
static inline struct mount *next_peer(const struct mount *m)
{
	return cds_list_entry(m->mnt_share.next, struct mount, mnt_share);
}
/* change_mnt_propagation(): MS_SHARED (its group id given before: invent_group_ids()),
 * MS_SLAVE, MS_PRIVATE or MS_UNBINDABLE */
void change_mnt_propagation(struct uvfs *fs, struct mount *m, unsigned long type);
/* invent_group_ids(): a peer group id for each mount of the tree below m (with
 * recurse) that has none, or -ENOMEM with none given */
int invent_group_ids(struct uvfs *fs, struct mount *m, bool recurse);
/* attach_recursive_mnt(): the source tree src (copies not yet attached, or with
 * moving the attached tree src->dst[0]) on (dest, mp), and, if dest is shared, a copy
 * of it on mp in every mount that receives from dest (propagate_mnt()), each slave,
 * peer or private as the kernel makes it; with beneath (MOVE_MOUNT_BENEATH: the
 * mount on (dest, mp)), that mount is then moved onto the source's root, so the
 * source goes under it (mnt_set_mountpoint_beneath()).  Everything is made before anything is
 * attached: 0 with src->n 0 (the copies the namespace's, the arrays still the
 * caller's), or -ENOMEM/-ENOSPC with nothing changed. */
int attach_recursive_mnt(struct uvfs *fs, struct mnt_copies *src, struct mount *dest,
			 struct dentry *mp, bool moving, struct mount *beneath);
/* propagation_would_overmount(): would a mount on mp in from propagate a copy on top
 * of to (to's root is mp, and to or a master of it is a peer of from)?  The checks of
 * MOVE_MOUNT_BENEATH (can_move_mount_beneath()) */
bool propagation_would_overmount(const struct mount *from, const struct mount *to,
				 const struct dentry *mp);
/* propagate_mount_busy(): is m in use (children, more than refs references), or a
 * copy of it that its unmount would take?  1 or 0, or -ENOMEM */
int propagate_mount_busy(struct uvfs *fs, struct mount *m, long refs);
/* do_set_group(): move_mount(MOVE_MOUNT_SET_GROUP): to (private, a mount's root)
 * joins from's peer group and master; EINVAL unless of one superblock with to's
 * root under from's, to private and from not */
int do_set_group(struct mount *from, struct mount *to);
/* attr_flags_to_mnt_flags() and the atime number of MOUNT_ATTR_*: 0, or -EINVAL
 * for an atime value that is none (fsopen.c) */
int mount_attr_to_mnt_flags(uint64_t attr, int *mnt_flags);
/* get_dominating_id(): the group of the nearest master of m (a master's master...)
 * with a peer in m's namespace reachable from root, or 0 */
int get_dominating_id(const struct mount *m, const struct path *root);
/* umount_propagated(): umount_tree() of m and of every copy of the tree in the
 * mounts that receive from m's parent that nothing else is mounted on
 * (propagate_umount()); -ENOMEM before anything changed */
int umount_propagated(struct uvfs *fs, struct mount *m);

/* the generic superblock flags mountinfo lists (show_sb_opts) */
#define SB_SHOWN_FLAGS (MS_SYNCHRONOUS | MS_DIRSYNC | MS_MANDLOCK | MS_LAZYTIME)
/* parse_fs_param(): one option of a new or reconfigured superblock: the generic
 * ones first (vfs_parse_sb_flag: ro, rw, sync, async, dirsync, lazytime,
 * nolazytime, mand, nomand, silent, posixacl), then the filesystem's, then "source"
 * if the filesystem has none (1: it is the source; EINVAL a second one or none
 * given); EINVAL for anything neither knows ("Unknown parameter").  value is NULL
 * for a flag; a generic flag named is added to *sb_mask (if not NULL: fs_context's
 * sb_flags_mask).  0, 1 or -errno. */
int parse_fs_param(const struct file_system_type *type, const char *key, const char *value,
		   bool *have_source, struct fs_mount_opts *opts, unsigned long *sb_flags,
		   unsigned long *sb_mask);

/* sb_prepare_remount_readonly(): may sb not go read-only now (a file without a
 * name in use, a file open for writing through any of its mounts)? */
bool sb_prepare_remount_readonly_busy(struct uvfs *fs, const struct super_block *sb);

/* is_subdir(): d is top or below it (one superblock) */
bool is_subdir(const struct dentry *d, const struct dentry *top);
/* is_local_mountpoint(): something of namespace ns is mounted on d (the flag first,
 * inline, as the kernel's: most names are no mount point) */
bool __is_local_mountpoint(struct uvfs *fs, const struct mnt_namespace *ns,
			   const struct dentry *d);
static inline bool is_local_mountpoint(struct uvfs *fs, const struct mnt_namespace *ns,
				       const struct dentry *d)
{
	return d_mountpoint(d) && __is_local_mountpoint(fs, ns, d);
}
/* detach_mounts(): d is going (rmdir, unlink, a rename over it): what other
 * namespaces mounted on it is unmounted, lazily. */
void __detach_mounts(struct uvfs *fs, struct dentry *d);
static inline void detach_mounts(struct uvfs *fs, struct dentry *d)
{
	if (d_mountpoint(d))
		__detach_mounts(fs, d);
}
/* The root mount of ns: the one on the rootfs's root (the top of its stack). */
struct mount *ns_root_mount(struct uvfs *fs, const struct mnt_namespace *ns);

/* __mnt_is_readonly(): the mount or its superblock is read-only */
static inline bool mnt_is_readonly(const struct mount *mnt)
{
	return (mnt->mnt_flags & MNT_READONLY) || mnt->mnt_sb->s_readonly;
}
/* path_noexec(): no exec through this mount */
static inline bool path_noexec(const struct path *path)
{
	return (path->mnt->mnt_flags & MNT_NOEXEC) || (path->mnt->mnt_sb->s_flags & SB_I_NOEXEC);
}
/* may_open_dev(): devices may be opened through this mount */
static inline bool may_open_dev(const struct path *path)
{
	return !(path->mnt->mnt_flags & MNT_NODEV) && !(path->mnt->mnt_sb->s_flags & SB_I_NODEV);
}
/* atime_needs_update()'s mount half, and touch_atime()'s mnt_get_write_access() */
lockless_read
static inline enum atime_rule mnt_atime_rule(const struct mount *mnt, const struct inode *inode)
{
	int f = __atomic_load_n(&mnt->mnt_flags, __ATOMIC_RELAXED);

	if (IS_NOATIME(inode) || (f & (MNT_NOATIME | MNT_READONLY)) ||
	    __atomic_load_n(&mnt->mnt_sb->s_readonly, __ATOMIC_RELAXED) ||
	    ((f & MNT_NODIRATIME) && S_ISDIR(inode->i_mode)))
		return ATIME_NEVER;
	return f & MNT_RELATIME ? ATIME_RELATIME : ATIME_STRICT;
}
/* touch_atime() */
static inline void touch_atime(const struct path *path)
{
	inode_touch_atime(path->dentry->d_inode, mnt_atime_rule(path->mnt, path->dentry->d_inode));
}
/* mnt_want_write(): 0, or -EROFS on a read-only mount; nothing to give back (the
 * kernel's count of writers in progress only makes remounts wait) */
static inline int mnt_want_write(const struct mount *mnt)
{
	return mnt_is_readonly(mnt) ? -EROFS : 0;
}

#endif /* UVFS_MOUNT_H */
