/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "call_rcu": deferred reclamation of the five flavors, one
 * test case per concern, each in its own file of tests/callrcu/:
 *
 *   grace_period   callbacks run once each, after the readers that could
 *                  see their object, also when queued inside a section
 *                  or from a callback;
 *   workers        per-thread, per-CPU and default workers, and
 *                  rcu_barrier() across all of them;
 *   gather         batching of callbacks into one grace period per
 *                  gather period;
 *   poll           polled grace periods;
 *   fork           fork() during a call_rcu() storm;
 *   defer          defer_rcu();
 *   alloc_failure  the calls when the library cannot allocate;
 *   qsbr_online    QSBR blocking calls from an online thread;
 *   flavor_table   the flavor table's update-side entries;
 *   misuse         the aborts of rcu_barrier() and defer_rcu() misuse.
 *
 * Every flavor is reached through its struct test_flavor
 * (tests/flavors/flavors.h); most tests are loop tests over
 * test_flavors[] (the loop index selects the flavor).
 * tests/callrcu/callrcu.h holds what the files share.
 *
 * Conventions:
 *  - fork mode: each test runs in a fresh child, and creates (and tears
 *    down) all of its RCU state and threads itself: threads, workers and
 *    registrations set up by the parent do not exist in the child;
 *  - threads other than the test thread never call ck_assert (without
 *    fork mode it would longjmp across threads): they record failures
 *    (harness_fail() of tests/harness/harness.h, counters) and the test
 *    thread asserts after pthread_join;
 *  - waits on other threads are bounded by HARNESS_WAIT_S scaled by
 *    CK_TIMEOUT_MULTIPLIER (sanitizers run several times slower); stress
 *    phases are bounded by fixed object pools and stop flags, and nothing
 *    asserts on speed (the gathering tests compare with the gather period
 *    in ways that a slow machine cannot break; see tests/callrcu/gather.c).
 *
 * Calling rules the tests follow: threads that call call_rcu() register
 * with the flavor (QSBR: and stay online only while they do so, announcing
 * quiescent states); a QSBR test thread goes offline before it waits for
 * callbacks, since an online thread without quiescent states holds every
 * grace period back.
 */
#include "callrcu/callrcu.h"

static Suite *call_rcu_suite(void)
{
	Suite *s = suite_create("call_rcu");

	callrcu_add_grace_period(s);
	callrcu_add_workers(s);
	callrcu_add_gather(s);
	callrcu_add_poll(s);
	callrcu_add_fork(s);
	callrcu_add_defer(s);
	callrcu_add_alloc_failure(s);
	callrcu_add_qsbr_online(s);
	callrcu_add_flavor_table(s);
	callrcu_add_misuse(s);
	return s;
}

int main(void)
{
	return harness_run_suite(call_rcu_suite());
}
