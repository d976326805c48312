/*
 * The flavor list of tests/stats/flavors.h.  The flavor headers are
 * included directly, without the generic names, so that all five fit in
 * one translation unit.
 */
#include <string.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-signal.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>

#include "flavors.h"

#define STATS_FLAVOR(flv, ...)						\
	{								\
		.name = #flv,						\
		.fl = &urcu_##flv##_flavor,				\
		.stats = urcu_##flv##_stats,				\
		.stats_workers = urcu_##flv##_stats_workers,		\
		.stats_print = urcu_##flv##_stats_print,		\
		.create_call_rcu_data = urcu_##flv##_create_call_rcu_data, \
		.call_rcu_data_free = urcu_##flv##_call_rcu_data_free,	\
		.set_thread_call_rcu_data =				\
			urcu_##flv##_set_thread_call_rcu_data,		\
		.get_call_rcu_thread = urcu_##flv##_get_call_rcu_thread, \
		__VA_ARGS__						\
	}

const struct stats_flavor stats_flavors[N_STATS_FLAVORS] = {
	[SF_MEMB] = STATS_FLAVOR(memb, .uses_membarrier = 1),
	[SF_MB] = STATS_FLAVOR(mb),
	[SF_SIGNAL] = STATS_FLAVOR(signal),
	[SF_QSBR] = STATS_FLAVOR(qsbr, .is_qsbr = 1),
	[SF_BP] = STATS_FLAVOR(bp, .is_bp = 1, .uses_membarrier = 1),
};

const struct stats_flavor *stats_flavor_by_name(const char *name)
{
	int i;

	for (i = 0; i < N_STATS_FLAVORS; i++)
		if (strcmp(stats_flavors[i].name, name) == 0)
			return &stats_flavors[i];
	return NULL;
}
