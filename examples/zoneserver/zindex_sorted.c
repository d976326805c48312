/*
 * A stand-in for the RCU ordered trie behind zindex.h, used until the
 * trie is merged: a sorted array searched by bisection, one search per
 * label boundary for the longest prefix.
 */
#include <stdlib.h>
#include <string.h>

#include "zindex.h"

struct zs_index {
	size_t n;
	struct zs_index_entry e[];
};

static int key_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct zs_index_entry *x = a, *y = b;

	return key_cmp(x->key, x->keylen, y->key, y->keylen);
}

struct zs_index *zs_index_build(const struct rcu_flavor_struct *flavor,
				struct zs_index_entry *entries, size_t n)
{
	struct zs_index *idx = malloc(sizeof(*idx) + n * sizeof(*entries));

	(void) flavor;		/* immutable once built: readers need nothing */
	if (!idx)
		return NULL;
	qsort(entries, n, sizeof(*entries), entry_cmp);
	memcpy(idx->e, entries, n * sizeof(*entries));
	idx->n = n;
	return idx;
}

void *zs_index_find(const struct zs_index *idx, const uint8_t *key,
		    size_t keylen)
{
	size_t lo = 0, hi = idx->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(idx->e[mid].key, idx->e[mid].keylen, key, keylen);

		if (c == 0)
			return idx->e[mid].value;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void *zs_index_longest_prefix(const struct zs_index *idx, const uint8_t *key,
			      const uint16_t *ends, unsigned nlabels,
			      size_t *matched)
{
	for (unsigned i = nlabels + 1; i-- > 0;) {
		size_t len = i ? ends[i - 1] : 0;
		void *v = zs_index_find(idx, key, len);

		if (v) {
			*matched = len;
			return v;
		}
	}
	return NULL;
}

void zs_index_free(struct zs_index *idx)
{
	free(idx);
}
