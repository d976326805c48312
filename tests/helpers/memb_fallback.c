/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helper program for tests/check_flavors.c (test_memb_fallback_*).
 *
 * Registers one memb reader thread, runs a grace period while that reader
 * is inside a read-side critical section, and checks that the grace period
 * did not end before the reader left.  On success it prints
 *
 *     membarrier=<value of urcu_memb_has_sys_membarrier> ok
 *
 * and exits 0.  The suite runs it with and without URCU_NO_MEMBARRIER=1 in
 * the environment to cover both the sys_membarrier path and the forced
 * memory-barrier fallback.  It is a separate program because the choice is
 * made once, when the library initialises.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <urcu/urcu-memb.h>

#ifndef urcu_memb_has_sys_membarrier
/* Exported by the memb library: 1 when sys_membarrier is in use. */
extern int urcu_memb_has_sys_membarrier;
#endif

static atomic_int reader_inside;
static atomic_int reader_left;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static void *reader(void *arg)
{
	(void) arg;
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	atomic_store(&reader_inside, 1);
	sleep_ms(200);
	atomic_store(&reader_left, 1);
	urcu_memb_read_unlock();
	urcu_memb_unregister_thread();
	return NULL;
}

int main(void)
{
	pthread_t tid;
	int left;

	if (pthread_create(&tid, NULL, reader, NULL) != 0) {
		printf("membarrier=? pthread_create failed\n");
		return 1;
	}
	while (!atomic_load(&reader_inside))
		sleep_ms(1);
	urcu_memb_synchronize_rcu();
	left = atomic_load(&reader_left);
	pthread_join(tid, NULL);
	/* And one more with no reader at all. */
	urcu_memb_synchronize_rcu();

	if (!left) {
		printf("membarrier=%d grace period ended before the reader left\n",
		       urcu_memb_has_sys_membarrier);
		return 1;
	}
	printf("membarrier=%d ok\n", urcu_memb_has_sys_membarrier);
	return 0;
}
