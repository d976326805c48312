/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The single-threaded properties every stack and queue has, written once
 * for any struct sq_ops (see sq.h).  Each is a loop test whose index
 * picks the structure among those the program registered.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sq.h"

/* Structures registered by sq_add_api_tests(), by loop index. */
static const struct sq_ops *registered[SQ_API_MAX];
static int nr_registered;

struct sq_item *sq_item_at(const struct sq_ops *ops, void *nodes, size_t i)
{
	return (struct sq_item *) ((char *) nodes + i * ops->node_size
				   + ops->item_offset);
}

void *sq_nodes_new(const struct sq_ops *ops, size_t n)
{
	void *nodes = calloc(n, ops->node_size);
	size_t i;

	ck_assert_ptr_nonnull(nodes);
	for (i = 0; i < n; i++) {
		ops->node_init(sq_item_at(ops, nodes, i));
		sq_item_at(ops, nodes, i)->seq = (unsigned int) i;
	}
	return nodes;
}

/* Whether @ds is empty, for structures that can tell (sq_ops.empty). */
static bool is_empty(const struct sq_ops *ops, void *ds)
{
	return !ops->empty || ops->empty(ds);
}

/* A new structure, its thread set up (thread_begin); free with ds_end(). */
static void *ds_begin(const struct sq_ops *ops)
{
	void *ds = calloc(1, ops->ds_size);

	ck_assert_ptr_nonnull(ds);
	if (ops->thread_begin)
		ops->thread_begin();
	ops->init(ds);
	return ds;
}

static void ds_end(const struct sq_ops *ops, void *ds)
{
	ck_assert_msg(is_empty(ops, ds), "%s: not empty at the end", ops->name);
	if (ops->destroy)
		ops->destroy(ds);
	if (ops->thread_end)
		ops->thread_end();
	free(ds);
}

/*
 * What the @n nodes from @nodes on, just taken, need before they are put
 * again (enum sq_reuse).
 */
static void prepare_reuse(const struct sq_ops *ops, void *nodes, size_t n)
{
	size_t i;

	if (ops->reuse & SQ_REUSE_AFTER_GP)
		ops->grace_period();
	if (ops->reuse & SQ_REUSE_INIT)
		for (i = 0; i < n; i++)
			ops->node_init(sq_item_at(ops, nodes, i));
}


/* Takes a node, which must be @want. */
static void take_expect(const struct sq_ops *ops, void *ds,
			struct sq_item *want)
{
	struct sq_item *it = ops->take_one(ds);

	ck_assert_msg(it == want, "%s: took seq %d, want seq %u", ops->name,
		      it ? (int) it->seq : -1, want->seq);
}

/*
 * An empty structure is empty and gives nothing, however often asked;
 * it may be destroyed at once.
 */
START_TEST(test_sq_empty)
{
	const struct sq_ops *ops = registered[_i];
	void *ds = ds_begin(ops);
	bool last = true;

	ck_assert(is_empty(ops, ds));
	ck_assert_ptr_null(ops->take_one(ds));
	ck_assert_ptr_null(ops->take_one(ds));
	if (ops->take_with_state) {
		ck_assert_ptr_null(ops->take_with_state(ds, &last));
		ck_assert_msg(!last, "%s: an empty take reported the last node",
			      ops->name);
	}
	ck_assert(is_empty(ops, ds));
	if (ops->destroy) {
		ops->destroy(ds);
		ops->init(ds);
	}
	ds_end(ops, ds);
}
END_TEST

/* A put tells whether the structure held nodes before it. */
START_TEST(test_sq_put_reports_prior_state)
{
	const struct sq_ops *ops = registered[_i];
	void *nodes = sq_nodes_new(ops, 3);
	struct sq_item *it0 = sq_item_at(ops, nodes, 0);
	struct sq_item *it1 = sq_item_at(ops, nodes, 1);
	struct sq_item *it2 = sq_item_at(ops, nodes, 2);
	void *ds = ds_begin(ops);

	ck_assert_msg(!ops->put(ds, it0), "%s: first put saw nodes",
		      ops->name);
	ck_assert(!is_empty(ops, ds));
	ck_assert_msg(ops->put(ds, it1), "%s: second put saw none",
		      ops->name);
	take_expect(ops, ds, ops->fifo ? it0 : it1);
	take_expect(ops, ds, ops->fifo ? it1 : it0);
	ck_assert(is_empty(ops, ds));
	/* Empty again: the next put must report it. */
	ck_assert_msg(!ops->put(ds, it2), "%s: put into the emptied "
		      "structure saw nodes", ops->name);
	take_expect(ops, ds, it2);
	ds_end(ops, ds);
	free(nodes);
}
END_TEST

/*
 * Nodes come out in put order (queue) or in reverse (stack), the last one
 * flagged as last where the structure tells; then nothing.  Three rounds
 * that each empty the structure (a queue's dummy node leaves and comes
 * back every time), the nodes reused as the structure allows.
 */
#define ORDER_N		100
#define ORDER_ROUNDS	3

START_TEST(test_sq_order)
{
	const struct sq_ops *ops = registered[_i];
	void *nodes = sq_nodes_new(ops, ORDER_N);
	void *ds = ds_begin(ops);
	struct sq_item *it;
	unsigned int want;
	int round, k;
	bool last;

	for (round = 0; round < ORDER_ROUNDS; round++) {
		if (round > 0)
			prepare_reuse(ops, nodes, ORDER_N);
		for (k = 0; k < ORDER_N; k++)
			ops->put(ds, sq_item_at(ops, nodes, (size_t) k));
		for (k = 0; k < ORDER_N; k++) {
			want = (unsigned int) (ops->fifo ? k : ORDER_N - 1 - k);
			last = false;
			it = ops->take_with_state
				? ops->take_with_state(ds, &last)
				: ops->take_one(ds);
			ck_assert_ptr_nonnull(it);
			ck_assert_msg(it->seq == want, "%s: round %d: took %u, "
				      "want %u", ops->name, round, it->seq,
				      want);
			if (ops->take_with_state)
				ck_assert_msg(last == (k == ORDER_N - 1),
					      "%s: node %d of %d reported %s",
					      ops->name, k + 1, ORDER_N,
					      last ? "last" : "not last");
		}
		ck_assert_ptr_null(ops->take_one(ds));
		ck_assert(is_empty(ops, ds));
	}
	ds_end(ops, ds);
	free(nodes);
}
END_TEST

/*
 * A taken node put back at once (after what the structure asks for) keeps
 * the structure sound: two nodes go round ten times.
 */
#define REUSE_ROUNDS	10

START_TEST(test_sq_reuse)
{
	const struct sq_ops *ops = registered[_i];
	void *nodes = sq_nodes_new(ops, 2);
	struct sq_item *it0 = sq_item_at(ops, nodes, 0);
	struct sq_item *it1 = sq_item_at(ops, nodes, 1);
	void *ds = ds_begin(ops);
	struct sq_item *it;
	bool nonempty;
	int round;

	ops->put(ds, it0);
	ops->put(ds, it1);
	for (round = 0; round < REUSE_ROUNDS; round++) {
		it = ops->take_one(ds);
		ck_assert_ptr_nonnull(it);
		/* A queue alternates; a stack keeps giving the top back. */
		ck_assert_uint_eq(it->seq, ops->fifo ? (unsigned int) round % 2
						     : 1);
		prepare_reuse(ops, (char *) it - ops->item_offset, 1);
		nonempty = ops->put(ds, it);
		if (ops->put_reports)
			ck_assert(nonempty);
	}
	take_expect(ops, ds, ops->fifo ? it0 : it1);
	take_expect(ops, ds, ops->fifo ? it1 : it0);
	ck_assert_ptr_null(ops->take_one(ds));
	ds_end(ops, ds);
	free(nodes);
}
END_TEST

void sq_add_api_tests(TCase *tc, const struct sq_ops *ops)
{
	int i = nr_registered;

	/* Called while the suite is built, outside any test. */
	if (i >= SQ_API_MAX) {
		fprintf(stderr, "sq_add_api_tests: more than %d structures\n",
			SQ_API_MAX);
		abort();
	}
	registered[nr_registered++] = ops;
	tcase_add_loop_test(tc, test_sq_empty, i, i + 1);
	/* A put that returns nothing has nothing to report. */
	if (ops->put_reports)
		tcase_add_loop_test(tc, test_sq_put_reports_prior_state, i,
				    i + 1);
	tcase_add_loop_test(tc, test_sq_order, i, i + 1);
	tcase_add_loop_test(tc, test_sq_reuse, i, i + 1);
}
