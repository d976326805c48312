/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A lock the validator cannot see by itself, declared with the
 * annotations of <urcu/lockdep.h>: a spinlock made of an atomic flag,
 * taken in opposite orders with a mutex by two threads.  Prints whether
 * the validator is loaded (urcu_lockdep_active()).
 */
#include <pthread.h>
#include <stdio.h>

#include <urcu/lockdep.h>

#include "cases.h"

static struct urcu_lockdep_class flag_class =
	URCU_LOCKDEP_CLASS_INIT("test flag spinlock");
static int flag;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

static void flag_lock(void)
{
	/* Declared before it may wait, so that a deadlock is reported first. */
	urcu_lockdep_acquire(&flag_class, &flag, 0);
	while (__atomic_exchange_n(&flag, 1, __ATOMIC_ACQUIRE))
		;
}

static void flag_unlock(void)
{
	urcu_lockdep_release(&flag_class, &flag);
	__atomic_store_n(&flag, 0, __ATOMIC_RELEASE);
}

static void *flag_then_mutex(void *arg)
{
	(void) arg;
	flag_lock();
	pthread_mutex_lock(&queue_lock);
	pthread_mutex_unlock(&queue_lock);
	flag_unlock();
	return NULL;
}

static void *mutex_then_flag(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&queue_lock);
	flag_lock();
	flag_unlock();
	pthread_mutex_unlock(&queue_lock);
	return NULL;
}

int main(void)
{
	printf("active=%d\n", urcu_lockdep_active());
	case_run(flag_then_mutex, NULL);
	case_run(mutex_then_flag, NULL);
	return 0;
}
