/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dcache.h - dentries: the name -> inode cache that is also the directory tree.
 *
 * A dentry's name lives inline in d_iname when it is shorter than the personality's
 * inline length (39 bytes today, 31 before 6.8), or in a struct external_name: an
 * immutable, reference-counted copy that a plain rename *shares* between the moved
 * dentry and its victim (copy_name(), Linux 3.18+) and that is freed after a grace
 * period when the last reference goes (rcu_defer.c, or call_rcu without ns_lock).
 *
 * Every field is protected by uvfs.ns_lock (internal.h) unless it says otherwise.
 */
#ifndef UVFS_DCACHE_H
#define UVFS_DCACHE_H

#include "inode.h"
#include "internal.h"

#include <urcu/rcuhlist.h>

struct inode;
struct super_block;

/* A name with its hash, as struct qstr in the kernel.  The bytes need not be
 * NUL-terminated when a qstr points into a path being walked. */
struct qstr {
	union {
		struct {
			uint32_t hash;
			uint32_t len;
		};
		uint64_t hash_len;  /* both at once, as the lockless walk compares them */
	};
	const unsigned char *name;
};

#define QSTR_INIT(n, l) { .hash = 0, .len = (l), .name = (const unsigned char *)(n) }

struct external_name {
	atomic_uint count;            /* dentries and snapshots using it */
	uint32_t len;                 /* immutable */
	uint64_t id;                  /* immutable: identity shown by introspection */
	struct uvfs *fs;              /* immutable: whose counters it is charged to */
	struct rcu_head head;         /* for the deferred free */
	unsigned char name[];         /* immutable, NUL-terminated */
};

/* d_flags */
#define DCACHE_HASHED      0x0001u /* on the hash table: reachable by lookup */
#define DCACHE_MOUNTED     0x0002u /* some mount has this dentry as mountpoint */
#define DCACHE_PINNED      0x0004u /* the fs holds a reference (tmpfs's dget in mknod) */
#define DCACHE_DEAD        0x0008u /* killed: refcount may not be raised again */
#define DCACHE_TMPFILE     0x0010u /* O_TMPFILE dentry, named "#<ino>", never hashed */
#define DCACHE_DIR_DEAD    0x0020u /* directory removed (S_DEAD on its inode) */
/* The inode's type, kept in the dentry (the kernel's DCACHE_ENTRY_TYPE) so that a
 * walk through the middle of a path reads no inode: set when the dentry becomes
 * positive, cleared when it dies. */
#define DCACHE_DIRECTORY_TYPE 0x0040u
#define DCACHE_SYMLINK_TYPE   0x0080u
#define DCACHE_ENTRY_TYPE     (DCACHE_DIRECTORY_TYPE | DCACHE_SYMLINK_TYPE)
/* The inode has ->revalidate (the kernel's DCACHE_OP_REVALIDATE): a walk must ask
 * it before trusting the dentry.  Set and cleared with the type. */
#define DCACHE_OP_REVALIDATE  0x0100u
/* may_lookup() has something to ask before anything is looked up in this directory:
 * its inode has ->permission (the kernel's IOP_FASTPERM cleared), or its mode denies
 * search to some class (set with the type, and again when the mode changes:
 * d_update_search_check()); the lockless walk's common step never stands on such a
 * dentry, and a directory every class may search costs the walk nothing. */
#define DCACHE_OP_PERMISSION  0x0200u
#define DCACHE_OP_MASK        (DCACHE_OP_REVALIDATE | DCACHE_OP_PERMISSION)
/* Nothing may be mounted on it (the kernel's DCACHE_CANT_MOUNT, dont_mount()): procfs
 * sets it on /proc/PID/fd/N and fdinfo/N when it makes them, as proc_fd_instantiate()
 * and proc_fdinfo_instantiate() do (6.18; the kernel checked); lock_mount() says ENOENT */
#define DCACHE_CANT_MOUNT     0x0400u
/* the filesystem's own mark, for its ->d_release (memfs: a closed memfd's name
 * points at it) */
#define DCACHE_FS_MARK        0x0800u

/*
 * 128 bytes, two cache lines (the kernel's is 192, with 40 of inline name too): what
 * the lockless walk reads -- flags, the chain, parent, name, inode, the start of an
 * inline name -- in the first.  The children are an hlist as in the kernel since 6.8 (da549bdd15c2), and
 * the superblock is found through the inode (d_sb()) instead of a field.
 */
struct dentry {
	/* (No d_seq: the lockless walk validates everything it read with the
	 * instance's ns_seq at its end, walk.c, so nothing reads a per-dentry
	 * count.) */
	unsigned int d_flags;
	/* ns_lock: mounts whose mountpoint it is, of any parent and namespace
	 * (DCACHE_MOUNTED while not zero; the kernel's struct mountpoint m_count).
	 * Written at mount and unmount only: the walk's line stays clean. */
	unsigned int d_mounts;
	struct cds_hlist_node d_hash;   /* bucket chain, while DCACHE_HASHED */
	struct dentry *d_parent;        /* holds a reference; self for a root */
	struct qstr d_name;             /* .name is d_iname or an external name's bytes */
	struct inode *d_inode;          /* NULL: negative; holds an inode reference */
	/* right after the walk's fields, as the kernel places d_iname: a name of up to
	 * 7 bytes is compared without touching a second cache line */
	unsigned char d_iname[UVFS_DNAME_INLINE_LEN];
	int d_count;                    /* references */
	/* readdir position in d_parent (the fs assigns it; tmpfs's simple_offset
	 * numbers end below DIR_OFFSET_EOD, S32_MAX) */
	uint32_t d_offset;
	struct cds_hlist_node d_sib;    /* in d_parent->d_children, newest first */
	struct cds_hlist_head d_children;
};

_Static_assert(sizeof(struct dentry) == 128, "memory per file: docs/PERFORMANCE.md");
_Static_assert(offsetof(struct dentry, d_iname) + 8 <= 64,
	       "the lockless walk's fields and a short name share a cache line");

/* The lockless walk compares an inline name a word at a time (dname_equal() in
 * walk.c asserts the length); an aligned word is one load. */
_Static_assert(offsetof(struct dentry, d_iname) % sizeof(long) == 0,
	       "inline names are read a word at a time");

static inline bool IS_ROOT(const struct dentry *d) { return d->d_parent == d; }

/* The dentry's superblock: its inode's, or (negative) its parent's, which is always
 * a positive directory -- a dentry dies only after its children. */
static inline struct super_block *d_sb(const struct dentry *d)
{
	const struct inode *inode = d->d_inode ? d->d_inode : d->d_parent->d_inode;

	return inode->i_sb;
}
static inline bool d_unhashed(const struct dentry *d) { return !(d->d_flags & DCACHE_HASHED); }
static inline bool d_is_negative(const struct dentry *d) { return d->d_inode == NULL; }
/* d_unlinked(): shown as "(deleted)" by d_path. */
static inline bool d_unlinked(const struct dentry *d) { return d_unhashed(d) && !IS_ROOT(d); }
static inline bool d_mountpoint(const struct dentry *d) { return d->d_flags & DCACHE_MOUNTED; }
static inline bool d_cant_mount(const struct dentry *d) { return d->d_flags & DCACHE_CANT_MOUNT; }

/* Changes of what the lockless walk and d_path_rcu() read meanwhile: d_flags, and
 * the name's pointer (published with release, the bytes before it: prepend_name_rcu()
 * loads it with acquire, as the kernel's __d_path reads d_name.name) */
static inline void d_flags_set(struct dentry *d, unsigned int f)
{
	WRITE_ONCE(d->d_flags, d->d_flags | f);
}
static inline void d_flags_clear(struct dentry *d, unsigned int f)
{
	WRITE_ONCE(d->d_flags, d->d_flags & ~f);
}
static inline void d_set_name_ptr(struct dentry *d, const unsigned char *name)
{
	__atomic_store_n(&d->d_name.name, name, __ATOMIC_RELEASE);
}

static inline bool dname_external(const struct dentry *d)
{
	return d->d_name.name != d->d_iname;
}

static inline struct external_name *external_name(const struct dentry *d)
{
	return container_of(d->d_name.name, struct external_name, name);
}

/* The hash of a name (namehash.h).  Linux salts it with the parent since 4.8; uvfs
 * salts the bucket instead (d_hash_index()), so equal names in different directories
 * still land in different buckets. */
uint32_t d_name_hash(const unsigned char *name, size_t len);

/* d_alloc - a new negative, unhashed child of parent named name (allocates an
 * external name when the personality says it is too long to be inline).
 * NULL on ENOMEM.  d_alloc_root: a root dentry named "/". */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
struct dentry *d_alloc_root(struct super_block *sb, struct inode *root_inode);
/* d_init_target / d_release_target - a plain rename's negative target made in the
 * caller's memory, never hashed (dcache.c says why this is the kernel's behaviour). */
bool d_init_target(struct dentry *d, struct dentry *parent, const struct qstr *name);
void d_release_target(struct dentry *d);

static inline struct dentry *dget(struct dentry *d)
{
	assert(!(d->d_flags & DCACHE_DEAD));
	d->d_count++;
	return d;
}
/*
 * d_make_persistent / d_make_discardable (fs/dcache.c, the helpers of 6.18's
 * tree-in-dcache filesystems): a filesystem whose dcache is its directory tree
 * (tmpfs's dget in shmem_mknod) pins a positive dentry while the name exists, and
 * lets it go at unlink.  The dcache keeps the mark (DCACHE_PINNED) so that teardown
 * knows whose reference it is.
 */
static inline void d_make_persistent(struct dentry *d)
{
	dget(d);
	d_flags_set(d, DCACHE_PINNED);
}

/* dput - drop a reference.  The last one kills the dentry if it is unhashed or
 * negative (tmpfs never keeps either: always_delete_dentry), dropping in turn the
 * parent's reference it held. */
void dput_last(struct dentry *d);
static inline void dput(struct dentry *d)
{
	/* inline: most references dropped are not the last */
	if (!d)
		return;
	assert(ns_locked(d_sb(d)->s_fs));
	assert(d->d_count > 0);
	if (--d->d_count == 0)
		dput_last(d);
}

static inline void d_make_discardable(struct dentry *d)
{
	assert(d->d_flags & DCACHE_PINNED);
	d_flags_clear(d, DCACHE_PINNED);
	dput(d);
}

/* d_lookup - the hashed dentry of (parent, name) with a reference, or NULL.
 * name->hash must be d_name_hash(name->name, name->len). */
struct dentry *d_lookup(struct dentry *parent, const struct qstr *name);

/* d_add - make d positive with inode (a reference the caller passes on; NULL keeps it
 * negative) and hash it. d_instantiate: the same for an already hashed dentry. */
void d_add(struct dentry *d, struct inode *inode);
/* The directory d's mode changed: DCACHE_OP_PERMISSION as the new mode says. */
void d_update_search_check(struct dentry *d);
void d_instantiate(struct dentry *d, struct inode *inode);
/* d_rehash / d_drop - put on / take off the hash table. */
void d_rehash(struct dentry *d);
void d_drop(struct dentry *d);
/* d_delete - the name was unlinked: unhash it; the inode stays attached for whoever
 * still holds the dentry (open files, cwd), which then prints "(deleted)". */
void d_delete(struct dentry *d);
/* The directory d was removed (vfs_rmdir, or replaced by a rename: S_DEAD on its
 * inode): nothing may be created or looked up in it again (ENOENT). */
static inline void d_mark_dead_dir(struct dentry *d)
{
	d_flags_set(d, DCACHE_DIR_DEAD);
}

/* d_move - after a successful plain rename of dentry over target (a hashed negative
 * or positive dentry): dentry takes target's name and parent; what target keeps is
 * the personality's rule (abi.c).  target ends up unhashed.
 * d_exchange - after RENAME_EXCHANGE: the two swap names and parents, both hashed. */
void d_move(struct dentry *dentry, struct dentry *target);
void d_exchange(struct dentry *d1, struct dentry *d2);

/* d_set_tmpfile_name - name an unhashed O_TMPFILE dentry "#<ino>" (d_mark_tmpfile). */
void d_set_tmpfile_name(struct dentry *d, uint64_t ino);

/* Is ancestor an ancestor of d, or d itself? (d_ancestor/is_subdir) */
bool d_is_subdir(const struct dentry *d, const struct dentry *ancestor);

/* d_release_tree - unmount: free root and every dentry below it, whatever their
 * counts (every task and file is gone by then).  Inodes lose the references the
 * dentries held; the superblock frees what is left. */
void d_release_tree(struct dentry *root);

/* The dentry table: created and destroyed with the instance. */
int dcache_init(struct uvfs *fs);
void dcache_exit(struct uvfs *fs);

/* Name snapshot: a stable copy of a dentry's name (take_dentry_name_snapshot). */
struct name_snapshot {
	struct qstr name;
	unsigned char inline_name[UVFS_DNAME_INLINE_LEN];
};
void take_dentry_name_snapshot(struct name_snapshot *snap, const struct dentry *d);
void release_dentry_name_snapshot(struct name_snapshot *snap);

#endif /* UVFS_DCACHE_H */
