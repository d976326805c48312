/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu-futex.h: the futex wrappers' former header name.
 *
 * Kept so that programs written against it still build; it warns, as
 * liburcu does, and includes <urcu/futex.h>, which has the whole API.
 */
#warning "<urcu/urcu-futex.h> is an obsolete name: include <urcu/futex.h>"
#include <urcu/futex.h>
