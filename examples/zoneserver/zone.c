/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Loading, checking and indexing one zone version (see zone.h).
 *
 * libzscanner parses the master file ($ORIGIN, $TTL, $INCLUDE, relative
 * names, every record type) into wire-format records; this file collects
 * them, sorts them by (key of the owner, type, data), merges them into
 * nodes and RRsets, adds the empty non-terminals, and lays everything
 * out in one arena so that the version is freed in a few calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libzscanner/error.h>
#include <libzscanner/scanner.h>
#include <urcu/flavor.h>

#include "zone.h"

/* ------------------------------------------------------------------------
 * Arena: the memory of one version, freed at once.
 */
#define ARENA_BLOCK	(64 * 1024)

struct zs_arena_block {
	struct zs_arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static void *arena_alloc(struct zs_arena_block **arena, size_t size)
{
	struct zs_arena_block *b = *arena;

	size = (size + 15) & ~(size_t) 15;
	if (!b || b->size - b->used < size) {
		size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->next = *arena;
		b->used = 0;
		b->size = cap;
		*arena = b;
	}
	b->used += size;
	return (char *) b->data + b->used - size;
}

static void *arena_copy(struct zs_arena_block **arena, const void *p, size_t n)
{
	void *q = arena_alloc(arena, n ? n : 1);

	if (q)
		memcpy(q, p, n);
	return q;
}

static void arena_free(struct zs_arena_block *b)
{
	while (b) {
		struct zs_arena_block *next = b->next;

		free(b);
		b = next;
	}
}

/* ------------------------------------------------------------------------
 * Records as scanned.
 */
struct record {
	uint8_t *owner;			/* lowercased wire */
	uint8_t *key;
	uint16_t owner_len, keylen;
	uint16_t type, rdlen;
	uint32_t ttl;
	uint8_t *rdata;
	unsigned long line;
};

struct load {
	const char *path;
	uint8_t origin[DNS_NAME_MAX];
	size_t origin_len;
	struct zs_arena_block *tmp;	/* the records, freed after the build */
	struct record *recs;
	size_t nrecs, cap;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct load *ld, unsigned long line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ld->failed)
		return;
	ld->failed = true;
	n = line ? snprintf(ld->err, ld->errlen, "%s:%lu: ", ld->path, line)
		 : snprintf(ld->err, ld->errlen, "%s: ", ld->path);
	if (n < 0 || (size_t) n >= ld->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ld->err + n, ld->errlen - (size_t) n, fmt, ap);
	va_end(ap);
}

static void lower_name(uint8_t *name)
{
	for (; *name; name += 1 + *name)
		for (unsigned i = 1; i <= *name; i++)
			if (name[i] >= 'A' && name[i] <= 'Z')
				name[i] = (uint8_t) (name[i] - 'A' + 'a');
}

/* @name (lowercased wire) is @origin or below it. */
static bool in_zone(const uint8_t *name, size_t len, const uint8_t *origin,
		    size_t origin_len)
{
	const uint8_t *p = name;

	if (len < origin_len)
		return false;
	/* Walk labels until the remaining length equals the origin's. */
	while ((size_t) (name + len - p) > origin_len)
		p += 1 + *p;
	return (size_t) (name + len - p) == origin_len &&
	       memcmp(p, origin, origin_len) == 0;
}

static void on_record(zs_scanner_t *s)
{
	struct load *ld = s->process.data;
	unsigned long line = (unsigned long) s->line_counter;
	uint8_t key[ZS_KEY_MAX];
	struct record *r;

	if (ld->failed) {
		s->state = ZS_STATE_STOP;
		return;
	}
	if (s->r_class != DNS_CLASS_IN) {
		fail(ld, line, "class %u: only IN is served", s->r_class);
		s->state = ZS_STATE_STOP;
		return;
	}
	lower_name(s->r_owner);
	if (!in_zone(s->r_owner, s->r_owner_length, ld->origin, ld->origin_len)) {
		fail(ld, line, "owner outside the zone");
		s->state = ZS_STATE_STOP;
		return;
	}
	if (s->r_type == DNS_TYPE_OPT || s->r_type == 0) {
		fail(ld, line, "type %u cannot be stored in a zone", s->r_type);
		s->state = ZS_STATE_STOP;
		return;
	}
	if (ld->nrecs == ld->cap) {
		size_t cap = ld->cap ? 2 * ld->cap : 256;
		struct record *recs = realloc(ld->recs, cap * sizeof(*recs));

		if (!recs) {
			fail(ld, line, "out of memory");
			s->state = ZS_STATE_STOP;
			return;
		}
		ld->recs = recs;
		ld->cap = cap;
	}
	r = &ld->recs[ld->nrecs];
	r->owner_len = (uint16_t) s->r_owner_length;
	r->keylen = (uint16_t) zs_name_key(s->r_owner, key, NULL, NULL);
	r->owner = arena_copy(&ld->tmp, s->r_owner, s->r_owner_length);
	r->key = arena_copy(&ld->tmp, key, r->keylen);
	r->rdata = arena_copy(&ld->tmp, s->r_data, s->r_data_length);
	if (!r->owner || !r->key || !r->rdata) {
		fail(ld, line, "out of memory");
		s->state = ZS_STATE_STOP;
		return;
	}
	r->type = s->r_type;
	r->rdlen = (uint16_t) s->r_data_length;
	r->ttl = s->r_ttl;
	r->line = line;
	ld->nrecs++;
}

static void on_error(zs_scanner_t *s)
{
	struct load *ld = s->process.data;

	fail(ld, (unsigned long) s->line_counter, "%s", zs_strerror(s->error.code));
	s->state = ZS_STATE_STOP;
}

static int key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int record_cmp(const void *x, const void *y)
{
	const struct record *a = x, *b = y;
	int c = key_cmp(a->key, a->keylen, b->key, b->keylen);

	if (c)
		return c;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	c = key_cmp(a->rdata, a->rdlen, b->rdata, b->rdlen);
	if (c)
		return c;
	/* Same record twice: keep the first line's TTL. */
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Reads @path whole; refuses NUL bytes, naming their line. */
static char *read_file(struct load *ld, size_t *len)
{
	FILE *f = fopen(ld->path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL;
	unsigned long line = 1;

	if (!f) {
		fail(ld, 0, "%s", strerror(errno));
		return NULL;
	}
	for (;;) {
		char *b;
		size_t got;

		if (n == cap || !buf) {
			cap = buf ? 2 * cap : cap;
			b = realloc(buf, cap);
			if (!b) {
				fail(ld, 0, "out of memory");
				goto fail;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fail(ld, 0, "read error");
		goto fail;
	}
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n')
			line++;
		else if (buf[i] == '\0') {
			fail(ld, line, "NUL byte");
			free(buf);
			return NULL;
		}
	}
	*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

size_t zs_name_from_text(const char *text, uint8_t *wire)
{
	size_t len = 0, n = strlen(text);

	if (n && text[n - 1] == '.')
		n--;
	if (n == 0 && strcmp(text, ".") != 0 && *text)
		return 0;
	for (size_t i = 0; i < n;) {
		size_t l = 0;

		while (i + l < n && text[i + l] != '.')
			l++;
		if (l == 0 || l > DNS_LABEL_MAX || len + 1 + l + 1 > DNS_NAME_MAX)
			return 0;
		wire[len++] = (uint8_t) l;
		for (size_t j = 0; j < l; j++) {
			char c = text[i + j];

			wire[len++] = (uint8_t) (c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
		}
		i += l + 1;
	}
	wire[len++] = 0;
	return len;
}

/* ------------------------------------------------------------------------
 * Building the version.
 */

/* A name of the zone (owner or empty non-terminal) while building. */
struct bname {
	const uint8_t *name, *key;
	uint16_t name_len, keylen;
};

static int bname_cmp(const void *x, const void *y)
{
	const struct bname *a = x, *b = y;

	return key_cmp(a->key, a->keylen, b->key, b->keylen);
}

/* Where the name in the rdata of @type that gets additional data is. */
static int additional_offset(uint16_t type)
{
	switch (type) {
	case DNS_TYPE_NS:
		return 0;
	case DNS_TYPE_MX:
		return 2;
	case DNS_TYPE_SRV:
		return 6;
	default:
		return -1;
	}
}

const struct zs_rrset *zs_node_rrset(const struct zs_node *node, uint16_t type)
{
	for (unsigned i = 0; i < node->nrrsets; i++) {
		if (node->rrsets[i].type == type)
			return &node->rrsets[i];
		if (node->rrsets[i].type > type)
			break;
	}
	return NULL;
}

const struct zs_node *zs_zone_lookup(const struct zs_zone *zone,
				     const uint8_t *key, const uint16_t *ends,
				     unsigned nlabels, bool *exact)
{
	size_t matched = 0;
	const struct zs_node *node =
		zs_index_longest_prefix(zone->index, key, ends, nlabels, &matched);

	*exact = node && matched == (nlabels ? ends[nlabels - 1] : 0);
	return node;
}

/* The node whose addresses answer for @target, or NULL. */
static const struct zs_node *additional_node(const struct zs_zone *zone,
					     const uint8_t *target)
{
	uint8_t key[ZS_KEY_MAX], lowered[DNS_NAME_MAX];
	uint16_t ends[128];
	unsigned nlabels;
	const struct zs_node *node;
	bool exact;

	memcpy(lowered, target, dns_name_len(target));
	lower_name(lowered);
	zs_name_key(lowered, key, ends, &nlabels);
	node = zs_zone_lookup(zone, key, ends, nlabels, &exact);
	if (node && !exact)
		node = node->wildcard;
	if (node && (zs_node_rrset(node, DNS_TYPE_A) ||
		     zs_node_rrset(node, DNS_TYPE_AAAA)))
		return node;
	return NULL;
}

/* Label ends of a key: offsets after each 0x00. */
static unsigned key_ends(const uint8_t *key, size_t keylen, uint16_t *ends)
{
	unsigned n = 0;

	for (size_t i = 0; i < keylen; i++)
		if (key[i] == 0)
			ends[n++] = (uint16_t) (i + 1);
	return n;
}

static int build(struct load *ld, const struct rcu_flavor_struct *flavor,
		 struct zs_zone *z)
{
	struct zs_arena_block **arena = &z->arena;
	struct record *recs = ld->recs;
	size_t n = 0, nnames = 0, nnodes = 0;
	struct bname *names = NULL;
	struct zs_node *nodes = NULL;
	struct zs_index_entry *entries = NULL;
	uint8_t origin_key[ZS_KEY_MAX];
	size_t origin_keylen = zs_name_key(ld->origin, origin_key, NULL, NULL);
	int rc = -1;

	/* Sort, and drop records that repeat one already seen. */
	if (ld->nrecs)
		qsort(recs, ld->nrecs, sizeof(*recs), record_cmp);
	for (size_t i = 0; i < ld->nrecs; i++) {
		if (n && recs[n - 1].type == recs[i].type &&
		    key_cmp(recs[n - 1].key, recs[n - 1].keylen, recs[i].key,
			    recs[i].keylen) == 0 &&
		    key_cmp(recs[n - 1].rdata, recs[n - 1].rdlen, recs[i].rdata,
			    recs[i].rdlen) == 0)
			continue;
		recs[n++] = recs[i];
	}
	z->records = n;

	/* Every owner and every name between it and the apex. */
	names = malloc((n + 1) * sizeof(*names));
	if (!names)
		goto oom;
	{
		size_t cap = n + 1;

		for (size_t i = 0; i < n; i++) {
			const uint8_t *p = recs[i].owner;

			if (i && key_cmp(recs[i - 1].key, recs[i - 1].keylen,
					 recs[i].key, recs[i].keylen) == 0)
				continue;
			for (;;) {
				size_t len = recs[i].owner_len - (size_t) (p - recs[i].owner);
				uint8_t key[ZS_KEY_MAX];

				if (nnames == cap) {
					struct bname *b = realloc(names, 2 * cap * sizeof(*names));

					if (!b)
						goto oom;
					names = b;
					cap *= 2;
				}
				names[nnames].name = p;
				names[nnames].name_len = (uint16_t) len;
				names[nnames].keylen = (uint16_t) zs_name_key(p, key, NULL, NULL);
				names[nnames].key = arena_copy(arena, key, names[nnames].keylen);
				if (!names[nnames].key)
					goto oom;
				nnames++;
				if (len == ld->origin_len)
					break;
				p += 1 + *p;
			}
		}
	}
	qsort(names, nnames, sizeof(*names), bname_cmp);
	nodes = arena_alloc(arena, (nnames ? nnames : 1) * sizeof(*nodes));
	entries = malloc((nnames ? nnames : 1) * sizeof(*entries));
	if (!nodes || !entries)
		goto oom;
	for (size_t i = 0, r = 0; i < nnames; i++) {
		struct zs_node *node;
		struct zs_rrset *sets;
		size_t first = r, nsets = 0;

		if (nnodes && bname_cmp(&names[i], &names[i - 1]) == 0)
			continue;
		node = &nodes[nnodes++];
		memset(node, 0, sizeof(*node));
		node->name = arena_copy(arena, names[i].name, names[i].name_len);
		node->name_len = names[i].name_len;
		if (!node->name)
			goto oom;
		if (names[i].keylen == origin_keylen)
			node->flags |= ZS_NODE_APEX;
		/* This node's records: recs[first .. r). */
		while (r < n && key_cmp(recs[r].key, recs[r].keylen, names[i].key,
					names[i].keylen) == 0) {
			if (r == first || recs[r].type != recs[r - 1].type)
				nsets++;
			r++;
		}
		sets = arena_alloc(arena, (nsets ? nsets : 1) * sizeof(*sets));
		if (!sets)
			goto oom;
		node->rrsets = sets;
		node->nrrsets = (uint16_t) nsets;
		for (size_t a = first, s = 0; a < r; s++) {
			size_t b = a, bytes = 0;
			uint8_t *rd;
			uint32_t ttl = recs[a].ttl;

			for (; b < r && recs[b].type == recs[a].type; b++)
				bytes += 2 + (size_t) recs[b].rdlen;
			/* RFC 2181 5.2: one TTL per RRset; the lowest wins. */
			for (size_t c = a; c < b; c++)
				if (recs[c].ttl < ttl)
					ttl = recs[c].ttl;
			if (b - a > 65535) {
				fail(ld, recs[a].line, "RRset too large");
				goto out;
			}
			rd = arena_alloc(arena, bytes ? bytes : 1);
			if (!rd)
				goto oom;
			sets[s].type = recs[a].type;
			sets[s].count = (uint16_t) (b - a);
			sets[s].tct[0] = (uint8_t) (recs[a].type >> 8);
			sets[s].tct[1] = (uint8_t) recs[a].type;
			sets[s].tct[2] = 0;
			sets[s].tct[3] = DNS_CLASS_IN;
			sets[s].tct[4] = (uint8_t) (ttl >> 24);
			sets[s].tct[5] = (uint8_t) (ttl >> 16);
			sets[s].tct[6] = (uint8_t) (ttl >> 8);
			sets[s].tct[7] = (uint8_t) ttl;
			sets[s].rdata = rd;
			sets[s].additional = NULL;
			for (size_t c = a; c < b; c++) {
				rd[0] = (uint8_t) (recs[c].rdlen >> 8);
				rd[1] = (uint8_t) recs[c].rdlen;
				memcpy(rd + 2, recs[c].rdata, recs[c].rdlen);
				rd += 2 + recs[c].rdlen;
			}
			if (recs[a].type == DNS_TYPE_CNAME &&
			    (nsets > 1 || b - a > 1)) {
				fail(ld, recs[a].line, nsets > 1 ?
				     "CNAME and other data at one name" :
				     "more than one CNAME at one name");
				goto out;
			}
			if (recs[a].type == DNS_TYPE_SOA &&
			    (!(node->flags & ZS_NODE_APEX) || b - a > 1)) {
				fail(ld, recs[a].line, b - a > 1 ?
				     "more than one SOA" : "SOA not at the apex");
				goto out;
			}
			a = b;
		}
		entries[nnodes - 1].key = names[i].key;
		entries[nnodes - 1].keylen = names[i].keylen;
		entries[nnodes - 1].value = node;
	}
	z->nodes = nnodes;
	z->index = zs_index_build(flavor, entries, nnodes);
	if (!z->index)
		goto oom;

	/*
	 * Apex, SOA, delegation points, wildcards (parents come first).
	 * The index is searched inside a read-side section, as readers do.
	 */
	flavor->read_lock();
	for (size_t i = 0; i < nnodes; i++) {
		struct zs_node *node = &nodes[i];
		uint16_t ends[128];
		uint8_t key[ZS_KEY_MAX];
		size_t keylen = zs_name_key(node->name, key, NULL, NULL);
		unsigned nl = key_ends(key, keylen, ends);
		struct zs_node *parent = NULL;

		if (node->flags & ZS_NODE_APEX) {
			z->apex = node;
			continue;
		}
		parent = zs_index_find(z->index, key, nl >= 2 ? ends[nl - 2] : 0);
		node->cut = parent->cut;
		if (!node->cut && zs_node_rrset(node, DNS_TYPE_NS))
			node->cut = node;
		if (node->name[0] == 1 && node->name[1] == '*')
			parent->wildcard = node;
	}
	flavor->read_unlock();
	z->soa = z->apex ? zs_node_rrset(z->apex, DNS_TYPE_SOA) : NULL;
	if (!z->soa) {
		fail(ld, 0, "no SOA record at the apex");
		goto out;
	}
	{
		/* rdata: RDLENGTH, MNAME, RNAME, serial, ..., minimum. */
		const uint8_t *rd = z->soa->rdata + 2;
		size_t names_len = dns_name_len(rd);
		const uint8_t *fixed;
		uint32_t minimum, ttl = (uint32_t) z->soa->tct[4] << 24 |
			(uint32_t) z->soa->tct[5] << 16 |
			(uint32_t) z->soa->tct[6] << 8 | z->soa->tct[7];

		names_len += dns_name_len(rd + names_len);
		fixed = rd + names_len;
		z->serial = (uint32_t) fixed[0] << 24 | (uint32_t) fixed[1] << 16 |
			    (uint32_t) fixed[2] << 8 | fixed[3];
		minimum = (uint32_t) fixed[16] << 24 | (uint32_t) fixed[17] << 16 |
			  (uint32_t) fixed[18] << 8 | fixed[19];
		if (minimum < ttl)
			ttl = minimum;
		memcpy(z->soa_negative_tct, z->soa->tct, 4);
		z->soa_negative_tct[4] = (uint8_t) (ttl >> 24);
		z->soa_negative_tct[5] = (uint8_t) (ttl >> 16);
		z->soa_negative_tct[6] = (uint8_t) (ttl >> 8);
		z->soa_negative_tct[7] = (uint8_t) ttl;
	}

	/* Additional-section targets of MX, NS and SRV. */
	flavor->read_lock();
	for (size_t i = 0; i < nnodes; i++) {
		for (unsigned s = 0; s < nodes[i].nrrsets; s++) {
			struct zs_rrset *set = (struct zs_rrset *) &nodes[i].rrsets[s];
			int off = additional_offset(set->type);
			const struct zs_node **add;
			const uint8_t *rd = set->rdata;

			if (off < 0)
				continue;
			add = arena_alloc(arena, set->count * sizeof(*add));
			if (!add) {
				flavor->read_unlock();
				goto oom;
			}
			for (unsigned c = 0; c < set->count; c++) {
				size_t rdlen = (size_t) rd[0] << 8 | rd[1];

				add[c] = rdlen > (size_t) off ?
					additional_node(z, rd + 2 + off) : NULL;
				rd += 2 + rdlen;
			}
			set->additional = add;
		}
	}
	flavor->read_unlock();
	rc = 0;
	goto out;
oom:
	fail(ld, 0, "out of memory");
out:
	free(names);
	free(entries);
	return rc;
}

int zs_zone_load(const char *origin, const char *path,
		 const struct rcu_flavor_struct *flavor, struct zs_zone **out,
		 char *err, size_t errlen)
{
	struct load ld = { .path = path, .err = err, .errlen = errlen };
	struct zs_zone *z = NULL;
	zs_scanner_t *s = NULL;
	size_t len = 0;
	char *text;

	*out = NULL;
	ld.origin_len = zs_name_from_text(origin, ld.origin);
	if (!ld.origin_len) {
		snprintf(err, errlen, "%s: bad zone name '%s'", path, origin);
		return -1;
	}
	text = read_file(&ld, &len);
	if (!text)
		return -1;
	s = malloc(sizeof(*s));
	if (!s) {
		fail(&ld, 0, "out of memory");
		goto out;
	}
	if (zs_init(s, origin, DNS_CLASS_IN, 3600) != 0 ||
	    zs_set_input_string(s, text, len) != 0 ||
	    zs_set_processing(s, on_record, on_error, &ld) != 0) {
		fail(&ld, 0, "%s", zs_strerror(s->error.code));
		zs_deinit(s);
		goto out;
	}
	if (zs_parse_all(s) != 0 && !ld.failed)
		fail(&ld, (unsigned long) s->line_counter, "%s",
		     zs_strerror(s->error.code));
	zs_deinit(s);
	if (ld.failed)
		goto out;
	z = calloc(1, sizeof(*z));
	if (!z) {
		fail(&ld, 0, "out of memory");
		goto out;
	}
	if (build(&ld, flavor, z) != 0) {
		zs_zone_free(z);
		z = NULL;
		goto out;
	}
	z->magic = ZS_MAGIC_LIVE;
	*out = z;
out:
	free(s);
	free(text);
	free(ld.recs);
	arena_free(ld.tmp);
	return *out ? 0 : -1;
}

void zs_zone_free(struct zs_zone *zone)
{
	if (!zone)
		return;
	/*
	 * A volatile store so that the poison is really written: a reader
	 * that finds it has used a version freed too early.
	 */
	*(volatile uint32_t *) &zone->magic = ZS_MAGIC_FREED;
	if (zone->index)
		zs_index_free(zone->index);
	arena_free(zone->arena);
	free(zone);
}
