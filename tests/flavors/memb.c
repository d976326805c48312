/* Flavor table for the "memb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-memb.h>
/* For urcu_memb_gp, the grace-period state the inline read side uses. */
#include <urcu/static/urcu-memb.h>

#include "flavors.h"

TEST_FLAVOR(memb, .gp_futex = &urcu_memb_gp.wake,
	    .has_sys_membarrier = &urcu_memb_has_sys_membarrier);
