/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * test_flavors[] (see flavors.h).  The flavor headers are included by
 * their own names, without <urcu.h>'s generic ones, so that all five fit
 * in this one file; the static headers give the grace-period words.
 */
#include <string.h>

#include <urcu/urcu-bp.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-signal.h>
#include <urcu/static/urcu-bp.h>
#include <urcu/static/urcu-mb.h>
#include <urcu/static/urcu-memb.h>
#include <urcu/static/urcu-qsbr.h>
#include <urcu/static/urcu-signal.h>

#include "flavors.h"

/*
 * The description of flavor @flv from its urcu_<flv>_* names; designated
 * initializers of the other members (.is_qsbr = true, ...) may follow.
 */
#define TEST_FLAVOR(flv, ...)						\
	{								\
		.name = #flv,						\
		.fl = &urcu_##flv##_flavor,				\
		.call_rcu = urcu_##flv##_call_rcu,			\
		.create_call_rcu_data = urcu_##flv##_create_call_rcu_data, \
		.call_rcu_data_free = urcu_##flv##_call_rcu_data_free,	\
		.get_default_call_rcu_data =				\
			urcu_##flv##_get_default_call_rcu_data,		\
		.get_cpu_call_rcu_data = urcu_##flv##_get_cpu_call_rcu_data, \
		.get_thread_call_rcu_data =				\
			urcu_##flv##_get_thread_call_rcu_data,		\
		.get_call_rcu_data = urcu_##flv##_get_call_rcu_data,	\
		.get_call_rcu_thread = urcu_##flv##_get_call_rcu_thread, \
		.set_thread_call_rcu_data =				\
			urcu_##flv##_set_thread_call_rcu_data,		\
		.set_cpu_call_rcu_data = urcu_##flv##_set_cpu_call_rcu_data, \
		.create_all_cpu_call_rcu_data =				\
			urcu_##flv##_create_all_cpu_call_rcu_data,	\
		.free_all_cpu_call_rcu_data =				\
			urcu_##flv##_free_all_cpu_call_rcu_data,	\
		.call_rcu_before_fork = urcu_##flv##_call_rcu_before_fork, \
		.call_rcu_after_fork_parent =				\
			urcu_##flv##_call_rcu_after_fork_parent,	\
		.call_rcu_after_fork_child =				\
			urcu_##flv##_call_rcu_after_fork_child,		\
		.barrier = urcu_##flv##_barrier,			\
		.start_poll_synchronize_rcu =				\
			urcu_##flv##_start_poll_synchronize_rcu,	\
		.poll_state_synchronize_rcu =				\
			urcu_##flv##_poll_state_synchronize_rcu,	\
		.defer_rcu = urcu_##flv##_defer_rcu,			\
		.defer_register_thread = urcu_##flv##_defer_register_thread, \
		.defer_unregister_thread =				\
			urcu_##flv##_defer_unregister_thread,		\
		.defer_barrier = urcu_##flv##_defer_barrier,		\
		.defer_barrier_thread = urcu_##flv##_defer_barrier_thread, \
		.stats = urcu_##flv##_stats,				\
		.stats_workers = urcu_##flv##_stats_workers,		\
		.stats_print = urcu_##flv##_stats_print,		\
		__VA_ARGS__						\
	}

const struct test_flavor test_flavors[N_TEST_FLAVORS] = {
	[TF_MEMB] = TEST_FLAVOR(memb,
		.gp_futex = &urcu_memb_gp.wake,
		.has_sys_membarrier = &urcu_memb_has_sys_membarrier),
	[TF_MB] = TEST_FLAVOR(mb,
		.gp_futex = &urcu_mb_gp.wake),
	[TF_SIGNAL] = TEST_FLAVOR(signal,
		.is_signal = true,
		.gp_futex = &urcu_signal_gp.wake),
	[TF_QSBR] = TEST_FLAVOR(qsbr,
		.is_qsbr = true,
		.gp_futex = &urcu_qsbr_gp.futex),
	[TF_BP] = TEST_FLAVOR(bp,
		.is_bp = true,
		.gp_futex = &urcu_bp_gp.wake,
		.has_sys_membarrier = &urcu_bp_has_sys_membarrier,
		.before_fork = urcu_bp_before_fork,
		.after_fork_parent = urcu_bp_after_fork_parent,
		.after_fork_child = urcu_bp_after_fork_child),
};

const struct test_flavor *test_flavor_by_name(const char *name)
{
	int i;

	for (i = 0; i < N_TEST_FLAVORS; i++)
		if (strcmp(test_flavors[i].name, name) == 0)
			return &test_flavors[i];
	return NULL;
}
