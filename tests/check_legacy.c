/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "legacy": the interfaces kept for programs written against
 * older liburcu releases.
 *
 * TCase "wfqueue": the deprecated queue <urcu/wfqueue.h>: empty queue,
 * FIFO order through several trips of the dummy node, immediate reuse of
 * dequeued nodes (tests/harness/sq_api.c, once with the locked and once
 * with the caller-serialized dequeue), a dequeue that must wait for a link
 * in flight, and producer/consumer stress (tests/harness/sq_stress.h)
 * with both dequeues.
 * TCase "rculfstack": the deprecated RCU stack <urcu/rculfstack.h>: empty
 * stack, push return values, LIFO order and node reuse after a grace
 * period (tests/harness/sq_api.c), and stress with pops inside memb
 * read-side critical sections and a grace period before each node is
 * pushed again.
 * TCase "headers": the obsolete header names, the umbrella headers and
 * the flavor-suffixed names of liburcu 0.10 and older give the current
 * API.
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
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

/* The documented way to silence the deprecation warnings. */
#define CDS_WFQ_DEPRECATED
#define CDS_LFS_RCU_DEPRECATED
#include <urcu.h>
#include <urcu/cds.h>
#include <urcu/static/urcu.h>
/* These three #warning on purpose: the old names still work. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wcpp"
#include <urcu/uatomic_arch.h>
#include <urcu/urcu-futex.h>
#include <urcu/urcu_ref.h>
#pragma GCC diagnostic pop
#include <urcu/syscall-compat.h>

#include "harness/harness.h"
#include "harness/sq.h"
#include "harness/sq_stress.h"
#include "legacy/compat_names.h"

/* ------------------------------------------------------------------------
 * TCase "wfqueue".
 */

struct qitem {
	struct cds_wfq_node node;
	struct sq_item sq;
};

static struct qitem *to_qitem(struct cds_wfq_node *node)
{
	return caa_container_of(node, struct qitem, node);
}

static struct cds_wfq_node *wfq_node_of(struct sq_item *it)
{
	return &caa_container_of(it, struct qitem, sq)->node;
}

static struct sq_item *wfq_item_of(struct cds_wfq_node *node)
{
	return node ? &to_qitem(node)->sq : NULL;
}

static void wfq_init(void *q)
{
	cds_wfq_init(q);
}

static void wfq_destroy(void *q)
{
	cds_wfq_destroy(q);
}

static void wfq_node_init(struct sq_item *it)
{
	cds_wfq_node_init(wfq_node_of(it));
}

/* The API tells nothing: the return value is ignored (put_reports). */
static bool wfq_put(void *q, struct sq_item *it)
{
	cds_wfq_enqueue(q, wfq_node_of(it));
	return false;
}

/* The locked dequeue, and the one the caller serializes. */
static struct sq_item *wfq_dequeue(void *q)
{
	return wfq_item_of(cds_wfq_dequeue_blocking(q));
}

static struct sq_item *wfq_dequeue_unlocked(void *q)
{
	return wfq_item_of(__cds_wfq_dequeue_blocking(q));
}

/* The API has no emptiness test: a dequeue that finds nothing. */
static bool wfq_empty(void *q)
{
	return cds_wfq_dequeue_blocking(q) == NULL;
}

static unsigned long wfq_take(struct sq_consumer *c);

/*
 * The queue twice, once per dequeue: the shared tests run with each.  A
 * dequeued node is the caller's at once: enqueued again, as it is.
 */
#define WFQ_OPS(label, take_fn)						\
	{								\
		.name = label,						\
		.fifo = true,						\
		.node_size = sizeof(struct qitem),			\
		.item_offset = offsetof(struct qitem, sq),		\
		.ds_size = sizeof(struct cds_wfq_queue),		\
		.init = wfq_init,					\
		.destroy = wfq_destroy,					\
		.node_init = wfq_node_init,				\
		.reuse = 0,						\
		.put = wfq_put,						\
		.take_one = take_fn,					\
		.empty = wfq_empty,					\
		.take = wfq_take,					\
	}

static const struct sq_ops wfq_ops = WFQ_OPS("wfqueue", wfq_dequeue);
static const struct sq_ops wfq_unlocked_ops =
	WFQ_OPS("wfqueue (__dequeue)", wfq_dequeue_unlocked);

static struct qitem *qitems_new(unsigned int n)
{
	return sq_nodes_new(&wfq_ops, n);
}

struct wfq_waiter {
	struct cds_wfq_queue *q;
	struct cds_wfq_node *got;
	atomic_int done;
};

static void *wfq_waiter_thread(void *arg)
{
	struct wfq_waiter *w = arg;

	w->got = cds_wfq_dequeue_blocking(w->q);
	atomic_store(&w->done, 1);
	return NULL;
}

/*
 * An enqueuer that has claimed its place but not linked its node yet (E2
 * done, E3 not: <urcu/static/wfqueue.h>) makes the queue non-empty: the
 * dequeue must wait for the link and return the node, not NULL.  The test
 * plays that enqueuer by hand.
 */
START_TEST(test_wfq_dequeue_waits_for_link)
{
	struct cds_wfq_queue q;
	struct qitem *it = qitems_new(1);
	struct wfq_waiter w = { .q = &q };
	struct cds_wfq_node **slot;
	pthread_t thread;
	bool early;

	cds_wfq_init(&q);
	slot = __atomic_exchange_n(&q.tail, &it[0].node.next, __ATOMIC_ACQ_REL);
	harness_spawn(&thread, wfq_waiter_thread, &w);
	harness_sleep_ms(20);
	early = atomic_load(&w.done);
	__atomic_store_n(slot, &it[0].node, __ATOMIC_RELEASE);
	harness_join(thread);
	ck_assert_msg(!early, "dequeue returned before the link was made");
	ck_assert_ptr_eq(w.got, &it[0].node);
	ck_assert_ptr_null(cds_wfq_dequeue_blocking(&q));
	cds_wfq_destroy(&q);
	free(it);
}
END_TEST

/* Consumer modes of the wfqueue stress runs. */
enum {
	WFQ_DEQUEUE_LOCKED,	/* cds_wfq_dequeue_blocking() */
	WFQ_DEQUEUE_SINGLE,	/* __cds_wfq_dequeue_blocking(), sole consumer */
	WFQ_IDLE,		/* nothing: runs with a single consumer */
};

static unsigned long wfq_take(struct sq_consumer *c)
{
	struct cds_wfq_node *node;

	switch (c->mode) {
	case WFQ_DEQUEUE_LOCKED:
		node = cds_wfq_dequeue_blocking(c->ds);
		break;
	case WFQ_DEQUEUE_SINGLE:
		node = __cds_wfq_dequeue_blocking(c->ds);
		break;
	default:
		return 0;
	}
	if (node == NULL)
		return 0;
	sq_consume(c, &to_qitem(node)->sq);
	return 1;
}

static const struct sq_run wfq_runs[] = {
	{ "mpmc_dequeue_locked", { WFQ_DEQUEUE_LOCKED, WFQ_DEQUEUE_LOCKED } },
	{ "mpsc_dequeue_single", { WFQ_DEQUEUE_SINGLE, WFQ_IDLE } },
};

/* ------------------------------------------------------------------------
 * TCase "rculfstack".
 */

struct sitem {
	struct cds_lfs_node_rcu node;
	struct sq_item sq;
};

static struct sitem *to_sitem(struct cds_lfs_node_rcu *node)
{
	return caa_container_of(node, struct sitem, node);
}

static struct cds_lfs_node_rcu *lfs_node_of(struct sq_item *it)
{
	return &caa_container_of(it, struct sitem, sq)->node;
}

static void lfs_init(void *s)
{
	cds_lfs_init_rcu(s);
}

static void lfs_node_init(struct sq_item *it)
{
	cds_lfs_node_init_rcu(lfs_node_of(it));
}

/* Pushes need no read-side section; 0 means the stack was empty. */
static bool lfs_put(void *s, struct sq_item *it)
{
	return cds_lfs_push_rcu(s, lfs_node_of(it)) != 0;
}

/* Pops, inside a read-side section (memb, the test thread registered). */
static struct sq_item *lfs_take_one(void *s)
{
	struct cds_lfs_node_rcu *node;

	rcu_read_lock();
	node = cds_lfs_pop_rcu(s);
	rcu_read_unlock();
	return node ? &to_sitem(node)->sq : NULL;
}

static void lfs_grace_period(void)
{
	synchronize_rcu();
}

static void lfs_thread_begin(void)
{
	rcu_register_thread();
}

static void lfs_thread_end(void)
{
	rcu_unregister_thread();
}

/* Nodes a consumer pops before the grace period that lets it reuse them. */
#define LFS_BATCH	16

/*
 * Pop up to LFS_BATCH nodes inside a read-side critical section, then
 * wait for a grace period before sq_consume() hands them back to their
 * producers, who push them again: the rule that keeps pops from ABA.
 */
static unsigned long lfs_take(struct sq_consumer *c)
{
	struct cds_lfs_node_rcu *popped[LFS_BATCH];
	unsigned long i, n = 0;

	rcu_read_lock();
	while (n < LFS_BATCH && (popped[n] = cds_lfs_pop_rcu(c->ds)) != NULL)
		n++;
	rcu_read_unlock();
	if (n == 0)
		return 0;
	synchronize_rcu();
	for (i = 0; i < n; i++)
		sq_consume(c, &to_sitem(popped[i])->sq);
	return n;
}

static bool lfs_empty(void *s)
{
	struct cds_lfs_stack_rcu *stack = s;

	/* After the run: the joins ordered every push and pop. */
	return __atomic_load_n(&stack->head, __ATOMIC_RELAXED) == NULL;
}

static void lfs_consumer_begin(struct sq_consumer *c)
{
	(void) c;
	rcu_register_thread();
}

static void lfs_consumer_end(struct sq_consumer *c)
{
	(void) c;
	rcu_unregister_thread();
}

/* A popped node may be pushed again after a grace period. */
static const struct sq_ops lfs_ops = {
	.name = "rculfstack",
	.fifo = false,
	.node_size = sizeof(struct sitem),
	.item_offset = offsetof(struct sitem, sq),
	.ds_size = sizeof(struct cds_lfs_stack_rcu),
	.init = lfs_init,
	.node_init = lfs_node_init,
	.reuse = SQ_REUSE_AFTER_GP,
	.grace_period = lfs_grace_period,
	.thread_begin = lfs_thread_begin,
	.thread_end = lfs_thread_end,
	.put = lfs_put,
	.put_reports = true,
	.take_one = lfs_take_one,
	.empty = lfs_empty,
	.take = lfs_take,
	.consumer_begin = lfs_consumer_begin,
	.consumer_end = lfs_consumer_end,
};

/* Both consumers pop in read-side sections (lfs_take). */
static const struct sq_run lfs_runs[] = {
	{ "rcu_pops", { 0, 0 } },
};

/* ------------------------------------------------------------------------
 * TCase "headers".
 */

static void ref_release(struct urcu_ref *ref)
{
	ref->refcount = -100;
}

/* <urcu/urcu_ref.h>, <urcu/uatomic_arch.h>, <urcu/urcu-futex.h>. */
START_TEST(test_obsolete_header_names)
{
	struct urcu_ref ref;
	unsigned long v = 1;
	int32_t word = 0;

	urcu_ref_init(&ref);
	urcu_ref_get(&ref);
	urcu_ref_put(&ref, ref_release);
	urcu_ref_put(&ref, ref_release);
	ck_assert_int_eq(ref.refcount, -100);
	ck_assert_uint_eq(uatomic_add_return(&v, 2), 3);
	/* Nobody waits on the word: wakes nobody, no error. */
	ck_assert_int_eq(futex_noasync(&word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
}
END_TEST

/* <urcu/syscall-compat.h>: syscall() and the SYS_* numbers. */
START_TEST(test_syscall_compat)
{
	ck_assert_int_eq(syscall(SYS_getpid), getpid());
}
END_TEST

#define LEGACY_STR(x)	#x
#define LEGACY_XSTR(x)	LEGACY_STR(x)

/*
 * <urcu/static/urcu.h> and <urcu/map/urcu.h> follow <urcu.h>'s choice of
 * flavor (memb here), and <urcu/cds.h> brought in every structure.
 */
START_TEST(test_umbrella_headers)
{
	struct cds_lfht *ht;

	ck_assert_str_eq(LEGACY_XSTR(rcu_read_lock), "urcu_memb_read_lock");
	ck_assert_str_eq(LEGACY_XSTR(synchronize_rcu),
			 "urcu_memb_synchronize_rcu");
	rcu_register_thread();
	_urcu_memb_read_lock();		/* from <urcu/static/urcu-memb.h> */
	ck_assert(rcu_read_ongoing());
	_urcu_memb_read_unlock();
	ht = cds_lfht_new(1, 1, 0, 0, NULL);
	ck_assert_ptr_nonnull(ht);
	ck_assert_int_eq(cds_lfht_destroy(ht, NULL), 0);
	rcu_unregister_thread();
}
END_TEST

/*
 * The flavor-suffixed names of liburcu 0.10 and older reach the flavors'
 * calls (tests/legacy/compat_names.c), and URCU_NO_COMPAT_IDENTIFIERS
 * leaves them out (tests/legacy/no_compat.c).
 */
START_TEST(test_compat_identifiers)
{
	ck_assert_int_eq(legacy_compat_round_trip(), 84);
	ck_assert(legacy_compat_names_absent());
	ck_assert_str_eq(LEGACY_XSTR(rcu_read_lock_memb),
			 "urcu_memb_read_lock");
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *legacy_suite(void)
{
	Suite *s = suite_create("legacy");
	TCase *wfq = harness_tcase(s, "wfqueue", 30);
	TCase *lfs = harness_tcase(s, "rculfstack", 30);
	TCase *hdr = harness_tcase(s, "headers", 0);

	sq_add_api_tests(wfq, &wfq_ops);
	sq_add_api_tests(wfq, &wfq_unlocked_ops);
	tcase_add_test(wfq, test_wfq_dequeue_waits_for_link);
	sq_add_stress_tests(wfq, &wfq_ops, wfq_runs,
			    (int) CAA_ARRAY_SIZE(wfq_runs));

	sq_add_api_tests(lfs, &lfs_ops);
	sq_add_stress_tests(lfs, &lfs_ops, lfs_runs,
			    (int) CAA_ARRAY_SIZE(lfs_runs));

	tcase_add_test(hdr, test_obsolete_header_names);
	tcase_add_test(hdr, test_syscall_compat);
	tcase_add_test(hdr, test_umbrella_headers);
	tcase_add_test(hdr, test_compat_identifiers);
	return s;
}

int main(void)
{
	return harness_run_suite(legacy_suite());
}
