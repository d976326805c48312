/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Support shared by the torture programs (tests/torture/rcutorture.c and
 * tests/torture/ds_torture.c): flavor selection by name (including the
 * deliberately broken flavor), a per-thread random generator, delays,
 * thread start, the command-line parser and a shutdown watchdog.
 *
 * The programs reach every flavor through its table (struct
 * rcu_flavor_struct, <urcu/flavor.h>) in its description of
 * tests/flavors/flavors.h, so one binary tests whichever flavor is named
 * on its command line; "broken" is memb's table with an update side that
 * waits for nothing, which the programs must catch.  docs/torture.md describes them.
 */
#ifndef TESTS_TORTURE_TORTURE_H
#define TESTS_TORTURE_TORTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../flavors/flavors.h"

/* Exit statuses shared by both programs. */
#define TORTURE_EXIT_OK		0
#define TORTURE_EXIT_FAILED	1	/* a check failed: a "!!!" line was printed */
#define TORTURE_EXIT_USAGE	2	/* bad command line */

/* "memb|mb|signal|qsbr|bp|broken", for usage messages. */
const char *torture_flavor_names(void);

/* xorshift64* state; never 0.  One per thread. */
struct torture_rng {
	uint64_t s;
};

void torture_rng_seed(struct torture_rng *r, uint64_t seed, unsigned int stream);
uint64_t torture_rng_next(struct torture_rng *r);

/* CLOCK_MONOTONIC in seconds. */
double torture_now(void);

/* Sleeps @us microseconds, resuming after signals (signal flavor: EINTR). */
void torture_sleep_us(unsigned long us);

/* Busy-waits about @us microseconds without leaving the CPU voluntarily. */
void torture_spin_us(unsigned long us);

/*
 * Starts @fn(@arg) in a new thread, its id in *@tid.  If the thread cannot
 * be created, prints "@prog: !!! pthread_create: <why>" to stdout and
 * exits with TORTURE_EXIT_FAILED.
 */
void torture_start_thread(const char *prog, pthread_t *tid,
			  void *(*fn)(void *), void *arg);

/*
 * Command lines.  torture_parse_args() reads the options every program
 * takes into a struct torture_common, and the program's own options as
 * its table of struct torture_opt describes them.
 */

/*
 * The settings every program takes, with their defaults (which the
 * programs' usage texts and docs/torture.md repeat).
 */
struct torture_common {
	const struct test_flavor *flavor;	/* --flavor NAME: memb */
	double duration;			/* --duration S: 10 */
	double stall_timeout;			/* --stall-timeout S: 60 */
	uint64_t seed;				/* --seed N: from the clock */
};

enum torture_opt_kind {
	/* --NAME N: an unsigned long in min..max, in decimal. */
	TORTURE_OPT_UINT,
	/* --NAME S: a double, 0 to 1e6 seconds. */
	TORTURE_OPT_SECONDS,
	/*
	 * --NAME[=on|off] (also 1|0, yes|no): on alone.  The value may also
	 * be the next word when that word is "on" or "off".
	 */
	TORTURE_OPT_ONOFF,
	/* --NAME STRING: kept as it is; the program checks it. */
	TORTURE_OPT_STRING,
	/* --NAME WORD: one of choices[], stored as its index. */
	TORTURE_OPT_CHOICE,
};

/* One of a program's own options. */
struct torture_opt {
	/* Long option name, without "--"; NULL ends the table. */
	const char *name;
	enum torture_opt_kind kind;
	/* TORTURE_OPT_UINT: the accepted range. */
	unsigned long min, max;
	/* TORTURE_OPT_CHOICE: the accepted words, NULL-terminated. */
	const char *const *choices;
	/* Where the value goes: the member that goes with kind. */
	union {
		unsigned long *number;		/* UINT */
		double *seconds;		/* SECONDS */
		bool *on;			/* ONOFF */
		const char **string;		/* STRING */
		int *index;			/* CHOICE */
	} out;
};

struct torture_cmdline {
	/* Program name, the prefix of every error line. */
	const char *prog;
	/*
	 * The program's own options.  getopt_long() sees them in this order,
	 * followed by --flavor, --duration, --stall-timeout, --seed and
	 * --help; it lists the candidates of an ambiguous abbreviation in
	 * that order.
	 */
	const struct torture_opt *opts;
	/* Where the common options go. */
	struct torture_common *common;
	/* Prints the usage: to stdout for --help, to stderr after an error. */
	void (*usage)(FILE *out);
	/*
	 * NULL, or the program's own checks of the values read, run once no
	 * argument is left over and before the flavor is looked up; returns
	 * false after printing why.
	 */
	bool (*check)(void);
};

/*
 * Parses argv as @cl describes, the defaults above included.  Exits with
 * TORTURE_EXIT_OK after printing the usage for --help.  Otherwise returns
 * true, or false after printing to stderr the first problem found (the
 * program then exits with TORTURE_EXIT_USAGE).  In the order they are
 * looked for:
 *   - option by option: getopt_long()'s own message (unknown option,
 *     missing value, ...) followed by the usage, or "bad value for
 *     --NAME: ..." for a value of the wrong form;
 *   - "unexpected argument '...'" for a word that is not an option;
 *   - whatever @cl->check prints;
 *   - "unknown flavor '...' (memb|mb|...)".
 */
bool torture_parse_args(const struct torture_cmdline *cl, int argc,
			char **argv);

/*
 * Shutdown watchdog: once armed, if torture_watchdog_disarm() is not
 * called within @seconds, prints "<prog>: !!! stall: <what> did not finish
 * within N s" and terminates the process with TORTURE_EXIT_FAILED.  It
 * turns a grace period that never ends into a failure instead of a hang.
 * One watchdog at a time.
 */
void torture_watchdog_arm(const char *prog, const char *what, double seconds);
void torture_watchdog_disarm(void);

/* Relaxed atomic counter helpers (see the comments in torture.c). */
static inline void torture_count(unsigned long *c, unsigned long n)
{
	/*
	 * Relaxed: a statistic shared by several writers; it orders nothing
	 * and is read only for reporting (or after pthread_join, which
	 * orders it).
	 */
	__atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static inline void torture_count_own(unsigned long *c)
{
	/*
	 * Relaxed, single writer: only the owning thread stores to *c, so a
	 * load-then-store needs no read-modify-write; the stores are atomic
	 * because the statistics printer loads *c concurrently
	 * (torture_read()), and that load only needs some recent value.
	 * Orders nothing and pairs with nothing.
	 */
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

static inline unsigned long torture_read(const unsigned long *c)
{
	/* Relaxed: a snapshot for reporting; pairs with nothing. */
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

#endif /* TESTS_TORTURE_TORTURE_H */
