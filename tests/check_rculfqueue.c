/*
 * Check suite "rculfqueue": the RCU lock-free queue (<urcu/rculfqueue.h>).
 *
 * TCase "api": single-threaded semantics (FIFO order, empty queue,
 * cds_lfq_destroy_rcu() refusing a non-empty queue, node reuse after a
 * grace period), through the library and through the inline versions,
 * with the memb flavor.
 * TCase "concurrent": producers and consumers hammer one queue for a time
 * budget, once per flavor (memb, mb, signal, qsbr, bp, through the tables
 * of tests/flavors/).
 * Every enqueued value must be dequeued exactly once, and each consumer
 * must see each producer's values in enqueue order.  Dequeued nodes are
 * freed with call_rcu.
 *
 * Conventions: fork mode; worker threads never call ck_assert, they
 * record failures (tests/harness/harness.h) and the test thread asserts
 * after pthread_join and rcu_barrier; the stress phase lasts a time budget
 * scaled by CK_TIMEOUT_MULTIPLIER and never asserts on speed.
 *
 * Signal flavor under ThreadSanitizer: TSan defers a signal while the
 * thread is blocked in a system call (docs/flavors.md), and a registered
 * thread whose handler has not run holds grace periods back.  The workers
 * here never block outside the library (they spin on the queue), and the
 * test thread is not registered while it joins them and waits in
 * rcu_barrier(), so grace periods keep moving.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <urcu/compiler.h>
#include <urcu/call-rcu.h>
#include <urcu/flavor.h>
#include <urcu/rculfqueue.h>

/* The inline versions too (what _LGPL_SOURCE maps the API onto). */
#include <urcu/static/rculfqueue.h>

#include "flavors/flavors.h"
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
 * Single-threaded helpers: the memb flavor, test thread registered.
 */

static const struct rcu_flavor_struct *fl;

static void flavor_begin(void)
{
	fl = test_flavor_memb.fl;
	fl->register_thread();
}

static void api_begin(struct cds_lfq_queue_rcu *q)
{
	flavor_begin();
	cds_lfq_init_rcu(q, fl->update_call_rcu);
}

static void api_end(struct cds_lfq_queue_rcu *q)
{
	ck_assert_int_eq(cds_lfq_destroy_rcu(q), 0);
	/* Let the dummies handed to call_rcu be freed. */
	fl->barrier();
	fl->unregister_thread();
}

static void enqueue(struct cds_lfq_queue_rcu *q, struct cds_lfq_node_rcu *n)
{
	fl->read_lock();
	cds_lfq_enqueue_rcu(q, n);
	fl->read_unlock();
}

static struct cds_lfq_node_rcu *dequeue(struct cds_lfq_queue_rcu *q)
{
	struct cds_lfq_node_rcu *n;

	fl->read_lock();
	n = cds_lfq_dequeue_rcu(q);
	fl->read_unlock();
	return n;
}

static void items_init(struct item *it, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		cds_lfq_node_init_rcu(&it[i].node);
		it[i].seq = i;
	}
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

START_TEST(test_empty)
{
	struct cds_lfq_queue_rcu q;

	api_begin(&q);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_ptr_null(dequeue(&q));
	api_end(&q);

	/* Destroy right after init. */
	cds_lfq_init_rcu(&q, fl->update_call_rcu);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), 0);
}
END_TEST

START_TEST(test_destroy_non_empty)
{
	struct cds_lfq_queue_rcu q;
	struct item it[2];

	api_begin(&q);
	items_init(it, 2);
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
		items_init(it, N);
		for (i = 0; i < N; i++)
			enqueue(&q, &it[i].node);
		for (i = 0; i < N; i++) {
			n = dequeue(&q);
			ck_assert_ptr_nonnull(n);
			ck_assert_uint_eq(to_item(n)->seq, i);
		}
		ck_assert_ptr_null(dequeue(&q));
		/* Nodes may be enqueued again after a grace period. */
		fl->update_synchronize_rcu();
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
	items_init(it, N);
	enqueue(&q, &it[0].node);
	for (i = 1; i < N; i++) {
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

	flavor_begin();
	_cds_lfq_init_rcu(&q, fl->update_call_rcu);
	fl->read_lock();
	ck_assert_ptr_null(_cds_lfq_dequeue_rcu(&q));
	for (i = 0; i < N; i++) {
		_cds_lfq_node_init_rcu(&it[i].node);
		it[i].seq = i;
		_cds_lfq_enqueue_rcu(&q, &it[i].node);
	}
	fl->read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), -EPERM);
	fl->read_lock();
	for (i = 0; i < N; i++) {
		n = _cds_lfq_dequeue_rcu(&q);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(to_item(n)->seq, i);
	}
	ck_assert_ptr_null(_cds_lfq_dequeue_rcu(&q));
	fl->read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), 0);
	fl->barrier();
	fl->unregister_thread();
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

struct mpmc {
	const struct test_flavor *tf;
	struct cds_lfq_queue_rcu q;
	double deadline;
	atomic_int producers_left;
	/* seen[p][seq]: how many times value seq of producer p was dequeued. */
	unsigned char *seen[NR_PRODUCERS];
};

struct worker {
	pthread_t thread;
	struct mpmc *m;
	unsigned int id;
	/* Values enqueued (producer) or dequeued (consumer). */
	unsigned long count;
};

static void *producer_thread(void *arg)
{
	struct worker *w = arg;
	struct mpmc *m = w->m;
	const struct rcu_flavor_struct *f = m->tf->fl;
	struct item *it;
	unsigned long seq;

	f->register_thread();
	for (seq = 0; seq < MAX_PER_PRODUCER; seq++) {
		if ((seq & 63) == 0) {
			if (harness_past(m->deadline))
				break;
			if (m->tf->is_qsbr)
				f->read_quiescent_state();
		}
		it = malloc(sizeof(*it));
		if (!it) {
			harness_fail("producer %u: out of memory", w->id);
			break;
		}
		cds_lfq_node_init_rcu(&it->node);
		it->producer = w->id;
		it->seq = seq;
		f->read_lock();
		cds_lfq_enqueue_rcu(&m->q, &it->node);
		f->read_unlock();
	}
	w->count = seq;
	f->unregister_thread();
	atomic_fetch_sub(&m->producers_left, 1);
	return NULL;
}

static void *consumer_thread(void *arg)
{
	struct worker *w = arg;
	struct mpmc *m = w->m;
	const struct rcu_flavor_struct *f = m->tf->fl;
	struct cds_lfq_node_rcu *node;
	struct item *it;
	long last[NR_PRODUCERS];
	unsigned long i;
	unsigned int p;
	int done = 0;

	for (p = 0; p < NR_PRODUCERS; p++)
		last[p] = -1;
	f->register_thread();
	for (i = 0; ; i++) {
		if (m->tf->is_qsbr && (i & 63) == 0)
			f->read_quiescent_state();
		/* Sampled before the dequeue: a NULL then means all are taken. */
		if (!done && atomic_load(&m->producers_left) == 0)
			done = 1;
		f->read_lock();
		node = cds_lfq_dequeue_rcu(&m->q);
		f->read_unlock();
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
		/* Relaxed: a counter, read by the test thread after join. */
		if (__atomic_fetch_add(&m->seen[p][it->seq], 1,
				       __ATOMIC_RELAXED) != 0)
			harness_fail("value %u/%lu dequeued twice", p, it->seq);
		w->count++;
		f->update_call_rcu(&it->rcu, free_item_cb);
	}
	f->unregister_thread();
	return NULL;
}

/*
 * NR_PRODUCERS producers and NR_CONSUMERS consumers of flavor @tf on one
 * queue.  The test thread stays unregistered.
 */
static void run_mpmc(const struct test_flavor *tf, const char *who)
{
	struct mpmc m;
	struct worker prod[NR_PRODUCERS], cons[NR_CONSUMERS];
	unsigned long total_in = 0, total_out = 0, s;
	unsigned int i;

	memset(&m, 0, sizeof(m));
	m.tf = tf;
	cds_lfq_init_rcu(&m.q, tf->fl->update_call_rcu);
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
	tf->fl->barrier();
	harness_assert_no_failures(who);

	for (i = 0; i < NR_PRODUCERS; i++) {
		total_in += prod[i].count;
		/* Plain loop: each ck_assert costs a write to Check's pipe. */
		for (s = 0; s < MAX_PER_PRODUCER; s++)
			if (m.seen[i][s] != (s < prod[i].count))
				break;
		ck_assert_msg(s == MAX_PER_PRODUCER,
			      "%s: value %u/%lu dequeued %u times",
			      who, i, s, m.seen[i][s]);
		free(m.seen[i]);
	}
	for (i = 0; i < NR_CONSUMERS; i++)
		total_out += cons[i].count;
	ck_assert_uint_gt(total_in, 0);
	ck_assert_uint_eq(total_in, total_out);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&m.q), 0);
	tf->fl->barrier();
}

/* One run per flavor (loop index: enum test_flavor_index). */
START_TEST(test_mpmc)
{
	const struct test_flavor *tf = test_flavors[_i];
	char who[32];

	snprintf(who, sizeof(who), "mpmc_%s", tf->name);
	run_mpmc(tf, who);
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

	tcase_add_loop_test(conc, test_mpmc, 0, N_TEST_FLAVORS);
	return s;
}

int main(void)
{
	return harness_run_suite(rculfqueue_suite());
}
