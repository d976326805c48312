/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * two_flavors, QSBR part: every thread started here follows the QSBR
 * rules, and uses only the table it was given, whose flavor is QSBR.
 *
 *   - threads register with rcu_register_thread(), which also puts them
 *     online, and unregister before they exit;
 *   - every table call sits inside rcu_read_lock() / rcu_read_unlock()
 *     (free with QSBR, but they mark the section for the reader and for
 *     debug builds), and between sections each thread announces a
 *     quiescent state with rcu_quiescent_state();
 *   - a thread goes offline around anything that blocks (the updater's
 *     pauses here), so that grace periods need not wait for it;
 *   - removed items are freed by QSBR's call_rcu(), after a QSBR grace
 *     period, and rcu_barrier() waits for those callbacks.
 *
 * This unit includes <urcu-qsbr.h>, so all those generic names are
 * QSBR's.  See two_flavors_main.c for the whole program.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu-qsbr.h>

#include "two_flavors.h"

#define READERS		2
#define UPDATES		20000
#define PAUSE_EVERY	64	/* updates between short pauses */

static struct cds_lfht *table;		/* flavor: QSBR */
static struct part_stats stats = { .flavor = "qsbr" };
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
		/* Nothing found in the table is used past this point. */
		rcu_quiescent_state();
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
		call_rcu(&item->rcu, free_item);	/* QSBR's call_rcu */
		stats.retired++;
	}
}

static void *updater_thread(void *arg)
{
	unsigned long seed = 0x13198a2e03707344ULL;
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
		rcu_quiescent_state();
		stats.updates++;
		if (version % PAUSE_EVERY == 0) {
			rcu_thread_offline();
			nanosleep(&(struct timespec){ .tv_nsec = 100000 },
				  NULL);
			rcu_thread_online();
		}
	}
	/* Empty the table; readers may still be looking at its items. */
	do {
		rcu_read_lock();
		gone = table_take_any(table);
		rcu_read_unlock();
		retire(gone);
		rcu_quiescent_state();
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

void qsbr_part_start(struct cds_lfht *ht)
{
	table = ht;
	for (int i = 0; i < READERS; i++)
		start(&readers[i], reader_thread, &reader_stats[i]);
	start(&updater, updater_thread, NULL);
}

const struct part_stats *qsbr_part_finish(void)
{
	pthread_join(updater, NULL);
	atomic_store(&stop_readers, true);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i], NULL);
		stats.lookups += reader_stats[i].lookups;
		stats.hits += reader_stats[i].hits;
		stats.errors += reader_stats[i].errors;
	}
	/* Every item retired above has been freed when this returns.  This
	 * thread is not registered, so it may wait. */
	rcu_barrier();
	return &stats;
}
