/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/link-wait.h - waiting for a link in flight, shared by the
 * wait-free structures (<urcu/static/wfcqueue.h>, <urcu/static/wfstack.h>,
 * <urcu/static/wfqueue.h>).
 *
 * Their producers publish a node in two steps: an exchange claims its
 * place, then a store links it.  A consumer that meets the gap between the
 * two waits for the store: it spins CDS_LINK_WAIT_SPINS times with
 * caa_cpu_relax() first (a running producer completes the store within a
 * few hundred cycles), then sleeps CDS_LINK_WAIT_MS milliseconds between
 * looks, which lets a preempted producer get the CPU back.
 */
#ifndef _URCU_STATIC_LINK_WAIT_H
#define _URCU_STATIC_LINK_WAIT_H

#include <poll.h>

#include <urcu/arch.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CDS_LINK_WAIT_SPINS	128
#define CDS_LINK_WAIT_MS	1

/*
 * One step of the wait: spin a while, then sleep.  *spins counts the looks
 * made so far; start it at 0.
 */
static inline void ___cds_link_wait(unsigned int *spins)
{
	if (++*spins < CDS_LINK_WAIT_SPINS) {
		caa_cpu_relax();
		return;
	}
	*spins = 0;
	(void) poll(NULL, 0, CDS_LINK_WAIT_MS);
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_LINK_WAIT_H */
