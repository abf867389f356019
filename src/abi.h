/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * abi.h - personalities: what the dentry layer did with names and parents on rename
 * in each kernel era.  This is the only module that knows about eras; dcache.c asks
 * it two questions per d_move and nothing else does.
 *
 * All fields are immutable (the table is const).
 */
#ifndef UVFS_ABI_H
#define UVFS_ABI_H

#include <stdbool.h>

struct uvfs_abi {
	const char *name;        /* "linux", "linux-4.17", ... */
	const char *kernels;     /* the releases it stands for, "3.15-3.16" */
	const char *commit;      /* the commit that made this era's rule */
	/* DNAME_INLINE_LEN of the era on 64-bit: names of up to inline_len - 1 bytes
	 * are inline.  Always <= UVFS_DNAME_INLINE_LEN (the buffer is that large). */
	unsigned int inline_len;
	bool has_exchange;       /* RENAME_EXCHANGE exists (3.15+) */
	/* How a plain rename gives the mover the victim's name:
	 *   ABI_NAMES_COPY         copy_name(): copy an inline name, share an external
	 *                          one by reference (3.18+, 8d85b4845a66)
	 *   ABI_NAMES_COPY_INLINE  both inline: copy into the mover, the victim keeps its
	 *                          own; any external: swap (<= 3.14, and 3.17 after
	 *                          d2fa4a8476b9)
	 *   ABI_NAMES_SWAP         always swap (3.15-3.16, da1ce0670c14) */
	enum { ABI_NAMES_COPY, ABI_NAMES_COPY_INLINE, ABI_NAMES_SWAP } rename_names;
	/* The victim of a plain rename keeps its parent (4.17+, 076515fc9267); before,
	 * it took the mover's old parent. */
	bool victim_keeps_parent;
};

/* The personality called name, or NULL. */
const struct uvfs_abi *abi_lookup(const char *name);
/* Every personality, newest first, NULL-terminated. */
extern const struct uvfs_abi *const abi_all[];

/* Plain rename: does the mover copy the victim's name (true), or do the two swap?
 * The arguments say whether each name is inline now. */
bool abi_rename_copies_name(const struct uvfs_abi *abi, bool mover_inline,
			    bool victim_inline);

/* Does renameat2 know RENAME_EXCHANGE (3.15+, da1ce0670c14)? */
static inline bool abi_has_exchange(const struct uvfs_abi *abi)
{
	return abi->has_exchange;
}

#endif /* UVFS_ABI_H */
