/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * leases.h - file leases (fcntl F_SETLEASE/F_GETLEASE; the lease half of the kernel's
 * fs/locks.c): a read lease lasts until someone opens the file for writing, a write
 * lease until anyone opens it; such an open (or a truncate) tells the holder (SIGIO,
 * send_sigio()) and waits for it to give the lease up or down, lease-break-time at
 * most.
 *
 * Locking: ns_lock, for the instance's list and every lease in it; a breaker waits on
 * uvfs.lease_wait with ns_lock given up (uvfs_cond_wait_until).
 */
#ifndef UVFS_LEASES_H
#define UVFS_LEASES_H

#include "file.h"
#include "inode.h"

struct uvfs_task;

/* fcntl(fd, F_SETLEASE, arg) and fcntl(fd, F_GETLEASE) on f, by task t */
int fcntl_setlease(struct uvfs_task *t, int fd, struct file *f, int arg);
int fcntl_getlease(struct file *f);

int __break_lease(struct inode *inode, unsigned int mode);
/* uvfs_free(): what uvfs_lease_lost_take() was not asked for.  ns_lock. */
void leases_exit(struct uvfs *fs);
/*
 * break_lease(): an open with flags mode (O_ACCMODE, O_NONBLOCK), or a truncate
 * (O_WRONLY), of inode, which has write access counted already: 0 once no lease
 * conflicts; -EWOULDBLOCK with O_NONBLOCK, the break begun; -ERESTARTSYS when the
 * caller's uvfs_intr is raised meanwhile (ns_lock is given up while it waits);
 * -UVFS_EWOULDWAIT under uvfs_set_nowait(), nothing done.  ns_lock.
 */
static inline int break_lease(struct inode *inode, unsigned int mode)
{
	return (inode->i_state & I_LEASES) ? __break_lease(inode, mode) : 0;
}

void __locks_remove_lease(struct file *f);
/* f's last reference is going: its lease with it (locks_remove_file()).  ns_lock. */
static inline void locks_remove_lease(struct file *f)
{
	if (f->f_inode->i_state & I_LEASES)
		__locks_remove_lease(f);
}

#endif /* UVFS_LEASES_H */
