/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flavor-internal.h: what the per-flavor support code (call_rcu, defer_rcu,
 * polling) sees of the flavor it is built for.
 *
 * Those files are compiled once per flavor with the flavor's -DRCU_*
 * define, like the flavor itself.  This header includes that flavor's API
 * with the generic names mapped (so the code says synchronize_rcu() and
 * rcu_read_lock()) and names the hidden hooks the flavor provides to them.
 * Internal cross-file symbols carry the flavor in their name
 * (urcu_memb__fork_prepare, ...) so that the static libraries of several
 * flavors can be linked into one program.
 */
#ifndef URCU_SRC_FLAVOR_INTERNAL_H
#define URCU_SRC_FLAVOR_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "urcu-die.h"
#include "urcu-export.h"

#define URCU_API_MAP
#if defined(RCU_QSBR)
/* The library defines urcu_qsbr_read_lock() & co (see urcu-qsbr.h). */
#define URCU_QSBR_BUILD_LIBRARY
#include <urcu/urcu-qsbr.h>
#include <urcu/static/urcu-qsbr.h>
#define URCU__FLAVOR_NAME	qsbr
#elif defined(RCU_BP)
#include <urcu/urcu-bp.h>
#include <urcu/static/urcu-bp.h>
#define URCU__FLAVOR_NAME	bp
#elif defined(RCU_MEMBARRIER)
#include <urcu/urcu.h>
#include <urcu/static/urcu-memb.h>
#define URCU__FLAVOR_NAME	memb
#elif defined(RCU_MB)
#include <urcu/urcu.h>
#include <urcu/static/urcu-mb.h>
#define URCU__FLAVOR_NAME	mb
#elif defined(RCU_SIGNAL)
#include <urcu/urcu.h>
#include <urcu/static/urcu-signal.h>
#define URCU__FLAVOR_NAME	signal
#else
#error "build with one of RCU_MEMBARRIER, RCU_MB, RCU_SIGNAL, RCU_QSBR, RCU_BP"
#endif

#define URCU__STR(x)		#x
#define URCU__XSTR(x)		URCU__STR(x)
/* The flavor's name as a string: "memb", "qsbr", ... */
#define URCU__FLAVOR_STR	URCU__XSTR(URCU__FLAVOR_NAME)

#define URCU__CAT3(a, b, c)	a##b##c
#define URCU__XCAT3(a, b, c)	URCU__CAT3(a, b, c)
/* urcu_<flavor>__<name>: hidden symbol shared by the flavor's files. */
#define URCU__FLAVOR_SYM(name)	URCU__XCAT3(urcu_, URCU__FLAVOR_NAME, __##name)

#include "gp-synchronize.h"
#include "lockdep-hooks.h"
#include "reader-registry.h"

/* The flavor's reader registry and grace-period state (gp-core.c). */
#define urcu__flavor_registry		URCU__FLAVOR_SYM(registry)
#define urcu__flavor_gp_state		URCU__FLAVOR_SYM(gp_state)
extern struct urcu__registry urcu__flavor_registry;
extern struct urcu__gp_state urcu__flavor_gp_state;

/*
 * Fork hooks of the grace-period machinery (gp-synchronize.h), called by
 * call_rcu_before_fork() and friends.  The bp flavor has public hooks of
 * its own that its users call themselves, so there these do nothing.
 */
#define urcu__flavor_fork_prepare	URCU__FLAVOR_SYM(fork_prepare)
#define urcu__flavor_fork_parent	URCU__FLAVOR_SYM(fork_parent)
#define urcu__flavor_fork_child		URCU__FLAVOR_SYM(fork_child)
void urcu__flavor_fork_prepare(void);
void urcu__flavor_fork_parent(void);
void urcu__flavor_fork_child(void);

/*
 * Release builds with URCU_DEBUG=1 in the environment: the out-of-line
 * read side (read-side.c) runs the checked copies of read-side-checked.c.
 * Set once by rcu_init(), before the program's threads use the flavor.
 */
#define urcu__flavor_checked		URCU__FLAVOR_SYM(checked)
extern URCU_HIDDEN int urcu__flavor_checked;
#define urcu__read_lock_checked		URCU__FLAVOR_SYM(read_lock_checked)
#define urcu__read_unlock_checked	URCU__FLAVOR_SYM(read_unlock_checked)
#define urcu__quiescent_state_checked	URCU__FLAVOR_SYM(quiescent_state_checked)
#define urcu__thread_offline_checked	URCU__FLAVOR_SYM(thread_offline_checked)
#define urcu__thread_online_checked	URCU__FLAVOR_SYM(thread_online_checked)
void urcu__read_lock_checked(void);
void urcu__read_unlock_checked(void);	/* QSBR only */
void urcu__quiescent_state_checked(void);
void urcu__thread_offline_checked(void);
void urcu__thread_online_checked(void);

/*
 * One-time set-up of the flavor (registry key, membarrier registration,
 * signal handler), run by rcu_init() through pthread_once (gp-core.c).
 */
#define urcu__flavor_init		URCU__FLAVOR_SYM(init)
void urcu__flavor_init(void);

/* Grace-period sequence (urcu__gp_seq()), for the polling API. */
#define urcu__flavor_gp_seq		URCU__FLAVOR_SYM(gp_seq)
unsigned long urcu__flavor_gp_seq(void);

/*
 * Called before the calling thread blocks inside the library on something
 * that may wait for a grace period (a grace period itself, a worker, a
 * drainer, a mutex whose holder waits for one).  Returns whether the
 * matching urcu__online_after_wait() has work to undo.
 *
 * QSBR: the thread goes offline, or the grace period would wait for it.
 *
 * Signal: the thread "parks": it is outside any read-side section, so
 * after a full fence it may tell grace periods not to wait for its SIGRCU
 * acknowledgement.  Needed because some runtimes (ThreadSanitizer) defer
 * signal handlers while a thread is blocked in a system call or an
 * intercepted lock, which would otherwise deadlock the grace period.
 * Unparking ends with a full fence, so a read-side section entered
 * afterwards is ordered like one entered after a handler ran: the updater
 * reads the flag after its own fence (urcu__signal_mb_readers), and
 * either sees us parked before our fence, or we see its removals.
 *
 * Other flavors: nothing to do.
 */
static inline bool urcu__offline_for_wait(void)
{
#if defined(RCU_QSBR)
	bool was_online = URCU_TLS(rcu_reader).ctr != 0;

	if (was_online)
		rcu_thread_offline();
	return was_online;
#elif defined(RCU_SIGNAL)
	struct urcu_reader *r = &URCU_TLS(rcu_reader);

	/* Plain reads: only this thread writes these fields. */
	if (!r->registered || r->parked)
		return false;
	/*
	 * Orders our past read-side sections before the announcement.
	 * model: tags.pml MB_PARK (reader.pml park).
	 */
	cmm_smp_mb();
	/*
	 * Release: pairs with the acquire in urcu__signal_mb_readers().
	 * model: tags.pml PARK_REL (reader.pml park).
	 */
	__atomic_store_n(&r->parked, 1, __ATOMIC_RELEASE);
	return true;
#else
	return false;
#endif
}

static inline void urcu__online_after_wait(bool was_online)
{
#if defined(RCU_QSBR)
	if (was_online)
		rcu_thread_online();
#elif defined(RCU_SIGNAL)
	if (was_online) {
		/* Relaxed: the fence below orders it (see above). */
		__atomic_store_n(&URCU_TLS(rcu_reader).parked, 0,
				 __ATOMIC_RELAXED);
		/*
		 * Store-load: unparked before any later shared load.  model:
		 * tags.pml MB_UNPARK (reader.pml unpark).
		 */
		cmm_smp_mb();
	}
#else
	(void) was_online;
#endif
}

/*
 * Read-side nesting depth of reader @r, for the misuse checks of calls
 * that may wait for a grace period; negative after unlocks without a
 * matching lock (urcu__section_depth()).  QSBR tracks sections only where
 * they are compiled with URCU_DEBUG (the library in mode=debug, or a
 * program's inlined read side): elsewhere its count stays 0 and sections
 * go unnoticed.
 */
static inline long urcu__read_depth(const struct urcu_reader *r)
{
#if defined(RCU_QSBR)
	return (long) r->nesting;
#else
	return urcu__section_depth(r->ctr);
#endif
}

/*
 * Report @what ("synchronize_rcu() called", ...) by the thread of reader
 * @r, which is inside a read-side section (@why: what would go wrong, or
 * NULL), or whose word an unlock without a lock left looking so: the
 * message names that unlock instead, since the program has to be fixed
 * there.
 */
__attribute__((noreturn, cold, noinline, unused))
static void urcu__misuse_in_section(const struct urcu_reader *r,
		const char *what, const char *why)
{
	long depth = urcu__read_depth(r);
	char msg[400];

	if (depth < 0)
		snprintf(msg, sizeof(msg), "%s after an rcu_read_unlock() "
			 "without a matching rcu_read_lock(): this thread "
			 "called rcu_read_unlock() %ld time(s) more than "
			 "rcu_read_lock() (a read side inlined with "
			 "_LGPL_SOURCE checks each unlock only when built "
			 "with URCU_DEBUG)", what, -depth);
	else
		snprintf(msg, sizeof(msg), "%s from within a read-side "
			 "critical section (nesting depth %ld, or an "
			 "rcu_read_lock() without its rcu_read_unlock())%s%s",
			 what, depth, why ? ": " : "", why ? why : "");
	urcu__misuse(msg);
}

/* Abort through urcu__misuse_in_section() unless @r is outside sections. */
static inline void urcu__check_outside_section(const struct urcu_reader *r,
		const char *what, const char *why)
{
	if (caa_unlikely(urcu__read_depth(r) != 0))
		urcu__misuse_in_section(r, what, why);
}

#ifndef RCU_QSBR
/*
 * synchronize_rcu() of the flavors with read-side sections: refuse to run
 * inside one (the grace period would wait for the caller forever), and
 * park while waiting.
 */
static inline void urcu__synchronize_outside_section(
		const struct urcu__gp_ops *ops)
{
	bool parked;

	urcu__lockdep_wait_gp("synchronize_rcu()");
	urcu__check_outside_section(&URCU_TLS(rcu_reader),
		"synchronize_rcu() called",
		"the grace period would wait for the caller forever");
	parked = urcu__offline_for_wait();
	urcu__synchronize(&urcu__flavor_gp_state, &urcu__flavor_registry,
			  &rcu_gp, ops, &URCU_TLS(rcu_reader));
	urcu__online_after_wait(parked);
}
#endif

#endif /* URCU_SRC_FLAVOR_INTERNAL_H */
