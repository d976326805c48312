/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * membarrier.h: process-wide memory barrier through membarrier(2).
 *
 * MEMBARRIER_CMD_PRIVATE_EXPEDITED makes every running thread of the
 * process execute a full memory barrier before the call returns (threads
 * not running get one from the context switch).  Paired with compiler-only
 * barriers on the read side, this gives the store-load ordering RCU needs
 * while readers pay nothing.  The command needs a prior
 * MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (Linux 4.14+).
 *
 * The environment variable URCU_NO_MEMBARRIER=1 forces the fence fallback;
 * it is read once, at library initialisation.
 */
#ifndef URCU_SRC_MEMBARRIER_H
#define URCU_SRC_MEMBARRIER_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>

#include <urcu/arch.h>

#include "urcu-die.h"

static inline int urcu__membarrier(int cmd)
{
	return (int) syscall(__NR_membarrier, cmd, 0, 0);
}

/* Returns 1 when private expedited membarrier is usable, 0 otherwise. */
static inline int urcu__membarrier_setup(void)
{
	const char *off = getenv("URCU_NO_MEMBARRIER");
	int mask;

	if (off && *off && strcmp(off, "0") != 0)
		return 0;
	mask = urcu__membarrier(MEMBARRIER_CMD_QUERY);
	if (mask < 0 || !(mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return 0;
	if (urcu__membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		return 0;
	return 1;
}

/*
 * Full barrier on every running thread of the process, the caller
 * included (the kernel brackets the command with smp_mb()).  model:
 * tags.pml UP_MEMBARRIER (updater.pml membarrier_all).
 */
static inline void urcu__membarrier_all(void)
{
	if (urcu__membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		urcu__die("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)", errno);
}

/*
 * Whether the memb or bp flavor whose flag is @has_membarrier uses
 * membarrier(2) (its readers then use compiler barriers).  The flag is
 * written once, before any reader registers, and published by
 * pthread_once: relaxed load.
 */
static inline bool urcu__membarrier_in_use(const int *has_membarrier)
{
	return __atomic_load_n(has_membarrier, __ATOMIC_RELAXED);
}

/*
 * Master barrier of the memb and bp flavors: membarrier when readers rely
 * on it, else a fence paired with the readers' fences.  model: tags.pml
 * MB_UP_FALLBACK (urcu.pml MASTER_FENCE, memb/bp with NO_MEMBARRIER).
 */
static inline void urcu__membarrier_master_mb(const int *has_membarrier)
{
	if (urcu__membarrier_in_use(has_membarrier))
		urcu__membarrier_all();
	else
		cmm_smp_mb();
}

#endif /* URCU_SRC_MEMBARRIER_H */
