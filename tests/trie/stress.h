/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The concurrent part of the rcutrie suite (tests/trie/stress.c): updater
 * threads churn keys while reader threads check what the trie promises
 * about concurrent readers (docs/trie.md, "Guarantees").
 *
 * Keys: a fixed set of "stable" keys, added before the threads start and
 * never removed, and "churn" keys that updaters add, replace and remove
 * all the time.  Churn keys are extensions, truncations and neighbours of
 * stable keys and of each other, plus chains of one node per level deeper
 * than an iterator caches, so that the churn splits prefixes, grows,
 * shrinks and merges the nodes around the stable keys.
 *
 * Every node an updater removes goes through call_rcu to a callback that
 * poisons it (magic and key bytes) and parks it in a graveyard before it
 * is freed, so a reader reaching it after its grace period sees poison.
 */
#ifndef TESTS_TRIE_STRESS_H
#define TESTS_TRIE_STRESS_H

#include <stdbool.h>

#include "../flavors/flavors.h"

/* The property the readers check. */
enum trie_stress_check {
	/*
	 * Ordering: walks return strictly increasing keys (equal keys only
	 * within one duplicate chain); lookups return the key asked for;
	 * neighbour queries answer on the right side of their query; no
	 * node is poisoned.
	 */
	TRIE_STRESS_ORDER,
	/*
	 * Exactly once: every walk (forward, backward, range, prefix)
	 * returns every stable key in its span exactly once.
	 */
	TRIE_STRESS_ONCE,
	/*
	 * Neighbours: le/lt/ge/gt never skip a stable key (no stable key
	 * lies strictly between the query and the answer), every stable key
	 * is found by lookup, longest-prefix finds at least the longest
	 * stable prefix.
	 */
	TRIE_STRESS_NEIGHBOURS,
};

struct trie_stress_cfg {
	const struct test_flavor *flavor;	/* tests/flavors/flavors.h */
	enum trie_stress_check check;
	double seconds;		/* scaled by the caller */
	unsigned long seed;
};

/*
 * Runs the stress (the calling thread is not registered); returns the
 * number of failures, and the first one's description in @err.
 */
int trie_stress_run(const struct trie_stress_cfg *cfg, char *err, size_t errlen);

#endif /* TESTS_TRIE_STRESS_H */
