/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A dying trie's two reclamation callbacks on two call_rcu workers
 * (final_race.h).
 *
 * Each round builds a trie on an allocator of its own, adds keys and
 * removes them (all of them, then cds_trie_destroy(); or half, then
 * cds_trie_destroy_all(); alternately), so that replaced inner nodes are
 * retired.  The test thread makes the updates with its call_rcu data set
 * to worker A, so the trie's reclamation callback is queued there, and
 * the destruction with its call_rcu data set to worker B, so the final
 * callback (the nodes still pending) is queued there.  rcu_barrier()
 * ends the round.
 *
 * The round's allocator widens the window the two callbacks may race in.
 * Worker A's first free of the round waits (bounded) until worker B has
 * begun freeing, so that the reclamation callback is still freeing when
 * the final one starts; worker B's first free then sleeps a little,
 * leaving A the time to finish its callback meanwhile.  A round in which
 * A saw B freeing is an "overlap": both callbacks of one trie were inside
 * their frees at once.
 *
 * And the allocator checks the order of the frees, which holds in a
 * plain build as well as under a sanitizer: the trie (the first block,
 * the one cds_trie_new() returned) must be freed last, once, and no
 * inner node may be freed after it, since the trie holds the allocator
 * state such a free goes through.  The trie's block is kept until the
 * round's barrier rather than freed, so that a callback still using it
 * reports the wrong order instead of crashing at random.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/call-rcu.h>
#include <urcu/rcutrie.h>

#include "../harness/harness.h"
#include "final_race.h"

/* Keys "r" + two letters of 16: nodes grow up to 256 children, shrink. */
#define NR_KEYS		256
#define KEY_LEN		3

/* Bound on worker A's wait for worker B, and B's sleep; both scaled. */
#define HANDSHAKE_S	0.05
#define WIDEN_S		0.003

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			harness_log_fail(&race.log, __VA_ARGS__);	\
	} while (0)

struct race_item {
	struct cds_trie_node node;
	char key[KEY_LEN + 1];
};

/* One round's allocator state (struct cds_trie_alloc's @state). */
struct round_alloc {
	struct cds_trie_alloc ops;
	int round;
	/* The trie's own block, set once cds_trie_new() returned it. */
	void *_Atomic trie;
	atomic_int trie_freed;		/* times the trie was freed */
	atomic_long live;		/* blocks not freed, the trie's included */
	atomic_int a_began;		/* worker A's first free has begun */
	atomic_int b_began;		/* worker B's first free has begun */
	atomic_int overlap;		/* A saw B freeing (file comment) */
};

static struct {
	pthread_t a_tid, b_tid;		/* set before any callback is queued */
	struct harness_fail_log log;
	struct race_item items[NR_KEYS];
} race;

static void *ra_malloc(void *state, size_t size)
{
	struct round_alloc *ra = state;
	void *p;

	if (posix_memalign(&p, CDS_TRIE_ALLOC_ALIGN, size))
		return NULL;
	atomic_fetch_add(&ra->live, 1);
	return p;
}

/* Sleeps @s seconds (unscaled). */
static void nap(double s)
{
	struct timespec ts = { 0, (long) (s * 1e9) };

	nanosleep(&ts, NULL);
}

/* Worker A's side of the window (file comment). */
static void widen_a(struct round_alloc *ra)
{
	double deadline;

	if (atomic_exchange(&ra->a_began, 1))
		return;
	deadline = harness_deadline(HANDSHAKE_S);
	while (!atomic_load(&ra->b_began)) {
		if (harness_past(deadline))
			return;
		nap(20e-6);
	}
	atomic_store(&ra->overlap, 1);
}

/* Worker B's side of the window. */
static void widen_b(struct round_alloc *ra)
{
	if (!atomic_exchange(&ra->b_began, 1))
		nap(WIDEN_S * harness_time_mult());
}

static void ra_free(void *state, void *ptr, size_t size)
{
	struct round_alloc *ra = state;
	pthread_t self = pthread_self();
	long live;

	(void) size;
	if (ptr == atomic_load(&ra->trie)) {
		/* Kept until the round's end (file comment). */
		CHECK(atomic_fetch_add(&ra->trie_freed, 1) == 0,
		      "round %d: the trie was freed twice", ra->round);
		live = atomic_fetch_sub(&ra->live, 1) - 1;
		CHECK(live == 0, "round %d: the trie was freed while %ld of its "
		      "inner nodes were not yet freed", ra->round, live);
		return;
	}
	if (pthread_equal(self, race.a_tid))
		widen_a(ra);
	else if (pthread_equal(self, race.b_tid))
		widen_b(ra);
	free(ptr);
	CHECK(!atomic_load(&ra->trie_freed), "round %d: an inner node was "
	      "freed after its trie, through the trie's freed allocator state",
	      ra->round);
	atomic_fetch_sub(&ra->live, 1);
}

static int update(const struct rcu_flavor_struct *fl, struct cds_trie *t,
		  struct cds_trie_node *node, bool add)
{
	int ret;

	fl->read_lock();
	ret = add ? cds_trie_add(t, node) : cds_trie_del(t, node);
	fl->read_unlock();
	return ret;
}

/* One round (file comment); destroy_all picks the destruction. */
static void run_round(const struct test_flavor *tf, struct call_rcu_data *a,
		      struct call_rcu_data *b, bool destroy_all,
		      struct round_alloc *ra)
{
	const struct rcu_flavor_struct *fl = tf->fl;
	int i, kept = destroy_all ? NR_KEYS / 2 : 0, ret;
	struct cds_trie *t;

	t = cds_trie_new(fl, &ra->ops);
	CHECK(t, "round %d: cds_trie_new failed", ra->round);
	if (!t)
		return;
	atomic_store(&ra->trie, (void *) t);
	/* Every callback the updates queue goes to worker A. */
	tf->set_thread_call_rcu_data(a);
	for (i = 0; i < NR_KEYS; i++) {
		/* No reader ever runs: an item may be prepared again at once. */
		cds_trie_node_init(&race.items[i].node, race.items[i].key,
				   KEY_LEN);
		ret = update(fl, t, &race.items[i].node, true);
		CHECK(ret == 0, "round %d: add: %d", ra->round, ret);
	}
	for (i = kept; i < NR_KEYS; i++) {
		ret = update(fl, t, &race.items[i].node, false);
		CHECK(ret == 0, "round %d: del: %d", ra->round, ret);
	}
	/* And the final callback the destruction queues, to worker B. */
	tf->set_thread_call_rcu_data(b);
	ret = destroy_all ? cds_trie_destroy_all(t, NULL, NULL)
			  : cds_trie_destroy(t);
	CHECK(ret == 0, "round %d: destroy: %d", ra->round, ret);
	tf->set_thread_call_rcu_data(NULL);
	/* Every callback left is queued (rcutrie.h): this waits for all. */
	fl->barrier();
	CHECK(atomic_load(&ra->trie_freed) == 1, "round %d: the trie was "
	      "not freed", ra->round);
	CHECK(atomic_load(&ra->live) == 0, "round %d: %ld blocks leaked",
	      ra->round, atomic_load(&ra->live));
	free(t);
}

int trie_final_race_run(const struct test_flavor *tf, double seconds,
			struct trie_final_race_result *res, char *err,
			size_t errlen)
{
	double deadline = harness_now() + seconds;
	struct call_rcu_data *a, *b;
	struct round_alloc ra;
	int i, failures;

	memset(&race, 0, sizeof(race));
	memset(res, 0, sizeof(*res));
	for (i = 0; i < NR_KEYS; i++)
		snprintf(race.items[i].key, sizeof(race.items[i].key), "r%c%c",
			 'a' + i % 16, 'a' + i / 16);
	a = tf->create_call_rcu_data(0, -1);
	b = tf->create_call_rcu_data(0, -1);
	if (!a || !b) {
		snprintf(err, errlen, "create_call_rcu_data failed");
		tf->call_rcu_data_free(a);
		tf->call_rcu_data_free(b);
		return 1;
	}
	/* Plain: the enqueue of each callback publishes them to the workers. */
	race.a_tid = tf->get_call_rcu_thread(a);
	race.b_tid = tf->get_call_rcu_thread(b);
	tf->fl->register_thread();
	/* Both destructions at least once, then until the time is up. */
	do {
		memset(&ra, 0, sizeof(ra));
		ra.ops.malloc = ra_malloc;
		ra.ops.free = ra_free;
		ra.ops.state = &ra;
		ra.round = res->rounds;
		run_round(tf, a, b, res->rounds % 2, &ra);
		res->rounds++;
		res->overlaps += atomic_load(&ra.overlap);
	} while ((res->rounds < 2 || !harness_past(deadline)) &&
		 !atomic_load(&race.log.count));
	tf->fl->unregister_thread();
	/* Their queues are empty since the last barrier. */
	tf->call_rcu_data_free(a);
	tf->call_rcu_data_free(b);
	failures = atomic_load(&race.log.count);
	if (failures)
		snprintf(err, errlen, "%d failure(s) in %d round(s), first: %s",
			 failures, res->rounds,
			 atomic_load(&race.log.claimed) ? race.log.first : "?");
	return failures;
}
