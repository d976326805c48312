/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The qsbr side of the rculfhash cross-flavor test (see lfht.h).
 *
 * This unit includes only the qsbr flavor's header and calls that flavor
 * by its own names.  It creates the qsbr table, and works on the memb
 * table (created by memb_side.c) through the `const struct
 * rcu_flavor_struct *` it is handed, which is all it knows of that flavor.
 */
#include <stdbool.h>
#include <stdint.h>

#include <urcu/urcu-qsbr.h>
#include <urcu/rculfhash.h>

#include "lfht.h"

void lfht_cross_qsbr_init(struct lfht_cross *c)
{
	c->qsbr_fl = &urcu_qsbr_flavor;
	/*
	 * No CDS_LFHT_AUTO_RESIZE: then the resize lock is only ever taken
	 * by this side's worker.  With liburcu 0.13, a QSBR thread that
	 * stays online while it waits for that lock, held by a resize that
	 * waits for a grace period, deadlocks.
	 */
	c->qsbr_ht = cds_lfht_new_flavor(1, 1, 0, CDS_LFHT_ACCOUNTING,
					 &urcu_qsbr_flavor, NULL);
	ck_assert_ptr_nonnull(c->qsbr_ht);
}

void lfht_cross_qsbr_fini(struct lfht_cross *c)
{
	ck_assert_int_eq(cds_lfht_destroy(c->qsbr_ht, NULL), 0);
	urcu_qsbr_barrier();
}

/* Owns keys [LFHT_CROSS_KEYS, 2 * LFHT_CROSS_KEYS) of both tables. */
void *lfht_cross_qsbr_worker(void *arg)
{
	struct lfht_cross *c = arg;
	const struct rcu_flavor_struct *memb = c->memb_fl;
	const unsigned long base = LFHT_CROSS_KEYS;
	bool in_qsbr[LFHT_CROSS_KEYS] = { false };
	bool in_memb[LFHT_CROSS_KEYS] = { false };
	uint64_t seed = 0xd1b54a32d192ed03ULL;
	struct lfht_item *gone;
	unsigned long i, k;

	urcu_qsbr_register_thread();
	memb->register_thread();
	for (i = 0; (i & 63) != 63 || !harness_past(c->deadline); i++) {
		k = lfht_rand(&seed) % LFHT_CROSS_KEYS;

		urcu_qsbr_read_lock();
		gone = lfht_cross_flip(c->qsbr_ht, base + k, &in_qsbr[k]);
		lfht_cross_peek(c->qsbr_ht, k);
		urcu_qsbr_read_unlock();
		if (gone)
			urcu_qsbr_call_rcu(&gone->rcu, lfht_item_free_cb);

		memb->read_lock();
		gone = lfht_cross_flip(c->memb_ht, base + k, &in_memb[k]);
		lfht_cross_peek(c->memb_ht, k);
		memb->read_unlock();
		if (gone)
			memb->update_call_rcu(&gone->rcu, lfht_item_free_cb);
		urcu_qsbr_quiescent_state();

		/* Online and outside any memb read-side section. */
		if (i % 512 == 0)
			cds_lfht_resize(c->qsbr_ht, 1UL << (i / 512 % 10));
	}

	/* Only this thread changes its keys: the tables match the model. */
	urcu_qsbr_read_lock();
	lfht_cross_verify(c->qsbr_ht, base, in_qsbr);
	urcu_qsbr_read_unlock();
	memb->read_lock();
	lfht_cross_verify(c->memb_ht, base, in_memb);
	memb->read_unlock();

	/* Empty them, so that the tables can be destroyed. */
	for (k = 0; k < LFHT_CROSS_KEYS; k++) {
		if (in_qsbr[k]) {
			urcu_qsbr_read_lock();
			gone = lfht_cross_flip(c->qsbr_ht, base + k, &in_qsbr[k]);
			urcu_qsbr_read_unlock();
			if (gone)
				urcu_qsbr_call_rcu(&gone->rcu, lfht_item_free_cb);
		}
		if (in_memb[k]) {
			memb->read_lock();
			gone = lfht_cross_flip(c->memb_ht, base + k, &in_memb[k]);
			memb->read_unlock();
			if (gone)
				memb->update_call_rcu(&gone->rcu, lfht_item_free_cb);
		}
	}
	memb->unregister_thread();
	urcu_qsbr_unregister_thread();
	return NULL;
}
