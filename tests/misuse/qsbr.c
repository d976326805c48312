/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inline misuse of the qsbr flavor; see misuse.h. */
#define _LGPL_SOURCE
#ifndef URCU_DEBUG
#define URCU_DEBUG 1
#endif
#include <urcu-qsbr.h>

#include "misuse.h"

void misuse_qsbr_unlock_without_lock(void)
{
	rcu_register_thread();
	rcu_read_unlock();
}

void misuse_qsbr_lock_unregistered(void)
{
	rcu_read_lock();
}

void misuse_qsbr_quiescent_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_quiescent_state();
}

void misuse_qsbr_offline_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_thread_offline();
}

/*
 * The library's own checks of these calls see the nesting the inline
 * read side tracked, even in a release build of the library.
 */
void misuse_qsbr_synchronize_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	synchronize_rcu();
}

void misuse_qsbr_barrier_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_barrier();
}

void misuse_qsbr_unregister_in_section(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_unregister_thread();
}
