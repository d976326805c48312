/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfhash.c: lookups, traversals and updates of the hash table's list.
 *
 * See rculfhash-internal.h for the list's shape, the node flags and the
 * invariants this file keeps.  Every function here runs inside the
 * caller's read-side section (except where a comment says otherwise), so
 * no node it reaches is freed under it.
 *
 * Memory ordering, once for the whole file:
 *  - Loads of next pointers are consume/acquire (rcu_dereference): they
 *    pair with the release (or seq_cst) CAS that linked the node they
 *    return, so the node's contents (key, reverse_hash, next) are seen
 *    as written before it was linked.
 *  - The CAS that commits an update (add, remove, replace) is seq_cst:
 *    together with the caller's ordering before and after, it is the
 *    "full barrier before and after the commit" the API promises.
 *  - The CAS that unlinks an already removed node is release: it hands
 *    the removed node's successor, whose contents the unlinker saw
 *    through its own acquire load, on to later readers.
 *  - The table size is loaded with acquire, paired with the release
 *    store that publishes a new size after its bucket nodes are linked
 *    (rculfhash-resize.c, publish_size()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "rculfhash-internal.h"
#include "urcu-export.h"

/* The published number of buckets. */
static inline unsigned long load_size(struct cds_lfht *ht)
{
	/* Acquire: pairs with publish_size() (rculfhash-resize.c). */
	return __atomic_load_n(&ht->size, __ATOMIC_ACQUIRE);
}

static inline struct cds_lfht_node *load_next(struct cds_lfht_node *node)
{
	/* Consume: see the file comment. */
	return __atomic_load_n(&node->next, __ATOMIC_CONSUME);
}

static inline bool is_removed(struct cds_lfht_node *next)
{
	return lfht_flags_of(next) & NODE_REMOVED;
}

/* Neither removed nor a bucket node, judging by the node's next pointer. */
static inline bool is_live_entry(struct cds_lfht_node *next)
{
	return !(lfht_flags_of(next) & (NODE_REMOVED | NODE_BUCKET));
}

/* The bucket node where the keys with @reverse_hash start. */
static inline struct cds_lfht_node *bucket_for(struct cds_lfht *ht,
					       unsigned long reverse_hash,
					       unsigned long *size)
{
	*size = load_size(ht);
	return lfht_bucket_at(ht, lfht_bit_reverse(reverse_hash) & (*size - 1));
}

/* ------------------------------------------------------------------------
 * The walk: the one routine that moves along the list on behalf of an
 * update, unlinking the removed nodes it passes.
 */

enum walk_mode {
	WALK_ENTRY,	/* stop at the first node sorting after an entry */
	WALK_BUCKET,	/* stop at the first node sorting after a bucket node */
	WALK_MATCH,	/* as WALK_ENTRY, or at a live entry matching the key */
};

/* A place in the list: between prev and iter, prev->next read as link. */
struct walk_pos {
	struct cds_lfht_node *prev;
	struct cds_lfht_node *link;	/* prev->next as read: iter | prev's flags */
	struct cds_lfht_node *iter;	/* first node after the place, or NULL */
	struct cds_lfht_node *iter_next; /* WALK_MATCH hit: iter->next as read */
	unsigned long chain_len;	/* entries passed */
};

/*
 * Walks from @start (a linked bucket node that is not removed) to the
 * place where a node with @reverse_hash belongs, per @mode.  Returns the
 * matching live entry for WALK_MATCH (pos->iter is it), else NULL.
 */
static struct cds_lfht_node *walk(struct cds_lfht_node *start,
				  unsigned long reverse_hash,
				  enum walk_mode mode,
				  cds_lfht_match_fct match, const void *key,
				  struct walk_pos *pos)
{
restart:
	pos->prev = start;
	pos->link = load_next(start);
	pos->iter = lfht_clean(pos->link);
	pos->chain_len = 0;
	while (pos->iter) {
		struct cds_lfht_node *iter = pos->iter;
		struct cds_lfht_node *next = load_next(iter);

		if (is_removed(next)) {
			/* Unlink it: prev must still point at it, unremoved. */
			struct cds_lfht_node *bypass =
				lfht_with(lfht_clean(next), lfht_flags_of(pos->link));

			/* Release: see the file comment; failure restarts. */
			if (!__atomic_compare_exchange_n(&pos->prev->next,
					&pos->link, bypass, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
				goto restart;
			pos->link = bypass;
			pos->iter = lfht_clean(next);
			continue;
		}
		if (iter->reverse_hash > reverse_hash)
			break;
		if (iter->reverse_hash == reverse_hash) {
			if (mode == WALK_BUCKET)
				break;	/* bucket nodes go first */
			if (mode == WALK_MATCH && is_live_entry(next)
			    && match(iter, key)) {
				pos->iter_next = next;
				return iter;
			}
		}
		if (!(lfht_flags_of(next) & NODE_BUCKET))
			pos->chain_len++;
		pos->prev = iter;
		pos->link = next;
		pos->iter = lfht_clean(next);
	}
	return NULL;
}

/* Links @node at @pos; false when the list changed there first. */
static bool link_at(struct walk_pos *pos, struct cds_lfht_node *node,
		    unsigned long node_flags, int success_order)
{
	/* Relaxed: the node is private until the CAS below publishes it. */
	__atomic_store_n(&node->next, lfht_with(pos->iter, node_flags),
			 __ATOMIC_RELAXED);
	/*
	 * @success_order is release or seq_cst: it publishes the node's
	 * contents to readers that load prev->next (file comment).
	 */
	return __atomic_compare_exchange_n(&pos->prev->next, &pos->link,
			lfht_with(node, lfht_flags_of(pos->link)), false,
			success_order, __ATOMIC_RELAXED);
}

/*
 * Unlinks every removed node from @start up to @reverse_hash, in
 * particular one the caller just removed: once this returns, that node is
 * unreachable for readers that start later (invariant 3).
 */
static void collect(struct cds_lfht_node *start, unsigned long reverse_hash)
{
	struct walk_pos pos;

	(void) walk(start, reverse_hash, WALK_ENTRY, NULL, NULL, &pos);
}

/*
 * Replaces live entry @old (whose next pointer was read as @old_next)
 * with @node in one CAS (invariant 4); false when @old changed first.
 */
static bool replace_at(struct cds_lfht_node *old, struct cds_lfht_node *old_next,
		       struct cds_lfht_node *node)
{
	/* Relaxed: @node is private until the CAS below publishes it. */
	__atomic_store_n(&node->next, lfht_clean(old_next), __ATOMIC_RELAXED);
	/* Seq_cst: the commit point (file comment). */
	return __atomic_compare_exchange_n(&old->next, &old_next,
			lfht_with(node, NODE_REMOVED), false,
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------
 * Updates.
 */

enum add_mode { ADD_ALWAYS, ADD_UNIQUE, ADD_REPLACE };

/*
 * The three add operations.  Returns, for ADD_UNIQUE, the node present or
 * @node; for ADD_REPLACE, the node replaced or NULL; for ADD_ALWAYS, @node.
 */
static struct cds_lfht_node *add(struct cds_lfht *ht, unsigned long hash,
				 cds_lfht_match_fct match, const void *key,
				 struct cds_lfht_node *node, enum add_mode mode)
{
	unsigned long reverse_hash = lfht_bit_reverse(hash);

	/* Plain store: published by the linking CAS (link_at). */
	node->reverse_hash = reverse_hash;
	for (;;) {
		unsigned long size = load_size(ht);
		struct cds_lfht_node *bucket = lfht_bucket_at(ht, hash & (size - 1));
		struct walk_pos pos;
		struct cds_lfht_node *found;

		found = walk(bucket, reverse_hash,
			     mode == ADD_ALWAYS ? WALK_ENTRY : WALK_MATCH,
			     match, key, &pos);
		if (found && mode == ADD_UNIQUE)
			return found;
		if (found) {
			if (!replace_at(found, pos.iter_next, node))
				continue;
			collect(bucket, reverse_hash);
			return found;
		}
		if (!link_at(&pos, node, 0, __ATOMIC_SEQ_CST))
			continue;
		cds__lfht_account_add(ht, size, pos.chain_len);
		return mode == ADD_REPLACE ? NULL : node;
	}
}

URCU_API void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
			   struct cds_lfht_node *node)
{
	(void) add(ht, hash, NULL, NULL, node, ADD_ALWAYS);
}

URCU_API struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht,
		unsigned long hash, cds_lfht_match_fct match, const void *key,
		struct cds_lfht_node *node)
{
	return add(ht, hash, match, key, node, ADD_UNIQUE);
}

URCU_API struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht,
		unsigned long hash, cds_lfht_match_fct match, const void *key,
		struct cds_lfht_node *node)
{
	return add(ht, hash, match, key, node, ADD_REPLACE);
}

URCU_API int cds_lfht_replace(struct cds_lfht *ht,
		struct cds_lfht_iter *old_iter, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_node *new_node)
{
	struct cds_lfht_node *old = old_iter->node;
	unsigned long reverse_hash = lfht_bit_reverse(hash);
	unsigned long size;

	if (!old)
		return -ENOENT;
	if (old->reverse_hash != reverse_hash || !match(old, key))
		return -EINVAL;
	/* Plain store: published by the CAS in replace_at(). */
	new_node->reverse_hash = reverse_hash;
	for (;;) {
		struct cds_lfht_node *next = load_next(old);

		if (is_removed(next))
			return -ENOENT;
		if (replace_at(old, next, new_node))
			break;
	}
	collect(bucket_for(ht, reverse_hash, &size), reverse_hash);
	return 0;
}

URCU_API int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node)
{
	struct cds_lfht_node *next;
	unsigned long size;

	if (!node)
		return -ENOENT;
	next = load_next(node);
	do {
		if (is_removed(next))
			return -ENOENT;
		/* Seq_cst: the commit point (file comment). */
	} while (!__atomic_compare_exchange_n(&node->next, &next,
			lfht_with(next, NODE_REMOVED), false,
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	collect(bucket_for(ht, node->reverse_hash, &size), node->reverse_hash);
	cds__lfht_account_del(ht, size);
	return 0;
}

URCU_API int cds_lfht_is_node_deleted(const struct cds_lfht_node *node)
{
	/* Relaxed: a snapshot; the API promises no ordering here. */
	return is_removed(__atomic_load_n(&node->next, __ATOMIC_RELAXED));
}

URCU_API void cds_lfht_node_init_deleted(struct cds_lfht_node *node)
{
	/* Relaxed: the node is in no table, so nobody reads it yet. */
	__atomic_store_n(&node->next, lfht_with(NULL, NODE_REMOVED),
			 __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------
 * Lookups and traversals.  They never write: removed nodes are skipped
 * (their frozen next pointers still lead on), not unlinked.
 */

/*
 * Points @iter at the first live entry from @node on whose reverse_hash
 * is @reverse_hash and that matches @key; with @match NULL, at the first
 * live entry whatever its hash.
 */
static void find_from(struct cds_lfht_node *node, unsigned long reverse_hash,
		      cds_lfht_match_fct match, const void *key,
		      struct cds_lfht_iter *iter)
{
	for (; node; node = lfht_clean(iter->next)) {
		iter->next = load_next(node);
		if (match) {
			if (node->reverse_hash > reverse_hash)
				break;
			if (node->reverse_hash != reverse_hash)
				continue;
		}
		if (is_live_entry(iter->next) && (!match || match(node, key))) {
			iter->node = node;
			iter->next = lfht_clean(iter->next);
			return;
		}
	}
	iter->node = NULL;
	iter->next = NULL;
}

URCU_API void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
			      cds_lfht_match_fct match, const void *key,
			      struct cds_lfht_iter *iter)
{
	unsigned long size = load_size(ht);
	struct cds_lfht_node *bucket = lfht_bucket_at(ht, hash & (size - 1));

#ifdef CONFIG_CDS_LFHT_ITER_DEBUG
	iter->lfht = ht;
#endif
	find_from(lfht_clean(load_next(bucket)), lfht_bit_reverse(hash),
		  match, key, iter);
}

static void check_iter(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
#ifdef CONFIG_CDS_LFHT_ITER_DEBUG
	if (iter->lfht != ht) {
		fputs("urcu: cds_lfht iterator used on another table than the "
		      "one it was started on\n", stderr);
		abort();
	}
#else
	(void) ht;
	(void) iter;
#endif
}

URCU_API void cds_lfht_next_duplicate(struct cds_lfht *ht,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter)
{
	check_iter(ht, iter);
	/* iter->next was read with iter->node: a node that replaced
	 * iter->node since is not seen a second time. */
	find_from(iter->next, iter->node->reverse_hash, match, key, iter);
}

URCU_API void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	/* Bucket 0 heads the list and is never freed or removed. */
#ifdef CONFIG_CDS_LFHT_ITER_DEBUG
	iter->lfht = ht;
#endif
	find_from(lfht_clean(load_next(lfht_bucket_at(ht, 0))), 0, NULL, NULL,
		  iter);
}

URCU_API void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter)
{
	check_iter(ht, iter);
	find_from(iter->next, 0, NULL, NULL, iter);
}

URCU_API void cds_lfht_count_nodes(struct cds_lfht *ht,
		long *split_count_before, unsigned long *count,
		long *split_count_after)
{
	struct cds_lfht_iter iter;
	unsigned long n = 0;

	*split_count_before = cds__lfht_split_total(ht);
	for (cds_lfht_first(ht, &iter); iter.node; cds_lfht_next(ht, &iter))
		n++;
	*count = n;
	*split_count_after = cds__lfht_split_total(ht);
}

/* ------------------------------------------------------------------------
 * Bucket nodes, for rculfhash-resize.c (under resize_mutex, and inside a
 * read-side section when the table is shared).
 */

/* The bucket whose range bucket @index splits: its index minus its top bit. */
static struct cds_lfht_node *parent_bucket(struct cds_lfht *ht,
					   unsigned long index)
{
	return lfht_bucket_at(ht, index & ~(1UL << (lfht_index_order(index) - 1)));
}

void cds__lfht_link_bucket(struct cds_lfht *ht, unsigned long index)
{
	struct cds_lfht_node *bucket = lfht_bucket_at(ht, index);
	struct cds_lfht_node *parent = parent_bucket(ht, index);
	struct walk_pos pos;

	/* Plain store: published by the release CAS in link_at(). */
	bucket->reverse_hash = lfht_bit_reverse(index);
	do {
		(void) walk(parent, bucket->reverse_hash, WALK_BUCKET, NULL,
			    NULL, &pos);
	} while (!link_at(&pos, bucket, NODE_BUCKET, __ATOMIC_RELEASE));
}

void cds__lfht_unlink_bucket(struct cds_lfht *ht, unsigned long index)
{
	struct cds_lfht_node *bucket = lfht_bucket_at(ht, index);

	struct cds_lfht_node *next = load_next(bucket);

	/*
	 * Relaxed: only atomicity matters; once set, no insertion can CAS
	 * behind the bucket node any more (they expect the flag clear),
	 * and collect() below unlinks it with release ordering.
	 */
	while (!__atomic_compare_exchange_n(&bucket->next, &next,
			lfht_with(next, NODE_REMOVED), false,
			__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	collect(parent_bucket(ht, index), bucket->reverse_hash);
}

bool cds__lfht_has_nodes(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;

	cds_lfht_first(ht, &iter);
	return iter.node != NULL;
}
