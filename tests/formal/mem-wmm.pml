/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mem-wmm.pml: the weak memory model of the "wmm" runs, in which two
 * accesses of a thread stay in order only if something in the code orders
 * them: a fence, an acquire load, a release store, an address dependency,
 * or the same location.
 *
 * Memory is one array, mem[] (multi-copy atomic: a store that reaches
 * memory is visible to every other thread at once).
 *
 * Stores.  Each thread has a buffer of up to WB_SIZE stores, each marked
 * release or not.  An entry may reach memory once every older entry to
 * the same location has (coherence) and, for a release entry, once every
 * older entry has.  So plain stores to different locations reach memory
 * in any order (store-store), a release store becomes visible only after
 * every earlier store, and later stores may pass it, as C11 allows.  A
 * load reads the thread's newest buffered store to its location, if any
 * (store-load reordering, as in TSO).  As in mem-tso.pml, safety runs let
 * the thread that reads a location decide which of the other threads'
 * stores to it have reached memory (expose(): one of them, with what must
 * precede it, or none); liveness runs have an agent per thread instead.
 *
 * Loads.  Loads are performed in order unless the model declares a
 * location STALE(t, l) for thread t: such a load may return, instead of
 * memory, the value the location had when t last ordered its loads (an
 * acquire load or a fence: "refresh") or last read it, whichever is
 * later.  That is a load performed early, before the loads (and after the
 * stores) that precede it: load-load and store-load reordering.  The
 * models declare stale the loads whose early execution an acquire or a
 * fence is there to prevent, so that removing one shows.
 *
 * Deferred loads.  Loads whose value the code only uses, and never
 * branches on (a reader's load of the protected object, checked for
 * poison), are performed as late as the code lets them: at the thread's
 * next release store, fence, mutex unlock or forced barrier
 * (perform_loads, supplied by the model).  Later loads and stores may pass
 * them (load-store reordering), and since an object only goes from valid
 * to freed, the latest moment is the worst one.
 *
 * Acquire (an acquire load, mutex lock): after its value is read, every
 * stale location of the thread refreshes to memory.  Release (a release
 * store, mutex unlock, the release of a read-modify-write): performs the
 * deferred loads first; its store waits in the buffer for the older ones.
 * Full fence (cmm_smp_mb(), and the barrier membarrier(2) forces on a
 * thread): deferred loads, then the whole buffer to memory, then refresh.
 *
 * Kernel and libc operations: mutex lock is an acquire, unlock a release
 * (see lock_body); futex wait and wake are full barriers; pthread_kill is a full
 * barrier on the caller (tag SYS_KILL; the kernel takes the target's
 * signal lock); signal delivery orders nothing on the target (the
 * handler's fences do); membarrier is a fence on the caller, a forced
 * barrier on each other thread, and a fence on the caller again.
 *
 * What this is: C11 acquire/release and fences over a multi-copy-atomic
 * memory (ARMv8-like).  What it is not: non-multi-copy-atomic machines
 * (POWER: two readers may see two independent stores in different
 * orders), and out-of-thin-air values.  Bounds, each of which only
 * removes executions (the model may miss a bug, never invent one):
 *  - a store into a full buffer first flushes the oldest entry;
 *  - a stale load returns the value at the last refresh or last read, not
 *    one that was current in between;
 *  - a load that decides a branch is performed where it is issued (no
 *    speculation past it), unless its location is STALE.
 *
 * Users define NT, NLOC, NMTX, MTX_LOC(m) (a location per mutex),
 * STALE(t, l), ISSUE_HOOK(t, l, v) (see
 * mem-tso.pml) and DEFERRED_HOOK(t) (perform thread t's deferred loads).
 */
#ifndef WB_SIZE
#define WB_SIZE	2
#endif

byte mem[NLOC];
byte wb_loc[NT * WB_SIZE];
byte wb_val[NT * WB_SIZE];
bit wb_rel[NT * WB_SIZE];
byte wb_n[NT];
byte seen[NT * NLOC];	/* STALE locations: 1 + value a load may return */
bit mtx[NMTX];
byte fx_wait[NT];	/* 1 + location a thread sleeps on, 0: awake */
byte _i;
byte _j;
byte _k;
byte _m;
byte _u;
byte _v;
bit _st;		/* the last ld_body returned a stale value */

#define WBX(t, k)	((t) * WB_SIZE + (k))
#define SX(t, l)	((t) * NLOC + (l))

/* Entry k of thread t to memory; later entries move down. */
inline wb_flush(t, k)
{
	mem[wb_loc[WBX(t, k)]] = wb_val[WBX(t, k)];
	_j = k + 1;
	do
	:: _j < wb_n[t] ->
		wb_loc[WBX(t, _j - 1)] = wb_loc[WBX(t, _j)];
		wb_val[WBX(t, _j - 1)] = wb_val[WBX(t, _j)];
		wb_rel[WBX(t, _j - 1)] = wb_rel[WBX(t, _j)];
		_j++
	:: else -> break
	od;
	wb_n[t]--;
	wb_loc[WBX(t, wb_n[t])] = 0;
	wb_val[WBX(t, wb_n[t])] = 0;
	wb_rel[WBX(t, wb_n[t])] = 0;
	_j = 0
}

inline wb_drain(t)
{
	do
	:: wb_n[t] > 0 -> wb_flush(t, 0)
	:: else -> break
	od
}

/*
 * Entry k of thread u to memory, with every entry that must precede it
 * (_m: bit mask of entries, built from the newest down: an entry needs
 * the older ones to its location, a release entry all the older ones),
 * flushed oldest first.
 */
inline wb_flush_upto(u, k)
{
	_m = 1 << (k);
	_j = k + 1;
	do
	:: _j > 0 ->
		_j--;
		if
		:: _m & (1 << _j) ->
			_i = 0;
			do
			:: _i < _j ->
				if
				:: wb_rel[WBX(u, _j)] ||
				   wb_loc[WBX(u, _i)] == wb_loc[WBX(u, _j)] ->
					_m = _m | (1 << _i)
				:: else -> skip
				fi;
				_i++
			:: else -> break
			od
		:: else -> skip
		fi
	:: else -> break
	od;
	/* Flush the marked entries, oldest first (indices shift down). */
	_k = 0;
	_i = 0;
	do
	:: _i < WB_SIZE ->
		if
		:: _m & (1 << _i) -> wb_flush(u, _i - _k); _k++
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0;
	_k = 0;
	_m = 0
}

/* Does some thread's buffer hold a store of v to l?  Result in _v. */
inline pending_store(l, v)
{
	_v = 0;
	_i = 0;
	do
	:: _i < NT * WB_SIZE ->
		if
		:: _i % WB_SIZE < wb_n[_i / WB_SIZE] &&
		   wb_loc[_i] == (l) && wb_val[_i] == (v) -> _v = 1
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0
}

/*
 * Before thread t reads l from memory: every other thread moves to
 * memory one of its stores to l, with what must precede it, or nothing.
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
			_k = 255;
			_m = 0;
			do
			:: _m < wb_n[_u] ->
				if
				:: wb_loc[WBX(_u, _m)] == (l) -> _k = _m
				:: true -> skip
				fi;
				_m++
			:: else -> break
			od;
			if
			:: _k != 255 -> wb_flush_upto(_u, _k)
			:: else -> _k = 0; _m = 0
			fi
		:: else -> skip
		fi;
		_u++
	:: else -> break
	od;
	_u = 0
}
#endif

/* Stale locations of t take memory's value (its own pending ones: none). */
inline refresh(t)
{
	_i = 0;
	do
	:: _i < NLOC ->
		if
		:: STALE(t, _i) -> seen[SX(t, _i)] = mem[_i] + 1
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0;
	do
	:: _i < wb_n[t] -> seen[SX(t, wb_loc[WBX(t, _i)])] = 0; _i++
	:: else -> break
	od;
	_i = 0
}

#define perform_loads(t)	DEFERRED_HOOK(t)

/* Bodies, without atomicity of their own (see mem-tso.pml). */
inline ld_core(t, l, v)
{
	_v = 255;			/* newest own buffered store to l */
	_i = 0;
	do
	:: _i < wb_n[t] ->
		if
		:: wb_loc[WBX(t, _i)] == (l) -> _v = wb_val[WBX(t, _i)]
		:: else -> skip
		fi;
		_i++
	:: else -> break
	od;
	_i = 0;
	if
	:: _v != 255 -> v = _v
	:: _v == 255 && STALE(t, l) && seen[SX(t, l)] != 0 ->
		v = seen[SX(t, l)] - 1		/* performed early */
	:: _v == 255 ->
		expose(t, l);
		v = mem[l];
		if
		:: STALE(t, l) -> seen[SX(t, l)] = v + 1
		:: else -> skip
		fi
	fi;
	_v = 0
}

inline ld_body(t, l, v)
{
	ld_core(t, l, v);
	_st = 0
}

/*
 * An acquire load performed now orders every later load after now; one
 * performed early (stale), after that earlier moment, which the values
 * the thread may still return already are not older than (the models'
 * stale locations are loaded with acquire, or after a load that is).
 */
inline lda_body(t, l, v, acq)
{
	ld_core(t, l, v);
	if
	:: acq && !_st -> refresh(t)
	:: else -> skip
	fi;
	_st = 0
}

inline wb_insert(t, l, v, rel)
{
	ISSUE_HOOK(t, l, v);
	if
	:: wb_n[t] == WB_SIZE -> wb_flush_upto(t, 0)
	:: else -> skip
	fi;
	wb_loc[WBX(t, wb_n[t])] = l;
	wb_val[WBX(t, wb_n[t])] = v;
	wb_rel[WBX(t, wb_n[t])] = rel;
	wb_n[t]++;
	seen[SX(t, l)] = 0
}

inline st_body(t, l, v)
{
	wb_insert(t, l, v, 0)
}

inline str_body(t, l, v, rel)
{
	if
	:: rel -> perform_loads(t)
	:: else -> skip
	fi;
	wb_insert(t, l, v, rel)
}

inline fence_body(t)
{
	perform_loads(t);
	wb_drain(t);
	refresh(t)
}

inline mb_body(t, on)
{
	if
	:: on -> fence_body(t)
	:: else -> skip
	fi
}

#define ipi_body(t)		fence_body(t)

/* Initial value of a location (init, before any thread runs). */
#define mem_set(l, v)		mem[l] = v

/* After the initial values are set (init): every thread has seen them. */
inline mem_start()
{
	_u = 0;
	do
	:: _u < NT -> refresh(_u); _u++
	:: else -> break
	od;
	_u = 0
}

/*
 * Read-modify-writes: a release one comes after every older buffered
 * store, any one after the older ones to its location; then memory.
 */
inline rmw_pre(t, l, rel)
{
	if
	:: rel -> perform_loads(t); wb_drain(t)
	:: else ->
		_k = 255;
		_m = 0;
		do
		:: _m < wb_n[t] ->
			if
			:: wb_loc[WBX(t, _m)] == (l) -> _k = _m
			:: else -> skip
			fi;
			_m++
		:: else -> break
		od;
		if
		:: _k != 255 -> wb_flush_upto(t, _k)
		:: else -> _k = 0; _m = 0
		fi
	fi;
	expose(t, l)
}

inline rmw_post(t, l, acq)
{
	seen[SX(t, l)] = 0;
	if
	:: acq -> refresh(t)
	:: else -> skip
	fi
}

inline xchg_body(t, l, nv, ov, acq, rel)
{
	rmw_pre(t, l, rel);
	ov = mem[l];
	mem[l] = nv;
	rmw_post(t, l, acq)
}

/* C11 compare-exchange: on failure exp receives the current value. */
inline cas_body(t, l, exp, nv, ok, acq, rel)
{
	rmw_pre(t, l, rel);
	if
	:: mem[l] == exp -> mem[l] = nv; ok = 1
	:: else -> exp = mem[l]; ok = 0
	fi;
	rmw_post(t, l, acq)
}

/*
 * Mutexes.  Who holds one is an SC flag, mtx[]; its memory ordering is
 * C11's.  Unlock is a release store to the mutex's location MTX_LOC(m),
 * buffered like any other: the stores before it reach memory first, later
 * ones may pass it.  Lock is an acquire of the last unlock: the previous
 * holder's unlock, and so every store before it, reaches memory, then
 * the locker refreshes.  A thread's own pending unlock of the mutex it
 * locks again is dropped: its next unlock orders everything that one did.
 */
#define lock_guard(m)		(mtx[m] == 0)

inline lock_body(t, m)
{
	_u = 0;
	do
	:: _u < NT ->
		_k = 255;
		_m = 0;
		do
		:: _m < wb_n[_u] ->
			if
			:: wb_loc[WBX(_u, _m)] == MTX_LOC(m) -> _k = _m
			:: else -> skip
			fi;
			_m++
		:: else -> break
		od;
		if
		:: _k != 255 && _u != (t) -> wb_flush_upto(_u, _k)
		:: _k != 255 && _u == (t) ->
			/* drop it: entry _k moves out, later ones down */
			_j = _k + 1;
			do
			:: _j < wb_n[t] ->
				wb_loc[WBX(t, _j - 1)] = wb_loc[WBX(t, _j)];
				wb_val[WBX(t, _j - 1)] = wb_val[WBX(t, _j)];
				wb_rel[WBX(t, _j - 1)] = wb_rel[WBX(t, _j)];
				_j++
			:: else -> break
			od;
			wb_n[t]--;
			wb_loc[WBX(t, wb_n[t])] = 0;
			wb_val[WBX(t, wb_n[t])] = 0;
			wb_rel[WBX(t, wb_n[t])] = 0;
			_j = 0;
			_k = 0;
			_m = 0
		:: else -> _k = 0; _m = 0
		fi;
		_u++
	:: else -> break
	od;
	_u = 0;
	mtx[m] = 1;
	refresh(t)
}

inline unlock_body(t, m)
{
	perform_loads(t);
	wb_insert(t, MTX_LOC(m), 0, 1);
	mtx[m] = 0
}

/* pthread_kill(): a full barrier on the caller (tag SYS_KILL). */
inline sys_kill_body(t, on)
{
	mb_body(t, on)
}

/* Signal delivery orders nothing on the target: the handler's fences do. */
#define deliver_body(t)		skip

inline futex_wait_body(t, l, val)
{
	fence_body(t);
	expose(t, l);
	if
	:: mem[l] == val -> fx_wait[t] = (l) + 1
	:: else -> skip
	fi
}

inline futex_wake_body(t, l)
{
	fence_body(t);
	_i = 0;
	do
	:: _i < NT && fx_wait[_i] == (l) + 1 -> fx_wait[_i] = 0; break
	:: _i < NT && fx_wait[_i] != (l) + 1 -> _i++
	:: else -> break
	od;
	_i = 0
}

#ifdef LIVENESS
/* Entry k of t may reach memory now (see "Stores"). */
#define WB_MAY1(t)	(wb_n[t] > 1 && !wb_rel[WBX(t, 1)] &&			\
			 wb_loc[WBX(t, 0)] != wb_loc[WBX(t, 1)])
#define WB_MAY2(t)	(wb_n[t] > 2 && !wb_rel[WBX(t, 2)] &&			\
			 wb_loc[WBX(t, 0)] != wb_loc[WBX(t, 2)] &&		\
			 wb_loc[WBX(t, 1)] != wb_loc[WBX(t, 2)])

/*
 * Liveness runs: each thread's buffered stores reach memory on their own,
 * when g holds (alternatives of an agent's loop).
 */
#define AGENT_ALTS(t, g)						\
	:: d_step { (g) && wb_n[t] > 0 -> wb_flush(t, 0) }		\
	:: d_step { (g) && WB_MAY1(t) -> wb_flush(t, 1) }		\
	:: d_step { (g) && WB_MAY2(t) -> wb_flush(t, 2) }

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
