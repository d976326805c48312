/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-signal.h: inline read side of the signal flavor.
 *
 * Readers pay only compiler barriers.  The updater sends SIGRCU to every
 * registered thread and waits until each has run a full fence in the
 * signal handler; this works on any kernel, at the cost of interrupting
 * readers' system calls (the handler is installed with SA_RESTART).
 *
 * Include <urcu/urcu-signal.h> (or <urcu.h> with RCU_SIGNAL) with
 * _LGPL_SOURCE instead of this header.
 */
#ifndef _URCU_STATIC_URCU_SIGNAL_H
#define _URCU_STATIC_URCU_SIGNAL_H

#include <urcu/static/urcu-common.h>
#include <urcu/static/urcu-signal-nr.h>

#ifdef __cplusplus
extern "C" {
#endif

extern struct urcu_gp urcu_signal_gp;
extern DECLARE_URCU_TLS(struct urcu_reader, urcu_signal_reader);

/*
 * Compiler barriers only (fence argument 0): the updater's SIGRCU makes
 * this thread run a full fence in the handler, which orders our accesses
 * on both sides of the point where the signal arrived; that fence pairs
 * with the updater's before its scan of the readers.
 */
static inline void _urcu_signal_read_lock(void)
{
	_urcu_common_read_lock(&URCU_TLS(urcu_signal_reader), &urcu_signal_gp,
			       0);
}

static inline void _urcu_signal_read_unlock(void)
{
	_urcu_common_read_unlock(&URCU_TLS(urcu_signal_reader),
				 &urcu_signal_gp, 0);
}

static inline int _urcu_signal_read_ongoing(void)
{
	return _urcu_common_read_ongoing(&URCU_TLS(urcu_signal_reader));
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_SIGNAL_H */
