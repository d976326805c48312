/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu-qsbr.h: the quiescent-state-based (QSBR) flavor.
 *
 * The fastest read side: rcu_read_lock()/rcu_read_unlock() cost nothing.
 * In exchange every registered thread must regularly call
 * urcu_qsbr_quiescent_state() at points where it holds no RCU-protected
 * reference, and must bracket blocking calls with
 * urcu_qsbr_thread_offline() / urcu_qsbr_thread_online(); otherwise grace
 * periods (and synchronize_rcu callers) wait for it.
 *
 * Through <urcu-qsbr.h> the generic names map onto this flavor; included
 * directly, only the urcu_qsbr_* names are visible.  Define _LGPL_SOURCE
 * to inline the read side and the quiescent-state calls.
 */
#ifndef _URCU_URCU_QSBR_H
#define _URCU_URCU_QSBR_H

#include <stdlib.h>
#include <pthread.h>

#include <urcu/pointer.h>
#include <urcu/flavor.h>
#include <urcu/call-rcu.h>
#include <urcu/defer.h>

#include <urcu/map/urcu-qsbr.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-qsbr.h>

#define urcu_qsbr_read_lock		_urcu_qsbr_read_lock
#define urcu_qsbr_read_unlock		_urcu_qsbr_read_unlock
#define urcu_qsbr_read_ongoing		_urcu_qsbr_read_ongoing
#define urcu_qsbr_quiescent_state	_urcu_qsbr_quiescent_state
#define urcu_qsbr_thread_offline	_urcu_qsbr_thread_offline
#define urcu_qsbr_thread_online		_urcu_qsbr_thread_online
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef _LGPL_SOURCE
/*
 * Read-side section markers: no code in release builds.  A section must
 * not contain a quiescent state or an offline period.
 *
 * They compile to nothing here too, as in liburcu, unless the program is
 * built with URCU_DEBUG (or liburcu's DEBUG_RCU): then they call the
 * library, whose mode=debug build tracks the nesting for the misuse
 * checks.  The library exports both functions in every build.
 */
#if defined(URCU_DEBUG) || defined(DEBUG_RCU) || \
	defined(URCU_QSBR_BUILD_LIBRARY)
extern void urcu_qsbr_read_lock(void);
extern void urcu_qsbr_read_unlock(void);
#else
static inline void urcu_qsbr_read_lock(void)
{
}

static inline void urcu_qsbr_read_unlock(void)
{
}
#endif
/* Nonzero while the calling thread is online. */
extern int urcu_qsbr_read_ongoing(void);
/*
 * Announce that the calling thread holds no RCU-protected reference.
 * Accesses before it are ordered before the end of any grace period that
 * waits for it; accesses after it see every update that preceded the
 * grace period it reports to.
 */
extern void urcu_qsbr_quiescent_state(void);
/* An offline thread is ignored by grace periods; it may block freely. */
extern void urcu_qsbr_thread_offline(void);
extern void urcu_qsbr_thread_online(void);
#endif

/*
 * Wait for a grace period.  A registered, online caller is put offline for
 * the duration and back online afterwards.  Must not be called from inside
 * a read-side section.
 */
extern void urcu_qsbr_synchronize_rcu(void);

/* Register (online) / unregister the calling thread.  Not nestable. */
extern void urcu_qsbr_register_thread(void);
extern void urcu_qsbr_unregister_thread(void);

/* Explicit initialisation; optional, the library initialises itself. */
extern void urcu_qsbr_init(void);

/* The flavor table, for flavor-agnostic data structures. */
extern const struct rcu_flavor_struct urcu_qsbr_flavor;

/* call_rcu, rcu_barrier, polling, defer_rcu: docs/call-rcu.md. */
_URCU_DECLARE_CALL_RCU(qsbr)
_URCU_DECLARE_DEFER(qsbr)

#ifdef __cplusplus
}
#endif

#ifndef URCU_API_MAP
#include <urcu/map/clear.h>
#endif

#endif /* _URCU_URCU_QSBR_H */
