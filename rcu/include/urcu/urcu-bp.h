/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu-bp.h: the bullet-proof flavor.
 *
 * Readers need no registration: a thread's first rcu_read_lock()
 * registers it and thread exit unregisters it, so code that does not
 * control its callers' threads (a library) can use RCU safely.  Reads cost
 * a little more than memb (a registration check) and the update side uses
 * membarrier(2) like memb.
 *
 * A program that forks while other threads may be inside this library
 * must call urcu_bp_before_fork() before fork() and
 * urcu_bp_after_fork_parent() / urcu_bp_after_fork_child() after it (for
 * instance from pthread_atfork handlers).
 *
 * Through <urcu-bp.h> the generic names map onto this flavor; included
 * directly, only the urcu_bp_* names are visible.
 */
#ifndef _URCU_URCU_BP_H
#define _URCU_URCU_BP_H

#include <stdlib.h>
#include <pthread.h>

#include <urcu/pointer.h>
#include <urcu/flavor.h>
#include <urcu/call-rcu.h>
#include <urcu/defer.h>

#include <urcu/map/urcu-bp.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-bp.h>

#define urcu_bp_read_lock		_urcu_bp_read_lock
#define urcu_bp_read_unlock		_urcu_bp_read_unlock
#define urcu_bp_read_ongoing		_urcu_bp_read_ongoing
#endif

/*
 * The pointer operations under this flavor's prefix, as liburcu names
 * them: the calls of <urcu/pointer.h>, which need no flavor.
 */
#define urcu_bp_dereference		rcu_dereference
#define urcu_bp_cmpxchg_pointer		rcu_cmpxchg_pointer
#define urcu_bp_xchg_pointer		rcu_xchg_pointer
#define urcu_bp_set_pointer		rcu_set_pointer

#ifdef __cplusplus
extern "C" {
#endif

#ifndef _LGPL_SOURCE
/* Enter / leave a read-side section (registers the thread if needed). */
extern void urcu_bp_read_lock(void);
extern void urcu_bp_read_unlock(void);
extern int urcu_bp_read_ongoing(void);
#endif

/* Wait for a grace period; see urcu_memb_synchronize_rcu(). */
extern void urcu_bp_synchronize_rcu(void);

/* Fork protection; see the header comment. */
extern void urcu_bp_before_fork(void);
extern void urcu_bp_after_fork_parent(void);
extern void urcu_bp_after_fork_child(void);

/*
 * Registration is automatic.  urcu_bp_register_thread() registers the
 * calling thread ahead of its first read-side section;
 * urcu_bp_unregister_thread() does nothing (exit unregisters).
 */
extern void urcu_bp_register_thread(void);
extern void urcu_bp_unregister_thread(void);

/* Explicit initialisation; optional, the library initialises itself. */
extern void urcu_bp_init(void);

/*
 * 1 when grace periods use membarrier(2), 0 when readers fall back to
 * full fences (kernel without MEMBARRIER_CMD_PRIVATE_EXPEDITED, or
 * URCU_NO_MEMBARRIER=1 in the environment at start-up).  Read-only.
 */
extern int urcu_bp_has_sys_membarrier;

/* The flavor table, for flavor-agnostic data structures. */
extern const struct rcu_flavor_struct urcu_bp_flavor;

/* call_rcu, rcu_barrier, polling, defer_rcu: docs/call-rcu.md. */
_URCU_DECLARE_CALL_RCU(bp)
_URCU_DECLARE_DEFER(bp)

/* Quiescent states are implicit in this flavor: these do nothing. */
static inline void urcu_bp_quiescent_state(void)
{
}

static inline void urcu_bp_thread_offline(void)
{
}

static inline void urcu_bp_thread_online(void)
{
}

#ifdef __cplusplus
}
#endif

#ifndef URCU_API_MAP
#include <urcu/map/clear.h>
#endif

#endif /* _URCU_URCU_BP_H */
