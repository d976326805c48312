/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lockdep-hooks.h: what a flavor tells the lock validator (docs/lockdep.md).
 *
 * The validator models each flavor with three pseudo-locks, named after
 * the flavor so that its own classes (rcu/lockdep/src/flavors.c) are the
 * same ones:
 *
 *   rcu_read(F)      held by every thread inside a read-side section of F
 *                    (QSBR: every online thread).  The read side is inline
 *                    and cannot call anything, so the validator asks
 *                    rcu_read_ongoing() itself; the flavor only says
 *                    where it waits for a grace period.
 *   rcu_callback(F)  held by a call_rcu worker while it runs callbacks.
 *   rcu_defer(F)     held by a defer_rcu drainer while it runs deferred
 *                    functions (it also holds defer_mutex then).
 *
 * Every call that may wait for one of them says so first, with
 * urcu_lockdep_wait(), before its own misuse checks, so that a report
 * names the locks the caller holds before the flavor aborts.  Without the
 * validator these are calls to empty functions in liburcu-common, made
 * only outside the fast paths.  defer_rcu(), which may drain its queue
 * but rarely does, is the exception: the validator wraps the flavors'
 * defer_rcu() itself (rcu/lockdep/src/entry.c), so that it costs nothing
 * when the validator is not loaded.
 */
#ifndef URCU_SRC_LOCKDEP_HOOKS_H
#define URCU_SRC_LOCKDEP_HOOKS_H

#include <urcu/lockdep.h>

#include "urcu-export.h"

/* The flavor's pseudo-lock classes (gp-core.c); see above. */
#define urcu__lockdep_read		URCU__FLAVOR_SYM(lockdep_read)
#define urcu__lockdep_callback		URCU__FLAVOR_SYM(lockdep_callback)
#define urcu__lockdep_defer		URCU__FLAVOR_SYM(lockdep_defer)
extern URCU_HIDDEN struct urcu_lockdep_class urcu__lockdep_read;
extern URCU_HIDDEN struct urcu_lockdep_class urcu__lockdep_callback;
extern URCU_HIDDEN struct urcu_lockdep_class urcu__lockdep_defer;

/* @what (e.g. "synchronize_rcu()") waits for a grace period. */
static inline void urcu__lockdep_wait_gp(const char *what)
{
	urcu_lockdep_wait(&urcu__lockdep_read, what);
}

/*
 * @what waits for callbacks queued before it to have run (for the worker
 * running them, and, as the validator knows, for the grace period they
 * wait for).
 */
static inline void urcu__lockdep_wait_callbacks(const char *what)
{
	urcu_lockdep_wait(&urcu__lockdep_callback, what);
}

/* The same for defer_rcu()'s deferred functions. */
static inline void urcu__lockdep_wait_deferred(const char *what)
{
	urcu_lockdep_wait(&urcu__lockdep_defer, what);
}

#endif /* URCU_SRC_LOCKDEP_HOOKS_H */
