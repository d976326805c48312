/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Answering queries from the zones (RFC 1034 4.3.2, RFC 4592), the way
 * Knot DNS answers them where the RFCs leave a choice
 * (docs/zoneserver.md, "Knot compatibility").
 *
 * The set of zones is fixed at startup: an index from the key of each
 * apex to its slot.  A slot's current version is an RCU-protected
 * pointer: zs_answer() must run inside a read-side section of the
 * server's flavor, and reads each slot pointer once per query, so a
 * query sees one version of each zone, whole.  Nothing here allocates.
 */
#ifndef ZONESERVER_ANSWER_H
#define ZONESERVER_ANSWER_H

#include "dns.h"
#include "zone.h"

struct zs_slot {
	/*
	 * The version being served; NULL until the first load.  Written
	 * by the loader with a release store (rcu_assign_pointer), read
	 * with a consume load in zs_answer().
	 */
	struct zs_zone *zone;
	const char *origin;		/* as given on the command line */
	const char *path;		/* its master file */
	/* The closest enclosing zone also served, for DS at our apex. */
	struct zs_slot *parent;
	uint8_t apex[DNS_NAME_MAX];
	size_t apex_len;
	uint8_t key[ZS_KEY_MAX];
	size_t keylen;
};

struct zs_zones {
	struct zs_index *index;		/* apex key -> struct zs_slot */
	struct zs_slot *slots;
	size_t n;
	/* Server identifier (RFC 5001) for queries asking NSID, or NULL. */
	const char *nsid;
};

/*
 * Sets up @zones for the @n zones origins[i] (files paths[i]), with no
 * version loaded yet, for readers of @flavor (see zs_index_build()).  Returns 0, or -1 with @err (a bad or repeated
 * origin, or out of memory).
 */
int zs_zones_init(struct zs_zones *zones, size_t n, const char *const *origins,
		  const char *const *paths, const struct rcu_flavor_struct *flavor,
		  char *err, size_t errlen);
void zs_zones_destroy(struct zs_zones *zones);

/* What happened to one message, for the counters. */
struct zs_answer_info {
	int rcode;			/* -1: dropped */
	bool tc;
	bool poisoned;			/* a freed zone version was met */
};

/*
 * The response to the @len bytes at @in, built in @out (@cap bytes, at
 * least DNS_UDP_MAX); returns its length, 0 for no response.  @tcp: the
 * query came over TCP (no truncation below 64 KiB, AXFR refused rather
 * than not implemented).  Call inside a read-side section.
 */
size_t zs_answer(const struct zs_zones *zones, const uint8_t *in, size_t len,
		 uint8_t *out, size_t cap, bool tcp, struct zs_answer_info *info);

/* Testing (--hold-us): called between finding a zone and reading it. */
extern void (*zs_answer_hold)(void);

#endif /* ZONESERVER_ANSWER_H */
