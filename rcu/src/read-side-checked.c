/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * read-side-checked.c: the read side with its misuse checks, compiled into
 * release builds too, for URCU_DEBUG=1 in the environment (read-side.c
 * dispatches here).  Defining URCU_DEBUG before the flavor headers turns
 * the inline functions' checks on (urcu/static/urcu-misuse.h).  Compiled
 * once per flavor.
 */
#ifndef URCU_DEBUG
#define URCU_DEBUG 1
#endif
#include "flavor-internal.h"

void urcu__read_lock_checked(void)
{
	_rcu_read_lock();
}

#ifdef RCU_QSBR
void urcu__read_unlock_checked(void)
{
	_rcu_read_unlock();
}

void urcu__quiescent_state_checked(void)
{
	_rcu_quiescent_state();
}

void urcu__thread_offline_checked(void)
{
	_rcu_thread_offline();
}

void urcu__thread_online_checked(void)
{
	_rcu_thread_online();
}
#endif
