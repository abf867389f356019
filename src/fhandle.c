// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fhandle.c - name_to_handle_at and open_by_handle_at (fs/fhandle.c, with
 * mm/shmem.c's shmem_encode_fh() and shmem_fh_to_dentry() for memfs, the only
 * filesystem of uvfs that exports handles, as tmpfs does).
 *
 * A memfs handle is tmpfs's: type 1, three words -- the inode's generation, then the
 * inode number's low and high halves -- so a handle made under uvfs looks like one
 * made by the kernel, and names the inode, not a path: it survives renames, and is
 * ESTALE once the inode is gone (a number that came back has another generation).
 * The kernel finds the inode again in its inode hash and takes any dentry of it
 * (d_find_any_alias()); memfs keeps every linked inode's dentries in the tree, so
 * uvfs looks there, then among what tasks hold open (a removed file still open, a
 * removed directory still a cwd) -- a walk of the superblock's dentries, which costs
 * what a find(1) of it costs: open_by_handle_at is a rare call (backup and file
 * server daemons, fanotify's listeners; uvfs refuses fanotify).
 *
 * Locking: every entry point takes ns_lock through task_enter() for its whole run.
 */
#include <fcntl.h>

#include "cred.h"
#include "dcache.h"
#include "file.h"
#include "inode.h"
#include "mount.h"
#include "namei.h"
#include "task.h"

/* include/uapi/linux/fcntl.h, include/linux/exportfs.h: Debian 12's headers lack
 * the flags of 6.5+ */
#ifndef AT_HANDLE_FID
#define AT_HANDLE_FID 0x200
#endif
#ifndef AT_HANDLE_MNT_ID_UNIQUE
#define AT_HANDLE_MNT_ID_UNIQUE 0x001
#endif
#ifndef AT_HANDLE_CONNECTABLE
#define AT_HANDLE_CONNECTABLE 0x002
#endif
#define FILEID_TMPFS 1                 /* what shmem_encode_fh() returns */
#define FILEID_INO64_GEN 0x81          /* the default fid (exportfs_encode_ino64_fid) */
#define FILEID_INVALID 0xff
#define FILEID_IS_CONNECTABLE 0x10000
#define FILEID_IS_DIR 0x20000
#define FILEID_USER_FLAGS_MASK 0xffff0000u
#define HANDLE_DWORDS 3                /* both encodings: three 32-bit words */

_Static_assert(MAX_HANDLE_SZ == 128, "the kernel's limit on handle_bytes");

/*
 * exportfs_encode_fh(): into fh (room for dwords words) the handle of inode, its
 * type, or FILEID_INVALID when it does not fit.  memfs: shmem_encode_fh(); a
 * filesystem without export operations, asked for a fid (AT_HANDLE_FID):
 * exportfs_encode_ino64_fid().
 */
static int encode_fh(const struct inode *inode, uint32_t *fh, unsigned int dwords)
{
	uint64_t ino = inode->i_ino;

	if (dwords < HANDLE_DWORDS)
		return FILEID_INVALID;
	if (inode->i_sb->s_op->export_fh) {
		fh[0] = inode->i_generation;
		fh[1] = (uint32_t)ino;
		fh[2] = (uint32_t)(ino >> 32);
		return FILEID_TMPFS;
	}
	fh[0] = (uint32_t)ino;
	fh[1] = (uint32_t)(ino >> 32);
	/* a device inode's word holds its number, not a generation */
	fh[2] = S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode) ? 0 : inode->i_generation;
	return FILEID_INO64_GEN;
}

_Static_assert(FID_DWORDS == HANDLE_DWORDS, "a fid's size");

/* a fid of anything (fsnotify's fdinfo: show_mark_fhandle()) */
int exportfs_encode_fid(const struct inode *inode, uint32_t *fh, unsigned int *dwords)
{
	int type = encode_fh(inode, fh, *dwords);

	if (type != FILEID_INVALID)
		*dwords = HANDLE_DWORDS;
	return type;
}

int uvfs_name_to_handle_at(struct uvfs_task *task, int dirfd, const char *name,
			   struct file_handle *handle, void *mount_id, int flags)
{
	uint32_t fh[HANDLE_DWORDS];
	struct super_block *sb;
	struct path path;
	unsigned int lf = 0;
	int type, err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH | AT_HANDLE_FID |
		      AT_HANDLE_MNT_ID_UNIQUE | AT_HANDLE_CONNECTABLE))
		return -EINVAL;
	/* a connectable handle is meant to be decoded with its path: not a fid, and
	 * not of a descriptor whose name may be unknown */
	if ((flags & AT_HANDLE_CONNECTABLE) && (flags & (AT_HANDLE_FID | AT_EMPTY_PATH)))
		return -EINVAL;
	if (flags & AT_SYMLINK_FOLLOW)
		lf |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lf |= LOOKUP_EMPTY;
	task_enter(task);
	err = filename_lookup(task, dirfd, name, lf, &path);
	if (err)
		goto out;
	sb = path.dentry->d_inode->i_sb;
	/* exportfs_can_encode_fh(): a fid of anything; a handle of what exports them;
	 * a connectable one of nothing here (tmpfs: EOPNOTSUPP, files and directories
	 * alike, on 6.18) */
	if (!(flags & AT_HANDLE_FID) && (!sb->s_op->export_fh || (flags & AT_HANDLE_CONNECTABLE))) {
		err = -EOPNOTSUPP;
		goto put;
	}
	if (!handle) {
		err = -EFAULT;
		goto put;
	}
	if (handle->handle_bytes > MAX_HANDLE_SZ) {
		err = -EINVAL;
		goto put;
	}
	type = encode_fh(path.dentry->d_inode, fh, handle->handle_bytes >> 2);
	/* the mount's id is written whatever the handle's fate, before it */
	if (!mount_id) {
		err = -EFAULT;
		goto put;
	}
	if (flags & AT_HANDLE_MNT_ID_UNIQUE)
		*(uint64_t *)mount_id = path.mnt->mnt_id_unique;
	else
		*(int *)mount_id = path.mnt->mnt_id;
	/* too small: the size it needs and FILEID_INVALID, nothing else */
	handle->handle_bytes = HANDLE_DWORDS * sizeof(uint32_t);
	handle->handle_type = type;
	if (type == FILEID_INVALID)
		err = -EOVERFLOW;
	else
		memcpy(handle->f_handle, fh, sizeof(fh));
put:
	path_put(&path);
out:
	task_leave(task);
	return err;
}

/* A dentry of sb's inode (ino, gen): the first found in the tree (children newest
 * first, as d_find_any_alias() takes the newest alias of a hard link's names in one
 * directory), NULL without one */
static struct dentry *find_in_tree(struct dentry *root, uint64_t ino, uint32_t gen)
{
	struct dentry *d = root;

	for (;;) {
		struct cds_hlist_node *next;

		if (d->d_inode && d->d_inode->i_ino == ino && d->d_inode->i_generation == gen)
			return d;
		/* down to the first child; else the next sibling of d or of the nearest
		 * ancestor that has one */
		next = d->d_inode ? d->d_children.next : NULL;
		while (!next) {
			if (d == root)
				return NULL;
			next = d->d_sib.next;
			if (!next)
				d = d->d_parent;
		}
		d = cds_hlist_entry(next, struct dentry, d_sib);
	}
}

static bool is_inode(const struct dentry *d, const struct super_block *sb, uint64_t ino,
		     uint32_t gen)
{
	return d && d->d_inode && d->d_inode->i_sb == sb && d->d_inode->i_ino == ino &&
	       d->d_inode->i_generation == gen;
}

/* One held by a task: an open file (a removed file still open), a cwd or root (a
 * removed directory): the first task's, in the order tasks were made */
static struct dentry *find_held(struct uvfs *fs, const struct super_block *sb, uint64_t ino,
				uint32_t gen)
{
	struct uvfs_task *t;

	cds_list_for_each_entry(t, &fs->tasks, t_list) {
		const struct fdtable *ft = t->files;

		for (unsigned int i = 0; ft && i < ft->size; i++)
			if (ft->fd[i] && is_inode(ft->fd[i]->f_path.dentry, sb, ino, gen))
				return ft->fd[i]->f_path.dentry;
		if (!t->fs_struct)
			continue;
		if (is_inode(t->fs_struct->pwd.dentry, sb, ino, gen))
			return t->fs_struct->pwd.dentry;
		if (is_inode(t->fs_struct->root.dentry, sb, ino, gen))
			return t->fs_struct->root.dentry;
	}
	return NULL;
}

/* shmem_fh_to_dentry(): the dentry a memfs handle names, or NULL (ESTALE) */
static struct dentry *fh_to_dentry(struct uvfs *fs, struct super_block *sb,
				   const struct file_handle *handle)
{
	uint32_t fh[HANDLE_DWORDS];
	struct dentry *d;
	uint64_t ino;

	if (!sb->s_op->export_fh || handle->handle_bytes >> 2 < HANDLE_DWORDS)
		return NULL;
	memcpy(fh, handle->f_handle, sizeof(fh));
	ino = fh[1] | (uint64_t)fh[2] << 32;
	d = find_in_tree(sb->s_root, ino, fh[0]);
	if (!d)
		d = find_held(fs, sb, ino, fh[0]);
	/* exportfs_decode_fh_raw(): a handle that says "directory" for what is not */
	if (d && (handle->handle_type & FILEID_IS_DIR) && !S_ISDIR(d->d_inode->i_mode))
		return NULL;
	return d;
}

int uvfs_open_by_handle_at(struct uvfs_task *task, int mount_fd, struct file_handle *handle,
			   int flags)
{
	struct path anchor, path;
	struct dentry *d;
	int err;

	task_enter(task);
	/* get_path_anchor(): the mount is the descriptor's, or the cwd's */
	if (mount_fd == AT_FDCWD) {
		anchor = task->fs_struct->pwd;
	} else {
		struct file *f = fdget(task, mount_fd);

		if (!f) {
			err = -EBADF;
			goto out;
		}
		anchor = f->f_path;
	}
	/* may_decode_fh(): the capability to search any directory */
	if (!cred_capable(&task->cred, CAP_DAC_READ_SEARCH)) {
		err = -EPERM;
		goto out;
	}
	if (!handle) {
		err = -EFAULT;
		goto out;
	}
	if (handle->handle_bytes > MAX_HANDLE_SZ || !handle->handle_bytes ||
	    handle->handle_type < 0 ||
	    ((unsigned int)handle->handle_type & FILEID_USER_FLAGS_MASK &
	     ~(unsigned int)(FILEID_IS_CONNECTABLE | FILEID_IS_DIR))) {
		err = -EINVAL;
		goto out;
	}
	d = fh_to_dentry(task->fs, anchor.mnt->mnt_sb, handle);
	if (!d) {
		err = -ESTALE;
		goto out;
	}
	/* the dentry on the anchor's mount, wherever it is in the tree: who may
	 * search everything is not held to the mount's subtree */
	path = (struct path){ .mnt = anchor.mnt, .dentry = d };
	err = open_path(task, &path, flags);
out:
	task_leave(task);
	return err;
}
