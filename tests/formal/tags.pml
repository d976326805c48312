/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tags.pml: every barrier and every ordered atomic of the models, by tag.
 *
 * Each tag is 1 unless a run defines it as 0 (spin -DTAG=0): a fence then
 * does nothing, an acquire load becomes relaxed, a release store relaxed,
 * a system call loses its barrier, a compiler barrier lets the compiler
 * swap the two accesses it separates, a mechanism (resend, timeout) is
 * switched off.  tests/formal/verify.py reads this file and runs every
 * model that a tag changes with the tag at 0 (a mutant): Spin must find
 * a counterexample in one of them, unless the tag's comment says
 * "SURVIVES:" and why the code does not need it, in which case none may
 * find one (verify.py lists those as justified and runs them only with
 * --check-survivors).  "MUTANT: A B" lines name mutants with several
 * tags at 0 at once, which must be killed (the barriers that survive
 * alone because each covers for the other).  "KILLED BY: run" names the
 * run (verify.py RUNS) to try first, where cheaper runs do not kill it.
 *
 * The code names the tag next to the barrier it models
 * ("model: tags.pml TAG"), and each tag names the code's function and
 * file.  Format (verify.py parses it): a comment, then
 * #ifndef TAG / #define TAG 1 / #endif.
 *
 * Mutants of several tags, each of which survives alone because another
 * covers for it; each of these must be killed:
 *
 * MUTANT: MB_SIG_POST SIG_NEED_ACQ SIG_PARK_ACQ -- nothing orders the
 * updater's later accesses after the acknowledgements.
 *
 * Compiler barriers.  The models issue each thread's accesses in source
 * order; the compiler keeps that order wherever an acquire, a release, a
 * fence or the same location orders two accesses.  Of the cmm_barrier()s
 * of the read side, one orders two accesses nothing else orders
 * (CB_RD_CLAIM).  The others: in _urcu_common_read_lock(), the one before
 * the word's load keeps code before the section out of it, and the one on
 * the fast path after the epoch load repeats that load's acquire; in
 * _urcu_common_read_unlock(), the one after the exit store keeps code
 * after the section out of it; _urcu_common_slave_mb(0) precedes the exit
 * store, a release; QSBR's around going offline and online keep the
 * thread's own code on the right side, which the following fence or the
 * preceding release already does for shared accesses.  None orders two
 * accesses the model could swap, so none is a tag.
 */

/* ---- Read side: rcu/include/urcu/static/urcu-common.h ---- */

/*
 * CB_RD_CLAIM: _urcu_common_read_lock(), the cmm_barrier() between the
 * claim store and the load of the grace-period word: a barrier the
 * updater forces on the reader (IPI, signal) lands after the store or
 * before the load.
 */
#ifndef CB_RD_CLAIM
#define CB_RD_CLAIM	1
#endif

/*
 * RD_CLAIM_REL: _urcu_common_read_lock(), release on the claim store (and
 * on a nested lock's store, the same statement).  SURVIVES: the word's
 * previous store, the exit store of the thread's last section, is a
 * release (RD_EXIT_REL), and an updater that sees the claim sees that
 * store first (one location, stores in program order): that orders every
 * earlier section, and the claimed section's own accesses come after the
 * claim.  The release is kept for the C11 model, whose release sequences
 * no longer contain a thread's later plain stores (C++20), and for
 * ThreadSanitizer.  (RD_EXIT_REL alone is killed.)
 */
#ifndef RD_CLAIM_REL
#define RD_CLAIM_REL	1
#endif

/*
 * RD_GP_ACQ: _urcu_common_read_lock(), acquire load of the grace-period
 * word; pairs with UP_GP_REL.  SURVIVES: a load that sees a new epoch is
 * followed, before any access of the section, by the full fence of the
 * first section of an epoch (MB_RD_FIRST), which makes it an acquire
 * (C11: a fence after a load that read a release store synchronizes with
 * it); a load that sees the epoch the word already holds comes after
 * such a fence; a nested lock does not use the value.  Kept because it
 * costs nothing on x86 and because ThreadSanitizer, which ignores fences,
 * sees the publication only through it.  (MB_RD_FIRST alone is killed.)
 */
#ifndef RD_GP_ACQ
#define RD_GP_ACQ	1
#endif

/*
 * RD_FIRST_REL: _urcu_common_read_lock(), release on the store of the new
 * epoch in the first section of an epoch.  SURVIVES: as RD_CLAIM_REL,
 * the word's earlier stores (the claim, and before it the release exit
 * store of the last section, RD_EXIT_REL) reach an updater that sees
 * this one first, and the section's own accesses follow the full fence
 * after it (MB_RD_FIRST).  Kept for C11's rules and ThreadSanitizer.
 */
#ifndef RD_FIRST_REL
#define RD_FIRST_REL	1
#endif

/*
 * MB_RD_FIRST: _urcu_common_read_lock(), cmm_smp_mb() after the first
 * section of an epoch stored its word; pairs with MB_UP_OBSERVE (idle
 * synced readers) and with the master barrier.
 */
#ifndef MB_RD_FIRST
#define MB_RD_FIRST	1
#endif

/*
 * RD_LOCKF_ACQ: _urcu_common_read_lock_fenced(), acquire load of the
 * grace-period word; pairs with UP_GP_REL.  SURVIVES: the full fence that
 * follows the word's store (MB_RD_LOCKF) comes before any access of the
 * section and makes the load an acquire (as for RD_GP_ACQ).  Kept for
 * ThreadSanitizer, which ignores fences; free on x86.
 */
#ifndef RD_LOCKF_ACQ
#define RD_LOCKF_ACQ	1
#endif

/*
 * RD_LOCKF_REL: _urcu_common_read_lock_fenced(), release on the outermost
 * store of the word.  SURVIVES: as RD_CLAIM_REL, the word's previous
 * store is the release exit store of the last section (RD_EXIT_REL),
 * which an updater that sees this one has seen first.  Kept for C11's
 * rules and ThreadSanitizer.
 */
#ifndef RD_LOCKF_REL
#define RD_LOCKF_REL	1
#endif

/*
 * MB_RD_LOCKF: _urcu_common_read_lock_fenced(), cmm_smp_mb() after the
 * word's store; pairs with the updater's fence (MB_UP_MASTER,
 * MB_UP_FALLBACK).
 */
#ifndef MB_RD_LOCKF
#define MB_RD_LOCKF	1
#endif

/*
 * RD_NESTF_REL: _urcu_common_read_lock_fenced(), release on a nested
 * lock's store of the word.  SURVIVES: the word's previous store is the
 * outermost lock's, followed by a full fence (MB_RD_LOCKF); what lies
 * between is the same section, which the nested store does not end.
 * Kept for C11's rules and ThreadSanitizer.
 */
#ifndef RD_NESTF_REL
#define RD_NESTF_REL	1
#endif

/*
 * MB_RD_UNLOCK: _urcu_common_read_unlock() -> _urcu_common_slave_mb(1),
 * the fence before the exit store of readers with real fences.
 * SURVIVES: the exit store is a release (RD_EXIT_REL), which orders the
 * section's atomic accesses before it, and the wake that may follow is a
 * FUTEX_WAKE, a full barrier.  The fence keeps the mb flavor's documented
 * contract (a full barrier at unlock) for the section's plain, non-C11
 * accesses, which the models do not distinguish from atomic ones.
 */
#ifndef MB_RD_UNLOCK
#define MB_RD_UNLOCK	1
#endif

/*
 * RD_EXIT_REL: _urcu_common_read_unlock(), release on the exit store;
 * pairs with UP_SCAN_ACQ and UP_LOOK_ACQ.
 */
#ifndef RD_EXIT_REL
#define RD_EXIT_REL	1
#endif

/*
 * RD_HINT_ACQ: _urcu_common_wake_up_gp_hint(), acquire load of the wake
 * word; pairs with UP_ARM_REL.  SURVIVES: the wake is a hint for speed:
 * without the acquire a reader may load an older epoch and not wake the
 * updater, whose sleep then times out (HINT_TIMEOUT); neither safety nor
 * progress depends on it.
 */
#ifndef RD_HINT_ACQ
#define RD_HINT_ACQ	1
#endif

/* ---- Read side: rcu/include/urcu/static/urcu-qsbr.h ---- */

/*
 * QS_GP_ACQ: _urcu_qsbr_quiescent_state(), acquire load of the
 * grace-period word; pairs with UP_GP_REL.  SURVIVES: when the load sees
 * a new epoch, the full fence of the publication (MB_QS_PUB) follows it
 * before the next section's loads and makes it an acquire; when it sees
 * the epoch the word holds, such a fence came after an earlier load of
 * it.  Kept for ThreadSanitizer, which ignores fences; free on x86.
 */
#ifndef QS_GP_ACQ
#define QS_GP_ACQ	1
#endif

/*
 * QS_PUB_REL: _urcu_qsbr_publish(), release store of the reader word;
 * pairs with QS_HOLDS_ACQ.
 */
#ifndef QS_PUB_REL
#define QS_PUB_REL	1
#endif

/*
 * MB_QS_PUB: _urcu_qsbr_publish(), cmm_smp_mb() between the word's store
 * and the futex load; pairs with MB_UP_QSBR and MB_UP_QSBR_ARM.  KILLED
 * BY: qsbr (a lost wake-up).
 */
#ifndef MB_QS_PUB
#define MB_QS_PUB	1
#endif

/*
 * QS_ONLINE_ACQ: _urcu_qsbr_thread_online(), acquire load of the
 * grace-period word.  SURVIVES: the full fence after the word's store
 * (MB_QS_ONLINE) follows the load before any later access and makes it
 * an acquire.  Kept for ThreadSanitizer; free on x86.
 */
#ifndef QS_ONLINE_ACQ
#define QS_ONLINE_ACQ	1
#endif

/*
 * MB_QS_ONLINE: _urcu_qsbr_thread_online(), cmm_smp_mb() after the word's
 * store; pairs with MB_UP_QSBR.
 */
#ifndef MB_QS_ONLINE
#define MB_QS_ONLINE	1
#endif

/* ---- Signal flavor: rcu/src/signal-barrier.h, flavor-internal.h ---- */

/*
 * MB_SIG_ACK_PRE: urcu__signal_ack() (signal-barrier.h), cmm_smp_mb()
 * before the acknowledgement.  SURVIVES: the acknowledgement is a release
 * store (SIG_ACK_REL), which orders the interrupted code's accesses
 * before it, and the fence after it (MB_SIG_ACK_POST, which is killed
 * alone) orders the interrupted code's stores before the code that
 * resumes: the two orderings the handler owes the updater.  Limit of
 * the model: it runs the handler as one step (the thread runs nothing
 * else meanwhile), so the updater cannot see the acknowledgement before
 * the last fence, and even without both this fence and the release no
 * counterexample is found; the pair is argued, not checked.
 */
#ifndef MB_SIG_ACK_PRE
#define MB_SIG_ACK_PRE	1
#endif

/*
 * SIG_ACK_REL: urcu__signal_ack(), release store of need_mb = 0; pairs
 * with SIG_NEED_ACQ.  SURVIVES: the full fence just before it
 * (MB_SIG_ACK_PRE) already orders the interrupted code's accesses before
 * the store.  Kept for ThreadSanitizer, which ignores fences; free on x86.
 * (See MB_SIG_ACK_PRE for what the model cannot check here.)
 */
#ifndef SIG_ACK_REL
#define SIG_ACK_REL	1
#endif

/*
 * MB_SIG_ACK_POST: urcu__signal_ack(), cmm_smp_mb() after the
 * acknowledgement.  KILLED BY: signal.
 */
#ifndef MB_SIG_ACK_POST
#define MB_SIG_ACK_POST	1
#endif

/*
 * MB_SIG_PRE: urcu__signal_mb_readers() (signal-barrier.h), cmm_smp_mb()
 * before setting need_mb and signalling.  SURVIVES: the removal and the
 * epoch store are already behind the watch's fence (MB_UP_OBSERVE),
 * which always runs first, and the looks in between only decide whom to
 * signal.  Kept so that the function orders what precedes it on its own,
 * whoever calls it.
 */
#ifndef MB_SIG_PRE
#define MB_SIG_PRE	1
#endif

/*
 * SYS_KILL: urcu__signal_send() (signal-barrier.h), pthread_kill() as a
 * barrier: the relaxed store of need_mb = 1 before it relies on it.
 * SURVIVES: without it the flag may reach memory after the handler
 * cleared it; the updater then waits for an acknowledgement already
 * given, but only until it sends again (SIG_RESEND), and the handler's
 * own fences, not this barrier, order the reader's accesses.  In the
 * code the barrier is the system call's and cannot be removed.
 */
#ifndef SYS_KILL
#define SYS_KILL	1
#endif

/*
 * SIG_NEED_ACQ: urcu__signal_pending() (signal-barrier.h), acquire load
 * of need_mb; pairs with SIG_ACK_REL.  SURVIVES: the fence that ends the
 * wait for acknowledgements (MB_SIG_POST) follows the last of these loads
 * before any other access and makes it an acquire.  Kept for
 * ThreadSanitizer; free on x86.  Killed together with MB_SIG_POST (MUTANT
 * line in the header).
 */
#ifndef SIG_NEED_ACQ
#define SIG_NEED_ACQ	1
#endif

/*
 * SIG_PARK_ACQ: urcu__signal_pending(), acquire load of parked; pairs
 * with PARK_REL.  SURVIVES: as SIG_NEED_ACQ, the fence MB_SIG_POST
 * follows it.  Kept for ThreadSanitizer; free on x86.
 */
#ifndef SIG_PARK_ACQ
#define SIG_PARK_ACQ	1
#endif

/*
 * MB_SIG_POST: urcu__signal_mb_readers(), cmm_smp_mb() after the last
 * acknowledgement.  SURVIVES: the acquire loads of need_mb and parked
 * (SIG_NEED_ACQ, SIG_PARK_ACQ) already order the updater's later
 * accesses after the acknowledgements; one of the two is needed.  Kept
 * for the non-C11 accesses of whoever called the master barrier.
 */
#ifndef MB_SIG_POST
#define MB_SIG_POST	1
#endif

/*
 * SIG_RESEND: urcu__signal_resend() (signal-barrier.h), SIGRCU sent
 * again to readers still silent once the polls are longest (a mechanism:
 * without it a lost signal stalls the grace period for good).  KILLED
 * BY: signal-live (the one run where signals are lost).
 */
#ifndef SIG_RESEND
#define SIG_RESEND	1
#endif

/*
 * MB_PARK: urcu__offline_for_wait() (flavor-internal.h), cmm_smp_mb()
 * before announcing parked.  SURVIVES: the announcement is a release
 * store (PARK_REL), which orders the thread's past sections before it,
 * as does the release exit store of the last of them (RD_EXIT_REL), which
 * the scan still reads.  Kept for the non-C11 accesses of those sections.
 */
#ifndef MB_PARK
#define MB_PARK		1
#endif

/*
 * PARK_REL: urcu__offline_for_wait(), release store of parked = 1; pairs
 * with SIG_PARK_ACQ.  SURVIVES: the full fence just before it (MB_PARK)
 * orders the same accesses.  Kept for ThreadSanitizer.
 */
#ifndef PARK_REL
#define PARK_REL	1
#endif

/*
 * MB_UNPARK: urcu__online_after_wait() (flavor-internal.h), cmm_smp_mb()
 * after parked = 0; pairs with MB_SIG_PRE and MB_UP_OBSERVE.  KILLED BY:
 * signal-wmm-words.
 */
#ifndef MB_UNPARK
#define MB_UNPARK	1
#endif

/* ---- Updater: rcu/src/gp-*.h, urcu.c, urcu-qsbr.c, membarrier.h ---- */

/*
 * UP_GP_REL: urcu__gp_run() (gp-synchronize.h), release store of the new
 * epoch; pairs with RD_GP_ACQ, RD_LOCKF_ACQ, QS_GP_ACQ, QS_ONLINE_ACQ
 * (and the fences that follow those loads).  KILLED BY: memb-wmm.
 */
#ifndef UP_GP_REL
#define UP_GP_REL	1
#endif

/*
 * MB_UP_OBSERVE: urcu__gp_observe() (gp-observe.h), cmm_smp_mb() between
 * the epoch store and the looks; pairs with MB_RD_FIRST.  KILLED BY:
 * memb-wmm.
 */
#ifndef MB_UP_OBSERVE
#define MB_UP_OBSERVE	1
#endif

/*
 * UP_LOOK_ACQ: urcu__gp_observe_look() (gp-observe.h), acquire load of a
 * reader word; pairs with RD_EXIT_REL, RD_CLAIM_REL, RD_FIRST_REL.
 */
#ifndef UP_LOOK_ACQ
#define UP_LOOK_ACQ	1
#endif

/*
 * UP_MEMBARRIER: urcu__membarrier_all() (membarrier.h): the barrier
 * membarrier(2) runs on every other thread; at 0 only the caller's own
 * fences remain.
 */
#ifndef UP_MEMBARRIER
#define UP_MEMBARRIER	1
#endif

/*
 * MB_UP_FALLBACK: urcu__membarrier_master_mb() (membarrier.h), the
 * cmm_smp_mb() of memb and bp without membarrier(2); pairs with
 * MB_RD_LOCKF.  KILLED BY: memb-fallback-wmm (on x86 the mutex lock
 * taken after the removal, a locked instruction, already drains it).
 */
#ifndef MB_UP_FALLBACK
#define MB_UP_FALLBACK	1
#endif

/*
 * MB_UP_MASTER: master_mb() of the mb flavor (urcu.c), cmm_smp_mb();
 * pairs with MB_RD_LOCKF.  KILLED BY: mb-wmm (as MB_UP_FALLBACK).
 */
#ifndef MB_UP_MASTER
#define MB_UP_MASTER	1
#endif

/*
 * MB_UP_QSBR: master_mb() of urcu-qsbr.c called as the master barrier,
 * cmm_smp_mb(); pairs with MB_QS_ONLINE and MB_QS_PUB.  KILLED BY:
 * qsbr-wmm (as MB_UP_FALLBACK).
 */
#ifndef MB_UP_QSBR
#define MB_UP_QSBR	1
#endif

/*
 * UP_SCAN_ACQ: urcu__section_holds_gp() (gp-synchronize.h), acquire load
 * of a reader word; pairs with RD_EXIT_REL.
 */
#ifndef UP_SCAN_ACQ
#define UP_SCAN_ACQ	1
#endif

/*
 * QS_HOLDS_ACQ: holds_gp() of urcu-qsbr.c, acquire load of a reader word;
 * pairs with QS_PUB_REL.
 */
#ifndef QS_HOLDS_ACQ
#define QS_HOLDS_ACQ	1
#endif

/*
 * UP_ARM_REL: urcu__gp_sleep_arm() (gp-wait-readers.h), release store of
 * -1 in the futex or wake word; pairs with RD_HINT_ACQ.  SURVIVES: it
 * serves only the wake hint (see RD_HINT_ACQ); QSBR readers load the
 * futex after a full fence and only to wake, and the barrier that
 * follows the store (MB_UP_QSBR_ARM, MB_UP_ARM) orders the rest.
 */
#ifndef UP_ARM_REL
#define UP_ARM_REL	1
#endif

/*
 * MB_UP_ARM: urcu__gp_sleep_arm(), the cmm_smp_mb() of flavors without
 * exact_mb (readers' wakes are hints).  SURVIVES: without it a reader may
 * miss the armed word and not wake the updater, whose sleep then times
 * out (HINT_TIMEOUT, killed alone): the wake is a hint for speed, and
 * neither safety nor progress depends on it.
 */
#ifndef MB_UP_ARM
#define MB_UP_ARM	1
#endif

/*
 * MB_UP_QSBR_ARM: master_mb() of urcu-qsbr.c called as exact_mb by
 * urcu__gp_sleep_arm(); pairs with MB_QS_PUB: no lost wake-up.
 */
#ifndef MB_UP_QSBR_ARM
#define MB_UP_QSBR_ARM	1
#endif

/*
 * HINT_TIMEOUT: urcu__gp_sleep_on_futex() -> urcu__gp_poll_sleep()
 * (gp-wait-readers.h, gp-poll-sleep.h): the sleep on the wake word has a
 * timeout (a mechanism: the readers' wake is a hint they may miss).
 */
#ifndef HINT_TIMEOUT
#define HINT_TIMEOUT	1
#endif

/* ---- Sharing grace periods: rcu/src/gp-waiters.h ---- */

/*
 * WT_PUSH_REL: urcu__gp_waiters_push(), release on the compare-exchange
 * that pushes a waiter; pairs with WT_DETACH_ACQ.
 */
#ifndef WT_PUSH_REL
#define WT_PUSH_REL	1
#endif

/*
 * WT_DETACH_ACQ: urcu__gp_waiters_detach(), acquire exchange; pairs with
 * WT_PUSH_REL.
 */
#ifndef WT_DETACH_ACQ
#define WT_DETACH_ACQ	1
#endif

/*
 * WT_SPIN_ACQ: urcu__gp_waiter_wait(), acquire load in the spin loop;
 * pairs with WT_WAKE_REL.
 */
#ifndef WT_SPIN_ACQ
#define WT_SPIN_ACQ	1
#endif

/*
 * WT_CAS_ACQ: urcu__gp_waiter_wait(), acquire on the compare-exchange to
 * SLEEPING (on failure it read DONE); pairs with WT_WAKE_REL.
 */
#ifndef WT_CAS_ACQ
#define WT_CAS_ACQ	1
#endif

/*
 * WT_SLEEP_ACQ: urcu__gp_waiter_wait(), acquire load in the sleep loop;
 * pairs with WT_WAKE_REL.
 */
#ifndef WT_SLEEP_ACQ
#define WT_SLEEP_ACQ	1
#endif

/*
 * WT_WAKE_REL: urcu__gp_waiter_wake(), release exchange to DONE.
 */
#ifndef WT_WAKE_REL
#define WT_WAKE_REL	1
#endif

/*
 * WT_SEQ_REL: urcu__synchronize() (gp-synchronize.h), release store of
 * the grace-period sequence at the end of a grace period.  SURVIVES: the
 * callers it serves do not rely on it: the gp mutex's unlock (a release)
 * and the release exchange to DONE (WT_WAKE_REL) that follow it order it
 * before their return.  It pairs with the acquire load of urcu__gp_seq()
 * in the polling API (poll.c), which the models do not cover.
 */
#ifndef WT_SEQ_REL
#define WT_SEQ_REL	1
#endif
