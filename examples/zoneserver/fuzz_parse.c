/*
 * libFuzzer target for the zoneserver's query parser and response
 * builder (dns.h).  Built with clang -fsanitize=fuzzer,address,undefined
 * by `scons fuzz`, which runs it for a bounded time (fuzz.sh,
 * docs/zoneserver.md).
 *
 * Each input is one datagram.  Beyond "no crash, no sanitizer report",
 * it checks what the server relies on: a status in range, an accepted
 * query whose name is a well-formed wire name no longer than 255 bytes
 * and whose lowercased copy matches the original, and responses that
 * stay within the size the query allows, whatever is put in them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dns.h"

#define CHECK(cond)			\
	do {				\
		if (!(cond))		\
			abort();	\
	} while (0)

static uint8_t lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t) (c + 32) : c;
}

/* The name is a sequence of labels ending with the root label. */
static void check_name(const struct dns_query *q)
{
	size_t p = 0;

	CHECK(q->qname_len >= 1 && q->qname_len <= DNS_NAME_MAX);
	while (q->qname[p] != 0) {
		CHECK(q->qname[p] <= DNS_LABEL_MAX);
		CHECK(q->qname[p] == q->qname_raw[p]);
		for (size_t i = 1; i <= q->qname[p]; i++)
			CHECK(q->qname[p + i] == lower(q->qname_raw[p + i]));
		p += 1 + (size_t) q->qname[p];
		CHECK(p < q->qname_len);
	}
	CHECK(p + 1 == q->qname_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t rdata[64 * 16];
	uint8_t out[DNS_RESPONSE_BUF];
	enum dns_parse_status st;
	struct dns_response r;
	struct dns_query q;
	size_t len, limit;

	st = dns_parse_query(data, size, &q);
	CHECK((unsigned) st < DNS_PARSE_NSTATUS);
	CHECK(dns_parse_strerror(st) != NULL);
	switch (dns_parse_action(st)) {
	case DNS_ACTION_DROP:
		return 0;
	case DNS_ACTION_FORMERR:
	case DNS_ACTION_NOTIMP:
		CHECK(size >= DNS_HEADER_LEN);
		len = dns_response_header_only(out, &q, DNS_RCODE_FORMERR);
		CHECK(len == DNS_HEADER_LEN && out[0] == data[0] && out[1] == data[1]);
		return 0;
	case DNS_ACTION_ANSWER:
		break;
	}
	CHECK(size <= DNS_QUERY_MAX);
	check_name(&q);

	limit = DNS_UDP_CLASSIC;
	if (q.edns)
		limit = q.edns_udp_size < DNS_UDP_CLASSIC ? DNS_UDP_CLASSIC :
			q.edns_udp_size > DNS_UDP_MAX ? DNS_UDP_MAX : q.edns_udp_size;
	/* Answers of a size and number taken from the input itself. */
	dns_response_init(&r, out, &q);
	dns_response_add_rrset(&r, DNS_TYPE_A, 60, rdata, 4, size % 8);
	dns_response_add_rrset(&r, DNS_TYPE_AAAA, 60, rdata, 16, (size / 8) % 64);
	len = dns_response_finish(&r, data[size - 1] & 1 ? DNS_RCODE_BADVERS :
				  DNS_RCODE_NOERROR);
	CHECK(len <= limit);
	CHECK(len >= DNS_HEADER_LEN + q.qname_len + 4u);
	CHECK(memcmp(out + DNS_HEADER_LEN, q.qname_raw, q.qname_len) == 0);
	return 0;
}
