/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * alloc.c: jemalloc or libc behind the internal allocation layer
 * (urcu-alloc.h).  Part of liburcu-common; the other libraries call it
 * through the private interface.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "urcu-build-config.h"
#include "urcu-alloc.h"

#ifdef URCU_HAVE_JEMALLOC
#define JEMALLOC_NO_DEMANGLE
#include <jemalloc/jemalloc.h>
#endif

/*
 * Fault injection state (urcu__alloc_fail_after()): whether it is on, and
 * the allocations left before failures start.
 */
static int fail_enabled;
static long fail_left;

URCU_PRIVATE_API void urcu__alloc_fail_after(long n)
{
	/* Relaxed: published by the release store below. */
	__atomic_store_n(&fail_left, n, __ATOMIC_RELAXED);
	/* Orders fail_left before it; paired with injected_failure(). */
	__atomic_store_n(&fail_enabled, n >= 0, __ATOMIC_RELEASE);
}

static int injected_failure(void)
{
	/* Orders the read of fail_left after it; paired with
	 * urcu__alloc_fail_after(). */
	if (!__atomic_load_n(&fail_enabled, __ATOMIC_ACQUIRE))
		return 0;
	/*
	 * Relaxed: a counter that only needs atomicity; the allocation it
	 * guards is ordered by whoever publishes its result.
	 */
	return __atomic_fetch_sub(&fail_left, 1, __ATOMIC_RELAXED) <= 0;
}

URCU_PRIVATE_API void *urcu__alloc(size_t size, size_t align)
{
	if (size == 0 || injected_failure())
		return NULL;
#ifdef URCU_HAVE_JEMALLOC
	return je_mallocx(size, MALLOCX_ALIGN(align) | MALLOCX_ZERO);
#else
	{
		void *p;

		if (posix_memalign(&p, align, size))
			return NULL;
		return memset(p, 0, size);
	}
#endif
}

URCU_PRIVATE_API void urcu__free(void *ptr, size_t size, size_t align)
{
	if (!ptr)
		return;
#ifdef URCU_HAVE_JEMALLOC
	je_sdallocx(ptr, size, MALLOCX_ALIGN(align));
#else
	(void) size;
	(void) align;
	free(ptr);
#endif
}

URCU_PRIVATE_API void urcu__alloc_thread_idle(void)
{
#ifdef URCU_HAVE_JEMALLOC
	/* Best effort: an older jemalloc without thread.idle just refuses. */
	(void) je_mallctl("thread.idle", NULL, NULL, NULL, 0);
#endif
}
