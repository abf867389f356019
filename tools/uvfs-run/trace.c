// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trace.c - the tracer: every thread of the program is a ptrace tracee (forks,
 * vforks, clones and execs followed by the kernel's PTRACE_O_TRACE* options, the
 * whole tree killed if uvfs-run dies: PTRACE_O_EXITKILL), and its threads map to uvfs
 * tasks: a new process (fork, vfork, clone without CLONE_THREAD) is a
 * uvfs_task_fork_as() of its parent's task with the pid the program's pid namespace
 * gave it; a new thread shares its process's task.
 *
 * The loop waits for any tracee and handles one stop at a time:
 *   - PTRACE_EVENT_SECCOMP: a trapped call (syscalls.c);
 *   - a syscall-exit stop (asked for with PTRACE_SYSCALL by a rewritten call);
 *   - PTRACE_EVENT_FORK/VFORK/CLONE: a new tracee; PTRACE_EVENT_EXEC: uvfs follows the
 *     exec the kernel has just done;
 *   - a signal: delivered as it came, but the SIGSTOP every new tracee starts with.
 * A new tracee's first stop may come before its parent's event: it waits, unknown,
 * until the event says whose it is.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run.h"

struct uvfs *run_fs;
pid_t run_tracer_pid;

#define PROC_HASH 4096
static struct proc *procs[PROC_HASH];

static struct proc *proc_find(pid_t tid)
{
	for (struct proc *p = procs[tid % PROC_HASH]; p; p = p->next)
		if (p->tid == tid)
			return p;
	return NULL;
}

static struct proc *proc_add(pid_t tid, struct uproc *up)
{
	struct proc *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->tid = tid;
	p->up = up;
	p->next = procs[tid % PROC_HASH];
	procs[tid % PROC_HASH] = p;
	up->threads++;
	return p;
}

static void uproc_put(struct uproc *up)
{
	if (--up->threads > 0)
		return;
	uvfs_task_exit(up->task);
	free(up->exec_path);
	free(up);
}

static void proc_del(struct proc *p)
{
	struct proc **pp = &procs[p->tid % PROC_HASH];

	while (*pp != p)
		pp = &(*pp)->next;
	*pp = p->next;
	uproc_put(p->up);
	free(p);
}

int mem_read(pid_t tid, unsigned long addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	if (!len)
		return 0;
	return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

int mem_write(pid_t tid, unsigned long addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len }, remote = { (void *)addr, len };

	if (!len)
		return 0;
	return process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

int mem_read_str(pid_t tid, unsigned long addr, char *buf, size_t max)
{
	size_t got = 0;

	if (!addr)
		return -EFAULT;
	/* a page at a time: the string may end just before unmapped memory */
	while (got < max) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		struct iovec local, remote;
		ssize_t n;

		if (chunk > max - got)
			chunk = max - got;
		local = (struct iovec){ buf + got, chunk };
		remote = (struct iovec){ (void *)(addr + got), chunk };
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return -EFAULT;
		if (memchr(buf + got, 0, (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -ENAMETOOLONG;
}

/* The pid a tracee has in the program's pid namespace: NSpid's last field. */
static pid_t ns_pid(pid_t tid, pid_t *tgid)
{
	char path[64], line[256];
	pid_t ns = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5))
			*tgid = (pid_t)atoi(line + 5);
		if (!strncmp(line, "NSpid:", 6)) {
			char *last = strrchr(line, '\t');

			ns = (pid_t)atoi(last ? last + 1 : line + 6);
		}
	}
	fclose(f);
	return ns;
}

/* A new tracee, reported by its parent's event: a process or a thread. */
static int new_tracee(struct proc *parent, pid_t tid)
{
	pid_t tgid = 0, nspid = ns_pid(tid, &tgid);
	struct uproc *up;

	if (proc_find(tid))
		return 0;
	if (nspid < 0)
		return -ESRCH;
	if (tgid != tid) {
		/* a thread: the process's task */
		return proc_add(tid, parent->up) ? 0 : -ENOMEM;
	}
	up = calloc(1, sizeof(*up));
	if (!up)
		return -ENOMEM;
	up->nspid = nspid;
	up->task = uvfs_task_fork_as(parent->up->task, nspid);
	if (!up->task) {
		int err = -errno;

		free(up);
		return err;
	}
	if (!proc_add(tid, up)) {
		uvfs_task_exit(up->task);
		free(up);
		return -ENOMEM;
	}
	return 0;
}

static void resume(pid_t tid, int how, int sig)
{
	/* ESRCH: killed meanwhile (SIGKILL, its process's exit_group); its exit comes */
	(void)ptrace(how, tid, 0, (void *)(long)sig);
}

static void on_seccomp(struct proc *p)
{
	struct user_regs_struct regs;
	enum action a;

	if (ptrace(PTRACE_GETREGS, p->tid, 0, &regs))
		return resume(p->tid, PTRACE_CONT, 0);
	a = run_syscall(p, &regs);
	switch (a) {
	case ACT_NATIVE:
		resume(p->tid, PTRACE_CONT, 0);
		break;
	case ACT_SKIP:
		regs.orig_rax = (unsigned long long)-1;  /* skipped: rax is the result */
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, &regs);
		resume(p->tid, PTRACE_CONT, 0);
		break;
	case ACT_REWRITTEN:
		(void)ptrace(PTRACE_SETREGS, p->tid, 0, &regs);
		resume(p->tid, PTRACE_SYSCALL, 0);
		break;
	case ACT_EXIT_STOP:
		resume(p->tid, PTRACE_SYSCALL, 0);
		break;
	}
}

static void on_syscall_exit(struct proc *p)
{
	struct user_regs_struct regs;

	if (!ptrace(PTRACE_GETREGS, p->tid, 0, &regs))
		run_syscall_exit(p, &regs);
	p->pending = PEND_NONE;
	resume(p->tid, PTRACE_CONT, 0);
}

static void on_exec(struct proc *p)
{
	struct uproc *up = p->up;
	unsigned long old_tid = 0;

	/* an exec by a thread other than the leader takes the leader's id: the
	 * event's message is the old one (the thread of ours that ran execve) */
	(void)ptrace(PTRACE_GETEVENTMSG, p->tid, 0, &old_tid);
	if (old_tid && (pid_t)old_tid != p->tid) {
		struct proc *o = proc_find((pid_t)old_tid);

		if (o && o != p) {
			o->up->threads++;  /* keep the task while the thread goes */
			proc_del(o);
			up->threads--;
		}
	}
	if (up->exec_path) {
		int err = uvfs_task_exec(up->task, up->exec_path);

		if (err)
			fprintf(stderr, "uvfs-run: exec of %s: uvfs did not follow: %s\n",
				up->exec_path, strerror(-err));
		free(up->exec_path);
		up->exec_path = NULL;
	}
	resume(p->tid, PTRACE_CONT, 0);
}

int run_trace(pid_t child, struct uvfs_task *first, int *status)
{
	struct uproc *up = calloc(1, sizeof(*up));
	pid_t *early = NULL;
	int nearly = 0, early_max = 0, ws;
	bool done = false;

	if (!up || !proc_add(child, up))
		return -ENOMEM;
	up->task = first;
	up->nspid = uvfs_task_pid(first);
	proc_find(child)->attached = true;
	*status = 0;
	for (;;) {
		pid_t tid = waitpid(-1, &ws, __WALL);
		struct proc *p;

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;  /* ECHILD: nobody left */
		}
		p = proc_find(tid);
		if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
			if (tid == child && !done) {
				*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
				done = true;
			}
			if (p)
				proc_del(p);
			continue;
		}
		if (!WIFSTOPPED(ws))
			continue;
		if (!p) {
			/* a new tracee before its parent's event: keep it stopped */
			if (nearly == early_max) {
				pid_t *e = realloc(early, (size_t)(early_max = early_max * 2 + 16) *
							  sizeof(*e));

				if (!e) {
					kill(tid, SIGKILL);  /* cannot wait for its parent's event */
					continue;
				}
				early = e;
			}
			early[nearly++] = tid;
			continue;
		}
		if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_SECCOMP << 8))) {
			on_seccomp(p);
		} else if (WSTOPSIG(ws) == (SIGTRAP | 0x80)) {
			on_syscall_exit(p);
		} else if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_FORK << 8)) ||
			   ws >> 8 == (SIGTRAP | (PTRACE_EVENT_VFORK << 8)) ||
			   ws >> 8 == (SIGTRAP | (PTRACE_EVENT_CLONE << 8))) {
			unsigned long msg = 0;

			if (!ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg)) {
				int err = new_tracee(p, (pid_t)msg);

				if (err) {
					/* without a task it would wait for ever: it goes */
					fprintf(stderr, "uvfs-run: process %lu: %s\n", msg, strerror(-err));
					kill((pid_t)msg, SIGKILL);
				}
				for (int i = 0; i < nearly; i++) {
					if (early[i] != (pid_t)msg)
						continue;
					early[i] = early[--nearly];
					if (proc_find((pid_t)msg))
						proc_find((pid_t)msg)->attached = true;
					resume((pid_t)msg, PTRACE_CONT, 0);
					break;
				}
			}
			resume(tid, PTRACE_CONT, 0);
		} else if (ws >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			on_exec(p);
		} else if (ws >> 16 == PTRACE_EVENT_STOP) {
			/* a new tracee's first stop (PTRACE_SEIZE's children start with
			 * it, SIGTRAP), or a group-stop (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU),
			 * which PTRACE_LISTEN keeps until a SIGCONT: job control works */
			int sig = WSTOPSIG(ws);

			if (p->attached && sig != SIGTRAP)
				resume(tid, PTRACE_LISTEN, 0);
			else
				resume(tid, PTRACE_CONT, 0);
			p->attached = true;
		} else {
			resume(tid, PTRACE_CONT, WSTOPSIG(ws));
		}
	}
	free(early);
	return 0;
}
