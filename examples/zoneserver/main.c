/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * zoneserver: a small authoritative DNS server over UDP and TCP that
 * answers from RFC 1035 master files held in memory as Knot DNS would,
 * and reloads them on SIGHUP while it keeps answering.
 * docs/zoneserver.md has the design, the options and how it is tested.
 *
 * Threads: main sets up and tears down; N UDP readers and one TCP
 * thread answer queries (server.c); one control thread receives every
 * signal the process handles through sigwait() (they are blocked
 * everywhere, so no signal handler runs):
 *   SIGHUP           reload every zone file;
 *   SIGUSR2          print the counters;
 *   SIGINT, SIGTERM  stop, print the counters and exit.
 * Exit status: 0, 1 when setup fails (a zone refused at startup
 * included), 2 for bad options, 3 when a query ever met a freed
 * (poisoned) zone version.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/flavor.h>

#include "server.h"

#define MAX_THREADS	256
#define MAX_ZONES	1024

static void usage(FILE *out, const char *argv0)
{
	fprintf(out,
		"usage: %s --zone ORIGIN=FILE [--zone ...] [options]\n"
		"  -z, --zone ORIGIN=FILE  serve zone ORIGIN from master file FILE\n"
		"                          (FILE alone: ORIGIN is its name less .zone)\n"
		"  -c, --config FILE       zones from FILE: lines \"ORIGIN FILE\", # comments\n"
		"  -a, --addr ADDR         numeric address to bind (default 127.0.0.1)\n"
		"  -p, --port PORT         UDP and TCP port, 0 for any free one\n"
		"                          (default 5353)\n"
		"  -t, --threads N         UDP reader threads, 1-%d (default 2)\n"
		"  -f, --flavor NAME       RCU flavor of the readers: qsbr or memb\n"
		"                          (default qsbr)\n"
		"      --tcp-idle-ms N     close TCP connections idle N ms (default\n"
		"                          10000)\n"
		"      --nsid TEXT         server identifier sent to queries asking\n"
		"                          for NSID (RFC 5001; default: none)\n"
		"      --hold-us N         testing: keep each query N microseconds\n"
		"                          in its read-side section (default 0)\n"
		"  -h, --help              this text\n"
		"Signals: SIGHUP reloads the zone files, SIGUSR2 prints counters,\n"
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

struct zone_list {
	const char *origins[MAX_ZONES];
	const char *paths[MAX_ZONES];
	size_t n;
};

/* "ORIGIN=FILE", or "FILE" named ORIGIN.zone. */
static bool add_zone(struct zone_list *zl, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *origin;

	if (zl->n == MAX_ZONES)
		return false;
	if (eq) {
		origin = strndup(arg, (size_t) (eq - arg));
		zl->paths[zl->n] = eq + 1;
	} else {
		char *copy = strdup(arg), *base;
		size_t len;

		if (!copy)
			return false;
		base = basename(copy);
		len = strlen(base);
		if (len > 5 && strcmp(base + len - 5, ".zone") == 0)
			base[len - 5] = 0;
		origin = strdup(base);
		free(copy);
		zl->paths[zl->n] = arg;
	}
	if (!origin)
		return false;
	zl->origins[zl->n++] = origin;
	return true;
}

static bool read_config(struct zone_list *zl, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	unsigned long lineno = 0;

	if (!f) {
		fprintf(stderr, "zoneserver: %s: %s\n", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f)) {
		char origin[1024], file[3072], extra;
		int n;

		lineno++;
		line[strcspn(line, "#\n")] = 0;
		n = sscanf(line, " %1023s %3071s %c", origin, file, &extra);
		if (n <= 0)
			continue;
		if (n != 2 || zl->n == MAX_ZONES) {
			fprintf(stderr, "zoneserver: %s:%lu: expected \"ORIGIN FILE\"\n",
				path, lineno);
			fclose(f);
			return false;
		}
		zl->origins[zl->n] = strdup(origin);
		zl->paths[zl->n] = strdup(file);
		if (!zl->origins[zl->n] || !zl->paths[zl->n]) {
			fclose(f);
			return false;
		}
		zl->n++;
	}
	fclose(f);
	return true;
}

struct control {
	struct zs_server *srv;
	sigset_t signals;
};

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
			unsigned failed;

			rcu->thread_online();
			failed = zs_server_load(ctl->srv, stdout);
			rcu->thread_offline();
			printf("zoneserver: reload %lu %s\n", ++reloads,
			       failed ? "failed" : "ok");
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
		{ "config", required_argument, NULL, 'c' },
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "threads", required_argument, NULL, 't' },
		{ "flavor", required_argument, NULL, 'f' },
		{ "tcp-idle-ms", required_argument, NULL, 'I' },
		{ "nsid", required_argument, NULL, 'N' },
		{ "hold-us", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct zone_list zl;
	struct zs_config cfg = {
		.addr = "127.0.0.1",
		.port = 5353,
		.threads = 2,
		.flavor = &zs_flavor_qsbr,
		.tcp_idle_ms = 10000,
	};
	const struct rcu_flavor_struct *rcu;
	struct zs_server srv;
	struct control ctl;
	unsigned long poisoned;
	pthread_t control;
	char err[512];
	int opt, rc, status = 0;

	while ((opt = getopt_long(argc, argv, "z:c:a:p:t:f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'z':
			if (!add_zone(&zl, optarg)) {
				fprintf(stderr, "zoneserver: bad --zone '%s'\n", optarg);
				return 2;
			}
			break;
		case 'c':
			if (!read_config(&zl, optarg))
				return 2;
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
		case 'I':
			if (!parse_uint(optarg, 3600000, &cfg.tcp_idle_ms) ||
			    cfg.tcp_idle_ms == 0) {
				fprintf(stderr, "zoneserver: --tcp-idle-ms takes 1 to "
					"3600000\n");
				return 2;
			}
			break;
		case 'N':
			if (strlen(optarg) == 0 || strlen(optarg) > DNS_NSID_MAX) {
				fprintf(stderr, "zoneserver: --nsid takes 1 to %d "
					"characters\n", DNS_NSID_MAX);
				return 2;
			}
			cfg.nsid = optarg;
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
	if (optind != argc || zl.n == 0) {
		usage(stderr, argv[0]);
		return 2;
	}
	cfg.nzones = zl.n;
	cfg.origins = zl.origins;
	cfg.paths = zl.paths;
	rcu = cfg.flavor->rcu;

	/*
	 * Block the handled signals before any thread exists, so that every
	 * thread (ours, the library's call_rcu workers) inherits the mask
	 * and sigwait() in the control thread receives them all.
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

	/*
	 * main stays registered (offline while it waits) until the end: it
	 * builds the zone table and the first versions, and frees them.
	 */
	rcu->register_thread();
	if (zs_server_open(&srv, &cfg, err, sizeof(err))) {
		fprintf(stderr, "zoneserver: %s\n", err);
		rcu->unregister_thread();
		return 1;
	}
	if (zs_server_load(&srv, stdout)) {
		fprintf(stderr, "zoneserver: a zone was refused at startup\n");
		status = 1;
		goto cleanup;
	}
	rcu->thread_offline();

	if (zs_server_start(&srv, err, sizeof(err))) {
		fprintf(stderr, "zoneserver: %s\n", err);
		rcu->thread_online();
		status = 1;
		goto cleanup;
	}
	ctl.srv = &srv;
	rc = pthread_create(&control, NULL, control_main, &ctl);
	if (rc) {
		fprintf(stderr, "zoneserver: pthread_create: %s\n", strerror(rc));
		zs_server_stop(&srv);
		rcu->thread_online();
		status = 1;
		goto cleanup;
	}
	printf("zoneserver: listening on %s (UDP and TCP), %u UDP threads, "
	       "flavor %s\n", srv.where, cfg.threads, cfg.flavor->name);
	pthread_join(control, NULL);
	zs_server_stop(&srv);
	rcu->thread_online();

cleanup:
	zs_server_clear(&srv);
	zs_server_stats(&srv, stdout);
	/*
	 * Relaxed, pairs with nothing: every thread has been joined (or
	 * never started), and pthread_join() ordered its increments.
	 */
	poisoned = atomic_load_explicit(&srv.poisoned, memory_order_relaxed);
	zs_server_close(&srv);
	rcu->unregister_thread();
	if (poisoned) {
		printf("zoneserver: ERROR: %lu queries met a freed zone version\n",
		       poisoned);
		return 3;
	}
	return status;
}
