/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * reader-registry.h: the list of registered reader threads of one flavor.
 *
 * Registration links the thread's TLS reader record into the list under
 * the registry lock; grace periods scan the list under the same lock.  A
 * pthread key whose destructor unregisters the thread makes a thread that
 * exits while still registered drop out of the registry instead of leaving
 * a dangling TLS pointer behind for the next grace period.
 *
 * The registry also counts its readers for the statistics (stats.c):
 * updated under the registry lock, which registration takes anyway.
 */
#ifndef URCU_SRC_READER_REGISTRY_H
#define URCU_SRC_READER_REGISTRY_H

#include <pthread.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "urcu-die.h"

/*
 * Grace periods move reader records between lists: the link must not
 * share a cache line with the word the reader writes in every section
 * (struct urcu_reader).
 */
_Static_assert(offsetof(struct urcu_reader, node) / CAA_CACHE_LINE_SIZE
	       != offsetof(struct urcu_reader, ctr) / CAA_CACHE_LINE_SIZE,
	       "reader record: registry link on the line of the reader word");

struct urcu__registry {
	pthread_mutex_t lock;
	struct cds_list_head readers;
	pthread_key_t exit_key;
	/*
	 * Threads registered now, and registrations ever.  Written under
	 * @lock with relaxed stores, read with relaxed loads by the
	 * statistics without the lock.
	 */
	unsigned long nr_readers;
	unsigned long registrations;
};

#define URCU__REGISTRY_INIT(name)					\
	{ .lock = PTHREAD_MUTEX_INITIALIZER,				\
	  .readers = CDS_LIST_HEAD_INIT((name).readers) }

/* Called once, from the flavor's initialisation. */
static inline void urcu__registry_setup(struct urcu__registry *reg,
		void (*thread_exit)(void *reader))
{
	int err = pthread_key_create(&reg->exit_key, thread_exit);

	if (err)
		urcu__die("pthread_key_create", err);
}

static inline void urcu__registry_add(struct urcu__registry *reg,
		struct urcu_reader *r)
{
	int err;

	if (r->registered)
		urcu__misuse("rcu_register_thread() called by a thread that is "
			     "already registered");
	r->tid = pthread_self();
	r->os_tid = (int32_t) syscall(SYS_gettid);
	urcu__mutex_lock(&reg->lock);
	cds_list_add(&r->node, &reg->readers);
	r->registered = 1;
	r->synced_epoch = 0;	/* unknown (gp-observe.h) */
	/* Relaxed: statistics; the lock orders the writers. */
	__atomic_store_n(&reg->nr_readers, reg->nr_readers + 1,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&reg->registrations, reg->registrations + 1,
			 __ATOMIC_RELAXED);
	urcu__mutex_unlock(&reg->lock);
	err = pthread_setspecific(reg->exit_key, r);
	if (err)
		urcu__die("pthread_setspecific", err);
}

static inline void urcu__registry_remove(struct urcu__registry *reg,
		struct urcu_reader *r)
{
	urcu__mutex_lock(&reg->lock);
	cds_list_del(&r->node);
	r->registered = 0;
	/* Relaxed: a statistic, as in urcu__registry_add(). */
	__atomic_store_n(&reg->nr_readers, reg->nr_readers - 1,
			 __ATOMIC_RELAXED);
	/* Relaxed: unlinked now; the next registration starts unparked. */
	__atomic_store_n(&r->parked, 0, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&reg->lock);
	/* Cannot fail for a key we created; nothing to undo if it did. */
	(void) pthread_setspecific(reg->exit_key, NULL);
}

#endif /* URCU_SRC_READER_REGISTRY_H */
