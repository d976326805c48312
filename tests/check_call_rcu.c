/*
 * Check suite "call_rcu": deferred reclamation of the five flavors —
 * call_rcu() and its workers, their batching (gather periods),
 * rcu_barrier(), fork handling, polled grace periods, defer_rcu(),
 * allocation-failure paths, the flavor tables' update entries, and
 * <urcu/ref.h>.
 *
 * Every flavor is reached through a `struct crcu_ops` (tests/callrcu/ops.h);
 * most tests are loop tests over crcu_ops_table[] (the loop index selects the
 * flavor).
 *
 * Conventions (engineering notes, section 3):
 *  - fork mode: each test runs in a fresh child, and creates (and tears
 *    down) all of its RCU state and threads itself;
 *  - threads other than the test thread never call ck_assert: they record
 *    failures (harness_fail() of tests/harness/harness.h, counters) and the
 *    test thread asserts after pthread_join;
 *  - waits on other threads are bounded by HARNESS_WAIT_S scaled by
 *    CK_TIMEOUT_MULTIPLIER; stress phases are bounded by fixed object
 *    pools and stop flags, and nothing asserts on speed (the gathering
 *    tests, section 12, compare with the 10 ms gather period in ways
 *    that a slow machine cannot break; see there).
 *
 * Calling rules the tests follow: threads that call call_rcu() register
 * with the flavor (QSBR: and stay online only while they do so, announcing
 * quiescent states); a QSBR test thread goes offline before it waits for
 * callbacks, since an online thread without quiescent states holds every
 * grace period back.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/pointer.h>
#include <urcu/ref.h>

#include "callrcu/ops.h"
#include "harness/harness.h"
/* liburcu-common's private interface: urcu__alloc_fail_after(). */
#include "urcu-alloc.h"

/*
 * The fork test's child starts a call_rcu worker after a multi-threaded
 * fork, which ThreadSanitizer refuses by default.
 */
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}
#endif

/* ------------------------------------------------------------------------
 * Utilities.
 */

/* How long a reader holds the section a callback must wait for. */
#define HOLD_MS 200

/* The flavor under test; set first thing by every flavor-looped test. */
static const struct crcu_ops *ops;

/* Wait until *count reaches @target; false after HARNESS_WAIT_S (scaled). */
static bool wait_count(atomic_long *count, long target)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);

	while (atomic_load(count) < target) {
		if (harness_past(deadline))
			return false;
		harness_sleep_ms(1);
	}
	return true;
}

/* Test thread, after joining everyone: no failure may have been recorded. */
#define ck_assert_no_fail()	harness_assert_no_failures(ops ? ops->name : "-")

/*
 * Flavor-independent thread roles.  A "caller" is a thread that uses
 * call_rcu(): registered with the flavor (bp registers on demand, its
 * register_thread is harmless), and for QSBR online.  Before blocking on
 * something that needs grace periods, a QSBR caller goes offline.
 */
static void caller_enter(void)
{
	ops->fl->register_thread();
}

static void caller_exit(void)
{
	ops->fl->unregister_thread();
}

/* Quiescent state (QSBR); a no-op for the other flavors. */
static void caller_quiescent(void)
{
	ops->fl->read_quiescent_state();
}

static void caller_offline(void)
{
	ops->fl->thread_offline();
}

static void caller_online(void)
{
	ops->fl->thread_online();
}

/* ------------------------------------------------------------------------
 * Tracked objects: each counts how many times its callback ran.
 */

struct tracked {
	struct rcu_head head;
	long idx;
};

static struct tracked *objs;
static atomic_int *runs;
static long n_objs;
/* Callbacks run on all tracked objects. */
static atomic_long ran;

static void track_alloc(long n)
{
	long i;

	objs = calloc((size_t) n, sizeof(*objs));
	runs = calloc((size_t) n, sizeof(*runs));
	ck_assert(objs && runs);
	for (i = 0; i < n; i++)
		objs[i].idx = i;
	n_objs = n;
	atomic_store(&ran, 0);
}

static void track_cb(struct rcu_head *head)
{
	struct tracked *t = caa_container_of(head, struct tracked, head);

	atomic_fetch_add(&runs[t->idx], 1);
	atomic_fetch_add(&ran, 1);
}

/*
 * Objects [begin, end) must have run exactly @want times each; returns the
 * first index that did not, or -1.
 */
static long track_first_bad(long begin, long end, int want)
{
	long i;

	for (i = begin; i < end; i++)
		if (atomic_load(&runs[i]) != want)
			return i;
	return -1;
}

#define ck_assert_ran(begin, end, want)					\
	do {								\
		long bad_ = track_first_bad((begin), (end), (want));	\
		ck_assert_msg(bad_ < 0,					\
			      "%s: object %ld ran %d times, want %d",	\
			      ops->name, bad_,				\
			      bad_ < 0 ? 0 : atomic_load(&runs[bad_]),	\
			      (want));					\
	} while (0)

static void track_free(void)
{
	free(objs);
	free(runs);
	objs = NULL;
	runs = NULL;
	n_objs = 0;
}

/* Queue objects [begin, end) with call_rcu(); quiescent states between. */
static void queue_range(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++) {
		ops->call_rcu(&objs[i].head, track_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
}

struct range {
	long begin, end;
};

/* Thread: register, queue a range, unregister. */
static void *queue_range_thread(void *arg)
{
	struct range *r = arg;

	caller_enter();
	queue_range(r->begin, r->end);
	caller_exit();
	return NULL;
}

/* ------------------------------------------------------------------------
 * (1) Every callback runs exactly once.
 */

#define MANY_TOTAL 100000L

START_TEST(test_many_callbacks)
{
	struct range halves[2] = {
		{ 0, MANY_TOTAL / 2 }, { MANY_TOTAL / 2, MANY_TOTAL },
	};
	pthread_t tids[2];
	int t;

	ops = crcu_ops_table[_i];
	track_alloc(MANY_TOTAL);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], queue_range_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ops->barrier();
	ck_assert_int_eq(atomic_load(&ran), MANY_TOTAL);
	ck_assert_ran(0, MANY_TOTAL, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (2) A callback never runs before a reader that could see the object
 * has left its read-side section.
 */

struct pub_obj {
	struct rcu_head head;
	atomic_int value;
};

static struct pub_obj *published;
static atomic_int reader_inside, reader_left, reader_release;
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
	ops->fl->read_lock();
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
	ops->fl->read_unlock();
	caller_quiescent();
	caller_exit();
	return NULL;
}

START_TEST(test_callback_waits_for_reader)
{
	static struct pub_obj obj;
	pthread_t reader;
	bool inside, ran_cb;

	ops = crcu_ops_table[_i];
	atomic_store(&obj.value, 42);
	rcu_assign_pointer(published, &obj);
	caller_enter();
	harness_spawn(&reader, holding_reader, NULL);
	inside = harness_wait_flag(&reader_inside);
	rcu_assign_pointer(published, NULL);
	ops->call_rcu(&obj.head, check_left_cb);
	caller_offline();
	ran_cb = harness_wait_flag(&cb_ran);
	harness_join(reader);
	ops->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(inside, "%s: reader never entered", ops->name);
	ck_assert_msg(ran_cb, "%s: callback never ran", ops->name);
	ck_assert_msg(atomic_load(&cb_saw_left),
		      "%s: callback ran while the reader was still inside",
		      ops->name);
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

	ops = crcu_ops_table[_i];
	track_alloc(2 * IN_SECTION_EACH);
	caller_enter();
	ops->fl->read_lock();
	for (i = 0; i < IN_SECTION_EACH; i++)
		ops->call_rcu(&objs[i].head, track_cb);
	ck_assert_int_eq(atomic_load(&ran), 0);
	ops->fl->read_unlock();
	caller_offline();
	ops->barrier();
	caller_online();
	ck_assert_ran(0, IN_SECTION_EACH, 1);

	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	ops->fl->read_lock();
	for (i = IN_SECTION_EACH; i < 2 * IN_SECTION_EACH; i++)
		ops->call_rcu(&objs[i].head, track_cb);
	ck_assert(ops->fl->read_ongoing());
	ops->fl->read_unlock();
	caller_offline();
	ops->barrier();
	ops->free_all_cpu_call_rcu_data();
	caller_online();
	caller_exit();
	ck_assert_ran(0, 2 * IN_SECTION_EACH, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (3) Callbacks may call call_rcu(): chains of nested calls all run.
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
		ops->call_rcu(&links[l->chain][l->depth + 1].head, chain_cb);
}

START_TEST(test_nested_call_rcu)
{
	double deadline;
	int c, d;

	ops = crcu_ops_table[_i];
	for (c = 0; c < CHAINS; c++)
		for (d = 0; d < CHAIN_LEN; d++) {
			links[c][d].chain = c;
			links[c][d].depth = d;
		}
	caller_enter();
	for (c = 0; c < CHAINS; c++)
		ops->call_rcu(&links[c][0].head, chain_cb);
	caller_offline();
	/*
	 * Every rcu_barrier() runs at least the links queued before it, so
	 * each round advances every chain by one link at least; the time
	 * bound only turns a hang into a failure message.
	 */
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (atomic_load(&links_done) < CHAINS * CHAIN_LEN
	       && !harness_past(deadline))
		ops->barrier();
	ops->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(atomic_load(&links_done) == CHAINS * CHAIN_LEN,
		      "%s: %ld of %d links ran", ops->name,
		      atomic_load(&links_done), CHAINS * CHAIN_LEN);
	for (c = 0; c < CHAINS; c++)
		for (d = 0; d < CHAIN_LEN; d++)
			ck_assert_msg(atomic_load(&link_runs[c][d]) == 1,
				      "%s: link %d.%d ran %d times", ops->name,
				      c, d, atomic_load(&link_runs[c][d]));
	ck_assert_no_fail();
}
END_TEST

/* ------------------------------------------------------------------------
 * (4) A per-thread worker runs the thread's callbacks; freeing it with
 * callbacks pending loses none.
 */

static pthread_t expected_worker;
static atomic_long wrong_thread;

static void on_worker_cb(struct rcu_head *head)
{
	if (!pthread_equal(pthread_self(), expected_worker))
		atomic_fetch_add(&wrong_thread, 1);
	track_cb(head);
}

/* Queue [begin, end) with on_worker_cb. */
static void queue_range_on_worker(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++)
		ops->call_rcu(&objs[i].head, on_worker_cb);
}

#define WORKER_BATCH 2000L

static void per_thread_worker(unsigned long flags)
{
	struct call_rcu_data *crdp;

	track_alloc(2 * WORKER_BATCH);
	caller_enter();
	crdp = ops->create_call_rcu_data(flags, -1);
	ck_assert_msg(crdp != NULL, "%s: create_call_rcu_data: %s", ops->name,
		      strerror(errno));
	ck_assert_ptr_ne(crdp, ops->get_default_call_rcu_data());
	ops->set_thread_call_rcu_data(crdp);
	ck_assert_ptr_eq(ops->get_thread_call_rcu_data(), crdp);
	ck_assert_ptr_eq(ops->get_call_rcu_data(), crdp);
	expected_worker = ops->get_call_rcu_thread(crdp);
	ck_assert(!pthread_equal(expected_worker, pthread_self()));

	queue_range_on_worker(0, WORKER_BATCH);
	caller_offline();
	ops->barrier();
	caller_online();
	ck_assert_ran(0, WORKER_BATCH, 1);
	ck_assert_msg(atomic_load(&wrong_thread) == 0,
		      "%s: %ld callbacks ran outside the thread's worker",
		      ops->name, atomic_load(&wrong_thread));

	/* Pending callbacks when the worker is unassigned and freed. */
	queue_range(WORKER_BATCH, 2 * WORKER_BATCH);
	ops->set_thread_call_rcu_data(NULL);
	ck_assert_ptr_null(ops->get_thread_call_rcu_data());
	caller_offline();
	ops->call_rcu_data_free(crdp);
	ops->barrier();
	caller_online();
	caller_exit();
	ck_assert_int_eq(atomic_load(&ran), 2 * WORKER_BATCH);
	ck_assert_ran(0, 2 * WORKER_BATCH, 1);
	track_free();
}

START_TEST(test_thread_worker)
{
	ops = crcu_ops_table[_i];
	per_thread_worker(0);
}
END_TEST

/* Same with a URCU_CALL_RCU_RT worker (polls instead of sleeping). */
START_TEST(test_thread_worker_rt)
{
	ops = crcu_ops_table[_i];
	per_thread_worker(URCU_CALL_RCU_RT);
}
END_TEST

/* Callbacks queued by one thread on one worker run in queueing order. */
#define FIFO_COUNT 10000L

static atomic_long fifo_next, fifo_disorder;

static void fifo_cb(struct rcu_head *head)
{
	struct tracked *t = caa_container_of(head, struct tracked, head);

	if (atomic_load(&fifo_next) != t->idx)
		atomic_fetch_add(&fifo_disorder, 1);
	atomic_store(&fifo_next, t->idx + 1);
	track_cb(head);
}

START_TEST(test_fifo_order)
{
	struct call_rcu_data *crdp;
	long i;

	ops = crcu_ops_table[_i];
	track_alloc(FIFO_COUNT);
	caller_enter();
	crdp = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	ops->set_thread_call_rcu_data(crdp);
	for (i = 0; i < FIFO_COUNT; i++) {
		ops->call_rcu(&objs[i].head, fifo_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	ops->set_thread_call_rcu_data(NULL);
	caller_offline();
	ops->barrier();
	ops->call_rcu_data_free(crdp);
	caller_online();
	caller_exit();
	ck_assert_ran(0, FIFO_COUNT, 1);
	ck_assert_msg(atomic_load(&fifo_disorder) == 0,
		      "%s: %ld callbacks ran out of queueing order", ops->name,
		      atomic_load(&fifo_disorder));
}
END_TEST

/* The default worker cannot be freed; NULL is ignored. */
START_TEST(test_free_default_ignored)
{
	struct call_rcu_data *dflt;

	ops = crcu_ops_table[_i];
	track_alloc(1);
	dflt = ops->get_default_call_rcu_data();
	ck_assert_ptr_nonnull(dflt);
	ck_assert_ptr_eq(ops->get_default_call_rcu_data(), dflt);
	ck_assert(!pthread_equal(ops->get_call_rcu_thread(dflt),
				 pthread_self()));
	ops->call_rcu_data_free(NULL);
	ops->call_rcu_data_free(dflt);
	ck_assert_ptr_eq(ops->get_default_call_rcu_data(), dflt);
	caller_enter();
	ops->call_rcu(&objs[0].head, track_cb);
	caller_exit();
	ops->barrier();
	ck_assert_ran(0, 1, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (5) Per-CPU workers.
 */

static long n_cpus_conf(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? n : 1;
}

/* Worker threads of the per-CPU workers, for on_cpu_worker_cb. */
static pthread_t *cpu_workers;
static long n_cpu_workers;
static atomic_long not_on_cpu_worker;

static void on_cpu_worker_cb(struct rcu_head *head)
{
	long i;

	for (i = 0; i < n_cpu_workers; i++)
		if (pthread_equal(pthread_self(), cpu_workers[i]))
			break;
	if (i == n_cpu_workers)
		atomic_fetch_add(&not_on_cpu_worker, 1);
	track_cb(head);
}

static void *queue_on_cpu_workers_thread(void *arg)
{
	struct range *r = arg;
	long i;

	caller_enter();
	for (i = r->begin; i < r->end; i++) {
		ops->call_rcu(&objs[i].head, on_cpu_worker_cb);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	caller_exit();
	return NULL;
}

/* Record the per-CPU workers' threads; all CPUs must be served. */
static void collect_cpu_workers(void)
{
	long c, d;

	n_cpu_workers = n_cpus_conf();
	cpu_workers = calloc((size_t) n_cpu_workers, sizeof(*cpu_workers));
	ck_assert_ptr_nonnull(cpu_workers);
	for (c = 0; c < n_cpu_workers; c++) {
		struct call_rcu_data *crdp = ops->get_cpu_call_rcu_data((int) c);

		ck_assert_msg(crdp != NULL, "%s: CPU %ld has no worker",
			      ops->name, c);
		for (d = 0; d < c; d++)
			ck_assert_ptr_ne(crdp,
					 ops->get_cpu_call_rcu_data((int) d));
		cpu_workers[c] = ops->get_call_rcu_thread(crdp);
	}
}

#define PER_CPU_EACH 20000L

START_TEST(test_per_cpu_workers)
{
	struct range halves[2] = {
		{ 0, PER_CPU_EACH }, { PER_CPU_EACH, 2 * PER_CPU_EACH },
	};
	struct call_rcu_data *other;
	pthread_t tids[2];
	long ncpu = n_cpus_conf(), c;
	int t;

	ops = crcu_ops_table[_i];
	track_alloc(2 * PER_CPU_EACH);
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	ck_assert_ptr_nonnull(ops->get_cpu_call_rcu_data(0));
	ck_assert_ptr_null(ops->get_cpu_call_rcu_data(-1));
	ck_assert_ptr_null(ops->get_cpu_call_rcu_data((int) ncpu));
	collect_cpu_workers();
	/* Already served everywhere: nothing to do, no error. */
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	ck_assert(pthread_equal(ops->get_call_rcu_thread(
					ops->get_cpu_call_rcu_data(0)),
				cpu_workers[0]));

	other = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(other);
	errno = 0;
	ck_assert_int_eq(ops->set_cpu_call_rcu_data(-1, other), -EINVAL);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(ops->set_cpu_call_rcu_data((int) ncpu, other),
			 -EINVAL);
	errno = 0;
	ck_assert_int_eq(ops->set_cpu_call_rcu_data(0, other), -EEXIST);
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_ptr_ne(ops->get_cpu_call_rcu_data(0), other);
	ops->call_rcu_data_free(other);

	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], queue_on_cpu_workers_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ops->barrier();
	ck_assert_ran(0, 2 * PER_CPU_EACH, 1);
	ck_assert_msg(atomic_load(&not_on_cpu_worker) == 0,
		      "%s: %ld callbacks of registered threads did not run "
		      "on a per-CPU worker", ops->name,
		      atomic_load(&not_on_cpu_worker));

	ops->free_all_cpu_call_rcu_data();
	for (c = 0; c < ncpu; c++)
		ck_assert_ptr_null(ops->get_cpu_call_rcu_data((int) c));
	ops->barrier();
	ck_assert_int_eq(atomic_load(&ran), 2 * PER_CPU_EACH);
	free(cpu_workers);
	track_free();
}
END_TEST

/*
 * free_all_cpu_call_rcu_data() while registered threads keep calling
 * call_rcu(): every queued callback still runs exactly once.
 */
#define CHURN_POOL 400000L

static atomic_int churn_stop;
static atomic_long churn_queued[2];

static void *churn_thread(void *arg)
{
	long t = (long) (intptr_t) arg;
	long begin = t * (CHURN_POOL / 2), i;

	caller_enter();
	for (i = begin; i < begin + CHURN_POOL / 2; i++) {
		if (atomic_load(&churn_stop))
			break;
		ops->call_rcu(&objs[i].head, track_cb);
		atomic_store(&churn_queued[t], i - begin + 1);
		if ((i & 63) == 0)
			caller_quiescent();
	}
	caller_exit();
	return NULL;
}

START_TEST(test_free_all_cpu_under_load)
{
	pthread_t tids[2];
	long t, total = 0;

	ops = crcu_ops_table[_i];
	track_alloc(CHURN_POOL);
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], churn_thread, (void *) (intptr_t) t);
	harness_sleep_ms(20);
	ops->free_all_cpu_call_rcu_data();
	harness_sleep_ms(20);
	atomic_store(&churn_stop, 1);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ops->barrier();
	for (t = 0; t < 2; t++) {
		long begin = t * (CHURN_POOL / 2);
		long q = atomic_load(&churn_queued[t]);

		ck_assert_ran(begin, begin + q, 1);
		ck_assert_ran(begin + q, begin + CHURN_POOL / 2, 0);
		total += q;
	}
	ck_assert_int_eq(atomic_load(&ran), total);
	track_free();
}
END_TEST

/* get_call_rcu_data(): the thread's worker, else the CPU's, else default. */
START_TEST(test_get_call_rcu_data_precedence)
{
	struct call_rcu_data *mine, *dflt, *got;
	long c;
	bool is_cpu = false;

	ops = crcu_ops_table[_i];
	caller_enter();
	dflt = ops->get_default_call_rcu_data();
	ck_assert_ptr_nonnull(dflt);
	ck_assert_ptr_eq(ops->get_call_rcu_data(), dflt);

	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	ops->fl->read_lock();
	got = ops->get_call_rcu_data();
	ops->fl->read_unlock();
	for (c = 0; c < n_cpus_conf(); c++)
		if (got == ops->get_cpu_call_rcu_data((int) c))
			is_cpu = true;
	ck_assert_msg(is_cpu, "%s: get_call_rcu_data() did not return a "
		      "per-CPU worker", ops->name);

	mine = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(mine);
	ops->set_thread_call_rcu_data(mine);
	ck_assert_ptr_eq(ops->get_call_rcu_data(), mine);
	ops->set_thread_call_rcu_data(NULL);

	caller_offline();
	ops->free_all_cpu_call_rcu_data();
	ops->call_rcu_data_free(mine);
	caller_online();
	ck_assert_ptr_eq(ops->get_call_rcu_data(), dflt);
	caller_exit();
}
END_TEST

/*
 * rcu_barrier() waits for the callbacks of every worker: default,
 * per-thread (of a thread that has exited) and per-CPU.
 */
#define SLOW_EACH 30L
#define SLOW_MS 2

static void slow_cb(struct rcu_head *head)
{
	harness_sleep_ms(SLOW_MS);
	track_cb(head);
}

static struct call_rcu_data *helper_crdp;

static void *queue_slow_thread(void *arg)
{
	struct range *r = arg;
	long i;

	caller_enter();
	if (helper_crdp)
		ops->set_thread_call_rcu_data(helper_crdp);
	for (i = r->begin; i < r->end; i++)
		ops->call_rcu(&objs[i].head, slow_cb);
	caller_exit();
	return NULL;
}

START_TEST(test_barrier_covers_all_workers)
{
	struct range r1 = { 0, SLOW_EACH }, r2 = { SLOW_EACH, 2 * SLOW_EACH };
	struct call_rcu_data *crdp;
	pthread_t tid;
	long i;

	ops = crcu_ops_table[_i];
	track_alloc(3 * SLOW_EACH);
	/* A per-thread worker, used by a thread that then exits. */
	crdp = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	helper_crdp = crdp;
	harness_spawn(&tid, queue_slow_thread, &r1);
	harness_join(tid);
	helper_crdp = NULL;
	/* Per-CPU workers, used by a registered thread. */
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	harness_spawn(&tid, queue_slow_thread, &r2);
	harness_join(tid);
	/* The default worker, used by an unregistered thread. */
	for (i = 2 * SLOW_EACH; i < 3 * SLOW_EACH; i++)
		ops->call_rcu(&objs[i].head, slow_cb);
	ops->barrier();
	ck_assert_int_eq(atomic_load(&ran), 3 * SLOW_EACH);
	ck_assert_ran(0, 3 * SLOW_EACH, 1);
	ops->free_all_cpu_call_rcu_data();
	ops->call_rcu_data_free(crdp);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (6) Polled grace periods.
 */

/* A token is complete after a synchronize_rcu() that follows it. */
START_TEST(test_poll_after_synchronize)
{
	struct urcu_gp_poll_state state;

	ops = crcu_ops_table[_i];
	caller_enter();
	state = ops->start_poll_synchronize_rcu();
	caller_offline();
	ops->fl->update_synchronize_rcu();
	ck_assert_msg(ops->poll_state_synchronize_rcu(state),
		      "%s: token incomplete after synchronize_rcu()",
		      ops->name);
	/* Stays complete. */
	ck_assert(ops->poll_state_synchronize_rcu(state));
	ops->barrier();
	caller_online();
	caller_exit();
}
END_TEST

/* Without any explicit grace period, a token completes by itself. */
START_TEST(test_poll_completes_alone)
{
	struct urcu_gp_poll_state state;
	double deadline;
	bool done;

	ops = crcu_ops_table[_i];
	caller_enter();
	state = ops->start_poll_synchronize_rcu();
	caller_offline();
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (!(done = ops->poll_state_synchronize_rcu(state))
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	ops->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(done, "%s: token never completed", ops->name);
}
END_TEST

/* Reader that stays inside until released (QSBR: online, no QS). */
static void *parked_reader(void *arg)
{
	(void) arg;
	caller_enter();
	ops->fl->read_lock();
	atomic_store(&reader_inside, 1);
	if (!harness_wait_flag(&reader_release))
		harness_fail("reader never released");
	atomic_store(&reader_left, 1);
	ops->fl->read_unlock();
	caller_quiescent();
	caller_exit();
	return NULL;
}

START_TEST(test_poll_waits_for_reader)
{
	struct urcu_gp_poll_state state;
	pthread_t reader;
	int k, early = 0;
	double deadline;
	bool inside, done, left_when_done = false;

	ops = crcu_ops_table[_i];
	caller_enter();
	harness_spawn(&reader, parked_reader, NULL);
	inside = harness_wait_flag(&reader_inside);
	state = ops->start_poll_synchronize_rcu();
	caller_offline();
	for (k = 0; k < 5; k++) {
		harness_sleep_ms(20);
		if (ops->poll_state_synchronize_rcu(state))
			early++;
	}
	atomic_store(&reader_release, 1);
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (!(done = ops->poll_state_synchronize_rcu(state))
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	if (done)
		left_when_done = atomic_load(&reader_left);
	harness_join(reader);
	ops->barrier();
	caller_online();
	caller_exit();
	ck_assert_msg(inside, "%s: reader never entered", ops->name);
	ck_assert_msg(early == 0, "%s: token complete while a reader was "
		      "inside (%d of 5 samples)", ops->name, early);
	ck_assert_msg(done, "%s: token never completed", ops->name);
	ck_assert_msg(left_when_done, "%s: token complete before the reader "
		      "left", ops->name);
	ck_assert_no_fail();
}
END_TEST

/* ------------------------------------------------------------------------
 * (7) fork() in the middle of a call_rcu storm.
 */

#define STORM_POOL 200000L	/* per thread */
#define STORM_CHILD_EXTRA 1000L

/*
 * Storm threads call call_rcu() holding `storm_gate` for reading, so that
 * no enqueue is half done when the test thread forks (it holds the gate
 * for writing then).  A fork in the middle of an enqueue would leave the
 * child a queue whose last link is never written; the gate is the
 * application-side coordination fork() needs anyway.
 *
 * While `storm_hold` is set the storm pauses (before taking the gate), so
 * that call_rcu_before_fork() finds the workers' queues empty and can park
 * them; a storm that never lets a queue drain would keep its worker busy.
 * The gate is only taken after call_rcu_before_fork(), never before it,
 * so the test's locks and the library's are always taken in one order.
 */
static pthread_rwlock_t storm_gate;
static atomic_int storm_hold;
static atomic_int storm_stop;
static atomic_long storm_queued[2];

static void storm_gate_init(void)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	/* The test thread must get the gate while two threads hammer it. */
	pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	ck_assert_int_eq(pthread_rwlock_init(&storm_gate, &attr), 0);
	pthread_rwlockattr_destroy(&attr);
}

static void *storm_thread(void *arg)
{
	long t = (long) (intptr_t) arg;
	long begin = t * STORM_POOL, i;

	caller_enter();
	for (i = begin; i < begin + STORM_POOL; i++) {
		if (atomic_load(&storm_stop))
			break;
		/* QSBR: offline while it may wait. */
		caller_offline();
		while (atomic_load(&storm_hold))
			harness_sleep_ms(1);
		pthread_rwlock_rdlock(&storm_gate);
		caller_online();
		ops->call_rcu(&objs[i].head, track_cb);
		atomic_store(&storm_queued[t], i - begin + 1);
		pthread_rwlock_unlock(&storm_gate);
		/* Pace the storm so that the pool outlasts the fork. */
		if ((i & 255) == 255)
			harness_sleep_ms(1);
	}
	caller_exit();
	return NULL;
}

/*
 * Verify the copies of the counters in the fork child: objects queued by
 * the storm before the fork and the child's own ran exactly once.  Returns
 * an exit status: 0 when all is well.
 */
static int child_verify(void)
{
	long extra = 2 * STORM_POOL, t, i;

	for (i = extra; i < extra + STORM_CHILD_EXTRA; i++)
		ops->call_rcu(&objs[i].head, track_cb);
	ops->barrier();
	for (t = 0; t < 2; t++) {
		long begin = t * STORM_POOL;
		long q = atomic_load(&storm_queued[t]);

		if (track_first_bad(begin, begin + q, 1) >= 0)
			return 10;
		if (track_first_bad(begin + q, begin + STORM_POOL, 0) >= 0)
			return 11;
	}
	if (track_first_bad(extra, extra + STORM_CHILD_EXTRA, 1) >= 0)
		return 12;
	/* Call_rcu still works after the check: a second round. */
	atomic_store(&runs[0], 0);
	ops->call_rcu(&objs[0].head, track_cb);
	ops->barrier();
	if (atomic_load(&runs[0]) != 1)
		return 13;
	return 0;
}

START_TEST(test_fork_during_storm)
{
	static struct tracked warm;
	pthread_t tids[2];
	long t, total = 0;
	int status = -1;
	bool started;
	pid_t pid;

	ops = crcu_ops_table[_i];
	track_alloc(2 * STORM_POOL + STORM_CHILD_EXTRA);
	storm_gate_init();
	/*
	 * Start the default worker first: creating it takes a lock that
	 * call_rcu_before_fork() holds until after the fork.
	 */
	warm.idx = 2 * STORM_POOL;
	ops->call_rcu(&warm.head, track_cb);
	ops->barrier();
	atomic_store(&runs[warm.idx], 0);
	atomic_store(&ran, 0);

	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], storm_thread, (void *) (intptr_t) t);
	{
		double deadline = harness_deadline(HARNESS_WAIT_S);

		while ((atomic_load(&storm_queued[0]) < 1000
			|| atomic_load(&storm_queued[1]) < 1000)
		       && !harness_past(deadline))
			harness_sleep_ms(1);
		started = !harness_past(deadline);
	}

	atomic_store(&storm_hold, 1);
	ops->call_rcu_before_fork();
	if (ops->flavor_before_fork)
		ops->flavor_before_fork();
	/* Let the storm queue more on the parked workers. */
	atomic_store(&storm_hold, 0);
	harness_sleep_ms(5);
	pthread_rwlock_wrlock(&storm_gate);
	pid = fork();
	if (pid == 0) {
		if (ops->flavor_after_fork_child)
			ops->flavor_after_fork_child();
		ops->call_rcu_after_fork_child();
		_exit(child_verify());
	}
	if (ops->flavor_after_fork_parent)
		ops->flavor_after_fork_parent();
	ops->call_rcu_after_fork_parent();
	pthread_rwlock_unlock(&storm_gate);

	harness_sleep_ms(20);
	atomic_store(&storm_stop, 1);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ops->barrier();
	ck_assert_msg(pid > 0, "fork: %s", strerror(errno));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(started, "%s: the storm did not start", ops->name);
	for (t = 0; t < 2; t++) {
		long begin = t * STORM_POOL;
		long q = atomic_load(&storm_queued[t]);

		ck_assert_ran(begin, begin + q, 1);
		ck_assert_ran(begin + q, begin + STORM_POOL, 0);
		total += q;
	}
	ck_assert_int_eq(atomic_load(&ran), total);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s: fork child failed: %s %d", ops->name,
		      WIFEXITED(status) ? "exit status" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status)
					: WTERMSIG(status));
	pthread_rwlock_destroy(&storm_gate);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (8) defer_rcu.
 */

#define DEFER_SLOTS 4096L
#define DEFER_MANY (3 * DEFER_SLOTS + 7)

static void defer_cb(void *p)
{
	struct tracked *t = p;

	atomic_fetch_add(&runs[t->idx], 1);
	atomic_fetch_add(&ran, 1);
}

static void defer_range(long begin, long end)
{
	long i;

	for (i = begin; i < end; i++) {
		ops->defer_rcu(defer_cb, &objs[i]);
		if ((i & 63) == 0)
			caller_quiescent();
	}
}

/*
 * Register for defer_rcu, queue @n deferred calls and have @drain run them
 * all; then unregister, unless @drain did.  None may run again afterwards.
 */
static void defer_drained_by(long n, void (*drain)(void), bool unregisters)
{
	track_alloc(n);
	caller_enter();
	ck_assert_int_eq(ops->defer_register_thread(), 0);
	defer_range(0, n);
	drain();
	ck_assert_int_eq(atomic_load(&ran), n);
	ck_assert_ran(0, n, 1);
	if (!unregisters)
		ops->defer_unregister_thread();
	caller_exit();
	ck_assert_int_eq(atomic_load(&ran), n);
	track_free();
}

/* Queue more entries than the ring holds: the full path drains inline. */
START_TEST(test_defer_queue_full)
{
	ops = crcu_ops_table[_i];
	defer_drained_by(DEFER_MANY, ops->defer_barrier, false);
}
END_TEST

static void *defer_range_thread(void *arg)
{
	struct range *r = arg;
	int err;

	caller_enter();
	err = ops->defer_register_thread();
	if (err) {
		harness_fail("rcu_defer_register_thread: %d", err);
	} else {
		defer_range(r->begin, r->end);
		ops->defer_barrier();
		ops->defer_unregister_thread();
	}
	caller_exit();
	return NULL;
}

START_TEST(test_defer_two_threads)
{
	struct range halves[2] = {
		{ 0, DEFER_MANY }, { DEFER_MANY, 2 * DEFER_MANY },
	};
	pthread_t tids[2];
	int t;

	ops = crcu_ops_table[_i];
	track_alloc(2 * DEFER_MANY);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], defer_range_thread, &halves[t]);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ck_assert_no_fail();
	ck_assert_int_eq(atomic_load(&ran), 2 * DEFER_MANY);
	ck_assert_ran(0, 2 * DEFER_MANY, 1);
	track_free();
}
END_TEST

/* rcu_defer_unregister_thread() runs what the thread still had queued. */
START_TEST(test_defer_unregister_drains)
{
	ops = crcu_ops_table[_i];
	defer_drained_by(100, ops->defer_unregister_thread, true);
}
END_TEST

/* rcu_defer_barrier_thread() runs the caller's queue. */
START_TEST(test_defer_barrier_thread)
{
	ops = crcu_ops_table[_i];
	defer_drained_by(100, ops->defer_barrier_thread, false);
}
END_TEST

/* Without any barrier, the background thread drains the queue. */
static void wait_background_drain(void)
{
	bool done;

	caller_offline();
	done = wait_count(&ran, n_objs);
	caller_online();
	ck_assert_msg(done, "%s: %ld of %ld deferred calls ran", ops->name,
		      atomic_load(&ran), n_objs);
}

START_TEST(test_defer_background_drain)
{
	ops = crcu_ops_table[_i];
	defer_drained_by(100, wait_background_drain, false);
}
END_TEST

/* ------------------------------------------------------------------------
 * (9) Allocation failures, injected with liburcu-common's test hook
 * urcu__alloc_fail_after() before any RCU call (each test runs in a fresh
 * process).
 */

START_TEST(test_alloc_fail_errors)
{
	ops = crcu_ops_table[_i];
	urcu__alloc_fail_after(0);
	caller_enter();
	errno = 0;
	ck_assert_ptr_null(ops->create_call_rcu_data(0, -1));
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_int_eq(ops->defer_register_thread(), -ENOMEM);
	errno = 0;
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	errno = 0;
	ck_assert_int_eq(ops->set_cpu_call_rcu_data(0, NULL), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_ptr_null(ops->get_default_call_rcu_data());
	ck_assert_ptr_null(ops->get_cpu_call_rcu_data(0));
	/* Nothing queued anywhere: returns at once. */
	ops->barrier();
	caller_exit();
}
END_TEST

/*
 * One allocation allowed: a worker can be created, the per-CPU array
 * cannot, so assigning a CPU worker fails with -ENOMEM.
 */
START_TEST(test_alloc_fail_set_cpu)
{
	struct call_rcu_data *crdp;

	ops = crcu_ops_table[_i];
	urcu__alloc_fail_after(1);
	crdp = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	errno = 0;
	ck_assert_int_eq(ops->set_cpu_call_rcu_data(0, crdp), -ENOMEM);
	ck_assert_int_eq(errno, ENOMEM);
	ck_assert_ptr_null(ops->get_cpu_call_rcu_data(0));
	ops->call_rcu_data_free(crdp);
}
END_TEST

/*
 * No worker can be created: call_rcu() from an unregistered thread, which
 * is outside any read-side section, waits for the grace period and runs
 * the callback itself.
 */
START_TEST(test_alloc_fail_call_rcu_fallback)
{
	ops = crcu_ops_table[_i];
	urcu__alloc_fail_after(0);
	track_alloc(3);
	ops->call_rcu(&objs[0].head, track_cb);
	ck_assert_int_eq(atomic_load(&runs[0]), 1);
	ops->call_rcu(&objs[1].head, track_cb);
	ops->fl->update_call_rcu(&objs[2].head, track_cb);
	ops->barrier();
	ck_assert_ran(0, 3, 1);
	track_free();
}
END_TEST

/*
 * No worker can be created: start_poll_synchronize_rcu() still returns
 * (its grace-period request falls back to a synchronous one) and the token
 * completes.
 */
START_TEST(test_alloc_fail_poll)
{
	struct urcu_gp_poll_state state;

	ops = crcu_ops_table[_i];
	urcu__alloc_fail_after(0);
	state = ops->start_poll_synchronize_rcu();
	ops->fl->update_synchronize_rcu();
	ck_assert(ops->poll_state_synchronize_rcu(state));
}
END_TEST

/* ------------------------------------------------------------------------
 * QSBR-specific: blocking calls made by an online registered thread.
 */

/* rcu_barrier() takes an online caller offline for the wait. */
START_TEST(test_qsbr_barrier_online)
{
	ops = &crcu_ops_qsbr;
	track_alloc(100);
	caller_enter();
	queue_range(0, 100);
	ops->barrier();
	ck_assert_ran(0, 100, 1);
	ck_assert_msg(ops->fl->read_ongoing(), "caller not back online");
	caller_exit();
	track_free();
}
END_TEST

/*
 * call_rcu_data_free() by an online registered thread, with callbacks
 * pending on the worker: the worker needs a grace period to run them, so
 * freeing must not wait for it while holding the caller online.
 */
START_TEST(test_qsbr_free_online)
{
	struct call_rcu_data *crdp;

	ops = &crcu_ops_qsbr;
	track_alloc(100);
	caller_enter();
	crdp = ops->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	ops->set_thread_call_rcu_data(crdp);
	queue_range(0, 100);
	ops->set_thread_call_rcu_data(NULL);
	ops->call_rcu_data_free(crdp);
	ops->barrier();
	ck_assert_ran(0, 100, 1);
	caller_exit();
	track_free();
}
END_TEST

/* Same for free_all_cpu_call_rcu_data(). */
START_TEST(test_qsbr_free_all_cpu_online)
{
	ops = &crcu_ops_qsbr;
	track_alloc(100);
	caller_enter();
	ck_assert_int_eq(ops->create_all_cpu_call_rcu_data(0), 0);
	queue_range(0, 100);
	ops->free_all_cpu_call_rcu_data();
	ops->barrier();
	ck_assert_ran(0, 100, 1);
	caller_exit();
	track_free();
}
END_TEST

/*
 * rcu_defer_unregister_thread() by an online thread while another thread's
 * unregistration waits for a grace period (to drain its queue): the
 * second caller must not block while online, or that grace period would
 * wait for it.
 */
static atomic_int defer_b_ready, defer_a_started;

static void *defer_unregister_waiting_thread(void *arg)
{
	(void) arg;
	caller_enter();
	if (ops->defer_register_thread() != 0) {
		harness_fail("rcu_defer_register_thread failed");
		atomic_store(&defer_a_started, 1);
		caller_exit();
		return NULL;
	}
	ops->defer_rcu(defer_cb, &objs[0]);
	caller_offline();
	if (!harness_wait_flag(&defer_b_ready))
		harness_fail("the other thread never got ready");
	caller_online();
	atomic_store(&defer_a_started, 1);
	/* Drains one entry: a grace period that waits for the other thread. */
	ops->defer_unregister_thread();
	caller_exit();
	return NULL;
}

START_TEST(test_qsbr_defer_unregister_online)
{
	pthread_t tid;

	ops = &crcu_ops_qsbr;
	track_alloc(1);
	caller_enter();
	ck_assert_int_eq(ops->defer_register_thread(), 0);
	harness_spawn(&tid, defer_unregister_waiting_thread, NULL);
	atomic_store(&defer_b_ready, 1);
	/* Online, no quiescent state: the other thread's drain waits. */
	while (!atomic_load(&defer_a_started))
		;
	harness_sleep_ms(50);
	ops->defer_unregister_thread();
	caller_exit();
	harness_join(tid);
	harness_assert_no_failures(ops->name);
	ck_assert_ran(0, 1, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (10) urcu_ref.
 */

static int releases;
static struct urcu_ref *released_ref;

static void ref_release(struct urcu_ref *ref)
{
	releases++;
	released_ref = ref;
}

START_TEST(test_urcu_ref)
{
	static struct urcu_ref ref;

	urcu_ref_init(&ref);
	ck_assert_int_eq(ref.refcount, 1);
	urcu_ref_get(&ref);
	ck_assert_int_eq(ref.refcount, 2);
	ck_assert(urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, 3);
	ck_assert(urcu_ref_get_safe(&ref));
	ck_assert_int_eq(ref.refcount, 4);
	urcu_ref_put(&ref, ref_release);
	urcu_ref_put(&ref, ref_release);
	urcu_ref_put(&ref, ref_release);
	ck_assert_int_eq(releases, 0);
	ck_assert_int_eq(ref.refcount, 1);
	urcu_ref_put(&ref, ref_release);
	ck_assert_int_eq(releases, 1);
	ck_assert_ptr_eq(released_ref, &ref);
	ck_assert_int_eq(ref.refcount, 0);
	/* A dead object is never revived. */
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, 0);
	ck_assert_int_eq(releases, 1);

	/* Saturation: get_safe refuses, get_unless_zero too. */
	urcu_ref_set(&ref, LONG_MAX);
	ck_assert(!urcu_ref_get_safe(&ref));
	ck_assert(!urcu_ref_get_unless_zero(&ref));
	ck_assert_int_eq(ref.refcount, LONG_MAX);
}
END_TEST

/* urcu_ref_get() aborts instead of overflowing. */
START_TEST(test_urcu_ref_get_overflow_aborts)
{
	static struct urcu_ref ref;

	urcu_ref_set(&ref, LONG_MAX);
	urcu_ref_get(&ref);
}
END_TEST

/* urcu_ref_put() past zero aborts. */
START_TEST(test_urcu_ref_put_underflow_aborts)
{
	static struct urcu_ref ref;

	urcu_ref_set(&ref, 0);
	urcu_ref_put(&ref, ref_release);
}
END_TEST

/* Concurrent get/put pairs on top of one held reference: one release. */
#define REF_ITERS 200000L

static struct urcu_ref shared_ref;
static atomic_int shared_releases;

static void shared_release(struct urcu_ref *ref)
{
	(void) ref;
	atomic_fetch_add(&shared_releases, 1);
}

static void *ref_churn_thread(void *arg)
{
	long i;

	(void) arg;
	for (i = 0; i < REF_ITERS; i++) {
		if (!urcu_ref_get_unless_zero(&shared_ref)) {
			harness_fail("get_unless_zero failed on a live object");
			break;
		}
		urcu_ref_put(&shared_ref, shared_release);
	}
	return NULL;
}

START_TEST(test_urcu_ref_concurrent)
{
	pthread_t tids[2];
	int t;

	urcu_ref_init(&shared_ref);
	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], ref_churn_thread, NULL);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	ck_assert_no_fail();
	ck_assert_int_eq(atomic_load(&shared_releases), 0);
	ck_assert_int_eq(__atomic_load_n(&shared_ref.refcount,
					 __ATOMIC_RELAXED), 1);
	urcu_ref_put(&shared_ref, shared_release);
	ck_assert_int_eq(atomic_load(&shared_releases), 1);
}
END_TEST

/* ------------------------------------------------------------------------
 * (11) The flavor table's update-side entries.
 */

START_TEST(test_flavor_table_update_ops)
{
	const struct rcu_flavor_struct *fl;
	struct urcu_gp_poll_state state;

	ops = crcu_ops_table[_i];
	fl = ops->fl;
	ck_assert(fl->update_call_rcu == ops->call_rcu);
	ck_assert(fl->barrier == ops->barrier);
	ck_assert(fl->update_defer_rcu == ops->defer_rcu);
	ck_assert(fl->update_start_poll_synchronize_rcu
		  == ops->start_poll_synchronize_rcu);
	ck_assert(fl->update_poll_state_synchronize_rcu
		  == ops->poll_state_synchronize_rcu);

	track_alloc(2);
	fl->register_thread();
	fl->update_call_rcu(&objs[0].head, track_cb);
	fl->barrier();
	ck_assert_ran(0, 1, 1);

	ck_assert_int_eq(ops->defer_register_thread(), 0);
	fl->update_defer_rcu(defer_cb, &objs[1]);
	ops->defer_barrier();
	ck_assert_ran(1, 2, 1);
	ops->defer_unregister_thread();

	state = fl->update_start_poll_synchronize_rcu();
	fl->update_synchronize_rcu();
	ck_assert(fl->update_poll_state_synchronize_rcu(state));
	fl->thread_offline();
	fl->barrier();
	fl->thread_online();
	fl->unregister_thread();
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * (12) Gathering: under a steady stream of call_rcu(), a worker starts at
 * most one grace period per gather period (10 ms by default), unless
 * rcu_barrier(), a backlog of URCU__GATHER_MAX callbacks, or a stop ends
 * the gather early; a worker idle for a gather period runs a new callback
 * at once.
 *
 * Each test uses its own worker (the calling thread's), created after it
 * set URCU_CALL_RCU_GATHER_MS, which the library reads at each creation.
 * Nothing here depends on the machine's speed: the stream test bounds the
 * number of batches by the time the stream really took (noise only makes
 * that longer), the barrier and high-water tests set a gather period of
 * ten minutes, longer than the tests' timeouts, so the mechanism either
 * ends the gather or the test fails, and the idle test allows a tenth of
 * its gather period, which only a gathering worker would use up.
 */

/* The library's default gather period (URCU__GATHER_MS, call-rcu.c). */
#define GATHER_MS 10
/* Its high-water mark of pending callbacks (URCU__GATHER_MAX). */
#define GATHER_MAX 10000L
/* A gather period longer than any wait of these tests. */
#define GATHER_FOREVER_MS "600000"

/* Gather period of the workers created from now on (NULL: the default). */
static void set_gather_ms(const char *ms)
{
	if (ms)
		ck_assert_int_eq(setenv("URCU_CALL_RCU_GATHER_MS", ms, 1), 0);
	else
		ck_assert_int_eq(unsetenv("URCU_CALL_RCU_GATHER_MS"), 0);
}

/* Sleeps @us microseconds, the whole time even when signals interrupt. */
static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Batches run so far by @crdp's worker, from the statistics. */
static uint64_t worker_batches(struct call_rcu_data *crdp)
{
	struct urcu_stats_worker w[8];
	pthread_t tid = ops->get_call_rcu_thread(crdp);
	long n, i;

	n = ops->stats_workers(w, 8, sizeof(w[0]));
	ck_assert_msg(n >= 1 && n <= 8, "%s: %ld workers", ops->name, n);
	for (i = 0; i < n; i++)
		if (pthread_equal(w[i].thread, tid))
			return w[i].batches;
	ck_abort_msg("%s: worker missing from the statistics", ops->name);
	return 0;
}

/*
 * The calling thread (a registered caller) gets a worker of its own, with
 * a gather period of @gather_ms (NULL: the default), which then runs a
 * batch (an rcu_barrier() record), so that the next callback finds it
 * within a gather period.
 */
static struct call_rcu_data *own_worker(const char *gather_ms)
{
	struct call_rcu_data *crdp;

	set_gather_ms(gather_ms);
	crdp = ops->create_call_rcu_data(0, -1);
	ck_assert_msg(crdp != NULL, "%s: create_call_rcu_data failed",
		      ops->name);
	ops->set_thread_call_rcu_data(crdp);
	caller_offline();
	ops->barrier();
	caller_online();
	return crdp;
}

/* Undo own_worker(). */
static void own_worker_free(struct call_rcu_data *crdp)
{
	ops->set_thread_call_rcu_data(NULL);
	caller_offline();
	ops->call_rcu_data_free(crdp);
	caller_online();
}

/* harness_now() when the first stamp_cb() of a round ran; 0 before. */
static _Atomic double first_ran;

static void stamp_cb(struct rcu_head *head)
{
	double zero = 0.0;

	atomic_compare_exchange_strong(&first_ran, &zero, harness_now());
	track_cb(head);
}

/* Wait until a stamp_cb() ran; false after HARNESS_WAIT_S (scaled). */
static bool wait_first_ran(void)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);
	bool ran_one;

	caller_offline();
	while (!(ran_one = atomic_load(&first_ran) != 0.0)
	       && !harness_past(deadline))
		harness_sleep_ms(1);
	caller_online();
	return ran_one;
}

/*
 * A steady stream: one callback every STREAM_PACE_US (plus the sleep's
 * slack), far enough apart that a worker without gathering runs each in
 * a batch of its own (about STREAM_CALLBACKS batches).  With gathering,
 * each batch starts at least GATHER_MS after the previous one ended, the
 * one rcu_barrier() cuts short aside, so there are at most
 * 2 + elapsed / GATHER_MS of them, about 30 here.  That bound holds
 * however slow the machine is.
 */
#define STREAM_CALLBACKS 2000L
#define STREAM_PACE_US 50

START_TEST(test_gather_steady_stream)
{
	struct call_rcu_data *crdp;
	double start, elapsed_ms;
	uint64_t batches;
	long i;

	ops = crcu_ops_table[_i];
	track_alloc(STREAM_CALLBACKS);
	caller_enter();
	crdp = own_worker(NULL);
	batches = worker_batches(crdp);
	start = harness_now();
	for (i = 0; i < STREAM_CALLBACKS; i++) {
		ops->call_rcu(&objs[i].head, track_cb);
		caller_quiescent();
		caller_offline();
		sleep_us(STREAM_PACE_US);
		caller_online();
	}
	caller_offline();
	ops->barrier();
	caller_online();
	elapsed_ms = (harness_now() - start) * 1000.0;
	batches = worker_batches(crdp) - batches;
	own_worker_free(crdp);
	caller_exit();
	ck_assert_ran(0, STREAM_CALLBACKS, 1);
	ck_assert_msg(batches <= 3 + elapsed_ms / GATHER_MS,
		      "%s: %llu batches for %ld callbacks in %.0f ms: more "
		      "than one per %d ms gather period", ops->name,
		      (unsigned long long) batches, STREAM_CALLBACKS,
		      elapsed_ms, GATHER_MS);
	track_free();
}
END_TEST

/*
 * rcu_barrier() ends a gather at once.  Each round queues a callback on a
 * worker that has just run a batch (the previous round's barrier, or
 * own_worker()'s), so the worker gathers, for ten minutes; the barrier
 * must end that gather, or the test runs into its timeout.
 */
#define BARRIER_ROUNDS 20L

START_TEST(test_gather_barrier_not_delayed)
{
	struct call_rcu_data *crdp;
	long i;

	ops = crcu_ops_table[_i];
	track_alloc(BARRIER_ROUNDS);
	caller_enter();
	crdp = own_worker(GATHER_FOREVER_MS);
	for (i = 0; i < BARRIER_ROUNDS; i++) {
		ops->call_rcu(&objs[i].head, track_cb);
		caller_offline();
		harness_sleep_ms(1);	/* let the worker start gathering */
		ops->barrier();
		caller_online();
		ck_assert_ran(i, i + 1, 1);
	}
	own_worker_free(crdp);
	caller_exit();
	track_free();
}
END_TEST

/*
 * The high-water mark ends a gather.  Each round starts right after a
 * batch (the previous round's barrier, or own_worker()'s), so the worker
 * gathers what comes next, for ten minutes: a burst of GATHER_MAX
 * callbacks.  The call_rcu() that brings the backlog to GATHER_MAX wakes
 * the worker, which detaches its queue, so the burst's first callback
 * runs within wait_first_ran()'s wait.  rcu_barrier() comes only after
 * that: it would end the gather itself.
 */
#define HW_BURST GATHER_MAX
#define HW_ROUNDS 5L

START_TEST(test_gather_high_water)
{
	struct call_rcu_data *crdp;
	long round, i;

	ops = crcu_ops_table[_i];
	track_alloc(HW_BURST);
	caller_enter();
	crdp = own_worker(GATHER_FOREVER_MS);
	for (round = 0; round < HW_ROUNDS; round++) {
		atomic_store(&first_ran, 0.0);
		for (i = 0; i < HW_BURST; i++) {
			ops->call_rcu(&objs[i].head, stamp_cb);
			if ((i & 63) == 0)
				caller_quiescent();
		}
		ck_assert_msg(wait_first_ran(), "%s: a burst of %ld callbacks "
			      "did not run: the gather ignored the high-water "
			      "mark", ops->name, HW_BURST);
		caller_offline();
		ops->barrier();
		caller_online();
		ck_assert_ran(0, HW_BURST, (int) round + 1);
	}
	own_worker_free(crdp);
	caller_exit();
	track_free();
}
END_TEST

/*
 * A worker idle for longer than a gather period runs a new callback at
 * once.  With a gather period of IDLE_GATHER_MS, the test sleeps a bit
 * longer than that after the worker's last batch, queues one callback and
 * takes the time until it runs: a worker that gathered from the moment it
 * was woken would take the whole period, so a tenth of it is the bound
 * (a callback normally runs within a millisecond).
 */
#define IDLE_GATHER_MS 2000
#define IDLE_GATHER_MS_STR "2000"

START_TEST(test_gather_idle_prompt)
{
	struct call_rcu_data *crdp;
	double start, ms;

	ops = crcu_ops_table[_i];
	track_alloc(1);
	caller_enter();
	crdp = own_worker(IDLE_GATHER_MS_STR);
	caller_offline();
	harness_sleep_ms(IDLE_GATHER_MS + IDLE_GATHER_MS / 10);
	caller_online();
	atomic_store(&first_ran, 0.0);
	start = harness_now();
	ops->call_rcu(&objs[0].head, stamp_cb);
	ck_assert_msg(wait_first_ran(), "%s: the callback never ran",
		      ops->name);
	ms = (atomic_load(&first_ran) - start) * 1000.0;
	own_worker_free(crdp);
	caller_exit();
	ck_assert_ran(0, 1, 1);
	ck_assert_msg(ms < IDLE_GATHER_MS / 10.0,
		      "%s: an idle worker took %.0f ms to run a new callback: "
		      "it gathered (period %d ms)", ops->name, ms,
		      IDLE_GATHER_MS);
	track_free();
}
END_TEST

/*
 * URCU_CALL_RCU_GATHER_MS must be a number of milliseconds; anything else
 * is reported on stderr when a worker is created, once, and the default
 * is used.  stderr goes to a temporary file meanwhile.
 */
static const char *const bad_gather_values[] = { "ten", "-1", "5ms",
						 "3600001" };

START_TEST(test_gather_env_bad_value)
{
	struct call_rcu_data *a, *b;
	char out[512];
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;
	long i;

	ops = crcu_ops_table[0];
	ck_assert(tmp != NULL && saved >= 0);
	fflush(stderr);
	ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
	ck_assert_int_eq(setenv("URCU_CALL_RCU_GATHER_MS",
				bad_gather_values[_i], 1), 0);
	a = ops->create_call_rcu_data(0, -1);
	b = ops->create_call_rcu_data(0, -1);
	fflush(stderr);
	ck_assert_int_ge(dup2(saved, STDERR_FILENO), 0);
	close(saved);
	ck_assert(a != NULL && b != NULL);
	rewind(tmp);
	n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	ck_assert_msg(strstr(out, "ignoring URCU_CALL_RCU_GATHER_MS") != NULL,
		      "no report of URCU_CALL_RCU_GATHER_MS=%s: \"%s\"",
		      bad_gather_values[_i], out);
	ck_assert_msg(strstr(strstr(out, "ignoring") + 1, "ignoring") == NULL,
		      "reported more than once: \"%s\"", out);
	/* The workers work, with the default period. */
	track_alloc(2);
	caller_enter();
	for (i = 0; i < 2; i++) {
		ops->set_thread_call_rcu_data(i ? b : a);
		ops->call_rcu(&objs[i].head, track_cb);
	}
	ops->set_thread_call_rcu_data(NULL);
	caller_offline();
	ops->barrier();
	ops->call_rcu_data_free(a);
	ops->call_rcu_data_free(b);
	caller_online();
	caller_exit();
	ck_assert_ran(0, 2, 1);
	track_free();
}
END_TEST

/* ------------------------------------------------------------------------
 * Misuse: rcu_barrier() where it would wait for itself aborts with a
 * message.  Inside a read-side section this is caught in every build for
 * the flavors that track sections in release builds (all but QSBR, whose
 * sections are tracked by read sides built with URCU_DEBUG).
 */

START_TEST(test_misuse_barrier_in_section)
{
	const struct rcu_flavor_struct *fl = crcu_ops_table[_i]->fl;

	fl->register_thread();
	fl->read_lock();
	fl->barrier();		/* must abort, not wait for itself */
}
END_TEST

/* defer_rcu() may wait for a grace period, so not inside a section. */
START_TEST(test_misuse_defer_in_section)
{
	const struct crcu_ops *o = crcu_ops_table[_i];

	o->fl->register_thread();
	ck_assert_int_eq(o->defer_register_thread(), 0);
	o->fl->read_lock();
	o->fl->update_defer_rcu(free, NULL);	/* must abort */
}
END_TEST

static const struct rcu_flavor_struct *misuse_fl;

static void barrier_from_callback(struct rcu_head *head)
{
	(void) head;
	misuse_fl->barrier();	/* aborts the whole process */
}

START_TEST(test_misuse_barrier_in_callback)
{
	static struct rcu_head head;

	misuse_fl = crcu_ops_table[_i]->fl;
	misuse_fl->update_call_rcu(&head, barrier_from_callback);
	misuse_fl->barrier();	/* never returns: the worker aborts */
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

/* A test looped over crcu_ops_table[] (the loop index picks the flavor). */
#define add_per_flavor(tc, test) \
	tcase_add_loop_test((tc), (test), 0, N_CRCU_FLAVORS)

static Suite *call_rcu_suite(void)
{
	Suite *s = suite_create("call_rcu");
	TCase *tc;

	tc = harness_tcase(s, "api", 30);
	add_per_flavor(tc, test_free_default_ignored);
	add_per_flavor(tc, test_thread_worker);
	add_per_flavor(tc, test_thread_worker_rt);
	add_per_flavor(tc, test_fifo_order);
	add_per_flavor(tc, test_per_cpu_workers);
	add_per_flavor(tc, test_get_call_rcu_data_precedence);
	add_per_flavor(tc, test_flavor_table_update_ops);

	tc = harness_tcase(s, "grace_period", 30);
	add_per_flavor(tc, test_callback_waits_for_reader);
	add_per_flavor(tc, test_call_rcu_inside_section);
	add_per_flavor(tc, test_nested_call_rcu);
	add_per_flavor(tc, test_barrier_covers_all_workers);

	tc = harness_tcase(s, "gather", 30);
	add_per_flavor(tc, test_gather_steady_stream);
	add_per_flavor(tc, test_gather_barrier_not_delayed);
	add_per_flavor(tc, test_gather_high_water);
	add_per_flavor(tc, test_gather_idle_prompt);
	tcase_add_loop_test(tc, test_gather_env_bad_value, 0,
			    sizeof(bad_gather_values) /
			    sizeof(bad_gather_values[0]));

	tc = harness_tcase(s, "poll", 30);
	add_per_flavor(tc, test_poll_after_synchronize);
	add_per_flavor(tc, test_poll_completes_alone);
	add_per_flavor(tc, test_poll_waits_for_reader);

	tc = harness_tcase(s, "concurrent", 60);
	add_per_flavor(tc, test_many_callbacks);
	add_per_flavor(tc, test_free_all_cpu_under_load);
	add_per_flavor(tc, test_fork_during_storm);

	tc = harness_tcase(s, "defer", 30);
	add_per_flavor(tc, test_defer_queue_full);
	add_per_flavor(tc, test_defer_two_threads);
	add_per_flavor(tc, test_defer_unregister_drains);
	add_per_flavor(tc, test_defer_barrier_thread);
	add_per_flavor(tc, test_defer_background_drain);

	tc = harness_tcase(s, "alloc_failure", 10);
	add_per_flavor(tc, test_alloc_fail_errors);
	add_per_flavor(tc, test_alloc_fail_set_cpu);
	add_per_flavor(tc, test_alloc_fail_call_rcu_fallback);
	add_per_flavor(tc, test_alloc_fail_poll);

	tc = harness_tcase(s, "qsbr_online", 30);
	tcase_add_test(tc, test_qsbr_barrier_online);
	tcase_add_test(tc, test_qsbr_free_online);
	tcase_add_test(tc, test_qsbr_free_all_cpu_online);
	tcase_add_test(tc, test_qsbr_defer_unregister_online);

	tc = harness_tcase(s, "ref", 0);
	tcase_add_test(tc, test_urcu_ref);
	tcase_add_test_raise_signal(tc, test_urcu_ref_get_overflow_aborts,
				    SIGABRT);
	tcase_add_test_raise_signal(tc, test_urcu_ref_put_underflow_aborts,
				    SIGABRT);
	tcase_add_test(tc, test_urcu_ref_concurrent);

	tc = harness_tcase(s, "misuse", 30);
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, 0, CRCU_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, CRCU_QSBR + 1, N_CRCU_FLAVORS);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, 0, CRCU_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, CRCU_QSBR + 1, N_CRCU_FLAVORS);
#if defined(URCU_DEBUG)
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_section,
					 SIGABRT, CRCU_QSBR, CRCU_QSBR + 1);
	tcase_add_loop_test_raise_signal(tc, test_misuse_defer_in_section,
					 SIGABRT, CRCU_QSBR, CRCU_QSBR + 1);
#endif
	tcase_add_loop_test_raise_signal(tc, test_misuse_barrier_in_callback,
					 SIGABRT, 0, N_CRCU_FLAVORS);

	return s;
}

int main(void)
{
	return harness_run_suite(call_rcu_suite());
}
