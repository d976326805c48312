/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu.h: the inline read side of the flavor that <urcu.h>
 * selects, with the same precedence as <urcu/urcu.h>: RCU_MEMBARRIER (or
 * none of the three macros) gives memb, else RCU_SIGNAL signal, else RCU_MB
 * mb.
 *
 * Programs normally define _LGPL_SOURCE and include <urcu.h> instead.
 */
#ifndef _URCU_STATIC_URCU_H
#define _URCU_STATIC_URCU_H

#if defined(RCU_MEMBARRIER) || (!defined(RCU_SIGNAL) && !defined(RCU_MB))
#include <urcu/static/urcu-memb.h>
#elif defined(RCU_SIGNAL)
#include <urcu/static/urcu-signal.h>
#else
#include <urcu/static/urcu-mb.h>
#endif

#endif /* _URCU_STATIC_URCU_H */
