/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfht_bench.c: throughput of the RCU hash table (<urcu/rculfhash.h>,
 * memb flavor) and the time of forced resizes.
 *
 * Usage: lfht_bench ops THREADS KEYS UPDATE_PERCENT [SECONDS]
 *        lfht_bench resize KEYS [SMALL]
 *
 * "ops": the table holds KEYS keys, in KEYS buckets rounded up to a power
 * of two (no automatic resizing).  Each thread runs random operations on
 * random keys for SECONDS (default 1): a lookup, or with probability
 * UPDATE_PERCENT % an update, which replaces the key's node with a new
 * one (cds_lfht_add_replace) and hands the old one to call_rcu.  So the
 * table keeps its size and every lookup hits.  Reported: million
 * operations per second, all threads together.
 *
 * "resize": KEYS keys are added to a table of KEYS buckets (rounded up to
 * a power of two), which cds_lfht_resize() then shrinks to SMALL buckets
 * (default 1) and grows back.  Reported: the time of each, in
 * milliseconds.
 *
 * Output: one line of key=value pairs, for tests/bench/run_lfht.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>

#include <urcu.h>
#include <urcu/rculfhash.h>

struct item {
	struct cds_lfht_node node;
	unsigned long key;
	unsigned long value;
	struct rcu_head rh;
};

struct thread {
	pthread_t tid;
	uint64_t seed;
	unsigned long ops;
	unsigned long sum;	/* keeps the lookups' reads alive */
	unsigned long misses;
};

static struct cds_lfht *ht;
static unsigned long nr_keys;
static unsigned int update_pct;
static pthread_barrier_t start;
static int stop;

static unsigned long hash_key(unsigned long key)
{
	uint64_t x = (uint64_t) key + 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long) (x ^ (x >> 31));
}

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct item, node)->key ==
	       *(const unsigned long *) key;
}

static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct item *item_new(unsigned long key)
{
	struct item *it = malloc(sizeof(*it));

	if (!it) {
		perror("malloc");
		exit(1);
	}
	cds_lfht_node_init(&it->node);
	it->key = key;
	it->value = key;
	return it;
}

static void free_item(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct item, rh));
}

/* Registered thread: a table of nr_keys keys in @buckets buckets. */
static void populate(unsigned long buckets)
{
	unsigned long key;
	struct item *it;

	ht = cds_lfht_new(buckets, 1, 0, 0, NULL);
	if (!ht) {
		fprintf(stderr, "cds_lfht_new failed\n");
		exit(1);
	}
	for (key = 0; key < nr_keys; key++) {
		it = item_new(key);
		rcu_read_lock();
		cds_lfht_add(ht, hash_key(key), &it->node);
		rcu_read_unlock();
	}
}

/* Registered thread: empties and destroys the table. */
static void teardown(void)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	rcu_read_lock();
	cds_lfht_for_each(ht, &iter, node) {
		cds_lfht_del(ht, node);
		call_rcu(&caa_container_of(node, struct item, node)->rh,
			 free_item);
	}
	rcu_read_unlock();
	if (cds_lfht_destroy(ht, NULL) != 0)
		fprintf(stderr, "cds_lfht_destroy failed\n");
	rcu_barrier();
}

static void *worker(void *arg)
{
	struct thread *t = arg;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct item *it;
	unsigned long key;
	uint64_t r;
	int i;

	rcu_register_thread();
	pthread_barrier_wait(&start);
	/* Relaxed: a stop flag polled every 256 operations. */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < 256; i++) {
			r = next_rand(&t->seed);
			key = (r & 0xffffffffU) % nr_keys;
			if ((r >> 32) % 100 < update_pct) {
				it = item_new(key);
				rcu_read_lock();
				node = cds_lfht_add_replace(ht, hash_key(key),
							    match, &key,
							    &it->node);
				rcu_read_unlock();
				if (node)
					call_rcu(&caa_container_of(node,
						struct item, node)->rh, free_item);
			} else {
				rcu_read_lock();
				cds_lfht_lookup(ht, hash_key(key), match, &key,
						&iter);
				node = cds_lfht_iter_get_node(&iter);
				if (node)
					t->sum += caa_container_of(node,
						struct item, node)->value;
				else
					t->misses++;
				rcu_read_unlock();
			}
		}
		t->ops += 256;
	}
	rcu_unregister_thread();
	return NULL;
}

static int run_ops(int nr_threads, double seconds)
{
	struct thread *threads = calloc(nr_threads, sizeof(*threads));
	unsigned long buckets = 1, total = 0, misses = 0;
	double t0, elapsed;
	int i;

	if (!threads)
		return 1;
	while (buckets < nr_keys)
		buckets <<= 1;
	rcu_register_thread();
	populate(buckets);
	pthread_barrier_init(&start, NULL, nr_threads + 1);
	for (i = 0; i < nr_threads; i++) {
		threads[i].seed = 0x2545f4914f6cdd1dULL * (i + 1);
		if (pthread_create(&threads[i].tid, NULL, worker, &threads[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	pthread_barrier_wait(&start);
	t0 = now();
	usleep((useconds_t) (seconds * 1e6));
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nr_threads; i++) {
		pthread_join(threads[i].tid, NULL);
		total += threads[i].ops;
		misses += threads[i].misses;
	}
	elapsed = now() - t0;
	teardown();
	rcu_unregister_thread();
	if (misses)
		fprintf(stderr, "warning: %lu lookups missed\n", misses);
	printf("mode=ops threads=%d keys=%lu update_pct=%u mops=%.2f\n",
	       nr_threads, nr_keys, update_pct, total / elapsed / 1e6);
	free(threads);
	return 0;
}

static double timed_resize(unsigned long size)
{
	double t0 = now();

	cds_lfht_resize(ht, size);
	return (now() - t0) * 1e3;
}

static int run_resize(unsigned long small)
{
	unsigned long buckets = 1;
	double grow_ms, shrink_ms;

	while (buckets < nr_keys)
		buckets <<= 1;
	rcu_register_thread();
	populate(buckets);
	shrink_ms = timed_resize(small);
	grow_ms = timed_resize(buckets);
	teardown();
	rcu_unregister_thread();
	printf("mode=resize keys=%lu small=%lu buckets=%lu grow_ms=%.1f "
	       "shrink_ms=%.1f\n", nr_keys, small, buckets, grow_ms, shrink_ms);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: lfht_bench ops THREADS KEYS UPDATE_PERCENT [SECONDS]\n"
			"       lfht_bench resize KEYS [SMALL]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "resize")) {
		unsigned long small = argc == 4 ? strtoul(argv[3], NULL, 0) : 1;

		nr_keys = strtoul(argv[2], NULL, 0);
		return nr_keys && small ? run_resize(small) : usage();
	}
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "ops")) {
		int nr_threads = atoi(argv[2]);
		double seconds = argc == 6 ? atof(argv[5]) : 1.0;

		nr_keys = strtoul(argv[3], NULL, 0);
		update_pct = (unsigned int) atoi(argv[4]);
		if (nr_threads < 1 || !nr_keys || update_pct > 100 ||
		    !(seconds > 0))
			return usage();
		return run_ops(nr_threads, seconds);
	}
	return usage();
}
