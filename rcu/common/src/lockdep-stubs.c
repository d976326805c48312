/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lockdep-stubs.c: the annotation calls of <urcu/lockdep.h> when the lock
 * validator is not loaded (liburcu-common).
 *
 * They do nothing.  liburcu-lockdep.so, loaded with LD_PRELOAD, defines
 * the same symbols; the dynamic linker finds its definitions first, so
 * every call made through the PLT (from programs and from the flavor
 * libraries) reaches the validator instead.  The flavors call these only
 * outside their fast paths: around each batch of call_rcu callbacks, and
 * once per call that may wait for a grace period (docs/lockdep.md,
 * "Cost when off").
 */
#include <urcu/lockdep.h>

#include "urcu-export.h"

URCU_API int urcu_lockdep_active(void)
{
	return 0;
}

URCU_API void urcu_lockdep_acquire(struct urcu_lockdep_class *cls,
		const void *lock, unsigned int flags)
{
	(void) cls;
	(void) lock;
	(void) flags;
}

URCU_API void urcu_lockdep_release(struct urcu_lockdep_class *cls,
		const void *lock)
{
	(void) cls;
	(void) lock;
}

URCU_API void urcu_lockdep_wait(struct urcu_lockdep_class *cls,
		const char *what)
{
	(void) cls;
	(void) what;
}
