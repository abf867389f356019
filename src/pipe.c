// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * pipe.c - fifos (fs/pipe.c: fifo_open, pipe_read, pipe_write).
 *
 * Locking: every field of struct pipe is protected by uvfs.ns_lock; a blocked reader,
 * writer or opener waits on pipe.wait with ns_lock released (uvfs_cond_wait), exactly
 * where Linux would sleep.  A wait ends early, with -ERESTARTSYS, when the calling
 * thread's uvfs_intr is raised (intr.c): Linux's signal_pending() there.  Limitation:
 * a write with no reader is EPIPE without SIGPIPE.
 */
#include <unistd.h>

#include "file.h"
#include "pipe.h"

void pipe_free(struct pipe *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p);
}

static struct uvfs *pipe_fs(const struct file *f)
{
	return f->f_inode->i_sb->s_fs;
}

static int fifo_open(struct inode *inode, struct file *f)
{
	struct uvfs *fs = inode->i_sb->s_fs;
	struct pipe *p = inode->i_pipe;
	bool nonblock = f->f_flags & O_NONBLOCK;
	unsigned long seen;

	if (!p) {
		p = uvfs_zalloc(sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->buf = uvfs_malloc(UVFS_PIPE_SIZE);
		if (!p->buf) {
			free(p);
			return -ENOMEM;
		}
		inode->i_pipe = p;
	}
	/* uvfs_set_nowait: an open that would wait says so before it counts itself */
	if (uvfs_nowait && !nonblock &&
	    (((f->f_mode & (FMODE_READ | FMODE_WRITE)) == FMODE_READ && !p->writers) ||
	     ((f->f_mode & (FMODE_READ | FMODE_WRITE)) == FMODE_WRITE && !p->readers)))
		return -UVFS_EWOULDWAIT;
	switch (f->f_mode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		p->readers++;
		p->r_counter++;
		waitq_wake_all(&p->wait);
		/* O_RDONLY waits for a writer unless O_NONBLOCK. */
		seen = p->w_counter;
		while (!nonblock && !p->writers && p->w_counter == seen)
			if (uvfs_cond_wait(fs, &p->wait))
				goto err_rd;
		break;
	case FMODE_WRITE:
		/* O_WRONLY|O_NONBLOCK with no reader: ENXIO. */
		if (nonblock && !p->readers)
			return -ENXIO;
		p->writers++;
		p->w_counter++;
		waitq_wake_all(&p->wait);
		seen = p->r_counter;
		while (!p->readers && p->r_counter == seen)
			if (uvfs_cond_wait(fs, &p->wait))
				goto err_wr;
		break;
	case FMODE_READ | FMODE_WRITE:
		/* O_RDWR never blocks: it is its own peer. */
		p->readers++;
		p->writers++;
		p->r_counter++;
		p->w_counter++;
		waitq_wake_all(&p->wait);
		break;
	default:
		/* O_ACCMODE 3: neither read nor write (OPEN_FMODE) */
		return -EINVAL;
	}
	return 0;

	/* interrupted (fifo_open's err_rd, err_wr): no reader or writer left behind; the
	 * counter stays moved, as the kernel's does */
err_rd:
	p->readers--;
	goto err;
err_wr:
	p->writers--;
err:
	waitq_wake_all(&p->wait);
	if (!p->readers && !p->writers)
		p->head = p->len = 0;
	return -ERESTARTSYS;
}

static void fifo_release(struct inode *inode, struct file *f)
{
	struct pipe *p = inode->i_pipe;

	if (f->f_mode & FMODE_READ)
		p->readers--;
	if (f->f_mode & FMODE_WRITE)
		p->writers--;
	waitq_wake_all(&p->wait);
	/* The last user gone: the buffer's contents go too (free_pipe_info). */
	if (!p->readers && !p->writers)
		p->head = p->len = 0;
	if (f->private_data && !--p->standin_users) {
		close(p->standin - 1);
		p->standin = 0;
	}
}

/*
 * uvfs_standin() of a fifo: one embedder's object per fifo, kept while an open file
 * handed it is open, so that the kernel's flock and POSIX locks on the embedder's
 * reopens of it are per fifo, as Linux keeps them on the fifo's inode (one object
 * for every fifo made each lock of one a lock of all).
 */
int fifo_standin(struct file *f, int (*make)(void *arg), void *arg)
{
	struct pipe *p = f->f_inode->i_pipe;  /* made by fifo_open */

	if (!f->private_data) {
		if (!p->standin) {
			int fd = make(arg);

			if (fd < 0)
				return fd < -4095 ? -EINVAL : fd;
			p->standin = fd + 1;
		}
		p->standin_users++;
		f->private_data = p;
	}
	return p->standin - 1;
}

static ssize_t pipe_read(struct file *f, void *buf, size_t count, off_t *pos)
{
	struct pipe *p = f->f_inode->i_pipe;
	size_t done = 0;

	(void)pos;
	if (!count)
		return 0;
	while (!p->len) {
		if (!p->writers)
			return 0;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (uvfs_cond_wait(pipe_fs(f), &p->wait))
			return -ERESTARTSYS;  /* pipe_read(): nothing read yet */
	}
	if (!buf)
		return -EFAULT;  /* copy_page_to_iter() faults: the data stays */
	while (done < count && p->len) {
		size_t n = UVFS_PIPE_SIZE - p->head;

		if (n > p->len)
			n = p->len;
		if (n > count - done)
			n = count - done;
		memcpy((char *)buf + done, p->buf + p->head, n);
		p->head = (p->head + n) % UVFS_PIPE_SIZE;
		p->len -= n;
		done += n;
	}
	waitq_wake_all(&p->wait);
	if (done)
		file_accessed(f);  /* pipe_read() */
	return (ssize_t)done;
}

static ssize_t pipe_write(struct file *f, const void *buf, size_t count, off_t *pos)
{
	struct pipe *p = f->f_inode->i_pipe;
	size_t done = 0;

	(void)pos;
	if (!count)
		return 0;
	while (done < count) {
		size_t room;

		if (!p->readers)
			return done ? (ssize_t)done : -EPIPE;
		if (!buf)
			return -EFAULT;  /* copy_page_from_iter() faults */
		room = UVFS_PIPE_SIZE - p->len;
		/* Writes of up to PIPE_BUF bytes are atomic: wait for room for all. */
		if (!room || (count <= UVFS_PIPE_BUF && room < count)) {
			if (f->f_flags & O_NONBLOCK)
				return done ? (ssize_t)done : -EAGAIN;
			/* pipe_write(): a signal ends it with what was written */
			if (uvfs_cond_wait(pipe_fs(f), &p->wait)) {
				if (!done)
					return -ERESTARTSYS;
				break;
			}
			continue;
		}
		while (room && done < count) {
			size_t tail = (p->head + p->len) % UVFS_PIPE_SIZE;
			size_t n = UVFS_PIPE_SIZE - tail;

			if (n > room)
				n = room;
			if (n > count - done)
				n = count - done;
			memcpy(p->buf + tail, (const char *)buf + done, n);
			p->len += n;
			room -= n;
			done += n;
		}
		waitq_wake_all(&p->wait);
	}
	file_update_time(f->f_inode);  /* pipe_write() */
	return (ssize_t)done;
}

const struct file_operations pipe_fops = {
	.open = fifo_open,
	.release = fifo_release,
	.read = pipe_read,
	.write = pipe_write,
	/* pipe_fasync; no ->fsync; O_DIRECT refused at open but taken by F_SETFL */
	.fop_flags = FOP_FASYNC | FOP_SETFL_ODIRECT,
};
