/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/pointer.h - implementation of the RCU pointer-publication
 * primitives (the underscore-prefixed forms).
 *
 * Everything is a macro over the __atomic builtins, so it works on any
 * pointer type, costs no function call, and needs no library symbol.
 * <urcu/pointer.h> maps the public names onto these.
 *
 * Pairing rules (how readers and updaters synchronize):
 *   - _rcu_assign_pointer / _rcu_set_pointer (release store) publishes a
 *     fully initialized object; _rcu_dereference (consume load) in a
 *     reader that observes the new pointer then also observes every
 *     store made to the object before it was published.
 *   - _rcu_xchg_pointer / _rcu_cmpxchg_pointer are full barriers (seq_cst
 *     read-modify-write plus a full fence): they publish like a release
 *     store and also order the updater's later accesses after the swap.
 *
 * The macros use statement expressions and __typeof__ (GNU C/C++) and
 * compile as C and as C++: values are converted by declaration of a
 * typed temporary, never through an implicit void * conversion.
 */
#ifndef _URCU_STATIC_POINTER_H
#define _URCU_STATIC_POINTER_H

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/system.h>
#include <urcu/uatomic.h>

/*
 * _rcu_dereference(p): read the RCU-protected pointer p (an lvalue) once
 * and yield its value, for use inside a read-side critical section.
 *
 * Consume load; paired with the release store of _rcu_set_pointer() /
 * _rcu_assign_pointer() (or the full barrier of _rcu_xchg_pointer() /
 * _rcu_cmpxchg_pointer()) in the updater.  GCC and Clang implement
 * consume as acquire: free on x86 (TSO), and it lets ThreadSanitizer see
 * the publication, which a relaxed load would hide from it.
 * model: none (pointer publication, release/consume, outside the grace-period
 * model).
 */
#define _rcu_dereference(p)	__atomic_load_n(&(p), __ATOMIC_CONSUME)

/*
 * _rcu_set_pointer(pp, v): publish v in *pp.  pp has type T **, v is
 * converted to T *.  Yields nothing.
 *
 * Release store: all prior loads and stores (in particular the ones
 * initializing *v) are ordered before it; paired with the consume load
 * in _rcu_dereference().  Storing a constant NULL publishes no object,
 * so it needs no ordering and is a relaxed store.
 */
#define _rcu_set_pointer(pp, v)						\
	((void) __extension__ ({					\
		__typeof__(*(pp)) _urcu_set_v = (v);			\
		if (__builtin_constant_p(v) && _urcu_set_v == 0)	\
			/* NULL: nothing published, no ordering. */	\
			__atomic_store_n((pp), _urcu_set_v,		\
					 __ATOMIC_RELAXED);		\
		else							\
			/*						\
			 * Publishes *v; pairs with _rcu_dereference().	\
			 * model: none (pointer publication, outside	\
			 * the grace-period model).			\
			 */						\
			__atomic_store_n((pp), _urcu_set_v,		\
					 __ATOMIC_RELEASE);		\
	}))

/* _rcu_assign_pointer(p, v): same as _rcu_set_pointer(&(p), v). */
#define _rcu_assign_pointer(p, v)	_rcu_set_pointer(&(p), v)

/*
 * _rcu_xchg_pointer(pp, v): publish v in *pp and yield the previous
 * pointer, which may be reclaimed after a grace period.  Full barrier
 * (uatomic_xchg default order, CMM_SEQ_CST_FENCE): publishes like a
 * release store, pairs with _rcu_dereference(), and orders the caller's
 * later accesses (e.g. the grace-period wait) after the exchange.  v is
 * converted implicitly, so a pointer of another type is diagnosed (the
 * uatomic operations cast).
 * model: none (pointer publication by a full-barrier exchange, outside the
 * grace-period model).
 */
#define _rcu_xchg_pointer(pp, v)					\
	__extension__ ({						\
		_urcu_unqual(*(pp)) _urcu_xchg_p = (v);			\
		uatomic_xchg_mo(pp, _urcu_xchg_p, CMM_SEQ_CST_FENCE);	\
	})

/*
 * _rcu_cmpxchg_pointer(pp, old, new): if *pp equals old, publish new.
 * Yields the pointer *pp held before: equal to old on success (old may
 * then be reclaimed after a grace period), the current value otherwise
 * (which must not be freed).  Full barrier whether or not it succeeds
 * (CMM_SEQ_CST_FENCE for both outcomes); pairs with _rcu_dereference().
 * old and new are converted implicitly, as in _rcu_xchg_pointer().
 * model: none (pointer publication by a full-barrier exchange, outside the
 * grace-period model).
 */
#define _rcu_cmpxchg_pointer(pp, old, _new)				\
	__extension__ ({						\
		_urcu_unqual(*(pp)) _urcu_cas_p_old = (old);		\
		_urcu_unqual(*(pp)) _urcu_cas_p_new = (_new);		\
		uatomic_cmpxchg_mo(pp, _urcu_cas_p_old, _urcu_cas_p_new, \
				   CMM_SEQ_CST_FENCE, CMM_SEQ_CST_FENCE); \
	})

#endif /* _URCU_STATIC_POINTER_H */
