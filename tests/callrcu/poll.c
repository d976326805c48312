/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "poll": polled grace periods
 * (start_poll_synchronize_rcu(), poll_state_synchronize_rcu()).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdbool.h>

#include "callrcu.h"

static atomic_int reader_inside, reader_left, reader_release;

/* A token is complete after a synchronize_rcu() that follows it. */
START_TEST(test_poll_after_synchronize)
{
	struct urcu_gp_poll_state state;

	flavor = &test_flavors[_i];
	caller_enter();
	state = flavor->start_poll_synchronize_rcu();
	caller_offline();
	flavor->fl->update_synchronize_rcu();
	ck_assert_msg(flavor->poll_state_synchronize_rcu(state),
		      "%s: token incomplete after synchronize_rcu()",
		      flavor->name);
	/* Stays complete. */
	ck_assert(flavor->poll_state_synchronize_rcu(state));
	flavor->barrier();
	caller_online();
	caller_exit();
}
END_TEST

/* Without any explicit grace period, a token completes by itself. */
START_TEST(test_poll_completes_alone)
{
	struct urcu_gp_poll_state state;
	double deadline;
	bool done;

	flavor = &test_flavors[_i];
	caller_enter();
	state = flavor->start_poll_synchronize_rcu();
	caller_offline();
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (!(done = flavor->poll_state_synchronize_rcu(state))
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	flavor->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(done, "%s: token never completed", flavor->name);
}
END_TEST

/* Reader that stays inside until released (QSBR: online, no QS). */
static void *parked_reader(void *arg)
{
	(void) arg;
	caller_enter();
	flavor->fl->read_lock();
	atomic_store(&reader_inside, 1);
	if (!harness_wait_flag(&reader_release))
		harness_fail("reader never released");
	atomic_store(&reader_left, 1);
	flavor->fl->read_unlock();
	caller_quiescent();
	caller_exit();
	return NULL;
}

START_TEST(test_poll_waits_for_reader)
{
	struct urcu_gp_poll_state state;
	pthread_t reader;
	int k, early = 0;
	double deadline;
	bool inside, done, left_when_done = false;

	flavor = &test_flavors[_i];
	caller_enter();
	harness_spawn(&reader, parked_reader, NULL);
	inside = harness_wait_flag(&reader_inside);
	state = flavor->start_poll_synchronize_rcu();
	caller_offline();
	for (k = 0; k < 5; k++) {
		harness_sleep_ms(20);
		if (flavor->poll_state_synchronize_rcu(state))
			early++;
	}
	atomic_store(&reader_release, 1);
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (!(done = flavor->poll_state_synchronize_rcu(state))
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	if (done)
		left_when_done = atomic_load(&reader_left);
	harness_join(reader);
	flavor->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(inside, "%s: reader never entered", flavor->name);
	ck_assert_msg(early == 0, "%s: token complete while a reader was "
		      "inside (%d of 5 samples)", flavor->name, early);
	ck_assert_msg(done, "%s: token never completed", flavor->name);
	ck_assert_msg(left_when_done, "%s: token complete before the reader "
		      "left", flavor->name);
	ck_assert_no_fail();
}
END_TEST

void callrcu_add_poll(Suite *s)
{
	TCase *tc = harness_tcase(s, "poll", 30);

	add_per_flavor(tc, test_poll_after_synchronize);
	add_per_flavor(tc, test_poll_completes_alone);
	add_per_flavor(tc, test_poll_waits_for_reader);
}
