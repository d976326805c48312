/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * list_delete: removing entries from a linked list that readers walk.
 *
 * The list is an ordinary <urcu/list.h> list changed only through the
 * _rcu calls of <urcu/rculist.h>.  Readers walk it with
 * cds_list_for_each_entry_rcu() inside a read-side critical section,
 * without any lock.  Updaters take a mutex among themselves (the RCU list
 * calls allow one updater at a time), never the readers' side.
 *
 * cds_list_del_rcu() unlinks an entry: readers that start afterwards do
 * not find it.  A reader that was already standing on it keeps going,
 * because the unlinked entry's own next pointer is left alone and still
 * leads back into the list.  So the entry must stay intact until those
 * readers are gone, which synchronize_rcu() waits for.  Only then is it
 * freed.  The same holds for reusing its list node: a removed entry must
 * not be put on another list (not even a private "to free" list) before
 * the grace period, since that would send the readers on it somewhere
 * else.  This program collects removed entries in a plain array instead.
 *
 * Each round, the writer removes a batch of entries under the mutex and
 * inserts fresh entries with the same keys, releases the mutex, waits for
 * one grace period for the whole batch, and frees the batch.  One grace
 * period per batch rather than per entry keeps the writer's cost down.
 *
 * Checking: every entry has a magic word, overwritten just before it is
 * freed, and a value derived from its key and version; readers check
 * both on every entry they visit.  A few "pinned" entries are never
 * removed, and every traversal must visit each of them exactly once, as
 * an RCU list traversal guarantees for entries present throughout it.
 * Any failure makes the program exit 1.
 *
 * Memb flavor: include <urcu.h> and <urcu/rculist.h>, link with -lurcu.
 * Run it with `scons examples` (docs/examples.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <urcu.h>
#include <urcu/rculist.h>

#define READERS		2
#define KEYS		64	/* entries in the list at all times */
#define PINNED		8	/* keys 0 .. PINNED-1 are never removed */
#define ROUNDS		300
#define BATCH		4	/* entries removed per round */

enum { ENTRY_LIVE = 0x1157a11e, ENTRY_FREED = 0xdeadbeef };

struct entry {
	/* ENTRY_LIVE from creation until just before free(). */
	atomic_uint magic;
	unsigned int key;
	unsigned int version;
	unsigned long value;
	struct cds_list_head node;
};

static CDS_LIST_HEAD(entries);
/* Held by whoever changes the list; readers never take it. */
static pthread_mutex_t entries_lock = PTHREAD_MUTEX_INITIALIZER;

static atomic_bool stop_readers;
static atomic_int readers_ready;

struct reader {
	pthread_t thread;
	unsigned long traversals;
	unsigned long visited;
	unsigned long bad_entries;
	unsigned long bad_traversals;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "list_delete: %s: %s\n", what, strerror(err));
	exit(2);
}

static unsigned long entry_value(unsigned int key, unsigned int version)
{
	return (unsigned long) key * 1000003u + version;
}

static struct entry *entry_new(unsigned int key, unsigned int version)
{
	struct entry *e = malloc(sizeof(*e));

	if (!e)
		die("malloc", ENOMEM);
	e->key = key;
	e->version = version;
	e->value = entry_value(key, version);
	atomic_init(&e->magic, ENTRY_LIVE);
	return e;
}

static void entry_free(struct entry *e)
{
	atomic_store_explicit(&e->magic, ENTRY_FREED, memory_order_relaxed);
	free(e);
}

static void *reader_thread(void *arg)
{
	struct reader *self = arg;

	rcu_register_thread();
	atomic_fetch_add(&readers_ready, 1);
	while (!atomic_load(&stop_readers)) {
		unsigned int pinned_seen[PINNED] = { 0 };
		struct entry *e;

		rcu_read_lock();
		cds_list_for_each_entry_rcu(e, &entries, node) {
			if (atomic_load_explicit(&e->magic,
						 memory_order_relaxed) !=
			    ENTRY_LIVE ||
			    e->value != entry_value(e->key, e->version)) {
				self->bad_entries++;
				continue;
			}
			if (e->key < PINNED)
				pinned_seen[e->key]++;
			self->visited++;
		}
		rcu_read_unlock();

		for (int k = 0; k < PINNED; k++) {
			if (pinned_seen[k] != 1) {
				self->bad_traversals++;
				break;
			}
		}
		self->traversals++;
	}
	rcu_unregister_thread();
	return NULL;
}

/* The entry with @key; caller holds entries_lock. */
static struct entry *find_locked(unsigned int key)
{
	struct entry *e;

	/* Updaters may use the plain iterators: only they change the list. */
	cds_list_for_each_entry(e, &entries, node)
		if (e->key == key)
			return e;
	return NULL;
}

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

int main(void)
{
	struct reader readers[READERS] = { 0 };
	unsigned int versions[KEYS] = { 0 };
	unsigned long traversals = 0, visited = 0, bad_entries = 0;
	unsigned long bad_traversals = 0, removed = 0;
	uint32_t seed = 2463534242u;
	struct entry *e, *tmp;
	int err;

	/* Not shared yet: plain list calls are fine. */
	for (unsigned int key = 0; key < KEYS; key++)
		cds_list_add_tail(&entry_new(key, 0)->node, &entries);

	for (int i = 0; i < READERS; i++) {
		err = pthread_create(&readers[i].thread, NULL, reader_thread,
				     &readers[i]);
		if (err)
			die("pthread_create", err);
	}
	while (atomic_load(&readers_ready) < READERS)
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);

	for (int round = 0; round < ROUNDS; round++) {
		/* Removed but maybe still read: not linked anywhere else. */
		struct entry *victims[BATCH];
		int n = 0;

		pthread_mutex_lock(&entries_lock);
		while (n < BATCH) {
			unsigned int key = PINNED +
				next_random(&seed) % (KEYS - PINNED);
			struct entry *victim = find_locked(key);
			bool again = false;

			for (int i = 0; i < n; i++)
				again |= victims[i]->key == key;
			if (again)
				continue;
			cds_list_del_rcu(&victim->node);
			victims[n++] = victim;
			/* The replacement is complete before it is linked. */
			cds_list_add_tail_rcu(
				&entry_new(key, ++versions[key])->node,
				&entries);
		}
		pthread_mutex_unlock(&entries_lock);

		synchronize_rcu();	/* one grace period for the batch */
		for (int i = 0; i < n; i++)
			entry_free(victims[i]);
		removed += n;
	}

	atomic_store(&stop_readers, true);
	for (int i = 0; i < READERS; i++) {
		pthread_join(readers[i].thread, NULL);
		traversals += readers[i].traversals;
		visited += readers[i].visited;
		bad_entries += readers[i].bad_entries;
		bad_traversals += readers[i].bad_traversals;
	}
	/* No reader is left: the plain calls may empty the list. */
	cds_list_for_each_entry_safe(e, tmp, &entries, node) {
		cds_list_del(&e->node);
		entry_free(e);
	}

	printf("list_delete: %d readers made %lu traversals of a %d-entry "
	       "list (%lu entries visited)\n", READERS, traversals, KEYS,
	       visited);
	printf("list_delete: the writer removed %lu entries with "
	       "cds_list_del_rcu, %d per grace period, and freed each after "
	       "synchronize_rcu\n", removed, BATCH);
	if (bad_entries || bad_traversals) {
		printf("list_delete: FAILED: %lu visits reached a freed entry, "
		       "%lu traversals missed or repeated a pinned entry\n",
		       bad_entries, bad_traversals);
		return 1;
	}
	printf("list_delete: OK: no freed entry was visited, and every "
	       "traversal saw the %d pinned entries exactly once\n", PINNED);
	return 0;
}
