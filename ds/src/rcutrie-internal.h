/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
 * that a walk knows where it is without reading any leaf; a node at
 * depth TRIE_DEEP or more stores its whole path (see "Deep nodes").
 * Child c of a node at depth d holds the keys whose byte d is c; the end
 * slot holds the key of length d, if any.  Five node types: 4 and 16
 * children (unsorted key bytes), 40 children from the DNS name alphabet
 * (a fixed byte-to-slot map shared by every such node), 40 children of
 * any byte (a per-node index) and 256 children (indexed by the byte).
 *
 * Tagged slots.  Inner nodes are aligned to TRIE_ALIGN (64) bytes, so a
 * slot pointing to one carries, in its low bits, the node's type and its
 * prefix length when below 3 (3: read it from the node).  A reader thus
 * knows, before touching a node, how to index it and at which depth,
 * and a level costs it one cache line of a 40- or 256-node: the child
 * slot's (a 4- or 15-node keeps its key bytes in its first line).
 *
 * Invariants:
 *  (I1) A node's type, depth, prefix and path never change once it is
 *       published; every key ever reachable below it starts with its
 *       path.  A slot's tag bits always describe the node it points to.
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
 *  (I4) An in-place change is a single release store of one slot: a
 *       reader sees it entirely or not at all.  A new position of a
 *       4/15/40-node gets its key byte, then its slot (release on a
 *       4/15-node), then the release store of the index (4/15: the
 *       order word; 40: the index entry) that shows it to readers going
 *       by the index.  A position, once given to byte c, stays c's for
 *       the node's lifetime (a removed child leaves a "tombstone" that
 *       only c can reuse), so a reader going by the index never pairs a
 *       byte with another byte's child (an exact lookup, which does not,
 *       relies on its final key comparison: small_find_slot_exact()).
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
 *  (I8) A node at depth TRIE_DEEP or more stores its whole path (the
 *       first depth bytes of every key below it), which lives as long
 *       as the node: an iterator that drops cached levels deeper than
 *       it can hold keeps such a path as its anchor (rcutrie-order.c).
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
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <urcu/arch.h>
#include <urcu/assert.h>
#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/flavor.h>
#include <urcu/rcutrie.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define TRIE_SSE2	1
#endif

struct trie_inner;

/* ------------------------------------------------------------------------
 * Slots.
 */

/* Alignment of inner nodes: their slots keep 6 bits of tags. */
#define TRIE_ALIGN	64

#define SLOT_LEAF	((uintptr_t) 1)
#define SLOT_TAGS	((uintptr_t) TRIE_ALIGN - 1)
#define SLOT_TYPE_SHIFT	1
#define SLOT_PLEN_SHIFT	4
/* Prefix length tag of a node whose prefix has this many bytes or more. */
#define SLOT_PLEN_LONG	3U

enum trie_type {
	TRIE_N4,	/* 4 children, unsorted key bytes */
	TRIE_N15,	/* 15 children, unsorted key bytes */
	TRIE_NAME,	/* the 40 bytes of trie_name_slot[], slot by byte */
	TRIE_N40,	/* 40 children of any bytes, through an index */
	TRIE_N256,	/* 256 children, slot by byte */
	TRIE_NR_TYPES
};

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
	return (struct trie_inner *) (s & ~SLOT_TAGS);
}

/* Type of the inner node slot @s points to (I1). */
static inline unsigned int slot_type(uintptr_t s)
{
	return (unsigned int) (s >> SLOT_TYPE_SHIFT) & 7U;
}

/* Its prefix length, or SLOT_PLEN_LONG when that many or more. */
static inline unsigned int slot_plen(uintptr_t s)
{
	return (unsigned int) (s >> SLOT_PLEN_SHIFT) & 3U;
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

/* Lock word (struct trie_inner.lock, struct cds_trie.root_lock). */
#define TRIE_LOCKED	((uintptr_t) 1)
#define TRIE_OBSOLETE	((uintptr_t) 2)

/* Nodes at this depth or deeper store their whole path (I8). */
#define TRIE_DEEP	CDS_TRIE_ITER_DEPTH

/*
 * Header of every inner node (32 bytes on 64-bit machines), followed by
 * the body of its type, then its stored path bytes (prefix_len of them,
 * or depth for a deep node).  A 4-node fits in one 64-byte line.
 */
struct trie_inner {
	/*
	 * TRIE_LOCKED | TRIE_OBSOLETE (atomic).  Once the node is obsolete
	 * and retired, it also links the retired list (rcutrie-mem.c),
	 * TRIE_OBSOLETE staying set.
	 */
	uintptr_t lock;
	uint32_t depth;		/* byte this node branches on, fixed */
	uint32_t prefix_len;	/* fixed */
	union {
		struct {
			/* A 4-node's key bytes, positions 0..3 (atomic word). */
			union trie_keys4 { uint32_t w; uint8_t b[4]; } keys4;
			/* enum trie_type, fixed (also in the tags) */
			uint8_t type;
			/*
			 * 40: positions in use.  Atomic: readers load it
			 * (acquire) before the index.
			 */
			uint8_t nr_used;
			/* A 4-node's index ("4- and 15-nodes" below); atomic. */
			uint16_t index4;
		};
		/*
		 * The same 8 bytes as one word: readers load a 4-node's
		 * key bytes with it, as a 15-node's first 8
		 * (small_key_words()).
		 */
		uint64_t keys4_word;
	};
	uintptr_t end;		/* leaf of the key of length depth, or 0 */
};

struct trie_body4 {
	uintptr_t child[4];
};

struct trie_body15 {
	/* Key bytes of positions 0..14 (the last byte is unused). */
	union trie_keys16 { uint64_t w[2]; uint8_t b[16]; } keys;
	uint64_t index;		/* see "4- and 15-nodes" below; atomic */
	uintptr_t child[15];
};

/* Where small_key_words() reads a 4- and a 15-node's key bytes. */
_Static_assert(offsetof(struct trie_inner, keys4)
		       == offsetof(struct trie_inner, keys4_word)
	       && offsetof(struct trie_inner, keys4_word) + 16
		       <= sizeof(struct trie_inner) + sizeof(struct trie_body4)
	       && offsetof(struct trie_body15, keys) == 0,
	       "a 4-node's key bytes start 16 bytes inside it");

/*
 * The DNS name alphabet: 0x00, '*', '-', '0'-'9', '_', 'a'-'z' (the
 * bytes of names in lookup form, docs/trie.md), in byte order.
 */
#define TRIE_NAME_SLOTS	40

/* Slot of byte c in a name node, or 0xff for a byte outside it. */
extern const uint8_t cds__trie_name_slot[256];
/* Alphabet bytes <= c: the name slots of the bytes up to c. */
extern const uint8_t cds__trie_name_le[256];
/* The byte of each name slot. */
extern const uint8_t cds__trie_name_byte[TRIE_NAME_SLOTS];

/* Bitmap bit i is set while slot i holds a child (ordered scans' hint). */
struct trie_bodyname {
	uint64_t bitmap;
	uintptr_t child[TRIE_NAME_SLOTS];
};

/*
 * 40 children: index[c] is 1 + the position of byte c's child, 0 when c
 * never had one; bitmap bit c is set while c's child is in the node (a
 * hint for ordered scans, set after the child and cleared before it).
 */
#define TRIE_N40_SLOTS	40

struct trie_body40 {
	uint8_t index[256];
	uintptr_t child[TRIE_N40_SLOTS];
	uint64_t bitmap[4];
};

/* 256 children, indexed by byte; bitmap as for 40. */
struct trie_body256 {
	uintptr_t child[256];
	uint64_t bitmap[4];
};

static const unsigned int trie_capacity[TRIE_NR_TYPES] = {
	4, 15, TRIE_NAME_SLOTS, TRIE_N40_SLOTS, 256,
};

static const unsigned int trie_body_size[TRIE_NR_TYPES] = {
	sizeof(struct trie_body4), sizeof(struct trie_body15),
	sizeof(struct trie_bodyname), sizeof(struct trie_body40),
	sizeof(struct trie_body256),
};

/* The slot tags of node @n (I1). */
static inline uintptr_t inner_tags(const struct trie_inner *n)
{
	unsigned int plen = n->prefix_len < SLOT_PLEN_LONG ? n->prefix_len
							  : SLOT_PLEN_LONG;

	return ((uintptr_t) n->type << SLOT_TYPE_SHIFT)
		| ((uintptr_t) plen << SLOT_PLEN_SHIFT);
}

/* The value of a slot pointing to @n. */
static inline uintptr_t inner_slot(const struct trie_inner *n)
{
	return (uintptr_t) n | inner_tags(n);
}

/* Whether slot value @v points to inner node @n. */
static inline bool slot_holds(uintptr_t v, const struct trie_inner *n)
{
	return !slot_is_leaf(v) && slot_inner(v) == n;
}

static inline void *inner_body(const struct trie_inner *n)
{
	return (void *) (n + 1);
}

/*
 * The bytes stored after the body: the whole path of a deep node (I8),
 * the prefix of any other.
 */
static inline unsigned char *inner_stored(const struct trie_inner *n)
{
	return (unsigned char *) (n + 1) + trie_body_size[n->type];
}

/* How many: depth for a deep node, prefix_len otherwise. */
static inline size_t stored_len(uint32_t depth, uint32_t prefix_len)
{
	return depth >= TRIE_DEEP ? depth : prefix_len;
}

static inline unsigned char *inner_prefix(const struct trie_inner *n)
{
	unsigned char *p = inner_stored(n);

	return n->depth >= TRIE_DEEP ? p + n->depth - n->prefix_len : p;
}

/* A deep node's path (I8). */
static inline const unsigned char *inner_path(const struct trie_inner *n)
{
	urcu_assert_debug(n->depth >= TRIE_DEEP);
	return inner_stored(n);
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

/* Positions in use of a 40-node. */
static inline unsigned int load_nr_used(const struct trie_inner *n)
{
	/*
	 * Acquire: pairs with the release store in insert_child()
	 * (rcutrie-node.c) that counts a position once its index entry and
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

/*
 * Depth of node @n, reached through slot @s from a node at depth
 * @parent ((size_t) -1 for the root slot): from the slot's tags when
 * they hold the prefix length, so that a 40- or 256-node is indexed
 * without reading its header line (I1: depth = parent depth + 1 +
 * prefix length).
 */
static inline size_t tagged_depth(uintptr_t s, const struct trie_inner *n,
				  size_t parent)
{
	unsigned int plen = slot_plen(s);

	if (caa_unlikely(plen == SLOT_PLEN_LONG))
		return n->depth;
	return parent + 1 + plen;
}

/* ------------------------------------------------------------------------
 * 4- and 15-nodes.  Their key bytes are unsorted: a position, once given
 * to a byte, keeps it (I4), and a new byte takes the next free one.  An
 * "index" word, published (release) after the key byte and child of a
 * new position, holds how many positions are in use and the positions
 * in byte order (by rank), so that a reader finds the smallest, the
 * greatest or the nearest byte without sorting: a 4-node's index is 16
 * bits of its header (2 bits per rank, the count in bits 8-10), a
 * 15-node's 64 bits of its body (4 bits per rank, the count in the top
 * 4).  The bytes themselves are searched all at once: SSE2 on x86-64,
 * elsewhere a word at a time.
 */

#define INDEX4_NR_SHIFT		8
#define INDEX15_NR_SHIFT	60

/* The key bytes of 4/15 node @n in one value. */
struct small_keys {
	union trie_keys16 k;
#ifdef TRIE_SSE2
	__m128i v;
#endif
};

/* A reader's consistent view of a 4/15 node's positions. */
struct small_view {
	struct small_keys sk;
	uint64_t order;		/* position of rank r at bits r * bits */
	unsigned int nr;	/* positions in use */
	unsigned int bits;	/* per rank: 2 or 4 */
};

/*
 * 4- and 15-nodes are read with no branch on which of the two a node is:
 * a descent through a random mix of them (1k random integers make one
 * under a 256-node root) mispredicts such a branch about every other
 * time.  The address of each field is picked by a mask instead, all
 * ones for a 15-node (small_sel()), and where the two layouts differ
 * both fields are loaded and one kept.  A 4-node's key bytes start an
 * 8-byte word of its header as a 15-node's start its body, so both are
 * read as the 16 bytes from one of two addresses: for a 4-node, its key
 * bytes, the rest of that word and its end slot, outside the positions
 * in use and never compared.
 */
static inline uint64_t small_sel(unsigned int type)
{
	return -(uint64_t) (type == TRIE_N15);
}

/* Bits per rank in the index of a 4/15 node of @type: 2 or 4. */
static inline unsigned int small_rank_bits(unsigned int type)
{
	return 2 + (unsigned int) (2 & small_sel(type));
}

/* The two words starting with the key bytes of 4/15 node @n. */
static inline const uint64_t *small_key_words(const struct trie_inner *n,
					      uint64_t sel)
{
	const size_t k4 = offsetof(struct trie_inner, keys4_word);
	const size_t k15 = sizeof(struct trie_inner)
			   + offsetof(struct trie_body15, keys);

	return (const uint64_t *) ((const char *) n
				   + k4 + ((k15 - k4) & (size_t) sel));
}

static inline uintptr_t *small_children(const struct trie_inner *n,
					unsigned int type)
{
	return (uintptr_t *) ((char *) inner_body(n)
		+ (offsetof(struct trie_body15, child)
		   & (size_t) small_sel(type)));
}

/*
 * Loads the key bytes of 4/15 node @n into @v, whose index (order, nr)
 * was loaded before (relaxed: the bytes of the positions in use never
 * change, and the index load ordered them).
 */
static inline void small_view_keys(const struct trie_inner *n,
				   unsigned int type, struct small_view *v)
{
	const uint64_t *w = small_key_words(n, small_sel(type));

	v->sk.k.w[0] = __atomic_load_n(&w[0], __ATOMIC_RELAXED);
	v->sk.k.w[1] = __atomic_load_n(&w[1], __ATOMIC_RELAXED);
#ifdef TRIE_SSE2
	v->sk.v = _mm_set_epi64x((long long) v->sk.k.w[1],
				 (long long) v->sk.k.w[0]);
#endif
}

/*
 * Loads the index (acquire: pairs with publish_index() in
 * rcutrie-node.c, so the positions below its count are seen filled),
 * then the key bytes.  Both types' index words are loaded (a 4-node's
 * 15-node index word is one of its child slots; a 15-node's 4-node
 * index is 0) and the node's kept.
 */
static inline void small_view_of(const struct trie_inner *n, unsigned int type,
				 struct small_view *v)
{
	const uint64_t sel = small_sel(type);
	const struct trie_body15 *b = inner_body(n);
	uint64_t i15 = __atomic_load_n(&b->index, __ATOMIC_ACQUIRE);
	uint64_t i4 = __atomic_load_n(&n->index4, __ATOMIC_ACQUIRE);

	/* A 4-node's count sits above its 8 bits of order: never read. */
	uint64_t idx = (i15 & sel) | (i4 & ~sel);

	v->order = idx;
	v->nr = (unsigned int) (idx >> (INDEX4_NR_SHIFT
		+ ((INDEX15_NR_SHIFT - INDEX4_NR_SHIFT) & sel)));
	v->bits = small_rank_bits(type);
	small_view_keys(n, type, v);
}

/*
 * Called by every descent as it reaches 4/15 node @n (@type), or any
 * node through prefetch_inner(): asks for the lines beyond the node's
 * first that the descent reads next.  A 15-node spans three lines, its
 * key bytes in the first and its children in the other two: all three
 * are asked for at once, so that on a cold node the child's line is on
 * its way while the key bytes are compared, instead of being missed
 * after them.  A 4-node asks for its own line, which is read anyway, so
 * that both take the same code (see small_sel()).  Other types need
 * nothing: a name, 40- or 256-node is indexed straight at the line it
 * reads.
 */
static inline void prefetch_small(const struct trie_inner *n, unsigned int type)
{
	const char *b = inner_body(n);
	const size_t sel = (size_t) small_sel(type);

	__builtin_prefetch(b + (offsetof(struct trie_body15, child) & sel));
	__builtin_prefetch(b + (offsetof(struct trie_body15, child[14]) & sel));
}

/* The same from the slot @s pointing to a node of any type. */
static inline void prefetch_inner(uintptr_t s)
{
	if (slot_type(s) <= TRIE_N15)
		prefetch_small(slot_inner(s), slot_type(s));
}

/* The position of rank @r (below nr). */
static inline unsigned int small_pos(const struct small_view *v, unsigned int r)
{
	return (unsigned int) (v->order >> (r * v->bits)) & ((1U << v->bits) - 1);
}

static inline unsigned int small_byte(const struct small_view *v, unsigned int i)
{
	return v->sk.k.b[i];
}

/* Bits set in each byte value (rcutrie-node.c). */
extern const uint8_t cds__trie_popcount8[256];

/*
 * Bits set in a 16-bit mask: the instruction where the target has one,
 * else two table loads (cheaper than the bit-twiddling sequence on the
 * path of every neighbour query).
 */
static inline unsigned int popcount16(unsigned int x)
{
#ifdef __POPCNT__
	return (unsigned int) __builtin_popcount(x);
#else
	return (unsigned int) cds__trie_popcount8[x & 0xff]
		+ cds__trie_popcount8[(x >> 8) & 0xff];
#endif
}

#ifndef TRIE_SSE2
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
#endif

/* Positions holding byte @c (unused positions included). */
static inline unsigned int small_eq(const struct small_keys *sk, unsigned int c)
{
#ifdef TRIE_SSE2
	return (unsigned int) _mm_movemask_epi8(
		_mm_cmpeq_epi8(sk->v, _mm_set1_epi8((char) c)));
#else
	return match8(sk->k.w[0], c) | (match8(sk->k.w[1], c) << 8);
#endif
}

/*
 * Positions holding byte @c (eq) and a byte below it (lt), unused
 * positions included, with one broadcast of @c.
 */
static inline void small_cmp(const struct small_keys *sk, unsigned int c,
			     unsigned int *eq, unsigned int *lt)
{
#ifdef TRIE_SSE2
	const __m128i vc = _mm_set1_epi8((char) c);
	unsigned int e = (unsigned int) _mm_movemask_epi8(
		_mm_cmpeq_epi8(sk->v, vc));
	/* v <= c exactly when max(v, c) == c. */
	unsigned int le = (unsigned int) _mm_movemask_epi8(
		_mm_cmpeq_epi8(_mm_max_epu8(sk->v, vc), vc));

	*eq = e;
	*lt = le & ~e;
#else
	unsigned int m = 0, i;

	for (i = 0; i < 16; i++)
		m |= (unsigned int) (sk->k.b[i] < c) << i;
	*eq = small_eq(sk, c);
	*lt = m;
#endif
}

/* Mask of the positions below @nr (0..15). */
static inline unsigned int small_used(unsigned int nr)
{
	return (1U << nr) - 1;
}

/* Rank of the first position whose byte is above @c (c: -1..255). */
static inline unsigned int small_rank_above(const struct small_view *v, int c)
{
	unsigned int eq, lt;

	if (c < 0)
		return 0;
	small_cmp(&v->sk, (unsigned int) c, &eq, &lt);
	return popcount16((eq | lt) & small_used(v->nr));
}

/* Rank of the first position whose byte is at or above @c (0..256). */
static inline unsigned int small_rank_from(const struct small_view *v, int c)
{
	unsigned int eq, lt;

	if (c > 255)
		return v->nr;
	small_cmp(&v->sk, (unsigned int) c, &eq, &lt);
	return popcount16(lt & small_used(v->nr));
}

/*
 * The nonempty child of the smallest rank from @rank up (@up), or of the
 * greatest rank below @rank, of 4/15 node @n seen through @v: its slot,
 * its byte in *@c; or 0.  Tombstones (removed children) are passed over.
 */
static inline uintptr_t small_pick(const struct trie_inner *n, unsigned int type,
				   const struct small_view *v, unsigned int rank,
				   bool up, int *c)
{
	const uintptr_t *child = small_children(n, type);
	unsigned int pos;
	uintptr_t s;

	if (up) {
		for (; rank < v->nr; rank++) {
			pos = small_pos(v, rank);
			if ((s = load_slot(&child[pos]))) {
				*c = (int) small_byte(v, pos);
				return s;
			}
		}
	} else {
		while (rank-- > 0) {
			pos = small_pos(v, rank);
			if ((s = load_slot(&child[pos]))) {
				*c = (int) small_byte(v, pos);
				return s;
			}
		}
	}
	return 0;
}

/*
 * An exact lookup's step through 4/15 node @n (@type): the slot of byte
 * @c's position, or NULL.  It does not read the index, which exact
 * lookups do not need: a position not yet in use holds byte 0 or the
 * byte being given to it, so matching one leads to no child or to that
 * byte's subtree, where the lookup's final comparison of the whole key
 * rejects whatever leaf it reaches.  And the position of @c, if @c has
 * one, is the lowest that matches: positions are given in order and
 * those in use hold distinct bytes (I4).  The key bytes are loaded
 * relaxed: a position's byte never changes once given.  The child slot
 * of a new position is stored with release (small_append(),
 * rcutrie-node.c) like every other slot, so the load_slot() that
 * follows sees the child initialized without the index's acquire.
 */
static inline __attribute__((always_inline))
const uintptr_t *small_find_slot_exact(const struct trie_inner *n,
				       unsigned int type, unsigned int c)
{
	struct small_view v;	/* only its key bytes */
	unsigned int m;

	small_view_keys(n, type, &v);
	/* Positions 0..3 of a 4-node, 0..14 of a 15-node. */
	m = small_eq(&v.sk, c)
	    & (0xfU | (0x7ff0U & (unsigned int) small_sel(type)));
	return m ? &small_children(n, type)[__builtin_ctz(m)] : NULL;
}

/* ------------------------------------------------------------------------
 * Children by byte.
 */

/* Acquire: pairs with the release that set or cleared the bit. */
static inline uint64_t load_bitmap(const uint64_t *bitmap, unsigned int word)
{
	return __atomic_load_n(&bitmap[word], __ATOMIC_ACQUIRE);
}

/*
 * Acquire: pairs with the release store of index[c] in insert_child(),
 * made after the child it points to.
 */
static inline unsigned int load_index(const struct trie_body40 *b, unsigned int c)
{
	return __atomic_load_n(&b->index[c], __ATOMIC_ACQUIRE);
}

/*
 * Address of the slot of byte @c in @n, of type @type (its child, 0, or a
 * tombstone), or NULL when @c has no position.  Positions never move
 * (I4), so the address stays byte @c's for the node's lifetime.
 */
static inline __attribute__((always_inline))
uintptr_t *inner_child_slot(const struct trie_inner *n, unsigned int type,
			    unsigned int c)
{
	check_inner(n);
	switch (type) {
	case TRIE_N4:
	case TRIE_N15: {
		struct small_view v;
		unsigned int m;

		small_view_of(n, type, &v);
		m = small_eq(&v.sk, c) & small_used(v.nr);
		/* At most one position per byte (I4). */
		return m ? &small_children(n, type)[__builtin_ctz(m)] : NULL;
	}
	case TRIE_NAME: {
		unsigned int i = cds__trie_name_slot[c];

		return i < TRIE_NAME_SLOTS
			? &((struct trie_bodyname *) inner_body(n))->child[i]
			: NULL;
	}
	case TRIE_N40: {
		struct trie_body40 *b = inner_body(n);
		unsigned int i = load_index(b, c);

		return i ? &b->child[i - 1] : NULL;
	}
	default:
		return &((struct trie_body256 *) inner_body(n))->child[c];
	}
}

/* The child of @n (type @type) for byte @c, or 0. */
static inline __attribute__((always_inline))
uintptr_t inner_find_child(const struct trie_inner *n, unsigned int type,
			   unsigned int c)
{
	uintptr_t *slot = inner_child_slot(n, type, c);

	return slot ? load_slot(slot) : 0;
}

/* ------------------------------------------------------------------------
 * Ordered scans: the nonempty child of @n with the smallest byte above
 * @after (-1: any) / the greatest byte below @before (256: any).  They
 * return the slot and store the byte in *@c, or return 0.  A scan reads
 * each candidate once; children added or removed meanwhile may or may
 * not be seen, children present throughout are.  Inline: they sit on the
 * path of every neighbour query.
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

/* 40/256 nodes: the child of byte @c, 0 if none (bit set, child going). */
static inline uintptr_t big_child(const struct trie_inner *n, unsigned int type,
				  int c)
{
	if (type == TRIE_N40) {
		const struct trie_body40 *b = inner_body(n);
		unsigned int i = load_index(b, (unsigned int) c);

		return i ? load_slot(&b->child[i - 1]) : 0;
	}
	return load_slot(&((const struct trie_body256 *) inner_body(n))->child[c]);
}

/* Bitmap of a 40/256 node. */
static inline const uint64_t *big_bitmap(const struct trie_inner *n,
					 unsigned int type)
{
	if (type == TRIE_N40)
		return ((const struct trie_body40 *) inner_body(n))->bitmap;
	return ((const struct trie_body256 *) inner_body(n))->bitmap;
}

/* Name nodes: the bitmap, acquire as load_bitmap(). */
static inline uint64_t name_bitmap(const struct trie_inner *n)
{
	return __atomic_load_n(&((const struct trie_bodyname *)
				 inner_body(n))->bitmap, __ATOMIC_ACQUIRE);
}

/* Name slots strictly between bytes @lo and @hi, as a mask. */
static inline uint64_t name_between(int lo, int hi)
{
	uint64_t m = ~0ULL;
	unsigned int a, b;

	if (lo >= 0) {
		a = cds__trie_name_le[lo];
		m &= a < 64 ? ~0ULL << a : 0;
	}
	if (hi <= 255) {
		/* Slots of bytes below hi: those of bytes <= hi - 1. */
		b = hi > 0 ? cds__trie_name_le[hi - 1] : 0;
		m &= b ? ~0ULL >> (64 - b) : 0;
	}
	return m;
}

/* Name node: the nearest nonempty child among slots @mask. */
static inline uintptr_t name_scan(const struct trie_inner *n, uint64_t mask,
				  bool up, int *c)
{
	const struct trie_bodyname *b = inner_body(n);
	uint64_t x = name_bitmap(n) & mask;
	unsigned int i;
	uintptr_t s;

	while (x) {
		i = up ? (unsigned int) __builtin_ctzll(x)
		       : 63U - (unsigned int) __builtin_clzll(x);
		s = load_slot(&b->child[i]);
		if (caa_likely(s)) {
			*c = cds__trie_name_byte[i];
			return s;
		}
		x &= ~(1ULL << i);
	}
	return 0;
}

static inline __attribute__((always_inline))
uintptr_t inner_next_child(const struct trie_inner *n, unsigned int type,
			   int after, int *c)
{
	check_inner(n);
	switch (type) {
	case TRIE_N4:
	case TRIE_N15: {
		struct small_view v;

		small_view_of(n, type, &v);
		return small_pick(n, type, &v, small_rank_above(&v, after),
				  true, c);
	}
	case TRIE_NAME:
		return name_scan(n, name_between(after, 256), true, c);
	default: {
		const uint64_t *bitmap = big_bitmap(n, type);
		int x;

		for (x = bitmap_next(bitmap, after + 1); x >= 0;
		     x = x < 255 ? bitmap_next(bitmap, x + 1) : -1) {
			uintptr_t s = big_child(n, type, x);

			if (s) {
				*c = x;
				return s;
			}
		}
		return 0;
	}
	}
}

static inline __attribute__((always_inline))
uintptr_t inner_prev_child(const struct trie_inner *n, unsigned int type,
			   int before, int *c)
{
	check_inner(n);
	switch (type) {
	case TRIE_N4:
	case TRIE_N15: {
		struct small_view v;

		small_view_of(n, type, &v);
		return small_pick(n, type, &v, small_rank_from(&v, before),
				  false, c);
	}
	case TRIE_NAME:
		return name_scan(n, name_between(-1, before), false, c);
	default: {
		const uint64_t *bitmap = big_bitmap(n, type);
		int x;

		for (x = bitmap_prev(bitmap, before - 1); x >= 0;
		     x = bitmap_prev(bitmap, x - 1)) {
			uintptr_t s = big_child(n, type, x);

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
static inline bool trie_lock(uintptr_t *lock)
{
	unsigned int spins = 0;
	uintptr_t v;

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

static inline void trie_unlock(uintptr_t *lock)
{
	/* Release: see above. */
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Leaves a locked node obsolete (I2): nobody locks it again. */
static inline void trie_unlock_obsolete(uintptr_t *lock)
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
	struct trie_inner *final;	/* pending when the trie was destroyed */
	bool queued;			/* head is queued with call_rcu */
	bool final_queued;		/* final_head is */
	bool dying;			/* destroyed: the last callback frees it */
	struct rcu_head head, final_head;
};

struct cds_trie {
	/* Read by every operation; the lock by writers of the root slot. */
	uintptr_t root;
	uintptr_t root_lock;
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

/*
 * Descents from the root made by the calling thread's read-side queries
 * (debug builds; release builds do not count).  A query makes one; an
 * iterator's step makes one more only for every CDS_TRIE_ITER_DEPTH
 * levels it climbs above what it caches (rcutrie-order.c).  Tests read
 * it with cds__trie_debug_descents() to show that nothing else retries.
 */
#ifdef URCU_DEBUG
extern __thread unsigned long cds__trie_descents;

static inline void trie_count_descent(void)
{
	cds__trie_descents++;
}
#else
static inline void trie_count_descent(void)
{
}
#endif

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

/* Bytes of a node of @type at @depth with a prefix of @prefix_len bytes. */
size_t cds__trie_inner_size(unsigned int type, uint32_t depth,
			    uint32_t prefix_len);

/* The smallest type holding the children of @e plus byte @c (-1: none). */
unsigned int cds__trie_type_for(const struct trie_entries *e, int c);

/* Whether a node of @type holds the children of @e plus byte @c. */
bool cds__trie_type_fits(unsigned int type, const struct trie_entries *e, int c);

/*
 * A new unpublished node (zeroed, header set, stored path bytes and
 * children to fill), or NULL when out of memory.
 */
struct trie_inner *cds__trie_inner_new(struct cds_trie *trie, unsigned int type,
				       uint32_t depth, uint32_t prefix_len);

/*
 * Fills the stored bytes of unpublished @n: the @n->depth bytes of its
 * path end at @path_end (the bytes before it are read only as far as
 * the node stores them: its prefix, or its whole path if deep).
 */
static inline void inner_set_path(struct trie_inner *n,
				  const unsigned char *path_end)
{
	size_t len = stored_len(n->depth, n->prefix_len);

	memcpy(inner_stored(n), path_end - len, len);
}

/* The end of @n's stored bytes, for inner_set_path() of a copy. */
static inline const unsigned char *inner_path_end(const struct trie_inner *n)
{
	return inner_stored(n) + stored_len(n->depth, n->prefix_len);
}

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
static inline uintptr_t *cds__trie_child_slot(struct trie_inner *n,
					      unsigned int c)
{
	/* Same loads as a reader's; under the lock they are exact. */
	return inner_child_slot(n, n->type, c);
}

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
 * Live children of @n.  Exact under the node's lock, a hint otherwise
 * (writers deciding whether to try a merge or a shrink).
 */
unsigned int cds__trie_count(const struct trie_inner *n);

/* Live entries of @n: its children plus its end slot if used. */
static inline unsigned int inner_entries(const struct trie_inner *n)
{
	/* Relaxed: as cds__trie_count(). */
	return cds__trie_count(n) + (__atomic_load_n(&n->end, __ATOMIC_RELAXED) != 0);
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
static inline uintptr_t *holder_lock(struct cds_trie *trie, struct trie_inner *h)
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
