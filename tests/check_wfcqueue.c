/*
 * Check suite "wfcqueue": the wait-free concurrent queue (<urcu/wfcqueue.h>).
 *
 * TCase "api": single-threaded semantics (return codes, FIFO order, state
 * flags, splice, iteration, and the WOULDBLOCK paths, reached by building a
 * half-linked queue by hand through the public structure fields).
 * TCase "concurrent": multi-threaded stress; every value must be dequeued
 * exactly once and each producer's values must come out in its order.
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

#include <urcu/wfcqueue.h>

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

/* A queued value. */
struct item {
	struct cds_wfcq_node node;
	unsigned int producer;
	unsigned int seq;
	int held;	/* Stress tests: 1 while a consumer owns the node. */
};

static struct item *to_item(struct cds_wfcq_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct item *items_new(unsigned int n)
{
	struct item *it = calloc(n, sizeof(*it));
	unsigned int i;

	ck_assert_ptr_nonnull(it);
	for (i = 0; i < n; i++) {
		cds_wfcq_node_init(&it[i].node);
		it[i].seq = i;
	}
	return it;
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

START_TEST(test_init_empty)
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	int state = 42;

	cds_wfcq_init(&head, &tail);
	ck_assert(cds_wfcq_empty(&head, &tail));
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&head, &tail));
	ck_assert_ptr_null(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state));
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_null(__cds_wfcq_dequeue_nonblocking(&head, &tail));
	ck_assert_ptr_null(__cds_wfcq_first_blocking(&head, &tail));
	ck_assert_ptr_null(__cds_wfcq_first_nonblocking(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
}
END_TEST

START_TEST(test_enqueue_reports_prior_state)
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(3);

	cds_wfcq_init(&head, &tail);
	ck_assert(!cds_wfcq_enqueue(&head, &tail, &it[0].node));
	ck_assert(!cds_wfcq_empty(&head, &tail));
	ck_assert(cds_wfcq_enqueue(&head, &tail, &it[1].node));
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[0].node);
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[1].node);
	ck_assert(cds_wfcq_empty(&head, &tail));
	/* Empty again: the next enqueue must report it. */
	ck_assert(!cds_wfcq_enqueue(&head, &tail, &it[2].node));
	cds_wfcq_destroy(&head, &tail);
	free(it);
}
END_TEST

START_TEST(test_fifo_order_and_state)
{
	enum { N = 100 };
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(N);
	struct cds_wfcq_node *node;
	unsigned int i;
	int state;

	cds_wfcq_init(&head, &tail);
	for (i = 0; i < N; i++)
		cds_wfcq_enqueue(&head, &tail, &it[i].node);
	for (i = 0; i < N; i++) {
		node = cds_wfcq_dequeue_with_state_blocking(&head, &tail,
				&state);
		ck_assert_ptr_nonnull(node);
		ck_assert_uint_eq(to_item(node)->seq, i);
		ck_assert_int_eq(state,
				i == N - 1 ? (int) CDS_WFCQ_STATE_LAST : 0);
	}
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&head, &tail));
	ck_assert(cds_wfcq_empty(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
	free(it);
}
END_TEST

/* Re-enqueueing dequeued nodes (after node_init) keeps the queue sound. */
START_TEST(test_node_reuse)
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(2);
	struct cds_wfcq_node *node;
	unsigned int round;

	cds_wfcq_init(&head, &tail);
	cds_wfcq_enqueue(&head, &tail, &it[0].node);
	cds_wfcq_enqueue(&head, &tail, &it[1].node);
	for (round = 0; round < 10; round++) {
		node = cds_wfcq_dequeue_blocking(&head, &tail);
		ck_assert_uint_eq(to_item(node)->seq, round % 2);
		cds_wfcq_node_init(node);
		ck_assert(cds_wfcq_enqueue(&head, &tail, node));
	}
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[0].node);
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[1].node);
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
	free(it);
}
END_TEST

/* The lock-less head works with every "__" function, blocking or not. */
START_TEST(test_lockless_head_nonblocking_paths)
{
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(3);
	struct cds_wfcq_node *node;
	int state;

	__cds_wfcq_init(&head, &tail);
	ck_assert(cds_wfcq_empty(&head, &tail));
	ck_assert_ptr_null(__cds_wfcq_dequeue_with_state_nonblocking(&head,
			&tail, &state));
	ck_assert_int_eq(state, 0);
	cds_wfcq_enqueue(&head, &tail, &it[0].node);
	cds_wfcq_enqueue(&head, &tail, &it[1].node);
	cds_wfcq_enqueue(&head, &tail, &it[2].node);

	node = __cds_wfcq_first_nonblocking(&head, &tail);
	ck_assert_ptr_eq(node, &it[0].node);
	node = __cds_wfcq_next_nonblocking(&head, &tail, node);
	ck_assert_ptr_eq(node, &it[1].node);
	node = __cds_wfcq_next_nonblocking(&head, &tail, node);
	ck_assert_ptr_eq(node, &it[2].node);
	ck_assert_ptr_null(__cds_wfcq_next_nonblocking(&head, &tail, node));
	ck_assert_ptr_null(__cds_wfcq_next_blocking(&head, &tail, node));

	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&head, &tail),
			&it[0].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&head,
			&tail, &state), &it[1].node);
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_blocking(&head,
			&tail, &state), &it[2].node);
	ck_assert_int_eq(state, (int) CDS_WFCQ_STATE_LAST);
	ck_assert_ptr_null(__cds_wfcq_dequeue_blocking(&head, &tail));
	free(it);
}
END_TEST

START_TEST(test_splice_return_codes_and_order)
{
	struct cds_wfcq_head dest, src;
	struct cds_wfcq_tail dest_tail, src_tail;
	struct item *it = items_new(5);
	struct cds_wfcq_node *node;
	unsigned int i;

	cds_wfcq_init(&dest, &dest_tail);
	cds_wfcq_init(&src, &src_tail);

	/* Nothing to move. */
	ck_assert_int_eq(cds_wfcq_splice_blocking(&dest, &dest_tail,
			&src, &src_tail), CDS_WFCQ_RET_SRC_EMPTY);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&dest, &dest_tail,
			&src, &src_tail), CDS_WFCQ_RET_SRC_EMPTY);

	/* Into an empty destination. */
	cds_wfcq_enqueue(&src, &src_tail, &it[0].node);
	cds_wfcq_enqueue(&src, &src_tail, &it[1].node);
	ck_assert_int_eq(cds_wfcq_splice_blocking(&dest, &dest_tail,
			&src, &src_tail), CDS_WFCQ_RET_DEST_EMPTY);
	ck_assert(cds_wfcq_empty(&src, &src_tail));
	ck_assert(!cds_wfcq_empty(&dest, &dest_tail));

	/* Into a non-empty destination, through the "__" variants. */
	cds_wfcq_enqueue(&src, &src_tail, &it[2].node);
	cds_wfcq_enqueue(&src, &src_tail, &it[3].node);
	ck_assert_int_eq(__cds_wfcq_splice_blocking(&dest, &dest_tail,
			&src, &src_tail), CDS_WFCQ_RET_DEST_NON_EMPTY);
	cds_wfcq_enqueue(&src, &src_tail, &it[4].node);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&dest, &dest_tail,
			&src, &src_tail), CDS_WFCQ_RET_DEST_NON_EMPTY);
	ck_assert(cds_wfcq_empty(&src, &src_tail));

	/* The source is usable again after being drained. */
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&src, &src_tail));

	for (i = 0; i < 5; i++) {
		node = cds_wfcq_dequeue_blocking(&dest, &dest_tail);
		ck_assert_ptr_nonnull(node);
		ck_assert_uint_eq(to_item(node)->seq, i);
	}
	ck_assert_ptr_null(cds_wfcq_dequeue_blocking(&dest, &dest_tail));
	cds_wfcq_destroy(&dest, &dest_tail);
	cds_wfcq_destroy(&src, &src_tail);
	free(it);
}
END_TEST

START_TEST(test_iteration_macros)
{
	enum { N = 10 };
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct cds_wfcq_node *node, *n;
	struct item *it;
	unsigned int i, count;

	cds_wfcq_init(&head, &tail);
	count = 0;
	__cds_wfcq_for_each_blocking(&head, &tail, node)
		count++;
	ck_assert_uint_eq(count, 0);

	/* Heap nodes, so that ASan checks the "safe" variant's claim. */
	for (i = 0; i < N; i++) {
		it = malloc(sizeof(*it));
		ck_assert_ptr_nonnull(it);
		cds_wfcq_node_init(&it->node);
		it->seq = i;
		cds_wfcq_enqueue(&head, &tail, &it->node);
	}

	count = 0;
	cds_wfcq_dequeue_lock(&head, &tail);
	__cds_wfcq_for_each_blocking(&head, &tail, node) {
		ck_assert_uint_eq(to_item(node)->seq, count);
		count++;
	}
	cds_wfcq_dequeue_unlock(&head, &tail);
	ck_assert_uint_eq(count, N);
	ck_assert(!cds_wfcq_empty(&head, &tail));

	/* Free every node while walking, then reset the queue. */
	count = 0;
	__cds_wfcq_for_each_blocking_safe(&head, &tail, node, n) {
		ck_assert_uint_eq(to_item(node)->seq, count);
		count++;
		free(to_item(node));
	}
	ck_assert_uint_eq(count, N);
	cds_wfcq_destroy(&head, &tail);
	cds_wfcq_init(&head, &tail);
	ck_assert(cds_wfcq_empty(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
}
END_TEST

/*
 * Half-linked states, built by hand from the documented representation
 * (tail->p designates the last node; a NULL next pointer on a node that
 * is not the tail means its successor's link is in flight).
 */

/* An enqueuer of "a" into an empty queue stopped after claiming the tail. */
START_TEST(test_wouldblock_first_link_in_flight)
{
	struct cds_wfcq_head head, dest;
	struct cds_wfcq_tail tail, dest_tail;
	struct item *it = items_new(1);
	int state = 42;

	cds_wfcq_init(&head, &tail);
	cds_wfcq_init(&dest, &dest_tail);
	__atomic_store_n(&tail.p, &it[0].node, __ATOMIC_RELEASE);

	ck_assert(!cds_wfcq_empty(&head, &tail));
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&head, &tail),
			CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&head, &tail),
			CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&head,
			&tail, &state), CDS_WFCQ_WOULDBLOCK);
	ck_assert_int_eq(state, 0);
	ck_assert_int_eq(__cds_wfcq_splice_nonblocking(&dest, &dest_tail,
			&head, &tail), CDS_WFCQ_RET_WOULDBLOCK);
	ck_assert(cds_wfcq_empty(&dest, &dest_tail));

	/* The enqueuer completes: everything works again. */
	__atomic_store_n(&head.node.next, &it[0].node, __ATOMIC_RELEASE);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&head, &tail),
			&it[0].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_with_state_nonblocking(&head,
			&tail, &state), &it[0].node);
	ck_assert_int_eq(state, (int) CDS_WFCQ_STATE_LAST);
	ck_assert(cds_wfcq_empty(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
	cds_wfcq_destroy(&dest, &dest_tail);
	free(it);
}
END_TEST

/* "a" is queued; the enqueuer of "b" claimed the tail but has not linked. */
START_TEST(test_wouldblock_second_link_in_flight)
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(2);
	struct cds_wfcq_node *node;

	cds_wfcq_init(&head, &tail);
	cds_wfcq_enqueue(&head, &tail, &it[0].node);
	__atomic_store_n(&tail.p, &it[1].node, __ATOMIC_RELEASE);

	node = __cds_wfcq_first_nonblocking(&head, &tail);
	ck_assert_ptr_eq(node, &it[0].node);
	ck_assert_ptr_eq(__cds_wfcq_next_nonblocking(&head, &tail, node),
			CDS_WFCQ_WOULDBLOCK);
	/* Dequeueing "a" would need a's successor: refused, queue intact. */
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&head, &tail),
			CDS_WFCQ_WOULDBLOCK);
	ck_assert_ptr_eq(__cds_wfcq_first_nonblocking(&head, &tail),
			&it[0].node);
	ck_assert_ptr_eq(__atomic_load_n(&tail.p, __ATOMIC_RELAXED),
			&it[1].node);

	__atomic_store_n(&it[0].node.next, &it[1].node, __ATOMIC_RELEASE);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&head, &tail),
			&it[0].node);
	ck_assert_ptr_eq(__cds_wfcq_dequeue_nonblocking(&head, &tail),
			&it[1].node);
	ck_assert_ptr_null(__cds_wfcq_dequeue_nonblocking(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
	free(it);
}
END_TEST

/* A thread that completes a half-done enqueue after a delay. */
struct late_link {
	struct cds_wfcq_node **link;
	struct cds_wfcq_node *target;
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
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct item *it = items_new(2);
	struct late_link ll;
	pthread_t t;
	int state;

	cds_wfcq_init(&head, &tail);

	/* First link in flight: dequeue must wait, then succeed. */
	__atomic_store_n(&tail.p, &it[0].node, __ATOMIC_RELEASE);
	ll.link = &head.node.next;
	ll.target = &it[0].node;
	ll.delay_ms = 30;
	start_thread(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state), &it[0].node);
	ck_assert_int_eq(state, (int) CDS_WFCQ_STATE_LAST);
	join_thread(t);

	/* Second link in flight: dequeue of "a" must wait for a->next. */
	cds_wfcq_node_init(&it[0].node);
	cds_wfcq_enqueue(&head, &tail, &it[0].node);
	__atomic_store_n(&tail.p, &it[1].node, __ATOMIC_RELEASE);
	ll.link = &it[0].node.next;
	ll.target = &it[1].node;
	start_thread(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state), &it[0].node);
	ck_assert_int_eq(state, 0);
	join_thread(t);
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[1].node);
	ck_assert(cds_wfcq_empty(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
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
 * value of its counter before enqueueing it.
 *
 * Checks: a node is never owned by two consumers at once ("held"); each
 * consumer sees each producer's values in increasing order (FIFO); the
 * number and the sum of the values taken from a producer equal the
 * number and the sum of the values it enqueued (nothing lost or taken
 * twice); and at the end the queue is empty and every node is back in
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
	struct cds_wfcq_head *head;
	struct cds_wfcq_tail *tail;
	struct pool *pool;
	uint64_t deadline;
	unsigned long produced;		/* Read by the test thread after join. */
	unsigned long long sum;
};

/* What one consumer took from one producer. */
struct tally {
	unsigned long count;
	unsigned long long sum;
	long last;			/* Last value seen, for the FIFO check. */
};

struct consumer {
	pthread_t thread;
	struct cds_wfcq_head *head;
	struct cds_wfcq_tail *tail;
	int mode;
	struct tally tally[NR_PRODUCERS];
	unsigned long wouldblock;	/* Informational only. */
};

/* Consumer modes. */
enum {
	/* cds_wfcq_dequeue_blocking(). */
	CONSUME_LOCKED_BLOCKING,
	/* Dequeue lock + __cds_wfcq_dequeue_nonblocking(), retried. */
	CONSUME_NONBLOCKING,
	/* Dequeue lock, walk the whole queue, dequeue one node. */
	CONSUME_ITERATE,
	/* cds_wfcq_splice_blocking() into a private queue, then drain it. */
	CONSUME_SPLICE_LOCKED,
	/* Same with __cds_wfcq_splice_blocking(), no lock. */
	CONSUME_SPLICE_UNLOCKED,
	/* Same with __cds_wfcq_splice_nonblocking(), no lock, retried. */
	CONSUME_SPLICE_NONBLOCKING,
};

/* Shared state of one stress run. */
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
		cds_wfcq_node_init(&it->node);
		cds_wfcq_enqueue(p->head, p->tail, &it->node);
		p->sum += seq;
	}
	p->produced = seq;
	/* Release: a consumer that reads 0 also sees every enqueue done. */
	__atomic_fetch_sub(&producers_running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Checks one node taken from the queue, accounts for it and returns it to
 * its producer.  The node must not be used afterwards.
 */
static void consume_one(struct consumer *c, struct cds_wfcq_node *node)
{
	struct item *it = to_item(node);
	struct tally *t;

	if (it->producer >= NR_PRODUCERS) {
		record_failure(__LINE__, "node of unknown producer");
		return;
	}
	t = &c->tally[it->producer];
	WORKER_CHECK(__atomic_exchange_n(&it->held, 1, __ATOMIC_RELAXED) == 0);
	WORKER_CHECK((long) it->seq > t->last);
	t->last = (long) it->seq;
	t->count++;
	t->sum += it->seq;
	__atomic_store_n(&it->held, 0, __ATOMIC_RELAXED);
	pool_put(&pools[it->producer], it);
}

/*
 * Walks the queue (lock held), at most WALK_LIMIT nodes so that a long
 * queue does not make the test quadratic: each producer's values must
 * increase along the walk.
 */
#define WALK_LIMIT	256

static void check_walk(struct consumer *c)
{
	struct cds_wfcq_node *node;
	long last[NR_PRODUCERS];
	struct item *it;
	int i, n = 0;

	for (i = 0; i < NR_PRODUCERS; i++)
		last[i] = -1;
	__cds_wfcq_for_each_blocking(c->head, c->tail, node) {
		if (++n > WALK_LIMIT)
			break;
		it = to_item(node);
		if (it->producer >= NR_PRODUCERS) {
			record_failure(__LINE__, "walk: unknown producer");
			return;
		}
		WORKER_CHECK((long) it->seq > last[it->producer]);
		last[it->producer] = (long) it->seq;
	}
}

/* Takes at most one node from the shared queue, per the consumer mode. */
static struct cds_wfcq_node *consumer_dequeue(struct consumer *c)
{
	struct cds_wfcq_node *node;

	switch (c->mode) {
	case CONSUME_NONBLOCKING:
		for (;;) {
			cds_wfcq_dequeue_lock(c->head, c->tail);
			node = __cds_wfcq_dequeue_nonblocking(c->head, c->tail);
			cds_wfcq_dequeue_unlock(c->head, c->tail);
			if (node != CDS_WFCQ_WOULDBLOCK)
				return node;
			c->wouldblock++;
			sched_yield();
		}
	case CONSUME_ITERATE:
		cds_wfcq_dequeue_lock(c->head, c->tail);
		check_walk(c);
		node = __cds_wfcq_dequeue_blocking(c->head, c->tail);
		cds_wfcq_dequeue_unlock(c->head, c->tail);
		return node;
	default:
		return cds_wfcq_dequeue_blocking(c->head, c->tail);
	}
}

/* Splices the shared queue into priv and drains it; returns the count. */
static unsigned long consume_by_splice(struct consumer *c,
		struct cds_wfcq_head *priv, struct cds_wfcq_tail *priv_tail)
{
	struct cds_wfcq_node *node;
	enum cds_wfcq_ret ret;
	unsigned long n = 0;

	switch (c->mode) {
	case CONSUME_SPLICE_LOCKED:
		ret = cds_wfcq_splice_blocking(priv, priv_tail,
				c->head, c->tail);
		break;
	case CONSUME_SPLICE_UNLOCKED:
		ret = __cds_wfcq_splice_blocking(priv, priv_tail,
				c->head, c->tail);
		WORKER_CHECK(ret != CDS_WFCQ_RET_WOULDBLOCK);
		break;
	default:
		for (;;) {
			ret = __cds_wfcq_splice_nonblocking(priv, priv_tail,
					c->head, c->tail);
			if (ret != CDS_WFCQ_RET_WOULDBLOCK)
				break;
			c->wouldblock++;
			sched_yield();
		}
		break;
	}
	if (ret == CDS_WFCQ_RET_SRC_EMPTY)
		return 0;
	/* priv is drained after every splice, so it was empty. */
	WORKER_CHECK(ret == CDS_WFCQ_RET_DEST_EMPTY);
	while ((node = __cds_wfcq_dequeue_blocking(priv, priv_tail)) != NULL) {
		consume_one(c, node);
		n++;
	}
	return n;
}

static void *consumer_thread(void *arg)
{
	struct consumer *c = arg;
	struct cds_wfcq_head priv;
	struct cds_wfcq_tail priv_tail;
	struct cds_wfcq_node *node;
	unsigned long got;
	bool done;

	cds_wfcq_init(&priv, &priv_tail);
	for (;;) {
		/*
		 * Read before trying: if every producer had finished before
		 * an attempt that finds the queue empty, it is empty for
		 * good.  Acquire pairs with the producers' release.
		 */
		done = __atomic_load_n(&producers_running,
				__ATOMIC_ACQUIRE) == 0;
		if (c->mode >= CONSUME_SPLICE_LOCKED) {
			got = consume_by_splice(c, &priv, &priv_tail);
		} else {
			node = consumer_dequeue(c);
			got = node != NULL;
			if (node != NULL)
				consume_one(c, node);
		}
		if (got)
			continue;
		if (done)
			break;
		sched_yield();
	}
	WORKER_CHECK(cds_wfcq_empty(&priv, &priv_tail));
	cds_wfcq_destroy(&priv, &priv_tail);
	return NULL;
}

/* NR_PRODUCERS producers, NR_CONSUMERS consumers with the given modes. */
static void run_mpmc(const int modes[NR_CONSUMERS])
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	struct producer prod[NR_PRODUCERS];
	struct consumer cons[NR_CONSUMERS];
	unsigned long count;
	unsigned long long sum;
	uint64_t deadline;
	unsigned int i, j;

	cds_wfcq_init(&head, &tail);
	producers_running = NR_PRODUCERS;
	for (i = 0; i < NR_PRODUCERS; i++) {
		pool_init(&pools[i]);
		memset(&prod[i], 0, sizeof(prod[i]));
		prod[i].id = i;
		prod[i].head = &head;
		prod[i].tail = &tail;
		prod[i].pool = &pools[i];
	}
	for (i = 0; i < NR_CONSUMERS; i++) {
		memset(&cons[i], 0, sizeof(cons[i]));
		cons[i].head = &head;
		cons[i].tail = &tail;
		cons[i].mode = modes[i];
		for (j = 0; j < NR_PRODUCERS; j++)
			cons[i].tally[j].last = -1;
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
	ck_assert(cds_wfcq_empty(&head, &tail));
	for (i = 0; i < NR_PRODUCERS; i++) {
		ck_assert_uint_gt(prod[i].produced, 0);
		count = 0;
		sum = 0;
		for (j = 0; j < NR_CONSUMERS; j++) {
			count += cons[j].tally[i].count;
			sum += cons[j].tally[i].sum;
		}
		ck_assert_msg(count == prod[i].produced && sum == prod[i].sum,
				"producer %u: enqueued %lu (sum %llu), "
				"dequeued %lu (sum %llu)", i, prod[i].produced,
				prod[i].sum, count, sum);
		ck_assert_uint_eq(pools[i].nr_free, POOL_SIZE);
		pool_fini(&pools[i]);
	}
	cds_wfcq_destroy(&head, &tail);
}

START_TEST(test_mpmc_blocking)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_LOCKED_BLOCKING, CONSUME_LOCKED_BLOCKING,
	};

	run_mpmc(modes);
}
END_TEST

START_TEST(test_mpmc_nonblocking)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_NONBLOCKING, CONSUME_NONBLOCKING,
	};

	run_mpmc(modes);
}
END_TEST

/* Walks under the dequeue lock while producers enqueue and a peer dequeues. */
START_TEST(test_iterate_under_enqueue)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_ITERATE, CONSUME_LOCKED_BLOCKING,
	};

	run_mpmc(modes);
}
END_TEST

/* Locked splices race with enqueues and with a locked dequeuer. */
START_TEST(test_splice_under_enqueue)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_SPLICE_LOCKED, CONSUME_LOCKED_BLOCKING,
	};

	run_mpmc(modes);
}
END_TEST

/* Two unlocked splices drain one source concurrently (allowed pair). */
START_TEST(test_concurrent_splices_same_source)
{
	static const int modes[NR_CONSUMERS] = {
		CONSUME_SPLICE_UNLOCKED, CONSUME_SPLICE_NONBLOCKING,
	};

	run_mpmc(modes);
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *wfcqueue_suite(void)
{
	Suite *s = suite_create("wfcqueue");
	TCase *api = tcase_create("api");
	TCase *conc = tcase_create("concurrent");

	tcase_add_test(api, test_init_empty);
	tcase_add_test(api, test_enqueue_reports_prior_state);
	tcase_add_test(api, test_fifo_order_and_state);
	tcase_add_test(api, test_node_reuse);
	tcase_add_test(api, test_lockless_head_nonblocking_paths);
	tcase_add_test(api, test_splice_return_codes_and_order);
	tcase_add_test(api, test_iteration_macros);
	tcase_add_test(api, test_wouldblock_first_link_in_flight);
	tcase_add_test(api, test_wouldblock_second_link_in_flight);
	tcase_add_test(api, test_blocking_waits_for_link);
	suite_add_tcase(s, api);

	tcase_set_timeout(conc, 30);
	tcase_add_test(conc, test_mpmc_blocking);
	tcase_add_test(conc, test_mpmc_nonblocking);
	tcase_add_test(conc, test_iterate_under_enqueue);
	tcase_add_test(conc, test_splice_under_enqueue);
	tcase_add_test(conc, test_concurrent_splices_same_source);
	suite_add_tcase(s, conc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wfcqueue_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
