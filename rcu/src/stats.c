/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stats.c: the statistics API of one flavor (urcu/stats.h) and the
 * URCU_STATS=1 report at exit.  Compiled once per flavor.
 *
 * Nothing here writes: the counters are kept where the work happens
 * (gp-stats.h for grace periods, reader-registry.h for readers, call-rcu.c
 * for callbacks and rcu_barrier()), and are read here with relaxed loads.
 * Only the call_rcu part takes a lock (call_rcu_mutex, held briefly to
 * walk the worker list), never one that a grace period holds, so the
 * statistics can be read while a grace period stalls.
 */
#include "flavor-internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/stats.h>

#include "urcu-export.h"
#include "stats-internal.h"

/* How the flavor orders readers: enum urcu_stats_membarrier. */
static int membarrier_mode(void)
{
#if defined(RCU_MEMBARRIER) || defined(RCU_BP)
#ifdef RCU_MEMBARRIER
	const int *flag = &urcu_memb_has_sys_membarrier;
#else
	const int *flag = &urcu_bp_has_sys_membarrier;
#endif
	/* Relaxed: set once at initialisation. */
	return __atomic_load_n(flag, __ATOMIC_RELAXED) ?
		URCU_STATS_MEMBARRIER_SYSCALL : URCU_STATS_MEMBARRIER_FALLBACK;
#else
	return URCU_STATS_MEMBARRIER_UNUSED;
#endif
}

/* The grace-period and reader counters. */
static void gp_stats(struct urcu_stats *out)
{
	const struct urcu__gp_state *st = &urcu__flavor_gp_state;
	const struct urcu__registry *reg = &urcu__flavor_registry;
	/*
	 * Acquire: pairs with the release of the store that made it odd
	 * (urcu__synchronize), so an odd value comes with its start time.
	 */
	unsigned long seq = urcu__flavor_gp_seq();

	out->gp_completed = seq / 2;
	if (seq & 1) {
		/* Relaxed: published by the acquire above. */
		uint64_t start = __atomic_load_n(&st->stats.start_ns,
						 __ATOMIC_RELAXED);
		uint64_t now = urcu__now_ns();

		/*
		 * 0: not timed yet (nothing waited for so far); otherwise the
		 * next one may have started meanwhile.  Either way it runs.
		 */
		out->gp_current_ns = start && now > start ? now - start : 1;
	}
	/* Relaxed from here on: statistics, each exact on its own. */
	out->gp_max_ns = __atomic_load_n(&st->stats.max_ns, __ATOMIC_RELAXED);
	out->gp_total_ns = __atomic_load_n(&st->stats.total_ns,
					   __ATOMIC_RELAXED);
	out->sync_calls = __atomic_load_n(&st->stats.sync_calls,
					  __ATOMIC_RELAXED);
	out->sync_shared = __atomic_load_n(&st->stats.sync_shared,
					   __ATOMIC_RELAXED);
	out->stall_warnings = __atomic_load_n(&st->stats.stall_warnings,
					      __ATOMIC_RELAXED);
	out->gp_reader_barriers = __atomic_load_n(&st->stats.reader_barriers,
						  __ATOMIC_RELAXED);
	out->gp_reader_wakeups = __atomic_load_n(&st->stats.reader_wakeups,
						 __ATOMIC_RELAXED);
	out->readers = __atomic_load_n(&reg->nr_readers, __ATOMIC_RELAXED);
	out->registrations = __atomic_load_n(&reg->registrations,
					     __ATOMIC_RELAXED);
}

URCU_API int rcu_stats(struct urcu_stats *out, size_t size)
{
	struct urcu_stats full;

	if (!out || size < sizeof(full.size)) {
		errno = EINVAL;
		return -1;
	}
	memset(&full, 0, sizeof(full));
	full.flavor = URCU__FLAVOR_STR;
	gp_stats(&full);
	urcu__flavor_cb_stats(&full);
	full.membarrier = membarrier_mode();
	if (size > sizeof(full)) {
		memset((char *) out + sizeof(full), 0, size - sizeof(full));
		size = sizeof(full);
	}
	full.size = size;
	memcpy(out, &full, size);
	return 0;
}

/* Where urcu__flavor_cb_workers() copies to, in the caller's layout. */
struct worker_sink {
	char *out;
	size_t max, size, n;
};

static void copy_worker(const struct urcu_stats_worker *w, void *arg)
{
	struct worker_sink *sink = arg;
	struct urcu_stats_worker copy = *w;
	size_t size = sink->size;
	char *dst;

	if (sink->n >= sink->max) {
		sink->n++;
		return;
	}
	dst = sink->out + sink->n++ * size;
	if (size > sizeof(copy)) {
		memset(dst + sizeof(copy), 0, size - sizeof(copy));
		size = sizeof(copy);
	}
	copy.size = size;
	memcpy(dst, &copy, size);
}

URCU_API long rcu_stats_workers(struct urcu_stats_worker *out, size_t max,
		size_t size)
{
	struct worker_sink sink = { (char *) out, max, size, 0 };

	if ((max && !out) || size < sizeof(out->size)) {
		errno = EINVAL;
		return -1;
	}
	return (long) urcu__flavor_cb_workers(copy_worker, &sink);
}

static const char *membarrier_text(int mode)
{
	switch (mode) {
	case URCU_STATS_MEMBARRIER_SYSCALL:
		return "membarrier(2) in use";
	case URCU_STATS_MEMBARRIER_FALLBACK:
		return "fallback: readers use fences";
	default:
		return "not used by this flavor";
	}
}

/* Milliseconds, for printing. */
static double ms(uint64_t ns)
{
	return (double) ns / 1e6;
}

static void print_workers(FILE *f)
{
	struct urcu_stats_worker *w = NULL;
	long n, i, max = 0;

	/* Workers may come and go between the calls: retry until it fits. */
	for (;;) {
		n = rcu_stats_workers(w, (size_t) max, sizeof(*w));
		if (n <= max)
			break;
		free(w);
		max = n + 4;
		w = calloc((size_t) max, sizeof(*w));
		if (!w) {
			fprintf(f, "urcu %s:   (no memory to list %ld workers)\n",
				URCU__FLAVOR_STR, n);
			return;
		}
	}
	for (i = 0; i < n; i++)
		fprintf(f, "urcu %s:   worker 0x%lx%s%s cpu %d: queued %llu, "
			"invoked %llu, pending %llu, batches %llu\n",
			URCU__FLAVOR_STR, (unsigned long) w[i].thread,
			(w[i].flags & URCU_STATS_WORKER_DEFAULT) ?
				" (default)" : "",
			(w[i].flags & URCU_STATS_WORKER_RT) ? " (rt)" : "",
			w[i].cpu, (unsigned long long) w[i].queued,
			(unsigned long long) w[i].invoked,
			(unsigned long long) w[i].pending,
			(unsigned long long) w[i].batches);
	free(w);
}

URCU_API void rcu_stats_print(FILE *f)
{
	struct urcu_stats s;
	const char *fl = URCU__FLAVOR_STR;

	(void) rcu_stats(&s, sizeof(s));
	fprintf(f, "urcu %s: grace periods: %llu completed, ", fl,
		(unsigned long long) s.gp_completed);
	if (s.gp_current_ns)
		fprintf(f, "one running for %.3f ms\n", ms(s.gp_current_ns));
	else
		fprintf(f, "none running\n");
	fprintf(f, "urcu %s: grace-period latency: max %.3f ms, mean %.3f ms\n",
		fl, ms(s.gp_max_ns),
		s.gp_completed ? ms(s.gp_total_ns) / (double) s.gp_completed
			       : 0.0);
	fprintf(f, "urcu %s: synchronize_rcu: %llu calls, %llu shared a "
		"grace period\n", fl, (unsigned long long) s.sync_calls,
		(unsigned long long) s.sync_shared);
	fprintf(f, "urcu %s: stall warnings: %llu\n", fl,
		(unsigned long long) s.stall_warnings);
	fprintf(f, "urcu %s: readers: %llu registered, %llu registrations\n",
		fl, (unsigned long long) s.readers,
		(unsigned long long) s.registrations);
	fprintf(f, "urcu %s: membarrier: %s\n", fl,
		membarrier_text(s.membarrier));
	fprintf(f, "urcu %s: grace periods that interrupted readers: %llu\n",
		fl, (unsigned long long) s.gp_reader_barriers);
	fprintf(f, "urcu %s: grace-period sleeps ended by a reader's wake: "
		"%llu\n", fl, (unsigned long long) s.gp_reader_wakeups);
	fprintf(f, "urcu %s: call_rcu: %llu queued, %llu invoked, %llu "
		"pending, %llu workers; rcu_barrier: %llu calls\n", fl,
		(unsigned long long) s.cb_queued,
		(unsigned long long) s.cb_invoked,
		(unsigned long long) s.cb_pending,
		(unsigned long long) s.workers,
		(unsigned long long) s.barrier_calls);
	print_workers(f);
}

/* URCU_STATS as read when the library was loaded. */
static bool print_at_exit;

/*
 * URCU_STATS=1 (any value but empty or "0"): print at exit.  Read at
 * load time, before the program's threads exist.
 */
__attribute__((constructor))
static void stats_read_env(void)
{
	const char *v = getenv("URCU_STATS");

	print_at_exit = v && *v && strcmp(v, "0") != 0;
}

/*
 * Called first thing by the library's exit handler (call_rcu_exit), so
 * the workers are still listed.  A destructor or atexit() handler of its
 * own would not do: the dynamic loader runs a library's constructors
 * before the program registers the destructor pass, so atexit() from
 * here runs after the destructors, and the order of two destructors of
 * one library depends on the link order.
 */
void urcu__flavor_stats_at_exit(void)
{
	if (print_at_exit)
		rcu_stats_print(stderr);
}
