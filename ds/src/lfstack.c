/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lfstack.c - out-of-line lock-free stack (liburcu-cds).
 *
 * Each exported function wraps the inline implementation from
 * <urcu/static/lfstack.h>; see that file for the algorithm and its
 * memory-ordering argument, and <urcu/lfstack.h> for when pops are safe
 * from ABA.  _LGPL_SOURCE must stay undefined here so that
 * <urcu/lfstack.h> declares the exported names instead of mapping them
 * onto the inline functions.
 */
#undef _LGPL_SOURCE
#include <urcu/lfstack.h>
#include <urcu/static/lfstack.h>

#include "urcu-export.h"

URCU_API void cds_lfs_node_init(struct cds_lfs_node *node)
{
	_cds_lfs_node_init(node);
}

URCU_API void cds_lfs_init(struct cds_lfs_stack *s)
{
	_cds_lfs_init(s);
}

URCU_API void cds_lfs_destroy(struct cds_lfs_stack *s)
{
	_cds_lfs_destroy(s);
}

URCU_API void __cds_lfs_init(struct __cds_lfs_stack *s)
{
	___cds_lfs_init(s);
}

URCU_API bool cds_lfs_empty(cds_lfs_stack_ptr_t s)
{
	return _cds_lfs_empty(s);
}

URCU_API bool cds_lfs_push(cds_lfs_stack_ptr_t s, struct cds_lfs_node *node)
{
	return _cds_lfs_push(s, node);
}

URCU_API struct cds_lfs_node *cds_lfs_pop_blocking(struct cds_lfs_stack *s)
{
	return _cds_lfs_pop_blocking(s);
}

URCU_API struct cds_lfs_head *cds_lfs_pop_all_blocking(struct cds_lfs_stack *s)
{
	return _cds_lfs_pop_all_blocking(s);
}

URCU_API void cds_lfs_pop_lock(struct cds_lfs_stack *s)
{
	_cds_lfs_pop_lock(s);
}

URCU_API void cds_lfs_pop_unlock(struct cds_lfs_stack *s)
{
	_cds_lfs_pop_unlock(s);
}

URCU_API struct cds_lfs_node *__cds_lfs_pop(cds_lfs_stack_ptr_t s)
{
	return ___cds_lfs_pop(s);
}

URCU_API struct cds_lfs_head *__cds_lfs_pop_all(cds_lfs_stack_ptr_t s)
{
	return ___cds_lfs_pop_all(s);
}
