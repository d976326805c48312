/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TCP framing of DNS messages (RFC 1035 4.2.2, RFC 7766 8): each message
 * is preceded by its length in two bytes.  A connection's input buffer
 * holds what arrived so far; zs_tcp_frame() says whether a whole message
 * is at its start.  Pure, like dns.h: the TCP thread (server.c) and the
 * stream fuzz target (fuzz_tcp.c) share it.
 */
#ifndef ZONESERVER_TCPFRAME_H
#define ZONESERVER_TCPFRAME_H

#include <stddef.h>
#include <stdint.h>

/* Input buffer size that always holds one whole message. */
#define ZS_TCP_BUF	(2 + 65535)

/*
 * The first message of the @len bytes at @buf: returns the bytes it
 * takes with its length prefix, and sets *@msg and *@msglen; returns 0
 * when it has not all arrived yet.
 */
size_t zs_tcp_frame(const uint8_t *buf, size_t len, const uint8_t **msg,
		    size_t *msglen);

/* Writes the length prefix of a @len-byte message at @out. */
void zs_tcp_prefix(uint8_t *out, size_t len);

#endif /* ZONESERVER_TCPFRAME_H */
