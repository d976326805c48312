/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfstack.c - out-of-line deprecated RCU lock-free stack (liburcu-cds).
 *
 * Each exported function wraps the inline implementation from
 * <urcu/static/rculfstack.h>, which explains the algorithm and its memory
 * ordering.  _LGPL_SOURCE must stay undefined here so that
 * <urcu/rculfstack.h> declares the exported names.
 * CDS_LFS_RCU_DEPRECATED is emptied: the deprecation is for the
 * library's users, not for the definitions.
 */
#undef _LGPL_SOURCE
#define CDS_LFS_RCU_DEPRECATED
#include <urcu/rculfstack.h>
#include <urcu/static/rculfstack.h>

#include "urcu-export.h"

URCU_API void cds_lfs_node_init_rcu(struct cds_lfs_node_rcu *node)
{
	_cds_lfs_node_init_rcu(node);
}

URCU_API void cds_lfs_init_rcu(struct cds_lfs_stack_rcu *s)
{
	_cds_lfs_init_rcu(s);
}

URCU_API int cds_lfs_push_rcu(struct cds_lfs_stack_rcu *s,
		struct cds_lfs_node_rcu *node)
{
	return _cds_lfs_push_rcu(s, node);
}

URCU_API struct cds_lfs_node_rcu *cds_lfs_pop_rcu(struct cds_lfs_stack_rcu *s)
{
	return _cds_lfs_pop_rcu(s);
}
