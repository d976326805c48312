/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutrie-delete.c: cds_trie_del(), and the cleanup it runs next.
 *
 * A removal locks the holder of the key's chain (rcutrie-walk.c) and
 * unlinks the node in place (I6): from its predecessor in the chain, or
 * from the slot, which then holds the next duplicate or, for the last
 * one, nothing.  That is the only step that matters to readers and it
 * needs no memory, so a removal never fails for lack of it.
 *
 * When the holder is left with at most one entry, or with few enough
 * children for a smaller type, the removal then cleans up, one node at a
 * time, each step locking the node's parent (found by walking the key
 * again) and then the node (I5):
 *   - an empty node is removed from its parent (I7), and the parent is
 *     looked at next;
 *   - a node with a single inner child is replaced by a copy of the
 *     child whose prefix also holds the node's prefix and the child's
 *     byte (path compression);
 *   - a node with few children is replaced by a copy of a smaller type.
 * A node left with a single leaf (a child or its end slot) stays: putting
 * the leaf in its place would save one level, but a key removed and added
 * again (a common pattern: an update) would then cost a new node and a
 * grace period each time, where it now reuses its position in place.
 * The copies need memory: without it, or when the trie changes under a
 * merge or shrink too often, the node stays as it is, which is correct,
 * only larger.  An empty node is always removed: that step allocates
 * nothing, and it is retried until the node is gone or not empty.
 */
#include <errno.h>

#include "rcutrie-internal.h"
#include "urcu-export.h"

/* Give up a merge or shrink after this many changes under it. */
#define CLEANUP_TRIES	8

/* A type above 4 shrinks once its children are this few. */
static const unsigned int shrink_at[TRIE_NR_TYPES] = { 0, 3, 12, 12, 30 };

/* Whether a node of @type with @entries and @count children needs work. */
static bool needs_cleanup(unsigned int type, unsigned int entries,
			  unsigned int count)
{
	return entries <= 1 || (type > TRIE_N4 && count <= shrink_at[type]);
}

/*
 * Finds the slot leading to live node @n, walking @key (which @n's path
 * starts): stores it and its holder (NULL: the root slot).  False when
 * @n is no longer reachable.
 */
static bool find_parent(struct cds_trie *trie, const struct trie_inner *n,
			const unsigned char *key, size_t len,
			struct trie_inner **parent, uintptr_t **pslot)
{
	struct trie_inner *holder = NULL, *x;
	uintptr_t *slot = &trie->root;
	uintptr_t v = load_slot(slot);

	while (v && !slot_is_leaf(v)) {
		x = slot_inner(v);
		if (x == n) {
			*parent = holder;
			*pslot = slot;
			return true;
		}
		if (len <= x->depth)
			return false;
		slot = inner_child_slot(x, slot_type(v), key[x->depth]);
		if (!slot)
			return false;
		holder = x;
		v = load_slot(slot);
	}
	return false;
}

/* What a cleanup step is about to do. */
enum cleanup {
	CLEAN_NONE,
	CLEAN_PRUNE,	/* remove the empty node */
	CLEAN_MERGE,	/* put a longer-prefix copy of its single child */
	CLEAN_SHRINK,	/* put a smaller copy */
};

/*
 * The cleanup @n needs, judging by its current state (exact when @n is
 * locked); for MERGE, its only child and that child's byte.
 */
static enum cleanup plan(const struct trie_inner *n, struct trie_inner **only,
			 int *byte)
{
	unsigned int count = cds__trie_count(n);
	/* Relaxed: exact under the lock, a hint otherwise. */
	unsigned int entries = count + (__atomic_load_n(&n->end,
							__ATOMIC_RELAXED) != 0);
	uintptr_t s;

	if (!needs_cleanup(n->type, entries, count))
		return CLEAN_NONE;
	if (!entries)
		return CLEAN_PRUNE;
	if (entries > 1)
		return CLEAN_SHRINK;
	if (!count)
		return CLEAN_NONE;	/* only the end slot: stays */
	s = inner_next_child(n, n->type, -1, byte);
	if (!s || slot_is_leaf(s))
		return CLEAN_NONE;	/* a leaf stays; or changing (unlocked) */
	*only = slot_inner(s);
	return CLEAN_MERGE;
}

/* The node that takes locked @n's place after @what, built in @repl. */
static void build_replacement(const struct trie_inner *n, enum cleanup what,
			      struct trie_inner *only, int byte,
			      struct trie_inner *repl)
{
	struct trie_entries e;

	if (what == CLEAN_MERGE) {
		unsigned char *p = inner_prefix(repl);

		if (repl->depth >= TRIE_DEEP) {
			/* only is as deep: its path is the whole story (I8). */
			inner_set_path(repl, inner_path_end(only));
		} else {
			memcpy(p, inner_prefix(n), n->prefix_len);
			p[n->prefix_len] = (unsigned char) byte;
			memcpy(p + n->prefix_len + 1, inner_prefix(only),
			       only->prefix_len);
		}
		cds__trie_collect(only, &e);
	} else {
		inner_set_path(repl, inner_path_end(n));
		cds__trie_collect(n, &e);
	}
	cds__trie_fill(repl, &e);
}

/*
 * One cleanup step on @n (reached by walking @key).  Returns the node to
 * look at next (the parent, after a prune), or NULL.
 */
static struct trie_inner *cleanup_step(struct cds_trie *trie,
				       struct trie_inner *n,
				       const unsigned char *key, size_t len)
{
	struct trie_inner *parent, *only = NULL, *locked_only, *repl;
	unsigned int tries = 0, type;
	struct trie_entries e;
	enum cleanup what, now;
	uintptr_t *pslot;
	int byte = -1, now_byte = -1;

	for (;;) {
		if (!find_parent(trie, n, key, len, &parent, &pslot))
			return NULL;	/* replaced: its replacer's business */
		what = plan(n, &only, &byte);
		repl = NULL;
		if (what == CLEAN_NONE)
			return NULL;
		if (what == CLEAN_MERGE) {
			repl = cds__trie_inner_new(trie, only->type, only->depth,
					n->prefix_len + 1 + only->prefix_len);
		} else if (what == CLEAN_SHRINK) {
			/* Unlocked: a hint, checked again under the lock. */
			cds__trie_collect(n, &e);
			type = cds__trie_type_for(&e, -1);
			if (type >= n->type)
				return NULL;
			repl = cds__trie_inner_new(trie, type, n->depth,
						   n->prefix_len);
		}
		if ((what == CLEAN_MERGE || what == CLEAN_SHRINK) && !repl)
			return NULL;	/* out of memory: keep it */

		if (!lock_holder(trie, parent))
			goto again;
		if (!slot_holds(load_slot(pslot), n)) {
			unlock_holder(trie, parent);
			goto again;
		}
		if (!trie_lock(&n->lock)) {
			unlock_holder(trie, parent);
			if (repl)
				cds__trie_inner_free_now(trie, repl);
			return NULL;
		}
		locked_only = NULL;
		now = plan(n, &locked_only, &now_byte);
		if (now != what || locked_only != only || now_byte != byte)
			goto unlock_again;
		if (what == CLEAN_SHRINK) {
			cds__trie_collect(n, &e);
			if (!cds__trie_type_fits(repl->type, &e, -1))
				goto unlock_again;
		}

		switch (what) {
		case CLEAN_PRUNE:
			if (parent)
				cds__trie_remove_child(parent, key[parent->depth]);
			else
				publish_slot(pslot, 0);
			break;
		case CLEAN_MERGE:
			if (!trie_lock(&only->lock))
				goto unlock_again;
			if (!inner_entries(only)) {
				/* Being emptied: its own removal cleans up. */
				trie_unlock(&only->lock);
				trie_unlock(&n->lock);
				unlock_holder(trie, parent);
				cds__trie_inner_free_now(trie, repl);
				return NULL;
			}
			build_replacement(n, what, only, byte, repl);
			publish_slot(pslot, inner_slot(repl));
			trie_unlock_obsolete(&only->lock);
			cds__trie_retire(trie, only);
			break;
		default:
			build_replacement(n, what, NULL, -1, repl);
			publish_slot(pslot, inner_slot(repl));
			break;
		}
		trie_unlock_obsolete(&n->lock);
		if (what == CLEAN_PRUNE && parent
		    && plan(parent, &locked_only, &now_byte) != CLEAN_NONE) {
			unlock_holder(trie, parent);
			cds__trie_retire(trie, n);
			return parent;
		}
		unlock_holder(trie, parent);
		cds__trie_retire(trie, n);
		return NULL;

unlock_again:
		trie_unlock(&n->lock);
		unlock_holder(trie, parent);
again:
		if (repl)
			cds__trie_inner_free_now(trie, repl);
		/* A prune allocates nothing: it never gives up (I7). */
		if (what != CLEAN_PRUNE && ++tries == CLEANUP_TRIES)
			return NULL;
	}
}

URCU_API int cds_trie_del(struct cds_trie *trie, struct cds_trie_node *node)
{
	struct cds_trie_node *prev, *next;
	struct trie_inner *holder;
	struct trie_chain ch;
	bool clean = false;

	cds__trie_check_reader(trie, "cds_trie_del");
	if (!node || node_state(node) != NODE_LINKED)
		return -ENOENT;
	if (cds__trie_lock_chain(trie, node->key, node->key_len, &ch))
		return -ENOENT;
	if (!chain_find(ch.head, node, &prev)) {
		unlock_holder(trie, ch.holder);
		return -ENOENT;
	}
	holder = ch.holder;
	next = load_next(node);
	if (prev) {
		/* Release: as for any update of the chain (I6). */
		__atomic_store_n(&prev->next, next, __ATOMIC_RELEASE);
	} else if (next) {
		publish_slot(ch.slot, leaf_slot(next));
	} else if (holder && ch.slot != &holder->end) {
		cds__trie_remove_child(holder, node->key[holder->depth]);
		clean = true;
	} else {
		publish_slot(ch.slot, 0);
		clean = holder != NULL;
	}
	set_node_state(node, NODE_DELETED);
	if (clean) {
		struct trie_inner *only;
		int byte;

		clean = plan(holder, &only, &byte) != CLEAN_NONE;
	}
	unlock_holder(trie, holder);
	while (clean && holder)
		holder = cleanup_step(trie, holder, node->key, node->key_len);
	return 0;
}

URCU_API int cds_trie_is_node_deleted(const struct cds_trie_node *node)
{
	return node_state(node) == NODE_DELETED;
}
