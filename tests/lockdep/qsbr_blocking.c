/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inside a QSBR read-side critical section, by an online thread.  QSBR
 * only tracks its sections when the read side is checked: run it with
 * URCU_DEBUG=1.
 *
 *   qsbr_blocking synchronize  synchronize_rcu() of another flavor (memb):
 *                              a blocking call, holding up every QSBR
 *                              grace period while it waits;
 *   qsbr_blocking mutex        pthread_mutex_lock() of a mutex that no
 *                              holder keeps across a grace period: fine
 *                              (no report), as the flavors' call_rcu()
 *                              and the hash table do inside sections.
 */
#include <pthread.h>
#include <string.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>

#include "cases.h"

static pthread_mutex_t lookup_lock = PTHREAD_MUTEX_INITIALIZER;

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";

	if (strcmp(mode, "mutex") != 0 && strcmp(mode, "synchronize") != 0)
		case_usage("qsbr_blocking mutex|synchronize");
	urcu_qsbr_register_thread();
	urcu_qsbr_flavor.read_lock();
	if (strcmp(mode, "mutex") == 0) {
		pthread_mutex_lock(&lookup_lock);
		pthread_mutex_unlock(&lookup_lock);
	} else {
		urcu_memb_synchronize_rcu();
	}
	urcu_qsbr_flavor.read_unlock();
	urcu_qsbr_unregister_thread();
	return 0;
}
