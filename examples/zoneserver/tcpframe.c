/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * TCP framing (see tcpframe.h).
 */
#include "tcpframe.h"

size_t zs_tcp_frame(const uint8_t *buf, size_t len, const uint8_t **msg,
		    size_t *msglen)
{
	size_t n;

	if (len < 2)
		return 0;
	n = (size_t) buf[0] << 8 | buf[1];
	if (len - 2 < n)
		return 0;
	*msg = buf + 2;
	*msglen = n;
	return 2 + n;
}

void zs_tcp_prefix(uint8_t *out, size_t len)
{
	out[0] = (uint8_t) (len >> 8);
	out[1] = (uint8_t) len;
}
