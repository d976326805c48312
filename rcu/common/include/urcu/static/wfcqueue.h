/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/wfcqueue.h - inline implementation of <urcu/wfcqueue.h>.
 *
 * Programs normally include <urcu/wfcqueue.h>.  With _LGPL_SOURCE
 * defined, that header includes this one and maps the public names onto
 * the functions below; without it, the library's out-of-line copies
 * (built from this file) are called instead.
 *
 * Design
 * ------
 * The head holds a dummy link, head->node, whose next pointer designates
 * the first node (NULL when there is none).  tail->p designates the last
 * node, or &head->node when the queue is empty.  A node's next pointer
 * is NULL until its successor is linked.
 *
 * Enqueue of node N (cds_wfcq_enqueue, and splice's append):
 *   E1. N->next = NULL                       (N is still private)
 *   E2. P = exchange(tail->p, N)             (claims the position)
 *   E3. P->next = N                          (links it; P may be the dummy)
 * Every enqueuer gets a distinct P from E2, and each P->next is written
 * by exactly one enqueuer at E3, so enqueue is wait-free: no loop, no
 * waiting for anybody.
 *
 * Between E2 and E3 the queue is "half linked": tail says N exists but
 * N is not reachable from the head yet.  A consumer that reaches P and
 * finds P->next == NULL while tail->p != P knows a link is in flight and
 * must wait for it (blocking variants) or give up with a WOULDBLOCK code
 * (non-blocking variants).  That wait is the only blocking in this file;
 * it lasts as long as one enqueuer needs to execute one store, unless
 * that enqueuer is preempted between E2 and E3.
 *
 * Dequeue (serialized with other dequeues by the caller):
 *   D1. N = head->node.next, waiting if the queue is non-empty but the
 *       first link is still in flight.
 *   D2. If N->next != NULL: head->node.next = N->next, done.
 *   D3. Else N looks last: set head->node.next = NULL, then try to swing
 *       tail->p from N back to &head->node with a compare-and-swap.
 *       Success: the queue is empty and N is ours.  Failure: an enqueuer
 *       claimed the position after N at E2 and is about to link N->next;
 *       wait for it, then do D2.
 *
 * Splice (moving a whole source queue to the end of a destination):
 *   S1. first = exchange(src head->node.next, NULL).  NULL means either
 *       empty (tail->p == &head->node) or first link in flight (wait).
 *       The exchange lets concurrent splices from one source each claim
 *       a disjoint list.
 *   S2. last = exchange(src tail->p, &src head->node): detaches the list
 *       first..last.  Enqueuers that passed E2 before S2 link inside the
 *       detached list; those after S2 see an empty source.
 *   S3. Append first..last to the destination with E2/E3 (E2 stores last
 *       in the destination tail, E3 links first).
 *
 * Invariants:
 *   I1. tail->p is the last node of the chain starting at head->node,
 *       counting links still in flight.  The one exception is the window
 *       between a splice's S1 and S2, where the head no longer leads to
 *       the list that tail->p ends; other threads see the same thing as
 *       a first link in flight, and treat it so (wait, WOULDBLOCK, or
 *       SRC_EMPTY once S2 is done).
 *   I2. While a real node is queued, its next pointer is written once:
 *       at E3, by the one enqueuer that obtained the node as P at E2.
 *       The dummy's next pointer is also rewritten by dequeue (D2, D3,
 *       serialized by the caller) and by splice's exchange (S1).
 *   I3. A node whose next is NULL and that is not designated by tail->p
 *       has exactly one enqueuer between E2 and E3 for it.
 *   I4. tail->p returns to &head->node only through D3's compare-and-swap
 *       or S2's exchange, both performed after head->node.next was set to
 *       NULL; so the first enqueuer after it links into a dummy whose next
 *       is NULL, never into a stale chain.
 *
 * Memory ordering
 * ---------------
 * Every shared field is accessed with __atomic builtins, so the code is
 * free of data races in the C11 sense and ThreadSanitizer-clean without
 * suppressions.  The hand-offs are:
 *   - E3 is a release store; every read of a next pointer that leads to
 *     a node's contents is an acquire load (D1, D2, S1, first, next).
 *     This is what makes "whatever was written before enqueue is visible
 *     after dequeue" true.
 *   - E2 is acquire-release: release publishes E1 (next = NULL) before a
 *     later enqueuer writes N->next at its E3; acquire orders our E3
 *     after the E1 of the previous enqueuer, and after the dequeuer's
 *     "head->node.next = NULL" that preceded a D3/S2 reset (I4).
 *   - D3's compare-and-swap and S2's exchange are release for the same
 *     I4 reason.
 *   - cds_wfcq_enqueue() additionally promises a full memory barrier
 *     before publication (see _cmm_smp_mb_around_rmw() in <urcu/uatomic.h>).
 */
#ifndef _URCU_STATIC_WFCQUEUE_H
#define _URCU_STATIC_WFCQUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/wfcqueue.h>
#include <urcu/static/link-wait.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pthread mutex calls cannot fail on a correctly used queue. */
static inline void ___cds_wfcq_check_pthread(int err)
{
	if (caa_unlikely(err != 0))
		abort();
}

/* Build the head union from a locked head, in C and in C++. */
static inline cds_wfcq_head_ptr_t
___cds_wfcq_locked_head(struct cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;

	ret.h = head;
	return ret;
}

static inline void _cds_wfcq_node_init(struct cds_wfcq_node *node)
{
	/* The node is not shared yet; relaxed is enough. */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
}

static inline void ___cds_wfcq_init(struct __cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	/*
	 * Initialization is not concurrent with any use: whatever later
	 * hands the queue to other threads (thread creation, a mutex, a
	 * release store) orders these stores.
	 */
	__atomic_store_n(&head->node.next, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&tail->p, &head->node, __ATOMIC_RELAXED);
}

static inline void _cds_wfcq_init(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	___cds_wfcq_init((struct __cds_wfcq_head *) head, tail);
	___cds_wfcq_check_pthread(pthread_mutex_init(&head->lock, NULL));
}

static inline void _cds_wfcq_destroy(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	(void) tail;
	___cds_wfcq_check_pthread(pthread_mutex_destroy(&head->lock));
}

static inline bool _cds_wfcq_empty(cds_wfcq_head_ptr_t u_head,
		struct cds_wfcq_tail *tail)
{
	struct __cds_wfcq_head *head = u_head._h;

	/*
	 * Relaxed loads: the contract is "no memory barrier".  Callers
	 * that go on to read a node get their ordering from the acquire
	 * loads of the dequeue/iteration functions.  A NULL first link
	 * with tail->p elsewhere is a half-linked, non-empty queue.
	 */
	return __atomic_load_n(&head->node.next, __ATOMIC_RELAXED) == NULL &&
		__atomic_load_n(&tail->p, __ATOMIC_RELAXED) == &head->node;
}

static inline void _cds_wfcq_dequeue_lock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	(void) tail;
	___cds_wfcq_check_pthread(pthread_mutex_lock(&head->lock));
}

static inline void _cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	(void) tail;
	___cds_wfcq_check_pthread(pthread_mutex_unlock(&head->lock));
}

/*
 * Append the chain new_head..new_tail (new_tail->next already NULL) at
 * the end of the queue: steps E2 and E3.  Returns true if the queue was
 * non-empty before.
 */
static inline bool ___cds_wfcq_append(cds_wfcq_head_ptr_t u_head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *new_head,
		struct cds_wfcq_node *new_tail)
{
	struct __cds_wfcq_head *head = u_head._h;
	struct cds_wfcq_node *old_tail;

	/*
	 * The documented full barrier before publication: a fence, or on
	 * x86 a compiler barrier, the locked read-modify-write below being
	 * acquire-release (<urcu/uatomic.h>).  The algorithm does not need it.
	 */
	_cmm_smp_mb_around_rmw();
	/*
	 * E2.  Release: publishes new_tail->next == NULL (and the chain)
	 * to the next enqueuer, whose E3 writes new_tail->next, and to a
	 * dequeuer comparing tail->p.  Acquire: pairs with the release of
	 * the previous E2 (or of the D3 compare-and-swap / S2 exchange that
	 * reset the tail), so our E3 below is ordered after that thread's
	 * store of NULL into old_tail->next (I4).
	 */
	old_tail = __atomic_exchange_n(&tail->p, new_tail, __ATOMIC_ACQ_REL);
	/*
	 * E3.  Release: pairs with the acquire loads of next pointers in
	 * ___cds_wfcq_node_sync_next(), ___cds_wfcq_next(), dequeue and
	 * splice, making the new nodes' contents visible to them.
	 */
	__atomic_store_n(&old_tail->next, new_head, __ATOMIC_RELEASE);
	return old_tail != &head->node;
}

static inline bool _cds_wfcq_enqueue(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *new_tail)
{
	/*
	 * E1.  The node is still private: relaxed; E2's release publishes
	 * it.  Doing it here makes re-enqueueing a dequeued node safe even
	 * without cds_wfcq_node_init().
	 */
	__atomic_store_n(&new_tail->next, NULL, __ATOMIC_RELAXED);
	return ___cds_wfcq_append(head, tail, new_tail, new_tail);
}

/*
 * Slow path of ___cds_wfcq_node_sync_next(): an enqueuer has claimed the
 * slot after @node (E2) but not linked it yet (E3); wait for the link.
 */
static inline struct cds_wfcq_node *
___cds_wfcq_node_wait_next(struct cds_wfcq_node *node)
{
	struct cds_wfcq_node *next;
	unsigned int spins = 0;

	/* Acquire: as in ___cds_wfcq_node_sync_next(). */
	while ((next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)) == NULL)
		___cds_link_wait(&spins);
	return next;
}

/*
 * Wait until node->next is linked and return it, or return
 * CDS_WFCQ_WOULDBLOCK instead of waiting when blocking is 0.  Only
 * called when a successor is known to exist (I3).  The link is almost
 * always there already: one load and a test, the wait kept apart.
 */
static inline struct cds_wfcq_node *
___cds_wfcq_node_sync_next(struct cds_wfcq_node *node, int blocking)
{
	/*
	 * Acquire: pairs with the release store at E3 in
	 * ___cds_wfcq_append(), so the successor's contents are visible.
	 */
	struct cds_wfcq_node *next = __atomic_load_n(&node->next,
						     __ATOMIC_ACQUIRE);

	if (caa_likely(next != NULL))
		return next;
	if (!blocking)
		return CDS_WFCQ_WOULDBLOCK;
	return ___cds_wfcq_node_wait_next(node);
}

static inline struct cds_wfcq_node *
___cds_wfcq_first(cds_wfcq_head_ptr_t u_head, struct cds_wfcq_tail *tail,
		int blocking)
{
	struct __cds_wfcq_head *head = u_head._h;

	if (_cds_wfcq_empty(u_head, tail))
		return NULL;
	/* Non-empty: the first link exists or is in flight (I1, I3). */
	return ___cds_wfcq_node_sync_next(&head->node, blocking);
}

static inline struct cds_wfcq_node *
___cds_wfcq_first_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return ___cds_wfcq_first(head, tail, 1);
}

static inline struct cds_wfcq_node *
___cds_wfcq_first_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return ___cds_wfcq_first(head, tail, 0);
}

static inline struct cds_wfcq_node *
___cds_wfcq_next(cds_wfcq_head_ptr_t head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node, int blocking)
{
	struct cds_wfcq_node *next;

	(void) head;
	/* Acquire: pairs with E3's release, as in sync_next. */
	next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
	if (next != NULL)
		return next;
	/*
	 * Relaxed: if tail->p still designates node, node was last when we
	 * looked and the walk ends here (a later enqueue is simply not
	 * part of this walk).  Otherwise an enqueuer is between E2 and E3
	 * for node (I3); wait for its link, read with acquire.
	 */
	if (__atomic_load_n(&tail->p, __ATOMIC_RELAXED) == node)
		return NULL;
	return ___cds_wfcq_node_sync_next(node, blocking);
}

static inline struct cds_wfcq_node *
___cds_wfcq_next_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return ___cds_wfcq_next(head, tail, node, 1);
}

static inline struct cds_wfcq_node *
___cds_wfcq_next_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, struct cds_wfcq_node *node)
{
	return ___cds_wfcq_next(head, tail, node, 0);
}

static inline struct cds_wfcq_node *
___cds_wfcq_dequeue_with_state(cds_wfcq_head_ptr_t u_head,
		struct cds_wfcq_tail *tail, int *state, int blocking)
{
	struct __cds_wfcq_head *head = u_head._h;
	struct cds_wfcq_node *node, *next, *expected;

	if (state != NULL)
		*state = 0;
	/*
	 * D1: first node.  Acquire: pairs with E3 (splices append through
	 * E3 too, at S3), so its contents become visible.
	 * The same load answers _cds_wfcq_empty()'s first question.
	 */
	node = __atomic_load_n(&head->node.next, __ATOMIC_ACQUIRE);
	if (node == NULL) {
		/* Relaxed, as in _cds_wfcq_empty(): nothing is read from it. */
		if (__atomic_load_n(&tail->p, __ATOMIC_RELAXED) == &head->node)
			return NULL;
		/* Non-empty: the first link is in flight (I1, I3). */
		node = ___cds_wfcq_node_sync_next(&head->node, blocking);
		/* Testing blocking first drops the test from blocking calls. */
		if (!blocking && node == CDS_WFCQ_WOULDBLOCK)
			return CDS_WFCQ_WOULDBLOCK;
	}

	/* Acquire: pairs with E3; the successor's contents are handed on. */
	next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
	if (next == NULL) {
		/*
		 * D3.  Unhook node from the head first.  Relaxed: nothing
		 * else writes head->node.next until tail->p goes back to
		 * the dummy (I4), and the release compare-and-swap below
		 * orders this store before the first enqueuer that then
		 * links into the dummy.
		 */
		__atomic_store_n(&head->node.next, NULL, __ATOMIC_RELAXED);
		expected = node;
		/*
		 * Release on success: see above (pairs with E2's acquire).
		 * Relaxed on failure: we only learn that an enqueuer
		 * claimed the slot after node; its link is then read with
		 * acquire in sync_next.
		 */
		if (__atomic_compare_exchange_n(&tail->p, &expected,
				&head->node, false,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
			if (state != NULL)
				*state |= CDS_WFCQ_STATE_LAST;
			return node;
		}
		next = ___cds_wfcq_node_sync_next(node, blocking);
		if (!blocking && next == CDS_WFCQ_WOULDBLOCK) {
			/*
			 * Undo the unhooking: the queue is unchanged.  No
			 * enqueuer can have written head->node.next since,
			 * because tail->p never returned to the dummy.
			 * Relaxed for the same reason as the store above.
			 */
			__atomic_store_n(&head->node.next, node,
					__ATOMIC_RELAXED);
			return CDS_WFCQ_WOULDBLOCK;
		}
	}
	/*
	 * D2.  Relaxed: head->node.next is only read by serialized dequeue,
	 * splice and iteration (which are ordered after us by the caller's
	 * serialization, and we acquired next's contents above) and by
	 * cds_wfcq_empty(), which promises no ordering.
	 */
	__atomic_store_n(&head->node.next, next, __ATOMIC_RELAXED);
	return node;
}

static inline struct cds_wfcq_node *
___cds_wfcq_dequeue_with_state_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, int *state)
{
	return ___cds_wfcq_dequeue_with_state(head, tail, state, 1);
}

static inline struct cds_wfcq_node *
___cds_wfcq_dequeue_blocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return ___cds_wfcq_dequeue_with_state(head, tail, NULL, 1);
}

static inline struct cds_wfcq_node *
___cds_wfcq_dequeue_with_state_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail, int *state)
{
	return ___cds_wfcq_dequeue_with_state(head, tail, state, 0);
}

static inline struct cds_wfcq_node *
___cds_wfcq_dequeue_nonblocking(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail)
{
	return ___cds_wfcq_dequeue_with_state(head, tail, NULL, 0);
}

static inline enum cds_wfcq_ret
___cds_wfcq_splice(cds_wfcq_head_ptr_t u_dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t u_src_q_head,
		struct cds_wfcq_tail *src_q_tail,
		int blocking)
{
	struct __cds_wfcq_head *src_q_head = u_src_q_head._h;
	struct cds_wfcq_node *first, *last;
	unsigned int spins = 0;

	/* Cheap read-only test first, so an empty source costs no RMW. */
	if (_cds_wfcq_empty(u_src_q_head, src_q_tail))
		return CDS_WFCQ_RET_SRC_EMPTY;

	for (;;) {
		/*
		 * S1.  Acquire: pairs with E3's release when the first
		 * node was linked into the dummy, making its contents
		 * visible (they are handed on to the destination by our
		 * own E3 below).  The exchange, rather than a load and a
		 * store, lets each concurrent splice claim a distinct list.
		 */
		first = __atomic_exchange_n(&src_q_head->node.next, NULL,
				__ATOMIC_ACQUIRE);
		if (first != NULL)
			break;
		/*
		 * Relaxed: a tail at the dummy means empty (possibly
		 * drained by a concurrent splice).  Otherwise the first
		 * link is in flight: nothing was changed, so we may give
		 * up or wait and retry.
		 */
		if (__atomic_load_n(&src_q_tail->p, __ATOMIC_RELAXED) ==
				&src_q_head->node)
			return CDS_WFCQ_RET_SRC_EMPTY;
		if (!blocking)
			return CDS_WFCQ_RET_WOULDBLOCK;
		___cds_link_wait(&spins);
	}

	/*
	 * S2.  Acquire: pairs with the release of the E2 that stored "last",
	 * so last->next == NULL (its E1) is visible before we append it.
	 * Release: orders S1's clearing of the dummy link before the first
	 * enqueuer that links into the now-empty source (I4).
	 */
	last = __atomic_exchange_n(&src_q_tail->p, &src_q_head->node,
			__ATOMIC_ACQ_REL);

	/* S3: E2/E3 on the destination. */
	if (___cds_wfcq_append(u_dest_q_head, dest_q_tail, first, last))
		return CDS_WFCQ_RET_DEST_NON_EMPTY;
	return CDS_WFCQ_RET_DEST_EMPTY;
}

static inline enum cds_wfcq_ret
___cds_wfcq_splice_blocking(cds_wfcq_head_ptr_t dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head,
		struct cds_wfcq_tail *src_q_tail)
{
	return ___cds_wfcq_splice(dest_q_head, dest_q_tail,
			src_q_head, src_q_tail, 1);
}

static inline enum cds_wfcq_ret
___cds_wfcq_splice_nonblocking(cds_wfcq_head_ptr_t dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head,
		struct cds_wfcq_tail *src_q_tail)
{
	return ___cds_wfcq_splice(dest_q_head, dest_q_tail,
			src_q_head, src_q_tail, 0);
}

/* Self-locking variants: take the queue mutex around the "__" call. */

static inline struct cds_wfcq_node *
_cds_wfcq_dequeue_with_state_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail, int *state)
{
	struct cds_wfcq_node *node;

	_cds_wfcq_dequeue_lock(head, tail);
	node = ___cds_wfcq_dequeue_with_state_blocking(
			___cds_wfcq_locked_head(head), tail, state);
	_cds_wfcq_dequeue_unlock(head, tail);
	return node;
}

static inline struct cds_wfcq_node *
_cds_wfcq_dequeue_blocking(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	return _cds_wfcq_dequeue_with_state_blocking(head, tail, NULL);
}

/*
 * Only the source is locked: appending to the destination is an enqueue
 * and needs no exclusion.
 */
static inline enum cds_wfcq_ret
_cds_wfcq_splice_blocking(struct cds_wfcq_head *dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		struct cds_wfcq_head *src_q_head,
		struct cds_wfcq_tail *src_q_tail)
{
	enum cds_wfcq_ret ret;

	_cds_wfcq_dequeue_lock(src_q_head, src_q_tail);
	ret = ___cds_wfcq_splice_blocking(___cds_wfcq_locked_head(dest_q_head),
			dest_q_tail, ___cds_wfcq_locked_head(src_q_head),
			src_q_tail);
	_cds_wfcq_dequeue_unlock(src_q_head, src_q_tail);
	return ret;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_WFCQUEUE_H */
