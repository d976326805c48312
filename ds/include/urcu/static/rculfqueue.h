/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/rculfqueue.h - inline implementation of <urcu/rculfqueue.h>.
 *
 * Programs normally include <urcu/rculfqueue.h>.  With _LGPL_SOURCE
 * defined, that header includes this one and maps the public names onto
 * the functions below; without it, the library's out-of-line copies
 * (built from this file) are called instead.
 *
 * Design
 * ------
 * The queue is a singly linked list from q->head (oldest) to the last
 * node, whose next pointer is NULL.  A node's next pointer changes once,
 * from NULL to its successor, while the node is queued.  The list is
 * never empty: when no caller node is queued it holds a dummy node
 * (dummy == 1) that belongs to the queue.  The first one is
 * q->first_dummy, queued by init; the others are allocated by D2.
 * q->tail is the last node, or lags one behind it while an enqueue is
 * finishing; any thread that sees the lag moves q->tail forward
 * ("helping").
 *
 * Enqueue of node N:
 *   E1. t = q->tail
 *   E2. compare-and-swap t->next from NULL to N.  On failure the CAS
 *       returns t's successor s: help, compare-and-swap q->tail from t
 *       to s, and go to E1.
 *   E3. compare-and-swap q->tail from t to N (failure means a helper
 *       already did it).
 *
 * Dequeue returns the head node itself, so the head must first get a
 * successor:
 *   D1. h = q->head; n = h->next
 *   D2. if n is NULL: if h is a dummy the queue is empty, return NULL;
 *       otherwise allocate a dummy, enqueue it behind h and go to D1.
 *       If the allocation fails, return NULL with errno = ENOMEM.
 *   D3. if q->tail == h, help (compare-and-swap q->tail from h to n) and
 *       go to D1, so that q->head never passes q->tail.
 *   D4. compare-and-swap q->head from h to n; on failure go to D1.
 *   D5. if h is a dummy, hand it to call_rcu (q->first_dummy: leave it
 *       alone) and go to D1; else return h.
 *
 * Invariants:
 *   I1. q->tail is q->head or a node reachable from it (D3 keeps it so;
 *       tails only move along next pointers).
 *   I2. Once D4 removes h, neither q->head nor q->tail designates it any
 *       more (I1), so only operations whose read-side critical section
 *       began before D4 can still hold h.  Freeing or reusing h after a
 *       grace period is therefore safe, and, since h cannot come back
 *       before that, the CASes on q->head, q->tail and next pointers are
 *       free of ABA.  q->first_dummy is never queued again before the
 *       next init, which may only run once no operation is in progress.
 *   I3. The steps that change shared state before D2's allocation in a
 *       dequeue (helping at D3, removing a dummy at D4-D5) leave the
 *       sequence of caller nodes unchanged, so returning at D2 when the
 *       allocation fails loses or reorders nothing.
 *
 * Out of memory
 * -------------
 * Allocation can only be avoided, not made infallible: while a reader
 * stalls a grace period, every cycle of "dequeue the last node, enqueue
 * another, dequeue it" retires one dummy that can be neither freed nor
 * reused until that grace period ends, so no bounded pool of dummies is
 * enough.  liburcu's API gives dequeue's return value as the only way to
 * report the failure (init and enqueue return void), hence:
 *   - init queues q->first_dummy, and enqueue never needs a dummy, so
 *     neither allocates;
 *   - dequeue allocates only at D2, i.e. only to take the last node, and
 *     on failure returns NULL with errno = ENOMEM, leaving that node
 *     queued (I3).  It goes out as soon as a dummy can be allocated or
 *     another node is enqueued behind it.
 * Keeping retired dummies for reuse after their grace period would save a
 * malloc()/free() pair per cycle but could not remove the failure case
 * (same argument), and their call_rcu callbacks may run after
 * cds_lfq_destroy_rcu(), so they could not hand the dummy back to the
 * queue; dummies are therefore simply freed.
 *
 * Memory ordering
 * ---------------
 * Every shared pointer is accessed with __atomic builtins, so the code is
 * free of data races and ThreadSanitizer-clean without suppressions.
 * A node's contents (the caller's data and the "dummy" flag) are written
 * before it is enqueued and published by E2's release CAS.  A thread
 * reaches a node through an acquire load of a next pointer, or of q->head
 * or q->tail; those two are only changed by release CASes that install a
 * node the changing thread itself acquired (or created), so by
 * transitivity every node reached is seen initialized.
 */
#ifndef _URCU_STATIC_RCULFQUEUE_H
#define _URCU_STATIC_RCULFQUEUE_H

#include <errno.h>
#include <stdlib.h>
#include <urcu/compiler.h>
#include <urcu/call-rcu.h>
#include <urcu/rculfqueue.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Allocator of the dummy nodes D2 adds: malloc() unless a translation unit
 * defines URCU_LFQ_DUMMY_MALLOC(size) before it first includes this file.
 * The replacement must return memory that free() accepts, since any copy
 * of these functions (the library's, or another translation unit's) may
 * free the dummy.  It is a test hook, through which this project's tests
 * make allocations fail; it is not part of liburcu's API, and the
 * library's exported functions always use malloc().
 */
#ifndef URCU_LFQ_DUMMY_MALLOC
#define URCU_LFQ_DUMMY_MALLOC(size)	malloc(size)
#endif

/* A heap dummy node: the queue link plus the rcu_head that frees it. */
struct __cds_lfq_dummy_rcu {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
};

/*
 * A new dummy node with a NULL next pointer, or NULL with errno = ENOMEM.
 * errno is left unchanged on success.
 */
static inline struct cds_lfq_node_rcu *___cds_lfq_make_dummy(void)
{
	struct __cds_lfq_dummy_rcu *d;
	int saved_errno = errno;

	d = (struct __cds_lfq_dummy_rcu *)
		URCU_LFQ_DUMMY_MALLOC(sizeof(struct __cds_lfq_dummy_rcu));
	if (!d) {
		/* The hook, unlike malloc(), need not set it. */
		errno = ENOMEM;
		return NULL;
	}
	/* A successful malloc() may still have changed errno. */
	errno = saved_errno;
	/* Unpublished yet: E2's release CAS publishes it. */
	__atomic_store_n(&d->node.next, NULL, __ATOMIC_RELAXED);
	d->node.dummy = 1;
	return &d->node;
}

static inline struct __cds_lfq_dummy_rcu *
___cds_lfq_to_dummy(struct cds_lfq_node_rcu *node)
{
	return caa_container_of(node, struct __cds_lfq_dummy_rcu, node);
}

static inline void ___cds_lfq_free_dummy_cb(struct rcu_head *head)
{
	free(caa_container_of(head, struct __cds_lfq_dummy_rcu, rcu));
}

/*
 * D5 for a dummy: a heap one is freed after a grace period, q->first_dummy
 * is left alone.  errno is preserved, so that only D2 reports ENOMEM
 * (call_rcu may allocate, and fall back, on its first use).
 */
static inline void ___cds_lfq_retire_dummy(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *dummy)
{
	int saved_errno;

	if (dummy == &q->first_dummy)
		return;
	saved_errno = errno;
	q->queue_call_rcu(&___cds_lfq_to_dummy(dummy)->rcu,
			  ___cds_lfq_free_dummy_cb);
	errno = saved_errno;
}

static inline void _cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node)
{
	/*
	 * Relaxed: the node is not queued; the enqueue's release CAS (E2)
	 * publishes this store.  Atomic because a node reused after a grace
	 * period was last read by atomic loads.
	 */
	__atomic_store_n(&node->next, NULL, __ATOMIC_RELAXED);
	node->dummy = 0;
}

static inline void _cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)))
{
	struct cds_lfq_node_rcu *dummy = &q->first_dummy;

	/*
	 * Relaxed, like the stores below: the queue is not shared yet;
	 * whatever hands it to other threads (e.g. pthread_create) orders
	 * these stores before their use.
	 */
	__atomic_store_n(&dummy->next, NULL, __ATOMIC_RELAXED);
	dummy->dummy = 1;
	__atomic_store_n(&q->head, dummy, __ATOMIC_RELAXED);
	__atomic_store_n(&q->tail, dummy, __ATOMIC_RELAXED);
	q->queue_call_rcu = queue_call_rcu;
}

static inline int _cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	/* Relaxed: the caller guarantees no concurrent operation. */
	struct cds_lfq_node_rcu *head =
		__atomic_load_n(&q->head, __ATOMIC_RELAXED);

	/* Relaxed: as above. */
	if (!head->dummy || __atomic_load_n(&head->next, __ATOMIC_RELAXED))
		return -EPERM;
	if (head != &q->first_dummy)
		free(___cds_lfq_to_dummy(head));
	return 0;
}

static inline void _cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node)
{
	struct cds_lfq_node_rcu *tail, *next;

	for (;;) {
		/* E1.  Acquire: pairs with the release CASes on q->tail (E3, helping). */
		tail = __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE);
		next = NULL;
		/*
		 * E2.  Release on success: publishes @node's contents to the
		 * acquire loads of tail->next (D1, and E2's failure path).
		 * Acquire on failure: pairs with the successful E2 that
		 * installed "next", before we install it in q->tail.
		 */
		if (__atomic_compare_exchange_n(&tail->next, &next, node, 0,
				__ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
			break;
		/*
		 * Help a lagging tail.  Release: passes on what we acquired of
		 * "next" to the acquire loads of q->tail (E1, D3); relaxed
		 * on failure, whose value is unused.
		 */
		__atomic_compare_exchange_n(&q->tail, &tail, next, 0,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
	/*
	 * E3.  Release: publishes @node to the acquire loads of q->tail (E1,
	 * D3).  Relaxed on failure: a helper already moved the tail on.
	 */
	__atomic_compare_exchange_n(&q->tail, &tail, node, 0,
			__ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static inline struct cds_lfq_node_rcu *
_cds_lfq_dequeue_rcu(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *head, *next, *tail, *dummy;

	for (;;) {
		/* D1.  Acquire: pairs with the release CAS on q->head (D4). */
		head = __atomic_load_n(&q->head, __ATOMIC_ACQUIRE);
		/* Acquire: pairs with the release CAS that set it (E2). */
		next = __atomic_load_n(&head->next, __ATOMIC_ACQUIRE);
		if (!next) {
			/* D2. */
			if (head->dummy)
				return NULL;
			dummy = ___cds_lfq_make_dummy();
			if (!dummy)
				return NULL;	/* errno = ENOMEM; see I3. */
			_cds_lfq_enqueue_rcu(q, dummy);
			continue;
		}
		/* D3.  Acquire: pairs with the release CASes on q->tail (E2's helping, E3). */
		tail = __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE);
		if (tail == head) {
			/*
			 * Release: passes on what we acquired of "next" to
			 * the acquire loads of q->tail (E1, D3); relaxed on
			 * failure, whose value is unused.
			 */
			__atomic_compare_exchange_n(&q->tail, &tail, next, 0,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED);
			continue;
		}
		/*
		 * D4.  Release: passes on what we acquired of "next" to the
		 * acquire loads of q->head (D1).  Relaxed on failure: we
		 * start over from D1.
		 */
		if (!__atomic_compare_exchange_n(&q->head, &head, next, 0,
				__ATOMIC_RELEASE, __ATOMIC_RELAXED))
			continue;
		/* D5. */
		if (head->dummy) {
			___cds_lfq_retire_dummy(q, head);
			continue;
		}
		return head;
	}
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_RCULFQUEUE_H */
