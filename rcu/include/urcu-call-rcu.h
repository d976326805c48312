/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* urcu-call-rcu.h: compatibility name for <urcu/call-rcu.h>. */
#ifndef _URCU_CALL_RCU_COMPAT_H
#define _URCU_CALL_RCU_COMPAT_H

#include <urcu/call-rcu.h>

#endif /* _URCU_CALL_RCU_COMPAT_H */
