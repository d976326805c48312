/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-stats.h: update-side counters of one flavor's grace periods, read by
 * urcu_<flavor>_stats() (stats.c).
 *
 * Every counter here is written only by the holder of the flavor's
 * grace-period mutex (the leader of a grace period), so a writer's plain
 * read of the old value is ordered after the previous writer by that
 * mutex.  The writes themselves are relaxed atomic stores, and readers of
 * the statistics use relaxed loads without taking the mutex (a stalled
 * grace period holds it): a snapshot is exact per counter, not across
 * counters.  Cost per grace period: a walk of the detached batch of
 * waiters, and two clock_gettime(CLOCK_MONOTONIC) calls (vDSO) once the
 * grace period really waits for readers (urcu__stall_watch_start()): for
 * memb, bp and signal from the start, for the others only after a reader
 * held it through a short spin (gp-wait-readers.h).  At about 30 ns each
 * the two calls would otherwise be most of the cost of a grace period
 * that waits for nobody, or for a section about to end.  Such grace
 * periods count 0 ns, so the totals understate by at most that spin (a
 * few microseconds) per grace period.  Nothing here is touched by
 * readers.
 */
#ifndef URCU_SRC_GP_STATS_H
#define URCU_SRC_GP_STATS_H

#include <stdint.h>
#include <time.h>

#include "gp-waiters.h"

struct urcu__gp_stats {
	/*
	 * CLOCK_MONOTONIC time the grace period in progress started
	 * waiting for readers; 0 until then (urcu__stall_watch_start()).
	 */
	uint64_t start_ns;
	/* Longest and summed duration of completed grace periods. */
	uint64_t max_ns;
	uint64_t total_ns;
	/* synchronize_rcu() callers released, and those that did not lead. */
	unsigned long sync_calls;
	unsigned long sync_shared;
	/* Grace periods that printed a stall warning (gp-stall.h). */
	unsigned long stall_warnings;
	/*
	 * Grace periods that interrupted running readers (membarrier(2),
	 * SIGRCU) because some reader did not move on by itself
	 * (gp-observe.h).
	 */
	unsigned long reader_barriers;
	/*
	 * Sleeps of the wait for readers that a reader ended by waking the
	 * updater (gp-wait-readers.h).
	 */
	unsigned long reader_wakeups;
};

static inline uint64_t urcu__now_ns(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* @ns nanoseconds as a relative timeout for nanosleep() or FUTEX_WAIT. */
static inline struct timespec urcu__ns_to_timespec(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t) (ns / 1000000000u),
		.tv_nsec = (long) (ns % 1000000000u),
	};

	return ts;
}

/* Add @n to a counter of this file; grace-period mutex held. */
static inline void urcu__gp_stat_add(unsigned long *counter, unsigned long n)
{
	/* Relaxed: a statistic; the mutex orders writers (see above). */
	__atomic_store_n(counter, *counter + n, __ATOMIC_RELAXED);
}

/*
 * A grace period starts, not timed yet: a start time of 0 tells
 * urcu_<flavor>_stats() so.  Called before the grace-period sequence
 * turns odd: that store is a release, so a reader of the statistics that
 * sees the odd value sees this 0 or the start time stored later by
 * urcu__stall_watch_start(), never the previous grace period's.
 */
static inline void urcu__gp_stats_begin(struct urcu__gp_stats *s)
{
	/* Relaxed: published by the release of the sequence store. */
	__atomic_store_n(&s->start_ns, 0, __ATOMIC_RELAXED);
}

/*
 * The grace period timed from @start (0: untimed, counted as 0 ns)
 * served the detached @batch (the leader's own record included).  The
 * batch's records stay valid until their owners are woken, which happens
 * after this.
 */
static inline void urcu__gp_stats_end(struct urcu__gp_stats *s,
		uint64_t start, const struct urcu__gp_waiter *batch)
{
	uint64_t ns = start ? urcu__now_ns() - start : 0;
	unsigned long callers = 0;

	for (; batch; batch = batch->next)
		callers++;
	urcu__gp_stat_add(&s->sync_calls, callers);
	if (callers > 1)
		urcu__gp_stat_add(&s->sync_shared, callers - 1);
	/* Relaxed: statistics, as above. */
	__atomic_store_n(&s->total_ns, s->total_ns + ns, __ATOMIC_RELAXED);
	if (ns > s->max_ns)
		__atomic_store_n(&s->max_ns, ns, __ATOMIC_RELAXED);
}

#endif /* URCU_SRC_GP_STATS_H */
