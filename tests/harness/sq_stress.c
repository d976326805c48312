/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Stress runs of the stack and queue suites; see sq_stress.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "harness.h"
#include "sq_stress.h"

/* Stress budget before scaling, and the most the scale may stretch it. */
#define STRESS_BASE_S		0.3
#define STRESS_MULT_MAX		20.0

/* A producer's nodes not in the structure (nor held by a consumer). */
struct pool {
	pthread_mutex_t lock;
	unsigned int nr_free;
	struct sq_item *free[SQ_POOL_SIZE];
	char *nodes;
};

struct producer {
	pthread_t thread;
	unsigned int id;
	void *ds;
	const struct sq_ops *ops;
	struct pool *pool;
	double deadline;
	unsigned long produced;		/* Read by the test thread after join. */
	unsigned long long sum;
};

/* Shared state of one stress run. */
static unsigned int producers_running;
static struct pool pools[SQ_NR_PRODUCERS];

double sq_stress_deadline(void)
{
	double m = harness_time_mult();

	return harness_now() + STRESS_BASE_S *
		(m > STRESS_MULT_MAX ? STRESS_MULT_MAX : m);
}

static void pool_init(struct pool *pool, const struct sq_ops *ops)
{
	unsigned int i;

	ck_assert_int_eq(pthread_mutex_init(&pool->lock, NULL), 0);
	pool->nodes = calloc(SQ_POOL_SIZE, ops->node_size);
	ck_assert_ptr_nonnull(pool->nodes);
	for (i = 0; i < SQ_POOL_SIZE; i++) {
		pool->free[i] = sq_item_at(ops, pool->nodes, i);
		ops->node_init(pool->free[i]);
	}
	pool->nr_free = SQ_POOL_SIZE;
}

static void pool_fini(struct pool *pool)
{
	ck_assert_int_eq(pthread_mutex_destroy(&pool->lock), 0);
	free(pool->nodes);
}

static struct sq_item *pool_get(struct pool *pool)
{
	struct sq_item *it = NULL;

	pthread_mutex_lock(&pool->lock);
	if (pool->nr_free > 0)
		it = pool->free[--pool->nr_free];
	pthread_mutex_unlock(&pool->lock);
	return it;
}

static void pool_put(struct pool *pool, struct sq_item *it)
{
	pthread_mutex_lock(&pool->lock);
	if (pool->nr_free < SQ_POOL_SIZE)
		pool->free[pool->nr_free++] = it;
	else
		harness_fail("pool overflow: node returned twice");
	pthread_mutex_unlock(&pool->lock);
}

static void *producer_thread(void *arg)
{
	struct producer *p = arg;
	struct sq_item *it;
	unsigned int seq;

	for (seq = 0; ; seq++) {
		/*
		 * 63, not 0: at least a round of puts even when the thread
		 * first runs after the deadline (a loaded machine).
		 */
		if ((seq & 63) == 63 && harness_past(p->deadline))
			break;
		while ((it = pool_get(p->pool)) == NULL)
			sched_yield();
		it->producer = p->id;
		it->seq = seq;
		/*
		 * A node back from a consumer; AFTER_GP: the consumer waited
		 * for the grace period before handing it back.
		 */
		if (p->ops->reuse & SQ_REUSE_INIT)
			p->ops->node_init(it);
		p->ops->put(p->ds, it);
		p->sum += seq;
	}
	p->produced = seq;
	/* Release: a consumer that reads 0 also sees every put done. */
	__atomic_fetch_sub(&producers_running, 1, __ATOMIC_RELEASE);
	return NULL;
}

void sq_consume(struct sq_consumer *c, struct sq_item *it)
{
	struct sq_tally *t;

	if (it->producer >= SQ_NR_PRODUCERS) {
		harness_fail("node of unknown producer %u", it->producer);
		return;
	}
	t = &c->tally[it->producer];
	HARNESS_CHECK(__atomic_exchange_n(&it->held, 1, __ATOMIC_RELAXED) == 0);
	if (c->ops->fifo) {
		HARNESS_CHECK((long) it->seq > t->last);
		t->last = (long) it->seq;
	}
	t->count++;
	t->sum += it->seq;
	__atomic_store_n(&it->held, 0, __ATOMIC_RELAXED);
	pool_put(&pools[it->producer], it);
}

static void *consumer_thread(void *arg)
{
	struct sq_consumer *c = arg;
	unsigned long got;
	bool done;

	if (c->ops->consumer_begin)
		c->ops->consumer_begin(c);
	for (;;) {
		/*
		 * Read before trying: if every producer had finished before
		 * an attempt that finds the structure empty, it is empty for
		 * good.  Acquire pairs with the producers' release.
		 */
		done = __atomic_load_n(&producers_running,
				__ATOMIC_ACQUIRE) == 0;
		got = c->ops->take(c);
		if (got)
			continue;
		if (done)
			break;
		sched_yield();
	}
	if (c->ops->consumer_end)
		c->ops->consumer_end(c);
	return NULL;
}

void sq_run_stress(const struct sq_ops *ops, void *ds,
		   const struct sq_run *run)
{
	struct producer prod[SQ_NR_PRODUCERS];
	struct sq_consumer cons[SQ_NR_CONSUMERS];
	unsigned long count;
	unsigned long long sum;
	double deadline;
	unsigned int i, j;

	producers_running = SQ_NR_PRODUCERS;
	for (i = 0; i < SQ_NR_PRODUCERS; i++) {
		pool_init(&pools[i], ops);
		memset(&prod[i], 0, sizeof(prod[i]));
		prod[i].id = i;
		prod[i].ds = ds;
		prod[i].ops = ops;
		prod[i].pool = &pools[i];
	}
	for (i = 0; i < SQ_NR_CONSUMERS; i++) {
		memset(&cons[i], 0, sizeof(cons[i]));
		cons[i].id = i;
		cons[i].mode = run->modes[i];
		cons[i].ds = ds;
		cons[i].ops = ops;
		for (j = 0; j < SQ_NR_PRODUCERS; j++)
			cons[i].tally[j].last = -1;
		harness_spawn(&cons[i].thread, consumer_thread, &cons[i]);
	}
	deadline = sq_stress_deadline();
	for (i = 0; i < SQ_NR_PRODUCERS; i++) {
		prod[i].deadline = deadline;
		harness_spawn(&prod[i].thread, producer_thread, &prod[i]);
	}
	for (i = 0; i < SQ_NR_PRODUCERS; i++)
		harness_join(prod[i].thread);
	for (i = 0; i < SQ_NR_CONSUMERS; i++)
		harness_join(cons[i].thread);

	harness_assert_no_failures(run->name);
	ck_assert_msg(ops->empty(ds), "%s: not empty at the end", run->name);
	for (i = 0; i < SQ_NR_PRODUCERS; i++) {
		ck_assert_uint_gt(prod[i].produced, 0);
		count = 0;
		sum = 0;
		for (j = 0; j < SQ_NR_CONSUMERS; j++) {
			count += cons[j].tally[i].count;
			sum += cons[j].tally[i].sum;
		}
		ck_assert_msg(count == prod[i].produced && sum == prod[i].sum,
				"%s: producer %u: put %lu (sum %llu), "
				"taken %lu (sum %llu)", run->name, i,
				prod[i].produced, prod[i].sum, count, sum);
		ck_assert_uint_eq(pools[i].nr_free, SQ_POOL_SIZE);
		pool_fini(&pools[i]);
	}
}

/* Runs registered by sq_add_stress_tests(), by loop index. */
static struct {
	const struct sq_ops *ops;
	const struct sq_run *run;
} registered[SQ_STRESS_MAX];
static int nr_registered;

START_TEST(test_sq_stress)
{
	const struct sq_ops *ops = registered[_i].ops;
	void *ds = calloc(1, ops->ds_size);

	ck_assert_ptr_nonnull(ds);
	ops->init(ds);
	sq_run_stress(ops, ds, registered[_i].run);
	if (ops->destroy)
		ops->destroy(ds);
	free(ds);
}
END_TEST

void sq_add_stress_tests(TCase *tc, const struct sq_ops *ops,
			 const struct sq_run *runs, int n)
{
	int first = nr_registered, i;

	/* Called while the suite is built, outside any test. */
	if (first + n > SQ_STRESS_MAX) {
		fprintf(stderr, "sq_add_stress_tests: more than %d runs\n",
			SQ_STRESS_MAX);
		abort();
	}
	for (i = 0; i < n; i++) {
		registered[first + i].ops = ops;
		registered[first + i].run = &runs[i];
	}
	nr_registered += n;
	tcase_add_loop_test(tc, test_sq_stress, first, first + n);
}

void sq_order_init(struct sq_order *o, bool increasing)
{
	unsigned int i;

	for (i = 0; i < SQ_NR_PRODUCERS; i++)
		o->last[i] = -1;
	o->increasing = increasing;
}

bool sq_order_next(struct sq_order *o, const struct sq_item *it)
{
	long *last;

	if (it->producer >= SQ_NR_PRODUCERS)
		return false;
	last = &o->last[it->producer];
	if (o->increasing)
		HARNESS_CHECK((long) it->seq > *last);
	else
		HARNESS_CHECK(*last < 0 || (long) it->seq < *last);
	*last = (long) it->seq;
	return true;
}
