/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lockdep_bench.c: workloads for measuring the lock validator's overhead
 * (tests/bench/run_lockdep.sh runs them with and without it;
 * docs/lockdep.md, "Overhead").  memb flavor.
 *
 * Usage:
 *   lockdep_bench read THREADS SECONDS
 *       THREADS readers loop over rcu_read_lock(); rcu_dereference();
 *       rcu_read_unlock() while one thread calls synchronize_rcu() in a
 *       loop.  RESULT: sections/s (all readers), grace periods/s.
 *   lockdep_bench mutex SECONDS
 *       one thread takes two mutexes, nested, and releases them, in a
 *       loop; the second one inside a read-side section.  RESULT: pairs
 *       of nested acquisitions per second.
 *   lockdep_bench hooks N
 *       a fixed amount of update-side work: N call_rcu(), an rcu_barrier()
 *       every 1000 of them, a synchronize_rcu() every 100 and a
 *       defer_rcu() every 10.  For valgrind --tool=callgrind: the
 *       instructions spent in the flavor's calls to the validator's
 *       annotations (empty functions when it is not loaded).
 *
 * Output: one line of key=value pairs.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu.h>

static int stop;
static int value = 42;
static int *shared = &value;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *reader(void *arg)
{
	unsigned long n = 0, *out = arg;
	int sum = 0;

	rcu_register_thread();
	/* Relaxed: a stop flag polled in a loop. */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		int i;

		for (i = 0; i < 1000; i++) {
			rcu_read_lock();
			sum += *rcu_dereference(shared);
			rcu_read_unlock();
		}
		n += 1000;
	}
	rcu_unregister_thread();
	*out = n + (sum == 0);	/* keep the loads */
	return NULL;
}

static void *updater(void *arg)
{
	unsigned long *gps = arg;

	/* Relaxed: as in reader(). */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		synchronize_rcu();
		(*gps)++;
	}
	return NULL;
}

static int run_read(int threads, double seconds)
{
	pthread_t tids[64], up;
	unsigned long counts[64] = { 0 }, gps = 0, total = 0;
	double start;
	int i;

	if (threads < 1 || threads > 64)
		return 2;
	start = now();
	for (i = 0; i < threads; i++)
		pthread_create(&tids[i], NULL, reader, &counts[i]);
	pthread_create(&up, NULL, updater, &gps);
	while (now() - start < seconds)
		(void) nanosleep(&(struct timespec) { 0, 10000000 }, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		total += counts[i];
	}
	pthread_join(up, NULL);
	printf("sections_per_s=%.0f gps_per_s=%.0f\n", total / seconds,
	       gps / seconds);
	return 0;
}

static int run_mutex(double seconds)
{
	static pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
	static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
	unsigned long n = 0;
	double start = now(), elapsed;

	rcu_register_thread();
	do {
		int i;

		for (i = 0; i < 1000; i++) {
			pthread_mutex_lock(&outer);
			rcu_read_lock();
			pthread_mutex_lock(&inner);
			pthread_mutex_unlock(&inner);
			rcu_read_unlock();
			pthread_mutex_unlock(&outer);
		}
		n += 1000;
		elapsed = now() - start;
	} while (elapsed < seconds);
	rcu_unregister_thread();
	printf("pairs_per_s=%.0f\n", n / elapsed);
	return 0;
}

static void free_head(struct rcu_head *h)
{
	free(h);
}

static void nothing(void *p)
{
	(void) p;
}

static int run_hooks(long n)
{
	long i;

	rcu_register_thread();
	if (rcu_defer_register_thread())
		return 1;
	for (i = 1; i <= n; i++) {
		struct rcu_head *h = malloc(sizeof(*h));

		if (!h)
			return 1;
		call_rcu(h, free_head);
		if (i % 10 == 0)
			defer_rcu(nothing, NULL);
		if (i % 100 == 0)
			synchronize_rcu();
		if (i % 1000 == 0)
			rcu_barrier();
	}
	rcu_barrier();
	rcu_defer_unregister_thread();
	rcu_unregister_thread();
	printf("call_rcu=%ld\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "read") == 0)
		return run_read(atoi(argv[2]), atof(argv[3]));
	if (argc == 3 && strcmp(argv[1], "mutex") == 0)
		return run_mutex(atof(argv[2]));
	if (argc == 3 && strcmp(argv[1], "hooks") == 0)
		return run_hooks(atol(argv[2]));
	fprintf(stderr, "usage: lockdep_bench read THREADS SECONDS | mutex "
		"SECONDS | hooks N\n");
	return 2;
}
