/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/ref.h: atomic reference counts, typically for objects found under
 * rcu_read_lock() that must outlive the read-side section.
 *
 * urcu_ref_get_unless_zero() is the RCU idiom: inside a read-side section
 * an object whose count already dropped to zero may still be reachable,
 * and must not be revived.
 */
#ifndef _URCU_REF_H
#define _URCU_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include <urcu/compiler.h>

#ifdef __cplusplus
extern "C" {
#endif

struct urcu_ref {
	long refcount;
};

static inline void urcu_ref_set(struct urcu_ref *ref, long val)
{
	/* Relaxed: setting up a count publishes nothing by itself. */
	__atomic_store_n(&ref->refcount, val, __ATOMIC_RELAXED);
}

static inline void urcu_ref_init(struct urcu_ref *ref)
{
	urcu_ref_set(ref, 1);
}

/*
 * Increment unless the count is @floor or saturated; returns whether it
 * incremented.  Relaxed: taking a reference orders nothing (the caller
 * already reaches the object through RCU or another reference).
 */
static inline bool _urcu_ref_get_above(struct urcu_ref *ref, long floor)
{
	long old = __atomic_load_n(&ref->refcount, __ATOMIC_RELAXED);

	do {
		if (old <= floor || old == LONG_MAX)
			return false;
	} while (!__atomic_compare_exchange_n(&ref->refcount, &old, old + 1,
					      true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

/* Take a reference; false when the count would overflow. */
static inline bool __attribute__((warn_unused_result))
urcu_ref_get_safe(struct urcu_ref *ref)
{
	return _urcu_ref_get_above(ref, LONG_MIN);
}

/* Take a reference; aborts on overflow. */
static inline void urcu_ref_get(struct urcu_ref *ref)
{
	if (!urcu_ref_get_safe(ref))
		abort();
}

/* Take a reference unless the count already dropped to zero. */
static inline bool urcu_ref_get_unless_zero(struct urcu_ref *ref)
{
	return _urcu_ref_get_above(ref, 0);
}

/*
 * Drop a reference; the last one calls @release.  Acq_rel: the release
 * half orders our uses of the object before the decrement, the acquire
 * half orders every other holder's uses before @release.
 */
static inline void urcu_ref_put(struct urcu_ref *ref,
		void (*release)(struct urcu_ref *))
{
	long res = __atomic_sub_fetch(&ref->refcount, 1, __ATOMIC_ACQ_REL);

	if (caa_unlikely(res < 0))
		abort();	/* more puts than gets */
	if (res == 0)
		release(ref);
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_REF_H */
