/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "rcu_stats": the statistics API (urcu/stats.h) and stall
 * warnings of every flavor (docs/stats-and-stalls.md).
 *
 * Each counter is moved by a known amount and compared before/after, in
 * fork mode so that no other test's threads run meanwhile.  Timing is
 * never asserted from above: where a duration is checked, it is a lower
 * bound that the test itself waited out.  What must happen in a fresh
 * process (settings read from the environment at load time, the report
 * at exit, stall warnings) runs tests/helpers/stats_child.c, built next
 * to this suite, and asserts on its captured output.
 *
 * Build: this file, tests/flavors/flavors.c, tests/harness/{harness,child}.c,
 * linked with every flavor library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "harness/child.h"
#include "harness/harness.h"
#include "flavors/flavors.h"

#define MS	1000000ULL	/* ns */

static struct urcu_stats get_stats(const struct test_flavor *tf)
{
	struct urcu_stats s;

	memset(&s, 0xa5, sizeof(s));
	ck_assert_int_eq(tf->stats(&s, sizeof(s)), 0);
	ck_assert_uint_eq(s.size, sizeof(s));
	return s;
}

#define delta(after, before, field)	((after).field - (before).field)

/* ------------------------------------------------------------------------
 * Reader threads, started and stopped by the test: a holder, which holds
 * grace periods back until stopped (inside a read-side section; QSBR: also
 * online without a quiescent state), and a spinner, which runs empty
 * sections back to back until stopped.
 */

struct reader {
	const struct test_flavor *tf;
	pthread_t tid;
	atomic_int started;	/* holder: inside; spinner: running */
	atomic_int stop;
	struct harness_fail_log log;
};

static void *holder_fn(void *arg)
{
	struct reader *h = arg;
	const struct rcu_flavor_struct *fl = h->tf->fl;

	fl->register_thread();
	fl->read_lock();
	atomic_store(&h->started, 1);
	if (!harness_wait_flag(&h->stop))
		harness_log_fail(&h->log, "holder: never released");
	fl->read_unlock();
	if (h->tf->is_qsbr)
		fl->thread_offline();
	fl->unregister_thread();
	return NULL;
}

static void *spinner_fn(void *arg)
{
	struct reader *sp = arg;
	const struct rcu_flavor_struct *fl = sp->tf->fl;

	fl->register_thread();
	while (!atomic_load_explicit(&sp->stop, memory_order_relaxed)) {
		fl->read_lock();
		fl->read_unlock();
		if (sp->tf->is_qsbr)
			fl->read_quiescent_state();
		atomic_store_explicit(&sp->started, 1, memory_order_relaxed);
	}
	if (sp->tf->is_qsbr)
		fl->thread_offline();
	fl->unregister_thread();
	return NULL;
}

/* Start @fn as reader @r and wait until it has started (@what: its name). */
static void reader_start(struct reader *r, const struct test_flavor *tf,
			 void *(*fn)(void *), const char *what)
{
	memset(r, 0, sizeof(*r));
	r->tf = tf;
	harness_spawn(&r->tid, fn, r);
	ck_assert_msg(harness_wait_flag(&r->started), "[%s] %s never started",
		      tf->name, what);
}

static void holder_start(struct reader *h, const struct test_flavor *tf)
{
	reader_start(h, tf, holder_fn, "holder");
}

static void reader_stop(struct reader *r)
{
	atomic_store(&r->stop, 1);
	harness_join(r->tid);
	harness_assert_log_clean(&r->log, r->tf->name);
}

/* A thread that runs one synchronize_rcu(); it records its kernel tid. */
struct syncer {
	const struct test_flavor *tf;
	pthread_t tid;
	atomic_int os_tid;
	atomic_int done;
};

static void *syncer_fn(void *arg)
{
	struct syncer *s = arg;

	atomic_store(&s->os_tid, (int) syscall(SYS_gettid));
	s->tf->fl->update_synchronize_rcu();
	atomic_store(&s->done, 1);
	return NULL;
}

static void syncer_start(struct syncer *s, const struct test_flavor *tf)
{
	memset(s, 0, sizeof(*s));
	s->tf = tf;
	harness_spawn(&s->tid, syncer_fn, s);
}

/*
 * Wait until the syncer sleeps inside synchronize_rcu(), seen sleeping
 * on several polls in a row: it has then pushed its waiter record (the
 * only way it can block in there) and is waiting on the grace period.
 */
static bool syncer_wait_blocked(struct syncer *s)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);
	int tid, asleep = 0;

	while (!(tid = atomic_load(&s->os_tid)))
		if (harness_past(deadline))
			return false;
	while (asleep < 5) {
		if (harness_past(deadline) || atomic_load(&s->done))
			return false;
		asleep = harness_task_state(tid) == 'S' ? asleep + 1 : 0;
		harness_sleep_ms(2);
	}
	return true;
}

/*
 * Wait until a grace period is in progress and timed (its age reads 1
 * until it starts waiting for readers); returns its age then.
 */
static uint64_t wait_gp_running(const struct test_flavor *tf)
{
	double deadline = harness_deadline(HARNESS_WAIT_S);
	struct urcu_stats s;

	for (;;) {
		s = get_stats(tf);
		if (s.gp_current_ns > 1 || harness_past(deadline))
			return s.gp_current_ns;
		harness_sleep_ms(1);
	}
}

/* ------------------------------------------------------------------------
 * api: sizes, errors, names.
 */

START_TEST(test_api)
{
	const struct test_flavor *tf = &test_flavors[_i];
	unsigned char buf[sizeof(struct urcu_stats) + 32];
	struct urcu_stats *s = (struct urcu_stats *) (void *) buf;
	struct urcu_stats_worker w;
	size_t part = offsetof(struct urcu_stats, gp_completed)
		      + sizeof(s->gp_completed);
	size_t i;

	ck_assert_str_eq(get_stats(tf).flavor, tf->name);

	/* An older, smaller caller: nothing written past its size. */
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(tf->stats(s, part), 0);
	ck_assert_uint_eq(s->size, part);
	ck_assert(URCU_STATS_HAS(s, gp_completed));
	ck_assert(!URCU_STATS_HAS(s, gp_current_ns));
	ck_assert_str_eq(s->flavor, tf->name);
	for (i = part; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], 0xa5);

	/* A newer, larger caller: what the library does not know is 0. */
	memset(buf, 0xa5, sizeof(buf));
	ck_assert_int_eq(tf->stats(s, sizeof(buf)), 0);
	ck_assert_uint_eq(s->size, sizeof(struct urcu_stats));
	ck_assert(URCU_STATS_HAS(s, membarrier));
	for (i = sizeof(struct urcu_stats); i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], 0);

	errno = 0;
	ck_assert_int_eq(tf->stats(NULL, sizeof(*s)), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(tf->stats(s, 1), -1);
	ck_assert_int_eq(errno, EINVAL);

	/* No worker yet in a fresh process; sizing calls need no array. */
	ck_assert_int_eq(tf->stats_workers(NULL, 0, sizeof(w)), 0);
	errno = 0;
	ck_assert_int_eq(tf->stats_workers(NULL, 1, sizeof(w)), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(tf->stats_workers(&w, 1, 1), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

/* ------------------------------------------------------------------------
 * Grace periods and synchronize_rcu() calls.
 */

#define N_SYNC 5

/* Run N_SYNC grace periods, with the statistics before and after. */
static void run_grace_periods(const struct test_flavor *tf,
			      struct urcu_stats *before, struct urcu_stats *after)
{
	int i;

	*before = get_stats(tf);
	for (i = 0; i < N_SYNC; i++)
		tf->fl->update_synchronize_rcu();
	*after = get_stats(tf);
}

/*
 * Grace periods whose only registered reader is their caller, outside any
 * section, are counted.  The caller holds no grace period of its own, so
 * they wait for nobody and are not timed (rcu/src/gp-stats.h).
 */
START_TEST(test_grace_periods)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;

	tf->fl->register_thread();
	run_grace_periods(tf, &before, &after);
	tf->fl->unregister_thread();

	ck_assert_uint_eq(delta(after, before, gp_completed), N_SYNC);
	ck_assert_uint_eq(delta(after, before, sync_calls), N_SYNC);
	ck_assert_uint_eq(delta(after, before, sync_shared), 0);
	ck_assert_uint_eq(after.gp_current_ns, 0);
	ck_assert_uint_eq(delta(after, before, gp_total_ns), 0);
	ck_assert_uint_le(after.gp_max_ns, after.gp_total_ns);
	ck_assert_uint_eq(delta(after, before, stall_warnings), 0);
}
END_TEST

/*
 * With no reader registered a grace period has nothing to wait for: it is
 * counted, and takes no time in the statistics (the clock is not read).
 */
START_TEST(test_grace_periods_no_reader_untimed)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;

	run_grace_periods(tf, &before, &after);
	ck_assert_uint_eq(before.readers, 0);

	ck_assert_uint_eq(delta(after, before, gp_completed), N_SYNC);
	ck_assert_uint_eq(delta(after, before, sync_calls), N_SYNC);
	ck_assert_uint_eq(after.gp_current_ns, 0);
	ck_assert_uint_eq(delta(after, before, gp_total_ns), 0);
}
END_TEST

#define LATENCY_MS 100

/* A grace period held by a reader: in-progress age, then max latency. */
START_TEST(test_gp_latency)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, during, after;
	struct reader h;
	struct syncer a;
	uint64_t first;

	before = get_stats(tf);
	ck_assert_uint_eq(before.gp_current_ns, 0);
	holder_start(&h, tf);
	syncer_start(&a, tf);
	first = wait_gp_running(tf);
	ck_assert_msg(first > 0, "[%s] grace period never seen running",
		      tf->name);
	harness_sleep_ms(LATENCY_MS);
	during = get_stats(tf);
	ck_assert_uint_ge(during.gp_current_ns, LATENCY_MS * MS);
	ck_assert_uint_eq(delta(during, before, gp_completed), 0);
	ck_assert_int_eq(atomic_load(&a.done), 0);
	reader_stop(&h);
	harness_join(a.tid);
	after = get_stats(tf);

	ck_assert_uint_eq(after.gp_current_ns, 0);
	ck_assert_uint_eq(delta(after, before, gp_completed), 1);
	ck_assert_uint_ge(after.gp_max_ns, LATENCY_MS * MS);
	ck_assert_uint_ge(delta(after, before, gp_total_ns), LATENCY_MS * MS);
}
END_TEST

/*
 * Sharing: A's grace period is held by a reader; B and C call
 * synchronize_rcu() meanwhile and block.  Whichever of them pushed first
 * leads the next grace period and takes the other along: 3 calls, 2
 * grace periods, 1 shared.
 */
START_TEST(test_gp_sharing)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;
	struct reader h;
	struct syncer a, b, c;
	bool blocked;

	before = get_stats(tf);
	holder_start(&h, tf);
	syncer_start(&a, tf);
	ck_assert_msg(wait_gp_running(tf) > 0,
		      "[%s] grace period never seen running", tf->name);
	syncer_start(&b, tf);
	syncer_start(&c, tf);
	blocked = syncer_wait_blocked(&b) && syncer_wait_blocked(&c);
	reader_stop(&h);
	harness_join(a.tid);
	harness_join(b.tid);
	harness_join(c.tid);
	after = get_stats(tf);

	ck_assert_msg(blocked, "[%s] the late callers never blocked in "
		      "synchronize_rcu()", tf->name);
	ck_assert_uint_eq(delta(after, before, sync_calls), 3);
	ck_assert_uint_eq(delta(after, before, gp_completed), 2);
	ck_assert_uint_eq(delta(after, before, sync_shared), 1);
}
END_TEST

/* ------------------------------------------------------------------------
 * Readers.
 */

struct reg_ctx {
	const struct test_flavor *tf;
	atomic_int registered;
	atomic_int release;
	atomic_int unregistered;
	struct harness_fail_log log;
};

static void *reg_fn(void *arg)
{
	struct reg_ctx *c = arg;
	const struct rcu_flavor_struct *fl = c->tf->fl;

	if (c->tf->is_bp) {
		/* bp registers on first use and unregisters at exit. */
		fl->read_lock();
		fl->read_unlock();
	} else {
		fl->register_thread();
	}
	if (c->tf->is_qsbr)
		fl->thread_offline();
	atomic_store(&c->registered, 1);
	if (!harness_wait_flag(&c->release))
		harness_log_fail(&c->log, "reader: never released");
	if (c->tf->is_qsbr)
		fl->thread_online();
	if (!c->tf->is_bp)
		fl->unregister_thread();
	atomic_store(&c->unregistered, 1);
	return NULL;
}

START_TEST(test_readers)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, during, after;
	struct reg_ctx c;
	pthread_t tid;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	before = get_stats(tf);
	harness_spawn(&tid, reg_fn, &c);
	ck_assert(harness_wait_flag(&c.registered));
	during = get_stats(tf);
	atomic_store(&c.release, 1);
	harness_join(tid);
	after = get_stats(tf);
	harness_assert_log_clean(&c.log, tf->name);

	ck_assert_uint_eq(during.readers, before.readers + 1);
	ck_assert_uint_eq(delta(during, before, registrations), 1);
	ck_assert_uint_eq(after.readers, before.readers);
	ck_assert_uint_eq(delta(after, before, registrations), 1);
}
END_TEST

/* ------------------------------------------------------------------------
 * gp_reader_barriers: grace periods leave readers that move on by
 * themselves alone (rcu/src/gp-observe.h).
 */

/*
 * run_grace_periods() while another thread is registered and enters no
 * section (qsbr: offline) until they are done.
 */
static void run_grace_periods_idle_reader(const struct test_flavor *tf,
		struct urcu_stats *before, struct urcu_stats *after)
{
	struct reg_ctx c;
	pthread_t tid;

	memset(&c, 0, sizeof(c));
	c.tf = tf;
	harness_spawn(&tid, reg_fn, &c);
	ck_assert(harness_wait_flag(&c.registered));
	run_grace_periods(tf, before, after);
	atomic_store(&c.release, 1);
	harness_join(tid);
	harness_assert_log_clean(&c.log, tf->name);
}

/* Does a grace period of this flavor interrupt running readers? */
static bool barrier_interrupts(const struct test_flavor *tf)
{
	if (tf->is_signal)
		return true;
	return tf->has_sys_membarrier
	       && get_stats(tf).membarrier == URCU_STATS_MEMBARRIER_SYSCALL;
}

/*
 * A reader that keeps entering sections moves on to the new epoch by
 * itself: grace periods complete without interrupting it.  On a loaded
 * machine the reader may be descheduled during some grace periods (those
 * then interrupt it), so the test runs grace periods until one did not,
 * bounded by the harness wait.  Flavors whose barrier is a local fence
 * never count one.
 */
START_TEST(test_busy_reader_not_interrupted)
{
	const struct test_flavor *tf = &test_flavors[_i];
	double deadline = harness_deadline(HARNESS_WAIT_S);
	struct urcu_stats before, after;
	struct reader sp;

	reader_start(&sp, tf, spinner_fn, "spinning reader");
	before = get_stats(tf);
	do {
		tf->fl->update_synchronize_rcu();
		after = get_stats(tf);
	} while (delta(after, before, gp_reader_barriers)
		 == delta(after, before, gp_completed)
		 && !harness_past(deadline));
	reader_stop(&sp);

	ck_assert_msg(delta(after, before, gp_reader_barriers)
		      < delta(after, before, gp_completed),
		      "[%s] all %llu grace periods interrupted a reader that "
		      "kept entering sections", tf->name,
		      (unsigned long long) delta(after, before, gp_completed));
	if (!barrier_interrupts(tf))
		ck_assert_uint_eq(delta(after, before, gp_reader_barriers), 0);
}
END_TEST

/*
 * Signal flavor: between its looks at a busy reader that has not moved on
 * yet, the updater sleeps (rcu/src/gp-observe.h), so that a reader it
 * preempted gets the CPU back and moves on by itself; it does not spin.
 * The reader here runs one section before each grace period, then spins
 * outside any section until the next: every grace period sees it busy at
 * both looks, then signals it.  Each one after the first (which, with no
 * busy reader seen before, looks at once and again 1 us later) must
 * therefore block at least once (a voluntary context switch).  An updater
 * that spun between its looks blocked only when the acknowledgement of
 * its signal took longer than its spin, which a running reader's seldom
 * does.
 *
 * Only grace periods during which the updater was not preempted (no
 * involuntary context switch) are judged.  A preemption can take the
 * sleep away: one that lands after the updater computed its wait but
 * before it sleeps lets the wait end meanwhile, and the kernel then
 * counts no voluntary switch.  A full CI run on a loaded 2-CPU machine
 * once saw 19 of 20 grace periods sleep, which such a preemption
 * explains.  The test runs grace periods until WATCH_GPS have been
 * judged.
 */
#define WATCH_GPS	20

struct stepper {
	const struct test_flavor *tf;
	pthread_t tid;
	atomic_uint asked;	/* sections asked for */
	atomic_uint ran;	/* sections run */
	atomic_int stop;
	struct harness_fail_log log;
};

static void *stepper_fn(void *arg)
{
	struct stepper *st = arg;
	const struct rcu_flavor_struct *fl = st->tf->fl;
	unsigned int ran = 0;

	fl->register_thread();
	while (!atomic_load(&st->stop)) {
		if (atomic_load(&st->asked) == ran)
			continue;	/* running, outside any section */
		fl->read_lock();
		fl->read_unlock();
		atomic_store(&st->ran, ++ran);
	}
	fl->unregister_thread();
	return NULL;
}

/* Voluntary and involuntary context switches of the calling thread. */
static void own_switches(long *voluntary, long *involuntary)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_THREAD, &ru), 0);
	*voluntary = ru.ru_nvcsw;
	*involuntary = ru.ru_nivcsw;
}

START_TEST(test_signal_watch_sleeps)
{
	const struct test_flavor *tf = &test_flavors[TF_SIGNAL];
	double deadline = harness_deadline(HARNESS_WAIT_S);
	struct stepper st = { .tf = tf };
	unsigned int i, judged = 0, slept = 0, preempted = 0;

	harness_spawn(&st.tid, stepper_fn, &st);
	for (i = 1; judged < WATCH_GPS && !harness_past(deadline); i++) {
		long vol0, inv0, vol1, inv1;

		atomic_store(&st.asked, i);
		while (atomic_load(&st.ran) != i && !harness_past(deadline))
			sched_yield();
		ck_assert_msg(atomic_load(&st.ran) == i,
			      "signal: reader never ran its section");
		own_switches(&vol0, &inv0);
		tf->fl->update_synchronize_rcu();
		own_switches(&vol1, &inv1);
		if (i == 1)
			continue;
		if (inv1 > inv0) {
			preempted++;
			continue;
		}
		judged++;
		if (vol1 > vol0)
			slept++;
	}
	atomic_store(&st.stop, 1);
	harness_join(st.tid);
	harness_assert_log_clean(&st.log, tf->name);

	ck_assert_msg(judged == WATCH_GPS, "signal: only %u grace periods ran "
		      "without the updater being preempted (%u were) before "
		      "the deadline", judged, preempted);
	ck_assert_msg(slept == WATCH_GPS, "signal: only %u of %d grace "
		      "periods that watched a busy reader slept", slept,
		      WATCH_GPS);
}
END_TEST

/*
 * A registered reader that enters no section during the grace periods
 * never shows the new epoch.  The first grace period runs the barrier on
 * it (for the flavors where that interrupts readers); from then on its
 * next section is known to begin with a fence, and later grace periods
 * leave it alone: one barrier for N_SYNC grace periods.
 */
START_TEST(test_idle_reader_interrupted_once)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;

	run_grace_periods_idle_reader(tf, &before, &after);

	ck_assert_uint_eq(delta(after, before, gp_completed), N_SYNC);
	ck_assert_uint_eq(delta(after, before, gp_reader_barriers),
			  barrier_interrupts(tf) ? 1 : 0);
}
END_TEST

/*
 * A grace period is timed from when it starts waiting for readers.  With
 * another reader registered and idle, the flavors that interrupt readers
 * watch it from the start (rcu/src/gp-observe.h) and time every grace
 * period; the others find it outside any section at their first scan and
 * never read the clock.
 */
START_TEST(test_idle_reader_timing)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;

	run_grace_periods_idle_reader(tf, &before, &after);

	ck_assert_uint_eq(delta(after, before, gp_completed), N_SYNC);
	if (barrier_interrupts(tf))
		ck_assert_uint_gt(delta(after, before, gp_total_ns), 0);
	else
		ck_assert_uint_eq(delta(after, before, gp_total_ns), 0);
}
END_TEST

/*
 * The caller of synchronize_rcu(), registered and outside any section,
 * is its own reader: it needs no barrier, and with no other reader the
 * grace period interrupts nobody.
 */
START_TEST(test_caller_not_interrupted)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, after;

	tf->fl->register_thread();
	tf->fl->read_lock();
	tf->fl->read_unlock();
	run_grace_periods(tf, &before, &after);
	tf->fl->unregister_thread();

	ck_assert_uint_eq(delta(after, before, gp_completed), N_SYNC);
	ck_assert_uint_eq(delta(after, before, gp_reader_barriers), 0);
}
END_TEST

/*
 * A reader moving on by itself does not end the grace period for another
 * one still inside a section entered before it began.
 */
START_TEST(test_busy_reader_does_not_release_holder)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct reader sp;
	struct reader h;
	struct syncer a;

	holder_start(&h, tf);
	reader_start(&sp, tf, spinner_fn, "spinning reader");
	syncer_start(&a, tf);
	ck_assert_msg(wait_gp_running(tf) > 0,
		      "[%s] grace period never seen running", tf->name);
	harness_sleep_ms(LATENCY_MS);
	ck_assert_msg(!atomic_load(&a.done),
		      "[%s] grace period ended with a reader inside a section "
		      "entered before it", tf->name);
	reader_stop(&h);
	harness_join(a.tid);
	reader_stop(&sp);
	ck_assert_int_eq(atomic_load(&a.done), 1);
}
END_TEST

/*
 * An updater asleep waiting for a reader is woken by that reader, where
 * the updater does not interrupt readers: as it leaves its section (mb,
 * and memb and bp on the fence fallback) or goes offline (qsbr).  The
 * others poll their readers and count no wake.  The reader leaves once
 * the grace period has waited WAKE_WAIT_MS, long past its spin, so the
 * updater is asleep.  The mb wake is a hint: the updater misses it only
 * if a poll times out in the nanoseconds between the reader's exit and
 * its wake, so the test tries up to WAKE_TRIES grace periods.
 */
#define WAKE_WAIT_MS	20
#define WAKE_TRIES	3

START_TEST(test_reader_wakes_sleeping_updater)
{
	const struct test_flavor *tf = &test_flavors[_i];
	bool wakes = !barrier_interrupts(tf);
	struct urcu_stats before, after;
	int try;

	before = get_stats(tf);
	after = before;
	for (try = 0; try < (wakes ? WAKE_TRIES : 1); try++) {
		struct reader h;
		struct syncer a;

		holder_start(&h, tf);
		syncer_start(&a, tf);
		ck_assert_msg(wait_gp_running(tf) > 0,
			      "[%s] grace period never seen running", tf->name);
		harness_sleep_ms(WAKE_WAIT_MS);
		reader_stop(&h);
		harness_join(a.tid);
		after = get_stats(tf);
		if (delta(after, before, gp_reader_wakeups))
			break;
	}
	if (wakes)
		ck_assert_msg(delta(after, before, gp_reader_wakeups) >= 1,
			      "[%s] no grace period was woken by the reader "
			      "it waited for in %d tries", tf->name,
			      WAKE_TRIES);
	else
		ck_assert_uint_eq(delta(after, before, gp_reader_wakeups), 0);
}
END_TEST

/*
 * An updater polling a reader that holds the grace period sleeps with a
 * timer slack of at most an eighth of the poll (rcu/src/gp-poll-sleep.h),
 * whatever its own, and gets its own back afterwards; so does one that
 * sleeps on the futex with the poll as its timeout (mb).  QSBR does not
 * poll: it sleeps on a futex its readers always wake, with no timeout,
 * so it leaves the slack alone (test_qsbr_sleep_keeps_timer_slack).
 */
#define SLACK_OWN_NS	(10L * 1000 * 1000)
#define SLACK_POLL_MAX_NS	(1000L * 1000 / 8)
/* Longer than the ramp from the first poll to the longest. */
#define SLACK_RAMP_MS		20

struct slack_syncer {
	const struct test_flavor *tf;
	atomic_int os_tid;
	atomic_int done;	/* synchronize_rcu() returned */
	long after;		/* the thread's slack after synchronize_rcu() */
};

static void *slack_syncer_fn(void *arg)
{
	struct slack_syncer *s = arg;

	(void) prctl(PR_SET_TIMERSLACK, (unsigned long) SLACK_OWN_NS, 0, 0, 0);
	atomic_store(&s->os_tid, (int) syscall(SYS_gettid));
	s->tf->fl->update_synchronize_rcu();
	s->after = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	atomic_store(&s->done, 1);
	return NULL;
}

/* Timer slack of thread @tid of this process in ns, or -1. */
static long task_timer_slack(int tid)
{
	char path[64];
	long ns = -1;
	FILE *f;

	/* Only the /proc/<pid> directories have it; a tid works there too. */
	snprintf(path, sizeof(path), "/proc/%d/timerslack_ns", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &ns) != 1)
		ns = -1;
	fclose(f);
	return ns;
}

/*
 * Run one synchronize_rcu() in a slack_syncer while reader @r, started,
 * keeps the grace period waiting (@why: how, for the messages), then stop
 * @r.  Expects the updater seen asleep with a timer slack of at most
 * SLACK_POLL_MAX_NS, and its own slack back afterwards.
 */
static void expect_tight_poll_sleeps(const struct test_flavor *tf,
				     struct reader *r, const char *why)
{
	/* Half the reader's patience, so that a failure reports here. */
	double deadline = harness_deadline(HARNESS_WAIT_S / 2);
	struct slack_syncer s = { .tf = tf };
	long seen = -1, ns;
	pthread_t tid;
	int os_tid, early;

	harness_spawn(&tid, slack_syncer_fn, &s);
	while (!(os_tid = atomic_load(&s.os_tid)) && !harness_past(deadline))
		harness_sleep_ms(1);
	/*
	 * Let the short first polls go by (they add up to about 1 ms), so
	 * that what is checked is the slack of the longest one: sampled
	 * early, they used to hide one that slept past the maximum.
	 */
	harness_sleep_ms(SLACK_RAMP_MS);
	/*
	 * Sampled while it sleeps, which is nearly all the time.  Back to
	 * back, not on a timer: with timer slack, two threads sleeping 1 ms
	 * each can be woken by the same expiry again and again, and this
	 * loop would then always look while the updater is awake.
	 */
	while (os_tid && !harness_past(deadline)) {
		ns = task_timer_slack(os_tid);
		if (ns >= 0 && ns <= SLACK_POLL_MAX_NS) {
			seen = ns;
			break;
		}
		sched_yield();
	}
	early = atomic_load(&s.done);
	reader_stop(r);
	harness_join(tid);

	ck_assert_msg(!early, "[%s] synchronize_rcu() returned while %s",
		      tf->name, why);
	ck_assert_msg(seen >= 0, "[%s] polling updater never seen with a "
		      "timer slack <= %ld ns while %s", tf->name,
		      SLACK_POLL_MAX_NS, why);
	ck_assert_int_eq(s.after, SLACK_OWN_NS);
}

/* Looped over the flavors that poll: all but QSBR. */
START_TEST(test_poll_sleep_timer_slack)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct reader h;

	ck_assert(!tf->is_qsbr);
	holder_start(&h, tf);
	expect_tight_poll_sleeps(tf, &h, "a reader was inside a section");
}
END_TEST

/* How long the QSBR updater's slack is watched while it waits. */
#define SLACK_WATCH_MS		50

/*
 * QSBR: an updater waiting for a reader that holds the grace period
 * sleeps (on the futex), and its timer slack stays its own all along,
 * since it has no polling sleep to tighten.
 */
START_TEST(test_qsbr_sleep_keeps_timer_slack)
{
	const struct test_flavor *tf = &test_flavors[TF_QSBR];
	double deadline = harness_deadline(HARNESS_WAIT_S / 2);
	struct slack_syncer s = { .tf = tf };
	long samples = 0, own = 0, asleep = 0, ns;
	double watch_end;
	struct reader h;
	pthread_t tid;
	int os_tid, early;

	holder_start(&h, tf);
	harness_spawn(&tid, slack_syncer_fn, &s);
	while (!(os_tid = atomic_load(&s.os_tid)) && !harness_past(deadline))
		harness_sleep_ms(1);
	/* Past the spin that precedes the sleep (as the polling test). */
	harness_sleep_ms(SLACK_RAMP_MS);
	/* Back to back, as in expect_tight_poll_sleeps(). */
	watch_end = harness_now() + SLACK_WATCH_MS / 1000.0;
	while (os_tid && harness_now() < watch_end) {
		ns = task_timer_slack(os_tid);
		samples++;
		own += ns == SLACK_OWN_NS;
		asleep += harness_task_state(os_tid) == 'S';
		sched_yield();
	}
	early = atomic_load(&s.done);
	reader_stop(&h);
	harness_join(tid);

	ck_assert_msg(os_tid != 0, "qsbr: the updater never started");
	ck_assert_msg(!early, "qsbr: synchronize_rcu() returned while a "
		      "reader was online without a quiescent state");
	ck_assert_msg(asleep > 0, "qsbr: the waiting updater was never seen "
		      "asleep in %ld samples", samples);
	ck_assert_msg(own == samples, "qsbr: the waiting updater's timer slack "
		      "was not its own in %ld of %ld samples", samples - own,
		      samples);
	ck_assert_int_eq(s.after, SLACK_OWN_NS);
}
END_TEST

/* Registered signal-flavor reader that keeps SIGRCU blocked until stopped. */
static void *sigblocker_fn(void *arg)
{
	struct reader *b = arg;
	const struct rcu_flavor_struct *fl = b->tf->fl;
	sigset_t all, old;

	fl->register_thread();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	atomic_store(&b->started, 1);
	if (!harness_wait_flag(&b->stop))
		harness_log_fail(&b->log, "signal blocker: never released");
	/* The pending SIGRCU runs its handler here. */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fl->unregister_thread();
	return NULL;
}

/*
 * Signal flavor: the wait for SIGRCU acknowledgements polls like the wait
 * for readers (rcu/src/gp-poll-sleep.h), first sleeps short and tight, so
 * that a reader preempted by the updater itself runs its handler within
 * microseconds.
 */
START_TEST(test_signal_ack_poll_timer_slack)
{
	const struct test_flavor *tf = &test_flavors[TF_SIGNAL];
	struct reader b;

	reader_start(&b, tf, sigblocker_fn, "signal blocker");
	expect_tight_poll_sleeps(tf, &b, "a reader had SIGRCU blocked");
}
END_TEST

/*
 * Signal flavor: while a grace period waits for a SIGRCU acknowledgement
 * that does not come, other threads still register and unregister: the
 * wait drops the registry lock while it sleeps (rcu/src/signal-barrier.h).
 * Under ThreadSanitizer, which defers handlers while a thread waits for a
 * lock, a thread unregistering while the grace period signalled it would
 * otherwise never acknowledge, and the grace period never end.
 */
START_TEST(test_signal_ack_wait_leaves_registry_free)
{
	const struct test_flavor *tf = &test_flavors[TF_SIGNAL];
	double deadline;
	struct reader b;
	struct syncer a;
	struct reg_ctx c;
	pthread_t tid;
	int registered, unregistered, early;

	reader_start(&b, tf, sigblocker_fn, "signal blocker");
	syncer_start(&a, tf);
	ck_assert_msg(syncer_wait_blocked(&a), "synchronize_rcu() never seen "
		      "waiting for the blocked reader");
	memset(&c, 0, sizeof(c));
	c.tf = tf;
	/* Half the blocker's patience, so that a failure reports here. */
	deadline = harness_deadline(HARNESS_WAIT_S / 2);
	harness_spawn(&tid, reg_fn, &c);
	registered = harness_wait_flag_until(&c.registered, deadline);
	atomic_store(&c.release, 1);
	unregistered = registered &&
		       harness_wait_flag_until(&c.unregistered, deadline);
	early = atomic_load(&a.done);
	reader_stop(&b);
	harness_join(tid);
	harness_join(a.tid);
	harness_assert_log_clean(&c.log, tf->name);

	ck_assert_msg(!early, "synchronize_rcu() returned while a reader had "
		      "SIGRCU blocked");
	ck_assert_msg(registered, "rcu_register_thread() blocked while a "
		      "grace period waited for a SIGRCU acknowledgement");
	ck_assert_msg(unregistered, "rcu_unregister_thread() blocked while a "
		      "grace period waited for a SIGRCU acknowledgement");
	ck_assert_int_eq(atomic_load(&a.done), 1);
}
END_TEST

/*
 * Registered signal-flavor reader that loses the grace period's SIGRCU:
 * with every signal blocked it takes the signal off its queue with
 * sigtimedwait(), so the handler never runs for it, then unblocks and
 * stays registered, outside any section, until stopped.
 */
static void *sigswallow_fn(void *arg)
{
	struct reader *b = arg;
	const struct rcu_flavor_struct *fl = b->tf->fl;
	struct timespec tick = { 0, 100 * 1000000L };
	double deadline = harness_deadline(HARNESS_WAIT_S);
	sigset_t all, old;
	int sig;

	fl->register_thread();
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	atomic_store(&b->started, 1);
	while ((sig = sigtimedwait(&all, NULL, &tick)) < 0
	       && !harness_past(deadline))
		;
	if (sig < 0)
		harness_log_fail(&b->log, "signal swallower: no signal came");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!harness_wait_flag(&b->stop))
		harness_log_fail(&b->log, "signal swallower: never released");
	fl->unregister_thread();
	return NULL;
}

/*
 * Signal flavor: a SIGRCU that never reaches its handler (dropped by a
 * runtime that interposes on delivery; ThreadSanitizer did, under load)
 * does not hold the grace period until the thread unregisters: the
 * updater sends it again while it polls (rcu/src/signal-barrier.h).
 */
START_TEST(test_signal_lost_is_sent_again)
{
	const struct test_flavor *tf = &test_flavors[TF_SIGNAL];
	struct reader b;
	struct syncer a;
	int done;

	reader_start(&b, tf, sigswallow_fn, "signal swallower");
	syncer_start(&a, tf);
	done = harness_wait_flag(&a.done);
	reader_stop(&b);
	harness_join(a.tid);
	ck_assert_msg(done, "synchronize_rcu() waited for a reader whose "
		      "SIGRCU was lost until that reader unregistered");
}
END_TEST

/* ------------------------------------------------------------------------
 * call_rcu() and rcu_barrier().
 */

static atomic_int cb_count;

static void count_cb(struct rcu_head *head)
{
	atomic_fetch_add(&cb_count, 1);
	free(head);
}

static void queue_callbacks(const struct test_flavor *tf, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct rcu_head *head = malloc(sizeof(*head));

		ck_assert_ptr_nonnull(head);
		tf->fl->update_call_rcu(head, count_cb);
	}
}

/* The statistics of the worker running on @thread. */
static struct urcu_stats_worker find_worker(const struct test_flavor *tf,
					    pthread_t thread)
{
	struct urcu_stats_worker w[8];
	long n, i;

	n = tf->stats_workers(w, 8, sizeof(w[0]));
	ck_assert_int_ge(n, 1);
	ck_assert_int_le(n, 8);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(w[i].size, sizeof(w[i]));
		if (pthread_equal(w[i].thread, thread))
			return w[i];
	}
	ck_abort_msg("[%s] worker not listed", tf->name);
	return w[0];
}

#define N_CB 10
#define N_HELD 3

START_TEST(test_call_rcu)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats before, s;
	struct urcu_stats_worker w;
	struct call_rcu_data *crdp;
	struct reader h;
	pthread_t thread;

	before = get_stats(tf);
	crdp = tf->create_call_rcu_data(0, -1);
	ck_assert_ptr_nonnull(crdp);
	thread = tf->get_call_rcu_thread(crdp);
	tf->set_thread_call_rcu_data(crdp);

	queue_callbacks(tf, N_CB);
	tf->fl->barrier();
	ck_assert_int_eq(atomic_load(&cb_count), N_CB);
	s = get_stats(tf);
	ck_assert_uint_eq(delta(s, before, cb_queued), N_CB);
	ck_assert_uint_eq(delta(s, before, cb_invoked), N_CB);
	ck_assert_uint_eq(s.cb_pending, 0);
	ck_assert_uint_eq(delta(s, before, barrier_calls), 1);
	ck_assert_uint_eq(delta(s, before, workers), 1);
	w = find_worker(tf, thread);
	ck_assert_uint_eq(w.queued, N_CB);
	ck_assert_uint_eq(w.invoked, N_CB);
	ck_assert_uint_eq(w.pending, 0);
	ck_assert_uint_ge(w.batches, 1);
	ck_assert_int_eq(w.cpu, -1);
	ck_assert_uint_eq(w.flags, 0);

	/* Held back by a reader, new callbacks stay pending. */
	holder_start(&h, tf);
	queue_callbacks(tf, N_HELD);
	w = find_worker(tf, thread);
	ck_assert_uint_eq(w.queued, N_CB + N_HELD);
	ck_assert_uint_eq(w.invoked, N_CB);
	ck_assert_uint_eq(w.pending, N_HELD);
	ck_assert_uint_eq(get_stats(tf).cb_pending, N_HELD);
	reader_stop(&h);
	tf->fl->barrier();
	s = get_stats(tf);
	ck_assert_uint_eq(delta(s, before, cb_invoked), N_CB + N_HELD);
	ck_assert_uint_eq(s.cb_pending, 0);
	ck_assert_uint_eq(delta(s, before, barrier_calls), 2);

	/* A freed worker's counts stay in the totals. */
	tf->set_thread_call_rcu_data(NULL);
	tf->call_rcu_data_free(crdp);
	s = get_stats(tf);
	ck_assert_uint_eq(delta(s, before, workers), 0);
	ck_assert_uint_eq(delta(s, before, cb_queued), N_CB + N_HELD);
	ck_assert_uint_eq(delta(s, before, cb_invoked), N_CB + N_HELD);
}
END_TEST

/* The default worker is flagged as such. */
START_TEST(test_default_worker)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats_worker w;

	queue_callbacks(tf, 1);
	tf->fl->barrier();
	ck_assert_int_eq(tf->stats_workers(&w, 1, sizeof(w)), 1);
	ck_assert_uint_eq(w.flags & URCU_STATS_WORKER_DEFAULT,
			  URCU_STATS_WORKER_DEFAULT);
	ck_assert_uint_eq(w.invoked, 1);
}
END_TEST

/* ------------------------------------------------------------------------
 * membarrier mode.
 */

static int kernel_has_private_expedited(void)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0);

	return mask >= 0 && (mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

START_TEST(test_membarrier_mode)
{
	const struct test_flavor *tf = &test_flavors[_i];
	struct urcu_stats s = get_stats(tf);
	const char *off = getenv("URCU_NO_MEMBARRIER");

	if (!tf->has_sys_membarrier)
		ck_assert_int_eq(s.membarrier, URCU_STATS_MEMBARRIER_UNUSED);
	else if (kernel_has_private_expedited() && !(off && *off && strcmp(off, "0")))
		ck_assert_int_eq(s.membarrier, URCU_STATS_MEMBARRIER_SYSCALL);
	else
		ck_assert_int_eq(s.membarrier, URCU_STATS_MEMBARRIER_FALLBACK);
}
END_TEST

/* URCU_NO_MEMBARRIER=1 in a helper: memb and bp report the fallback. */
START_TEST(test_membarrier_fallback_reported)
{
	const struct test_flavor *tf = &test_flavors[_i];
	const char *args[] = { tf->name, "work", NULL };
	const char *env[] = { "URCU_NO_MEMBARRIER=1", "URCU_STATS", NULL };
	struct harness_child c;
	char want[64];

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "[%s] helper failed (status 0x%x): %s%s", tf->name,
		      c.status, c.out, c.err);
	snprintf(want, sizeof(want), "membarrier=%d ",
		 tf->has_sys_membarrier ? URCU_STATS_MEMBARRIER_FALLBACK
				     : URCU_STATS_MEMBARRIER_UNUSED);
	ck_assert_msg(strncmp(c.out, want, strlen(want)) == 0,
		      "[%s] expected \"%s...\", got \"%s\"", tf->name, want,
		      c.out);
	harness_child_free(&c);
}
END_TEST

/*
 * memb and bp on the fence fallback (URCU_NO_MEMBARRIER=1, in a helper):
 * their readers have real fences, so they wake an updater that sleeps
 * waiting for their section, as mb's do (test_reader_wakes_sleeping_updater
 * sees them with membarrier(2), where they do not).
 */
START_TEST(test_fallback_reader_wakes_updater)
{
	const struct test_flavor *tf = &test_flavors[_i ? TF_BP : TF_MEMB];
	const char *args[] = { tf->name, "wake", NULL };
	const char *env[] = { "URCU_NO_MEMBARRIER=1", "URCU_STATS", NULL };
	struct harness_child c;
	unsigned long long wakeups = 0;
	int membarrier = -1;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "[%s] helper failed (status 0x%x): %s%s", tf->name,
		      c.status, c.out, c.err);
	ck_assert_msg(sscanf(c.out, "membarrier=%d wakeups=%llu", &membarrier,
			     &wakeups) == 2,
		      "[%s] unexpected output: %s", tf->name, c.out);
	ck_assert_int_eq(membarrier, URCU_STATS_MEMBARRIER_FALLBACK);
	ck_assert_msg(wakeups >= 1, "[%s] on the fence fallback, no grace "
		      "period was woken by the reader it waited for",
		      tf->name);
	harness_child_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------
 * URCU_STATS=1: the report at exit.
 */

static void expect_in(const char *what, const char *text, const char *needle)
{
	ck_assert_msg(strstr(text, needle) != NULL,
		      "%s: \"%s\" missing from:\n%s", what, needle, text);
}

START_TEST(test_print_at_exit)
{
	const struct test_flavor *tf = &test_flavors[_i];
	const char *args[] = { tf->name, "work", NULL };
	const char *env[] = { "URCU_STATS=1", "URCU_STALL_TIMEOUT", NULL };
	unsigned long long gp, sync, queued, invoked, barrier;
	struct harness_child c;
	char line[160];
	int mode, i;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "[%s] helper failed (status 0x%x): %s%s", tf->name,
		      c.status, c.out, c.err);
	ck_assert_int_eq(sscanf(c.out, "membarrier=%d gp=%llu sync=%llu "
				"queued=%llu invoked=%llu barrier=%llu",
				&mode, &gp, &sync, &queued, &invoked,
				&barrier), 6);
	ck_assert_uint_eq(queued, 4);
	ck_assert_uint_eq(invoked, 4);
	ck_assert_uint_eq(barrier, 1);
	ck_assert_uint_ge(gp, 3);
	ck_assert_uint_ge(sync, 3);

	/* The same numbers at exit: nothing ran in between. */
	snprintf(line, sizeof(line), "urcu %s: grace periods: %llu completed, "
		 "none running\n", tf->name, gp);
	expect_in(tf->name, c.err, line);
	snprintf(line, sizeof(line), "urcu %s: synchronize_rcu: %llu calls, ",
		 tf->name, sync);
	expect_in(tf->name, c.err, line);
	snprintf(line, sizeof(line), "urcu %s: call_rcu: 4 queued, 4 invoked, "
		 "0 pending, 1 workers; rcu_barrier: 1 calls\n", tf->name);
	expect_in(tf->name, c.err, line);
	/* The default worker is a registered reader. */
	snprintf(line, sizeof(line), "urcu %s: readers: 1 registered, ",
		 tf->name);
	expect_in(tf->name, c.err, line);
	snprintf(line, sizeof(line), " (default) cpu -1: queued 4, invoked 4, "
		 "pending 0, batches ");
	expect_in(tf->name, c.err, line);
	snprintf(line, sizeof(line), "urcu %s: membarrier: ", tf->name);
	expect_in(tf->name, c.err, line);
	/* Every flavor library in the process reports, once. */
	for (i = 0; i < N_TEST_FLAVORS; i++) {
		snprintf(line, sizeof(line), "urcu %s: grace periods: ",
			 test_flavors[i].name);
		ck_assert_msg(harness_count(c.err, line) == 1,
			      "[%s] expected one \"%s\" line in:\n%s",
			      tf->name, line, c.err);
	}
	harness_child_free(&c);
}
END_TEST

/* Without URCU_STATS, or with URCU_STATS=0, nothing is printed. */
START_TEST(test_no_print_by_default)
{
	const char *args[] = { "memb", "work", NULL };
	const char *unset[] = { "URCU_STATS", "URCU_STALL_TIMEOUT", NULL };
	const char *zero[] = { "URCU_STATS=0", "URCU_STALL_TIMEOUT", NULL };
	struct harness_child c;

	harness_run_child(&c, "stats_child", args, unset);
	ck_assert_int_eq(c.status, 0);
	ck_assert_str_eq(c.err, "");
	harness_child_free(&c);
	harness_run_child(&c, "stats_child", args, zero);
	ck_assert_int_eq(c.status, 0);
	ck_assert_str_eq(c.err, "");
	harness_child_free(&c);
}
END_TEST

/* rcu_stats_print() on any stream, in the same format. */
START_TEST(test_print_to_stream)
{
	const struct test_flavor *tf = &test_flavors[_i];
	char *text = NULL, want[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	tf->fl->update_synchronize_rcu();
	tf->stats_print(f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(want, sizeof(want), "urcu %s: grace periods: ", tf->name);
	expect_in(tf->name, text, want);
	snprintf(want, sizeof(want), "urcu %s: stall warnings: 0\n", tf->name);
	expect_in(tf->name, text, want);
	free(text);
}
END_TEST

/* ------------------------------------------------------------------------
 * Stall warnings.
 */

START_TEST(test_stall_warning)
{
	const struct test_flavor *tf = &test_flavors[_i];
	const char *args[] = { tf->name, "stall", NULL };
	const char *env[] = { "URCU_STALL_TIMEOUT=1", "URCU_STATS", NULL };
	struct harness_child c;
	char line[200];
	unsigned long tid;
	long lwp;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "[%s] helper failed (status 0x%x): %s%s", tf->name,
		      c.status, c.out, c.err);
	ck_assert_int_eq(sscanf(c.out, "reader=0x%lx lwp=%ld", &tid, &lwp), 2);
	expect_in(tf->name, c.out, "stall_warnings=1\n");

	snprintf(line, sizeof(line), "urcu: stall: %s grace period blocked for ",
		 tf->name);
	ck_assert_msg(harness_count(c.err, line) == 1,
		      "[%s] expected one warning line, got:\n%s", tf->name,
		      c.err);
	snprintf(line, sizeof(line), " s by thread 0x%lx (LWP %ld): %s\n", tid,
		 lwp, tf->is_qsbr ? "online without a quiescent state since "
				    "the grace period began"
				  : "inside a read-side critical section");
	expect_in(tf->name, c.err, line);
	snprintf(line, sizeof(line), "urcu: stall: %s grace period still "
		 "waiting for 1 thread(s) after ", tf->name);
	expect_in(tf->name, c.err, line);
	harness_child_free(&c);
}
END_TEST

/*
 * Signal flavor: a registered thread that blocks SIGRCU stalls the
 * signal round trip that precedes the wait for readers; it is named too.
 */
START_TEST(test_stall_signal_blocked)
{
	const char *args[] = { "signal", "sigblock", NULL };
	const char *env[] = { "URCU_STALL_TIMEOUT=1", "URCU_STATS", NULL };
	struct harness_child c;
	char line[200];
	unsigned long tid;
	long lwp;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0,
		      "helper failed (status 0x%x): %s%s", c.status, c.out,
		      c.err);
	ck_assert_int_eq(sscanf(c.out, "reader=0x%lx lwp=%ld", &tid, &lwp), 2);
	expect_in("signal", c.out, "stall_warnings=1\n");
	ck_assert_msg(harness_count(c.err, "urcu: stall: signal grace period "
				    "blocked for ") == 1,
		      "expected one warning line, got:\n%s", c.err);
	snprintf(line, sizeof(line), " s by thread 0x%lx (LWP %ld): has not "
		 "run its handler for signal ", tid, lwp);
	expect_in("signal", c.err, line);
	harness_child_free(&c);
}
END_TEST

/* URCU_STALL_TIMEOUT=0: no warning, however long the wait. */
START_TEST(test_stall_disabled)
{
	const char *args[] = { "memb", "hold", NULL };
	const char *env[] = { "URCU_STALL_TIMEOUT=0", "URCU_STATS", NULL };
	struct harness_child c;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_msg(c.status == 0, "helper failed (status 0x%x): %s%s",
		      c.status, c.out, c.err);
	expect_in("memb", c.out, "stall_warnings=0\n");
	ck_assert_str_eq(c.err, "");
	harness_child_free(&c);
}
END_TEST

/* A value that is not a number of seconds is reported, not obeyed. */
START_TEST(test_stall_bad_setting)
{
	const char *args[] = { "memb", "quick", NULL };
	const char *env[] = { "URCU_STALL_TIMEOUT=soon", "URCU_STATS", NULL };
	struct harness_child c;

	harness_run_child(&c, "stats_child", args, env);
	ck_assert_int_eq(c.status, 0);
	expect_in("memb", c.err, "urcu: memb: ignoring URCU_STALL_TIMEOUT="
		  "\"soon\": not a number of seconds >= 0; using 21 s\n");
	harness_child_free(&c);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("rcu_stats");
	TCase *tc;

	tc = harness_tcase(s, "api", 30);
	tcase_add_loop_test(tc, test_api, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_print_to_stream, 0, N_TEST_FLAVORS);

	tc = harness_tcase(s, "counters", 30);
	tcase_add_loop_test(tc, test_grace_periods, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_grace_periods_no_reader_untimed, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_gp_latency, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_gp_sharing, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_readers, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_call_rcu, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_default_worker, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_membarrier_mode, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_busy_reader_not_interrupted, 0,
			    N_TEST_FLAVORS);
	tcase_add_test(tc, test_signal_watch_sleeps);
	tcase_add_loop_test(tc, test_idle_reader_interrupted_once, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_idle_reader_timing, 0, N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_caller_not_interrupted, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_reader_wakes_sleeping_updater, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_busy_reader_does_not_release_holder, 0,
			    N_TEST_FLAVORS);
	/* QSBR does not poll: test_qsbr_sleep_keeps_timer_slack instead. */
	tcase_add_loop_test(tc, test_poll_sleep_timer_slack, 0, TF_QSBR);
	tcase_add_loop_test(tc, test_poll_sleep_timer_slack, TF_QSBR + 1,
			    N_TEST_FLAVORS);
	tcase_add_test(tc, test_qsbr_sleep_keeps_timer_slack);
	tcase_add_test(tc, test_signal_ack_poll_timer_slack);
	tcase_add_test(tc, test_signal_ack_wait_leaves_registry_free);
	tcase_add_test(tc, test_signal_lost_is_sent_again);

	tc = harness_tcase(s, "process", 30);
	tcase_add_loop_test(tc, test_fallback_reader_wakes_updater, 0, 2);
	tcase_add_loop_test(tc, test_membarrier_fallback_reported, 0,
			    N_TEST_FLAVORS);
	tcase_add_loop_test(tc, test_print_at_exit, 0, N_TEST_FLAVORS);
	tcase_add_test(tc, test_no_print_by_default);

	tc = harness_tcase(s, "stall", 30);
	tcase_add_loop_test(tc, test_stall_warning, 0, N_TEST_FLAVORS);
	tcase_add_test(tc, test_stall_signal_blocked);
	tcase_add_test(tc, test_stall_disabled);
	tcase_add_test(tc, test_stall_bad_setting);

	return s;
}

int main(void)
{
	return harness_run_suite(stats_suite());
}
