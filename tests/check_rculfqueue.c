/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rculfqueue": the RCU lock-free queue (<urcu/rculfqueue.h>).
 *
 * TCase "api": single-threaded semantics with the memb flavor: what every
 * stack and queue has (empty queue, FIFO order, node reuse after a grace
 * period), run by tests/harness/sq_api.c from the queue's struct sq_ops,
 * then what is the queue's own (cds_lfq_destroy_rcu() refusing a
 * non-empty queue, errno), through the library and through the inline
 * versions.
 * TCase "oom": dummy-node allocation failing.  The inline functions of
 * this file allocate dummies through test_dummy_malloc() (the
 * URCU_LFQ_DUMMY_MALLOC hook of <urcu/static/rculfqueue.h>), which fails
 * on demand; the library's copies keep using malloc().  Init and enqueue
 * must allocate nothing; a dequeue that cannot get its dummy must return
 * NULL with errno = ENOMEM and leave every node queued, in order.
 * TCase "concurrent": producers and consumers hammer one queue for a time
 * budget, once per flavor (memb, mb, signal, qsbr, bp, through
 * test_flavors[] of tests/flavors/flavors.h), and once with every other
 * dummy allocation failing.  Every enqueued value must be dequeued exactly once, and each consumer
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

/*
 * The inline versions too (what _LGPL_SOURCE maps the API onto), with
 * their dummies allocated by test_dummy_malloc().
 */
static void *test_dummy_malloc(size_t size);
#define URCU_LFQ_DUMMY_MALLOC(size)	test_dummy_malloc(size)
#include <urcu/static/rculfqueue.h>

#include "flavors/flavors.h"
#include "harness/harness.h"
#include "harness/sq.h"

/* Stress budget, before scaling by CK_TIMEOUT_MULTIPLIER. */
#define STRESS_S		1.0
#define NR_PRODUCERS		2
#define NR_CONSUMERS		2
/* Values each producer may enqueue at most (bounds the bookkeeping). */
#define MAX_PER_PRODUCER	(1UL << 20)

struct item {
	struct cds_lfq_node_rcu node;
	struct rcu_head rcu;
	struct sq_item sq;	/* Producer and value. */
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
 * Dummy allocation of this file's inline functions.
 */

enum alloc_policy {
	ALLOC_PASS,		/* malloc() */
	ALLOC_FAIL,		/* every call fails */
	ALLOC_FAIL_EVEN,	/* calls 0, 2, 4, ... fail */
};

/*
 * All three are accessed with relaxed atomics: they are counters and a
 * mode word, and what they guard (the dummy) is published by the queue's
 * own release operations.  The test thread reads the counters after
 * pthread_join, which orders the workers' updates before its loads.
 */
static int alloc_policy;
static long alloc_calls;
static long alloc_failures;

static void set_alloc_policy(enum alloc_policy policy)
{
	/* Relaxed: see above; workers started later see it via pthread_create. */
	__atomic_store_n(&alloc_policy, policy, __ATOMIC_RELAXED);
}

static long nr_alloc_calls(void)
{
	/* Relaxed: see above. */
	return __atomic_load_n(&alloc_calls, __ATOMIC_RELAXED);
}

static long nr_alloc_failures(void)
{
	/* Relaxed: see above. */
	return __atomic_load_n(&alloc_failures, __ATOMIC_RELAXED);
}

static void *test_dummy_malloc(size_t size)
{
	/* Relaxed: see above. */
	long call = __atomic_fetch_add(&alloc_calls, 1, __ATOMIC_RELAXED);
	/* Relaxed: see above. */
	int policy = __atomic_load_n(&alloc_policy, __ATOMIC_RELAXED);

	if (policy == ALLOC_FAIL || (policy == ALLOC_FAIL_EVEN && call % 2 == 0)) {
		/* Relaxed: see above. */
		__atomic_fetch_add(&alloc_failures, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	return malloc(size);
}

/* ------------------------------------------------------------------------
 * Single-threaded helpers: the memb flavor, test thread registered.
 */

static const struct rcu_flavor_struct *fl;

static void flavor_begin(void)
{
	fl = test_flavors[TF_MEMB].fl;
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

/* The same through this file's inline copies (allocation hooked). */
static void enqueue_inline(struct cds_lfq_queue_rcu *q,
			   struct cds_lfq_node_rcu *n)
{
	fl->read_lock();
	_cds_lfq_enqueue_rcu(q, n);
	fl->read_unlock();
}

/* Dequeues inline; *@err gets errno as the dequeue left it (0 before). */
static struct cds_lfq_node_rcu *dequeue_inline(struct cds_lfq_queue_rcu *q,
					       int *err)
{
	struct cds_lfq_node_rcu *n;

	fl->read_lock();
	errno = 0;
	n = _cds_lfq_dequeue_rcu(q);
	*err = errno;
	fl->read_unlock();
	return n;
}

/*
 * The queue as tests/harness/sq.h describes it, for the shared tests: the
 * library's calls, in read-side sections of the memb flavor, the test
 * thread registered (thread_begin).
 */
static struct cds_lfq_queue_rcu *sq_queue_of(void *ds)
{
	return ds;
}

static struct item *item_of_sq(struct sq_item *it)
{
	return caa_container_of(it, struct item, sq);
}

static void sq_init(void *ds)
{
	cds_lfq_init_rcu(sq_queue_of(ds), fl->update_call_rcu);
}

static void sq_destroy(void *ds)
{
	ck_assert_int_eq(cds_lfq_destroy_rcu(sq_queue_of(ds)), 0);
}

static void sq_node_init(struct sq_item *it)
{
	cds_lfq_node_init_rcu(&item_of_sq(it)->node);
}

/* The API tells nothing: the return value is ignored (put_reports). */
static bool sq_put(void *ds, struct sq_item *it)
{
	enqueue(sq_queue_of(ds), &item_of_sq(it)->node);
	return false;
}

static struct sq_item *sq_take_one(void *ds)
{
	struct cds_lfq_node_rcu *n = dequeue(sq_queue_of(ds));

	return n ? &to_item(n)->sq : NULL;
}

static void sq_grace_period(void)
{
	fl->update_synchronize_rcu();
}

static void sq_thread_end(void)
{
	/* Let the dummies handed to call_rcu be freed. */
	fl->barrier();
	fl->unregister_thread();
}

/* No emptiness test in the API (.empty); nodes come back after a grace
 * period. */
static const struct sq_ops queue_ops = {
	.name = "rculfqueue",
	.fifo = true,
	.node_size = sizeof(struct item),
	.item_offset = offsetof(struct item, sq),
	.ds_size = sizeof(struct cds_lfq_queue_rcu),
	.init = sq_init,
	.destroy = sq_destroy,
	.node_init = sq_node_init,
	.reuse = SQ_REUSE_AFTER_GP | SQ_REUSE_INIT,
	.grace_period = sq_grace_period,
	.thread_begin = flavor_begin,
	.thread_end = sq_thread_end,
	.put = sq_put,
	.take_one = sq_take_one,
};

static void items_init(struct item *it, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		cds_lfq_node_init_rcu(&it[i].node);
		it[i].sq.seq = i;
	}
}

/* ------------------------------------------------------------------------
 * TCase "api".
 */

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

/*
 * Dequeue changes errno only to report ENOMEM: not when the queue is
 * empty, nor when it allocates a dummy (to take the last node) or hands
 * one to call_rcu (when a dummy leaves the head).
 */
START_TEST(test_errno_untouched)
{
	struct cds_lfq_queue_rcu q;
	struct item it[2];

	api_begin(&q);
	items_init(it, 2);
	errno = EINTR;
	ck_assert_ptr_null(dequeue(&q));
	enqueue(&q, &it[0].node);
	/* Allocates a dummy. */
	ck_assert_ptr_eq(dequeue(&q), &it[0].node);
	ck_assert_ptr_null(dequeue(&q));
	enqueue(&q, &it[1].node);
	/* Hands that dummy to call_rcu, allocates another. */
	ck_assert_ptr_eq(dequeue(&q), &it[1].node);
	ck_assert_ptr_null(dequeue(&q));
	ck_assert_int_eq(errno, EINTR);
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
		it[i].sq.seq = i;
		_cds_lfq_enqueue_rcu(&q, &it[i].node);
	}
	fl->read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), -EPERM);
	fl->read_lock();
	for (i = 0; i < N; i++) {
		n = _cds_lfq_dequeue_rcu(&q);
		ck_assert_ptr_nonnull(n);
		ck_assert_uint_eq(to_item(n)->sq.seq, i);
	}
	ck_assert_ptr_null(_cds_lfq_dequeue_rcu(&q));
	fl->read_unlock();
	ck_assert_int_eq(_cds_lfq_destroy_rcu(&q), 0);
	fl->barrier();
	fl->unregister_thread();
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "oom": allocation of the inline functions' dummies fails.
 */

/* Init, enqueue and dequeue from an empty queue need no memory. */
START_TEST(test_oom_init_enqueue_allocate_nothing)
{
	enum { N = 3 };
	struct cds_lfq_queue_rcu q;
	struct item it[N];
	unsigned int i;
	int err;

	set_alloc_policy(ALLOC_FAIL);
	flavor_begin();
	_cds_lfq_init_rcu(&q, fl->update_call_rcu);
	ck_assert_ptr_null(dequeue_inline(&q, &err));
	ck_assert_int_eq(err, 0);
	items_init(it, N);
	for (i = 0; i < N; i++)
		enqueue_inline(&q, &it[i].node);
	ck_assert_int_eq(nr_alloc_calls(), 0);

	set_alloc_policy(ALLOC_PASS);
	for (i = 0; i < N; i++)
		ck_assert_ptr_eq(dequeue_inline(&q, &err), &it[i].node);
	ck_assert_ptr_null(dequeue_inline(&q, &err));
	ck_assert_int_eq(err, 0);
	api_end(&q);
}
END_TEST

/*
 * The last node needs a dummy: while none can be allocated, dequeue
 * returns NULL with ENOMEM and the node stays queued, then comes out once
 * allocation works again.
 */
START_TEST(test_oom_dequeue_keeps_last_node)
{
	struct cds_lfq_queue_rcu q;
	struct item it[1];
	unsigned int i;
	int err;

	api_begin(&q);
	items_init(it, 1);
	enqueue_inline(&q, &it[0].node);

	set_alloc_policy(ALLOC_FAIL);
	for (i = 0; i < 3; i++) {
		ck_assert_ptr_null(dequeue_inline(&q, &err));
		ck_assert_int_eq(err, ENOMEM);
	}
	ck_assert_int_eq(nr_alloc_failures(), 3);
	/* Still queued: destroy refuses. */
	ck_assert_int_eq(cds_lfq_destroy_rcu(&q), -EPERM);

	set_alloc_policy(ALLOC_PASS);
	ck_assert_ptr_eq(dequeue_inline(&q, &err), &it[0].node);
	ck_assert_ptr_null(dequeue_inline(&q, &err));
	ck_assert_int_eq(err, 0);
	api_end(&q);
}
END_TEST

/*
 * With allocation failing throughout, every node but the newest is still
 * dequeued, in order: a node with a successor needs no dummy.
 */
START_TEST(test_oom_only_last_node_waits)
{
	enum { N = 32 };
	struct cds_lfq_queue_rcu q;
	struct item it[N];
	unsigned int i;
	int err;

	api_begin(&q);
	items_init(it, N);
	set_alloc_policy(ALLOC_FAIL);
	for (i = 0; i < N; i++) {
		enqueue_inline(&q, &it[i].node);
		if (i > 0)
			ck_assert_ptr_eq(dequeue_inline(&q, &err),
					 &it[i - 1].node);
		ck_assert_ptr_null(dequeue_inline(&q, &err));
		ck_assert_int_eq(err, ENOMEM);
	}
	ck_assert_int_eq(nr_alloc_failures(), N);

	set_alloc_policy(ALLOC_PASS);
	ck_assert_ptr_eq(dequeue_inline(&q, &err), &it[N - 1].node);
	ck_assert_ptr_null(dequeue_inline(&q, &err));
	ck_assert_int_eq(err, 0);
	api_end(&q);
}
END_TEST

/* ------------------------------------------------------------------------
 * TCase "concurrent".
 */

struct mpmc {
	const struct test_flavor *tf;
	/* cds_lfq_dequeue_rcu, or this file's inline copy. */
	struct cds_lfq_node_rcu *(*dequeue)(struct cds_lfq_queue_rcu *q);
	/*
	 * Each producer waits until its value has been dequeued before it
	 * enqueues the next, so the queue keeps running empty and nearly
	 * every dequeue that returns a value needs a dummy.
	 */
	int lockstep;
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
	/* Consumer: NULL returns with errno = ENOMEM. */
	unsigned long enomem;
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
			/* seq > 0: something enqueued, even if started late. */
			if (seq > 0 && harness_past(m->deadline))
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
		it->sq.producer = w->id;
		it->sq.seq = seq;
		f->read_lock();
		cds_lfq_enqueue_rcu(&m->q, &it->node);
		f->read_unlock();
		/*
		 * Relaxed: only the value matters, nothing is read on the
		 * strength of it.  Bounded by the deadline.  No
		 * caa_cpu_relax(): in a virtual machine a run of PAUSE
		 * instructions can make the hypervisor deschedule the vCPU.
		 */
		while (m->lockstep &&
		       !__atomic_load_n(&m->seen[w->id][seq], __ATOMIC_RELAXED) &&
		       !harness_past(m->deadline))
			;
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
	int done = 0, err;

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
		errno = 0;
		node = m->dequeue(&m->q);
		err = errno;
		f->read_unlock();
		if (!node) {
			/* Out of memory: not empty, a node may be waiting. */
			if (err == ENOMEM)
				w->enomem++;
			else if (done)
				break;
			continue;
		}
		it = to_item(node);
		p = it->sq.producer;
		if (p >= NR_PRODUCERS || it->sq.seq >= MAX_PER_PRODUCER) {
			harness_fail("consumer %u: bad value %u/%u", w->id,
				     p, it->sq.seq);
			break;
		}
		if ((long) it->sq.seq <= last[p])
			harness_fail("consumer %u: producer %u's %u after %ld",
				     w->id, p, it->sq.seq, last[p]);
		last[p] = (long) it->sq.seq;
		/* Relaxed: a counter, read by the test thread after join. */
		if (__atomic_fetch_add(&m->seen[p][it->sq.seq], 1,
				       __ATOMIC_RELAXED) != 0)
			harness_fail("value %u/%u dequeued twice", p, it->sq.seq);
		w->count++;
		f->update_call_rcu(&it->rcu, free_item_cb);
	}
	f->unregister_thread();
	return NULL;
}

/*
 * NR_PRODUCERS producers and NR_CONSUMERS consumers of flavor @tf on one
 * queue, consumers using @dequeue_fn, producers in lockstep with the
 * consumers if @lockstep; returns how many dequeues reported ENOMEM.  The
 * test thread stays unregistered.
 */
static unsigned long run_mpmc(const struct test_flavor *tf,
		struct cds_lfq_node_rcu *(*dequeue_fn)(struct cds_lfq_queue_rcu *),
		int lockstep, const char *who)
{
	struct mpmc m;
	struct worker prod[NR_PRODUCERS], cons[NR_CONSUMERS];
	unsigned long total_in = 0, total_out = 0, enomem = 0, s;
	unsigned int i;

	memset(&m, 0, sizeof(m));
	m.tf = tf;
	m.dequeue = dequeue_fn;
	m.lockstep = lockstep;
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
	for (i = 0; i < NR_CONSUMERS; i++) {
		total_out += cons[i].count;
		enomem += cons[i].enomem;
	}
	ck_assert_uint_gt(total_in, 0);
	ck_assert_uint_eq(total_in, total_out);
	ck_assert_int_eq(cds_lfq_destroy_rcu(&m.q), 0);
	tf->fl->barrier();
	return enomem;
}

/* One run per flavor (loop index: enum test_flavor_index). */
START_TEST(test_mpmc)
{
	const struct test_flavor *tf = &test_flavors[_i];
	char who[32];

	snprintf(who, sizeof(who), "mpmc_%s", tf->name);
	run_mpmc(tf, cds_lfq_dequeue_rcu, 0, who);
}
END_TEST

static struct cds_lfq_node_rcu *dequeue_hooked(struct cds_lfq_queue_rcu *q)
{
	return _cds_lfq_dequeue_rcu(q);
}

/*
 * Every other dummy allocation fails, the first one included.  The last
 * value dequeued needed a dummy behind it, so at least one allocation was
 * attempted and at least one dequeue reported ENOMEM: the failure path
 * ran, concurrently, and nothing was lost, duplicated or reordered.
 * Producers in lockstep make the queue run empty all the time, hence
 * many allocations, with consumers racing for the same last node.
 */
START_TEST(test_mpmc_oom)
{
	unsigned long enomem;

	set_alloc_policy(ALLOC_FAIL_EVEN);
	enomem = run_mpmc(&test_flavors[TF_MEMB], dequeue_hooked, 1, "mpmc_oom");
	ck_assert_uint_gt(enomem, 0);
	ck_assert_uint_eq(enomem, (unsigned long) nr_alloc_failures());
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *rculfqueue_suite(void)
{
	Suite *s = suite_create("rculfqueue");
	TCase *api = harness_tcase(s, "api", 0);
	TCase *oom = harness_tcase(s, "oom", 0);
	TCase *conc = harness_tcase(s, "concurrent", 30);

	sq_add_api_tests(api, &queue_ops);
	tcase_add_test(api, test_destroy_non_empty);
	tcase_add_test(api, test_interleaved);
	tcase_add_test(api, test_errno_untouched);
	tcase_add_test(api, test_inline);

	tcase_add_test(oom, test_oom_init_enqueue_allocate_nothing);
	tcase_add_test(oom, test_oom_dequeue_keeps_last_node);
	tcase_add_test(oom, test_oom_only_last_node_waits);

	tcase_add_loop_test(conc, test_mpmc, 0, N_TEST_FLAVORS);
	tcase_add_test(conc, test_mpmc_oom);
	return s;
}

int main(void)
{
	return harness_run_suite(rculfqueue_suite());
}
