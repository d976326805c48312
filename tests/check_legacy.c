/*
 * Check suite "legacy": the interfaces kept for programs written against
 * older liburcu releases.
 *
 * TCase "wfqueue": the deprecated queue <urcu/wfqueue.h>: empty queue,
 * FIFO order through several trips of the dummy node, immediate reuse of
 * dequeued nodes, a dequeue that must wait for a link in flight, and
 * producer/consumer stress (tests/harness/sq_stress.h) with the locked
 * and the caller-serialized dequeue.
 * TCase "rculfstack": the deprecated RCU stack <urcu/rculfstack.h>: push
 * return values, LIFO order, and stress with pops inside memb read-side
 * critical sections and a grace period before each node is pushed again.
 * TCase "headers": the obsolete header names, the umbrella headers and
 * the flavor-suffixed names of liburcu 0.10 and older give the current
 * API.
 *
 * Conventions (engineering notes, section 3): fork mode; worker threads
 * never call ck_assert, they record failures (tests/harness/harness.h)
 * and the test thread asserts after pthread_join; stress phases last a
 * time budget scaled by CK_TIMEOUT_MULTIPLIER and never assert on speed.
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

static struct qitem *qitems_new(unsigned int n)
{
	struct qitem *it = calloc(n, sizeof(*it));
	unsigned int i;

	ck_assert_ptr_nonnull(it);
	for (i = 0; i < n; i++) {
		cds_wfq_node_init(&it[i].node);
		it[i].sq.seq = i;
	}
	return it;
}

START_TEST(test_wfq_empty)
{
	struct cds_wfq_queue q;

	cds_wfq_init(&q);
	ck_assert_ptr_null(cds_wfq_dequeue_blocking(&q));
	ck_assert_ptr_null(__cds_wfq_dequeue_blocking(&q));
	cds_wfq_destroy(&q);
}
END_TEST

/*
 * Each round empties the queue, so the dummy node leaves and re-enters it
 * every time: the order must survive that.
 */
START_TEST(test_wfq_fifo_order)
{
	enum { N = 50, ROUNDS = 3 };
	struct cds_wfq_queue q;
	struct qitem *it = qitems_new(N);
	struct cds_wfq_node *node;
	unsigned int i, round;

	cds_wfq_init(&q);
	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < N; i++)
			cds_wfq_enqueue(&q, &it[i].node);
		for (i = 0; i < N; i++) {
			node = cds_wfq_dequeue_blocking(&q);
			ck_assert_ptr_nonnull(node);
			ck_assert_uint_eq(to_qitem(node)->sq.seq, i);
		}
		ck_assert_ptr_null(cds_wfq_dequeue_blocking(&q));
	}
	cds_wfq_destroy(&q);
	free(it);
}
END_TEST

/* A dequeued node is the caller's at once: enqueue it again, no init. */
START_TEST(test_wfq_reuse_at_once)
{
	struct cds_wfq_queue q;
	struct qitem *it = qitems_new(2);
	struct cds_wfq_node *node;
	unsigned int round;

	cds_wfq_init(&q);
	cds_wfq_enqueue(&q, &it[0].node);
	cds_wfq_enqueue(&q, &it[1].node);
	for (round = 0; round < 10; round++) {
		node = __cds_wfq_dequeue_blocking(&q);
		ck_assert_uint_eq(to_qitem(node)->sq.seq, round & 1);
		cds_wfq_enqueue(&q, node);
	}
	ck_assert_ptr_eq(__cds_wfq_dequeue_blocking(&q), &it[0].node);
	ck_assert_ptr_eq(__cds_wfq_dequeue_blocking(&q), &it[1].node);
	ck_assert_ptr_null(__cds_wfq_dequeue_blocking(&q));
	cds_wfq_destroy(&q);
	free(it);
}
END_TEST

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

static void wfq_put(void *q, struct sq_item *it)
{
	cds_wfq_enqueue(q, &caa_container_of(it, struct qitem, sq)->node);
}

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

static bool wfq_empty(void *q)
{
	return cds_wfq_dequeue_blocking(q) == NULL;
}

static const struct sq_ops wfq_ops = {
	.node_size = sizeof(struct qitem),
	.item_offset = offsetof(struct qitem, sq),
	.put = wfq_put,
	.take = wfq_take,
	.empty = wfq_empty,
	.fifo = true,
};

static const struct sq_run wfq_runs[] = {
	{ "mpmc_dequeue_locked", { WFQ_DEQUEUE_LOCKED, WFQ_DEQUEUE_LOCKED } },
	{ "mpsc_dequeue_single", { WFQ_DEQUEUE_SINGLE, WFQ_IDLE } },
};

/* Loop test over wfq_runs[]. */
START_TEST(test_wfq_stress)
{
	struct cds_wfq_queue q;

	cds_wfq_init(&q);
	sq_run_stress(&wfq_ops, &q, &wfq_runs[_i]);
	cds_wfq_destroy(&q);
}
END_TEST

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

START_TEST(test_lfs_rcu_push_pop_order)
{
	enum { N = 50 };
	struct cds_lfs_stack_rcu s;
	struct sitem *it = calloc(N, sizeof(*it));
	struct cds_lfs_node_rcu *node;
	unsigned int i;

	ck_assert_ptr_nonnull(it);
	rcu_register_thread();
	cds_lfs_init_rcu(&s);
	rcu_read_lock();
	ck_assert_ptr_null(cds_lfs_pop_rcu(&s));
	rcu_read_unlock();
	for (i = 0; i < N; i++) {
		it[i].sq.seq = i;
		cds_lfs_node_init_rcu(&it[i].node);
		/* 0 when the stack was empty before the push. */
		ck_assert_int_eq(cds_lfs_push_rcu(&s, &it[i].node) != 0, i > 0);
	}
	for (i = N; i-- > 0;) {
		rcu_read_lock();
		node = cds_lfs_pop_rcu(&s);
		rcu_read_unlock();
		ck_assert_ptr_nonnull(node);
		ck_assert_uint_eq(to_sitem(node)->sq.seq, i);
	}
	rcu_read_lock();
	ck_assert_ptr_null(cds_lfs_pop_rcu(&s));
	rcu_read_unlock();
	rcu_unregister_thread();
	free(it);
}
END_TEST

static void lfs_put(void *s, struct sq_item *it)
{
	cds_lfs_push_rcu(s, &caa_container_of(it, struct sitem, sq)->node);
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

static const struct sq_ops lfs_ops = {
	.node_size = sizeof(struct sitem),
	.item_offset = offsetof(struct sitem, sq),
	.put = lfs_put,
	.take = lfs_take,
	.empty = lfs_empty,
	.consumer_begin = lfs_consumer_begin,
	.consumer_end = lfs_consumer_end,
};

START_TEST(test_lfs_rcu_stress)
{
	static const struct sq_run run = { "rcu_pops", { 0, 0 } };
	struct cds_lfs_stack_rcu s;

	cds_lfs_init_rcu(&s);
	sq_run_stress(&lfs_ops, &s, &run);
}
END_TEST

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

	tcase_add_test(wfq, test_wfq_empty);
	tcase_add_test(wfq, test_wfq_fifo_order);
	tcase_add_test(wfq, test_wfq_reuse_at_once);
	tcase_add_test(wfq, test_wfq_dequeue_waits_for_link);
	tcase_add_loop_test(wfq, test_wfq_stress, 0,
			    (int) CAA_ARRAY_SIZE(wfq_runs));

	tcase_add_test(lfs, test_lfs_rcu_push_pop_order);
	tcase_add_test(lfs, test_lfs_rcu_stress);

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
