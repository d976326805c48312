/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-insert.c: cds_trie_add(), _add_unique(), _add_replace() and
 * cds_trie_replace().
 *
 * An addition walks to the key's place (rcutrie-walk.c) and, depending
 * on what it finds there:
 *   - the key's chain: locks the chain's holder and appends to, reports,
 *     or replaces the chain's first node (I6);
 *   - another key's leaf: a new 4-node holding both is published in the
 *     leaf's slot (I5);
 *   - a node whose prefix the key leaves: a new 4-node with the common
 *     part of the prefix takes the node's place, holding the new leaf
 *     and a copy of the node with the rest of its prefix (I5);
 *   - a node without a child for the key's next byte (or without an end
 *     slot entry, for a key ending there): the leaf is stored in place
 *     when the node has room (I4), else a copy one size up (or the same
 *     size without tombstones) holding it takes the node's place.
 * Everything an addition allocates is allocated before it publishes
 * anything: out of memory returns -ENOMEM with the trie unchanged.
 * When the check made under the locks finds that the trie changed since
 * the walk, the addition frees what it allocated and walks again.
 *
 * Ordering: the caller's node (its key, next and state, and whatever the
 * caller wrote before the call) is published by the release store that
 * makes it reachable, paired with the readers' consume loads.
 */
#include <errno.h>

#include "rcutrie-internal.h"
#include "urcu-export.h"

enum add_mode { ADD_DUP, ADD_UNIQUE, ADD_REPLACE };

/* Walk again: the trie changed between the walk and the locks. */
#define RETRY	(-EAGAIN)

static const char *const add_names[] = {
	[ADD_DUP] = "cds_trie_add",
	[ADD_UNIQUE] = "cds_trie_add_unique",
	[ADD_REPLACE] = "cds_trie_add_replace",
};

/* Checks a node about to be added: 0 or -EINVAL. */
static int check_new(const char *what, const struct cds_trie_node *node)
{
	if (!node) {
		cds__trie_misuse(what, "NULL node");
		return -EINVAL;
	}
	if (node->key_len > CDS_TRIE_KEY_MAX || (node->key_len && !node->key)) {
		cds__trie_misuse(what, "key longer than CDS_TRIE_KEY_MAX or NULL");
		return -EINVAL;
	}
	if (node_state(node) == NODE_LINKED) {
		cds__trie_misuse(what, "node already in a trie");
		return -EINVAL;
	}
	return 0;
}

/* Makes @node ready to be published as the last node of a chain. */
static void prepare(struct cds_trie_node *node)
{
	/* Plain store: private until the release that publishes it. */
	node->next = NULL;
	set_node_state(node, NODE_LINKED);
}

/* Adds @node to the chain of its key, whose holder is locked. */
static int chain_add(struct cds_trie *trie, struct trie_inner *holder,
		     uintptr_t *slot, struct cds_trie_node *head,
		     struct cds_trie_node *node, enum add_mode mode,
		     struct cds_trie_node **other)
{
	struct cds_trie_node *tail, *x;
	int ret = 0;

	switch (mode) {
	case ADD_UNIQUE:
		*other = head;
		ret = -EEXIST;
		break;
	case ADD_REPLACE:
		prepare(node);
		/* Plain store: published by the slot's release below. */
		node->next = load_next(head);
		publish_slot(slot, leaf_slot(node));
		set_node_state(head, NODE_DELETED);
		*other = head;
		break;
	default:
		for (tail = head; (x = load_next(tail)); tail = x)
			;
		prepare(node);
		/* Release: pairs with load_next(); publishes @node. */
		__atomic_store_n(&tail->next, node, __ATOMIC_RELEASE);
		break;
	}
	unlock_holder(trie, holder);
	return ret;
}

static int add_root(struct cds_trie *trie, struct cds_trie_node *node)
{
	trie_lock(&trie->root_lock);
	if (load_slot(&trie->root)) {
		trie_unlock(&trie->root_lock);
		return RETRY;
	}
	prepare(node);
	publish_slot(&trie->root, leaf_slot(node));
	trie_unlock(&trie->root_lock);
	return 0;
}

/* The walk met @node's key in a leaf slot or an end slot. */
static int add_equal(struct cds_trie *trie, struct trie_inner *holder,
		     uintptr_t *slot, struct cds_trie_node *node,
		     enum add_mode mode, struct cds_trie_node **other)
{
	uintptr_t v;

	if (!lock_holder(trie, holder))
		return RETRY;
	v = load_slot(slot);
	if (!v || !slot_is_leaf(v)
	    || key_cmp(slot_leaf(v)->key, slot_leaf(v)->key_len,
		       node->key, node->key_len)) {
		unlock_holder(trie, holder);
		return RETRY;
	}
	return chain_add(trie, holder, slot, slot_leaf(v), node, mode, other);
}

/* The key ends at node @w->node: its end slot. */
static int add_end(struct cds_trie *trie, const struct trie_wpos *w,
		   struct cds_trie_node *node, enum add_mode mode,
		   struct cds_trie_node **other)
{
	struct trie_inner *n = w->node;
	uintptr_t v;

	if (!w->value) {
		if (!trie_lock(&n->lock))
			return RETRY;
		v = load_slot(&n->end);
		if (!v) {
			prepare(node);
			publish_slot(&n->end, leaf_slot(node));
			trie_unlock(&n->lock);
			return 0;
		}
		return chain_add(trie, n, &n->end, slot_leaf(v), node, mode,
				 other);
	}
	return add_equal(trie, n, &n->end, node, mode, other);
}

/*
 * The walk met another key's leaf: both go into a new 4-node branching
 * where the keys first differ, with the rest of their common part as its
 * prefix.
 */
static int add_split_leaf(struct cds_trie *trie, const struct trie_wpos *w,
			  struct cds_trie_node *node)
{
	struct cds_trie_node *x = slot_leaf(w->value);
	const unsigned char *key = node->key;
	size_t len = node->key_len, lcp = w->slot_depth;
	struct trie_entries e = { .nr = 0, .end = 0 };
	struct trie_inner *n;

	while (lcp < len && lcp < x->key_len && key[lcp] == x->key[lcp])
		lcp++;
	n = cds__trie_inner_new(trie, TRIE_N4, (uint32_t) lcp,
				(uint32_t) (lcp - w->slot_depth));
	if (!n)
		return -ENOMEM;
	inner_set_path(n, key + lcp);
	if (x->key_len == lcp)
		e.end = w->value;
	else
		cds__trie_entries_add(&e, x->key[lcp], w->value);
	if (len == lcp)
		e.end = leaf_slot(node);
	else
		cds__trie_entries_add(&e, key[lcp], leaf_slot(node));
	cds__trie_fill(n, &e);

	if (!lock_holder(trie, w->node))
		goto retry;
	if (load_slot(w->slot) != w->value) {
		unlock_holder(trie, w->node);
		goto retry;
	}
	prepare(node);
	publish_slot(w->slot, inner_slot(n));
	unlock_holder(trie, w->node);
	return 0;
retry:
	cds__trie_inner_free_now(trie, n);
	return RETRY;
}

/*
 * Locks the holder of the slot that leads to @w->node, then the node,
 * checking that both are live and still linked.  False (nothing locked)
 * when the trie changed.
 */
static bool lock_parent_and_node(struct cds_trie *trie,
				 const struct trie_wpos *w)
{
	if (!lock_holder(trie, w->parent))
		return false;
	if (!slot_holds(load_slot(w->parent_slot), w->node)) {
		unlock_holder(trie, w->parent);
		return false;
	}
	if (!trie_lock(&w->node->lock)) {
		unlock_holder(trie, w->parent);
		return false;
	}
	return true;
}

/* Publishes @repl in place of the locked node @w->node, and retires it. */
static void replace_node(struct cds_trie *trie, const struct trie_wpos *w,
			 uintptr_t repl)
{
	publish_slot(w->parent_slot, repl);
	trie_unlock_obsolete(&w->node->lock);
	unlock_holder(trie, w->parent);
	cds__trie_retire(trie, w->node);
}

/*
 * The key leaves node @w->node's prefix at byte @w->mismatch of it: a
 * new 4-node with the prefix's first part branches there, between the
 * new leaf and a copy of the node with the prefix's rest.
 */
static int add_split_prefix(struct cds_trie *trie, const struct trie_wpos *w,
			    struct cds_trie_node *node)
{
	struct trie_inner *old = w->node, *top, *low;
	uint32_t i = w->mismatch, plen = old->prefix_len;
	size_t depth = inner_start(old) + i;
	struct trie_entries e;

	top = cds__trie_inner_new(trie, TRIE_N4, (uint32_t) depth, i);
	low = cds__trie_inner_new(trie, old->type, old->depth, plen - i - 1);
	if (!top || !low) {
		if (top)
			cds__trie_inner_free_now(trie, top);
		if (low)
			cds__trie_inner_free_now(trie, low);
		return -ENOMEM;
	}
	/* The key follows top's path (I1): it ends at the mismatch. */
	inner_set_path(top, node->key + depth);
	inner_set_path(low, inner_path_end(old));

	if (!lock_parent_and_node(trie, w)) {
		cds__trie_inner_free_now(trie, top);
		cds__trie_inner_free_now(trie, low);
		return RETRY;
	}
	cds__trie_collect(old, &e);
	prepare(node);
	if (!e.nr && !e.end) {
		/* An empty node being removed (I7): the leaf replaces it. */
		cds__trie_inner_free_now(trie, top);
		cds__trie_inner_free_now(trie, low);
		replace_node(trie, w, leaf_slot(node));
		return 0;
	}
	cds__trie_fill(low, &e);
	e.nr = 0;
	e.end = 0;
	cds__trie_entries_add(&e, inner_prefix(old)[i], inner_slot(low));
	if (node->key_len == depth)
		e.end = leaf_slot(node);
	else
		cds__trie_entries_add(&e, node->key[depth], leaf_slot(node));
	cds__trie_fill(top, &e);
	replace_node(trie, w, inner_slot(top));
	return 0;
}

/* Node @w->node has no child for byte @w->c: add the leaf there. */
static int add_child(struct cds_trie *trie, const struct trie_wpos *w,
		     struct cds_trie_node *node)
{
	struct trie_inner *old = w->node, *big;
	unsigned int c = w->c, type;
	struct trie_entries e;
	uintptr_t *slot;

	if (!trie_lock(&old->lock))
		return RETRY;
	slot = cds__trie_child_slot(old, c);
	if (slot && load_slot(slot)) {
		trie_unlock(&old->lock);
		return RETRY;
	}
	if (cds__trie_can_insert(old, c)) {
		prepare(node);
		cds__trie_insert_child(old, c, leaf_slot(node));
		trie_unlock(&old->lock);
		return 0;
	}
	cds__trie_collect(old, &e);
	type = cds__trie_type_for(&e, (int) c);
	trie_unlock(&old->lock);

	/* Full, or not for this byte: a copy with room takes its place. */
	big = cds__trie_inner_new(trie, type, old->depth, old->prefix_len);
	if (!big)
		return -ENOMEM;
	inner_set_path(big, inner_path_end(old));
	if (!lock_parent_and_node(trie, w))
		goto retry;
	slot = cds__trie_child_slot(old, c);
	cds__trie_collect(old, &e);
	if ((slot && load_slot(slot)) || !cds__trie_type_fits(type, &e, (int) c)) {
		trie_unlock(&old->lock);
		unlock_holder(trie, w->parent);
		goto retry;
	}
	prepare(node);
	cds__trie_entries_add(&e, c, leaf_slot(node));
	cds__trie_fill(big, &e);
	replace_node(trie, w, inner_slot(big));
	return 0;
retry:
	cds__trie_inner_free_now(trie, big);
	return RETRY;
}

static int add(struct cds_trie *trie, struct cds_trie_node *node,
	       enum add_mode mode, struct cds_trie_node **other)
{
	struct cds_trie_node *ignored;
	struct trie_wpos w;
	int ret;

	cds__trie_check_reader(trie, add_names[mode]);
	ret = check_new(add_names[mode], node);
	if (ret)
		return ret;
	if (!other)
		other = &ignored;
	*other = NULL;
	do {
		cds__trie_walk(trie, node->key, node->key_len, &w);
		switch (w.stop) {
		case STOP_EMPTY:
			ret = add_root(trie, node);
			break;
		case STOP_LEAF:
			if (key_cmp(slot_leaf(w.value)->key,
				    slot_leaf(w.value)->key_len,
				    node->key, node->key_len))
				ret = add_split_leaf(trie, &w, node);
			else
				ret = add_equal(trie, w.node, w.slot, node, mode,
						other);
			break;
		case STOP_END:
			ret = add_end(trie, &w, node, mode, other);
			break;
		case STOP_SPLIT:
			ret = add_split_prefix(trie, &w, node);
			break;
		default:
			ret = add_child(trie, &w, node);
			break;
		}
	} while (ret == RETRY);
	return ret;
}

URCU_API int cds_trie_add(struct cds_trie *trie, struct cds_trie_node *node)
{
	return add(trie, node, ADD_DUP, NULL);
}

URCU_API int cds_trie_add_unique(struct cds_trie *trie,
		struct cds_trie_node *node, struct cds_trie_node **existing)
{
	return add(trie, node, ADD_UNIQUE, existing);
}

URCU_API int cds_trie_add_replace(struct cds_trie *trie,
		struct cds_trie_node *node, struct cds_trie_node **replaced)
{
	return add(trie, node, ADD_REPLACE, replaced);
}

URCU_API int cds_trie_replace(struct cds_trie *trie,
		struct cds_trie_node *old_node, struct cds_trie_node *new_node)
{
	struct cds_trie_node *prev;
	struct trie_chain ch;
	int ret;

	cds__trie_check_reader(trie, "cds_trie_replace");
	if (!old_node)
		return -ENOENT;
	ret = check_new("cds_trie_replace", new_node);
	if (ret)
		return ret;
	if (key_cmp(old_node->key, old_node->key_len,
		    new_node->key, new_node->key_len)) {
		cds__trie_misuse("cds_trie_replace", "the keys differ");
		return -EINVAL;
	}
	if (node_state(old_node) != NODE_LINKED)
		return -ENOENT;
	ret = cds__trie_lock_chain(trie, old_node->key, old_node->key_len, &ch);
	if (ret)
		return ret;
	if (!chain_find(ch.head, old_node, &prev)) {
		unlock_holder(trie, ch.holder);
		return -ENOENT;
	}
	prepare(new_node);
	/* Plain store: published with the node below. */
	new_node->next = load_next(old_node);
	if (prev)
		/* Release: pairs with load_next(); publishes @new_node. */
		__atomic_store_n(&prev->next, new_node, __ATOMIC_RELEASE);
	else
		publish_slot(ch.slot, leaf_slot(new_node));
	set_node_state(old_node, NODE_DELETED);
	unlock_holder(trie, ch.holder);
	return 0;
}
