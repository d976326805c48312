/*
 * Check suite "rculfqueue": the RCU lock-free queue (<urcu/rculfqueue.h>).
 *
 * TCase "api": single-threaded semantics (FIFO order, empty queue,
 * cds_lfq_destroy_rcu() refusing a non-empty queue, node reuse after a
 * grace period), through the library and through the inline versions.
 * TCase "concurrent": producers and consumers of the memb and QSBR
 * flavors hammer one queue for a time budget.  Every enqueued value must
 * be dequeued exactly once, and each consumer must see each producer's
 * values in enqueue order.  Dequeued nodes are freed with call_rcu.
 *
 * Conventions: fork mode; worker threads never call ck_assert, they
 * record failures (tests/harness/harness.h) and the test thread asserts
 * after pthread_join and rcu_barrier; the stress phase lasts a time budget
 * scaled by CK_TIMEOUT_MULTIPLIER and never asserts on speed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/rculfqueue.h>
/* The inline versions too (what _LGPL_SOURCE maps the API onto). */
#include <urcu/static/rculfqueue.h>

#include "harness/harness.h"

/* Stress budget, before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_S		1.0
#define NR_PRODUCERS		2
#define NR_CONSUMERS		2
/* Values each producer may enqueue at most (bounds the bookkeeping). */
#define MAX_PER_PRODUCER	(1UL << 20)

struct item {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
	unsigned int producer;
	unsigned long seq;
};

static struct item *to_item(struct cds_lfq_node_rcu *node)
{
	return caa_container_of(node, struct item, node);
}

static void free_item_cb(struct rcu_head *head)
{
	free(caa_container_of(head, struct item, rcu));
}

/* ------------------------------------------------------------------------
 * TCase "api": the memb flavor, test thread registered.
 */

static void api_begin(struct cds_lfq_queue_rcu *q)
{
	urcu_memb_register_thread();
	cds_lfq_init_rcu(q, urcu_memb_call_rcu);
}

static void api_end(struct cds_lfq_queue_rcu *q)
{
	ck_assert_int_eq(cds_lfq_destroy_rcu(q), 0);
	/* Let the dummies handed to call_rcu be freed. */
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
}

static void enqueue(struct cds_lfq_queue_rcu *q, struct cds_lfq_node_rcu *n)
{
	urcu_memb_read_lock();
	cds_lfq_enqueue_rcu(q, n);
	urcu_memb_read_unlock();
}

static struct cds_lfq_node_rcu *dequeue(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *n;

	urcu_memb_read_lock();
	n = cds_lfq_dequeue_rcu(q);
	urcu_memb_read_unlock();
	return n;
}

START_TEST(test_empty)
{
	struct cds_lfq_queue_rcu q;

	api_begin(&q);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_ptr_null(dequeue(&q));
	api_end(&q);

	/* Destroy right after init. */
	cds_lfq_init_rcu(&q, urcu_memb_call_rcu);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
}
END_TEST

START_TEST(test_destroy_non_empty)
{
	struct cds_lfq_queue_rcu q;
	struct item it[2];

	api_begin(&q);
	cds_lfq_node_init_rcu(&it[0].node);
	cds_lfq_node_init_rcu(&it[1].node);
	enqueue(&q, &it[0].node);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);
	enqueue(&q, &it[1].node);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);
	ck_assert_ptr_eq(dequeue(&q), &it[0].node);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);
	ck_assert_ptr_eq(dequeue(&q), &it[1].node);
	ck_assert_ptr_null(dequeue(&q));
	api_end(&q);
}
END_TEST

START_TEST(test_fifo_order)
{
	enum { N = 100 };
	struct cds_lfq_queue_rcu q;
	struct item it[N];
	struct cds_lfq_node_rcu *n;
	unsigned int i, round;

	api_begin(&q);
	for (round = 0; round < 3; round++) {
		for (i = 0; i < N; i++) {
			cds_lfq_node_init_rcu(&it[i].node);
			it[i].seq = i;
			enqueue(&q, &it[i].node);
		}
		for (i = 0; i < N; i++) {
			n = dequeue(&q);
			ck_assert_ptr_nonnull(n);
			ck_assert_uint_eq(to_item(n)->seq, i);
		}
		ck_assert_ptr_null(dequeue(&q));
		/* Nodes may be enqueued again after a grace period. */
		urcu_memb_synchronize_rcu();
	}
	api_end(&q);
}
END_TEST

/* Enqueues and dequeues interleaved, so the queue often holds one node. */
START_TEST(test_interleaved)
{
	enum { N = 64 };
	struct cds_lfq_queue_rcu q;
	struct item it[N];
	unsigned int i;

	api_begin(&q);
	cds_lfq_node_init_rcu(&it[0].node);
	it[0].seq = 0;
	enqueue(&q, &it[0].node);
	for (i = 1; i < N; i++) {
		cds_lfq_node_init_rcu(&it[i].node);
		it[i].seq = i;
		enqueue(&q, &it[i].node);
		ck_assert_ptr_eq(dequeue(&q), &it[i - 1].node);
	}
	ck_assert_ptr_eq(dequeue(&q), &it[N - 1].node);
	ck_assert_ptr_null(dequeue(&q));
	api_end(&q);
}
END_TEST

/* The same through the inline implementation of <urcu/static/rculfqueue.h>. */
START_TEST(test_inline)
{
	enum { N = 16 };
	struct cds_lfq_queue_rcu q;
	struct item it[N];
	struct cds_lfq_node_rcu *n;
	unsigned int i;

	urcu_memb_register_thread();
	_cds_lfq_init_rcu(&q, urcu_memb_call_rcu);
	urcu_memb_read_lock();
	ck_assert_ptr_null(_cds_lfq_dequeue_rcu(&q));
	for (i = 0; i < N; i++) {
		_cds_lfq_node_init_rcu(&it[i].node);
		it[i].seq = i;
		_cds_lfq_enqueue_rcu(&q, &it[i].node);
	}
	urcu_memb_read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), -EPERM);
	urcu_memb_read_lock();
	for (i = 0; i < N; i++) {
		n = _cds_lfq_dequeue_rcu(&q);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(to_item(n)->seq, i);
	}
	ck_assert_ptr_null(_cds_lfq_dequeue_rcu(&q));
	urcu_memb_read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), 0);
	urcu_memb_barrier();
	urcu_memb_unregister_thread();
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

struct mpmc {
	const struct rcu_flavor_struct *fl;
	int is_qsbr;
	struct cds_lfq_queue_rcu q;
	double deadline;
	atomic_int producers_left;
	/* seen[p][seq]: how many times value seq of producer p was dequeued. */
	unsigned char *seen[NR_PRODUCERS];
	unsigned long produced[NR_PRODUCERS];
};

struct worker {
	pthread_t thread;
	struct mpmc *m;
	unsigned int id;
	unsigned long count;
};

static void *producer_thread(void *arg)
{
	struct worker *w = arg;
	struct mpmc *m = w->m;
	struct item *it;
	unsigned long seq;

	m->fl->register_thread();
	for (seq = 0; seq < MAX_PER_PRODUCER; seq++) {
		if ((seq & 63) == 0) {
			if (harness_past(m->deadline))
				break;
			if (m->is_qsbr)
				m->fl->read_quiescent_state();
		}
		it = malloc(sizeof(*it));
		if (!it) {
			harness_fail("producer %u: out of memory", w->id);
			break;
		}
		cds_lfq_node_init_rcu(&it->node);
		it->producer = w->id;
		it->seq = seq;
		m->fl->read_lock();
		cds_lfq_enqueue_rcu(&m->q, &it->node);
		m->fl->read_unlock();
	}
	w->count = seq;
	m->fl->unregister_thread();
	atomic_fetch_sub(&m->producers_left, 1);
	return NULL;
}

static void *consumer_thread(void *arg)
{
	struct worker *w = arg;
	struct mpmc *m = w->m;
	struct cds_lfq_node_rcu *node;
	struct item *it;
	long last[NR_PRODUCERS];
	unsigned long i;
	unsigned int p;
	int done = 0;

	for (p = 0; p < NR_PRODUCERS; p++)
		last[p] = -1;
	m->fl->register_thread();
	for (i = 0; ; i++) {
		if (m->is_qsbr && (i & 63) == 0)
			m->fl->read_quiescent_state();
		/* Sampled before the dequeue: a NULL then means all are taken. */
		if (!done && atomic_load(&m->producers_left) == 0)
			done = 1;
		m->fl->read_lock();
		node = cds_lfq_dequeue_rcu(&m->q);
		m->fl->read_unlock();
		if (!node) {
			if (done)
				break;
			continue;
		}
		it = to_item(node);
		p = it->producer;
		if (p >= NR_PRODUCERS || it->seq >= MAX_PER_PRODUCER) {
			harness_fail("consumer %u: bad value %u/%lu", w->id,
				     p, it->seq);
			break;
		}
		if ((long) it->seq <= last[p])
			harness_fail("consumer %u: producer %u's %lu after %ld",
				     w->id, p, it->seq, last[p]);
		last[p] = (long) it->seq;
		if (__atomic_fetch_add(&m->seen[p][it->seq], 1,
				       __ATOMIC_RELAXED) != 0)
			harness_fail("value %u/%lu dequeued twice", p, it->seq);
		w->count++;
		m->fl->update_call_rcu(&it->rcu, free_item_cb);
	}
	m->fl->unregister_thread();
	return NULL;
}

static void run_mpmc(const struct rcu_flavor_struct *fl, int is_qsbr,
		     void (*crcu)(struct rcu_head *,
				  void (*)(struct rcu_head *)),
		     const char *who)
{
	struct mpmc m;
	struct worker prod[NR_PRODUCERS], cons[NR_CONSUMERS];
	unsigned long total_in = 0, total_out = 0, s;
	unsigned int i;

	memset(&m, 0, sizeof(m));
	m.fl = fl;
	m.is_qsbr = is_qsbr;
	cds_lfq_init_rcu(&m.q, crcu);
	atomic_init(&m.producers_left, NR_PRODUCERS);
	for (i = 0; i < NR_PRODUCERS; i++) {
		m.seen[i] = calloc(MAX_PER_PRODUCER, 1);
		ck_assert_ptr_nonnull(m.seen[i]);
	}
	m.deadline = harness_deadline(STRESS_S);
	for (i = 0; i < NR_PRODUCERS; i++) {
		prod[i] = (struct worker) { .m = &m, .id = i };
		harness_spawn(&prod[i].thread, producer_thread, &prod[i]);
	}
	for (i = 0; i < NR_CONSUMERS; i++) {
		cons[i] = (struct worker) { .m = &m, .id = i };
		harness_spawn(&cons[i].thread, consumer_thread, &cons[i]);
	}
	for (i = 0; i < NR_PRODUCERS; i++)
		harness_join(prod[i].thread);
	for (i = 0; i < NR_CONSUMERS; i++)
		harness_join(cons[i].thread);
	/* Runs the frees of items and dummies queued by the workers. */
	fl->barrier();
	harness_assert_no_failures(who);

	for (i = 0; i < NR_PRODUCERS; i++) {
		total_in += prod[i].count;
		for (s = 0; s < MAX_PER_PRODUCER; s++)
			ck_assert_msg(m.seen[i][s] == (s < prod[i].count),
				      "%s: value %u/%lu dequeued %u times",
				      who, i, s, m.seen[i][s]);
		free(m.seen[i]);
	}
	for (i = 0; i < NR_CONSUMERS; i++)
		total_out += cons[i].count;
	ck_assert_uint_gt(total_in, 0);
	ck_assert_uint_eq(total_in, total_out);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&m.q), 0);
	fl->barrier();
}

START_TEST(test_mpmc_memb)
{
	run_mpmc(&urcu_memb_flavor, 0, urcu_memb_call_rcu, "mpmc_memb");
}
END_TEST

START_TEST(test_mpmc_qsbr)
{
	run_mpmc(&urcu_qsbr_flavor, 1, urcu_qsbr_call_rcu, "mpmc_qsbr");
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *rculfqueue_suite(void)
{
	Suite *s = suite_create("rculfqueue");
	TCase *api = harness_tcase(s, "api", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	tcase_add_test(api, test_empty);
	tcase_add_test(api, test_destroy_non_empty);
	tcase_add_test(api, test_fifo_order);
	tcase_add_test(api, test_interleaved);
	tcase_add_test(api, test_inline);

	tcase_add_test(conc, test_mpmc_memb);
	tcase_add_test(conc, test_mpmc_qsbr);
	return s;
}

int main(void)
{
	return harness_run_suite(rculfqueue_suite());
}
