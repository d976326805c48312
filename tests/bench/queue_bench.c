/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * queue_bench.c: throughput of the queues and stacks, in millions of
 * operations per second.
 *
 * Structures, each through its public, out-of-line API (no _LGPL_SOURCE):
 *   lfstack     cds_lfs_push / cds_lfs_pop_blocking
 *   wfstack     cds_wfs_push / cds_wfs_pop_blocking
 *   wfcqueue    cds_wfcq_enqueue / cds_wfcq_dequeue_blocking
 *   rculfqueue  cds_lfq_enqueue_rcu / cds_lfq_dequeue_rcu, each inside
 *               rcu_read_lock() (memb flavor)
 * The pops are the self-locking variants, the ones that are safe with
 * any number of poppers without further rules.  Every push is preceded by
 * the node's *_node_init(), as liburcu requires.
 *
 * Modes:
 *   1        one thread: push one node, pop one node, repeat
 *   2-split  two threads: one only pushes, the other only pops
 *   2-mixed  two threads, each: push one node, pop one node, repeat
 * In "1" and "2-mixed" the structure starts with PREFILL nodes, so pops
 * never find it empty; in "2-split" it starts empty.  An operation is a
 * push, or a pop that returned a node; pops that found the structure
 * empty are not counted.
 *
 * Nodes come from a fixed pool, so the allocator is not measured.  A
 * thread pushes nodes from its private supply and collects the nodes it
 * pops into a batch of BATCH nodes; a full batch goes back to a shared
 * exchange (a mutex-protected list, touched once per BATCH nodes), where
 * pushers refill their supply.  rculfqueue nodes may be reused only after
 * a grace period, so its full batches reach the exchange through
 * call_rcu(); the other structures' batches go there at once.  A pusher
 * that finds no node waits (not counted).
 *
 * Each (structure, mode) is measured REPS times for SECONDS each, the
 * measurements interleaved (all configurations once, then again, ...), and
 * the median is reported with the minimum and maximum.  After each
 * measurement every pool node must be accounted for, else the program
 * fails.
 *
 * Usage: queue_bench [seconds per measurement (0.3)] [repetitions (7)]
 * Output: one line of key=value pairs per configuration, for
 * tests/bench/run_queue.sh.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu.h>
#include <urcu/lfstack.h>
#include <urcu/rculfqueue.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfstack.h>

#define PREFILL		1024
#define BATCH		256
/*
 * Batches in the exchange at the start: enough nodes to cover what
 * rculfqueue pushes while its popped batches wait to be reclaimed.  The
 * call_rcu worker gathers callbacks for 10 ms before a grace period
 * (docs/call-rcu.md, "Batching"), so at ~16M pops/s that is 160k nodes
 * and more when the worker is late: 1M nodes, about 64 ms worth.
 */
#define SUPPLY_BATCHES	4096
#define POOL		(PREFILL + SUPPLY_BATCHES * BATCH)
#define MAX_REPS	31

struct bnode {
	union {
		struct cds_lfs_node lfs;
		struct cds_wfs_node wfs;
		struct cds_wfcq_node wfcq;
		struct cds_lfq_node_rcu lfq;
	} u;
	/* Link in a supply or batch list, while the node is in neither structure. */
	struct bnode *free_next;
	unsigned long value;
};

/* A list of popped nodes on their way back to the pushers. */
struct batch {
	struct rcu_head rh;
	struct batch *next;
	struct bnode *nodes;
	unsigned int n;
};

/* ------------------------------------------------------------------------
 * The structures.
 */

static struct cds_lfs_stack lfs;
static struct cds_wfs_stack wfs;
static struct cds_wfcq_head wfcq_head;
static struct cds_wfcq_tail wfcq_tail;
static struct cds_lfq_queue_rcu lfq;

static void lfs_init(void) { cds_lfs_init(&lfs); }
static void lfs_fini(void) { cds_lfs_destroy(&lfs); }
static void lfs_push(struct bnode *n)
{
	cds_lfs_node_init(&n->u.lfs);
	cds_lfs_push(&lfs, &n->u.lfs);
}
static struct bnode *lfs_pop(void)
{
	struct cds_lfs_node *n = cds_lfs_pop_blocking(&lfs);

	return n ? caa_container_of(n, struct bnode, u.lfs) : NULL;
}

static void wfs_init(void) { cds_wfs_init(&wfs); }
static void wfs_fini(void) { cds_wfs_destroy(&wfs); }
static void wfs_push(struct bnode *n)
{
	cds_wfs_node_init(&n->u.wfs);
	cds_wfs_push(&wfs, &n->u.wfs);
}
static struct bnode *wfs_pop(void)
{
	struct cds_wfs_node *n = cds_wfs_pop_blocking(&wfs);

	return n ? caa_container_of(n, struct bnode, u.wfs) : NULL;
}

static void wfcq_init(void) { cds_wfcq_init(&wfcq_head, &wfcq_tail); }
static void wfcq_fini(void) { cds_wfcq_destroy(&wfcq_head, &wfcq_tail); }
static void wfcq_push(struct bnode *n)
{
	cds_wfcq_node_init(&n->u.wfcq);
	cds_wfcq_enqueue(&wfcq_head, &wfcq_tail, &n->u.wfcq);
}
static struct bnode *wfcq_pop(void)
{
	struct cds_wfcq_node *n = cds_wfcq_dequeue_blocking(&wfcq_head, &wfcq_tail);

	return n ? caa_container_of(n, struct bnode, u.wfcq) : NULL;
}

static void lfq_init(void) { cds_lfq_init_rcu(&lfq, call_rcu); }
static void lfq_fini(void)
{
	if (cds_lfq_destroy_rcu(&lfq)) {
		fprintf(stderr, "queue_bench: rculfqueue not empty at the end\n");
		exit(1);
	}
}
static void lfq_push(struct bnode *n)
{
	cds_lfq_node_init_rcu(&n->u.lfq);
	rcu_read_lock();
	cds_lfq_enqueue_rcu(&lfq, &n->u.lfq);
	rcu_read_unlock();
}
static struct bnode *lfq_pop(void)
{
	struct cds_lfq_node_rcu *n;

	rcu_read_lock();
	n = cds_lfq_dequeue_rcu(&lfq);
	rcu_read_unlock();
	/* NULL with ENOMEM (no dummy) counts as an empty pop. */
	return n ? caa_container_of(n, struct bnode, u.lfq) : NULL;
}

struct structure {
	const char *name;
	void (*init)(void);
	void (*fini)(void);
	void (*push)(struct bnode *n);
	struct bnode *(*pop)(void);
	/* Popped nodes may be pushed again only after a grace period. */
	int needs_gp;
};

static const struct structure structures[] = {
	{ "lfstack", lfs_init, lfs_fini, lfs_push, lfs_pop, 0 },
	{ "wfstack", wfs_init, wfs_fini, wfs_push, wfs_pop, 0 },
	{ "wfcqueue", wfcq_init, wfcq_fini, wfcq_push, wfcq_pop, 0 },
	{ "rculfqueue", lfq_init, lfq_fini, lfq_push, lfq_pop, 1 },
};
#define NR_STRUCTURES	(sizeof(structures) / sizeof(structures[0]))

/* ------------------------------------------------------------------------
 * Node pool and exchange.
 */

static const struct structure *cur;
static pthread_mutex_t exchange_lock = PTHREAD_MUTEX_INITIALIZER;
/*
 * Written under exchange_lock.  Atomic so that a waiting pusher can peek
 * without taking the lock; the peek is relaxed because the lock, taken
 * before the batch is used, orders everything.
 */
static struct batch *exchange;

static void exchange_put(struct batch *b)
{
	pthread_mutex_lock(&exchange_lock);
	/* Relaxed: under the lock (see the declaration). */
	b->next = __atomic_load_n(&exchange, __ATOMIC_RELAXED);
	__atomic_store_n(&exchange, b, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&exchange_lock);
}

static struct batch *exchange_take(void)
{
	struct batch *b;

	/* Relaxed: a hint only (see the declaration). */
	if (!__atomic_load_n(&exchange, __ATOMIC_RELAXED))
		return NULL;
	pthread_mutex_lock(&exchange_lock);
	/* Relaxed: under the lock. */
	b = __atomic_load_n(&exchange, __ATOMIC_RELAXED);
	if (b)
		__atomic_store_n(&exchange, b->next, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&exchange_lock);
	return b;
}

static void exchange_put_cb(struct rcu_head *rh)
{
	exchange_put(caa_container_of(rh, struct batch, rh));
}

static struct batch *new_batch(void)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b) {
		fprintf(stderr, "queue_bench: out of memory\n");
		exit(1);
	}
	return b;
}

/* ------------------------------------------------------------------------
 * Threads.
 */

enum role { ROLE_PAIRS, ROLE_PUSH, ROLE_POP };

struct thread {
	pthread_t tid;
	enum role role;
	unsigned long ops;
	unsigned long sum;
	unsigned long seq;
	struct bnode *supply;
	struct batch *popped;
} __attribute__((aligned(128)));

/*
 * start and stop are set by the main thread.  start: release store /
 * acquire load, so the workers see the structure and pool the main thread
 * set up.  stop: relaxed, a flag polled in a loop; pthread_join orders
 * the workers' results before the main thread reads them.
 */
static int start, stop;

static struct bnode *get_node(struct thread *t)
{
	struct bnode *n = t->supply;
	struct batch *b;

	if (!n) {
		b = exchange_take();
		if (!b)
			return NULL;
		n = b->nodes;
		free(b);
	}
	t->supply = n->free_next;
	return n;
}

static void put_node(struct thread *t, struct bnode *n)
{
	struct batch *b = t->popped;

	n->free_next = b->nodes;
	b->nodes = n;
	if (++b->n < BATCH)
		return;
	if (cur->needs_gp)
		call_rcu(&b->rh, exchange_put_cb);
	else
		exchange_put(b);
	t->popped = new_batch();
}

static int stopped(void)
{
	/* Relaxed: see the declaration. */
	return __atomic_load_n(&stop, __ATOMIC_RELAXED);
}

static void do_push(struct thread *t)
{
	struct bnode *n = get_node(t);

	if (n) {
		n->value = t->seq++;
		cur->push(n);
		t->ops++;
	}
}

static void do_pop(struct thread *t)
{
	struct bnode *n = cur->pop();

	if (n) {
		t->sum += n->value;
		put_node(t, n);
		t->ops++;
	}
}

static void *worker(void *arg)
{
	struct thread *t = arg;

	rcu_register_thread();
	/*
	 * Acquire: pairs with the main thread's release store of start.  No
	 * caa_cpu_relax() in this or any wait of this program: in a virtual
	 * machine a run of PAUSE instructions can make the hypervisor
	 * deschedule the vCPU, which would distort the measurement.
	 */
	while (!__atomic_load_n(&start, __ATOMIC_ACQUIRE))
		;
	while (!stopped()) {
		if (t->role != ROLE_POP)
			do_push(t);
		if (t->role != ROLE_PUSH)
			do_pop(t);
	}
	rcu_unregister_thread();
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long count_list(struct bnode *n)
{
	unsigned long c = 0;

	for (; n; n = n->free_next)
		c++;
	return c;
}

/* ------------------------------------------------------------------------
 * One measurement.
 */

struct mode {
	const char *name;
	unsigned int nthreads;
	enum role roles[2];
	int prefill;
};

static const struct mode modes[] = {
	{ "1", 1, { ROLE_PAIRS }, 1 },
	{ "2-split", 2, { ROLE_PUSH, ROLE_POP }, 0 },
	{ "2-mixed", 2, { ROLE_PAIRS, ROLE_PAIRS }, 1 },
};
#define NR_MODES	(sizeof(modes) / sizeof(modes[0]))

/* Mops/s of @s in mode @m over @seconds. */
static double measure(const struct structure *s, const struct mode *m,
		      double seconds)
{
	struct bnode *pool = calloc(POOL, sizeof(*pool));
	struct thread threads[2];
	struct timespec ts;
	struct batch *b;
	struct bnode *n;
	unsigned long ops = 0, accounted = 0;
	unsigned int i, j;
	double t0, t1;

	if (!pool) {
		fprintf(stderr, "queue_bench: out of memory\n");
		exit(1);
	}
	cur = s;
	s->init();
	rcu_register_thread();
	i = 0;
	if (m->prefill)
		for (; i < PREFILL; i++)
			s->push(&pool[i]);
	while (i < POOL) {
		b = new_batch();
		for (j = 0; j < BATCH && i < POOL; j++, i++) {
			pool[i].free_next = b->nodes;
			b->nodes = &pool[i];
		}
		exchange_put(b);
	}
	rcu_unregister_thread();

	memset(threads, 0, sizeof(threads));
	/* Relaxed: no worker runs yet; pthread_create orders them. */
	__atomic_store_n(&start, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	for (i = 0; i < m->nthreads; i++) {
		threads[i].role = m->roles[i];
		threads[i].popped = new_batch();
		if (pthread_create(&threads[i].tid, NULL, worker, &threads[i])) {
			fprintf(stderr, "queue_bench: pthread_create failed\n");
			exit(1);
		}
	}
	t0 = now();
	/* Release: pairs with the workers' acquire loads of start. */
	__atomic_store_n(&start, 1, __ATOMIC_RELEASE);
	ts.tv_sec = (time_t) seconds;
	ts.tv_nsec = (long) ((seconds - (double) ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	/* Relaxed: see the declaration. */
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	t1 = now();
	for (i = 0; i < m->nthreads; i++) {
		pthread_join(threads[i].tid, NULL);
		ops += threads[i].ops;
	}

	/* Every node must be somewhere: structure, exchange or a thread. */
	rcu_barrier();
	rcu_register_thread();
	while ((n = s->pop()))
		accounted++;
	rcu_unregister_thread();
	while ((b = exchange_take())) {
		accounted += count_list(b->nodes);
		free(b);
	}
	for (i = 0; i < m->nthreads; i++) {
		accounted += count_list(threads[i].supply);
		accounted += count_list(threads[i].popped->nodes);
		free(threads[i].popped);
	}
	s->fini();
	/* Frees rculfqueue's retired dummies. */
	rcu_barrier();
	if (accounted != POOL) {
		fprintf(stderr, "queue_bench: %s %s: %lu of %d nodes found\n",
			s->name, m->name, accounted, POOL);
		exit(1);
	}
	free(pool);
	return ops / (t1 - t0) / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.3;
	int reps = argc > 2 ? atoi(argv[2]) : 7;
	static double mops[NR_STRUCTURES][NR_MODES][MAX_REPS];
	unsigned int s, m;
	int r;

	if (seconds <= 0 || reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usage: queue_bench [seconds] [reps <= %d]\n",
			MAX_REPS);
		return 2;
	}
	for (r = 0; r < reps; r++)
		for (s = 0; s < NR_STRUCTURES; s++)
			for (m = 0; m < NR_MODES; m++)
				mops[s][m][r] = measure(&structures[s],
							&modes[m], seconds);
	for (s = 0; s < NR_STRUCTURES; s++) {
		for (m = 0; m < NR_MODES; m++) {
			double *v = mops[s][m];

			qsort(v, reps, sizeof(*v), cmp_double);
			printf("structure=%s mode=%s mops=%.2f min=%.2f max=%.2f "
			       "reps=%d seconds=%.2f\n", structures[s].name,
			       modes[m].name, v[reps / 2], v[0], v[reps - 1],
			       reps, seconds);
		}
	}
	return 0;
}
