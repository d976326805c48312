/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-signal-nr.h: the signal used by the signal flavor.
 *
 * Defaults to SIGUSR1.  Both the library and the application must be built
 * with the same SIGRCU if it is overridden (-DSIGRCU=SIGUSR2, ...).  The
 * application must not install its own handler for this signal nor keep it
 * blocked in registered threads.
 */
#ifndef _URCU_STATIC_URCU_SIGNAL_NR_H
#define _URCU_STATIC_URCU_SIGNAL_NR_H

#include <signal.h>

#ifndef SIGRCU
#define SIGRCU	SIGUSR1
#endif

#endif /* _URCU_STATIC_URCU_SIGNAL_NR_H */
