/*
 * Flavor tables for the flavor test suite (tests/check_flavors.c).
 *
 * Every flavor header (<urcu/urcu-memb.h>, <urcu/urcu-qsbr.h>, ...) maps
 * the generic API names (rcu_read_lock, synchronize_rcu, rcu_flavor, ...)
 * onto its own prefixed symbols, so only one flavor can be included per
 * translation unit.  Each file in tests/flavors/ therefore includes exactly
 * one flavor header and publishes a `struct test_flavor` describing it; the
 * suite itself only calls through `const struct rcu_flavor_struct *`.
 *
 * Include order matters in the per-flavor files: the flavor header has to
 * come before this one, because <urcu/flavor.h> is include-guarded and the
 * first inclusion decides which name its `rcu_flavor` declaration maps to.
 */
#ifndef TESTS_FLAVORS_FLAVORS_H
#define TESTS_FLAVORS_FLAVORS_H

#include <stdint.h>

#include <urcu/flavor.h>

struct test_flavor {
	/* Short flavor name: "memb", "mb", "signal", "qsbr" or "bp". */
	const char *name;
	/* The flavor's exported table, e.g. &urcu_memb_flavor. */
	const struct rcu_flavor_struct *fl;
	/*
	 * QSBR: read_lock/read_unlock are markers only; a registered thread
	 * is a reader whenever it is online, so it has to announce quiescent
	 * states (read_quiescent_state) or go offline for grace periods to end.
	 */
	int is_qsbr;
	/* bp: threads need not register; read_lock registers on first use. */
	int is_bp;
	/* signal: the updater interrupts registered readers with a signal. */
	int is_signal;
	/*
	 * The word of the flavor's grace-period state (struct urcu_gp)
	 * through which readers wake a sleeping updater where it does not
	 * interrupt them: the futex word for QSBR, the wake word for mb, and
	 * for memb and bp on the fence fallback.  Updaters that interrupt
	 * their readers poll and never arm it.
	 */
	int32_t *gp_futex;
	/* memb, bp: the flavor's flag "grace periods use membarrier(2)". */
	const int *has_sys_membarrier;
};

enum test_flavor_index {
	TF_MEMB = 0,
	TF_MB,
	TF_SIGNAL,
	TF_QSBR,
	TF_BP,
	N_TEST_FLAVORS
};

/*
 * Defines test_flavor_<flv>, the description of flavor @flv, from its
 * urcu_<flv>_flavor table; designated initializers of the flags
 * (.is_qsbr = 1, ...) may follow.  Flags not given are 0.
 */
#define TEST_FLAVOR(flv, ...)						\
	/* Normally declared through <urcu/flavor.h> and the name map. */ \
	extern const struct rcu_flavor_struct urcu_##flv##_flavor;	\
	const struct test_flavor test_flavor_##flv = {			\
		.name = #flv,						\
		.fl = &urcu_##flv##_flavor,				\
		__VA_ARGS__						\
	}

extern const struct test_flavor test_flavor_memb;
extern const struct test_flavor test_flavor_mb;
extern const struct test_flavor test_flavor_signal;
extern const struct test_flavor test_flavor_qsbr;
extern const struct test_flavor test_flavor_bp;

/* Indexed by enum test_flavor_index; defined in tests/flavors/table.c. */
extern const struct test_flavor *const test_flavors[N_TEST_FLAVORS];

#endif /* TESTS_FLAVORS_FLAVORS_H */
