/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Read-write lock against a mutex.  A reader takes the rwlock, then the
 * mutex; a later thread takes the mutex, then the rwlock:
 *
 *   rwlock.c write  ... for writing: deadlock (the writer waits for the
 *                   reader, which waits for the mutex);
 *   rwlock.c read   ... for reading: no deadlock, glibc's default
 *                   readers do not wait for each other (no report);
 *   rwlock.c fair   ... for reading from a writer-preferring rwlock,
 *                   whose readers queue behind a waiting writer: a
 *                   deadlock once a third thread waits to write.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* pthread_rwlockattr_setkind_np() */
#endif
#include <pthread.h>
#include <string.h>

#include "cases.h"

static pthread_rwlock_t table_lock;
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static int write_second;

static void *reader_then_mutex(void *arg)
{
	(void) arg;
	pthread_rwlock_rdlock(&table_lock);
	pthread_mutex_lock(&stats_lock);
	pthread_mutex_unlock(&stats_lock);
	pthread_rwlock_unlock(&table_lock);
	return NULL;
}

static void *mutex_then_rwlock(void *arg)
{
	(void) arg;
	pthread_mutex_lock(&stats_lock);
	if (write_second)
		pthread_rwlock_wrlock(&table_lock);
	else
		pthread_rwlock_rdlock(&table_lock);
	pthread_rwlock_unlock(&table_lock);
	pthread_mutex_unlock(&stats_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_rwlockattr_t attr;
	const char *mode = argc == 2 ? argv[1] : "";

	pthread_rwlockattr_init(&attr);
	if (strcmp(mode, "write") == 0)
		write_second = 1;
	else if (strcmp(mode, "fair") == 0)
		pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	else if (strcmp(mode, "read") != 0)
		case_usage("rwlock write|read|fair");
	pthread_rwlock_init(&table_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	case_run(reader_then_mutex, NULL);
	case_run(mutex_then_rwlock, NULL);
	pthread_rwlock_destroy(&table_lock);
	return 0;
}
