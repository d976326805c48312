/*
 * reader.pml: the read side of the memb, mb, signal and bp flavors
 * (rcu/include/urcu/static/urcu-common.h and the flavor headers), the
 * signal handler (rcu/src/signal-barrier.h), parking (flavor-internal.h)
 * and bp's registration (rcu/src/urcu-bp.c), as inlines over the memory
 * model.
 *
 * Steps: each access to shared memory is one atomic step, which also does
 * the thread-local work (its own word, branches) that follows it up to the
 * next access; a thread's local work is invisible to the others, so
 * nothing is lost.  Two accesses share a step only where the second is a
 * store with no ordering of its own: issuing a store into a buffer is
 * invisible too, and the agent still decides when it reaches memory.
 *
 * Reader word (struct urcu_reader.ctr), as in the code with a nesting
 * field of 2 bits: epoch * 4 + nesting.  The grace-period word holds the
 * current epoch with a nesting of one.  Epochs never wrap in a model run,
 * so urcu_gp_ctr_before() is a plain comparison.
 *
 * Compiler barriers: the model issues each thread's accesses in source
 * order, which is what the compiler must keep wherever an acquire, a
 * release, a fence or the same location orders two accesses.  The one
 * compiler barrier that orders two accesses nothing else orders is
 * modelled (CB_RD_CLAIM: its mutant issues them the other way round); the
 * others only repeat an acquire or a release next to them, or keep code
 * outside the section from moving in (tags.pml, "Compiler barriers").
 *
 * The proctype using these declares: byte rword, tmp, now, p, w; bit
 * first, armed; t is a constant (reader-proc.pml).  RD_FENCE says whether the reader runs real fences (mb,
 * and memb or bp without membarrier(2): _urcu_memb_reader_fence()).
 */
#define NEST(w)		((w) & 3)
#define EPOCH(w)	((w) >> 2)
#define EPOCH_STEP	4		/* URCU_GP_EPOCH_STEP */
#define GP_COUNT	1		/* URCU_GP_COUNT */
#define GP_INIT		(EPOCH_STEP + GP_COUNT)
#define BEFORE(a, b)	((a) < (b))	/* urcu_gp_ctr_before() */

/* rcu_read_lock(): _urcu_common_read_lock() and its fenced variant. */
inline rd_lock(t)
{
#if RD_FENCE
	if
	:: atomic { NEST(rword) == 0 ->
		/* _urcu_common_read_lock_fenced(), outermost. */
		lda_body(t, L_GP, now, RD_LOCKF_ACQ) };
		d_step {
			str_body(t, L_RCTR + t, now, RD_LOCKF_REL);
			rword = now;
			now = 0
		};
		MB(t, MB_RD_LOCKF)
	:: d_step { NEST(rword) != 0 ->
		/* _urcu_common_read_lock_fenced(), nested. */
		str_body(t, L_RCTR + t, rword + GP_COUNT, RD_NESTF_REL);
		rword = rword + GP_COUNT }
	fi
#else
	/*
	 * _urcu_common_read_lock(): claim a section under the word's epoch
	 * (nested: one more level), then load the epoch.
	 */
#if CB_RD_CLAIM
	d_step {
		tmp = rword;
		str_body(t, L_RCTR + t, tmp + GP_COUNT, RD_CLAIM_REL);
		rword = tmp + GP_COUNT
	};
	atomic {
		lda_body(t, L_GP, now, RD_GP_ACQ);
		first = (now != tmp + GP_COUNT && NEST(tmp) == 0);
		tmp = 0
	};
#else
	/* Mutant: the compiler hoisted the load above the store. */
	atomic {
		tmp = rword;
		lda_body(t, L_GP, now, RD_GP_ACQ);
		first = (now != tmp + GP_COUNT && NEST(tmp) == 0)
	};
	d_step {
		str_body(t, L_RCTR + t, tmp + GP_COUNT, RD_CLAIM_REL);
		rword = tmp + GP_COUNT;
		tmp = 0
	};
#endif
	if
	:: d_step { first ->
		/* First section of an epoch: publish it, then fence. */
		str_body(t, L_RCTR + t, now, RD_FIRST_REL);
		rword = now;
		now = 0;
		first = 0 };
		MB(t, MB_RD_FIRST)
	:: d_step { !first -> now = 0 }	/* fast path, or nested */
	fi
#endif
}

/*
 * rcu_read_unlock(): _urcu_common_read_unlock(), then
 * _urcu_common_wake_up_gp_hint() and _urcu_common_wake_up_gp() when the
 * wake word was armed.
 */
inline rd_unlock(t)
{
#if RD_FENCE
	/* Relaxed load: the wake is a hint. */
	atomic { ld_body(t, L_WAKE, w); armed = (w == ARMED); w = 0 };
	MB(t, MB_RD_UNLOCK);		/* _urcu_common_slave_mb(1) */
#endif
	d_step {
		tmp = rword;
		str_body(t, L_RCTR + t, tmp - GP_COUNT, RD_EXIT_REL);
		rword = tmp - GP_COUNT
	};
#if RD_FENCE
	if
	:: armed ->
		atomic {
			lda_body(t, L_WAKE, w, RD_HINT_ACQ);
			armed = (w == ARMED && NEST(tmp) == 1);
			w = 0
		};
		if
		:: armed ->
			atomic { ld_body(t, L_GP, w); armed = BEFORE(tmp, w); w = 0 };
			if
			:: armed ->
				atomic { ld_body(t, L_WAKE, w); armed = (w == ARMED); w = 0 };
				if
				:: armed ->
					ST(t, L_WAKE, 0);
					FUTEX_WAKE(t, L_WAKE);
					armed = 0
				:: else -> skip
				fi
			:: else -> skip
			fi
		:: else -> skip
		fi
	:: else -> skip
	fi;
#endif
	tmp = 0
}

/*
 * What a section does: dereference (consume load: the object's address
 * depends on it), read the object, and for reader 0 (TOUCHER) store into
 * it.  TSO: the object load is a step of its own, checked there.  WMM: it
 * is deferred (mem-wmm.pml), and the store rides along with the
 * dereference.
 */
inline rd_access(t)
{
#ifdef WMM
	atomic {
		ld_body(t, L_PTR, p);
		pend[t] = pend[t] | (1 << p);
#if TOUCHER(t)
		st_body(t, L_OBJ + p, TOUCHED);
		touched[p] = 1;
#endif
		p = 0
	}
#else
	atomic { ld_body(t, L_PTR, p) };
	d_step {
		ld_body(t, L_OBJ + p, _v);
		assert(_v != POISON);
#if TOUCHER(t)
		st_body(t, L_OBJ + p, TOUCHED);
		touched[p] = 1;
#endif
		p = 0
	}
#endif
}

/* One section; reader 1 also opens and closes a nested one inside. */
inline rd_section(t)
{
	rd_lock(t);
#if NESTER(t)
	rd_lock(t);
	rd_unlock(t);
#endif
	rd_access(t);
	rd_unlock(t)
}

/*
 * Signal flavor: urcu__offline_for_wait() and urcu__online_after_wait(),
 * around a wait inside the library (a synchronize_rcu() of this thread,
 * say), outside any section.
 */
inline park(t)
{
	MB(t, MB_PARK);
	STR(t, L_PARK + t, 1, PARK_REL)
}

inline unpark(t)
{
	ST(t, L_PARK + t, 0);		/* relaxed: the fence below orders it */
	MB(t, MB_UNPARK)
}

/*
 * bp: urcu_bp_register() on the first rcu_read_lock(), and the exit
 * handler (reader_thread_exit: urcu__registry_remove()).
 */
inline bp_register(t)
{
	LOCK(t, M_REG);
	d_step { where[t] = IN_REG; synced[t] = 0 };
	UNLOCK(t, M_REG)
}

inline bp_unregister(t)
{
	LOCK(t, M_REG);
	d_step { where[t] = IN_NONE };
	UNLOCK(t, M_REG)
}

/*
 * SIGRCU on reader t: sigrcu_handler() -> urcu__signal_ack(), at any point
 * between two of the reader's steps (or after its last one: a thread
 * blocked elsewhere still takes signals), possibly long after it was
 * sent.  One atomic step: the reader does nothing while it runs, and its
 * intermediate states show nothing the agent could not show (the first
 * fence drains what the reader issued before the signal).  Up to MAXLOST
 * signals are lost on the way (as ThreadSanitizer's runtime was seen to),
 * which only the resend (SIG_RESEND) recovers from.
 */
#ifndef MAXLOST
#define MAXLOST	0
#endif
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
	:: d_step { sig_pending[t] && sig_lost < MAXLOST ->
		sig_pending[t] = 0; sig_lost++ }
	od
}
