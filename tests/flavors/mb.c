/* Flavor table for the "mb" flavor; see flavors.h for why it is separate. */
#include <urcu/urcu-mb.h>
/* For urcu_mb_gp, the grace-period state the inline read side uses. */
#include <urcu/static/urcu-mb.h>

#include "flavors.h"

TEST_FLAVOR(mb, .gp_futex = &urcu_mb_gp.wake);
