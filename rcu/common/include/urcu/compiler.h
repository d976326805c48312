/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/compiler.h - compiler-level helpers used by every other header.
 *
 * Branch hints, the compiler-only barrier, container_of, build-time
 * checks and a few C/C++ portability shims.  Nothing in this header
 * emits a CPU fence; CPU ordering is in <urcu/arch.h>.
 *
 * Requires GCC or Clang (statement expressions, __typeof__, __atomic
 * builtins).  Works in C99 and later and in C++11 and later.
 */
#ifndef _URCU_COMPILER_H
#define _URCU_COMPILER_H

#include <stddef.h>	/* offsetof, NULL */

/* Branch-prediction hints.  Both evaluate to 0 or 1. */
#define caa_likely(x)	__builtin_expect(!!(x), 1)
#define caa_unlikely(x)	__builtin_expect(!!(x), 0)

/*
 * Compiler barrier.  The compiler may not move memory accesses across
 * it, nor keep memory values cached in registers across it.  It emits
 * no instruction and gives no ordering between CPUs.
 */
#define cmm_barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)

/*
 * Volatile access to x: the compiler emits exactly one load or store
 * and does not merge or invent accesses.  It is not an atomic operation
 * as far as the C11 model or ThreadSanitizer are concerned; prefer
 * CMM_LOAD_SHARED()/CMM_STORE_SHARED() from <urcu/system.h> for data
 * shared between threads.
 */
#define CMM_ACCESS_ONCE(x)	(*(__typeof__(x) volatile *) &(x))

/* Larger/smaller of two values.  Each argument may be evaluated twice. */
#define caa_max(a, b)	((a) > (b) ? (a) : (b))
#define caa_min(a, b)	((a) < (b) ? (a) : (b))

/* Number of elements of a true array (not a pointer). */
#define CAA_ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

/* Width of "long" in bits; usable in #if. */
#if defined(__SIZEOF_LONG__) && defined(__CHAR_BIT__)
# define CAA_BITS_PER_LONG	(__SIZEOF_LONG__ * __CHAR_BIT__)
#elif defined(__LP64__) || defined(_LP64)
# define CAA_BITS_PER_LONG	64
#else
# define CAA_BITS_PER_LONG	32
#endif

/*
 * caa_container_of(ptr, type, member): given a pointer to the field
 * "member" embedded in an object of type "type", return a pointer to
 * the enclosing object.  The pointer type is checked against the field
 * type (a warning in C, an error in C++).
 */
#define caa_container_of(ptr, type, member)				\
	__extension__ ({						\
		const __typeof__(((type *) NULL)->member) *_caa_cof_p = (ptr); \
		(type *) ((char *) _caa_cof_p - offsetof(type, member)); \
	})

/*
 * Build-time assertions on constant expressions.
 * CAA_BUILD_BUG_ON_ZERO(cond) is a size_t expression equal to 0 that
 * fails to compile when cond is true; CAA_BUILD_BUG_ON(cond) is the same
 * as a void expression.  C uses a negative bit-field width; C++ forbids
 * defining a type inside sizeof, so it uses a negative array size.
 */
#ifdef __cplusplus
# define CAA_BUILD_BUG_ON_ZERO(cond)	\
	(sizeof(char[1 - 2 * !!(cond)]) * 0)
#else
# define CAA_BUILD_BUG_ON_ZERO(cond)	\
	(sizeof(struct { int _caa_bbo : 1 - 2 * !!(cond); }) * 0)
#endif
#define CAA_BUILD_BUG_ON(cond)	((void) CAA_BUILD_BUG_ON_ZERO(cond))

/*
 * urcu_static_assert(pred, msg, c_identifier): declaration-level
 * assertion.  Uses _Static_assert (C11) or static_assert (C++11);
 * older dialects get an array typedef whose size is negative when pred
 * is false, named after c_identifier so that the error points at it.
 * Use it at file or block scope, followed by a semicolon.
 */
#if defined(__cplusplus) && __cplusplus >= 201103L
# define urcu_static_assert(pred, msg, c_identifier)	\
	static_assert(pred, msg)
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && \
	__STDC_VERSION__ >= 201112L
# define urcu_static_assert(pred, msg, c_identifier)	\
	_Static_assert(pred, msg)
#else
# define urcu_static_assert(pred, msg, c_identifier)		\
	typedef char _urcu_static_assert_##c_identifier		\
		[(pred) ? 1 : -1] __attribute__((unused))
#endif

/* Marks RCU-protected pointers for readers of the code; expands to nothing. */
#define __rcu

/*
 * Cast that also works in C++, where a plain C cast between unrelated
 * pointer types is frowned upon and void * does not convert implicitly.
 */
#ifdef __cplusplus
# define URCU_FORCE_CAST(type, arg)	(reinterpret_cast<type>(arg))
#else
# define URCU_FORCE_CAST(type, arg)	((type) (arg))
#endif

/*
 * True when the (arithmetic) type is signed.  Compares with 1 rather
 * than 0 so that -Wtype-limits stays quiet for unsigned types.
 */
#define caa_is_signed_type(type)	(((type) -1) < (type) 1)

/*
 * Convert v to unsigned long.  Signed values are sign-extended first:
 * the C conversion rules already do this when converting a signed
 * integer to a wider (or equal width) unsigned type.
 */
#define caa_cast_long_keep_sign(v)	((unsigned long) (v))

/*
 * CMM_SANITIZE_THREAD is defined when the translation unit is built with
 * ThreadSanitizer (GCC's __SANITIZE_THREAD__, Clang's
 * __has_feature(thread_sanitizer)); <urcu/annotate.h> then tells TSan
 * about orderings it cannot see.  Define it yourself for a toolchain that
 * does not say so.
 */
#ifndef CMM_SANITIZE_THREAD
# if defined(__SANITIZE_THREAD__)
#  define CMM_SANITIZE_THREAD 1
# elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#   define CMM_SANITIZE_THREAD 1
#  endif
# endif
#endif

/* Deprecation marker carrying a message. */
#define CDS_DEPRECATED(msg)	__attribute__((deprecated(msg)))

/*
 * GCC version as one number (e.g. 120200 for 12.2.0), so that known
 * compiler bugs can be tested for.  Clang also defines __GNUC__ but is
 * not GCC, hence the exclusion.
 */
#if defined(__GNUC__) && !defined(__clang__)
# define URCU_GCC_VERSION	\
	(__GNUC__ * 10000 + __GNUC_MINOR__ * 100 + __GNUC_PATCHLEVEL__)
#endif

#endif /* _URCU_COMPILER_H */
