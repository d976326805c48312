/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * publish: replacing a shared configuration while readers keep using it.
 *
 * Readers reach the configuration through one global pointer.  A writer
 * never changes a configuration that readers can see.  Instead it
 * allocates a new one, fills in every field, and only then points the
 * global pointer at it.  That single pointer store is the publication:
 * rcu_assign_pointer() and rcu_xchg_pointer() order it after the stores
 * that filled the object in, and a reader that loads the pointer with
 * rcu_dereference() therefore finds a finished object.
 *
 * Readers that loaded the pointer just before the swap may still be using
 * the old configuration.  synchronize_rcu() returns once every read-side
 * critical section that was running when it was called has ended.  After
 * that, no reader can hold the old pointer, and the writer frees it.
 * Readers never wait and take no lock; they only have to keep their use
 * of the pointer inside rcu_read_lock() / rcu_read_unlock().
 *
 * The program shows two ways to publish, one phase each:
 *
 *   - Writers that share a mutex.  Under the mutex a writer remembers the
 *     current pointer and publishes its replacement with
 *     rcu_assign_pointer().  It releases the mutex before it waits for
 *     the grace period, so other writers are not held up by the wait.
 *   - Writers without a lock.  rcu_xchg_pointer() swaps in the new object
 *     and returns the one it displaced.  Each object is displaced exactly
 *     once, so each writer frees exactly what it took out.
 *
 * The two must not be mixed on one pointer.  A lock-free writer could
 * swap the pointer between a locked writer's read and its store; the
 * locked writer would then free an object the other one also frees.
 *
 * Checking: each configuration carries a magic word and a checksum of its
 * other fields.  Writers overwrite the magic just before free().  A reader
 * that ever sees a bad magic or checksum used a configuration after its
 * grace period, or before it was complete, and the program then exits 1.
 *
 * Memb flavor: include <urcu.h>, link with -lurcu.  Run it with
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

#include <urcu.h>

#define READERS			2
#define WRITERS			2	/* per phase */
#define UPDATES_PER_WRITER	100

enum { CONFIG_LIVE = 0x600dc0f1, CONFIG_FREED = 0xdeadc0f1 };

struct config {
	/* CONFIG_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned long generation;
	unsigned int timeout_ms;
	unsigned int max_clients;
	char name[24];
	unsigned long checksum;
};

/* The published configuration.  Readers: rcu_dereference() only. */
static struct config *current_config;

/* Serializes the writers of the first phase. */
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ulong next_generation = 1;
static atomic_bool stop_readers;
static atomic_int readers_ready;

struct reader {
	pthread_t thread;
	unsigned long reads;
	unsigned long errors;
};

struct writer {
	pthread_t thread;
	unsigned long published;
	unsigned long freed;
	double sync_seconds;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "publish: %s: %s\n", what, strerror(err));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long config_checksum(const struct config *c)
{
	unsigned long sum = c->generation * 31 + c->timeout_ms * 7 +
			    c->max_clients;

	for (size_t i = 0; i < sizeof(c->name) && c->name[i]; i++)
		sum = sum * 131 + (unsigned char) c->name[i];
	return sum;
}

/* Builds a complete configuration that nobody else can see yet. */
static struct config *config_build(void)
{
	struct config *c = malloc(sizeof(*c));

	if (!c)
		die("malloc", ENOMEM);
	c->generation = atomic_fetch_add(&next_generation, 1);
	c->timeout_ms = 100 + c->generation % 900;
	c->max_clients = 16 << (c->generation % 4);
	snprintf(c->name, sizeof(c->name), "config-%lu", c->generation);
	c->checksum = config_checksum(c);
	atomic_init(&c->magic, CONFIG_LIVE);
	return c;
}

/* Called only once no reader can hold @c any more. */
static void config_free(struct config *c)
{
	atomic_store_explicit(&c->magic, CONFIG_FREED, memory_order_relaxed);
	free(c);
}

static void *reader_thread(void *arg)
{
	struct reader *self = arg;

	/* Memb readers register before their first read-side section. */
	rcu_register_thread();
	atomic_fetch_add(&readers_ready, 1);
	while (!atomic_load(&stop_readers)) {
		const struct config *c;

		rcu_read_lock();
		c = rcu_dereference(current_config);
		/* *c stays valid until rcu_read_unlock(), no longer. */
		if (atomic_load_explicit(&c->magic, memory_order_relaxed) !=
		    CONFIG_LIVE || config_checksum(c) != c->checksum)
			self->errors++;
		rcu_read_unlock();
		self->reads++;
	}
	rcu_unregister_thread();
	return NULL;
}

/* Phase 1: writers serialized by config_lock, rcu_assign_pointer(). */
static void *locked_writer_thread(void *arg)
{
	struct writer *self = arg;

	for (int i = 0; i < UPDATES_PER_WRITER; i++) {
		struct config *fresh = config_build();
		struct config *old;
		double start;

		pthread_mutex_lock(&config_lock);
		/* Only lock holders store it: a plain read is enough. */
		old = current_config;
		rcu_assign_pointer(current_config, fresh);
		pthread_mutex_unlock(&config_lock);
		self->published++;

		start = now();
		synchronize_rcu();	/* outside the lock: writers overlap */
		self->sync_seconds += now() - start;
		config_free(old);
		self->freed++;
	}
	return NULL;
}

/* Phase 2: writers without a lock, rcu_xchg_pointer(). */
static void *xchg_writer_thread(void *arg)
{
	struct writer *self = arg;

	for (int i = 0; i < UPDATES_PER_WRITER; i++) {
		struct config *old;
		double start;

		old = rcu_xchg_pointer(&current_config, config_build());
		self->published++;

		start = now();
		synchronize_rcu();
		self->sync_seconds += now() - start;
		config_free(old);
		self->freed++;
	}
	return NULL;
}

/* Runs WRITERS threads of @fn; adds their counts to @total. */
static void run_writers(void *(*fn)(void *), struct writer *total)
{
	struct writer writers[WRITERS] = { 0 };
	int err;

	for (int i = 0; i < WRITERS; i++) {
		err = pthread_create(&writers[i].thread, NULL, fn, &writers[i]);
		if (err)
			die("pthread_create", err);
	}
	for (int i = 0; i < WRITERS; i++) {
		pthread_join(writers[i].thread, NULL);
		total->published += writers[i].published;
		total->freed += writers[i].freed;
		total->sync_seconds += writers[i].sync_seconds;
	}
}

int main(void)
{
	struct reader readers[READERS] = { 0 };
	struct writer locked = { 0 }, xchg = { 0 };
	unsigned long reads = 0, errors = 0;
	int err;

	/* Nobody reads yet: the first publication needs no grace period. */
	rcu_assign_pointer(current_config, config_build());

	for (int i = 0; i < READERS; i++) {
		err = pthread_create(&readers[i].thread, NULL, reader_thread,
				     &readers[i]);
		if (err)
			die("pthread_create", err);
	}
	while (atomic_load(&readers_ready) < READERS)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);

	run_writers(locked_writer_thread, &locked);
	run_writers(xchg_writer_thread, &xchg);

	atomic_store(&stop_readers, true);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i].thread, NULL);
		reads += readers[i].reads;
		errors += readers[i].errors;
	}
	/* Every reader has exited: the last configuration can go now. */
	config_free(current_config);

	printf("publish: %d readers made %lu reads while writers published "
	       "%lu configurations\n", READERS, reads,
	       locked.published + xchg.published);
	printf("publish:   mutex + rcu_assign_pointer: %lu published, %lu "
	       "freed after synchronize_rcu (%.0f us per grace period)\n",
	       locked.published, locked.freed,
	       locked.sync_seconds * 1e6 / locked.freed);
	printf("publish:   rcu_xchg_pointer, no lock:  %lu published, %lu "
	       "freed after synchronize_rcu (%.0f us per grace period)\n",
	       xchg.published, xchg.freed,
	       xchg.sync_seconds * 1e6 / xchg.freed);
	if (errors) {
		printf("publish: FAILED: %lu reads saw a freed or unfinished "
		       "configuration\n", errors);
		return 1;
	}
	printf("publish: OK: no reader saw a freed or unfinished "
	       "configuration\n");
	return 0;
}
