// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * splice.c DIR - the calls that copy between descriptors inside the kernel, with files
 * of DIR: readahead; sendfile from a file to a pipe, a socket and another file, with
 * and without an offset pointer (the file position moved or not), from a write-only
 * descriptor (EBADF), to an O_APPEND one (EINVAL); splice from a file to a pipe;
 * copy_file_range between two files and its checks (a pipe EINVAL, a directory
 * EISDIR, O_APPEND EBADF, flags EINVAL).  One line per result; test_uvfs_run.sh
 * compares them with the kernel's (a tmpfs) on uvfs-run's memfs and on a --bind.
 * (splice from a pipe into a uvfs file is EINVAL under uvfs-run, a deliberate
 * difference tested there, so it is not made here.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#define R(what, e) do { \
	long r_ = (long)(e); \
	printf("%-44s %ld %s\n", what, r_, r_ < 0 ? strerrorname_np(errno) : ""); \
} while (0)

static char path[4096];

static const char *at(const char *dir, const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* what is waiting in a non-blocking pipe or socket */
static void drain(const char *what, int fd)
{
	char buf[64];
	ssize_t n = read(fd, buf, sizeof(buf));

	printf("%-44s \"%.*s\"\n", what, n < 0 ? 0 : (int)n, buf);
}

static void contents(const char *what, int fd)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	printf("%-44s \"%.*s\" pos %ld\n", what, n < 0 ? 0 : (int)n, buf, (long)lseek(fd, 0, SEEK_CUR));
}

int main(int argc, char **argv)
{
	int in, out, app, wo, pp[2], sv[2], dfd;
	loff_t o;
	off_t so;

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	in = open(at(argv[1], "in"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	out = open(at(argv[1], "out"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	app = open(at(argv[1], "app"), O_WRONLY | O_CREAT | O_APPEND, 0644);
	wo = open(at(argv[1], "in"), O_WRONLY);
	dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (in < 0 || out < 0 || app < 0 || wo < 0 || dfd < 0 || pipe2(pp, O_NONBLOCK) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return 1;
	R("write", write(in, "0123456789abcdef", 16));
	R("lseek 2", lseek(in, 2, SEEK_SET));
	R("readahead", readahead(in, 0, 16));
	R("sendfile file -> pipe", sendfile(pp[1], in, NULL, 3));
	R("  position", lseek(in, 0, SEEK_CUR));
	drain("  the pipe holds", pp[0]);
	so = 10;
	R("sendfile file -> pipe at 10", sendfile(pp[1], in, &so, 4));
	printf("%-44s %ld, position %ld\n", "  offset", (long)so, (long)lseek(in, 0, SEEK_CUR));
	drain("  the pipe holds", pp[0]);
	R("sendfile file -> socket", sendfile(sv[0], in, NULL, 2));
	drain("  the socket holds", sv[1]);
	R("sendfile past the end", sendfile(pp[1], in, NULL, 100));
	R("  position", lseek(in, 0, SEEK_CUR));
	drain("  the pipe holds", pp[0]);
	R("sendfile at the end", sendfile(pp[1], in, NULL, 100));
	R("lseek 4", lseek(in, 4, SEEK_SET));
	R("sendfile file -> file", sendfile(out, in, NULL, 5));
	R("  position of in", lseek(in, 0, SEEK_CUR));
	contents("  out", out);
	so = 0;
	R("sendfile file -> file at 0", sendfile(out, in, &so, 2));
	printf("%-44s %ld, position %ld\n", "  offset", (long)so, (long)lseek(in, 0, SEEK_CUR));
	contents("  out", out);
	R("sendfile to an O_APPEND file", sendfile(app, in, NULL, 2));
	R("sendfile from a write-only one", sendfile(out, wo, NULL, 2));
	R("sendfile from a directory", sendfile(pp[1], dfd, NULL, 2));
	R("splice file -> pipe", splice(in, NULL, pp[1], NULL, 3, 0));
	R("  position", lseek(in, 0, SEEK_CUR));
	drain("  the pipe holds", pp[0]);
	o = 1;
	R("splice file -> pipe at 1", splice(in, &o, pp[1], NULL, 3, 0));
	printf("%-44s %ld, position %ld\n", "  offset", (long)o, (long)lseek(in, 0, SEEK_CUR));
	drain("  the pipe holds", pp[0]);
	R("lseek 0", lseek(in, 0, SEEK_SET));
	R("copy_file_range file -> file", copy_file_range(in, NULL, out, NULL, 4, 0));
	contents("  out", out);
	o = 12;
	R("copy_file_range at 12", copy_file_range(in, &o, out, NULL, 100, 0));
	contents("  out", out);
	R("copy_file_range to a pipe", copy_file_range(in, NULL, pp[1], NULL, 4, 0));
	R("copy_file_range from a directory", copy_file_range(dfd, NULL, out, NULL, 4, 0));
	R("copy_file_range to O_APPEND", copy_file_range(in, NULL, app, NULL, 4, 0));
	R("copy_file_range with flags", copy_file_range(in, NULL, out, NULL, 4, 1));
	R("copy_file_range from a write-only one", copy_file_range(wo, NULL, out, NULL, 4, 0));
	return 0;
}
