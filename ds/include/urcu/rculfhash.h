/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rculfhash.h - resizable lock-free hash table protected by RCU.
 *
 * The table is one sorted linked list threaded through every node (a
 * split-ordered list): nodes are kept in order of their bit-reversed
 * hash, and each bucket is a permanent "bucket node" inside that list
 * marking where the bucket's keys begin.  Growing the table inserts new
 * bucket nodes between existing ones; shrinking removes them.  Keys never
 * move, so lookups, traversals and updates all run while the table
 * resizes, with no stop-the-world step.  docs/hash-table.md states the
 * guarantees precisely.
 *
 * The table never includes a flavor header: it is handed a
 * `const struct rcu_flavor_struct *` when created and calls the flavor
 * through it, so one table can be used from compilation units built
 * against different flavor headers.  cds_lfht_new() (no flavor argument)
 * exists when a flavor header was included before this one, and uses
 * that flavor.
 *
 * Rules for the caller, unless a function says otherwise:
 *   - call with the flavor's read-side lock held (for QSBR: from an
 *     online registered thread), from a registered thread;
 *   - a node removed by cds_lfht_del(), cds_lfht_replace() or
 *     cds_lfht_add_replace() may still be read by concurrent readers:
 *     free or reuse it only after a grace period (e.g. call_rcu());
 *   - the caller computes each key's hash; equal keys must have equal
 *     hashes.  Any unsigned long works: the table uses all its bits.
 */
#ifndef _URCU_RCULFHASH_H
#define _URCU_RCULFHASH_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/compiler.h>
#include <urcu/config.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cds_lfht;
struct rcu_flavor_struct;

/*
 * A hash-table link, embedded in the caller's object.  The three low bits
 * of @next are state flags, hence the alignment.  Do not touch the fields.
 */
struct cds_lfht_node {
	struct cds_lfht_node *next;
	unsigned long reverse_hash;
} __attribute__((aligned(8)));

/* Position of a lookup or traversal. */
struct cds_lfht_iter {
	struct cds_lfht_node *node, *next;
#ifdef CONFIG_CDS_LFHT_ITER_DEBUG
	struct cds_lfht *lfht;
#endif
};

/* The node an iterator stands on, or NULL when it ran off the end. */
static inline
struct cds_lfht_node *cds_lfht_iter_get_node(struct cds_lfht_iter *iter)
{
	return iter->node;
}

/* Nonzero when @node holds the key the lookup was given as @key. */
typedef int (*cds_lfht_match_fct)(struct cds_lfht_node *node, const void *key);

/* Prepares a node for cds_lfht_add*(); nothing is required today. */
static inline
void cds_lfht_node_init(struct cds_lfht_node *node __attribute__((unused)))
{
}

/*
 * Marks a node that is in no table as deleted, so that
 * cds_lfht_is_node_deleted() answers true for it until it is added.
 */
extern void cds_lfht_node_init_deleted(struct cds_lfht_node *node);

/* Creation flags, combined with '|'. */
enum {
	/* Grow on long chains (and shrink when sparse, with ACCOUNTING),
	 * from a background worker thread. */
	CDS_LFHT_AUTO_RESIZE = (1U << 0),
	/* Count nodes in per-CPU split counters (cds_lfht_count_nodes()
	 * reports them; AUTO_RESIZE then also sizes on the count). */
	CDS_LFHT_ACCOUNTING = (1U << 1),
};

/*
 * Caller-supplied memory functions for the table and its bucket arrays
 * (cds_lfht_new_with_flavor_alloc()).  @state is passed back unchanged.
 * Unused members may be NULL as long as the ones the table needs are
 * set: @malloc (or @calloc), and @free.  Memory from them must be
 * aligned for a pointer; @aligned_alloc, when set, is used for the table
 * header so that its hot fields share no cache line with other data.
 */
struct cds_lfht_alloc {
	void *(*malloc)(void *state, size_t size);
	void *(*calloc)(void *state, size_t nmemb, size_t size);
	void *(*realloc)(void *state, void *ptr, size_t size);
	void *(*aligned_alloc)(void *state, size_t alignment, size_t size);
	void (*free)(void *state, void *ptr);
	void *state;
};

/*
 * Bucket-array layouts.  Pass one of the three objects below to
 * _cds_lfht_new(); the members are the library's business.
 *   cds_lfht_mm_order  one array per power of two (the default);
 *   cds_lfht_mm_chunk  fixed-size chunks of min_nr_alloc_buckets buckets;
 *   cds_lfht_mm_mmap   one virtual reservation for max_nr_buckets, made
 *                      accessible as the table grows.
 */
struct cds_lfht_mm_type {
	struct cds_lfht *(*alloc_cds_lfht)(unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			const struct cds_lfht_alloc *alloc);
	void (*alloc_bucket_table)(struct cds_lfht *ht, unsigned long order);
	void (*free_bucket_table)(struct cds_lfht *ht, unsigned long order);
	struct cds_lfht_node *(*bucket_at)(struct cds_lfht *ht,
			unsigned long index);
};

extern const struct cds_lfht_mm_type cds_lfht_mm_order;
extern const struct cds_lfht_mm_type cds_lfht_mm_chunk;
extern const struct cds_lfht_mm_type cds_lfht_mm_mmap;

/*
 * Creates a table; the general form behind the wrappers below.
 * @init_size: buckets to start with (power of two, >= 1).
 * @min_nr_alloc_buckets: buckets allocated up front and the floor for
 *	automatic shrinking (power of two, >= 1).
 * @max_nr_buckets: ceiling (power of two, >= both above), or 0 for no
 *	ceiling; mm_chunk and mm_mmap need one (they size their
 *	bookkeeping for it) and fail with 0.
 * @flags: CDS_LFHT_* above.  @mm: bucket layout, NULL for the default.
 * @flavor: the RCU flavor every user of the table runs under.
 * @alloc: memory functions, NULL for the library's own allocator.
 * @attr: attributes for the resize worker thread, NULL for defaults;
 *	returned by cds_lfht_destroy().
 * Returns NULL on a bad argument or when out of memory.  The calling
 * thread need not be registered with the flavor.
 */
extern struct cds_lfht *_cds_lfht_new_with_alloc(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct cds_lfht_mm_type *mm,
			const struct rcu_flavor_struct *flavor,
			const struct cds_lfht_alloc *alloc,
			pthread_attr_t *attr);

/* _cds_lfht_new_with_alloc() with the library's own allocator. */
extern struct cds_lfht *_cds_lfht_new(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct cds_lfht_mm_type *mm,
			const struct rcu_flavor_struct *flavor,
			pthread_attr_t *attr);

/* A table for @flavor with the default bucket layout. */
static inline
struct cds_lfht *cds_lfht_new_flavor(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct rcu_flavor_struct *flavor,
			pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, flavor, attr);
}

/* A table for @flavor whose memory comes from @alloc. */
static inline
struct cds_lfht *cds_lfht_new_with_flavor_alloc(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			const struct rcu_flavor_struct *flavor,
			const struct cds_lfht_alloc *alloc,
			pthread_attr_t *attr)
{
	return _cds_lfht_new_with_alloc(init_size, min_nr_alloc_buckets,
			max_nr_buckets, flags, NULL, flavor, alloc, attr);
}

#ifdef URCU_API_MAP
/* A table for the flavor whose header was included before this one. */
static inline
struct cds_lfht *cds_lfht_new(unsigned long init_size,
			unsigned long min_nr_alloc_buckets,
			unsigned long max_nr_buckets,
			int flags,
			pthread_attr_t *attr)
{
	return _cds_lfht_new(init_size, min_nr_alloc_buckets, max_nr_buckets,
			flags, NULL, &rcu_flavor, attr);
}
#endif /* URCU_API_MAP */

/*
 * Frees an empty table.  Returns 0, or -EPERM (and changes nothing) when
 * the table still holds nodes.  Stores the worker attributes given at
 * creation in *@attr when @attr is not NULL.  No other call on the table
 * may run or follow.  Call outside any read-side section; the thread
 * need not be registered.  It may wait for a resize step in progress: a
 * QSBR caller that is online goes offline while it waits.
 */
extern int cds_lfht_destroy(struct cds_lfht *ht, pthread_attr_t **attr);

/*
 * Counts the nodes a traversal sees into *@count; *@split_count_before
 * and *@split_count_after receive the split counters' total (additions
 * minus removals) sampled before and after it, 0 without
 * CDS_LFHT_ACCOUNTING.
 */
extern void cds_lfht_count_nodes(struct cds_lfht *ht,
		long *split_count_before,
		unsigned long *count,
		long *split_count_after);

/*
 * Finds the first node with @hash for which @match(node, @key) holds;
 * iter->node is NULL when there is none.  Reads the node pointer with
 * the ordering of rcu_dereference().
 */
extern void cds_lfht_lookup(struct cds_lfht *ht, unsigned long hash,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/*
 * Moves @iter (from a lookup or a previous call) to the next node with
 * the same key, or sets iter->node to NULL.  Keep the read-side lock
 * held from the lookup on.
 */
extern void cds_lfht_next_duplicate(struct cds_lfht *ht,
		cds_lfht_match_fct match, const void *key,
		struct cds_lfht_iter *iter);

/* Starts a traversal of the whole table (in no particular key order). */
extern void cds_lfht_first(struct cds_lfht *ht, struct cds_lfht_iter *iter);

/* Moves a traversal to the next node, or sets iter->node to NULL. */
extern void cds_lfht_next(struct cds_lfht *ht, struct cds_lfht_iter *iter);

/*
 * Adds @node under @hash, even when its key is already present.  A full
 * memory barrier orders the caller's earlier accesses (the node's
 * contents) before the node becomes visible, and later ones after it.
 */
extern void cds_lfht_add(struct cds_lfht *ht, unsigned long hash,
		struct cds_lfht_node *node);

/*
 * Adds @node unless a node matching @key is present.  Returns @node when
 * added, otherwise the node already present (then @node was never
 * visible and may be freed at once).  Tables updated only through
 * add_unique, add_replace, replace and del never hold two nodes with one
 * key.  Full barriers on success, as cds_lfht_add(); on failure it reads
 * like a lookup.
 */
extern struct cds_lfht_node *cds_lfht_add_unique(struct cds_lfht *ht,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *node);

/*
 * Adds @node, replacing the node matching @key if there is one, and
 * returns the replaced node (free it after a grace period) or NULL.
 * Readers see exactly one of the two nodes at every moment.  Full
 * barriers as cds_lfht_add().
 */
extern struct cds_lfht_node *cds_lfht_add_replace(struct cds_lfht *ht,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *node);

/*
 * Replaces the node @old_iter stands on with @new_node, which must have
 * the same @hash and match @key.  Returns 0; -ENOENT when the old node
 * is NULL or already removed; -EINVAL when the old node's hash or key
 * differs.  Readers see exactly one of the two nodes at every moment.
 * Full barriers on success; none on failure.
 */
extern int cds_lfht_replace(struct cds_lfht *ht,
		struct cds_lfht_iter *old_iter,
		unsigned long hash,
		cds_lfht_match_fct match,
		const void *key,
		struct cds_lfht_node *new_node);

/*
 * Removes @node (found by a lookup or traversal under the same read-side
 * lock).  Returns 0, or -ENOENT when @node is NULL or was already
 * removed.  On return the node is unreachable for readers that start
 * later; free it after a grace period.  Full barriers on success.
 */
extern int cds_lfht_del(struct cds_lfht *ht, struct cds_lfht_node *node);

/* Nonzero when @node has been removed from its table. */
extern int cds_lfht_is_node_deleted(const struct cds_lfht_node *node);

/*
 * Resizes the table to @new_size buckets (rounded up to a power of two
 * and clamped to [min_nr_alloc_buckets, max_nr_buckets]) before
 * returning; out of memory leaves it at a size it reached on the way.
 * Call from a registered thread, outside any read-side section.
 */
extern void cds_lfht_resize(struct cds_lfht *ht, unsigned long new_size);

/* Loops over every node of the table. */
#define cds_lfht_for_each(ht, iter, node)				\
	for (cds_lfht_first(ht, iter),					\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next(ht, iter),				\
			node = cds_lfht_iter_get_node(iter))

/* Loops over every node matching @key. */
#define cds_lfht_for_each_duplicate(ht, hash, match, key, iter, node)	\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter);		\
		node != NULL;						\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			node = cds_lfht_iter_get_node(iter))

/* Loops over every object of the table; @member names its node. */
#define cds_lfht_for_each_entry(ht, iter, pos, member)			\
	for (cds_lfht_first(ht, iter),					\
			pos = caa_container_of(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		cds_lfht_iter_get_node(iter) != NULL;			\
		cds_lfht_next(ht, iter),				\
			pos = caa_container_of(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

/* Loops over every object matching @key. */
#define cds_lfht_for_each_entry_duplicate(ht, hash, match, key,		\
				iter, pos, member)			\
	for (cds_lfht_lookup(ht, hash, match, key, iter),		\
			pos = caa_container_of(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member);	\
		cds_lfht_iter_get_node(iter) != NULL;			\
		cds_lfht_next_duplicate(ht, match, key, iter),		\
			pos = caa_container_of(cds_lfht_iter_get_node(iter), \
					__typeof__(*(pos)), member))

#ifdef __cplusplus
}
#endif

#endif /* _URCU_RCULFHASH_H */
