/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * qsbr.pml: grace periods of the QSBR flavor (rcu/src/urcu-qsbr.c,
 * rcu/include/urcu/static/urcu-qsbr.h and the engine, gp-*.h), checked
 * with Spin: 2 readers, 1 updater, NGP grace periods (default 2).
 * `scons verify` runs it (tests/formal/verify.py); by hand, as urcu.pml
 * without a FLAVOR_ define.
 *
 * Readers register (offline, then online: rcu_register_thread()) while
 * grace periods may already run, read the pointer and use the object,
 * announce a quiescent state; reader 1 also goes offline and back online
 * after each of its sections (a thread blocking); both go offline and
 * unregister at the end.  A section is the code between two quiescent
 * states.  The updater sleeps on the futex without a timeout once its
 * spin is over: a reader that announces a quiescent state unnoticed
 * while the updater arms the futex leaves it asleep for good, which the
 * model reports as an invalid end state (safety runs) or a run in which
 * synchronize_rcu() never returns (LIVENESS).
 *
 * Reader word: 0 offline, else the grace-period word seen at the last
 * quiescent state; the grace-period word is odd (URCU_QSBR_GP_ONLINE) and
 * advances by URCU_QSBR_GP_CTR.
 */
#include "rcu-common.pml"

#ifndef NSEC
#define NSEC	2
#endif

#define EPOCH_STEP	2		/* URCU_QSBR_GP_CTR */
#define GP_INIT		1		/* URCU_QSBR_GP_ONLINE */
#define BEFORE(a, b)	((a) < (b))	/* urcu_gp_ctr_before() */

#define INTERRUPTS	0
#define SLEEP_KIND	2
/* master_mb() of urcu-qsbr.c, as the master barrier and as exact_mb. */
#define MASTER_FENCE	mb_body(U, MB_UP_QSBR)
#define ARM_FENCE	mb_body(U, MB_UP_QSBR_ARM)
/* holds_gp() of urcu-qsbr.c. */
#define HOLDS(x, g)	((x) != 0 && BEFORE(x, g))
#define SCAN_ACQ	QS_HOLDS_ACQ

#include "updater.pml"

#ifdef LIVENESS
#define MORE_SECTIONS	1
#else
#define MORE_SECTIONS	(n < NSEC)
#endif


/*
 * _urcu_qsbr_publish() of word 0 (_urcu_qsbr_thread_offline()) or, when
 * pub is set, of the word stored by the step before: the fence, then
 * _urcu_common_wake_up_gp() (load the futex, and if armed store 0 and
 * FUTEX_WAKE).  One step: the store that the fence makes visible comes
 * before it, and so does the load; the wake is a fence and a wake, which
 * an updater asleep receives whether it fell asleep before or after the
 * store of 0.
 */
inline q_publish_end(t)
{
	atomic {
		mb_body(t, MB_QS_PUB);
		ld_body(t, L_WAKE, w);
		if
		:: w == ARMED ->
			st_body(t, L_WAKE, 0);
			futex_wake_body(t, L_WAKE)
		:: else -> skip
		fi;
		w = 0
	}
}

/* _urcu_qsbr_thread_offline(): publish 0. */
inline q_offline(t)
{
	d_step { str_body(t, L_RCTR + t, 0, QS_PUB_REL); rword = 0 };
	q_publish_end(t)
}

/*
 * _urcu_qsbr_thread_online(): acquire load of the grace-period word,
 * relaxed store of the reader word, fence.
 */
inline q_online(t)
{
	atomic {
		lda_body(t, L_GP, rword, QS_ONLINE_ACQ);
		st_body(t, L_RCTR + t, rword)
	};
	MB(t, MB_QS_ONLINE)
}

inline MB(t, on)
{
	d_step { mb_body(t, on) }
}

proctype qreader(byte t)
{
	byte rword, now, p, w, n;

	/* rcu_register_thread(): join the registry offline, then online. */
	d_step {
		lock_guard(M_REG) ->
		lock_body(t, M_REG);
		where[t] = IN_REG;
		synced[t] = 0;
		unlock_body(t, M_REG)
	};
	q_online(t);
	do
	:: MORE_SECTIONS ->
		atomic { ld_body(t, L_PTR, p) };
		/*
		 * The use of the object, then _urcu_qsbr_quiescent_state():
		 * acquire load of the grace-period word; unless the word
		 * already holds it, publish it (release store, then
		 * q_publish_end).
		 */
		atomic {
			rd_use(t, t == 0);
			lda_body(t, L_GP, now, QS_GP_ACQ);
			if
			:: now != rword ->
				str_body(t, L_RCTR + t, now, QS_PUB_REL);
				rword = now;
				now = 1
			:: else -> now = 0
			fi
		};
		if
		:: now -> now = 0; q_publish_end(t)
		:: else -> skip
		fi;
		if
		:: t == 1 -> q_offline(t); q_online(t)
		:: else -> skip
		fi;
#ifndef LIVENESS
		n++
#else
		skip
#endif
	:: else -> break
	od;
	/* rcu_unregister_thread(): offline, then out of the registry. */
	q_offline(t);
	d_step {
		lock_guard(M_REG) ->
		lock_body(t, M_REG);
		where[t] = IN_NONE;
		unlock_body(t, M_REG)
	}
}

init
{
	atomic {
		mem_set(L_GP, GP_INIT);
		mem_start();
		run_agent(0);
		run_agent(1);
		/*
		 * LIVENESS: no agent for the updater, whose own fences and
		 * locks drain its buffer within a few steps of each store
		 * (the removal at the lock, the epoch and the futex at the
		 * fence joined to them; the wake word and the poison at the
		 * next lock): what an agent would add is the same stores
		 * visible a few steps sooner.
		 */
		run qreader(0);
		run qreader(1);
		run updater()
	}
}

#ifdef LIVENESS
ltl progress { <> updater_done }
#endif
