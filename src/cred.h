/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cred.h - a task's credentials, as the kernel keeps them (include/linux/cred.h): real,
 * effective, saved and filesystem ids, supplementary groups, capability sets; and the
 * questions the VFS asks of them (capable(), in_group_p()).
 *
 * Locking: a task's cred is protected by uvfs.ns_lock (task.h): only calls of this
 * instance change it, each under ns_lock.  A group_info never changes once made; it is
 * shared by reference (fork), the count protected by ns_lock, replaced whole by
 * setgroups and freed after a grace period.  The lockless walk reads its task's cred
 * without the lock — another thread of the same task may change it meanwhile (uvfs.h
 * allows it), which the walk's ns_seq check then throws away.
 */
#ifndef UVFS_CRED_H
#define UVFS_CRED_H

#include <linux/capability.h>

#include "internal.h"

/* Every capability this kernel knows (CAP_LAST_CAP of 6.18: CAP_CHECKPOINT_RESTORE);
 * capset(2) masks what it is given with it (CAP_VALID_MASK). */
#define UVFS_CAP_LAST 40
#define CAP_VALID_MASK ((1ull << (UVFS_CAP_LAST + 1)) - 1)
_Static_assert(CAP_LAST_CAP == UVFS_CAP_LAST, "the capabilities of the pinned kernel");

/* The capabilities that follow the filesystem uid (CAP_FS_SET of
 * include/linux/capability.h): dropped from the effective set when fsuid leaves 0,
 * raised again from the permitted set when it comes back (cap_task_fix_setuid). */
#define CAP_FS_SET                                                                   \
	((1ull << CAP_CHOWN) | (1ull << CAP_MKNOD) | (1ull << CAP_DAC_OVERRIDE) |        \
	 (1ull << CAP_DAC_READ_SEARCH) | (1ull << CAP_FOWNER) | (1ull << CAP_FSETID) |   \
	 (1ull << CAP_MAC_OVERRIDE) | (1ull << CAP_LINUX_IMMUTABLE))

/* NGROUPS_MAX of the kernel: setgroups(2) refuses more (EINVAL) */
#define UVFS_NGROUPS_MAX 65536

/* Supplementary groups, sorted (groups_sort(): in_group_p() searches them). */
struct group_info {
	long usage;         /* ns_lock */
	int ngroups;        /* immutable */
	gid_t gid[];        /* immutable, ascending */
};

struct cred {
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
	uint64_t cap_inheritable, cap_permitted, cap_effective, cap_bset, cap_ambient;
	struct group_info *group_info;  /* referenced; never NULL */
};

/* The credentials of a new task: root with every capability, no groups (init's). */
void cred_init_root(struct cred *c);
/* A fork's copy: the same ids and sets, the group list shared. */
void cred_copy(struct cred *dst, const struct cred *src);
/* Drop what the cred holds (its group list reference). */
void cred_release(struct uvfs *fs, struct cred *c);

/* capable(): cap in the effective set. */
static inline bool cred_capable(const struct cred *c, int cap)
{
	return c->cap_effective & (1ull << cap);
}

/* in_group_p(): the fsgid, or one of the supplementary groups. */
bool in_group_p(const struct cred *c, gid_t gid);

/* The group list of n ids (any order, duplicates kept, as set_groups()), made
 * before anything changes: NULL for ENOMEM. */
struct group_info *groups_alloc_sorted(const gid_t *list, size_t n);
void put_group_info(struct uvfs *fs, struct group_info *gi);

/* security/commoncap.c's cap_task_fix_setuid(): what a change of ids does to the
 * capability sets.  fs: a setfsuid (LSM_SETID_FS), else setuid/setreuid/setresuid. */
void cap_fix_setuid(struct cred *new, const struct cred *old, bool fs);

#endif /* UVFS_CRED_H */
