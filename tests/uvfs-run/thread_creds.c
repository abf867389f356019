// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * thread_creds DIR - credentials are per thread in the kernel (gVisor's
 * uidgid_test found uvfs-run changing every thread's at one thread's raw
 * setresuid): a thread drops to uid/gid 1000 with the raw calls (glibc's wrappers
 * would make every thread call them), and then the two threads, each in turn, create
 * files in a directory of root's (0755) and in one anyone may write (1777), check
 * access, and a forked child of each says whose credentials it has.  Prints what
 * each call gave; the kernel's run and uvfs-run's must print the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;
static pthread_barrier_t step;

static void try_create(const char *who, const char *sub, const char *name)
{
	char path[4096];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		printf("%s: create %s/%s: %s\n", who, sub, name, strerror(errno));
		return;
	}
	close(fd);
	if (stat(path, &st))
		printf("%s: stat %s/%s: %s\n", who, sub, name, strerror(errno));
	else
		printf("%s: create %s/%s: owner %u:%u\n", who, sub, name, st.st_uid, st.st_gid);
}

static void report(const char *who)
{
	char path[4096];
	pid_t pid;
	int status;

	/* the raw getters: glibc's would not show a difference either way */
	printf("%s: uid %ld euid %ld gid %ld\n", who, syscall(SYS_getuid), syscall(SYS_geteuid),
	       syscall(SYS_getgid));
	try_create(who, "root", who);
	try_create(who, "open", who);
	snprintf(path, sizeof(path), "%s/root", dir);
	printf("%s: access(root, W_OK) %s\n", who,
	       syscall(SYS_faccessat2, AT_FDCWD, path, W_OK, AT_EACCESS) ? strerror(errno) : "ok");
	fflush(stdout);
	/* a child forked by this thread has this thread's credentials */
	pid = fork();
	if (pid == 0) {
		char name[64];

		snprintf(name, sizeof(name), "%s-child", who);
		try_create(name, "open", name);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
}

static void *thread_main(void *arg)
{
	(void)arg;
	/* one thread's raw calls: the kernel changes this thread's credentials only */
	if (syscall(SYS_setresgid, 1000, 1000, 1000) || syscall(SYS_setresuid, 1000, 1000, 1000))
		printf("thread: setresuid: %s\n", strerror(errno));
	pthread_barrier_wait(&step);   /* dropped */
	pthread_barrier_wait(&step);   /* the main thread has made its calls */
	report("thread");
	pthread_barrier_wait(&step);   /* done: the main thread's turn again */
	pthread_barrier_wait(&step);
	return NULL;
}

int main(int argc, char **argv)
{
	char path[4096];
	pthread_t th;

	if (argc != 2) {
		fprintf(stderr, "usage: thread_creds DIR\n");
		return 2;
	}
	dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/root", dir);
	if (mkdir(path, 0755) || chmod(path, 0755))
		perror("mkdir root");
	snprintf(path, sizeof(path), "%s/open", dir);
	if (mkdir(path, 01777) || chmod(path, 01777))
		perror("mkdir open");
	pthread_barrier_init(&step, NULL, 2);
	pthread_create(&th, NULL, thread_main, NULL);
	pthread_barrier_wait(&step);
	report("main");
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	/* after the thread's calls: still root here */
	try_create("main-again", "root", "main-again");
	pthread_barrier_wait(&step);
	pthread_join(th, NULL);
	return 0;
}
