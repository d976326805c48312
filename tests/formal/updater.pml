/*
 * updater.pml: one grace period as urcu__gp_run() runs it
 * (rcu/src/gp-synchronize.h), with the watch over readers
 * (gp-observe.h), the flavor's master barrier (urcu.c, urcu-qsbr.c,
 * urcu-bp.c, membarrier.h, signal-barrier.h) and the wait for readers
 * (gp-wait-readers.h, gp-poll-sleep.h).
 *
 * One updater, so it always leads its synchronize_rcu() and the gp mutex
 * is never contended: sharing grace periods among callers is
 * waiters.pml's concern.  The updater is not a registered reader (the
 * code moves a registered caller to "done" at once; it is outside any
 * section).
 *
 * Time is not modelled: every wait ends at any moment.  Spinning is
 * folded into polling: the code scans URCU__GP_READER_SPINS times before
 * it first sleeps, and a spin's scan is a polling scan that keeps the
 * registry lock; the model polls from the first scan on, dropping the
 * lock each time, which allows strictly more.  The watch's pacing (when
 * looks happen, the remembered saw_busy) only decides how long it waits
 * before a look, and memb and bp spin those waits with the registry lock
 * held (the signal flavor sleeps them, but its model registers no thread
 * meanwhile), so the model looks up to URCU__GP_OBSERVE_LOOKS (2) times
 * with the lock held.  The signal flavor's acknowledgement spins are
 * folded into its polls too; its polls reach their longest (after which
 * it resends) after SIG_POLLS_TO_MAX of them.
 *
 * Reader order: the code walks its lists in list order, which depends on
 * registration and on earlier grace periods; each grace period here picks
 * either order (rev).
 *
 * Flavor switches (urcu.pml, qsbr.pml): INTERRUPTS (master barrier
 * interrupts readers: memb and bp with membarrier(2), signal), MASTER_MB()
 * (the master barrier), HOLDS(v, next) (holds_gp on word v), SLEEP_FUTEX
 * (0: poll, 1: sleep on the wake word with a timeout (hints), 2: sleep on
 * the futex without one (QSBR)), and for QSBR EPOCH_STEP and GP_INIT.
 *
 * The proctype declares: byte gpword, next, v, i, k, q, r, looks, polls; bit
 * busy, armed, ever, rev.
 */
#ifndef SIG_POLLS_TO_MAX
#define SIG_POLLS_TO_MAX	1
#endif
#define OBS_LOOKS		2	/* URCU__GP_OBSERVE_LOOKS */
#define RD(i)			(rev -> (NR - 1 - (i)) : (i))

/* Any reader of the grace period still in "waiting"? */
#define ANY_WAITING	(where[0] == IN_WAIT || where[1] == IN_WAIT)
#define ANY_REGISTERED	(where[0] == IN_REG || where[1] == IN_REG)

/*
 * urcu__gp_observe_look(): one look at every reader still waiting.  Done
 * with it if its word shows the new epoch, or it is idle and synced;
 * busy if in a section or idle since the previous epoch only.
 */
inline observe_look()
{
	busy = 0;
	i = 0;
	do
	:: i < NR ->
		r = RD(i);
		if
		:: where[r] == IN_WAIT ->
			atomic {
				lda_body(U, L_RCTR + r, v, UP_LOOK_ACQ);
				if
				:: EPOCH(v) >= EPOCH(next) ->
					where[r] = IN_DONE
				:: EPOCH(v) < EPOCH(next) && NEST(v) != 0 ->
					busy = 1
				:: (EPOCH(v) < EPOCH(next) && NEST(v) == 0
				    && synced[r] != 0 && EPOCH(v) < synced[r]) ->
					where[r] = IN_DONE	/* idle, synced */
				:: (EPOCH(v) < EPOCH(next) && NEST(v) == 0
				    && !(synced[r] != 0 && EPOCH(v) < synced[r])
				    && EPOCH(next) - EPOCH(v) <= 1) ->
					busy = 1	/* idle since the last epoch */
				:: else -> skip	/* idle, not synced: barrier */
				fi
			}
		:: else -> skip
		fi;
		i++
	:: else -> break
	od
}

/* urcu__gp_observe(). */
inline observe()
{
	MB(U, MB_UP_OBSERVE);
	looks = 0;
	do
	:: looks < OBS_LOOKS ->
		observe_look();
		looks++;
		if
		:: !busy -> break
		:: else -> skip
		fi
	:: else -> break
	od
}

/* urcu__gp_mark_synced(). */
inline mark_synced()
{
	d_step {
		i = 0;
		do
		:: i < NR ->
			if
			:: where[i] == IN_WAIT -> synced[i] = EPOCH(next)
			:: else -> skip
			fi;
			i++
		:: else -> break
		od
	}
}

/* membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): urcu__membarrier_all(). */
inline membarrier()
{
	FENCE(U);
	i = 0;
	do
	:: i < NR ->
		if
		:: UP_MEMBARRIER -> q = RD(i); IPI(q)
		:: else -> skip
		fi;
		i++
	:: else -> break
	od;
	FENCE(U)
}

/* urcu__gp_scan(): move readers no longer holding the grace period. */
inline scan()
{
	i = 0;
	do
	:: i < NR ->
		r = RD(i);
		if
		:: where[r] == IN_WAIT ->
			atomic {
				lda_body(U, L_RCTR + r, v, SCAN_ACQ);
				if
				:: !HOLDS(v, next) -> where[r] = IN_DONE
				:: else -> skip
				fi
			}
		:: else -> skip
		fi;
		i++
	:: else -> break
	od
}

/* urcu__gp_wait_for_readers(), registry lock held. */
inline wait_for_readers()
{
	armed = 0;
	ever = 0;
	do
	:: scan();
		if
		:: !ANY_WAITING -> break
		:: else -> skip
		fi;
		if
		:: SLEEP_FUTEX == 0 ->
			/* Poll (gp-poll-sleep.h): nanosleep, lock dropped. */
			UNLOCK(U, M_REG);
			LOCK(U, M_REG)
		:: SLEEP_FUTEX != 0 && !armed ->
			/* urcu__gp_sleep_arm(), then scan once more. */
			STR(U, L_WAKE, ARMED, UP_ARM_REL);
			ARM_MB();
			armed = 1;
			ever = 1
		:: SLEEP_FUTEX != 0 && armed ->
			/* urcu__gp_sleep_on_futex(), lock dropped. */
			UNLOCK(U, M_REG);
			if
			:: SLEEP_FUTEX == 2 || !HINT_TIMEOUT ->
				FUTEX_WAIT(U, L_WAKE, ARMED)
			:: else ->
				FUTEX_WAIT_TIMED(U, L_WAKE, ARMED)
			fi;
			LOCK(U, M_REG);
			armed = 0
		fi
	od;
	if
	:: ever -> ST(U, L_WAKE, 0)	/* relaxed: only a hint to readers */
	:: else -> skip
	fi
}

/*
 * Signal flavor's master barrier: urcu__signal_mb_readers(), on the
 * readers still waiting.
 */
#define NO_READER	255

/* urcu__signal_pending() from reader position k on: result in r. */
inline sig_pending_from(k)
{
	r = NO_READER;
	i = k;
	do
	:: i < NR ->
		if
		:: where[RD(i)] == IN_WAIT ->
			q = RD(i);
			LDA(U, L_NEED + q, v, SIG_NEED_ACQ);
			if
			:: v != 0 ->
				LDA(U, L_PARK + q, v, SIG_PARK_ACQ);
				if
				:: v == 0 -> r = i; break
				:: else -> skip
				fi
			:: else -> skip
			fi
		:: else -> skip
		fi;
		i++
	:: else -> break
	od
}

/* pthread_kill(SIGRCU). */
inline sig_send(k)
{
	d_step { sys_kill_body(U, SYS_KILL); sig_pending[RD(k)] = 1 }
}

inline signal_mb_readers()
{
	MB(U, MB_SIG_PRE);
	i = 0;
	do
	:: i < NR ->
		if
		:: where[RD(i)] == IN_WAIT ->
			q = RD(i);
			ST(U, L_NEED + q, 1);	/* relaxed */
			sig_send(i)
		:: else -> skip
		fi;
		i++
	:: else -> break
	od;
	polls = 0;
	sig_pending_from(0);
	do
	:: r == NO_READER -> break
	:: else ->
		/* Poll: sleep with the registry lock dropped. */
		UNLOCK(U, M_REG);
		LOCK(U, M_REG);
		if
		:: polls < SIG_POLLS_TO_MAX -> polls++
		:: else -> skip
		fi;
		sig_pending_from(0);
		if
		:: r == NO_READER -> break
		:: else -> skip
		fi;
		/* urcu__signal_resend() from r on, once the polls are longest. */
		if
		:: SIG_RESEND && polls == SIG_POLLS_TO_MAX ->
			k = r;
			looks = r;	/* the resend's cursor */
			do
			:: looks < NR ->
				sig_pending_from(looks);
				if
				:: r == NO_READER -> break
				:: else -> sig_send(r); looks = r + 1
				fi
			:: else -> break
			od;
			r = k
		:: else -> skip
		fi;
		sig_pending_from(r)
	od;
	MB(U, MB_SIG_POST)
}

/* urcu__gp_run(); the caller holds nothing (one updater). */
inline gp_run()
{
	LOCK(U, M_REG);
	if
	:: !ANY_REGISTERED -> skip		/* invariant 4 */
	:: else ->
		if
		:: rev = 0
		:: rev = 1
		fi;
		next = gpword + EPOCH_STEP;
		d_step {
			str_body(U, L_GP, next, UP_GP_REL);
			gpword = next;
			/* cds_list_splice(&reg->readers, &waiting) */
			i = 0;
			do
			:: i < NR ->
				if
				:: where[i] == IN_REG -> where[i] = IN_WAIT
				:: else -> skip
				fi;
				i++
			:: else -> break
			od
		};
		if
		:: INTERRUPTS -> observe()
		:: else -> skip
		fi;
		if
		:: ANY_WAITING ->
			MASTER_MB();
			if
			:: INTERRUPTS -> mark_synced()
			:: else -> skip
			fi;
			wait_for_readers()
		:: else -> skip
		fi;
		/* cds_list_splice(&done, &reg->readers) */
		d_step {
			i = 0;
			do
			:: i < NR ->
				if
				:: where[i] == IN_DONE -> where[i] = IN_REG
				:: else -> skip
				fi;
				i++
			:: else -> break
			od
		}
	fi;
	UNLOCK(U, M_REG)
}

/* The updater: NGP removals, each followed by a grace period and a free. */
proctype updater()
{
	byte gpword = GP_INIT;
	byte next, v, i, k, q, r, looks, polls, gen;
	bit busy, armed, ever, rev;

	gen = 0;
	do
	:: gen < NGP ->
		ST(U, L_PTR, gen + 1);		/* unlink gen, publish gen + 1 */
		gp_run();			/* synchronize_rcu() */
		destroy(gen, v);
		gen++
	:: else -> break
	od;
	updater_done = 1
}
