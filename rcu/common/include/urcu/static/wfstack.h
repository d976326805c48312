/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/wfstack.h - inline implementation of <urcu/wfstack.h>.
 *
 * Programs normally include <urcu/wfstack.h>.  With _LGPL_SOURCE
 * defined, that header includes this one and maps the public names onto
 * the functions below; without it, the library's out-of-line copies
 * (built from this file) are called instead.
 *
 * Design
 * ------
 * s->head designates the top node, or holds the end marker CDS_WFS_END
 * when the stack is empty.  A node's next pointer is NULL while the node
 * is "half pushed", and otherwise designates the node below it (or is
 * CDS_WFS_END for the bottom node).  NULL and the end marker are thus
 * distinct: NULL means "link not written yet", END means "no more".
 *
 * Push of node N:
 *   P1. N->next = NULL                     (N is still private)
 *   P2. old = exchange(s->head, N)         (N is now the top)
 *   P3. N->next = old                      (links it; old may be END)
 * No loop and no waiting: push is wait-free.
 *
 * Pop (serialized with other pops and pop_all by the caller):
 *   O1. top = s->head; END means empty.
 *   O2. next = top->next, waiting while it is NULL (push in flight).
 *   O3. compare-and-swap s->head from top to next.  Failure means a
 *       push (or, under RCU, another pop) changed the top: retry from
 *       the value the compare-and-swap returned.
 * Because pops are serialized (or, under RCU, because "top" cannot be
 * reused while we may still look at it), "top" cannot leave the stack
 * and come back between O1 and O3: no ABA.
 *
 * Pop-all: exchange(s->head, END) takes the whole list at once.  Links
 * of pushes still between P2 and P3 are waited for by the iterators.
 *
 * Invariants:
 *   I1. Every node reachable from s->head either has its final next
 *       pointer or NULL; NULL only while its pusher is between P2 and P3.
 *   I2. Only the pusher of N writes N->next while N is on the stack.
 *   I3. s->head is changed only by exchange (P2, pop-all) and by O3's
 *       compare-and-swap: every change is a read-modify-write, so every
 *       change continues the release sequence of earlier pushes.
 *
 * Memory ordering
 * ---------------
 * All shared fields use __atomic builtins (ThreadSanitizer-clean without
 * suppressions).  Hand-offs:
 *   - P2 is acquire-release.  Release publishes the node's contents and
 *     its NULL link to whoever loads s->head with acquire (O1, O3 on
 *     failure, pop-all).  Acquire makes the P3 link carry the history of
 *     the node below, so following links from one node to the next is
 *     ordered without relying on release sequences.
 *   - P3 is a release store; every load of a next pointer that is then
 *     followed (O2, iteration) is an acquire load.
 *   - cds_wfs_push() additionally promises a full memory barrier before
 *     publication (see _cmm_smp_mb_around_rmw() in <urcu/uatomic.h>).
 */
#ifndef _URCU_STATIC_WFSTACK_H
#define _URCU_STATIC_WFSTACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/wfstack.h>
#include <urcu/static/link-wait.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * End-of-stack marker: never a valid node address, distinct from NULL
 * ("link not written yet") and from CDS_WFS_WOULDBLOCK.  Typed as the
 * stack's head pointer (s->head holds it when the stack is empty).
 */
#define CDS_WFS_END			((struct cds_wfs_head *) 0x1UL)

/* pthread mutex calls cannot fail on a correctly used stack. */
static inline void ___cds_wfs_check_pthread(int err)
{
	if (caa_unlikely(err != 0))
		abort();
}

/* Build the stack union from a locked stack, in C and in C++. */
static inline cds_wfs_stack_ptr_t
___cds_wfs_locked_stack(struct cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

/* node is the first member of head: the conversions are plain casts. */
static inline struct cds_wfs_node *
___cds_wfs_head_to_node(struct cds_wfs_head *head)
{
	return (struct cds_wfs_node *) head;
}

static inline struct cds_wfs_head *
___cds_wfs_node_to_head(struct cds_wfs_node *node)
{
	return (struct cds_wfs_head *) node;
}

static inline bool ___cds_wfs_end(const void *p)
{
	return p == CDS_WFS_END;
}

static inline void _cds_wfs_node_init(struct cds_wfs_node *node)
{
	/* The node is not shared yet; relaxed is enough. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
}

static inline void ___cds_wfs_init(struct __cds_wfs_stack *s)
{
	/*
	 * Not concurrent with any use; whatever hands the stack to other
	 * threads orders this store.
	 */
	__atomic_store_n(&s->head, CDS_WFS_END, __ATOMIC_RELAXED);
}

static inline void _cds_wfs_init(struct cds_wfs_stack *s)
{
	___cds_wfs_init((struct __cds_wfs_stack *) s);
	___cds_wfs_check_pthread(pthread_mutex_init(&s->lock, NULL));
}

static inline void _cds_wfs_destroy(struct cds_wfs_stack *s)
{
	___cds_wfs_check_pthread(pthread_mutex_destroy(&s->lock));
}

static inline bool _cds_wfs_empty(cds_wfs_stack_ptr_t u_stack)
{
	struct __cds_wfs_stack *s = u_stack._s;

	/* Relaxed: documented as a snapshot with no memory barrier. */
	return ___cds_wfs_end(__atomic_load_n(&s->head, __ATOMIC_RELAXED));
}

static inline int _cds_wfs_push(cds_wfs_stack_ptr_t u_stack,
		struct cds_wfs_node *node)
{
	struct __cds_wfs_stack *s = u_stack._s;
	struct cds_wfs_head *old_head;

	/* P1.  Still private: relaxed; P2's release publishes it. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/*
	 * The documented full barrier before publication: a fence, or on
	 * x86 a compiler barrier, the locked read-modify-write below being
	 * acquire-release (<urcu/uatomic.h>).  The algorithm does not need it.
	 */
	_cmm_smp_mb_around_rmw();
	/*
	 * P2.  Release: pairs with the acquire loads of s->head in pop and
	 * the acquire exchange of pop-all (node contents, P1).  Acquire:
	 * pairs with the previous P2's release, so that P3 below also
	 * carries the initialization of the node it links to.
	 */
	old_head = __atomic_exchange_n(&s->head,
			___cds_wfs_node_to_head(node), __ATOMIC_ACQ_REL);
	/*
	 * P3.  Release: pairs with the acquire load in
	 * ___cds_wfs_node_sync_next() of whoever pops or iterates past us.
	 */
	__atomic_store_n(&node->next, ___cds_wfs_head_to_node(old_head),
			__ATOMIC_RELEASE);
	return !___cds_wfs_end(old_head);
}

/*
 * Wait until node->next is written and return it (possibly the end
 * marker), or return CDS_WFS_WOULDBLOCK when blocking is 0 and the link
 * is still in flight.
 */
static inline struct cds_wfs_node *
___cds_wfs_node_sync_next(struct cds_wfs_node *node, int blocking)
{
	struct cds_wfs_node *next;
	unsigned int spins = 0;

	/* Acquire: pairs with P3's release store in _cds_wfs_push(). */
	while ((next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)) == NULL) {
		if (!blocking)
			return CDS_WFS_WOULDBLOCK;
		___cds_link_wait(&spins);
	}
	return next;
}

static inline struct cds_wfs_node *
___cds_wfs_pop(cds_wfs_stack_ptr_t u_stack, int *state, int blocking)
{
	struct __cds_wfs_stack *s = u_stack._s;
	struct cds_wfs_head *head, *new_head;
	struct cds_wfs_node *next;

	if (state != NULL)
		*state = 0;
	/* O1.  Acquire: pairs with P2's release (node contents, P1). */
	head = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
	for (;;) {
		if (___cds_wfs_end(head))
			return NULL;
		/* O2: wait for the link below head (acquire inside). */
		next = ___cds_wfs_node_sync_next(&head->node, blocking);
		if (next == CDS_WFS_WOULDBLOCK)
			return CDS_WFS_WOULDBLOCK;
		new_head = ___cds_wfs_node_to_head(next);
		/*
		 * O3.  Success is acquire-release: release hands the
		 * history we acquired through head->next (the next node's
		 * contents) to the next thread that loads s->head, which
		 * matters when pops run concurrently under RCU; acquire is
		 * required by the C rule that success be at least as
		 * strong as failure.  Failure is acquire: the refreshed
		 * head is dereferenced on the next iteration (pairs with
		 * P2's release).
		 */
		if (__atomic_compare_exchange_n(&s->head, &head, new_head,
				false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			if (state != NULL && ___cds_wfs_end(new_head))
				*state |= CDS_WFS_STATE_LAST;
			return &head->node;
		}
		if (!blocking)
			return CDS_WFS_WOULDBLOCK;
	}
}

static inline struct cds_wfs_node *
___cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack, int *state)
{
	return ___cds_wfs_pop(u_stack, state, 1);
}

static inline struct cds_wfs_node *
___cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop(u_stack, NULL, 1);
}

static inline struct cds_wfs_node *
___cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_ptr_t u_stack,
		int *state)
{
	return ___cds_wfs_pop(u_stack, state, 0);
}

static inline struct cds_wfs_node *
___cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop(u_stack, NULL, 0);
}

static inline struct cds_wfs_head *
___cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack)
{
	struct __cds_wfs_stack *s = u_stack._s;
	struct cds_wfs_head *head;

	/*
	 * Acquire: pairs with the release of the P2 that stored this top
	 * (and, by I3, of every earlier P2), so every node of the list is
	 * initialized as seen by us.  Links still in flight are read with
	 * acquire by the iterators.  Nothing needs releasing: a pusher that
	 * finds END only uses it as a value.
	 */
	head = __atomic_exchange_n(&s->head, CDS_WFS_END,
			__ATOMIC_ACQUIRE);
	if (___cds_wfs_end(head))
		return NULL;
	return head;
}

static inline void _cds_wfs_pop_lock(struct cds_wfs_stack *s)
{
	___cds_wfs_check_pthread(pthread_mutex_lock(&s->lock));
}

static inline void _cds_wfs_pop_unlock(struct cds_wfs_stack *s)
{
	___cds_wfs_check_pthread(pthread_mutex_unlock(&s->lock));
}

static inline struct cds_wfs_node *
_cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s, int *state)
{
	struct cds_wfs_node *node;

	_cds_wfs_pop_lock(s);
	node = ___cds_wfs_pop_with_state_blocking(___cds_wfs_locked_stack(s),
			state);
	_cds_wfs_pop_unlock(s);
	return node;
}

static inline struct cds_wfs_node *
_cds_wfs_pop_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_with_state_blocking(s, NULL);
}

static inline struct cds_wfs_head *
_cds_wfs_pop_all_blocking(struct cds_wfs_stack *s)
{
	struct cds_wfs_head *head;

	_cds_wfs_pop_lock(s);
	head = ___cds_wfs_pop_all(___cds_wfs_locked_stack(s));
	_cds_wfs_pop_unlock(s);
	return head;
}

static inline struct cds_wfs_node *_cds_wfs_first(struct cds_wfs_head *head)
{
	if (head == NULL || ___cds_wfs_end(head))
		return NULL;
	return &head->node;
}

static inline struct cds_wfs_node *
___cds_wfs_next(struct cds_wfs_node *node, int blocking)
{
	struct cds_wfs_node *next;

	/* Acquire inside: pairs with P3, as for pop. */
	next = ___cds_wfs_node_sync_next(node, blocking);
	if (next == CDS_WFS_WOULDBLOCK)
		return next;
	if (___cds_wfs_end(next))
		return NULL;
	return next;
}

static inline struct cds_wfs_node *
_cds_wfs_next_blocking(struct cds_wfs_node *node)
{
	return ___cds_wfs_next(node, 1);
}

static inline struct cds_wfs_node *
_cds_wfs_next_nonblocking(struct cds_wfs_node *node)
{
	return ___cds_wfs_next(node, 0);
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_WFSTACK_H */
