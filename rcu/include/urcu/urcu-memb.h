/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu-memb.h: the membarrier flavor (the default): near-free
 * readers, membarrier(2) on the update side.
 *
 * Declares the urcu_memb_* API.  Through <urcu.h> (which defines
 * URCU_API_MAP) the generic names rcu_read_lock(), synchronize_rcu(), ...
 * map onto it; included directly, only the prefixed names are visible so
 * that several flavors can be used in one translation unit.
 *
 * Threads that use the read side must call urcu_memb_register_thread()
 * first and urcu_memb_unregister_thread() before they exit.  Define
 * _LGPL_SOURCE before including to inline the read side.
 */
#ifndef _URCU_URCU_MEMB_H
#define _URCU_URCU_MEMB_H

#include <stdlib.h>
#include <pthread.h>

#include <urcu/pointer.h>
#include <urcu/flavor.h>
#include <urcu/call-rcu.h>
#include <urcu/defer.h>

#include <urcu/map/urcu-memb.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/urcu-memb.h>

#define urcu_memb_read_lock		_urcu_memb_read_lock
#define urcu_memb_read_unlock		_urcu_memb_read_unlock
#define urcu_memb_read_ongoing		_urcu_memb_read_ongoing
#endif

#ifdef __cplusplus
extern "C" {
#endif

#ifndef _LGPL_SOURCE
/*
 * Enter / leave a read-side critical section.  Sections nest.  Wait-free.
 * rcu_read_lock() orders the section's accesses after it; rcu_read_unlock()
 * orders them before it: a grace period that starts after a section began
 * ends only after the section's rcu_read_unlock().  Calling thread must be
 * registered.
 */
extern void urcu_memb_read_lock(void);
extern void urcu_memb_read_unlock(void);
/* Nonzero when the calling thread is inside a read-side section. */
extern int urcu_memb_read_ongoing(void);
#endif

/*
 * Wait for a grace period: returns after every read-side section that was
 * in progress when it was called has ended.  Everything the caller did
 * before the call happens before anything it does after it, for every
 * reader.  Concurrent callers share grace periods.  Must not be called
 * from inside a read-side section (aborts with a message).
 */
extern void urcu_memb_synchronize_rcu(void);

/* Register / unregister the calling thread as a reader.  Not nestable. */
extern void urcu_memb_register_thread(void);
extern void urcu_memb_unregister_thread(void);

/* Explicit initialisation; optional, the library initialises itself. */
extern void urcu_memb_init(void);

/*
 * 1 when grace periods use membarrier(2), 0 when readers fall back to
 * full fences (kernel without MEMBARRIER_CMD_PRIVATE_EXPEDITED, or
 * URCU_NO_MEMBARRIER=1 in the environment at start-up).  Read-only.
 */
extern int urcu_memb_has_sys_membarrier;

/* The flavor table, for flavor-agnostic data structures. */
extern const struct rcu_flavor_struct urcu_memb_flavor;

/* call_rcu, rcu_barrier, polling, defer_rcu: docs/call-rcu.md. */
_URCU_DECLARE_CALL_RCU(memb)
_URCU_DECLARE_DEFER(memb)

/* Quiescent states are implicit in this flavor: these do nothing. */
static inline void urcu_memb_quiescent_state(void)
{
}

static inline void urcu_memb_thread_offline(void)
{
}

static inline void urcu_memb_thread_online(void)
{
}

#ifdef __cplusplus
}
#endif

#ifndef URCU_API_MAP
#include <urcu/map/clear.h>
#endif

#endif /* _URCU_URCU_MEMB_H */
