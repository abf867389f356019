// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * dlopen_check.c - an installed libuvfs.so.0 can be loaded at run time (it uses the
 * initial-exec TLS model, which needs room in glibc's static TLS surplus) and
 * answers: uvfs_new, a task, fstatat("/proc").  Run by tests/check_install.sh.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <uvfs/uvfs.h>

int main(int argc, char **argv)
{
	void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
	struct uvfs *(*new_fs)(const struct uvfs_config *);
	struct uvfs_task *(*new_task)(struct uvfs *);
	int (*stat_at)(struct uvfs_task *, int, const char *, struct stat *, int);
	void (*free_fs)(struct uvfs *);
	struct uvfs *fs;
	struct stat st;
	int r;

	if (!h) {
		fprintf(stderr, "dlopen_check: %s\n", dlerror());
		return 1;
	}
	*(void **)&new_fs = dlsym(h, "uvfs_new");
	*(void **)&new_task = dlsym(h, "uvfs_task_new");
	*(void **)&stat_at = dlsym(h, "uvfs_fstatat");
	*(void **)&free_fs = dlsym(h, "uvfs_free");
	if (!new_fs || !new_task || !stat_at || !free_fs || !(fs = new_fs(NULL))) {
		fprintf(stderr, "dlopen_check: the library does not answer\n");
		return 1;
	}
	r = stat_at(new_task(fs), AT_FDCWD, "/proc", &st, 0);
	free_fs(fs);
	if (r || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "dlopen_check: fstatat(/proc) = %d\n", r);
		return 1;
	}
	printf("dlopen_check: loaded at run time and answered\n");
	return dlclose(h);
}
