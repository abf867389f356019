// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * abi.c - the personality table (docs/SEMANTICS.md, "Personalities").
 *
 * Each row reproduces what __d_move() of that era did for a non-exchanging rename,
 * read from the kernel trees named in ../shared/LINUX-SEMANTICS.md section 3:
 *   <= 3.14  switch_names(): both inline -> memcpy the target's name into the mover
 *            and leave the target alone; otherwise swap.  d_parent swapped.
 *   3.15     da1ce0670c14 "vfs: add cross-rename": switch_names() swaps the inline
 *            words too, so a plain rename always swaps.
 *   3.17     d2fa4a8476b9 "vfs: Don't exchange "short" filenames unconditionally":
 *            the both-inline copy is back unless exchanging; external still swapped.
 *   3.18     8d85b4845a66 "Allow sharing external names after __d_move()": copy_name()
 *            shares an external name by refcount, so the victim keeps its name always.
 *   4.17     076515fc9267 "make non-exchanging __d_move() copy ->d_parent rather than
 *            swap them": the victim keeps its parent too.
 *   6.8      "dentry: switch the lists of children to hlist": DNAME_INLINE_LEN 32 -> 40.
 */
#include <string.h>

#include "abi.h"
#include "uvfs/uvfs.h"

static const struct uvfs_abi abi_linux = {
	.name = "linux", .kernels = "6.8+", .commit = "da549bdd15c2 (inline 40)",
	.inline_len = 40, .has_exchange = true,
	.rename_names = ABI_NAMES_COPY, .victim_keeps_parent = true,
};
static const struct uvfs_abi abi_4_17 = {
	.name = "linux-4.17", .kernels = "4.17-6.7", .commit = "076515fc9267",
	.inline_len = 32, .has_exchange = true,
	.rename_names = ABI_NAMES_COPY, .victim_keeps_parent = true,
};
static const struct uvfs_abi abi_3_18 = {
	.name = "linux-3.18", .kernels = "3.18-4.16", .commit = "8d85b4845a66",
	.inline_len = 32, .has_exchange = true,
	.rename_names = ABI_NAMES_COPY, .victim_keeps_parent = false,
};
static const struct uvfs_abi abi_3_17 = {
	.name = "linux-3.17", .kernels = "3.17", .commit = "d2fa4a8476b9",
	.inline_len = 32, .has_exchange = true,
	.rename_names = ABI_NAMES_COPY_INLINE, .victim_keeps_parent = false,
};
static const struct uvfs_abi abi_3_15 = {
	.name = "linux-3.15", .kernels = "3.15-3.16", .commit = "da1ce0670c14",
	.inline_len = 32, .has_exchange = true,
	.rename_names = ABI_NAMES_SWAP, .victim_keeps_parent = false,
};
static const struct uvfs_abi abi_3_14 = {
	.name = "linux-3.14", .kernels = "<=3.14", .commit = "(switch_names before da1ce0670c14)",
	.inline_len = 32, .has_exchange = false,
	.rename_names = ABI_NAMES_COPY_INLINE, .victim_keeps_parent = false,
};

_Static_assert(UVFS_DNAME_INLINE_LEN >= 40, "the inline buffer must hold every era's names");

const struct uvfs_abi *const abi_all[] = {
	&abi_linux, &abi_4_17, &abi_3_18, &abi_3_17, &abi_3_15, &abi_3_14, NULL,
};

const struct uvfs_abi *abi_lookup(const char *name)
{
	for (const struct uvfs_abi *const *a = abi_all; *a; a++)
		if (!strcmp((*a)->name, name))
			return *a;
	return NULL;
}

bool abi_rename_copies_name(const struct uvfs_abi *abi, bool mover_inline,
			    bool victim_inline)
{
	switch (abi->rename_names) {
	case ABI_NAMES_COPY:
		return true;
	case ABI_NAMES_COPY_INLINE:
		return mover_inline && victim_inline;
	case ABI_NAMES_SWAP:
		break;
	}
	return false;
}
