/* Support shared by the torture programs; see torture.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <urcu/arch.h>
#include <urcu/call-rcu.h>
#include <urcu/urcu-bp.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-signal.h>

#include "torture.h"

/* ------------------------------------------------------------------------
 * Flavors.
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

static const struct torture_flavor flavors[] = {
	{ .name = "memb", .fl = &urcu_memb_flavor },
	{ .name = "mb", .fl = &urcu_mb_flavor },
	{ .name = "signal", .fl = &urcu_signal_flavor },
	{ .name = "qsbr", .fl = &urcu_qsbr_flavor, .is_qsbr = true },
	{ .name = "bp", .fl = &urcu_bp_flavor },
	{ .name = "broken", .fl = &broken_table, .is_broken = true },
};

const struct torture_flavor *torture_flavor_by_name(const char *name)
{
	size_t i;

	/*
	 * Called from main() before any thread starts, so the plain
	 * writes below are ordered before every use by pthread_create.
	 */
	broken_table = urcu_memb_flavor;
	broken_table.update_synchronize_rcu = broken_synchronize_rcu;
	broken_table.update_call_rcu = broken_call_rcu;
	for (i = 0; i < sizeof(flavors) / sizeof(flavors[0]); i++)
		if (strcmp(flavors[i].name, name) == 0)
			return &flavors[i];
	return NULL;
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

uint64_t torture_default_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec)
		^ ((uint64_t) getpid() << 32);
}

/* ------------------------------------------------------------------------
 * Options.
 */

bool torture_parse_uint(const char *prog, const char *opt, const char *arg,
			unsigned long min, unsigned long max,
			unsigned long *out)
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

bool torture_parse_seconds(const char *prog, const char *opt, const char *arg,
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

bool torture_parse_bool(const char *prog, const char *opt, const char *arg,
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
