/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: one datagram through the query parser and the whole
 * answer path (zone lookup, CNAME chains, wildcards, referrals,
 * additional records, compression, truncation) against the fixed zones
 * of fuzz_zones.c, answered as over UDP and as over TCP.  Built with
 * clang -fsanitize=fuzzer,address,undefined by `scons fuzz`.
 *
 * Beyond "no crash, no sanitizer report", it checks what clients rely
 * on: the ID echoed, a response within the size the query allows, and
 * header counts that match the records present.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_zones.h"

#define CHECK(cond)			\
	do {				\
		if (!(cond))		\
			abort();	\
	} while (0)

/* Skips the name at buf[*pos]; false if it runs past @len. */
static int skip_name(const uint8_t *buf, size_t len, size_t *pos)
{
	while (*pos < len) {
		uint8_t l = buf[*pos];

		if ((l & 0xc0) == 0xc0) {
			*pos += 2;
			return *pos <= len;
		}
		CHECK((l & 0xc0) == 0);
		*pos += 1 + (size_t) l;
		if (l == 0)
			return 1;
	}
	return 0;
}

/* The counts of the header match the records that follow, exactly. */
static void check_response(const uint8_t *out, size_t len)
{
	size_t pos = 12;
	unsigned qd = (unsigned) (out[4] << 8 | out[5]);
	unsigned rr = (unsigned) (out[6] << 8 | out[7]) +
		      (unsigned) (out[8] << 8 | out[9]) +
		      (unsigned) (out[10] << 8 | out[11]);

	CHECK(len >= 12 && (out[2] & 0x80));
	for (unsigned i = 0; i < qd; i++) {
		CHECK(skip_name(out, len, &pos));
		pos += 4;
	}
	for (unsigned i = 0; i < rr; i++) {
		CHECK(skip_name(out, len, &pos));
		CHECK(pos + 10 <= len);
		pos += 10 + (size_t) (out[pos + 8] << 8 | out[pos + 9]);
	}
	CHECK(pos == len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[65536];
	struct zs_answer_info info;
	size_t len;

	len = fuzz_answer(data, size, out, DNS_UDP_MAX, false, &info);
	CHECK(len <= DNS_UDP_MAX);
	if (len) {
		CHECK(out[0] == data[0] && out[1] == data[1]);
		check_response(out, len);
		CHECK(!info.poisoned);
	}
	len = fuzz_answer(data, size, out, DNS_TCP_MAX, true, &info);
	CHECK(len <= DNS_TCP_MAX);
	if (len)
		check_response(out, len);
	return 0;
}
