/*
 * rcutrie-order.c: ordered queries and walks: cds_trie_lookup_le/lt/ge/
 * gt(), first, last, next, prev, range and prefix walks, count.
 *
 * Positions.  A position is a slot: the root slot, or slot s of inner
 * node n, where s is -1 for the end slot and c for child c.  Slots of a
 * node are ordered end, 0, 1, ..., 255, which is the order of their keys
 * (the end key is a proper prefix of the others).  An iterator caches
 * the path of its position: path[i] is an inner node, slot[i] the slot
 * taken in it; path[i + 1] sits in that slot.
 *
 * A seek (le/lt/ge/gt, first, last) walks down once from the root
 * towards a target, comparing each node's prefix with it (so that it
 * knows, without reading any leaf, whether the whole node lies below or
 * above the target), and caches the path.  It then either stands on the
 * answer, or has to "step": from the deepest cached position, move to
 * the nearest nonempty slot in the wanted direction, climbing the cached
 * path as long as a node has none, then descend to the extreme leaf of
 * what it found.  Next and prev are steps from the current position.
 * Nothing is read twice and nothing is retried: a slot found empty
 * (removed meanwhile) is passed over like any other empty slot.
 *
 * Correctness (docs/trie.md, "Ordered queries"): each node reached was
 * live at some moment of the call and each slot read holds what the live
 * trie held at some moment (I2, I3), and slots are visited in strictly
 * increasing (decreasing) order, so every key present throughout the
 * call that lies in the direction of the walk is met, in order, once.
 *
 * Deep paths.  The cache holds CDS_TRIE_ITER_DEPTH levels.  A deeper
 * path drops its oldest cached levels; they are found again, if a step
 * climbs that far, by a new seek for the first key after (before) the
 * dropped node's whole subtree, whose path the iterator knows from an
 * "anchor" key passing through it: the seek's target while the walk
 * follows it, the leaf the iterator stands on afterwards.  The one case
 * without an anchor is a single descent towards an extreme leaf that is
 * more than CDS_TRIE_ITER_DEPTH levels deep and finds, that deep, only
 * subtrees emptied while it looked: it then descends again into the
 * subtree it entered at its last anchored level (docs/trie.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rcutrie-internal.h"
#include "urcu-export.h"

/* Bounds of struct cds_trie_iter. */
enum { BOUND_NONE, BOUND_RANGE, BOUND_PREFIX };

/*
 * What a seek looks for: the bytes key[0..len), then extra if it is not
 * -1; with inf, followed by "+infinity" (greater than every key that
 * starts with those bytes).
 */
struct target {
	const unsigned char *key;
	size_t len;
	int extra;
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

static size_t target_len(const struct target *t)
{
	return t->len + (t->extra >= 0);
}

static unsigned int target_byte(const struct target *t, size_t i)
{
	return i < t->len ? t->key[i] : (unsigned int) t->extra;
}

/*
 * Where the keys below @n lie relative to @t, judging by @n's prefix:
 * -1 all below, 1 all above, 0 the prefix matches @t's bytes (which go
 * on at least to @n's depth).
 */
/*
 * prefix_cmp() for a plain key (no extra byte, no infinity): -1, 0 or 1
 * as there; a key that ends inside the prefix lies below the node.
 */
static inline int prefix_key_cmp(const struct trie_inner *n,
				 const unsigned char *key, size_t len)
{
	size_t start = inner_start(n), avail = len > start ? len - start : 0;
	uint32_t plen = n->prefix_len;
	int r;

	if (!plen)
		return 0;
	if (avail >= plen)
		return key_cmp(inner_prefix(n), plen, key + start, plen);
	r = key_cmp(inner_prefix(n), avail, key + start, avail);
	return r ? r : 1;
}

static int prefix_cmp(const struct trie_inner *n, const struct target *t)
{
	const unsigned char *p = inner_prefix(n);
	size_t start = inner_start(n), tl = target_len(t), i = 0, m;
	unsigned int c;
	int r;

	if (caa_likely(t->extra < 0 && !t->inf))
		return prefix_key_cmp(n, t->key, t->len);
	if (start < t->len) {
		m = t->len - start < n->prefix_len ? t->len - start : n->prefix_len;
		r = m ? memcmp(p, t->key + start, m) : 0;
		if (r)
			return r < 0 ? -1 : 1;
		i = m;
	}
	for (; i < n->prefix_len; i++) {
		if (start + i >= tl)
			return t->inf ? -1 : 1;
		c = target_byte(t, start + i);
		if (p[i] != c)
			return p[i] < c ? -1 : 1;
	}
	return 0;
}

/* Sign of @x's key minus @t. */
static int leaf_cmp(const struct cds_trie_node *x, const struct target *t)
{
	size_t tl = target_len(t);
	size_t m = x->key_len < t->len ? x->key_len : t->len;
	int r;

	if (caa_likely(t->extra < 0 && !t->inf))
		return key_cmp(x->key, x->key_len, t->key, t->len);
	r = key_cmp(x->key, m, t->key, m);
	if (r)
		return r;
	if (t->extra >= 0 && x->key_len > t->len && x->key[t->len] != t->extra)
		return x->key[t->len] < t->extra ? -1 : 1;
	if (x->key_len < tl)
		return -1;
	if (t->inf)
		return -1;
	return x->key_len > tl;
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
	it->lost = 0;
	it->div_valid = 0;
	it->anchor = anchor;
	it->anchor_len = anchor_len;
}

/* Drops the oldest cached level of a full path (file comment). */
static __attribute__((noinline)) void path_drop(struct cds_trie_iter *it)
{
	const unsigned int cap = CDS_TRIE_ITER_DEPTH;

	if (it->anchored == 1) {
		/* The unanchored levels hang from this slot. */
		it->div_depth = ((struct trie_inner *) it->path[0])->depth;
		it->div_slot = it->slot[0];
		it->div_valid = 1;
	}
	if (it->anchored <= 1)
		it->lost = 1;
	if (it->anchored)
		it->anchored--;
	memmove(it->path, it->path + 1, (cap - 1) * sizeof(it->path[0]));
	memmove(it->slot, it->slot + 1, (cap - 1) * sizeof(it->slot[0]));
	it->depth--;
	it->dropped = 1;
}

/* Pushes (@n, @slot); @anchored when @n's path is the anchor's start. */
static inline void push(struct cds_trie_iter *it, const struct trie_inner *n,
			int slot, bool anchored)
{
	if (caa_unlikely(it->depth == CDS_TRIE_ITER_DEPTH))
		path_drop(it);
	it->path[it->depth] = (void *) n;
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
	it->lost = 0;
	it->div_valid = 0;
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
			push(it, n, -1, false);
			s = end;
			break;
		}
		next = dir > 0 ? inner_next_child(n, -1, &c)
			       : inner_prev_child(n, 256, &c);
		if (!next && dir < 0 && end) {
			push(it, n, -1, false);
			s = end;
			break;
		}
		if (!next)
			return MOVE_STEP;
		push(it, n, c, false);
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
		r = prefix_cmp(n, t);
		if (!r && target_len(t) == n->depth && t->inf)
			r = -1;		/* the whole node starts with t */
		if (r) {
			/* The node lies wholly on one side of the target. */
			if (r * m->dir < 0)
				return MOVE_STEP;
			return extreme(it, s, m->dir, x);
		}
		if (target_len(t) == n->depth) {
			/* The end slot holds the target itself. */
			push(it, n, -1, true);
			s = inner_end(n);
			if (s && !m->strict) {
				*x = found(it, s);
				return MOVE_DONE;
			}
			return MOVE_STEP;
		}
		c = target_byte(t, n->depth);
		push(it, n, (int) c, true);
		s = inner_find_child(n, c);
		if (!s)
			return MOVE_STEP;
	}
}

/*
 * Sets up, in @m, the seek that replaces a step which climbed above the
 * cached levels; @popped_depth is the depth of the last node it left.
 */
static void fallback(const struct cds_trie_iter *it, int dir,
		     size_t popped_depth, struct move *m)
{
	m->seek = true;
	m->dir = dir;
	m->t.key = it->anchor;
	m->t.extra = -1;
	if (!it->lost) {
		/* First key after (last before) the popped node's subtree. */
		m->t.len = popped_depth;
		m->t.inf = dir > 0;
		m->strict = true;
	} else if (it->div_valid) {
		/* Descend again into the subtree entered last (comment). */
		m->t.len = it->div_depth;
		m->t.extra = it->div_slot;
		m->t.inf = dir < 0;
		m->strict = false;
	} else {
		/* That subtree is the whole trie. */
		m->t.len = 0;
		m->t.inf = dir < 0;
		m->strict = false;
	}
}

static enum move_state step(struct cds_trie_iter *it, struct move *m,
			    struct cds_trie_node **x)
{
	size_t popped_depth = 0;
	const struct trie_inner *n;
	unsigned int top;
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
		n = it->path[top];
		if (m->dir > 0) {
			s = inner_next_child(n, it->slot[top], &c);
		} else if (it->slot[top] >= 0) {
			s = inner_prev_child(n, it->slot[top], &c);
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
 * Queries without an iterator: the same seek and step, for a plain key,
 * on a path kept on the stack with no anchor bookkeeping.  A path deeper
 * than FAST_DEPTH levels hands the query to the iterator engine above,
 * which starts again from the root (the only second descent, and only
 * for paths that deep).
 */

#define FAST_DEPTH	48

struct fast_path {
	unsigned int depth;
	bool overflow;
	/*
	 * For the deepest level pushed by the descent, when it is a 4/16
	 * node: the position of the nearest byte beyond its slot in the
	 * query's direction (found by the same scan that looked for the
	 * slot), -1 when there is none; -2 when not known.
	 */
	int near;
	const struct trie_inner *node[FAST_DEPTH];
	short slot[FAST_DEPTH];
};

static inline bool fast_push(struct fast_path *p, const struct trie_inner *n,
			     int slot)
{
	if (caa_unlikely(p->depth == FAST_DEPTH)) {
		p->overflow = true;
		return false;
	}
	p->node[p->depth] = n;
	p->slot[p->depth] = (short) slot;
	p->depth++;
	return true;
}

/*
 * The fast path is inlined into one function per direction (dir is then
 * a constant): see fast_up() and fast_down().
 */
#define FAST_INLINE	static inline __attribute__((always_inline))

/* extreme() on a fast path: the leaf, or NULL (empty or overflow). */
FAST_INLINE struct cds_trie_node *fast_extreme(struct fast_path *p, uintptr_t s,
					  int dir)
{
	const struct trie_inner *n;
	uintptr_t next, end;
	int c;

	while (!slot_is_leaf(s)) {
		n = slot_inner(s);
		end = inner_end(n);
		if (dir > 0 && end)
			return fast_push(p, n, -1) ? slot_leaf(end) : NULL;
		next = dir > 0 ? inner_next_child(n, -1, &c)
			       : inner_prev_child(n, 256, &c);
		if (!next) {
			if (dir < 0 && end)
				return fast_push(p, n, -1) ? slot_leaf(end) : NULL;
			return NULL;
		}
		if (!fast_push(p, n, c))
			return NULL;
		s = next;
	}
	return slot_leaf(s);
}

/*
 * The child of byte @c in @n, and for a 4/16 node also, in the same pass
 * over its key bytes, p->near (see struct fast_path).
 */
FAST_INLINE uintptr_t fast_find(const struct trie_inner *n, unsigned int c,
				int dir, struct fast_path *p)
{
	const uint8_t *bytes;
	const uintptr_t *child;
	union trie_keys16 k16;
	union trie_keys4 k4;
	unsigned int nr, i;
	int match = -1, near = -1, b, best = dir > 0 ? 256 : -1;

	check_inner(n);
	if (n->type == TRIE_N4) {
		const struct trie_body4 *body = inner_body(n);

		nr = load_nr_used(n);
		k4 = load_keys4(body);
		bytes = k4.b;
		child = body->child;
	} else if (n->type == TRIE_N16) {
		const struct trie_body16 *body = inner_body(n);

		nr = load_nr_used(n);
		k16 = load_keys16(body);
		bytes = k16.b;
		child = body->child;
	} else {
		p->near = -2;
		return inner_find_child(n, c);
	}
	for (i = 0; i < nr; i++) {
		b = bytes[i];
		if (b == (int) c)
			match = (int) i;
		else if (dir > 0 ? (b > (int) c && b < best)
				 : (b < (int) c && b > best)) {
			best = b;
			near = (int) i;
		}
	}
	p->near = near;
	return match >= 0 ? load_slot(&child[match]) : 0;
}

/* Child at position @pos of 4/16 node @n (0 if removed); its byte in *@c. */
static inline uintptr_t fast_near(const struct trie_inner *n, int pos, int *c)
{
	const uintptr_t *child;
	union trie_keys16 k16;
	union trie_keys4 k4;

	if (n->type == TRIE_N4) {
		const struct trie_body4 *body = inner_body(n);

		k4 = load_keys4(body);
		*c = k4.b[pos];
		child = body->child;
	} else {
		const struct trie_body16 *body = inner_body(n);

		k16 = load_keys16(body);
		*c = k16.b[pos];
		child = body->child;
	}
	return load_slot(&child[pos]);
}

/* step() on a fast path. */
FAST_INLINE struct cds_trie_node *fast_step(struct fast_path *p, int dir)
{
	struct cds_trie_node *x;
	const struct trie_inner *n;
	unsigned int top;
	uintptr_t s;
	int c, near = p->near;

	/* The deepest level first, with the neighbour the descent found. */
	if (p->depth && near != -2) {
		top = p->depth - 1;
		n = p->node[top];
		s = near >= 0 ? fast_near(n, near, &c) : 0;
		if (s) {
			p->slot[top] = (short) c;
			x = fast_extreme(p, s, dir);
			if (x || p->overflow)
				return x;
			/* Emptied meanwhile: the loop goes on from there. */
		} else if (near == -1) {
			/* No child beyond: the end slot comes before them all. */
			if (dir < 0 && (s = inner_end(n)))
				return slot_leaf(s);
			p->depth = top;
		}
		/* A near child removed meanwhile: the loop scans the node. */
	}
	while (p->depth) {
		top = p->depth - 1;
		n = p->node[top];
		if (dir > 0) {
			s = inner_next_child(n, p->slot[top], &c);
		} else if (p->slot[top] >= 0) {
			s = inner_prev_child(n, p->slot[top], &c);
			if (!s && (s = inner_end(n)))
				return slot_leaf(s);
		} else {
			s = 0;
		}
		if (s) {
			p->slot[top] = (short) c;
			x = fast_extreme(p, s, dir);
			if (x || p->overflow)
				return x;
			continue;
		}
		p->depth = top;
	}
	return NULL;
}

/* seek() for a plain key; NULL with p->overflow set: path too deep. */
FAST_INLINE struct cds_trie_node *fast_seek(struct cds_trie *trie,
				       const unsigned char *key, size_t len,
				       int dir, bool strict, struct fast_path *p)
{
	uintptr_t s = load_slot(&trie->root);
	const struct trie_inner *n;
	struct cds_trie_node *x;
	unsigned int c;
	int r;

	p->depth = 0;
	p->overflow = false;
	p->near = -2;
	while (s) {
		if (slot_is_leaf(s)) {
			x = slot_leaf(s);
			r = key_cmp(x->key, x->key_len, key, len);
			if (r * dir > 0 || (!r && !strict))
				return x;
			break;
		}
		n = slot_inner(s);
		check_inner(n);
		r = prefix_key_cmp(n, key, len);
		if (r) {
			if (r * dir < 0)
				break;
			p->near = -2;
			x = fast_extreme(p, s, dir);
			if (x || p->overflow)
				return x;
			break;
		}
		if (len == n->depth) {
			p->near = -2;
			if (!fast_push(p, n, -1))
				return NULL;
			s = inner_end(n);
			if (s && !strict)
				return slot_leaf(s);
			break;
		}
		c = key[n->depth];
		if (!fast_push(p, n, (int) c))
			return NULL;
		s = fast_find(n, c, dir, p);
	}
	return fast_step(p, dir);
}

/* ------------------------------------------------------------------------
 * The API.
 */

static void iter_start(struct cds_trie_iter *it, struct cds_trie *trie)
{
	it->trie = trie;
	it->node = NULL;
	it->bound = BOUND_NONE;
}

static struct cds_trie_node *seek_from(struct cds_trie *trie,
		struct cds_trie_iter *iter, const void *key, size_t len,
		int dir, bool strict, bool inf)
{
	struct cds_trie_iter local;
	struct cds_trie_iter *it = iter ? iter : &local;
	struct move m = {
		.seek = true, .dir = dir, .strict = strict,
		.t = { .key = key, .len = len, .extra = -1, .inf = inf },
	};

	iter_start(it, trie);
	return move(it, &m);
}

static struct cds_trie_node *fast_up(struct cds_trie *trie,
		const unsigned char *key, size_t len, bool strict,
		struct fast_path *p)
{
	return fast_seek(trie, key, len, 1, strict, p);
}

static struct cds_trie_node *fast_down(struct cds_trie *trie,
		const unsigned char *key, size_t len, bool strict,
		struct fast_path *p)
{
	return fast_seek(trie, key, len, -1, strict, p);
}

/* A neighbour query: on the fast path when no iterator is wanted. */
static inline struct cds_trie_node *neighbour(struct cds_trie *trie,
		struct cds_trie_iter *iter, const void *key, size_t len,
		int dir, bool strict)
{
	struct cds_trie_node *x;
	struct fast_path p;

	if (iter)
		return seek_from(trie, iter, key, len, dir, strict, false);
	x = dir > 0 ? fast_up(trie, key, len, strict, &p)
		    : fast_down(trie, key, len, strict, &p);
	if (caa_unlikely(p.overflow))
		return seek_from(trie, NULL, key, len, dir, strict, false);
	return x;
}

URCU_API struct cds_trie_node *cds_trie_lookup_le(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_le");
	return neighbour(trie, iter, key, len, -1, false);
}

URCU_API struct cds_trie_node *cds_trie_lookup_lt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_lt");
	return neighbour(trie, iter, key, len, -1, true);
}

URCU_API struct cds_trie_node *cds_trie_lookup_ge(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_ge");
	return neighbour(trie, iter, key, len, 1, false);
}

URCU_API struct cds_trie_node *cds_trie_lookup_gt(struct cds_trie *trie,
		const void *key, size_t len, struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_lookup_gt");
	return neighbour(trie, iter, key, len, 1, true);
}

URCU_API struct cds_trie_node *cds_trie_first(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_first");
	return seek_from(trie, iter, NULL, 0, 1, false, false);
}

URCU_API struct cds_trie_node *cds_trie_last(struct cds_trie *trie,
		struct cds_trie_iter *iter)
{
	cds__trie_check_reader(trie, "cds_trie_last");
	/* Every key starts with the empty string: all lie below it + inf. */
	return seek_from(trie, iter, NULL, 0, -1, false, true);
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
	x = seek_from(trie, iter, lo, lo_len, 1, false, false);
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
	x = seek_from(trie, iter, prefix, len, 1, false, false);
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
