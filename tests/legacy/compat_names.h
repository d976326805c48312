/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helpers of tests/check_legacy.c that need flavor headers of their own:
 * each lives in a translation unit that includes several flavors without
 * <urcu.h>'s generic names, as programs mixing flavors did.
 */
#ifndef TESTS_LEGACY_COMPAT_NAMES_H
#define TESTS_LEGACY_COMPAT_NAMES_H

#include <stdbool.h>

/*
 * Through the flavor-suffixed names of liburcu 0.10 and older, a qsbr and
 * a bp read-side section, grace period and call_rcu() each, in this
 * thread; returns the value read in the sections (42 twice is 84).
 */
int legacy_compat_round_trip(void);

/* Whether URCU_NO_COMPAT_IDENTIFIERS left the suffixed names out. */
bool legacy_compat_names_absent(void);

#endif /* TESTS_LEGACY_COMPAT_NAMES_H */
