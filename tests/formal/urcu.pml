/*
 * urcu.pml: grace periods of the memb, mb, signal and bp flavors
 * (rcu/src/urcu.c, urcu-bp.c and the engine they share), model-checked
 * with Spin.  `scons verify` runs it (tests/formal/verify.py); by hand:
 *
 *   spin -DFLAVOR_MEMB [-DWMM] -a urcu.pml && gcc -O2 -DSAFETY -o pan pan.c
 *   ./pan -m100000			(safety: assertions, deadlocks)
 *   spin -DFLAVOR_MEMB -DLIVENESS -a urcu.pml && gcc -O2 -o pan pan.c
 *   ./pan -a -f -m100000		(progress under weak fairness)
 *
 * Flavor (one of):
 *   FLAVOR_MEMB	memb: readers use compiler barriers, the updater
 *			watches them then runs membarrier(2) and polls;
 *			with NO_MEMBARRIER, memb's fence fallback
 *			(urcu_memb_has_sys_membarrier == 0): readers fence
 *			and wake the updater, the updater fences and sleeps
 *			on the wake word with a timeout (the mb protocol).
 *   FLAVOR_MB		mb: readers fence, the updater fences.
 *   FLAVOR_SIGNAL	signal: readers use compiler barriers; the updater
 *			watches them, then signals the others and polls for
 *			their acknowledgements (resending), then polls them.
 *			Reader 0 parks once (a wait inside the library).
 *			MAXLOST signals may be lost (default 0).
 *   FLAVOR_BP		bp: memb's protocol (NO_MEMBARRIER too), and readers
 *			that register on their first rcu_read_lock(), while
 *			grace periods run, and unregister when they end.
 * Memory model: x86-TSO (mem-tso.pml), or with WMM the weak model of
 * mem-wmm.pml.  Sizes: NR = 2 readers (fixed), NGP grace periods
 * (default 2), NSEC sections per reader (default 2) in safety runs; with
 * LIVENESS readers run sections forever and the property is
 * "<> updater_done": every synchronize_rcu() returns.
 *
 * Reader 0 stores into the object it reads (TOUCH); reader 1 nests a
 * section inside each of its sections.
 */
#include "rcu-common.pml"

#if defined(FLAVOR_MEMB) || defined(FLAVOR_BP)
#ifdef NO_MEMBARRIER
#define HAS_MEMBARRIER	0
#else
#define HAS_MEMBARRIER	1
#endif
/* _urcu_memb_reader_fence() / _urcu_bp_reader_fence(). */
#define RD_FENCE	(!HAS_MEMBARRIER)
/* master_mb_interrupts(). */
#define INTERRUPTS	HAS_MEMBARRIER
#if HAS_MEMBARRIER
#define SLEEP_FUTEX	0
#else
#define SLEEP_FUTEX	1
#endif
#elif defined(FLAVOR_MB)
#define RD_FENCE	1
#define INTERRUPTS	0
#define SLEEP_FUTEX	1
#elif defined(FLAVOR_SIGNAL)
#define RD_FENCE	0
#define INTERRUPTS	1
#define SLEEP_FUTEX	0
#else
#error "define one of FLAVOR_MEMB, FLAVOR_MB, FLAVOR_SIGNAL, FLAVOR_BP"
#endif

/* holds_gp: urcu__section_holds_gp(). */
#define HOLDS(v, g)	(NEST(v) != 0 && BEFORE(v, g))
#define SCAN_ACQ	UP_SCAN_ACQ
/* Barrier of urcu__gp_sleep_arm() without exact_mb. */
#define ARM_MB()	MB(U, MB_UP_ARM)

/* master_mb() of urcu.c / urcu-bp.c. */
#if defined(FLAVOR_MEMB) || defined(FLAVOR_BP)
#if HAS_MEMBARRIER
#define MASTER_MB()	membarrier()
#else
#define MASTER_MB()	MB(U, MB_UP_FALLBACK)	/* urcu__membarrier_master_mb() */
#endif
#elif defined(FLAVOR_MB)
#define MASTER_MB()	MB(U, MB_UP_MASTER)
#else
#define MASTER_MB()	signal_mb_readers()
#endif

#include "reader.pml"
#include "updater.pml"

#ifdef LIVENESS
#define MORE_SECTIONS	1
#else
#define MORE_SECTIONS	(n < NSEC)
#endif

proctype reader(byte t)
{
	byte rword, tmp, now, p, w, g, n;
	bit armed;

	do
	:: MORE_SECTIONS ->
#ifdef FLAVOR_BP
		if
		:: where[t] == IN_NONE -> bp_register(t)
		:: else -> skip
		fi;
#endif
		rd_section(t);
#ifdef FLAVOR_SIGNAL
		if
		:: t == 0 && n == 0 -> park(t); unpark(t)
		:: else -> skip
		fi;
#endif
		if
		:: n < NSEC -> n++
		:: else -> skip
		fi
	:: else -> break
	od;
#ifdef FLAVOR_BP
	bp_unregister(t);		/* the thread exits */
#endif
	skip
}

init
{
	atomic {
		mem_set(L_GP, GP_INIT);
#ifndef FLAVOR_BP
		/* rcu_register_thread() before the updater starts. */
		where[0] = IN_REG;
		where[1] = IN_REG;
#endif
		run agent(0);
		run agent(1);
		run agent(U);
#ifdef FLAVOR_SIGNAL
		run handler(0);
		run handler(1);
#endif
		run reader(0);
		run reader(1);
		run updater()
	}
}

#ifdef LIVENESS
ltl progress { <> updater_done }
#endif
