/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the files of the call_rcu suite share (tests/check_call_rcu.c and
 * the files of tests/callrcu/, one per concern): the flavor under test, the
 * roles a thread takes towards it, and objects that count how many times
 * their callback ran.  Implemented in tests/callrcu/callrcu.c.
 */
#ifndef TESTS_CALLRCU_CALLRCU_H
#define TESTS_CALLRCU_CALLRCU_H

#include <stdatomic.h>

#include <check.h>

#include <urcu/compiler.h>

#include "../flavors/flavors.h"
#include "../harness/harness.h"

/* The flavor under test; set first thing by every test. */
extern const struct test_flavor *flavor;

/* A test looped over test_flavors[] (the loop index picks the flavor). */
#define add_per_flavor(tc, test) \
	tcase_add_loop_test((tc), (test), 0, N_TEST_FLAVORS)

/* Test thread, after joining everyone: no failure may have been recorded. */
#define ck_assert_no_fail() \
	harness_assert_no_failures(flavor ? flavor->name : "-")

/*
 * Flavor-independent thread roles.  A "caller" is a thread that uses
 * call_rcu(): registered with the flavor (bp registers on demand, its
 * register_thread is harmless), and for QSBR online.  Before blocking on
 * something that needs grace periods, a QSBR caller goes offline.
 */
void caller_enter(void);
void caller_exit(void);
/* Quiescent state (QSBR); a no-op for the other flavors. */
void caller_quiescent(void);
void caller_offline(void);
void caller_online(void);

/* ------------------------------------------------------------------------
 * Tracked objects: each counts how many times its callback ran.
 */

struct tracked {
	struct rcu_head head;
	long idx;
};

/* The objects of track_alloc(), how often each ran, and their number. */
extern struct tracked *objs;
extern atomic_int *runs;
extern long n_objs;
/* Callbacks run on all tracked objects. */
extern atomic_long ran;

/* @n objects, none run yet; freed by track_free(). */
void track_alloc(long n);
void track_free(void);

/* call_rcu callback: counts a run of its object. */
void track_cb(struct rcu_head *head);

/* defer_rcu function (argument: a struct tracked): the same. */
void track_defer_cb(void *p);

/*
 * Objects [begin, end) must have run exactly @want times each; returns the
 * first index that did not, or -1.
 */
long track_first_bad(long begin, long end, int want);

#define ck_assert_ran(begin, end, want)					\
	do {								\
		long bad_ = track_first_bad((begin), (end), (want));	\
		ck_assert_msg(bad_ < 0,					\
			      "%s: object %ld ran %d times, want %d",	\
			      flavor->name, bad_,			\
			      bad_ < 0 ? 0 : atomic_load(&runs[bad_]),	\
			      (want));					\
	} while (0)

/* Queue objects [begin, end) with call_rcu(); quiescent states between. */
void queue_range(long begin, long end);

struct range {
	long begin, end;
};

/* Thread (argument: struct range): register, queue a range, unregister. */
void *queue_range_thread(void *arg);

/* ------------------------------------------------------------------------
 * The concerns, one file each: each adds its test case to the suite.
 */

void callrcu_add_grace_period(Suite *s);	/* grace_period.c */
void callrcu_add_workers(Suite *s);		/* workers.c */
void callrcu_add_gather(Suite *s);		/* gather.c */
void callrcu_add_poll(Suite *s);		/* poll.c */
void callrcu_add_fork(Suite *s);		/* fork.c */
void callrcu_add_defer(Suite *s);		/* defer.c */
void callrcu_add_alloc_failure(Suite *s);	/* alloc_failure.c */
void callrcu_add_qsbr_online(Suite *s);		/* qsbr_online.c */
void callrcu_add_flavor_table(Suite *s);	/* flavor_table.c */
void callrcu_add_misuse(Suite *s);		/* misuse.c */

#endif /* TESTS_CALLRCU_CALLRCU_H */
