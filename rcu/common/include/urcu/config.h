/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/config.h - fixed build-configuration switches.
 *
 * liburcu generates this file at configure time; programs written for it
 * sometimes test these CONFIG_RCU_* macros with #ifdef.  This library
 * supports a single configuration (SMP, compiler TLS, __atomic builtins),
 * so the header is plain text and the same for every build.
 *
 * Deliberately absent:
 *   CONFIG_RCU_FORCE_SYS_MEMBARRIER - the memb flavor picks membarrier(2)
 *                                     at run time instead.
 *   CONFIG_RCU_DEBUG                - debug checks are selected per
 *                                     translation unit with -DDEBUG_RCU or
 *                                     -DURCU_DEBUG (see <urcu/assert.h>).
 */
#ifndef _URCU_CONFIG_H
#define _URCU_CONFIG_H

/* Built for multiprocessors: cmm_smp_*() barriers are real fences. */
#define CONFIG_RCU_SMP 1

/* Per-thread state uses compiler TLS (__thread / thread_local). */
#define CONFIG_RCU_TLS 1

/* Atomics and fences are implemented with the GCC/Clang __atomic builtins. */
#define CONFIG_RCU_USE_ATOMIC_BUILTINS 1

/* Several RCU flavors may be linked into one program. */
#define CONFIG_RCU_HAVE_MULTIFLAVOR 1

/* Waiting uses futex(2); only Linux has it. */
#if defined(__linux__)
# define CONFIG_RCU_HAVE_FUTEX 1
#endif

#endif /* _URCU_CONFIG_H */
