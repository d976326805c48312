/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-memb.h: inline read side of the membarrier flavor.
 *
 * Readers pay only compiler barriers: the updater makes every running
 * thread execute a full barrier with membarrier(2)
 * MEMBARRIER_CMD_PRIVATE_EXPEDITED.  Where the kernel lacks that command
 * the library sets urcu_memb_has_sys_membarrier to 0 at initialisation and
 * readers fall back to full fences, as in the mb flavor.
 *
 * Include <urcu/urcu-memb.h> (or <urcu.h>) with _LGPL_SOURCE instead of
 * this header.
 */
#ifndef _URCU_STATIC_URCU_MEMB_H
#define _URCU_STATIC_URCU_MEMB_H

#include <urcu/static/urcu-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when membarrier(2) is in use, 0 in the fence fallback.  Set once at
 * library initialisation, before any thread can register. */
extern int urcu_memb_has_sys_membarrier;
extern struct urcu_gp urcu_memb_gp;
extern DECLARE_URCU_TLS(struct urcu_reader, urcu_memb_reader);

/*
 * Does this reader need real fences?  Not with membarrier(2): the
 * updater's membarrier() makes this thread's compiler barriers full
 * fences where it matters.  Without it, yes: the fences pair with the
 * updater's own (see _urcu_common_slave_mb()).
 */
static inline int _urcu_memb_reader_fence(void)
{
	/* Relaxed: the flag is written once, before readers exist. */
	return !__atomic_load_n(&urcu_memb_has_sys_membarrier, __ATOMIC_RELAXED);
}

static inline void _urcu_memb_read_lock(void)
{
	_urcu_common_read_lock(&URCU_TLS(urcu_memb_reader), &urcu_memb_gp,
			       _urcu_memb_reader_fence());
}

static inline void _urcu_memb_read_unlock(void)
{
	_urcu_common_read_unlock(&URCU_TLS(urcu_memb_reader), &urcu_memb_gp,
				 _urcu_memb_reader_fence());
}

static inline int _urcu_memb_read_ongoing(void)
{
	return _urcu_common_read_ongoing(&URCU_TLS(urcu_memb_reader));
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_MEMB_H */
