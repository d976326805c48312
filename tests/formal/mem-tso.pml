/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mem-tso.pml: x86-TSO, the memory model of the "tso" runs.
 *
 * Memory is one array, mem[], that every thread sees alike.  Each thread
 * owns a FIFO store buffer of up to SB_SIZE stores.  A load returns the
 * thread's newest buffered store to its location if there is one, else
 * memory.  This is the x86-TSO model of Sewell et al.: the only
 * reordering is a store followed by a load of another location.
 *
 * When buffered stores reach memory.  Safety runs have no process that
 * drains the buffers at random moments: a store reaching memory matters
 * only to the first thread that then reads its location, so that thread
 * decides.  Before a thread reads location l from memory (a load, a
 * read-modify-write, FUTEX_WAIT's check), each other thread's buffer
 * moves to memory any prefix of it that ends at a store to l, or none
 * (expose()).  A flush that no load ever observes changes nothing, and a
 * flush observed later is the same execution with that flush moved
 * later, so this loses no TSO execution and saves the interleavings of
 * flushes nobody looks at.  A store to an object is checked when it
 * enters the buffer against the conflicting stores then pending or in
 * memory (ISSUE_HOOK), which covers every order in which they could land.
 * Liveness runs need buffers to drain by themselves (a poll must end up
 * seeing a store): there each thread's agent process moves the oldest
 * entry to memory at a moment of its choosing, and loads do not expose.
 *
 * Bound: a store into a full buffer first moves the oldest entry to
 * memory (TSO allows that flush; what the bound loses are executions in
 * which more than SB_SIZE stores of one thread are invisible at once).
 *
 * On x86 acquire loads and release stores are plain loads and stores, so
 * here too (the weak model, mem-wmm.pml, is where they matter).  A full
 * fence (cmm_smp_mb(), a locked instruction) drains the thread's buffer.
 * Read-modify-writes are locked: they drain the buffer, then act.
 *
 * Kernel and libc operations, as the code relies on them:
 *  - pthread mutex lock and unlock use locked instructions: both drain;
 *  - FUTEX_WAIT and FUTEX_WAKE are full barriers (the kernel orders the
 *    waiter's value check and the waker's store against each other); a
 *    wait blocks until a wake on its location (or, timed, any moment);
 *  - pthread_kill is a system call that takes the target's signal lock:
 *    a barrier on the caller (tag SYS_KILL);
 *  - membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): a fence on the caller,
 *    one on every other thread (the IPI, or its context switch), one on
 *    the caller again;
 *  - signal delivery: kernel entry and exit drain the buffer on x86, but
 *    the code does not rely on it (the handler fences): nothing.
 *
 * Users define NT (threads), NLOC (locations), NMTX (mutexes) and
 * ISSUE_HOOK(t, l, v), run as thread t's store of v to l enters its
 * buffer.
 */
#ifndef SB_SIZE
#define SB_SIZE	2
#endif

byte mem[NLOC];
byte sb_loc[NT * SB_SIZE];
byte sb_val[NT * SB_SIZE];
byte sb_n[NT];
bit mtx[NMTX];
byte fx_wait[NT];	/* 1 + location a thread sleeps on, 0: awake */
byte _i;
byte _k;
byte _m;
byte _u;
byte _v;

#define SBX(t, k)	((t) * SB_SIZE + (k))

/* Oldest buffered store of thread t to memory. */
inline sb_flush_one(t)
{
	mem[sb_loc[SBX(t, 0)]] = sb_val[SBX(t, 0)];
	_i = 1;
	do
	:: _i < sb_n[t] ->
		sb_loc[SBX(t, _i - 1)] = sb_loc[SBX(t, _i)];
		sb_val[SBX(t, _i - 1)] = sb_val[SBX(t, _i)];
		_i++
	:: else -> break
	od;
	sb_n[t]--;
	sb_loc[SBX(t, sb_n[t])] = 0;
	sb_val[SBX(t, sb_n[t])] = 0;
	_i = 0
}

inline sb_drain(t)
{
	do
	:: sb_n[t] > 0 -> sb_flush_one(t)
	:: else -> break
	od
}

/* Does some thread's buffer hold a store of v to l?  Result in _v. */
inline pending_store(l, v)
{
	_v = 0;
	_i = 0;
	do
	:: _i < NT * SB_SIZE ->
		if
		:: _i % SB_SIZE < sb_n[_i / SB_SIZE] &&
		   sb_loc[_i] == (l) && sb_val[_i] == (v) -> _v = 1
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0
}

/*
 * Before thread t reads l from memory: every other thread moves to
 * memory a prefix of its buffer ending at a store to l, or nothing.
 */
#ifdef LIVENESS
#define expose(t, l)	skip
#else
inline expose(t, l)
{
	_u = 0;
	do
	:: _u < NT ->
		if
		:: _u != (t) ->
			_m = 0;
			_k = 0;
			do
			:: _k < sb_n[_u] ->
				if
				:: sb_loc[SBX(_u, _k)] == (l) -> _m = _k + 1
				:: true -> skip
				fi;
				_k++
			:: else -> break
			od;
			do
			:: _m > 0 -> sb_flush_one(_u); _m--
			:: else -> break
			od;
			_k = 0
		:: else -> skip
		fi;
		_u++
	:: else -> break
	od;
	_u = 0
}
#endif

/*
 * Bodies, without atomicity of their own: the models put each access,
 * with the thread-local work around it, in one atomic step.
 */
inline ld_body(t, l, v)
{
	expose(t, l);
	v = mem[l];
	_i = 0;
	do
	:: _i < sb_n[t] ->
		if
		:: sb_loc[SBX(t, _i)] == (l) -> v = sb_val[SBX(t, _i)]
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0
}

inline lda_body(t, l, v, acq)
{
	ld_body(t, l, v)
}

inline st_body(t, l, v)
{
	ISSUE_HOOK(t, l, v);
	if
	:: sb_n[t] == SB_SIZE -> sb_flush_one(t)
	:: else -> skip
	fi;
	sb_loc[SBX(t, sb_n[t])] = l;
	sb_val[SBX(t, sb_n[t])] = v;
	sb_n[t]++
}

inline str_body(t, l, v, rel)
{
	st_body(t, l, v)
}

#define fence_body(t)		sb_drain(t)

/* A full fence when on is 1; nothing when a mutant turned it off. */
inline mb_body(t, on)
{
	if
	:: on -> sb_drain(t)
	:: else -> skip
	fi
}

/* The barrier membarrier(2) forces on another thread. */
#define ipi_body(t)		sb_drain(t)
/* Deferred loads (mem-wmm.pml): TSO performs loads in order. */
#define perform_loads(t)	skip

/* Initial value of a location (init, before any thread runs). */
#define mem_set(l, v)		mem[l] = v
#define mem_start()		skip

/* Read-modify-writes are locked instructions on x86 (any memory order). */
inline xchg_body(t, l, nv, ov, acq, rel)
{
	sb_drain(t);
	expose(t, l);
	ov = mem[l];
	mem[l] = nv
}

/* C11 compare-exchange: on failure exp receives the current value. */
inline cas_body(t, l, exp, nv, ok, acq, rel)
{
	sb_drain(t);
	expose(t, l);
	if
	:: mem[l] == exp -> mem[l] = nv; ok = 1
	:: else -> exp = mem[l]; ok = 0
	fi
}

/* Mutexes: SC flags; lock and unlock drain (glibc's locked instructions). */
#define lock_guard(m)		(mtx[m] == 0)
inline lock_body(t, m)		{ sb_drain(t); mtx[m] = 1 }
inline unlock_body(t, m)	{ sb_drain(t); mtx[m] = 0 }

/* pthread_kill(): a system call through the target's signal lock. */
inline sys_kill_body(t, on)
{
	mb_body(t, on)
}

#define deliver_body(t)		skip

/* FUTEX_WAIT's check-and-sleep (then block on fx_wait[t] == 0). */
inline futex_wait_body(t, l, val)
{
	sb_drain(t);
	expose(t, l);
	if
	:: mem[l] == val -> fx_wait[t] = (l) + 1
	:: else -> skip
	fi
}

/* FUTEX_WAKE of one sleeper on l. */
inline futex_wake_body(t, l)
{
	sb_drain(t);
	_i = 0;
	do
	:: _i < NT && fx_wait[_i] == (l) + 1 -> fx_wait[_i] = 0; break
	:: _i < NT && fx_wait[_i] != (l) + 1 -> _i++
	:: else -> break
	od;
	_i = 0
}

#ifdef LIVENESS
/*
 * Liveness runs: each thread's buffer drains on its own, in order, when
 * g holds (an alternative of an agent's loop).
 */
#define AGENT_ALTS(t, g)	:: d_step { (g) && sb_n[t] > 0 -> sb_flush_one(t) }

proctype agent(byte t)
{
end_agent:
	do
	AGENT_ALTS(t, true)
	od
}
#define run_agent(t)	run agent(t)
#else
#define run_agent(t)	skip
#endif
