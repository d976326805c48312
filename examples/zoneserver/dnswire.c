/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The response writer of the zoneserver example (see dns.h).
 *
 * A response echoes the question as received.  Its size is capped at
 * 512 bytes over UDP without EDNS, at the requester's EDNS payload size
 * clamped to 512 .. DNS_UDP_MAX with EDNS, and at 65535 bytes over TCP;
 * room for our own OPT record is kept from the start.
 *
 * Compression: m->names holds the offsets of names (and of each of their
 * suffixes) already in the message.  A new name is written as its
 * longest suffix found there, preceded by the labels before it; the
 * search compares labels in the message, following pointers, without
 * regard to ASCII case.  Owner names equal to the question name take the
 * fast path: a pointer to offset 12.
 */
#include <string.h>

#include "dns.h"

/* Per record after its owner: type, class, TTL, RDLENGTH. */
#define RR_FIXED_LEN	10
#define OPT_RR_LEN	11
/* Offsets at or above this cannot be targets of a pointer. */
#define PTR_MAX		0x3fff

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) (v >> 8);
	p[1] = (uint8_t) v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t) (p[0] << 8 | p[1]);
}

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t) (c - 'A' + 'a') : c;
}

size_t dns_name_len(const uint8_t *name)
{
	size_t len = 0;

	while (name[len])
		len += 1 + (size_t) name[len];
	return len + 1;
}

bool dns_name_equal(const uint8_t *a, const uint8_t *b)
{
	for (;;) {
		uint8_t n = *a;

		if (n != *b)
			return false;
		if (n == 0)
			return true;
		for (unsigned i = 1; i <= n; i++)
			if (lower(a[i]) != lower(b[i]))
				return false;
		a += 1 + n;
		b += 1 + n;
	}
}

void dns_msg_init(struct dns_msg *m, uint8_t *buf, size_t cap,
		  const struct dns_query *q, bool tcp, const uint8_t *nsid,
		  size_t nsid_len)
{
	size_t limit = DNS_UDP_CLASSIC;

	if (tcp) {
		limit = DNS_TCP_MAX;
	} else if (q->edns) {
		limit = q->edns_udp_size;
		if (limit < DNS_UDP_CLASSIC)
			limit = DNS_UDP_CLASSIC;
		if (limit > DNS_UDP_MAX)
			limit = DNS_UDP_MAX;
	}
	if (limit > cap)
		limit = cap;
	m->nsid = nsid;
	m->nsid_len = nsid && nsid_len <= DNS_NSID_MAX ? nsid_len : 0;
	/*
	 * Room for our OPT record, and for the NSID in it when asked (as
	 * Knot).  The extended error goes only into responses without
	 * records (REFUSED), which are far below any limit.
	 */
	if (q->edns)
		limit -= OPT_RR_LEN + (q->edns_nsid && nsid ? 4 + m->nsid_len : 0);
	m->buf = buf;
	m->cap = cap;
	m->limit = limit;
	m->q = q;
	memset(m->count, 0, sizeof(m->count));
	m->flags = 0;
	m->tc = false;
	m->nnames = 0;

	put16(buf, q->id);
	memset(buf + 2, 0, 10);
	m->len = DNS_HEADER_LEN;
	if (q->qname_len) {
		put16(buf + 4, 1);
		memcpy(buf + DNS_HEADER_LEN, q->qname_raw, q->qname_len);
		m->len += q->qname_len;
		put16(buf + m->len, q->qtype);
		put16(buf + m->len + 2, q->qclass);
		m->len += 4;
		/* Every suffix of the question name can be pointed to. */
		for (size_t o = 0; q->qname[o] && m->nnames < DNS_COMPRESS_SLOTS;
		     o += 1 + (size_t) q->qname[o])
			m->names[m->nnames++] = (uint16_t) (DNS_HEADER_LEN + o);
	}
}

/*
 * The name in the message at offset @at (possibly compressed) equals the
 * uncompressed @name, case aside.  Pointers in our own message always
 * point backwards, so following them ends; the hop bound is a guard.
 */
static bool msg_name_equal(const struct dns_msg *m, size_t at,
			   const uint8_t *name)
{
	for (unsigned hops = 0; hops < 128; hops++) {
		uint8_t n = m->buf[at];

		if ((n & 0xc0) == 0xc0) {
			at = get16(m->buf + at) & PTR_MAX;
			continue;
		}
		if (n != *name)
			return false;
		if (n == 0)
			return true;
		for (unsigned i = 1; i <= n; i++)
			if (lower(m->buf[at + i]) != lower(name[i]))
				return false;
		at += 1 + n;
		name += 1 + n;
	}
	return false;
}

/*
 * Writes @name at m->len, compressed, if it fits below @end; returns
 * its length in the message or 0 when it does not fit.
 */
static size_t put_name(struct dns_msg *m, const uint8_t *name, size_t end)
{
	size_t start = m->len, o = 0, match = 0;
	bool found = false;

	/* The longest suffix already in the message. */
	for (o = 0; name[o] && !found; o += 1 + (size_t) name[o]) {
		for (unsigned i = 0; i < m->nnames; i++) {
			if (msg_name_equal(m, m->names[i], name + o)) {
				match = m->names[i];
				found = true;
				break;
			}
		}
		if (found)
			break;
	}
	/* name[0 .. o) is written out, then a pointer or the root label. */
	if (start + o + (found ? 2 : 1) > end)
		return 0;
	memcpy(m->buf + start, name, o);
	for (size_t l = 0; l < o; l += 1 + (size_t) name[l])
		if (start + l <= PTR_MAX && m->nnames < DNS_COMPRESS_SLOTS)
			m->names[m->nnames++] = (uint16_t) (start + l);
	if (found) {
		put16(m->buf + start + o, (uint16_t) (0xc000 | match));
		return o + 2;
	}
	m->buf[start + o] = 0;
	return o + 1;
}

/* Where the compressible names of @type's rdata are; see put_rdata(). */
static bool compressible(uint16_t type)
{
	return type == DNS_TYPE_NS || type == DNS_TYPE_CNAME ||
	       type == DNS_TYPE_PTR || type == DNS_TYPE_MX ||
	       type == DNS_TYPE_SOA;
}

/*
 * Writes the rdata at m->len, compressing the names of NS, CNAME, PTR,
 * MX and SOA; returns its written length, 0 if it does not fit (or is
 * empty, which callers tell apart by @rdlen).
 */
static size_t put_rdata(struct dns_msg *m, uint16_t type, const uint8_t *rdata,
			uint16_t rdlen, size_t end)
{
	size_t start = m->len, n;

	if (!compressible(type)) {
		if (start + rdlen > end)
			return 0;
		memcpy(m->buf + start, rdata, rdlen);
		return rdlen;
	}
	if (type == DNS_TYPE_MX) {
		if (start + 2 > end)
			return 0;
		memcpy(m->buf + start, rdata, 2);
		m->len += 2;
		n = put_name(m, rdata + 2, end);
		m->len = start;
		return n ? n + 2 : 0;
	}
	n = put_name(m, rdata, end);
	if (!n || type != DNS_TYPE_SOA)
		return n;
	{
		/* SOA: two names, then serial, refresh, retry, expire, minimum. */
		size_t first = dns_name_len(rdata), n2;
		const uint8_t *rname = rdata + first;
		size_t rname_len = dns_name_len(rname);

		m->len = start + n;
		n2 = put_name(m, rname, end);
		m->len = start;
		if (!n2 || start + n + n2 + 20 > end)
			return 0;
		memcpy(m->buf + start + n + n2, rname + rname_len, 20);
		return n + n2 + 20;
	}
}

bool dns_msg_put_rr(struct dns_msg *m, enum dns_section section,
		    const uint8_t *owner, size_t owner_len,
		    const uint8_t *type_class_ttl, const uint8_t *rdata,
		    uint16_t rdlen)
{
	size_t start = m->len, end = m->limit, n;
	unsigned nnames = m->nnames;
	uint16_t type = get16(type_class_ttl);

	if (owner_len == m->q->qname_len && m->q->qname_len &&
	    memcmp(owner, m->q->qname, owner_len) == 0) {
		if (start + 2 + RR_FIXED_LEN > end)
			return false;
		put16(m->buf + start, 0xc000 | DNS_HEADER_LEN);
		n = 2;
	} else {
		n = put_name(m, owner, end);
		if (!n || start + n + RR_FIXED_LEN > end)
			goto no_room;
	}
	memcpy(m->buf + start + n, type_class_ttl, 8);
	m->len = start + n + RR_FIXED_LEN;
	{
		size_t rd = put_rdata(m, type, rdata, rdlen, end);

		if (!rd && rdlen)
			goto no_room;
		put16(m->buf + start + n + 8, (uint16_t) rd);
		m->len += rd;
	}
	m->count[section]++;
	return true;
no_room:
	m->len = start;
	m->nnames = nnames;
	return false;
}

void dns_msg_mark(const struct dns_msg *m, struct dns_msg_mark *mark)
{
	mark->len = m->len;
	memcpy(mark->count, m->count, sizeof(mark->count));
	mark->nnames = m->nnames;
}

void dns_msg_rewind(struct dns_msg *m, const struct dns_msg_mark *mark)
{
	m->len = mark->len;
	memcpy(m->count, mark->count, sizeof(m->count));
	m->nnames = mark->nnames;
}

size_t dns_msg_finish(struct dns_msg *m, unsigned rcode, bool aa, int ede)
{
	const struct dns_query *q = m->q;
	/* QR, opcode and RD echoed; CD is not (as Knot). */
	uint16_t flags = (uint16_t) (DNS_FLAG_QR | (q->flags & 0x7800) |
				     (q->flags & DNS_FLAG_RD) | (rcode & 0xf));

	if (aa)
		flags |= DNS_FLAG_AA;
	if (m->tc)
		flags |= DNS_FLAG_TC;
	put16(m->buf + 2, flags);
	put16(m->buf + 6, m->count[DNS_ANSWER]);
	put16(m->buf + 8, m->count[DNS_AUTHORITY]);
	put16(m->buf + 10, m->count[DNS_ADDITIONAL]);
	if (q->edns) {
		uint8_t *p = m->buf + m->len;
		size_t rdlen = 0;

		p[0] = 0;				/* root */
		put16(p + 1, DNS_TYPE_OPT);
		put16(p + 3, DNS_UDP_MAX);		/* our payload size */
		p[5] = (uint8_t) (rcode >> 4);		/* upper rcode bits */
		p[6] = 0;				/* version 0 */
		put16(p + 7, q->edns_do ? 0x8000 : 0);	/* DO echoed */
		if (q->edns_nsid && m->nsid) {
			put16(p + 11, DNS_EDNS_NSID);
			put16(p + 13, (uint16_t) m->nsid_len);
			memcpy(p + 15, m->nsid, m->nsid_len);
			rdlen += 4 + m->nsid_len;
		}
		if (ede >= 0 && m->len + OPT_RR_LEN + rdlen + 6 <= m->cap) {
			put16(p + 11 + rdlen, DNS_EDNS_EDE);
			put16(p + 13 + rdlen, 2);
			put16(p + 15 + rdlen, (uint16_t) ede);
			rdlen += 6;
		}
		put16(p + 9, (uint16_t) rdlen);
		m->len += OPT_RR_LEN + rdlen;
		put16(m->buf + 10, (uint16_t) (m->count[DNS_ADDITIONAL] + 1));
	}
	return m->len;
}

size_t dns_msg_header_only(uint8_t *buf, const struct dns_query *q,
			   unsigned rcode)
{
	put16(buf, q->id);
	put16(buf + 2, (uint16_t) (DNS_FLAG_QR | (q->flags & 0x7800) |
				   (q->flags & DNS_FLAG_RD) | (rcode & 0xf)));
	memset(buf + 4, 0, 8);
	return DNS_HEADER_LEN;
}
