/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inline misuse of the memb flavor; see misuse.h. */
#define _LGPL_SOURCE
#ifndef URCU_DEBUG
#define URCU_DEBUG 1
#endif
#include <urcu.h>

#include "misuse.h"

void misuse_memb_unlock_without_lock(void)
{
	rcu_register_thread();
	rcu_read_unlock();
}

void misuse_memb_lock_unregistered(void)
{
	rcu_read_lock();
}
