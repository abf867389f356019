/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz_common.h - what every fuzz target shares: a uvfs backend that makes no fifos
 * (opening one without a peer waits for it, forever in a single-threaded target) and
 * whose calls never wait,
 * input limits, and the checks after a run: every object the instance made is gone
 * once it is freed.  Any failed check aborts, which libFuzzer reports with the input.
 */
#ifndef UVFS_FUZZ_COMMON_H
#define UVFS_FUZZ_COMMON_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "introspect.h"
#include "sysscript.h"
#include "uvfs/uvfs.h"

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz: check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		abort(); \
	} \
} while (0)

static int (*fuzz_real_mknodat)(void *ctx, int dfd, const char *path, mode_t mode, dev_t dev);

static int fuzz_mknodat(void *ctx, int dfd, const char *path, mode_t mode, dev_t dev)
{
	if ((mode & S_IFMT) == S_IFIFO)
		return -EPERM;  /* the harness's rule, not uvfs's: see above */
	return fuzz_real_mknodat(ctx, dfd, path, mode, dev);
}

/* A uvfs backend with /proc held at 1023, as the differential scripts expect; and
 * no call waits (uvfs_set_nowait): a read of an inotify descriptor with nothing
 * queued would wait forever in a single-threaded target, where it is -UVFS_EWOULDWAIT
 * instead -- the fuzz_sysscript input CI's minute found, "inotify_init1 0" then a
 * read of it. */
static inline struct sys_backend *fuzz_backend(void)
{
	struct sys_backend *b = sys_backend_uvfs_proc(NULL);

	FUZZ_CHECK(b);
	uvfs_set_nowait(1);
	fuzz_real_mknodat = b->mknodat;
	b->mknodat = fuzz_mknodat;
	return b;
}

/* The largest buffer a script's call may ask for: a read of gigabytes (of a sparse
 * file near 2^63) fills them, which tests memset, not uvfs, and passes libFuzzer's
 * 2 GB memory limit (fuzz_sysscript's one finding in its long run). */
#define FUZZ_MAX_BUFFER ((size_t)64 << 20)

/* "{c*N}" makes N bytes: inputs asking for more than a megabyte are not runs
 * worth making (the time goes to memset, not to uvfs). */
static inline int fuzz_text_ok(const char *text)
{
	for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{'))
		if (p[1] && p[2] == '*' && strtoul(p + 3, NULL, 10) > (1ul << 20))
			return 0;
	return 1;
}

/* The input as a NUL-terminated text, or NULL when it is not worth a run (the
 * caller returns -1: not added to the corpus). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	FUZZ_CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	if (!fuzz_text_ok(text)) {
		free(text);
		return NULL;
	}
	return text;
}

/* The input, consumed a few bytes at a time; zeros once it is used up. */
struct input {
	const uint8_t *p;
	size_t n;
};

static inline uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v = v << 8 | (in->n ? *in->p : 0);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* After uvfs_free: nothing of the instance is left (dentries, names, inodes, files,
 * tasks).  The counts are process-wide; each run frees its instance before this. */
static inline void fuzz_check_nothing_left(void)
{
	struct uvfs_live_counts c;

	uvfs_live_counts(&c);
	FUZZ_CHECK(c.dentries == 0 && c.names == 0 && c.inodes == 0 && c.files == 0 &&
		   c.tasks == 0 && c.instances == 0);
}

/* While it lives: no counter below zero, no more files than the limits allow. */
static inline void fuzz_check_stats(struct uvfs *fs)
{
	struct uvfs_cache_stats st;

	uvfs_get_stats(fs, &st);
	FUZZ_CHECK(st.dentries >= 0 && st.names >= 0 && st.name_bytes >= 0 && st.inodes >= 0 &&
		   st.data_bytes >= 0 && st.files >= 0);
	FUZZ_CHECK(st.hits + st.negative_hits + st.misses <= st.lookups);
}

#endif
