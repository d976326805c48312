/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/urcu_ref.h: the reference counter's former header name.
 *
 * Kept so that programs written against it still build; it warns, as
 * liburcu does, and includes <urcu/ref.h>, which has the whole API.
 */
#warning "<urcu/urcu_ref.h> is an obsolete name: include <urcu/ref.h>"
#include <urcu/ref.h>
