/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "grace_period": every callback runs exactly
 * once, and never before a reader that could still see its object has
 * left its read-side section; call_rcu() may be called inside a section
 * and from a callback.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdbool.h>

#include <urcu/pointer.h>

#include "callrcu.h"

/* How long a reader holds the section a callback must wait for. */
#define HOLD_MS 200

/* Every callback runs exactly once, queued from two threads at once. */
#define MANY_TOTAL 100000L

START_TEST(test_many_callbacks)
{
	struct range halves[2] = {
		{ 0, MANY_TOTAL / 2 }, { MANY_TOTAL / 2, MANY_TOTAL },
	};
	pthread_t tids[2];
	int t;

	flavor = &test_flavors[_i];
	track_alloc(MANY_TOTAL);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], queue_range_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	flavor->barrier();
	ck_assert_int_eq(atomic_load(&ran), MANY_TOTAL);
	ck_assert_ran(0, MANY_TOTAL, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * A callback never runs before a reader that could see the object
 * has left its read-side section.
 */

struct pub_obj {
	struct rcu_head head;
	atomic_int value;
};

static struct pub_obj *published;
static atomic_int reader_inside, reader_left;
static atomic_int cb_ran, cb_saw_left;

static void check_left_cb(struct rcu_head *head)
{
	struct pub_obj *o = caa_container_of(head, struct pub_obj, head);

	atomic_store(&cb_saw_left, atomic_load(&reader_left));
	atomic_store(&o->value, -1);	/* "freed" */
	atomic_store(&cb_ran, 1);
}

/*
 * Reader: enter a section, load the published object, hold it HOLD_MS
 * (QSBR: online, no quiescent state), check it was not reclaimed, set the
 * "left" flag, leave.
 */
static void *holding_reader(void *arg)
{
	struct pub_obj *p;

	(void) arg;
	caller_enter();
	flavor->fl->read_lock();
	p = rcu_dereference(published);
	atomic_store(&reader_inside, 1);
	if (!p) {
		harness_fail("reader found nothing published");
	} else {
		harness_sleep_ms(HOLD_MS);
		if (atomic_load(&p->value) != 42)
			harness_fail("object reclaimed under the reader "
				     "(value %d)", atomic_load(&p->value));
	}
	atomic_store(&reader_left, 1);
	flavor->fl->read_unlock();
	caller_quiescent();
	caller_exit();
	return NULL;
}

START_TEST(test_callback_waits_for_reader)
{
	static struct pub_obj obj;
	pthread_t reader;
	bool inside, ran_cb;

	flavor = &test_flavors[_i];
	atomic_store(&obj.value, 42);
	rcu_assign_pointer(published, &obj);
	caller_enter();
	harness_spawn(&reader, holding_reader, NULL);
	inside = harness_wait_flag(&reader_inside);
	rcu_assign_pointer(published, NULL);
	flavor->call_rcu(&obj.head, check_left_cb);
	caller_offline();
	ran_cb = harness_wait_flag(&cb_ran);
	harness_join(reader);
	flavor->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(inside, "%s: reader never entered", flavor->name);
	ck_assert_msg(ran_cb, "%s: callback never ran", flavor->name);
	ck_assert_msg(atomic_load(&cb_saw_left),
		      "%s: callback ran while the reader was still inside",
		      flavor->name);
	ck_assert_no_fail();
}
END_TEST

/*
 * call_rcu() may be called inside a read-side section (QSBR: online),
 * including the first call, which starts the default worker, and with
 * per-CPU workers, whose lookup nests a section.  The callbacks run after
 * the section ends.
 */
#define IN_SECTION_EACH 100L

START_TEST(test_call_rcu_inside_section)
{
	long i;

	flavor = &test_flavors[_i];
	track_alloc(2 * IN_SECTION_EACH);
	caller_enter();
	flavor->fl->read_lock();
	for (i = 0; i < IN_SECTION_EACH; i++)
		flavor->call_rcu(&objs[i].head, track_cb);
	ck_assert_int_eq(atomic_load(&ran), 0);
	flavor->fl->read_unlock();
	caller_offline();
	flavor->barrier();
	caller_online();
	ck_assert_ran(0, IN_SECTION_EACH, 1);

	ck_assert_int_eq(flavor->create_all_cpu_call_rcu_data(0), 0);
	flavor->fl->read_lock();
	for (i = IN_SECTION_EACH; i < 2 * IN_SECTION_EACH; i++)
		flavor->call_rcu(&objs[i].head, track_cb);
	ck_assert(flavor->fl->read_ongoing());
	flavor->fl->read_unlock();
	caller_offline();
	flavor->barrier();
	flavor->free_all_cpu_call_rcu_data();
	caller_online();
	caller_exit();
	ck_assert_ran(0, 2 * IN_SECTION_EACH, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * Callbacks may call call_rcu(): chains of nested calls all run.
 */

#define CHAINS 4
#define CHAIN_LEN 300

struct link {
	struct rcu_head head;
	int chain, depth;
};

static struct link links[CHAINS][CHAIN_LEN];
static atomic_int link_runs[CHAINS][CHAIN_LEN];
static atomic_long links_done;

static void chain_cb(struct rcu_head *head)
{
	struct link *l = caa_container_of(head, struct link, head);

	if (l->depth > 0
	    && atomic_load(&link_runs[l->chain][l->depth - 1]) != 1)
		harness_fail("link %d.%d ran before its parent", l->chain,
			     l->depth);
	atomic_fetch_add(&link_runs[l->chain][l->depth], 1);
	atomic_fetch_add(&links_done, 1);
	if (l->depth + 1 < CHAIN_LEN)
		flavor->call_rcu(&links[l->chain][l->depth + 1].head, chain_cb);
}

START_TEST(test_nested_call_rcu)
{
	double deadline;
	int c, d;

	flavor = &test_flavors[_i];
	for (c = 0; c < CHAINS; c++)
		for (d = 0; d < CHAIN_LEN; d++) {
			links[c][d].chain = c;
			links[c][d].depth = d;
		}
	caller_enter();
	for (c = 0; c < CHAINS; c++)
		flavor->call_rcu(&links[c][0].head, chain_cb);
	caller_offline();
	/*
	 * Every rcu_barrier() runs at least the links queued before it, so
	 * each round advances every chain by one link at least; the time
	 * bound only turns a hang into a failure message.
	 */
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (atomic_load(&links_done) < CHAINS * CHAIN_LEN
	       && !harness_past(deadline))
		flavor->barrier();
	flavor->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(atomic_load(&links_done) == CHAINS * CHAIN_LEN,
		      "%s: %ld of %d links ran", flavor->name,
		      atomic_load(&links_done), CHAINS * CHAIN_LEN);
	for (c = 0; c < CHAINS; c++)
		for (d = 0; d < CHAIN_LEN; d++)
			ck_assert_msg(atomic_load(&link_runs[c][d]) == 1,
				      "%s: link %d.%d ran %d times", flavor->name,
				      c, d, atomic_load(&link_runs[c][d]));
	ck_assert_no_fail();
}
END_TEST

void callrcu_add_grace_period(Suite *s)
{
	TCase *tc = harness_tcase(s, "grace_period", 60);

	add_per_flavor(tc, test_many_callbacks);
	add_per_flavor(tc, test_callback_waits_for_reader);
	add_per_flavor(tc, test_call_rcu_inside_section);
	add_per_flavor(tc, test_nested_call_rcu);
}
