// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * procfs.c - the part of /proc that is about the namespace (fs/proc/base.c, fd.c,
 * self.c):
 *
 *   /proc/self              symlink to the reader's pid
 *   /proc/PID/              one directory per live task
 *   /proc/PID/fd/N          magic link to the open file (lr-x------ / l-wx------ /
 *                           lrwx------ by open mode, size 64)
 *   /proc/PID/fdinfo/N      "pos: flags: mnt_id: ino:" as Linux prints them
 *   /proc/PID/{cwd,root,exe} magic links
 *
 * A magic link's readlink is d_path() of its target from the *reader's* root; following
 * it jumps to the object itself (namei.c: nd_jump_link), deleted or not.
 *
 * Nothing is stored but the dcache: every dentry and inode is made at lookup from
 * (type, pid, fd) and kept cached; ->revalidate checks on every later lookup that
 * its task (and descriptor) still exist, and drops it when not, so a closed
 * descriptor or an exited task simply stops being found (the kernel's
 * pid_revalidate / tid_fd_revalidate).  An inode goes with its last reference.
 *
 * Locking: runs under uvfs.ns_lock like everything else; the reader is fs->current.
 *
 * Limitations: no other /proc files; no permission checks (ptrace_may_access).
 */
#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "../d_path.h"
#include <urcu/rculist.h>

#include "../dcache.h"
#include "../namei.h"
#include "../permission.h"
#include "../file.h"
#include "../standin.h"
#include "../inode.h"
#include "../task.h"
#include "fs.h"
#include "proc_namespace.h"

enum proc_type {
	PROC_ROOT, PROC_SELF, PROC_PID, PROC_FD_DIR, PROC_FDINFO_DIR,
	PROC_FD, PROC_FDINFO, PROC_CWD, PROC_ROOTLINK, PROC_EXE, PROC_MOUNTS, PROC_MOUNTINFO,
	PROC_TASK,            /* /proc/PID/task */
	PROC_TID,             /* /proc/PID/task/TID */
	PROC_SRC,             /* a file whose text the embedder's source gives */
	PROC_SYS,             /* /proc/sys: empty, for a mount */
	PROC_LINK,            /* a plain symlink of fixed text (/proc/mounts) */
	PROC_THREAD_SELF,     /* /proc/thread-self */
	PROC_NS_DIR,          /* /proc/PID/ns */
	PROC_NS,              /* /proc/PID/ns/TYPE: the source's text, read only */
	PROC_EFD,             /* /proc/PID/fd/N of the embedder's descriptor N */
	PROC_EFDINFO,         /* /proc/PID/fdinfo/N of the same */
};

struct proc_inode {
	struct inode vfs_inode;
	enum proc_type type;  /* immutable */
	int pid;              /* immutable; the process (the tgid) */
	int fd;               /* immutable; PROC_SRC, PROC_LINK: the index in its table;
			       * PROC_FD, PROC_FDINFO, PROC_EFD, PROC_EFDINFO: the number */
	int tid;              /* immutable; below /proc/PID/task/TID: TID, else 0 */
};

struct proc_sb {
	/* immutable: the pid namespace it shows, the source's number for its mounter's
	 * (uvfs_proc_source.pidns), 0 for the instance's own */
	uint64_t pidns;
	char self[16];        /* ns_lock: the body of /proc/self for the current reader */
	char thread_self[32]; /* ns_lock: that of /proc/thread-self */
	char ns[64];          /* ns_lock: that of the last /proc/PID/ns/TYPE read */
};

/* The embedder's descriptors of one process, asked once per listing (efd_get) */
struct efd_list {
	struct uvfs_proc_fd *fds;  /* ascending, malloc'd; NULL: none */
	int n;
	bool asked;
};

static const struct inode_operations proc_dir_iops, proc_fd_dir_iops, proc_fdinfo_dir_iops,
	proc_pid_dir_iops, proc_link_iops, proc_task_dir_iops, proc_src_iops,
	proc_fixed_link_iops, proc_thread_self_iops, proc_src_rw_iops, proc_ns_iops,
	proc_self_iops, proc_file_iops, proc_mounts_iops, proc_efd_iops, proc_efdinfo_iops;
static const struct file_operations proc_dir_fops, proc_fdinfo_fops, proc_mounts_fops;
/* Each kind of entry's operations (a writable source file: proc_src_rw_iops) */
static const struct inode_operations *const type_iops[] = {
	[PROC_ROOT] = &proc_dir_iops, [PROC_SELF] = &proc_self_iops,
	[PROC_PID] = &proc_pid_dir_iops, [PROC_FD_DIR] = &proc_fd_dir_iops,
	[PROC_FDINFO_DIR] = &proc_fdinfo_dir_iops, [PROC_FD] = &proc_link_iops,
	[PROC_FDINFO] = &proc_file_iops, [PROC_CWD] = &proc_link_iops,
	[PROC_ROOTLINK] = &proc_link_iops, [PROC_EXE] = &proc_link_iops,
	[PROC_MOUNTS] = &proc_mounts_iops, [PROC_MOUNTINFO] = &proc_mounts_iops,
	[PROC_TASK] = &proc_task_dir_iops, [PROC_TID] = &proc_pid_dir_iops,
	[PROC_SRC] = &proc_src_iops, [PROC_SYS] = &proc_dir_iops,
	[PROC_LINK] = &proc_fixed_link_iops, [PROC_THREAD_SELF] = &proc_thread_self_iops,
	[PROC_NS_DIR] = &proc_pid_dir_iops, [PROC_NS] = &proc_ns_iops,
	[PROC_EFD] = &proc_efd_iops, [PROC_EFDINFO] = &proc_efdinfo_iops,
};
_Static_assert(ARRAY_SIZE(type_iops) == PROC_EFDINFO + 1, "an entry for every kind");
_Static_assert(offsetof(struct proc_inode, vfs_inode) == 0, "new_inode gives the struct");

static inline struct proc_inode *PI(const struct inode *inode)
{
	return container_of(inode, struct proc_inode, vfs_inode);
}


/* The inode numbers readdir shows (Linux's are made up as well; instantiated entries
 * get fresh ones from the superblock). */
static uint64_t proc_ino(enum proc_type type, int pid, int fd)
{
	if (type == PROC_ROOT)
		return 1;
	if (type == PROC_SELF)
		return 2;
	return ((uint64_t)pid << 26) | ((uint64_t)type << 20) | ((uint64_t)fd & 0xfffff);
}

static struct inode *proc_inode(struct super_block *sb, enum proc_type type, int pid, int fd,
				mode_t mode)
{
	struct inode *inode = new_inode(sb, mode);
	struct proc_inode *pi;

	if (!inode)
		return NULL;
	pi = PI(inode);
	pi->type = type;
	pi->pid = pid;
	pi->fd = fd;
	/* a fresh number per instantiation, as get_next_ino() gives: an fd reused after
	 * its entry was dropped is a new inode (tests/diff/proc-revalidate.sys) */
	inode->i_nlink = S_ISDIR(mode) ? 2 : 1;
	/* /proc/PID refuses every change on 6.18 as an immutable inode does: mode,
	 * owner and times EPERM, and nothing may be created or removed in it
	 * (tests/regress/proc-changes-eperm.sys) */
	if (type == PROC_PID || type == PROC_TID) {
		inode->i_flags |= INODE_IMMUTABLE;
		/* nlink_tgid: 2 + the directories of tgid_base_stuff on 6.18 (attr, fd,
		 * fdinfo, map_files, net, ns, task), of which uvfs has fd, fdinfo and
		 * task; nlink_tid the same of tid_base_stuff (attr, fd, fdinfo, net, ns) */
		inode->i_nlink = type == PROC_PID ? 9 : 7;
	}
	inode->i_op = type == PROC_SRC && (mode & 0222) ? &proc_src_rw_iops : type_iops[type];
	return inode;
}

static bool proc_drop_inode(const struct inode *inode)
{
	return true;
}

static void proc_put_super(struct super_block *sb)
{
	free(sb->s_fs_info);
}

/* simple_statfs() with procfs's magic */
static void proc_statfs(const struct dentry *d, struct statfs *buf)
{
	buf->f_type = 0x9fa0;  /* PROC_SUPER_MAGIC */
	buf->f_bsize = 4096;
	buf->f_namelen = 255;
}

static const struct super_operations proc_sops = {
	.statfs = proc_statfs,
	.inode_size = sizeof(struct proc_inode),
	.put_super = proc_put_super,
	.drop_inode = proc_drop_inode,
};

static int procfs_fill_super(struct super_block *sb, const struct fs_mount_opts *opts)
{
	(void)opts;
	struct inode *root;

	sb->s_fs_info = uvfs_zalloc(sizeof(struct proc_sb));
	if (!sb->s_fs_info)
		return -ENOMEM;
	sb->s_op = &proc_sops;
	/* proc_fill_super(): the namespace of the process that mounts it (uvfs_new's
	 * has none mounting it: the instance's own) */
	if (sb->s_fs->current && sb->s_fs->proc_src.pidns)
		((struct proc_sb *)sb->s_fs_info)->pidns =
			sb->s_fs->proc_src.pidns(sb->s_fs->proc_src_arg, sb->s_fs->current->pid);
	/* cached and revalidated; walked lockless too, its ->revalidate and
	 * ->get_link_rcu taking LOOKUP_RCU (a miss takes the lock: no ->lookup_noent) */
	sb->s_flags = SB_RCU_WALK | SB_I_NOEXEC | SB_I_NODEV;
	root = proc_inode(sb, PROC_ROOT, 0, 0, S_IFDIR | 0555);
	if (!root)
		return -ENOMEM;
	sb->s_root = d_alloc_root(sb, root);
	if (!sb->s_root) {
		iput(root);
		return -ENOMEM;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------
 * The entries of each directory
 */

struct proc_entry {
	char name[24];
	enum proc_type type;
	int pid, fd, tid;
	mode_t mode;
};

/* The open mode of an fd link: r-x for reading, -wx for writing (tid_fd_update_inode). */
static mode_t fd_link_mode(const struct file *f)
{
	mode_t m = S_IFLNK;

	if (f->f_mode & FMODE_READ)
		m |= S_IRUSR | S_IXUSR;
	if (f->f_mode & FMODE_WRITE)
		m |= S_IWUSR | S_IXUSR;
	return m;
}

/*
 * Directory positions, as the kernel numbers them (they show in lseek and d_off, and
 * decide what a listing resumed later returns): "." 0, ".." 1; in /proc, its own
 * entries from 2 in the order proc_root keeps them (proc_match(): by length, then
 * name; uvfs has fewer, so they are numbered densely among themselves), "self" at
 * FIRST_PROCESS_ENTRY (256), "thread-self" at 257, and pid N at N + TGID_OFFSET
 * (258), the end at PID_MAX_LIMIT + TGID_OFFSET — a listing that reached it stays
 * there, a new pid does not appear before a rewind (proc_pid_readdir); in a pid
 * directory the entries' index in 6.18's tgid_base_stuff + 2, in a thread's in
 * tid_base_stuff + 2 (proc_pident_readdir; the table below); in fd and fdinfo,
 * descriptor N at N + 2 and the end at the table's size + 2 (proc_readfd_common,
 * fget_task_next); in task, thread N at its rank + 2 (proc_task_readdir).
 */
#define FIRST_PROCESS_ENTRY 256
#define TGID_OFFSET (FIRST_PROCESS_ENTRY + 2)
#define PID_MAX_LIMIT (4 * 1024 * 1024)
#define PROC_ROOT_END ((long)PID_MAX_LIMIT + TGID_OFFSET)

#define ENT_SRC    0x1   /* there only when the instance has a source */
#define ENT_PTRACE 0x2   /* opening asks ptrace_may_access() (mm_access(), lock_trace()) */
/* the open takes the process's memory (__mem_open()'s mmgrab): the text is read at the
 * open (its error the open's, ESRCH for a zombie) and kept for reads after the exit */
#define ENT_MM     0x4

/* /proc/PID and /proc/PID/task/TID: 6.18's tgid_base_stuff and tid_base_stuff, the
 * entries uvfs has, each with its index + 2 in either (0: not in that one) and its
 * mode (ls -l /proc/self, /proc/self/task/TID on 6.18) */
static const struct pid_ent {
	const char *name;
	enum proc_type type;
	mode_t mode;
	short tgid_pos, tid_pos;
	unsigned char flags;
} pid_ents[] = {
	{ "task", PROC_TASK, S_IFDIR | 0555, 2, 0, 0 },
	{ "fd", PROC_FD_DIR, S_IFDIR | 0500, 3, 2, 0 },
	{ "fdinfo", PROC_FDINFO_DIR, S_IFDIR | 0555, 5, 3, 0 },
	{ "ns", PROC_NS_DIR, S_IFDIR | 0511, 6, 4, ENT_SRC },
	{ "environ", PROC_SRC, S_IFREG | 0400, 8, 6, ENT_SRC | ENT_PTRACE | ENT_MM },
	{ "auxv", PROC_SRC, S_IFREG | 0400, 9, 7, ENT_SRC | ENT_PTRACE | ENT_MM },
	{ "status", PROC_SRC, S_IFREG | 0444, 10, 8, ENT_SRC },
	{ "personality", PROC_SRC, S_IFREG | 0400, 11, 9, ENT_SRC | ENT_PTRACE },
	{ "limits", PROC_SRC, S_IFREG | 0444, 12, 10, ENT_SRC },
	{ "sched", PROC_SRC, S_IFREG | 0644, 13, 11, ENT_SRC },
	{ "comm", PROC_SRC, S_IFREG | 0644, 16, 12, ENT_SRC },
	{ "syscall", PROC_SRC, S_IFREG | 0400, 17, 13, ENT_SRC | ENT_PTRACE },
	{ "cmdline", PROC_SRC, S_IFREG | 0444, 18, 14, ENT_SRC },
	{ "stat", PROC_SRC, S_IFREG | 0444, 19, 15, ENT_SRC },
	{ "statm", PROC_SRC, S_IFREG | 0444, 20, 16, ENT_SRC },
	{ "maps", PROC_SRC, S_IFREG | 0444, 21, 17, ENT_SRC | ENT_PTRACE },
	{ "children", PROC_SRC, S_IFREG | 0444, 0, 18, ENT_SRC },
	/* the process's memory: uvfs has none of it; a runner gives the program the
	 * kernel's own (uvfs_proc_file()); read through uvfs, the source's text */
	{ "mem", PROC_SRC, S_IFREG | 0600, 23, 20, ENT_SRC | ENT_PTRACE },
	{ "cwd", PROC_CWD, S_IFLNK | 0777, 24, 21, 0 },
	{ "root", PROC_ROOTLINK, S_IFLNK | 0777, 25, 22, 0 },
	{ "exe", PROC_EXE, S_IFLNK | 0777, 26, 23, 0 },
	{ "mounts", PROC_MOUNTS, S_IFREG | 0444, 27, 24, 0 },
	{ "mountinfo", PROC_MOUNTINFO, S_IFREG | 0444, 28, 25, 0 },
	{ "smaps", PROC_SRC, S_IFREG | 0444, 31, 27, ENT_SRC | ENT_PTRACE },
	{ "smaps_rollup", PROC_SRC, S_IFREG | 0444, 32, 28, ENT_SRC | ENT_PTRACE },
	{ "wchan", PROC_SRC, S_IFREG | 0444, 35, 31, ENT_SRC },
	{ "stack", PROC_SRC, S_IFREG | 0400, 36, 32, ENT_SRC | ENT_PTRACE },
	{ "schedstat", PROC_SRC, S_IFREG | 0444, 37, 33, ENT_SRC },
	{ "cpuset", PROC_SRC, S_IFREG | 0444, 38, 34, ENT_SRC },
	{ "cgroup", PROC_SRC, S_IFREG | 0444, 39, 35, ENT_SRC },
	{ "oom_score", PROC_SRC, S_IFREG | 0444, 40, 36, ENT_SRC },
	{ "oom_adj", PROC_SRC, S_IFREG | 0644, 41, 37, ENT_SRC },
	{ "oom_score_adj", PROC_SRC, S_IFREG | 0644, 42, 38, ENT_SRC },
	{ "loginuid", PROC_SRC, S_IFREG | 0644, 43, 39, ENT_SRC },
	{ "sessionid", PROC_SRC, S_IFREG | 0444, 44, 40, ENT_SRC },
	{ "coredump_filter", PROC_SRC, S_IFREG | 0644, 45, 0, ENT_SRC },
	{ "io", PROC_SRC, S_IFREG | 0400, 46, 41, ENT_SRC | ENT_PTRACE },
	{ "uid_map", PROC_SRC, S_IFREG | 0644, 47, 42, ENT_SRC },
	{ "gid_map", PROC_SRC, S_IFREG | 0644, 48, 43, ENT_SRC },
	{ "setgroups", PROC_SRC, S_IFREG | 0644, 50, 45, ENT_SRC },
	{ "timerslack_ns", PROC_SRC, S_IFREG | 0666, 52, 0, ENT_SRC },
};
#define TGID_DIR_END 56
#define TID_DIR_END 49

/* /proc/PID/ns: 6.18's ns_entries order, each the source's "ns/TYPE" */
static const char *const ns_ents[] = {
	"ns/net", "ns/uts", "ns/ipc", "ns/pid", "ns/pid_for_children", "ns/user", "ns/mnt",
	"ns/cgroup", "ns/time", "ns/time_for_children",
};

/* /proc's own entries, by length and then name (proc_match()) */
static const struct root_ent {
	const char *name;
	enum proc_type type;
	mode_t mode;
	unsigned char flags;
} root_ents[] = {
	{ "sys", PROC_SYS, S_IFDIR | 0555, 0 },
	{ "stat", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "locks", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "swaps", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "mounts", PROC_LINK, S_IFLNK | 0777, 0 },
	{ "uptime", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "vmstat", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "cmdline", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "cpuinfo", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "devices", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "loadavg", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "meminfo", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "version", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	/* the kernel's configuration (CONFIG_IKCONFIG_PROC), which LTP and others read
	 * to know what the kernel has */
	{ "config.gz", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "diskstats", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "partitions", PROC_SRC, S_IFREG | 0444, ENT_SRC },
	{ "filesystems", PROC_SRC, S_IFREG | 0444, ENT_SRC },
};
_Static_assert(ARRAY_SIZE(root_ents) < FIRST_PROCESS_ENTRY - 2, "room before self");

/* The name of a PROC_SRC or PROC_LINK inode, from its index (pi->fd) */
static const char *proc_ent_name(const struct proc_inode *pi)
{
	if (pi->type == PROC_NS)
		return ns_ents[pi->fd];
	return pi->pid ? pid_ents[pi->fd].name : root_ents[pi->fd].name;
}

static bool has_source(const struct uvfs *fs)
{
	return fs->proc_src.read != NULL;
}

static void fill_pid_ent(struct proc_entry *e, size_t i, int pid, int tid)
{
	strcpy(e->name, pid_ents[i].name);
	e->type = pid_ents[i].type;
	e->pid = pid;
	e->tid = tid;
	e->fd = (int)i;
	e->mode = pid_ents[i].mode;
}

static void fill_pid_entry(struct proc_entry *e, const struct uvfs_task *t)
{
	snprintf(e->name, sizeof(e->name), "%d", t->pid);
	e->type = PROC_PID;
	e->pid = t->pid;
	e->mode = S_IFDIR | 0555;
}

/* The pid namespace a procfs shows: 0, the instance's own, or a nested one */
static uint64_t sb_pidns(const struct super_block *sb)
{
	return ((const struct proc_sb *)sb->s_fs_info)->pidns;
}

/* task_pid_nr_ns(): the number process or thread id (uvfs's) has in the namespace of
 * sb, 0 when it is not in it.  ns_lock. */
static int ns_nr(const struct super_block *sb, int id)
{
	struct uvfs *fs = sb->s_fs;
	uint64_t ns = sb_pidns(sb);

	if (!ns)
		return id;
	return fs->proc_src.ns_pid ? fs->proc_src.ns_pid(fs->proc_src_arg, ns, id) : 0;
}

/* ns_nr() of a task's own number, noted in the task: a listing asks for all of them,
 * and asking the source costs it calls of its own (a few of the kernel's) */
static int task_nr(const struct super_block *sb, struct uvfs_task *t)
{
	uint64_t ns = sb_pidns(sb);

	if (!ns)
		return t->pid;
	if (t->nsnr_ns != ns) {
		t->nsnr = ns_nr(sb, t->pid);
		t->nsnr_ns = ns;
	}
	return t->nsnr;
}

/* find_pid_ns() of a process in a nested namespace: the task numbered nr there */
static struct uvfs_task *find_task_ns(const struct super_block *sb, int nr)
{
	struct uvfs *fs = sb->s_fs;

	if (!sb_pidns(sb))
		return find_task(fs, nr);
	for (size_t pid = 1; pid < fs->pid_table_size; pid++) {
		struct uvfs_task *t = find_task(fs, (int)pid);

		if (t && task_nr(sb, t) == nr)
			return t;
	}
	return NULL;
}

/* next_tgid() in a nested namespace: the process with the lowest number there from
 * nr on, with *nr its number; NULL at the end.  Every process is asked: nested
 * namespaces hold few. */
static struct uvfs_task *next_task_ns(const struct super_block *sb, long *nr)
{
	struct uvfs *fs = sb->s_fs;
	struct uvfs_task *best = NULL;
	long best_nr = LONG_MAX;

	for (size_t pid = 1; pid < fs->pid_table_size; pid++) {
		struct uvfs_task *t = find_task(fs, (int)pid);
		long n = t ? task_nr(sb, t) : 0;

		if (n > 0 && n >= *nr && n < best_nr) {
			best = t;
			best_nr = n;
		}
	}
	*nr = best_nr;
	return best;
}

static void fill_fd_entry(struct proc_entry *e, enum proc_type dir_type, int pid,
			  unsigned int fd, const struct file *f)
{
	snprintf(e->name, sizeof(e->name), "%u", fd);
	e->pid = pid;
	e->fd = (int)fd;
	if (dir_type == PROC_FD_DIR) {
		e->type = PROC_FD;
		e->mode = fd_link_mode(f);
	} else {
		e->type = PROC_FDINFO;
		e->mode = S_IFREG | 0444;
	}
}

/*
 * The embedder's descriptors of process pid (uvfs_set_proc_fd_source), into l once:
 * none when there is no such source or it fails.  Under ns_lock (its fds() is told
 * so); l->fds is the caller's to free.
 */
static void efd_get(struct uvfs *fs, int pid, struct efd_list *l)
{
	size_t max = 64;

	if (l->asked)
		return;
	l->asked = true;
	l->n = 0;
	while (fs->proc_fds.fds) {
		struct uvfs_proc_fd *nf = realloc(l->fds, max * sizeof(*nf));
		int n;

		if (!nf)
			break;
		l->fds = nf;
		n = fs->proc_fds.fds(fs->proc_fds_arg, pid, l->fds, max);
		if (n < 0)
			break;
		if ((size_t)n <= max) {
			l->n = n;
			break;
		}
		max = (size_t)n;
	}
}

/* The embedder's descriptor fd of the list, or NULL; one uvfs has a file at is
 * uvfs's (t: the process) */
static const struct uvfs_proc_fd *efd_find(const struct efd_list *l, const struct uvfs_task *t,
					   unsigned long fd)
{
	if (fd < t->files->size && t->files->fd[fd])
		return NULL;
	for (int i = 0; i < l->n; i++)
		if (l->fds[i].fd >= 0 && (unsigned long)l->fds[i].fd == fd)
			return &l->fds[i];
	return NULL;
}

/* The first of the list at fd or above that uvfs has no file at, or NULL */
static const struct uvfs_proc_fd *efd_next(const struct efd_list *l, const struct uvfs_task *t,
					   unsigned long fd)
{
	for (int i = 0; i < l->n; i++) {
		unsigned long n = (unsigned long)l->fds[i].fd;

		if (l->fds[i].fd < 0 || n < fd || (n < t->files->size && t->files->fd[n]))
			continue;
		return &l->fds[i];
	}
	return NULL;
}

static void fill_efd_entry(struct proc_entry *e, enum proc_type dir_type, int pid,
			   const struct uvfs_proc_fd *ef)
{
	snprintf(e->name, sizeof(e->name), "%d", ef->fd);
	e->pid = pid;
	e->fd = ef->fd;
	if (dir_type == PROC_FD_DIR) {
		e->type = PROC_EFD;
		e->mode = S_IFLNK | (ef->mode & 0700);
	} else {
		e->type = PROC_EFDINFO;
		e->mode = S_IFREG | 0444;
	}
}

/*
 * The threads of process pid, from the source (ascending; none: the process is its
 * own only thread): how many, the first max of them in tids, or -errno.  Under
 * ns_lock (the source's tids() is told so).
 */
#define PROC_TIDS_MAX 4096
static int proc_tids(struct uvfs *fs, int pid, int *tids, size_t max)
{
	int n;

	if (!fs->proc_src.tids) {
		if (max)
			tids[0] = pid;
		return 1;
	}
	n = fs->proc_src.tids(fs->proc_src_arg, pid, tids, max);
	return n < 0 ? n : n > PROC_TIDS_MAX ? PROC_TIDS_MAX : n;
}

/* proc_task_getattr(): a task directory's links are 2 and one a thread; kept in the
 * inode at each locked lookup and revalidation (a lockless walk through it takes
 * the lock: proc_revalidate()), as the source is asked under ns_lock only */
static void task_dir_nlink(struct inode *inode)
{
	int tids[PROC_TIDS_MAX];
	int n = proc_tids(inode->i_sb->s_fs, PI(inode)->pid, tids, ARRAY_SIZE(tids));

	if (n > 0)
		WRITE_ONCE(inode->i_nlink, 2u + (unsigned int)n);
}

/* Whether tid is a thread of process pid (next_tid()/proc_task_lookup()) */
static bool proc_tid_alive(struct uvfs *fs, int pid, int tid)
{
	int tids[PROC_TIDS_MAX];
	int n = proc_tids(fs, pid, tids, ARRAY_SIZE(tids));

	for (int i = 0; i < n && i < (int)ARRAY_SIZE(tids); i++)
		if (tids[i] == tid)
			return true;
	return false;
}

/*
 * The first entry of dir at a position >= *pos (2 or more): true with e filled and
 * *pos its position, false at the end with *pos the end position.  Work: the pid
 * table or the descriptor table from *pos on, to the next live entry; the caller's
 * loop continues from the returned position.
 */
static bool proc_entry_from(struct inode *dir, long *pos, struct proc_entry *e,
			    struct efd_list *efds)
{
	struct uvfs *fs = dir->i_sb->s_fs;
	const struct proc_inode *pi = PI(dir);
	struct uvfs_task *t;

	memset(e, 0, sizeof(*e));
	switch (pi->type) {
	case PROC_ROOT:
		if (*pos >= PROC_ROOT_END)
			return false;
		if (*pos < FIRST_PROCESS_ENTRY) {
			long at = 2;

			for (size_t i = 0; i < ARRAY_SIZE(root_ents); i++) {
				if ((root_ents[i].flags & ENT_SRC) && !has_source(fs))
					continue;
				if (at++ < *pos)
					continue;
				*pos = at - 1;
				strcpy(e->name, root_ents[i].name);
				e->type = root_ents[i].type;
				e->fd = (int)i;
				e->mode = root_ents[i].mode;
				return true;
			}
		}
		if (*pos <= FIRST_PROCESS_ENTRY) {
			*pos = FIRST_PROCESS_ENTRY;
			strcpy(e->name, "self");
			e->type = PROC_SELF;
			e->mode = S_IFLNK | 0777;
			return true;
		}
		if (*pos == FIRST_PROCESS_ENTRY + 1) {
			strcpy(e->name, "thread-self");
			e->type = PROC_THREAD_SELF;
			e->mode = S_IFLNK | 0777;
			return true;
		}
		/* next_tgid(): the next live pid from the position on, through the pid
		 * table (no walk of every task for every entry) */
		if (*pos < TGID_OFFSET)
			*pos = TGID_OFFSET;
		if (sb_pidns(dir->i_sb)) {
			long nr = *pos - TGID_OFFSET;

			t = next_task_ns(dir->i_sb, &nr);
			if (!t) {
				*pos = PROC_ROOT_END;
				return false;
			}
			*pos = nr + TGID_OFFSET;
			fill_pid_entry(e, t);
			snprintf(e->name, sizeof(e->name), "%ld", nr);
			return true;
		}
		for (long pid = *pos - TGID_OFFSET; pid < (long)fs->pid_table_size; pid++) {
			t = find_task(fs, (int)pid);
			if (t) {
				STAT_ADD(fs->stats.dir_steps, (unsigned long)(pid - (*pos - TGID_OFFSET)) + 1);
				*pos = pid + TGID_OFFSET;
				fill_pid_entry(e, t);
				return true;
			}
		}
		if (*pos - TGID_OFFSET < (long)fs->pid_table_size)
			STAT_ADD(fs->stats.dir_steps,
				 (unsigned long)((long)fs->pid_table_size - (*pos - TGID_OFFSET)));
		*pos = PROC_ROOT_END;
		return false;
	case PROC_PID:
	case PROC_TID: {
		bool tgid = pi->type == PROC_PID;
		long best = LONG_MAX;
		size_t at = 0;

		for (size_t i = 0; i < ARRAY_SIZE(pid_ents); i++) {
			long ep = tgid ? pid_ents[i].tgid_pos : pid_ents[i].tid_pos;

			if (!ep || ep < *pos || ep >= best ||
			    ((pid_ents[i].flags & ENT_SRC) && !has_source(fs)))
				continue;
			best = ep;
			at = i;
		}
		if (best != LONG_MAX) {
			*pos = best;
			fill_pid_ent(e, at, pi->pid, pi->tid);
			return true;
		}
		if (*pos < (tgid ? TGID_DIR_END : TID_DIR_END))
			*pos = tgid ? TGID_DIR_END : TID_DIR_END;
		return false;
	}
	case PROC_TASK: {
		int tids[PROC_TIDS_MAX];
		int n = proc_tids(fs, pi->pid, tids, ARRAY_SIZE(tids));

		/* proc_task_readdir(): the threads by rank, first_tid() */
		if (n < 0 || *pos - 2 >= n) {
			*pos = n < 0 ? 2 : n + 2;
			return false;
		}
		snprintf(e->name, sizeof(e->name), "%d", ns_nr(dir->i_sb, tids[*pos - 2]));
		e->type = PROC_TID;
		e->pid = pi->pid;
		e->tid = tids[*pos - 2];
		e->mode = S_IFDIR | 0555;
		return true;
	}
	case PROC_NS_DIR:
		/* proc_ns_dir_readdir(): every entry, densely from 2 */
		if (*pos - 2 >= (long)ARRAY_SIZE(ns_ents)) {
			*pos = (long)ARRAY_SIZE(ns_ents) + 2;
			return false;
		}
		strcpy(e->name, ns_ents[*pos - 2] + 3);
		e->type = PROC_NS;
		e->pid = pi->pid;
		e->tid = pi->tid;
		e->fd = (int)(*pos - 2);
		e->mode = S_IFLNK | 0777;
		return true;
	case PROC_FD_DIR:
	case PROC_FDINFO_DIR: {
		const struct uvfs_proc_fd *ef;
		unsigned long end;

		t = find_task(fs, pi->pid);
		if (!t)
			return false;
		/* uvfs's next descriptor and the embedder's, whichever is lower */
		efd_get(fs, pi->pid, efds);
		ef = efd_next(efds, t, (unsigned long)*pos - 2);
		end = ef ? (unsigned long)ef->fd : t->files->size;
		for (unsigned long fd = (unsigned long)*pos - 2; fd < t->files->size && fd < end;
		     fd++) {
			if (!t->files->fd[fd])
				continue;
			STAT_ADD(fs->stats.dir_steps, fd - ((unsigned long)*pos - 2) + 1);
			*pos = (long)fd + 2;
			fill_fd_entry(e, pi->type, pi->pid, (unsigned int)fd, t->files->fd[fd]);
			return true;
		}
		if (ef) {
			*pos = (long)ef->fd + 2;
			fill_efd_entry(e, pi->type, pi->pid, ef);
			return true;
		}
		if ((unsigned long)*pos - 2 < t->files->size)
			STAT_ADD(fs->stats.dir_steps, t->files->size - ((unsigned long)*pos - 2));
		/* the end: past the table's size, or the embedder's last descriptor */
		end = t->files->size;
		if (efds->n && (unsigned long)efds->fds[efds->n - 1].fd + 1 > end)
			end = (unsigned long)efds->fds[efds->n - 1].fd + 1;
		if ((long)end + 2 > *pos)
			*pos = (long)end + 2;
		return false;
	}
	default:
		return false;
	}
}

static bool name_is(const struct qstr *name, const char *s)
{
	return strlen(s) == name->len && !memcmp(s, name->name, name->len);
}

/* The entry name names in dir, found directly (pid_lookup, proc_lookupfd_common):
 * a number is parsed, never matched against a listing. */
static bool proc_entry_named(struct inode *dir, const struct qstr *name, struct proc_entry *e)
{
	struct uvfs *fs = dir->i_sb->s_fs;
	const struct proc_inode *pi = PI(dir);
	struct uvfs_task *t;
	unsigned long n = 0;
	bool number = name->len > 0 && name->len <= 10 && name->name[0] != '0';

	for (uint32_t i = 0; number && i < name->len; i++) {
		if (name->name[i] < '0' || name->name[i] > '9')
			number = false;
		else
			n = n * 10 + (unsigned long)(name->name[i] - '0');
	}
	/* "0" is a descriptor's name too */
	if (name->len == 1 && name->name[0] == '0')
		number = true;
	memset(e, 0, sizeof(*e));
	switch (pi->type) {
	case PROC_ROOT:
		if (name_is(name, "self") || name_is(name, "thread-self")) {
			memcpy(e->name, name->name, name->len);
			e->type = name->len == 4 ? PROC_SELF : PROC_THREAD_SELF;
			e->mode = S_IFLNK | 0777;
			return true;
		}
		for (size_t i = 0; i < ARRAY_SIZE(root_ents); i++) {
			if (!name_is(name, root_ents[i].name) ||
			    ((root_ents[i].flags & ENT_SRC) && !has_source(fs)))
				continue;
			strcpy(e->name, root_ents[i].name);
			e->type = root_ents[i].type;
			e->fd = (int)i;
			e->mode = root_ents[i].mode;
			return true;
		}
		if (!number || n > INT32_MAX)
			return false;
		STAT_ADD(fs->stats.dir_steps, 1);
		if ((t = find_task_ns(dir->i_sb, (int)n))) {
			fill_pid_entry(e, t);
			snprintf(e->name, sizeof(e->name), "%lu", n);
			return true;
		}
		if (sb_pidns(dir->i_sb)) {
			/* a thread that does not lead its process, by its number there
			 * (proc_pid_lookup() takes any task): among the processes'
			 * threads, each asked (a miss's cost: few threads are looked up
			 * so) */
			for (size_t pid = 1; pid < fs->pid_table_size; pid++) {
				int tids[PROC_TIDS_MAX], k;

				if (!(t = find_task(fs, (int)pid)) || task_nr(dir->i_sb, t) <= 0)
					continue;
				k = proc_tids(fs, t->pid, tids, ARRAY_SIZE(tids));
				for (int i = 0; i < k; i++) {
					if (tids[i] == t->pid || ns_nr(dir->i_sb, tids[i]) != (int)n)
						continue;
					fill_pid_entry(e, t);
					snprintf(e->name, sizeof(e->name), "%lu", n);
					e->tid = tids[i];
					return true;
				}
			}
			return false;
		}
		/* a thread that does not lead its process: found, not listed
		 * (proc_pid_lookup() takes any task), its files the thread's */
		if (fs->proc_src.tgid) {
			int tg = fs->proc_src.tgid(fs->proc_src_arg, (int)n);

			if (tg > 0 && tg != (int)n && (t = find_task(fs, tg))) {
				fill_pid_entry(e, t);
				snprintf(e->name, sizeof(e->name), "%lu", n);
				e->tid = (int)n;
				return true;
			}
		}
		return false;
	case PROC_PID:
	case PROC_TID:
		for (size_t i = 0; i < ARRAY_SIZE(pid_ents); i++) {
			if (!(pi->type == PROC_PID ? pid_ents[i].tgid_pos : pid_ents[i].tid_pos) ||
			    !name_is(name, pid_ents[i].name) ||
			    ((pid_ents[i].flags & ENT_SRC) && !has_source(fs)))
				continue;
			fill_pid_ent(e, i, pi->pid, pi->tid);
			return true;
		}
		return false;
	case PROC_NS_DIR:
		for (size_t i = 0; i < ARRAY_SIZE(ns_ents); i++) {
			if (!name_is(name, ns_ents[i] + 3))
				continue;
			strcpy(e->name, ns_ents[i] + 3);
			e->type = PROC_NS;
			e->pid = pi->pid;
			e->tid = pi->tid;
			e->fd = (int)i;
			e->mode = S_IFLNK | 0777;
			return true;
		}
		return false;
	case PROC_TASK:
		if (!number || n > INT32_MAX)
			return false;
		if (sb_pidns(dir->i_sb)) {
			/* the thread numbered n in the namespace, among the process's */
			int tids[PROC_TIDS_MAX], k = proc_tids(fs, pi->pid, tids, ARRAY_SIZE(tids)), i;

			for (i = 0; i < k && ns_nr(dir->i_sb, tids[i]) != (int)n; i++)
				;
			if (i >= k)
				return false;
			memcpy(e->name, name->name, name->len);
			e->tid = tids[i];
		} else if (!proc_tid_alive(fs, pi->pid, (int)n)) {
			return false;
		} else {
			memcpy(e->name, name->name, name->len);
			e->tid = (int)n;
		}
		e->type = PROC_TID;
		e->pid = pi->pid;
		e->mode = S_IFDIR | 0555;
		return true;
	case PROC_FD_DIR:
	case PROC_FDINFO_DIR: {
		struct efd_list efds = { 0 };
		const struct uvfs_proc_fd *ef;

		STAT_ADD(fs->stats.dir_steps, 1);
		t = find_task(fs, pi->pid);
		if (!number || !t || n > INT32_MAX)
			return false;
		if (n < t->files->size && t->files->fd[n]) {
			fill_fd_entry(e, pi->type, pi->pid, (unsigned int)n, t->files->fd[n]);
			return true;
		}
		efd_get(fs, pi->pid, &efds);
		ef = efd_find(&efds, t, n);
		if (ef)
			fill_efd_entry(e, pi->type, pi->pid, ef);
		free(efds.fds);
		return ef != NULL;
	}
	default:
		return false;
	}
}

/* task_dump_owner(): the task's effective ids; but the entries of a task that is not
 * dumpable (it changed its ids) belong to root, except its directories of mode 0555
 * (/proc/PID, fdinfo: the kernel excepts that mode, not a kind of entry) */
lockless_read
static void task_dump_owner(const struct uvfs_task *t, uint16_t mode, uid_t *uid, gid_t *gid)
{
	if (mode != (S_IFDIR | 0555) && READ_ONCE(t->dumpable) != SUID_DUMP_USER) {
		*uid = 0;
		*gid = 0;
		return;
	}
	*uid = READ_ONCE(t->cred.euid);
	*gid = READ_ONCE(t->cred.egid);
}

/* The directories that belong to a task (get_proc_task() in their ops). */
static bool proc_task_dir(const struct inode *dir)
{
	enum proc_type type = PI(dir)->type;

	return type == PROC_PID || type == PROC_FD_DIR || type == PROC_FDINFO_DIR ||
	       type == PROC_TASK || type == PROC_TID || type == PROC_NS_DIR;
}

static int proc_lookup(struct inode *dir, struct dentry *dentry)
{
	struct proc_entry e;
	struct inode *inode;

	/* a task that has exited: proc_pident_lookup() and proc_lookupfd_common() find
	 * no task, ENOENT (in /proc/PID itself the walk's may_lookup() said ESRCH
	 * first, proc_pid_permission) */
	if (proc_task_dir(dir) && !find_task(dir->i_sb->s_fs, PI(dir)->pid))
		return -ENOENT;
	/* proc_task_lookup(), tid_base: a thread that has exited */
	if (PI(dir)->type == PROC_TID && !proc_tid_alive(dir->i_sb->s_fs, PI(dir)->pid,
							 PI(dir)->tid))
		return -ENOENT;
	if (!proc_entry_named(dir, &dentry->d_name, &e))
		/* proc_pident_lookup() & co. fail a miss outright rather than leave a
		 * negative dentry, so creating anything here is ENOENT, not EPERM. */
		return -ENOENT;
	inode = proc_inode(dir->i_sb, e.type, e.pid, e.fd, e.mode);
	if (!inode)
		return -ENOMEM;
	PI(inode)->tid = e.tid;
	if (e.type == PROC_FD || e.type == PROC_EFD)
		inode->i_size = 64;
	if (e.type == PROC_TASK)
		task_dir_nlink(inode);
	if (e.pid) {
		struct uvfs_task *t = find_task(dir->i_sb->s_fs, e.pid);

		if (t)
			task_dump_owner(t, inode->i_mode, &inode->i_uid, &inode->i_gid);
		else
			inode->i_uid = inode->i_gid = 0;
	}
	d_add(dentry, inode);
	/* proc_fd_instantiate(), proc_fdinfo_instantiate(): dont_mount() (6.18 has it) */
	if (e.type == PROC_FD || e.type == PROC_FDINFO || e.type == PROC_EFD ||
	    e.type == PROC_EFDINFO)
		d_flags_set(dentry, DCACHE_CANT_MOUNT);
	return 0;
}

/* readdir: ".", "..", then the entries from the file's position (above). */
static void set_d_off(char *rec, long off)
{
	int64_t o = off;

	memcpy(rec + 8, &o, 8);
}

/*
 * proc_pid_readdir(), proc_readfd_common(), proc_pident_readdir().  Where the kernel
 * sets ctx->pos to an entry's position before it tries to emit it (the pid and
 * descriptor lists, sparse), a call that runs out of room leaves f_pos at the entry
 * that did not fit — past a descriptor opened meanwhile below it, as on Linux
 * (tests/regress/proc-fd-readdir-full-buffer.sys).  A record's d_off is what
 * filldir64() writes: ctx->pos when the next entry was emitted (in /proc/PID, whose
 * entries the kernel numbers densely, the next index), and the final f_pos for the
 * last one.
 */
static ssize_t proc_iterate(struct file *f, void *buf, size_t count)
{
	struct inode *dir = f->f_inode;
	enum proc_type dt = PI(dir)->type;
	bool dense = dt == PROC_PID || dt == PROC_TID || dt == PROC_TASK || dt == PROC_NS_DIR;
	struct efd_list efds = { 0 };
	char *last = NULL;
	long last_pos = 0;
	size_t used = 0;

	if (f->f_pos < 0)
		return 0;
	/* proc_pident_readdir(), proc_readfd_common(): no task, ENOENT, dots included */
	if (proc_task_dir(dir) && !find_task(dir->i_sb->s_fs, PI(dir)->pid))
		return -ENOENT;
	for (;;) {
		long pos = (long)f->f_pos;
		struct proc_entry e;
		const char *name;
		uint64_t ino;
		unsigned char type;
		size_t len, reclen;
		char *rec;

		if (pos == 0) {
			name = ".";
			ino = dir->i_ino;
			type = DT_DIR;
		} else if (pos == 1) {
			name = "..";
			ino = f->f_path.dentry->d_parent->d_inode->i_ino;
			type = DT_DIR;
		} else if (proc_entry_from(dir, &pos, &e, &efds)) {
			name = e.name;
			ino = proc_ino(e.type, e.tid ? e.tid : e.pid, e.fd);
			type = inode_dtype(e.mode);
		} else {
			f->f_pos = pos;  /* the end position, where a later call starts */
			break;
		}
		len = strlen(name);
		reclen = (19 + len + 1 + 7) & ~(size_t)7;
		if (used + reclen > count) {
			/* sparse lists set ctx->pos to the entry first, and iterate_dir()
			 * keeps it even for EINVAL; in /proc/PID every index is an entry
			 * on Linux, so the one that did not fit is at f_pos already */
			if (!dense)
				f->f_pos = pos;
			if (!used) {
				free(efds.fds);
				return -EINVAL;
			}
			break;
		}
		if (last)
			set_d_off(last, dense ? last_pos + 1 : pos);
		rec = (char *)buf + used;
		memset(rec, 0, reclen);
		memcpy(rec, &ino, 8);
		{
			unsigned short rl = (unsigned short)reclen;

			memcpy(rec + 16, &rl, 2);
		}
		rec[18] = (char)type;
		memcpy(rec + 19, name, len);
		used += reclen;
		last = rec;
		last_pos = pos;
		f->f_pos = pos + 1;
	}
	/* the last record's: the end position -- but in a directory the kernel numbers
	 * densely, the next index, as the kernel's entry after uvfs's last one (its
	 * arch_status after timerslack_ns, at 53) makes it there */
	if (last)
		set_d_off(last, dense ? last_pos + 1 : (long)f->f_pos);
	free(efds.fds);
	return (ssize_t)used;
}

/* ---------------------------------------------------------------------------------
 * Links
 */

/* "%d" of a pid, without stdio (every walk through /proc/self makes one), at the end
 * of a 16-byte buffer. */
static const char *pid_name(int pid, char buf[16])
{
	char *p = buf + 16;
	unsigned int v = (unsigned int)pid;

	*--p = 0;
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

static const char *proc_self_get_link(struct inode *inode)
{
	struct proc_sb *psb = inode->i_sb->s_fs_info;
	struct uvfs_task *reader = inode->i_sb->s_fs->current;

	int nr = reader ? task_nr(inode->i_sb, reader) : 0;

	_Static_assert(sizeof(psb->self) == 16, "pid_name's buffer");
	/* proc_self_get_link(): the reader's own pid in the namespace the procfs shows;
	 * no reader, or a reader outside it (tgid 0), no self: ENOENT, for a readlink
	 * too */
	return nr > 0 ? pid_name(nr, psb->self) : ERR_PTR(-ENOENT);
}

/* The embedder's descriptor an entry names: still the embedder's (the source lists
 * it, uvfs has no file at its number), its mode as the source says now.  Under
 * ns_lock. */
static int efd_revalidate(struct inode *inode, const struct uvfs_task *t)
{
	struct efd_list efds = { 0 };
	const struct uvfs_proc_fd *ef;

	efd_get(inode->i_sb->s_fs, PI(inode)->pid, &efds);
	ef = efd_find(&efds, t, (unsigned long)PI(inode)->fd);
	if (ef && PI(inode)->type == PROC_EFD)
		inode->i_mode = (uint16_t)(S_IFLNK | (ef->mode & 0700));
	free(efds.fds);
	return ef != NULL;
}

/* pid_revalidate(), tid_fd_revalidate(): the task, and the descriptor, still there;
 * an fd link takes the mode of whatever file the descriptor holds now.  Lockless
 * (LOOKUP_RCU) it only looks: an inode that would change, or an entry that would
 * go, is -ECHILD, for the locked walk to see to. */
lockless_read
static int proc_revalidate(struct dentry *dentry, unsigned int flags)
{
	bool rcu = flags & LOOKUP_RCU;
	struct inode *inode = rcu ? __atomic_load_n(&dentry->d_inode, __ATOMIC_RELAXED)
				  : dentry->d_inode;
	const struct proc_inode *pi;
	struct uvfs_task *t;
	struct file *f;
	uint16_t mode;

	if (!inode)
		return rcu ? -ECHILD : 0;
	pi = PI(inode);
	if (!pi->pid)
		return 1;  /* /proc's own: the root, self, thread-self, sys, the source's */
	t = find_task(inode->i_sb->s_fs, pi->pid);
	if (!t)
		return rcu ? -ECHILD : 0;
	/* pid_revalidate() of a thread's directory (/proc/PID/task/TID, or /proc/TID of
	 * a thread that does not lead): the thread still there (the source is asked
	 * under ns_lock only) */
	if (pi->type == PROC_TID || (pi->type == PROC_PID && pi->tid)) {
		if (rcu)
			return -ECHILD;
		if (!proc_tid_alive(inode->i_sb->s_fs, pi->pid, pi->tid))
			return 0;
	}
	if (pi->type == PROC_TASK) {
		if (rcu)
			return -ECHILD;
		task_dir_nlink(inode);
	}
	/* A lockless walker only reads: what would change is for the locked walk. */
	{
		uid_t uid;
		gid_t gid;

		task_dump_owner(t, READ_ONCE(inode->i_mode), &uid, &gid);
		if (rcu) {
			if (inode->i_uid != uid || inode->i_gid != gid)
				return -ECHILD;
		} else {
			inode->i_uid = uid; /* pid_update_inode() */
			inode->i_gid = gid;
		}
	}
	if (pi->type == PROC_EFD || pi->type == PROC_EFDINFO)
		return rcu ? -ECHILD : efd_revalidate(inode, t);
	if (pi->type != PROC_FD && pi->type != PROC_FDINFO)
		return 1;
	f = rcu ? fdget_rcu(t, pi->fd) : fdget(t, pi->fd);
	if (!f)
		return rcu ? -ECHILD : 0;
	if (pi->type == PROC_FD) {
		mode = (uint16_t)fd_link_mode(f);
		if (!rcu)
			inode->i_mode = mode;
		else if (inode->i_mode != mode)
			return -ECHILD;
	}
	return 1;
}

/* proc_fd_link / proc_cwd_link / proc_root_link / proc_exe_link: the path, not
 * referenced, or NULL; ERR_PTR(-EACCES) for a reader ptrace_may_access() refuses
 * (proc_fd_access_allowed(), before the link is looked at); rcu: no ns_lock. */
lockless_read
static const struct path *magic_path(struct dentry *dentry, const struct uvfs_task *reader,
				     bool rcu)
{
	/* lockless, the dentry may be dying meanwhile: its inode read once (the walk
	 * read it too, but a second load may find NULL) */
	struct inode *inode = READ_ONCE(dentry->d_inode);
	const struct proc_inode *pi;
	struct uvfs_task *t;

	if (!inode)
		return NULL;
	pi = PI(inode);
	t = find_task(inode->i_sb->s_fs, pi->pid);
	if (!t)
		return NULL;
	if (!ptrace_may_read(reader, t))
		return ERR_PTR(-EACCES);
	switch (pi->type) {
	case PROC_FD:
		return task_link_path(t, LINK_FD, pi->fd, rcu);
	case PROC_CWD:
		return task_link_path(t, LINK_CWD, -1, rcu);
	case PROC_ROOTLINK:
		return task_link_path(t, LINK_ROOT, -1, rcu);
	case PROC_EXE:
		return task_link_path(t, LINK_EXE, -1, rcu);
	default:
		return NULL;
	}
}

static int proc_get_magic(struct dentry *dentry, const struct uvfs_task *reader,
			  struct path *out)
{
	const struct path *p = magic_path(dentry, reader, false);

	if (IS_ERR(p))
		return (int)PTR_ERR(p);
	if (!p)
		return -ENOENT;
	*out = *p;
	path_get(out);
	return 0;
}

lockless_read
static int proc_get_magic_rcu(struct dentry *dentry, const struct uvfs_task *reader,
			      struct path *out)
{
	const struct path *p = magic_path(dentry, reader, true);

	if (IS_ERR(p))
		return (int)PTR_ERR(p);
	if (!p)
		return -ECHILD;
	out->mnt = __atomic_load_n(&p->mnt, __ATOMIC_RELAXED);
	out->dentry = __atomic_load_n(&p->dentry, __ATOMIC_RELAXED);
	return out->mnt && out->dentry ? 0 : -ECHILD;
}

/* "self" for a lockless walk: the reader's pid, made in the walk's buffer */
lockless_read
static const char *proc_self_get_link_rcu(struct inode *inode, const struct uvfs_task *reader,
					  char buf[16])
{
	/* a nested namespace's number is the source's, asked under the lock */
	return sb_pidns(inode->i_sb) ? NULL : pid_name(reader->pid, buf);
}

/* simple_read_from_buffer(): the part of text from *pos on that fits count; EFAULT
 * for a NULL buffer only when something would be copied */
static ssize_t simple_read_from_buffer(void *buf, size_t count, off_t *pos, const char *text,
				       size_t len)
{
	if (*pos < 0 || (size_t)*pos >= len)
		return 0;
	if (!buf)
		return -EFAULT;
	if (len - (size_t)*pos < count)
		count = len - (size_t)*pos;
	memcpy(buf, text + *pos, count);
	*pos += (off_t)count;
	return (ssize_t)count;
}

/* seq_show() of fs/proc/fd.c */
static ssize_t proc_fdinfo_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	const struct proc_inode *pi = PI(f->f_inode);
	struct uvfs_task *t = find_task(f->f_inode->i_sb->s_fs, pi->pid);
	struct file *target = t ? fdget(t, pi->fd) : NULL;
	char head[160], *text = head;
	size_t len, more = 0;
	ssize_t ret;

	if (!target)
		return -ENOENT;
	len = (size_t)snprintf(head, sizeof(head), "pos:\t%lld\nflags:\t0%o\nmnt_id:\t%d\nino:\t%" PRIu32 "\n",
			       (long long)target->f_pos,
			       target->f_flags | (t->files->cloexec[pi->fd] ? O_CLOEXEC : 0),
			       target->f_path.mnt->mnt_id, target->f_inode->i_ino);
	/* the file's own lines (inotify's marks), counted, then written after */
	if (target->f_op->show_fdinfo)
		more = target->f_op->show_fdinfo(target, NULL, 0);
	if (more) {
		text = uvfs_realloc(NULL, len + more + 1);
		if (!text)
			return -ENOMEM;
		memcpy(text, head, len);
		len += target->f_op->show_fdinfo(target, text + len, more + 1);
	}
	ret = simple_read_from_buffer(buf, count, pos, text, len);
	if (text != head)
		free(text);
	return ret;
}

/* thread-self: "PID/task/TID" of the reader's thread (proc_thread_self_get_link());
 * the source says which thread calls, else the main one.  Locked walks only: the
 * body is made in the superblock's buffer. */
static const char *proc_thread_self_get_link(struct inode *inode)
{
	struct proc_sb *psb = inode->i_sb->s_fs_info;
	struct uvfs *fs = inode->i_sb->s_fs;
	struct uvfs_task *reader = fs->current;
	int tid = -1;

	if (!reader || ns_nr(inode->i_sb, reader->pid) <= 0)
		return ERR_PTR(-ENOENT);  /* proc_thread_self_get_link(): no pid */
	if (fs->proc_src.current_tid)
		tid = fs->proc_src.current_tid(fs->proc_src_arg, reader->pid);
	if (tid <= 0)
		tid = reader->pid;
	snprintf(psb->thread_self, sizeof(psb->thread_self), "%d/task/%d",
		 ns_nr(inode->i_sb, reader->pid), ns_nr(inode->i_sb, tid));
	return psb->thread_self;
}

lockless_read
static const char *proc_thread_self_get_link_rcu(struct inode *inode,
						 const struct uvfs_task *reader, char buf[16])
{
	(void)inode, (void)reader, (void)buf;
	return NULL;  /* the walk takes the lock */
}

/*
 * /proc/PID/ns/TYPE: what readlink gives is the kernel's ("net:[4026531840]", the
 * source's, asked with ns_lock held: a readlink's body is made under it); there is
 * no nsfs in uvfs to follow it to, so the body is a relative name that is not
 * there: open, stat and setns through it are ENOENT (docs/SEMANTICS.md §2).  A
 * reader ptrace_may_access() refuses gets EACCES first, readlink and follow alike
 * (proc_ns_get_link(), proc_ns_readlink()).
 */
static const char *proc_ns_get_link(struct inode *inode)
{
	struct proc_sb *psb = inode->i_sb->s_fs_info;
	struct uvfs *fs = inode->i_sb->s_fs;
	const struct proc_inode *pi = PI(inode);
	struct uvfs_task *t = find_task(fs, pi->pid);
	ssize_t n;

	if (!fs->proc_src.read || !t)
		return NULL;
	if (fs->current && !ptrace_may_read(fs->current, t))
		return ERR_PTR(-EACCES);
	n = fs->proc_src.read(fs->proc_src_arg, pi->pid, pi->tid, proc_ent_name(pi), psb->ns,
			      sizeof(psb->ns) - 1);
	if (n < 0)
		return ERR_PTR(n);  /* a zombie's: ENOENT, as proc_ns_get_link() */
	if (!n || (size_t)n >= sizeof(psb->ns))
		return NULL;
	psb->ns[n] = 0;
	return psb->ns;
}

/*
 * /proc/PID/fd/N of the embedder's descriptor: readlink gives the embedder's text
 * (uvfs_set_proc_fd_source); uvfs has no file to follow it to (ENOENT).  Both ask
 * ptrace_may_access() first, as proc_fd_access_allowed() does for any fd link.
 */
static int proc_efd_get_magic(struct dentry *dentry, const struct uvfs_task *reader,
			      struct path *out)
{
	const struct proc_inode *pi = PI(dentry->d_inode);
	struct uvfs_task *t = find_task(dentry->d_inode->i_sb->s_fs, pi->pid);

	(void)out;
	if (t && reader && !ptrace_may_read(reader, t))
		return -EACCES;
	return -ENOENT;
}

static ssize_t proc_efd_readlink(struct dentry *dentry, const struct uvfs_task *reader,
				 char *buf, size_t bufsiz)
{
	const struct proc_inode *pi = PI(dentry->d_inode);
	struct uvfs *fs = dentry->d_inode->i_sb->s_fs;
	struct uvfs_task *t = find_task(fs, pi->pid);
	char text[UVFS_PATH_MAX];
	ssize_t n;

	if (!t || !fs->proc_fds.readlink)
		return -ENOENT;
	if (reader && !ptrace_may_read(reader, t))
		return -EACCES;
	n = fs->proc_fds.readlink(fs->proc_fds_arg, pi->pid, pi->fd, text, sizeof(text));
	if (n < 0)
		return n;
	if ((size_t)n > sizeof(text))
		n = sizeof(text);  /* d_path's texts end below PATH_MAX */
	if ((size_t)n > bufsiz)
		n = (ssize_t)bufsiz;
	if (!buf)
		return -EFAULT;
	memcpy(buf, text, (size_t)n);
	return n;
}

/* /proc/PID/fdinfo/N of the embedder's descriptor: the embedder's text, made anew at
 * each read as seq_show() makes uvfs's */
static ssize_t proc_efdinfo_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	const struct proc_inode *pi = PI(f->f_inode);
	struct uvfs *fs = f->f_inode->i_sb->s_fs;
	size_t size = 512;
	char *text = NULL;
	ssize_t n;

	if (!find_task(fs, pi->pid) || !fs->proc_fds.fdinfo)
		return -ENOENT;
	for (;;) {
		char *nt = realloc(text, size);

		if (!nt) {
			n = -ENOMEM;
			break;
		}
		text = nt;
		n = fs->proc_fds.fdinfo(fs->proc_fds_arg, pi->pid, pi->fd, text, size);
		if (n < 0 || (size_t)n <= size)
			break;
		size = (size_t)n;
	}
	if (n >= 0)
		n = simple_read_from_buffer(buf, count, pos, text, (size_t)n);
	free(text);
	return n;
}

/* /proc/mounts: "self/mounts" (proc_symlink() in proc_self_init's neighbour,
 * proc_mounts_init()) */
static const char *proc_fixed_get_link(struct inode *inode)
{
	(void)inode;
	return "self/mounts";
}

/*
 * The source's files.  Opening one that reads another process's memory or its
 * kernel stack asks ptrace_may_access() first (mm_access(), lock_trace()): EACCES.
 */
static int src_keep_at_open(struct file *f);

static int proc_src_open(struct inode *inode, struct file *f)
{
	const struct proc_inode *pi = PI(inode);
	struct uvfs *fs = inode->i_sb->s_fs;
	struct uvfs_task *t;

	if (!pi->pid)
		return 0;
	t = find_task(fs, pi->pid);
	if (!t)
		return -ESRCH;
	if ((pid_ents[pi->fd].flags & ENT_PTRACE) && fs->current &&
	    !ptrace_may_read(fs->current, t))
		return -EACCES;
	if (pid_ents[pi->fd].flags & ENT_MM)
		return src_keep_at_open(f);
	return 0;
}

/*
 * A call to the source, which may take its time (uvfs-run reads the kernel's proc)
 * and may call uvfs: made without ns_lock, the file held meanwhile (a close of its
 * descriptor by another thread leaves it to this reference).  The caller's own
 * references are all it keeps across: the proc inode's fields are immutable.  The
 * reference is the caller's to drop (fput) once it is done with the file, as the
 * kernel's fdput() comes after the read: dropped before, the last one releases the
 * file while the read still keeps its text there.
 */
struct src_call {
	struct uvfs *fs;
	struct uvfs_task *cur;
	struct uvfs_proc_source src;
	void *arg;
	uint64_t ns;          /* the namespace the procfs shows (read_ns) */
};

static void src_call_begin(struct src_call *c, struct file *f)
{
	c->fs = f->f_inode->i_sb->s_fs;
	c->ns = sb_pidns(f->f_inode->i_sb);
	c->cur = c->fs->current;
	c->src = c->fs->proc_src;
	c->arg = c->fs->proc_src_arg;
	get_file(f);
	uvfs_unlock(c->fs);
}

static void src_call_end(struct src_call *c)
{
	uvfs_lock(c->fs);
	c->fs->current = c->cur;
}

/* The whole text, as the source makes it now: its length, with *text malloc'd */
static ssize_t src_text(struct src_call *c, const struct proc_inode *pi, char **text)
{
	size_t size = 4096;
	ssize_t n;

	*text = NULL;
	if (!c->src.read)
		return -ENOENT;  /* the source was taken away since the lookup */
	for (;;) {
		char *nt = realloc(*text, size);

		if (!nt)
			return -ENOMEM;
		*text = nt;
		if (c->ns && c->src.read_ns)
			n = c->src.read_ns(c->arg, c->ns, pi->pid, pi->tid, proc_ent_name(pi), *text,
					   size);
		else
			n = c->src.read(c->arg, pi->pid, pi->tid, proc_ent_name(pi), *text, size);
		if (n < 0 || (size_t)n <= size)
			return n;
		/* seq_read() gives up on a record that needs more than the memory a
		 * kmalloc can give */
		if ((size_t)n > ((size_t)64 << 20))
			return -ENOMEM;
		size = (size_t)n;
	}
}

/*
 * The text a read made, kept with the open file (f->private_data, ns_lock) as
 * seq_read() keeps its buffer: a reader that takes it in several reads gets one
 * text, not the ends of texts made at different times (status's counters grow a
 * digit between two reads).  A read at position 0 makes it anew, as seq_read()
 * runs ->show again there.
 */
struct src_text {
	char *text;
	size_t len;
};

/* ENT_MM's open: the text now, kept (a failure is the open's: nothing kept) */
static int src_keep_at_open(struct file *f)
{
	struct src_text *made = malloc(sizeof(*made));
	struct src_call c;
	char *text;
	ssize_t n;

	if (!made)
		return -ENOMEM;
	src_call_begin(&c, f);
	n = src_text(&c, PI(f->f_inode), &text);
	src_call_end(&c);
	f->f_count--;  /* src_call_begin's reference: the open's own is the only one */
	if (n < 0) {
		free(text);
		free(made);
		return (int)n;
	}
	made->text = text;
	made->len = (size_t)n;
	f->private_data = made;
	return 0;
}

static ssize_t proc_src_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	const struct proc_inode *pi = PI(f->f_inode);
	struct src_text *kept = f->private_data, *made;
	struct src_call c;
	char *text;
	ssize_t n;

	if (pi->pid && !find_task(f->f_inode->i_sb->s_fs, pi->pid))
		return -ESRCH;  /* get_proc_task() in the show functions */
	if (kept && *pos > 0)
		return simple_read_from_buffer(buf, count, pos, kept->text, kept->len);
	made = malloc(sizeof(*made));
	if (!made)
		return -ENOMEM;
	src_call_begin(&c, f);
	n = src_text(&c, pi, &text);
	src_call_end(&c);
	if (n < 0 && (pid_ents[pi->fd].flags & ENT_MM) && (kept = f->private_data)) {
		/* the process's memory is gone (a zombie): what the open took */
		fput(f);
		free(text);
		free(made);
		return simple_read_from_buffer(buf, count, pos, kept->text, kept->len);
	}
	if (n < 0) {
		fput(f);
		free(text);
		free(made);
		return n;
	}
	made->text = text;
	made->len = (size_t)n;
	/* (another reader of the file may have kept one meanwhile) */
	if ((kept = f->private_data)) {
		free(kept->text);
		free(kept);
	}
	f->private_data = made;
	n = simple_read_from_buffer(buf, count, pos, text, (size_t)n);
	fput(f);  /* the last, when the descriptor was closed meanwhile: frees the text */
	return n;
}

static void proc_src_release(struct inode *inode, struct file *f)
{
	struct src_text *kept = f->private_data;

	(void)inode;
	if (kept) {
		free(kept->text);
		free(kept);
	}
	f->private_data = NULL;
}

static ssize_t proc_src_write(struct file *f, const void *buf, size_t count, off_t *pos)
{
	const struct proc_inode *pi = PI(f->f_inode);
	struct src_call c;
	ssize_t n;

	(void)pos;
	if (pi->pid && !find_task(f->f_inode->i_sb->s_fs, pi->pid))
		return -ESRCH;
	if (count && !buf)
		return -EFAULT;
	src_call_begin(&c, f);
	n = c.src.write ? c.src.write(c.arg, pi->pid, pi->tid, proc_ent_name(pi), buf, count)
			: -EINVAL;
	src_call_end(&c);
	fput(f);
	return n;
}

/* The proc inode of type type that fd is open on, ns_lock held: NULL with *err
 * EBADF (not open), EXDEV (not such a file of procfs), ESRCH (its process gone) */
static const struct proc_inode *fd_proc_inode(struct uvfs_task *task, int fd,
					      enum proc_type type, int *err)
{
	struct file *f = fdget(task, fd);
	const struct proc_inode *pi;

	*err = 0;
	if (!f) {
		*err = -EBADF;
		return NULL;
	}
	pi = f->f_inode->i_sb->s_op == &proc_sops ? PI(f->f_inode) : NULL;
	if (!pi || pi->type != type || !pi->pid)
		*err = -EXDEV;
	else if (!find_task(task->fs, pi->pid))
		*err = -ESRCH;
	return *err ? NULL : pi;
}

int uvfs_proc_pid(struct uvfs_task *task, int fd)
{
	const struct proc_inode *pi;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	pi = fd_proc_inode(task, fd, PROC_PID, &ret);
	/* a thread's own /proc/TID is no pidfd (tgid_pidfd_to_pid()) */
	if (pi)
		ret = pi->tid ? -EXDEV : pi->pid;
	task_leave(task);
	return ret;
}

int uvfs_proc_file(struct uvfs_task *task, int fd, int *tid, char *name, size_t size)
{
	const struct proc_inode *pi;
	int ret;

	if (!task)
		return -EINVAL;
	task_enter(task);
	pi = fd_proc_inode(task, fd, PROC_SRC, &ret);
	if (pi && strlen(pid_ents[pi->fd].name) >= size) {
		ret = -ERANGE;
	} else if (pi) {
		strcpy(name, pid_ents[pi->fd].name);
		if (tid)
			*tid = pi->tid;
		ret = pi->pid;
	}
	task_leave(task);
	return ret;
}

int uvfs_set_proc_source(struct uvfs *fs, const struct uvfs_proc_source *source, void *arg)
{
	if (!fs || (source && !source->read))
		return -EINVAL;
	uvfs_lock(fs);
	if (source)
		fs->proc_src = *source;
	else
		memset(&fs->proc_src, 0, sizeof(fs->proc_src));
	fs->proc_src_arg = source ? arg : NULL;
	uvfs_unlock(fs);
	return 0;
}

int uvfs_set_proc_fd_source(struct uvfs *fs, const struct uvfs_proc_fd_source *source,
			    void *arg)
{
	if (!fs || (source && (!source->fds || !source->readlink)))
		return -EINVAL;
	uvfs_lock(fs);
	if (source)
		fs->proc_fds = *source;
	else
		memset(&fs->proc_fds, 0, sizeof(fs->proc_fds));
	fs->proc_fds_arg = source ? arg : NULL;
	uvfs_unlock(fs);
	return 0;
}

/* proc_setattr(): no mode changes below /proc (its root takes them: simple_setattr) */
static int proc_setattr(struct inode *inode, unsigned int ia_valid)
{
	return (ia_valid & ATTR_MODE) && PI(inode)->type != PROC_ROOT ? -EPERM : 0;
}

/* proc_fd_getattr(): a /proc/PID/fd directory's size is the number of open
 * descriptors.  Reads only (a lockless stat calls it too; ns_seq checks the count). */
static void proc_getattr(const struct inode *inode, struct stat *st)
{
	const struct proc_inode *pi = PI(inode);
	const struct uvfs_task *t;

	if (pi->type != PROC_PID && pi->type != PROC_FD_DIR)
		return;
	t = find_task(inode->i_sb->s_fs, pi->pid);
	/* pid_getattr(), /proc/PID's only: the owner as the task is now, root once it is
	 * gone (the other entries show the owner their last lookup gave them) */
	if (pi->type == PROC_PID && t) {
		uid_t uid;
		gid_t gid;

		task_dump_owner(t, READ_ONCE(inode->i_mode), &uid, &gid);
		st->st_uid = uid;
		st->st_gid = gid;
	} else if (pi->type == PROC_PID) {
		st->st_uid = 0;
		st->st_gid = 0;
	}
	if (pi->type == PROC_FD_DIR && t) {
		/* lockless stat: exec or unshare may replace the table (freed after a
		 * grace period) */
		const struct fdtable *files = __atomic_load_n(&t->files, __ATOMIC_ACQUIRE);

		st->st_size = __atomic_load_n(&files->count, __ATOMIC_RELAXED);
	} else if (pi->type == PROC_FD_DIR) {
		st->st_size = 0;
	}
}

static const struct inode_operations proc_dir_iops = {
	.lookup = proc_lookup, .revalidate = proc_revalidate, .fop = &proc_dir_fops,
	.setattr = proc_setattr, .getattr = proc_getattr,
	.standin = simple_standin,
};

/* proc_fd_permission(): /proc/PID/fd is 0500, but a task may always search its own
 * (a task that changed its ids owns it no more: task_dump_owner()) */
lockless_read
static int proc_fd_permission(const struct cred *cred, struct inode *inode, int mask)
{
	int err = generic_permission(cred, inode, mask);

	if (err && cred_task(cred)->pid == PI(inode)->pid)
		err = 0;
	return err;
}

/* proc_fdinfo_permission(): searching /proc/PID/fdinfo asks ptrace_may_access() first
 * (ESRCH once the task is gone, EACCES), then the mode */
lockless_read
static int proc_fdinfo_permission(const struct cred *cred, struct inode *inode, int mask)
{
	const struct uvfs_task *t = find_task(inode->i_sb->s_fs, PI(inode)->pid);

	if (!t)
		return -ESRCH;
	if (!ptrace_may_read(cred_task(cred), t))
		return -EACCES;
	return generic_permission(cred, inode, mask);
}

static const struct inode_operations proc_fdinfo_dir_iops = {
	.lookup = proc_lookup, .revalidate = proc_revalidate, .fop = &proc_dir_fops,
	.setattr = proc_setattr, .getattr = proc_getattr, .permission = proc_fdinfo_permission,
	.standin = simple_standin,
};

static const struct inode_operations proc_fd_dir_iops = {
	.lookup = proc_lookup, .revalidate = proc_revalidate, .fop = &proc_dir_fops,
	.setattr = proc_setattr, .getattr = proc_getattr, .permission = proc_fd_permission,
	.standin = simple_standin,
};
/*
 * proc_pid_permission(): searching /proc/PID of a task that is gone is ESRCH
 * (get_proc_task), before any name in it is looked at — what a descriptor or cwd
 * kept there meets; then the mode (hidepid=0: has_pid_permissions() allows all).
 * Lockless: the pid table is read as find_task() always is.
 */
lockless_read
static int proc_pid_permission(const struct cred *cred, struct inode *inode, int mask)
{
	if (!find_task(inode->i_sb->s_fs, PI(inode)->pid))
		return -ESRCH;
	return generic_permission(cred, inode, mask);
}

static const struct inode_operations proc_pid_dir_iops = {
	.lookup = proc_lookup, .revalidate = proc_revalidate, .fop = &proc_dir_fops,
	.setattr = proc_setattr, .getattr = proc_getattr, .permission = proc_pid_permission,
	.standin = simple_standin,
};
static const struct inode_operations proc_task_dir_iops = {
	.lookup = proc_lookup, .revalidate = proc_revalidate, .fop = &proc_dir_fops,
	.setattr = proc_setattr, .getattr = proc_getattr, .permission = proc_pid_permission,
	.standin = simple_standin,
};
static const struct file_operations proc_src_fops = {
	.open = proc_src_open, .read = proc_src_read, .release = proc_src_release,
	.fop_flags = FOP_SEQ,
};
static const struct file_operations proc_src_rw_fops = {
	.open = proc_src_open, .read = proc_src_read, .write = proc_src_write,
	.release = proc_src_release, .fop_flags = FOP_SEQ,
};
static const struct inode_operations proc_src_iops = {
	.revalidate = proc_revalidate, .fop = &proc_src_fops, .setattr = proc_setattr,
	.standin = simple_standin,
};
static const struct inode_operations proc_src_rw_iops = {
	.revalidate = proc_revalidate, .fop = &proc_src_rw_fops, .setattr = proc_setattr,
	.standin = simple_standin,
};
static const struct inode_operations proc_fixed_link_iops = {
	.get_link = proc_fixed_get_link,
};
static const struct inode_operations proc_ns_iops = {
	.get_link = proc_ns_get_link, .get_link_rcu = proc_thread_self_get_link_rcu,
	.revalidate = proc_revalidate, .setattr = proc_setattr,
};
static const struct inode_operations proc_thread_self_iops = {
	.get_link = proc_thread_self_get_link, .get_link_rcu = proc_thread_self_get_link_rcu,
};
static const struct inode_operations proc_link_iops = {
	.get_magic = proc_get_magic, .get_magic_rcu = proc_get_magic_rcu,
	.revalidate = proc_revalidate, .setattr = proc_setattr,
};
static const struct inode_operations proc_efd_iops = {
	.get_magic = proc_efd_get_magic, .readlink = proc_efd_readlink,
	.revalidate = proc_revalidate, .setattr = proc_setattr,
};
static const struct file_operations proc_efdinfo_fops = {
	.read = proc_efdinfo_read, .fop_flags = FOP_SEQ,
};
static const struct inode_operations proc_efdinfo_iops = {
	.revalidate = proc_revalidate, .fop = &proc_efdinfo_fops, .setattr = proc_setattr,
	.standin = simple_standin,
};
static const struct inode_operations proc_self_iops = {
	.get_link = proc_self_get_link, .get_link_rcu = proc_self_get_link_rcu,
};
static const struct inode_operations proc_file_iops = {
	.revalidate = proc_revalidate, .fop = &proc_fdinfo_fops, .setattr = proc_setattr,
	.standin = simple_standin,
};
/* generic_file_llseek (procfs's s_maxbytes is MAX_NON_LFS), no ->fsync, no O_DIRECT */
static const struct file_operations proc_dir_fops = {
	.iterate = proc_iterate, .fop_flags = FOP_NON_LFS,
};
/* a seq_file: seq_lseek, no pwrite */
static const struct file_operations proc_fdinfo_fops = {
	.read = proc_fdinfo_read, .fop_flags = FOP_SEQ,
};

/* /proc/PID/mounts and mountinfo: the text as it is at each read (the kernel's seq
 * file makes it as the reading goes; a reader that reads it whole sees the same) */
static ssize_t proc_mounts_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	const struct proc_inode *pi = PI(f->f_inode);
	struct uvfs_task *t = find_task(f->f_inode->i_sb->s_fs, pi->pid);
	size_t len;
	ssize_t ret;
	char *text;

	/* gone, or a zombie since the open: nothing more to show */
	if (!t || !t->mnt_ns)
		return 0;
	text = proc_mounts_text(t, pi->type == PROC_MOUNTINFO, &len);
	if (!text)
		return -ENOMEM;
	ret = simple_read_from_buffer(buf, count, pos, text, len);
	free(text);
	return ret;
}

static const struct inode_operations proc_mounts_iops = {
	.revalidate = proc_revalidate, .fop = &proc_mounts_fops, .setattr = proc_setattr,
	.standin = simple_standin,
};

/* mounts_open_common(): a task gone is ESRCH, a zombie (no namespace left) EINVAL */
static int proc_mounts_open(struct inode *inode, struct file *f)
{
	struct uvfs_task *t = find_task(inode->i_sb->s_fs, PI(inode)->pid);

	(void)f;
	if (!t)
		return -ESRCH;
	return t->mnt_ns ? 0 : -EINVAL;
}

static const struct file_operations proc_mounts_fops = {
	.open = proc_mounts_open, .read = proc_mounts_read, .fop_flags = FOP_SEQ,
};

/*
 * proc_flush_pid() (release_task): a task is gone, and /proc/PID with it — its
 * dentry is unhashed in every procfs mounted, so a descriptor or cwd that holds it
 * prints "/proc/PID (deleted)", getcwd there is ENOENT, and the next lookup of the
 * name finds nothing.  Caller holds ns_lock.
 */
static void proc_flush_pid(struct uvfs *fs, int pid)
{
	struct mount *m;
	char buf[16];
	const char *name = pid_name(pid, buf);
	struct qstr q = { .name = (const unsigned char *)name, .len = (uint32_t)strlen(name) };

	q.hash = d_name_hash(q.name, q.len);
	cds_list_for_each_entry(m, &fs->mounts, mnt_list) {
		struct dentry *d;

		if (m->mnt_sb->s_op != &proc_sops || m->mnt_root != m->mnt_sb->s_root)
			continue;
		d = d_lookup(m->mnt_root, &q);
		if (d) {
			d_drop(d);
			dput(d);
		}
	}
}

const struct file_system_type procfs_fs_type = {
	.name = "proc", .fill_super = procfs_fill_super, .task_gone = proc_flush_pid,
};
