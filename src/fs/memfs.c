// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * memfs.c - the in-memory filesystem, with tmpfs's semantics (mm/shmem.c, fs/libfs.c).
 *
 * The dentry cache *is* the directory tree: like tmpfs, memfs keeps no directory
 * structure of its own.  Every positive dentry is pinned by an extra reference taken
 * at creation (shmem_mknod's dget) and released at unlink, so it can never be evicted;
 * negative dentries are never kept (SB_ALWAYS_DELETE, tmpfs's always_delete_dentry).
 * A directory's entries are its hashed positive children, listed newest first.
 *
 * File data is a sparse radix tree of 4 KiB pages: holes cost nothing, and a page is
 * allocated only when written (st_blocks counts them, as tmpfs does).  With UVFS_MEMFD
 * a file whose data a runner has asked for (uvfs_memfd) keeps it in a host memory
 * file instead, for as long as one of the open files that asked is open ("Data in a
 * host memory file", below).
 *
 * Accounting follows shmem_reserve_inode(): every inode *and every extra hard link*
 * takes one slot of max_inodes ("each new link needs a new dentry, pinning lowmem"),
 * BOGO_INODE_SIZE bytes of the inode space, which extended attributes draw on too
 * (shmem_xattr_handler_set(): simple_xattr_space() each); max_bytes is counted in
 * whole pages.
 *
 * Locking: everything here runs under uvfs.ns_lock (the callers hold it).
 *
 * Extended attributes (user., trusted., security.) as tmpfs keeps them, in the
 * superblock's table (simple_xattr.c); the VFS checks who may (src/xattr.c).
 *
 * Limitations: no POSIX ACLs, no huge pages; mmap only through a runner's memfd.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "../dcache.h"
#include "../file.h"
#include "../standin.h"
#include "../inode.h"
#include "../pipe.h"
#include "../simple_offset.h"
#include "../simple_xattr.h"
#include "fs.h"

#define RADIX_SHIFT 6
#define RADIX_FANOUT (1u << RADIX_SHIFT)
#define RADIX_MAX_HEIGHT 9 /* 64^9 pages = 2^66 bytes: beyond MAX_LFS_FILESIZE */

/* A short symlink lives in the inode; a longer one takes a page (shmem_symlink). */
#define SHORT_SYMLINK_LEN 128

struct radix_node {
	void *slot[RADIX_FANOUT];
};

/* What memfs adds to an inode depends on its type (a symlink's body is the VFS's
 * i_link, as shmem keeps short ones): 16 bytes. */
struct memfs_inode {
	struct inode vfs_inode;
	union {
		struct {                 /* regular files */
			void *root;      /* radix tree of pages: a page at height 0, else a node;
					  * struct memfs_memfd at HEIGHT_MEMFD */
			uint32_t npages; /* pages allocated (st_blocks = npages * 8): 16 TiB */
			uint32_t height; /* levels: covers RADIX_FANOUT^height pages */
		};
		struct {                 /* directories */
			struct offset_ctx *offsets; /* offset -> entry (simple_offset.h) */
			uint32_t next_offset;       /* the next entry's readdir offset */
		};
		/* sockets: the embedder's kernel socket file (uvfs_unix_bind), an O_PATH
		 * descriptor plus one (0: none, mknod's socket file); never changes
		 * once the inode is linked, closed when it is freed */
		int sock_fd1;
	};
};

_Static_assert(sizeof(struct memfs_inode) == sizeof(struct inode) + 16,
	       "memory per file: docs/PERFORMANCE.md");

/* simple_offset (fs/libfs.c): entries of a directory get offsets 3, 4, ... in the
 * order they are added, a rename takes a new one in the new directory, an exchange
 * swaps them; the end of a listing is DIR_OFFSET_EOD. */
#define DIR_OFFSET_MIN 3
#define DIR_OFFSET_EOD INT32_MAX

struct memfs_sb {
	uint64_t max_inodes;               /* 0: unlimited */
	uint64_t free_ispace;              /* bytes: BOGO_INODE_SIZE per inode, and xattrs */
	struct simple_xattr_table xattrs;  /* ns_lock: every inode's extended attributes */
	uint64_t max_pages, used_pages;
	bool noswap;                       /* asked for at mount; nothing swaps here */
	uint64_t gen_state;                /* ns_lock: the generations' sequence (splitmix64),
					    * from getrandom() at mount */
	/* for mountinfo (shmem_show_options()): the mount's options, and whether the
	 * limits are shown against Linux's defaults (a mount(2)) or only when set */
	struct fs_mount_opts shown;
	/* ns_lock: the files' memfds (struct memfs_memfd), for uvfs_memfd_name */
	struct memfs_memfd *memfds;
	/* ns_lock: the names of memfds whose last open file was closed (made at the
	 * first such close), the newest MEMFD_NAMES at most, for uvfs_memfd_name */
	struct memfd_name *names;
	unsigned int names_next;          /* the slot the next one takes */
};

/*
 * A mapping outlives the descriptor it was made from (a library once dlopen has
 * closed it): the kernel still names it after that file, while uvfs has moved the
 * data back from the memfd and closed its copy.  What is kept for it: the memfd's
 * identity and the dentry of the last open file (not a reference: memfs_d_release
 * forgets the name when the dentry goes, DCACHE_FS_MARK saying when to look), in a
 * ring of the newest -- an older one's mapping shows the kernel's /memfd:uvfs.  The
 * kernel's memfd inode numbers come from a counter (get_next_ino()): one is not
 * reused while its mapping is there.
 */
#define MEMFD_NAMES 1024
struct memfd_name {
	dev_t kdev;
	ino_t kino;
	struct dentry *dentry;  /* NULL: a free slot */
};


/* shmem_default_max_blocks(), shmem_default_max_inodes(): half the machine's pages */
static uint64_t linux_default_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);

	return pages > 0 ? (uint64_t)pages / 2 : 0;
}

/* SHMEM_FL_USER_MODIFIABLE: FS_IMMUTABLE_FL, FS_APPEND_FL, FS_NODUMP_FL,
 * FS_NOATIME_FL (src/ioctl.c; FS_CASEFOLD_FL wants an encoding memfs never has) */
#define MEMFS_FL_MODIFIABLE (0x10u | 0x20u | 0x40u | 0x80u)

static const struct inode_operations memfs_dir_iops, memfs_file_iops, memfs_link_iops,
	memfs_special_iops, memfs_fifo_iops, memfs_sock_iops;
static const struct file_operations memfs_dir_fops, memfs_file_fops;
static const struct super_operations memfs_sops;
static void memfs_free_inode(struct inode *inode);

_Static_assert(offsetof(struct memfs_inode, vfs_inode) == 0, "new_inode gives the struct");

static inline struct memfs_inode *MI(const struct inode *inode)
{
	return container_of(inode, struct memfs_inode, vfs_inode);
}

static inline struct memfs_sb *MSB(const struct super_block *sb) { return sb->s_fs_info; }

/* ---------------------------------------------------------------------------------
 * Accounting
 */

/* shmem's inode space: what an inode costs against nr_inodes (BOGO_INODE_SIZE) */
#define BOGO_INODE_SIZE 1024

static int reserve_ispace(struct super_block *sb, uint64_t bytes)
{
	struct memfs_sb *s = MSB(sb);

	if (!s->max_inodes)
		return 0;
	if (s->free_ispace < bytes)
		return -ENOSPC;
	s->free_ispace -= bytes;
	return 0;
}

static void free_ispace(struct super_block *sb, uint64_t bytes)
{
	struct memfs_sb *s = MSB(sb);

	if (s->max_inodes)
		s->free_ispace += bytes;
}

static int reserve_inode(struct super_block *sb)
{
	return reserve_ispace(sb, BOGO_INODE_SIZE);
}

static void free_inode_slot(struct super_block *sb)
{
	free_ispace(sb, BOGO_INODE_SIZE);
}

static void *alloc_page(struct super_block *sb)
{
	struct memfs_sb *s = MSB(sb);
	void *page;

	if (s->max_pages && s->used_pages >= s->max_pages)
		return ERR_PTR(-ENOSPC);
	page = uvfs_zalloc(UVFS_PAGE_SIZE);
	if (!page)
		return ERR_PTR(-ENOMEM);
	s->used_pages++;
	STAT_ADD(sb->s_fs->stats.data_bytes, UVFS_PAGE_SIZE);
	return page;
}

static void free_page(struct super_block *sb, void *page)
{
	MSB(sb)->used_pages--;
	STAT_ADD(sb->s_fs->stats.data_bytes, -UVFS_PAGE_SIZE);
	free(page);
}

/* ---------------------------------------------------------------------------------
 * The page tree
 */

static uint64_t radix_capacity(unsigned int height)
{
	return height >= 11 ? UINT64_MAX : (uint64_t)1 << (RADIX_SHIFT * height);
}

static void *radix_lookup(const struct memfs_inode *mi, uint64_t index)
{
	void *p = mi->root;

	if (!mi->height || index >= radix_capacity(mi->height))
		return NULL;
	for (unsigned int h = mi->height; h > 0 && p; h--) {
		unsigned int i = (index >> (RADIX_SHIFT * (h - 1))) & (RADIX_FANOUT - 1);

		p = ((struct radix_node *)p)->slot[i];
	}
	return p;
}

/* The slot for page index, growing the tree as needed; NULL on ENOMEM (the tree may
 * have grown, which is harmless: empty nodes hold no data). */
static void **radix_slot(struct memfs_inode *mi, uint64_t index)
{
	void **slot;

	if (!mi->height) {
		struct radix_node *n = uvfs_zalloc(sizeof(*n));

		if (!n)
			return NULL;
		mi->root = n;
		mi->height = 1;
	}
	while (index >= radix_capacity(mi->height)) {
		struct radix_node *n = uvfs_zalloc(sizeof(*n));

		if (!n)
			return NULL;
		n->slot[0] = mi->root;
		mi->root = n;
		mi->height++;
	}
	slot = &mi->root;
	for (unsigned int h = mi->height; h > 0; h--) {
		unsigned int i = (index >> (RADIX_SHIFT * (h - 1))) & (RADIX_FANOUT - 1);
		struct radix_node *n = *slot;

		if (!n) {
			n = uvfs_zalloc(sizeof(*n));
			if (!n)
				return NULL;
			*slot = n;
		}
		slot = &n->slot[i];
	}
	return slot;
}

/* Free the pages at index >= from in the subtree *p covering [base, base + cap). */
static void radix_truncate_node(struct super_block *sb, struct memfs_inode *mi, void **p,
				unsigned int h, uint64_t base, uint64_t from)
{
	if (!*p)
		return;
	if (h == 0) {
		if (base >= from) {
			free_page(sb, *p);
			mi->npages--;
			*p = NULL;
		}
		return;
	}
	uint64_t step = radix_capacity(h - 1);
	struct radix_node *n = *p;
	bool empty = true;

	for (unsigned int i = 0; i < RADIX_FANOUT; i++) {
		uint64_t b = base + i * step;

		if (b + step > from)
			radix_truncate_node(sb, mi, &n->slot[i], h - 1, b, from);
		if (n->slot[i])
			empty = false;
	}
	if (empty) {
		free(n);
		*p = NULL;
	}
}

static void radix_truncate(struct super_block *sb, struct memfs_inode *mi, uint64_t from)
{
	if (!mi->height)
		return;
	radix_truncate_node(sb, mi, &mi->root, mi->height, 0, from);
	if (!mi->root)
		mi->height = 0;
}

/* The first page index >= from that is present (want) or absent (!want), below
 * limit; limit if none. */
static uint64_t radix_find(const struct memfs_inode *mi, uint64_t from, uint64_t limit,
			   bool want)
{
	for (uint64_t i = from; i < limit; i++) {
		if ((radix_lookup(mi, i) != NULL) == want)
			return i;
		/* Skip whole absent subtrees when looking for data. */
		if (want && mi->height) {
			unsigned int h;
			const void *p = mi->root;

			if (i >= radix_capacity(mi->height))
				return limit;
			for (h = mi->height; h > 0; h--) {
				unsigned int s = (i >> (RADIX_SHIFT * (h - 1))) & (RADIX_FANOUT - 1);
				const void *c = ((const struct radix_node *)p)->slot[s];

				if (!c)
					break;
				p = c;
			}
			if (h > 0) {
				uint64_t span = radix_capacity(h - 1);

				i = (i / span + 1) * span - 1;
			}
		} else if (want) {
			return limit;
		}
	}
	return limit;
}

/* ---------------------------------------------------------------------------------
 * Data in a host memory file (UVFS_MEMFD)
 *
 * A runner that installs uvfs's files in a real process's table (uvfs-run) needs the
 * kernel to map, execute and lock what uvfs reads and writes: gVisor's tmpfs keeps
 * its data in host memory files for the same reason.  memfs moves a regular file's
 * data into a memfd when uvfs_memfd() first asks, and back into its page tree when
 * the last open file that asked is released -- a memfd per file for as long as the
 * program has the file open, so that a tar of 100,000 files holds as many memfds as
 * it holds descriptors, not one per file (the process's RLIMIT_NOFILE bounds both).
 *
 * The memfd is the data, byte for byte and page for page: shmem counts its pages as
 * memfs counts its own, and SEEK_DATA/SEEK_HOLE on it are tmpfs's.  npages stays the
 * pages charged to the superblock, recounted from the memfd's st_blocks after every
 * change uvfs makes; stores through a program's shared mapping into a hole allocate
 * pages uvfs learns of only then, and may pass max_bytes where Linux's tmpfs would
 * give SIGBUS at the fault (a deliberate difference: the fault is the kernel's,
 * docs/SEMANTICS.md §3; tests/test_memfd.c, test_mapping_fills_hole).  i_size stays uvfs's: every call that changes a memfd's size is
 * uvfs's (a mapping cannot), and uvfs makes the same change to the memfd.
 */
#define RADIX_ALL (MEMFS_LAST_PAGE_ + 1)  /* every page index a file can have */
#define MEMFS_LAST_PAGE_ ((uint64_t)INT64_MAX >> UVFS_PAGE_SHIFT)
#define HEIGHT_MEMFD UINT32_MAX
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010u  /* Linux 6.3; Debian 12's headers are 6.1's */
#define MFD_NOEXEC_SEAL 0x0008u
#endif

struct memfs_memfd {
	int fd;             /* memfd_create(MFD_CLOEXEC | MFD_ALLOW_SEALING), O_RDWR */
	unsigned int users; /* open files that were handed it (their private_data) */
	unsigned int cap;   /* room in files */
	dev_t kdev;         /* the kernel's device and inode of the memfd: what */
	ino_t kino;         /* /proc/PID/maps shows of a mapping of it; immutable */
	/* those files, the oldest first (each release takes its own out): the first
	 * names a mapping of the memfd in maps (uvfs_memfd_name), as the kernel names
	 * one after the file it was made from.  Not references: nothing of uvfs's is
	 * kept alive for a name */
	const struct file **files;
	/* the superblock's list of memfds (memfs_sb.memfds) */
	struct memfs_memfd *next, **pprev;
};

static inline struct memfs_memfd *memfd_of(const struct memfs_inode *mi)
{
	return mi->height == HEIGHT_MEMFD ? mi->root : NULL;
}

/* The memfd's pages now: shmem keeps st_blocks at 8 per page allocated */
static int memfd_pages(int fd, uint64_t *pages)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	*pages = (uint64_t)st.st_blocks / (UVFS_PAGE_SIZE / 512);
	return 0;
}

/* Charge the superblock for what the memfd holds now (uvfs's changes, and pages a
 * shared mapping filled in since the last look). */
static void memfd_recount(struct super_block *sb, struct memfs_inode *mi)
{
	uint64_t pages = 0;

	if (memfd_pages(memfd_of(mi)->fd, &pages))
		return;
	MSB(sb)->used_pages += pages - mi->npages;
	mi->npages = (uint32_t)pages;
}

/* cachestat(2), Linux 6.5 (x86-64's number; Debian 12's headers predate it) */
#define SYS_cachestat_ 451
struct cachestat_range_ {
	uint64_t off, len;
};
struct cachestat_ {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* Pages of [off, off + len) a shmem file has -- in the page cache, or swapped out --
 * or -1 where cachestat() cannot say (before 6.5) */
static int64_t pages_present(int fd, uint64_t off, uint64_t len)
{
	struct cachestat_range_ r = { off, len };
	struct cachestat_ cs;

	if (syscall(SYS_cachestat_, fd, &r, &cs, 0))
		return -1;
	return (int64_t)(cs.nr_cache + cs.nr_evicted);
}

/*
 * Pages of [h, d) -- page-aligned, a hole to SEEK_DATA -- that have no page at all:
 * a page fallocate() made and nothing wrote reads as a hole but is allocated
 * (shmem_fallocate() leaves its folio !uptodate, which SEEK_DATA, and mincore(),
 * skip; cachestat() counts every folio of the page cache).  A missing page found when
 * budget pages have already been counted ends the count: *cut is its offset (else
 * d).  Where cachestat() cannot say, every page counts as missing (a write cut short,
 * never one beyond the limit).
 */
static uint64_t hole_missing(int fd, uint64_t h, uint64_t d, uint64_t budget, uint64_t *cut)
{
	int64_t have = pages_present(fd, h, d - h);
	uint64_t pages = (d - h) >> UVFS_PAGE_SHIFT, n = 0;

	*cut = d;
	if (have >= 0 && pages - (uint64_t)have <= budget)
		return pages - (uint64_t)have;
	/* more missing than the budget: which page is the first one too many */
	for (uint64_t at = h; at < d; at += UVFS_PAGE_SIZE) {
		if (have >= 0 && pages_present(fd, at, UVFS_PAGE_SIZE) > 0)
			continue;
		if (n == budget) {
			*cut = at;
			return n;
		}
		n++;
	}
	return n;
}

/*
 * Pages of [first, end) a memfd lacks: its holes (SEEK_HOLE, SEEK_DATA) but for the
 * pages fallocate made there (hole_missing).  The end of the file counts as a hole,
 * and the page it is in is not one.  With a budget, the count stops at the first
 * missing page beyond it: *cut is its offset (else end's).
 */
static uint64_t memfd_missing(int fd, uint64_t first, uint64_t end, uint64_t budget, uint64_t *cut)
{
	uint64_t at = first << UVFS_PAGE_SHIFT, stop = end << UVFS_PAGE_SHIFT, n = 0;

	*cut = stop;
	while (at < stop) {
		off_t hole = lseek(fd, (off_t)at, SEEK_HOLE), data;
		/* ENXIO: at is beyond the end, a hole to the end */
		uint64_t h = hole < 0 ? at : ((uint64_t)hole + UVFS_PAGE_SIZE - 1) &
					       ~(uint64_t)(UVFS_PAGE_SIZE - 1), d, c;

		if (h >= stop)
			break;
		data = lseek(fd, (off_t)h, SEEK_DATA);
		d = data < 0 || (uint64_t)data > stop ? stop : (uint64_t)data;
		n += hole_missing(fd, h, d, budget - n, &c);
		if (c < d) {
			*cut = c;
			break;
		}
		at = d;
	}
	return n;
}

/*
 * The bytes of a write at [pos, pos + count) that fit the size limit: shmem allocates
 * page by page and stops at the first page the limit refuses (shmem_inode_acct_blocks
 * in shmem_get_folio), so a write is cut at the hole that would be one page too many.
 * Holes are found as the kernel reports them (SEEK_HOLE, SEEK_DATA); without a limit,
 * or with room for every page of the range, nothing is asked.
 */
static size_t memfd_fit(struct super_block *sb, int fd, uint64_t pos, size_t count)
{
	struct memfs_sb *s = MSB(sb);
	uint64_t first = pos >> UVFS_PAGE_SHIFT, end = (pos + count + UVFS_PAGE_SIZE - 1) >> UVFS_PAGE_SHIFT;
	uint64_t room = s->used_pages < s->max_pages ? s->max_pages - s->used_pages : 0, cut;

	if (!s->max_pages || end - first <= room)
		return count;
	memfd_missing(fd, first, end, room, &cut);
	if (cut >= end << UVFS_PAGE_SHIFT)
		return count;
	return cut > pos ? (size_t)(cut - pos) : 0;
}

/* Move the data into a new memfd.  Allocate, fill, then switch: on any error the
 * page tree is as it was. */
static struct memfs_memfd *memfd_attach(struct inode *inode)
{
	struct memfs_inode *mi = MI(inode);
	/* every page, those fallocate(FALLOC_FL_KEEP_SIZE) made beyond the end too */
	uint64_t limit = RADIX_ALL;
	struct memfs_memfd *mm = uvfs_zalloc(sizeof(*mm));
	int err = -ENOMEM;

	if (!mm)
		return ERR_PTR(-ENOMEM);
	/* executable, whatever vm.memfd_noexec asks of memfds made without saying
	 * (Linux 6.3+; EINVAL before, where every memfd is); where vm.memfd_noexec is
	 * 2 an executable one is refused (EACCES): one that is not, so that the file
	 * opens, maps and locks, and only its exec fails */
	mm->fd = memfd_create("uvfs", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_EXEC);
	if (mm->fd < 0 && errno == EINVAL)
		mm->fd = memfd_create("uvfs", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	else if (mm->fd < 0 && errno == EACCES)
		mm->fd = memfd_create("uvfs", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
	if (mm->fd < 0 || ftruncate(mm->fd, inode->i_size))
		goto fail_errno;
	for (uint64_t i = radix_find(mi, 0, limit, true); i < limit;
	     i = radix_find(mi, i + 1, limit, true)) {
		uint64_t off = i << UVFS_PAGE_SHIFT;
		size_t n = (uint64_t)inode->i_size - off < UVFS_PAGE_SIZE ?
			   (size_t)((uint64_t)inode->i_size - off) : UVFS_PAGE_SIZE;
		ssize_t done;

		if (off >= (uint64_t)inode->i_size) {
			/* beyond the end: allocated, not written, the size kept */
			if (fallocate(mm->fd, 1 /* FALLOC_FL_KEEP_SIZE */, (off_t)off, UVFS_PAGE_SIZE))
				goto fail_errno;
			continue;
		}
		done = pwrite(mm->fd, radix_lookup(mi, i), n, (off_t)off);

		if (done < 0)
			goto fail_errno;
		if (done != (ssize_t)n)
			goto fail;  /* short: the host's memory ran out */
	}
	{
		struct stat st;

		if (fstat(mm->fd, &st))
			goto fail_errno;
		mm->kdev = st.st_dev;
		mm->kino = st.st_ino;
	}
	/* the pages move: uncharged from the tree, charged as the memfd's */
	radix_truncate(inode->i_sb, mi, 0);
	mi->root = mm;
	mi->height = HEIGHT_MEMFD;
	memfd_recount(inode->i_sb, mi);
	mm->next = MSB(inode->i_sb)->memfds;
	if (mm->next)
		mm->next->pprev = &mm->next;
	mm->pprev = &MSB(inode->i_sb)->memfds;
	MSB(inode->i_sb)->memfds = mm;
	return mm;

fail_errno:
	err = errno == ENOSPC ? -ENOMEM : -errno;  /* shmem's ENOSPC: the host's memory */
fail:
	if (mm->fd >= 0)
		close(mm->fd);
	free(mm);
	return ERR_PTR(err);
}

/*
 * Back into the page tree, once no open file that asked for the memfd is left.  Not
 * while the kernel maps it shared and writable (a program's mapping outlives its
 * descriptor): the write seal is refused then (EBUSY, memfd_wait_for_pins), and the
 * memfd stays until another release finds it unmapped, or the inode goes; so it does
 * while it has pages the copy cannot see (fallocate's).  The seal
 * comes after the copy, so a failed copy leaves the memfd writable and in use.
 */
static void memfd_unlist(struct memfs_memfd *mm)
{
	*mm->pprev = mm->next;
	if (mm->next)
		mm->next->pprev = mm->pprev;
}

static void memfd_detach(struct inode *inode)
{
	struct memfs_inode *mi = MI(inode), tree = { .root = NULL };
	struct super_block *sb = inode->i_sb;
	struct memfs_memfd *mm = memfd_of(mi);
	uint64_t size = (uint64_t)inode->i_size, charged = mi->npages, pages = 0;

	/* the tree's pages are charged as they are made: the memfd's are not, meanwhile */
	MSB(sb)->used_pages -= charged;
	for (uint64_t at = 0; at < size;) {
		off_t data = lseek(mm->fd, (off_t)at, SEEK_DATA), hole;

		if (data < 0 || (uint64_t)data >= size)
			break;
		hole = lseek(mm->fd, data, SEEK_HOLE);
		if (hole < 0)
			goto undo;
		for (at = (uint64_t)data; at < (uint64_t)hole && at < size; at += UVFS_PAGE_SIZE) {
			void **slot = radix_slot(&tree, at >> UVFS_PAGE_SHIFT);
			void *page = slot ? alloc_page(sb) : ERR_PTR(-ENOMEM);

			if (IS_ERR(page))
				goto undo;
			*slot = page;
			tree.npages++;
			if (pread(mm->fd, page, UVFS_PAGE_SIZE, (off_t)at) < 0)
				goto undo;
		}
	}
	/* pages SEEK_DATA does not show -- fallocate's, not yet written (shmem counts
	 * them and calls them holes), or beyond the end (FALLOC_FL_KEEP_SIZE) -- cannot
	 * be placed in the tree: such a file keeps its memfd */
	if (memfd_pages(mm->fd, &pages) || pages != tree.npages)
		goto undo;
	if (fcntl(mm->fd, F_ADD_SEALS, F_SEAL_WRITE))
		goto undo;
	memfd_unlist(mm);
	close(mm->fd);
	free(mm->files);
	free(mm);
	mi->root = tree.root;
	mi->height = tree.height;
	mi->npages = tree.npages;
	return;

undo:
	radix_truncate(sb, &tree, 0);
	MSB(sb)->used_pages += charged;
}

/* The name of mm once its last open file (of dentry d) is closed (above) */
static void memfd_name_keep(struct super_block *sb, dev_t kdev, ino_t kino, struct dentry *d)
{
	struct memfs_sb *s = MSB(sb);
	struct memfd_name *n;

	if (!s->names && !(s->names = uvfs_zalloc(MEMFD_NAMES * sizeof(*s->names))))
		return;  /* nameless: maps says /memfd:uvfs */
	n = &s->names[s->names_next];
	s->names_next = (s->names_next + 1) % MEMFD_NAMES;
	n->kdev = kdev;
	n->kino = kino;
	n->dentry = d;
	d_flags_set(d, DCACHE_FS_MARK);
}

/* ->d_release: a dentry a kept name points at is going: the name goes */
static void memfs_d_release(struct dentry *d)
{
	struct memfs_sb *s;

	/* (negative by now, when its unlink left it to its last dput: SB_ALWAYS_DELETE
	 * kills it at once, so it is never found negative by a name) */
	if (!(d->d_flags & DCACHE_FS_MARK))
		return;
	s = MSB(d_sb(d));
	for (unsigned int i = 0; s->names && i < MEMFD_NAMES; i++)
		if (s->names[i].dentry == d)
			s->names[i].dentry = NULL;
}

/* ->memfd: the file's memfd, made at the first call; f keeps it until released */
static int memfs_file_memfd(struct file *f)
{
	struct memfs_inode *mi = MI(f->f_inode);
	struct memfs_memfd *mm = memfd_of(mi);

	if (!mm) {
		mm = memfd_attach(f->f_inode);
		if (IS_ERR(mm))
			return (int)PTR_ERR(mm);
	}
	/* an O_PATH file (an exec's) keeps it too: fput releases an O_PATH file that
	 * holds something (file.c), so the memfd stays until the runner has reopened
	 * it and closed the file -- not closed by another release in between, its
	 * number taken by another file */
	if (!f->private_data) {
		if (mm->users == mm->cap) {
			unsigned int cap = mm->cap ? 2 * mm->cap : 4;
			const struct file **nf = uvfs_realloc(mm->files, cap * sizeof(*nf));

			if (!nf) {
				if (!mm->users)
					memfd_detach(f->f_inode);  /* as it was */
				return -ENOMEM;
			}
			mm->files = nf;
			mm->cap = cap;
		}
		f->private_data = mm;
		mm->files[mm->users++] = f;
	}
	return mm->fd;
}

static void memfs_file_release(struct inode *inode, struct file *f)
{
	struct memfs_memfd *mm = f->private_data;

	if (!mm)
		return;
	for (unsigned int i = 0; i < mm->users; i++)
		if (mm->files[i] == f) {
			memmove(&mm->files[i], &mm->files[i + 1],
				(mm->users - i - 1) * sizeof(mm->files[0]));
			break;
		}
	if (!--mm->users) {
		dev_t kdev = mm->kdev;
		ino_t kino = mm->kino;

		memfd_detach(inode);  /* (mm may be gone) */
		memfd_name_keep(inode->i_sb, kdev, kino, f->f_path.dentry);
	}
}

/* ->memfd_path: the name of the file whose memfd is (kdev, kino): its oldest open
 * file's, or the one kept when the last was closed */
static bool memfs_memfd_path(struct super_block *sb, dev_t kdev, ino_t kino, struct path *out)
{
	struct memfs_sb *s = MSB(sb);

	for (struct memfs_memfd *mm = s->memfds; mm; mm = mm->next)
		if (mm->kino == kino && mm->kdev == kdev && mm->users) {
			*out = mm->files[0]->f_path;
			return true;
		}
	/* the newest first: a dentry's latest memfd */
	for (unsigned int i = 0; s->names && i < MEMFD_NAMES; i++) {
		const struct memfd_name *n = &s->names[(s->names_next + MEMFD_NAMES - 1 - i) %
						       MEMFD_NAMES];

		if (n->dentry && n->kino == kino && n->kdev == kdev) {
			out->mnt = NULL;
			out->dentry = n->dentry;
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------------------------
 * Inodes
 */

/* The next inode's generation: tmpfs draws get_random_u32(); a splitmix64 sequence
 * from a random start is as unpredictable to a program and costs no system call a
 * file (a handle needs CAP_DAC_READ_SEARCH to be opened anyway) */
static uint32_t next_generation(struct memfs_sb *s)
{
	uint64_t z = (s->gen_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)(z ^ (z >> 31));
}

static inline struct inode *memfs_get_inode(struct super_block *sb, struct inode *dir, mode_t mode,
					    dev_t rdev, uid_t uid, gid_t gid)
{
	struct inode *inode;

	if (reserve_inode(sb))
		return ERR_PTR(-ENOSPC);
	inode = new_inode(sb, mode);
	if (!inode)
		goto enomem;
	inode->i_uid = uid;
	inode->i_gid = gid;
	/* Set-group-ID directories pass their group on (inode_init_owner). */
	if (dir && (dir->i_mode & S_ISGID)) {
		inode->i_gid = dir->i_gid;
		if (S_ISDIR(mode))
			inode->i_mode |= S_ISGID;
	}
	inode->i_nlink = 1;
	if (!S_ISCHR(mode) && !S_ISBLK(mode))
		inode->i_generation = next_generation(MSB(sb));
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &memfs_file_iops;
		break;
	case S_IFDIR:
		inode->i_op = &memfs_dir_iops;
		inode->i_nlink = 2;
		inode->i_size = 2 * BOGO_DIRENT_SIZE;
		MI(inode)->offsets = NULL;
		MI(inode)->next_offset = DIR_OFFSET_MIN;
		break;
	case S_IFLNK:
		inode->i_op = &memfs_link_iops;
		break;
	case S_IFIFO:
		inode->i_op = &memfs_fifo_iops;
		break;
	case S_IFSOCK:
		inode->i_op = &memfs_sock_iops;
		MI(inode)->sock_fd1 = 0;
		break;
	default:
		inode->i_op = &memfs_special_iops;
		inode->i_rdev = (uint32_t)rdev;
		break;
	}
	return inode;
enomem:
	free_inode_slot(sb);
	return ERR_PTR(-ENOMEM);
}

/* The data goes now; the memfs_inode and a symlink's body, which a lockless stat or
 * walk may still read, in memfs_free_inode after the grace period. */
static void memfs_evict_inode(struct inode *inode)
{
	if (S_ISDIR(inode->i_mode)) {
		/* read by readdir only, under ns_lock: no grace period needed */
		simple_offset_destroy(MI(inode)->offsets);
		MI(inode)->offsets = NULL;
	}
	if (S_ISREG(inode->i_mode) && memfd_of(MI(inode))) {
		struct memfs_memfd *mm = memfd_of(MI(inode));

		MSB(inode->i_sb)->used_pages -= MI(inode)->npages;
		memfd_unlist(mm);
		close(mm->fd);
		free(mm->files);
		free(mm);
		MI(inode)->root = NULL;
		MI(inode)->height = 0;
		MI(inode)->npages = 0;
	} else if (S_ISREG(inode->i_mode)) {
		radix_truncate(inode->i_sb, MI(inode), 0);
	}
	if (S_ISLNK(inode->i_mode) && inode->i_link && strlen(inode->i_link) >= SHORT_SYMLINK_LEN)
		MSB(inode->i_sb)->used_pages--;
	/* shmem_evict_inode(): the attributes' space comes back with the inode's */
	free_ispace(inode->i_sb, simple_xattrs_free(&MSB(inode->i_sb)->xattrs, inode));
	free_inode_slot(inode->i_sb);
}

static void memfs_free_inode(struct inode *inode)
{
	if (S_ISLNK(inode->i_mode))
		free(inode->i_link);
	if (S_ISSOCK(inode->i_mode) && MI(inode)->sock_fd1)
		close(MI(inode)->sock_fd1 - 1);
}

/* ->blocks: also for the lockless stat (inode_fillattr), which checks ns_seq after */
lockless_read
static blkcnt_t memfs_blocks(const struct inode *inode)
{
	uint64_t pages = S_ISREG(inode->i_mode) ? MI(inode)->npages : 0;

	if (S_ISLNK(inode->i_mode) && inode->i_link && strlen(inode->i_link) >= SHORT_SYMLINK_LEN)
		pages++;
	return (blkcnt_t)(pages * (UVFS_PAGE_SIZE / 512));
}

static void memfs_put_super(struct super_block *sb)
{
	/* a stand-in goes with the last open file of its directory, which held the
	 * superblock */
	simple_xattr_table_destroy(&MSB(sb)->xattrs);
	free(MSB(sb)->names);
	free(sb->s_fs_info);
}

/* shmem_statfs(): limits where there are limits, zero where there are none */
static void memfs_statfs(const struct dentry *d, struct statfs *buf)
{
	const struct super_block *sb = d_sb(d);

	const struct memfs_sb *s = MSB(sb);

	buf->f_type = 0x01021994;  /* TMPFS_MAGIC */
	buf->f_bsize = UVFS_PAGE_SIZE;
	buf->f_namelen = 255;
	if (s->max_pages) {
		buf->f_blocks = s->max_pages;
		/* pages a shared mapping filled in may have passed the limit (the
		 * "Data in a host memory file" section): none free then, not a wrap */
		buf->f_bfree = buf->f_bavail = s->used_pages < s->max_pages ?
					       s->max_pages - s->used_pages : 0;
	}
	if (s->max_inodes) {
		buf->f_files = s->max_inodes;
		buf->f_ffree = s->free_ispace / BOGO_INODE_SIZE;
	}
}

/* shmem_show_options(): what differs from the defaults (Linux's for a mount(2), none
 * for uvfs_new's root), in the kernel's order; inode32/inode64 only when asked for
 * (this kernel is built without CONFIG_TMPFS_INODE64) */
static void memfs_show_options(FILE *m, const struct super_block *sb)
{
	const struct memfs_sb *s = MSB(sb);
	const struct fs_mount_opts *o = &s->shown;
	bool lx = o->seen & FS_OPT_LINUX_DEFAULTS;
	uint64_t def = linux_default_limit();

	if (lx ? s->max_pages != def : s->max_pages != 0 || (o->seen & FS_OPT_SIZE))
		fprintf(m, ",size=%lluk", (unsigned long long)s->max_pages * (UVFS_PAGE_SIZE / 1024));
	if (lx ? s->max_inodes != def : s->max_inodes != 0 || (o->seen & FS_OPT_INODES))
		fprintf(m, ",nr_inodes=%llu", (unsigned long long)s->max_inodes);
	if ((o->seen & FS_OPT_MODE) && o->root_mode != 01777)
		fprintf(m, ",mode=%03o", (unsigned int)o->root_mode);
	if (o->root_uid)
		fprintf(m, ",uid=%u", (unsigned int)o->root_uid);
	if (o->root_gid)
		fprintf(m, ",gid=%u", (unsigned int)o->root_gid);
	if (o->seen & FS_OPT_INODE64)
		fputs(",inode64", m);
	if ((o->seen & FS_OPT_HUGE) && o->huge[0])
		fprintf(m, ",huge=%s", o->huge);
	if (o->seen & FS_OPT_MPOL)
		fputs(",mpol=local", m);
	if (s->noswap)
		fputs(",noswap", m);
}

/* shmem_getattr(): the attributes tmpfs can hold (FS_IOC_SETFLAGS's immutable,
 * append, nodump) and which are on, and no birth time (tmpfs's i_crtime: a
 * deliberate difference, for 12 bytes an inode) */
static void memfs_statx(struct inode *inode, unsigned int mask, struct statx *sx)
{
	uint8_t fl = READ_ONCE(inode->i_flags);

	(void)mask;
	if (fl & INODE_APPEND)
		sx->stx_attributes |= STATX_ATTR_APPEND;
	if (fl & INODE_IMMUTABLE)
		sx->stx_attributes |= STATX_ATTR_IMMUTABLE;
	if (fl & INODE_NODUMP)
		sx->stx_attributes |= STATX_ATTR_NODUMP;
	sx->stx_attributes_mask |= STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND | STATX_ATTR_NODUMP;
}

static const struct super_operations memfs_sops = {
	.inode_size = sizeof(struct memfs_inode),
	.statx = memfs_statx,
	.mgtime = true,  /* tmpfs is FS_MGTIME */
	.export_fh = true,
	.evict_inode = memfs_evict_inode,
	.free_inode = memfs_free_inode,
	.put_super = memfs_put_super,
	.memfd_path = memfs_memfd_path,
	.d_release = memfs_d_release,
	.blocks = memfs_blocks,
	.statfs = memfs_statfs,
	.show_options = memfs_show_options,
};

static int memfs_fill_super(struct super_block *sb, const struct fs_mount_opts *opts)
{
	struct memfs_sb *s = uvfs_zalloc(sizeof(*s));
	uint64_t max_bytes = opts->max_bytes;
	struct inode *root;

	if (!s)
		return -ENOMEM;
	/* (without entropy yet, early at boot: the clock and the address, which only
	 * makes handles easier to guess) */
	if (getrandom(&s->gen_state, sizeof(s->gen_state), GRND_NONBLOCK) != sizeof(s->gen_state))
		s->gen_state = (uint64_t)coarse_time(sb->s_fs).tv_nsec ^ (uintptr_t)s;
	s->max_inodes = opts->max_inodes;
	s->noswap = opts->seen & FS_OPT_NOSWAP;
	s->max_pages = (max_bytes + UVFS_PAGE_SIZE - 1) / UVFS_PAGE_SIZE;
	if (max_bytes && !s->max_pages)
		s->max_pages = 1;
	if (opts->seen & FS_OPT_LINUX_DEFAULTS) {
		if (!(opts->seen & FS_OPT_SIZE))
			s->max_pages = linux_default_limit();
		if (!(opts->seen & FS_OPT_INODES))
			s->max_inodes = linux_default_limit();
	}
	s->free_ispace = s->max_inodes * BOGO_INODE_SIZE;
	s->shown = *opts;
	sb->s_fs_info = s;
	sb->s_op = &memfs_sops;
	sb->s_flags = SB_ALWAYS_DELETE | SB_RCU_WALK;
	/* A fresh tmpfs root is 1777, owned by the mounter (shmem_init_fs_context()),
	 * unless mode=, uid=, gid= say otherwise. */
	root = memfs_get_inode(sb, NULL, S_IFDIR | (opts->seen & FS_OPT_MODE ? opts->root_mode :
							  01777),
			       0, opts->root_uid, opts->root_gid);
	if (IS_ERR(root))
		return (int)PTR_ERR(root);
	sb->s_root = d_alloc_root(sb, root);
	if (!sb->s_root) {
		clear_nlink(root);
		iput(root);
		return -ENOMEM;
	}
	return 0;
}

/* memparse(): a number (base 0) with an optional k/m/g/t/p/e suffix (powers of 1024);
 * *rest where it stopped.  false when there is no number at all. */
static bool memparse(const char *s, uint64_t *v, const char **rest)
{
	static const char suffixes[] = "kmgtpe";
	char *end;
	const char *p;

	if (*s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (end == s)
		return false;
	p = strchr(suffixes, tolower((unsigned char)*end));
	if (*end && p) {
		*v <<= 10 * (p - suffixes + 1);
		end++;
	}
	*rest = end;
	return true;
}

/* kstrtouint(s, base): the whole string one unsigned 32-bit number */
static bool parse_u32(const char *s, int base, uint32_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	x = strtoull(s, &end, base);
	if (*end == '\n')
		end++;
	if (*end || errno || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/*
 * shmem_parse_one(): tmpfs's options.  size= (bytes, k/m/g... suffixes, or a
 * percentage of the machine's memory), nr_blocks=, nr_inodes=, mode= (octal),
 * uid=, gid=; huge=, mpol=default|local, inode32, inode64 and noswap are accepted
 * and change nothing uvfs shows.  -ENOPARAM for anything else.
 */
static int memfs_parse_param(struct fs_mount_opts *opts, const char *key, const char *value)
{
	const char *rest;
	uint64_t v;
	uint32_t u;

	if (!strcmp(key, "size") || !strcmp(key, "nr_blocks")) {
		if (!value || !memparse(value, &v, &rest))
			return -EINVAL;
		if (key[0] == 'n') {
			if (*rest || v > UINT64_MAX / UVFS_PAGE_SIZE)
				return -EINVAL;
			v *= UVFS_PAGE_SIZE;
		} else if (*rest == '%') {
			/* a share of the machine's memory, as shmem asks totalram_pages() */
			long pages = sysconf(_SC_PHYS_PAGES);

			if (rest[1] || pages <= 0 || v > UINT64_MAX / 4096 / (uint64_t)pages)
				return -EINVAL;
			v = v * (uint64_t)pages * 4096 / 100;
		} else if (*rest) {
			return -EINVAL;
		}
		/* DIV_ROUND_UP to pages; 0 is unlimited */
		opts->max_bytes = (v + UVFS_PAGE_SIZE - 1) / UVFS_PAGE_SIZE * UVFS_PAGE_SIZE;
		opts->seen |= FS_OPT_SIZE;
	} else if (!strcmp(key, "nr_inodes")) {
		if (!value || !memparse(value, &v, &rest) || *rest || v > UINT64_MAX / 1024)
			return -EINVAL;
		opts->max_inodes = v;
		opts->seen |= FS_OPT_INODES;
	} else if (!strcmp(key, "mode")) {
		if (!parse_u32(value, 8, &u))
			return -EINVAL;
		opts->root_mode = u & 07777;
		opts->seen |= FS_OPT_MODE;
	} else if (!strcmp(key, "uid") || !strcmp(key, "gid")) {
		/* fs_param_is_uid(): base 0; (uid_t)-1 is no valid id */
		if (!parse_u32(value, 0, &u) || u == UINT32_MAX)
			return -EINVAL;
		if (key[0] == 'u') {
			opts->root_uid = u;
			opts->seen |= FS_OPT_UID;
		} else {
			opts->root_gid = u;
			opts->seen |= FS_OPT_GID;
		}
	} else if (!strcmp(key, "huge")) {
		if (!value || (strcmp(value, "never") && strcmp(value, "always") &&
			       strcmp(value, "within_size") && strcmp(value, "advise")))
			return -EINVAL;
		opts->seen |= FS_OPT_HUGE;
		snprintf(opts->huge, sizeof(opts->huge), "%s", strcmp(value, "never") ? value : "");
	} else if (!strcmp(key, "mpol")) {
		/* a deliberate narrowing: node lists are not modelled */
		if (!value || (strcmp(value, "default") && strcmp(value, "local")))
			return -EINVAL;
		opts->seen = value[0] == 'l' ? opts->seen | FS_OPT_MPOL : opts->seen & ~FS_OPT_MPOL;
		opts->seen |= FS_OPT_MPOL_SET;
	} else if (!strcmp(key, "inode32") || !strcmp(key, "inode64") || !strcmp(key, "noswap")) {
		if (value)
			return -EINVAL;  /* a flag given a value */
		if (key[0] == 'n')
			opts->seen |= FS_OPT_NOSWAP;
		else
			opts->seen = (key[5] == '6' ? opts->seen | FS_OPT_INODE64 :
						      opts->seen & ~FS_OPT_INODE64) | FS_OPT_INUMS;
	} else {
		return -ENOPARAM;
	}
	return 0;
}

/* shmem_reconfigure(): new limits, never below what is in use, and only where there
 * were limits; the root's mode and owner are a mount's alone.  All or nothing. */
static int memfs_reconfigure(struct super_block *sb, const struct fs_mount_opts *opts)
{
	struct memfs_sb *s = MSB(sb);
	uint64_t pages = (opts->max_bytes + UVFS_PAGE_SIZE - 1) / UVFS_PAGE_SIZE;

	if ((opts->seen & FS_OPT_SIZE) && pages) {
		if (!s->max_pages || s->used_pages > pages)
			return -EINVAL;  /* "Cannot retroactively limit size", "Too small" */
	}
	if ((opts->seen & FS_OPT_INODES) && opts->max_inodes) {
		if (!s->max_inodes ||
		    s->max_inodes - s->free_ispace / BOGO_INODE_SIZE > opts->max_inodes)
			return -EINVAL;  /* "Too few inodes for current use" */
	}
	/* "Cannot disable swap on remount"; a remount that does not repeat noswap keeps
	 * it (tests/diff/mount-statfs.sys asks the kernel) */
	if ((opts->seen & FS_OPT_NOSWAP) && !s->noswap)
		return -EINVAL;
	if (opts->seen & FS_OPT_SIZE)
		s->max_pages = pages;
	/* what was given changes; mode, uid and gid are the first mount's */
	if (opts->seen & FS_OPT_HUGE) {
		strcpy(s->shown.huge, opts->huge);
		s->shown.seen |= FS_OPT_HUGE;
	}
	if (opts->seen & FS_OPT_MPOL_SET)
		s->shown.seen = (s->shown.seen & ~FS_OPT_MPOL) | (opts->seen & FS_OPT_MPOL);
	if (opts->seen & FS_OPT_INUMS)
		s->shown.seen = (s->shown.seen & ~FS_OPT_INODE64) | (opts->seen & FS_OPT_INODE64);
	if (opts->seen & FS_OPT_INODES) {
		uint64_t used = s->max_inodes ? s->max_inodes * BOGO_INODE_SIZE - s->free_ispace : 0;

		s->max_inodes = opts->max_inodes;
		s->free_ispace = opts->max_inodes ? opts->max_inodes * BOGO_INODE_SIZE - used : 0;
	}
	return 0;
}

/* "tmpfs", and "memfs" for what it is; the same filesystem under both names. */
const struct file_system_type memfs_fs_type = {
	.name = "tmpfs", .fill_super = memfs_fill_super, .parse_param = memfs_parse_param,
	.reconfigure = memfs_reconfigure,
};
const struct file_system_type memfs_alias_fs_type = {
	.name = "memfs", .fill_super = memfs_fill_super, .parse_param = memfs_parse_param,
	.reconfigure = memfs_reconfigure,
};

/* ---------------------------------------------------------------------------------
 * Directory operations (shmem_* and simple_* in the kernel)
 */

static int memfs_lookup(struct inode *dir, struct dentry *dentry)
{
	(void)dir;
	/* simple_lookup(): every name that exists is already in the dcache. */
	if (dentry->d_name.len > NAME_MAX)
		return -ENAMETOOLONG;
	d_add(dentry, NULL);
	return 0;
}

static int memfs_lookup_noent(struct inode *dir, const struct qstr *name)
{
	(void)dir;
	return name->len > NAME_MAX ? -ENAMETOOLONG : -ENOENT;
}

/* Slots of an offset map visited, for uvfs_cache_stats.dir_steps. */
static inline void count_steps(const struct inode *inode, unsigned long steps)
{
	if (steps)
		STAT_ADD(inode->i_sb->s_fs->stats.dir_steps, steps);
}

/* Room in dir's offset map for n new entries: before anything changes, so that
 * adding them cannot fail (the kernel's simple_offset_add can; uvfs allocates first). */
static int memfs_reserve_offsets(struct inode *dir, unsigned int n)
{
	unsigned long steps = 0;
	int err = simple_offset_reserve(&MI(dir)->offsets, n, &steps);

	count_steps(dir, steps);
	return err;
}

/* The new entry is in: the dir grows by one bogus dirent, the dentry is pinned.  The
 * caller stamps dir (shmem_mknod and shmem_link take the time from different
 * inodes), and reserved the offset slot. */
static inline void memfs_link_entry(struct inode *dir, struct dentry *dentry, struct inode *inode)
{
	unsigned long steps = 0;

	dentry->d_offset = MI(dir)->next_offset++; /* simple_offset_add() */
	simple_offset_add(MI(dir)->offsets, dentry, &steps);
	count_steps(dir, steps);
	dir->i_size += BOGO_DIRENT_SIZE;
	d_instantiate(dentry, inode);
	d_make_persistent(dentry);  /* shmem_mknod: "Extra count - pin the dentry in core" */
}

static int memfs_mknod(struct inode *dir, struct dentry *dentry, mode_t mode, dev_t rdev,
		       uid_t uid, gid_t gid)
{
	struct inode *inode;
	int err = memfs_reserve_offsets(dir, 1);

	if (err)
		return err;
	inode = memfs_get_inode(dir->i_sb, dir, mode, rdev, uid, gid);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	memfs_link_entry(dir, dentry, inode);
	inode_set_mctime_current(dir);
	return 0;
}

/* uvfs_unix_bind(): everything that can fail first, the embedder's kernel socket
 * last, so that its failure leaves nothing made, and a made socket always gets its
 * name (the socket's O_PATH descriptor is the inode's from then on) */
static int memfs_mksock(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			gid_t gid, int (*bind)(void *arg, int host_dirfd, const char *name),
			void *arg)
{
	struct inode *inode;
	int err = memfs_reserve_offsets(dir, 1), fd;

	if (err)
		return err;
	inode = memfs_get_inode(dir->i_sb, dir, mode, 0, uid, gid);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	fd = bind ? bind(arg, -1, (const char *)dentry->d_name.name) : -1;
	if (bind && fd < 0) {
		clear_nlink(inode);
		iput(inode);
		return fd;
	}
	MI(inode)->sock_fd1 = fd + 1;
	memfs_link_entry(dir, dentry, inode);
	inode_set_mctime_current(dir);
	return 0;
}

static int memfs_sock_fd(struct inode *inode)
{
	int fd = MI(inode)->sock_fd1 ? fcntl(MI(inode)->sock_fd1 - 1, F_DUPFD_CLOEXEC, 0) : -1;

	return fd >= 0 ? fd : MI(inode)->sock_fd1 ? -errno : -ECONNREFUSED;
}

static int memfs_mkdir(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
		       gid_t gid)
{
	int err = memfs_mknod(dir, dentry, S_IFDIR | mode, 0, uid, gid);

	if (!err)
		inc_nlink(dir);
	return err;
}

static int memfs_symlink(struct inode *dir, struct dentry *dentry, const char *target,
			 uid_t uid, gid_t gid)
{
	size_t len = strlen(target);
	struct inode *inode;

	/* shmem_symlink: the body and its NUL must fit in a page. */
	if (len + 1 > UVFS_PAGE_SIZE)
		return -ENAMETOOLONG;
	if (memfs_reserve_offsets(dir, 1))
		return -ENOMEM;
	inode = memfs_get_inode(dir->i_sb, dir, S_IFLNK | 0777, 0, uid, gid);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	if (len >= SHORT_SYMLINK_LEN) {
		struct memfs_sb *s = MSB(dir->i_sb);

		if (s->max_pages && s->used_pages >= s->max_pages)
			goto nospc;
		s->used_pages++;
	}
	inode->i_link = uvfs_malloc(len + 1);
	if (!inode->i_link) {
		if (len >= SHORT_SYMLINK_LEN)
			MSB(dir->i_sb)->used_pages--;
		clear_nlink(inode);
		iput(inode);
		return -ENOMEM;
	}
	memcpy(inode->i_link, target, len + 1);
	inode->i_size = (off_t)len;
	memfs_link_entry(dir, dentry, inode);
	inode_set_mctime_current(dir);
	return 0;
nospc:
	clear_nlink(inode);
	iput(inode);
	return -ENOSPC;
}

static int memfs_link(struct dentry *old, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old->d_inode;

	if (memfs_reserve_offsets(dir, 1))
		return -ENOMEM;
	/* shmem_link: each link takes an inode slot, but an O_TMPFILE file's first
	 * link reuses the one it already has. */
	if (inode->i_nlink) {
		int err = reserve_inode(dir->i_sb);

		if (err)
			return err;
	}
	/* shmem_link(): the dir takes the inode's new ctime */
	inode_set_mctime(dir, inode_set_ctime_current(inode));
	inc_nlink(inode);
	igrab(inode);
	memfs_link_entry(dir, dentry, inode);
	return 0;
}

static inline int memfs_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	unsigned long steps = 0;

	if (inode->i_nlink > 1 && !S_ISDIR(inode->i_mode))
		free_inode_slot(dir->i_sb);
	dir->i_size -= BOGO_DIRENT_SIZE;
	simple_offset_remove(MI(dir)->offsets, dentry->d_offset, &steps);
	count_steps(dir, steps);
	/* shmem_unlink(): the dir takes the inode's new ctime */
	inode_set_mctime(dir, inode_set_ctime_current(inode));
	drop_nlink(inode);
	d_delete(dentry);
	d_make_discardable(dentry); /* the pin from creation; the caller still holds one */
	return 0;
}

/* simple_empty(): no positive hashed child. */
static bool memfs_empty(const struct dentry *dentry)
{
	const struct dentry *c;

	cds_hlist_for_each_entry_2(c, &dentry->d_children, d_sib)
		if (!d_unhashed(c) && c->d_inode)
			return false;
	return true;
}

static int memfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!memfs_empty(dentry))
		return -ENOTEMPTY;
	drop_nlink(dentry->d_inode);
	drop_nlink(dir);
	return memfs_unlink(dir, dentry);  /* the VFS marks it dead (vfs_rmdir) */
}

/* shmem_whiteout(): a 0:0 character device under the old name, hashed while the
 * old dentry is still in place (d_move takes that one away afterwards). */
static int memfs_whiteout(struct inode *old_dir, struct dentry *old)
{
	struct dentry *wh = d_alloc(old->d_parent, &old->d_name);
	int err;

	if (!wh)
		return -ENOMEM;
	/* Owned by the caller, as shmem_mknod's inode_init_owner() would do. */
	err = memfs_mknod(old_dir, wh, S_IFCHR, 0, current_uid(old_dir), current_gid(old_dir));
	if (!err)
		d_rehash(wh);
	dput(wh);
	return err;
}

/* simple_rename_timestamp() */
static void rename_timestamps(struct inode *old_dir, struct dentry *old,
			      struct inode *new_dir, struct dentry *new)
{
	/* each inode its own stamp (multigrain: each its own queried bit), from one
	 * reading of the clock */
	struct timespec now = coarse_time(old_dir->i_sb->s_fs);

	inode_set_mctime_at(old_dir, &now);
	if (new_dir != old_dir)
		inode_set_mctime_at(new_dir, &now);
	inode_set_ctime_at(old->d_inode, &now);
	if (new->d_inode)
		inode_set_ctime_at(new->d_inode, &now);
}

static int memfs_rename(struct inode *old_dir, struct dentry *old, struct inode *new_dir,
			struct dentry *new, unsigned int flags)
{
	bool they_are_dirs = S_ISDIR(old->d_inode->i_mode);
	unsigned long steps = 0;
	uint32_t new_offset;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if (flags & RENAME_EXCHANGE) {
		/* simple_rename_exchange() */
		bool new_is_dir = S_ISDIR(new->d_inode->i_mode);

		if (old_dir != new_dir && they_are_dirs != new_is_dir) {
			if (they_are_dirs) {
				drop_nlink(old_dir);
				inc_nlink(new_dir);
			} else {
				drop_nlink(new_dir);
				inc_nlink(old_dir);
			}
		}
		rename_timestamps(old_dir, old, new_dir, new);
		/* simple_offset_rename_exchange(): the two swap offsets */
		simple_offset_exchange(MI(old_dir)->offsets, old, MI(new_dir)->offsets, new,
				       &steps);
		count_steps(old_dir, steps);
		return 0;
	}
	if (new->d_inode && S_ISDIR(new->d_inode->i_mode) && !memfs_empty(new))
		return -ENOTEMPTY;
	err = memfs_reserve_offsets(new_dir, 1 + (flags & RENAME_WHITEOUT && new_dir == old_dir));
	if (!err && flags & RENAME_WHITEOUT && new_dir != old_dir)
		err = memfs_reserve_offsets(old_dir, 1);
	if (err)
		return err;
	/* simple_offset_rename(): a new offset in the new directory — taken before the
	 * whiteout takes its own, as 6.18 numbers them (tests/diff/readdir-offsets.sys);
	 * a failed whiteout leaves it used up, as there. */
	new_offset = MI(new_dir)->next_offset++;
	if (flags & RENAME_WHITEOUT) {
		err = memfs_whiteout(old_dir, old);
		if (err)
			return err;
	}
	simple_offset_remove(MI(old_dir)->offsets, old->d_offset, &steps);
	old->d_offset = new_offset;
	simple_offset_add(MI(new_dir)->offsets, old, &steps);
	count_steps(old_dir, steps);
	if (new->d_inode) {
		struct inode *victim = new->d_inode;

		memfs_unlink(new_dir, new);
		if (they_are_dirs) {
			drop_nlink(victim);
			drop_nlink(old_dir);  /* the VFS marks new dead (vfs_rename) */
		}
	} else if (they_are_dirs) {
		drop_nlink(old_dir);
		inc_nlink(new_dir);
	}
	old_dir->i_size -= BOGO_DIRENT_SIZE;
	new_dir->i_size += BOGO_DIRENT_SIZE;
	rename_timestamps(old_dir, old, new_dir, new);
	return 0;
}

static int memfs_tmpfile(struct inode *dir, struct dentry *dentry, mode_t mode, uid_t uid,
			 gid_t gid)
{
	struct inode *inode = memfs_get_inode(dir->i_sb, dir, S_IFREG | mode, 0, uid, gid);

	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	/* d_tmpfile(): no links, named "#<ino>", never hashed. */
	clear_nlink(inode);
	d_instantiate(dentry, inode);
	d_set_tmpfile_name(dentry, inode->i_ino);
	return 0;
}

lockless_read
static const char *memfs_get_link(struct inode *inode)
{
	return inode->i_link;
}

static int memfs_setsize(struct inode *inode, off_t size)
{
	struct memfs_inode *mi = MI(inode);

	if (memfd_of(mi)) {
		/* shmem_setattr: the pages beyond go, the last one's tail is zeroed */
		if (ftruncate(memfd_of(mi)->fd, size))
			return errno == ENOSPC ? -ENOMEM : -errno;
		memfd_recount(inode->i_sb, mi);
	} else if (size < inode->i_size) {
		uint64_t first = ((uint64_t)size + UVFS_PAGE_SIZE - 1) >> UVFS_PAGE_SHIFT;
		size_t tail = (size_t)(size & (UVFS_PAGE_SIZE - 1));
		char *page;

		radix_truncate(inode->i_sb, mi, first);
		/* Zero the end of the last partial page, so growing again shows zeros. */
		if (tail && (page = radix_lookup(mi, (uint64_t)size >> UVFS_PAGE_SHIFT)))
			memset(page + tail, 0, UVFS_PAGE_SIZE - tail);
	}
	inode->i_size = size;
	return 0;
}

/* ---------------------------------------------------------------------------------
 * Extended attributes (shmem_xattr_handler_get/set, shmem_listxattr)
 */

static ssize_t memfs_xattr_get(struct inode *inode, const char *name, void *value, size_t size)
{
	return simple_xattr_get(&MSB(inode->i_sb)->xattrs, inode, name, value, size);
}

/* The new value's inode space is taken first and given back if the change fails;
 * the old one's comes back after it */
static int memfs_xattr_set(struct inode *inode, const char *name, const void *value,
			   size_t size, int flags)
{
	struct super_block *sb = inode->i_sb;
	size_t space = value ? simple_xattr_space(name, size) : 0, old_space;
	int err;

	/* an ACL is never kept here (src/xattr.c), so removing one finds none and
	 * stamps the ctime, as simple_set_acl(NULL) */
	if (!value && !strncmp(name, "system.posix_acl_", 17)) {
		inode_set_ctime_current(inode);
		return 0;
	}
	err = reserve_ispace(sb, space);
	if (err)
		return err;
	err = simple_xattr_set(&MSB(sb)->xattrs, inode, name, value, size, flags, &old_space);
	free_ispace(sb, err ? space : old_space);
	if (!err)
		inode_set_ctime_current(inode);
	return err;
}

static ssize_t memfs_xattr_list(struct inode *inode, bool trusted, char *list, size_t size)
{
	return simple_xattr_list(&MSB(inode->i_sb)->xattrs, inode, trusted, list, size);
}

#define MEMFS_XATTR_OPS .xattr_get = memfs_xattr_get, .xattr_set = memfs_xattr_set, \
			.xattr_list = memfs_xattr_list

static const struct inode_operations memfs_dir_iops = {
	.lookup = memfs_lookup,
	.lookup_noent = memfs_lookup_noent,
	.create = memfs_mknod,
	.mksock = memfs_mksock,
	.mkdir = memfs_mkdir,
	.symlink = memfs_symlink,
	.link = memfs_link,
	.unlink = memfs_unlink,
	.rmdir = memfs_rmdir,
	.rename = memfs_rename,
	.tmpfile = memfs_tmpfile,
	.standin = simple_standin,
	.fileattr_flags = MEMFS_FL_MODIFIABLE,
	MEMFS_XATTR_OPS,
	.fop = &memfs_dir_fops,
};

static const struct inode_operations memfs_file_iops = {
	.setsize = memfs_setsize,
	.fileattr_flags = MEMFS_FL_MODIFIABLE,
	.memfd = memfs_file_memfd,
	/* a runner's stand-in of a file it gives no memfd (a noexec mount's) */
	.standin = simple_standin,
	MEMFS_XATTR_OPS,
	.fop = &memfs_file_fops,
};

static const struct inode_operations memfs_link_iops = {
	.get_link = memfs_get_link,
	MEMFS_XATTR_OPS,
};

static const struct inode_operations memfs_special_iops = { MEMFS_XATTR_OPS };

static const struct inode_operations memfs_sock_iops = {
	.sock_fd = memfs_sock_fd,
	MEMFS_XATTR_OPS,
};

static const struct inode_operations memfs_fifo_iops = {
	.fop = &pipe_fops,
	.standin = fifo_standin,
	MEMFS_XATTR_OPS,
};

/* ---------------------------------------------------------------------------------
 * File operations
 */

static ssize_t memfs_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	struct inode *inode = f->f_inode;
	struct memfs_inode *mi = MI(inode);
	size_t done = 0;

	if (*pos >= inode->i_size || !count) {
		if (count)
			file_accessed(f);  /* filemap_read() */
		return 0;
	}
	if ((uint64_t)count > (uint64_t)(inode->i_size - *pos))
		count = (size_t)(inode->i_size - *pos);
	if (!buf)
		return -EFAULT;  /* copy_to_user() of the first byte */
	if (memfd_of(mi)) {
		ssize_t n = pread(memfd_of(mi)->fd, buf, count, *pos);

		if (n < 0)
			return -errno;  /* EFAULT: the caller's buffer */
		done = (size_t)n;
	}
	while (done < count && !memfd_of(mi)) {
		uint64_t off = (uint64_t)*pos + done;
		size_t in = off & (UVFS_PAGE_SIZE - 1);
		size_t n = UVFS_PAGE_SIZE - in;
		const char *page = radix_lookup(mi, off >> UVFS_PAGE_SHIFT);

		if (n > count - done)
			n = count - done;
		if (page)
			memcpy((char *)buf + done, page + in, n);
		else
			memset((char *)buf + done, 0, n);
		done += n;
	}
	*pos += (off_t)done;
	file_accessed(f);
	return (ssize_t)done;
}

static ssize_t memfs_write(struct file *f, const void *buf, size_t count, off_t *pos)
{
	struct inode *inode = f->f_inode;
	struct memfs_inode *mi = MI(inode);
	size_t done = 0;
	int err = 0;

	if (!count)
		return 0;
	if (*pos >= UVFS_MAX_FILESIZE)
		return -EFBIG;
	if (!buf)
		return -EFAULT;  /* the first copy from the caller faults: nothing written */
	if ((uint64_t)count > (uint64_t)(UVFS_MAX_FILESIZE - *pos))
		count = (size_t)(UVFS_MAX_FILESIZE - *pos);
	if (memfd_of(mi)) {
		size_t fit = memfd_fit(inode->i_sb, memfd_of(mi)->fd, (uint64_t)*pos, count);
		ssize_t n = fit ? pwrite(memfd_of(mi)->fd, buf, fit, *pos) : 0;

		if (n < 0)
			err = errno == ENOSPC ? -ENOMEM : -errno;
		else if (!n)
			err = -ENOSPC;
		else
			done = (size_t)n;
		memfd_recount(inode->i_sb, mi);
	}
	while (done < count && !memfd_of(mi)) {
		uint64_t off = (uint64_t)*pos + done;
		size_t in = off & (UVFS_PAGE_SIZE - 1);
		size_t n = UVFS_PAGE_SIZE - in;
		void **slot;

		if (n > count - done)
			n = count - done;
		slot = radix_slot(mi, off >> UVFS_PAGE_SHIFT);
		if (!slot) {
			err = -ENOMEM;
			break;
		}
		if (!*slot) {
			void *page = alloc_page(inode->i_sb);

			if (IS_ERR(page)) {
				err = (int)PTR_ERR(page);
				break;
			}
			*slot = page;
			mi->npages++;
		}
		memcpy((char *)*slot + in, (const char *)buf + done, n);
		done += n;
	}
	if (!done)
		return err;
	*pos += (off_t)done;
	if (*pos > inode->i_size)
		inode->i_size = *pos;
	file_update_time(inode);
	return (ssize_t)done;
}

/*
 * ->fallocate: shmem_fallocate()'s two modes.  Allocation (with or without
 * FALLOC_FL_KEEP_SIZE) makes every missing page of the range, zeroed, or none: more
 * pages than the limit has room for is ENOSPC with nothing made (shmem undoes what it
 * made, shmem_undo_range); the size grows to the range's end unless KEEP_SIZE.  A
 * punched hole (always KEEP_SIZE: vfs_fallocate) frees the pages it covers whole and
 * zeroes the rest of the range (shmem_truncate_range).
 */
#define FALLOC_KEEP_SIZE  0x01
#define FALLOC_PUNCH_HOLE 0x02

/* Pages of [first, end) present in the tree */
static uint64_t radix_count(const struct memfs_inode *mi, uint64_t first, uint64_t end)
{
	uint64_t n = 0;

	for (uint64_t i = radix_find(mi, first, end, true); i < end; i = radix_find(mi, i + 1, end, true))
		n++;
	return n;
}

static int memfs_allocate(struct inode *inode, uint64_t first, uint64_t end)
{
	struct memfs_inode *mi = MI(inode);
	struct memfs_sb *s = MSB(inode->i_sb);
	uint64_t need = (end - first) - radix_count(mi, first, end), k = 0;
	void **pages;

	if (s->max_pages && (s->used_pages >= s->max_pages || need > s->max_pages - s->used_pages))
		return -ENOSPC;
	if (!need)
		return 0;
	/* more pages than the machine has (an unlimited mount, 2^55 bytes asked): ENOMEM
	 * as the allocation would give it -- not asked of malloc, which a sanitizer's
	 * allocator aborts on (fuzz_ops found it) rather than return NULL */
	if (need > SIZE_MAX / sizeof(void *) || need > 2 * linux_default_limit() ||
	    !(pages = uvfs_malloc(need * sizeof(void *))))
		return -ENOMEM;
	/* every slot, then every page: the tree changes only when both are had */
	for (uint64_t i = first; i < end && k < need; i++) {
		if (radix_lookup(mi, i))
			continue;
		pages[k] = radix_slot(mi, i) ? alloc_page(inode->i_sb) : ERR_PTR(-ENOMEM);
		if (IS_ERR(pages[k])) {
			int err = (int)PTR_ERR(pages[k]);

			while (k)
				free_page(inode->i_sb, pages[--k]);
			free(pages);
			return err;
		}
		k++;
	}
	k = 0;
	for (uint64_t i = first; i < end && k < need; i++) {
		void **slot = radix_lookup(mi, i) ? NULL : radix_slot(mi, i);

		if (slot) {
			*slot = pages[k++];
			mi->npages++;
		}
	}
	free(pages);
	return 0;
}

static void memfs_punch(struct inode *inode, uint64_t offset, uint64_t end)
{
	struct memfs_inode *mi = MI(inode);
	uint64_t limit = (end + UVFS_PAGE_SIZE - 1) >> UVFS_PAGE_SHIFT;

	for (uint64_t i = radix_find(mi, offset >> UVFS_PAGE_SHIFT, limit, true); i < limit;
	     i = radix_find(mi, i + 1, limit, true)) {
		uint64_t from = i << UVFS_PAGE_SHIFT, to = from + UVFS_PAGE_SIZE;
		char *page = radix_lookup(mi, i);

		if (from >= offset && to <= end) {
			void **slot = radix_slot(mi, i);  /* present: no allocation */

			free_page(inode->i_sb, *slot);
			*slot = NULL;
			mi->npages--;
		} else {
			uint64_t a = offset > from ? offset : from, b = end < to ? end : to;

			memset(page + (a - from), 0, (size_t)(b - a));
		}
	}
}

static int memfs_fallocate(struct file *f, int mode, off_t offset, off_t len)
{
	struct inode *inode = f->f_inode;
	struct memfs_inode *mi = MI(inode);
	struct memfs_sb *s = MSB(inode->i_sb);
	uint64_t end = (uint64_t)offset + (uint64_t)len;
	uint64_t first = (uint64_t)offset >> UVFS_PAGE_SHIFT;
	uint64_t last = (end + UVFS_PAGE_SIZE - 1) >> UVFS_PAGE_SHIFT;
	int err = 0;

	if (mode & ~(FALLOC_KEEP_SIZE | FALLOC_PUNCH_HOLE))
		return -EOPNOTSUPP;
	if (memfd_of(mi)) {
		uint64_t cut, need = mode & FALLOC_PUNCH_HOLE ? 0 :
			memfd_missing(memfd_of(mi)->fd, first, last, UINT64_MAX, &cut);

		if (s->max_pages && (s->used_pages >= s->max_pages ? need : need > s->max_pages - s->used_pages))
			return -ENOSPC;
		/* the memfd is shmem: the same call does the same thing */
		if (fallocate(memfd_of(mi)->fd, mode, offset, len))
			err = errno == ENOSPC ? -ENOMEM : -errno;
		memfd_recount(inode->i_sb, mi);
	} else if (mode & FALLOC_PUNCH_HOLE) {
		memfs_punch(inode, (uint64_t)offset, end);
	} else {
		err = memfs_allocate(inode, first, last);
	}
	if (err)
		return err;
	if (!(mode & FALLOC_KEEP_SIZE) && (off_t)end > inode->i_size)
		inode->i_size = (off_t)end;
	file_update_time(inode);  /* shmem_fallocate: file_modified(), when it succeeded */
	return 0;
}

#define MEMFS_LAST_PAGE ((uint64_t)INT64_MAX >> UVFS_PAGE_SHIFT)

static off_t memfs_seek_data(struct file *f, off_t offset, int whence)
{
	struct inode *inode = f->f_inode;
	uint64_t size = (uint64_t)inode->i_size, limit, idx;

	if (offset < 0 || (uint64_t)offset >= size)
		return -ENXIO;
	if (memfd_of(MI(inode))) {
		/* the memfd is shmem: its answer is tmpfs's, quirk of the last page too */
		off_t r = lseek(memfd_of(MI(inode))->fd, offset, whence);

		return r < 0 ? -errno : r;
	}
	limit = (size + UVFS_PAGE_SIZE - 1) >> UVFS_PAGE_SHIFT;
	idx = radix_find(MI(inode), (uint64_t)offset >> UVFS_PAGE_SHIFT, limit,
			 whence == SEEK_DATA);
	/* mapping_seek_hole_data() rounds the end of a folio up with loff_t arithmetic,
	 * which overflows for the page that holds byte 2^63 - 1: that page is never
	 * data to SEEK_DATA, and SEEK_HOLE that reaches it through data is ENXIO
	 * (tests/regress/seek-data-last-page.sys; difftest seed 20281010) */
	if (whence == SEEK_DATA && idx == MEMFS_LAST_PAGE)
		return -ENXIO;
	if (whence == SEEK_HOLE && idx >= limit && limit - 1 == MEMFS_LAST_PAGE)
		return -ENXIO;
	if (idx >= limit)
		return whence == SEEK_DATA ? -ENXIO : (off_t)size;
	if (idx << UVFS_PAGE_SHIFT <= (uint64_t)offset)
		return offset;
	if (whence == SEEK_HOLE && (idx << UVFS_PAGE_SHIFT) > size)
		return (off_t)size;
	return (off_t)(idx << UVFS_PAGE_SHIFT);
}

/* A child readdir lists: hashed and positive (a rename's victim stays in the list,
 * unhashed, until its last reference goes). */
static bool listable(const struct dentry *c)
{
	return !d_unhashed(c) && c->d_inode;
}

/* The first listable child from pos on, in list order (find_positive_dentry). */
static struct dentry *listable_from(struct cds_hlist_node *pos, unsigned long *steps)
{
	for (; pos; pos = pos->next) {
		struct dentry *d = cds_hlist_entry(pos, struct dentry, d_sib);

		(*steps)++;
		if (listable(d))
			return d;
	}
	return NULL;
}

static off_t pos_of(const struct dentry *c)
{
	return c ? (off_t)c->d_offset : DIR_OFFSET_EOD;
}

/*
 * offset_readdir() (fs/libfs.c, 6.14+): ".", "..", then the children in list order
 * (newest first).  f_pos is the offset of the next child to list, DIR_OFFSET_EOD
 * after the last — so a listing that reached the end shows nothing created later
 * until the directory is rewound.  Any other position resumes at the child with the
 * largest offset not above it (offset_dir_lookup: mas_find_rev), or at the first
 * child when there is none: so when the next child was removed meanwhile (rm -r's
 * list-and-delete loop), the listing goes on below it rather than from the start
 * again (tests/regress/readdir-removed-position-goes-on.sys).  Finding the position
 * is O(log entries) (simple_offset.c).
 */
static ssize_t memfs_iterate(struct file *f, void *buf, size_t count)
{
	struct dentry *dir = f->f_path.dentry;
	unsigned long steps = 0;
	struct dentry *c;
	size_t used = 0;
	ssize_t ret;

	if (f->f_pos == 0) {
		if (!dir_emit(buf, count, &used, ".", 1, dir->d_inode->i_ino, 1, DT_DIR))
			return -EINVAL;
		f->f_pos = 1;
	}
	if (f->f_pos == 1) {
		off_t next = pos_of(listable_from(dir->d_children.next, &steps));

		if (!dir_emit(buf, count, &used, "..", 2, dir->d_parent->d_inode->i_ino, next, DT_DIR)) {
			ret = used ? (ssize_t)used : -EINVAL;
			goto out_steps;
		}
		f->f_pos = next;
	}
	if (f->f_pos == DIR_OFFSET_EOD)
		goto out;
	c = simple_offset_find_rev(MI(dir->d_inode)->offsets, (uint64_t)f->f_pos, &steps);
	c = listable_from(c ? &c->d_sib : dir->d_children.next, &steps);
	while (c) {
		struct dentry *next = listable_from(c->d_sib.next, &steps);

		/* offset_iterate_dir(): ctx->pos is the entry's before it is emitted, and
		 * stays there when it does not fit (EINVAL included) */
		f->f_pos = pos_of(c);
		if (!dir_emit(buf, count, &used, (const char *)c->d_name.name, c->d_name.len,
			  c->d_inode->i_ino, pos_of(next), inode_dtype(c->d_inode->i_mode))) {
			ret = used ? (ssize_t)used : -EINVAL;
			goto out_steps;
		}
		f->f_pos = pos_of(next);
		c = next;
	}
	f->f_pos = DIR_OFFSET_EOD;
out:
	file_accessed(f);  /* iterate_dir() */
	ret = (ssize_t)used;
out_steps:
	count_steps(dir->d_inode, steps);
	return ret;
}

/* simple_offset_dir_operations: noop_fsync, offset_dir_llseek */
static const struct file_operations memfs_dir_fops = {
	.iterate = memfs_iterate,
	.fop_flags = FOP_FSYNC | FOP_OFFSET_DIR,
};

/* shmem_file_operations: noop_fsync; shmem_file_open() sets FMODE_CAN_ODIRECT */
static const struct file_operations memfs_file_fops = {
	.read = memfs_read,
	.write = memfs_write,
	.seek_data = memfs_seek_data,
	.release = memfs_file_release,
	.fallocate = memfs_fallocate,
	.fop_flags = FOP_ODIRECT | FOP_FSYNC,
};
