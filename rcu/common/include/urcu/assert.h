/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/assert.h - assertion macros.
 *
 *   urcu_assert_debug(cond)  checked only in debug builds: when DEBUG_RCU,
 *                            URCU_DEBUG or CONFIG_RCU_DEBUG is defined
 *                            before including this header.  Independent of
 *                            NDEBUG.  On failure prints the condition and
 *                            location to stderr and calls abort().
 *   urcu_assert(cond)        same as urcu_assert_debug(cond).
 *   urcu_posix_assert(cond)  plain assert(3): active unless NDEBUG.
 *
 * When a debug check is disabled, cond is still type-checked by the
 * compiler but never evaluated, so it may have no side effects that the
 * program depends on.
 */
#ifndef _URCU_ASSERT_H
#define _URCU_ASSERT_H

#include <assert.h>

#if defined(DEBUG_RCU) || defined(URCU_DEBUG) || defined(CONFIG_RCU_DEBUG)
# define _URCU_ASSERT_DEBUG_ENABLED 1
#endif

#ifdef _URCU_ASSERT_DEBUG_ENABLED
# include <stdio.h>
# include <stdlib.h>

# ifdef __cplusplus
extern "C" {
# endif

/* Report a failed debug assertion and terminate the process. */
static inline void _urcu_assert_fail(const char *cond, const char *file,
		int line, const char *func)
{
	fprintf(stderr, "%s:%d: %s: urcu assertion failed: %s\n",
		file, line, func, cond);
	abort();
}

# ifdef __cplusplus
}
# endif

# define urcu_assert_debug(cond)					\
	(__builtin_expect(!!(cond), 1) ? (void) 0 :			\
	 _urcu_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
/* Disabled: type-check cond without evaluating it. */
# define urcu_assert_debug(cond)	((void) sizeof((cond) ? 1 : 0))
#endif

#define urcu_assert(cond)		urcu_assert_debug(cond)
#define urcu_posix_assert(cond)		assert(cond)

#endif /* _URCU_ASSERT_H */
