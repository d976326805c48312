/*
 * export.h: marks the library's public symbols.
 *
 * Libraries are built with -fvisibility=hidden; only definitions marked
 * URCU_API are exported from the shared objects.
 */
#ifndef URCU_SRC_EXPORT_H
#define URCU_SRC_EXPORT_H

#define URCU_API	__attribute__((visibility("default")))

#endif /* URCU_SRC_EXPORT_H */
