/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-bp.h: inline read side of the bullet-proof flavor.
 *
 * Same reader protocol as the memb flavor (epoch word, compiler barriers
 * backed by membarrier(2), fence fallback), plus automatic registration:
 * the first rcu_read_lock() of a thread registers it, and the thread is
 * unregistered when it exits.  Suited to libraries that cannot ask their
 * callers to register threads.
 *
 * Include <urcu/urcu-bp.h> (or <urcu-bp.h>) with _LGPL_SOURCE instead of
 * this header.
 */
#ifndef _URCU_STATIC_URCU_BP_H
#define _URCU_STATIC_URCU_BP_H

#include <urcu/static/urcu-common.h>

#ifdef __cplusplus
extern "C" {
#endif

extern int urcu_bp_has_sys_membarrier;
extern struct urcu_gp urcu_bp_gp;
extern DECLARE_URCU_TLS(struct urcu_reader, urcu_bp_reader);

/* Slow path of the first rcu_read_lock() in a thread. */
extern void urcu_bp_register(void);

/* Does this reader need real fences?  As _urcu_memb_reader_fence(). */
static inline int _urcu_bp_reader_fence(void)
{
	/* Relaxed: the flag is written once, before readers exist. */
	return !__atomic_load_n(&urcu_bp_has_sys_membarrier, __ATOMIC_RELAXED);
}

static inline void _urcu_bp_read_lock(void)
{
	struct urcu_reader *r = &URCU_TLS(urcu_bp_reader);

	if (caa_unlikely(!r->registered))
		urcu_bp_register();
	_urcu_common_read_lock(r, &urcu_bp_gp, _urcu_bp_reader_fence());
}

static inline void _urcu_bp_read_unlock(void)
{
	_urcu_common_read_unlock(&URCU_TLS(urcu_bp_reader), &urcu_bp_gp,
				 _urcu_bp_reader_fence());
}

static inline int _urcu_bp_read_ongoing(void)
{
	return _urcu_common_read_ongoing(&URCU_TLS(urcu_bp_reader));
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_BP_H */
