/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Check suite "zoneserver": the DNS example server of examples/zoneserver
 * (docs/zoneserver.md).  What the server answers is judged against Knot
 * DNS by difftest.py; this suite covers what a differential test cannot:
 * the parser and writer as units, reloads under load, refused zone
 * files, malformed packets, TCP connection handling.
 *
 *   - "parser": dns_parse_query() on well-formed queries and on one
 *     packet per malformation (short header, response, QDCOUNT, counts,
 *     truncated names and records, reserved label types, long names,
 *     compression in the question, pointer loops and out-of-range
 *     pointers, bad OPT records, trailing bytes, oversize, opcodes);
 *     the response writer's size limits and compression; a
 *     deterministic mutation loop over valid queries (run under the
 *     build's sanitizers).
 *   - "server", "reload", "malformed", for each of the qsbr and memb
 *     reader flavors: the zoneserver program, found next to this
 *     executable, is started on 127.0.0.1 with port 0 (the kernel picks
 *     a free one, which the server prints) and queried with the minimal
 *     DNS client below; then stopped with SIGTERM, after which it must
 *     exit 0 and report no poisoned read.
 *       server:    a sample of answers (A, AAAA, RRsets, case, NODATA,
 *                  NXDOMAIN, REFUSED, NOTIMP, ANY, EDNS, BADVERS, TC);
 *       tcp:       several queries on one connection, pipelined, the
 *                  same answers as UDP without truncation, and the idle
 *                  timeout closing the connection;
 *       reload:    answers before, during and after 100 SIGHUP reloads
 *                  that flip an A record between two values (and
 *                  replace 300 others) while two client threads keep
 *                  querying: every answer must be one of the two, none
 *                  may fail or time out; a broken zone file is refused
 *                  and the old zone kept (a syntax error, a NUL byte, an
 *                  empty file).  The server holds each lookup
 *                  200 us in its read-side section (--hold-us), so that
 *                  a record freed too early would be read, poisoned;
 *       malformed: the same malformed packets sent to the server get
 *                  FORMERR, NOTIMP or no reply as specified, followed
 *                  by random mutations, and the server still answers.
 *   - "dig": queries the server with kdig (or dig); fails, saying what
 *     to install, when neither is installed.
 *
 * Conventions: fork mode; the client threads of "reload" record their
 * failures in harness_failures; the server is killed with this test
 * process (PR_SET_PDEATHSIG) if Check times it out; waits are bounded
 * by times scaled by CK_TIMEOUT_MULTIPLIER.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "harness/child.h"	/* tests/harness, on the include path */
#include "harness/harness.h"
#include "../dns.h"

/* Check timeout of each test (Check scales it). */
#define TEST_TIMEOUT_S		60
/* Bound on one query's reply; on the server's start and reloads. */
#define REPLY_WAIT_S		5.0
#define SERVER_WAIT_S		20.0
/* How long a drop case waits for a reply that must not come. */
#define SILENCE_MS		150
#define SERVER_OUT_MAX		(64 * 1024)
#define RELOADS			100
/* The server's TCP idle timeout in these tests (--tcp-idle-ms). */
#define TCP_IDLE_MS		"500"

static const char *const flavors[] = { "qsbr", "memb" };
#define N_FLAVORS	(sizeof(flavors) / sizeof(flavors[0]))

/* ------------------------------------------------------------------------
 * Building packets (the test's own code, independent of dnswire.c).
 */

struct pkt {
	size_t len;
	uint8_t b[6000];
};

/*
 * Check's assertions talk to the parent process each time, even when
 * they pass: hot paths below test by hand and assert only on failure.
 */
static void put8(struct pkt *p, unsigned v)
{
	if (p->len >= sizeof(p->b))
		ck_abort_msg("test packet overflow");
	p->b[p->len++] = (uint8_t) v;
}

static void put16(struct pkt *p, unsigned v)
{
	put8(p, v >> 8 & 0xff);
	put8(p, v & 0xff);
}

static void put32(struct pkt *p, unsigned long v)
{
	put16(p, (unsigned) (v >> 16 & 0xffff));
	put16(p, (unsigned) (v & 0xffff));
}

/* Dotted @name ("." for the root) as uncompressed labels. */
static void put_name(struct pkt *p, const char *name)
{
	while (*name && strcmp(name, ".") != 0) {
		size_t n = strcspn(name, ".");

		put8(p, (unsigned) n);
		for (size_t i = 0; i < n; i++)
			put8(p, (unsigned char) name[i]);
		name += n;
		if (*name == '.')
			name++;
	}
	put8(p, 0);
}

static void put_header(struct pkt *p, unsigned id, unsigned flags, unsigned qd,
		       unsigned an, unsigned ns, unsigned ar)
{
	p->len = 0;
	put16(p, id);
	put16(p, flags);
	put16(p, qd);
	put16(p, an);
	put16(p, ns);
	put16(p, ar);
}

/* An EDNS OPT record with @rdlen bytes of options. */
static void put_opt(struct pkt *p, unsigned udp, unsigned version, bool dnssec_ok,
		    const uint8_t *rdata, unsigned rdlen)
{
	put8(p, 0);
	put16(p, DNS_TYPE_OPT);
	put16(p, udp);
	put32(p, (unsigned long) version << 16 | (dnssec_ok ? 0x8000 : 0));
	put16(p, rdlen);
	for (unsigned i = 0; i < rdlen; i++)
		put8(p, rdata[i]);
}

static void build_query(struct pkt *p, unsigned id, const char *name,
			unsigned type, unsigned qclass)
{
	put_header(p, id, DNS_FLAG_RD, 1, 0, 0, 0);
	put_name(p, name);
	put16(p, type);
	put16(p, qclass);
}

/* A query with an OPT record (EDNS @version, payload @udp). */
static void build_query_edns(struct pkt *p, unsigned id, const char *name,
			     unsigned type, unsigned udp, unsigned version)
{
	/* A cookie option, as dig sends: code 10, 8 bytes. */
	static const uint8_t cookie[] = { 0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8 };

	put_header(p, id, DNS_FLAG_RD, 1, 0, 0, 1);
	put_name(p, name);
	put16(p, type);
	put16(p, DNS_CLASS_IN);
	put_opt(p, udp, version, true, cookie, sizeof(cookie));
}

/* ------------------------------------------------------------------------
 * The malformed packets: parser expectations and the server's reply.
 */

#define NO_REPLY	(-1)

struct bad_case {
	const char *name;
	void (*build)(struct pkt *p, unsigned id);
	enum dns_parse_status status;
	int rcode;			/* of the reply, or NO_REPLY */
};

/* The fixed part of most cases: a header and the www question. */
static void base_query(struct pkt *p, unsigned id, unsigned qd, unsigned an,
		       unsigned ar)
{
	put_header(p, id, 0, qd, an, 0, ar);
	put_name(p, "www.example.com");
	put16(p, DNS_TYPE_A);
	put16(p, DNS_CLASS_IN);
}

static void bad_empty(struct pkt *p, unsigned id)
{
	(void) id;
	p->len = 0;
}

static void bad_short_header(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	p->len = 11;
}

static void bad_response(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	p->b[2] |= 0x80;		/* QR */
}

static void bad_qdcount0(struct pkt *p, unsigned id)
{
	put_header(p, id, 0, 0, 0, 0, 0);
}

static void bad_qdcount2(struct pkt *p, unsigned id)
{
	base_query(p, id, 2, 0, 0);
	put_name(p, "other.example.com");
	put16(p, DNS_TYPE_A);
	put16(p, DNS_CLASS_IN);
}

static void bad_ancount(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 1, 0);
}

static void bad_truncated_name(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	p->len = DNS_HEADER_LEN + 6;	/* "\3www\7ex" */
}

static void bad_no_type(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	p->len -= 3;			/* half the type, no class */
}

static void bad_label_0x40(struct pkt *p, unsigned id)
{
	put_header(p, id, 0, 1, 0, 0, 0);
	put8(p, 0x41);
	put8(p, 'x');
	put8(p, 0);
	put16(p, DNS_TYPE_A);
	put16(p, DNS_CLASS_IN);
}

static void bad_label_0x80(struct pkt *p, unsigned id)
{
	bad_label_0x40(p, id);
	p->b[DNS_HEADER_LEN] = 0x81;
}

/* @labels labels of 63 'a's, then the root, type and class. */
static void long_name(struct pkt *p, unsigned id, unsigned labels, unsigned extra)
{
	put_header(p, id, 0, 1, 0, 0, 0);
	for (unsigned l = 0; l < labels; l++) {
		put8(p, 63);
		for (int i = 0; i < 63; i++)
			put8(p, 'a');
	}
	if (extra) {
		put8(p, extra);
		for (unsigned i = 0; i < extra; i++)
			put8(p, 'b');
	}
	put8(p, 0);
	put16(p, DNS_TYPE_A);
	put16(p, DNS_CLASS_IN);
}

static void bad_name_too_long(struct pkt *p, unsigned id)
{
	long_name(p, id, 4, 2);		/* 4 * 64 + 3 + 1 = 260 bytes */
}

static void bad_pointer_in_question(struct pkt *p, unsigned id)
{
	put_header(p, id, 0, 1, 0, 0, 0);
	put8(p, 0xc0);
	put8(p, DNS_HEADER_LEN);	/* points at itself */
	put16(p, DNS_TYPE_A);
	put16(p, DNS_CLASS_IN);
}

/* The question, then one additional record owned by "x" + pointer. */
static void additional_pointer(struct pkt *p, unsigned id, unsigned target,
			       bool label_first)
{
	size_t start;

	base_query(p, id, 1, 0, 1);
	start = p->len;
	if (label_first) {
		put8(p, 1);
		put8(p, 'x');
	}
	if (target == (unsigned) -1)
		target = (unsigned) start;	/* the name itself */
	put16(p, 0xc000 | target);
	put16(p, 16);			/* TXT */
	put16(p, DNS_CLASS_IN);
	put32(p, 0);
	put16(p, 0);
}

static void bad_pointer_self(struct pkt *p, unsigned id)
{
	additional_pointer(p, id, (unsigned) -1, false);
}

static void bad_pointer_loop(struct pkt *p, unsigned id)
{
	/* "x" then back to the start of the same name: x.x.x.x... */
	additional_pointer(p, id, (unsigned) -1, true);
}

static void bad_pointer_forward(struct pkt *p, unsigned id)
{
	additional_pointer(p, id, 0, false);
	/* Rewrite the pointer to land on the record's type field. */
	p->b[p->len - 10 - 2] = 0xc0;
	p->b[p->len - 10 - 1] = (uint8_t) (p->len - 10);
}

static void bad_pointer_header(struct pkt *p, unsigned id)
{
	additional_pointer(p, id, 4, false);
}

static void bad_pointer_past_end(struct pkt *p, unsigned id)
{
	additional_pointer(p, id, 0x3fff, false);
}

static void good_pointer(struct pkt *p, unsigned id)
{
	additional_pointer(p, id, DNS_HEADER_LEN, false);
}

static void bad_two_opts(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 2);
	put_opt(p, 1232, 0, false, NULL, 0);
	put_opt(p, 1232, 0, false, NULL, 0);
}

static void bad_opt_owner(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 1);
	put_name(p, "x");
	put16(p, DNS_TYPE_OPT);
	put16(p, 1232);
	put32(p, 0);
	put16(p, 0);
}

static void bad_opt_option(struct pkt *p, unsigned id)
{
	/* An option that claims 9 bytes inside 6 bytes of RDATA. */
	static const uint8_t options[] = { 0, 10, 0, 9, 1, 2 };

	base_query(p, id, 1, 0, 1);
	put_opt(p, 1232, 0, false, options, sizeof(options));
}

static void bad_rdata_overrun(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 1);
	put_opt(p, 1232, 0, false, NULL, 0);
	p->b[p->len - 1] = 20;		/* RDLENGTH 20, no data */
}

static void bad_arcount(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 3);
}

static void bad_trailing(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	put8(p, 1);
	put8(p, 2);
	put8(p, 3);
}

static void bad_oversize(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	while (p->len < 5000)
		put8(p, 0);
}

static void bad_opcode_update(struct pkt *p, unsigned id)
{
	base_query(p, id, 1, 0, 0);
	p->b[2] |= 5 << 3;		/* opcode UPDATE */
}

static void bad_opcode_status(struct pkt *p, unsigned id)
{
	put_header(p, id, 2 << 11, 0, 0, 0, 0);	/* STATUS, no question */
}

static const struct bad_case bad_cases[] = {
	{ "empty datagram", bad_empty, DNS_PARSE_SHORT_HEADER, NO_REPLY },
	{ "11-byte header", bad_short_header, DNS_PARSE_SHORT_HEADER, NO_REPLY },
	{ "QR set", bad_response, DNS_PARSE_RESPONSE, NO_REPLY },
	{ "QDCOUNT 0", bad_qdcount0, DNS_PARSE_QDCOUNT, DNS_RCODE_FORMERR },
	{ "QDCOUNT 2", bad_qdcount2, DNS_PARSE_QDCOUNT, DNS_RCODE_FORMERR },
	{ "ANCOUNT 1", bad_ancount, DNS_PARSE_COUNTS, DNS_RCODE_FORMERR },
	{ "truncated name", bad_truncated_name, DNS_PARSE_TRUNCATED, DNS_RCODE_FORMERR },
	{ "no type/class", bad_no_type, DNS_PARSE_TRUNCATED, DNS_RCODE_FORMERR },
	{ "label type 0x40", bad_label_0x40, DNS_PARSE_BAD_LABEL, DNS_RCODE_FORMERR },
	{ "label type 0x80", bad_label_0x80, DNS_PARSE_BAD_LABEL, DNS_RCODE_FORMERR },
	{ "260-byte name", bad_name_too_long, DNS_PARSE_NAME_TOO_LONG, DNS_RCODE_FORMERR },
	{ "pointer in question", bad_pointer_in_question,
	  DNS_PARSE_POINTER_IN_QUESTION, DNS_RCODE_FORMERR },
	{ "pointer to itself", bad_pointer_self, DNS_PARSE_POINTER_LOOP, DNS_RCODE_FORMERR },
	{ "pointer loop", bad_pointer_loop, DNS_PARSE_POINTER_LOOP, DNS_RCODE_FORMERR },
	{ "pointer forward", bad_pointer_forward, DNS_PARSE_POINTER_LOOP, DNS_RCODE_FORMERR },
	{ "pointer into header", bad_pointer_header, DNS_PARSE_BAD_POINTER, DNS_RCODE_FORMERR },
	{ "pointer past end", bad_pointer_past_end, DNS_PARSE_BAD_POINTER, DNS_RCODE_FORMERR },
	{ "two OPT records", bad_two_opts, DNS_PARSE_BAD_OPT, DNS_RCODE_FORMERR },
	{ "OPT not at root", bad_opt_owner, DNS_PARSE_BAD_OPT, DNS_RCODE_FORMERR },
	{ "OPT option overrun", bad_opt_option, DNS_PARSE_BAD_OPT, DNS_RCODE_FORMERR },
	{ "RDATA overrun", bad_rdata_overrun, DNS_PARSE_TRUNCATED, DNS_RCODE_FORMERR },
	{ "ARCOUNT past end", bad_arcount, DNS_PARSE_TRUNCATED, DNS_RCODE_FORMERR },
	{ "trailing bytes", bad_trailing, DNS_PARSE_TRAILING, DNS_RCODE_FORMERR },
	{ "5000 bytes", bad_oversize, DNS_PARSE_OVERSIZE, DNS_RCODE_FORMERR },
	{ "opcode UPDATE", bad_opcode_update, DNS_PARSE_OPCODE, DNS_RCODE_NOTAUTH },
	{ "opcode STATUS", bad_opcode_status, DNS_PARSE_OPCODE, DNS_RCODE_NOTIMP },
};
#define N_BAD_CASES	(sizeof(bad_cases) / sizeof(bad_cases[0]))

/* ------------------------------------------------------------------------
 * Reading responses (the test's own code).
 */

#define MAX_ANSWERS	64

struct answer {
	uint16_t type, rclass, rdlen;
	uint32_t ttl;
	uint8_t rdata[16];
	char owner[300];
};

struct reply {
	uint16_t id, flags, qdcount, ancount, nscount, arcount;
	unsigned rcode;			/* EDNS upper bits included */
	char qname[300];		/* dotted, case as sent back */
	uint16_t qtype, qclass;
	unsigned nanswers;
	struct answer ans[MAX_ANSWERS];
	unsigned nauthority;
	bool opt;
	uint16_t opt_udp;
	uint8_t opt_version;
	size_t len;
};

static unsigned get16(const uint8_t *b)
{
	return (unsigned) b[0] << 8 | b[1];
}

/* A name at b[*pos] as dotted text, following pointers (16 at most). */
static bool read_name(const uint8_t *b, size_t len, size_t *pos, char *out,
		      size_t outlen)
{
	size_t p = *pos, o = 0;
	int hops = 0;
	bool jumped = false;

	out[0] = '\0';
	for (;;) {
		unsigned l;

		if (p >= len)
			return false;
		l = b[p];
		if ((l & 0xc0) == 0xc0) {
			if (p + 1 >= len || ++hops > 16)
				return false;
			if (!jumped)
				*pos = p + 2;
			jumped = true;
			p = (l & 0x3f) << 8 | b[p + 1];
			continue;
		}
		if (l & 0xc0 || p + 1 + l > len || o + l + 2 > outlen)
			return false;
		if (l == 0)
			break;
		if (o)
			out[o++] = '.';
		memcpy(out + o, b + p + 1, l);
		o += l;
		out[o] = '\0';
		p += 1 + l;
	}
	if (o == 0)
		snprintf(out, outlen, ".");
	if (!jumped)
		*pos = p + 1;
	return true;
}

static bool parse_reply(const uint8_t *b, size_t len, struct reply *r)
{
	size_t pos = DNS_HEADER_LEN;

	memset(r, 0, sizeof(*r));
	r->len = len;
	if (len < DNS_HEADER_LEN)
		return false;
	r->id = (uint16_t) get16(b);
	r->flags = (uint16_t) get16(b + 2);
	r->qdcount = (uint16_t) get16(b + 4);
	r->ancount = (uint16_t) get16(b + 6);
	r->nscount = (uint16_t) get16(b + 8);
	r->arcount = (uint16_t) get16(b + 10);
	r->rcode = r->flags & 0xf;
	if (r->qdcount > 1 || r->ancount > MAX_ANSWERS)
		return false;
	if (r->qdcount) {
		if (!read_name(b, len, &pos, r->qname, sizeof(r->qname)) ||
		    pos + 4 > len)
			return false;
		r->qtype = (uint16_t) get16(b + pos);
		r->qclass = (uint16_t) get16(b + pos + 2);
		pos += 4;
	}
	for (unsigned i = 0; i < (unsigned) r->ancount + r->nscount + r->arcount;
	     i++) {
		struct answer a;
		size_t rdlen;

		memset(&a, 0, sizeof(a));
		if (!read_name(b, len, &pos, a.owner, sizeof(a.owner)) ||
		    pos + 10 > len)
			return false;
		a.type = (uint16_t) get16(b + pos);
		a.rclass = (uint16_t) get16(b + pos + 2);
		a.ttl = (uint32_t) get16(b + pos + 4) << 16 | get16(b + pos + 6);
		rdlen = get16(b + pos + 8);
		pos += 10;
		if (pos + rdlen > len)
			return false;
		if (i < r->ancount) {
			/* The first bytes of the data: enough for addresses. */
			a.rdlen = (uint16_t) rdlen;
			memcpy(a.rdata, b + pos,
			       rdlen < sizeof(a.rdata) ? rdlen : sizeof(a.rdata));
			r->ans[r->nanswers++] = a;
		} else if (i < (unsigned) r->ancount + r->nscount) {
			r->nauthority++;
		} else if (a.type == DNS_TYPE_OPT) {
			r->opt = true;
			r->opt_udp = a.rclass;
			r->opt_version = (uint8_t) (a.ttl >> 16);
			r->rcode |= (a.ttl >> 24) << 4;
		}
		pos += rdlen;
	}
	return pos == len;
}

/* The address in answer @i as text ("?" for another type). */
static const char *answer_text(const struct reply *r, unsigned i, char *buf,
			       size_t size)
{
	const struct answer *a = &r->ans[i];

	if (a->type == DNS_TYPE_A && a->rdlen == 4)
		inet_ntop(AF_INET, a->rdata, buf, (socklen_t) size);
	else if (a->type == DNS_TYPE_AAAA && a->rdlen == 16)
		inet_ntop(AF_INET6, a->rdata, buf, (socklen_t) size);
	else
		snprintf(buf, size, "?");
	return buf;
}

/* ------------------------------------------------------------------------
 * The client: a UDP socket connected to the server.
 */

struct client {
	int fd;
	unsigned next_id;
};

static int client_open(struct client *c, unsigned port)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c->next_id = 0x1000;
	c->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	if (connect(c->fd, (struct sockaddr *) &to, sizeof(to)) < 0) {
		close(c->fd);
		return -1;
	}
	return 0;
}

static void client_close(struct client *c)
{
	close(c->fd);
}

static bool client_send(struct client *c, const struct pkt *p)
{
	return send(c->fd, p->b, p->len, 0) == (ssize_t) p->len;
}

/*
 * Receives one datagram within @ms milliseconds into @r.  Returns 1,
 * 0 on timeout, -1 on an error (the server's port closed: it died).
 * Unparsable replies count as errors too (*@why says which).
 */
static int client_recv(struct client *c, struct reply *r, long ms,
		       const char **why)
{
	double deadline = harness_now() + (double) ms / 1000.0;
	uint8_t buf[65536];

	for (;;) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		long left = (long) ((deadline - harness_now()) * 1000.0);
		ssize_t n;

		if (left <= 0)
			return 0;
		if (poll(&pfd, 1, (int) left) <= 0)
			continue;
		n = recv(c->fd, buf, sizeof(buf), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*why = strerror(errno);
			return -1;
		}
		if (!parse_reply(buf, (size_t) n, r)) {
			*why = "unparsable reply";
			return -1;
		}
		return 1;
	}
}

/*
 * Sends @p (whose ID is @id) and waits for the reply with that ID,
 * skipping late replies to earlier queries.  Returns 1 with the reply
 * in @r, 0 on timeout, -1 on error.
 */
static int client_exchange(struct client *c, const struct pkt *p, unsigned id,
			   struct reply *r, const char **why)
{
	double deadline = harness_deadline(REPLY_WAIT_S);
	int got;

	*why = "timeout";
	if (!client_send(c, p)) {
		*why = strerror(errno);
		return -1;
	}
	do {
		long ms = (long) ((deadline - harness_now()) * 1000.0);

		got = client_recv(c, r, ms > 0 ? ms : 1, why);
		if (got <= 0)
			return got;
	} while (r->id != id);
	return 1;
}

/* For the test thread: one query, its reply checked for ID and echo. */
static void ask(struct client *c, struct pkt *p, unsigned id, struct reply *r)
{
	const char *why = "";
	int got = client_exchange(c, p, id, r, &why);

	ck_assert_msg(got == 1, "no reply to query %#x: %s", id, why);
	ck_assert_msg(r->flags & DNS_FLAG_QR, "reply without QR");
}

static void ask_name(struct client *c, const char *name, unsigned type,
		     unsigned qclass, struct reply *r)
{
	struct pkt p;
	unsigned id = c->next_id++;

	build_query(&p, id, name, type, qclass);
	ask(c, &p, id, r);
	ck_assert_uint_eq(r->qdcount, 1);
	ck_assert_str_eq(r->qname, name);
	ck_assert_uint_eq(r->qtype, type);
	ck_assert_uint_eq(r->qclass, qclass);
}

/*
 * Asks @name/@type and expects @rcode with exactly the @n addresses of
 * @addrs (in any order) and TTL @ttl.
 */
static void expect(struct client *c, const char *name, unsigned type,
		   unsigned rcode, uint32_t ttl, const char *const *addrs,
		   unsigned n)
{
	struct reply r;
	char buf[64];

	ask_name(c, name, type, DNS_CLASS_IN, &r);
	ck_assert_msg(r.rcode == rcode, "%s/%u: rcode %u, expected %u",
		      name, type, r.rcode, rcode);
	ck_assert_msg(r.flags & DNS_FLAG_AA, "%s/%u: AA not set", name, type);
	ck_assert_msg(r.nanswers == n, "%s/%u: %u answers, expected %u",
		      name, type, r.nanswers, n);
	for (unsigned i = 0; i < n; i++) {
		bool found = false;

		answer_text(&r, i, buf, sizeof(buf));
		for (unsigned j = 0; j < n; j++)
			found |= strcmp(buf, addrs[j]) == 0;
		ck_assert_msg(found, "%s/%u: unexpected answer %s", name, type, buf);
		ck_assert_uint_eq(r.ans[i].type, type);
		ck_assert_uint_eq(r.ans[i].ttl, ttl);
		ck_assert_str_eq(r.ans[i].owner, name);
	}
}

/* ------------------------------------------------------------------------
 * The server process.
 */

struct server {
	pid_t pid;
	int out;			/* its stdout and stderr */
	unsigned port;
	char dir[64];
	char zone[128];
	size_t len;
	char text[SERVER_OUT_MAX];	/* everything it printed */
};

/* Replaces the zone file in one rename(), as an operator would. */
static void write_zone_bytes(struct server *s, const char *text, size_t len)
{
	char tmp[160];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", s->zone);
	f = fopen(tmp, "w");
	ck_assert_msg(f != NULL, "%s: %s", tmp, strerror(errno));
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(rename(tmp, s->zone), 0);
}

static void write_zone(struct server *s, const char *text)
{
	write_zone_bytes(s, text, strlen(text));
}

/*
 * The end of what the server printed, for failure messages: Check
 * refuses messages longer than a few kilobytes.
 */
static const char *server_tail(const struct server *s)
{
	return s->len > 2000 ? s->text + s->len - 2000 : s->text;
}

/* Reads what the server printed until @deadline or EOF; false at EOF. */
static bool server_read(struct server *s, double deadline)
{
	char buf[4096];

	for (;;) {
		struct pollfd pfd = { .fd = s->out, .events = POLLIN };
		long left = (long) ((deadline - harness_now()) * 1000.0);
		ssize_t got;

		if (left <= 0)
			return true;
		if (poll(&pfd, 1, (int) (left < 100 ? left : 100)) <= 0)
			continue;
		got = read(s->out, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		if ((size_t) got > sizeof(s->text) - 1 - s->len)
			got = (ssize_t) (sizeof(s->text) - 1 - s->len);
		memcpy(s->text + s->len, buf, (size_t) got);
		s->len += (size_t) got;
		s->text[s->len] = '\0';
		return true;
	}
}

/* Waits until the output holds @needle; false after SERVER_WAIT_S. */
static bool server_wait_for(struct server *s, const char *needle)
{
	double deadline = harness_deadline(SERVER_WAIT_S);

	while (!strstr(s->text, needle)) {
		if (harness_past(deadline) || !server_read(s, deadline))
			return false;
	}
	return true;
}

/*
 * Starts the server with @zone, @threads readers of @flavor and, when
 * @hold_us is not 0, --hold-us @hold_us.
 */
static void server_start(struct server *s, const char *flavor, unsigned threads,
			 const char *zone, unsigned hold_us)
{
	char path[PATH_MAX + 64], nthreads[16], hold[16], zonearg[160];
	const char *argv[16];
	const char *at;

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/check_zoneserver.XXXXXX");
	ck_assert_msg(mkdtemp(s->dir) != NULL, "mkdtemp: %s", strerror(errno));
	snprintf(s->zone, sizeof(s->zone), "%s/test.zone", s->dir);
	write_zone(s, zone);
	harness_program_path("zoneserver", path, sizeof(path));
	snprintf(nthreads, sizeof(nthreads), "%u", threads);
	snprintf(zonearg, sizeof(zonearg), "example.com=%s", s->zone);
	argv[0] = path;
	argv[1] = "--zone";
	argv[2] = zonearg;
	argv[3] = "--addr";
	argv[4] = "127.0.0.1";
	argv[5] = "--port";
	argv[6] = "0";
	argv[7] = "--threads";
	argv[8] = nthreads;
	argv[9] = "--flavor";
	argv[10] = flavor;
	argv[11] = "--tcp-idle-ms";
	argv[12] = TCP_IDLE_MS;
	argv[13] = NULL;
	if (hold_us) {
		snprintf(hold, sizeof(hold), "%u", hold_us);
		argv[13] = "--hold-us";
		argv[14] = hold;
		argv[15] = NULL;
	}

	s->pid = harness_start_program(path, argv, &s->out);
	ck_assert_msg(server_wait_for(s, "listening on 127.0.0.1:"),
		      "the server did not start; it printed:\n%s", server_tail(s));
	at = strstr(s->text, "listening on 127.0.0.1:");
	ck_assert_int_eq(sscanf(at, "listening on 127.0.0.1:%u", &s->port), 1);
	ck_assert_uint_gt(s->port, 0);
}

/* Prints what the server printed so far, and within the next second. */
static void server_dump(struct server *s)
{
	double deadline = harness_now() + 1.0;

	while (!harness_past(deadline) && server_read(s, deadline))
		;
	fprintf(stderr, "----- zoneserver output -----\n%s----- end -----\n",
		s->text);
}

/* SIGHUP, then waits for the report of reload @n ("ok" or "failed"). */
static void server_reload(struct server *s, unsigned n, const char *outcome)
{
	char needle[64];

	snprintf(needle, sizeof(needle), "reload %u %s", n, outcome);
	ck_assert_int_eq(kill(s->pid, SIGHUP), 0);
	ck_assert_msg(server_wait_for(s, needle), "no \"%s\" from the server; "
		      "it printed:\n%s", needle, server_tail(s));
}

/*
 * SIGTERM; the server must exit 0 after reporting no poisoned read and
 * without sanitizer reports.
 */
static void server_stop(struct server *s)
{
	double deadline = harness_deadline(SERVER_WAIT_S);
	bool timed_out = false, clean;
	const char *stats;
	int status;
	char path[200];

	ck_assert_int_eq(kill(s->pid, SIGTERM), 0);
	while (server_read(s, deadline))
		if (harness_past(deadline)) {
			kill(s->pid, SIGKILL);
			timed_out = true;
			break;
		}
	close(s->out);
	while (waitpid(s->pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	clean = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		strstr(s->text, "poisoned reads 0\n") &&
		!strstr(s->text, "Sanitizer") && !strstr(s->text, "runtime error");
	stats = strstr(s->text, "zoneserver: stats:");
	if (clean && stats)
		fprintf(stderr, "%.*s", (int) (strcspn(stats, "\n") + 1), stats);
	else
		fprintf(stderr, "----- zoneserver output -----\n%s----- end -----\n",
			s->text);
	ck_assert_msg(!timed_out, "the server did not exit on SIGTERM");
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the server ended with status %#x (output in the log)",
		      status);
	ck_assert_msg(strstr(s->text, "poisoned reads 0\n") != NULL,
		      "no \"poisoned reads 0\" in the server's output");
	ck_assert_msg(!strstr(s->text, "Sanitizer") &&
		      !strstr(s->text, "runtime error"),
		      "sanitizer report in the server's output");
	snprintf(path, sizeof(path), "%s.new", s->zone);
	unlink(path);
	unlink(s->zone);
	rmdir(s->dir);
}

/* ------------------------------------------------------------------------
 * Parser unit tests.
 */

START_TEST(test_parse_valid)
{
	struct dns_query q;
	struct pkt p;

	build_query(&p, 0xbeef, "WwW.Example.COM", DNS_TYPE_AAAA, DNS_CLASS_IN);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert_uint_eq(q.id, 0xbeef);
	ck_assert_uint_eq(q.flags, DNS_FLAG_RD);
	ck_assert_uint_eq(q.qtype, DNS_TYPE_AAAA);
	ck_assert_uint_eq(q.qclass, DNS_CLASS_IN);
	ck_assert_uint_eq(q.qname_len, 17);
	ck_assert_int_eq(memcmp(q.qname, "\3www\7example\3com", 17), 0);
	ck_assert_int_eq(memcmp(q.qname_raw, "\3WwW\7Example\3COM", 17), 0);
	ck_assert(!q.edns);
	ck_assert_int_eq(dns_parse_action(DNS_PARSE_OK), DNS_ACTION_ANSWER);

	build_query_edns(&p, 7, "www.example.com", DNS_TYPE_A, 4096, 0);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert(q.edns);
	ck_assert(q.edns_do);
	ck_assert_uint_eq(q.edns_udp_size, 4096);
	ck_assert_uint_eq(q.edns_version, 0);

	build_query_edns(&p, 7, "www.example.com", DNS_TYPE_A, 512, 3);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert_uint_eq(q.edns_version, 3);

	/* The root name, and a name of exactly 255 bytes. */
	build_query(&p, 1, ".", DNS_TYPE_A, DNS_CLASS_IN);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert_uint_eq(q.qname_len, 1);
	long_name(&p, 1, 3, 61);	/* 3 * 64 + 62 + 1 = 255 */
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert_uint_eq(q.qname_len, 255);
	long_name(&p, 1, 3, 62);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_NAME_TOO_LONG);

	/* A backward pointer in the additional section is fine. */
	good_pointer(&p, 1);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	ck_assert(!q.edns);

	/* NULL with length 0. */
	ck_assert_int_eq(dns_parse_query(NULL, 0, DNS_QUERY_MAX, &q), DNS_PARSE_SHORT_HEADER);
}
END_TEST

/* _i: index in bad_cases. */
START_TEST(test_parse_malformed)
{
	const struct bad_case *bc = &bad_cases[_i];
	enum dns_parse_status st;
	struct dns_query q;
	struct pkt p;

	bc->build(&p, 0x5150);
	st = dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q);
	ck_assert_msg(st == bc->status, "%s: status %d (%s), expected %d (%s)",
		      bc->name, st, dns_parse_strerror(st), bc->status,
		      dns_parse_strerror(bc->status));
	switch (dns_parse_action(st)) {
	case DNS_ACTION_DROP:
		ck_assert_msg(bc->rcode == NO_REPLY, "%s: dropped", bc->name);
		break;
	case DNS_ACTION_FORMERR:
		ck_assert_msg(bc->rcode == DNS_RCODE_FORMERR, "%s: FORMERR", bc->name);
		break;
	case DNS_ACTION_ANSWER:
		/* Opcodes are answered (NOTIMP, NOTAUTH) by the server. */
		ck_assert_msg(st == DNS_PARSE_OPCODE, "%s: accepted", bc->name);
		break;
	}
	if (bc->rcode != NO_REPLY)
		ck_assert_uint_eq(q.id, 0x5150);
	/* No prefix of it crashes the parser (the sanitizers would tell). */
	for (size_t n = 0; n < p.len; n++)
		if (dns_parse_query(p.b, n, DNS_QUERY_MAX, &q) >= DNS_PARSE_NSTATUS)
			ck_abort_msg("%s: bad status for a %zu-byte prefix",
				     bc->name, n);
}
END_TEST

/* A record of @type with @rdlen bytes of data for the writer tests. */
static bool put_test_rr(struct dns_msg *m, enum dns_section section,
			const uint8_t *owner, uint16_t type, const uint8_t *rdata,
			uint16_t rdlen)
{
	uint8_t tct[8] = { (uint8_t) (type >> 8), (uint8_t) type, 0, 1,
			   0, 0, 0, 60 };

	return dns_msg_put_rr(m, section, owner, dns_name_len(owner), tct,
			      rdata, rdlen);
}

/* The response writer's size limits, compression, header-only replies. */
START_TEST(test_build_limits)
{
	static const uint8_t big[] = "\3big\7example\3com";
	static const uint8_t mx_rdata[] = "\0\12\4mail\7example\3com";
	uint8_t out[DNS_UDP_MAX], rdata[16];
	struct dns_msg m;
	struct dns_query q;
	struct reply rep;
	struct pkt p;
	size_t len;
	unsigned n;

	for (size_t i = 0; i < sizeof(rdata); i++)
		rdata[i] = (uint8_t) i;

	/* 512 bytes without EDNS: 17 of 40 AAAA records fit (12+21+4+17*28). */
	build_query(&p, 9, "big.example.com", DNS_TYPE_AAAA, DNS_CLASS_IN);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	dns_msg_init(&m, out, sizeof(out), &q, false, NULL, 0);
	for (n = 0; n < 40; n++)
		if (!put_test_rr(&m, DNS_ANSWER, big, DNS_TYPE_AAAA, rdata, 16))
			break;
	ck_assert_uint_eq(n, 17);
	m.tc = true;
	len = dns_msg_finish(&m, DNS_RCODE_NOERROR, true, -1);
	ck_assert_uint_le(len, DNS_UDP_CLASSIC);
	ck_assert(parse_reply(out, len, &rep));
	ck_assert(rep.flags & DNS_FLAG_TC);
	ck_assert(rep.flags & DNS_FLAG_AA);
	ck_assert_uint_eq(rep.ancount, 17);
	ck_assert_uint_eq(rep.id, 9);
	/* The owners are pointers to the question: 2 bytes each. */
	ck_assert_uint_eq(len, 12 + 17 + 4 + 17 * 28);

	/* With EDNS and 4096 bytes offered, 1232 minus our OPT record. */
	build_query_edns(&p, 10, "big.example.com", DNS_TYPE_AAAA, 4096, 0);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	dns_msg_init(&m, out, sizeof(out), &q, false, NULL, 0);
	for (n = 0; n < 60; n++)
		if (!put_test_rr(&m, DNS_ANSWER, big, DNS_TYPE_AAAA, rdata, 16))
			break;
	ck_assert_uint_eq(n, (DNS_UDP_MAX - 11 - 12 - 17 - 4) / 28);
	len = dns_msg_finish(&m, DNS_RCODE_NOERROR, true, -1);
	ck_assert_uint_le(len, DNS_UDP_MAX);
	ck_assert(parse_reply(out, len, &rep));
	ck_assert(rep.opt);
	ck_assert_uint_eq(rep.opt_udp, DNS_UDP_MAX);
	ck_assert_int_eq(memcmp(rep.ans[0].rdata, rdata, 16), 0);

	/* Compression: MX data and a later owner point at earlier names. */
	build_query(&p, 12, "example.com", DNS_TYPE_MX, DNS_CLASS_IN);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	dns_msg_init(&m, out, sizeof(out), &q, false, NULL, 0);
	ck_assert(put_test_rr(&m, DNS_ANSWER, (const uint8_t *) "\7example\3com",
			      DNS_TYPE_MX, mx_rdata, sizeof(mx_rdata)));
	/* Owner 2 + fixed 10 + preference 2 + "mail" 5 + pointer 2. */
	ck_assert_uint_eq(m.len, 12 + 13 + 4 + 21);
	ck_assert(put_test_rr(&m, DNS_ADDITIONAL,
			      (const uint8_t *) "\4mail\7example\3com",
			      DNS_TYPE_A, rdata, 4));
	/* Owner: one pointer to "mail.example.com" in the MX data. */
	ck_assert_uint_eq(m.len, 12 + 13 + 4 + 21 + 2 + 10 + 4);
	len = dns_msg_finish(&m, DNS_RCODE_NOERROR, true, -1);
	ck_assert(parse_reply(out, len, &rep));
	ck_assert_uint_eq(rep.arcount, 1);

	/* An EDNS size below 512 counts as 512; BADVERS needs the OPT record. */
	build_query_edns(&p, 11, "big.example.com", DNS_TYPE_A, 100, 0);
	ck_assert_int_eq(dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q), DNS_PARSE_OK);
	dns_msg_init(&m, out, sizeof(out), &q, false, NULL, 0);
	ck_assert_uint_eq(m.limit, DNS_UDP_CLASSIC - 11);
	len = dns_msg_finish(&m, DNS_RCODE_BADVERS, false, -1);
	ck_assert(parse_reply(out, len, &rep));
	ck_assert_uint_eq(rep.rcode, DNS_RCODE_BADVERS);
	ck_assert(!(rep.flags & DNS_FLAG_AA));

	/* Header-only FORMERR: ID, opcode and RD kept, no question. */
	q.id = 0x1234;
	q.flags = DNS_FLAG_RD | 2 << 11;
	len = dns_msg_header_only(out, &q, DNS_RCODE_FORMERR);
	ck_assert_uint_eq(len, DNS_HEADER_LEN);
	ck_assert(parse_reply(out, len, &rep));
	ck_assert_uint_eq(rep.id, 0x1234);
	ck_assert_uint_eq(rep.flags, DNS_FLAG_QR | DNS_FLAG_RD | 2 << 11 |
				     DNS_RCODE_FORMERR);
	ck_assert_uint_eq(rep.qdcount, 0);
}
END_TEST

/* xorshift64*: deterministic pseudo-random numbers for the mutations. */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

/* Mutates a valid query at random: flips, truncation, extension. */
static void mutate(struct pkt *p, uint64_t *rng)
{
	unsigned n = 1 + (unsigned) (next_random(rng) % 4);

	for (unsigned k = 0; k < n; k++) {
		uint64_t r = next_random(rng);

		switch (r % 5) {
		case 0:
		case 1:
			if (p->len)
				p->b[(r >> 8) % p->len] = (uint8_t) (r >> 32);
			break;
		case 2:
			if (p->len)
				p->b[(r >> 8) % p->len] ^= (uint8_t) (1u << (r >> 40) % 8);
			break;
		case 3:
			if (p->len)
				p->len = (r >> 8) % p->len;
			break;
		case 4:
			for (unsigned i = (r >> 8) % 16; i > 0 && p->len < 600; i--)
				p->b[p->len++] = (uint8_t) next_random(rng);
			break;
		}
	}
}

/* A random valid query to start mutating from. */
static void random_seed_query(struct pkt *p, uint64_t *rng)
{
	switch (next_random(rng) % 4) {
	case 0:
		build_query(p, 1, "www.example.com", DNS_TYPE_A, DNS_CLASS_IN);
		break;
	case 1:
		build_query_edns(p, 2, "multi.example.com", DNS_TYPE_AAAA, 1232, 0);
		break;
	case 2:
		good_pointer(p, 3);
		break;
	default:
		bad_two_opts(p, 4);
		break;
	}
}

/* Mutated queries: the parser never crashes, answers stay bounded. */
START_TEST(test_parse_mutations)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	static const uint8_t owner[] = "\3www\7example\3com";
	uint8_t out[DNS_UDP_MAX], rdata[16] = { 0 };
	unsigned accepted = 0;

	for (int iter = 0; iter < 200000; iter++) {
		enum dns_parse_status st;
		struct dns_msg m;
		struct dns_query q;
		struct pkt p;
		size_t len;

		random_seed_query(&p, &rng);
		mutate(&p, &rng);
		st = dns_parse_query(p.b, p.len, DNS_QUERY_MAX, &q);
		if (st >= DNS_PARSE_NSTATUS)
			ck_abort_msg("iteration %d: status %d", iter, st);
		if (st != DNS_PARSE_OK)
			continue;
		accepted++;
		if (q.qname_len < 1 || q.qname_len > DNS_NAME_MAX ||
		    q.qname[q.qname_len - 1] != 0)
			ck_abort_msg("iteration %d: bad name", iter);
		dns_msg_init(&m, out, sizeof(out), &q, false, NULL, 0);
		for (unsigned k = (unsigned) (next_random(&rng) % 64); k > 0; k--)
			if (!put_test_rr(&m, DNS_ANSWER, owner, DNS_TYPE_AAAA,
					 rdata, 16))
				break;
		len = dns_msg_finish(&m, DNS_RCODE_NOERROR, true, -1);
		if (len > (q.edns ? DNS_UDP_MAX : DNS_UDP_CLASSIC))
			ck_abort_msg("iteration %d: %zu-byte response", iter, len);
	}
	/* The mutations must leave some queries valid, or this tests little. */
	ck_assert_uint_gt(accepted, 1000);
}
END_TEST

/* ------------------------------------------------------------------------
 * The server.
 */

static const char answers_zone[] =
	"; the zone of the \"server\" and \"malformed\" tests\n"
	"$ORIGIN example.com.\n"
	"$TTL 300\n"
	"@                   SOA   ns hostmaster 1 3600 600 86400 60\n"
	"@                   NS    ns\n"
	"ns                  A     192.0.2.53\n"
	"www.example.com.    300 A     192.0.2.1\n"
	"www                 300 AAAA  2001:db8::1\n"
	"multi               60  IN A  192.0.2.10   ; an RRset of two\n"
	"MULTI               60  A     192.0.2.11\n"
	"multi               90  A     192.0.2.11   ; duplicate: dropped\n"
	"v4only              30  A     192.0.2.20\n"
	"big                 120 AAAA  2001:db8::100\n";

/* The zone above plus 39 more AAAA records for big.example.com. */
static void big_zone(char *buf, size_t size)
{
	size_t len = (size_t) snprintf(buf, size, "%s", answers_zone);

	for (int i = 1; i < 40; i++)
		len += (size_t) snprintf(buf + len, size - len,
					 "big 120 AAAA 2001:db8::%x\n", 0x100 + i);
}

/* @name gets REFUSED without AA: no zone of ours holds it. */
static void expect_refused(struct client *c, const char *name, unsigned type,
			   unsigned qclass)
{
	struct reply r;

	ask_name(c, name, type, qclass, &r);
	ck_assert_msg(r.rcode == DNS_RCODE_REFUSED, "%s: rcode %u", name, r.rcode);
	ck_assert_msg(!(r.flags & DNS_FLAG_AA), "%s: AA set on REFUSED", name);
	ck_assert_uint_eq(r.nanswers, 0);
}

/* _i: index in flavors. */
START_TEST(test_server_answers)
{
	static const char *const www_a[] = { "192.0.2.1" };
	static const char *const www_aaaa[] = { "2001:db8::1" };
	static const char *const multi[] = { "192.0.2.10", "192.0.2.11" };
	struct server s;
	struct client c;
	struct reply r;
	struct pkt p;
	char zone[4096];
	unsigned id;

	big_zone(zone, sizeof(zone));
	server_start(&s, flavors[_i], 2, zone, 0);
	ck_assert_msg(strstr(s.text, "zone example.com loaded: serial 1, 6 nodes, "
			     "48 records"), "unexpected load report:\n%s", server_tail(&s));
	ck_assert_int_eq(client_open(&c, s.port), 0);

	expect(&c, "www.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, www_a, 1);
	expect(&c, "www.example.com", DNS_TYPE_AAAA, DNS_RCODE_NOERROR, 300,
	       www_aaaa, 1);
	/* The lowest TTL of the RRset, the duplicate dropped. */
	expect(&c, "multi.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 60, multi, 2);
	/* Names are case-insensitive; the question comes back as sent. */
	expect(&c, "WWW.Example.Com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, www_a, 1);
	/* A name without the type: NOERROR, no answer (NODATA). */
	expect(&c, "v4only.example.com", DNS_TYPE_AAAA, DNS_RCODE_NOERROR, 0, NULL, 0);
	expect(&c, "v4only.example.com", DNS_TYPE_MX, DNS_RCODE_NOERROR, 0, NULL, 0);
	/* Unknown names: NXDOMAIN with the SOA, or REFUSED outside. */
	expect(&c, "nothere.example.com", DNS_TYPE_A, DNS_RCODE_NXDOMAIN, 0, NULL, 0);
	ask_name(&c, "nothere.example.com", DNS_TYPE_A, DNS_CLASS_IN, &r);
	ck_assert_uint_eq(r.nauthority, 1);
	expect_refused(&c, "www.example.com.evil", DNS_TYPE_A, DNS_CLASS_IN);
	expect_refused(&c, ".", DNS_TYPE_A, DNS_CLASS_IN);
	expect_refused(&c, "com", DNS_TYPE_SOA, DNS_CLASS_IN);
	/* Another class: REFUSED. */
	expect_refused(&c, "www.example.com", DNS_TYPE_A, DNS_CLASS_CH);
	/* Zone transfers over UDP: NOTIMP. */
	ask_name(&c, "www.example.com", DNS_TYPE_AXFR, DNS_CLASS_IN, &r);
	ck_assert_uint_eq(r.rcode, DNS_RCODE_NOTIMP);
	/* ANY: one RRset, the one of lowest type (RFC 8482, as Knot). */
	ask_name(&c, "www.example.com", DNS_TYPE_ANY, DNS_CLASS_IN, &r);
	ck_assert_uint_eq(r.rcode, DNS_RCODE_NOERROR);
	ck_assert_uint_eq(r.nanswers, 1);
	ck_assert_uint_eq(r.ans[0].type, DNS_TYPE_A);
	/* Opcode STATUS: NOTIMP, header only. */
	id = c.next_id++;
	bad_opcode_status(&p, id);
	ask(&c, &p, id, &r);
	ck_assert_uint_eq(r.rcode, DNS_RCODE_NOTIMP);
	ck_assert_uint_eq(r.qdcount, 0);
	ck_assert(!(r.flags & DNS_FLAG_AA));

	/* EDNS: an OPT record back; version 1 gets BADVERS. */
	id = c.next_id++;
	build_query_edns(&p, id, "www.example.com", DNS_TYPE_A, 1232, 0);
	ask(&c, &p, id, &r);
	ck_assert_uint_eq(r.rcode, DNS_RCODE_NOERROR);
	ck_assert_uint_eq(r.nanswers, 1);
	ck_assert(r.opt);
	ck_assert_uint_eq(r.opt_udp, DNS_UDP_MAX);
	id = c.next_id++;
	build_query_edns(&p, id, "www.example.com", DNS_TYPE_A, 1232, 1);
	ask(&c, &p, id, &r);
	ck_assert_uint_eq(r.rcode, DNS_RCODE_BADVERS);
	ck_assert_uint_eq(r.nanswers, 0);
	ck_assert(!(r.flags & DNS_FLAG_AA));
	ck_assert(r.opt);

	/* 40 AAAA: truncated without EDNS, whole with it. */
	ask_name(&c, "big.example.com", DNS_TYPE_AAAA, DNS_CLASS_IN, &r);
	ck_assert(r.flags & DNS_FLAG_TC);
	ck_assert_uint_eq(r.nanswers, 0);
	ck_assert_uint_le(r.len, DNS_UDP_CLASSIC);
	id = c.next_id++;
	build_query_edns(&p, id, "big.example.com", DNS_TYPE_AAAA, 4096, 0);
	ask(&c, &p, id, &r);
	ck_assert(!(r.flags & DNS_FLAG_TC));
	ck_assert_uint_eq(r.nanswers, 40);
	ck_assert_uint_le(r.len, DNS_UDP_MAX);

	/* SIGUSR2: the counters, read while the readers run. */
	ck_assert_int_eq(kill(s.pid, SIGUSR2), 0);
	ck_assert_msg(server_wait_for(&s, "zoneserver: stats: queries"),
		      "no counters after SIGUSR2:\n%s", server_tail(&s));
	client_close(&c);
	server_stop(&s);
	ck_assert(strstr(s.text, "shutting down"));
}
END_TEST

/*
 * Filler names of the reload test: each reload replaces all their A
 * records, so that it runs longer and retires more RRsets while the
 * queriers run.
 */
#define FILLERS		300
#define QUERIERS	2
/*
 * --hold-us of the reload test: readers stay 200 us between finding an
 * RRset and copying it, so that reloads overlap with them.  An RRset
 * freed without a grace period would then be caught (poisoned read,
 * SERVFAIL, or a sanitizer report) in practically every run.
 */
#define HOLD_US		200

/* The reload test's zone: www.example.com A 192.0.2.@www_last. */
static void reload_zone(char *buf, size_t size, unsigned www_last, bool first)
{
	size_t len = (size_t) snprintf(buf, size,
		 "$ORIGIN example.com.\n"
		 "@      300 SOA  ns hostmaster %u 3600 600 86400 60\n"
		 "@      300 NS   ns\n"
		 "ns     300 A    192.0.2.53\n"
		 "www    300 A    192.0.2.%u\n"
		 "www    300 AAAA 2001:db8::1\n"
		 "stable 300 A    192.0.2.50\n"
		 "%s",
		 www_last, www_last,
		 first ? "gone 300 A 192.0.2.60\n" : "new  300 A 192.0.2.70\n");

	for (unsigned i = 0; i < FILLERS && len < size; i++)
		len += (size_t) snprintf(buf + len, size - len,
					 "fill%u 60 A 198.51.100.%u\n", i, www_last);
}

/*
 * Zone files the server must refuse on reload, keeping the version it
 * serves: the reason it must give for each.
 */
static const struct {
	const char *text;
	size_t len;
	const char *reason;
} broken_zones[] = {
	{ "$ORIGIN example.com.\n@ 300 SOA ns h 1 1 1 1 1\nwww 300 A 192.0.2.300\n",
	  0, ":3: " },
	{ "$ORIGIN example.com.\n\0garbage\n", 30, ":2: NUL byte" },
	{ "", 0, "no SOA record at the apex" },
	{ "$ORIGIN example.com.\nwww 300 A 192.0.2.1\n", 0,
	  "no SOA record at the apex" },
};
#define N_BROKEN	(sizeof(broken_zones) / sizeof(broken_zones[0]))

struct querier {
	unsigned port;
	atomic_int stop;
	atomic_uint last;		/* last octet of the last www answer */
	atomic_ulong queries;
	atomic_ulong seen[2];		/* answers 192.0.2.1, 192.0.2.2 */
};

/* Client thread: queries www (and stable) until told to stop. */
static void *querier_main(void *arg)
{
	struct querier *qr = arg;
	struct client c;
	unsigned long n = 0;

	if (client_open(&c, qr->port)) {
		harness_fail("querier: socket: %s", strerror(errno));
		return NULL;
	}
	while (!atomic_load(&qr->stop)) {
		bool stable = n++ % 4 == 3;
		const char *name = stable ? "stable.example.com" : "www.example.com";
		unsigned id = c.next_id++ & 0xffff, last;
		const char *why = "";
		struct reply r;
		struct pkt p;
		int got;

		build_query(&p, id, name, DNS_TYPE_A, DNS_CLASS_IN);
		got = client_exchange(&c, &p, id, &r, &why);
		if (got != 1) {
			harness_fail("querier: query %lu for %s failed: %s", n, name, why);
			break;
		}
		if (r.rcode != DNS_RCODE_NOERROR || r.nanswers != 1 ||
		    r.ans[0].type != DNS_TYPE_A || r.ans[0].rdlen != 4 ||
		    memcmp(r.ans[0].rdata, "\300\000\002", 3) != 0) {
			/* SERVFAIL: the server read a freed (poisoned) RRset. */
			harness_fail("querier: bad answer for %s: rcode %u, "
				     "%u answers", name, r.rcode, r.nanswers);
			break;
		}
		last = r.ans[0].rdata[3];
		atomic_fetch_add(&qr->queries, 1);
		if (stable) {
			if (last != 50) {
				harness_fail("querier: stable.example.com is "
					     "192.0.2.%u", last);
				break;
			}
		} else if (last == 1 || last == 2) {
			atomic_fetch_add(&qr->seen[last - 1], 1);
			atomic_store(&qr->last, last);
		} else {
			harness_fail("querier: www.example.com is 192.0.2.%u, "
				     "neither .1 nor .2", last);
			break;
		}
	}
	client_close(&c);
	return NULL;
}

/* _i: index in flavors. */
START_TEST(test_server_reload)
{
	static const char *const one[] = { "192.0.2.1" };
	static const char *const two[] = { "192.0.2.2" };
	static const char *const stable[] = { "192.0.2.50" };
	static const char *const gone[] = { "192.0.2.60" };
	static const char *const added[] = { "192.0.2.70" };
	struct querier qr;
	struct server s;
	struct client c;
	pthread_t tids[QUERIERS];
	char zone[FILLERS * 64 + 512], first_report[256];
	unsigned current = 1;

	reload_zone(zone, sizeof(zone), 1, true);
	server_start(&s, flavors[_i], 3, zone, HOLD_US);
	ck_assert_int_eq(client_open(&c, s.port), 0);

	/* Before. */
	expect(&c, "www.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, one, 1);
	expect(&c, "gone.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, gone, 1);
	expect(&c, "new.example.com", DNS_TYPE_A, DNS_RCODE_NXDOMAIN, 0, NULL, 0);

	/* During: the querier runs while www flips between .1 and .2. */
	memset(&qr, 0, sizeof(qr));
	qr.port = s.port;
	for (int t = 0; t < QUERIERS; t++)
		harness_spawn(&tids[t], querier_main, &qr);
	for (unsigned n = 1; n <= RELOADS; n++) {
		double deadline;
		bool seen;

		if (n % (RELOADS / N_BROKEN) == 7) {
			/* A broken zone: refused, the current one kept. */
			unsigned b = (n / (RELOADS / N_BROKEN)) % N_BROKEN;

			write_zone_bytes(&s, broken_zones[b].text,
					 broken_zones[b].len ? broken_zones[b].len
					 : strlen(broken_zones[b].text));
			server_reload(&s, n, "failed");
			ck_assert_msg(strstr(s.text, broken_zones[b].reason),
				      "no \"%s\" in:\n%s", broken_zones[b].reason,
				      server_tail(&s));
			continue;
		}
		current = current == 1 ? 2 : 1;
		reload_zone(zone, sizeof(zone), current, false);
		write_zone(&s, zone);
		server_reload(&s, n, "ok");
		/* Apex, ns, www, stable, new and the fillers. */
		snprintf(first_report, sizeof(first_report),
			 "zone example.com loaded: serial %u, %d nodes, %d "
			 "records", current, 5 + FILLERS, 7 + FILLERS);
		if (n == 1)
			ck_assert_msg(strstr(s.text, first_report),
				      "no \"%s\" in:\n%s", first_report,
				      server_tail(&s));
		/*
		 * The queriers see the new value soon, unless they failed
		 * (which they notice within REPLY_WAIT_S).
		 */
		deadline = harness_deadline(2 * REPLY_WAIT_S);
		seen = false;
		while (!seen && atomic_load(&harness_failures.count) == 0 &&
		       !harness_past(deadline)) {
			seen = atomic_load(&qr.last) == current;
			if (!seen)
				harness_sleep_ms(1);
		}
		if (!seen && !atomic_load(&harness_failures.count))
			server_dump(&s);
		ck_assert_msg(seen || atomic_load(&harness_failures.count),
			      "reload %u: www.example.com not 192.0.2.%u yet", n,
			      current);
		if (atomic_load(&harness_failures.count))
			break;
	}
	atomic_store(&qr.stop, 1);
	for (int t = 0; t < QUERIERS; t++)
		harness_join(tids[t]);
	if (atomic_load(&harness_failures.count))
		server_dump(&s);	/* a crash report, a poisoned count */
	harness_assert_no_failures("querier");
	fprintf(stderr, "%s: %lu queries during %d reloads (.1: %lu, .2: %lu)\n",
		flavors[_i], atomic_load(&qr.queries), RELOADS,
		atomic_load(&qr.seen[0]), atomic_load(&qr.seen[1]));
	ck_assert_uint_gt(atomic_load(&qr.seen[0]), 0);
	ck_assert_uint_gt(atomic_load(&qr.seen[1]), 0);

	/* After. */
	expect(&c, "www.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300,
	       current == 1 ? one : two, 1);
	expect(&c, "stable.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300,
	       stable, 1);
	expect(&c, "gone.example.com", DNS_TYPE_A, DNS_RCODE_NXDOMAIN, 0, NULL, 0);
	expect(&c, "new.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, added, 1);
	client_close(&c);
	server_stop(&s);
}
END_TEST

/*
 * Sends @p and checks the server's reaction: a reply with @rcode and
 * the packet's ID, or (NO_REPLY) nothing before the reply to a probe
 * query sent after it, nor SILENCE_MS after that.
 */
static void send_bad(struct client *c, const struct pkt *p, unsigned id,
		     int rcode, const char *what)
{
	const char *why = "";
	struct reply r;
	struct pkt probe;
	unsigned probe_id = c->next_id++;
	int got;

	if (rcode != NO_REPLY) {
		got = client_exchange(c, p, id, &r, &why);
		ck_assert_msg(got == 1, "%s: no reply: %s", what, why);
		ck_assert_msg(r.rcode == (unsigned) rcode,
			      "%s: rcode %u, expected %d", what, r.rcode, rcode);
		/* FORMERR: header only; other rcodes echo the question. */
		if (rcode == DNS_RCODE_FORMERR)
			ck_assert_uint_eq(r.qdcount, 0);
		ck_assert_uint_eq(r.ancount, 0);
		ck_assert(!(r.flags & DNS_FLAG_AA));
		return;
	}
	ck_assert_msg(client_send(c, p), "%s: send: %s", what, strerror(errno));
	build_query(&probe, probe_id, "www.example.com", DNS_TYPE_A, DNS_CLASS_IN);
	ck_assert(client_send(c, &probe));
	got = client_recv(c, &r, (long) (REPLY_WAIT_S * 1000 * harness_time_mult()),
			  &why);
	ck_assert_msg(got == 1, "%s: no reply to the probe after it: %s", what, why);
	ck_assert_msg(r.id == probe_id, "%s: got a reply (rcode %u)", what, r.rcode);
	got = client_recv(c, &r, SILENCE_MS, &why);
	ck_assert_msg(got == 0, "%s: got a reply (rcode %u)", what, r.rcode);
}

/* _i: index in flavors. */
START_TEST(test_server_malformed)
{
	static const char *const www_a[] = { "192.0.2.1" };
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	struct server s;
	struct client c;
	struct reply r;
	const char *why;

	server_start(&s, flavors[_i], 2, answers_zone, 0);
	ck_assert_int_eq(client_open(&c, s.port), 0);
	for (size_t k = 0; k < N_BAD_CASES; k++) {
		unsigned id = c.next_id++;
		struct pkt p;

		bad_cases[k].build(&p, id);
		send_bad(&c, &p, id, bad_cases[k].rcode, bad_cases[k].name);
	}
	/* Random mutations: whatever the replies, the server carries on. */
	for (int k = 0; k < 500; k++) {
		struct pkt p;

		random_seed_query(&p, &rng);
		mutate(&p, &rng);
		/* IDs 0xeexx: never one of the client's own queries. */
		if (p.len)
			p.b[0] = 0xee;
		ck_assert(client_send(&c, &p));
		if (k % 50 == 49)	/* pace them: never overflow the socket */
			expect(&c, "www.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR,
			       300, www_a, 1);
	}
	while (client_recv(&c, &r, SILENCE_MS, &why) == 1)
		;
	expect(&c, "www.example.com", DNS_TYPE_A, DNS_RCODE_NOERROR, 300, www_a, 1);
	client_close(&c);
	server_stop(&s);
	ck_assert(strstr(s.text, "formerr ") && !strstr(s.text, "formerr 0,"));
}
END_TEST

/* ------------------------------------------------------------------------
 * TCP (RFC 7766).
 */

/* Reads exactly @len bytes within @ms; false on EOF, error or timeout. */
static bool tcp_read(int fd, uint8_t *buf, size_t len, long ms)
{
	double deadline = harness_now() + (double) ms / 1000.0;
	size_t got = 0;

	while (got < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = (long) ((deadline - harness_now()) * 1000.0);
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int) left) <= 0)
			return false;
		n = recv(fd, buf + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t) n;
	}
	return true;
}

/* _i: index in flavors. */
START_TEST(test_server_tcp)
{
	static const char *const names[] = {
		"www.example.com", "big.example.com", "nothere.example.com",
		"www.example.net",
	};
	static const unsigned types[] = {
		DNS_TYPE_A, DNS_TYPE_AAAA, DNS_TYPE_A, DNS_TYPE_A,
	};
	static const unsigned rcodes[] = {
		DNS_RCODE_NOERROR, DNS_RCODE_NOERROR, DNS_RCODE_NXDOMAIN,
		DNS_RCODE_REFUSED,
	};
	static const unsigned nanswers[] = { 1, 40, 0, 0 };
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint8_t buf[4 * (2 + 600)], reply[65536];
	size_t len = 0;
	struct server s;
	char zone[4096];
	int fd;

	big_zone(zone, sizeof(zone));
	server_start(&s, flavors[_i], 1, zone, 0);
	to.sin_port = htons((uint16_t) s.port);
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *) &to, sizeof(to)), 0);

	/* Four queries in one write: answered in order, none truncated. */
	for (unsigned i = 0; i < 4; i++) {
		struct pkt p;

		build_query(&p, 0x700 + i, names[i], types[i], DNS_CLASS_IN);
		buf[len] = (uint8_t) (p.len >> 8);
		buf[len + 1] = (uint8_t) p.len;
		memcpy(buf + len + 2, p.b, p.len);
		len += 2 + p.len;
	}
	ck_assert_int_eq(send(fd, buf, len, 0), (ssize_t) len);
	for (unsigned i = 0; i < 4; i++) {
		long ms = (long) (REPLY_WAIT_S * 1000 * harness_time_mult());
		struct reply r;
		uint8_t head[2];
		size_t n;

		ck_assert_msg(tcp_read(fd, head, 2, ms), "no TCP reply %u", i);
		n = (size_t) head[0] << 8 | head[1];
		ck_assert_msg(tcp_read(fd, reply, n, ms), "short TCP reply %u", i);
		ck_assert(parse_reply(reply, n, &r));
		ck_assert_uint_eq(r.id, 0x700 + i);
		ck_assert_uint_eq(r.rcode, rcodes[i]);
		ck_assert_uint_eq(r.nanswers, nanswers[i]);
		ck_assert(!(r.flags & DNS_FLAG_TC));
	}
	/* Idle past the timeout: the server closes the connection. */
	ck_assert_msg(!tcp_read(fd, reply, 1, 3000 * (long) harness_time_mult()),
		      "the connection stayed open or sent data");
	{
		ssize_t n = recv(fd, reply, 1, MSG_DONTWAIT);

		ck_assert_msg(n == 0, "no EOF after the idle timeout (%zd, %s)", n,
			      n < 0 ? strerror(errno) : "data");
	}
	close(fd);
	server_stop(&s);
	ck_assert(strstr(s.text, "(tcp 4)"));
}
END_TEST

/* ------------------------------------------------------------------------
 * kdig / dig.
 */

/* The full path of @name in $PATH, or false. */
static bool find_in_path(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s",
		 path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s", d, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* Runs @argv with stdout and stderr into @out; returns the exit status. */
static int run_capture(const char *const *argv, char *out, size_t size)
{
	double deadline = harness_deadline(SERVER_WAIT_S);
	size_t len = 0;
	int fd, status;
	pid_t pid = harness_start_program(argv[0], argv, &fd);

	out[0] = '\0';
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (harness_past(deadline)) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		got = read(fd, out + len, size - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t) got;
		out[len] = '\0';
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	return status;
}

/* Asks @tool (kdig or dig) for @name/@type; expects @want in +short output. */
static void dig_expect(const char *tool, const char *path, unsigned port,
		       const char *name, const char *type, const char *extra,
		       const char *want)
{
	char server[32], portarg[16], out[8192];
	bool kdig = strcmp(tool, "kdig") == 0;
	const char *argv[] = {
		path, server, "-p", portarg, "+short",
		kdig ? "+retry=0" : "+tries=1",
		kdig ? "+timeout=5" : "+time=5",
		extra, name, type, NULL,
	};
	int status;

	snprintf(server, sizeof(server), "@127.0.0.1");
	snprintf(portarg, sizeof(portarg), "%u", port);
	status = run_capture(argv, out, sizeof(out));
	fprintf(stderr, "%s %s %s %s: %s", tool, extra, name, type, out);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s exited with status %#x: %s", tool, status, out);
	ck_assert_msg(strstr(out, want), "%s %s %s: expected %s, got: %s",
		      tool, name, type, want, out);
}

START_TEST(test_server_dig)
{
	const char *tool = "kdig";
	char path[PATH_MAX];
	struct server s;

	if (!find_in_path(tool, path, sizeof(path))) {
		tool = "dig";
		/* A test whose tool is missing fails: it proves nothing. */
		ck_assert_msg(find_in_path(tool, path, sizeof(path)),
			      "neither kdig nor dig is installed: install "
			      "knot-dnsutils (apt-get install knot-dnsutils)");
	}
	server_start(&s, "qsbr", 2, answers_zone, 0);
	dig_expect(tool, path, s.port, "www.example.com", "A", "+noedns",
		   "192.0.2.1");
	dig_expect(tool, path, s.port, "www.example.com", "AAAA", "+edns",
		   "2001:db8::1");
	dig_expect(tool, path, s.port, "MULTI.example.com", "A", "+edns",
		   "192.0.2.11");
	server_stop(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("zoneserver");
	TCase *tc;

	/* The server's replies go to our sockets, never to a dead peer's. */
	signal(SIGPIPE, SIG_IGN);

	tc = harness_tcase(s, "parser", TEST_TIMEOUT_S);
	tcase_add_test(tc, test_parse_valid);
	tcase_add_loop_test(tc, test_parse_malformed, 0, N_BAD_CASES);
	tcase_add_test(tc, test_build_limits);
	tcase_add_test(tc, test_parse_mutations);

	tc = harness_tcase(s, "server", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_server_answers, 0, N_FLAVORS);
	tc = harness_tcase(s, "reload", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_server_reload, 0, N_FLAVORS);
	tc = harness_tcase(s, "malformed", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_server_malformed, 0, N_FLAVORS);
	tc = harness_tcase(s, "tcp", TEST_TIMEOUT_S);
	tcase_add_loop_test(tc, test_server_tcp, 0, N_FLAVORS);
	tc = harness_tcase(s, "dig", TEST_TIMEOUT_S);
	tcase_add_test(tc, test_server_dig);

	return harness_run_suite(s);
}
