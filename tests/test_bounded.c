// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_bounded.c - work that must not grow with the size of what is around it,
 * counted (uvfs_cache_stats.dir_steps: list entries, index slots and table slots
 * visited), never timed: a getdents call in a directory of 10^5 entries, an rm -r
 * style list-and-delete loop, a rename among 10^5 entries, a lookup of /proc/PID
 * among 10^4 tasks and of /proc/self/fd/N among 4*10^4 descriptors.
 *
 * Also the readdir offset map (simple_offset.c) against a plain model: every
 * find_rev answer after random adds, removals and exchanges.  The kernel side of the
 * readdir rules is asked by tests/regress/readdir-removed-position-goes-on.sys and
 * tests/diff/readdir-offsets.sys.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "dcache.h"
#include "introspect.h"
#include "simple_offset.h"
#include "uvfs/uvfs.h"

static unsigned long steps_of(struct uvfs *fs)
{
	struct uvfs_cache_stats st;

	uvfs_get_stats(fs, &st);
	return st.dir_steps;
}

static unsigned int log2_ceil(unsigned long n)
{
	unsigned int l = 0;

	while ((1ul << l) < n)
		l++;
	return l;
}

/* ---------------------------------------------------------------------------------
 * The offset map against a model: live[] holds, for each offset, its dentry or NULL.
 */

#define MODEL_OFFSETS 4096

struct model {
	struct offset_ctx *ctx;
	struct dentry *live[MODEL_OFFSETS];
	uint32_t next;
};

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static struct dentry *model_find_rev(const struct model *m, uint64_t pos)
{
	for (long o = (long)(pos < MODEL_OFFSETS ? pos : MODEL_OFFSETS - 1); o >= 0; o--)
		if (m->live[o])
			return m->live[o];
	return NULL;
}

static long model_random_live(const struct model *m)
{
	uint32_t start = rnd(m->next ? m->next : 1);

	for (uint32_t k = 0; k < m->next; k++) {
		uint32_t o = (start + k) % m->next;

		if (m->live[o])
			return o;
	}
	return -1;
}

static void model_add(struct model *m, struct dentry *d, unsigned long *steps)
{
	assert_int_equal(simple_offset_reserve(&m->ctx, 1, steps), 0);
	d->d_offset = m->next++;
	m->live[d->d_offset] = d;
	simple_offset_add(m->ctx, d, steps);
}

static void test_offset_map_model(void **state)
{
	static struct model m[2];
	struct dentry *pool = calloc(3 * MODEL_OFFSETS, sizeof(*pool));
	size_t used = 0;
	unsigned long steps = 0;

	(void)state;
	assert_non_null(pool);
	for (int i = 0; i < 2; i++)
		m[i].next = 3;
	for (long step = 0; step < 200000; step++) {
		struct model *a = &m[rnd(2)], *b = &m[rnd(2)];
		uint32_t op = rnd(100);
		long o;

		if (op < 30 && a->next + 2 < MODEL_OFFSETS && used + 2 <= 3 * MODEL_OFFSETS) {
			model_add(a, &pool[used++], &steps);
		} else if (op < 33 && a->next + 2 < MODEL_OFFSETS && used + 2 <= 3 * MODEL_OFFSETS) {
			/* a rename with a whiteout: the whiteout (offset N+1) is added
			 * before the renamed entry (offset N) */
			struct dentry *wh = &pool[used++], *e = &pool[used++];

			assert_int_equal(simple_offset_reserve(&a->ctx, 2, &steps), 0);
			e->d_offset = a->next++;
			wh->d_offset = a->next++;
			simple_offset_add(a->ctx, wh, &steps);
			simple_offset_add(a->ctx, e, &steps);
			a->live[e->d_offset] = e;
			a->live[wh->d_offset] = wh;
		} else if (op < 60 && (o = model_random_live(a)) >= 0) {
			simple_offset_remove(a->ctx, (uint32_t)o, &steps);
			a->live[o] = NULL;
		} else if (op < 65 && (o = model_random_live(a)) >= 0) {
			long p = model_random_live(b);
			struct dentry *da = a->live[o], *db;

			if (p < 0 || (a == b && p == o))
				continue;
			db = b->live[p];
			simple_offset_exchange(a->ctx, da, b->ctx, db, &steps);
			a->live[o] = db;
			b->live[p] = da;
			assert_int_equal(db->d_offset, o);
			assert_int_equal(da->d_offset, p);
		} else {
			uint64_t pos = rnd(a->next + 8);

			if (rnd(50) == 0)
				pos = (uint64_t)1 << 40;
			if (simple_offset_find_rev(a->ctx, pos, &steps) != model_find_rev(a, pos))
				fail_msg("step %ld: find_rev(%llu) differs from the model", step,
					 (unsigned long long)pos);
		}
		for (int i = 0; i < 2; i++) {
			size_t n = 0;

			for (uint32_t k = 0; k < m[i].next; k++)
				n += m[i].live[k] != NULL;
			if (step % 997 == 0)
				assert_int_equal(simple_offset_count(m[i].ctx), n);
		}
		if (m[0].next + 3 >= MODEL_OFFSETS || m[1].next + 3 >= MODEL_OFFSETS ||
		    used + 2 > 3 * MODEL_OFFSETS) {
			for (int i = 0; i < 2; i++) {
				simple_offset_destroy(m[i].ctx);
				memset(&m[i], 0, sizeof(m[i]));
				m[i].next = 3;
			}
			used = 0;
		}
	}
	for (int i = 0; i < 2; i++)
		simple_offset_destroy(m[i].ctx);
	free(pool);
}

/* ---------------------------------------------------------------------------------
 * Through the API, counted.
 */

static void fill_dir(struct uvfs_task *t, const char *dir, unsigned long n)
{
	char p[64];

	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, dir, 0755), 0);
	for (unsigned long i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/f%lu", dir, i);
		assert_int_equal(uvfs_mknodat(t, AT_FDCWD, p, S_IFREG | 0644, 0), 0);
	}
}

/* The most steps one getdents64 call with a 64-byte buffer (one or two entries)
 * took over a whole listing, and the entries listed. */
static unsigned long listing_max_steps(struct uvfs *fs, struct uvfs_task *t, const char *dir,
				       unsigned long *entries)
{
	char buf[64];
	unsigned long most = 0;
	int fd = uvfs_openat(t, AT_FDCWD, dir, O_RDONLY | O_DIRECTORY, 0);
	ssize_t n;

	assert_true(fd >= 0);
	*entries = 0;
	for (;;) {
		unsigned long before = steps_of(fs);

		n = uvfs_getdents64(t, fd, buf, sizeof(buf));
		assert_true(n >= 0);
		if (steps_of(fs) - before > most)
			most = steps_of(fs) - before;
		if (!n)
			break;
		for (ssize_t off = 0; off < n;) {
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			off += reclen;
			(*entries)++;
		}
	}
	assert_int_equal(uvfs_close(t, fd), 0);
	return most;
}

static void test_getdents_bounded(void **state)
{
	static const unsigned long sizes[] = { 1000, 100000 };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct uvfs *fs = uvfs_new(NULL);
		struct uvfs_task *t = uvfs_task_new(fs);
		unsigned long entries, most;

		fill_dir(t, "/d", sizes[i]);
		most = listing_max_steps(fs, t, "/d", &entries);
		assert_int_equal(entries, sizes[i] + 2);
		/* a binary search of the offset map and a step or two along the list */
		print_message("%lu entries: at most %lu steps per getdents64 call\n",
			      sizes[i], most);
		assert_true(most <= log2_ceil(sizes[i]) + 4);
		uvfs_task_exit(t);
		uvfs_free(fs);
	}
}

/* rm -r's loop: list a few, remove them, list again from where the listing is.
 * Removals leave tombstones and compactions; all of it, counted, stays within
 * n log n for the whole directory. */
static void test_list_and_delete_bounded(void **state)
{
	static const unsigned long sizes[] = { 1000, 100000 };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct uvfs *fs = uvfs_new(NULL);
		struct uvfs_task *t = uvfs_task_new(fs);
		unsigned long removed = 0, before;
		char buf[200], p[300];
		int fd;
		ssize_t n;

		fill_dir(t, "/d", sizes[i]);
		fd = uvfs_openat(t, AT_FDCWD, "/d", O_RDONLY | O_DIRECTORY, 0);
		assert_true(fd >= 0);
		before = steps_of(fs);
		while ((n = uvfs_getdents64(t, fd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; off < n;) {
				unsigned short reclen;
				const char *name = buf + off + 19;

				memcpy(&reclen, buf + off + 16, sizeof(reclen));
				off += reclen;
				if (!strcmp(name, ".") || !strcmp(name, ".."))
					continue;
				snprintf(p, sizeof(p), "/d/%s", name);
				assert_int_equal(uvfs_unlinkat(t, AT_FDCWD, p, 0), 0);
				removed++;
			}
		}
		assert_int_equal(n, 0);
		assert_int_equal(removed, sizes[i]);
		print_message("%lu entries listed and removed: %lu steps\n", sizes[i],
			      steps_of(fs) - before);
		assert_true(steps_of(fs) - before <= sizes[i] * (log2_ceil(sizes[i]) + 8));
		uvfs_close(t, fd);
		uvfs_task_exit(t);
		uvfs_free(fs);
	}
}

static void test_rename_bounded(void **state)
{
	static const unsigned long sizes[] = { 10, 100000 };
	unsigned long per[2];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct uvfs *fs = uvfs_new(NULL);
		struct uvfs_task *t = uvfs_task_new(fs);
		unsigned long before;
		char a[64], b[64];

		fill_dir(t, "/d", sizes[i]);
		before = steps_of(fs);
		/* the oldest entry again and again: a search of the whole map each time */
		for (int k = 0; k < 1000; k++) {
			snprintf(a, sizeof(a), "/d/f%lu", (unsigned long)k % sizes[i]);
			snprintf(b, sizeof(b), "/d/g%d", k);
			assert_int_equal(uvfs_renameat2(t, AT_FDCWD, a, AT_FDCWD, b, 0), 0);
			assert_int_equal(uvfs_renameat2(t, AT_FDCWD, b, AT_FDCWD, a, 0), 0);
		}
		per[i] = (steps_of(fs) - before) / 2000;
		print_message("%lu entries: %lu steps per rename\n", sizes[i], per[i]);
		assert_true(per[i] <= log2_ceil(sizes[i]) + 4);
		uvfs_task_exit(t);
		uvfs_free(fs);
	}
}

/* A lookup of /proc/PID or /proc/PID/fd/N: one probe of the pid table or the
 * descriptor table, however many tasks or descriptors there are. */
static void test_proc_lookup_bounded(void **state)
{
	static const int tasks[] = { 10, 10000 };
	unsigned long per[2][2];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		int fds = tasks[i] * 4;
		struct uvfs_config cfg = { .max_files = (unsigned int)fds };
		struct uvfs *fs = uvfs_new(&cfg);
		struct uvfs_task *t = uvfs_task_new(fs), **all = calloc((size_t)tasks[i], sizeof(*all));
		unsigned long before;
		struct stat st;
		char p[64], link[64];

		assert_non_null(all);
		for (int k = 0; k < tasks[i]; k++)
			assert_non_null(all[k] = uvfs_task_new(fs));
		assert_int_equal(uvfs_openat(t, AT_FDCWD, "/", O_RDONLY, 0), 0);
		for (int k = 1; k < fds; k++)
			assert_int_equal(uvfs_dup(t, 0), k);
		/* each a name not yet in the dcache: a real lookup */
		before = steps_of(fs);
		for (int k = 0; k < 10; k++) {
			snprintf(p, sizeof(p), "/proc/%d", uvfs_task_pid(all[tasks[i] - 1 - k]));
			assert_int_equal(uvfs_fstatat(t, AT_FDCWD, p, &st, 0), 0);
		}
		per[i][0] = steps_of(fs) - before;
		before = steps_of(fs);
		for (int k = 0; k < 10; k++) {
			snprintf(p, sizeof(p), "/proc/self/fd/%d", fds - 1 - k);
			assert_true(uvfs_readlinkat(t, AT_FDCWD, p, link, sizeof(link)) > 0);
		}
		per[i][1] = steps_of(fs) - before;
		print_message("%d tasks, %d fds: %lu steps for 10 /proc/PID, %lu for 10 fd/N\n",
			      tasks[i], fds, per[i][0], per[i][1]);
		for (int k = 0; k < tasks[i]; k++)
			uvfs_task_exit(all[k]);
		free(all);
		uvfs_task_exit(t);
		uvfs_free(fs);
	}
	assert_int_equal(per[0][0], per[1][0]);
	assert_int_equal(per[0][1], per[1][1]);
	assert_true(per[1][0] > 0 && per[1][1] > 0); /* counted at all */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offset_map_model),
		cmocka_unit_test(test_getdents_bounded),
		cmocka_unit_test(test_list_and_delete_bounded),
		cmocka_unit_test(test_rename_bounded),
		cmocka_unit_test(test_proc_lookup_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
