/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The zoneserver's server side: sockets, reader threads, reloads
 * (docs/zoneserver.md, "Design").
 *
 * UDP: one socket per reader thread, all bound to the same address with
 * SO_REUSEPORT so that the kernel spreads datagrams over them; each
 * reader takes batches with recvmmsg(), answers the whole batch inside
 * one read-side section, and sends with sendmmsg().  TCP (RFC 7766):
 * one thread multiplexes every connection with epoll, answers the
 * queries of a connection in order, several per connection, and closes
 * connections idle longer than the idle timeout.
 *
 * The flavor is a run-time choice: everything here calls RCU through
 * the `const struct rcu_flavor_struct *` of a struct zs_flavor, and the
 * flavor headers are included only by flavor_memb.c and flavor_qsbr.c
 * (each maps the generic rcu_* names onto its own flavor, so one
 * translation unit can include only one of them).
 */
#ifndef ZONESERVER_SERVER_H
#define ZONESERVER_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "answer.h"

struct rcu_flavor_struct;

struct zs_flavor {
	const char *name;
	/* The flavor's exported urcu_<flavor>_flavor table. */
	const struct rcu_flavor_struct *rcu;
};

extern const struct zs_flavor zs_flavor_memb;	/* flavor_memb.c */
extern const struct zs_flavor zs_flavor_qsbr;	/* flavor_qsbr.c */

/* "memb" or "qsbr" to its flavor; NULL for any other name. */
const struct zs_flavor *zs_flavor_by_name(const char *name);

/* Per-thread counters. */
enum zs_stat {
	ZS_STAT_RECEIVED,	/* messages read (UDP and TCP) */
	ZS_STAT_TCP,		/* ... of which over TCP */
	ZS_STAT_NOERROR,	/* responses by rcode ... */
	ZS_STAT_NXDOMAIN,
	ZS_STAT_FORMERR,
	ZS_STAT_NOTIMP,
	ZS_STAT_REFUSED,
	ZS_STAT_SERVFAIL,
	ZS_STAT_OTHER,		/* NOTAUTH, BADVERS */
	ZS_STAT_TRUNCATED,	/* ... of which sent with TC set */
	ZS_STAT_DROPPED,	/* messages not answered */
	ZS_STAT_SEND_ERRORS,	/* sendmmsg()/write() failures */
	ZS_NSTATS
};

struct zs_server;

struct zs_worker {
	struct zs_server *srv;
	pthread_t tid;
	int fd;				/* UDP readers: their socket */
	/*
	 * Written by this thread only, read by zs_server_stats() from any
	 * thread: see count() in server.c.
	 */
	atomic_ulong stats[ZS_NSTATS];
} __attribute__((aligned(64)));

struct zs_config {
	const char *addr;		/* numeric IPv4 or IPv6 address */
	unsigned port;			/* 0: any free port */
	unsigned threads;		/* UDP reader threads, >= 1 */
	const struct zs_flavor *flavor;
	size_t nzones;
	const char *const *origins;	/* zone names ... */
	const char *const *paths;	/* ... and their master files */
	unsigned tcp_idle_ms;		/* RFC 7766 idle timeout */
	const char *nsid;		/* NSID sent when asked, or NULL */
	/* Testing: microseconds each query stays in its read-side section. */
	unsigned hold_us;
};

struct zs_server {
	const struct zs_flavor *flavor;
	struct zs_zones zones;
	int tcp_fd;
	int wake[2];			/* pipe: readable once stopping */
	char where[80];			/* "address:port" bound */
	unsigned nreaders;		/* UDP readers; workers[nreaders] is TCP */
	unsigned tcp_idle_ms;
	struct zs_worker *workers;
	bool started;
	atomic_int stop;
	/* Queries that met a poisoned (freed) zone version; must stay 0. */
	atomic_ulong poisoned;
};

/*
 * Binds the sockets (UDP and TCP on one port) and sets up the zone
 * slots, with nothing loaded.  Returns 0, or -1 with a message in @err.
 * The caller is registered with the flavor, online, as for
 * zs_server_load().
 */
int zs_server_open(struct zs_server *srv, const struct zs_config *cfg,
		   char *err, size_t errlen);

/*
 * Loads every zone file; each zone that loads is published with one
 * pointer store, replacing its previous version, which is freed after a
 * grace period (the caller waits for it; readers never wait).  A zone whose file is refused keeps
 * its version; its error is printed to @log.  Returns the number of
 * zones refused.  The caller must be registered with the server's
 * flavor and (QSBR) online; one loader at a time.
 */
unsigned zs_server_load(struct zs_server *srv, FILE *log);

/* Starts the threads.  Returns 0, or -1 with @err. */
int zs_server_start(struct zs_server *srv, char *err, size_t errlen);

/* Stops and joins the threads. */
void zs_server_stop(struct zs_server *srv);

/*
 * Unpublishes every version and frees it after a grace period.  Same
 * calling rules as zs_server_load(); the threads must be stopped.
 */
void zs_server_clear(struct zs_server *srv);

/* Closes the sockets and frees the slots.  Same calling rules. */
void zs_server_close(struct zs_server *srv);

/* Prints one line of counters, summed over the threads. */
void zs_server_stats(struct zs_server *srv, FILE *out);

#endif /* ZONESERVER_SERVER_H */
