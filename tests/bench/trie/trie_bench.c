/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trie_bench.c: the RCU trie (<urcu/rcutrie.h>) against its peers, on the
 * same keys in one process (docs/performance.md, "The trie"):
 *   trie     cds_trie: exact, le and ge lookups;
 *   lfht     cds_lfht, this library's hash table: exact lookups;
 *   rbtree   a red-black tree under a pthread_rwlock: exact, le, ge;
 *   critnib  Debian's libcritnib ("u64" keys only): exact, le, ge;
 *   control  the same trie in a second slot: exact (no peer: the noise).
 * Built twice: for the memb flavor (trie_bench) and, with
 * BENCH_FLAVOR_QSBR, for QSBR (trie_bench_qsbr), whose read-side
 * sections cost nothing (critnib's readers have none); the read side is
 * inlined (_LGPL_SOURCE).  Keys: tests/bench/trie/keys.h.
 *
 * Every peer does the same work per operation:
 *   - an item is a caller's object: its node, a payload word, and a copy
 *     of its key right after (a zone record holds its name); critnib
 *     maps the integer key to a pointer to such an item;
 *   - a query looks a key up and reads the payload of the item found, as
 *     a caller would (each query returns it, so nothing is optimized
 *     away); queries come from a separate array (a query packet); exact
 *     lookups ask for present keys, le and ge for absent ones (the
 *     predecessor or successor of a name that is not there);
 *   - a query of "u64" keys starts from the integer, as critnib's does:
 *     the byte-keyed structures get it encoded big-endian into a local
 *     buffer (cds_trie_key_encode_u64()), as a caller holding integers
 *     would pass it; a query of names starts from the name's bytes;
 *   - an update (the 10% of a 90/10 mix) replaces the record of a random
 *     key: it removes the key's item and adds the key back in a new item
 *     from malloc(); the old item is freed after readers are done with
 *     it: with call_rcu() for the RCU structures, at once after the write
 *     lock for the rbtree, after the run for critnib (its readers take no
 *     read-side section, so nothing else tells when they are done).
 *
 * Usage:
 *   trie_bench run KIND N ROUNDS SECONDS
 *	builds every structure with the N keys of KIND, then runs, ROUNDS
 *	times, every (threads 1|2) x (workload lookup|mix90) x (structure,
 *	query) for SECONDS each, the structures of one configuration one
 *	after the other, starting with a different one each round.  Prints
 *	"RESULT r<round>:<threads>t:<workload>:<structure>:<query> <Mops/s>"
 *	and the same key with ":cpu" for operations per second of the
 *	threads' CPU time (cmp_cpu_rate()).
 *   trie_bench mem KIND N
 *	the memory each structure allocates for itself beyond the caller's
 *	nodes, per key, once replaced nodes are reclaimed: "RESULT
 *	mem:<structure> <bytes>", and the size of the node embedded in the
 *	caller's object: "RESULT node:<structure>".
 *   trie_bench misses STRUCTURE QUERY KIND N COUNT [UPDATE_PCT]
 *	builds one structure, then runs COUNT operations in bench_queries()
 *	(UPDATE_PCT percent of them updates, default 0), for valgrind
 *	--tool=callgrind --cache-sim=yes --toggle-collect=bench_queries
 *	(tests/bench/trie/run_trie.py); also prints the CPU time per
 *	operation of the thread running them ("RESULT ns_per_query"), a
 *	quick single-thread figure, and, counted until an rcu_barrier()
 *	after them has run the last call_rcu() callback, the elapsed time
 *	("RESULT wall_ns_per_query") and the CPU time of the whole process,
 *	call_rcu workers included ("RESULT process_cpu_ns_per_query").
 *
 * Environment: URCU_BENCH_CALL_RCU=percpu gives every CPU a pinned
 * call_rcu worker (create_all_cpu_call_rcu_data()) before anything runs,
 * so that an item is freed on the CPU of the thread that queued it
 * (docs/call-rcu.md, "Where callbacks run"); unset or "default": the
 * process-wide worker, as a program that does not choose gets.
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <stdint.h>

#ifdef BENCH_FLAVOR_QSBR
#include <urcu-qsbr.h>
/* A quiescent state per batch of operations; offline while idle. */
#define bench_quiescent()	rcu_quiescent_state()
#define bench_offline()		rcu_thread_offline()
#define bench_online()		rcu_thread_online()
#else
#include <urcu.h>
#define bench_quiescent()	do { } while (0)
#define bench_offline()		do { } while (0)
#define bench_online()		do { } while (0)
#endif
#include <urcu/rculfhash.h>
#include <urcu/rcutrie.h>
#ifdef BENCH_HAVE_CRITNIB
#include <critnib.h>
#endif

#include "../cmp/cmp_common.h"
#include "keys.h"
#include "rbtree.h"

/*
 * S_CONTROL is the trie again, in a slot of its own: its exact lookups
 * run in every configuration like a competitor's, and its ratio to the
 * trie's shows how far a tie strays from 1 in the run (run_trie.py's
 * control rows).
 */
enum structure { S_TRIE, S_LFHT, S_RBTREE, S_CRITNIB, S_CONTROL,
		 NR_STRUCTURES };
enum query { Q_EXACT, Q_LE, Q_GE, NR_QUERIES };

static const char *const structure_names[] = { "trie", "lfht", "rbtree",
					       "critnib", "control" };
static const char *const query_names[] = { "exact", "le", "ge" };

static struct bench_keys keys;
static int is_u64;

struct titem {
	struct cds_trie_node node;
	unsigned long value;
	struct rcu_head rh;
	unsigned char key[];
};

struct hitem {
	struct cds_lfht_node node;
	size_t len;
	unsigned long value;
	struct rcu_head rh;
	unsigned char key[];
};

struct ritem {
	struct rb_node node;
	unsigned long value;
	unsigned char key[];
};

/* critnib maps the integer key to one of these. */
struct citem {
	uint64_t key;
	unsigned long value;
	struct citem *retired;	/* the updater's list, freed after the run */
};

static struct cds_trie *trie;
static struct cds_lfht *lfht;
static struct rb_tree rbtree;
static pthread_rwlock_t rblock = PTHREAD_RWLOCK_INITIALIZER;
#ifdef BENCH_HAVE_CRITNIB
static critnib *cn;
#endif

/* A 64-bit hash of a byte string, 8 bytes at a time. */
static unsigned long hash_bytes(const unsigned char *p, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	while (len >= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
		p += 8;
		len -= 8;
	}
	w = 0;
	memcpy(&w, p, len);
	h = (h ^ w) * 0x94d049bb133111ebULL;
	return (unsigned long) (h ^ (h >> 31));
}

struct hkey {
	const unsigned char *key;
	size_t len;
};

static int hmatch(struct cds_lfht_node *node, const void *arg)
{
	const struct hitem *it = caa_container_of(node, struct hitem, node);
	const struct hkey *k = arg;

	return it->len == k->len && !memcmp(it->key, k->key, k->len);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		cmp_die("malloc", ENOMEM);
	return p;
}

static struct titem *new_titem(size_t i)
{
	struct titem *it = xmalloc(sizeof(*it) + keys.len[i]);

	memcpy(it->key, keys.key[i], keys.len[i]);
	it->value = i + 1;
	cds_trie_node_init(&it->node, it->key, keys.len[i]);
	return it;
}

static struct hitem *new_hitem(size_t i)
{
	struct hitem *it = xmalloc(sizeof(*it) + keys.len[i]);

	memcpy(it->key, keys.key[i], keys.len[i]);
	it->len = keys.len[i];
	it->value = i + 1;
	cds_lfht_node_init(&it->node);
	return it;
}

static struct ritem *new_ritem(size_t i)
{
	struct ritem *it = xmalloc(sizeof(*it) + keys.len[i]);

	memcpy(it->key, keys.key[i], keys.len[i]);
	it->value = i + 1;
	it->node.key = it->key;
	it->node.len = keys.len[i];
	return it;
}

static struct citem *new_citem(size_t i)
{
	struct citem *it = xmalloc(sizeof(*it));

	it->key = keys.u64[i];
	it->value = i + 1;
	it->retired = NULL;
	return it;
}

static void free_titem(struct rcu_head *head)
{
	free(caa_container_of(head, struct titem, rh));
}

static void free_hitem(struct rcu_head *head)
{
	free(caa_container_of(head, struct hitem, rh));
}

/* ------------------------------------------------------------------------
 * Building.
 */

static void build(enum structure s, const struct cds_trie_alloc *talloc,
		  const struct cds_lfht_alloc *halloc)
{
	unsigned long buckets = 1;
	size_t i;

	rcu_read_lock();
	switch (s) {
	case S_TRIE:
	case S_CONTROL:
		trie = cds_trie_new(&rcu_flavor, talloc);
		if (!trie)
			cmp_die("cds_trie_new", errno);
		for (i = 0; i < keys.n; i++)
			if (cds_trie_add(trie, &new_titem(i)->node))
				cmp_die("cds_trie_add", ENOMEM);
		break;
	case S_LFHT:
		while (buckets < keys.n)
			buckets <<= 1;
		lfht = cds_lfht_new_with_flavor_alloc(buckets, buckets, 0, 0,
						      &rcu_flavor, halloc, NULL);
		if (!lfht)
			cmp_die("cds_lfht_new", ENOMEM);
		for (i = 0; i < keys.n; i++) {
			struct hitem *it = new_hitem(i);

			cds_lfht_add(lfht, hash_bytes(it->key, it->len), &it->node);
		}
		break;
	case S_RBTREE:
		for (i = 0; i < keys.n; i++)
			rb_insert(&rbtree, &new_ritem(i)->node);
		break;
	default:
#ifdef BENCH_HAVE_CRITNIB
		if (!is_u64)
			break;
		cn = critnib_new();
		if (!cn)
			cmp_die("critnib_new", ENOMEM);
		for (i = 0; i < keys.n; i++)
			if (critnib_insert(cn, keys.u64[i], new_citem(i), 0))
				cmp_die("critnib_insert", ENOMEM);
#endif
		break;
	}
	rcu_read_unlock();
}

/* ------------------------------------------------------------------------
 * Operations.  A query returns the payload of the item it found (0:
 * none), read as a caller would read it.
 */

/*
 * The key of query @i (@q: an exact query asks for a present key, the
 * others for an absent one): an integer key encoded into @buf, as a
 * caller holding integers passes it; a name's bytes in place.
 */
static inline const unsigned char *query_key(enum query q, size_t i,
					     unsigned char buf[8], size_t *len)
{
	if (is_u64) {
		cds_trie_key_encode_u64(buf, q == Q_EXACT ? keys.u64[i]
							  : keys.absent_u64[i]);
		*len = 8;
		return buf;
	}
	if (q == Q_EXACT) {
		*len = keys.len[i];
		return keys.key[i];
	}
	*len = keys.absent_len[i];
	return keys.absent[i];
}

static inline unsigned long query_trie(enum query q, size_t i)
{
	unsigned char buf[8];
	struct cds_trie_node *n;
	unsigned long v = 0;
	const unsigned char *k;
	size_t len;

	k = query_key(q, i, buf, &len);
	rcu_read_lock();
	switch (q) {
	case Q_EXACT:
		n = cds_trie_lookup(trie, k, len);
		break;
	case Q_LE:
		n = cds_trie_lookup_le(trie, k, len, NULL);
		break;
	default:
		n = cds_trie_lookup_ge(trie, k, len, NULL);
		break;
	}
	if (n)
		v = caa_container_of(n, struct titem, node)->value;
	rcu_read_unlock();
	return v;
}

static inline unsigned long query_lfht(size_t i)
{
	unsigned char buf[8];
	struct hkey k;
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	unsigned long v = 0;

	k.key = query_key(Q_EXACT, i, buf, &k.len);
	rcu_read_lock();
	cds_lfht_lookup(lfht, hash_bytes(k.key, k.len), hmatch, &k, &iter);
	n = cds_lfht_iter_get_node(&iter);
	if (n)
		v = caa_container_of(n, struct hitem, node)->value;
	rcu_read_unlock();
	return v;
}

static inline unsigned long query_rbtree(enum query q, size_t i)
{
	unsigned char buf[8];
	struct rb_node *n;
	unsigned long v = 0;
	const unsigned char *k;
	size_t len;

	k = query_key(q, i, buf, &len);
	pthread_rwlock_rdlock(&rblock);
	if (q == Q_EXACT)
		n = rb_find(&rbtree, k, len);
	else if (q == Q_LE)
		n = rb_find_le(&rbtree, k, len);
	else
		n = rb_find_ge(&rbtree, k, len);
	if (n)
		v = caa_container_of(n, struct ritem, node)->value;
	pthread_rwlock_unlock(&rblock);
	return v;
}

#ifdef BENCH_HAVE_CRITNIB
static inline unsigned long query_critnib(enum query q, size_t i)
{
	struct citem *it;
	uintptr_t k;
	void *v;

	if (q == Q_EXACT)
		it = critnib_get(cn, keys.u64[i]);
	else if (q == Q_LE)
		it = critnib_find_le(cn, keys.absent_u64[i]);
	else
		it = critnib_find(cn, keys.absent_u64[i], FIND_GE, &k, &v)
			? v : NULL;
	return it ? it->value : 0;
}
#endif

static inline unsigned long query(enum structure s, enum query q, size_t i)
{
	switch (s) {
	case S_TRIE:
	case S_CONTROL:
		return query_trie(q, i);
	case S_LFHT:
		return query_lfht(i);
	case S_RBTREE:
		return query_rbtree(q, i);
	default:
#ifdef BENCH_HAVE_CRITNIB
		return query_critnib(q, i);
#else
		return 0;
#endif
	}
}

static void update_trie(size_t i)
{
	struct titem *it = NULL;
	struct cds_trie_node *n;

	rcu_read_lock();
	n = cds_trie_lookup(trie, keys.key[i], keys.len[i]);
	if (n && !cds_trie_del(trie, n))
		it = caa_container_of(n, struct titem, node);
	rcu_read_unlock();
	if (it)
		call_rcu(&it->rh, free_titem);
	it = new_titem(i);
	rcu_read_lock();
	if (cds_trie_add_unique(trie, &it->node, NULL))
		free(it);	/* never visible */
	rcu_read_unlock();
}

static void update_lfht(size_t i)
{
	struct hkey k = { keys.key[i], keys.len[i] };
	unsigned long hash = hash_bytes(k.key, k.len);
	struct cds_lfht_iter iter;
	struct cds_lfht_node *n;
	struct hitem *it = NULL;

	rcu_read_lock();
	cds_lfht_lookup(lfht, hash, hmatch, &k, &iter);
	n = cds_lfht_iter_get_node(&iter);
	if (n && !cds_lfht_del(lfht, n))
		it = caa_container_of(n, struct hitem, node);
	rcu_read_unlock();
	if (it)
		call_rcu(&it->rh, free_hitem);
	it = new_hitem(i);
	rcu_read_lock();
	if (cds_lfht_add_unique(lfht, hash, hmatch, &k, &it->node) != &it->node)
		free(it);
	rcu_read_unlock();
}

static void update_rbtree(size_t i)
{
	struct ritem *it = new_ritem(i), *old = NULL;
	struct rb_node *n;

	pthread_rwlock_wrlock(&rblock);
	n = rb_find(&rbtree, keys.key[i], keys.len[i]);
	if (n) {
		rb_erase(&rbtree, n);
		old = caa_container_of(n, struct ritem, node);
	}
	rb_insert(&rbtree, &it->node);
	pthread_rwlock_unlock(&rblock);
	free(old);
}

#ifdef BENCH_HAVE_CRITNIB
/* Items replaced in critnib, per updater, freed after the run. */
static __thread struct citem *critnib_retired;

static void update_critnib(size_t i)
{
	struct citem *it = new_citem(i), *old;

	old = critnib_remove(cn, keys.u64[i]);
	if (critnib_insert(cn, keys.u64[i], it, 0)) {
		free(it);	/* never visible (a concurrent insert won) */
		it = NULL;
	}
	if (old) {
		old->retired = critnib_retired;
		critnib_retired = old;
	}
}

/* The items a worker's updates replaced; readers have stopped. */
static void free_retired_citems(void)
{
	struct citem *it, *next;

	for (it = critnib_retired; it; it = next) {
		next = it->retired;
		free(it);
	}
	critnib_retired = NULL;
}
#endif

static void update(enum structure s, size_t i)
{
	switch (s) {
	case S_TRIE:
	case S_CONTROL:
		update_trie(i);
		break;
	case S_LFHT:
		update_lfht(i);
		break;
	case S_RBTREE:
		update_rbtree(i);
		break;
	default:
#ifdef BENCH_HAVE_CRITNIB
		update_critnib(i);
#endif
		break;
	}
}

/* ------------------------------------------------------------------------
 * Runs.
 */

struct job {
	struct cmp_counter c;
	unsigned long seed;
	enum structure s;
	enum query q;
	unsigned int update_pct;
#ifdef BENCH_HAVE_CRITNIB
	struct citem *retired;	/* critnib items replaced by this worker */
#endif
};

static void *worker(void *arg)
{
	struct job *job = arg;
	unsigned long n = 0, sink = 0, r;
	double cpu;
	int i;

	rcu_register_thread();
	cmp_wait_go();
	cpu = cmp_thread_cpu();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			r = cmp_rand(&job->seed);
			if ((r >> 40) % 100 < job->update_pct)
				update(job->s, (r >> 8) % keys.n);
			else
				sink += query(job->s, job->q, (r >> 8) % keys.n);
		}
		bench_quiescent();
		n += CMP_BATCH;
	}
	job->c.cpu = cmp_thread_cpu() - cpu;
	rcu_unregister_thread();
	job->c.count = n;
	job->c.sink = sink;
#ifdef BENCH_HAVE_CRITNIB
	/* Every reader has stopped (cmp_stopped()) or is ours: joined next. */
	job->retired = critnib_retired;
	critnib_retired = NULL;
#endif
	return NULL;
}

/* Runs one configuration; returns Mops/s and stores the CPU-time view. */
static double run(int nthreads, enum structure s, enum query q,
		  unsigned int update_pct, double seconds, unsigned long salt,
		  double *cpu_rate)
{
	struct job jobs[CMP_MAX_THREADS];
	struct cmp_counter counters[CMP_MAX_THREADS];
	pthread_t threads[CMP_MAX_THREADS];
	unsigned long total = 0;
	double elapsed;
	int i;

	cmp_reset();
	for (i = 0; i < nthreads; i++) {
		jobs[i] = (struct job) {
			.seed = 0x9e3779b97f4a7c15UL * (unsigned long) (i + 1) + salt,
			.s = s, .q = q, .update_pct = update_pct,
		};
		cmp_spawn(&threads[i], worker, &jobs[i]);
	}
	bench_offline();
	elapsed = cmp_run_for(nthreads, seconds);
	for (i = 0; i < nthreads; i++) {
		cmp_join(threads[i]);
		total += jobs[i].c.count;
		counters[i] = jobs[i].c;
#ifdef BENCH_HAVE_CRITNIB
		/* All readers are joined: nobody holds these any more. */
		critnib_retired = jobs[i].retired;
		free_retired_citems();
#endif
	}
	bench_online();
	*cpu_rate = cmp_cpu_rate(counters, nthreads) / 1e6;
	/* Let the removed nodes go before the next run. */
	rcu_barrier();
	return total / elapsed / 1e6;
}

/* The (structure, query) pairs measured for the key kind. */
static int combos(enum structure *s, enum query *q)
{
	int n = 0, i;

	for (i = 0; i < NR_QUERIES; i++) {
		s[n] = S_TRIE;
		q[n++] = (enum query) i;
	}
	s[n] = S_CONTROL;
	q[n++] = Q_EXACT;
	s[n] = S_LFHT;
	q[n++] = Q_EXACT;
	for (i = 0; i < NR_QUERIES; i++) {
		s[n] = S_RBTREE;
		q[n++] = (enum query) i;
	}
#ifdef BENCH_HAVE_CRITNIB
	for (i = 0; is_u64 && i < NR_QUERIES; i++) {
		s[n] = S_CRITNIB;
		q[n++] = (enum query) i;
	}
#endif
	return n;
}

static void do_run(int rounds, double seconds)
{
	static const unsigned int pct[] = { 0, 10 };
	static const char *const workloads[] = { "lookup", "mix90" };
	enum structure s[16];
	enum query q[16];
	int nc = combos(s, q), r, t, w, c, k;
	char key[128];
	double rate, cpu;

	/* The control queries the trie built for S_TRIE. */
	for (c = 0; c < NR_STRUCTURES; c++)
		if (c != S_CONTROL)
			build((enum structure) c, NULL, NULL);
	for (r = 0; r < rounds; r++) {
		for (t = 1; t <= 2; t++) {
			for (w = 0; w < 2; w++) {
				for (k = 0; k < nc; k++) {
					c = (k + r) % nc;
					rate = run(t, s[c], q[c], pct[w], seconds,
						   (unsigned long) r, &cpu);
					snprintf(key, sizeof(key), "r%d:%dt:%s:%s:%s",
						 r, t, workloads[w],
						 structure_names[s[c]],
						 query_names[q[c]]);
					cmp_result(key, rate);
					strcat(key, ":cpu");
					cmp_result(key, cpu);
					fflush(stdout);
				}
			}
		}
	}
}

/* ------------------------------------------------------------------------
 * Memory.
 */

static long mem_bytes;

static void *count_malloc(void *state, size_t size)
{
	void *p;

	(void) state;
	mem_bytes += (long) size;
	return posix_memalign(&p, CDS_TRIE_ALLOC_ALIGN, size) ? NULL : p;
}

static void count_free(void *state, void *ptr, size_t size)
{
	(void) state;
	mem_bytes -= (long) size;
	free(ptr);
}

static void *count_calloc(void *state, size_t nmemb, size_t size)
{
	(void) state;
	mem_bytes += (long) (nmemb * size);
	return calloc(nmemb, size);
}

static void *count_lfht_malloc(void *state, size_t size)
{
	(void) state;
	mem_bytes += (long) size;
	return malloc(size);
}

/* lfht frees without a size: its arrays live until the end anyway. */
static void count_lfht_free(void *state, void *ptr)
{
	(void) state;
	free(ptr);
}

static void do_mem(void)
{
	struct cds_trie_alloc ta = { count_malloc, count_free, NULL };
	struct cds_lfht_alloc ha = {
		.malloc = count_lfht_malloc, .calloc = count_calloc,
		.free = count_lfht_free,
	};

	mem_bytes = 0;
	build(S_TRIE, &ta, NULL);
	/* Nodes replaced while growing are freed after a grace period. */
	rcu_barrier();
	cmp_result("mem:trie", (double) mem_bytes / (double) keys.n);
	mem_bytes = 0;
	build(S_LFHT, NULL, &ha);
	cmp_result("mem:lfht", (double) mem_bytes / (double) keys.n);
	cmp_result("node:trie", (double) sizeof(struct cds_trie_node));
	cmp_result("node:lfht", (double) sizeof(struct cds_lfht_node));
	cmp_result("node:rbtree", (double) sizeof(struct rb_node));
	cmp_result("keylen", keys.mean_len);
}

/* ------------------------------------------------------------------------
 * Cache misses: the queries callgrind measures.
 */

__attribute__((noinline))
unsigned long bench_queries(enum structure s, enum query q, size_t count,
			    unsigned int update_pct);

__attribute__((noinline))
unsigned long bench_queries(enum structure s, enum query q, size_t count,
			    unsigned int update_pct)
{
	unsigned long sink = 0, seed = 12345, r;
	size_t i;

	for (i = 0; i < count; i++) {
		r = cmp_rand(&seed);
		if ((r >> 40) % 100 < update_pct)
			update(s, (r >> 8) % keys.n);
		else
			sink += query(s, q, (r >> 8) % keys.n);
		if (!(i % CMP_BATCH))
			bench_quiescent();
	}
	return sink;
}

/* The call_rcu workers URCU_BENCH_CALL_RCU asks for (see the top). */
static void setup_call_rcu_workers(void)
{
	const char *v = getenv("URCU_BENCH_CALL_RCU");

	if (!v || !strcmp(v, "default"))
		return;
	if (strcmp(v, "percpu")) {
		fprintf(stderr, "bench: URCU_BENCH_CALL_RCU must be "
			"\"default\" or \"percpu\", not '%s'\n", v);
		exit(2);
	}
	if (create_all_cpu_call_rcu_data(0))
		cmp_die("create_all_cpu_call_rcu_data", errno);
}

static int lookup_name(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	fprintf(stderr, "bench: unknown name '%s'\n", name);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int k = !strcmp(mode, "misses") ? 4 : 2;

	if (argc < k + 2) {
		fprintf(stderr, "usage: trie_bench run KIND N ROUNDS SECONDS\n"
			"       trie_bench mem KIND N\n"
			"       trie_bench misses STRUCTURE QUERY KIND N COUNT "
			"[UPDATE_PCT]\n");
		return 2;
	}
	is_u64 = !strcmp(argv[k], "u64");
	bench_keys_make(&keys, argv[k], (size_t) cmp_arg(argc, argv, k + 1, 1000),
			0x5eed);
	rcu_register_thread();
	setup_call_rcu_workers();
	if (!strcmp(mode, "run")) {
		do_run((int) cmp_arg(argc, argv, 4, 3), cmp_arg_f(argc, argv, 5, 0.3));
	} else if (!strcmp(mode, "mem")) {
		do_mem();
	} else if (!strcmp(mode, "misses")) {
		enum structure s = lookup_name(structure_names, NR_STRUCTURES,
					       argv[2]);
		enum query q = lookup_name(query_names, NR_QUERIES, argv[3]);

		size_t count = (size_t) cmp_arg(argc, argv, 6, 100000);
		unsigned int pct = (unsigned int) cmp_arg(argc, argv, 7, 0);
		double t0, cpu, w0, wall, p0, pcpu;
		unsigned long sink;

		build(s, NULL, NULL);
		rcu_barrier();	/* nothing of the build left to reclaim */
		w0 = cmp_now();
		p0 = cmp_process_cpu();
		t0 = cmp_thread_cpu();
		sink = bench_queries(s, q, count, pct);
		cpu = cmp_thread_cpu() - t0;
		rcu_barrier();	/* the updates' reclamation, done */
		wall = cmp_now() - w0;
		pcpu = cmp_process_cpu() - p0;
		cmp_result("queries", (double) count);
		cmp_result("ns_per_query", cpu * 1e9 / (double) count);
		cmp_result("wall_ns_per_query", wall * 1e9 / (double) count);
		cmp_result("process_cpu_ns_per_query",
			   pcpu * 1e9 / (double) count);
		printf("sink %lu\n", sink);
	} else {
		fprintf(stderr, "bench: unknown mode '%s'\n", mode);
		return 2;
	}
	rcu_unregister_thread();
	return 0;
}
