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
 *
 * The flavors with read-side sections (memb, mb, signal, bp) pass no
 * futex: their unlock is kept to a barrier and a release store, so nobody
 * wakes the updater.  It polls instead (gp-poll-sleep.h): a short wait (a
 * reader preempted for a time slice) costs little latency, a long one (a
 * reader blocked inside its section) little CPU.
 *
 * QSBR sleeps on its futex word: its readers announce quiescent states
 * between requests, not per section, and can afford to look.  To sleep
 * safely the updater stores -1 in the futex, runs @sleep_mb (a barrier
 * that orders that store before the next scan on the readers' side too),
 * re-scans, and only then sleeps.  Readers announcing a quiescent state
 * store their word, run their barrier, and wake the futex if it is -1
 * (_urcu_common_wake_up_gp).  That store/barrier/load pair on both sides
 * means a reader cannot pass unnoticed while the updater goes to sleep.
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

#include "die.h"
#include "gp-poll-sleep.h"
#include "gp-stall.h"

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

/*
 * Wait until no reader of @waiting holds @gp_ctr, moving each to @done as
 * it is seen finished.  Called with @registry_lock held; returns with it
 * held.  @futex is the flavor's gp futex word, only ever set to -1 by this
 * function (the caller holds the flavor's grace-period mutex, so one
 * updater at a time), or NULL when readers never wake the updater (bp):
 * then poll.  @stall watches this grace period for stall warnings.
 */
static inline void urcu__gp_wait_for_readers(struct cds_list_head *waiting,
		struct cds_list_head *done,
		pthread_mutex_t *registry_lock, int32_t *futex,
		unsigned long gp_ctr,
		bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr),
		void (*sleep_mb)(struct cds_list_head *waiting,
				 struct urcu__stall_watch *stall),
		struct urcu__stall_watch *stall)
{
	struct timespec timeout;
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
		if (!futex) {
			urcu__mutex_unlock(registry_lock);
			urcu__gp_poll_sleep(&poll_ns, stall);
			urcu__mutex_lock(registry_lock);
			urcu__stall_check(stall, waiting, gp_ctr, holds_gp);
			continue;
		}
		if (!armed) {
			/*
			 * Relaxed store: @sleep_mb orders it before the
			 * re-scan, paired with the reader-side barrier between
			 * a reader's exit store and its futex load.
			 */
			__atomic_store_n(futex, -1, __ATOMIC_RELAXED);
			sleep_mb(waiting, stall);
			armed = ever_armed = true;
			continue;	/* re-scan once before sleeping */
		}
		urcu__mutex_unlock(registry_lock);
		/*
		 * Returns at once unless the futex still reads -1, and at
		 * the latest when a stall warning is due.
		 */
		(void) futex_noasync(futex, FUTEX_WAIT, -1,
				     urcu__stall_sleep_timeout(stall, &timeout),
				     NULL, 0);
		urcu__mutex_lock(registry_lock);
		armed = false;		/* a waker reset it, or re-arm anyway */
		urcu__stall_check(stall, waiting, gp_ctr, holds_gp);
	}
	if (ever_armed) {
		/* Relaxed: readers only use it to decide whether to wake us. */
		__atomic_store_n(futex, 0, __ATOMIC_RELAXED);
	}
}

#endif /* URCU_SRC_GP_WAIT_READERS_H */
