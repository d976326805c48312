/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One version of one zone of the zoneserver: loaded from an RFC 1035
 * master file by libzscanner, checked, then immutable.
 *
 * A zone holds nodes (every owner name and every empty non-terminal
 * between an owner and the apex), each with its RRsets sorted by type.
 * An RRset is stored pre-encoded: the 8 bytes of type, class and TTL in
 * network order, shared by its records, and each record's RDLENGTH and
 * RDATA as they go on the wire (names uncompressed; dnswire.c
 * compresses them while writing).  Everything the answer code derives
 * from the zone is computed here once: the delegation point above each
 * node, the wildcard child of each node, and for MX, NS and SRV records
 * the node whose addresses go into the additional section.
 *
 * A version is never changed after zs_zone_load() returns; the server
 * publishes it with one pointer store and frees it with zs_zone_free()
 * a grace period after replacing it.  This file calls RCU only through
 * the index (zindex.h).
 */
#ifndef ZONESERVER_ZONE_H
#define ZONESERVER_ZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dns.h"
#include "zindex.h"

/* struct zs_zone.magic while the version may be in use ... */
#define ZS_MAGIC_LIVE		0x5a4f4e45u	/* "ZONE" */
/* ... and once zs_zone_free() has poisoned it. */
#define ZS_MAGIC_FREED		0xdeadf4eeu

struct zs_node;

struct zs_rrset {
	uint16_t type;
	uint16_t count;
	uint8_t tct[8];			/* type, class IN, TTL */
	const uint8_t *rdata;		/* count x (RDLENGTH, RDATA) */
	/*
	 * MX, NS and SRV: per record, the node whose A and AAAA RRsets
	 * follow in the additional section (the target itself, or the
	 * wildcard that covers it), or NULL.  NULL for other types.
	 */
	const struct zs_node *const *additional;
};

#define ZS_NODE_APEX		0x1

struct zs_node {
	const uint8_t *name;		/* lowercased wire form */
	uint16_t name_len;
	uint16_t nrrsets;		/* 0: an empty non-terminal */
	unsigned flags;
	const struct zs_rrset *rrsets;	/* sorted by type */
	const struct zs_node *wildcard;	/* the node "*.<name>", or NULL */
	/*
	 * The delegation point at or above this node (a node other than
	 * the apex that owns NS), or NULL: a node below it is glue or
	 * occluded, and answers for it are referrals.
	 */
	const struct zs_node *cut;
};

struct zs_arena_block;

struct zs_zone {
	/* Written when built and when poisoned; see ZS_MAGIC_*. */
	uint32_t magic;
	uint32_t serial;
	const struct zs_node *apex;
	/* The SOA, with the TTL of negative answers (RFC 2308, 5). */
	const struct zs_rrset *soa;
	uint8_t soa_negative_tct[8];
	struct zs_index *index;		/* key -> struct zs_node */
	size_t nodes, records;
	struct zs_arena_block *arena;	/* all memory of this version */
};

/*
 * Loads the master file @path for the zone @origin (presentation form,
 * "example.com" or "example.com."), whose readers use @flavor (see
 * zs_index_build()).  Returns 0 and a new version in
 * *@out, or -1 with "<path>:<line>: <reason>" in @err (@errlen bytes).
 * A file with a NUL byte, any syntax error, a record of another class
 * or outside the zone, no SOA (or several) at the apex, or a CNAME
 * beside other data is refused.
 */
int zs_zone_load(const char *origin, const char *path,
		 const struct rcu_flavor_struct *flavor, struct zs_zone **out,
		 char *err, size_t errlen);

/*
 * Poisons the version's magic and frees all its memory, once no reader
 * can reach it; the calling rules of zs_index_free() apply.
 */
void zs_zone_free(struct zs_zone *zone);

/*
 * The closest encloser of the name whose key is @key (zs_name_key()
 * gave @ends and @nlabels) among the zone's nodes, or NULL when the
 * name is not at or below the apex; *@exact tells whether it is the
 * name itself.
 */
const struct zs_node *zs_zone_lookup(const struct zs_zone *zone,
				     const uint8_t *key, const uint16_t *ends,
				     unsigned nlabels, bool *exact);

/* The node's RRset of @type, or NULL. */
const struct zs_rrset *zs_node_rrset(const struct zs_node *node, uint16_t type);

/* Converts presentation @text to a lowercased wire name; 0 if invalid. */
size_t zs_name_from_text(const char *text, uint8_t *wire);

#endif /* ZONESERVER_ZONE_H */
