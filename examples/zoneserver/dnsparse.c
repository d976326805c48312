/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The query parser of the zoneserver example (see dns.h).
 *
 * It checks the whole message, not only the question, so that every
 * malformed datagram is classified the same way whatever it contains:
 * the header, exactly one question with an uncompressed name, no answer
 * or authority records, and an additional section that parses record by
 * record (one EDNS OPT record at most, other records skipped), with no
 * bytes left over.
 *
 * Every read is preceded by a bounds check against @len, and names are
 * bounded twice: by their total length (255 bytes) and, where
 * compression is allowed, by requiring each pointer to land strictly
 * before the previous one, which makes loops impossible to follow.
 */
#include <string.h>

#include "dns.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t) (p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
	       (uint32_t) p[2] << 8 | (uint32_t) p[3];
}

static uint8_t ascii_lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t) (c - 'A' + 'a') : c;
}

/*
 * The question name at buf[*pos]: copied as received into q->qname_raw,
 * lowercased into q->qname.  Compression is refused here: a question
 * comes first in the message, so a pointer could only point into the
 * header or at itself.
 */
static enum dns_parse_status read_question_name(const uint8_t *buf, size_t len,
						size_t *pos, struct dns_query *q)
{
	size_t p = *pos, out = 0;
	uint8_t label;

	do {
		if (p >= len)
			return DNS_PARSE_TRUNCATED;
		label = buf[p];
		if ((label & 0xc0) == 0xc0)
			return DNS_PARSE_POINTER_IN_QUESTION;
		if (label & 0xc0)
			return DNS_PARSE_BAD_LABEL;
		if (out + 1 + label > DNS_NAME_MAX)
			return DNS_PARSE_NAME_TOO_LONG;
		if (label > len - p - 1)
			return DNS_PARSE_TRUNCATED;
		memcpy(q->qname_raw + out, buf + p, 1 + (size_t) label);
		q->qname[out] = label;
		for (size_t i = 1; i <= label; i++)
			q->qname[out + i] = ascii_lower(buf[p + i]);
		out += 1 + (size_t) label;
		p += 1 + (size_t) label;
	} while (label != 0);

	q->qname_len = (uint16_t) out;
	*pos = p;
	return DNS_PARSE_OK;
}

/*
 * Skips the possibly compressed name at buf[*pos] and leaves *pos after
 * it; *@wire_len receives the name's uncompressed length.
 */
static enum dns_parse_status skip_name(const uint8_t *buf, size_t len,
				       size_t *pos, size_t *wire_len)
{
	size_t p = *pos, total = 0, after = 0, bound = *pos;
	bool jumped = false;
	uint8_t label;

	for (;;) {
		if (p >= len)
			return DNS_PARSE_TRUNCATED;
		label = buf[p];
		if ((label & 0xc0) == 0xc0) {
			size_t target;

			if (p + 1 >= len)
				return DNS_PARSE_TRUNCATED;
			target = (size_t) (label & 0x3f) << 8 | buf[p + 1];
			if (!jumped) {
				after = p + 2;
				jumped = true;
			}
			if (target < DNS_HEADER_LEN || target >= len)
				return DNS_PARSE_BAD_POINTER;
			/*
			 * Strictly before the previous jump (or the start of
			 * the name): the targets decrease, so they end.
			 */
			if (target >= bound)
				return DNS_PARSE_POINTER_LOOP;
			bound = target;
			p = target;
			continue;
		}
		if (label & 0xc0)
			return DNS_PARSE_BAD_LABEL;
		total += 1 + (size_t) label;
		if (total > DNS_NAME_MAX)
			return DNS_PARSE_NAME_TOO_LONG;
		if (label > len - p - 1)
			return DNS_PARSE_TRUNCATED;
		p += 1 + (size_t) label;
		if (label == 0)
			break;
	}

	*pos = jumped ? after : p;
	*wire_len = total;
	return DNS_PARSE_OK;
}

/*
 * The options of an OPT record: code, length, data, filling it exactly.
 * Notes whether NSID was asked for.
 */
static bool opt_rdata_ok(const uint8_t *rdata, size_t rdlen,
			 struct dns_query *q)
{
	size_t o = 0;

	while (o < rdlen) {
		size_t optlen;

		if (rdlen - o < 4)
			return false;
		if (get16(rdata + o) == DNS_EDNS_NSID)
			q->edns_nsid = true;
		optlen = get16(rdata + o + 2);
		o += 4;
		if (optlen > rdlen - o)
			return false;
		o += optlen;
	}
	return true;
}

/* One record of the additional section at buf[*pos]. */
static enum dns_parse_status read_additional(const uint8_t *buf, size_t len,
					     size_t *pos, struct dns_query *q)
{
	enum dns_parse_status st;
	size_t p = *pos, name_len, rdlen;
	uint16_t type, rclass;
	uint32_t ttl;

	st = skip_name(buf, len, &p, &name_len);
	if (st != DNS_PARSE_OK)
		return st;
	if (len - p < 10)
		return DNS_PARSE_TRUNCATED;
	type = get16(buf + p);
	rclass = get16(buf + p + 2);
	ttl = get32(buf + p + 4);
	rdlen = get16(buf + p + 8);
	p += 10;
	if (rdlen > len - p)
		return DNS_PARSE_TRUNCATED;
	if (type == DNS_TYPE_OPT) {
		/* One OPT record, owned by the root (RFC 6891, 6.1.1). */
		if (q->edns || name_len != 1 ||
		    !opt_rdata_ok(buf + p, rdlen, q))
			return DNS_PARSE_BAD_OPT;
		q->edns = true;
		q->edns_udp_size = rclass;
		q->edns_version = (uint8_t) (ttl >> 16);
		q->edns_do = (ttl & 0x8000) != 0;
	}
	/* Other records (TSIG, ...) are not supported and are skipped. */
	*pos = p + rdlen;
	return DNS_PARSE_OK;
}

/* The question at buf[*pos]: name, type, class. */
static enum dns_parse_status read_question(const uint8_t *buf, size_t len,
					   size_t *pos, struct dns_query *q)
{
	enum dns_parse_status st = read_question_name(buf, len, pos, q);

	if (st != DNS_PARSE_OK)
		return st;
	if (len - *pos < 4) {
		q->qname_len = 0;
		return DNS_PARSE_TRUNCATED;
	}
	q->qtype = get16(buf + *pos);
	q->qclass = get16(buf + *pos + 2);
	*pos += 4;
	return DNS_PARSE_OK;
}

enum dns_parse_status dns_parse_query(const uint8_t *buf, size_t len,
				      size_t max, struct dns_query *q)
{
	enum dns_parse_status st;
	unsigned arcount;
	size_t pos;

	memset(q, 0, sizeof(*q));
	if (len < DNS_HEADER_LEN)
		return DNS_PARSE_SHORT_HEADER;
	q->id = get16(buf);
	q->flags = get16(buf + 2);
	if (q->flags & DNS_FLAG_QR)
		return DNS_PARSE_RESPONSE;
	if (len > max)
		return DNS_PARSE_OVERSIZE;
	pos = DNS_HEADER_LEN;
	if (DNS_OPCODE(q->flags) != DNS_OPCODE_QUERY) {
		/*
		 * Answered with NOTIMP or NOTAUTH, echoing the question when
		 * there is one that parses (as Knot does); the sections
		 * after it follow other rules (UPDATE) and are not read.
		 */
		if (get16(buf + 4) == 1 &&
		    read_question(buf, len, &pos, q) != DNS_PARSE_OK)
			q->qname_len = 0;
		return DNS_PARSE_OPCODE;
	}
	if (get16(buf + 4) != 1)
		return DNS_PARSE_QDCOUNT;
	if (get16(buf + 6) != 0 || get16(buf + 8) != 0)
		return DNS_PARSE_COUNTS;
	arcount = get16(buf + 10);

	st = read_question(buf, len, &pos, q);
	if (st != DNS_PARSE_OK)
		return st;

	/* Each record takes at least 11 bytes, so this loop is bounded by len. */
	for (unsigned i = 0; i < arcount; i++) {
		st = read_additional(buf, len, &pos, q);
		if (st != DNS_PARSE_OK)
			return st;
	}
	if (pos != len)
		return DNS_PARSE_TRAILING;
	return DNS_PARSE_OK;
}

enum dns_parse_action dns_parse_action(enum dns_parse_status status)
{
	switch (status) {
	case DNS_PARSE_OK:
	case DNS_PARSE_OPCODE:
		return DNS_ACTION_ANSWER;
	case DNS_PARSE_SHORT_HEADER:
	case DNS_PARSE_RESPONSE:
		return DNS_ACTION_DROP;
	default:
		return DNS_ACTION_FORMERR;
	}
}

const char *dns_parse_strerror(enum dns_parse_status status)
{
	static const char *const text[DNS_PARSE_NSTATUS] = {
		[DNS_PARSE_OK] = "well-formed query",
		[DNS_PARSE_SHORT_HEADER] = "shorter than a DNS header",
		[DNS_PARSE_RESPONSE] = "QR bit set (a response)",
		[DNS_PARSE_OVERSIZE] = "message too long",
		[DNS_PARSE_QDCOUNT] = "QDCOUNT is not 1",
		[DNS_PARSE_COUNTS] = "ANCOUNT or NSCOUNT is not 0",
		[DNS_PARSE_TRUNCATED] = "name or record runs past the end",
		[DNS_PARSE_BAD_LABEL] = "reserved label type",
		[DNS_PARSE_NAME_TOO_LONG] = "name longer than 255 bytes",
		[DNS_PARSE_POINTER_IN_QUESTION] = "compression pointer in the question",
		[DNS_PARSE_BAD_POINTER] = "compression pointer out of range",
		[DNS_PARSE_POINTER_LOOP] = "compression pointer not pointing backwards",
		[DNS_PARSE_BAD_OPT] = "malformed or repeated OPT record",
		[DNS_PARSE_TRAILING] = "bytes after the last record",
		[DNS_PARSE_OPCODE] = "opcode not implemented",
	};

	if ((unsigned) status >= DNS_PARSE_NSTATUS)
		return "unknown status";
	return text[status];
}
