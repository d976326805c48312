/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Support shared by the torture programs; see torture.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <urcu/arch.h>
#include <urcu/call-rcu.h>

#include "torture.h"

/* ------------------------------------------------------------------------
 * Flavors: the five of tests/flavors/flavors.h, and a broken one.
 */

/*
 * The broken flavor's update side.  Neither waits for anything, so a
 * reader may still be using an element when the updater recycles it.
 */
static void broken_synchronize_rcu(void)
{
}

static void broken_call_rcu(struct rcu_head *head,
			    void (*func)(struct rcu_head *head))
{
	func(head);
}

/* memb's table with the two calls above; filled in by the lookup. */
static struct rcu_flavor_struct broken_table;

/*
 * The programs reach a flavor through its table only (and is_qsbr), so
 * the broken flavor needs nothing else: the table holds memb's read side
 * and registration.
 */
static const struct test_flavor broken_flavor = {
	.name = "broken",
	.fl = &broken_table,
};

/* The flavor called @name, or NULL. */
static const struct test_flavor *flavor_by_name(const char *name)
{
	/*
	 * Called while parsing the command line, before any thread starts,
	 * so the plain writes below are ordered before every use by
	 * pthread_create.
	 */
	broken_table = *test_flavors[TF_MEMB].fl;
	broken_table.update_synchronize_rcu = broken_synchronize_rcu;
	broken_table.update_call_rcu = broken_call_rcu;
	if (strcmp(name, broken_flavor.name) == 0)
		return &broken_flavor;
	return test_flavor_by_name(name);
}

const char *torture_flavor_names(void)
{
	return "memb|mb|signal|qsbr|bp|broken";
}

/* ------------------------------------------------------------------------
 * Random numbers and time.
 */

void torture_rng_seed(struct torture_rng *r, uint64_t seed, unsigned int stream)
{
	/* splitmix64 of (seed, stream), so that streams differ from the start. */
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (stream + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	r->s = z ? z : 1;
}

uint64_t torture_rng_next(struct torture_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

double torture_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

void torture_sleep_us(unsigned long us)
{
	struct timespec ts = { (time_t) (us / 1000000),
			       (long) (us % 1000000) * 1000L };

	/* The signal flavor interrupts sleeping readers: sleep the rest. */
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void torture_spin_us(unsigned long us)
{
	double end = torture_now() + (double) us / 1e6;

	while (torture_now() < end)
		caa_cpu_relax();
}

/* Seed from the clock and the pid, for runs without --seed. */
static uint64_t default_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec)
		^ ((uint64_t) getpid() << 32);
}

/* ------------------------------------------------------------------------
 * Threads.
 */

void torture_start_thread(const char *prog, pthread_t *tid,
			  void *(*fn)(void *), void *arg)
{
	int err = pthread_create(tid, NULL, fn, arg);

	if (err) {
		printf("%s: !!! pthread_create: %s\n", prog, strerror(err));
		exit(TORTURE_EXIT_FAILED);
	}
}

/* ------------------------------------------------------------------------
 * Option values.  Each returns false, after printing "@prog: bad value
 * for --@opt: ...", when @arg is not a valid value.
 */

static bool parse_uint(const char *prog, const char *opt, const char *arg,
		       unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end != '\0' || arg[0] == '-' ||
	    v < min || v > max) {
		fprintf(stderr, "%s: bad value for --%s: '%s' (%lu..%lu)\n",
			prog, opt, arg, min, max);
		return false;
	}
	*out = v;
	return true;
}

static bool parse_seconds(const char *prog, const char *opt, const char *arg,
			  double *out)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(arg, &end);
	/* Written so that NaN is refused too. */
	if (errno || end == arg || *end != '\0' || !(v >= 0.0 && v <= 1e6)) {
		fprintf(stderr, "%s: bad value for --%s: '%s' (seconds)\n",
			prog, opt, arg);
		return false;
	}
	*out = v;
	return true;
}

static bool parse_bool(const char *prog, const char *opt, const char *arg,
		       bool *out)
{
	if (!strcmp(arg, "on") || !strcmp(arg, "1") || !strcmp(arg, "yes")) {
		*out = true;
		return true;
	}
	if (!strcmp(arg, "off") || !strcmp(arg, "0") || !strcmp(arg, "no")) {
		*out = false;
		return true;
	}
	fprintf(stderr, "%s: bad value for --%s: '%s' (on|off)\n",
		prog, opt, arg);
	return false;
}

/*
 * --NAME[=on|off], or --NAME on|off (@arg: what getopt_long() found
 * after "=", or NULL).
 */
static bool parse_onoff(const char *prog, const char *opt, const char *arg,
			int argc, char **argv, bool *out)
{
	/* Also accept the value as a separate word. */
	if (!arg && optind < argc &&
	    (!strcmp(argv[optind], "on") || !strcmp(argv[optind], "off")))
		arg = argv[optind++];
	*out = true;
	return !arg || parse_bool(prog, opt, arg, out);
}

/* One of @choices (NULL-terminated), stored as its index. */
static bool parse_choice(const char *prog, const char *opt, const char *arg,
			 const char *const *choices, int *out)
{
	int i;

	for (i = 0; choices[i]; i++) {
		if (!strcmp(arg, choices[i])) {
			*out = i;
			return true;
		}
	}
	fprintf(stderr, "%s: bad value for --%s: '%s' (", prog, opt, arg);
	for (i = 0; choices[i]; i++)
		fprintf(stderr, "%s%s", i ? "|" : "", choices[i]);
	fprintf(stderr, ")\n");
	return false;
}

static bool parse_seed(const char *prog, const char *arg, uint64_t *out)
{
	unsigned long seed;

	if (!parse_uint(prog, "seed", arg, 0, ULONG_MAX, &seed))
		return false;
	*out = seed;
	return true;
}

/* ------------------------------------------------------------------------
 * Command lines.
 */

/*
 * getopt_long()'s values: the common options, then OPT_BASE + i for
 * option i of the program's table.  Below OPT_FLAVOR: its '?' for an
 * error.
 */
enum {
	OPT_FLAVOR = 256,
	OPT_DURATION,
	OPT_STALL_TIMEOUT,
	OPT_SEED,
	OPT_HELP,
	OPT_BASE,
};

/*
 * The options of struct torture_common, and the terminator of
 * getopt_long()'s table: they follow the program's own.
 */
static const struct option common_opts[] = {
	{ .name = "flavor", .has_arg = required_argument, .val = OPT_FLAVOR },
	{ .name = "duration", .has_arg = required_argument,
	  .val = OPT_DURATION },
	{ .name = "stall-timeout", .has_arg = required_argument,
	  .val = OPT_STALL_TIMEOUT },
	{ .name = "seed", .has_arg = required_argument, .val = OPT_SEED },
	{ .name = "help", .has_arg = no_argument, .val = OPT_HELP },
	{ .name = NULL },
};

/* Number of entries of @opts before its terminator. */
static size_t count_opts(const struct torture_opt *opts)
{
	size_t n = 0;

	while (opts[n].name)
		n++;
	return n;
}

/*
 * Fills @lopts with getopt_long()'s table: the @n options of @opts, then
 * common_opts[].
 */
static void build_long_opts(const struct torture_opt *opts, size_t n,
			    struct option *lopts)
{
	size_t i;

	for (i = 0; i < n; i++) {
		lopts[i].name = opts[i].name;
		lopts[i].has_arg = opts[i].kind == TORTURE_OPT_ONOFF ?
				   optional_argument : required_argument;
		lopts[i].flag = NULL;
		lopts[i].val = OPT_BASE + (int) i;
	}
	memcpy(&lopts[n], common_opts, sizeof(common_opts));
}

/*
 * The defaults listed at struct torture_common; the flavor is set last
 * (set_flavor()).
 */
static void set_defaults(struct torture_common *common)
{
	common->duration = 10.0;
	common->stall_timeout = 60.0;
	common->seed = default_seed();
}

/* Stores the value of the program's option @o, just read by getopt_long(). */
static bool parse_own(const char *prog, const struct torture_opt *o,
		      int argc, char **argv)
{
	switch (o->kind) {
	case TORTURE_OPT_UINT:
		return parse_uint(prog, o->name, optarg, o->min, o->max,
				  o->out.number);
	case TORTURE_OPT_SECONDS:
		return parse_seconds(prog, o->name, optarg, o->out.seconds);
	case TORTURE_OPT_ONOFF:
		return parse_onoff(prog, o->name, optarg, argc, argv,
				   o->out.on);
	case TORTURE_OPT_STRING:
		*o->out.string = optarg;
		return true;
	case TORTURE_OPT_CHOICE:
		return parse_choice(prog, o->name, optarg, o->choices,
				    o->out.index);
	}
	return false;
}

/*
 * Stores the value of common option @c (OPT_*), just read by
 * getopt_long().  The flavor's name goes to *@flavor: it is looked up
 * once the rest of the command line is known to be good.
 */
static bool parse_common(const struct torture_cmdline *cl, int c,
			 const char **flavor)
{
	struct torture_common *common = cl->common;

	switch (c) {
	case OPT_FLAVOR:
		*flavor = optarg;
		return true;
	case OPT_DURATION:
		return parse_seconds(cl->prog, "duration", optarg,
				     &common->duration);
	case OPT_STALL_TIMEOUT:
		return parse_seconds(cl->prog, "stall-timeout", optarg,
				     &common->stall_timeout);
	case OPT_SEED:
		return parse_seed(cl->prog, optarg, &common->seed);
	case OPT_HELP:
		cl->usage(stdout);
		exit(TORTURE_EXIT_OK);
	}
	return false;
}

/* Sets common->flavor to the flavor called @name. */
static bool set_flavor(const struct torture_cmdline *cl, const char *name)
{
	cl->common->flavor = flavor_by_name(name);
	if (!cl->common->flavor) {
		fprintf(stderr, "%s: unknown flavor '%s' (%s)\n", cl->prog,
			name, torture_flavor_names());
		return false;
	}
	return true;
}

bool torture_parse_args(const struct torture_cmdline *cl, int argc,
			char **argv)
{
	size_t n = count_opts(cl->opts);
	struct option lopts[n + sizeof(common_opts) / sizeof(common_opts[0])];
	const char *flavor = "memb";
	bool ok;
	int c;

	build_long_opts(cl->opts, n, lopts);
	set_defaults(cl->common);
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		if (c < OPT_FLAVOR) {
			/* getopt_long() has printed what is wrong. */
			cl->usage(stderr);
			return false;
		}
		if (c >= OPT_BASE)
			ok = parse_own(cl->prog, &cl->opts[c - OPT_BASE], argc,
				       argv);
		else
			ok = parse_common(cl, c, &flavor);
		if (!ok)
			return false;
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", cl->prog,
			argv[optind]);
		return false;
	}
	if (cl->check && !cl->check())
		return false;
	return set_flavor(cl, flavor);
}

/* ------------------------------------------------------------------------
 * Watchdog.
 */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool armed;		/* under lock */
	bool disarmed;		/* under lock */
	const char *prog;
	const char *what;
	double seconds;
} wd = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void *watchdog_thread(void *arg)
{
	struct timespec deadline;
	long long ns = (long long) (wd.seconds * 1e9);
	int err = 0;

	(void) arg;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	ns += deadline.tv_nsec;
	deadline.tv_sec += (time_t) (ns / 1000000000LL);
	deadline.tv_nsec = (long) (ns % 1000000000LL);
	pthread_mutex_lock(&wd.lock);
	while (!wd.disarmed && err != ETIMEDOUT)
		err = pthread_cond_timedwait(&wd.cond, &wd.lock, &deadline);
	if (!wd.disarmed) {
		printf("%s: !!! stall: %s did not finish within %g s "
		       "(a grace period that never ends?)\n",
		       wd.prog, wd.what, wd.seconds);
		fflush(stdout);
		_exit(TORTURE_EXIT_FAILED);
	}
	pthread_mutex_unlock(&wd.lock);
	return NULL;
}

void torture_watchdog_arm(const char *prog, const char *what, double seconds)
{
	pthread_condattr_t attr;
	int err;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wd.cond, &attr);
	pthread_condattr_destroy(&attr);
	wd.prog = prog;
	wd.what = what;
	wd.seconds = seconds;
	wd.disarmed = false;
	err = pthread_create(&wd.thread, NULL, watchdog_thread, NULL);
	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", prog, strerror(err));
		exit(TORTURE_EXIT_FAILED);
	}
	wd.armed = true;
}

void torture_watchdog_disarm(void)
{
	if (!wd.armed)
		return;
	pthread_mutex_lock(&wd.lock);
	wd.disarmed = true;
	pthread_cond_signal(&wd.cond);
	pthread_mutex_unlock(&wd.lock);
	pthread_join(wd.thread, NULL);
	pthread_cond_destroy(&wd.cond);
	wd.armed = false;
}
