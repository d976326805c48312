/*
 * rcu-common.pml: what the grace-period models share: threads, memory
 * locations, the protected objects and the safety checks on them, the
 * registry, and the choice of memory model.
 *
 * Threads: readers 0 .. NR-1 and one updater, U.  The updater publishes a
 * new object and unlinks the old one (one store of the pointer), waits for
 * a grace period, then destroys the old object: it reads it one last time
 * (a destructor) and poisons it (free).  NGP grace periods, objects
 * 0 .. NGP.
 *
 * Safety, checked by assertions:
 *  - a reader's load of the object it got from the pointer never returns
 *    the poison (use after free: a section that could see the old pointer
 *    outlived the grace period);
 *  - a store a reader makes into an object inside a section never lands
 *    after the poison (write after free);
 *  - the destructor's read sees every such store (the grace period orders
 *    the sections that existed when it began before its end, writes
 *    included).
 * "No deadlock" is Spin's invalid-end-state check: every thread blocked
 * while the updater has not finished (a lost wake-up ends up there).
 */
#ifndef NR
#define NR	2		/* reader threads */
#endif
#ifndef NGP
#define NGP	2		/* grace periods */
#endif
#ifndef NSEC
#define NSEC	2		/* read-side sections per reader (safety runs) */
#endif
#define U	NR		/* the updater's thread number */
#define NT	(NR + 1)
#define NGEN	(NGP + 1)	/* objects */

/* Memory locations. */
#define L_GP	0		/* urcu_gp.ctr */
#define L_WAKE	1		/* urcu_gp.wake (mb hint), urcu_gp.futex (qsbr) */
#define L_PTR	2		/* the RCU-protected pointer: object number */
#define L_OBJ	3		/* objects 0 .. NGEN-1 */
#define L_RCTR	(L_OBJ + NGEN)	/* struct urcu_reader.ctr of each reader */
#define L_NEED	(L_RCTR + NR)	/* urcu_reader.need_mb (signal) */
#define L_PARK	(L_NEED + NR)	/* urcu_reader.parked (signal) */
#define NLOC	(L_PARK + NR)

#define M_REG	0		/* the registry lock (struct urcu__registry) */
#define NMTX	1

/* Object states. */
#define VALID	0
#define TOUCHED	1		/* a reader stored into it */
#define POISON	2		/* freed */

#define ARMED	1		/* the futex / wake word's -1 */

/* Ghost state: not memory of the program. */
bit touched[NGEN];		/* a reader issued a store into the object */
byte pend[NT];			/* wmm: deferred object loads, one bit each */
bit updater_done;		/* for the progress property */

/* A store into an object reaching memory after its poison. */
#define MEM_WRITE_HOOK(l, v)						\
	if								\
	:: (l) >= L_OBJ && (l) < L_OBJ + NGEN && (v) == TOUCHED ->	\
		assert(mem[l] != POISON)				\
	:: else -> skip							\
	fi

/* Perform thread t's deferred object loads (wmm): none may see poison. */
#define DEFERRED_HOOK(t)						\
	if								\
	:: pend[t] != 0 ->						\
		_v = 0;							\
		do							\
		:: _v < NGEN ->						\
			assert(!(pend[t] & (1 << _v))			\
			       || mem[L_OBJ + _v] != POISON);		\
			_v++						\
		:: else -> break					\
		od;							\
		pend[t] = 0						\
	:: else -> skip							\
	fi

#ifdef WMM
#include "mem-wmm.pml"
#else
#include "mem-tso.pml"
#endif

#include "tags.pml"

/*
 * Which readers store into the objects they read (TOUCH=0: none), and
 * which nest a section inside each of theirs: constants for cpp.
 */
#ifndef TOUCH
#define TOUCH	1
#endif
#define TOUCHER(t)	(TOUCH && (t) == 0)
#define NESTER(t)	((t) == 1)

/* The updater destroys object g: last read, then poison. */
inline destroy(g, v)
{
	atomic { ld_body(U, L_OBJ + g, v); assert(!touched[g] || v == TOUCHED) };
	ST(U, L_OBJ + g, POISON)
}

/*
 * Registry (reader-registry.h, gp-synchronize.h), under the registry lock:
 * which list holds each reader's record, whether it is registered, and
 * its synced epoch (gp-observe.h; an epoch number, 0: unknown).
 */
#define IN_NONE	0		/* unlinked */
#define IN_REG	1		/* the registry's list */
#define IN_WAIT	2		/* the grace period's "waiting" list */
#define IN_DONE	3		/* its "done" list */
byte where[NR];
byte synced[NR];

/* Signals (signal flavor): pending SIGRCU per reader, and losses so far. */
bit sig_pending[NR];
byte sig_lost;
