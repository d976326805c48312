/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * two_flavors, memb part: every thread started here follows the memb
 * rules, and uses only the table it was given, whose flavor is memb.
 *
 *   - threads register with rcu_register_thread() before their first
 *     read-side section and unregister before they exit;
 *   - every table call sits inside rcu_read_lock() / rcu_read_unlock();
 *   - removed items are freed by memb's call_rcu(), after a memb grace
 *     period, and rcu_barrier() waits for those callbacks.
 *
 * This unit includes <urcu.h>, so all those generic names are memb's.
 * See two_flavors_main.c for the whole program.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu.h>

#include "two_flavors.h"

#define READERS		2
#define UPDATES		20000
#define PAUSE_EVERY	64	/* updates between short pauses */

static struct cds_lfht *table;		/* flavor: memb */
static struct part_stats stats = { .flavor = "memb" };
static struct part_stats reader_stats[READERS];
static pthread_t readers[READERS], updater;
static atomic_bool stop_readers;

static void *reader_thread(void *arg)
{
	struct part_stats *mine = arg;
	unsigned long seed = 0x9e3779b97f4a7c15ULL + (uintptr_t) arg;

	rcu_register_thread();
	while (!atomic_load(&stop_readers)) {
		rcu_read_lock();
		table_lookup(table, next_random(&seed) % KEY_SPACE, mine);
		rcu_read_unlock();
	}
	rcu_unregister_thread();
	return NULL;
}

static void free_item(struct rcu_head *head)
{
	item_free(caa_container_of(head, struct item, rcu), &stats);
}

static void retire(struct item *item)
{
	if (item) {
		call_rcu(&item->rcu, free_item);	/* memb's call_rcu */
		stats.retired++;
	}
}

static void *updater_thread(void *arg)
{
	unsigned long seed = 0x243f6a8885a308d3ULL;
	struct item *gone;

	(void) arg;
	rcu_register_thread();
	for (unsigned long version = 1; version <= UPDATES; version++) {
		unsigned long r = next_random(&seed);

		rcu_read_lock();
		/* One update in four removes the key, the others (re)add it. */
		gone = table_update(table, r % KEY_SPACE, version,
				    (r >> 40) % 4 == 0);
		rcu_read_unlock();
		retire(gone);
		stats.updates++;
		if (version % PAUSE_EVERY == 0)
			nanosleep(&(struct timespec){ .tv_nsec = 100000 },
				  NULL);
	}
	/* Empty the table; readers may still be looking at its items. */
	do {
		rcu_read_lock();
		gone = table_take_any(table);
		rcu_read_unlock();
		retire(gone);
	} while (gone);
	rcu_unregister_thread();
	return NULL;
}

static void start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(thread, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "two_flavors: pthread_create: %s\n",
			strerror(err));
		exit(2);
	}
}

void memb_part_start(struct cds_lfht *ht)
{
	table = ht;
	for (int i = 0; i < READERS; i++)
		start(&readers[i], reader_thread, &reader_stats[i]);
	start(&updater, updater_thread, NULL);
}

const struct part_stats *memb_part_finish(void)
{
	pthread_join(updater, NULL);
	atomic_store(&stop_readers, true);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i], NULL);
		stats.lookups += reader_stats[i].lookups;
		stats.hits += reader_stats[i].hits;
		stats.errors += reader_stats[i].errors;
	}
	/* Every item retired above has been freed when this returns. */
	rcu_barrier();
	return &stats;
}
