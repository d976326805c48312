/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "defer": defer_rcu() and its queue: every
 * deferred call runs once, whichever of the barriers, the unregistration,
 * a full queue or the background thread drains it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdbool.h>

#include "callrcu.h"

#define DEFER_SLOTS 4096L
#define DEFER_MANY (3 * DEFER_SLOTS + 7)

static void defer_range(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++) {
		flavor->defer_rcu(track_defer_cb, &objs[i]);
		if ((i & 63) == 0)
			caller_quiescent();
	}
}

/*
 * Register for defer_rcu, queue @n deferred calls and have @drain run them
 * all; then unregister, unless @drain did.  None may run again afterwards.
 */
static void defer_drained_by(long n, void (*drain)(void), bool unregisters)
{
	track_alloc(n);
	caller_enter();
	ck_assert_int_eq(flavor->defer_register_thread(), 0);
	defer_range(0, n);
	drain();
	ck_assert_int_eq(atomic_load(&ran), n);
	ck_assert_ran(0, n, 1);
	if (!unregisters)
		flavor->defer_unregister_thread();
	caller_exit();
	ck_assert_int_eq(atomic_load(&ran), n);
	track_free();
}

/* Queue more entries than the ring holds: the full path drains inline. */
START_TEST(test_defer_queue_full)
{
	flavor = &test_flavors[_i];
	defer_drained_by(DEFER_MANY, flavor->defer_barrier, false);
}
END_TEST

static void *defer_range_thread(void *arg)
{
	struct range *r = arg;
	int err;

	caller_enter();
	err = flavor->defer_register_thread();
	if (err) {
		harness_fail("rcu_defer_register_thread: %d", err);
	} else {
		defer_range(r->begin, r->end);
		flavor->defer_barrier();
		flavor->defer_unregister_thread();
	}
	caller_exit();
	return NULL;
}

START_TEST(test_defer_two_threads)
{
	struct range halves[2] = {
		{ 0, DEFER_MANY }, { DEFER_MANY, 2 * DEFER_MANY },
	};
	pthread_t tids[2];
	int t;

	flavor = &test_flavors[_i];
	track_alloc(2 * DEFER_MANY);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], defer_range_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ck_assert_no_fail();
	ck_assert_int_eq(atomic_load(&ran), 2 * DEFER_MANY);
	ck_assert_ran(0, 2 * DEFER_MANY, 1);
	track_free();
}
END_TEST

/* rcu_defer_unregister_thread() runs what the thread still had queued. */
START_TEST(test_defer_unregister_drains)
{
	flavor = &test_flavors[_i];
	defer_drained_by(100, flavor->defer_unregister_thread, true);
}
END_TEST

/* rcu_defer_barrier_thread() runs the caller's queue. */
START_TEST(test_defer_barrier_thread)
{
	flavor = &test_flavors[_i];
	defer_drained_by(100, flavor->defer_barrier_thread, false);
}
END_TEST

/* Without any barrier, the background thread drains the queue. */
static void wait_background_drain(void)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);
	bool done;

	caller_offline();
	while (!(done = atomic_load(&ran) >= n_objs) && !harness_past(deadline))
		harness_sleep_ms(1);
	caller_online();
	ck_assert_msg(done, "%s: %ld of %ld deferred calls ran", flavor->name,
		      atomic_load(&ran), n_objs);
}

START_TEST(test_defer_background_drain)
{
	flavor = &test_flavors[_i];
	defer_drained_by(100, wait_background_drain, false);
}
END_TEST

void callrcu_add_defer(Suite *s)
{
	TCase *tc = harness_tcase(s, "defer", 30);

	add_per_flavor(tc, test_defer_queue_full);
	add_per_flavor(tc, test_defer_two_threads);
	add_per_flavor(tc, test_defer_unregister_drains);
	add_per_flavor(tc, test_defer_barrier_thread);
	add_per_flavor(tc, test_defer_background_drain);
}
