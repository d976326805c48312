/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Stacks and queues as their suites see them (check_wfcqueue.c,
 * check_wfstack.c, check_lfstack.c, check_rculfqueue.c and the deprecated
 * structures of check_legacy.c): one description per structure, struct
 * sq_ops, drives the properties they share, written once in
 * tests/harness/sq_api.c (an empty structure gives nothing, a put tells
 * whether the structure was empty, order, reuse of taken nodes), and the
 * producer/consumer stress runs of tests/harness/sq_stress.c.  Each suite
 * keeps the tests of what only its structure has.
 *
 * The suite's node type embeds the structure's own node next to a struct
 * sq_item; the functions below take and return the struct sq_item, so
 * only the suite knows the types.
 */
#ifndef TESTS_HARNESS_SQ_H
#define TESTS_HARNESS_SQ_H

#include <stdbool.h>
#include <stddef.h>

#include <check.h>

/* What the tests stamp on a node. */
struct sq_item {
	unsigned int producer;
	unsigned int seq;
	int held;	/* 1 while a thread owns the node (stress runs) */
};

struct sq_consumer;

/*
 * What a taken node needs before it may be put again: nothing (0, it goes
 * back as it is), or any of these, in this order.
 */
enum sq_reuse {
	/* A grace period (RCU structures: readers may still see it). */
	SQ_REUSE_AFTER_GP = 1 << 0,
	/* The structure's node_init(). */
	SQ_REUSE_INIT = 1 << 1,
};

struct sq_ops {
	/* The structure, for messages: "wfcqueue", ... */
	const char *name;
	/* Whether it takes in put order (queue) or in reverse (stack). */
	bool fifo;
	/* sizeof the suite's node type and offsetof its struct sq_item. */
	size_t node_size;
	size_t item_offset;
	/* sizeof the structure; its init, and its destroy (or NULL). */
	size_t ds_size;
	void (*init)(void *ds);
	void (*destroy)(void *ds);
	/* Initialises the node holding @it before its first put. */
	void (*node_init)(struct sq_item *it);
	unsigned int reuse;	/* enum sq_reuse flags */
	/* SQ_REUSE_AFTER_GP: waits for a grace period (test thread). */
	void (*grace_period)(void);
	/*
	 * Test thread, optional: before the first call on a structure and
	 * after the last (RCU structures: register, and unregister after
	 * the callbacks they queued ran).
	 */
	void (*thread_begin)(void);
	void (*thread_end)(void);
	/*
	 * Puts the node holding @it in @ds.  With put_reports, returns
	 * whether @ds held nodes before; otherwise the API says nothing and
	 * the return value is ignored.
	 */
	bool (*put)(void *ds, struct sq_item *it);
	bool put_reports;
	/* Takes a node, the structure's usual way; NULL when empty. */
	struct sq_item *(*take_one)(void *ds);
	/*
	 * Optional: the same, also telling in *@last whether the node taken
	 * was the last one (the _with_state calls).
	 */
	struct sq_item *(*take_with_state)(void *ds, bool *last);
	/*
	 * Whether @ds is empty (test thread, nothing running); NULL for a
	 * structure whose API cannot tell without taking (rculfqueue).
	 */
	bool (*empty)(void *ds);

	/* Stress runs only (sq_stress.h). */
	/*
	 * Consumer: take what c->mode says from c->ds, pass each node's item
	 * to sq_consume(), and return how many were taken.
	 */
	unsigned long (*take)(struct sq_consumer *c);
	/* Optional, consumer thread: before the first, after the last take. */
	void (*consumer_begin)(struct sq_consumer *c);
	void (*consumer_end)(struct sq_consumer *c);
};

/* The struct sq_item of node @i of an array of @ops's nodes. */
struct sq_item *sq_item_at(const struct sq_ops *ops, void *nodes, size_t i);

/*
 * @n nodes of @ops's node type, initialised (node_init), with seq 0 to
 * n - 1; free() them.
 */
void *sq_nodes_new(const struct sq_ops *ops, size_t n);

/*
 * Adds the shared tests for @ops to @tc: empty, put_reports (when the
 * structure's put reports), order and reuse.  At most SQ_API_MAX
 * structures per program.
 */
#define SQ_API_MAX	4
void sq_add_api_tests(TCase *tc, const struct sq_ops *ops);

#endif /* TESTS_HARNESS_SQ_H */
