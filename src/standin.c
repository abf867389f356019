// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * standin.c - the embedder's stand-ins of inodes that have no place of their own for
 * one (uvfs_standin(): memfs's directories, procfs's files), one per inode while an
 * open file of it holds it.
 *
 * A runner puts a kernel object at each uvfs descriptor's number in its program
 * (uvfs-run: the real file, a memfd, a directory or a null-device node of its own),
 * and the kernel's flock and POSIX locks land on that object: two opens of one file
 * must share it, two files must not.  Linux keeps a lock in the inode
 * (locks_inode_context()), so /proc/self/stat opened twice conflicts with itself and
 * not with /proc/self/status.  A fifo keeps its own in its pipe (pipe.c);
 * simple_standin() serves any other inode, from a list of the instance's: few files
 * of such kinds are open at once, and one nobody has open costs the embedder no
 * descriptor (a runner holds none per directory of a tree its program only walked).
 *
 * Locking: uvfs.standins, every struct standin and file.f_standin are protected by
 * uvfs.ns_lock (the only lock here); make() is called with it held, as
 * uvfs_standin() says.
 */
#include <unistd.h>

#include "file.h"
#include "inode.h"
#include "standin.h"

struct standin {
	struct inode *inode;    /* immutable; held by the open files handed the stand-in */
	int fd;                 /* immutable: the embedder's, closed with the last of them */
	unsigned int users;     /* ns_lock: open files handed it */
	struct standin *next;   /* ns_lock: uvfs.standins */
};

int simple_standin(struct file *f, int (*make)(void *arg), void *arg)
{
	struct uvfs *fs = f->f_inode->i_sb->s_fs;
	struct standin *st;

	assert(ns_locked(fs));
	if (f->f_standin)
		return f->f_standin->fd;
	for (st = fs->standins; st && st->inode != f->f_inode; st = st->next)
		;
	if (!st) {
		int fd;

		st = uvfs_malloc(sizeof(*st));  /* before anything is made */
		if (!st)
			return -ENOMEM;
		fd = make(arg);
		if (fd < 0) {
			free(st);
			return fd < -4095 ? -EINVAL : fd;
		}
		st->inode = f->f_inode;
		st->fd = fd;
		st->users = 0;
		st->next = fs->standins;
		fs->standins = st;
	}
	st->users++;
	f->f_standin = st;
	return st->fd;
}

void standin_release(struct file *f)
{
	struct uvfs *fs = f->f_inode->i_sb->s_fs;
	struct standin *st = f->f_standin, **p;

	assert(ns_locked(fs));
	if (!st)
		return;
	f->f_standin = NULL;
	if (--st->users)
		return;
	for (p = &fs->standins; *p != st; p = &(*p)->next)
		;
	*p = st->next;
	close(st->fd);
	free(st);
}
