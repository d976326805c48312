/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/map/urcu.h: the generic RCU names mapped onto the flavor that
 * <urcu.h> selects, with the same precedence as <urcu/urcu.h>: RCU_MEMBARRIER
 * (or none of the three macros) gives memb, else RCU_SIGNAL signal, else
 * RCU_MB mb.
 */
#if defined(RCU_MEMBARRIER) || (!defined(RCU_SIGNAL) && !defined(RCU_MB))
#include <urcu/map/urcu-memb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/map/urcu-signal.h>
#else
#include <urcu/map/urcu-mb.h>
#endif
