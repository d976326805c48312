/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/pointer.h - RCU pointer publication and subscription:
 * rcu_dereference(), rcu_assign_pointer(), rcu_set_pointer(),
 * rcu_xchg_pointer(), rcu_cmpxchg_pointer().
 *
 * These work with every RCU flavor and need no library symbol: the
 * public names are always the inline macros of <urcu/static/pointer.h>,
 * whether or not _LGPL_SOURCE is defined.  See that header for the
 * memory-ordering contract of each one.
 */
#ifndef _URCU_POINTER_H
#define _URCU_POINTER_H

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/uatomic.h>
#include <urcu/static/pointer.h>

/* Read an RCU-protected pointer (consume); call inside a read-side section. */
#define rcu_dereference(p)		_rcu_dereference(p)

/* Publish v in the pointer variable p (release store). */
#define rcu_assign_pointer(p, v)	_rcu_assign_pointer(p, v)

/* Publish v in *pp (release store). */
#define rcu_set_pointer(pp, v)		_rcu_set_pointer(pp, v)

/* Publish v in *pp, yield the old pointer (full barrier). */
#define rcu_xchg_pointer(pp, v)		_rcu_xchg_pointer(pp, v)

/* Publish new in *pp if it still holds old; yield the prior value.
 * Full barrier. */
#define rcu_cmpxchg_pointer(pp, old, _new)	\
	_rcu_cmpxchg_pointer(pp, old, _new)

#endif /* _URCU_POINTER_H */
