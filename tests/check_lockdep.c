/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "lockdep": the lock validator (docs/lockdep.md).
 *
 * The programs of tests/lockdep/ each hold one kind of latent deadlock or
 * misuse, arranged so that the run cannot deadlock (their threads run one
 * at a time).  Every case runs twice, as a child process:
 *  - with liburcu-lockdep.so preloaded, and the report it must print is
 *    checked, with the exit status (67 for a report in warn mode);
 *  - without it, where the program must end as it would in production:
 *    normally and silently (so the report comes from the validator, and
 *    the deadlock did not happen).
 *
 * Sanitized builds have no validator (rcu/lockdep/SConscript).  There the
 * same programs, instrumented, show what the sanitizer sees: under
 * ThreadSanitizer its deadlock detector reports the mutex inversions but
 * none of the RCU cases; under the others, only the runs without the
 * validator are checked.
 *
 * Build: this file and tests/harness/{harness,child}.c; the programs are
 * built next to it (tests/SConscript, LOCKDEP_PROGRAMS).  LOCKDEP_LIB is
 * the validator's path, defined by the build when there is one.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <check.h>

#include "harness/child.h"
#include "harness/harness.h"

/* Exit status of a run whose program would exit 0 but made reports. */
#define REPORTED	67
/* Expected status: exit(N) as N, death by signal S as -S. */
#define SIGNALLED(sig)	(-(sig))

#define CYCLE	"WARNING: possible deadlock: lock order cycle"

struct lockdep_case {
	const char *prog;
	const char *args[3];
	/* Extra environment: QSBR only tracks its sections checked. */
	const char *env;
	/* Status with the validator (warn mode) and without it. */
	int status, bare_status;
	/* Text the validator's report must contain (stderr). */
	const char *expect[5];
	/*
	 * What ThreadSanitizer reports of the case, instrumented and run
	 * without the validator, or NULL when it stays silent.
	 */
	const char *tsan;
};

#define TSAN_INVERSION	"ThreadSanitizer: lock-order-inversion"

#define QSBR_CHECKED	"URCU_DEBUG=1"

static const struct lockdep_case cases[] = {
	{ "lockdep_abba", { NULL }, NULL, REPORTED, 0,
	  { CYCLE, "mutex lock_a -> mutex lock_b -> mutex lock_a",
	    "thread function a_then_b", "thread function b_then_a" },
	  TSAN_INVERSION },
	{ "lockdep_chain3", { NULL }, NULL, REPORTED, 0,
	  { CYCLE, "mutex lock_a -> mutex lock_b -> mutex lock_c -> "
	    "mutex lock_a", "thread 3 holds mutex lock_c and waits for "
	    "mutex lock_a" }, TSAN_INVERSION },
	{ "lockdep_rwlock", { "write" }, NULL, REPORTED, 0,
	  { CYCLE, "-> mutex stats_lock ->", "pthread_rwlock_wrlock()",
	    "rwlock initialised at main" }, TSAN_INVERSION },
	{ "lockdep_rwlock", { "fair" }, NULL, REPORTED, 0,
	  { CYCLE, "-> mutex stats_lock ->", "pthread_rwlock_rdlock()" },
	  TSAN_INVERSION },
	/* Readers that nest cannot deadlock here; TSan reports it anyway. */
	{ "lockdep_rwlock", { "read" }, NULL, 0, 0, { NULL }, TSAN_INVERSION },
#define RCU_CASES(f)							\
	{ "lockdep_sync_reader", { f }, NULL, REPORTED, 0,		\
	  { CYCLE, "rcu_read(" f ") -> mutex config_lock -> rcu_read(" f ")", \
	    "synchronize_rcu()", "thread function reader" }, NULL },	\
	{ "lockdep_barrier_callback", { f }, NULL, REPORTED, 0,		\
	  { CYCLE, "rcu_callback(" f ") -> mutex cache_lock -> "	\
	    "rcu_callback(" f ")", "rcu_barrier()", "callback" }, NULL }, \
	{ "lockdep_sync_in_section", { f, "synchronize" }, QSBR_CHECKED, \
	  SIGNALLED(SIGABRT), SIGNALLED(SIGABRT),			\
	  { "WARNING: synchronize_rcu() inside a read-side critical "	\
	    "section of " f }, NULL },					\
	{ "lockdep_clean", { f }, NULL, 0, 0, { NULL }, NULL }
	RCU_CASES("memb"),
	RCU_CASES("mb"),
	RCU_CASES("signal"),
	RCU_CASES("qsbr"),
	RCU_CASES("bp"),
#undef RCU_CASES
	{ "lockdep_barrier_callback", { "memb", "defer" }, NULL, REPORTED, 0,
	  { CYCLE, "rcu_defer(memb) -> mutex cache_lock -> rcu_defer(memb)",
	    "defer_rcu()", "deferred" }, NULL },
	{ "lockdep_sync_in_section", { "memb", "barrier" }, NULL,
	  SIGNALLED(SIGABRT), SIGNALLED(SIGABRT),
	  { "WARNING: rcu_barrier() inside a read-side critical section of "
	    "memb" }, NULL },
	{ "lockdep_qsbr_blocking", { "mutex" }, QSBR_CHECKED, 0, 0,
	  { NULL }, NULL },
	{ "lockdep_qsbr_blocking", { "synchronize" }, QSBR_CHECKED, REPORTED,
	  0, { "WARNING: blocking call inside a QSBR read-side critical "
	       "section", "waits for rcu_read(memb) in synchronize_rcu()" },
	  NULL },
	{ "lockdep_recursive", { "timed" }, NULL, REPORTED, 0,
	  { "WARNING: recursive acquisition of a non-recursive lock",
	    "takes mutex normal in pthread_mutex_timedlock()",
	    "mutex normal taken at main" }, NULL },
	{ "lockdep_recursive", { "recursive" }, NULL, 0, 0, { NULL }, NULL },
	{ "lockdep_unlock", { NULL }, NULL, REPORTED, 0,
	  { "WARNING: unlock of a lock not held by this thread",
	    "releases mutex checked in pthread_mutex_unlock()" },
	  "ThreadSanitizer: unlock of an unlocked mutex" },
	{ "lockdep_exit_held", { "lock" }, NULL, REPORTED, 0,
	  { "WARNING: thread exiting while holding locks",
	    "thread function leave_locked", "mutex job_lock, taken at "
	    "leave_locked" }, NULL },
	{ "lockdep_exit_held", { "pthread_exit" }, NULL, REPORTED, 0,
	  { "WARNING: thread exiting while holding locks",
	    "mutex job_lock, taken at leave_locked", "#0 leave_locked" },
	  NULL },
	{ "lockdep_exit_held", { "section" }, NULL, SIGNALLED(SIGABRT),
	  SIGNALLED(SIGABRT),
	  { "WARNING: thread exiting inside a read-side critical section",
	    "exits inside a read-side critical section of memb" }, NULL },
	{ "lockdep_annotate", { NULL }, NULL, REPORTED, 0,
	  { CYCLE, "test flag spinlock -> mutex queue_lock -> test flag "
	    "spinlock", "urcu_lockdep_acquire()" }, NULL },
};

#define NR_CASES	((int) (sizeof(cases) / sizeof(cases[0])))

/* "prog arg arg" for messages. */
static const char *case_name(const struct lockdep_case *c)
{
	static char name[128];
	int i;

	snprintf(name, sizeof(name), "%s", c->prog);
	for (i = 0; c->args[i]; i++) {
		strncat(name, " ", sizeof(name) - strlen(name) - 1);
		strncat(name, c->args[i], sizeof(name) - strlen(name) - 1);
	}
	return name;
}

static int status_of(const struct harness_child *r)
{
	if (WIFEXITED(r->status))
		return WEXITSTATUS(r->status);
	if (WIFSIGNALED(r->status))
		return SIGNALLED(WTERMSIG(r->status));
	return 1000;
}

/*
 * Run case @c: with the validator in @mode ("warn", "abort", "off"), or
 * without it (@mode NULL), which also clears the settings a
 * `scons check lockdep=yes` run puts in this suite's own environment.
 */
static void run_case(struct harness_child *r, const struct lockdep_case *c,
		     const char *mode)
{
	char preload[512], lockdep[64];
	const char *env[6];
	int n = 0;

	if (mode) {
#ifdef LOCKDEP_LIB
		snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", LOCKDEP_LIB);
		snprintf(lockdep, sizeof(lockdep), "URCU_LOCKDEP=%s", mode);
		env[n++] = preload;
		env[n++] = lockdep;
#else
		ck_abort_msg("no validator in this build");
#endif
	} else {
		(void) preload;
		(void) lockdep;
		env[n++] = "LD_PRELOAD";
		env[n++] = "URCU_LOCKDEP";
	}
	env[n++] = "URCU_LOCKDEP_EXITCODE";
	if (c->env)
		env[n++] = c->env;
	env[n] = NULL;
	harness_run_child(r, c->prog, c->args, env);
}

#ifndef LOCKDEP_TSAN
static void assert_silent(const struct lockdep_case *c,
			  const struct harness_child *r, const char *what)
{
	ck_assert_msg(!strstr(r->err, "urcu-lockdep"),
		      "%s: %s printed a report:\n%s", case_name(c), what, r->err);
}

/* Without the validator: the run ends as it would in production. */
START_TEST(test_bare_run)
{
	const struct lockdep_case *c = &cases[_i];
	struct harness_child r;

	run_case(&r, c, NULL);
	ck_assert_msg(status_of(&r) == c->bare_status,
		      "%s without the validator: status %d, expected %d:\n%s",
		      case_name(c), status_of(&r), c->bare_status, r.err);
	assert_silent(c, &r, "a run without the validator");
	if (!c->bare_status)
		ck_assert_msg(!strstr(r.err, "WARNING"),
			      "%s: unexpected warning:\n%s", case_name(c), r.err);
	harness_child_free(&r);
}
END_TEST
#endif

#ifdef LOCKDEP_LIB
/* With the validator, warn mode: the report, and the status. */
START_TEST(test_report)
{
	const struct lockdep_case *c = &cases[_i];
	struct harness_child r;
	int i;

	run_case(&r, c, "warn");
	ck_assert_msg(status_of(&r) == c->status,
		      "%s: status %d, expected %d:\n%s", case_name(c),
		      status_of(&r), c->status, r.err);
	if (!c->expect[0])
		assert_silent(c, &r, "a correct program");
	for (i = 0; c->expect[i]; i++)
		ck_assert_msg(strstr(r.err, c->expect[i]),
			      "%s: report lacks \"%s\":\n%s", case_name(c),
			      c->expect[i], r.err);
	if (c->expect[0])
		ck_assert_msg(strstr(r.err, "urcu-lockdep: SUMMARY: "),
			      "%s: report without a summary:\n%s",
			      case_name(c), r.err);
	harness_child_free(&r);
}
END_TEST

static const struct lockdep_case abba = { "lockdep_abba", { NULL }, NULL,
					  0, 0, { NULL }, NULL };

/* A report is made once, however often its cause recurs. */
START_TEST(test_reported_once)
{
	static const struct lockdep_case c = { "lockdep_chain3", { NULL },
					       NULL, 0, 0, { NULL }, NULL };
	struct harness_child r;

	run_case(&r, &c, "warn");
	ck_assert_uint_eq(harness_count(r.err, CYCLE), 1);
	ck_assert_msg(strstr(r.err, "urcu-lockdep: 1 report; exit status 67"),
		      "no count of reports at exit:\n%s", r.err);
	harness_child_free(&r);
}
END_TEST

/* URCU_LOCKDEP=abort: the first report aborts; the deadlock never comes. */
START_TEST(test_abort_mode)
{
	static const struct lockdep_case c = { "lockdep_recursive", { "lock" },
					       NULL, 0, 0, { NULL }, NULL };
	struct harness_child r;

	run_case(&r, &c, "abort");
	ck_assert_msg(status_of(&r) == SIGNALLED(SIGABRT),
		      "status %d, expected SIGABRT:\n%s", status_of(&r), r.err);
	ck_assert_msg(strstr(r.err, "recursive acquisition of a non-recursive "
			     "lock") && strstr(r.err, "aborting"),
		      "no report before the abort:\n%s", r.err);
	harness_child_free(&r);
}
END_TEST

/* URCU_LOCKDEP=off: loaded, but checks nothing. */
START_TEST(test_off_mode)
{
	struct harness_child r;

	run_case(&r, &abba, "off");
	ck_assert_int_eq(status_of(&r), 0);
	assert_silent(&abba, &r, "URCU_LOCKDEP=off");
	harness_child_free(&r);
}
END_TEST

/* urcu_lockdep_active() tells whether the validator is loaded. */
START_TEST(test_annotation_active)
{
	static const struct lockdep_case c = { "lockdep_annotate", { NULL },
					       NULL, 0, 0, { NULL }, NULL };
	struct harness_child r;

	run_case(&r, &c, "warn");
	ck_assert_msg(strstr(r.out, "active=1"), "with it: %s", r.out);
	harness_child_free(&r);
	run_case(&r, &c, NULL);
	ck_assert_msg(strstr(r.out, "active=0"), "without it: %s", r.out);
	harness_child_free(&r);
}
END_TEST

/* Backtraces name source lines (the validator needs libdw for that). */
START_TEST(test_source_lines)
{
	struct harness_child r;

	run_case(&r, &abba, "warn");
	ck_assert_msg(strstr(r.err, "abba.c:"),
		      "no file:line in the report: was liburcu-lockdep built "
		      "without libdw?  Install libdw-dev (elfutils) and "
		      "rebuild.\n%s", r.err);
	harness_child_free(&r);
}
END_TEST
#endif /* LOCKDEP_LIB */

#ifdef LOCKDEP_TSAN
/*
 * What ThreadSanitizer's deadlock detector sees of the same programs,
 * instrumented: the mutex inversions, but none of the RCU deadlocks,
 * since it does not know that synchronize_rcu() and rcu_barrier() wait
 * for readers and callbacks (docs/lockdep.md, "ThreadSanitizer").  Also
 * the runs without a validator of this build.
 */
START_TEST(test_tsan_view)
{
	const struct lockdep_case *c = &cases[_i];
	struct harness_child r;

	run_case(&r, c, NULL);
	if (c->tsan) {
		ck_assert_msg(strstr(r.err, c->tsan),
			      "%s: TSan did not report \"%s\":\n%s",
			      case_name(c), c->tsan, r.err);
	} else {
		ck_assert_msg(status_of(&r) == c->bare_status,
			      "%s: status %d, expected %d:\n%s", case_name(c),
			      status_of(&r), c->bare_status, r.err);
		if (c->bare_status == 0)
			ck_assert_msg(!strstr(r.err, "ThreadSanitizer"),
				      "%s: TSan reported:\n%s", case_name(c),
				      r.err);
	}
	harness_child_free(&r);
}
END_TEST
#endif

static Suite *lockdep_suite(void)
{
	Suite *s = suite_create("lockdep");
	TCase *tc;

#ifdef LOCKDEP_TSAN
	tc = tcase_create("tsan");
	tcase_add_loop_test(tc, test_tsan_view, 0, NR_CASES);
	suite_add_tcase(s, tc);
#else
	tc = tcase_create("bare");
	tcase_add_loop_test(tc, test_bare_run, 0, NR_CASES);
	suite_add_tcase(s, tc);
#endif
#ifdef LOCKDEP_LIB
	tc = tcase_create("reports");
	tcase_add_loop_test(tc, test_report, 0, NR_CASES);
	suite_add_tcase(s, tc);
	tc = tcase_create("modes");
	tcase_add_test(tc, test_reported_once);
	tcase_add_test(tc, test_abort_mode);
	tcase_add_test(tc, test_off_mode);
	tcase_add_test(tc, test_annotation_active);
	tcase_add_test(tc, test_source_lines);
	suite_add_tcase(s, tc);
#endif
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lockdep_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
