/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cmp_rcu.c: read-side and update-side costs of one RCU flavor, written
 * against the public liburcu API only, so that the same source builds
 * against this project and against the system liburcu
 * (tests/bench/cmp/run.py runs both, interleaved; docs/performance.md).
 *
 * Build with one of -DCMP_FLAVOR_MEMB, _MB, _SIGNAL, _QSBR, _BP and link
 * with that flavor's library.  With -D_LGPL_SOURCE the read side is
 * inlined from the headers ("inline" rows); without it every
 * rcu_read_lock()/rcu_read_unlock() calls the library ("call" rows).
 *
 * Usage (times in seconds):
 *   cmp_rcu read THREADS UPDATER SECONDS
 *       THREADS readers loop over rcu_read_lock(); rcu_dereference() and
 *       one load through the pointer; rcu_read_unlock().  With UPDATER=1 a
 *       thread calls synchronize_rcu() in a loop meanwhile.
 *       RESULT read <sections/s>, RESULT read_gps <grace periods/s>,
 *       RESULT read_cpu <sections per second of reader CPU time, summed
 *       over the readers: see cmp_cpu_rate()>
 *   cmp_rcu sync READERS SECONDS
 *       synchronize_rcu() latency while READERS readers loop as above.
 *       RESULT sync_median_us, sync_p99_us, sync_samples
 *   cmp_rcu sync2 SECONDS
 *       two threads call synchronize_rcu() in a loop while one reader
 *       loops as above: shows how well concurrent callers share grace
 *       periods.
 *       RESULT sync2 <returns from synchronize_rcu() per s, both threads>
 *   cmp_rcu callrcu SECONDS
 *       one registered thread queues call_rcu() callbacks that free a
 *       32-byte object, for SECONDS, then waits with rcu_barrier().
 *       RESULT callrcu <callbacks run per s>
 *   cmp_rcu icount N
 *       runs bench_sections(N) and bench_baseline(N) once each, for
 *       valgrind --tool=callgrind --toggle-collect=<function>: the
 *       difference of the two, divided by N, is the cost of one read-side
 *       section beyond the dereference itself.
 *
 * QSBR readers announce a quiescent state every CMP_BATCH sections, as a
 * QSBR application would between requests; the other flavors run the
 * same loop without it.
 */
#if defined(CMP_FLAVOR_QSBR)
#include <urcu-qsbr.h>
#define CMP_QSBR 1
#elif defined(CMP_FLAVOR_BP)
#include <urcu-bp.h>
#else
#if defined(CMP_FLAVOR_MB)
#define RCU_MB
#elif defined(CMP_FLAVOR_SIGNAL)
#define RCU_SIGNAL
#elif !defined(CMP_FLAVOR_MEMB)
#error "build with one of -DCMP_FLAVOR_MEMB, _MB, _SIGNAL, _QSBR, _BP"
#endif
#include <urcu.h>
#endif

#include "cmp_common.h"

#ifdef CMP_QSBR
#define CMP_QUIESCENT()	rcu_quiescent_state()
#else
#define CMP_QUIESCENT()	do { } while (0)
#endif

struct obj {
	unsigned long v;
};

static struct obj the_obj = { .v = 1 };
static struct obj *shared = &the_obj;

/* One read-side section: what every read row measures. */
static inline unsigned long read_section(void)
{
	struct obj *p;
	unsigned long v;

	rcu_read_lock();
	p = rcu_dereference(shared);
	v = p->v;
	rcu_read_unlock();
	return v;
}

/* For callgrind (mode icount): N sections ... */
__attribute__((noinline)) unsigned long bench_sections(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += read_section();
	return sum;
}

/* ... and the same loop without rcu_read_lock()/rcu_read_unlock(). */
__attribute__((noinline)) unsigned long bench_baseline(unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++) {
		struct obj *p = rcu_dereference(shared);

		sum += p->v;
	}
	return sum;
}

static void *reader(void *arg)
{
	struct cmp_counter *c = arg;
	unsigned long n = 0, sum = 0;
	double cpu;
	int i;

	rcu_register_thread();
	cmp_wait_go();
	cpu = cmp_thread_cpu();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++)
			sum += read_section();
		n += CMP_BATCH;
		CMP_QUIESCENT();
	}
	c->cpu = cmp_thread_cpu() - cpu;
	rcu_unregister_thread();
	c->count = n;
	c->sink = sum;
	return NULL;
}

/* UPDATER of "read": 1 back to back, or grace periods/s (cmp_pace()). */
static long updater_rate;

static void *updater(void *arg)
{
	struct cmp_counter *c = arg;
	unsigned long n = 0;
	double start;

	cmp_wait_go();
	start = cmp_now();
	while (!cmp_stopped()) {
		synchronize_rcu();
		n++;
		cmp_pace(start, n, updater_rate);
	}
	c->count = n;
	return NULL;
}

static struct cmp_counter counters[CMP_MAX_THREADS + 1];
static pthread_t threads[CMP_MAX_THREADS + 1];

static int start_readers(int n)
{
	int i;

	for (i = 0; i < n; i++)
		cmp_spawn(&threads[i], reader, &counters[i]);
	return n;
}

static unsigned long join_all(int from, int to)
{
	unsigned long total = 0;
	int i;

	for (i = from; i < to; i++) {
		cmp_join(threads[i]);
		total += counters[i].count;
	}
	return total;
}

static int run_read(int nreaders, int with_updater, double seconds)
{
	double elapsed;
	unsigned long reads;
	int n = start_readers(nreaders);

	if (with_updater)
		cmp_spawn(&threads[n], updater, &counters[n]);
	elapsed = cmp_run_for(n + with_updater, seconds);
	reads = join_all(0, n);
	cmp_result("read", reads / elapsed);
	cmp_result("read_cpu", cmp_cpu_rate(counters, n));
	if (with_updater)
		cmp_result("read_gps", join_all(n, n + 1) / elapsed);
	return 0;
}

static int run_sync(int nreaders, double seconds)
{
	size_t cap = 1 << 20, n = 0;
	double *lat = malloc(cap * sizeof(*lat));
	double end;

	if (!lat)
		cmp_die("malloc", ENOMEM);
	start_readers(nreaders);
	cmp_release(nreaders);
	end = cmp_now() + seconds;
	while (n < cap) {
		double t0 = cmp_now(), t1;

		synchronize_rcu();
		t1 = cmp_now();
		lat[n++] = (t1 - t0) * 1e6;
		if (t1 >= end)
			break;
	}
	__atomic_store_n(&cmp_stop, 1, __ATOMIC_RELAXED);
	join_all(0, nreaders);
	cmp_result("sync_samples", n);
	cmp_result("sync_median_us", cmp_quantile(lat, n, 0.5));
	cmp_result("sync_p99_us", cmp_quantile(lat, n, 0.99));
	free(lat);
	return 0;
}

static int run_sync2(double seconds)
{
	double elapsed;

	start_readers(1);
	cmp_spawn(&threads[1], updater, &counters[1]);
	cmp_spawn(&threads[2], updater, &counters[2]);
	elapsed = cmp_run_for(3, seconds);
	join_all(0, 1);
	cmp_result("sync2", join_all(1, 3) / elapsed);
	return 0;
}

struct cb_obj {
	struct rcu_head head;
	unsigned long payload[2];
};

static unsigned long callbacks_run;

static void free_cb_obj(struct rcu_head *head)
{
	free(caa_container_of(head, struct cb_obj, head));
	/* Relaxed: read after rcu_barrier(). */
	__atomic_fetch_add(&callbacks_run, 1, __ATOMIC_RELAXED);
}

static void *call_rcu_producer(void *arg)
{
	struct cmp_counter *c = arg;
	unsigned long n = 0;
	int i;

	rcu_register_thread();
	cmp_wait_go();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			struct cb_obj *o = malloc(sizeof(*o));

			if (!o)
				cmp_die("malloc", ENOMEM);
			o->payload[0] = n + i;
			call_rcu(&o->head, free_cb_obj);
		}
		n += CMP_BATCH;
		CMP_QUIESCENT();
	}
#ifdef CMP_QSBR
	/* liburcu's rcu_barrier() refuses to run in an online QSBR thread. */
	rcu_thread_offline();
#endif
	rcu_barrier();
#ifdef CMP_QSBR
	rcu_thread_online();
#endif
	rcu_unregister_thread();
	c->count = n;
	return NULL;
}

static int run_callrcu(double seconds)
{
	double start;
	unsigned long queued;

	cmp_spawn(&threads[0], call_rcu_producer, &counters[0]);
	cmp_release(1);
	start = cmp_now();
	cmp_sleep(seconds);
	__atomic_store_n(&cmp_stop, 1, __ATOMIC_RELAXED);
	queued = join_all(0, 1);
	/* Relaxed: the join above orders it after every callback. */
	if (__atomic_load_n(&callbacks_run, __ATOMIC_RELAXED) != queued) {
		fprintf(stderr, "cmp_rcu: %lu callbacks queued, %lu ran\n",
			queued, callbacks_run);
		return 1;
	}
	cmp_result("callrcu", queued / (cmp_now() - start));
	return 0;
}

/* Declared by the static headers only: not visible without _LGPL_SOURCE. */
#if defined(CMP_FLAVOR_MEMB) && !defined(urcu_memb_has_sys_membarrier)
extern int urcu_memb_has_sys_membarrier;
#elif defined(CMP_FLAVOR_BP) && !defined(urcu_bp_has_sys_membarrier)
extern int urcu_bp_has_sys_membarrier;
#endif

static int run_icount(unsigned long n)
{
	unsigned long sum;

	rcu_register_thread();
	sum = bench_sections(n);
	sum += bench_baseline(n);
	rcu_unregister_thread();
	cmp_result("icount_sink", sum != 2 * n);
#if defined(CMP_FLAVOR_MEMB)
	cmp_result("has_sys_membarrier", urcu_memb_has_sys_membarrier);
#elif defined(CMP_FLAVOR_BP)
	cmp_result("has_sys_membarrier", urcu_bp_has_sys_membarrier);
#endif
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: cmp_rcu read THREADS UPDATER SECONDS | "
		"sync READERS SECONDS | sync2 SECONDS | callrcu SECONDS | "
		"icount N\n"
		"  UPDATER: 0 none, 1 synchronize_rcu() back to back, "
		"N > 1 about N grace periods/s\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int nthreads;

	cmp_reset();
	if (!strcmp(mode, "read")) {
		nthreads = cmp_arg(argc, argv, 2, 1);
		if (nthreads < 1 || nthreads > CMP_MAX_THREADS)
			usage();
		updater_rate = cmp_arg(argc, argv, 3, 0);
		if (updater_rate < 0)
			usage();
		return run_read(nthreads, updater_rate != 0,
				cmp_arg_f(argc, argv, 4, 1.0));
	}
	if (!strcmp(mode, "sync")) {
		nthreads = cmp_arg(argc, argv, 2, 0);
		if (nthreads < 0 || nthreads > CMP_MAX_THREADS)
			usage();
		return run_sync(nthreads, cmp_arg_f(argc, argv, 3, 1.0));
	}
	if (!strcmp(mode, "sync2"))
		return run_sync2(cmp_arg_f(argc, argv, 2, 1.0));
	if (!strcmp(mode, "callrcu"))
		return run_callrcu(cmp_arg_f(argc, argv, 2, 1.0));
	if (!strcmp(mode, "icount"))
		return run_icount(cmp_arg(argc, argv, 2, 1000000));
	usage();
	return 2;
}
