/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pipe.h - the buffer behind a fifo (fs/pipe.c): 64 KiB, blocking as Linux blocks,
 * waiting with ns_lock released.
 */
#ifndef UVFS_PIPE_H
#define UVFS_PIPE_H

#include "inode.h"

#define UVFS_PIPE_SIZE 65536
#define UVFS_PIPE_BUF 4096

struct pipe {
	char *buf;             /* ring of UVFS_PIPE_SIZE bytes */
	size_t head, len;      /* ns_lock */
	unsigned int readers;  /* ns_lock: open descriptions reading */
	unsigned int writers;  /* ns_lock */
	unsigned long r_counter, w_counter; /* ns_lock: opens so far, for fifo_open */
	struct uvfs_waitq wait;  /* woken on every change (lock.h) */
	/* ns_lock: the embedder's stand-in of the fifo (uvfs_standin), its descriptor
	 * + 1 (0: none), and the open files handed it (marked by private_data) */
	int standin;
	unsigned int standin_users;
};

extern const struct file_operations pipe_fops;
void pipe_free(struct pipe *p);
/* ->standin of a fifo (memfs's, a host mount's): one per fifo while it is open */
int fifo_standin(struct file *f, int (*make)(void *arg), void *arg);

#endif /* UVFS_PIPE_H */
