// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc_namespace.c - /proc/PID/mounts and /proc/PID/mountinfo (fs/proc_namespace.c:
 * show_vfsmnt, show_mountinfo): one line per mount of the task's namespace, in the
 * order they were made (the kernel's tree of them is ordered by mnt_id_unique, never
 * reused, unlike the mount id it shows), mount points seen from
 * the task's root — a mount outside it (a chroot) is left out, as seq_path_root()
 * leaves it.
 *
 * Locking: called by procfs's read under uvfs.ns_lock.
 */
#include <stdlib.h>
#include <sys/sysmacros.h>

#include <sys/mount.h>

#include "../d_path.h"
#include "../dcache.h"
#include "../mount.h"
#include "../namei.h"
#include "../task.h"
#include "proc_namespace.h"

/* mangle(): space, tab, newline and backslash as octal escapes */
static void mangle(FILE *m, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\\')
			fprintf(m, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, m);
	}
}

/* seq_path_root(): the mount point from root, false when it is not below root */
static bool show_mountpoint(FILE *m, const struct mount *mnt, const struct path *root)
{
	char buf[UVFS_PATH_MAX];
	struct prepend_buffer b = { buf, sizeof(buf) };
	struct path p = { .mnt = (struct mount *)mnt, .dentry = mnt->mnt_root };

	prepend(&b, "", 1);
	if (prepend_path(&p, root, &b) != PATH_REACHED_ROOT || b.len < 0)
		return false;
	mangle(m, buf + b.len);
	return true;
}

/* seq_dentry() of the mount's root: its path inside the filesystem */
static void show_root(FILE *m, const struct dentry *d)
{
	char buf[UVFS_PATH_MAX];
	const char *p = dentry_path(d, buf, sizeof(buf));

	if (!IS_ERR(p))
		mangle(m, p);
}

/* show_mnt_opts() */
static void show_mnt_opts(FILE *m, int f)
{
	static const struct { int flag; const char *s; } opts[] = {
		{ MNT_NOSUID, ",nosuid" }, { MNT_NODEV, ",nodev" }, { MNT_NOEXEC, ",noexec" },
		{ MNT_NOATIME, ",noatime" }, { MNT_NODIRATIME, ",nodiratime" },
		{ MNT_RELATIME, ",relatime" }, { MNT_NOSYMFOLLOW, ",nosymfollow" },
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (f & opts[i].flag)
			fputs(opts[i].s, m);
}

/* show_sb_opts(): the generic superblock flags kept for the listing */
static void show_sb_flags(FILE *m, const struct super_block *sb)
{
	static const struct { unsigned long flag; const char *s; } opts[] = {
		{ MS_SYNCHRONOUS, ",sync" }, { MS_DIRSYNC, ",dirsync" },
		{ MS_MANDLOCK, ",mand" }, { MS_LAZYTIME, ",lazytime" },
	};

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (sb->s_ms_flags & opts[i].flag)
			fputs(opts[i].s, m);
}

/* ->show_options(): the filesystem's own */
static void show_sb_opts(FILE *m, const struct super_block *sb)
{
	if (sb->s_op->show_options)
		sb->s_op->show_options(m, sb);
}

static int by_id(const void *a, const void *b)
{
	const struct mount *x = *(const struct mount *const *)a, *y = *(const struct mount *const *)b;

	return (x->mnt_id_unique > y->mnt_id_unique) - (x->mnt_id_unique < y->mnt_id_unique);
}

static void show_one(FILE *m, const struct mount *mnt, const struct path *root, bool info)
{
	const struct super_block *sb = mnt->mnt_sb;

	if (!info) {
		/* show_vfsmnt(): the device, the mount point, the type, the options of
		 * both, "0 0" */
		char *line = NULL;
		size_t len = 0;
		FILE *t = open_memstream(&line, &len);

		if (!t)
			return;
		mangle(t, mnt->mnt_devname);
		fputc(' ', t);
		if (show_mountpoint(t, mnt, root)) {
			fprintf(t, " %s %s", sb->s_type->name, mnt_is_readonly(mnt) ? "ro" : "rw");
			show_sb_flags(t, sb);
			show_mnt_opts(t, mnt->mnt_flags);
			show_sb_opts(t, sb);
			fputs(" 0 0\n", t);
			fclose(t);
			fputs(line, m);
		} else {
			fclose(t);
		}
		free(line);
		return;
	}
	/* show_mountinfo() */
	{
		char *line = NULL;
		size_t len = 0;
		FILE *t = open_memstream(&line, &len);

		if (!t)
			return;
		fprintf(t, "%d %d %u:%u ", mnt->mnt_id, mnt->mnt_parent->mnt_id, major(sb->s_dev),
			minor(sb->s_dev));
		show_root(t, mnt->mnt_root);
		fputc(' ', t);
		if (show_mountpoint(t, mnt, root)) {
			fputs(mnt->mnt_flags & MNT_READONLY ? " ro" : " rw", t);
			show_mnt_opts(t, mnt->mnt_flags);
			/* the optional fields: peer group, master's group and, when that
			 * group is out of the reader's sight, the nearest one in it */
			if (IS_MNT_SHARED(mnt))
				fprintf(t, " shared:%d", mnt->mnt_group_id);
			if (IS_MNT_SLAVE(mnt)) {
				int master = mnt->mnt_master->mnt_group_id;
				int dom = get_dominating_id(mnt, root);

				fprintf(t, " master:%d", master);
				if (dom && dom != master)
					fprintf(t, " propagate_from:%d", dom);
			}
			if (mnt->mnt_flags & MNT_UNBINDABLE)
				fputs(" unbindable", t);
			fprintf(t, " - %s ", sb->s_type->name);
			mangle(t, mnt->mnt_devname);
			fputs(sb->s_readonly ? " ro" : " rw", t);
			show_sb_flags(t, sb);
			show_sb_opts(t, sb);
			fputc('\n', t);
			fclose(t);
			fputs(line, m);
		} else {
			fclose(t);
		}
		free(line);
	}
}

char *proc_mounts_text(struct uvfs_task *t, bool info, size_t *len)
{
	struct uvfs *fs = t->fs;
	struct mount *mnt, **v;
	char *text = NULL;
	size_t n = 0, i = 0;
	FILE *m;

	/* the task's namespace: its rootfs is listed by nobody, its mount point being
	 * reachable from no root */
	cds_list_for_each_entry(mnt, &fs->mounts, mnt_list)
		n += mnt->mnt_ns == t->mnt_ns;
	v = uvfs_malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return NULL;
	cds_list_for_each_entry(mnt, &fs->mounts, mnt_list)
		if (mnt->mnt_ns == t->mnt_ns)
			v[i++] = mnt;
	qsort(v, n, sizeof(*v), by_id);
	m = open_memstream(&text, len);
	if (m) {
		for (i = 0; i < n; i++)
			show_one(m, v[i], &t->fs_struct->root, info);
		if (fclose(m)) {
			free(text);
			text = NULL;
		}
	}
	free(v);
	return text;
}
