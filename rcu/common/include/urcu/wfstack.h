/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/wfstack.h - concurrent LIFO stack: wait-free push, blocking (or
 * non-blocking) pop, wait-free pop-all.
 *
 * Nodes are embedded in the caller's objects (struct cds_wfs_node) and
 * recovered with caa_container_of(); the stack never allocates.
 *
 * Push is wait-free: it swaps the new node into the stack top and then
 * links it to the previous top.  Until that link is written the new
 * node is "half pushed"; a pop or an iteration that reaches it waits for
 * the link (blocking variants) or returns CDS_WFS_WOULDBLOCK
 * (non-blocking variants).
 *
 * Which operations may run concurrently on one stack (X = the caller
 * must serialize the pair, - = no synchronization needed):
 *
 *                        push   __cds_wfs_pop*   __cds_wfs_pop_all
 *   push                  -           -                 -
 *   __cds_wfs_pop*        -           X                 X
 *   __cds_wfs_pop_all     -           X                 -
 *
 * The serialization between pops (and between pop and pop_all) can be:
 *   1) a mutex: cds_wfs_pop_lock()/unlock(), or the self-locking
 *      cds_wfs_pop_blocking()/cds_wfs_pop_all_blocking();
 *   2) a single consumer thread doing every pop and pop_all;
 *   3) RCU: each pop runs inside an RCU read-side critical section, and
 *      a node obtained from a pop or a pop_all is freed, pushed again or
 *      has its cds_wfs_node modified only after a grace period.  No
 *      read-side critical section is needed around pop_all itself.
 * Without one of these, a popper could follow the next pointer of a
 * node that another popper already took and reused (the ABA problem).
 *
 * The list returned by pop_all is private to the caller; walk it with
 * cds_wfs_first()/cds_wfs_next_*() or the for_each macros, which wait
 * for links of pushes still in flight.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one (see <urcu/static/wfstack.h>); otherwise the calls
 * go to the out-of-line copies in liburcu-common.
 */
#ifndef _URCU_WFSTACK_H
#define _URCU_WFSTACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Returned by the non-blocking calls when they would have to wait.  Typed
 * as the node pointer those calls return, so that it also converts
 * implicitly in C++.
 */
#define CDS_WFS_WOULDBLOCK	((struct cds_wfs_node *) -1UL)

/* Bits stored through the "state" argument of the *_with_state calls. */
enum cds_wfs_state {
	CDS_WFS_STATE_LAST =		(1U << 0),	/* Stack now empty. */
};

/*
 * Stack link, to embed in the pushed object.  Its next pointer belongs
 * to the stack code while the node is on the stack; after a single pop
 * it must not be dereferenced.
 */
struct cds_wfs_node {
	struct cds_wfs_node *next;
};

/*
 * Top of a list of nodes, as returned by pop_all and used to start an
 * iteration.  The node is the first (only) member, so a head pointer and
 * a node pointer have the same address, including the end marker.
 */
struct cds_wfs_head {
	struct cds_wfs_node node;
};

/* Stack without a lock. */
struct __cds_wfs_stack {
	struct cds_wfs_head *head;
};

/*
 * Stack with the mutex used by cds_wfs_pop_lock() and the self-locking
 * calls.  "head" comes first, so a pointer to this structure may be used
 * as a pointer to the lock-less variant.
 */
struct cds_wfs_stack {
	struct cds_wfs_head *head;
	pthread_mutex_t lock;
};

#ifndef __cplusplus
/*
 * Either stack type.  In C the transparent union lets the functions that
 * take it accept a pointer to either structure directly.
 */
typedef union {
	struct __cds_wfs_stack *_s;
	struct cds_wfs_stack *s;
} __attribute__((__transparent_union__)) cds_wfs_stack_ptr_t;

/*
 * Identity in C (it accepts either stack pointer through the union).
 * Code that must also compile as C++ may use it to build the union
 * explicitly.
 */
static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(cds_wfs_stack_ptr_t s)
{
	return s;
}
#else /* __cplusplus */
/*
 * C++ has no transparent unions: overloads at the end of this header
 * accept either stack pointer directly, and cds_wfs_stack_cast() builds
 * the union explicitly.
 */
typedef union {
	struct __cds_wfs_stack *_s;
	struct cds_wfs_stack *s;
} cds_wfs_stack_ptr_t;
#endif /* __cplusplus */

#ifdef _LGPL_SOURCE

#include <urcu/static/wfstack.h>

#define cds_wfs_node_init		_cds_wfs_node_init
#define cds_wfs_init			_cds_wfs_init
#define cds_wfs_destroy			_cds_wfs_destroy
#define __cds_wfs_init			___cds_wfs_init
#define cds_wfs_empty			_cds_wfs_empty
#define cds_wfs_push			_cds_wfs_push

/* Calls that take the pop mutex themselves. */
#define cds_wfs_pop_blocking		_cds_wfs_pop_blocking
#define cds_wfs_pop_with_state_blocking	_cds_wfs_pop_with_state_blocking
#define cds_wfs_pop_all_blocking	_cds_wfs_pop_all_blocking

/* Walking a list returned by pop_all. */
#define cds_wfs_first			_cds_wfs_first
#define cds_wfs_next_blocking		_cds_wfs_next_blocking
#define cds_wfs_next_nonblocking	_cds_wfs_next_nonblocking

/* The pop mutex. */
#define cds_wfs_pop_lock		_cds_wfs_pop_lock
#define cds_wfs_pop_unlock		_cds_wfs_pop_unlock

/* Calls for which the caller provides the serialization. */
#define __cds_wfs_pop_blocking		___cds_wfs_pop_blocking
#define __cds_wfs_pop_with_state_blocking	\
					___cds_wfs_pop_with_state_blocking
#define __cds_wfs_pop_nonblocking	___cds_wfs_pop_nonblocking
#define __cds_wfs_pop_with_state_nonblocking	\
					___cds_wfs_pop_with_state_nonblocking
#define __cds_wfs_pop_all		___cds_wfs_pop_all

#else /* !_LGPL_SOURCE */

/*
 * cds_wfs_node_init: prepare a node for pushing.  cds_wfs_push() also
 * resets the link, so pushing a popped node again without calling this
 * is fine.
 */
extern void cds_wfs_node_init(struct cds_wfs_node *node);

/*
 * cds_wfs_init: make an empty stack and initialize its mutex.  Undo with
 * cds_wfs_destroy().  The stack must not be in use.
 */
extern void cds_wfs_init(struct cds_wfs_stack *s);

/*
 * cds_wfs_destroy: release the mutex created by cds_wfs_init().  Nodes
 * still on the stack are not touched.  The stack must not be in use.
 */
extern void cds_wfs_destroy(struct cds_wfs_stack *s);

/*
 * __cds_wfs_init: make an empty lock-less stack.  Nothing to destroy.
 */
extern void __cds_wfs_init(struct __cds_wfs_stack *s);

/*
 * cds_wfs_empty: whether the stack currently has no node.  Any thread,
 * any time; a snapshot that orders nothing (no memory barrier).
 */
extern bool cds_wfs_empty(cds_wfs_stack_ptr_t u_stack);

/*
 * cds_wfs_push: push a node.  Wait-free; needs no synchronization with
 * any other operation.  Acts as a full memory barrier before the node is
 * published; what the caller wrote before the call is visible to the
 * thread that pops the node (or pops it with pop_all).
 *
 * Returns 0 if the stack was empty just before the push, 1 otherwise.
 */
extern int cds_wfs_push(cds_wfs_stack_ptr_t u_stack, struct cds_wfs_node *node);

/*
 * cds_wfs_pop_blocking: pop the top node, or return NULL if the stack is
 * empty.  Takes the pop mutex; may wait for a push in flight.
 */
extern struct cds_wfs_node *cds_wfs_pop_blocking(struct cds_wfs_stack *s);

/*
 * cds_wfs_pop_with_state_blocking: same, and sets *state to
 * CDS_WFS_STATE_LAST if the stack became empty by this pop (else to 0).
 * state may be NULL.
 */
extern struct cds_wfs_node *
	cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s, int *state);

/*
 * cds_wfs_pop_all_blocking: take every node at once, under the pop
 * mutex.  Returns NULL if the stack was empty.
 */
extern struct cds_wfs_head *cds_wfs_pop_all_blocking(struct cds_wfs_stack *s);

/*
 * cds_wfs_first: first (most recently pushed) node of a list returned by
 * pop_all, or NULL if head is NULL or the list is empty.  What pushers
 * wrote before pushing is visible.
 */
extern struct cds_wfs_node *cds_wfs_first(struct cds_wfs_head *head);

/*
 * cds_wfs_next_blocking: node after "node" in a popped list, or NULL at
 * the end.  Waits for the link of a push still in flight.
 */
extern struct cds_wfs_node *cds_wfs_next_blocking(struct cds_wfs_node *node);

/*
 * cds_wfs_next_nonblocking: same, but returns CDS_WFS_WOULDBLOCK
 * instead of waiting.
 */
extern struct cds_wfs_node *cds_wfs_next_nonblocking(struct cds_wfs_node *node);

/*
 * cds_wfs_pop_lock / cds_wfs_pop_unlock: take / release the mutex that
 * serializes the "__" pops and pop_all.
 */
extern void cds_wfs_pop_lock(struct cds_wfs_stack *s);
extern void cds_wfs_pop_unlock(struct cds_wfs_stack *s);

/*
 * __cds_wfs_pop_blocking: pop the top node, or NULL if the stack is
 * empty.  The caller serializes pops (see the list at the top).  Do not
 * dereference the returned node's next pointer.
 */
extern struct cds_wfs_node *__cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack);

/*
 * __cds_wfs_pop_with_state_blocking: same, also reporting
 * CDS_WFS_STATE_LAST through state (which may be NULL).
 */
extern struct cds_wfs_node *
	__cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack,
		int *state);

/*
 * __cds_wfs_pop_nonblocking: as __cds_wfs_pop_blocking, but returns
 * CDS_WFS_WOULDBLOCK, leaving the stack unchanged, instead of waiting
 * for a push in flight or retrying after losing a race with a push.
 */
extern struct cds_wfs_node *__cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack);

/*
 * __cds_wfs_pop_with_state_nonblocking: same, also reporting
 * CDS_WFS_STATE_LAST through state (which may be NULL).
 */
extern struct cds_wfs_node *
	__cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_ptr_t u_stack,
		int *state);

/*
 * __cds_wfs_pop_all: take every node at once.  Wait-free.  Needs no
 * synchronization with pushes or with other pop_all calls, but must be
 * serialized with pops by the same technique as the pops themselves
 * (see the list at the top).  Returns NULL if the stack was empty.
 */
extern struct cds_wfs_head *__cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack);

#endif /* !_LGPL_SOURCE */

#ifdef __cplusplus
} /* extern "C" */
#endif

/*
 * cds_wfs_for_each_blocking(head, node): visit every node of a list
 * returned by pop_all, most recently pushed first.  head is a struct
 * cds_wfs_head pointer (NULL is an empty list), node a struct
 * cds_wfs_node pointer used as the cursor.  Waits for links of pushes
 * still in flight.  The body must not free or reuse "node".
 */
#define cds_wfs_for_each_blocking(head, node)				\
	for ((node) = cds_wfs_first(head);				\
		(node) != NULL;						\
		(node) = cds_wfs_next_blocking(node))

/*
 * cds_wfs_for_each_blocking_safe(head, node, n): same, but the successor
 * is fetched (into n) before the body runs, so the body may free or
 * reuse "node".
 */
#define cds_wfs_for_each_blocking_safe(head, node, n)			\
	for ((node) = cds_wfs_first(head),				\
		(n) = ((node) != NULL ? cds_wfs_next_blocking(node) : NULL); \
		(node) != NULL;						\
		(node) = (n),						\
		(n) = ((node) != NULL ? cds_wfs_next_blocking(node) : NULL))

#ifdef __cplusplus
/*
 * C++ only: accept a pointer to either stack type (or the union)
 * wherever C accepts either through the transparent union.
 */
static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(struct __cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(struct cds_wfs_stack *s)
{
	cds_wfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

static inline cds_wfs_stack_ptr_t cds_wfs_stack_cast(cds_wfs_stack_ptr_t s)
{
	return s;
}

template<typename S>
static inline bool cds_wfs_empty(S s)
{
	return cds_wfs_empty(cds_wfs_stack_cast(s));
}

template<typename S>
static inline int cds_wfs_push(S s, struct cds_wfs_node *node)
{
	return cds_wfs_push(cds_wfs_stack_cast(s), node);
}

template<typename S>
static inline struct cds_wfs_node *__cds_wfs_pop_blocking(S s)
{
	return __cds_wfs_pop_blocking(cds_wfs_stack_cast(s));
}

template<typename S>
static inline struct cds_wfs_node *
__cds_wfs_pop_with_state_blocking(S s, int *state)
{
	return __cds_wfs_pop_with_state_blocking(cds_wfs_stack_cast(s), state);
}

template<typename S>
static inline struct cds_wfs_node *__cds_wfs_pop_nonblocking(S s)
{
	return __cds_wfs_pop_nonblocking(cds_wfs_stack_cast(s));
}

template<typename S>
static inline struct cds_wfs_node *
__cds_wfs_pop_with_state_nonblocking(S s, int *state)
{
	return __cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_cast(s),
			state);
}

template<typename S>
static inline struct cds_wfs_head *__cds_wfs_pop_all(S s)
{
	return __cds_wfs_pop_all(cds_wfs_stack_cast(s));
}
#endif /* __cplusplus */

#endif /* _URCU_WFSTACK_H */
