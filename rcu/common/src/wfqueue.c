/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wfqueue.c - out-of-line deprecated wait-free queue (liburcu-common).
 *
 * Each exported function wraps the inline implementation from
 * <urcu/static/wfqueue.h>, which explains the algorithm and its memory
 * ordering.  _LGPL_SOURCE must stay undefined here so that
 * <urcu/wfqueue.h> declares the exported names.  CDS_WFQ_DEPRECATED is
 * emptied: the deprecation is for the library's users, not for the
 * definitions.
 */
#undef _LGPL_SOURCE
#define CDS_WFQ_DEPRECATED
#include <urcu/wfqueue.h>
#include <urcu/static/wfqueue.h>

#include "urcu-export.h"

URCU_API void cds_wfq_node_init(struct cds_wfq_node *node)
{
	_cds_wfq_node_init(node);
}

URCU_API void cds_wfq_init(struct cds_wfq_queue *q)
{
	_cds_wfq_init(q);
}

URCU_API void cds_wfq_destroy(struct cds_wfq_queue *q)
{
	_cds_wfq_destroy(q);
}

URCU_API void cds_wfq_enqueue(struct cds_wfq_queue *q,
		struct cds_wfq_node *node)
{
	_cds_wfq_enqueue(q, node);
}

URCU_API struct cds_wfq_node *__cds_wfq_dequeue_blocking(
		struct cds_wfq_queue *q)
{
	return ___cds_wfq_dequeue_blocking(q);
}

URCU_API struct cds_wfq_node *cds_wfq_dequeue_blocking(
		struct cds_wfq_queue *q)
{
	return _cds_wfq_dequeue_blocking(q);
}
