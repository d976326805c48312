/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The memb flavor's table for the zoneserver (see server.h).  Its
 * quiescent-state and online/offline calls do nothing, so the readers'
 * loop, written for QSBR, costs memb nothing extra.
 */
#include <urcu.h>

#include "server.h"

const struct zs_flavor zs_flavor_memb = {
	.name = "memb",
	.rcu = &urcu_memb_flavor,
};
