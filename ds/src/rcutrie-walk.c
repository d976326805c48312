/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-walk.c: the writers' walk to the place of a key.
 *
 * Updates first walk the trie exactly as readers do, without locks and
 * inside the caller's read-side section (so nothing they reach is freed
 * under them), comparing every prefix byte: they need to know where the
 * key leaves the existing paths.  They then lock the node(s) to change
 * and check that what the walk saw still holds (rcutrie-insert.c,
 * rcutrie-delete.c).
 */
#include <errno.h>

#include "rcutrie-internal.h"

void cds__trie_walk(struct cds_trie *trie, const unsigned char *key, size_t len,
		    struct trie_wpos *w)
{
	struct trie_inner *holder = NULL, *n;
	uintptr_t *slot = &trie->root;
	uintptr_t v = load_slot(slot), *cs;
	size_t depth = 0;
	uint32_t i;

	if (!v) {
		w->stop = STOP_EMPTY;
		w->slot = slot;
		return;
	}
	for (;;) {
		if (slot_is_leaf(v)) {
			w->stop = STOP_LEAF;
			w->node = holder;
			w->slot = slot;
			w->value = v;
			w->slot_depth = depth;
			return;
		}
		n = slot_inner(v);
		check_inner(n);
		prefetch_inner(v);
		urcu_assert_debug(inner_start(n) == depth);
		urcu_assert_debug(slot_type(v) == n->type);
		w->node = n;
		w->parent = holder;
		w->parent_slot = slot;
		if (n->prefix_len
		    && (depth + n->prefix_len > len
			|| memcmp(inner_prefix(n), key + depth, n->prefix_len))) {
			const unsigned char *p = inner_prefix(n);

			/* Stops within the prefix: it differs, or the key ends. */
			for (i = 0; depth + i < len && key[depth + i] == p[i]; i++)
				;
			w->stop = STOP_SPLIT;
			w->mismatch = i;
			return;
		}
		if (len == n->depth) {
			w->stop = STOP_END;
			w->slot = &n->end;
			w->value = inner_end(n);
			return;
		}
		cs = inner_child_slot(n, slot_type(v), key[n->depth]);
		v = cs ? load_slot(cs) : 0;
		if (!v) {
			w->stop = STOP_NO_CHILD;
			w->c = key[n->depth];
			return;
		}
		holder = n;
		slot = cs;
		depth = n->depth + 1;
	}
}

/* Whether leaf slot @v holds @key. */
static bool leaf_holds(uintptr_t v, const unsigned char *key, size_t len)
{
	struct cds_trie_node *x = slot_leaf(v);

	return !key_cmp(x->key, x->key_len, key, len);
}

int cds__trie_lock_chain(struct cds_trie *trie, const unsigned char *key,
			 size_t len, struct trie_chain *ch)
{
	struct trie_wpos w;
	uintptr_t v;

	for (;;) {
		cds__trie_walk(trie, key, len, &w);
		if (w.stop == STOP_LEAF) {
			if (!leaf_holds(w.value, key, len))
				return -ENOENT;
		} else if (w.stop != STOP_END || !w.value) {
			return -ENOENT;
		}
		if (!lock_holder(trie, w.node))
			continue;	/* obsolete: walk again */
		v = load_slot(w.slot);
		if (v && slot_is_leaf(v) && leaf_holds(v, key, len)) {
			ch->holder = w.node;
			ch->slot = w.slot;
			ch->head = slot_leaf(v);
			return 0;
		}
		unlock_holder(trie, w.node);
		/* The key left, or a prefix split moved its chain down. */
		if (!v || slot_is_leaf(v))
			return -ENOENT;
	}
}
