/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * graph.c: the dependency graph and its cycle check.
 *
 * An edge A -> B says that some thread waited for B while holding A.  An
 * acquisition looks up each (held class, class taken, dependency type) in
 * a cache first: in the steady state every edge is known and that lookup
 * is all an acquisition costs.  The cache is an insert-only open-address
 * table read without a lock; a miss takes ld_state_lock, adds the edge
 * (or its new type) and searches the graph for a path back, which is a
 * breadth-first search over the classes, O(classes + edges) per new edge.
 *
 * The search follows lockdep's rule for shared holds (see lockdep.h): a
 * path may not enter a class through an R edge and leave it through an
 * S edge.  Each class is visited at most twice, once entered by an N
 * edge and once by an R edge (entered by N it may be left by anything,
 * so that visit makes the other useless).
 */
#include <string.h>

#include "lockdep.h"
#include "rawlock.h"

/* Cache slots: a power of two; the cache stops filling at 3/4. */
#define LD_CACHE_SLOTS	(1UL << 20)

static uint64_t *cache;
static size_t cache_used;

/* Search state, ld_state_lock held: generation stamps per class. */
static uint32_t *seen_n, *seen_r;
static uint32_t generation;

struct ld_step {
	uint32_t cls;
	bool r;			/* entered through an R edge */
	uint32_t parent;	/* index in the queue, UINT32_MAX at the root */
	struct ld_edge *via;
};

static struct ld_step *queue;

static uint64_t cache_key(uint32_t from, uint32_t to, uint32_t type)
{
	/* type is one LD_DEP_* bit, never 0: the key is never 0. */
	return ((uint64_t) from << 36) | ((uint64_t) to << 4) | type;
}

static size_t cache_slot(uint64_t key)
{
	return (size_t) ((key * 0x9e3779b97f4a7c15ULL) >> 40);
}

bool ld_edge_known(uint32_t from, uint32_t to, uint32_t type)
{
	/* Acquire: pairs with the release in edge_cache_add(). */
	uint64_t *c = __atomic_load_n(&cache, __ATOMIC_ACQUIRE);
	uint64_t key = cache_key(from, to, type), k;
	size_t i;

	if (!c)
		return false;
	for (i = cache_slot(key);; i++) {
		i &= LD_CACHE_SLOTS - 1;
		/* Relaxed: a key seen means its edge is in the graph. */
		k = __atomic_load_n(&c[i], __ATOMIC_RELAXED);
		if (k == key)
			return true;
		if (k == 0)
			return false;
	}
}

/* ld_state_lock held. */
static void edge_cache_add(uint32_t from, uint32_t to, uint32_t type)
{
	uint64_t key = cache_key(from, to, type);
	size_t i;

	if (!cache) {
		uint64_t *c = ld_map(LD_CACHE_SLOTS * sizeof(*c));

		if (!c)
			return;
		/* Release: pairs with the acquire in ld_edge_known(). */
		__atomic_store_n(&cache, c, __ATOMIC_RELEASE);
	}
	if (cache_used >= LD_CACHE_SLOTS / 4 * 3)
		return;		/* full: misses then take the lock */
	for (i = cache_slot(key);; i++) {
		i &= LD_CACHE_SLOTS - 1;
		if (cache[i] == key)
			return;
		if (cache[i] == 0)
			break;
	}
	cache_used++;
	/*
	 * Relaxed: the edge was linked under the lock that every reader of
	 * the graph takes; the cache only lets readers skip that lock.
	 */
	__atomic_store_n(&cache[i], key, __ATOMIC_RELAXED);
}

static bool search_setup(void)
{
	if (queue)
		return true;
	seen_n = ld_map(LD_MAX_CLASSES * sizeof(*seen_n));
	seen_r = ld_map(LD_MAX_CLASSES * sizeof(*seen_r));
	queue = ld_map(2 * LD_MAX_CLASSES * sizeof(*queue));
	return seen_n && seen_r && queue;
}

/*
 * A path from @start to @target that, together with the new edge
 * @target -> @start of dependency @type, forms a deadlocking cycle.
 * Stores its edges in @path (start first) and returns their number, or 0.
 * ld_state_lock held.
 */
static unsigned find_cycle(uint32_t start, uint32_t target, uint32_t type,
			   struct ld_edge **path, unsigned max)
{
	uint32_t head = 0, tail = 0, i;
	unsigned n = 0;

	if (!search_setup())
		return 0;
	if (++generation == 0) {
		memset(seen_n, 0, LD_MAX_CLASSES * sizeof(*seen_n));
		memset(seen_r, 0, LD_MAX_CLASSES * sizeof(*seen_r));
		generation = 1;
	}
	queue[tail++] = (struct ld_step) {
		.cls = start, .r = (type & LD_DEP_R) != 0,
		.parent = UINT32_MAX, .via = NULL,
	};
	while (head < tail) {
		struct ld_step *s = &queue[head];
		struct ld_edge *e;

		/*
		 * The new edge leaves @target: held shared, it may not
		 * follow an R edge.
		 */
		if (s->cls == target && s->via
		    && !(s->r && (type & LD_DEP_S)))
			break;
		for (e = ld_class(s->cls)->out; e; e = e->next_out) {
			uint32_t ok = e->types;
			bool r;

			if (s->r)
				ok &= LD_DEP_E;	/* no R edge then S edge */
			if (!ok)
				continue;
			r = !(ok & LD_DEP_N);
			if (seen_n[e->to] == generation
			    || (r && seen_r[e->to] == generation))
				continue;
			if (r)
				seen_r[e->to] = generation;
			else
				seen_n[e->to] = generation;
			queue[tail++] = (struct ld_step) {
				.cls = e->to, .r = r, .parent = head, .via = e,
			};
		}
		head++;
	}
	if (head == tail)
		return 0;
	for (i = head; queue[i].via; i = queue[i].parent)
		n++;
	if (n > max)
		n = max;	/* keep the edges nearest the start */
	for (i = head; queue[i].via; i = queue[i].parent) {
		unsigned depth = 0, j;

		for (j = i; queue[j].via; j = queue[j].parent)
			depth++;
		if (depth <= n)
			path[depth - 1] = queue[i].via;
	}
	return n;
}

#define LD_MAX_CYCLE	32

void ld_edge_add(uint32_t from, uint32_t to, uint32_t type,
		 const struct ld_context *ctx)
{
	struct ld_edge *path[LD_MAX_CYCLE + 1];
	struct ld_edge *e;
	unsigned n = 0;

	ld_raw_lock(&ld_state_lock);
	for (e = ld_class(from)->out; e; e = e->next_out)
		if (e->to == to)
			break;
	if (e && (e->types & type)) {
		/* Added meanwhile by another thread. */
		ld_raw_unlock(&ld_state_lock);
		return;
	}
	n = find_cycle(to, from, type, path, LD_MAX_CYCLE);
	if (!e) {
		e = ld_alloc(sizeof(*e));
		if (!e) {
			ld_raw_unlock(&ld_state_lock);
			return;
		}
		e->from = from;
		e->to = to;
		e->first_type = type;
		e->seen = *ctx;
		/* The caller's string may live in an object dlclose() unmaps. */
		e->seen.op = ld_strdup(ctx->op);
		if (!e->seen.op)
			e->seen.op = "?";
		e->next_out = ld_class(from)->out;
		ld_class(from)->out = e;
	}
	e->types |= type;
	edge_cache_add(from, to, type);
	ld_raw_unlock(&ld_state_lock);
	if (n) {
		/* Edges are never freed or changed but for @types. */
		path[n] = e;
		ld_report_cycle(path, n + 1, ctx);
	}
}
