/*
 * mem-tso.pml: x86-TSO, the memory model of the "tso" runs.
 *
 * Memory is one array, mem[], that every thread sees alike.  Each thread
 * owns a FIFO store buffer of SB_SIZE entries: a store enters the buffer,
 * and the thread's agent process (agent_tso) moves the oldest entry to
 * memory at a moment of its own choosing.  A load returns the thread's
 * newest buffered store to that location if there is one, else memory.
 * This is the x86-TSO model of Sewell et al.: the only reordering is a
 * store followed by a load of another location; stores stay in order and
 * loads stay in order.
 *
 * On x86 acquire loads and release stores are plain loads and stores, so
 * here too (LDA, STR ignore their ordering argument); the weak model
 * (mem-wmm.pml) is where they matter.  A full fence (cmm_smp_mb(), a
 * locked instruction) drains the thread's buffer, atomically: a partial
 * drain followed by other threads' steps is the agent's job, so nothing
 * is lost.  Read-modify-writes are locked instructions: they drain the
 * buffer, then act on memory.
 *
 * Kernel and libc operations, as the code relies on them:
 *  - pthread mutex lock and unlock: glibc uses locked instructions for both,
 *    so both drain the buffer (the mutex itself is an SC flag, mtx[]);
 *  - futex wait and wake: full barriers (the kernel's barriers A and B in
 *    kernel/futex: the waiter's value check and the waker's store cannot
 *    both miss each other); a wait blocks until a wake for its location,
 *    or with a timeout, at any moment;
 *  - pthread_kill: a system call that takes the target's signal lock: it
 *    drains the buffer (tag SYS_KILL);
 *  - membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): a fence on the caller,
 *    then one on each other thread at a point of its execution (IPI), then
 *    one on the caller again (the kernel's smp_mb() before and after).
 *
 * Users define NT (threads), NLOC (locations) and MEM_WRITE_HOOK(l, v),
 * run just before v lands in mem[l] (models check use-after-free there).
 */
#ifndef SB_SIZE
#define SB_SIZE	3
#endif

byte mem[NLOC];
byte sb_loc[NT * SB_SIZE];
byte sb_val[NT * SB_SIZE];
byte sb_n[NT];
bit mtx[NMTX];
byte fx_wait[NT];	/* 1 + location a thread sleeps on in FUTEX_WAIT, 0: awake */
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
	sb_val[SBX(t, sb_n[t])] = 0
}

inline sb_drain(t)
{
	do
	:: sb_n[t] > 0 -> sb_flush_one(t)
	:: else -> break
	od;
	skip
}

/* Bodies (no atomicity of their own), for use inside atomic blocks. */
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
	skip
}
#define lda_body(t, l, v, acq)	ld_body(t, l, v)

inline st_body(t, l, v)
{
	if
	:: sb_n[t] == SB_SIZE -> sb_flush_one(t)	/* full: stall until one drains */
	:: else -> skip
	fi;
	sb_loc[SBX(t, sb_n[t])] = l;
	sb_val[SBX(t, sb_n[t])] = v;
	sb_n[t]++
}
#define str_body(t, l, v, rel)	st_body(t, l, v)

#define fence_body(t)		sb_drain(t)
/* A fence when on is 1; nothing when a mutant turned it off. */
inline mb_body(t, on)
{
	if
	:: on -> sb_drain(t)
	:: else -> skip
	fi
}
/* Ordering a thread gets from a barrier another thread forces on it. */
#define ipi_body(t)		sb_drain(t)
/* Kernel signal delivery to thread t: nothing to add under TSO. */
#define deliver_body(t)		skip
/* Loads deferred to the next ordering point: TSO performs loads in order. */
#define deferred_body(t)	skip

/* Initial value of a location (init, before any thread runs). */
#define mem_set(l, v)		mem[l] = v

/* Statements. */
inline LD(t, l, v)		{ d_step { ld_body(t, l, v) } }
inline LDA(t, l, v, acq)	{ d_step { ld_body(t, l, v) } }
inline ST(t, l, v)		{ d_step { st_body(t, l, v) } }
inline STR(t, l, v, rel)	{ d_step { st_body(t, l, v) } }
inline FENCE(t)			{ d_step { sb_drain(t) } }
inline MB(t, on)		{ d_step { mb_body(t, on) } }
inline IPI(t)			{ d_step { sb_drain(t) } }

/* Locked exchange / compare-and-swap (any memory order: x86 has one). */
inline XCHG(t, l, nv, ov, acq, rel)
{
	d_step {
		sb_drain(t);
		ov = mem[l];
		MEM_WRITE_HOOK(l, nv);
		mem[l] = nv
	}
}

/* C11 semantics: on failure exp receives the current value. */
inline CAS(t, l, exp, nv, ok, acq, rel)
{
	d_step {
		sb_drain(t);
		if
		:: mem[l] == exp -> MEM_WRITE_HOOK(l, nv); mem[l] = nv; ok = 1
		:: else -> exp = mem[l]; ok = 0
		fi
	}
}

/* Bodies; lock_body must open its d_step (its first statement blocks). */
#define lock_body(t, m)		mtx[m] == 0; sb_drain(t); mtx[m] = 1
#define unlock_body(t, m)	sb_drain(t); mtx[m] = 0
inline LOCK(t, m)	{ d_step { lock_body(t, m) } }
inline UNLOCK(t, m)	{ d_step { unlock_body(t, m) } }

/* FUTEX_WAIT: sleep if mem[l] still holds val, until a FUTEX_WAKE on l. */
inline FUTEX_WAIT(t, l, val)
{
	d_step {
		sb_drain(t);
		if
		:: mem[l] == val -> fx_wait[t] = (l) + 1
		:: else -> skip
		fi
	};
	fx_wait[t] == 0
}

/* The same with a timeout: the sleep may also end at any moment. */
inline FUTEX_WAIT_TIMED(t, l, val)
{
	d_step {
		sb_drain(t);
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

/* FUTEX_WAKE of one sleeper on l. */
inline FUTEX_WAKE(t, l)
{
	d_step {
		sb_drain(t);
		_i = 0;
		do
		:: _i < NT && fx_wait[_i] == (l) + 1 -> fx_wait[_i] = 0; break
		:: _i < NT && fx_wait[_i] != (l) + 1 -> _i++
		:: else -> break
		od;
		skip
	}
}

/* pthread_kill(): a system call through the target's signal lock. */
inline sys_kill_body(t, on)
{
	mb_body(t, on)
}

/* Each thread's store buffer drains on its own, in order. */
proctype agent(byte t)
{
end_agent:
	do
	:: d_step { sb_n[t] > 0 -> sb_flush_one(t) }
	od;
	skip
}
