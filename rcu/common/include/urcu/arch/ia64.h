/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/arch/ia64.h: liburcu installs this name, and
 * programs may include it.
 *
 * liburcu splits <urcu/arch.h> into one header per architecture.  Here
 * <urcu/arch.h> covers every target with the compiler's builtins, so this
 * header only includes it: the definitions are those of the target being
 * compiled, which is all a per-architecture header can correctly offer.
 */
#ifndef _URCU_ARCH_IA64_H
#define _URCU_ARCH_IA64_H

#include <urcu/arch.h>

#endif /* _URCU_ARCH_IA64_H */
