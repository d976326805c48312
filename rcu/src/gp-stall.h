/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-stall.h: stall warnings, for grace periods that wait too long.
 *
 * When the leader of a grace period has waited for readers longer than
 * the stall timeout (URCU_STALL_TIMEOUT seconds, fractional allowed, 0
 * disables; default URCU__STALL_DEFAULT_S), it prints once, to stderr,
 * every registered thread that still holds the grace period, then keeps
 * waiting.  Only the slow path of the wait loop (gp-wait-readers.h) is
 * involved: the futex sleep gets a timeout that ends when the warning is
 * due, and nothing changes while the updater spins or when readers leave
 * quickly.  The signal flavor's barrier, which waits for every reader's
 * handler, checks the same timeout between its 1 ms sleeps
 * (signal-barrier.h).  docs/stats-and-stalls.md shows the output.
 *
 * The warning is printed with the registry lock held (the reader list
 * cannot change under it) and costs nothing until a grace period has
 * waited that long.
 */
#ifndef URCU_SRC_GP_STALL_H
#define URCU_SRC_GP_STALL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "gp-stats.h"

/* Default stall timeout, in seconds. */
#define URCU__STALL_DEFAULT_S	21.0
/* Longest accepted timeout (about 31 years), so nanoseconds fit. */
#define URCU__STALL_MAX_S	1e9

/* One grace period's watch; lives on the leader's stack. */
struct urcu__stall_watch {
	/* When the grace period started waiting; 0: not yet. */
	uint64_t start_ns;
	/* Where urcu_<flavor>_stats() looks for that time (gp-stats.h). */
	uint64_t *stats_start_ns;
	uint64_t timeout_ns;	/* 0: stall warnings disabled */
	bool warned;		/* printed for this grace period already */
	const char *flavor;	/* flavor name for the message */
	const char *holding;	/* what a reader that holds the GP is doing */
	/* Reader words count section nesting (urcu__section_depth()). */
	bool section_words;
	unsigned long *warnings;	/* counter in the gp statistics */
};

/*
 * Nesting depth of the read-side sections that reader word @v shows, in
 * the flavors that count them there (memb, mb, signal, bp); negative after
 * unlocks without a matching lock.  Such an rcu_read_unlock() borrows from
 * the epoch bits and leaves the count at its maximum, in a read side
 * inlined without URCU_DEBUG (the others refuse it).  No program nests
 * that deep (the checked lock stops at the maximum), so a count in the
 * upper half of its range is read as that many unlocks too many.
 */
static inline long urcu__section_depth(unsigned long v)
{
	unsigned long n = v & URCU_GP_CTR_NEST_MASK;

	if (n > URCU_GP_CTR_NEST_MASK / 2)
		return (long) n - (long) URCU_GP_CTR_NEST_MASK - 1;
	return (long) n;
}

/*
 * Timeout from URCU_STALL_TIMEOUT; read once, when the flavor
 * initialises.  A value that is not a number of seconds >= 0 is reported
 * and replaced by the default.
 */
static inline uint64_t urcu__stall_timeout_from_env(const char *flavor)
{
	const char *v = getenv("URCU_STALL_TIMEOUT");
	double s;
	char *end;

	if (!v || !*v)
		return (uint64_t) (URCU__STALL_DEFAULT_S * 1e9);
	s = strtod(v, &end);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	/* Written so that NaN is refused as well. */
	if (end == v || *end || !(s >= 0.0)) {
		fprintf(stderr, "urcu: %s: ignoring URCU_STALL_TIMEOUT=\"%s\": "
			"not a number of seconds >= 0; using %g s\n",
			flavor, v, URCU__STALL_DEFAULT_S);
		s = URCU__STALL_DEFAULT_S;
	}
	if (s > URCU__STALL_MAX_S)
		s = URCU__STALL_MAX_S;
	/* A tiny positive value must not turn into 0, which disables. */
	if (s > 0.0 && s * 1e9 < 1.0)
		return 1;
	return (uint64_t) (s * 1e9);
}

/*
 * The grace period watched by @w has to wait for a reader: start its
 * clock, unless already started.  Grace periods that never wait are not
 * timed: two clock reads would cost more than they do.
 */
static inline uint64_t urcu__stall_watch_start(struct urcu__stall_watch *w)
{
	if (!w->start_ns) {
		w->start_ns = urcu__now_ns();
		/*
		 * Relaxed: a statistic.  A reader of the statistics may see
		 * 0 a little longer; it then reports the grace period as
		 * running, untimed.
		 */
		__atomic_store_n(w->stats_start_ns, w->start_ns,
				 __ATOMIC_RELAXED);
	}
	return w->start_ns;
}

/*
 * Nanoseconds until the warning is due (0: due now), or UINT64_MAX when
 * none is pending.
 */
static inline uint64_t urcu__stall_ns_left(const struct urcu__stall_watch *w)
{
	uint64_t now, due;

	if (!w->timeout_ns || w->warned)
		return UINT64_MAX;
	now = urcu__now_ns();
	due = w->start_ns + w->timeout_ns;
	return due > now ? due - now : 0;
}

/*
 * Relative timeout for the leader's next futex sleep: until the warning
 * is due, or NULL (sleep until woken) when none is pending.
 */
static inline const struct timespec *urcu__stall_sleep_timeout(
		const struct urcu__stall_watch *w, struct timespec *ts)
{
	uint64_t left = urcu__stall_ns_left(w);

	if (left == UINT64_MAX)
		return NULL;
	*ts = urcu__ns_to_timespec(left);
	return ts;
}

/* Print the threads of @waiting that still hold epoch @gp_ctr. */
__attribute__((cold, noinline, unused))
static void urcu__stall_report(struct urcu__stall_watch *w,
		struct cds_list_head *waiting, unsigned long gp_ctr,
		bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr),
		double waited_s)
{
	struct cds_list_head *pos;
	unsigned int n = 0;

	cds_list_for_each(pos, waiting) {
		const struct urcu_reader *r;
		long depth = 0;

		if (!holds_gp(pos, gp_ctr))
			continue;
		r = cds_list_entry(pos, struct urcu_reader, node);
		/* Relaxed: the owner writes it; only printed. */
		if (w->section_words)
			depth = urcu__section_depth(
				__atomic_load_n(&r->ctr, __ATOMIC_RELAXED));
		if (depth < 0)
			fprintf(stderr, "urcu: stall: %s grace period blocked "
				"for %.3f s by thread 0x%lx (LWP %ld): it "
				"called rcu_read_unlock() %ld time(s) more "
				"than rcu_read_lock(), and grace periods take "
				"that for a section that never ends\n",
				w->flavor, waited_s, (unsigned long) r->tid,
				(long) r->os_tid, -depth);
		else
			fprintf(stderr, "urcu: stall: %s grace period blocked "
				"for %.3f s by thread 0x%lx (LWP %ld): %s\n",
				w->flavor, waited_s, (unsigned long) r->tid,
				(long) r->os_tid, w->holding);
		n++;
	}
	if (n) {
		fprintf(stderr, "urcu: stall: %s grace period still waiting "
			"for %u thread(s) after %.3f s; reported once per "
			"grace period (URCU_STALL_TIMEOUT=%.3f s)\n",
			w->flavor, n, waited_s, (double) w->timeout_ns / 1e9);
		/* Relaxed: a statistic; the caller holds the gp mutex. */
		__atomic_store_n(w->warnings, *w->warnings + 1,
				 __ATOMIC_RELAXED);
	}
}

/* Whether the warning for @w is due now; it then counts as printed. */
static inline bool urcu__stall_due(struct urcu__stall_watch *w,
		double *waited_s)
{
	uint64_t waited;

	if (!w->timeout_ns || w->warned)
		return false;
	waited = urcu__now_ns() - w->start_ns;
	if (waited < w->timeout_ns)
		return false;
	w->warned = true;
	*waited_s = (double) waited / 1e9;
	return true;
}

/*
 * Signal flavor, registry lock held: reader @r has not run its handler
 * for signal @sig yet; warn once if the grace period has waited for the
 * timeout.
 */
static inline void urcu__stall_check_ack(struct urcu__stall_watch *w,
		const struct urcu_reader *r, int sig)
{
	double waited_s;

	if (!urcu__stall_due(w, &waited_s))
		return;
	fprintf(stderr, "urcu: stall: %s grace period blocked for %.3f s by "
		"thread 0x%lx (LWP %ld): has not run its handler for signal "
		"%d (SIGRCU); is the signal blocked?\n", w->flavor, waited_s,
		(unsigned long) r->tid, (long) r->os_tid, sig);
	/* Relaxed: a statistic; the caller holds the gp mutex. */
	__atomic_store_n(w->warnings, *w->warnings + 1, __ATOMIC_RELAXED);
}

/*
 * After a sleep of the wait loop, registry lock held: warn once if the
 * grace period has now waited for the timeout.
 */
static inline void urcu__stall_check(struct urcu__stall_watch *w,
		struct cds_list_head *waiting, unsigned long gp_ctr,
		bool (*holds_gp)(struct cds_list_head *node, unsigned long gp_ctr))
{
	double waited_s;

	if (urcu__stall_due(w, &waited_s))
		urcu__stall_report(w, waiting, gp_ctr, holds_gp, waited_s);
}

#endif /* URCU_SRC_GP_STALL_H */
