/*
 * A blocking call inside a QSBR read-side critical section, by an online
 * thread: it holds up every grace period while it blocks.  QSBR only
 * tracks its sections when the read side is checked: run it with
 * URCU_DEBUG=1.
 *
 *   qsbr_blocking mutex        pthread_mutex_lock();
 *   qsbr_blocking synchronize  synchronize_rcu() of another flavor (memb).
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
