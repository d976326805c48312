/*
 * Zone data of the zoneserver example: RRsets and zone files.
 *
 * An RRset (all records of one owner name and one type) is the unit the
 * server stores in its cds_lfht and the unit a reload swaps, so a query
 * sees either the old or the new RRset of its name and type, whole.
 * Besides the A and AAAA RRsets, every owner name has one "name" RRset
 * (type ZS_TYPE_NAME, no records) that tells "this name exists" apart
 * from NXDOMAIN.
 *
 * This file knows nothing of RCU either: server.c publishes the RRsets
 * built here, retires them through call_rcu and frees them with
 * zs_rrset_free().  The zone-file format is documented in
 * docs/zoneserver.md.
 */
#ifndef ZONESERVER_ZONE_H
#define ZONESERVER_ZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <urcu/call-rcu.h>
#include <urcu/rculfhash.h>

#include "dns.h"

/* Marker type of the per-name RRset (type 0 is reserved in DNS). */
#define ZS_TYPE_NAME		0

/* struct zs_rrset.magic while the RRset may be in use ... */
#define ZS_MAGIC_LIVE		0x5a4f4e45u	/* "ZONE" */
/* ... and once zs_rrset_free() has poisoned it. */
#define ZS_MAGIC_FREED		0xdeadf4eeu

/* Most records one RRset may hold. */
#define ZS_RRSET_MAX		256

struct zs_rrset {
	struct cds_lfht_node node;	/* in the server's table */
	struct rcu_head rcu;		/* for call_rcu() once removed */
	/*
	 * Written when built and when poisoned, which happens only after
	 * a grace period that follows its removal from the table: a reader
	 * that ever finds ZS_MAGIC_FREED has used a freed RRset.
	 */
	uint32_t magic;
	uint32_t ttl;
	uint16_t type;
	uint16_t rdlen;			/* bytes per record: 4 or 16 (0: name) */
	uint16_t count;			/* records */
	uint16_t name_len;		/* wire length */
	unsigned long hash;
	/*
	 * Number of the last zone load that contained this RRset.  Read
	 * and written only by the thread that loads zones.
	 */
	unsigned long gen;
	uint8_t name[DNS_NAME_MAX];	/* lowercased wire format */
	uint8_t rdata[];		/* count * rdlen bytes */
};

/* Lookup key: what cds_lfht_lookup() hands to zs_rrset_match(). */
struct zs_key {
	const uint8_t *name;		/* lowercased wire format */
	size_t name_len;
	uint16_t type;
};

/* Hash of a key; equal keys hash equally. */
unsigned long zs_key_hash(const struct zs_key *key);

/* cds_lfht match function: the node's RRset has the key @key. */
int zs_rrset_match(struct cds_lfht_node *node, const void *key);

/* Same records and TTL (the key is assumed equal). */
bool zs_rrset_same_data(const struct zs_rrset *a, const struct zs_rrset *b);

/* Poisons the RRset's magic and data, then frees it. */
void zs_rrset_free(struct zs_rrset *rrset);

/*
 * Converts the presentation name @text ("www.example.com", trailing dot
 * optional, "." for the root) to lowercased wire format in @wire (at
 * least DNS_NAME_MAX bytes).  Labels hold letters, digits, '-', '_' and
 * '*'.  Returns the wire length, or 0 for an invalid name.
 */
size_t zs_name_from_text(const char *text, uint8_t *wire);

/* A parsed zone file: RRsets not yet published anywhere. */
struct zs_zone {
	struct zs_rrset **rrsets;
	size_t count;
	size_t records;			/* A and AAAA records in all RRsets */
	size_t names;			/* distinct owner names */
};

/*
 * Reads the zone file @path into @zone (RRsets sorted by name and
 * type).  Returns 0, or -1 with a message "<path>:<line>: <reason>" in
 * @err (@errlen bytes) and @zone left empty.
 */
int zs_zone_load(const char *path, struct zs_zone *zone,
		 char *err, size_t errlen);

/* Frees the zone's array and whatever RRsets it still points to. */
void zs_zone_discard(struct zs_zone *zone);

#endif /* ZONESERVER_ZONE_H */
