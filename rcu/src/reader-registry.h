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
#include <stdbool.h>

#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/static/urcu-common.h>

#include "die.h"

struct urcu__registry {
	pthread_mutex_t lock;
	struct cds_list_head readers;
	pthread_key_t exit_key;
	/* Signal flavor: leaving readers release grace periods themselves. */
	bool self_ack;
};

#define URCU__REGISTRY_INIT(name, ack)					\
	{ .lock = PTHREAD_MUTEX_INITIALIZER,				\
	  .readers = CDS_LIST_HEAD_INIT((name).readers),		\
	  .self_ack = (ack) }

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

/*
 * A signal-flavor grace period holds the registry lock while it waits for
 * every registered reader to run the SIGRCU handler.  A thread blocked in
 * pthread_mutex_lock() normally still runs handlers, but some runtimes
 * (ThreadSanitizer) defer signals while a thread is blocked in an
 * intercepted call, which would deadlock here.  So a leaving reader first
 * announces it: it runs the fence the handler would run and sets
 * r->leaving, and grace periods stop waiting for it (signal-barrier.h).
 * That is safe because it is outside any read-side section and enters none
 * before it is unlinked; a later registration goes through the lock.
 */
static inline void urcu__registry_remove(struct urcu__registry *reg,
		struct urcu_reader *r)
{
	if (reg->self_ack) {
		/* Orders our past sections before the announcement. */
		cmm_smp_mb();
		/* Release: pairs with the acquire in urcu__signal_mb_readers. */
		__atomic_store_n(&r->leaving, 1, __ATOMIC_RELEASE);
	}
	urcu__mutex_lock(&reg->lock);
	cds_list_del(&r->node);
	r->registered = 0;
	/* Relaxed: unlinked now; the next registration starts from 0. */
	__atomic_store_n(&r->leaving, 0, __ATOMIC_RELAXED);
	urcu__mutex_unlock(&reg->lock);
	/* Cannot fail for a key we created; nothing to undo if it did. */
	(void) pthread_setspecific(reg->exit_key, NULL);
}

#endif /* URCU_SRC_READER_REGISTRY_H */
