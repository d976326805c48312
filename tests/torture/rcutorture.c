/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rcutorture: a torture test for the RCU flavors, in the manner of the
 * Linux kernel's rcutorture module.  One binary tests any flavor, chosen
 * with --flavor, through its flavor table (struct rcu_flavor_struct).
 * docs/torture.md explains how to run it and how to read its output.
 *
 * The test in one paragraph: a global pointer designates the "current"
 * element.  Writers replace it with a fresh element from a fixed pool and
 * retire the old one.  A retired element carries a pipeline age,
 * pipe_count: 1 at retirement (no grace period yet), then one more per
 * grace period that elapses after the retirement; at PIPE_LEN it goes
 * back to the pool.  Readers pick up the current element inside a
 * read-side section and look at its age.  An element a reader can reach
 * was current at some point of the reader's section, so every grace period
 * that starts after its retirement must wait for that section: a correct
 * flavor never lets a reader see an age above 1.  Readers also sample a
 * grace-period counter at both ends of their section; it may move by at
 * most one (see gp_tick()).
 *
 * Threads:
 *   - readers (--readers): the loop in reader_thread();
 *   - writers (--writers): writer_thread(); all of them swap the same
 *     global pointer, each retires what its own swap returned;
 *   - the main thread prints statistics and, at the end, the verdict.
 *
 * Retirement (--mode):
 *   - sync: the writer keeps the elements it retired on a private list;
 *     after each synchronize_rcu() it advances every element on that
 *     list by one stage.  Only elements retired before the call are on
 *     the list, so each advance follows a full grace period.  The lists
 *     are per writer (rather than one list under a mutex) so that several
 *     writers run synchronize_rcu() concurrently and exercise grace-period
 *     sharing.
 *   - call_rcu: the writer hands the element to call_rcu(); the callback
 *     advances it and, until PIPE_LEN, queues it again.  Each callback
 *     runs a grace period after the call_rcu() that queued it.
 *
 * Memory ordering: the fields readers look at (pipe_count, in_use, gen)
 * and the counters are accessed with relaxed atomics.  The orderings the
 * test relies on are exactly the ones RCU promises (publication through
 * rcu_xchg_pointer()/rcu_dereference(), and the grace-period guarantee),
 * and those are what is under test; the relaxed accesses only keep the
 * program free of data races, so that ThreadSanitizer checks the library
 * and not the test.  Each access says so where it happens.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/call-rcu.h>
#include <urcu/compiler.h>
#include <urcu/pointer.h>

#include "torture.h"

#define PROG		"rcutorture"

/* Stages of the pipeline; an element goes back to the pool at PIPE_LEN. */
#define PIPE_LEN	10
/* Fixed pool: nothing is allocated while the test runs. */
#define POOL_SIZE	(10 * PIPE_LEN)
#define MAX_THREADS	1024

/* Reader delays (--reader-delay on): odds and lengths. */
#define SHORT_DELAY_ODDS	8	/* 1 section in 8 spins ... */
#define SHORT_DELAY_MAX_US	50	/* ... up to 50 us */
#define YIELD_ODDS		256	/* 1 in 256 yields the CPU */
#define LONG_DELAY_ODDS		20000	/* 1 in 20000 sleeps ... */
#define LONG_DELAY_MIN_US	1000	/* ... 1 to 5 ms: preempted, and */
#define LONG_DELAY_MAX_US	5000	/* signalled (signal flavor) */

/* --mode: an index in mode_names[]. */
enum mode { MODE_SYNC, MODE_CALL_RCU };
static const char *const mode_names[] = { "sync", "call_rcu", NULL };

struct elem {
	/*
	 * Pipeline age: 0 while current or not yet retired, 1 once
	 * retired, then +1 per grace period; atomic (readers load it while
	 * the updater advances it).
	 */
	int pipe_count;
	/* 1 from allocation until the element is back in the pool; atomic. */
	int in_use;
	/* Allocation number; changes whenever the element is recycled. */
	unsigned long gen;
	/* call_rcu mode: queues the next stage. */
	struct rcu_head rh;
	/* Pool free list (under pool.lock) or sync-mode retired list (owner). */
	struct elem *next;
};

static struct {
	/* --flavor, --duration, --stall-timeout, --seed. */
	struct torture_common common;
	const struct rcu_flavor_struct *fl;	/* common.flavor->fl */
	int mode;				/* enum mode */
	unsigned long readers;
	unsigned long writers;
	double stat_interval;
	bool reader_delay;
	unsigned long writer_delay_us;
} cfg = {
	.mode = MODE_SYNC,
	.readers = 4,
	.writers = 1,
	.reader_delay = true,
	.writer_delay_us = 100,
};

/* The current element: rcu_xchg_pointer() by writers, rcu_dereference() by readers. */
static struct elem *current_elem;

static struct {
	pthread_mutex_t lock;
	struct elem *free;		/* under lock */
	unsigned long nfree;		/* under lock */
	struct elem elems[POOL_SIZE];
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Update-side statistics: torture_count() / torture_read(). */
static struct {
	unsigned long ver;		/* replacements of current_elem */
	unsigned long allocs;
	unsigned long alloc_fail;	/* pool empty */
	unsigned long frees;
	unsigned long retired;
	/* wcount[i]: elements that left pipe stage i (Free-Block Circulation). */
	unsigned long wcount[PIPE_LEN + 1];
} stats;

/* Grace periods counted by gp_tick(); relaxed atomic. */
static unsigned long gp_seq;

/* Set by main() at the end of the run; relaxed atomic. */
static int stop;

struct reader {
	pthread_t tid;
	unsigned int id;
	struct torture_rng rng;
	/* Written by the reader only, loaded by the printer: torture_count_own(). */
	unsigned long pipe[PIPE_LEN + 1];	/* "Reader Pipe" */
	unsigned long batch[PIPE_LEN + 1];	/* "Reader Batch" */
	unsigned long reads;
	unsigned long freed_seen;	/* element was back in the pool */
	unsigned long reused_seen;	/* element was recycled under us */
} __attribute__((aligned(64)));

struct writer {
	pthread_t tid;
	unsigned int id;
	struct torture_rng rng;
	/* sync mode: elements this writer retired and has not freed yet. */
	struct elem *retired;
};

static struct reader *readers;
static struct writer *writers;

static bool stopping(void)
{
	/*
	 * Relaxed: only asks the thread to finish; pthread_join orders
	 * everything the thread did before main() reads its results.
	 */
	return __atomic_load_n(&stop, __ATOMIC_RELAXED);
}

/* ------------------------------------------------------------------------
 * The pool.
 */

static struct elem *pool_alloc(void)
{
	struct elem *e;
	unsigned long gen;

	pthread_mutex_lock(&pool.lock);
	e = pool.free;
	if (e) {
		pool.free = e->next;
		pool.nfree--;
	}
	pthread_mutex_unlock(&pool.lock);
	if (!e) {
		torture_count(&stats.alloc_fail, 1);
		return NULL;
	}
	/*
	 * Relaxed: a statistic that doubles as a unique allocation number;
	 * the read-modify-write makes it unique, it orders nothing and
	 * pairs with nothing.
	 */
	gen = __atomic_add_fetch(&stats.allocs, 1, __ATOMIC_RELAXED);
	/*
	 * Relaxed: the element is private until rcu_xchg_pointer() (full
	 * barrier) publishes it; that pairs with the readers'
	 * rcu_dereference().  The stores are atomic because, under a
	 * broken flavor, readers may still be loading these fields.
	 */
	__atomic_store_n(&e->pipe_count, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&e->gen, gen, __ATOMIC_RELAXED);
	__atomic_store_n(&e->in_use, 1, __ATOMIC_RELAXED);
	return e;
}

static void pool_free(struct elem *e)
{
	/*
	 * Relaxed: with a correct flavor no reader can reach @e any more
	 * (PIPE_LEN - 1 grace periods have passed since it was retired), so
	 * it needs no ordering; under a broken flavor the readers' relaxed
	 * loads may see it and report a freed element.  The pool mutex
	 * orders it before the next pool_alloc() of @e.
	 */
	__atomic_store_n(&e->in_use, 0, __ATOMIC_RELAXED);
	pthread_mutex_lock(&pool.lock);
	e->next = pool.free;
	pool.free = e;
	pool.nfree++;
	pthread_mutex_unlock(&pool.lock);
	torture_count(&stats.frees, 1);
}

/* ------------------------------------------------------------------------
 * The pipeline.
 */

/*
 * Moves @e one stage on: called once at retirement and then once per
 * grace period.  Returns true when @e has reached the end and may be
 * freed.  Only one thread advances a given element at a time (its
 * writer, or the callback chain), each step ordered after the previous
 * one by the writer's program order or by call_rcu().
 */
static bool pipe_advance(struct elem *e)
{
	/* Relaxed: the only writer of this field at this time (above). */
	int i = __atomic_load_n(&e->pipe_count, __ATOMIC_RELAXED);

	if (i > PIPE_LEN)
		i = PIPE_LEN;
	torture_count(&stats.wcount[i], 1);
	/*
	 * Relaxed: readers load it concurrently; that they cannot see the
	 * new value is what the grace period before this call promises.
	 */
	__atomic_store_n(&e->pipe_count, i + 1, __ATOMIC_RELAXED);
	return i + 1 >= PIPE_LEN;
}

/*
 * Counts one grace period.  Each tick follows a grace period that began
 * after the previous tick (writer 0 ticks after each of its
 * synchronize_rcu() calls, or from a callback it queues only once the
 * previous tick has happened), so a reader section sees the counter move
 * at most once: a second tick would need a grace period that began
 * during the section to end before the section does.
 */
static void gp_tick(void)
{
	/*
	 * Relaxed: readers' loads are ordered against it by the grace
	 * period itself, which is what is under test.
	 */
	__atomic_fetch_add(&gp_seq, 1, __ATOMIC_RELAXED);
}

/* call_rcu mode: writer 0's grace-period marker. */
static struct rcu_head gp_marker;
static int gp_marker_queued;

static void gp_marker_cb(struct rcu_head *head)
{
	(void) head;
	gp_tick();
	/*
	 * Release: orders the tick (and the library's last use of
	 * gp_marker) before writer 0 queues the marker again; pairs with
	 * the acquire load in gp_marker_maybe_queue().
	 */
	__atomic_store_n(&gp_marker_queued, 0, __ATOMIC_RELEASE);
}

static void gp_marker_maybe_queue(void)
{
	/* Acquire: pairs with the release store in gp_marker_cb(). */
	if (__atomic_load_n(&gp_marker_queued, __ATOMIC_ACQUIRE))
		return;
	/*
	 * Relaxed: only writer 0 sets it, and call_rcu() orders this store
	 * before the callback's store of 0.
	 */
	__atomic_store_n(&gp_marker_queued, 1, __ATOMIC_RELAXED);
	cfg.fl->update_call_rcu(&gp_marker, gp_marker_cb);
}

static void elem_cb(struct rcu_head *head)
{
	struct elem *e = caa_container_of(head, struct elem, rh);

	if (pipe_advance(e))
		pool_free(e);
	else
		cfg.fl->update_call_rcu(&e->rh, elem_cb);
}

/* sync mode: one grace period, then every element on the list moves on. */
static void sync_and_advance(struct writer *w)
{
	struct elem **pp = &w->retired, *e;

	cfg.fl->update_synchronize_rcu();
	if (w->id == 0)
		gp_tick();
	while ((e = *pp) != NULL) {
		if (pipe_advance(e)) {
			*pp = e->next;
			pool_free(e);
		} else {
			pp = &e->next;
		}
	}
}

static void retire(struct writer *w, struct elem *old)
{
	pipe_advance(old);	/* 0 -> 1: unreachable for new readers */
	torture_count(&stats.retired, 1);
	if (cfg.mode == MODE_CALL_RCU) {
		cfg.fl->update_call_rcu(&old->rh, elem_cb);
	} else {
		old->next = w->retired;
		w->retired = old;
		sync_and_advance(w);
	}
}

/* ------------------------------------------------------------------------
 * Threads.
 */

static void *writer_thread(void *arg)
{
	struct writer *w = arg;
	struct elem *e, *old;

	while (!stopping()) {
		e = pool_alloc();
		if (e) {
			/*
			 * Full barrier: publishes @e's initialization to
			 * readers' rcu_dereference(), and orders the
			 * retirement below after the swap.
			 */
			old = rcu_xchg_pointer(&current_elem, e);
			torture_count(&stats.ver, 1);
			retire(w, old);
		} else if (cfg.mode == MODE_SYNC) {
			/* Keep the pipeline moving even without a new element. */
			sync_and_advance(w);
		}
		if (cfg.mode == MODE_CALL_RCU && w->id == 0)
			gp_marker_maybe_queue();
		if (cfg.writer_delay_us)
			torture_sleep_us(torture_rng_next(&w->rng) %
					 (cfg.writer_delay_us + 1));
		else if (!e)
			sched_yield();
	}
	/* Drain: every retired element goes through the whole pipeline. */
	while (w->retired)
		sync_and_advance(w);
	return NULL;
}

static void reader_delay(struct reader *r)
{
	uint64_t x = torture_rng_next(&r->rng);
	uint32_t hi = (uint32_t) (x >> 32);

	if (x % LONG_DELAY_ODDS == 0)
		torture_sleep_us(LONG_DELAY_MIN_US +
				 hi % (LONG_DELAY_MAX_US - LONG_DELAY_MIN_US + 1));
	else if (x % SHORT_DELAY_ODDS == 1)
		torture_spin_us(hi % (SHORT_DELAY_MAX_US + 1));
	else if (x % YIELD_ODDS == 2)
		sched_yield();
}

static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	const struct rcu_flavor_struct *fl = cfg.fl;
	unsigned long started, completed, gen1, gen2, batch;
	int age1, age2, use1, use2, age;
	struct elem *p;

	fl->register_thread();
	while (!stopping()) {
		fl->read_lock();
		/*
		 * Relaxed, like every load in this section: the read-side
		 * section and the grace periods order them; that is the
		 * property under test (gp_tick(), pipe_advance()).
		 */
		started = __atomic_load_n(&gp_seq, __ATOMIC_RELAXED);
		/* Consume: pairs with the writers' rcu_xchg_pointer(). */
		p = rcu_dereference(current_elem);
		if (!p) {
			fl->read_unlock();
			if (cfg.common.flavor->is_qsbr)
				fl->read_quiescent_state();
			continue;
		}
		gen1 = __atomic_load_n(&p->gen, __ATOMIC_RELAXED);
		use1 = __atomic_load_n(&p->in_use, __ATOMIC_RELAXED);
		age1 = __atomic_load_n(&p->pipe_count, __ATOMIC_RELAXED);
		if (cfg.reader_delay)
			reader_delay(r);
		age2 = __atomic_load_n(&p->pipe_count, __ATOMIC_RELAXED);
		use2 = __atomic_load_n(&p->in_use, __ATOMIC_RELAXED);
		gen2 = __atomic_load_n(&p->gen, __ATOMIC_RELAXED);
		completed = __atomic_load_n(&gp_seq, __ATOMIC_RELAXED);
		fl->read_unlock();
		if (cfg.common.flavor->is_qsbr)
			fl->read_quiescent_state();

		age = age1 > age2 ? age1 : age2;
		if (age < 0 || age > PIPE_LEN)
			age = PIPE_LEN;
		batch = completed - started;
		if (batch > PIPE_LEN)
			batch = PIPE_LEN;
		torture_count_own(&r->pipe[age]);
		torture_count_own(&r->batch[batch]);
		torture_count_own(&r->reads);
		if (!use1 || !use2)
			torture_count_own(&r->freed_seen);
		if (gen1 != gen2)
			torture_count_own(&r->reused_seen);
	}
	fl->unregister_thread();
	return NULL;
}

/* ------------------------------------------------------------------------
 * Statistics.
 */

struct snapshot {
	unsigned long ver, allocs, alloc_fail, frees, retired;
	unsigned long reads, freed_seen, reused_seen;
	unsigned long pipe[PIPE_LEN + 1];
	unsigned long batch[PIPE_LEN + 1];
	unsigned long wcount[PIPE_LEN + 1];
	int pool_empty;
};

static void take_snapshot(struct snapshot *s)
{
	unsigned long i, j;

	memset(s, 0, sizeof(*s));
	s->ver = torture_read(&stats.ver);
	s->allocs = torture_read(&stats.allocs);
	s->alloc_fail = torture_read(&stats.alloc_fail);
	s->frees = torture_read(&stats.frees);
	s->retired = torture_read(&stats.retired);
	for (i = 0; i <= PIPE_LEN; i++)
		s->wcount[i] = torture_read(&stats.wcount[i]);
	for (j = 0; j < cfg.readers; j++) {
		struct reader *r = &readers[j];

		s->reads += torture_read(&r->reads);
		s->freed_seen += torture_read(&r->freed_seen);
		s->reused_seen += torture_read(&r->reused_seen);
		for (i = 0; i <= PIPE_LEN; i++) {
			s->pipe[i] += torture_read(&r->pipe[i]);
			s->batch[i] += torture_read(&r->batch[i]);
		}
	}
	pthread_mutex_lock(&pool.lock);
	s->pool_empty = pool.nfree == 0;
	pthread_mutex_unlock(&pool.lock);
}

/* Sum of h[from..PIPE_LEN]. */
static unsigned long tail_sum(const unsigned long *h, int from)
{
	unsigned long sum = 0;
	int i;

	for (i = from; i <= PIPE_LEN; i++)
		sum += h[i];
	return sum;
}

static void print_histogram(const char *when, const char *name,
			    const unsigned long *h, const char *flag)
{
	int i;

	printf("%s: %s %s:", PROG, when, name);
	for (i = 0; i <= PIPE_LEN; i++)
		printf(" %lu", h[i]);
	printf("%s\n", flag);
}

/* Prints one report; @s must have been taken by take_snapshot(). */
static void print_stats(double t, const struct snapshot *s)
{
	char when[32];

	snprintf(when, sizeof(when), "t=%.1fs", t);
	printf("%s: %s ver: %lu allocs: %lu alloc_fail: %lu frees: %lu "
	       "pool_empty: %d retired: %lu reads: %lu freed_seen: %lu "
	       "reused_seen: %lu%s\n",
	       PROG, when, s->ver, s->allocs, s->alloc_fail, s->frees,
	       s->pool_empty, s->retired, s->reads, s->freed_seen,
	       s->reused_seen,
	       s->freed_seen || s->reused_seen ? " !!!" : "");
	print_histogram(when, "Reader Pipe", s->pipe,
			tail_sum(s->pipe, 2) ? " !!!" : "");
	print_histogram(when, "Reader Batch", s->batch,
			tail_sum(s->batch, 2) ? " !!!" : "");
	print_histogram(when, "Free-Block Circulation", s->wcount, "");
	fflush(stdout);
}

/* ------------------------------------------------------------------------
 * main.
 */

static void usage(FILE *out)
{
	fprintf(out,
"usage: %s [options]\n"
"  --flavor %s   flavor to torture (default memb)\n"
"  --mode sync|call_rcu   how writers retire elements (default sync)\n"
"  --readers N            reader threads (default 4)\n"
"  --writers N            writer threads (default 1)\n"
"  --duration S           seconds to run (default 10; fractions allowed)\n"
"  --stat-interval S      also print statistics every S seconds (default 0: end only)\n"
"  --reader-delay[=on|off] random delays inside read-side sections (default on)\n"
"  --writer-delay US      writers sleep 0..US microseconds between updates (default 100)\n"
"  --stall-timeout S      fail if shutdown takes longer (default 60)\n"
"  --seed N               random seed (default: from the clock)\n"
"Prints '!!!' and exits 1 when RCU is seen broken, exits 0 otherwise;\n"
"docs/torture.md explains the output.\n",
		PROG, torture_flavor_names());
}

static bool parse_args(int argc, char **argv)
{
	static const struct torture_opt opts[] = {
		{ "mode", TORTURE_OPT_CHOICE, .choices = mode_names,
		  .out.index = &cfg.mode },
		{ "readers", TORTURE_OPT_UINT, .min = 1, .max = MAX_THREADS,
		  .out.number = &cfg.readers },
		{ "writers", TORTURE_OPT_UINT, .min = 1,
		  .max = POOL_SIZE / PIPE_LEN - 1, .out.number = &cfg.writers },
		{ "stat-interval", TORTURE_OPT_SECONDS,
		  .out.seconds = &cfg.stat_interval },
		{ "reader-delay", TORTURE_OPT_ONOFF,
		  .out.on = &cfg.reader_delay },
		{ "writer-delay", TORTURE_OPT_UINT, .min = 0, .max = 1000000,
		  .out.number = &cfg.writer_delay_us },
		{ .name = NULL },
	};
	static const struct torture_cmdline cmdline = {
		.prog = PROG, .opts = opts, .common = &cfg.common,
		.usage = usage,
	};

	if (!torture_parse_args(&cmdline, argc, argv))
		return false;
	cfg.fl = cfg.common.flavor->fl;
	return true;
}

/* call_rcu mode: runs every callback chain to its end. */
static bool drain_callbacks(void)
{
	int tries;

	/*
	 * Each barrier runs at least one more stage of every chain (a
	 * callback queued by a callback may land after the barrier).
	 */
	for (tries = 0; tries < 4 * PIPE_LEN; tries++) {
		/*
		 * The counters are complete here: barrier() returns after
		 * the callbacks it waited for have run, ordering their
		 * updates before these loads.  Acquire on the marker flag:
		 * pairs with gp_marker_cb()'s release store.
		 */
		if (torture_read(&stats.frees) == torture_read(&stats.retired) &&
		    !__atomic_load_n(&gp_marker_queued, __ATOMIC_ACQUIRE))
			return true;
		cfg.fl->barrier();
	}
	return false;
}

int main(int argc, char **argv)
{
	struct snapshot s;
	double t0, end, next_stat, now;
	unsigned long i, last_ver = 0, problems = 0;
	bool drained = true;
	int k;

	if (!parse_args(argc, argv))
		return TORTURE_EXIT_USAGE;

	readers = calloc(cfg.readers, sizeof(*readers));
	writers = calloc(cfg.writers, sizeof(*writers));
	if (!readers || !writers) {
		printf("%s: !!! out of memory\n", PROG);
		return TORTURE_EXIT_FAILED;
	}
	for (i = 0; i < POOL_SIZE; i++) {
		pool.elems[i].next = pool.free;
		pool.free = &pool.elems[i];
	}
	pool.nfree = POOL_SIZE;
	/* The first current element; pthread_create publishes it. */
	current_elem = pool_alloc();

	printf("%s: flavor %s, mode %s, %lu readers, %lu writers, "
	       "duration %g s, stat-interval %g s, reader-delay %s, "
	       "writer-delay %lu us, pipe length %d, pool %d, seed %llu\n",
	       PROG, cfg.common.flavor->name, mode_names[cfg.mode],
	       cfg.readers, cfg.writers, cfg.common.duration, cfg.stat_interval,
	       cfg.reader_delay ? "on" : "off", cfg.writer_delay_us,
	       PIPE_LEN, POOL_SIZE, (unsigned long long) cfg.common.seed);
	fflush(stdout);

	for (i = 0; i < cfg.readers; i++) {
		readers[i].id = (unsigned int) i;
		torture_rng_seed(&readers[i].rng, cfg.common.seed,
				 (unsigned int) i);
		torture_start_thread(PROG, &readers[i].tid, reader_thread,
				     &readers[i]);
	}
	for (i = 0; i < cfg.writers; i++) {
		writers[i].id = (unsigned int) i;
		torture_rng_seed(&writers[i].rng, cfg.common.seed,
				 (unsigned int) (MAX_THREADS + i));
		torture_start_thread(PROG, &writers[i].tid, writer_thread,
				     &writers[i]);
	}

	t0 = torture_now();
	end = t0 + cfg.common.duration;
	next_stat = cfg.stat_interval > 0 ? t0 + cfg.stat_interval : end;
	while ((now = torture_now()) < end) {
		double wake = next_stat < end ? next_stat : end;

		if (wake > now)
			torture_sleep_us((unsigned long) ((wake - now) * 1e6) + 1);
		now = torture_now();
		if (cfg.stat_interval > 0 && now >= next_stat && now < end) {
			take_snapshot(&s);
			print_stats(now - t0, &s);
			if (s.ver == last_ver)
				printf("%s: ??? writer stall: ver did not move "
				       "in the last %g s\n", PROG,
				       cfg.stat_interval);
			last_ver = s.ver;
			while (next_stat <= now)
				next_stat += cfg.stat_interval;
		}
	}

	/* Relaxed: see stopping(). */
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	torture_watchdog_arm(PROG, "shutdown (joining threads, draining the pipeline)",
			     cfg.common.stall_timeout);
	for (i = 0; i < cfg.writers; i++)
		pthread_join(writers[i].tid, NULL);
	for (i = 0; i < cfg.readers; i++)
		pthread_join(readers[i].tid, NULL);
	if (cfg.mode == MODE_CALL_RCU)
		drained = drain_callbacks();
	torture_watchdog_disarm();

	take_snapshot(&s);
	print_stats(torture_now() - t0, &s);

	if (tail_sum(s.pipe, 2)) {
		printf("%s: !!! %lu reads saw an element older than pipe stage 1 "
		       "(a grace period ended under a reader)\n",
		       PROG, tail_sum(s.pipe, 2));
		problems++;
	}
	if (tail_sum(s.batch, 2)) {
		printf("%s: !!! %lu reads saw two or more grace periods end "
		       "inside one read-side section\n",
		       PROG, tail_sum(s.batch, 2));
		problems++;
	}
	if (s.freed_seen || s.reused_seen) {
		printf("%s: !!! readers saw %lu freed and %lu recycled elements\n",
		       PROG, s.freed_seen, s.reused_seen);
		problems++;
	}
	if (!drained || s.frees != s.retired || s.allocs != s.frees + 1) {
		printf("%s: !!! pipeline did not drain: allocs %lu, retired %lu, "
		       "frees %lu (a lost callback?)\n",
		       PROG, s.allocs, s.retired, s.frees);
		problems++;
	}
	for (k = 0; k <= PIPE_LEN; k++) {
		if (s.wcount[k] != (k < PIPE_LEN ? s.retired : 0)) {
			printf("%s: !!! Free-Block Circulation stage %d: %lu "
			       "elements, expected %lu\n", PROG, k, s.wcount[k],
			       k < PIPE_LEN ? s.retired : 0);
			problems++;
			break;
		}
	}
	if (s.ver == 0)
		printf("%s: ??? the writers made no update\n", PROG);

	if (problems) {
		printf("%s: !!! FAILURE: flavor %s, mode %s: RCU is broken "
		       "(see the lines above)\n", PROG, cfg.common.flavor->name,
		       mode_names[cfg.mode]);
		fflush(stdout);
		return TORTURE_EXIT_FAILED;
	}
	printf("%s: SUCCESS: flavor %s, mode %s, %lu updates, %lu reads\n",
	       PROG, cfg.common.flavor->name, mode_names[cfg.mode], s.ver,
	       s.reads);
	free(readers);
	free(writers);
	return TORTURE_EXIT_OK;
}
