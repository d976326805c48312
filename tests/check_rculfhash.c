/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rculfhash": the resizable RCU lock-free hash table
 * (<urcu/rculfhash.h>, liburcu-cds), through liburcu's public API only.
 *
 * TCase "api": single-threaded semantics of every call: creation (the
 * legacy cds_lfht_new(), cds_lfht_new_flavor(), _cds_lfht_new() with each
 * bucket allocator) and argument checks, destroy, count, lookup,
 * duplicates, iteration, add_unique, add_replace, replace, del,
 * is_node_deleted, node reuse, forced and automatic resizing, accounting.
 * TCase "concurrent": updaters, readers and a thread forcing resizes up
 * and down, for a time budget each:
 *  - "updates": updaters own disjoint key ranges, so their model of those
 *    keys is exact, and race on a shared range with add_unique, del,
 *    add_replace and replace; readers never see two nodes for one key;
 *  - "stable": keys nobody touches are seen exactly once by every full
 *    traversal and found by every lookup while other keys churn;
 *  - "replace": keys being replaced in a loop are found exactly once by
 *    every lookup and traversal, never zero times, never twice.
 * Removed items go through call_rcu to a callback that poisons them and
 * keeps them in a "graveyard" for a while before freeing them, so a reader
 * reaching an item after its grace period sees the poison (lfht_match()
 * and check_item() report it).
 * TCase "flavors": one table per flavor (memb and qsbr), each used from
 * two compilation units, tests/lfht/memb_side.c and tests/lfht/qsbr_side.c,
 * which know the other flavor only through its flavor table.
 * TCase "newapi" (tests/lfht/newapi.c, linked only in the project's build):
 * API that liburcu 0.13 lacks, and running out of memory while resizing.
 * TCase "fork": the automatic-resize worker across fork().
 *
 * Every test of "api" (but those of the legacy cds_lfht_new() and the
 * argument checks), "concurrent" and "fork" is a loop test over the five
 * flavors (tests/flavors/flavors.h), times its variants (flags, bucket
 * allocator): the table reaches its flavor only through the flavor table
 * it was created with, and the tests call the flavor through the same
 * table.  A QSBR thread announces quiescent states between operations,
 * and the test thread goes offline around the fork (fork_prepare());
 * it calls cds_lfht_destroy() online, which must then go offline by
 * itself while it waits for a resize step.
 *
 * Conventions: fork mode, each test creates all of its RCU state; worker
 * threads never call ck_assert, they record failures with HARNESS_CHECK /
 * harness_fail and the test thread asserts after joining them and
 * rcu_barrier(); stress phases last a time budget scaled by
 * CK_TIMEOUT_MULTIPLIER and nothing asserts on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

/*
 * The memb flavor with the generic names, for test_new_legacy(): it
 * enables cds_lfht_new().  Every other test names its flavor.
 */
#include <urcu.h>
#include <urcu/rculfhash.h>

#include "flavors/flavors.h"
#include "harness/harness.h"
#include "lfht/lfht.h"

/* Stress budget per run, before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_S	0.5
#define NR_UPDATERS	2
#define NR_READERS	2
/* Keys each updater owns (its model of them is exact). */
#define OWN_KEYS	256
/* Keys all updaters race on (stress "updates"). */
#define SHARED_KEYS	32
/* Keys never removed (stress "stable"). */
#define STABLE_KEYS	1024
/* Keys replaced in a loop (stress "replace"). */
#define REPL_KEYS	8

/*
 * The fork test's child starts threads (call_rcu and resize workers)
 * after a multi-threaded fork, which ThreadSanitizer refuses by default.
 */
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}
#endif

/* Flag combinations the loop tests run with. */
static const int loop_flags[] = {
	0,
	CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
};

/* ------------------------------------------------------------------------
 * The flavor under test.
 */

/* Set first thing by every test, through use_flavor(). */
static const struct test_flavor *tf;

/*
 * Loop tests run every flavor with each of @n variants (flags, allocator,
 * ...): loop index i is flavor i / @n, variant i % @n.  Sets tf; returns
 * the variant.
 */
static int use_flavor(int i, int n)
{
	tf = &test_flavors[i / n];
	return i % n;
}

/* The test case of the signal flavor's runs (see rculfhash_suite()). */
static TCase *signal_tc;

/*
 * Adds @test, a loop test with @n variants per flavor, to @tc, apart from
 * its signal-flavor runs, which go to signal_tc.
 */
static void add_per_flavor(TCase *tc, const TTest *test, int n)
{
	tcase_add_loop_test(tc, test, 0, TF_SIGNAL * n);
	tcase_add_loop_test(signal_tc, test, TF_SIGNAL * n, (TF_SIGNAL + 1) * n);
	tcase_add_loop_test(tc, test, (TF_SIGNAL + 1) * n, N_TEST_FLAVORS * n);
}

/*
 * The fork hooks wait for a resize step in progress, which itself waits
 * for a grace period: <urcu/rculfhash.h> and docs/hash-table.md ask a
 * QSBR thread to be offline for them (for the other flavors,
 * thread_offline() and thread_online() do nothing).
 */

/* The fork hooks an application calls: call_rcu's, and the flavor's (bp). */
static void fork_prepare(void)
{
	tf->fl->thread_offline();
	tf->call_rcu_before_fork();
	if (tf->before_fork)
		tf->before_fork();
}

static void fork_parent(void)
{
	if (tf->after_fork_parent)
		tf->after_fork_parent();
	tf->call_rcu_after_fork_parent();
	tf->fl->thread_online();
}

static void fork_child(void)
{
	if (tf->after_fork_child)
		tf->after_fork_child();
	tf->call_rcu_after_fork_child();
	tf->fl->thread_online();
}

/* ------------------------------------------------------------------------
 * Helpers for the test thread (registered).
 */

/* @n items with keys @first .. @first + n - 1, in no table yet. */
static struct lfht_item *items_new(unsigned long n, unsigned long first)
{
	struct lfht_item *items = calloc(n, sizeof(*items));
	unsigned long i;

	ck_assert_ptr_nonnull(items);
	for (i = 0; i < n; i++) {
		cds_lfht_node_init(&items[i].node);
		items[i].key = first + i;
		items[i].magic = LFHT_LIVE;
	}
	return items;
}

static void add(struct cds_lfht *ht, struct lfht_item *it)
{
	tf->fl->read_lock();
	cds_lfht_add(ht, lfht_hash(it->key), &it->node);
	tf->fl->read_unlock();
}

static void add_all(struct cds_lfht *ht, struct lfht_item *items,
		    unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		add(ht, &items[i]);
}

/*
 * The node cds_lfht_lookup() finds for @key, or NULL.  Single-threaded
 * tests free nothing before a grace period, so the node stays valid after
 * the read-side critical section.
 */
static struct cds_lfht_node *find(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	tf->fl->read_lock();
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	tf->fl->read_unlock();
	return node;
}

static int del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	int ret;

	tf->fl->read_lock();
	ret = cds_lfht_del(ht, node);
	tf->fl->read_unlock();
	return ret;
}

static bool is_deleted(struct cds_lfht_node *node)
{
	int ret;

	tf->fl->read_lock();
	ret = cds_lfht_is_node_deleted(node);
	tf->fl->read_unlock();
	return ret != 0;
}

/* The node count cds_lfht_count_nodes() reports (by traversal). */
static unsigned long nr_nodes(struct cds_lfht *ht)
{
	long before, after;
	unsigned long count;

	tf->fl->read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	tf->fl->read_unlock();
	return count;
}

/* How many nodes cds_lfht_for_each_duplicate() visits for @key. */
static unsigned long nr_dups(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	tf->fl->read_lock();
	cds_lfht_for_each_duplicate(ht, lfht_hash(key), lfht_match, &key,
				    &iter, node) {
		ck_assert_uint_eq(lfht_to_item(node)->key, key);
		n++;
	}
	tf->fl->read_unlock();
	return n;
}

/*
 * The table holds exactly the items[i] with present[i] (all of them when
 * @present is NULL): each is found by lookup and seen once by a traversal,
 * and nothing else is in the table.
 */
static void check_exact(struct cds_lfht *ht, struct lfht_item *items,
			unsigned long n, const bool *present)
{
	unsigned char *seen = calloc(n ? n : 1, 1);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, k, expected = 0, total = 0;

	ck_assert_ptr_nonnull(seen);
	for (i = 0; i < n; i++) {
		bool in = !present || present[i];

		expected += in;
		ck_assert_msg(find(ht, items[i].key) == (in ? &items[i].node : NULL),
			      "lookup of key %lu: expected %s", items[i].key,
			      in ? "its node" : "a miss");
	}
	tf->fl->read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		k = lfht_to_item(node)->key - items[0].key;
		ck_assert_msg(k < n && node == &items[k].node,
			      "traversal: unexpected node (key %lu)",
			      lfht_to_item(node)->key);
		ck_assert_msg(!seen[k]++, "traversal: key %lu seen twice",
			      items[k].key);
		total++;
	}
	tf->fl->read_unlock();
	ck_assert_uint_eq(total, expected);
	ck_assert_uint_eq(nr_nodes(ht), expected);
	free(seen);
}

/*
 * Removes every node, deleting during the traversal (which the API
 * allows), then destroys the table.  With @reclaim, the items were
 * malloc()ed and go to call_rcu; otherwise the caller owns them and must
 * wait for a grace period before freeing them.
 */
static void drain_and_destroy(struct cds_lfht *ht, void (*reclaim)(struct rcu_head *))
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	tf->fl->read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		ck_assert_int_eq(cds_lfht_del(ht, node), 0);
		if (reclaim)
			tf->fl->update_call_rcu(&lfht_to_item(node)->rcu, reclaim);
	}
	tf->fl->read_unlock();
	ck_assert_uint_eq(nr_nodes(ht), 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
}

static struct cds_lfht *new_table(unsigned long init_size, int flags)
{
	struct cds_lfht *ht = cds_lfht_new_flavor(init_size, 1, 0, flags,
						  tf->fl, NULL);

	ck_assert_ptr_nonnull(ht);
	return ht;
}

/*
 * Frees @items once no reader can hold them, and unregisters; lfht_match()
 * must not have seen a poisoned item.
 */
static void api_end(struct lfht_item *items)
{
	tf->fl->update_synchronize_rcu();
	free(items);
	tf->fl->barrier();
	tf->fl->unregister_thread();
	harness_assert_no_failures("api");
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

/* cds_lfht_new(): <urcu.h> before <urcu/rculfhash.h> makes it use rcu_flavor. */
START_TEST(test_new_legacy)
{
	struct lfht_item *items = items_new(16, 0);
	struct cds_lfht *ht;

	use_flavor(TF_MEMB, 1);
	/* Creating a table needs no registration. */
	ht = cds_lfht_new(1, 1, 0, 0, NULL);
	ck_assert_ptr_nonnull(ht);
	tf->fl->register_thread();
	add_all(ht, items, 16);
	check_exact(ht, items, 16, NULL);
	drain_and_destroy(ht, NULL);

	ht = cds_lfht_new(1024, 64, 1UL << 20,
			  CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, NULL);
	ck_assert_ptr_nonnull(ht);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

/* cds_lfht_new_flavor(); destroy hands back the resize thread attributes. */
START_TEST(test_new_flavor)
{
	struct lfht_item *items = items_new(16, 100);
	pthread_attr_t attr, *out;
	struct cds_lfht *ht;
	unsigned int i;

	use_flavor(_i, 1);
	ck_assert_int_eq(pthread_attr_init(&attr), 0);
	for (i = 0; i < 2; i++) {
		ht = cds_lfht_new_flavor(4, 1, 0, loop_flags[i], tf->fl,
					 &attr);
		ck_assert_ptr_nonnull(ht);
		tf->fl->register_thread();
		add_all(ht, items, 16);
		check_exact(ht, items, 16, NULL);
		drain_and_destroy(ht, NULL);
		tf->fl->unregister_thread();

		ht = cds_lfht_new_flavor(4, 1, 0, loop_flags[i], tf->fl,
					 &attr);
		ck_assert_ptr_nonnull(ht);
		out = NULL;
		ck_assert_int_eq(cds_lfht_destroy(ht, &out), 0);
		ck_assert_ptr_eq(out, &attr);
	}
	pthread_attr_destroy(&attr);
	tf->fl->register_thread();
	api_end(items);
}
END_TEST

/* Sizes must be powers of two (max_nr_buckets may also be 0: unbounded). */
START_TEST(test_new_invalid)
{
	const struct rcu_flavor_struct *fl = test_flavors[TF_MEMB].fl;

	ck_assert_ptr_null(cds_lfht_new_flavor(0, 1, 0, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(3, 1, 0, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(12, 1, 0, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(4, 0, 0, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(4, 3, 0, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(4, 1, 6, 0, fl, NULL));
	ck_assert_ptr_null(cds_lfht_new_flavor(4, 1, 6, CDS_LFHT_AUTO_RESIZE,
					       fl, NULL));
	ck_assert_ptr_null(cds_lfht_new(3, 1, 0, 0, NULL));
	ck_assert_ptr_null(_cds_lfht_new(4, 1, 6, 0, &cds_lfht_mm_order, fl,
					 NULL));
	/* The chunk and mmap allocators need a bound. */
	ck_assert_ptr_null(_cds_lfht_new(4, 1, 0, 0, &cds_lfht_mm_chunk, fl,
					 NULL));
	ck_assert_ptr_null(_cds_lfht_new(4, 1, 0, 0, &cds_lfht_mm_mmap, fl,
					 NULL));
}
END_TEST

/*
 * max_nr_buckets below init_size: liburcu 0.13 clamps init_size to the
 * maximum, the project refuses it (pinned by tests/lfht/newapi.c).  Either
 * way no unusable table may come back.
 */
START_TEST(test_new_max_below_init)
{
	struct lfht_item *items = items_new(64, 0);
	struct cds_lfht *ht;

	use_flavor(_i, 1);
	tf->fl->register_thread();
	ht = cds_lfht_new_flavor(16, 1, 4, 0, tf->fl, NULL);
	if (ht) {
		add_all(ht, items, 64);
		cds_lfht_resize(ht, 1024);
		check_exact(ht, items, 64, NULL);
		drain_and_destroy(ht, NULL);
	}
	api_end(items);
}
END_TEST

/* Destroy refuses a table that still has nodes, which stays usable. */
START_TEST(test_destroy_non_empty)
{
	struct lfht_item *items = items_new(2, 7);
	struct cds_lfht *ht;
	int v;

	v = use_flavor(_i, 2);
	ht = new_table(1, loop_flags[v]);
	tf->fl->register_thread();
	add(ht, &items[0]);
	ck_assert_int_lt(cds_lfht_destroy(ht, NULL), 0);
	add(ht, &items[1]);
	ck_assert_int_lt(cds_lfht_destroy(ht, NULL), 0);
	check_exact(ht, items, 2, NULL);
	ck_assert_int_eq(del(ht, &items[0].node), 0);
	ck_assert_int_lt(cds_lfht_destroy(ht, NULL), 0);
	ck_assert_int_eq(del(ht, &items[1].node), 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

START_TEST(test_count_nodes)
{
	struct lfht_item *items = items_new(100, 0);
	struct lfht_item *dup = items_new(1, 5);
	struct cds_lfht *ht;
	unsigned long i;

	use_flavor(_i, 1);
	ht = new_table(8, 0);
	tf->fl->register_thread();
	ck_assert_uint_eq(nr_nodes(ht), 0);
	add_all(ht, items, 100);
	ck_assert_uint_eq(nr_nodes(ht), 100);
	/* A duplicate key is a node of its own. */
	add(ht, dup);
	ck_assert_uint_eq(nr_nodes(ht), 101);
	for (i = 0; i < 30; i++)
		ck_assert_int_eq(del(ht, &items[i].node), 0);
	ck_assert_uint_eq(nr_nodes(ht), 71);
	ck_assert_int_eq(del(ht, &dup->node), 0);
	ck_assert_uint_eq(nr_nodes(ht), 70);
	drain_and_destroy(ht, NULL);
	tf->fl->update_synchronize_rcu();
	free(dup);
	api_end(items);
}
END_TEST

/* Hits, misses, and keys told apart by match() when their hashes collide. */
START_TEST(test_lookup)
{
	enum { N = 64, COLLIDING = 8, HASH = 42 };
	struct lfht_item *items = items_new(N, 1000);
	struct lfht_item *same = items_new(COLLIDING, 0);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, key;

	use_flavor(_i, 1);
	ht = new_table(16, 0);
	tf->fl->register_thread();
	ck_assert_ptr_null(find(ht, 1000));
	add_all(ht, items, N);
	for (i = 0; i < N; i++)
		ck_assert_ptr_eq(find(ht, 1000 + i), &items[i].node);
	ck_assert_ptr_null(find(ht, 999));
	ck_assert_ptr_null(find(ht, 1000 + N));

	/* Keys 0..7 all under hash HASH. */
	tf->fl->read_lock();
	for (i = 0; i < COLLIDING; i++)
		cds_lfht_add(ht, HASH, &same[i].node);
	for (i = 0; i < COLLIDING; i++) {
		key = i;
		cds_lfht_lookup(ht, HASH, lfht_match, &key, &iter);
		ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &same[i].node);
		cds_lfht_next_duplicate(ht, lfht_match, &key, &iter);
		ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	}
	key = COLLIDING;
	cds_lfht_lookup(ht, HASH, lfht_match, &key, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	/* A matching key under another hash is not found. */
	key = 3;
	cds_lfht_lookup(ht, HASH + 1, lfht_match, &key, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	key = 1000;
	cds_lfht_lookup(ht, lfht_hash(1001), lfht_match, &key, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	cds_lfht_for_each(ht, &iter, node)
		ck_assert_int_eq(cds_lfht_del(ht, node), 0);
	tf->fl->read_unlock();
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	tf->fl->update_synchronize_rcu();
	free(same);
	api_end(items);
}
END_TEST

/* cds_lfht_add() keeps duplicates; the duplicate iterators see them all. */
START_TEST(test_duplicates)
{
	enum { DUPS = 3, KEY = 7 };
	struct lfht_item *dups = items_new(DUPS, KEY);
	struct lfht_item *others = items_new(32, 100);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct lfht_item *pos;
	unsigned long key = KEY, i, n;
	unsigned int mask;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	for (i = 0; i < DUPS; i++)
		dups[i].key = KEY;
	add_all(ht, others, 32);
	add_all(ht, dups, DUPS);

	/* cds_lfht_lookup() + cds_lfht_next_duplicate(). */
	tf->fl->read_lock();
	mask = 0;
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	for (n = 0; (node = cds_lfht_iter_get_node(&iter)) != NULL; n++) {
		i = (unsigned long) (lfht_to_item(node) - dups);
		ck_assert_uint_lt(i, DUPS);
		ck_assert_msg(!(mask & (1U << i)), "duplicate %lu seen twice", i);
		mask |= 1U << i;
		cds_lfht_next_duplicate(ht, lfht_match, &key, &iter);
	}
	ck_assert_uint_eq(n, DUPS);

	/* The macros. */
	n = 0;
	cds_lfht_for_each_duplicate(ht, lfht_hash(key), lfht_match, &key,
				    &iter, node)
		n++;
	ck_assert_uint_eq(n, DUPS);
	n = 0;
	cds_lfht_for_each_entry_duplicate(ht, lfht_hash(key), lfht_match, &key,
					  &iter, pos, node) {
		ck_assert_uint_eq(pos->key, KEY);
		n++;
	}
	ck_assert_uint_eq(n, DUPS);
	/* No iteration at all for a missing key. */
	key = 99;
	cds_lfht_for_each_duplicate(ht, lfht_hash(key), lfht_match, &key,
				    &iter, node)
		ck_abort_msg("missing key visited");
	tf->fl->read_unlock();

	ck_assert_int_eq(del(ht, &dups[1].node), 0);
	ck_assert_uint_eq(nr_dups(ht, KEY), DUPS - 1);
	ck_assert_uint_eq(nr_nodes(ht), 32 + DUPS - 1);
	drain_and_destroy(ht, NULL);
	tf->fl->update_synchronize_rcu();
	free(dups);
	api_end(others);
}
END_TEST

/* cds_lfht_first()/cds_lfht_next() and the macros visit every node once. */
START_TEST(test_iterate)
{
	enum { N = 500 };
	struct lfht_item *items = items_new(N, 0);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct lfht_item *pos;
	unsigned char seen[N];
	unsigned long n;

	use_flavor(_i, 1);
	ht = new_table(1, 0);
	tf->fl->register_thread();
	tf->fl->read_lock();
	cds_lfht_first(ht, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	cds_lfht_for_each(ht, &iter, node)
		ck_abort_msg("empty table visited");
	tf->fl->read_unlock();

	add_all(ht, items, N);
	tf->fl->read_lock();
	memset(seen, 0, sizeof(seen));
	n = 0;
	for (cds_lfht_first(ht, &iter); (node = cds_lfht_iter_get_node(&iter));
	     cds_lfht_next(ht, &iter)) {
		ck_assert_uint_lt(lfht_to_item(node)->key, N);
		ck_assert(!seen[lfht_to_item(node)->key]++);
		n++;
	}
	ck_assert_uint_eq(n, N);

	memset(seen, 0, sizeof(seen));
	n = 0;
	cds_lfht_for_each(ht, &iter, node) {
		ck_assert(!seen[lfht_to_item(node)->key]++);
		n++;
	}
	ck_assert_uint_eq(n, N);

	memset(seen, 0, sizeof(seen));
	n = 0;
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		ck_assert_uint_lt(pos->key, N);
		ck_assert(!seen[pos->key]++);
		n++;
	}
	ck_assert_uint_eq(n, N);
	tf->fl->read_unlock();
	drain_and_destroy(ht, NULL);
	api_end(items);
}
END_TEST

/* Returns the new node on success, the node already there otherwise. */
START_TEST(test_add_unique)
{
	struct lfht_item *items = items_new(3, 5);
	struct cds_lfht *ht;
	unsigned long key = 5;
	struct cds_lfht_node *ret;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	items[1].key = 5;
	tf->fl->read_lock();
	ret = cds_lfht_add_unique(ht, lfht_hash(key), lfht_match, &key,
				  &items[0].node);
	ck_assert_ptr_eq(ret, &items[0].node);
	ret = cds_lfht_add_unique(ht, lfht_hash(key), lfht_match, &key,
				  &items[1].node);
	ck_assert_ptr_eq(ret, &items[0].node);
	tf->fl->read_unlock();
	ck_assert_uint_eq(nr_nodes(ht), 1);
	ck_assert_uint_eq(nr_dups(ht, 5), 1);

	/* A refused node may be used at once, without a grace period. */
	items[1].key = 6;
	key = 6;
	tf->fl->read_lock();
	ret = cds_lfht_add_unique(ht, lfht_hash(key), lfht_match, &key,
				  &items[1].node);
	ck_assert_ptr_eq(ret, &items[1].node);
	tf->fl->read_unlock();
	check_exact(ht, items, 2, NULL);
	drain_and_destroy(ht, NULL);
	api_end(items);
}
END_TEST

/* Returns the replaced node, or NULL when the key was absent. */
START_TEST(test_add_replace)
{
	struct lfht_item *items = items_new(3, 9);
	struct cds_lfht *ht;
	unsigned long key = 9;
	struct cds_lfht_node *ret;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	items[1].key = items[2].key = 9;
	tf->fl->read_lock();
	ret = cds_lfht_add_replace(ht, lfht_hash(key), lfht_match, &key,
				   &items[0].node);
	ck_assert_ptr_null(ret);
	ret = cds_lfht_add_replace(ht, lfht_hash(key), lfht_match, &key,
				   &items[1].node);
	ck_assert_ptr_eq(ret, &items[0].node);
	ck_assert(cds_lfht_is_node_deleted(&items[0].node));
	ck_assert(!cds_lfht_is_node_deleted(&items[1].node));
	ret = cds_lfht_add_replace(ht, lfht_hash(key), lfht_match, &key,
				   &items[2].node);
	ck_assert_ptr_eq(ret, &items[1].node);
	tf->fl->read_unlock();
	ck_assert_ptr_eq(find(ht, 9), &items[2].node);
	ck_assert_uint_eq(nr_dups(ht, 9), 1);
	ck_assert_uint_eq(nr_nodes(ht), 1);
	drain_and_destroy(ht, NULL);
	api_end(items);
}
END_TEST

/* cds_lfht_replace(): success, -ENOENT, -EINVAL. */
START_TEST(test_replace)
{
	struct lfht_item *items = items_new(5, 20);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	unsigned long key = 20, other = 21;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	items[1].key = items[2].key = items[3].key = 20;
	add(ht, &items[0]);

	tf->fl->read_lock();
	/* Another key, or the right key under another hash: -EINVAL. */
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &items[0].node);
	items[4].key = other;
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(other), lfht_match,
					  &other, &items[4].node), -EINVAL);
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &other, &items[4].node), -EINVAL);
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(other), lfht_match,
					  &key, &items[1].node), -EINVAL);
	ck_assert(!cds_lfht_is_node_deleted(&items[0].node));

	/* Success. */
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &items[1].node), 0);
	ck_assert(cds_lfht_is_node_deleted(&items[0].node));
	ck_assert(!cds_lfht_is_node_deleted(&items[1].node));
	tf->fl->read_unlock();
	ck_assert_ptr_eq(find(ht, key), &items[1].node);
	ck_assert_uint_eq(nr_dups(ht, key), 1);
	ck_assert_uint_eq(nr_nodes(ht), 1);

	tf->fl->read_lock();
	/* The old node is gone: -ENOENT. */
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &items[2].node), -ENOENT);
	/* A node deleted after its lookup: -ENOENT. */
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_ptr_eq(cds_lfht_iter_get_node(&iter), &items[1].node);
	ck_assert_int_eq(cds_lfht_del(ht, &items[1].node), 0);
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &items[2].node), -ENOENT);
	/* A lookup that found nothing: -ENOENT. */
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_ptr_null(cds_lfht_iter_get_node(&iter));
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &items[3].node), -ENOENT);
	tf->fl->read_unlock();
	ck_assert_uint_eq(nr_nodes(ht), 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

/* cds_lfht_del(): 0, then an error for a node already removed. */
START_TEST(test_del)
{
	struct lfht_item *items = items_new(10, 0);
	struct cds_lfht *ht;
	bool present[10];
	unsigned long i;

	use_flavor(_i, 1);
	ht = new_table(2, 0);
	tf->fl->register_thread();
	add_all(ht, items, 10);
	for (i = 0; i < 10; i++)
		present[i] = i % 3 != 0;
	for (i = 0; i < 10; i += 3) {
		ck_assert_int_eq(del(ht, &items[i].node), 0);
		ck_assert_int_lt(del(ht, &items[i].node), 0);
	}
	check_exact(ht, items, 10, present);
	for (i = 0; i < 10; i++)
		if (present[i])
			ck_assert_int_eq(del(ht, &items[i].node), 0);
	for (i = 0; i < 10; i++)
		ck_assert_int_lt(del(ht, &items[i].node), 0);
	ck_assert_uint_eq(nr_nodes(ht), 0);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

/* Nonzero once a node is removed, by del, add_replace or replace. */
START_TEST(test_is_node_deleted)
{
	struct lfht_item *items = items_new(4, 1);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	unsigned long key = 1;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	items[1].key = items[2].key = items[3].key = 1;
	add(ht, &items[0]);
	ck_assert(!is_deleted(&items[0].node));
	tf->fl->read_lock();
	ck_assert_ptr_eq(cds_lfht_add_replace(ht, lfht_hash(key), lfht_match,
					      &key, &items[1].node),
			 &items[0].node);
	tf->fl->read_unlock();
	ck_assert(is_deleted(&items[0].node));
	ck_assert(!is_deleted(&items[1].node));
	tf->fl->read_lock();
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &items[2].node), 0);
	tf->fl->read_unlock();
	ck_assert(is_deleted(&items[1].node));
	ck_assert(!is_deleted(&items[2].node));
	ck_assert_int_eq(del(ht, &items[2].node), 0);
	ck_assert(is_deleted(&items[2].node));
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

/* A removed node, once a grace period has passed, can be added again. */
START_TEST(test_node_reuse)
{
	struct lfht_item *items = items_new(4, 0);
	struct cds_lfht *ht;
	unsigned long i, round, key;

	use_flavor(_i, 1);
	ht = new_table(4, 0);
	tf->fl->register_thread();
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 4; i++) {
			cds_lfht_node_init(&items[i].node);
			key = items[i].key;
			tf->fl->read_lock();
			ck_assert_ptr_eq(cds_lfht_add_unique(ht, lfht_hash(key),
							     lfht_match, &key,
							     &items[i].node),
					 &items[i].node);
			tf->fl->read_unlock();
			ck_assert(!is_deleted(&items[i].node));
		}
		check_exact(ht, items, 4, NULL);
		for (i = 0; i < 4; i++)
			ck_assert_int_eq(del(ht, &items[i].node), 0);
		ck_assert_uint_eq(nr_nodes(ht), 0);
		tf->fl->update_synchronize_rcu();
	}
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	api_end(items);
}
END_TEST

/*
 * The walk of test_resize and test_bucket_allocators, on @ht with the test
 * thread registered: the @n @items added, every key is findable (and
 * nothing else there) after each resize to @sizes[]; then only the items
 * i with i % @keep_mod == @keep_rem are kept, and the same holds after a
 * resize to @mid and one to a single bucket.  Empties and destroys @ht,
 * frees @items.
 */
static void resize_walk(struct cds_lfht *ht, struct lfht_item *items,
			unsigned long n, const unsigned long *sizes,
			size_t nr_sizes, unsigned long keep_mod,
			unsigned long keep_rem, unsigned long mid)
{
	bool *present = calloc(n, sizeof(*present));
	unsigned long i;

	ck_assert_ptr_nonnull(present);
	add_all(ht, items, n);
	check_exact(ht, items, n, NULL);
	for (i = 0; i < nr_sizes; i++) {
		cds_lfht_resize(ht, sizes[i]);
		check_exact(ht, items, n, NULL);
	}
	for (i = 0; i < n; i++) {
		present[i] = i % keep_mod == keep_rem;
		if (!present[i])
			ck_assert_int_eq(del(ht, &items[i].node), 0);
	}
	cds_lfht_resize(ht, mid);
	check_exact(ht, items, n, present);
	cds_lfht_resize(ht, 1);
	check_exact(ht, items, n, present);
	drain_and_destroy(ht, NULL);
	api_end(items);
	free(present);
}

/* Forced resizes up and down keep every key findable. */
START_TEST(test_resize)
{
	static const unsigned long sizes[] = {
		1UL << 14, 4, 1UL << 10, 1, 1UL << 16, 1UL << 12, 2,
	};
	int v = use_flavor(_i, 2);
	struct cds_lfht *ht = new_table(1, loop_flags[v]);

	tf->fl->register_thread();
	/* Half of the keys removed, then resized again. */
	resize_walk(ht, items_new(4096, 0), 4096, sizes,
		    CAA_ARRAY_SIZE(sizes), 2, 0, 1UL << 13);
}
END_TEST

/*
 * CDS_LFHT_AUTO_RESIZE, starting from one bucket.  Only behaviour is
 * observable: many inserts all stay findable, and the emptied table (which
 * may shrink in the background) goes on working.  Without growth the
 * inserts take quadratic time; that is not asserted, and N is small enough
 * that even a table stuck at a few buckets passes well within the timeout
 * (liburcu 0.13's resize worker sometimes misses a wakeup and stays idle).
 */
START_TEST(test_auto_resize)
{
	enum { N = 5000, AGAIN = 1000 };
	struct lfht_item *items = items_new(N, 0);
	struct cds_lfht *ht;
	unsigned long i;
	int v;

	v = use_flavor(_i, 2);
	ht = new_table(1, v ? CDS_LFHT_AUTO_RESIZE
			    : CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	tf->fl->register_thread();
	add_all(ht, items, N);
	check_exact(ht, items, N, NULL);
	for (i = 0; i < N; i++)
		ck_assert_int_eq(del(ht, &items[i].node), 0);
	ck_assert_uint_eq(nr_nodes(ht), 0);
	/* Give a background shrink time to run. */
	harness_sleep_ms(100);
	ck_assert_uint_eq(nr_nodes(ht), 0);
	tf->fl->update_synchronize_rcu();
	for (i = 0; i < AGAIN; i++)
		cds_lfht_node_init(&items[i].node);
	add_all(ht, items, AGAIN);
	check_exact(ht, items, AGAIN, NULL);
	drain_and_destroy(ht, NULL);
	api_end(items);
}
END_TEST

/*
 * CDS_LFHT_ACCOUNTING: when nothing runs concurrently, the split counters
 * sampled by cds_lfht_count_nodes() equal the traversal's count.
 */
static void check_accounting(struct cds_lfht *ht, unsigned long expected)
{
	long before, after;
	unsigned long count;

	tf->fl->read_lock();
	cds_lfht_count_nodes(ht, &before, &count, &after);
	tf->fl->read_unlock();
	ck_assert_uint_eq(count, expected);
	ck_assert_int_eq(before, (long) expected);
	ck_assert_int_eq(after, (long) expected);
}

START_TEST(test_accounting)
{
	enum { N = 200 };
	struct lfht_item *items = items_new(N, 0);
	struct lfht_item *extra = items_new(3, 0);
	struct cds_lfht *ht;
	struct cds_lfht_iter iter;
	unsigned long i, key = 0;
	int v;

	v = use_flavor(_i, 2);
	ht = new_table(1, v ? CDS_LFHT_ACCOUNTING
			    : CDS_LFHT_ACCOUNTING | CDS_LFHT_AUTO_RESIZE);
	tf->fl->register_thread();
	extra[1].key = extra[2].key = 0;
	check_accounting(ht, 0);
	add_all(ht, items, N);
	check_accounting(ht, N);
	tf->fl->read_lock();
	/* A refused add_unique, an add_replace and a replace add nothing. */
	ck_assert_ptr_eq(cds_lfht_add_unique(ht, lfht_hash(key), lfht_match, &key,
					     &extra[0].node), &items[0].node);
	ck_assert_ptr_eq(cds_lfht_add_replace(ht, lfht_hash(key), lfht_match,
					      &key, &extra[1].node),
			 &items[0].node);
	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	ck_assert_int_eq(cds_lfht_replace(ht, &iter, lfht_hash(key), lfht_match,
					  &key, &extra[2].node), 0);
	tf->fl->read_unlock();
	check_accounting(ht, N);
	/* A refused del removes nothing. */
	ck_assert_int_lt(del(ht, &items[0].node), 0);
	/* items[0] is already gone (add_replace); remove 1 .. N/2 - 1. */
	for (i = 1; i < N / 2; i++)
		ck_assert_int_eq(del(ht, &items[i].node), 0);
	check_accounting(ht, N - (N / 2 - 1));
	cds_lfht_resize(ht, 1UL << 10);
	check_accounting(ht, N - (N / 2 - 1));
	drain_and_destroy(ht, NULL);
	tf->fl->update_synchronize_rcu();
	free(extra);
	api_end(items);
}
END_TEST

/*
 * Each bucket allocator of _cds_lfht_new(): add, lookup and del across
 * resizes, including past max_nr_buckets and below min_nr_alloc_buckets
 * (both clamped).  Variant v (per flavor): allocator v % 3, flags v / 3.
 */
START_TEST(test_bucket_allocators)
{
	static const struct cds_lfht_mm_type *const mms[] = {
		&cds_lfht_mm_order, &cds_lfht_mm_chunk, &cds_lfht_mm_mmap,
	};
	static const unsigned long sizes[] = {
		1UL << 16, 1UL << 18, 1, 1UL << 10, 1UL << 4, 1UL << 15,
	};
	int v = use_flavor(_i, 6);
	struct cds_lfht *ht = _cds_lfht_new(1, 16, 1UL << 16,
					    loop_flags[v / 3], mms[v % 3],
					    tf->fl, NULL);

	ck_assert_ptr_nonnull(ht);
	tf->fl->register_thread();
	/* A third of the keys kept. */
	resize_walk(ht, items_new(5000, 0), 5000, sizes,
		    CAA_ARRAY_SIZE(sizes), 3, 1, 1UL << 12);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent": shared machinery.
 */

/*
 * Reclamation: the call_rcu callback poisons an item and parks it in a
 * ring; it is freed only when GRAVE_SLOTS later items have come in, so a
 * reader that reaches an item after its grace period reads the poison
 * rather than memory reused by malloc.
 */
#define GRAVE_SLOTS	4096

static pthread_mutex_t grave_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lfht_item *grave[GRAVE_SLOTS];
static unsigned long grave_next;

static void reclaim_cb(struct rcu_head *head)
{
	struct lfht_item *it = caa_container_of(head, struct lfht_item, rcu);
	struct lfht_item *old;

	if (it->magic != LFHT_LIVE)
		harness_fail("item %lu reclaimed twice", it->key);
	it->magic = LFHT_DEAD;
	pthread_mutex_lock(&grave_lock);
	old = grave[grave_next % GRAVE_SLOTS];
	grave[grave_next++ % GRAVE_SLOTS] = it;
	pthread_mutex_unlock(&grave_lock);
	free(old);
}

/* Test thread, after rcu_barrier(): frees the parked items. */
static void grave_flush(void)
{
	unsigned long i;

	pthread_mutex_lock(&grave_lock);
	for (i = 0; i < GRAVE_SLOTS; i++) {
		free(grave[i]);
		grave[i] = NULL;
	}
	pthread_mutex_unlock(&grave_lock);
}

/* In a read-side critical section: @node is a live item with @key. */
static void check_item(struct cds_lfht_node *node, unsigned long key)
{
	struct lfht_item *it = lfht_to_item(node);

	if (it->magic != LFHT_LIVE)
		harness_fail("reader reached reclaimed item (key %lu)", it->key);
	else if (it->key != key)
		harness_fail("looked up %lu, found %lu", key, it->key);
}

struct stress {
	struct cds_lfht *ht;
	double deadline;
	unsigned long resizes;
};

struct worker {
	pthread_t thread;
	struct stress *st;
	unsigned int id;
	uint64_t seed;
	/* Updaters: the keys they own, and their model of them. */
	unsigned long base;
	struct lfht_item *cur[OWN_KEYS];
	/* Operations, or traversals for readers of the "stable" test. */
	unsigned long ops;
};

static void worker_init(struct worker *w, struct stress *st, unsigned int id,
			unsigned long base)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	w->id = id;
	w->seed = 0x2545f4914f6cdd1dULL * (id + 1);
	w->base = base;
}

/*
 * Called between iterations, outside any read-side section: announces a
 * quiescent state (QSBR; nothing for the other flavors), and every 64
 * iterations says whether the time is up (so at least one round is done).
 */
static bool worker_done(struct worker *w, unsigned long i)
{
	tf->fl->read_quiescent_state();
	return (i & 63) == 63 && harness_past(w->st->deadline);
}

/* Forces resizes between a few buckets and many more than keys. */
static void *resizer_thread(void *arg)
{
	struct stress *st = arg;
	unsigned long i = 0;

	tf->fl->register_thread();
	do {
		cds_lfht_resize(st->ht, (i & 1) ? 1UL << (10 + i / 2 % 7)
						: 1UL << (i / 2 % 3));
		tf->fl->read_quiescent_state();
		i++;
	} while (!harness_past(st->deadline));
	st->resizes = i;
	tf->fl->unregister_thread();
	return NULL;
}

enum { OP_ADD_UNIQUE, OP_ADD_REPLACE, OP_REPLACE, OP_DEL, OP_LOOKUP, NR_OPS };

/*
 * One operation on a key of updater @w's own range, checked against its
 * model w->cur[] (the item in the table for the key, or NULL), which no
 * other thread changes.
 */
static void own_step(struct worker *w, unsigned long key, unsigned int op)
{
	struct cds_lfht *ht = w->st->ht;
	unsigned long hash = lfht_hash(key);
	struct lfht_item **cur = &w->cur[key - w->base];
	struct cds_lfht_node *expect = *cur ? &(*cur)->node : NULL;
	struct lfht_item *it = NULL, *gone = NULL;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	int err;

	if (op == OP_ADD_UNIQUE || op == OP_ADD_REPLACE || op == OP_REPLACE)
		it = lfht_item_new(key);
	tf->fl->read_lock();
	switch (op) {
	case OP_ADD_UNIQUE:
		node = cds_lfht_add_unique(ht, hash, lfht_match, &key, &it->node);
		if (node == &it->node) {
			if (expect)
				harness_fail("add_unique(%lu) added a duplicate", key);
			*cur = it;
		} else {
			if (!expect || node != expect)
				harness_fail("add_unique(%lu) refused wrongly", key);
			/* Never published: no grace period needed. */
			free(it);
		}
		break;
	case OP_ADD_REPLACE:
		node = cds_lfht_add_replace(ht, hash, lfht_match, &key, &it->node);
		if (node != expect)
			harness_fail("add_replace(%lu) replaced %p, not %p", key,
				     (void *) node, (void *) expect);
		if (node) {
			HARNESS_CHECK(cds_lfht_is_node_deleted(node));
			gone = lfht_to_item(node);
		}
		*cur = it;
		break;
	case OP_REPLACE:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node != expect)
			harness_fail("lookup(%lu) before replace: wrong node", key);
		err = cds_lfht_replace(ht, &iter, hash, lfht_match, &key,
				       &it->node);
		if (err == 0 && node) {
			gone = lfht_to_item(node);
			*cur = it;
		} else {
			if (err != -ENOENT || node)
				harness_fail("replace(%lu) returned %d", key, err);
			free(it);
		}
		break;
	case OP_DEL:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node != expect)
			harness_fail("lookup(%lu) before del: wrong node", key);
		if (node) {
			err = cds_lfht_del(ht, node);
			if (err == 0) {
				gone = lfht_to_item(node);
				*cur = NULL;
			} else {
				harness_fail("del(%lu) returned %d", key, err);
			}
		}
		break;
	default:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		if (cds_lfht_iter_get_node(&iter) != expect)
			harness_fail("lookup(%lu): wrong node", key);
		break;
	}
	tf->fl->read_unlock();
	if (gone)
		tf->fl->update_call_rcu(&gone->rcu, reclaim_cb);
}

/*
 * One operation on a key every updater races on: whoever's del or replace
 * succeeds on a node reclaims it, so exactly one must succeed.
 */
static void shared_step(struct cds_lfht *ht, unsigned long key, unsigned int op)
{
	unsigned long hash = lfht_hash(key);
	struct lfht_item *it = NULL, *gone = NULL;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	int err;

	if (op == OP_ADD_UNIQUE || op == OP_ADD_REPLACE || op == OP_REPLACE)
		it = lfht_item_new(key);
	tf->fl->read_lock();
	switch (op) {
	case OP_ADD_UNIQUE:
		node = cds_lfht_add_unique(ht, hash, lfht_match, &key, &it->node);
		if (node != &it->node) {
			check_item(node, key);
			free(it);
		}
		break;
	case OP_ADD_REPLACE:
		node = cds_lfht_add_replace(ht, hash, lfht_match, &key, &it->node);
		if (node) {
			check_item(node, key);
			gone = lfht_to_item(node);
		}
		break;
	case OP_REPLACE:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		err = cds_lfht_replace(ht, &iter, hash, lfht_match, &key,
				       &it->node);
		if (err == 0 && node) {
			gone = lfht_to_item(node);
		} else {
			/* Absent, or removed since the lookup. */
			if (err != -ENOENT)
				harness_fail("replace(%lu) returned %d", key, err);
			free(it);
		}
		break;
	case OP_DEL:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node && cds_lfht_del(ht, node) == 0)
			gone = lfht_to_item(node);
		break;
	default:
		cds_lfht_lookup(ht, hash, lfht_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (node)
			check_item(node, key);
		break;
	}
	tf->fl->read_unlock();
	if (gone)
		tf->fl->update_call_rcu(&gone->rcu, reclaim_cb);
}

/* How many nodes the duplicate iterator visits for @key (reader side). */
static unsigned long count_dups(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long n = 0;

	cds_lfht_for_each_duplicate(ht, lfht_hash(key), lfht_match, &key,
				    &iter, node) {
		check_item(node, key);
		n++;
	}
	return n;
}

/*
 * Test thread, workers joined: updater @w's model matches the table, then
 * its items are forgotten (drain_and_destroy reclaims them).
 */
static void check_model(struct cds_lfht *ht, struct worker *w)
{
	unsigned long i;

	for (i = 0; i < OWN_KEYS; i++)
		ck_assert_msg(find(ht, w->base + i) ==
			      (w->cur[i] ? &w->cur[i]->node : NULL),
			      "key %lu: table and model differ", w->base + i);
}

/*
 * Test thread: every node is a live item with a key below @nkeys, none
 * twice; returns how many there are.
 */
static unsigned long check_unique(struct cds_lfht *ht, unsigned long nkeys)
{
	unsigned char *seen = calloc(nkeys, 1);
	struct cds_lfht_iter iter;
	struct lfht_item *pos;
	unsigned long total = 0;

	ck_assert_ptr_nonnull(seen);
	tf->fl->read_lock();
	cds_lfht_for_each_entry(ht, &iter, pos, node) {
		ck_assert_uint_eq(pos->magic, LFHT_LIVE);
		ck_assert_uint_lt(pos->key, nkeys);
		ck_assert_msg(!seen[pos->key]++, "key %lu in the table twice",
			      pos->key);
		total++;
	}
	tf->fl->read_unlock();
	free(seen);
	ck_assert_uint_eq(nr_nodes(ht), total);
	return total;
}

/* Test thread: ends a stress test (workers joined). */
static void stress_end(struct stress *st)
{
	drain_and_destroy(st->ht, reclaim_cb);
	tf->fl->barrier();
	grave_flush();
	tf->fl->unregister_thread();
}

/*
 * The frame of every stress test, under the flavor and flags of loop
 * index @i: a new table holding keys [0, @prefill); NR_UPDATERS updaters
 * running @upd_fn (updater k owns the keys from @own_base + k * OWN_KEYS
 * on) and NR_READERS readers running @rd_fn into @upd and @rd, with the
 * resizer, for the stress budget.  Returns with them joined, the test
 * thread registered, the callbacks they queued run, and their failures
 * and the resizer's progress asserted (@who names the test).
 */
static void stress_run(int i, struct stress *st, unsigned long prefill,
		       void *(*upd_fn)(void *), unsigned long own_base,
		       struct worker *upd, void *(*rd_fn)(void *),
		       struct worker *rd, const char *who)
{
	struct lfht_item *it;
	pthread_t resizer;
	unsigned long key;
	unsigned int k;

	memset(st, 0, sizeof(*st));
	st->ht = new_table(1, loop_flags[use_flavor(i, 2)]);
	tf->fl->register_thread();
	for (key = 0; key < prefill; key++) {
		it = lfht_item_new(key);
		tf->fl->read_lock();
		ck_assert_ptr_eq(cds_lfht_add_unique(st->ht, lfht_hash(key),
						     lfht_match, &key, &it->node),
				 &it->node);
		tf->fl->read_unlock();
	}
	tf->fl->unregister_thread();
	for (k = 0; k < NR_UPDATERS; k++)
		worker_init(&upd[k], st, k, own_base + k * OWN_KEYS);
	for (k = 0; k < NR_READERS; k++)
		worker_init(&rd[k], st, NR_UPDATERS + k, 0);
	st->deadline = harness_deadline(STRESS_S);
	for (k = 0; k < NR_UPDATERS; k++)
		harness_spawn(&upd[k].thread, upd_fn, &upd[k]);
	for (k = 0; k < NR_READERS; k++)
		harness_spawn(&rd[k].thread, rd_fn, &rd[k]);
	harness_spawn(&resizer, resizer_thread, st);
	for (k = 0; k < NR_UPDATERS; k++)
		harness_join(upd[k].thread);
	for (k = 0; k < NR_READERS; k++)
		harness_join(rd[k].thread);
	harness_join(resizer);
	tf->fl->register_thread();
	tf->fl->barrier();
	harness_assert_no_failures(who);
	ck_assert_uint_gt(st->resizes, 0);
}

/* ------------------------------------------------------------------------
 * Stress "updates".
 */

#define UPD_KEYS	(NR_UPDATERS * OWN_KEYS + SHARED_KEYS)
#define UPD_SHARED	(NR_UPDATERS * OWN_KEYS)

static void *upd_updater(void *arg)
{
	struct worker *w = arg;
	unsigned long i, r;

	tf->fl->register_thread();
	for (i = 0; !worker_done(w, i); i++) {
		r = lfht_rand(&w->seed);
		if (r % 4 == 0)
			shared_step(w->st->ht, UPD_SHARED + (r >> 8) % SHARED_KEYS,
				    (r >> 4) % NR_OPS);
		else
			own_step(w, w->base + (r >> 8) % OWN_KEYS,
				 (r >> 4) % NR_OPS);
	}
	w->ops = i;
	tf->fl->unregister_thread();
	return NULL;
}

static void *upd_reader(void *arg)
{
	struct worker *w = arg;
	unsigned long i, key, n;

	tf->fl->register_thread();
	for (i = 0; !worker_done(w, i); i++) {
		key = lfht_rand(&w->seed) % UPD_KEYS;
		tf->fl->read_lock();
		n = count_dups(w->st->ht, key);
		tf->fl->read_unlock();
		if (n > 1)
			harness_fail("key %lu seen %lu times", key, n);
	}
	w->ops = i;
	tf->fl->unregister_thread();
	return NULL;
}

START_TEST(test_stress_updates)
{
	struct worker upd[NR_UPDATERS], rd[NR_READERS];
	unsigned long total, own = 0;
	struct stress st;
	unsigned int i, k;

	stress_run(_i, &st, 0, upd_updater, 0, upd, upd_reader, rd,
		   "stress_updates");
	for (i = 0; i < NR_UPDATERS; i++) {
		check_model(st.ht, &upd[i]);
		for (k = 0; k < OWN_KEYS; k++)
			own += upd[i].cur[k] != NULL;
	}
	total = check_unique(st.ht, UPD_KEYS);
	ck_assert_uint_ge(total, own);
	ck_assert_uint_le(total - own, SHARED_KEYS);
	stress_end(&st);
	harness_assert_no_failures("stress_updates (reclaim)");
}
END_TEST

/* ------------------------------------------------------------------------
 * Stress "stable": keys [0, STABLE_KEYS) are never touched.
 */

static void *stable_updater(void *arg)
{
	struct worker *w = arg;
	unsigned long i, r;

	tf->fl->register_thread();
	for (i = 0; !worker_done(w, i); i++) {
		r = lfht_rand(&w->seed);
		own_step(w, w->base + (r >> 8) % OWN_KEYS, (r >> 4) % NR_OPS);
	}
	tf->fl->unregister_thread();
	return NULL;
}

static void *stable_reader(void *arg)
{
	struct worker *w = arg;
	struct cds_lfht *ht = w->st->ht;
	/* stamp[k] == round: stable key k seen in this traversal. */
	unsigned long *stamp = calloc(STABLE_KEYS, sizeof(*stamp));
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long round, seen, key, k;
	unsigned int j;

	if (!stamp) {
		harness_fail("out of memory");
		return NULL;
	}
	tf->fl->register_thread();
	for (round = 1; round == 1 || !harness_past(w->st->deadline); round++) {
		seen = 0;
		tf->fl->read_lock();
		cds_lfht_for_each(ht, &iter, node) {
			key = lfht_to_item(node)->key;
			check_item(node, key);
			if (key >= STABLE_KEYS)
				continue;
			if (stamp[key] == round)
				harness_fail("traversal %lu saw key %lu twice",
					     round, key);
			stamp[key] = round;
			seen++;
		}
		tf->fl->read_unlock();
		if (seen != STABLE_KEYS) {
			for (k = 0; k < STABLE_KEYS && stamp[k] == round; k++)
				;
			harness_fail("traversal %lu saw %lu stable keys, "
				     "first missing %lu", round, seen, k);
		}
		for (j = 0; j < 64; j++) {
			key = lfht_rand(&w->seed) % STABLE_KEYS;
			tf->fl->read_lock();
			if (count_dups(ht, key) != 1)
				harness_fail("lookup of stable key %lu", key);
			tf->fl->read_unlock();
		}
		/* QSBR: between rounds; the others: nothing. */
		tf->fl->read_quiescent_state();
	}
	w->ops = round - 1;
	tf->fl->unregister_thread();
	free(stamp);
	return NULL;
}

START_TEST(test_stress_stable)
{
	struct worker upd[NR_UPDATERS], rd[NR_READERS];
	struct stress st;
	unsigned long key;
	unsigned int i;

	stress_run(_i, &st, STABLE_KEYS, stable_updater, STABLE_KEYS, upd,
		   stable_reader, rd, "stress_stable");
	for (i = 0; i < NR_READERS; i++)
		ck_assert_uint_gt(rd[i].ops, 0);
	for (i = 0; i < NR_UPDATERS; i++)
		check_model(st.ht, &upd[i]);
	for (key = 0; key < STABLE_KEYS; key++)
		ck_assert_uint_eq(nr_dups(st.ht, key), 1);
	check_unique(st.ht, STABLE_KEYS + NR_UPDATERS * OWN_KEYS);
	stress_end(&st);
	harness_assert_no_failures("stress_stable (reclaim)");
}
END_TEST

/* ------------------------------------------------------------------------
 * Stress "replace": keys [0, REPL_KEYS) replaced in a loop, never removed.
 */

static void *repl_updater(void *arg)
{
	struct worker *w = arg;
	struct cds_lfht *ht = w->st->ht;
	struct lfht_item *it, *gone;
	struct cds_lfht_node *node;
	struct cds_lfht_iter iter;
	unsigned long i, key;
	int err;

	tf->fl->register_thread();
	for (i = 0; !worker_done(w, i); i++) {
		key = lfht_rand(&w->seed) % REPL_KEYS;
		it = lfht_item_new(key);
		gone = NULL;
		tf->fl->read_lock();
		if (w->id == 0) {
			node = cds_lfht_add_replace(ht, lfht_hash(key), lfht_match,
						    &key, &it->node);
			if (node)
				gone = lfht_to_item(node);
			else
				harness_fail("add_replace(%lu) found nothing", key);
		} else {
			cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
			node = cds_lfht_iter_get_node(&iter);
			if (!node)
				harness_fail("updater lookup(%lu) missed", key);
			err = cds_lfht_replace(ht, &iter, lfht_hash(key),
					       lfht_match, &key, &it->node);
			if (err == 0 && node) {
				gone = lfht_to_item(node);
			} else {
				/* Replaced by the other updater meanwhile. */
				if (err != -ENOENT)
					harness_fail("replace(%lu): %d", key, err);
				free(it);
			}
		}
		tf->fl->read_unlock();
		if (gone)
			tf->fl->update_call_rcu(&gone->rcu, reclaim_cb);
	}
	w->ops = i;
	tf->fl->unregister_thread();
	return NULL;
}

static void *repl_reader(void *arg)
{
	struct worker *w = arg;
	struct cds_lfht *ht = w->st->ht;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	unsigned long i, key, n, seen[REPL_KEYS];

	tf->fl->register_thread();
	for (i = 0; !worker_done(w, i); i++) {
		tf->fl->read_lock();
		if (i % 16 == 0) {
			memset(seen, 0, sizeof(seen));
			cds_lfht_for_each(ht, &iter, node) {
				key = lfht_to_item(node)->key;
				check_item(node, key);
				if (key < REPL_KEYS)
					seen[key]++;
				else
					harness_fail("traversal: key %lu", key);
			}
			for (key = 0; key < REPL_KEYS; key++)
				if (seen[key] != 1)
					harness_fail("traversal saw key %lu "
						     "%lu times", key, seen[key]);
		}
		key = lfht_rand(&w->seed) % REPL_KEYS;
		cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
		if (!cds_lfht_iter_get_node(&iter))
			harness_fail("lookup(%lu) missed", key);
		n = count_dups(ht, key);
		tf->fl->read_unlock();
		if (n != 1)
			harness_fail("key %lu seen %lu times", key, n);
	}
	w->ops = i;
	tf->fl->unregister_thread();
	return NULL;
}

START_TEST(test_stress_replace)
{
	struct worker upd[NR_UPDATERS], rd[NR_READERS];
	struct stress st;
	unsigned long key;

	/* Own keys unused: the updaters replace the prefilled ones. */
	stress_run(_i, &st, REPL_KEYS, repl_updater, 0, upd, repl_reader, rd,
		   "stress_replace");
	for (key = 0; key < REPL_KEYS; key++)
		ck_assert_uint_eq(nr_dups(st.ht, key), 1);
	ck_assert_uint_eq(check_unique(st.ht, REPL_KEYS), REPL_KEYS);
	stress_end(&st);
	harness_assert_no_failures("stress_replace (reclaim)");
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "flavors": tests/lfht/memb_side.c and tests/lfht/qsbr_side.c.
 */

START_TEST(test_cross_flavor)
{
	struct lfht_cross c;
	pthread_t memb_thread, qsbr_thread;

	use_flavor(TF_MEMB, 1);
	memset(&c, 0, sizeof(c));
	lfht_cross_memb_init(&c);
	lfht_cross_qsbr_init(&c);
	c.deadline = harness_deadline(STRESS_S);
	harness_spawn(&memb_thread, lfht_cross_memb_worker, &c);
	harness_spawn(&qsbr_thread, lfht_cross_qsbr_worker, &c);
	harness_join(memb_thread);
	harness_join(qsbr_thread);
	/* The workers emptied their keys: destroy must succeed. */
	lfht_cross_memb_fini(&c);
	lfht_cross_qsbr_fini(&c);
	harness_assert_no_failures("cross_flavor");
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "fork": the automatic-resize worker across fork(), through the
 * flavor's call_rcu fork functions (which run the table's fork hooks).
 */

/*
 * A table that resizes itself is forked while its worker is busy; both
 * processes then keep adding (queuing more resizes) and find every key,
 * and both can empty and destroy their copy.  A child that inherited the
 * worker's lock held, or waits for the parent's worker, hangs here until
 * the Check timeout.
 */
START_TEST(test_fork_auto_resize)
{
	enum { N = 20000 };
	struct lfht_item *items = items_new(2 * N, 0);
	struct cds_lfht *ht;
	pid_t pid;
	int status;
	int v;

	v = use_flavor(_i, 2);
	ht = new_table(1, v ? CDS_LFHT_AUTO_RESIZE
			    : CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING);
	tf->fl->register_thread();
	add_all(ht, items, N);
	fork_prepare();
	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		fork_child();
		add_all(ht, items + N, N);
		check_exact(ht, items, 2 * N, NULL);
		drain_and_destroy(ht, NULL);
		tf->fl->update_synchronize_rcu();
		_exit(0);
	}
	fork_parent();
	add_all(ht, items + N, N);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child failed (status %#x)", status);
	check_exact(ht, items, 2 * N, NULL);
	drain_and_destroy(ht, NULL);
	api_end(items);
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *rculfhash_suite(void)
{
	Suite *s = suite_create("rculfhash");
	TCase *api = harness_tcase(s, "api", 60);
	TCase *conc = harness_tcase(s, "concurrent", 30);
	TCase *flavors = harness_tcase(s, "flavors", 30);
	TCase *forks = harness_tcase(s, "fork", 30);

	/*
	 * The signal flavor's runs of the tests below.  Their registered
	 * threads block in the table's own waits (the resizer on the resize
	 * lock, destroy() on a resize step), where a signal-flavor thread is
	 * not parked: SIGRCU interrupts it there and it acknowledges.
	 * ThreadSanitizer defers the handler while a thread blocks in an
	 * intercepted call, so under TSan the grace period, and the step
	 * that waits for it, would wait until the Check timeout; TSan runs
	 * exclude the tag (CK_EXCLUDE_TAGS=signal_blocking, tests/SConscript),
	 * plain, ASan and debug runs include it.
	 */
	signal_tc = harness_tcase(s, "signal", 60);
	tcase_set_tags(signal_tc, "signal_blocking");

	tcase_add_test(api, test_new_legacy);
	add_per_flavor(api, test_new_flavor, 1);
	tcase_add_test(api, test_new_invalid);
	add_per_flavor(api, test_new_max_below_init, 1);
	add_per_flavor(api, test_destroy_non_empty, 2);
	add_per_flavor(api, test_count_nodes, 1);
	add_per_flavor(api, test_lookup, 1);
	add_per_flavor(api, test_duplicates, 1);
	add_per_flavor(api, test_iterate, 1);
	add_per_flavor(api, test_add_unique, 1);
	add_per_flavor(api, test_add_replace, 1);
	add_per_flavor(api, test_replace, 1);
	add_per_flavor(api, test_del, 1);
	add_per_flavor(api, test_is_node_deleted, 1);
	add_per_flavor(api, test_node_reuse, 1);
	add_per_flavor(api, test_resize, 2);
	add_per_flavor(api, test_auto_resize, 2);
	add_per_flavor(api, test_accounting, 2);
	add_per_flavor(api, test_bucket_allocators, 6);

	add_per_flavor(conc, test_stress_updates, 2);
	add_per_flavor(conc, test_stress_stable, 2);
	add_per_flavor(conc, test_stress_replace, 2);

	tcase_add_test(flavors, test_cross_flavor);

	add_per_flavor(forks, test_fork_auto_resize, 2);

	if (lfht_add_newapi_tests)
		lfht_add_newapi_tests(s);
	return s;
}

int main(void)
{
	return harness_run_suite(rculfhash_suite());
}
