/*
 * The response builder of the zoneserver example (see dns.h).
 *
 * A response echoes the question as received and owns its answers
 * through a compression pointer to that question name (offset 12).  Its
 * size is capped at 512 bytes, or with EDNS at the requester's payload
 * size clamped to 512 .. DNS_UDP_MAX; room for our own OPT record is
 * kept from the start.  When the answers do not fit, they are all
 * dropped and TC is set, so the client retries over TCP (which this
 * example does not serve) or with a larger EDNS size.
 */
#include <string.h>

#include "dns.h"

/* Our OPT record: root name, type, class, TTL, RDLENGTH. */
#define OPT_RR_LEN	11
/* Per answer record: name pointer, type, class, TTL, RDLENGTH. */
#define RR_FIXED_LEN	12

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) (v >> 8);
	p[1] = (uint8_t) v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t) (v >> 16));
	put16(p + 2, (uint16_t) v);
}

/* Response flags: QR, AA, the query's opcode, RD and CD copied. */
static uint16_t response_flags(const struct dns_query *q)
{
	return (uint16_t) (DNS_FLAG_QR | DNS_FLAG_AA | (q->flags & 0x7800) |
			   (q->flags & (DNS_FLAG_RD | DNS_FLAG_CD)));
}

void dns_response_init(struct dns_response *r, uint8_t *buf,
		       const struct dns_query *q)
{
	size_t limit = DNS_UDP_CLASSIC;

	if (q->edns) {
		limit = q->edns_udp_size;
		if (limit < DNS_UDP_CLASSIC)
			limit = DNS_UDP_CLASSIC;
		if (limit > DNS_UDP_MAX)
			limit = DNS_UDP_MAX;
		limit -= OPT_RR_LEN;
	}
	r->buf = buf;
	r->limit = limit;
	r->q = q;
	r->ancount = 0;
	r->truncated = false;

	put16(buf, q->id);
	put16(buf + 2, response_flags(q));
	put16(buf + 4, 1);
	memset(buf + 6, 0, 6);
	/* At most 12 + 255 + 4 bytes: always below the 501-byte limit. */
	memcpy(buf + DNS_HEADER_LEN, q->qname_raw, q->qname_len);
	r->len = DNS_HEADER_LEN + (size_t) q->qname_len;
	put16(buf + r->len, q->qtype);
	put16(buf + r->len + 2, q->qclass);
	r->len += 4;
	r->question_end = r->len;
}

bool dns_response_add_rrset(struct dns_response *r, uint16_t type,
			    uint32_t ttl, const uint8_t *rdata,
			    uint16_t rdlen, unsigned count)
{
	size_t each = RR_FIXED_LEN + (size_t) rdlen;

	if (r->truncated)
		return false;
	if (count > (r->limit - r->len) / each) {
		r->truncated = true;
		return false;
	}
	for (unsigned i = 0; i < count; i++) {
		uint8_t *p = r->buf + r->len;

		put16(p, 0xc000 | DNS_HEADER_LEN);	/* the question name */
		put16(p + 2, type);
		put16(p + 4, DNS_CLASS_IN);
		put32(p + 6, ttl);
		put16(p + 10, rdlen);
		memcpy(p + RR_FIXED_LEN, rdata + (size_t) i * rdlen, rdlen);
		r->len += each;
	}
	/* count <= limit / 12 < 65536: no overflow. */
	r->ancount = (uint16_t) (r->ancount + count);
	return true;
}

void dns_response_drop_answers(struct dns_response *r)
{
	r->len = r->question_end;
	r->ancount = 0;
	r->truncated = false;
}

size_t dns_response_finish(struct dns_response *r, unsigned rcode)
{
	uint16_t flags = response_flags(r->q) | (uint16_t) (rcode & 0xf);

	if (r->truncated) {
		r->len = r->question_end;
		r->ancount = 0;
		flags |= DNS_FLAG_TC;
	}
	put16(r->buf + 2, flags);
	put16(r->buf + 6, r->ancount);
	if (r->q->edns) {
		uint8_t *p = r->buf + r->len;

		p[0] = 0;				/* root */
		put16(p + 1, DNS_TYPE_OPT);
		put16(p + 3, DNS_UDP_MAX);		/* our payload size */
		/* Upper rcode bits, version 0, no flags (DO clear). */
		put32(p + 5, (uint32_t) (rcode >> 4 & 0xff) << 24);
		put16(p + 9, 0);
		r->len += OPT_RR_LEN;
		put16(r->buf + 10, 1);
	}
	return r->len;
}

size_t dns_response_header_only(uint8_t *buf, const struct dns_query *q,
				unsigned rcode)
{
	put16(buf, q->id);
	put16(buf + 2, (uint16_t) (DNS_FLAG_QR | (q->flags & 0x7800) |
				   (q->flags & DNS_FLAG_RD) | (rcode & 0xf)));
	memset(buf + 4, 0, 8);
	return DNS_HEADER_LEN;
}
