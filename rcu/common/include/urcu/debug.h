/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/debug.h - historical home of urcu_assert(); the assertion macros
 * now live in <urcu/assert.h>, which this header includes.
 */
#ifndef _URCU_DEBUG_H
#define _URCU_DEBUG_H

#include <urcu/assert.h>

#endif /* _URCU_DEBUG_H */
