/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "wfstack": the wait-free stack (<urcu/wfstack.h>).
 *
 * TCase "api": single-threaded semantics: what every stack and queue has
 * (empty stack, return values, LIFO order with state flags, node reuse),
 * run by tests/harness/sq_api.c from the stack's struct sq_ops, then
 * what is the stack's own (pop_all and iteration, and the WOULDBLOCK
 * paths, reached by building a half-pushed stack by hand through the
 * public fields).
 * TCase "concurrent": multi-threaded stress; every pushed value must be
 * popped exactly once, and a list taken by pop_all must hold each
 * producer's values in reverse push order.
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
#include <urcu/wfstack.h>

#include "harness/harness.h"
#include "harness/sq.h"
#include "harness/sq_stress.h"

/* ------------------------------------------------------------------------
 * The stack as tests/harness/sq.h describes it.
 */

/* A pushed value. */
struct item {
	struct cds_wfs_node node;
	struct sq_item sq;	/* Value, and stress-test state. */
};

static struct item *to_item(struct cds_wfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct cds_wfs_node *node_of(struct sq_item *it)
{
	return &caa_container_of(it, struct item, sq)->node;
}

static struct sq_item *item_of(struct cds_wfs_node *node)
{
	return node ? &to_item(node)->sq : NULL;
}

static void s_init(void *s)
{
	cds_wfs_init(s);
}

static void s_destroy(void *s)
{
	cds_wfs_destroy(s);
}

static void s_node_init(struct sq_item *it)
{
	cds_wfs_node_init(node_of(it));
}

static bool s_put(void *s, struct sq_item *it)
{
	return cds_wfs_push(s, node_of(it));
}

static struct sq_item *s_take_one(void *s)
{
	return item_of(cds_wfs_pop_blocking(s));
}

static struct sq_item *s_take_with_state(void *s, bool *last)
{
	struct cds_wfs_node *node;
	int state;

	node = cds_wfs_pop_with_state_blocking(s, &state);
	*last = state & CDS_WFS_STATE_LAST;
	return item_of(node);
}

static bool s_empty(void *s)
{
	return cds_wfs_empty((struct cds_wfs_stack *) s);
}

/* The stress runs' consumers (TCase "concurrent"). */
static unsigned long stress_take(struct sq_consumer *c);

static const struct sq_ops stack_ops = {
	.name = "wfstack",
	.fifo = false,
	.node_size = sizeof(struct item),
	.item_offset = offsetof(struct item, sq),
	.ds_size = sizeof(struct cds_wfs_stack),
	.init = s_init,
	.destroy = s_destroy,
	.node_init = s_node_init,
	.reuse = SQ_REUSE_INIT,
	.put = s_put,
	.put_reports = true,
	.take_one = s_take_one,
	.take_with_state = s_take_with_state,
	.empty = s_empty,
	.take = stress_take,
};

static struct item *items_new(unsigned int n)
{
	return sq_nodes_new(&stack_ops, n);
}

/* ------------------------------------------------------------------------
 * TCase "api": what tests/harness/sq_api.c does not test.
 */

/* The calls sq_api.c does not make give nothing on an empty stack. */
START_TEST(test_empty_other_calls)
{
	struct cds_wfs_stack s;
	struct cds_wfs_node *node;
	unsigned int count = 0;
	int state = 42;

	cds_wfs_init(&s);
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
		it->sq.seq = i;
		cds_wfs_push(&s, &it->node);
	}
	head = cds_wfs_pop_all_blocking(&s);
	ck_assert_ptr_nonnull(head);
	ck_assert(cds_wfs_empty(&s));
	ck_assert_ptr_null(cds_wfs_pop_blocking(&s));

	/* The stack keeps working while the popped list is walked. */
	ck_assert_int_eq(cds_wfs_push(&s, &items_new(1)->node), 0);

	node = cds_wfs_first(head);
	ck_assert_uint_eq(to_item(node)->sq.seq, N - 1);
	node = cds_wfs_next_nonblocking(node);
	ck_assert_uint_eq(to_item(node)->sq.seq, N - 2);

	count = 0;
	cds_wfs_for_each_blocking(head, node) {
		ck_assert_uint_eq(to_item(node)->sq.seq, N - 1 - count);
		count++;
	}
	ck_assert_uint_eq(count, N);

	count = 0;
	cds_wfs_for_each_blocking_safe(head, node, n) {
		ck_assert_uint_eq(to_item(node)->sq.seq, N - 1 - count);
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

	harness_sleep_ms(ll->delay_ms);
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
	harness_spawn(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfs_pop_with_state_blocking(&s, &state),
			&it[1].node);
	ck_assert_int_eq(state, 0);
	harness_join(t);
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
	harness_spawn(&t, late_link_thread, &ll);
	ck_assert_ptr_eq(cds_wfs_next_blocking(cds_wfs_first(head)),
			&it[0].node);
	harness_join(t);
	cds_wfs_destroy(&s);
	free(it);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent" (tests/harness/sq_stress.h).  In a list taken by
 * pop_all, each producer's values must decrease (LIFO).
 */

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

/* Consumes a list taken by pop_all (most recent push first); its length. */
static unsigned long consume_list(struct sq_consumer *c,
		struct cds_wfs_head *head)
{
	struct cds_wfs_node *node, *n;
	unsigned long count = 0;
	struct sq_order order;

	sq_order_init(&order, false);
	cds_wfs_for_each_blocking_safe(head, node, n) {
		sq_order_next(&order, &to_item(node)->sq);
		sq_consume(c, &to_item(node)->sq);
		count++;
	}
	return count;
}

static unsigned long stress_take(struct sq_consumer *c)
{
	struct cds_wfs_stack *s = c->ds;
	struct cds_wfs_node *node;
	int state;

	switch (c->mode) {
	case CONSUME_POP_NONBLOCKING:
		for (;;) {
			cds_wfs_pop_lock(s);
			node = __cds_wfs_pop_with_state_nonblocking(s, &state);
			cds_wfs_pop_unlock(s);
			if (node != CDS_WFS_WOULDBLOCK)
				break;
			HARNESS_CHECK(state == 0);
			c->wouldblock++;
			sched_yield();
		}
		break;
	case CONSUME_POP_ALL_LOCKED:
		return consume_list(c, cds_wfs_pop_all_blocking(s));
	case CONSUME_POP_ALL_UNLOCKED:
		return consume_list(c, __cds_wfs_pop_all(s));
	default:
		node = cds_wfs_pop_blocking(s);
		break;
	}
	if (node == NULL)
		return 0;
	sq_consume(c, &to_item(node)->sq);
	return 1;
}

static const struct sq_run stress_runs[] = {
	{ "mpmc_pop_blocking",
	  { CONSUME_POP_BLOCKING, CONSUME_POP_BLOCKING } },
	{ "mpmc_pop_nonblocking",
	  { CONSUME_POP_NONBLOCKING, CONSUME_POP_NONBLOCKING } },
	/* pop_all (locked) races with pushes and with a locked single pop. */
	{ "pop_all_under_push",
	  { CONSUME_POP_ALL_LOCKED, CONSUME_POP_BLOCKING } },
	/* Two unlocked pop_all calls race with pushes (an allowed pair). */
	{ "concurrent_pop_all_unlocked",
	  { CONSUME_POP_ALL_UNLOCKED, CONSUME_POP_ALL_UNLOCKED } },
};

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *wfstack_suite(void)
{
	Suite *s = suite_create("wfstack");
	TCase *api = harness_tcase(s, "api", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	sq_add_api_tests(api, &stack_ops);
	tcase_add_test(api, test_empty_other_calls);
	tcase_add_test(api, test_lockless_stack_nonblocking_paths);
	tcase_add_test(api, test_pop_all_and_iteration);
	tcase_add_test(api, test_next_at_end);
	tcase_add_test(api, test_wouldblock_link_in_flight);
	tcase_add_test(api, test_blocking_waits_for_link);

	sq_add_stress_tests(conc, &stack_ops, stress_runs,
			    (int) CAA_ARRAY_SIZE(stress_runs));
	return s;
}

int main(void)
{
	return harness_run_suite(wfstack_suite());
}
