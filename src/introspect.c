// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * introspect.c - read-only views of the dentry cache.
 *
 * Locking: ns_lock for the whole call (task_enter); the counters are atomics.
 */
#include "dcache.h"
#include "inode.h"
#include "introspect.h"
#include "namei.h"
#include "task.h"

static void fill_info(const struct dentry *d, struct uvfs_dentry_info *out)
{
	size_t n = d->d_name.len < sizeof(out->name) - 1 ? d->d_name.len : sizeof(out->name) - 1;
	const struct dentry *p = d->d_parent;
	size_t pn = p->d_name.len < sizeof(out->parent_name) - 1 ? p->d_name.len
								 : sizeof(out->parent_name) - 1;

	memset(out, 0, sizeof(*out));
	memcpy(out->name, d->d_name.name, n);
	out->len = d->d_name.len;
	out->external = dname_external(d);
	if (out->external) {
		out->name_id = external_name(d)->id;
		out->name_refs = atomic_load(&external_name(d)->count);
	}
	out->hashed = !d_unhashed(d);
	out->negative = d_is_negative(d);
	out->refcount = d->d_count;
	out->id = (uintptr_t)d;
	out->parent_id = (uintptr_t)p;
	memcpy(out->parent_name, p->d_name.name, pn);
	out->ino = d->d_inode ? d->d_inode->i_ino : 0;
}

int uvfs_introspect_fd(struct uvfs_task *task, int fd, struct uvfs_dentry_info *out)
{
	struct file *f;
	int err = 0;

	task_enter(task);
	f = fdget(task, fd);
	if (f)
		fill_info(f->f_path.dentry, out);
	else
		err = -EBADF;
	task_leave(task);
	return err;
}

int uvfs_introspect_path(struct uvfs_task *task, int dirfd, const char *name, bool nofollow,
			 struct uvfs_dentry_info *out)
{
	struct path path;
	int err;

	task_enter(task);
	err = filename_lookup(task, dirfd, name, nofollow ? 0 : LOOKUP_FOLLOW, &path);
	if (!err) {
		fill_info(path.dentry, out);
		path_put(&path);
	}
	task_leave(task);
	return err;
}

static int walk(const struct dentry *d, int depth,
		int (*visit)(const struct uvfs_dentry_info *, int, void *), void *arg)
{
	struct uvfs_dentry_info info;
	const struct dentry *c;
	int ret;

	fill_info(d, &info);
	ret = visit(&info, depth, arg);
	if (ret)
		return ret;
	/* Oldest first reads more naturally than the list's newest-first order; the
	 * hlist goes one way only, so the children are gathered first. */
	size_t n = 0, i;
	const struct dentry **v;

	cds_hlist_for_each_entry_2(c, &d->d_children, d_sib)
		n++;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	i = n;
	cds_hlist_for_each_entry_2(c, &d->d_children, d_sib)
		v[--i] = c;
	for (i = 0; i < n && !ret; i++)
		ret = walk(v[i], depth + 1, visit, arg);
	free(v);
	return ret;
}

int uvfs_dcache_walk(struct uvfs_task *task, const char *name,
		     int (*visit)(const struct uvfs_dentry_info *d, int depth, void *arg),
		     void *arg)
{
	struct path path;
	int err;

	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, name, LOOKUP_FOLLOW, &path);
	if (!err) {
		err = walk(path.dentry, 0, visit, arg);
		path_put(&path);
	}
	task_leave(task);
	return err;
}

void uvfs_get_stats(struct uvfs *fs, struct uvfs_cache_stats *out)
{
	struct uvfs_stats *s = &fs->stats;

	out->lookups = atomic_load(&s->lookups);
	out->hits = atomic_load(&s->hits);
	out->negative_hits = atomic_load(&s->negative_hits);
	out->misses = atomic_load(&s->misses);
	out->renames = atomic_load(&s->renames);
	out->dentries = atomic_load(&s->dentries);
	out->names = atomic_load(&s->names);
	out->name_bytes = atomic_load(&s->name_bytes);
	out->inodes = atomic_load(&s->inodes);
	out->data_bytes = atomic_load(&s->data_bytes);
	out->files = atomic_load(&s->files);
	out->dir_steps = atomic_load(&s->dir_steps);
	out->revalidations = atomic_load(&s->revalidations);
	out->stale = atomic_load(&s->stale);
	out->evictions = atomic_load(&s->evictions);
}

void uvfs_live_counts(struct uvfs_live_counts *out)
{
	/* With no instance alive every uvfs_free has already waited for its own RCU
	 * frees, and liburcu's barrier costs a sleep of its worker (10 ms): the fuzz
	 * targets, which count after every input, spent half their time here. */
	if (atomic_load(&uvfs_live.instances))
		urcu_bp_barrier();
	out->dentries = atomic_load(&uvfs_live.dentries);
	out->names = atomic_load(&uvfs_live.names);
	out->inodes = atomic_load(&uvfs_live.inodes);
	out->files = atomic_load(&uvfs_live.files);
	out->tasks = atomic_load(&uvfs_live.tasks);
	out->instances = atomic_load(&uvfs_live.instances);
}

