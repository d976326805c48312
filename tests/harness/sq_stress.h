/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Producer/consumer stress runs shared by the stack and queue suites
 * (check_lfstack.c, check_wfstack.c, check_wfcqueue.c, check_legacy.c);
 * see sq_stress.c.
 *
 * A run lasts a time budget, so nodes are recycled: each producer owns
 * SQ_POOL_SIZE nodes, and a consumer hands every node it has checked back
 * to its producer's pool (a mutex-protected array, independent of the code
 * under test).  A producer stamps each node with the next value of its
 * counter before putting it in the structure.
 *
 * Checks: a node is never owned by two consumers at once ("held"); with
 * sq_ops.fifo, each consumer sees each producer's values in increasing
 * order; the number and the sum of the values taken from a producer equal
 * the number and the sum of the values it put (nothing lost or taken
 * twice); and at the end the structure is empty and every node is back in
 * its pool.  Suites check the order along lists they take whole with
 * struct sq_order.
 *
 * The structure is described by its struct sq_ops (sq.h): the producers
 * use put (after node_init when the structure's reuse asks for it), the
 * consumers take, and the run ends with empty.
 */
#ifndef TESTS_HARNESS_SQ_STRESS_H
#define TESTS_HARNESS_SQ_STRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "sq.h"

#define SQ_POOL_SIZE		1024
#define SQ_NR_PRODUCERS		2
#define SQ_NR_CONSUMERS		2

/* What one consumer took from one producer. */
struct sq_tally {
	unsigned long count;
	unsigned long long sum;
	long last;	/* last value seen, for the FIFO check */
};

struct sq_consumer {
	pthread_t thread;
	unsigned int id;		/* 0 .. SQ_NR_CONSUMERS - 1 */
	int mode;			/* the suite's, from the run's modes[] */
	void *ds;			/* the structure under test */
	const struct sq_ops *ops;
	struct sq_tally tally[SQ_NR_PRODUCERS];
	unsigned long wouldblock;	/* informational only */
};

/* Deadline of a stress phase (300 ms, scaled; the scale capped at 20). */
double sq_stress_deadline(void);

/* One stress run: a name for messages, and the consumers' modes. */
struct sq_run {
	const char *name;
	int modes[SQ_NR_CONSUMERS];
};

/*
 * Adds to @tc a loop test that runs each of the @n runs of @runs on a new
 * structure of @ops (init, the run, destroy).  At most SQ_STRESS_MAX runs
 * per program.
 */
#define SQ_STRESS_MAX	16
void sq_add_stress_tests(TCase *tc, const struct sq_ops *ops,
			 const struct sq_run *runs, int n);

/*
 * SQ_NR_PRODUCERS producers put into @ds until the deadline while
 * SQ_NR_CONSUMERS consumers, with the modes of @run, take until the
 * producers are done and @ds is empty; then asserts every check above.
 */
void sq_run_stress(const struct sq_ops *ops, void *ds,
		   const struct sq_run *run);

/*
 * Consumer: checks the item of a node taken from the structure, accounts
 * for it and returns the node to its producer, which may put it back at
 * once: the node must not be used after, so lists taken whole are walked
 * with a "safe" iterator.
 */
void sq_consume(struct sq_consumer *c, struct sq_item *it);

/* Each producer's values along one list must be strictly monotonic. */
struct sq_order {
	long last[SQ_NR_PRODUCERS];
	bool increasing;
};

void sq_order_init(struct sq_order *o, bool increasing);

/*
 * Checks @it against the previous value of its producer (recording a
 * failure when out of order); false for an unknown producer, which it
 * leaves to the caller (sq_consume() reports one) to report.
 */
bool sq_order_next(struct sq_order *o, const struct sq_item *it);

#endif /* TESTS_HARNESS_SQ_STRESS_H */
