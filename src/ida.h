/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ida.h - small integer ids, the lowest free one first, given back when freed (the
 * kernel's IDA, lib/idr.c): mount ids (mnt_id_ida) and the minor numbers of
 * anonymous devices (get_anon_bdev()), both of which Linux reuses — so must uvfs,
 * or mountinfo and st_dev would not show what the kernel shows.
 *
 * Locking: the owner's (uvfs.ns_lock for both users).
 */
#ifndef UVFS_IDA_H
#define UVFS_IDA_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define IDA_BITS (8 * (int)sizeof(unsigned long))

/* The first word >= w that is not full, by the summary: words/64 steps at most. */
static inline int ida_first_open_word(const struct ida *ida, int w)
{
	int sw = w / IDA_BITS, swords = (ida->words + IDA_BITS - 1) / IDA_BITS;
	unsigned long open = sw < swords ? ~ida->full[sw] & (~0ul << (w % IDA_BITS)) : 0;

	while (!open && ++sw < swords)
		open = ~ida->full[sw];
	if (!open)
		return ida->words;
	w = sw * IDA_BITS + __builtin_ctzl(open);
	return w < ida->words ? w : ida->words;
}

/*
 * ida_alloc_min(): the lowest free id >= min, or -ENOMEM (nothing changed).  The
 * word of min, then the first word not full after it, found through a summary of
 * full words -- a search that started at the first open word and walked the full
 * ones after every allocation, or tested each id, was a pass over the ids in use
 * per allocation (fuzz_ops: 100,000 mounts of recursive binds, a bind and an unmount
 * at a time, took more than 20 s in mnt_alloc, twice).
 */
static inline int ida_alloc_min(struct ida *ida, int min)
{
	int w = min / IDA_BITS, id = -1;

	if (w < ida->words) {
		unsigned long free_bits = ~ida->bits[w] & (~0ul << (min % IDA_BITS));

		if (free_bits)
			id = w * IDA_BITS + __builtin_ctzl(free_bits);
		else
			w = ida_first_open_word(ida, w + 1);
		if (id < 0 && w < ida->words)
			id = w * IDA_BITS + __builtin_ctzl(~ida->bits[w]);
	}
	if (id < 0) {
		/* every word from min's on is full, or min is beyond them: grow */
		int need = (w > min / IDA_BITS ? w : min / IDA_BITS) + 1;
		int words = need > ida->words * 2 ? need : ida->words * 2;
		int sw_old = (ida->words + IDA_BITS - 1) / IDA_BITS;
		int sw_new = (words + IDA_BITS - 1) / IDA_BITS;
		unsigned long *bits = uvfs_malloc((size_t)words * sizeof(*bits));
		unsigned long *full = uvfs_malloc((size_t)sw_new * sizeof(*full));

		if (!bits || !full) {
			free(bits);
			free(full);
			return -ENOMEM;
		}
		if (ida->words) {
			memcpy(bits, ida->bits, (size_t)ida->words * sizeof(*bits));
			memcpy(full, ida->full, (size_t)sw_old * sizeof(*full));
		}
		memset(bits + ida->words, 0, (size_t)(words - ida->words) * sizeof(*bits));
		memset(full + sw_old, 0, (size_t)(sw_new - sw_old) * sizeof(*full));
		free(ida->bits);
		free(ida->full);
		ida->bits = bits;
		ida->full = full;
		w = w > min / IDA_BITS ? w : min / IDA_BITS;
		ida->words = words;
		id = w * IDA_BITS > min ? w * IDA_BITS : min;
	}
	w = id / IDA_BITS;
	ida->bits[w] |= 1ul << (id % IDA_BITS);
	if (ida->bits[w] == ~0ul)
		ida->full[w / IDA_BITS] |= 1ul << (w % IDA_BITS);
	return id;
}

static inline void ida_free(struct ida *ida, int id)
{
	int w = id / IDA_BITS;

	ida->bits[w] &= ~(1ul << (id % IDA_BITS));
	ida->full[w / IDA_BITS] &= ~(1ul << (w % IDA_BITS));
}

static inline void ida_destroy(struct ida *ida)
{
	free(ida->bits);
	free(ida->full);
	ida->bits = NULL;
	ida->full = NULL;
	ida->words = 0;
}

#endif /* UVFS_IDA_H */
