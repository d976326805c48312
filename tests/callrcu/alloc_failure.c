/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "alloc_failure": what the call_rcu, defer and
 * polling calls do when the library cannot allocate, injected with
 * liburcu-common's test hook urcu__alloc_fail_after() before any RCU call
 * (each test runs in a fresh process).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>

#include "callrcu.h"
/* liburcu-common's private interface: urcu__alloc_fail_after(). */
#include "urcu-alloc.h"

START_TEST(test_alloc_fail_errors)
{
	flavor = &test_flavors[_i];
	urcu__alloc_fail_after(0);
	caller_enter();
	errno = 0;
	ck_assert_ptr_null(flavor->create_call_rcu_data(0, -1));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_int_eq(flavor->defer_register_thread(), -ENOMEM);
	errno = 0;
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	errno = 0;
	ck_assert_int_eq(flavor->set_cpu_call_rcu_data(0, NULL), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_ptr_null(flavor->get_default_call_rcu_data());
	ck_assert_ptr_null(flavor->get_cpu_call_rcu_data(0));
	/* Nothing queued anywhere: returns at once. */
	flavor->barrier();
	caller_exit();
}
END_TEST

/*
 * One allocation allowed: a worker can be created, the per-CPU array
 * cannot, so assigning a CPU worker fails with -ENOMEM.
 */
START_TEST(test_alloc_fail_set_cpu)
{
	struct call_rcu_data *crdp;

	flavor = &test_flavors[_i];
	urcu__alloc_fail_after(1);
	crdp = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	errno = 0;
	ck_assert_int_eq(flavor->set_cpu_call_rcu_data(0, crdp), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_ptr_null(flavor->get_cpu_call_rcu_data(0));
	flavor->call_rcu_data_free(crdp);
}
END_TEST

/*
 * No worker can be created: call_rcu() from an unregistered thread, which
 * is outside any read-side section, waits for the grace period and runs
 * the callback itself.
 */
START_TEST(test_alloc_fail_call_rcu_fallback)
{
	flavor = &test_flavors[_i];
	urcu__alloc_fail_after(0);
	track_alloc(3);
	flavor->call_rcu(&objs[0].head, track_cb);
	ck_assert_int_eq(atomic_load(&runs[0]), 1);
	flavor->call_rcu(&objs[1].head, track_cb);
	flavor->fl->update_call_rcu(&objs[2].head, track_cb);
	flavor->barrier();
	ck_assert_ran(0, 3, 1);
	track_free();
}
END_TEST

/*
 * No worker can be created: start_poll_synchronize_rcu() still returns
 * (its grace-period request falls back to a synchronous one) and the token
 * completes.
 */
START_TEST(test_alloc_fail_poll)
{
	struct urcu_gp_poll_state state;

	flavor = &test_flavors[_i];
	urcu__alloc_fail_after(0);
	state = flavor->start_poll_synchronize_rcu();
	flavor->fl->update_synchronize_rcu();
	ck_assert(flavor->poll_state_synchronize_rcu(state));
}
END_TEST

void callrcu_add_alloc_failure(Suite *s)
{
	TCase *tc = harness_tcase(s, "alloc_failure", 10);

	add_per_flavor(tc, test_alloc_fail_errors);
	add_per_flavor(tc, test_alloc_fail_set_cpu);
	add_per_flavor(tc, test_alloc_fail_call_rcu_fallback);
	add_per_flavor(tc, test_alloc_fail_poll);
}
