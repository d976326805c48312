/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * call_rcu suite, concern "fork": fork() in the middle of a call_rcu()
 * storm, with the call_rcu fork hooks (and bp's own): nothing queued is
 * lost or run twice, in the parent or in the child.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "callrcu.h"

/*
 * The child starts a call_rcu worker after a multi-threaded fork, which
 * ThreadSanitizer refuses by default.
 */
#if defined(__SANITIZE_THREAD__)
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "die_after_fork=0";
}
#endif

#define STORM_POOL 200000L	/* per thread */
#define STORM_CHILD_EXTRA 1000L

/*
 * Storm threads call call_rcu() holding `storm_gate` for reading, so that
 * no enqueue is half done when the test thread forks (it holds the gate
 * for writing then).  A fork in the middle of an enqueue would leave the
 * child a queue whose last link is never written; the gate is the
 * application-side coordination fork() needs anyway.
 *
 * While `storm_hold` is set the storm pauses (before taking the gate), so
 * that call_rcu_before_fork() finds the workers' queues empty and can park
 * them; a storm that never lets a queue drain would keep its worker busy.
 * The gate is only taken after call_rcu_before_fork(), never before it,
 * so the test's locks and the library's are always taken in one order.
 */
static pthread_rwlock_t storm_gate;
static atomic_int storm_hold;
static atomic_int storm_stop;
static atomic_long storm_queued[2];

static void storm_gate_init(void)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	/* The test thread must get the gate while two threads hammer it. */
	pthread_rwlockattr_setkind_np(&attr,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	ck_assert_int_eq(pthread_rwlock_init(&storm_gate, &attr), 0);
	pthread_rwlockattr_destroy(&attr);
}

static void *storm_thread(void *arg)
{
	long t = (long) (intptr_t) arg;
	long begin = t * STORM_POOL, i;

	caller_enter();
	for (i = begin; i < begin + STORM_POOL; i++) {
		if (atomic_load(&storm_stop))
			break;
		/* QSBR: offline while it may wait. */
		caller_offline();
		while (atomic_load(&storm_hold))
			harness_sleep_ms(1);
		pthread_rwlock_rdlock(&storm_gate);
		caller_online();
		flavor->call_rcu(&objs[i].head, track_cb);
		atomic_store(&storm_queued[t], i - begin + 1);
		pthread_rwlock_unlock(&storm_gate);
		/* Pace the storm so that the pool outlasts the fork. */
		if ((i & 255) == 255)
			harness_sleep_ms(1);
	}
	caller_exit();
	return NULL;
}

/*
 * Verify the copies of the counters in the fork child: objects queued by
 * the storm before the fork and the child's own ran exactly once.  Returns
 * an exit status: 0 when all is well.
 */
static int child_verify(void)
{
	long extra = 2 * STORM_POOL, t, i;

	for (i = extra; i < extra + STORM_CHILD_EXTRA; i++)
		flavor->call_rcu(&objs[i].head, track_cb);
	flavor->barrier();
	for (t = 0; t < 2; t++) {
		long begin = t * STORM_POOL;
		long q = atomic_load(&storm_queued[t]);

		if (track_first_bad(begin, begin + q, 1) >= 0)
			return 10;
		if (track_first_bad(begin + q, begin + STORM_POOL, 0) >= 0)
			return 11;
	}
	if (track_first_bad(extra, extra + STORM_CHILD_EXTRA, 1) >= 0)
		return 12;
	/* Call_rcu still works after the check: a second round. */
	atomic_store(&runs[0], 0);
	flavor->call_rcu(&objs[0].head, track_cb);
	flavor->barrier();
	if (atomic_load(&runs[0]) != 1)
		return 13;
	return 0;
}

START_TEST(test_fork_during_storm)
{
	static struct tracked warm;
	pthread_t tids[2];
	long t, total = 0;
	int status = -1;
	bool started;
	pid_t pid;

	flavor = &test_flavors[_i];
	track_alloc(2 * STORM_POOL + STORM_CHILD_EXTRA);
	storm_gate_init();
	/*
	 * Start the default worker first: creating it takes a lock that
	 * call_rcu_before_fork() holds until after the fork.
	 */
	warm.idx = 2 * STORM_POOL;
	flavor->call_rcu(&warm.head, track_cb);
	flavor->barrier();
	atomic_store(&runs[warm.idx], 0);
	atomic_store(&ran, 0);

	for (t = 0; t < 2; t++)
		harness_spawn(&tids[t], storm_thread, (void *) (intptr_t) t);
	{
		double deadline = harness_deadline(HARNESS_WAIT_S);

		while ((atomic_load(&storm_queued[0]) < 1000
			|| atomic_load(&storm_queued[1]) < 1000)
		       && !harness_past(deadline))
			harness_sleep_ms(1);
		started = !harness_past(deadline);
	}

	atomic_store(&storm_hold, 1);
	flavor->call_rcu_before_fork();
	if (flavor->before_fork)
		flavor->before_fork();
	/* Let the storm queue more on the parked workers. */
	atomic_store(&storm_hold, 0);
	harness_sleep_ms(5);
	pthread_rwlock_wrlock(&storm_gate);
	pid = fork();
	if (pid == 0) {
		if (flavor->after_fork_child)
			flavor->after_fork_child();
		flavor->call_rcu_after_fork_child();
		_exit(child_verify());
	}
	if (flavor->after_fork_parent)
		flavor->after_fork_parent();
	flavor->call_rcu_after_fork_parent();
	pthread_rwlock_unlock(&storm_gate);

	harness_sleep_ms(20);
	atomic_store(&storm_stop, 1);
	for (t = 0; t < 2; t++)
		harness_join(tids[t]);
	flavor->barrier();
	ck_assert_msg(pid > 0, "fork: %s", strerror(errno));
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(started, "%s: the storm did not start", flavor->name);
	for (t = 0; t < 2; t++) {
		long begin = t * STORM_POOL;
		long q = atomic_load(&storm_queued[t]);

		ck_assert_ran(begin, begin + q, 1);
		ck_assert_ran(begin + q, begin + STORM_POOL, 0);
		total += q;
	}
	ck_assert_int_eq(atomic_load(&ran), total);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s: fork child failed: %s %d", flavor->name,
		      WIFEXITED(status) ? "exit status" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status)
					: WTERMSIG(status));
	pthread_rwlock_destroy(&storm_gate);
	track_free();
}
END_TEST

void callrcu_add_fork(Suite *s)
{
	TCase *tc = harness_tcase(s, "fork", 60);

	add_per_flavor(tc, test_fork_during_storm);
}
