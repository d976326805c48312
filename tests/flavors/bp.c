/* Flavor table for the "bp" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-bp.h>
/* For urcu_bp_gp, the grace-period word the inline read side uses. */
#include <urcu/static/urcu-bp.h>

#include "flavors.h"

TEST_FLAVOR(bp, .is_bp = 1, .gp_futex = &urcu_bp_gp.wake,
	    .has_sys_membarrier = &urcu_bp_has_sys_membarrier);
