/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call-rcu.c: call_rcu() workers, rcu_barrier() and their fork and exit
 * handling.  Compiled once per flavor.
 *
 * Each worker ("call_rcu_data") owns a wait-free concurrent queue of
 * rcu_head records.  call_rcu() appends to it (wait-free: one exchange on
 * the tail) and wakes the worker only when the worker announced that it
 * sleeps idle.  The worker detaches everything queued so far, waits for
 * one grace period, and runs the detached batch in order.
 *
 * Gathering: every grace period costs each reader thread a membarrier(2)
 * IPI or a signal, so under a steady stream of call_rcu() the worker
 * starts at most one per gather period (URCU__GATHER_MS, or
 * URCU_CALL_RCU_GATHER_MS from the environment).  Once it has run
 * a batch, it holds the next one back until a gather period has passed
 * since then, sleeping meanwhile, so one grace period serves everything
 * queued in between.  A worker that has been idle for a gather period
 * runs a new callback at once.  The gather ends early when:
 *  - URCU__GATHER_MAX callbacks are pending (the memory they hold stays
 *    bounded under heavy load).  The worker publishes the queued count at
 *    which that happens (gather_kick_at), and the call_rcu() whose count
 *    reaches it wakes the worker: no extra cache line for call_rcu();
 *  - an rcu_barrier() record was queued since the last detach (its
 *    caller waits): rcu_barrier() wakes a gathering worker;
 *  - the worker is asked to stop or to park (free, exit, fork);
 * and URCU_CALL_RCU_RT workers never gather.
 *
 * Worker states, in the futex word: BUSY (0) running; IDLE (-1) asleep
 * until work or a flag arrives, woken by any call_rcu() or wake_worker();
 * GATHERING (-2) asleep until its gather period ends, woken only by
 * wake_worker() with end_gather (barrier, stop, park, adoption) or by the
 * call_rcu() that reaches gather_kick_at.  A waker stores BUSY before
 * FUTEX_WAKE, so a wake is never lost: either the sleeper's FUTEX_WAIT
 * finds the word changed, or the wake finds it waiting.
 *
 * Invariants:
 *  1. Only a queue's worker dequeues from it, except when that worker does
 *     not exist (stopped, or not copied into a fork child); then the thread
 *     that stopped it, or the child's fork hook, splices the queue away.
 *  2. A worker processes a callback only after a grace period that began
 *     after the callback was queued (detach, then synchronize_rcu()).
 *  3. call_rcu_mutex is never held while waiting for a grace period or for
 *     a worker, and never taken inside a read-side section, so neither a
 *     worker nor a grace period can end up waiting for its holder.
 *  4. Callbacks are never dropped: a freed worker's leftovers move to the
 *     default worker, and a fork child adopts the queues of the parent's
 *     workers.
 *
 * Statistics (urcu_<flavor>_stats(), stats.c): each worker counts the
 * callbacks queued to it (one relaxed fetch_add per call_rcu(), on the
 * producer cache line every call_rcu() writes anyway), and the ones it
 * invoked and the batches it ran (relaxed stores of values only the
 * worker writes, on its own side of the structure).  rcu_barrier()
 * markers are not counted.  When a worker is freed, its counts move to
 * flavor-wide totals under call_rcu_mutex, so totals never go back.
 */
#define _LGPL_SOURCE
#include "flavor-internal.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <urcu/wfcqueue.h>

#include "urcu-alloc.h"
#include "urcu-die.h"
#include "urcu-export.h"
#include "stats-internal.h"

/* Idle poll period of URCU_CALL_RCU_RT workers, in milliseconds. */
#define URCU__RT_POLL_MS	1
/*
 * Default gather period, in milliseconds (URCU_CALL_RCU_GATHER_MS in the
 * environment sets another): under a steady stream of call_rcu(), a
 * worker starts at most one grace period per period.  Each grace period
 * costs every reader thread a membarrier(2) IPI or a signal; a stream of
 * 1M call_rcu()/s without gathering starts tens of thousands per second.
 * 10 ms (as liburcu's worker) brings that down to about 100 per second
 * while callbacks wait at most 10 ms longer; URCU__GATHER_MAX bounds the
 * memory they hold meanwhile.
 */
#define URCU__GATHER_MS		10
/* Longest gather period URCU_CALL_RCU_GATHER_MS may ask for: an hour. */
#define URCU__GATHER_MAX_MS	3600000UL
/*
 * Pending callbacks that end a gather early: about 10 ms of a 1M/s
 * stream, so that faster producers (7M call_rcu()/s on one core) get
 * batches of this size rather than 70k, and the memory waiting for
 * reclamation stays bounded.
 */
#define URCU__GATHER_MAX	10000
/* How long the exit handler lets workers drain their queues. */
#define URCU__EXIT_DRAIN_SEC	2
/* Workers handled per round of rcu_barrier() (records on its stack). */
#define URCU__BARRIER_CHUNK	32

/* Worker states, in call_rcu_data.futex (see the top comment). */
#define URCU__WORKER_BUSY	0
#define URCU__WORKER_IDLE	(-1)
#define URCU__WORKER_GATHERING	(-2)

struct call_rcu_data {
	/* Consumer side: only the worker (invariant 1). */
	struct __cds_wfcq_head cbs_head;
	/* Statistics only the worker writes: callbacks run, batches run. */
	unsigned long invoked;
	unsigned long batches;
	/* Producer side, on its own cache line: every call_rcu() writes it. */
	struct cds_wfcq_tail cbs_tail __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	/* Callbacks queued here, ever, adopted ones included (statistics). */
	unsigned long queued;
	/* URCU_CALL_RCU_RT, fixed at creation: enqueuers read it plainly. */
	bool rt;
	/* Gather period in ns (0: none), fixed at creation; worker only. */
	uint64_t gather_ns;
	/* URCU_CALL_RCU_* bits. */
	unsigned long flags __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	/* URCU__WORKER_BUSY, _IDLE or _GATHERING (see the top comment). */
	int32_t futex;
	int cpu_affinity;
	/*
	 * While GATHERING: the queued count at which URCU__GATHER_MAX are
	 * pending.  Written by the worker; on the line of the futex word,
	 * which call_rcu() loads anyway.
	 */
	unsigned long gather_kick_at;
	/*
	 * rcu_barrier() round that last queued a record here: written under
	 * call_rcu_mutex once the record is queued; the worker reads it to
	 * end a gather when a record arrived since its last detach.
	 */
	unsigned long barrier_seq;
	pthread_t tid;
	/* Link in call_rcu_data_list, protected by call_rcu_mutex. */
	struct cds_list_head list;
};

static pthread_mutex_t call_rcu_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Serialises rcu_barrier() callers; see rcu_barrier(). */
static pthread_mutex_t barrier_mutex = PTHREAD_MUTEX_INITIALIZER;
static CDS_LIST_HEAD(call_rcu_data_list);
/* Created on first use; read locklessly. */
static struct call_rcu_data *default_crdp;
/* Per-CPU workers: array of nr_cpus pointers, created on first use. */
static struct call_rcu_data **per_cpu_crdp;
static long nr_cpus;
/* rcu_barrier() calls so far; written under barrier_mutex. */
static unsigned long barrier_seq;
/* Counts of the workers freed so far (call_rcu_mutex). */
static unsigned long retired_queued;
static unsigned long retired_invoked;
/* Process whose threads the workers in call_rcu_data_list are. */
static pid_t workers_pid;
/* Hash-table fork hooks (urcu_register_rculfhash_atfork). */
static struct urcu_atfork *lfht_atfork;
static unsigned long lfht_atfork_refs;
/* lfht_atfork as seen by the fork in progress (barrier_mutex held). */
static struct urcu_atfork *fork_atfork;

static DEFINE_URCU_TLS(struct call_rcu_data *, thread_crdp);
/* Set in worker threads, which must not wait for their own queue. */
static DEFINE_URCU_TLS(int, in_worker);

static unsigned long load_flags(struct call_rcu_data *crdp)
{
	/*
	 * Acquire: pairs with the release updates in set/clear_flags().  model:
	 * none (call_rcu worker flags, outside the grace-period model).
	 */
	return __atomic_load_n(&crdp->flags, __ATOMIC_ACQUIRE);
}

static void set_flags(struct call_rcu_data *crdp, unsigned long bits)
{
	/*
	 * Release: what we did before is visible to whoever sees the bits.
	 * model: none (call_rcu worker flags, outside the grace-period model).
	 */
	__atomic_fetch_or(&crdp->flags, bits, __ATOMIC_RELEASE);
}

static void clear_flags(struct call_rcu_data *crdp, unsigned long bits)
{
	/*
	 * Release: as in set_flags().  model: none (call_rcu worker flags,
	 * outside the grace-period model).
	 */
	__atomic_fetch_and(&crdp->flags, ~bits, __ATOMIC_RELEASE);
}

/*
 * The worker's state, for a thread that just queued work or changed the
 * flags or a count: the fence orders that change before the futex load,
 * paired with the fences in worker_idle() and worker_gather() between
 * their futex store and their checks.  Either the worker sees our
 * change, or we see it asleep.
 * model: none (call_rcu worker wake-up, outside the grace-period model).
 */
static int32_t worker_state(struct call_rcu_data *crdp)
{
	cmm_smp_mb();
	/*
	 * Acquire: pairs with the release in worker_gather(), so that with
	 * GATHERING we see its gather_kick_at.  Ordered by the fence above
	 * otherwise.
	 * model: none (call_rcu worker wake-up, outside the grace-period
	 * model).
	 */
	return __atomic_load_n(&crdp->futex, __ATOMIC_ACQUIRE);
}

/* Wake the worker, which worker_state() found asleep. */
static void wake_up(struct call_rcu_data *crdp)
{
	/*
	 * Relaxed: after the fence of worker_state(), so a gathering worker
	 * that loads BUSY and then runs its own fence sees our change.
	 */
	__atomic_store_n(&crdp->futex, URCU__WORKER_BUSY, __ATOMIC_RELAXED);
	(void) futex_noasync(&crdp->futex, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/*
 * Wake @crdp's worker if it sleeps idle (or is about to), and also if it
 * sleeps out a gather period when @end_gather.
 */
static void wake_worker(struct call_rcu_data *crdp, bool end_gather)
{
	int32_t state = worker_state(crdp);

	if (state == URCU__WORKER_IDLE
	    || (end_gather && state == URCU__WORKER_GATHERING))
		wake_up(crdp);
}

/*
 * call_rcu() queued callback number @n (its queued count) to @crdp:
 * wake the worker if it is idle, or if it gathers and this callback
 * brings its backlog to URCU__GATHER_MAX.
 */
static void wake_for_callback(struct call_rcu_data *crdp, unsigned long n)
{
	int32_t state = worker_state(crdp);

	if (state == URCU__WORKER_IDLE)
		wake_up(crdp);
	/*
	 * Relaxed: worker_state()'s acquire ordered it.  Signed difference:
	 * the counts wrap.  A stale value from an earlier gather is lower,
	 * and only makes the worker check its backlog once more.
	 */
	else if (state == URCU__WORKER_GATHERING
		 && (long) (n - __atomic_load_n(&crdp->gather_kick_at,
					       __ATOMIC_RELAXED)) >= 0)
		wake_up(crdp);
}

/* Sleep until work arrives or the flags change. */
static void worker_idle(struct call_rcu_data *crdp)
{
	urcu__alloc_thread_idle();
	/* Relaxed: ordered by the fence below. */
	__atomic_store_n(&crdp->futex, URCU__WORKER_IDLE, __ATOMIC_RELAXED);
	/*
	 * Store-load; paired with the fence in worker_state().  model: none
	 * (call_rcu worker wake-up, outside the grace-period model).
	 */
	cmm_smp_mb();
	if (cds_wfcq_empty(&crdp->cbs_head, &crdp->cbs_tail)
	    && !(load_flags(crdp) & (URCU_CALL_RCU_STOP | URCU_CALL_RCU_PAUSE)))
		(void) futex_noasync(&crdp->futex, FUTEX_WAIT,
				     URCU__WORKER_IDLE, NULL, NULL, 0);
	/*
	 * Relaxed: only wakers read it, and one that still sees IDLE just
	 * makes a useless wake-up.
	 */
	__atomic_store_n(&crdp->futex, URCU__WORKER_BUSY, __ATOMIC_RELAXED);
}

static void worker_pause(struct call_rcu_data *crdp)
{
	set_flags(crdp, URCU_CALL_RCU_PAUSED);
	while (load_flags(crdp) & URCU_CALL_RCU_PAUSE)
		(void) poll(NULL, 0, 1);
	clear_flags(crdp, URCU_CALL_RCU_PAUSED);
}

/* Wait while idle or paused; QSBR workers are offline meanwhile. */
static void worker_wait(struct call_rcu_data *crdp, unsigned long flags)
{
	bool was_online = urcu__offline_for_wait();

	if (flags & URCU_CALL_RCU_PAUSE)
		worker_pause(crdp);
	else if (flags & URCU_CALL_RCU_RT)
		(void) poll(NULL, 0, URCU__RT_POLL_MS);
	else
		worker_idle(crdp);
	urcu__online_after_wait(was_online);
}

static void barrier_callback(struct rcu_head *head);

/* Add one to a statistic that only the calling worker writes. */
static void count_own(unsigned long *counter)
{
	/* Relaxed: a statistic; others only read it. */
	__atomic_store_n(counter, *counter + 1, __ATOMIC_RELAXED);
}

/*
 * Run one detached batch after a grace period.  Each callback is counted
 * once it returned and before the next one starts, so an rcu_barrier()
 * marker that runs later publishes the counts of the callbacks before it.
 */
static void run_batch(struct call_rcu_data *crdp, struct __cds_wfcq_head *head,
		struct cds_wfcq_tail *tail)
{
	struct cds_wfcq_node *node, *next;

	synchronize_rcu();	/* invariant 2 */
	count_own(&crdp->batches);
	/* Callbacks run under rcu_callback(flavor) (lockdep-hooks.h). */
	urcu_lockdep_acquire(&urcu__lockdep_callback, NULL,
			     URCU_LOCKDEP_TRY | URCU_LOCKDEP_READ_RECURSIVE);
	__cds_wfcq_for_each_blocking_safe(head, tail, node, next) {
		struct rcu_head *rhp = caa_container_of(node, struct rcu_head, next);
		/* Read first: the callback may free *rhp. */
		bool marker = rhp->func == barrier_callback;

		rhp->func(rhp);
		if (!marker)
			count_own(&crdp->invoked);
	}
	urcu_lockdep_release(&urcu__lockdep_callback, NULL);
}

/* Callbacks queued to @crdp and not yet invoked (approximate). */
static unsigned long pending_of(struct call_rcu_data *crdp)
{
	/*
	 * Relaxed: statistics.  A callback is counted queued before it is
	 * enqueued, so queued >= invoked, but two relaxed loads may still
	 * see them out of step: clamp.
	 */
	unsigned long invoked = __atomic_load_n(&crdp->invoked,
						__ATOMIC_RELAXED);
	unsigned long queued = __atomic_load_n(&crdp->queued, __ATOMIC_RELAXED);

	return queued > invoked ? queued - invoked : 0;
}

/*
 * Whether a gathering worker must detach its queue now.  @barrier_seen is
 * crdp->barrier_seq as the worker read it before its last detach.
 */
static bool gather_must_end(struct call_rcu_data *crdp,
		unsigned long barrier_seen)
{
	/* Stop (free, exit) and park (fork) do not wait for a gather. */
	if (load_flags(crdp) & (URCU_CALL_RCU_STOP | URCU_CALL_RCU_PAUSE))
		return true;
	/*
	 * A barrier record arrived after the last detach: its caller
	 * waits.  Relaxed: ordered by the fence in worker_gather(), paired
	 * with the one in worker_state() after queue_round() set it.
	 */
	if (__atomic_load_n(&crdp->barrier_seq, __ATOMIC_RELAXED)
	    != barrier_seen)
		return true;
	/*
	 * Bound the memory held back.  The counts are relaxed too, and
	 * ordered the same way: call_rcu() adds to queued before the fence
	 * in its worker_state().
	 */
	return pending_of(crdp) >= URCU__GATHER_MAX;
}

/* Sleep on the futex word for at most @ns nanoseconds. */
static void gather_sleep(struct call_rcu_data *crdp, uint64_t ns)
{
	struct timespec rel = urcu__ns_to_timespec(ns);

	/* Returns on wake, timeout, signal, or a word no longer GATHERING. */
	(void) futex_noasync(&crdp->futex, FUTEX_WAIT, URCU__WORKER_GATHERING,
			     &rel, NULL, 0);
}

/*
 * Hold the next batch back until @until (urcu__now_ns() time), unless
 * gather_must_end() says otherwise meanwhile, so that one grace period
 * serves everything queued until then.  Offline (QSBR) or parked (signal)
 * meanwhile, like any wait of the worker: grace periods go on without us.
 */
static void worker_gather(struct call_rcu_data *crdp, uint64_t until,
		unsigned long barrier_seen)
{
	bool was_online;
	uint64_t now = urcu__now_ns();

	if (now >= until)
		return;
	was_online = urcu__offline_for_wait();
	/*
	 * Relaxed: published by the release below.  invoked does not
	 * change while we gather (only we write it).
	 */
	__atomic_store_n(&crdp->gather_kick_at,
			 crdp->invoked + URCU__GATHER_MAX, __ATOMIC_RELAXED);
	/*
	 * Release: pairs with the acquire in worker_state(), for
	 * gather_kick_at; ordered against the checks by the fence below.
	 * model: none (call_rcu worker wake-up, outside the grace-period
	 * model).
	 */
	__atomic_store_n(&crdp->futex, URCU__WORKER_GATHERING,
			 __ATOMIC_RELEASE);
	for (;;) {
		/*
		 * Store-load, paired with the fence in worker_state():
		 * either we see what a waker changed, or it sees GATHERING
		 * and wakes us.  After a wake-up, it also orders our checks
		 * after the waker's BUSY that we loaded below, and so after
		 * the changes that precede the waker's fence.
		 * model: none (call_rcu worker wake-up, outside the
		 * grace-period model).
		 */
		cmm_smp_mb();
		if (gather_must_end(crdp, barrier_seen))
			break;
		now = urcu__now_ns();
		if (now >= until)
			break;
		gather_sleep(crdp, until - now);
		/*
		 * Relaxed load: the fence at the top of the loop orders our
		 * next checks after it.  BUSY: a waker wants us to check
		 * again; we gather on unless told otherwise.  Release store:
		 * as the first one.
		 * model: none (call_rcu worker wake-up, outside the
		 * grace-period model).
		 */
		if (__atomic_load_n(&crdp->futex, __ATOMIC_RELAXED)
		    != URCU__WORKER_GATHERING)
			__atomic_store_n(&crdp->futex, URCU__WORKER_GATHERING,
					 __ATOMIC_RELEASE);
	}
	/* Relaxed: as at the end of worker_idle(). */
	__atomic_store_n(&crdp->futex, URCU__WORKER_BUSY, __ATOMIC_RELAXED);
	urcu__online_after_wait(was_online);
}

/*
 * Detach everything queued and run it as one batch; false if the queue
 * was empty.  @barrier_seen gets crdp->barrier_seq as of the detach.
 */
static bool run_queue(struct call_rcu_data *crdp, unsigned long *barrier_seen)
{
	struct __cds_wfcq_head head;
	struct cds_wfcq_tail tail;

	/*
	 * Acquire, before the detach: pairs with the release in
	 * queue_round(), so a record whose round we see is detached now,
	 * and any later one changes barrier_seq again.
	 * model: none (rcu_barrier() rounds, outside the grace-period model).
	 */
	*barrier_seen = __atomic_load_n(&crdp->barrier_seq, __ATOMIC_ACQUIRE);
	__cds_wfcq_init(&head, &tail);
	(void) __cds_wfcq_splice_blocking(&head, &tail, &crdp->cbs_head,
					  &crdp->cbs_tail);
	if (cds_wfcq_empty(&head, &tail))
		return false;
	run_batch(crdp, &head, &tail);
#ifdef RCU_QSBR
	rcu_quiescent_state();
#endif
	return true;
}

static void set_worker_affinity(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* Best effort: the CPU may be offline or outside our cpuset. */
	(void) pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *call_rcu_worker(void *arg)
{
	struct call_rcu_data *crdp = arg;
	/* End of the gather period that follows the last batch. */
	uint64_t gather_until = 0;
	/* crdp->barrier_seq as of the last detach. */
	unsigned long barrier_seen = 0;

#ifdef RCU_SIGNAL
	{
		/* Created with all signals blocked; grace periods need SIGRCU. */
		sigset_t set;

		sigemptyset(&set);
		sigaddset(&set, SIGRCU);
		(void) pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	}
#endif
	set_worker_affinity(crdp->cpu_affinity);
	rcu_register_thread();
	URCU_TLS(thread_crdp) = crdp;	/* nested call_rcu() stays here */
	URCU_TLS(in_worker) = 1;
	set_flags(crdp, URCU_CALL_RCU_RUNNING);
	for (;;) {
		unsigned long flags;

		/*
		 * Work: gather (not RT workers, which poll, nor with a gather
		 * period of 0), then one batch.
		 */
		if (!cds_wfcq_empty(&crdp->cbs_head, &crdp->cbs_tail)) {
			if (crdp->gather_ns)
				worker_gather(crdp, gather_until, barrier_seen);
			if (run_queue(crdp, &barrier_seen) && crdp->gather_ns)
				gather_until = urcu__now_ns() + crdp->gather_ns;
			continue;
		}
		flags = load_flags(crdp);
		if (flags & URCU_CALL_RCU_STOP)
			break;
		worker_wait(crdp, flags);
	}
	rcu_unregister_thread();
	set_flags(crdp, URCU_CALL_RCU_STOPPED);
	return NULL;
}

/*
 * Gather period for a worker being created, in ns: URCU_CALL_RCU_GATHER_MS
 * (milliseconds; 0 turns gathering off), or the default.  Read at each
 * creation, which is rare, so a program can set it before creating its
 * own workers.  A bad value is reported once and replaced by the default.
 * Called with call_rcu_mutex held.
 */
static uint64_t gather_ns_from_env(void)
{
	static int warned;
	const char *v = getenv("URCU_CALL_RCU_GATHER_MS");
	unsigned long ms;
	int saved_errno = errno;
	char *end;
	bool ok;

	if (!v || !*v)
		return URCU__GATHER_MS * UINT64_C(1000000);
	errno = 0;
	ms = strtoul(v, &end, 10);
	ok = *v >= '0' && *v <= '9' && !*end && !errno
	     && ms <= URCU__GATHER_MAX_MS;
	errno = saved_errno;
	if (ok)
		return ms * UINT64_C(1000000);
	if (!warned++)		/* call_rcu_mutex held: one creation at a time */
		fprintf(stderr, "urcu: %s: ignoring URCU_CALL_RCU_GATHER_MS="
			"\"%s\": not a number of milliseconds from 0 to %lu; "
			"using %d\n", URCU__FLAVOR_STR, v,
			URCU__GATHER_MAX_MS, URCU__GATHER_MS);
	return URCU__GATHER_MS * UINT64_C(1000000);
}

/* Allocate and start a worker; caller holds call_rcu_mutex. */
static struct call_rcu_data *create_locked(unsigned long flags, int cpu)
{
	struct call_rcu_data *crdp;
	sigset_t all, saved;
	int err;

	crdp = urcu__alloc(sizeof(*crdp), CAA_CACHE_LINE_SIZE);
	if (!crdp) {
		errno = ENOMEM;
		return NULL;
	}
	__cds_wfcq_init(&crdp->cbs_head, &crdp->cbs_tail);
	crdp->flags = flags & URCU_CALL_RCU_RT;
	crdp->rt = flags & URCU_CALL_RCU_RT;
	crdp->gather_ns = crdp->rt ? 0 : gather_ns_from_env();
	crdp->cpu_affinity = cpu;
	/* The worker must not take the application's signals. */
	sigfillset(&all);
	(void) pthread_sigmask(SIG_BLOCK, &all, &saved);
	err = pthread_create(&crdp->tid, NULL, call_rcu_worker, crdp);
	(void) pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err) {
		urcu__free(crdp, sizeof(*crdp), CAA_CACHE_LINE_SIZE);
		errno = err;
		return NULL;
	}
	cds_list_add_tail(&crdp->list, &call_rcu_data_list);
	workers_pid = getpid();
	return crdp;
}

URCU_API struct call_rcu_data *create_call_rcu_data(unsigned long flags,
		int cpu_affinity)
{
	struct call_rcu_data *crdp;

	urcu__mutex_lock(&call_rcu_mutex);
	crdp = create_locked(flags, cpu_affinity);
	urcu__mutex_unlock(&call_rcu_mutex);
	return crdp;
}

/* The default worker, started if needed; call_rcu_mutex held. */
static struct call_rcu_data *default_locked(void)
{
	struct call_rcu_data *crdp = default_crdp;

	if (!crdp) {
		crdp = create_locked(0, -1);
		/*
		 * Release: publishes the initialised worker.  model: none
		 * (call_rcu worker publication, outside the grace-period
		 * model).
		 */
		__atomic_store_n(&default_crdp, crdp, __ATOMIC_RELEASE);
	}
	return crdp;
}

URCU_API struct call_rcu_data *get_default_call_rcu_data(void)
{
	/*
	 * Acquire: pairs with the release store in default_locked().  model:
	 * none (call_rcu worker publication, outside the grace-period model).
	 */
	struct call_rcu_data *crdp = __atomic_load_n(&default_crdp,
						     __ATOMIC_ACQUIRE);

	if (caa_likely(crdp))
		return crdp;
	urcu__mutex_lock(&call_rcu_mutex);
	crdp = default_locked();
	urcu__mutex_unlock(&call_rcu_mutex);
	return crdp;
}

URCU_API struct call_rcu_data *get_cpu_call_rcu_data(int cpu)
{
	/*
	 * Consume: pairs with the release publication in set_cpu_...().  model:
	 * none (call_rcu worker publication, outside the grace-period model).
	 */
	struct call_rcu_data **array = rcu_dereference(per_cpu_crdp);

	if (!array || cpu < 0 || cpu >= nr_cpus)
		return NULL;
	return rcu_dereference(array[cpu]);
}

URCU_API struct call_rcu_data *get_thread_call_rcu_data(void)
{
	return URCU_TLS(thread_crdp);
}

URCU_API void set_thread_call_rcu_data(struct call_rcu_data *crdp)
{
	URCU_TLS(thread_crdp) = crdp;
}

URCU_API pthread_t get_call_rcu_thread(struct call_rcu_data *crdp)
{
	return crdp->tid;
}

/*
 * The worker for the calling thread: its own, else its CPU's, else the
 * default one (created on demand, may be NULL on failure).  The per-CPU
 * lookup needs a read-side section, which the caller provides.
 */
URCU_API struct call_rcu_data *get_call_rcu_data(void)
{
	struct call_rcu_data *crdp = URCU_TLS(thread_crdp);

	if (crdp)
		return crdp;
	/* Relaxed: an array pointer set once; get_cpu reloads properly. */
	if (__atomic_load_n(&per_cpu_crdp, __ATOMIC_RELAXED)) {
		crdp = get_cpu_call_rcu_data(sched_getcpu());
		if (crdp)
			return crdp;
	}
	return get_default_call_rcu_data();
}

/* Can the calling thread use a read-side section to pin a worker? */
static bool can_read_lock(void)
{
#if defined(RCU_QSBR)
	return URCU_TLS(rcu_reader).ctr != 0;	/* online */
#elif defined(RCU_BP)
	return true;				/* registers on demand */
#else
	return URCU_TLS(rcu_reader).registered;
#endif
}

/* Append @head to @crdp's queue. */
static void append(struct call_rcu_data *crdp, struct rcu_head *head)
{
	/* Wait-free append; the enqueue's release publishes *head. */
	(void) cds_wfcq_enqueue(&crdp->cbs_head, &crdp->cbs_tail, &head->next);
}

/* Queue a call_rcu() callback: count it, then append it. */
static void enqueue(struct call_rcu_data *crdp, struct rcu_head *head)
{
	/*
	 * Relaxed: a statistic, and the backlog measure of
	 * wake_for_callback().  Counted before the append, whose release
	 * orders the count before the worker's count of the invocation.
	 */
	unsigned long n = __atomic_add_fetch(&crdp->queued, 1,
					     __ATOMIC_RELAXED);

	append(crdp, head);
	/* RT workers poll instead of sleeping. */
	if (!crdp->rt)
		wake_for_callback(crdp, n);
}

/*
 * No worker could be created (out of memory or threads).  Nothing may be
 * lost: wait for the grace period here and run the callback, which is
 * allowed whenever the caller is outside any read-side section (QSBR: is
 * offline); otherwise there is no safe way on, and we abort.
 */
static void call_rcu_synchronously(struct rcu_head *head)
{
	/* QSBR: only an offline thread is known to hold no reference. */
	if (!_rcu_read_ongoing()) {
		synchronize_rcu();
		urcu_lockdep_acquire(&urcu__lockdep_callback, NULL,
				     URCU_LOCKDEP_TRY | URCU_LOCKDEP_READ_RECURSIVE);
		head->func(head);
		urcu_lockdep_release(&urcu__lockdep_callback, NULL);
		return;
	}
	urcu__die("call_rcu(): cannot create a call_rcu worker thread", errno);
}

URCU_API void call_rcu(struct rcu_head *head,
		void (*func)(struct rcu_head *head))
{
	struct call_rcu_data *crdp = URCU_TLS(thread_crdp);

	cds_wfcq_node_init(&head->next);
	head->func = func;
	/*
	 * Per-CPU workers can be freed concurrently (after a grace period),
	 * so look one up and enqueue inside a read-side section.  The
	 * default worker lives until exit and needs none: take it outside
	 * any section, because creating it takes call_rcu_mutex
	 * (invariant 3).
	 */
	if (!crdp && __atomic_load_n(&per_cpu_crdp, __ATOMIC_RELAXED)
	    && can_read_lock()) {
		_rcu_read_lock();
		crdp = get_cpu_call_rcu_data(sched_getcpu());
		if (crdp) {
			enqueue(crdp, head);
			_rcu_read_unlock();
			return;
		}
		_rcu_read_unlock();
	}
	if (!crdp)
		crdp = get_default_call_rcu_data();
	if (caa_unlikely(!crdp)) {
		call_rcu_synchronously(head);
		return;
	}
	enqueue(crdp, head);
}

/* Ask @crdp's worker to stop once its queue is empty, and wait for it. */
static void stop_worker(struct call_rcu_data *crdp)
{
	bool was_online;
	int err;

	set_flags(crdp, URCU_CALL_RCU_STOP);
	wake_worker(crdp, true);
	was_online = urcu__offline_for_wait();	/* its last grace period */
	err = pthread_join(crdp->tid, NULL);
	urcu__online_after_wait(was_online);
	if (err)
		urcu__die("pthread_join(call_rcu worker)", err);
}

/*
 * Move whatever @from still holds to @to (invariant 4).  @from's worker
 * is gone, so its invoked count is final: the callbacks it did not run
 * move to @to's queued count as well.
 */
static void adopt_callbacks(struct call_rcu_data *to,
		struct call_rcu_data *from)
{
	unsigned long moved;

	if (cds_wfcq_empty(&from->cbs_head, &from->cbs_tail))
		return;
	(void) __cds_wfcq_splice_blocking(&to->cbs_head, &to->cbs_tail,
					  &from->cbs_head, &from->cbs_tail);
	moved = pending_of(from);
	/* Relaxed: statistics, like every queued access. */
	__atomic_fetch_sub(&from->queued, moved, __ATOMIC_RELAXED);
	__atomic_fetch_add(&to->queued, moved, __ATOMIC_RELAXED);
	/* Ends a gather: the adopted backlog may pass URCU__GATHER_MAX. */
	wake_worker(to, true);
}

/*
 * @crdp, off the worker list and stopped, is about to be freed: keep its
 * counts in the totals.  call_rcu_mutex held, the lock stats readers take.
 */
static void retire_locked(struct call_rcu_data *crdp)
{
	/* Relaxed: statistics; the worker no longer runs. */
	retired_queued += __atomic_load_n(&crdp->queued, __ATOMIC_RELAXED);
	retired_invoked += __atomic_load_n(&crdp->invoked, __ATOMIC_RELAXED);
}

/* Retire and free a stopped worker that is off the worker list. */
static void free_crdp(struct call_rcu_data *crdp)
{
	urcu__mutex_lock(&call_rcu_mutex);
	retire_locked(crdp);
	urcu__mutex_unlock(&call_rcu_mutex);
	urcu__free(crdp, sizeof(*crdp), CAA_CACHE_LINE_SIZE);
}

/*
 * Stop and free a worker.  The default worker is never freed this way.
 * The caller must have made sure no thread can still pick @crdp (unset it
 * with set_thread_call_rcu_data() / set_cpu_call_rcu_data() and waited
 * for a grace period); callbacks queued until then all run.
 * model: none (call_rcu worker publication, outside the grace-period model).
 */
URCU_API void call_rcu_data_free(struct call_rcu_data *crdp)
{
	struct call_rcu_data *dflt;

	if (!crdp || crdp == __atomic_load_n(&default_crdp, __ATOMIC_ACQUIRE))
		return;
	/* Its worker runs what is queued before it stops. */
	urcu__lockdep_wait_callbacks("call_rcu_data_free()");
	if (URCU_TLS(thread_crdp) == crdp && URCU_TLS(in_worker))
		urcu__misuse("call_rcu_data_free() called from a callback "
			     "running on the worker being freed");
	stop_worker(crdp);
	/*
	 * One critical section from the unlinking to the retirement, so
	 * that statistics never see the worker's counts missing.
	 */
	urcu__mutex_lock(&call_rcu_mutex);
	cds_list_del(&crdp->list);
	/* Late enqueues by a careless caller still run (invariant 4). */
	if (!cds_wfcq_empty(&crdp->cbs_head, &crdp->cbs_tail)) {
		dflt = default_locked();
		if (!dflt)
			urcu__die("call_rcu_data_free(): no default worker for "
				  "leftover callbacks", errno);
		adopt_callbacks(dflt, crdp);
	}
	retire_locked(crdp);
	urcu__mutex_unlock(&call_rcu_mutex);
	urcu__free(crdp, sizeof(*crdp), CAA_CACHE_LINE_SIZE);
}

/* Allocate the per-CPU array; call_rcu_mutex held.  0 or -ENOMEM. */
static int per_cpu_array_locked(void)
{
	struct call_rcu_data **array;
	long n;

	if (per_cpu_crdp)
		return 0;
	n = sysconf(_SC_NPROCESSORS_CONF);
	if (n <= 0)
		n = 1;
	array = urcu__alloc(n * sizeof(*array), sizeof(void *));
	if (!array)
		return -ENOMEM;
	nr_cpus = n;
	/*
	 * Release: pairs with rcu_dereference() in get_cpu_call_rcu_data().
	 * model: none (call_rcu worker publication, outside the grace-period
	 * model).
	 */
	rcu_set_pointer(&per_cpu_crdp, array);
	return 0;
}

URCU_API int set_cpu_call_rcu_data(int cpu, struct call_rcu_data *crdp)
{
	int ret;

	urcu__mutex_lock(&call_rcu_mutex);
	ret = per_cpu_array_locked();
	if (ret == 0 && (cpu < 0 || cpu >= nr_cpus))
		ret = -EINVAL;
	if (ret == 0 && crdp && per_cpu_crdp[cpu])
		ret = -EEXIST;
	/*
	 * Release: publishes the worker; pairs with rcu_dereference() in
	 * get_cpu_call_rcu_data().  model: none (call_rcu worker
	 * publication, outside the grace-period model).
	 */
	if (ret == 0)
		rcu_set_pointer(&per_cpu_crdp[cpu], crdp);
	urcu__mutex_unlock(&call_rcu_mutex);
	if (ret)
		errno = -ret;
	return ret;
}

URCU_API int create_all_cpu_call_rcu_data(unsigned long flags)
{
	long cpu;
	int ret;

	urcu__mutex_lock(&call_rcu_mutex);
	ret = per_cpu_array_locked();
	urcu__mutex_unlock(&call_rcu_mutex);
	if (ret) {
		errno = -ret;
		return ret;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct call_rcu_data *crdp;

		if (get_cpu_call_rcu_data(cpu))
			continue;
		crdp = create_call_rcu_data(flags, cpu);
		if (!crdp)
			return -ENOMEM;	/* errno set */
		ret = set_cpu_call_rcu_data(cpu, crdp);
		if (ret == -EEXIST) {	/* lost a race: keep the other one */
			call_rcu_data_free(crdp);
			continue;
		}
		if (ret) {
			call_rcu_data_free(crdp);
			errno = -ret;
			return ret;
		}
	}
	return 0;
}

URCU_API void free_all_cpu_call_rcu_data(void)
{
	long cpu;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		struct call_rcu_data *crdp = get_cpu_call_rcu_data(cpu);

		if (!crdp)
			continue;
		(void) set_cpu_call_rcu_data(cpu, NULL);
		/* call_rcu() callers that still see it are in a section. */
		synchronize_rcu();
		call_rcu_data_free(crdp);
	}
}

/* rcu_barrier() record: one per worker and round. */
struct barrier_record {
	struct rcu_head head;
	struct barrier_round *round;
};

struct barrier_round {
	long pending;		/* records not run yet */
	int32_t done;		/* futex word: 1 once pending reached 0 */
};

static void barrier_callback(struct rcu_head *head)
{
	struct barrier_record *rec = caa_container_of(head,
			struct barrier_record, head);
	struct barrier_round *round = rec->round;

	/*
	 * Acq_rel: the callbacks this worker ran before happen before the
	 * decrement; the last decrement sees all earlier ones.
	 * model: none (rcu_barrier() rounds, outside the grace-period model).
	 */
	if (__atomic_sub_fetch(&round->pending, 1, __ATOMIC_ACQ_REL) == 0) {
		/*
		 * Release: pairs with the acquire in wait_round().  model: none
		 * (rcu_barrier() rounds, outside the grace-period model).
		 */
		__atomic_store_n(&round->done, 1, __ATOMIC_RELEASE);
		/* @round may be gone once done is seen: harmless wake. */
		(void) futex_noasync(&round->done, FUTEX_WAKE_PRIVATE, 1,
				     NULL, NULL, 0);
	}
}

static void wait_round(struct barrier_round *round)
{
	/*
	 * Acquire: pairs with the release in barrier_callback().  model: none
	 * (rcu_barrier() rounds, outside the grace-period model).
	 */
	while (!__atomic_load_n(&round->done, __ATOMIC_ACQUIRE))
		(void) futex_noasync(&round->done, FUTEX_WAIT_PRIVATE, 0,
				     NULL, NULL, 0);
}

/*
 * Queue a record behind everything already queued on up to
 * URCU__BARRIER_CHUNK workers not yet covered by round @seq; returns how
 * many it queued.  Workers are marked so that each one present for the
 * whole rcu_barrier() is covered exactly once even if others come and go.
 */
static long queue_round(struct barrier_record *recs,
		struct barrier_round *round, unsigned long seq)
{
	struct call_rcu_data *targets[URCU__BARRIER_CHUNK];
	struct call_rcu_data *crdp;
	long i, n = 0;

	urcu__mutex_lock(&call_rcu_mutex);
	cds_list_for_each_entry(crdp, &call_rcu_data_list, list) {
		if (n == URCU__BARRIER_CHUNK)
			break;
		/* Plain: only written under call_rcu_mutex, which we hold. */
		if (crdp->barrier_seq == seq)
			continue;
		targets[n++] = crdp;
	}
	/*
	 * Set before the first record is queued: a record may run at once.
	 * The enqueue's release publishes these stores to the workers.
	 */
	round->pending = n;
	round->done = 0;
	for (i = 0; i < n; i++) {
		recs[i].round = round;
		recs[i].head.func = barrier_callback;
		cds_wfcq_node_init(&recs[i].head.next);
		append(targets[i], &recs[i].head);	/* not counted */
		/*
		 * Marks the worker covered by this round, and tells it a
		 * record is queued.  Release, after the append: pairs with
		 * the acquire in run_queue(), so a worker that sees @seq
		 * before a detach detaches the record too.
		 * model: none (rcu_barrier() rounds, outside the grace-period
		 * model).
		 */
		__atomic_store_n(&targets[i]->barrier_seq, seq,
				 __ATOMIC_RELEASE);
		/*
		 * A gathering worker must not keep our record waiting.  RT
		 * workers poll instead of sleeping.
		 */
		if (!targets[i]->rt)
			wake_worker(targets[i], true);
	}
	urcu__mutex_unlock(&call_rcu_mutex);
	return n;
}

/*
 * Covers every worker in rounds of URCU__BARRIER_CHUNK (records live on
 * our stack).  Callers are serialised by barrier_mutex, taken only by
 * rcu_barrier() and fork, so waiting with it held blocks no grace period.
 */
URCU_API void rcu_barrier(void)
{
	struct barrier_record recs[URCU__BARRIER_CHUNK];
	struct barrier_round round;
	unsigned long seq;
	bool was_online;

	urcu__lockdep_wait_callbacks("rcu_barrier()");
	urcu__check_outside_section(&URCU_TLS(rcu_reader),
		"rcu_barrier() called",
		"it waits for a grace period, which would wait for the caller");
	if (URCU_TLS(in_worker))
		urcu__misuse("rcu_barrier() called from a call_rcu callback: "
			     "it would wait for itself");
	was_online = urcu__offline_for_wait();
	urcu__mutex_lock(&barrier_mutex);
	seq = barrier_seq + 1;
	/* Relaxed: also the rcu_barrier() count of the statistics. */
	__atomic_store_n(&barrier_seq, seq, __ATOMIC_RELAXED);
	while (queue_round(recs, &round, seq))
		wait_round(&round);
	urcu__mutex_unlock(&barrier_mutex);
	urcu__online_after_wait(was_online);
}

URCU_API void urcu_register_rculfhash_atfork(struct urcu_atfork *atfork)
{
	urcu__mutex_lock(&call_rcu_mutex);
	if (lfht_atfork_refs++ == 0)
		lfht_atfork = atfork;
	urcu__mutex_unlock(&call_rcu_mutex);
}

URCU_API void urcu_unregister_rculfhash_atfork(struct urcu_atfork *atfork)
{
	(void) atfork;
	urcu__mutex_lock(&call_rcu_mutex);
	if (lfht_atfork_refs && --lfht_atfork_refs == 0)
		lfht_atfork = NULL;
	urcu__mutex_unlock(&call_rcu_mutex);
}

/*
 * Fork: before fork() every worker is parked and every lock of the
 * call_rcu and grace-period machinery is held by the forking thread, so
 * the child starts from a consistent state.  The child has no workers:
 * it adopts all queued callbacks into a fresh default worker, so they run
 * in the child as well as in the parent (each on its own copy of memory)
 * and nothing is lost or run twice in either process (invariant 4).
 */
/* Ask every worker to park; true when all of them are parked. */
static bool pause_workers_locked(void)
{
	struct call_rcu_data *crdp;
	bool all = true;

	cds_list_for_each_entry(crdp, &call_rcu_data_list, list) {
		unsigned long flags = load_flags(crdp);

		if (!(flags & URCU_CALL_RCU_PAUSE)) {
			set_flags(crdp, URCU_CALL_RCU_PAUSE);
			wake_worker(crdp, true);
		}
		if (!(flags & URCU_CALL_RCU_PAUSED))
			all = false;
	}
	return all;
}

/*
 * Parking waits for workers, which may wait for grace periods, which may
 * wait for readers blocked on call_rcu_mutex: so wait without holding it
 * (invariant 3), then take the grace-period locks, then call_rcu_mutex,
 * and start over if a worker appeared in between.
 */
URCU_API void call_rcu_before_fork(void)
{
	/* Parking waits for batches in progress (see above). */
	urcu__lockdep_wait_callbacks("call_rcu_before_fork()");
	urcu__mutex_lock(&barrier_mutex);
	urcu__mutex_lock(&call_rcu_mutex);
	fork_atfork = lfht_atfork;
	urcu__mutex_unlock(&call_rcu_mutex);
	if (fork_atfork)
		fork_atfork->before_fork(fork_atfork->priv);
	for (;;) {
		bool parked;

		urcu__mutex_lock(&call_rcu_mutex);
		parked = pause_workers_locked();
		urcu__mutex_unlock(&call_rcu_mutex);
		if (!parked) {
			(void) poll(NULL, 0, 1);
			continue;
		}
		urcu__flavor_fork_prepare();
		urcu__mutex_lock(&call_rcu_mutex);
		if (pause_workers_locked())
			break;
		urcu__mutex_unlock(&call_rcu_mutex);
		urcu__flavor_fork_parent();
	}
}

URCU_API void call_rcu_after_fork_parent(void)
{
	struct call_rcu_data *crdp;

	cds_list_for_each_entry(crdp, &call_rcu_data_list, list)
		clear_flags(crdp, URCU_CALL_RCU_PAUSE);
	urcu__mutex_unlock(&call_rcu_mutex);
	urcu__flavor_fork_parent();
	if (fork_atfork)
		fork_atfork->after_fork_parent(fork_atfork->priv);
	urcu__mutex_unlock(&barrier_mutex);
}

URCU_API void call_rcu_after_fork_child(void)
{
	struct cds_list_head orphans;
	struct call_rcu_data *crdp, *tmp, *dflt;
	struct call_rcu_data **array = per_cpu_crdp;

	/* No worker exists here: detach them all (relaxed: one thread). */
	workers_pid = getpid();
	CDS_INIT_LIST_HEAD(&orphans);
	cds_list_splice(&call_rcu_data_list, &orphans);
	CDS_INIT_LIST_HEAD(&call_rcu_data_list);
	__atomic_store_n(&default_crdp, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&per_cpu_crdp, NULL, __ATOMIC_RELAXED);
	URCU_TLS(thread_crdp) = NULL;
	urcu__mutex_unlock(&call_rcu_mutex);
	urcu__flavor_fork_child();
	if (fork_atfork)
		fork_atfork->after_fork_child(fork_atfork->priv);
	urcu__mutex_unlock(&barrier_mutex);
	if (array)
		urcu__free(array, nr_cpus * sizeof(*array), sizeof(void *));
	cds_list_for_each_entry_safe(crdp, tmp, &orphans, list) {
		if (!cds_wfcq_empty(&crdp->cbs_head, &crdp->cbs_tail)) {
			dflt = get_default_call_rcu_data();
			if (!dflt)
				urcu__die("call_rcu_after_fork_child(): cannot "
					  "create a worker", errno);
			adopt_callbacks(dflt, crdp);
		}
		free_crdp(crdp);
	}
}

/* Stop @crdp's worker, giving it @deadline to drain; true if it did. */
static bool stop_worker_before(struct call_rcu_data *crdp,
		const struct timespec *deadline)
{
	set_flags(crdp, URCU_CALL_RCU_STOP);
	wake_worker(crdp, true);
	return pthread_timedjoin_np(crdp->tid, NULL, deadline) == 0;
}

/*
 * At exit (normal termination or dlclose), let every worker finish the
 * callbacks queued so far, then free it, so that nothing is dropped
 * silently and nothing leaks.  A worker whose grace period cannot end
 * (a reader thread still inside a section) is given up after
 * URCU__EXIT_DRAIN_SEC with a message saying how many callbacks did not
 * run.  The URCU_STATS=1 report comes first, while the workers exist.
 */
__attribute__((destructor))
static void call_rcu_exit(void)
{
	struct cds_list_head workers;
	struct call_rcu_data *crdp, *tmp;
	struct call_rcu_data **array;
	struct timespec deadline;
	bool was_online;

	urcu__flavor_stats_at_exit();
	if (URCU_TLS(in_worker))
		return;		/* exit() from a callback: cannot wait */
	urcu__mutex_lock(&call_rcu_mutex);
	if (!cds_list_empty(&call_rcu_data_list) && workers_pid != getpid()) {
		/* A fork child that skipped the fork hooks: no workers here. */
		urcu__mutex_unlock(&call_rcu_mutex);
		return;
	}
	CDS_INIT_LIST_HEAD(&workers);
	cds_list_splice(&call_rcu_data_list, &workers);
	CDS_INIT_LIST_HEAD(&call_rcu_data_list);
	array = per_cpu_crdp;
	/*
	 * Release/relaxed: later callers start from scratch.  model: none
	 * (call_rcu worker publication, outside the grace-period model).
	 */
	__atomic_store_n(&default_crdp, NULL, __ATOMIC_RELEASE);
	__atomic_store_n(&per_cpu_crdp, NULL, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&call_rcu_mutex);

	was_online = urcu__offline_for_wait();
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += URCU__EXIT_DRAIN_SEC;
	cds_list_for_each_entry_safe(crdp, tmp, &workers, list) {
		if (!stop_worker_before(crdp, &deadline)) {
			fprintf(stderr, "urcu: %lu call_rcu callbacks could not "
				"run before exit: a grace period is blocked\n",
				pending_of(crdp));
			continue;	/* the worker still uses it */
		}
		free_crdp(crdp);
	}
	if (array)
		urcu__free(array, nr_cpus * sizeof(*array), sizeof(void *));
	urcu__online_after_wait(was_online);
}

void urcu__flavor_cb_stats(struct urcu_stats *out)
{
	struct call_rcu_data *crdp;
	uint64_t queued, invoked, pending = 0, workers = 0;

	urcu__mutex_lock(&call_rcu_mutex);
	queued = retired_queued;
	invoked = retired_invoked;
	cds_list_for_each_entry(crdp, &call_rcu_data_list, list) {
		/* Relaxed: statistics. */
		queued += __atomic_load_n(&crdp->queued, __ATOMIC_RELAXED);
		invoked += __atomic_load_n(&crdp->invoked, __ATOMIC_RELAXED);
		pending += pending_of(crdp);
		workers++;
	}
	urcu__mutex_unlock(&call_rcu_mutex);
	out->cb_queued = queued;
	out->cb_invoked = invoked;
	out->cb_pending = pending;
	out->workers = workers;
	/* Relaxed: written under barrier_mutex, which we do not take. */
	out->barrier_calls = __atomic_load_n(&barrier_seq, __ATOMIC_RELAXED);
}

size_t urcu__flavor_cb_workers(
		void (*fn)(const struct urcu_stats_worker *w, void *arg),
		void *arg)
{
	struct call_rcu_data *crdp;
	size_t n = 0;

	urcu__mutex_lock(&call_rcu_mutex);
	cds_list_for_each_entry(crdp, &call_rcu_data_list, list) {
		struct urcu_stats_worker w = {
			.size = sizeof(w),
			.thread = crdp->tid,
			.cpu = crdp->cpu_affinity,
			/* default_crdp only changes under call_rcu_mutex. */
			.flags = (crdp == default_crdp ?
				  URCU_STATS_WORKER_DEFAULT : 0)
				 | (crdp->rt ? URCU_STATS_WORKER_RT : 0),
			/* Relaxed: statistics. */
			.queued = __atomic_load_n(&crdp->queued,
						  __ATOMIC_RELAXED),
			.invoked = __atomic_load_n(&crdp->invoked,
						   __ATOMIC_RELAXED),
			.pending = pending_of(crdp),
			.batches = __atomic_load_n(&crdp->batches,
						   __ATOMIC_RELAXED),
		};

		fn(&w, arg);
		n++;
	}
	urcu__mutex_unlock(&call_rcu_mutex);
	return n;
}
