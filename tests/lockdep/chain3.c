/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A cycle of three locks, each pair taken in order by a different thread:
 * a -> b, b -> c, c -> a.  No two threads invert a pair, yet three
 * threads running at once can deadlock.
 */
#include <pthread.h>

#include "cases.h"

static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_c = PTHREAD_MUTEX_INITIALIZER;

struct pair {
	pthread_mutex_t *first, *second;
};

static void *take_pair(void *arg)
{
	struct pair *p = arg;

	pthread_mutex_lock(p->first);
	pthread_mutex_lock(p->second);
	pthread_mutex_unlock(p->second);
	pthread_mutex_unlock(p->first);
	return NULL;
}

int main(void)
{
	struct pair ab = { &lock_a, &lock_b };
	struct pair bc = { &lock_b, &lock_c };
	struct pair ca = { &lock_c, &lock_a };

	case_run(take_pair, &ab);
	case_run(take_pair, &bc);
	case_run(take_pair, &ca);
	return 0;
}
