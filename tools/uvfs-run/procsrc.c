// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * procsrc.c - /proc as the kernel shows the program's processes: the source of the
 * files uvfs does not keep (uvfs_set_proc_source) -- stat, status, cmdline, maps,
 * /proc/loadavg and the rest.
 *
 * The text is the kernel's own, read from a proc the init mounted in the program's
 * pid namespace (main.c, init_main): every pid in it is the program's, as uvfs's
 * pids are, and every state, time and figure is the kernel's view of the same
 * process.  Where a name shows, uvfs's is put in its place:
 *   - the command name (stat's second field, status's Name:, comm): the kernel named
 *     the process after what it executed, which for a memfs file is the memfd
 *     ("memfd:uvfs") and for a host file the host's name; Linux names it after the
 *     path the program gave execve (kbasename(bprm->filename)), or, for an
 *     execveat of a descriptor with an empty path, after the file's name (6.14's
 *     "exec: fix up /proc/pid/comm in the execveat(AT_EMPTY_PATH) case") -- which
 *     syscalls.c (do_exec) works out and on_exec() keeps.  A name the program set
 *     itself since (prctl(PR_SET_NAME)) is the kernel's, and shown as it is.
 *   - maps' and smaps' path column, for the executable's mappings (the kernel's
 *     device and inode of the file it ran, kept at on_exec): uvfs's /proc/PID/exe,
 *     " (deleted)" and the era's name included.  Other mapped files keep the
 *     kernel's path: a library the program opened on the read-only root has the same
 *     name on both sides; one on a --bind or memfs mount shows the host's name (or
 *     /memfd:uvfs) once its descriptor is closed (docs/SEMANTICS.md §9).
 *   - /proc/locks' device and inode of each lock's file: the kernel's lock is on the
 *     stand-in (fix_locks).
 * A write (oom_score_adj, a comm opened for reading and writing) goes to the kernel's
 * file, made by the supervisor; a comm opened for writing only is the kernel's own
 * file in the program (syscalls.c, install_opened), for the kernel takes a name only
 * from a thread of the same group (comm_write(): EINVAL).
 *
 * Locking: none of its own; the source's read runs without uvfs's lock and takes
 * trace.c's procs_lock (run_uproc_names), under which uvfs is called (the order
 * uproc_put() has).  tids(), tgid() and current_tid() are called with uvfs's lock
 * held and take nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "run.h"

int run_proc_fd = -1;
struct run_bind run_binds[RUN_BINDS_MAX];
int run_nbinds;

/* The kernel's file, whole: its length, the text malloc'd in *out, or -errno */
static ssize_t kernel_text(int pid, int tid, const char *name, char **out)
{
	char path[64];
	size_t size = 4096, len = 0;
	char *text = NULL;
	ssize_t n;
	int fd;

	if (tid)
		snprintf(path, sizeof(path), "%d/task/%d/%s", pid, tid, name);
	else if (pid)
		snprintf(path, sizeof(path), "%d/%s", pid, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	if (!strncmp(name, "ns/", 3)) {
		/* a namespace's link: what readlink gives */
		text = malloc(PATH_MAX);
		n = text ? readlinkat(run_proc_fd, path, text, PATH_MAX - 1) : -1;
		if (n < 0) {
			n = text ? -errno : -ENOMEM;
			free(text);
			return n;
		}
		text[n] = 0;
		*out = text;
		return n;
	}
	fd = openat(run_proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (!text || len == size) {
			char *t;

			if (text)
				size *= 2;
			t = realloc(text, size + 1);
			if (!t) {
				n = -ENOMEM;
				break;
			}
			text = t;
		}
		n = read(fd, text + len, size - len);
		if (n <= 0) {
			if (n < 0)
				n = -errno;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (n < 0) {
		free(text);
		return n;
	}
	text[len] = 0;
	*out = text;
	return (ssize_t)len;
}

/* A text with [at, at + len) replaced by rep: the new length, or -ENOMEM */
static ssize_t splice_text(char **text, size_t tlen, size_t at, size_t len, const char *rep)
{
	size_t rlen = strlen(rep), nlen = tlen - len + rlen;
	char *t = malloc(nlen + 1);

	if (!t)
		return -ENOMEM;
	memcpy(t, *text, at);
	memcpy(t + at, rep, rlen);
	memcpy(t + at + rlen, *text + at + len, tlen - at - len + 1);
	free(*text);
	*text = t;
	return (ssize_t)nlen;
}

/* status's Name: escapes as proc_task_name(escape = true) does: '\n' and '\\' */
static void escape_comm(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (; *in && o + 3 < size; in++) {
		if (*in == '\n' || *in == '\\') {
			out[o++] = '\\';
			out[o++] = *in == '\n' ? 'n' : '\\';
		} else {
			out[o++] = *in;
		}
	}
	out[o] = 0;
}

/* The command name the kernel's text shows, in stat, status or comm: uvfs's when it
 * is the one the kernel gave at the exec */
static ssize_t fix_comm(const char *name, char **text, ssize_t len, const struct run_names *nm)
{
	char *s = *text, *b, *e, want[64], kern[64];

	if (!nm->comm[0] || !nm->kcomm[0])
		return len;
	if (!strcmp(name, "comm")) {
		e = strchr(s, '\n');
		if (e && (size_t)(e - s) == strlen(nm->kcomm) && !memcmp(s, nm->kcomm, (size_t)(e - s)))
			return splice_text(text, (size_t)len, 0, (size_t)(e - s), nm->comm);
	} else if (!strcmp(name, "stat")) {
		/* "pid (comm) S ...": the name may hold ')' itself; the last one ends it */
		b = strchr(s, '(');
		e = strrchr(s, ')');
		if (b && e && e > b && (size_t)(e - b - 1) == strlen(nm->kcomm) &&
		    !memcmp(b + 1, nm->kcomm, (size_t)(e - b - 1)))
			return splice_text(text, (size_t)len, (size_t)(b + 1 - s), (size_t)(e - b - 1),
					   nm->comm);
	} else if (!strcmp(name, "status") && !strncmp(s, "Name:\t", 6)) {
		escape_comm(nm->kcomm, kern, sizeof(kern));
		escape_comm(nm->comm, want, sizeof(want));
		e = strchr(s, '\n');
		if (e && (size_t)(e - s - 6) == strlen(kern) && !memcmp(s + 6, kern, strlen(kern)))
			return splice_text(text, (size_t)len, 6, (size_t)(e - s - 6), want);
	}
	return len;
}

/*
 * A mapping's identity as uvfs shows it, for maps' line about (kdev, kino) named path
 * by the kernel: the executable's file (the kernel's device and inode of what it
 * ran, kept at on_exec) is uvfs's /proc/PID/exe with uvfs's device and inode; a file
 * whose kernel path reaches, in uvfs, a file of the same inode number (the host's
 * root, which uvfs mounts whole: hostfs keeps the host's numbers) has uvfs's device
 * -- what stat of that path says, which lsof compares with maps.  Anything else (a
 * --bind file named by its host path, a memfs file's /memfd:uvfs) is left as the
 * kernel has it.  false: leave the line.
 */
struct map_id {
	dev_t kdev, dev;
	unsigned long kino, ino;
	bool exe;
	char name[PATH_MAX];  /* a memfs file's, for its memfd's mapping */
};

/*
 * A file of a --bind: the kernel names it from the root of the bind's own mount (the
 * clone hostfs made of the host directory, not reachable from the program's root):
 * "/lib.so" for the host's /var/tmp/d/lib.so bound on /mnt.  Its name where the
 * program sees it is the bind's destination and that: checked by uvfs's stat of it
 * (the same inode number), with uvfs's device; a removed one (" (deleted)") by the
 * bind's host device, as there is no file left to stat.  The later of two binds
 * that fit wins, as the later mount is the one seen.
 */
static bool bound_name(int pid, const char *p, struct map_id *id)
{
	size_t len = strlen(p);
	bool deleted = len > 10 && !strcmp(p + len - 10, " (deleted)");
	struct stat st;

	for (int i = run_nbinds - 1; i >= 0; i--) {
		if ((size_t)snprintf(id->name, sizeof(id->name), "%s%s", run_binds[i].dst,
				     strcmp(p, "/") ? p : "") >= sizeof(id->name))
			continue;
		if (deleted ? run_binds[i].dev != id->kdev ||
				      run_uproc_stat(pid, run_binds[i].dst, &st)
			    : run_uproc_stat(pid, id->name, &st) || st.st_ino != id->kino)
			continue;
		id->dev = st.st_dev;  /* the file's, or its bind's (one superblock) */
		id->ino = id->kino;
		return true;
	}
	id->name[0] = 0;
	return false;
}

static bool map_identity(int pid, const char *path, size_t plen, const struct run_names *nm,
			 struct map_id *id)
{
	char p[PATH_MAX];
	struct stat st;

	if (nm->exe[0] && id->kino == nm->exe_ino && id->kdev == nm->exe_dev) {
		id->exe = true;
		id->dev = nm->uexe_dev ? nm->uexe_dev : id->kdev;
		id->ino = nm->uexe_dev ? (unsigned long)nm->uexe_ino : id->kino;
		return true;
	}
	if (!plen || path[0] != '/' || plen >= sizeof(p))
		return false;
	memcpy(p, path, plen);
	p[plen] = 0;
	if (!strncmp(p, "/memfd:", 7)) {
		/* the data of a memfs file an open file holds (uvfs_memfd): its name */
		ssize_t n = run_uproc_memfd_name(pid, id->kdev, id->kino, id->name,
						 sizeof(id->name) - 1, &st);

		if (n <= 0)
			return false;
		id->name[n] = 0;
		id->dev = st.st_dev;
		id->ino = (unsigned long)st.st_ino;
		return true;
	}
	/* a --bind's first: the host's root shows its source too, at the host's name,
	 * but the program works in the bind */
	if (bound_name(pid, p, id))
		return true;
	if (run_uproc_stat(pid, p, &st) || st.st_ino != id->kino || st.st_dev == id->kdev)
		return false;
	id->dev = st.st_dev;
	id->ino = id->kino;
	return true;
}

/*
 * maps and smaps: each mapping's line with uvfs's identity of its file (above), made
 * as show_vma_header_prefix() makes it: "start-end perms offset MAJ:MIN inode ", then
 * spaces up to column 72 (25 + 6 * sizeof(void *) - 1) and one more, then the name.
 */
#define MAPS_PAD 72
static ssize_t fix_maps(int pid, char **text, ssize_t len, const struct run_names *nm)
{
	size_t at = 0;

	while (at < (size_t)len) {
		char *line = *text + at, *nl = strchr(line, '\n');
		size_t llen = nl ? (size_t)(nl - line) : strlen(line);
		unsigned int maj, min;
		unsigned long ino;
		int devat = 0, pathat = 0;
		struct map_id id;

		/* only a mapping's line with a name: smaps's "Size:  4 kB" lines and
		 * anonymous mappings do not parse */
		if (sscanf(line, "%*x-%*x %*4s %*x %n%x:%x %lu %n", &devat, &maj, &min, &ino,
			   &pathat) == 3 && pathat > 0 && (size_t)pathat < llen) {
			const char *name = line + pathat;
			size_t nlen = llen - (size_t)pathat;

			while (nlen && *name == ' ')
				name++, nlen--;
			memset(&id, 0, sizeof(id));
			id.kdev = makedev(maj, min);
			id.kino = ino;
			if (nlen && map_identity(pid, name, nlen, nm, &id)) {
				char head[128], *rep;
				const char *nm_name = id.exe ? nm->exe : id.name[0] ? id.name : name;
				size_t rn = id.exe ? strlen(nm->exe) : id.name[0] ? strlen(id.name) : nlen;
				int hl = snprintf(head, sizeof(head), "%02x:%02x %lu ", major(id.dev),
						  minor(id.dev), id.ino);
				size_t pad = (size_t)devat + (size_t)hl < MAPS_PAD ?
					     MAPS_PAD - (size_t)devat - (size_t)hl : 0;
				ssize_t n;

				rep = malloc((size_t)hl + pad + 1 + rn + 1);
				if (!rep)
					return -ENOMEM;
				memcpy(rep, head, (size_t)hl);
				memset(rep + hl, ' ', pad + 1);
				memcpy(rep + (size_t)hl + pad + 1, nm_name, rn);
				rep[(size_t)hl + pad + 1 + rn] = 0;
				n = splice_text(text, (size_t)len, at + (size_t)devat,
						llen - (size_t)devat, rep);
				llen = (size_t)devat + strlen(rep);
				free(rep);
				if (n < 0)
					return n;
				len = n;
			}
		}
		at += llen + 1;
	}
	return len;
}

/*
 * The uvfs file a kernel lock of process pid is on, by the kernel's device and inode
 * of its stand-in: a memfs file's memfd (uvfs_memfd_name), else one of the holder's
 * descriptors whose stand-in it is (a host file, a memfs directory's or fifo's own),
 * stat'ed through uvfs's /proc/self/fd/N as the holder sees it
 */
static bool lock_identity(int pid, dev_t kdev, unsigned long kino, struct stat *st)
{
	char path[300], name[8];
	struct dirent *de;
	struct stat kst;
	bool found = false;
	DIR *d;
	int fd;

	if (run_uproc_memfd_name(pid, kdev, kino, name, sizeof(name), st) > 0)
		return true;
	snprintf(path, sizeof(path), "%d/fd", pid);
	fd = openat(run_proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    fstatat(fd, de->d_name, &kst, 0) || kst.st_dev != kdev || kst.st_ino != kino)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		found = !run_uproc_stat(pid, path, st);
	}
	closedir(d);
	return found;
}

/*
 * /proc/locks: the kernel's lines (lock_get_status(): "N: [-> ]CLASS KIND MODE PID
 * MAJ:MIN:INO START END"), each lock's file as uvfs numbers it, so that lslocks and a
 * reader matching it against stat(2) find the program's files; the kernel names the
 * stand-in the lock is on.  A line whose file is not found (its holder gone, or not
 * the program's; an OFD lock, -1, not the reader's) is left as the kernel printed it.
 */
static ssize_t fix_locks(char **text, ssize_t len)
{
	size_t at = 0;

	while (at < (size_t)len) {
		char *line = *text + at, *nl = strchr(line, '\n'), *f = strstr(line, ": ");
		size_t llen = nl ? (size_t)(nl - line) : strlen(line);
		int pid, devat = 0, devend = 0;
		unsigned int maj, min;
		unsigned long ino;
		struct stat st;

		if (f && (size_t)(f - line) < llen) {
			f += 2;
			if (!strncmp(f, "-> ", 3))
				f += 3;
			/* an OFD lock's holder is -1 (no process owns it): looked for
			 * through the reader, who holds it as often as not */
			if (sscanf(f, "%*s %*s %*s %d %n%x:%x:%lu%n", &pid, &devat, &maj, &min, &ino,
				   &devend) == 4 && devend > devat &&
			    lock_identity(pid > 0 ? pid : run_cur_nstid(), makedev(maj, min), ino,
					  &st)) {
				char rep[64];
				ssize_t n;

				snprintf(rep, sizeof(rep), "%02x:%02x:%lu", major(st.st_dev),
					 minor(st.st_dev), (unsigned long)st.st_ino);
				n = splice_text(text, (size_t)len, (size_t)(f - line) + at + (size_t)devat,
						(size_t)(devend - devat), rep);
				if (n < 0)
					return n;
				llen = llen - (size_t)(devend - devat) + strlen(rep);
				len = n;
			}
		}
		at += llen + 1;
	}
	return len;
}

/*
 * /proc/locks' leases: uvfs keeps them (the kernel's list has none of the program's),
 * so their lines come from uvfs_leases(), numbered on from the kernel's last entry,
 * as lock_get_status() prints a lease: "N: LEASE  ACTIVE    READ PID MAJ:MIN:INO 0 EOF"
 * ("BREAKING  " and the type it is becoming while a break is under way)
 */
static ssize_t add_leases(char **text, ssize_t len)
{
	struct uvfs_lease_info *v = NULL;
	int n = 0, room = 0;
	long last = 0;
	char *t;

	/* as many as there are (more may come between the two calls: again) */
	while ((n = uvfs_leases(run_fs, v, room)) > room) {
		struct uvfs_lease_info *nv = realloc(v, (size_t)n * 2 * sizeof(*v));

		if (!nv) {
			free(v);
			return -ENOMEM;
		}
		v = nv;
		room = n * 2;
	}
	if (n <= 0) {
		free(v);
		return len;
	}
	for (char *l = *text; l && l < *text + len; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *e;
		long id = strtol(l, &e, 10);

		if (e != l && *e == ':' && id > last)
			last = id;
	}
	t = realloc(*text, (size_t)len + (size_t)n * 128 + 1);
	if (!t) {
		free(v);
		return -ENOMEM;
	}
	*text = t;
	/* the kernel lists the newest first (hlist_add_head_percpu); a lease whose taker
	 * is gone is not shown (locks_show(): its pid is none in the reader's namespace),
	 * nor are the opens blocked on it; those of one shown are, under its number with
	 * "-> " and no file (the breaker's lease has none: "<none>:0") */
	for (int i = 0, shown = 0; i < n; i++) {
		const char *type = v[i].type == F_WRLCK ? "WRITE" : v[i].type == F_RDLCK ? "READ" :
				   "UNLCK";

		if (v[i].waiter) {
			/* lock_get_status()'s "%*s" of "-> " for the depth */
			if (shown && run_host_tgid(v[i].pid) >= 0)
				len += sprintf(t + len, "%ld: %*s LEASE  BREAKER   %s %d <none>:0 0 EOF\n",
					       last, v[i].waiter + 1, "->", type, v[i].pid);
			continue;
		}
		shown = run_host_tgid(v[i].pid) >= 0;
		if (!shown)
			continue;
		len += sprintf(t + len, "%ld: LEASE  %s%s %d %02x:%02x:%lu 0 EOF\n", ++last,
			       v[i].breaking ? "BREAKING  " : "ACTIVE    ", type,
			       v[i].pid, major(v[i].dev), minor(v[i].dev), (unsigned long)v[i].ino);
	}
	free(v);
	return len;
}

/*
 * A thread reading its own stat or status is running (R), as a reader always is on
 * Linux; here the kernel sees it stopped in the call the supervisor answers ("t
 * (tracing stop)", or S while a notification waits).  Another process's state is
 * the kernel's, which is that stop too while one of its calls is being answered.
 */
static ssize_t fix_state(const char *name, char **text, ssize_t len)
{
	char *s = *text, *e;

	if (!strcmp(name, "stat")) {
		e = strrchr(s, ')');
		if (e && e[1] == ' ' && e[2] && e[3] == ' ')
			e[2] = 'R';
	} else if ((e = strstr(s, "\nState:\t"))) {
		char *nl = strchr(e + 8, '\n');

		if (nl)
			return splice_text(text, (size_t)len, (size_t)(e + 8 - s), (size_t)(nl - e - 8),
					   "R (running)");
	}
	return len;
}

/* Whether the calling thread is the one the file is about */
static bool reader_is(int tid, const struct run_names *nm)
{
	return tid ? run_cur_nstid() == tid : run_cur_tid == nm->tgid;
}

/*
 * /proc/PID/io and /proc/PID/task/TID/io: the kernel's counts, with those of the calls
 * uvfs answered added (run_io_counts(): a skipped call reaches no vfs_read() or
 * vfs_write(), which count them)
 */
static ssize_t fix_io(int pid, int tid, char **text, ssize_t len)
{
	static const char *const keys[4] = { "rchar: ", "wchar: ", "syscr: ", "syscw: " };
	unsigned long io[4];

	if (run_io_counts(pid, tid, io))
		return len;
	for (int k = 0; k < 4 && len >= 0; k++) {
		char *at = strstr(*text, keys[k]), *end, num[24];
		unsigned long long v;

		if (!at || (at != *text && at[-1] != '\n'))
			continue;
		at += strlen(keys[k]);
		v = strtoull(at, &end, 10);
		snprintf(num, sizeof(num), "%llu", v + io[k]);
		len = splice_text(text, (size_t)len, (size_t)(at - *text), (size_t)(end - at), num);
	}
	return len;
}

/* The text of /proc/PID/NAME as the program's pid namespace shows it, uvfs's names
 * put in: its length, *out malloc'd, or -errno */
static ssize_t program_text(int pid, int tid, const char *name, char **out)
{
	bool maps = !strcmp(name, "maps") || !strcmp(name, "smaps");
	bool state = !strcmp(name, "stat") || !strcmp(name, "status");
	struct run_names nm;
	char *text;
	ssize_t len = kernel_text(pid, tid, name, &text);

	if (len < 0)
		return len;
	if (pid && (maps || state || !strcmp(name, "comm")) &&
	    !run_uproc_names(pid, maps, &nm)) {
		len = maps ? fix_maps(pid, &text, len, &nm) : fix_comm(name, &text, len, &nm);
		if (len >= 0 && state && reader_is(tid, &nm))
			len = fix_state(name, &text, len);
	}
	if (pid && len >= 0 && !strcmp(name, "io"))
		len = fix_io(pid, tid, &text, len);
	if (!pid && len >= 0 && !strcmp(name, "locks"))
		len = fix_locks(&text, len);
	if (!pid && len >= 0 && !strcmp(name, "locks"))
		len = add_leases(&text, len);
	if (len < 0)
		free(text);
	else
		*out = text;
	return len;
}

/* a text into the source's buffer when it fits; its length either way */
static ssize_t give_text(char *text, ssize_t len, char *buf, size_t size)
{
	if (len >= 0 && (size_t)len <= size)
		memcpy(buf, text, (size_t)len);
	if (len >= 0)
		free(text);
	return len;
}

static ssize_t src_read(void *arg, int pid, int tid, const char *name, char *buf, size_t size)
{
	char *text = NULL;
	ssize_t len = program_text(pid, tid, name, &text);  /* before text is passed on */

	(void)arg;
	return give_text(text, len, buf, size);
}

/*
 * Nested pid namespaces (uvfs_proc_source.pidns, ns_pid, read_ns): a namespace is
 * known by its nsfs inode number (/proc/PID/ns/pid), 0 for the program's own, whose
 * pids uvfs's are.  A process or thread's number in a nested one is its NSpid entry
 * at that namespace's level, found by going up from its own namespace with
 * NS_GET_PARENT (the supervisor, in the host's namespace, may see every level).
 * Every answer asks the kernel again (a few calls): nested namespaces hold few
 * processes, and a number is never kept past its process.
 */
#define NS_GET_PARENT_ 0xb702  /* _IO(0xb7, 0x2) */

static uint64_t ns_ino(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_ino;
}

/* the program's own pid namespace: uvfs-run's init is its pid 1 */
static uint64_t top_pidns(void)
{
	static uint64_t top;
	uint64_t t = __atomic_load_n(&top, __ATOMIC_RELAXED);
	int fd;

	if (t)
		return t;
	fd = openat(run_proc_fd, "1/ns/pid", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	t = ns_ino(fd);
	close(fd);
	__atomic_store_n(&top, t, __ATOMIC_RELAXED);
	return t;
}

static uint64_t src_pidns(void *arg, int pid)
{
	char path[32];
	uint64_t ino;
	int fd;

	(void)arg;
	snprintf(path, sizeof(path), "%d/ns/pid", pid);
	fd = openat(run_proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ino = ns_ino(fd);
	close(fd);
	return ino == top_pidns() ? 0 : ino;
}

/* How many levels ns is above id's own pid namespace (0: its own), or -1 when it is
 * not one of id's */
static int ns_up(int id, uint64_t ns)
{
	uint64_t top = top_pidns();
	char path[32];
	int fd, up = 0;

	snprintf(path, sizeof(path), "%d/ns/pid", id);
	fd = openat(run_proc_fd, path, O_RDONLY | O_CLOEXEC);
	while (fd >= 0) {
		uint64_t ino = ns_ino(fd);
		int parent;

		if (ino == ns || !ino || ino == top)
			break;
		parent = ioctl(fd, NS_GET_PARENT_);
		close(fd);
		fd = parent;
		up++;
	}
	if (fd < 0)
		return -1;
	up = ns_ino(fd) == ns ? up : -1;
	close(fd);
	return up;
}

/* The numbers of a "NSpid:"-like line of id's status (from the program's namespace
 * down to id's own): how many, at most max stored */
static int ns_list(const char *text, const char *key, int *v, int max)
{
	const char *at = strstr(text, key);
	int n = 0;

	if (!at || (at != text && at[-1] != '\n'))
		return 0;
	at += strlen(key);
	while (*at == '\t' || *at == ' ') {
		char *end;
		long x = strtol(at, &end, 10);

		if (end == at)
			break;
		if (n < max)
			v[n] = (int)x;
		n++;
		at = end;
	}
	return n;
}

static int src_ns_pid(void *arg, uint64_t ns, int id)
{
	int up = id > 0 ? ns_up(id, ns) : -1, v[32], n;
	char *text;
	ssize_t len;

	(void)arg;
	if (up < 0 || (len = kernel_text(id, 0, "status", &text)) < 0)
		return 0;
	n = ns_list(text, "NSpid:", v, 32);
	free(text);
	return n - 1 - up >= 0 && n <= 32 ? v[n - 1 - up] : 0;
}

/* [at, at + len) of a number replaced by the number nr */
static ssize_t put_nr(char **text, ssize_t tlen, size_t at, size_t len, long nr)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", nr);
	return splice_text(text, (size_t)tlen, at, len, num);
}

/* stat's pid, ppid, pgrp, session and tpgid as ns numbers them (proc_pid_stat():
 * task_tgid_nr_ns() and the like, 0 outside it; a group whose leader is gone has
 * no number here: 0) */
static ssize_t ns_stat(uint64_t ns, int self, char **text, ssize_t len)
{
	char *rp = strrchr(*text, ')');
	size_t field_at[6];
	long field[6];
	int k = 0;

	if (!rp)
		return len;
	/* after ") ": state, ppid, pgrp, session, tty_nr, tpgid */
	for (char *p = rp + 2; k < 6 && p < *text + len; k++) {
		char *end;

		field_at[k] = (size_t)(p - *text);
		field[k] = strtol(p, &end, 10);
		p = strchr(p, ' ');
		if (!p)
			return len;
		p++;
	}
	for (int i = 5; i >= 1 && len >= 0; i--) {
		char *end;

		if (i == 4 || field[i] <= 0)
			continue;
		strtol(*text + field_at[i], &end, 10);
		len = put_nr(text, len, field_at[i], (size_t)(end - *text - field_at[i]),
			     src_ns_pid(NULL, ns, (int)field[i]));
	}
	if (len >= 0) {
		char *end;

		strtol(*text, &end, 10);
		len = put_nr(text, len, 0, (size_t)(end - *text), src_ns_pid(NULL, ns, self));
	}
	return len;
}

/* status's Tgid, Pid, PPid and TracerPid as ns numbers them, and its NS* lines from
 * ns's level down (proc_pid_status(): for (g = ns->level; ...)) */
static ssize_t ns_status(uint64_t ns, int self, char **text, ssize_t len)
{
	static const char *const one[] = { "\nTgid:\t", "\nPid:\t", "\nPPid:\t", "\nTracerPid:\t" };
	static const char *const list[] = { "\nNStgid:", "\nNSpid:", "\nNSpgid:", "\nNSsid:" };
	int v[32], n, up = ns_up(self, ns), drop;

	n = ns_list(*text, "NSpid:", v, 32);
	drop = up < 0 ? 0 : n - 1 - up;  /* the levels above ns */
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]) && len >= 0; i++) {
		char *at = strstr(*text, one[i]), *end;
		long x;

		if (!at)
			continue;
		at += strlen(one[i]);
		x = strtol(at, &end, 10);
		len = put_nr(text, len, (size_t)(at - *text), (size_t)(end - at),
			     x > 0 ? src_ns_pid(NULL, ns, (int)x) : x);
	}
	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]) && len >= 0 && drop > 0; i++) {
		char *at = strstr(*text, list[i]), *p;

		if (!at)
			continue;
		p = at + strlen(list[i]);
		/* "\tA\tB\tC": the first drop numbers go */
		for (int d = 0; d < drop && *p == '\t'; d++) {
			p++;
			while (*p >= '0' && *p <= '9')
				p++;
		}
		at += strlen(list[i]);
		len = splice_text(text, (size_t)len, (size_t)(at - *text), (size_t)(p - at), "");
	}
	return len;
}

static ssize_t src_read_ns(void *arg, uint64_t ns, int pid, int tid, const char *name,
			   char *buf, size_t size)
{
	char *text = NULL;
	ssize_t len = program_text(pid, tid, name, &text);

	(void)arg;
	if (len >= 0 && pid && !strcmp(name, "stat"))
		len = ns_stat(ns, tid ? tid : pid, &text, len);
	else if (len >= 0 && pid && !strcmp(name, "status"))
		len = ns_status(ns, tid ? tid : pid, &text, len);
	if (len < 0)
		free(text);
	return give_text(text, len, buf, size);
}

static ssize_t src_write(void *arg, int pid, int tid, const char *name, const void *buf,
			 size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	(void)arg;
	if (tid)
		snprintf(path, sizeof(path), "%d/task/%d/%s", pid, tid, name);
	else
		snprintf(path, sizeof(path), "%d/%s", pid, name);
	fd = openat(run_proc_fd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* The threads, in the kernel's order (proc_task_readdir: the thread group's) */
static int src_tids(void *arg, int pid, int *tids, size_t max)
{
	char path[32];
	int fd, n = 0;
	DIR *d;
	struct dirent *de;

	(void)arg;
	snprintf(path, sizeof(path), "%d/task", pid);
	fd = openat(run_proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if ((size_t)n < max)
			tids[n] = atoi(de->d_name);
		n++;
	}
	closedir(d);
	return n;
}

static int src_current_tid(void *arg, int pid)
{
	(void)arg, (void)pid;
	return run_cur_nstid();
}

/* The process of thread tid: the kernel's "Tgid:" of it */
static int src_tgid(void *arg, int tid)
{
	char path[32], line[64];
	int fd, tgid = -ESRCH;
	FILE *f;

	(void)arg;
	snprintf(path, sizeof(path), "%d/status", tid);
	fd = openat(run_proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ESRCH;
	f = fdopen(fd, "re");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/*
 * The program's descriptors that are not uvfs's (the terminal, pipes, sockets, what
 * it inherited), for /proc/PID/fd and fdinfo (uvfs_set_proc_fd_source): the
 * kernel's table as its proc lists it.  Every uvfs descriptor's stand-in sits at the
 * same number in that table, and uvfs shows its own there.  Called with uvfs's lock
 * held: only the kernel is asked.
 */
static int src_fds(void *arg, int pid, struct uvfs_proc_fd *fds, size_t max)
{
	char path[32];
	int dfd, n = 0;
	struct dirent *de;
	DIR *d;

	(void)arg;
	/* pid 1 is uvfs-run's init (main.c), not the program: what it holds (its pipe
	 * to uvfs-run, the namespace's /dev) is shown to nobody */
	if (pid == 1)
		return 0;
	snprintf(path, sizeof(path), "%d/fd", pid);
	dfd = openat(run_proc_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -ENOMEM;
	}
	/* the kernel lists them ascending (proc_readfd_common) */
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;  /* closed since the listing */
		if ((size_t)n < max) {
			fds[n].fd = atoi(de->d_name);
			fds[n].mode = st.st_mode & 0700;
		}
		n++;
	}
	closedir(d);
	return n;
}

static ssize_t src_fd_link(void *arg, int pid, int fd, char *buf, size_t size)
{
	char path[48];
	ssize_t n;

	(void)arg;
	snprintf(path, sizeof(path), "%d/fd/%d", pid, fd);
	n = readlinkat(run_proc_fd, path, buf, size);
	if (n < 0)
		return -errno;
	/* a file of the init's proc (a /proc/PID/mem the program opened: syscalls.c,
	 * install_opened) is where the program sees that proc: below /proc */
	if ((size_t)n < size && (size_t)n > strlen(RUN_PROC "/") &&
	    !memcmp(buf, RUN_PROC "/", strlen(RUN_PROC "/"))) {
		char rest[PATH_MAX];  /* "/PID/mem" */
		size_t len = (size_t)n - strlen(RUN_PROC);

		if (len < sizeof(rest)) {
			memcpy(rest, buf + strlen(RUN_PROC), len);
			n = snprintf(buf, size, "/proc%.*s", (int)len, rest);
		}
	}
	/* a text that filled the buffer may be longer: the caller asks again with room */
	return (size_t)n == size ? (ssize_t)size + 1 : n;
}

static ssize_t src_fdinfo(void *arg, int pid, int fd, char *buf, size_t size)
{
	char name[32];
	char *text;
	ssize_t len;

	(void)arg;
	snprintf(name, sizeof(name), "fdinfo/%d", fd);
	len = kernel_text(pid, 0, name, &text);
	if (len < 0)
		return len;
	if ((size_t)len <= size)
		memcpy(buf, text, (size_t)len);
	free(text);
	return len;
}

static const struct uvfs_proc_fd_source run_fd_source = {
	.fds = src_fds, .readlink = src_fd_link, .fdinfo = src_fdinfo,
};

static const struct uvfs_proc_source run_source = {
	.read = src_read, .write = src_write, .tids = src_tids,
	.current_tid = src_current_tid, .tgid = src_tgid,
	.pidns = src_pidns, .ns_pid = src_ns_pid, .read_ns = src_read_ns,
};

/*
 * The source, and the kernel's /proc/sys on uvfs's (a host mount, so that sysctl
 * reads the kernel's and a write reaches it), from the proc the init mounted at
 * where: t is the namespace's builder (its root the program's).  Without that proc
 * (a mount refused), uvfs's /proc keeps only what uvfs makes: said once.
 */
void run_proc_source(struct uvfs_task *t, const char *where)
{
	char sys[PATH_MAX];
	int err;

	run_proc_fd = open(where, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (run_proc_fd < 0) {
		fprintf(stderr, "uvfs-run: the kernel's proc of the program (%s): %s; /proc has "
			"only uvfs's files\n", where, strerror(errno));
		return;
	}
	uvfs_set_proc_source(run_fs, &run_source, NULL);
	uvfs_set_proc_fd_source(run_fs, &run_fd_source, NULL);
	/* shown as proc's: the host's path is of no use to the program (and differs per
	 * run) */
	snprintf(sys, sizeof(sys), "host=%s/sys", where);
	err = uvfs_mount2(t, "proc", "/proc/sys", "host", MS_NOSUID | MS_NODEV | MS_NOEXEC, sys);
	if (err)
		fprintf(stderr, "uvfs-run: /proc/sys: %s\n", strerror(-err));
}

void run_proc_source_end(void)
{
	uvfs_set_proc_fd_source(run_fs, NULL, NULL);
	uvfs_set_proc_source(run_fs, NULL, NULL);
	if (run_proc_fd >= 0)
		close(run_proc_fd);
	run_proc_fd = -1;
}
