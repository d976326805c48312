/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "misuse": rcu_barrier() where it would wait
 * for itself, and defer_rcu() inside a read-side section, abort with a
 * message.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdlib.h>

#include "callrcu.h"

/*
 * Inside a read-side section, the misuse is caught in every build for the
 * flavors that track sections in release builds (all but QSBR, whose
 * sections are tracked by read sides built with URCU_DEBUG).
 */

START_TEST(test_misuse_barrier_in_section)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->register_thread();
	fl->read_lock();
	fl->barrier();		/* must abort, not wait for itself */
}
END_TEST

/* defer_rcu() may wait for a grace period, so not inside a section. */
START_TEST(test_misuse_defer_in_section)
{
	const struct test_flavor *o = &test_flavors[_i];

	o->fl->register_thread();
	ck_assert_int_eq(o->defer_register_thread(), 0);
	o->fl->read_lock();
	o->fl->update_defer_rcu(free, NULL);	/* must abort */
}
END_TEST

static const struct rcu_flavor_struct *misuse_fl;

static void barrier_from_callback(struct rcu_head *head)
{
	(void) head;
	misuse_fl->barrier();	/* aborts the whole process */
}

START_TEST(test_misuse_barrier_in_callback)
{
	static struct rcu_head head;

	misuse_fl = test_flavors[_i].fl;
	misuse_fl->update_call_rcu(&head, barrier_from_callback);
	misuse_fl->barrier();	/* never returns: the worker aborts */
}
END_TEST

void callrcu_add_misuse(Suite *s)
{
	TCase *tc = harness_tcase(s, "misuse", 30);

	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, 0, TF_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, TF_QSBR + 1, N_TEST_FLAVORS);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, 0, TF_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, TF_QSBR + 1, N_TEST_FLAVORS);
#if defined(URCU_DEBUG)
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, TF_QSBR, TF_QSBR + 1);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, TF_QSBR, TF_QSBR + 1);
#endif
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_callback,
					 SIGABRT, 0, N_TEST_FLAVORS);
}
