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
	 * The other flavors leave it 0.
	 */
	int32_t futex;
	/*
	 * The same for flavors whose readers have real fences (mb; memb and
	 * bp without membarrier(2)), which look at it in every outermost
	 * unlock; updaters that interrupt readers poll and leave it 0.  Half
	 * the padding unit past @ctr: on a 64-byte line of its own on x86,
	 * which grace periods write only when they sleep, where every grace
	 * period writes @ctr (on @ctr's line, an unlock that loads it misses
	 * after each of those writes).  It sits in what was padding, so the
	 * structure keeps its size and the other fields their offsets.
	 */
	int32_t wake __attribute__((aligned(CAA_CACHE_LINE_SIZE / 2)));
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
	/*
	 * Link in the flavor's registry, protected by its registry lock.
	 * Every grace period moves it from list to list, so it starts a
	 * cache line of its own: were it on the line of @ctr, each of those
	 * writes would take that line from the reader, whose next section
	 * would miss on its store to @ctr, and the updater's next look
	 * would miss again.  Read-side sections never touch the fields from
	 * here on.
	 */
	struct cds_list_head node __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	/* Kernel thread id (gettid()) as of registration, for stall warnings. */
	int32_t os_tid;
	/*
	 * Updater-private (registry lock): an epoch this thread's loads of
	 * the grace-period word can no longer go below, because a grace
	 * period at that epoch ran the barrier on it; 0 when unknown
	 * (rcu/src/gp-observe.h).
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
 * Wake an updater sleeping in the grace-period wait loop if it armed
 * @futex (stored -1; rcu/src/gp-wait-readers.h).  Called by a QSBR reader
 * right after it announced a quiescent state or went offline, behind a
 * barrier that orders that store before this load of @futex: paired with
 * the updater's store of -1 and its barrier before re-scanning the
 * readers, so either the updater sees our new state, or we see -1 and
 * wake it.
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
 * A reader with real fences that saw @gp's wake word armed as it began to
 * leave a section has left it, its word having been @tmp: if that was the
 * outermost section and it held the grace period in progress, wake the
 * updater, which sleeps waiting for it (or is about to).  A section
 * entered under the current epoch holds no grace period, and its reader
 * wakes nobody: a reader that keeps entering and leaving sections on
 * another CPU must not keep the updater from blocking, which is what lets
 * the reader it waits for, preempted on the updater's CPU, run again.
 */
static inline void _urcu_common_wake_up_gp_hint(struct urcu_gp *gp,
		unsigned long tmp)
{
	/*
	 * Acquire, on a second look (off the fast path): pairs with the
	 * release store that armed the word, which the updater made after
	 * advancing the epoch, so the load of the epoch below sees the one
	 * the updater waits for.  Relaxed there: ordered by this load.
	 */
	if (__atomic_load_n(&gp->wake, __ATOMIC_ACQUIRE) == -1 &&
	    (tmp & URCU_GP_CTR_NEST_MASK) == URCU_GP_COUNT &&
	    urcu_gp_ctr_before(tmp,
			       __atomic_load_n(&gp->ctr, __ATOMIC_RELAXED)))
		_urcu_common_wake_up_gp(&gp->wake);
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
 * A nested lock on word @tmp: a nesting count already at its maximum
 * would carry into the epoch bits; abort before anyone relies on them.
 */
static inline void _urcu_common_check_nesting(unsigned long tmp)
{
	_urcu_misuse_check_lib(
		(tmp & URCU_GP_CTR_NEST_MASK) != URCU_GP_CTR_NEST_MASK,
		"rcu_read_lock() nested too deeply");
}

/*
 * Lock of a reader with real fences (@fence set: the updater never
 * interrupts it, it runs a local fence and scans, rcu/src/gp-synchronize.h).
 * The outermost lock loads the grace-period word and stores it as its own
 * in one go, then fences: store-load, paired with the updater's fence
 * between its epoch store and its scan, so either the scan sees this
 * section or the section's loads see the removals.  No claim under the
 * previous epoch is needed here (it exists for barriers that land inside
 * the lock, and none does), and without it the word goes from idle
 * straight to the current epoch: an updater waiting for a busy reader
 * sees the new epoch one store, and one transfer of the reader's cache
 * line, sooner.
 */
static inline void _urcu_common_read_lock_fenced(struct urcu_reader *r,
		const struct urcu_gp *gp, unsigned long tmp)
{
	if (caa_likely(!(tmp & URCU_GP_CTR_NEST_MASK))) {
		/*
		 * Acquire: pairs with the release store that advanced the
		 * epoch, as in _urcu_common_read_lock().  Release on our word,
		 * as every store to it.
		 */
		__atomic_store_n(&r->ctr,
				 __atomic_load_n(&gp->ctr, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		/*
		 * Store-load: our word before the section's loads, paired
		 * with the updater's fence between epoch store and scan.
		 */
		cmm_smp_mb();
		return;
	}
	/* Nested: keep the outermost epoch, count one more level. */
	_urcu_common_check_nesting(tmp);
	__atomic_store_n(&r->ctr, tmp + URCU_GP_COUNT, __ATOMIC_RELEASE);
}

/*
 * Outermost-or-nested lock.  @fence selects the flavor's reader-side
 * barrier (_urcu_common_slave_mb); with fences the lock is
 * _urcu_common_read_lock_fenced() above, and what follows is the lock of
 * a reader the updater may interrupt (membarrier(2), SIGRCU).
 *
 * The outermost lock first publishes "in a section" under the epoch of
 * the thread's previous section (its word plus one: a safe claim, grace
 * periods for later epochs wait for it), then loads the grace-period
 * word.  Usually the epoch has not moved and that is all.  When it has,
 * the lock publishes the new epoch and runs a full fence, even where the
 * flavor barrier is a compiler barrier: the updater then need not
 * interrupt a reader it finds idle since an older epoch (the argument is
 * in rcu/src/gp-observe.h).  The load comes after our store on purpose: a
 * barrier the updater runs on this thread (membarrier's IPI, SIGRCU)
 * lands either before the load, which then sees the epoch the updater
 * synced us to, or after our store, which the updater then sees.  A busy
 * reader pays one fence per grace period.
 *
 * Nested and outermost locks share the store and the load: a nested lock
 * stores its word plus one too, and its load is wasted, but the common
 * case then costs a load, an add, a store, a load and one compare-and-
 * branch, with the nesting test moved off the fast path.
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
	if (fence) {
		_urcu_common_read_lock_fenced(r, gp, tmp);
		return;
	}
	/*
	 * One more level of nesting under the epoch the word holds: for the
	 * outermost lock, the epoch of the thread's previous section.
	 * Release on our word, as on every store to it: an updater whose
	 * acquire load sees a new epoch there is done with us, our earlier
	 * sections included (rcu/src/gp-observe.h).  On x86 a release store
	 * is a plain store.
	 */
	__atomic_store_n(&r->ctr, tmp + URCU_GP_COUNT, __ATOMIC_RELEASE);
	/* The load below stays after that store (compiler only). */
	cmm_barrier();
	/*
	 * Acquire: pairs with the release store that advanced the epoch in
	 * synchronize_rcu, so that once we see a new epoch we also see every
	 * removal done before that grace period began.
	 */
	now = __atomic_load_n(&gp->ctr, __ATOMIC_ACQUIRE);
	/*
	 * The grace-period word has a nesting count of one, so it equals
	 * ours only for an outermost lock under the current epoch: the
	 * common case, decided by one compare.
	 */
	if (caa_likely(now == tmp + URCU_GP_COUNT)) {
		/*
		 * Keeps the section's loads after the store of our word.
		 * The updater's membarrier(2) or SIGRCU makes it a fence
		 * where that matters (store-load, paired with the updater's
		 * barrier between its removal and its scan of reader words:
		 * either the scan sees us inside, or our loads see the
		 * removal).
		 */
		cmm_barrier();
	} else if (!(tmp & URCU_GP_CTR_NEST_MASK)) {
		/* First section of an epoch.  Release: as above. */
		__atomic_store_n(&r->ctr, now, __ATOMIC_RELEASE);
		/*
		 * Store-load, whatever the flavor: paired as above, or with
		 * the updater's fence before it looks at idle readers
		 * (urcu__gp_observe).
		 */
		cmm_smp_mb();
	} else {
		/*
		 * Nested: the store above only bumped the nesting bits, and
		 * the epoch it keeps is the outermost section's.
		 */
		_urcu_common_check_nesting(tmp);
	}
}

/*
 * Outermost-or-nested unlock: the flavor barrier, then a release store of
 * the word.
 *
 * A reader the updater may interrupt (@fence clear) wakes nobody: the
 * updater polls it (rcu/src/gp-wait-readers.h), and the unlock touches no
 * shared cache line.
 *
 * A reader with real fences (@fence set) also wakes an updater that armed
 * @gp's wake word to sleep until this section ends.  This matters where
 * there are more runnable threads than CPUs: an updater that preempted a
 * reader inside its section gets the CPU back the moment that reader
 * leaves, at a point where the reader holds no grace period, rather than
 * when a polling timer fires, which likely preempts the reader inside its
 * next section (mb synchronize_rcu() with 2 busy readers on 2 CPUs: p99
 * 95 us polling, 0.9 us with the wake; docs/performance.md).
 *
 * The word is loaded before the fence, not after the exit store: an
 * updater that armed it by then is asleep, or about to be, unless its
 * last scan already saw us out (a spare wake only makes it scan again),
 * and we wake it once we are out.  No fence orders that load against the
 * updater's arming, so a reader leaving just as the updater arms may miss
 * it; the updater then sleeps out one polling period and sees us on its
 * next scan.  The wake is a hint, and the updater treats it as one.
 * Loaded after the exit store, the word cost the reader 43% of its
 * throughput against a back-to-back updater (the load waits behind the
 * fence and the store); loaded first, about 7%: a load of a line nobody
 * writes in the steady state, a compare and a branch.
 */
static inline void _urcu_common_read_unlock(struct urcu_reader *r,
		struct urcu_gp *gp, int fence)
{
	unsigned long tmp;
	int armed;

	_urcu_misuse_check(r->registered,
		"rcu_read_unlock() called by a thread that is not registered");
	tmp = r->ctr;
	_urcu_misuse_check_lib(tmp & URCU_GP_CTR_NEST_MASK,
		"rcu_read_unlock() without matching rcu_read_lock()");
	/* Relaxed: a hint (above); the wake orders what it needs. */
	armed = fence && __atomic_load_n(&gp->wake, __ATOMIC_RELAXED) == -1;
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
	if (caa_unlikely(armed))
		_urcu_common_wake_up_gp_hint(gp, tmp);
}

static inline int _urcu_common_read_ongoing(const struct urcu_reader *r)
{
	return (r->ctr & URCU_GP_CTR_NEST_MASK) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_COMMON_H */
