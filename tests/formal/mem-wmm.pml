/*
 * mem-wmm.pml: the weak memory model of the "wmm" runs, in which no two
 * accesses of a thread stay in order unless something in the code orders
 * them: a fence, an acquire load, a release store, a dependency, or the
 * same location.
 *
 * Memory is one array, mem[] (multi-copy atomic: a store that reaches
 * memory is visible to every other thread at once).  Each thread has its
 * own copy of every location, cache[], with a dirty bit:
 *
 *  - a store writes the thread's copy and marks it dirty; the thread's
 *    agent process writes dirty copies back to memory one location at a
 *    time, in any order: stores to different locations are reordered
 *    (store-store), and a later load may run ahead of them (store-load);
 *  - a load of a clean copy returns either the copy (the value this thread
 *    last saw there) or the current memory value, which then becomes the
 *    copy: loads of different locations are reordered (load-load), and a
 *    thread never reads a location backwards (coherence); a dirty copy is
 *    the thread's own last store, which it reads back;
 *  - loads whose value is only checked, never branched on or used as an
 *    address (the reader's loads of the protected object, obj_load below),
 *    are performed as late as the code lets them: at the thread's next
 *    fence, release store, release read-modify-write, mutex unlock,
 *    system call or forced barrier.  Later stores and loads may pass them
 *    (load-store, "load buffering"), and since an object only ever goes
 *    from valid to freed, the latest moment is the worst one;
 *  - an acquire load (LDA with acq 1) reads current memory and then
 *    refreshes every clean copy: no later load returns anything older;
 *  - a release store (STR with rel 1) first performs the deferred loads
 *    and writes every dirty copy back: every earlier access is visible
 *    before it;
 *  - a full fence does both, and so does a barrier forced on the thread
 *    by another (membarrier's IPI, a signal handler's fence).
 *
 * What this is: ARMv8-like (other-multi-copy atomic) ordering with C11
 * acquire/release meaning exactly "nothing later moves before" and
 * "nothing earlier moves after".  What it is not: non-multi-copy-atomic
 * machines (POWER, where two readers may see two independent stores in
 * different orders) and out-of-thin-air values.  Two simplifications:
 *  - a load that decides a branch, or supplies an address, is performed
 *    where it is issued (no speculation past it); in the code modelled,
 *    every such load whose order against a later load matters is an
 *    acquire load or follows a fence, so speculation would not change what
 *    the model can do (the tags of the acquire loads are mutated to check
 *    exactly that);
 *  - a clean copy is refreshed only when it is read (lazily): a load
 *    returns the last value this thread saw or the current one, not a
 *    value that was current in between.
 *
 * Kernel and libc operations: mutex lock is an acquire (refresh), unlock a
 * release; futex wait and wake are full barriers; pthread_kill is a
 * release (the target's signal lock) and signal delivery an acquire of
 * that lock; membarrier is a fence on the caller, a forced barrier on
 * each other thread, and a fence on the caller again.
 *
 * Users define NT, NLOC (at most 20), NMTX, MEM_WRITE_HOOK(l, v) and
 * DEFERRED_HOOK(t) (perform thread t's deferred loads).
 */
#if NLOC > 20
#error "mem-wmm.pml: at most 20 locations (see agent)"
#endif
byte mem[NLOC];
byte cache[NT * NLOC];
bit dirty[NT * NLOC];
bit mtx[NMTX];
byte fx_wait[NT];	/* 1 + location a thread sleeps on in FUTEX_WAIT, 0: awake */
hidden byte _i;
hidden byte _v;

#define WX(t, l)	((t) * NLOC + (l))

inline wb_one(t, l)
{
	MEM_WRITE_HOOK(l, cache[WX(t, l)]);
	mem[l] = cache[WX(t, l)];
	dirty[WX(t, l)] = 0
}

inline wb_all(t)
{
	_i = 0;
	do
	:: _i < NLOC ->
		if
		:: dirty[WX(t, _i)] -> wb_one(t, _i)
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	skip
}

inline refresh_all(t)
{
	_i = 0;
	do
	:: _i < NLOC ->
		if
		:: !dirty[WX(t, _i)] -> cache[WX(t, _i)] = mem[_i]
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	skip
}

/* Bodies (no atomicity of their own), for use inside atomic blocks. */
inline ld_body(t, l, v)
{
	if
	:: dirty[WX(t, l)] || cache[WX(t, l)] == mem[l] -> skip
	:: !dirty[WX(t, l)] && cache[WX(t, l)] != mem[l] ->
		cache[WX(t, l)] = mem[l]	/* reads current memory */
	:: !dirty[WX(t, l)] && cache[WX(t, l)] != mem[l] ->
		skip				/* or what it saw last */
	fi;
	v = cache[WX(t, l)]
}

inline lda_body(t, l, v, acq)
{
	if
	:: acq ->
		if
		:: !dirty[WX(t, l)] -> cache[WX(t, l)] = mem[l]
		:: else -> skip
		fi;
		v = cache[WX(t, l)];
		refresh_all(t)
	:: else -> ld_body(t, l, v)
	fi
}

inline st_body(t, l, v)
{
	cache[WX(t, l)] = v;
	dirty[WX(t, l)] = 1
}

inline str_body(t, l, v, rel)
{
	if
	:: rel -> DEFERRED_HOOK(t); wb_all(t)
	:: else -> skip
	fi;
	st_body(t, l, v)
}

inline fence_body(t)
{
	DEFERRED_HOOK(t);
	wb_all(t);
	refresh_all(t)
}

inline mb_body(t, on)
{
	if
	:: on -> fence_body(t)
	:: else -> skip
	fi
}

#define ipi_body(t)		fence_body(t)
#define deliver_body(t)		refresh_all(t)
#define deferred_body(t)	DEFERRED_HOOK(t)

/* Initial value of a location (init, before any thread runs). */
inline mem_set(l, v)
{
	mem[l] = v;
	_i = 0;
	do
	:: _i < NT -> cache[WX(_i, l)] = v; _i++
	:: else -> break
	od;
	skip
}

/* Statements. */
inline LD(t, l, v)		{ atomic { ld_body(t, l, v) } }
inline LDA(t, l, v, acq)	{ atomic { lda_body(t, l, v, acq) } }
inline ST(t, l, v)		{ d_step { st_body(t, l, v) } }
inline STR(t, l, v, rel)	{ d_step { str_body(t, l, v, rel) } }
inline FENCE(t)			{ d_step { fence_body(t) } }
inline MB(t, on)		{ d_step { mb_body(t, on) } }
inline IPI(t)			{ d_step { fence_body(t) } }

inline rmw_pre(t, l, rel)
{
	if
	:: rel -> DEFERRED_HOOK(t); wb_all(t)
	:: else -> skip
	fi;
	if
	:: dirty[WX(t, l)] -> wb_one(t, l)	/* our own earlier store first */
	:: else -> skip
	fi
}

inline rmw_post(t, l, acq)
{
	cache[WX(t, l)] = mem[l];
	if
	:: acq -> refresh_all(t)
	:: else -> skip
	fi
}

inline XCHG(t, l, nv, ov, acq, rel)
{
	d_step {
		rmw_pre(t, l, rel);
		ov = mem[l];
		MEM_WRITE_HOOK(l, nv);
		mem[l] = nv;
		rmw_post(t, l, acq)
	}
}

/* C11 semantics: on failure exp receives the current value. */
inline CAS(t, l, exp, nv, ok, acq, rel)
{
	d_step {
		rmw_pre(t, l, rel);
		if
		:: mem[l] == exp -> MEM_WRITE_HOOK(l, nv); mem[l] = nv; ok = 1
		:: else -> exp = mem[l]; ok = 0
		fi;
		rmw_post(t, l, acq)
	}
}

/* Bodies; lock_body must open its d_step (its first statement blocks). */
#define lock_body(t, m)		mtx[m] == 0; mtx[m] = 1; refresh_all(t)
#define unlock_body(t, m)	DEFERRED_HOOK(t); wb_all(t); mtx[m] = 0
inline LOCK(t, m)	{ d_step { lock_body(t, m) } }
inline UNLOCK(t, m)	{ d_step { unlock_body(t, m) } }

inline FUTEX_WAIT(t, l, val)
{
	d_step {
		fence_body(t);
		if
		:: mem[l] == val -> fx_wait[t] = (l) + 1
		:: else -> skip
		fi
	};
	fx_wait[t] == 0
}

inline FUTEX_WAIT_TIMED(t, l, val)
{
	d_step {
		fence_body(t);
		if
		:: mem[l] == val -> fx_wait[t] = (l) + 1
		:: else -> skip
		fi
	};
	if
	:: fx_wait[t] == 0 -> skip
	:: atomic { fx_wait[t] != 0 -> fx_wait[t] = 0 }	/* timed out */
	fi
}

inline FUTEX_WAKE(t, l)
{
	d_step {
		fence_body(t);
		_i = 0;
		do
		:: _i < NT && fx_wait[_i] == (l) + 1 -> fx_wait[_i] = 0; break
		:: _i < NT && fx_wait[_i] != (l) + 1 -> _i++
		:: else -> break
		od;
		skip
	}
}

/* pthread_kill(): release through the target's signal lock. */
inline sys_kill_body(t, on)
{
	if
	:: on -> DEFERRED_HOOK(t); wb_all(t)
	:: else -> skip
	fi
}

#define WB_ALT(t, l)	:: d_step { (l) < NLOC && dirty[WX(t, l)] -> wb_one(t, l) }

/* Each thread's dirty copies reach memory on their own, in any order. */
proctype agent(byte t)
{
end_agent:
	do
	WB_ALT(t, 0) WB_ALT(t, 1) WB_ALT(t, 2) WB_ALT(t, 3) WB_ALT(t, 4)
	WB_ALT(t, 5) WB_ALT(t, 6) WB_ALT(t, 7) WB_ALT(t, 8) WB_ALT(t, 9)
	WB_ALT(t, 10) WB_ALT(t, 11) WB_ALT(t, 12) WB_ALT(t, 13) WB_ALT(t, 14)
	WB_ALT(t, 15) WB_ALT(t, 16) WB_ALT(t, 17) WB_ALT(t, 18) WB_ALT(t, 19)
	od;
	skip
}
