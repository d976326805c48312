/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfhash-resize.c: creating, destroying, growing and shrinking a hash
 * table, and the node accounting that drives automatic resizes.
 *
 * A resize moves one order at a time, under resize_mutex:
 *
 *   grow to 2^k:   memory for buckets [2^(k-1), 2^k); link each bucket
 *                  node (from its parent bucket, rculfhash.c); publish
 *                  size 2^k (release).  Readers that loaded the old size
 *                  start from parent buckets, whose runs still contain
 *                  every key: the new bucket nodes only split them.
 *   shrink to 2^(k-1): publish the smaller size; wait for a grace period
 *                  (after it, no operation started from a bucket about to
 *                  go); remove and unlink those bucket nodes; wait for a
 *                  grace period (readers standing on them have left);
 *                  free their memory.
 *
 * Each step leaves the table consistent, so a step that runs out of
 * memory simply ends the resize at the size reached so far, and the
 * worker can pause between steps (fork).
 *
 * Automatic resizing (CDS_LFHT_AUTO_RESIZE): an add that passed
 * CHAIN_LEN_GROW or more entries in its bucket asks for twice the size.
 * With CDS_LFHT_ACCOUNTING, adds and removals also count in per-CPU split
 * counters; every COMMIT_INTERVAL operations on one counter the global
 * count is updated and compared with the size: more nodes than buckets
 * asks to grow to fit them, fewer than a quarter asks to shrink to twice
 * the count.  Requests only move resize_target; the worker
 * (rculfhash-worker.c) does the steps.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "rculfhash-internal.h"
#include "urcu-export.h"

/* An add that passes this many entries in its bucket asks to grow. */
#define CHAIN_LEN_GROW		3
/* Operations on one split counter between updates of the global count. */
#define COMMIT_INTERVAL		64UL
/* Buckets linked or unlinked per read-side section during a resize. */
#define BUCKETS_PER_SECTION	4096UL
/* Fewest buckets worth a helper thread in a resize step, and most shares. */
#define SHARE_MIN_BUCKETS	(16UL * 1024)
#define MAX_SHARES		16UL
/* Upper bound on the number of split counters. */
#define MAX_SPLIT_COUNTERS	256UL

static bool is_pow2(unsigned long v)
{
	return v && !(v & (v - 1));
}

/* The smallest power of two >= @v, saturating at 2^LFHT_MAX_ORDER. */
static unsigned long round_pow2(unsigned long v)
{
	if (v <= 1)
		return 1;
	if (v > 1UL << LFHT_MAX_ORDER)
		return 1UL << LFHT_MAX_ORDER;
	return 1UL << (CAA_BITS_PER_LONG - __builtin_clzl(v - 1));
}

static unsigned long clamp_size(struct cds_lfht *ht, unsigned long size)
{
	size = round_pow2(size);
	if (size < ht->min_nr_alloc_buckets)
		return ht->min_nr_alloc_buckets;
	return size > ht->max_nr_buckets ? ht->max_nr_buckets : size;
}

static void publish_size(struct cds_lfht *ht, unsigned long size)
{
	/*
	 * Release: the bucket nodes and bucket-array pointers of the new
	 * size are written before it; paired with load_size() (acquire)
	 * in rculfhash.c.
	 */
	__atomic_store_n(&ht->size, size, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------
 * Steps.  @shared: the table is visible to other threads, so list walks
 * run in read-side sections and shrinking waits for grace periods.  The
 * calling thread holds resize_mutex and, when shared, is registered with
 * the table's flavor.
 */

/* Opens a read-side section every BUCKETS_PER_SECTION buckets. */
static void section_break(struct cds_lfht *ht, bool shared, unsigned long done)
{
	if (!shared || done % BUCKETS_PER_SECTION)
		return;
	if (done) {
		ht->flavor->read_unlock();
		/* QSBR: let grace periods end between sections. */
		ht->flavor->read_quiescent_state();
	}
	ht->flavor->read_lock();
}

/*
 * A share of one resize step's buckets: link (grow) or unlink (shrink)
 * buckets [start, end), in read-side sections when the table is shared.
 */
struct bucket_share {
	struct cds_lfht *ht;
	unsigned long start, end;
	bool shared, link;
	pthread_t tid;
};

static void bucket_share_run(const struct bucket_share *b)
{
	unsigned long i;

	for (i = b->start; i < b->end; i++) {
		section_break(b->ht, b->shared, i - b->start);
		if (b->link)
			cds__lfht_link_bucket(b->ht, i);
		else
			cds__lfht_unlink_bucket(b->ht, i);
	}
	if (b->shared && b->end > b->start)
		b->ht->flavor->read_unlock();
}

/* A helper thread: registered with the table's flavor for its share. */
static void *bucket_share_thread(void *arg)
{
	struct bucket_share *b = arg;

	if (b->shared)
		b->ht->flavor->register_thread();
	bucket_share_run(b);
	if (b->shared)
		b->ht->flavor->unregister_thread();
	return NULL;
}

/* CPUs this process may run on (at least 1). */
static unsigned long usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned long) CPU_COUNT(&set);
	return 1;
}

/*
 * Helper threads may be created with the table's attributes only when
 * those leave them joinable.
 */
static bool helpers_allowed(const struct cds_lfht *ht)
{
	int state;

	return !ht->attr
	       || (pthread_attr_getdetachstate(ht->attr, &state) == 0
		   && state == PTHREAD_CREATE_JOINABLE);
}

/*
 * Link or unlink buckets [first, end).  Each bucket node goes between its
 * parent bucket and the parent's next bucket of a lower order, so the
 * buckets of one step touch disjoint stretches of the list, and the
 * lock-free link and unlink (rculfhash.c) need no more than they do
 * against concurrent updates.  A large step is therefore split in equal
 * shares, one per usable CPU with at least SHARE_MIN_BUCKETS buckets
 * each: the calling thread runs the first, helper threads the others.
 * A helper that cannot be created leaves its share to the calling thread,
 * so the step completes whatever happens; joining the helpers orders
 * their work before the caller's next step (publishing the size, or the
 * grace period before freeing).
 */
static void bucket_pass(struct cds_lfht *ht, unsigned long first,
		unsigned long end, bool shared, bool link)
{
	struct bucket_share share[MAX_SHARES];
	bool started[MAX_SHARES] = { false };
	unsigned long len = end - first, n = 1, i;

	if (len >= 2 * SHARE_MIN_BUCKETS && helpers_allowed(ht)) {
		n = usable_cpus();
		if (n > len / SHARE_MIN_BUCKETS)
			n = len / SHARE_MIN_BUCKETS;
		if (n > MAX_SHARES)
			n = MAX_SHARES;
	}
	for (i = 0; i < n; i++) {
		share[i] = (struct bucket_share) {
			.ht = ht, .shared = shared, .link = link,
			.start = first + len / n * i,
			.end = i + 1 == n ? end : first + len / n * (i + 1),
		};
	}
	for (i = 1; i < n; i++)
		started[i] = pthread_create(&share[i].tid, ht->attr,
					    bucket_share_thread, &share[i]) == 0;
	bucket_share_run(&share[0]);
	for (i = 1; i < n; i++) {
		if (started[i])
			(void) pthread_join(share[i].tid, NULL);
		else
			bucket_share_run(&share[i]);
	}
}

/* Grows from 2^(order-1) to 2^order buckets; false when out of memory. */
static bool grow_one(struct cds_lfht *ht, unsigned long order, bool shared)
{
	unsigned long first = 1UL << (order - 1);

	if (order > ht->alloc_order) {
		if (!cds__lfht_mm_alloc_order(ht, order))
			return false;
		ht->alloc_order = order;
	}
	bucket_pass(ht, first, 2 * first, shared, true);
	publish_size(ht, 2 * first);
	return true;
}

/* Shrinks from 2^order to 2^(order-1) buckets. */
static void shrink_one(struct cds_lfht *ht, unsigned long order, bool shared)
{
	unsigned long first = 1UL << (order - 1);

	publish_size(ht, first);
	if (shared)
		ht->flavor->update_synchronize_rcu();
	bucket_pass(ht, first, 2 * first, shared, false);
	if (shared)
		ht->flavor->update_synchronize_rcu();
	if (order > ht->min_alloc_order) {
		cds__lfht_mm_free_order(ht, order);
		ht->alloc_order = order - 1;
	}
}

/* One order toward @target; false when there already or out of memory. */
static bool step_toward(struct cds_lfht *ht, unsigned long target, bool shared)
{
	/* Relaxed: only resize steps, serialized by resize_mutex, store it. */
	unsigned long size = __atomic_load_n(&ht->size, __ATOMIC_RELAXED);

	if (target > size)
		return grow_one(ht, lfht_order_of(size) + 1, shared);
	if (target < size) {
		shrink_one(ht, lfht_order_of(size), shared);
		return true;
	}
	return false;
}

/*
 * Takes resize_mutex.  A QSBR thread goes offline while it waits, since
 * the holder may be waiting for a grace period.
 */
static void lock_resize(struct cds_lfht *ht)
{
	ht->flavor->thread_offline();
	pthread_mutex_lock(&ht->resize_mutex);
	ht->flavor->thread_online();
}

URCU_API void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size)
{
	unsigned long target = clamp_size(ht, new_size);

	/* Relaxed: a hint for the worker; the mutex orders the steps. */
	__atomic_store_n(&ht->resize_target, target, __ATOMIC_RELAXED);
	lock_resize(ht);
	while (step_toward(ht, target, true))
		;
	pthread_mutex_unlock(&ht->resize_mutex);
}

bool cds__lfht_worker_step(struct cds_lfht *ht)
{
	unsigned long target;
	bool more = false;

	lock_resize(ht);
	/* Relaxed: set by cds_lfht_destroy() before it waits for us. */
	if (!__atomic_load_n(&ht->destroying, __ATOMIC_RELAXED)) {
		/* Relaxed: a hint; the step itself reads the list safely. */
		target = __atomic_load_n(&ht->resize_target, __ATOMIC_RELAXED);
		if (step_toward(ht, target, true))
			more = ht->size != target;
		else if (ht->size != target)	/* out of memory: give up; */
			/* relaxed: a hint, as above. */
			__atomic_store_n(&ht->resize_target, ht->size,
					 __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&ht->resize_mutex);
	return more;
}

/* ------------------------------------------------------------------------
 * Accounting and automatic-resize requests (from update paths, inside
 * read-side sections: nothing here blocks for long).
 */

static void request_grow(struct cds_lfht *ht, unsigned long size)
{
	unsigned long target = clamp_size(ht, size);
	/* Relaxed (also below): resize_target is a hint, see file comment. */
	unsigned long cur = __atomic_load_n(&ht->resize_target, __ATOMIC_RELAXED);

	do {
		if (cur >= target)
			return;
	} while (!__atomic_compare_exchange_n(&ht->resize_target, &cur, target,
			false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	cds__lfht_worker_queue(ht);
}

static void request_shrink(struct cds_lfht *ht, unsigned long size)
{
	unsigned long target = clamp_size(ht, size);
	unsigned long cur = __atomic_load_n(&ht->resize_target, __ATOMIC_RELAXED);

	do {
		if (cur <= target)
			return;
	} while (!__atomic_compare_exchange_n(&ht->resize_target, &cur, target,
			false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	cds__lfht_worker_queue(ht);
}

static struct lfht_split_count *my_split_count(struct cds_lfht *ht)
{
	int cpu = sched_getcpu();

	if (cpu < 0)	/* no CPU number: spread threads by stack address */
		cpu = (int) (((uintptr_t) &cpu) >> 12);
	return &ht->split[(unsigned long) cpu & ht->split_mask];
}

/*
 * Relaxed, in both functions below: the counters are statistics; no
 * memory is published through them.
 */
void cds__lfht_account_add(struct cds_lfht *ht, unsigned long size,
			   unsigned long chain_len)
{
	bool autoresize = ht->flags & CDS_LFHT_AUTO_RESIZE;

	if (ht->split) {
		struct lfht_split_count *c = my_split_count(ht);

		if (!(__atomic_add_fetch(&c->adds, 1, __ATOMIC_RELAXED)
		      % COMMIT_INTERVAL)) {
			long count = __atomic_add_fetch(&ht->count,
					(long) COMMIT_INTERVAL, __ATOMIC_RELAXED);

			if (autoresize && count > (long) size)
				request_grow(ht, (unsigned long) count);
		}
	}
	if (autoresize && chain_len >= CHAIN_LEN_GROW)
		request_grow(ht, size << 1);
}

void cds__lfht_account_del(struct cds_lfht *ht, unsigned long size)
{
	struct lfht_split_count *c;
	long count;

	if (!ht->split)
		return;
	c = my_split_count(ht);
	if (__atomic_add_fetch(&c->dels, 1, __ATOMIC_RELAXED) % COMMIT_INTERVAL)
		return;
	count = __atomic_sub_fetch(&ht->count, (long) COMMIT_INTERVAL,
				   __ATOMIC_RELAXED);
	if ((ht->flags & CDS_LFHT_AUTO_RESIZE) && count < (long) (size / 4))
		request_shrink(ht, count > 0 ? 2 * (unsigned long) count : 1);
}

long cds__lfht_split_total(struct cds_lfht *ht)
{
	unsigned long adds = 0, dels = 0, i;

	if (!ht->split)
		return 0;
	for (i = 0; i <= ht->split_mask; i++) {
		/* Relaxed: a statistic. */
		adds += __atomic_load_n(&ht->split[i].adds, __ATOMIC_RELAXED);
		dels += __atomic_load_n(&ht->split[i].dels, __ATOMIC_RELAXED);
	}
	return (long) (adds - dels);
}

/* ------------------------------------------------------------------------
 * Creation and destruction.
 */

static const struct cds_lfht_alloc *table_alloc(struct cds_lfht *ht)
{
	return ht->alloc.free ? &ht->alloc : NULL;
}

static size_t split_bytes(struct cds_lfht *ht)
{
	return (ht->split_mask + 1) * sizeof(struct lfht_split_count);
}

static bool alloc_split_counters(struct cds_lfht *ht)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long n = round_pow2(cpus > 0 ? (unsigned long) cpus : 1);

	if (n > MAX_SPLIT_COUNTERS)
		n = MAX_SPLIT_COUNTERS;
	ht->split_mask = n - 1;
	ht->split = cds__lfht_mem_alloc(table_alloc(ht), split_bytes(ht),
					CAA_CACHE_LINE_SIZE);
	return ht->split != NULL;
}

/* Frees bucket memory above the preallocated orders, then the table. */
static void free_table(struct cds_lfht *ht)
{
	for (; ht->alloc_order > ht->min_alloc_order; ht->alloc_order--)
		cds__lfht_mm_free_order(ht, ht->alloc_order);
	if (ht->split)
		cds__lfht_mem_free(table_alloc(ht), ht->split, split_bytes(ht),
				   CAA_CACHE_LINE_SIZE);
	pthread_mutex_destroy(&ht->resize_mutex);
	cds__lfht_mm_delete(ht);
}

static bool valid_alloc(const struct cds_lfht_alloc *alloc)
{
	return !alloc || ((alloc->malloc || alloc->calloc) && alloc->free);
}

URCU_API struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size,
		unsigned long min_nr_alloc_buckets, unsigned long max_nr_buckets,
		int flags, const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor,
		const struct cds_lfht_alloc *alloc, pthread_attr_t *attr)
{
	struct cds_lfht *ht;
	struct cds_lfht_node *bucket0;
	unsigned long order;

	if (!mm)
		mm = &cds_lfht_mm_order;
	if (!flavor || !is_pow2(init_size) || !is_pow2(min_nr_alloc_buckets)
	    || (max_nr_buckets && !is_pow2(max_nr_buckets))
	    || (flags & ~(CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING))
	    || !valid_alloc(alloc) || cds__lfht_mm_kind(mm) > LFHT_MM_MMAP)
		return NULL;
	if (!max_nr_buckets) {
		/* chunk and mmap size their bookkeeping for the ceiling. */
		if (cds__lfht_mm_kind(mm) != LFHT_MM_ORDER)
			return NULL;
		max_nr_buckets = 1UL << LFHT_MAX_ORDER;
	}
	if (max_nr_buckets < init_size || max_nr_buckets < min_nr_alloc_buckets)
		return NULL;

	ht = cds__lfht_mm_new(mm, min_nr_alloc_buckets, max_nr_buckets, alloc);
	if (!ht)
		return NULL;
	ht->flavor = flavor;
	ht->flags = flags;
	ht->attr = attr;
	ht->alloc_order = ht->min_alloc_order;
	pthread_mutex_init(&ht->resize_mutex, NULL);
	CDS_INIT_LIST_HEAD(&ht->work_node);
	if ((flags & CDS_LFHT_ACCOUNTING) && !alloc_split_counters(ht)) {
		free_table(ht);
		return NULL;
	}
	/* Nobody else sees the table yet: plain stores, no read-side. */
	bucket0 = lfht_bucket_at(ht, 0);
	bucket0->reverse_hash = 0;
	bucket0->next = lfht_with(NULL, NODE_BUCKET);
	ht->size = 1;
	for (order = 1; ht->size < init_size; order++) {
		if (!grow_one(ht, order, false)) {
			free_table(ht);
			return NULL;
		}
	}
	ht->resize_target = init_size;
	flavor->register_rculfhash_atfork(&cds__lfht_atfork);
	return ht;
}

URCU_API struct cds_lfht *_cds_lfht_new(unsigned long init_size,
		unsigned long min_nr_alloc_buckets, unsigned long max_nr_buckets,
		int flags, const struct cds_lfht_mm_type *mm,
		const struct rcu_flavor_struct *flavor, pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets,
			max_nr_buckets, flags, mm, flavor, NULL, attr);
}

URCU_API int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr)
{
	/*
	 * QSBR: an online caller goes offline while it waits for a resize
	 * step, which may itself wait for a grace period.  Other flavors
	 * report no section here (destroy inside one is misuse) and their
	 * offline/online calls do nothing.
	 */
	int was_online = ht->flavor->read_ongoing();

	/* Relaxed: the worker's mutex orders it before the worker's check. */
	__atomic_store_n(&ht->destroying, 1, __ATOMIC_RELAXED);
	if (was_online)
		ht->flavor->thread_offline();
	cds__lfht_worker_forget(ht);
	if (was_online)
		ht->flavor->thread_online();
	if (cds__lfht_has_nodes(ht)) {
		/* Relaxed: as above; the table is usable again. */
		__atomic_store_n(&ht->destroying, 0, __ATOMIC_RELAXED);
		return -EPERM;
	}
	ht->flavor->unregister_rculfhash_atfork(&cds__lfht_atfork);
	if (attr)
		*attr = ht->attr;
	free_table(ht);
	return 0;
}
