/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-die.h: fatal-error paths shared by the libraries.
 *
 * urcu__die() is for failures that cannot happen in a correct program on a
 * working system (a pthread call or a syscall that must not fail): it prints
 * what failed and aborts.  urcu__misuse() reports a broken API contract,
 * such as synchronize_rcu() inside a read-side critical section.
 */
#ifndef URCU_INTERNAL_DIE_H
#define URCU_INTERNAL_DIE_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noreturn, cold))
static inline void urcu__die(const char *what, int err)
{
	fprintf(stderr, "urcu: fatal: %s failed: %s\n", what, strerror(err));
	abort();
}

__attribute__((noreturn, cold))
static inline void urcu__misuse(const char *rule)
{
	fprintf(stderr, "urcu: misuse: %s\n", rule);
	abort();
}

static inline void urcu__mutex_lock(pthread_mutex_t *m)
{
	int err = pthread_mutex_lock(m);

	if (err)
		urcu__die("pthread_mutex_lock", err);
}

static inline void urcu__mutex_unlock(pthread_mutex_t *m)
{
	int err = pthread_mutex_unlock(m);

	if (err)
		urcu__die("pthread_mutex_unlock", err);
}

#endif /* URCU_INTERNAL_DIE_H */
