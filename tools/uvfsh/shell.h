/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * shell.h - the uvfsh interpreter: a bash-like subset over a sysscript backend, so
 * that the same script runs on uvfs or on the host kernel.
 */
#ifndef UVFSH_SHELL_H
#define UVFSH_SHELL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "sysscript.h"

struct uvfs;
struct uvfs_task;

#define SHELL_MAX_TASKS 64

struct shell {
	struct sys_backend *b;
	struct uvfs *fs;            /* NULL on the host kernel */
	FILE *out;                  /* standard output */
	FILE *err;                  /* standard error (the same stream when captured) */
	int status;                 /* $? */
	bool errexit;               /* set -e */
	bool exit_requested;
	int exit_status;
	/* Stable output (--stable, --compare, --abi all, golden tests): times print as
	 * "<time>", inode numbers as identities "#N", so that two systems compare. */
	bool stable;
	int redirect_fd;            /* backend fd of a "> file" for the running command */
	struct sysscript sys;       /* the "sys" command's engine (identity map shared) */
	struct uvfs_task *tasks[SHELL_MAX_TASKS];
	int ntasks, current;        /* uvfs only */
};

/* A shell on backend b (fs: its uvfs instance, or NULL for the host). */
void shell_init(struct shell *sh, struct sys_backend *b, struct uvfs *fs, FILE *out, FILE *err);
/* Make the directories a minimal Linux system starts with (/tmp 1777, /root 0700,
 * /dev, /etc, /home, /usr, /var, /var/tmp): 0, or -errno after a message. */
int shell_boot(struct shell *sh);
void shell_done(struct shell *sh);
/* Run one line (commands separated by ';'); returns the last status. */
int shell_line(struct shell *sh, const char *line);
/* Run a whole script; stops early on exit or, with set -e, at the first failure. */
int shell_script(struct shell *sh, const char *text);
/* The prompt for interactive use: "uvfsh:/cwd# ". */
void shell_prompt(struct shell *sh, char *buf, size_t n);

#endif
