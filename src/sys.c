// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * sys.c - the credential calls (kernel/sys.c: setresuid, setreuid, setuid, setfsuid
 * and their gid twins, setgroups/getgroups; kernel/capability.c: capget/capset), the
 * umask, and the embedder's uvfs_task_setcreds.
 *
 * Each builds the new cred beside the old one and commits it whole, as
 * prepare_creds()/commit_creds() do: a refused call (EPERM, EINVAL, ENOMEM) changes
 * nothing.  Locking: under ns_lock (task_enter), like every call.
 */
#include "cred.h"
#include "task.h"

/*
 * The uid or the gid half of a cred, so that each rule of kernel/sys.c is written
 * once here (the kernel writes each twice): the four ids, the capability that
 * overrides, and whether the capability sets follow (uids only).
 */
struct idset {
	uint32_t *r, *e, *s, *fs;
	int cap;            /* ns_capable_setid(): the effective set alone (no user ns) */
	bool uid;
};
_Static_assert(sizeof(uid_t) == sizeof(uint32_t) && sizeof(gid_t) == sizeof(uint32_t),
	       "uids and gids share the rules");

static struct idset ids_of(struct cred *c, bool uid)
{
	if (uid)
		return (struct idset){ &c->uid, &c->euid, &c->suid, &c->fsuid, CAP_SETUID, true };
	return (struct idset){ &c->gid, &c->egid, &c->sgid, &c->fsgid, CAP_SETGID, false };
}

static bool is_one_of(uint32_t id, const struct idset *o)
{
	return id == *o->r || id == *o->e || id == *o->s;
}

/* commit_creds(): a change of effective or filesystem ids, or capabilities the task
 * did not have, makes it as dumpable as fs.suid_dumpable says (0: not at all) */
static void commit_creds(struct uvfs_task *task, const struct cred *new)
{
	const struct cred *old = &task->cred;

	if (new->euid != old->euid || new->egid != old->egid || new->fsuid != old->fsuid ||
	    new->fsgid != old->fsgid || (new->cap_permitted & ~old->cap_permitted))
		WRITE_ONCE(task->dumpable, task->fs->suid_dumpable);
	task->cred = *new;
	task->cred_id = ++task->fs->next_cred_id;
}

/* The new cred for task, made beside the old: its capability sets follow the uids
 * (cap_task_fix_setuid()); the group list is the old one's */
static void commit_ids(struct uvfs_task *task, struct cred *new, bool uid, bool fs)
{
	if (uid)
		cap_fix_setuid(new, &task->cred, fs);
	commit_creds(task, new);
}

#define KEEP ((uint32_t)-1)

/* __sys_setresuid(), __sys_setresgid() */
static int do_setres(struct uvfs_task *task, bool uid, uint32_t r, uint32_t e, uint32_t s)
{
	struct cred new;
	struct idset o, n;
	int err = 0;

	if (!task)
		return -EINVAL;
	task_enter(task);
	o = ids_of(&task->cred, uid);
	/* nothing to change is success before any check */
	if ((r == KEEP || r == *o.r) && (e == KEEP || (e == *o.e && e == *o.fs)) &&
	    (s == KEEP || s == *o.s))
		goto out;
	if (((r != KEEP && !is_one_of(r, &o)) || (e != KEEP && !is_one_of(e, &o)) ||
	     (s != KEEP && !is_one_of(s, &o))) && !cred_capable(&task->cred, o.cap)) {
		err = -EPERM;
		goto out;
	}
	new = task->cred;
	n = ids_of(&new, uid);
	if (r != KEEP)
		*n.r = r;
	if (e != KEEP)
		*n.e = e;
	if (s != KEEP)
		*n.s = s;
	*n.fs = *n.e;
	commit_ids(task, &new, uid, false);
out:
	task_leave(task);
	return err;
}

/* __sys_setreuid(), __sys_setregid() */
static int do_setre(struct uvfs_task *task, bool uid, uint32_t r, uint32_t e)
{
	struct cred new;
	struct idset o, n;
	bool cap;
	int err = -EPERM;

	if (!task)
		return -EINVAL;
	task_enter(task);
	o = ids_of(&task->cred, uid);
	cap = cred_capable(&task->cred, o.cap);
	new = task->cred;
	n = ids_of(&new, uid);
	if (r != KEEP) {
		*n.r = r;
		if (r != *o.r && r != *o.e && !cap)
			goto out;
	}
	if (e != KEEP) {
		*n.e = e;
		if (!is_one_of(e, &o) && !cap)
			goto out;
	}
	/* the saved id becomes the effective one */
	if (r != KEEP || (e != KEEP && e != *o.r))
		*n.s = *n.e;
	*n.fs = *n.e;
	commit_ids(task, &new, uid, false);
	err = 0;
out:
	task_leave(task);
	return err;
}

/* __sys_setuid(), __sys_setgid(): with the capability all of them; else the effective
 * one, to the real or the saved id */
static int do_set(struct uvfs_task *task, bool uid, uint32_t id)
{
	struct cred new;
	struct idset o, n;
	int err = 0;

	if (!task || id == KEEP)
		return -EINVAL;  /* !uid_valid() */
	task_enter(task);
	o = ids_of(&task->cred, uid);
	new = task->cred;
	n = ids_of(&new, uid);
	if (cred_capable(&task->cred, o.cap)) {
		*n.r = *n.s = id;
	} else if (id != *o.r && id != *o.s) {
		err = -EPERM;
		goto out;
	}
	*n.e = *n.fs = id;
	commit_ids(task, &new, uid, false);
out:
	task_leave(task);
	return err;
}

/* __sys_setfsuid(), __sys_setfsgid(): the old id whatever happens; -1 only asks */
static int do_setfs(struct uvfs_task *task, bool uid, uint32_t id)
{
	struct idset o;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	o = ids_of(&task->cred, uid);
	ret = (int)*o.fs;
	if (id != KEEP && id != *o.fs &&
	    (is_one_of(id, &o) || cred_capable(&task->cred, o.cap))) {
		struct cred new = task->cred;

		*ids_of(&new, uid).fs = id;
		commit_ids(task, &new, uid, true);
	}
	task_leave(task);
	return ret;
}

int uvfs_setresuid(struct uvfs_task *task, uid_t ruid, uid_t euid, uid_t suid)
{
	return do_setres(task, true, ruid, euid, suid);
}

int uvfs_setresgid(struct uvfs_task *task, gid_t rgid, gid_t egid, gid_t sgid)
{
	return do_setres(task, false, rgid, egid, sgid);
}

int uvfs_setreuid(struct uvfs_task *task, uid_t ruid, uid_t euid)
{
	return do_setre(task, true, ruid, euid);
}

int uvfs_setregid(struct uvfs_task *task, gid_t rgid, gid_t egid)
{
	return do_setre(task, false, rgid, egid);
}

int uvfs_setuid(struct uvfs_task *task, uid_t uid)
{
	return do_set(task, true, uid);
}

int uvfs_setgid(struct uvfs_task *task, gid_t gid)
{
	return do_set(task, false, gid);
}

int uvfs_setfsuid(struct uvfs_task *task, uid_t fsuid)
{
	return do_setfs(task, true, fsuid);
}

int uvfs_setfsgid(struct uvfs_task *task, gid_t fsgid)
{
	return do_setfs(task, false, fsgid);
}

static int do_getres(struct uvfs_task *task, bool uid, uint32_t *r, uint32_t *e, uint32_t *s)
{
	struct idset o;

	if (!task)
		return -EINVAL;
	if (!r || !e || !s)
		return -EFAULT;
	task_enter(task);
	o = ids_of(&task->cred, uid);
	*r = *o.r;
	*e = *o.e;
	*s = *o.s;
	task_leave(task);
	return 0;
}

int uvfs_getresuid(struct uvfs_task *task, uid_t *ruid, uid_t *euid, uid_t *suid)
{
	return do_getres(task, true, ruid, euid, suid);
}

int uvfs_getresgid(struct uvfs_task *task, gid_t *rgid, gid_t *egid, gid_t *sgid)
{
	return do_getres(task, false, rgid, egid, sgid);
}

int uvfs_setgroups(struct uvfs_task *task, size_t size, const gid_t *list)
{
	struct group_info *gi;
	int err = 0;

	if (!task)
		return -EINVAL;
	/* setgroups(2): the count first (EINVAL), then the copy (EFAULT), then
	 * may_setgroups() (EPERM) */
	if (size > UVFS_NGROUPS_MAX)
		return -EINVAL;
	if (size && !list)
		return -EFAULT;
	for (size_t i = 0; i < size; i++)
		if (list[i] == (gid_t)-1)
			return -EINVAL;  /* groups_from_user(): !gid_valid() */
	gi = groups_alloc_sorted(list, size);
	if (!gi)
		return -ENOMEM;
	task_enter(task);
	if (!cred_capable(&task->cred, CAP_SETGID)) {
		err = -EPERM;
		put_group_info(task->fs, gi);
	} else {
		put_group_info(task->fs, task->cred.group_info);
		task->cred.group_info = gi;
		task->cred_id = ++task->fs->next_cred_id;  /* set_current_groups() */
	}
	task_leave(task);
	return err;
}

int uvfs_getgroups(struct uvfs_task *task, int size, gid_t *list)
{
	const struct group_info *gi;
	int n;

	if (!task)
		return -EINVAL;
	if (size < 0)
		return -EINVAL;
	task_enter(task);
	gi = task->cred.group_info;
	n = gi->ngroups;
	if (size) {
		if (n > size)
			n = -EINVAL;
		else if (n && !list)
			n = -EFAULT;
		else
			memcpy(list, gi->gid, (size_t)n * sizeof(gid_t));
	}
	task_leave(task);
	return n;
}

int uvfs_capget(struct uvfs_task *task, struct uvfs_caps *caps)
{
	if (!task)
		return -EINVAL;
	if (!caps)
		return -EFAULT;
	task_enter(task);
	caps->effective = task->cred.cap_effective;
	caps->permitted = task->cred.cap_permitted;
	caps->inheritable = task->cred.cap_inheritable;
	task_leave(task);
	return 0;
}

int uvfs_capset(struct uvfs_task *task, const struct uvfs_caps *caps)
{
	const struct cred *old;
	uint64_t e, p, i;
	int err = -EPERM;

	if (!task)
		return -EINVAL;
	if (!caps)
		return -EFAULT;
	/* capset(2) keeps the bits the kernel knows */
	e = caps->effective & CAP_VALID_MASK;
	p = caps->permitted & CAP_VALID_MASK;
	i = caps->inheritable & CAP_VALID_MASK;
	task_enter(task);
	old = &task->cred;
	/* cap_capset(): without CAP_SETPCAP no inheritable bit beyond the old inheritable
	 * and permitted sets; none beyond the bounding set; permitted only shrinks;
	 * effective within the new permitted */
	if (!cred_capable(old, CAP_SETPCAP) && (i & ~(old->cap_inheritable | old->cap_permitted)))
		goto out;
	if (i & ~(old->cap_inheritable | old->cap_bset))
		goto out;
	if (p & ~old->cap_permitted)
		goto out;
	if (e & ~p)
		goto out;
	task->cred_id = ++task->fs->next_cred_id;
	task->cred.cap_effective = e;
	task->cred.cap_permitted = p;
	task->cred.cap_inheritable = i;
	task->cred.cap_ambient &= p & i;
	err = 0;
out:
	task_leave(task);
	return err;
}

int uvfs_task_setcreds(struct uvfs_task *task, uid_t uid, gid_t gid)
{
	struct cred new;

	if (!task)
		return -EINVAL;
	task_enter(task);
	/* the embedder's say: every uid and gid at once, no permission asked, and the
	 * capability sets as a setresuid from root to uid would leave them (full for 0,
	 * empty otherwise); the group list stays */
	new = task->cred;
	new.uid = new.euid = new.suid = new.fsuid = uid;
	new.gid = new.egid = new.sgid = new.fsgid = gid;
	if (uid == 0) {
		new.cap_permitted = new.cap_effective = new.cap_bset;
	} else {
		new.cap_permitted = new.cap_effective = new.cap_ambient = 0;
	}
	task->cred = new;
	task->cred_id = ++task->fs->next_cred_id;
	task_leave(task);
	return 0;
}

int uvfs_task_setcred(struct uvfs_task *task, const struct uvfs_cred *c)
{
	struct group_info *gi;

	if (!task || !c || c->ngroups > UVFS_NGROUPS_MAX)
		return -EINVAL;
	if (c->ngroups && !c->groups)
		return -EFAULT;
	gi = groups_alloc_sorted(c->groups, c->ngroups);
	if (!gi)
		return -ENOMEM;
	task_enter(task);
	task->cred.uid = c->uid;
	task->cred.euid = c->euid;
	task->cred.suid = c->suid;
	task->cred.fsuid = c->fsuid;
	task->cred.gid = c->gid;
	task->cred.egid = c->egid;
	task->cred.sgid = c->sgid;
	task->cred.fsgid = c->fsgid;
	task->cred.cap_effective = c->caps.effective & task->cred.cap_bset;
	task->cred.cap_permitted = c->caps.permitted & task->cred.cap_bset;
	task->cred.cap_inheritable = c->caps.inheritable;
	put_group_info(task->fs, task->cred.group_info);
	task->cred.group_info = gi;
	task->cred_id = ++task->fs->next_cred_id;
	task_leave(task);
	return 0;
}

mode_t uvfs_umask(struct uvfs_task *task, mode_t mask)
{
	mode_t old;

	if (!task)
		return (mode_t)-1;
	task_enter(task);
	old = task->fs_struct->umask;
	task->fs_struct->umask = mask & 0777;
	task_leave(task);
	return old;
}
