/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * two_flavors: what its three compilation units share.
 *
 *   two_flavors_main.c  creates one hash table per flavor, naming the
 *                       flavor explicitly, and holds the code that works
 *                       on any table; it maps no generic RCU name;
 *   two_flavors_memb.c  includes <urcu.h>: its threads follow the memb
 *                       rules and use only the memb table;
 *   two_flavors_qsbr.c  includes <urcu-qsbr.h>: its threads follow the
 *                       QSBR rules and use only the QSBR table.
 *
 * See two_flavors_main.c for the whole story.
 */
#ifndef TWO_FLAVORS_H
#define TWO_FLAVORS_H

#include <stdatomic.h>
#include <stdbool.h>

#include <urcu/call-rcu.h>	/* struct rcu_head, for any flavor */
#include <urcu/rculfhash.h>

/* The keys a part uses: 0 .. KEY_SPACE-1 (each table has its own). */
#define KEY_SPACE	512

struct item {
	/* ITEM_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned long key;
	unsigned long version;
	unsigned long value;	/* item_value(key, version) */
	struct cds_lfht_node node;
	struct rcu_head rcu;
};

struct part_stats {
	const char *flavor;
	unsigned long lookups;
	unsigned long hits;
	unsigned long errors;	/* lookups that found a freed or bad item */
	unsigned long updates;	/* additions, replacements and removals */
	unsigned long retired;	/* items handed to call_rcu() */
	atomic_ulong freed;	/* items freed by call_rcu() callbacks */
};

/*
 * Flavor-agnostic table code (two_flavors_main.c).  The table functions
 * must be called the way the table's flavor requires: from a thread
 * registered with that flavor, inside its read-side critical section
 * (QSBR: online).
 */
void table_lookup(struct cds_lfht *ht, unsigned long key,
		  struct part_stats *stats);
/* Adds, replaces or (@remove) removes @key; returns the item taken out
 * of the table, to be freed after a grace period, or NULL. */
struct item *table_update(struct cds_lfht *ht, unsigned long key,
			  unsigned long version, bool remove);
/* Removes some item and returns it (free it after a grace period), or
 * returns NULL when the table is empty. */
struct item *table_take_any(struct cds_lfht *ht);
/* Frees an item once no reader can reach it. */
void item_free(struct item *item, struct part_stats *stats);
/* A pseudo-random number from *@state. */
unsigned long next_random(unsigned long *state);

/* two_flavors_memb.c: starts readers and an updater on @ht, a memb
 * table. */
void memb_part_start(struct cds_lfht *ht);
/* Waits for the updater (which ends by emptying the table), stops the
 * readers, waits for the freeing callbacks and returns the counts. */
const struct part_stats *memb_part_finish(void);

/* two_flavors_qsbr.c: the same for @ht, a QSBR table. */
void qsbr_part_start(struct cds_lfht *ht);
const struct part_stats *qsbr_part_finish(void);

#endif /* TWO_FLAVORS_H */
