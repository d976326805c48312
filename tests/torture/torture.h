/*
 * Support shared by the torture programs (tests/torture/rcutorture.c and
 * tests/torture/ds_torture.c): flavor selection by name (including the
 * deliberately broken flavor), a per-thread random generator, delays,
 * option parsing helpers and a shutdown watchdog.
 *
 * The programs reach every flavor through its table (struct
 * rcu_flavor_struct, <urcu/flavor.h>), so one binary tests whichever
 * flavor is named on its command line.  docs/torture.md describes them.
 */
#ifndef TESTS_TORTURE_TORTURE_H
#define TESTS_TORTURE_TORTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <urcu/flavor.h>

/* Exit statuses shared by both programs. */
#define TORTURE_EXIT_OK		0
#define TORTURE_EXIT_FAILED	1	/* a check failed: a "!!!" line was printed */
#define TORTURE_EXIT_USAGE	2	/* bad command line */

struct torture_flavor {
	/* "memb", "mb", "signal", "qsbr", "bp" or "broken". */
	const char *name;
	/* The table every call goes through. */
	const struct rcu_flavor_struct *fl;
	/*
	 * QSBR: read_lock/read_unlock only mark sections; a registered
	 * online thread is a reader until it calls read_quiescent_state.
	 */
	bool is_qsbr;
	/*
	 * The broken flavor: memb's table with a synchronize_rcu that returns
	 * at once and a call_rcu that runs the callback at once.  Readers are
	 * not protected at all; the torture tests must notice.
	 */
	bool is_broken;
};

/* The flavor called @name, or NULL. */
const struct torture_flavor *torture_flavor_by_name(const char *name);

/* "memb|mb|signal|qsbr|bp|broken", for usage messages. */
const char *torture_flavor_names(void);

/* xorshift64* state; never 0.  One per thread. */
struct torture_rng {
	uint64_t s;
};

void torture_rng_seed(struct torture_rng *r, uint64_t seed, unsigned int stream);
uint64_t torture_rng_next(struct torture_rng *r);

/* CLOCK_MONOTONIC in seconds. */
double torture_now(void);

/* Sleeps @us microseconds, resuming after signals (signal flavor: EINTR). */
void torture_sleep_us(unsigned long us);

/* Busy-waits about @us microseconds without leaving the CPU voluntarily. */
void torture_spin_us(unsigned long us);

/* Seed from the clock and the pid, for runs without --seed. */
uint64_t torture_default_seed(void);

/*
 * Option values.  Each returns false (after printing "@prog: bad value
 * for --@opt") when @arg is not a valid value.
 */
bool torture_parse_uint(const char *prog, const char *opt, const char *arg,
			unsigned long min, unsigned long max,
			unsigned long *out);
bool torture_parse_seconds(const char *prog, const char *opt, const char *arg,
			   double *out);
bool torture_parse_bool(const char *prog, const char *opt, const char *arg,
			bool *out);

/*
 * Shutdown watchdog: once armed, if torture_watchdog_disarm() is not
 * called within @seconds, prints "<prog>: !!! stall: <what> did not finish
 * within N s" and terminates the process with TORTURE_EXIT_FAILED.  It
 * turns a grace period that never ends into a failure instead of a hang.
 * One watchdog at a time.
 */
void torture_watchdog_arm(const char *prog, const char *what, double seconds);
void torture_watchdog_disarm(void);

/* Relaxed atomic counter helpers (see the comments in torture.c). */
static inline void torture_count(unsigned long *c, unsigned long n)
{
	/*
	 * Relaxed: a statistic shared by several writers; it orders nothing
	 * and is read only for reporting (or after pthread_join, which
	 * orders it).
	 */
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static inline void torture_count_own(unsigned long *c)
{
	/*
	 * Relaxed, single writer: only the owning thread stores to *c, so a
	 * load-then-store needs no read-modify-write; the stores are atomic
	 * because the statistics printer loads *c concurrently
	 * (torture_read()), and that load only needs some recent value.
	 * Orders nothing and pairs with nothing.
	 */
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

static inline unsigned long torture_read(const unsigned long *c)
{
	/* Relaxed: a snapshot for reporting; pairs with nothing. */
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* TESTS_TORTURE_TORTURE_H */
