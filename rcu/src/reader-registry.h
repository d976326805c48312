/*
 * reader-registry.h: the list of registered reader threads of one flavor.
 *
 * Registration links the thread's TLS reader record into the list under
 * the registry lock; grace periods scan the list under the same lock.  A
 * pthread key whose destructor unregisters the thread makes a thread that
 * exits while still registered drop out of the registry instead of leaving
 * a dangling TLS pointer behind for the next grace period.
 */
#ifndef URCU_SRC_READER_REGISTRY_H
#define URCU_SRC_READER_REGISTRY_H

#include <pthread.h>

#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "die.h"

struct urcu__registry {
	pthread_mutex_t lock;
	struct cds_list_head readers;
	pthread_key_t exit_key;
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
	urcu__mutex_lock(&reg->lock);
	cds_list_add(&r->node, &reg->readers);
	r->registered = 1;
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
	/* Relaxed: unlinked now; the next registration starts unparked. */
	__atomic_store_n(&r->parked, 0, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&reg->lock);
	/* Cannot fail for a key we created; nothing to undo if it did. */
	(void) pthread_setspecific(reg->exit_key, NULL);
}

#endif /* URCU_SRC_READER_REGISTRY_H */
