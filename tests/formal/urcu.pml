/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu.pml: grace periods of the memb, mb, signal and bp flavors
 * (rcu/src/urcu.c, urcu-bp.c and the engine they share, gp-*.h), checked
 * with Spin: 2 readers, 1 updater, NGP grace periods (default 2).
 * `scons verify` runs it (tests/formal/verify.py); by hand:
 *
 *   spin -a -DFLAVOR_MEMB [-DWMM] urcu.pml
 *   gcc -O2 -DSAFETY -DCOLLAPSE -o pan pan.c && ./pan -m1000000
 *   spin -a -DFLAVOR_MEMB -DLIVENESS urcu.pml
 *   gcc -O2 -DCOLLAPSE -o pan pan.c && ./pan -a -f -m1000000
 *
 * Flavor (one of):
 *   FLAVOR_MEMB    readers with compiler barriers; the updater watches
 *                  them, runs membarrier(2) on the others, and polls.
 *                  With NO_MEMBARRIER, the fallback
 *                  (urcu_memb_has_sys_membarrier == 0): readers fence and
 *                  wake the updater as a hint; the updater fences, and
 *                  sleeps on the wake word with a timeout.
 *   FLAVOR_MB      the fallback's protocol, always.
 *   FLAVOR_SIGNAL  readers with compiler barriers; the updater watches
 *                  them (sleeping between looks), signals the others,
 *                  waits for their acknowledgements (resending), polls.
 *                  Reader 0 parks once.  MAXLOST signals may be lost.
 *   FLAVOR_BP      memb's protocol, with readers that register on their
 *                  first rcu_read_lock() while grace periods run, and
 *                  unregister when they exit.
 * Memory model: x86-TSO (mem-tso.pml), or with WMM the weak model of
 * mem-wmm.pml.  Safety runs: NSEC (default 2) sections per reader, then
 * the readers end.  LIVENESS: readers run sections forever and the
 * property is "<> updater_done": synchronize_rcu() returns, NGP times,
 * under weak fairness.
 */
#include "rcu-common.pml"

#ifndef NSEC
#define NSEC	2
#endif

#define XPASTE(a, b)	XPASTE2(a, b)
#define XPASTE2(a, b)	a##b

#if defined(FLAVOR_MEMB) || defined(FLAVOR_BP)
#ifdef NO_MEMBARRIER
/* _urcu_memb_reader_fence() / _urcu_bp_reader_fence(): real fences. */
#define RD_FENCE	1
#define INTERRUPTS	0
#define SLEEP_KIND	1
/* urcu__membarrier_master_mb() without membarrier(2). */
#define MASTER_FENCE	mb_body(U, MB_UP_FALLBACK)
#else
#define RD_FENCE	0
#define INTERRUPTS	1
#define SLEEP_KIND	0
#define MASTER_MB()	membarrier_all()
#endif
#elif defined(FLAVOR_MB)
#define RD_FENCE	1
#define INTERRUPTS	0
#define SLEEP_KIND	1
#define MASTER_FENCE	mb_body(U, MB_UP_MASTER)	/* master_mb(), urcu.c */
#elif defined(FLAVOR_SIGNAL)
#define RD_FENCE	0
#define INTERRUPTS	1
#define SLEEP_KIND	0
#define MASTER_MB()	signal_mb_readers()
#else
#error "define one of FLAVOR_MEMB, FLAVOR_MB, FLAVOR_SIGNAL, FLAVOR_BP"
#endif

/* The watch's pacing between looks (gp-observe.h): signal sleeps it. */
#ifdef FLAVOR_SIGNAL
#define OBSERVE_GAP_UNLOCK	POLL_UNLOCK
#define OBSERVE_GAP_LOCK	POLL_LOCK
#else
#define OBSERVE_GAP_UNLOCK
#define OBSERVE_GAP_LOCK
#endif

/* urcu__section_holds_gp(). */
#define HOLDS(x, g)	(NEST(x) != 0 && BEFORE(x, g))
#define SCAN_ACQ	UP_SCAN_ACQ
/* urcu__gp_sleep_arm() without exact_mb. */
#define ARM_FENCE	mb_body(U, MB_UP_ARM)

#ifdef LIVENESS
#define MORE_SECTIONS	1
#else
#define MORE_SECTIONS	(n < NSEC)
#endif

#include "reader.pml"
#include "updater.pml"

#define RT 0
#include "reader-proc.pml"
#undef RT
#define RT 1
#include "reader-proc.pml"
#undef RT

init
{
	atomic {
		mem_set(L_GP, GP_INIT);
		mem_start();
#ifndef FLAVOR_BP
		/* rcu_register_thread() before the updater starts. */
		where[0] = IN_REG;
		where[1] = IN_REG;
#endif
#if !(defined(FLAVOR_SIGNAL) && defined(LIVENESS))
		run_agent(0);		/* (signal: the handler is the agent) */
		run_agent(1);
#endif
		/*
		 * LIVENESS: no agent for the updater, whose own fences and
		 * locks drain its buffer within a few steps of each store
		 * (the removal at the lock, the epoch and the futex at the
		 * fence joined to them; the wake word and the poison at the
		 * next lock): what an agent would add is the same stores
		 * visible a few steps sooner.
		 */
#ifdef FLAVOR_SIGNAL
		run handler(0);
		run handler(1);
#endif
		run reader0();
		run reader1();
		run updater()
	}
}

#ifdef LIVENESS
ltl progress { <> updater_done }
#endif
