// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * simple_xattr.c - extended attributes kept in memory (fs/xattr.c's simple_xattr_*),
 * in a table per superblock keyed by the inode (simple_xattr.h says why).
 *
 * Each inode's attributes are an array sorted by name, descending: listxattr gives
 * them in that order, as 6.18's tmpfs does (tests/uvfs-run/xattr.py asks the kernel),
 * and an inode has few, so a binary search and a memmove are all a change costs.
 *
 * Locking: ns_lock (every caller holds it; the table and the arrays are never read
 * without it).
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include "simple_xattr.h"

/* One attribute: its name (NUL-terminated) followed by its value, in one block. */
struct simple_xattr {
	size_t size;       /* the value's bytes */
	size_t name_len;   /* strlen(name) */
	char data[];       /* name, NUL, value */
};

struct simple_xattrs {
	struct simple_xattrs *next;    /* the bucket's chain */
	const struct inode *inode;     /* the key */
	unsigned int nr, cap;
	struct simple_xattr **v;       /* nr of them, by name descending */
};

static inline const char *x_name(const struct simple_xattr *x) { return x->data; }
static inline const char *x_value(const struct simple_xattr *x) { return x->data + x->name_len + 1; }

static size_t bucket_of(const struct simple_xattr_table *t, const struct inode *inode)
{
	uint64_t h = (uint64_t)(uintptr_t)inode * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (t->nbuckets - 1);
}

static struct simple_xattrs *xattrs_of(const struct simple_xattr_table *t,
				       const struct inode *inode)
{
	struct simple_xattrs *xs;

	if (!(inode->i_state & I_XATTRS))
		return NULL;
	for (xs = t->buckets[bucket_of(t, inode)]; xs; xs = xs->next)
		if (xs->inode == inode)
			return xs;
	return NULL;
}

/* The index of name, or of where it would go (*found false). */
static unsigned int xattr_find(const struct simple_xattrs *xs, const char *name, bool *found)
{
	unsigned int lo = 0, hi = xs->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(name, x_name(xs->v[mid]));

		if (!c) {
			*found = true;
			return mid;
		}
		if (c > 0)     /* descending: a greater name comes first */
			hi = mid;
		else
			lo = mid + 1;
	}
	*found = false;
	return lo;
}

ssize_t simple_xattr_get(const struct simple_xattr_table *t, const struct inode *inode,
			 const char *name, void *buf, size_t size)
{
	const struct simple_xattrs *xs = xattrs_of(t, inode);
	const struct simple_xattr *x;
	bool found = false;
	unsigned int i = 0;

	if (xs)
		i = xattr_find(xs, name, &found);
	if (!found)
		return -ENODATA;
	x = xs->v[i];
	if (size) {
		if (size < x->size)
			return -ERANGE;
		memcpy(buf, x_value(x), x->size);
	}
	return (ssize_t)x->size;
}

/* Twice the chains when there are more inodes than chains; a table that cannot grow
 * stays as it is, only slower. */
static void table_grow(struct simple_xattr_table *t)
{
	size_t n = t->nbuckets ? t->nbuckets * 2 : 64;
	struct simple_xattrs **b = uvfs_zalloc(n * sizeof(*b));
	struct simple_xattr_table nt = { .buckets = b, .nbuckets = n };

	if (!b)
		return;
	for (size_t i = 0; i < t->nbuckets; i++) {
		while (t->buckets[i]) {
			struct simple_xattrs *xs = t->buckets[i];
			size_t j = bucket_of(&nt, xs->inode);

			t->buckets[i] = xs->next;
			xs->next = b[j];
			b[j] = xs;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

static void table_unlink(struct simple_xattr_table *t, struct simple_xattrs *xs)
{
	struct simple_xattrs **pp = &t->buckets[bucket_of(t, xs->inode)];

	while (*pp != xs)
		pp = &(*pp)->next;
	*pp = xs->next;
	t->count--;
}

int simple_xattr_set(struct simple_xattr_table *t, struct inode *inode, const char *name,
		     const void *value, size_t size, int flags, size_t *old_space)
{
	struct simple_xattrs *xs = NULL;
	struct simple_xattr *x = NULL, *old;
	bool found = false, fresh = false;
	unsigned int i = 0;

	*old_space = 0;
	if (t->nbuckets)
		xs = xattrs_of(t, inode);
	if (xs)
		i = xattr_find(xs, name, &found);
	if (found && (flags & XATTR_CREATE))
		return -EEXIST;
	if (!found && (!value || (flags & XATTR_REPLACE)))
		return -ENODATA;
	/* everything this may need is allocated before anything changes */
	if (value) {
		size_t len = strlen(name);

		x = uvfs_malloc(sizeof(*x) + len + 1 + size);
		if (!x)
			return -ENOMEM;
		x->size = size;
		x->name_len = len;
		memcpy(x->data, name, len + 1);
		if (size)
			memcpy(x->data + len + 1, value, size);
	}
	if (!xs && value) {
		if (t->count >= t->nbuckets)
			table_grow(t);
		if (!t->nbuckets || !(xs = uvfs_zalloc(sizeof(*xs)))) {
			free(x);
			return -ENOMEM;
		}
		xs->inode = inode;
		fresh = true;
	}
	if (x && !found && xs->nr == xs->cap) {
		unsigned int cap = xs->cap ? xs->cap * 2 : 4;
		struct simple_xattr **v = uvfs_realloc(xs->v, cap * sizeof(*v));

		if (!v) {
			free(x);
			if (fresh)
				free(xs);
			return -ENOMEM;
		}
		xs->v = v;
		xs->cap = cap;
	}
	if (fresh) {
		size_t b = bucket_of(t, inode);

		xs->next = t->buckets[b];
		t->buckets[b] = xs;
		t->count++;
		inode->i_state |= I_XATTRS;
	}
	if (found) {
		old = xs->v[i];
		*old_space = simple_xattr_space(x_name(old), old->size);
		free(old);
		if (x) {
			xs->v[i] = x;
			return 0;
		}
		memmove(&xs->v[i], &xs->v[i + 1], (xs->nr - i - 1) * sizeof(*xs->v));
		if (!--xs->nr) {
			table_unlink(t, xs);
			free(xs->v);
			free(xs);
			inode->i_state &= (uint8_t)~I_XATTRS;
		}
		return 0;
	}
	memmove(&xs->v[i + 1], &xs->v[i], (xs->nr - i) * sizeof(*xs->v));
	xs->v[i] = x;
	xs->nr++;
	return 0;
}

ssize_t simple_xattr_list(const struct simple_xattr_table *t, const struct inode *inode,
			  bool trusted, char *buf, size_t size)
{
	const struct simple_xattrs *xs = xattrs_of(t, inode);
	size_t len = 0;

	for (unsigned int i = 0; xs && i < xs->nr; i++) {
		const struct simple_xattr *x = xs->v[i];

		if (!trusted && !strncmp(x_name(x), "trusted.", 8))
			continue;
		if (size) {
			if (len + x->name_len + 1 > size)
				return -ERANGE;
			memcpy(buf + len, x_name(x), x->name_len + 1);
		}
		len += x->name_len + 1;
	}
	return (ssize_t)len;
}

size_t simple_xattrs_free(struct simple_xattr_table *t, struct inode *inode)
{
	struct simple_xattrs *xs = t->nbuckets ? xattrs_of(t, inode) : NULL;
	size_t space = 0;

	if (!xs)
		return 0;
	for (unsigned int i = 0; i < xs->nr; i++) {
		space += simple_xattr_space(x_name(xs->v[i]), xs->v[i]->size);
		free(xs->v[i]);
	}
	table_unlink(t, xs);
	free(xs->v);
	free(xs);
	inode->i_state &= (uint8_t)~I_XATTRS;
	return space;
}

void simple_xattr_table_destroy(struct simple_xattr_table *t)
{
	assert(!t->count);
	free(t->buckets);
	t->buckets = NULL;
	t->nbuckets = 0;
}
