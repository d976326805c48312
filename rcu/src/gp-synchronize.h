/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-synchronize.h: one grace period, shared by every flavor.
 *
 * Derivation.  A grace period must not end before every read-side section
 * that was running when it started has ended.  The updater:
 *
 *   (a) advances the epoch with a release store;
 *   (b) runs the flavor's "master" barrier: a full fence on its own CPU
 *       (mb, qsbr) or on every CPU running a thread of the process (memb
 *       via membarrier, signal via SIGRCU, bp);
 *   (c) waits until no registered reader holds the new epoch back
 *       (urcu__gp_wait_for_readers), reading reader words with acquire.
 *
 * Where (b) interrupts readers, the updater first watches them between (a)
 * and (b), and spares the barrier and the wait to every reader it sees
 * enter a section under the new epoch by itself, and to idle readers that
 * an earlier barrier already synced (gp-observe.h).
 *
 * A reader entering a section stores its word, then runs its own barrier,
 * then loads the protected data.  Take a reader section S running when the
 * updater calls synchronize_rcu(), and a removal R the updater made before:
 *
 *   - If the scan in (c) reads S's word, S entered under an epoch older
 *     than the new one, and (c) waits for S's release store at exit; the
 *     acquire load that sees it puts all of S before the return.
 *   - If the scan reads a word older than S's entry (S's store not yet
 *     visible), then by the store-buffer argument over the barriers of (b)
 *     and of the reader, S's loads come after R, so S cannot hold a
 *     reference to what R removed.
 *   - If S loaded the new epoch, that load read from (a), which follows R:
 *     acquire ordering makes R visible to S.
 *
 * No barrier is needed after (c): the acquire loads already order the
 * readers' sections before whatever the caller does next (e.g. free()).
 *
 * Invariants:
 *  1. Only the holder of the flavor's gp mutex writes gp->ctr and sets
 *     gp->futex (QSBR) or gp->wake (the others) to -1 (gp-wait-readers.h).
 *  2. The registry lock is held whenever a reader list is walked.
 *  3. gp->ctr never takes the value 0 and its nesting bits never change,
 *     so "word == 0" (or zero nesting bits) always means "not in a section".
 *  4. With no registered reader no section can be running, and the whole
 *     grace period reduces to the lock handoffs: a thread registering later
 *     takes the registry lock after us and so sees everything we did.
 */
#ifndef URCU_SRC_GP_SYNCHRONIZE_H
#define URCU_SRC_GP_SYNCHRONIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>

#include <urcu/static/urcu-common.h>

#include "urcu-die.h"
#include "gp-observe.h"
#include "gp-stall.h"
#include "gp-stats.h"
#include "gp-waiters.h"
#include "gp-wait-readers.h"
#include "reader-registry.h"

/*
 * Programs that inline the read side access struct urcu_gp directly, and
 * an executable holds its own copy of it (a copy relocation), sized as its
 * headers said: the size and the offsets of the fields such programs use
 * stay put, and new fields go into the padding.
 */
_Static_assert(offsetof(struct urcu_gp, futex) == sizeof(unsigned long)
	       && sizeof(struct urcu_gp) == CAA_CACHE_LINE_SIZE,
	       "struct urcu_gp: layout of the inlined read side changed");

/* What differs between flavors in a grace period. */
struct urcu__gp_ops {
	/*
	 * Step (b); @readers: those the grace period still waits for,
	 * registry lock held.  @stall: for a barrier that waits for readers
	 * (the signal flavor's, which drops the lock while it sleeps, as
	 * the wait for readers does).
	 */
	void (*master_mb)(struct cds_list_head *readers,
			  struct urcu__stall_watch *stall);
	/* Does this reader still hold the grace period for epoch @gp_ctr? */
	bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr);
	/*
	 * Barrier between arming the futex and re-scanning @waiting, for a
	 * flavor whose readers always look at the futex behind a barrier
	 * (QSBR).  NULL for the others: readers that the updater does not
	 * interrupt wake it as a hint, the rest never (struct
	 * urcu__gp_sleep in gp-wait-readers.h).
	 */
	void (*sleep_mb)(struct cds_list_head *waiting,
			 struct urcu__stall_watch *stall);
	/*
	 * Whether @master_mb interrupts running readers (membarrier(2),
	 * SIGRCU), so that readers are watched first (gp-observe.h); NULL
	 * when it is a local fence.
	 */
	bool (*interrupts_readers)(void);
	/* Least time between two looks of that watch (gp-observe.h), ns. */
	uint64_t watch_gap_ns;
	/* Epoch increment (keeps the constant low bits of gp->ctr). */
	unsigned long epoch_step;
	/* Flavor name, and what a reader holding a grace period is doing. */
	const char *name;
	const char *holding;
	/* Reader words count section nesting (all flavors but QSBR). */
	bool section_words;
};

struct urcu__gp_state {
	pthread_mutex_t lock;		/* serialises grace periods */
	struct urcu__gp_waiters waiters;
	/*
	 * Grace-period sequence: odd while one runs, incremented at its start
	 * and at its end.  Written under @lock, read by the polling API.
	 */
	unsigned long seq;
	/* Counters, written under @lock (gp-stats.h). */
	struct urcu__gp_stats stats;
	/*
	 * Stall timeout in ns (0: off), set once at initialisation; accessed
	 * with relaxed atomics in case a grace period runs that early.
	 */
	uint64_t stall_timeout_ns;
	/* State of the watch over readers (gp-observe.h), under @lock. */
	struct urcu__gp_observer observer;
};

#define URCU__GP_STATE_INIT	{ .lock = PTHREAD_MUTEX_INITIALIZER }

/*
 * holds_gp test of the flavors with read-side sections (memb, mb, signal,
 * bp): the reader is inside a section entered under an epoch older than
 * @gp_ctr.
 */
static inline bool urcu__section_holds_gp(struct cds_list_head *node,
		unsigned long gp_ctr)
{
	struct urcu_reader *r = cds_list_entry(node, struct urcu_reader, node);
	/*
	 * Acquire: pairs with the release store in _urcu_common_read_unlock,
	 * so a section seen finished happens before the caller's next step.
	 * model: tags.pml UP_SCAN_ACQ (updater.pml scan).
	 */
	unsigned long v = __atomic_load_n(&r->ctr, __ATOMIC_ACQUIRE);

	return (v & URCU_GP_CTR_NEST_MASK) && urcu_gp_ctr_before(v, gp_ctr);
}

/*
 * Start the grace period in the sequence the polling API and the
 * statistics read (gp mutex held): make it odd.
 */
static inline void urcu__gp_seq_begin(struct urcu__gp_state *st)
{
	/*
	 * Seq_cst: a poller that loaded the previous (even) value before this
	 * store had already made its removals visible (its fence is in
	 * start_poll_synchronize_rcu), so the grace period that follows
	 * covers them.  As a release it also publishes the start time to
	 * urcu__gp_seq().  model: none (part of the registry lock's
	 * acquisition in updater.pml gp_run; the polling API itself is not
	 * modelled).
	 */
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_SEQ_CST);
}

/*
 * Run one grace period as the leader, gp mutex held.  @stall->start_ns
 * ends up as the time it started waiting for readers
 * (urcu__stall_watch_start()), or stays 0 when it never did: no reader was
 * registered (invariant 4), the caller was the only one, or, in a flavor
 * that does not interrupt readers, none held the grace period past the
 * first spin of the wait.  Flavors that interrupt readers start the clock
 * before watching them: the watch is paced by it (gp-observe.h).
 * @caller: the calling thread's reader record, registered or not.
 */
static inline void urcu__gp_run(struct urcu__gp_state *st,
		struct urcu__registry *reg, struct urcu_gp *gp,
		const struct urcu__gp_ops *ops, struct urcu__stall_watch *stall,
		struct urcu_reader *caller)
{
	CDS_LIST_HEAD(waiting);
	CDS_LIST_HEAD(done);
	struct urcu__gp_sleep how;
	unsigned long next;
	bool interrupts;

	urcu__mutex_lock(&reg->lock);
	urcu__gp_stats_begin(&st->stats);
	urcu__gp_seq_begin(st);
	if (cds_list_empty(&reg->readers))
		goto out;	/* invariant 4 */
	interrupts = ops->interrupts_readers && ops->interrupts_readers();
	/* Plain read: we are the only writer (invariant 1). */
	next = gp->ctr + ops->epoch_step;
	/*
	 * Release: pairs with the acquire load of gp->ctr in the read side
	 * (case 3 of the derivation above, and gp-observe.h).  model:
	 * tags.pml UP_GP_REL (updater.pml gp_run).
	 */
	__atomic_store_n(&gp->ctr, next, __ATOMIC_RELEASE);
	cds_list_splice(&reg->readers, &waiting);
	CDS_INIT_LIST_HEAD(&reg->readers);
	if (interrupts) {
		/*
		 * The caller's own record, when registered: it is outside any
		 * section (checked by the flavor), and its own accesses are
		 * ordered by program order, so it needs neither the barrier
		 * nor watching.
		 */
		if (caller->registered)
			cds_list_move(&caller->node, &done);
		if (!cds_list_empty(&waiting))
			urcu__gp_observe(&waiting, &done, next,
					 ops->epoch_step,
					 urcu__stall_watch_start(stall),
					 ops->watch_gap_ns, &reg->lock,
					 &st->observer);
	}
	if (!cds_list_empty(&waiting)) {
		/*
		 * Readers the updater does not interrupt look at a futex
		 * word at exit (QSBR's futex at quiescent states, the wake
		 * word as they leave a section with real fences); the rest
		 * never do.
		 */
		how = (struct urcu__gp_sleep) {
			.futex = interrupts ? NULL
				 : ops->sleep_mb ? &gp->futex : &gp->wake,
			.exact_mb = ops->sleep_mb,
			.reader_wakeups = &st->stats.reader_wakeups,
		};
		ops->master_mb(&waiting, stall);
		if (interrupts) {
			urcu__gp_stat_add(&st->stats.reader_barriers, 1);
			urcu__gp_mark_synced(&waiting, next);
		}
		urcu__gp_wait_for_readers(&waiting, &done, &reg->lock, next,
					  ops->holds_gp, &how, stall);
	}
	cds_list_splice(&done, &reg->readers);
out:
	urcu__mutex_unlock(&reg->lock);
}

/*
 * synchronize_rcu() body: share a grace period with concurrent callers.
 * @caller: the calling thread's reader record.
 */
static inline void urcu__synchronize(struct urcu__gp_state *st,
		struct urcu__registry *reg, struct urcu_gp *gp,
		const struct urcu__gp_ops *ops, struct urcu_reader *caller)
{
	struct urcu__gp_waiter self;
	struct urcu__gp_waiter *batch;
	struct urcu__stall_watch stall;

	if (!urcu__gp_waiters_push(&st->waiters, &self)) {
		urcu__gp_waiter_wait(&self);
		return;
	}
	urcu__mutex_lock(&st->lock);
	batch = urcu__gp_waiters_detach(&st->waiters);
	stall = (struct urcu__stall_watch) {
		/* Relaxed: a setting written once at initialisation. */
		.timeout_ns = __atomic_load_n(&st->stall_timeout_ns,
					      __ATOMIC_RELAXED),
		.flavor = ops->name,
		.holding = ops->holding,
		.section_words = ops->section_words,
		.warnings = &st->stats.stall_warnings,
		.stats_start_ns = &st->stats.start_ns,
	};
	urcu__gp_run(st, reg, gp, ops, &stall, caller);
	/* Before the wake-ups: a woken caller sees itself counted. */
	urcu__gp_stats_end(&st->stats, stall.start_ns, batch);
	/*
	 * Release: pairs with the acquire load in urcu__gp_seq().  model:
	 * tags.pml WT_SEQ_REL (waiters.pml caller).
	 */
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_RELEASE);
	urcu__mutex_unlock(&st->lock);
	urcu__gp_waiters_wake_batch(batch, &self);
}

/*
 * Current grace-period sequence.  Acquire: a caller that sees a grace
 * period completed also sees everything that grace period waited for.
 * model: none (the polling API, poll.c, is not modelled).
 */
static inline unsigned long urcu__gp_seq(struct urcu__gp_state *st)
{
	return __atomic_load_n(&st->seq, __ATOMIC_ACQUIRE);
}

/*
 * Fork handling of the grace-period machinery.  Before fork() the caller
 * takes both locks, so no grace period is half done in the child.  The
 * child only has the forking thread: readers of other threads and queued
 * synchronize_rcu() callers belonged to threads that were not copied, and
 * are dropped.
 */
static inline void urcu__gp_fork_prepare(struct urcu__gp_state *st,
		struct urcu__registry *reg)
{
	urcu__mutex_lock(&st->lock);
	urcu__mutex_lock(&reg->lock);
}

static inline void urcu__gp_fork_parent(struct urcu__gp_state *st,
		struct urcu__registry *reg)
{
	urcu__mutex_unlock(&reg->lock);
	urcu__mutex_unlock(&st->lock);
}

static inline void urcu__gp_fork_child(struct urcu__gp_state *st,
		struct urcu__registry *reg, struct urcu_gp *gp,
		struct urcu_reader *self)
{
	struct urcu_reader *r, *tmp;
	unsigned long kept = 0;

	cds_list_for_each_entry_safe(r, tmp, &reg->readers, node) {
		if (r != self) {
			cds_list_del(&r->node);
			r->registered = 0;
		} else {
			kept++;
		}
	}
	/* The forking thread has a kernel thread id of its own here. */
	self->os_tid = (int32_t) syscall(SYS_gettid);
	/* Relaxed: the child is single-threaded here. */
	__atomic_store_n(&reg->nr_readers, kept, __ATOMIC_RELAXED);
	__atomic_store_n(&st->waiters.head, NULL, __ATOMIC_RELAXED);
	__atomic_store_n(&gp->futex, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&gp->wake, 0, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&reg->lock);
	urcu__mutex_unlock(&st->lock);
}

#endif /* URCU_SRC_GP_SYNCHRONIZE_H */
