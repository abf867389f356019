/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* standin.h - the embedder's stand-ins of inodes without one of their own (standin.c) */
#ifndef UVFS_STANDIN_H
#define UVFS_STANDIN_H

struct file;

/* ->standin for inodes that keep nothing for it (memfs's directories, procfs's files): one stand-in per inode, made by
 * make(arg) at the first open file asking, closed when the last one holding it is
 * released.  ns_lock held. */
int simple_standin(struct file *f, int (*make)(void *arg), void *arg);
/* fput(): f's hold on its stand-in, if it was handed one, given back.  ns_lock held. */
void standin_release(struct file *f);

#endif
