/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcu_barrier() while holding a mutex that a call_rcu callback takes: the
 * barrier waits for the callback, the callback for the mutex.  Here the
 * callback has run before the mutex is taken.  With "defer" (memb only),
 * the same with defer_rcu(), which drains a full queue itself, waiting
 * for the deferred functions, and a deferred function.
 *
 * usage: barrier_callback FLAVOR | barrier_callback memb defer
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include <urcu/urcu-memb.h>

#include "cases.h"

static const struct rcu_flavor_struct *flavor;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rcu_head head;

static void take_cache_lock(void)
{
	pthread_mutex_lock(&cache_lock);
	pthread_mutex_unlock(&cache_lock);
}

static void callback(struct rcu_head *h)
{
	(void) h;
	take_cache_lock();
}

static void deferred(void *p)
{
	(void) p;
	take_cache_lock();
}

int main(int argc, char **argv)
{
	int defer = argc == 3 && strcmp(argv[2], "defer") == 0;

	if (argc != 2 && !(defer && strcmp(argv[1], "memb") == 0))
		case_usage("barrier_callback FLAVOR | barrier_callback memb "
			   "defer");
	flavor = case_flavor(argv[1]);
	flavor->register_thread();
	if (defer) {
		if (urcu_memb_defer_register_thread())
			return 2;
		urcu_memb_defer_rcu(deferred, NULL);
		urcu_memb_defer_barrier();	/* not holding the mutex */
		pthread_mutex_lock(&cache_lock);
		urcu_memb_defer_rcu(deferred, NULL);
		pthread_mutex_unlock(&cache_lock);
		urcu_memb_defer_unregister_thread();
	} else {
		flavor->update_call_rcu(&head, callback);
		flavor->barrier();		/* not holding the mutex */
		pthread_mutex_lock(&cache_lock);
		flavor->barrier();		/* the callback ran */
		pthread_mutex_unlock(&cache_lock);
	}
	flavor->unregister_thread();
	return 0;
}
