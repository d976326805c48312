/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcu-common.pml: what the grace-period models (urcu.pml, qsbr.pml)
 * share: threads, memory locations, the protected objects and the safety
 * checks on them, the registry, and the choice of memory model.
 *
 * Threads: readers 0 and 1, and one updater, U.  The updater publishes a
 * new object and unlinks the old one (one store of the pointer), runs a
 * grace period (synchronize_rcu()), then destroys the old object: it
 * reads it one last time (a destructor) and poisons it (free).  NGP grace
 * periods, objects 0 .. NGP.
 *
 * Safety, by assertions:
 *  - a reader's load of the object it got from the pointer never returns
 *    the poison (use after free: a section that could see the old pointer
 *    outlived the grace period);
 *  - a store a reader makes into the object inside a section never lands
 *    after the poison (write after free);
 *  - the destructor's read sees every such store (the grace period orders
 *    the sections it waited for before its end, their stores included).
 * No deadlock: Spin's invalid-end-state check.  Every thread is blocked
 * while one has not finished: the updater asleep on a futex nobody will
 * wake (a lost wake-up), say.
 */
#define NR	2		/* reader threads */
#ifndef NGP
#define NGP	2		/* grace periods */
#endif
#define U	NR		/* the updater's thread number */
#define NT	(NR + 1)
#define NGEN	(NGP + 1)	/* objects */

/* Memory locations. */
#define L_GP	0		/* urcu_gp.ctr */
#define L_WAKE	1		/* urcu_gp.wake (mb hint) or .futex (qsbr) */
#define L_PTR	2		/* the RCU-protected pointer: an object number */
#define L_OBJ	3		/* objects 0 .. NGEN-1 */
#define L_RCTR	(L_OBJ + NGEN)	/* struct urcu_reader.ctr of each reader */
#define L_NEED	(L_RCTR + NR)	/* urcu_reader.need_mb (signal) */
#define L_PARK	(L_NEED + NR)	/* urcu_reader.parked (signal) */
#ifdef FLAVOR_SIGNAL
#define L_MREG	(L_PARK + NR)	/* the registry lock's memory (wmm) */
#else
#define L_MREG	L_NEED
#endif
#define NLOC	(L_MREG + 1)

#define M_REG	0		/* the registry lock (struct urcu__registry) */
#define NMTX	1
#define MTX_LOC(m)	L_MREG

/* Object states. */
#define VALID	0
#define TOUCHED	1		/* a reader stored into it */
#define POISON	2		/* freed */

#define ARMED	7		/* the futex / wake word's -1 */

/* Ghost state: not memory of the program. */
bit touched[NGEN];		/* a reader issued a store into the object */
byte pend[NR];			/* wmm: deferred object loads, one bit each */
bit updater_done;		/* for the progress property */

/*
 * A store into an object that may reach memory after its poison: checked
 * as either store is issued, against the other one in memory or pending
 * in a buffer (then they may land in either order).
 */
#define ISSUE_HOOK(t, l, v)						\
	if								\
	:: (l) >= L_OBJ && (l) < L_OBJ + NGEN && (v) == TOUCHED ->	\
		assert(mem[l] != POISON);				\
		pending_store(l, POISON);				\
		assert(!_v)						\
	:: (l) >= L_OBJ && (l) < L_OBJ + NGEN && (v) == POISON ->	\
		pending_store(l, TOUCHED);				\
		assert(!_v)						\
	:: else -> skip							\
	fi

/* Perform thread t's deferred object loads (wmm): none may see poison. */
#define DEFERRED_HOOK(t)						\
	if								\
	:: (t) < NR && pend[t] != 0 ->					\
		assert(!(pend[t] & 1) || mem[L_OBJ] != POISON);		\
		assert(!(pend[t] & 2) || mem[L_OBJ + 1] != POISON);	\
		assert(!(pend[t] & 4) || mem[L_OBJ + 2] != POISON);	\
		pend[t] = 0						\
	:: else -> skip							\
	fi

/*
 * Weak model: the loads that may be performed early (mem-wmm.pml).  A
 * reader's loads of the pointer and of the grace-period word (what its
 * acquire and its fences keep in place); the updater's loads of objects
 * (what the acquire loads of its scans keep after them), and with
 * STALE_WORDS its loads of reader words (what the acquire on need_mb and
 * the fence after the signal handshake keep after it: a run of its own,
 * the state space grows threefold).
 */
#ifdef STALE_WORDS
#define U_STALE_LAST	L_NEED
#else
#define U_STALE_LAST	L_RCTR
#endif
#define STALE(t, l)							\
	(((t) < NR && ((l) == L_PTR || (l) == L_GP)) ||			\
	 ((t) == U && (l) >= L_OBJ && (l) < U_STALE_LAST))

#ifdef WMM
#include "mem-wmm.pml"
#else
#include "mem-tso.pml"
#endif

#include "tags.pml"

/*
 * What a section does with the pointer it loaded (inside a step): read
 * the object, and if toucher (reader 0) store into it.  TSO: the load is
 * checked here.  WMM: it is deferred (mem-wmm.pml) to the next ordering
 * point, where DEFERRED_HOOK checks it.
 *
 * The model uses the object at the end of the section, joined to the
 * step before the unlock's first barrier or store: a use later in the
 * section can only find the object freed where an earlier one would not,
 * and an object freed before the section ends is the bug the model looks
 * for (the section began before the grace period and could use it).
 */
inline rd_use(t, toucher)
{
#ifdef WMM
	pend[t] = pend[t] | (1 << p);
#else
	ld_body(t, L_OBJ + p, w);
	assert(w != POISON);
	w = 0;
#endif
	if
	:: toucher -> st_body(t, L_OBJ + p, TOUCHED); touched[p] = 1
	:: else -> skip
	fi;
	p = 0
}

/* The updater destroys object g: last read, then poison. */
inline destroy(g, v)
{
	atomic {
		ld_body(U, L_OBJ + g, v);
		assert(!touched[g] || v == TOUCHED);
		v = 0
	};
	d_step { st_body(U, L_OBJ + g, POISON) }
}

/*
 * Registry (reader-registry.h, gp-synchronize.h), under the registry lock:
 * which list holds each reader's record, and its synced epoch
 * (gp-observe.h; an epoch number, 0: unknown).  Updater-private ghost
 * state: the lists and synced_epoch are only touched under the lock.
 */
#define IN_NONE	0		/* not registered */
#define IN_REG	1		/* the registry's list */
#define IN_WAIT	2		/* the grace period's "waiting" list */
#define IN_DONE	3		/* its "done" list */
byte where[NR];
byte synced[NR];
