/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-poll-sleep.h: how a grace period sleeps while it polls for readers.
 *
 * Two waits of a grace period have nobody, or nobody reliable, to wake
 * them: the wait for readers of the flavors whose unlock does not look at
 * the updater (memb, signal, bp with membarrier(2)) or looks without a
 * fence (mb; memb and bp without it: gp-wait-readers.h), and the signal
 * flavor's wait for SIGRCU acknowledgements (signal-barrier.h).  Both
 * poll, sleeping URCU__GP_POLL_MIN_NS first, then twice as long each time
 * up to URCU__GP_POLL_MAX_NS.  The short first sleeps are for the common
 * case: the thread we wait for was preempted (often by the updater
 * itself, when there are more runnable threads than CPUs) and gets the
 * CPU back as soon as we sleep; it then finishes its section, or runs its
 * handler, within microseconds.  The longer sleeps keep a thread that
 * blocks for long (inside its section, or with SIGRCU blocked) from
 * costing the updater much CPU.  Where readers may wake the updater, the
 * sleep is a FUTEX_WAIT on the flavor's futex word with the polling
 * length as its timeout: a wake ends it early, a missed one costs at most
 * that length.
 */
#ifndef URCU_SRC_GP_POLL_SLEEP_H
#define URCU_SRC_GP_POLL_SLEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/prctl.h>
#include <linux/futex.h>

#include <urcu/futex.h>

#include "gp-stall.h"
#include "gp-stats.h"

/* First and longest polling sleep (ns). */
#define URCU__GP_POLL_MIN_NS	(2 * 1000)
#define URCU__GP_POLL_MAX_NS	(1000 * 1000)
/* A polling sleep may overshoot by at most 1/8 of its length. */
#define URCU__GP_POLL_SLACK_DIV	8

/*
 * Sleep @ns with a timer slack of at most @ns / URCU__GP_POLL_SLACK_DIV; on
 * @futex, when not NULL, while it reads -1 (a wake ends the sleep early).
 * The kernel may end a sleep up to the thread's timer slack late (50 us by
 * default), which would turn the first 2 us poll into 50 us and more, and
 * that overshoot is what synchronize_rcu() would add in the common case
 * above.  The thread's own slack is lowered for the sleep and put back
 * after it: three prctl() calls per poll, nothing when the slack is
 * already low enough.
 */
static inline void urcu__gp_sleep_tight(uint64_t ns, int32_t *futex)
{
	struct timespec ts = urcu__ns_to_timespec(ns);
	/* An int: a slack of 2^31 ns or more reads negative; left alone. */
	int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	unsigned long tight = (unsigned long) (ns / URCU__GP_POLL_SLACK_DIV);
	bool lowered = false;

	/* 0 would mean "back to the default": never asked for. */
	if (tight && slack > 0 && (unsigned long) slack > tight)
		lowered = !prctl(PR_SET_TIMERSLACK, tight, 0, 0, 0);
	/* EINTR, EAGAIN, ETIMEDOUT: the caller re-checks anyway. */
	if (futex)
		(void) futex_noasync(futex, FUTEX_WAIT, -1, &ts, NULL, 0);
	else
		(void) nanosleep(&ts, NULL);
	if (lowered)
		(void) prctl(PR_SET_TIMERSLACK, (unsigned long) slack, 0, 0, 0);
}

/*
 * One polling sleep of @*delay_ns (start it at URCU__GP_POLL_MIN_NS), cut
 * short when a stall warning is due sooner, or by a wake on @futex (see
 * urcu__gp_sleep_tight()); doubles @*delay_ns for the next one, up to the
 * maximum and not past it (2 us doubled nine times is 1.024 ms).  @stall
 * must be started (urcu__stall_watch_start()).
 */
static inline void urcu__gp_poll_sleep(uint64_t *delay_ns,
		const struct urcu__stall_watch *stall, int32_t *futex)
{
	uint64_t left = urcu__stall_ns_left(stall);

	urcu__gp_sleep_tight(left < *delay_ns ? left : *delay_ns, futex);
	*delay_ns *= 2;
	if (*delay_ns > URCU__GP_POLL_MAX_NS)
		*delay_ns = URCU__GP_POLL_MAX_NS;
}

#endif /* URCU_SRC_GP_POLL_SLEEP_H */
