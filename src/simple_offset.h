/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * simple_offset.h - a directory's readdir offsets, as fs/libfs.c's simple_offset.
 *
 * tmpfs (6.14+) gives each entry of a directory an offset when it is added (3, 4, ...
 * in order, never reused: simple_offset_add), keeps offset -> dentry in a maple tree
 * and resumes a listing at the entry with the largest offset not above the file's
 * position (offset_dir_lookup's mas_find_rev), then walks d_children from it.  So a
 * listing whose next entry was removed meanwhile goes on with the entry below it,
 * never from the start again, and finding the position costs O(log n).
 *
 * uvfs keeps the same map as an array sorted by offset: offsets only grow, so an
 * add is an append; a removal leaves a tombstone (the offset, tagged) that a
 * compaction drops when a quarter of the slots are dead; an exchange swaps two
 * slots' dentries.  8 bytes an entry.
 *
 * Locking: the owner's (memfs: uvfs.ns_lock).  The map is never read locklessly.
 */
#ifndef UVFS_SIMPLE_OFFSET_H
#define UVFS_SIMPLE_OFFSET_H

#include "dcache.h"
#include "internal.h"

struct dentry;

/* The map (simple_offset.c says how its slots are kept). */
struct offset_ctx {
	uint32_t nr;      /* slots in use, live and dead */
	uint32_t cap;     /* slots allocated */
	uint32_t dead;    /* dead slots among the nr */
	uint32_t pad;
	uintptr_t slot[];
};

/*
 * Each call adds to *steps the slots it visited: the bounded-cost tests count them
 * (uvfs_cache_stats.dir_steps).
 */

/* Room for n more simple_offset_add() calls, so that those cannot fail: call it
 * before changing anything.  *ctx may be NULL (an empty map): it is allocated.
 * 0 or -ENOMEM. */
int __simple_offset_reserve(struct offset_ctx **ctx, unsigned int n, unsigned long *steps);
static inline int simple_offset_reserve(struct offset_ctx **ctx, unsigned int n,
					unsigned long *steps)
{
	/* inline: there is room nearly always */
	if (*ctx && (*ctx)->cap - (*ctx)->nr >= n)
		return 0;
	return __simple_offset_reserve(ctx, n, steps);
}

static inline bool slot_dead(uintptr_t s) { return s & 1; }

static inline uint32_t slot_key(uintptr_t s)
{
	return slot_dead(s) ? (uint32_t)(s >> 1) & INT32_MAX
			    : ((const struct dentry *)s)->d_offset;
}

/* Add d at d->d_offset, in order (nearly always the largest); room reserved. */
void __simple_offset_add(struct offset_ctx *ctx, struct dentry *d, unsigned long *steps);
static inline void simple_offset_add(struct offset_ctx *ctx, struct dentry *d,
				     unsigned long *steps)
{
	/* inline: an append */
	if (likely(!ctx->nr || slot_key(ctx->slot[ctx->nr - 1]) < d->d_offset) &&
	    !((uintptr_t)d & 1) && ctx->nr < ctx->cap) {
		ctx->slot[ctx->nr++] = (uintptr_t)d;
		return;
	}
	__simple_offset_add(ctx, d, steps);
}

/* Take the entry at offset out (it must be there). */
void __simple_offset_remove(struct offset_ctx *ctx, uint32_t offset, unsigned long *steps);
static inline void simple_offset_remove(struct offset_ctx *ctx, uint32_t offset,
					unsigned long *steps)
{
	/* inline: the newest entry, the common case (a rename back, an rm of what was
	 * just made) — no search, nothing dead left at the end */
	if (likely(!slot_dead(ctx->slot[ctx->nr - 1]) &&
		   slot_key(ctx->slot[ctx->nr - 1]) == offset) &&
	    (ctx->nr < 2 || !slot_dead(ctx->slot[ctx->nr - 2]))) {
		ctx->nr--;
		return;
	}
	__simple_offset_remove(ctx, offset, steps);
}

/* simple_offset_rename_exchange(): a (in map ca) and b (in cb) swap offsets, and
 * each map's slot names the other dentry. */
void simple_offset_exchange(struct offset_ctx *ca, struct dentry *a, struct offset_ctx *cb,
			    struct dentry *b, unsigned long *steps);

/* The entry with the largest offset <= pos, or NULL. */
/* (It writes: path compression shortens the links of the dead slots it crosses.) */
struct dentry *simple_offset_find_rev(struct offset_ctx *ctx, uint64_t pos,
				      unsigned long *steps);

/* Live entries. */
size_t simple_offset_count(const struct offset_ctx *ctx);

void simple_offset_destroy(struct offset_ctx *ctx);

#endif /* UVFS_SIMPLE_OFFSET_H */
