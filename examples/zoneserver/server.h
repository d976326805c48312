/*
 * The zoneserver example's server: the RCU-protected zone table, the
 * reader threads that answer queries from it, and the loader that swaps
 * a new zone in under them.  docs/zoneserver.md explains the design.
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

#include "dns.h"
#include "zone.h"

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

/* Per-reader counters. */
enum zs_stat {
	ZS_STAT_RECEIVED,	/* datagrams read */
	ZS_STAT_NOERROR,	/* responses by rcode ... */
	ZS_STAT_NXDOMAIN,
	ZS_STAT_FORMERR,
	ZS_STAT_NOTIMP,
	ZS_STAT_REFUSED,
	ZS_STAT_SERVFAIL,
	ZS_STAT_BADVERS,
	ZS_STAT_TRUNCATED,	/* ... of which sent with TC set */
	ZS_STAT_DROPPED,	/* datagrams not answered */
	ZS_STAT_SEND_ERRORS,	/* sendto() failures */
	ZS_NSTATS
};

struct zs_server;

struct zs_reader {
	struct zs_server *srv;
	pthread_t tid;
	/*
	 * Written by this reader only, read by zs_server_stats() from any
	 * thread: see count() in server.c.
	 */
	atomic_ulong stats[ZS_NSTATS];
} __attribute__((aligned(64)));

struct zs_config {
	const char *addr;		/* numeric IPv4 or IPv6 address */
	unsigned port;			/* 0: any free port */
	unsigned threads;		/* reader threads, >= 1 */
	const struct zs_flavor *flavor;
	const char *zone_path;
	/* Testing: microseconds each lookup stays in its read-side section. */
	unsigned hold_us;
};

struct zs_server {
	const struct zs_flavor *flavor;
	struct cds_lfht *ht;		/* (name, type) -> struct zs_rrset */
	int fd;				/* the UDP socket all readers share */
	int wake[2];			/* pipe: readable once stopping */
	char where[80];			/* "address:port" bound */
	unsigned nreaders;
	unsigned hold_us;		/* see struct zs_config */
	struct zs_reader *readers;
	atomic_int stop;
	/* Reads that found a poisoned (freed) RRset; must stay 0. */
	atomic_ulong poisoned;
	const char *zone_path;
	/* Loader state, used only by the thread calling zs_server_load(). */
	unsigned long gen;
};

/* What one zs_server_load() changed. */
struct zs_load_result {
	size_t names, records;		/* in the new zone */
	size_t added, replaced, removed, unchanged;	/* RRsets */
};

/*
 * Binds the socket and creates the (empty) table.  Returns 0, or -1
 * with a message in @err.  Call before any other thread exists that
 * should keep its signals blocked: the table may start a worker later.
 */
int zs_server_open(struct zs_server *srv, const struct zs_config *cfg,
		   char *err, size_t errlen);

/*
 * Reads the zone file and makes the table hold exactly its RRsets:
 * new ones added, changed ones replaced (cds_lfht_add_replace), missing
 * ones deleted; the RRsets taken out are freed through call_rcu.  On a
 * zone-file error returns -1 with a message in @err and changes
 * nothing.  The caller must be registered with the server's flavor and
 * (QSBR) online, outside any read-side section; one loader at a time.
 */
int zs_server_load(struct zs_server *srv, struct zs_load_result *res,
		   char *err, size_t errlen);

/* Starts the reader threads.  Returns 0, or -1 with @err. */
int zs_server_start(struct zs_server *srv, char *err, size_t errlen);

/* Stops and joins the reader threads. */
void zs_server_stop(struct zs_server *srv);

/*
 * Empties the table (every RRset through call_rcu) and waits for the
 * callbacks with the flavor's rcu_barrier().  Same calling rules as
 * zs_server_load(); the readers must be stopped.
 */
void zs_server_clear(struct zs_server *srv);

/* Destroys the empty table and closes the socket.  Any thread. */
void zs_server_close(struct zs_server *srv);

/* Prints one line of counters, summed over the readers. */
void zs_server_stats(struct zs_server *srv, FILE *out);

#endif /* ZONESERVER_SERVER_H */
