/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/rculfstack.h - inline implementation of <urcu/rculfstack.h>.
 *
 * Programs normally include <urcu/rculfstack.h>.  With _LGPL_SOURCE
 * defined, that header includes this one and wraps the functions below;
 * without it, liburcu-cds's out-of-line copies (built from this file)
 * are called instead.
 *
 * A Treiber stack, the algorithm of <urcu/static/lfstack.h> restricted to
 * its RCU-protected pop: push is a compare-and-swap loop installing the
 * node on top; pop reads the top T and T->next and swaps the top from T
 * to T->next.  The swap could succeed wrongly only if T had been popped
 * and pushed back meanwhile (ABA).  The caller pops inside a read-side
 * critical section and pushes a popped node again (or frees it) only
 * after a grace period, so T cannot return to the top, nor disappear,
 * while a pop that read it is still running.  A stale T->next, read from
 * a node popped meanwhile, is harmless: the swap then fails, because T
 * is no longer the top, and the pop retries.
 *
 * Memory ordering: as in <urcu/static/lfstack.h>.  Every store to
 * s->head is a read-modify-write, so a pop's acquire load of the top
 * synchronizes with the push of the node it reads, through the release
 * sequence of that push's compare-and-swap; the node's contents and its
 * next pointer are visible.  Every shared field is accessed with
 * __atomic builtins (ThreadSanitizer-clean without suppressions).
 */
#ifndef _URCU_STATIC_RCULFSTACK_H
#define _URCU_STATIC_RCULFSTACK_H

#include <stdbool.h>
#include <stddef.h>

#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/rculfstack.h>
#include <urcu/uatomic.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline void _cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	/* The node is not shared yet; relaxed is enough. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
}

static inline void _cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	/*
	 * Not concurrent with any use: whatever hands the stack to other
	 * threads orders this store.
	 */
	__atomic_store_n(&s->head, NULL, __ATOMIC_RELAXED);
}

static inline int _cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s,
		struct cds_lfs_node_rcu *node)
{
	/* Relaxed: a guess that the compare-and-swap checks. */
	struct cds_lfs_node_rcu *top = __atomic_load_n(&s->head,
						       __ATOMIC_RELAXED);

	/*
	 * The documented full barrier before publication: a fence, or on
	 * x86 a compiler barrier, the locked compare-and-swap below being
	 * acquire-release (<urcu/uatomic.h>).  The algorithm does not need it.
	 */
	_cmm_smp_mb_around_rmw();
	do {
		/*
		 * Relaxed: the node is private until the compare-and-swap
		 * publishes it.  Atomic because a stale pop may still read
		 * the link of a node being pushed again after a grace period.
		 */
		__atomic_store_n(&node->next, top, __ATOMIC_RELAXED);
		/*
		 * Release on success: pairs with the pop's acquire loads of
		 * the top (the node's contents and link).  Acquire too, so
		 * the caller's later accesses stay after it.  Relaxed on
		 * failure: the refreshed top is again only a guess.
		 */
	} while (!__atomic_compare_exchange_n(&s->head, &top, node, true,
					      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
	return top != NULL;
}

static inline struct cds_lfs_node_rcu *
_cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	/* Acquire: pairs with the push's release (see above). */
	struct cds_lfs_node_rcu *top = __atomic_load_n(&s->head,
						       __ATOMIC_ACQUIRE);

	while (top != NULL) {
		/*
		 * Relaxed: after the acquire that returned top.  Possibly
		 * stale (top popped meanwhile); the swap then fails.
		 */
		struct cds_lfs_node_rcu *next =
			__atomic_load_n(&top->next, __ATOMIC_RELAXED);

		/*
		 * Acquire on failure: the refreshed top is dereferenced next
		 * round.  Acquire on success as well (it may not be weaker
		 * than failure); nothing needs releasing, the release
		 * sequences of the pushes carry on through this RMW.
		 */
		if (__atomic_compare_exchange_n(&s->head, &top, next, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE))
			break;
	}
	return top;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_RCULFSTACK_H */
