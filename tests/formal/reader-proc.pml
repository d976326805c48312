/*
 * reader-proc.pml: reader thread RT of urcu.pml.  Included once per
 * reader with RT defined, so that what differs between the readers
 * (nesting, stores into objects, parking) is decided by cpp and costs no
 * model step.
 *
 * Safety runs: NSEC sections (1 to 3), then the thread ends (bp: it
 * unregisters first).  LIVENESS: sections forever.  Signal flavor: reader
 * 0 parks and unparks after each of its sections, as a thread that calls
 * synchronize_rcu() between sections would (flavor-internal.h).
 */
proctype XPASTE(reader, RT)()
{
	byte rword, tmp, now, p, w;
	bit first, armed;

#ifdef FLAVOR_BP
	bp_register(RT);
#endif
#ifdef LIVENESS
	do
	:: rd_section(RT)
#if RT == 0 && defined(FLAVOR_SIGNAL)
		; park(RT); unpark(RT)
#endif
	od
#else
	rd_section(RT);
#if NSEC >= 2
#if RT == 0 && defined(FLAVOR_SIGNAL)
	park(RT);
	unpark(RT);
#endif
	rd_section(RT);
#endif
#if NSEC >= 3
	rd_section(RT);
#endif
#ifdef FLAVOR_BP
	bp_unregister(RT);
#endif
	skip
#endif
}
