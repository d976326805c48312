/*
 * RRsets and zone files for the zoneserver example (see zone.h).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zone.h"

/* Largest TTL a zone may give (RFC 2181, 8). */
#define TTL_MAX		2147483647UL

unsigned long zs_key_hash(const struct zs_key *key)
{
	/* FNV-1a over the name and the type, then a 64-bit finalizer. */
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < key->name_len; i++)
		h = (h ^ key->name[i]) * 0x100000001b3ULL;
	h = (h ^ (key->type & 0xff)) * 0x100000001b3ULL;
	h = (h ^ (key->type >> 8)) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (unsigned long) h;
}

int zs_rrset_match(struct cds_lfht_node *node, const void *key)
{
	const struct zs_rrset *rrset = caa_container_of(node, struct zs_rrset, node);
	const struct zs_key *k = key;

	return rrset->type == k->type && rrset->name_len == k->name_len &&
	       memcmp(rrset->name, k->name, k->name_len) == 0;
}

bool zs_rrset_same_data(const struct zs_rrset *a, const struct zs_rrset *b)
{
	return a->ttl == b->ttl && a->rdlen == b->rdlen && a->count == b->count &&
	       memcmp(a->rdata, b->rdata, (size_t) a->count * a->rdlen) == 0;
}

void zs_rrset_free(struct zs_rrset *rrset)
{
	/*
	 * Compilers drop stores to memory that is freed right after; the
	 * empty asm, which may read *rrset, keeps the poison.  It then
	 * survives in the freed block until malloc reuses it (glibc writes
	 * its own links into the first 16 bytes only: the table node).
	 */
	rrset->magic = ZS_MAGIC_FREED;
	memset(rrset->rdata, 0xa5, (size_t) rrset->count * rrset->rdlen);
	__asm__ __volatile__("" : : "r" (rrset) : "memory");
	free(rrset);
}

static bool label_char(unsigned char c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '*';
}

size_t zs_name_from_text(const char *text, uint8_t *wire)
{
	size_t len = 0;
	const char *p = text;

	if (strcmp(text, ".") == 0) {
		wire[0] = 0;
		return 1;
	}
	while (*p) {
		size_t label = 0;

		while (p[label] && p[label] != '.') {
			if (!label_char((unsigned char) p[label]))
				return 0;
			label++;
		}
		/* Empty label ("a..b", ".a"), or too long. */
		if (label == 0 || label > DNS_LABEL_MAX)
			return 0;
		/* This label, and the root label still to come. */
		if (len + 1 + label + 1 > DNS_NAME_MAX)
			return 0;
		wire[len++] = (uint8_t) label;
		for (size_t i = 0; i < label; i++)
			wire[len++] = (uint8_t) tolower((unsigned char) p[i]);
		p += label;
		if (*p == '.')
			p++;	/* a trailing dot simply ends the name */
	}
	if (len == 0)
		return 0;
	wire[len++] = 0;
	return len;
}

/* One record line of a zone file. */
struct zone_line {
	unsigned lineno;
	uint16_t name_len;
	uint16_t type;
	uint16_t rdlen;
	uint32_t ttl;
	uint8_t rdata[16];
	uint8_t name[DNS_NAME_MAX];
};

static int compare_names(const struct zone_line *a, const struct zone_line *b)
{
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len ? -1 : 1;
	return memcmp(a->name, b->name, a->name_len);
}

/* By name, type, then data: RRsets become runs, duplicates neighbours. */
static int compare_lines(const void *pa, const void *pb)
{
	const struct zone_line *a = pa, *b = pb;
	int c = compare_names(a, b);

	if (c)
		return c;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	c = memcmp(a->rdata, b->rdata, a->rdlen);
	if (c)
		return c;
	return a->lineno < b->lineno ? -1 : a->lineno > b->lineno;
}

static void set_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * Parses one line (comments already cut off) into @out.  Returns 1 for a
 * record, 0 for a blank line, -1 with @why set for an error.
 */
static int parse_line(char *text, struct zone_line *out, const char **why)
{
	char *tok[6], *save = NULL, *t, *end;
	unsigned long ttl;
	int n = 0, i = 0;

	for (t = strtok_r(text, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 6) {
			*why = "too many fields";
			return -1;
		}
		tok[n++] = t;
	}
	if (n == 0)
		return 0;
	if (n < 4 || (n == 5 && strcasecmp(tok[2], "IN") != 0) || n == 6) {
		*why = "expected: name TTL [IN] A|AAAA address";
		return -1;
	}

	out->name_len = (uint16_t) zs_name_from_text(tok[i++], out->name);
	if (out->name_len == 0) {
		*why = "invalid owner name";
		return -1;
	}
	errno = 0;
	ttl = strtoul(tok[i], &end, 10);
	if (!isdigit((unsigned char) tok[i][0]) || *end || errno || ttl > TTL_MAX) {
		*why = "invalid TTL (0 .. 2147483647 seconds)";
		return -1;
	}
	out->ttl = (uint32_t) ttl;
	i++;
	if (n == 5)
		i++;			/* IN */
	memset(out->rdata, 0, sizeof(out->rdata));
	if (strcasecmp(tok[i], "A") == 0) {
		out->type = DNS_TYPE_A;
		out->rdlen = 4;
		if (inet_pton(AF_INET, tok[i + 1], out->rdata) != 1) {
			*why = "invalid IPv4 address";
			return -1;
		}
	} else if (strcasecmp(tok[i], "AAAA") == 0) {
		out->type = DNS_TYPE_AAAA;
		out->rdlen = 16;
		if (inet_pton(AF_INET6, tok[i + 1], out->rdata) != 1) {
			*why = "invalid IPv6 address";
			return -1;
		}
	} else {
		*why = "unsupported type (A and AAAA only)";
		return -1;
	}
	return 1;
}

static struct zs_rrset *new_rrset(const struct zone_line *key, uint16_t type,
				  uint16_t rdlen, unsigned count)
{
	struct zs_rrset *rrset = malloc(sizeof(*rrset) + (size_t) count * rdlen);
	struct zs_key k = { key->name, key->name_len, type };

	if (!rrset)
		return NULL;
	memset(rrset, 0, sizeof(*rrset));
	cds_lfht_node_init(&rrset->node);
	rrset->magic = ZS_MAGIC_LIVE;
	rrset->type = type;
	rrset->rdlen = rdlen;
	rrset->count = (uint16_t) count;
	rrset->ttl = UINT32_MAX;
	rrset->name_len = key->name_len;
	memcpy(rrset->name, key->name, key->name_len);
	rrset->hash = zs_key_hash(&k);
	return rrset;
}

/* Groups the sorted @lines into RRsets in @zone. */
static int build_rrsets(const char *path, struct zone_line *lines, size_t n,
			struct zs_zone *zone, char *err, size_t errlen)
{
	size_t total = 0;

	/* One RRset per name, plus one per type of that name. */
	for (size_t i = 0; i < n; i++)
		if (i == 0 || compare_names(&lines[i], &lines[i - 1]))
			total += 2;
		else if (lines[i].type != lines[i - 1].type)
			total++;
	if (total) {
		zone->rrsets = calloc(total, sizeof(*zone->rrsets));
		if (!zone->rrsets)
			goto oom;
	}

	for (size_t i = 0; i < n; ) {
		size_t name_end = i;

		while (name_end < n && compare_names(&lines[i], &lines[name_end]) == 0)
			name_end++;
		zone->rrsets[zone->count] = new_rrset(&lines[i], ZS_TYPE_NAME, 0, 0);
		if (!zone->rrsets[zone->count])
			goto oom;
		zone->rrsets[zone->count++]->ttl = 0;
		zone->names++;

		for (size_t j = i; j < name_end; ) {
			size_t type_end = j, unique = 0;
			struct zs_rrset *rrset;

			while (type_end < name_end && lines[type_end].type == lines[j].type) {
				if (type_end == j || memcmp(lines[type_end].rdata,
						lines[type_end - 1].rdata, lines[j].rdlen))
					unique++;
				type_end++;
			}
			if (unique > ZS_RRSET_MAX) {
				set_error(err, errlen, "%s:%u: more than %d records "
					  "of one name and type", path,
					  lines[type_end - 1].lineno, ZS_RRSET_MAX);
				return -1;
			}
			rrset = new_rrset(&lines[j], lines[j].type, lines[j].rdlen,
					  (unsigned) unique);
			if (!rrset)
				goto oom;
			unique = 0;
			for (size_t k = j; k < type_end; k++) {
				/* RFC 2181 wants one TTL per RRset: take the lowest. */
				if (lines[k].ttl < rrset->ttl)
					rrset->ttl = lines[k].ttl;
				if (k > j && !memcmp(lines[k].rdata, lines[k - 1].rdata,
						     lines[j].rdlen))
					continue;	/* duplicate record */
				memcpy(rrset->rdata + unique * lines[j].rdlen,
				       lines[k].rdata, lines[j].rdlen);
				unique++;
			}
			zone->rrsets[zone->count++] = rrset;
			zone->records += unique;
			j = type_end;
		}
		i = name_end;
	}
	return 0;
oom:
	set_error(err, errlen, "%s: out of memory", path);
	return -1;
}

int zs_zone_load(const char *path, struct zs_zone *zone, char *err, size_t errlen)
{
	struct zone_line *lines = NULL;
	size_t n = 0, cap = 0, linecap = 0;
	char *line = NULL;
	unsigned lineno = 0;
	int ret = -1;
	FILE *f;

	memset(zone, 0, sizeof(*zone));
	f = fopen(path, "r");
	if (!f) {
		set_error(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &linecap, f) >= 0) {
		const char *why = NULL;
		int r;

		lineno++;
		line[strcspn(line, "#;")] = '\0';	/* comment */
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct zone_line *grown = realloc(lines, ncap * sizeof(*grown));

			if (!grown) {
				set_error(err, errlen, "%s: out of memory", path);
				goto out;
			}
			lines = grown;
			cap = ncap;
		}
		r = parse_line(line, &lines[n], &why);
		if (r < 0) {
			set_error(err, errlen, "%s:%u: %s", path, lineno, why);
			goto out;
		}
		if (r > 0)
			lines[n++].lineno = lineno;
	}
	if (ferror(f)) {
		set_error(err, errlen, "%s: read error", path);
		goto out;
	}
	if (n)
		qsort(lines, n, sizeof(*lines), compare_lines);
	ret = build_rrsets(path, lines, n, zone, err, errlen);
out:
	if (ret)
		zs_zone_discard(zone);
	free(line);
	free(lines);
	fclose(f);
	return ret;
}

void zs_zone_discard(struct zs_zone *zone)
{
	for (size_t i = 0; i < zone->count; i++)
		if (zone->rrsets[i])
			zs_rrset_free(zone->rrsets[i]);
	free(zone->rrsets);
	memset(zone, 0, sizeof(*zone));
}
