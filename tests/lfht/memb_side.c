/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memb side of the rculfhash cross-flavor test (see lfht.h).
 *
 * This unit includes only the memb flavor's header and calls that flavor
 * by its own names.  It creates the memb table, and works on the qsbr
 * table (created by qsbr_side.c) through the `const struct
 * rcu_flavor_struct *` it is handed, which is all it knows of that flavor.
 */
#include <stdbool.h>
#include <stdint.h>

#include <urcu/urcu-memb.h>
#include <urcu/rculfhash.h>

#include "lfht.h"

void lfht_cross_memb_init(struct lfht_cross *c)
{
	c->memb_fl = &urcu_memb_flavor;
	c->memb_ht = cds_lfht_new_flavor(1, 1, 0,
					 CDS_LFHT_AUTO_RESIZE | CDS_LFHT_ACCOUNTING,
					 &urcu_memb_flavor, NULL);
	ck_assert_ptr_nonnull(c->memb_ht);
}

void lfht_cross_memb_fini(struct lfht_cross *c)
{
	ck_assert_int_eq(cds_lfht_destroy(c->memb_ht, NULL), 0);
	urcu_memb_barrier();
}

/* Owns keys [0, LFHT_CROSS_KEYS) of both tables. */
void *lfht_cross_memb_worker(void *arg)
{
	struct lfht_cross *c = arg;
	const struct rcu_flavor_struct *qsbr = c->qsbr_fl;
	bool in_memb[LFHT_CROSS_KEYS] = { false };
	bool in_qsbr[LFHT_CROSS_KEYS] = { false };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	struct lfht_item *gone;
	unsigned long i, k;

	urcu_memb_register_thread();
	qsbr->register_thread();
	for (i = 0; (i & 63) != 63 || !harness_past(c->deadline); i++) {
		k = lfht_rand(&seed) % LFHT_CROSS_KEYS;

		urcu_memb_read_lock();
		gone = lfht_cross_flip(c->memb_ht, k, &in_memb[k]);
		lfht_cross_peek(c->memb_ht, LFHT_CROSS_KEYS + k);
		urcu_memb_read_unlock();
		if (gone)
			urcu_memb_call_rcu(&gone->rcu, lfht_item_free_cb);

		qsbr->read_lock();
		gone = lfht_cross_flip(c->qsbr_ht, k, &in_qsbr[k]);
		lfht_cross_peek(c->qsbr_ht, LFHT_CROSS_KEYS + k);
		qsbr->read_unlock();
		if (gone)
			qsbr->update_call_rcu(&gone->rcu, lfht_item_free_cb);
		qsbr->read_quiescent_state();

		if (i % 512 == 0) {
			/*
			 * This waits for memb grace periods and the memb
			 * table's resize lock: being qsbr-offline meanwhile
			 * keeps the other side's qsbr grace periods going.
			 */
			qsbr->thread_offline();
			cds_lfht_resize(c->memb_ht, 1UL << (i / 512 % 10));
			qsbr->thread_online();
		}
	}

	/* Only this thread changes its keys: the tables match the model. */
	urcu_memb_read_lock();
	lfht_cross_verify(c->memb_ht, 0, in_memb);
	urcu_memb_read_unlock();
	qsbr->read_lock();
	lfht_cross_verify(c->qsbr_ht, 0, in_qsbr);
	qsbr->read_unlock();

	/* Empty them, so that the tables can be destroyed. */
	for (k = 0; k < LFHT_CROSS_KEYS; k++) {
		if (in_memb[k]) {
			urcu_memb_read_lock();
			gone = lfht_cross_flip(c->memb_ht, k, &in_memb[k]);
			urcu_memb_read_unlock();
			if (gone)
				urcu_memb_call_rcu(&gone->rcu, lfht_item_free_cb);
		}
		if (in_qsbr[k]) {
			qsbr->read_lock();
			gone = lfht_cross_flip(c->qsbr_ht, k, &in_qsbr[k]);
			qsbr->read_unlock();
			if (gone)
				qsbr->update_call_rcu(&gone->rcu, lfht_item_free_cb);
		}
	}
	qsbr->unregister_thread();
	urcu_memb_unregister_thread();
	return NULL;
}
