/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/uatomic/loongarch.h: liburcu installs this name, and
 * programs may include it.
 *
 * liburcu splits <urcu/uatomic.h> into per-architecture and helper
 * headers.  Here <urcu/uatomic.h> implements the whole API on the
 * compiler's __atomic builtins for every target, so this header only
 * includes it.
 */
#ifndef _URCU_UATOMIC_LOONGARCH_H
#define _URCU_UATOMIC_LOONGARCH_H

#include <urcu/uatomic.h>

#endif /* _URCU_UATOMIC_LOONGARCH_H */
