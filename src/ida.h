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

/* ida_alloc_min(): the lowest free id >= min, or -ENOMEM (nothing changed) */
static inline int ida_alloc_min(struct ida *ida, int min)
{
	int id;

	for (id = min; id < ida->words * IDA_BITS; id++)
		if (!(ida->bits[id / IDA_BITS] & (1ul << (id % IDA_BITS))))
			break;
	if (id >= ida->words * IDA_BITS) {
		int words = id / IDA_BITS + 1 > ida->words * 2 ? id / IDA_BITS + 1 : ida->words * 2;
		unsigned long *bits = uvfs_realloc(ida->bits, (size_t)words * sizeof(*bits));

		if (!bits)
			return -ENOMEM;
		memset(bits + ida->words, 0, (size_t)(words - ida->words) * sizeof(*bits));
		ida->bits = bits;
		ida->words = words;
	}
	ida->bits[id / IDA_BITS] |= 1ul << (id % IDA_BITS);
	return id;
}

static inline void ida_free(struct ida *ida, int id)
{
	ida->bits[id / IDA_BITS] &= ~(1ul << (id % IDA_BITS));
}

static inline void ida_destroy(struct ida *ida)
{
	free(ida->bits);
	ida->bits = NULL;
	ida->words = 0;
}

#endif /* UVFS_IDA_H */
