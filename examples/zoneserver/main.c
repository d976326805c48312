/*
 * zoneserver: a small authoritative DNS server over UDP that answers A
 * and AAAA queries from an in-memory zone held in an RCU-protected
 * cds_lfht, and reloads its zone file on SIGHUP while it keeps
 * answering.  docs/zoneserver.md has the design, the zone-file format
 * and how to run and query it.
 *
 * Threads: main sets up and tears down; N readers answer queries
 * (server.c); one control thread receives every signal the process
 * handles through sigwait() (they are blocked everywhere, so no signal
 * handler runs):
 *   SIGHUP           reload the zone file;
 *   SIGUSR2          print the counters;
 *   SIGINT, SIGTERM  stop, print the counters and exit.
 * Exit status: 0, 1 when setup fails, 2 for bad options, 3 when a
 * reader ever saw a freed (poisoned) record.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/flavor.h>

#include "server.h"

#define MAX_THREADS	256

static void usage(FILE *out, const char *argv0)
{
	fprintf(out,
		"usage: %s --zone FILE [options]\n"
		"  -z, --zone FILE       zone file (format: docs/zoneserver.md)\n"
		"  -a, --addr ADDR       numeric address to bind (default 127.0.0.1)\n"
		"  -p, --port PORT       UDP port, 0 for any free one (default 5353)\n"
		"  -t, --threads N       reader threads, 1-%d (default 2)\n"
		"  -f, --flavor NAME     RCU flavor of the readers: qsbr or memb\n"
		"                        (default qsbr)\n"
		"      --hold-us N       testing: keep each lookup N microseconds\n"
		"                        in its read-side section (default 0)\n"
		"  -h, --help            this text\n"
		"Signals: SIGHUP reloads the zone file, SIGUSR2 prints counters,\n"
		"SIGINT/SIGTERM stop the server.\n",
		argv0, MAX_THREADS);
}

static bool parse_uint(const char *s, unsigned long max, unsigned *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *s == '-' || *end || errno || v > max)
		return false;
	*out = (unsigned) v;
	return true;
}

struct control {
	struct zs_server *srv;
	sigset_t signals;
};

/* Reloads the zone and reports the outcome on stdout. */
static void reload(struct zs_server *srv, unsigned long number)
{
	struct zs_load_result res;
	char err[512];

	if (zs_server_load(srv, &res, err, sizeof(err)) == 0)
		printf("zoneserver: reload %lu ok: %zu names, %zu records; "
		       "%zu added, %zu replaced, %zu removed, %zu unchanged\n",
		       number, res.names, res.records, res.added, res.replaced,
		       res.removed, res.unchanged);
	else
		printf("zoneserver: reload %lu failed: %s; keeping the current "
		       "zone\n", number, err);
}

/* The control thread: every handled signal arrives here. */
static void *control_main(void *arg)
{
	struct control *ctl = arg;
	const struct rcu_flavor_struct *rcu = ctl->srv->flavor->rcu;
	unsigned long reloads = 0;

	/* Registered for the loads; offline while it waits for signals. */
	rcu->register_thread();
	rcu->thread_offline();
	for (;;) {
		int sig;

		if (sigwait(&ctl->signals, &sig) != 0)
			continue;
		if (sig == SIGHUP) {
			rcu->thread_online();
			reload(ctl->srv, ++reloads);
			rcu->thread_offline();
		} else if (sig == SIGUSR2) {
			zs_server_stats(ctl->srv, stdout);
		} else {
			printf("zoneserver: %s, shutting down\n", strsignal(sig));
			break;
		}
	}
	rcu->unregister_thread();
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "zone", required_argument, NULL, 'z' },
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "flavor", required_argument, NULL, 'f' },
		{ "hold-us", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct zs_config cfg = {
		.addr = "127.0.0.1",
		.port = 5353,
		.threads = 2,
		.flavor = &zs_flavor_qsbr,
	};
	const struct rcu_flavor_struct *rcu;
	struct zs_load_result res;
	struct zs_server srv;
	struct control ctl;
	unsigned long poisoned;
	pthread_t control;
	char err[512];
	int opt, rc, status = 0;

	while ((opt = getopt_long(argc, argv, "z:a:p:t:f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'z':
			cfg.zone_path = optarg;
			break;
		case 'a':
			cfg.addr = optarg;
			break;
		case 'p':
			if (!parse_uint(optarg, 65535, &cfg.port)) {
				fprintf(stderr, "zoneserver: bad port '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			if (!parse_uint(optarg, MAX_THREADS, &cfg.threads) ||
			    cfg.threads == 0) {
				fprintf(stderr, "zoneserver: --threads takes 1 to %d\n",
					MAX_THREADS);
				return 2;
			}
			break;
		case 'f':
			cfg.flavor = zs_flavor_by_name(optarg);
			if (!cfg.flavor) {
				fprintf(stderr, "zoneserver: unknown flavor '%s' "
					"(qsbr or memb)\n", optarg);
				return 2;
			}
			break;
		case 'H':
			if (!parse_uint(optarg, 1000000, &cfg.hold_us)) {
				fprintf(stderr, "zoneserver: --hold-us takes 0 to "
					"1000000\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc || !cfg.zone_path) {
		usage(stderr, argv[0]);
		return 2;
	}
	rcu = cfg.flavor->rcu;

	/*
	 * Block the handled signals before any thread exists, so that every
	 * thread (ours, the library's call_rcu and resize workers) inherits
	 * the mask and sigwait() in the control thread receives them all.
	 */
	sigemptyset(&ctl.signals);
	sigaddset(&ctl.signals, SIGHUP);
	sigaddset(&ctl.signals, SIGINT);
	sigaddset(&ctl.signals, SIGTERM);
	sigaddset(&ctl.signals, SIGUSR2);
	rc = pthread_sigmask(SIG_BLOCK, &ctl.signals, NULL);
	if (rc) {
		fprintf(stderr, "zoneserver: pthread_sigmask: %s\n", strerror(rc));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (zs_server_open(&srv, &cfg, err, sizeof(err))) {
		fprintf(stderr, "zoneserver: %s\n", err);
		return 1;
	}
	/* main stays registered (offline while it waits) until the end. */
	rcu->register_thread();
	if (zs_server_load(&srv, &res, err, sizeof(err))) {
		fprintf(stderr, "zoneserver: %s\n", err);
		rcu->unregister_thread();
		zs_server_close(&srv);
		return 1;
	}
	printf("zoneserver: loaded %s: %zu names, %zu records\n",
	       cfg.zone_path, res.names, res.records);
	rcu->thread_offline();

	if (zs_server_start(&srv, err, sizeof(err))) {
		fprintf(stderr, "zoneserver: %s\n", err);
		status = 1;
		goto cleanup;
	}
	ctl.srv = &srv;
	rc = pthread_create(&control, NULL, control_main, &ctl);
	if (rc) {
		fprintf(stderr, "zoneserver: pthread_create: %s\n", strerror(rc));
		zs_server_stop(&srv);
		status = 1;
		goto cleanup;
	}
	printf("zoneserver: listening on %s, %u reader threads, flavor %s\n",
	       srv.where, cfg.threads, cfg.flavor->name);
	pthread_join(control, NULL);
	zs_server_stop(&srv);

cleanup:
	rcu->thread_online();
	zs_server_clear(&srv);
	rcu->unregister_thread();
	zs_server_stats(&srv, stdout);
	/*
	 * Relaxed, pairs with nothing: every reader has been joined (or
	 * never started), and pthread_join() ordered its increments.
	 */
	poisoned = atomic_load_explicit(&srv.poisoned, memory_order_relaxed);
	zs_server_close(&srv);
	if (poisoned) {
		printf("zoneserver: ERROR: %lu reads of freed records\n", poisoned);
		return 3;
	}
	return status;
}
