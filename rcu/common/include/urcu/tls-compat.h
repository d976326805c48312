/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/tls-compat.h - thread-local variable macros.
 *
 *   DECLARE_URCU_TLS(type, name)            declaration (prefix "extern"
 *                                           yourself for a header)
 *   DEFINE_URCU_TLS(type, name)             definition, zero-initialized
 *   DEFINE_URCU_TLS_INIT(type, name, init)  definition with a constant
 *                                           initializer
 *   URCU_TLS(name)                          the calling thread's instance
 *                                           (an lvalue)
 *
 * Compiler TLS is always used (CONFIG_RCU_TLS): thread_local in C++11,
 * _Thread_local in C11, __thread otherwise.  All three produce the same
 * ELF TLS symbol, so a variable defined in a C file can be used from C++
 * and the other way round, provided its type is trivial and its
 * initializer constant (C++ dynamic TLS initialization is not
 * available to C code).  For array or function-pointer types, use a
 * typedef as "type".  Accessing a TLS variable for the first time from a
 * signal handler is not async-signal-safe on every platform; touch it
 * from normal context first (thread registration does this for the
 * library's own state).
 */
#ifndef _URCU_TLS_COMPAT_H
#define _URCU_TLS_COMPAT_H

#include <urcu/config.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__cplusplus) && __cplusplus >= 201103L
# define URCU_TLS_STORAGE_CLASS	thread_local
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && \
	__STDC_VERSION__ >= 201112L
# define URCU_TLS_STORAGE_CLASS	_Thread_local
#else
# define URCU_TLS_STORAGE_CLASS	__thread
#endif

#define DECLARE_URCU_TLS(type, name)	\
	URCU_TLS_STORAGE_CLASS type name

#define DEFINE_URCU_TLS(type, name)	\
	URCU_TLS_STORAGE_CLASS type name

#define DEFINE_URCU_TLS_INIT(type, name, init)	\
	URCU_TLS_STORAGE_CLASS type name = (init)

#define URCU_TLS(name)	(name)

#ifdef __cplusplus
}
#endif

#endif /* _URCU_TLS_COMPAT_H */
