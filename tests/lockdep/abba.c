/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mutex AB-BA: one thread takes a then b, a later one b then a.  Run one
 * after the other, they cannot deadlock; run at once, they can.
 */
#include <pthread.h>

#include "cases.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void *a_then_b(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&lock_a);
	pthread_mutex_lock(&lock_b);
	pthread_mutex_unlock(&lock_b);
	pthread_mutex_unlock(&lock_a);
	return NULL;
}

static void *b_then_a(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&lock_b);
	pthread_mutex_lock(&lock_a);
	pthread_mutex_unlock(&lock_a);
	pthread_mutex_unlock(&lock_b);
	return NULL;
}

int main(void)
{
	case_run(a_then_b, NULL);
	case_run(b_then_a, NULL);
	return 0;
}
