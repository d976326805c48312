/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The five flavors of examples/demo.c (see demo.h).  The flavor headers
 * are included by their own names, without <urcu.h>'s generic ones, so
 * that all five fit in this one file.
 */
#include <urcu/urcu-bp.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-signal.h>

#include "demo.h"

const struct demo_flavor demo_flavors[DEMO_N_FLAVORS] = {
	{ .name = "memb", .rcu = &urcu_memb_flavor },
	{ .name = "mb", .rcu = &urcu_mb_flavor },
	{ .name = "signal", .rcu = &urcu_signal_flavor },
	{ .name = "qsbr", .rcu = &urcu_qsbr_flavor,
	  .announces_quiescent_states = true },
	{ .name = "bp", .rcu = &urcu_bp_flavor },
};
