/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The zoneserver's index (zindex.h) on the RCU ordered trie of
 * liburcu-cds (urcu/rcutrie.h): one trie per index, one trie node per
 * entry, keys kept by the caller (the zone's arena).
 *
 * An index is built by one thread (the loader, registered with the
 * flavor and online) before it is published, and freed only once no
 * reader can reach it (after the grace period that follows the
 * replacement of its zone version), so neither building nor freeing
 * races with readers, and freeing is cds_trie_destroy_all(), which
 * neither waits nor needs a read-side section; lookups run inside the
 * readers' read-side sections, as the trie requires.  Nothing here
 * orders memory itself: the trie's updates release the caller's writes
 * to its readers, and the version holding the index is published by a
 * release store (server.c, publish()).
 */
#include <errno.h>
#include <stdlib.h>

#include <urcu/flavor.h>
#include <urcu/rcutrie.h>

#include "zindex.h"

struct zs_index_node {
	struct cds_trie_node node;
	void *value;
};

struct zs_index {
	const struct rcu_flavor_struct *flavor;
	struct cds_trie *trie;
	size_t n;
	struct zs_index_node nodes[];
};

struct zs_index *zs_index_build(const struct rcu_flavor_struct *flavor,
				struct zs_index_entry *entries, size_t n)
{
	struct zs_index *idx = malloc(sizeof(*idx) + n * sizeof(idx->nodes[0]));

	if (!idx)
		return NULL;
	idx->flavor = flavor;
	idx->n = 0;
	idx->trie = cds_trie_new(flavor, NULL);
	if (!idx->trie) {
		free(idx);
		return NULL;
	}
	/* The trie's updates run inside a read-side section. */
	flavor->read_lock();
	for (size_t i = 0; i < n; i++) {
		struct zs_index_node *in = &idx->nodes[i];

		cds_trie_node_init(&in->node, entries[i].key, entries[i].keylen);
		in->value = entries[i].value;
		if (cds_trie_add_unique(idx->trie, &in->node, NULL) != 0)
			break;
		idx->n++;
	}
	flavor->read_unlock();
	if (idx->n != n) {
		zs_index_free(idx);
		return NULL;
	}
	return idx;
}

void *zs_index_find(const struct zs_index *idx, const uint8_t *key,
		    size_t keylen)
{
	struct cds_trie_node *node = cds_trie_lookup(idx->trie, key, keylen);

	return node ? caa_container_of(node, struct zs_index_node, node)->value
		    : NULL;
}

void *zs_index_longest_prefix(const struct zs_index *idx, const uint8_t *key,
			      const uint16_t *ends, unsigned nlabels,
			      size_t *matched)
{
	struct cds_trie_node *node;
	size_t len = nlabels ? ends[nlabels - 1] : 0;

	node = cds_trie_lookup_longest_prefix(idx->trie, key, len);
	if (!node)
		return NULL;
	cds_trie_node_key(node, matched);
	return caa_container_of(node, struct zs_index_node, node)->value;
}

void zs_index_free(struct zs_index *idx)
{
	/*
	 * No reader can reach the trie any more: it goes at once, inner
	 * nodes included, without emptying it first and without waiting;
	 * its nodes live in idx->nodes[], freed with the index.
	 */
	cds_trie_destroy_all(idx->trie, NULL, NULL);
	free(idx);
}
