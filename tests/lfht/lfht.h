/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared pieces of the rculfhash suite (tests/check_rculfhash.c and the
 * helper compilation units of tests/lfht/).
 *
 * Include a flavor header (<urcu.h>, <urcu/urcu-memb.h>, ...) before this
 * one: it needs struct rcu_head, and <urcu/flavor.h> is include-guarded,
 * so the first inclusion decides what its generic names map to.
 */
#ifndef TESTS_LFHT_LFHT_H
#define TESTS_LFHT_LFHT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/rculfhash.h>

#include "../harness/harness.h"

/* magic of an item that may be in a table or reachable by readers. */
#define LFHT_LIVE	0x11ee11eeU
/* magic of an item whose grace period has ended (about to be freed). */
#define LFHT_DEAD	0xdeadbeefU

struct lfht_item {
	struct cds_lfht_node node;
	unsigned long key;
	unsigned int magic;
	struct rcu_head rcu;
};

static inline struct lfht_item *lfht_to_item(struct cds_lfht_node *node)
{
	return caa_container_of(node, struct lfht_item, node);
}

/* A 64-bit mixer, so that consecutive keys land in far-apart buckets. */
static inline unsigned long lfht_hash(unsigned long key)
{
	uint64_t x = (uint64_t) key + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long) (x ^ (x >> 31));
}

/*
 * The match function of every table of the suite.  Reading a node whose
 * grace period has ended is a use after free; items are poisoned before
 * they are freed, so that is reported even when the memory is not reused.
 */
static inline int lfht_match(struct cds_lfht_node *node, const void *key)
{
	struct lfht_item *it = lfht_to_item(node);

	if (it->magic != LFHT_LIVE)
		harness_fail("match() on a reclaimed item (key %lu)", it->key);
	return it->key == *(const unsigned long *) key;
}

/* A new item for @key, not in any table yet. */
static inline struct lfht_item *lfht_item_new(unsigned long key)
{
	struct lfht_item *it = malloc(sizeof(*it));

	if (!it)
		abort();
	cds_lfht_node_init(&it->node);
	it->key = key;
	it->magic = LFHT_LIVE;
	return it;
}

/* call_rcu callback: poisons and frees an item removed from its table. */
static inline void lfht_item_free_cb(struct rcu_head *head)
{
	struct lfht_item *it = caa_container_of(head, struct lfht_item, rcu);

	if (it->magic != LFHT_LIVE)
		harness_fail("item %lu reclaimed twice", it->key);
	it->magic = LFHT_DEAD;
	free(it);
}

/* xorshift64: a cheap per-thread generator; *state must start nonzero. */
static inline uint64_t lfht_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/*
 * The cross-flavor test: tests/lfht/memb_side.c and tests/lfht/qsbr_side.c
 * each include a single flavor header and share two tables, one of each
 * flavor.  A side reaches the other side's flavor only through the
 * `const struct rcu_flavor_struct *` in this structure.
 */
struct lfht_cross {
	struct cds_lfht *memb_ht;	/* uses urcu_memb_flavor */
	struct cds_lfht *qsbr_ht;	/* uses urcu_qsbr_flavor */
	const struct rcu_flavor_struct *memb_fl;
	const struct rcu_flavor_struct *qsbr_fl;
	double deadline;
};

/* Keys each side owns in both tables: [side * LFHT_CROSS_KEYS, +KEYS). */
#define LFHT_CROSS_KEYS	128

/*
 * Cross-flavor workers, inside a read-side critical section of @ht's
 * flavor: flips the presence of @key, which only the caller changes and
 * *@present models.  Returns the item removed, for the caller to hand to
 * call_rcu of @ht's flavor after the section, or NULL.
 */
static inline struct lfht_item *lfht_cross_flip(struct cds_lfht *ht,
						unsigned long key,
						bool *present)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct lfht_item *it;

	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if ((node != NULL) != *present) {
		harness_fail("key %lu: lookup %s", key, node ? "hit" : "missed");
		return NULL;
	}
	if (node) {
		if (cds_lfht_del(ht, node) != 0) {
			harness_fail("key %lu: del failed", key);
			return NULL;
		}
		*present = false;
		return lfht_to_item(node);
	}
	it = lfht_item_new(key);
	if (cds_lfht_add_unique(ht, lfht_hash(key), lfht_match, &key,
				&it->node) != &it->node) {
		harness_fail("key %lu: add_unique refused", key);
		free(it);
		return NULL;
	}
	*present = true;
	return NULL;
}

/* Read-side: @key (the other side's) is absent or a live item. */
static inline void lfht_cross_peek(struct cds_lfht *ht, unsigned long key)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node && (lfht_to_item(node)->magic != LFHT_LIVE ||
		     lfht_to_item(node)->key != key))
		harness_fail("key %lu: lookup found a bad item", key);
}

/* Read-side: the keys [base, base + LFHT_CROSS_KEYS) are as modelled. */
static inline void lfht_cross_verify(struct cds_lfht *ht, unsigned long base,
				     const bool *present)
{
	struct cds_lfht_iter iter;
	unsigned long i, key;

	for (i = 0; i < LFHT_CROSS_KEYS; i++) {
		key = base + i;
		cds_lfht_lookup(ht, lfht_hash(key), lfht_match, &key, &iter);
		if ((cds_lfht_iter_get_node(&iter) != NULL) != present[i])
			harness_fail("key %lu: table and model differ", key);
	}
}

/* memb_side.c: the memb table and flavor; the test thread calls these. */
void lfht_cross_memb_init(struct lfht_cross *c);
void lfht_cross_memb_fini(struct lfht_cross *c);
/* qsbr_side.c: the same for the qsbr table. */
void lfht_cross_qsbr_init(struct lfht_cross *c);
void lfht_cross_qsbr_fini(struct lfht_cross *c);

/* Worker threads (argument: struct lfht_cross *), one per side. */
void *lfht_cross_memb_worker(void *arg);
void *lfht_cross_qsbr_worker(void *arg);

/*
 * tests/lfht/newapi.c: tests of API beyond liburcu 0.13.  Weak, so the
 * suite also links without that file: it is then NULL and not called.
 * (The rest of the suite reaches the flavors through
 * tests/flavors/flavors.c, which names this project's statistics and
 * grace-period state: it builds against this project only.)
 */
void lfht_add_newapi_tests(Suite *s) __attribute__((weak));

#endif /* TESTS_LFHT_LFHT_H */
