/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/annotate.h - tell ThreadSanitizer about orderings made with fences.
 *
 * TSan builds happens-before from acquire and release accesses only; it
 * does not model stand-alone fences.  Code that publishes with relaxed
 * accesses plus cmm_smp_mb() is correct, but TSan reports the data it
 * hands over as raced.  These annotations state the ordering explicitly.
 * When CMM_SANITIZE_THREAD is not defined (<urcu/compiler.h>: any build
 * without TSan) they compile to nothing and evaluate nothing.
 *
 * Single accesses:
 *   cmm_annotate_mem_release(mem)  before a store to *mem that publishes
 *                                  what this thread wrote before it;
 *   cmm_annotate_mem_acquire(mem)  after a load of *mem that observed
 *                                  such a store.
 *
 * Groups, for the fence idiom (liburcu 0.15's names and rules):
 *   cmm_annotate_define(g);        a group, declared where it is used;
 *   acquire group: relaxed loads, each followed by
 *     cmm_annotate_group_mem_acquire(&g, mem), then cmm_smp_mb() followed
 *     by cmm_annotate_group_mb_acquire(&g): the fence makes each load an
 *     acquire;
 *   release group: cmm_smp_mb() followed by
 *     cmm_annotate_group_mb_release(&g), then relaxed stores, each preceded
 *     by cmm_annotate_group_mem_release(&g, mem): the fence makes each
 *     store a release.
 * Under TSan a group also checks that order, and an annotation out of
 * place (a load after the acquire fence, a store before the release
 * fence, a second fence) aborts through cmm_annotate_die().
 *
 * liburcu marks this API experimental; so is this copy of it.
 */
#ifndef _URCU_ANNOTATE_H
#define _URCU_ANNOTATE_H

#include <stdio.h>
#include <stdlib.h>

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a group stands: nothing yet, loads, stores, or its fence seen. */
enum cmm_annotate {
	CMM_ANNOTATE_VOID,
	CMM_ANNOTATE_LOAD,
	CMM_ANNOTATE_STORE,
	CMM_ANNOTATE_MB,
};

/* A group; "unused" because outside TSan nothing reads it. */
typedef enum cmm_annotate cmm_annotate_t __attribute__((unused));

#define cmm_annotate_define(name)	cmm_annotate_t name = CMM_ANNOTATE_VOID

/* Report a misplaced annotation at the caller's line, and abort. */
#define cmm_annotate_die(msg)	_cmm_annotate_die(__FILE__, __LINE__, (msg))

__attribute__((noreturn, cold, unused))
static void _cmm_annotate_die(const char *file, int line, const char *msg)
{
	fprintf(stderr, "urcu: annotate: %s:%d: %s\n", file, line, msg);
	abort();
}

/* @group as a cmm_annotate_t *, type-checked, evaluated only in TSan. */
#define _cmm_annotate_group(group)	(1 ? (group) : (cmm_annotate_t *) 0)

#ifdef CMM_SANITIZE_THREAD

/* The TSan runtime's own entry points (<sanitizer/tsan_interface.h>). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

static inline void _cmm_annotate_group_mem_acquire(cmm_annotate_t *g,
		const volatile void *mem, const char *file, int line)
{
	if (*g == CMM_ANNOTATE_MB)
		_cmm_annotate_die(file, line,
			"load annotated after the fence of its acquire group");
	if (*g == CMM_ANNOTATE_STORE)
		_cmm_annotate_die(file, line,
			"load annotated in a release group");
	*g = CMM_ANNOTATE_LOAD;
	__tsan_acquire((void *) mem);
}

static inline void _cmm_annotate_group_mb_acquire(cmm_annotate_t *g,
		const char *file, int line)
{
	if (*g == CMM_ANNOTATE_MB)
		_cmm_annotate_die(file, line,
			"second fence annotated in an acquire group");
	if (*g == CMM_ANNOTATE_STORE)
		_cmm_annotate_die(file, line,
			"acquire fence annotated in a release group");
	*g = CMM_ANNOTATE_MB;
}

static inline void _cmm_annotate_group_mb_release(cmm_annotate_t *g,
		const char *file, int line)
{
	if (*g != CMM_ANNOTATE_VOID)
		_cmm_annotate_die(file, line,
			"release fence annotated after loads, stores or "
			"another fence of its group");
	*g = CMM_ANNOTATE_MB;
}

static inline void _cmm_annotate_group_mem_release(cmm_annotate_t *g,
		const volatile void *mem, const char *file, int line)
{
	if (*g != CMM_ANNOTATE_MB && *g != CMM_ANNOTATE_STORE)
		_cmm_annotate_die(file, line,
			"store annotated before the fence of its release "
			"group");
	*g = CMM_ANNOTATE_STORE;
	__tsan_release((void *) mem);
}

# define cmm_annotate_group_mem_acquire(group, mem)			\
	_cmm_annotate_group_mem_acquire(_cmm_annotate_group(group),	\
					(mem), __FILE__, __LINE__)
# define cmm_annotate_group_mb_acquire(group)				\
	_cmm_annotate_group_mb_acquire(_cmm_annotate_group(group),	\
				       __FILE__, __LINE__)
# define cmm_annotate_group_mb_release(group)				\
	_cmm_annotate_group_mb_release(_cmm_annotate_group(group),	\
				       __FILE__, __LINE__)
# define cmm_annotate_group_mem_release(group, mem)			\
	_cmm_annotate_group_mem_release(_cmm_annotate_group(group),	\
					(mem), __FILE__, __LINE__)
# define cmm_annotate_mem_acquire(mem)					\
	__tsan_acquire((void *) (mem))
# define cmm_annotate_mem_release(mem)					\
	__tsan_release((void *) (mem))

#else /* !CMM_SANITIZE_THREAD */

/* Type-checked, never evaluated: sizeof does not evaluate its operand. */
# define cmm_annotate_group_mem_acquire(group, mem)			\
	((void) sizeof(_cmm_annotate_group(group)), (void) sizeof(mem))
# define cmm_annotate_group_mb_acquire(group)				\
	((void) sizeof(_cmm_annotate_group(group)))
# define cmm_annotate_group_mb_release(group)				\
	((void) sizeof(_cmm_annotate_group(group)))
# define cmm_annotate_group_mem_release(group, mem)			\
	((void) sizeof(_cmm_annotate_group(group)), (void) sizeof(mem))
# define cmm_annotate_mem_acquire(mem)	((void) sizeof(mem))
# define cmm_annotate_mem_release(mem)	((void) sizeof(mem))

#endif /* CMM_SANITIZE_THREAD */

#ifdef __cplusplus
}
#endif

#endif /* _URCU_ANNOTATE_H */
