// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * test_creds.c - the credential calls against the running kernel.  Random sequences of
 * setresuid, setreuid, setuid, setfsuid, their gid twins, setgroups and capset, with ids
 * among a few values (the "keep" id -1 included) and capability sets among the ones
 * the VFS consults; each sequence runs in a forked child on the host (raw system calls)
 * and on a uvfs task that starts with the child's capability sets.  After every step
 * both sides print the result (value or errno) and the whole credential state (the
 * three uids and gids, fsuid and fsgid, the groups, the three capability sets); the
 * transcripts must be equal, line for line.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "testutil.h"

#define SEQUENCES 3000
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define STEPS 7

static const uid_t IDS[] = { (uid_t)-1, 0, 1000, 1001, 2000 };
static const gid_t GIDS[] = { (gid_t)-1, 0, 100, 101, 200 };
static const gid_t GROUPS[] = { 0, 100, 101, 200, 300 };
/* the capabilities the VFS and these calls consult */
static const int CAPS[] = { CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER,
			    CAP_FSETID, CAP_SETGID, CAP_SETUID, CAP_SETPCAP,
			    CAP_LINUX_IMMUTABLE, CAP_SYS_CHROOT, CAP_MKNOD, CAP_SYS_ADMIN };

enum op { SETRESUID, SETRESGID, SETREUID, SETREGID, SETUID, SETGID, SETFSUID, SETFSGID,
	  SETGROUPS, CAPSET, NR_OPS };

struct step {
	enum op op;
	uint32_t a, b, c;      /* ids */
	size_t ngroups;
	gid_t groups[6];
	struct uvfs_caps caps;
};

struct text {
	char buf[16384];
	size_t len;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t->len += (size_t)vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (t->len >= sizeof(t->buf))
		t->len = sizeof(t->buf) - 1;
}

/* A random capability set over CAPS, biased towards the given one (so that a sequence
 * can keep a capability long enough to use it). */
static uint64_t random_caps(unsigned int *seed, uint64_t base)
{
	uint64_t v = base;

	for (size_t i = 0; i < ARRAY_SIZE(CAPS); i++) {
		unsigned int r = (unsigned int)rand_r(seed) % 4;

		if (r == 0)
			v &= ~(1ull << CAPS[i]);
		else if (r == 1)
			v |= 1ull << CAPS[i];
	}
	return v;
}

static void make_step(unsigned int *seed, struct step *s, const struct uvfs_caps *start)
{
	s->op = (enum op)(rand_r(seed) % NR_OPS);
	s->a = IDS[rand_r(seed) % ARRAY_SIZE(IDS)];
	s->b = IDS[rand_r(seed) % ARRAY_SIZE(IDS)];
	s->c = IDS[rand_r(seed) % ARRAY_SIZE(IDS)];
	if (s->op == SETRESGID || s->op == SETREGID || s->op == SETGID || s->op == SETFSGID) {
		s->a = GIDS[rand_r(seed) % ARRAY_SIZE(GIDS)];
		s->b = GIDS[rand_r(seed) % ARRAY_SIZE(GIDS)];
		s->c = GIDS[rand_r(seed) % ARRAY_SIZE(GIDS)];
	}
	s->ngroups = (size_t)rand_r(seed) % 5;
	for (size_t i = 0; i < s->ngroups; i++)
		s->groups[i] = GROUPS[rand_r(seed) % ARRAY_SIZE(GROUPS)];
	s->caps.permitted = random_caps(seed, start->permitted);
	s->caps.effective = random_caps(seed, s->caps.permitted);
	s->caps.inheritable = random_caps(seed, 0);
}

static void describe(struct text *t, const struct step *s)
{
	static const char *names[] = { "setresuid", "setresgid", "setreuid", "setregid",
				       "setuid", "setgid", "setfsuid", "setfsgid",
				       "setgroups", "capset" };

	put(t, "%s", names[s->op]);
	switch (s->op) {
	case SETRESUID: case SETRESGID:
		put(t, "(%d, %d, %d)", (int)s->a, (int)s->b, (int)s->c);
		break;
	case SETREUID: case SETREGID:
		put(t, "(%d, %d)", (int)s->a, (int)s->b);
		break;
	case SETGROUPS:
		put(t, "(");
		for (size_t i = 0; i < s->ngroups; i++)
			put(t, "%s%u", i ? " " : "", s->groups[i]);
		put(t, ")");
		break;
	case CAPSET:
		put(t, "(e %llx p %llx i %llx)", (unsigned long long)s->caps.effective,
		    (unsigned long long)s->caps.permitted,
		    (unsigned long long)s->caps.inheritable);
		break;
	default:
		put(t, "(%d)", (int)s->a);
		break;
	}
}

struct state {
	uid_t r, e, s, fs;
	gid_t rg, eg, sg, fsg;
	int ngroups;
	gid_t groups[8];
	struct uvfs_caps caps;
};

static void print_state(struct text *t, long ret, const struct state *st)
{
	if (ret < 0)
		put(t, " -> %s", strerrorname_np((int)-ret));
	else
		put(t, " -> %ld", ret);
	put(t, " | uid %u %u %u fs %u gid %u %u %u fs %u groups", st->r, st->e, st->s, st->fs,
	    st->rg, st->eg, st->sg, st->fsg);
	for (int i = 0; i < st->ngroups; i++)
		put(t, " %u", st->groups[i]);
	put(t, " caps e %llx p %llx i %llx\n", (unsigned long long)st->caps.effective,
	    (unsigned long long)st->caps.permitted, (unsigned long long)st->caps.inheritable);
}

/* ---- the kernel's side: raw system calls in a child ---- */

static int host_capget(struct uvfs_caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	c->effective = d[0].effective | (uint64_t)d[1].effective << 32;
	c->permitted = d[0].permitted | (uint64_t)d[1].permitted << 32;
	c->inheritable = d[0].inheritable | (uint64_t)d[1].inheritable << 32;
	return 0;
}

static long host_capset(const struct uvfs_caps *c)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = {
		{ (uint32_t)c->effective, (uint32_t)c->permitted, (uint32_t)c->inheritable },
		{ (uint32_t)(c->effective >> 32), (uint32_t)(c->permitted >> 32),
		  (uint32_t)(c->inheritable >> 32) },
	};

	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

static long sys_ret(long r)
{
	return r < 0 ? -errno : r;
}

static long host_step(const struct step *s)
{
	switch (s->op) {
	case SETRESUID: return sys_ret(syscall(SYS_setresuid, s->a, s->b, s->c));
	case SETRESGID: return sys_ret(syscall(SYS_setresgid, s->a, s->b, s->c));
	case SETREUID: return sys_ret(syscall(SYS_setreuid, s->a, s->b));
	case SETREGID: return sys_ret(syscall(SYS_setregid, s->a, s->b));
	case SETUID: return sys_ret(syscall(SYS_setuid, s->a));
	case SETGID: return sys_ret(syscall(SYS_setgid, s->a));
	case SETFSUID: return syscall(SYS_setfsuid, s->a);
	case SETFSGID: return syscall(SYS_setfsgid, s->a);
	case SETGROUPS: return sys_ret(syscall(SYS_setgroups, s->ngroups, s->groups));
	case CAPSET: return host_capset(&s->caps);
	default: return -ENOSYS;
	}
}

static void host_state(struct state *st)
{
	syscall(SYS_getresuid, &st->r, &st->e, &st->s);
	syscall(SYS_getresgid, &st->rg, &st->eg, &st->sg);
	st->fs = (uid_t)syscall(SYS_setfsuid, -1);
	st->fsg = (gid_t)syscall(SYS_setfsgid, -1);
	st->ngroups = (int)syscall(SYS_getgroups, 8, st->groups);
	host_capget(&st->caps);
}

/* The sequence in a child; its transcript comes back through a pipe. */
static void host_run(const struct step *steps, int n, struct text *out)
{
	int p[2];
	pid_t pid;
	ssize_t r;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct text t = { .len = 0 };
		struct state st;

		close(p[0]);
		for (int i = 0; i < n; i++) {
			long ret = host_step(&steps[i]);

			describe(&t, &steps[i]);
			host_state(&st);
			print_state(&t, ret, &st);
		}
		if (write(p[1], t.buf, t.len) != (ssize_t)t.len)
			_exit(2);
		_exit(0);
	}
	close(p[1]);
	out->len = 0;
	while ((r = read(p[0], out->buf + out->len, sizeof(out->buf) - 1 - out->len)) > 0)
		out->len += (size_t)r;
	out->buf[out->len] = 0;
	close(p[0]);
	{
		int status;

		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
}

/* ---- uvfs's side ---- */

static long uvfs_step(struct uvfs_task *t, const struct step *s)
{
	switch (s->op) {
	case SETRESUID: return uvfs_setresuid(t, s->a, s->b, s->c);
	case SETRESGID: return uvfs_setresgid(t, s->a, s->b, s->c);
	case SETREUID: return uvfs_setreuid(t, s->a, s->b);
	case SETREGID: return uvfs_setregid(t, s->a, s->b);
	case SETUID: return uvfs_setuid(t, s->a);
	case SETGID: return uvfs_setgid(t, s->a);
	case SETFSUID: return uvfs_setfsuid(t, s->a);
	case SETFSGID: return uvfs_setfsgid(t, s->a);
	case SETGROUPS: return uvfs_setgroups(t, s->ngroups, s->groups);
	case CAPSET: return uvfs_capset(t, &s->caps);
	default: return -ENOSYS;
	}
}

static void uvfs_state(struct uvfs_task *t, struct state *st)
{
	assert_int_equal(uvfs_getresuid(t, &st->r, &st->e, &st->s), 0);
	assert_int_equal(uvfs_getresgid(t, &st->rg, &st->eg, &st->sg), 0);
	st->fs = (uid_t)uvfs_setfsuid(t, (uid_t)-1);
	st->fsg = (gid_t)uvfs_setfsgid(t, (gid_t)-1);
	st->ngroups = uvfs_getgroups(t, 8, st->groups);
	assert_int_equal(uvfs_capget(t, &st->caps), 0);
}

static void uvfs_run(struct uvfs *fs, const struct uvfs_caps *start, const struct step *steps,
		     int n, struct text *out)
{
	struct uvfs_task *t = uvfs_task_new(fs);
	struct state st;

	assert_non_null(t);
	assert_int_equal(uvfs_capset(t, start), 0);
	out->len = 0;
	out->buf[0] = 0;
	for (int i = 0; i < n; i++) {
		long ret = uvfs_step(t, &steps[i]);

		describe(out, &steps[i]);
		uvfs_state(t, &st);
		print_state(out, ret, &st);
	}
	uvfs_task_exit(t);
}

static void test_creds_match_the_kernel(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_caps start;
	static struct text host, ours;
	struct utsname u;

	(void)state;
	assert_non_null(fs);
	/* the child starts with this process's sets; uvfs's task is given the same */
	assert_int_equal(host_capget(&start), 0);
	for (unsigned int seq = 0; seq < SEQUENCES; seq++) {
		unsigned int seed = 5000u + seq;
		struct step steps[STEPS];

		for (int i = 0; i < STEPS; i++)
			make_step(&seed, &steps[i], &start);
		host_run(steps, STEPS, &host);
		uvfs_run(fs, &start, steps, STEPS, &ours);
		if (strcmp(host.buf, ours.buf)) {
			uname(&u);
			fail_msg("sequence %u differs (kernel %s):\n--- kernel\n%s--- uvfs\n%s", seq,
				 u.release, host.buf, ours.buf);
		}
	}
	uvfs_free(fs);
}

/* What a refused call leaves, and the calls' argument errors, which the random
 * sequences do not reach: checked against fixed values of Linux's (kernel/sys.c). */
static void test_creds_arguments(void **state)
{
	struct uvfs *fs = uvfs_new(NULL);
	struct uvfs_task *t = uvfs_task_new(fs);
	gid_t big[2] = { 5, (gid_t)-1 }, out[4];
	uid_t r, e, s;

	(void)state;
	assert_int_equal(uvfs_setuid(t, (uid_t)-1), -EINVAL);
	assert_int_equal(uvfs_setgroups(t, 2, big), -EINVAL);
	assert_int_equal(uvfs_setgroups(t, 65537, big), -EINVAL);
	assert_int_equal(uvfs_setgroups(t, 1, NULL), -EFAULT);
	assert_int_equal(uvfs_setgroups(t, 1, big), 0);
	assert_int_equal(uvfs_getgroups(t, 0, NULL), 1);
	assert_int_equal(uvfs_getgroups(t, -1, out), -EINVAL);
	assert_int_equal(uvfs_getresuid(t, &r, NULL, &s), -EFAULT);
	assert_int_equal(uvfs_getresuid(NULL, &r, &e, &s), -EINVAL);
	/* setcreds: never refused, caps as a setresuid from root leaves them */
	assert_int_equal(uvfs_task_setcreds(t, 1000, 100), 0);
	assert_int_equal(uvfs_setuid(t, 0), -EPERM);
	assert_int_equal(uvfs_task_setcreds(t, 0, 0), 0);
	assert_int_equal(uvfs_setuid(t, 1000), 0);
	uvfs_task_exit(t);
	uvfs_free(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_creds_match_the_kernel),
		cmocka_unit_test(test_creds_arguments),
		cmocka_unit_test(test_no_leaks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
