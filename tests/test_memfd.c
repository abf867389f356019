// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_memfd.c - UVFS_MEMFD: a memfs file's data in a host memory file (uvfs_memfd).
 *
 * What is asked of it is that the kernel and uvfs see the same bytes: a store through
 * a shared mapping of the memfd is what uvfs_read returns, a uvfs_write is what the
 * mapping shows.  What it must not change is everything else: size, st_blocks, the
 * size limit's ENOSPC and its short writes, SEEK_DATA/SEEK_HOLE, ENOMEM leaving the
 * file as it was.  Those are checked by making the same calls on an instance without
 * UVFS_MEMFD (the page tree, whose answers tests/diff and the golden transcripts
 * compare with tmpfs) and, where the kernel can answer, on a memfd of its own.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <sys/eventfd.h>

#include "internal.h"
#include "testutil.h"

#define PAGE 4096

static struct uvfs *new_fs(unsigned int flags, uint64_t max_bytes)
{
	struct uvfs_config cfg = { .flags = flags, .max_bytes = max_bytes };
	struct uvfs *fs = uvfs_new(&cfg);

	assert_non_null(fs);
	return fs;
}

static int open_file(struct uvfs_task *t, const char *name)
{
	int fd = uvfs_openat(t, AT_FDCWD, name, O_RDWR | O_CREAT, 0644);

	assert_true(fd >= 0);
	return fd;
}

/* A pattern that says where each byte was written */
static void fill(char *buf, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + (i * 7 + (size_t)seed) % 26);
}

/* Without UVFS_MEMFD, or on what is not a regular memfs file, nothing is handed out */
static void test_refusals(void **state)
{
	struct uvfs_config bad = { .flags = 0x4 };
	struct uvfs *fs = new_fs(0, 0), *mfs;
	struct uvfs_task *t = uvfs_task_new(fs), *mt;
	int fd = open_file(t, "/f"), pfd, dfd;

	(void)state;
	assert_int_equal(uvfs_memfd(t, fd), -EXDEV);
	assert_int_equal(uvfs_memfd(NULL, fd), -EINVAL);
	assert_int_equal(uvfs_memfd(t, 99), -EBADF);
	uvfs_task_exit(t);
	uvfs_free(fs);

	errno = 0;
	assert_null(uvfs_new(&bad));
	assert_int_equal(errno, EINVAL);

	mfs = new_fs(UVFS_MEMFD, 0);
	mt = uvfs_task_new(mfs);
	fd = open_file(mt, "/f");
	dfd = uvfs_openat(mt, AT_FDCWD, "/", O_RDONLY | O_DIRECTORY, 0);
	assert_true(dfd >= 0);
	assert_int_equal(uvfs_memfd(mt, dfd), -EXDEV);
	pfd = uvfs_openat(mt, AT_FDCWD, "/proc/self/mountinfo", O_RDONLY, 0);
	assert_true(pfd >= 0);
	assert_int_equal(uvfs_memfd(mt, pfd), -EXDEV);  /* procfs */
	assert_true(uvfs_memfd(mt, fd) >= 0);
	uvfs_task_exit(mt);
	uvfs_free(mfs);
}

/* An O_PATH file (an exec's) keeps the memfd as any other: its number cannot be
 * closed and taken by another file while the runner reopens it (an exec ran the
 * wrong binary so) */
static void test_opath(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), pfd = uvfs_openat(t, AT_FDCWD, "/f", O_PATH, 0), m, fd2;
	char got[4];

	(void)state;
	assert_int_equal(uvfs_write(t, fd, "abc", 3), 3);
	m = uvfs_memfd(t, pfd);
	assert_true(m >= 0);
	/* another file that asked, released: the O_PATH one still holds it */
	fd2 = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_memfd(t, fd2), m);
	assert_int_equal(uvfs_close(t, fd2), 0);
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(pread(m, got, 3, 0), 3);
	assert_memory_equal(got, "abc", 3);
	/* the O_PATH file's release gives it back */
	assert_int_equal(uvfs_close(t, pfd), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), -1);
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_read(t, fd, got, 4), 3);
	assert_memory_equal(got, "abc", 3);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/* A file held outside every table (uvfs_fget: what a runner carries while the program
 * passes a descriptor) is still open: the sender's close does not give its memfd back,
 * the receiver gets the same description -- offset, access mode, memfd -- and the
 * last uvfs_fput is the last close */
static void test_passed_file(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0), *other = new_fs(0, 0);
	struct uvfs_task *a = uvfs_task_new(fs), *b, *o = uvfs_task_new(other);
	int fd = open_file(a, "/f"), m;
	struct uvfs_file *f;
	char got[8];

	(void)state;
	b = uvfs_task_fork(a);
	assert_non_null(b);
	assert_int_equal(uvfs_write(a, fd, "abcdef", 6), 6);
	assert_int_equal(uvfs_lseek(a, fd, 2, SEEK_SET), 2);
	m = uvfs_memfd(a, fd);
	assert_true(m >= 0);
	assert_null(uvfs_fget(a, 99));
	assert_null(uvfs_fget(NULL, fd));
	f = uvfs_fget(a, fd);
	assert_non_null(f);
	assert_int_equal(uvfs_close(a, fd), 0);
	assert_int_equal(uvfs_close(b, fd), 0);  /* the fork's copy */
	/* still open: no seal, the memfd is the file's */
	assert_int_equal(fcntl(m, F_GET_SEALS), 0);
	assert_int_equal(uvfs_fd_install(b, 7, f, O_CLOEXEC), 7);
	assert_int_equal(uvfs_fcntl(b, 7, F_GETFD, 0), FD_CLOEXEC);
	assert_int_equal(uvfs_fcntl(b, 7, F_GETFL, 0) & O_ACCMODE, O_RDWR);
	assert_int_equal(uvfs_read(b, 7, got, 2), 2);  /* the sender's offset */
	assert_memory_equal(got, "cd", 2);
	assert_int_equal(uvfs_memfd(b, 7), m);
	/* over an open descriptor, as dup3; the bad cases change nothing */
	assert_int_equal(uvfs_fd_install(b, 8, f, 0), 8);
	assert_int_equal(uvfs_fd_install(b, 8, f, 0), 8);
	assert_int_equal(uvfs_fd_install(b, 8, f, O_RDONLY | 0x40000000), -EINVAL);
	assert_int_equal(uvfs_fd_install(b, -1, f, 0), -EBADF);
	assert_int_equal(uvfs_fd_install(b, 1 << 20, f, 0), -EBADF);
	assert_int_equal(uvfs_fd_install(NULL, 3, f, 0), -EINVAL);
	assert_int_equal(uvfs_fd_install(b, 3, NULL, 0), -EINVAL);
	assert_int_equal(uvfs_fd_install(o, 3, f, 0), -EXDEV);
	assert_int_equal(uvfs_fcntl(o, 3, F_GETFD, 0), -EBADF);
	assert_int_equal(uvfs_read(b, 8, got, 2), 2);  /* one offset for all three */
	assert_memory_equal(got, "ef", 2);
	uvfs_fput(f);
	uvfs_fput(NULL);
	assert_int_equal(fcntl(m, F_GET_SEALS), 0);
	assert_int_equal(uvfs_close(b, 7), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), 0);
	/* the last close gives the data back: the memfd is gone */
	assert_int_equal(uvfs_close(b, 8), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), -1);
	fd = uvfs_openat(b, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_read(b, fd, got, 8), 6);
	assert_memory_equal(got, "abcdef", 6);
	uvfs_task_exit(b);
	uvfs_task_exit(a);
	uvfs_task_exit(o);
	uvfs_free(fs);
	uvfs_free(other);
}

/* The same bytes on both sides, in both directions, and after the data goes back */
static void test_shared_bytes(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	char buf[3 * PAGE], got[3 * PAGE];
	int fd = open_file(t, "/f"), m, m2;
	struct stat st;
	char *map;

	(void)state;
	fill(buf, sizeof(buf), 1);
	assert_int_equal(uvfs_write(t, fd, buf, 2 * PAGE + 10), 2 * PAGE + 10);
	m = uvfs_memfd(t, fd);
	assert_true(m >= 0);
	m2 = uvfs_memfd(t, fd);
	assert_int_equal(m2, m);  /* one memfd per file, asked twice */
	assert_int_equal(fstat(m, &st), 0);
	assert_int_equal(st.st_size, 2 * PAGE + 10);
	map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	assert_true(map != MAP_FAILED);
	assert_memory_equal(map, buf, 2 * PAGE + 10);

	/* a store through the mapping, read by uvfs */
	memcpy(map + 100, "mapped", 6);
	assert_int_equal(uvfs_pread(t, fd, got, 6, 100), 6);
	assert_memory_equal(got, "mapped", 6);
	/* a uvfs write, seen in the mapping; and the size grows for both */
	assert_int_equal(uvfs_pwrite(t, fd, "written", 7, 2 * PAGE + 8), 7);
	assert_memory_equal(map + 2 * PAGE + 8, "written", 7);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_size, 2 * PAGE + 15);
	assert_int_equal(st.st_blocks, 3 * 8);
	assert_int_equal(munmap(map, 3 * PAGE), 0);

	/* the last file that asked closes: the data is uvfs's again, unchanged */
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), -1);  /* closed by uvfs */
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_read(t, fd, got, sizeof(got)), 2 * PAGE + 15);
	memcpy(buf + 100, "mapped", 6);
	memcpy(buf + 2 * PAGE + 8, "written", 7);
	assert_memory_equal(got, buf, 2 * PAGE + 15);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 3 * 8);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/* A shared writable mapping outlives the descriptor: the memfd stays, and what is
 * stored through the mapping afterwards is still the file's */
static void test_mapped_after_close(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), m;
	char got[8];
	char *map;

	(void)state;
	assert_int_equal(uvfs_ftruncate(t, fd, PAGE), 0);
	m = uvfs_memfd(t, fd);
	assert_true(m >= 0);
	map = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	assert_true(map != MAP_FAILED);
	assert_int_equal(uvfs_close(t, fd), 0);
	memcpy(map + 5, "later", 5);
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_pread(t, fd, got, 5, 5), 5);
	assert_memory_equal(got, "later", 5);
	/* unmapped, the next release that asked gives the data back */
	assert_int_equal(munmap(map, PAGE), 0);
	assert_int_equal(uvfs_memfd(t, fd), m);
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), -1);
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_pread(t, fd, got, 5, 5), 5);
	assert_memory_equal(got, "later", 5);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/* Deliberate difference (docs/SEMANTICS.md, §3): a page a shared mapping fills in a
 * hole is counted at uvfs's next change to the file, not at the fault */
static void test_mapping_fills_hole(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), m;
	struct stat st, kst;
	char *map;

	(void)state;
	assert_int_equal(uvfs_ftruncate(t, fd, 2 * PAGE), 0);
	m = uvfs_memfd(t, fd);
	assert_true(m >= 0);
	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
	assert_true(map != MAP_FAILED);
	map[PAGE + 1] = 'x';
	assert_int_equal(fstat(m, &kst), 0);
	assert_int_equal(kst.st_blocks, 8);     /* the kernel's count: the page is there */
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 0);      /* uvfs's: not yet */
	assert_int_equal(uvfs_pwrite(t, fd, "y", 1, 0), 1);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 2 * 8);  /* counted at the write */
	assert_int_equal(munmap(map, 2 * PAGE), 0);
	uvfs_task_exit(t);
	uvfs_free(fs);

	/* past the limit so (2 pages of a 1-page filesystem): statfs says none free,
	 * not a count wrapped below zero */
	{
		struct uvfs *lfs = new_fs(UVFS_MEMFD, PAGE);
		struct uvfs_task *lt = uvfs_task_new(lfs);
		int lfd = open_file(lt, "/f"), lm;
		struct statfs sfs;

		assert_int_equal(uvfs_ftruncate(lt, lfd, 3 * PAGE), 0);
		lm = uvfs_memfd(lt, lfd);
		map = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, lm, 0);
		assert_true(map != MAP_FAILED);
		map[0] = map[PAGE] = map[2 * PAGE] = 'x';
		assert_int_equal(uvfs_ftruncate(lt, lfd, 3 * PAGE + 1), 0);  /* a recount */
		assert_int_equal(uvfs_statfs(lt, "/", &sfs), 0);
		assert_int_equal(sfs.f_blocks, 1);
		assert_int_equal(sfs.f_bfree, 0);
		assert_int_equal(sfs.f_bavail, 0);
		assert_int_equal(munmap(map, 3 * PAGE), 0);
		uvfs_task_exit(lt);
		uvfs_free(lfs);
	}
}

/*
 * One script of calls on two instances, the page tree's and UVFS_MEMFD's (the file
 * moved into its memfd before the first call): every result equal.  A size limit of
 * 6 pages with the root's inodes: a short write at the limit, then ENOSPC, holes,
 * SEEK_DATA/SEEK_HOLE, truncation and st_blocks after each.
 */
struct outcome {
	long r[32];
	blkcnt_t blocks[32];
	off_t size[32];
	unsigned long bfree;
	char data[8 * PAGE];
};

static void script(struct uvfs_task *t, int fd, struct outcome *o)
{
	static char buf[8 * PAGE];
	struct statfs sfs;
	struct stat st;
	int k = 0;

#define STEP(call)                                           \
	do {                                                 \
		o->r[k] = (long)(call);                      \
		assert_int_equal(uvfs_fstat(t, fd, &st), 0); \
		o->blocks[k] = st.st_blocks;                 \
		o->size[k++] = st.st_size;                   \
	} while (0)
	fill(buf, sizeof(buf), 3);
	STEP(uvfs_pwrite(t, fd, buf, 10, 0));
	STEP(uvfs_pwrite(t, fd, buf, 10, 3 * PAGE + 5));          /* a hole between */
	STEP(uvfs_lseek(t, fd, 1, SEEK_DATA));
	STEP(uvfs_lseek(t, fd, 0, SEEK_HOLE));
	STEP(uvfs_lseek(t, fd, 4 * PAGE, SEEK_DATA));             /* ENXIO */
	STEP(uvfs_pwrite(t, fd, buf, 8 * PAGE, PAGE - 3));        /* short: the limit */
	STEP(uvfs_pwrite(t, fd, buf, 10, 20 * PAGE));             /* ENOSPC */
	STEP(uvfs_pwrite(t, fd, buf, 10, 2 * PAGE));              /* no new page */
	STEP(uvfs_ftruncate(t, fd, 2 * PAGE + 1));
	STEP(uvfs_pwrite(t, fd, buf, 3 * PAGE, 10 * PAGE + 7));
	STEP(uvfs_ftruncate(t, fd, 30 * PAGE));
	STEP(uvfs_lseek(t, fd, 3 * PAGE, SEEK_DATA));
	STEP(uvfs_lseek(t, fd, 3 * PAGE, SEEK_HOLE));
	STEP(uvfs_pread(t, fd, o->data, sizeof(o->data), 2 * PAGE - 100));
	STEP(uvfs_pread(t, fd, o->data + 200, 100, 10 * PAGE));
#undef STEP
	assert_int_equal(uvfs_statfs(t, "/", &sfs), 0);
	o->bfree = sfs.f_bfree;
}

static void test_same_answers(void **state)
{
	static struct outcome tree, memfd;
	struct uvfs *fs = new_fs(0, 6 * PAGE), *mfs = new_fs(UVFS_MEMFD, 6 * PAGE);
	struct uvfs_task *t = uvfs_task_new(fs), *mt = uvfs_task_new(mfs);
	int fd = open_file(t, "/f"), mfd = open_file(mt, "/f");

	(void)state;
	assert_true(uvfs_memfd(mt, mfd) >= 0);
	script(t, fd, &tree);
	script(mt, mfd, &memfd);
	for (int k = 0; k < 15; k++) {
		if (memfd.r[k] != tree.r[k] || memfd.blocks[k] != tree.blocks[k] ||
		    memfd.size[k] != tree.size[k])
			print_error("step %d: memfd %ld %ld %ld, tree %ld %ld %ld\n", k, memfd.r[k],
				    (long)memfd.blocks[k], (long)memfd.size[k], tree.r[k],
				    (long)tree.blocks[k], (long)tree.size[k]);
		assert_int_equal(memfd.r[k], tree.r[k]);
		assert_int_equal(memfd.blocks[k], tree.blocks[k]);
		assert_int_equal(memfd.size[k], tree.size[k]);
	}
	assert_int_equal(memfd.bfree, tree.bfree);
	assert_memory_equal(memfd.data, tree.data, sizeof(tree.data));
	/* and the limit was reached: a short write, then ENOSPC */
	assert_int_equal(tree.r[5], 5 * PAGE + 3);  /* pages 1, 2, 4, 5 */
	assert_int_equal(tree.r[6], -ENOSPC);
	/* back into the page tree: the same again */
	assert_int_equal(uvfs_close(mt, mfd), 0);
	mfd = uvfs_openat(mt, AT_FDCWD, "/f", O_RDONLY, 0);
	memset(memfd.data, 0, sizeof(memfd.data));
	assert_int_equal(uvfs_pread(mt, mfd, memfd.data, sizeof(memfd.data), 2 * PAGE - 100),
			 tree.r[13]);
	assert_int_equal(uvfs_pread(t, fd, tree.data, sizeof(tree.data), 2 * PAGE - 100),
			 tree.r[13]);
	assert_memory_equal(memfd.data, tree.data, sizeof(tree.data));
	uvfs_task_exit(t);
	uvfs_task_exit(mt);
	uvfs_free(fs);
	uvfs_free(mfs);
}

/* The kernel's own memfd, the same writes: size and st_blocks as uvfs's */
static void test_blocks_as_kernel(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), k = memfd_create("k", MFD_CLOEXEC);
	struct stat us, ks;
	char buf[PAGE + 1];

	(void)state;
	fill(buf, sizeof(buf), 5);
	assert_true(k >= 0);
	for (int i = 0; i < 12; i++) {
		off_t at = (off_t)((i * 5 % 11) * PAGE + i * 37);

		assert_int_equal(uvfs_pwrite(t, fd, buf, (size_t)(i % 3 ? PAGE + 1 : 3), at),
				 pwrite(k, buf, (size_t)(i % 3 ? PAGE + 1 : 3), at));
		if (i == 4)
			assert_true(uvfs_memfd(t, fd) >= 0);  /* moved part way */
		if (i == 8) {
			assert_int_equal(uvfs_ftruncate(t, fd, 5 * PAGE + 3), 0);
			assert_int_equal(ftruncate(k, 5 * PAGE + 3), 0);
		}
		assert_int_equal(uvfs_fstat(t, fd, &us), 0);
		assert_int_equal(fstat(k, &ks), 0);
		assert_int_equal(us.st_size, ks.st_size);
		assert_int_equal(us.st_blocks, ks.st_blocks);
	}
	close(k);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/*
 * fallocate: the same calls on a memfd of the kernel's (shmem, tmpfs's code) and on
 * uvfs's two stores: results, errors in vfs_fallocate's order, sizes, st_blocks, and
 * whether mtime moved, equal.  Then the size limit, as a tmpfs of 16 pages answered
 * on this kernel: a range with more missing pages than there is room for is ENOSPC
 * with nothing allocated and no time changed; one that fits is allocated.
 */
static const struct { int mode; off_t off, len; } falls[] = {
	{ 0, 0, 10000 }, { 1, 20000, 5000 }, { 3, 0, 5000 }, { 1, 0, 100 },
	{ 2, 0, 100 },          /* punch without KEEP_SIZE: EOPNOTSUPP */
	{ 0x10, 0, 100 },       /* zero range: tmpfs has none */
	{ 0x4, 0, 100 },        /* no mode of Linux */
	{ 0, -1, 100 }, { 0, 0, 0 }, { 0, INT64_MAX - 10, 100 },  /* EINVAL, EINVAL, EFBIG */
	{ 3, 4096, 3 * 4096 },  /* whole pages freed, the rest zeroed */
	{ 3, 6000, 1 << 30 },   /* beyond the end: every page there */
	{ 0, 30000, 1 },
};

static void test_fallocate(void **state)
{
	struct uvfs *fs = new_fs(0, 0), *mfs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs), *mt = uvfs_task_new(mfs);
	int fd = open_file(t, "/f"), mfd = open_file(mt, "/f"), k = memfd_create("k", MFD_CLOEXEC);
	int rk = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	char buf[3 * PAGE], kb[3 * PAGE], ub[3 * PAGE];
	struct stat ks, us, ms;

	(void)state;
	fill(buf, sizeof(buf), 11);
	assert_int_equal(uvfs_pwrite(t, fd, buf, sizeof(buf), 1000), sizeof(buf));
	assert_int_equal(uvfs_pwrite(mt, mfd, buf, sizeof(buf), 1000), sizeof(buf));
	assert_int_equal(pwrite(k, buf, sizeof(buf), 1000), sizeof(buf));
	assert_true(uvfs_memfd(mt, mfd) >= 0);
	for (size_t i = 0; i < sizeof(falls) / sizeof(falls[0]); i++) {
		struct timespec before;
		int kr, ur, mr;

		assert_int_equal(fstat(k, &ks), 0);
		before = ks.st_mtim;
		usleep(5000);  /* past the coarse clock's tick: a stamp differs */
		kr = fallocate(k, falls[i].mode, falls[i].off, falls[i].len) ? -errno : 0;
		ur = uvfs_fallocate(t, fd, falls[i].mode, falls[i].off, falls[i].len);
		mr = uvfs_fallocate(mt, mfd, falls[i].mode, falls[i].off, falls[i].len);
		assert_int_equal(ur, kr);
		assert_int_equal(mr, kr);
		assert_int_equal(fstat(k, &ks), 0);
		assert_int_equal(uvfs_fstat(t, fd, &us), 0);
		assert_int_equal(uvfs_fstat(mt, mfd, &ms), 0);
		assert_int_equal(us.st_size, ks.st_size);
		assert_int_equal(ms.st_size, ks.st_size);
		assert_int_equal(us.st_blocks, ks.st_blocks);
		assert_int_equal(ms.st_blocks, ks.st_blocks);
		/* the kernel stamps on success only; so does uvfs */
		assert_int_equal(ks.st_mtim.tv_nsec != before.tv_nsec || ks.st_mtim.tv_sec != before.tv_sec,
				 kr == 0);
	}
	assert_int_equal(pread(k, kb, sizeof(kb), 0), sizeof(kb));
	assert_int_equal(uvfs_pread(t, fd, ub, sizeof(ub), 0), sizeof(ub));
	assert_memory_equal(ub, kb, sizeof(kb));
	assert_int_equal(uvfs_pread(mt, mfd, ub, sizeof(ub), 0), sizeof(ub));
	assert_memory_equal(ub, kb, sizeof(kb));
	/* not open for writing: EBADF, after the mode's checks */
	assert_int_equal(uvfs_fallocate(t, rk, 0, 0, 1), -EBADF);
	assert_int_equal(uvfs_fallocate(t, rk, 2, 0, 1), -EOPNOTSUPP);
	close(k);
	uvfs_task_exit(t);
	uvfs_task_exit(mt);
	uvfs_free(fs);
	uvfs_free(mfs);
}

/*
 * RLIMIT_FSIZE (uvfs_task_setrlimit) against the kernel's memfd under the same limit,
 * in a child (the limit and the blocked SIGXFSZ are the process's): each call's
 * result, whether it sent SIGXFSZ (the kernel's pending, uvfs_task_take_signals()),
 * and the sizes -- EFBIG at or past the limit, a write cut short at it without the
 * signal, fallocate with and without FALLOC_FL_KEEP_SIZE, a punched hole and
 * shrinking truncations never refused.  The same sequence through uvfs-run:
 * tests/uvfs-run/ltpfound.c against a tmpfs.
 */
static const struct fsize_op {
	char op;  /* 't' ftruncate, 'w' pwrite, 'W' write at the position, 'f' fallocate */
	int mode;
	off_t a, b;
} fsize_ops[] = {
	{ 't', 0, 1024, 0 }, { 't', 0, 1025, 0 }, { 't', 0, 10, 0 }, { 'w', 0, 1020, 10 },
	{ 'w', 0, 1024, 10 }, { 'w', 0, 1024, 0 }, { 'w', 0, 5000, 0 }, { 'W', 0, 1030, 1 },
	{ 'f', 0, 0, 2000 }, { 'f', 1, 0, 2000 }, { 'f', 0, 1000, 24 }, { 'f', 0, 1000, 25 },
	{ 'f', 3, 0, 2000 }, { 't', 0, 5000, 0 }, { 't', 0, 100, 0 }, { 'w', 0, 0, 3000 },
};

static long fsize_call(struct uvfs_task *t, int fd, const struct fsize_op *o, const char *buf)
{
	long r;

	switch (o->op) {
	case 't':
		return t ? uvfs_ftruncate(t, fd, o->a) : ftruncate(fd, o->a) ? -errno : 0;
	case 'w':
		if (t)
			return uvfs_pwrite(t, fd, buf, (size_t)o->b, o->a);
		r = pwrite(fd, buf, (size_t)o->b, o->a);
		return r < 0 ? -errno : r;
	case 'W':
		if (t)
			return uvfs_lseek(t, fd, o->a, SEEK_SET) < 0 ? -EIO : uvfs_write(t, fd, buf, (size_t)o->b);
		r = lseek(fd, o->a, SEEK_SET) < 0 ? -1 : write(fd, buf, (size_t)o->b);
		return r < 0 ? -errno : r;
	default:
		if (t)
			return uvfs_fallocate(t, fd, o->mode, o->a, o->b);
		return fallocate(fd, o->mode, o->a, o->b) ? -errno : 0;
	}
}

static int fsize_child(void)
{
	struct uvfs *fs = new_fs(0, 0);
	struct uvfs_task *t = uvfs_task_new(fs), *child;
	struct rlimit rl = { 1024, RLIM_INFINITY };
	int fd = open_file(t, "/f"), k = memfd_create("k", MFD_CLOEXEC), bad = 0, sig;
	char buf[4000] = { 0 };
	sigset_t xfsz, pending;
	struct stat ks, us;

	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	sigprocmask(SIG_BLOCK, &xfsz, NULL);
	if (uvfs_task_setrlimit(t, RLIMIT_NOFILE, 1024) != -EINVAL ||
	    uvfs_task_setrlimit(NULL, RLIMIT_FSIZE, 1024) != -EINVAL ||
	    uvfs_task_setrlimit(t, RLIMIT_FSIZE, 1024) || setrlimit(RLIMIT_FSIZE, &rl))
		return 100;
	child = uvfs_task_fork(t);  /* copies the limit */
	for (size_t i = 0; i < sizeof(fsize_ops) / sizeof(fsize_ops[0]); i++) {
		const struct fsize_op *o = &fsize_ops[i];
		long kr = fsize_call(NULL, k, o, buf);
		long ur = fsize_call(i % 2 ? child : t, fd, o, buf);
		bool ksig, usig = uvfs_task_take_signals(i % 2 ? child : t) == 1ull << (SIGXFSZ - 1);

		sigpending(&pending);
		ksig = sigismember(&pending, SIGXFSZ);
		if (ksig)
			sigwait(&xfsz, &sig);
		fstat(k, &ks);
		uvfs_fstat(t, fd, &us);
		if (kr != ur || ksig != usig || ks.st_size != us.st_size) {
			fprintf(stderr, "%zu: %c %d %ld %ld: kernel %ld%s size %ld, uvfs %ld%s size %ld\n",
				i, o->op, o->mode, (long)o->a, (long)o->b, kr, ksig ? " SIGXFSZ" : "",
				(long)ks.st_size, ur, usig ? " SIGXFSZ" : "", (long)us.st_size);
			bad++;
		}
	}
	/* no limit: nothing refused, nothing sent */
	if (uvfs_task_setrlimit(t, RLIMIT_FSIZE, UVFS_RLIM_INFINITY) ||
	    uvfs_ftruncate(t, fd, 1 << 20) || uvfs_task_take_signals(t))
		bad++;
	uvfs_task_exit(child);
	uvfs_task_exit(t);
	uvfs_free(fs);
	return bad;
}

static void test_rlimit_fsize(void **state)
{
	pid_t pid;
	int ws;

	(void)state;
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(fsize_child());
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
}

/* Pages the page tree holds beyond the end (fallocate's FALLOC_FL_KEEP_SIZE) move
 * into the memfd with the rest: st_blocks as before, as the kernel's */
static void test_attach_beyond_end(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f");
	struct stat st;

	(void)state;
	assert_int_equal(uvfs_pwrite(t, fd, "a", 1, 0), 1);
	assert_int_equal(uvfs_fallocate(t, fd, 1, PAGE, 4 * PAGE), 0);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 5 * 8);
	assert_true(uvfs_memfd(t, fd) >= 0);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 5 * 8);
	assert_int_equal(st.st_size, 1);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/* Pages fallocate made and nothing wrote are holes to SEEK_DATA: the data cannot go
 * back into the tree exactly, and stays in the memfd */
static void test_fallocated_stays(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), m;
	struct stat st;

	(void)state;
	m = uvfs_memfd(t, fd);
	assert_true(m >= 0);
	assert_int_equal(uvfs_fallocate(t, fd, 1, 0, 3 * PAGE), 0);  /* KEEP_SIZE */
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(fcntl(m, F_GET_SEALS), 0);  /* still uvfs's, unsealed */
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(st.st_blocks, 3 * 8);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

static void test_fallocate_limit(void **state)
{
	for (unsigned int flags = 0; flags <= UVFS_MEMFD; flags += UVFS_MEMFD) {
		struct uvfs *fs = new_fs(flags, 16 * PAGE);
		struct uvfs_task *t = uvfs_task_new(fs);
		int fd = open_file(t, "/f");
		struct stat a, b;

		(void)state;
		if (flags)
			assert_true(uvfs_memfd(t, fd) >= 0);
		assert_int_equal(uvfs_pwrite(t, fd, "x", 1, 5 * PAGE), 1);
		assert_int_equal(uvfs_fstat(t, fd, &a), 0);
		usleep(5000);
		assert_int_equal(uvfs_fallocate(t, fd, 0, 0, 17 * PAGE), -ENOSPC);
		assert_int_equal(uvfs_fstat(t, fd, &b), 0);
		assert_int_equal(b.st_blocks, 8);
		assert_int_equal(b.st_size, 5 * PAGE + 1);
		assert_true(b.st_mtim.tv_sec == a.st_mtim.tv_sec && b.st_mtim.tv_nsec == a.st_mtim.tv_nsec);
		/* 16 pages of which one is there: fits */
		assert_int_equal(uvfs_fallocate(t, fd, 0, 0, 16 * PAGE), 0);
		assert_int_equal(uvfs_fstat(t, fd, &b), 0);
		assert_int_equal(b.st_blocks, 16 * 8);
		assert_int_equal(b.st_size, 16 * PAGE);
		assert_int_equal(uvfs_fallocate(t, fd, 1, 16 * PAGE, 1), -ENOSPC);
		/* the limit is full, but the pages are there: a write into them takes
		 * none (tmpfs with size=64k: the same, checked natively); beyond them,
		 * ENOSPC */
		{
			static char big[16 * PAGE];

			fill(big, sizeof(big), 3);
			assert_int_equal(uvfs_pwrite(t, fd, big, sizeof(big), 0), sizeof(big));
			assert_int_equal(uvfs_pwrite(t, fd, "z", 1, 16 * PAGE), -ENOSPC);
		}
		uvfs_task_exit(t);
		uvfs_free(fs);
	}
}

/* ENOMEM at each allocation of the move: -ENOMEM, the data where it was */
static void test_enomem(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	int fd = open_file(t, "/f"), r = -ENOMEM;
	char buf[2 * PAGE], got[2 * PAGE];
	struct stat st;

	(void)state;
	fill(buf, sizeof(buf), 9);
	assert_int_equal(uvfs_write(t, fd, buf, sizeof(buf)), sizeof(buf));
	for (long k = 0; r == -ENOMEM; k++) {
		uvfs_fail_countdown = k;
		r = uvfs_memfd(t, fd);
		uvfs_fail_countdown = -1;
		if (r == -ENOMEM) {
			assert_int_equal(uvfs_fstat(t, fd, &st), 0);
			assert_int_equal(st.st_blocks, 2 * 8);
		}
		assert_int_equal(uvfs_pread(t, fd, got, sizeof(got), 0), sizeof(got));
		assert_memory_equal(got, buf, sizeof(buf));
	}
	assert_true(r >= 0);
	/* fallocate in the page tree: ENOMEM at each allocation changes nothing */
	{
		int tfd = open_file(t, "/g"), fr = -ENOMEM;

		assert_int_equal(uvfs_pwrite(t, tfd, "z", 1, 70 * PAGE), 1);
		for (long k = 0; fr == -ENOMEM; k++) {
			uvfs_fail_countdown = k;
			fr = uvfs_fallocate(t, tfd, 0, 0, 100 * PAGE);
			uvfs_fail_countdown = -1;
			assert_int_equal(uvfs_fstat(t, tfd, &st), 0);
			assert_int_equal(st.st_blocks, fr ? 8 : 100 * 8);
			assert_int_equal(st.st_size, fr ? 70 * PAGE + 1 : 100 * PAGE);
		}
		assert_int_equal(fr, 0);
		assert_int_equal(uvfs_close(t, tfd), 0);
	}
	/* ENOMEM giving it back: the memfd stays, the data too */
	uvfs_fail_countdown = 0;
	assert_int_equal(uvfs_close(t, fd), 0);
	uvfs_fail_countdown = -1;
	assert_int_equal(fcntl(r, F_GET_SEALS), 0);  /* still uvfs's, unsealed */
	fd = uvfs_openat(t, AT_FDCWD, "/f", O_RDONLY, 0);
	assert_int_equal(uvfs_pread(t, fd, got, sizeof(got), 0), sizeof(got));
	assert_memory_equal(got, buf, sizeof(buf));
	assert_int_equal(uvfs_fstat(t, fd, &st), 0);
	assert_int_equal(st.st_blocks, 2 * 8);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

/*
 * uvfs_standin: one embedder's object per memfs directory while any open file of it
 * was handed one -- make() once however many files ask, closed with the last of them,
 * made anew after; the same per memfs file and procfs file or directory; refused for
 * an O_PATH file, and make()'s error returned with nothing kept.
 */
struct standin_maker {
	int calls;
	int fail;  /* -errno to return */
};

static int make_standin(void *arg)
{
	struct standin_maker *m = arg;

	m->calls++;
	return m->fail ? m->fail : eventfd(0, EFD_CLOEXEC);
}

static void test_standin(void **state)
{
	struct uvfs *fs = new_fs(0, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	struct standin_maker m = { 0 };
	int d1, d2, e, f, p, s1, s2, s3;

	(void)state;
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/a", 0755), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/b", 0755), 0);
	d1 = uvfs_openat(t, AT_FDCWD, "/a", O_RDONLY | O_DIRECTORY, 0);
	d2 = uvfs_openat(t, AT_FDCWD, "/a", O_RDONLY, 0);
	e = uvfs_openat(t, AT_FDCWD, "/b", O_RDONLY, 0);
	f = open_file(t, "/a/f");
	p = uvfs_openat(t, AT_FDCWD, "/b", O_PATH, 0);
	assert_true(d1 >= 0 && d2 >= 0 && e >= 0 && p >= 0);

	assert_int_equal(uvfs_standin(NULL, d1, make_standin, &m), -EINVAL);
	assert_int_equal(uvfs_standin(t, d1, NULL, &m), -EINVAL);
	assert_int_equal(uvfs_standin(t, 99, make_standin, &m), -EBADF);
	assert_int_equal(uvfs_standin(t, p, make_standin, &m), -EXDEV);
	assert_int_equal(m.calls, 0);

	/* one per directory: its two open files share it, another directory has its own */
	s1 = uvfs_standin(t, d1, make_standin, &m);
	assert_true(s1 >= 0);
	assert_int_equal(uvfs_standin(t, d1, make_standin, &m), s1);
	assert_int_equal(uvfs_standin(t, d2, make_standin, &m), s1);
	s2 = uvfs_standin(t, e, make_standin, &m);
	assert_true(s2 >= 0 && s2 != s1);
	assert_int_equal(m.calls, 2);
	/* kept while one file that was handed it is open; closed with the last */
	assert_int_equal(uvfs_close(t, d1), 0);
	assert_true(fcntl(s1, F_GETFD) >= 0);
	assert_int_equal(uvfs_close(t, d2), 0);
	assert_int_equal(fcntl(s1, F_GETFD), -1);
	assert_int_equal(errno, EBADF);
	/* ... and made anew for the next */
	d1 = uvfs_openat(t, AT_FDCWD, "/a", O_RDONLY, 0);
	s3 = uvfs_standin(t, d1, make_standin, &m);
	assert_true(s3 >= 0);
	assert_int_equal(m.calls, 3);
	/* a dup is the same open file: no second user */
	assert_int_equal(uvfs_dup3(t, d1, 20, 0), 20);
	assert_int_equal(uvfs_standin(t, 20, make_standin, &m), s3);
	assert_int_equal(uvfs_close(t, d1), 0);
	assert_true(fcntl(s3, F_GETFD) >= 0);
	assert_int_equal(uvfs_close(t, 20), 0);
	assert_int_equal(fcntl(s3, F_GETFD), -1);

	/* make() failing: its error, nothing kept, asked again next time */
	m.fail = -EMFILE;
	d1 = uvfs_openat(t, AT_FDCWD, "/a", O_RDONLY, 0);
	assert_int_equal(uvfs_standin(t, d1, make_standin, &m), -EMFILE);
	m.fail = 0;
	s1 = uvfs_standin(t, d1, make_standin, &m);
	assert_true(s1 >= 0);
	assert_int_equal(m.calls, 5);
	uvfs_close(t, d1);
	uvfs_close(t, e);
	assert_int_equal(fcntl(s2, F_GETFD), -1);
	uvfs_close(t, f);
	uvfs_close(t, p);

	/* procfs's files and directories, a memfs regular file: one per inode, as Linux
	 * keeps locks (/proc/1/mounts opened twice is one file, /proc/1/mountinfo
	 * another); a host mount's regular file has its own (the runner reopens it) */
	m.calls = 0;
	f = open_file(t, "/a/g");
	s3 = uvfs_standin(t, f, make_standin, &m);
	assert_true(s3 >= 0);
	assert_int_equal(m.calls, 1);
	uvfs_close(t, f);
	assert_int_equal(fcntl(s3, F_GETFD), -1);
	m.calls = 0;
	d1 = uvfs_openat(t, AT_FDCWD, "/proc/1/mounts", O_RDONLY, 0);
	d2 = uvfs_openat(t, AT_FDCWD, "/proc/self/mounts", O_RDONLY, 0);
	e = uvfs_openat(t, AT_FDCWD, "/proc/1/mountinfo", O_RDONLY, 0);
	p = uvfs_openat(t, AT_FDCWD, "/proc/1", O_RDONLY | O_DIRECTORY, 0);
	assert_true(d1 >= 0 && d2 >= 0 && e >= 0 && p >= 0);
	s3 = uvfs_standin(t, p, make_standin, &m);
	assert_true(s3 >= 0);
	assert_int_equal(m.calls, 1);
	m.calls = 0;
	s1 = uvfs_standin(t, d1, make_standin, &m);
	assert_true(s1 >= 0);
	assert_int_equal(uvfs_standin(t, d2, make_standin, &m), s1);
	s2 = uvfs_standin(t, e, make_standin, &m);
	assert_true(s2 >= 0 && s2 != s1);
	assert_int_equal(m.calls, 2);
	assert_int_equal(uvfs_close(t, d1), 0);
	assert_true(fcntl(s1, F_GETFD) >= 0);
	assert_int_equal(uvfs_close(t, d2), 0);
	assert_int_equal(fcntl(s1, F_GETFD), -1);
	/* make() failing: nothing kept */
	m.fail = -ENFILE;
	d1 = uvfs_openat(t, AT_FDCWD, "/proc/1/mounts", O_RDONLY, 0);
	assert_int_equal(uvfs_standin(t, d1, make_standin, &m), -ENFILE);
	m.fail = 0;
	uvfs_close(t, d1);
	uvfs_close(t, p);
	assert_int_equal(fcntl(s3, F_GETFD), -1);
	/* the task's exit closes its files: the last stand-in goes with them */
	uvfs_task_exit(t);
	assert_int_equal(fcntl(s2, F_GETFD), -1);
	uvfs_free(fs);
}

/*
 * uvfs_memfd_name: a memfd handed out is named after its open file (d_path from the
 * task's root: renamed, " (deleted)"), with that file's stat; unknown once the last
 * open file is closed.
 */
static void test_memfd_name(void **state)
{
	struct uvfs *fs = new_fs(UVFS_MEMFD, 0);
	struct uvfs_task *t = uvfs_task_new(fs);
	struct stat kst, ust, st;
	char buf[256];
	int fd = open_file(t, "/a"), fd2, mfd;

	(void)state;
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/d", 0755), 0);
	mfd = uvfs_memfd(t, fd);
	assert_true(mfd >= 0);
	assert_int_equal(fstat(mfd, &kst), 0);
	assert_int_equal(uvfs_fstat(t, fd, &ust), 0);
	assert_int_equal(uvfs_memfd_name(NULL, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL),
			 -EINVAL);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, 0, NULL), -EINVAL);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino + 1, buf, sizeof(buf), NULL),
			 -ENOENT);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), &st), 2);
	assert_memory_equal(buf, "/a", 2);
	assert_int_equal(st.st_ino, ust.st_ino);
	assert_int_equal(st.st_dev, ust.st_dev);
	/* readlink's truncation */
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, 1, NULL), 1);
	/* the name follows the file; a second open file keeps the first's name */
	assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/a", AT_FDCWD, "/d/b", 0), 0);
	fd2 = uvfs_openat(t, AT_FDCWD, "/d/b", O_RDONLY, 0);
	assert_int_equal(uvfs_memfd(t, fd2), mfd);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL), 4);
	assert_memory_equal(buf, "/d/b", 4);
	assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, "/d/b", 0), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL), 14);
	assert_memory_equal(buf, "/d/b (deleted)", 14);
	/* seen from a chroot, as d_path sees it */
	assert_int_equal(uvfs_chroot(t, "/d"), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL), 12);
	assert_memory_equal(buf, "/b (deleted)", 12);
	/* the first file closed, the second still names it; both: nothing */
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL), 12);
	assert_int_equal(uvfs_close(t, fd2), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL),
			 -ENOENT);

	/* closed, its name kept for the mappings that outlive it (a dlopen'd library):
	 * renamed with the file, gone with its name */
	fd = open_file(t, "/c");
	mfd = uvfs_memfd(t, fd);
	assert_true(mfd >= 0);
	assert_int_equal(fstat(mfd, &kst), 0);
	assert_int_equal(uvfs_close(t, fd), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), &st), 2);
	assert_memory_equal(buf, "/c", 2);
	assert_int_equal(uvfs_renameat2(t, AT_FDCWD, "/c", AT_FDCWD, "/e", 0), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL), 2);
	assert_memory_equal(buf, "/e", 2);
	assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, "/e", 0), 0);
	assert_int_equal(uvfs_memfd_name(t, kst.st_dev, kst.st_ino, buf, sizeof(buf), NULL),
			 -ENOENT);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_opath),
		cmocka_unit_test(test_passed_file),
		cmocka_unit_test(test_shared_bytes),
		cmocka_unit_test(test_mapped_after_close),
		cmocka_unit_test(test_mapping_fills_hole),
		cmocka_unit_test(test_same_answers),
		cmocka_unit_test(test_blocks_as_kernel),
		cmocka_unit_test(test_fallocate),
		cmocka_unit_test(test_fallocate_limit),
		cmocka_unit_test(test_rlimit_fsize),
		cmocka_unit_test(test_fallocated_stays),
		cmocka_unit_test(test_attach_beyond_end),
		cmocka_unit_test(test_enomem),
		cmocka_unit_test(test_standin),
		cmocka_unit_test(test_memfd_name),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
