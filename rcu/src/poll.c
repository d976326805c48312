/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * poll.c: polled grace periods (start_poll_synchronize_rcu() and
 * poll_state_synchronize_rcu()).  Compiled once per flavor.
 *
 * The flavor counts grace periods in a sequence number that is odd while
 * one runs (urcu__gp_seq()).  A token names the sequence value at which a
 * grace period that started after the token was taken has completed:
 * the next even value if none was running, or the one after the running
 * one.  To make sure such a grace period happens, taking a token queues a
 * call_rcu() request (one at a time; its callback re-queues itself while
 * some token is still unmet).
 */
#define _LGPL_SOURCE
#include "flavor-internal.h"

#include "urcu-die.h"
#include "urcu-export.h"

static pthread_mutex_t poll_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_head poll_head;	/* under poll_lock while queued */
static bool poll_queued;
static unsigned long poll_wanted;	/* latest token handed out */

/* Wrap-safe "sequence @a has not reached @b". */
static bool seq_before(unsigned long a, unsigned long b)
{
	return (long) (a - b) < 0;
}

/*
 * poll_head is owned by whoever set poll_queued, until the callback
 * clears it; call_rcu() is called without poll_lock held, since without
 * a worker it runs the callback synchronously.
 */
static void poll_callback(struct rcu_head *head)
{
	bool again;

	urcu__mutex_lock(&poll_lock);
	again = seq_before(urcu__flavor_gp_seq(), poll_wanted);
	if (!again)
		poll_queued = false;
	urcu__mutex_unlock(&poll_lock);
	if (again)
		call_rcu(head, poll_callback);	/* a newer token is waiting */
}

URCU_API struct urcu_gp_poll_state start_poll_synchronize_rcu(void)
{
	struct urcu_gp_poll_state state;
	unsigned long seq;
	bool queue;

	/*
	 * Orders the caller's earlier accesses (its removals) before the
	 * sequence load; paired with the seq_cst store that starts a grace
	 * period (urcu__synchronize): if we read the old value, that grace
	 * period and its barriers come after our removals.
	 * model: none (the polling API is not modelled).
	 */
	cmm_smp_mb();
	seq = urcu__flavor_gp_seq();
	state.grace_period_id = (seq + 3) & ~1UL;
	urcu__mutex_lock(&poll_lock);
	if (seq_before(poll_wanted, state.grace_period_id))
		poll_wanted = state.grace_period_id;
	queue = !poll_queued;
	poll_queued = true;
	urcu__mutex_unlock(&poll_lock);
	if (queue)
		call_rcu(&poll_head, poll_callback);
	return state;
}

/*
 * True once a full grace period elapsed since @state was taken; the
 * acquire in urcu__gp_seq() then orders the readers' sections before the
 * caller's next accesses.
 */
URCU_API bool poll_state_synchronize_rcu(struct urcu_gp_poll_state state)
{
	return !seq_before(urcu__flavor_gp_seq(), state.grace_period_id);
}
