/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * defer.c: defer_rcu() and its per-thread queues.  Compiled once per
 * flavor.
 *
 * Each registered thread owns a ring of URCU__DEFER_SLOTS (function,
 * argument) entries.  The owner appends at head; a drainer (the
 * background defer thread, rcu_defer_barrier(), or the owner itself when
 * its ring is full) snapshots head, waits for one grace period, runs
 * everything from tail to the snapshot and advances tail.
 *
 * Invariants:
 *  1. Only the owner writes head and the slots in [head, tail + SLOTS).
 *  2. Only a drainer holding defer_mutex reads slots in [tail, snapshot)
 *     and writes tail, and it runs them only after a grace period that
 *     began after the snapshot (so after every defer_rcu() it covers).
 *  3. defer_mutex is taken only outside read-side sections (defer_rcu()
 *     checks), and by QSBR threads only while offline, so a drainer's
 *     grace period never waits for a thread blocked on it.
 */
#define _LGPL_SOURCE
#include "flavor-internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>

#include "urcu-alloc.h"
#include "urcu-die.h"
#include "urcu-export.h"

/* Ring size (a power of two) and the background thread's batching delay. */
#define URCU__DEFER_SLOTS	4096UL
#define URCU__DEFER_BATCH_MS	100

struct defer_entry {
	void (*fct)(void *p);
	void *p;
};

struct defer_queue {
	/* Owner side. */
	unsigned long head;
	/* Drainer side, on another cache line. */
	unsigned long tail __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	struct cds_list_head list;	/* in defer_queues, defer_mutex */
	struct defer_entry slots[URCU__DEFER_SLOTS];
};

static pthread_mutex_t defer_mutex = PTHREAD_MUTEX_INITIALIZER;
/*
 * Serialises starting and stopping the defer thread (register and
 * unregister only), so a new thread never starts before the old one left.
 */
static pthread_mutex_t defer_thread_mutex = PTHREAD_MUTEX_INITIALIZER;
static CDS_LIST_HEAD(defer_queues);
static unsigned long defer_users;	/* registered threads, defer_mutex */
static pthread_t defer_tid;
static int32_t defer_futex;		/* -1 while the defer thread sleeps */
static int defer_stop;			/* ask the defer thread to exit */

static DEFINE_URCU_TLS(struct defer_queue *, defer_queue);

/* Drain [tail, head snapshot) of every queue in @queues; mutex held. */
static void drain_locked(struct defer_queue **queues, unsigned long *snap,
		size_t n)
{
	bool work = false;
	size_t i;

	for (i = 0; i < n; i++) {
		/*
		 * Acquire: pairs with the owner's release of head.  model: none
		 * (defer_rcu ring hand-off, outside the grace-period model).
		 */
		snap[i] = __atomic_load_n(&queues[i]->head, __ATOMIC_ACQUIRE);
		work |= snap[i] != queues[i]->tail;
	}
	if (!work)
		return;		/* no grace period for empty rings */
	synchronize_rcu();	/* invariant 2 */
	/* Deferred functions run under rcu_defer(flavor) (lockdep-hooks.h). */
	urcu_lockdep_acquire(&urcu__lockdep_defer, NULL,
			     URCU_LOCKDEP_TRY | URCU_LOCKDEP_READ_RECURSIVE);
	for (i = 0; i < n; i++) {
		struct defer_queue *dq = queues[i];
		unsigned long t;

		for (t = dq->tail; t != snap[i]; t++) {
			struct defer_entry *e = &dq->slots[t & (URCU__DEFER_SLOTS - 1)];

			e->fct(e->p);
		}
		/*
		 * Release: pairs with the owner's acquire of tail.  model: none
		 * (defer_rcu ring hand-off, outside the grace-period model).
		 */
		__atomic_store_n(&dq->tail, snap[i], __ATOMIC_RELEASE);
	}
	urcu_lockdep_release(&urcu__lockdep_defer, NULL);
}

static void drain_one_locked(struct defer_queue *dq)
{
	unsigned long snap;

	drain_locked(&dq, &snap, 1);
}

/* Drain every queue; mutex held.  Batches of 64 share a grace period. */
static void drain_all_locked(void)
{
	struct defer_queue *batch[64];
	unsigned long snap[64];
	struct defer_queue *dq;
	size_t n = 0;

	cds_list_for_each_entry(dq, &defer_queues, list) {
		batch[n++] = dq;
		if (n == CAA_ARRAY_SIZE(batch)) {
			drain_locked(batch, snap, n);
			n = 0;
		}
	}
	if (n)
		drain_locked(batch, snap, n);
}

/* QSBR threads hold the mutex only while offline (invariant 3). */
static bool defer_lock(void)
{
	bool was_online = urcu__offline_for_wait();

	urcu__mutex_lock(&defer_mutex);
	return was_online;
}

static void defer_unlock(bool was_online)
{
	urcu__mutex_unlock(&defer_mutex);
	urcu__online_after_wait(was_online);
}

static bool queues_empty_locked(void)
{
	struct defer_queue *dq;

	cds_list_for_each_entry(dq, &defer_queues, list) {
		/*
		 * Acquire: pairs with the owner's release of head.  model: none
		 * (defer_rcu ring hand-off, outside the grace-period model).
		 */
		if (__atomic_load_n(&dq->head, __ATOMIC_ACQUIRE) != dq->tail)
			return false;
	}
	return true;
}

static void wake_defer_thread(void)
{
	/*
	 * Orders the owner's head store (or the stop request) before the
	 * futex load; paired with the fence in the defer thread between its
	 * futex store and its emptiness check.
	 * model: none (defer thread wake-up, outside the grace-period model).
	 */
	cmm_smp_mb();
	/* Relaxed: ordered by the fence above. */
	if (__atomic_load_n(&defer_futex, __ATOMIC_RELAXED) == -1) {
		__atomic_store_n(&defer_futex, 0, __ATOMIC_RELAXED);
		(void) futex_noasync(&defer_futex, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
}

static void *defer_thread(void *arg)
{
	(void) arg;
	for (;;) {
		bool empty;

		urcu__mutex_lock(&defer_mutex);
		drain_all_locked();
		urcu__mutex_unlock(&defer_mutex);
		/* Relaxed: ordered by the fence below. */
		__atomic_store_n(&defer_futex, -1, __ATOMIC_RELAXED);
		/*
		 * Store-load; paired with the fence in wake_defer_thread().
		 * model: none (defer thread wake-up, outside the grace-period
		 * model).
		 */
		cmm_smp_mb();
		urcu__mutex_lock(&defer_mutex);
		empty = queues_empty_locked();
		urcu__mutex_unlock(&defer_mutex);
		/* Relaxed: set before the wake that makes us look again. */
		if (__atomic_load_n(&defer_stop, __ATOMIC_RELAXED))
			break;
		if (empty) {
			urcu__alloc_thread_idle();
			(void) futex_noasync(&defer_futex, FUTEX_WAIT, -1,
					     NULL, NULL, 0);
		}
		/* Relaxed: only tells wakers we are awake again. */
		__atomic_store_n(&defer_futex, 0, __ATOMIC_RELAXED);
		/* Let more entries accumulate: one grace period per batch. */
		(void) poll(NULL, 0, URCU__DEFER_BATCH_MS);
	}
	return NULL;
}

URCU_API void defer_rcu(void (*fct)(void *p), void *p)
{
	struct defer_queue *dq = URCU_TLS(defer_queue);
	unsigned long head;

	if (caa_unlikely(!dq))
		urcu__misuse("defer_rcu() called by a thread that did not call "
			     "rcu_defer_register_thread()");
	urcu__check_outside_section(&URCU_TLS(rcu_reader),
		"defer_rcu() called", "it may wait for a grace period");
	head = dq->head;
	/*
	 * Acquire: pairs with the drainer's release of tail (slot reuse).
	 * model: none (defer_rcu ring hand-off, outside the grace-period
	 * model).
	 */
	if (caa_unlikely(head - __atomic_load_n(&dq->tail, __ATOMIC_ACQUIRE)
			 >= URCU__DEFER_SLOTS)) {
		bool was_online = defer_lock();

		drain_one_locked(dq);	/* ring full: drain it ourselves */
		defer_unlock(was_online);
	}
	dq->slots[head & (URCU__DEFER_SLOTS - 1)].fct = fct;
	dq->slots[head & (URCU__DEFER_SLOTS - 1)].p = p;
	/*
	 * Release: publishes the slot to the drainer's acquire of head.  model:
	 * none (defer_rcu ring hand-off, outside the grace-period model).
	 */
	__atomic_store_n(&dq->head, head + 1, __ATOMIC_RELEASE);
	/* A fence and a load: the thread only sleeps when all rings are empty. */
	wake_defer_thread();
}

static int start_defer_thread_locked(void)
{
	sigset_t all, saved;
	int err;

	/* Relaxed: the thread is created after these stores. */
	__atomic_store_n(&defer_stop, 0, __ATOMIC_RELAXED);
	sigfillset(&all);
	(void) pthread_sigmask(SIG_BLOCK, &all, &saved);
	err = pthread_create(&defer_tid, NULL, defer_thread, NULL);
	(void) pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return -err;
}

URCU_API int rcu_defer_register_thread(void)
{
	struct defer_queue *dq;
	bool was_online;
	int ret = 0;

	if (URCU_TLS(defer_queue))
		urcu__misuse("rcu_defer_register_thread() called twice");
	dq = urcu__alloc(sizeof(*dq), CAA_CACHE_LINE_SIZE);
	if (!dq)
		return -ENOMEM;
	/* Offline for both mutexes: their holders wait for grace periods. */
	was_online = urcu__offline_for_wait();
	urcu__mutex_lock(&defer_thread_mutex);
	urcu__mutex_lock(&defer_mutex);
	if (defer_users == 0)
		ret = start_defer_thread_locked();
	if (ret == 0) {
		defer_users++;
		cds_list_add(&dq->list, &defer_queues);
		URCU_TLS(defer_queue) = dq;
	}
	urcu__mutex_unlock(&defer_mutex);
	urcu__mutex_unlock(&defer_thread_mutex);
	urcu__online_after_wait(was_online);
	if (ret)
		urcu__free(dq, sizeof(*dq), CAA_CACHE_LINE_SIZE);
	return ret;
}

URCU_API void rcu_defer_unregister_thread(void)
{
	struct defer_queue *dq = URCU_TLS(defer_queue);
	bool was_online, last;
	pthread_t tid;

	if (!dq)
		urcu__misuse("rcu_defer_unregister_thread() called by a thread "
			     "that is not registered for defer_rcu()");
	/*
	 * Offline (QSBR) until the end: the drain and the defer thread's
	 * last drain, which we join, both wait for grace periods.
	 */
	urcu__lockdep_wait_deferred("rcu_defer_unregister_thread()");
	was_online = urcu__offline_for_wait();
	urcu__mutex_lock(&defer_thread_mutex);
	urcu__mutex_lock(&defer_mutex);
	drain_one_locked(dq);
	cds_list_del(&dq->list);
	URCU_TLS(defer_queue) = NULL;
	last = --defer_users == 0;
	tid = defer_tid;
	/* Relaxed: the mutex release below publishes it to the defer
	 * thread, which reads it after taking the mutex. */
	if (last)
		__atomic_store_n(&defer_stop, 1, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&defer_mutex);
	urcu__free(dq, sizeof(*dq), CAA_CACHE_LINE_SIZE);
	if (last) {
		int err;

		wake_defer_thread();
		err = pthread_join(tid, NULL);
		if (err)
			urcu__die("pthread_join(defer thread)", err);
	}
	urcu__mutex_unlock(&defer_thread_mutex);
	urcu__online_after_wait(was_online);
}

URCU_API void rcu_defer_barrier(void)
{
	bool was_online;

	urcu__lockdep_wait_deferred("rcu_defer_barrier()");
	was_online = defer_lock();

	drain_all_locked();
	defer_unlock(was_online);
}

URCU_API void rcu_defer_barrier_thread(void)
{
	struct defer_queue *dq = URCU_TLS(defer_queue);
	bool was_online;

	if (!dq)
		return;
	urcu__lockdep_wait_deferred("rcu_defer_barrier_thread()");
	was_online = defer_lock();
	drain_one_locked(dq);
	defer_unlock(was_online);
}

/*
 * liburcu's rcu_defer_exit(), kept so that programs calling it still
 * build and link: the background drainer and its queues need no
 * process-wide teardown here (they are drained at exit).
 */
URCU_API void rcu_defer_exit(void)
{
}
