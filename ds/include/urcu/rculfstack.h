/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/rculfstack.h - the original RCU lock-free stack (deprecated).
 *
 * Kept so that programs written against it still build and run; new code
 * should use <urcu/lfstack.h>, which offers the same RCU-protected pops
 * (technique 3 there) plus pop_all, iteration and a pop lock.  Every
 * function but cds_lfs_init_rcu() is marked deprecated, as in liburcu:
 * calling one warns at compile time.  Define CDS_LFS_RCU_DEPRECATED
 * (empty) before including this header to silence it.
 *
 * Rules for the caller:
 *   - cds_lfs_push_rcu() needs no synchronization with anything.
 *   - cds_lfs_pop_rcu() must run inside an RCU read-side critical section
 *     (any flavor, as long as every popper and whoever reuses the nodes
 *     use the same one; for QSBR, from an online registered thread).
 *   - A popped node may still be read by concurrent pops: free it, or
 *     push it again, only after a grace period of that flavor (e.g.
 *     through call_rcu()).  That is what keeps a pop from the ABA problem
 *     (<urcu/static/rculfstack.h>).
 *
 * Nodes are embedded in the caller's objects (struct cds_lfs_node_rcu)
 * and recovered with caa_container_of(); the stack never allocates.
 *
 * Defining _LGPL_SOURCE before including this header turns every call
 * into an inline one; otherwise the calls go to liburcu-cds.
 */
#ifndef _URCU_RCULFSTACK_H
#define _URCU_RCULFSTACK_H

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CDS_LFS_RCU_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED \
	CDS_DEPRECATED("<urcu/rculfstack.h> is deprecated: use <urcu/lfstack.h>")
#endif

/* Stack link, to embed in the pushed object. */
struct cds_lfs_node_rcu {
	struct cds_lfs_node_rcu *next;
};

/* The stack: head is the top node, NULL when the stack is empty. */
struct cds_lfs_stack_rcu {
	struct cds_lfs_node_rcu *head;
};

#ifdef _LGPL_SOURCE

#include <urcu/static/rculfstack.h>

static inline CDS_LFS_RCU_DEPRECATED
void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	_cds_lfs_node_init_rcu(node);
}

static inline
void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	_cds_lfs_init_rcu(s);
}

static inline CDS_LFS_RCU_DEPRECATED
int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s,
		struct cds_lfs_node_rcu *node)
{
	return _cds_lfs_push_rcu(s, node);
}

static inline CDS_LFS_RCU_DEPRECATED
struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	return _cds_lfs_pop_rcu(s);
}

#else /* !_LGPL_SOURCE */

/* cds_lfs_node_init_rcu: prepare a node (optional: push sets the link). */
extern CDS_LFS_RCU_DEPRECATED
void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node);

/*
 * cds_lfs_init_rcu: make an empty stack.  Nothing to destroy.  The stack
 * must not be in use.
 */
extern void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s);

/*
 * cds_lfs_push_rcu: push a node.  Lock-free; any thread, any time, inside
 * a read-side critical section or not.  A full memory barrier precedes
 * the node's publication: what the caller wrote before the call is
 * visible to the thread that pops it.  Returns 0 if the stack was empty
 * just before the push, non-zero otherwise.
 */
extern CDS_LFS_RCU_DEPRECATED
int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s,
		struct cds_lfs_node_rcu *node);

/*
 * cds_lfs_pop_rcu: pop the top node, or return NULL if the stack is
 * empty.  Lock-free.  Inside an RCU read-side critical section; see the
 * rules above for reusing the node.
 */
extern CDS_LFS_RCU_DEPRECATED
struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s);

#endif /* !_LGPL_SOURCE */

#ifdef __cplusplus
}
#endif

#endif /* _URCU_RCULFSTACK_H */
