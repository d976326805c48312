/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfhash-mm.c: where a hash table's bucket nodes live.
 *
 * Three layouts (see struct cds_lfht):
 *   order  one array per order above the preallocated first
 *          min_nr_alloc_buckets buckets; order o holds 2^(o-1) buckets;
 *   chunk  arrays of min_nr_alloc_buckets buckets, found through a chunk
 *          index sized for max_nr_buckets at creation;
 *   mmap   one PROT_NONE reservation of max_nr_buckets buckets; growing
 *          makes the order's pages accessible, shrinking gives them back
 *          to the kernel and makes them inaccessible again.
 * The table struct and the arrays come from the caller's struct
 * cds_lfht_alloc when one was given, else from liburcu-common's allocation
 * layer (jemalloc when built with it).  New memory is always zeroed.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rculfhash-internal.h"
#include "urcu-alloc.h"
#include "urcu-export.h"

#define NODE_SIZE	sizeof(struct cds_lfht_node)
#define NODE_ALIGN	__alignof__(struct cds_lfht_node)
#define TABLE_ALIGN	CAA_CACHE_LINE_SIZE

void *cds__lfht_mem_alloc(const struct cds_lfht_alloc *alloc, size_t size,
			  size_t align)
{
	void *p;

	if (!alloc)
		return urcu__alloc(size, align);
	if (align > NODE_ALIGN && alloc->aligned_alloc)
		p = alloc->aligned_alloc(alloc->state, align,
					 (size + align - 1) & ~(align - 1));
	else if (alloc->calloc)
		return alloc->calloc(alloc->state, 1, size);
	else
		p = alloc->malloc(alloc->state, size);
	return p ? memset(p, 0, size) : NULL;
}

void cds__lfht_mem_free(const struct cds_lfht_alloc *alloc, void *ptr,
			size_t size, size_t align)
{
	if (!alloc)
		urcu__free(ptr, size, align);
	else if (ptr)
		alloc->free(alloc->state, ptr);
}

static const struct cds_lfht_alloc *table_alloc(struct cds_lfht *ht)
{
	return ht->alloc.free ? &ht->alloc : NULL;
}

static size_t page_size(void)
{
	return (size_t) sysconf(_SC_PAGESIZE);
}

/* Bytes of bookkeeping after the struct: the chunk index. */
static size_t extra_bytes(enum lfht_mm_kind kind, unsigned long min_nr_alloc_buckets,
			  unsigned long max_nr_buckets)
{
	if (kind != LFHT_MM_CHUNK)
		return 0;
	return max_nr_buckets / min_nr_alloc_buckets * sizeof(struct cds_lfht_node *);
}

/* mmap layout: makes buckets [first, first + n) accessible. */
static bool mmap_populate(struct cds_lfht *ht, unsigned long first, unsigned long n)
{
	uintptr_t page = page_size();
	uintptr_t start = (uintptr_t) &ht->tbl_mmap[first] & ~(page - 1);
	uintptr_t end = ((uintptr_t) &ht->tbl_mmap[first + n] + page - 1) & ~(page - 1);

	return !mprotect((void *) start, end - start, PROT_READ | PROT_WRITE);
}

/*
 * mmap layout: returns the pages holding only buckets from @first on to
 * the kernel, inaccessible again.  Pages shared with lower buckets stay.
 */
static void mmap_depopulate(struct cds_lfht *ht, unsigned long first, unsigned long n)
{
	uintptr_t page = page_size();
	uintptr_t start = ((uintptr_t) &ht->tbl_mmap[first] + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t) &ht->tbl_mmap[first + n] + page - 1) & ~(page - 1);

	/* Replacing the mapping drops its pages; failure keeps them (safe). */
	if (end > start)
		(void) mmap((void *) start, end - start, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
			    -1, 0);
}

enum lfht_mm_kind cds__lfht_mm_kind(const struct cds_lfht_mm_type *mm)
{
	if (mm == &cds_lfht_mm_chunk)
		return LFHT_MM_CHUNK;
	if (mm == &cds_lfht_mm_mmap)
		return LFHT_MM_MMAP;
	return mm == &cds_lfht_mm_order ? LFHT_MM_ORDER : LFHT_MM_MMAP + 1;
}

struct cds_lfht *cds__lfht_mm_new(const struct cds_lfht_mm_type *mm,
				  unsigned long min_nr_alloc_buckets,
				  unsigned long max_nr_buckets,
				  const struct cds_lfht_alloc *alloc)
{
	enum lfht_mm_kind kind = cds__lfht_mm_kind(mm);
	size_t self = sizeof(struct cds_lfht)
		+ extra_bytes(kind, min_nr_alloc_buckets, max_nr_buckets);
	size_t first_bytes = min_nr_alloc_buckets * NODE_SIZE;
	struct cds_lfht *ht = cds__lfht_mem_alloc(alloc, self, TABLE_ALIGN);
	void *first = NULL;

	if (!ht)
		return NULL;
	ht->self_size = self;
	if (alloc)
		ht->alloc = *alloc;
	ht->mm_kind = kind;
	ht->min_nr_alloc_buckets = min_nr_alloc_buckets;
	ht->max_nr_buckets = max_nr_buckets;
	ht->min_alloc_order = lfht_order_of(min_nr_alloc_buckets);
	switch (kind) {
	case LFHT_MM_ORDER:
		first = ht->tbl_order[0] = cds__lfht_mem_alloc(alloc, first_bytes,
							       NODE_ALIGN);
		break;
	case LFHT_MM_CHUNK:
		ht->tbl_chunk = (struct cds_lfht_node **) (ht + 1);
		first = ht->tbl_chunk[0] = cds__lfht_mem_alloc(alloc, first_bytes,
							       NODE_ALIGN);
		break;
	default:
		ht->tbl_mmap = mmap(NULL, max_nr_buckets * NODE_SIZE, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				    -1, 0);
		if (ht->tbl_mmap == MAP_FAILED)
			break;
		first = ht->tbl_mmap;
		if (!mmap_populate(ht, 0, min_nr_alloc_buckets)) {
			munmap(ht->tbl_mmap, max_nr_buckets * NODE_SIZE);
			first = NULL;
		}
		break;
	}
	if (!first) {
		cds__lfht_mem_free(alloc, ht, self, TABLE_ALIGN);
		return NULL;
	}
	return ht;
}

void cds__lfht_mm_delete(struct cds_lfht *ht)
{
	const struct cds_lfht_alloc *alloc = table_alloc(ht);
	size_t first_bytes = ht->min_nr_alloc_buckets * NODE_SIZE;

	switch (ht->mm_kind) {
	case LFHT_MM_ORDER:
		cds__lfht_mem_free(alloc, ht->tbl_order[0], first_bytes, NODE_ALIGN);
		break;
	case LFHT_MM_CHUNK:
		cds__lfht_mem_free(alloc, ht->tbl_chunk[0], first_bytes, NODE_ALIGN);
		break;
	default:
		munmap(ht->tbl_mmap, ht->max_nr_buckets * NODE_SIZE);
		break;
	}
	cds__lfht_mem_free(alloc, ht, ht->self_size, TABLE_ALIGN);
}

/*
 * In the two functions below @order is above min_alloc_order: it covers
 * buckets [2^(order-1), 2^order), a whole number of chunks.  The pointer
 * stores are relaxed: publish_size() (release) orders them before any
 * reader can compute an index in the order; a grace period separates
 * the last such reader from the free.
 */
bool cds__lfht_mm_alloc_order(struct cds_lfht *ht, unsigned long order)
{
	const struct cds_lfht_alloc *alloc = table_alloc(ht);
	unsigned long first = 1UL << (order - 1);
	unsigned long chunk = ht->min_nr_alloc_buckets, c;
	struct cds_lfht_node *tbl;

	switch (ht->mm_kind) {
	case LFHT_MM_ORDER:
		tbl = cds__lfht_mem_alloc(alloc, first * NODE_SIZE, NODE_ALIGN);
		if (!tbl)
			return false;
		__atomic_store_n(&ht->tbl_order[order], tbl, __ATOMIC_RELAXED);
		return true;
	case LFHT_MM_CHUNK:
		for (c = first / chunk; c < 2 * first / chunk; c++) {
			tbl = cds__lfht_mem_alloc(alloc, chunk * NODE_SIZE, NODE_ALIGN);
			if (!tbl) {
				while (c-- > first / chunk)
					cds__lfht_mem_free(alloc, ht->tbl_chunk[c],
							   chunk * NODE_SIZE, NODE_ALIGN);
				return false;
			}
			__atomic_store_n(&ht->tbl_chunk[c], tbl, __ATOMIC_RELAXED);
		}
		return true;
	default:
		return mmap_populate(ht, first, first);
	}
}

void cds__lfht_mm_free_order(struct cds_lfht *ht, unsigned long order)
{
	const struct cds_lfht_alloc *alloc = table_alloc(ht);
	unsigned long first = 1UL << (order - 1);
	unsigned long chunk = ht->min_nr_alloc_buckets, c;

	switch (ht->mm_kind) {
	case LFHT_MM_ORDER:
		cds__lfht_mem_free(alloc, ht->tbl_order[order], first * NODE_SIZE,
				   NODE_ALIGN);
		__atomic_store_n(&ht->tbl_order[order], NULL, __ATOMIC_RELAXED);
		break;
	case LFHT_MM_CHUNK:
		for (c = first / chunk; c < 2 * first / chunk; c++) {
			cds__lfht_mem_free(alloc, ht->tbl_chunk[c],
					   chunk * NODE_SIZE, NODE_ALIGN);
			__atomic_store_n(&ht->tbl_chunk[c], NULL, __ATOMIC_RELAXED);
		}
		break;
	default:
		mmap_depopulate(ht, first, first);
		break;
	}
}

/* ------------------------------------------------------------------------
 * The public layout objects.  Their members expose the same operations
 * for code written against liburcu's struct; the table itself uses the
 * functions above directly.
 */

#define DEFINE_MM(name)							\
static struct cds_lfht *name##_new(unsigned long min_nr_alloc_buckets,	\
		unsigned long max_nr_buckets,				\
		const struct cds_lfht_alloc *alloc)			\
{									\
	return cds__lfht_mm_new(&cds_lfht_mm_##name, min_nr_alloc_buckets, \
				max_nr_buckets, alloc);			\
}									\
URCU_API const struct cds_lfht_mm_type cds_lfht_mm_##name = {		\
	.alloc_cds_lfht = name##_new,					\
	.alloc_bucket_table = mm_alloc_bucket_table,			\
	.free_bucket_table = cds__lfht_mm_free_order,			\
	.bucket_at = lfht_bucket_at,					\
}

static void mm_alloc_bucket_table(struct cds_lfht *ht, unsigned long order)
{
	(void) cds__lfht_mm_alloc_order(ht, order);
}

DEFINE_MM(order);
DEFINE_MM(chunk);
DEFINE_MM(mmap);
