// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * simple_offset.c - a directory's readdir offsets (fs/libfs.c's simple_offset_*).
 *
 * The slots are sorted by offset.  A live slot is a dentry pointer (its d_offset is
 * the key); a dead slot, left by a removal, is tagged (bit 0 set) and keeps its
 * offset, so the binary search still sees a sorted array, and the index of a slot
 * below it where a live one may be found:
 *
 *   bits 63..32   link: a lower index to try next (NO_LINK: none below)
 *   bits 31..1    the removed entry's offset (offsets are at most INT32_MAX)
 *   bit  0        1
 *
 * find_rev lands on the last slot whose key is <= pos; if that one is dead it follows
 * the links down, shortening them as it goes (union-find's path compression), so a
 * long run of removed entries is crossed once, not at every getdents call.
 *
 * Locking: everything under the owner's lock (memfs: uvfs.ns_lock).
 */
#include "simple_offset.h"
#include "dcache.h"

#define NO_LINK UINT32_MAX

_Static_assert(sizeof(uintptr_t) == 8, "a dead slot packs a 32-bit link and an offset");

static inline uint32_t slot_link(uintptr_t s) { return (uint32_t)(s >> 32); }

static inline uintptr_t dead_slot(uint32_t offset, uint32_t link)
{
	return (uintptr_t)link << 32 | (uintptr_t)(offset & INT32_MAX) << 1 | 1;
}

/* Drop the dead slots: the live ones keep their order. */
static void compact(struct offset_ctx *ctx, unsigned long *steps)
{
	uint32_t i, n = 0;

	*steps += ctx->nr;
	for (i = 0; i < ctx->nr; i++)
		if (!slot_dead(ctx->slot[i]))
			ctx->slot[n++] = ctx->slot[i];
	ctx->nr = n;
	ctx->dead = 0;
}

int __simple_offset_reserve(struct offset_ctx **pctx, unsigned int n, unsigned long *steps)
{
	struct offset_ctx *ctx = *pctx;
	size_t cap;

	if (ctx && ctx->dead >= ctx->nr / 4) {
		compact(ctx, steps);
		if (ctx->cap - ctx->nr >= n)
			return 0;
	}
	/* 1.5x: the slack is memory every directory pays (docs/PERFORMANCE.md) */
	cap = ctx ? (size_t)ctx->cap + ctx->cap / 2 + n : n + 3;
	if (cap > INT32_MAX)
		return -ENOMEM;
	ctx = uvfs_realloc(ctx, sizeof(*ctx) + cap * sizeof(ctx->slot[0]));
	if (!ctx)
		return -ENOMEM;
	if (!*pctx)
		ctx->nr = ctx->dead = 0;
	ctx->cap = (uint32_t)cap;
	*pctx = ctx;
	return 0;
}

void __simple_offset_add(struct offset_ctx *ctx, struct dentry *d, unsigned long *steps)
{
	uint32_t i = ctx->nr, k;

	assert(ctx && ctx->nr < ctx->cap);
	assert(!((uintptr_t)d & 1));
	/* Nearly always an append (simple_offset_add, inline).  A rename's whiteout, numbered after the renamed
	 * entry's new offset but added first, puts the entry one slot before the end. */
	while (i && slot_key(ctx->slot[i - 1]) > d->d_offset) {
		(*steps)++;
		i--;
	}
	memmove(&ctx->slot[i + 1], &ctx->slot[i], (ctx->nr - i) * sizeof(ctx->slot[0]));
	ctx->slot[i] = (uintptr_t)d;
	ctx->nr++;
	/* The slots moved up are live: the map never ends with a dead slot (a removal
	 * at the end takes the dead ones below with it), and only the last one moves.
	 * So no dead slot's link has to move with them. */
	for (k = i + 1; k < ctx->nr; k++)
		assert(!slot_dead(ctx->slot[k]));
}

/* The index of the last slot whose key is <= pos, or -1. */
static long last_at_most(const struct offset_ctx *ctx, uint64_t pos, unsigned long *steps)
{
	long lo = 0, hi = (long)ctx->nr; /* the answer + 1 is in [lo, hi] */
	unsigned long probes = 0;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		probes++;
		if (slot_key(ctx->slot[mid]) <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	*steps += probes;
	return lo - 1;
}

static uint32_t index_of(const struct offset_ctx *ctx, uint32_t offset, unsigned long *steps)
{
	long i;

	/* the newest entry first: most changes are to what was just made */
	if (!slot_dead(ctx->slot[ctx->nr - 1]) && slot_key(ctx->slot[ctx->nr - 1]) == offset)
		return ctx->nr - 1;
	i = last_at_most(ctx, offset, steps);

	assert(i >= 0 && slot_key(ctx->slot[i]) == offset && !slot_dead(ctx->slot[i]));
	return (uint32_t)i;
}

void __simple_offset_remove(struct offset_ctx *ctx, uint32_t offset, unsigned long *steps)
{
	uint32_t i = index_of(ctx, offset, steps);

	if (i == ctx->nr - 1) {
		/* the newest entry (a create undone, an rm of the latest): no tombstone,
		 * and the dead ones it covered go too */
		ctx->nr--;
		while (ctx->nr && slot_dead(ctx->slot[ctx->nr - 1])) {
			ctx->nr--;
			ctx->dead--;
		}
		return;
	}
	ctx->slot[i] = dead_slot(offset, i ? i - 1 : NO_LINK);
	ctx->dead++;
	/* half dead: compact now, so a directory emptied from its oldest entry on does
	 * not keep its size (amortised: nr/2 removals paid for it) */
	if (ctx->dead > ctx->nr / 2)
		compact(ctx, steps);
}

void simple_offset_exchange(struct offset_ctx *ca, struct dentry *a, struct offset_ctx *cb,
			    struct dentry *b, unsigned long *steps)
{
	/* both indexes first: the search reads the dentries' offsets */
	uint32_t ia = index_of(ca, a->d_offset, steps), ib = index_of(cb, b->d_offset, steps);
	uint32_t o = a->d_offset;

	a->d_offset = b->d_offset;
	b->d_offset = o;
	ca->slot[ia] = (uintptr_t)b;
	cb->slot[ib] = (uintptr_t)a;
}

struct dentry *simple_offset_find_rev(struct offset_ctx *ctx, uint64_t pos,
				      unsigned long *steps)
{
	long i;
	uint32_t j, k, next;

	if (!ctx || !ctx->nr)
		return NULL;
	i = last_at_most(ctx, pos, steps);
	if (i < 0)
		return NULL;
	j = (uint32_t)i;
	while (j != NO_LINK && slot_dead(ctx->slot[j])) {
		(*steps)++;
		j = slot_link(ctx->slot[j]);
	}
	/* every dead slot passed on the way now links straight to j */
	for (k = (uint32_t)i; k != j && slot_dead(ctx->slot[k]); k = next) {
		next = slot_link(ctx->slot[k]);
		ctx->slot[k] = dead_slot(slot_key(ctx->slot[k]), j);
	}
	return j == NO_LINK ? NULL : (struct dentry *)ctx->slot[j];
}

size_t simple_offset_count(const struct offset_ctx *ctx)
{
	return ctx ? ctx->nr - ctx->dead : 0;
}

void simple_offset_destroy(struct offset_ctx *ctx)
{
	free(ctx);
}
