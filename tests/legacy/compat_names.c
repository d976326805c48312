/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The flavor-suffixed names (<urcu/map/urcu-*.h>, "liburcu 0.10 and
 * older"), used the way a program mixing flavors used them: both flavor
 * headers in one file, no generic names.
 */
#include <stdlib.h>

#include <urcu/urcu-bp.h>
#include <urcu/urcu-qsbr.h>

#include "compat_names.h"

static int answer = 42;
static int *shared = &answer;
static int callbacks;

static void count_callback(struct rcu_head *head)
{
	(void) head;
	__atomic_fetch_add(&callbacks, 1, __ATOMIC_RELAXED);
}

int legacy_compat_round_trip(void)
{
	struct rcu_head qsbr_head, bp_head;
	int sum;

	rcu_register_thread_qsbr();
	rcu_read_lock_qsbr();
	sum = *rcu_dereference_qsbr(shared);
	rcu_read_unlock_qsbr();
	rcu_quiescent_state_qsbr();
	rcu_thread_offline_qsbr();
	synchronize_rcu_qsbr();
	rcu_thread_online_qsbr();
	call_rcu_qsbr(&qsbr_head, count_callback);
	rcu_thread_offline_qsbr();
	rcu_barrier_qsbr();
	rcu_thread_online_qsbr();
	rcu_unregister_thread_qsbr();

	rcu_read_lock_bp();
	sum += *urcu_bp_dereference(shared);
	rcu_read_unlock_bp();
	synchronize_rcu_bp();
	call_rcu_bp(&bp_head, count_callback);
	rcu_barrier_bp();

	if (__atomic_load_n(&callbacks, __ATOMIC_RELAXED) != 2)
		return -1;
	return sum;
}
