/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reader-proc.pml: reader thread RT of urcu.pml, included once per reader
 * with RT defined, so that what differs between the two readers costs no
 * model step: reader 0 stores into the object it reads (TOUCHER), and in
 * the signal flavor parks once, after its first section, as a thread
 * calling synchronize_rcu() there would; reader 1 nests a section inside
 * each of its sections (NESTER).
 *
 * Safety runs: NSEC sections (bp: registered before the first, by
 * rcu_read_lock(), and unregistered after the last, by the thread's exit),
 * then the thread ends.  LIVENESS: sections forever.
 */
#if RT == 0
#define TOUCHER	1
#define NESTER	0
#else
#define TOUCHER	0
#define NESTER	1
#endif

proctype XPASTE(reader, RT)()
{
	byte rword, now, p, w, tmp, n;
	bit first, armed, parked_once;

#ifdef FLAVOR_BP
	bp_register(RT);
#endif
	do
	:: MORE_SECTIONS ->
		rd_lock(RT);
#if !RD_FENCE
#if NESTER
		rd_lock_nested(RT);
#endif
		atomic {
#if NESTER
			rd_exit_store(RT);
			tmp = 0;
#endif
			ld_body(RT, L_PTR, p)
		};
		atomic { rd_use(RT, TOUCHER); rd_exit_store(RT); tmp = 0 };
#else
#if NESTER
		rd_nested_fenced(RT);
#endif
		atomic { ld_body(RT, L_PTR, p) };
		rd_unlock_use(RT, TOUCHER);
#endif
#if defined(FLAVOR_SIGNAL) && RT == 0
		if
		:: !parked_once -> park(RT); unpark(RT); parked_once = 1
		:: else -> skip
		fi;
#endif
#ifndef LIVENESS
		n++
#else
		skip
#endif
	:: else -> break
	od;
#ifdef FLAVOR_BP
	bp_unregister(RT)
#else
	skip
#endif
}

#undef TOUCHER
#undef NESTER
