/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu.h: the RCU API with generic names (rcu_read_lock(),
 * synchronize_rcu(), call_rcu(), ...), mapped onto the memb flavor or onto
 * the one chosen with RCU_MB / RCU_SIGNAL.  Link with -lurcu (memb),
 * -lurcu-mb or -lurcu-signal, e.g. through `pkg-config --libs liburcu`.
 */
#ifndef _URCU_H
#define _URCU_H

#define URCU_API_MAP
#include <urcu/urcu.h>

#endif /* _URCU_H */
