/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pthread.c: the interposed pthread lock calls.
 *
 * Each one finds the lock's class (locks.c), checks the acquisition
 * before calling the real function (acquire.c), so that a deadlock is
 * reported before it happens, and records the lock as held once the real
 * call succeeded.  Releases are recorded before the real call: after it,
 * another thread may destroy the lock.  Try-locks order nothing.  The
 * timed acquisitions count as waits: a timeout hides a deadlock, it does
 * not prevent it.
 *
 * glibc only: whether a mutex is recursive and whether an rwlock's
 * readers nest are read from the lock (the fields its initialisers set).
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "lockdep.h"

#ifndef __GLIBC__
#error "liburcu-lockdep reads glibc's lock layout (pthread.c, locks.c)"
#endif

static unsigned mutex_flags(pthread_mutex_t *m)
{
	/* Relaxed: fixed by the lock's initialisation. */
	int kind = __atomic_load_n(&m->__data.__kind, __ATOMIC_RELAXED);

	return (kind & 3) == PTHREAD_MUTEX_RECURSIVE_NP ? LD_RECURSIVE : 0;
}

/*
 * glibc's readers wait behind a queued writer only for the
 * writer-preferring non-recursive kind; the others let readers nest.
 */
static unsigned read_flags(pthread_rwlock_t *rw)
{
	/* Relaxed: fixed by the lock's initialisation. */
	unsigned kind = __atomic_load_n(&rw->__data.__flags, __ATOMIC_RELAXED);

	return kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP ?
	       LD_READ : LD_READ_RECURSIVE;
}

/*
 * Body of an interposed acquisition of @lock (a @kind lock) with @flags
 * by the calls @real_call; @op names it in reports.
 */
#define LD_ACQUIRE(kind, lock, flags, op, real_call)			\
	do {								\
		uintptr_t ip_ = (uintptr_t) __builtin_return_address(0); \
		struct ld_thread *t_;					\
		uint32_t cls_;						\
		int ret_;						\
									\
		if (ld_bypass())					\
			return real_call;				\
		t_ = ld_thread_enter();					\
		cls_ = ld_lock_class(kind, lock, ip_);			\
		ld_acquire(t_, lock, cls_, flags, op, ip_);		\
		ld_thread_leave(t_);					\
		ret_ = real_call;					\
		if (ret_ == 0 || ret_ == EOWNERDEAD) {			\
			t_ = ld_thread_enter();				\
			ld_acquired(t_, lock, cls_, flags, op, ip_);	\
			ld_thread_leave(t_);				\
		}							\
		return ret_;						\
	} while (0)

#define LD_RELEASE(kind, lock, op, real_call)				\
	do {								\
		uintptr_t ip_ = (uintptr_t) __builtin_return_address(0); \
		struct ld_thread *t_;					\
									\
		if (ld_bypass())					\
			return real_call;				\
		t_ = ld_thread_enter();					\
		ld_release(t_, lock, ld_lock_class(kind, lock, ip_), op, \
			   ip_);					\
		ld_thread_leave(t_);					\
		return real_call;					\
	} while (0)

#define LD_INIT(kind, lock, real_call)					\
	do {								\
		uintptr_t ip_ = (uintptr_t) __builtin_return_address(0); \
		struct ld_thread *t_;					\
		int ret_ = real_call;					\
									\
		if (ret_ == 0 && !ld_bypass()) {			\
			t_ = ld_thread_enter();				\
			ld_lock_init(kind, lock, ip_);			\
			ld_thread_leave(t_);				\
		}							\
		return ret_;						\
	} while (0)

#define LD_DESTROY(kind, lock, real_call)				\
	do {								\
		struct ld_thread *t_;					\
									\
		if (!ld_bypass()) {					\
			t_ = ld_thread_enter();				\
			ld_lock_destroy(kind, lock);			\
			ld_thread_leave(t_);				\
		}							\
		return real_call;					\
	} while (0)

/* ---- Mutexes ---- */

LD_API int pthread_mutex_init(pthread_mutex_t *m,
			      const pthread_mutexattr_t *attr)
{
	static int (*real)(pthread_mutex_t *, const pthread_mutexattr_t *);

	LD_NEXT(real, "pthread_mutex_init");
	LD_INIT(LD_MUTEX, m, real(m, attr));
}

LD_API int pthread_mutex_destroy(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	LD_NEXT(real, "pthread_mutex_destroy");
	LD_DESTROY(LD_MUTEX, m, real(m));
}

LD_API int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	LD_NEXT(real, "pthread_mutex_lock");
	LD_ACQUIRE(LD_MUTEX, m, mutex_flags(m), "pthread_mutex_lock()",
		   real(m));
}

LD_API int pthread_mutex_trylock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	LD_NEXT(real, "pthread_mutex_trylock");
	LD_ACQUIRE(LD_MUTEX, m, mutex_flags(m) | LD_TRY,
		   "pthread_mutex_trylock()", real(m));
}

LD_API int pthread_mutex_timedlock(pthread_mutex_t *m,
				   const struct timespec *abstime)
{
	static int (*real)(pthread_mutex_t *, const struct timespec *);

	LD_NEXT(real, "pthread_mutex_timedlock");
	LD_ACQUIRE(LD_MUTEX, m, mutex_flags(m), "pthread_mutex_timedlock()",
		   real(m, abstime));
}

LD_API int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clock,
				   const struct timespec *abstime)
{
	static int (*real)(pthread_mutex_t *, clockid_t,
			   const struct timespec *);

	LD_NEXT(real, "pthread_mutex_clocklock");
	LD_ACQUIRE(LD_MUTEX, m, mutex_flags(m), "pthread_mutex_clocklock()",
		   real(m, clock, abstime));
}

LD_API int pthread_mutex_unlock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);

	LD_NEXT(real, "pthread_mutex_unlock");
	LD_RELEASE(LD_MUTEX, m, "pthread_mutex_unlock()", real(m));
}

/* ---- Read-write locks ---- */

LD_API int pthread_rwlock_init(pthread_rwlock_t *rw,
			       const pthread_rwlockattr_t *attr)
{
	static int (*real)(pthread_rwlock_t *, const pthread_rwlockattr_t *);

	LD_NEXT(real, "pthread_rwlock_init");
	LD_INIT(LD_RWLOCK, rw, real(rw, attr));
}

LD_API int pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_destroy");
	LD_DESTROY(LD_RWLOCK, rw, real(rw));
}

LD_API int pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_rdlock");
	LD_ACQUIRE(LD_RWLOCK, rw, read_flags(rw), "pthread_rwlock_rdlock()",
		   real(rw));
}

LD_API int pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_tryrdlock");
	LD_ACQUIRE(LD_RWLOCK, rw, read_flags(rw) | LD_TRY,
		   "pthread_rwlock_tryrdlock()", real(rw));
}

LD_API int pthread_rwlock_timedrdlock(pthread_rwlock_t *rw,
				      const struct timespec *abstime)
{
	static int (*real)(pthread_rwlock_t *, const struct timespec *);

	LD_NEXT(real, "pthread_rwlock_timedrdlock");
	LD_ACQUIRE(LD_RWLOCK, rw, read_flags(rw),
		   "pthread_rwlock_timedrdlock()", real(rw, abstime));
}

LD_API int pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clock,
				      const struct timespec *abstime)
{
	static int (*real)(pthread_rwlock_t *, clockid_t,
			   const struct timespec *);

	LD_NEXT(real, "pthread_rwlock_clockrdlock");
	LD_ACQUIRE(LD_RWLOCK, rw, read_flags(rw),
		   "pthread_rwlock_clockrdlock()", real(rw, clock, abstime));
}

LD_API int pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_wrlock");
	LD_ACQUIRE(LD_RWLOCK, rw, 0, "pthread_rwlock_wrlock()", real(rw));
}

LD_API int pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_trywrlock");
	LD_ACQUIRE(LD_RWLOCK, rw, LD_TRY, "pthread_rwlock_trywrlock()",
		   real(rw));
}

LD_API int pthread_rwlock_timedwrlock(pthread_rwlock_t *rw,
				      const struct timespec *abstime)
{
	static int (*real)(pthread_rwlock_t *, const struct timespec *);

	LD_NEXT(real, "pthread_rwlock_timedwrlock");
	LD_ACQUIRE(LD_RWLOCK, rw, 0, "pthread_rwlock_timedwrlock()",
		   real(rw, abstime));
}

LD_API int pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clock,
				      const struct timespec *abstime)
{
	static int (*real)(pthread_rwlock_t *, clockid_t,
			   const struct timespec *);

	LD_NEXT(real, "pthread_rwlock_clockwrlock");
	LD_ACQUIRE(LD_RWLOCK, rw, 0, "pthread_rwlock_clockwrlock()",
		   real(rw, clock, abstime));
}

LD_API int pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
	static int (*real)(pthread_rwlock_t *);

	LD_NEXT(real, "pthread_rwlock_unlock");
	LD_RELEASE(LD_RWLOCK, rw, "pthread_rwlock_unlock()", real(rw));
}

/* ---- Spinlocks ---- */

LD_API int pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
	static int (*real)(pthread_spinlock_t *, int);

	LD_NEXT(real, "pthread_spin_init");
	LD_INIT(LD_SPIN, (void *) s, real(s, pshared));
}

LD_API int pthread_spin_destroy(pthread_spinlock_t *s)
{
	static int (*real)(pthread_spinlock_t *);

	LD_NEXT(real, "pthread_spin_destroy");
	LD_DESTROY(LD_SPIN, (void *) s, real(s));
}

LD_API int pthread_spin_lock(pthread_spinlock_t *s)
{
	static int (*real)(pthread_spinlock_t *);

	LD_NEXT(real, "pthread_spin_lock");
	LD_ACQUIRE(LD_SPIN, (void *) s, 0, "pthread_spin_lock()", real(s));
}

LD_API int pthread_spin_trylock(pthread_spinlock_t *s)
{
	static int (*real)(pthread_spinlock_t *);

	LD_NEXT(real, "pthread_spin_trylock");
	LD_ACQUIRE(LD_SPIN, (void *) s, LD_TRY, "pthread_spin_trylock()",
		   real(s));
}

LD_API int pthread_spin_unlock(pthread_spinlock_t *s)
{
	static int (*real)(pthread_spinlock_t *);

	LD_NEXT(real, "pthread_spin_unlock");
	LD_RELEASE(LD_SPIN, (void *) s, "pthread_spin_unlock()", real(s));
}
