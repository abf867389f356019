// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * exec.c - the namespace half of execve (fs/exec.c: do_open_execat,
 * prepare_binprm and search_binary_handler's formats, set_mm_exe_file,
 * do_close_on_exec).
 *
 * Locking: the call runs under ns_lock (task_enter).
 */
#include <fcntl.h>
#include <string.h>

#include "file.h"
#include "inode.h"
#include "namei.h"
#include "permission.h"
#include "task.h"

/* include/uapi/linux/binfmts.h: what prepare_binprm() reads of the file */
#define BINPRM_BUF_SIZE 256

/*
 * prepare_binprm() and search_binary_handler(): the file's first bytes, read as
 * kernel_read() reads them (no read permission asked; a read touches the atime as
 * any read does), must start as a format the kernel has a handler for -- binfmt_elf's
 * ELFMAG ("\177ELF", load_elf_binary()) or binfmt_script's "#!" (load_script()).
 * Anything else, a file shorter than the magic included (the buffer is zero past
 * its end), is ENOEXEC: uvfs knows no binfmt_misc entries, and what the handlers
 * check beyond the magic (an ELF header's class, machine and type, a script's
 * interpreter) is left to whoever runs the program (uvfs-run: the kernel).  0, or
 * -errno of the read.
 */
static int check_binfmt(struct uvfs_task *task, const struct path *path)
{
	struct inode *inode = path->dentry->d_inode;
	unsigned char buf[BINPRM_BUF_SIZE] = { 0 };
	struct file *f = alloc_empty_file(task->fs);
	off_t pos = 0;
	ssize_t n;

	if (!f)
		return -ENOMEM;
	file_init(f, path, O_RDONLY | O_LARGEFILE, FMODE_READ);
	n = f->f_op && f->f_op->open ? f->f_op->open(inode, f) : 0;
	if (n) {
		file_deinit(f);
		file_free(f);
		return (int)n;
	}
	n = f->f_op && f->f_op->read ? f->f_op->read(f, buf, sizeof(buf), &pos) : -EINVAL;
	fput(f);
	if (n < 0)
		return (int)n;
	if (!memcmp(buf, "\177ELF", 4) || !memcmp(buf, "#!", 2))
		return 0;
	return -ENOEXEC;
}

/* What the exec does once the file is found: its checks, then the new executable,
 * credentials and table.  Consumes path (kept as the executable, or put). */
static int exec_path(struct uvfs_task *task, struct path path)
{
	struct inode *inode = path.dentry->d_inode;
	int err;

	/* do_open_execat(): may_open(MAY_EXEC | MAY_OPEN) — a symlink is ELOOP (the
	 * walk ends on one only through a magic link: /proc/PID/fd/N of an O_PATH
	 * descriptor of a symlink, nd_jump_link()), anything else but a regular file
	 * EACCES, as is one through a noexec mount (MNT_NOEXEC, or procfs's
	 * SB_I_NOEXEC); then execute permission for the caller's class (no read
	 * needed), which for root wants an x bit somewhere (generic_permission) */
	err = S_ISLNK(inode->i_mode) ? -ELOOP :
	      !S_ISREG(inode->i_mode) || path_noexec(&path) ? -EACCES :
	      inode_permission(&task->cred, inode, MAY_EXEC | MAY_OPEN);
	if (err) {
		path_put(&path);
		goto out;
	}
	/* do_open_execat(): a file some descriptor has open for writing cannot run */
	err = deny_write_access(inode);
	if (err) {
		path_put(&path);
		goto out;
	}
	/* exec_binprm(): a format some handler takes, after the write access is
	 * denied (so ETXTBSY first); a failure gives it back, nothing else changed */
	err = check_binfmt(task, &path);
	if (err) {
		allow_write_access(inode);
		path_put(&path);
		goto out;
	}
	/* begin_new_exec(): unshare_files() -- a table shared by CLONE_FILES is
	 * copied, and only the copy loses the close-on-exec descriptors */
	err = unshare_files(task);
	if (err) {
		allow_write_access(inode);
		path_put(&path);
		goto out;
	}
	/* set_mm_exe_file(): the old executable may be written again */
	if (task->exe.dentry)
		allow_write_access(task->exe.dentry->d_inode);
	path_put(&task->exe);
	task->exe = path;
	/* The new cred (bprm_fill_uid(), cap_bprm_creds_from_file(); uvfs runs no
	 * set-user-ID programs and has no file capabilities): the saved and filesystem ids
	 * become the effective ones; a real or effective uid 0 is given the bounding and
	 * inheritable sets, effective only with euid 0 (handle_privileged_root()); anyone
	 * else keeps no capability (no ambient ones in uvfs) */
	{
		struct cred *c = &task->cred;

		c->suid = c->fsuid = c->euid;
		c->sgid = c->fsgid = c->egid;
		c->cap_permitted = !c->uid || !c->euid ? c->cap_bset | c->cap_inheritable : 0;
		c->cap_effective = !c->euid ? c->cap_permitted : 0;
		task->cred_id = ++task->fs->next_cred_id;
	}
	/* begin_new_exec(): dumpable again, unless the ids differ */
	task->dumpable = task->cred.uid == task->cred.euid && task->cred.gid == task->cred.egid ?
			 SUID_DUMP_USER : task->fs->suid_dumpable;
	/* do_close_on_exec() */
	for (unsigned int fd = 0; fd < task->files->size; fd++)
		if (task->files->fd[fd] && task->files->cloexec[fd])
			fd_close(task->files, (int)fd);
out:
	return err;
}

int uvfs_task_exec(struct uvfs_task *task, const char *name)
{
	struct path path;
	int err;

	task_enter(task);
	err = filename_lookup(task, AT_FDCWD, name, LOOKUP_FOLLOW, &path);
	if (!err)
		err = exec_path(task, path);
	task_leave(task);
	return err;
}

/*
 * execveat(fd, "", argv, envp, AT_EMPTY_PATH) of the file itself: do_open_execat()
 * of the descriptor's path (its dentry, linked or not) -- no name is walked again, so
 * a rename over the name since the file was opened changes nothing: the task runs
 * the file that was opened, as the kernel's exec of a descriptor does.
 */
int uvfs_task_exec_file(struct uvfs_task *task, struct uvfs_file *file)
{
	struct file *f = (struct file *)file;
	struct path path;
	int err;

	if (!task || !f)
		return -EINVAL;
	/* the file's instance is fixed for its life: no lock needed to compare */
	if (f->f_inode->i_sb->s_fs != task->fs)
		return -EXDEV;
	task_enter(task);
	path = f->f_path;
	path_get(&path);
	err = exec_path(task, path);
	task_leave(task);
	return err;
}
