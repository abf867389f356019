/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc_namespace.h - the text of /proc/PID/mounts and /proc/PID/mountinfo, for
 * procfs.c (proc_namespace.c).
 */
#ifndef UVFS_PROC_NAMESPACE_H
#define UVFS_PROC_NAMESPACE_H

#include <stdbool.h>
#include <stddef.h>

struct uvfs_task;

/* Task t's mounts as /proc/t/mounts (info false) or /proc/t/mountinfo prints them:
 * a malloc'ed text of *len bytes, or NULL (ENOMEM).  Under ns_lock. */
char *proc_mounts_text(struct uvfs_task *t, bool info, size_t *len);

#endif /* UVFS_PROC_NAMESPACE_H */
