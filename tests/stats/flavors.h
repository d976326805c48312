/*
 * The five flavors as seen by the statistics tests (tests/check_stats.c)
 * and their helper program (tests/helpers/stats_child.c): the flavor
 * table plus the prefixed functions that the table does not hold.
 */
#ifndef TESTS_STATS_FLAVORS_H
#define TESTS_STATS_FLAVORS_H

#include <pthread.h>
#include <stdio.h>

#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#include <urcu/stats.h>

struct stats_flavor {
	/* "memb", "mb", "signal", "qsbr" or "bp". */
	const char *name;
	const struct rcu_flavor_struct *fl;
	/* QSBR: an online registered thread holds grace periods back. */
	int is_qsbr;
	/* bp: readers need not register. */
	int is_bp;
	/* memb, bp: grace periods use membarrier(2) when the kernel can. */
	int uses_membarrier;

	int (*stats)(struct urcu_stats *out, size_t size);
	long (*stats_workers)(struct urcu_stats_worker *out, size_t max,
			      size_t size);
	void (*stats_print)(FILE *stream);

	struct call_rcu_data *(*create_call_rcu_data)(unsigned long flags,
						      int cpu_affinity);
	void (*call_rcu_data_free)(struct call_rcu_data *crdp);
	void (*set_thread_call_rcu_data)(struct call_rcu_data *crdp);
	pthread_t (*get_call_rcu_thread)(struct call_rcu_data *crdp);
};

enum stats_flavor_index {
	SF_MEMB = 0,
	SF_MB,
	SF_SIGNAL,
	SF_QSBR,
	SF_BP,
	N_STATS_FLAVORS
};

/* Indexed by enum stats_flavor_index; tests/stats/flavors.c. */
extern const struct stats_flavor stats_flavors[N_STATS_FLAVORS];

/* The flavor named @name, or NULL. */
const struct stats_flavor *stats_flavor_by_name(const char *name);

#endif /* TESTS_STATS_FLAVORS_H */
