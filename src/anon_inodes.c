// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * anon_inodes.c - anon_inodefs (fs/anon_inodes.c): a filesystem mounted nowhere
 * whose inodes the files with no name are opened on, one inode of mode 0600 and no
 * type for each kind of file (Linux has one for all and gives each file its
 * operations: here they come with the kind's inode), named "anon_inode:KIND".
 *
 * Locking: ns_lock for everything here (uvfs.anon_inodes is made and read under it).
 */
#include <stdio.h>

#include "anon_inodes.h"
#include "dcache.h"
#include "inode.h"

#define ANON_KINDS 4

struct anon_inodes {
	struct mount *mnt;               /* a kern_mount of no namespace */
	struct dentry *d[ANON_KINDS];    /* one per kind, with its inode */
};

static const struct inode_operations anon_root_iops = { 0 };

/* anon_inodefs_dname(): "anon_inode:inotify" */
static char *anon_d_dname(const struct dentry *d, char *buf, int buflen)
{
	int n = snprintf(buf, (size_t)buflen, "anon_inode:%s", (const char *)d->d_name.name);

	return n < buflen ? buf : ERR_PTR(-ENAMETOOLONG);
}

/* generic_delete_inode(): nothing keeps an anonymous inode but its users */
static bool anon_drop_inode(const struct inode *inode)
{
	(void)inode;
	return true;
}

/* simple_statfs() with ANON_INODE_FS_MAGIC */
static void anon_statfs(const struct dentry *d, struct statfs *buf)
{
	(void)d;
	buf->f_type = 0x09041934;
	buf->f_bsize = UVFS_PAGE_SIZE;
	buf->f_namelen = 255;
}

static const struct super_operations anon_sops = {
	.drop_inode = anon_drop_inode,
	.statfs = anon_statfs,
	.d_dname = anon_d_dname,
};

static int anon_fill_super(struct super_block *sb, const struct fs_mount_opts *opts)
{
	struct inode *root;

	(void)opts;
	sb->s_op = &anon_sops;
	root = new_inode(sb, S_IFDIR | 0700);
	if (!root)
		return -ENOMEM;
	root->i_op = &anon_root_iops;
	sb->s_root = d_alloc_root(sb, root);
	if (!sb->s_root) {
		iput(root);
		return -ENOMEM;
	}
	return 0;
}

static const struct file_system_type anon_inodefs_type = {
	.name = "anon_inodefs",
	.fill_super = anon_fill_super,
};

bool is_anon_inode(const struct inode *inode)
{
	return inode->i_sb->s_type == &anon_inodefs_type;
}

int anon_inode_path(struct uvfs *fs, const char *name, const struct inode_operations *iops,
		    struct path *path)
{
	struct anon_inodes *a = fs->anon_inodes;
	struct inode *inode;
	struct dentry *d;
	int i;

	assert(ns_locked(fs));
	if (!a) {
		struct super_block *sb = mount_fs(fs, &anon_inodefs_type, NULL);
		struct mount *m;

		if (IS_ERR(sb))
			return (int)PTR_ERR(sb);
		a = uvfs_zalloc(sizeof(*a));
		m = a ? mnt_alloc(fs, sb, NULL, "anon_inodefs", 0) : NULL;
		sb_put(sb);
		if (!m) {
			free(a);
			return -ENOMEM;
		}
		/* kern_mount(): held by the instance, in no namespace; its last mntput
		 * frees it */
		m->mnt_flags |= MNT_UMOUNT;
		m->mnt_count = 1;
		a->mnt = m;
		fs->anon_inodes = a;
	}
	for (i = 0; i < ANON_KINDS && a->d[i]; i++)
		if (!strcmp((const char *)a->d[i]->d_name.name, name))
			goto out;
	assert(i < ANON_KINDS);
	/* alloc_anon_inode(): S_IRUSR | S_IWUSR, no type */
	inode = new_inode(a->mnt->mnt_sb, S_IRUSR | S_IWUSR);
	d = inode ? d_alloc(a->mnt->mnt_sb->s_root, &(struct qstr)QSTR_INIT(name, strlen(name))) : NULL;
	if (!d) {
		if (inode)
			iput(inode);
		return -ENOMEM;
	}
	inode->i_op = iops;
	d_instantiate(d, inode);
	a->d[i] = d;
out:
	path->mnt = a->mnt;
	path->dentry = a->d[i];
	return 0;
}

void anon_inodes_exit(struct uvfs *fs)
{
	struct anon_inodes *a = fs->anon_inodes;

	if (!a)
		return;
	for (int i = 0; i < ANON_KINDS && a->d[i]; i++)
		dput(a->d[i]);
	mntput(a->mnt);
	free(a);
	fs->anon_inodes = NULL;
}
