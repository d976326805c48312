/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * demo: the same small workload under each RCU flavor.
 *
 * Two reader threads keep looking at a shared object while an updater
 * publishes a replacement, waits for a grace period and frees the old
 * copy.  Just before freeing, the updater poisons the old copy, so a
 * reader that ever sees the poison saw an object outlive its grace
 * period.  Readers also check that versions never go backwards.  The
 * program prints read and grace-period rates per flavor and exits
 * non-zero if any reader saw something it should not have.
 *
 * Usage: demo [FIRST TOTAL]: number the progress lines FIRST, FIRST+1, ...
 * out of TOTAL (examples/run_demo.sh runs rcutorture first).
 *
 * Everything flavor-specific goes through the flavor tables (demo.h);
 * rcu_dereference and rcu_assign_pointer are the same for all flavors.
 */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu/flavor.h>
#include <urcu/pointer.h>

#include "demo.h"

#define READERS 2
#define RUN_SECONDS 1.0

enum payload_state { LIVE = 0x11fe, POISONED = 0xdead };

struct payload {
	/* LIVE until the updater poisons it right before free(). */
	atomic_uint state;
	unsigned long version;
};

static struct payload *shared;
static atomic_bool stop;

struct reader {
	/* Keep each reader's counters on its own cache line. */
	alignas(64) const struct demo_flavor *flavor;
	pthread_t thread;
	unsigned long reads;
	unsigned long bad_reads;
};

struct updater {
	const struct demo_flavor *flavor;
	pthread_t thread;
	unsigned long grace_periods;
};

struct result {
	const char *name;
	double reads_per_second;
	double grace_periods_per_second;
	bool ok;
};

static void fail(const char *what, int err)
{
	fprintf(stderr, "demo: %s: %s\n", what, strerror(err));
	exit(EXIT_FAILURE);
}

static struct payload *new_payload(unsigned long version)
{
	struct payload *p = malloc(sizeof(*p));

	if (!p)
		fail("malloc", ENOMEM);
	atomic_init(&p->state, LIVE);
	p->version = version;
	return p;
}

static void *read_loop(void *arg)
{
	struct reader *self = arg;
	const struct rcu_flavor_struct *rcu = self->flavor->rcu;
	unsigned long newest = 0;

	rcu->register_thread();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		struct payload *p;

		rcu->read_lock();
		p = rcu_dereference(shared);
		if (atomic_load_explicit(&p->state, memory_order_relaxed) != LIVE ||
		    p->version < newest)
			self->bad_reads++;
		newest = p->version;
		rcu->read_unlock();
		if (self->flavor->announces_quiescent_states)
			rcu->read_quiescent_state();
		self->reads++;
	}
	rcu->unregister_thread();
	return NULL;
}

static void *update_loop(void *arg)
{
	struct updater *self = arg;
	/* The only writer of `shared`, so a plain read is enough here. */
	struct payload *old = shared;

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		struct payload *next = new_payload(old->version + 1);

		rcu_assign_pointer(shared, next);
		self->flavor->rcu->update_synchronize_rcu();
		/* Every reader that could see `old` has finished with it. */
		atomic_store_explicit(&old->state, POISONED, memory_order_relaxed);
		free(old);
		old = next;
		self->grace_periods++;
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(double deadline)
{
	double left;

	while ((left = deadline - now()) > 0) {
		struct timespec ts = {
			.tv_sec = (time_t)left,
			.tv_nsec = (long)((left - (time_t)left) * 1e9),
		};

		nanosleep(&ts, NULL);
	}
}

static struct result run_flavor(const struct demo_flavor *flavor,
				int step, int total)
{
	struct reader readers[READERS];
	struct updater updater = { .flavor = flavor };
	struct result result = { .name = flavor->name, .ok = true };
	unsigned long reads = 0;
	double start, elapsed;
	int err;

	printf("demo [%d/%d] %s: %d readers and 1 updater for %.1f s\n",
	       step, total, flavor->name, READERS, RUN_SECONDS);
	fflush(stdout);

	shared = new_payload(1);
	atomic_store_explicit(&stop, false, memory_order_relaxed);
	start = now();
	for (int i = 0; i < READERS; i++) {
		readers[i] = (struct reader){ .flavor = flavor };
		err = pthread_create(&readers[i].thread, NULL, read_loop, &readers[i]);
		if (err)
			fail("pthread_create", err);
	}
	err = pthread_create(&updater.thread, NULL, update_loop, &updater);
	if (err)
		fail("pthread_create", err);

	sleep_until(start + RUN_SECONDS);
	atomic_store_explicit(&stop, true, memory_order_relaxed);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i].thread, NULL);
		reads += readers[i].reads;
		if (readers[i].bad_reads)
			result.ok = false;
	}
	pthread_join(updater.thread, NULL);
	elapsed = now() - start;

	/* All threads are gone: nobody can reference the last version. */
	free(shared);
	shared = NULL;

	result.reads_per_second = reads / elapsed;
	result.grace_periods_per_second = updater.grace_periods / elapsed;
	return result;
}

int main(int argc, char **argv)
{
	enum { N_FLAVORS = DEMO_N_FLAVORS };
	struct result results[N_FLAVORS];
	bool all_ok = true;
	int first = argc > 2 ? atoi(argv[1]) : 1;
	int total = argc > 2 ? atoi(argv[2]) : N_FLAVORS;

	for (int i = 0; i < N_FLAVORS; i++) {
		results[i] = run_flavor(&demo_flavors[i], first + i, total);
		all_ok = all_ok && results[i].ok;
	}

	printf("\n| flavor | reads/s     | grace periods/s | result |\n");
	printf("|--------|-------------|-----------------|--------|\n");
	for (int i = 0; i < N_FLAVORS; i++)
		printf("| %-6s | %11.0f | %15.0f | %-6s |\n", results[i].name,
		       results[i].reads_per_second,
		       results[i].grace_periods_per_second,
		       results[i].ok ? "ok" : "FAILED");
	return all_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
