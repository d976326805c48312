/*
 * Check suite "lfstack": the lock-free stack (<urcu/lfstack.h>).
 *
 * TCase "api": single-threaded semantics (return values, LIFO order,
 * pop_all and the iteration macros, lock-less variant).
 * TCase "concurrent": multi-threaded stress.  Every pushed value must be
 * popped exactly once; lists taken by pop_all must hold each producer's
 * values in reverse push order; and nodes recycled between threads
 * (popped and pushed back at once, the pattern that exposes ABA) must
 * never be held by two threads nor lost, as long as pops hold the pop
 * lock or come from a single consumer.
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

#include <urcu/compiler.h>
#include <urcu/lfstack.h>

/* ------------------------------------------------------------------------
 * Utilities shared by the tests of this file.
 */

/* Stress budget before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_BASE_MS	300
/* Nodes each producer cycles through during a stress run. */
#define POOL_SIZE	1024
#define NR_PRODUCERS	2
#define NR_CONSUMERS	2
/* Recycling test: nodes in circulation and threads moving them. */
#define NR_RECYCLED	64
#define NR_RECYCLERS	4

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

/* A pushed value. */
struct item {
	struct cds_lfs_node node;
	unsigned int producer;
	unsigned int seq;
	int held;	/* Stress tests: 1 while a thread owns the node. */
};

static struct item *to_item(struct cds_lfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct item *items_new(unsigned int n)
{
	struct item *it = calloc(n, sizeof(*it));
	unsigned int i;

	ck_assert_ptr_nonnull(it);
	for (i = 0; i < n; i++) {
		cds_lfs_node_init(&it[i].node);
		it[i].seq = i;
	}
	return it;
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

START_TEST(test_init_empty)
{
	struct cds_lfs_stack s;
	struct cds_lfs_node *node, *n;
	unsigned int count = 0;

	cds_lfs_init(&s);
	ck_assert(cds_lfs_empty(&s));
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));
	ck_assert_ptr_null(cds_lfs_pop_all_blocking(&s));
	ck_assert_ptr_null(__cds_lfs_pop_all(&s));
	cds_lfs_pop_lock(&s);
	ck_assert_ptr_null(__cds_lfs_pop(&s));
	cds_lfs_pop_unlock(&s);
	cds_lfs_for_each(cds_lfs_pop_all_blocking(&s), node)
		count++;
	cds_lfs_for_each_safe(cds_lfs_pop_all_blocking(&s), node, n)
		count++;
	ck_assert_uint_eq(count, 0);
	cds_lfs_destroy(&s);
}
END_TEST

START_TEST(test_push_reports_prior_state)
{
	struct cds_lfs_stack s;
	struct item *it = items_new(3);

	cds_lfs_init(&s);
	ck_assert(!cds_lfs_push(&s, &it[0].node));
	ck_assert(!cds_lfs_empty(&s));
	ck_assert(cds_lfs_push(&s, &it[1].node));
	ck_assert_ptr_eq(cds_lfs_pop_blocking(&s), &it[1].node);
	ck_assert_ptr_eq(cds_lfs_pop_blocking(&s), &it[0].node);
	ck_assert(cds_lfs_empty(&s));
	ck_assert(!cds_lfs_push(&s, &it[2].node));
	cds_lfs_destroy(&s);
	free(it);
}
END_TEST

START_TEST(test_lifo_order)
{
	enum { N = 100 };
	struct cds_lfs_stack s;
	struct item *it = items_new(N);
	struct cds_lfs_node *node;
	unsigned int i;

	cds_lfs_init(&s);
	for (i = 0; i < N; i++)
		cds_lfs_push(&s, &it[i].node);
	for (i = N; i-- > 0;) {
		node = cds_lfs_pop_blocking(&s);
		ck_assert_ptr_nonnull(node);
		ck_assert_uint_eq(to_item(node)->seq, i);
	}
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));
	ck_assert(cds_lfs_empty(&s));
	cds_lfs_destroy(&s);
	free(it);
}
END_TEST

/* Popped nodes may be pushed again at once while the pop lock is used. */
START_TEST(test_node_reuse)
{
	struct cds_lfs_stack s;
	struct item *it = items_new(2);
	struct cds_lfs_node *node;
	unsigned int round;

	cds_lfs_init(&s);
	cds_lfs_push(&s, &it[0].node);
	cds_lfs_push(&s, &it[1].node);
	for (round = 0; round < 10; round++) {
		node = cds_lfs_pop_blocking(&s);
		ck_assert_ptr_eq(node, &it[1].node);
		cds_lfs_node_init(node);
		ck_assert(cds_lfs_push(&s, node));
	}
	ck_assert_ptr_eq(cds_lfs_pop_blocking(&s), &it[1].node);
	ck_assert_ptr_eq(cds_lfs_pop_blocking(&s), &it[0].node);
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));
	cds_lfs_destroy(&s);
	free(it);
}
END_TEST

/* The lock-less stack works with the "__" functions (single consumer). */
START_TEST(test_lockless_stack)
{
	struct __cds_lfs_stack s;
	struct item *it = items_new(3);
	struct cds_lfs_head *head;
	struct cds_lfs_node *node;
	unsigned int count;

	__cds_lfs_init(&s);
	ck_assert(cds_lfs_empty(&s));
	ck_assert_ptr_null(__cds_lfs_pop(&s));
	ck_assert(!cds_lfs_push(&s, &it[0].node));
	ck_assert(cds_lfs_push(cds_lfs_stack_cast(&s), &it[1].node));
	ck_assert(cds_lfs_push(&s, &it[2].node));
	ck_assert_ptr_eq(__cds_lfs_pop(&s), &it[2].node);
	head = __cds_lfs_pop_all(&s);
	ck_assert(cds_lfs_empty(&s));
	count = 0;
	cds_lfs_for_each(head, node) {
		ck_assert_uint_eq(to_item(node)->seq, 1 - count);
		count++;
	}
	ck_assert_uint_eq(count, 2);
	free(it);
}
END_TEST

START_TEST(test_pop_all_and_iteration)
{
	enum { N = 10 };
	struct cds_lfs_stack s;
	struct cds_lfs_head *head;
	struct cds_lfs_node *node, *n;
	struct item *it;
	unsigned int i, count;

	cds_lfs_init(&s);
	/* Heap nodes, so that ASan checks the "safe" variant's claim. */
	for (i = 0; i < N; i++) {
		it = malloc(sizeof(*it));
		ck_assert_ptr_nonnull(it);
		cds_lfs_node_init(&it->node);
		it->seq = i;
		cds_lfs_push(&s, &it->node);
	}
	head = cds_lfs_pop_all_blocking(&s);
	ck_assert_ptr_nonnull(head);
	ck_assert(cds_lfs_empty(&s));
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));

	count = 0;
	cds_lfs_for_each(head, node) {
		ck_assert_uint_eq(to_item(node)->seq, N - 1 - count);
		count++;
	}
	ck_assert_uint_eq(count, N);

	count = 0;
	cds_lfs_for_each_safe(head, node, n) {
		ck_assert_uint_eq(to_item(node)->seq, N - 1 - count);
		count++;
		free(to_item(node));
	}
	ck_assert_uint_eq(count, N);
	cds_lfs_destroy(&s);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent": producers and consumers.
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
	struct cds_lfs_stack *s;
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
	struct cds_lfs_stack *s;
	int mode;
	struct tally tally[NR_PRODUCERS];
};

/* Consumer modes. */
enum {
	/* cds_lfs_pop_blocking(). */
	CONSUME_POP_BLOCKING,
	/* cds_lfs_pop_lock() + __cds_lfs_pop() + cds_lfs_pop_unlock(). */
	CONSUME_POP_LOCKED,
	/* __cds_lfs_pop() with no lock: only as the single consumer. */
	CONSUME_POP_SINGLE,
	/* cds_lfs_pop_all_blocking(), then walk and check the list. */
	CONSUME_POP_ALL_LOCKED,
	/* Nothing: for runs with a single consumer. */
	CONSUME_IDLE,
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
		cds_lfs_node_init(&it->node);
		cds_lfs_push(p->s, &it->node);
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
static void consume_one(struct consumer *c, struct cds_lfs_node *node)
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
		struct cds_lfs_head *head)
{
	long last[NR_PRODUCERS];
	struct cds_lfs_node *node, *n;
	unsigned long count = 0;
	struct item *it;
	int i;

	for (i = 0; i < NR_PRODUCERS; i++)
		last[i] = -1;
	cds_lfs_for_each_safe(head, node, n) {
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
	struct cds_lfs_node *node;

	switch (c->mode) {
	case CONSUME_POP_LOCKED:
		cds_lfs_pop_lock(c->s);
		node = __cds_lfs_pop(c->s);
		cds_lfs_pop_unlock(c->s);
		break;
	case CONSUME_POP_SINGLE:
		node = __cds_lfs_pop(c->s);
		break;
	case CONSUME_POP_ALL_LOCKED:
		return consume_list(c, cds_lfs_pop_all_blocking(c->s));
	case CONSUME_IDLE:
		return 0;
	default:
		node = cds_lfs_pop_blocking(c->s);
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
	struct cds_lfs_stack s;
	struct producer prod[NR_PRODUCERS];
	struct consumer cons[NR_CONSUMERS];
	unsigned long count;
	unsigned long long sum;
	uint64_t deadline;
	unsigned int i, j;

	cds_lfs_init(&s);
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
	ck_assert(cds_lfs_empty(&s));
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
	cds_lfs_destroy(&s);
}

/* Concurrent push and cds_lfs_pop_blocking. */
START_TEST(test_mpmc_pop_blocking)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_BLOCKING, CONSUME_POP_BLOCKING,
	};

	run_stress(modes);
}
END_TEST

/* Explicit pop lock around __cds_lfs_pop. */
START_TEST(test_mpmc_pop_locked)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_LOCKED, CONSUME_POP_BLOCKING,
	};

	run_stress(modes);
}
END_TEST

/* Multi-producer, single-consumer: __cds_lfs_pop needs no lock. */
START_TEST(test_mpsc_pop_unlocked)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_SINGLE, CONSUME_IDLE,
	};

	run_stress(modes);
}
END_TEST

/* pop_all races with pushes and with single pops, all under the lock. */
START_TEST(test_pop_all_under_push)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_POP_ALL_LOCKED, CONSUME_POP_BLOCKING,
	};

	run_stress(modes);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent": recycling (the ABA pattern).
 */

struct recycler {
	pthread_t thread;
	struct cds_lfs_stack *s;
	unsigned int id;
	uint64_t deadline;
	unsigned long cycles;
};

/* Takes ownership of a popped node; it must not be owned already. */
static void own(struct cds_lfs_node *node)
{
	WORKER_CHECK(__atomic_exchange_n(&to_item(node)->held, 1,
			__ATOMIC_RELAXED) == 0);
}

/* Gives a node back to the stack (the push publishes the cleared flag). */
static void give_back(struct cds_lfs_stack *s, struct cds_lfs_node *node)
{
	__atomic_store_n(&to_item(node)->held, 0, __ATOMIC_RELAXED);
	cds_lfs_push(s, node);
}

/*
 * Every thread pops nodes and pushes them straight back.  Thread 0 now and
 * then takes everything with pop_all and returns it; the others pop one or
 * two nodes at a time, with cds_lfs_pop_blocking or with the pop lock held
 * around __cds_lfs_pop.  Without the lock, this is where ABA would corrupt
 * the stack.
 */
static void *recycler_thread(void *arg)
{
	struct recycler *r = arg;
	struct cds_lfs_node *a, *b, *node, *n;
	struct cds_lfs_head *head;
	unsigned long i;

	for (i = 0; ; i++) {
		if ((i & 31) == 0 && now_ns() > r->deadline)
			break;
		if (r->id == 0 && (i & 7) == 0) {
			head = cds_lfs_pop_all_blocking(r->s);
			cds_lfs_for_each_safe(head, node, n)
				own(node);
			cds_lfs_for_each_safe(head, node, n)
				give_back(r->s, node);
		} else if (r->id & 1) {
			a = cds_lfs_pop_blocking(r->s);
			b = cds_lfs_pop_blocking(r->s);
			if (a != NULL)
				own(a);
			if (b != NULL)
				own(b);
			if (a != NULL)
				give_back(r->s, a);
			if (b != NULL)
				give_back(r->s, b);
		} else {
			cds_lfs_pop_lock(r->s);
			a = __cds_lfs_pop(r->s);
			cds_lfs_pop_unlock(r->s);
			if (a != NULL) {
				own(a);
				give_back(r->s, a);
			}
		}
		r->cycles++;
	}
	return NULL;
}

START_TEST(test_recycle_push_pop)
{
	struct cds_lfs_stack s;
	struct recycler rec[NR_RECYCLERS];
	struct item *it = items_new(NR_RECYCLED);
	unsigned char found[NR_RECYCLED];
	struct cds_lfs_node *node;
	struct cds_lfs_head *head;
	uint64_t deadline;
	unsigned int i, count = 0;

	cds_lfs_init(&s);
	for (i = 0; i < NR_RECYCLED; i++)
		cds_lfs_push(&s, &it[i].node);
	deadline = stress_deadline();
	for (i = 0; i < NR_RECYCLERS; i++) {
		rec[i].s = &s;
		rec[i].id = i;
		rec[i].deadline = deadline;
		rec[i].cycles = 0;
		start_thread(&rec[i].thread, recycler_thread, &rec[i]);
	}
	for (i = 0; i < NR_RECYCLERS; i++)
		join_thread(rec[i].thread);
	assert_no_worker_failure();
	for (i = 0; i < NR_RECYCLERS; i++)
		ck_assert_uint_gt(rec[i].cycles, 0);

	/* Every node is back on the stack, once. */
	memset(found, 0, sizeof(found));
	head = cds_lfs_pop_all_blocking(&s);
	cds_lfs_for_each(head, node) {
		ck_assert_msg(to_item(node) >= &it[0] &&
				to_item(node) < &it[NR_RECYCLED],
				"foreign node %p on the stack", (void *) node);
		ck_assert_uint_eq(found[to_item(node)->seq]++, 0);
		ck_assert_int_eq(to_item(node)->held, 0);
		ck_assert_uint_le(++count, NR_RECYCLED);
	}
	ck_assert_uint_eq(count, NR_RECYCLED);
	cds_lfs_destroy(&s);
	free(it);
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *lfstack_suite(void)
{
	Suite *s = suite_create("lfstack");
	TCase *api = tcase_create("api");
	TCase *conc = tcase_create("concurrent");

	tcase_add_test(api, test_init_empty);
	tcase_add_test(api, test_push_reports_prior_state);
	tcase_add_test(api, test_lifo_order);
	tcase_add_test(api, test_node_reuse);
	tcase_add_test(api, test_lockless_stack);
	tcase_add_test(api, test_pop_all_and_iteration);
	suite_add_tcase(s, api);

	tcase_set_timeout(conc, 30);
	tcase_add_test(conc, test_mpmc_pop_blocking);
	tcase_add_test(conc, test_mpmc_pop_locked);
	tcase_add_test(conc, test_mpsc_pop_unlocked);
	tcase_add_test(conc, test_pop_all_under_push);
	tcase_add_test(conc, test_recycle_push_pop);
	suite_add_tcase(s, conc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lfstack_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
