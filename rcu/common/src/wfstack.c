/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * wfstack.c - out-of-line wait-free stack (liburcu-common).
 *
 * Each exported function wraps the inline implementation from
 * <urcu/static/wfstack.h>; see that file for the algorithm and its
 * memory-ordering argument.  _LGPL_SOURCE must stay undefined here so
 * that <urcu/wfstack.h> declares the exported names instead of mapping
 * them onto the inline functions.
 */
#undef _LGPL_SOURCE
#include <urcu/wfstack.h>
#include <urcu/static/wfstack.h>

#include "urcu-export.h"

URCU_API void cds_wfs_node_init(struct cds_wfs_node *node)
{
	_cds_wfs_node_init(node);
}

URCU_API void cds_wfs_init(struct cds_wfs_stack *s)
{
	_cds_wfs_init(s);
}

URCU_API void cds_wfs_destroy(struct cds_wfs_stack *s)
{
	_cds_wfs_destroy(s);
}

URCU_API void __cds_wfs_init(struct __cds_wfs_stack *s)
{
	___cds_wfs_init(s);
}

URCU_API bool cds_wfs_empty(cds_wfs_stack_ptr_t u_stack)
{
	return _cds_wfs_empty(u_stack);
}

URCU_API int cds_wfs_push(cds_wfs_stack_ptr_t u_stack,
		struct cds_wfs_node *node)
{
	return _cds_wfs_push(u_stack, node);
}

URCU_API struct cds_wfs_node *cds_wfs_pop_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_blocking(s);
}

URCU_API struct cds_wfs_node *
cds_wfs_pop_with_state_blocking(struct cds_wfs_stack *s, int *state)
{
	return _cds_wfs_pop_with_state_blocking(s, state);
}

URCU_API struct cds_wfs_head *cds_wfs_pop_all_blocking(struct cds_wfs_stack *s)
{
	return _cds_wfs_pop_all_blocking(s);
}

URCU_API struct cds_wfs_node *cds_wfs_first(struct cds_wfs_head *head)
{
	return _cds_wfs_first(head);
}

URCU_API struct cds_wfs_node *cds_wfs_next_blocking(struct cds_wfs_node *node)
{
	return _cds_wfs_next_blocking(node);
}

URCU_API struct cds_wfs_node *
cds_wfs_next_nonblocking(struct cds_wfs_node *node)
{
	return _cds_wfs_next_nonblocking(node);
}

URCU_API void cds_wfs_pop_lock(struct cds_wfs_stack *s)
{
	_cds_wfs_pop_lock(s);
}

URCU_API void cds_wfs_pop_unlock(struct cds_wfs_stack *s)
{
	_cds_wfs_pop_unlock(s);
}

URCU_API struct cds_wfs_node *
__cds_wfs_pop_blocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_blocking(u_stack);
}

URCU_API struct cds_wfs_node *
__cds_wfs_pop_with_state_blocking(cds_wfs_stack_ptr_t u_stack, int *state)
{
	return ___cds_wfs_pop_with_state_blocking(u_stack, state);
}

URCU_API struct cds_wfs_node *
__cds_wfs_pop_nonblocking(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_nonblocking(u_stack);
}

URCU_API struct cds_wfs_node *
__cds_wfs_pop_with_state_nonblocking(cds_wfs_stack_ptr_t u_stack, int *state)
{
	return ___cds_wfs_pop_with_state_nonblocking(u_stack, state);
}

URCU_API struct cds_wfs_head *__cds_wfs_pop_all(cds_wfs_stack_ptr_t u_stack)
{
	return ___cds_wfs_pop_all(u_stack);
}
