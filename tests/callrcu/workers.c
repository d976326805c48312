/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "workers": which worker runs a callback (the
 * thread's, else the CPU's, else the default one), creating and freeing
 * workers with callbacks pending, per-thread FIFO order, and
 * rcu_barrier() covering every worker.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callrcu.h"

/* ------------------------------------------------------------------------
 * A per-thread worker runs the thread's callbacks; freeing it with
 * callbacks pending loses none.
 */

static pthread_t expected_worker;
static atomic_long wrong_thread;

static void on_worker_cb(struct rcu_head *head)
{
	if (!pthread_equal(pthread_self(), expected_worker))
		atomic_fetch_add(&wrong_thread, 1);
	track_cb(head);
}

/* Queue [begin, end) with on_worker_cb. */
static void queue_range_on_worker(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++)
		flavor->call_rcu(&objs[i].head, on_worker_cb);
}

#define WORKER_BATCH 2000L

static void per_thread_worker(unsigned long flags)
{
	struct call_rcu_data *crdp;

	track_alloc(2 * WORKER_BATCH);
	caller_enter();
	crdp = flavor->create_call_rcu_data(flags, -1);
	ck_assert_msg(crdp != NULL, "%s: create_call_rcu_data: %s", flavor->name,
		      strerror(errno));
	ck_assert_ptr_ne(crdp, flavor->get_default_call_rcu_data());
	flavor->set_thread_call_rcu_data(crdp);
	ck_assert_ptr_eq(flavor->get_thread_call_rcu_data(), crdp);
	ck_assert_ptr_eq(flavor->get_call_rcu_data(), crdp);
	expected_worker = flavor->get_call_rcu_thread(crdp);
	ck_assert(!pthread_equal(expected_worker, pthread_self()));

	queue_range_on_worker(0, WORKER_BATCH);
	caller_offline();
	flavor->barrier();
	caller_online();
	ck_assert_ran(0, WORKER_BATCH, 1);
	ck_assert_msg(atomic_load(&wrong_thread) == 0,
		      "%s: %ld callbacks ran outside the thread's worker",
		      flavor->name, atomic_load(&wrong_thread));

	/* Pending callbacks when the worker is unassigned and freed. */
	queue_range(WORKER_BATCH, 2 * WORKER_BATCH);
	flavor->set_thread_call_rcu_data(NULL);
	ck_assert_ptr_null(flavor->get_thread_call_rcu_data());
	caller_offline();
	flavor->call_rcu_data_free(crdp);
	flavor->barrier();
	caller_online();
	caller_exit();
	ck_assert_int_eq(atomic_load(&ran), 2 * WORKER_BATCH);
	ck_assert_ran(0, 2 * WORKER_BATCH, 1);
	track_free();
}

START_TEST(test_thread_worker)
{
	flavor = &test_flavors[_i];
	per_thread_worker(0);
}
END_TEST

/* Same with a URCU_CALL_RCU_RT worker (polls instead of sleeping). */
START_TEST(test_thread_worker_rt)
{
	flavor = &test_flavors[_i];
	per_thread_worker(URCU_CALL_RCU_RT);
}
END_TEST

/* Callbacks queued by one thread on one worker run in queueing order. */
#define FIFO_COUNT 10000L

static atomic_long fifo_next, fifo_disorder;

static void fifo_cb(struct rcu_head *head)
{
	struct tracked *t = caa_container_of(head, struct tracked, head);

	if (atomic_load(&fifo_next) != t->idx)
		atomic_fetch_add(&fifo_disorder, 1);
	atomic_store(&fifo_next, t->idx + 1);
	track_cb(head);
}

START_TEST(test_fifo_order)
{
	struct call_rcu_data *crdp;
	long i;

	flavor = &test_flavors[_i];
	track_alloc(FIFO_COUNT);
	caller_enter();
	crdp = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	flavor->set_thread_call_rcu_data(crdp);
	for (i = 0; i < FIFO_COUNT; i++) {
		flavor->call_rcu(&objs[i].head, fifo_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	flavor->set_thread_call_rcu_data(NULL);
	caller_offline();
	flavor->barrier();
	flavor->call_rcu_data_free(crdp);
	caller_online();
	caller_exit();
	ck_assert_ran(0, FIFO_COUNT, 1);
	ck_assert_msg(atomic_load(&fifo_disorder) == 0,
		      "%s: %ld callbacks ran out of queueing order", flavor->name,
		      atomic_load(&fifo_disorder));
}
END_TEST

/* The default worker cannot be freed; NULL is ignored. */
START_TEST(test_free_default_ignored)
{
	struct call_rcu_data *dflt;

	flavor = &test_flavors[_i];
	track_alloc(1);
	dflt = flavor->get_default_call_rcu_data();
	ck_assert_ptr_nonnull(dflt);
	ck_assert_ptr_eq(flavor->get_default_call_rcu_data(), dflt);
	ck_assert(!pthread_equal(flavor->get_call_rcu_thread(dflt),
				 pthread_self()));
	flavor->call_rcu_data_free(NULL);
	flavor->call_rcu_data_free(dflt);
	ck_assert_ptr_eq(flavor->get_default_call_rcu_data(), dflt);
	caller_enter();
	flavor->call_rcu(&objs[0].head, track_cb);
	caller_exit();
	flavor->barrier();
	ck_assert_ran(0, 1, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * Per-CPU workers.
 */

static long n_cpus_conf(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? n : 1;
}

/* Worker threads of the per-CPU workers, for on_cpu_worker_cb. */
static pthread_t *cpu_workers;
static long n_cpu_workers;
static atomic_long not_on_cpu_worker;

static void on_cpu_worker_cb(struct rcu_head *head)
{
	long i;

	for (i = 0; i < n_cpu_workers; i++)
		if (pthread_equal(pthread_self(), cpu_workers[i]))
			break;
	if (i == n_cpu_workers)
		atomic_fetch_add(&not_on_cpu_worker, 1);
	track_cb(head);
}

static void *queue_on_cpu_workers_thread(void *arg)
{
	struct range *r = arg;
	long i;

	caller_enter();
	for (i = r->begin; i < r->end; i++) {
		flavor->call_rcu(&objs[i].head, on_cpu_worker_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	caller_exit();
	return NULL;
}

/* Record the per-CPU workers' threads; all CPUs must be served. */
static void collect_cpu_workers(void)
{
	long c, d;

	n_cpu_workers = n_cpus_conf();
	cpu_workers = calloc((size_t) n_cpu_workers, sizeof(*cpu_workers));
	ck_assert_ptr_nonnull(cpu_workers);
	for (c = 0; c < n_cpu_workers; c++) {
		struct call_rcu_data *crdp = flavor->get_cpu_call_rcu_data((int) c);

		ck_assert_msg(crdp != NULL, "%s: CPU %ld has no worker",
			      flavor->name, c);
		for (d = 0; d < c; d++)
			ck_assert_ptr_ne(crdp,
					 flavor->get_cpu_call_rcu_data((int) d));
		cpu_workers[c] = flavor->get_call_rcu_thread(crdp);
	}
}

#define PER_CPU_EACH 20000L

START_TEST(test_per_cpu_workers)
{
	struct range halves[2] = {
		{ 0, PER_CPU_EACH }, { PER_CPU_EACH, 2 * PER_CPU_EACH },
	};
	struct call_rcu_data *other;
	pthread_t tids[2];
	long ncpu = n_cpus_conf(), c;
	int t;

	flavor = &test_flavors[_i];
	track_alloc(2 * PER_CPU_EACH);
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	ck_assert_ptr_nonnull(flavor->get_cpu_call_rcu_data(0));
	ck_assert_ptr_null(flavor->get_cpu_call_rcu_data(-1));
	ck_assert_ptr_null(flavor->get_cpu_call_rcu_data((int) ncpu));
	collect_cpu_workers();
	/* Already served everywhere: nothing to do, no error. */
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	ck_assert(pthread_equal(flavor->get_call_rcu_thread(
					flavor->get_cpu_call_rcu_data(0)),
				cpu_workers[0]));

	other = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(other);
	errno = 0;
	ck_assert_int_eq(flavor->set_cpu_call_rcu_data(-1, other), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(flavor->set_cpu_call_rcu_data((int) ncpu, other),
			 -EINVAL);
	errno = 0;
	ck_assert_int_eq(flavor->set_cpu_call_rcu_data(0, other), -EEXIST);
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_ptr_ne(flavor->get_cpu_call_rcu_data(0), other);
	flavor->call_rcu_data_free(other);

	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], queue_on_cpu_workers_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	flavor->barrier();
	ck_assert_ran(0, 2 * PER_CPU_EACH, 1);
	ck_assert_msg(atomic_load(&not_on_cpu_worker) == 0,
		      "%s: %ld callbacks of registered threads did not run "
		      "on a per-CPU worker", flavor->name,
		      atomic_load(&not_on_cpu_worker));

	flavor->free_all_cpu_call_rcu_data();
	for (c = 0; c < ncpu; c++)
		ck_assert_ptr_null(flavor->get_cpu_call_rcu_data((int) c));
	flavor->barrier();
	ck_assert_int_eq(atomic_load(&ran), 2 * PER_CPU_EACH);
	free(cpu_workers);
	track_free();
}
END_TEST

/*
 * free_all_cpu_call_rcu_data() while registered threads keep calling
 * call_rcu(): every queued callback still runs exactly once.
 */
#define CHURN_POOL 400000L

static atomic_int churn_stop;
static atomic_long churn_queued[2];

static void *churn_thread(void *arg)
{
	long t = (long) (intptr_t) arg;
	long begin = t * (CHURN_POOL / 2), i;

	caller_enter();
	for (i = begin; i < begin + CHURN_POOL / 2; i++) {
		if (atomic_load(&churn_stop))
			break;
		flavor->call_rcu(&objs[i].head, track_cb);
		atomic_store(&churn_queued[t], i - begin + 1);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	caller_exit();
	return NULL;
}

START_TEST(test_free_all_cpu_under_load)
{
	pthread_t tids[2];
	long t, total = 0;

	flavor = &test_flavors[_i];
	track_alloc(CHURN_POOL);
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], churn_thread, (void *) (intptr_t) t);
	harness_sleep_ms(20);
	flavor->free_all_cpu_call_rcu_data();
	harness_sleep_ms(20);
	atomic_store(&churn_stop, 1);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	flavor->barrier();
	for (t = 0; t < 2; t++) {
		long begin = t * (CHURN_POOL / 2);
		long q = atomic_load(&churn_queued[t]);

		ck_assert_ran(begin, begin + q, 1);
		ck_assert_ran(begin + q, begin + CHURN_POOL / 2, 0);
		total += q;
	}
	ck_assert_int_eq(atomic_load(&ran), total);
	track_free();
}
END_TEST

/* get_call_rcu_data(): the thread's worker, else the CPU's, else default. */
START_TEST(test_get_call_rcu_data_precedence)
{
	struct call_rcu_data *mine, *dflt, *got;
	long c;
	bool is_cpu = false;

	flavor = &test_flavors[_i];
	caller_enter();
	dflt = flavor->get_default_call_rcu_data();
	ck_assert_ptr_nonnull(dflt);
	ck_assert_ptr_eq(flavor->get_call_rcu_data(), dflt);

	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	flavor->fl->read_lock();
	got = flavor->get_call_rcu_data();
	flavor->fl->read_unlock();
	for (c = 0; c < n_cpus_conf(); c++)
		if (got == flavor->get_cpu_call_rcu_data((int) c))
			is_cpu = true;
	ck_assert_msg(is_cpu, "%s: get_call_rcu_data() did not return a "
		      "per-CPU worker", flavor->name);

	mine = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(mine);
	flavor->set_thread_call_rcu_data(mine);
	ck_assert_ptr_eq(flavor->get_call_rcu_data(), mine);
	flavor->set_thread_call_rcu_data(NULL);

	caller_offline();
	flavor->free_all_cpu_call_rcu_data();
	flavor->call_rcu_data_free(mine);
	caller_online();
	ck_assert_ptr_eq(flavor->get_call_rcu_data(), dflt);
	caller_exit();
}
END_TEST

/*
 * rcu_barrier() waits for the callbacks of every worker: default,
 * per-thread (of a thread that has exited) and per-CPU.
 */
#define SLOW_EACH 30L
#define SLOW_MS 2

static void slow_cb(struct rcu_head *head)
{
	harness_sleep_ms(SLOW_MS);
	track_cb(head);
}

static struct call_rcu_data *helper_crdp;

static void *queue_slow_thread(void *arg)
{
	struct range *r = arg;
	long i;

	caller_enter();
	if (helper_crdp)
		flavor->set_thread_call_rcu_data(helper_crdp);
	for (i = r->begin; i < r->end; i++)
		flavor->call_rcu(&objs[i].head, slow_cb);
	caller_exit();
	return NULL;
}

START_TEST(test_barrier_covers_all_workers)
{
	struct range r1 = { 0, SLOW_EACH }, r2 = { SLOW_EACH, 2 * SLOW_EACH };
	struct call_rcu_data *crdp;
	pthread_t tid;
	long i;

	flavor = &test_flavors[_i];
	track_alloc(3 * SLOW_EACH);
	/* A per-thread worker, used by a thread that then exits. */
	crdp = flavor->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	helper_crdp = crdp;
	harness_spawn(&tid, queue_slow_thread, &r1);
	harness_join(tid);
	helper_crdp = NULL;
	/* Per-CPU workers, used by a registered thread. */
	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	harness_spawn(&tid, queue_slow_thread, &r2);
	harness_join(tid);
	/* The default worker, used by an unregistered thread. */
	for (i = 2 * SLOW_EACH; i < 3 * SLOW_EACH; i++)
		flavor->call_rcu(&objs[i].head, slow_cb);
	flavor->barrier();
	ck_assert_int_eq(atomic_load(&ran), 3 * SLOW_EACH);
	ck_assert_ran(0, 3 * SLOW_EACH, 1);
	flavor->free_all_cpu_call_rcu_data();
	flavor->call_rcu_data_free(crdp);
	track_free();
}
END_TEST

void callrcu_add_workers(Suite *s)
{
	TCase *tc = harness_tcase(s, "workers", 60);

	add_per_flavor(tc, test_free_default_ignored);
	add_per_flavor(tc, test_thread_worker);
	add_per_flavor(tc, test_thread_worker_rt);
	add_per_flavor(tc, test_fifo_order);
	add_per_flavor(tc, test_per_cpu_workers);
	add_per_flavor(tc, test_get_call_rcu_data_precedence);
	add_per_flavor(tc, test_free_all_cpu_under_load);
	add_per_flavor(tc, test_barrier_covers_all_workers);
}
