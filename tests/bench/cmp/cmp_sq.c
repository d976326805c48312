/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmp_sq.c: throughput of the lock-free stack (lfstack), the RCU lock-free
 * queue (rculfqueue) and the wait-free concurrent queue (wfcqueue), written
 * against the public liburcu API only and built against this project and
 * against the system liburcu (tests/bench/cmp/run.py,
 * docs/performance.md).  Default flavor (memb), _LGPL_SOURCE.
 *
 * Usage: cmp_sq lfstack|rculfqueue|wfcqueue THREADS SECONDS
 *
 * The structure starts with PREFILL elements.  Each thread then loops:
 * push (enqueue) one element, pop (dequeue) one; both count as an
 * operation.  Elements are reused where the API allows it:
 *   lfstack     cds_lfs_push + cds_lfs_pop_blocking (the pop mutex makes
 *               immediate reuse safe)
 *   rculfqueue  enqueue and dequeue inside read-side sections; a dequeued
 *               node is freed with call_rcu and each enqueue allocates
 *   wfcqueue    cds_wfcq_enqueue + cds_wfcq_dequeue_blocking
 *
 * RESULT ops <operations/s>
 */
#define _LGPL_SOURCE
#include <urcu.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/wfcqueue.h>

#include "cmp_common.h"

#define PREFILL	1024

enum which { LFSTACK, RCULFQUEUE, WFCQUEUE };

union item {
	struct cds_lfs_node lfs;
	struct {
		struct cds_lfq_node_rcu node;
		struct rcu_head head;
	} lfq;
	struct cds_wfcq_node wfcq;
};

static enum which which;
static struct cds_lfs_stack stack;
static struct cds_lfq_queue_rcu lfq;
static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;

static union item *new_item(void)
{
	union item *it = malloc(sizeof(*it));

	if (!it)
		cmp_die("malloc", ENOMEM);
	return it;
}

static void free_lfq_item(struct rcu_head *head)
{
	free(caa_container_of(head, union item, lfq.head));
}

static void push(union item *it)
{
	switch (which) {
	case LFSTACK:
		cds_lfs_node_init(&it->lfs);
		cds_lfs_push(&stack, &it->lfs);
		break;
	case RCULFQUEUE:
		cds_lfq_node_init_rcu(&it->lfq.node);
		rcu_read_lock();
		cds_lfq_enqueue_rcu(&lfq, &it->lfq.node);
		rcu_read_unlock();
		break;
	case WFCQUEUE:
		cds_wfcq_node_init(&it->wfcq);
		cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &it->wfcq);
		break;
	}
}

/* Returns the element to push next (NULL: allocate one). */
static union item *pop(void)
{
	struct cds_lfs_node *lfs;
	struct cds_lfq_node_rcu *lfqn;
	struct cds_wfcq_node *wfcq;

	switch (which) {
	case LFSTACK:
		lfs = cds_lfs_pop_blocking(&stack);
		return lfs ? caa_container_of(lfs, union item, lfs) : NULL;
	case RCULFQUEUE:
		rcu_read_lock();
		lfqn = cds_lfq_dequeue_rcu(&lfq);
		rcu_read_unlock();
		if (lfqn)
			call_rcu(&caa_container_of(lfqn, union item,
						   lfq.node)->lfq.head,
				 free_lfq_item);
		return NULL;
	case WFCQUEUE:
		wfcq = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);
		return wfcq ? caa_container_of(wfcq, union item, wfcq) : NULL;
	}
	return NULL;
}

static void *worker(void *arg)
{
	struct cmp_counter *c = arg;
	union item *it = new_item();
	unsigned long n = 0;
	int i;

	rcu_register_thread();
	cmp_wait_go();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			push(it);
			it = pop();
			if (!it)
				it = new_item();
		}
		n += 2 * CMP_BATCH;
	}
	rcu_unregister_thread();
	free(it);
	c->count = n;
	return NULL;
}

int main(int argc, char **argv)
{
	static struct cmp_counter counters[CMP_MAX_THREADS];
	pthread_t threads[CMP_MAX_THREADS];
	const char *name = argc > 1 ? argv[1] : "";
	int nthreads = cmp_arg(argc, argv, 2, 1);
	double seconds = cmp_arg_f(argc, argv, 3, 1.0), elapsed;
	unsigned long total = 0;
	int i;

	if (!strcmp(name, "lfstack"))
		which = LFSTACK;
	else if (!strcmp(name, "rculfqueue"))
		which = RCULFQUEUE;
	else if (!strcmp(name, "wfcqueue"))
		which = WFCQUEUE;
	else
		nthreads = 0;
	if (nthreads < 1 || nthreads > CMP_MAX_THREADS) {
		fprintf(stderr, "usage: cmp_sq lfstack|rculfqueue|wfcqueue "
			"THREADS SECONDS\n");
		return 2;
	}
	cds_lfs_init(&stack);
	cds_lfq_init_rcu(&lfq, call_rcu);
	cds_wfcq_init(&wfcq_head, &wfcq_tail);
	rcu_register_thread();
	for (i = 0; i < PREFILL; i++)
		push(new_item());
	rcu_unregister_thread();

	cmp_reset();
	for (i = 0; i < nthreads; i++)
		cmp_spawn(&threads[i], worker, &counters[i]);
	elapsed = cmp_run_for(nthreads, seconds);
	for (i = 0; i < nthreads; i++) {
		cmp_join(threads[i]);
		total += counters[i].count;
	}
	cmp_result("ops", total / elapsed);
	/* The remaining elements go away with the process. */
	return 0;
}
