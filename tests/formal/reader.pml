/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reader.pml: the read side of the memb, mb, signal and bp flavors
 * (rcu/include/urcu/static/urcu-common.h and the flavor headers), the
 * signal handler (rcu/src/signal-barrier.h, urcu.c), parking
 * (rcu/src/flavor-internal.h) and bp's registration (rcu/src/urcu-bp.c).
 *
 * Steps.  Each step performs one access to shared memory, or one fence,
 * together with the thread's local work around it.  Putting a store into
 * the thread's own buffer changes nothing another thread can see (its
 * agent decides when it reaches memory), so a store joins the access
 * before or after it.  Two loads, or a load and a fence, are never joined:
 * another thread may act between them.
 *
 * Reader word (struct urcu_reader.ctr), with a nesting field of 2 bits:
 * epoch * 4 + nesting.  The grace-period word holds the current epoch
 * with a nesting of one.  Epochs never wrap in a run, so
 * urcu_gp_ctr_before() is a plain comparison.  The reader keeps its own
 * word in rword (only it writes the word; its loads of it are local).
 *
 * Compiler barriers: the model issues each thread's accesses in source
 * order, which is what the compiler keeps wherever an acquire, a release,
 * a fence or the same location orders two accesses.  The one compiler
 * barrier that orders two accesses nothing else orders, between the
 * claim store and the load of the grace-period word in
 * _urcu_common_read_lock(), is modelled (tag CB_RD_CLAIM; its mutant
 * issues them the other way round); tags.pml lists the others and why
 * they need no model.
 *
 * The reader proctype (reader-proc.pml) declares: byte rword, now, p, w,
 * tmp; bit first, armed.  t is a constant.  RD_FENCE: the reader runs
 * real fences (mb; memb and bp without membarrier(2):
 * _urcu_memb_reader_fence()).
 */
#define NEST(x)		((x) & 3)
#define EPOCH(x)	((x) >> 2)
#define EPOCH_STEP	4		/* URCU_GP_EPOCH_STEP */
#define GP_COUNT	1		/* URCU_GP_COUNT */
#define GP_INIT		(EPOCH_STEP + GP_COUNT)
#define BEFORE(a, b)	((a) < (b))	/* urcu_gp_ctr_before() */

/* A fence as a step of its own. */
inline MB(t, on)
{
	d_step { mb_body(t, on) }
}

/* Exit store of _urcu_common_read_unlock(), inside a step. */
inline rd_exit_store(t)
{
	tmp = rword;
	str_body(t, L_RCTR + t, rword - GP_COUNT, RD_EXIT_REL);
	rword = rword - GP_COUNT
}

#if !RD_FENCE
/*
 * _urcu_common_read_lock() of a reader the updater interrupts
 * (membarrier(2), SIGRCU): claim a section under the word's epoch, load
 * the grace-period word; if it moved, publish it and fence.
 */
inline rd_lock(t)
{
#if CB_RD_CLAIM
	atomic {
		str_body(t, L_RCTR + t, rword + GP_COUNT, RD_CLAIM_REL);
		rword = rword + GP_COUNT;
		lda_body(t, L_GP, now, RD_GP_ACQ);
		if
		:: now != rword ->
			/* First section of an epoch. */
			str_body(t, L_RCTR + t, now, RD_FIRST_REL);
			rword = now;
			first = 1
		:: else -> skip
		fi;
		now = 0
	};
#else
	/* Mutant: the compiler moved the load above the claim store. */
	atomic { lda_body(t, L_GP, now, RD_GP_ACQ) };
	d_step {
		str_body(t, L_RCTR + t, rword + GP_COUNT, RD_CLAIM_REL);
		rword = rword + GP_COUNT;
		if
		:: now != rword ->
			str_body(t, L_RCTR + t, now, RD_FIRST_REL);
			rword = now;
			first = 1
		:: else -> skip
		fi;
		now = 0
	};
#endif
	if
	:: d_step { first -> mb_body(t, MB_RD_FIRST); first = 0 }
	:: else -> skip
	fi
}

/* The same function, nested: the store bumps the nesting, the load is
 * wasted (kept: it is an acquire). */
inline rd_lock_nested(t)
{
	atomic {
		str_body(t, L_RCTR + t, rword + GP_COUNT, RD_CLAIM_REL);
		rword = rword + GP_COUNT;
		lda_body(t, L_GP, now, RD_GP_ACQ);
		now = 0
	}
}

#else /* RD_FENCE */

/* _urcu_common_read_lock_fenced(), outermost. */
inline rd_lock(t)
{
	atomic {
		lda_body(t, L_GP, now, RD_LOCKF_ACQ);
		str_body(t, L_RCTR + t, now, RD_LOCKF_REL);
		rword = now;
		now = 0
	};
	MB(t, MB_RD_LOCKF)
}

/*
 * _urcu_common_wake_up_gp_hint() after an unlock that saw the wake word
 * armed, tmp being the word before the exit store, then
 * _urcu_common_wake_up_gp() (load, store 0, FUTEX_WAKE).  One step: the
 * hint's loads only decide whether to wake, and a wake that nobody waits
 * for, or that comes late, changes nothing the updater relies on; what
 * the model must keep is the reader missing the armed word (its relaxed
 * load in the unlock), and the timing of the wake against the updater's
 * sleep, which the step's FUTEX_WAKE (a fence, then the wake) has.
 */
inline rd_hint(t)
{
	atomic {
		lda_body(t, L_WAKE, w, RD_HINT_ACQ);
		if
		:: w == ARMED && NEST(tmp) == GP_COUNT ->
			ld_body(t, L_GP, w);
			if
			:: BEFORE(tmp, w) ->
				ld_body(t, L_WAKE, w);
				if
				:: w == ARMED ->
					st_body(t, L_WAKE, 0);
					futex_wake_body(t, L_WAKE)
				:: else -> skip
				fi
			:: else -> skip
			fi
		:: else -> skip
		fi;
		w = 0;
		tmp = 0;
		armed = 0
	}
}

/*
 * Outermost _urcu_common_read_unlock() with fences, after the section
 * used the object: the relaxed load of the wake word (joined to the use:
 * see rd_use()), the flavor barrier and the exit store, and the hint
 * if the word was armed.
 */
inline rd_unlock_use(t, toucher)
{
	atomic {
		rd_use(t, toucher);
		ld_body(t, L_WAKE, w);
		armed = (w == ARMED);
		w = 0
	};
	if
	:: d_step { armed -> mb_body(t, MB_RD_UNLOCK); rd_exit_store(t) };
		rd_hint(t)
	:: d_step { !armed -> mb_body(t, MB_RD_UNLOCK); rd_exit_store(t); tmp = 0 }
	fi
}

/*
 * A nested section inside an outer one, with fences: the nested lock's
 * release store of the word plus one, then the nested unlock's barrier
 * and exit store.  The nested unlock also loads the wake word, and if it
 * is armed its hint makes one acquire load before finding the nesting
 * deeper than one: that load follows the barrier, which has already
 * ordered everything it would, so the model leaves both out.
 */
inline rd_nested_fenced(t)
{
	d_step {
		str_body(t, L_RCTR + t, rword + GP_COUNT, RD_NESTF_REL);
		rword = rword + GP_COUNT;
		mb_body(t, MB_RD_UNLOCK);
		rd_exit_store(t);
		tmp = 0
	}
}
#endif /* RD_FENCE */

/*
 * Signal flavor: urcu__offline_for_wait() and urcu__online_after_wait()
 * (flavor-internal.h) around a wait inside the library (this thread's own
 * synchronize_rcu(), say), outside any section.
 */
inline park(t)
{
	d_step {
		mb_body(t, MB_PARK);
		str_body(t, L_PARK + t, 1, PARK_REL)
	}
}

inline unpark(t)
{
	d_step {
		st_body(t, L_PARK + t, 0);	/* relaxed: the fence orders it */
		mb_body(t, MB_UNPARK)
	}
}

/*
 * bp: urcu_bp_register() on the first rcu_read_lock() (registry lock,
 * urcu__registry_add()), and the exit handler (reader_thread_exit():
 * urcu__registry_remove()).  One step each: the thread does nothing else
 * while it holds the lock.
 */
inline bp_register(t)
{
	d_step {
		lock_guard(M_REG) ->
		lock_body(t, M_REG);
		where[t] = IN_REG;
		synced[t] = 0;
		unlock_body(t, M_REG)
	}
}

inline bp_unregister(t)
{
	d_step {
		lock_guard(M_REG) ->
		lock_body(t, M_REG);
		where[t] = IN_NONE;
		unlock_body(t, M_REG)
	}
}

#ifdef FLAVOR_SIGNAL
/*
 * SIGRCU on reader t: sigrcu_handler() -> urcu__signal_ack()
 * (signal-barrier.h): fence, release store of need_mb = 0, fence.  It
 * runs between two steps of the reader, or after its last one (a thread
 * blocked elsewhere still takes signals), possibly long after it was
 * sent, as one step: the reader does nothing meanwhile.  Pending signals
 * coalesce (sig_pending is a bit).  Up to MAXLOST signals are lost on the
 * way (as ThreadSanitizer's runtime was seen to lose them), which only
 * the resend (SIG_RESEND) recovers from.
 */
#ifndef MAXLOST
#define MAXLOST	0
#endif
bit sig_pending[NR];
byte sig_lost;

proctype handler(byte t)
{
end_handler:
	do
	:: d_step {
		sig_pending[t] ->
		sig_pending[t] = 0;
		deliver_body(t);
		mb_body(t, MB_SIG_ACK_PRE);
		str_body(t, L_NEED + t, 0, SIG_ACK_REL);
		mb_body(t, MB_SIG_ACK_POST)
	   }
	:: d_step {
		sig_pending[t] && sig_lost < MAXLOST ->
		sig_pending[t] = 0;
		sig_lost++
	   }
#ifdef LIVENESS
	/*
	 * Liveness runs: this process is also the reader's store buffer
	 * agent (mem-tso.pml), one process fewer for weak fairness to
	 * track.  It flushes only while no signal is pending, so that it
	 * cannot keep flushing and never deliver; a pending signal's handler
	 * drains the buffer with its fences anyway.
	 */
	AGENT_ALTS(t, !sig_pending[t])
#endif
	od
}
#endif
