/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * urcu-qsbr.c: the quiescent-state-based flavor.
 *
 * Grace periods follow gp-synchronize.h with QSBR's notion of "holding" a
 * grace period: a reader holds epoch G while it is online and its last
 * announced quiescent state is older than G.  Readers publish quiescent
 * states with a release store followed by a full fence
 * (_urcu_qsbr_publish), so the updater's master barrier is a plain fence.
 */
#include "flavor-internal.h"

#include "urcu-export.h"

URCU_API struct urcu_gp rcu_gp = { .ctr = URCU_QSBR_GP_ONLINE };
URCU_API DEFINE_URCU_TLS(struct urcu_reader, rcu_reader);

/*
 * Full fence: orders the caller's removals (or the futex arming) before
 * the scan of reader words; paired with the fence in _urcu_qsbr_publish()
 * and _urcu_qsbr_thread_online().  model: tags.pml MB_UP_QSBR (as the
 * master barrier) and MB_UP_QSBR_ARM (as exact_mb; qsbr.pml).
 */
static void master_mb(struct cds_list_head *readers,
		struct urcu__stall_watch *stall)
{
	(void) readers;
	(void) stall;
	cmm_smp_mb();
}

static bool holds_gp(struct cds_list_head *node, unsigned long gp_ctr)
{
	struct urcu_reader *r = cds_list_entry(node, struct urcu_reader, node);
	/*
	 * Acquire: pairs with the release store in _urcu_qsbr_publish().
	 * model: tags.pml QS_HOLDS_ACQ (updater.pml scan, qsbr.pml).
	 */
	unsigned long v = __atomic_load_n(&r->ctr, __ATOMIC_ACQUIRE);

	return v && urcu_gp_ctr_before(v, gp_ctr);
}

static const struct urcu__gp_ops gp_ops = {
	.master_mb = master_mb,
	.holds_gp = holds_gp,
	.sleep_mb = master_mb,
	.epoch_step = URCU_QSBR_GP_CTR,
	.name = URCU__FLAVOR_STR,
	.holding = "online without a quiescent state since the grace "
		   "period began",
};

URCU_API void synchronize_rcu(void)
{
	bool was_online;

	urcu__lockdep_wait_gp("synchronize_rcu()");
	urcu__check_outside_section(&URCU_TLS(rcu_reader),
		"synchronize_rcu() called",
		"the grace period would wait for the caller forever");
	/* An online caller would otherwise wait for itself. */
	was_online = urcu__offline_for_wait();
	urcu__synchronize(&urcu__flavor_gp_state, &urcu__flavor_registry, &rcu_gp,
			  &gp_ops, &URCU_TLS(rcu_reader));
	urcu__online_after_wait(was_online);
}

static void unregister_reader(struct urcu_reader *r)
{
	if (!r->registered)
		urcu__misuse("rcu_unregister_thread() called by a thread that "
			     "is not registered");
	urcu__check_outside_section(r, "rcu_unregister_thread() called",
		"grace periods would stop waiting for that section");
	if (r->ctr)
		_urcu_qsbr_publish(r, 0);	/* go offline first */
	urcu__registry_remove(&urcu__flavor_registry, r);
}

static void reader_thread_exit(void *reader)
{
	unregister_reader(reader);
}

void urcu__flavor_init(void)
{
	urcu__registry_setup(&urcu__flavor_registry, reader_thread_exit);
}

/*
 * Join the registry offline, then come online: a grace period that
 * scanned before we joined ordered its removals before our registry
 * lock acquisition, and one that scans later sees us.
 */
URCU_API void rcu_register_thread(void)
{
	rcu_init();
	urcu__registry_add(&urcu__flavor_registry, &URCU_TLS(rcu_reader));
	_rcu_thread_online();
}

URCU_API void rcu_unregister_thread(void)
{
	unregister_reader(&URCU_TLS(rcu_reader));
}

URCU_API DEFINE_RCU_FLAVOR(rcu_flavor);
