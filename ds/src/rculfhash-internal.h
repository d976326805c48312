/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfhash-internal.h: the hash table's layout, shared by its files.
 *
 *   rculfhash.c          lookups, traversals and updates (the list);
 *   rculfhash-resize.c   creation, destruction, growing and shrinking,
 *                        node accounting and automatic-resize policy;
 *   rculfhash-worker.c   the background thread running automatic
 *                        resizes, and its fork handling;
 *   rculfhash-mm.c       the three bucket-array layouts and the memory
 *                        functions behind them.
 *
 * The list.  Every node, bucket nodes included, sits on one singly linked
 * list sorted by reverse_hash, the bit-reversal of the hash (of the bucket
 * index, for a bucket node).  Bucket i of a table of size 2^k holds the
 * keys whose hash ends in the k bits of i; bit reversal makes those keys
 * one contiguous run of the list, starting at bucket node i.  Doubling the
 * size splits each run in two by inserting one bucket node in its middle;
 * halving merges runs by removing bucket nodes.  No node ever moves.
 *
 * Ordering within equal reverse_hash: a bucket node comes before regular
 * nodes with the same value (a regular node whose hash equals the bucket
 * index belongs to that bucket), and a regular node is added after every
 * node with its value, so duplicates keep their insertion order.
 *
 * Node state lives in the low bits of the node's own next pointer:
 *   NODE_REMOVED  the node is logically deleted.  Its next pointer is then
 *                 frozen: no CAS ever succeeds on it again (every CAS on a
 *                 next pointer expects the flag clear).  A removed node is
 *                 unlinked ("collected") by whoever walks past it next.
 *   NODE_BUCKET   the node is a bucket node.
 * Node addresses are 8-byte aligned (struct cds_lfht_node), so bit 2 is
 * free as well; it is unused.
 *
 * Invariants (the proof of each operation in rculfhash.c leans on them):
 *  1. The list is sorted by (reverse_hash, bucket nodes first).
 *  2. For the published size S, bucket nodes 0..S-1 are linked and not
 *     removed.  A size is published (release) only after its bucket
 *     nodes are linked; a bucket node is removed only after a grace
 *     period has passed since a smaller size was published, so no
 *     operation starting from it is still running.
 *  3. A removed node's next pointer never changes; an unlinked node is
 *     never linked again while any reader that could have seen it is in
 *     its read-side section (callers free or reuse nodes only after a
 *     grace period, the table frees bucket arrays only after one).
 *  4. Replacement is one CAS on the old node's next pointer, from
 *     "successor" to "new node | NODE_REMOVED", where the new node's next
 *     already holds the successor: the old node disappears and the new
 *     one appears at the same instant, in the same place.
 */
#ifndef CDS_SRC_RCULFHASH_INTERNAL_H
#define CDS_SRC_RCULFHASH_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/flavor.h>
#include <urcu/rculfhash.h>

#define NODE_REMOVED	1UL
#define NODE_BUCKET	2UL
#define NODE_FLAGS	7UL

/* Largest order a table can reach: sizes up to 2^(bits per long - 1). */
#define LFHT_MAX_ORDER	(CAA_BITS_PER_LONG - 1)

enum lfht_mm_kind { LFHT_MM_ORDER, LFHT_MM_CHUNK, LFHT_MM_MMAP };

/* One CPU's share of the node counters (CDS_LFHT_ACCOUNTING). */
struct lfht_split_count {
	unsigned long adds;
	unsigned long dels;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

struct cds_lfht {
	/*
	 * Read by every operation; written only by resizes.  size is the
	 * published number of buckets (see invariant 2).
	 */
	unsigned long size;
	enum lfht_mm_kind mm_kind;
	unsigned long min_alloc_order;	/* log2(min_nr_alloc_buckets) */
	union {
		/* LFHT_MM_ORDER: tbl_order[0] holds buckets
		 * [0, min_nr_alloc_buckets); tbl_order[o] for o above
		 * min_alloc_order holds [2^(o-1), 2^o). */
		struct cds_lfht_node *tbl_order[LFHT_MAX_ORDER + 1];
		/* LFHT_MM_CHUNK: chunk c holds buckets
		 * [c * min_nr_alloc_buckets, (c + 1) * min_nr_alloc_buckets). */
		struct cds_lfht_node **tbl_chunk;
		/* LFHT_MM_MMAP: bucket i at tbl_mmap[i]. */
		struct cds_lfht_node *tbl_mmap;
	};
	const struct rcu_flavor_struct *flavor;
	int flags;
	struct lfht_split_count *split;	/* CDS_LFHT_ACCOUNTING, else NULL */
	unsigned long split_mask;	/* nr of split counters - 1 */

	/* Fixed at creation. */
	unsigned long min_nr_alloc_buckets;
	unsigned long max_nr_buckets;
	struct cds_lfht_alloc alloc;	/* .malloc NULL: library allocator */
	pthread_attr_t *attr;
	size_t self_size;		/* bytes allocated for this struct */

	/* Resizing: resize_mutex serializes resize steps and destroy. */
	pthread_mutex_t resize_mutex;
	unsigned long alloc_order;	/* highest order with memory; mutex */
	unsigned long resize_target;	/* atomic: size automatic resizes aim at */
	long count;			/* atomic: committed node count */
	int destroying;			/* atomic: cds_lfht_destroy() started */
	/* Worker bookkeeping, under the worker's mutex. */
	bool queued;
	struct cds_list_head work_node;
};

/* Bit-reversal of a word (the list's sort key). */
static inline unsigned long lfht_bit_reverse(unsigned long v)
{
	/* Reverse the bits of each byte, then the byte order. */
#if CAA_BITS_PER_LONG == 64
	v = ((v >> 1) & 0x5555555555555555UL) | ((v & 0x5555555555555555UL) << 1);
	v = ((v >> 2) & 0x3333333333333333UL) | ((v & 0x3333333333333333UL) << 2);
	v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FUL) | ((v & 0x0F0F0F0F0F0F0F0FUL) << 4);
	return __builtin_bswap64(v);
#else
	v = ((v >> 1) & 0x55555555UL) | ((v & 0x55555555UL) << 1);
	v = ((v >> 2) & 0x33333333UL) | ((v & 0x33333333UL) << 2);
	v = ((v >> 4) & 0x0F0F0F0FUL) | ((v & 0x0F0F0F0FUL) << 4);
	return __builtin_bswap32(v);
#endif
}

/* log2 of a power of two. */
static inline unsigned long lfht_order_of(unsigned long pow2)
{
	return (unsigned long) __builtin_ctzl(pow2);
}

/* The order whose buckets include @index: 0 for index 0. */
static inline unsigned long lfht_index_order(unsigned long index)
{
	return index ? CAA_BITS_PER_LONG - (unsigned long) __builtin_clzl(index) : 0;
}

static inline struct cds_lfht_node *lfht_clean(struct cds_lfht_node *p)
{
	return (struct cds_lfht_node *) ((uintptr_t) p & ~NODE_FLAGS);
}

static inline unsigned long lfht_flags_of(struct cds_lfht_node *p)
{
	return (uintptr_t) p & NODE_FLAGS;
}

static inline struct cds_lfht_node *lfht_with(struct cds_lfht_node *p,
					      unsigned long flags)
{
	return (struct cds_lfht_node *) ((uintptr_t) p | flags);
}

/*
 * The bucket node for @index, which the caller knows to be allocated
 * (below a size it loaded, or under resize_mutex).
 */
static inline struct cds_lfht_node *lfht_bucket_at(struct cds_lfht *ht,
						   unsigned long index)
{
	switch (ht->mm_kind) {
	case LFHT_MM_MMAP:
		return &ht->tbl_mmap[index];
	case LFHT_MM_CHUNK:
		/*
		 * Relaxed: the chunk pointer was stored before the size
		 * that made @index reachable was published (release), and
		 * the caller loaded that size with acquire.
		 */
		return &__atomic_load_n(&ht->tbl_chunk[index >> ht->min_alloc_order],
					__ATOMIC_RELAXED)
			[index & (ht->min_nr_alloc_buckets - 1)];
	case LFHT_MM_ORDER:
	default: {
		unsigned long order = lfht_index_order(index);
		struct cds_lfht_node *tbl;

		if (order <= ht->min_alloc_order)
			return &ht->tbl_order[0][index];
		/* Relaxed: as for the chunk pointer above. */
		tbl = __atomic_load_n(&ht->tbl_order[order], __ATOMIC_RELAXED);
		return &tbl[index - (1UL << (order - 1))];
	}
	}
}

/* ------------------------------------------------------------------------
 * Between the files (all hidden).
 */

/* rculfhash.c: links bucket node @index (of an allocated order) into the
 * list, starting from its parent bucket. */
void cds__lfht_link_bucket(struct cds_lfht *ht, unsigned long index);
/* rculfhash.c: marks bucket node @index removed and unlinks it. */
void cds__lfht_unlink_bucket(struct cds_lfht *ht, unsigned long index);
/* rculfhash.c: whether the list holds any node other than buckets. */
bool cds__lfht_has_nodes(struct cds_lfht *ht);

/* rculfhash-resize.c: accounting hooks of the update paths. */
void cds__lfht_account_add(struct cds_lfht *ht, unsigned long size,
			   unsigned long chain_len);
void cds__lfht_account_del(struct cds_lfht *ht, unsigned long size);
/* rculfhash-resize.c: total of the split counters (0 without them). */
long cds__lfht_split_total(struct cds_lfht *ht);
/* rculfhash-resize.c: one resize step toward the target, run by the
 * worker; returns whether more steps are needed. */
bool cds__lfht_worker_step(struct cds_lfht *ht);

/* rculfhash-worker.c: queue @ht for the worker (no-op when queued). */
void cds__lfht_worker_queue(struct cds_lfht *ht);
/* rculfhash-worker.c: drop @ht from the worker; on return it is not
 * queued and no step on it runs. */
void cds__lfht_worker_forget(struct cds_lfht *ht);
/* rculfhash-worker.c: the fork hooks tables register with flavors. */
extern struct urcu_atfork cds__lfht_atfork;

/* rculfhash-mm.c: memory of the table itself and its bucket arrays. */
void *cds__lfht_mem_alloc(const struct cds_lfht_alloc *alloc, size_t size,
			  size_t align);
void cds__lfht_mem_free(const struct cds_lfht_alloc *alloc, void *ptr,
			size_t size, size_t align);
enum lfht_mm_kind cds__lfht_mm_kind(const struct cds_lfht_mm_type *mm);
/* Allocates the table struct with room for the layout's bookkeeping. */
struct cds_lfht *cds__lfht_mm_new(const struct cds_lfht_mm_type *mm,
				  unsigned long min_nr_alloc_buckets,
				  unsigned long max_nr_buckets,
				  const struct cds_lfht_alloc *alloc);
/* Frees what cds__lfht_mm_new() allocated (bucket arrays already freed). */
void cds__lfht_mm_delete(struct cds_lfht *ht);
/* Memory for the buckets of @order; false when out of memory. */
bool cds__lfht_mm_alloc_order(struct cds_lfht *ht, unsigned long order);
void cds__lfht_mm_free_order(struct cds_lfht *ht, unsigned long order);

#endif /* CDS_SRC_RCULFHASH_INTERNAL_H */
