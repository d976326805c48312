/*
 * ds/src/export.h: marks the data-structure libraries' public symbols.
 *
 * The libraries are built with -fvisibility=hidden, so only definitions
 * carrying URCU_API end up in the dynamic symbol table.  The spelling
 * matches rcu/src/export.h so that both may be included by one file.
 */
#ifndef CDS_SRC_EXPORT_H
#define CDS_SRC_EXPORT_H

#ifndef URCU_API
#define URCU_API	__attribute__((visibility("default")))
#endif

#endif /* CDS_SRC_EXPORT_H */
