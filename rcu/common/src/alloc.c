/*
 * alloc.c: jemalloc or libc behind the internal allocation layer (alloc.h).
 * Compiled once per library.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "urcu-build-config.h"
#include "urcu-alloc.h"

#ifdef URCU_HAVE_JEMALLOC
#define JEMALLOC_NO_DEMANGLE
#include <jemalloc/jemalloc.h>
#endif

/* Fault injection state: allocations left before failures start. */
static pthread_once_t fail_once = PTHREAD_ONCE_INIT;
static int fail_enabled;
static long fail_left;

static void read_fail_after(void)
{
	const char *v = getenv("URCU_ALLOC_FAIL_AFTER");

	if (v && *v) {
		fail_left = strtol(v, NULL, 10);
		fail_enabled = 1;
	}
}

static int injected_failure(void)
{
	/* pthread_once publishes fail_enabled and fail_left. */
	(void) pthread_once(&fail_once, read_fail_after);
	if (!fail_enabled)
		return 0;
	/*
	 * Relaxed: a counter that only needs atomicity; the allocation it
	 * guards is ordered by whoever publishes its result.
	 */
	return __atomic_fetch_sub(&fail_left, 1, __ATOMIC_RELAXED) <= 0;
}

void *urcu__alloc(size_t size, size_t align)
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

void urcu__free(void *ptr, size_t size, size_t align)
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

void urcu__alloc_thread_idle(void)
{
#ifdef URCU_HAVE_JEMALLOC
	/* Best effort: an older jemalloc without thread.idle just refuses. */
	(void) je_mallctl("thread.idle", NULL, NULL, NULL, 0);
#endif
}
