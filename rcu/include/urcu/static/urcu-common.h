/*
 * urcu/static/urcu-common.h: reader state and read-side fast path shared by
 * the memb, mb and signal flavors.
 *
 * Only include this through <urcu/urcu-memb.h>, <urcu/urcu-mb.h> or
 * <urcu/urcu-signal.h> (with _LGPL_SOURCE for the inline read side).  The
 * structures here are part of the inline ABI: programs built with
 * _LGPL_SOURCE access them directly.
 *
 * Encoding of the reader word (struct urcu_reader.ctr) and of the global
 * grace-period word (struct urcu_gp.ctr):
 *
 *   bits [0, URCU_GP_NEST_BITS)      nesting depth of read-side sections
 *   bits [URCU_GP_NEST_BITS, width)  grace-period epoch
 *
 * urcu_gp.ctr always holds the current epoch with a nesting depth of one,
 * so the outermost rcu_read_lock() publishes "in a section, epoch E" with a
 * single store of the global word.  Nested locks only bump the low bits.  A
 * reader whose low bits are zero is outside any section.  The updater
 * advances the epoch once per grace period and then waits only for readers
 * that are inside a section entered under an older epoch.
 */
#ifndef _URCU_STATIC_URCU_COMMON_H
#define _URCU_STATIC_URCU_COMMON_H

#include <stdint.h>
#include <pthread.h>

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <urcu/list.h>
#include <urcu/futex.h>
#include <urcu/tls-compat.h>
#include <urcu/static/urcu-misuse.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Nesting bits.  On 64-bit targets the epoch keeps 48 bits, so the signed
 * comparison in urcu_gp_ctr_before() stays exact for 2^47 grace periods.
 * 32-bit targets keep 24 epoch bits: a reader stopped for more than 2^23
 * grace periods between loading the epoch and publishing it could then be
 * misjudged (docs/flavors.md, "Limits").
 */
#if CAA_BITS_PER_LONG == 64
#define URCU_GP_NEST_BITS	16
#else
#define URCU_GP_NEST_BITS	8
#endif
#define URCU_GP_COUNT		1UL
#define URCU_GP_CTR_NEST_MASK	((1UL << URCU_GP_NEST_BITS) - 1)
#define URCU_GP_EPOCH_STEP	(1UL << URCU_GP_NEST_BITS)

/* Global grace-period state of one flavor. */
struct urcu_gp {
	/* Current epoch, with a nesting count of one in the low bits. */
	unsigned long ctr;
	/*
	 * QSBR: -1 while an updater sleeps waiting for readers, else 0.
	 * The other flavors' updaters poll and leave it 0.
	 */
	int32_t futex;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

/* Per-thread reader state; lives in thread-local storage. */
struct urcu_reader {
	/* Epoch and nesting (see above); written only by the owner thread. */
	unsigned long ctr;
	/* Signal flavor: set by the updater, cleared by the signal handler. */
	int32_t need_mb;
	/*
	 * Signal flavor: set while the thread waits inside the library,
	 * outside any read-side section; grace periods then need no
	 * acknowledgement from it (rcu/src/flavor-internal.h).
	 */
	int32_t parked;
	/* Set by register_thread, cleared by unregister_thread. */
	int32_t registered;
	/* QSBR debug builds only: read-side nesting depth. */
	uint32_t nesting;
	pthread_t tid;
	/* Link in the flavor's registry, protected by its registry lock. */
	struct cds_list_head node;
	/*
	 * Kernel thread id (gettid()) as of registration, for stall
	 * warnings.  Last, inside the padding: the layout of the fields
	 * above, which inlined read sides use, does not change.
	 */
	int32_t os_tid;
	/*
	 * Updater-private (registry lock): an epoch this thread's loads of
	 * the grace-period word can no longer go below, because a grace
	 * period at that epoch ran the barrier on it; 0 when unknown
	 * (rcu/src/gp-observe.h).  Also in the padding.
	 */
	unsigned long synced_epoch;
} __attribute__((aligned(CAA_CACHE_LINE_SIZE)));

/*
 * True when reader word @v belongs to a section entered before the epoch
 * @gp_ctr started.  Wrap-safe: compares the difference as a signed value.
 */
static inline int urcu_gp_ctr_before(unsigned long v, unsigned long gp_ctr)
{
	return (long) (v - gp_ctr) < 0;
}

/*
 * Wake an updater sleeping in the grace-period wait loop.  Called by a
 * QSBR reader right after it announced a quiescent state or went offline
 * (the other flavors' updaters poll instead), behind a barrier that
 * orders that store before this load of @futex: paired with the updater's
 * store of -1 and its barrier before re-scanning the readers
 * (wait_for_readers in rcu/src/gp-wait-readers.h).  Either the updater
 * sees our new state, or we see -1 and wake it.
 */
static inline void _urcu_common_wake_up_gp(int32_t *futex)
{
	/* Relaxed: ordering comes from the caller's barrier, see above. */
	if (caa_unlikely(__atomic_load_n(futex, __ATOMIC_RELAXED) == -1)) {
		/* Relaxed: the futex syscall below orders the wakeup. */
		__atomic_store_n(futex, 0, __ATOMIC_RELAXED);
		(void) futex_async(futex, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
}

/*
 * The reader-side barrier: a full fence when @fence is set (the mb flavor,
 * and memb or bp running without membarrier(2)), otherwise a compiler
 * barrier, which the updater's membarrier() or signal turns into a fence
 * on this CPU when it matters.  Flavors read their setting once per lock
 * or unlock and pass it down, so the two barriers of an unlock test one
 * register instead of loading the flag twice.
 */
static inline void _urcu_common_slave_mb(int fence)
{
	if (caa_unlikely(fence))
		cmm_smp_mb();
	else
		cmm_barrier();
}

/*
 * Outermost-or-nested lock.  @fence selects the flavor's reader-side
 * barrier (_urcu_common_slave_mb).
 *
 * One comparison picks the common case: an outermost lock in the epoch of
 * the thread's previous section (idle word E|0, global word E|1).  The
 * other two, a nested lock and the first section of a new epoch, take the
 * branch.  The first section of an epoch runs a real fence even where the
 * flavor barrier is a compiler barrier: the updater then need not
 * interrupt a reader it finds idle since an older epoch, because the
 * reader's next section either loads the new epoch or runs this fence
 * (rcu/src/gp-observe.h).  That costs a busy reader one fence per grace
 * period.
 */
static inline void _urcu_common_read_lock(struct urcu_reader *r,
		const struct urcu_gp *gp, int fence)
{
	unsigned long tmp, now;

	_urcu_misuse_check(r->registered,
		"rcu_read_lock() called by a thread that is not registered; "
		"call rcu_register_thread() first");
	/* Keep earlier code from moving into the section (compiler only). */
	cmm_barrier();
	tmp = r->ctr;
	/*
	 * Acquire: pairs with the release store that advanced the epoch in
	 * synchronize_rcu, so that once we see a new epoch we also see every
	 * removal done before that grace period began.  Unused by a nested
	 * lock.
	 */
	now = __atomic_load_n(&gp->ctr, __ATOMIC_ACQUIRE);
	if (caa_likely(now == tmp + URCU_GP_COUNT)) {
		/*
		 * Release on our word, as on every store to it: an updater
		 * whose acquire load sees a new epoch here is done with us,
		 * our earlier sections included (rcu/src/gp-observe.h).  On
		 * x86 a release store is a plain store.
		 */
		__atomic_store_n(&r->ctr, now, __ATOMIC_RELEASE);
		/*
		 * Orders the store of our word before every load in the
		 * critical section (store-load).  Paired with the updater's
		 * barrier between its removal and its scan of reader words:
		 * either the scan sees us inside, or our loads see the removal.
		 */
		_urcu_common_slave_mb(fence);
	} else if (!(tmp & URCU_GP_CTR_NEST_MASK)) {
		/* Release: as above. */
		__atomic_store_n(&r->ctr, now, __ATOMIC_RELEASE);
		/*
		 * First section of an epoch: a full fence whatever the flavor,
		 * paired as above, or with the updater's fence before it
		 * looks at idle readers (urcu__gp_observe).
		 */
		cmm_smp_mb();
	} else {
		_urcu_misuse_check_lib(
			(tmp & URCU_GP_CTR_NEST_MASK) != URCU_GP_CTR_NEST_MASK,
			"rcu_read_lock() nested too deeply");
		/* Nested: only the nesting bits change, epoch is kept. */
		__atomic_store_n(&r->ctr, tmp + URCU_GP_COUNT, __ATOMIC_RELEASE);
	}
}

/*
 * Outermost-or-nested unlock: the flavor barrier, then a release store of
 * the word.  Nobody is woken: grace periods of these flavors poll the
 * readers they wait for (rcu/src/gp-wait-readers.h), so the unlock touches
 * no shared cache line.
 */
static inline void _urcu_common_read_unlock(struct urcu_reader *r, int fence)
{
	unsigned long tmp;

	_urcu_misuse_check(r->registered,
		"rcu_read_unlock() called by a thread that is not registered");
	tmp = r->ctr;
	_urcu_misuse_check_lib(tmp & URCU_GP_CTR_NEST_MASK,
		"rcu_read_unlock() without matching rcu_read_lock()");
	/*
	 * The flavor barrier keeps the mb flavor's full-fence contract for
	 * non-C11 accesses (a nested unlock pays it too, rather than a
	 * branch on the common path).  Release: every access of the section
	 * happens before the updater's acquire load that sees this store
	 * (urcu__section_holds_gp and gp-observe.h), so memory freed after
	 * the grace period is no longer in use.  Every store to the word is
	 * a release (see the lock).
	 */
	_urcu_common_slave_mb(fence);
	__atomic_store_n(&r->ctr, tmp - URCU_GP_COUNT, __ATOMIC_RELEASE);
	/* Keep the section's end from moving past following code. */
	cmm_barrier();
}

static inline int _urcu_common_read_ongoing(const struct urcu_reader *r)
{
	return (r->ctr & URCU_GP_CTR_NEST_MASK) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_COMMON_H */
