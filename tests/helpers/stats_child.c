/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Helper program for tests/check_stats.c: things that need a process of
 * their own, because the library reads its settings (URCU_STATS,
 * URCU_STALL_TIMEOUT, URCU_NO_MEMBARRIER) from the environment when it
 * loads, or writes at exit.
 *
 * usage: stats_child FLAVOR MODE
 *
 *   work   3 synchronize_rcu() calls, 4 call_rcu() callbacks and one
 *          rcu_barrier(), then print the flavor's counters on stdout as
 *          "membarrier=M gp=G sync=S queued=Q invoked=I barrier=B" and
 *          exit (URCU_STATS=1 then prints them again, on stderr).
 *   stall  a reader thread stays in a read-side critical section (QSBR:
 *          online without a quiescent state) for 2 s, and at least until
 *          a stall warning was printed, while the main thread runs
 *          synchronize_rcu(); prints "reader=0x<pthread_t> lwp=<tid>"
 *          before the grace period and "stall_warnings=N" after it.
 *   hold   like stall, but the reader holds for 2 s exactly.
 *   sigblock  like stall, but the reader is outside any section with
 *          every signal blocked (signal flavor: SIGRCU cannot run).
 *   quick  one synchronize_rcu(), nothing printed.
 *   wake   a reader thread stays in a read-side critical section (QSBR:
 *          online) for WAKE_HOLD_MS while the main thread runs
 *          synchronize_rcu(), then leaves (QSBR: goes offline); up to
 *          WAKE_TRIES times, until a reader woke the sleeping updater.
 *          Prints "membarrier=M wakeups=N", N the change of
 *          gp_reader_wakeups.
 *
 * Exit status 0 on success, 2 on usage errors, 1 on failures (explained
 * on stdout).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../flavors/flavors.h"

/* Minimum hold, and the bound on waiting for the warning beyond it. */
#define HOLD_MIN_S	2.0
#define HOLD_MAX_S	60.0
/* Long past the updater's spin: it sleeps by then (wake mode). */
#define WAKE_HOLD_MS	20
#define WAKE_TRIES	3

static const struct test_flavor *tf;
static atomic_int reader_inside;
/* stall mode: keep holding until a warning was printed. */
static int hold_for_warning;
/* sigblock mode: hold with signals blocked instead of in a section. */
static int block_signals;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Sleeps @ms, resuming after signals (the signal flavor's SIGRCU). */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

static struct urcu_stats snapshot(void)
{
	struct urcu_stats s;

	if (tf->stats(&s, sizeof(s)) != 0) {
		printf("stats() failed\n");
		exit(1);
	}
	return s;
}

static atomic_int callbacks_run;

static void callback(struct rcu_head *head)
{
	atomic_fetch_add(&callbacks_run, 1);
	free(head);
}

static int work(void)
{
	struct urcu_stats s;
	int i;

	for (i = 0; i < 3; i++)
		tf->fl->update_synchronize_rcu();
	for (i = 0; i < 4; i++) {
		struct rcu_head *head = malloc(sizeof(*head));

		if (!head)
			return 1;
		tf->fl->update_call_rcu(head, callback);
	}
	tf->fl->barrier();
	if (atomic_load(&callbacks_run) != 4) {
		printf("rcu_barrier() returned before the callbacks ran\n");
		return 1;
	}
	s = snapshot();
	printf("membarrier=%d gp=%llu sync=%llu queued=%llu invoked=%llu "
	       "barrier=%llu\n", s.membarrier,
	       (unsigned long long) s.gp_completed,
	       (unsigned long long) s.sync_calls,
	       (unsigned long long) s.cb_queued,
	       (unsigned long long) s.cb_invoked,
	       (unsigned long long) s.barrier_calls);
	return 0;
}

/* End of a reader thread outside any section: offline (QSBR), unregister. */
static void reader_exit(void)
{
	if (tf->is_qsbr)
		tf->fl->thread_offline();
	tf->fl->unregister_thread();
}

static void *stall_reader(void *arg)
{
	double start, until;

	sigset_t all, saved;

	(void) arg;
	tf->fl->register_thread();
	if (block_signals) {
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &saved);
	} else {
		tf->fl->read_lock();
	}
	printf("reader=0x%lx lwp=%ld\n", (unsigned long) pthread_self(),
	       (long) syscall(SYS_gettid));
	fflush(stdout);
	atomic_store(&reader_inside, 1);
	start = now_s();
	until = start + HOLD_MAX_S;
	while (now_s() < start + HOLD_MIN_S
	       || (hold_for_warning && snapshot().stall_warnings == 0
		   && now_s() < until))
		sleep_ms(20);
	if (block_signals)
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
	else
		tf->fl->read_unlock();
	reader_exit();
	return NULL;
}

/* Start @fn as the reader thread; returns once it set reader_inside. */
static bool start_reader(void *(*fn)(void *), pthread_t *tid)
{
	atomic_store(&reader_inside, 0);
	if (pthread_create(tid, NULL, fn, NULL) != 0) {
		printf("pthread_create failed\n");
		return false;
	}
	while (!atomic_load(&reader_inside))
		sleep_ms(1);
	return true;
}

static int stall(void)
{
	pthread_t tid;

	if (!start_reader(stall_reader, &tid))
		return 1;
	tf->fl->update_synchronize_rcu();
	printf("stall_warnings=%llu\n",
	       (unsigned long long) snapshot().stall_warnings);
	pthread_join(tid, NULL);
	return 0;
}

static void *wake_reader(void *arg)
{
	(void) arg;
	tf->fl->register_thread();
	tf->fl->read_lock();
	atomic_store(&reader_inside, 1);
	sleep_ms(WAKE_HOLD_MS);
	tf->fl->read_unlock();
	reader_exit();
	return NULL;
}

static int wake(void)
{
	struct urcu_stats s = snapshot();
	uint64_t before = s.gp_reader_wakeups;
	int try;

	for (try = 0; try < WAKE_TRIES && s.gp_reader_wakeups == before;
	     try++) {
		pthread_t tid;

		if (!start_reader(wake_reader, &tid))
			return 1;
		tf->fl->update_synchronize_rcu();
		pthread_join(tid, NULL);
		s = snapshot();
	}
	printf("membarrier=%d wakeups=%llu\n", s.membarrier,
	       (unsigned long long) (s.gp_reader_wakeups - before));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 3 || !(tf = test_flavor_by_name(argv[1]))) {
		fprintf(stderr, "usage: %s memb|mb|signal|qsbr|bp "
			"work|stall|hold|sigblock|quick|wake\n", argv[0]);
		return 2;
	}
	if (strcmp(argv[2], "work") == 0)
		return work();
	if (strcmp(argv[2], "stall") == 0) {
		hold_for_warning = 1;
		return stall();
	}
	if (strcmp(argv[2], "hold") == 0)
		return stall();
	if (strcmp(argv[2], "sigblock") == 0) {
		hold_for_warning = block_signals = 1;
		return stall();
	}
	if (strcmp(argv[2], "wake") == 0)
		return wake();
	if (strcmp(argv[2], "quick") == 0) {
		tf->fl->update_synchronize_rcu();
		return 0;
	}
	fprintf(stderr, "%s: unknown mode %s\n", argv[0], argv[2]);
	return 2;
}
