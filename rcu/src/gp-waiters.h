/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * gp-waiters.h: grace-period sharing among concurrent synchronize_rcu()
 * callers.
 *
 * Every caller pushes a waiter record (on its own stack) onto a lock-free
 * LIFO.  The caller that finds the LIFO empty is the leader: it takes the
 * flavor's grace-period mutex, detaches the whole LIFO, runs one grace
 * period and wakes every waiter it detached.  Any other caller only waits
 * for its record to be marked done.
 *
 * Why one grace period serves the whole batch: a waiter's record is in the
 * LIFO before the leader detaches it, and the leader starts the grace
 * period after detaching, so the grace period starts after each waiter's
 * call began.  Callers that arrive after the detach find the LIFO empty
 * again and the first of them leads the next grace period.
 *
 * Invariants:
 *  1. A record is pushed once and detached once; only the leader that
 *     detached it touches it afterwards, and only until it marks it done.
 *  2. Everything a waiter did before pushing happens before the leader's
 *     grace period (release push, acquire detach).
 *  3. Everything the grace period established happens before the waiter
 *     returns (release on done, acquire in the wait loop).
 */
#ifndef URCU_SRC_GP_WAITERS_H
#define URCU_SRC_GP_WAITERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <linux/futex.h>

#include <urcu/arch.h>
#include <urcu/futex.h>

/* Spins before a waiter sleeps; a grace period costs at least a syscall. */
#define URCU__GP_WAITER_SPINS	100

enum urcu__gp_waiter_state {
	URCU__GP_WAITING = 0,
	URCU__GP_SLEEPING = 1,	/* waiter is (about to be) in FUTEX_WAIT */
	URCU__GP_DONE = 2,
};

struct urcu__gp_waiter {
	struct urcu__gp_waiter *next;
	int32_t state;
};

struct urcu__gp_waiters {
	struct urcu__gp_waiter *head;
};

/* Push @w; returns true when the LIFO was empty (the caller leads). */
static inline bool urcu__gp_waiters_push(struct urcu__gp_waiters *q,
		struct urcu__gp_waiter *w)
{
	/* Relaxed: the CAS below re-validates the value. */
	struct urcu__gp_waiter *old = __atomic_load_n(&q->head, __ATOMIC_RELAXED);

	w->state = URCU__GP_WAITING;
	do {
		w->next = old;
		/*
		 * Release: publishes w->next and w->state, and everything the
		 * caller did before synchronize_rcu(), to the leader's acquire
		 * in urcu__gp_waiters_detach() (invariant 2).  model:
		 * tags.pml WT_PUSH_REL (waiters.pml caller).
		 */
	} while (!__atomic_compare_exchange_n(&q->head, &old, w, true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return old == NULL;
}

/* Detach every pushed record; called by the leader under the GP mutex. */
static inline struct urcu__gp_waiter *
urcu__gp_waiters_detach(struct urcu__gp_waiters *q)
{
	/*
	 * Acquire: pairs with the release CAS in urcu__gp_waiters_push().
	 * model: tags.pml WT_DETACH_ACQ (waiters.pml caller).
	 */
	return __atomic_exchange_n(&q->head, NULL, __ATOMIC_ACQUIRE);
}

/* Block until the leader marks @w done. */
static inline void urcu__gp_waiter_wait(struct urcu__gp_waiter *w)
{
	int32_t expected = URCU__GP_WAITING;
	unsigned int i;

	for (i = 0; i < URCU__GP_WAITER_SPINS; i++) {
		/*
		 * Acquire: pairs with the release exchange in _wake (inv. 3).
		 * model: tags.pml WT_SPIN_ACQ (waiters.pml caller).
		 */
		if (__atomic_load_n(&w->state, __ATOMIC_ACQUIRE) == URCU__GP_DONE)
			return;
		caa_cpu_relax();
	}
	/*
	 * Announce that we sleep.  Acquire on failure: the only other value
	 * is DONE, set by the leader's release exchange.  model: tags.pml
	 * WT_CAS_ACQ (waiters.pml caller).
	 */
	if (!__atomic_compare_exchange_n(&w->state, &expected, URCU__GP_SLEEPING,
					 false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
		return;
	/*
	 * Acquire: as in the spin loop.  FUTEX_WAIT re-checks the value.
	 * model: tags.pml WT_SLEEP_ACQ (waiters.pml caller).
	 */
	while (__atomic_load_n(&w->state, __ATOMIC_ACQUIRE) != URCU__GP_DONE)
		(void) futex_noasync(&w->state, FUTEX_WAIT_PRIVATE,
				     URCU__GP_SLEEPING, NULL, NULL, 0);
}

/* Mark @w done and wake it if it sleeps.  @w may vanish once it is done. */
static inline void urcu__gp_waiter_wake(struct urcu__gp_waiter *w)
{
	/*
	 * Release: the grace period happens before the waiter's return
	 * (invariant 3).  A wake on memory the waiter already left is
	 * harmless: futex waiters re-check their condition.  model:
	 * tags.pml WT_WAKE_REL (waiters.pml caller).
	 */
	if (__atomic_exchange_n(&w->state, URCU__GP_DONE, __ATOMIC_RELEASE)
			== URCU__GP_SLEEPING)
		(void) futex_noasync(&w->state, FUTEX_WAKE_PRIVATE, 1,
				     NULL, NULL, 0);
}

/* Wake every record of a detached batch except @self. */
static inline void urcu__gp_waiters_wake_batch(struct urcu__gp_waiter *batch,
		const struct urcu__gp_waiter *self)
{
	while (batch) {
		/* Read next before the record may disappear (invariant 1). */
		struct urcu__gp_waiter *next = batch->next;

		if (batch != self)
			urcu__gp_waiter_wake(batch);
		batch = next;
	}
}

#endif /* URCU_SRC_GP_WAITERS_H */
