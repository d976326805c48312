/*
 * rcutrie-internal.h: the trie's node layouts and the accessors shared by
 * its files.
 *
 *   rcutrie-node.c     inner nodes seen by writers: building, copying,
 *                      in-place insertion and removal of children (the
 *                      readers' scans are inline below);
 *   rcutrie-lookup.c   exact and longest-prefix lookups;
 *   rcutrie-order.c    ordered queries and walks (<=, <, >=, >, first,
 *                      last, next, prev, ranges, prefixes, count);
 *   rcutrie-insert.c   add, add_unique, add_replace, replace;
 *   rcutrie-delete.c   del, and the merges and shrinks that follow it;
 *   rcutrie-mem.c      creation, destruction, memory, and the deferred
 *                      freeing of replaced inner nodes.
 *
 * docs/trie.md describes the structure and proves its guarantees from
 * the numbered invariants below; the files refer to them as (I1)...
 *
 * Shape.  An adaptive radix tree.  A slot (the root, a child, or an
 * inner node's "end" slot) holds 0, a pointer to an inner node, or a
 * pointer to a caller's struct cds_trie_node with bit 0 set: the first
 * node of a key's duplicate chain (a "leaf").  An inner node at depth d
 * branches on byte d of the keys below it; all of them share their
 * first d bytes, its "path".  The node stores the part of its path below
 * its parent (its prefix, prefix_len bytes, ending at byte d - 1), so
 * that a walk knows where it is without reading any leaf.  Child c of a
 * node at depth d holds the keys whose byte d is c; the end slot holds
 * the key of length d, if any.  Four node types of 4, 16, 48 and 256
 * children; only the type of a node decides its body's layout.
 *
 * Invariants:
 *  (I1) A node's type, depth, prefix and path never change once it is
 *       published; every key ever reachable below it starts with its
 *       path.
 *  (I2) A node is "live" until it is marked obsolete, which happens,
 *       under its lock, in the same locked step that stores its
 *       replacement (or 0) in the live slot that pointed to it.  Live
 *       nodes are exactly the inner nodes reachable from the root
 *       through live nodes.
 *  (I3) Every write to a node's slots, key bytes, bitmap or counters is
 *       made under its lock by a writer that found it live.  So an
 *       obsolete node never changes again: it is a snapshot of its slots
 *       at the moment it was replaced, and its children (shared with its
 *       replacement, never copied) go on living.
 *  (I4) An in-place change is a single release store of one slot (after
 *       the bytes that locate it, if new, are in place): a reader sees
 *       it entirely or not at all.  A position of a 4/16/48-node, once
 *       given to byte c, stays c's for the node's lifetime (a removed
 *       child leaves a "tombstone" that only c can reuse), so a reader
 *       never pairs a byte with another byte's child.
 *  (I5) Any other change (grow, shrink, prefix split, merge of a node
 *       whose only entry is an inner node with it, removal of an empty
 *       node) builds new nodes privately and publishes them with one
 *       release store in the parent's slot, locking parent then child
 *       (top down).
 *       Replaced nodes are freed after a grace period (rcutrie-mem.c).
 *  (I6) A key's chain is changed only under the lock of the live node
 *       whose slot holds it (the trie's root lock for the root slot).
 *       Removing a chain node never changes that node's own next
 *       pointer.
 *  (I7) A live node is empty only from the in-place removal of its
 *       last entry until the cleanup that the same del runs next, which
 *       removes it from its parent; no copy is ever made of an empty
 *       node.  Readers take an empty subtree as holding no key.
 *
 * Readers take no lock: they follow slots with acquire (consume) loads,
 * which pair with the release stores of (I4) and (I5), so that a node or
 * leaf is seen as initialized.  Writers walk the same way, then lock the
 * node(s) they change and check that they are still live (a writer
 * finding a node obsolete starts again from the root).
 */
#ifndef CDS_SRC_RCUTRIE_INTERNAL_H
#define CDS_SRC_RCUTRIE_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <urcu/arch.h>
#include <urcu/assert.h>
#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/rcutrie.h>

struct trie_inner;

/* ------------------------------------------------------------------------
 * Slots.
 */

#define SLOT_LEAF	((uintptr_t) 1)

static inline bool slot_is_leaf(uintptr_t s)
{
	return s & SLOT_LEAF;
}

static inline struct cds_trie_node *slot_leaf(uintptr_t s)
{
	return (struct cds_trie_node *) (s & ~SLOT_LEAF);
}

static inline struct trie_inner *slot_inner(uintptr_t s)
{
	return (struct trie_inner *) s;
}

static inline uintptr_t leaf_slot(struct cds_trie_node *node)
{
	return (uintptr_t) node | SLOT_LEAF;
}

/*
 * Reads a slot.  Consume: pairs with the release store that published
 * the node or leaf it points to (I4, I5), so its contents are seen as
 * initialized.
 */
static inline uintptr_t load_slot(const uintptr_t *slot)
{
	return __atomic_load_n(slot, __ATOMIC_CONSUME);
}

/* Publishes @v in @slot: release, paired with load_slot(). */
static inline void publish_slot(uintptr_t *slot, uintptr_t v)
{
	__atomic_store_n(slot, v, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------
 * Caller's nodes.
 */

/* struct cds_trie_node.state; written under the chain's lock (I6). */
#define NODE_LINKED	1UL
#define NODE_DELETED	2UL

static inline unsigned long node_state(const struct cds_trie_node *node)
{
	/* Relaxed: a hint for callers; writers read it under the lock. */
	return __atomic_load_n(&node->state, __ATOMIC_RELAXED);
}

static inline void set_node_state(struct cds_trie_node *node, unsigned long v)
{
	/* Relaxed: read back under the same lock, or as a hint. */
	__atomic_store_n(&node->state, v, __ATOMIC_RELAXED);
}

/* The next duplicate; consume, paired with the release that linked it. */
static inline struct cds_trie_node *load_next(const struct cds_trie_node *node)
{
	return __atomic_load_n(&node->next, __ATOMIC_CONSUME);
}

/* Loads 8 bytes at @p so that integer order is byte order. */
static inline uint64_t load_be64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/*
 * memcmp order of two keys, a proper prefix first: -1, 0 or 1.  Eight
 * bytes at a time, inline: keys are short and this runs once per lookup.
 */
static inline int key_cmp(const unsigned char *a, size_t alen,
			  const unsigned char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	uint64_t x, y;

	if (n >= 8) {
		for (; i + 8 <= n; i += 8) {
			x = load_be64(a + i);
			y = load_be64(b + i);
			if (x != y)
				return x < y ? -1 : 1;
		}
		/* The tail, as the last 8 bytes: those before it are equal. */
		if (i < n) {
			x = load_be64(a + n - 8);
			y = load_be64(b + n - 8);
			if (x != y)
				return x < y ? -1 : 1;
		}
	} else {
		for (; i < n; i++)
			if (a[i] != b[i])
				return a[i] < b[i] ? -1 : 1;
	}
	return alen < blen ? -1 : alen > blen;
}

/*
 * Whether @len bytes at @a and @b are equal: OR of XORs of overlapping
 * 8-, 4-, 2-byte loads and one branch at the end, so that the key's
 * length, which varies from lookup to lookup, costs no mispredicted loop
 * exit (an exact lookup's final check).
 */
static inline bool key_eq(const unsigned char *a, const unsigned char *b,
			  size_t len)
{
	uint64_t x, y, diff = 0;
	uint32_t u, v;
	uint16_t p, q;
	size_t i;

	if (len >= 8) {
		for (i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			diff |= x ^ y;
		}
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return !(diff | (x ^ y));
	}
	if (len >= 4) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		diff = u ^ v;
		memcpy(&u, a + len - 4, 4);
		memcpy(&v, b + len - 4, 4);
		return !(diff | (u ^ v));
	}
	if (len >= 2) {
		memcpy(&p, a, 2);
		memcpy(&q, b, 2);
		diff = (uint16_t) (p ^ q);
		memcpy(&p, a + len - 2, 2);
		memcpy(&q, b + len - 2, 2);
		return !(diff | (uint16_t) (p ^ q));
	}
	return !len || a[0] == b[0];
}

/* ------------------------------------------------------------------------
 * Inner nodes.
 */

enum trie_type { TRIE_N4, TRIE_N16, TRIE_N48, TRIE_N256, TRIE_NR_TYPES };

/* Lock word (struct trie_inner.lock, struct cds_trie.root_lock). */
#define TRIE_LOCKED	1U
#define TRIE_OBSOLETE	2U

/*
 * Header of every inner node, followed by the body of its type at a
 * fixed offset (a lookup computes a child's address without waiting for
 * anything but the node's address), then prefix_len prefix bytes.
 */
struct trie_inner {
	uint32_t lock;		/* TRIE_LOCKED | TRIE_OBSOLETE (atomic) */
	uint8_t type;		/* enum trie_type, fixed */
	/*
	 * 4/16: positions in use; 48: child positions in use.  Atomic:
	 * readers of 4/16 nodes load it (acquire) before the key bytes.
	 */
	uint8_t nr_used;
	uint16_t count;		/* live children; writers, under the lock */
	uint32_t depth;		/* byte this node branches on, fixed */
	uint32_t prefix_len;	/* fixed */
	uintptr_t end;		/* leaf of the key of length depth, or 0 */
	struct trie_inner *retire_next;	/* rcutrie-mem.c */
};

/* 4 children: key bytes of positions 0..3, unsorted. */
struct trie_body4 {
	union trie_keys4 { uint32_t w; uint8_t b[4]; } keys;
	uint32_t pad;
	uintptr_t child[4];
};

/* 16 children: key bytes of positions 0..15, unsorted. */
struct trie_body16 {
	union trie_keys16 { uint64_t w[2]; uint8_t b[16]; } keys;
	uintptr_t child[16];
};

/*
 * 48 children: index[c] is 1 + the position of byte c's child, 0 when c
 * never had one; bitmap bit c is set while c's child is in the node (a
 * hint for ordered scans, set after the child and cleared before it).
 */
struct trie_body48 {
	uint8_t index[256];
	uintptr_t child[48];
	uint64_t bitmap[4];
};

/* 256 children, indexed by byte; bitmap as for 48. */
struct trie_body256 {
	uintptr_t child[256];
	uint64_t bitmap[4];
};

static const unsigned int trie_capacity[TRIE_NR_TYPES] = { 4, 16, 48, 256 };

static const unsigned int trie_body_size[TRIE_NR_TYPES] = {
	sizeof(struct trie_body4), sizeof(struct trie_body16),
	sizeof(struct trie_body48), sizeof(struct trie_body256),
};

static inline void *inner_body(const struct trie_inner *n)
{
	return (void *) (n + 1);
}

static inline unsigned char *inner_prefix(const struct trie_inner *n)
{
	return (unsigned char *) (n + 1) + trie_body_size[n->type];
}

/* Depth of the first prefix byte: where the node's parent slot ends. */
static inline size_t inner_start(const struct trie_inner *n)
{
	return n->depth - n->prefix_len;
}

static inline uintptr_t inner_end(const struct trie_inner *n)
{
	return load_slot(&n->end);
}

static inline unsigned int load_nr_used(const struct trie_inner *n)
{
	/*
	 * Acquire: pairs with the release store in insert_child()
	 * (rcutrie-node.c) that counts a position once its key byte and
	 * child are written, so positions below it are seen filled.
	 */
	return __atomic_load_n(&n->nr_used, __ATOMIC_ACQUIRE);
}

static inline void check_inner(const struct trie_inner *n)
{
	/* Debug builds poison freed nodes: a reader reaching one aborts. */
	urcu_assert_debug(n->type < TRIE_NR_TYPES);
	(void) n;
}

/* Relaxed loads of key words: the positions read are ordered by nr_used. */
static inline union trie_keys4 load_keys4(const struct trie_body4 *b)
{
	union trie_keys4 k;

	k.w = __atomic_load_n(&b->keys.w, __ATOMIC_RELAXED);
	return k;
}

static inline union trie_keys16 load_keys16(const struct trie_body16 *b)
{
	union trie_keys16 k;

	k.w[0] = __atomic_load_n(&b->keys.w[0], __ATOMIC_RELAXED);
	k.w[1] = __atomic_load_n(&b->keys.w[1], __ATOMIC_RELAXED);
	return k;
}

/*
 * One bit per byte of @w equal to @c (bit i for the byte at address
 * offset i), without a loop: the high bit of each zero byte of w ^ c*0x01
 * (exact, no carries), gathered by a multiply.
 */
static inline unsigned int match8(uint64_t w, unsigned int c)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
	uint64_t x = w ^ (0x0101010101010101ULL * c);
	uint64_t z = ~(((x & lo7) + lo7) | x | lo7) >> 7;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Byte i's bit is at 8i; the multiply moves it to bit 56 + i. */
	return (unsigned int) ((z * 0x0102040810204080ULL) >> 56);
#else
	/* Byte i's bit is at 8(7 - i); move it to bit 56 + i. */
	return (unsigned int) ((z * 0x8040201008040201ULL) >> 56);
#endif
}

/* match8() of the 4 key bytes of a 4-node. */
static inline unsigned int match4(uint32_t w, unsigned int c)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return match8(w, c) & 0xf;
#else
	return match8((uint64_t) w << 32, c) & 0xf;
#endif
}

/* Positions (bits) of a 16-byte key array holding @c, below @nr. */
static inline unsigned int match16(const union trie_keys16 *k, unsigned int c,
				   unsigned int nr)
{
	unsigned int mask = match8(k->w[0], c) | (match8(k->w[1], c) << 8);

	return mask & ((1U << nr) - 1);
}

/* Acquire: pairs with the release that set or cleared the bit. */
static inline uint64_t load_bitmap(const uint64_t *bitmap, unsigned int word)
{
	return __atomic_load_n(&bitmap[word], __ATOMIC_ACQUIRE);
}

/*
 * Acquire: pairs with the release store of index[c] in insert_child(),
 * made after the child it points to.
 */
static inline unsigned int load_index(const struct trie_body48 *b, unsigned int c)
{
	return __atomic_load_n(&b->index[c], __ATOMIC_ACQUIRE);
}

/*
 * Address of the slot of byte @c in @n (its child, 0, or a tombstone),
 * or NULL when @c has no position.  Positions never move (I4), so the
 * address stays byte @c's for the node's lifetime.
 */
static inline __attribute__((always_inline))
uintptr_t *inner_child_slot(const struct trie_inner *n, unsigned int c)
{
	check_inner(n);
	switch (n->type) {
	case TRIE_N4: {
		struct trie_body4 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys4 k = load_keys4(b);
		unsigned int m = match4(k.w, c) & ((1U << nr) - 1);

		/* At most one position per byte (I4). */
		return m ? &b->child[__builtin_ctz(m)] : NULL;
	}
	case TRIE_N16: {
		struct trie_body16 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys16 k = load_keys16(b);
		unsigned int m = match16(&k, c, nr);

		/* At most one position per byte (I4). */
		return m ? &b->child[__builtin_ctz(m)] : NULL;
	}
	case TRIE_N48: {
		struct trie_body48 *b = inner_body(n);
		unsigned int i = load_index(b, c);

		return i ? &b->child[i - 1] : NULL;
	}
	default: {
		struct trie_body256 *b = inner_body(n);

		return &b->child[c];
	}
	}
}

/* The child of @n for byte @c, or 0. */
static inline __attribute__((always_inline))
uintptr_t inner_find_child(const struct trie_inner *n, unsigned int c)
{
	uintptr_t *slot = inner_child_slot(n, c);

	return slot ? load_slot(slot) : 0;
}

/*
 * Live children of @n.  Relaxed: exact under the node's lock, a hint
 * otherwise (writers deciding whether to try a merge or a shrink).
 */
static inline unsigned int inner_count(const struct trie_inner *n)
{
	return __atomic_load_n(&n->count, __ATOMIC_RELAXED);
}

static inline void set_inner_count(struct trie_inner *n, unsigned int v)
{
	/* Relaxed: see inner_count(). */
	__atomic_store_n(&n->count, (uint16_t) v, __ATOMIC_RELAXED);
}

/*
 * Ordered scans: the nonempty child of @n with the smallest byte above
 * @after (-1: any) / the greatest byte below @before (256: any).  Return
 * the slot and store the byte in *@c, or return 0.  The scan reads each
 * candidate once; children added or removed meanwhile may or may not be
 * seen, children present throughout are.  Inline: they sit on the path
 * of every neighbour query.
 */
/* First bit set at or after @from (0..256) in a 256-bit bitmap, or -1. */
static inline int bitmap_next(const uint64_t *bitmap, int from)
{
	int w;

	for (w = from / 64; w < 4; w++) {
		uint64_t x = load_bitmap(bitmap, (unsigned int) w);

		if (w == from / 64)
			x &= ~0ULL << (from % 64);
		if (x)
			return w * 64 + __builtin_ctzll(x);
	}
	return -1;
}

/* Last bit set at or before @upto (-1..255), or -1. */
static inline int bitmap_prev(const uint64_t *bitmap, int upto)
{
	int w;

	for (w = upto < 0 ? -1 : upto / 64; w >= 0; w--) {
		uint64_t x = load_bitmap(bitmap, (unsigned int) w);

		if (w == upto / 64)
			x &= ~0ULL >> (63 - upto % 64);
		if (x)
			return w * 64 + 63 - __builtin_clzll(x);
	}
	return -1;
}

/*
 * 4/16 nodes: among positions below @nr whose byte lies strictly between
 * @lo and @hi, the one with the smallest (@up) or greatest byte and a
 * nonempty child.  One pass finds the best byte; a tombstone there
 * (rare) shrinks the interval past it and tries again.
 */
static inline uintptr_t scan_small(const uint8_t *bytes, const uintptr_t *child,
			    unsigned int nr, int lo, int hi, bool up, int *c)
{
	unsigned int i, best;
	uintptr_t s;
	int b;

	for (;;) {
		best = nr;
		for (i = 0; i < nr; i++) {
			b = bytes[i];
			if (b > lo && b < hi
			    && (best == nr || (up ? b < bytes[best] : b > bytes[best])))
				best = i;
		}
		if (best == nr)
			return 0;
		s = load_slot(&child[best]);
		if (s) {
			*c = bytes[best];
			return s;
		}
		if (up)
			lo = bytes[best];
		else
			hi = bytes[best];
	}
}

/* 48/256 nodes: the child of byte @c, 0 if none (bit set, child going). */
static inline uintptr_t big_child(const struct trie_inner *n, int c)
{
	if (n->type == TRIE_N48) {
		const struct trie_body48 *b = inner_body(n);
		unsigned int i = load_index(b, (unsigned int) c);

		return i ? load_slot(&b->child[i - 1]) : 0;
	} else {
		const struct trie_body256 *b = inner_body(n);

		return load_slot(&b->child[c]);
	}
}

/* Bitmap of a 48/256 node (same offset in both bodies). */
static inline const uint64_t *big_bitmap(const struct trie_inner *n)
{
	if (n->type == TRIE_N48)
		return ((const struct trie_body48 *) inner_body(n))->bitmap;
	return ((const struct trie_body256 *) inner_body(n))->bitmap;
}

static inline uintptr_t inner_next_child(const struct trie_inner *n, int after,
					 int *c)
{
	check_inner(n);
	switch (n->type) {
	case TRIE_N4: {
		const struct trie_body4 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys4 k = load_keys4(b);

		return scan_small(k.b, b->child, nr, after, 256, true, c);
	}
	case TRIE_N16: {
		const struct trie_body16 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys16 k = load_keys16(b);

		return scan_small(k.b, b->child, nr, after, 256, true, c);
	}
	default: {
		const uint64_t *bitmap = big_bitmap(n);
		int x;

		for (x = bitmap_next(bitmap, after + 1); x >= 0;
		     x = x < 255 ? bitmap_next(bitmap, x + 1) : -1) {
			uintptr_t s = big_child(n, x);

			if (s) {
				*c = x;
				return s;
			}
		}
		return 0;
	}
	}
}

static inline uintptr_t inner_prev_child(const struct trie_inner *n, int before,
					 int *c)
{
	check_inner(n);
	switch (n->type) {
	case TRIE_N4: {
		const struct trie_body4 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys4 k = load_keys4(b);

		return scan_small(k.b, b->child, nr, -1, before, false, c);
	}
	case TRIE_N16: {
		const struct trie_body16 *b = inner_body(n);
		unsigned int nr = load_nr_used(n);
		union trie_keys16 k = load_keys16(b);

		return scan_small(k.b, b->child, nr, -1, before, false, c);
	}
	default: {
		const uint64_t *bitmap = big_bitmap(n);
		int x;

		for (x = bitmap_prev(bitmap, before - 1); x >= 0;
		     x = bitmap_prev(bitmap, x - 1)) {
			uintptr_t s = big_child(n, x);

			if (s) {
				*c = x;
				return s;
			}
		}
		return 0;
	}
	}
}

/* ------------------------------------------------------------------------
 * Locks.  Writers only.  Acquire on taking, release on leaving: the
 * previous holder's writes are seen by the next.
 */

static inline void lock_backoff(unsigned int *spins)
{
	if (++*spins < 128)
		caa_cpu_relax();
	else
		sched_yield();
}

/* Takes @lock; false (not taken) when the node is obsolete. */
static inline bool trie_lock(uint32_t *lock)
{
	unsigned int spins = 0;
	uint32_t v;

	for (;;) {
		/*
		 * Acquire: a writer that sees TRIE_OBSOLETE restarts from
		 * the root and must then see the replacement, stored (release)
		 * before the obsolete mark was.
		 */
		v = __atomic_load_n(lock, __ATOMIC_ACQUIRE);
		if (v & TRIE_OBSOLETE)
			return false;
		if (!(v & TRIE_LOCKED)
		    && __atomic_compare_exchange_n(lock, &v, v | TRIE_LOCKED,
				false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
		lock_backoff(&spins);
	}
}

static inline void trie_unlock(uint32_t *lock)
{
	/* Release: see above. */
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Leaves a locked node obsolete (I2): nobody locks it again. */
static inline void trie_unlock_obsolete(uint32_t *lock)
{
	/* Release: orders the replacement's publication before the mark. */
	__atomic_store_n(lock, TRIE_OBSOLETE, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------------
 * The trie.
 */

/* Replaced inner nodes waiting for a grace period (rcutrie-mem.c). */
struct trie_reclaim {
	pthread_mutex_t lock;
	struct trie_inner *pending;	/* retired, no grace period started */
	struct trie_inner *inflight;	/* their grace period is running */
	bool queued;			/* head is queued with call_rcu */
	struct rcu_head head;
};

struct cds_trie {
	/* Read by every operation; the lock by writers of the root slot. */
	uintptr_t root;
	uint32_t root_lock;
	const struct rcu_flavor_struct *flavor;
	struct cds_trie_alloc alloc;	/* .malloc NULL: library allocator */
	/* Keeps the reclamation list's writes off the root's cache line. */
	char pad[CAA_CACHE_LINE_SIZE];
	struct trie_reclaim reclaim;
};

/* Debug builds: aborts when @what was called outside a read-side section. */
void cds__trie_check_reader_debug(const struct cds_trie *trie, const char *what);

static inline void cds__trie_check_reader(const struct cds_trie *trie,
					  const char *what)
{
#ifdef URCU_DEBUG
	cds__trie_check_reader_debug(trie, what);
#else
	(void) trie;
	(void) what;
#endif
}

/* Debug builds: abort on misuse described by @msg; release: nothing. */
void cds__trie_misuse(const char *what, const char *msg);

/* ------------------------------------------------------------------------
 * Writer side (rcutrie-node.c, rcutrie-mem.c).
 */

/* Live children of a node, in increasing byte order, and its end slot. */
struct trie_entries {
	unsigned int nr;
	uintptr_t end;
	uint8_t byte[256];
	uintptr_t slot[256];
};

/* Bytes of a node of @type with a prefix of @prefix_len bytes. */
size_t cds__trie_inner_size(unsigned int type, uint32_t prefix_len);

/* The smallest type holding @nr children. */
unsigned int cds__trie_type_for(unsigned int nr);

/*
 * A new unpublished node (zeroed, header set, prefix and children to
 * fill), or NULL when out of memory.
 */
struct trie_inner *cds__trie_inner_new(struct cds_trie *trie, unsigned int type,
				       uint32_t depth, uint32_t prefix_len);

/* Frees a node that was never published. */
void cds__trie_inner_free_now(struct cds_trie *trie, struct trie_inner *n);

/*
 * Hands an obsolete node, unreachable from live nodes, to the deferred
 * freeing: it is freed after a grace period.
 */
void cds__trie_retire(struct cds_trie *trie, struct trie_inner *n);

/* Fills an unpublished node's children from @e (which must fit). */
void cds__trie_fill(struct trie_inner *n, const struct trie_entries *e);

/* Reads the live children of @n (locked, or unpublished) into @e. */
void cds__trie_collect(const struct trie_inner *n, struct trie_entries *e);

/* Adds child @s for byte @c (absent from @e) to @e, keeping the order. */
void cds__trie_entries_add(struct trie_entries *e, unsigned int c, uintptr_t s);

/*
 * Address of the slot of byte @c in locked @n: its position, live or a
 * tombstone, or NULL when @c has none.
 */
uintptr_t *cds__trie_child_slot(struct trie_inner *n, unsigned int c);

/* Whether byte @c (which has no live child) fits in locked @n in place. */
bool cds__trie_can_insert(struct trie_inner *n, unsigned int c);

/*
 * Gives byte @c the child @s in locked @n, in place (I4); the caller
 * checked with cds__trie_can_insert().
 */
void cds__trie_insert_child(struct trie_inner *n, unsigned int c, uintptr_t s);

/* Removes byte @c's live child from locked @n, in place. */
void cds__trie_remove_child(struct trie_inner *n, unsigned int c);

/*
 * Live entries of @n: its children plus its end slot if used.  Exact
 * under the node's lock, a hint otherwise.
 */
static inline unsigned int inner_entries(const struct trie_inner *n)
{
	/* Relaxed: as inner_count(). */
	return inner_count(n) + (__atomic_load_n(&n->end, __ATOMIC_RELAXED) != 0);
}

/* ------------------------------------------------------------------------
 * Writers' walk (rcutrie-walk.c).
 */

/* Where a writer's walk for a key stopped. */
enum trie_stop {
	STOP_EMPTY,	/* the root slot is empty */
	STOP_LEAF,	/* a child (or the root) slot holds a leaf */
	STOP_SPLIT,	/* the key leaves the node's prefix at mismatch */
	STOP_END,	/* the key ends at the node's depth */
	STOP_NO_CHILD,	/* the node has no child for the key's byte c */
};

struct trie_wpos {
	enum trie_stop stop;
	/*
	 * SPLIT, END, NO_CHILD: the node reached, and the slot leading to
	 * it with that slot's holder (NULL: the root slot).  LEAF: the
	 * leaf's holder (NULL: the root slot) in node.
	 */
	struct trie_inner *node;
	struct trie_inner *parent;
	uintptr_t *parent_slot;
	uintptr_t *slot;	/* EMPTY, LEAF: the slot; END: the end slot */
	uintptr_t value;	/* LEAF, END: the slot as read */
	size_t slot_depth;	/* LEAF: bytes of path the slot stands for */
	uint32_t mismatch;	/* SPLIT */
	unsigned int c;		/* NO_CHILD */
};

/* Walks, without locks, to where @key belongs. */
void cds__trie_walk(struct cds_trie *trie, const unsigned char *key, size_t len,
		    struct trie_wpos *w);

/* The lock of a slot's holder (NULL: the root slot). */
static inline uint32_t *holder_lock(struct cds_trie *trie, struct trie_inner *h)
{
	return h ? &h->lock : &trie->root_lock;
}

/* Locks a holder; false when it is an obsolete node. */
static inline bool lock_holder(struct cds_trie *trie, struct trie_inner *h)
{
	return trie_lock(holder_lock(trie, h));
}

static inline void unlock_holder(struct cds_trie *trie, struct trie_inner *h)
{
	trie_unlock(holder_lock(trie, h));
}

/*
 * Chain operations on a locked holder whose slot holds the key's chain
 * (rcutrie-insert.c, rcutrie-delete.c).
 */

/* A key's chain, found and locked by cds__trie_lock_chain(). */
struct trie_chain {
	struct trie_inner *holder;	/* NULL: the root slot */
	uintptr_t *slot;
	struct cds_trie_node *head;
};

/*
 * Finds the chain of @key and locks its holder: 0, or -ENOENT when the
 * key is not in the trie (nothing locked).
 */
int cds__trie_lock_chain(struct cds_trie *trie, const unsigned char *key,
			 size_t len, struct trie_chain *ch);

/* Walks @head's chain for @node; stores its predecessor (or NULL). */
static inline bool chain_find(struct cds_trie_node *head,
			      struct cds_trie_node *node,
			      struct cds_trie_node **prev)
{
	struct cds_trie_node *p = NULL, *x;

	for (x = head; x; p = x, x = load_next(x)) {
		if (x == node) {
			*prev = p;
			return true;
		}
	}
	return false;
}

#endif /* CDS_SRC_RCUTRIE_INTERNAL_H */
