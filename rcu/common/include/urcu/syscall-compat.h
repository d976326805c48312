/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/syscall-compat.h: syscall(2) and the SYS_* numbers, wherever the
 * C library declares them.
 *
 * This library targets Linux; <sys/syscall.h> is where every Linux C
 * library (glibc, musl, bionic) keeps the numbers, and <unistd.h> declares
 * syscall() itself.
 */
#ifndef _URCU_SYSCALL_COMPAT_H
#define _URCU_SYSCALL_COMPAT_H

#include <sys/syscall.h>
#include <unistd.h>

#endif /* _URCU_SYSCALL_COMPAT_H */
