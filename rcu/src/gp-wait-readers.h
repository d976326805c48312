/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-wait-readers.h: the grace-period wait loop shared by every flavor.
 *
 * The leader of a grace period has already advanced the flavor's epoch to
 * @gp_ctr.  It now waits until no registered reader still "holds" the grace
 * period, a flavor-specific test on the reader's word (inside a section
 * entered under an older epoch, or for QSBR: online without a quiescent
 * state in the new epoch).
 *
 * Waiting is adaptive: re-scan with caa_cpu_relax() for a while, then sleep.
 * How the updater sleeps depends on what readers do at exit
 * (struct urcu__gp_sleep):
 *
 * - Readers the updater interrupts (memb and bp with membarrier(2),
 *   signal) keep their unlock to a compiler barrier and a release store:
 *   nobody wakes the updater.  It polls (gp-poll-sleep.h): a short wait (a
 *   reader preempted for a time slice) costs little latency, a long one (a
 *   reader blocked inside its section) little CPU.
 *
 * - QSBR readers announce quiescent states between requests, not per
 *   section, and can afford a barrier before they look at the futex.  To
 *   sleep safely the updater stores -1 in the futex, runs @exact_mb (a
 *   barrier that orders that store before the next scan on the readers'
 *   side too), re-scans, and only then sleeps, without a timeout.
 *   Readers announcing a quiescent state store their word, run their
 *   barrier, and wake the futex if it is -1 (_urcu_common_wake_up_gp).
 *   That store/barrier/load pair on both sides means a reader cannot pass
 *   unnoticed while the updater goes to sleep.
 *
 * - Readers with real fences (mb; memb and bp without membarrier(2)) look
 *   at the futex as they leave their outermost section, but with no fence
 *   between their exit store and that load: a reader leaving just as the
 *   updater arms the futex may miss it.  The updater arms it the same
 *   way, with a full fence, and sleeps on it for the polling length only:
 *   a wake usually ends the sleep the moment the reader leaves, and a
 *   missed one costs what polling costs.
 *
 * Either sleep has a timeout while a stall warning is pending
 * (gp-stall.h): the loop then wakes up when the warning is due, prints
 * it, and goes on waiting.  Spinning and short waits are unaffected.
 *
 * The registry lock is held while scanning and dropped while sleeping, so
 * threads can register (new readers never hold the grace period) and
 * unregister (they unlink themselves from whichever list holds them) in
 * the meantime.  Readers are moved from the "waiting" list the caller
 * spliced out of the registry to its "done" list as they are seen
 * finished, so each reader is re-read only while it still matters; the
 * caller returns both lists to the registry.
 */
#ifndef URCU_SRC_GP_WAIT_READERS_H
#define URCU_SRC_GP_WAIT_READERS_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <time.h>
#include <linux/futex.h>

#include <urcu/arch.h>
#include <urcu/futex.h>
#include <urcu/list.h>

#include "urcu-die.h"
#include "gp-poll-sleep.h"
#include "gp-stall.h"
#include "gp-stats.h"

/* Scans with cpu_relax before the updater arms the futex and sleeps. */
#define URCU__GP_READER_SPINS	100

/* Move every reader of @waiting that no longer holds @gp_ctr to @done. */
static inline void urcu__gp_scan(struct cds_list_head *waiting,
		struct cds_list_head *done, unsigned long gp_ctr,
		bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr))
{
	struct cds_list_head *pos, *tmp;

	cds_list_for_each_safe(pos, tmp, waiting) {
		if (!holds_gp(pos, gp_ctr))
			cds_list_move(pos, done);
	}
}

/* How urcu__gp_wait_for_readers() sleeps once it is done spinning. */
struct urcu__gp_sleep {
	/*
	 * The flavor's gp futex word, which readers look at to wake the
	 * updater, or NULL when they never do: then poll.  Only ever set to
	 * -1 by the wait (the caller holds the flavor's grace-period mutex,
	 * so one updater at a time).
	 */
	int32_t *futex;
	/*
	 * Barrier between arming @futex and re-scanning @waiting, when
	 * readers always look at it behind a barrier of their own (QSBR):
	 * sleep until woken.  NULL: readers' wakes are hints (no barrier on
	 * their side), so fence, and sleep no longer than a poll.
	 */
	void (*exact_mb)(struct cds_list_head *waiting,
			 struct urcu__stall_watch *stall);
	/* Statistic: sleeps a reader ended (gp-stats.h); gp mutex held. */
	unsigned long *reader_wakeups;
};

/* Arm @how->futex before a last scan and a sleep on it. */
static inline void urcu__gp_sleep_arm(const struct urcu__gp_sleep *how,
		struct cds_list_head *waiting, struct urcu__stall_watch *stall)
{
	/*
	 * The barrier below orders this store before the re-scan, paired
	 * for QSBR with the reader-side barrier between a reader's store of
	 * its word and its futex load.  Readers with real fences load the
	 * futex before they leave, with no barrier that pairs with ours: it
	 * only narrows the window in which a reader leaving as we arm misses
	 * us.  Release: pairs with the acquire load of the futex in
	 * _urcu_common_wake_up_gp_hint(), which then sees the epoch this
	 * grace period waits for.  model: tags.pml UP_ARM_REL, then
	 * MB_UP_QSBR_ARM (exact_mb) or MB_UP_ARM (updater.pml arm).
	 */
	__atomic_store_n(how->futex, -1, __ATOMIC_RELEASE);
	if (how->exact_mb)
		how->exact_mb(waiting, stall);
	else
		cmm_smp_mb();
}

/*
 * Sleep on @how->futex, armed; registry lock not held.  A reader that
 * saw it armed reset it to 0 (_urcu_common_wake_up_gp), so finding it at 0
 * afterwards means a reader ended or cut short this sleep: counted.
 */
static inline void urcu__gp_sleep_on_futex(const struct urcu__gp_sleep *how,
		uint64_t *poll_ns, struct urcu__stall_watch *stall)
{
	struct timespec timeout;

	if (how->exact_mb) {
		/*
		 * Returns at once unless the futex still reads -1, and at
		 * the latest when a stall warning is due.
		 */
		(void) futex_noasync(how->futex, FUTEX_WAIT, -1,
				     urcu__stall_sleep_timeout(stall, &timeout),
				     NULL, 0);
	} else {
		/*
		 * A sleep with a timeout: readers' wakes are hints they may
		 * miss.  model: tags.pml HINT_TIMEOUT (updater.pml futex_sleep).
		 */
		urcu__gp_poll_sleep(poll_ns, stall, how->futex);
	}
	/* Relaxed: a reader's wake only tells us to re-scan. */
	if (__atomic_load_n(how->futex, __ATOMIC_RELAXED) == 0)
		urcu__gp_stat_add(how->reader_wakeups, 1);
}

/*
 * Wait until no reader of @waiting holds @gp_ctr, moving each to @done as
 * it is seen finished.  Called with @registry_lock held; returns with it
 * held.  @how says how to sleep once spinning is over; @stall watches
 * this grace period for stall warnings.
 */
static inline void urcu__gp_wait_for_readers(struct cds_list_head *waiting,
		struct cds_list_head *done,
		pthread_mutex_t *registry_lock, unsigned long gp_ctr,
		bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr),
		const struct urcu__gp_sleep *how,
		struct urcu__stall_watch *stall)
{
	unsigned int spins = 0;
	bool armed = false, ever_armed = false;
	uint64_t poll_ns = URCU__GP_POLL_MIN_NS;

	for (;;) {
		urcu__gp_scan(waiting, done, gp_ctr, holds_gp);
		if (cds_list_empty(waiting))
			break;
		if (spins < URCU__GP_READER_SPINS) {
			spins++;
			caa_cpu_relax();
			continue;
		}
		/*
		 * Timed from here: a grace period that ends within the spin
		 * above is not timed at all (gp-stats.h).
		 */
		(void) urcu__stall_watch_start(stall);
		if (!how->futex) {
			urcu__mutex_unlock(registry_lock);
			urcu__gp_poll_sleep(&poll_ns, stall, NULL);
			urcu__mutex_lock(registry_lock);
			urcu__stall_check(stall, waiting, gp_ctr, holds_gp);
			continue;
		}
		if (!armed) {
			urcu__gp_sleep_arm(how, waiting, stall);
			armed = ever_armed = true;
			continue;	/* re-scan once before sleeping */
		}
		urcu__mutex_unlock(registry_lock);
		urcu__gp_sleep_on_futex(how, &poll_ns, stall);
		urcu__mutex_lock(registry_lock);
		armed = false;		/* a waker reset it, or re-arm anyway */
		urcu__stall_check(stall, waiting, gp_ctr, holds_gp);
	}
	if (ever_armed) {
		/* Relaxed: readers only use it to decide whether to wake us. */
		__atomic_store_n(how->futex, 0, __ATOMIC_RELAXED);
	}
}

#endif /* URCU_SRC_GP_WAIT_READERS_H */
