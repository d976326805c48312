/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A grace-period wait inside a read-side critical section of the same
 * flavor: it waits for the caller.  The validator reports it, then the
 * flavor aborts with its own misuse message.  QSBR only tracks its
 * sections when the read side is checked: run it with URCU_DEBUG=1.
 *
 * usage: sync_in_section FLAVOR synchronize|barrier
 */
#include <stddef.h>
#include <string.h>

#include "cases.h"

int main(int argc, char **argv)
{
	const struct rcu_flavor_struct *flavor;

	if (argc != 3 || (strcmp(argv[2], "synchronize") != 0
			  && strcmp(argv[2], "barrier") != 0))
		case_usage("sync_in_section FLAVOR synchronize|barrier");
	flavor = case_flavor(argv[1]);
	flavor->register_thread();
	flavor->read_lock();
	if (strcmp(argv[2], "barrier") == 0)
		flavor->barrier();
	else
		flavor->update_synchronize_rcu();
	flavor->read_unlock();
	flavor->unregister_thread();
	return 0;
}
