/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DNS wire format for the zoneserver example: the query parser
 * (dnsparse.c) and the response writer with name compression
 * (dnswire.c).
 *
 * Both are pure: they read and write only the buffers and structures
 * they are given, keep no state, allocate nothing and never fail in any
 * way other than through their return values.  That makes them easy to
 * unit-test (examples/zoneserver/tests/check_zoneserver.c) and to fuzz
 * (fuzz_answer.c, fuzz_tcp.c).  Nothing here knows about RCU or zones.
 */
#ifndef ZONESERVER_DNS_H
#define ZONESERVER_DNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DNS_HEADER_LEN		12
#define DNS_LABEL_MAX		63
#define DNS_NAME_MAX		255	/* wire length, root label included */
/* A UDP query longer than this is answered with FORMERR. */
#define DNS_QUERY_MAX		4096
/* Responses to UDP queries without EDNS are at most this long. */
#define DNS_UDP_CLASSIC		512
/* Largest UDP response we send, and the size we advertise in EDNS. */
#define DNS_UDP_MAX		1232
/* Largest message over TCP (its two-byte length prefix). */
#define DNS_TCP_MAX		65535

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
	DNS_OPCODE_NOTIFY = 4,
	DNS_OPCODE_UPDATE = 5,
};

enum {
	DNS_TYPE_A = 1,
	DNS_TYPE_NS = 2,
	DNS_TYPE_CNAME = 5,
	DNS_TYPE_SOA = 6,
	DNS_TYPE_PTR = 12,
	DNS_TYPE_MX = 15,
	DNS_TYPE_TXT = 16,
	DNS_TYPE_AAAA = 28,
	DNS_TYPE_SRV = 33,
	DNS_TYPE_DNAME = 39,
	DNS_TYPE_OPT = 41,
	DNS_TYPE_DS = 43,
	DNS_TYPE_RRSIG = 46,
	DNS_TYPE_NSEC = 47,
	DNS_TYPE_IXFR = 251,
	DNS_TYPE_AXFR = 252,
	DNS_TYPE_ANY = 255,
};

enum {
	DNS_CLASS_IN = 1,
	DNS_CLASS_CH = 3,
	DNS_CLASS_ANY = 255,
};

enum {
	DNS_RCODE_NOERROR = 0,
	DNS_RCODE_FORMERR = 1,
	DNS_RCODE_SERVFAIL = 2,
	DNS_RCODE_NXDOMAIN = 3,
	DNS_RCODE_NOTIMP = 4,
	DNS_RCODE_REFUSED = 5,
	DNS_RCODE_NOTAUTH = 9,
	/* Extended (EDNS) rcode: upper 8 bits travel in the OPT record. */
	DNS_RCODE_BADVERS = 16,
};

/* EDNS option codes we read or write. */
#define DNS_EDNS_NSID		3
#define DNS_EDNS_EDE		15
/* Extended DNS error 20: "Not Authoritative" (RFC 8914). */
#define DNS_EDE_NOT_AUTH	20

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
	/*
	 * An opcode other than QUERY: the question (when it parses) is
	 * valid, the rest was not read.  Answered by dns_answer.
	 */
	DNS_PARSE_OPCODE,
	DNS_PARSE_NSTATUS
};

enum dns_parse_action {
	DNS_ACTION_ANSWER,		/* a well-formed query, or an opcode */
	DNS_ACTION_DROP,
	DNS_ACTION_FORMERR,
};

/* A parsed query.  Fields are valid as listed for each status. */
struct dns_query {
	/* Valid for every status but DNS_PARSE_SHORT_HEADER. */
	uint16_t id;
	uint16_t flags;			/* header word 2, as received */

	/*
	 * Valid for DNS_PARSE_OK, and for DNS_PARSE_OPCODE when
	 * qname_len is not 0.
	 */
	uint16_t qtype;
	uint16_t qclass;
	uint16_t qname_len;		/* wire length, root label included */
	uint8_t qname[DNS_NAME_MAX];	/* lowercased (ASCII A-Z only) */
	uint8_t qname_raw[DNS_NAME_MAX];	/* as received, echoed back */

	/* Valid for DNS_PARSE_OK. */
	bool edns;			/* an OPT record was present */
	bool edns_do;			/* DNSSEC OK bit */
	bool edns_nsid;			/* the NSID option was asked for */
	uint8_t edns_version;
	uint16_t edns_udp_size;		/* requester's payload size */
};

/*
 * Parses the @len bytes at @buf as a DNS query into *@q.  Reads nothing
 * outside buf[0 .. len), writes only *@q.  @buf may be NULL when @len is
 * 0.  @max is the longest message accepted (DNS_QUERY_MAX for UDP).
 */
enum dns_parse_status dns_parse_query(const uint8_t *buf, size_t len,
				      size_t max, struct dns_query *q);

enum dns_parse_action dns_parse_action(enum dns_parse_status status);

/* A short description of @status, for logs and test messages. */
const char *dns_parse_strerror(enum dns_parse_status status);

/* ------------------------------------------------------------------------
 * Responses (dnswire.c).
 *
 * dns_msg_init() writes the header and the question; records are added
 * section by section (answer, then authority, then additional) with
 * dns_msg_put_rr(); dns_msg_finish() writes the counts, the flags and
 * the OPT record and returns the length to send.  Owner names and the
 * names inside NS, CNAME, PTR, MX and SOA data are compressed against
 * every name already written (RFC 1035 4.1.4); SRV targets are not
 * (RFC 2782).
 */
enum dns_section { DNS_ANSWER, DNS_AUTHORITY, DNS_ADDITIONAL };

/* Names remembered for compression: enough for any answer of ours. */
#define DNS_COMPRESS_SLOTS	64

struct dns_msg {
	uint8_t *buf;
	size_t cap;		/* bytes available at buf */
	size_t limit;		/* the message may not grow past this */
	size_t len;		/* bytes written so far */
	const struct dns_query *q;
	uint16_t count[3];	/* records per section */
	uint16_t flags;		/* AA and TC as decided so far */
	bool tc;		/* a record of answer/authority did not fit */
	/* Where names (or suffixes) start in buf, for compression. */
	uint16_t names[DNS_COMPRESS_SLOTS];
	unsigned nnames;
	const uint8_t *nsid;	/* our NSID (RFC 5001), sent when asked */
	size_t nsid_len;
};

/* Longest NSID we send. */
#define DNS_NSID_MAX		128
/* Room for our own OPT record: header, NSID and EDE options. */
#define DNS_OPT_RESERVE		(11 + 4 + DNS_NSID_MAX + 6)

/*
 * Starts a response to @q (DNS_PARSE_OK, or DNS_PARSE_OPCODE with a
 * question) in @buf of @cap bytes (at least DNS_HEADER_LEN +
 * DNS_NAME_MAX + 4 + DNS_OPT_RESERVE): header and the question, echoed
 * as received.  @tcp: the size limit is DNS_TCP_MAX (or @cap if
 * smaller) instead of the UDP limit the query's EDNS size gives.
 * @nsid (@nsid_len bytes, at most DNS_NSID_MAX; NULL for none) is the
 * server identifier sent to queries that ask for it.
 */
void dns_msg_init(struct dns_msg *m, uint8_t *buf, size_t cap,
		  const struct dns_query *q, bool tcp, const uint8_t *nsid,
		  size_t nsid_len);

/*
 * Appends one record to @section: owner @owner (lowercased wire,
 * @owner_len bytes), @type_class_ttl (8 bytes: type, class, TTL in
 * network order), rdata @rdata of @rdlen bytes.  Returns false, writing
 * nothing, when the record does not fit.
 */
bool dns_msg_put_rr(struct dns_msg *m, enum dns_section section,
		    const uint8_t *owner, size_t owner_len,
		    const uint8_t *type_class_ttl, const uint8_t *rdata,
		    uint16_t rdlen);

/* The current length; dns_msg_rewind() goes back to it. */
struct dns_msg_mark {
	size_t len;
	uint16_t count[3];
	unsigned nnames;
};

void dns_msg_mark(const struct dns_msg *m, struct dns_msg_mark *mark);
void dns_msg_rewind(struct dns_msg *m, const struct dns_msg_mark *mark);

/*
 * Completes the response with @rcode (an extended rcode needs EDNS in
 * the query; without it only its low 4 bits are sent), @aa, TC as
 * m->tc says, and an OPT record when the query had one (with our NSID
 * if asked and we have one, and extended error @ede unless it is -1).
 * Returns the length.
 */
size_t dns_msg_finish(struct dns_msg *m, unsigned rcode, bool aa, int ede);

/*
 * A header-only response (QDCOUNT 0) with @rcode to a query that could
 * not be parsed past its header (FORMERR).  @q needs only id and flags.
 * @buf holds at least DNS_HEADER_LEN bytes.  Returns the length.
 */
size_t dns_msg_header_only(uint8_t *buf, const struct dns_query *q,
			   unsigned rcode);

/* The uncompressed wire names @a and @b are equal, ASCII case aside. */
bool dns_name_equal(const uint8_t *a, const uint8_t *b);

/* Wire length of the uncompressed, well-formed name @name. */
size_t dns_name_len(const uint8_t *name);

#endif /* ZONESERVER_DNS_H */
