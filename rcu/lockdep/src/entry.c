/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * entry.c: the flavors' defer_rcu(), wrapped.
 *
 * defer_rcu() drains the caller's queue itself when it is full: it then
 * waits for a grace period and runs deferred functions, which may take
 * any lock.  So every call counts as a wait for rcu_defer(F) (and through
 * it for rcu_read(F)), although few calls drain.  The flavors announce
 * their other waits themselves (rcu/src/lockdep-hooks.h); this one is
 * called too often for a call to an empty function to go unnoticed when
 * the validator is not loaded, so the validator interposes the function
 * instead.  Calls from inside a flavor library do not go through here,
 * but the library makes none.
 */
#include "lockdep.h"

#define LD_DEFER_RCU(flavor, index)					\
LD_API void urcu_##flavor##_defer_rcu(void (*fct)(void *p), void *p)	\
{									\
	static void (*real)(void (*)(void *), void *);			\
	uintptr_t ip = (uintptr_t) __builtin_return_address(0);		\
	struct ld_thread *t;						\
									\
	LD_NEXT(real, "urcu_" #flavor "_defer_rcu");			\
	if (!ld_bypass()) {						\
		t = ld_thread_enter();					\
		ld_flavors_init();	/* called before start-up? */	\
		ld_wait(t, ld_flavor_defer_class(index), "defer_rcu()", ip); \
		ld_thread_leave(t);					\
	}								\
	real(fct, p);							\
}

LD_DEFER_RCU(memb, LD_FLAVOR_MEMB)
LD_DEFER_RCU(mb, LD_FLAVOR_MB)
LD_DEFER_RCU(signal, LD_FLAVOR_SIGNAL)
LD_DEFER_RCU(qsbr, LD_FLAVOR_QSBR)
LD_DEFER_RCU(bp, LD_FLAVOR_BP)
