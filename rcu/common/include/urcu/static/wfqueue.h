/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/wfqueue.h - inline implementation of <urcu/wfqueue.h>.
 *
 * Programs normally include <urcu/wfqueue.h>.  With _LGPL_SOURCE defined,
 * that header includes this one and wraps the functions below; without
 * it, liburcu-common's out-of-line copies (built from this file) are
 * called instead.
 *
 * Design
 * ------
 * q->head is the first node; q->tail designates the next field of the
 * last node, the link the next enqueue fills.  A node's next pointer is
 * NULL until its successor is linked.  The queue always contains the
 * dummy node q->dummy (I1), so it is never empty in the linked-list
 * sense and an enqueue never has to touch q->head.
 *
 * Enqueue of node N:
 *   E1. N->next = NULL                        (N is still private)
 *   E2. slot = exchange(q->tail, &N->next)    (claims the position)
 *   E3. *slot = N                             (links N)
 * Each enqueuer gets a distinct slot from E2 and is the only writer of
 * it, so enqueue is wait-free.
 *
 * Dequeue (serialized by the caller):
 *   D1. node = q->head.  If node is the dummy and q->tail designates the
 *       dummy's link, nothing follows it: the queue is empty.
 *   D2. next = node->next, waiting while it is NULL: then an enqueuer is
 *       between E2 and E3 on this link (I2).
 *   D3. q->head = next.
 *   D4. If node is the dummy, enqueue it again (E1-E3) and go to D1;
 *       otherwise node is the caller's.
 *
 * Invariants:
 *   I1. Outside D3-D4 the dummy is in the queue: only D3 removes it, and
 *       D4 puts it back before the dequeue returns.
 *   I2. Every node in the queue other than the last has a successor,
 *       linked or with its E3 pending, and by I1 a real node at the head
 *       is never the last.  So D2 waits only for a link in flight, as
 *       long as its enqueuer takes to execute one store.
 *   I3. When D4 re-enqueues the dummy nobody else can reach its link:
 *       its successor's E3 has completed (D2 saw it) and q->tail moved on
 *       at that successor's E2, so E1 on it races with nothing.
 *
 * Memory ordering
 * ---------------
 * Every field shared between enqueuers and the dequeuer is accessed with
 * __atomic builtins (ThreadSanitizer-clean without suppressions);
 * q->head is touched by dequeues only, which the caller serializes.
 *   - E2 is acquire-release.  Release publishes E1 (N->next = NULL)
 *     before the next enqueuer, given &N->next by its own E2, stores
 *     into it at E3; acquire orders our E3 after the previous owner's
 *     E1 on our slot.  Otherwise a late NULL could overwrite a link.
 *   - E3 is a release store, D2 an acquire load: what an enqueuer wrote
 *     before publishing a node is visible to the thread that dequeues
 *     it.
 *   - cds_wfq_enqueue() also promises a full memory barrier before the
 *     node is published, as liburcu's does; _cmm_smp_mb_around_rmw()
 *     supplies it (a compiler barrier on x86, where E2 is a locked
 *     instruction).  The algorithm itself does not need it.
 */
#ifndef _URCU_STATIC_WFQUEUE_H
#define _URCU_STATIC_WFQUEUE_H

#include <pthread.h>
#include <stdlib.h>

#include <urcu/arch.h>
#include <urcu/compiler.h>
#include <urcu/uatomic.h>
#include <urcu/wfqueue.h>
#include <urcu/static/link-wait.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline void _cds_wfq_node_init(struct cds_wfq_node *node)
{
	/* The node is not shared yet; relaxed is enough. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
}

static inline void _cds_wfq_init(struct cds_wfq_queue *q)
{
	/*
	 * Not concurrent with any use: whatever hands the queue to other
	 * threads orders these stores.
	 */
	_cds_wfq_node_init(&q->dummy);
	q->head = &q->dummy;
	__atomic_store_n(&q->tail, &q->dummy.next, __ATOMIC_RELAXED);
	if (pthread_mutex_init(&q->lock, NULL) != 0)
		abort();
}

static inline void _cds_wfq_destroy(struct cds_wfq_queue *q)
{
	if (pthread_mutex_destroy(&q->lock) != 0)
		abort();
}

static inline void _cds_wfq_enqueue(struct cds_wfq_queue *q,
		struct cds_wfq_node *node)
{
	struct cds_wfq_node **slot;

	/* E1.  Private node: relaxed; E2's release publishes it. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	/* The promised full barrier (see "Memory ordering" above). */
	_cmm_smp_mb_around_rmw();
	/* E2.  Acquire-release: see "Memory ordering" above. */
	slot = __atomic_exchange_n(&q->tail, &node->next, __ATOMIC_ACQ_REL);
	/* E3.  Release: pairs with D2's acquire (the node's contents). */
	__atomic_store_n(slot, node, __ATOMIC_RELEASE);
}

/* D2: the successor of @node, waiting for its link if in flight (I2). */
static inline struct cds_wfq_node *
___cds_wfq_next_blocking(struct cds_wfq_node *node)
{
	struct cds_wfq_node *next;
	unsigned int spins = 0;

	/* Acquire: pairs with E3's release store of this link. */
	while ((next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)) == NULL)
		___cds_link_wait(&spins);
	return next;
}

static inline struct cds_wfq_node *
___cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	struct cds_wfq_node *node;

	for (;;) {
		/* D1.  q->head: dequeuers only, serialized by the caller. */
		node = q->head;
		/*
		 * Relaxed: only compared; D2's acquire orders the reads of
		 * whatever follows the dummy.
		 */
		if (node == &q->dummy &&
		    __atomic_load_n(&q->tail, __ATOMIC_RELAXED) == &q->dummy.next)
			return NULL;
		q->head = ___cds_wfq_next_blocking(node);	/* D2, D3 */
		if (node != &q->dummy)
			return node;
		_cds_wfq_enqueue(q, node);			/* D4 (I3) */
	}
}

static inline struct cds_wfq_node *
_cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	struct cds_wfq_node *node;

	if (pthread_mutex_lock(&q->lock) != 0)
		abort();
	node = ___cds_wfq_dequeue_blocking(q);
	if (pthread_mutex_unlock(&q->lock) != 0)
		abort();
	return node;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_WFQUEUE_H */
