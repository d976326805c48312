/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-mb.h: inline read side of the memory-barrier flavor.
 *
 * Readers execute a full fence when entering and leaving their outermost
 * section; the updater needs nothing from the kernel.  Portable, and the
 * slowest read side of the five flavors.
 *
 * Include <urcu/urcu-mb.h> (or <urcu.h> with RCU_MB) with _LGPL_SOURCE
 * instead of this header.
 */
#ifndef _URCU_STATIC_URCU_MB_H
#define _URCU_STATIC_URCU_MB_H

#include <urcu/static/urcu-common.h>

#ifdef __cplusplus
extern "C" {
#endif

extern struct urcu_gp urcu_mb_gp;
extern DECLARE_URCU_TLS(struct urcu_reader, urcu_mb_reader);

/*
 * Real fences always (fence argument 1): they pair with the updater's full
 * fence between its epoch store and its scan of the readers.
 */
static inline void _urcu_mb_read_lock(void)
{
	_urcu_common_read_lock(&URCU_TLS(urcu_mb_reader), &urcu_mb_gp, 1);
}

static inline void _urcu_mb_read_unlock(void)
{
	_urcu_common_read_unlock(&URCU_TLS(urcu_mb_reader),
				 &urcu_mb_gp, 1);
}

static inline int _urcu_mb_read_ongoing(void)
{
	return _urcu_common_read_ongoing(&URCU_TLS(urcu_mb_reader));
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_MB_H */
