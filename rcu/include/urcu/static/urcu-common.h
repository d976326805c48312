/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-common.h: reader state and read-side fast path shared by
 * the memb, mb, signal and bp flavors (QSBR uses the structures).
 *
 * Only include this through a flavor header (<urcu/urcu-memb.h>, ...; with
 * _LGPL_SOURCE for the inline read side).  The structures here are part of
 * the inline ABI: programs built with _LGPL_SOURCE access them directly.
 *
 * Reader word (struct urcu_reader.ctr) and grace-period word (struct
 * urcu_gp.ctr):
 *
 *   bits [0, URCU_GP_NEST_BITS)      nesting depth of read-side sections
 *   bits [URCU_GP_NEST_BITS, width)  grace-period epoch
 *
 * urcu_gp.ctr holds the current epoch with a nesting depth of one.  A
 * reader whose low bits are zero is outside any section; only its owner
 * thread writes its word, always with a release store.  A grace period
 * advances the epoch and waits for the readers inside a section entered
 * under an older one.  docs/design.md has the argument.
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
 * Nesting bits.  The epoch keeps the rest: 48 bits on 64-bit targets, 24
 * on 32-bit ones (docs/flavors.md, "Limits").
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
	 * The same for the readers with real fences (mb; memb and bp without
	 * membarrier(2)), whose unlock loads it: off the 64-byte line of
	 * @ctr, which every grace period writes.  Size and offsets are inline
	 * ABI: new fields go into the padding.
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
	 * outside any read-side section, behind a full fence; grace periods
	 * then need no signal acknowledgement from it.
	 */
	int32_t parked;
	/* Set by register_thread, cleared by unregister_thread. */
	int32_t registered;
	/* QSBR debug builds only: read-side nesting depth. */
	uint32_t nesting;
	pthread_t tid;
	/*
	 * Link in the flavor's registry, protected by its registry lock.
	 * Grace periods rewrite it, so it starts a cache line of its own,
	 * away from @ctr.  Read-side sections never touch the fields from
	 * here on.
	 */
	struct cds_list_head node __attribute__((aligned(CAA_CACHE_LINE_SIZE)));
	/* Kernel thread id (gettid()) as of registration, for stall warnings. */
	int32_t os_tid;
	/*
	 * Updater-private (registry lock): an epoch this thread's loads of
	 * the grace-period word can no longer go below, because a grace
	 * period at that epoch ran its barrier on the thread; 0 when unknown.
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
 * Wake an updater that armed @futex (stored -1) to sleep until a reader it
 * waits for moves on.  The caller's new reader word is ordered before this
 * load of @futex by a full barrier (QSBR) or not at all (a hint: the
 * updater's sleep then times out).  Pairs with the updater's store of -1
 * and its barrier before it scans the readers once more: either that scan
 * sees our new word, or we see -1 and wake it.
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
 * updater.  A section entered under the current epoch holds no grace
 * period and wakes nobody, so busy readers cannot keep the updater from
 * sleeping.
 */
static inline void _urcu_common_wake_up_gp_hint(struct urcu_gp *gp,
		unsigned long tmp)
{
	/*
	 * Acquire, on a second look (off the fast path): pairs with the
	 * release store that armed the word, which the updater made after
	 * advancing the epoch, so the load of the epoch below sees the one
	 * the updater waits for.  Relaxed there: ordered by this load.
	 * model: tags.pml RD_HINT_ACQ (reader.pml rd_hint).
	 */
	if (__atomic_load_n(&gp->wake, __ATOMIC_ACQUIRE) == -1 &&
	    (tmp & URCU_GP_CTR_NEST_MASK) == URCU_GP_COUNT &&
	    urcu_gp_ctr_before(tmp,
			       __atomic_load_n(&gp->ctr, __ATOMIC_RELAXED)))
		_urcu_common_wake_up_gp(&gp->wake);
}

/*
 * The reader-side barrier: a full fence when @fence is set (the mb flavor,
 * and memb or bp running without membarrier(2)), paired with the
 * updater's fence between its epoch store and its scan; otherwise a
 * compiler barrier, which the updater's membarrier(2) or SIGRCU turns
 * into a fence on this CPU when it matters.  Flavors read @fence once per
 * lock or unlock and pass it down.  model: tags.pml MB_RD_UNLOCK
 * (reader.pml rd_unlock_use, rd_nested_fenced; urcu.pml: without fences
 * the compiler barrier is no model step, see tags.pml).
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
 * Lock of a reader with real fences, which the updater never interrupts:
 * the outermost lock copies the grace-period word into its own, then
 * fences.  No claim under the previous epoch is needed (see
 * _urcu_common_read_lock(): it is there for barriers that land inside the
 * lock, and no barrier does here).
 */
static inline void _urcu_common_read_lock_fenced(struct urcu_reader *r,
		const struct urcu_gp *gp, unsigned long tmp)
{
	if (caa_likely(!(tmp & URCU_GP_CTR_NEST_MASK))) {
		/*
		 * Acquire: pairs with the release store that advanced the
		 * epoch, as in _urcu_common_read_lock().  Release on our word,
		 * as every store to it.  model: tags.pml RD_LOCKF_ACQ,
		 * RD_LOCKF_REL (reader.pml rd_lock, RD_FENCE).
		 */
		__atomic_store_n(&r->ctr,
				 __atomic_load_n(&gp->ctr, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
		/*
		 * Store-load: our word before the section's loads, paired
		 * with the updater's fence between epoch store and scan:
		 * either the scan sees this section, or the section's loads
		 * see the removals.  model: tags.pml MB_RD_LOCKF.
		 */
		cmm_smp_mb();
		return;
	}
	/*
	 * Nested: keep the outermost epoch, count one more level.  Release
	 * as above (model: tags.pml RD_NESTF_REL, reader.pml
	 * rd_nested_fenced).
	 */
	_urcu_common_check_nesting(tmp);
	__atomic_store_n(&r->ctr, tmp + URCU_GP_COUNT, __ATOMIC_RELEASE);
}

/*
 * Outermost-or-nested lock.  With @fence set the lock is
 * _urcu_common_read_lock_fenced(); what follows is the lock of a reader
 * the updater may interrupt (membarrier(2), SIGRCU).
 *
 * Every lock stores its word plus one: for the outermost lock, "in a
 * section" under the epoch of the thread's previous section (a safe
 * claim: grace periods for later epochs wait for it).  It then loads the
 * grace-period word.  When the epoch moved, the outermost lock publishes
 * the new one and runs a full fence, whatever the flavor barrier, so that
 * the updater need not interrupt a reader idle since an older epoch.
 * Store first, load second: a barrier the updater runs on this thread
 * lands either before the load, which then sees the epoch the updater
 * synced us to, or after the store, which the updater then sees
 * (docs/design.md, "Readers that move on by themselves").
 */
static inline void _urcu_common_read_lock(struct urcu_reader *r,
		const struct urcu_gp *gp, int fence)
{
	unsigned long tmp, now;

	_urcu_misuse_check(r->registered,
		"rcu_read_lock() called by a thread that is not registered; "
		"call rcu_register_thread() first");
	/*
	 * Keep earlier code from moving into the section (compiler only;
	 * model: none (tags.pml "Compiler barriers")).
	 */
	cmm_barrier();
	tmp = r->ctr;
	if (fence) {
		_urcu_common_read_lock_fenced(r, gp, tmp);
		return;
	}
	/*
	 * One more level of nesting under the epoch the word holds.  Release,
	 * as every store to the word: paired with the updater's acquire load
	 * of it, so a word seen at a new epoch orders all our earlier
	 * sections before the end of the grace period.  model: tags.pml
	 * RD_CLAIM_REL (reader.pml rd_lock, rd_lock_nested).
	 */
	__atomic_store_n(&r->ctr, tmp + URCU_GP_COUNT, __ATOMIC_RELEASE);
	/*
	 * The load below stays after that store (compiler only; a barrier
	 * the updater forces on us lands between them).  model: tags.pml
	 * CB_RD_CLAIM.
	 */
	cmm_barrier();
	/*
	 * Acquire: pairs with the release store that advanced the epoch in
	 * synchronize_rcu, so that once we see a new epoch we also see every
	 * removal done before that grace period began.  model: tags.pml
	 * RD_GP_ACQ (reader.pml rd_lock).
	 */
	now = __atomic_load_n(&gp->ctr, __ATOMIC_ACQUIRE);
	/*
	 * The grace-period word has a nesting count of one, so it equals
	 * ours only for an outermost lock under the current epoch.
	 */
	if (caa_likely(now == tmp + URCU_GP_COUNT)) {
		/*
		 * Keeps the section's loads after the store of our word; the
		 * updater's membarrier(2) or SIGRCU makes it a fence where
		 * that matters.  Store-load, paired with the updater's barrier
		 * between its removal and its scan: either the scan sees us
		 * inside, or our loads see the removal.  model: none (the
		 * acquire above orders the same accesses; tags.pml "Compiler
		 * barriers").
		 */
		cmm_barrier();
	} else if (!(tmp & URCU_GP_CTR_NEST_MASK)) {
		/*
		 * First section of an epoch.  Release: as above.  model:
		 * tags.pml RD_FIRST_REL (reader.pml rd_lock).
		 */
		__atomic_store_n(&r->ctr, now, __ATOMIC_RELEASE);
		/*
		 * Store-load, whatever the flavor: paired as above, or with
		 * the fence the updater runs before it looks at idle readers.
		 * model: tags.pml MB_RD_FIRST (reader.pml rd_lock).
		 */
		cmm_smp_mb();
	} else {
		/* Nested: the store above kept the outermost epoch. */
		_urcu_common_check_nesting(tmp);
	}
}

/*
 * Outermost-or-nested unlock: the flavor barrier, then a release store of
 * the word.
 *
 * A reader the updater may interrupt (@fence clear) wakes nobody: the
 * updater polls it, and the unlock touches no shared cache line.
 *
 * A reader with real fences (@fence set) also wakes an updater that armed
 * @gp's wake word to sleep until this section ends, once the section is
 * over.  The wake is a hint: the word is loaded before the fence, so a
 * reader leaving just as the updater arms it may miss it, and the updater
 * then sleeps out its polling period and scans again (docs/design.md,
 * "Waking the updater").
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
	/* Relaxed: a hint, ordered with nothing (above). */
	armed = fence && __atomic_load_n(&gp->wake, __ATOMIC_RELAXED) == -1;
	/*
	 * The flavor barrier keeps the mb flavor's full-fence contract for
	 * non-C11 accesses (a nested unlock pays it too).  Release: every
	 * access of the section happens before the updater's acquire load
	 * that sees this store, so memory freed after the grace period is no
	 * longer in use.  model: tags.pml MB_RD_UNLOCK, RD_EXIT_REL
	 * (reader.pml rd_exit_store, rd_unlock_use).
	 */
	_urcu_common_slave_mb(fence);
	__atomic_store_n(&r->ctr, tmp - URCU_GP_COUNT, __ATOMIC_RELEASE);
	/*
	 * Keep the section's end from moving past following code (model:
	 * none (tags.pml "Compiler barriers")).
	 */
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
