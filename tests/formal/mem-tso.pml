/*
 * mem-tso.pml: x86-TSO, the memory model of the "tso" runs.
 *
 * Memory is one array, mem[], that every thread sees alike.  Each thread
 * owns a FIFO store buffer of up to SB_SIZE stores: a store enters the
 * buffer, and the thread's agent process moves the oldest entry to memory
 * at a moment of its own choosing.  A load returns the thread's newest
 * buffered store to that location if there is one, else memory.  This is
 * the x86-TSO model of Sewell et al.: the only reordering is a store
 * followed by a load of another location.
 *
 * Bound: a store into a full buffer first moves the oldest entry to
 * memory (TSO allows that flush; what the bound loses are executions in
 * which more than SB_SIZE stores of one thread are invisible at once).
 *
 * On x86 acquire loads and release stores are plain loads and stores, so
 * here too (the weak model, mem-wmm.pml, is where they matter).  A full
 * fence (cmm_smp_mb(), a locked instruction) drains the thread's buffer
 * in one step: a partial drain interleaved with other threads' steps is
 * what the agent already does.  Read-modify-writes are locked: they drain
 * the buffer, then act on memory.
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
 *    the caller again; the model runs it as one step (updater.pml says
 *    why that loses nothing).
 *
 * Users define NT (threads), NLOC (locations), NMTX (mutexes) and
 * MEM_WRITE_HOOK(l, v), run just before v lands in mem[l].
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
hidden byte _i;
hidden byte _v;

#define SBX(t, k)	((t) * SB_SIZE + (k))

/* Oldest buffered store of thread t to memory. */
inline sb_flush_one(t)
{
	MEM_WRITE_HOOK(sb_loc[SBX(t, 0)], sb_val[SBX(t, 0)]);
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

/*
 * Bodies, without atomicity of their own: the models put each access,
 * with the thread-local work around it, in one atomic step.
 */
inline ld_body(t, l, v)
{
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

/* Read-modify-writes are locked instructions on x86 (any memory order). */
inline xchg_body(t, l, nv, ov, acq, rel)
{
	sb_drain(t);
	ov = mem[l];
	MEM_WRITE_HOOK(l, nv);
	mem[l] = nv
}

/* C11 compare-exchange: on failure exp receives the current value. */
inline cas_body(t, l, exp, nv, ok, acq, rel)
{
	sb_drain(t);
	if
	:: mem[l] == exp -> MEM_WRITE_HOOK(l, nv); mem[l] = nv; ok = 1
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

/*
 * Signal delivery to thread t.  Kernel entry and exit do drain the store
 * buffer on x86, but the code does not rely on that: the handler runs its
 * own fences, and the model assumes nothing of delivery.
 */
#define deliver_body(t)		skip

/* FUTEX_WAIT's check-and-sleep (then block on fx_wait[t] == 0). */
inline futex_wait_body(t, l, val)
{
	sb_drain(t);
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

/* Each thread's store buffer drains on its own, in order. */
proctype agent(byte t)
{
end_agent:
	do
	:: d_step { sb_n[t] > 0 -> sb_flush_one(t) }
	od
}

/* After the initial values are set (init): nothing to do under TSO. */
#define mem_start()	skip
#define fence_body(t)	sb_drain(t)
