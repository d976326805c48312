/*
 * urcu-pointer.h - compatibility name for <urcu/pointer.h>, kept for
 * programs written against older liburcu releases.
 */
#ifndef _URCU_POINTER_COMPAT_H
#define _URCU_POINTER_COMPAT_H

#include <urcu/pointer.h>

#endif /* _URCU_POINTER_COMPAT_H */
