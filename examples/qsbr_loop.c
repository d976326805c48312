/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * qsbr_loop: worker threads that use the QSBR flavor.
 *
 * With QSBR, rcu_read_lock() and rcu_read_unlock() cost nothing (in
 * release builds they compile to nothing).  A grace period ends once
 * every registered thread has said "I hold no RCU-protected reference
 * right now", which it does by calling rcu_quiescent_state().  The
 * natural place for that call is the top of a thread's main loop, between
 * two work items: there, nothing read under RCU for the previous item is
 * still in use.
 *
 * The price is that a thread that stops calling rcu_quiescent_state()
 * stops every grace period, for as long as it is stopped.  That includes
 * a thread asleep in a blocking call: a condition-variable wait for more
 * work, a sleep, blocking I/O.  Before such a call a thread goes offline
 * with rcu_thread_offline(), and comes back with rcu_thread_online()
 * afterwards.  While offline it is ignored by grace periods and must not
 * touch RCU-protected data.
 *
 * The program: the main thread hands out jobs in bursts through a queue
 * protected by a mutex and a condition variable, and pauses between
 * bursts.  Two workers run a QSBR loop over the jobs.  Each job reads the
 * current "rules" (an RCU-protected object), which an updater thread
 * keeps replacing: it publishes a new version with rcu_xchg_pointer(),
 * waits in synchronize_rcu() and frees the old one.  Workers go offline
 * while they wait for work and around the blocking sleep that some jobs
 * include.  Grace periods therefore keep completing while the workers
 * are blocked, and the report shows how long they took.
 *
 * Checking: the rules carry a magic word, overwritten before free(), and
 * fields that must agree with each other; every job checks them and its
 * own result.  The program exits 1 if any check fails or a job is lost.
 *
 * QSBR flavor: include <urcu-qsbr.h>, link with -lurcu-qsbr.  Run it with
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

#include <urcu-qsbr.h>

#define WORKERS		2
#define BURSTS		20
#define JOBS_PER_BURST	200
#define PAUSE_US	5000	/* between bursts: workers go idle */
#define SLOW_EVERY	50	/* every 50th job blocks ... */
#define SLOW_US		1000	/* ... this long, offline */
#define UPDATE_EVERY_US	500

enum { RULES_LIVE = 0x7a1e5, RULES_FREED = 0xdead };

struct rules {
	/* RULES_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned int version;
	unsigned int multiplier;
	unsigned int offset;
};

static struct rules *current_rules;

/* The job queue: a ring of job numbers, closed when no more come. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t nonempty;
	unsigned int jobs[JOBS_PER_BURST];
	unsigned int head, tail;	/* tail - head jobs are queued */
	bool closed;
} queue = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.nonempty = PTHREAD_COND_INITIALIZER,
};

static atomic_bool stop_updater;

struct worker {
	pthread_t thread;
	unsigned long jobs;
	unsigned long quiescent_states;
	unsigned long idle_waits;	/* offline in pthread_cond_wait */
	unsigned long slow_jobs;	/* offline in nanosleep */
	unsigned long errors;
	double offline_seconds;
};

struct updater {
	pthread_t thread;
	unsigned long published;
	double gp_total, gp_max;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "qsbr_loop: %s: %s\n", what, strerror(err));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = us % 1000000 * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static struct rules *rules_new(unsigned int version)
{
	struct rules *r = malloc(sizeof(*r));

	if (!r)
		die("malloc", ENOMEM);
	r->version = version;
	r->multiplier = version % 7 + 1;
	r->offset = version * 3 + 1;
	atomic_init(&r->magic, RULES_LIVE);
	return r;
}

static void rules_free(struct rules *r)
{
	atomic_store_explicit(&r->magic, RULES_FREED, memory_order_relaxed);
	free(r);
}

/*
 * Takes the next job into *@job; false once the queue is closed and
 * empty.  Blocks while there is no work, offline.
 */
static bool next_job(struct worker *self, unsigned int *job)
{
	bool got = false;

	/* Held only briefly by anyone: no need to go offline for it. */
	pthread_mutex_lock(&queue.lock);
	if (queue.head == queue.tail && !queue.closed) {
		double start = now();

		/* Nothing from RCU is in use here; let grace periods go on. */
		rcu_thread_offline();
		while (queue.head == queue.tail && !queue.closed)
			pthread_cond_wait(&queue.nonempty, &queue.lock);
		rcu_thread_online();
		self->idle_waits++;
		self->offline_seconds += now() - start;
	}
	if (queue.head != queue.tail) {
		*job = queue.jobs[queue.head++ % JOBS_PER_BURST];
		got = true;
	}
	pthread_mutex_unlock(&queue.lock);
	return got;
}

static void *worker_thread(void *arg)
{
	struct worker *self = arg;
	unsigned int job;

	/* A registered QSBR thread starts online. */
	rcu_register_thread();
	while (next_job(self, &job)) {
		const struct rules *r;

		if (job % SLOW_EVERY == 0) {
			double start = now();

			/* Simulated blocking I/O: offline for its duration. */
			rcu_thread_offline();
			sleep_us(SLOW_US);
			rcu_thread_online();
			self->slow_jobs++;
			self->offline_seconds += now() - start;
		}

		rcu_read_lock();
		r = rcu_dereference(current_rules);
		if (atomic_load_explicit(&r->magic, memory_order_relaxed) !=
		    RULES_LIVE || r->multiplier != r->version % 7 + 1 ||
		    r->offset != r->version * 3 + 1)
			self->errors++;
		rcu_read_unlock();
		self->jobs++;

		/* Between two jobs: r must not be used past this point. */
		rcu_quiescent_state();
		self->quiescent_states++;
	}
	rcu_unregister_thread();
	return NULL;
}

/*
 * Replaces the rules every UPDATE_EVERY_US.  This thread never reads
 * RCU-protected data, so it need not register: synchronize_rcu() works
 * from any thread.
 */
static void *updater_thread(void *arg)
{
	struct updater *self = arg;
	unsigned int version = 1;

	while (!atomic_load(&stop_updater)) {
		struct rules *old;
		double start, gp;

		old = rcu_xchg_pointer(&current_rules, rules_new(++version));
		start = now();
		synchronize_rcu();
		gp = now() - start;
		rules_free(old);
		self->published++;
		self->gp_total += gp;
		if (gp > self->gp_max)
			self->gp_max = gp;
		sleep_us(UPDATE_EVERY_US);
	}
	return NULL;
}

int main(void)
{
	struct worker workers[WORKERS] = { 0 };
	struct updater updater = { 0 };
	unsigned long jobs = 0, errors = 0, qs = 0, idle = 0, slow = 0;
	double offline = 0;
	unsigned int job = 0;
	int err;

	rcu_assign_pointer(current_rules, rules_new(1));
	for (int i = 0; i < WORKERS; i++) {
		err = pthread_create(&workers[i].thread, NULL, worker_thread,
				     &workers[i]);
		if (err)
			die("pthread_create", err);
	}
	err = pthread_create(&updater.thread, NULL, updater_thread, &updater);
	if (err)
		die("pthread_create", err);

	/* The main thread is not registered: it may block freely. */
	for (int burst = 0; burst < BURSTS; burst++) {
		pthread_mutex_lock(&queue.lock);
		/* The ring holds one burst: let the workers take the last. */
		while (queue.tail != queue.head) {
			pthread_mutex_unlock(&queue.lock);
			sleep_us(100);
			pthread_mutex_lock(&queue.lock);
		}
		for (int i = 0; i < JOBS_PER_BURST; i++)
			queue.jobs[queue.tail++ % JOBS_PER_BURST] = ++job;
		pthread_cond_broadcast(&queue.nonempty);
		pthread_mutex_unlock(&queue.lock);
		sleep_us(PAUSE_US);
	}
	pthread_mutex_lock(&queue.lock);
	queue.closed = true;
	pthread_cond_broadcast(&queue.nonempty);
	pthread_mutex_unlock(&queue.lock);

	for (int i = 0; i < WORKERS; i++) {
		pthread_join(workers[i].thread, NULL);
		jobs += workers[i].jobs;
		errors += workers[i].errors;
		qs += workers[i].quiescent_states;
		idle += workers[i].idle_waits;
		slow += workers[i].slow_jobs;
		offline += workers[i].offline_seconds;
	}
	atomic_store(&stop_updater, true);
	pthread_join(updater.thread, NULL);
	/* No thread can reach the rules any more. */
	rules_free(current_rules);

	printf("qsbr_loop: %d workers ran %lu of %u jobs, announcing %lu "
	       "quiescent states\n", WORKERS, jobs, job, qs);
	printf("qsbr_loop: they went offline %lu times to wait for work and "
	       "%lu times for blocking jobs, %.0f ms offline in all\n",
	       idle, slow, offline * 1e3);
	printf("qsbr_loop: the updater published %lu versions of the rules; "
	       "grace periods took %.0f us on average, %.0f us at most\n",
	       updater.published,
	       updater.published ? updater.gp_total * 1e6 / updater.published
				 : 0.0,
	       updater.gp_max * 1e6);
	if (errors || jobs != job) {
		printf("qsbr_loop: FAILED: %lu jobs saw freed or inconsistent "
		       "rules, %lu jobs lost\n", errors, job - jobs);
		return 1;
	}
	printf("qsbr_loop: OK: every job ran once against live rules\n");
	return 0;
}
