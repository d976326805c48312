/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/defer.h: deferred reclamation from the calling thread.
 *
 * defer_rcu(fct, p) records fct(p) in the calling thread's queue; it runs
 * after a grace period, either from a background thread that drains all
 * queues periodically, or from the caller itself when its queue is full
 * (then defer_rcu() blocks for a grace period).  Because it may wait for a
 * grace period, defer_rcu() must not be called from a read-side section
 * nor, for QSBR, by a thread acting as a reader; use call_rcu() there.
 *
 * Declared per flavor by the flavor headers (urcu_memb_defer_rcu(), ...);
 * the generic names map through <urcu.h> and friends.  docs/call-rcu.md
 * documents the API.
 */
#ifndef _URCU_DEFER_H
#define _URCU_DEFER_H

#include <stdlib.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declares the defer_rcu API of one flavor; used by the flavor headers. */
#define _URCU_DECLARE_DEFER(fl)						\
extern void urcu_##fl##_defer_rcu(void (*fct)(void *p), void *p);	\
extern int urcu_##fl##_defer_register_thread(void);			\
extern void urcu_##fl##_defer_unregister_thread(void);			\
extern void urcu_##fl##_defer_barrier(void);				\
extern void urcu_##fl##_defer_barrier_thread(void);		\
/* Kept for source compatibility; does nothing. */			\
extern void urcu_##fl##_defer_exit(void);

#ifdef __cplusplus
}
#endif

#endif /* _URCU_DEFER_H */
