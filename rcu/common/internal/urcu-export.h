/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-export.h: marks the symbols a library exports.
 *
 * Every library (liburcu-common, the flavors, liburcu-cds) is built with
 * -fvisibility=hidden; only definitions marked URCU_API are exported from
 * the shared objects.  Private to the build: never installed.
 */
#ifndef URCU_INTERNAL_EXPORT_H
#define URCU_INTERNAL_EXPORT_H

#define URCU_API	__attribute__((visibility("default")))
/*
 * Exported for this project's own libraries and test suites only, such as
 * liburcu-common's allocation layer (urcu-alloc.h): not API.  The version
 * scripts put these symbols in a separate private node (URCU_PRIVATE_0).
 */
#define URCU_PRIVATE_API	__attribute__((visibility("default")))
/*
 * On extern declarations of internal variables: -fvisibility=hidden only
 * covers definitions, and without this the compiler reaches them through
 * the GOT.
 */
#define URCU_HIDDEN	__attribute__((visibility("hidden")))

#endif /* URCU_INTERNAL_EXPORT_H */
