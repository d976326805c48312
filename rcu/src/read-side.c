/*
 * read-side.c: the out-of-line read side of one flavor, for programs built
 * without _LGPL_SOURCE.  Each function is the inline version from the
 * flavor's urcu/static/ header.  Compiled once per flavor.
 */
#include "flavor-internal.h"
#include "export.h"

URCU_API void rcu_read_lock(void)
{
	_rcu_read_lock();
}

URCU_API void rcu_read_unlock(void)
{
	_rcu_read_unlock();
}

URCU_API int rcu_read_ongoing(void)
{
	return _rcu_read_ongoing();
}

#ifdef RCU_QSBR
URCU_API void rcu_quiescent_state(void)
{
	_rcu_quiescent_state();
}

URCU_API void rcu_thread_offline(void)
{
	_rcu_thread_offline();
}

URCU_API void rcu_thread_online(void)
{
	_rcu_thread_online();
}
#endif
