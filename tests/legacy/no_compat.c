/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * With URCU_NO_COMPAT_IDENTIFIERS the flavor headers define none of the
 * suffixed names of liburcu 0.10 and older.
 */
#define URCU_NO_COMPAT_IDENTIFIERS
#include <urcu/urcu-bp.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-signal.h>

#include "compat_names.h"

bool legacy_compat_names_absent(void)
{
#if defined(rcu_read_lock_memb) || defined(synchronize_rcu_mb) || \
	defined(call_rcu_sig) || defined(rcu_quiescent_state_qsbr) || \
	defined(rcu_dereference_bp)
	return false;
#else
	return true;
#endif
}
