/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-order.c: ordered queries and walks: cds_trie_lookup_le/lt/ge/
 * gt(), first, last, next, prev, range and prefix walks, count.
 *
 * Positions.  A position is a slot: the root slot, or slot s of inner
 * node n, where s is -1 for the end slot and c for child c.  Slots of a
 * node are ordered end, 0, 1, ..., 255, which is the order of their keys
 * (the end key is a proper prefix of the others).  An iterator caches
 * the path of its position: path[i] is the (tagged) slot value of an
 * inner node, slot[i] the slot taken in it; path[i + 1] sits in that
 * slot.
 *
 * Queries (le/lt/ge/gt, first, last, range and prefix starts) run the
 * engine of "Queries" below, which keeps its whole path on the stack and
 * copies the deepest levels into the caller's iterator.  The iterator
 * engine here serves next and prev.  A seek walks down once from the
 * root towards a target, comparing each node's prefix with it (so that it
 * knows, without reading any leaf, whether the whole node lies below or
 * above the target), and caches the path.  It then either stands on the
 * answer, or has to "step": from the deepest cached position, move to
 * the nearest nonempty slot in the wanted direction, climbing the cached
 * path as long as a node has none, then descend to the extreme leaf of
 * what it found.  Next and prev are steps from the current position.
 * Nothing is read twice and nothing is retried: a slot found empty
 * (removed meanwhile) is passed over like any other empty slot.
 *
 * Correctness (docs/trie.md, "Guarantees"): each node reached was live
 * at some moment of the call and each slot read holds what the live trie
 * held at some moment (I2, I3), and slots are visited in strictly
 * increasing (decreasing) order, so every key present throughout the
 * call that lies in the direction of the walk is met, in order, once.
 *
 * Deep paths.  The cache holds CDS_TRIE_ITER_DEPTH levels.  A deeper
 * path drops its oldest cached levels; they are found again, if a step
 * climbs that far, by a new seek for the first key after (before) the
 * subtree just finished, whose path the iterator knows from its
 * "anchor": bytes that start with the paths of every level dropped.  The
 * anchor is the seek's target while the walk follows it, the leaf the
 * iterator stands on afterwards, and, when a descent towards an extreme
 * leaf drops a level that neither covers, the stored path of the node
 * being pushed: that node is at least CDS_TRIE_ITER_DEPTH levels below
 * the root, hence at least that many bytes deep, so it keeps its whole
 * path (I8).  Every such seek starts strictly after the subtree it
 * leaves, so a step never goes over the same keys twice, whatever
 * updaters do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rcutrie-internal.h"
#include "urcu-export.h"

/* Bounds of struct cds_trie_iter. */
enum { BOUND_NONE, BOUND_RANGE, BOUND_PREFIX };

/*
 * What a seek looks for: the bytes key[0..len); with inf, followed by
 * "+infinity" (greater than every key that starts with those bytes).
 */
struct target {
	const unsigned char *key;
	size_t len;
	bool inf;
};

/* A move of an iterator: a seek for a target, or a step. */
struct move {
	bool seek;
	int dir;		/* +1: towards greater keys, -1: smaller */
	bool strict;		/* seek: the target itself does not qualify */
	struct target t;
};

enum move_state { MOVE_DONE, MOVE_STEP, MOVE_SEEK };

/*
 * Where the keys below @n lie relative to the key @key (@len bytes),
 * judging by @n's prefix: -1 all below, 1 all above, 0 the prefix
 * matches the key's bytes (which go on at least to @n's depth); a key
 * that ends inside the prefix lies below the node.  @s is the slot that
 * led to @n: its tags tell a node without a prefix at no cost.
 */
static inline int prefix_key_cmp(uintptr_t s, const struct trie_inner *n,
				 const unsigned char *key, size_t len)
{
	size_t start, avail;
	uint32_t plen;
	int r;

	if (!slot_plen(s))
		return 0;
	plen = n->prefix_len;
	start = inner_start(n);
	avail = len > start ? len - start : 0;
	if (avail >= plen) {
		/*
		 * Equal is the common case (every node above the point where
		 * the key leaves the trie): test it without a loop, order
		 * the bytes only when they differ.
		 */
		if (key_eq(inner_prefix(n), key + start, plen))
			return 0;
		return key_cmp(inner_prefix(n), plen, key + start, plen);
	}
	r = key_cmp(inner_prefix(n), avail, key + start, avail);
	return r ? r : 1;
}

/* prefix_key_cmp() for a target, which may end with +infinity. */
static int prefix_cmp(uintptr_t s, const struct trie_inner *n,
		      const struct target *t)
{
	size_t start, avail, m;
	uint32_t plen;
	int r;

	if (caa_likely(!t->inf))
		return prefix_key_cmp(s, n, t->key, t->len);
	if (!slot_plen(s))
		return 0;
	plen = n->prefix_len;
	start = inner_start(n);
	avail = t->len > start ? t->len - start : 0;
	m = avail < plen ? avail : plen;
	r = key_cmp(inner_prefix(n), m, t->key + start, m);
	if (r)
		return r;
	/* The prefix starts with what is left of the target: below +inf. */
	return avail < plen ? -1 : 0;
}

/* Sign of @x's key minus @t. */
static int leaf_cmp(const struct cds_trie_node *x, const struct target *t)
{
	size_t m = x->key_len < t->len ? x->key_len : t->len;
	int r;

	if (caa_likely(!t->inf))
		return key_cmp(x->key, x->key_len, t->key, t->len);
	r = key_cmp(x->key, m, t->key, m);
	if (r)
		return r;
	/* Equal on the target's bytes or a prefix of them: below. */
	return -1;
}

/* ------------------------------------------------------------------------
 * The cached path.
 */

static void path_reset(struct cds_trie_iter *it, const unsigned char *anchor,
		       size_t anchor_len)
{
	it->depth = 0;
	it->anchored = 0;
	it->dropped = 0;
	it->anchor = anchor;
	it->anchor_len = anchor_len;
}

static inline uintptr_t path_slot(const struct cds_trie_iter *it, unsigned int i)
{
	return (uintptr_t) it->path[i];
}

/*
 * Drops the oldest cached level of a full path, before @s is pushed
 * (file comment): when the anchor does not cover that level, the path
 * stored in @s's node does (I8) and becomes the anchor.
 */
static __attribute__((noinline)) void path_drop(struct cds_trie_iter *it,
						uintptr_t s)
{
	const unsigned int cap = CDS_TRIE_ITER_DEPTH;
	const struct trie_inner *n = slot_inner(s);

	if (it->anchored <= 1) {
		/*
		 * The anchor would cover no level left in the cache.  @n
		 * sits below cap levels of nodes, each at least a byte
		 * deeper than its parent: it is a deep node, its path
		 * covers them all.
		 */
		urcu_assert_debug(n->depth >= TRIE_DEEP);
		it->anchor = inner_path(n);
		it->anchor_len = n->depth;
		it->anchored = cap;
	}
	it->anchored--;
	memmove(it->path, it->path + 1, (cap - 1) * sizeof(it->path[0]));
	memmove(it->slot, it->slot + 1, (cap - 1) * sizeof(it->slot[0]));
	it->depth--;
	it->dropped = 1;
}

/* Pushes (@s, @slot); @anchored when @s's path is the anchor's start. */
static inline void push(struct cds_trie_iter *it, uintptr_t s, int slot,
			bool anchored)
{
	if (caa_unlikely(it->depth == CDS_TRIE_ITER_DEPTH)) {
		path_drop(it, s);
		/* The re-anchored path covers the node pushed. */
		anchored = anchored || it->anchored == it->depth;
	}
	it->path[it->depth] = (void *) s;
	it->slot[it->depth] = (short) slot;
	it->depth++;
	if (anchored && it->anchored == it->depth - 1)
		it->anchored = it->depth;
}

/* The iterator stands on leaf @s: its key anchors the whole path. */
static struct cds_trie_node *found(struct cds_trie_iter *it, uintptr_t s)
{
	struct cds_trie_node *x = slot_leaf(s);

	it->node = x;
	it->anchor = x->key;
	it->anchor_len = x->key_len;
	it->anchored = it->depth;
	return x;
}

/*
 * Descends from slot value @s to its smallest (@dir > 0) or greatest
 * leaf, caching the path.  MOVE_DONE with *@x set, or MOVE_STEP when the
 * subtree turned out empty (the step goes on from the cached position).
 */
static enum move_state extreme(struct cds_trie_iter *it, uintptr_t s, int dir,
			       struct cds_trie_node **x)
{
	const struct trie_inner *n;
	uintptr_t next, end;
	int c;

	while (!slot_is_leaf(s)) {
		n = slot_inner(s);
		end = inner_end(n);
		if (dir > 0 && end) {
			push(it, s, -1, false);
			s = end;
			break;
		}
		next = dir > 0 ? inner_next_child(n, slot_type(s), -1, &c)
			       : inner_prev_child(n, slot_type(s), 256, &c);
		if (!next && dir < 0 && end) {
			push(it, s, -1, false);
			s = end;
			break;
		}
		if (!next)
			return MOVE_STEP;
		push(it, s, c, false);
		s = next;
	}
	*x = found(it, s);
	return MOVE_DONE;
}

/* ------------------------------------------------------------------------
 * Seeks and steps.
 */

static enum move_state seek(struct cds_trie_iter *it, const struct move *m,
			    struct cds_trie_node **x)
{
	const struct target *t = &m->t;
	uintptr_t s = load_slot(&it->trie->root);
	const struct trie_inner *n;
	unsigned int c;
	int r;

	trie_count_descent();
	path_reset(it, t->key, t->len);
	for (;;) {
		if (!s) {
			*x = NULL;
			return MOVE_DONE;	/* empty trie */
		}
		if (slot_is_leaf(s)) {
			r = leaf_cmp(slot_leaf(s), t);
			if (r * m->dir > 0 || (!r && !m->strict)) {
				*x = found(it, s);
				return MOVE_DONE;
			}
			return MOVE_STEP;
		}
		n = slot_inner(s);
		check_inner(n);
		r = prefix_cmp(s, n, t);
		if (!r && t->len == n->depth && t->inf)
			r = -1;		/* the whole node starts with t */
		if (r) {
			/* The node lies wholly on one side of the target. */
			if (r * m->dir < 0)
				return MOVE_STEP;
			return extreme(it, s, m->dir, x);
		}
		if (t->len == n->depth) {
			/* The end slot holds the target itself. */
			push(it, s, -1, true);
			s = inner_end(n);
			if (s && !m->strict) {
				*x = found(it, s);
				return MOVE_DONE;
			}
			return MOVE_STEP;
		}
		c = t->key[n->depth];
		push(it, s, (int) c, true);
		s = inner_find_child(n, slot_type(s), c);
		if (!s)
			return MOVE_STEP;
	}
}

/*
 * Sets up, in @m, the seek that replaces a step which climbed above the
 * cached levels: the first key after (last before) the subtree of the
 * node it left last, at @popped_depth, whose path the anchor starts
 * with.
 */
static void fallback(const struct cds_trie_iter *it, int dir,
		     size_t popped_depth, struct move *m)
{
	urcu_assert_debug(it->anchor_len >= popped_depth);
	m->seek = true;
	m->dir = dir;
	m->t.key = it->anchor;
	m->t.len = popped_depth;
	m->t.inf = dir > 0;
	m->strict = true;
}

static enum move_state step(struct cds_trie_iter *it, struct move *m,
			    struct cds_trie_node **x)
{
	size_t popped_depth = 0;
	const struct trie_inner *n;
	unsigned int top, type;
	uintptr_t s;
	int c;

	for (;;) {
		if (!it->depth) {
			if (!it->dropped) {
				*x = NULL;
				return MOVE_DONE;
			}
			fallback(it, m->dir, popped_depth, m);
			return MOVE_SEEK;
		}
		top = it->depth - 1;
		n = slot_inner(path_slot(it, top));
		type = slot_type(path_slot(it, top));
		if (m->dir > 0) {
			s = inner_next_child(n, type, it->slot[top], &c);
		} else if (it->slot[top] >= 0) {
			s = inner_prev_child(n, type, it->slot[top], &c);
			if (!s && (s = inner_end(n))) {
				/* The end slot comes before every child. */
				it->slot[top] = -1;
				*x = found(it, s);
				return MOVE_DONE;
			}
		} else {
			s = 0;
		}
		if (s) {
			it->slot[top] = (short) c;
			if (extreme(it, s, m->dir, x) == MOVE_DONE)
				return MOVE_DONE;
			continue;
		}
		popped_depth = n->depth;
		it->depth = top;
		if (it->anchored > top)
			it->anchored = top;
	}
}

static struct cds_trie_node *move(struct cds_trie_iter *it, struct move *m)
{
	struct cds_trie_node *x = NULL;
	enum move_state st = m->seek ? MOVE_SEEK : MOVE_STEP;

	while (st != MOVE_DONE)
		st = st == MOVE_SEEK ? seek(it, m, &x) : step(it, m, &x);
	it->node = x;
	return x;
}

/* ------------------------------------------------------------------------
 * Queries: one descent from the root, then a step if needed, keeping the
 * whole path, so that no query ever starts again from the root.  The
 * path lives on the stack in segments of FAST_SEG levels: a path deeper
 * than one segment goes on in a new stack frame (fast_overflow()) that
 * links to the segment above; when a step climbs out of a segment, its
 * frame returns FAST_CLIMB and the step goes on in the frame above.  So
 * the stack a query uses grows with the height of the trie (about 32
 * bytes per level), and nothing is read twice.  When the caller wants an
 * iterator, the deepest CDS_TRIE_ITER_DEPTH levels of the path are
 * copied into it at the end (fast_found()).
 *
 * The descent's scan of a 4- or 15-node also notes, from the same key
 * bytes, the positions beyond the key's byte in the query's direction:
 * the step then takes the nearest of them without scanning the node
 * again, and skips a node where there is none.
 */

/*
 * Levels per segment.  Debug builds take 6, so that every query over a
 * path of a few levels already chains frames, and the suites' model and
 * stress tests exercise the chaining (and the climbs between frames)
 * under concurrent updates.
 */
#ifdef URCU_DEBUG
#define FAST_SEG	6
#else
#define FAST_SEG	48
#endif

struct fast_level {
	uintptr_t s;		/* the node, as a tagged slot value */
	int slot;		/* the slot taken: -1 end, else the byte */
	/*
	 * 4/15 nodes: the index the descent read (order, nr) and the
	 * positions of the bytes before the slot (before, for le/lt) or up
	 * to it (ge/gt); NEAR_SCAN: scan the node (40, name and 256 nodes,
	 * or after a failed descent).
	 */
	unsigned int near;
	unsigned int nr;
	uint64_t order;
};

#define NEAR_SCAN	0x10000U

/*
 * Levels of the path; @up holds the levels above them (NULL: none).
 * The frame running a segment keeps its depth in a local and stores it
 * here only before another function reads the segment.
 */
struct fast_seg {
	const struct fast_seg *up;
	unsigned int depth;
	struct fast_level lv[FAST_SEG];
};

/*
 * A query, and where its descent is when a deeper frame takes it on.
 * fast_run() takes it by value and works on locals: a slot load is an
 * acquire load (compilers take consume as acquire), after which fields
 * of a structure whose address has escaped are loaded again, as another
 * thread might have written them (about 15 instructions per query).
 */
struct fast_query {
	const unsigned char *key;
	size_t len;
	int dir;		/* +1: >= or >, -1: <= or < */
	bool strict;
	size_t d;		/* seek: depth of the last node passed */
	struct cds_trie_iter *iter;	/* NULL: none wanted */
};

/* What a frame does first: descend towards the key, or to an extreme. */
enum fast_phase { PH_SEEK, PH_EXTREME };

/* A frame's answer: its segment emptied, the step goes on above. */
#define FAST_CLIMB	((struct cds_trie_node *) 1)

/* The query engine is inlined into one function per query. */
#define FAST_INLINE	static inline __attribute__((always_inline))

static struct cds_trie_node *fast_overflow(const struct fast_query *q,
		const struct fast_seg *up, enum fast_phase ph, uintptr_t s);

FAST_INLINE struct fast_level *fast_push(struct fast_seg *seg,
					 unsigned int *depth, uintptr_t s,
					 int slot)
{
	struct fast_level *lv = &seg->lv[(*depth)++];

	lv->s = s;
	lv->slot = slot;
	lv->near = NEAR_SCAN;
	return lv;
}

/*
 * The answer @x, found with the path @seg: an iterator wanted keeps the
 * deepest levels, anchored on @x's key (the key's path passes through
 * every level, kept or not).
 */
static __attribute__((noinline)) void fast_to_iter(struct cds_trie_iter *it,
		const struct fast_seg *seg, struct cds_trie_node *x)
{
	const unsigned int cap = CDS_TRIE_ITER_DEPTH;
	unsigned int keep = 0, i;

	it->dropped = 0;
	for (; seg; seg = seg->up) {
		for (i = seg->depth; i-- > 0;) {
			if (keep == cap) {
				it->dropped = 1;
				break;
			}
			keep++;
		}
		if (it->dropped)
			break;
	}
	it->depth = keep;
	it->anchored = keep;
	it->node = x;
	it->anchor = x->key;
	it->anchor_len = x->key_len;
}

FAST_INLINE struct cds_trie_node *fast_found(struct cds_trie_iter *iter,
		struct fast_seg *seg, unsigned int depth,
		struct cds_trie_node *x)
{
	const struct fast_seg *sg;
	unsigned int i, k;

	if (iter) {
		seg->depth = depth;
		fast_to_iter(iter, seg, x);
		/* Levels, deepest first, into path[depth - 1] down to 0. */
		k = iter->depth;
		for (sg = seg; sg && k; sg = sg->up) {
			for (i = sg->depth; i-- > 0 && k;) {
				k--;
				iter->path[k] = (void *) sg->lv[i].s;
				iter->slot[k] = (short) sg->lv[i].slot;
			}
		}
	}
	return x;
}

/*
 * Runs query @q from slot value @s (phase @ph) in a new frame whose
 * levels sit below @up: the answer, NULL when there is none (outermost
 * frame only), or FAST_CLIMB.
 */
FAST_INLINE struct cds_trie_node *fast_run(const struct fast_query q,
		const struct fast_seg *up, enum fast_phase ph, uintptr_t s)
{
	struct fast_seg seg;
	struct cds_trie_node *x;
	const struct trie_inner *n;
	struct fast_level *lv;
	unsigned int c, type, depth = 0;
	const unsigned char *const key = q.key;
	const size_t len = q.len;
	struct cds_trie_iter *const iter = q.iter;
	const int dir = q.dir;
	const bool strict = q.strict;
	size_t d = q.d;
	uintptr_t end, next;
	int r, b;

	seg.up = up;
	if (ph == PH_EXTREME)
		goto extreme;
	while (s) {
		if (slot_is_leaf(s)) {
			x = slot_leaf(s);
			r = key_cmp(x->key, x->key_len, key, len);
			if (r * dir > 0 || (!r && !strict))
				return fast_found(iter, &seg, depth, x);
			goto step;
		}
		if (caa_unlikely(depth == FAST_SEG)) {
			struct fast_query deeper = q;

			deeper.d = d;
			seg.depth = depth;
			x = fast_overflow(&deeper, &seg, PH_SEEK, s);
			if (x != FAST_CLIMB)
				return x;
			goto step;
		}
		n = slot_inner(s);
		check_inner(n);
		type = slot_type(s);
		prefetch_inner(s);
		if (caa_unlikely(slot_plen(s))) {
			r = prefix_key_cmp(s, n, key, len);
			if (r) {
				/* The node lies wholly on one side of the key. */
				if (r * dir < 0)
					goto step;
				goto extreme;
			}
			d = n->depth;
		} else {
			d++;
		}
		/* The prefix matched: len >= d (see prefix_key_cmp()). */
		if (len == d) {
			/* The end slot holds the key; all children follow it. */
			fast_push(&seg, &depth, s, -1);
			s = inner_end(n);
			if (s && !strict)
				return fast_found(iter, &seg, depth, slot_leaf(s));
			goto step;
		}
		c = key[d];
		lv = fast_push(&seg, &depth, s, (int) c);
		if (type <= TRIE_N15) {
			struct small_view v;
			unsigned int m, lt;

			small_view_of(n, type, &v);
			small_cmp(&v.sk, c, &m, &lt);
			m &= small_used(v.nr);
			lt &= small_used(v.nr);
			if (!m) {
				/*
				 * c has no position: the answer is in the
				 * nearest child beyond it, which the same view
				 * gives at once (the step below would take it
				 * from there too, after reloading the bytes).
				 */
				s = small_pick(n, type, &v, popcount16(lt),
					       dir > 0, &b);
				if (s) {
					lv->slot = b;
					goto extreme;
				}
			}
			/* Where the bytes beyond c start, for the step. */
			lv->order = v.order;
			lv->nr = v.nr;
			lv->near = dir > 0 ? lt | m : lt;
			s = m ? load_slot(&small_children(n, type)
					  [__builtin_ctz(m)]) : 0;
		} else {
			s = inner_find_child(n, type, c);
		}
	}
	goto step;

extreme:
	/* Descend from s to its smallest (dir > 0) or greatest leaf. */
	while (!slot_is_leaf(s)) {
		if (caa_unlikely(depth == FAST_SEG)) {
			seg.depth = depth;
			x = fast_overflow(&q, &seg, PH_EXTREME, s);
			if (x != FAST_CLIMB)
				return x;
			goto step;
		}
		n = slot_inner(s);
		check_inner(n);
		prefetch_inner(s);
		end = inner_end(n);
		if (dir > 0 && end) {
			fast_push(&seg, &depth, s, -1);
			return fast_found(iter, &seg, depth, slot_leaf(end));
		}
		next = dir > 0 ? inner_next_child(n, slot_type(s), -1, &b)
			       : inner_prev_child(n, slot_type(s), 256, &b);
		if (!next) {
			if (dir < 0 && end) {
				fast_push(&seg, &depth, s, -1);
				return fast_found(iter, &seg, depth, slot_leaf(end));
			}
			/* Emptied meanwhile: step on from the level above. */
			goto step;
		}
		fast_push(&seg, &depth, s, b);
		s = next;
	}
	return fast_found(iter, &seg, depth, slot_leaf(s));

step:
	/*
	 * From the deepest level, the nearest nonempty slot in the query's
	 * direction, climbing while a node has none.
	 */
	while (depth) {
		lv = &seg.lv[depth - 1];
		n = slot_inner(lv->s);
		type = slot_type(lv->s);
		if (dir < 0 && lv->slot < 0) {
			/* Nothing of the node comes before its end slot. */
			depth--;
			continue;
		}
		if (lv->near != NEAR_SCAN) {
			/*
			 * The positions beyond the slot, as the descent's scan
			 * found them, start at the rank after those it noted.
			 */
			unsigned int rank = popcount16(lv->near);
			struct small_view v;

			v.order = lv->order;
			v.nr = lv->nr;
			v.bits = small_rank_bits(type);
			s = 0;
			if (dir > 0 ? rank < v.nr : rank > 0) {
				small_view_keys(n, type, &v);
				s = small_pick(n, type, &v, rank, dir > 0, &b);
			}
		} else {
			s = dir > 0 ? inner_next_child(n, type, lv->slot, &b)
				    : inner_prev_child(n, type, lv->slot, &b);
		}
		if (!s) {
			/* Below: the end slot comes before every child. */
			if (dir < 0 && (s = inner_end(n))) {
				lv->slot = -1;
				return fast_found(iter, &seg, depth, slot_leaf(s));
			}
			depth--;
			continue;
		}
		lv->slot = b;
		lv->near = NEAR_SCAN;
		goto extreme;
	}
	return up ? FAST_CLIMB : NULL;
}

/* A new frame for a path deeper than the caller's segment. */
static __attribute__((noinline)) struct cds_trie_node *fast_overflow(
		const struct fast_query *q, const struct fast_seg *up,
		enum fast_phase ph, uintptr_t s)
{
	return fast_run(*q, up, ph, s);
}

/*
 * A query from the root: a seek for @key (@ph PH_SEEK) or the extreme
 * leaf of the trie in direction @dir (PH_EXTREME).
 */
FAST_INLINE struct cds_trie_node *fast_query(struct cds_trie *trie,
		struct cds_trie_iter *iter, const void *key, size_t len,
		enum fast_phase ph, int dir, bool strict)
{
	const struct fast_query q = {
		.key = key, .len = len, .dir = dir, .strict = strict,
		.d = (size_t) -1, .iter = iter,
	};
	struct cds_trie_node *x;
	uintptr_t s;

	if (iter) {
		iter->trie = trie;
		iter->bound = BOUND_NONE;
	}
	trie_count_descent();
	s = load_slot(&trie->root);
	if (ph == PH_EXTREME && !s)
		x = NULL;
	else
		x = fast_run(q, NULL, ph, s);
	if (iter) {
		iter->node = x;
		if (!x)
			iter->depth = 0;
	}
	return x;
}

/* ------------------------------------------------------------------------
 * The API.
 */

URCU_API struct cds_trie_node *cds_trie_lookup_le(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_le");
	return fast_query(trie, iter, key, len, PH_SEEK, -1, false);
}

URCU_API struct cds_trie_node *cds_trie_lookup_lt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_lt");
	return fast_query(trie, iter, key, len, PH_SEEK, -1, true);
}

URCU_API struct cds_trie_node *cds_trie_lookup_ge(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_ge");
	return fast_query(trie, iter, key, len, PH_SEEK, 1, false);
}

URCU_API struct cds_trie_node *cds_trie_lookup_gt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_gt");
	return fast_query(trie, iter, key, len, PH_SEEK, 1, true);
}

URCU_API struct cds_trie_node *cds_trie_first(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_first");
	return fast_query(trie, iter, NULL, 0, PH_EXTREME, 1, false);
}

URCU_API struct cds_trie_node *cds_trie_last(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_last");
	return fast_query(trie, iter, NULL, 0, PH_EXTREME, -1, false);
}

/* Whether @x lies within the iterator's bound, moving in @dir. */
static bool in_bound(const struct cds_trie_iter *it,
		     const struct cds_trie_node *x, int dir)
{
	switch (it->bound) {
	case BOUND_RANGE:
		if (dir > 0)
			return !it->hi
				|| key_cmp(x->key, x->key_len, it->hi, it->hi_len) < 0;
		return key_cmp(x->key, x->key_len, it->lo, it->lo_len) >= 0;
	case BOUND_PREFIX:
		return x->key_len >= it->lo_len
			&& !key_cmp(x->key, it->lo_len, it->lo, it->lo_len);
	default:
		return true;
	}
}

static void check_iter(struct cds_trie *trie, const struct cds_trie_iter *it,
		       const char *what)
{
	cds__trie_check_reader(trie, what);
	if (it->trie != trie)
		cds__trie_misuse(what, "iterator started on another trie");
}

static struct cds_trie_node *iter_move(struct cds_trie_iter *it, int dir)
{
	struct cds_trie_node *x = it->node, *next;
	struct move m = { .seek = false, .dir = dir };

	if (!x)
		return NULL;
	/* Duplicates first, in insertion order, in both directions. */
	next = load_next(x);
	if (next) {
		it->node = next;
		return next;
	}
	x = move(it, &m);
	if (x && !in_bound(it, x, dir))
		it->node = x = NULL;
	return x;
}

URCU_API struct cds_trie_node *cds_trie_next(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	check_iter(trie, iter, "cds_trie_next");
	return iter_move(iter, 1);
}

URCU_API struct cds_trie_node *cds_trie_prev(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	check_iter(trie, iter, "cds_trie_prev");
	return iter_move(iter, -1);
}

URCU_API struct cds_trie_node *cds_trie_range_first(struct cds_trie *trie,
		const void *lo, size_t lo_len, const void *hi, size_t hi_len,
		struct cds_trie_iter *iter)
{
	struct cds_trie_node *x;

	cds__trie_check_reader(trie, "cds_trie_range_first");
	if (!iter) {
		cds__trie_misuse("cds_trie_range_first", "NULL iterator");
		return NULL;
	}
	x = fast_query(trie, iter, lo, lo_len, PH_SEEK, 1, false);
	iter->bound = BOUND_RANGE;
	iter->lo = lo;
	iter->lo_len = lo_len;
	iter->hi = hi;
	iter->hi_len = hi ? hi_len : 0;
	if (x && !in_bound(iter, x, 1))
		iter->node = x = NULL;
	return x;
}

URCU_API struct cds_trie_node *cds_trie_prefix_first(struct cds_trie *trie,
		const void *prefix, size_t len, struct cds_trie_iter *iter)
{
	struct cds_trie_node *x;

	cds__trie_check_reader(trie, "cds_trie_prefix_first");
	if (!iter) {
		cds__trie_misuse("cds_trie_prefix_first", "NULL iterator");
		return NULL;
	}
	x = fast_query(trie, iter, prefix, len, PH_SEEK, 1, false);
	iter->bound = BOUND_PREFIX;
	iter->lo = prefix;
	iter->lo_len = len;
	if (x && !in_bound(iter, x, 1))
		iter->node = x = NULL;
	return x;
}

URCU_API unsigned long cds_trie_count(struct cds_trie *trie)
{
	struct cds_trie_iter it;
	struct cds_trie_node *x;
	unsigned long n = 0;

	cds__trie_check_reader(trie, "cds_trie_count");
	cds_trie_for_each(trie, &it, x)
		n++;
	return n;
}
