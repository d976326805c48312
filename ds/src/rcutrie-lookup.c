/*
 * rcutrie-lookup.c: exact and longest-prefix lookups.
 *
 * An exact lookup never reads a prefix: at each node it checks only that
 * the key reaches the node's depth and follows the child of the key's
 * byte there (or the end slot when the key ends there).  If the key is
 * in the trie this is its path; if not, the walk ends at nothing or at
 * some other key's leaf, which the one full comparison at the end
 * rejects.  So a lookup reads one header line and one child line per
 * level, the leaf, and the leaf's key.
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
	struct cds_trie_node *x;

	cds__trie_check_reader(trie, "cds_trie_lookup");
	while (s && !slot_is_leaf(s)) {
		const struct trie_inner *n = slot_inner(s);

		if (len <= n->depth) {
			s = len == n->depth ? inner_end(n) : 0;
			break;
		}
		s = inner_find_child(n, k[n->depth]);
	}
	if (!s)
		return NULL;
	x = slot_leaf(s);
	return x->key_len == len && key_eq(x->key, k, len) ? x : NULL;
}

URCU_API struct cds_trie_node *cds_trie_lookup_longest_prefix(
		struct cds_trie *trie, const void *key, size_t len)
{
	const unsigned char *k = key;
	uintptr_t s = load_slot(&trie->root), best = 0, e;
	struct cds_trie_node *x;

	cds__trie_check_reader(trie, "cds_trie_lookup_longest_prefix");
	while (s && !slot_is_leaf(s)) {
		const struct trie_inner *n = slot_inner(s);
		size_t start = inner_start(n);

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
		s = inner_find_child(n, k[n->depth]);
	}
	if (s && slot_is_leaf(s)) {
		x = slot_leaf(s);
		if (x->key_len <= len && !key_cmp(x->key, x->key_len, k, x->key_len))
			best = s;
	}
	return best ? slot_leaf(best) : NULL;
}
