/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unbalanced_unlock: a program that inlines the read side of one flavor as
 * a release program does (_LGPL_SOURCE, no URCU_DEBUG, so that nothing
 * checks its unlocks), calls rcu_read_unlock() once more than
 * rcu_read_lock(), and then does what argv[2] says.  check_flavors
 * (tcase "misuse_unbalanced") reads what the library prints.
 *
 * usage: unbalanced_unlock FLAVOR CALL
 *
 *   FLAVOR  memb, mb, signal or bp (QSBR's release read side does
 *           nothing, so it cannot be unbalanced)
 *   CALL    synchronize, barrier, defer, unregister: that call, from the
 *           same thread; the library must abort with a message naming
 *           the unbalanced unlock.
 *           exit: the thread exits (bp: the library unregisters it); the
 *           same message.
 *           stall: the main thread calls synchronize_rcu(), which waits
 *           for the unbalanced thread; once a stall warning is out
 *           (URCU_STALL_TIMEOUT, set by the caller), that thread calls
 *           rcu_read_lock() once more, which balances it again, the grace
 *           period ends and the program exits 0.
 *
 * Exit status 2 on usage errors, 1 when something unexpected happened
 * (explained on stdout).
 */
#define _LGPL_SOURCE
#undef URCU_DEBUG
#undef DEBUG_RCU
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <urcu/urcu-memb.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-signal.h>
#include <urcu/urcu-bp.h>
#include <urcu/stats.h>

struct flavor {
	const char *name;
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*register_thread)(void);
	void (*unregister_thread)(void);
	void (*synchronize_rcu)(void);
	void (*rcu_barrier)(void);
	int (*defer_register_thread)(void);
	void (*defer_rcu)(void (*fct)(void *p), void *p);
	int (*stats)(struct urcu_stats *out, size_t size);
};

/* The read_lock/unlock entries are the inline versions of this file. */
#define FLAVOR(fl) {							\
	#fl, urcu_##fl##_read_lock, urcu_##fl##_read_unlock,		\
	urcu_##fl##_register_thread, urcu_##fl##_unregister_thread,	\
	urcu_##fl##_synchronize_rcu, urcu_##fl##_barrier,		\
	urcu_##fl##_defer_register_thread, urcu_##fl##_defer_rcu,	\
	urcu_##fl##_stats }

static const struct flavor flavors[] = {
	FLAVOR(memb), FLAVOR(mb), FLAVOR(signal), FLAVOR(bp),
};

static const struct flavor *f;
/* Stall mode: set once the other thread is unbalanced. */
static atomic_int unbalanced;

/* Upper bound on waiting for the stall warning. */
#define STALL_WAIT_S	60

static void nothing(void *p)
{
	(void) p;
}

/* The calling thread registers and unlocks once too often. */
static void unbalance(void)
{
	f->register_thread();
	f->read_lock();
	f->read_unlock();
	f->read_unlock();		/* the misuse */
	f->read_lock();			/* balanced sections still run */
	f->read_unlock();
}

static void *exit_thread(void *arg)
{
	(void) arg;
	unbalance();
	return NULL;
}

static unsigned long long stall_warnings(void)
{
	struct urcu_stats s;

	if (f->stats(&s, sizeof(s)) != 0)
		return 0;
	return (unsigned long long) s.stall_warnings;
}

/* Stall mode: unbalanced until the warning is out, then balanced again. */
static void *stall_thread(void *arg)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int ticks;

	(void) arg;
	unbalance();
	atomic_store(&unbalanced, 1);
	for (ticks = 0; ticks < STALL_WAIT_S * 100 && !stall_warnings();
	     ticks++)
		nanosleep(&tick, NULL);
	if (!stall_warnings())
		printf("no stall warning after %d s\n", STALL_WAIT_S);
	f->read_lock();			/* one more lock balances the word */
	f->unregister_thread();
	return NULL;
}

/* Start @fn in a thread; false if it could not be created. */
static int run_thread(void *(*fn)(void *), pthread_t *tid)
{
	if (pthread_create(tid, NULL, fn, NULL) != 0) {
		printf("pthread_create failed\n");
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *call = argc == 3 ? argv[2] : "";
	pthread_t tid;
	size_t i;

	for (i = 0; argc == 3 && i < sizeof(flavors) / sizeof(flavors[0]); i++)
		if (!strcmp(argv[1], flavors[i].name))
			f = &flavors[i];
	if (!f) {
		fprintf(stderr, "usage: %s memb|mb|signal|bp "
			"synchronize|barrier|defer|unregister|exit|stall\n",
			argv[0]);
		return 2;
	}
	if (!strcmp(call, "stall")) {
		if (!run_thread(stall_thread, &tid))
			return 1;
		while (!atomic_load(&unbalanced))
			sched_yield();
		/* Waits for that thread until it balances itself again. */
		f->synchronize_rcu();
		pthread_join(tid, NULL);
		printf("stall_warnings=%llu\n", stall_warnings());
		return 0;
	}
	if (!strcmp(call, "exit")) {
		if (!run_thread(exit_thread, &tid))
			return 1;
		pthread_join(tid, NULL);
		printf("the thread exited without a misuse report\n");
		return 1;
	}
	unbalance();
	if (!strcmp(call, "synchronize")) {
		f->synchronize_rcu();
	} else if (!strcmp(call, "barrier")) {
		f->rcu_barrier();
	} else if (!strcmp(call, "defer")) {
		if (f->defer_register_thread() != 0) {
			printf("defer_register_thread failed\n");
			return 1;
		}
		f->defer_rcu(nothing, NULL);
	} else if (!strcmp(call, "unregister")) {
		f->unregister_thread();
	} else {
		fprintf(stderr, "%s: unknown call %s\n", argv[0], call);
		return 2;
	}
	printf("%s returned without a misuse report\n", call);
	return 1;
}
