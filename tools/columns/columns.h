/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * columns.h - outputs side by side, for --abi all.
 */
#ifndef UVFS_COLUMNS_H
#define UVFS_COLUMNS_H

#define COLUMNS_MAX 16

/* Print outs[i] (made under names[i], n of them, at most COLUMNS_MAX) as columns:
 * one per distinct output, headed by the names that printed it; '*' marks the
 * lines on which they differ, and a line the same in all is printed once. */
void columns_print(const char *const *names, const char *const *outs, int n);

#endif
