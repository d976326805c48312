/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The randomized model test of the rcutrie suite (model.h).
 *
 * A pool of distinct keys is drawn from the seed: short keys over an
 * alphabet with 0x00 and 0xff in it, extensions and truncations of other
 * pool keys (so that many keys are prefixes of each other), the empty
 * key, random keys, and optionally long keys (300 to 420 bytes) that
 * share long prefixes.  The oracle keeps, for each pool key in sorted
 * order, the nodes holding it in chain order.  Random additions (all
 * three kinds), replacements and removals are applied to both; after
 * each, a few random queries of every kind (exact, longest prefix, le,
 * lt, ge, gt, with keys in and out of the pool) are compared, and every
 * few operations the whole content is compared through forward and
 * backward walks, a range walk, a prefix walk and count.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/compiler.h>

#include "model.h"

#define MAX_POOL	1024
#define MAX_KEY		420
#define MAX_DUPS	6
#define CHECK_EVERY	64

int trie_key_cmp(const unsigned char *a, size_t alen,
		 const unsigned char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = n ? memcmp(a, b, n) : 0;

	if (c)
		return c < 0 ? -1 : 1;
	return alen < blen ? -1 : alen > blen;
}

/* ------------------------------------------------------------------------
 * The counting allocator.
 */

static void *test_malloc(void *state, size_t size)
{
	struct trie_test_alloc *a = state;
	long call = __atomic_add_fetch(&a->calls, 1, __ATOMIC_RELAXED);
	long fail_at = __atomic_load_n(&a->fail_at, __ATOMIC_RELAXED);
	long every = __atomic_load_n(&a->fail_every, __ATOMIC_RELAXED);
	void *p;

	if ((fail_at && call >= fail_at) || (every && call % every == 0)) {
		__atomic_add_fetch(&a->failed, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	/* The trie wants its memory aligned for its pointer tags. */
	if (posix_memalign(&p, CDS_TRIE_ALLOC_ALIGN, size))
		p = NULL;
	if (p) {
		__atomic_add_fetch(&a->live, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&a->bytes, (long) size, __ATOMIC_RELAXED);
	}
	return p;
}

static void test_free(void *state, void *ptr, size_t size)
{
	struct trie_test_alloc *a = state;

	__atomic_sub_fetch(&a->live, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&a->bytes, (long) size, __ATOMIC_RELAXED);
	free(ptr);
}

void trie_test_alloc_init(struct trie_test_alloc *a)
{
	memset(a, 0, sizeof(*a));
	a->ops.malloc = test_malloc;
	a->ops.free = test_free;
	a->ops.state = a;
}

/* ------------------------------------------------------------------------
 * Keys.
 */

struct key {
	unsigned char b[MAX_KEY];
	size_t len;
};

static const unsigned char alphabet[] = {
	0x00, 0x01, 'a', 'b', 0x7f, 0x80, 0xfe, 0xff,
};

static int cmp_keys(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	return trie_key_cmp(x->b, x->len, y->b, y->len);
}

static void random_key(uint64_t *rng, struct key *k, const struct key *pool,
		       size_t n, const unsigned char longs[3][MAX_KEY],
		       bool long_keys)
{
	uint64_t r = trie_rand(rng);
	size_t i, len;

	switch (r % 10) {
	case 0: case 1: case 2:		/* short, from the alphabet */
		k->len = (r >> 8) % 5;
		for (i = 0; i < k->len; i++)
			k->b[i] = alphabet[trie_rand(rng) % sizeof(alphabet)];
		return;
	case 3: case 4: case 5:		/* another key, extended */
		if (!n)
			break;
		*k = pool[(r >> 8) % n];
		len = 1 + (r >> 20) % 3;
		for (i = 0; i < len && k->len < MAX_KEY; i++)
			k->b[k->len++] = alphabet[trie_rand(rng) % sizeof(alphabet)];
		return;
	case 6:				/* another key, truncated */
		if (!n)
			break;
		*k = pool[(r >> 8) % n];
		if (k->len)
			k->len = (r >> 20) % k->len;
		return;
	case 7: case 8:			/* long, sharing long prefixes */
		if (!long_keys)
			break;
		len = 300 + (r >> 8) % 121;
		memcpy(k->b, longs[(r >> 16) % 3], len);
		k->len = len;
		i = (r >> 24) % len;
		if ((r >> 40) % 2)
			k->b[i] = alphabet[(r >> 48) % sizeof(alphabet)];
		else
			k->len = i + 1 + (r >> 48) % (len - i);
		return;
	default:
		break;
	}
	k->len = 5 + r % 16;		/* random bytes */
	for (i = 0; i < k->len; i++)
		k->b[i] = (unsigned char) trie_rand(rng);
}

/* ------------------------------------------------------------------------
 * The oracle.
 */

#define ITEM_MAGIC	0x7e57ab1eU

struct item {
	struct cds_trie_node node;
	unsigned int magic;
	unsigned int key;	/* index in the sorted pool */
	unsigned int serial;
};

struct model {
	const struct trie_model_cfg *cfg;
	struct cds_trie *trie;
	uint64_t rng;
	struct key pool[MAX_POOL];
	size_t n;
	unsigned char longs[3][MAX_KEY];
	/* Per pool key, the nodes holding it in chain order. */
	struct item *dups[MAX_POOL][MAX_DUPS];
	unsigned int ndups[MAX_POOL];
	struct item **items;	/* every item ever made, freed at the end */
	size_t nitems, items_cap;
	unsigned int op;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct model *m, const char *fmt, ...)
{
	va_list ap;
	int off;

	if (m->failed)
		return;
	m->failed = true;
	off = snprintf(m->err, m->errlen, "seed %llu, op %u: ",
		       (unsigned long long) m->cfg->seed, m->op);
	va_start(ap, fmt);
	if (off >= 0 && (size_t) off < m->errlen)
		vsnprintf(m->err + off, m->errlen - (size_t) off, fmt, ap);
	va_end(ap);
}

static struct item *item_of(struct cds_trie_node *node)
{
	return node ? caa_container_of(node, struct item, node) : NULL;
}

static long item_id(struct cds_trie_node *node)
{
	return node ? (long) item_of(node)->serial : -1;
}

static struct item *new_item(struct model *m, unsigned int key)
{
	struct item *it = calloc(1, sizeof(*it));

	if (!it)
		abort();
	if (m->nitems == m->items_cap) {
		m->items_cap = m->items_cap ? 2 * m->items_cap : 256;
		m->items = realloc(m->items, m->items_cap * sizeof(*m->items));
		if (!m->items)
			abort();
	}
	m->items[m->nitems] = it;
	it->serial = (unsigned int) m->nitems++;
	it->magic = ITEM_MAGIC;
	it->key = key;
	cds_trie_node_init(&it->node, m->pool[key].b, m->pool[key].len);
	return it;
}

static struct cds_trie_node *head_of(struct model *m, unsigned int key)
{
	return m->ndups[key] ? &m->dups[key][0]->node : NULL;
}

/* First pool index whose key is >= (@strict: >) @q. */
static size_t lower(struct model *m, const struct key *q, bool strict)
{
	size_t lo = 0, hi = m->n, mid;

	while (lo < hi) {
		mid = (lo + hi) / 2;
		int c = trie_key_cmp(m->pool[mid].b, m->pool[mid].len, q->b, q->len);

		if (c < 0 || (strict && c == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Expected answers of the four neighbour queries. */
static struct cds_trie_node *oracle_up(struct model *m, const struct key *q,
				       bool strict)
{
	size_t i;

	for (i = lower(m, q, strict); i < m->n; i++)
		if (m->ndups[i])
			return head_of(m, (unsigned int) i);
	return NULL;
}

static struct cds_trie_node *oracle_down(struct model *m, const struct key *q,
					 bool strict)
{
	size_t i = lower(m, q, !strict);

	while (i-- > 0)
		if (m->ndups[i])
			return head_of(m, (unsigned int) i);
	return NULL;
}

static struct cds_trie_node *oracle_exact(struct model *m, const struct key *q)
{
	size_t i = lower(m, q, false);

	if (i < m->n && !cmp_keys(&m->pool[i], q))
		return head_of(m, (unsigned int) i);
	return NULL;
}

static struct cds_trie_node *oracle_longest(struct model *m, const struct key *q)
{
	struct cds_trie_node *best = NULL;
	size_t i, best_len = 0;

	for (i = 0; i < m->n; i++) {
		const struct key *k = &m->pool[i];

		if (m->ndups[i] && k->len <= q->len
		    && !memcmp(k->b, q->b, k->len) && (!best || k->len >= best_len)) {
			best = head_of(m, (unsigned int) i);
			best_len = k->len;
		}
	}
	return best;
}

/* ------------------------------------------------------------------------
 * Checks.
 */

static void expect(struct model *m, const char *what, const struct key *q,
		   struct cds_trie_node *got, struct cds_trie_node *want)
{
	if (got == want)
		return;
	if (got && item_of(got)->magic != ITEM_MAGIC) {
		fail(m, "%s: returned a node that is not an item", what);
		return;
	}
	fail(m, "%s (query of %zu bytes, first 0x%02x): got item %ld (key %d), "
	     "want item %ld (key %d)", what, q->len, q->len ? q->b[0] : 0,
	     item_id(got), got ? (int) item_of(got)->key : -1,
	     item_id(want), want ? (int) item_of(want)->key : -1);
}

static void check_queries(struct model *m, const struct key *q)
{
	struct cds_trie *t = m->trie;
	struct cds_trie_iter it;

	m->cfg->fl->read_lock();
	expect(m, "lookup", q, cds_trie_lookup(t, q->b, q->len),
	       oracle_exact(m, q));
	expect(m, "longest_prefix", q,
	       cds_trie_lookup_longest_prefix(t, q->b, q->len),
	       oracle_longest(m, q));
	expect(m, "le", q, cds_trie_lookup_le(t, q->b, q->len, NULL),
	       oracle_down(m, q, false));
	expect(m, "lt", q, cds_trie_lookup_lt(t, q->b, q->len, &it),
	       oracle_down(m, q, true));
	expect(m, "ge", q, cds_trie_lookup_ge(t, q->b, q->len, &it),
	       oracle_up(m, q, false));
	expect(m, "gt", q, cds_trie_lookup_gt(t, q->b, q->len, NULL),
	       oracle_up(m, q, true));
	m->cfg->fl->read_unlock();
}

/* The oracle's nodes in walk order, forward or backward (dups forward). */
static size_t oracle_walk(struct model *m, struct cds_trie_node **out,
			  size_t lo, size_t hi, bool backward)
{
	size_t n = 0, i, k;

	for (i = 0; i < hi - lo; i++) {
		k = backward ? hi - 1 - i : lo + i;
		for (unsigned int d = 0; d < m->ndups[k]; d++)
			out[n++] = &m->dups[k][d]->node;
	}
	return n;
}

static void compare_walk(struct model *m, const char *what,
			 struct cds_trie_node **want, size_t nwant,
			 struct cds_trie_node **got, size_t ngot)
{
	size_t i;

	for (i = 0; i < nwant && i < ngot; i++) {
		if (got[i] != want[i]) {
			fail(m, "%s: element %zu is item %ld, want item %ld",
			     what, i, item_id(got[i]), item_id(want[i]));
			return;
		}
	}
	if (nwant != ngot)
		fail(m, "%s: %zu nodes, want %zu", what, ngot, nwant);
}

static void check_walks(struct model *m)
{
	size_t cap = m->n * MAX_DUPS + 1, nwant, ngot, lo, hi;
	struct cds_trie_node **want = malloc(cap * sizeof(*want));
	struct cds_trie_node **got = malloc(cap * sizeof(*got));
	struct cds_trie *t = m->trie;
	struct cds_trie_iter it;
	struct cds_trie_node *x;
	const struct key *a, *b;
	struct key p;

	if (!want || !got)
		abort();
	m->cfg->fl->read_lock();

	nwant = oracle_walk(m, want, 0, m->n, false);
	ngot = 0;
	cds_trie_for_each(t, &it, x)
		if (ngot < cap)
			got[ngot++] = x;
	compare_walk(m, "forward walk", want, nwant, got, ngot);
	if (cds_trie_count(t) != nwant)
		fail(m, "count %lu, want %zu", cds_trie_count(t), nwant);

	nwant = oracle_walk(m, want, 0, m->n, true);
	ngot = 0;
	cds_trie_for_each_reverse(t, &it, x)
		if (ngot < cap)
			got[ngot++] = x;
	compare_walk(m, "backward walk", want, nwant, got, ngot);

	/* A range between two pool keys (either order: maybe empty). */
	a = &m->pool[trie_rand(&m->rng) % m->n];
	b = &m->pool[trie_rand(&m->rng) % m->n];
	lo = lower(m, a, false);
	hi = lower(m, b, false);
	nwant = hi > lo ? oracle_walk(m, want, lo, hi, false) : 0;
	ngot = 0;
	cds_trie_for_each_range(t, a->b, a->len, b->b, b->len, &it, x)
		if (ngot < cap)
			got[ngot++] = x;
	compare_walk(m, "range walk", want, nwant, got, ngot);
	/* The same range backward, from its last node. */
	nwant = hi > lo ? oracle_walk(m, want, lo, hi, true) : 0;
	ngot = 0;
	for (x = cds_trie_lookup_lt(t, b->b, b->len, &it);
	     x && trie_key_cmp(x->key, x->key_len, a->b, a->len) >= 0;
	     x = cds_trie_prev(t, &it))
		if (ngot < cap)
			got[ngot++] = x;
	compare_walk(m, "range walk backward", want, nwant, got, ngot);

	/* All keys starting with a prefix of a pool key. */
	p = m->pool[trie_rand(&m->rng) % m->n];
	if (p.len)
		p.len = trie_rand(&m->rng) % (p.len + 1);
	nwant = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct key *k = &m->pool[i];

		if (k->len >= p.len && !memcmp(k->b, p.b, p.len))
			nwant += oracle_walk(m, want + nwant, i, i + 1, false);
	}
	ngot = 0;
	cds_trie_for_each_prefix(t, p.b, p.len, &it, x)
		if (ngot < cap)
			got[ngot++] = x;
	compare_walk(m, "prefix walk", want, nwant, got, ngot);

	m->cfg->fl->read_unlock();
	free(want);
	free(got);
}

/* ------------------------------------------------------------------------
 * Operations.
 */

static void drop_dup(struct model *m, unsigned int key, unsigned int d)
{
	memmove(&m->dups[key][d], &m->dups[key][d + 1],
		(m->ndups[key] - d - 1) * sizeof(m->dups[key][0]));
	m->ndups[key]--;
}

/* Allocations that failed so far. */
static long alloc_failures(struct model *m)
{
	return m->cfg->alloc
		? __atomic_load_n(&m->cfg->alloc->failed, __ATOMIC_RELAXED) : 0;
}

/*
 * After an addition that started when @failed allocations had failed:
 * true when it returned -ENOMEM (and must have changed nothing), which
 * it must do exactly when an allocation failed meanwhile.
 */
static bool out_of_memory(struct model *m, const char *what, long failed,
			  int ret)
{
	bool oom = alloc_failures(m) != failed;

	if (oom != (ret == -ENOMEM))
		fail(m, "%s: returned %d, %s allocation failed", what, ret,
		     oom ? "an" : "no");
	return ret == -ENOMEM;
}

static void one_op(struct model *m)
{
	unsigned int key = (unsigned int) (trie_rand(&m->rng) % m->n);
	unsigned int kind = (unsigned int) (trie_rand(&m->rng) % 100);
	struct cds_trie *t = m->trie;
	struct cds_trie_node *other = NULL;
	long failed = alloc_failures(m);
	struct item *it, *old;
	unsigned int d;
	int ret;

	m->cfg->fl->read_lock();
	if (kind < 30 || (kind < 45 && !m->ndups[key])) {
		if (m->ndups[key] == MAX_DUPS)
			goto out;
		it = new_item(m, key);
		ret = cds_trie_add(t, &it->node);
		if (out_of_memory(m, "add", failed, ret))
			goto out;
		if (ret)
			fail(m, "add: %d", ret);
		else
			m->dups[key][m->ndups[key]++] = it;
	} else if (kind < 45) {
		it = new_item(m, key);
		ret = cds_trie_add_unique(t, &it->node, &other);
		if (ret != -EEXIST || other != head_of(m, key))
			fail(m, "add_unique of a present key: %d, item %ld",
			     ret, item_id(other));
	} else if (kind < 55) {
		it = new_item(m, key);
		ret = cds_trie_add_unique(t, &it->node, &other);
		if (out_of_memory(m, "add_unique", failed, ret))
			goto out;
		if (m->ndups[key]) {
			if (ret != -EEXIST || other != head_of(m, key))
				fail(m, "add_unique: %d", ret);
		} else if (ret || other) {
			fail(m, "add_unique of an absent key: %d", ret);
		} else {
			m->dups[key][m->ndups[key]++] = it;
		}
	} else if (kind < 62) {
		it = new_item(m, key);
		ret = cds_trie_add_replace(t, &it->node, &other);
		if (out_of_memory(m, "add_replace", failed, ret))
			goto out;
		if (ret || other != head_of(m, key))
			fail(m, "add_replace: %d, replaced item %ld", ret,
			     item_id(other));
		if (m->ndups[key])
			m->dups[key][0] = it;
		else
			m->dups[key][m->ndups[key]++] = it;
	} else if (kind < 70) {
		if (!m->ndups[key])
			goto out;
		d = (unsigned int) (trie_rand(&m->rng) % m->ndups[key]);
		old = m->dups[key][d];
		it = new_item(m, key);
		ret = cds_trie_replace(t, &old->node, &it->node);
		if (ret)
			fail(m, "replace: %d", ret);
		m->dups[key][d] = it;
		if (!cds_trie_is_node_deleted(&old->node))
			fail(m, "replaced node not marked deleted");
		if (cds_trie_replace(t, &old->node, &new_item(m, key)->node)
		    != -ENOENT)
			fail(m, "replace of a replaced node is not -ENOENT");
	} else {
		if (!m->ndups[key]) {
			it = new_item(m, key);
			if (cds_trie_del(t, &it->node) != -ENOENT)
				fail(m, "del of a node never added is not -ENOENT");
			goto out;
		}
		d = (unsigned int) (trie_rand(&m->rng) % m->ndups[key]);
		old = m->dups[key][d];
		ret = cds_trie_del(t, &old->node);
		if (ret)
			fail(m, "del: %d", ret);
		drop_dup(m, key, d);
		if (cds_trie_del(t, &old->node) != -ENOENT)
			fail(m, "second del is not -ENOENT");
		if (!cds_trie_is_node_deleted(&old->node))
			fail(m, "deleted node not marked deleted");
	}
out:
	m->cfg->fl->read_unlock();
}

static void build_pool(struct model *m)
{
	unsigned char (*longs)[MAX_KEY] = m->longs;
	struct key k;
	size_t i, j, want = m->cfg->pool < MAX_POOL ? m->cfg->pool : MAX_POOL;

	for (i = 0; i < 3; i++)
		for (j = 0; j < MAX_KEY; j++)
			longs[i][j] = i == 0 ? alphabet[trie_rand(&m->rng) % 8]
				    : (unsigned char) trie_rand(&m->rng);
	/* The three long bases share their first 200 bytes. */
	memcpy(longs[1], longs[0], 200);
	memcpy(longs[2], longs[0], 100);
	m->n = 0;
	m->pool[m->n++].len = 0;	/* the empty key */
	while (m->n < want) {
		random_key(&m->rng, &k, m->pool, m->n,
			   (const unsigned char (*)[MAX_KEY]) longs,
			   m->cfg->long_keys);
		for (i = 0; i < m->n; i++)
			if (!cmp_keys(&k, &m->pool[i]))
				break;
		if (i == m->n)
			m->pool[m->n++] = k;
	}
	qsort(m->pool, m->n, sizeof(m->pool[0]), cmp_keys);
}

/* "b" * i, then nothing, "a" or "c" (i up to 150). */
static void build_deep_pool(struct model *m)
{
	static const char tails[] = { 0, 'a', 'c' };
	size_t i, t;

	m->n = 0;
	for (i = 0; i <= 150; i++) {
		for (t = 0; t < sizeof(tails); t++) {
			struct key *k = &m->pool[m->n++];

			memset(k->b, 'b', i);
			k->len = i;
			if (tails[t])
				k->b[k->len++] = (unsigned char) tails[t];
		}
	}
	qsort(m->pool, m->n, sizeof(m->pool[0]), cmp_keys);
}

/* A query key for the deep pool: a pool key, maybe changed at its end. */
static void deep_query(struct model *m, uint64_t *rng, struct key *q)
{
	uint64_t r = trie_rand(rng);

	*q = m->pool[r % m->n];
	switch ((r >> 20) % 4) {
	case 0:
		if (q->len < MAX_KEY)
			q->b[q->len++] = "abcz"[(r >> 24) % 4];
		break;
	case 1:
		if (q->len)
			q->b[q->len - 1] = "abcz"[(r >> 24) % 4];
		break;
	default:
		break;
	}
}

int trie_model_run(const struct trie_model_cfg *cfg, char *err, size_t errlen)
{
	struct model *m = calloc(1, sizeof(*m));
	uint64_t qrng;
	unsigned int i, q, d;
	size_t k;
	struct key query;
	int ret;

	if (!m)
		abort();
	m->cfg = cfg;
	m->rng = cfg->seed;
	m->err = err;
	m->errlen = errlen;
	if (cfg->kind == TRIE_POOL_DEEP)
		build_deep_pool(m);
	else
		build_pool(m);
	m->trie = cds_trie_new(cfg->fl, cfg->alloc ? &cfg->alloc->ops : NULL);
	if (!m->trie) {
		fail(m, "cds_trie_new failed");
		goto out;
	}
	qrng = cfg->seed ^ 0x5eed;
	for (m->op = 0; m->op < cfg->ops && !m->failed; m->op++) {
		one_op(m);
		for (q = 0; q < 3 && !m->failed; q++) {
			if (cfg->kind == TRIE_POOL_DEEP)
				deep_query(m, &qrng, &query);
			else if (trie_rand(&qrng) % 2)
				query = m->pool[trie_rand(&qrng) % m->n];
			else
				random_key(&qrng, &query, m->pool, m->n,
					   (const unsigned char (*)[MAX_KEY]) m->longs,
					   cfg->long_keys);
			check_queries(m, &query);
		}
		if (m->op % CHECK_EVERY == 0 && !m->failed)
			check_walks(m);
	}
	if (!m->failed)
		check_walks(m);
	/* Empty it, then it must be destroyed. */
	cfg->fl->read_lock();
	for (k = 0; k < m->n; k++)
		for (d = m->ndups[k]; d-- > 0;)
			if ((ret = cds_trie_del(m->trie, &m->dups[k][d]->node)))
				fail(m, "final del: %d", ret);
	cfg->fl->read_unlock();
	memset(m->ndups, 0, sizeof(m->ndups));
	if (!m->failed)
		check_walks(m);
	if ((ret = cds_trie_destroy(m->trie)))
		fail(m, "destroy of the emptied trie: %d", ret);
out:
	for (i = 0; i < m->nitems; i++)
		free(m->items[i]);
	free(m->items);
	ret = m->failed ? -1 : 0;
	free(m);
	return ret;
}
