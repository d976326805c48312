/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rcutrie suite's test of a dying trie's two reclamation callbacks
 * running at once (tests/trie/final_race.c).
 *
 * A trie destroyed while replaced inner nodes still wait for their grace
 * period has up to two callbacks queued: the one that was already
 * carrying retired nodes, and the one its destruction queues for the
 * nodes no callback carried yet.  The last of them to finish frees the
 * trie.  With the two queued on different call_rcu workers they run
 * concurrently, and neither may let the trie (and the allocator state
 * the other still frees through) go while the other is freeing.
 */
#ifndef TESTS_TRIE_FINAL_RACE_H
#define TESTS_TRIE_FINAL_RACE_H

#include <stddef.h>

#include "../flavors/flavors.h"

struct trie_final_race_result {
	int rounds;	/* tries built and destroyed */
	int overlaps;	/* rounds whose two callbacks freed at the same time */
};

/*
 * Runs rounds for @seconds (already scaled by the caller) with flavor
 * @tf; the calling thread must be registered with it.  Returns the
 * number of failures, the first one described in @err; *@res says how
 * often the race was set up, which the caller asserts on too.
 */
int trie_final_race_run(const struct test_flavor *tf, double seconds,
			struct trie_final_race_result *res, char *err,
			size_t errlen);

#endif /* TESTS_TRIE_FINAL_RACE_H */
