/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/uatomic.h - type-generic atomic operations with explicit memory
 * ordering (liburcu's uatomic API).
 *
 * Every operation takes a pointer to an integer or pointer object of
 * size 1, 2, 4 or 8 (1 and 2 only when UATOMIC_HAS_ATOMIC_BYTE /
 * UATOMIC_HAS_ATOMIC_SHORT are defined) that is naturally aligned.
 * Arithmetic on a pointer object counts bytes, not elements (as the
 * __atomic builtins do).
 *
 * Two spellings exist for each operation:
 *
 *   uatomic_op(addr, args...[, mo])          memory order optional
 *   uatomic_op_mo(addr, args..., mo)         memory order required
 *
 * uatomic_cmpxchg(addr, old, new[, mo_success[, mo_failure]]) takes two.
 *
 * Memory orders are enum cmm_memorder values.  CMM_RELAXED through
 * CMM_SEQ_CST are the C11 orders (same numeric values as __ATOMIC_*).
 * CMM_SEQ_CST_FENCE means "a seq_cst operation followed by a full
 * cmm_smp_mb()": the operation then acts as a full barrier for all
 * surrounding accesses, not just for its own location; this is what
 * liburcu has always promised for the value-returning read-modify-write
 * operations.
 *
 * Defaults when the order is omitted (liburcu's documented contract):
 *   load, read, store, set, add, sub, inc, dec, or   CMM_RELAXED
 *   and                                              CMM_SEQ_CST
 *   add_return, sub_return, xchg, cmpxchg            CMM_SEQ_CST_FENCE
 * For uatomic_cmpxchg the failure order defaults to the success order,
 * weakened where C11 requires it (release -> relaxed, acq_rel ->
 * acquire).  With no order at all, cmpxchg is therefore a full barrier
 * whether or not it succeeds.
 *
 * Values are converted to the type of *addr with a cast, as liburcu's
 * operations do, so that uatomic_cmpxchg(&c, -1UL, 0) on a char or a
 * short draws no -Woverflow or -Wconstant-conversion warning; a pointer
 * stored this way is not type-checked (rcu_xchg_pointer() and
 * rcu_cmpxchg_pointer() are).  The operand of add, sub, and, or is cast
 * to the type of *addr - *addr: the same for int and wider types,
 * ptrdiff_t for pointers, whose arithmetic counts bytes.
 *
 * The optional-argument forms use the GNU "##__VA_ARGS__" comma
 * elision (accepted by GCC and Clang in every -std mode; only -Wpedantic
 * complains that zero variadic arguments are passed).  The operations
 * use statement expressions and __typeof__ (GNU extensions, marked
 * __extension__).  Each argument is evaluated once, except the memory
 * orders, which should be constants.
 */
#ifndef _URCU_UATOMIC_H
#define _URCU_UATOMIC_H

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/config.h>

/*
 * _urcu_unqual(x): the type of expression @x without const or volatile,
 * for the temporaries of the operations below: a cast to a qualified type
 * draws -Wignored-qualifiers in C++, and a volatile temporary cannot be
 * the "expected" argument of a compare-and-exchange.  In C the comma
 * operator yields an rvalue, whose type is unqualified; C++ keeps the
 * lvalue through it, so a small trait strips the qualifiers there (the
 * typename keyword outside templates needs C++11).
 */
#ifdef __cplusplus
template <typename T> struct _urcu_unqual_t { typedef T type; };
template <typename T> struct _urcu_unqual_t<const T> { typedef T type; };
template <typename T> struct _urcu_unqual_t<volatile T> { typedef T type; };
template <typename T> struct _urcu_unqual_t<const volatile T> {
	typedef T type;
};
# define _urcu_unqual(x)	typename _urcu_unqual_t<__typeof__(x)>::type
#else
# define _urcu_unqual(x)	__typeof__(((void) 0, (x)))
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum cmm_memorder {
	CMM_RELAXED = 0,
	CMM_CONSUME = 1,
	CMM_ACQUIRE = 2,
	CMM_RELEASE = 3,
	CMM_ACQ_REL = 4,
	CMM_SEQ_CST = 5,
	CMM_SEQ_CST_FENCE = 6
};

/* The C11 orders are passed straight to the builtins: values must match. */
urcu_static_assert(CMM_RELAXED == __ATOMIC_RELAXED,
	"CMM_RELAXED must equal __ATOMIC_RELAXED", cmm_relaxed_value);
urcu_static_assert(CMM_CONSUME == __ATOMIC_CONSUME,
	"CMM_CONSUME must equal __ATOMIC_CONSUME", cmm_consume_value);
urcu_static_assert(CMM_ACQUIRE == __ATOMIC_ACQUIRE,
	"CMM_ACQUIRE must equal __ATOMIC_ACQUIRE", cmm_acquire_value);
urcu_static_assert(CMM_RELEASE == __ATOMIC_RELEASE,
	"CMM_RELEASE must equal __ATOMIC_RELEASE", cmm_release_value);
urcu_static_assert(CMM_ACQ_REL == __ATOMIC_ACQ_REL,
	"CMM_ACQ_REL must equal __ATOMIC_ACQ_REL", cmm_acq_rel_value);
urcu_static_assert(CMM_SEQ_CST == __ATOMIC_SEQ_CST,
	"CMM_SEQ_CST must equal __ATOMIC_SEQ_CST", cmm_seq_cst_value);
/* CMM_SEQ_CST_FENCE is ours alone and must not alias a C11 order. */
urcu_static_assert(CMM_SEQ_CST_FENCE != __ATOMIC_RELAXED &&
	CMM_SEQ_CST_FENCE != __ATOMIC_CONSUME &&
	CMM_SEQ_CST_FENCE != __ATOMIC_ACQUIRE &&
	CMM_SEQ_CST_FENCE != __ATOMIC_RELEASE &&
	CMM_SEQ_CST_FENCE != __ATOMIC_ACQ_REL &&
	CMM_SEQ_CST_FENCE != __ATOMIC_SEQ_CST,
	"CMM_SEQ_CST_FENCE must be distinct from the C11 orders",
	cmm_seq_cst_fence_value);

#if defined(__GCC_ATOMIC_CHAR_LOCK_FREE) && __GCC_ATOMIC_CHAR_LOCK_FREE == 2
# define UATOMIC_HAS_ATOMIC_BYTE 1
#endif
#if defined(__GCC_ATOMIC_SHORT_LOCK_FREE) && __GCC_ATOMIC_SHORT_LOCK_FREE == 2
# define UATOMIC_HAS_ATOMIC_SHORT 1
#endif

/* ------------------------------------------------------------------ */
/* Internal helpers.                                                   */
/* ------------------------------------------------------------------ */

/* cmm_memorder -> __ATOMIC_* (the fence part is added separately). */
#define _cmm_c11_mo(mo)							\
	((int) (mo) == (int) CMM_SEQ_CST_FENCE ?			\
		__ATOMIC_SEQ_CST : (int) (mo))

/* Strongest failure order C11 allows for a given success order. */
#define _cmm_cas_fail_mo(mo)						\
	((int) (mo) == (int) CMM_RELEASE ? (int) CMM_RELAXED :		\
	 (int) (mo) == (int) CMM_ACQ_REL ? (int) CMM_ACQUIRE : (int) (mo))

/*
 * Trailing fence of CMM_SEQ_CST_FENCE after a plain load or store: a
 * seq_cst load/store orders only against other seq_cst operations, so
 * the full fence is what orders the surrounding relaxed and plain
 * accesses.  Not a no-op on x86 (a seq_cst load is a plain MOV there).
 */
#define _cmm_fence_after_access(mo)					\
	do {								\
		if ((int) (mo) == (int) CMM_SEQ_CST_FENCE)		\
			cmm_smp_mb();					\
	} while (0)

/*
 * Trailing fence of CMM_SEQ_CST_FENCE after a read-modify-write.  On
 * x86 every atomic RMW is a LOCK-prefixed instruction, which is already
 * a full barrier for all memory accesses, so the hardware fence is
 * skipped and only the compiler is stopped.  Elsewhere (e.g. an
 * LDAXR/STLXR loop on aarch64 lets later loads pass the store) the
 * full fence is required.
 */
#if defined(URCU_ARCH_X86)
# define _cmm_rmw_full_fence()	cmm_barrier()
#else
# define _cmm_rmw_full_fence()	cmm_smp_mb()
#endif
#define _cmm_fence_after_rmw(mo)					\
	do {								\
		if ((int) (mo) == (int) CMM_SEQ_CST_FENCE)		\
			_cmm_rmw_full_fence();				\
	} while (0)

/* @v converted to the type of *@addr (see the head of this file). */
#define _urcu_value(addr, v)	((_urcu_unqual(*(addr))) (v))
/* @v converted for arithmetic on *@addr: its type, or ptrdiff_t. */
#define _urcu_operand(addr, v)	((__typeof__(*(addr) - *(addr))) (v))

/* Optional trailing memory order: the given one, or dflt if absent. */
#define _urcu_mo_or(dflt, ...)	_urcu_mo_pick(_, ##__VA_ARGS__, dflt, _)
#define _urcu_mo_pick(_0, mo, ...)	mo

/* Picks one of three macro names by how many optional orders follow. */
#define _urcu_pick_by_count(_0, _1, _2, name, ...)	name

/* ------------------------------------------------------------------ */
/* Explicit-order operations.                                          */
/* ------------------------------------------------------------------ */

/* Atomic load of *addr with order mo; yields the value. */
#define uatomic_load_mo(addr, mo)					\
	__extension__ ({						\
		_urcu_unqual(*(addr)) _urcu_ld_v =			\
			__atomic_load_n((addr), _cmm_c11_mo(mo));	\
		_cmm_fence_after_access(mo);				\
		_urcu_ld_v;						\
	})

/* Atomic store of v into *addr with order mo. */
#define uatomic_store_mo(addr, v, mo)					\
	((void) __extension__ ({					\
		_urcu_unqual(*(addr)) _urcu_st_v = _urcu_value(addr, v); \
		__atomic_store_n((addr), _urcu_st_v, _cmm_c11_mo(mo));	\
		_cmm_fence_after_access(mo);				\
	}))

/*
 * Compare-and-exchange: if *addr equals old, store new.  Yields the
 * value *addr held before the operation (equal to old on success).
 * mos applies on success, mof on failure; mof must not be stronger than
 * mos, nor CMM_RELEASE/CMM_ACQ_REL (C11 rules).
 */
#define uatomic_cmpxchg_mo(addr, old, _new, mos, mof)			\
	__extension__ ({						\
		_urcu_unqual(*(addr)) _urcu_cas_old =			\
			_urcu_value(addr, old);				\
		_urcu_unqual(*(addr)) _urcu_cas_new =			\
			_urcu_value(addr, _new);			\
		if (__atomic_compare_exchange_n((addr), &_urcu_cas_old,	\
				_urcu_cas_new, 0, _cmm_c11_mo(mos),	\
				_cmm_c11_mo(mof)))			\
			_cmm_fence_after_rmw(mos);			\
		else							\
			_cmm_fence_after_rmw(mof);			\
		_urcu_cas_old;						\
	})

/* Store v into *addr; yields the previous value. */
#define uatomic_xchg_mo(addr, v, mo)					\
	__extension__ ({						\
		_urcu_unqual(*(addr)) _urcu_xchg_v =			\
			_urcu_value(addr, v);				\
		_urcu_unqual(*(addr)) _urcu_xchg_old =			\
			__atomic_exchange_n((addr), _urcu_xchg_v,	\
					    _cmm_c11_mo(mo));		\
		_cmm_fence_after_rmw(mo);				\
		_urcu_xchg_old;						\
	})

/* *addr += v; yields the new value. */
#define uatomic_add_return_mo(addr, v, mo)				\
	__extension__ ({						\
		_urcu_unqual(*(addr)) _urcu_addr_res =			\
			__atomic_add_fetch((addr), _urcu_operand(addr, v), \
					   _cmm_c11_mo(mo));		\
		_cmm_fence_after_rmw(mo);				\
		_urcu_addr_res;						\
	})

/* *addr -= v; yields the new value. */
#define uatomic_sub_return_mo(addr, v, mo)				\
	__extension__ ({						\
		_urcu_unqual(*(addr)) _urcu_subr_res =			\
			__atomic_sub_fetch((addr), _urcu_operand(addr, v), \
					   _cmm_c11_mo(mo));		\
		_cmm_fence_after_rmw(mo);				\
		_urcu_subr_res;						\
	})

/* *addr &= mask. */
#define uatomic_and_mo(addr, mask, mo)					\
	((void) __extension__ ({					\
		(void) __atomic_fetch_and((addr),			\
					  _urcu_operand(addr, mask),	\
					  _cmm_c11_mo(mo));		\
		_cmm_fence_after_rmw(mo);				\
	}))

/* *addr |= mask. */
#define uatomic_or_mo(addr, mask, mo)					\
	((void) __extension__ ({					\
		(void) __atomic_fetch_or((addr),			\
					 _urcu_operand(addr, mask),	\
					 _cmm_c11_mo(mo));		\
		_cmm_fence_after_rmw(mo);				\
	}))

/* *addr += v / -= v, no result. */
#define uatomic_add_mo(addr, v, mo)	\
	((void) uatomic_add_return_mo(addr, v, mo))
#define uatomic_sub_mo(addr, v, mo)	\
	((void) uatomic_sub_return_mo(addr, v, mo))

/* ++*addr / --*addr, no result. */
#define uatomic_inc_mo(addr, mo)	uatomic_add_mo(addr, 1, mo)
#define uatomic_dec_mo(addr, mo)	uatomic_sub_mo(addr, 1, mo)

/* ------------------------------------------------------------------ */
/* Optional-order operations (liburcu's main API).                     */
/* ------------------------------------------------------------------ */

#define uatomic_load(addr, ...)						\
	uatomic_load_mo(addr, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_read(addr, ...)						\
	uatomic_load_mo(addr, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))

#define uatomic_store(addr, v, ...)					\
	uatomic_store_mo(addr, v, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_set(addr, v, ...)					\
	uatomic_store_mo(addr, v, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))

#define uatomic_add(addr, v, ...)					\
	uatomic_add_mo(addr, v, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_sub(addr, v, ...)					\
	uatomic_sub_mo(addr, v, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_inc(addr, ...)						\
	uatomic_inc_mo(addr, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_dec(addr, ...)						\
	uatomic_dec_mo(addr, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))

#define uatomic_or(addr, mask, ...)					\
	uatomic_or_mo(addr, mask, _urcu_mo_or(CMM_RELAXED, ##__VA_ARGS__))
#define uatomic_and(addr, mask, ...)					\
	uatomic_and_mo(addr, mask, _urcu_mo_or(CMM_SEQ_CST, ##__VA_ARGS__))

#define uatomic_add_return(addr, v, ...)				\
	uatomic_add_return_mo(addr, v,					\
		_urcu_mo_or(CMM_SEQ_CST_FENCE, ##__VA_ARGS__))
#define uatomic_sub_return(addr, v, ...)				\
	uatomic_sub_return_mo(addr, v,					\
		_urcu_mo_or(CMM_SEQ_CST_FENCE, ##__VA_ARGS__))
#define uatomic_xchg(addr, v, ...)					\
	uatomic_xchg_mo(addr, v,					\
		_urcu_mo_or(CMM_SEQ_CST_FENCE, ##__VA_ARGS__))

/* cmpxchg with zero, one or two orders. */
#define _urcu_cmpxchg_0mo(addr, old, _new)				\
	uatomic_cmpxchg_mo(addr, old, _new, CMM_SEQ_CST_FENCE,		\
			   CMM_SEQ_CST_FENCE)
#define _urcu_cmpxchg_1mo(addr, old, _new, mos)				\
	uatomic_cmpxchg_mo(addr, old, _new, mos, _cmm_cas_fail_mo(mos))
#define _urcu_cmpxchg_2mo(addr, old, _new, mos, mof)			\
	uatomic_cmpxchg_mo(addr, old, _new, mos, mof)
#define uatomic_cmpxchg(addr, old, _new, ...)				\
	_urcu_pick_by_count(_, ##__VA_ARGS__, _urcu_cmpxchg_2mo,	\
			    _urcu_cmpxchg_1mo, _urcu_cmpxchg_0mo, _)	\
		(addr, old, _new, ##__VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Barriers around the non-returning operations.                       */
/* ------------------------------------------------------------------ */

/*
 * uatomic_{add,sub,inc,dec,and,or} with their default orders do not
 * order surrounding accesses.  Bracket them with these to make them
 * full barriers.  On x86 the LOCK-prefixed RMW already is one, so only
 * the compiler must be stopped; elsewhere a full fence is needed.
 */
#if defined(URCU_ARCH_X86)
# define _cmm_smp_mb_around_rmw()	cmm_barrier()
#else
# define _cmm_smp_mb_around_rmw()	cmm_smp_mb()
#endif

#define cmm_smp_mb__before_uatomic_add()	_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_add()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__before_uatomic_sub()	_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_sub()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__before_uatomic_inc()	_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_inc()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__before_uatomic_dec()	_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_dec()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__before_uatomic_and()	_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_and()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__before_uatomic_or()		_cmm_smp_mb_around_rmw()
#define cmm_smp_mb__after_uatomic_or()		_cmm_smp_mb_around_rmw()

#ifdef __cplusplus
}
#endif

#endif /* _URCU_UATOMIC_H */
