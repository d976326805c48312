/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-core.c: the grace-period state of one flavor, its initialisation, and
 * the hooks the flavor's support code (call-rcu.c) uses.  Compiled once
 * per flavor.
 */
#include <stdlib.h>
#include <string.h>

#include "flavor-internal.h"
#include "urcu-export.h"

struct urcu__registry urcu__flavor_registry =
	URCU__REGISTRY_INIT(urcu__flavor_registry);
struct urcu__gp_state urcu__flavor_gp_state = URCU__GP_STATE_INIT;

int urcu__flavor_checked;

/* The flavor's pseudo-locks for the lock validator (lockdep-hooks.h). */
struct urcu_lockdep_class urcu__lockdep_read =
	URCU_LOCKDEP_CLASS_INIT("rcu_read(" URCU__FLAVOR_STR ")");
struct urcu_lockdep_class urcu__lockdep_callback =
	URCU_LOCKDEP_CLASS_INIT("rcu_callback(" URCU__FLAVOR_STR ")");
struct urcu_lockdep_class urcu__lockdep_defer =
	URCU_LOCKDEP_CLASS_INIT("rcu_defer(" URCU__FLAVOR_STR ")");

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* URCU_DEBUG set to anything but "" or "0". */
static int checks_from_env(void)
{
	const char *v = getenv("URCU_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

static void init_flavor(void)
{
	/* Relaxed: see urcu__flavor_checked in flavor-internal.h. */
	__atomic_store_n(&urcu__flavor_checked, checks_from_env(),
			 __ATOMIC_RELAXED);
	/* Relaxed: see struct urcu__gp_state. */
	__atomic_store_n(&urcu__flavor_gp_state.stall_timeout_ns,
			 urcu__stall_timeout_from_env(URCU__FLAVOR_STR),
			 __ATOMIC_RELAXED);
	urcu__flavor_init();
}

URCU_API void rcu_init(void)
{
	int err = pthread_once(&init_once, init_flavor);

	if (err)
		urcu__die("pthread_once", err);
}

/* Initialise at load time, before the program's threads use the flavor. */
__attribute__((constructor))
static void flavor_constructor(void)
{
	rcu_init();
}

#ifdef RCU_BP
/* bp users call urcu_bp_before_fork() and friends themselves. */
void urcu__flavor_fork_prepare(void)
{
}

void urcu__flavor_fork_parent(void)
{
}

void urcu__flavor_fork_child(void)
{
}
#else
void urcu__flavor_fork_prepare(void)
{
	urcu__gp_fork_prepare(&urcu__flavor_gp_state, &urcu__flavor_registry);
}

void urcu__flavor_fork_parent(void)
{
	urcu__gp_fork_parent(&urcu__flavor_gp_state, &urcu__flavor_registry);
}

void urcu__flavor_fork_child(void)
{
	urcu__gp_fork_child(&urcu__flavor_gp_state, &urcu__flavor_registry,
			    &rcu_gp, &URCU_TLS(rcu_reader));
}
#endif

unsigned long urcu__flavor_gp_seq(void)
{
	return urcu__gp_seq(&urcu__flavor_gp_state);
}
