/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rcutrie": the RCU ordered trie (<urcu/rcutrie.h>,
 * liburcu-cds), through its public API only.
 *
 * TCase "api" (memb flavor, one thread): every call's semantics, one test
 * per property: creation and destruction and their errors, empty trie,
 * exact lookup with duplicates, add_unique, add_replace, replace, del and
 * their errors, keys that are prefixes of each other (the empty key, 0x00
 * and 0xff bytes), longest prefix, le/lt/ge/gt, walks in both directions
 * with duplicates, range and prefix walks, the loop macros, a walk that
 * removes the node it stands on, node reuse after a grace period, the
 * caller's allocator, integer keys, misuse returning -EINVAL.
 * TCase "model": the randomized model test (tests/trie/model.c) against
 * a sorted-array oracle, for several seeds and both key pools, and once
 * per flavor.  A failure prints the seed; RCUTRIE_SEED=<n> in the
 * environment runs that seed instead of the built-in ones.
 * TCase "oom": allocation failures through the caller's allocator: the
 * creation failing, an allocator failing every n-th call under the model
 * test, and one failing every call from the n-th on, for every n up to
 * the allocations a fixed workload makes.  Additions must return -ENOMEM
 * and leave the trie as it was; removals must work; nothing may leak.
 * TCase "concurrent": per flavor (memb, mb, signal, qsbr, bp through
 * test_flavors[] of tests/flavors/flavors.h), updaters churn while
 * readers check one property per test (tests/trie/stress.c): ordering
 * and poisoned nodes, exactly-once walks over stable keys, neighbour
 * queries never skipping a stable key.
 * TCase "final" (memb): a dying trie's reclamation callback and its final
 * callback, queued on two call_rcu workers of the test's own and run at
 * once, free every inner node before the trie (tests/trie/final_race.c).
 * TCase "misuse" (debug builds): misuse aborts with a message (release
 * builds: test_misuse_release checks the -EINVAL returns instead).
 * TCase "bound" (debug builds, which count each thread's descents from
 * the root): every query descends once on a 200-level path, and under
 * removals racing along a 120-level path.
 *
 * Conventions: fork mode; each test creates all of its RCU state; worker
 * threads never call ck_assert (their failures are logged and asserted
 * after the joins); stress phases last a time budget scaled by
 * CK_TIMEOUT_MULTIPLIER; nothing asserts on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/rcutrie.h>

#include "flavors/flavors.h"
#include "harness/harness.h"
#include "trie/final_race.h"
#include "trie/model.h"
#include "trie/stress.h"

/* Stress budget per test, before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_S	1.0
/* Budget of the final-callback race, before scaling. */
#define FINAL_S		0.5

/* ------------------------------------------------------------------------
 * Helpers (memb flavor, test thread registered).
 */

static const struct rcu_flavor_struct *fl;

struct item {
	struct cds_trie_node node;
	int value;
};

static void setup(void)
{
	fl = test_flavors[TF_MEMB].fl;
	fl->register_thread();
}

static void teardown(void)
{
	fl->barrier();
	fl->unregister_thread();
}

static struct item *item_of(struct cds_trie_node *node)
{
	return node ? caa_container_of(node, struct item, node) : NULL;
}

/* An item holding the C string @key (not copied: literals only). */
static struct item *mk(const char *key, int value)
{
	struct item *it = calloc(1, sizeof(*it));

	ck_assert_ptr_nonnull(it);
	cds_trie_node_init(&it->node, key, strlen(key));
	it->value = value;
	return it;
}

/* An item holding @len bytes at @key. */
static struct item *mkb(const void *key, size_t len, int value)
{
	struct item *it = calloc(1, sizeof(*it));

	ck_assert_ptr_nonnull(it);
	cds_trie_node_init(&it->node, key, len);
	it->value = value;
	return it;
}

static struct cds_trie *new_trie(void)
{
	struct cds_trie *t = cds_trie_new(fl, NULL);

	ck_assert_ptr_nonnull(t);
	return t;
}

static int add(struct cds_trie *t, struct item *it)
{
	int ret;

	fl->read_lock();
	ret = cds_trie_add(t, &it->node);
	fl->read_unlock();
	return ret;
}

static int del(struct cds_trie *t, struct item *it)
{
	int ret;

	fl->read_lock();
	ret = cds_trie_del(t, &it->node);
	fl->read_unlock();
	return ret;
}

/*
 * The value of the node a query returns (-1 for none).  Nodes are freed
 * only at the end of each test, so reading after the section is fine.
 */
static int value_of(struct cds_trie_node *node)
{
	return node ? item_of(node)->value : -1;
}

static int lookupb(struct cds_trie *t, const void *key, size_t len)
{
	struct cds_trie_node *n;

	fl->read_lock();
	n = cds_trie_lookup(t, key, len);
	fl->read_unlock();
	return value_of(n);
}

static int lookup(struct cds_trie *t, const char *key)
{
	return lookupb(t, key, strlen(key));
}

enum query { Q_LE, Q_LT, Q_GE, Q_GT, Q_PREFIX };

static int query(struct cds_trie *t, enum query q, const void *key, size_t len)
{
	struct cds_trie_node *n = NULL;

	fl->read_lock();
	switch (q) {
	case Q_LE: n = cds_trie_lookup_le(t, key, len, NULL); break;
	case Q_LT: n = cds_trie_lookup_lt(t, key, len, NULL); break;
	case Q_GE: n = cds_trie_lookup_ge(t, key, len, NULL); break;
	case Q_GT: n = cds_trie_lookup_gt(t, key, len, NULL); break;
	default: n = cds_trie_lookup_longest_prefix(t, key, len); break;
	}
	fl->read_unlock();
	return value_of(n);
}

static int qs(struct cds_trie *t, enum query q, const char *key)
{
	return query(t, q, key, strlen(key));
}

/* Values of a forward (@dir 1) or backward walk, into @out; their number. */
static int walk(struct cds_trie *t, int dir, int *out, int max)
{
	struct cds_trie_iter it;
	struct cds_trie_node *n;
	int i = 0;

	fl->read_lock();
	if (dir > 0) {
		cds_trie_for_each(t, &it, n)
			if (i < max)
				out[i++] = value_of(n);
	} else {
		cds_trie_for_each_reverse(t, &it, n)
			if (i < max)
				out[i++] = value_of(n);
	}
	fl->read_unlock();
	return i;
}

#define ck_assert_walk(t, dir, ...)					\
	do {								\
		const int want_[] = { __VA_ARGS__ };			\
		int got_[64], n_ = walk(t, dir, got_, 64), i_;		\
		ck_assert_int_eq(n_, (int) (sizeof(want_) / sizeof(int))); \
		for (i_ = 0; i_ < n_; i_++)				\
			ck_assert_msg(got_[i_] == want_[i_],		\
				      "walk element %d: %d, want %d",	\
				      i_, got_[i_], want_[i_]);		\
	} while (0)

/* Removes the items still in the trie, destroys it, frees them all. */
static void drain(struct cds_trie *t, struct item **items, int n)
{
	int i;

	for (i = 0; i < n; i++)
		(void) del(t, items[i]);	/* -ENOENT for those not in */
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	fl->barrier();
	for (i = 0; i < n; i++)
		free(items[i]);
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

START_TEST(test_new_destroy)
{
	struct cds_trie_alloc half = { .malloc = NULL };
	struct cds_trie *t;
	struct item *a = mk("a", 1);

	errno = 0;
	ck_assert_ptr_null(cds_trie_new(NULL, NULL));
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_ptr_null(cds_trie_new(fl, &half));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(cds_trie_destroy(NULL), -EINVAL);

	t = new_trie();
	ck_assert_int_eq(add(t, a), 0);
	/* Not empty: refused, and the trie still works. */
	ck_assert_int_eq(cds_trie_destroy(t), -EBUSY);
	ck_assert_int_eq(lookup(t, "a"), 1);
	ck_assert_int_eq(del(t, a), 0);
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	free(a);
}
END_TEST

START_TEST(test_empty)
{
	struct cds_trie *t = new_trie();
	struct cds_trie_iter it;

	fl->read_lock();
	ck_assert_ptr_null(cds_trie_lookup(t, "x", 1));
	ck_assert_ptr_null(cds_trie_lookup(t, NULL, 0));
	ck_assert_ptr_null(cds_trie_lookup_longest_prefix(t, "x", 1));
	ck_assert_ptr_null(cds_trie_lookup_le(t, "x", 1, &it));
	ck_assert_ptr_null(cds_trie_iter_get_node(&it));
	ck_assert_ptr_null(cds_trie_next(t, &it));
	ck_assert_ptr_null(cds_trie_lookup_ge(t, NULL, 0, NULL));
	ck_assert_ptr_null(cds_trie_first(t, &it));
	ck_assert_ptr_null(cds_trie_last(t, &it));
	ck_assert_ptr_null(cds_trie_prev(t, &it));
	ck_assert_ptr_null(cds_trie_range_first(t, "a", 1, "z", 1, &it));
	ck_assert_ptr_null(cds_trie_prefix_first(t, "a", 1, &it));
	ck_assert_uint_eq(cds_trie_count(t), 0);
	fl->read_unlock();
	ck_assert_int_eq(cds_trie_destroy(t), 0);
}
END_TEST

/* Exact lookup, and duplicates kept in insertion order. */
START_TEST(test_lookup_duplicates)
{
	struct cds_trie *t = new_trie();
	struct item *it[4] = { mk("key", 1), mk("key", 2), mk("ke", 3),
			       mk("key", 4) };
	struct cds_trie_node *n;
	int i, v = 0;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(add(t, it[i]), 0);
	ck_assert_int_eq(lookup(t, "key"), 1);
	ck_assert_int_eq(lookup(t, "ke"), 3);
	ck_assert_int_eq(lookup(t, "k"), -1);
	ck_assert_int_eq(lookup(t, "keys"), -1);
	fl->read_lock();
	n = cds_trie_lookup(t, "key", 3);
	cds_trie_for_each_duplicate(n, n)
		v = v * 10 + value_of(n);
	fl->read_unlock();
	ck_assert_int_eq(v, 124);
	fl->read_lock();
	ck_assert_uint_eq(cds_trie_count(t), 4);
	fl->read_unlock();
	/* Removing the first duplicate promotes the next one. */
	ck_assert_int_eq(del(t, it[0]), 0);
	ck_assert_int_eq(lookup(t, "key"), 2);
	ck_assert_int_eq(del(t, it[3]), 0);
	ck_assert_int_eq(lookup(t, "key"), 2);
	drain(t, it, 4);
}
END_TEST

START_TEST(test_add_unique)
{
	struct cds_trie *t = new_trie();
	struct item *it[3] = { mk("u", 1), mk("u", 2), mk("v", 3) };
	struct cds_trie_node *existing = (void *) 1;

	fl->read_lock();
	ck_assert_int_eq(cds_trie_add_unique(t, &it[0]->node, &existing), 0);
	ck_assert_ptr_null(existing);
	ck_assert_int_eq(cds_trie_add_unique(t, &it[1]->node, &existing), -EEXIST);
	ck_assert_ptr_eq(existing, &it[0]->node);
	/* @existing may be NULL. */
	ck_assert_int_eq(cds_trie_add_unique(t, &it[1]->node, NULL), -EEXIST);
	ck_assert_int_eq(cds_trie_add_unique(t, &it[2]->node, NULL), 0);
	ck_assert_uint_eq(cds_trie_count(t), 2);
	fl->read_unlock();
	/* The refused node was never in the trie. */
	ck_assert(!cds_trie_is_node_deleted(&it[1]->node));
	ck_assert_int_eq(del(t, it[1]), -ENOENT);
	drain(t, it, 3);
}
END_TEST

START_TEST(test_add_replace)
{
	struct cds_trie *t = new_trie();
	struct item *it[4] = { mk("r", 1), mk("r", 2), mk("r", 3), mk("s", 4) };
	struct cds_trie_node *old = (void *) 1;

	fl->read_lock();
	/* Absent key: a plain addition. */
	ck_assert_int_eq(cds_trie_add_replace(t, &it[0]->node, &old), 0);
	ck_assert_ptr_null(old);
	ck_assert_int_eq(cds_trie_add(t, &it[1]->node), 0);
	/* The first node of the key is replaced, its duplicates stay. */
	ck_assert_int_eq(cds_trie_add_replace(t, &it[2]->node, &old), 0);
	ck_assert_ptr_eq(old, &it[0]->node);
	ck_assert(cds_trie_is_node_deleted(&it[0]->node));
	ck_assert_int_eq(cds_trie_add_replace(t, &it[3]->node, NULL), 0);
	fl->read_unlock();
	ck_assert_walk(t, 1, 3, 2, 4);
	drain(t, it, 4);
}
END_TEST

START_TEST(test_replace)
{
	struct cds_trie *t = new_trie();
	struct item *it[6] = { mk("p", 1), mk("p", 2), mk("p", 3), mk("q", 4),
			       mk("p", 5), mk("p", 6) };

	ck_assert_int_eq(add(t, it[0]), 0);
	ck_assert_int_eq(add(t, it[1]), 0);
	ck_assert_int_eq(add(t, it[3]), 0);
	fl->read_lock();
	/* In the middle of the chain, keeping its place. */
	ck_assert_int_eq(cds_trie_replace(t, &it[1]->node, &it[2]->node), 0);
	ck_assert(cds_trie_is_node_deleted(&it[1]->node));
	ck_assert_int_eq(cds_trie_replace(t, &it[1]->node, &it[4]->node), -ENOENT);
	ck_assert_int_eq(cds_trie_replace(t, NULL, &it[4]->node), -ENOENT);
#ifndef URCU_DEBUG
	/* Keys differ; the new node already in a trie (debug: abort). */
	ck_assert_int_eq(cds_trie_replace(t, &it[0]->node, &it[3]->node), -EINVAL);
	ck_assert_int_eq(cds_trie_replace(t, &it[0]->node, &it[2]->node), -EINVAL);
#endif
	/* The first node. */
	ck_assert_int_eq(cds_trie_replace(t, &it[0]->node, &it[5]->node), 0);
	fl->read_unlock();
	ck_assert_walk(t, 1, 6, 3, 4);
	drain(t, it, 6);
}
END_TEST

START_TEST(test_del)
{
	struct cds_trie *t = new_trie();
	struct item *it[3] = { mk("d", 1), mk("dd", 2), mk("e", 3) };

	ck_assert_int_eq(add(t, it[0]), 0);
	ck_assert_int_eq(add(t, it[1]), 0);
	ck_assert(!cds_trie_is_node_deleted(&it[0]->node));
	ck_assert_int_eq(del(t, it[0]), 0);
	ck_assert(cds_trie_is_node_deleted(&it[0]->node));
	ck_assert_int_eq(lookup(t, "d"), -1);
	ck_assert_int_eq(lookup(t, "dd"), 2);
	ck_assert_int_eq(del(t, it[0]), -ENOENT);	/* twice */
	ck_assert_int_eq(del(t, it[2]), -ENOENT);	/* never added */
	fl->read_lock();
	ck_assert_int_eq(cds_trie_del(t, NULL), -ENOENT);
	fl->read_unlock();
	ck_assert_int_eq(del(t, it[1]), 0);
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	free(it[0]);
	free(it[1]);
	free(it[2]);
}
END_TEST

/* The empty key, 0x00 and 0xff bytes, keys prefixes of each other. */
static const struct { const char *b; size_t len; } binkeys[] = {
	{ "", 0 }, { "\x00", 1 }, { "\x00\x00", 2 }, { "\x00\xff", 2 },
	{ "\x01", 1 }, { "a", 1 }, { "ab", 2 }, { "abc", 3 }, { "abd", 3 },
	{ "b", 1 }, { "\xff", 1 }, { "\xff\x00", 2 }, { "\xff\xff", 2 },
	{ "\xff\xff\xff", 3 },
};
#define NR_BINKEYS	((int) (sizeof(binkeys) / sizeof(binkeys[0])))

static struct cds_trie *binary_trie(struct item **items)
{
	struct cds_trie *t = new_trie();
	int i;

	/* Added out of order: the walk must sort them. */
	for (i = NR_BINKEYS - 1; i >= 0; i -= 2) {
		items[i] = mkb(binkeys[i].b, binkeys[i].len, i);
		ck_assert_int_eq(add(t, items[i]), 0);
	}
	for (i = NR_BINKEYS - 2; i >= 0; i -= 2) {
		items[i] = mkb(binkeys[i].b, binkeys[i].len, i);
		ck_assert_int_eq(add(t, items[i]), 0);
	}
	return t;
}

START_TEST(test_binary_keys)
{
	struct item *items[NR_BINKEYS];
	struct cds_trie *t = binary_trie(items);
	int i;

	ck_assert_walk(t, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
	ck_assert_walk(t, -1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
	for (i = 0; i < NR_BINKEYS; i++) {
		ck_assert_int_eq(query(t, Q_GE, binkeys[i].b, binkeys[i].len), i);
		ck_assert_int_eq(query(t, Q_LE, binkeys[i].b, binkeys[i].len), i);
	}
	/* Removing the empty key keeps its extensions. */
	ck_assert_int_eq(del(t, items[0]), 0);
	ck_assert_int_eq(query(t, Q_GE, "", 0), 1);
	ck_assert_int_eq(query(t, Q_LE, "", 0), -1);
	drain(t, items, NR_BINKEYS);
}
END_TEST

START_TEST(test_longest_prefix)
{
	struct item *items[NR_BINKEYS];
	struct cds_trie *t = binary_trie(items);

	ck_assert_int_eq(qs(t, Q_PREFIX, "abcdef"), 7);
	ck_assert_int_eq(qs(t, Q_PREFIX, "abc"), 7);
	ck_assert_int_eq(qs(t, Q_PREFIX, "abx"), 6);
	ck_assert_int_eq(qs(t, Q_PREFIX, "ac"), 5);
	ck_assert_int_eq(qs(t, Q_PREFIX, "c"), 0);	/* the empty key */
	ck_assert_int_eq(query(t, Q_PREFIX, "\xff\xff\xfe", 3), 12);
	ck_assert_int_eq(query(t, Q_PREFIX, "\x00\x00\x00", 3), 2);
	ck_assert_int_eq(del(t, items[0]), 0);
	ck_assert_int_eq(qs(t, Q_PREFIX, "c"), -1);
	ck_assert_int_eq(del(t, items[6]), 0);
	ck_assert_int_eq(qs(t, Q_PREFIX, "abx"), 5);
	drain(t, items, NR_BINKEYS);
}
END_TEST

/* le/lt/ge/gt of keys stored and not, at both ends and in between. */
START_TEST(test_neighbours)
{
	struct item *items[NR_BINKEYS];
	struct cds_trie *t = binary_trie(items);

	ck_assert_int_eq(qs(t, Q_LT, ""), -1);
	ck_assert_int_eq(qs(t, Q_GT, ""), 1);
	ck_assert_int_eq(qs(t, Q_LE, "aa"), 5);
	ck_assert_int_eq(qs(t, Q_LT, "ab"), 5);
	ck_assert_int_eq(qs(t, Q_GE, "aa"), 6);
	ck_assert_int_eq(qs(t, Q_GT, "ab"), 7);
	ck_assert_int_eq(qs(t, Q_GE, "abca"), 8);
	ck_assert_int_eq(qs(t, Q_LE, "abca"), 7);
	ck_assert_int_eq(qs(t, Q_LE, "abz"), 8);
	ck_assert_int_eq(qs(t, Q_GE, "abz"), 9);
	ck_assert_int_eq(qs(t, Q_LT, "b"), 8);
	ck_assert_int_eq(qs(t, Q_GE, "c"), 10);
	ck_assert_int_eq(query(t, Q_GT, "\xff\xff\xff", 3), -1);
	ck_assert_int_eq(query(t, Q_GE, "\xff\xff\xff\x00", 4), -1);
	ck_assert_int_eq(query(t, Q_LE, "\xff\xff\xff\x00", 4), 13);
	ck_assert_int_eq(query(t, Q_LT, "\x00", 1), 0);
	ck_assert_int_eq(query(t, Q_GT, "\x00\x01", 2), 3);
	drain(t, items, NR_BINKEYS);
}
END_TEST

/* Walks visit duplicates together, in insertion order, both ways. */
START_TEST(test_walk_duplicates)
{
	struct cds_trie *t = new_trie();
	struct item *it[6] = { mk("m", 1), mk("n", 2), mk("m", 3), mk("l", 4),
			       mk("n", 5), mk("m", 6) };
	struct cds_trie_iter iter;
	struct cds_trie_node *n;
	int i;

	for (i = 0; i < 6; i++)
		ck_assert_int_eq(add(t, it[i]), 0);
	ck_assert_walk(t, 1, 4, 1, 3, 6, 2, 5);
	ck_assert_walk(t, -1, 2, 5, 1, 3, 6, 4);
	/* Mixing directions on one iterator. */
	fl->read_lock();
	n = cds_trie_lookup_ge(t, "m", 1, &iter);
	ck_assert_int_eq(value_of(n), 1);
	ck_assert_int_eq(value_of(cds_trie_next(t, &iter)), 3);
	ck_assert_int_eq(value_of(cds_trie_next(t, &iter)), 6);
	ck_assert_int_eq(value_of(cds_trie_next(t, &iter)), 2);
	ck_assert_int_eq(value_of(cds_trie_prev(t, &iter)), 5);
	ck_assert_int_eq(value_of(cds_trie_prev(t, &iter)), 1);
	ck_assert_int_eq(value_of(cds_trie_prev(t, &iter)), 3);
	fl->read_unlock();
	drain(t, it, 6);
}
END_TEST

START_TEST(test_range_walk)
{
	struct item *items[NR_BINKEYS];
	struct cds_trie *t = binary_trie(items);
	struct cds_trie_iter it;
	struct cds_trie_node *n;
	int v = 0;

	fl->read_lock();
	cds_trie_for_each_range(t, "a", 1, "abd", 3, &it, n)
		v = v * 100 + value_of(n);
	ck_assert_int_eq(v, 50607);
	/* No upper bound. */
	v = 0;
	cds_trie_for_each_range(t, "\xff", 1, NULL, 0, &it, n)
		v = v * 100 + value_of(n);
	ck_assert_int_eq(v, 101112 * 100 + 13);
	/* An empty range: lo >= hi. */
	ck_assert_ptr_null(cds_trie_range_first(t, "b", 1, "a", 1, &it));
	ck_assert_ptr_null(cds_trie_range_first(t, "ab", 2, "ab", 2, &it));
	/* prev stays in the range too. */
	n = cds_trie_range_first(t, "ab", 2, "b", 1, &it);
	ck_assert_int_eq(value_of(n), 6);
	ck_assert_ptr_null(cds_trie_prev(t, &it));
	fl->read_unlock();
	drain(t, items, NR_BINKEYS);
}
END_TEST

START_TEST(test_prefix_walk)
{
	struct item *items[NR_BINKEYS];
	struct cds_trie *t = binary_trie(items);
	struct cds_trie_iter it;
	struct cds_trie_node *n;
	int v = 0, count = 0;

	fl->read_lock();
	cds_trie_for_each_prefix(t, "ab", 2, &it, n)
		v = v * 10 + value_of(n);
	ck_assert_int_eq(v, 678);
	v = 0;
	cds_trie_for_each_prefix(t, "\xff", 1, &it, n)
		v = v * 100 + value_of(n);
	ck_assert_int_eq(v, 10111213);
	cds_trie_for_each_prefix(t, "", 0, &it, n)
		count++;
	ck_assert_int_eq(count, NR_BINKEYS);
	ck_assert_ptr_null(cds_trie_prefix_first(t, "abx", 3, &it));
	ck_assert_ptr_null(cds_trie_prefix_first(t, "c", 1, &it));
	fl->read_unlock();
	drain(t, items, NR_BINKEYS);
}
END_TEST

struct entry {
	int v;
	struct cds_trie_node node;
};

START_TEST(test_entry_macros)
{
	struct cds_trie *t = new_trie();
	static const char *const keys[] = { "x1", "x2", "y1", "x3" };
	struct entry e[4], *pos;
	struct cds_trie_iter it;
	int i, v = 0;

	fl->read_lock();
	for (i = 0; i < 4; i++) {
		e[i].v = i + 1;
		cds_trie_node_init(&e[i].node, keys[i], 2);
		ck_assert_int_eq(cds_trie_add(t, &e[i].node), 0);
	}
	cds_trie_for_each_entry(t, &it, pos, node)
		v = v * 10 + pos->v;
	ck_assert_int_eq(v, 1243);
	v = 0;
	cds_trie_for_each_entry_reverse(t, &it, pos, node)
		v = v * 10 + pos->v;
	ck_assert_int_eq(v, 3421);
	v = 0;
	cds_trie_for_each_entry_range(t, "x2", 2, "y", 1, &it, pos, node)
		v = v * 10 + pos->v;
	ck_assert_int_eq(v, 24);
	v = 0;
	cds_trie_for_each_entry_prefix(t, "x", 1, &it, pos, node)
		v = v * 10 + pos->v;
	ck_assert_int_eq(v, 124);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(cds_trie_del(t, &e[i].node), 0);
	fl->read_unlock();
	ck_assert_int_eq(cds_trie_destroy(t), 0);
}
END_TEST

/* A walk may remove the node it stands on and carry on. */
START_TEST(test_walk_removing)
{
	struct cds_trie *t = new_trie();
	static const char *const keys[] = { "a", "aa", "ab", "b", "ba", "c" };
	struct item *it[6];
	struct cds_trie_iter iter;
	struct cds_trie_node *n;
	int i, v = 0;

	for (i = 0; i < 6; i++) {
		it[i] = mk(keys[i], i + 1);
		ck_assert_int_eq(add(t, it[i]), 0);
	}
	fl->read_lock();
	cds_trie_for_each(t, &iter, n) {
		v = v * 10 + value_of(n);
		ck_assert_int_eq(cds_trie_del(t, n), 0);
	}
	ck_assert_uint_eq(cds_trie_count(t), 0);
	fl->read_unlock();
	ck_assert_int_eq(v, 123456);
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	fl->barrier();
	for (i = 0; i < 6; i++)
		free(it[i]);
}
END_TEST

/* A removed node may be added again once a grace period has passed. */
START_TEST(test_node_reuse)
{
	struct cds_trie *t = new_trie();
	struct item *a = mk("again", 1);

	ck_assert_int_eq(add(t, a), 0);
	ck_assert_int_eq(del(t, a), 0);
	fl->update_synchronize_rcu();
	ck_assert_int_eq(add(t, a), 0);
	ck_assert(!cds_trie_is_node_deleted(&a->node));
	ck_assert_int_eq(lookup(t, "again"), 1);
	ck_assert_int_eq(del(t, a), 0);
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	free(a);
}
END_TEST

/*
 * Exact lookups of byte 0 in 4- and 15-nodes at every fill: their free
 * positions hold byte 0 too, and a 15-node's key bytes have a 16th,
 * always 0, with no child behind it.  Byte 0 is found only once it is
 * given a position (the last one), and not after it is removed.
 */
START_TEST(test_small_zero_byte)
{
	static const unsigned char zero[2] = { 'x', 0 };
	static const unsigned char zero_long[3] = { 'x', 0, 'y' };
	unsigned char keys[15][2];
	struct item *items[15], *z;
	struct cds_trie *t;
	int n, i;

	for (n = 1; n <= 15; n++) {
		t = new_trie();
		/* Bytes 0xff, 0xfe, ...: n of them below "x\0" in a node. */
		for (i = 0; i < n; i++) {
			keys[i][0] = 'x';
			keys[i][1] = (unsigned char) (0xff - i);
			items[i] = mkb(keys[i], 2, i);
			ck_assert_int_eq(add(t, items[i]), 0);
		}
		ck_assert_int_eq(lookupb(t, zero, 2), -1);
		ck_assert_int_eq(lookupb(t, zero_long, 3), -1);
		for (i = 0; i < n; i++)
			ck_assert_int_eq(lookupb(t, keys[i], 2), i);
		if (n < 15) {
			z = mkb(zero, 2, 100);
			ck_assert_int_eq(add(t, z), 0);
			ck_assert_int_eq(lookupb(t, zero, 2), 100);
			ck_assert_int_eq(lookupb(t, zero_long, 3), -1);
			ck_assert_int_eq(del(t, z), 0);
			ck_assert_int_eq(lookupb(t, zero, 2), -1);
			fl->update_synchronize_rcu();
			free(z);
		}
		drain(t, items, n);
	}
}
END_TEST

/* Inner nodes come from the caller's allocator, and all go back. */
START_TEST(test_caller_allocator)
{
	struct trie_test_alloc a;
	struct cds_trie *t;
	struct item *it[64];
	char keys[64][4];
	int i;

	trie_test_alloc_init(&a);
	t = cds_trie_new(fl, &a.ops);
	ck_assert_ptr_nonnull(t);
	for (i = 0; i < 64; i++) {
		snprintf(keys[i], sizeof(keys[i]), "%c%c", 'a' + i % 8, 'a' + i / 8);
		it[i] = mk(keys[i], i);
		ck_assert_int_eq(add(t, it[i]), 0);
	}
	/*
	 * Atomic: the call_rcu worker may be freeing nodes replaced by the
	 * adds meanwhile (drain() waits for it with a barrier).
	 */
	ck_assert_int_gt(__atomic_load_n(&a.live, __ATOMIC_RELAXED), 1);
	drain(t, it, 64);
	ck_assert_int_eq(__atomic_load_n(&a.live, __ATOMIC_RELAXED), 0);
	ck_assert_int_eq(__atomic_load_n(&a.bytes, __ATOMIC_RELAXED), 0);
}
END_TEST

/* cds_trie_destroy_all()'s @free_node: counts in *@priv, frees the item. */
static void count_free(struct cds_trie_node *node, void *priv)
{
	__atomic_add_fetch((int *) priv, 1, __ATOMIC_RELAXED);
	free(item_of(node));
}

enum { DA_N = 600, DA_DUPS = 8, DA_DEL = 100 };

/*
 * Fills @t with DA_N keys of @keys (each "k" and three digits, some of
 * them spread over every node size), DA_DUPS duplicates of the first,
 * then removes DA_DEL keys so that replaced inner nodes wait for their
 * grace period; the removed items go to @gone.
 */
static void da_fill(struct cds_trie *t, char (*keys)[8], struct item **gone)
{
	struct item *it[DA_N];
	int i;

	for (i = 0; i < DA_N; i++) {
		snprintf(keys[i], 8, "k%c%c%c", 'a' + i % 23, 'A' + i / 23,
			 '0' + i % 3);
		it[i] = mk(keys[i], i);
		ck_assert_int_eq(add(t, it[i]), 0);
	}
	for (i = 0; i < DA_DUPS; i++)
		ck_assert_int_eq(add(t, mk(keys[0], DA_N + i)), 0);
	for (i = 0; i < DA_DEL; i++) {
		gone[i] = it[DA_N - 1 - i];
		ck_assert_int_eq(del(t, gone[i]), 0);
	}
}

/*
 * cds_trie_destroy_all() frees a nonempty trie and every inner node,
 * hands each node still in it (duplicates too) to the callback once, and
 * leaves nothing behind once the replaced nodes' grace period is over.
 */
START_TEST(test_destroy_all)
{
	static char keys[DA_N][8];
	struct item *gone[DA_DEL];
	struct trie_test_alloc a;
	struct cds_trie *t;
	int freed = 0, i;

	trie_test_alloc_init(&a);
	t = cds_trie_new(fl, &a.ops);
	ck_assert_ptr_nonnull(t);
	da_fill(t, keys, gone);
	ck_assert_int_eq(cds_trie_destroy_all(NULL, count_free, &freed), -EINVAL);
	ck_assert_int_eq(cds_trie_destroy_all(t, count_free, &freed), 0);
	ck_assert_int_eq(freed, DA_N + DA_DUPS - DA_DEL);
	fl->barrier();
	ck_assert_int_eq(__atomic_load_n(&a.live, __ATOMIC_RELAXED), 0);
	ck_assert_int_eq(__atomic_load_n(&a.bytes, __ATOMIC_RELAXED), 0);
	for (i = 0; i < DA_DEL; i++)
		free(gone[i]);
}
END_TEST

struct destroy_cb {
	struct rcu_head head;
	struct cds_trie *trie;
	bool all;
	int ret, freed;
};

static void destroy_from_callback(struct rcu_head *head)
{
	struct destroy_cb *d = caa_container_of(head, struct destroy_cb, head);

	d->ret = d->all ? cds_trie_destroy_all(d->trie, count_free, &d->freed)
			: cds_trie_destroy(d->trie);
}

/*
 * cds_trie_destroy() (of an emptied trie) and cds_trie_destroy_all() (of
 * a full one) run in a call_rcu callback, where waiting for callbacks
 * would deadlock: they do not wait, and two rcu_barrier() calls later
 * (the second for what the callback queued) everything is freed.
 */
START_TEST(test_destroy_in_callback)
{
	static char keys[DA_N][8];
	struct item *gone[DA_DEL], *it[64];
	struct destroy_cb d[2] = { { .all = false }, { .all = true } };
	struct trie_test_alloc a;
	char small[64][4];
	int i;

	trie_test_alloc_init(&a);
	d[0].trie = cds_trie_new(fl, &a.ops);
	d[1].trie = cds_trie_new(fl, &a.ops);
	ck_assert_ptr_nonnull(d[0].trie);
	ck_assert_ptr_nonnull(d[1].trie);
	for (i = 0; i < 64; i++) {
		snprintf(small[i], sizeof(small[i]), "%c%c", 'a' + i % 8, 'a' + i / 8);
		it[i] = mk(small[i], i);
		ck_assert_int_eq(add(d[0].trie, it[i]), 0);
	}
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(del(d[0].trie, it[i]), 0);
	da_fill(d[1].trie, keys, gone);
	d[0].ret = d[1].ret = 1;
	fl->update_call_rcu(&d[0].head, destroy_from_callback);
	fl->update_call_rcu(&d[1].head, destroy_from_callback);
	fl->barrier();
	fl->barrier();
	ck_assert_int_eq(d[0].ret, 0);
	ck_assert_int_eq(d[1].ret, 0);
	ck_assert_int_eq(d[1].freed, DA_N + DA_DUPS - DA_DEL);
	ck_assert_int_eq(__atomic_load_n(&a.live, __ATOMIC_RELAXED), 0);
	ck_assert_int_eq(__atomic_load_n(&a.bytes, __ATOMIC_RELAXED), 0);
	for (i = 0; i < 64; i++)
		free(it[i]);
	for (i = 0; i < DA_DEL; i++)
		free(gone[i]);
}
END_TEST

START_TEST(test_integer_keys)
{
	static const int64_t sv[] = { INT64_MIN, -300, -1, 0, 1, 255, 256,
				      INT64_MAX };
	static const uint64_t uv[] = { 0, 1, 0xff, 0x100, 0xffffffffULL,
				       0x100000000ULL, UINT64_MAX };
	unsigned char b[8], c[8];
	size_t i;

	for (i = 0; i < sizeof(uv) / sizeof(uv[0]); i++) {
		cds_trie_key_encode_u64(b, uv[i]);
		ck_assert_uint_eq(cds_trie_key_decode_u64(b), uv[i]);
		if (i) {
			cds_trie_key_encode_u64(c, uv[i - 1]);
			ck_assert_int_lt(memcmp(c, b, 8), 0);
		}
	}
	for (i = 0; i < sizeof(sv) / sizeof(sv[0]); i++) {
		cds_trie_key_encode_s64(b, sv[i]);
		ck_assert(cds_trie_key_decode_s64(b) == sv[i]);
		if (i) {
			cds_trie_key_encode_s64(c, sv[i - 1]);
			ck_assert_int_lt(memcmp(c, b, 8), 0);
		}
		cds_trie_key_encode_s32(b, (int32_t) (sv[i] / 4294967296LL));
		ck_assert_int_eq(cds_trie_key_decode_s32(b),
				 (int32_t) (sv[i] / 4294967296LL));
	}
	cds_trie_key_encode_u32(b, 0x01020304U);
	ck_assert_int_eq(memcmp(b, "\x01\x02\x03\x04", 4), 0);
	ck_assert_uint_eq(cds_trie_key_decode_u32(b), 0x01020304U);
	cds_trie_key_encode_u16(b, 0xabcd);
	ck_assert_int_eq(memcmp(b, "\xab\xcd", 2), 0);
	ck_assert_uint_eq(cds_trie_key_decode_u16(b), 0xabcd);
}
END_TEST

/* Values of test_integer_trie(): even, spread over every node size. */
static uint64_t int_value(int i)
{
	return ((uint64_t) (i % 300) << 40) | ((uint64_t) (i / 300) << 1);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = int_value(*(const int *) a), y = int_value(*(const int *) b);

	return x < y ? -1 : x > y;
}

/*
 * Integer keys in a trie: 4096 values, le/lt/ge/gt of present and
 * absent values land on the right neighbours.
 */
START_TEST(test_integer_trie)
{
	enum { N = 4096 };
	static unsigned char keys[N][8];
	struct cds_trie *t = new_trie();
	struct item *it[N];
	int order[N], i, r;
	unsigned char q[8];

	for (i = 0; i < N; i++) {
		cds_trie_key_encode_u64(keys[i], int_value(i));
		it[i] = mkb(keys[i], 8, i);
		ck_assert_int_eq(add(t, it[i]), 0);
		order[i] = i;
	}
	qsort(order, N, sizeof(order[0]), cmp_u64);
	for (r = 0; r < N; r += 7) {
		i = order[r];
		cds_trie_key_encode_u64(q, int_value(i) + 1);
		ck_assert_int_eq(query(t, Q_LE, q, 8), i);
		ck_assert_int_eq(query(t, Q_LT, q, 8), i);
		ck_assert_int_eq(query(t, Q_GT, q, 8), r + 1 < N ? order[r + 1] : -1);
		ck_assert_int_eq(query(t, Q_LT, keys[i], 8), r ? order[r - 1] : -1);
		ck_assert_int_eq(query(t, Q_GE, keys[i], 8), i);
		if (!r)
			continue;	/* value 0: no value below */
		cds_trie_key_encode_u64(q, int_value(i) - 1);
		ck_assert_int_eq(query(t, Q_GE, q, 8), i);
		ck_assert_int_eq(query(t, Q_LE, q, 8), order[r - 1]);
	}
	drain(t, it, N);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "model".
 */

static const struct {
	uint64_t seed;
	enum trie_model_pool kind;
	bool long_keys;
} model_runs[] = {
	{ 1, TRIE_POOL_MIXED, false },
	{ 2, TRIE_POOL_MIXED, true },
	{ 3, TRIE_POOL_MIXED, true },
	{ 4, TRIE_POOL_DEEP, false },
	{ 5, TRIE_POOL_DEEP, false },
	{ 6, TRIE_POOL_MIXED, false },
};
#define NR_MODEL_RUNS	((int) (sizeof(model_runs) / sizeof(model_runs[0])))

/* RCUTRIE_SEED=<n> replays seed n (both pools, long keys). */
static bool replay_seed(uint64_t *seed)
{
	const char *v = getenv("RCUTRIE_SEED");

	if (!v || !*v)
		return false;
	*seed = strtoull(v, NULL, 0);
	return true;
}

static void run_model(const struct rcu_flavor_struct *f, uint64_t seed,
		      enum trie_model_pool kind, bool long_keys,
		      struct trie_test_alloc *a)
{
	struct trie_model_cfg cfg = {
		.seed = seed, .ops = 4000, .kind = kind, .pool = 400,
		.long_keys = long_keys, .fl = f, .alloc = a,
	};
	char err[512];
	int ret;

	f->register_thread();
	ret = trie_model_run(&cfg, err, sizeof(err));
	f->barrier();
	f->unregister_thread();
	ck_assert_msg(!ret, "model test failed (replay with RCUTRIE_SEED=%llu): "
		      "%s", (unsigned long long) seed, err);
	if (a) {
		ck_assert_msg(a->live == 0, "seed %llu: %ld allocations leaked",
			      (unsigned long long) seed, a->live);
		ck_assert_int_eq(a->bytes, 0);
	}
}

START_TEST(test_model)
{
	uint64_t seed = model_runs[_i].seed;
	struct trie_test_alloc a;

	trie_test_alloc_init(&a);
	if (replay_seed(&seed))
		run_model(test_flavors[TF_MEMB].fl, seed,
			  _i % 2 ? TRIE_POOL_DEEP : TRIE_POOL_MIXED, true, &a);
	else
		run_model(test_flavors[TF_MEMB].fl, seed, model_runs[_i].kind,
			  model_runs[_i].long_keys, &a);
}
END_TEST

/* The model test once under each flavor (reclamation, destroy). */
START_TEST(test_model_flavors)
{
	run_model(test_flavors[_i].fl, 100 + (uint64_t) _i, TRIE_POOL_MIXED,
		  true, NULL);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "oom".
 */

START_TEST(test_oom_new)
{
	struct trie_test_alloc a;

	trie_test_alloc_init(&a);
	a.fail_at = 1;
	errno = 0;
	ck_assert_ptr_null(cds_trie_new(test_flavors[TF_MEMB].fl, &a.ops));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_int_eq(a.live, 0);
}
END_TEST

/* The model test with every n-th allocation failing. */
START_TEST(test_oom_model)
{
	static const long every[] = { 2, 3, 5, 11 };
	struct trie_test_alloc a;
	uint64_t seed = 200 + (uint64_t) _i;

	trie_test_alloc_init(&a);
	a.fail_every = every[_i % 4];
	run_model(test_flavors[TF_MEMB].fl, seed,
		  _i < 4 ? TRIE_POOL_MIXED : TRIE_POOL_DEEP, true, &a);
	ck_assert_int_gt(a.failed, 0);
}
END_TEST

/*
 * Every allocation from the n-th on fails, for each n up to what the
 * model workload allocates: whatever the cut, additions fail cleanly
 * and the rest of the run (removals included) stays correct.
 */
START_TEST(test_oom_cut)
{
	struct trie_test_alloc a;
	long n, total;

	trie_test_alloc_init(&a);
	run_model(test_flavors[TF_MEMB].fl, 300, TRIE_POOL_MIXED, false, &a);
	total = a.calls;
	for (n = 2; n <= total; n += 1 + n / 16) {
		trie_test_alloc_init(&a);
		a.fail_at = n;
		run_model(test_flavors[TF_MEMB].fl, 300, TRIE_POOL_MIXED, false, &a);
	}
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

static void stress(int flavor, enum trie_stress_check check)
{
	const struct test_flavor *tf = &test_flavors[flavor];
	struct trie_stress_cfg cfg = {
		.flavor = tf, .check = check,
		.seconds = STRESS_S * harness_time_mult(),
		.seed = 1000 + (unsigned long) flavor * 10 + check,
	};
	char err[512];
	int failures = trie_stress_run(&cfg, err, sizeof(err));

	ck_assert_msg(!failures, "flavor %s: %s", tf->name, err);
}

START_TEST(test_stress_order)
{
	stress(_i, TRIE_STRESS_ORDER);
}
END_TEST

START_TEST(test_stress_once)
{
	stress(_i, TRIE_STRESS_ONCE);
}
END_TEST

START_TEST(test_stress_neighbours)
{
	stress(_i, TRIE_STRESS_NEIGHBOURS);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "final".
 */

/*
 * Neither of a dying trie's two reclamation callbacks, running at once
 * on two workers, lets the trie go while the other still frees through
 * its allocator; and the race was set up at least once.
 */
START_TEST(test_final_callback_race)
{
	struct trie_final_race_result res;
	char err[512];
	int failures = trie_final_race_run(&test_flavors[TF_MEMB],
					   FINAL_S * harness_time_mult(),
					   &res, err, sizeof(err));

	ck_assert_msg(!failures, "%s", err);
	ck_assert_msg(res.overlaps > 0, "the two callbacks never freed at "
		      "once in %d rounds: nothing was tested", res.rounds);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "misuse" (debug builds abort; release builds return -EINVAL).
 */

START_TEST(test_misuse_release)
{
	struct cds_trie *t = new_trie();
	struct item *a = mk("a", 1);

	ck_assert_int_eq(add(t, a), 0);
#ifndef URCU_DEBUG
	ck_assert_int_eq(add(t, a), -EINVAL);	/* already in a trie */
	fl->read_lock();
	ck_assert_int_eq(cds_trie_add(t, NULL), -EINVAL);
	ck_assert_int_eq(cds_trie_replace(t, &a->node, &a->node), -EINVAL);
	fl->read_unlock();
#endif
	ck_assert_int_eq(del(t, a), 0);
	ck_assert_int_eq(cds_trie_destroy(t), 0);
	free(a);
}
END_TEST

#ifdef URCU_DEBUG
START_TEST(test_misuse_outside_section)
{
	struct cds_trie *t = new_trie();
	struct item *a = mk("a", 1);

	(void) cds_trie_add(t, &a->node);
}
END_TEST

START_TEST(test_misuse_added_twice)
{
	struct cds_trie *t = new_trie();
	struct item *a = mk("a", 1);

	ck_assert_int_eq(add(t, a), 0);
	(void) add(t, a);
}
END_TEST

START_TEST(test_misuse_replace_other_key)
{
	struct cds_trie *t = new_trie();
	struct item *a = mk("a", 1), *b = mk("b", 2);

	ck_assert_int_eq(add(t, a), 0);
	fl->read_lock();
	(void) cds_trie_replace(t, &a->node, &b->node);
}
END_TEST

/*
 * Defined by liburcu-cds for tests (ds/src/rcutrie-internal.h): the
 * descents from the root the calling thread's queries made (debug builds).
 */
extern unsigned long cds__trie_debug_descents(void);

enum { DEEP_N = 200 };

/* The descents from the root one query of kind @q (Q_* or 5 first, 6 last,
 * 7 prefix_first, 8 range_first) for @len bytes of @key makes; *@v gets the
 * value found (-1: none). */
static unsigned long deep_descents(struct cds_trie *t, int q,
				   const unsigned char *key, size_t len, int *v)
{
	struct cds_trie_iter it;
	struct cds_trie_node *n = NULL;
	unsigned long before;

	fl->read_lock();
	before = cds__trie_debug_descents();
	switch (q) {
	case Q_LE: n = cds_trie_lookup_le(t, key, len, NULL); break;
	case Q_LT: n = cds_trie_lookup_lt(t, key, len, &it); break;
	case Q_GE: n = cds_trie_lookup_ge(t, key, len, NULL); break;
	case Q_GT: n = cds_trie_lookup_gt(t, key, len, &it); break;
	case 5: n = cds_trie_first(t, &it); break;
	case 6: n = cds_trie_last(t, &it); break;
	case 7: n = cds_trie_prefix_first(t, key, len, &it); break;
	default: n = cds_trie_range_first(t, key, len, NULL, 0, &it); break;
	}
	before = cds__trie_debug_descents() - before;
	fl->read_unlock();
	*v = value_of(n);
	return before;
}

/*
 * A path of 200 inner nodes (keys "a", "aa", ... nested, and "b"):
 * every query, from or without an iterator, descends from the root once,
 * even when its answer lies 200 levels above where the descent stopped
 * (it keeps its whole path: no second descent, no restart), and a full
 * walk in either direction returns every key once, in order.
 */
START_TEST(test_deep_one_descent)
{
	static unsigned char a[DEEP_N + 2];
	struct cds_trie *t = new_trie();
	struct item *items[DEEP_N + 1];
	int i, v, got[DEEP_N + 1], q;

	memset(a, 'a', sizeof(a));
	for (i = 0; i < DEEP_N; i++) {
		items[i] = mkb(a, (size_t) i + 1, i + 1);
		ck_assert_int_eq(add(t, items[i]), 0);
	}
	items[DEEP_N] = mk("b", DEEP_N + 1);
	ck_assert_int_eq(add(t, items[DEEP_N]), 0);

	/* Above the deepest key: climb 200 levels to "b". */
	a[DEEP_N] = 'z';
	ck_assert_uint_eq(deep_descents(t, Q_GE, a, DEEP_N + 1, &v), 1);
	ck_assert_int_eq(v, DEEP_N + 1);
	ck_assert_uint_eq(deep_descents(t, Q_GT, a, DEEP_N + 1, &v), 1);
	ck_assert_int_eq(v, DEEP_N + 1);
	ck_assert_uint_eq(deep_descents(t, 7, a, DEEP_N + 1, &v), 1);
	ck_assert_int_eq(v, -1);
	/* Below a deep absent key: the end slot one level up. */
	a[150] = '0';
	ck_assert_uint_eq(deep_descents(t, Q_LE, a, 151, &v), 1);
	ck_assert_int_eq(v, 150);
	ck_assert_uint_eq(deep_descents(t, Q_LT, a, 151, &v), 1);
	ck_assert_int_eq(v, 150);
	ck_assert_uint_eq(deep_descents(t, 8, a, 151, &v), 1);
	ck_assert_int_eq(v, 151);
	memset(a, 'a', sizeof(a));
	ck_assert_uint_eq(deep_descents(t, 5, NULL, 0, &v), 1);
	ck_assert_int_eq(v, 1);
	ck_assert_uint_eq(deep_descents(t, 6, NULL, 0, &v), 1);
	ck_assert_int_eq(v, DEEP_N + 1);
	for (q = 0; q <= 8; q++) {
		if (q == Q_PREFIX)
			continue;
		ck_assert_uint_eq(deep_descents(t, q, a, DEEP_N, &v), 1);
	}

	ck_assert_int_eq(walk(t, 1, got, DEEP_N + 1), DEEP_N + 1);
	for (i = 0; i <= DEEP_N; i++)
		ck_assert_int_eq(got[i], i + 1);
	ck_assert_int_eq(walk(t, -1, got, DEEP_N + 1), DEEP_N + 1);
	for (i = 0; i <= DEEP_N; i++)
		ck_assert_int_eq(got[i], DEEP_N + 1 - i);
	drain(t, items, DEEP_N + 1);
}
END_TEST

/*
 * Deep path under racing removals: an updater removes and adds back the
 * keys "a" * i of even i (and "a" * i "z") on a 120-level path, while a
 * reader runs le/ge queries of absent keys along it.  Every query must
 * descend from the root once (no restart, whatever the removals empty
 * meanwhile), return a key on the right side of the query, and never
 * skip the stable keys ("a" * i of odd i, and "b").
 */
enum { RD_N = 120 };

static struct {
	struct cds_trie *t;
	unsigned char a[RD_N + 2];
	atomic_int stop, bad_descents, bad_answers;
	long queries;
} rd;

static void *rd_updater(void *arg)
{
	struct item **churn = arg;
	int i;

	fl->register_thread();
	while (!atomic_load(&rd.stop)) {
		for (i = 0; i < RD_N; i++)
			(void) del(rd.t, churn[i]);
		fl->update_synchronize_rcu();
		for (i = 0; i < RD_N; i++) {
			const void *key;
			size_t len;

			/* Reused a grace period after its removal: init again. */
			key = cds_trie_node_key(&churn[i]->node, &len);
			cds_trie_node_init(&churn[i]->node, key, len);
			(void) add(rd.t, churn[i]);
		}
	}
	fl->unregister_thread();
	return NULL;
}

/* Sign of @key (@len bytes) minus @q (@qlen bytes), memcmp order. */
static int rd_cmp(const unsigned char *key, size_t len,
		  const unsigned char *q, size_t qlen)
{
	int r = memcmp(key, q, len < qlen ? len : qlen);

	return r ? r : (len > qlen) - (len < qlen);
}

static void *rd_reader(void *arg)
{
	unsigned char q[RD_N + 2];
	struct cds_trie_node *n;
	const unsigned char *key;
	unsigned long before;
	double end = *(double *) arg;
	size_t len, k;
	uint64_t r = 88172645463325252ULL;

	fl->register_thread();
	while (!harness_past(end)) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		k = 1 + r % (RD_N - 1);
		memset(q, 'a', k);
		q[k] = (r >> 32) & 1 ? '0' : '{';
		fl->read_lock();
		before = cds__trie_debug_descents();
		if (q[k] == '0') {
			/* Below "a" * k "0": "a" * k, or "a" * (k - 1) at worst. */
			n = cds_trie_lookup_le(rd.t, q, k + 1, NULL);
			key = n ? cds_trie_node_key(n, &len) : NULL;
			if (!key || rd_cmp(key, len, q, k + 1) >= 0
			    || len < k - !(k & 1) || len > k || memcmp(key, q, len))
				atomic_fetch_add(&rd.bad_answers, 1);
		} else {
			/*
			 * Above "a" * k "{": some "a" * j "z" (j < k), or the
			 * stable "b" when none is there.
			 */
			n = cds_trie_lookup_ge(rd.t, q, k + 1, NULL);
			key = n ? cds_trie_node_key(n, &len) : NULL;
			if (!key || rd_cmp(key, len, q, k + 1) <= 0
			    || (key[0] != 'b' && (len > k || key[len - 1] != 'z')))
				atomic_fetch_add(&rd.bad_answers, 1);
		}
		if (cds__trie_debug_descents() - before != 1)
			atomic_fetch_add(&rd.bad_descents, 1);
		fl->read_unlock();
		rd.queries++;
	}
	fl->unregister_thread();
	return NULL;
}

START_TEST(test_deep_racing_removals)
{
	struct item *stable[RD_N + 1], *churn[RD_N];
	double end = harness_deadline(STRESS_S);
	pthread_t up, rdr;
	int i, ns = 0, bad_descents, bad_answers;

	rd.t = new_trie();
	memset(rd.a, 'a', sizeof(rd.a));
	rd.a[RD_N + 1] = 'z';
	atomic_store(&rd.stop, 0);
	atomic_store(&rd.bad_descents, 0);
	atomic_store(&rd.bad_answers, 0);
	rd.queries = 0;
	for (i = 1; i <= RD_N; i++) {
		if (i & 1) {
			stable[ns] = mkb(rd.a, (size_t) i, i);
			ck_assert_int_eq(add(rd.t, stable[ns++]), 0);
		} else {
			/* "a" * i, and "a" * (i - 1) "z" beside it. */
			churn[i - 2] = mkb(rd.a, (size_t) i, i);
			churn[i - 1] = mkb(rd.a + RD_N + 2 - i, (size_t) i, -i);
			ck_assert_int_eq(add(rd.t, churn[i - 2]), 0);
			ck_assert_int_eq(add(rd.t, churn[i - 1]), 0);
		}
	}
	stable[ns] = mk("b", 0);
	ck_assert_int_eq(add(rd.t, stable[ns++]), 0);
	ck_assert_int_eq(pthread_create(&up, NULL, rd_updater, churn), 0);
	ck_assert_int_eq(pthread_create(&rdr, NULL, rd_reader, &end), 0);
	ck_assert_int_eq(pthread_join(rdr, NULL), 0);
	atomic_store(&rd.stop, 1);
	ck_assert_int_eq(pthread_join(up, NULL), 0);
	bad_descents = atomic_load(&rd.bad_descents);
	bad_answers = atomic_load(&rd.bad_answers);
	ck_assert_int_gt(rd.queries, 0);
	ck_assert_msg(!bad_descents, "%d queries descended more than once",
		      bad_descents);
	ck_assert_msg(!bad_answers, "%d wrong answers", bad_answers);
	for (i = 0; i < ns; i++)
		ck_assert_int_eq(del(rd.t, stable[i]), 0);
	drain(rd.t, churn, RD_N);
	for (i = 0; i < ns; i++)
		free(stable[i]);
}
END_TEST

START_TEST(test_misuse_other_iterator)
{
	struct cds_trie *t = new_trie(), *u = new_trie();
	struct cds_trie_iter it;

	fl->read_lock();
	(void) cds_trie_first(t, &it);
	(void) cds_trie_next(u, &it);
}
END_TEST
#endif

static Suite *rcutrie_suite(void)
{
	Suite *s = suite_create("rcutrie");
	TCase *tc;

	tc = harness_tcase(s, "api", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_destroy);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_lookup_duplicates);
	tcase_add_test(tc, test_add_unique);
	tcase_add_test(tc, test_add_replace);
	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_del);
	tcase_add_test(tc, test_binary_keys);
	tcase_add_test(tc, test_longest_prefix);
	tcase_add_test(tc, test_neighbours);
	tcase_add_test(tc, test_walk_duplicates);
	tcase_add_test(tc, test_range_walk);
	tcase_add_test(tc, test_prefix_walk);
	tcase_add_test(tc, test_entry_macros);
	tcase_add_test(tc, test_walk_removing);
	tcase_add_test(tc, test_node_reuse);
	tcase_add_test(tc, test_small_zero_byte);
	tcase_add_test(tc, test_caller_allocator);
	tcase_add_test(tc, test_destroy_all);
	tcase_add_test(tc, test_destroy_in_callback);
	tcase_add_test(tc, test_integer_keys);
	tcase_add_test(tc, test_integer_trie);
	tcase_add_test(tc, test_misuse_release);

	tc = harness_tcase(s, "model", 60);
	tcase_add_loop_test(tc, test_model, 0, NR_MODEL_RUNS);
	tcase_add_loop_test(tc, test_model_flavors, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "oom", 120);
	tcase_add_test(tc, test_oom_new);
	tcase_add_loop_test(tc, test_oom_model, 0, 6);
	tcase_add_test(tc, test_oom_cut);

	tc = harness_tcase(s, "concurrent", 60);
	tcase_add_loop_test(tc, test_stress_order, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_stress_once, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_stress_neighbours, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "final", 30);
	tcase_add_test(tc, test_final_callback_race);

#ifdef URCU_DEBUG
	tc = harness_tcase(s, "misuse", 10);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test_raise_signal(tc, test_misuse_outside_section, SIGABRT);
	tcase_add_test_raise_signal(tc, test_misuse_added_twice, SIGABRT);
	tcase_add_test_raise_signal(tc, test_misuse_replace_other_key, SIGABRT);
	tcase_add_test_raise_signal(tc, test_misuse_other_iterator, SIGABRT);

	tc = harness_tcase(s, "bound", 10);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_deep_one_descent);
	tcase_add_test(tc, test_deep_racing_removals);
#endif
	return s;
}

int main(void)
{
	return harness_run_suite(rcutrie_suite());
}
