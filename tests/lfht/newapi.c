/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TCase "newapi" of the rculfhash suite: API that liburcu 0.13 lacks;
 * check_rculfhash.c calls lfht_add_newapi_tests() only when this file is
 * linked (a weak reference, see lfht.h).
 *
 * Assumed API (as in later liburcu releases):
 *  - void cds_lfht_node_init_deleted(struct cds_lfht_node *node):
 *    cds_lfht_is_node_deleted() is true for such a node until it is added;
 *  - struct cds_lfht_alloc { malloc, calloc, realloc, aligned_alloc, free,
 *    state } and cds_lfht_new_with_flavor_alloc(init_size,
 *    min_nr_alloc_buckets, max_nr_buckets, flags, flavor, alloc, attr):
 *    the table and its bucket tables are allocated through @alloc.
 * And choices of this project: max_nr_buckets below init_size is
 * refused (liburcu 0.13 clamps init_size instead), and running out of
 * memory while resizing leaves the table usable at the size it reached
 * (liburcu aborts), and resize steps share their buckets with helper
 * threads only when the table's thread attributes leave them joinable.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include "lfht.h"
/* liburcu-common's private interface: urcu__alloc_fail_after(). */
#include "urcu-alloc.h"

START_TEST(test_node_init_deleted)
{
	struct lfht_item *it = lfht_item_new(3);
	struct cds_lfht *ht = cds_lfht_new_flavor(4, 1, 0, 0, &urcu_memb_flavor,
						  NULL);
	struct cds_lfht_iter iter;
	unsigned long key = 3;

	ck_assert_ptr_nonnull(ht);
	urcu_memb_register_thread();
	cds_lfht_node_init_deleted(&it->node);
	urcu_memb_read_lock();
	ck_assert(cds_lfht_is_node_deleted(&it->node));
	/* Adding it makes it a live node; deleting it, a deleted one. */
	cds_lfht_node_init(&it->node);
	cds_lfht_add(ht, lfht_hash(key), &it->node);
	ck_assert(!cds_lfht_is_node_deleted(&it->node));
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &it->node);
	ck_assert_int_eq(cds_lfht_del(ht, &it->node), 0);
	ck_assert(cds_lfht_is_node_deleted(&it->node));
	urcu_memb_read_unlock();
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	urcu_memb_synchronize_rcu();
	free(it);
	urcu_memb_unregister_thread();
}
END_TEST

START_TEST(test_max_below_init_refused)
{
	const struct rcu_flavor_struct *fl = &urcu_memb_flavor;

	ck_assert_ptr_null(cds_lfht_new_flavor(16, 1, 4, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(16, 1, 8, CDS_LFHT_AUTO_RESIZE,
					       fl, NULL));
	ck_assert_ptr_null(_cds_lfht_new(16, 1, 4, 0, &cds_lfht_mm_order, fl,
					 NULL));
}
END_TEST

/* ------------------------------------------------------------------------
 * A custom allocator that counts the blocks it hands out.
 */

struct counting {
	atomic_long live;	/* blocks allocated and not yet freed */
	atomic_long allocs;	/* blocks ever allocated */
	atomic_int fail;	/* nonzero: every allocation fails */
	atomic_long failed;	/* allocations refused */
};

static long get(atomic_long *v)
{
	return atomic_load(v);
}

static void *counted(void *state, void *p)
{
	struct counting *c = state;

	if (p && atomic_load(&c->fail)) {
		free(p);
		atomic_fetch_add(&c->failed, 1);
		return NULL;
	}
	if (p) {
		atomic_fetch_add(&c->live, 1);
		atomic_fetch_add(&c->allocs, 1);
	}
	return p;
}

static void *ca_malloc(void *state, size_t size)
{
	return counted(state, malloc(size));
}

static void *ca_calloc(void *state, size_t nmemb, size_t size)
{
	return counted(state, calloc(nmemb, size));
}

static void *ca_realloc(void *state, void *ptr, size_t size)
{
	struct counting *c = state;
	void *p;

	if (!ptr)
		return ca_malloc(state, size);
	p = realloc(ptr, size);
	/* glibc's realloc(ptr, 0) frees ptr and returns NULL. */
	if (!p && size == 0)
		atomic_fetch_sub(&c->live, 1);
	return p;
}

static void *ca_aligned_alloc(void *state, size_t alignment, size_t size)
{
	void *p;

	if (alignment < sizeof(void *))
		alignment = sizeof(void *);
	if (posix_memalign(&p, alignment, size) != 0)
		return NULL;
	return counted(state, p);
}

static void ca_free(void *state, void *ptr)
{
	struct counting *c = state;

	if (ptr) {
		atomic_fetch_sub(&c->live, 1);
		free(ptr);
	}
}

#define COUNTING_ALLOC(counts) {					\
		.malloc = ca_malloc,					\
		.calloc = ca_calloc,					\
		.realloc = ca_realloc,					\
		.aligned_alloc = ca_aligned_alloc,			\
		.free = ca_free,					\
		.state = (counts),					\
	}

/*
 * The table and its bucket tables come from the allocator (max_nr_buckets
 * 0: unbounded, so bucket tables are allocated memory, not a reserved
 * mapping), and destroy gives all of it back.  Loop index: flags.
 */
START_TEST(test_custom_alloc)
{
	enum { N = 2048 };
	static const int flags[] = {
		0, CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
	};
	struct counting counts = { 0, 0, 0, 0 };
	struct cds_lfht_alloc alloc = COUNTING_ALLOC(&counts);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct lfht_item *it;
	struct cds_lfht *ht;
	long created;
	unsigned long key, n;

	ht = cds_lfht_new_with_flavor_alloc(1, 1, 0, flags[_i],
					    &urcu_memb_flavor, &alloc, NULL);
	ck_assert_ptr_nonnull(ht);
	ck_assert_int_ge(get(&counts.live), 1);
	created = get(&counts.allocs);

	urcu_memb_register_thread();
	for (key = 0; key < N; key++) {
		it = lfht_item_new(key);
		urcu_memb_read_lock();
		cds_lfht_add(ht, lfht_hash(key), &it->node);
		urcu_memb_read_unlock();
	}
	cds_lfht_resize(ht, 1UL << 12);
	ck_assert_int_gt(get(&counts.allocs), created);
	cds_lfht_resize(ht, 1);
	cds_lfht_resize(ht, 1UL << 10);

	n = 0;
	urcu_memb_read_lock();
	for (key = 0; key < N; key++) {
		cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
		ck_assert_ptr_nonnull(cds_lfht_iter_get_node(&iter));
	}
	cds_lfht_for_each(ht, &iter, node) {
		ck_assert_int_eq(cds_lfht_del(ht, node), 0);
		urcu_memb_call_rcu(&lfht_to_item(node)->rcu, lfht_item_free_cb);
		n++;
	}
	urcu_memb_read_unlock();
	ck_assert_uint_eq(n, N);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	/* Whatever destroy handed to call_rcu has run after this. */
	urcu_memb_barrier();
	ck_assert_int_eq(get(&counts.live), 0);
	urcu_memb_unregister_thread();
	harness_assert_no_failures("custom_alloc");
}
END_TEST

/* Adds keys [first, last) to @ht, each in its own read-side section. */
static void add_keys(struct cds_lfht *ht, unsigned long first, unsigned long last)
{
	unsigned long key;

	for (key = first; key < last; key++) {
		struct lfht_item *it = lfht_item_new(key);

		urcu_memb_read_lock();
		cds_lfht_add(ht, lfht_hash(key), &it->node);
		urcu_memb_read_unlock();
	}
}

/* Whether every key of [0, n) is found, and nothing else is in @ht. */
static bool holds_exactly(struct cds_lfht *ht, unsigned long n)
{
	struct cds_lfht_iter iter;
	unsigned long key, count;
	long before, after;
	bool all = true;

	urcu_memb_read_lock();
	for (key = 0; key < n; key++) {
		cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
		all = all && cds_lfht_iter_get_node(&iter);
	}
	cds_lfht_count_nodes(ht, &before, &count, &after);
	urcu_memb_read_unlock();
	return all && count == n;
}

/* Deletes every node of @ht (freed after a grace period), then destroys it. */
static int empty_and_destroy(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	urcu_memb_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		if (cds_lfht_del(ht, node) == 0)
			urcu_memb_call_rcu(&lfht_to_item(node)->rcu,
					   lfht_item_free_cb);
	}
	urcu_memb_read_unlock();
	return cds_lfht_destroy(ht, NULL);
}

/*
 * Out of memory while growing: the resize stops, and the table keeps
 * every key, stays usable, grows once memory is back, and frees all it
 * allocated.  Loop index: bucket layout (order, chunk).
 */
START_TEST(test_resize_out_of_memory)
{
	enum { N = 4096 };
	const struct cds_lfht_mm_type *mm[] = {
		&cds_lfht_mm_order, &cds_lfht_mm_chunk,
	};
	struct counting counts = { 0, 0, 0, 0 };
	struct cds_lfht_alloc alloc = COUNTING_ALLOC(&counts);
	struct cds_lfht *ht;

	ht = _cds_lfht_new_with_alloc(4, 4, 1UL << 20, 0, mm[_i],
				      &urcu_memb_flavor, &alloc, NULL);
	ck_assert_ptr_nonnull(ht);
	urcu_memb_register_thread();
	add_keys(ht, 0, N / 2);
	atomic_store(&counts.fail, 1);
	cds_lfht_resize(ht, 1UL << 16);
	ck_assert_int_gt(get(&counts.failed), 0);
	ck_assert(holds_exactly(ht, N / 2));
	add_keys(ht, N / 2, N);
	ck_assert(holds_exactly(ht, N));
	atomic_store(&counts.fail, 0);
	cds_lfht_resize(ht, 1UL << 12);
	ck_assert(holds_exactly(ht, N));
	cds_lfht_resize(ht, 4);
	ck_assert(holds_exactly(ht, N));
	ck_assert_int_eq(empty_and_destroy(ht), 0);
	urcu_memb_barrier();
	ck_assert_int_eq(get(&counts.live), 0);
	urcu_memb_unregister_thread();
	harness_assert_no_failures("resize_out_of_memory");
}
END_TEST

/*
 * The same through the library's own allocator, failing by fault
 * injection (liburcu-common's test hook urcu__alloc_fail_after(); each
 * test runs in a fresh process).
 * Creation takes the table and its first bucket array; the next two
 * allocations let it grow twice more, then every one fails.
 */
START_TEST(test_resize_out_of_memory_library)
{
	enum { N = 1024 };
	struct cds_lfht *ht;

	/*
	 * The allocation layer is shared by every library: start the flavor's
	 * default call_rcu worker (which the table uses to free bucket
	 * arrays) first, so that only the table's allocations are counted.
	 */
	ck_assert_ptr_nonnull(urcu_memb_get_default_call_rcu_data());
	urcu__alloc_fail_after(4);
	ht = cds_lfht_new_flavor(1, 1, 0, 0, &urcu_memb_flavor, NULL);
	ck_assert_ptr_nonnull(ht);
	urcu_memb_register_thread();
	add_keys(ht, 0, N);
	cds_lfht_resize(ht, 1UL << 12);	/* stops at 4 buckets */
	ck_assert(holds_exactly(ht, N));
	cds_lfht_resize(ht, 1);		/* frees both grown orders */
	cds_lfht_resize(ht, 1UL << 12);	/* cannot grow at all now */
	ck_assert(holds_exactly(ht, N));
	ck_assert_int_eq(empty_and_destroy(ht), 0);
	/* Creation itself now fails cleanly. */
	ck_assert_ptr_null(cds_lfht_new_flavor(1, 1, 0, 0, &urcu_memb_flavor,
					       NULL));
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
	harness_assert_no_failures("resize_out_of_memory_library");
}
END_TEST

/*
 * Resize helpers.  A flavor table that counts registrations: a large
 * resize step splits its buckets among helper threads, one per usable CPU
 * (rculfhash-resize.c), and each registers with the table's flavor.
 */
static atomic_int registrations;
static struct rcu_flavor_struct counting_flavor;

static void counting_register_thread(void)
{
	atomic_fetch_add(&registrations, 1);
	urcu_memb_register_thread();
}

static struct cds_lfht *counting_table(pthread_attr_t *attr)
{
	struct cds_lfht *ht;

	counting_flavor = urcu_memb_flavor;
	counting_flavor.register_thread = counting_register_thread;
	ht = cds_lfht_new_flavor(1, 1, 0, 0, &counting_flavor, attr);
	ck_assert_ptr_nonnull(ht);
	return ht;
}

static int usable_cpus(void)
{
	cpu_set_t set;

	ck_assert_int_eq(sched_getaffinity(0, sizeof(set), &set), 0);
	return CPU_COUNT(&set);
}

/*
 * Growing to 2^17 buckets and back: the steps of 2^15 and 2^16 buckets
 * use a helper thread per usable CPU beyond the caller's (none on one
 * CPU), and every key stays findable.
 */
START_TEST(test_resize_helpers)
{
	enum { N = 4096 };
	struct cds_lfht *ht = counting_table(NULL);

	urcu_memb_register_thread();
	add_keys(ht, 0, N);
	cds_lfht_resize(ht, 1UL << 17);
	ck_assert(holds_exactly(ht, N));
	if (usable_cpus() > 1)
		ck_assert_int_ge(atomic_load(&registrations), 2);
	else
		ck_assert_int_eq(atomic_load(&registrations), 0);
	atomic_store(&registrations, 0);
	cds_lfht_resize(ht, 1);
	ck_assert(holds_exactly(ht, N));
	if (usable_cpus() > 1)
		ck_assert_int_ge(atomic_load(&registrations), 2);
	ck_assert_int_eq(empty_and_destroy(ht), 0);
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
	harness_assert_no_failures("resize_helpers");
}
END_TEST

/*
 * Thread attributes that make threads detached cannot serve helpers,
 * which are joined: the caller then resizes alone.
 */
START_TEST(test_resize_detached_attr)
{
	enum { N = 4096 };
	pthread_attr_t attr;
	struct cds_lfht *ht;

	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	ck_assert_int_eq(pthread_attr_setdetachstate(&attr,
					PTHREAD_CREATE_DETACHED), 0);
	ht = counting_table(&attr);
	urcu_memb_register_thread();
	add_keys(ht, 0, N);
	cds_lfht_resize(ht, 1UL << 17);
	ck_assert(holds_exactly(ht, N));
	cds_lfht_resize(ht, 1);
	ck_assert(holds_exactly(ht, N));
	ck_assert_int_eq(atomic_load(&registrations), 0);
	ck_assert_int_eq(empty_and_destroy(ht), 0);
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
	pthread_attr_destroy(&attr);
	harness_assert_no_failures("resize_detached_attr");
}
END_TEST

void lfht_add_newapi_tests(Suite *s)
{
	TCase *tc = harness_tcase(s, "newapi", 30);

	tcase_add_test(tc, test_node_init_deleted);
	tcase_add_test(tc, test_max_below_init_refused);
	tcase_add_loop_test(tc, test_custom_alloc, 0, 2);
	tcase_add_loop_test(tc, test_resize_out_of_memory, 0, 2);
	tcase_add_test(tc, test_resize_out_of_memory_library);
	tcase_add_test(tc, test_resize_helpers);
	tcase_add_test(tc, test_resize_detached_attr);
}
