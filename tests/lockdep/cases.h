/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Programs with latent deadlocks, for the lock validator's suite
 * (tests/check_lockdep.c, docs/lockdep.md).
 *
 * Each program takes the locks of a deadlock in an order that cannot
 * deadlock in the run: every thread runs alone, started and joined one
 * after the other (case_run()), so the run always ends, and only the
 * validator can tell that another interleaving would hang.
 */
#ifndef TESTS_LOCKDEP_CASES_H
#define TESTS_LOCKDEP_CASES_H

#include <urcu/flavor.h>

/* Run @fn(@arg) in a new thread and wait for it to end. */
void case_run(void *(*fn)(void *), void *arg);

/* The flavor named @name (memb, mb, signal, qsbr, bp), or exit 2. */
const struct rcu_flavor_struct *case_flavor(const char *name);

/* Exit with status 2 and a message: the program was called wrongly. */
__attribute__((noreturn)) void case_usage(const char *usage);

#endif /* TESTS_LOCKDEP_CASES_H */
