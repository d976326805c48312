/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bp_library: RCU inside a library whose callers know nothing about it.
 *
 * A library cannot ask every application thread that might call it to
 * register with RCU first: it does not create those threads, and the
 * application may not even know that the library uses RCU.  The bp
 * ("bullet-proof") flavor serves this case.  A thread registers itself
 * the first time it enters a read-side critical section, and is
 * unregistered automatically when it exits.  Grace periods work the same
 * way as with the other flavors.
 *
 * This file has two halves that share nothing but the library's three
 * functions:
 *
 *   - The library keeps a small translation table behind an RCU-protected
 *     pointer.  mylib_translate() reads it under rcu_read_lock().
 *     mylib_reconfigure() publishes a new table and frees the old one
 *     after synchronize_rcu().  mylib_shutdown() frees the last table.
 *   - The application starts waves of short-lived threads with plain
 *     pthread_create().  They call mylib_translate() and exit.  An admin
 *     thread calls mylib_reconfigure() meanwhile.  The application never
 *     calls an rcu_* function and never registers or unregisters a
 *     thread.
 *
 * Checking: the library's tables carry a magic word, overwritten before
 * free(); mylib_translate() reports a table it finds freed, and the
 * application checks every answer against the library's documented
 * formula.  The program exits 1 if any check fails.
 *
 * bp flavor: include <urcu-bp.h>, link with -lurcu-bp.  Run it with
 * `scons examples` (docs/examples.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------
 * The library.  In real life: its own source file, built into its own
 * shared object.
 */
#include <urcu-bp.h>

enum { TABLE_LIVE = 0x7ab1e, TABLE_FREED = 0xdead };

struct mylib_table {
	/* TABLE_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned long generation;
	unsigned long multiplier;
	unsigned long offset;
};

/* The table in use before the first reconfiguration; never freed. */
static struct mylib_table mylib_default = {
	.magic = TABLE_LIVE, .generation = 0, .multiplier = 1, .offset = 0,
};
static struct mylib_table *mylib_current = &mylib_default;
/* Serializes reconfigurations; lookups never take it. */
static pthread_mutex_t mylib_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Translates @key.  Documented result: with g the table generation
 * stored in *@generation, key * (g % 9 + 1) + 5 * g.  Returns 0, or -1
 * if the library caught itself reading a freed table.  Any thread may
 * call it, at any time before mylib_shutdown().
 */
int mylib_translate(unsigned long key, unsigned long *value,
		    unsigned long *generation)
{
	const struct mylib_table *t;
	int ret = 0;

	/* The calling thread's first read-side section registers it. */
	rcu_read_lock();
	t = rcu_dereference(mylib_current);
	if (atomic_load_explicit(&t->magic, memory_order_relaxed) != TABLE_LIVE)
		ret = -1;
	*value = key * t->multiplier + t->offset;
	*generation = t->generation;
	rcu_read_unlock();
	return ret;
}

/* Switches to the table of @generation.  Any thread may call it. */
void mylib_reconfigure(unsigned long generation)
{
	struct mylib_table *fresh = malloc(sizeof(*fresh)), *old;

	if (!fresh)
		abort();
	fresh->generation = generation;
	fresh->multiplier = generation % 9 + 1;
	fresh->offset = 5 * generation;
	atomic_init(&fresh->magic, TABLE_LIVE);

	pthread_mutex_lock(&mylib_lock);
	old = mylib_current;
	rcu_assign_pointer(mylib_current, fresh);
	pthread_mutex_unlock(&mylib_lock);

	/* Waits for lookups in any thread, registered by the library or not. */
	synchronize_rcu();
	if (old != &mylib_default) {
		atomic_store_explicit(&old->magic, TABLE_FREED,
				      memory_order_relaxed);
		free(old);
	}
}

/* Frees the library's memory; no other call may run or follow. */
void mylib_shutdown(void)
{
	if (mylib_current != &mylib_default)
		free(mylib_current);
	mylib_current = &mylib_default;
}

/* ------------------------------------------------------------------------
 * The application.  Only the three mylib_* calls above from here on.
 */

#define WAVES		4
#define CLIENTS		4	/* threads per wave */
#define CALLS		20000	/* translations per thread */

struct client {
	pthread_t thread;
	unsigned int seed;
	unsigned long calls;
	unsigned long errors;
	unsigned long generations_seen;
};

static atomic_bool clients_done;

static void die(const char *what, int err)
{
	fprintf(stderr, "bp_library: %s: %s\n", what, strerror(err));
	exit(2);
}

static void *client_thread(void *arg)
{
	struct client *self = arg;
	unsigned long last_generation = (unsigned long) -1;

	for (int i = 0; i < CALLS; i++) {
		unsigned long key = self->seed + (unsigned long) i * 7919;
		unsigned long value, g;

		if (mylib_translate(key, &value, &g) != 0 ||
		    value != key * (g % 9 + 1) + 5 * g)
			self->errors++;
		if (g != last_generation)
			self->generations_seen++;
		last_generation = g;
		self->calls++;
	}
	/* Returns without unregistering anything: nothing to unregister. */
	return NULL;
}

static void *admin_thread(void *arg)
{
	unsigned long *reconfigurations = arg;
	unsigned long generation = 0;

	while (!atomic_load(&clients_done)) {
		mylib_reconfigure(++generation);
		(*reconfigurations)++;
		nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
	}
	return NULL;
}

int main(void)
{
	unsigned long calls = 0, errors = 0, generations = 0;
	unsigned long reconfigurations = 0;
	pthread_t admin;
	int err;

	err = pthread_create(&admin, NULL, admin_thread, &reconfigurations);
	if (err)
		die("pthread_create", err);

	for (int wave = 0; wave < WAVES; wave++) {
		struct client clients[CLIENTS] = { 0 };

		for (int i = 0; i < CLIENTS; i++) {
			clients[i].seed = wave * CLIENTS + i;
			err = pthread_create(&clients[i].thread, NULL,
					     client_thread, &clients[i]);
			if (err)
				die("pthread_create", err);
		}
		for (int i = 0; i < CLIENTS; i++) {
			pthread_join(clients[i].thread, NULL);
			calls += clients[i].calls;
			errors += clients[i].errors;
			generations += clients[i].generations_seen;
		}
	}
	atomic_store(&clients_done, true);
	pthread_join(admin, NULL);
	mylib_shutdown();

	printf("bp_library: %d waves of %d unregistered threads made %lu "
	       "library calls\n", WAVES, CLIENTS, calls);
	printf("bp_library: the admin thread reconfigured the library %lu "
	       "times; clients saw %lu table changes in all\n",
	       reconfigurations, generations);
	if (errors) {
		printf("bp_library: FAILED: %lu calls returned a wrong "
		       "answer or read a freed table\n", errors);
		return 1;
	}
	printf("bp_library: OK: every call answered from a live table\n");
	return 0;
}
