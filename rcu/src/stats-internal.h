/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stats-internal.h: what stats.c asks of the call_rcu machinery of its
 * flavor (call-rcu.c), whose worker list is private to that file.
 */
#ifndef URCU_SRC_STATS_INTERNAL_H
#define URCU_SRC_STATS_INTERNAL_H

#include <stddef.h>

#include <urcu/stats.h>

#include "flavor-internal.h"

#define urcu__flavor_cb_stats		URCU__FLAVOR_SYM(cb_stats)
#define urcu__flavor_cb_workers		URCU__FLAVOR_SYM(cb_workers)
#define urcu__flavor_stats_at_exit	URCU__FLAVOR_SYM(stats_at_exit)

/*
 * Fill the call_rcu fields of @out (cb_queued, cb_invoked, cb_pending,
 * workers, barrier_calls): workers present and freed alike.
 */
void urcu__flavor_cb_stats(struct urcu_stats *out);

/*
 * Call @fn once per existing worker, with a fully filled record, under
 * the call_rcu mutex (@fn must not call into call_rcu); returns the
 * number of workers.
 */
size_t urcu__flavor_cb_workers(
		void (*fn)(const struct urcu_stats_worker *w, void *arg),
		void *arg);

/* The URCU_STATS=1 report, if asked for (stats.c); called at exit. */
void urcu__flavor_stats_at_exit(void);

#endif /* URCU_SRC_STATS_INTERNAL_H */
