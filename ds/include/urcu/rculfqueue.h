/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rculfqueue.h - lock-free FIFO queue protected by RCU.
 *
 * A Michael-Scott style linked queue.  Nodes are embedded in the caller's
 * objects (struct cds_lfq_node_rcu) and recovered with caa_container_of().
 * The queue keeps one extra "dummy" node of its own so that it is never
 * physically empty.  The first dummy lives inside struct cds_lfq_queue_rcu,
 * so cds_lfq_init_rcu() allocates nothing and cannot fail.  Later dummies
 * are allocated with malloc() by the dequeue that takes the last node;
 * dummies that leave the queue are handed to the queue's call_rcu function
 * and freed after a grace period.
 *
 * Out of memory: when the dequeue that would take the last queued node
 * cannot allocate the dummy that has to replace it, cds_lfq_dequeue_rcu()
 * returns NULL with errno set to ENOMEM and the queue unchanged: the node
 * stays queued, first in line, and a later dequeue returns it (at once if
 * another node has been enqueued behind it meanwhile, since only the last
 * node needs a dummy).  Nothing is lost and the program never aborts.
 * NULL therefore means "empty" only when errno was not set to ENOMEM; set
 * errno to 0 before the call to tell the two apart.  That is the only
 * case in which dequeue changes errno.
 *
 * Rules for the caller:
 *   - cds_lfq_enqueue_rcu() and cds_lfq_dequeue_rcu() must be called
 *     inside an RCU read-side critical section of the flavor whose
 *     call_rcu was given to cds_lfq_init_rcu() (for QSBR: from an online
 *     registered thread).  Any number of threads may enqueue and dequeue
 *     concurrently.
 *   - A node returned by cds_lfq_dequeue_rcu() may still be read by
 *     concurrent queue operations: free it, or enqueue it again (after
 *     cds_lfq_node_init_rcu()), only after a grace period, e.g. through
 *     call_rcu().
 *   - cds_lfq_destroy_rcu() must not run concurrently with any other
 *     operation on the queue.  It frees the current dummy; dummies still
 *     waiting for their grace period are freed by the call_rcu worker.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one (see <urcu/static/rculfqueue.h>); otherwise the
 * calls go to the out-of-line copies in liburcu-cds.
 */
#ifndef _URCU_RCULFQUEUE_H
#define _URCU_RCULFQUEUE_H

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rcu_head;

/*
 * Queue link, to embed in the queued object.  "next" is accessed with
 * atomic operations; "dummy" tells the queue's own nodes apart and is
 * fixed before the node is enqueued.
 */
struct cds_lfq_node_rcu {
	struct cds_lfq_node_rcu *next;
	int dummy;
};

/*
 * The queue.  "head" is the oldest node, "tail" the newest or, while an
 * enqueue is completing, the one before it.  "queue_call_rcu" is the
 * flavor's call_rcu, used to free dummy nodes after a grace period.
 * "first_dummy" is private: the dummy cds_lfq_init_rcu() queues, so that
 * initialization needs no memory.  It is used once per initialization and
 * never freed (it is not in liburcu's structure; code that only uses the
 * functions below does not see the difference).  Since the list may point
 * into the structure, an initialized queue must not be copied or moved.
 */
struct cds_lfq_queue_rcu {
	struct cds_lfq_node_rcu *head, *tail;
	void (*queue_call_rcu)(struct rcu_head *head,
		void (*func)(struct rcu_head *head));
	struct cds_lfq_node_rcu first_dummy;
};

#ifdef __cplusplus
}
#endif

#ifdef _LGPL_SOURCE

/* Outside extern "C": it includes headers with C++ overloads. */
#include <urcu/static/rculfqueue.h>

#define cds_lfq_node_init_rcu		_cds_lfq_node_init_rcu
#define cds_lfq_init_rcu		_cds_lfq_init_rcu
#define cds_lfq_destroy_rcu		_cds_lfq_destroy_rcu
#define cds_lfq_enqueue_rcu		_cds_lfq_enqueue_rcu
#define cds_lfq_dequeue_rcu		_cds_lfq_dequeue_rcu

#else /* !_LGPL_SOURCE */

#ifdef __cplusplus
extern "C" {
#endif

/* Prepares @node to be enqueued. */
extern void cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node);

/*
 * Initializes @q empty; @queue_call_rcu is the call_rcu of the flavor
 * that protects the queue.  Allocates nothing, so it cannot fail.
 */
extern void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)));

/* Returns 0 after releasing an empty @q; -EPERM (and no change) if not empty. */
extern int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q);

/* Appends @node.  Caller holds the RCU read lock. */
extern void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node);

/*
 * Removes and returns the oldest node, or NULL when @q is empty.  Caller
 * holds the RCU read lock, and releases the node only after a grace
 * period.  NULL can also mean that a dummy node could not be allocated:
 * errno is then ENOMEM and the queue is unchanged (see the top of this
 * file); in every other case errno is left unchanged.
 */
extern struct cds_lfq_node_rcu *cds_lfq_dequeue_rcu(
		struct cds_lfq_queue_rcu *q);

#ifdef __cplusplus
}
#endif

#endif /* !_LGPL_SOURCE */

#endif /* _URCU_RCULFQUEUE_H */
