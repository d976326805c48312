/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "wfcqueue": the wait-free concurrent queue (<urcu/wfcqueue.h>).
 *
 * TCase "api": single-threaded semantics: what every stack and queue has
 * (empty queue, return codes, FIFO order with state flags, node reuse),
 * run by tests/harness/sq_api.c from the queue's struct sq_ops, then
 * what is the queue's own (splice, iteration, and the WOULDBLOCK paths,
 * reached by building a half-linked queue by hand through the public
 * structure fields).
 * TCase "concurrent": multi-threaded stress; every value must be dequeued
 * exactly once and each producer's values must come out in its order.
 *
 * Conventions: fork mode, so that a crash or a sanitizer report is
 * charged to its own test and no thread outlives it; worker threads never
 * call ck_assert (without fork mode it would longjmp across threads),
 * they record failures (tests/harness/harness.h) and the test thread
 * asserts after pthread_join; stress phases last a time budget scaled by
 * CK_TIMEOUT_MULTIPLIER (sanitizers run several times slower) and never
 * assert on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/wfcqueue.h>

#include "harness/harness.h"
#include "harness/sq.h"
#include "harness/sq_stress.h"

/* ------------------------------------------------------------------------
 * The queue as tests/harness/sq.h describes it.
 */

/* A queued value. */
struct item {
	struct cds_wfcq_node node;
	struct sq_item sq;	/* Value, and stress-test state. */
};

/* The queue under test. */
struct queue {
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
};

static struct item *to_item(struct cds_wfcq_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct cds_wfcq_node *node_of(struct sq_item *it)
{
	return &caa_container_of(it, struct item, sq)->node;
}

static struct sq_item *item_of(struct cds_wfcq_node *node)
{
	return node ? &to_item(node)->sq : NULL;
}

static void q_init(void *ds)
{
	struct queue *q = ds;

	cds_wfcq_init(&q->head, &q->tail);
}

static void q_destroy(void *ds)
{
	struct queue *q = ds;

	cds_wfcq_destroy(&q->head, &q->tail);
}

static void q_node_init(struct sq_item *it)
{
	cds_wfcq_node_init(node_of(it));
}

static bool q_put(void *ds, struct sq_item *it)
{
	struct queue *q = ds;

	return cds_wfcq_enqueue(&q->head, &q->tail, node_of(it));
}

static struct sq_item *q_take_one(void *ds)
{
	struct queue *q = ds;

	return item_of(cds_wfcq_dequeue_blocking(&q->head, &q->tail));
}

static struct sq_item *q_take_with_state(void *ds, bool *last)
{
	struct queue *q = ds;
	struct cds_wfcq_node *node;
	int state;

	node = cds_wfcq_dequeue_with_state_blocking(&q->head, &q->tail,
						    &state);
	*last = state & CDS_WFCQ_STATE_LAST;
	return item_of(node);
}

static bool q_empty(void *ds)
{
	struct queue *q = ds;

	return cds_wfcq_empty(&q->head, &q->tail);
}

/* The stress runs' consumers (TCase "concurrent"). */
static unsigned long stress_take(struct sq_consumer *c);
static void consumer_begin(struct sq_consumer *c);
static void consumer_end(struct sq_consumer *c);

static const struct sq_ops queue_ops = {
	.name = "wfcqueue",
	.fifo = true,
	.node_size = sizeof(struct item),
	.item_offset = offsetof(struct item, sq),
	.ds_size = sizeof(struct queue),
	.init = q_init,
	.destroy = q_destroy,
	.node_init = q_node_init,
	.reuse = SQ_REUSE_INIT,
	.put = q_put,
	.put_reports = true,
	.take_one = q_take_one,
	.take_with_state = q_take_with_state,
	.empty = q_empty,
	.take = stress_take,
	.consumer_begin = consumer_begin,
	.consumer_end = consumer_end,
};

static struct item *items_new(unsigned int n)
{
	return sq_nodes_new(&queue_ops, n);
}

/* ------------------------------------------------------------------------
 * TCase "api": what tests/harness/sq_api.c does not test.
 */

/* The calls sq_api.c does not make give nothing on an empty queue. */
START_TEST(test_empty_other_calls)
{
	struct cds_wfcq_head head;
	struct cds_wfcq_tail tail;
	int state = 42;

	cds_wfcq_init(&head, &tail);
	ck_assert_ptr_null(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state));
	ck_assert_int_eq(state, 0);
	ck_assert_ptr_null(__cds_wfcq_dequeue_nonblocking(&head, &tail));
	ck_assert_ptr_null(__cds_wfcq_first_blocking(&head, &tail));
	ck_assert_ptr_null(__cds_wfcq_first_nonblocking(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
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
		ck_assert_uint_eq(to_item(node)->sq.seq, i);
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
		it->sq.seq = i;
		cds_wfcq_enqueue(&head, &tail, &it->node);
	}

	count = 0;
	cds_wfcq_dequeue_lock(&head, &tail);
	__cds_wfcq_for_each_blocking(&head, &tail, node) {
		ck_assert_uint_eq(to_item(node)->sq.seq, count);
		count++;
	}
	cds_wfcq_dequeue_unlock(&head, &tail);
	ck_assert_uint_eq(count, N);
	ck_assert(!cds_wfcq_empty(&head, &tail));

	/* Free every node while walking, then reset the queue. */
	count = 0;
	__cds_wfcq_for_each_blocking_safe(&head, &tail, node, n) {
		ck_assert_uint_eq(to_item(node)->sq.seq, count);
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

	harness_sleep_ms(ll->delay_ms);
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
	harness_spawn(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state), &it[0].node);
	ck_assert_int_eq(state, (int) CDS_WFCQ_STATE_LAST);
	harness_join(t);

	/* Second link in flight: dequeue of "a" must wait for a->next. */
	cds_wfcq_node_init(&it[0].node);
	cds_wfcq_enqueue(&head, &tail, &it[0].node);
	__atomic_store_n(&tail.p, &it[1].node, __ATOMIC_RELEASE);
	ll.link = &it[0].node.next;
	ll.target = &it[1].node;
	harness_spawn(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfcq_dequeue_with_state_blocking(&head, &tail,
			&state), &it[0].node);
	ck_assert_int_eq(state, 0);
	harness_join(t);
	ck_assert_ptr_eq(cds_wfcq_dequeue_blocking(&head, &tail), &it[1].node);
	ck_assert(cds_wfcq_empty(&head, &tail));
	cds_wfcq_destroy(&head, &tail);
	free(it);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent" (tests/harness/sq_stress.h): FIFO, so each consumer
 * must see each producer's values in increasing order.
 */

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

/* Each consumer's private queue, for the splice modes. */
static struct queue privs[SQ_NR_CONSUMERS];

/*
 * Walks the queue (lock held), at most WALK_LIMIT nodes so that a long
 * queue does not make the test quadratic: each producer's values must
 * increase along the walk.
 */
#define WALK_LIMIT	256

static void check_walk(struct queue *q)
{
	struct cds_wfcq_node *node;
	struct sq_order order;
	int n = 0;

	sq_order_init(&order, true);
	__cds_wfcq_for_each_blocking(&q->head, &q->tail, node) {
		if (++n > WALK_LIMIT)
			break;
		if (!sq_order_next(&order, &to_item(node)->sq)) {
			harness_fail("walk: unknown producer");
			return;
		}
	}
}

/* Takes at most one node from the shared queue, per the consumer mode. */
static struct cds_wfcq_node *consumer_dequeue(struct sq_consumer *c)
{
	struct queue *q = c->ds;
	struct cds_wfcq_node *node;

	switch (c->mode) {
	case CONSUME_NONBLOCKING:
		for (;;) {
			cds_wfcq_dequeue_lock(&q->head, &q->tail);
			node = __cds_wfcq_dequeue_nonblocking(&q->head,
					&q->tail);
			cds_wfcq_dequeue_unlock(&q->head, &q->tail);
			if (node != CDS_WFCQ_WOULDBLOCK)
				return node;
			c->wouldblock++;
			sched_yield();
		}
	case CONSUME_ITERATE:
		cds_wfcq_dequeue_lock(&q->head, &q->tail);
		check_walk(q);
		node = __cds_wfcq_dequeue_blocking(&q->head, &q->tail);
		cds_wfcq_dequeue_unlock(&q->head, &q->tail);
		return node;
	default:
		return cds_wfcq_dequeue_blocking(&q->head, &q->tail);
	}
}

/* Splices the shared queue into the private one and drains it. */
static unsigned long consume_by_splice(struct sq_consumer *c)
{
	struct queue *q = c->ds, *priv = &privs[c->id];
	struct cds_wfcq_node *node;
	enum cds_wfcq_ret ret;
	unsigned long n = 0;

	switch (c->mode) {
	case CONSUME_SPLICE_LOCKED:
		ret = cds_wfcq_splice_blocking(&priv->head, &priv->tail,
				&q->head, &q->tail);
		break;
	case CONSUME_SPLICE_UNLOCKED:
		ret = __cds_wfcq_splice_blocking(&priv->head, &priv->tail,
				&q->head, &q->tail);
		HARNESS_CHECK(ret != CDS_WFCQ_RET_WOULDBLOCK);
		break;
	default:
		for (;;) {
			ret = __cds_wfcq_splice_nonblocking(&priv->head,
					&priv->tail, &q->head, &q->tail);
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
	HARNESS_CHECK(ret == CDS_WFCQ_RET_DEST_EMPTY);
	while ((node = __cds_wfcq_dequeue_blocking(&priv->head,
			&priv->tail)) != NULL) {
		sq_consume(c, &to_item(node)->sq);
		n++;
	}
	return n;
}

static unsigned long stress_take(struct sq_consumer *c)
{
	struct cds_wfcq_node *node;

	if (c->mode >= CONSUME_SPLICE_LOCKED)
		return consume_by_splice(c);
	node = consumer_dequeue(c);
	if (node == NULL)
		return 0;
	sq_consume(c, &to_item(node)->sq);
	return 1;
}

static void consumer_begin(struct sq_consumer *c)
{
	cds_wfcq_init(&privs[c->id].head, &privs[c->id].tail);
}

static void consumer_end(struct sq_consumer *c)
{
	struct queue *priv = &privs[c->id];

	HARNESS_CHECK(cds_wfcq_empty(&priv->head, &priv->tail));
	cds_wfcq_destroy(&priv->head, &priv->tail);
}

static const struct sq_run stress_runs[] = {
	{ "mpmc_blocking",
	  { CONSUME_LOCKED_BLOCKING, CONSUME_LOCKED_BLOCKING } },
	{ "mpmc_nonblocking",
	  { CONSUME_NONBLOCKING, CONSUME_NONBLOCKING } },
	/* Walks under the dequeue lock while producers enqueue, a peer dequeues. */
	{ "iterate_under_enqueue",
	  { CONSUME_ITERATE, CONSUME_LOCKED_BLOCKING } },
	/* Locked splices race with enqueues and with a locked dequeuer. */
	{ "splice_under_enqueue",
	  { CONSUME_SPLICE_LOCKED, CONSUME_LOCKED_BLOCKING } },
	/* Two unlocked splices drain one source concurrently (allowed pair). */
	{ "concurrent_splices_same_source",
	  { CONSUME_SPLICE_UNLOCKED, CONSUME_SPLICE_NONBLOCKING } },
};

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *wfcqueue_suite(void)
{
	Suite *s = suite_create("wfcqueue");
	TCase *api = harness_tcase(s, "api", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	sq_add_api_tests(api, &queue_ops);
	tcase_add_test(api, test_empty_other_calls);
	tcase_add_test(api, test_lockless_head_nonblocking_paths);
	tcase_add_test(api, test_splice_return_codes_and_order);
	tcase_add_test(api, test_iteration_macros);
	tcase_add_test(api, test_wouldblock_first_link_in_flight);
	tcase_add_test(api, test_wouldblock_second_link_in_flight);
	tcase_add_test(api, test_blocking_waits_for_link);

	sq_add_stress_tests(conc, &queue_ops, stress_runs,
			    (int) CAA_ARRAY_SIZE(stress_runs));
	return s;
}

int main(void)
{
	return harness_run_suite(wfcqueue_suite());
}
