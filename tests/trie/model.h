/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared pieces of the rcutrie suite (tests/check_rcutrie.c): keys, a
 * counting allocator that can fail on demand, and the randomized model
 * test, which runs random operations on a trie and on a sorted-array
 * oracle and compares every answer.
 *
 * Nothing here includes a flavor header: RCU is reached through the
 * flavor table the caller passes.
 */
#ifndef TESTS_TRIE_MODEL_H
#define TESTS_TRIE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/flavor.h>
#include <urcu/rcutrie.h>

/* A deterministic generator (splitmix64), so that a seed replays a run. */
static inline uint64_t trie_rand(uint64_t *state)
{
	uint64_t x = (*state += 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* memcmp order of two keys, a proper prefix first. */
int trie_key_cmp(const unsigned char *a, size_t alen,
		 const unsigned char *b, size_t blen);

/*
 * A struct cds_trie_alloc that counts live allocations and bytes, and
 * fails on demand: every call from the fail_at-th on (0: never), and
 * every fail_every-th call (0: never).  Thread-safe.
 */
struct trie_test_alloc {
	struct cds_trie_alloc ops;	/* state points back here */
	long calls;			/* atomic */
	long fail_at;			/* atomic */
	long fail_every;		/* atomic */
	long live;			/* atomic */
	long bytes;			/* atomic */
	long failed;			/* atomic: calls that failed */
};

void trie_test_alloc_init(struct trie_test_alloc *a);

/* Key pools of the model test. */
enum trie_model_pool {
	/* Random keys, many of them prefixes of others, 0x00 and 0xff. */
	TRIE_POOL_MIXED,
	/*
	 * "b" * i followed by nothing, "a" or "c", i up to 150: one inner
	 * node per level, paths far deeper than an iterator caches.
	 */
	TRIE_POOL_DEEP,
};

/* What the model test does. */
struct trie_model_cfg {
	uint64_t seed;
	unsigned int ops;		/* random operations */
	enum trie_model_pool kind;
	unsigned int pool;		/* MIXED: distinct keys, <= 1024 */
	bool long_keys;			/* MIXED: include 300..420-byte keys */
	const struct rcu_flavor_struct *fl;
	struct trie_test_alloc *alloc;	/* may be NULL */
};

/*
 * Runs the model test (the calling thread must be registered with
 * cfg->fl); returns 0, or -1 with the first difference described in
 * @err, which starts with the seed that replays it.  With an allocator
 * that fails, an addition must return -ENOMEM exactly when an allocation
 * failed during it, and then leave the trie as it was; removals must
 * succeed whatever the allocator does.
 */
int trie_model_run(const struct trie_model_cfg *cfg, char *err, size_t errlen);

#endif /* TESTS_TRIE_MODEL_H */
