/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-observe.h: grace periods that leave busy readers alone.
 *
 * In the memb, bp and signal flavors the master barrier interrupts every
 * running reader: an IPI from membarrier(2), or SIGRCU and its handler.
 * On a reader that runs sections back to back that costs microseconds per
 * grace period, so an updater calling synchronize_rcu() in a loop takes
 * most of the reader's CPU.  Yet a busy reader tells us by itself when it
 * no longer needs the barrier: once the updater has advanced the epoch, the
 * reader's next outermost rcu_read_lock() copies the new epoch into its
 * word, and the epoch stays there after the section ends.  Seeing the new
 * epoch in a reader's word is enough to be done with that reader:
 *
 *  - its sections from then on loaded the new epoch (or a later one) with
 *    acquire, from the updater's release store that follows every removal
 *    made before the grace period (case 3 in gp-synchronize.h);
 *  - its earlier sections ended before the store we read: each ended with
 *    a release store to the word, and every later store to the word is a
 *    release too (urcu-common.h), so our acquire load of a word holding
 *    the new epoch puts all of them before whatever follows the grace
 *    period.
 *
 * So, with the epoch advanced, the updater first watches the readers for
 * a few looks (paced, below).  Those seen under the new epoch are done;
 * only the others get the master barrier and the ordinary wait
 * (gp-wait-readers.h).  The barrier coming after the epoch store instead
 * of before changes nothing in the store-buffer argument: the removals
 * precede both.
 *
 * The watch is worth it only for readers that run sections.  A reader
 * whose word shows no section since the previous epoch began (the
 * previous grace period) is likely blocked elsewhere, in epoll_wait() or
 * on a lock; it would not move on by itself.  Such a reader needs no
 * barrier either once it is "synced": a grace period ran the barrier on it
 * after its last section began, at an epoch newer than the one in its
 * word (r->synced_epoch: set here, reset at registration, both under the
 * registry lock).  From that barrier on, its loads of the grace-period
 * word return the synced epoch or a later one, so its next section loads
 * an epoch other than the one in its word.  If that is the new epoch,
 * acquire makes the removals visible to the section; if not, the section
 * is the reader's first of an epoch, and the reader side runs a full
 * fence there (_urcu_common_read_lock).  "Next section" counts from the
 * section's first store to its word, which comes before its load of the
 * grace-period word: a barrier landing between the two finds the store
 * already made, and the wait that follows the barrier sees it, so such a
 * reader is never passed over on the strength of an older word.  With the updater's fence between
 * the epoch store and its looks, that is the store-buffer pattern with a
 * fence on each side: either a look sees the reader's new section, and it
 * is waited for, or the section's loads see the removals.  So an idle
 * reader is interrupted by at most one grace period, the first after its
 * last section; a busy reader pays one fence per grace period.  The watch
 * ends as soon as only idle readers not yet synced are left: they get the
 * barrier.  A reader inside a section entered under the old epoch is
 * watched: the grace period waits for it anyway.
 */
#ifndef URCU_SRC_GP_OBSERVE_H
#define URCU_SRC_GP_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "urcu-die.h"
#include "gp-poll-sleep.h"
#include "gp-stats.h"

/*
 * Looking at a busy reader's word costs that reader a cache miss (its next
 * store must take the line back), and the new epoch another one.  Looks
 * are paced so that this stays a few percent of a busy reader's time even
 * when synchronize_rcu() runs back to back: the first look comes
 * URCU__GP_OBSERVE_FIRST_NS after the epoch store (time for a busy reader
 * to pass through a section), but no sooner than the flavor's gap
 * (urcu__gp_ops.watch_gap_ns) after the previous look, and at most
 * URCU__GP_OBSERVE_LOOKS looks are taken before falling back to the
 * barrier.  A look at an idle reader costs it nothing, so when the
 * previous grace period found every reader idle, the first look comes at
 * once, and if it finds them idle again the barrier follows without
 * waiting.
 *
 * The gap depends on what the barrier asks of a reader that is not
 * running, which is the usual reason for a busy reader not to have moved
 * on yet (more runnable threads than CPUs, the updater among them):
 *
 *  - membarrier(2) (memb, bp) only reaches the CPUs that run a thread of
 *    the process; a preempted reader is left alone and the grace period
 *    does not wait for it.  The gap is URCU__GP_OBSERVE_GAP_NS, spun.
 *  - SIGRCU (signal) must be handled by the reader itself: the grace
 *    period cannot end before a preempted reader runs again, and
 *    spinning meanwhile keeps it off the CPU it needs, so that such a
 *    grace period often ends up signalling it, at the price of two
 *    context switches and a signal frame.  The gap is
 *    URCU__GP_OBSERVE_SLEPT_GAP_NS, slept: the preempted reader gets the
 *    CPU, enters a section under the new epoch, and needs no signal.
 *    Back to back with two busy readers on two CPUs, the updater then
 *    runs about 7000 grace periods/s, signals a reader in under 0.1% of
 *    them, and leaves the readers over 90% of both CPUs; spinning, it ran
 *    two to five times as many, signalled in a fifth of them and left
 *    the readers three quarters (docs/performance.md).  A single synchronize_rcu() is not slowed:
 *    its first look comes URCU__GP_OBSERVE_FIRST_NS after it starts.
 *
 * A wait of URCU__GP_OBSERVE_SLEEP_MIN_NS or more is slept
 * (urcu__gp_sleep_tight()), a shorter one spun: a sleep costs a few
 * microseconds of system calls and wakeup itself.
 */
#define URCU__GP_OBSERVE_FIRST_NS	1000
#define URCU__GP_OBSERVE_GAP_NS		(10 * 1000)
#define URCU__GP_OBSERVE_SLEPT_GAP_NS	(100 * 1000)
#define URCU__GP_OBSERVE_SLEEP_MIN_NS	(20 * 1000)
#define URCU__GP_OBSERVE_LOOKS		2
/*
 * Synced epochs older than this (in reader-word units) are ignored, so
 * that the signed comparison with a reader word stays exact on 32-bit
 * targets; the next barrier on the reader renews it.
 */
#define URCU__GP_SYNCED_MAX_AGE		(1UL << (CAA_BITS_PER_LONG - 3))

/* What the watch remembers between grace periods (gp mutex held). */
struct urcu__gp_observer {
	uint64_t last_look_ns;	/* time of the last look */
	bool saw_busy;		/* the last grace period found a busy reader */
};

/* Epoch bits of a reader word or of the grace-period word. */
static inline unsigned long urcu__epoch_of(unsigned long word)
{
	return word & ~URCU_GP_CTR_NEST_MASK;
}

/*
 * Does idle reader @r, whose word @v shows no section, need no barrier?
 * True when its last section began before its synced epoch: its next
 * section will load a newer epoch than @v's and so take the fence of the
 * first section of an epoch (_urcu_common_read_lock).
 */
static inline bool urcu__gp_reader_synced(const struct urcu_reader *r,
		unsigned long v, unsigned long now)
{
	unsigned long synced = r->synced_epoch;

	return synced && now - synced <= URCU__GP_SYNCED_MAX_AGE
	       && urcu_gp_ctr_before(v, synced);
}

/*
 * One look: move the readers of @waiting whose word shows epoch @gp_ctr
 * (or later) to @done, and note in @obs whether one of them or of those
 * left looks busy: inside a section, or last entered one during the
 * previous epoch.  Returns whether a busy one is left in @waiting.
 */
static inline bool urcu__gp_observe_look(struct cds_list_head *waiting,
		struct cds_list_head *done, unsigned long gp_ctr,
		unsigned long epoch_step, struct urcu__gp_observer *obs)
{
	unsigned long now = urcu__epoch_of(gp_ctr);
	struct cds_list_head *pos, *tmp;
	bool busy = false;

	cds_list_for_each_safe(pos, tmp, waiting) {
		struct urcu_reader *r =
			cds_list_entry(pos, struct urcu_reader, node);
		/*
		 * Acquire: pairs with the release stores of the reader word
		 * (_urcu_common_read_lock/unlock): a word showing the new
		 * epoch puts the reader's earlier sections before our return.
		 * model: tags.pml UP_LOOK_ACQ (updater.pml look).
		 */
		unsigned long v = __atomic_load_n(&r->ctr, __ATOMIC_ACQUIRE);
		long age = (long) (now - urcu__epoch_of(v));

		if (age <= 0) {
			cds_list_move(pos, done);
			obs->saw_busy = true;
		} else if (v & URCU_GP_CTR_NEST_MASK) {
			busy = true;
		} else if (urcu__gp_reader_synced(r, v, now)) {
			cds_list_move(pos, done);
		} else if (age <= (long) epoch_step) {
			busy = true;
		}
	}
	if (busy)
		obs->saw_busy = true;
	return busy;
}

/*
 * The master barrier just ran on every reader of @waiting after the epoch
 * became @gp_ctr: from now on their loads of the grace-period word return
 * @gp_ctr or later.
 */
static inline void urcu__gp_mark_synced(struct cds_list_head *waiting,
		unsigned long gp_ctr)
{
	struct urcu_reader *r;

	cds_list_for_each_entry(r, waiting, node)
		r->synced_epoch = urcu__epoch_of(gp_ctr);
}

/*
 * Wait until @at (ns) before the next look: spin, or sleep with
 * @registry_lock dropped, as the polls of the wait for readers do
 * (gp-wait-readers.h): a reader may unregister meanwhile, unlinking
 * itself from the list being watched, and each look walks that list
 * afresh.  Returns the time of the look.
 */
static inline uint64_t urcu__gp_observe_wait(uint64_t at,
		pthread_mutex_t *registry_lock)
{
	uint64_t t;

	while ((t = urcu__now_ns()) < at) {
		if (at - t >= URCU__GP_OBSERVE_SLEEP_MIN_NS) {
			urcu__mutex_unlock(registry_lock);
			urcu__gp_sleep_tight(at - t, NULL);
			urcu__mutex_lock(registry_lock);
		} else {
			caa_cpu_relax();
		}
	}
	return t;
}

/*
 * Watch @waiting (@registry_lock held) after the epoch became @gp_ctr at
 * @start_ns, looking no sooner than @gap_ns after the previous look,
 * moving readers that move on by themselves to @done; returns with
 * @waiting holding those that did not.
 */
static inline void urcu__gp_observe(struct cds_list_head *waiting,
		struct cds_list_head *done, unsigned long gp_ctr,
		unsigned long epoch_step, uint64_t start_ns, uint64_t gap_ns,
		pthread_mutex_t *registry_lock, struct urcu__gp_observer *obs)
{
	uint64_t at = start_ns + URCU__GP_OBSERVE_FIRST_NS;
	int looks = 0;

	/*
	 * Orders the removals and the epoch store before every look: pairs
	 * with the fence of a reader's first section of an epoch, so a
	 * synced reader seen idle either shows us its section or its loads
	 * see the removals.  model: tags.pml MB_UP_OBSERVE (updater.pml
	 * gp_run).
	 */
	cmm_smp_mb();

	if (!obs->saw_busy) {
		obs->last_look_ns = start_ns;
		if (!urcu__gp_observe_look(waiting, done, gp_ctr, epoch_step,
					   obs))
			return;
		looks++;
	} else if (at < obs->last_look_ns + gap_ns) {
		at = obs->last_look_ns + gap_ns;
	}
	obs->saw_busy = false;
	for (; looks < URCU__GP_OBSERVE_LOOKS; looks++) {
		uint64_t t = urcu__gp_observe_wait(at, registry_lock);

		obs->last_look_ns = t;
		if (!urcu__gp_observe_look(waiting, done, gp_ctr, epoch_step,
					   obs))
			break;
		at = t + gap_ns;
	}
}

#endif /* URCU_SRC_GP_OBSERVE_H */
