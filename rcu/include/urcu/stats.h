/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/stats.h: run-time statistics of the RCU flavors.
 *
 * Each flavor library keeps counters of its update side: grace periods,
 * synchronize_rcu() calls and how many of them shared a grace period,
 * grace-period latency, registered readers, call_rcu() workers and
 * rcu_barrier() calls.  Nothing is counted on the read side.  The
 * functions exist once per flavor (urcu_memb_stats(), urcu_qsbr_stats(),
 * ...); after <urcu.h>, <urcu-qsbr.h> or <urcu-bp.h> the generic names
 * rcu_stats(), rcu_stats_workers() and rcu_stats_print() map onto the
 * selected flavor.  With URCU_STATS=1 in the environment every flavor
 * library in the process prints its statistics to stderr at exit.
 * docs/stats-and-stalls.md documents every field.
 *
 * Versioning: the structures only ever grow at the end.  The caller passes
 * the size it was compiled with; the library fills that many bytes at most
 * (zeroing what it does not know) and stores in .size how many bytes it
 * filled, so a field is valid when URCU_STATS_HAS(ptr, field) is true.
 * Counters are read one by one without stopping the library: a snapshot is
 * consistent field by field, not as a whole.
 */
#ifndef _URCU_STATS_H
#define _URCU_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How the update side of a flavor orders readers (urcu_stats.membarrier). */
enum urcu_stats_membarrier {
	/* The flavor never uses membarrier(2) (mb, signal, qsbr). */
	URCU_STATS_MEMBARRIER_UNUSED = 0,
	/* memb, bp: MEMBARRIER_CMD_PRIVATE_EXPEDITED is in use. */
	URCU_STATS_MEMBARRIER_SYSCALL = 1,
	/* memb, bp: the fence fallback (no kernel support, or
	 * URCU_NO_MEMBARRIER=1 at start-up). */
	URCU_STATS_MEMBARRIER_FALLBACK = 2
};

struct urcu_stats {
	/* Out: bytes of this structure the library filled in. */
	size_t size;
	/* Flavor name: "memb", "mb", "signal", "qsbr" or "bp". */
	const char *flavor;

	/* Grace periods completed since the library was loaded. */
	uint64_t gp_completed;
	/*
	 * Age in ns of the grace period in progress, counted from when it
	 * started waiting for readers (1 before that, see below); 0 when
	 * none runs.
	 */
	uint64_t gp_current_ns;
	/*
	 * Longest completed grace period, and the sum of all, in ns, each
	 * counted from when it started waiting for readers: at once for
	 * memb, bp and signal when another reader is registered; for mb,
	 * qsbr (and memb and bp without membarrier(2)) once a reader has
	 * held it through a short spin (a few microseconds).  One that
	 * never waited is not timed and adds 0.
	 */
	uint64_t gp_max_ns;
	uint64_t gp_total_ns;
	/*
	 * synchronize_rcu() calls that returned (the library's own workers
	 * included), and how many of them were served by a grace period
	 * that another caller ran.
	 */
	uint64_t sync_calls;
	uint64_t sync_shared;
	/* Grace periods that printed a stall warning. */
	uint64_t stall_warnings;

	/* Threads registered as readers now, and registrations ever. */
	uint64_t readers;
	uint64_t registrations;

	/*
	 * call_rcu() callbacks over all workers, past and present: queued
	 * to a worker, invoked (returned), and queued but not yet invoked.
	 */
	uint64_t cb_queued;
	uint64_t cb_invoked;
	uint64_t cb_pending;
	/* call_rcu() workers existing now. */
	uint64_t workers;
	/* rcu_barrier() calls. */
	uint64_t barrier_calls;

	/* enum urcu_stats_membarrier. */
	int membarrier;

	/*
	 * Grace periods that interrupted running readers (membarrier(2)
	 * IPIs for memb and bp, SIGRCU for signal) because a reader did not
	 * enter a section under the new epoch by itself within a few
	 * microseconds.  Always 0 for mb and qsbr, and for memb and bp on
	 * the fence fallback, whose barrier interrupts nobody.
	 */
	uint64_t gp_reader_barriers;

	/*
	 * Times a grace period's updater, asleep waiting for a reader, was
	 * woken by that reader: at a quiescent state or going offline
	 * (qsbr), or leaving its outermost section (mb, and memb and bp on
	 * the fence fallback).  Always 0 for signal, and for memb and bp
	 * with membarrier(2), whose updaters poll.
	 */
	uint64_t gp_reader_wakeups;
};

/* urcu_stats_worker.flags */
#define URCU_STATS_WORKER_DEFAULT	(1U << 0)	/* the default worker */
#define URCU_STATS_WORKER_RT		(1U << 1)	/* URCU_CALL_RCU_RT */

/* One call_rcu() worker. */
struct urcu_stats_worker {
	/* Out: bytes of this structure the library filled in. */
	size_t size;
	/* The worker thread (get_call_rcu_thread()). */
	pthread_t thread;
	/* CPU it is pinned to, or -1. */
	int cpu;
	/* URCU_STATS_WORKER_* bits. */
	unsigned int flags;
	/*
	 * Callbacks queued to it (including those it adopted from a freed
	 * worker), invoked by it, and queued but not yet invoked.
	 */
	uint64_t queued;
	uint64_t invoked;
	uint64_t pending;
	/* Batches it ran, one grace period each. */
	uint64_t batches;
};

/* True when the library filled @field of *@st (either structure). */
#define URCU_STATS_HAS(st, field)					\
	((st)->size >= offsetof(__typeof__(*(st)), field)		\
		       + sizeof((st)->field))

/*
 * Declares the statistics API of one flavor:
 *
 * urcu_<fl>_stats(out, size): fill *out, whose size the caller gives as
 *   sizeof(*out).  Returns 0, or -1 with errno EINVAL when @out is NULL or
 *   @size is smaller than the size field.
 * urcu_<fl>_stats_workers(out, max, size): fill out[0..max) with the
 *   current call_rcu() workers, each element @size bytes (sizeof(*out)).
 *   Returns how many workers exist, which may be more than @max (call
 *   again with a larger array), or -1 with errno EINVAL.  @out may be
 *   NULL when @max is 0.
 * urcu_<fl>_stats_print(stream): write the statistics and the workers to
 *   @stream, in the format URCU_STATS=1 uses at exit.
 */
#define _URCU_DECLARE_STATS(fl)						\
extern int urcu_##fl##_stats(struct urcu_stats *out, size_t size);	\
extern long urcu_##fl##_stats_workers(struct urcu_stats_worker *out,	\
		size_t max, size_t size);				\
extern void urcu_##fl##_stats_print(FILE *stream);

_URCU_DECLARE_STATS(memb)
_URCU_DECLARE_STATS(mb)
_URCU_DECLARE_STATS(signal)
_URCU_DECLARE_STATS(qsbr)
_URCU_DECLARE_STATS(bp)

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATS_H */
