/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-pointer.h - compatibility name for <urcu/pointer.h>, kept for
 * programs written against older liburcu releases.
 */
#ifndef _URCU_POINTER_COMPAT_H
#define _URCU_POINTER_COMPAT_H

#include <urcu/pointer.h>

#endif /* _URCU_POINTER_COMPAT_H */
