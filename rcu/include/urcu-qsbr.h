/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-qsbr.h: the quiescent-state-based RCU flavor with generic names.
 * Link with -lurcu-qsbr.
 */
#ifndef _URCU_QSBR_H
#define _URCU_QSBR_H

#define URCU_API_MAP
#include <urcu/urcu-qsbr.h>

#endif /* _URCU_QSBR_H */
