// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * uvfs.c - the instance: creation and teardown.  The top of the library: it
 * registers the filesystems, mounts the root and /proc, and ends every task; nothing
 * below calls back up here (tests/check_layers.py).
 *
 * Locking: see internal.h; uvfs_new runs before anyone else can see the instance,
 * uvfs_free after everyone is done with it (the caller's promise).
 */
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>

#include "anon_inodes.h"
#include "fsnotify.h"
#include "abi.h"
#include "dcache.h"
#include "ida.h"
#include "fs/fs.h"
#include "file.h"
#include "inode.h"
#include "leases.h"
#include "mount.h"
#include "rcu_defer.h"
#include "slab.h"
#include "task.h"

static _Thread_local char last_error[256];

const char *uvfs_last_error(void)
{
	return last_error;
}

static void set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

const char *uvfs_abi_name(const struct uvfs *fs)
{
	return fs->abi->name;
}

/* /proc: a directory in the root (mode 0555, as on a fresh system) with a procfs on it. */
static int mount_proc(struct uvfs *fs)
{
	static const struct qstr name = QSTR_INIT("proc", 4);
	struct dentry *root = fs->root_mnt->mnt_root, *d;
	struct inode *dir = root->d_inode;
	const struct fs_mount_opts none = { 0 };
	struct super_block *sb;
	struct qstr q = name;
	int err;

	q.hash = d_name_hash(q.name, q.len);
	d = d_alloc(root, &q);
	if (!d)
		return -ENOMEM;
	d_rehash(d);
	err = dir->i_op->mkdir(dir, d, 0555, 0, 0);
	if (err)
		goto out;
	sb = mount_fs(fs, get_fs_type(fs, "proc"), &none);
	if (IS_ERR(sb)) {
		err = (int)PTR_ERR(sb);
		goto out;
	}
	if (!mnt_attach(fs, sb, fs->root_mnt, d, "proc")) {
		err = -ENOMEM;
		sb_put(sb);
	}
out:
	dput(d);
	return err;
}

/* An integer sysctl of the host, or 0 (the kernel's default for the protected_*
 * ones) when it cannot be read. */
static int host_sysctl_or(const char *path, int dflt)
{
	FILE *f = fopen(path, "re");
	int v = dflt;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = dflt;
		fclose(f);
	}
	return v;
}

static int host_sysctl(const char *path)
{
	return host_sysctl_or(path, 0);
}

struct uvfs *uvfs_new(const struct uvfs_config *cfg)
{
	static const struct uvfs_config defaults;
	const struct uvfs_abi *abi;
	struct fs_mount_opts root_opts = { 0 }, rootfs_opts = { 0 };
	struct mount *rootfs;
	struct super_block *sb;
	struct uvfs *fs;

	last_error[0] = 0;
	if (!cfg)
		cfg = &defaults;
	root_opts.max_inodes = cfg->max_inodes;
	root_opts.max_bytes = cfg->max_bytes;
	abi = abi_lookup(cfg->abi ? cfg->abi : "linux");
	if (!abi) {
		set_error("uvfs_new: unknown personality '%s' (known: linux, linux-4.17, "
			  "linux-3.18, linux-3.17, linux-3.15, linux-3.14)", cfg->abi);
		errno = EINVAL;
		return NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cfg->reserved); i++) {
		if (cfg->reserved[i]) {
			set_error("uvfs_new: reserved[%zu] must be zero", i);
			errno = EINVAL;
			return NULL;
		}
	}
	if (cfg->flags & ~(UVFS_NO_PROC | UVFS_MEMFD)) {
		set_error("uvfs_new: unknown flags %#x (known: UVFS_NO_PROC, UVFS_MEMFD)",
			  cfg->flags & ~(UVFS_NO_PROC | UVFS_MEMFD));
		errno = EINVAL;
		return NULL;
	}
	/* the root directory takes an inode of the limit, /proc's directory another */
	if (cfg->max_inodes && cfg->max_inodes < ((cfg->flags & UVFS_NO_PROC) ? 1u : 2u)) {
		set_error("uvfs_new: max_inodes %llu cannot hold the root directory%s (at least %u)",
			  (unsigned long long)cfg->max_inodes,
			  (cfg->flags & UVFS_NO_PROC) ? "" : " and /proc",
			  (cfg->flags & UVFS_NO_PROC) ? 1u : 2u);
		errno = EINVAL;
		return NULL;
	}
	fs = uvfs_zalloc(sizeof(*fs));
	if (!fs)
		goto enomem;
	atomic_init(&fs->ns_lock.state, 0);
	fs->abi = abi;
	fs->max_files = cfg->max_files ? cfg->max_files : 1024;
	fs->max_host_dentries = cfg->max_host_dentries ? cfg->max_host_dentries : 65536;
	fs->memfd_data = cfg->flags & UVFS_MEMFD;
	fs->next_pid = 1;
	fs->protected_fifos = host_sysctl("/proc/sys/fs/protected_fifos");
	fs->protected_regular = host_sysctl("/proc/sys/fs/protected_regular");
	fs->protected_symlinks = host_sysctl("/proc/sys/fs/protected_symlinks");
	fs->protected_hardlinks = host_sysctl("/proc/sys/fs/protected_hardlinks");
	fs->suid_dumpable = host_sysctl("/proc/sys/fs/suid_dumpable");
	/* fs.lease-break-time: the kernel's lease_break_time, 45 s by default */
	fs->lease_break_time = host_sysctl_or("/proc/sys/fs/lease-break-time", 45);
	/* fs.mount-max: the kernel's sysctl_mount_max, 100,000 unless the host says */
	fs->mount_max = host_sysctl("/proc/sys/fs/mount-max") > 0 ?
			(unsigned int)host_sysctl("/proc/sys/fs/mount-max") : 100000;
	CDS_INIT_LIST_HEAD(&fs->mounts);
	CDS_INIT_LIST_HEAD(&fs->tasks);
	if (dcache_init(fs))
		goto free_fs;
	fs->dentry_cache = kmem_cache_get(fs, sizeof(struct dentry));
	fs->file_cache = kmem_cache_get(fs, sizeof(struct file));
	if (!fs->dentry_cache || !fs->file_cache)
		goto free_caches;

	/* the filesystems uvfs has (src/fs/fs.h); the table has room for them */
	_Static_assert(UVFS_MAX_FS_TYPES >= 4, "register_filesystem cannot fail here");
	(void)register_filesystem(fs, &memfs_fs_type);
	(void)register_filesystem(fs, &memfs_alias_fs_type);
	(void)register_filesystem(fs, &procfs_fs_type);
	(void)register_filesystem(fs, &hostfs_fs_type);
	uvfs_lock(fs);
	/* the namespace's rootfs (mount 1: what mountinfo names as the root's parent and
	 * never lists, being reachable from no root), then the root on it */
	sb = mount_fs(fs, &memfs_fs_type, &rootfs_opts);
	if (IS_ERR(sb))
		goto unlock;
	rootfs = mnt_attach(fs, sb, NULL, NULL, "rootfs");
	if (!rootfs)
		goto put_sb;
	fs->init_ns = alloc_mnt_ns(rootfs);
	if (!fs->init_ns) {
		umount_tree(fs, rootfs);
		goto unlock;
	}
	sb = mount_fs(fs, &memfs_fs_type, &root_opts);
	if (IS_ERR(sb))
		goto unwind;
	fs->root_mnt = mnt_attach(fs, sb, rootfs, rootfs->mnt_root, "none");
	if (!fs->root_mnt) {
		sb_put(sb);
		goto unwind;
	}
	if (!(cfg->flags & UVFS_NO_PROC) && mount_proc(fs))
		goto unwind;
	uvfs_unlock(fs);
	atomic_fetch_add(&uvfs_live.instances, 1);
	return fs;

unwind:
	mnt_release_all(fs);
	goto unlock;
put_sb:
	sb_put(sb);
unlock:
	defer_flush(fs);
	uvfs_unlock(fs);
free_caches:
	kmem_caches_destroy(fs);
	dcache_exit(fs);
	ida_destroy(&fs->mnt_ids);
	ida_destroy(&fs->anon_devs);
	ida_destroy(&fs->mnt_group_ids);
free_fs:
	free(fs);
enomem:
	set_error("uvfs_new: out of memory");
	errno = ENOMEM;
	return NULL;
}

void uvfs_free(struct uvfs *fs)
{
	if (!fs)
		return;
	uvfs_lock(fs);
	while (!cds_list_empty(&fs->tasks))
		task_release(cds_list_first_entry(&fs->tasks, struct uvfs_task, t_list));
	fsnotify_exit(fs);
	leases_exit(fs);
	anon_inodes_exit(fs);
	mnt_release_all(fs);
	defer_flush(fs);
	uvfs_unlock(fs);
	/* Names dropped outside ns_lock are freed by RCU callbacks that still charge
	 * this instance's counters. */
	if (atomic_load_explicit(&fs->rcu_callbacks, memory_order_acquire))
		urcu_bp_barrier();
	while (atomic_load_explicit(&fs->rcu_callbacks, memory_order_acquire))
		sched_yield();
	/* zero unless something leaked: the process-wide counts tests check */
	atomic_fetch_add(&uvfs_live.dentries, fs->live_dentries);
	atomic_fetch_add(&uvfs_live.inodes, fs->live_inodes);
	atomic_fetch_add(&uvfs_live.files, fs->live_files);
	kmem_caches_destroy(fs);
	free(fs->pid_table);
	ida_destroy(&fs->mnt_ids);
	ida_destroy(&fs->anon_devs);
	ida_destroy(&fs->mnt_group_ids);
	assert(atomic_load(&fs->stats.dentries) == 0);
	assert(atomic_load(&fs->stats.names) == 0);
	dcache_exit(fs);
	free(fs);
	atomic_fetch_sub(&uvfs_live.instances, 1);
}
