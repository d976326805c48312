/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-node.c: the five inner-node layouts (rcutrie-internal.h) seen
 * by writers: the in-place insertion and removal of a child, reading a
 * node's entries, choosing a type and filling a new node; and the DNS
 * name alphabet of name nodes.
 *
 * In-place changes follow (I4): a new position gets its key byte (4/16)
 * or its child (40) first, with relaxed stores that the release store
 * counting or indexing the position publishes; a child stored into an
 * existing position (or a name or 256 node's slot) is published by its
 * own release store.  Bitmap bits (name/40/256) are set after the child
 * is stored and cleared before it is removed: a child present from
 * before an ordered scan until after it has its bit set throughout the
 * scan.
 */
#include "rcutrie-internal.h"

/* ------------------------------------------------------------------------
 * The name alphabet: 0x00, '*', '-', '0'-'9', '_', 'a'-'z', in byte order.
 */

#define X	0xff
#define ROW_X	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X

const uint8_t cds__trie_name_slot[256] = {
	/* 0x00 */ 0, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	/* 0x10 */ ROW_X,
	/* 0x20: '*' 0x2a, '-' 0x2d */
	X, X, X, X, X, X, X, X, X, X, 1, X, X, 2, X, X,
	/* 0x30: '0'-'9' */
	3, 4, 5, 6, 7, 8, 9, 10, 11, 12, X, X, X, X, X, X,
	/* 0x40 */ ROW_X,
	/* 0x50: '_' 0x5f */
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, 13,
	/* 0x60: 'a'-'o' */
	X, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
	/* 0x70: 'p'-'z' */
	29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, X, X, X, X, X,
	ROW_X, ROW_X, ROW_X, ROW_X, ROW_X, ROW_X, ROW_X, ROW_X,
};

#undef ROW_X
#undef X

const uint8_t cds__trie_name_byte[TRIE_NAME_SLOTS] = {
	0x00, '*', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '_',
	'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n',
	'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z',
};

#define B2(n)	n, n + 1, n + 1, n + 2
#define B4(n)	B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n)	B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
const uint8_t cds__trie_popcount8[256] = {
	B6(0), B6(1), B6(1), B6(2),
};
#undef B6
#undef B4
#undef B2

/* Filled from the tables above; checked by check_name_tables() below. */
#define LE_ROW(a)	a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a
const uint8_t cds__trie_name_le[256] = {
	/* 0x00-0x0f: 0x00 */ LE_ROW(1),
	/* 0x10-0x1f */ LE_ROW(1),
	/* 0x20-0x2f: '*' at 0x2a, '-' at 0x2d */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3,
	/* 0x30-0x3f: '0'-'9' */
	4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13, 13, 13, 13, 13, 13,
	/* 0x40-0x4f */ LE_ROW(13),
	/* 0x50-0x5f: '_' at 0x5f */
	13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 14,
	/* 0x60-0x6f: 'a'-'o' */
	14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
	/* 0x70-0x7f: 'p'-'z' */
	30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 40, 40, 40, 40, 40,
	LE_ROW(40), LE_ROW(40), LE_ROW(40), LE_ROW(40),
	LE_ROW(40), LE_ROW(40), LE_ROW(40), LE_ROW(40),
};
#undef LE_ROW

#ifdef URCU_DEBUG
/* Debug builds check the three tables against each other once. */
static void __attribute__((constructor)) check_name_tables(void)
{
	unsigned int c, le = 0;

	for (c = 0; c < 256; c++) {
		if (cds__trie_name_slot[c] != 0xff) {
			urcu_posix_assert(cds__trie_name_slot[c] == le);
			urcu_posix_assert(cds__trie_name_byte[le] == c);
			le++;
		}
		urcu_posix_assert(cds__trie_name_le[c] == le);
	}
	urcu_posix_assert(le == TRIE_NAME_SLOTS);
	for (c = 0; c < 256; c++)
		urcu_posix_assert(cds__trie_popcount8[c]
				  == (unsigned int) __builtin_popcount(c));
}
#endif

/* ------------------------------------------------------------------------
 * Sizes and types.
 */

size_t cds__trie_inner_size(unsigned int type, uint32_t depth,
			    uint32_t prefix_len)
{
	size_t size = sizeof(struct trie_inner) + trie_body_size[type]
		+ stored_len(depth, prefix_len);

	/* Whole lines: the allocator then keeps the node TRIE_ALIGN-ed. */
	return (size + TRIE_ALIGN - 1) & ~(size_t) (TRIE_ALIGN - 1);
}

/* Whether every byte of @e, and @c when not -1, is in the name alphabet. */
static bool all_name_bytes(const struct trie_entries *e, int c)
{
	unsigned int i;

	if (c >= 0 && cds__trie_name_slot[c] == 0xff)
		return false;
	for (i = 0; i < e->nr; i++)
		if (cds__trie_name_slot[e->byte[i]] == 0xff)
			return false;
	return true;
}

unsigned int cds__trie_type_for(const struct trie_entries *e, int c)
{
	unsigned int nr = e->nr + (c >= 0);

	if (nr <= 4)
		return TRIE_N4;
	if (nr <= trie_capacity[TRIE_N15])
		return TRIE_N15;
	/* A name node is smaller than a 40-node and needs no index. */
	if (all_name_bytes(e, c))
		return TRIE_NAME;
	return nr <= TRIE_N40_SLOTS ? TRIE_N40 : TRIE_N256;
}

bool cds__trie_type_fits(unsigned int type, const struct trie_entries *e, int c)
{
	return e->nr + (c >= 0) <= trie_capacity[type]
		&& (type != TRIE_NAME || all_name_bytes(e, c));
}

/* ------------------------------------------------------------------------
 * Writers: in-place changes of a locked node.
 */

/* Sets (release) or clears bit @c; only lock holders write the bitmap. */
static void bitmap_set(uint64_t *bitmap, unsigned int c, bool on)
{
	/* Relaxed: the lock orders this writer after the previous one. */
	uint64_t w = __atomic_load_n(&bitmap[c / 64], __ATOMIC_RELAXED);
	uint64_t bit = 1ULL << (c % 64);

	/*
	 * Release: a reader that sees the bit set (acquire in load_bitmap()
	 * or name_bitmap()) then sees the child stored before it.
	 */
	__atomic_store_n(&bitmap[c / 64], on ? w | bit : w & ~bit,
			 __ATOMIC_RELEASE);
}

/* The bitmap and bit of byte @c in a name/40/256 node, or NULL. */
static uint64_t *bitmap_of(struct trie_inner *n, unsigned int *c)
{
	switch (n->type) {
	case TRIE_NAME:
		*c = cds__trie_name_slot[*c];
		return &((struct trie_bodyname *) inner_body(n))->bitmap;
	case TRIE_N40:
		return ((struct trie_body40 *) inner_body(n))->bitmap;
	case TRIE_N256:
		return ((struct trie_body256 *) inner_body(n))->bitmap;
	default:
		return NULL;
	}
}

/* Counts a new position of a 40-node; see load_nr_used(). */
static void publish_nr_used(struct trie_inner *n, unsigned int nr)
{
	/* Release: pairs with load_nr_used(). */
	__atomic_store_n(&n->nr_used, (uint8_t) nr, __ATOMIC_RELEASE);
}

/*
 * Publishes the index of 4/15 node @n: @nr positions in use, the
 * position of rank r in the field r of @order.
 */
static void publish_index(struct trie_inner *n, uint64_t order, unsigned int nr)
{
	/*
	 * Release: pairs with the acquire in small_view_of(); the key byte
	 * and child of a new position are written before.
	 */
	if (n->type == TRIE_N4)
		__atomic_store_n(&n->index4,
				 (uint16_t) (order | nr << INDEX4_NR_SHIFT),
				 __ATOMIC_RELEASE);
	else
		__atomic_store_n(&((struct trie_body15 *) inner_body(n))->index,
				 order | (uint64_t) nr << INDEX15_NR_SHIFT,
				 __ATOMIC_RELEASE);
}

unsigned int cds__trie_count(const struct trie_inner *n)
{
	unsigned int i, nr = 0;

	switch (n->type) {
	case TRIE_N4:
	case TRIE_N15: {
		const uintptr_t *child = small_children(n, n->type);
		struct small_view v;

		small_view_of(n, n->type, &v);
		for (i = 0; i < v.nr; i++)
			nr += load_slot(&child[i]) != 0;
		return nr;
	}
	case TRIE_NAME:
		return (unsigned int) __builtin_popcountll(name_bitmap(n));
	default:
		for (i = 0; i < 4; i++)
			nr += (unsigned int) __builtin_popcountll(
				load_bitmap(big_bitmap(n, n->type), i));
		return nr;
	}
}

bool cds__trie_can_insert(struct trie_inner *n, unsigned int c)
{
	struct small_view v;

	switch (n->type) {
	case TRIE_N256:
		return true;
	case TRIE_NAME:
		return cds__trie_name_slot[c] != 0xff;
	case TRIE_N40:
		if (cds__trie_child_slot(n, c))
			return true;	/* c's own position (I4) */
		/* Relaxed: only lock holders write nr_used. */
		return __atomic_load_n(&n->nr_used, __ATOMIC_RELAXED)
			< TRIE_N40_SLOTS;
	default:
		if (cds__trie_child_slot(n, c))
			return true;
		small_view_of(n, n->type, &v);
		return v.nr < trie_capacity[n->type];
	}
}

/*
 * Gives byte @c a new position in 4/15 node @n, with child @s: key byte
 * (relaxed) and child (release) first, then the index, where the new
 * position takes its rank among the bytes in use.
 */
static void small_append(struct trie_inner *n, unsigned int c, uintptr_t s)
{
	struct small_view v;
	unsigned int eq, lt, r, p;
	uint64_t below, order;

	small_view_of(n, n->type, &v);
	p = v.nr;
	small_cmp(&v.sk, c, &eq, &lt);
	r = popcount16(lt & small_used(p));
	if (n->type == TRIE_N4) {
		union trie_keys4 k;

		/* The view's first 4 bytes, in address order. */
		memcpy(k.b, v.sk.k.b, sizeof(k.b));
		k.b[p] = (uint8_t) c;
		/* Relaxed: published by publish_index(). */
		__atomic_store_n(&n->keys4.w, k.w, __ATOMIC_RELAXED);
	} else {
		struct trie_body15 *b = inner_body(n);
		union trie_keys16 k = v.sk.k;

		k.b[p] = (uint8_t) c;
		/* Relaxed: published by publish_index(). */
		__atomic_store_n(&b->keys.w[p / 8], k.w[p / 8], __ATOMIC_RELAXED);
	}
	/*
	 * Release, though publish_index() publishes the position: an exact
	 * lookup reads the child without the index
	 * (small_find_slot_exact()), and its consume load of the slot pairs
	 * with this store, so the child is seen initialized.
	 */
	publish_slot(&small_children(n, n->type)[p], s);
	/* Ranks r and up move up one field; p takes rank r. */
	order = v.order & ((1ULL << (p * v.bits)) - 1);
	below = order & ((1ULL << (r * v.bits)) - 1);
	order = below | (uint64_t) p << (r * v.bits)
		| (order & ~below) << v.bits;
	publish_index(n, order, p + 1);
}

void cds__trie_insert_child(struct trie_inner *n, unsigned int c, uintptr_t s)
{
	uintptr_t *slot = cds__trie_child_slot(n, c);
	unsigned int nr, bit = c;
	uint64_t *bitmap = bitmap_of(n, &bit);

	if (slot) {
		/* Byte c's own slot or tombstone (I4). */
		publish_slot(slot, s);
	} else if (n->type == TRIE_N40) {
		struct trie_body40 *b = inner_body(n);

		/* Relaxed: only lock holders write nr_used. */
		nr = __atomic_load_n(&n->nr_used, __ATOMIC_RELAXED);
		/* Relaxed: published by the index store below. */
		__atomic_store_n(&b->child[nr], s, __ATOMIC_RELAXED);
		/* Release: pairs with load_index(). */
		__atomic_store_n(&b->index[c], (uint8_t) (nr + 1),
				 __ATOMIC_RELEASE);
		publish_nr_used(n, nr + 1);
	} else {
		small_append(n, c, s);
	}
	if (bitmap)
		bitmap_set(bitmap, bit, true);
}

void cds__trie_remove_child(struct trie_inner *n, unsigned int c)
{
	uintptr_t *slot = cds__trie_child_slot(n, c);
	unsigned int bit = c;
	uint64_t *bitmap = bitmap_of(n, &bit);

	if (bitmap)
		bitmap_set(bitmap, bit, false);
	/* Release: orders the bit's clearing first, for ordered scans. */
	publish_slot(slot, 0);
}

/* ------------------------------------------------------------------------
 * Writers: copies.
 */

void cds__trie_entries_add(struct trie_entries *e, unsigned int c, uintptr_t s)
{
	unsigned int i = e->nr++;

	/* Insertion sort: 4/16 positions are unsorted, at most 16 of them. */
	while (i > 0 && e->byte[i - 1] > c) {
		e->byte[i] = e->byte[i - 1];
		e->slot[i] = e->slot[i - 1];
		i--;
	}
	e->byte[i] = (uint8_t) c;
	e->slot[i] = s;
}

void cds__trie_collect(const struct trie_inner *n, struct trie_entries *e)
{
	unsigned int c, i;
	uintptr_t s;

	e->nr = 0;
	e->end = inner_end(n);
	switch (n->type) {
	case TRIE_N4:
	case TRIE_N15: {
		const uintptr_t *child = small_children(n, n->type);
		struct small_view v;
		unsigned int p;

		/* By rank: byte order, no sort needed. */
		small_view_of(n, n->type, &v);
		for (i = 0; i < v.nr; i++) {
			p = small_pos(&v, i);
			if ((s = load_slot(&child[p]))) {
				e->byte[e->nr] = (uint8_t) small_byte(&v, p);
				e->slot[e->nr++] = s;
			}
		}
		break;
	}
	case TRIE_NAME: {
		const struct trie_bodyname *b = inner_body(n);

		/* Slot order is byte order: no sort needed. */
		for (i = 0; i < TRIE_NAME_SLOTS; i++) {
			if ((s = load_slot(&b->child[i]))) {
				e->byte[e->nr] = cds__trie_name_byte[i];
				e->slot[e->nr++] = s;
			}
		}
		break;
	}
	default:
		for (c = 0; c < 256; c++) {
			if ((s = inner_find_child(n, n->type, c))) {
				e->byte[e->nr] = (uint8_t) c;
				e->slot[e->nr++] = s;
			}
		}
		break;
	}
}

void cds__trie_fill(struct trie_inner *n, const struct trie_entries *e)
{
	unsigned int i, c;

	/*
	 * Plain stores: @n is private until a release store publishes it,
	 * after which readers access these fields atomically.
	 */
	n->end = e->end;
	switch (n->type) {
	case TRIE_N4:
		/* Positions in byte order: rank i is position i. */
		for (i = 0; i < e->nr; i++) {
			n->keys4.b[i] = e->byte[i];
			((struct trie_body4 *) inner_body(n))->child[i] = e->slot[i];
			n->index4 |= (uint16_t) (i << (2 * i));
		}
		n->index4 |= (uint16_t) (e->nr << INDEX4_NR_SHIFT);
		break;
	case TRIE_N15: {
		struct trie_body15 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			b->keys.b[i] = e->byte[i];
			b->child[i] = e->slot[i];
			b->index |= (uint64_t) i << (4 * i);
		}
		b->index |= (uint64_t) e->nr << INDEX15_NR_SHIFT;
		break;
	}
	case TRIE_NAME: {
		struct trie_bodyname *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			c = cds__trie_name_slot[e->byte[i]];
			urcu_assert_debug(c < TRIE_NAME_SLOTS);
			b->child[c] = e->slot[i];
			b->bitmap |= 1ULL << c;
		}
		break;
	}
	case TRIE_N40: {
		struct trie_body40 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			c = e->byte[i];
			b->child[i] = e->slot[i];
			b->index[c] = (uint8_t) (i + 1);
			b->bitmap[c / 64] |= 1ULL << (c % 64);
		}
		n->nr_used = (uint8_t) e->nr;
		break;
	}
	default: {
		struct trie_body256 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			c = e->byte[i];
			b->child[c] = e->slot[i];
			b->bitmap[c / 64] |= 1ULL << (c % 64);
		}
		break;
	}
	}
}
