/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmp_lfht.c: the RCU lock-free hash table (cds_lfht) under lookups,
 * mixed lookups and updates, and explicit resizes; written against the
 * public liburcu API only, built against this project and against the
 * system liburcu (tests/bench/cmp/run.py, docs/performance.md).  Default
 * flavor (memb), read side inlined (_LGPL_SOURCE).
 *
 * Usage: cmp_lfht KEYS SECONDS
 *
 * The table starts with KEYS buckets (rounded up to a power of two, no
 * automatic resizing) holding the integer keys 0 .. KEYS-1.  Then, for 1
 * and 2 threads, each workload runs for SECONDS:
 *   lookup   every operation looks up a random key (always present)
 *   mix90    90% lookups, 10% updates
 *   mix50    50% lookups, 50% updates
 * An update removes a random key (lookup + cds_lfht_del, node freed with
 * call_rcu) and adds it back in a new node (cds_lfht_add_unique), so the
 * table keeps about KEYS keys; it counts as one operation.  Each lookup and
 * each half of an update runs in its own read-side section.  Finally the
 * table is shrunk to KEYS/8 buckets and grown back with cds_lfht_resize(),
 * which returns once the resize is done.
 *
 * RESULT <workload>_<threads>t <operations/s>, RESULT shrink_ms, grow_ms
 */
#define _LGPL_SOURCE
#include <urcu.h>
#include <urcu/rculfhash.h>

#include "cmp_common.h"

struct kv {
	struct cds_lfht_node node;
	unsigned long key;
	struct rcu_head head;
};

static struct cds_lfht *ht;
static unsigned long nkeys;

static int match(struct cds_lfht_node *node, const void *key)
{
	return caa_container_of(node, struct kv, node)->key ==
		*(const unsigned long *) key;
}

static void free_kv(struct rcu_head *head)
{
	free(caa_container_of(head, struct kv, head));
}

static struct kv *new_kv(unsigned long key)
{
	struct kv *kv = malloc(sizeof(*kv));

	if (!kv)
		cmp_die("malloc", ENOMEM);
	kv->key = key;
	cds_lfht_node_init(&kv->node);
	return kv;
}

/* Returns 1 when @key was found. */
static inline int lookup(unsigned long key)
{
	struct cds_lfht_iter iter;
	int found;

	rcu_read_lock();
	cds_lfht_lookup(ht, cmp_hash(key), match, &key, &iter);
	found = cds_lfht_iter_get_node(&iter) != NULL;
	rcu_read_unlock();
	return found;
}

static inline void update(unsigned long key)
{
	unsigned long hash = cmp_hash(key);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;
	struct kv *kv = NULL;

	rcu_read_lock();
	cds_lfht_lookup(ht, hash, match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	if (node && !cds_lfht_del(ht, node))
		kv = caa_container_of(node, struct kv, node);
	rcu_read_unlock();
	if (kv)
		call_rcu(&kv->head, free_kv);

	kv = new_kv(key);
	rcu_read_lock();
	node = cds_lfht_add_unique(ht, hash, match, &key, &kv->node);
	rcu_read_unlock();
	if (node != &kv->node)
		free(kv);	/* never visible */
}

struct job {
	struct cmp_counter c;
	unsigned long seed;
	unsigned int update_pct;
};

static void *worker(void *arg)
{
	struct job *job = arg;
	unsigned long n = 0, hits = 0;
	int i;

	rcu_register_thread();
	cmp_wait_go();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			unsigned long r = cmp_rand(&job->seed);
			unsigned long key = r % nkeys;

			if ((r >> 40) % 100 < job->update_pct)
				update(key);
			else
				hits += lookup(key);
		}
		n += CMP_BATCH;
	}
	rcu_unregister_thread();
	job->c.count = n;
	job->c.sink = hits;
	return NULL;
}

static double run(int nthreads, unsigned int update_pct, double seconds)
{
	struct job jobs[CMP_MAX_THREADS];
	pthread_t threads[CMP_MAX_THREADS];
	unsigned long total = 0;
	double elapsed;
	int i;

	cmp_reset();
	for (i = 0; i < nthreads; i++) {
		jobs[i] = (struct job) {
			.seed = 0x9e3779b97f4a7c15UL * (i + 1) + nkeys,
			.update_pct = update_pct,
		};
		cmp_spawn(&threads[i], worker, &jobs[i]);
	}
	elapsed = cmp_run_for(nthreads, seconds);
	for (i = 0; i < nthreads; i++) {
		cmp_join(threads[i]);
		total += jobs[i].c.count;
	}
	return total / elapsed;
}

static unsigned long pow2_ceil(unsigned long v)
{
	unsigned long p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned int update_pct;
	} workloads[] = { { "lookup", 0 }, { "mix90", 10 }, { "mix50", 50 } };
	double seconds = cmp_arg_f(argc, argv, 2, 1.0);
	unsigned long buckets, key;
	char name[64];
	double t0, t1, t2;
	int threads;
	size_t w;

	nkeys = cmp_arg(argc, argv, 1, 1000);
	if (nkeys < 8) {
		fprintf(stderr, "usage: cmp_lfht KEYS(>=8) SECONDS\n");
		return 2;
	}
	buckets = pow2_ceil(nkeys);
	rcu_register_thread();
	ht = cds_lfht_new(buckets, 1, 0, 0, NULL);
	if (!ht)
		cmp_die("cds_lfht_new", ENOMEM);
	for (key = 0; key < nkeys; key++) {
		struct kv *kv = new_kv(key);

		rcu_read_lock();
		cds_lfht_add_unique(ht, cmp_hash(key), match, &key, &kv->node);
		rcu_read_unlock();
	}
	/* Workers run alone: this thread only waits for them. */
	rcu_unregister_thread();

	for (threads = 1; threads <= 2; threads++) {
		for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
			snprintf(name, sizeof(name), "%s_%dt",
				 workloads[w].name, threads);
			cmp_result(name, run(threads, workloads[w].update_pct,
					     seconds));
			fflush(stdout);
		}
	}

	rcu_register_thread();
	t0 = cmp_now();
	cds_lfht_resize(ht, buckets / 8);
	t1 = cmp_now();
	cds_lfht_resize(ht, buckets);
	t2 = cmp_now();
	rcu_unregister_thread();
	cmp_result("shrink_ms", (t1 - t0) * 1e3);
	cmp_result("grow_ms", (t2 - t1) * 1e3);
	/* The table and its nodes go away with the process. */
	return 0;
}
