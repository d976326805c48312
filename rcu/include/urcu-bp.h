/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-bp.h: the bullet-proof RCU flavor (no thread registration needed)
 * with generic names.  Link with -lurcu-bp.
 */
#ifndef _URCU_BP_H
#define _URCU_BP_H

#define URCU_API_MAP
#include <urcu/urcu-bp.h>

#endif /* _URCU_BP_H */
