/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The five RCU flavors as every test sees them: one description per
 * flavor (struct test_flavor), used by the Check suites, their helper
 * programs and the torture programs (tests/flavors/flavors.c).
 *
 * A flavor header such as <urcu.h> maps the generic names (rcu_read_lock,
 * call_rcu, ...) onto its flavor's symbols, so a test that names them can
 * only use one flavor.  Through these descriptions a test reaches any
 * flavor: the read side, registration and grace periods through the
 * flavor's exported table (fl, <urcu/flavor.h>), and the calls that table
 * does not hold (call_rcu workers, defer_rcu, polling, statistics, fork
 * hooks) through the prefixed functions below.  A loop test picks the
 * flavor with its index: &test_flavors[_i].
 */
#ifndef TESTS_FLAVORS_FLAVORS_H
#define TESTS_FLAVORS_FLAVORS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#include <urcu/stats.h>
#include <urcu/urcu-poll.h>

struct test_flavor {
	/* "memb", "mb", "signal", "qsbr" or "bp". */
	const char *name;
	/* The flavor's exported table, e.g. &urcu_memb_flavor. */
	const struct rcu_flavor_struct *fl;
	/*
	 * QSBR: read_lock/read_unlock are markers only; a registered thread
	 * is a reader whenever it is online, so it has to announce quiescent
	 * states (read_quiescent_state) or go offline for grace periods to
	 * end.  The other flavors' read_quiescent_state, thread_offline and
	 * thread_online do nothing.
	 */
	bool is_qsbr;
	/* bp: threads need not register; read_lock registers on first use. */
	bool is_bp;
	/* signal: the updater interrupts registered readers with a signal. */
	bool is_signal;
	/*
	 * memb, bp: the flavor's flag "grace periods use membarrier(2)"
	 * (set at start-up); NULL for the flavors that never use it.
	 */
	const int *has_sys_membarrier;
	/*
	 * The word of the flavor's grace-period state (struct urcu_gp)
	 * through which readers wake a sleeping updater where it does not
	 * interrupt them: the futex word for QSBR, the wake word for mb, and
	 * for memb and bp on the fence fallback.  Updaters that interrupt
	 * their readers poll and never arm it.
	 */
	int32_t *gp_futex;

	/* call_rcu and its workers (<urcu/call-rcu.h>). */
	void (*call_rcu)(struct rcu_head *head,
			 void (*func)(struct rcu_head *head));
	struct call_rcu_data *(*create_call_rcu_data)(unsigned long flags,
						      int cpu_affinity);
	void (*call_rcu_data_free)(struct call_rcu_data *crdp);
	struct call_rcu_data *(*get_default_call_rcu_data)(void);
	struct call_rcu_data *(*get_cpu_call_rcu_data)(int cpu);
	struct call_rcu_data *(*get_thread_call_rcu_data)(void);
	struct call_rcu_data *(*get_call_rcu_data)(void);
	pthread_t (*get_call_rcu_thread)(struct call_rcu_data *crdp);
	void (*set_thread_call_rcu_data)(struct call_rcu_data *crdp);
	int (*set_cpu_call_rcu_data)(int cpu, struct call_rcu_data *crdp);
	int (*create_all_cpu_call_rcu_data)(unsigned long flags);
	void (*free_all_cpu_call_rcu_data)(void);
	void (*call_rcu_before_fork)(void);
	void (*call_rcu_after_fork_parent)(void);
	void (*call_rcu_after_fork_child)(void);
	void (*barrier)(void);

	/* Polled grace periods (<urcu/urcu-poll.h>). */
	struct urcu_gp_poll_state (*start_poll_synchronize_rcu)(void);
	bool (*poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);

	/* defer_rcu (<urcu/defer.h>). */
	void (*defer_rcu)(void (*fct)(void *p), void *p);
	int (*defer_register_thread)(void);
	void (*defer_unregister_thread)(void);
	void (*defer_barrier)(void);
	void (*defer_barrier_thread)(void);

	/* Statistics (<urcu/stats.h>). */
	int (*stats)(struct urcu_stats *out, size_t size);
	long (*stats_workers)(struct urcu_stats_worker *out, size_t max,
			      size_t size);
	void (*stats_print)(FILE *stream);

	/*
	 * Flavor-level fork hooks the application calls besides the call_rcu
	 * ones (bp only: urcu_bp_before_fork() and friends); NULL otherwise.
	 */
	void (*before_fork)(void);
	void (*after_fork_parent)(void);
	void (*after_fork_child)(void);
};

/* Indexes of test_flavors[], the order every loop test runs them in. */
enum test_flavor_index {
	TF_MEMB = 0,
	TF_MB,
	TF_SIGNAL,
	TF_QSBR,
	TF_BP,
	N_TEST_FLAVORS
};

extern const struct test_flavor test_flavors[N_TEST_FLAVORS];

/* The flavor called @name, or NULL. */
const struct test_flavor *test_flavor_by_name(const char *name);

#endif /* TESTS_FLAVORS_FLAVORS_H */
