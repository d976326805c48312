/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu/static/urcu-qsbr.h: inline read side of the QSBR flavor.
 *
 * Quiescent-state-based reclamation: read-side sections cost nothing (in
 * release builds rcu_read_lock/unlock compile to no code at all).  Instead
 * each registered thread periodically announces a quiescent state, a point
 * where it holds no RCU-protected reference, or declares itself offline
 * around blocking operations.  The grace period ends once every online
 * reader has announced a quiescent state after it started.
 *
 * Reader word (struct urcu_reader.ctr): 0 while offline, else the value of
 * urcu_qsbr_gp.ctr seen at the thread's last quiescent state.  The global
 * word is always odd, so 0 is never a valid epoch.
 *
 * Include <urcu/urcu-qsbr.h> (or <urcu-qsbr.h>) with _LGPL_SOURCE instead
 * of this header.
 */
#ifndef _URCU_STATIC_URCU_QSBR_H
#define _URCU_STATIC_URCU_QSBR_H

#include <urcu/static/urcu-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Low bit always set in urcu_qsbr_gp.ctr; epochs advance by 2. */
#define URCU_QSBR_GP_ONLINE	1UL
#define URCU_QSBR_GP_CTR	2UL

extern struct urcu_gp urcu_qsbr_gp;
extern DECLARE_URCU_TLS(struct urcu_reader, urcu_qsbr_reader);

/*
 * Read-side sections only exist for debugging: in URCU_DEBUG builds the
 * nesting depth is tracked so that a quiescent state announced inside a
 * section is reported.
 */
static inline void _urcu_qsbr_read_lock(void)
{
#if defined(URCU_DEBUG) || defined(DEBUG_RCU)
	struct urcu_reader *r = &URCU_TLS(urcu_qsbr_reader);

	_urcu_misuse_check(r->registered,
		"rcu_read_lock() called by a thread that is not registered; "
		"call rcu_register_thread() first");
	_urcu_misuse_check(r->ctr,
		"rcu_read_lock() called by an offline QSBR thread; call "
		"rcu_thread_online() first");
	r->nesting++;
#endif
}

static inline void _urcu_qsbr_read_unlock(void)
{
#if defined(URCU_DEBUG) || defined(DEBUG_RCU)
	struct urcu_reader *r = &URCU_TLS(urcu_qsbr_reader);

	_urcu_misuse_check(r->nesting > 0,
		"rcu_read_unlock() without matching rcu_read_lock()");
	r->nesting--;
#endif
}

/* Nonzero while the thread is online (it may hold references). */
static inline int _urcu_qsbr_read_ongoing(void)
{
	return URCU_TLS(urcu_qsbr_reader).ctr != 0;
}

static inline void _urcu_qsbr_check_outside_section(const char *rule)
{
	_urcu_misuse_check(URCU_TLS(urcu_qsbr_reader).nesting == 0, rule);
	(void) rule;
}

/* Publish reader word @v and wake a sleeping updater if needed. */
static inline void _urcu_qsbr_publish(struct urcu_reader *r, unsigned long v)
{
	/*
	 * Release: every access made before this quiescent state (or before
	 * going offline) happens before the updater's acquire load that sees
	 * the new word in its scan of the readers.  model: tags.pml
	 * QS_PUB_REL (qsbr.pml q_offline, qreader).
	 */
	__atomic_store_n(&r->ctr, v, __ATOMIC_RELEASE);
	/*
	 * Store-load: orders the store above before the futex load in the
	 * wake-up and before our next loads of shared data; paired with the
	 * updater's cmm_smp_mb() after arming the futex / before its scan.
	 * model: tags.pml MB_QS_PUB (qsbr.pml q_publish_end).
	 */
	cmm_smp_mb();
	_urcu_common_wake_up_gp(&urcu_qsbr_gp.futex);
}

static inline void _urcu_qsbr_quiescent_state(void)
{
	struct urcu_reader *r = &URCU_TLS(urcu_qsbr_reader);
	/*
	 * Acquire: pairs with the updater's release store of the new epoch,
	 * so once we announce that epoch our later loads see every removal
	 * made before the grace period began.  model: tags.pml QS_GP_ACQ
	 * (qsbr.pml qreader).
	 */
	unsigned long gp_ctr = __atomic_load_n(&urcu_qsbr_gp.ctr, __ATOMIC_ACQUIRE);

	_urcu_qsbr_check_outside_section("rcu_quiescent_state() called from "
		"within a read-side critical section: a quiescent state means "
		"the thread holds no RCU-protected reference");
	_urcu_misuse_check(r->ctr, "rcu_quiescent_state() called by an "
		"offline or unregistered QSBR thread");
	/* Fast path: already quiescent for the current epoch. */
	if (gp_ctr == r->ctr)
		return;
	_urcu_qsbr_publish(r, gp_ctr);
}

static inline void _urcu_qsbr_thread_offline(void)
{
	_urcu_qsbr_check_outside_section("rcu_thread_offline() called from "
		"within a read-side critical section: an offline thread holds "
		"no RCU-protected reference");
	_urcu_qsbr_publish(&URCU_TLS(urcu_qsbr_reader), 0);
	/*
	 * Keep the compiler from sinking accesses below the offline point
	 * (model: none (tags.pml "Compiler barriers")).
	 */
	cmm_barrier();
}

static inline void _urcu_qsbr_thread_online(void)
{
	struct urcu_reader *r = &URCU_TLS(urcu_qsbr_reader);

	/*
	 * Keep the compiler from hoisting accesses above the online point
	 * (model: none (tags.pml "Compiler barriers")).
	 */
	cmm_barrier();
	/*
	 * Acquire on the epoch: as in _urcu_qsbr_quiescent_state().  Relaxed
	 * store: the fence after it provides the store-load ordering that
	 * pairs with the updater's scan (either it sees us online, or our
	 * loads see its removals).  model: tags.pml QS_ONLINE_ACQ,
	 * MB_QS_ONLINE (qsbr.pml q_online).
	 */
	__atomic_store_n(&r->ctr,
		__atomic_load_n(&urcu_qsbr_gp.ctr, __ATOMIC_ACQUIRE),
		__ATOMIC_RELAXED);
	cmm_smp_mb();
}

#ifdef __cplusplus
}
#endif

#endif /* _URCU_STATIC_URCU_QSBR_H */
