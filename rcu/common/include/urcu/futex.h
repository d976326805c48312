/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/futex.h - thin wrappers around the Linux futex(2) system call,
 * used to sleep until another thread changes a 32-bit word.
 *
 *   futex(uaddr, op, ...)          raw call: syscall result, errno set
 *   futex_noasync(uaddr, op, ...)  0 (or the count for FUTEX_WAKE) on
 *   futex_async(uaddr, op, ...)    success, -1 with errno set on error
 *
 * The two named variants exist because liburcu needs a signal-safe
 * ("async") path on systems that emulate futexes with locks.  Linux has
 * real futexes, so both are the system call itself and are
 * async-signal-safe.  Callers must handle EINTR and EAGAIN (the word did
 * not hold the expected value) from FUTEX_WAIT, and ETIMEDOUT when a
 * timeout is given (a relative time for FUTEX_WAIT).
 */
#ifndef _URCU_FUTEX_H
#define _URCU_FUTEX_H

#if !defined(__linux__)
# error "urcu/futex.h: futex(2) is only available on Linux"
#endif

#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/futex.h>
#include <urcu/config.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef FUTEX_WAIT
# define FUTEX_WAIT	0
#endif
#ifndef FUTEX_WAKE
# define FUTEX_WAKE	1
#endif

/*
 * Strict ISO modes (-std=c99, -std=c11) hide syscall() and struct
 * timespec in the libc headers.  Both are only passed through here, so
 * an incomplete struct type and a matching prototype are enough.  The
 * prototype is skipped when glibc already provides it (__USE_MISC) and
 * in C++, where the GNU extensions are always enabled.
 */
struct timespec;
#if !defined(__cplusplus) && !defined(__USE_MISC)
extern long syscall(long number, ...);
#endif

/*
 * The raw system call.  A 32-bit target built with a 64-bit time_t
 * passes a 64-bit struct timespec, which only futex_time64 accepts;
 * some targets (e.g. riscv32) have no plain futex call at all.
 */
static inline int futex(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
#if defined(SYS_futex) && defined(SYS_futex_time64)
	if (sizeof(time_t) > sizeof(long))
		return (int) syscall(SYS_futex_time64, uaddr, op, val,
				     timeout, uaddr2, val3);
	return (int) syscall(SYS_futex, uaddr, op, val, timeout, uaddr2,
			     val3);
#elif defined(SYS_futex)
	return (int) syscall(SYS_futex, uaddr, op, val, timeout, uaddr2,
			     val3);
#elif defined(SYS_futex_time64)
	return (int) syscall(SYS_futex_time64, uaddr, op, val, timeout,
			     uaddr2, val3);
#else
# error "urcu/futex.h: no futex system call number for this target"
#endif
}

/* futex(2) for normal thread context: 0 or count on success, -1/errno. */
static inline int futex_noasync(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

/* futex(2), also usable from signal handlers: same results. */
static inline int futex_async(int32_t *uaddr, int op, int32_t val,
		const struct timespec *timeout, int32_t *uaddr2, int32_t val3)
{
	return futex(uaddr, op, val, timeout, uaddr2, val3);
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_FUTEX_H */
