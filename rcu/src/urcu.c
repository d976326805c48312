/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu.c: the memb, mb and signal flavors.
 *
 * Built three times, with -DRCU_MEMBARRIER, -DRCU_MB or -DRCU_SIGNAL; the
 * flavor header maps every generic name used below (rcu_read_lock,
 * synchronize_rcu, rcu_gp, rcu_reader, ...) onto that flavor's prefixed
 * symbol.  The flavors differ only in the barrier pair that gives readers
 * store-load ordering (see gp-synchronize.h for the grace-period proof):
 *
 *   flavor  reader barrier        updater "master" barrier
 *   memb    compiler barrier      membarrier(PRIVATE_EXPEDITED)
 *           (full fence if the kernel lacks it: run-time fallback)
 *   mb      full fence            full fence
 *   signal  compiler barrier      SIGRCU to each reader that did not move
 *                                 on by itself (gp-observe.h); it fences
 */
#include "flavor-internal.h"
#include "urcu-export.h"
#ifdef RCU_MEMBARRIER
#include "membarrier.h"
#endif
#ifdef RCU_SIGNAL
#include "signal-barrier.h"
#endif

URCU_API struct urcu_gp rcu_gp = { .ctr = URCU_GP_EPOCH_STEP | URCU_GP_COUNT };
URCU_API DEFINE_URCU_TLS(struct urcu_reader, rcu_reader);
#ifdef RCU_MEMBARRIER
URCU_API int urcu_memb_has_sys_membarrier;
#endif

/* Step (b) of a grace period (gp-synchronize.h). */
static void master_mb(struct cds_list_head *readers,
		struct urcu__stall_watch *stall)
{
#if defined(RCU_MEMBARRIER)
	(void) readers;
	(void) stall;
	urcu__membarrier_master_mb(&urcu_memb_has_sys_membarrier);
#elif defined(RCU_MB)
	(void) readers;
	(void) stall;
	/*
	 * Pairs with readers' cmm_smp_mb().  model: tags.pml MB_UP_MASTER
	 * (urcu.pml MASTER_FENCE, FLAVOR_MB).
	 */
	cmm_smp_mb();
#else
	urcu__signal_mb_readers(readers, &urcu__flavor_registry.lock, SIGRCU,
				stall);
#endif
}

#if defined(RCU_MEMBARRIER)
static bool master_mb_interrupts(void)
{
	return urcu__membarrier_in_use(&urcu_memb_has_sys_membarrier);
}
#elif defined(RCU_SIGNAL)
static bool master_mb_interrupts(void)
{
	return true;
}
#else
#define master_mb_interrupts	NULL	/* mb: a local fence */
#endif

/* How the updater paces its watch over busy readers (gp-observe.h). */
#ifdef RCU_SIGNAL
#define WATCH_GAP_NS	URCU__GP_OBSERVE_SLEPT_GAP_NS
#else
#define WATCH_GAP_NS	URCU__GP_OBSERVE_GAP_NS	/* mb: never watches */
#endif

static const struct urcu__gp_ops gp_ops = {
	.master_mb = master_mb,
	.holds_gp = urcu__section_holds_gp,
	.sleep_mb = NULL,	/* readers' wakes, if any, are hints */
	.interrupts_readers = master_mb_interrupts,
	.watch_gap_ns = WATCH_GAP_NS,
	.epoch_step = URCU_GP_EPOCH_STEP,
	.name = URCU__FLAVOR_STR,
	.holding = "inside a read-side critical section",
	.section_words = true,
};

URCU_API void synchronize_rcu(void)
{
	urcu__synchronize_outside_section(&gp_ops);
}

static void unregister_reader(struct urcu_reader *r)
{
	if (!r->registered)
		urcu__misuse("rcu_unregister_thread() called by a thread that "
			     "is not registered");
	urcu__check_outside_section(r, "rcu_unregister_thread() called",
		"grace periods would stop waiting for that section");
	/* Parked for good: the registry resets the flag once unlinked. */
	(void) urcu__offline_for_wait();
	urcu__registry_remove(&urcu__flavor_registry, r);
}

/* pthread key destructor: a registered thread is exiting. */
static void reader_thread_exit(void *reader)
{
	unregister_reader(reader);
}

#ifdef RCU_SIGNAL
static void sigrcu_handler(int sig, siginfo_t *info, void *context)
{
	(void) sig;
	(void) info;
	(void) context;
	urcu__signal_ack(&URCU_TLS(rcu_reader).need_mb);
}
#endif

void urcu__flavor_init(void)
{
	urcu__registry_setup(&urcu__flavor_registry, reader_thread_exit);
#if defined(RCU_MEMBARRIER)
	/* Relaxed: published to readers by the registry lock / pthread_once. */
	__atomic_store_n(&urcu_memb_has_sys_membarrier,
			 urcu__membarrier_setup(), __ATOMIC_RELAXED);
#elif defined(RCU_SIGNAL)
	urcu__signal_install(SIGRCU, sigrcu_handler);
#endif
}

URCU_API void rcu_register_thread(void)
{
	rcu_init();
	urcu__registry_add(&urcu__flavor_registry, &URCU_TLS(rcu_reader));
}

URCU_API void rcu_unregister_thread(void)
{
	unregister_reader(&URCU_TLS(rcu_reader));
}

URCU_API DEFINE_RCU_FLAVOR(rcu_flavor);
