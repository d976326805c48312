/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The qsbr flavor's table for the zoneserver (see server.h). */
#include <urcu-qsbr.h>

#include "server.h"

const struct zs_flavor zs_flavor_qsbr = {
	.name = "qsbr",
	.rcu = &urcu_qsbr_flavor,
};
