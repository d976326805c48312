/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu_bench.c: call_rcu() throughput and the memory held while
 * callbacks wait for their grace period.
 *
 * N threads allocate an object, touch it and hand it to call_rcu() in a
 * loop for a fixed time; the default worker frees the objects.  Reported:
 * callbacks completed per second (counted after a final rcu_barrier) and
 * the peak and average resident set size sampled every 10 ms, which is the
 * memory held by objects waiting for reclamation plus allocator caches.
 *
 * Usage: call_rcu_bench [threads] [seconds] [object size]
 * Output: one line of key=value pairs, for tests/bench/run_call_rcu.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>

#include <urcu.h>

struct obj {
	struct rcu_head rh;
	char payload[];
};

static int stop;
static long completed;
static size_t obj_size = 64;

static void free_obj(struct rcu_head *rh)
{
	free(caa_container_of(rh, struct obj, rh));
	/* Relaxed: a counter read after rcu_barrier(). */
	__atomic_fetch_add(&completed, 1, __ATOMIC_RELAXED);
}

static void *producer(void *arg)
{
	long *queued = arg;

	rcu_register_thread();
	/* Relaxed: a stop flag polled in a loop. */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		struct obj *o = malloc(sizeof(*o) + obj_size);

		if (!o)
			abort();
		memset(o->payload, 1, obj_size);
		call_rcu(&o->rh, free_obj);
		(*queued)++;
	}
	rcu_unregister_thread();
	return NULL;
}

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 2;
	double seconds = argc > 2 ? atof(argv[2]) : 2.0;
	pthread_t tids[64];
	long queued[64] = { 0 };
	long peak = 0, samples = 0, total = 0, sum = 0;
	double start, elapsed;
	int i;

	if (argc > 3)
		obj_size = strtoul(argv[3], NULL, 10);
	if (nthreads < 1 || nthreads > 64)
		return 2;
	start = now();
	for (i = 0; i < nthreads; i++)
		pthread_create(&tids[i], NULL, producer, &queued[i]);
	while (now() - start < seconds) {
		long rss = rss_kib();

		peak = rss > peak ? rss : peak;
		sum += rss;
		samples++;
		usleep(10000);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < nthreads; i++) {
		pthread_join(tids[i], NULL);
		total += queued[i];
	}
	rcu_barrier();
	elapsed = now() - start;
	printf("threads=%d callbacks_per_s=%.0f peak_rss_kib=%ld avg_rss_kib=%ld "
	       "lost=%ld\n", nthreads, completed / elapsed, peak,
	       samples ? sum / samples : 0, total - completed);
	return total == completed ? 0 : 1;
}
