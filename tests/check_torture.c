/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "torture": short runs of the torture programs
 * (tests/torture/rcutorture.c, tests/torture/ds_torture.c; docs/torture.md).
 *
 * Each test starts one program, found next to this executable through
 * /proc/self/exe, with fork and exec, collects its output and exit status,
 * and asserts on them:
 *   - every real flavor, in both retirement modes, passes rcutorture
 *     (exit 0, no "!!!" line, a SUCCESS line);
 *   - the deliberately broken flavor is caught in both modes (a "!!!"
 *     line and exit status 1).  Tag "broken_rcu", so that these runs can
 *     be left out (CK_EXCLUDE_TAGS=broken_rcu); see the suite below;
 *   - --stat-interval prints the statistics while the test runs;
 *   - bad options are refused with exit status 2;
 *   - every real flavor passes ds_torture over all its structures, and
 *     the broken flavor is caught on lfstack (tag "broken_rcu" too).
 *
 * The runs last a fixed time of about a second (they are not scaled by
 * CK_TIMEOUT_MULTIPLIER: slower builds just do fewer iterations).  A run
 * that does not finish within RUN_LIMIT_S (scaled) is killed and fails;
 * the programs also fail by themselves when their shutdown stalls, and
 * die with this test process (PR_SET_PDEATHSIG) if Check kills it.
 *
 * Conventions: fork mode, one program run (or a loop index of runs) per
 * test; nothing here starts threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "harness/child.h"
#include "harness/harness.h"

/* A run killed after this long (scaled by CK_TIMEOUT_MULTIPLIER) fails. */
#define RUN_LIMIT_S	25.0
/* Check timeout of each test (Check scales it). */
#define TEST_TIMEOUT_S	40
/* Output kept per run. */
#define OUT_MAX		(64 * 1024)

struct run {
	int status;		/* as from waitpid */
	bool timed_out;
	size_t len;
	char out[OUT_MAX];	/* stdout and stderr, NUL-terminated */
};

static const char *const real_flavors[] = { "memb", "mb", "signal", "qsbr", "bp" };
#define N_REAL_FLAVORS	(sizeof(real_flavors) / sizeof(real_flavors[0]))
static const char *const modes[] = { "sync", "call_rcu" };
#define N_MODES		(sizeof(modes) / sizeof(modes[0]))

static void append(struct run *r, const char *buf, size_t n)
{
	if (n > OUT_MAX - 1 - r->len)
		n = OUT_MAX - 1 - r->len;	/* keep reading, drop the rest */
	memcpy(r->out + r->len, buf, n);
	r->len += n;
	r->out[r->len] = '\0';
}

/*
 * Runs program @name with the NULL-terminated @args (after argv[0]);
 * fills @r.  Fails the test if the program cannot be started.
 */
static void run_program(const char *name, const char *const *args,
			struct run *r)
{
	char path[PATH_MAX + 64], buf[4096];
	const char *argv[32];
	double deadline = harness_deadline(RUN_LIMIT_S);
	struct pollfd pfd;
	int out, n = 0;
	ssize_t got;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	harness_program_path(name, path, sizeof(path));
	argv[n++] = path;
	while (*args && n < 31)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = harness_start_program(path, argv, &out);

	pfd.fd = out;
	pfd.events = POLLIN;
	for (;;) {
		if (harness_past(deadline)) {
			kill(pid, SIGKILL);
			r->timed_out = true;
			break;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;	/* timeout or EINTR: check the deadline */
		got = read(out, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;		/* EOF: the program has exited */
		append(r, buf, (size_t) got);
	}
	close(out);
	while (waitpid(pid, &r->status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
}

/* Prints the run's output to stderr (the suite's log) and describes it. */
static const char *describe(const struct run *r, char *buf, size_t size)
{
	fprintf(stderr, "----- program output -----\n%s----- end -----\n",
		r->out);
	if (r->timed_out)
		snprintf(buf, size, "killed after %.0f s", RUN_LIMIT_S);
	else if (WIFEXITED(r->status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(r->status));
	else
		snprintf(buf, size, "status 0x%x", r->status);
	return buf;
}

static bool exited_with(const struct run *r, int code)
{
	return !r->timed_out && WIFEXITED(r->status) &&
	       WEXITSTATUS(r->status) == code;
}

/* The run passed: exit 0, no "!!!" line, a SUCCESS line. */
static void assert_clean(const struct run *r, const char *what)
{
	char how[64];

	if (exited_with(r, 0) && !strstr(r->out, "!!!") &&
	    strstr(r->out, "SUCCESS"))
		return;
	ck_abort_msg("%s: expected a clean run, got %s%s (output in the log)",
		     what, describe(r, how, sizeof(how)),
		     strstr(r->out, "!!!") ? " and a !!! line" : "");
}

/* Number of occurrences of @needle in @hay. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* ------------------------------------------------------------------------
 * rcutorture.
 */

/* _i: flavor * N_MODES + mode. */
START_TEST(test_rcutorture_real_flavor)
{
	const char *flavor = real_flavors[_i / N_MODES];
	const char *mode = modes[_i % N_MODES];
	const char *args[] = { "--flavor", flavor, "--mode", mode,
			       "--readers", "3", "--writers", "2",
			       "--duration", "1", "--stall-timeout", "20",
			       NULL };
	static struct run r;
	char what[64];

	run_program("rcutorture", args, &r);
	snprintf(what, sizeof(what), "rcutorture %s %s", flavor, mode);
	assert_clean(&r, what);
}
END_TEST

/* _i: mode. */
START_TEST(test_rcutorture_broken_detected)
{
	const char *mode = modes[_i];
	const char *args[] = { "--flavor", "broken", "--mode", mode,
			       "--readers", "3", "--duration", "1",
			       "--stall-timeout", "20", NULL };
	static struct run r;
	char how[64];

	run_program("rcutorture", args, &r);
	ck_assert_msg(exited_with(&r, 1) && strstr(r.out, "!!!"),
		      "rcutorture broken %s: expected a !!! line and exit "
		      "status 1, got %s%s", mode,
		      describe(&r, how, sizeof(how)),
		      strstr(r.out, "!!!") ? "" : " and no !!! line");
}
END_TEST

START_TEST(test_rcutorture_stat_interval)
{
	const char *args[] = { "--flavor", "memb", "--readers", "2",
			       "--duration", "1", "--stat-interval", "0.3",
			       "--stall-timeout", "20", NULL };
	static struct run r;
	char how[64];
	int reports;

	run_program("rcutorture", args, &r);
	assert_clean(&r, "rcutorture --stat-interval");
	reports = count_of(r.out, "Reader Pipe:");
	/*
	 * Reports at about 0.3, 0.6 and 0.9 s, then the final one; asks for
	 * one periodic report only, since a loaded machine may oversleep.
	 */
	ck_assert_msg(reports >= 2 && count_of(r.out, "Reader Batch:") ==
		      reports && count_of(r.out, "Free-Block Circulation:") ==
		      reports, "expected periodic reports, got %d: %s",
		      reports, describe(&r, how, sizeof(how)));
}
END_TEST

START_TEST(test_bad_options)
{
	static const char *const bad[][3] = {
		{ "--flavor", "nosuch", NULL },
		{ "--mode", "sometimes", NULL },
		{ "--readers", "0", NULL },
		{ "--duration", "-1", NULL },
		{ "--reader-delay=maybe", NULL, NULL },
		{ "stray", NULL, NULL },
	};
	static struct run r;
	char how[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_program("rcutorture", bad[i], &r);
		ck_assert_msg(exited_with(&r, 2),
			      "rcutorture %s %s: expected exit status 2, got %s",
			      bad[i][0], bad[i][1] ? bad[i][1] : "",
			      describe(&r, how, sizeof(how)));
	}
	run_program("ds_torture", (const char *const[]) { "--ds", "nosuch",
							  NULL }, &r);
	ck_assert_msg(exited_with(&r, 2),
		      "ds_torture --ds nosuch: expected exit status 2, got %s",
		      describe(&r, how, sizeof(how)));
}
END_TEST

/* ------------------------------------------------------------------------
 * ds_torture.
 */

/* _i: flavor. */
START_TEST(test_ds_torture_real_flavor)
{
	const char *flavor = real_flavors[_i];
	const char *args[] = { "--flavor", flavor, "--ds", "all",
			       "--duration", "0.5", "--stall-timeout", "20",
			       NULL };
	static struct run r;
	char what[64];

	run_program("ds_torture", args, &r);
	snprintf(what, sizeof(what), "ds_torture %s", flavor);
	assert_clean(&r, what);
}
END_TEST

/*
 * The broken flavor under lfstack: peekers reach nodes that were freed
 * (poisoned) under them.  lfstack only, since it allocates nothing: with
 * the broken flavor, rculfqueue frees its malloc()ed dummy nodes while
 * other threads still use them, a genuine use-after-free.
 */
START_TEST(test_ds_torture_broken_detected)
{
	const char *args[] = { "--flavor", "broken", "--ds", "lfstack",
			       "--duration", "1", "--stall-timeout", "20",
			       NULL };
	static struct run r;
	char how[64];

	run_program("ds_torture", args, &r);
	ck_assert_msg(exited_with(&r, 1) && strstr(r.out, "!!!"),
		      "ds_torture broken lfstack: expected a !!! line and "
		      "exit status 1, got %s%s", describe(&r, how, sizeof(how)),
		      strstr(r.out, "!!!") ? "" : " and no !!! line");
}
END_TEST

/* ------------------------------------------------------------------------
 * Suite.
 */

static Suite *torture_suite(void)
{
	Suite *s = suite_create("torture");
	TCase *tc;

	tc = harness_tcase(s, "rcutorture", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_rcutorture_real_flavor, 0,
			    N_REAL_FLAVORS * N_MODES);
	tcase_add_test(tc, test_rcutorture_stat_interval);
	tcase_add_test(tc, test_bad_options);

	/*
	 * The broken flavor lets writers recycle elements under readers.
	 * The programs share every such location through atomics, so even
	 * these runs are free of data races and ThreadSanitizer stays
	 * quiet; the tag still lets a run leave them out
	 * (CK_EXCLUDE_TAGS=broken_rcu), e.g. when a sanitizer build
	 * changes that (docs/torture.md).
	 */
	tc = harness_tcase(s, "broken", TEST_TIMEOUT_S);
	tcase_set_tags(tc, "broken_rcu");
	tcase_add_loop_test(tc, test_rcutorture_broken_detected, 0, N_MODES);
	tcase_add_test(tc, test_ds_torture_broken_detected);

	tc = harness_tcase(s, "ds_torture", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_ds_torture_real_flavor, 0, N_REAL_FLAVORS);

	return s;
}

int main(void)
{
	return harness_run_suite(torture_suite());
}
