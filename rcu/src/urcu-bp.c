/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-bp.c: the bullet-proof flavor.
 *
 * Reader protocol and grace periods are those of the memb flavor
 * (gp-synchronize.h), readers leaving a section included (they wake the
 * updater only on the fence fallback, gp-wait-readers.h); what differs
 * is the life cycle of readers.  A
 * thread registers itself on its first rcu_read_lock() (with every signal
 * blocked, so a handler that reads under RCU cannot re-enter the registry
 * lock), and a pthread key destructor unregisters it when it exits.
 */
#include "flavor-internal.h"

#include <signal.h>

#include "urcu-export.h"
#include "membarrier.h"

URCU_API struct urcu_gp rcu_gp = { .ctr = URCU_GP_EPOCH_STEP | URCU_GP_COUNT };
URCU_API DEFINE_URCU_TLS(struct urcu_reader, rcu_reader);
URCU_API int urcu_bp_has_sys_membarrier;

/* Signal mask saved by urcu_bp_before_fork(). */
static sigset_t fork_saved_mask;

/* Step (b) of a grace period (gp-synchronize.h), as memb's. */
static void master_mb(struct cds_list_head *readers,
		struct urcu__stall_watch *stall)
{
	(void) readers;
	(void) stall;
	urcu__membarrier_master_mb(&urcu_bp_has_sys_membarrier);
}

static bool master_mb_interrupts(void)
{
	return urcu__membarrier_in_use(&urcu_bp_has_sys_membarrier);
}

static const struct urcu__gp_ops gp_ops = {
	.master_mb = master_mb,
	.holds_gp = urcu__section_holds_gp,
	.sleep_mb = NULL,	/* readers' wakes, if any, are hints */
	.interrupts_readers = master_mb_interrupts,
	.watch_gap_ns = URCU__GP_OBSERVE_GAP_NS,
	.epoch_step = URCU_GP_EPOCH_STEP,
	.name = URCU__FLAVOR_STR,
	.holding = "inside a read-side critical section",
	.section_words = true,
};

URCU_API void synchronize_rcu(void)
{
	urcu__synchronize_outside_section(&gp_ops);
}

static void block_all_signals(sigset_t *saved)
{
	sigset_t all;
	int err;

	sigfillset(&all);
	err = pthread_sigmask(SIG_BLOCK, &all, saved);
	if (err)
		urcu__die("pthread_sigmask", err);
}

static void restore_signals(const sigset_t *saved)
{
	int err = pthread_sigmask(SIG_SETMASK, saved, NULL);

	if (err)
		urcu__die("pthread_sigmask", err);
}

/* pthread key destructor: a registered thread is exiting. */
static void reader_thread_exit(void *reader)
{
	struct urcu_reader *r = reader;
	sigset_t saved;

	urcu__check_outside_section(r, "thread exited", NULL);
	block_all_signals(&saved);
	urcu__registry_remove(&urcu__flavor_registry, r);
	restore_signals(&saved);
}

void urcu__flavor_init(void)
{
	urcu__registry_setup(&urcu__flavor_registry, reader_thread_exit);
	/* Relaxed: published to readers by pthread_once. */
	__atomic_store_n(&urcu_bp_has_sys_membarrier,
			 urcu__membarrier_setup(), __ATOMIC_RELAXED);
}

URCU_API void urcu_bp_register(void)
{
	struct urcu_reader *r = &URCU_TLS(rcu_reader);
	sigset_t saved;

	block_all_signals(&saved);
	rcu_init();
	/* A handler cannot have registered us meanwhile: signals are off. */
	if (!r->registered)
		urcu__registry_add(&urcu__flavor_registry, r);
	restore_signals(&saved);
}

URCU_API void rcu_register_thread(void)
{
	if (!URCU_TLS(rcu_reader).registered)
		urcu_bp_register();
}

/* Nothing to do (exit unregisters), but the rule holds as elsewhere. */
URCU_API void rcu_unregister_thread(void)
{
	urcu__check_outside_section(&URCU_TLS(rcu_reader),
		"rcu_unregister_thread() called",
		"grace periods would stop waiting for that section");
}

/*
 * Fork protection: hold both locks across fork() so the child never
 * inherits them in the middle of an update by a thread that does not exist
 * there, and keep signals blocked so a handler cannot take them.
 */
URCU_API void urcu_bp_before_fork(void)
{
	sigset_t saved;

	block_all_signals(&saved);
	urcu__gp_fork_prepare(&urcu__flavor_gp_state, &urcu__flavor_registry);
	fork_saved_mask = saved;
}

URCU_API void urcu_bp_after_fork_parent(void)
{
	sigset_t saved = fork_saved_mask;

	urcu__gp_fork_parent(&urcu__flavor_gp_state, &urcu__flavor_registry);
	restore_signals(&saved);
}

/*
 * In the child only the forking thread exists (urcu__gp_fork_child drops
 * the rest).  membarrier registration belongs to the parent's mm: redo it.
 */
URCU_API void urcu_bp_after_fork_child(void)
{
	sigset_t saved = fork_saved_mask;

	/* Relaxed: the child is single-threaded here. */
	if (__atomic_load_n(&urcu_bp_has_sys_membarrier, __ATOMIC_RELAXED)
	    && !urcu__membarrier_setup())
		__atomic_store_n(&urcu_bp_has_sys_membarrier, 0,
				 __ATOMIC_RELAXED);
	urcu__gp_fork_child(&urcu__flavor_gp_state, &urcu__flavor_registry, &rcu_gp,
			    &URCU_TLS(rcu_reader));
	restore_signals(&saved);
}

URCU_API DEFINE_RCU_FLAVOR(rcu_flavor);
