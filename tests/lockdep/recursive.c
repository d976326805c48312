/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Taking a lock the thread already holds.
 *
 *   recursive timed      pthread_mutex_timedlock() on a held normal
 *                        mutex: reported, then it times out;
 *   recursive lock       pthread_mutex_lock() on a held normal mutex:
 *                        reported, then the thread hangs (run it with
 *                        URCU_LOCKDEP=abort);
 *   recursive recursive  a recursive mutex taken twice: fine, no report.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* PTHREAD_MUTEX_RECURSIVE */
#endif
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "cases.h"

static pthread_mutex_t normal = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t nested = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	struct timespec ts;

	if (strcmp(mode, "timed") == 0) {
		pthread_mutex_lock(&normal);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (pthread_mutex_timedlock(&normal, &ts) != ETIMEDOUT)
			return 3;
		pthread_mutex_unlock(&normal);
	} else if (strcmp(mode, "lock") == 0) {
		pthread_mutex_lock(&normal);
		pthread_mutex_lock(&normal);
	} else if (strcmp(mode, "recursive") == 0) {
		pthread_mutex_lock(&nested);
		pthread_mutex_lock(&nested);
		pthread_mutex_unlock(&nested);
		pthread_mutex_unlock(&nested);
	} else {
		case_usage("recursive timed|lock|recursive");
	}
	return 0;
}
