/*
 * Check suite "wfstack": the wait-free stack (<urcu/wfstack.h>).
 *
 * TCase "api": single-threaded semantics (return values, LIFO order, state
 * flags, pop_all and iteration, and the WOULDBLOCK paths, reached by
 * building a half-pushed stack by hand through the public fields).
 * TCase "concurrent": multi-threaded stress; every pushed value must be
 * popped exactly once, and a list taken by pop_all must hold each
 * producer's values in reverse push order.
 *
 * Conventions (engineering notes, section 3): fork mode; worker threads
 * never call ck_assert, they count failures and remember the first one,
 * and the test thread asserts after pthread_join; stress phases last a
 * time budget scaled by CK_TIMEOUT_MULTIPLIER and never assert on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include <urcu/wfstack.h>

/* ------------------------------------------------------------------------
 * Utilities shared by the tests of this file.
 */

/* Stress budget before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_BASE_MS	300
/* Nodes each producer cycles through during a stress run. */
#define POOL_SIZE	1024
#define NR_PRODUCERS	2
#define NR_CONSUMERS	2

static double time_mult(void)
{
	const char *s = getenv("CK_TIMEOUT_MULTIPLIER");
	double m;
	char *end;

	if (s == NULL || *s == '\0')
		return 1.0;
	m = strtod(s, &end);
	if (end == s || !(m >= 1.0))
		return 1.0;
	return m > 20.0 ? 20.0 : m;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static uint64_t stress_deadline(void)
{
	return now_ns() + (uint64_t) (STRESS_BASE_MS * 1e6 * time_mult());
}

/* Failures recorded by worker threads, checked by the test thread. */
static unsigned long nr_failures;
static char first_failure[200];

static void record_failure(int line, const char *what)
{
	if (__atomic_fetch_add(&nr_failures, 1, __ATOMIC_RELAXED) == 0)
		snprintf(first_failure, sizeof(first_failure), "line %d: %s",
				line, what);
}

#define WORKER_CHECK(cond)						\
	do {								\
		if (!(cond))						\
			record_failure(__LINE__, #cond);		\
	} while (0)

static void assert_no_worker_failure(void)
{
	unsigned long n = __atomic_load_n(&nr_failures, __ATOMIC_RELAXED);

	ck_assert_msg(n == 0, "%lu worker failure(s), first at %s", n,
			first_failure);
}

static void start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	ck_assert_int_eq(pthread_create(t, NULL, fn, arg), 0);
}

static void join_thread(pthread_t t)
{
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long) (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* A pushed value. */
struct item {
	struct cds_wfs_node node;
	unsigned int producer;
	unsigned int seq;
	int held;	/* Stress tests: 1 while a consumer owns the node. */
};

static struct item *to_item(struct cds_wfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct item *items_new(unsigned int n)
{
	struct item *it = calloc(n, sizeof(*it));
	unsigned int i;

	ck_assert_ptr_nonnull(it);
	for (i = 0; i < n; i++) {
		cds_wfs_node_init(&it[i].node);
		it[i].seq = i;
	}
	return it;
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

START_TEST(test_init_empty)
{
	struct cds_wfs_stack s;
	struct cds_wfs_node *node;
	unsigned int count = 0;
	int state = 42;

	cds_wfs_init(&s);
	ck_assert(cds_wfs_empty(&s));
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));
	ck_assert_ptr_null(cds_wfs_pop_with_state_blocking(&s, &state));
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_null(__cds_wfs_pop_nonblocking(&s));
	ck_assert_ptr_null(cds_wfs_pop_all_blocking(&s));
	ck_assert_ptr_null(__cds_wfs_pop_all(&s));
	ck_assert_ptr_null(cds_wfs_first(NULL));
	cds_wfs_for_each_blocking(cds_wfs_pop_all_blocking(&s), node)
		count++;
	ck_assert_uint_eq(count, 0);
	cds_wfs_destroy(&s);
}
END_TEST

START_TEST(test_push_reports_prior_state)
{
	struct cds_wfs_stack s;
	struct item *it = items_new(3);

	cds_wfs_init(&s);
	ck_assert_int_eq(cds_wfs_push(&s, &it[0].node), 0);
	ck_assert(!cds_wfs_empty(&s));
	ck_assert_int_eq(cds_wfs_push(&s, &it[1].node), 1);
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&s), &it[1].node);
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&s), &it[0].node);
	ck_assert(cds_wfs_empty(&s));
	ck_assert_int_eq(cds_wfs_push(&s, &it[2].node), 0);
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

START_TEST(test_lifo_order_and_state)
{
	enum { N = 100 };
	struct cds_wfs_stack s;
	struct item *it = items_new(N);
	struct cds_wfs_node *node;
	unsigned int i;
	int state;

	cds_wfs_init(&s);
	for (i = 0; i < N; i++)
		cds_wfs_push(&s, &it[i].node);
	for (i = N; i-- > 0;) {
		node = cds_wfs_pop_with_state_blocking(&s, &state);
		ck_assert_ptr_nonnull(node);
		ck_assert_uint_eq(to_item(node)->seq, i);
		ck_assert_int_eq(state, i == 0 ? (int) CDS_WFS_STATE_LAST : 0);
	}
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/* Pushing popped nodes again (after node_init) keeps the stack sound. */
START_TEST(test_node_reuse)
{
	struct cds_wfs_stack s;
	struct item *it = items_new(2);
	struct cds_wfs_node *node;
	unsigned int round;

	cds_wfs_init(&s);
	cds_wfs_push(&s, &it[0].node);
	cds_wfs_push(&s, &it[1].node);
	for (round = 0; round < 10; round++) {
		node = cds_wfs_pop_blocking(&s);
		ck_assert_ptr_eq(node, &it[1].node);
		cds_wfs_node_init(node);
		ck_assert_int_eq(cds_wfs_push(&s, node), 1);
	}
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&s), &it[1].node);
	ck_assert_ptr_eq(cds_wfs_pop_blocking(&s), &it[0].node);
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/* The lock-less stack works with every "__" function. */
START_TEST(test_lockless_stack_nonblocking_paths)
{
	struct __cds_wfs_stack s;
	struct item *it = items_new(3);
	int state;

	__cds_wfs_init(&s);
	ck_assert(cds_wfs_empty(&s));
	ck_assert_ptr_null(__cds_wfs_pop_with_state_nonblocking(&s, &state));
	ck_assert_int_eq(state, 0);
	ck_assert_int_eq(cds_wfs_push(&s, &it[0].node), 0);
	ck_assert_int_eq(cds_wfs_push(&s, &it[1].node), 1);
	ck_assert_int_eq(cds_wfs_push(&s, &it[2].node), 1);
	ck_assert_ptr_eq(__cds_wfs_pop_nonblocking(&s), &it[2].node);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_nonblocking(&s, &state),
			&it[1].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_blocking(&s, &state),
			&it[0].node);
	ck_assert_int_eq(state, (int) CDS_WFS_STATE_LAST);
	ck_assert_ptr_null(__cds_wfs_pop_blocking(&s));
	ck_assert(cds_wfs_empty(&s));
	free(it);
}
END_TEST

START_TEST(test_pop_all_and_iteration)
{
	enum { N = 10 };
	struct cds_wfs_stack s;
	struct cds_wfs_head *head;
	struct cds_wfs_node *node, *n;
	struct item *it;
	unsigned int i, count;

	cds_wfs_init(&s);
	/* Heap nodes, so that ASan checks the "safe" variant's claim. */
	for (i = 0; i < N; i++) {
		it = malloc(sizeof(*it));
		ck_assert_ptr_nonnull(it);
		cds_wfs_node_init(&it->node);
		it->seq = i;
		cds_wfs_push(&s, &it->node);
	}
	head = cds_wfs_pop_all_blocking(&s);
	ck_assert_ptr_nonnull(head);
	ck_assert(cds_wfs_empty(&s));
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));

	/* The stack keeps working while the popped list is walked. */
	ck_assert_int_eq(cds_wfs_push(&s, &items_new(1)->node), 0);

	node = cds_wfs_first(head);
	ck_assert_uint_eq(to_item(node)->seq, N - 1);
	node = cds_wfs_next_nonblocking(node);
	ck_assert_uint_eq(to_item(node)->seq, N - 2);

	count = 0;
	cds_wfs_for_each_blocking(head, node) {
		ck_assert_uint_eq(to_item(node)->seq, N - 1 - count);
		count++;
	}
	ck_assert_uint_eq(count, N);

	count = 0;
	cds_wfs_for_each_blocking_safe(head, node, n) {
		ck_assert_uint_eq(to_item(node)->seq, N - 1 - count);
		count++;
		free(to_item(node));
	}
	ck_assert_uint_eq(count, N);

	node = cds_wfs_pop_blocking(&s);
	ck_assert_ptr_nonnull(node);
	free(to_item(node));
	head = __cds_wfs_pop_all(&s);
	ck_assert_ptr_null(head);
	ck_assert_ptr_null(cds_wfs_first(head));
	cds_wfs_destroy(&s);
}
END_TEST

/* The last node of a popped list has no successor, blocking or not. */
START_TEST(test_next_at_end)
{
	struct cds_wfs_stack s;
	struct item *it = items_new(1);
	struct cds_wfs_head *head;

	cds_wfs_init(&s);
	cds_wfs_push(&s, &it[0].node);
	head = cds_wfs_pop_all_blocking(&s);
	ck_assert_ptr_eq(cds_wfs_first(head), &it[0].node);
	ck_assert_ptr_null(cds_wfs_next_nonblocking(&it[0].node));
	ck_assert_ptr_null(cds_wfs_next_blocking(&it[0].node));
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/*
 * Half-pushed state, built by hand from the documented representation:
 * "b" was swapped in as the top but its next pointer is still NULL.
 */
START_TEST(test_wouldblock_link_in_flight)
{
	struct cds_wfs_stack s;
	struct item *it = items_new(2);
	struct cds_wfs_head *head;
	int state = 42;

	cds_wfs_init(&s);
	cds_wfs_push(&s, &it[0].node);
	/* The pusher of b stopped between its exchange and its link. */
	cds_wfs_node_init(&it[1].node);
	__atomic_store_n(&s.head, (struct cds_wfs_head *) &it[1].node,
			__ATOMIC_RELEASE);

	ck_assert(!cds_wfs_empty(&s));
	ck_assert_ptr_eq(__cds_wfs_pop_nonblocking(&s), CDS_WFS_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfs_pop_with_state_nonblocking(&s, &state),
			CDS_WFS_WOULDBLOCK);
	ck_assert_int_eq(state, 0);
	/* Refusing left the stack as it was. */
	ck_assert_ptr_eq(__atomic_load_n(&s.head, __ATOMIC_RELAXED),
			(struct cds_wfs_head *) &it[1].node);

	/* pop_all does not wait; walking the list does. */
	head = __cds_wfs_pop_all(&s);
	ck_assert_ptr_eq(cds_wfs_first(head), &it[1].node);
	ck_assert_ptr_eq(cds_wfs_next_nonblocking(&it[1].node),
			CDS_WFS_WOULDBLOCK);
	ck_assert(cds_wfs_empty(&s));

	/* The pusher completes: b links to a. */
	__atomic_store_n(&it[1].node.next, &it[0].node, __ATOMIC_RELEASE);
	ck_assert_ptr_eq(cds_wfs_next_nonblocking(&it[1].node), &it[0].node);
	ck_assert_ptr_null(cds_wfs_next_nonblocking(&it[0].node));
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/* A thread that completes a half-done push after a delay. */
struct late_link {
	struct cds_wfs_node **link;
	struct cds_wfs_node *target;
	unsigned int delay_ms;
};

static void *late_link_thread(void *arg)
{
	struct late_link *ll = arg;

	sleep_ms(ll->delay_ms);
	__atomic_store_n(ll->link, ll->target, __ATOMIC_RELEASE);
	return NULL;
}

/* Blocking calls wait (spin, then sleep) for the link in flight. */
START_TEST(test_blocking_waits_for_link)
{
	struct cds_wfs_stack s;
	struct item *it = items_new(2);
	struct cds_wfs_head *head;
	struct late_link ll;
	pthread_t t;
	int state;

	cds_wfs_init(&s);
	cds_wfs_push(&s, &it[0].node);
	cds_wfs_node_init(&it[1].node);
	__atomic_store_n(&s.head, (struct cds_wfs_head *) &it[1].node,
			__ATOMIC_RELEASE);
	ll.link = &it[1].node.next;
	ll.target = &it[0].node;
	ll.delay_ms = 30;
	start_thread(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfs_pop_with_state_blocking(&s, &state),
			&it[1].node);
	ck_assert_int_eq(state, 0);
	join_thread(t);
	ck_assert_ptr_eq(cds_wfs_pop_with_state_blocking(&s, &state),
			&it[0].node);
	ck_assert_int_eq(state, (int) CDS_WFS_STATE_LAST);

	/* Same for iteration over a popped list. */
	cds_wfs_node_init(&it[0].node);
	cds_wfs_push(&s, &it[0].node);
	cds_wfs_node_init(&it[1].node);
	__atomic_store_n(&s.head, (struct cds_wfs_head *) &it[1].node,
			__ATOMIC_RELEASE);
	head = cds_wfs_pop_all_blocking(&s);
	start_thread(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfs_next_blocking(cds_wfs_first(head)),
			&it[0].node);
	join_thread(t);
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

/*
 * Stress runs last a fixed time, so nodes are recycled: each producer
 * owns POOL_SIZE nodes, and a consumer hands every node it has checked
 * back to its producer's pool (a mutex-protected array, independent of
 * the code under test).  A producer stamps each node with the next
 * value of its counter before pushing it.
 *
 * Checks: a node is never owned by two consumers at once ("held"); in a
 * list taken by pop_all, each producer's values decrease (LIFO); the
 * number and the sum of the values taken from a producer equal the
 * number and the sum of the values it pushed (nothing lost or taken
 * twice); and at the end the stack is empty and every node is back in
 * its pool.
 */
struct pool {
	pthread_mutex_t lock;
	unsigned int nr_free;
	struct item *free[POOL_SIZE];
	struct item *items;
};

struct producer {
	pthread_t thread;
	unsigned int id;
	struct cds_wfs_stack *s;
	struct pool *pool;
	uint64_t deadline;
	unsigned long produced;		/* Read by the test thread after join. */
	unsigned long long sum;
};

/* What one consumer took from one producer. */
struct tally {
	unsigned long count;
	unsigned long long sum;
};

struct consumer {
	pthread_t thread;
	struct cds_wfs_stack *s;
	int mode;
	struct tally tally[NR_PRODUCERS];
	unsigned long wouldblock;	/* Informational only. */
};

/* Consumer modes. */
enum {
	/* cds_wfs_pop_blocking(). */
	CONSUME_POP_BLOCKING,
	/* Pop lock + __cds_wfs_pop_with_state_nonblocking(), retried. */
	CONSUME_POP_NONBLOCKING,
	/* cds_wfs_pop_all_blocking(), then walk and check the list. */
	CONSUME_POP_ALL_LOCKED,
	/* __cds_wfs_pop_all() without lock (only pop_all consumers). */
	CONSUME_POP_ALL_UNLOCKED,
};

static unsigned int producers_running;
static struct pool pools[NR_PRODUCERS];

static void pool_init(struct pool *pool)
{
	unsigned int i;

	ck_assert_int_eq(pthread_mutex_init(&pool->lock, NULL), 0);
	pool->items = items_new(POOL_SIZE);
	for (i = 0; i < POOL_SIZE; i++)
		pool->free[i] = &pool->items[i];
	pool->nr_free = POOL_SIZE;
}

static void pool_fini(struct pool *pool)
{
	ck_assert_int_eq(pthread_mutex_destroy(&pool->lock), 0);
	free(pool->items);
}

static struct item *pool_get(struct pool *pool)
{
	struct item *it = NULL;

	pthread_mutex_lock(&pool->lock);
	if (pool->nr_free > 0)
		it = pool->free[--pool->nr_free];
	pthread_mutex_unlock(&pool->lock);
	return it;
}

static void pool_put(struct pool *pool, struct item *it)
{
	pthread_mutex_lock(&pool->lock);
	if (pool->nr_free < POOL_SIZE)
		pool->free[pool->nr_free++] = it;
	else
		record_failure(__LINE__, "pool overflow: node returned twice");
	pthread_mutex_unlock(&pool->lock);
}

static void *producer_thread(void *arg)
{
	struct producer *p = arg;
	unsigned int seq;
	struct item *it;

	for (seq = 0; ; seq++) {
		if ((seq & 63) == 0 && now_ns() > p->deadline)
			break;
		while ((it = pool_get(p->pool)) == NULL)
			sched_yield();
		it->producer = p->id;
		it->seq = seq;
		cds_wfs_node_init(&it->node);
		cds_wfs_push(p->s, &it->node);
		p->sum += seq;
	}
	p->produced = seq;
	/* Release: a consumer that reads 0 also sees every push done. */
	__atomic_fetch_sub(&producers_running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Checks one node taken from the stack, accounts for it and returns it to
 * its producer.  The node must not be used afterwards.
 */
static void consume_one(struct consumer *c, struct cds_wfs_node *node)
{
	struct item *it = to_item(node);
	struct tally *t;

	if (it->producer >= NR_PRODUCERS) {
		record_failure(__LINE__, "node of unknown producer");
		return;
	}
	t = &c->tally[it->producer];
	WORKER_CHECK(__atomic_exchange_n(&it->held, 1, __ATOMIC_RELAXED) == 0);
	t->count++;
	t->sum += it->seq;
	__atomic_store_n(&it->held, 0, __ATOMIC_RELAXED);
	pool_put(&pools[it->producer], it);
}

/*
 * Consumes a list taken by pop_all: each producer's values must appear in
 * decreasing order (most recent push first).  Returns the length.  The
 * "safe" walk is needed: consume_one() hands the node back to a producer,
 * which may push it again at once.
 */
static unsigned long consume_list(struct consumer *c,
		struct cds_wfs_head *head)
{
	long last[NR_PRODUCERS];
	struct cds_wfs_node *node, *n;
	unsigned long count = 0;
	struct item *it;
	int i;

	for (i = 0; i < NR_PRODUCERS; i++)
		last[i] = -1;
	cds_wfs_for_each_blocking_safe(head, node, n) {
		it = to_item(node);
		if (it->producer < NR_PRODUCERS) {
			WORKER_CHECK(last[it->producer] < 0 ||
					(long) it->seq < last[it->producer]);
			last[it->producer] = (long) it->seq;
		}
		consume_one(c, node);
		count++;
	}
	return count;
}

static unsigned long consume_some(struct consumer *c)
{
	struct cds_wfs_node *node;
	int state;

	switch (c->mode) {
	case CONSUME_POP_NONBLOCKING:
		for (;;) {
			cds_wfs_pop_lock(c->s);
			node = __cds_wfs_pop_with_state_nonblocking(c->s,
					&state);
			cds_wfs_pop_unlock(c->s);
			if (node != CDS_WFS_WOULDBLOCK)
				break;
			WORKER_CHECK(state == 0);
			c->wouldblock++;
			sched_yield();
		}
		break;
	case CONSUME_POP_ALL_LOCKED:
		return consume_list(c, cds_wfs_pop_all_blocking(c->s));
	case CONSUME_POP_ALL_UNLOCKED:
		return consume_list(c, __cds_wfs_pop_all(c->s));
	default:
		node = cds_wfs_pop_blocking(c->s);
		break;
	}
	if (node == NULL)
		return 0;
	consume_one(c, node);
	return 1;
}

static void *consumer_thread(void *arg)
{
	struct consumer *c = arg;
	unsigned long got;
	bool done;

	for (;;) {
		/*
		 * Read before trying: if every producer had finished before
		 * an attempt that finds the stack empty, it is empty for
		 * good.  Acquire pairs with the producers' release.
		 */
		done = __atomic_load_n(&producers_running,
				__ATOMIC_ACQUIRE) == 0;
		got = consume_some(c);
		if (got)
			continue;
		if (done)
			break;
		sched_yield();
	}
	return NULL;
}

static void run_stress(const int modes[NR_CONSUMERS])
{
	struct cds_wfs_stack s;
	struct producer prod[NR_PRODUCERS];
	struct consumer cons[NR_CONSUMERS];
	unsigned long count;
	unsigned long long sum;
	uint64_t deadline;
	unsigned int i, j;

	cds_wfs_init(&s);
	producers_running = NR_PRODUCERS;
	for (i = 0; i < NR_PRODUCERS; i++) {
		pool_init(&pools[i]);
		memset(&prod[i], 0, sizeof(prod[i]));
		prod[i].id = i;
		prod[i].s = &s;
		prod[i].pool = &pools[i];
	}
	for (i = 0; i < NR_CONSUMERS; i++) {
		memset(&cons[i], 0, sizeof(cons[i]));
		cons[i].s = &s;
		cons[i].mode = modes[i];
		start_thread(&cons[i].thread, consumer_thread, &cons[i]);
	}
	deadline = stress_deadline();
	for (i = 0; i < NR_PRODUCERS; i++) {
		prod[i].deadline = deadline;
		start_thread(&prod[i].thread, producer_thread, &prod[i]);
	}
	for (i = 0; i < NR_PRODUCERS; i++)
		join_thread(prod[i].thread);
	for (i = 0; i < NR_CONSUMERS; i++)
		join_thread(cons[i].thread);

	assert_no_worker_failure();
	ck_assert(cds_wfs_empty(&s));
	for (i = 0; i < NR_PRODUCERS; i++) {
		ck_assert_uint_gt(prod[i].produced, 0);
		count = 0;
		sum = 0;
		for (j = 0; j < NR_CONSUMERS; j++) {
			count += cons[j].tally[i].count;
			sum += cons[j].tally[i].sum;
		}
		ck_assert_msg(count == prod[i].produced && sum == prod[i].sum,
				"producer %u: pushed %lu (sum %llu), "
				"popped %lu (sum %llu)", i, prod[i].produced,
				prod[i].sum, count, sum);
		ck_assert_uint_eq(pools[i].nr_free, POOL_SIZE);
		pool_fini(&pools[i]);
	}
	cds_wfs_destroy(&s);
}

START_TEST(test_mpmc_pop_blocking)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_BLOCKING, CONSUME_POP_BLOCKING,
	};

	run_stress(modes);
}
END_TEST

START_TEST(test_mpmc_pop_nonblocking)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_NONBLOCKING, CONSUME_POP_NONBLOCKING,
	};

	run_stress(modes);
}
END_TEST

/* pop_all (locked) races with pushes and with a locked single pop. */
START_TEST(test_pop_all_under_push)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_ALL_LOCKED, CONSUME_POP_BLOCKING,
	};

	run_stress(modes);
}
END_TEST

/* Two unlocked pop_all calls race with pushes (an allowed pair). */
START_TEST(test_concurrent_pop_all_unlocked)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_ALL_UNLOCKED, CONSUME_POP_ALL_UNLOCKED,
	};

	run_stress(modes);
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *wfstack_suite(void)
{
	Suite *s = suite_create("wfstack");
	TCase *api = tcase_create("api");
	TCase *conc = tcase_create("concurrent");

	tcase_add_test(api, test_init_empty);
	tcase_add_test(api, test_push_reports_prior_state);
	tcase_add_test(api, test_lifo_order_and_state);
	tcase_add_test(api, test_node_reuse);
	tcase_add_test(api, test_lockless_stack_nonblocking_paths);
	tcase_add_test(api, test_pop_all_and_iteration);
	tcase_add_test(api, test_next_at_end);
	tcase_add_test(api, test_wouldblock_link_in_flight);
	tcase_add_test(api, test_blocking_waits_for_link);
	suite_add_tcase(s, api);

	tcase_set_timeout(conc, 30);
	tcase_add_test(conc, test_mpmc_pop_blocking);
	tcase_add_test(conc, test_mpmc_pop_nonblocking);
	tcase_add_test(conc, test_pop_all_under_push);
	tcase_add_test(conc, test_concurrent_pop_all_unlocked);
	suite_add_tcase(s, conc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wfstack_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
