/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-lookup.c: exact and longest-prefix lookups.
 *
 * An exact lookup never reads a prefix: at each node it checks only that
 * the key reaches the node's depth and follows the child of the key's
 * byte there (or the end slot when the key ends there).  If the key is
 * in the trie this is its path; if not, the walk ends at nothing or at
 * some other key's leaf, which the one full comparison at the end
 * rejects.  The slot's tags give the node's type and, most often, its
 * depth (rcutrie-internal.h), so a 40-, name or 256-node costs the line
 * of the child slot only, a 4-node its one line, a 15-node its first
 * line (key bytes) and the child's; then come the leaf and its key.
 * 4- and 15-nodes take one path, with no branch on which of the two
 * (small_find_slot_exact()).
 *
 * A longest-prefix lookup must know where the key leaves the trie's
 * paths, so it compares every prefix and remembers the last end slot
 * (stored key) it passes; the leaf it may end at is a candidate too.
 *
 * Why a concurrent lookup is right (docs/trie.md): every node it reaches
 * was live at some moment of the call, and each slot it reads holds what
 * the live trie held at some moment of the call (I2, I3), so the key's
 * path, if the key is present throughout, is followed to its chain.
 */
#include "rcutrie-internal.h"
#include "urcu-export.h"

URCU_API struct cds_trie_node *cds_trie_lookup(struct cds_trie *trie,
		const void *key, size_t len)
{
	const unsigned char *k = key;
	uintptr_t s = load_slot(&trie->root);
	const struct trie_inner *n;
	struct cds_trie_node *x;
	size_t d = (size_t) -1;		/* depth of the node left last */

	cds__trie_check_reader(trie, "cds_trie_lookup");
	for (;;) {
		if (!s)
			return NULL;
		if (slot_is_leaf(s))
			break;
		n = slot_inner(s);
		check_inner(n);
		switch (slot_type(s)) {
		case TRIE_N4:
		case TRIE_N15: {
			const uintptr_t *slot;

			prefetch_small(n, slot_type(s));
			d = n->depth;
			if (len <= d)
				goto end;
			slot = small_find_slot_exact(n, slot_type(s), k[d]);
			s = slot ? load_slot(slot) : 0;
			break;
		}
		case TRIE_NAME: {
			unsigned int i;

			d = tagged_depth(s, n, d);
			if (len <= d)
				goto end;
			i = cds__trie_name_slot[k[d]];
			if (i >= TRIE_NAME_SLOTS)
				return NULL;
			s = load_slot(&((const struct trie_bodyname *)
					inner_body(n))->child[i]);
			break;
		}
		case TRIE_N40: {
			const struct trie_body40 *b = inner_body(n);
			unsigned int i;

			d = tagged_depth(s, n, d);
			if (len <= d)
				goto end;
			i = load_index(b, k[d]);
			s = i ? load_slot(&b->child[i - 1]) : 0;
			break;
		}
		default:
			d = tagged_depth(s, n, d);
			if (len <= d)
				goto end;
			s = load_slot(&((const struct trie_body256 *)
					inner_body(n))->child[k[d]]);
			break;
		}
	}
	x = slot_leaf(s);
	return x->key_len == len && key_eq(x->key, k, len) ? x : NULL;
end:
	/* The key ends at or before node n's depth: its end slot, or none. */
	if (len < d || !(s = inner_end(n)))
		return NULL;
	x = slot_leaf(s);
	return x->key_len == len && key_eq(x->key, k, len) ? x : NULL;
}

URCU_API struct cds_trie_node *cds_trie_lookup_longest_prefix(
		struct cds_trie *trie, const void *key, size_t len)
{
	const unsigned char *k = key;
	uintptr_t s = load_slot(&trie->root), best = 0, e;
	const struct trie_inner *n;
	struct cds_trie_node *x;

	cds__trie_check_reader(trie, "cds_trie_lookup_longest_prefix");
	while (s && !slot_is_leaf(s)) {
		size_t start;

		n = slot_inner(s);
		check_inner(n);
		start = inner_start(n);
		/* Keys below are at least depth bytes long. */
		if (len < n->depth
		    || (n->prefix_len
			&& memcmp(inner_prefix(n), k + start, n->prefix_len)))
			break;
		e = inner_end(n);
		if (e)
			best = e;
		if (len == n->depth)
			break;
		s = inner_find_child(n, slot_type(s), k[n->depth]);
	}
	if (s && slot_is_leaf(s)) {
		x = slot_leaf(s);
		if (x->key_len <= len && !key_cmp(x->key, x->key_len, k, x->key_len))
			best = s;
	}
	return best ? slot_leaf(best) : NULL;
}
