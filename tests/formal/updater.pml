/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * updater.pml: synchronize_rcu() as urcu__gp_run() runs it
 * (rcu/src/gp-synchronize.h): the epoch store, the watch over readers
 * (gp-observe.h), the flavor's master barrier (urcu.c, urcu-qsbr.c,
 * urcu-bp.c, membarrier.h, signal-barrier.h), the wait for readers with
 * its spins, polls and futex sleeps (gp-wait-readers.h, gp-poll-sleep.h).
 *
 * One updater: it always leads its synchronize_rcu() and the gp mutex is
 * never contended (sharing grace periods among callers is waiters.pml's
 * concern).  It is not a registered reader (the code moves a registered
 * caller to "done" at once: it is outside any section).  What the code
 * does before the epoch store (the waiters' release CAS, two mutex locks,
 * the seq_cst store of the sequence) is modelled by the registry lock's
 * acquisition: on x86 a locked instruction, in the weak model an acquire.
 *
 * Time is not modelled: every wait may end at any moment, and a wait that
 * only passes time (a spin, a poll's sleep, the watch's pacing) is a
 * point where the other threads run.  The code spins
 * (URCU__GP_READER_SPINS scans with the lock held) before it polls or
 * sleeps; the model polls (drops and takes the registry lock) from the
 * first scan on.  Under TSO the updater's buffer is empty there and a
 * spin is a poll; in the weak model a poll also refreshes what the
 * updater's next loads may return, which its scans, acquire loads, do
 * anyway (its loads of reader words are never stale, see STALE in
 * rcu-common.pml).  The watch looks
 * at most URCU__GP_OBSERVE_LOOKS (2) times; its pacing only decides how
 * long it waits between looks: spun with the registry lock held (memb,
 * bp), or slept with it dropped (signal: URCU__GP_OBSERVE_SLEPT_GAP_NS).
 * The signal flavor's acknowledgement wait spins, then polls; once its
 * polls reach their longest (SIG_POLLS_TO_MAX of them here) it resends.
 *
 * Readers.  The updater's looks at the two readers' words (and flags)
 * are one step where the readers write nothing the other reads: memb, bp
 * and signal readers write only their own word and flags, and objects,
 * which the other reader's control flow does not depend on.  Steps of
 * one reader then commute with the other reader's and with the look at
 * the other reader, so any pair of positions at which a look in two
 * steps could see the two readers, a look in one step sees them at too.
 * Readers of mb and QSBR both write the wake or futex word: one step per
 * reader there.  The list order the code walks in is reader 0, then 1.
 *
 * The flavor (urcu.pml, qsbr.pml) defines: INTERRUPTS (the master
 * barrier interrupts readers: memb and bp with membarrier(2), signal),
 * MASTER_FENCE (the barrier of a flavor that does not: a mb_body),
 * MASTER_MB() (the one that does: a statement), HOLDS(v, g) (holds_gp),
 * SCAN_ACQ (the tag of its acquire), SLEEP_KIND (0: poll; 1: sleep on the
 * wake word with a timeout, readers' wakes being hints; 2: sleep on the
 * futex without one, QSBR), ARM_FENCE (urcu__gp_sleep_arm()'s barrier),
 * EPOCH_STEP and GP_INIT.
 */
#ifndef SIG_POLLS_TO_MAX
#define SIG_POLLS_TO_MAX	1
#endif
#define OBS_LOOKS		2	/* URCU__GP_OBSERVE_LOOKS */

#define ANY_WAITING	(where[0] == IN_WAIT || where[1] == IN_WAIT)
#define ANY_REGISTERED	(where[0] != IN_NONE || where[1] != IN_NONE)

/* cds_list_splice(&reg->readers, &waiting): the grace period's readers. */
#define SPLICE_REG_TO_WAIT						\
	where[0] = (where[0] == IN_REG -> IN_WAIT : where[0]);		\
	where[1] = (where[1] == IN_REG -> IN_WAIT : where[1])
/* cds_list_splice(&done, &reg->readers). */
#define SPLICE_DONE_TO_REG						\
	where[0] = (where[0] == IN_DONE -> IN_REG : where[0]);		\
	where[1] = (where[1] == IN_DONE -> IN_REG : where[1])
/* urcu__gp_mark_synced(): the master barrier ran on the waiting readers. */
#define MARK_SYNCED							\
	synced[0] = (where[0] == IN_WAIT -> EPOCH(next) : synced[0]);	\
	synced[1] = (where[1] == IN_WAIT -> EPOCH(next) : synced[1])

/*
 * A poll's sleep (gp-poll-sleep.h) with the registry lock dropped, and
 * the scan that follows it, which the model joins to the lock's
 * acquisition (inside a step: POLL_UNLOCK; atomic { POLL_LOCK ... }).
 * Only bp readers take that lock (to register and unregister); elsewhere
 * the unlock is joined to that step too.
 */
#ifdef FLAVOR_BP
#define POLL_UNLOCK	d_step { unlock_body(U, M_REG) };
#define POLL_LOCK	lock_guard(M_REG) -> lock_body(U, M_REG);
#else
#define POLL_UNLOCK
#define POLL_LOCK	unlock_body(U, M_REG); lock_body(U, M_REG);
#endif

/*
 * urcu__gp_observe_look() on reader r (inside a step): done with it if
 * its word shows the new epoch, or it is idle and synced; busy if inside
 * a section, or idle since the previous epoch only; else it needs the
 * barrier.
 */
inline look(r)
{
	if
	:: where[r] == IN_WAIT ->
		lda_body(U, L_RCTR + r, v, UP_LOOK_ACQ);
		if
		:: EPOCH(v) >= EPOCH(next) -> where[r] = IN_DONE
		:: EPOCH(v) < EPOCH(next) && NEST(v) != 0 -> busy = 1
		:: EPOCH(v) < EPOCH(next) && NEST(v) == 0 &&
		   synced[r] != 0 && EPOCH(v) < synced[r] ->
			where[r] = IN_DONE
		:: EPOCH(v) < EPOCH(next) && NEST(v) == 0 &&
		   !(synced[r] != 0 && EPOCH(v) < synced[r]) &&
		   EPOCH(next) - EPOCH(v) <= 1 ->
			busy = 1
		:: else -> skip
		fi;
		v = 0
	:: else -> skip
	fi
}

/*
 * urcu__gp_observe(), after the fence of the epoch store's step: up to
 * OBS_LOOKS looks, the next only if the last one left a busy reader, with
 * the watch's pacing between them (OBSERVE_GAP_UNLOCK and _LOCK: the
 * signal flavor sleeps it, as a poll; memb and bp spin it).
 */
inline observe()
{
	atomic { look(0); look(1) };
	looks = 1;
	do
	:: !busy || looks == OBS_LOOKS -> break
	:: else ->
		busy = 0;
		looks++;
		OBSERVE_GAP_UNLOCK
		atomic { OBSERVE_GAP_LOCK look(0); look(1) }
	od;
	looks = 0;
	busy = 0
}

/*
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (urcu__membarrier_all(),
 * membarrier.h), then urcu__gp_mark_synced().  One step: the barrier it
 * forces on a reader only acts on that reader's own accesses, and the
 * readers do not read each other's locations, so a reader's steps
 * between two of the IPIs commute with the other IPI.
 */
inline membarrier_all()
{
	d_step {
		fence_body(U);
		if
		:: UP_MEMBARRIER -> ipi_body(0); ipi_body(1)
		:: else -> skip
		fi;
		fence_body(U);
		MARK_SYNCED
	}
}

/*
 * urcu__signal_pending() on reader r (inside a step): bit r of owe is set
 * if it still owes an acknowledgement.
 */
inline sig_check(r)
{
	if
	:: where[r] == IN_WAIT ->
		lda_body(U, L_NEED + r, v, SIG_NEED_ACQ);
		if
		:: v != 0 ->
			lda_body(U, L_PARK + r, v, SIG_PARK_ACQ);
			if
			:: v == 0 -> owe = owe | (1 << r)
			:: else -> skip
			fi
		:: else -> skip
		fi;
		v = 0
	:: else -> skip
	fi
}

/*
 * Both readers' flags, in one step (see "Readers" above).  The code stops
 * at the first reader that owes an ack, and looks at the next ones after
 * its next spin or poll: it loads what the model loads, later.
 */
#define SIG_CHECK_ALL	atomic { owe = 0; sig_check(0); sig_check(1) }

/*
 * pthread_kill(SIGRCU) to reader r, a step of its own (a handler may run
 * between the updater's look at the flags and the send, and then run once
 * more).
 */
inline sig_send(r)
{
	d_step {
		sys_kill_body(U, SYS_KILL);
		sig_pending[r] = 1
	}
}

/*
 * urcu__signal_mb_readers() (signal-barrier.h) on the readers still
 * waiting, then urcu__gp_mark_synced().  pthread_kill() marks the signal
 * pending; the handler process runs it whenever it likes (or loses it,
 * MAXLOST times).  After a poll that finds a reader still owing an ack,
 * once the polls have reached their longest, urcu__signal_resend() sends
 * again to each reader found owing one.
 */
inline signal_mb_readers()
{
	d_step {
		mb_body(U, MB_SIG_PRE);
		if
		:: where[0] == IN_WAIT ->
			st_body(U, L_NEED + 0, 1);	/* relaxed */
			sys_kill_body(U, SYS_KILL);
			sig_pending[0] = 1
		:: else -> skip
		fi;
		if
		:: where[1] == IN_WAIT ->
			st_body(U, L_NEED + 1, 1);
			sys_kill_body(U, SYS_KILL);
			sig_pending[1] = 1
		:: else -> skip
		fi
	};
	SIG_CHECK_ALL;
	do
	:: owe == 0 -> break
	:: owe != 0 ->
		if
		:: polls < SIG_POLLS_TO_MAX -> polls++
		:: else -> skip
		fi;
		POLL_UNLOCK
		atomic { POLL_LOCK owe = 0; sig_check(0); sig_check(1) };
		if
		:: owe == 0 -> break
		:: else -> skip
		fi;
		if
		:: SIG_RESEND && polls == SIG_POLLS_TO_MAX ->
			if
			:: owe & 1 -> sig_send(0)
			:: else -> skip
			fi;
			if
			:: owe & 2 -> sig_send(1)
			:: else -> skip
			fi;
			SIG_CHECK_ALL
		:: else -> skip
		fi
	od;
	owe = 0;
	d_step {
		mb_body(U, MB_SIG_POST);
		MARK_SYNCED;
		polls = 0;
		owe = 0
	}
}

/*
 * urcu__section_holds_gp() / QSBR's holds_gp() on reader r (inside a
 * step).
 */
inline scan(r)
{
	if
	:: where[r] == IN_WAIT ->
		lda_body(U, L_RCTR + r, v, SCAN_ACQ);
		if
		:: !HOLDS(v, next) -> where[r] = IN_DONE
		:: else -> skip
		fi;
		v = 0
	:: else -> skip
	fi
}

/*
 * urcu__gp_scan(): one step for both readers where they share nothing
 * they write (see "Readers" above); where they do (the wake word of mb
 * and of QSBR), one step each.
 */
#if INTERRUPTS
#define SCAN_ALL	atomic { scan(0); scan(1) }
#else
#define SCAN_ALL	atomic { scan(0) }; atomic { scan(1) }
#endif

#if SLEEP_KIND != 0
/*
 * urcu__gp_sleep_arm(): -1 in the futex or wake word, then the barrier
 * (QSBR: exact_mb, the master barrier; the others: cmm_smp_mb()).
 */
inline arm()
{
	d_step {
		str_body(U, L_WAKE, ARMED, UP_ARM_REL);
		ARM_FENCE
	}
}

/*
 * urcu__gp_sleep_on_futex() with the registry lock dropped: FUTEX_WAIT
 * while the word reads -1, until a wake, or (SLEEP_KIND 1: the polling
 * length, urcu__gp_poll_sleep()) a timeout at any moment.
 */
inline futex_sleep()
{
	atomic {
		unlock_body(U, M_REG);
		futex_wait_body(U, L_WAKE, ARMED)
	};
	if
	:: d_step {
		fx_wait[U] == 0 && lock_guard(M_REG) -> lock_body(U, M_REG)
	   }
#if SLEEP_KIND == 1 && HINT_TIMEOUT
	:: d_step {
		fx_wait[U] != 0 && lock_guard(M_REG) ->
		fx_wait[U] = 0;
		lock_body(U, M_REG)
	   }
#endif
	fi
}
#endif

/*
 * urcu__gp_wait_for_readers(), registry lock held: scan; while a reader
 * still holds the grace period, poll and scan again, or arm the futex,
 * scan again, and sleep (WMM: the first time, spin and scan again).
 */
inline wait_for_readers()
{
#if SLEEP_KIND == 0
	SCAN_ALL;
	do
	:: !ANY_WAITING -> break
	:: ANY_WAITING ->
		POLL_UNLOCK
		atomic { POLL_LOCK scan(0); scan(1) }
	od;
#else
	do
	:: SCAN_ALL;
		if
		:: !ANY_WAITING -> break
		:: ANY_WAITING && !armed -> arm(); armed = 1; ever = 1
		:: ANY_WAITING && armed -> futex_sleep(); armed = 0
		fi
	od;
#endif
	armed = 0
}

/*
 * One removal and its grace period: unlink object gen (publish gen + 1),
 * synchronize_rcu(), free gen.
 */
inline gp_run()
{
	d_step {
		lock_guard(M_REG) ->
		st_body(U, L_PTR, gen + 1);
		lock_body(U, M_REG)
	};
#ifdef FLAVOR_BP
	if
	:: d_step { !ANY_REGISTERED -> unlock_body(U, M_REG) }	/* inv. 4 */
	:: else ->
#endif
	d_step {
		next = gpword + EPOCH_STEP;
		str_body(U, L_GP, next, UP_GP_REL);
		gpword = next;
		SPLICE_REG_TO_WAIT
	};
	/*
	 * The fence, a step of its own: between the two, the epoch store may
	 * reach a reader before the removal does unless it is a release.
	 */
	d_step {
#if INTERRUPTS
		mb_body(U, MB_UP_OBSERVE)	/* urcu__gp_observe() */
#else
		MASTER_FENCE			/* ops->master_mb() */
#endif
	};
#if INTERRUPTS
	observe();
	if
	:: ANY_WAITING ->
		MASTER_MB();
		wait_for_readers()
	:: else -> skip
	fi;
#else
	wait_for_readers();
#endif
	d_step {
		if
		:: ever -> st_body(U, L_WAKE, 0); ever = 0	/* relaxed */
		:: else -> skip
		fi;
		SPLICE_DONE_TO_REG;
		unlock_body(U, M_REG);
		next = 0
	}
#ifdef FLAVOR_BP
	fi
#endif
}

/* The updater: NGP removals, each followed by a grace period and a free. */
proctype updater()
{
	byte gpword = GP_INIT;
	byte next, v, looks, polls, gen, owe;
	bit busy, armed, ever;

	do
	:: gen < NGP ->
		gp_run();
		destroy(gen, v);
		gen++
	:: else -> break
	od;
	updater_done = 1
}
