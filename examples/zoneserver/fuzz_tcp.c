/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: a TCP byte stream, cut into reads of sizes taken
 * from the input, framed by zs_tcp_frame() as the TCP thread does
 * (server.c), each message answered in TCP mode against the fixed zones
 * of fuzz_zones.c.  Checks that the framing consumes exactly the bytes
 * it announces, never overruns the connection buffer, and that every
 * response fits its two-byte length prefix.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_zones.h"
#include "tcpframe.h"

#define CHECK(cond)			\
	do {				\
		if (!(cond))		\
			abort();	\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t in[ZS_TCP_BUF], out[2 + DNS_TCP_MAX];
	size_t in_len = 0, pos = 0;
	unsigned step = size ? data[0] : 1;

	while (pos < size) {
		/* The next "read": 1 to 256 bytes, as much as fits. */
		size_t chunk = 1 + (step = step * 131u + 7u) % 256u;

		if (chunk > size - pos)
			chunk = size - pos;
		if (chunk > sizeof(in) - in_len)
			chunk = sizeof(in) - in_len;
		memcpy(in + in_len, data + pos, chunk);
		in_len += chunk;
		pos += chunk;
		for (;;) {
			struct zs_answer_info info;
			const uint8_t *msg;
			size_t mlen, used, n;

			used = zs_tcp_frame(in, in_len, &msg, &mlen);
			if (!used)
				break;
			CHECK(used == mlen + 2 && used <= in_len);
			n = fuzz_answer(msg, mlen, out + 2, DNS_TCP_MAX, true, &info);
			CHECK(n <= DNS_TCP_MAX);
			zs_tcp_prefix(out, n);
			CHECK((size_t) (out[0] << 8 | out[1]) == n);
			memmove(in, in + used, in_len - used);
			in_len -= used;
		}
		/* A full buffer always holds a whole message. */
		CHECK(in_len < sizeof(in));
	}
	return 0;
}
