/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ds_torture: torture test for the RCU-protected queues and stacks, run
 * under any flavor through its flavor table.  docs/torture.md explains
 * how to run it and read its output.
 *
 * Each structure (--ds) is tested in turn, for --duration seconds, with
 * fresh threads and a fresh fixed pool of nodes (nothing is allocated
 * while the test runs, apart from what the structure allocates itself):
 *
 *   - producers take a node from the pool, mark it LIVE and add it;
 *   - consumers take nodes out, inside a read-side section, and claim
 *     each with a compare-and-swap from LIVE to TAKEN; they then free it
 *     with call_rcu(), whose callback poisons it (POISON) and puts it
 *     back in the pool;
 *   - peekers walk the structure inside a read-side section, as its
 *     header describes it, pausing at random, and look at each node.
 *
 * A node reachable from the structure inside a read-side section cannot
 * be freed before the section ends, so nobody may ever see POISON: a
 * peeker that does saw a node freed under it (the flavor's grace period
 * or the structure's unlink is wrong), a consumer that does was handed a
 * node that is not in the structure any more.  A consumer that finds
 * TAKEN got a node another consumer already had.  At the end the
 * structure is drained and every node must be back in the pool, each
 * added node taken exactly once.
 *
 * rcutrie (<urcu/rcutrie.h>) gets keys spread over the whole 64-bit range,
 * so that additions and removals split, grow, shrink and merge nodes all
 * over the trie; consumers take the first node at or after a random key;
 * peekers walk in key order and also check that the keys they see are
 * strictly increasing (a walk that goes back counts as garbage).
 *
 * lfstack is used in its RCU mode (<urcu/lfstack.h>, scheme 3): pops
 * without the pop lock, inside read-side sections, and a popped node
 * pushed again only after a grace period (through the pool), so RCU is
 * what keeps the pops free of ABA.  The deprecated rculfstack
 * (<urcu/rculfstack.h>) has only that mode and is run the same way.
 *
 * Memory ordering: node fields are accessed with atomics, relaxed where
 * the structure's own publication (enqueue/push release, dequeue/pop
 * acquire), the pool's mutex or the grace period does the ordering; each
 * access says which.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/lfstack.h>
/* The deprecated stack is tortured on purpose: silence its warnings. */
#define CDS_LFS_RCU_DEPRECATED
#include <urcu/rculfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfhash.h>
#include <urcu/rcutrie.h>

#include "torture.h"

#define PROG		"ds_torture"
#define POOL_SIZE	512
#define MAX_THREADS	256
/* Nodes a peeker visits per section at most. */
#define PEEK_MAX	32
/*
 * Consumers leave about this many nodes in the structure until the end,
 * so that peekers and takes work on a populated structure.
 */
#define BACKLOG		(POOL_SIZE / 4)

/* Node states (struct ds_node.magic). */
#define MAGIC_LIVE	0x4c495645u	/* in the structure */
#define MAGIC_TAKEN	0x54414b4eu	/* taken out, waiting for its grace period */
#define MAGIC_POISON	0xdeadbeefu	/* freed: back in the pool */

struct ds_node {
	/* MAGIC_*; atomic (peekers load it while consumers change it). */
	unsigned int magic;
	/* Link of the structure under test; one per structure. */
	union {
		struct cds_lfq_node_rcu lfq;
		struct cds_lfs_node lfs;
		struct cds_lfs_node_rcu lfsr;
		struct cds_lfht_node ht;
		struct cds_trie_node trie;
	} link;
	struct rcu_head rh;
	/* cds_lfht: the node's key, set by its producer before adding it. */
	unsigned long key;
	/* rcutrie: the same key, big-endian, which the trie node points to. */
	unsigned char key_bytes[8];
	/* Pool free list, under pool.lock. */
	struct ds_node *pool_next;
};

static struct {
	/* --flavor, --duration (per structure), --stall-timeout, --seed. */
	struct torture_common common;
	const struct rcu_flavor_struct *fl;	/* common.flavor->fl */
	const char *ds;
	unsigned long producers;
	unsigned long consumers;
	unsigned long peekers;
	bool delay;
} cfg = {
	.ds = "all",
	.producers = 2,
	.consumers = 2,
	.peekers = 2,
	.delay = true,
};

static struct {
	pthread_mutex_t lock;
	struct ds_node *free;		/* under lock */
	unsigned long nfree;		/* under lock */
	struct ds_node nodes[POOL_SIZE];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The structure under test (one at a time). */
static union {
	struct cds_lfq_queue_rcu lfq;
	struct cds_lfs_stack lfs;
	struct cds_lfs_stack_rcu lfsr;
	struct cds_lfht *ht;
	struct cds_trie *trie;
} ds;

/* Counts of the current run; see torture_count(). */
static struct {
	unsigned long freed;		/* callbacks run */
} stats;

/*
 * Nodes added and not yet taken, approximately (a heuristic for the
 * consumers' pacing; relaxed atomic, orders nothing).
 */
static long in_ds;

/* Phase flags; relaxed or acquire/release as commented where used. */
static int stop_producers;
static int producers_done;
static int stop_peekers;

/*
 * Per-thread results: written only by their thread, read by main() after
 * pthread_join (which orders them), so plain fields.
 */
struct worker {
	pthread_t tid;
	unsigned int id;
	struct torture_rng rng;
	unsigned long added, alloc_fail;	/* producers */
	unsigned long taken, extra;		/* consumers */
	unsigned long peeks, peeked;		/* peekers */
	unsigned long poisoned, twice, garbage;	/* errors */
};

static void rcu_quiescent(void)
{
	if (cfg.common.flavor->is_qsbr)
		cfg.fl->read_quiescent_state();
}

static bool flag_relaxed(int *flag)
{
	/* Relaxed: a request to finish; pthread_join orders the results. */
	return __atomic_load_n(flag, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------
 * Structures under test.
 */

struct ds_ops {
	const char *name;
	/* Sets up an empty structure (no thread running). */
	void (*init)(void);
	/* Adds @n; inside a read-side section. */
	void (*add)(struct ds_node *n);
	/* Takes a node out, or returns NULL when empty; inside a section. */
	struct ds_node *(*take)(void);
	/*
	 * Calls @visit on up to PEEK_MAX of the nodes reachable from the
	 * structure; inside a section.  Returns how many it visited.
	 */
	unsigned int (*peek)(struct worker *w,
			     void (*visit)(struct worker *, struct ds_node *));
	/* Tears down the drained structure; false if it is not empty. */
	bool (*fini)(void);
};

/* rculfqueue: <urcu/rculfqueue.h>. */

static void lfq_init(void)
{
	cds_lfq_init_rcu(&ds.lfq, cfg.fl->update_call_rcu);
}

static void lfq_add(struct ds_node *n)
{
	cds_lfq_node_init_rcu(&n->link.lfq);
	cds_lfq_enqueue_rcu(&ds.lfq, &n->link.lfq);
}

static struct ds_node *lfq_take(void)
{
	struct cds_lfq_node_rcu *qn = cds_lfq_dequeue_rcu(&ds.lfq);

	return qn ? caa_container_of(qn, struct ds_node, link.lfq) : NULL;
}

static unsigned int lfq_peek(struct worker *w,
			     void (*visit)(struct worker *, struct ds_node *))
{
	struct cds_lfq_node_rcu *qn;
	unsigned int i, steps;

	/*
	 * Walks from the oldest node along next pointers, as the queue
	 * does.  Acquire: pairs with the queue's release CASes on q->head
	 * and on next pointers (<urcu/static/rculfqueue.h>), so each node
	 * is seen as initialized by its producer.  "dummy" is set before
	 * the node is published and rewritten only after a grace period.
	 */
	qn = __atomic_load_n(&ds.lfq.head, __ATOMIC_ACQUIRE);
	/* Dummies are not visited, but count as steps. */
	for (i = 0, steps = 0; qn && i < PEEK_MAX && steps < 2 * PEEK_MAX;
	     steps++) {
		if (!qn->dummy) {
			visit(w, caa_container_of(qn, struct ds_node, link.lfq));
			i++;
		}
		/* Acquire: as above. */
		qn = __atomic_load_n(&qn->next, __ATOMIC_ACQUIRE);
	}
	return i;
}

static bool lfq_fini(void)
{
	return cds_lfq_destroy_rcu(&ds.lfq) == 0;
}

/* lfstack: <urcu/lfstack.h>, RCU scheme. */

static void lfs_init(void)
{
	cds_lfs_init(&ds.lfs);
}

static void lfs_add(struct ds_node *n)
{
	cds_lfs_push(&ds.lfs, &n->link.lfs);
}

static struct ds_node *lfs_take(void)
{
	/* No pop lock: the read-side section keeps the pop free of ABA. */
	struct cds_lfs_node *sn = __cds_lfs_pop(&ds.lfs);

	return sn ? caa_container_of(sn, struct ds_node, link.lfs) : NULL;
}

static unsigned int lfs_peek(struct worker *w,
			     void (*visit)(struct worker *, struct ds_node *))
{
	struct cds_lfs_head *top;
	struct cds_lfs_node *sn;
	unsigned int i;

	/*
	 * Acquire: pairs with the push's release CAS on the top (and, down
	 * the stack, the release sequence of earlier pushes), so each node
	 * and its next pointer are seen as written before its push.
	 */
	top = __atomic_load_n(&ds.lfs.head, __ATOMIC_ACQUIRE);
	sn = top ? &top->node : NULL;
	for (i = 0; sn && i < PEEK_MAX; i++) {
		visit(w, caa_container_of(sn, struct ds_node, link.lfs));
		/* Acquire: as above. */
		sn = __atomic_load_n(&sn->next, __ATOMIC_ACQUIRE);
	}
	return i;
}

static bool lfs_fini(void)
{
	bool empty = cds_lfs_empty(&ds.lfs);

	cds_lfs_destroy(&ds.lfs);
	return empty;
}

/* rculfstack: the deprecated <urcu/rculfstack.h>, RCU-protected pops. */

static void lfsr_init(void)
{
	cds_lfs_init_rcu(&ds.lfsr);
}

static void lfsr_add(struct ds_node *n)
{
	cds_lfs_push_rcu(&ds.lfsr, &n->link.lfsr);
}

static struct ds_node *lfsr_take(void)
{
	struct cds_lfs_node_rcu *sn = cds_lfs_pop_rcu(&ds.lfsr);

	return sn ? caa_container_of(sn, struct ds_node, link.lfsr) : NULL;
}

static unsigned int lfsr_peek(struct worker *w,
			      void (*visit)(struct worker *, struct ds_node *))
{
	/* Acquire, here and below: as in lfs_peek(). */
	struct cds_lfs_node_rcu *sn = __atomic_load_n(&ds.lfsr.head,
						      __ATOMIC_ACQUIRE);
	unsigned int i;

	for (i = 0; sn && i < PEEK_MAX; i++) {
		visit(w, caa_container_of(sn, struct ds_node, link.lfsr));
		sn = __atomic_load_n(&sn->next, __ATOMIC_ACQUIRE);
	}
	return i;
}

static bool lfsr_fini(void)
{
	/* Relaxed: every thread has been joined. */
	return __atomic_load_n(&ds.lfsr.head, __ATOMIC_RELAXED) == NULL;
}

/*
 * cds_lfht: <urcu/rculfhash.h>, starting at one bucket with automatic
 * resizing and accounting, so that the table grows and shrinks while it
 * is tortured.  Keys come from a counter; take deletes the first node a
 * traversal finds (another consumer may win it: then the next one).
 */

static unsigned long lfht_next_key;

static unsigned long lfht_hash(unsigned long key)
{
	return key * 0x9E3779B97F4A7C15UL;
}

static void lfht_init(void)
{
	ds.ht = cds_lfht_new_flavor(1, 1, 0,
			CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING, cfg.fl, NULL);
	if (!ds.ht) {
		fprintf(stderr, PROG ": cds_lfht_new_flavor failed\n");
		exit(2);
	}
}

static void lfht_add(struct ds_node *n)
{
	/* Relaxed: a unique key is all that matters. */
	n->key = __atomic_fetch_add(&lfht_next_key, 1, __ATOMIC_RELAXED);
	cds_lfht_node_init(&n->link.ht);
	cds_lfht_add(ds.ht, lfht_hash(n->key), &n->link.ht);
}

static struct ds_node *lfht_take(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *hn;

	cds_lfht_for_each(ds.ht, &iter, hn) {
		if (cds_lfht_del(ds.ht, hn) == 0)
			return caa_container_of(hn, struct ds_node, link.ht);
	}
	return NULL;
}

static unsigned int lfht_peek(struct worker *w,
			      void (*visit)(struct worker *, struct ds_node *))
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *hn;
	unsigned int i = 0;

	cds_lfht_for_each(ds.ht, &iter, hn) {
		if (i++ == PEEK_MAX)
			break;
		visit(w, caa_container_of(hn, struct ds_node, link.ht));
	}
	return i > PEEK_MAX ? PEEK_MAX : i;
}

static bool lfht_fini(void)
{
	return cds_lfht_destroy(ds.ht, NULL) == 0;
}

/*
 * rcutrie: <urcu/rcutrie.h>.  Keys are a counter times an odd constant,
 * so consecutive additions land far apart.  Take removes the first node
 * at or after a random key (or the first node: the trie is not empty
 * while nodes are counted in it), racing other consumers for it.
 */

static unsigned long trie_next_key;

/* A random 64-bit key, from a per-thread generator. */
static __thread uint64_t trie_rng;

static void trie_init(void)
{
	ds.trie = cds_trie_new(cfg.fl, NULL);
	if (!ds.trie) {
		fprintf(stderr, PROG ": cds_trie_new failed\n");
		exit(2);
	}
}

static void trie_add(struct ds_node *n)
{
	/* Relaxed: a unique key is all that matters. */
	unsigned long k = __atomic_fetch_add(&trie_next_key, 1, __ATOMIC_RELAXED);

	cds_trie_key_encode_u64(n->key_bytes, (uint64_t) k * 0x9E3779B97F4A7C15ULL);
	cds_trie_node_init(&n->link.trie, n->key_bytes, sizeof(n->key_bytes));
	if (cds_trie_add(ds.trie, &n->link.trie)) {
		fprintf(stderr, PROG ": cds_trie_add failed\n");
		exit(2);
	}
}

static struct ds_node *trie_take(void)
{
	struct cds_trie_iter iter;
	struct cds_trie_node *tn;
	unsigned char q[8];

	if (!trie_rng)
		trie_rng = (uintptr_t) &trie_rng;	/* differs per thread */
	trie_rng = trie_rng * 6364136223846793005ULL + 1442695040888963407ULL;
	cds_trie_key_encode_u64(q, trie_rng);
	tn = cds_trie_lookup_ge(ds.trie, q, sizeof(q), &iter);
	if (!tn)
		tn = cds_trie_first(ds.trie, &iter);
	for (; tn; tn = cds_trie_next(ds.trie, &iter)) {
		if (cds_trie_del(ds.trie, tn) == 0)
			return caa_container_of(tn, struct ds_node, link.trie);
	}
	return NULL;
}

static unsigned int trie_peek(struct worker *w,
			      void (*visit)(struct worker *, struct ds_node *))
{
	struct cds_trie_iter iter;
	struct cds_trie_node *tn;
	const unsigned char *prev = NULL;
	unsigned int i = 0;

	cds_trie_for_each(ds.trie, &iter, tn) {
		if (i++ == PEEK_MAX)
			break;
		/* Keys are unique: each must be above the one before. */
		if (prev && memcmp(prev, tn->key, 8) >= 0)
			w->garbage++;
		prev = tn->key;
		visit(w, caa_container_of(tn, struct ds_node, link.trie));
	}
	return i > PEEK_MAX ? PEEK_MAX : i;
}

static bool trie_fini(void)
{
	return cds_trie_destroy(ds.trie) == 0;
}

/* The structures under test, run in this order by --ds all. */
static const struct ds_ops ds_structures[] = {
	{ "rculfqueue", lfq_init, lfq_add, lfq_take, lfq_peek, lfq_fini },
	{ "lfstack", lfs_init, lfs_add, lfs_take, lfs_peek, lfs_fini },
	{ "rculfstack", lfsr_init, lfsr_add, lfsr_take, lfsr_peek, lfsr_fini },
	{ "cds_lfht", lfht_init, lfht_add, lfht_take, lfht_peek, lfht_fini },
	{ "rcutrie", trie_init, trie_add, trie_take, trie_peek, trie_fini },
};

#define N_STRUCTURES	(sizeof(ds_structures) / sizeof(ds_structures[0]))

static const struct ds_ops *ops;

/* ------------------------------------------------------------------------
 * The pool.
 */

static void pool_fill(void)
{
	unsigned long i;

	pool.free = NULL;
	for (i = 0; i < POOL_SIZE; i++) {
		/* Relaxed: no thread runs yet; pthread_create publishes it. */
		__atomic_store_n(&pool.nodes[i].magic, MAGIC_POISON,
				 __ATOMIC_RELAXED);
		pool.nodes[i].pool_next = pool.free;
		pool.free = &pool.nodes[i];
	}
	pool.nfree = POOL_SIZE;
}

static struct ds_node *pool_get(void)
{
	struct ds_node *n;

	pthread_mutex_lock(&pool.lock);
	n = pool.free;
	if (n) {
		pool.free = n->pool_next;
		pool.nfree--;
	}
	pthread_mutex_unlock(&pool.lock);
	return n;
}

static void free_cb(struct rcu_head *head)
{
	struct ds_node *n = caa_container_of(head, struct ds_node, rh);

	/*
	 * Poison first.  Relaxed: the pool's mutex orders it before the
	 * next producer's LIVE; with a correct flavor nobody else can
	 * reach the node any more, and whoever still does reports it.
	 */
	__atomic_store_n(&n->magic, MAGIC_POISON, __ATOMIC_RELAXED);
	pthread_mutex_lock(&pool.lock);
	n->pool_next = pool.free;
	pool.free = n;
	pool.nfree++;
	pthread_mutex_unlock(&pool.lock);
	torture_count(&stats.freed, 1);
}

/* ------------------------------------------------------------------------
 * Threads.
 */

static void *producer_thread(void *arg)
{
	struct worker *w = arg;
	struct ds_node *n;

	cfg.fl->register_thread();
	while (!flag_relaxed(&stop_producers)) {
		n = pool_get();
		if (!n) {
			w->alloc_fail++;
			rcu_quiescent();
			torture_sleep_us(50);
			continue;
		}
		/*
		 * Relaxed: the node is ours; the add's release publishes
		 * it to whoever reaches it through the structure.
		 */
		__atomic_store_n(&n->magic, MAGIC_LIVE, __ATOMIC_RELAXED);
		cfg.fl->read_lock();
		ops->add(n);
		cfg.fl->read_unlock();
		rcu_quiescent();
		w->added++;
		/* Relaxed: see in_ds. */
		__atomic_fetch_add(&in_ds, 1, __ATOMIC_RELAXED);
	}
	cfg.fl->unregister_thread();
	return NULL;
}

/* Consumer's claim of a node it took: LIVE -> TAKEN. */
static void claim(struct worker *w, struct ds_node *n)
{
	unsigned int expected = MAGIC_LIVE;

	/*
	 * Relaxed: the take's acquire already ordered the node's contents;
	 * the CAS only detects a second claim or a freed node.
	 */
	if (__atomic_compare_exchange_n(&n->magic, &expected, MAGIC_TAKEN,
					false, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
		return;
	if (expected == MAGIC_TAKEN)
		w->twice++;
	else if (expected == MAGIC_POISON)
		w->poisoned++;
	else
		w->garbage++;
}

static void *consumer_thread(void *arg)
{
	struct worker *w = arg;
	struct ds_node *n;
	bool done;

	cfg.fl->register_thread();
	for (;;) {
		/*
		 * Sampled before the take: NULL then means empty for good.
		 * Acquire: pairs with the release store in main() made after
		 * joining the producers, so their adds are visible.
		 */
		done = __atomic_load_n(&producers_done, __ATOMIC_ACQUIRE);
		/* Relaxed: see in_ds. */
		if (!done && __atomic_load_n(&in_ds, __ATOMIC_RELAXED) < BACKLOG) {
			rcu_quiescent();
			sched_yield();
			continue;
		}
		cfg.fl->read_lock();
		n = ops->take();
		if (n)
			claim(w, n);
		cfg.fl->read_unlock();
		if (n) {
			w->taken++;
			/* Relaxed: see in_ds. */
			__atomic_fetch_sub(&in_ds, 1, __ATOMIC_RELAXED);
			cfg.fl->update_call_rcu(&n->rh, free_cb);
			/* More nodes after the end than exist: a cycle. */
			if (done && ++w->extra > 2 * POOL_SIZE)
				break;
		} else if (done) {
			break;
		}
		rcu_quiescent();
	}
	cfg.fl->unregister_thread();
	return NULL;
}

static void peek_visit(struct worker *w, struct ds_node *n)
{
	uint64_t x;
	unsigned int magic;

	if (cfg.delay) {
		/* Widen the window between reaching a node and using it. */
		x = torture_rng_next(&w->rng);
		if (x % 512 == 0)
			torture_sleep_us(100 + (x >> 32) % 900);
		else if (x % 16 == 1)
			torture_spin_us((x >> 32) % 20);
	}
	/*
	 * Relaxed: the walk's acquire loads ordered the node's
	 * initialization; the read-side section keeps it from being freed,
	 * which is what is checked.
	 */
	magic = __atomic_load_n(&n->magic, __ATOMIC_RELAXED);
	if (magic == MAGIC_POISON)
		w->poisoned++;
	else if (magic != MAGIC_LIVE && magic != MAGIC_TAKEN)
		w->garbage++;
}

static void *peeker_thread(void *arg)
{
	struct worker *w = arg;

	cfg.fl->register_thread();
	while (!flag_relaxed(&stop_peekers)) {
		cfg.fl->read_lock();
		w->peeked += ops->peek(w, peek_visit);
		cfg.fl->read_unlock();
		rcu_quiescent();
		w->peeks++;
	}
	cfg.fl->unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------------
 * One structure.
 */

static void init_workers(struct worker *w, unsigned long n, unsigned int base)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = (unsigned int) i;
		torture_rng_seed(&w[i].rng, cfg.common.seed,
				 base + (unsigned int) i);
	}
}

/* Runs ops for cfg.common.duration; returns the number of problems found. */
static unsigned long run_structure(const struct ds_ops *o, unsigned int round)
{
	struct worker prod[MAX_THREADS], cons[MAX_THREADS], peek[MAX_THREADS];
	unsigned long i, added = 0, taken = 0, alloc_fail = 0, peeks = 0;
	unsigned long peeked = 0, cons_poison = 0, peek_poison = 0, twice = 0;
	unsigned long garbage = 0, extra = 0, problems = 0, nfree, freed;
	bool empty;
	int tries;

	ops = o;
	memset(&stats, 0, sizeof(stats));
	pool_fill();
	ops->init();
	/* No thread runs yet: pthread_create orders these stores. */
	stop_producers = producers_done = stop_peekers = 0;
	in_ds = 0;
	init_workers(prod, cfg.producers, round * 3 * MAX_THREADS);
	init_workers(cons, cfg.consumers, round * 3 * MAX_THREADS + MAX_THREADS);
	init_workers(peek, cfg.peekers, round * 3 * MAX_THREADS + 2 * MAX_THREADS);

	for (i = 0; i < cfg.consumers; i++)
		torture_start_thread(PROG, &cons[i].tid, consumer_thread,
				     &cons[i]);
	for (i = 0; i < cfg.peekers; i++)
		torture_start_thread(PROG, &peek[i].tid, peeker_thread,
				     &peek[i]);
	for (i = 0; i < cfg.producers; i++)
		torture_start_thread(PROG, &prod[i].tid, producer_thread,
				     &prod[i]);

	torture_sleep_us((unsigned long) (cfg.common.duration * 1e6));

	torture_watchdog_arm(PROG, "draining the structure",
			     cfg.common.stall_timeout);
	/* Relaxed: see flag_relaxed(). */
	__atomic_store_n(&stop_producers, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cfg.producers; i++)
		pthread_join(prod[i].tid, NULL);
	/* Release: pairs with the consumers' acquire load. */
	__atomic_store_n(&producers_done, 1, __ATOMIC_RELEASE);
	for (i = 0; i < cfg.consumers; i++)
		pthread_join(cons[i].tid, NULL);
	/* Relaxed: see flag_relaxed(). */
	__atomic_store_n(&stop_peekers, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cfg.peekers; i++)
		pthread_join(peek[i].tid, NULL);
	/*
	 * Every free_cb queued so far runs before barrier() returns (they
	 * queue nothing further), which orders their pool updates before
	 * the reads below; a second barrier covers the queue's dummies.
	 */
	for (tries = 0; tries < 2; tries++)
		cfg.fl->barrier();
	empty = ops->fini();
	cfg.fl->barrier();
	torture_watchdog_disarm();

	for (i = 0; i < cfg.producers; i++) {
		added += prod[i].added;
		alloc_fail += prod[i].alloc_fail;
	}
	for (i = 0; i < cfg.consumers; i++) {
		taken += cons[i].taken;
		cons_poison += cons[i].poisoned;
		twice += cons[i].twice;
		garbage += cons[i].garbage;
		if (cons[i].extra > 2 * POOL_SIZE)
			extra++;
	}
	for (i = 0; i < cfg.peekers; i++) {
		peeks += peek[i].peeks;
		peeked += peek[i].peeked;
		peek_poison += peek[i].poisoned;
		garbage += peek[i].garbage;
	}
	pthread_mutex_lock(&pool.lock);
	nfree = pool.nfree;
	pthread_mutex_unlock(&pool.lock);
	freed = torture_read(&stats.freed);

	printf("%s: %s: added %lu taken %lu freed %lu alloc_fail %lu "
	       "peeks %lu peeked_nodes %lu poisoned_taken %lu "
	       "poisoned_peeked %lu taken_twice %lu garbage %lu "
	       "pool %lu/%d\n",
	       PROG, o->name, added, taken, freed, alloc_fail, peeks, peeked,
	       cons_poison, peek_poison, twice, garbage, nfree, POOL_SIZE);
	if (cons_poison || peek_poison) {
		printf("%s: %s: !!! %lu poisoned (freed) nodes seen: %lu taken "
		       "by consumers, %lu reached by peekers\n", PROG, o->name,
		       cons_poison + peek_poison, cons_poison, peek_poison);
		problems++;
	}
	if (twice || garbage) {
		printf("%s: %s: !!! %lu nodes taken twice, %lu nodes with a "
		       "garbage magic\n", PROG, o->name, twice, garbage);
		problems++;
	}
	if (extra) {
		printf("%s: %s: !!! the drained structure kept returning nodes "
		       "(a cycle?)\n", PROG, o->name);
		problems++;
	}
	if (!empty || added != taken || freed != taken || nfree != POOL_SIZE) {
		printf("%s: %s: !!! nodes lost or duplicated: added %lu, "
		       "taken %lu, freed %lu, %lu of %d back in the pool, "
		       "structure %s\n", PROG, o->name, added, taken, freed,
		       nfree, POOL_SIZE, empty ? "empty" : "NOT empty");
		problems++;
	}
	if (!problems)
		printf("%s: %s: OK\n", PROG, o->name);
	fflush(stdout);
	return problems;
}

/* ------------------------------------------------------------------------
 * main.
 */

static void usage(FILE *out)
{
	unsigned long i;

	fprintf(out,
"usage: %s [options]\n"
"  --ds NAME|all           structure to torture (default all):",
		PROG);
	for (i = 0; i < N_STRUCTURES; i++)
		fprintf(out, " %s", ds_structures[i].name);
	fprintf(out, "\n"
"  --flavor %s   flavor (default memb)\n"
"  --producers N           producer threads (default 2)\n"
"  --consumers N           consumer threads (default 2)\n"
"  --peekers N             threads walking the structure (default 2)\n"
"  --duration S            seconds per structure (default 10)\n"
"  --delay[=on|off]        random pauses while peeking (default on)\n"
"  --stall-timeout S       fail if draining takes longer (default 60)\n"
"  --seed N                random seed (default: from the clock)\n"
"Prints '!!!' and exits 1 when a check fails, exits 0 otherwise;\n"
"docs/torture.md explains the output.\n",
		torture_flavor_names());
}

/* Whether --ds selects structure @o. */
static bool selected(const struct ds_ops *o)
{
	return !strcmp(cfg.ds, "all") || !strcmp(cfg.ds, o->name);
}

/* --ds names a structure, or all. */
static bool check_ds(void)
{
	unsigned long i;

	for (i = 0; i < N_STRUCTURES; i++)
		if (selected(&ds_structures[i]))
			return true;
	fprintf(stderr, "%s: unknown structure '%s'\n", PROG, cfg.ds);
	usage(stderr);
	return false;
}

static bool parse_args(int argc, char **argv)
{
	static const struct torture_opt opts[] = {
		{ "ds", TORTURE_OPT_STRING, .out.string = &cfg.ds },
		{ "producers", TORTURE_OPT_UINT, .min = 1, .max = MAX_THREADS,
		  .out.number = &cfg.producers },
		{ "consumers", TORTURE_OPT_UINT, .min = 1, .max = MAX_THREADS,
		  .out.number = &cfg.consumers },
		{ "peekers", TORTURE_OPT_UINT, .min = 0, .max = MAX_THREADS,
		  .out.number = &cfg.peekers },
		{ "delay", TORTURE_OPT_ONOFF, .out.on = &cfg.delay },
		{ .name = NULL },
	};
	static const struct torture_cmdline cmdline = {
		.prog = PROG, .opts = opts, .common = &cfg.common,
		.usage = usage, .check = check_ds,
	};

	if (!torture_parse_args(&cmdline, argc, argv))
		return false;
	cfg.fl = cfg.common.flavor->fl;
	return true;
}

int main(int argc, char **argv)
{
	unsigned long i, problems = 0;
	unsigned int round = 0;

	if (!parse_args(argc, argv))
		return TORTURE_EXIT_USAGE;
	printf("%s: flavor %s, structures %s, %lu producers, %lu consumers, "
	       "%lu peekers, duration %g s per structure, delay %s, pool %d, "
	       "seed %llu\n", PROG, cfg.common.flavor->name, cfg.ds,
	       cfg.producers, cfg.consumers, cfg.peekers, cfg.common.duration,
	       cfg.delay ? "on" : "off", POOL_SIZE,
	       (unsigned long long) cfg.common.seed);
	fflush(stdout);
	for (i = 0; i < N_STRUCTURES; i++)
		if (selected(&ds_structures[i]))
			problems += run_structure(&ds_structures[i], round++);
	if (problems) {
		printf("%s: !!! FAILURE: flavor %s: %lu problem(s), see the "
		       "lines above\n", PROG, cfg.common.flavor->name,
		       problems);
		return TORTURE_EXIT_FAILED;
	}
	printf("%s: SUCCESS: flavor %s\n", PROG, cfg.common.flavor->name);
	return TORTURE_EXIT_OK;
}
