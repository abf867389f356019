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

/* ida_alloc_min(): the lowest free id >= min, or -ENOMEM (nothing changed).  A word
 * at a time from the first that is not full: a scan bit by bit from min was a pass
 * over every id in use per allocation (fuzz_ops: 100,000 mounts of recursive binds
 * took more than 20 s in mnt_alloc). */
static inline int ida_alloc_min(struct ida *ida, int min)
{
	int w = min / IDA_BITS > ida->full ? min / IDA_BITS : ida->full, id = -1;

	for (; w < ida->words; w++) {
		unsigned long free_bits = ~ida->bits[w];

		if (w == min / IDA_BITS)
			free_bits &= ~0ul << (min % IDA_BITS);  /* not below min */
		if (free_bits) {
			id = w * IDA_BITS + __builtin_ctzl(free_bits);
			break;
		}
	}
	if (id < 0) {
		int need = (w > min / IDA_BITS ? w : min / IDA_BITS) + 1;
		int words = need > ida->words * 2 ? need : ida->words * 2;
		unsigned long *bits = uvfs_realloc(ida->bits, (size_t)words * sizeof(*bits));

		if (!bits)
			return -ENOMEM;
		memset(bits + ida->words, 0, (size_t)(words - ida->words) * sizeof(*bits));
		ida->bits = bits;
		ida->words = words;
		id = w * IDA_BITS > min ? w * IDA_BITS : min;
	}
	ida->bits[id / IDA_BITS] |= 1ul << (id % IDA_BITS);
	while (ida->full < ida->words && ida->bits[ida->full] == ~0ul)
		ida->full++;
	return id;
}

static inline void ida_free(struct ida *ida, int id)
{
	ida->bits[id / IDA_BITS] &= ~(1ul << (id % IDA_BITS));
	if (id / IDA_BITS < ida->full)
		ida->full = id / IDA_BITS;
}

static inline void ida_destroy(struct ida *ida)
{
	free(ida->bits);
	ida->bits = NULL;
	ida->words = 0;
	ida->full = 0;
}

#endif /* UVFS_IDA_H */
