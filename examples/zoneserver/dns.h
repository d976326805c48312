/*
 * DNS wire format for the zoneserver example: the query parser
 * (dnsparse.c) and the response builder (dnswire.c).
 *
 * Both are pure: they read and write only the buffers and structures
 * they are given, keep no state, allocate nothing and never fail in any
 * way other than through their return values.  That makes them easy to
 * unit-test (tests/check_zoneserver.c) and to fuzz
 * (examples/zoneserver/fuzz_parse.c).  Nothing here knows about RCU.
 */
#ifndef ZONESERVER_DNS_H
#define ZONESERVER_DNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DNS_HEADER_LEN		12
#define DNS_LABEL_MAX		63
#define DNS_NAME_MAX		255	/* wire length, root label included */
/* A query longer than this is answered with FORMERR. */
#define DNS_QUERY_MAX		4096
/* Responses to queries without EDNS are at most this long (RFC 1035). */
#define DNS_UDP_CLASSIC		512
/* Largest UDP response we send, and the size we advertise in EDNS. */
#define DNS_UDP_MAX		1232

/* Header flag bits (in the 16-bit word after the ID). */
#define DNS_FLAG_QR		0x8000
#define DNS_FLAG_AA		0x0400
#define DNS_FLAG_TC		0x0200
#define DNS_FLAG_RD		0x0100
#define DNS_FLAG_CD		0x0010
#define DNS_OPCODE(flags)	(((flags) >> 11) & 0xf)
#define DNS_RCODE(flags)	((flags) & 0xf)

enum {
	DNS_OPCODE_QUERY = 0,
};

enum {
	DNS_TYPE_A = 1,
	DNS_TYPE_MX = 15,
	DNS_TYPE_AAAA = 28,
	DNS_TYPE_OPT = 41,
	DNS_TYPE_IXFR = 251,
	DNS_TYPE_AXFR = 252,
	DNS_TYPE_MAILB = 253,
	DNS_TYPE_MAILA = 254,
	DNS_TYPE_ANY = 255,
};

enum {
	DNS_CLASS_IN = 1,
	DNS_CLASS_CH = 3,
};

enum {
	DNS_RCODE_NOERROR = 0,
	DNS_RCODE_FORMERR = 1,
	DNS_RCODE_SERVFAIL = 2,
	DNS_RCODE_NXDOMAIN = 3,
	DNS_RCODE_NOTIMP = 4,
	DNS_RCODE_REFUSED = 5,
	/* Extended (EDNS) rcode: upper 8 bits travel in the OPT record. */
	DNS_RCODE_BADVERS = 16,
};

/*
 * What dns_parse_query() found.  Every value other than DNS_PARSE_OK
 * names one defect; dns_parse_action() says what a server does about it.
 */
enum dns_parse_status {
	DNS_PARSE_OK = 0,
	/* Dropped without a reply. */
	DNS_PARSE_SHORT_HEADER,		/* fewer than 12 bytes: no ID to answer */
	DNS_PARSE_RESPONSE,		/* QR set: never answer a response */
	/* Answered with FORMERR. */
	DNS_PARSE_OVERSIZE,		/* longer than DNS_QUERY_MAX */
	DNS_PARSE_QDCOUNT,		/* QDCOUNT is not 1 */
	DNS_PARSE_COUNTS,		/* ANCOUNT or NSCOUNT not 0 */
	DNS_PARSE_TRUNCATED,		/* a name or record runs past the end */
	DNS_PARSE_BAD_LABEL,		/* label type 0x40 or 0x80 */
	DNS_PARSE_NAME_TOO_LONG,	/* over 255 bytes */
	DNS_PARSE_POINTER_IN_QUESTION,	/* compression in the question */
	DNS_PARSE_BAD_POINTER,		/* points into the header or past the end */
	DNS_PARSE_POINTER_LOOP,		/* does not point strictly backwards */
	DNS_PARSE_BAD_OPT,		/* malformed or repeated EDNS OPT record */
	DNS_PARSE_TRAILING,		/* bytes after the last record */
	/* Answered with NOTIMP. */
	DNS_PARSE_OPCODE,		/* opcode other than QUERY */
	DNS_PARSE_NSTATUS
};

enum dns_parse_action {
	DNS_ACTION_ANSWER,		/* a well-formed query */
	DNS_ACTION_DROP,
	DNS_ACTION_FORMERR,
	DNS_ACTION_NOTIMP,
};

/* A parsed query.  Fields are valid as listed for each status. */
struct dns_query {
	/* Valid for every status but DNS_PARSE_SHORT_HEADER. */
	uint16_t id;
	uint16_t flags;			/* header word 2, as received */

	/* Valid for DNS_PARSE_OK only. */
	uint16_t qtype;
	uint16_t qclass;
	uint16_t qname_len;		/* wire length, root label included */
	uint8_t qname[DNS_NAME_MAX];	/* lowercased (ASCII A-Z only) */
	uint8_t qname_raw[DNS_NAME_MAX];	/* as received, echoed back */

	bool edns;			/* an OPT record was present */
	uint8_t edns_version;
	bool edns_do;			/* DNSSEC OK bit */
	uint16_t edns_udp_size;		/* requester's payload size */
};

/*
 * Parses the @len bytes at @buf as a DNS query into *@q.  Reads nothing
 * outside buf[0 .. len), writes only *@q.  @buf may be NULL when @len is
 * 0.
 */
enum dns_parse_status dns_parse_query(const uint8_t *buf, size_t len,
				      struct dns_query *q);

enum dns_parse_action dns_parse_action(enum dns_parse_status status);

/* A short description of @status, for logs and test messages. */
const char *dns_parse_strerror(enum dns_parse_status status);

/* ------------------------------------------------------------------------
 * Responses (dnswire.c).
 *
 * Usage: dns_response_init(), any number of dns_response_add_rrset(),
 * then dns_response_finish(), which returns the length to send.
 */
struct dns_response {
	uint8_t *buf;
	size_t limit;		/* the response may not grow past this */
	size_t len;		/* bytes written so far */
	size_t question_end;	/* offset after the question section */
	const struct dns_query *q;
	uint16_t ancount;
	bool truncated;		/* an RRset did not fit: send TC, no answers */
};

/*
 * Buffer size that is always enough for a response (the limit never
 * exceeds DNS_UDP_MAX).
 */
#define DNS_RESPONSE_BUF	DNS_UDP_MAX

/*
 * Starts a response to the well-formed query @q (dns_parse_query() gave
 * DNS_PARSE_OK) in @buf, which holds at least DNS_RESPONSE_BUF bytes:
 * header and the question, echoed as received.
 */
void dns_response_init(struct dns_response *r, uint8_t *buf,
		       const struct dns_query *q);

/*
 * Appends @count records of @type and @ttl whose data are the @rdlen
 * bytes at @rdata, @rdata + @rdlen, ...; their owner is the question
 * name (written as a compression pointer).  Returns false, and marks the
 * response truncated, when they do not all fit.
 */
bool dns_response_add_rrset(struct dns_response *r, uint16_t type,
			    uint32_t ttl, const uint8_t *rdata,
			    uint16_t rdlen, unsigned count);

/* Forgets the answers added so far (and a truncation). */
void dns_response_drop_answers(struct dns_response *r);

/*
 * Completes the response with @rcode (an extended rcode needs EDNS in
 * the query; without it only its low 4 bits are sent) and returns its
 * length.  A truncated response loses its answers and gets TC set.
 * Adds an OPT record when the query had one.
 */
size_t dns_response_finish(struct dns_response *r, unsigned rcode);

/*
 * A header-only response (QDCOUNT 0) with @rcode to a query that could
 * not be parsed past its header (FORMERR, NOTIMP).  @q needs only id and
 * flags.  @buf holds at least DNS_HEADER_LEN bytes.  Returns the length.
 */
size_t dns_response_header_only(uint8_t *buf, const struct dns_query *q,
				unsigned rcode);

#endif /* ZONESERVER_DNS_H */
