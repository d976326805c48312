/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers every Check suite of tests/ uses (tests/harness/harness.c).
 *
 * Conventions they serve: suites run in fork mode; threads other than the
 * test thread never call ck_assert, they record failures in a
 * `struct harness_fail_log` and the test thread asserts on it after
 * pthread_join (or after whatever else orders the workers' writes before
 * its read, e.g. rcu_barrier() for call_rcu callbacks); waits on other
 * threads and stress phases are bounded by times scaled by
 * CK_TIMEOUT_MULTIPLIER, like Check's own timeouts.
 */
#ifndef TESTS_HARNESS_HARNESS_H
#define TESTS_HARNESS_HARNESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <check.h>

/* ------------------------------------------------------------------------
 * Time.
 */

/* Bound (before scaling) on waiting for another thread. */
#define HARNESS_WAIT_S	20.0

/* CK_TIMEOUT_MULTIPLIER as a number >= 1; 1 when unset or invalid. */
double harness_time_mult(void);

/* CLOCK_MONOTONIC, in seconds. */
double harness_now(void);

/* The time @seconds (scaled by CK_TIMEOUT_MULTIPLIER) from now. */
double harness_deadline(double seconds);

/* Whether @deadline (a harness_now() value) has passed. */
bool harness_past(double deadline);

/* Sleeps @ms milliseconds, the whole time even when signals interrupt. */
void harness_sleep_ms(long ms);

/*
 * Waits until *@flag is nonzero: true when it is, false after
 * HARNESS_WAIT_S (scaled); the caller reports that as a failure.  The
 * bound only turns a hang into a better message than the Check timeout.
 */
bool harness_wait_flag(atomic_int *flag);

/* harness_wait_flag() with a deadline of the caller's (harness_deadline()). */
bool harness_wait_flag_until(atomic_int *flag, double deadline);

/*
 * Scheduler state letter of thread @tid of this process ('R', 'S', ...),
 * from /proc/self/task/<tid>/stat, or 0 when it cannot be read.
 */
char harness_task_state(int tid);

/* ------------------------------------------------------------------------
 * Threads, started and joined by the test thread: an error fails the test.
 */

void harness_spawn(pthread_t *tid, void *(*fn)(void *), void *arg);
void harness_join(pthread_t tid);

/* ------------------------------------------------------------------------
 * Failures seen by threads other than the test thread.
 */

struct harness_fail_log {
	atomic_int count;
	atomic_int claimed;	/* set once first[] holds the first failure */
	char first[256];
};

/* The log harness_fail() and HARNESS_CHECK() write to. */
extern struct harness_fail_log harness_failures;

/* Counts a failure in @log; the first one's text is kept. */
void harness_log_fail(struct harness_fail_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define harness_fail(...)	harness_log_fail(&harness_failures, __VA_ARGS__)

/* For worker threads: records @cond (with its place) when it is false. */
#define HARNESS_CHECK(cond)						\
	do {								\
		if (!(cond))						\
			harness_fail("%s:%d: %s", __FILE__, __LINE__,	\
				     #cond);				\
	} while (0)

/*
 * Test thread, once every thread that may write to @log is done: no
 * failure may have been recorded.  @who names the case in the message.
 */
#define harness_assert_log_clean(log, who)				\
	ck_assert_msg(atomic_load(&(log)->count) == 0,			\
		      "%s: %d failure(s) in other threads, first: %s",	\
		      (who), atomic_load(&(log)->count),		\
		      atomic_load(&(log)->claimed) ? (log)->first : "?")

#define harness_assert_no_failures(who)					\
	harness_assert_log_clean(&harness_failures, (who))

/* ------------------------------------------------------------------------
 * Suites and main().
 */

/*
 * A test case named @name, already added to @s, with a timeout of
 * @timeout seconds (which Check scales by CK_TIMEOUT_MULTIPLIER); 0 keeps
 * Check's default timeout.
 */
TCase *harness_tcase(Suite *s, const char *name, double timeout);

/* Runs @s (srunner_run_all, CK_ENV); EXIT_SUCCESS when no test failed. */
int harness_run_suite(Suite *s);

#endif /* TESTS_HARNESS_HARNESS_H */
