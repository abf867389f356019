// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_names.c - the name a dentry keeps after rename and RENAME_EXCHANGE, for every
 * personality, every inline/external combination and both boundaries (31/32 bytes,
 * the inline limit before 6.8, and 39/40, after), in one directory and across two.
 *
 * The expected values come from a model written here from the table in
 * ../shared/LINUX-SEMANTICS.md section 3, independently of src/abi.c:
 *   era         both inline     any external          victim's parent
 *   <= 3.14     copy            swap                   mover's old dir
 *   3.15-3.16   swap            swap                   mover's old dir
 *   3.17        copy            swap                   mover's old dir
 *   3.18-4.16   copy            copy, name shared      mover's old dir
 *   >= 4.17     copy            copy, name shared      its own
 * (the default personality's rows are also checked against the running kernel
 * through /proc/self/fd in the d_path tests.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#include "introspect.h"
#include "uvfs/uvfs.h"

enum era { E_LINUX, E_4_17, E_3_18, E_3_17, E_3_15, E_3_14 };
static const char *const abi_names[] = { "linux", "linux-4.17", "linux-3.18", "linux-3.17",
					 "linux-3.15", "linux-3.14" };
static const size_t lens[] = { 3, 31, 32, 39, 40, 48, 255 };

enum op { OP_RENAME, OP_EXCHANGE };

struct expect {
	const char *victim_name;   /* what the victim's dentry is called afterwards */
	const char *victim_dir;    /* and the name of its parent */
	bool victim_hashed;
	bool shared;               /* mover and victim share one external name */
};

static void make_name(char *buf, char c, size_t len)
{
	memset(buf, c, len);
	buf[len] = 0;
	buf[0] = c == 'm' ? 'M' : 'V'; /* distinct first byte: the names never match */
}

static struct expect model(enum era e, enum op op, const char *mover, const char *victim,
			   const char *src_dir, const char *dst_dir)
{
	size_t inline_max = e == E_LINUX ? 39 : 31; /* DNAME_INLINE_LEN - 1 */
	bool both_inline = strlen(mover) <= inline_max && strlen(victim) <= inline_max;
	bool copy;
	struct expect x = { 0 };

	if (op == OP_EXCHANGE) {
		x.victim_name = mover;
		x.victim_dir = src_dir;
		x.victim_hashed = true;
		return x;
	}
	switch (e) {
	case E_LINUX: case E_4_17: case E_3_18: copy = true; break;
	case E_3_17: case E_3_14: copy = both_inline; break;
	default: copy = false; break;
	}
	x.victim_name = copy ? victim : mover;
	x.shared = copy && strlen(victim) > inline_max;
	x.victim_dir = (e == E_LINUX || e == E_4_17) ? dst_dir : src_dir;
	x.victim_hashed = false;
	return x;
}

/* A failing check names its case: personality, operation, directories, lengths. */
#define EXPECT_STR(got, want, what)                                                    \
	do {                                                                           \
		if (strcmp((got), (want)))                                             \
			fail_msg("%s: %s is \"%s\", expected \"%s\"", ctx, (what), (got),  \
				 (want));                                              \
	} while (0)
#define EXPECT_INT(got, want, what)                                                    \
	do {                                                                           \
		long long g_ = (long long)(got), w_ = (long long)(want);               \
		if (g_ != w_)                                                          \
			fail_msg("%s: %s is %lld, expected %lld", ctx, (what), g_, w_);    \
	} while (0)

static void check_case(enum era e, enum op op, bool cross, size_t mlen, size_t vlen)
{
	char ctx[160];
	struct uvfs_config cfg = { .abi = abi_names[e] };
	struct uvfs *fs = uvfs_new(&cfg);
	struct uvfs_task *t;
	char mover[256], victim[256], msrc[300], vdst[300];
	const char *src_dir = "d1", *dst_dir = cross ? "d2" : "d1";
	struct uvfs_dentry_info mi, vi, before_m, before_v;
	struct expect x;
	int fm, fv, r;

	snprintf(ctx, sizeof(ctx), "%s %s %s, mover %zu bytes, victim %zu bytes", abi_names[e],
		 op == OP_EXCHANGE ? "RENAME_EXCHANGE" : "rename",
		 cross ? "from d1 to d2" : "within d1", mlen, vlen);
	assert_non_null(fs);
	t = uvfs_task_new(fs);
	assert_non_null(t);
	make_name(mover, 'm', mlen);
	make_name(victim, 'v', vlen);
	snprintf(msrc, sizeof(msrc), "/%s/%s", src_dir, mover);
	snprintf(vdst, sizeof(vdst), "/%s/%s", dst_dir, victim);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/d1", 0755), 0);
	assert_int_equal(uvfs_mkdirat(t, AT_FDCWD, "/d2", 0755), 0);
	fm = uvfs_openat(t, AT_FDCWD, msrc, O_CREAT | O_RDWR, 0644);
	fv = uvfs_openat(t, AT_FDCWD, vdst, O_CREAT | O_RDWR, 0644);
	assert_true(fm >= 0 && fv >= 0);
	assert_int_equal(uvfs_introspect_fd(t, fm, &before_m), 0);
	assert_int_equal(uvfs_introspect_fd(t, fv, &before_v), 0);
	/* storage before: the personality's inline limit */
	EXPECT_INT(before_m.external, mlen > (e == E_LINUX ? 39u : 31u), "the mover's name external");
	EXPECT_INT(before_v.external, vlen > (e == E_LINUX ? 39u : 31u), "the victim's name external");

	r = uvfs_renameat2(t, AT_FDCWD, msrc, AT_FDCWD, vdst,
			   op == OP_EXCHANGE ? RENAME_EXCHANGE : 0);
	if (op == OP_EXCHANGE && e == E_3_14) {
		EXPECT_INT(r, -EINVAL, "renameat2");  /* no cross-rename before 3.15 */
		goto out;
	}
	EXPECT_INT(r, 0, "renameat2");
	x = model(e, op, mover, victim, src_dir, dst_dir);
	assert_int_equal(uvfs_introspect_fd(t, fm, &mi), 0);
	assert_int_equal(uvfs_introspect_fd(t, fv, &vi), 0);

	/* The mover always ends up with the victim's name, in the victim's directory. */
	EXPECT_STR(mi.name, victim, "the mover's name");
	EXPECT_STR(mi.parent_name, dst_dir, "the mover's parent");
	EXPECT_INT(mi.hashed, 1, "the mover hashed");
	/* The victim: the era's rule. */
	EXPECT_STR(vi.name, x.victim_name, "the victim's name");
	EXPECT_STR(vi.parent_name, x.victim_dir, "the victim's parent");
	EXPECT_INT(vi.hashed, x.victim_hashed, "the victim hashed");
	EXPECT_INT(vi.external, strlen(x.victim_name) > (e == E_LINUX ? 39u : 31u),
		   "the victim's name external");
	if (x.shared) {
		/* copy_name(): one buffer, two references, no copy */
		EXPECT_INT(mi.external && vi.external, 1, "both names external");
		EXPECT_INT(mi.name_id == vi.name_id, 1, "one shared name buffer");
		EXPECT_INT(mi.name_id == before_v.name_id, 1, "the victim's buffer shared");
		EXPECT_INT(mi.name_refs, 2, "the shared name's references");
	} else {
		if (mi.external)
			EXPECT_INT(mi.name_refs, 1, "the mover's name references");
		if (vi.external)
			EXPECT_INT(vi.name_refs, 1, "the victim's name references");
		if (mi.external && vi.external)
			EXPECT_INT(mi.name_id != vi.name_id, 1, "two name buffers");
	}
	/* Closing the victim drops its dentry, and its hold on a shared name. */
	assert_int_equal(uvfs_close(t, fv), 0);
	fv = -1;
	assert_int_equal(uvfs_introspect_fd(t, fm, &mi), 0);
	if (mi.external)
		EXPECT_INT(mi.name_refs, 1, "the mover's name references after the close");
out:
	if (fv >= 0)
		uvfs_close(t, fv);
	uvfs_close(t, fm);
	uvfs_free(fs);
}

static void run_era(enum era e, enum op op)
{
	for (int cross = 0; cross < 2; cross++)
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
			for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++)
				check_case(e, op, cross, lens[i], lens[j]);
}

#define ERA_TESTS(e)                                                                   \
	static void test_rename_##e(void **s) { (void)s; run_era(e, OP_RENAME); }      \
	static void test_exchange_##e(void **s) { (void)s; run_era(e, OP_EXCHANGE); }
ERA_TESTS(E_LINUX)
ERA_TESTS(E_4_17)
ERA_TESTS(E_3_18)
ERA_TESTS(E_3_17)
ERA_TESTS(E_3_15)
ERA_TESTS(E_3_14)

/* The seed article's table (LINUX-SEMANTICS section 3), row by row, by name. */
static void test_article_table(void **state)
{
	static const struct {
		enum era e;
		const char *ss, *ll, *sl, *ls; /* victim's name after mv foo bar */
	} rows[] = {
		{ E_3_14, "bar", "fooL", "foo", "fooL" },
		{ E_3_15, "foo", "fooL", "foo", "fooL" },
		{ E_3_17, "bar", "fooL", "foo", "fooL" },
		{ E_3_18, "bar", "barL", "barL", "bar" },
		{ E_LINUX, "bar", "barL", "barL", "bar" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *pairs[4][3] = {
			{ "foo", "bar", rows[i].ss }, { "fooL", "barL", rows[i].ll },
			{ "foo", "barL", rows[i].sl }, { "fooL", "bar", rows[i].ls },
		};
		for (int p = 0; p < 4; p++) {
			struct uvfs_config cfg = { .abi = abi_names[rows[i].e] };
			struct uvfs *fs = uvfs_new(&cfg);
			struct uvfs_task *t = uvfs_task_new(fs);
			char src[64], dst[64], want[64];
			struct uvfs_dentry_info vi;
			int fd;
			/* "L" names are padded to 48 bytes, external in every era */
			const char *in[3] = { pairs[p][0], pairs[p][1], pairs[p][2] };
			char *out[3] = { src + 1, dst + 1, want };

			src[0] = dst[0] = '/';
			for (int k = 0; k < 3; k++) {
				size_t n = strlen(in[k]);

				memcpy(out[k], in[k], n + 1);
				if (in[k][n - 1] == 'L') {
					memset(out[k] + n, 'x', 48 - n);
					out[k][48] = 0;
				}
			}
			assert_true(strlen(src) - 1 == 3 || strlen(src) - 1 == 48);
			assert_int_equal(uvfs_mknodat(t, AT_FDCWD, src, S_IFREG | 0644, 0), 0);
			fd = uvfs_openat(t, AT_FDCWD, dst, O_CREAT | O_RDONLY, 0644);
			assert_true(fd >= 0);
			assert_int_equal(uvfs_renameat2(t, AT_FDCWD, src, AT_FDCWD, dst, 0), 0);
			assert_int_equal(uvfs_introspect_fd(t, fd, &vi), 0);
			if (strcmp(vi.name, want) || vi.hashed)
				fail_msg("the article's table, %s, mv %s %s: the victim is \"%s\"%s, "
					 "expected \"%s\" unhashed", abi_names[rows[i].e], src, dst,
					 vi.name, vi.hashed ? " (hashed)" : "", want);
			uvfs_free(fs);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T2(e) cmocka_unit_test(test_rename_##e), cmocka_unit_test(test_exchange_##e)
		T2(E_LINUX), T2(E_4_17), T2(E_3_18), T2(E_3_17), T2(E_3_15), T2(E_3_14),
		cmocka_unit_test(test_article_table),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
