/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The concurrent stress of the rcutrie suite (stress.h).
 *
 * Updaters: key k belongs to updater k % NR_UPDATERS, which alone adds
 * it (add, add_unique, add_replace), so that add_replace only ever
 * replaces the updater's own node; both updaters also append duplicates
 * to the chains of stable keys.  An updater replaces and removes only
 * nodes it added and still owns, and frees what it removed with
 * call_rcu.  So two updaters race on the nodes around every key and on
 * the stable keys' chains, never on the ownership of a node.
 *
 * Readers check one property each run (stress.h).  Nothing asserts in a
 * thread: failures go to a log that the caller reads after the joins.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/rcutrie.h>

#include "../harness/harness.h"
#include "model.h"
#include "stress.h"

#define NR_UPDATERS	2
#define NR_READERS	2
#define KEY_LEN		80
#define NR_STABLE	160
#define NR_CHURN	640
#define NR_KEYS		(NR_STABLE + NR_CHURN)
#define MAX_MINE	384
#define GRAVEYARD	4096

#define MAGIC_LIVE	0x11ee11eeU
#define MAGIC_DEAD	0xdeadbeefU
#define POISON		0xdd

struct key {
	unsigned char b[KEY_LEN];
	size_t len;
};

struct sitem {
	struct cds_trie_node node;
	unsigned int magic;		/* atomic */
	int stable;			/* index in stable[], or -1 */
	unsigned char key[KEY_LEN];
	struct rcu_head rcu;
};

static struct {
	const struct trie_stress_cfg *cfg;
	struct cds_trie *trie;
	/* Stable keys sorted, then churn keys; fixed before the threads. */
	struct key keys[NR_KEYS];
	struct sitem *stable[NR_STABLE];
	atomic_int stop;
	struct harness_fail_log log;
	/* Poisoned items waiting to be freed, oldest first. */
	pthread_mutex_t grave_lock;
	struct sitem *grave[GRAVEYARD];
	size_t grave_head, grave_n;
} s = { .grave_lock = PTHREAD_MUTEX_INITIALIZER };

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			harness_log_fail(&s.log, __VA_ARGS__);		\
	} while (0)

static int kcmp(const unsigned char *a, size_t alen, const unsigned char *b,
		size_t blen)
{
	return trie_key_cmp(a, alen, b, blen);
}

static int node_cmp(const struct cds_trie_node *x, const struct key *k)
{
	return kcmp(x->key, x->key_len, k->b, k->len);
}

static int key_sort(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	return kcmp(x->b, x->len, y->b, y->len);
}

static struct sitem *item_of(const struct cds_trie_node *node)
{
	return caa_container_of(node, struct sitem, node);
}

/* A node a reader reached must not be poisoned. */
static bool live(const struct cds_trie_node *node, const char *what)
{
	/* Relaxed: the grace period orders the poisoning, if any. */
	unsigned int magic = __atomic_load_n(&item_of(node)->magic,
					     __ATOMIC_RELAXED);

	CHECK(magic == MAGIC_LIVE, "%s: reached a node whose grace period "
	      "ended (magic %#x)", what, magic);
	return magic == MAGIC_LIVE;
}

static void quiescent(void)
{
	if (s.cfg->flavor->is_qsbr)
		s.cfg->flavor->fl->read_quiescent_state();
}

/* ------------------------------------------------------------------------
 * Keys and items.
 */

static const unsigned char alphabet[] = { 0x00, 'a', 'b', 'c', 0xff };

static bool known(size_t n, const struct key *k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!key_sort(&s.keys[i], k))
			return true;
	return false;
}

static void make_keys(uint64_t *rng)
{
	size_t n = 0, i;
	struct key k;
	uint64_t r;

	/* Stable: the empty key, a deep chain "f"*i "g", random short ones. */
	s.keys[n++].len = 0;
	for (i = 1; i <= 40; i++) {
		memset(s.keys[n].b, 'f', i);
		s.keys[n].b[i] = 'g';
		s.keys[n++].len = i + 1;
	}
	while (n < NR_STABLE) {
		r = trie_rand(rng);
		k.len = 1 + r % 7;
		for (i = 0; i < k.len; i++)
			k.b[i] = alphabet[trie_rand(rng) % sizeof(alphabet)];
		if (!known(n, &k))
			s.keys[n++] = k;
	}
	qsort(s.keys, NR_STABLE, sizeof(s.keys[0]), key_sort);

	/* Churn: a deep chain "d"*i "e" and "f"*i, then neighbours. */
	for (i = 1; i <= 48; i++) {
		memset(s.keys[n].b, 'd', i);
		s.keys[n].b[i] = 'e';
		s.keys[n++].len = i + 1;
		memset(s.keys[n].b, 'f', i);
		s.keys[n++].len = i;
	}
	while (n < NR_KEYS) {
		r = trie_rand(rng);
		k = s.keys[(r >> 8) % n];
		switch (r % 3) {
		case 0:		/* extended */
			for (i = 0; i < 1 + (r >> 32) % 3 && k.len < KEY_LEN; i++)
				k.b[k.len++] = alphabet[trie_rand(rng) % 5];
			break;
		case 1:		/* truncated */
			if (k.len)
				k.len = (r >> 32) % k.len;
			break;
		default:	/* last byte changed */
			if (k.len)
				k.b[k.len - 1] = alphabet[(r >> 32) % 5];
			break;
		}
		if (!known(n, &k))
			s.keys[n++] = k;
	}
}

static struct sitem *new_item(const struct key *k, int stable)
{
	struct sitem *it = calloc(1, sizeof(*it));

	if (!it)
		abort();
	memcpy(it->key, k->b, k->len);
	it->stable = stable;
	/* Relaxed: published by the trie's update. */
	__atomic_store_n(&it->magic, MAGIC_LIVE, __ATOMIC_RELAXED);
	cds_trie_node_init(&it->node, it->key, k->len);
	return it;
}

static void free_cb(struct rcu_head *head)
{
	struct sitem *it = caa_container_of(head, struct sitem, rcu), *old = NULL;

	/* Relaxed: nobody may read it any more; whoever does reports it. */
	__atomic_store_n(&it->magic, MAGIC_DEAD, __ATOMIC_RELAXED);
	memset(it->key, POISON, sizeof(it->key));
	pthread_mutex_lock(&s.grave_lock);
	if (s.grave_n == GRAVEYARD) {
		old = s.grave[s.grave_head];
		s.grave_head = (s.grave_head + 1) % GRAVEYARD;
		s.grave_n--;
	}
	s.grave[(s.grave_head + s.grave_n++) % GRAVEYARD] = it;
	pthread_mutex_unlock(&s.grave_lock);
	free(old);
}

/* ------------------------------------------------------------------------
 * Updaters.
 */

struct updater {
	pthread_t tid;
	unsigned int id;
	uint64_t rng;
	struct sitem *mine[MAX_MINE];
	size_t nmine;
};

static void retire(struct sitem *it)
{
	s.cfg->flavor->fl->update_call_rcu(&it->rcu, free_cb);
}

/* A churn key of updater @u, or (@with_stable) sometimes a stable one. */
static size_t pick_key(struct updater *u, bool with_stable)
{
	uint64_t r = trie_rand(&u->rng);
	size_t k;

	if (with_stable && r % 4 == 0)
		return (r >> 8) % NR_STABLE;
	/* NR_STABLE and NR_KEYS are multiples of NR_UPDATERS. */
	k = NR_STABLE + (r >> 8) % NR_CHURN;
	return k - k % NR_UPDATERS + u->id;
}

static void forget(struct updater *u, size_t i)
{
	u->mine[i] = u->mine[--u->nmine];
}

static void update_once(struct updater *u)
{
	const struct rcu_flavor_struct *fl = s.cfg->flavor->fl;
	uint64_t r = trie_rand(&u->rng);
	struct cds_trie_node *other;
	struct sitem *it, *old;
	size_t i;
	int ret;

	fl->read_lock();
	if (u->nmine < MAX_MINE && r % 100 < 35) {
		it = new_item(&s.keys[pick_key(u, true)], -1);
		ret = cds_trie_add(s.trie, &it->node);
		CHECK(!ret, "add: %d", ret);
		u->mine[u->nmine++] = it;
	} else if (u->nmine < MAX_MINE && r % 100 < 50) {
		it = new_item(&s.keys[pick_key(u, false)], -1);
		ret = cds_trie_add_unique(s.trie, &it->node, &other);
		if (ret == -EEXIST) {
			live(other, "add_unique");
			free(it);	/* never visible */
		} else {
			CHECK(!ret, "add_unique: %d", ret);
			u->mine[u->nmine++] = it;
		}
	} else if (u->nmine < MAX_MINE && r % 100 < 58) {
		it = new_item(&s.keys[pick_key(u, false)], -1);
		ret = cds_trie_add_replace(s.trie, &it->node, &other);
		CHECK(!ret, "add_replace: %d", ret);
		u->mine[u->nmine++] = it;
		if (other) {
			for (i = 0; i < u->nmine && &u->mine[i]->node != other; i++)
				;
			CHECK(i < u->nmine, "add_replace replaced a node of "
			      "another updater");
			if (i < u->nmine) {
				forget(u, i);
				retire(item_of(other));
			}
		}
	} else if (u->nmine && r % 100 < 66) {
		i = (r >> 8) % u->nmine;
		old = u->mine[i];
		it = new_item(&(struct key) { .len = old->node.key_len },
			      -1);
		memcpy(it->key, old->key, old->node.key_len);
		ret = cds_trie_replace(s.trie, &old->node, &it->node);
		CHECK(!ret, "replace of an own node: %d", ret);
		u->mine[i] = it;
		retire(old);
	} else if (u->nmine) {
		i = (r >> 8) % u->nmine;
		old = u->mine[i];
		ret = cds_trie_del(s.trie, &old->node);
		CHECK(!ret, "del of an own node: %d", ret);
		forget(u, i);
		retire(old);
	}
	fl->read_unlock();
	quiescent();
}

static void *updater_thread(void *arg)
{
	struct updater *u = arg;
	int ret;

	s.cfg->flavor->fl->register_thread();
	while (!atomic_load_explicit(&s.stop, memory_order_relaxed))
		update_once(u);
	s.cfg->flavor->fl->read_lock();
	while (u->nmine) {
		ret = cds_trie_del(s.trie, &u->mine[u->nmine - 1]->node);
		CHECK(!ret, "final del: %d", ret);
		retire(u->mine[--u->nmine]);
	}
	s.cfg->flavor->fl->read_unlock();
	s.cfg->flavor->fl->unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------------
 * Readers.
 */

struct reader {
	pthread_t tid;
	uint64_t rng;
	unsigned char seen[NR_STABLE];
};

/* A query: any key, sometimes changed at its end. */
static void pick_query(struct reader *rd, struct key *q)
{
	uint64_t r = trie_rand(&rd->rng);

	*q = s.keys[r % NR_KEYS];
	if ((r >> 32) % 3 == 0 && q->len < KEY_LEN)
		q->b[q->len++] = alphabet[(r >> 40) % 5];
	else if ((r >> 32) % 3 == 1 && q->len)
		q->b[q->len - 1] = alphabet[(r >> 40) % 5];
}

/* Index of the first stable key >= (@strict: >) @q. */
static size_t stable_lower(const struct key *q, bool strict)
{
	size_t lo = 0, hi = NR_STABLE, mid;
	int c;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		c = key_sort(&s.keys[mid], q);
		if (c < 0 || (strict && !c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Checks one walk step: @x after @prev in direction @dir (keys strictly
 * monotonic, equal only along one duplicate chain), and marks stable
 * nodes seen.
 */
static void walk_step(struct reader *rd, const char *what,
		      const struct cds_trie_node *prev,
		      const struct cds_trie_node *x, int dir)
{
	struct sitem *it = item_of(x);
	int c;

	if (!live(x, what))
		return;
	if (it->stable >= 0)
		rd->seen[it->stable]++;
	if (!prev)
		return;
	/*
	 * Equal keys are duplicates, which come together (a key seen again
	 * after another breaks the order check on one of the two steps).
	 */
	c = kcmp(x->key, x->key_len, prev->key, prev->key_len);
	CHECK(c * dir > 0 || (!c && x != prev),
	      "%s: keys out of order (%zu bytes after %zu bytes, dir %d)",
	      what, x->key_len, prev->key_len, dir);
}

/* Every stable key in [lo, hi) was seen once, none outside. */
static void check_seen(struct reader *rd, const char *what, size_t lo,
		       size_t hi, const struct key *prefix)
{
	size_t i;

	for (i = 0; i < NR_STABLE; i++) {
		bool in = prefix ? (s.keys[i].len >= prefix->len
				    && !memcmp(s.keys[i].b, prefix->b, prefix->len))
				 : (i >= lo && i < hi);

		CHECK(rd->seen[i] == in, "%s: stable key %zu (%zu bytes) seen "
		      "%u times, want %d", what, i, s.keys[i].len,
		      rd->seen[i], in);
	}
}

static void read_walks(struct reader *rd)
{
	struct cds_trie *t = s.trie;
	struct cds_trie_node *x, *prev = NULL;
	struct cds_trie_iter it;
	uint64_t r = trie_rand(&rd->rng);
	size_t lo, hi;
	struct key p;
	const char *what;

	memset(rd->seen, 0, sizeof(rd->seen));
	switch (r % 4) {
	case 0:
		what = "forward walk";
		cds_trie_for_each(t, &it, x) {
			walk_step(rd, what, prev, x, 1);
			prev = x;
		}
		check_seen(rd, what, 0, NR_STABLE, NULL);
		break;
	case 1:
		what = "backward walk";
		cds_trie_for_each_reverse(t, &it, x) {
			walk_step(rd, what, prev, x, -1);
			prev = x;
		}
		check_seen(rd, what, 0, NR_STABLE, NULL);
		break;
	case 2:
		what = "range walk";
		lo = (r >> 8) % NR_STABLE;
		hi = lo + (r >> 24) % (NR_STABLE - lo + 1);
		cds_trie_for_each_range(t, s.keys[lo].b, s.keys[lo].len,
				hi < NR_STABLE ? s.keys[hi].b : NULL,
				hi < NR_STABLE ? s.keys[hi].len : 0, &it, x) {
			CHECK(node_cmp(x, &s.keys[lo]) >= 0
			      && (hi == NR_STABLE || node_cmp(x, &s.keys[hi]) < 0),
			      "range walk: key outside the range");
			walk_step(rd, what, prev, x, 1);
			prev = x;
		}
		check_seen(rd, what, lo, hi, NULL);
		break;
	default:
		what = "prefix walk";
		p = s.keys[(r >> 8) % NR_STABLE];
		p.len = p.len ? (r >> 24) % (p.len + 1) : 0;
		cds_trie_for_each_prefix(t, p.b, p.len, &it, x) {
			CHECK(x->key_len >= p.len && !memcmp(x->key, p.b, p.len),
			      "prefix walk: key without the prefix");
			walk_step(rd, what, prev, x, 1);
			prev = x;
		}
		check_seen(rd, what, 0, 0, &p);
		break;
	}
}

/* @a answers a query for @q in direction @dir (le/lt: -1, ge/gt: 1). */
static void check_side(const char *what, const struct cds_trie_node *a,
		       const struct key *q, int dir, bool strict)
{
	int c;

	if (!a || !live(a, what))
		return;
	c = node_cmp(a, q);
	CHECK(c * dir > 0 || (!c && !strict), "%s: answer on the wrong side",
	      what);
}

static void read_queries(struct reader *rd)
{
	struct cds_trie *t = s.trie;
	struct cds_trie_node *a;
	struct key q;

	pick_query(rd, &q);
	a = cds_trie_lookup(t, q.b, q.len);
	if (a && live(a, "lookup"))
		CHECK(!node_cmp(a, &q), "lookup returned another key");
	a = cds_trie_lookup_longest_prefix(t, q.b, q.len);
	if (a && live(a, "longest prefix"))
		CHECK(a->key_len <= q.len && !memcmp(a->key, q.b, a->key_len),
		      "longest prefix returned a key that is not a prefix");
	check_side("le", cds_trie_lookup_le(t, q.b, q.len, NULL), &q, -1, false);
	check_side("lt", cds_trie_lookup_lt(t, q.b, q.len, NULL), &q, -1, true);
	check_side("ge", cds_trie_lookup_ge(t, q.b, q.len, NULL), &q, 1, false);
	check_side("gt", cds_trie_lookup_gt(t, q.b, q.len, NULL), &q, 1, true);
}

/* No stable key strictly between @q and answer @a of a query in @dir. */
static void check_neighbour(const char *what, const struct cds_trie_node *a,
			    const struct key *q, int dir, bool strict)
{
	size_t i;
	const struct key *st = NULL;

	check_side(what, a, q, dir, strict);
	if (dir > 0) {
		i = stable_lower(q, strict);
		st = i < NR_STABLE ? &s.keys[i] : NULL;
	} else {
		i = stable_lower(q, !strict);
		st = i > 0 ? &s.keys[i - 1] : NULL;
	}
	if (!st)
		return;
	CHECK(a != NULL, "%s: no answer, but a stable key is there", what);
	if (a)
		CHECK(node_cmp(a, st) * dir <= 0, "%s: skipped a stable key "
		      "(answer of %zu bytes, stable key of %zu bytes)", what,
		      a->key_len, st->len);
}

static void read_neighbours(struct reader *rd)
{
	struct cds_trie *t = s.trie;
	struct cds_trie_node *a, *b;
	struct cds_trie_iter it;
	size_t i, best = 0;
	bool any = false;
	struct key q;

	pick_query(rd, &q);
	check_neighbour("le", cds_trie_lookup_le(t, q.b, q.len, NULL), &q, -1, false);
	check_neighbour("lt", cds_trie_lookup_lt(t, q.b, q.len, NULL), &q, -1, true);
	check_neighbour("gt", cds_trie_lookup_gt(t, q.b, q.len, NULL), &q, 1, true);
	a = cds_trie_lookup_ge(t, q.b, q.len, &it);
	check_neighbour("ge", a, &q, 1, false);
	/* The step after it skips no stable key either. */
	if (a && live(a, "ge")) {
		struct key ak = { .len = a->key_len };

		memcpy(ak.b, a->key, a->key_len);
		b = cds_trie_next(t, &it);
		/* A duplicate of a comes first, if any. */
		if (!b || node_cmp(b, &ak))
			check_neighbour("next after ge", b, &ak, 1, true);
	}
	/* Every stable key is found, as the first node of its chain. */
	i = trie_rand(&rd->rng) % NR_STABLE;
	a = cds_trie_lookup(t, s.keys[i].b, s.keys[i].len);
	CHECK(a == &s.stable[i]->node, "lookup of stable key %zu: %p", i,
	      (void *) a);
	/* Longest prefix: at least as long as the longest stable one. */
	for (i = 0; i < NR_STABLE; i++) {
		if (s.keys[i].len <= q.len
		    && !memcmp(s.keys[i].b, q.b, s.keys[i].len)) {
			best = s.keys[i].len;
			any = true;
		}
	}
	a = cds_trie_lookup_longest_prefix(t, q.b, q.len);
	if (any) {
		CHECK(a != NULL, "longest prefix: none, but a stable one exists");
		if (a && live(a, "longest prefix"))
			CHECK(a->key_len >= best && a->key_len <= q.len
			      && !memcmp(a->key, q.b, a->key_len),
			      "longest prefix: shorter than a stable prefix");
	}
}

static void *reader_thread(void *arg)
{
	struct reader *rd = arg;
	const struct rcu_flavor_struct *fl = s.cfg->flavor->fl;

	fl->register_thread();
	while (!atomic_load_explicit(&s.stop, memory_order_relaxed)) {
		fl->read_lock();
		switch (s.cfg->check) {
		case TRIE_STRESS_ORDER:
			if (trie_rand(&rd->rng) % 8)
				read_queries(rd);
			else
				read_walks(rd);
			break;
		case TRIE_STRESS_ONCE:
			read_walks(rd);
			break;
		default:
			read_neighbours(rd);
			break;
		}
		fl->read_unlock();
		quiescent();
	}
	fl->unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------------
 * The run.
 */

int trie_stress_run(const struct trie_stress_cfg *cfg, char *err, size_t errlen)
{
	struct updater up[NR_UPDATERS];
	struct reader rd[NR_READERS];
	const struct rcu_flavor_struct *fl = cfg->flavor->fl;
	uint64_t rng = cfg->seed;
	unsigned int i;
	int ret, failures;

	memset(&s.log, 0, sizeof(s.log));
	s.cfg = cfg;
	atomic_store(&s.stop, 0);
	make_keys(&rng);
	s.trie = cds_trie_new(fl, NULL);
	if (!s.trie) {
		snprintf(err, errlen, "cds_trie_new failed");
		return 1;
	}
	fl->register_thread();
	fl->read_lock();
	for (i = 0; i < NR_STABLE; i++) {
		s.stable[i] = new_item(&s.keys[i], (int) i);
		ret = cds_trie_add(s.trie, &s.stable[i]->node);
		CHECK(!ret, "adding stable key %u: %d", i, ret);
	}
	fl->read_unlock();
	/* QSBR: not a reader while the others run. */
	fl->unregister_thread();

	for (i = 0; i < NR_UPDATERS; i++) {
		memset(&up[i], 0, sizeof(up[i]));
		up[i].id = i;
		up[i].rng = cfg->seed * 31 + i;
		harness_spawn(&up[i].tid, updater_thread, &up[i]);
	}
	for (i = 0; i < NR_READERS; i++) {
		memset(&rd[i], 0, sizeof(rd[i]));
		rd[i].rng = cfg->seed * 77 + i;
		harness_spawn(&rd[i].tid, reader_thread, &rd[i]);
	}
	harness_sleep_ms((long) (cfg->seconds * 1000));
	atomic_store(&s.stop, 1);
	for (i = 0; i < NR_UPDATERS; i++)
		harness_join(up[i].tid);
	for (i = 0; i < NR_READERS; i++)
		harness_join(rd[i].tid);

	/* Only the stable keys are left, each once, in order. */
	fl->register_thread();
	fl->read_lock();
	CHECK(cds_trie_count(s.trie) == NR_STABLE, "%lu nodes left, want %d",
	      cds_trie_count(s.trie), NR_STABLE);
	for (i = 0; i < NR_STABLE; i++) {
		ret = cds_trie_del(s.trie, &s.stable[i]->node);
		CHECK(!ret, "removing stable key %u: %d", i, ret);
	}
	fl->read_unlock();
	fl->unregister_thread();
	fl->barrier();
	ret = cds_trie_destroy(s.trie);
	CHECK(!ret, "destroy: %d", ret);
	for (i = 0; i < NR_STABLE; i++)
		free(s.stable[i]);
	pthread_mutex_lock(&s.grave_lock);
	while (s.grave_n) {
		free(s.grave[s.grave_head]);
		s.grave_head = (s.grave_head + 1) % GRAVEYARD;
		s.grave_n--;
	}
	pthread_mutex_unlock(&s.grave_lock);

	failures = atomic_load(&s.log.count);
	if (failures)
		snprintf(err, errlen, "%d failure(s), first: %s", failures,
			 atomic_load(&s.log.claimed) ? s.log.first : "?");
	return failures;
}
