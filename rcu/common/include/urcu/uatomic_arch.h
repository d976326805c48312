/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/uatomic_arch.h: the atomic operations' former header name.
 *
 * Kept so that programs written against it still build; it warns, as
 * liburcu does, and includes <urcu/uatomic.h>, which has the whole API.
 */
#warning "<urcu/uatomic_arch.h> is an obsolete name: include <urcu/uatomic.h>"
#include <urcu/uatomic.h>
