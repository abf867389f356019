// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * statmount.c - statmount(2) and listmount(2) (Linux 6.8+, fs/namespace.c): a mount
 * of the caller's namespace by its unique id, and the unique ids of the mounts below
 * one, as Linux 6.18 answers them (tests/uvfs-run/newmount.py asks the kernel).
 *
 * statmount's answer is struct statmount (512 bytes) and, for the string fields, a
 * NUL and then each string asked for in the kernel's order, their offsets counted
 * from the end of the struct; a field that emits nothing (no options, no subtype)
 * leaves its bit out of the mask.
 *
 * Deliberate differences: no security module, so no security options; no idmapped
 * mounts, so no uid or gid maps (both emit nothing, as Linux for a mount without
 * them); mnt_ns_id counts per instance, not for the machine, unless the embedder
 * gives the kernel's (uvfs_set_mnt_ns_id).
 *
 * Locking: ns_lock for each call (task_enter).
 */
#include <stdio.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "d_path.h"
#include "mount.h"
#include "namei.h"
#include "task.h"

#define STATMOUNT_SB_BASIC        0x0001u
#define STATMOUNT_MNT_BASIC       0x0002u
#define STATMOUNT_PROPAGATE_FROM  0x0004u
#define STATMOUNT_MNT_ROOT        0x0008u
#define STATMOUNT_MNT_POINT       0x0010u
#define STATMOUNT_FS_TYPE         0x0020u
#define STATMOUNT_MNT_NS_ID       0x0040u
#define STATMOUNT_MNT_OPTS        0x0080u
#define STATMOUNT_FS_SUBTYPE      0x0100u
#define STATMOUNT_SB_SOURCE       0x0200u
#define STATMOUNT_OPT_ARRAY       0x0400u
#define STATMOUNT_OPT_SEC_ARRAY   0x0800u
#define STATMOUNT_SUPPORTED_MASK  0x1000u
#define STATMOUNT_MNT_UIDMAP      0x2000u
#define STATMOUNT_MNT_GIDMAP      0x4000u
#define STATMOUNT_SUPPORTED       0x7fffu
#define STATMOUNT_STRING_REQ      (STATMOUNT_MNT_ROOT | STATMOUNT_MNT_POINT | STATMOUNT_FS_TYPE | \
				   STATMOUNT_MNT_OPTS | STATMOUNT_FS_SUBTYPE | STATMOUNT_SB_SOURCE | \
				   STATMOUNT_OPT_ARRAY | STATMOUNT_OPT_SEC_ARRAY | \
				   STATMOUNT_MNT_UIDMAP | STATMOUNT_MNT_GIDMAP)
#define LSMT_ROOT                 0xffffffffffffffffull
#define LISTMOUNT_REVERSE         0x1u
#define MNT_ID_REQ_SIZE_VER0      24u
#define MNT_ID_REQ_SIZE_VER1      32u

/* include/uapi/linux/mount.h of 6.18 */
struct kstatmount {
	uint32_t size, mnt_opts;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id, mnt_parent_id;
	uint32_t mnt_id_old, mnt_parent_id_old;
	uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
	uint32_t mnt_root, mnt_point;
	uint64_t mnt_ns_id;
	uint32_t fs_subtype, sb_source, opt_num, opt_array, opt_sec_num, opt_sec_array;
	uint64_t supported_mask;
	uint32_t mnt_uidmap_num, mnt_uidmap, mnt_gidmap_num, mnt_gidmap;
	uint64_t spare2[43];
};
_Static_assert(sizeof(struct kstatmount) == 512, "struct statmount is 512 bytes");
_Static_assert(offsetof(struct kstatmount, supported_mask) == 144, "6.18's layout");
_Static_assert(sizeof(struct uvfs_mnt_id_req) == MNT_ID_REQ_SIZE_VER1, "mnt_id_req");

/* copy_mnt_id_req(): 24 bytes or more, a page at most, what this version does not
 * know zero, the spare field zero */
static int check_mnt_id_req(const struct uvfs_mnt_id_req *req)
{
	if (!req)
		return -EFAULT;
	if (req->size < MNT_ID_REQ_SIZE_VER0)
		return -EINVAL;
	if (req->size > UVFS_PAGE_SIZE)
		return -E2BIG;
	for (size_t i = sizeof(*req); i < req->size; i++)
		if (((const unsigned char *)req)[i])
			return -E2BIG;
	return req->spare ? -EINVAL : 0;
}

/* grab_requested_mnt_ns(): the caller's namespace, unless the request names another
 * (no other is reachable: ENOENT) */
static int requested_ns(const struct uvfs_task *task, const struct uvfs_mnt_id_req *req)
{
	uint64_t id = req->size >= MNT_ID_REQ_SIZE_VER1 ? req->mnt_ns_id : 0;

	return !id || id == task->mnt_ns->ns_id ? 0 : -ENOENT;
}

/* lookup_mnt_in_ns() */
static struct mount *mnt_by_unique_id(struct uvfs_task *task, uint64_t id)
{
	struct mount *m;

	cds_list_for_each_entry(m, &task->fs->mounts, mnt_list)
		if (m->mnt_id_unique == id && m->mnt_ns == task->mnt_ns)
			return m;
	return NULL;
}

/* mnt_to_attr_flags() */
static uint64_t mnt_attr(int f)
{
	uint64_t a = 0;

	if (f & MNT_READONLY)
		a |= MOUNT_ATTR_RDONLY;
	if (f & MNT_NOSUID)
		a |= MOUNT_ATTR_NOSUID;
	if (f & MNT_NODEV)
		a |= MOUNT_ATTR_NODEV;
	if (f & MNT_NOEXEC)
		a |= MOUNT_ATTR_NOEXEC;
	if (f & MNT_NODIRATIME)
		a |= MOUNT_ATTR_NODIRATIME;
	if (f & MNT_NOSYMFOLLOW)
		a |= MOUNT_ATTR_NOSYMFOLLOW;
	if (f & MNT_NOATIME)
		a |= MOUNT_ATTR_NOATIME;
	else if (!(f & MNT_RELATIME))
		a |= MOUNT_ATTR_STRICTATIME;
	return a;
}

/* The strings: a stream, its first byte the NUL offset 0 names */
struct sm_strings {
	FILE *f;
	char *text;
	size_t len;
};

/* statmount_string()'s end: the string just written, if any, is terminated and its
 * offset and bit recorded */
static void sm_string_end(struct sm_strings *s, long start, uint32_t *off, uint64_t *mask,
			  uint64_t bit)
{
	if (ftell(s->f) == start)
		return;  /* nothing emitted: no bit */
	fputc(0, s->f);
	*off = (uint32_t)start;
	*mask |= bit;
}

static void sm_strings_fill(struct sm_strings *s, struct kstatmount *sm, uint64_t want,
			    const struct mount *m, const struct path *root)
{
	const struct super_block *sb = m->mnt_sb;
	char buf[UVFS_PATH_MAX];
	long start;

	fputc(0, s->f);
	if (want & STATMOUNT_FS_TYPE) {
		start = ftell(s->f);
		fputs(sb->s_type->name, s->f);
		sm_string_end(s, start, &sm->fs_type, &sm->mask, STATMOUNT_FS_TYPE);
	}
	if (want & STATMOUNT_MNT_ROOT) {
		const char *p = dentry_path(m->mnt_root, buf, sizeof(buf));

		start = ftell(s->f);
		if (!IS_ERR(p))
			fputs(p, s->f);
		sm_string_end(s, start, &sm->mnt_root, &sm->mask, STATMOUNT_MNT_ROOT);
	}
	if (want & STATMOUNT_MNT_POINT) {
		/* seq_path_root(): nothing for a mount out of the caller's sight */
		struct prepend_buffer b = { buf, sizeof(buf) };
		struct path p = { .mnt = (struct mount *)m, .dentry = m->mnt_root };

		start = ftell(s->f);
		prepend(&b, "", 1);
		if (prepend_path(&p, root, &b) == PATH_REACHED_ROOT && b.len >= 0)
			fputs(buf + b.len, s->f);
		sm_string_end(s, start, &sm->mnt_point, &sm->mask, STATMOUNT_MNT_POINT);
	}
	if (want & (STATMOUNT_MNT_OPTS | STATMOUNT_OPT_ARRAY)) {
		/* the filesystem's options, as mountinfo's last field has them after
		 * "rw": without the leading comma, and one at a time for the array */
		char *opts = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&opts, &len);

		if (o) {
			if (sb->s_op->show_options)
				sb->s_op->show_options(o, sb);
			fclose(o);
		}
		if (want & STATMOUNT_MNT_OPTS) {
			start = ftell(s->f);
			if (opts && len > 1)
				fputs(opts + 1, s->f);
			sm_string_end(s, start, &sm->mnt_opts, &sm->mask, STATMOUNT_MNT_OPTS);
		}
		if (want & STATMOUNT_OPT_ARRAY) {
			start = ftell(s->f);
			sm->opt_num = 0;
			for (char *save = NULL, *t = opts && len > 1 ? strtok_r(opts + 1, ",", &save) : NULL;
			     t; t = strtok_r(NULL, ",", &save)) {
				fputs(t, s->f);
				fputc(0, s->f);
				sm->opt_num++;
			}
			/* the array's strings end with their own NULs */
			if (ftell(s->f) > start) {
				sm->opt_array = (uint32_t)start;
				sm->mask |= STATMOUNT_OPT_ARRAY;
			}
		}
		free(opts);
	}
	/* STATMOUNT_OPT_SEC_ARRAY, STATMOUNT_FS_SUBTYPE: nothing (no security
	 * options, no subtypes) */
	if (want & STATMOUNT_SB_SOURCE) {
		start = ftell(s->f);
		fputs(m->mnt_devname, s->f);
		sm_string_end(s, start, &sm->sb_source, &sm->mask, STATMOUNT_SB_SOURCE);
	}
	/* STATMOUNT_MNT_UIDMAP, _GIDMAP: nothing (no idmapped mounts) */
}

int uvfs_statmount(struct uvfs_task *task, const struct uvfs_mnt_id_req *req, void *buf,
		   size_t bufsize, unsigned int flags)
{
	struct kstatmount sm = { 0 };
	struct sm_strings s = { 0 };
	const struct path *root;
	struct mount *m;
	uint64_t want;
	size_t copy;
	int err;

	if (!task)
		return -EINVAL;
	if (flags)
		return -EINVAL;
	err = check_mnt_id_req(req);
	if (err)
		return err;
	/* the first unique id is MNT_UNIQUE_ID_OFFSET + 1 */
	if (req->mnt_id <= MNT_UNIQUE_ID_OFFSET)
		return -EINVAL;
	task_enter(task);
	err = requested_ns(task, req);
	if (err)
		goto out;
	want = req->param;
	/* prepare_kstatmount(): strings need room past the struct */
	err = -EOVERFLOW;
	if ((want & STATMOUNT_STRING_REQ) && bufsize == sizeof(sm))
		goto out;
	err = -ENOENT;
	m = mnt_by_unique_id(task, req->mnt_id);
	if (!m)
		goto out;
	root = &task->fs_struct->root;
	/* a mount out of the caller's sight (a chroot) only for CAP_SYS_ADMIN */
	err = -EPERM;
	if (!is_path_reachable(m, m->mnt_root, root) && !cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	if (want & STATMOUNT_SB_BASIC) {
		const struct super_block *sb = m->mnt_sb;
		struct statfs st = { 0 };

		if (sb->s_op->statfs)
			sb->s_op->statfs(sb->s_root, &st);
		sm.mask |= STATMOUNT_SB_BASIC;
		sm.sb_dev_major = major(sb->s_dev);
		sm.sb_dev_minor = minor(sb->s_dev);
		sm.sb_magic = (uint64_t)st.f_type;
		sm.sb_flags = (sb->s_readonly ? MS_RDONLY : 0) |
			      (uint32_t)(sb->s_ms_flags & (MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME));
	}
	if (want & STATMOUNT_MNT_BASIC) {
		sm.mask |= STATMOUNT_MNT_BASIC;
		sm.mnt_id = m->mnt_id_unique;
		sm.mnt_parent_id = m->mnt_parent->mnt_id_unique;
		sm.mnt_id_old = (uint32_t)m->mnt_id;
		sm.mnt_parent_id_old = (uint32_t)m->mnt_parent->mnt_id;
		sm.mnt_attr = mnt_attr(m->mnt_flags);
		/* mnt_to_propagation_flags() */
		sm.mnt_propagation = (IS_MNT_SHARED(m) ? MS_SHARED : 0) |
				     (IS_MNT_SLAVE(m) ? MS_SLAVE : 0) |
				     ((m->mnt_flags & MNT_UNBINDABLE) ? MS_UNBINDABLE : 0);
		if (!sm.mnt_propagation)
			sm.mnt_propagation = MS_PRIVATE;
		sm.mnt_peer_group = (uint64_t)m->mnt_group_id;
		sm.mnt_master = IS_MNT_SLAVE(m) ? (uint64_t)m->mnt_master->mnt_group_id : 0;
	}
	if (want & STATMOUNT_PROPAGATE_FROM) {
		sm.mask |= STATMOUNT_PROPAGATE_FROM;
		sm.propagate_from = IS_MNT_SLAVE(m) ? (uint64_t)get_dominating_id(m, root) : 0;
	}
	if (want & STATMOUNT_STRING_REQ) {
		err = -ENOMEM;
		s.f = open_memstream(&s.text, &s.len);
		if (!s.f)
			goto out;
		sm_strings_fill(&s, &sm, want, m, root);
		if (fclose(s.f))
			goto out;
		/* the strings must fit after the struct */
		err = -EOVERFLOW;
		if (s.len + sizeof(sm) >= bufsize)
			goto out;
	}
	if (want & STATMOUNT_MNT_NS_ID) {
		sm.mask |= STATMOUNT_MNT_NS_ID;
		sm.mnt_ns_id = task->mnt_ns->ns_id;
	}
	if (want & STATMOUNT_SUPPORTED_MASK) {
		sm.mask |= STATMOUNT_SUPPORTED_MASK;
		sm.supported_mask = STATMOUNT_SUPPORTED;
	}
	/* copy_statmount_to_user(): the struct as far as the buffer goes, the strings
	 * after it; size says how much was written */
	err = -EFAULT;
	if (!buf && (bufsize || s.len))
		goto out;
	copy = bufsize < sizeof(sm) ? bufsize : sizeof(sm);
	sm.size = (uint32_t)(copy + s.len);
	if (s.len)
		memcpy((char *)buf + sizeof(sm), s.text, s.len);
	memcpy(buf, &sm, copy);
	err = 0;
out:
	free(s.text);
	task_leave(task);
	return err;
}

static int by_unique_id(const void *a, const void *b)
{
	uint64_t x = (*(struct mount *const *)a)->mnt_id_unique;
	uint64_t y = (*(struct mount *const *)b)->mnt_id_unique;

	return (x > y) - (x < y);
}

ssize_t uvfs_listmount(struct uvfs_task *task, const struct uvfs_mnt_id_req *req,
		       uint64_t *mnt_ids, size_t nr_mnt_ids, unsigned int flags)
{
	bool reverse = flags & LISTMOUNT_REVERSE;
	struct path orig;
	struct mount *m, **v = NULL;
	size_t n = 0, k = 0, i;
	ssize_t err;

	if (!task)
		return -EINVAL;
	if (flags & ~LISTMOUNT_REVERSE)
		return -EINVAL;
	err = check_mnt_id_req(req);
	if (err)
		return err;
	if (req->mnt_id != LSMT_ROOT && req->mnt_id <= MNT_UNIQUE_ID_OFFSET)
		return -EINVAL;
	/* the last id listed: none (0, or ~0 as 6.18 takes it) or a unique one */
	if (req->param && req->param <= MNT_UNIQUE_ID_OFFSET)
		return -EINVAL;
	if (!nr_mnt_ids)
		return 0;
	task_enter(task);
	err = requested_ns(task, req);
	if (err)
		goto out;
	/* do_listmount(): the mounts below orig (the caller's root for LSMT_ROOT, the
	 * root mount included; a mount's own root otherwise, that mount left out), by
	 * unique id after (or, reversed, before) the last one listed */
	if (req->mnt_id == LSMT_ROOT) {
		orig = task->fs_struct->root;
	} else {
		err = -ENOENT;
		orig.mnt = mnt_by_unique_id(task, req->mnt_id);
		if (!orig.mnt)
			goto out;
		orig.dentry = orig.mnt->mnt_root;
	}
	/* below a mount out of the caller's sight (a chroot): only for CAP_SYS_ADMIN */
	err = -EPERM;
	if (!is_path_reachable(orig.mnt, orig.dentry, &task->fs_struct->root) &&
	    !cred_capable(&task->cred, CAP_SYS_ADMIN))
		goto out;
	cds_list_for_each_entry(m, &task->fs->mounts, mnt_list)
		n += m->mnt_ns == task->mnt_ns;
	err = -ENOMEM;
	v = uvfs_malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		goto out;
	cds_list_for_each_entry(m, &task->fs->mounts, mnt_list) {
		if (m->mnt_ns != task->mnt_ns || m->mnt_parent == m)
			continue;  /* the rootfs is nobody's to see */
		if (req->mnt_id != LSMT_ROOT && m == orig.mnt)
			continue;
		if (req->param && req->param != LSMT_ROOT &&
		    (reverse ? m->mnt_id_unique >= req->param : m->mnt_id_unique <= req->param))
			continue;
		if (is_path_reachable(m, m->mnt_root, &orig))
			v[k++] = m;
	}
	/* by unique id: the order of uvfs.mounts is not (a moved mount goes to its
	 * end) */
	qsort(v, k, sizeof(*v), by_unique_id);
	err = -EFAULT;
	if (!mnt_ids)
		goto out;
	for (i = 0; i < k && i < nr_mnt_ids; i++)
		mnt_ids[i] = v[reverse ? k - 1 - i : i]->mnt_id_unique;
	err = (ssize_t)i;
out:
	free(v);
	task_leave(task);
	return err;
}

int uvfs_set_mnt_ns_id(struct uvfs_task *task, uint64_t id)
{
	if (!task || !id)
		return -EINVAL;
	task_enter(task);
	task->mnt_ns->ns_id = id;
	task_leave(task);
	return 0;
}
