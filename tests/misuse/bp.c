/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inline misuse of the bp flavor; see misuse.h. */
#define _LGPL_SOURCE
#ifndef URCU_DEBUG
#define URCU_DEBUG 1
#endif
#include <urcu-bp.h>

#include "misuse.h"

void misuse_bp_unlock_without_lock(void)
{
	rcu_register_thread();	/* else the message is about registration */
	rcu_read_unlock();
}
