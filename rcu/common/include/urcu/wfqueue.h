/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/wfqueue.h - the original wait-free-enqueue queue (deprecated).
 *
 * Kept so that programs written against it still build and run; new code
 * should use <urcu/wfcqueue.h>, which separates head and tail (no false
 * sharing between enqueuers and the dequeuer), can splice and iterate,
 * and has non-blocking dequeues.  Every function here is marked
 * deprecated, as in liburcu: calling one warns at compile time.  Define
 * CDS_WFQ_DEPRECATED (empty) before including this header to silence it.
 *
 * Enqueue is wait-free and needs no synchronization with any other
 * operation.  Dequeues must be serialized: cds_wfq_dequeue_blocking()
 * takes the queue's mutex; __cds_wfq_dequeue_blocking() leaves that to
 * the caller.  "Blocking" means a dequeue may wait for an enqueuer that
 * has claimed its place but not yet linked its node (see
 * <urcu/static/wfqueue.h>).  A dequeued node belongs to the caller at
 * once: it may be freed or enqueued again without a grace period.
 *
 * Nodes are embedded in the caller's objects (struct cds_wfq_node) and
 * recovered with caa_container_of(); the queue never allocates.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one; otherwise the calls go to liburcu-common.
 */
#ifndef _URCU_WFQUEUE_H
#define _URCU_WFQUEUE_H

#include <pthread.h>

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_WFQ_DEPRECATED
#define CDS_WFQ_DEPRECATED \
	CDS_DEPRECATED("<urcu/wfqueue.h> is deprecated: use <urcu/wfcqueue.h>")
#endif

/* Queue link, to embed in the enqueued object. */
struct cds_wfq_node {
	struct cds_wfq_node *next;
};

/*
 * The queue.  head is the first node (the dummy when the queue is empty
 * or has been through a dequeue of the dummy); tail designates the link
 * the next enqueue fills: the next field of the last node.
 */
struct cds_wfq_queue {
	struct cds_wfq_node *head, **tail;
	struct cds_wfq_node dummy;
	pthread_mutex_t lock;
};

#ifdef _LGPL_SOURCE

#include <urcu/static/wfqueue.h>

static inline CDS_WFQ_DEPRECATED
void cds_wfq_node_init(struct cds_wfq_node *node)
{
	_cds_wfq_node_init(node);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_init(struct cds_wfq_queue *q)
{
	_cds_wfq_init(q);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	_cds_wfq_destroy(q);
}

static inline CDS_WFQ_DEPRECATED
void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node)
{
	_cds_wfq_enqueue(q, node);
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return ___cds_wfq_dequeue_blocking(q);
}

static inline CDS_WFQ_DEPRECATED
struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q)
{
	return _cds_wfq_dequeue_blocking(q);
}

#else /* !_LGPL_SOURCE */

/* cds_wfq_node_init: prepare a node (optional: enqueue does it too). */
extern CDS_WFQ_DEPRECATED
void cds_wfq_node_init(struct cds_wfq_node *node);

/*
 * cds_wfq_init: make an empty queue and initialize its mutex.  Undo with
 * cds_wfq_destroy().  The queue must not be in use.
 */
extern CDS_WFQ_DEPRECATED
void cds_wfq_init(struct cds_wfq_queue *q);

/*
 * cds_wfq_destroy: release the mutex.  Nodes still queued are not
 * touched.  The queue must not be in use.
 */
extern CDS_WFQ_DEPRECATED
void cds_wfq_destroy(struct cds_wfq_queue *q);

/*
 * cds_wfq_enqueue: append a node.  Wait-free; any thread, any time.  A
 * full memory barrier precedes the node's publication: what the caller
 * wrote before the call is visible to the thread that dequeues it.
 */
extern CDS_WFQ_DEPRECATED
void cds_wfq_enqueue(struct cds_wfq_queue *q, struct cds_wfq_node *node);

/*
 * __cds_wfq_dequeue_blocking: remove and return the first node, or NULL
 * if the queue is empty.  The caller serializes it with every other
 * dequeue (one consumer thread, or its own lock).
 */
extern CDS_WFQ_DEPRECATED
struct cds_wfq_node *__cds_wfq_dequeue_blocking(struct cds_wfq_queue *q);

/* cds_wfq_dequeue_blocking: the same, holding the queue's mutex. */
extern CDS_WFQ_DEPRECATED
struct cds_wfq_node *cds_wfq_dequeue_blocking(struct cds_wfq_queue *q);

#endif /* !_LGPL_SOURCE */

#ifdef __cplusplus
}
#endif

#endif /* _URCU_WFQUEUE_H */
