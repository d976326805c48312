/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rculfhash-worker.c: the thread that runs automatic resizes.
 *
 * One worker serves every table of the process, whatever its flavor.
 * Update paths that want a resize queue the table (cds__lfht_worker_queue,
 * from inside read-side sections: it only takes the worker's mutex, which
 * is never held across a wait for a grace period).  The worker runs one
 * resize step at a time (rculfhash-resize.c), registered with the table's
 * flavor for the step, and requeues the table at the back while it is not
 * at its target, so tables share the worker fairly.  The worker starts
 * on the first request, with the attributes of the table that made it.
 *
 * Fork.  Tables register cds__lfht_atfork with their flavor, whose
 * call_rcu fork functions (call_rcu_before_fork() and friends) run it.
 * Before fork the worker is paused between two steps, so every table is
 * at a size it fully reached, and the worker's mutex is held across the
 * fork.  The parent resumes the worker.  The child has no worker: it
 * starts a new one if tables are still queued, and a later request
 * starts one otherwise.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rculfhash-internal.h"

static struct {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* work queued, or pause lifted */
	pthread_cond_t step_done;	/* a step ended */
	struct cds_list_head queue;	/* tables, by work_node */
	struct cds_lfht *busy;		/* table whose step runs now */
	bool started;
	bool pause;			/* fork in progress */
} worker = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = PTHREAD_COND_INITIALIZER,
	.step_done = PTHREAD_COND_INITIALIZER,
	.queue = CDS_LIST_HEAD_INIT(worker.queue),
};

/* Nesting of the fork hooks: each flavor with tables calls them. */
static int fork_depth;

static void *worker_main(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&worker.lock);
	for (;;) {
		struct cds_lfht *ht;
		bool more;

		while (worker.pause || cds_list_empty(&worker.queue))
			pthread_cond_wait(&worker.wake, &worker.lock);
		ht = cds_list_first_entry(&worker.queue, struct cds_lfht, work_node);
		cds_list_del_init(&ht->work_node);
		/* Relaxed: written under the lock; read unlocked as a hint. */
		__atomic_store_n(&ht->queued, false, __ATOMIC_RELAXED);
		worker.busy = ht;
		pthread_mutex_unlock(&worker.lock);

		ht->flavor->register_thread();
		more = cds__lfht_worker_step(ht);
		ht->flavor->unregister_thread();

		pthread_mutex_lock(&worker.lock);
		worker.busy = NULL;
		/* Relaxed: destroy sets it before taking this lock. */
		if (more && !ht->queued
		    && !__atomic_load_n(&ht->destroying, __ATOMIC_RELAXED)) {
			cds_list_add_tail(&ht->work_node, &worker.queue);
			/* Relaxed: under the lock; read unlocked as a hint. */
			__atomic_store_n(&ht->queued, true, __ATOMIC_RELAXED);
		}
		pthread_cond_broadcast(&worker.step_done);
	}
	return NULL;
}

/* Starts the worker; called with the lock held.  Failure is retried on
 * the next request (the table stays queued). */
static void start_worker(pthread_attr_t *attr)
{
	pthread_t tid;
	int err = pthread_create(&tid, attr, worker_main, NULL);

	if (err) {
		fprintf(stderr, "urcu: cannot start the hash-table resize "
			"worker: %s; retrying on the next resize request\n",
			strerror(err));
		return;
	}
	pthread_detach(tid);
	worker.started = true;
}

void cds__lfht_worker_queue(struct cds_lfht *ht)
{
	/* Relaxed: a hint that saves the lock; rechecked under it. */
	if (__atomic_load_n(&ht->queued, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&worker.lock);
	/* Relaxed: cds_lfht_destroy() sets it before taking this lock. */
	if (!ht->queued && !__atomic_load_n(&ht->destroying, __ATOMIC_RELAXED)) {
		cds_list_add_tail(&ht->work_node, &worker.queue);
		/* Relaxed: under the lock; read unlocked as a hint. */
		__atomic_store_n(&ht->queued, true, __ATOMIC_RELAXED);
		if (!worker.started)
			start_worker(ht->attr);
		pthread_cond_signal(&worker.wake);
	}
	pthread_mutex_unlock(&worker.lock);
}

void cds__lfht_worker_forget(struct cds_lfht *ht)
{
	pthread_mutex_lock(&worker.lock);
	if (ht->queued) {
		cds_list_del_init(&ht->work_node);
		/* Relaxed: under the lock; read unlocked as a hint. */
		__atomic_store_n(&ht->queued, false, __ATOMIC_RELAXED);
	}
	while (worker.busy == ht)
		pthread_cond_wait(&worker.step_done, &worker.lock);
	pthread_mutex_unlock(&worker.lock);
}

static void before_fork(void *priv)
{
	(void) priv;
	if (fork_depth++)
		return;
	pthread_mutex_lock(&worker.lock);
	worker.pause = true;
	while (worker.busy)
		pthread_cond_wait(&worker.step_done, &worker.lock);
}

static void after_fork_parent(void *priv)
{
	(void) priv;
	if (--fork_depth)
		return;
	worker.pause = false;
	pthread_cond_broadcast(&worker.wake);
	pthread_mutex_unlock(&worker.lock);
}

static void after_fork_child(void *priv)
{
	(void) priv;
	if (--fork_depth)
		return;
	/* The parent's worker does not exist here; its waits are void. */
	pthread_cond_init(&worker.wake, NULL);
	pthread_cond_init(&worker.step_done, NULL);
	worker.pause = false;
	worker.started = false;
	if (!cds_list_empty(&worker.queue))
		start_worker(cds_list_first_entry(&worker.queue, struct cds_lfht,
						  work_node)->attr);
	pthread_mutex_unlock(&worker.lock);
}

struct urcu_atfork cds__lfht_atfork = {
	.before_fork = before_fork,
	.after_fork_parent = after_fork_parent,
	.after_fork_child = after_fork_child,
	.priv = NULL,
};
