/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/lfstack.h - lock-free LIFO stack (Treiber stack).
 *
 * Nodes are embedded in the caller's objects (struct cds_lfs_node) and
 * recovered with caa_container_of(); the stack never allocates.
 *
 * Push and pop are compare-and-swap loops on the stack top: lock-free
 * (some thread always makes progress) but not wait-free.  Unlike
 * <urcu/wfstack.h>, a pushed node is linked before it becomes visible,
 * so no operation ever waits for another thread.
 *
 * Which operations may run concurrently on one stack (X = the caller
 * must serialize the pair, - = no synchronization needed):
 *
 *                        push   __cds_lfs_pop   __cds_lfs_pop_all
 *   push                  -           -                 -
 *   __cds_lfs_pop         -           X                 X
 *   __cds_lfs_pop_all     -           X                 -
 *
 * Why pops need care (the ABA problem): a pop reads the top node T and
 * T->next, then swaps the top from T to T->next.  If, in between, other
 * threads pop T, pop or modify its successor, and push T back, the swap
 * still succeeds (the top is T again) and installs a stale successor.
 * A pop is safe from this when one of the following holds:
 *   1) Mutual exclusion: every __cds_lfs_pop and __cds_lfs_pop_all runs
 *      under one lock, e.g. cds_lfs_pop_lock()/unlock(), or through the
 *      self-locking cds_lfs_pop_blocking()/cds_lfs_pop_all_blocking().
 *      Then T cannot leave the stack while a pop is looking at it.
 *   2) Single consumer: one thread does every pop and pop_all.
 *   3) RCU: each __cds_lfs_pop runs inside an RCU read-side critical
 *      section, and a node returned by __cds_lfs_pop or
 *      __cds_lfs_pop_all is pushed back onto the same stack, or freed,
 *      only after a grace period.  Then T can neither come back to the
 *      top nor vanish while a pop that saw it is still running.  Its
 *      cds_lfs_node may be overwritten at once (including by a push onto
 *      another stack): a pop that reads a stale next pointer from it
 *      fails its compare-and-swap, since T is no longer the top, and
 *      retries.  __cds_lfs_pop_all itself needs no read-side critical
 *      section.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one (see <urcu/static/lfstack.h>); otherwise the calls
 * go to the out-of-line copies in liburcu-cds.
 */
#ifndef _URCU_LFSTACK_H
#define _URCU_LFSTACK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Stack link, to embed in the pushed object.  Do not dereference the
 * next pointer of a node returned by a single pop.
 */
struct cds_lfs_node {
	struct cds_lfs_node *next;
};

/*
 * Top of a list of nodes, as returned by pop_all and used to start an
 * iteration.  The node is the first (only) member, so a head pointer and
 * a node pointer have the same address.
 */
struct cds_lfs_head {
	struct cds_lfs_node node;
};

/* Stack without a lock.  head is NULL when the stack is empty. */
struct __cds_lfs_stack {
	struct cds_lfs_head *head;
};

/*
 * Stack with the mutex used by cds_lfs_pop_lock() and the self-locking
 * calls.  "head" comes first, so a pointer to this structure may be used
 * as a pointer to the lock-less variant.
 */
struct cds_lfs_stack {
	struct cds_lfs_head *head;
	pthread_mutex_t lock;
};

#ifndef __cplusplus
/*
 * Either stack type.  In C the transparent union lets the functions that
 * take it accept a pointer to either structure directly.
 */
typedef union {
	struct __cds_lfs_stack *_s;
	struct cds_lfs_stack *s;
} __attribute__((__transparent_union__)) cds_lfs_stack_ptr_t;

/*
 * Identity in C (it accepts either stack pointer through the union).
 * Code that must also compile as C++ may use it to build the union
 * explicitly.
 */
static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(cds_lfs_stack_ptr_t s)
{
	return s;
}
#else /* __cplusplus */
/*
 * C++ has no transparent unions: overloads at the end of this header
 * accept either stack pointer directly, and cds_lfs_stack_cast() builds
 * the union explicitly.
 */
typedef union {
	struct __cds_lfs_stack *_s;
	struct cds_lfs_stack *s;
} cds_lfs_stack_ptr_t;
#endif /* __cplusplus */

#ifdef _LGPL_SOURCE

#include <urcu/static/lfstack.h>

#define cds_lfs_node_init		_cds_lfs_node_init
#define cds_lfs_init			_cds_lfs_init
#define cds_lfs_destroy			_cds_lfs_destroy
#define __cds_lfs_init			___cds_lfs_init
#define cds_lfs_empty			_cds_lfs_empty
#define cds_lfs_push			_cds_lfs_push

/* Calls that take the pop mutex themselves. */
#define cds_lfs_pop_blocking		_cds_lfs_pop_blocking
#define cds_lfs_pop_all_blocking	_cds_lfs_pop_all_blocking

/* The pop mutex. */
#define cds_lfs_pop_lock		_cds_lfs_pop_lock
#define cds_lfs_pop_unlock		_cds_lfs_pop_unlock

/* Calls for which the caller provides the serialization. */
#define __cds_lfs_pop			___cds_lfs_pop
#define __cds_lfs_pop_all		___cds_lfs_pop_all

#else /* !_LGPL_SOURCE */

/*
 * cds_lfs_node_init: prepare a node for pushing.  Optional: push sets
 * the link itself.
 */
extern void cds_lfs_node_init(struct cds_lfs_node *node);

/*
 * cds_lfs_init: make an empty stack and initialize its mutex.  Undo with
 * cds_lfs_destroy().  The stack must not be in use.
 */
extern void cds_lfs_init(struct cds_lfs_stack *s);

/*
 * cds_lfs_destroy: release the mutex created by cds_lfs_init().  Nodes
 * still on the stack are not touched.  The stack must not be in use.
 */
extern void cds_lfs_destroy(struct cds_lfs_stack *s);

/* __cds_lfs_init: make an empty lock-less stack.  Nothing to destroy. */
extern void __cds_lfs_init(struct __cds_lfs_stack *s);

/*
 * cds_lfs_empty: whether the stack currently has no node.  Any thread,
 * any time; a snapshot that orders nothing (no memory barrier).
 */
extern bool cds_lfs_empty(cds_lfs_stack_ptr_t s);

/*
 * cds_lfs_push: push a node.  Lock-free; needs no synchronization with
 * any other operation.  Acts as a full memory barrier before the node is
 * published; what the caller wrote before the call is visible to the
 * thread that pops the node.
 *
 * Returns false if the stack was empty just before the push, true
 * otherwise.
 */
extern bool cds_lfs_push(cds_lfs_stack_ptr_t s,
			struct cds_lfs_node *node);

/*
 * cds_lfs_pop_blocking: pop the top node, or return NULL if the stack is
 * empty, holding the pop mutex ("blocking" refers to the mutex).
 */
extern struct cds_lfs_node *cds_lfs_pop_blocking(struct cds_lfs_stack *s);

/*
 * cds_lfs_pop_all_blocking: take every node at once, holding the pop
 * mutex.  Returns NULL if the stack was empty.
 */
extern struct cds_lfs_head *cds_lfs_pop_all_blocking(struct cds_lfs_stack *s);

/*
 * cds_lfs_pop_lock / cds_lfs_pop_unlock: take / release the mutex that
 * serializes __cds_lfs_pop and __cds_lfs_pop_all.
 */
extern void cds_lfs_pop_lock(struct cds_lfs_stack *s);
extern void cds_lfs_pop_unlock(struct cds_lfs_stack *s);

/*
 * __cds_lfs_pop: pop the top node, or return NULL if the stack is empty.
 * Lock-free.  Must be protected against ABA by one of the techniques
 * listed at the top of this header (pop lock, single consumer, or RCU
 * read-side critical section plus a grace period before reuse).
 */
extern struct cds_lfs_node *__cds_lfs_pop(cds_lfs_stack_ptr_t s);

/*
 * __cds_lfs_pop_all: take every node at once; returns NULL if the stack
 * was empty.  Wait-free.  Needs no synchronization with pushes or with
 * other pop_all calls, but must follow the technique protecting the
 * pops: hold the pop lock if pops do, or (RCU) let a grace period
 * elapse before reusing or freeing the returned nodes.
 */
extern struct cds_lfs_head *__cds_lfs_pop_all(cds_lfs_stack_ptr_t s);

#endif /* !_LGPL_SOURCE */

/* Start of a popped list; NULL stays NULL.  Used by the macros below. */
static inline struct cds_lfs_node *___cds_lfs_list_first(
		struct cds_lfs_head *head)
{
	return head != NULL ? &head->node : NULL;
}

/*
 * cds_lfs_for_each(__head, __node): visit every node of a list returned
 * by pop_all, most recently pushed first.  __head is a struct
 * cds_lfs_head pointer (NULL is an empty list), __node a struct
 * cds_lfs_node pointer used as the cursor.  The list is private to the
 * caller, so no waiting and no barrier is involved; what pushers wrote
 * before pushing is visible.  The body must not free or reuse __node.
 */
#define cds_lfs_for_each(__head, __node)				\
	for ((__node) = ___cds_lfs_list_first(__head);			\
		(__node) != NULL;					\
		(__node) = (__node)->next)

/*
 * cds_lfs_for_each_safe(__head, __node, __n): same, but the successor is
 * read (into __n) before the body runs, so the body may free or reuse
 * __node.
 */
#define cds_lfs_for_each_safe(__head, __node, __n)			\
	for ((__node) = ___cds_lfs_list_first(__head),			\
		(__n) = ((__node) != NULL ? (__node)->next : NULL);	\
		(__node) != NULL;					\
		(__node) = (__n),					\
		(__n) = ((__node) != NULL ? (__node)->next : NULL))

#ifdef __cplusplus
} /* extern "C" */

/*
 * C++ only: accept a pointer to either stack type (or the union)
 * wherever C accepts either through the transparent union.
 */
static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(struct __cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t ret;

	ret._s = s;
	return ret;
}

static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(struct cds_lfs_stack *s)
{
	cds_lfs_stack_ptr_t ret;

	ret.s = s;
	return ret;
}

static inline cds_lfs_stack_ptr_t cds_lfs_stack_cast(cds_lfs_stack_ptr_t s)
{
	return s;
}

template<typename S>
static inline bool cds_lfs_empty(S s)
{
	return cds_lfs_empty(cds_lfs_stack_cast(s));
}

template<typename S>
static inline bool cds_lfs_push(S s, struct cds_lfs_node *node)
{
	return cds_lfs_push(cds_lfs_stack_cast(s), node);
}

template<typename S>
static inline struct cds_lfs_node *__cds_lfs_pop(S s)
{
	return __cds_lfs_pop(cds_lfs_stack_cast(s));
}

template<typename S>
static inline struct cds_lfs_head *__cds_lfs_pop_all(S s)
{
	return __cds_lfs_pop_all(cds_lfs_stack_cast(s));
}
#endif /* __cplusplus */

#endif /* _URCU_LFSTACK_H */
