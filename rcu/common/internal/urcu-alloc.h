/*
 * alloc.h: the allocation layer for the library's own memory.
 *
 * Every internal allocation (call_rcu workers, defer queues, barrier
 * records, hash-table bucket arrays, ...) goes through
 * urcu__alloc()/urcu__free().  With jemalloc enabled at build time they
 * use jemalloc's non-standard API (mallocx/sdallocx, sized and aligned),
 * so the library gets jemalloc even though the application's malloc()
 * stays whatever the application links; otherwise they use libc.  Memory from here is only ever freed here, with
 * the size and alignment it was allocated with.
 *
 * Fault injection for tests: with URCU_ALLOC_FAIL_AFTER=N in the
 * environment (read at the first allocation), the first N allocations
 * succeed and every later one fails.
 */
#ifndef URCU_SRC_ALLOC_H
#define URCU_SRC_ALLOC_H

#include <stddef.h>

/*
 * Each library has its own hidden copy: per flavor (named after it), and
 * one in liburcu-cds, built with URCU_ALLOC_FOR_CDS.
 */
#ifdef URCU_ALLOC_FOR_CDS
#define urcu__alloc		cds__alloc
#define urcu__free		cds__free
#define urcu__alloc_thread_idle	cds__alloc_thread_idle
#else
#include "flavor-internal.h"

#define urcu__alloc		URCU__FLAVOR_SYM(alloc)
#define urcu__free		URCU__FLAVOR_SYM(free)
#define urcu__alloc_thread_idle	URCU__FLAVOR_SYM(alloc_thread_idle)
#endif

/*
 * Zeroed memory of @size bytes aligned on @align (a power of two, at
 * least sizeof(void *)), or NULL.
 */
void *urcu__alloc(size_t size, size_t align);
/* Free memory from urcu__alloc() with the same @size and @align. */
void urcu__free(void *ptr, size_t size, size_t align);
/*
 * The calling thread is about to sleep: let the allocator return the
 * memory it caches for this thread (jemalloc's thread.idle).
 */
void urcu__alloc_thread_idle(void);

#endif /* URCU_SRC_ALLOC_H */
