/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * introspect.h - looking inside the dentry cache (for tests, the shell, debugging).
 * Not part of the public contract: field sets may grow.
 */
#ifndef UVFS_INTROSPECT_H
#define UVFS_INTROSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvfs/uvfs.h"

struct uvfs_dentry_info {
	char name[256];          /* NUL-terminated copy of d_name */
	uint32_t len;
	bool external;           /* name in an external_name */
	uint64_t name_id;        /* that buffer's identity (0 when inline) */
	unsigned int name_refs;  /* its reference count (0 when inline) */
	bool hashed;
	bool negative;
	long refcount;           /* d_count */
	uint64_t id;             /* the dentry's identity while it lives (its address) */
	uint64_t parent_id;      /* d_parent's (own id for a root) */
	char parent_name[256];
	uint64_t ino;            /* 0 when negative */
};

struct uvfs_cache_stats {
	unsigned long lookups, hits, negative_hits, misses, renames;
	long dentries, names, name_bytes, inodes, data_bytes, files;
	unsigned long dir_steps;  /* entries and index slots visited by readdir and /proc
	                           * lookups: counted work, for the bounded-cost tests */
	/* host mounts: cached dentries checked against the host, found changed, and
	 * evicted by the bound (uvfs_config.max_host_dentries) */
	unsigned long revalidations, stale, evictions;
};

/* The dentry an open descriptor refers to (even unhashed): 0 or -EBADF. */
int uvfs_introspect_fd(struct uvfs_task *task, int fd, struct uvfs_dentry_info *out);
/* The dentry of a path (not following a final symlink when nofollow). */
int uvfs_introspect_path(struct uvfs_task *task, int dirfd, const char *path, bool nofollow,
			 struct uvfs_dentry_info *out);
/* Visit every dentry under the one path names, depth first, parents first; depth 0
 * is that dentry.  Stops when visit returns non-zero and returns that.  visit runs
 * with the instance locked: it may not call uvfs (uvfsh's "dcache > /f" did, and
 * waited for itself forever: fuzz_shell found it). */
int uvfs_dcache_walk(struct uvfs_task *task, const char *path,
		     int (*visit)(const struct uvfs_dentry_info *d, int depth, void *arg),
		     void *arg);
void uvfs_get_stats(struct uvfs *fs, struct uvfs_cache_stats *out);


/* Process-wide live objects, for leak checks after uvfs_free. */
struct uvfs_live_counts {
	long dentries, names, inodes, files, tasks, instances;
};
/* Final counts: pending RCU frees are waited for first (uvfs_free has waited for
 * its own, so with no instance alive there is nothing to wait for). */
void uvfs_live_counts(struct uvfs_live_counts *out);

#endif /* UVFS_INTROSPECT_H */
