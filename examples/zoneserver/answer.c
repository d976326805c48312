/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The answer algorithm (see answer.h).
 *
 * For a query in zone Z (the served zone whose apex is the longest
 * prefix of the name's key):
 *   1. find the closest encloser N of the name among Z's nodes (longest
 *      key prefix; empty non-terminals are nodes, so N is the real
 *      closest encloser of RFC 4592);
 *   2. N at or below a delegation point C (and not "DS at C itself"):
 *      a referral, NS of C in authority, their addresses in additional,
 *      AA clear unless an answer (a CNAME) was already written;
 *   3. N is not the name: its wildcard child "*.N" answers in its place
 *      with the name as owner, or there is none and the answer is
 *      NXDOMAIN with Z's SOA in authority;
 *   4. the node has the type (ANY: its RRset of lowest type, as Knot):
 *      the RRset, and for MX, NS and SRV the targets' A and AAAA in
 *      additional; or it has a CNAME: the CNAME, and 1. again for its
 *      target while that is in Z and not already in the answer; or
 *      NODATA with Z's SOA in authority.
 * A record set that does not fit in the answer or authority section
 * ends the response with TC set, keeping what was written before it (as
 * Knot); one that does not fit in the additional section is left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/flavor.h>

#include "answer.h"

void (*zs_answer_hold)(void);

/* Longest CNAME chain followed (the loop check usually ends it first). */
#define CHAIN_MAX		16
/* Targets whose addresses go to the additional section. */
#define ADDITIONAL_MAX		32

struct additional {
	const uint8_t *owner;		/* the target name, from rdata */
	const struct zs_node *node;
};

struct ctx {
	struct dns_msg m;
	const struct zs_zone *z;
	bool aa;
	bool poisoned;
	unsigned rcode;
	int ede;
	struct additional add[ADDITIONAL_MAX];
	unsigned nadd;
};

static bool live(const struct zs_zone *z)
{
	/* See server.c: a freed version would show ZS_MAGIC_FREED. */
	return *(const volatile uint32_t *) &z->magic == ZS_MAGIC_LIVE;
}

static void note_additional(struct ctx *c, const struct zs_rrset *set)
{
	const uint8_t *rd = set->rdata;
	size_t off = set->type == DNS_TYPE_MX ? 2 :
		     set->type == DNS_TYPE_SRV ? 6 : 0;

	if (!set->additional)
		return;
	for (unsigned i = 0; i < set->count; i++) {
		size_t rdlen = (size_t) rd[0] << 8 | rd[1];
		const uint8_t *target = rd + 2 + off;
		bool seen = false;

		if (set->additional[i]) {
			for (unsigned j = 0; j < c->nadd && !seen; j++)
				seen = dns_name_equal(c->add[j].owner, target);
			if (!seen && c->nadd < ADDITIONAL_MAX) {
				c->add[c->nadd].owner = target;
				c->add[c->nadd].node = set->additional[i];
				c->nadd++;
			}
		}
		rd += 2 + rdlen;
	}
}

/*
 * Writes @set with @owner into @section, whole or not at all.  In the
 * answer and authority sections a set that does not fit sets TC.
 */
static bool put_rrset(struct ctx *c, enum dns_section section,
		      const uint8_t *owner, size_t owner_len,
		      const struct zs_rrset *set, const uint8_t *tct)
{
	struct dns_msg_mark mark;
	const uint8_t *rd = set->rdata;

	dns_msg_mark(&c->m, &mark);
	for (unsigned i = 0; i < set->count; i++) {
		uint16_t rdlen = (uint16_t) (rd[0] << 8 | rd[1]);

		if (!dns_msg_put_rr(&c->m, section, owner, owner_len,
				    tct ? tct : set->tct, rd + 2, rdlen)) {
			dns_msg_rewind(&c->m, &mark);
			if (section != DNS_ADDITIONAL)
				c->m.tc = true;
			return false;
		}
		rd += 2 + rdlen;
	}
	return true;
}

static void put_soa(struct ctx *c)
{
	put_rrset(c, DNS_AUTHORITY, c->z->apex->name, c->z->apex->name_len,
		  c->z->soa, c->z->soa_negative_tct);
}

static void put_additional(struct ctx *c)
{
	for (unsigned i = 0; i < c->nadd; i++) {
		const struct zs_node *node = c->add[i].node;
		const uint8_t *owner = c->add[i].owner;
		size_t len = dns_name_len(owner);
		const struct zs_rrset *set;

		set = zs_node_rrset(node, DNS_TYPE_A);
		if (set)
			put_rrset(c, DNS_ADDITIONAL, owner, len, set, NULL);
		set = zs_node_rrset(node, DNS_TYPE_AAAA);
		if (set)
			put_rrset(c, DNS_ADDITIONAL, owner, len, set, NULL);
	}
}

static void referral(struct ctx *c, const struct zs_node *cut)
{
	const struct zs_rrset *ns = zs_node_rrset(cut, DNS_TYPE_NS);

	if (c->m.count[DNS_ANSWER] == 0)
		c->aa = false;
	if (put_rrset(c, DNS_AUTHORITY, cut->name, cut->name_len, ns, NULL))
		note_additional(c, ns);
}

/* @name (lowercased wire, @len bytes) is at or below @z's apex. */
static bool in_zone(const struct zs_zone *z, const uint8_t *name, size_t len)
{
	size_t alen = z->apex->name_len;
	const uint8_t *p = name;

	if (len < alen)
		return false;
	while ((size_t) (name + len - p) > alen)
		p += 1 + *p;
	return (size_t) (name + len - p) == alen &&
	       memcmp(p, z->apex->name, alen) == 0;
}

static void lower_copy(uint8_t *dst, const uint8_t *src, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t ch = src[i];

		dst[i] = ch >= 'A' && ch <= 'Z' ? (uint8_t) (ch - 'A' + 'a') : ch;
	}
}

/* Steps 1 to 4 above, from the query name in zone c->z. */
static void answer_in_zone(struct ctx *c, const struct dns_query *q,
			   const uint8_t *key, const uint16_t *ends,
			   unsigned nlabels)
{
	/* Owners written to the answer: the CNAME loop check. */
	uint8_t names[CHAIN_MAX + 1][DNS_NAME_MAX];
	const uint8_t *name = q->qname;
	size_t name_len = q->qname_len;
	uint8_t kbuf[ZS_KEY_MAX];
	uint16_t ebuf[128];

	for (unsigned chain = 0;; chain++) {
		const struct zs_node *node, *src;
		const struct zs_rrset *set;
		bool exact;

		node = zs_zone_lookup(c->z, key, ends, nlabels, &exact);
		if (!node)
			return;		/* not in the zone: cannot happen */
		if (node->cut && !(exact && node == node->cut &&
				   q->qtype == DNS_TYPE_DS)) {
			referral(c, node->cut);
			return;
		}
		src = exact ? node : node->wildcard;
		if (!src) {
			c->rcode = DNS_RCODE_NXDOMAIN;
			put_soa(c);
			return;
		}
		if (src->nrrsets == 0) {
			put_soa(c);		/* empty non-terminal: NODATA */
			return;
		}
		set = q->qtype == DNS_TYPE_ANY ? &src->rrsets[0]
					       : zs_node_rrset(src, q->qtype);
		if (set) {
			if (put_rrset(c, DNS_ANSWER, name, name_len, set, NULL))
				note_additional(c, set);
			return;
		}
		/*
		 * RRSIG and NSEC live beside a CNAME (RFC 4035, 2.5): no
		 * CNAME processing for them (Knot does the same).
		 */
		set = q->qtype == DNS_TYPE_RRSIG || q->qtype == DNS_TYPE_NSEC ?
		      NULL : zs_node_rrset(src, DNS_TYPE_CNAME);
		if (!set) {
			put_soa(c);		/* NODATA */
			return;
		}
		if (!put_rrset(c, DNS_ANSWER, name, name_len, set, NULL))
			return;
		{
			const uint8_t *target = set->rdata + 2;
			size_t tlen = dns_name_len(target);
			uint8_t lowered[DNS_NAME_MAX];

			if (chain >= CHAIN_MAX)
				return;
			lower_copy(lowered, target, tlen);
			if (!in_zone(c->z, lowered, tlen))
				return;
			/* A target already answered for: a loop, stop. */
			if (memcmp(lowered, q->qname, tlen) == 0 &&
			    tlen == q->qname_len)
				return;
			for (unsigned i = 0; i < chain; i++)
				if (memcmp(names[i], lowered, tlen) == 0 &&
				    dns_name_len(names[i]) == tlen)
					return;
			memcpy(names[chain], lowered, tlen);
			name = names[chain];
			name_len = tlen;
			zs_name_key(name, kbuf, ebuf, &nlabels);
			key = kbuf;
			ends = ebuf;
		}
	}
}

static void answer_query(struct ctx *c, const struct zs_zones *zones,
			 const struct dns_query *q, bool tcp)
{
	uint8_t key[ZS_KEY_MAX];
	uint16_t ends[128];
	unsigned nlabels;
	const struct zs_slot *slot;
	size_t matched = 0;

	c->aa = false;
	if (q->qclass != DNS_CLASS_IN && q->qclass != DNS_CLASS_ANY) {
		c->rcode = DNS_RCODE_REFUSED;	/* no zone of another class */
		return;
	}
	if (q->qtype == 0 || (q->qtype == DNS_TYPE_AXFR && !tcp)) {
		c->rcode = DNS_RCODE_NOTIMP;
		return;
	}
	if (q->qtype == DNS_TYPE_AXFR || q->qtype == DNS_TYPE_IXFR) {
		c->rcode = DNS_RCODE_NOTAUTH;	/* transfers are not allowed */
		return;
	}
	zs_name_key(q->qname, key, ends, &nlabels);
	slot = zs_index_longest_prefix(zones->index, key, ends, nlabels, &matched);
	/* DS at a zone's apex belongs to the parent side, if we serve it. */
	if (slot && q->qtype == DNS_TYPE_DS && slot->parent &&
	    matched == (nlabels ? ends[nlabels - 1] : 0))
		slot = slot->parent;
	if (slot)
		/*
		 * Consume: pairs with the loader's rcu_assign_pointer() of
		 * this version (server.c, publish()); orders the version's
		 * contents, written before it was published, before our
		 * reads of them.
		 */
		c->z = __atomic_load_n(&slot->zone, __ATOMIC_CONSUME);
	if (!slot || !c->z) {
		c->rcode = DNS_RCODE_REFUSED;
		c->ede = DNS_EDE_NOT_AUTH;
		return;
	}
	if (zs_answer_hold)
		zs_answer_hold();
	if (!live(c->z)) {
		c->poisoned = true;
		return;
	}
	c->aa = true;
	answer_in_zone(c, q, key, ends, nlabels);
	if (!c->m.tc)
		put_additional(c);
	if (!live(c->z))
		c->poisoned = true;
}

size_t zs_answer(const struct zs_zones *zones, const uint8_t *in, size_t len,
		 uint8_t *out, size_t cap, bool tcp, struct zs_answer_info *info)
{
	struct dns_query q;
	struct ctx c;
	enum dns_parse_status st;

	info->tc = false;
	info->poisoned = false;
	st = dns_parse_query(in, len, tcp ? DNS_TCP_MAX : DNS_QUERY_MAX, &q);
	switch (dns_parse_action(st)) {
	case DNS_ACTION_DROP:
		info->rcode = -1;
		return 0;
	case DNS_ACTION_FORMERR:
		info->rcode = DNS_RCODE_FORMERR;
		return dns_msg_header_only(out, &q, DNS_RCODE_FORMERR);
	case DNS_ACTION_ANSWER:
		break;
	}
	dns_msg_init(&c.m, out, cap, &q, tcp, (const uint8_t *) zones->nsid,
		     zones->nsid ? strlen(zones->nsid) : 0);
	c.z = NULL;
	c.aa = false;
	c.poisoned = false;
	c.rcode = DNS_RCODE_NOERROR;
	c.ede = -1;
	c.nadd = 0;
	if (st == DNS_PARSE_OPCODE) {
		unsigned op = DNS_OPCODE(q.flags);

		c.rcode = op == DNS_OPCODE_NOTIFY || op == DNS_OPCODE_UPDATE ?
			  DNS_RCODE_NOTAUTH : DNS_RCODE_NOTIMP;
	} else if (q.edns && q.edns_version != 0) {
		c.rcode = DNS_RCODE_BADVERS;	/* we speak EDNS version 0 */
	} else {
		answer_query(&c, zones, &q, tcp);
	}
	if (c.poisoned) {
		struct dns_msg_mark mark = { .len = c.m.len };

		/* Nothing read from a freed version may leave. */
		mark.len = DNS_HEADER_LEN + (q.qname_len ? q.qname_len + 4u : 0u);
		mark.nnames = 0;
		dns_msg_rewind(&c.m, &mark);
		c.m.tc = false;
		c.rcode = DNS_RCODE_SERVFAIL;
		c.aa = false;
	}
	info->rcode = (int) c.rcode;
	info->tc = c.m.tc;
	info->poisoned = c.poisoned;
	return dns_msg_finish(&c.m, c.rcode, c.aa, c.ede);
}

/* ------------------------------------------------------------------------
 * The set of zones.
 */
int zs_zones_init(struct zs_zones *zones, size_t n, const char *const *origins,
		  const char *const *paths, const struct rcu_flavor_struct *flavor,
		  char *err, size_t errlen)
{
	struct zs_index_entry *entries;

	memset(zones, 0, sizeof(*zones));
	zones->slots = calloc(n ? n : 1, sizeof(*zones->slots));
	entries = calloc(n ? n : 1, sizeof(*entries));
	if (!zones->slots || !entries) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	zones->n = n;
	for (size_t i = 0; i < n; i++) {
		struct zs_slot *s = &zones->slots[i];

		s->origin = origins[i];
		s->path = paths[i];
		s->apex_len = zs_name_from_text(origins[i], s->apex);
		if (!s->apex_len) {
			snprintf(err, errlen, "bad zone name '%s'", origins[i]);
			goto fail;
		}
		s->keylen = zs_name_key(s->apex, s->key, NULL, NULL);
		for (size_t j = 0; j < i; j++) {
			if (zones->slots[j].keylen == s->keylen &&
			    memcmp(zones->slots[j].key, s->key, s->keylen) == 0) {
				snprintf(err, errlen, "zone '%s' given twice",
					 origins[i]);
				goto fail;
			}
		}
		entries[i].key = s->key;
		entries[i].keylen = s->keylen;
		entries[i].value = s;
	}
	zones->index = zs_index_build(flavor, entries, n);
	if (!zones->index) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* Each zone's closest served ancestor: the longest proper prefix. */
	flavor->read_lock();
	for (size_t i = 0; i < n; i++) {
		struct zs_slot *s = &zones->slots[i];
		uint16_t ends[128];
		unsigned nl;
		uint8_t key[ZS_KEY_MAX];
		size_t matched;

		zs_name_key(s->apex, key, ends, &nl);
		if (nl)
			s->parent = zs_index_longest_prefix(zones->index, key, ends,
							    nl - 1, &matched);
	}
	flavor->read_unlock();
	free(entries);
	return 0;
fail:
	free(entries);
	zs_zones_destroy(zones);
	return -1;
}

void zs_zones_destroy(struct zs_zones *zones)
{
	if (zones->index)
		zs_index_free(zones->index);
	free(zones->slots);
	zones->index = NULL;
	zones->slots = NULL;
	zones->n = 0;
}
