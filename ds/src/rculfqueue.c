/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfqueue.c - out-of-line RCU lock-free queue (liburcu-cds).
 *
 * Each exported function wraps the inline implementation from
 * <urcu/static/rculfqueue.h>; see that file for the algorithm and its
 * memory-ordering argument.  _LGPL_SOURCE must stay undefined here so
 * that <urcu/rculfqueue.h> declares the exported names instead of
 * mapping them onto the inline functions.
 */
#undef _LGPL_SOURCE
#include <urcu/rculfqueue.h>
#include <urcu/static/rculfqueue.h>

#include "urcu-export.h"

URCU_API void cds_lfq_node_init_rcu(struct cds_lfq_node_rcu *node)
{
	_cds_lfq_node_init_rcu(node);
}

URCU_API void cds_lfq_init_rcu(struct cds_lfq_queue_rcu *q,
		void queue_call_rcu(struct rcu_head *head,
				void (*func)(struct rcu_head *head)))
{
	_cds_lfq_init_rcu(q, queue_call_rcu);
}

URCU_API int cds_lfq_destroy_rcu(struct cds_lfq_queue_rcu *q)
{
	return _cds_lfq_destroy_rcu(q);
}

URCU_API void cds_lfq_enqueue_rcu(struct cds_lfq_queue_rcu *q,
		struct cds_lfq_node_rcu *node)
{
	_cds_lfq_enqueue_rcu(q, node);
}

URCU_API struct cds_lfq_node_rcu *cds_lfq_dequeue_rcu(
		struct cds_lfq_queue_rcu *q)
{
	return _cds_lfq_dequeue_rcu(q);
}
