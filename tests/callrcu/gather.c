/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "gather": under a steady stream of call_rcu(),
 * a worker starts at most one grace period per gather period (10 ms by
 * default), unless rcu_barrier(), a backlog of URCU__GATHER_MAX
 * callbacks, or a stop ends the gather early; a worker idle for a gather
 * period runs a new callback at once.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callrcu.h"

/*
 * Each test uses its own worker (the calling thread's), created after it
 * set URCU_CALL_RCU_GATHER_MS, which the library reads at each creation.
 * Nothing here depends on the machine's speed: the stream test bounds the
 * number of batches by the time the stream really took (noise only makes
 * that longer), the barrier and high-water tests set a gather period of
 * ten minutes, longer than the tests' timeouts, so the mechanism either
 * ends the gather or the test fails, and the idle test scales its gather
 * period with CK_TIMEOUT_MULTIPLIER and allows half of it, where a
 * gathering worker would use all of it.
 */

/* The library's default gather period (URCU__GATHER_MS, call-rcu.c). */
#define GATHER_MS 10
/* Its high-water mark of pending callbacks (URCU__GATHER_MAX). */
#define GATHER_MAX 10000L
/* A gather period longer than any wait of these tests. */
#define GATHER_FOREVER_MS "600000"

/* Gather period of the workers created from now on (NULL: the default). */
static void set_gather_ms(const char *ms)
{
	if (ms)
		ck_assert_int_eq(setenv("URCU_CALL_RCU_GATHER_MS", ms, 1), 0);
	else
		ck_assert_int_eq(unsetenv("URCU_CALL_RCU_GATHER_MS"), 0);
}

/* Sleeps @us microseconds, the whole time even when signals interrupt. */
static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Batches run so far by @crdp's worker, from the statistics. */
static uint64_t worker_batches(struct call_rcu_data *crdp)
{
	struct urcu_stats_worker w[8];
	pthread_t tid = flavor->get_call_rcu_thread(crdp);
	long n, i;

	n = flavor->stats_workers(w, 8, sizeof(w[0]));
	ck_assert_msg(n >= 1 && n <= 8, "%s: %ld workers", flavor->name, n);
	for (i = 0; i < n; i++)
		if (pthread_equal(w[i].thread, tid))
			return w[i].batches;
	ck_abort_msg("%s: worker missing from the statistics", flavor->name);
	return 0;
}

/*
 * The calling thread (a registered caller) gets a worker of its own, with
 * a gather period of @gather_ms (NULL: the default), which then runs a
 * batch (an rcu_barrier() record), so that the next callback finds it
 * within a gather period.
 */
static struct call_rcu_data *own_worker(const char *gather_ms)
{
	struct call_rcu_data *crdp;

	set_gather_ms(gather_ms);
	crdp = flavor->create_call_rcu_data(0, -1);
	ck_assert_msg(crdp != NULL, "%s: create_call_rcu_data failed",
		      flavor->name);
	flavor->set_thread_call_rcu_data(crdp);
	caller_offline();
	flavor->barrier();
	caller_online();
	return crdp;
}

/* Undo own_worker(). */
static void own_worker_free(struct call_rcu_data *crdp)
{
	flavor->set_thread_call_rcu_data(NULL);
	caller_offline();
	flavor->call_rcu_data_free(crdp);
	caller_online();
}

/* harness_now() when the first stamp_cb() of a round ran; 0 before. */
static _Atomic double first_ran;

static void stamp_cb(struct rcu_head *head)
{
	double zero = 0.0;

	atomic_compare_exchange_strong(&first_ran, &zero, harness_now());
	track_cb(head);
}

/* Wait until a stamp_cb() ran; false after HARNESS_WAIT_S (scaled). */
static bool wait_first_ran(void)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);
	bool ran_one;

	caller_offline();
	while (!(ran_one = atomic_load(&first_ran) != 0.0)
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	caller_online();
	return ran_one;
}

/*
 * A steady stream: one callback every STREAM_PACE_US (plus the sleep's
 * slack), far enough apart that a worker without gathering runs each in
 * a batch of its own (about STREAM_CALLBACKS batches).  With gathering,
 * each batch starts at least GATHER_MS after the previous one ended, the
 * one rcu_barrier() cuts short aside, so there are at most
 * 2 + elapsed / GATHER_MS of them, about 30 here.  That bound holds
 * however slow the machine is.
 */
#define STREAM_CALLBACKS 2000L
#define STREAM_PACE_US 50

START_TEST(test_gather_steady_stream)
{
	struct call_rcu_data *crdp;
	double start, elapsed_ms;
	uint64_t batches;
	long i;

	flavor = &test_flavors[_i];
	track_alloc(STREAM_CALLBACKS);
	caller_enter();
	crdp = own_worker(NULL);
	batches = worker_batches(crdp);
	start = harness_now();
	for (i = 0; i < STREAM_CALLBACKS; i++) {
		flavor->call_rcu(&objs[i].head, track_cb);
		caller_quiescent();
		caller_offline();
		sleep_us(STREAM_PACE_US);
		caller_online();
	}
	caller_offline();
	flavor->barrier();
	caller_online();
	elapsed_ms = (harness_now() - start) * 1000.0;
	batches = worker_batches(crdp) - batches;
	own_worker_free(crdp);
	caller_exit();
	ck_assert_ran(0, STREAM_CALLBACKS, 1);
	ck_assert_msg(batches <= 3 + elapsed_ms / GATHER_MS,
		      "%s: %llu batches for %ld callbacks in %.0f ms: more "
		      "than one per %d ms gather period", flavor->name,
		      (unsigned long long) batches, STREAM_CALLBACKS,
		      elapsed_ms, GATHER_MS);
	track_free();
}
END_TEST

/*
 * rcu_barrier() ends a gather at once.  Each round queues a callback on a
 * worker that has just run a batch (the previous round's barrier, or
 * own_worker()'s), so the worker gathers, for ten minutes; the barrier
 * must end that gather, or the test runs into its timeout.
 */
#define BARRIER_ROUNDS 20L

START_TEST(test_gather_barrier_not_delayed)
{
	struct call_rcu_data *crdp;
	long i;

	flavor = &test_flavors[_i];
	track_alloc(BARRIER_ROUNDS);
	caller_enter();
	crdp = own_worker(GATHER_FOREVER_MS);
	for (i = 0; i < BARRIER_ROUNDS; i++) {
		flavor->call_rcu(&objs[i].head, track_cb);
		caller_offline();
		harness_sleep_ms(1);	/* let the worker start gathering */
		flavor->barrier();
		caller_online();
		ck_assert_ran(i, i + 1, 1);
	}
	own_worker_free(crdp);
	caller_exit();
	track_free();
}
END_TEST

/*
 * The high-water mark ends a gather.  Each round starts right after a
 * batch (the previous round's barrier, or own_worker()'s), so the worker
 * gathers what comes next, for ten minutes: a burst of GATHER_MAX
 * callbacks.  The call_rcu() that brings the backlog to GATHER_MAX wakes
 * the worker, which detaches its queue, so the burst's first callback
 * runs within wait_first_ran()'s wait.  rcu_barrier() comes only after
 * that: it would end the gather itself.
 */
#define HW_BURST GATHER_MAX
#define HW_ROUNDS 5L

START_TEST(test_gather_high_water)
{
	struct call_rcu_data *crdp;
	long round, i;

	flavor = &test_flavors[_i];
	track_alloc(HW_BURST);
	caller_enter();
	crdp = own_worker(GATHER_FOREVER_MS);
	for (round = 0; round < HW_ROUNDS; round++) {
		atomic_store(&first_ran, 0.0);
		for (i = 0; i < HW_BURST; i++) {
			flavor->call_rcu(&objs[i].head, stamp_cb);
			if ((i & 63) == 0)
				caller_quiescent();
		}
		ck_assert_msg(wait_first_ran(), "%s: a burst of %ld callbacks "
			      "did not run: the gather ignored the high-water "
			      "mark", flavor->name, HW_BURST);
		caller_offline();
		flavor->barrier();
		caller_online();
		ck_assert_ran(0, HW_BURST, (int) round + 1);
	}
	own_worker_free(crdp);
	caller_exit();
	track_free();
}
END_TEST

/*
 * A worker idle for longer than a gather period runs a new callback at
 * once.  With a gather period of IDLE_GATHER_MS (scaled by
 * CK_TIMEOUT_MULTIPLIER, like every wait of the tests), the test sleeps a
 * tenth longer than that after the worker's last batch, queues one
 * callback and takes the time until it runs.  A worker that gathered from
 * the moment it was woken would hold the callback for the whole period,
 * so half of it is the bound: a callback normally runs within a
 * millisecond, and the half period leaves a loaded or sanitized machine
 * the room the multiplier gives it, without letting a gathering worker
 * pass.
 */
#define IDLE_GATHER_MS 1000

START_TEST(test_gather_idle_prompt)
{
	long gather_ms = (long) (IDLE_GATHER_MS * harness_time_mult());
	struct call_rcu_data *crdp;
	char gather_str[32];
	double start, ms;

	flavor = &test_flavors[_i];
	snprintf(gather_str, sizeof(gather_str), "%ld", gather_ms);
	track_alloc(1);
	caller_enter();
	crdp = own_worker(gather_str);
	caller_offline();
	harness_sleep_ms(gather_ms + gather_ms / 10);
	caller_online();
	atomic_store(&first_ran, 0.0);
	start = harness_now();
	flavor->call_rcu(&objs[0].head, stamp_cb);
	ck_assert_msg(wait_first_ran(), "%s: the callback never ran",
		      flavor->name);
	ms = (atomic_load(&first_ran) - start) * 1000.0;
	own_worker_free(crdp);
	caller_exit();
	ck_assert_ran(0, 1, 1);
	ck_assert_msg(ms < gather_ms / 2.0,
		      "%s: an idle worker took %.0f ms to run a new callback: "
		      "it gathered (period %ld ms)", flavor->name, ms,
		      gather_ms);
	track_free();
}
END_TEST

/*
 * URCU_CALL_RCU_GATHER_MS must be a number of milliseconds; anything else
 * is reported on stderr when a worker is created, once, and the default
 * is used.  stderr goes to a temporary file meanwhile.
 */
static const char *const bad_gather_values[] = { "ten", "-1", "5ms",
						 "3600001" };

START_TEST(test_gather_env_bad_value)
{
	struct call_rcu_data *a, *b;
	char out[512];
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;
	long i;

	flavor = &test_flavors[0];
	ck_assert(tmp != NULL && saved >= 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
	ck_assert_int_eq(setenv("URCU_CALL_RCU_GATHER_MS",
				bad_gather_values[_i], 1), 0);
	a = flavor->create_call_rcu_data(0, -1);
	b = flavor->create_call_rcu_data(0, -1);
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	close(saved);
	ck_assert(a != NULL && b != NULL);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	ck_assert_msg(strstr(out, "ignoring URCU_CALL_RCU_GATHER_MS") != NULL,
		      "no report of URCU_CALL_RCU_GATHER_MS=%s: \"%s\"",
		      bad_gather_values[_i], out);
	ck_assert_msg(strstr(strstr(out, "ignoring") + 1, "ignoring") == NULL,
		      "reported more than once: \"%s\"", out);
	/* The workers work, with the default period. */
	track_alloc(2);
	caller_enter();
	for (i = 0; i < 2; i++) {
		flavor->set_thread_call_rcu_data(i ? b : a);
		flavor->call_rcu(&objs[i].head, track_cb);
	}
	flavor->set_thread_call_rcu_data(NULL);
	caller_offline();
	flavor->barrier();
	flavor->call_rcu_data_free(a);
	flavor->call_rcu_data_free(b);
	caller_online();
	caller_exit();
	ck_assert_ran(0, 2, 1);
	track_free();
}
END_TEST

void callrcu_add_gather(Suite *s)
{
	TCase *tc = harness_tcase(s, "gather", 30);

	add_per_flavor(tc, test_gather_steady_stream);
	add_per_flavor(tc, test_gather_barrier_not_delayed);
	add_per_flavor(tc, test_gather_high_water);
	add_per_flavor(tc, test_gather_idle_prompt);
	tcase_add_loop_test(tc, test_gather_env_bad_value, 0,
			    (int) CAA_ARRAY_SIZE(bad_gather_values));
}
