/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reclaim: four ways for an updater to free what it replaced, and what
 * each one costs the updater.
 *
 * An updater that unpublishes an object must not free it before a grace
 * period has passed.  It can wait for one itself, or let something else
 * do the freeing later; the choice decides how long the updater is held
 * up and how much removed memory lingers.  This program replaces objects
 * in an array of RCU-protected slots, while readers keep reading them,
 * with each method in turn:
 *
 *   synchronize_rcu  the updater waits for a grace period after every
 *                    replacement and frees the old object itself.  Simple,
 *                    and nothing lingers, but every update costs a full
 *                    grace period.
 *   call_rcu         the updater queues a callback in the object's
 *                    embedded struct rcu_head and moves on.  A worker
 *                    thread frees whole batches after a grace period.
 *                    Queueing never blocks; removed objects linger until
 *                    the worker catches up, and rcu_barrier() waits for
 *                    all callbacks queued so far.
 *   defer_rcu        the updater (registered with rcu_defer_register_thread)
 *                    appends (function, pointer) to its own queue.  No
 *                    rcu_head is needed.  A background thread drains the
 *                    queues now and then; when the queue is full,
 *                    defer_rcu() drains it in the caller, waiting for a
 *                    grace period there.  Not for read-side sections.
 *   polled           the updater takes a token from
 *                    start_poll_synchronize_rcu() for each removed object
 *                    and keeps both in a FIFO.  Later, whenever it passes
 *                    by, it frees the objects whose token
 *                    poll_state_synchronize_rcu() reports as expired.  It
 *                    never blocks and frees in its own thread, at times
 *                    it chooses.
 *
 * The updater works in bursts of replacements separated by short pauses,
 * which stand for the rest of its work and are not counted.  For each
 * method the report gives the number of replacements, the updater's
 * average and worst time per replacement, the most removed objects
 * waiting to be freed at any time, how many were still waiting when the
 * updater finished, and how long it then took to free them.
 *
 * Checking: objects carry a magic word, overwritten before free(), and a
 * check value; readers check both on every read, the free function
 * refuses an object freed twice, and at the end every object allocated
 * must have been freed exactly once.  Any failure makes it exit 1.
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

#define READERS		2
#define SLOTS		64
#define N_SYNC		200	/* each waits for a grace period */
#define N_ASYNC		20000
#define BURST		200	/* replacements between two pauses */
#define PAUSE_NS	1000000	/* the updater's "other work" */

enum { BLOB_LIVE = 0xb10b, BLOB_FREED = 0xdead };

struct blob {
	/* BLOB_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned long id;
	unsigned long check;	/* blob_check(id) */
	struct rcu_head rcu;	/* used by call_rcu() only */
};

static struct blob *slots[SLOTS];

static atomic_long live_blobs;	/* allocated and not yet freed */
static atomic_ulong double_frees;
static atomic_bool stop_readers;
static atomic_int readers_ready;

static void die(const char *what, int err)
{
	fprintf(stderr, "reclaim: %s: %s\n", what, strerror(err));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long blob_check(unsigned long id)
{
	return id * 0x9e3779b97f4a7c15ULL;
}

static struct blob *blob_new(void)
{
	static unsigned long next_id;	/* the updater's only */
	struct blob *b = malloc(sizeof(*b));

	if (!b)
		die("malloc", ENOMEM);
	b->id = ++next_id;
	b->check = blob_check(b->id);
	atomic_init(&b->magic, BLOB_LIVE);
	atomic_fetch_add(&live_blobs, 1);
	return b;
}

/* Frees @b; every method ends here, once no reader can hold @b. */
static void blob_free(struct blob *b)
{
	if (atomic_exchange_explicit(&b->magic, BLOB_FREED,
				     memory_order_relaxed) != BLOB_LIVE) {
		atomic_fetch_add(&double_frees, 1);
		return;		/* do not free it twice */
	}
	free(b);
	atomic_fetch_sub(&live_blobs, 1);
}

struct reader {
	pthread_t thread;
	unsigned int seed;
	unsigned long reads;
	unsigned long errors;
};

/* Readers: check random slots until told to stop. */
static void *reader_thread(void *arg)
{
	struct reader *self = arg;

	rcu_register_thread();
	atomic_fetch_add(&readers_ready, 1);
	while (!atomic_load(&stop_readers)) {
		const struct blob *b;

		self->seed = self->seed * 1103515245 + 12345;
		rcu_read_lock();
		b = rcu_dereference(slots[(self->seed >> 16) % SLOTS]);
		if (atomic_load_explicit(&b->magic, memory_order_relaxed) !=
		    BLOB_LIVE || b->check != blob_check(b->id))
			self->errors++;
		rcu_read_unlock();
		self->reads++;
	}
	rcu_unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------------
 * The four methods.  retire() is called right after @old was replaced.
 */

/* synchronize_rcu: wait, then free. */
static void sync_retire(struct blob *old)
{
	synchronize_rcu();
	blob_free(old);
}

/* call_rcu: the callback gets the rcu_head back, and from it the blob. */
static void blob_free_rcu(struct rcu_head *head)
{
	blob_free(caa_container_of(head, struct blob, rcu));
}

static void call_rcu_retire(struct blob *old)
{
	call_rcu(&old->rcu, blob_free_rcu);
}

static void call_rcu_drain(void)
{
	rcu_barrier();
}

/* defer_rcu: any function taking a void *. */
static void blob_free_deferred(void *p)
{
	blob_free(p);
}

static void defer_setup(void)
{
	if (rcu_defer_register_thread() != 0)
		die("rcu_defer_register_thread", ENOMEM);
}

static void defer_retire(struct blob *old)
{
	defer_rcu(blob_free_deferred, old);
}

static void defer_drain(void)
{
	rcu_defer_barrier();
	rcu_defer_unregister_thread();
}

/* polled: a FIFO of (object, token); tokens only grow along it. */
static struct {
	struct blob *blob;
	struct urcu_gp_poll_state token;
} *poll_fifo;
static size_t poll_head, poll_tail;	/* tail - head entries waiting */

static void poll_setup(void)
{
	poll_fifo = calloc(N_ASYNC, sizeof(*poll_fifo));
	if (!poll_fifo)
		die("calloc", ENOMEM);
	poll_head = poll_tail = 0;
}

/* Frees the objects whose grace period has passed. */
static void poll_reap(void)
{
	while (poll_head != poll_tail &&
	       poll_state_synchronize_rcu(poll_fifo[poll_head].token))
		blob_free(poll_fifo[poll_head++].blob);
}

static void poll_retire(struct blob *old)
{
	poll_fifo[poll_tail].blob = old;
	poll_fifo[poll_tail].token = start_poll_synchronize_rcu();
	poll_tail++;
	poll_reap();
}

static void poll_drain(void)
{
	for (poll_reap(); poll_head != poll_tail; poll_reap())
		nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
	free(poll_fifo);
	poll_fifo = NULL;
}

struct method {
	const char *name;
	int replacements;
	void (*setup)(void);		/* optional */
	void (*retire)(struct blob *old);
	void (*drain)(void);		/* optional: wait until all freed */
	const char *drain_name;
};

static const struct method methods[] = {
	{ "synchronize_rcu", N_SYNC, NULL, sync_retire, NULL, "-" },
	{ "call_rcu", N_ASYNC, NULL, call_rcu_retire, call_rcu_drain,
	  "rcu_barrier" },
	{ "defer_rcu", N_ASYNC, defer_setup, defer_retire, defer_drain,
	  "rcu_defer_barrier" },
	{ "polled", N_ASYNC, poll_setup, poll_retire, poll_drain,
	  "polling" },
};
#define N_METHODS	(sizeof(methods) / sizeof(methods[0]))

struct outcome {
	double ns_per_op;
	double worst_us;
	long peak_waiting;
	long waiting_at_end;
	double drain_ms;
};

static struct outcome run_method(const struct method *m)
{
	struct outcome out = { 0 };
	double start, total = 0;

	if (m->setup)
		m->setup();
	for (int i = 0; i < m->replacements; i++) {
		struct blob *fresh = blob_new(), *old;
		double t0 = now(), op;
		long waiting;

		old = rcu_xchg_pointer(&slots[i % SLOTS], fresh);
		m->retire(old);
		op = now() - t0;
		total += op;
		if (op * 1e6 > out.worst_us)
			out.worst_us = op * 1e6;
		/* Removed but not freed yet: everything beyond the slots. */
		waiting = atomic_load(&live_blobs) - SLOTS;
		if (waiting > out.peak_waiting)
			out.peak_waiting = waiting;
		if ((i + 1) % BURST == 0)
			nanosleep(&(struct timespec){ .tv_nsec = PAUSE_NS },
				  NULL);
	}
	out.ns_per_op = total * 1e9 / m->replacements;
	out.waiting_at_end = atomic_load(&live_blobs) - SLOTS;
	start = now();
	if (m->drain)
		m->drain();
	out.drain_ms = (now() - start) * 1e3;
	return out;
}

int main(void)
{
	struct reader readers[READERS] = { 0 };
	unsigned long errors = 0, reads = 0;
	struct outcome outcomes[N_METHODS];
	bool ok = true;
	int err;

	for (int i = 0; i < SLOTS; i++)
		rcu_assign_pointer(slots[i], blob_new());
	for (int i = 0; i < READERS; i++) {
		readers[i].seed = i + 1;
		err = pthread_create(&readers[i].thread, NULL, reader_thread,
				     &readers[i]);
		if (err)
			die("pthread_create", err);
	}
	while (atomic_load(&readers_ready) < READERS)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);

	/* This thread is the only updater; it never reads, so it need not
	 * register as a reader. */
	for (size_t i = 0; i < N_METHODS; i++) {
		outcomes[i] = run_method(&methods[i]);
		if (atomic_load(&live_blobs) != SLOTS)
			ok = false;	/* the drain left something behind */
	}

	atomic_store(&stop_readers, true);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i].thread, NULL);
		errors += readers[i].errors;
		reads += readers[i].reads;
	}
	for (int i = 0; i < SLOTS; i++)
		blob_free(slots[i]);	/* no reader is left */

	printf("reclaim: %d readers made %lu reads while the updater "
	       "replaced objects in %d slots\n\n", READERS, reads, SLOTS);
	printf("| method          | replaced | updater ns/op | worst op us "
	       "| waiting, peak | waiting at end | freeing the rest           "
	       "|\n");
	printf("|-----------------|----------|---------------|-------------"
	       "|---------------|----------------|----------------------------"
	       "|\n");
	for (size_t i = 0; i < N_METHODS; i++) {
		char drain[64];

		if (methods[i].drain)
			snprintf(drain, sizeof(drain), "%.1f ms, %s",
				 outcomes[i].drain_ms, methods[i].drain_name);
		else
			snprintf(drain, sizeof(drain), "-");
		printf("| %-15s | %8d | %13.0f | %11.0f | %13ld | %14ld "
		       "| %-26s |\n", methods[i].name, methods[i].replacements,
		       outcomes[i].ns_per_op, outcomes[i].worst_us,
		       outcomes[i].peak_waiting, outcomes[i].waiting_at_end,
		       drain);
	}
	printf("\n");

	if (errors || atomic_load(&double_frees) ||
	    atomic_load(&live_blobs) != 0 || !ok) {
		printf("reclaim: FAILED: %lu reads saw a freed object, %lu "
		       "objects freed twice, %ld never freed\n", errors,
		       (unsigned long) atomic_load(&double_frees),
		       (long) atomic_load(&live_blobs));
		return 1;
	}
	printf("reclaim: OK: every object was freed once, after its grace "
	       "period\n");
	return 0;
}
