/*
 * export.h: marks the library's public symbols.
 *
 * Libraries are built with -fvisibility=hidden; only definitions marked
 * URCU_API are exported from the shared objects.
 */
#ifndef URCU_SRC_EXPORT_H
#define URCU_SRC_EXPORT_H

#define URCU_API	__attribute__((visibility("default")))
/*
 * On extern declarations of internal variables: -fvisibility=hidden only
 * covers definitions, and without this the compiler reaches them through
 * the GOT.
 */
#define URCU_HIDDEN	__attribute__((visibility("hidden")))

#endif /* URCU_SRC_EXPORT_H */
