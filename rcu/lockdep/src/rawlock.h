/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rawlock.h: the validator's own locks.
 *
 * A futex mutex (0 free, 1 held, 2 held with waiters), so that the
 * validator never calls the pthread functions it interposes.  Held only
 * for short sections that call nothing that could take one again on the
 * same thread (the thread's guard makes interposed calls pass through).
 */
#ifndef URCU_LOCKDEP_SRC_RAWLOCK_H
#define URCU_LOCKDEP_SRC_RAWLOCK_H

#include <stdint.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

struct ld_rawlock {
	int32_t word;
};

static inline void ld_raw_lock(struct ld_rawlock *l)
{
	int32_t c = 0;

	/*
	 * Acquire on success: the section's accesses come after the
	 * previous holder's release in ld_raw_unlock().
	 */
	if (__atomic_compare_exchange_n(&l->word, &c, 1, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	/* Contended: mark waiters and sleep until the word is free. */
	if (c != 2)
		c = __atomic_exchange_n(&l->word, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		syscall(SYS_futex, &l->word, FUTEX_WAIT_PRIVATE, 2, NULL,
			NULL, 0);
		c = __atomic_exchange_n(&l->word, 2, __ATOMIC_ACQUIRE);
	}
}

static inline void ld_raw_unlock(struct ld_rawlock *l)
{
	/* Release: pairs with the acquire of the next ld_raw_lock(). */
	if (__atomic_exchange_n(&l->word, 0, __ATOMIC_RELEASE) == 2)
		syscall(SYS_futex, &l->word, FUTEX_WAKE_PRIVATE, 1, NULL,
			NULL, 0);
}

/* In a fork child, where the holder may not exist: start free. */
static inline void ld_raw_reset(struct ld_rawlock *l)
{
	/* Relaxed: the child is single-threaded here. */
	__atomic_store_n(&l->word, 0, __ATOMIC_RELAXED);
}

#endif /* URCU_LOCKDEP_SRC_RAWLOCK_H */
