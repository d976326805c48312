/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/lfstack.h - inline implementation of <urcu/lfstack.h>.
 *
 * Programs normally include <urcu/lfstack.h>.  With _LGPL_SOURCE
 * defined, that header includes this one and maps the public names onto
 * the functions below; without it, the library's out-of-line copies
 * (built from this file) are called instead.
 *
 * Design
 * ------
 * s->head designates the top node, or is NULL when the stack is empty.
 * Each node's next pointer designates the node below it (NULL at the
 * bottom) and is written before the node becomes reachable.
 *
 * Push of node N (lock-free):
 *   U1. top = s->head
 *   U2. N->next = top
 *   U3. compare-and-swap s->head from top to N; on failure the CAS
 *       returns the current top: go to U2.
 *
 * Pop (lock-free; ABA-protected by the caller, see <urcu/lfstack.h>):
 *   O1. top = s->head; NULL means empty.
 *   O2. next = top->next
 *   O3. compare-and-swap s->head from top to next; on failure retry
 *       from O2 with the returned top.
 * O3 can only succeed wrongly if "top" was popped and pushed back
 * between O1 and O3 (ABA).  The pop lock excludes the pop half of that
 * sequence; RCU excludes the push-back half until this pop has ended.
 * A stale "next" read from a node that was popped meanwhile is harmless:
 * O3 then fails because the top has changed.
 *
 * Pop-all: exchange(s->head, NULL).
 *
 * Invariants:
 *   I1. Every node reachable from s->head has its final next pointer
 *       (U2 precedes the U3 that publishes it).
 *   I2. s->head changes only through read-modify-write operations (U3,
 *       O3, pop-all's exchange), so each change extends the release
 *       sequence headed by every earlier push's U3.
 *
 * Memory ordering
 * ---------------
 * Every shared field is accessed with __atomic builtins, so the code is
 * free of data races and ThreadSanitizer-clean without suppressions.
 *   - U3's compare-and-swap releases: it publishes the node's contents
 *     and its next pointer.  (It is acquire-release only to keep the
 *     full-barrier promise cheap on x86; see the push code.)
 *   - O1 (and O3's failure path) and pop-all's exchange are acquire.  An
 *     acquire that reads the top written by push U3 synchronizes with
 *     it; one that reads a top installed by O3 or by a later push still
 *     synchronizes with the push of that node, through the release
 *     sequence of I2.  Hence a popped node and every node of a popped
 *     list are seen initialized, and the iteration macros may follow
 *     next pointers with plain loads.
 *   - cds_lfs_push() additionally promises a full memory barrier before
 *     publication (see _cmm_smp_mb_around_rmw() in <urcu/uatomic.h>).
 */
#ifndef _URCU_STATIC_LFSTACK_H
#define _URCU_STATIC_LFSTACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/lfstack.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pthread mutex calls cannot fail on a correctly used stack. */
static inline void ___cds_lfs_check_pthread(int err)
{
	if (caa_unlikely(err != 0))
		abort();
}

/* Build the stack union from a locked stack, in C and in C++. */
static inline cds_lfs_stack_ptr_t
___cds_lfs_locked_stack(struct cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

/* node is the first member of head: the conversions are plain casts. */
static inline struct cds_lfs_node *
___cds_lfs_head_to_node(struct cds_lfs_head *head)
{
	return (struct cds_lfs_node *) head;
}

static inline struct cds_lfs_head *
___cds_lfs_node_to_head(struct cds_lfs_node *node)
{
	return (struct cds_lfs_head *) node;
}

static inline void _cds_lfs_node_init(struct cds_lfs_node *node)
{
	/* The node is not shared yet; relaxed is enough. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
}

static inline void ___cds_lfs_init(struct __cds_lfs_stack *s)
{
	/*
	 * Not concurrent with any use; whatever hands the stack to other
	 * threads orders this store.
	 */
	__atomic_store_n(&s->head, NULL, __ATOMIC_RELAXED);
}

static inline void _cds_lfs_init(struct cds_lfs_stack *s)
{
	___cds_lfs_init((struct __cds_lfs_stack *) s);
	___cds_lfs_check_pthread(pthread_mutex_init(&s->lock, NULL));
}

static inline void _cds_lfs_destroy(struct cds_lfs_stack *s)
{
	___cds_lfs_check_pthread(pthread_mutex_destroy(&s->lock));
}

static inline bool _cds_lfs_empty(cds_lfs_stack_ptr_t u_s)
{
	struct __cds_lfs_stack *s = u_s._s;

	/* Relaxed: documented as a snapshot with no memory barrier. */
	return __atomic_load_n(&s->head, __ATOMIC_RELAXED) == NULL;
}

static inline bool _cds_lfs_push(cds_lfs_stack_ptr_t u_s,
		struct cds_lfs_node *node)
{
	struct __cds_lfs_stack *s = u_s._s;
	struct cds_lfs_head *head;

	/*
	 * The documented full barrier before publication: a fence, or on
	 * x86 a compiler barrier, the locked read-modify-write below being
	 * acquire-release (<urcu/uatomic.h>).  The algorithm does not need it.
	 */
	_cmm_smp_mb_around_rmw();
	/*
	 * U1.  Relaxed: the value is only a guess for U3, which checks it;
	 * nothing behind the old top is dereferenced here.
	 */
	head = __atomic_load_n(&s->head, __ATOMIC_RELAXED);
	for (;;) {
		/*
		 * U2.  Relaxed: the node is still private; U3's release
		 * publishes this store.  Atomic because, under RCU, a
		 * stale popper may still read the link of a node that was
		 * popped and is being reused here.
		 */
		__atomic_store_n(&node->next, ___cds_lfs_head_to_node(head),
				__ATOMIC_RELAXED);
		/*
		 * U3.  Release on success: pairs with the acquire of O1/O3
		 * and of pop-all (node contents and next pointer).  The
		 * acquire half is not needed by the algorithm; it stops the
		 * compiler from hoisting the caller's later accesses above
		 * the compare-and-swap, which the x86 shortcut of
		 * _cmm_smp_mb_around_rmw() relies on.  Relaxed on
		 * failure: the refreshed top is again only a guess.
		 */
		if (__atomic_compare_exchange_n(&s->head, &head,
				___cds_lfs_node_to_head(node), true,
				__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
	}
	return head != NULL;
}

static inline struct cds_lfs_node *___cds_lfs_pop(cds_lfs_stack_ptr_t u_s)
{
	struct __cds_lfs_stack *s = u_s._s;
	struct cds_lfs_head *head;
	struct cds_lfs_node *next;

	/*
	 * O1.  Acquire: pairs with U3's release (directly, or through the
	 * release sequence of I2), so head->next and the node's contents
	 * are visible.
	 */
	head = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
	for (;;) {
		if (head == NULL)
			return NULL;
		/*
		 * O2.  Relaxed: ordered after O1's acquire.  Under RCU the
		 * node may have been popped and its link overwritten
		 * meanwhile; O3 then fails, so a stale value is harmless.
		 */
		next = __atomic_load_n(&head->node.next, __ATOMIC_RELAXED);
		/*
		 * O3.  Acquire on failure: the refreshed top is dereferenced
		 * at O2 (pairs with U3's release).  Acquire on success too,
		 * as C requires success to be at least as strong as
		 * failure; nothing needs releasing, as I2 keeps the release
		 * sequence of the pushes intact for the next popper.
		 */
		if (__atomic_compare_exchange_n(&s->head, &head,
				___cds_lfs_node_to_head(next), true,
				__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
			return &head->node;
	}
}

static inline struct cds_lfs_head *
___cds_lfs_pop_all(cds_lfs_stack_ptr_t u_s)
{
	struct __cds_lfs_stack *s = u_s._s;

	/*
	 * Acquire: pairs with the U3 of every node in the list (release
	 * sequence, I2), so the caller may walk the list with plain loads.
	 * Nothing needs releasing: a pusher that reads NULL uses it only as
	 * a value.
	 */
	return __atomic_exchange_n(&s->head, NULL, __ATOMIC_ACQUIRE);
}

static inline void _cds_lfs_pop_lock(struct cds_lfs_stack *s)
{
	___cds_lfs_check_pthread(pthread_mutex_lock(&s->lock));
}

static inline void _cds_lfs_pop_unlock(struct cds_lfs_stack *s)
{
	___cds_lfs_check_pthread(pthread_mutex_unlock(&s->lock));
}

static inline struct cds_lfs_node *
_cds_lfs_pop_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_node *node;

	_cds_lfs_pop_lock(s);
	node = ___cds_lfs_pop(___cds_lfs_locked_stack(s));
	_cds_lfs_pop_unlock(s);
	return node;
}

static inline struct cds_lfs_head *
_cds_lfs_pop_all_blocking(struct cds_lfs_stack *s)
{
	struct cds_lfs_head *head;

	_cds_lfs_pop_lock(s);
	head = ___cds_lfs_pop_all(___cds_lfs_locked_stack(s));
	_cds_lfs_pop_unlock(s);
	return head;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_LFSTACK_H */
