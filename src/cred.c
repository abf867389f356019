// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cred.c - credentials (kernel/cred.c, kernel/groups.c, security/commoncap.c): the
 * root cred a task starts with, fork's copy, group lists, and what an id change does to
 * the capability sets.  The calls that change them are sys.c's.
 *
 * Locking: everything here is called with ns_lock held (cred.h).
 */
#include <stdlib.h>

#include "cred.h"
#include "rcu_defer.h"

/* init's group list: empty, never freed (its count only guards the sharing) */
static struct group_info no_groups = { .usage = 1, .ngroups = 0 };

void cred_init_root(struct cred *c)
{
	*c = (struct cred){ 0 };
	c->cap_permitted = c->cap_effective = c->cap_bset = CAP_VALID_MASK;
	c->group_info = &no_groups;
}

void cred_copy(struct cred *dst, const struct cred *src)
{
	*dst = *src;
	if (dst->group_info != &no_groups)
		dst->group_info->usage++;
}

void put_group_info(struct uvfs *fs, struct group_info *gi)
{
	/* a lockless walk of a task may still be searching it (in_group_p()) while
	 * another thread's setgroups replaces it: freed after a grace period */
	if (gi != &no_groups && --gi->usage == 0)
		defer_kfree(fs, gi);
}

void cred_release(struct uvfs *fs, struct cred *c)
{
	put_group_info(fs, c->group_info);
	c->group_info = &no_groups;
}

static int gid_cmp(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return x < y ? -1 : x > y;
}

struct group_info *groups_alloc_sorted(const gid_t *list, size_t n)
{
	struct group_info *gi;

	if (!n)
		return &no_groups;
	gi = uvfs_malloc(sizeof(*gi) + n * sizeof(gid_t));
	if (!gi)
		return NULL;
	gi->usage = 1;
	gi->ngroups = (int)n;
	memcpy(gi->gid, list, n * sizeof(gid_t));
	qsort(gi->gid, n, sizeof(gid_t), gid_cmp);  /* groups_sort() */
	return gi;
}

/* groups_search(): a binary search of the sorted list */
static bool groups_search(const struct group_info *gi, gid_t gid)
{
	int lo = 0, hi = gi->ngroups;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (gi->gid[mid] == gid)
			return true;
		if (gi->gid[mid] < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool in_group_p(const struct cred *c, gid_t gid)
{
	return gid == c->fsgid || groups_search(c->group_info, gid);
}

/*
 * cap_emulate_setxuid(): a task that had uid 0 among its real, effective and saved
 * uids and has it in none of them loses its permitted and effective sets (no
 * SECURE_KEEP_CAPS: prctl is not modelled) and its ambient one; an effective uid
 * leaving 0 clears the effective set, one coming to 0 raises it to the permitted set.
 * A filesystem uid leaving 0 (setfsuid) drops CAP_FS_SET from the effective set,
 * coming back raises it from the permitted one.
 */
void cap_fix_setuid(struct cred *new, const struct cred *old, bool fs)
{
	if (fs) {
		if (old->fsuid == 0 && new->fsuid != 0)
			new->cap_effective &= ~CAP_FS_SET;
		if (old->fsuid != 0 && new->fsuid == 0)
			new->cap_effective |= new->cap_permitted & CAP_FS_SET;
		return;
	}
	if ((old->uid == 0 || old->euid == 0 || old->suid == 0) &&
	    new->uid != 0 && new->euid != 0 && new->suid != 0) {
		new->cap_permitted = 0;
		new->cap_effective = 0;
		new->cap_ambient = 0;
	}
	if (old->euid == 0 && new->euid != 0)
		new->cap_effective = 0;
	if (old->euid != 0 && new->euid == 0)
		new->cap_effective = new->cap_permitted;
}
