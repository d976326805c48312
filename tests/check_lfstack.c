/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "lfstack": the lock-free stack (<urcu/lfstack.h>).
 *
 * TCase "api": single-threaded semantics: what every stack and queue has
 * (empty stack, return values, LIFO order, node reuse), run by
 * tests/harness/sq_api.c from the stack's struct sq_ops, then what is the
 * stack's own (pop_all and the iteration macros, lock-less variant).
 * TCase "concurrent": multi-threaded stress.  Every pushed value must be
 * popped exactly once; lists taken by pop_all must hold each producer's
 * values in reverse push order; and nodes recycled between threads
 * (popped and pushed back at once, the pattern that exposes ABA) must
 * never be held by two threads nor lost, as long as pops hold the pop
 * lock or come from a single consumer.
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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/lfstack.h>

#include "harness/harness.h"
#include "harness/sq.h"
#include "harness/sq_stress.h"

/*
 * Recycling test: nodes in circulation and threads moving them.  Few
 * nodes make the top revisit the same node often, which is what ABA
 * needs: with the pop lock removed as an experiment, this test failed
 * (node owned twice, lost, or a cycle) in 7 runs out of 8 at the
 * default budget.
 */
#define NR_RECYCLED	8
#define NR_RECYCLERS	4

/* ------------------------------------------------------------------------
 * The stack as tests/harness/sq.h describes it.
 */

/* A pushed value. */
struct item {
	struct cds_lfs_node node;
	struct sq_item sq;	/* Value, and stress-test state. */
};

static struct item *to_item(struct cds_lfs_node *node)
{
	return caa_container_of(node, struct item, node);
}

static struct cds_lfs_node *node_of(struct sq_item *it)
{
	return &caa_container_of(it, struct item, sq)->node;
}

static void s_init(void *s)
{
	cds_lfs_init(s);
}

static void s_destroy(void *s)
{
	cds_lfs_destroy(s);
}

static void s_node_init(struct sq_item *it)
{
	cds_lfs_node_init(node_of(it));
}

static bool s_put(void *s, struct sq_item *it)
{
	return cds_lfs_push((struct cds_lfs_stack *) s, node_of(it));
}

static struct sq_item *s_take_one(void *s)
{
	struct cds_lfs_node *node = cds_lfs_pop_blocking(s);

	return node ? &to_item(node)->sq : NULL;
}

static bool s_empty(void *s)
{
	return cds_lfs_empty((struct cds_lfs_stack *) s);
}

/* The stress runs' consumers (TCase "concurrent"). */
static unsigned long stress_take(struct sq_consumer *c);

static const struct sq_ops stack_ops = {
	.name = "lfstack",
	.fifo = false,
	.node_size = sizeof(struct item),
	.item_offset = offsetof(struct item, sq),
	.ds_size = sizeof(struct cds_lfs_stack),
	.init = s_init,
	.destroy = s_destroy,
	.node_init = s_node_init,
	.reuse = SQ_REUSE_INIT,
	.put = s_put,
	.put_reports = true,
	.take_one = s_take_one,
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
	struct cds_lfs_stack s;
	struct cds_lfs_node *node, *n;
	unsigned int count = 0;

	cds_lfs_init(&s);
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
		ck_assert_uint_eq(to_item(node)->sq.seq, 1 - count);
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
		it->sq.seq = i;
		cds_lfs_push(&s, &it->node);
	}
	head = cds_lfs_pop_all_blocking(&s);
	ck_assert_ptr_nonnull(head);
	ck_assert(cds_lfs_empty(&s));
	ck_assert_ptr_null(cds_lfs_pop_blocking(&s));

	count = 0;
	cds_lfs_for_each(head, node) {
		ck_assert_uint_eq(to_item(node)->sq.seq, N - 1 - count);
		count++;
	}
	ck_assert_uint_eq(count, N);

	count = 0;
	cds_lfs_for_each_safe(head, node, n) {
		ck_assert_uint_eq(to_item(node)->sq.seq, N - 1 - count);
		count++;
		free(to_item(node));
	}
	ck_assert_uint_eq(count, N);
	cds_lfs_destroy(&s);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent": producers and consumers (tests/harness/sq_stress.h).
 * In a list taken by pop_all, each producer's values must decrease (LIFO).
 */

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

/* Consumes a list taken by pop_all (most recent push first); its length. */
static unsigned long consume_list(struct sq_consumer *c,
		struct cds_lfs_head *head)
{
	struct cds_lfs_node *node, *n;
	unsigned long count = 0;
	struct sq_order order;

	sq_order_init(&order, false);
	cds_lfs_for_each_safe(head, node, n) {
		sq_order_next(&order, &to_item(node)->sq);
		sq_consume(c, &to_item(node)->sq);
		count++;
	}
	return count;
}

static unsigned long stress_take(struct sq_consumer *c)
{
	struct cds_lfs_stack *s = c->ds;
	struct cds_lfs_node *node;

	switch (c->mode) {
	case CONSUME_POP_LOCKED:
		cds_lfs_pop_lock(s);
		node = __cds_lfs_pop(s);
		cds_lfs_pop_unlock(s);
		break;
	case CONSUME_POP_SINGLE:
		node = __cds_lfs_pop(s);
		break;
	case CONSUME_POP_ALL_LOCKED:
		return consume_list(c, cds_lfs_pop_all_blocking(s));
	case CONSUME_IDLE:
		return 0;
	default:
		node = cds_lfs_pop_blocking(s);
		break;
	}
	if (node == NULL)
		return 0;
	sq_consume(c, &to_item(node)->sq);
	return 1;
}

static const struct sq_run stress_runs[] = {
	/* Concurrent push and cds_lfs_pop_blocking. */
	{ "mpmc_pop_blocking",
	  { CONSUME_POP_BLOCKING, CONSUME_POP_BLOCKING } },
	/* Explicit pop lock around __cds_lfs_pop. */
	{ "mpmc_pop_locked",
	  { CONSUME_POP_LOCKED, CONSUME_POP_BLOCKING } },
	/* Multi-producer, single-consumer: __cds_lfs_pop needs no lock. */
	{ "mpsc_pop_unlocked",
	  { CONSUME_POP_SINGLE, CONSUME_IDLE } },
	/* pop_all races with pushes and with single pops, all under the lock. */
	{ "pop_all_under_push",
	  { CONSUME_POP_ALL_LOCKED, CONSUME_POP_BLOCKING } },
};

/* ------------------------------------------------------------------------
 * TCase "concurrent": recycling (the ABA pattern).
 */

struct recycler {
	pthread_t thread;
	struct cds_lfs_stack *s;
	unsigned int id;
	double deadline;
	unsigned long cycles;
};

/* Takes ownership of a popped node; it must not be owned already. */
static void own(struct cds_lfs_node *node)
{
	HARNESS_CHECK(__atomic_exchange_n(&to_item(node)->sq.held, 1,
			__ATOMIC_RELAXED) == 0);
}

/* Gives a node back to the stack (the push publishes the cleared flag). */
static void give_back(struct cds_lfs_stack *s, struct cds_lfs_node *node)
{
	__atomic_store_n(&to_item(node)->sq.held, 0, __ATOMIC_RELAXED);
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
	unsigned long i, count;

	for (i = 0; ; i++) {
		/* At least a round, even when started after the deadline. */
		if ((i & 31) == 31 && harness_past(r->deadline))
			break;
		if (r->id == 0 && (i & 7) == 0) {
			head = cds_lfs_pop_all_blocking(r->s);
			count = 0;
			cds_lfs_for_each(head, node) {
				/* A corrupted stack may hold a cycle. */
				if (++count > NR_RECYCLED) {
					harness_fail("pop_all: list too long");
					return NULL;
				}
				own(node);
			}
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
	double deadline;
	unsigned int i, count = 0;

	cds_lfs_init(&s);
	for (i = 0; i < NR_RECYCLED; i++)
		cds_lfs_push(&s, &it[i].node);
	deadline = sq_stress_deadline();
	for (i = 0; i < NR_RECYCLERS; i++) {
		rec[i].s = &s;
		rec[i].id = i;
		rec[i].deadline = deadline;
		rec[i].cycles = 0;
		harness_spawn(&rec[i].thread, recycler_thread, &rec[i]);
	}
	for (i = 0; i < NR_RECYCLERS; i++)
		harness_join(rec[i].thread);
	harness_assert_no_failures("recycle_push_pop");
	for (i = 0; i < NR_RECYCLERS; i++)
		ck_assert_uint_gt(rec[i].cycles, 0);

	/* Every node is back on the stack, once. */
	memset(found, 0, sizeof(found));
	head = cds_lfs_pop_all_blocking(&s);
	cds_lfs_for_each(head, node) {
		ck_assert_msg(to_item(node) >= &it[0] &&
				to_item(node) < &it[NR_RECYCLED],
				"foreign node %p on the stack", (void *) node);
		ck_assert_uint_eq(found[to_item(node)->sq.seq]++, 0);
		ck_assert_int_eq(to_item(node)->sq.held, 0);
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
	TCase *api = harness_tcase(s, "api", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	sq_add_api_tests(api, &stack_ops);
	tcase_add_test(api, test_empty_other_calls);
	tcase_add_test(api, test_lockless_stack);
	tcase_add_test(api, test_pop_all_and_iteration);

	sq_add_stress_tests(conc, &stack_ops, stress_runs,
			    (int) CAA_ARRAY_SIZE(stress_runs));
	tcase_add_test(conc, test_recycle_push_pop);
	return s;
}

int main(void)
{
	return harness_run_suite(lfstack_suite());
}
