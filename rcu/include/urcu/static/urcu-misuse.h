/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-misuse.h: debug-build detection of RCU API misuse.
 *
 * When URCU_DEBUG (or liburcu's DEBUG_RCU) is defined, the inline read side
 * checks its calling contract (registered thread, balanced lock/unlock) and
 * aborts with a message naming the rule that was broken.  Otherwise the
 * checks compile to nothing and the condition is not evaluated.
 *
 * _urcu_misuse_check_lib() marks the checks that cost the common path
 * nothing or next to nothing (a nested section too deep, an unlock with
 * nothing to unlock: tests on branches the common path never takes, or
 * for bp one compare): the libraries' out-of-line read side defines this
 * macro itself, before including the flavor headers, and keeps them in
 * release builds too.
 */
#ifndef _URCU_STATIC_URCU_MISUSE_H
#define _URCU_STATIC_URCU_MISUSE_H

#include <urcu/compiler.h>

#if defined(URCU_DEBUG) || defined(DEBUG_RCU)
#include <stdio.h>
#include <stdlib.h>

#define _urcu_misuse_check(cond, msg)					\
	do {								\
		if (caa_unlikely(!(cond))) {				\
			fprintf(stderr, "urcu: misuse: %s\n", (msg));	\
			abort();					\
		}							\
	} while (0)
#else
#define _urcu_misuse_check(cond, msg)	((void) sizeof(!(cond)))
#endif

#ifndef _urcu_misuse_check_lib
#define _urcu_misuse_check_lib(cond, msg)	_urcu_misuse_check(cond, msg)
#endif

#endif /* _URCU_STATIC_URCU_MISUSE_H */
