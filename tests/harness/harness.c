/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers every Check suite uses; see harness.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

double harness_time_mult(void)
{
	const char *s = getenv("CK_TIMEOUT_MULTIPLIER");
	double m;
	char *end;

	if (s == NULL || *s == '\0')
		return 1.0;
	m = strtod(s, &end);
	/* Written so that NaN is refused too. */
	if (end == s || !(m >= 1.0))
		return 1.0;
	return m;
}

double harness_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

double harness_deadline(double seconds)
{
	return harness_now() + seconds * harness_time_mult();
}

bool harness_past(double deadline)
{
	return harness_now() > deadline;
}

void harness_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

bool harness_wait_flag_until(atomic_int *flag, double deadline)
{
	while (!atomic_load(flag)) {
		if (harness_past(deadline))
			return false;
		harness_sleep_ms(1);
	}
	return true;
}

bool harness_wait_flag(atomic_int *flag)
{
	return harness_wait_flag_until(flag, harness_deadline(HARNESS_WAIT_S));
}

void harness_spawn(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(tid, NULL, fn, arg);

	ck_assert_msg(err == 0, "pthread_create: %s", strerror(err));
}

void harness_join(pthread_t tid)
{
	int err = pthread_join(tid, NULL);

	ck_assert_msg(err == 0, "pthread_join: %s", strerror(err));
}

struct harness_fail_log harness_failures;

void harness_log_fail(struct harness_fail_log *log, const char *fmt, ...)
{
	va_list ap;

	/* The first failure's text is kept; later ones only count. */
	if (atomic_fetch_add(&log->count, 1) == 0) {
		va_start(ap, fmt);
		vsnprintf(log->first, sizeof(log->first), fmt, ap);
		va_end(ap);
		atomic_store(&log->claimed, 1);
	}
}

TCase *harness_tcase(Suite *s, const char *name, double timeout)
{
	TCase *tc = tcase_create(name);

	if (timeout > 0)
		tcase_set_timeout(tc, timeout);
	suite_add_tcase(s, tc);
	return tc;
}

int harness_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Task state letter from /proc/self/task/<tid>/stat, or 0. */
char harness_task_state(int tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return 0;
	return p[2];
}
