/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * namei.h - path walk: from a string to a (mount, dentry), the kernel's namei.
 *
 * Called with ns_lock held.  The walk keeps a reference on the path it stands on
 * (nd->path) and on the task's root (nd->root); nd_done() drops both.
 */
#ifndef UVFS_NAMEI_H
#define UVFS_NAMEI_H

#include "dcache.h"
#include "inode.h"
#include "mount.h"
#include "permission.h"

struct uvfs_task;

#define UVFS_PATH_MAX 4096
#define UVFS_NAME_MAX 255
#define MAXSYMLINKS 40

/* lookup flags */
#define LOOKUP_FOLLOW    0x0001u  /* follow a final symlink */
#define LOOKUP_DIRECTORY 0x0002u  /* the result must be a directory */
#define LOOKUP_EMPTY     0x0004u  /* an empty path means dirfd itself */
#define LOOKUP_RCU       0x0008u  /* ->revalidate: no ns_lock, change nothing */
/* openat2's resolve flags (the kernel's LOOKUP_NO_* and scoping flags): the locked
 * walk only (openat2 never walks locklessly) */
#define LOOKUP_NO_SYMLINKS   0x0010u  /* any symlink: ELOOP */
#define LOOKUP_NO_MAGICLINKS 0x0020u  /* a magic link: ELOOP */
#define LOOKUP_NO_XDEV       0x0040u  /* crossing a mount, either way: EXDEV */
#define LOOKUP_BENEATH       0x0080u  /* nothing above the start: EXDEV */
#define LOOKUP_IN_ROOT       0x0100u  /* the start is the root ("/" and ".." stop there) */
#define LOOKUP_IS_SCOPED     (LOOKUP_BENEATH | LOOKUP_IN_ROOT)
#define LOOKUP_RESOLVE       (LOOKUP_NO_SYMLINKS | LOOKUP_NO_MAGICLINKS | LOOKUP_NO_XDEV | \
			      LOOKUP_IS_SCOPED)

enum last_type { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

/* What a component of len (> 0) bytes is: ".", "..", or a name. */
static inline enum last_type component_type(const unsigned char *c, size_t len)
{
	if (c[0] != '.' || len > 2)
		return LAST_NORM;
	if (len == 1)
		return LAST_DOT;
	return c[1] == '.' ? LAST_DOTDOT : LAST_NORM;
}

struct nameidata {
	struct uvfs_task *task;
	struct path path;          /* where the walk stands (referenced) */
	struct path root;          /* the task's root, or the start of a scoped walk
				    * (LOOKUP_IS_SCOPED) (not referenced: namei.c) */
	struct qstr last;          /* the final component (not looked up) */
	enum last_type last_type;
	unsigned int flags;        /* LOOKUP_*; a trailing slash adds FOLLOW|DIRECTORY */
	bool last_slash;           /* the final component was followed by '/' */
	bool last_hashed;          /* last.hash is d_name_hash()'s already */
	int total_link_count;      /* symlinks followed so far (<= MAXSYMLINKS) */
	uint16_t dir_mode;         /* the final component's directory, as the open saw */
	uid_t dir_uid;             /* it (may_create_in_sticky); set by open only */
	const char *pending_link;  /* nd_pick_link() kept this trailing symlink body */
	int nlinks;                /* bodies held in links[] */
	char *links[MAXSYMLINKS + 1];
};

/*
 * path_parentat - walk name up to its final component: nd->path is the parent,
 * nd->last / nd->last_type the final component.  Returns 0 or -errno; on error nd
 * holds nothing.  On success the caller ends with nd_done().
 */
int path_parentat(struct nameidata *nd, struct uvfs_task *task, int dfd,
		  const char *name, unsigned int flags);
/*
 * path_parentat_like - the same for name when a walk of like_name from the same
 * starting point, under the same ns_lock, has just given like: if the two have the
 * same text up to their last components, name's parent is like's, and nothing is
 * walked twice (a rename within one directory).  1 when it could not tell (nd
 * untouched: walk with path_parentat), else as path_parentat.
 */
int path_parentat_like(struct nameidata *nd, const struct nameidata *like,
		       const char *like_name, const char *name);

/* handle_dots - a last component that is no name ("/", ".", ".."): nd->path moves
 * as walk.c's step would move it.  0. */
int handle_dots(struct nameidata *nd);
/* The dentry of nd->last in nd->path (referenced, maybe negative), or ERR_PTR. */
struct dentry *nd_lookup_last(struct nameidata *nd);
/* nd_lookup_target - the last component as a plain rename's target: where the
 * filesystem's dcache holds every name (->lookup_noent) and this one is free, slot,
 * made by d_init_target() for the caller to d_release_target(); else as
 * nd_lookup_last(). */
struct dentry *nd_lookup_target(struct nameidata *nd, struct dentry *slot);
/* step_into()'s walk flags, as the kernel's */
#define WALK_FOLLOW   1u  /* a symlink is followed */
#define WALK_TRAILING 2u  /* ... and it ends the walk: may_follow_link() applies */

/*
 * step_into - the last component's step, for a walk that looked it up itself (open):
 * nd->path moves onto d (found in it, referenced; ERR_PTR passes through), crossing
 * mounts: 0.  A negative d is -ENOENT.  A symlink, with WALK_FOLLOW (always with
 * WALK_TRAILING: the walk's middle components are walk.c's), goes to nd_pick_link().
 */
int step_into(struct nameidata *nd, struct dentry *d, unsigned int walk);
/*
 * nd_pick_link - walk.c's pick_link() for the trailing symlink at link, in nd->path:
 * ELOOP, may_follow_link(), then 0 with nd->path the target of a magic link, or 1
 * with the body kept for nd_follow_link(); -errno.  Under ns_lock.
 */
int nd_pick_link(struct nameidata *nd, const struct path *link);
/* nd_follow_dotdot - ".." as the last component: walk.c's follow_dotdot(). */
int nd_follow_dotdot(struct nameidata *nd);
/* lookup_slow - the dcache missed: a new dentry of dir for the filesystem's
 * ->lookup (__lookup_slow), referenced, maybe negative; ERR_PTR. */
struct dentry *lookup_slow(struct dentry *dir, const struct qstr *name);

/*
 * may_lookup() (fs/namei.c): before a component is looked up in dir — any component,
 * ".", ".." and the last one included — the walk asks for search permission on it
 * (EACCES; procfs's ->permission also says ESRCH for a /proc/PID whose task is gone,
 * so a walk starting in one fails there, as on Linux).  A directory every class may
 * search, without ->permission, needs no question (DCACHE_OP_PERMISSION clear): the
 * common case costs a flag test.  rcu: the lockless walk (cred is the walker's own,
 * which only it changes).
 */
lockless_read static inline int may_lookup(const struct cred *cred, const struct dentry *dir,
					   bool rcu)
{
	const struct inode *inode;

	if (likely(!(READ_ONCE(dir->d_flags) & DCACHE_OP_PERMISSION)))
		return 0;
	inode = READ_ONCE(dir->d_inode);
	if (!inode)
		return rcu ? -ECHILD : 0;
	/* __inode_permission(), not the inline fast path: it is lockless_read (a
	 * procfs inode made by another thread may be read here before ns_seq says so),
	 * which gcc does not carry into an inline copy -- its ThreadSanitizer reported
	 * the fast path's read of i_uid/i_mode in test_stress; and a directory with
	 * DCACHE_OP_PERMISSION seldom passes that path anyway */
	return __inode_permission(cred, (struct inode *)inode, MAY_EXEC | (rcu ? MAY_NOT_BLOCK : 0));
}

/*
 * may_follow_link() (fs/namei.c): with fs.protected_symlinks set, a trailing symlink in
 * a sticky world-writable directory is followed only by its owner, or when the
 * directory's owner owns it too — root included (CAP_DAC_OVERRIDE is ignored
 * here on purpose).  -EACCES otherwise.  Both walks ask this one function; the
 * lockless one with what it read, checked by the sequence count afterwards.
 */
static inline int may_follow_link(const struct uvfs *fs, uid_t fsuid, uid_t dir_uid,
				  mode_t dir_mode, uid_t link_uid)
{
	if (!fs->protected_symlinks || link_uid == fsuid)
		return 0;
	if ((dir_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return 0;
	return dir_uid == link_uid ? 0 : -EACCES;
}
/* A final symlink with this body is to be followed: keep a copy for
 * nd_follow_link(); returns 1 (or -ENOMEM). */
int nd_pending_link(struct nameidata *nd, const char *body);
/* Walk the body nd_pick_link() kept, from the link's directory, up to its final
 * component (open's trailing-symlink loop). */
int nd_follow_link(struct nameidata *nd);
/* Release what the walk holds. */
void nd_done(struct nameidata *nd);
/* nd_init_at - nd at path itself, nothing left to walk (LAST_ROOT): file_open_root()'s
 * walk of "" from a path (open_by_handle_at).  nd->path holds its own reference;
 * the caller ends with nd_done(). */
void nd_init_at(struct nameidata *nd, struct uvfs_task *task, const struct path *path,
		unsigned int flags);

/* filename_lookup - the whole walk (stat, chdir, ...): *out referenced on success. */
int filename_lookup(struct uvfs_task *task, int dfd, const char *name,
		    unsigned int flags, struct path *out);

/*
 * lookup_one - the child name of dir (a directory dentry) from the dcache or the
 * filesystem, referenced, maybe negative; ERR_PTR(-ENAMETOOLONG) etc.
 */
struct dentry *lookup_one(struct dentry *dir, const struct qstr *name);

/*
 * filename_create - the parent of name and a negative dentry for its last component,
 * for mkdir/mknod/symlink/link.  EEXIST for ".", "..", "/" or an existing name,
 * ENOENT for a trailing slash unless want_dir, ENOENT in a removed directory.
 * On success nd holds the parent (nd_done() afterwards) and the dentry is referenced.
 */
struct dentry *filename_create(struct nameidata *nd, struct uvfs_task *task, int dfd,
			       const char *name, bool want_dir);

/* vfs_mkdir - link.c's mkdir of d, negative in dir (after filename_create): may_create,
 * ->mkdir with mode & 01777 less the task's umask, fsnotify. */
int vfs_mkdir(struct uvfs_task *task, struct inode *dir, struct dentry *d, mode_t mode);

/* may_create()'s permission check, where the vfs_ call makes it (after filename_create
 * found the name free): write and search permission on the directory — EPERM if it is
 * immutable, EACCES. */
static inline int may_create(const struct cred *cred, struct inode *dir)
{
	return inode_permission(cred, dir, MAY_WRITE | MAY_EXEC);
}

/* check_sticky(): in a sticky directory only the file's owner, the directory's
 * owner or CAP_FOWNER may remove or rename a name: true when cred may not. */
static inline bool check_sticky(const struct cred *cred, const struct inode *dir,
				const struct inode *inode)
{
	if (!(dir->i_mode & S_ISVTX))
		return false;
	if (inode->i_uid == cred->fsuid || dir->i_uid == cred->fsuid)
		return false;
	return !cred_capable(cred, CAP_FOWNER);
}

/* may_delete(): in the kernel's order — a negative victim ENOENT; write and search
 * permission on the directory (inode_permission: EPERM if it is immutable, EACCES);
 * EPERM for an append-only directory, the sticky rule or an append-only or
 * immutable victim (may_delete_entry()); then the type checks; ENOENT in
 * a removed directory. */
static inline int may_delete(const struct cred *cred, const struct dentry *dir,
			     const struct dentry *victim, bool isdir)
{
	int err;

	if (d_is_negative(victim))
		return -ENOENT;
	err = inode_permission(cred, dir->d_inode, MAY_WRITE | MAY_EXEC);
	if (err)
		return err;
	if (IS_APPEND(dir->d_inode))
		return -EPERM;
	if (check_sticky(cred, dir->d_inode, victim->d_inode) || IS_APPEND(victim->d_inode) ||
	    IS_IMMUTABLE(victim->d_inode))
		return -EPERM;
	if (isdir) {
		if (!S_ISDIR(victim->d_inode->i_mode))
			return -ENOTDIR;
		if (IS_ROOT(victim))
			return -EBUSY;
	} else if (S_ISDIR(victim->d_inode->i_mode)) {
		return -EISDIR;
	}
	if (dir->d_flags & DCACHE_DIR_DEAD)
		return -ENOENT;
	return 0;
}

/* Cross any mounts stacked on path (follow_mount). */
void follow_mounts(struct uvfs *fs, struct path *path);

/* readlink of a symlink or a magic link as reader sees it: the bytes copied (no
 * NUL, truncated to bufsiz), -EINVAL if dentry is neither, other -errno. */
ssize_t vfs_readlink(struct uvfs_task *reader, struct dentry *dentry, char *buf,
		     size_t bufsiz);

/* The symlink body of dentry's inode; NULL if it is not a symlink. */
const char *d_get_link(const struct dentry *dentry);

/*
 * stat_rcu - fstatat(dirfd, name) without ns_lock or references (walk.c): 0 with
 * *st filled, -errno, or -ECHILD when the locked walk must answer instead (also for a
 * dirfd that is not an open directory).  name is not empty.  Called without ns_lock.
 */
int stat_rcu(struct uvfs_task *task, int dirfd, const char *name, bool follow,
	     struct stat *st);
/* readlink_rcu - readlinkat(dirfd, name) the same way: the length copied to buf,
 * -errno, or -ECHILD for the locked call. */
ssize_t readlink_rcu(struct uvfs_task *task, int dirfd, const char *name, char *buf,
		     size_t bufsiz);

/* parent_walk_locked - the walk (walk.c) of name from nd->path up to its last
 * component, under ns_lock, for path_parentat() and nd_follow_link(): 0 (*len: the
 * length of name, which it read to the end) with nd->path the parent and nd->last*
 * set, or -errno. */
int parent_walk_locked(struct nameidata *nd, const char *name, size_t *len);
/* parent_walk_plain - the commonest shape only (plain names, directories with
 * nothing on them), tried first; it decides no errno: true with nd->path the parent,
 * referenced (the path it started from is borrowed, path_init()); false, nothing
 * changed, for anything else. */
bool parent_walk_plain(struct nameidata *nd, const char *name, size_t *len);
/* path_walk_locked - the whole of filename_lookup()'s walk the same way: 0 with
 * nd->path the result, or -errno. */
int path_walk_locked(struct nameidata *nd, const char *name);

/* Validate and measure a user path: -ENAMETOOLONG at PATH_MAX, -ENOENT if empty and
 * not allowed, -EFAULT for NULL. */
int getname_check(const char *name, bool empty_ok);

#endif /* UVFS_NAMEI_H */
