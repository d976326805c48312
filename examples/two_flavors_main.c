/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * two_flavors: two RCU flavors in one program, each with its own
 * lock-free hash table (cds_lfht).
 *
 * The generic names (rcu_read_lock(), call_rcu(), ...) belong to one
 * flavor per compilation unit: <urcu.h> maps them onto memb and
 * <urcu-qsbr.h> onto QSBR.  A program that wants both flavors therefore
 * has one unit per flavor: two_flavors_memb.c and two_flavors_qsbr.c.
 * Units that only handle flavors as values, like this one, include the
 * prefixed headers (<urcu/urcu-memb.h>, <urcu/urcu-qsbr.h>) instead:
 * they declare urcu_memb_* and urcu_qsbr_* and map no generic name.
 *
 * The hash table code in liburcu-cds, and the table code in this file, is
 * flavor-agnostic.  A table learns its flavor once, when it is created:
 * cds_lfht_new_flavor(..., &urcu_memb_flavor, ...) makes a table whose
 * internal read-side sections, grace periods and resize worker all use
 * memb.  (cds_lfht_new() without a flavor argument, available after a
 * flavor header, picks that header's flavor.)  The rule that follows:
 *
 *   Each table has exactly one flavor, and every thread that touches it
 *   follows that flavor's rules: it is registered with that flavor, and
 *   calls the table inside that flavor's read-side critical section
 *   (QSBR: while online, announcing quiescent states between sections).
 *   Removed items are freed after a grace period of that flavor, e.g.
 *   with that flavor's call_rcu().
 *
 * A memb read-side section does not protect anything from a QSBR grace
 * period, or the other way round: QSBR grace periods know nothing of memb
 * readers.  So the memb threads touch only the memb table and the QSBR
 * threads only the QSBR table.  A thread that needs both registers with
 * both flavors and enters each table under its own flavor's lock; the
 * "bridge" thread below does that with the prefixed names.
 *
 * What runs: main() creates both tables (with automatic resizing) and
 * starts each part.  Each part has two readers that look up random keys
 * and one updater that adds, replaces and removes items and retires the
 * removed ones with its flavor's call_rcu().  The bridge looks up keys in
 * both tables.  At the end each updater empties its table, each part
 * waits for its callbacks with its flavor's rcu_barrier(), and main()
 * destroys the tables.
 *
 * Checking: items carry a magic word, overwritten before free(), and a
 * value derived from key and version; every lookup checks both.  Every
 * retired item must have been freed at the end.  Any failure makes the
 * program exit 1.
 *
 * Link with -lurcu-cds -lurcu -lurcu-qsbr.  Run it with `scons examples`
 * (docs/examples.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prefixed names only: neither header maps rcu_read_lock() & co. here. */
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>

#include "two_flavors.h"

enum { ITEM_LIVE = 0x17e3, ITEM_FREED = 0xdead };

static unsigned long item_value(unsigned long key, unsigned long version)
{
	return key * 2654435761u + version;
}

static unsigned long item_hash(unsigned long key)
{
	/* Any mixing function will do; equal keys need equal hashes. */
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key;
}

static int item_match(struct cds_lfht_node *node, const void *key)
{
	const struct item *item = caa_container_of(node, struct item, node);

	return item->key == *(const unsigned long *) key;
}

unsigned long next_random(unsigned long *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

void table_lookup(struct cds_lfht *ht, unsigned long key,
		  struct part_stats *stats)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_lookup(ht, item_hash(key), item_match, &key, &iter);
	node = cds_lfht_iter_get_node(&iter);
	stats->lookups++;
	if (node) {
		const struct item *item =
			caa_container_of(node, struct item, node);

		if (atomic_load_explicit(&item->magic, memory_order_relaxed) !=
		    ITEM_LIVE || item->key != key ||
		    item->value != item_value(item->key, item->version))
			stats->errors++;
		stats->hits++;
	}
}

struct item *table_update(struct cds_lfht *ht, unsigned long key,
			  unsigned long version, bool remove)
{
	struct cds_lfht_node *node;
	struct item *item;

	if (remove) {
		struct cds_lfht_iter iter;

		cds_lfht_lookup(ht, item_hash(key), item_match, &key, &iter);
		node = cds_lfht_iter_get_node(&iter);
		if (!node || cds_lfht_del(ht, node) != 0)
			return NULL;
		return caa_container_of(node, struct item, node);
	}

	item = malloc(sizeof(*item));
	if (!item) {
		fprintf(stderr, "two_flavors: malloc: %s\n", strerror(ENOMEM));
		exit(2);
	}
	item->key = key;
	item->version = version;
	item->value = item_value(key, version);
	atomic_init(&item->magic, ITEM_LIVE);
	cds_lfht_node_init(&item->node);
	/* The new item is complete here; adding it publishes it. */
	node = cds_lfht_add_replace(ht, item_hash(key), item_match, &key,
				    &item->node);
	return node ? caa_container_of(node, struct item, node) : NULL;
}

struct item *table_take_any(struct cds_lfht *ht)
{
	struct cds_lfht_iter iter;
	struct cds_lfht_node *node;

	cds_lfht_for_each(ht, &iter, node)
		if (cds_lfht_del(ht, node) == 0)
			return caa_container_of(node, struct item, node);
	return NULL;
}

void item_free(struct item *item, struct part_stats *stats)
{
	atomic_store_explicit(&item->magic, ITEM_FREED, memory_order_relaxed);
	free(item);
	atomic_fetch_add(&stats->freed, 1);
}

/* ------------------------------------------------------------------------
 * The bridge: one thread that follows both flavors' rules.
 */

struct bridge {
	pthread_t thread;
	struct cds_lfht *memb_table, *qsbr_table;
	atomic_bool stop;
	struct part_stats memb_stats, qsbr_stats;
};

static void *bridge_thread(void *arg)
{
	struct bridge *self = arg;
	unsigned long seed = 88172645463325252ULL;

	urcu_memb_register_thread();
	urcu_qsbr_register_thread();	/* online from here on */
	while (!atomic_load(&self->stop)) {
		unsigned long key = next_random(&seed) % KEY_SPACE;

		urcu_memb_read_lock();
		table_lookup(self->memb_table, key, &self->memb_stats);
		urcu_memb_read_unlock();

		urcu_qsbr_read_lock();
		table_lookup(self->qsbr_table, key, &self->qsbr_stats);
		urcu_qsbr_read_unlock();
		urcu_qsbr_quiescent_state();
	}
	urcu_qsbr_unregister_thread();
	urcu_memb_unregister_thread();
	return NULL;
}

static bool report(const struct part_stats *part,
		   const struct part_stats *bridge)
{
	unsigned long freed = atomic_load(&part->freed);

	printf("two_flavors: %s table: %lu lookups (%lu hits) by its readers "
	       "and %lu (%lu hits) by the bridge; %lu updates; %lu items "
	       "retired with call_rcu, %lu freed\n", part->flavor,
	       part->lookups, part->hits, bridge->lookups, bridge->hits,
	       part->updates, part->retired, freed);
	if (part->errors || bridge->errors || freed != part->retired) {
		printf("two_flavors: FAILED: %s table: %lu + %lu lookups found "
		       "a freed or bad item; %lu retired items not freed\n",
		       part->flavor, part->errors, bridge->errors,
		       part->retired - freed);
		return false;
	}
	return true;
}

int main(void)
{
	static struct bridge bridge;
	const struct part_stats *memb_stats, *qsbr_stats;
	const int flags = CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING;
	struct cds_lfht *memb_table, *qsbr_table;
	bool ok;
	int err;

	/* Small at first: the resize worker grows them, in their flavor. */
	memb_table = cds_lfht_new_flavor(8, 8, 0, flags, &urcu_memb_flavor,
					 NULL);
	qsbr_table = cds_lfht_new_flavor(8, 8, 0, flags, &urcu_qsbr_flavor,
					 NULL);
	if (!memb_table || !qsbr_table) {
		fprintf(stderr, "two_flavors: cds_lfht_new_flavor failed\n");
		return 2;
	}

	memb_part_start(memb_table);
	qsbr_part_start(qsbr_table);
	bridge.memb_table = memb_table;
	bridge.qsbr_table = qsbr_table;
	err = pthread_create(&bridge.thread, NULL, bridge_thread, &bridge);
	if (err) {
		fprintf(stderr, "two_flavors: pthread_create: %s\n",
			strerror(err));
		return 2;
	}

	memb_stats = memb_part_finish();
	qsbr_stats = qsbr_part_finish();
	atomic_store(&bridge.stop, true);
	pthread_join(bridge.thread, NULL);

	/* Empty, and no thread uses them any more. */
	if (cds_lfht_destroy(memb_table, NULL) != 0 ||
	    cds_lfht_destroy(qsbr_table, NULL) != 0) {
		printf("two_flavors: FAILED: a table was not empty at the "
		       "end\n");
		return 1;
	}

	ok = report(memb_stats, &bridge.memb_stats);
	ok = report(qsbr_stats, &bridge.qsbr_stats) && ok;
	if (!ok)
		return 1;
	printf("two_flavors: OK: both tables served their own flavor's "
	       "threads and the bridge; nothing was used after free\n");
	return 0;
}
