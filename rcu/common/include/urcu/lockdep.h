/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/lockdep.h: annotations for the lock validator.
 *
 * The validator (liburcu-lockdep.so, loaded with LD_PRELOAD; see
 * docs/lockdep.md) sees the pthread mutexes, rwlocks and spinlocks of a
 * program by itself.  A lock it cannot see, such as a futex-based lock or
 * a spinlock written with atomics, is declared with these calls at the
 * points where it is taken, released or waited for.
 *
 * Without the validator the calls go to empty functions in liburcu-common
 * (link with -lurcu-common); the validator replaces them when it is
 * loaded.  urcu_lockdep_active() tells which is the case, so that an
 * annotation that needs more than a call can be skipped.
 *
 * A class is what the validator orders: "held A while taking B" is
 * recorded between classes, so that an inversion seen on two instances
 * of the same kinds of lock is still an inversion.  Classes are told
 * apart by name: two class objects with the same name are one class.
 * Define one object per kind of lock, statically, and pass the lock
 * itself (any address that identifies the instance) as @lock.
 */
#ifndef _URCU_LOCKDEP_H
#define _URCU_LOCKDEP_H

#ifdef __cplusplus
extern "C" {
#endif

struct urcu_lockdep_class {
	/* Printed in reports; classes with equal names are one class. */
	const char *name;
	/* The validator's number for the class: zero-initialise, never set. */
	unsigned long id;
};

/* Initialiser: static struct urcu_lockdep_class c = URCU_LOCKDEP_CLASS_INIT("c"); */
#define URCU_LOCKDEP_CLASS_INIT(class_name)	{ (class_name), 0 }

/*
 * Flags of urcu_lockdep_acquire().  Without any, the acquisition is an
 * exclusive lock that may wait, and that its owner must not take again.
 */
/* A try-lock that succeeded: it did not wait, so it orders nothing. */
#define URCU_LOCKDEP_TRY		(1U << 0)
/*
 * Held shared; the acquisition waits for an exclusive holder, and also
 * queues behind a waiting exclusive acquirer (a fair rwlock's reader).
 */
#define URCU_LOCKDEP_READ		(1U << 1)
/*
 * Held shared; the acquisition waits only while an exclusive holder
 * holds it, so readers may nest (glibc's default rwlock reader).
 */
#define URCU_LOCKDEP_READ_RECURSIVE	(1U << 2)
/* An exclusive lock that its owner may take again (a recursive mutex). */
#define URCU_LOCKDEP_RECURSIVE		(1U << 3)

/* 1 when the validator is loaded, else 0. */
extern int urcu_lockdep_active(void);

/*
 * The calling thread takes @lock, of class @cls, with URCU_LOCKDEP_*
 * @flags.  Call it before the lock's own code may wait, so that a
 * deadlock is reported before it happens; undo a failed attempt with
 * urcu_lockdep_release().  @lock NULL: the class itself is the lock.
 */
extern void urcu_lockdep_acquire(struct urcu_lockdep_class *cls,
				 const void *lock, unsigned int flags);

/* The calling thread releases @lock (NULL: the class) of class @cls. */
extern void urcu_lockdep_release(struct urcu_lockdep_class *cls,
				 const void *lock);

/*
 * The calling thread waits until every holder of class @cls has released
 * it, without taking it: as synchronize_rcu() waits for the readers of
 * its flavor.  @what names the waiting call in reports, e.g.
 * "synchronize_rcu()".
 */
extern void urcu_lockdep_wait(struct urcu_lockdep_class *cls,
			      const char *what);

#ifdef __cplusplus
}
#endif

#endif /* _URCU_LOCKDEP_H */
