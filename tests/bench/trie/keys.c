/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* keys.c: the key sets of keys.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

#define MAX_NAME	96

static uint64_t next(uint64_t *s)
{
	uint64_t x = (*s += 0x9e3779b97f4a7c15ULL);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void *xalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p) {
		fprintf(stderr, "bench: out of memory\n");
		exit(2);
	}
	return p;
}

/* Weighted choice: @w holds cumulative weights out of 1000. */
static int pick(uint64_t *s, const int *w, int n)
{
	int r = (int) (next(s) % 1000), i;

	for (i = 0; i < n - 1 && r >= w[i]; i++)
		;
	return i;
}

static const char *const tlds[] = {
	"com", "net", "org", "de", "uk", "ru", "nl", "fr", "io", "jp",
	"br", "info", "cz", "it", "se", "ch",
};
/* Cumulative weights out of 1000; the rest are random 2-letter TLDs. */
static const int tld_w[] = {
	450, 530, 600, 650, 680, 710, 730, 750, 770, 790, 810, 825, 835, 850,
	860, 870, 1000,
};
/* Second-level label lengths 3..20. */
static const int sld_w[] = {
	20, 60, 130, 220, 320, 420, 520, 610, 690, 760, 820, 870, 910, 940,
	960, 975, 990, 1000,
};
static const char *const subs[] = { "www", "mail", "api", "ns1", "m" };

static size_t random_label(uint64_t *s, char *out, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	size_t i;

	for (i = 0; i < len; i++) {
		uint64_t r = next(s);

		out[i] = (i && i + 1 < len && r % 40 == 0) ? '-' : chars[r % 36];
	}
	return len;
}

/* Appends label @l (@len bytes) and its 0x00 terminator. */
static size_t put(unsigned char *out, size_t at, const char *l, size_t len)
{
	memcpy(out + at, l, len);
	out[at + len] = 0;
	return at + len + 1;
}

/* One name in canonical lookup form; returns its length. */
static size_t dns_name(uint64_t *s, unsigned char *out)
{
	char label[32];
	size_t at = 0, len;
	int t = pick(s, tld_w, 17), nsub, i;

	if (t < 16) {
		const char *tld = tlds[t];

		at = put(out, at, tld, strlen(tld));
		if (!strcmp(tld, "uk"))
			at = put(out, at, "co", 2);
	} else {
		at = put(out, at, label, random_label(s, label, 2));
	}
	len = 3 + (size_t) pick(s, sld_w, 18);
	at = put(out, at, label, random_label(s, label, len));
	nsub = (int) (next(s) % 100);
	nsub = nsub < 40 ? 0 : nsub < 85 ? 1 : 2;
	for (i = 0; i < nsub; i++) {
		uint64_t r = next(s) % 100;

		if (r < 30)
			at = put(out, at, subs[0], 3);
		else if (r < 45)
			at = put(out, at, subs[1 + r % 4], strlen(subs[1 + r % 4]));
		else
			at = put(out, at, label,
				 random_label(s, label, 2 + next(s) % 11));
	}
	return at;
}

struct entry {
	const unsigned char *key;
	size_t len;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static void encode_u64(unsigned char *b, uint64_t v)
{
	int i;

	for (i = 7; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char) v;
}

/*
 * Generates 2n distinct keys (the first half present, the second
 * absent), then shuffles each half.
 */
void bench_keys_make(struct bench_keys *k, const char *kind, size_t n,
		     uint64_t seed)
{
	int dns = !strcmp(kind, "dns");
	size_t total = 2 * n, want = total + total / 8 + 16, made, i, j, at = 0;
	struct entry *e;
	uint64_t s = seed;
	double sum = 0;

	if (!dns && strcmp(kind, "u64")) {
		fprintf(stderr, "bench: unknown key kind '%s'\n", kind);
		exit(2);
	}
	k->arena = xalloc(want * (dns ? MAX_NAME : 8));
	e = xalloc(want * sizeof(*e));
	for (;;) {
		/* Extra candidates, then drop duplicates after sorting. */
		for (made = 0; made < want; made++) {
			unsigned char *p = k->arena + at;

			if (dns) {
				e[made].len = dns_name(&s, p);
			} else {
				encode_u64(p, next(&s));
				e[made].len = 8;
			}
			e[made].key = p;
			at += e[made].len;
		}
		qsort(e, made, sizeof(*e), entry_cmp);
		for (i = j = 0; i < made; i++)
			if (!j || entry_cmp(&e[j - 1], &e[i]))
				e[j++] = e[i];
		if (j >= total)
			break;
		fprintf(stderr, "bench: too many duplicate keys\n");
		exit(2);
	}
	/* Random order, then the first n are present. */
	for (i = j; i > 1; i--) {
		size_t r = next(&s) % i;
		struct entry tmp = e[i - 1];

		e[i - 1] = e[r];
		e[r] = tmp;
	}
	k->n = n;
	k->key = xalloc(n * sizeof(*k->key));
	k->len = xalloc(n * sizeof(*k->len));
	k->absent = xalloc(n * sizeof(*k->absent));
	k->absent_len = xalloc(n * sizeof(*k->absent_len));
	k->u64 = xalloc(n * sizeof(*k->u64));
	k->absent_u64 = xalloc(n * sizeof(*k->absent_u64));
	for (i = 0; i < n; i++) {
		k->key[i] = e[i].key;
		k->len[i] = e[i].len;
		k->absent[i] = e[n + i].key;
		k->absent_len[i] = e[n + i].len;
		sum += (double) e[i].len;
		if (!dns) {
			uint64_t v = 0, w = 0;
			int b;

			for (b = 0; b < 8; b++) {
				v = (v << 8) | e[i].key[b];
				w = (w << 8) | e[n + i].key[b];
			}
			k->u64[i] = v;
			k->absent_u64[i] = w;
		}
	}
	k->mean_len = n ? sum / (double) n : 0;
	free(e);
}
