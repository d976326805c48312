/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-alloc.h: the allocation layer for the libraries' own memory.
 *
 * Every internal allocation (call_rcu workers, defer queues, barrier
 * records, hash-table bucket arrays, ...) goes through
 * urcu__alloc()/urcu__free().  With jemalloc enabled at build time they
 * use jemalloc's non-standard API (mallocx/sdallocx, sized and aligned),
 * so the library gets jemalloc even though the application's malloc()
 * stays whatever the application links; otherwise they use libc.  Memory
 * from here is only ever freed here, with the size and alignment it was
 * allocated with.
 *
 * liburcu-common implements the layer once (rcu/common/src/alloc.c) and
 * exports it to the flavor libraries and liburcu-cds as a private
 * interface: version node URCU_PRIVATE_0 of its version script.  These
 * names are not API; they may change in any release.
 */
#ifndef URCU_INTERNAL_ALLOC_H
#define URCU_INTERNAL_ALLOC_H

#include <stddef.h>

#include "urcu-export.h"

/*
 * Zeroed memory of @size bytes aligned on @align (a power of two, at
 * least sizeof(void *)), or NULL.
 */
URCU_PRIVATE_API void *urcu__alloc(size_t size, size_t align);
/* Free memory from urcu__alloc() with the same @size and @align. */
URCU_PRIVATE_API void urcu__free(void *ptr, size_t size, size_t align);
/*
 * The calling thread is about to sleep: let the allocator return the
 * memory it caches for this thread (jemalloc's thread.idle).
 */
URCU_PRIVATE_API void urcu__alloc_thread_idle(void);

/*
 * Fault injection, for the test suites only: from this call on, the next
 * @n allocations succeed and every later one fails (returns NULL); a
 * negative @n turns injection off again.  Call it before the allocations
 * it targets start, from the thread that makes them or before creating
 * the threads that do.
 */
URCU_PRIVATE_API void urcu__alloc_fail_after(long n);

#endif /* URCU_INTERNAL_ALLOC_H */
