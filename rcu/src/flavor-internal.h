/*
 * flavor-internal.h: what the per-flavor support code (call_rcu, defer_rcu,
 * polling) sees of the flavor it is built for.
 *
 * Those files are compiled once per flavor with the flavor's -DRCU_*
 * define, like the flavor itself.  This header includes that flavor's API
 * with the generic names mapped (so the code says synchronize_rcu() and
 * rcu_read_lock()) and names the hidden hooks the flavor provides to them.
 * Internal cross-file symbols carry the flavor in their name
 * (urcu_memb__fork_prepare, ...) so that the static libraries of several
 * flavors can be linked into one program.
 */
#ifndef URCU_SRC_FLAVOR_INTERNAL_H
#define URCU_SRC_FLAVOR_INTERNAL_H

#include <stdbool.h>

#define URCU_API_MAP
#if defined(RCU_QSBR)
#include <urcu/urcu-qsbr.h>
#include <urcu/static/urcu-qsbr.h>
#define URCU__FLAVOR_NAME	qsbr
#elif defined(RCU_BP)
#include <urcu/urcu-bp.h>
#include <urcu/static/urcu-bp.h>
#define URCU__FLAVOR_NAME	bp
#elif defined(RCU_MEMBARRIER)
#include <urcu/urcu.h>
#include <urcu/static/urcu-memb.h>
#define URCU__FLAVOR_NAME	memb
#elif defined(RCU_MB)
#include <urcu/urcu.h>
#include <urcu/static/urcu-mb.h>
#define URCU__FLAVOR_NAME	mb
#elif defined(RCU_SIGNAL)
#include <urcu/urcu.h>
#include <urcu/static/urcu-signal.h>
#define URCU__FLAVOR_NAME	signal
#else
#error "build with one of RCU_MEMBARRIER, RCU_MB, RCU_SIGNAL, RCU_QSBR, RCU_BP"
#endif

#define URCU__CAT3(a, b, c)	a##b##c
#define URCU__XCAT3(a, b, c)	URCU__CAT3(a, b, c)
/* urcu_<flavor>__<name>: hidden symbol shared by the flavor's files. */
#define URCU__FLAVOR_SYM(name)	URCU__XCAT3(urcu_, URCU__FLAVOR_NAME, __##name)

#include "gp-synchronize.h"
#include "reader-registry.h"

/* The flavor's reader registry and grace-period state (gp-core.c). */
#define urcu__flavor_registry		URCU__FLAVOR_SYM(registry)
#define urcu__flavor_gp_state		URCU__FLAVOR_SYM(gp_state)
extern struct urcu__registry urcu__flavor_registry;
extern struct urcu__gp_state urcu__flavor_gp_state;

/*
 * Fork hooks of the grace-period machinery (gp-synchronize.h), called by
 * call_rcu_before_fork() and friends.  The bp flavor has public hooks of
 * its own that its users call themselves, so there these do nothing.
 */
#define urcu__flavor_fork_prepare	URCU__FLAVOR_SYM(fork_prepare)
#define urcu__flavor_fork_parent	URCU__FLAVOR_SYM(fork_parent)
#define urcu__flavor_fork_child		URCU__FLAVOR_SYM(fork_child)
void urcu__flavor_fork_prepare(void);
void urcu__flavor_fork_parent(void);
void urcu__flavor_fork_child(void);

/*
 * One-time set-up of the flavor (registry key, membarrier registration,
 * signal handler), run by rcu_init() through pthread_once (gp-core.c).
 */
#define urcu__flavor_init		URCU__FLAVOR_SYM(init)
void urcu__flavor_init(void);

/* Grace-period sequence (urcu__gp_seq()), for the polling API. */
#define urcu__flavor_gp_seq		URCU__FLAVOR_SYM(gp_seq)
unsigned long urcu__flavor_gp_seq(void);

/*
 * A QSBR thread about to wait for a grace period, or for a thread that
 * waits for one, must be offline, or the grace period would wait for it.
 * Returns whether the caller was online; other flavors do nothing.
 */
static inline bool urcu__offline_for_wait(void)
{
#ifdef RCU_QSBR
	bool was_online = URCU_TLS(rcu_reader).ctr != 0;

	if (was_online)
		rcu_thread_offline();
	return was_online;
#else
	return false;
#endif
}

static inline void urcu__online_after_wait(bool was_online)
{
#ifdef RCU_QSBR
	if (was_online)
		rcu_thread_online();
#else
	(void) was_online;
#endif
}

#endif /* URCU_SRC_FLAVOR_INTERNAL_H */
