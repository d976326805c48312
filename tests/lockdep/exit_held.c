/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A thread that ends while holding something:
 *
 *   exit_held lock          returns from its function holding a mutex;
 *   exit_held pthread_exit  calls pthread_exit() holding a mutex;
 *   exit_held section       returns inside a read-side critical section
 *                           of memb (the flavor then aborts: its
 *                           registry refuses to drop a reader in a
 *                           section).
 */
#include <pthread.h>
#include <string.h>

#include <urcu/urcu-memb.h>

#include "cases.h"

static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;

static void *leave_locked(void *arg)
{
	pthread_mutex_lock(&job_lock);
	if (arg)
		pthread_exit(NULL);
	return NULL;
}

static void *leave_in_section(void *arg)
{
	(void) arg;
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";

	if (strcmp(mode, "lock") == 0)
		case_run(leave_locked, NULL);
	else if (strcmp(mode, "pthread_exit") == 0)
		case_run(leave_locked, &job_lock);
	else if (strcmp(mode, "section") == 0)
		case_run(leave_in_section, NULL);
	else
		case_usage("exit_held lock|pthread_exit|section");
	return 0;
}
