/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * waiters.pml: grace-period sharing among concurrent synchronize_rcu()
 * callers (rcu/src/gp-waiters.h, and urcu__synchronize() in
 * gp-synchronize.h), checked with Spin: NC callers (default 3), each
 * calling synchronize_rcu() NROUND times (default 1) on its own record.
 * `scons verify` runs it (tests/formal/verify.py); by hand, as urcu.pml
 * without a FLAVOR_ define.
 *
 * A caller makes a removal (a store to its own location D), pushes its
 * record (release CAS); the one that found the LIFO empty leads: it takes
 * the gp mutex, detaches the LIFO (acquire exchange), runs the grace
 * period, publishes its end (the release store of the sequence), unlocks
 * and marks every other detached record done (release exchange), waking
 * it with FUTEX_WAKE if it sleeps.  The others spin on their record's
 * state (acquire), announce that they sleep (acquire CAS), and sleep with
 * FUTEX_WAIT until done.  The grace period itself is abstract: it reads
 * every batched caller's removal.
 *
 * Properties:
 *  - the grace period sees the removal of every caller it serves
 *    (invariant 2 of gp-waiters.h);
 *  - a caller that returns sees the end of the grace period that served
 *    it (invariant 3);
 *  - no lost wake-up: a caller asleep forever is an invalid end state
 *    (safety runs), or a caller that never returns (LIVENESS, under weak
 *    fairness: "<> all returned");
 *  - with NROUND 2 a record is reused as soon as its caller returns: the
 *    leader must be done with it by then (invariant 1).
 */
#ifndef NC
#define NC	3
#endif
#ifndef NROUND
#define NROUND	1
#endif
#define NT	NC

/* Memory locations. */
#define L_HEAD	0		/* urcu__gp_waiters.head: caller + 1, 0: NULL */
#define L_NEXT	1		/* each record's next */
#define L_STATE	(L_NEXT + NC)	/* each record's state */
#define L_D	(L_STATE + NC)	/* each caller's removal */
#define L_GDONE	(L_D + NC)	/* grace periods ended (urcu__gp_state.seq) */
#define L_MGP	(L_GDONE + 1)	/* the gp mutex's memory (wmm) */
#define NLOC	(L_MGP + 1)

#define M_GP	0		/* urcu__gp_state.lock */
#define NMTX	1
#define MTX_LOC(m)	L_MGP

/* enum urcu__gp_waiter_state. */
#define WAITING		0
#define SLEEPING	1
#define DONE		2

/* Ghost state. */
byte batch_gp[NC];		/* the grace period serving each caller */
byte removal[NC];		/* the value of each caller's last removal */
byte ngp;			/* grace periods started */
byte returned;			/* calls returned (LIVENESS) */

#define ISSUE_HOOK(t, l, v)	skip
#define DEFERRED_HOOK(t)	skip
/*
 * Weak model: loads that may be performed early: the leader's loads of
 * records and removals (after its acquire exchange), a caller's load of
 * the grace periods ended (after its acquire of DONE).
 */
#define STALE(t, l)	((l) >= L_NEXT && (l) <= L_GDONE)

#ifdef WMM
#include "mem-wmm.pml"
#else
#include "mem-tso.pml"
#endif

#include "tags.pml"

proctype caller(byte c)
{
	byte old, batch, r, nx, v, round;
	bit ok;

	do
	:: round < NROUND ->
		/*
		 * The removal, then urcu__gp_waiters_push(): plain stores of
		 * the record's state and next, then the release CAS, which
		 * stores next again and retries when it fails.
		 */
		atomic {
			st_body(c, L_D + c, round + 1);
			removal[c] = round + 1;
			batch_gp[c] = 255;	/* not yet served */
			ld_body(c, L_HEAD, old);
			st_body(c, L_STATE + c, WAITING);
			st_body(c, L_NEXT + c, old)
		};
		do
		:: atomic {
			cas_body(c, L_HEAD, old, c + 1, ok, 0, WT_PUSH_REL);
			if
			:: !ok -> st_body(c, L_NEXT + c, old)
			:: else -> skip
			fi
		   };
			if
			:: ok -> break
			:: else -> skip
			fi
		od;
		if
		:: old == 0 ->
			/* The leader. */
			d_step { lock_guard(M_GP) -> lock_body(c, M_GP) };
			atomic {
				xchg_body(c, L_HEAD, 0, batch, WT_DETACH_ACQ, 0)
			};
			/* The grace period: every batched caller's removal. */
			atomic {
				ngp++;
				r = batch;
				do
				:: r != 0 ->
					ld_body(c, L_D + r - 1, v);
					assert(v == removal[r - 1]);
					batch_gp[r - 1] = ngp;
					ld_body(c, L_NEXT + r - 1, nx);
					r = nx;
					nx = 0
				:: else -> break
				od;
				v = 0
			};
			/* Its end (seq, release), the unlock. */
			d_step {
				str_body(c, L_GDONE, ngp, WT_SEQ_REL);
				unlock_body(c, M_GP)
			};
			/*
			 * urcu__gp_waiters_wake_batch(): next first, then the
			 * release exchange to DONE, and FUTEX_WAKE if the
			 * caller announced it sleeps.
			 */
			r = batch;
			do
			:: r != 0 ->
				atomic {
					ld_body(c, L_NEXT + r - 1, nx);
					if
					:: r != c + 1 ->
						xchg_body(c, L_STATE + r - 1, DONE, v,
							  0, WT_WAKE_REL)
					:: else -> v = 0
					fi
				};
				if
				:: d_step {
					v == SLEEPING ->
					futex_wake_body(c, L_STATE + r - 1);
					v = 0
				   }
				:: else -> v = 0
				fi;
				r = nx;
				nx = 0
			:: else -> break
			od;
			batch = 0
		:: else ->
			/* urcu__gp_waiter_wait(): a spin, then announce sleep. */
			atomic {
				lda_body(c, L_STATE + c, v, WT_SPIN_ACQ);
				ok = (v == DONE)
			};
			if
			:: ok -> skip
			:: else ->
				atomic {
					v = WAITING;
					cas_body(c, L_STATE + c, v, SLEEPING, ok,
						 WT_CAS_ACQ, 0);
					ok = !ok	/* failed: it read DONE */
				};
				do
				:: ok -> break
				:: else ->
					atomic {
						lda_body(c, L_STATE + c, v,
							 WT_SLEEP_ACQ);
						ok = (v == DONE)
					};
					if
					:: ok -> break
					:: else ->
						atomic {
							futex_wait_body(c, L_STATE + c,
									SLEEPING);
							fx_wait[c] == 0
						}
					fi
				od
			fi
		fi;
		/* Returned: the grace period that served us has ended. */
		atomic {
			ld_body(c, L_GDONE, v);
			assert(v >= batch_gp[c]);
			v = 0;
			old = 0;
			ok = 0;
			returned++
		};
		round++
	:: else -> break
	od
}

init
{
	atomic {
		mem_start();
		run_agent(0);
		run_agent(1);
#if NC > 2
		run_agent(2);
#endif
		run caller(0);
		run caller(1);
#if NC > 2
		run caller(2);
#endif
	}
}

#ifdef LIVENESS
ltl progress { <> (returned == NC * NROUND) }
#endif
