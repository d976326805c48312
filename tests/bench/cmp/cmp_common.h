/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmp_common.h: helpers shared by the side-by-side benchmarks in
 * tests/bench/cmp/ (docs/performance.md).
 *
 * Nothing here includes a liburcu header: the same file serves the
 * programs built against this project, against the system liburcu and
 * against Concurrency Kit.  The benchmark threads communicate through
 * __atomic builtins only.
 *
 * Every program prints its results as lines "RESULT <key> <value>", which
 * tests/bench/cmp/run.py collects; everything else on stdout is ignored.
 */
#ifndef CMP_COMMON_H
#define CMP_COMMON_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CMP_MAX_THREADS	8
/* Sections (or operations) between two looks at the stop flag. */
#define CMP_BATCH	1024

#define cmp_container_of(ptr, type, member)	\
	((type *) ((char *) (ptr) - offsetof(type, member)))

struct cmp_counter {
	unsigned long count;
	unsigned long sink;
	/* CPU time the thread spent in its measured loop, in seconds. */
	double cpu;
} __attribute__((aligned(128)));

static int cmp_stop;
static int cmp_go;
/* Threads that finished their set-up and wait in cmp_wait_go(). */
static int cmp_ready;

static inline double cmp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time used so far by the calling thread. */
static inline double cmp_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPU time used so far by the whole process (helper threads included). */
static inline double cmp_process_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Sum over threads of count / CPU time: what the threads would have done
 * with a CPU each for the whole run.  Time taken from them by other
 * processes on a shared machine drops out; time spent on their own behalf
 * (signal handlers, interrupts, system calls) does not.
 */
static inline double cmp_cpu_rate(const struct cmp_counter *c, int n)
{
	double rate = 0;
	int i;

	for (i = 0; i < n; i++)
		if (c[i].cpu > 0)
			rate += c[i].count / c[i].cpu;
	return rate;
}

static inline void cmp_sleep(double seconds)
{
	double end = cmp_now() + seconds, left;

	while ((left = end - cmp_now()) > 0) {
		struct timespec ts = {
			.tv_sec = (time_t) left,
			.tv_nsec = (long) ((left - (time_t) left) * 1e9),
		};

		nanosleep(&ts, NULL);
	}
}

/*
 * Updater pacing for "read THREADS UPDATER SECONDS": UPDATER 0 runs no
 * updater, 1 an updater calling synchronize_rcu() back to back, and a
 * larger value an updater that aims at that many grace periods per second:
 * after its @n-th one (started at @start) it sleeps until start + n/rate,
 * and runs late ones back to back, so that the average rate is the same
 * for every library compared.
 */
static inline void cmp_pace(double start, unsigned long n, long rate)
{
	double due;

	if (rate <= 1)
		return;
	due = start + (double) n / (double) rate;
	if (due > cmp_now())
		cmp_sleep(due - cmp_now());
}

/* Relaxed: flags polled in loops; the joins order the final counts. */
static inline int cmp_stopped(void)
{
	return __atomic_load_n(&cmp_stop, __ATOMIC_RELAXED);
}

static inline void cmp_wait_go(void)
{
	__atomic_fetch_add(&cmp_ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&cmp_go, __ATOMIC_ACQUIRE))
		sched_yield();
}

static inline void cmp_reset(void)
{
	__atomic_store_n(&cmp_stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cmp_go, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cmp_ready, 0, __ATOMIC_RELAXED);
}

/* Wait until @nthreads threads are set up (e.g. registered), then start them. */
static inline void cmp_release(int nthreads)
{
	while (__atomic_load_n(&cmp_ready, __ATOMIC_ACQUIRE) < nthreads)
		sched_yield();
	__atomic_store_n(&cmp_go, 1, __ATOMIC_RELEASE);
}

/*
 * Release @nthreads threads (they spin in cmp_wait_go() after their
 * set-up), let them run for @seconds, stop them, and return the measured
 * time.
 */
static inline double cmp_run_for(int nthreads, double seconds)
{
	double start;

	cmp_release(nthreads);
	start = cmp_now();
	cmp_sleep(seconds);
	__atomic_store_n(&cmp_stop, 1, __ATOMIC_RELAXED);
	return cmp_now() - start;
}

static inline void cmp_die(const char *what, int err)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(err));
	exit(2);
}

static inline void cmp_spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(t, NULL, fn, arg);

	if (err)
		cmp_die("pthread_create", err);
}

static inline void cmp_join(pthread_t t)
{
	int err = pthread_join(t, NULL);

	if (err)
		cmp_die("pthread_join", err);
}

static inline void cmp_result(const char *key, double value)
{
	printf("RESULT %s %.6g\n", key, value);
}

/* xorshift64*: per-thread pseudo-random numbers, seeded by the caller. */
static inline unsigned long cmp_rand(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DUL;
}

/* Hash of an integer key (the splitmix64 finalizer). */
static inline unsigned long cmp_hash(unsigned long k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9UL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebUL;
	k ^= k >> 31;
	return k;
}

static int cmp_double_cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The @q quantile (0..1) of @n samples; sorts them. */
static inline double cmp_quantile(double *v, size_t n, double q)
{
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double_cmp);
	i = (size_t) (q * (n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

static inline long cmp_arg(int argc, char **argv, int i, long def)
{
	return argc > i ? strtol(argv[i], NULL, 10) : def;
}

static inline double cmp_arg_f(int argc, char **argv, int i, double def)
{
	return argc > i ? strtod(argv[i], NULL) : def;
}

#endif /* CMP_COMMON_H */
