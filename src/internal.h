/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal.h - the instance (struct uvfs), its one writer lock, and its counters.
 *
 * Locking (docs/LOCKING.md is the long form):
 *
 *   lock            protects
 *   --------------  ---------------------------------------------------------------
 *   uvfs.ns_lock    (a futex mutex, lock.h) everything reachable from the instance
 *                   that changes: the dentry
 *                   tree and hash table, inodes and their data, mounts, tasks, fd
 *                   tables, open file positions.  Taken by every public call on entry
 *                   (uvfs_lock/uvfs_unlock below) and released on return.
 *   RCU (urcu-bp)   not a lock: dentries, external names, inodes (with their private
 *                   parts) and old hash tables are freed after a grace period
 *                   (rcu_defer.c batches them; names dropped without ns_lock and old
 *                   tables go through call_rcu), so the lockless walk (walk.c)
 *                   may keep reading them inside rcu_read_lock() after a writer
 *                   dropped them.
 *   ns_seq          odd while ns_lock is held: validates a lockless walk.
 *   atomics         struct uvfs_stats: counters, updated from RCU callbacks too.
 *
 * Nesting: ns_lock is the only lock; it is never taken twice (uvfs_lock asserts).
 * This is the "one lock per instance" of the first milestone: every writer is
 * serialised here and nowhere else, so that per-directory locks can replace it
 * by editing uvfs_lock() callers' scopes, not the data structures.
 */
#ifndef UVFS_INTERNAL_H
#define UVFS_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* liburcu's small functions (rcu_read_lock, rcu_dereference) inlined: uvfs is LGPL
 * too, and a lockless walk is a few dozen instructions per component, so a call
 * into the library for each would be a large part of it.  Not under the sanitizers:
 * liburcu 0.13 declares its reader struct 128-byte aligned and allocates it less
 * aligned, which UBSan reports in every inlined read lock. */
#if defined(__SANITIZE_ADDRESS__)
#define UVFS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  /* clang's way of saying it */
#define UVFS_ASAN 1
#endif
#endif
#ifndef UVFS_ASAN
#define _LGPL_SOURCE
#endif

/*
 * ThreadSanitizer does not see inside liburcu (not instrumented): neither the queue
 * that call_rcu() hands an object to its callback through, nor the grace period that
 * orders a reader's last look at an object before its free.  The narrow fix is to
 * say both where they happen (rcu_defer.c): tsan_release() where an object or a read
 * section is let go, tsan_acquire() where the other side takes over.  Nothing in
 * other builds.
 */
#if defined(__SANITIZE_THREAD__)
#define UVFS_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UVFS_TSAN 1
#endif
#endif
#ifdef UVFS_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define tsan_acquire(addr) __tsan_acquire((void *)(addr))
#define tsan_release(addr) __tsan_release((void *)(addr))
#else
#define tsan_acquire(addr) ((void)0)
#define tsan_release(addr) ((void)0)
#endif

/*
 * lockless_read: a function of the lockless walk (walk.c) or one it calls.  What
 * it reads, a writer holding ns_lock may be storing meanwhile; the walk throws it all
 * away unless ns_seq shows no writer ran (the kernel's seqcount pattern, its
 * data_race()).  In C11 terms those are races by design, so ThreadSanitizer is told
 * not to watch these functions' plain loads; their atomics, and every writer, it
 * still watches.
 */
#ifdef UVFS_TSAN
#define lockless_read __attribute__((no_sanitize("thread")))
#else
#define lockless_read
#endif
#include <urcu-bp.h>
#include <urcu/hlist.h>
#include <urcu/list.h>

#include "lock.h"
#include "uvfs/uvfs.h"

struct uvfs_abi;
struct file_system_type;
struct mount;
struct fsnotify_state;
struct mnt_namespace;

/* A set of small ids, the lowest free first (ida.h). */
struct ida {
	unsigned long *bits;
	unsigned long *full;  /* bit w: bits[w] is full (the search skips 64 words a step) */
	int words;            /* of bits; full has (words + 63) / 64 */
};
struct dentry;
struct defer_batch;
struct kmem_cache;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A load the compiler makes exactly once, of a field a writer may change meanwhile
 * (the lockless walk's reads; the kernel's READ_ONCE). */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
/* A store of a field the lockless walk may be loading meanwhile (with READ_ONCE or
 * an __atomic load): a relaxed atomic store, the plain store's one instruction on
 * every target, and not a race for ThreadSanitizer -- the kernel's WRITE_ONCE. */
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* Counters readable through uvfs_stats() (introspect.h).  All atomic: some are
 * updated from RCU callbacks that run without ns_lock. */
struct uvfs_stats {
	atomic_ulong lookups;        /* d_lookup calls */
	atomic_ulong hits;           /* ... that found a positive dentry */
	atomic_ulong negative_hits;  /* ... that found a negative dentry */
	atomic_ulong misses;         /* ... that found nothing (fs ->lookup called) */
	atomic_ulong renames;        /* d_move + d_exchange */
	atomic_long dentries;        /* live struct dentry, including RCU-pending */
	atomic_long names;           /* live external names, including RCU-pending */
	atomic_long name_bytes;      /* bytes allocated for external names */
	atomic_long inodes;          /* live struct inode */
	atomic_long data_bytes;      /* file data pages allocated */
	atomic_long files;           /* live struct file */
	atomic_ulong dir_steps;      /* entries and index slots visited to find readdir
	                              * positions and /proc entries (bounded-cost tests) */
	atomic_ulong revalidations;  /* cached dentries checked against their source
	                              * (hostfs: the host) */
	atomic_ulong stale;          /* ... and found changed: dropped, looked up again */
	atomic_ulong evictions;      /* unused dentries evicted by a cache's bound */
};

/* The dentry hash table: buckets of cds_hlist, chained by d_hash; replaced by one
 * twice as large under ns_lock when the load passes 1, the old one freed after a
 * grace period, so that a lockless walk may go on reading the table it loaded. */
struct dcache_buckets {
	size_t mask;                    /* immutable: buckets - 1 */
	struct rcu_head rcu;
	struct cds_hlist_head b[];      /* chains: written under ns_lock, read under RCU */
};

struct dcache_table {
	struct dcache_buckets *tbl;     /* ns_lock; published with rcu_assign_pointer */
	size_t count;                   /* ns_lock; hashed dentries (mounts) */
};
/* A table of n (a power of two) empty chains: NULL without memory (may_fail: the
 * failure injection's allocator, uvfs_zalloc) */
struct dcache_buckets *buckets_alloc(size_t n, bool may_fail);
/* *slot becomes nt, published; the old table is freed after a grace period */
void buckets_replace(struct dcache_buckets **slot, struct dcache_buckets *nt);
/* *slot replaced by a table twice as large, each node in the chain index() names
 * (nothing done without memory: the chains stay longer) */
struct cds_hlist_node;
void buckets_grow(struct dcache_buckets **slot, size_t (*index)(const struct cds_hlist_node *));

/* Frees waiting for a grace period (rcu_defer.c). */
struct uvfs_defer {
	struct defer_batch *cur;        /* ns_lock: being filled */
	struct defer_batch *oldest;     /* ns_lock: handed to call_rcu, oldest first */
	struct defer_batch *newest;     /* ns_lock */
	struct defer_batch *spare;      /* ns_lock: an emptied batch, for the next */
	unsigned int pending;           /* ns_lock: batches from oldest to newest */
};

struct uvfs {
	struct uvfs_mutex ns_lock;     /* lock.h: a futex mutex */
	pthread_t ns_owner;             /* ns_lock; valid while ns_locked */
	bool ns_locked;                 /* ns_lock */

	const struct uvfs_abi *abi;     /* immutable */
	unsigned int max_files;         /* immutable */
	uint64_t max_host_dentries;     /* immutable: uvfs_config's (0: 65536) */
	bool memfd_data;                /* immutable: UVFS_MEMFD (memfs.c) */
	/* ns_lock: uvfs_set_proc_source()'s, copied; procfs's files about processes
	 * and the system (procfs.c) */
	struct uvfs_proc_source proc_src;
	void *proc_src_arg;
	/* ns_lock: uvfs_set_proc_fd_source()'s, copied: the embedder's descriptors in
	 * /proc/PID/fd (procfs.c) */
	struct uvfs_proc_fd_source proc_fds;
	void *proc_fds_arg;
	/* ns_lock: a cache went over its bound; task_leave() has the superblocks'
	 * ->shrink evict, once the call is done and no walk stands on a dentry
	 * without a reference (shrink_caches(), super.c) */
	bool shrink_pending;

	struct dcache_table dtable;     /* ns_lock */
	/* ns_lock: mounts attached to a parent, chained by mount.mnt_hash on (parent,
	 * mountpoint) -- the kernel's mount_hashtable; read by the lockless walk */
	struct dcache_table mount_hashtable;
	uint64_t mnt_attach_seq;        /* ns_lock: the last mount.mnt_attach_seq given */
	unsigned int mount_max;         /* fs.mount-max as the host shows it; immutable */
	struct kmem_cache *dentry_cache;/* immutable after uvfs_new; the cache ns_lock */
	struct kmem_cache *file_cache;  /* immutable after uvfs_new; the cache ns_lock */
	struct kmem_cache *caches;      /* ns_lock: every object cache (slab.c) */
	struct uvfs_defer defer;        /* ns_lock */
	uint64_t next_name_id;          /* ns_lock; identity of external names */

	struct mount *root_mnt;         /* uvfs_new's root filesystem (setup only) */
	struct cds_list_head mounts;    /* ns_lock; struct mount.mnt_list */
	/* ns_lock: mount ids, anonymous device minors and peer group ids in use (ida.h;
	 * the kernel's mnt_id_ida, unnamed_dev_ida, mnt_group_ida) */
	struct ida mnt_ids, anon_devs, mnt_group_ids;
	uint64_t last_mnt_id_unique;    /* ns_lock: the kernel's mnt_id_unique counter */
	uint64_t last_mnt_ns_id;        /* ns_lock: the last mount namespace's ns_id */
	struct mnt_namespace *init_ns;  /* ns_lock: the first namespace (uvfs_task_new's) */

	/* ns_lock: the marks of inotify watches and the anonymous inodes' filesystem,
	 * made at the first inotify_init1 (fsnotify.h) */
	struct fsnotify_state *fsn;
	/* ns_lock: every file lease (leases.c), and the breakers' queue */
	struct file_lease *leases;
	struct lease_breaker *lease_breakers;
	struct lease_lost *leases_lost;  /* uvfs_lease_lost_take()'s queue */
	bool leases_lost_any;           /* atomic: leases_lost is not empty */
	struct uvfs_waitq lease_wait;
	int lease_break_time;           /* ns_lock: seconds (fs.lease-break-time; 45) */
	/* ns_lock: the embedder's stand-ins of open inodes with no place of their own
	 * for one (standin.c) */
	struct standin *standins;
	/* ns_lock: anon_inodefs, made at the first file with no name (anon_inodes.c) */
	struct anon_inodes *anon_inodes;
	struct cds_list_head tasks;     /* ns_lock; struct uvfs_task.t_list */
	struct uvfs_task *current;      /* ns_lock; the task whose call holds it */
	int next_pid;                   /* ns_lock */
	unsigned long next_cred_id;     /* ns_lock: task.h's cred_id */
	/* The live task of each pid (NULL for one that exited or not yet made), for
	 * procfs's lookups by number: written under ns_lock, read lockless too — the
	 * array is replaced when it grows, published before its size, and the old one
	 * freed after a grace period (as the descriptor tables are). */
	struct uvfs_task **pid_table;
	unsigned int pid_table_size;
	/* The filesystem types (super.c): written by uvfs_new only, then immutable. */
#define UVFS_MAX_FS_TYPES 8
	const struct file_system_type *fs_types[UVFS_MAX_FS_TYPES];
	int nr_fs_types;
	/* fs.protected_fifos, _regular, _symlinks and _hardlinks as the
	 * host shows them when the instance is made (0 where unreadable, the kernel's
	 * default); immutable */
	int protected_fifos, protected_regular, protected_symlinks, protected_hardlinks;
	int suid_dumpable;  /* fs.suid_dumpable, read the same way */

	struct uvfs_stats stats;        /* atomic */
	/* Odd while a call holds ns_lock: a lockless walk that saw the same even value
	 * before and after read a state no writer was changing (walk.c). */
	atomic_ulong ns_seq;
	/* call_rcu callbacks queued that will still touch the instance (names dropped
	 * without ns_lock): uvfs_free waits for them only when there are some. */
	atomic_long rcu_callbacks;
	/* ns_lock: objects of the instance not yet freed (deferred frees too); added to
	 * the process-wide uvfs_live at uvfs_free, where they should be zero. */
	long live_dentries, live_inodes, live_files;
	/* ns_lock: the coarse clock as this call first read it (inode.c) */
	struct timespec coarse_now;
	bool coarse_now_valid;
};

/* Process-wide totals of live objects, for leak checks after uvfs_free(): the
 * instance's own counters die with it.  dentries, inodes and files are what each
 * instance left over (uvfs.live_*), added when it is freed: no locked increment
 * per object on the way. */
struct uvfs_live {
	atomic_long dentries, names, inodes, files, tasks, instances;
};
extern struct uvfs_live uvfs_live;

/*
 * ns_seq has one writer, the ns_lock holder, so it is stored, not incremented with a
 * locked read-modify-write: write_seqcount_begin()/end() in C11 terms (the odd store,
 * then a release fence before the writer's own stores; the even one a release
 * store).  walk.c is the reader.
 */
static inline void ns_seq_begin(struct uvfs *fs)
{
	unsigned long s = atomic_load_explicit(&fs->ns_seq, memory_order_relaxed);

	atomic_store_explicit(&fs->ns_seq, s + 1, memory_order_relaxed);
#ifndef UVFS_TSAN
	atomic_thread_fence(memory_order_release);
#else
	/* gcc's TSan refuses a standalone fence (-Wtsan: it cannot model one): an
	 * ordered read-modify-write of ns_seq that adds nothing (ns_seq_retry) */
	atomic_fetch_add_explicit(&fs->ns_seq, 0, memory_order_acq_rel);
#endif
}

/*
 * read_seqretry(): did a writer run since the walk sampled seq?  Everything the walk
 * read was read before this load (the acquire fence, smp_rmb()).  In TSan builds an
 * acq_rel read-modify-write adding 0 orders the same way without a fence; it may run
 * while the writer stores its count, which it then reads or leaves as it was (the
 * writer's next store is its own count plus one).
 */
static inline bool ns_seq_retry(struct uvfs *fs, unsigned long seq)
{
#ifndef UVFS_TSAN
	atomic_thread_fence(memory_order_acquire);
	return atomic_load_explicit(&fs->ns_seq, memory_order_relaxed) != seq;
#else
	return atomic_fetch_add_explicit(&fs->ns_seq, 0, memory_order_acq_rel) != seq;
#endif
}

static inline void ns_seq_end(struct uvfs *fs)
{
	unsigned long s = atomic_load_explicit(&fs->ns_seq, memory_order_relaxed);

	atomic_store_explicit(&fs->ns_seq, s + 1, memory_order_release);
}

/* A counter that only ns_lock holders change, read by anyone (uvfs_get_stats): a
 * load and a store, no locked read-modify-write. */
#define STAT_ADD(c, v) \
	atomic_store_explicit(&(c), atomic_load_explicit(&(c), memory_order_relaxed) + (v), \
			      memory_order_relaxed)

static inline void uvfs_lock(struct uvfs *fs)
{
	uvfs_mutex_lock(&fs->ns_lock);
	fs->ns_owner = pthread_self();
	fs->ns_locked = true;
	fs->coarse_now_valid = false;
	ns_seq_begin(fs);
}

static inline void uvfs_unlock(struct uvfs *fs)
{
	assert(fs->ns_locked && pthread_equal(fs->ns_owner, pthread_self()));
	ns_seq_end(fs);
	fs->ns_locked = false;
	uvfs_mutex_unlock(&fs->ns_lock);
}

/* assert(ns_locked(fs)) documents and checks "caller holds ns_lock". */
static inline bool ns_locked(const struct uvfs *fs)
{
	return fs->ns_locked && pthread_equal(fs->ns_owner, pthread_self());
}

/* Wait on q, giving ns_lock up meanwhile (a fifo's open, read and write): 0 when
 * woken, -ERESTARTSYS when the calling thread's uvfs_intr was raised (intr.c) */
#define ERESTARTSYS UVFS_ERESTARTSYS
int uvfs_cond_wait(struct uvfs *fs, struct uvfs_waitq *q);
/* The same, woken at deadline (CLOCK_MONOTONIC ns) at the latest: 0 then too (the
 * caller reads the clock); a lease break's wait for lease-break-time (leases.c) */
int uvfs_cond_wait_until(struct uvfs *fs, struct uvfs_waitq *q, long long deadline);
/* the calling thread's descriptor floor and no-wait setting (uvfs_set_fd_floor,
 * uvfs_set_nowait) */
extern _Thread_local unsigned int uvfs_fd_floor;
extern _Thread_local bool uvfs_nowait;

/* Fault injection for tests (tests/test_core.c: test_enomem_leaves_tree_unchanged):
 * when uvfs_fail_countdown reaches zero, uvfs_malloc fails once.  Negative: never
 * fails. */
extern _Thread_local long uvfs_fail_countdown;
/* counts down; true once at zero (slab.c asks too) */
static inline bool uvfs_should_fail(void)
{
	return __builtin_expect(uvfs_fail_countdown >= 0, 0) && uvfs_fail_countdown-- == 0;
}
void *uvfs_malloc(size_t size);
void *uvfs_zalloc(size_t size);
void *uvfs_realloc(void *p, size_t size);



/* Error pointers, as the kernel's <linux/err.h>: a pointer or -errno in one value. */
#define MAX_ERRNO 4095
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-MAX_ERRNO;
}
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }
#endif /* UVFS_INTERNAL_H */
