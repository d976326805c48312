/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The zoneserver's threads and reloads (see server.h and
 * docs/zoneserver.md).
 *
 * Readers hold a read-side section only while they answer: a UDP reader
 * takes a batch of datagrams, answers all of them inside one section
 * (every answer is built into the reader's own buffers), leaves it,
 * announces a quiescent state, and only then sends.  Blocking happens
 * in poll() or epoll_wait(), with the thread offline, so an idle QSBR
 * thread never holds up a grace period.  With memb the quiescent-state
 * and offline calls do nothing.
 *
 * The loader (the control thread of main.c) builds each new zone version
 * beside the old one, publishes it with one release store into the
 * zone's slot, waits for one grace period after publishing them all,
 * and then poisons and frees the old versions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <urcu/flavor.h>

#include "server.h"
#include "tcpframe.h"

/* Datagrams taken per recvmmsg() call. */
#define UDP_BATCH		32
/* Concurrent TCP connections; more wait in the listen backlog. */
#define TCP_CONN_MAX		512

const struct zs_flavor *zs_flavor_by_name(const char *name)
{
	if (strcmp(name, "memb") == 0)
		return &zs_flavor_memb;
	if (strcmp(name, "qsbr") == 0)
		return &zs_flavor_qsbr;
	return NULL;
}

/*
 * One more event in a thread's counter.  Only the thread writes it, so
 * a load and a store suffice (no read-modify-write).  Relaxed: the
 * counters order nothing; zs_server_stats() may print a value a little
 * behind, and pairs with nothing.  The final report reads them after
 * pthread_join(), which orders every store before it.
 */
static void count(struct zs_worker *w, enum zs_stat stat)
{
	atomic_store_explicit(&w->stats[stat],
			      atomic_load_explicit(&w->stats[stat],
						   memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

static void count_answer(struct zs_worker *w, const struct zs_answer_info *info)
{
	static const enum zs_stat by_rcode[] = {
		[DNS_RCODE_NOERROR] = ZS_STAT_NOERROR,
		[DNS_RCODE_FORMERR] = ZS_STAT_FORMERR,
		[DNS_RCODE_SERVFAIL] = ZS_STAT_SERVFAIL,
		[DNS_RCODE_NXDOMAIN] = ZS_STAT_NXDOMAIN,
		[DNS_RCODE_NOTIMP] = ZS_STAT_NOTIMP,
		[DNS_RCODE_REFUSED] = ZS_STAT_REFUSED,
	};

	if (info->rcode < 0)
		count(w, ZS_STAT_DROPPED);
	else if ((size_t) info->rcode < sizeof(by_rcode) / sizeof(by_rcode[0]) &&
		 (info->rcode == 0 || by_rcode[info->rcode]))
		count(w, by_rcode[info->rcode]);
	else
		count(w, ZS_STAT_OTHER);
	if (info->tc)
		count(w, ZS_STAT_TRUNCATED);
	if (info->poisoned)
		/*
		 * Relaxed: a statistic that orders nothing and pairs with
		 * nothing; main reads the final value after pthread_join().
		 */
		atomic_fetch_add_explicit(&w->srv->poisoned, 1,
					  memory_order_relaxed);
}

/* Waits until @fd or the stop pipe is readable. */
static void wait_readable(struct zs_server *srv, int fd)
{
	struct pollfd pfd[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = srv->wake[0], .events = POLLIN },
	};

	/* Errors (EINTR) just send the caller round its loop again. */
	(void) poll(pfd, 2, -1);
}

/* ------------------------------------------------------------------------
 * UDP readers.
 */
struct udp_batch {
	struct mmsghdr in[UDP_BATCH], out[UDP_BATCH];
	struct iovec iov_in[UDP_BATCH], iov_out[UDP_BATCH];
	struct sockaddr_storage from[UDP_BATCH];
	/* One byte more than the largest query, to see oversize ones. */
	uint8_t query[UDP_BATCH][DNS_QUERY_MAX + 1];
	uint8_t response[UDP_BATCH][DNS_UDP_MAX];
};

static void *udp_main(void *arg)
{
	struct zs_worker *w = arg;
	struct zs_server *srv = w->srv;
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	struct udp_batch *b = malloc(sizeof(*b));

	if (!b) {
		fprintf(stderr, "zoneserver: out of memory for a reader\n");
		return NULL;
	}
	for (unsigned i = 0; i < UDP_BATCH; i++) {
		b->iov_in[i] = (struct iovec) { b->query[i], sizeof(b->query[i]) };
		b->in[i].msg_hdr = (struct msghdr) {
			.msg_name = &b->from[i],
			.msg_iov = &b->iov_in[i],
			.msg_iovlen = 1,
		};
	}
	rcu->register_thread();
	while (!atomic_load_explicit(&srv->stop, memory_order_relaxed)) {
		unsigned nout = 0;
		int n;

		for (unsigned i = 0; i < UDP_BATCH; i++)
			b->in[i].msg_hdr.msg_namelen = sizeof(b->from[i]);
		n = recvmmsg(w->fd, b->in, UDP_BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0) {
			if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				/* Blocking: offline, so no grace period waits for us. */
				rcu->thread_offline();
				wait_readable(srv, w->fd);
				rcu->thread_online();
			}
			continue;
		}
		rcu->read_lock();
		for (int i = 0; i < n; i++) {
			struct zs_answer_info info;
			size_t len = b->in[i].msg_len;
			size_t outlen;

			count(w, ZS_STAT_RECEIVED);
			/*
			 * A datagram longer than the buffer arrives cut to
			 * DNS_QUERY_MAX + 1 bytes: the parser refuses it.
			 */
			outlen = zs_answer(&srv->zones, b->query[i], len,
					   b->response[i], sizeof(b->response[i]),
					   false, &info);
			count_answer(w, &info);
			if (!outlen)
				continue;
			b->iov_out[nout] = (struct iovec) { b->response[i], outlen };
			b->out[nout].msg_hdr = (struct msghdr) {
				.msg_name = &b->from[i],
				.msg_namelen = b->in[i].msg_hdr.msg_namelen,
				.msg_iov = &b->iov_out[nout],
				.msg_iovlen = 1,
			};
			nout++;
		}
		rcu->read_unlock();
		/* We hold no reference into any zone any more. */
		rcu->read_quiescent_state();
		for (unsigned sent = 0; sent < nout;) {
			int k = sendmmsg(w->fd, b->out + sent, nout - sent, 0);

			if (k <= 0) {
				if (k < 0 && errno == EINTR)
					continue;
				/* Skip the one that failed, keep the others. */
				count(w, ZS_STAT_SEND_ERRORS);
				k = 1;
			}
			sent += (unsigned) k;
		}
	}
	rcu->unregister_thread();
	free(b);
	return NULL;
}

/* ------------------------------------------------------------------------
 * TCP (RFC 7766): one thread, non-blocking connections under epoll.
 */
struct tcp_conn {
	int fd;
	struct timespec last;		/* last activity */
	size_t in_len;			/* bytes in in[] */
	size_t out_len, out_sent;	/* pending response in out[] */
	uint8_t in[ZS_TCP_BUF];
	uint8_t out[ZS_TCP_BUF];
};

static long ms_since(const struct timespec *t, const struct timespec *now)
{
	return (now->tv_sec - t->tv_sec) * 1000 +
	       (now->tv_nsec - t->tv_nsec) / 1000000;
}

static void tcp_close(int ep, struct tcp_conn **conns, unsigned *nconns,
		      unsigned i)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, conns[i]->fd, NULL);
	close(conns[i]->fd);
	free(conns[i]);
	conns[i] = conns[--*nconns];
}

/* Writes what is pending; false when the connection is dead. */
static bool tcp_flush(struct tcp_conn *c)
{
	while (c->out_sent < c->out_len) {
		ssize_t k = send(c->fd, c->out + c->out_sent,
				 c->out_len - c->out_sent, MSG_NOSIGNAL);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK;
		}
		c->out_sent += (size_t) k;
	}
	c->out_len = c->out_sent = 0;
	return true;
}

/*
 * Reads and answers what the connection has, one query at a time,
 * stopping while a response is pending.  Runs inside a read-side
 * section.  False when the connection is to be closed.
 */
static bool tcp_serve(struct zs_worker *w, struct tcp_conn *c)
{
	struct zs_server *srv = w->srv;
	bool eof = false;

	for (;;) {
		if (c->out_len && !tcp_flush(c))
			return false;
		if (c->out_len)
			return true;	/* wait for EPOLLOUT */
		{
			const uint8_t *msg;
			size_t mlen, used = zs_tcp_frame(c->in, c->in_len, &msg,
							 &mlen);

			if (used) {
				struct zs_answer_info info;
				size_t n;

				count(w, ZS_STAT_RECEIVED);
				count(w, ZS_STAT_TCP);
				n = zs_answer(&srv->zones, msg, mlen, c->out + 2,
					      DNS_TCP_MAX, true, &info);
				count_answer(w, &info);
				memmove(c->in, c->in + used, c->in_len - used);
				c->in_len -= used;
				if (!n)
					return false;	/* no reply: hang up */
				zs_tcp_prefix(c->out, n);
				c->out_len = n + 2;
				c->out_sent = 0;
				continue;
			}
		}
		if (eof)
			return false;
		{
			ssize_t k = recv(c->fd, c->in + c->in_len,
					 sizeof(c->in) - c->in_len, 0);

			if (k < 0)
				return errno == EAGAIN || errno == EWOULDBLOCK ||
				       errno == EINTR;
			if (k == 0)
				eof = true;
			c->in_len += (size_t) k;
		}
	}
}

static void *tcp_main(void *arg)
{
	struct zs_worker *w = arg;
	struct zs_server *srv = w->srv;
	const struct rcu_flavor_struct *rcu = srv->flavor->rcu;
	struct tcp_conn **conns = calloc(TCP_CONN_MAX, sizeof(*conns));
	unsigned nconns = 0;
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (!conns || ep < 0) {
		fprintf(stderr, "zoneserver: TCP thread setup failed\n");
		free(conns);
		return NULL;
	}
	epoll_ctl(ep, EPOLL_CTL_ADD, srv->tcp_fd, &ev);
	ev.data.ptr = &srv->wake;
	epoll_ctl(ep, EPOLL_CTL_ADD, srv->wake[0], &ev);
	rcu->register_thread();
	while (!atomic_load_explicit(&srv->stop, memory_order_relaxed)) {
		struct epoll_event events[64];
		struct timespec now;
		int n;

		rcu->thread_offline();
		n = epoll_wait(ep, events, 64, 200);
		rcu->thread_online();
		clock_gettime(CLOCK_MONOTONIC, &now);
		for (int i = 0; i < n; i++) {
			struct tcp_conn *c = events[i].data.ptr;

			if (c == NULL) {
				int fd = accept4(srv->tcp_fd, NULL, NULL,
						 SOCK_NONBLOCK | SOCK_CLOEXEC);
				struct epoll_event cev;

				if (fd < 0)
					continue;
				if (nconns == TCP_CONN_MAX ||
				    !(c = malloc(sizeof(*c)))) {
					close(fd);
					continue;
				}
				c->fd = fd;
				c->in_len = c->out_len = c->out_sent = 0;
				c->last = now;
				cev.events = EPOLLIN | EPOLLOUT | EPOLLET;
				cev.data.ptr = c;
				epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
				conns[nconns++] = c;
				continue;
			}
			if ((void *) c == (void *) &srv->wake)
				continue;	/* stopping: the loop test sees it */
			c->last = now;
			rcu->read_lock();
			if (!tcp_serve(w, c)) {
				for (unsigned j = 0; j < nconns; j++)
					if (conns[j] == c) {
						tcp_close(ep, conns, &nconns, j);
						break;
					}
			}
			rcu->read_unlock();
			rcu->read_quiescent_state();
		}
		/* RFC 7766 6.2.3: close connections idle too long. */
		for (unsigned j = 0; j < nconns;) {
			if (ms_since(&conns[j]->last, &now) >= (long) srv->tcp_idle_ms)
				tcp_close(ep, conns, &nconns, j);
			else
				j++;
		}
	}
	while (nconns)
		tcp_close(ep, conns, &nconns, 0);
	rcu->unregister_thread();
	close(ep);
	free(conns);
	return NULL;
}

/* ------------------------------------------------------------------------
 * Setup.
 */
static void set_error(char *err, size_t errlen, const char *what, int error)
{
	snprintf(err, errlen, "%s: %s", what, strerror(error));
}

static int bound_socket(const struct addrinfo *ai, int type, unsigned port,
			char *err, size_t errlen)
{
	struct sockaddr_storage sa;
	int one = 1, fd, rcvbuf = 1 << 20;

	memcpy(&sa, ai->ai_addr, ai->ai_addrlen);
	if (sa.ss_family == AF_INET6)
		((struct sockaddr_in6 *) &sa)->sin6_port = htons((uint16_t) port);
	else
		((struct sockaddr_in *) &sa)->sin_port = htons((uint16_t) port);
	fd = socket(ai->ai_family, type | SOCK_CLOEXEC |
		    (type == SOCK_STREAM ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0) {
		set_error(err, errlen, "socket", errno);
		return -1;
	}
	(void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (type == SOCK_DGRAM) {
		/* One socket per reader on one port: the kernel spreads. */
		(void) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
		/* Room for bursts (dnsperf); the kernel may grant less. */
		(void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	}
	if (bind(fd, (struct sockaddr *) &sa, ai->ai_addrlen) < 0) {
		set_error(err, errlen, "bind", errno);
		close(fd);
		return -1;
	}
	return fd;
}

static unsigned socket_port(int fd)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *) &sa, &len) < 0)
		return 0;
	if (sa.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *) &sa)->sin6_port);
	return ntohs(((struct sockaddr_in *) &sa)->sin_port);
}

/* All sockets on one port; with port 0, retries until one is free for both. */
static int open_sockets(struct zs_server *srv, const struct zs_config *cfg,
			const struct addrinfo *ai, char *err, size_t errlen)
{
	for (unsigned attempt = 0; attempt < 20; attempt++) {
		unsigned port = cfg->port;
		unsigned i;

		for (i = 0; i < srv->nreaders; i++) {
			srv->workers[i].fd = bound_socket(ai, SOCK_DGRAM, port,
							  err, errlen);
			if (srv->workers[i].fd < 0)
				break;
			port = socket_port(srv->workers[i].fd);
		}
		if (i == srv->nreaders) {
			srv->tcp_fd = bound_socket(ai, SOCK_STREAM, port, err, errlen);
			if (srv->tcp_fd >= 0) {
				if (listen(srv->tcp_fd, 128) == 0) {
					char host[INET6_ADDRSTRLEN];

					getnameinfo(ai->ai_addr, ai->ai_addrlen, host,
						    sizeof(host), NULL, 0, NI_NUMERICHOST);
					snprintf(srv->where, sizeof(srv->where),
						 ai->ai_family == AF_INET6 ? "[%s]:%u" : "%s:%u",
						 host, port);
					return 0;
				}
				set_error(err, errlen, "listen", errno);
				close(srv->tcp_fd);
				srv->tcp_fd = -1;
			}
		}
		while (i-- > 0) {
			close(srv->workers[i].fd);
			srv->workers[i].fd = -1;
		}
		if (cfg->port)
			break;		/* a fixed port: no second chance */
	}
	return -1;
}

static unsigned hold_us;

static void hold(void)
{
	struct timespec ts = { hold_us / 1000000, (long) (hold_us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int zs_server_open(struct zs_server *srv, const struct zs_config *cfg,
		   char *err, size_t errlen)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_PASSIVE,
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_DGRAM,
	};
	struct addrinfo *ai = NULL;
	int rc;

	memset(srv, 0, sizeof(*srv));
	srv->tcp_fd = srv->wake[0] = srv->wake[1] = -1;
	srv->flavor = cfg->flavor;
	srv->nreaders = cfg->threads;
	srv->tcp_idle_ms = cfg->tcp_idle_ms;
	if (cfg->hold_us) {
		hold_us = cfg->hold_us;
		zs_answer_hold = hold;
	}
	if (zs_zones_init(&srv->zones, cfg->nzones, cfg->origins, cfg->paths,
			  cfg->flavor->rcu, err, errlen))
		return -1;
	srv->zones.nsid = cfg->nsid;
	srv->workers = aligned_alloc(64, (srv->nreaders + 1) * sizeof(*srv->workers));
	if (!srv->workers) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (unsigned i = 0; i <= srv->nreaders; i++) {
		memset(&srv->workers[i], 0, sizeof(srv->workers[i]));
		srv->workers[i].srv = srv;
		srv->workers[i].fd = -1;
		for (int s = 0; s < ZS_NSTATS; s++)
			atomic_init(&srv->workers[i].stats[s], 0);
	}
	rc = getaddrinfo(cfg->addr, NULL, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "address %s: %s", cfg->addr, gai_strerror(rc));
		goto fail;
	}
	if (open_sockets(srv, cfg, ai, err, errlen))
		goto fail;
	if (pipe2(srv->wake, O_CLOEXEC) < 0) {
		set_error(err, errlen, "pipe", errno);
		goto fail;
	}
	freeaddrinfo(ai);
	return 0;
fail:
	if (ai)
		freeaddrinfo(ai);
	zs_server_close(srv);
	return -1;
}

/*
 * Makes @zone (NULL: none) the slot's version; returns the one it
 * replaces, which readers may still hold until a grace period ends.
 */
static struct zs_zone *publish(struct zs_slot *slot, struct zs_zone *zone)
{
	/* Only the loader writes slot->zone: a plain read of our own store. */
	struct zs_zone *old = slot->zone;

	/*
	 * Release (rcu_assign_pointer): orders the whole build of @zone
	 * before its publication; pairs with the consume load of
	 * answer_query() in answer.c.
	 */
	__atomic_store_n(&slot->zone, zone, __ATOMIC_RELEASE);
	return old;
}

/*
 * Frees the @n versions that publish() replaced: after one grace
 * period, no reader can hold any of them.  The loader waits here, never
 * a reader.  (zs_zone_free() never waits, so call_rcu() would do too;
 * waiting keeps the memory of a reload bounded and needs no rcu_barrier()
 * before exit.)
 */
static void retire(struct zs_server *srv, struct zs_zone **old, size_t n)
{
	if (!n)
		return;
	srv->flavor->rcu->update_synchronize_rcu();
	for (size_t i = 0; i < n; i++)
		zs_zone_free(old[i]);
}

unsigned zs_server_load(struct zs_server *srv, FILE *log)
{
	struct zs_zone **old = calloc(srv->zones.n ? srv->zones.n : 1, sizeof(*old));
	unsigned failed = 0;
	size_t nold = 0;

	if (!old) {
		fprintf(log, "zoneserver: out of memory: no zone reloaded\n");
		return (unsigned) srv->zones.n;
	}
	for (size_t i = 0; i < srv->zones.n; i++) {
		struct zs_slot *slot = &srv->zones.slots[i];
		struct zs_zone *zone;
		char err[512];

		if (zs_zone_load(slot->origin, slot->path, srv->flavor->rcu, &zone,
				 err, sizeof(err))) {
			fprintf(log, "zoneserver: zone %s refused: %s%s\n",
				slot->origin, err, slot->zone ?
				"; keeping the version being served" : "");
			failed++;
			continue;
		}
		fprintf(log, "zoneserver: zone %s loaded: serial %u, %zu nodes, "
			"%zu records\n", slot->origin, zone->serial, zone->nodes,
			zone->records);
		old[nold] = publish(slot, zone);
		if (old[nold])
			nold++;
	}
	fflush(log);
	retire(srv, old, nold);
	free(old);
	return failed;
}

int zs_server_start(struct zs_server *srv, char *err, size_t errlen)
{
	for (unsigned i = 0; i <= srv->nreaders; i++) {
		int rc = pthread_create(&srv->workers[i].tid, NULL,
					i < srv->nreaders ? udp_main : tcp_main,
					&srv->workers[i]);

		if (rc) {
			set_error(err, errlen, "pthread_create", rc);
			srv->workers[i].tid = 0;
			/* Joins the threads started so far (tid set). */
			srv->started = true;
			zs_server_stop(srv);
			return -1;
		}
	}
	srv->started = true;
	return 0;
}

void zs_server_stop(struct zs_server *srv)
{
	char byte = 1;

	atomic_store(&srv->stop, 1);
	/* Wakes every thread blocked in poll(); the pipe stays readable. */
	while (write(srv->wake[1], &byte, 1) < 0 && errno == EINTR)
		;
	if (!srv->started)
		return;
	for (unsigned i = 0; i <= srv->nreaders; i++)
		if (srv->workers[i].tid)
			pthread_join(srv->workers[i].tid, NULL);
	srv->started = false;
}

void zs_server_clear(struct zs_server *srv)
{
	for (size_t i = 0; i < srv->zones.n; i++) {
		struct zs_zone *old = publish(&srv->zones.slots[i], NULL);

		/* One at a time: no allocation on the way out. */
		if (old)
			retire(srv, &old, 1);
	}
}

void zs_server_close(struct zs_server *srv)
{
	if (srv->workers)
		for (unsigned i = 0; i < srv->nreaders; i++)
			if (srv->workers[i].fd >= 0)
				close(srv->workers[i].fd);
	if (srv->tcp_fd >= 0)
		close(srv->tcp_fd);
	if (srv->wake[0] >= 0)
		close(srv->wake[0]);
	if (srv->wake[1] >= 0)
		close(srv->wake[1]);
	srv->tcp_fd = srv->wake[0] = srv->wake[1] = -1;
	zs_zones_destroy(&srv->zones);
	free(srv->workers);
	srv->workers = NULL;
}

void zs_server_stats(struct zs_server *srv, FILE *out)
{
	unsigned long sum[ZS_NSTATS] = { 0 };

	for (unsigned i = 0; srv->workers && i <= srv->nreaders; i++)
		for (int s = 0; s < ZS_NSTATS; s++)
			/* Relaxed: see count(). */
			sum[s] += atomic_load_explicit(&srv->workers[i].stats[s],
						       memory_order_relaxed);
	fprintf(out, "zoneserver: stats: queries %lu (tcp %lu): noerror %lu, "
		"nxdomain %lu, formerr %lu, notimp %lu, refused %lu, servfail %lu, "
		"other %lu, truncated %lu, dropped %lu, send errors %lu; "
		"poisoned reads %lu\n",
		sum[ZS_STAT_RECEIVED], sum[ZS_STAT_TCP], sum[ZS_STAT_NOERROR],
		sum[ZS_STAT_NXDOMAIN], sum[ZS_STAT_FORMERR], sum[ZS_STAT_NOTIMP],
		sum[ZS_STAT_REFUSED], sum[ZS_STAT_SERVFAIL], sum[ZS_STAT_OTHER],
		sum[ZS_STAT_TRUNCATED], sum[ZS_STAT_DROPPED],
		sum[ZS_STAT_SEND_ERRORS],
		/* Relaxed: a counter, see count_answer(). */
		atomic_load_explicit(&srv->poisoned, memory_order_relaxed));
	fflush(out);
}
