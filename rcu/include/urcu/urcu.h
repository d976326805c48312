/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu.h: select one of the memb, mb or signal flavors.
 *
 * RCU_MEMBARRIER (the default), RCU_MB or RCU_SIGNAL picks the flavor.
 * Most programs include the top-level <urcu.h>, which also enables the
 * generic names (rcu_read_lock(), synchronize_rcu(), ...).
 */
#ifndef _URCU_URCU_H
#define _URCU_URCU_H

#if !defined(RCU_MEMBARRIER) && !defined(RCU_SIGNAL) && !defined(RCU_MB)
#define RCU_MEMBARRIER
#endif

#if defined(RCU_MEMBARRIER)
#include <urcu/urcu-memb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/urcu-signal.h>
#elif defined(RCU_MB)
#include <urcu/urcu-mb.h>
#endif

#endif /* _URCU_URCU_H */
