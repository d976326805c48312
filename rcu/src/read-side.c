/*
 * read-side.c: the out-of-line read side of one flavor, for programs built
 * without _LGPL_SOURCE.  Each function is the inline version from the
 * flavor's urcu/static/ header.  Compiled once per flavor.
 */
#include "flavor-internal.h"
#include "export.h"

#ifdef RCU_QSBR
URCU_API void rcu_read_lock(void)
{
	_rcu_read_lock();
}

URCU_API void rcu_read_unlock(void)
{
	_rcu_read_unlock();
}
#else
/*
 * The calling thread's reader record.  In a shared library each
 * computation of a TLS address is a call to __tls_get_addr, and GCC
 * prefers computing it again after the section's barriers to keeping it in
 * a register: rcu_read_unlock() made two such calls.  The empty asm makes
 * the address opaque to the optimizer, so the one computed here is kept
 * (it cannot change: the record belongs to the calling thread).
 */
static inline struct urcu_reader *this_reader(void)
{
	struct urcu_reader *r = &URCU_TLS(rcu_reader);

	__asm__ ("" : "+r" (r));
	return r;
}

/* Same bodies as _rcu_read_lock() and _rcu_read_unlock() of the flavor. */
URCU_API void rcu_read_lock(void)
{
	struct urcu_reader *r = this_reader();

#ifdef RCU_BP
	/* As in _urcu_bp_read_lock(): the first section registers us. */
	if (caa_unlikely(!r->registered))
		urcu_bp_register();
#endif
	_urcu_common_read_lock(r, &rcu_gp, urcu__flavor_smp_mb_slave);
}

URCU_API void rcu_read_unlock(void)
{
	_urcu_common_read_unlock(this_reader(), &rcu_gp,
				 urcu__flavor_smp_mb_slave);
}
#endif

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
