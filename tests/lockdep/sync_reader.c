/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * synchronize_rcu() while holding a mutex that a reader takes inside its
 * read-side critical section: the grace period waits for the reader, the
 * reader for the mutex, the mutex's holder for the grace period.  Here
 * the reader is done before the updater starts.
 *
 * usage: sync_reader FLAVOR
 */
#include <pthread.h>
#include <stddef.h>

#include "cases.h"

static const struct rcu_flavor_struct *flavor;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg)
{
	(void) arg;
	flavor->register_thread();
	flavor->read_lock();
	pthread_mutex_lock(&config_lock);
	pthread_mutex_unlock(&config_lock);
	flavor->read_unlock();
	flavor->unregister_thread();
	return NULL;
}

int main(int argc, char **argv)
{
	flavor = case_flavor(argc == 2 ? argv[1] : NULL);
	case_run(reader, NULL);
	pthread_mutex_lock(&config_lock);
	flavor->update_synchronize_rcu();
	pthread_mutex_unlock(&config_lock);
	return 0;
}
