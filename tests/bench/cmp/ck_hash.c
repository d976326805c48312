/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ck_hash.c: the Concurrency Kit peer of cmp_lfht.c, using ck_hs.
 *
 * Same command line, workloads and RESULT keys as cmp_lfht.c.  ck_hs is a
 * single-writer, many-reader open-addressing set (CK_HS_MODE_SPMC), so:
 *   - lookups run without any lock, as ck_hs allows;
 *   - updates (remove the key, then put it back: two write operations,
 *     like cmp_lfht.c's del + add_unique) each take a writer mutex;
 *   - the key objects are allocated once and reused: a removed key is put
 *     back as the same object, so no reclamation is needed (cmp_lfht.c
 *     allocates a node per insertion and frees the old one with call_rcu);
 *   - memory ck_hs frees with "defer" set (old slot arrays) is kept until
 *     exit, which is what a safe-memory-reclamation scheme would do later.
 * The resize row times ck_hs_grow() to 16 slots per key (it rehashes every
 * key into a new array); ck_hs has no explicit shrink.
 */
#include <stdbool.h>
#include <ck_hs.h>

#include "cmp_common.h"

struct key {
	unsigned long key;
};

static ck_hs_t hs;
static struct key *keys;
static unsigned long nkeys;
static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;

/* Slot arrays freed with "defer": only writers (mutex held) touch this. */
static void **deferred;
static size_t n_deferred, cap_deferred;

static void *hs_malloc(size_t size)
{
	return malloc(size);
}

static void hs_free(void *p, size_t size, bool defer)
{
	(void) size;
	if (!defer) {
		free(p);
		return;
	}
	if (n_deferred == cap_deferred) {
		cap_deferred = cap_deferred ? 2 * cap_deferred : 16;
		deferred = realloc(deferred, cap_deferred * sizeof(*deferred));
		if (!deferred)
			cmp_die("realloc", ENOMEM);
	}
	deferred[n_deferred++] = p;
}

static struct ck_malloc allocator = {
	.malloc = hs_malloc,
	.free = hs_free,
};

static unsigned long hash_key(const void *object, unsigned long seed)
{
	return cmp_hash(((const struct key *) object)->key) ^ seed;
}

static bool compare_keys(const void *a, const void *b)
{
	return ((const struct key *) a)->key == ((const struct key *) b)->key;
}

static inline int lookup(unsigned long key)
{
	struct key probe = { key };

	return ck_hs_get(&hs, CK_HS_HASH(&hs, hash_key, &probe), &probe) != NULL;
}

static inline void update(unsigned long key)
{
	struct key probe = { key };
	unsigned long hash = CK_HS_HASH(&hs, hash_key, &probe);
	struct key *found;

	pthread_mutex_lock(&writer);
	found = ck_hs_remove(&hs, hash, &probe);
	pthread_mutex_unlock(&writer);
	if (!found)
		return;		/* another thread has it out right now */
	pthread_mutex_lock(&writer);
	if (!ck_hs_put(&hs, hash, found))
		cmp_die("ck_hs_put", ENOMEM);
	pthread_mutex_unlock(&writer);
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

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned int update_pct;
	} workloads[] = { { "lookup", 0 }, { "mix90", 10 }, { "mix50", 50 } };
	double seconds = cmp_arg_f(argc, argv, 2, 1.0);
	unsigned long key, capacity = 1;
	char name[64];
	double t0, t1;
	int threads;
	size_t w;

	nkeys = cmp_arg(argc, argv, 1, 1000);
	if (nkeys < 8) {
		fprintf(stderr, "usage: ck_hash KEYS(>=8) SECONDS\n");
		return 2;
	}
	while (capacity < nkeys)
		capacity <<= 1;
	keys = calloc(nkeys, sizeof(*keys));
	if (!keys || !ck_hs_init(&hs, CK_HS_MODE_SPMC | CK_HS_MODE_OBJECT |
				 CK_HS_MODE_DELETE, hash_key, compare_keys,
				 &allocator, capacity, 0x5eed))
		cmp_die("ck_hs_init", ENOMEM);
	for (key = 0; key < nkeys; key++) {
		keys[key].key = key;
		if (!ck_hs_put(&hs, CK_HS_HASH(&hs, hash_key, &keys[key]),
			       &keys[key]))
			cmp_die("ck_hs_put", ENOMEM);
	}

	for (threads = 1; threads <= 2; threads++) {
		for (w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
			snprintf(name, sizeof(name), "%s_%dt",
				 workloads[w].name, threads);
			cmp_result(name, run(threads, workloads[w].update_pct,
					     seconds));
			fflush(stdout);
		}
	}

	t0 = cmp_now();
	if (!ck_hs_grow(&hs, 16 * capacity))
		cmp_die("ck_hs_grow", ENOMEM);
	t1 = cmp_now();
	cmp_result("grow_ms", (t1 - t0) * 1e3);
	if (ck_hs_count(&hs) != nkeys) {
		fprintf(stderr, "ck_hash: %lu keys, expected %lu\n",
			ck_hs_count(&hs), nkeys);
		return 1;
	}
	return 0;
}
