/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Correct locking, for which the validator must stay silent: readers
 * take a mutex inside their sections (QSBR: online, between sections,
 * since a QSBR reader must not block inside one) and the updater waits
 * for grace periods only after releasing it; callbacks take it and
 * rcu_barrier() is called without it; two mutexes always nest in the same order, and
 * the opposite order only uses a try-lock; a recursive mutex and nested
 * rwlock readers; a lock of a freed object's class reused.
 *
 * usage: clean FLAVOR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/call-rcu.h>

#include "cases.h"

static const struct rcu_flavor_struct *flavor;
static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t nested = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_rwlock_t table = PTHREAD_RWLOCK_INITIALIZER;
static struct rcu_head head;

static void take_inner(struct rcu_head *h)
{
	(void) h;
	pthread_mutex_lock(&inner);
	pthread_mutex_unlock(&inner);
}

static void *reader(void *arg)
{
	int qsbr = arg != NULL;

	flavor->register_thread();
	flavor->read_lock();
	if (qsbr)
		flavor->read_unlock();
	pthread_mutex_lock(&outer);
	pthread_mutex_lock(&inner);
	pthread_mutex_unlock(&inner);
	pthread_mutex_unlock(&outer);
	if (!qsbr)
		flavor->read_unlock();
	flavor->unregister_thread();
	return NULL;
}

static void *backwards_with_trylock(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&inner);
	if (pthread_mutex_trylock(&outer) == 0)
		pthread_mutex_unlock(&outer);
	pthread_mutex_unlock(&inner);
	return NULL;
}

static void *nesting(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&nested);
	pthread_mutex_lock(&nested);
	pthread_rwlock_rdlock(&table);
	pthread_rwlock_rdlock(&table);
	pthread_rwlock_unlock(&table);
	pthread_rwlock_unlock(&table);
	pthread_mutex_unlock(&nested);
	pthread_mutex_unlock(&nested);
	return NULL;
}

/* Objects with a lock each, freed and allocated again. */
static void *object_locks(void *arg)
{
	int i;

	(void) arg;
	for (i = 0; i < 4; i++) {
		pthread_mutex_t *m = malloc(sizeof(*m));

		if (!m)
			abort();
		pthread_mutex_init(m, NULL);
		pthread_mutex_lock(&outer);
		pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		pthread_mutex_unlock(&outer);
		pthread_mutex_destroy(m);
		free(m);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	flavor = case_flavor(argc == 2 ? argv[1] : NULL);
	case_run(reader, strcmp(argv[1], "qsbr") == 0 ? argv[1] : NULL);
	case_run(backwards_with_trylock, NULL);
	case_run(nesting, NULL);
	case_run(object_locks, NULL);
	flavor->register_thread();
	pthread_mutex_lock(&outer);
	pthread_mutex_unlock(&outer);
	flavor->update_synchronize_rcu();
	flavor->update_call_rcu(&head, take_inner);
	flavor->barrier();
	flavor->unregister_thread();
	return 0;
}
