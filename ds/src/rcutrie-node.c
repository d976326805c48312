/*
 * rcutrie-node.c: the four inner-node layouts (rcutrie-internal.h):
 * ordered scans for readers, and for writers the in-place insertion and
 * removal of a child, reading a node's entries and filling a new node.
 *
 * In-place changes follow (I4): a new position gets its key byte (4/16)
 * or its child (48) first, with relaxed stores that the release store
 * counting or indexing the position publishes; a child stored into an
 * existing position is published by its own release store.  Bitmap bits
 * (48/256) are set after the child is stored and cleared before it is
 * removed: a child present from before an ordered scan until after it
 * has its bit set throughout the scan.
 */
#include "rcutrie-internal.h"

size_t cds__trie_inner_size(unsigned int type, uint32_t prefix_len)
{
	/* Rounded up for the allocator's 8-byte granule. */
	return sizeof(struct trie_inner) + trie_body_size[type]
		+ ((prefix_len + 7U) & ~7U);
}

unsigned int cds__trie_type_for(unsigned int nr)
{
	unsigned int type = TRIE_N4;

	while (nr > trie_capacity[type])
		type++;
	return type;
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
	 * Release: a reader that sees the bit set (acquire in load_bitmap())
	 * then sees the child stored before it.
	 */
	__atomic_store_n(&bitmap[c / 64], on ? w | bit : w & ~bit,
			 __ATOMIC_RELEASE);
}

uintptr_t *cds__trie_child_slot(struct trie_inner *n, unsigned int c)
{
	/* Same loads as a reader's; under the lock they are exact. */
	return inner_child_slot(n, c);
}

/* Counts a new position of a 4/16/48 node; see load_nr_used(). */
static void publish_nr_used(struct trie_inner *n, unsigned int nr)
{
	/* Release: pairs with load_nr_used(). */
	__atomic_store_n(&n->nr_used, (uint8_t) nr, __ATOMIC_RELEASE);
}

bool cds__trie_can_insert(struct trie_inner *n, unsigned int c)
{
	/* Relaxed: only lock holders write nr_used. */
	unsigned int nr = __atomic_load_n(&n->nr_used, __ATOMIC_RELAXED);

	if (n->type == TRIE_N256 || cds__trie_child_slot(n, c))
		return true;	/* c's own position (I4) */
	return nr < trie_capacity[n->type];
}

void cds__trie_insert_child(struct trie_inner *n, unsigned int c, uintptr_t s)
{
	uintptr_t *slot = cds__trie_child_slot(n, c);
	/* Relaxed: only lock holders write nr_used. */
	unsigned int nr = __atomic_load_n(&n->nr_used, __ATOMIC_RELAXED);

	switch (n->type) {
	case TRIE_N4:
	case TRIE_N16: {
		uint64_t *word;
		union trie_keys16 k16;
		union trie_keys4 k4;
		uintptr_t *child;

		if (slot)
			break;		/* byte c's tombstone */
		if (n->type == TRIE_N4) {
			struct trie_body4 *b = inner_body(n);

			k4 = load_keys4(b);
			k4.b[nr] = (uint8_t) c;
			/* Relaxed: published by publish_nr_used() below. */
			__atomic_store_n(&b->keys.w, k4.w, __ATOMIC_RELAXED);
			child = &b->child[nr];
		} else {
			struct trie_body16 *b = inner_body(n);

			k16 = load_keys16(b);
			k16.b[nr] = (uint8_t) c;
			word = &b->keys.w[nr / 8];
			/* Relaxed: published by publish_nr_used() below. */
			__atomic_store_n(word, k16.w[nr / 8], __ATOMIC_RELAXED);
			child = &b->child[nr];
		}
		/* Relaxed: published by publish_nr_used() below. */
		__atomic_store_n(child, s, __ATOMIC_RELAXED);
		publish_nr_used(n, nr + 1);
		set_inner_count(n, inner_count(n) + 1);
		return;
	}
	case TRIE_N48: {
		struct trie_body48 *b = inner_body(n);

		if (!slot) {
			/* Relaxed: published by the index store below. */
			__atomic_store_n(&b->child[nr], s, __ATOMIC_RELAXED);
			/* Release: pairs with load_index(). */
			__atomic_store_n(&b->index[c], (uint8_t) (nr + 1),
					 __ATOMIC_RELEASE);
			publish_nr_used(n, nr + 1);
		} else {
			publish_slot(slot, s);
		}
		bitmap_set(b->bitmap, c, true);
		set_inner_count(n, inner_count(n) + 1);
		return;
	}
	default: {
		struct trie_body256 *b = inner_body(n);

		publish_slot(slot, s);
		bitmap_set(b->bitmap, c, true);
		set_inner_count(n, inner_count(n) + 1);
		return;
	}
	}
	/* 4/16: reuse byte c's own tombstone. */
	publish_slot(slot, s);
	set_inner_count(n, inner_count(n) + 1);
}

void cds__trie_remove_child(struct trie_inner *n, unsigned int c)
{
	uintptr_t *slot = cds__trie_child_slot(n, c);

	if (n->type == TRIE_N48)
		bitmap_set(((struct trie_body48 *) inner_body(n))->bitmap, c, false);
	else if (n->type == TRIE_N256)
		bitmap_set(((struct trie_body256 *) inner_body(n))->bitmap, c, false);
	/* Release: orders the bit's clearing first, for ordered scans. */
	publish_slot(slot, 0);
	set_inner_count(n, inner_count(n) - 1);
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
	unsigned int c, i, nr = load_nr_used(n);
	uintptr_t s;

	e->nr = 0;
	e->end = inner_end(n);
	switch (n->type) {
	case TRIE_N4: {
		const struct trie_body4 *b = inner_body(n);
		union trie_keys4 k = load_keys4(b);

		for (i = 0; i < nr; i++)
			if ((s = load_slot(&b->child[i])))
				cds__trie_entries_add(e, k.b[i], s);
		break;
	}
	case TRIE_N16: {
		const struct trie_body16 *b = inner_body(n);
		union trie_keys16 k = load_keys16(b);

		for (i = 0; i < nr; i++)
			if ((s = load_slot(&b->child[i])))
				cds__trie_entries_add(e, k.b[i], s);
		break;
	}
	default:
		for (c = 0; c < 256; c++)
			if ((s = inner_find_child(n, c)))
				cds__trie_entries_add(e, c, s);
		break;
	}
}

void cds__trie_fill(struct trie_inner *n, const struct trie_entries *e)
{
	unsigned int i;

	/*
	 * Plain stores: @n is private until a release store publishes it,
	 * after which readers access these fields atomically.
	 */
	n->end = e->end;
	n->count = (uint16_t) e->nr;
	switch (n->type) {
	case TRIE_N4: {
		struct trie_body4 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			b->keys.b[i] = e->byte[i];
			b->child[i] = e->slot[i];
		}
		n->nr_used = (uint8_t) e->nr;
		break;
	}
	case TRIE_N16: {
		struct trie_body16 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			b->keys.b[i] = e->byte[i];
			b->child[i] = e->slot[i];
		}
		n->nr_used = (uint8_t) e->nr;
		break;
	}
	case TRIE_N48: {
		struct trie_body48 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			b->child[i] = e->slot[i];
			b->index[e->byte[i]] = (uint8_t) (i + 1);
			b->bitmap[e->byte[i] / 64] |= 1ULL << (e->byte[i] % 64);
		}
		n->nr_used = (uint8_t) e->nr;
		break;
	}
	default: {
		struct trie_body256 *b = inner_body(n);

		for (i = 0; i < e->nr; i++) {
			b->child[e->byte[i]] = e->slot[i];
			b->bitmap[e->byte[i] / 64] |= 1ULL << (e->byte[i] % 64);
		}
		break;
	}
	}
}
