/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/wfcqueue.h - concurrent FIFO queue: wait-free enqueue, blocking
 * (or non-blocking, "try") dequeue.
 *
 * The queue is split in two objects that the caller places wherever it
 * likes: a head (struct cds_wfcq_head, or struct __cds_wfcq_head when no
 * built-in mutex is wanted) and a tail (struct cds_wfcq_tail).  Enqueuers
 * only ever touch the tail and the previous last node; dequeuers mostly
 * touch the head.  Putting the two on different cache lines therefore
 * keeps producers and consumers from bouncing one line between them.
 *
 * Nodes are embedded in the caller's objects (struct cds_wfcq_node) and
 * recovered with caa_container_of().  The queue never allocates.
 *
 * Which operations may run concurrently on one queue (X = the caller
 * must serialize the pair, - = no synchronization needed):
 *
 *                        enq  splice(dst)  deq  splice(src)  first  next
 *   enqueue               -       -         -       -          -     -
 *   splice, as dest       -       -         -       -          -     -
 *   dequeue               -       -         X       X          X     X
 *   splice, as source     -       -         X       -          X     X
 *   first                 -       -         X       X          -     -
 *   next                  -       -         X       X          -     -
 *
 * Two splices may drain the same source concurrently: each claims the
 * list with an atomic exchange on the source head, so a node moves
 * exactly once.
 *
 * The serialization can come from cds_wfcq_dequeue_lock()/unlock(), from
 * the cds_wfcq_*_blocking() calls that take that lock themselves, or from
 * doing all dequeues, splices-from and iterations in one thread.
 *
 * Functions whose names start with "__" expect the caller to provide that
 * serialization; they accept either head type.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one (see <urcu/static/wfcqueue.h>); otherwise the calls
 * go to the out-of-line copies in liburcu-common.
 */
#ifndef _URCU_WFCQUEUE_H
#define _URCU_WFCQUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/compiler.h>
#include <urcu/arch.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returned by the *_nonblocking node getters when they would have to wait. */
#define CDS_WFCQ_WOULDBLOCK	((struct cds_wfcq_node *) -1UL)

/* Result of the splice operations. */
enum cds_wfcq_ret {
	CDS_WFCQ_RET_WOULDBLOCK =	-1,	/* Non-blocking splice must wait. */
	CDS_WFCQ_RET_DEST_EMPTY =	0,	/* Moved nodes; dest was empty. */
	CDS_WFCQ_RET_DEST_NON_EMPTY =	1,	/* Moved nodes; dest had nodes. */
	CDS_WFCQ_RET_SRC_EMPTY =	2,	/* Nothing to move. */
};

/* Bits stored through the "state" argument of the *_with_state calls. */
enum cds_wfcq_state {
	CDS_WFCQ_STATE_LAST =		(1U << 0),	/* Took the last node. */
};

/*
 * Queue link, to embed in the queued object.  Only the queue code may
 * read or write "next" while the node is queued; it is accessed with
 * atomic operations.
 */
struct cds_wfcq_node {
	struct cds_wfcq_node *next;
};

/*
 * Queue head without a lock.  "node" is a dummy link whose next pointer
 * designates the first queued node.
 */
struct __cds_wfcq_head {
	struct cds_wfcq_node node;
};

/*
 * Queue head with the mutex used by cds_wfcq_dequeue_lock() and the
 * self-locking cds_wfcq_*_blocking() calls.  The dummy link comes first,
 * so a pointer to this structure may be used as a pointer to the
 * lock-less variant.
 */
struct cds_wfcq_head {
	struct cds_wfcq_node node;
	pthread_mutex_t lock;
};

#ifndef __cplusplus
/*
 * Either head type.  In C the transparent union lets the "__" functions
 * accept a pointer to either structure directly.
 */
typedef union {
	struct __cds_wfcq_head *_h;
	struct cds_wfcq_head *h;
} __attribute__((__transparent_union__)) cds_wfcq_head_ptr_t;

/*
 * Identity functions in C.  They exist so that code which must also
 * compile as C++ can convert a head pointer explicitly.
 */
static inline struct __cds_wfcq_head *
__cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	return head;
}

static inline struct cds_wfcq_head *
cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	return head;
}
#else /* __cplusplus */
/*
 * C++ has no transparent unions.  The functions taking a
 * cds_wfcq_head_ptr_t accept the union built by the two cast functions
 * below; in addition, overloads at the end of this header accept either
 * head pointer directly, as in C.
 */
typedef union {
	struct __cds_wfcq_head *_h;
	struct cds_wfcq_head *h;
} cds_wfcq_head_ptr_t;

static inline cds_wfcq_head_ptr_t
__cds_wfcq_head_cast(struct __cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;

	ret._h = head;
	return ret;
}

static inline cds_wfcq_head_ptr_t
cds_wfcq_head_cast(struct cds_wfcq_head *head)
{
	cds_wfcq_head_ptr_t ret;

	ret.h = head;
	return ret;
}
#endif /* __cplusplus */

/*
 * Queue tail: designates the last node, or the head's dummy node when
 * the queue is empty.
 */
struct cds_wfcq_tail {
	struct cds_wfcq_node *p;
};

#ifdef _LGPL_SOURCE

#include <urcu/static/wfcqueue.h>

#define cds_wfcq_node_init		_cds_wfcq_node_init
#define cds_wfcq_init			_cds_wfcq_init
#define __cds_wfcq_init			___cds_wfcq_init
#define cds_wfcq_destroy		_cds_wfcq_destroy
#define cds_wfcq_empty			_cds_wfcq_empty
#define cds_wfcq_enqueue		_cds_wfcq_enqueue

/* The dequeue-side mutex. */
#define cds_wfcq_dequeue_lock		_cds_wfcq_dequeue_lock
#define cds_wfcq_dequeue_unlock		_cds_wfcq_dequeue_unlock

/* Calls that take the dequeue-side mutex themselves. */
#define cds_wfcq_dequeue_blocking	_cds_wfcq_dequeue_blocking
#define cds_wfcq_dequeue_with_state_blocking	\
					_cds_wfcq_dequeue_with_state_blocking
#define cds_wfcq_splice_blocking	_cds_wfcq_splice_blocking

/* Calls for which the caller provides the serialization. */
#define __cds_wfcq_dequeue_blocking	___cds_wfcq_dequeue_blocking
#define __cds_wfcq_dequeue_with_state_blocking	\
					___cds_wfcq_dequeue_with_state_blocking
#define __cds_wfcq_splice_blocking	___cds_wfcq_splice_blocking
#define __cds_wfcq_first_blocking	___cds_wfcq_first_blocking
#define __cds_wfcq_next_blocking	___cds_wfcq_next_blocking

/*
 * Same, never waiting: the node getters return CDS_WFCQ_WOULDBLOCK and
 * splice returns CDS_WFCQ_RET_WOULDBLOCK instead of waiting.
 */
#define __cds_wfcq_dequeue_nonblocking	___cds_wfcq_dequeue_nonblocking
#define __cds_wfcq_dequeue_with_state_nonblocking	\
				___cds_wfcq_dequeue_with_state_nonblocking
#define __cds_wfcq_splice_nonblocking	___cds_wfcq_splice_nonblocking
#define __cds_wfcq_first_nonblocking	___cds_wfcq_first_nonblocking
#define __cds_wfcq_next_nonblocking	___cds_wfcq_next_nonblocking

#else /* !_LGPL_SOURCE */

/*
 * cds_wfcq_node_init: prepare a node for enqueueing (sets next to NULL).
 * cds_wfcq_enqueue() also does this, so re-enqueueing a dequeued node
 * without calling it again is fine.
 */
extern void cds_wfcq_node_init(struct cds_wfcq_node *node);

/*
 * cds_wfcq_init: make an empty queue and initialize its mutex.  Undo with
 * cds_wfcq_destroy().  Not thread-safe: the queue must not be in use.
 */
extern void cds_wfcq_init(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);

/*
 * cds_wfcq_destroy: release the mutex created by cds_wfcq_init().  Nodes
 * still queued are not touched; the queue must not be in use.
 */
extern void cds_wfcq_destroy(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);

/*
 * __cds_wfcq_init: make an empty lock-less queue.  There is nothing to
 * destroy afterwards.
 */
extern void __cds_wfcq_init(struct __cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);

/*
 * cds_wfcq_empty: whether the queue currently has no node.  May be called
 * from any thread at any time; it is a snapshot and orders nothing (no
 * memory barrier).  A queue whose enqueue is half done counts as
 * non-empty.
 */
extern bool cds_wfcq_empty(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail);

/*
 * cds_wfcq_dequeue_lock / cds_wfcq_dequeue_unlock: take / release the
 * mutex that serializes dequeue, splice-from and iteration.
 */
extern void cds_wfcq_dequeue_lock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);
extern void cds_wfcq_dequeue_unlock(struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);

/*
 * cds_wfcq_enqueue: append a node.  Wait-free; needs no synchronization
 * with any other operation.  Acts as a full memory barrier before the
 * node is published, and everything the caller wrote before the call
 * (node contents included) is visible to whoever dequeues the node.
 *
 * Returns false if the queue was empty just before this node was
 * appended, true otherwise.
 */
extern bool cds_wfcq_enqueue(cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);

/*
 * cds_wfcq_dequeue_blocking: remove and return the first node, or NULL
 * if the queue is empty.  Takes the queue mutex.  May wait for an
 * enqueue that is half done.  What the enqueuer wrote before enqueueing
 * is visible; no other ordering is promised.  The returned node belongs
 * to the caller at once (it may be freed or enqueued again).
 */
extern struct cds_wfcq_node *cds_wfcq_dequeue_blocking(
		struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail);

/*
 * cds_wfcq_dequeue_with_state_blocking: same, and sets *state to
 * CDS_WFCQ_STATE_LAST if the returned node was the last one queued (else
 * to 0).  state may be NULL.
 */
extern struct cds_wfcq_node *cds_wfcq_dequeue_with_state_blocking(
		struct cds_wfcq_head *head,
		struct cds_wfcq_tail *tail,
		int *state);

/*
 * cds_wfcq_splice_blocking: move every node of the source queue to the
 * end of the destination queue, keeping their order.  Takes the source
 * queue's mutex; the destination needs no synchronization (it sees the
 * splice as one enqueue of a whole list).  May wait for a half-done
 * enqueue on the source.
 *
 * Returns CDS_WFCQ_RET_SRC_EMPTY if there was nothing to move, else
 * CDS_WFCQ_RET_DEST_EMPTY or CDS_WFCQ_RET_DEST_NON_EMPTY according to
 * the destination's state just before the nodes were appended.
 */
extern enum cds_wfcq_ret cds_wfcq_splice_blocking(
		struct cds_wfcq_head *dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		struct cds_wfcq_head *src_q_head,
		struct cds_wfcq_tail *src_q_tail);

/*
 * __cds_wfcq_dequeue_blocking: as cds_wfcq_dequeue_blocking(), but the
 * caller serializes it with other dequeues, splices-from and iterations
 * (see the table at the top).  Returns NULL if the queue is empty.
 */
extern struct cds_wfcq_node *__cds_wfcq_dequeue_blocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail);

/*
 * __cds_wfcq_dequeue_with_state_blocking: as __cds_wfcq_dequeue_blocking,
 * also reporting CDS_WFCQ_STATE_LAST through state (which may be NULL).
 */
extern struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_blocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		int *state);

/*
 * __cds_wfcq_dequeue_nonblocking: as __cds_wfcq_dequeue_blocking, but
 * returns CDS_WFCQ_WOULDBLOCK instead of waiting for a half-done enqueue.
 * The queue is left unchanged in that case.
 */
extern struct cds_wfcq_node *__cds_wfcq_dequeue_nonblocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail);

/*
 * __cds_wfcq_dequeue_with_state_nonblocking: non-blocking dequeue that
 * also reports CDS_WFCQ_STATE_LAST through state (which may be NULL).
 */
extern struct cds_wfcq_node *__cds_wfcq_dequeue_with_state_nonblocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		int *state);

/*
 * __cds_wfcq_splice_blocking: as cds_wfcq_splice_blocking(), but the
 * caller serializes the source queue (see the table).  Never returns
 * CDS_WFCQ_RET_WOULDBLOCK.
 */
extern enum cds_wfcq_ret __cds_wfcq_splice_blocking(
		cds_wfcq_head_ptr_t dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head,
		struct cds_wfcq_tail *src_q_tail);

/*
 * __cds_wfcq_splice_nonblocking: as __cds_wfcq_splice_blocking, but
 * returns CDS_WFCQ_RET_WOULDBLOCK, leaving both queues unchanged, when
 * the first source node is not linked yet.
 */
extern enum cds_wfcq_ret __cds_wfcq_splice_nonblocking(
		cds_wfcq_head_ptr_t dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		cds_wfcq_head_ptr_t src_q_head,
		struct cds_wfcq_tail *src_q_tail);

/*
 * __cds_wfcq_first_blocking: the first node, without removing it, or
 * NULL if the queue is empty.  Caller-serialized like dequeue.  What the
 * enqueuer wrote before enqueueing is visible.  Used by
 * __cds_wfcq_for_each_blocking() and __cds_wfcq_for_each_blocking_safe().
 */
extern struct cds_wfcq_node *__cds_wfcq_first_blocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail);

/*
 * __cds_wfcq_first_nonblocking: same, but returns CDS_WFCQ_WOULDBLOCK
 * instead of waiting for a half-done enqueue.
 */
extern struct cds_wfcq_node *__cds_wfcq_first_nonblocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail);

/*
 * __cds_wfcq_next_blocking: the node after "node", or NULL if "node" is
 * the last one.  Caller-serialized like dequeue.
 */
extern struct cds_wfcq_node *__cds_wfcq_next_blocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);

/*
 * __cds_wfcq_next_nonblocking: same, but returns CDS_WFCQ_WOULDBLOCK
 * instead of waiting for a half-done enqueue.
 */
extern struct cds_wfcq_node *__cds_wfcq_next_nonblocking(
		cds_wfcq_head_ptr_t head,
		struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node);

#endif /* !_LGPL_SOURCE */

/*
 * __cds_wfcq_for_each_blocking(head, tail, node): visit every queued
 * node, first to last, without dequeuing.  head is a pointer to either
 * head type, tail a struct cds_wfcq_tail pointer, node a struct
 * cds_wfcq_node pointer used as the cursor.  Caller-serialized like
 * dequeue; nodes enqueued during the walk may or may not be visited.
 * The body must not remove or free "node".
 */
#define __cds_wfcq_for_each_blocking(head, tail, node)			\
	for ((node) = __cds_wfcq_first_blocking(head, tail);		\
		(node) != NULL;						\
		(node) = __cds_wfcq_next_blocking(head, tail, node))

/*
 * __cds_wfcq_for_each_blocking_safe(head, tail, node, n): same, but the
 * successor is fetched (into n) before the body runs, so the body may
 * free or reuse "node" -- as long as the queue itself is then discarded
 * or reinitialized, since the links are not repaired.
 */
#define __cds_wfcq_for_each_blocking_safe(head, tail, node, n)		\
	for ((node) = __cds_wfcq_first_blocking(head, tail),		\
		(n) = ((node) != NULL ?					\
			__cds_wfcq_next_blocking(head, tail, node) : NULL); \
		(node) != NULL;						\
		(node) = (n),						\
		(n) = ((node) != NULL ?					\
			__cds_wfcq_next_blocking(head, tail, node) : NULL))

#ifdef __cplusplus
} /* extern "C" */

/*
 * C++ only: overloads that accept a pointer to either head type (or the
 * union) wherever C accepts either through the transparent union.  They
 * simply build the union and call the C function.
 */
static inline cds_wfcq_head_ptr_t
___cds_wfcq_to_head_ptr(struct __cds_wfcq_head *head)
{
	return __cds_wfcq_head_cast(head);
}

static inline cds_wfcq_head_ptr_t
___cds_wfcq_to_head_ptr(struct cds_wfcq_head *head)
{
	return cds_wfcq_head_cast(head);
}

static inline cds_wfcq_head_ptr_t
___cds_wfcq_to_head_ptr(cds_wfcq_head_ptr_t head)
{
	return head;
}

template<typename H>
static inline bool cds_wfcq_empty(H head, struct cds_wfcq_tail *tail)
{
	return cds_wfcq_empty(___cds_wfcq_to_head_ptr(head), tail);
}

template<typename H>
static inline bool cds_wfcq_enqueue(H head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return cds_wfcq_enqueue(___cds_wfcq_to_head_ptr(head), tail, node);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_blocking(H head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_blocking(___cds_wfcq_to_head_ptr(head),
			tail);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_with_state_blocking(H head, struct cds_wfcq_tail *tail,
		int *state)
{
	return __cds_wfcq_dequeue_with_state_blocking(
			___cds_wfcq_to_head_ptr(head), tail, state);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_nonblocking(H head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_dequeue_nonblocking(___cds_wfcq_to_head_ptr(head),
			tail);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_dequeue_with_state_nonblocking(H head,
		struct cds_wfcq_tail *tail, int *state)
{
	return __cds_wfcq_dequeue_with_state_nonblocking(
			___cds_wfcq_to_head_ptr(head), tail, state);
}

template<typename D, typename S>
static inline enum cds_wfcq_ret
__cds_wfcq_splice_blocking(D dest_q_head, struct cds_wfcq_tail *dest_q_tail,
		S src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return __cds_wfcq_splice_blocking(
			___cds_wfcq_to_head_ptr(dest_q_head), dest_q_tail,
			___cds_wfcq_to_head_ptr(src_q_head), src_q_tail);
}

template<typename D, typename S>
static inline enum cds_wfcq_ret
__cds_wfcq_splice_nonblocking(D dest_q_head,
		struct cds_wfcq_tail *dest_q_tail,
		S src_q_head, struct cds_wfcq_tail *src_q_tail)
{
	return __cds_wfcq_splice_nonblocking(
			___cds_wfcq_to_head_ptr(dest_q_head), dest_q_tail,
			___cds_wfcq_to_head_ptr(src_q_head), src_q_tail);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_first_blocking(H head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_blocking(___cds_wfcq_to_head_ptr(head), tail);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_first_nonblocking(H head, struct cds_wfcq_tail *tail)
{
	return __cds_wfcq_first_nonblocking(___cds_wfcq_to_head_ptr(head),
			tail);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_next_blocking(H head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_blocking(___cds_wfcq_to_head_ptr(head), tail,
			node);
}

template<typename H>
static inline struct cds_wfcq_node *
__cds_wfcq_next_nonblocking(H head, struct cds_wfcq_tail *tail,
		struct cds_wfcq_node *node)
{
	return __cds_wfcq_next_nonblocking(___cds_wfcq_to_head_ptr(head), tail,
			node);
}

#endif /* __cplusplus */

#endif /* _URCU_WFCQUEUE_H */
