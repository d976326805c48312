/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urcu-defer.h: compatibility name for <urcu/defer.h>. */
#ifndef _URCU_DEFER_COMPAT_H
#define _URCU_DEFER_COMPAT_H

#include <urcu/defer.h>

#endif /* _URCU_DEFER_COMPAT_H */
