/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urcu-flavor.h: compatibility name for <urcu/flavor.h>. */
#ifndef _URCU_FLAVOR_COMPAT_H
#define _URCU_FLAVOR_COMPAT_H

#include <urcu/flavor.h>

#endif /* _URCU_FLAVOR_COMPAT_H */
