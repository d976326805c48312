/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "flavor_table": the update-side entries of a
 * flavor's table (struct rcu_flavor_struct) are its call_rcu(),
 * rcu_barrier(), defer_rcu() and polling calls, and work through it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "callrcu.h"

START_TEST(test_flavor_table_update_ops)
{
	const struct rcu_flavor_struct *fl;
	struct urcu_gp_poll_state state;

	flavor = &test_flavors[_i];
	fl = flavor->fl;
	ck_assert(fl->update_call_rcu == flavor->call_rcu);
	ck_assert(fl->barrier == flavor->barrier);
	ck_assert(fl->update_defer_rcu == flavor->defer_rcu);
	ck_assert(fl->update_start_poll_synchronize_rcu
		  == flavor->start_poll_synchronize_rcu);
	ck_assert(fl->update_poll_state_synchronize_rcu
		  == flavor->poll_state_synchronize_rcu);

	track_alloc(2);
	fl->register_thread();
	fl->update_call_rcu(&objs[0].head, track_cb);
	fl->barrier();
	ck_assert_ran(0, 1, 1);

	ck_assert_int_eq(flavor->defer_register_thread(), 0);
	fl->update_defer_rcu(track_defer_cb, &objs[1]);
	flavor->defer_barrier();
	ck_assert_ran(1, 2, 1);
	flavor->defer_unregister_thread();

	state = fl->update_start_poll_synchronize_rcu();
	fl->update_synchronize_rcu();
	ck_assert(fl->update_poll_state_synchronize_rcu(state));
	fl->thread_offline();
	fl->barrier();
	fl->thread_online();
	fl->unregister_thread();
	track_free();
}
END_TEST

void callrcu_add_flavor_table(Suite *s)
{
	TCase *tc = harness_tcase(s, "flavor_table", 30);

	add_per_flavor(tc, test_flavor_table_update_ops);
}
