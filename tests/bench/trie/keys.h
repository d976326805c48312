/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * keys.h: the key sets of the trie benchmark.
 *
 *   "dns": DNS-like names in canonical lookup form: labels in reverse
 *          order, each followed by a 0x00 byte ("www.example.com" is
 *          "com\0example\0www\0"), so that byte order is the canonical
 *          DNS order.  TLDs from a weighted list, second-level labels of
 *          3 to 20 characters (mostly 6 to 12), 0 to 2 more labels
 *          ("www", "mail", ... or random), about 20 bytes on average.
 *   "u64": random 64-bit integers, encoded big-endian (8 bytes).
 *
 * Each set has N distinct present keys and N absent ones (for
 * neighbour queries of keys not stored), both in random order.
 */
#ifndef BENCH_KEYS_H
#define BENCH_KEYS_H

#include <stddef.h>
#include <stdint.h>

struct bench_keys {
	size_t n;
	const unsigned char **key, **absent;
	size_t *len, *absent_len;
	uint64_t *u64, *absent_u64;	/* "u64" only: the integer values */
	unsigned char *arena;
	double mean_len;
};

/* Builds the set; exits with a message on a bad kind or no memory. */
void bench_keys_make(struct bench_keys *k, const char *kind, size_t n,
		     uint64_t seed);

#endif /* BENCH_KEYS_H */
