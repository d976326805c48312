/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The zone store interface of the zoneserver: what the answer code needs
 * from the ordered index that maps names to zone nodes, and apexes to
 * zones.
 *
 * Keys are names in "label-reversed canonical" form (zs_name_key()):
 * the labels from the root down, each lowercased, escaped so that it
 * holds no 0x00 byte, and followed by a 0x00 terminator.  Two properties
 * follow; answers rely on the first, ordered walks on the second:
 *   - a name's key is a byte prefix of the key of every name below it,
 *     and a stored key that is a byte prefix of a query key always ends
 *     on a label boundary of it: the longest stored prefix of a query
 *     key is the query's closest encloser (or the zone of the query);
 *   - byte order of keys is the canonical DNS name order (RFC 4034,
 *     6.1), so an ordered walk visits names as DNSSEC would.
 *
 * An index is built once, is then immutable, and is read concurrently
 * without locks; it is published and retired with the zone version that
 * owns it (server.c).  zindex_trie.c implements it on the RCU ordered
 * trie of liburcu-cds (urcu/rcutrie.h).
 */
#ifndef ZONESERVER_ZINDEX_H
#define ZONESERVER_ZINDEX_H

#include <stddef.h>
#include <stdint.h>

struct rcu_flavor_struct;

/* Longest key: 127 labels of one byte escaped, plus terminators. */
#define ZS_KEY_MAX		(2 * 255)

/*
 * The key of the lowercased wire name @name in @key (ZS_KEY_MAX bytes);
 * returns its length (0 for the root).  Also stores in @ends, when not
 * NULL, the key length after each label (from the top), and in *@nlabels
 * their number.
 */
size_t zs_name_key(const uint8_t *name, uint8_t *key, uint16_t *ends,
		   unsigned *nlabels);

struct zs_index;

struct zs_index_entry {
	const uint8_t *key;
	size_t keylen;
	void *value;
};

/*
 * An index of the @n entries (keys distinct), searched by readers of
 * @flavor inside its read-side sections.  The caller is the only writer,
 * registered with @flavor, online, outside read-side sections.  Returns
 * NULL when out of memory.
 */
struct zs_index *zs_index_build(const struct rcu_flavor_struct *flavor,
				struct zs_index_entry *entries, size_t n);

/* The value stored under @key, or NULL.  Inside a read-side section. */
void *zs_index_find(const struct zs_index *idx, const uint8_t *key,
		    size_t keylen);

/*
 * The value of the longest stored key that is a prefix of @key, or
 * NULL; *@matched receives that key's length.  @ends and @nlabels are
 * as zs_name_key() gave them for @key.  Inside a read-side section.
 */
void *zs_index_longest_prefix(const struct zs_index *idx, const uint8_t *key,
			      const uint16_t *ends, unsigned nlabels,
			      size_t *matched);

/*
 * Frees the index once no reader can reach it any more (a grace period
 * of its flavor has passed since it was unpublished).  It does not wait
 * and takes no read-side section: any thread may call it, a call_rcu
 * callback included.
 */
void zs_index_free(struct zs_index *idx);

#endif /* ZONESERVER_ZINDEX_H */
