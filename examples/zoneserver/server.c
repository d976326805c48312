/*
 * The zoneserver's RCU side (see server.h and docs/zoneserver.md).
 *
 * Readers: each reader thread takes datagrams from the shared socket,
 * parses them, looks the question up in the table inside a read-side
 * section, builds the whole response in its own buffer while still
 * inside, and only then leaves the section, announces a quiescent state
 * and sends.  Blocking happens in poll(), never in a read-side section,
 * and the thread is offline meanwhile, so an idle QSBR reader never
 * holds up a grace period.  With memb the quiescent-state and offline
 * calls do nothing.
 *
 * Loader: one thread at a time (the control thread) swaps RRsets in
 * with cds_lfht_add_replace(), one atomic step per RRset, deletes the
 * ones the new zone lacks, and hands every RRset it took out to
 * call_rcu(), whose callback poisons and frees it once no reader can
 * hold it any more.  Readers check the RRsets' magic before and after
 * copying them; a mismatch would mean a freed RRset was read, and is
 * counted in srv->poisoned and answered with SERVFAIL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <urcu/flavor.h>

#include "server.h"

const struct zs_flavor *zs_flavor_by_name(const char *name)
{
	if (strcmp(name, "memb") == 0)
		return &zs_flavor_memb;
	if (strcmp(name, "qsbr") == 0)
		return &zs_flavor_qsbr;
	return NULL;
}

/*
 * One more event in a reader's counter.  Only the reader writes it, so
 * a load and a store suffice (no read-modify-write).  Relaxed: the
 * counters order nothing; zs_server_stats() may print a value a little
 * behind, and pairs with nothing.  The final report reads them after
 * pthread_join(), which orders every store before it.
 */
static void count(struct zs_reader *rd, enum zs_stat stat)
{
	atomic_store_explicit(&rd->stats[stat],
			      atomic_load_explicit(&rd->stats[stat],
						   memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/*
 * The magic of an RRset found in the table.  A volatile read so that
 * the compiler reads it at each check instead of reusing the first
 * value; it is a plain access otherwise (a correct program never writes
 * it concurrently, and ThreadSanitizer would report one that did).
 */
static bool rrset_live(const struct zs_rrset *rrset)
{
	return *(const volatile uint32_t *) &rrset->magic == ZS_MAGIC_LIVE;
}

/*
 * --hold-us: sleeps inside the read-side section, between finding an
 * RRset and copying it, so that a test can make readers overlap with
 * reloads.  Were an RRset freed without waiting for a grace period, the
 * copy would then very likely read it after its poisoning.
 */
static void hold(unsigned us)
{
	struct timespec ts = { us / 1000000, (long) (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The RRset of @type for the question's name, or NULL.  Read side held. */
static const struct zs_rrset *lookup(struct zs_server *srv,
				     const struct dns_query *q, uint16_t type)
{
	struct zs_key key = { q->qname, q->qname_len, type };
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(srv->ht, zs_key_hash(&key), zs_rrset_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	return node ? caa_container_of(node, struct zs_rrset, node) : NULL;
}

/*
 * Looks up the RRset of @type and copies it into the response.  Returns
 * whether it exists; sets *@poisoned when it was freed before or while
 * it was copied.
 */
static bool answer_type(struct zs_server *srv, const struct dns_query *q,
			struct dns_response *r, uint16_t type, bool *poisoned)
{
	const struct zs_rrset *rrset = lookup(srv, q, type);

	if (!rrset)
		return false;
	if (!rrset_live(rrset)) {
		*poisoned = true;
		return true;
	}
	if (srv->hold_us)
		hold(srv->hold_us);
	dns_response_add_rrset(r, rrset->type, rrset->ttl, rrset->rdata,
			       rrset->rdlen, rrset->count);
	if (!rrset_live(rrset))
		*poisoned = true;
	return true;
}

/* Answers a well-formed IN query from the table; returns the rcode. */
static unsigned answer_from_zone(struct zs_server *srv,
				 const struct dns_query *q,
				 struct dns_response *r)
{
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	unsigned rcode = DNS_RCODE_NOERROR;
	bool poisoned = false, found;

	rcu->read_lock();
	if (q->qtype == DNS_TYPE_ANY) {
		/* RFC 8482 lets us answer ANY with a subset: A and AAAA. */
		found = answer_type(srv, q, r, DNS_TYPE_A, &poisoned);
		found |= answer_type(srv, q, r, DNS_TYPE_AAAA, &poisoned);
	} else {
		found = answer_type(srv, q, r, q->qtype, &poisoned);
	}
	if (!found) {
		/* No such RRset: does the name exist at all? */
		const struct zs_rrset *name = lookup(srv, q, ZS_TYPE_NAME);

		if (!name)
			rcode = DNS_RCODE_NXDOMAIN;
		else if (!rrset_live(name))
			poisoned = true;
	}
	rcu->read_unlock();

	if (poisoned) {
		/*
		 * Relaxed: a statistic that orders nothing and pairs with
		 * nothing; main reads the final value after pthread_join().
		 */
		atomic_fetch_add_explicit(&srv->poisoned, 1, memory_order_relaxed);
		dns_response_drop_answers(r);
		rcode = DNS_RCODE_SERVFAIL;
	}
	return rcode;
}

static void count_rcode(struct zs_reader *rd, unsigned rcode)
{
	static const enum zs_stat by_rcode[] = {
		[DNS_RCODE_NOERROR] = ZS_STAT_NOERROR,
		[DNS_RCODE_FORMERR] = ZS_STAT_FORMERR,
		[DNS_RCODE_SERVFAIL] = ZS_STAT_SERVFAIL,
		[DNS_RCODE_NXDOMAIN] = ZS_STAT_NXDOMAIN,
		[DNS_RCODE_NOTIMP] = ZS_STAT_NOTIMP,
		[DNS_RCODE_REFUSED] = ZS_STAT_REFUSED,
	};

	if (rcode == DNS_RCODE_BADVERS)
		count(rd, ZS_STAT_BADVERS);
	else if (rcode < sizeof(by_rcode) / sizeof(by_rcode[0]))
		count(rd, by_rcode[rcode]);
}

/*
 * The response to the @len bytes at @in, built in @out
 * (DNS_RESPONSE_BUF bytes); returns its length, 0 for no response.
 */
static size_t handle_datagram(struct zs_server *srv, struct zs_reader *rd,
			      const uint8_t *in, size_t len, uint8_t *out)
{
	struct dns_response r;
	struct dns_query q;
	unsigned rcode;
	size_t outlen;

	switch (dns_parse_action(dns_parse_query(in, len, &q))) {
	case DNS_ACTION_DROP:
		count(rd, ZS_STAT_DROPPED);
		return 0;
	case DNS_ACTION_FORMERR:
		count(rd, ZS_STAT_FORMERR);
		return dns_response_header_only(out, &q, DNS_RCODE_FORMERR);
	case DNS_ACTION_NOTIMP:
		count(rd, ZS_STAT_NOTIMP);
		return dns_response_header_only(out, &q, DNS_RCODE_NOTIMP);
	case DNS_ACTION_ANSWER:
		break;
	}

	dns_response_init(&r, out, &q);
	if (q.edns && q.edns_version != 0)
		rcode = DNS_RCODE_BADVERS;	/* we speak EDNS version 0 */
	else if (q.qclass != DNS_CLASS_IN)
		rcode = DNS_RCODE_REFUSED;	/* no zone of any other class */
	else if (q.qtype == DNS_TYPE_AXFR || q.qtype == DNS_TYPE_IXFR ||
		 q.qtype == DNS_TYPE_MAILA || q.qtype == DNS_TYPE_MAILB)
		rcode = DNS_RCODE_NOTIMP;	/* no zone transfers */
	else
		rcode = answer_from_zone(srv, &q, &r);
	outlen = dns_response_finish(&r, rcode);
	count_rcode(rd, rcode);
	if (r.truncated)
		count(rd, ZS_STAT_TRUNCATED);
	return outlen;
}

/* Waits until the socket or the stop pipe is readable. */
static void wait_readable(struct zs_server *srv)
{
	struct pollfd pfd[2] = {
		{ .fd = srv->fd, .events = POLLIN },
		{ .fd = srv->wake[0], .events = POLLIN },
	};

	/* Errors (EINTR) just send the caller round its loop again. */
	(void) poll(pfd, 2, -1);
}

static void *reader_main(void *arg)
{
	struct zs_reader *rd = arg;
	struct zs_server *srv = rd->srv;
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	/* One byte more than the largest query, to see oversize ones. */
	uint8_t in[DNS_QUERY_MAX + 1];
	uint8_t out[DNS_RESPONSE_BUF];

	rcu->register_thread();
	while (!atomic_load(&srv->stop)) {
		struct sockaddr_storage from;
		socklen_t fromlen = sizeof(from);
		size_t outlen;
		ssize_t n;

		/* MSG_TRUNC: n is the datagram's length even if longer. */
		n = recvfrom(srv->fd, in, sizeof(in), MSG_DONTWAIT | MSG_TRUNC,
			     (struct sockaddr *) &from, &fromlen);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				/* Blocking: offline, so no grace period waits for us. */
				rcu->thread_offline();
				wait_readable(srv);
				rcu->thread_online();
			}
			continue;
		}
		count(rd, ZS_STAT_RECEIVED);
		if ((size_t) n > sizeof(in))
			n = sizeof(in);		/* the parser refuses it */
		outlen = handle_datagram(srv, rd, in, (size_t) n, out);
		/* We hold no reference into the table any more. */
		rcu->read_quiescent_state();
		if (outlen && sendto(srv->fd, out, outlen, 0,
				     (struct sockaddr *) &from, fromlen) < 0)
			count(rd, ZS_STAT_SEND_ERRORS);
	}
	rcu->unregister_thread();
	return NULL;
}

static void set_error(char *err, size_t errlen, const char *what, int error)
{
	snprintf(err, errlen, "%s: %s", what, strerror(error));
}

int zs_server_open(struct zs_server *srv, const struct zs_config *cfg,
		   char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_DGRAM,
	};
	struct addrinfo *ai = NULL;
	struct sockaddr_storage bound;
	socklen_t boundlen = sizeof(bound);
	char port[16], host[INET6_ADDRSTRLEN];
	int rc, rcvbuf = 1 << 20;

	memset(srv, 0, sizeof(*srv));
	srv->fd = srv->wake[0] = srv->wake[1] = -1;
	srv->flavor = cfg->flavor;
	srv->zone_path = cfg->zone_path;
	srv->nreaders = cfg->threads;
	srv->hold_us = cfg->hold_us;

	snprintf(port, sizeof(port), "%u", cfg->port);
	rc = getaddrinfo(cfg->addr, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "address %s: %s", cfg->addr, gai_strerror(rc));
		return -1;
	}
	srv->fd = socket(ai->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (srv->fd < 0) {
		set_error(err, errlen, "socket", errno);
		goto fail;
	}
	/* Room for bursts (dnsperf); the kernel may grant less. */
	(void) setsockopt(srv->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(srv->fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		set_error(err, errlen, "bind", errno);
		goto fail;
	}
	if (getsockname(srv->fd, (struct sockaddr *) &bound, &boundlen) < 0) {
		set_error(err, errlen, "getsockname", errno);
		goto fail;
	}
	if (bound.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *) &bound;

		inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof(host));
		snprintf(srv->where, sizeof(srv->where), "[%s]:%u", host,
			 ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *) &bound;

		inet_ntop(AF_INET, &s4->sin_addr, host, sizeof(host));
		snprintf(srv->where, sizeof(srv->where), "%s:%u", host,
			 ntohs(s4->sin_port));
	}
	if (pipe2(srv->wake, O_CLOEXEC) < 0) {
		set_error(err, errlen, "pipe", errno);
		goto fail;
	}
	/*
	 * Resized automatically by the library's worker thread; node counts
	 * in per-CPU counters let it shrink again after a smaller reload.
	 */
	srv->ht = cds_lfht_new_flavor(64, 64, 0,
				      CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
				      srv->flavor->rcu, NULL);
	if (!srv->ht) {
		snprintf(err, errlen, "cds_lfht_new_flavor failed");
		goto fail;
	}
	freeaddrinfo(ai);
	return 0;
fail:
	freeaddrinfo(ai);
	zs_server_close(srv);
	return -1;
}

/* call_rcu callback: a grace period after its removal, nobody reads it. */
static void free_rrset_rcu(struct rcu_head *head)
{
	zs_rrset_free(caa_container_of(head, struct zs_rrset, rcu));
}

int zs_server_load(struct zs_server *srv, struct zs_load_result *res,
		   char *err, size_t errlen)
{
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	struct cds_lfht_iter iter;
	struct zs_rrset *rrset;
	struct zs_zone zone;
	unsigned long gen;

	memset(res, 0, sizeof(*res));
	if (zs_zone_load(srv->zone_path, &zone, err, errlen))
		return -1;
	res->names = zone.names;
	res->records = zone.records;
	gen = ++srv->gen;

	/*
	 * The table's updates must run inside a read-side section.  One
	 * section for the whole swap also keeps the final traversal
	 * stable: it sees every RRset present throughout exactly once.
	 */
	rcu->read_lock();
	for (size_t i = 0; i < zone.count; i++) {
		struct zs_key key;
		struct cds_lfht_node *old_node;
		struct zs_rrset *old;

		rrset = zone.rrsets[i];
		zone.rrsets[i] = NULL;		/* ours now, not the zone's */
		key = (struct zs_key) { rrset->name, rrset->name_len, rrset->type };
		rrset->gen = gen;
		cds_lfht_lookup(srv->ht, rrset->hash, zs_rrset_match, &key, &iter);
		old_node = cds_lfht_iter_get_node(&iter);
		old = old_node ? caa_container_of(old_node, struct zs_rrset, node) : NULL;
		if (old && zs_rrset_same_data(old, rrset)) {
			/*
			 * Keep the published one.  gen is the loader's own
			 * field: readers never read it.  The new copy was
			 * never published, so it can go at once.
			 */
			old->gen = gen;
			zs_rrset_free(rrset);
			res->unchanged++;
			continue;
		}
		/*
		 * One atomic step: a concurrent lookup finds the old RRset
		 * or this one, never neither (docs/hash-table.md).
		 */
		old_node = cds_lfht_add_replace(srv->ht, rrset->hash, zs_rrset_match,
						&key, &rrset->node);
		if (old_node) {
			rcu->update_call_rcu(&caa_container_of(old_node,
					struct zs_rrset, node)->rcu, free_rrset_rcu);
			res->replaced++;
		} else {
			res->added++;
		}
	}
	/* Whatever this load did not mark belongs to the old zone only. */
	cds_lfht_for_each_entry(srv->ht, &iter, rrset, node) {
		if (rrset->gen == gen)
			continue;
		if (cds_lfht_del(srv->ht, &rrset->node) == 0) {
			rcu->update_call_rcu(&rrset->rcu, free_rrset_rcu);
			res->removed++;
		}
	}
	rcu->read_unlock();
	zs_zone_discard(&zone);		/* only the array is left */
	return 0;
}

int zs_server_start(struct zs_server *srv, char *err, size_t errlen)
{
	srv->readers = aligned_alloc(64, srv->nreaders * sizeof(*srv->readers));
	if (!srv->readers) {
		srv->nreaders = 0;
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < srv->nreaders; i++) {
		struct zs_reader *rd = &srv->readers[i];
		int rc;

		memset(rd, 0, sizeof(*rd));
		rd->srv = srv;
		for (int s = 0; s < ZS_NSTATS; s++)
			atomic_init(&rd->stats[s], 0);
		rc = pthread_create(&rd->tid, NULL, reader_main, rd);
		if (rc) {
			set_error(err, errlen, "pthread_create", rc);
			srv->nreaders = i;
			zs_server_stop(srv);
			return -1;
		}
	}
	return 0;
}

void zs_server_stop(struct zs_server *srv)
{
	char byte = 1;

	atomic_store(&srv->stop, 1);
	/* Wakes every reader blocked in poll(); the pipe stays readable. */
	while (write(srv->wake[1], &byte, 1) < 0 && errno == EINTR)
		;
	for (unsigned i = 0; i < srv->nreaders; i++)
		pthread_join(srv->readers[i].tid, NULL);
}

void zs_server_clear(struct zs_server *srv)
{
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	struct cds_lfht_iter iter;
	struct zs_rrset *rrset;

	rcu->read_lock();
	cds_lfht_for_each_entry(srv->ht, &iter, rrset, node)
		if (cds_lfht_del(srv->ht, &rrset->node) == 0)
			rcu->update_call_rcu(&rrset->rcu, free_rrset_rcu);
	rcu->read_unlock();
	/* Every callback queued above has run once this returns. */
	rcu->barrier();
}

void zs_server_close(struct zs_server *srv)
{
	if (srv->ht && cds_lfht_destroy(srv->ht, NULL) != 0)
		fprintf(stderr, "zoneserver: table not empty at exit\n");
	srv->ht = NULL;
	if (srv->fd >= 0)
		close(srv->fd);
	if (srv->wake[0] >= 0)
		close(srv->wake[0]);
	if (srv->wake[1] >= 0)
		close(srv->wake[1]);
	srv->fd = srv->wake[0] = srv->wake[1] = -1;
	free(srv->readers);
	srv->readers = NULL;
}

void zs_server_stats(struct zs_server *srv, FILE *out)
{
	unsigned long sum[ZS_NSTATS] = { 0 };

	for (unsigned i = 0; i < srv->nreaders; i++)
		for (int s = 0; s < ZS_NSTATS; s++)
			/* Relaxed: see count(). */
			sum[s] += atomic_load_explicit(&srv->readers[i].stats[s],
						       memory_order_relaxed);
	fprintf(out, "zoneserver: stats: queries %lu: noerror %lu, nxdomain %lu, "
		"formerr %lu, notimp %lu, refused %lu, servfail %lu, badvers %lu, "
		"truncated %lu, dropped %lu, send errors %lu; poisoned reads %lu\n",
		sum[ZS_STAT_RECEIVED], sum[ZS_STAT_NOERROR], sum[ZS_STAT_NXDOMAIN],
		sum[ZS_STAT_FORMERR], sum[ZS_STAT_NOTIMP], sum[ZS_STAT_REFUSED],
		sum[ZS_STAT_SERVFAIL], sum[ZS_STAT_BADVERS], sum[ZS_STAT_TRUNCATED],
		sum[ZS_STAT_DROPPED], sum[ZS_STAT_SEND_ERRORS],
		/* Relaxed: a counter, see answer_from_zone(). */
		atomic_load_explicit(&srv->poisoned, memory_order_relaxed));
	fflush(out);
}
