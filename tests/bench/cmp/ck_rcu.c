/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ck_rcu.c: the Concurrency Kit peer of cmp_rcu.c, using ck_epoch.
 *
 * Same command line, same workloads and the same RESULT keys as
 * cmp_rcu.c, so that tests/bench/cmp/run.py puts the numbers in the ck
 * column:
 *   read section   ck_epoch_begin(); ck_pr_load_ptr(); one load through
 *                  the pointer; ck_epoch_end()
 *   updater        ck_epoch_synchronize() with the updater's own record
 *   callrcu        ck_epoch_call() from one thread, which also runs the
 *                  callbacks: ck_epoch_poll() every CMP_BATCH calls and
 *                  ck_epoch_barrier() at the end (ck_epoch has no worker
 *                  thread, so this is the closest equivalent)
 *
 * Every thread has its own ck_epoch record, registered before it starts.
 */
#include <ck_epoch.h>
#include <ck_pr.h>

#include "cmp_common.h"

struct obj {
	unsigned long v;
};

static ck_epoch_t epoch;
static struct obj the_obj = { .v = 1 };
static struct obj *shared = &the_obj;

static inline unsigned long read_section(ck_epoch_record_t *rec)
{
	struct obj *p;
	unsigned long v;

	ck_epoch_begin(rec, NULL);
	p = ck_pr_load_ptr(&shared);
	v = p->v;
	ck_epoch_end(rec, NULL);
	return v;
}

__attribute__((noinline)) unsigned long bench_sections(ck_epoch_record_t *rec,
		unsigned long n)
{
	unsigned long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += read_section(rec);
	return sum;
}

__attribute__((noinline)) unsigned long bench_baseline(ck_epoch_record_t *rec,
		unsigned long n)
{
	unsigned long i, sum = 0;

	(void) rec;
	for (i = 0; i < n; i++) {
		struct obj *p = ck_pr_load_ptr(&shared);

		sum += p->v;
	}
	return sum;
}

struct worker {
	struct cmp_counter c;
	ck_epoch_record_t rec;
};

static struct worker workers[CMP_MAX_THREADS + 1];
static pthread_t threads[CMP_MAX_THREADS + 1];

static void *reader(void *arg)
{
	struct worker *w = arg;
	unsigned long n = 0, sum = 0;
	double cpu;
	int i;

	cmp_wait_go();
	cpu = cmp_thread_cpu();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++)
			sum += read_section(&w->rec);
		n += CMP_BATCH;
	}
	w->c.cpu = cmp_thread_cpu() - cpu;
	w->c.count = n;
	w->c.sink = sum;
	return NULL;
}

/* UPDATER of "read", as in cmp_rcu.c (cmp_pace()). */
static long updater_rate;

static void *updater(void *arg)
{
	struct worker *w = arg;
	unsigned long n = 0;
	double start;

	cmp_wait_go();
	start = cmp_now();
	while (!cmp_stopped()) {
		ck_epoch_synchronize(&w->rec);
		n++;
		cmp_pace(start, n, updater_rate);
	}
	w->c.count = n;
	return NULL;
}

static void spawn(int i, void *(*fn)(void *))
{
	ck_epoch_register(&epoch, &workers[i].rec, NULL);
	cmp_spawn(&threads[i], fn, &workers[i]);
}

static unsigned long join_all(int from, int to)
{
	unsigned long total = 0;
	int i;

	for (i = from; i < to; i++) {
		cmp_join(threads[i]);
		total += workers[i].c.count;
	}
	return total;
}

static int run_read(int nreaders, int with_updater, double seconds)
{
	double elapsed;
	int i;

	for (i = 0; i < nreaders; i++)
		spawn(i, reader);
	if (with_updater)
		spawn(nreaders, updater);
	elapsed = cmp_run_for(nreaders + with_updater, seconds);
	cmp_result("read", join_all(0, nreaders) / elapsed);
	{
		struct cmp_counter c[CMP_MAX_THREADS];

		for (i = 0; i < nreaders; i++)
			c[i] = workers[i].c;
		cmp_result("read_cpu", cmp_cpu_rate(c, nreaders));
	}
	if (with_updater)
		cmp_result("read_gps",
			   join_all(nreaders, nreaders + 1) / elapsed);
	return 0;
}

static int run_sync(int nreaders, double seconds)
{
	size_t cap = 1 << 20, n = 0;
	double *lat = malloc(cap * sizeof(*lat));
	ck_epoch_record_t *self = &workers[CMP_MAX_THREADS].rec;
	double end;
	int i;

	if (!lat)
		cmp_die("malloc", ENOMEM);
	ck_epoch_register(&epoch, self, NULL);
	for (i = 0; i < nreaders; i++)
		spawn(i, reader);
	cmp_release(nreaders);
	end = cmp_now() + seconds;
	while (n < cap) {
		double t0 = cmp_now(), t1;

		ck_epoch_synchronize(self);
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

	spawn(0, reader);
	spawn(1, updater);
	spawn(2, updater);
	elapsed = cmp_run_for(3, seconds);
	join_all(0, 1);
	cmp_result("sync2", join_all(1, 3) / elapsed);
	return 0;
}

struct cb_obj {
	ck_epoch_entry_t entry;
	unsigned long payload[2];
};

static unsigned long callbacks_run;

static void free_cb_obj(ck_epoch_entry_t *e)
{
	free(cmp_container_of(e, struct cb_obj, entry));
	callbacks_run++;	/* runs in the producer thread only */
}

static void *call_producer(void *arg)
{
	struct worker *w = arg;
	unsigned long n = 0;
	int i;

	cmp_wait_go();
	while (!cmp_stopped()) {
		for (i = 0; i < CMP_BATCH; i++) {
			struct cb_obj *o = malloc(sizeof(*o));

			if (!o)
				cmp_die("malloc", ENOMEM);
			o->payload[0] = n + i;
			ck_epoch_call(&w->rec, &o->entry, free_cb_obj);
		}
		n += CMP_BATCH;
		ck_epoch_poll(&w->rec);
	}
	ck_epoch_barrier(&w->rec);
	w->c.count = n;
	return NULL;
}

static int run_callrcu(double seconds)
{
	double start;
	unsigned long queued;

	spawn(0, call_producer);
	cmp_release(1);
	start = cmp_now();
	cmp_sleep(seconds);
	__atomic_store_n(&cmp_stop, 1, __ATOMIC_RELAXED);
	queued = join_all(0, 1);
	if (callbacks_run != queued) {
		fprintf(stderr, "ck_rcu: %lu callbacks queued, %lu ran\n",
			queued, callbacks_run);
		return 1;
	}
	cmp_result("callrcu", queued / (cmp_now() - start));
	return 0;
}

static int run_icount(unsigned long n)
{
	ck_epoch_record_t *rec = &workers[0].rec;
	unsigned long sum;

	ck_epoch_register(&epoch, rec, NULL);
	sum = bench_sections(rec, n);
	sum += bench_baseline(rec, n);
	cmp_result("icount_sink", sum != 2 * n);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ck_rcu read THREADS UPDATER SECONDS | "
		"sync READERS SECONDS | sync2 SECONDS | callrcu SECONDS | "
		"icount N\n"
		"  UPDATER: 0 none, 1 ck_epoch_synchronize() back to back, "
		"N > 1 about N grace periods/s\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int nthreads;

	cmp_reset();
	ck_epoch_init(&epoch);
	if (!strcmp(mode, "read")) {
		nthreads = cmp_arg(argc, argv, 2, 1);
		if (nthreads < 1 || nthreads > CMP_MAX_THREADS - 1)
			usage();
		updater_rate = cmp_arg(argc, argv, 3, 0);
		if (updater_rate < 0)
			usage();
		return run_read(nthreads, updater_rate != 0,
				cmp_arg_f(argc, argv, 4, 1.0));
	}
	if (!strcmp(mode, "sync")) {
		nthreads = cmp_arg(argc, argv, 2, 0);
		if (nthreads < 0 || nthreads > CMP_MAX_THREADS - 1)
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
