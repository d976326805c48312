/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/system.h - single-copy-atomic access to variables shared between
 * threads, without any ordering.
 *
 * CMM_LOAD_SHARED(p) reads p, CMM_STORE_SHARED(x, v) writes v to x and
 * yields v.  Both are relaxed __atomic accesses: the compiler performs
 * exactly one untorn access, and ThreadSanitizer sees an atomic access
 * rather than a data race.  They do not order other memory accesses
 * between CPUs; use <urcu/arch.h> fences or <urcu/uatomic.h> orders for
 * that.
 *
 * Limitation: the operand must be a scalar the __atomic builtins accept
 * (integer of size 1, 2, 4 or 8, bool, or pointer; in C also an enum).
 * Floating-point and struct variables are rejected at compile time.
 *
 * The operand must be an lvalue; it is evaluated once.  Loads accept
 * const-qualified operands.
 */
#ifndef _URCU_SYSTEM_H
#define _URCU_SYSTEM_H

#include <urcu/compiler.h>
#include <urcu/arch.h>

/* Relaxed load: atomic, unordered, no barrier. */
#define _CMM_LOAD_SHARED(p)	__atomic_load_n(&(p), __ATOMIC_RELAXED)

/*
 * Relaxed store that yields the stored value (converted to the type of
 * x): atomic, unordered, no barrier.
 */
#define _CMM_STORE_SHARED(x, v)						\
	__extension__ ({						\
		__typeof__(x) _cmm_ss_v = (v);				\
		__atomic_store_n(&(x), _cmm_ss_v, __ATOMIC_RELAXED);	\
		_cmm_ss_v;						\
	})

/*
 * As above, plus the cache-coherence hook that liburcu documents for
 * these macros: cmm_smp_rmc() before the load and cmm_smp_wmc() after
 * the store.  On every supported (cache-coherent) CPU these are compiler
 * barriers only: they keep the compiler from moving neighbouring plain
 * accesses across the shared access, and order nothing between CPUs.
 */
#define CMM_LOAD_SHARED(p)						\
	__extension__ ({						\
		cmm_smp_rmc();						\
		_CMM_LOAD_SHARED(p);					\
	})

#define CMM_STORE_SHARED(x, v)						\
	__extension__ ({						\
		__typeof__(x) _cmm_ss_ret = _CMM_STORE_SHARED(x, v);	\
		cmm_smp_wmc();						\
		_cmm_ss_ret;						\
	})

#endif /* _URCU_SYSTEM_H */
