/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "qsbr_online": QSBR only, blocking calls made
 * by an online registered thread, which no grace period can wait for.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>

#include "callrcu.h"

/* rcu_barrier() takes an online caller offline for the wait. */
START_TEST(test_qsbr_barrier_online)
{
	flavor = &test_flavors[TF_QSBR];
	track_alloc(100);
	caller_enter();
	queue_range(0, 100);
	flavor->barrier();
	ck_assert_ran(0, 100, 1);
	ck_assert_msg(flavor->fl->read_ongoing(), "caller not back online");
	caller_exit();
	track_free();
}
END_TEST

/*
 * call_rcu_data_free() by an online registered thread, with callbacks
 * pending on the worker: the worker needs a grace period to run them, so
 * freeing must not wait for it while holding the caller online.
 */
START_TEST(test_qsbr_free_online)
{
	struct call_rcu_data *crdp;

	flavor = &test_flavors[TF_QSBR];
	track_alloc(100);
	caller_enter();
	crdp = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	flavor->set_thread_call_rcu_data(crdp);
	queue_range(0, 100);
	flavor->set_thread_call_rcu_data(NULL);
	flavor->call_rcu_data_free(crdp);
	flavor->barrier();
	ck_assert_ran(0, 100, 1);
	caller_exit();
	track_free();
}
END_TEST

/* Same for free_all_cpu_call_rcu_data(). */
START_TEST(test_qsbr_free_all_cpu_online)
{
	flavor = &test_flavors[TF_QSBR];
	track_alloc(100);
	caller_enter();
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	queue_range(0, 100);
	flavor->free_all_cpu_call_rcu_data();
	flavor->barrier();
	ck_assert_ran(0, 100, 1);
	caller_exit();
	track_free();
}
END_TEST

/*
 * rcu_defer_unregister_thread() by an online thread while another thread's
 * unregistration waits for a grace period (to drain its queue): the
 * second caller must not block while online, or that grace period would
 * wait for it.
 */
static atomic_int defer_b_ready, defer_a_started;

static void *defer_unregister_waiting_thread(void *arg)
{
	(void) arg;
	caller_enter();
	if (flavor->defer_register_thread() != 0) {
		harness_fail("rcu_defer_register_thread failed");
		atomic_store(&defer_a_started, 1);
		caller_exit();
		return NULL;
	}
	flavor->defer_rcu(track_defer_cb, &objs[0]);
	caller_offline();
	if (!harness_wait_flag(&defer_b_ready))
		harness_fail("the other thread never got ready");
	caller_online();
	atomic_store(&defer_a_started, 1);
	/* Drains one entry: a grace period that waits for the other thread. */
	flavor->defer_unregister_thread();
	caller_exit();
	return NULL;
}

START_TEST(test_qsbr_defer_unregister_online)
{
	pthread_t tid;

	flavor = &test_flavors[TF_QSBR];
	track_alloc(1);
	caller_enter();
	ck_assert_int_eq(flavor->defer_register_thread(), 0);
	harness_spawn(&tid, defer_unregister_waiting_thread, NULL);
	atomic_store(&defer_b_ready, 1);
	/* Online, no quiescent state: the other thread's drain waits. */
	while (!atomic_load(&defer_a_started))
		;
	harness_sleep_ms(50);
	flavor->defer_unregister_thread();
	caller_exit();
	harness_join(tid);
	harness_assert_no_failures(flavor->name);
	ck_assert_ran(0, 1, 1);
	track_free();
}
END_TEST

void callrcu_add_qsbr_online(Suite *s)
{
	TCase *tc = harness_tcase(s, "qsbr_online", 30);

	tcase_add_test(tc, test_qsbr_barrier_online);
	tcase_add_test(tc, test_qsbr_free_online);
	tcase_add_test(tc, test_qsbr_free_all_cpu_online);
	tcase_add_test(tc, test_qsbr_defer_unregister_online);
}
