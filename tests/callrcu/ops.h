/*
 * Per-flavor operation tables for the call_rcu test suite
 * (tests/check_call_rcu.c).
 *
 * Each flavor header maps the short names (call_rcu, rcu_barrier, ...) to
 * its own prefixed symbols, so a translation unit can only use one flavor
 * by the short names.  tests/callrcu/<flavor>.c includes exactly one flavor
 * header and fills a `struct crcu_ops` from the prefixed names with
 * CRCU_OPS(); the suite calls everything through these pointers and loops
 * over crcu_ops_table[] with tcase_add_loop_test().
 *
 * Include the flavor header before this one (it declares the urcu_<fl>_*
 * functions CRCU_OPS() refers to).
 */
#ifndef TESTS_CALLRCU_OPS_H
#define TESTS_CALLRCU_OPS_H

#include <stdbool.h>
#include <pthread.h>

#include <urcu/flavor.h>
#include <urcu/call-rcu.h>
#include <urcu/stats.h>
#include <urcu/urcu-poll.h>

struct crcu_ops {
	/* "memb", "mb", "signal", "qsbr" or "bp". */
	const char *name;
	/* The flavor's table: read side, registration, synchronize_rcu. */
	const struct rcu_flavor_struct *fl;
	/* QSBR: an online registered thread holds grace periods back. */
	int is_qsbr;
	/* bp: no registration needed; fork needs urcu_bp_*_fork() too. */
	int is_bp;

	/* call_rcu and its workers. */
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
	/* Statistics: the workers and their counts (batches, invoked). */
	long (*stats_workers)(struct urcu_stats_worker *out, size_t max,
			      size_t size);

	/* Polled grace periods. */
	struct urcu_gp_poll_state (*start_poll_synchronize_rcu)(void);
	bool (*poll_state_synchronize_rcu)(struct urcu_gp_poll_state state);

	/* defer_rcu. */
	void (*defer_rcu)(void (*fct)(void *p), void *p);
	int (*defer_register_thread)(void);
	void (*defer_unregister_thread)(void);
	void (*defer_barrier)(void);
	void (*defer_barrier_thread)(void);

	/*
	 * Flavor-level fork hooks the application calls besides the call_rcu
	 * ones (bp only: urcu_bp_before_fork() and friends); NULL otherwise.
	 */
	void (*flavor_before_fork)(void);
	void (*flavor_after_fork_parent)(void);
	void (*flavor_after_fork_child)(void);
};

/*
 * Initializer of a `struct crcu_ops` for flavor @flv from its urcu_<flv>_*
 * names; further designated initializers (.is_qsbr = 1, ...) may follow.
 */
#define CRCU_OPS(flv, ...)						\
{									\
	.name = #flv,							\
	.fl = &urcu_##flv##_flavor,					\
	.call_rcu = urcu_##flv##_call_rcu,				\
	.create_call_rcu_data = urcu_##flv##_create_call_rcu_data,	\
	.call_rcu_data_free = urcu_##flv##_call_rcu_data_free,		\
	.get_default_call_rcu_data = urcu_##flv##_get_default_call_rcu_data, \
	.get_cpu_call_rcu_data = urcu_##flv##_get_cpu_call_rcu_data,	\
	.get_thread_call_rcu_data = urcu_##flv##_get_thread_call_rcu_data, \
	.get_call_rcu_data = urcu_##flv##_get_call_rcu_data,		\
	.get_call_rcu_thread = urcu_##flv##_get_call_rcu_thread,	\
	.set_thread_call_rcu_data = urcu_##flv##_set_thread_call_rcu_data, \
	.set_cpu_call_rcu_data = urcu_##flv##_set_cpu_call_rcu_data,	\
	.create_all_cpu_call_rcu_data = urcu_##flv##_create_all_cpu_call_rcu_data, \
	.free_all_cpu_call_rcu_data = urcu_##flv##_free_all_cpu_call_rcu_data, \
	.call_rcu_before_fork = urcu_##flv##_call_rcu_before_fork,	\
	.call_rcu_after_fork_parent = urcu_##flv##_call_rcu_after_fork_parent, \
	.call_rcu_after_fork_child = urcu_##flv##_call_rcu_after_fork_child, \
	.barrier = urcu_##flv##_barrier,					\
	.stats_workers = urcu_##flv##_stats_workers,			\
	.start_poll_synchronize_rcu = urcu_##flv##_start_poll_synchronize_rcu, \
	.poll_state_synchronize_rcu = urcu_##flv##_poll_state_synchronize_rcu, \
	.defer_rcu = urcu_##flv##_defer_rcu,				\
	.defer_register_thread = urcu_##flv##_defer_register_thread,	\
	.defer_unregister_thread = urcu_##flv##_defer_unregister_thread, \
	.defer_barrier = urcu_##flv##_defer_barrier,			\
	.defer_barrier_thread = urcu_##flv##_defer_barrier_thread,	\
	__VA_ARGS__							\
}

enum crcu_flavor_index {
	CRCU_MEMB = 0,
	CRCU_MB,
	CRCU_SIGNAL,
	CRCU_QSBR,
	CRCU_BP,
	N_CRCU_FLAVORS
};

extern const struct crcu_ops crcu_ops_memb;
extern const struct crcu_ops crcu_ops_mb;
extern const struct crcu_ops crcu_ops_signal;
extern const struct crcu_ops crcu_ops_qsbr;
extern const struct crcu_ops crcu_ops_bp;

/* Indexed by enum crcu_flavor_index; tests/callrcu/table.c. */
extern const struct crcu_ops *const crcu_ops_table[N_CRCU_FLAVORS];

#endif /* TESTS_CALLRCU_OPS_H */
