/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rcu_flavors": grace-period semantics of the five RCU flavors
 * (memb, mb, signal, qsbr, bp), exercised through the public flavor tables
 * (`const struct rcu_flavor_struct *`, see tests/flavors/flavors.h).
 *
 * Conventions:
 *  - fork mode (each test in a fresh child process, so that a crash or an
 *    abort is charged to that test); every test creates and tears down all
 *    of its RCU state and threads itself, since threads and registrations
 *    of the parent do not exist in the child;
 *  - worker threads never call ck_assert: they record failures in a
 *    `struct harness_fail_log` (tests/harness/harness.h) and the test
 *    thread asserts after pthread_join;
 *  - stress phases run for a time budget scaled by CK_TIMEOUT_MULTIPLIER,
 *    and only progress (a small number of grace periods) is asserted, never
 *    speed;
 *  - ordering is checked with flags that a reader sets just before it
 *    leaves its read-side critical section: when synchronize_rcu returns,
 *    the flag must already be set.
 *
 * Flavor-specific rules the tests follow:
 *  - QSBR: an online registered thread counts as a reader until it reports
 *    a quiescent state or goes offline, so QSBR readers do one of those
 *    after each section, and the updater (the test thread) is either not
 *    registered or registered and offline.  read_ongoing is only required
 *    to be 0 while the thread is offline.
 *  - bp: a thread may use read_lock without registering.
 *
 * Build: this file plus tests/flavors/flavors.c and tests/harness/harness.c,
 * linked with every flavor library, urcu-common, Check and -pthread.  The
 * memb tests also need tests/helpers/memb_fallback.c built as an
 * executable named memb_fallback in the same directory as this test.
 * TSan runs set CK_EXCLUDE_TAGS=signal_blocking (see flavors_suite()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include <urcu/pointer.h>

#include "flavors/flavors.h"
#include "harness/child.h"
#include "harness/harness.h"
#include "misuse/misuse.h"

/* ------------------------------------------------------------------------
 * Small utilities.
 */

/* How long a reader stays inside the section a grace period must wait for. */
#define HOLD_MS 300
/* Grace periods an updater must complete during a stress phase. */
#define MIN_GRACE_PERIODS 10

/*
 * Park a reader that has left its last read-side critical section until
 * @release is set, without holding up grace periods: a QSBR reader goes
 * offline meanwhile (and back online afterwards, so that it unregisters
 * from the usual online state).
 */
static void reader_park(const struct test_flavor *tf, atomic_int *release,
			struct harness_fail_log *log)
{
	if (tf->is_qsbr)
		tf->fl->thread_offline();
	if (!harness_wait_flag(release))
		harness_log_fail(log, "reader: timed out waiting for release");
	if (tf->is_qsbr)
		tf->fl->thread_online();
}

/* Objects published through an RCU-protected pointer. */
#define OBJ_LIVE 0x4c4956454f424aL	/* "LIVEOBJ" */
#define OBJ_POISON 0x444541444f424aL	/* "DEADOBJ" */

struct obj {
	_Atomic long magic;
	long seq;
};

static struct obj *obj_new(long seq)
{
	struct obj *o = malloc(sizeof(*o));

	/* Also called from updater threads, which must not ck_assert. */
	if (!o)
		abort();
	o->seq = seq;
	atomic_store_explicit(&o->magic, OBJ_LIVE, memory_order_relaxed);
	return o;
}

/*
 * Read an object from inside a read-side critical section, twice with a
 * short pause in between; report anything but a live object.
 */
static int obj_check(const struct obj *o)
{
	volatile int spin;
	long m1, m2;

	m1 = atomic_load_explicit(&o->magic, memory_order_relaxed);
	for (spin = 0; spin < 64; spin++)
		;
	m2 = atomic_load_explicit(&o->magic, memory_order_relaxed);
	return m1 == OBJ_LIVE && m2 == OBJ_LIVE;
}

/* ------------------------------------------------------------------------
 * api: the flavor tables.
 */

/* Function pointers cannot go through ck_assert_ptr_* pedantically. */
#define ck_assert_fn_nonnull(tf, field)					\
	ck_assert_msg((tf)->fl->field != NULL, "[%s] rcu_flavor_struct."	\
		      #field " is NULL", (tf)->name)

START_TEST(test_flavor_table)
{
	const struct test_flavor *tf = &test_flavors[_i];
	const struct rcu_flavor_struct *fl = tf->fl;

	ck_assert_msg(fl != NULL, "[%s] no flavor table", tf->name);
	ck_assert_fn_nonnull(tf, read_lock);
	ck_assert_fn_nonnull(tf, read_unlock);
	ck_assert_fn_nonnull(tf, read_ongoing);
	ck_assert_fn_nonnull(tf, read_quiescent_state);
	ck_assert_fn_nonnull(tf, update_synchronize_rcu);
	ck_assert_fn_nonnull(tf, thread_offline);
	ck_assert_fn_nonnull(tf, thread_online);
	ck_assert_fn_nonnull(tf, register_thread);
	ck_assert_fn_nonnull(tf, unregister_thread);

	/*
	 * Single-threaded use: with no reader anywhere a grace period ends
	 * at once, and offline/online/quiescent_state are callable (no-ops
	 * outside QSBR) by a registered thread.
	 */
	fl->update_synchronize_rcu();
	fl->register_thread();
	fl->read_lock();
	ck_assert_msg(fl->read_ongoing(), "[%s] read_ongoing() == 0 inside",
		      tf->name);
	fl->read_unlock();
	fl->read_quiescent_state();
	fl->thread_offline();
	ck_assert_msg(!fl->read_ongoing(),
		      "[%s] read_ongoing() != 0 while offline/outside",
		      tf->name);
	fl->thread_online();
	fl->unregister_thread();
	fl->update_synchronize_rcu();
}
END_TEST

/* ------------------------------------------------------------------------
 * (1) A grace period waits for a pre-existing reader.
 */

struct hold_ctx {
	const struct test_flavor *tf;
	atomic_int inside;	/* reader is inside its section */
	atomic_int left;	/* set just before read_unlock */
	atomic_int release;	/* test thread: reader may unregister */
	struct harness_fail_log log;
};

/*
 * Hold a read-side critical section for HOLD_MS: set *@inside once in it,
 * and *@left just before read_unlock.
 */
static void hold_section(const struct rcu_flavor_struct *fl,
			 atomic_int *inside, atomic_int *left)
{
	fl->read_lock();
	atomic_store(inside, 1);
	harness_sleep_ms(HOLD_MS);
	atomic_store(left, 1);
	fl->read_unlock();
}

static void *hold_reader(void *arg)
{
	struct hold_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->tf->fl;

	fl->register_thread();
	hold_section(fl, &c->inside, &c->left);
	reader_park(c->tf, &c->release, &c->log);
	fl->unregister_thread();
	return NULL;
}

/*
 * Start a registered reader holding a section, run synchronize_rcu from the
 * calling thread, and return whether the reader had left when it returned.
 */
static int gp_vs_holding_reader(const struct test_flavor *tf,
				struct hold_ctx *c)
{
	pthread_t tid;
	int inside, left;

	memset(c, 0, sizeof(*c));
	c->tf = tf;
	harness_spawn(&tid, hold_reader, c);
	inside = harness_wait_flag(&c->inside);
	if (inside)
		tf->fl->update_synchronize_rcu();
	left = atomic_load(&c->left);
	atomic_store(&c->release, 1);
	harness_join(tid);
	ck_assert_msg(inside, "[%s] reader never entered its section",
		      tf->name);
	harness_assert_log_clean(&c->log, tf->name);
	return left;
}

START_TEST(test_gp_waits_for_reader)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct hold_ctx c;

	ck_assert_msg(gp_vs_holding_reader(tf, &c),
		      "[%s] synchronize_rcu returned while a pre-existing "
		      "reader was still inside its critical section",
		      tf->name);
}
END_TEST

/* Same, with the updater registered (and offline for QSBR). */
START_TEST(test_gp_waits_for_reader_registered_updater)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct hold_ctx c;
	int ok;

	tf->fl->register_thread();
	if (tf->is_qsbr)
		tf->fl->thread_offline();
	ok = gp_vs_holding_reader(tf, &c);
	if (tf->is_qsbr)
		tf->fl->thread_online();
	tf->fl->unregister_thread();
	ck_assert_msg(ok, "[%s] synchronize_rcu from a registered updater "
		      "returned while a reader was still inside", tf->name);
}
END_TEST

/* ------------------------------------------------------------------------
 * (3) Nesting.
 */

struct nest_ctx {
	const struct test_flavor *tf;
	atomic_int inside;		/* both sections entered */
	atomic_int updater_started;	/* set just before synchronize_rcu */
	atomic_int inner_left;
	atomic_int outer_left;		/* set just before the outer unlock */
	atomic_int release;
	struct harness_fail_log log;
};

/*
 * Outside any section read_ongoing() must be 0 (QSBR: while offline, so a
 * QSBR reader goes offline for the check).
 */
static void nest_check_outside(struct nest_ctx *c, const char *where)
{
	const struct test_flavor *tf = c->tf;

	if (tf->is_qsbr)
		tf->fl->thread_offline();
	if (tf->fl->read_ongoing())
		harness_log_fail(&c->log, "read_ongoing() != 0 %s%s", where,
				 tf->is_qsbr ? " (offline)" : "");
	if (tf->is_qsbr)
		tf->fl->thread_online();
}

static void *nest_reader(void *arg)
{
	struct nest_ctx *c = arg;
	const struct test_flavor *tf = c->tf;
	const struct rcu_flavor_struct *fl = tf->fl;

	fl->register_thread();
	nest_check_outside(c, "outside any section");

	fl->read_lock();
	if (!fl->read_ongoing())
		harness_log_fail(&c->log, "read_ongoing() == 0 in outer section");
	fl->read_lock();
	if (!fl->read_ongoing())
		harness_log_fail(&c->log, "read_ongoing() == 0 in inner section");
	atomic_store(&c->inside, 1);

	/* Give the grace period a chance to be under way. */
	if (!harness_wait_flag(&c->updater_started))
		harness_log_fail(&c->log, "timed out waiting for the updater");
	harness_sleep_ms(HOLD_MS / 3);

	atomic_store(&c->inner_left, 1);
	fl->read_unlock();
	if (!fl->read_ongoing())
		harness_log_fail(&c->log, "read_ongoing() == 0 after the inner "
				"unlock, outer section still held");
	harness_sleep_ms(HOLD_MS);
	atomic_store(&c->outer_left, 1);
	fl->read_unlock();

	nest_check_outside(c, "after the outer unlock");
	reader_park(tf, &c->release, &c->log);
	fl->unregister_thread();
	return NULL;
}

START_TEST(test_nesting)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct nest_ctx c;
	pthread_t tid;
	int inside, inner_left = 0, outer_left = 0;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	harness_spawn(&tid, nest_reader, &c);
	inside = harness_wait_flag(&c.inside);
	if (inside) {
		atomic_store(&c.updater_started, 1);
		tf->fl->update_synchronize_rcu();
		inner_left = atomic_load(&c.inner_left);
		outer_left = atomic_load(&c.outer_left);
	}
	atomic_store(&c.release, 1);
	harness_join(tid);

	ck_assert_msg(inside, "[%s] reader never entered", tf->name);
	harness_assert_log_clean(&c.log, tf->name);
	ck_assert_msg(inner_left && outer_left,
		      "[%s] synchronize_rcu returned after the inner unlock "
		      "(%d) but before the outer one (%d)",
		      tf->name, inner_left, outer_left);
}
END_TEST

/* ------------------------------------------------------------------------
 * (2) Grace periods keep completing under continuous read traffic, and
 * readers never see a reclaimed object.
 */

#define MAX_STRESS_READERS 4
/* Reclaimed objects stay poisoned this many grace periods before free(). */
#define QUARANTINE 64

struct stress_group;

struct stress_reader {
	struct stress_group *g;
	pthread_t tid;
	atomic_long iterations;
};

struct stress_group {
	const struct test_flavor *tf;
	struct obj *shared;		/* RCU-protected */
	int nreaders;
	double budget_s;
	struct stress_reader readers[MAX_STRESS_READERS];
	atomic_int readers_ready;
	atomic_int stop;
	atomic_long grace_periods;
	struct obj *quarantine[QUARANTINE];
	unsigned int qpos;
	struct harness_fail_log log;
};

static void *stress_reader_fn(void *arg)
{
	struct stress_reader *r = arg;
	struct stress_group *g = r->g;
	const struct test_flavor *tf = g->tf;
	const struct rcu_flavor_struct *fl = tf->fl;
	long n = 0, last_seq = -1;

	fl->register_thread();
	atomic_fetch_add(&g->readers_ready, 1);
	while (!atomic_load_explicit(&g->stop, memory_order_relaxed)) {
		struct obj *o;

		fl->read_lock();
		o = rcu_dereference(g->shared);
		if (o) {
			if (!obj_check(o))
				harness_log_fail(&g->log, "reader saw a "
						"reclaimed object (seq %ld)",
						o->seq);
			else if (o->seq < last_seq)
				harness_log_fail(&g->log, "reader saw seq %ld "
						"after seq %ld", o->seq,
						last_seq);
			else
				last_seq = o->seq;
		}
		fl->read_unlock();
		if (tf->is_qsbr)
			fl->read_quiescent_state();
		n++;
		if ((n & 255) == 0)
			atomic_store_explicit(&r->iterations, n,
					      memory_order_relaxed);
	}
	atomic_store(&r->iterations, n);
	fl->unregister_thread();
	return NULL;
}

static void stress_retire(struct stress_group *g, struct obj *old)
{
	struct obj **slot = &g->quarantine[g->qpos++ % QUARANTINE];

	atomic_store_explicit(&old->magic, OBJ_POISON, memory_order_relaxed);
	free(*slot);
	*slot = old;
}

/* Updater loop; runs in the test thread or in its own thread. */
static void *stress_updater_fn(void *arg)
{
	struct stress_group *g = arg;
	const struct rcu_flavor_struct *fl = g->tf->fl;
	double deadline;
	long seq = 0;

	while (atomic_load(&g->readers_ready) < g->nreaders)
		harness_sleep_ms(1);
	rcu_assign_pointer(g->shared, obj_new(seq++));
	deadline = harness_now() + g->budget_s;
	while (!harness_past(deadline)) {
		struct obj *old = g->shared;	/* sole writer */

		rcu_assign_pointer(g->shared, obj_new(seq++));
		fl->update_synchronize_rcu();
		stress_retire(g, old);
		atomic_fetch_add(&g->grace_periods, 1);
	}
	atomic_store(&g->stop, 1);
	return NULL;
}

static void stress_init(struct stress_group *g, const struct test_flavor *tf,
			int nreaders, double budget_s)
{
	int i;

	memset(g, 0, sizeof(*g));
	g->tf = tf;
	g->nreaders = nreaders;
	g->budget_s = budget_s;
	for (i = 0; i < nreaders; i++) {
		g->readers[i].g = g;
		harness_spawn(&g->readers[i].tid, stress_reader_fn,
			      &g->readers[i]);
	}
}

/* Join the readers, free everything, and assert on the outcome. */
static void stress_finish(struct stress_group *g)
{
	int i;

	for (i = 0; i < g->nreaders; i++)
		harness_join(g->readers[i].tid);
	free(g->shared);
	for (i = 0; i < QUARANTINE; i++)
		free(g->quarantine[i]);

	harness_assert_log_clean(&g->log, g->tf->name);
	ck_assert_msg(atomic_load(&g->grace_periods) >= MIN_GRACE_PERIODS,
		      "[%s] only %ld grace periods completed in %.1f s with "
		      "readers running", g->tf->name,
		      atomic_load(&g->grace_periods), g->budget_s);
	for (i = 0; i < g->nreaders; i++)
		ck_assert_msg(atomic_load(&g->readers[i].iterations) > 0,
			      "[%s] reader %d made no progress", g->tf->name,
			      i);
}

START_TEST(test_gp_progress_under_readers)
{
	struct stress_group g;

	stress_init(&g, &test_flavors[_i], 2, 1.0 * harness_time_mult());
	stress_updater_fn(&g);
	stress_finish(&g);
}
END_TEST

/* ------------------------------------------------------------------------
 * (4) Many short-lived threads register and unregister while an updater
 * runs grace periods back to back.
 */

#define CHURN_THREADS 200
#define CHURN_WAVE 8

struct churn_ctx {
	const struct test_flavor *tf;
	struct obj *shared;
	atomic_int stop;
	atomic_long grace_periods;
	struct harness_fail_log log;
};

static void *churn_worker(void *arg)
{
	struct churn_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->tf->fl;
	struct obj *o;

	fl->register_thread();
	fl->read_lock();
	if (!fl->read_ongoing())
		harness_log_fail(&c->log, "read_ongoing() == 0 inside");
	o = rcu_dereference(c->shared);
	if (!o || !obj_check(o))
		harness_log_fail(&c->log, "bad object %p", (void *) o);
	fl->read_unlock();
	fl->unregister_thread();
	return NULL;
}

static void *churn_updater(void *arg)
{
	struct churn_ctx *c = arg;

	while (!atomic_load(&c->stop)) {
		c->tf->fl->update_synchronize_rcu();
		atomic_fetch_add(&c->grace_periods, 1);
	}
	return NULL;
}

START_TEST(test_register_churn)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct churn_ctx c;
	pthread_t updater, wave[CHURN_WAVE];
	int done, i, n;
	long before;
	double deadline;
	int progressed = 0;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	c.shared = obj_new(0);
	harness_spawn(&updater, churn_updater, &c);
	for (done = 0; done < CHURN_THREADS; done += n) {
		n = CHURN_THREADS - done < CHURN_WAVE ?
			CHURN_THREADS - done : CHURN_WAVE;
		for (i = 0; i < n; i++)
			harness_spawn(&wave[i], churn_worker, &c);
		for (i = 0; i < n; i++)
			harness_join(wave[i]);
	}

	/* The updater still completes grace periods afterwards. */
	before = atomic_load(&c.grace_periods);
	deadline = harness_deadline(HARNESS_WAIT_S);
	while (!harness_past(deadline)) {
		if (atomic_load(&c.grace_periods) >= before + 2) {
			progressed = 1;
			break;
		}
		harness_sleep_ms(1);
	}
	atomic_store(&c.stop, 1);
	harness_join(updater);
	tf->fl->update_synchronize_rcu();
	free(c.shared);

	harness_assert_log_clean(&c.log, tf->name);
	ck_assert_msg(progressed, "[%s] grace periods stopped completing "
		      "after %d threads registered and unregistered",
		      tf->name, CHURN_THREADS);
}
END_TEST

/* ------------------------------------------------------------------------
 * (5) memb: sys_membarrier and the forced fallback (helper program).
 */

/* Whether the kernel offers MEMBARRIER_CMD_PRIVATE_EXPEDITED. */
static int kernel_has_private_expedited(void)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0);

	return mask >= 0 && (mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

/*
 * Run the helper memb_fallback (tests/helpers/memb_fallback.c) with
 * URCU_NO_MEMBARRIER removed from the environment and, when
 * @force_fallback, set to 1.  Returns the exit status (as from waitpid)
 * and its standard output in @out; its standard error goes to this
 * suite's log.
 */
static int run_memb_helper(int force_fallback, char *out, size_t outsz)
{
	const char *const env[] = {
		force_fallback ? "URCU_NO_MEMBARRIER=1" : "URCU_NO_MEMBARRIER",
		NULL
	};
	struct harness_child c;
	size_t len;
	int status;

	harness_run_child(&c, "memb_fallback", NULL, env);
	fputs(c.err, stderr);
	snprintf(out, outsz, "%s", c.out);
	status = c.status;
	harness_child_free(&c);
	/* Strip the trailing newline for comparisons. */
	len = strlen(out);
	while (len > 0 && (out[len - 1] == '\n' || out[len - 1] == '\r'))
		out[--len] = '\0';
	return status;
}

START_TEST(test_memb_forced_fallback)
{
	char out[256];
	int status = run_memb_helper(1, out, sizeof(out));

	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "memb_fallback with URCU_NO_MEMBARRIER=1 failed "
		      "(status 0x%x): %s", status, out);
	ck_assert_str_eq(out, "membarrier=0 ok");
}
END_TEST

START_TEST(test_memb_default)
{
	char out[256];
	int status = run_memb_helper(0, out, sizeof(out));

	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "memb_fallback failed (status 0x%x): %s", status, out);
	if (kernel_has_private_expedited())
		ck_assert_str_eq(out, "membarrier=1 ok");
	else
		ck_assert_str_eq(out, "membarrier=0 ok");
}
END_TEST

/* ------------------------------------------------------------------------
 * (6) signal: a registered thread blocked in read() outside any read-side
 * section neither holds up grace periods nor sees EINTR.
 */

struct blocked_ctx {
	const struct test_flavor *tf;
	int fd;
	atomic_int tid;
	atomic_int about_to_read;
	atomic_int returned;
	ssize_t ret;
	int err;
	char byte;
};

static void *blocked_reader(void *arg)
{
	struct blocked_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->tf->fl;
	ssize_t r;
	int err;

	fl->register_thread();
	atomic_store(&c->tid, (int) syscall(SYS_gettid));
	atomic_store(&c->about_to_read, 1);
	r = read(c->fd, &c->byte, 1);
	err = errno;
	c->ret = r;
	c->err = err;
	atomic_store(&c->returned, 1);
	fl->unregister_thread();
	return NULL;
}

START_TEST(test_signal_blocked_syscall)
{
	const struct test_flavor *tf = &test_flavors[TF_SIGNAL];
	struct blocked_ctx c;
	pthread_t tid;
	int pipefd[2], i, early;
	double deadline;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	ck_assert_int_eq(pipe(pipefd), 0);
	c.fd = pipefd[0];
	harness_spawn(&tid, blocked_reader, &c);
	ck_assert(harness_wait_flag(&c.about_to_read));

	/* Best effort: wait until the thread sleeps (in read()). */
	deadline = harness_deadline(5.0);
	while (harness_task_state(atomic_load(&c.tid)) != 'S' && !harness_past(deadline))
		harness_sleep_ms(1);

	for (i = 0; i < 5; i++)
		tf->fl->update_synchronize_rcu();
	/* An interrupted read() would return right after the handler. */
	harness_sleep_ms(100);
	early = atomic_load(&c.returned);

	ck_assert_int_eq(write(pipefd[1], "x", 1), 1);
	harness_join(tid);
	close(pipefd[0]);
	close(pipefd[1]);

	ck_assert_msg(!early, "read() returned before data was written "
		      "(ret %zd, errno %s)", c.ret,
		      c.ret < 0 ? strerror(c.err) : "-");
	ck_assert_msg(c.ret == 1, "read() returned %zd (errno %s)", c.ret,
		      c.ret < 0 ? strerror(c.err) : "-");
	ck_assert_int_eq(c.byte, 'x');
}
END_TEST

/* ------------------------------------------------------------------------
 * (7) bp: readers that never register.
 */

static void *bp_unregistered_holder(void *arg)
{
	struct hold_ctx *c = arg;

	hold_section(c->tf->fl, &c->inside, &c->left);
	return NULL;	/* exits without unregister_thread */
}

static void *bp_unregistered_brief(void *arg)
{
	const struct rcu_flavor_struct *fl = arg;

	fl->read_lock();
	fl->read_unlock();
	return NULL;
}

START_TEST(test_bp_unregistered_reader)
{
	const struct test_flavor *tf = &test_flavors[TF_BP];
	struct hold_ctx c;
	pthread_t tid;
	int inside, left = 0, i;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	harness_spawn(&tid, bp_unregistered_holder, &c);
	inside = harness_wait_flag(&c.inside);
	if (inside) {
		tf->fl->update_synchronize_rcu();
		left = atomic_load(&c.left);
	}
	harness_join(tid);
	ck_assert_msg(inside, "unregistered bp reader never entered");
	ck_assert_msg(left, "bp synchronize_rcu returned while an "
		      "unregistered reader was still inside");

	/* The exited thread's slot must not hold up later grace periods. */
	tf->fl->update_synchronize_rcu();

	/* Nor must a series of further unregistered, exited readers. */
	for (i = 0; i < 50; i++) {
		harness_spawn(&tid, bp_unregistered_brief, (void *) tf->fl);
		harness_join(tid);
		if (i % 10 == 0)
			tf->fl->update_synchronize_rcu();
	}
	tf->fl->update_synchronize_rcu();
}
END_TEST

/*
 * A grace period that waits for a reader it interrupts (memb and bp with
 * membarrier(2), signal) polls it: it never arms the futex word, since
 * those readers' unlock is only a barrier and a store.  The others (QSBR,
 * mb, memb and bp on the fence fallback) sleep on that word, which their
 * readers look at, and must be seen arming it.  Watch the word from a
 * third thread while synchronize_rcu() waits out a long section.
 */
struct futex_watch {
	int32_t *word;
	atomic_int stop;
	atomic_int armed_seen;
};

static void *watch_gp_futex(void *arg)
{
	struct futex_watch *w = arg;

	while (!atomic_load(&w->stop)) {
		/* Relaxed: the library writes it with relaxed atomics too. */
		if (__atomic_load_n(w->word, __ATOMIC_RELAXED) == -1)
			atomic_store(&w->armed_seen, 1);
		sched_yield();
	}
	return NULL;
}

/* Does the updater of @tf sleep on its gp futex rather than poll? */
static bool sleeps_on_futex(const struct test_flavor *tf)
{
	if (tf->is_signal)
		return false;
	/* Relaxed: set once at initialisation. */
	return !tf->has_sys_membarrier
	       || !__atomic_load_n(tf->has_sys_membarrier, __ATOMIC_RELAXED);
}

START_TEST(test_updater_futex_only_where_woken)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct futex_watch w;
	struct hold_ctx c;
	pthread_t watcher;
	int left;

	memset(&w, 0, sizeof(w));
	w.word = tf->gp_futex;
	harness_spawn(&watcher, watch_gp_futex, &w);
	left = gp_vs_holding_reader(tf, &c);
	atomic_store(&w.stop, 1);
	harness_join(watcher);
	ck_assert_msg(left, "[%s] synchronize_rcu returned while the reader "
		      "was still inside", tf->name);
	if (sleeps_on_futex(tf))
		ck_assert_msg(atomic_load(&w.armed_seen),
			      "[%s] updater never slept on the gp futex",
			      tf->name);
	else
		ck_assert_msg(!atomic_load(&w.armed_seen),
			      "[%s] updater armed the gp futex: its readers "
			      "never wake it", tf->name);
}
END_TEST

/* ------------------------------------------------------------------------
 * (8) Two flavors in one process.
 */

struct mix_ctx {
	const struct test_flavor *m, *q;
	atomic_int m_inside, m_left, m_inside2, m_left2;
	atomic_int q_inside, q_left;
	atomic_int memb_gp_done, qsbr_gp_done, release;
	struct harness_fail_log log;
};

static void *mix_memb_reader(void *arg)
{
	struct mix_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->m->fl;

	fl->register_thread();
	hold_section(fl, &c->m_inside, &c->m_left);

	/* Now stay inside a memb section during the QSBR grace period. */
	fl->read_lock();
	atomic_store(&c->m_inside2, 1);
	if (!harness_wait_flag(&c->qsbr_gp_done))
		harness_log_fail(&c->log, "memb reader: timed out waiting for "
				"the QSBR grace period");
	atomic_store(&c->m_left2, 1);
	fl->read_unlock();
	fl->unregister_thread();
	return NULL;
}

static void *mix_qsbr_reader(void *arg)
{
	struct mix_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->q->fl;

	fl->register_thread();
	fl->read_lock();
	atomic_store(&c->q_inside, 1);
	/* Stay online and inside until the memb grace period is over. */
	if (!harness_wait_flag(&c->memb_gp_done))
		harness_log_fail(&c->log, "qsbr reader: timed out waiting for "
				"the memb grace period");
	harness_sleep_ms(HOLD_MS);
	atomic_store(&c->q_left, 1);
	fl->read_unlock();
	reader_park(c->q, &c->release, &c->log);
	fl->unregister_thread();
	return NULL;
}

START_TEST(test_mixed_memb_qsbr)
{
	struct mix_ctx c;
	pthread_t tm, tq;
	int entered, m_left = 0, q_left_early = 1, m_inside2 = 0;
	int q_left = 0, m_left2_early = 1;

	memset(&c, 0, sizeof(c));
	c.m = &test_flavors[TF_MEMB];
	c.q = &test_flavors[TF_QSBR];
	harness_spawn(&tm, mix_memb_reader, &c);
	harness_spawn(&tq, mix_qsbr_reader, &c);
	entered = harness_wait_flag(&c.m_inside) &&
		  harness_wait_flag(&c.q_inside);
	if (entered) {
		/*
		 * The memb grace period must wait for the memb reader and
		 * must not wait for the QSBR reader (which stays inside
		 * until memb_gp_done: waiting for it would deadlock).
		 */
		c.m->fl->update_synchronize_rcu();
		m_left = atomic_load(&c.m_left);
		q_left_early = atomic_load(&c.q_left);
		m_inside2 = harness_wait_flag(&c.m_inside2);
		atomic_store(&c.memb_gp_done, 1);

		/* Symmetrically for the QSBR grace period. */
		c.q->fl->update_synchronize_rcu();
		q_left = atomic_load(&c.q_left);
		m_left2_early = atomic_load(&c.m_left2);
	}
	atomic_store(&c.memb_gp_done, 1);
	atomic_store(&c.qsbr_gp_done, 1);
	atomic_store(&c.release, 1);
	harness_join(tm);
	harness_join(tq);

	ck_assert_msg(entered, "readers never entered their sections");
	harness_assert_log_clean(&c.log, c.m->name);
	ck_assert_msg(m_left, "memb synchronize_rcu did not wait for the "
		      "memb reader");
	ck_assert_msg(!q_left_early, "QSBR reader left before the memb "
		      "grace period ended");
	ck_assert_msg(m_inside2, "memb reader did not re-enter");
	ck_assert_msg(q_left, "QSBR synchronize_rcu did not wait for the "
		      "QSBR reader");
	ck_assert_msg(!m_left2_early, "memb reader left before the QSBR "
		      "grace period ended");
}
END_TEST

/* All five flavors' readers and updaters running at once. */
START_TEST(test_mixed_all_flavors_stress)
{
	struct stress_group g[N_TEST_FLAVORS];
	pthread_t up[N_TEST_FLAVORS];
	double budget = 2.0 * harness_time_mult();
	int i;

	for (i = 0; i < N_TEST_FLAVORS; i++)
		stress_init(&g[i], &test_flavors[i], 1, budget);
	for (i = 0; i < N_TEST_FLAVORS; i++)
		harness_spawn(&up[i], stress_updater_fn, &g[i]);
	for (i = 0; i < N_TEST_FLAVORS; i++)
		harness_join(up[i]);
	for (i = 0; i < N_TEST_FLAVORS; i++)
		stress_finish(&g[i]);
}
END_TEST

/* ------------------------------------------------------------------------
 * Misuse: the library aborts with a message instead of deadlocking or
 * corrupting its state.  synchronize_rcu() or rcu_unregister_thread()
 * inside a read-side section is caught in every build for the flavors
 * that track sections in release builds (all but QSBR); the rest needs
 * read sides built with URCU_DEBUG: the library's in mode=debug (these
 * tests call it through the flavor table), or the program's own inlined
 * one (tcase "misuse_inline", tests/misuse/).
 */

START_TEST(test_misuse_synchronize_in_section)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->register_thread();
	fl->read_lock();
	fl->update_synchronize_rcu();	/* must abort, not wait for itself */
}
END_TEST

/* Registering twice would corrupt the registry list (bp allows it). */
START_TEST(test_misuse_double_register)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->register_thread();
	fl->register_thread();
}
END_TEST

START_TEST(test_misuse_unregister_in_section)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->register_thread();
	fl->read_lock();
	fl->unregister_thread();	/* must abort: still inside */
}
END_TEST

#if defined(URCU_DEBUG)
START_TEST(test_misuse_unbalanced_unlock)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->register_thread();
	fl->read_unlock();
}
END_TEST

START_TEST(test_misuse_unregistered_reader)
{
	const struct rcu_flavor_struct *fl = test_flavors[_i].fl;

	fl->read_lock();	/* bp registers itself: excluded below */
}
END_TEST

/* QSBR: a quiescent state or going offline inside a section. */
START_TEST(test_misuse_qsbr_quiescent_in_section)
{
	const struct rcu_flavor_struct *fl = test_flavors[TF_QSBR].fl;

	fl->register_thread();
	fl->read_lock();
	fl->read_quiescent_state();
}
END_TEST

START_TEST(test_misuse_qsbr_offline_in_section)
{
	const struct rcu_flavor_struct *fl = test_flavors[TF_QSBR].fl;

	fl->register_thread();
	fl->read_lock();
	fl->thread_offline();
}
END_TEST

#endif

/*
 * URCU_DEBUG=1 in the environment: a release library checks its
 * out-of-line read side as a debug one does (tests/helpers/misuse_env.c
 * commits each misuse in a fresh process, since the library reads the
 * variable when it loads).  Without the variable a release library skips
 * the checks that would cost the common path something, and keeps those
 * that sit on branches it never takes (nested sections, an unlock with
 * nothing to unlock): those abort in every build.
 */
static const struct {
	const char *what;
	bool always;		/* checked without URCU_DEBUG=1 too */
} env_misuses[] = {
	{ "unlock-without-lock", true },
	{ "lock-nested-too-deep", true },
	{ "unregistered-reader", false },
	{ "qsbr-unregistered-quiescent", false },
};

static void expect_misuse_abort(struct harness_child *c, const char *how)
{
	ck_assert_msg(WIFSIGNALED(c->status) && WTERMSIG(c->status) == SIGABRT,
		      "%s: status %#x, stderr: %s", how, c->status, c->err);
	ck_assert_msg(harness_count(c->err, "urcu: misuse: ") == 1,
		      "%s: no misuse message: %s", how, c->err);
}

START_TEST(test_misuse_env)
{
	const char *const args[] = { env_misuses[_i].what, NULL };
	const char *const with[] = { "URCU_DEBUG=1", NULL };
	const char *const without[] = { "URCU_DEBUG", NULL };
	struct harness_child c;

	harness_run_child(&c, "misuse_env", args, with);
	expect_misuse_abort(&c, env_misuses[_i].what);
	harness_child_free(&c);
#if !defined(URCU_DEBUG)
	harness_run_child(&c, "misuse_env", args, without);
	if (env_misuses[_i].always) {
		expect_misuse_abort(&c, env_misuses[_i].what);
	} else {
		ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
			      "%s without URCU_DEBUG: status %#x, stderr: %s",
			      env_misuses[_i].what, c.status, c.err);
	}
	harness_child_free(&c);
#else
	(void) without;
#endif
}
END_TEST

/*
 * An rcu_read_unlock() too many in a read side inlined without URCU_DEBUG
 * goes unchecked, and leaves the reader word looking like a section that
 * never ends.  The calls that refuse to run inside a section, and the
 * stall warning of a grace period that waits for that thread, must name
 * the unbalanced unlock rather than a read-side critical section, where
 * nothing is wrong (tests/helpers/unbalanced_unlock.c commits it in a
 * fresh process for each flavor and call).
 */
static const char *const unbalanced_flavors[] = { "memb", "mb", "signal",
						  "bp" };
static const char *const unbalanced_calls[] = { "synchronize", "barrier",
						"defer", "unregister", "exit",
						"stall" };
#define N_UNBALANCED_CALLS \
	((int) (sizeof(unbalanced_calls) / sizeof(unbalanced_calls[0])))
#define N_UNBALANCED \
	((int) (sizeof(unbalanced_flavors) / sizeof(unbalanced_flavors[0])) \
	 * N_UNBALANCED_CALLS)

START_TEST(test_misuse_unbalanced_unlock_inline)
{
	const char *flavor = unbalanced_flavors[_i / N_UNBALANCED_CALLS];
	const char *call = unbalanced_calls[_i % N_UNBALANCED_CALLS];
	const char *const args[] = { flavor, call, NULL };
	const char *const env[] = { "URCU_STALL_TIMEOUT=0.2", NULL };
	struct harness_child c;

	harness_run_child(&c, "unbalanced_unlock", args, env);
	if (!strcmp(call, "stall")) {
		ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
			      "%s %s: status %#x, stdout: %s, stderr: %s",
			      flavor, call, c.status, c.out, c.err);
		ck_assert_msg(harness_count(c.err, "): it called "
			"rcu_read_unlock() 1 time(s) more than "
			"rcu_read_lock(), ") == 1,
			"%s %s: no stall warning naming the unlock: %s",
			flavor, call, c.err);
	} else {
		expect_misuse_abort(&c, call);
		ck_assert_msg(harness_count(c.err, " after an rcu_read_unlock() "
			"without a matching rcu_read_lock(): this thread "
			"called rcu_read_unlock() 1 time(s) more than "
			"rcu_read_lock() ") == 1,
			"%s %s: the message does not name the unlock: %s",
			flavor, call, c.err);
	}
	ck_assert_msg(!harness_count(c.err, "inside a read-side critical")
		      && !harness_count(c.err, "within a read-side critical"),
		      "%s %s: blames a read-side section: %s", flavor, call,
		      c.err);
	harness_child_free(&c);
}
END_TEST

/* Indexed by _i in tcase "misuse_inline"; see tests/misuse/misuse.h. */
static void (*const inline_misuses[])(void) = {
	misuse_memb_unlock_without_lock,
	misuse_memb_lock_unregistered,
	misuse_qsbr_unlock_without_lock,
	misuse_qsbr_lock_unregistered,
	misuse_qsbr_quiescent_in_section,
	misuse_qsbr_offline_in_section,
	misuse_qsbr_synchronize_in_section,
	misuse_qsbr_barrier_in_section,
	misuse_qsbr_unregister_in_section,
	misuse_bp_unlock_without_lock,
};

#define N_INLINE_MISUSES \
	((int) (sizeof(inline_misuses) / sizeof(inline_misuses[0])))

START_TEST(test_misuse_inline)
{
	inline_misuses[_i]();
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *flavors_suite(void)
{
	Suite *s = suite_create("rcu_flavors");
	TCase *tc;

	tc = harness_tcase(s, "api", 30);
	tcase_add_loop_test(tc, test_flavor_table, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "grace_period", 30);
	tcase_add_loop_test(tc, test_gp_waits_for_reader, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_gp_waits_for_reader_registered_updater,
			    0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_nesting, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "concurrent", 30);
	tcase_add_loop_test(tc, test_gp_progress_under_readers, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_register_churn, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "flavor_specific", 30);
	tcase_add_test(tc, test_memb_forced_fallback);
	tcase_add_test(tc, test_memb_default);
	tcase_add_test(tc, test_bp_unregistered_reader);
	tcase_add_loop_test(tc, test_updater_futex_only_where_woken, 0,
			    N_TEST_FLAVORS);

	/*
	 * A registered signal-flavor thread blocked in read() while grace
	 * periods signal it.  The kernel runs the handler at once and
	 * restarts read(), but ThreadSanitizer's runtime defers
	 * asynchronous signals until an intercepted read() returns, so
	 * under TSan the grace period would wait until the Check timeout.
	 * Plain and ASan runs include it; TSan runs exclude the tag
	 * (CK_EXCLUDE_TAGS=signal_blocking).  Threads that wait inside
	 * the library itself are parked and need no handler: see
	 * urcu__offline_for_wait() in rcu/src/flavor-internal.h.
	 */
	tc = harness_tcase(s, "signal_blocking", 30);
	tcase_set_tags(tc, "signal_blocking");
	tcase_add_test(tc, test_signal_blocked_syscall);

	tc = harness_tcase(s, "misuse", 30);
	tcase_add_loop_test_raise_signal(tc, test_misuse_synchronize_in_section,
					 SIGABRT, 0, TF_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_synchronize_in_section,
					 SIGABRT, TF_QSBR + 1, N_TEST_FLAVORS);
	tcase_add_loop_test_raise_signal(tc, test_misuse_double_register,
					 SIGABRT, 0, TF_BP);
	tcase_add_loop_test_raise_signal(tc, test_misuse_unregister_in_section,
					 SIGABRT, 0, TF_QSBR);
	tcase_add_loop_test_raise_signal(tc, test_misuse_unregister_in_section,
					 SIGABRT, TF_QSBR + 1, N_TEST_FLAVORS);
#if defined(URCU_DEBUG)
	tcase_add_loop_test_raise_signal(tc, test_misuse_unregister_in_section,
					 SIGABRT, TF_QSBR, TF_QSBR + 1);
	tcase_add_test_raise_signal(tc, test_misuse_qsbr_quiescent_in_section,
				    SIGABRT);
	tcase_add_test_raise_signal(tc, test_misuse_qsbr_offline_in_section,
				    SIGABRT);
	tcase_add_loop_test_raise_signal(tc, test_misuse_synchronize_in_section,
					 SIGABRT, TF_QSBR, TF_QSBR + 1);
	tcase_add_loop_test_raise_signal(tc, test_misuse_unbalanced_unlock,
					 SIGABRT, 0, N_TEST_FLAVORS);
	tcase_add_loop_test_raise_signal(tc, test_misuse_unregistered_reader,
					 SIGABRT, 0, TF_BP);
#endif

	/* Every build: URCU_DEBUG=1 in a helper's environment. */
	tc = harness_tcase(s, "misuse_env", 30);
	tcase_add_loop_test(tc, test_misuse_env, 0,
			    sizeof(env_misuses) / sizeof(env_misuses[0]));

	/* Every build: the program inlines a read side with URCU_DEBUG. */
	tc = harness_tcase(s, "misuse_inline", 30);
	tcase_add_loop_test_raise_signal(tc, test_misuse_inline, SIGABRT, 0,
					 N_INLINE_MISUSES);

	/* Every build: an unchecked inline unlock too many. */
	tc = harness_tcase(s, "misuse_unbalanced", 30);
	tcase_add_loop_test(tc, test_misuse_unbalanced_unlock_inline, 0,
			    N_UNBALANCED);

	tc = harness_tcase(s, "mixed", 30);
	tcase_add_test(tc, test_mixed_memb_qsbr);
	tcase_add_test(tc, test_mixed_all_flavors_stress);

	return s;
}

int main(void)
{
	return harness_run_suite(flavors_suite());
}
