/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * read-side.c: the out-of-line read side of one flavor, for programs built
 * without _LGPL_SOURCE.  Each function is the inline version from the
 * flavor's urcu/static/ header.  Compiled once per flavor.
 *
 * In release builds rcu_read_lock() (and QSBR's state changes) also test
 * urcu__flavor_checked, set from URCU_DEBUG=1 in the environment, and then
 * run the copy with misuse checks instead (read-side-checked.c): one
 * predictable branch on a read-mostly word.  rcu_read_unlock() needs no
 * such branch: its check costs its common path nothing (bp: one compare),
 * so it stays in every build.  Debug builds (URCU_DEBUG defined) always
 * check everything.
 */
#include "urcu-die.h"

/*
 * The checks that cost the common path nothing (nested lock too deep,
 * unlock without lock; see urcu/static/urcu-misuse.h): every build.
 */
#define _urcu_misuse_check_lib(cond, msg)				\
	do {								\
		if (caa_unlikely(!(cond)))				\
			urcu__misuse(msg);				\
	} while (0)

#include "flavor-internal.h"
#include "urcu-export.h"

#ifdef URCU_DEBUG
#define CHECKED(fn)	((void) 0)
#else
/*
 * Relaxed: written once by rcu_init() before threads use the flavor
 * (thread creation orders it); nothing else is read through it.
 */
#define CHECKED(fn)							\
	do {								\
		if (caa_unlikely(__atomic_load_n(&urcu__flavor_checked,	\
						 __ATOMIC_RELAXED))) {	\
			fn();						\
			return;						\
		}							\
	} while (0)
#endif

URCU_API void rcu_read_lock(void)
{
	CHECKED(urcu__read_lock_checked);
	_rcu_read_lock();
}

/*
 * Needs no dispatch: its check is one of those above.  QSBR's does: its
 * only work is to undo the nesting count that the checked copy of
 * rcu_read_lock() keeps.
 */
URCU_API void rcu_read_unlock(void)
{
#ifdef RCU_QSBR
	CHECKED(urcu__read_unlock_checked);
#endif
	_rcu_read_unlock();
}

URCU_API int rcu_read_ongoing(void)
{
	return _rcu_read_ongoing();
}

#ifdef RCU_QSBR
URCU_API void rcu_quiescent_state(void)
{
	CHECKED(urcu__quiescent_state_checked);
	_rcu_quiescent_state();
}

URCU_API void rcu_thread_offline(void)
{
	CHECKED(urcu__thread_offline_checked);
	_rcu_thread_offline();
}

URCU_API void rcu_thread_online(void)
{
	CHECKED(urcu__thread_online_checked);
	_rcu_thread_online();
}
#endif
